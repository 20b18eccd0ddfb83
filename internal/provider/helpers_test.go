// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

// The helpers of the provider's tests: provider factories, Terraform runs,
// configuration builders and value checks.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// Provider servers, catalogs and Terraform runs.

// testAsOf is the fixed "today" of every acceptance test.
var testAsOf = time.Date(2026, 11, 22, 15, 4, 5, 0, time.UTC)

// testCatalog is the embedded catalog.
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
		"hpcsku": serverFactory(NewTestProvider(cat, func() time.Time { return now })),
	}
}

// serverFactory serves the providers newProvider makes as main.go does
// (NewServer around the framework's server).
func serverFactory(newProvider func() provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := newProvider()
		fw, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		return NewServer(p, fw), nil
	}
}

// functionVersionChecks skips a test on Terraform before 1.8, which has no
// provider-defined functions.
var functionVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)}

// unitTest runs tc through Terraform (resource.UnitTest), except under
// -short: `make test-race` runs the race detector with -short on the
// provider's own Go code, which the Terraform runs do not exercise further
// (TestConcurrentReads and the parallel TestRecommendationReadMatrix read
// through one provider server from many goroutines, and
// TestConcurrentFunctionCalls calls a function from many at once).
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

// functionErrorCase is one function call that must fail: err is a regular
// expression the error must match.
type functionErrorCase struct {
	call string
	err  string
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

// withSizeNameErrors adds to cases the errors of a size function's name
// argument, the same for every such function (sizeNameParameter): call is
// the call with %s in place of the name.
func withSizeNameErrors(call string, cases map[string]functionErrorCase) map[string]functionErrorCase {
	cases["empty name"] = functionErrorCase{
		call: fmt.Sprintf(call, `""`),
		err:  wrapped(`Invalid value for "name" parameter: Missing Name: A size name is required`) + `[\s\S]*Standard_ND96isr_H100_v5`,
	}
	cases["blank name"] = functionErrorCase{
		call: fmt.Sprintf(call, `"  "`),
		err:  wrapped(`Invalid value for "name" parameter: Missing Name: A size name is required`) + `[^?]*Standard_ND96isr_H100_v5\.`,
	}
	cases["null name"] = functionErrorCase{
		call: fmt.Sprintf(call, `null`),
		err:  wrapped(`Invalid value for "name" parameter: argument must not be null.`),
	}
	return cases
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

// suggests matches the "Did you mean one of: ...?" of an unknown name's
// error when its suggestions include name, wherever it stands among them.
func suggests(name string) string {
	return wrapped("Did you mean one of:") + `[^?]*?\b` + regexp.QuoteMeta(name) + `\b[^?]*\?`
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

// Provider settings and overlay files.

// fixture returns the absolute path of a file in testdata: the provider
// runs in the test process, whose directory is not Terraform's.
func fixture(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// providerBlock writes a provider block with the given settings.
func providerBlock(settings map[string]string) string {
	var b strings.Builder
	b.WriteString("provider \"hpcsku\" {\n  as_of = \"2026-11-22\"\n")
	for _, k := range []string{"catalog_file", "availability_file", "prices_file"} {
		if v, ok := settings[k]; ok {
			fmt.Fprintf(&b, "  %s = %q\n", k, v)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// listContains passes when some element of a list passes check.
type listContains struct{ check knownvalue.Check }

func (c listContains) CheckValue(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	var errs []string
	for _, e := range list {
		err := c.check.CheckValue(e)
		if err == nil {
			return nil
		}
		errs = append(errs, err.Error())
	}
	return fmt.Errorf("no element matches %s: %s", c.check, strings.Join(errs, "; "))
}

func (c listContains) String() string { return "a list containing " + c.check.String() }

// listLacks passes when no element of a list passes check.
type listLacks struct{ check knownvalue.Check }

func (c listLacks) CheckValue(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	for i, e := range list {
		if c.check.CheckValue(e) == nil {
			return fmt.Errorf("element %d matches %s", i, c.check)
		}
	}
	return nil
}

func (c listLacks) String() string { return "a list without " + c.check.String() }

// configureWith runs the provider's Configure with the given settings.
func configureWith(t *testing.T, settings map[string]string) (*providerData, diag.Diagnostics) {
	t.Helper()
	return configureProvider(t, NewTestProvider(testCatalog(t), func() time.Time { return testAsOf })(), settings)
}

// configureProvider configures p with the overlay settings given and
// returns what it hands the data sources.
func configureProvider(t *testing.T, p provider.Provider, settings map[string]string) (*providerData, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	var sr provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sr)
	attrs := map[string]tftypes.Value{"as_of": tftypes.NewValue(tftypes.String, nil)}
	types := map[string]tftypes.Type{"as_of": tftypes.String}
	for _, k := range []string{"catalog_file", "availability_file", "prices_file"} {
		types[k] = tftypes.String
		if v, ok := settings[k]; ok {
			attrs[k] = tftypes.NewValue(tftypes.String, v)
		} else {
			attrs[k] = tftypes.NewValue(tftypes.String, nil)
		}
	}
	// usage_files, a map of region to path, is null here.
	types["usage_files"] = tftypes.Map{ElementType: tftypes.String}
	attrs["usage_files"] = tftypes.NewValue(types["usage_files"], nil)
	cfg := tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(tftypes.Object{AttributeTypes: types}, attrs)}
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{Config: cfg}, &resp)
	data, _ := resp.DataSourceData.(*providerData)
	return data, resp.Diagnostics
}

// Checks of values in state and plan.

// names checks a list of sizes by their names, in order.
func names(list ...string) knownvalue.Check { return objectsWith("name", list...) }

// objectsWith checks a list of objects by the string attribute key, in
// order.
func objectsWith(key string, values ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{key: knownvalue.StringExact(v)})
	}
	return knownvalue.ListExact(checks)
}

// listEvery passes when every element of a list passes check (an empty
// list too: check its size apart).
type listEvery struct{ check knownvalue.Check }

func (c listEvery) CheckValue(v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list, got %T", v)
	}
	for i, e := range list {
		if err := c.check.CheckValue(e); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	return nil
}

func (c listEvery) String() string { return "a list of which every element is " + c.check.String() }

// attrCheck checks one attribute of an object.
func attrCheck(key string, check knownvalue.Check) knownvalue.Check {
	return knownvalue.ObjectPartial(map[string]knownvalue.Check{key: check})
}

// containsIDs passes when a list of models holds each of ids, in any order
// and among others.
func containsIDs(ids ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(ids))
	for i, id := range ids {
		checks[i] = listContains{attrCheck("id", knownvalue.StringExact(id))}
	}
	return allOf(checks)
}

// allOf passes when every check passes.
type allOf []knownvalue.Check

func (c allOf) CheckValue(v any) error {
	var errs []error
	for _, check := range c {
		if err := check.CheckValue(v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c allOf) String() string {
	parts := make([]string, len(c))
	for i, check := range c {
		parts[i] = check.String()
	}
	return strings.Join(parts, " and ")
}

// ids checks a list of models by their ids, in order.
func ids(list ...string) knownvalue.Check { return objectsWith("id", list...) }

// stringList checks a list of strings, in order.
func stringList(list ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(list))
	for i, s := range list {
		checks[i] = knownvalue.StringExact(s)
	}
	return knownvalue.ListExact(checks)
}

func ptrTo[T any](v T) *T { return &v }

// expectCheckBlock asserts the status of a check block in the plan
// ("pass", "fail", "error" or "unknown") and, when message is not empty,
// that one of its failures has that message.
func expectCheckBlock(name, status, message string) plancheck.PlanCheck {
	return checkBlockStatus{name: name, status: status, message: message}
}

type checkBlockStatus struct{ name, status, message string }

func (c checkBlockStatus) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, check := range req.Plan.Checks {
		if check.Address.Kind != "check" || check.Address.Name != c.name {
			continue
		}
		if string(check.Status) != c.status {
			resp.Error = fmt.Errorf("check block %q: status %q, want %q", c.name, check.Status, c.status)
			return
		}
		if c.message == "" {
			return
		}
		var messages []string
		for _, inst := range check.Instances {
			for _, p := range inst.Problems {
				if p.Message == c.message {
					return
				}
				messages = append(messages, p.Message)
			}
		}
		resp.Error = fmt.Errorf("check block %q: messages %q, want %q", c.name, messages, c.message)
		return
	}
	resp.Error = fmt.Errorf("check block %q not found in the plan", c.name)
}

// The provider server called directly, without Terraform.

// protoServer is a configured provider server with its schemas.
type protoServer struct {
	tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
}

// newProtoServer serves the provider with the embedded catalog and the test
// clock, and configures it with as_of = "2026-11-22".
func newProtoServer(tb testing.TB) *protoServer {
	tb.Helper()
	ctx := context.Background()
	srv, err := serverFactory(NewTestProvider(testCatalog(tb), func() time.Time { return testAsOf }))()
	if err != nil {
		tb.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || diagsHaveError(schemas.Diagnostics) {
		tb.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	s := &protoServer{ProviderServer: srv, schemas: schemas}
	cfg := s.dynamicValue(tb, schemas.Provider, map[string]tftypes.Value{"as_of": tftypes.NewValue(tftypes.String, "2026-11-22")})
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: cfg})
	if err != nil || diagsHaveError(resp.Diagnostics) {
		tb.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return s
}

func diagsHaveError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// dynamicValue encodes a configuration for schema: the given attributes,
// every other attribute null.
func (s *protoServer) dynamicValue(tb testing.TB, schema *tfprotov6.Schema, attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
	tb.Helper()
	typ := schema.ValueType().(tftypes.Object)
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
	}
	for name, v := range attrs {
		if _, ok := typ.AttributeTypes[name]; !ok {
			tb.Fatalf("attribute %q is not in the schema", name)
		}
		vals[name] = v
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

// readRequest builds a ReadDataSource request for typeName.
func (s *protoServer) readRequest(tb testing.TB, typeName string, attrs map[string]tftypes.Value) *tfprotov6.ReadDataSourceRequest {
	tb.Helper()
	schema, ok := s.schemas.DataSourceSchemas[typeName]
	if !ok {
		tb.Fatalf("no data source %s", typeName)
	}
	return &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: s.dynamicValue(tb, schema, attrs)}
}

// catalogRead is what readCatalog returns of an hpcsku_catalog state.
type catalogRead struct {
	version, dataDate string
	names             []string // of the sizes, in order
}

// readCatalog reads hpcsku_catalog with the given attributes.
func (s *protoServer) readCatalog(tb testing.TB, attrs map[string]tftypes.Value) catalogRead {
	tb.Helper()
	resp, err := s.ReadDataSource(context.Background(), s.readRequest(tb, "hpcsku_catalog", attrs))
	if err != nil || diagsHaveError(resp.Diagnostics) {
		tb.Fatalf("ReadDataSource: %v\n%s", err, diagsString(resp.Diagnostics))
	}
	state, err := resp.State.Unmarshal(s.schemas.DataSourceSchemas["hpcsku_catalog"].ValueType())
	if err != nil {
		tb.Fatal(err)
	}
	var top map[string]tftypes.Value
	if err := state.As(&top); err != nil {
		tb.Fatal(err)
	}
	var r catalogRead
	var list []tftypes.Value
	for k, dst := range map[string]any{"catalog_version": &r.version, "data_date": &r.dataDate, "skus": &list} {
		if err := top[k].As(dst); err != nil {
			tb.Fatalf("%s: %v", k, err)
		}
	}
	r.names = make([]string, len(list))
	for i, v := range list {
		var sku map[string]tftypes.Value
		if err := v.As(&sku); err != nil {
			tb.Fatal(err)
		}
		if err := sku["name"].As(&r.names[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}

// modelValue is an hpcsku_recommendation `model` object with the given
// attributes, every other attribute null.
func modelValue(attrs map[string]tftypes.Value) tftypes.Value {
	typ := recommendationInputAttributes()["model"].GetType().TerraformType(context.Background()).(tftypes.Object)
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
	}
	for name, v := range attrs {
		if _, ok := typ.AttributeTypes[name]; !ok {
			panic("model has no attribute " + name)
		}
		vals[name] = v
	}
	return tftypes.NewValue(typ, vals)
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func num(f float64) tftypes.Value {
	return tftypes.NewValue(tftypes.Number, new(big.Float).SetFloat64(f))
}

func diagsString(diags []*tfprotov6.Diagnostic) string {
	var b bytes.Buffer
	for _, d := range diags {
		fmt.Fprintf(&b, "%s|%s|%s|%v\n", d.Severity, d.Summary, d.Detail, d.Attribute)
	}
	return b.String()
}

// canonicalState decodes a state and renders it canonically: msgpack maps
// (node_labels) come out of terraform-plugin-go in Go's random map order, so
// two equal states need not be equal bytes; tftypes.Value.String sorts map
// and object keys.
func (s *protoServer) canonicalState(tb testing.TB, typeName string, state *tfprotov6.DynamicValue) string {
	tb.Helper()
	v, err := state.Unmarshal(s.schemas.DataSourceSchemas[typeName].ValueType())
	if err != nil {
		tb.Fatalf("decoding the state: %v", err)
	}
	return v.String()
}

// numberBetween passes for a number from lo to hi (inclusive).
type numberBetween struct{ lo, hi float64 }

func (c numberBetween) CheckValue(v any) error {
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Errorf("expected a number, got %T", v)
	}
	f, err := n.Float64()
	if err != nil {
		return err
	}
	if f < c.lo || f > c.hi {
		return fmt.Errorf("%v is outside %v to %v", f, c.lo, c.hi)
	}
	return nil
}

func (c numberBetween) String() string { return fmt.Sprintf("a number from %v to %v", c.lo, c.hi) }

// stringOneOf passes for one of the strings.
type stringOneOf []string

func (c stringOneOf) CheckValue(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("expected a string, got %T", v)
	}
	if !slices.Contains(c, s) {
		return fmt.Errorf("%q is not one of %q", s, []string(c))
	}
	return nil
}

func (c stringOneOf) String() string { return fmt.Sprintf("one of %q", []string(c)) }
