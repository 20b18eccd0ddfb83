// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// yearsCatalogFile adds a GPU series and a CPU series, neither with a
// year_available: the GPU one falls back to its architecture's year (T4,
// Turing), the CPU one to DefaultGenerationYear.
const yearsCatalogFile = `{
  "series": [
    {"name": "XG", "family": "NC", "category": "gpu",
     "lifecycle": {"status": "ga", "sources": ["https://example.com/xg"]},
     "support": {"aks": {"status": "unknown"}, "azureml": {"status": "unknown"}, "cyclecloud": {"status": "unknown"}, "batch": {"status": "unknown"}},
     "sources": ["https://example.com/xg"]},
    {"name": "XC", "family": "F", "category": "cpu",
     "lifecycle": {"status": "ga", "sources": ["https://example.com/xc"]},
     "support": {"aks": {"status": "unknown"}, "azureml": {"status": "unknown"}, "cyclecloud": {"status": "unknown"}, "batch": {"status": "unknown"}},
     "sources": ["https://example.com/xc"]}
  ],
  "skus": [
    {"name": "Standard_XG4", "series": "XG", "vcpus": 4, "memory_gib": 28, "arch": "x86_64",
     "gpu": {"count": "1", "model": "t4", "memory_gib": 16, "interconnect": "PCIe"},
     "network": {"accelerated_networking": true, "rdma": false}, "hyperv_generations": ["2"],
     "confidential": false, "isolated": false, "sources": ["https://example.com/xg"]},
    {"name": "Standard_XC4", "series": "XC", "vcpus": 4, "memory_gib": 8, "arch": "x86_64",
     "network": {"accelerated_networking": true, "rdma": false}, "hyperv_generations": ["2"],
     "confidential": false, "isolated": false, "sources": ["https://example.com/xc"]}
  ]
}`

// The generation year comes from the data: the series' year_available,
// else the GPU architecture's architecture_year, else
// DefaultGenerationYear.
func TestGenerationYearFromData(t *testing.T) {
	f, err := catalog.ParseCatalogFile("years.json", []byte(yearsCatalogFile))
	if err != nil {
		t.Fatal(err)
	}
	cat, _, err := testCatalog(t).WithOverlays(catalog.Overlays{Catalog: f})
	if err != nil {
		t.Fatal(err)
	}
	t4, ok := cat.GPUModel("t4")
	if !ok || t4.ArchitectureYear == 0 {
		t.Fatalf("the catalog gives no architecture_year for t4: %+v", t4)
	}
	want := map[string]int{
		"Standard_XG4": t4.ArchitectureYear,
		"Standard_XC4": DefaultGenerationYear,
	}
	seen := 0
	for _, in := range prepare(cat).sizes {
		s := in.sku
		if w, ok := want[s.Name]; ok {
			seen++
			if s.SeriesYear != 0 {
				t.Errorf("%s: SeriesYear %d, want 0 (the series gives no year_available)", s.Name, s.SeriesYear)
			}
			if in.year != w {
				t.Errorf("%s: year %d, want %d", s.Name, in.year, w)
			}
			continue
		}
		if s.SeriesYear == 0 {
			// A series without year_available (NCads_A10_v4, NVv2) takes its
			// GPU architecture's year.
			if s.GPU == nil || s.GPU.ArchitectureYear == 0 {
				t.Errorf("%s: the embedded series %s has no year_available and no GPU architecture year", s.Name, s.Series)
			} else if in.year != s.GPU.ArchitectureYear {
				t.Errorf("%s: year %d, want the GPU architecture's %d", s.Name, in.year, s.GPU.ArchitectureYear)
			}
		} else if in.year != s.SeriesYear {
			t.Errorf("%s: year %d, want the series' %d", s.Name, in.year, s.SeriesYear)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d sizes the catalog file adds", seen, len(want))
	}
}
