package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
	if len(c.SKUs()) != 145 || !equalStrings(rep.SizesAdded, []string{"Standard_NP10s"}) || !equalStrings(rep.SizesReplaced, []string{"Standard_NC4as_T4_v3"}) {
		t.Errorf("%d sizes, added %v, replaced %v", len(c.SKUs()), rep.SizesAdded, rep.SizesReplaced)
	}
	np := mustLookup(t, c, "Standard_NP10s")
	if np.Family != "NP" || *np.VCPUs != 10 || len(np.Prices) != 0 {
		t.Errorf("NP10s = %+v", np)
	}
	// The correction changes one field and keeps the embedded prices.
	t4 := mustLookup(t, c, "Standard_NC4as_T4_v3")
	if *t4.MaxDataDisks != 12 || len(t4.Prices) != 29 || t4.Prices["eastus"].USDPerHour != 0.526 {
		t.Errorf("NC4as_T4_v3: max data disks %d, %d prices", *t4.MaxDataDisks, len(t4.Prices))
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
		"confidential": false, "isolated": false, "premium_storage": true, "max_data_disks": 8, "max_nics": 2, "sources": ["test"]`
	for _, tc := range []fileErrorCase{
		{"empty", " ", "", "", "the file is empty"},
		{"syntax", "{\n  \"skus\": [\n    {\"name\": \"Standard_NX8_v1\",,}\n  ]\n}", "", "", "invalid JSON at line 3, column 33"},
		{"trailing data", string(valid) + "{}", "", "", "invalid JSON at line 96, column 2: unexpected character '{' after top-level value"},
		{"not an object", `[]`, "", "", "expected a JSON object with skus, series, gpu_models, images or decisions lists, got a list"},
		{"unknown section", `{"sizes": []}`, "", "sizes", "unknown section"},
		{"section not a list", `{"skus": {"name": "Standard_NX8_v1"}}`, "", "skus", "expected a list of objects, got an object"},
		{"unknown field", `{"skus": [` + sku + `}, ` + sku + `, "vcpu": 8}]}`, "skus[1] (Standard_NX8_v1)", "vcpu", "unknown field"},
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
			checkFileError(t, err, "extra.json", tc)
		})
	}
}

func TestCatalogFileMergeErrors(t *testing.T) {
	for _, tc := range []fileErrorCase{
		{"unknown series", `{"skus": [{"name": "Standard_NX8_v1", "series": "NX_v9", "arch": "x86_64", "sources": ["t"], "network": {}}]}`,
			"size Standard_NX8_v1", "", `series "NX_v9" is not defined`},
		{"bad value", `{"skus": [{"name": "Standard_NX8_v1", "series": "NCasT4_v3", "vcpus": -4, "arch": "x86_64", "sources": ["t"],
			"gpu": {"count": "1", "model": "t4", "interconnect": "PCIe"}, "network": {}}]}`, "size Standard_NX8_v1", "", "vcpus must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseCatalogFile("extra.json", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = mustDefault(t).WithOverlays(Overlays{Catalog: f})
			checkFileError(t, err, "extra.json", tc)
		})
	}
}

func TestLoadCatalogFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err := LoadCatalogFile(missing)
	checkFileError(t, err, missing, fileErrorCase{want: "the catalog file does not exist"})
	defer func(old int64) { MaxCatalogFileBytes = old }(MaxCatalogFileBytes)
	MaxCatalogFileBytes = 100
	_, err = LoadCatalogFile("testdata/catalog_file.json")
	checkFileError(t, err, "testdata/catalog_file.json", fileErrorCase{want: "more than the 100 bytes limit. A catalog file holds the sizes"})
}

func TestPricesOverlay(t *testing.T) {
	p, err := LoadPriceFile("testdata/prices_retail.json")
	if err != nil {
		t.Fatal(err)
	}
	c, rep := mustOverlay(t, Overlays{Prices: p})
	h := mustLookup(t, c, "Standard_ND96isr_H100_v5")
	east := h.Prices["eastus"]
	if east.USDPerHour != 63.5 || east.SpotUSDPerHour == nil || *east.SpotUSDPerHour != 25.4 ||
		east.File != "testdata/prices_retail.json" || east.SpotFile != east.File || east.SnapshotDate != p.SnapshotDate ||
		east.Source != "prices file testdata/prices_retail.json (Azure Retail Prices API JSON)" {
		t.Errorf("H100 eastus = %+v", east)
	}
	// Regions the file does not price keep the embedded price.
	if w := h.Prices["westus2"]; w.USDPerHour != 98.32 || w.File != "" || !strings.HasPrefix(w.Source, "embedded snapshot") {
		t.Errorf("H100 westus2 = %+v", w)
	}
	// An on-demand price without a spot price keeps the embedded spot estimate.
	a := mustLookup(t, c, "Standard_ND96asr_v4").Prices["eastus"]
	if a.File == "" || a.SpotFile != "" || (a.SpotUSDPerHour != nil && !strings.HasPrefix(a.SpotSource, "estimate")) {
		t.Errorf("ND96asr_v4 eastus = %+v", a)
	}
	if rep.PricesApplied != 6 || !equalStrings(rep.UnpricedSizes, []string{"Standard_NP10s"}) || rep.OtherUnpriced != 1 {
		t.Errorf("report %+v", rep)
	}
	// The embedded catalog keeps its prices.
	if d := mustLookup(t, mustDefault(t), "Standard_ND96isr_H100_v5").Prices["eastus"]; d.USDPerHour != 98.32 || d.File != "" {
		t.Errorf("embedded price changed: %+v", d)
	}
	// A catalog file's new size can be priced by the prices file.
	f, err := LoadCatalogFile("testdata/catalog_file.json")
	if err != nil {
		t.Fatal(err)
	}
	csv, err := LoadPriceFile("testdata/prices_negotiated.csv")
	if err != nil {
		t.Fatal(err)
	}
	c, rep = mustOverlay(t, Overlays{Catalog: f, Prices: csv})
	if np := mustLookup(t, c, "Standard_NP10s").Prices["eastus"]; np.USDPerHour != 1.4 || np.SpotUSDPerHour != nil {
		t.Errorf("NP10s eastus = %+v", np)
	}
	if len(rep.UnpricedSizes) != 0 || rep.PricesApplied != 5 {
		t.Errorf("report %+v", rep)
	}
}

func TestAvailabilityOverlay(t *testing.T) {
	a := mustLoadAvailability(t)
	c, rep := mustOverlay(t, Overlays{Availability: a})
	if c.Availability() != a || c.AvailabilitySource() != "availability file testdata/availability.json" {
		t.Errorf("source %q", c.AvailabilitySource())
	}
	if s := mustDefault(t).AvailabilitySource(); s != "embedded price snapshot of 2026-06-18" {
		t.Errorf("embedded source %q", s)
	}
	h := mustLookup(t, c, "Standard_ND96isr_H100_v5")
	if h.AvailabilitySource != "availability file testdata/availability.json" {
		t.Errorf("H100 availability source %q", h.AvailabilitySource)
	}
	if h.QuotaFamily != "standardNDSH100v5Family" || h.AvailableIn("eastus") || !h.AvailableIn("EastUS2") || h.AvailableIn("westus2") {
		t.Errorf("H100: quota family %q, eastus %t, eastus2 %t, westus2 %t", h.QuotaFamily, h.AvailableIn("eastus"), h.AvailableIn("eastus2"), h.AvailableIn("westus2"))
	}
	if ra, listed := h.AvailabilityIn("eastus"); !listed || !ra.Restricted() {
		t.Errorf("H100 eastus listed %t, %+v", listed, ra)
	}
	if !equalStrings(h.AvailableRegions(), []string{"eastus2", "westus3"}) {
		t.Errorf("H100 regions %v", h.AvailableRegions())
	}
	// Catalog facts win where the API is known to be wrong.
	for name, want := range map[string]float64{
		"Standard_NV6ads_A10_v5":         1.0 / 6,
		"Standard_ND96isr_MI300X_v5":     8,
		"Standard_ND128isr_NDR_GB200_v6": 4,
		"Standard_ND96isr_H100_v5":       8,
	} {
		if g := mustLookup(t, c, name).GPU; !near(g.Count, want) {
			t.Errorf("%s GPU count %v, want the catalog's %v", name, g.Count, want)
		}
	}
	if m := *mustLookup(t, c, "Standard_ND96amsr_A100_v4").MemoryGiB; m != 1900 {
		t.Errorf("ND96amsr_A100_v4 memory %v, want the docs' 1900 (the API says 1800)", m)
	}
	if v := *mustLookup(t, c, "Standard_HB120-32rs_v3").VCPUs; v != 32 {
		t.Errorf("HB120-32rs_v3 vCPUs %d", v)
	}
	// A size the file does not list is not available anywhere; prices stay.
	hx := mustLookup(t, c, "Standard_HX176rs")
	if hx.AvailableIn("eastus") || len(hx.AvailableRegions()) != 0 || len(hx.Prices) == 0 || !hx.HasAvailability() {
		t.Errorf("HX176rs available %v", hx.AvailableRegions())
	}
	// Unknown sizes: the N-family one is reported, the D-family one counted.
	if len(rep.UnknownSizes) != 1 || rep.UnknownSizes[0].Name != "Standard_NP10s" || rep.OtherUnknown != 1 {
		t.Errorf("unknown %v, other %d", rep.UnknownSizes, rep.OtherUnknown)
	}
	// Filter and regions follow the file.
	got := skuNames(c.Filter(Filter{Region: "eastus", GPUModels: []string{"h100-sxm-80gb", "a100-sxm-80gb"}}))
	if !equalStrings(got, []string{"Standard_ND96amsr_A100_v4"}) {
		t.Errorf("eastus H100/A100 sizes %v", got)
	}
	if !c.HasRegion("westus3") || len(c.Regions()) != len(mustDefault(t).Regions()) {
		t.Errorf("regions %v", c.Regions())
	}
	// The embedded catalog has no availability.
	if d := mustLookup(t, mustDefault(t), "Standard_ND96isr_H100_v5"); d.HasAvailability() || !d.AvailableIn("eastus") ||
		d.AvailabilitySource != "embedded price snapshot of 2026-06-18" {
		t.Error("the embedded catalog changed")
	}
}

// TestAvailabilityOnlyRegion: a region only the availability file lists (a
// sovereign cloud) is known, and sizes listed there are available unpriced.
func TestAvailabilityOnlyRegion(t *testing.T) {
	a, err := ParseAvailability("gov.json", []byte(`[{"name": "Standard_ND96isr_H100_v5", "locations": ["usgovvirginia"], "family": "standardNDSH100v5Family"}]`))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := mustOverlay(t, Overlays{Availability: a})
	if !c.HasRegion("usgovvirginia") {
		t.Error("usgovvirginia unknown")
	}
	if got := skuNames(c.Filter(Filter{Region: "usgovvirginia"})); !equalStrings(got, []string{"Standard_ND96isr_H100_v5"}) {
		t.Errorf("sizes in usgovvirginia: %v", got)
	}
}
