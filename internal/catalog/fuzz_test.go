// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

// Fuzz targets for everything here that reads user input: the catalog
// document decoder and Build, the catalog_file parser and size-name lookup
// (package azureexport fuzzes availability_file and prices_file).
// Seeds are the f.Add calls below plus testdata/fuzz/<FuzzName>/. `make fuzz`
// runs each for FUZZTIME. None may panic; parsers must return either a
// value or an error that explains itself.

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
			_ = userfiletest.Require(t, err, file)
			return
		}
		c, _, err := base.WithOverlays(Overlays{Catalog: cf})
		if err != nil {
			_ = userfiletest.Require(t, err, file)
			return
		}
		checkOverlaid(t, c)
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
		got := c.suggest(SizeName, name, n)
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
