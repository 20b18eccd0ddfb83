// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

import (
	"encoding/binary"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// catalogFileFixture adds Standard_NP10s, which the fixtures here price and
// list, and corrects Standard_NC4as_T4_v3.
const catalogFileFixture = "../catalog/testdata/catalog_file.json"

func embedded(t testing.TB) *catalog.Catalog {
	t.Helper()
	return catalogtest.Embedded(t)
}

func overlaid(t testing.TB, o catalog.Overlays) (*catalog.Catalog, *catalog.OverlayReport) {
	t.Helper()
	c, rep, err := embedded(t).WithOverlays(o)
	if err != nil {
		t.Fatalf("WithOverlays: %v", err)
	}
	return c, rep
}

func lookup(t testing.TB, c *catalog.Catalog, name string) *catalog.SKU {
	t.Helper()
	s, ok := c.Lookup(name)
	if !ok {
		t.Fatalf("%s is not in the catalog", name)
	}
	return s
}

func names(skus []*catalog.SKU) []string {
	out := make([]string, len(skus))
	for i, s := range skus {
		out[i] = s.Name
	}
	return out
}

func TestPricesOverlay(t *testing.T) {
	p, err := LoadPriceFile("testdata/prices_retail.json")
	if err != nil {
		t.Fatal(err)
	}
	before := lookup(t, embedded(t), "Standard_ND96isr_H100_v5").Prices
	c, rep := overlaid(t, catalog.Overlays{Prices: p.Overlay()})
	h := lookup(t, c, "Standard_ND96isr_H100_v5")
	east := h.Prices["eastus"]
	if east.USDPerHour != 63.5 || east.SpotUSDPerHour == nil || *east.SpotUSDPerHour != 25.4 ||
		east.File != "testdata/prices_retail.json" || east.SpotFile != east.File || east.SnapshotDate != p.SnapshotDate ||
		east.Source != "prices file testdata/prices_retail.json (Azure Retail Prices API JSON)" {
		t.Errorf("H100 eastus = %+v", east)
	}
	// Regions the file does not price keep the embedded price.
	if w := h.Prices["westus2"]; w != before["westus2"] || w.File != "" || !strings.HasPrefix(w.Source, "embedded snapshot") {
		t.Errorf("H100 westus2 = %+v", w)
	}
	// An on-demand price without a spot price keeps the embedded spot estimate.
	a := lookup(t, c, "Standard_ND96asr_v4").Prices["eastus"]
	if a.File == "" || a.SpotFile != "" || (a.SpotUSDPerHour != nil && !strings.HasPrefix(a.SpotSource, "estimate")) {
		t.Errorf("ND96asr_v4 eastus = %+v", a)
	}
	unpriced, others := p.NotInCatalog(c)
	if rep.PricesApplied != 6 || !slices.Equal(unpriced, []string{"Standard_NP10s"}) || others != 1 {
		t.Errorf("report %+v; sizes not in the catalog %v and %d others", rep, unpriced, others)
	}
	// The embedded catalog keeps its prices.
	if d := lookup(t, embedded(t), "Standard_ND96isr_H100_v5").Prices["eastus"]; d != before["eastus"] || d.USDPerHour == east.USDPerHour || d.File != "" {
		t.Errorf("embedded price changed: %+v", d)
	}
	// A catalog file's new size can be priced by the prices file.
	f, err := catalog.LoadCatalogFile(catalogFileFixture)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := LoadPriceFile("testdata/prices_negotiated.csv")
	if err != nil {
		t.Fatal(err)
	}
	c, rep = overlaid(t, catalog.Overlays{Catalog: f, Prices: csv.Overlay()})
	if np := lookup(t, c, "Standard_NP10s").Prices["eastus"]; np.USDPerHour != 1.4 || np.SpotUSDPerHour != nil {
		t.Errorf("NP10s eastus = %+v", np)
	}
	if unpriced, others := csv.NotInCatalog(c); len(unpriced) != 0 || others != 0 || rep.PricesApplied != 5 {
		t.Errorf("report %+v; sizes not in the catalog %v and %d others", rep, unpriced, others)
	}
}

func TestAvailabilityOverlay(t *testing.T) {
	a := mustLoadAvailability(t)
	c, _ := overlaid(t, catalog.Overlays{Availability: a.Overlay()})
	if o := c.Availability(); o == nil || o.File != a.File || !slices.Equal(o.Regions, a.Regions) || len(o.Sizes) != len(a.Sizes) ||
		c.AvailabilitySource() != "availability file testdata/availability.json" {
		t.Errorf("availability %+v, source %q", o, c.AvailabilitySource())
	}
	if s := embedded(t).AvailabilitySource(); s != "embedded price snapshot of "+embedded(t).PriceSnapshotDate {
		t.Errorf("embedded source %q", s)
	}
	h := lookup(t, c, "Standard_ND96isr_H100_v5")
	if h.AvailabilitySource != "availability file testdata/availability.json" {
		t.Errorf("H100 availability source %q", h.AvailabilitySource)
	}
	if h.QuotaFamily != "standardNDSH100v5Family" || h.AvailableIn("eastus") || !h.AvailableIn("EastUS2") || h.AvailableIn("westus2") {
		t.Errorf("H100: quota family %q, eastus %t, eastus2 %t, westus2 %t", h.QuotaFamily, h.AvailableIn("eastus"), h.AvailableIn("eastus2"), h.AvailableIn("westus2"))
	}
	if ra, listed := h.AvailabilityIn("eastus"); !listed || !ra.Restricted() {
		t.Errorf("H100 eastus listed %t, %+v", listed, ra)
	}
	if !slices.Equal(h.AvailableRegions(), []string{"eastus2", "westus3"}) {
		t.Errorf("H100 regions %v", h.AvailableRegions())
	}
	// Catalog facts win where the API is known to be wrong.
	for name, want := range map[string]float64{
		"Standard_NV6ads_A10_v5":         1.0 / 6,
		"Standard_ND96isr_MI300X_v5":     8,
		"Standard_ND128isr_NDR_GB200_v6": 4,
		"Standard_ND96isr_H100_v5":       8,
	} {
		if g := lookup(t, c, name).GPU; math.Abs(g.Count-want) > 1e-9 {
			t.Errorf("%s GPU count %v, want the catalog's %v", name, g.Count, want)
		}
	}
	if m := *lookup(t, c, "Standard_ND96amsr_A100_v4").MemoryGiB; m != 1900 {
		t.Errorf("ND96amsr_A100_v4 memory %v, want the docs' 1900 (the API says 1800)", m)
	}
	if v := *lookup(t, c, "Standard_HB120-32rs_v3").VCPUs; v != 32 {
		t.Errorf("HB120-32rs_v3 vCPUs %d", v)
	}
	// A size the file does not list is not available anywhere; prices stay.
	hx := lookup(t, c, "Standard_HX176rs")
	if hx.AvailableIn("eastus") || len(hx.AvailableRegions()) != 0 || len(hx.Prices) == 0 || !hx.HasAvailability() {
		t.Errorf("HX176rs available %v", hx.AvailableRegions())
	}
	// Unknown sizes: the N-family one is reported, the D-family one counted.
	if unknown, others := a.NotInCatalog(c); len(unknown) != 1 || unknown[0].Name != "Standard_NP10s" || others != 1 {
		t.Errorf("unknown %v, other %d", unknown, others)
	}
	// Filter and regions follow the file.
	got := names(c.Filter(catalog.Filter{Region: "eastus", GPUModels: []string{"h100-sxm-80gb", "a100-sxm-80gb"}}))
	if !slices.Equal(got, []string{"Standard_ND96amsr_A100_v4"}) {
		t.Errorf("eastus H100/A100 sizes %v", got)
	}
	if !c.HasRegion("westus3") || len(c.Regions()) != len(embedded(t).Regions()) {
		t.Errorf("regions %v", c.Regions())
	}
	// The embedded catalog has no availability.
	if d := lookup(t, embedded(t), "Standard_ND96isr_H100_v5"); d.HasAvailability() || !d.AvailableIn("eastus") ||
		d.AvailabilitySource != "embedded price snapshot of "+embedded(t).PriceSnapshotDate {
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
	c, _ := overlaid(t, catalog.Overlays{Availability: a.Overlay()})
	if !c.HasRegion("usgovvirginia") {
		t.Error("usgovvirginia unknown")
	}
	if got := names(c.Filter(catalog.Filter{Region: "usgovvirginia"})); !slices.Equal(got, []string{"Standard_ND96isr_H100_v5"}) {
		t.Errorf("sizes in usgovvirginia: %v", got)
	}
}

// TestNotInCatalogAfterCatalogFile: a size a catalog file adds is no
// longer reported as missing from the catalog the files are laid over.
func TestNotInCatalogAfterCatalogFile(t *testing.T) {
	f, err := catalog.LoadCatalogFile(catalogFileFixture)
	if err != nil {
		t.Fatal(err)
	}
	a := mustLoadAvailability(t)
	p, err := LoadPriceFile("testdata/prices_retail.json")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := overlaid(t, catalog.Overlays{Catalog: f, Availability: a.Overlay(), Prices: p.Overlay()})
	if unknown, others := a.NotInCatalog(c); len(unknown) != 0 || others != 1 {
		t.Errorf("availability: %v not in the catalog, and %d others", unknown, others)
	}
	if unpriced, others := p.NotInCatalog(c); len(unpriced) != 0 || others != 1 {
		t.Errorf("prices: %v not in the catalog, and %d others", unpriced, others)
	}
	if np := lookup(t, c, "Standard_NP10s"); np.QuotaFamily != "standardNPSFamily" || !np.AvailableIn("eastus") {
		t.Errorf("NP10s: quota family %q, regions %v", np.QuotaFamily, np.AvailableRegions())
	}
}

// encodeUTF16 encodes text as UTF-16 with a byte order mark, as Windows
// PowerShell 5.1 writes `az ... -o json > file.json` (little-endian).
func encodeUTF16(text []byte, bigEndian bool) []byte {
	order := binary.AppendByteOrder(binary.LittleEndian)
	if bigEndian {
		order = binary.BigEndian
	}
	out := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(string(text))) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// A file written in UTF-16 with a byte order mark reads as the same file in
// UTF-8, whichever of the provider's files it is.
func TestExportsInUTF16(t *testing.T) {
	parsers := map[string]func(file string, data []byte) (any, error){
		availabilityFixture:              func(f string, b []byte) (any, error) { return ParseAvailability(f, b) },
		"testdata/prices_retail.json":    func(f string, b []byte) (any, error) { return ParsePriceFile(f, b) },
		"testdata/prices_negotiated.csv": func(f string, b []byte) (any, error) { return ParsePriceFile(f, b) },
		"testdata/usage_eastus.json":     func(f string, b []byte) (any, error) { return ParseUsage("eastus", f, b) },
		catalogFileFixture:               func(f string, b []byte) (any, error) { return catalog.ParseCatalogFile(f, b) },
	}
	for path, parse := range parsers {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parse(path, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, big := range []bool{false, true} {
			got, err := parse(path, encodeUTF16(b, big))
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s in UTF-16 (big-endian %v): %v", path, big, err)
			}
		}
	}
}
