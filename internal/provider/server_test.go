// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// These tests and benchmarks call the provider's gRPC server interface
// (tfprotov6.ProviderServer) directly, the way Terraform does, without a
// Terraform binary: GetProviderSchema, ConfigureProvider, then ReadDataSource
// with msgpack-encoded configurations.

// serverReadCases are one configuration per data source, each producing a
// large result: the recommendation's ranked sizes carry the SKU object, and
// the catalog returns two families' sizes.
func serverReadCases() map[string]struct {
	typeName string
	attrs    map[string]tftypes.Value
} {
	return map[string]struct {
		typeName string
		attrs    map[string]tftypes.Value
	}{
		"recommendation": {"hpcsku_recommendation", map[string]tftypes.Value{
			"workload":    str("fine_tuning"),
			"model":       modelValue(map[string]tftypes.Value{"parameters_billion": num(7), "precision": str("bf16")}),
			"target":      str("aks"),
			"region":      str("eastus"),
			"max_results": num(10),
		}},
		"catalog": {"hpcsku_catalog", map[string]tftypes.Value{
			"families":        tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("ND"), str("HB")}),
			"include_retired": tftypes.NewValue(tftypes.Bool, true),
			"region":          str("eastus"),
		}},
		"sku": {"hpcsku_sku", map[string]tftypes.Value{
			"name":   str("Standard_NC24rs_v3"),
			"region": str("eastus"),
		}},
	}
}

// TestConcurrentReads reads each data source from 16 goroutines at once on
// one configured provider server (the three data sources in parallel, so
// 48 reads overlap) and requires every state to be, byte for byte in
// canonical form, the state of a serial read, with the same diagnostics.
// Sixteen goroutines are well over the cores a test machine has, which is
// what makes reads overlap; more add time, not interleavings. Run it with
// -race (make test-race) to also check the shared catalog, the engine's
// pools and the SKU object cache.
func TestConcurrentReads(t *testing.T) {
	t.Parallel()
	const goroutines = 16
	s := newProtoServer(t)
	ctx := context.Background()
	for name, c := range serverReadCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := s.readRequest(t, c.typeName, c.attrs)
			want, err := s.ReadDataSource(ctx, req)
			if err != nil || diagsHaveError(want.Diagnostics) {
				t.Fatalf("ReadDataSource: %v\n%s", err, diagsString(want.Diagnostics))
			}
			if want.State == nil || len(want.State.MsgPack) < 1000 {
				t.Fatalf("state is suspiciously small: %v", want.State)
			}
			wantState := s.canonicalState(t, c.typeName, want.State)
			wantDiags := diagsString(want.Diagnostics)
			var wg sync.WaitGroup
			errs := make(chan string, goroutines)
			start := make(chan struct{})
			for i := 0; i < goroutines; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					<-start
					// Each goroutine builds its own request, as Terraform sends one per read.
					got, err := s.ReadDataSource(ctx, s.readRequest(t, c.typeName, c.attrs))
					switch {
					case err != nil:
						errs <- fmt.Sprintf("goroutine %d: %v", i, err)
					case got.State == nil:
						errs <- fmt.Sprintf("goroutine %d: no state", i)
					case !bytes.Equal(got.State.MsgPack, want.State.MsgPack) && s.canonicalState(t, c.typeName, got.State) != wantState:
						errs <- fmt.Sprintf("goroutine %d: state differs from the serial read", i)
					case diagsString(got.Diagnostics) != wantDiags:
						errs <- fmt.Sprintf("goroutine %d: diagnostics differ:\n%s\nwant:\n%s", i, diagsString(got.Diagnostics), wantDiags)
					}
				}(i)
			}
			close(start)
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		})
	}
}

// BenchmarkReadDataSource measures one ReadDataSource call through the
// provider server, as Terraform makes it during plan: msgpack decoding of the
// configuration, validation, the lookup or ranking, conversion of the result
// (SKU objects included) and msgpack encoding of the state.
func BenchmarkReadDataSource(b *testing.B) {
	s := newProtoServer(b)
	ctx := context.Background()
	for name, c := range serverReadCases() {
		b.Run(name, func(b *testing.B) {
			req := s.readRequest(b, c.typeName, c.attrs)
			b.ReportAllocs()
			for b.Loop() {
				resp, err := s.ReadDataSource(ctx, req)
				if err != nil || diagsHaveError(resp.Diagnostics) {
					b.Fatalf("ReadDataSource: %v %v", err, resp.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkValidateDataSource measures one ValidateDataResourceConfig call
// for hpcsku_recommendation, which Terraform makes twice per data source and
// plan (validate, then plan).
func BenchmarkValidateDataSource(b *testing.B) {
	s := newProtoServer(b)
	ctx := context.Background()
	c := serverReadCases()["recommendation"]
	req := &tfprotov6.ValidateDataResourceConfigRequest{TypeName: c.typeName, Config: s.readRequest(b, c.typeName, c.attrs).Config}
	b.ReportAllocs()
	for b.Loop() {
		if resp, err := s.ValidateDataResourceConfig(ctx, req); err != nil || diagsHaveError(resp.Diagnostics) {
			b.Fatalf("ValidateDataResourceConfig: %v %v", err, resp.Diagnostics)
		}
	}
}

// TestProviderDecodesCatalogOnce configures several provider servers the way
// main.go builds them (New, which loads catalog.Default) and reads through
// each; then configures several providers from New directly: each is handed
// the one catalog catalog.Default decoded for the process.
func TestProviderDecodesCatalogOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		srv, err := providerserver.NewProtocol6WithError(New("test")())()
		if err != nil {
			t.Fatal(err)
		}
		s := &protoServer{ProviderServer: srv}
		if s.schemas, err = srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
			t.Fatal(err)
		}
		cfg := s.dynamicValue(t, s.schemas.Provider, nil)
		if resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg}); err != nil || diagsHaveError(resp.Diagnostics) {
			t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
		}
		c := serverReadCases()["sku"]
		if resp, err := srv.ReadDataSource(ctx, s.readRequest(t, c.typeName, c.attrs)); err != nil || diagsHaveError(resp.Diagnostics) {
			t.Fatalf("ReadDataSource: %v %v", err, resp.Diagnostics)
		}
	}
	for i := 0; i < 3; i++ {
		data, diags := configureProvider(t, New("test")(), nil)
		if diags.HasError() || data == nil || data.Catalog != testCatalog(t) {
			t.Fatalf("provider %d: diagnostics %v; catalog is not the one catalog.Default decoded", i, diags)
		}
	}
}

// TestConcurrentFunctionCalls calls the sku function from 16 goroutines at
// once on a new provider server, before anything has loaded the catalog
// (functions load it on their first call, once per provider): every call
// must return the same object. Run it with -race (make test-race) to also
// check the load and the functions' SKU object memo.
func TestConcurrentFunctionCalls(t *testing.T) {
	t.Parallel()
	const goroutines = 16
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(NewTestProvider(testCatalog(t), func() time.Time { return testAsOf })())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	returnType := schemas.Functions["sku"].Return.Type
	arg, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "Standard_ND96isr_H100_v5"))
	if err != nil {
		t.Fatal(err)
	}
	results := make([]string, goroutines)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp, err := srv.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "sku", Arguments: []*tfprotov6.DynamicValue{&arg}})
			switch {
			case err != nil:
				results[i] = "error: " + err.Error()
			case resp.Error != nil:
				results[i] = "function error: " + resp.Error.Text
			default:
				v, err := resp.Result.Unmarshal(returnType)
				if err != nil {
					results[i] = "decoding the result: " + err.Error()
					return
				}
				results[i] = v.String() // canonical: map keys sorted
			}
		}()
	}
	close(start)
	wg.Wait()
	if !strings.Contains(results[0], `"Standard_ND96isr_H100_v5"`) {
		t.Fatalf("goroutine 0: %s", results[0])
	}
	for i, r := range results[1:] {
		if r != results[0] {
			t.Errorf("goroutine %d: %s\nwant what goroutine 0 got: %s", i+1, r, results[0])
		}
	}
}

// TestServerReadsAsTheFramework reads hpcsku_recommendation through the
// provider's server (NewServer) and through the framework's alone, on one
// configured provider each, and requires the same state and the same
// diagnostics, attribute paths included: results, warnings, malformed
// inputs (top-level and nested), soft findings beside a no-fit error, and
// an unconfigured provider.
func TestServerReadsAsTheFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	newProvider := NewTestProvider(testCatalog(t), func() time.Time { return testAsOf })
	fwOnly := func() (tfprotov6.ProviderServer, error) { return providerserver.NewProtocol6WithError(newProvider())() }
	servers := map[string]*protoServer{
		"server":    newSchemaServer(ctx, t, serverFactory(newProvider)),
		"framework": newSchemaServer(ctx, t, fwOnly),
	}
	strs := func(v ...string) tftypes.Value {
		l := make([]tftypes.Value, len(v))
		for i, s := range v {
			l[i] = str(s)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, l)
	}
	cases := map[string]map[string]tftypes.Value{
		"fine-tuning on aks": {"workload": str("fine_tuning"), "model": modelValue(map[string]tftypes.Value{"parameters_billion": num(7)}), "target": str("aks"), "region": str("eastus")},
		"spot warnings":      {"workload": str("inference"), "model": modelValue(map[string]tftypes.Value{"parameters_billion": num(8)}), "spot": tftypes.NewValue(tftypes.Bool, true), "region": str("northeurope"), "max_results": num(10)},
		"full records":       {"workload": str("hpc"), "cores": num(2000), "target": str("cyclecloud"), "full_records": tftypes.NewValue(tftypes.Bool, true)},
		"malformed":          {"workload": str("training"), "max_results": num(0), "model": modelValue(map[string]tftypes.Value{"parameters_billion": num(-7)})},
		"no fit, soft names": {"workload": str("training"), "model": modelValue(map[string]tftypes.Value{"parameters_billion": num(70)}), "gpu_models": strs("t4", "gpu-x"), "max_price_per_hour": num(0.01)},
	}
	t.Run("unconfigured", func(t *testing.T) {
		c := cases["fine-tuning on aks"]
		_, got := readRecommendationVia(ctx, t, servers["server"], c)
		_, want := readRecommendationVia(ctx, t, servers["framework"], c)
		if got != want || !strings.Contains(got, "Provider Not Configured") {
			t.Fatalf("diagnostics\n%s\nwant\n%s", got, want)
		}
	})
	for _, s := range servers {
		cfg := s.dynamicValue(t, s.schemas.Provider, map[string]tftypes.Value{"as_of": str("2026-11-22")})
		if resp, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg}); err != nil || diagsHaveError(resp.Diagnostics) {
			t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
		}
	}
	for name, attrs := range cases {
		t.Run(name, func(t *testing.T) {
			gotState, gotDiags := readRecommendationVia(ctx, t, servers["server"], attrs)
			wantState, wantDiags := readRecommendationVia(ctx, t, servers["framework"], attrs)
			if gotState != wantState {
				t.Errorf("state differs:\n%s\nwant\n%s", gotState, wantState)
			}
			if gotDiags != wantDiags {
				t.Errorf("diagnostics\n%s\nwant\n%s", gotDiags, wantDiags)
			}
			if (name == "malformed" || name == "no fit, soft names" || name == "spot warnings") && gotDiags == "" {
				t.Errorf("no diagnostics; the case is meant to have some")
			}
		})
	}
}

// newSchemaServer starts a provider server from factory and fetches its
// schemas, which its requests are built from.
func newSchemaServer(ctx context.Context, t *testing.T, factory func() (tfprotov6.ProviderServer, error)) *protoServer {
	t.Helper()
	srv, err := factory()
	if err != nil {
		t.Fatal(err)
	}
	s := &protoServer{ProviderServer: srv}
	if s.schemas, err = srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// readRecommendationVia reads hpcsku_recommendation with attrs through s and
// returns the canonical state ("" when the read fails) and the diagnostics,
// one a line with their attribute paths.
func readRecommendationVia(ctx context.Context, t *testing.T, s *protoServer, attrs map[string]tftypes.Value) (string, string) {
	t.Helper()
	resp, err := s.ReadDataSource(ctx, s.readRequest(t, recommendationTypeName, attrs))
	if err != nil {
		t.Fatal(err)
	}
	var diags []string
	for _, d := range resp.Diagnostics {
		diags = append(diags, fmt.Sprintf("%s %s: %s [%s]", d.Severity, d.Summary, d.Detail, d.Attribute))
	}
	if diagsHaveError(resp.Diagnostics) {
		return "", strings.Join(diags, "\n")
	}
	return s.canonicalState(t, recommendationTypeName, resp.State), strings.Join(diags, "\n")
}

// TestServerValidatesAsTheFramework validates hpcsku_recommendation
// configurations through the provider's server (validateConfig) and through
// the framework's alone and requires the same diagnostics, paths included.
// The configurations vary one input at a time over values of its type that
// its validators reject or accept, unknown values and, for nested inputs,
// each nested attribute in turn; then a missing required input, a read-only
// attribute set, and inputs that depend on each other.
func TestServerValidatesAsTheFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	newProvider := NewTestProvider(testCatalog(t), func() time.Time { return testAsOf })
	fw, err := providerserver.NewProtocol6WithError(newProvider())()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serverFactory(newProvider)()
	if err != nil {
		t.Fatal(err)
	}
	if !recommendationValidatedFast() {
		t.Fatal("validateConfig does not handle hpcsku_recommendation's schema: the server sends it to the framework")
	}
	typ := recommendationStateType().(tftypes.Object)
	configs := validationConfigs(typ)
	for i, attrs := range configs {
		vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for name, at := range typ.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
		}
		maps.Copy(vals, attrs)
		dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
		if err != nil {
			t.Fatal(err)
		}
		req := &tfprotov6.ValidateDataResourceConfigRequest{TypeName: recommendationTypeName, Config: &dv}
		got, err1 := srv.ValidateDataResourceConfig(ctx, req)
		want, err2 := fw.ValidateDataResourceConfig(ctx, req)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if g, w := sortedDiags(got.Diagnostics), sortedDiags(want.Diagnostics); g != w {
			t.Errorf("configuration %d %v:\ndiagnostics\n%s\nwant\n%s", i, attrs, g, w)
		}
	}
	t.Logf("%d configurations", len(configs))
}

func sortedDiags(diags []*tfprotov6.Diagnostic) string {
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = fmt.Sprintf("%s %s: %s [%s]", d.Severity, d.Summary, d.Detail, d.Attribute)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// validationConfigs are the configurations of TestServerValidatesAsTheFramework.
func validationConfigs(typ tftypes.Object) []map[string]tftypes.Value {
	base := map[string]tftypes.Value{"workload": str("training")}
	with := func(extra map[string]tftypes.Value) map[string]tftypes.Value {
		m := maps.Clone(base)
		maps.Copy(m, extra)
		return m
	}
	schemaAttrs := recommendationSchema().Attributes
	configs := []map[string]tftypes.Value{
		{},        // workload missing
		with(nil), // valid
		with(map[string]tftypes.Value{"vm_size": str("Standard_HB120rs_v3")}), // read-only set
		with(map[string]tftypes.Value{"max_price_per_hour": num(5), "region": str("eastus")}),
		with(map[string]tftypes.Value{"workload": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
	}
	for name, a := range schemaAttrs {
		if !a.IsOptional() && !a.IsRequired() {
			continue
		}
		for _, v := range sampleValues(typ.AttributeTypes[name], a) {
			configs = append(configs, with(map[string]tftypes.Value{name: v}))
		}
	}
	return configs
}

// sampleValues are values of type t for an input: invalid and valid ones,
// unknown, and for a nested object each nested input's samples in turn.
func sampleValues(t tftypes.Type, a schema.Attribute) []tftypes.Value {
	unknown := tftypes.NewValue(t, tftypes.UnknownValue)
	switch {
	case t.Is(tftypes.String):
		return []tftypes.Value{str(""), str("x"), str("BF16"), str("training"), str("eastus"), str("12.4"), str("Standard_HB120rs_v3"), unknown}
	case t.Is(tftypes.Number):
		return []tftypes.Value{num(-1), num(0), num(0.5), num(1), num(7), num(1e12), unknown}
	case t.Is(tftypes.Bool):
		return []tftypes.Value{tftypes.NewValue(tftypes.Bool, true), unknown}
	case t.Is(tftypes.List{ElementType: tftypes.String}):
		return []tftypes.Value{
			tftypes.NewValue(t, []tftypes.Value{}),
			tftypes.NewValue(t, []tftypes.Value{str(""), str("a"), str("a")}),
			tftypes.NewValue(t, []tftypes.Value{str("eastus"), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
			unknown,
		}
	}
	obj, ok := t.(tftypes.Object)
	nested, isNested := a.(schema.SingleNestedAttribute)
	if !ok || !isNested {
		return []tftypes.Value{unknown}
	}
	out := []tftypes.Value{unknown}
	for name, at := range obj.AttributeTypes {
		for _, v := range sampleValues(at, nested.Attributes[name]) {
			vals := make(map[string]tftypes.Value, len(obj.AttributeTypes))
			for n, nt := range obj.AttributeTypes {
				vals[n] = tftypes.NewValue(nt, nil)
			}
			vals[name] = v
			out = append(out, tftypes.NewValue(t, vals))
		}
	}
	return out
}
