package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestSKUObjectMatchesReflection checks, for every size with and without a
// region, that the hand-built SKU object (skuModel.objectValue) equals the
// framework's reflection conversion of the same model, and that a second,
// cached call returns the same value.
func TestSKUObjectMatchesReflection(t *testing.T) {
	ctx := context.Background()
	cat := testCatalog(t)
	asOf := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, region := range []string{"", "eastus", "westeurope"} {
		for _, s := range cat.SKUs() {
			fresh, diags := types.ObjectValueFrom(ctx, skuObjectType.AttrTypes, newSKUModel(s, region, asOf))
			if diags.HasError() {
				t.Fatalf("%s: %v", s.Name, diags)
			}
			for i := 0; i < 2; i++ {
				got, diags := skuObjectValue(ctx, s, region, asOf)
				if diags.HasError() {
					t.Fatalf("%s: %v", s.Name, diags)
				}
				if !got.Equal(fresh) {
					t.Fatalf("%s in %q (call %d): cached object differs from a fresh conversion", s.Name, region, i)
				}
			}
		}
	}
	// Another date is another entry: the lifecycle status depends on it.
	for _, s := range cat.SKUs() {
		rt, ok := s.RetirementTime()
		if !ok || s.Lifecycle.Status != "retiring" {
			continue
		}
		before, _ := skuObjectValue(ctx, s, "", rt.AddDate(0, 0, -1))
		after, _ := skuObjectValue(ctx, s, "", rt.AddDate(0, 0, 1))
		if before.Equal(after) {
			t.Fatalf("%s: objects the day before and after retirement are equal; the cache key must include the date", s.Name)
		}
		return
	}
	t.Fatal("no retiring size in the catalog")
}

// BenchmarkSKUObjectValue measures converting all 144 sizes into SKU
// objects: "reflection" is types.ObjectValueFrom on the model (what the
// provider did first), "objectValue" the hand-built conversion each size pays
// once per provider process, region and date, "cached" what each later read
// of the same size pays, "list" the hpcsku_catalog list of all sizes.
func BenchmarkSKUObjectValue(b *testing.B) {
	ctx := context.Background()
	cat := testCatalog(b)
	asOf := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	b.Run("reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range cat.SKUs() {
				if _, diags := types.ObjectValueFrom(ctx, skuObjectType.AttrTypes, newSKUModel(s, "eastus", asOf)); diags.HasError() {
					b.Fatal(diags)
				}
			}
		}
	})
	b.Run("objectValue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range cat.SKUs() {
				if _, diags := newSKUModel(s, "eastus", asOf).objectValue(); diags.HasError() {
					b.Fatal(diags)
				}
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range cat.SKUs() {
				if _, diags := skuObjectValue(ctx, s, "eastus", asOf); diags.HasError() {
					b.Fatal(diags)
				}
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, diags := skuListValue(ctx, cat.SKUs(), "eastus", asOf); diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
}
