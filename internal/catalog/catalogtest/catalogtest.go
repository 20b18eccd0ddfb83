// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package catalogtest gives the tests of the packages built on the catalog
// what they read it through, failing the test instead of returning an
// error: the embedded catalog, its sizes and dates (Embedded, Lookup, Day),
// and a small catalog of fixed sizes and prices (Fixture), so that tests
// that pin rankings, prices and counts do not move when the embedded
// catalog gains a size or its prices are refreshed.
//
// The fixture lives in testdata/ in the embedded catalog's own format (the
// same files catalog.LoadDir reads, checked by the same JSON Schemas). Its
// records were taken from the embedded catalog of 2026-11-01 (version
// 2026.11.0) and are frozen: they are test data, not a second catalog to
// keep current. testdata/README.md lists the sizes and what each covers.
package catalogtest

import (
	"bytes"
	"embed"
	"fmt"
	"sync"
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

//go:embed testdata/*.json testdata/*.csv
var files embed.FS

// documents are the fixture's JSON files in the order catalog.LoadDir
// decodes them; TestLoadDirReadsTheSameCatalog keeps the two in step.
var documents = []string{"catalog.json", "gpu_models.json", "images.json", "series.json", "skus.json", "performance.json", "models.json"}

// Document decodes one of the fixture's JSON files ("series.json", say), for
// a test that builds a variant of the fixture with catalog.Catalog.WithOverlays.
func Document(name string) (catalog.Document, error) {
	b, err := files.ReadFile("testdata/" + name)
	if err != nil {
		return catalog.Document{}, err
	}
	doc, err := catalog.DecodeDocument(bytes.NewReader(b))
	if err != nil {
		return catalog.Document{}, fmt.Errorf("fixture %s: %w", name, err)
	}
	return doc, nil
}

// Load decodes and builds a new copy of the fixture catalog.
func Load() (*catalog.Catalog, error) {
	docs := make([]catalog.Document, 0, len(documents))
	for _, name := range documents {
		doc, err := Document(name)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	prices, err := files.ReadFile("testdata/prices.csv")
	if err != nil {
		return nil, err
	}
	spot, err := files.ReadFile("testdata/spot_prices.csv")
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Build(docs, bytes.NewReader(prices), bytes.NewReader(spot))
	if err != nil {
		return nil, fmt.Errorf("fixture catalog: %w", err)
	}
	return cat, nil
}

// fixture is built on first use and shared: a catalog is immutable.
var fixture = sync.OnceValues(Load)

// Fixture returns the fixture catalog, built once per test binary, and fails
// the test when it does not build.
func Fixture(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	cat, err := fixture()
	if err != nil {
		tb.Fatal(err)
	}
	return cat
}
