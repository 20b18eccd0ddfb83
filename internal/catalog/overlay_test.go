// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

// fileErrorCase is a broken file and the parts its error must name.
type fileErrorCase struct{ name, in, entry, field, want string }

func mustOverlay(t *testing.T, o Overlays) (*Catalog, *OverlayReport) {
	t.Helper()
	c, rep, err := mustDefault(t).WithOverlays(o)
	if err != nil {
		t.Fatalf("WithOverlays: %v", err)
	}
	return c, rep
}

func TestLoadCatalogFileFixture(t *testing.T) {
	def := mustDefault(t)
	f, err := LoadCatalogFile("testdata/catalog_file.json")
	if err != nil {
		t.Fatal(err)
	}
	c, rep := mustOverlay(t, Overlays{Catalog: f})
	if len(c.SKUs()) != len(mustDefault(t).SKUs())+1 || !equalStrings(rep.SizesAdded, []string{"Standard_NP10s"}) || !equalStrings(rep.SizesReplaced, []string{"Standard_NC4as_T4_v3"}) {
		t.Errorf("%d sizes, added %v, replaced %v", len(c.SKUs()), rep.SizesAdded, rep.SizesReplaced)
	}
	np := mustLookup(t, c, "Standard_NP10s")
	if np.Family != "NP" || *np.VCPUs != 10 || len(np.Prices) != 0 {
		t.Errorf("NP10s = %+v", np)
	}
	// The correction changes one field and keeps the embedded prices.
	t4 := mustLookup(t, c, "Standard_NC4as_T4_v3")
	if embedded := mustLookup(t, def, "Standard_NC4as_T4_v3").Prices; *t4.MaxDataDisks != 12 || len(t4.Prices) == 0 || !reflect.DeepEqual(t4.Prices, embedded) {
		t.Errorf("NC4as_T4_v3: max data disks %d, %d prices (embedded: %d)", *t4.MaxDataDisks, len(t4.Prices), len(embedded))
	}
	// The embedded catalog is untouched and not decoded again.
	if def := mustLookup(t, mustDefault(t), "Standard_NC4as_T4_v3"); *def.MaxDataDisks != 8 {
		t.Errorf("embedded catalog changed")
	}
	if _, ok := mustDefault(t).Lookup("Standard_NP10s"); ok {
		t.Error("embedded catalog gained the overlay's size")
	}
	if mustDefault(t) != def || c == def {
		t.Error("the embedded catalog was decoded again, or returned as the overlaid one")
	}
}

func TestParseCatalogFileErrors(t *testing.T) {
	valid, err := os.ReadFile("testdata/catalog_file.json")
	if err != nil {
		t.Fatal(err)
	}
	sku := `{"name": "Standard_NX8_v1", "series": "NCasT4_v3", "vcpus": 8, "memory_gib": 56, "temp_disk_gib": 100, "arch": "x86_64",
		"network": {"accelerated_networking": true, "rdma": false, "ethernet_mbps": 8000}, "hyperv_generations": ["2"],
		"confidential": false, "isolated": false, "premium_storage": true, "max_data_disks": 8, "max_nics": 2, "sources": ["Test fixture (2026-01-01)"]`
	for _, tc := range []fileErrorCase{
		{"empty", " ", "", "", "the file is empty"},
		{"syntax", "{\n  \"skus\": [\n    {\"name\": \"Standard_NX8_v1\",,}\n  ]\n}", "", "", "invalid JSON at line 3, column 33"},
		{"trailing data", string(valid) + "{}", "", "", "the file holds more than one JSON document: another starts at line 96, column 1"},
		{"not an object", `[]`, "", "", "expected a JSON object with skus, series, gpu_models, gpu_performance, series_performance, images, models or decisions lists, got a list"},
		{"unknown section", `{"sizes": []}`, "", "sizes", "unknown section"},
		{"section not a list", `{"skus": {"name": "Standard_NX8_v1"}}`, "", "skus", "expected a list of objects, got an object"},
		{"unknown field", `{"skus": [` + sku + `}, ` + sku + `, "vcpu": 8}]}`, "skus[1] (Standard_NX8_v1)", "vcpu", `unknown field. Did you mean "vcpus"?`},
		{"unknown field like none", `{"skus": [` + sku + `, "zzzz": 8}]}`, "skus[0] (Standard_NX8_v1)", "zzzz", "unknown field. Check the spelling"},
		// The Azure ML support verdict is "azureml", as the target is spelled;
		// "azure_ml" is an unknown field in a series and in a size's override.
		{"azure_ml in a series", `{"series": [{"name": "NP", "support": {"aks": {"status": "unknown"}, "azure_ml": {"status": "supported"}}}]}`,
			"series[0] (NP)", "azure_ml", `unknown field. Did you mean "azureml"?`},
		{"azure_ml in a size", `{"skus": [` + sku + `, "support": {"azure_ml": {"status": "unsupported"}}}]}`,
			"skus[0] (Standard_NX8_v1)", "azure_ml", `unknown field. Did you mean "azureml"?`},
		{"wrong type", `{"skus": [` + sku + `, "notes": 1}]}`, "skus[0] (Standard_NX8_v1)", "notes", "expected a string, got a number"},
		{"wrong type deep", `{"skus": [` + strings.Replace(sku, `"rdma": false`, `"rdma": "no"`, 1) + `}]}`,
			"skus[0] (Standard_NX8_v1)", "network.rdma", "expected true or false, got a string"},
		{"wrong type in a GPU model", `{"gpu_models": [{"id": "x1", "memory_gib": "80"}]}`, "gpu_models[0] (x1)", "memory_gib", "expected a number, got a string"},
		{"catalog section", `{"catalog": {"version": "x", "data_date": "2026-01-01", "price_snapshot_date": "", "price_source": "", "spot_source": "", "spot_caveat": "", "sources": []}}`,
			"", "catalog", "not allowed in a catalog file"},
		{"nothing", `{}`, "", "", "no entries"},
		{"duplicate size", `{"skus": [` + sku + `}, ` + strings.Replace(sku, "Standard_NX8_v1", "standard_nx8_V1", 1) + `}]}`,
			"skus[1] (standard_nx8_V1)", "name", "duplicate: skus[0] has the same name"},
		{"duplicate GPU model", `{"gpu_models": [{"id": "x1"}, {"id": "x1"}]}`, "gpu_models[1] (x1)", "id", "duplicate"},
		{"missing name", `{"skus": [{"series": "NCasT4_v3"}]}`, "skus[0]", "name", "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCatalogFile("extra.json", []byte(tc.in))
			userfiletest.Check(t, err, "extra.json", tc.entry, tc.field, tc.want)
		})
	}
}

func TestCatalogFileMergeErrors(t *testing.T) {
	for _, tc := range []fileErrorCase{
		{"unknown series", `{"skus": [{"name": "Standard_NX8_v1", "series": "NX_v9", "arch": "x86_64", "sources": ["Test fixture (2026-01-01)"], "network": {}}]}`,
			"size Standard_NX8_v1", "", `series "NX_v9" is not defined`},
		{"bad value", `{"skus": [{"name": "Standard_NX8_v1", "series": "NCasT4_v3", "vcpus": -4, "arch": "x86_64", "sources": ["Test fixture (2026-01-01)"],
			"gpu": {"count": "1", "model": "t4", "interconnect": "PCIe"}, "network": {}}]}`, "size Standard_NX8_v1", "", "vcpus must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseCatalogFile("extra.json", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = mustDefault(t).WithOverlays(Overlays{Catalog: f})
			userfiletest.Check(t, err, "extra.json", tc.entry, tc.field, tc.want)
		})
	}
}

func TestLoadCatalogFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err := LoadCatalogFile(missing)
	userfiletest.Check(t, err, missing, "", "", "the catalog file does not exist")
	_, err = LoadCatalogFile("testdata/catalog_file.json", userfile.MaxBytes(100))
	userfiletest.Check(t, err, "testdata/catalog_file.json", "", "", "more than the 100 bytes limit. A catalog file holds the sizes")
	// The default limit: a sparse file one byte over it is refused before
	// anything is read.
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, userfile.DefaultLimits().CatalogFile+1); err != nil {
		t.Fatal(err)
	}
	_, err = LoadCatalogFile(big)
	userfiletest.Check(t, err, big, "", "", "the catalog file is 16.0 MiB, more than the 16 MiB limit.")
}

// TestPriceOverlay lays prices given by hand over the catalog: an
// on-demand price replaces the catalog's in its region only, a spot price
// alone updates the spot price of a region the catalog prices and is
// dropped elsewhere, and sizes the catalog lacks are ignored.
func TestPriceOverlay(t *testing.T) {
	usd := func(f float64) *float64 { return &f }
	p := &PriceOverlay{File: "p.csv", Source: "prices file p.csv (CSV)", SnapshotDate: "2026-12-01",
		Prices: map[string]map[string]OverlayPrice{
			"standard_nc4as_t4_v3": {
				"eastus":        {USDPerHour: usd(0.4), SpotUSDPerHour: usd(0.1)},
				"westus2":       {SpotUSDPerHour: usd(0.05)},
				"usgovvirginia": {SpotUSDPerHour: usd(0.07)},
			},
			"standard_x9": {"eastus": {USDPerHour: usd(1)}},
		}}
	def := mustDefault(t)
	before := mustLookup(t, def, "Standard_NC4as_T4_v3").Prices
	c, rep := mustOverlay(t, Overlays{Prices: p})
	s := mustLookup(t, c, "Standard_NC4as_T4_v3")
	east := s.Prices["eastus"]
	if east.USDPerHour != 0.4 || *east.SpotUSDPerHour != 0.1 || east.Source != p.Source || east.File != "p.csv" ||
		east.SnapshotDate != "2026-12-01" || east.SpotSource != p.Source+", spot meter" || east.SpotFile != "p.csv" {
		t.Errorf("eastus = %+v", east)
	}
	west, was := s.Prices["westus2"], before["westus2"]
	if west.USDPerHour != was.USDPerHour || west.Source != was.Source || west.File != "" || *west.SpotUSDPerHour != 0.05 || west.SpotFile != "p.csv" {
		t.Errorf("westus2 = %+v, was %+v", west, was)
	}
	if _, ok := s.Prices["usgovvirginia"]; ok || len(s.Prices) != len(before) || rep.PricesApplied != 2 {
		t.Errorf("%d prices (was %d), %d applied", len(s.Prices), len(before), rep.PricesApplied)
	}
	if _, ok := c.Lookup("Standard_X9"); ok {
		t.Error("a size only the prices file names was added")
	}
	if got := mustLookup(t, def, "Standard_NC4as_T4_v3").Prices["eastus"]; got != before["eastus"] || got.File != "" {
		t.Errorf("the embedded catalog changed: %+v", got)
	}
	// Without a snapshot date, a price keeps the catalog's.
	p.SnapshotDate = ""
	c, _ = mustOverlay(t, Overlays{Prices: p})
	if d := mustLookup(t, c, "Standard_NC4as_T4_v3").Prices["eastus"].SnapshotDate; d != def.PriceSnapshotDate {
		t.Errorf("snapshot date %q, want the catalog's %q", d, def.PriceSnapshotDate)
	}
}

// TestAvailabilityOverlay lays availability given by hand over the
// catalog: sizes the overlay lists are available where they are not
// restricted, the others nowhere; its regions become the catalog's.
func TestAvailabilityOverlay(t *testing.T) {
	restricted := &RegionAvailability{Region: "eastus", Zones: []string{}, Restrictions: []Restriction{{Type: RestrictionLocation, ReasonCode: ReasonQuotaID}}}
	a := &AvailabilityOverlay{File: "skus.json", Regions: []string{"eastus", "usgovvirginia"}, Sizes: map[string]SizeAvailability{
		"standard_nc4as_t4_v3": {QuotaFamily: "standardNCASv3_T4Family", Regions: map[string]*RegionAvailability{
			"eastus":        restricted,
			"usgovvirginia": {Region: "usgovvirginia", Zones: []string{"1"}},
		}},
	}}
	c, _ := mustOverlay(t, Overlays{Availability: a})
	if c.Availability() != a || c.AvailabilitySource() != "availability file skus.json" {
		t.Errorf("availability %p, source %q", c.Availability(), c.AvailabilitySource())
	}
	s := mustLookup(t, c, "Standard_NC4as_T4_v3")
	if s.QuotaFamily != "standardNCASv3_T4Family" || s.AvailabilitySource != "availability file skus.json" ||
		s.AvailableIn("eastus") || !s.AvailableIn("USGovVirginia") || !equalStrings(s.AvailableRegions(), []string{"usgovvirginia"}) {
		t.Errorf("NC4as_T4_v3: quota family %q, source %q, regions %v", s.QuotaFamily, s.AvailabilitySource, s.AvailableRegions())
	}
	if ra, listed := s.AvailabilityIn("eastus"); !listed || ra != restricted || ra.LocationRestriction().ReasonCode != ReasonQuotaID {
		t.Errorf("eastus: listed %t, %+v", listed, ra)
	}
	other := mustLookup(t, c, "Standard_ND96isr_H100_v5")
	// A size the file does not list keeps the catalog's quota family.
	if !other.HasAvailability() || len(other.AvailableRegions()) != 0 || other.QuotaFamily != "standardNDSH100v5Family" || len(other.Prices) == 0 {
		t.Errorf("a size the overlay does not list: regions %v, quota family %q", other.AvailableRegions(), other.QuotaFamily)
	}
	if !c.HasRegion("usgovvirginia") || mustDefault(t).HasRegion("usgovvirginia") {
		t.Error("the overlay's region is not the overlaid catalog's only")
	}
	if got := skuNames(c.Filter(Filter{Region: "usgovvirginia"})); !equalStrings(got, []string{"Standard_NC4as_T4_v3"}) {
		t.Errorf("sizes in usgovvirginia: %v", got)
	}
}
