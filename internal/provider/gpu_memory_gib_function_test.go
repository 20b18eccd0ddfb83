// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

func TestGPUMemoryGiBFunction(t *testing.T) {
	testFunctionOutputs(t, `
output "llama70_training" {
  # 70e9 x 16 bytes (bf16 weights 2 + gradients 2 + fp32 master 4 + Adam 8) = 1043.08 GiB, + 50%.
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training")
}
output "opt13_inference" {
  # 1.3e9 x 2 bytes = 2.42 GiB, + 20%.
  value = provider::hpcsku::gpu_memory_gib(1.3, "bf16", "inference")
}
output "mistral7_fine_tuning_fp32" {
  # 7e9 x 16 bytes (fp32 weights 4 + gradients 4 + Adam 8, no master copy) = 104.31 GiB, + 25%.
  value = provider::hpcsku::gpu_memory_gib(7, "fp32", "fine_tuning")
}
output "llama70_int4_inference" {
  # 70e9 x 0.5 bytes = 32.6 GiB, + 20%.
  value = provider::hpcsku::gpu_memory_gib(70, "int4", "inference")
}`, map[string]knownvalue.Check{
		"llama70_training":          knownvalue.Float64Exact(1564.62),
		"opt13_inference":           knownvalue.Float64Exact(2.91),
		"mistral7_fine_tuning_fp32": knownvalue.Float64Exact(130.39),
		"llama70_int4_inference":    knownvalue.Float64Exact(39.12),
	})
}

// Every precision and workload the function accepts gives the engine's own
// number, and the same number hpcsku_recommendation reports.
func TestGPUMemoryGiBFunction_MatchesEngine(t *testing.T) {
	for _, precision := range recommend.Precisions() {
		for _, workload := range memoryWorkloads() {
			want, err := recommend.EstimateGPUMemoryGiB(13, precision, workload)
			if err != nil {
				t.Fatalf("%s %s: %v", precision, workload, err)
			}
			got := runGPUMemoryGiB(t, 13, precision, workload)
			if got != want.GiB {
				t.Errorf("gpu_memory_gib(13, %q, %q) = %v, want %v", precision, workload, got, want.GiB)
			}
		}
	}
	resource.UnitTest(t, resource.TestCase{
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
output "same" {
  value = provider::hpcsku::gpu_memory_gib(70, "bf16", "training") == data.hpcsku_recommendation.llm.requirements.memory.gib
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("same", knownvalue.Bool(true)),
			},
		}},
	})
}

// An output precondition checks a chosen size's GPU memory against the
// estimate.
func TestGPUMemoryGiBFunction_Precondition(t *testing.T) {
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
		config.Variables{"size": config.StringVariable("Standard_ND96isr_H100_v5"), "nodes": config.IntegerVariable(2)},
		"2 x Standard_ND96isr_H100_v5 have 1280 GiB of GPU memory; training a 70B model in bf16 needs 1564.62 GiB.",
		config.Variables{"size": config.StringVariable("Standard_ND96isr_H100_v5"), "nodes": config.IntegerVariable(3)},
		"available_gib", knownvalue.Float64Exact(1920))
}

func TestGPUMemoryGiBFunction_Errors(t *testing.T) {
	testFunctionErrors(t, map[string]functionErrorCase{
		"negative parameters": {
			call: `provider::hpcsku::gpu_memory_gib(-7, "bf16", "training")`,
			err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Value: value must be a number greater than 0 and at most 100000, got: -7.`),
		},
		"zero parameters": {
			call: `provider::hpcsku::gpu_memory_gib(0, "bf16", "training")`,
			err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Value: value must be a number greater than 0 and at most 100000, got: 0.`),
		},
		"too many parameters": {
			call: `provider::hpcsku::gpu_memory_gib(100001, "bf16", "training")`,
			err:  wrapped(`Invalid value for "parameters_billion" parameter: Invalid Parameter Value: value must be a number greater than 0 and at most 100000, got: 100001.`),
		},
		"bad precision": {
			call: `provider::hpcsku::gpu_memory_gib(7, "bf17", "training")`,
			err:  wrapped(`Invalid value for "precision" parameter: Invalid Parameter Value Match: value must be one of: ["fp32" "tf32" "bf16" "fp16" "fp8" "int8" "int4"], got: "bf17".`),
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
		"null precision": {
			call: `provider::hpcsku::gpu_memory_gib(7, null, "training")`,
			err:  wrapped(`Invalid value for "precision" parameter: argument must not be null.`),
		},
	})
}

// runGPUMemoryGiB calls the function's Run directly, without Terraform.
func runGPUMemoryGiB(t *testing.T, parametersBillion float64, precision, workload string) float64 {
	t.Helper()
	ctx := context.Background()
	req := function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{
		types.Float64Value(parametersBillion), types.StringValue(precision), types.StringValue(workload),
	})}
	resp := &function.RunResponse{Result: function.NewResultData(types.Float64Unknown())}
	newGPUMemoryGiBFunction(nil).Run(ctx, req, resp)
	if resp.Error != nil {
		t.Fatalf("gpu_memory_gib(%v, %q, %q): %s", parametersBillion, precision, workload, resp.Error)
	}
	return resp.Result.Value().(types.Float64).ValueFloat64()
}
