package catalog

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz targets for everything that reads user input: the catalog document
// decoder and Build (catalog_file), the overlay file parsers
// (catalog_file, availability_file, prices_file) and size-name lookup.
// Seeds are the f.Add calls below plus testdata/fuzz/<FuzzName>/. `make fuzz`
// runs each for FUZZTIME. None may panic; parsers must return either a
// value or an error that explains itself.

// requireFileError requires a parser error to be a *FileError naming the
// file, with a problem to show.
func requireFileError(t *testing.T, err error, file string) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error is %T, want *FileError: %v", err, err)
	}
	if fe.File != file || strings.TrimSpace(fe.Problem) == "" {
		t.Fatalf("FileError without a file or a problem: %#v", fe)
	}
}

// checkOverlaid requires an overlaid catalog to be usable: every size can be
// looked up by name and every region it lists is known.
func checkOverlaid(t *testing.T, c *Catalog) {
	t.Helper()
	for _, s := range c.SKUs() {
		if got, ok := c.Lookup(s.Name); !ok || got != s {
			t.Fatalf("overlaid catalog: Lookup(%q) = %v, %v", s.Name, got, ok)
		}
	}
	for i := 1; i < len(c.Regions()); i++ {
		if c.Regions()[i-1] >= c.Regions()[i] {
			t.Fatalf("regions not sorted and unique: %v", c.Regions())
		}
	}
}

// FuzzDecodeDocument decodes arbitrary bytes as a catalog document and, when
// that succeeds, builds a catalog from it alone: Build must return a catalog
// or errors, never panic, whatever references the document leaves dangling.
func FuzzDecodeDocument(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"skus":[{"name":"Standard_X1","series":"S"}]}`))
	f.Add([]byte(`{"series":[{"name":"S","family":"N","category":"gpu"}],"skus":[{"name":"Standard_X1","series":"S","gpu":{"model":"m","count":"1/0"}}]}`))
	f.Add([]byte(`{"catalog":{"version":"1","data_date":"2026-13-40"}}`))
	f.Add([]byte(`{"skus":[]} }`))
	for _, name := range embeddedDocuments {
		if b, err := embedded.ReadFile(name); err == nil && len(b) < 20000 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := DecodeDocument(bytes.NewReader(data))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		c, err := Build([]Document{doc}, nil, nil)
		if (c == nil) == (err == nil) {
			t.Fatalf("Build returned catalog %v and error %v", c, err)
		}
		if c != nil {
			checkOverlaid(t, c)
		}
	})
}

// FuzzCatalogFile parses arbitrary bytes as a catalog_file and lays it over
// the embedded catalog, as the provider does.
func FuzzCatalogFile(f *testing.F) {
	if b, err := os.ReadFile("testdata/catalog_file.json"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"skus":[{"name":"Standard_ND96isr_H100_v5","series":"ND-H100-v5","arch":"x86_64","sources":["x"]}]}`))
	f.Add([]byte(`{"decisions":[{"id":"D99","sources":["a"]}]}`))
	f.Add([]byte("\xef\xbb\xbf{\"gpu_models\":[{\"id\":\"\"}]}"))
	f.Add([]byte(`{"catalog":{"version":"2"}}`))
	base := mustDefault(f)
	const file = "catalog.json"
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := ParseCatalogFile(file, data)
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		c, _, err := base.WithOverlays(Overlays{Catalog: cf})
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		checkOverlaid(t, c)
	})
}

// FuzzAvailabilityFile parses arbitrary bytes as an availability_file (the
// JSON of `az vm list-skus`) and lays it over the embedded catalog.
func FuzzAvailabilityFile(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"value":[]}`))
	f.Add([]byte(`[{"name":"Standard_ND96isr_H100_v5","resourceType":"virtualMachines","locations":["eastus"],` +
		`"locationInfo":[{"location":"eastus","zones":["1","2"]}],"capabilities":[{"name":"vCPUs","value":"96"},{"name":"GPUs","value":"8"}],` +
		`"restrictions":[{"type":"Location","reasonCode":"NotAvailableForSubscription","values":["eastus"],"restrictionInfo":{"locations":["eastus"]}}]}]`))
	f.Add([]byte(`[{"name":"Standard_Q9","resourceType":"virtualMachines","locations":["westus"],"capabilities":[{"name":"MemoryGB","value":"x"}]}]`))
	f.Add([]byte(`[{"name":"Standard_NC4as_T4_v3","resourceType":"disks"}]`))
	const file = "skus.json"
	base := mustDefault(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAvailability(file, data)
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		for _, name := range a.Names() {
			s, ok := a.Lookup(name)
			if !ok {
				t.Fatalf("Names() lists %q but Lookup does not find it", name)
			}
			_ = s.Describe()
			_ = s.AvailableRegions()
			_ = s.InScope()
		}
		c, _, err := base.WithOverlays(Overlays{Availability: a})
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		checkOverlaid(t, c)
		for _, s := range c.SKUs() {
			for _, r := range s.AvailableRegions() {
				_ = s.AvailableIn(r)
			}
		}
	})
}

// FuzzPriceFile parses arbitrary bytes as a prices_file (Azure Retail Prices
// API JSON or a CSV of negotiated prices) and lays it over the embedded
// catalog: every price it applies must be positive.
func FuzzPriceFile(f *testing.F) {
	if b, err := os.ReadFile("testdata/prices_negotiated.csv"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,36.5\n"))
	f.Add([]byte("region,vm_size,usd_per_hour,spot_usd_per_hour\neastus,Standard_NC4as_T4_v3,0.526,0.1\neastus,Standard_NC4as_T4_v3,1,\n"))
	f.Add([]byte("region,vm_size,usd_per_hour\n\"eastus,Standard_X,-1\n"))
	f.Add([]byte(`{"Items":[{"currencyCode":"USD","retailPrice":63.5,"unitPrice":63.5,"armRegionName":"eastus","meterName":"ND96isr H100 v5",` +
		`"productName":"Virtual Machines NDsr H100 v5 Series","skuName":"ND96isr H100 v5","serviceName":"Virtual Machines","unitOfMeasure":"1 Hour",` +
		`"type":"Consumption","isPrimaryMeterRegion":true,"effectiveStartDate":"2024-05-01T00:00:00Z","armSkuName":"Standard_ND96isr_H100_v5"}]}`))
	f.Add([]byte(`{"Items":[{"retailPrice":"x"}],"NextPageLink":null}`))
	const file = "prices.csv"
	base := mustDefault(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePriceFile(file, data)
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		_ = p.Describe()
		if p.Count() < 0 || len(p.Sizes()) > p.Count() {
			t.Fatalf("Count() = %d with %d sizes", p.Count(), len(p.Sizes()))
		}
		c, _, err := base.WithOverlays(Overlays{Prices: p})
		if err != nil {
			requireFileError(t, err, file)
			return
		}
		checkOverlaid(t, c)
		for _, s := range c.SKUs() {
			for region, pr := range s.Prices {
				if !(pr.USDPerHour > 0) || (pr.SpotUSDPerHour != nil && !(*pr.SpotUSDPerHour > 0)) {
					t.Fatalf("%s in %s: price %v, spot %v after the prices file", s.Name, region, pr.USDPerHour, pr.SpotUSDPerHour)
				}
			}
		}
	})
}

// FuzzLookup looks arbitrary names up and asks for suggestions: Lookup finds
// a size only under its own name (case, surrounding spaces and the
// "Standard_" prefix aside), and Suggest returns at most n distinct catalog
// names, the size itself first when Lookup found it.
func FuzzLookup(f *testing.F) {
	for _, s := range []string{
		"Standard_ND96isr_H100_v5", "nd96isr_h100_v5", "  STANDARD_HB176RS_V4 ", "h100", "Standard_", "", "standard_standard_nc4as_t4_v3",
		"Standard_ND96isr_H100_v6", "Standard_NC24rs_v3", "\u212a", "Standard_HX176-48rs", strings.Repeat("x", 300),
	} {
		f.Add(s, 3)
	}
	c := mustDefault(f)
	f.Fuzz(func(t *testing.T, name string, n int) {
		n %= 200
		s, ok := c.Lookup(name)
		if ok {
			key := strings.ToLower(strings.TrimSpace(name))
			if low := strings.ToLower(s.Name); key != low && "standard_"+key != low {
				t.Fatalf("Lookup(%q) found %s", name, s.Name)
			}
		}
		got := c.Suggest(name, n)
		if len(got) > max(n, 0) || (n > 0 && len(got) != min(n, len(c.SKUs()))) {
			t.Fatalf("Suggest(%q, %d) returned %d names", name, n, len(got))
		}
		seen := map[string]bool{}
		for _, g := range got {
			if _, ok := c.Lookup(g); !ok || seen[g] {
				t.Fatalf("Suggest(%q, %d) = %v: %q is unknown or repeated", name, n, got, g)
			}
			seen[g] = true
		}
		if ok && n > 0 && utf8.ValidString(name) && got[0] != s.Name {
			t.Fatalf("Suggest(%q) = %v, want %s first", name, got, s.Name)
		}
	})
}
