// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

const (
	dataDir      = "../../../catalog/data"
	availability = "../../testdata/availability.json"
	retail       = "../../testdata/prices_retail.json"
	negotiated   = "../../testdata/prices_negotiated.csv"
)

// pinnedPrices are the prices.csv rows the exports under ../../testdata and
// testdata give prices for, at the reference snapshot's figures ("" for a
// row that must be absent), and pinnedDates the catalog's dates then.
// copyData writes them into its copy, so the changes these tests expect do
// not move when a refresh of the embedded catalog changes those prices.
var (
	pinnedPrices = map[[2]string]string{
		{"eastus", "Standard_ND96isr_H100_v5"}:     "98.320000",
		{"westus2", "Standard_ND96isr_H100_v5"}:    "98.320000",
		{"westus3", "Standard_ND96isr_H100_v5"}:    "98.320000",
		{"eastus", "Standard_ND96amsr_A100_v4"}:    "32.770000",
		{"eastus", "Standard_ND96asr_v4"}:          "27.197000",
		{"eastus", "Standard_NC40ads_H100_v5"}:     "6.980000",
		{"eastus", "Standard_NV6ads_A10_v5"}:       "0.454000",
		{"eastus", "Standard_HB176rs_v4"}:          "7.200000",
		{"eastus2", "Standard_NG16ads_V620_v1"}:    "1.270000",
		{"centralus", "Standard_NG32adms_V620_v1"}: "4.056000",
		{"eastus2", "Standard_NG32adms_V620_v1"}:   "3.302000",
		{"japaneast", "Standard_NG32adms_V620_v1"}: "4.784000",
		{"westus2", "Standard_NG32adms_V620_v1"}:   "",
	}
	pinnedDates = map[string]string{"data_date": "2026-11-01", "price_snapshot_date": "2026-06-18"}
)

// copyData copies the catalog's data files to a temporary directory, with
// the pinned prices and dates.
func copyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() { // schema/: for editors, not read by the loader
			continue
		}
		b, err := os.ReadFile(filepath.Join(dataDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch e.Name() {
		case "prices.csv":
			b = pinPrices(t, b)
		case "catalog.json":
			for key, date := range pinnedDates {
				re := regexp.MustCompile(`("` + key + `": )"[0-9-]+"`)
				if !re.Match(b) {
					t.Fatalf("catalog.json has no %s", key)
				}
				b = re.ReplaceAll(b, []byte(`${1}"`+date+`"`))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pinPrices sets the pinned rows of a prices.csv, keeping its order and
// CRLF line endings; a missing pinned row is inserted where the sort by
// region and size puts it.
func pinPrices(t *testing.T, b []byte) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n")
	seen := map[[2]string]bool{}
	out := lines[:1]
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 3 {
			t.Fatalf("prices.csv line %q", l)
		}
		k := [2]string{f[0], f[1]}
		usd, pinned := pinnedPrices[k]
		seen[k] = true
		switch {
		case !pinned:
			out = append(out, l)
		case usd != "":
			out = append(out, f[0]+","+f[1]+","+usd)
		}
	}
	for k, usd := range pinnedPrices {
		if !seen[k] && usd != "" {
			out = append(out, k[0]+","+k[1]+","+usd)
		}
	}
	rows := out[1:]
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := strings.SplitN(rows[i], ",", 3), strings.SplitN(rows[j], ",", 3)
		return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1])
	})
	return []byte(strings.Join(out, "\r\n") + "\r\n")
}

// saved copies a file of a data directory before a run changes it.
func saved(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runRefresh(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestRefreshDryRun(t *testing.T) {
	dir := copyData(t)
	before := map[string]string{"prices.csv": saved(t, dir, "prices.csv"), "catalog.json": saved(t, dir, "catalog.json"), "spot_prices.csv": saved(t, dir, "spot_prices.csv")}
	out, errOut, code := runRefresh(t, "-data", dir, "-availability", availability, "-prices", retail, "-date", "2026-12-01")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	def := catalogtest.Embedded(t)
	for _, want := range []string{
		fmt.Sprintf("Catalog %s in %s: %d sizes, data date 2026-11-01, price snapshot 2026-06-18.", def.Version, dir, len(def.SKUs())),
		"Availability file " + availability + ": 19 entries, 16 sizes, 4 regions.",
		// New sizes are proposed as entries to complete, never added.
		"New sizes proposed: 1 (GPU and HPC families; 1 general-purpose size not in the catalog ignored)",
		"  Standard_NP10s: 10 vCPUs, 168 GiB memory",
		`    "name": "Standard_NP10s",`,
		`    "series": "TODO: series name from series.json, or a new series",`,
		// The API's known error on the A100 80GB size is shown, not applied.
		"Where the API disagrees with the catalog: 1 size",
		"  Standard_ND96amsr_A100_v4: memory 1800 GiB (catalog 1900)",
		"Prices changed: 1 (0 up, 1 down); unchanged: 5",
		"  Standard_ND96isr_H100_v5 in eastus: 98.32 -> 63.5 USD/h (-35.4%)",
		"Sizes priced in the file but not in the catalog: 2 (ignored)",
		`Spot prices in the file: 3; spot_prices.csv rows changed or added: 3, dated with the source "Azure Retail Prices API, Linux Spot meters (2026-12-01)"`,
		"  data_date: 2026-11-01 -> 2026-12-01",
		"  price_snapshot_date: 2026-06-18 -> 2026-12-01",
		"Nothing written (dry run).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"prices.csv", "catalog.json", "spot_prices.csv"} {
		a, _ := os.ReadFile(before[f])
		b, _ := os.ReadFile(filepath.Join(dir, f))
		if !bytes.Equal(a, b) {
			t.Errorf("a dry run changed %s", f)
		}
	}
}

func TestRefreshWrite(t *testing.T) {
	dir := copyData(t)
	prices, meta, spot := saved(t, dir, "prices.csv"), saved(t, dir, "catalog.json"), saved(t, dir, "spot_prices.csv")
	out, errOut, code := runRefresh(t, "-data", dir, "-availability", availability, "-prices", retail, "-date", "2026-12-01", "-write")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if !strings.Contains(out, "Wrote catalog.json, prices.csv, spot_prices.csv in "+dir) {
		t.Errorf("output:\n%s", out)
	}
	c, err := catalog.LoadDir(dir)
	if err != nil {
		t.Fatalf("the written catalog does not load: %v", err)
	}
	if c.DataDate.Format(catalog.DateLayout) != "2026-12-01" || c.PriceSnapshotDate != "2026-12-01" ||
		c.PriceSource != "Azure Retail Prices API (Linux Consumption meters, USD per hour), snapshot of 2026-12-01" {
		t.Errorf("dates %v %q, source %q", c.DataDate, c.PriceSnapshotDate, c.PriceSource)
	}
	def := catalogtest.Embedded(t)
	if len(c.SKUs()) != len(def.SKUs()) {
		t.Errorf("%d sizes, the catalog has %d: refresh must not add sizes", len(c.SKUs()), len(def.SKUs()))
	}
	s, _ := c.Lookup("Standard_ND96isr_H100_v5")
	if s.Prices["eastus"].USDPerHour != 63.5 || s.Prices["westus2"].USDPerHour != 98.32 {
		t.Errorf("H100 prices eastus %v, westus2 %v", s.Prices["eastus"].USDPerHour, s.Prices["westus2"].USDPerHour)
	}
	// The file's spot meters are written with their date and source: the
	// H100's spot price is the meter's 25.4 against the file's 63.5.
	p := s.Prices["eastus"]
	if p.SpotUSDPerHour == nil || *p.SpotUSDPerHour != 25.4 || p.SpotDate != "2026-12-01" || !strings.Contains(p.SpotSource, "Azure Retail Prices API, Linux Spot meters (2026-12-01)") {
		t.Errorf("H100 spot in eastus %v, date %q, source %q", p.SpotUSDPerHour, p.SpotDate, p.SpotSource)
	}
	if _, err := catalog.ParseSource("Azure Retail Prices API, Linux Spot meters (2026-12-01)"); err != nil {
		t.Errorf("spot source: %v", err)
	}
	// Only the changed row and the three dates differ, and the three spot
	// rows, all changed: the embedded table has an eastus row for each,
	// the NV6ads A10 v5's since the 2026-09-28 snapshot (D70).
	assertDiffLines(t, prices, filepath.Join(dir, "prices.csv"), 1)
	assertDiffLines(t, meta, filepath.Join(dir, "catalog.json"), 3)
	assertDiffLinesAdded(t, spot, filepath.Join(dir, "spot_prices.csv"), 3, 0)
}

// assertDiffLinesAdded checks that b is a with changed lines replaced and
// added lines inserted, by comparing the sets of lines.
func assertDiffLinesAdded(t *testing.T, a, b string, changed, added int) {
	t.Helper()
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	xl, yl := strings.Split(string(x), "\n"), strings.Split(string(y), "\n")
	if len(yl) != len(xl)+added {
		t.Fatalf("%s: %d lines, want %d", b, len(yl), len(xl)+added)
	}
	old := map[string]bool{}
	for _, l := range xl {
		old[l] = true
	}
	n := 0
	for _, l := range yl {
		if !old[l] {
			n++
		}
	}
	if n != changed+added {
		t.Errorf("%s: %d new lines, want %d changed and %d added", b, n, changed, added)
	}
}

func assertDiffLines(t *testing.T, a, b string, want int) {
	t.Helper()
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	xl, yl := strings.Split(string(x), "\n"), strings.Split(string(y), "\n")
	if len(xl) != len(yl) {
		t.Fatalf("%s: %d lines, was %d", b, len(yl), len(xl))
	}
	n := 0
	for i := range xl {
		if xl[i] != yl[i] {
			n++
		}
	}
	if n != want {
		t.Errorf("%s: %d lines changed, want %d", b, n, want)
	}
}

func TestRefreshRefusesUnsourcedCSV(t *testing.T) {
	dir := copyData(t)
	_, errOut, code := runRefresh(t, "-data", dir, "-prices", negotiated, "-write")
	if code != 1 || !strings.Contains(errOut, "the prices file is CSV: say where its prices come from with -price-source") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// A dry run shows it, with the note.
	out, _, code := runRefresh(t, "-data", dir, "-prices", negotiated)
	if code != 0 || !strings.Contains(out, "Note: the prices file is CSV.") || !strings.Contains(out, "Prices added (a catalog size in a region prices.csv did not have): 0") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestRefreshErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: go run ./internal/azureexport/cmd/refresh"},
		{[]string{"-prices", retail, "-date", "12/01/2026"}, 2, `-date "12/01/2026" is not YYYY-MM-DD`},
		{[]string{"-data", t.TempDir(), "-prices", retail}, 1, "does not load"},
		{[]string{"-data", dataDir, "-availability", "missing.json"}, 1, "missing.json: the availability file does not exist"},
	} {
		_, errOut, code := runRefresh(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
