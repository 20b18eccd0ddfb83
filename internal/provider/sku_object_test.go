package provider

import (
	"context"
	"testing"
	"time"
)

// TestSKUObjectMemo checks, for every size without a region and in two
// regions, that the memo returns a value equal to a fresh conversion,
// converts each (size, region, date) once, and keeps dates apart: the
// lifecycle status depends on the date.
func TestSKUObjectMemo(t *testing.T) {
	ctx := context.Background()
	cat := testCatalog(t)
	asOf := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	var memo skuObjects
	regions := []string{"", "eastus", "westeurope"}
	for _, region := range regions {
		for _, s := range cat.SKUs() {
			fresh, diags := newSKUObject(ctx, s, region, asOf)
			if diags.HasError() {
				t.Fatalf("%s: %v", s.Name, diags)
			}
			for i := 0; i < 2; i++ {
				got, diags := memo.object(ctx, s, region, asOf)
				if diags.HasError() {
					t.Fatalf("%s: %v", s.Name, diags)
				}
				if !got.Equal(fresh) {
					t.Fatalf("%s in %q (call %d): memoized object differs from a fresh conversion", s.Name, region, i)
				}
			}
		}
	}
	if want := len(regions) * len(cat.SKUs()); len(memo.m) != want {
		t.Fatalf("the memo holds %d objects after converting %d (size, region) pairs twice each", len(memo.m), want)
	}
	// The price region is part of the key.
	s, _ := cat.Lookup("Standard_ND96isr_H100_v5")
	east, _ := memo.object(ctx, s, "eastus", asOf)
	none, _ := memo.object(ctx, s, "", asOf)
	if east.Attributes()["price"].IsNull() || !none.Attributes()["price"].IsNull() {
		t.Fatalf("price in eastus %v, without a region %v", east.Attributes()["price"], none.Attributes()["price"])
	}
	// Another date is another entry.
	for _, s := range cat.SKUs() {
		rt, ok := s.RetirementTime()
		if !ok || s.Lifecycle.Status != "retiring" {
			continue
		}
		before, _ := memo.object(ctx, s, "", rt.AddDate(0, 0, -1))
		after, _ := memo.object(ctx, s, "", rt.AddDate(0, 0, 1))
		if before.Equal(after) {
			t.Fatalf("%s: objects the day before and after retirement are equal; the memo key must include the date", s.Name)
		}
		return
	}
	t.Fatal("no retiring size in the catalog")
}

// TestSKUObjectMemoIsBounded converts more (size, region) pairs than the
// memo holds: it never grows past its cap, and what it returns after being
// emptied still equals a fresh conversion.
func TestSKUObjectMemoIsBounded(t *testing.T) {
	ctx := context.Background()
	data := testProviderData(t)
	var memo skuObjects
	converted := 0
pairs:
	for _, region := range data.Catalog.Regions() {
		for _, s := range data.Catalog.SKUs() {
			if _, d := memo.object(ctx, s, region, data.AsOf); d.HasError() {
				t.Fatal(d)
			}
			converted++
			if len(memo.m) > skuObjectMemoSize {
				t.Fatalf("the memo holds %d objects, more than its cap of %d", len(memo.m), skuObjectMemoSize)
			}
			if converted == skuObjectMemoSize+10 {
				break pairs
			}
		}
	}
	if converted != skuObjectMemoSize+10 || len(memo.m) != 10 {
		t.Fatalf("%d pairs converted, %d in the memo; want %d and 10 (emptied once, then refilled)", converted, len(memo.m), skuObjectMemoSize+10)
	}
	s := data.Catalog.SKUs()[0]
	region := data.Catalog.Regions()[0]
	fresh, _ := newSKUObject(ctx, s, region, data.AsOf)
	if got, _ := memo.object(ctx, s, region, data.AsOf); !got.Equal(fresh) {
		t.Fatalf("%s in %s after the memo was emptied differs from a fresh conversion", s.Name, region)
	}
}

// TestSKUObjectMemoPerConfiguration checks that each provider configuration
// has its own memo: a catalog with other prices never sees the objects of
// another configuration.
func TestSKUObjectMemoPerConfiguration(t *testing.T) {
	a, b := testProviderData(t), testProviderData(t)
	if &a.skus == &b.skus {
		t.Fatal("two configurations share one memo")
	}
	ctx := context.Background()
	s, _ := a.Catalog.Lookup("Standard_NC24ads_A100_v4")
	if _, d := a.skus.object(ctx, s, "eastus", a.AsOf); d.HasError() {
		t.Fatal(d)
	}
	if len(a.skus.m) != 1 || len(b.skus.m) != 0 {
		t.Fatalf("memo sizes %d and %d after one conversion in the first", len(a.skus.m), len(b.skus.m))
	}
}

// BenchmarkSKUObjectValue measures converting all 144 sizes into SKU
// objects: "fresh" is the framework's reflection (types.ObjectValueFrom),
// what each size pays once per configuration, region and date; "memo" what
// each later read of the same size pays; "list" the hpcsku_catalog list of
// all sizes from the memo.
func BenchmarkSKUObjectValue(b *testing.B) {
	ctx := context.Background()
	cat := testCatalog(b)
	asOf := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range cat.SKUs() {
				if _, diags := newSKUObject(ctx, s, "eastus", asOf); diags.HasError() {
					b.Fatal(diags)
				}
			}
		}
	})
	var memo skuObjects
	for _, s := range cat.SKUs() {
		if _, diags := memo.object(ctx, s, "eastus", asOf); diags.HasError() {
			b.Fatal(diags)
		}
	}
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range cat.SKUs() {
				if _, diags := memo.object(ctx, s, "eastus", asOf); diags.HasError() {
					b.Fatal(diags)
				}
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, diags := memo.list(ctx, cat.SKUs(), "eastus", asOf); diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
}
