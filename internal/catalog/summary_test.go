// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// update rewrites the golden files under testdata instead of comparing
// with them: go test ./internal/catalog -update.
var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// summaryGolden holds every count of the embedded catalog that a data change
// moves: sizes per family, series, category and status, prices per size,
// decision links, filter results. Tests assert properties and name sizes;
// the counts live here, so adding a size is a data change plus -update.
const summaryGolden = "testdata/summary.golden"

// summaryAsOf is the fixed date at which the summary reports statuses and
// runs the filters, so that it does not move with the catalog's data date.
const summaryAsOf = "2026-11-01"

// compareGolden compares got with the golden file, or rewrites the file
// with -update.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with go test ./internal/catalog -update)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	var diff []string
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			diff = append(diff, fmt.Sprintf("line %d:\n  got  %q\n  want %q", i+1, g, w))
		}
		if len(diff) == 10 {
			diff = append(diff, "...")
			break
		}
	}
	t.Errorf("%s differs from the catalog; review the change and run go test ./internal/catalog -update\n%s", path, strings.Join(diff, "\n"))
}

// counter prints a count per key, keys sorted.
type counter map[string]int

func (m counter) write(b *strings.Builder, section string) {
	fmt.Fprintf(b, "\n[%s]\n", section)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%s %d\n", k, m[k])
	}
}

// catalogSummary renders the counts of c, documents as read from the data
// files, and the reference facts it was converted from.
func catalogSummary(t *testing.T, c *Catalog, docs []Document) string {
	t.Helper()
	asOf := date(t, summaryAsOf)
	var b strings.Builder
	b.WriteString("# Counts of the embedded catalog, compared by TestCatalogSummary.\n")
	b.WriteString("# After a data change, review and regenerate: go test ./internal/catalog -update\n")
	fmt.Fprintf(&b, "as_of %s\n", summaryAsOf)

	writeDocumentCounts(t, &b, docs)
	sizes := writeSizeCounts(&b, c, asOf)
	kinds := counter{}
	for _, m := range c.Models() {
		kinds[m.Kind]++
	}
	kinds.write(&b, "models per kind")

	b.WriteString("\n[sizes each TestFilter case returns]\n")
	for _, tc := range filterCases(t) {
		fmt.Fprintf(&b, "%s: %d\n", tc.name, len(c.Filter(tc.f)))
	}

	writeBeyondReference(t, &b, c)

	fmt.Fprintf(&b, "\n[sizes: status at %s, priced regions, spot prices]\n", summaryAsOf)
	b.WriteString(strings.Join(sizes, "\n") + "\n")
	return b.String()
}

// writeDocumentCounts writes the summary's sections on the documents: the
// entries of each section per file, and the source entries by form.
func writeDocumentCounts(t *testing.T, b *strings.Builder, docs []Document) {
	t.Helper()
	perFile := counter{}
	for i, d := range docs {
		name := strings.TrimPrefix(embeddedDocuments[i], "data/")
		for section, n := range map[string]int{"decisions": len(d.Decisions), "gpu_models": len(d.GPUModels), "images": len(d.Images), "series": len(d.Series), "skus": len(d.SKUs)} {
			if n > 0 {
				perFile[name+" "+section] = n
			}
		}
	}
	perFile.write(b, "documents")

	forms := counter{}
	for _, d := range docs {
		for _, s := range documentSources(d) {
			forms[sourceForm(t, s)]++
			if src, err := ParseSource(s); err == nil && src.Note != "" {
				forms["with a note"]++
			}
		}
	}
	forms.write(b, "source entries by form")
}

// sizeCounts are the counters of the summary's sections on sizes.
type sizeCounts struct {
	totals, families, series, categories, status, statusAt, models, decisions counter
}

// writeSizeCounts writes the summary's totals and its sections on sizes,
// and returns the lines of its size list.
func writeSizeCounts(b *strings.Builder, c *Catalog, asOf time.Time) []string {
	n := sizeCounts{
		totals:   counter{"sizes": len(c.SKUs()), "series": len(c.series), "gpu_models": len(c.gpuModels), "decisions": len(c.Decisions), "price_regions": len(c.Regions())},
		families: counter{}, series: counter{}, categories: counter{}, status: counter{}, statusAt: counter{}, models: counter{}, decisions: counter{},
	}
	var sizes []string
	for _, s := range c.SKUs() {
		sizes = append(sizes, n.add(s, asOf))
	}
	n.totals.write(b, "totals")
	n.families.write(b, "sizes per family")
	n.series.write(b, "sizes per series (family, category, year available)")
	n.categories.write(b, "sizes per category")
	n.status.write(b, "sizes per recorded status")
	n.statusAt.write(b, "sizes per status at "+summaryAsOf)
	n.models.write(b, "sizes per GPU model (architecture, year)")
	n.decisions.write(b, "sizes per decision")
	return sizes
}

// add counts size s, its status taken at asOf, and returns its line of the
// size list.
func (n sizeCounts) add(s *SKU, asOf time.Time) string {
	n.families[s.Family]++
	n.series[fmt.Sprintf("%s (%s, %s, %d)", s.Series, s.Family, s.Category, s.SeriesYear)]++
	n.categories[s.Category]++
	n.status[s.Lifecycle.Status]++
	n.statusAt[s.StatusAt(asOf)]++
	if s.GPU != nil {
		n.models[fmt.Sprintf("%s (%s, %d)", s.GPU.ModelID, s.GPU.Architecture, s.GPU.ArchitectureYear)]++
	}
	for _, d := range s.Decisions {
		n.decisions[d]++
	}
	if s.Network.RDMA {
		n.totals["rdma_sizes"]++
	}
	if s.VCPUs == nil {
		n.totals["sizes_without_specs"]++
	}
	if !s.Deployable {
		n.totals["sizes_not_deployable"]++
	}
	if s.MemoryGiBAllotted != nil {
		n.totals["sizes_with_allotted_memory"]++
	}
	if s.QuotaVCPUs != nil {
		n.totals["sizes_with_quota_vcpus"]++
	}
	spot := 0
	for _, p := range s.Prices {
		n.totals["price_rows"]++
		if p.SpotUSDPerHour != nil {
			spot++
			n.totals["spot_prices"]++
		}
	}
	if len(s.Prices) > 0 {
		n.totals["priced_sizes"]++
	}
	return fmt.Sprintf("%s %s prices=%d spot=%d", s.Name, s.StatusAt(asOf), len(s.Prices), spot)
}

// writeBeyondReference writes what the catalog holds beyond the reference
// facts it was converted from (testdata/reference): the reference tests
// check the reverse.
func writeBeyondReference(t *testing.T, b *strings.Builder, c *Catalog) {
	t.Helper()
	b.WriteString("\n[not in the reference facts]\n")
	inRef := referenceEntries(t)
	for _, e := range catalogEntries(c) {
		if !inRef[e] {
			b.WriteString(e + "\n")
		}
	}
}

// referenceEntries returns the sizes, series, GPU models, GPU performance
// records and models of the reference facts, each named as catalogEntries
// names it.
func referenceEntries(t *testing.T) map[string]bool {
	t.Helper()
	inRef := map[string]bool{}
	for _, r := range referenceCSV(t, "skus.csv") {
		inRef["size "+r["name"]] = true
	}
	for _, r := range referenceCSV(t, "lifecycle.csv") {
		inRef["series "+refSeriesName(r["series"])] = true
	}
	for _, ids := range gpuRowModels {
		for _, id := range ids {
			inRef["GPU model "+id] = true
		}
	}
	for _, r := range referenceCSV(t, "gpu_perf.csv") {
		inRef["GPU performance "+r["id"]] = true
	}
	for _, r := range referenceCSV(t, "models.csv") {
		inRef["model "+r["id"]] = true
	}
	return inRef
}

// catalogEntries returns the sizes, series, GPU models, GPU performance
// records and models of c, each named by its kind, sorted.
func catalogEntries(c *Catalog) []string {
	var entries []string
	for _, s := range c.SKUs() {
		entries = append(entries, "size "+s.Name)
	}
	for name := range c.series {
		entries = append(entries, "series "+name)
	}
	for id := range c.gpuModels {
		entries = append(entries, "GPU model "+id)
	}
	for id := range c.perf.gpu {
		entries = append(entries, "GPU performance "+id)
	}
	for _, m := range c.Models() {
		entries = append(entries, "model "+m.ID)
	}
	sort.Strings(entries)
	return entries
}

func TestCatalogSummary(t *testing.T) {
	compareGolden(t, summaryGolden, []byte(catalogSummary(t, mustDefault(t), embeddedDocs(t))))
}

// TestCatalogSummaryNotesAChange proves the comparison catches an added
// priced size: its summary differs in the totals, the size list and the
// list of entries beyond the reference facts.
func TestCatalogSummaryNotesAChange(t *testing.T) {
	docs := embeddedDocs(t)
	base := catalogSummary(t, mustDefault(t), docs)
	extra := docs[4].SKUs[len(docs[4].SKUs)-1]
	extra.Name = "Standard_ND96isr_H100_v9"
	prices := string(embeddedBytes(t, "data/prices.csv")) + "eastus,Standard_ND96isr_H100_v9,1.5\n"
	c, err := Build(append(docs, Document{SKUs: []SKUDoc{extra}}), strings.NewReader(prices), embeddedCSV(t, "data/spot_prices.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := catalogSummary(t, c, docs)
	status := mustLookup(t, c, extra.Name).StatusAt(date(t, summaryAsOf))
	for _, line := range []string{
		fmt.Sprintf("\nsizes %d\n", len(mustDefault(t).SKUs())+1),
		"\nsize Standard_ND96isr_H100_v9\n",
		"\nStandard_ND96isr_H100_v9 " + status + " prices=1 spot=0\n",
	} {
		if strings.Contains(base, line) || !strings.Contains(got, line) {
			t.Errorf("summary with an added size: line %q missing, or already in the summary without it", line)
		}
	}
}

func embeddedBytes(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := embedded.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
