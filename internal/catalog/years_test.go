// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"strings"
	"testing"
)

// The generation years as the ranking engine held them before they moved
// into the data files (internal/recommend/rules.go: "the approximate year
// each series became generally available on Azure" and "the launch year of
// the GPU architecture").
var (
	wantSeriesYear = map[string]int{
		"H": 2016, "HB": 2019, "HC": 2019, "HBv2": 2020, "HBv3": 2021, "HBv4": 2023, "HX": 2023, "HBv5": 2025,
		"Fsv2": 2017, "FX": 2021, "Ev5": 2021, "Edsv5": 2021,
		"NC": 2016, "NV": 2016, "NCv2": 2017, "ND": 2017, "NCv3": 2018, "NVv3": 2018, "NDv2": 2019,
		"NCasT4_v3": 2020, "NVv4": 2020, "NDasrA100_v4": 2021, "NDm_A100_v4": 2021, "NC_A100_v4": 2022,
		"NVadsA10_v5": 2022, "ND-H100-v5": 2023, "NCads_H100_v5": 2023, "NGads_V620": 2023,
		"NCCads_H100_v5": 2024, "ND-H200-v5": 2024, "ND-MI300X-v5": 2024, "NVads_V710_v5": 2024,
		"ND-GB200-v6": 2025, "ND-GB300-v6": 2025, "NC_RTXPRO6000BSE_v6": 2026,
	}
	wantArchitectureYear = map[string]int{
		"Kepler": 2014, "Maxwell": 2015, "Pascal": 2016, "Volta": 2017, "Turing": 2018, "Ampere": 2020,
		"Hopper": 2022, "Blackwell": 2024, "Blackwell Ultra": 2025,
		"CDNA3": 2023, "GCN 5 (Vega 10)": 2017, "RDNA2": 2020, "RDNA3": 2022,
	}
)

func TestGenerationYears(t *testing.T) {
	c := mustDefault(t)
	for name, want := range wantSeriesYear {
		if sr, ok := c.series[name]; !ok || sr.YearAvailable != want {
			t.Errorf("series %s: year_available %d, want %d", name, sr.YearAvailable, want)
		}
	}
	for id, g := range c.gpuModels {
		if want, ok := wantArchitectureYear[g.Architecture]; !ok || g.ArchitectureYear != want {
			t.Errorf("GPU model %s (%s): architecture_year %d, want %d", id, g.Architecture, g.ArchitectureYear, want)
		}
	}
	// Every series and GPU model of the embedded catalog has its year, and
	// every size carries them, but for the series whose decision says no
	// source gives one: their sizes carry 0, and the ranking takes the GPU
	// architecture's year.
	noYear := map[string]string{"NCads_A10_v4": "D39", "NVv2": "D41"}
	for name, id := range noYear {
		if sr := c.series[name]; sr.YearAvailable != 0 || !slices.Contains(sr.Decisions, id) {
			t.Errorf("series %s: year_available %d, decisions %v; want none, and %s saying why", name, sr.YearAvailable, sr.Decisions, id)
		}
	}
	for _, s := range c.SKUs() {
		if _, ok := noYear[s.Series]; ok {
			if s.SeriesYear != 0 || s.GPU == nil || s.GPU.ArchitectureYear < minYear {
				t.Errorf("%s: SeriesYear %d without a source, GPU %+v", s.Name, s.SeriesYear, s.GPU)
			}
			continue
		}
		if s.SeriesYear != c.series[s.Series].YearAvailable || s.SeriesYear < minYear {
			t.Errorf("%s: SeriesYear %d, series %s says %d", s.Name, s.SeriesYear, s.Series, c.series[s.Series].YearAvailable)
		}
		if s.GPU != nil && (s.GPU.ArchitectureYear != c.gpuModels[s.GPU.ModelID].ArchitectureYear || s.GPU.ArchitectureYear < minYear) {
			t.Errorf("%s: GPU.ArchitectureYear %d", s.Name, s.GPU.ArchitectureYear)
		}
	}
	h100 := mustLookup(t, c, "Standard_ND96isr_H100_v5")
	if h100.SeriesYear != 2023 || h100.GPU.ArchitectureYear != 2022 {
		t.Errorf("ND96isr_H100_v5: series year %d, architecture year %d; want 2023 and 2022", h100.SeriesYear, h100.GPU.ArchitectureYear)
	}
	if hb := mustLookup(t, c, "Standard_HB120rs_v3"); hb.SeriesYear != 2021 || hb.GPU != nil {
		t.Errorf("HB120rs_v3: series year %d", hb.SeriesYear)
	}
}

// TestGenerationYearsOptional checks a catalog file's series and GPU model
// without years: the size's SeriesYear is 0, and a GPU model takes the year
// of another model of its architecture.
func TestGenerationYearsOptional(t *testing.T) {
	docs := embeddedDocs(t)
	var sr SeriesDoc
	for _, x := range docs[3].Series {
		if x.Name == "ND-H100-v5" {
			sr = x
		}
	}
	sr.Name, sr.YearAvailable = "NX_v1", 0
	g := GPUModelDoc{ID: "h100-test", Name: "Test H100", Vendor: VendorNVIDIA, Architecture: "Hopper",
		ComputeCapability: "9.0", MinCUDA: "11.8", MaxCUDAMajor: 13, MemoryGiB: 80, Sources: []string{testSource}}
	odd := g
	odd.ID, odd.Architecture = "odd-test", "Unheard Of"
	a, b := testSKU("Standard_NX8_v1"), testSKU("Standard_NX16_v1")
	a.GPU.Model, b.GPU.Model = g.ID, odd.ID
	a.Series, b.Series = sr.Name, sr.Name
	docs = append(docs, Document{GPUModels: []GPUModelDoc{g, odd}, Series: []SeriesDoc{sr}, SKUs: []SKUDoc{a, b}})
	c, err := Build(docs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := mustLookup(t, c, a.Name); s.SeriesYear != 0 || s.GPU.ArchitectureYear != 2022 {
		t.Errorf("%s: series year %d, architecture year %d; want 0 and Hopper's 2022", s.Name, s.SeriesYear, s.GPU.ArchitectureYear)
	}
	if s := mustLookup(t, c, b.Name); s.GPU.ArchitectureYear != 0 {
		t.Errorf("%s: architecture year %d, want 0 for an architecture no model dates", s.Name, s.GPU.ArchitectureYear)
	}
}

func TestGenerationYearsValidated(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func([]Document) []Document
		want   string
	}{
		{"series year too small", func(d []Document) []Document { d[3].Series[0].YearAvailable = 23; return d },
			"series NX_v1: year_available 23 is not a year from 2000 to 2100"},
		{"series year too large", func(d []Document) []Document { d[3].Series[0].YearAvailable = 20233; return d },
			"series NX_v1: year_available 20233 is not a year from 2000 to 2100"},
		{"negative architecture year", func(d []Document) []Document { d[1].GPUModels[0].ArchitectureYear = -2022; return d },
			"GPU model g1: architecture_year -2022 is not a year from 2000 to 2100"},
		{"architectures disagree", func(d []Document) []Document {
			d[1].GPUModels[0].ArchitectureYear = 2022
			g := d[1].GPUModels[0]
			g.ID, g.ArchitectureYear = "g2", 2023
			return append(d, Document{GPUModels: []GPUModelDoc{g}})
		}, `GPU model g2: architecture_year 2023, but GPU model g1 of the same architecture "Hopper" says 2022`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Build(tc.mutate(testDocs()), nil, nil)
			if err == nil {
				t.Fatalf("Build succeeded with %d sizes", len(c.SKUs()))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}
