// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"testing"
	"time"
)

// BenchmarkDefault measures Default after its one decode: the cost every
// caller pays.
func BenchmarkDefault(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := Default()
		if err != nil || len(c.SKUs()) != 144 {
			b.Fatalf("Default: %v", err)
		}
	}
}

// BenchmarkLoadEmbedded measures the one-time decode, join and validation
// of the embedded catalog that Default does once per process.
func BenchmarkLoadEmbedded(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := loadEmbedded()
		if err != nil || len(c.SKUs()) != 144 {
			b.Fatalf("loadEmbedded: %v", err)
		}
	}
}

var benchNames = []string{
	"Standard_ND96isr_H100_v5", "standard_nc4as_t4_v3", "HB176rs_v4", "Standard_NV6ads_A10_v5",
	"nd128isr_ndr_gb200_v6", "Standard_E104ids_v5", "Standard_HX176-48rs", "Standard_Missing_v9",
}

func BenchmarkLookup(b *testing.B) {
	c := mustDefault(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name := benchNames[i%len(benchNames)]
		if _, ok := c.Lookup(name); ok == (name == "Standard_Missing_v9") {
			b.Fatalf("Lookup(%q) = %v", name, ok)
		}
	}
}

func BenchmarkFilter(b *testing.B) {
	c := mustDefault(b)
	yes := true
	f := Filter{
		Families:  []string{"ND", "NC"},
		GPUVendor: "nvidia",
		RDMA:      &yes,
		MinGPUs:   f64(4),
		Region:    "eastus",
		AsOf:      time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// ND40rs_v2, ND96asr_v4, ND96amsr_A100_v4, ND96isr_H100_v5 and
		// ND128isr_NDR_GB200_v6 (ND96isr_H200_v5 has no eastus price).
		if got := c.Filter(f); len(got) != 5 {
			b.Fatalf("Filter returned %d sizes, want 5", len(got))
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	c := mustDefault(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := c.Suggest(SizeName, "Standard_ND96isr_H100"); len(got) != 3 {
			b.Fatal(got)
		}
	}
}
