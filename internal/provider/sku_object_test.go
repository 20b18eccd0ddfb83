// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// A retired size cannot be deployed: on every size of the embedded
// catalog, at two dates, availability says so for a retired size (not
// available in a region that offered it, no regions) and gives the regions
// that offer the others. priced_regions still says where it was priced.
func TestRetiredSizesAreNotAvailable(t *testing.T) {
	t.Parallel()
	cat := testProviderData(t).Catalog
	retired := 0
	for _, asOf := range []time.Time{testAsOf, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)} {
		for _, s := range cat.SKUs() {
			offered := s.AvailableRegions()
			region := "eastus"
			if len(offered) > 0 {
				region = offered[0]
			}
			m := newSKUModel(s, region, asOf)
			a := m.Availability
			if !s.RetiredAt(asOf) {
				if !reflect.DeepEqual(a.Regions, nonNil(offered)) || *a.Available != s.AvailableIn(region) {
					t.Errorf("%s at %s: regions %v, available %v; want the offering regions %v", s.Name, asOf.Format(catalog.DateLayout), a.Regions, *a.Available, offered)
				}
				continue
			}
			retired++
			if *a.Available || len(a.Regions) > 0 || len(a.Zones) > 0 {
				t.Errorf("%s, retired at %s: available %v in %s, regions %v, zones %v; want not available anywhere", s.Name, asOf.Format(catalog.DateLayout), *a.Available, region, a.Regions, a.Zones)
			}
			if len(m.PricedRegions) != len(s.Prices) {
				t.Errorf("%s: priced_regions %v, want its %d priced regions", s.Name, m.PricedRegions, len(s.Prices))
			}
		}
	}
	if retired == 0 {
		t.Error("no retired size checked")
	}
}

// TestSKUObjectMemo checks, for every size without a region and in two
// regions, that the memo returns a value equal to a fresh conversion,
// converts each (size, region, date) once, and keeps dates apart: the
// lifecycle status depends on the date.
func TestSKUObjectMemo(t *testing.T) {
	t.Parallel()
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

// TestSKUObjectPerformance converts every size and checks its performance
// object against the catalog's facts: gpu and cpu are null exactly where the
// catalog knows nothing, each figure carries the catalog's value, and every
// figure that is not null has a non-empty source list under its name (the
// clocks under "clocks").
func TestSKUObjectPerformance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := testCatalog(t)
	asOf := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	var gpus, cpus, derived int
	for _, s := range cat.SKUs() {
		obj, diags := newSKUObject(ctx, s, "", asOf)
		if diags.HasError() {
			t.Fatalf("%s: %v", s.Name, diags)
		}
		perf, ok := obj.Attributes()["performance"].(types.Object)
		if !ok || perf.IsNull() {
			t.Fatalf("%s: performance is %v; want an object, always set", s.Name, obj.Attributes()["performance"])
		}
		gpu := perf.Attributes()["gpu"].(types.Object)
		cpu := perf.Attributes()["cpu"].(types.Object)
		if gpu.IsNull() != (s.Performance.GPU == nil) || cpu.IsNull() != (s.Performance.CPU == nil) {
			t.Fatalf("%s: gpu null %v, cpu null %v; the catalog has GPU %v, CPU %v", s.Name, gpu.IsNull(), cpu.IsNull(), s.Performance.GPU != nil, s.Performance.CPU != nil)
		}
		if g := s.Performance.GPU; g != nil {
			gpus++
			checkGPUPerformance(t, s.Name, gpu, g)
		}
		if c := s.Performance.CPU; c != nil {
			cpus++
			checkCPUPerformance(t, s.Name, cpu, c)
			if c.FP64PeakDerived {
				derived++
			}
		}
	}
	// Every size of the embedded catalog has one or the other, and the
	// derived FP64 peaks of the general-purpose series are there.
	if gpus == 0 || cpus == 0 || derived == 0 || gpus+cpus < len(cat.SKUs()) {
		t.Fatalf("%d sizes: %d with GPU figures, %d with CPU figures, %d with a derived FP64 peak", len(cat.SKUs()), gpus, cpus, derived)
	}
}

// checkGPUPerformance checks the gpu object of size's performance against
// the catalog's GPU figures g.
func checkGPUPerformance(t *testing.T, size string, gpu types.Object, g *catalog.GPUPerformance) {
	t.Helper()
	figures := map[string]*float64{
		"fp64_tensor_tflops": g.FP64TensorTFLOPS, "int8_tops": g.DenseTFLOPS("int8"),
		"memory_bandwidth_gbs": g.MemoryBandwidthGBs, "nvlink_gbs_per_gpu": g.NVLinkGBsPerGPU, "usable_memory_gib": g.UsableMemoryGiB,
	}
	for _, p := range []string{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4"} {
		figures[p+"_tflops"] = g.DenseTFLOPS(p)
	}
	checkFigures(t, size+" gpu", gpu, figures, func(k string) string { return k })
	checkSourcesMap(t, size+" gpu", gpu, g.Sources)
}

// checkCPUPerformance checks the cpu object of size's performance against
// the catalog's CPU figures c: the clocks' sources are under "clocks".
func checkCPUPerformance(t *testing.T, size string, cpu types.Object, c *catalog.CPUPerformance) {
	t.Helper()
	figures := map[string]*float64{
		"base_ghz": c.BaseGHz, "max_boost_ghz": c.MaxBoostGHz, "all_core_ghz": c.AllCoreGHz,
		"stream_gbs": c.StreamGBs, "fp64_peak_gflops": c.FP64PeakGFLOPS,
	}
	if c.Cores != nil {
		f := float64(*c.Cores)
		figures["cores"] = &f
	} else {
		figures["cores"] = nil
	}
	clocks := func(k string) string {
		if k == "base_ghz" || k == "max_boost_ghz" || k == "all_core_ghz" {
			return "clocks"
		}
		return k
	}
	checkFigures(t, size+" cpu", cpu, figures, clocks)
	checkSourcesMap(t, size+" cpu", cpu, c.Sources)
	if d := cpu.Attributes()["fp64_peak_derived"].(types.Bool); d.ValueBool() != c.FP64PeakDerived {
		t.Errorf("%s: fp64_peak_derived %v, catalog %v", size, d, c.FP64PeakDerived)
	}
}

// checkFigures compares each figure of a performance object with the
// catalog's and requires a source list for each that is not null.
func checkFigures(t *testing.T, what string, o types.Object, want map[string]*float64, sourceKey func(string) string) {
	t.Helper()
	sources := o.Attributes()["sources"].(types.Map).Elements()
	for k, w := range want {
		v, ok := o.Attributes()[k]
		if !ok {
			t.Fatalf("%s: no attribute %s", what, k)
		}
		var got *big.Float
		switch v := v.(type) {
		case types.Float64:
			if !v.IsNull() {
				got = big.NewFloat(v.ValueFloat64())
			}
		case types.Int64:
			if !v.IsNull() {
				got = big.NewFloat(float64(v.ValueInt64()))
			}
		default:
			t.Fatalf("%s: %s is a %T", what, k, v)
		}
		switch {
		case w == nil && got != nil:
			t.Errorf("%s: %s is %v; the catalog has none", what, k, got)
		case w != nil && (got == nil || got.Cmp(big.NewFloat(*w)) != 0):
			t.Errorf("%s: %s is %v; the catalog has %v", what, k, got, *w)
		case w != nil:
			if l, ok := sources[sourceKey(k)].(types.List); !ok || len(l.Elements()) == 0 {
				t.Errorf("%s: %s = %v has no sources under %q", what, k, *w, sourceKey(k))
			}
		}
	}
}

// checkSourcesMap compares a performance object's sources with the catalog's.
func checkSourcesMap(t *testing.T, what string, o types.Object, want map[string][]string) {
	t.Helper()
	got := map[string][]string{}
	for k, v := range o.Attributes()["sources"].(types.Map).Elements() {
		for _, e := range v.(types.List).Elements() {
			got[k] = append(got[k], e.(types.String).ValueString())
		}
	}
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: sources %v; the catalog has %v", what, got, want)
	}
}

// TestSKUObjectPerformanceNull checks a size with no performance record:
// performance stays an object with null gpu and cpu.
func TestSKUObjectPerformanceNull(t *testing.T) {
	t.Parallel()
	m := newSKUPerformanceModel(catalog.Performance{})
	obj, diags := types.ObjectValueFrom(context.Background(), skuObjectType().AttrTypes["performance"].(types.ObjectType).AttrTypes, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	for _, k := range []string{"gpu", "cpu"} {
		if v := obj.Attributes()[k]; !v.IsNull() {
			t.Errorf("%s is %v without a performance record; want null", k, v)
		}
	}
}

// TestSKUObjectMemoIsBounded fills the memo to 10 below its cap with
// placeholder entries, then converts 20 (size, region) pairs: it never
// grows past its cap, it is emptied once and refilled, and what it returns
// after being emptied still equals a fresh conversion. (The placeholders
// spare the test a thousand conversions of about a millisecond each.)
func TestSKUObjectMemoIsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := testProviderData(t)
	const converts = 20
	memo := skuObjects{m: map[skuObjectKey]types.Object{}}
	for i := range skuObjectMemoSize - converts/2 {
		memo.m[skuObjectKey{sku: data.Catalog.SKUs()[0], region: "placeholder", asOf: int64(i)}] = types.ObjectNull(skuObjectType().AttrTypes)
	}
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
			if converted == converts {
				break pairs
			}
		}
	}
	if converted != converts || len(memo.m) != converts/2 {
		t.Fatalf("%d pairs converted, %d in the memo; want %d and %d (emptied once, then refilled)", converted, len(memo.m), converts, converts/2)
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
	t.Parallel()
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
			if _, diags := memo.list(ctx, cat.SKUs(), "eastus", asOf, skuFull); diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
}

// TestSKUObjectMatchesFramework converts every size of the embedded catalog,
// priced in a region and in none, and requires newSKUObject's object to be
// the one the framework's reflection makes of the same model.
func TestSKUObjectMatchesFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := testCatalog(t)
	for _, s := range cat.SKUs() {
		for _, region := range []string{"", "eastus"} {
			got, d := newSKUObject(ctx, s, region, testAsOf)
			if d.HasError() {
				t.Fatalf("%s: %v", s.Name, d)
			}
			want, d := types.ObjectValueFrom(ctx, skuObjectType().AttrTypes, newSKUModel(s, region, testAsOf))
			if d.HasError() {
				t.Fatalf("%s: %v", s.Name, d)
			}
			if !got.Equal(want) {
				t.Errorf("%s in %q: the converted record differs from the framework's", s.Name, region)
			}
		}
	}
}

// hpcsku_sku's warning for a region the availability file does not offer a
// size in names where else it can be deployed: nowhere for a retired size,
// whatever regions the file lists it in (NC24rs v3, retired 2025-09-30,
// listed in eastus), the file's regions for a current one.
func TestNotAvailableWarningNamesDeployableRegions(t *testing.T) {
	a, err := azureexport.ParseAvailability("skus.json", []byte(`[
{"name": "Standard_NC24rs_v3", "resourceType": "virtualMachines", "locations": ["eastus"]},
{"name": "Standard_ND96isr_H100_v5", "resourceType": "virtualMachines", "locations": ["westus3"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cat, _, err := catalogtest.Embedded(t).WithOverlays(catalog.Overlays{Availability: a.Overlay()})
	if err != nil {
		t.Fatal(err)
	}
	for size, want := range map[string]string{
		"Standard_NC24rs_v3":       "It is available nowhere: it is retired.",
		"Standard_ND96isr_H100_v5": "It is available in westus3.",
	} {
		s, ok := cat.Lookup(size)
		if !ok {
			t.Fatalf("no %s", size)
		}
		if w := notAvailableWarning(s, "westus2", testAsOf); !strings.HasSuffix(w, want) {
			t.Errorf("%s in westus2: %q, want it to end %q", size, w, want)
		}
	}
}
