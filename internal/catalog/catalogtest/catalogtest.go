// Package catalogtest gives the tests of the packages built on the catalog
// the embedded catalog, its sizes and dates, failing the test instead of
// returning an error.
package catalogtest

import (
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Embedded returns the embedded catalog (catalog.Default).
func Embedded(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	c, err := catalog.Default()
	if err != nil {
		tb.Fatalf("embedded catalog: %v", err)
	}
	return c
}

// Lookup returns the size of c with the given name.
func Lookup(tb testing.TB, c *catalog.Catalog, name string) *catalog.SKU {
	tb.Helper()
	s, ok := c.Lookup(name)
	if !ok {
		tb.Fatalf("Lookup(%q): not in catalog version %s", name, c.Version)
	}
	return s
}

// Day parses a catalog date (YYYY-MM-DD) as midnight UTC.
func Day(tb testing.TB, s string) time.Time {
	tb.Helper()
	d, err := time.Parse(catalog.DateLayout, s)
	if err != nil {
		tb.Fatalf("date %q: %v", s, err)
	}
	return d
}
