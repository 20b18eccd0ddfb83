// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Vision training as a platform team asks for it, on the embedded catalog:
// ViT-Large in bf16 with 256 images per GPU on 115 million samples is timed
// (job hours, samples per second) on an A100 or H100 class size; ResNet-50
// without samples_million takes ImageNet-1k × 90 epochs and says so; an
// unnamed 0.3B vision model is not timed, warns, and still puts an A100 or
// H100 first.
func TestRecommendationDataSource_VisionTraining(t *testing.T) {
	t.Parallel()
	top := tfjsonpath.New("recommendations").AtSliceIndex(0)
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "vit" {
  workload            = "training"
  model               = { name = "vit-large", precision = "bf16" }
  training_batch_size = 256
  samples_million     = 115
}
data "hpcsku_recommendation" "resnet" {
  workload = "training"
  model    = { name = "resnet-50" }
}
data "hpcsku_recommendation" "unnamed" {
  workload = "training"
  model    = { parameters_billion = 0.3, precision = "bf16", class = "nongenerative" }
}
output "vit_gpu_class" {
  # The MI300X too: on the eight GPUs of the VM it pays for, its job is the cheapest.
  value = can(regex("^(a100|h100|h200)-|^mi300x", data.hpcsku_recommendation.vit.recommendations[0].sku.gpu.model_id))
}
output "unnamed_gpu_class" {
  value = can(regex("^(a100|h100|h200)-", data.hpcsku_recommendation.unnamed.recommendations[0].sku.gpu.model_id))
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("vit_gpu_class", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("unnamed_gpu_class", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.vit", tfjsonpath.New("requirements").AtMapKey("samples_million"), knownvalue.Float64Exact(115)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.vit", tfjsonpath.New("requirements").AtMapKey("training_tokens_billion"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.vit", top.AtMapKey("estimate").AtMapKey("job_hours"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.vit", top.AtMapKey("estimate").AtMapKey("samples_per_second"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.vit", top.AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.resnet", tfjsonpath.New("requirements").AtMapKey("defaults").AtMapKey("samples_million"), knownvalue.StringExact("115.3")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.unnamed", top.AtMapKey("estimate"), knownvalue.Null()),
			},
		}},
	})
}

// samples_million and model.forward_gflops where no job is timed by
// samples fail the plan, naming the attribute and the fix.
func TestRecommendationDataSource_SampleInputErrors(t *testing.T) {
	t.Parallel()
	testErrors(t, testProviderFactories(t), nil, map[string]errorCase{
		"language model": {config: `
data "hpcsku_recommendation" "x" {
  workload        = "training"
  model           = { name = "llama-3.1-8b" }
  samples_million = 10
}`, err: `(?s)Argument Not Used By The Model.*timed by\s+tokens_billion`},
		"both budgets": {config: `
data "hpcsku_recommendation" "x" {
  workload        = "training"
  model           = { name = "vit-large" }
  samples_million = 10
  tokens_billion  = 1
}`, err: `(?s)Conflicting Work.*Set the one for\s+this\s+model`},
		"out of range": {config: `
data "hpcsku_recommendation" "x" {
  workload        = "training"
  model           = { name = "vit-large", forward_gflops = 0 }
}`, err: `(?s)forward_gflops.*greater than 0`},
	})
}
