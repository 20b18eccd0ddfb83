// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"regexp"
	"slices"
	"testing"
	"time"
)

func TestLookup(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		in, want string // want "" means not found
	}{
		{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H100_v5"},
		{"standard_nd96isr_h100_v5", "Standard_ND96isr_H100_v5"},
		{"STANDARD_ND96ISR_H100_V5", "Standard_ND96isr_H100_v5"},
		{"ND96isr_H100_v5", "Standard_ND96isr_H100_v5"},
		{"nd96isr_h100_v5", "Standard_ND96isr_H100_v5"},
		{"  Standard_NC4as_T4_v3\n", "Standard_NC4as_T4_v3"},
		{" nc4as_t4_v3 ", "Standard_NC4as_T4_v3"},
		{"HB120-32rs_v3", "Standard_HB120-32rs_v3"},
		{"Standard_NV16ahs_v4", "Standard_NV16ahs_v4"},
		{"nd128isrg5_gb300_v6", "Standard_ND128isrG5_GB300_v6"},
		{"Standard_ND96isr_H100", ""},
		{"ND96isr_H100_v5_", ""},
		{"Standard_", ""},
		{"standard_standard_nc6", ""},
		{"", ""},
		{"Standard_ND96is_H100_v5", "Standard_ND96is_H100_v5"}, // no size page; D58
	} {
		s, ok := c.Lookup(tc.in)
		switch {
		case tc.want == "" && ok:
			t.Errorf("Lookup(%q) = %s, want not found", tc.in, s.Name)
		case tc.want != "" && (!ok || s.Name != tc.want):
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.in, s, ok, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	c := referenceNames(t)
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		// After the name that contains the query, by the edit distance to
		// each name's beginning: "nd96isr_mi30" is 3 edits from
		// "nd96isr_h100", "nd96amsr_a10" 4 and "nd96asr_v4" 5.
		{"Standard_ND96isr_H100", 3, []string{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5"}},
		{"nd96isr_h100", 3, []string{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5"}},
		{"STANDARD_ND96ISR_H100", 5, []string{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4"}},
		{"Standard_NC4as_T4", 1, []string{"Standard_NC4as_T4_v3"}},
		{"Standard_NC4as_T4_v2", 1, []string{"Standard_NC4as_T4_v3"}},
		{"Standard_HB120rs_v4", 2, []string{"Standard_HB120rs_v2", "Standard_HB120rs_v3"}},
		{"Standard_ND96isr_H100_v5", 1, []string{"Standard_ND96isr_H100_v5"}},
		// Fragments: names containing the query come first.
		{"h100", 3, []string{"Standard_NC40ads_H100_v5", "Standard_ND96isr_H100_v5", "Standard_NC80adis_H100_v5"}},
		{"gb200", 1, []string{"Standard_ND128isr_NDR_GB200_v6"}},
		{"Standard_ND96isr_H100", 0, []string{}},
		{"Standard_ND96isr_H100", -1, []string{}},
	} {
		got := c.suggest(SizeName, tc.in, tc.n)
		if got == nil || !equalStrings(got, tc.want) {
			t.Errorf("Suggest(%q, %d) = %#v, want %#v", tc.in, tc.n, got, tc.want)
		}
	}
	if got := c.suggest(SizeName, "x", 1000); len(got) != len(c.SKUs()) {
		t.Errorf("Suggest with n > sizes returned %d names, want every size (%d)", len(got), len(c.SKUs()))
	}
}

// filterCase is a filter and sizes it must return. How many sizes each
// case returns is in the golden summary (TestCatalogSummary).
type filterCase struct {
	name     string
	f        Filter
	includes []string // sizes the result must contain
	none     bool     // the result must be empty
}

func filterCases(t *testing.T) []filterCase {
	dataDate := date(t, "2026-11-01")
	jan := date(t, "2026-01-01")
	yes, no := true, false
	return []filterCase{
		{name: "families, case-insensitive", f: Filter{Families: []string{"hx"}, AsOf: dataDate},
			includes: []string{"Standard_HX176-144rs", "Standard_HX176-24rs", "Standard_HX176-48rs", "Standard_HX176-96rs", "Standard_HX176rs"}},
		{name: "two families", f: Filter{Families: []string{"ND", "nc"}, AsOf: dataDate}},
		{name: "series", f: Filter{Series: []string{"ND-H100-v5", "nd-h200-v5"}, AsOf: dataDate},
			includes: []string{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5"}},
		{name: "category cpu", f: Filter{Categories: []string{"CPU"}, AsOf: dataDate}},
		{name: "category hpc", f: Filter{Categories: []string{"hpc"}, AsOf: dataDate}},
		{name: "category hpc with retired", f: Filter{Categories: []string{"hpc"}, AsOf: dataDate, IncludeRetired: true}},
		{name: "category gpu", f: Filter{Categories: []string{"gpu"}, AsOf: dataDate}},
		{name: "category gpu with retired", f: Filter{Categories: []string{"gpu"}, AsOf: dataDate, IncludeRetired: true}},
		{name: "gpu vendor AMD at the data date", f: Filter{GPUVendor: "AMD", AsOf: dataDate},
			includes: []string{"Standard_ND96isr_MI300X_v5", "Standard_NG16ads_V620_v1", "Standard_NG32adms_V620_v1", "Standard_NG32ads_V620_v1",
				"Standard_NG8ads_V620_v1", "Standard_NV12ads_V710_v5", "Standard_NV24ads_V710_v5", "Standard_NV28adms_V710_v5",
				"Standard_NV4ads_V710_v5", "Standard_NV8ads_V710_v5"}},
		{name: "gpu vendor amd with retired", f: Filter{GPUVendor: "amd", AsOf: jan, IncludeRetired: true},
			includes: []string{"Standard_NV4as_v4", "Standard_NV32as_v4"}},
		{name: "gpu vendor nvidia", f: Filter{GPUVendor: "nvidia", AsOf: dataDate}},
		{name: "gpu model by id", f: Filter{GPUModels: []string{"h100-nvl-94gb"}, AsOf: dataDate},
			includes: []string{"Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5", "Standard_NCC40ads_H100_v5"}},
		{name: "gpu model by name", f: Filter{GPUModels: []string{"NVIDIA H100 NVL 94GB"}, AsOf: dataDate},
			includes: []string{"Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5", "Standard_NCC40ads_H100_v5"}},
		{name: "gpu models by name and id, any case", f: Filter{GPUModels: []string{"nvidia h100 80gb sxm", "MI300X"}, AsOf: dataDate},
			includes: []string{"Standard_ND96isr_H100_v5", "Standard_ND96isr_MI300X_v5"}},
		{name: "gpu model t4", f: Filter{GPUModels: []string{"t4"}, AsOf: dataDate},
			includes: []string{"Standard_NC16as_T4_v3", "Standard_NC4as_T4_v3", "Standard_NC64as_T4_v3", "Standard_NC8as_T4_v3"}},
		{name: "gpu model unknown", f: Filter{GPUModels: []string{"h800"}, IncludeRetired: true}, none: true},
		{name: "rdma true", f: Filter{RDMA: &yes, AsOf: dataDate}},
		{name: "rdma true with retired", f: Filter{RDMA: &yes, AsOf: dataDate, IncludeRetired: true}},
		{name: "rdma false", f: Filter{RDMA: &no, AsOf: dataDate}},
		{name: "min 8 GPUs", f: Filter{MinGPUs: f64(8), AsOf: dataDate},
			includes: []string{"Standard_ND40rs_v2", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4", "Standard_ND96isr_H100_v5",
				"Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5"}},
		{name: "min 1/4 GPU", f: Filter{MinGPUs: f64(0.25), AsOf: dataDate}},
		{name: "min 0.3 GPU excludes 1/4 and 1/6 slices", f: Filter{MinGPUs: f64(0.3), AsOf: dataDate}},
		{name: "min 1/8 GPU with retired", f: Filter{MinGPUs: f64(0.125), AsOf: jan, IncludeRetired: true},
			includes: []string{"Standard_NV4as_v4"}},
		{name: "min 0.13 GPU excludes the 1/8 slice", f: Filter{MinGPUs: f64(0.13), AsOf: jan, IncludeRetired: true}},
		{name: "min 640 GiB GPU memory in total", f: Filter{MinGPUMemoryGiB: f64(640), AsOf: dataDate},
			includes: []string{"Standard_ND128isrG5_GB300_v6", "Standard_ND128isr_GB300_v6", "Standard_ND128isr_NDR_GB200_v6",
				"Standard_ND96amsr_A100_v4", "Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5"}},
		{name: "min 96 GiB GPU memory in total", f: Filter{MinGPUMemoryGiB: f64(96), AsOf: dataDate}},
		{name: "region eastus", f: Filter{Region: "eastus", AsOf: dataDate}},
		{name: "region eastus with retired", f: Filter{Region: "eastus", AsOf: dataDate, IncludeRetired: true}},
		{name: "region nowhere", f: Filter{Region: "mars", IncludeRetired: true}, none: true},
		{name: "include retired", f: Filter{IncludeRetired: true, AsOf: dataDate}},
		{name: "everything current at the data date", f: Filter{AsOf: dataDate}},
		{name: "the day HBv2/HC retire", f: Filter{AsOf: date(t, "2027-05-31")}},
		{name: "the day before HBv2/HC retire", f: Filter{AsOf: date(t, "2027-05-30")},
			includes: []string{"Standard_HC44rs", "Standard_HB120rs_v2"}},
		// A zero AsOf is day one of year 1: only sizes whose status is
		// "retired" are left out, not those past their retirement date.
		{name: "zero filter: AsOf defaults to the data date", f: Filter{}},
		{name: "include preview changes nothing: no size is in preview", f: Filter{IncludePreview: true, AsOf: dataDate}},
		{name: "name regex", f: Filter{NameRegex: regexp.MustCompile(`_v6$`), AsOf: dataDate}},
		{name: "name regex with retired", f: Filter{NameRegex: regexp.MustCompile(`_v6$`), AsOf: dataDate, IncludeRetired: true}},
		{name: "name regex is case-sensitive", f: Filter{NameRegex: regexp.MustCompile(`^standard_`), IncludeRetired: true}, none: true},
		{name: "combined", f: Filter{Families: []string{"ND"}, RDMA: &yes, MinGPUs: f64(8), Region: "eastus", AsOf: dataDate},
			includes: []string{"Standard_ND40rs_v2", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4", "Standard_ND96isr_H100_v5"}},
	}
}

func TestFilter(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range filterCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			got := c.Filter(tc.f)
			if tc.none && len(got) != 0 {
				t.Errorf("%d sizes, want none: %v", len(got), skuNames(got))
			}
			if !tc.none && len(got) == 0 {
				t.Error("no size")
			}
			names := map[string]bool{}
			for _, s := range got {
				names[s.Name] = true
				if !tc.f.Match(s) {
					t.Errorf("Filter returned %s, which Match rejects", s.Name)
				}
			}
			for _, n := range tc.includes {
				if !names[n] {
					t.Errorf("%s is missing from %v", n, skuNames(got))
				}
			}
			checkFilterIsMatch(t, c, tc.f, got)
		})
	}
}

// checkFilterIsMatch checks that Filter returned exactly the sizes Match
// accepts at its date (the data date when AsOf is zero), in name order.
func checkFilterIsMatch(t *testing.T, c *Catalog, f Filter, got []*SKU) {
	t.Helper()
	at := f
	if at.AsOf.IsZero() {
		at.AsOf = c.DataDate
	}
	var want []string
	for _, s := range c.SKUs() {
		if at.Match(s) {
			want = append(want, s.Name)
		}
	}
	if !equalStrings(skuNames(got), want) && (len(got) != 0 || len(want) != 0) {
		t.Errorf("Filter = %v, Match accepts %v", skuNames(got), want)
	}
}

// TestFilterPreview needs a preview size, which the embedded catalog does
// not have.
func TestFilterPreview(t *testing.T) {
	docs := testDocs()
	prev := testSKU("Standard_NX16_v1")
	prev.Lifecycle = &LifecycleDoc{Status: StatusPreview}
	docs = append(docs, Document{SKUs: []SKUDoc{prev}})
	c, err := Build(docs, nil, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if got := skuNames(c.Filter(Filter{})); !equalStrings(got, []string{"Standard_NX8_v1"}) {
		t.Errorf("without previews: %v", got)
	}
	if got := skuNames(c.Filter(Filter{IncludePreview: true})); !equalStrings(got, []string{"Standard_NX16_v1", "Standard_NX8_v1"}) {
		t.Errorf("with previews: %v", got)
	}
}

func TestRetirementAtFixedDates(t *testing.T) {
	c := mustDefault(t)
	utc := func(s string) time.Time {
		tt, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	for _, tc := range []struct {
		size    string
		asOf    time.Time
		retired bool
		days    int64
		hasDate bool
		status  string
	}{
		{"Standard_HC44rs", date(t, "2027-05-30"), false, 1, true, StatusRetiring},
		{"Standard_HC44rs", utc("2027-05-30T23:59:59Z"), false, 1, true, StatusRetiring},
		{"Standard_HC44rs", date(t, "2027-05-31"), true, 0, true, StatusRetired},
		{"Standard_HC44rs", utc("2027-05-31T18:00:00Z"), true, 0, true, StatusRetired},
		// The day is taken in UTC: 01:00 at +05:00 is still 30 May.
		{"Standard_HC44rs", utc("2027-05-31T01:00:00+05:00"), false, 1, true, StatusRetiring},
		{"Standard_HC44rs", date(t, "2027-07-01"), true, -31, true, StatusRetired},
		// D49 records NVv3 and NVv4 as retired because their date had come
		// by the data date; D83: before that date they are retiring.
		{"Standard_NV12s_v3", date(t, "2026-01-01"), false, 272, true, StatusRetiring},
		{"Standard_NV12s_v3", date(t, "2026-09-30"), true, 0, true, StatusRetired},
		{"Standard_NV12s_v3", date(t, "2026-11-01"), true, -32, true, StatusRetired},
		{"Standard_NV16ahs_v4", date(t, "2026-01-01"), false, 272, true, StatusRetiring},
		{"Standard_F2s_v2", date(t, "2026-11-01"), false, 745, true, StatusRetiring},
		{"Standard_HC44rs", date(t, "2026-11-01"), false, 211, true, StatusRetiring},
		{"Standard_HB120rs_v2", date(t, "2027-05-31"), true, 0, true, StatusRetired},
		// A catalog status retired does not retire a size before its date
		// (D83): H retired on 2022-08-31, the RTX PRO 6000 preview sizes on
		// 2026-03-18.
		{"Standard_H16r", date(t, "2020-01-01"), false, 973, true, StatusRetiring},
		{"Standard_H16r", date(t, "2022-08-31"), true, 0, true, StatusRetired},
		{"Standard_NC320ds_xl_RTXPRO6000BSE_v6", date(t, "2026-01-01"), false, 76, true, StatusRetiring},
		{"Standard_NV6", date(t, "2026-11-01"), true, -1152, true, StatusRetired},
		{"Standard_ND96isr_H100_v5", date(t, "2030-01-01"), false, 0, false, StatusGA},
		{"Standard_NC24lds_xl_RTXPRO6000BSE_v6", date(t, "2026-11-01"), false, 0, false, StatusGA},
	} {
		s := mustLookup(t, c, tc.size)
		at := tc.asOf.Format(time.RFC3339)
		if got := s.RetiredAt(tc.asOf); got != tc.retired {
			t.Errorf("%s.RetiredAt(%s) = %v, want %v", tc.size, at, got, tc.retired)
		}
		days, ok := s.DaysUntilRetirement(tc.asOf)
		if days != tc.days || ok != tc.hasDate {
			t.Errorf("%s.DaysUntilRetirement(%s) = %d, %v; want %d, %v", tc.size, at, days, ok, tc.days, tc.hasDate)
		}
		if got := s.StatusAt(tc.asOf); got != tc.status {
			t.Errorf("%s.StatusAt(%s) = %s, want %s", tc.size, at, got, tc.status)
		}
	}
	rt, ok := mustLookup(t, c, "Standard_NV12s_v3").RetirementTime()
	if !ok || !rt.Equal(time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("RetirementTime() = %v, %v", rt, ok)
	}
}

func TestDistinctLists(t *testing.T) {
	c := mustDefault(t)
	// The lists derived from the sizes name each series and GPU model a
	// size uses, once, sorted.
	series, models := map[string]bool{}, map[string]bool{}
	for _, s := range c.SKUs() {
		series[s.Series] = true
		if s.GPU != nil {
			models[s.GPU.ModelID] = true
		}
	}
	if got := c.SeriesNames(); !equalStrings(got, sortedKeys(series)) || !slices.Contains(got, "Edsv5") || !slices.Contains(got, "NVv4") {
		t.Errorf("SeriesNames() = %v, want %v", got, sortedKeys(series))
	}
	if got := c.GPUModelIDs(); !equalStrings(got, sortedKeys(models)) || !slices.Contains(got, "a10") || !slices.Contains(got, "v710") {
		t.Errorf("GPUModelIDs() = %v, want %v", got, sortedKeys(models))
	}
	if _, ok := c.GPUModel("h800"); ok {
		t.Error("GPUModel(h800) found")
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "eastus", 6},
		{"eastus", "eastus", 0},
		{"eastus", "eastsu", 2},     // a transposition is two edits
		{"eastus", "eastus2", 1},    // insertion
		{"westeurope", "westus", 5}, // deletions and substitutions
		{"kitten", "sitting", 3},
		{"nd96isr_h100_v5", "nd96isr_h200_v5", 1},
		{"größe", "grosse", 3}, // ö→o, ß→s, one s more
		{"ö", "o", 1},          // runes, not bytes (2 in bytes)
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

// referenceNames is a catalog of names only: the sizes of the reference
// skus.csv and the models of the reference models.csv, with their display
// names. Suggestions are ranked among every name of a kind, so tests of the
// ranking use these frozen lists, which a size or model added to the
// embedded catalog does not change.
func referenceNames(t *testing.T) *Catalog {
	t.Helper()
	c := &Catalog{models: modelTable{byKey: map[string]*Model{}}}
	for _, r := range referenceCSV(t, "skus.csv") {
		c.skus = append(c.skus, &SKU{Name: r["name"]})
	}
	for _, r := range referenceCSV(t, "models.csv") {
		c.models.list = append(c.models.list, &Model{ID: r["id"], Name: r["display_name"]})
	}
	return c
}
