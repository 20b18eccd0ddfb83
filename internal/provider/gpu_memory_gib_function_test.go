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
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

func TestGPUMemoryGiBFunction(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "llama70_training" {
  # 70e9 x 16 bytes (bf16 weights 2 + gradients 2 + fp32 master 4 + Adam 8) = 1043.08 GiB, + one
  # 4,096-token sequence's activations without the architecture, 70e9 x 0.25 bytes = 16.3 GiB.
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training")
}
output "opt13_inference" {
  # Weights 1.3e9 x 2 bytes = 2.42 GiB, + 5% workspace, + the KV cache of 8 sequences of 4,096
  # tokens at about 131,072 x (1.3 / 8)^0.42 = 61,104 bytes per token (no architecture) = 1.86 GiB.
  value = provider::hpcsku::gpu_memory_gib(1.3, "bf16", "inference")
}
output "mistral7_fine_tuning_fp32" {
  # fp32 fine-tunes in full: 7e9 x 16 bytes (fp32 weights 4 + gradients 4 + Adam 8, no master copy) = 104.31 GiB,
  # + one 4,096-token sequence's activations, 7e9 x 0.25 bytes x 2 (4-byte activations) = 3.26 GiB.
  value = provider::hpcsku::gpu_memory_gib(7, "fp32", "fine_tuning")
}
output "llama70_int4_inference" {
  # Weights 70e9 x 0.5 bytes = 32.6 GiB, + 5% workspace, + 8 x 4,096 tokens x 131,072 x (70 / 8)^0.42
  # = 325,943 bytes per token (the KV cache stays 16-bit) = 9.95 GiB.
  value = provider::hpcsku::gpu_memory_gib(70, "int4", "inference")
}
output "null_options" {
  # A null options argument is no options: the training figure above.
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training", null)
}`, map[string]knownvalue.Check{
		"llama70_training":          knownvalue.Float64Exact(1059.38),
		"opt13_inference":           knownvalue.Float64Exact(4.41),
		"mistral7_fine_tuning_fp32": knownvalue.Float64Exact(107.57),
		"llama70_int4_inference":    knownvalue.Float64Exact(44.17),
		"null_options":              knownvalue.Float64Exact(1059.38),
	})
}

// The options object: a named model's architecture, the fine-tuning
// method, context, concurrency, batch and active parameters. The figures
// follow the embedded model table (data/models.json).
func TestGPUMemoryGiBFunction_Options(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "llama8_serving" {
  # Llama 3.1 8B (8.03B, bf16): weights 8.03e9 x 2 bytes x 1.05 (workspace) = 15.7 GiB, + KV cache
  # 2 x 32 layers x 8 KV heads x 128 head dimension x 2 bytes = 131,072 bytes per token
  # x 8,192 tokens x 32 sequences = 32 GiB.
  value = provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "llama-3.1-8b", context_tokens = 8192, concurrent_requests = 32 })
}
output "llama8_serving_by_display_name" {
  # The display name, in any case, with the count and precision given: the same.
  value = provider::hpcsku::gpu_memory_gib(8.03, "bf16", "inference", { model = "LLAMA 3.1 8B", context_tokens = 8192, concurrent_requests = 32 })
}
output "llama70_qlora" {
  # Llama 3.1 70B (70.55B; vocabulary 128,256, hidden 8,192, 80 layers) by QLoRA: the embedding
  # and output layers (2 x 128,256 x 8,192 = 2.1B) at 2 bytes and the rest at 4.127 bits = 36.8 GiB,
  # + adapters 1% x 70.55e9 x 12 bytes = 7.88 GiB, + activations of one 4,096-token sequence:
  # 4,096 x (80 x 8,192 x 2 + 8,192 x 34 + 128,256 x 4) bytes = 8.02 GiB. 52.7 GiB.
  value = provider::hpcsku::gpu_memory_gib(null, null, "fine_tuning", { model = "llama-3.1-70b", fine_tuning_method = "qlora" })
}
output "llama8_lora_batch" {
  # LoRA on Llama 3.1 8B, 4 sequences of 2,048 tokens: base 8.03e9 x 2 bytes = 14.96 GiB,
  # + adapters 1% x 8.03e9 x 16 bytes = 1.2 GiB, + activations 8,192 tokens x (32 x 4,096 x 2
  # + 4,096 x 34 + 128,256 x 4) bytes = 6.98 GiB. 23.13 GiB.
  value = provider::hpcsku::gpu_memory_gib(null, "bf16", "fine_tuning", { model = "llama-3.1-8b", fine_tuning_method = "lora", context_tokens = 2048, training_batch_size = 4 })
}
output "moe_without_name" {
  # 46.7B with 12.9B active: weights 46.7e9 x 2 x 1.05 = 91.33 GiB, + 8 x 4,096 tokens
  # x 131,072 x (12.9 / 8)^0.42 = 160,199 bytes per token = 4.89 GiB.
  value = provider::hpcsku::gpu_memory_gib(46.7, "bf16", "inference", { active_parameters_billion = 12.9 })
}
output "gpt_oss_published_precision" {
  # A null precision takes the published one: gpt-oss-120b in MXFP4, served from its published
  # checkpoint, 60.8 GiB (the model card; 116.8e9 x 4.25 bits would be 57.79) x 1.05 = 63.84 GiB,
  # + KV cache at 2 x 8 KV heads x 64 head dimension x 2 bytes per layer and token, over 18 full
  # layers x 4,096 tokens + 18 sliding-window layers x 128 tokens, x 8 sequences = 1.16 GiB.
  value = provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "gpt-oss-120b" })
}
output "null_option_values" {
  # Null values are left out, as in a module passing optional variables.
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training", { model = null, context_tokens = null })
}`, map[string]knownvalue.Check{
		"llama8_serving":                 knownvalue.Float64Exact(47.7),
		"llama8_serving_by_display_name": knownvalue.Float64Exact(47.7),
		"llama70_qlora":                  knownvalue.Float64Exact(52.7),
		"llama8_lora_batch":              knownvalue.Float64Exact(23.13),
		"moe_without_name":               knownvalue.Float64Exact(96.22),
		"gpt_oss_published_precision":    knownvalue.Float64Exact(65),
		"null_option_values":             knownvalue.Float64Exact(1059.38),
	})
}

// Every precision and workload the function accepts gives the engine's own
// number, and the same number hpcsku_recommendation reports; what the
// engine refuses (int8, int4 and fp4 training) fails on the precision argument.
func TestGPUMemoryGiBFunction_MatchesEngine(t *testing.T) {
	t.Parallel()
	eng := testProviderData(t).Engine
	refused := 0
	for _, precision := range recommend.Precisions() {
		for _, workload := range memoryWorkloads() {
			got, funcErr := runGPUMemoryGiB(t, types.Float64Value(13), types.StringValue(precision), types.StringValue(workload))
			mi, _, err := eng.ResolveMemory(recommend.MemoryRequest{Workload: workload, Model: recommend.Model{ParametersBillion: 13, Precision: precision}})
			want := perfmodel.EstimateMemory(&mi)
			if err != nil {
				refused++
				if funcErr == nil || funcErr.FunctionArgument == nil || *funcErr.FunctionArgument != argPrecision || !strings.HasPrefix(funcErr.Text, "Precision Cannot Train: ") {
					t.Errorf("gpu_memory_gib(13, %q, %q): error %v, want Precision Cannot Train on precision (the engine: %v)", precision, workload, funcErr, err)
				}
				continue
			}
			if funcErr != nil {
				t.Fatalf("gpu_memory_gib(13, %q, %q): %s", precision, workload, funcErr)
			}
			// Without a name, the engine's estimate is the catalog-free one.
			plain, err := recommend.EstimateGPUMemoryGiB(13, precision, workload)
			if err != nil {
				t.Fatal(err)
			}
			if got != want.GiB || got != plain.GiB {
				t.Errorf("gpu_memory_gib(13, %q, %q) = %v, want %v (EstimateGPUMemoryGiB %v)", precision, workload, got, want.GiB, plain.GiB)
			}
		}
	}
	// int8, int4 and fp4 training: 3 of the 24 combinations.
	if refused != 3 {
		t.Errorf("%d combinations refused, want 3 (int8, int4 and fp4 training)", refused)
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "llm" {
  workload = "training"
  model = {
    parameters_billion = 70
    precision          = "bf16"
  }
  target = "aks"
}
data "hpcsku_recommendation" "serve" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 8192
  concurrent_requests = 32
}
data "hpcsku_recommendation" "qlora" {
  workload           = "fine_tuning"
  model              = { name = "Llama 3.1 70B" }
  fine_tuning_method = "qlora"
}
output "same" {
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training") == data.hpcsku_recommendation.llm.requirements.memory.gib
}
output "same_named" {
  value = provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "llama-3.1-8b", context_tokens = 8192, concurrent_requests = 32 }) == data.hpcsku_recommendation.serve.requirements.memory.gib
}
output "same_qlora" {
  value = provider::hpcsku::gpu_memory_gib(null, null, "fine_tuning", { model = "llama-3.1-70b", fine_tuning_method = "qlora" }) == data.hpcsku_recommendation.qlora.requirements.memory.gib
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("same", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("same_named", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("same_qlora", knownvalue.Bool(true)),
				// Not equal by both being null: the figures of TestGPUMemoryGiBFunction_Options.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.serve", tfjsonpath.New("requirements").AtMapKey("memory").AtMapKey("gib"), knownvalue.Float64Exact(47.7)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.qlora", tfjsonpath.New("requirements").AtMapKey("memory").AtMapKey("gib"), knownvalue.Float64Exact(52.7)),
			},
		}},
	})
}

// An output precondition checks a chosen size's GPU memory against the
// estimate.
func TestGPUMemoryGiBFunction_Precondition(t *testing.T) {
	t.Parallel()
	cfg := `
variable "size" {
  type = string
}
variable "nodes" {
  type = number
}
locals {
  needed_gib    = provider::hpcsku::gpu_memory_gib(70, "bf16", "training")
  available_gib = provider::hpcsku::sku(var.size).gpu.memory_gib_total * var.nodes
}
output "available_gib" {
  value = local.available_gib
  precondition {
    condition     = local.available_gib >= local.needed_gib
    error_message = "${var.nodes} x ${var.size} have ${local.available_gib} GiB of GPU memory; training a 70B model in bf16 needs ${local.needed_gib} GiB."
  }
}`
	testGuard(t, cfg,
		config.Variables{"size": config.StringVariable("Standard_ND96isr_H100_v5"), "nodes": config.IntegerVariable(1)},
		"1 x Standard_ND96isr_H100_v5 have 640 GiB of GPU memory; training a 70B model in bf16 needs 1059.38 GiB.",
		config.Variables{"size": config.StringVariable("Standard_ND96isr_H100_v5"), "nodes": config.IntegerVariable(2)},
		"available_gib", knownvalue.Float64Exact(1280))
}

// gpuMemoryGiBErrorCases are the calls of gpu_memory_gib that must fail, and
// the errors they must fail with.
var gpuMemoryGiBErrorCases = map[string]functionErrorCase{
	"negative parameters": {
		call: `provider::hpcsku::gpu_memory_gib(-7, "bf16", "training")`,
		err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Count: parameters_billion must be greater than 0 and at most 100,000; got -7.`),
	},
	"zero parameters": {
		call: `provider::hpcsku::gpu_memory_gib(0, "bf16", "training")`,
		err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Count: parameters_billion must be greater than 0 and at most 100,000; got 0.`),
	},
	"too many parameters": {
		call: `provider::hpcsku::gpu_memory_gib(100001, "bf16", "training")`,
		err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Count: parameters_billion must be greater than 0 and at most 100,000; got 100001.`),
	},
	"bad precision": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf17", "training")`,
		err:  wrapped(`Invalid value for "precision" parameter: Invalid Parameter Value Match: value must be one of: ["fp32" "tf32" "bf16" "fp16" "fp8" "fp4" "int8" "int4"], got: "bf17"; did you mean "bf16".`),
	},
	"precision is case-sensitive": {
		call: `provider::hpcsku::gpu_memory_gib(7, "BF16", "training")`,
		err:  wrapped(`Invalid value for "precision" parameter: Invalid Parameter Value Match: value must be one of:`),
	},
	"unknown workload": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "pretraining")`,
		err:  wrapped(`Invalid value for "workload" parameter: Invalid Parameter Value Match: value must be one of: ["training" "fine_tuning" "inference"], got: "pretraining".`),
	},
	"workload the memory model does not cover": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "hpc")`,
		err:  wrapped(`Invalid value for "workload" parameter: Invalid Parameter Value Match: value must be one of: ["training" "fine_tuning" "inference"], got: "hpc".`),
	},
	"null workload": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", null)`,
		err:  wrapped(`Invalid value for "workload" parameter: argument must not be null.`),
	},
	"null parameters without a model": {
		call: `provider::hpcsku::gpu_memory_gib(null, "bf16", "training")`,
		err:  wrapped(`Invalid value for "parameters_billion" parameter: Missing Model Size: parameters_billion is null and options names no model.`),
	},
	"int4 training": {
		call: `provider::hpcsku::gpu_memory_gib(70, "int4", "training")`,
		err:  wrapped(`Invalid value for "precision" parameter: Precision Cannot Train: Training updates every weight, which int4 cannot hold:`),
	},
	"int8 full fine-tuning": {
		call: `provider::hpcsku::gpu_memory_gib(70, "int8", "fine_tuning", { fine_tuning_method = "full" })`,
		err:  wrapped(`Invalid value for "options" parameter: Precision Cannot Train: Full fine-tuning updates every weight, which int8 cannot hold.`),
	},
	"two options objects": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context_tokens = 8192 }, { concurrent_requests = 4 })`,
		err:  wrapped(`Invalid value for "options" parameter: Too Many Options: gpu_memory_gib takes at most one options object after workload; got 2.`),
	},
	"options not an object": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", "llama-3.1-8b")`,
		err:  wrapped(`Invalid value for "options" parameter: Invalid Options: options must be an object with any of the keys "model", "fine_tuning_method", "context_tokens", "concurrent_requests", "training_batch_size", "active_parameters_billion", for example`) + `[\s\S]*` + wrapped(`got a string.`),
	},
	"unknown option key": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context = 8192 })`,
		err:  wrapped(`Invalid value for "options" parameter: Unknown Option: options has no key "context". The keys are "model", "fine_tuning_method", "context_tokens", "concurrent_requests", "training_batch_size", "active_parameters_billion".`),
	},
	"option of the wrong type": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context_tokens = "8k" })`,
		err:  wrapped(`Invalid value for "options" parameter: Invalid Option Value: options.context_tokens must be a number; got a string.`),
	},
	"model not a string": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { model = 8 })`,
		err:  wrapped(`Invalid Option Value: options.model must be a string; got a number.`),
	},
	"context_tokens zero": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context_tokens = 0 })`,
		err:  wrapped(`Invalid Option Value: options.context_tokens must be at least 1 and at most 10,485,760; got 0.`),
	},
	"concurrent_requests above the maximum": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { concurrent_requests = 100001 })`,
		err:  wrapped(`Invalid Option Value: options.concurrent_requests must be at least 1 and at most 100,000; got 100001.`),
	},
	"training_batch_size fractional": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { training_batch_size = 1.5 })`,
		err:  wrapped(`Invalid Option Value: options.training_batch_size must be a whole number; got 1.5.`),
	},
	"active_parameters_billion negative": {
		call: `provider::hpcsku::gpu_memory_gib(47, "bf16", "inference", { active_parameters_billion = -13 })`,
		err:  wrapped(`Invalid Option Value: options.active_parameters_billion must be greater than 0 and at most 100,000; got -13.`),
	},
	"active_parameters_billion above parameters_billion": {
		call: `provider::hpcsku::gpu_memory_gib(47, "bf16", "inference", { active_parameters_billion = 48 })`,
		err:  wrapped(`Invalid value for "options" parameter: Active Parameters Above Total: options.active_parameters_billion (48) must be at most parameters_billion (47)`),
	},
	"unknown fine_tuning_method": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "fine_tuning", { fine_tuning_method = "dora" })`,
		err:  wrapped(`Invalid Option Value: options.fine_tuning_method must be one of "full", "lora", "qlora"; got "dora".`),
	},
	"fine_tuning_method on inference": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { fine_tuning_method = "lora" })`,
		err:  wrapped(`Invalid value for "options" parameter: Argument Not Used By Workload: fine_tuning_method applies to fine-tuning, not to workload "inference".`),
	},
	"concurrent_requests on training": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { concurrent_requests = 8 })`,
		err:  wrapped(`Invalid value for "options" parameter: Argument Not Used By Workload: concurrent_requests applies to serving a model, not to workload "training".`),
	},
	"training_batch_size on inference": {
		call: `provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { training_batch_size = 8 })`,
		err:  wrapped(`Argument Not Used By Workload: training_batch_size applies to training and fine-tuning, not to workload "inference".`),
	},
	"unknown model": {
		call: `provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "llama-3.1-9b" })`,
		err:  wrapped(`Invalid value for "options" parameter: Unknown Model:`) + `[\s\S]*` + wrapped(`Did you mean one of:`) + `[\s\S]*llama-3\.1-8b`,
	},
	"empty model": {
		call: `provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "" })`,
		err:  wrapped(`Invalid Option Value: options.model must name a model of the catalog's model table, such as "llama-3.1-8b"; got an empty string.`),
	},
}

func TestGPUMemoryGiBFunction_Errors(t *testing.T) {
	t.Parallel()
	testFunctionErrors(t, gpuMemoryGiBErrorCases)
}

// runGPUMemoryGiB calls the function's Run directly, without Terraform, on
// a provider with the embedded catalog; options are the variadic
// arguments.
func runGPUMemoryGiB(t *testing.T, parametersBillion types.Float64, precision, workload types.String, options ...attr.Value) (float64, *function.FuncError) {
	t.Helper()
	ctx := context.Background()
	cat := testCatalog(t)
	p := newProvider("test", func() (*catalog.Catalog, error) { return cat, nil }, func() time.Time { return testAsOf })
	variadic := make([]attr.Type, len(options))
	for i := range options {
		variadic[i] = types.DynamicType
	}
	tuple, d := types.TupleValue(variadic, options)
	if d.HasError() {
		t.Fatal(d)
	}
	req := function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{parametersBillion, precision, workload, tuple})}
	resp := &function.RunResponse{Result: function.NewResultData(types.Float64Unknown())}
	newGPUMemoryGiBFunction(p).Run(ctx, req, resp)
	if resp.Error != nil {
		return 0, resp.Error
	}
	return resp.Result.Value().(types.Float64).ValueFloat64(), nil
}
