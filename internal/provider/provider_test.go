// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// testAsOf is the fixed "today" of every acceptance test.
var testAsOf = time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)

func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return catalogtest.Embedded(t)
}

// testProviderData is what Configure builds for the embedded catalog at
// testAsOf's date.
func testProviderData(t testing.TB) *providerData {
	t.Helper()
	data, err := newProviderData(testCatalog(t), catalog.UTCDay(testAsOf))
	if err != nil {
		t.Fatalf("newProviderData: %v", err)
	}
	return data
}

// testProviderFactories serves the provider with the embedded catalog and a
// clock fixed at testAsOf, for the end-to-end tests of the real catalog:
// they assert what follows from it (or compare with the engine's answer),
// not rankings, prices or counts that a data change moves.
func testProviderFactories(t testing.TB) map[string]func() (tfprotov6.ProviderServer, error) {
	return providerFactories(testCatalog(t), testAsOf)
}

// fixtureCatalog is the fixture catalog of package catalogtest: 19 sizes
// whose facts and prices are frozen (its testdata/README.md lists them).
func fixtureCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return catalogtest.Fixture(t)
}

// fixtureProviderFactories serves the provider with the fixture catalog and
// a clock fixed at testAsOf, for tests that pin rankings, prices and
// counts: a price refresh or a new size in the embedded catalog does not
// change them.
func fixtureProviderFactories(t testing.TB) map[string]func() (tfprotov6.ProviderServer, error) {
	return providerFactories(fixtureCatalog(t), testAsOf)
}

// providerFactories serves the provider with cat and a clock fixed at now.
func providerFactories(cat *catalog.Catalog, now time.Time) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"hpcsku": providerserver.NewProtocol6WithError(NewTestProvider(cat, func() time.Time { return now })()),
	}
}

// functionVersionChecks skips a test on Terraform before 1.8, which has no
// provider-defined functions.
var functionVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)}

// functionErrorCase is one function call that must fail: err is a regular
// expression the error must match.
type functionErrorCase struct {
	call string
	err  string
}

// unitTest runs tc through Terraform (resource.UnitTest), except under
// -short: `make test-race` runs the race detector with -short on the
// provider's own Go code, which the Terraform runs do not exercise further
// (TestConcurrentReads and the parallel TestRecommendationReadMatrix read
// through one provider server from many goroutines).
func unitTest(t *testing.T, tc resource.TestCase) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Terraform; skipped with -short")
	}
	resource.UnitTest(t, tc)
}

// errorCase is one configuration that must fail: err is a regular
// expression its error must match.
type errorCase struct {
	config string
	err    string
}

// testErrors plans each configuration of cases and expects its error. The
// cases are the steps of one TestCase, in the order of their names, so that
// they share one working directory and `terraform init`; the log names the
// case of each step.
func testErrors(t *testing.T, factories map[string]func() (tfprotov6.ProviderServer, error), versionChecks []tfversion.TerraformVersionCheck, cases map[string]errorCase) {
	t.Helper()
	names := slices.Sorted(maps.Keys(cases))
	steps := make([]resource.TestStep, len(names))
	for i, name := range names {
		t.Logf("step %d/%d: %s", i+1, len(names), name)
		steps[i] = resource.TestStep{Config: cases[name].config, ExpectError: regexp.MustCompile(cases[name].err)}
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		TerraformVersionChecks:   versionChecks,
		Steps:                    steps,
	})
}

// testFunctionErrors plans an output of each call and expects its error.
func testFunctionErrors(t *testing.T, cases map[string]functionErrorCase) {
	t.Helper()
	configs := make(map[string]errorCase, len(cases))
	for name, c := range cases {
		configs[name] = errorCase{config: `output "x" { value = ` + c.call + ` }`, err: c.err}
	}
	testErrors(t, testProviderFactories(t), functionVersionChecks, configs)
}

// sizeNameErrors are the errors of a size function's name argument, the
// same for every such function (sizeNameParameter): call is the call with
// %s in place of the name.
func sizeNameErrors(call string) map[string]functionErrorCase {
	return map[string]functionErrorCase{
		"empty name": {
			call: fmt.Sprintf(call, `""`),
			err:  wrapped(`Invalid value for "name" parameter: Invalid Parameter Value Length: string length must be at least 1`),
		},
		"null name": {
			call: fmt.Sprintf(call, `null`),
			err:  wrapped(`Invalid value for "name" parameter: argument must not be null.`),
		},
	}
}

// testFunctionOutputs plans cfg and checks the planned value of each output
// named in want.
func testFunctionOutputs(t *testing.T, cfg string, want map[string]knownvalue.Check) {
	t.Helper()
	checks := make([]plancheck.PlanCheck, 0, len(want))
	for _, name := range slices.Sorted(maps.Keys(want)) {
		checks = append(checks, plancheck.ExpectKnownOutputValue(name, want[name]))
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps:                    []resource.TestStep{{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: checks}}},
	})
}

// testGuard plans cfg, a configuration whose variable validation or
// precondition checks a function's result, twice: with the variables bad
// it must fail with the message wantErr (matched across Terraform's line
// wrapping); with good, output must have the value want.
func testGuard(t *testing.T, cfg string, bad config.Variables, wantErr string, good config.Variables, output string, want knownvalue.Check) {
	t.Helper()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{
			{Config: cfg, ConfigVariables: bad, ExpectError: regexp.MustCompile(wrapped(wantErr))},
			{Config: cfg, ConfigVariables: good, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownOutputValue(output, want),
			}}},
		},
	})
}

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

// wrapped turns a message into a pattern that matches it however Terraform
// wraps its lines.
func wrapped(msg string) string {
	words := strings.Fields(msg)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(words, `\s+`)
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
