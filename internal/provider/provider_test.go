// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

func TestProviderSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")()
	resp := &provider.SchemaResponse{}
	p.Schema(ctx, provider.SchemaRequest{}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("schema implementation: %v", diags)
	}
	if _, ok := resp.Schema.Attributes["as_of"]; !ok {
		t.Fatal("as_of attribute missing")
	}
}

func TestParseRFC3339Date(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"2026-01-01", "2026-01-01T00:00:00Z", true},
		{"2026-01-01T23:30:00+02:00", "2026-01-01T21:30:00Z", true},
		{"2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", true},
		{"2026-13-01", "", false},
		{"01/02/2026", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, err := parseRFC3339Date(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%q: err = %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if c.ok && got.Format(time.RFC3339) != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got.Format(time.RFC3339), c.want)
		}
	}
}

// TestFunctionDataLoadsOnce checks that provider-defined functions load the
// catalog on their first call, not when the provider is built, and once per
// provider instance; a failed load is a function error on every call.
func TestFunctionDataLoadsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cat := testCatalog(t)
	loads := 0
	p := newProvider("test", func() (*catalog.Catalog, error) { loads++; return cat, nil }, func() time.Time { return testAsOf })
	if loads != 0 {
		t.Fatalf("the catalog was loaded %d times before any function call", loads)
	}
	for i := 0; i < 3; i++ {
		s, funcErr := p.functionLookup(ctx, "nd96isr_h100_v5")
		if funcErr != nil {
			t.Fatal(funcErr)
		}
		if s.Name != "Standard_ND96isr_H100_v5" {
			t.Fatalf("lookup found %s", s.Name)
		}
	}
	if loads != 1 {
		t.Fatalf("the catalog was loaded %d times for three calls, want 1", loads)
	}

	failing := newProvider("test", func() (*catalog.Catalog, error) { return nil, errors.New("corrupt embedded data") }, time.Now)
	for i := 0; i < 2; i++ {
		_, funcErr := failing.functionLookup(ctx, "nd96isr_h100_v5")
		if funcErr == nil || !strings.Contains(funcErr.Text, "Catalog Failed To Load") || !strings.Contains(funcErr.Text, "corrupt embedded data") {
			t.Fatalf("call %d: error %v", i, funcErr)
		}
	}
}
