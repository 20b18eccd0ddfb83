// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// The layout as the engines take it, on the embedded catalog: Llama 3.1 8B
// on AKS with KAITO fills the Workspace's instance type from vm_size and
// serves each copy from a Workspace of KAITO's preset; the vLLM arguments carry the
// estimate's batch per copy; a 70B pretraining job over several VMs has
// torchrun's node count.
func TestRecommendationDataSource_EngineSettings(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "kaito" {
  workload = "inference"
  model    = { name = "llama-3.1-8b" }
  target   = "kaito"
}
data "hpcsku_recommendation" "pretrain" {
  workload       = "training"
  model          = { parameters_billion = 70 }
  tokens_billion = 1400
}
locals {
  k = data.hpcsku_recommendation.kaito.recommendations[0]
  p = data.hpcsku_recommendation.pretrain.recommendations[0]
}
output "kaito_fills_workspace" {
  value = local.k.deployment.aks.kaito.instance_type == local.k.vm_size && local.k.deployment.aks.kaito.count * local.k.deployment.aks.kaito.workspaces == local.k.nodes && local.k.deployment.aks.kaito.workspaces == local.k.replicas
}
output "kaito_preset" {
  value = local.k.deployment.aks.kaito.preset_name
}
output "max_num_seqs" {
  value = contains(local.k.deployment.serving.vllm_args, "--max-num-seqs=${local.k.estimate.sequences_per_copy}")
}
output "launch_nodes" {
  value = local.p.nodes > 1 && local.p.deployment.launch.nnodes == local.p.nodes
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("kaito_fills_workspace", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("kaito_preset", knownvalue.StringExact("llama-3.1-8b-instruct")),
				statecheck.ExpectKnownOutputValue("max_num_seqs", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("launch_nodes", knownvalue.Bool(true)),
			},
		}},
	})
}
