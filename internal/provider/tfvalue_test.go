// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// TestSetStateMatchesFramework fills hpcsku_recommendation's model from
// engine results of several workloads (targets and full records included)
// and requires stateValue to write exactly the value the framework's
// State.Set writes for the same model.
func TestSetStateMatchesFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := testProviderData(t)
	requests := map[string]recommend.Request{
		"fine-tuning on aks":  {Workload: "fine_tuning", Model: &recommend.Model{ParametersBillion: 7, Precision: "bf16"}, Target: "aks", Region: "eastus"},
		"inference on batch":  {Workload: "inference", Model: &recommend.Model{ParametersBillion: 8}, Target: "batch"},
		"hpc on cyclecloud":   {Workload: "hpc", Cores: ptrTo(int64(2000)), Target: "cyclecloud", Region: "westeurope"},
		"training on azureml": {Workload: "training", Model: &recommend.Model{ParametersBillion: 70}, Target: "azureml", MaxResults: ptrTo(int64(10))},
	}
	for name, r := range requests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			result, err := data.Engine.Recommend(r)
			if err != nil {
				t.Fatal(err)
			}
			cfg := nullConfig(ctx, t)
			cfg.Workload = types.StringValue(r.Workload)
			cfg.FullRecords = types.BoolValue(name == "training on azureml")
			if d := setRecommendationOutputs(ctx, &cfg, result, data); d.HasError() {
				t.Fatal(d)
			}
			want := tfsdk.State{Schema: recommendationSchema()}
			if d := want.Set(ctx, &cfg); d.HasError() {
				t.Fatal(d)
			}
			got, d := stateValue(ctx, recommendationStateType(), cfg)
			if d.HasError() {
				t.Fatal(d)
			}
			if diff, err := want.Raw.Diff(got); err != nil || len(diff) > 0 {
				t.Fatalf("stateValue differs from State.Set (%v): %v", err, diff)
			}
		})
	}
}

// nullConfig is hpcsku_recommendation's model of a configuration that sets
// nothing: every input a typed null, as Terraform sends it.
func nullConfig(ctx context.Context, t *testing.T) recommendationDataSourceModel {
	t.Helper()
	typ := recommendationStateType().(tftypes.Object)
	attrs := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	var cfg recommendationDataSourceModel
	config := tfsdk.Config{Raw: tftypes.NewValue(typ, attrs), Schema: recommendationSchema()}
	if d := config.Get(ctx, &cfg); d.HasError() {
		t.Fatal(d)
	}
	return cfg
}

// TestTerraformValueRejectsMismatches: a model that disagrees with its type
// is an error naming the attribute, never a partial value.
func TestTerraformValueRejectsMismatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Number}}
	type both struct {
		A string  `tfsdk:"a"`
		B *int64  `tfsdk:"b"`
		C float64 `tfsdk:"-"`
	}
	type renamed struct {
		A string `tfsdk:"a"`
		X int64  `tfsdk:"x"`
	}
	type short struct {
		A string `tfsdk:"a"`
	}
	type wrongKind struct {
		A []string `tfsdk:"a"`
		B int64    `tfsdk:"b"`
	}
	v, err := terraformValue(ctx, obj, reflect.ValueOf(both{A: "x"}))
	want := tftypes.NewValue(obj, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, "x"), "b": tftypes.NewValue(tftypes.Number, nil)})
	if err != nil || !v.Equal(want) {
		t.Fatalf("got %v, %v; want %v", v, err, want)
	}
	for name, c := range map[string]struct {
		model any
		want  string
	}{
		"renamed field":   {renamed{}, `attribute "x", which the schema does not`},
		"missing field":   {short{}, "has 1 attributes, the schema 2"},
		"wrong kind":      {wrongKind{}, "a: cannot convert a Go []string"},
		"not a struct":    {"text", "cannot convert a Go string"},
		"map of non-text": {map[int]string{}, "cannot convert a Go map[int]string"},
	} {
		if _, err := terraformValue(ctx, obj, reflect.ValueOf(c.model)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

// TestModelFromConfigMatchesFramework reads the configurations of
// TestServerValidatesAsTheFramework into hpcsku_recommendation's model with
// modelFromConfig and with the framework's config.Get: the same model where
// the framework reads one, an error where it fails.
func TestModelFromConfigMatchesFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	typ := recommendationStateType().(tftypes.Object)
	for i, attrs := range validationConfigs(typ) {
		vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for name, at := range typ.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
		}
		maps.Copy(vals, attrs)
		config := tfsdk.Config{Raw: tftypes.NewValue(typ, vals), Schema: recommendationSchema()}
		var got, want recommendationDataSourceModel
		gotDiags := modelFromConfig(ctx, config, recommendationSchema().Attributes, &got)
		wantDiags := config.Get(ctx, &want)
		if wantDiags.HasError() {
			if !gotDiags.HasError() {
				t.Errorf("configuration %d %v: read although the framework fails: %v", i, attrs, wantDiags)
			}
			continue
		}
		if gotDiags.HasError() {
			t.Fatalf("configuration %d %v: %v", i, attrs, gotDiags)
		}
		g, err1 := terraformValue(ctx, typ, reflect.ValueOf(got))
		w, err2 := terraformValue(ctx, typ, reflect.ValueOf(want))
		if err1 != nil || err2 != nil || !g.Equal(w) {
			t.Errorf("configuration %d %v: model differs from the framework's (%v, %v)", i, attrs, err1, err2)
		}
	}
}
