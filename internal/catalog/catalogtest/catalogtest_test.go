// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalogtest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The embedded files are read in the loader's order: the directory loaded
// with catalog.LoadDir is the same catalog.
func TestLoadDirReadsTheSameCatalog(t *testing.T) {
	fromDir, err := catalog.LoadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	got := Fixture(t)
	if fromDir.Version != got.Version || !fromDir.DataDate.Equal(got.DataDate) || !reflect.DeepEqual(fromDir.Regions(), got.Regions()) {
		t.Errorf("LoadDir: version %s, date %s, regions %v; Fixture: %s, %s, %v",
			fromDir.Version, fromDir.DataDate, fromDir.Regions(), got.Version, got.DataDate, got.Regions())
	}
	if len(fromDir.SKUs()) != len(got.SKUs()) {
		t.Fatalf("LoadDir: %d sizes, Fixture: %d", len(fromDir.SKUs()), len(got.SKUs()))
	}
	for i, s := range got.SKUs() {
		if !reflect.DeepEqual(s, fromDir.SKUs()[i]) {
			t.Errorf("%s differs between LoadDir and Fixture", s.Name)
		}
	}
}

func TestFixtureIsBuiltOnce(t *testing.T) {
	first, second := Fixture(t), Fixture(t)
	if first != second {
		t.Error("Fixture built the catalog twice")
	}
	a, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if a == Fixture(t) || len(a.SKUs()) != len(Fixture(t).SKUs()) {
		t.Error("Load must build a new copy of the same catalog")
	}
}

func TestDocument(t *testing.T) {
	doc, err := Document("series.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Series) == 0 || len(doc.SKUs) != 0 {
		t.Errorf("series.json: %d series, %d sizes", len(doc.Series), len(doc.SKUs))
	}
	if _, err := Document("nothing.json"); err == nil {
		t.Error("a missing file must be an error")
	}
}

// TestFixtureCovers checks the cases testdata/README.md promises, which the
// tests using the fixture rely on.
func TestFixtureCovers(t *testing.T) {
	c := Fixture(t)
	day := c.DataDate
	if c.Version != "2026.11.0-fixture" || !day.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("version %s, data date %s", c.Version, day)
	}
	count := func(f func(*catalog.SKU) bool) (n int) {
		for _, s := range c.SKUs() {
			if f(s) {
				n++
			}
		}
		return n
	}
	retiring := func(s *catalog.SKU) bool {
		rt, ok := s.RetirementTime()
		return ok && !s.RetiredAt(day) && rt.Before(day.AddDate(1, 0, 0))
	}
	for _, tc := range []struct {
		what string
		f    func(*catalog.SKU) bool
		want int
	}{
		{"sizes", func(*catalog.SKU) bool { return true }, 19},
		{"GPU sizes", func(s *catalog.SKU) bool { return s.Category == catalog.CategoryGPU }, 13},
		{"HPC sizes", func(s *catalog.SKU) bool { return s.Category == catalog.CategoryHPC }, 3},
		{"CPU sizes", func(s *catalog.SKU) bool { return s.Category == catalog.CategoryCPU }, 3},
		{"InfiniBand sizes", func(s *catalog.SKU) bool { return s.Network.RDMA && s.Network.InfiniBand != "" }, 8},
		{"AMD GPU sizes", func(s *catalog.SKU) bool { return s.GPU != nil && s.GPU.Vendor == catalog.VendorAMD }, 2},
		{"fractional GPU sizes", func(s *catalog.SKU) bool { return s.GPU != nil && s.GPU.Count < 1 }, 3},
		{"retired at the data date", func(s *catalog.SKU) bool { return s.RetiredAt(day) }, 3},
		{"retiring within 12 months", retiring, 1},
		{"confidential", func(s *catalog.SKU) bool { return s.Confidential }, 1},
		{"isolated and current", func(s *catalog.SKU) bool { return s.Isolated && !s.RetiredAt(day) }, 1},
		{"unsupported on AKS", func(s *catalog.SKU) bool {
			return s.Support.AKS.Status == catalog.SupportUnsupported && !s.RetiredAt(day)
		}, 2},
		{"priced in eastus", func(s *catalog.SKU) bool { _, ok := s.Prices["eastus"]; return ok }, 17},
		{"priced in westeurope", func(s *catalog.SKU) bool { _, ok := s.Prices["westeurope"]; return ok }, 18},
		{"with a spot price in eastus", func(s *catalog.SKU) bool { return s.Prices["eastus"].SpotUSDPerHour != nil }, 11},
	} {
		if got := count(tc.f); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.what, got, tc.want)
		}
	}
	if got := c.Regions(); !slices.Equal(got, []string{"eastus", "eastus2", "westeurope"}) {
		t.Errorf("regions %v", got)
	}
	if h100, ok := c.Lookup("Standard_ND96isr_H100_v5"); !ok || h100.Prices["eastus"].USDPerHour != 98.32 {
		t.Errorf("ND96isr_H100_v5 in eastus: %+v", h100)
	}
}

func TestHelpers(t *testing.T) {
	c := Embedded(t)
	if s := Lookup(t, c, "nd96isr_h100_v5"); s.Name != "Standard_ND96isr_H100_v5" {
		t.Errorf("Lookup = %s", s.Name)
	}
	if d := Day(t, "2026-11-22"); !d.Equal(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Day = %v", d)
	}
}
