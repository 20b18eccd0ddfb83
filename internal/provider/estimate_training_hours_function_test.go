// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// The figures follow the embedded catalog's GPU performance table
// (internal/catalog/data/performance.json): dense bf16 TFLOPS per GPU of
// the A100 (SXM and PCIe) 312, the H100 SXM 989.5 (fp8 training 1.5 times it), the MI300X
// 1,307.4, fp16 of the T4 65 and bf16 of the A10 125; and the engine's
// constants: 6 FLOPs per parameter and token, MFU 40% on NVIDIA
// data-center GPUs and 30% on the others, × 0.8 for several GPUs without
// NVLink, × 0.8 for a share of a GPU, × 0.5 across VMs without
// InfiniBand.
func TestEstimateTrainingHoursFunction(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "llama7_on_12_nd96asr_v4" {
  # 6 x 7e9 x 2,000e9 = 8.4e22 FLOPs; 12 VMs x 8 A100 x 312e12 x 0.40 = 1.19808e16 FLOP/s
  # (InfiniBand): 7,011,218 s = 1947.56 hours.
  value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "bf16")
}
output "null_precision_is_bf16" {
  # The same, by a lower-case name without the Standard_ prefix.
  value = provider::hpcsku::estimate_training_hours(7, 2000, "nd96asr_v4", 12, null)
}
output "llama7_on_8_nd96asr_v4" {
  # 8 VMs: 8.4e22 / (8 x 8 x 312e12 x 0.40) = 10,516,827 s = 2921.34 hours.
  value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 8, "bf16")
}
output "llama70_on_64_h100" {
  # 6 x 70e9 x 1,400e9 = 5.88e23 FLOPs; 64 x 8 x 989.5e12 x 0.40 = 2.026496e17 FLOP/s: 805.99 hours.
  value = provider::hpcsku::estimate_training_hours(70, 1400, "Standard_ND96isr_H100_v5", 64, "bf16")
}
output "llama70_on_64_h100_fp8" {
  # fp8 trains 1.5 times as fast as bf16 (FP8TrainingSpeedup, PyTorch's measurement on Llama3-70B),
  # not at its doubled peak: 989.5 x 1.5 = 1,484.25 TFLOPS, 537.33 hours.
  value = provider::hpcsku::estimate_training_hours(70, 1400, "Standard_ND96isr_H100_v5", 64, "fp8")
}
output "mi300x" {
  # Not in the NVIDIA list: 30% MFU. 5.88e23 / (16 x 8 x 1,307.4e12 x 0.30) = 3253.38 hours.
  value = provider::hpcsku::estimate_training_hours(70, 1400, "Standard_ND96isr_MI300X_v5", 16, "bf16")
}
output "one_a100" {
  # 6 x 7e9 x 100e9 = 4.2e21 FLOPs on one A100 80 GB PCIe at 40%: 9348.29 hours.
  value = provider::hpcsku::estimate_training_hours(7, 100, "Standard_NC24ads_A100_v4", 1, "bf16")
}
output "four_a100_over_ethernet" {
  # Four VMs without InfiniBand: MFU 0.40 x 0.5 = 0.20, so 4 VMs take half of one VM's time: 4674.15 hours.
  value = provider::hpcsku::estimate_training_hours(7, 100, "Standard_NC24ads_A100_v4", 4, "bf16")
}
output "four_t4_over_pcie" {
  # 6 x 1.3e9 x 26e9 = 2.028e20 FLOPs; 4 T4 x 65e12 (fp16) x 0.30 x 0.8 (no NVLink) = 6.24e13 FLOP/s: 902.78 hours.
  value = provider::hpcsku::estimate_training_hours(1.3, 26, "Standard_NC64as_T4_v3", 1, "fp16")
}
output "sixth_of_an_a10" {
  # 6 x 0.5e9 x 10e9 = 3e19 FLOPs; 1/6 x 125e12 x 0.30 x 0.8 (a share of a GPU) = 5e12 FLOP/s: 1666.67 hours.
  value = provider::hpcsku::estimate_training_hours(0.5, 10, "Standard_NV6ads_A10_v5", 1, "bf16")
}`, map[string]knownvalue.Check{
		"llama7_on_12_nd96asr_v4": knownvalue.Float64Exact(1947.56),
		"null_precision_is_bf16":  knownvalue.Float64Exact(1947.56),
		"llama7_on_8_nd96asr_v4":  knownvalue.Float64Exact(2921.34),
		"llama70_on_64_h100":      knownvalue.Float64Exact(805.99),
		"llama70_on_64_h100_fp8":  knownvalue.Float64Exact(537.33),
		"mi300x":                  knownvalue.Float64Exact(3253.38),
		"one_a100":                knownvalue.Float64Exact(9348.29),
		"four_a100_over_ethernet": knownvalue.Float64Exact(4674.15),
		"four_t4_over_pcie":       knownvalue.Float64Exact(902.78),
		"sixth_of_an_a10":         knownvalue.Float64Exact(1666.67),
	})
}

// The function gives the hours hpcsku_recommendation reports for the same
// job on the same layout: a 7B model (no name, so no attention term) on
// 2,000 billion tokens, on 12 VMs of the A100 40 GB size. Its 156.46 GiB
// need all eight GPUs of a VM, so the data source uses them all, as the
// function does.
func TestEstimateTrainingHoursFunction_MatchesRecommendation(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "llm" {
  workload       = "training"
  model          = { parameters_billion = 7 }
  tokens_billion = 2000
  nodes          = 12
  gpu_models     = ["a100-sxm-40gb"]
}
output "hours" {
  value = data.hpcsku_recommendation.llm.recommendations[0].estimate.job_hours
}
output "same" {
  value = provider::hpcsku::estimate_training_hours(7, 2000, data.hpcsku_recommendation.llm.vm_size, 12, "bf16") == data.hpcsku_recommendation.llm.recommendations[0].estimate.job_hours
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("hours", knownvalue.Float64Exact(1947.56)),
				statecheck.ExpectKnownOutputValue("same", knownvalue.Bool(true)),
			},
		}},
	})
}

// A precondition keeps a cluster that cannot finish a pretraining run
// within a quarter (2,190 hours) out of the configuration: 8 VMs of
// ND96asr_v4 take 2921.34 hours for 7B x 2,000B tokens, 12 take 1947.56.
func TestEstimateTrainingHoursFunction_Precondition(t *testing.T) {
	t.Parallel()
	cfg := `
variable "size" {
  type = string
}
variable "nodes" {
  type = number
}
locals {
  hours = provider::hpcsku::estimate_training_hours(7, 2000, var.size, var.nodes, "bf16")
}
output "hours" {
  value = local.hours
  precondition {
    condition     = local.hours <= 2190
    error_message = "${var.nodes} x ${var.size} need ${local.hours} hours for the run; it must finish within a quarter (2190 hours)."
  }
}`
	testGuard(t, cfg,
		config.Variables{"size": config.StringVariable("Standard_ND96asr_v4"), "nodes": config.IntegerVariable(8)},
		"8 x Standard_ND96asr_v4 need 2921.34 hours for the run; it must finish within a quarter (2190 hours).",
		config.Variables{"size": config.StringVariable("Standard_ND96asr_v4"), "nodes": config.IntegerVariable(12)},
		"hours", knownvalue.Float64Exact(1947.56))
}

func TestEstimateTrainingHoursFunction_Errors(t *testing.T) {
	t.Parallel()
	testFunctionErrors(t, trainingHoursErrorCases)
}

// trainingHoursErrorCases are the calls estimate_training_hours refuses,
// with the error each gets.
var trainingHoursErrorCases = map[string]functionErrorCase{
	"zero active parameters": {
		call: `provider::hpcsku::estimate_training_hours(0, 2000, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "active_parameters_billion" parameter: Invalid Parameter Count: active_parameters_billion must be greater than 0 and at most 100,000; got 0.`),
	},
	"negative active parameters": {
		call: `provider::hpcsku::estimate_training_hours(-7, 2000, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "active_parameters_billion" parameter: Invalid Parameter Count: active_parameters_billion must be greater than 0 and at most 100,000; got -7.`),
	},
	"too many active parameters": {
		call: `provider::hpcsku::estimate_training_hours(100001, 2000, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "active_parameters_billion" parameter: Invalid Parameter Count: active_parameters_billion must be greater than 0 and at most 100,000; got 100001.`),
	},
	"null active parameters": {
		call: `provider::hpcsku::estimate_training_hours(null, 2000, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "active_parameters_billion" parameter: argument must not be null.`),
	},
	"zero tokens": {
		call: `provider::hpcsku::estimate_training_hours(7, 0, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "tokens_billion" parameter: Invalid Token Count: tokens_billion must be greater than 0 and at most 1,000,000; got 0.`),
	},
	"negative tokens": {
		call: `provider::hpcsku::estimate_training_hours(7, -2000, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "tokens_billion" parameter: Invalid Token Count: tokens_billion must be greater than 0 and at most 1,000,000; got -2000.`),
	},
	"too many tokens": {
		call: `provider::hpcsku::estimate_training_hours(7, 1000001, "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "tokens_billion" parameter: Invalid Token Count: tokens_billion must be greater than 0 and at most 1,000,000; got 1000001.`),
	},
	"tokens not a number": {
		call: `provider::hpcsku::estimate_training_hours(7, "2T", "Standard_ND96asr_v4", 12, "bf16")`,
		err:  wrapped(`Invalid value for "tokens_billion" parameter: a number is required.`),
	},
	"unknown size": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v5", 12, "bf16")`,
		err:  wrapped(`Invalid value for "vm_size" parameter: Unknown VM Size: The size "Standard_ND96asr_v5" is not in the catalog`) + `[\s\S]*` + wrapped(`Did you mean one of:`) + `[\s\S]*Standard_ND96asr_v4`,
	},
	"empty size": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "", 12, "bf16")`,
		err:  wrapped(`Invalid value for "vm_size" parameter: Missing Name: A size name is required`) + `[^?]*Standard_ND96isr_H100_v5\.`,
	},
	"blank size": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, " ", 12, "bf16")`,
		err:  wrapped(`Invalid value for "vm_size" parameter: Missing Name: A size name is required`) + `[^?]*Standard_ND96isr_H100_v5\.`,
	},
	"size without a GPU": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_HB120rs_v3", 12, "bf16")`,
		err:  wrapped(`Invalid value for "vm_size" parameter: Not A GPU Size: Standard_HB120rs_v3 has no GPU; the training estimate is for GPU sizes.`),
	},
	"size without a GPU count": {
		call: `provider::hpcsku::estimate_training_hours(7, 100, "Standard_NV16ahs_v4", 1, "fp16")`,
		err:  wrapped(`Invalid value for "vm_size" parameter: Unknown GPU Count: The catalog does not know the GPU count of Standard_NV16ahs_v4`) + `[\s\S]*` + wrapped(`use Standard_NV12ads_V710_v5`),
	},
	"zero nodes": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 0, "bf16")`,
		err:  wrapped(`Invalid value for "nodes" parameter: Invalid Node Count: nodes must be at least 1 and at most 1,000; got 0.`),
	},
	"fractional nodes": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 1.5, "bf16")`,
		err:  wrapped(`Invalid value for "nodes" parameter: Invalid Node Count: nodes must be a whole number; got 1.5.`),
	},
	"too many nodes": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 1001, "bf16")`,
		err:  wrapped(`Invalid value for "nodes" parameter: Invalid Node Count: nodes must be at least 1 and at most 1,000; got 1001.`),
	},
	"unknown precision": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "bf17")`,
		err:  wrapped(`Invalid value for "precision" parameter: Invalid Parameter Value Match: value must be one of: ["fp32" "tf32" "bf16" "fp16" "fp8" "fp4" "int8" "int4"], got: "bf17"; did you mean "bf16".`),
	},
	"int4 cannot train": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "int4")`,
		err:  wrapped(`Invalid value for "precision" parameter: Precision Cannot Train: Training runs in bf16, fp16, fp8, tf32 or fp32, not int4.`),
	},
	"bf16 on a V100": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND40rs_v2", 12, "bf16")`,
		err:  wrapped(`Invalid value for "precision" parameter: No Throughput Figure: The catalog has no native bf16 throughput for the NVIDIA Tesla V100 32GB SXM2 of Standard_ND40rs_v2; choose a precision it runs (fp16) or another size.`),
	},
	"fp8 on an A100": {
		call: `provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "fp8")`,
		err:  wrapped(`Invalid value for "precision" parameter: No Throughput Figure: The catalog has no native fp8 throughput for the NVIDIA A100 40GB SXM of Standard_ND96asr_v4; choose a precision it runs (bf16) or another size.`),
	},
}

// Each of the engine's refusals reaches the argument it is about. The
// parameter validators let through what only the engine knows (the
// catalog's sizes and their GPUs); calling Run directly also reaches the
// engine's own range checks. With several problems, the error is on the
// first argument in order and names the others' parameters.
func TestEstimateTrainingHoursFunction_ErrorArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		active    float64
		tokens    float64
		vmSize    string
		nodes     float64
		precision types.String
		wantArg   int64
		want      []string // the texts, in order
	}{
		{"unknown size", 7, 2000, "Standard_Nope", 12, types.StringValue("bf16"), 2, []string{"Unknown VM Size: "}},
		{"CPU size", 7, 2000, "Standard_E48_v5", 1, types.StringNull(), 2, []string{"Not A GPU Size: Standard_E48_v5 has no GPU"}},
		{"int8", 7, 2000, "Standard_ND96asr_v4", 1, types.StringValue("int8"), 4, []string{"Precision Cannot Train: Training runs in bf16, fp16, fp8, tf32 or fp32, not int8"}},
		{"bf16 on a T4", 1, 10, "Standard_NC4as_T4_v3", 1, types.StringValue("bf16"), 4, []string{"No Throughput Figure: The catalog has no native bf16 throughput for the NVIDIA Tesla T4 of Standard_NC4as_T4_v3; choose a precision it runs (fp16)"}},
		{"active parameters", 0, 2000, "Standard_ND96asr_v4", 1, types.StringNull(), 0, []string{"Invalid Parameter Count: active_parameters_billion must be greater than 0 and at most 100,000; got 0"}},
		{"tokens", 7, 1e7, "Standard_ND96asr_v4", 1, types.StringNull(), 1, []string{"Invalid Token Count: tokens_billion must be greater than 0 and at most 1,000,000; got 10000000"}},
		{"nodes", 7, 2000, "Standard_ND96asr_v4", 1001, types.StringNull(), 3, []string{"Invalid Node Count: nodes must be at least 1 and at most 1,000; got 1001"}},
		{"unknown size and int8", 7, 2000, "Standard_Nope", 1, types.StringValue("int8"), 2, []string{
			"Unknown VM Size: ", "\nInvalid value for \"precision\" parameter: Precision Cannot Train: "}},
		{"every argument", 0, -1, "Standard_Nope", 0, types.StringValue("int4"), 0, []string{
			"Invalid Parameter Count: ",
			"\nInvalid value for \"tokens_billion\" parameter: Invalid Token Count: ",
			"\nInvalid value for \"vm_size\" parameter: Unknown VM Size: ",
			"\nInvalid value for \"nodes\" parameter: Invalid Node Count: ",
			"\nInvalid value for \"precision\" parameter: Precision Cannot Train: "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, funcErr := runEstimateTrainingHours(t, c.active, c.tokens, c.vmSize, c.nodes, c.precision)
			if funcErr == nil {
				t.Fatal("no error")
			}
			if funcErr.FunctionArgument == nil || *funcErr.FunctionArgument != c.wantArg {
				t.Errorf("argument %v, want %d: %s", funcErr.FunctionArgument, c.wantArg, funcErr.Text)
			}
			if !strings.HasPrefix(funcErr.Text, c.want[0]) {
				t.Errorf("error %q does not start with %q", funcErr.Text, c.want[0])
			}
			rest := funcErr.Text
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (in this order)", funcErr.Text, w)
				}
				rest = rest[i+len(w):]
			}
			if strings.Count(funcErr.Text, "\n") != len(c.want)-1 || strings.HasSuffix(funcErr.Text, ".") {
				t.Errorf("error %q: want %d lines, no final period (Terraform adds one)", funcErr.Text, len(c.want))
			}
		})
	}
}

// The parameters are named as the engine names the inputs, at the
// positions trainingArguments gives.
func TestEstimateTrainingHoursFunction_ParameterNames(t *testing.T) {
	t.Parallel()
	var resp function.DefinitionResponse
	newEstimateTrainingHoursFunction(nil).Definition(context.Background(), function.DefinitionRequest{}, &resp)
	want := []string{"active_parameters_billion", "tokens_billion", "vm_size", "nodes", "precision"}
	if len(resp.Definition.Parameters) != len(want) {
		t.Fatalf("%d parameters, want %d", len(resp.Definition.Parameters), len(want))
	}
	for i, p := range resp.Definition.Parameters {
		if p.GetName() != want[i] || trainingArguments[want[i]] != int64(i) {
			t.Errorf("parameter %d is %q (trainingArguments %d), want %q", i, p.GetName(), trainingArguments[want[i]], want[i])
		}
	}
}

// The function returns the training model's hours for the run the engine
// resolves, for every precision on sizes with and without InfiniBand.
func TestEstimateTrainingHoursFunction_MatchesEngine(t *testing.T) {
	t.Parallel()
	eng := testProviderData(t).Engine
	compared := 0
	for _, size := range []string{"Standard_ND96isr_H100_v5", "Standard_NC24ads_A100_v4", "Standard_ND96isr_MI300X_v5", "Standard_NC64as_T4_v3"} {
		for _, precision := range recommend.Precisions() {
			for _, nodes := range []int64{1, 4} {
				run, err := eng.ResolveTrainingRun(13, 500, size, nodes, precision)
				got, funcErr := runEstimateTrainingHours(t, 13, 500, size, float64(nodes), types.StringValue(precision))
				if (err == nil) != (funcErr == nil) {
					t.Fatalf("%s x %d at %s: engine error %v, function error %v", size, nodes, precision, err, funcErr)
				}
				if err != nil {
					continue
				}
				compared++
				est, timed := run.Time()
				if want := catalog.Round2(est.Hours); !timed || got != want || got <= 0 {
					t.Errorf("%s x %d at %s: %v hours, the model %v", size, nodes, precision, got, want)
				}
			}
		}
	}
	if compared < 20 {
		t.Errorf("only %d estimates compared", compared)
	}
}

// runEstimateTrainingHours calls the function's Run directly, without
// Terraform, on a provider with the embedded catalog.
func runEstimateTrainingHours(t *testing.T, active, tokens float64, vmSize string, nodes float64, precision types.String) (float64, *function.FuncError) {
	t.Helper()
	ctx := context.Background()
	cat := testCatalog(t)
	p := newProvider("test", func() (*catalog.Catalog, error) { return cat, nil }, func() time.Time { return testAsOf })
	req := function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{
		types.Float64Value(active), types.Float64Value(tokens), types.StringValue(vmSize), types.Float64Value(nodes), precision,
	})}
	resp := &function.RunResponse{Result: function.NewResultData(types.Float64Unknown())}
	newEstimateTrainingHoursFunction(p).Run(ctx, req, resp)
	if resp.Error != nil {
		return 0, resp.Error
	}
	return resp.Result.Value().(types.Float64).ValueFloat64(), nil
}
