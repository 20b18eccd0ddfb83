// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"regexp"
	"strings"
	"testing"
)

func TestParseSource(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Source
	}{
		{"MicrosoftDocs/azure-compute-docs:articles/virtual-machines/sizes/gpu-accelerated/ndh100v5-series.md@02773904e1bc237bc0c6251323af05c0dc7f5c3b",
			Source{Repository: "MicrosoftDocs/azure-compute-docs", Path: "articles/virtual-machines/sizes/gpu-accelerated/ndh100v5-series.md", Commit: "02773904e1bc237bc0c6251323af05c0dc7f5c3b"}},
		{"Azure/azhpc-images:versions.json@8e9d055f (HEAD 2026-07-29; README.md at the same commit)",
			Source{Repository: "Azure/azhpc-images", Path: "versions.json", Commit: "8e9d055f", Note: "HEAD 2026-07-29; README.md at the same commit"}},
		{"x/y:a.md@1234567 (one) (two)", Source{Repository: "x/y", Path: "a.md", Commit: "1234567", Note: "one) (two"}},
		{"https://developer.nvidia.com/cuda-gpus", Source{URL: "https://developer.nvidia.com/cuda-gpus"}},
		{"https://learn.microsoft.com/azure/virtual-machines/hb-series (ms.date 05/30/2023)",
			Source{URL: "https://learn.microsoft.com/azure/virtual-machines/hb-series", Note: "ms.date 05/30/2023"}},
		{"Microsoft Tech Community blog post 4503578 (2026-03-18)", Source{Title: "Microsoft Tech Community blog post 4503578", Date: "2026-03-18"}},
		{"Microsoft Tech Community blog post 4503578 (2026-03-18) (GA size table; it spells names _RTXPro6000_v6)",
			Source{Title: "Microsoft Tech Community blog post 4503578", Date: "2026-03-18", Note: "GA size table; it spells names _RTXPro6000_v6"}},
		{"Reference facts for the embedded catalog (2026-11) (README)", Source{Title: "Reference facts for the embedded catalog", Date: "2026-11", Note: "README"}},
		{"NVIDIA H100 (SXM5) datasheet (2023)", Source{Title: "NVIDIA H100 (SXM5) datasheet", Date: "2023"}},
		{"MicrosoftDocs/azure-docs:articles/virtual-machines/nc-series-retirement.md (2022-12-20) (ms.date)",
			Source{Title: "MicrosoftDocs/azure-docs:articles/virtual-machines/nc-series-retirement.md", Date: "2022-12-20", Note: "ms.date"}},
	} {
		got, err := ParseSource(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSource(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

// sourcesOutsideGrammar are the kinds of entry the data files held before
// the grammar, and other near misses.
var sourcesOutsideGrammar = []string{
	"",
	"test",
	"specs includes/fsv2-series-specs.md@3b74475c55eccddd67f95efb297dbce4f2a81132",    // path relative to another entry
	"MicrosoftDocs/azure-compute-docs:articles/virtual-machines/sizes/hbv5-series.md", // no commit
	"MicrosoftDocs/azure-aks-docs@fb060abe6a8fef960d4c487b543bf7b1e97808fe:articles/aks/use-amd-gpus.md",
	"Azure/azhpc-images components/setup_sku_customizations.sh@8e9d055f",
	"x/y:a.md@123456",                      // commit too short
	"x/y:a.md@02773904E1BC237BC0C6251323A", // upper-case hex
	"x/y:a.md@0277390 ()",                  // empty note
	"x/y:a.md@0277390 (note",               // unclosed note
	"developer.nvidia.com/cuda-gpus",       // no scheme
	"http://developer.nvidia.com/cuda-gpus",
	"https://",
	"https:///path",
	"Microsoft Tech Community blog post 4503578",              // no date
	"Microsoft Tech Community blog post 4503578 (2026-13-18)", // no such month
	"Microsoft Tech Community blog post 4503578 (2026-02-30)",
	"Microsoft Tech Community blog post 4503578 (18 March 2026)",
	" (2026-03-18)", // no title
	"unknown-repo AKS Go list nvidiaEnabledSKUs (a later version)",
}

func TestParseSourceRejects(t *testing.T) {
	for _, s := range sourcesOutsideGrammar {
		if got, err := ParseSource(s); err == nil {
			t.Errorf("ParseSource(%q) = %+v, want an error", s, got)
		} else if !strings.Contains(err.Error(), SourceGrammar) {
			t.Errorf("ParseSource(%q): error %q does not state the grammar", s, err)
		}
	}
}

// TestSourcePatternAgrees checks that the schemas' pattern accepts every
// source ParseSource accepts (every source of the embedded catalog among
// them) and rejects the malformed entries above, but for dates that only
// ParseSource checks.
func TestSourcePatternAgrees(t *testing.T) {
	re := regexp.MustCompile(SourcePattern)
	var all []string
	for _, d := range embeddedDocs(t) {
		all = append(all, documentSources(d)...)
	}
	if len(all) < 700 {
		t.Fatalf("only %d sources in the data files", len(all))
	}
	for _, s := range all {
		if _, err := ParseSource(s); err != nil {
			t.Error(err)
		}
		if !re.MatchString(s) {
			t.Errorf("SourcePattern rejects %q", s)
		}
	}
	for _, s := range sourcesOutsideGrammar {
		if re.MatchString(s) && !strings.Contains(s, "(2026-") {
			t.Errorf("SourcePattern accepts %q", s)
		}
	}
}

// documentSources lists every source entry of a document.
func documentSources(d Document) []string {
	var out []string
	if d.Catalog != nil {
		out = append(out, d.Catalog.Sources...)
	}
	for _, x := range d.Decisions {
		out = append(out, x.Sources...)
	}
	for _, x := range d.GPUModels {
		out = append(out, x.Sources...)
	}
	for _, x := range d.Images {
		out = append(out, x.Source)
	}
	for _, x := range d.Series {
		out = append(out, x.Sources...)
		out = append(out, x.Lifecycle.Sources...)
		out = append(out, x.Support.Sources...)
	}
	for _, x := range d.SKUs {
		out = append(out, x.Sources...)
		if x.Lifecycle != nil {
			out = append(out, x.Lifecycle.Sources...)
		}
		if x.Support != nil {
			out = append(out, x.Support.Sources...)
		}
	}
	return out
}

// TestBuildRejectsSourcesOutsideGrammar checks that every place a source is
// written is validated, and that the error names the entry and the field.
func TestBuildRejectsSourcesOutsideGrammar(t *testing.T) {
	const bad = "specs includes/x.md@1234567"
	for _, tc := range []struct {
		name   string
		mutate func([]Document)
		want   string
	}{
		{"catalog", func(d []Document) { d[0].Catalog.Sources = []string{testSource, bad} }, `catalog: sources[1] "` + bad + `" is not a source`},
		{"decision", func(d []Document) { d[0].Decisions[0].Sources = []string{bad} }, `decision D1: sources[0] "` + bad + `"`},
		{"GPU model", func(d []Document) { d[1].GPUModels[0].Sources = []string{bad} }, `GPU model g1: sources[0] "` + bad + `"`},
		{"image", func(d []Document) { d[2].Images[0].Source = bad }, `image img: source "` + bad + `"`},
		{"series", func(d []Document) { d[3].Series[0].Sources = []string{bad} }, `series NX_v1: sources[0] "` + bad + `"`},
		{"series lifecycle", func(d []Document) { d[3].Series[0].Lifecycle.Sources = []string{bad} }, `series NX_v1: lifecycle.sources[0] "` + bad + `"`},
		{"series support", func(d []Document) { d[3].Series[0].Support.Sources = []string{bad} }, `series NX_v1: support.sources[0] "` + bad + `"`},
		{"size", func(d []Document) { lastSKU(d).Sources = []string{testSource, testSource, bad} }, `size Standard_NX8_v1: sources[2] "` + bad + `"`},
		{"size lifecycle", func(d []Document) {
			lastSKU(d).Lifecycle = &LifecycleDoc{Status: StatusGA, Sources: []string{bad}}
		}, `size Standard_NX8_v1: lifecycle.sources[0] "` + bad + `"`},
		{"size support", func(d []Document) {
			lastSKU(d).Support = &SupportOverrideDoc{AKS: &SupportEntryDoc{Status: SupportUnknown}, Sources: []string{bad}}
		}, `size Standard_NX8_v1: support.sources[0] "` + bad + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := testDocs()
			tc.mutate(docs)
			c, err := Build(docs, nil, nil)
			if err == nil {
				t.Fatalf("Build succeeded with %d sizes", len(c.SKUs()))
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.Contains(msg, SourceGrammar) || strings.Count(msg, "\n") != 0 {
				t.Errorf("error %q, want one line containing %q and the grammar", msg, tc.want)
			}
		})
	}
}

// TestSourceFormsInData counts the embedded sources by form; the counts
// are in the golden summary, this checks that each form is used.
func TestSourceFormsInData(t *testing.T) {
	forms := map[string]int{}
	for _, d := range embeddedDocs(t) {
		for _, s := range documentSources(d) {
			forms[sourceForm(t, s)]++
		}
	}
	for _, f := range []string{"repository file", "URL", "dated document"} {
		if forms[f] == 0 {
			t.Errorf("no %s among the sources: %v", f, forms)
		}
	}
}

func sourceForm(t *testing.T, s string) string {
	t.Helper()
	src, err := ParseSource(s)
	switch {
	case err != nil:
		t.Error(err)
		return "invalid"
	case src.Commit != "":
		return "repository file"
	case src.URL != "":
		return "URL"
	default:
		return "dated document"
	}
}

// A source's locator drops its note, and only its note.
func TestLocator(t *testing.T) {
	for in, want := range map[string]string{
		"Azure/azhpc-images:versions.json@8e9d055f (HEAD 2026-07-29; README.md at the same commit)": "Azure/azhpc-images:versions.json@8e9d055f",
		"https://example.org/page (a note)":        "https://example.org/page",
		"Azure HPC guidance (2026-01-01)":          "Azure HPC guidance (2026-01-01)",
		"Azure HPC guidance (2026-01-01) (a note)": "Azure HPC guidance (2026-01-01)",
		"https://example.org/page":                 "https://example.org/page",
	} {
		if got := Locator(in); got != want {
			t.Errorf("Locator(%q) = %q, want %q", in, got, want)
		}
	}
}
