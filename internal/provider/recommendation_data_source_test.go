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
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// The tests that pin rankings, scores, prices and rejection counts run on
// the fixture catalog (fixtureProviderFactories), whose sizes and prices
// are frozen. On it, at the test clock 2026-11-22, the base rejections are
// retired 3 (H16r, NC24rs_v3, NV12s_v3), min_lifetime_months 1 (HB120rs_v2)
// and, for GPU workloads, confidential 1 (NCC40ads_H100_v5), each counted
// there unless an earlier constraint (workload, region, ...) removes it
// first. The embedded
// catalog is read end to end by TestRecommendationDataSource_SpotSKUMatchesOtherDataSources
// and TestRecommendationReadMatrix, which compare with the engine's answer
// for the same catalog instead of pinning values.

func TestRecommendationDataSource_InferenceSmallModel(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "opt" {
  workload = "inference"
  model = {
    parameters_billion = 1.3
  }
  region = "eastus"
}`,
			// 1.3B in bf16: weights 2.42 GiB + 5% workspace 0.12 + KV cache of 8 x 4,096
			// tokens at 131,072 x (1.3 / 8)^0.42 = 61,104 bytes per token (no architecture)
			// = 1.86 GiB; 4.41 GiB. Each GPU may use 90% of its memory, so the score's
			// sizing is 4.40 / (0.9 x GPU memory) against the 50%-85% band.
			//
			// Every size holds the service on one VM, so its cost is its price per hour
			// and its time component its latency against the default targets, 2,000
			// ms to the first token and 200 ms per output token, from the step model:
			// each request prefills 3,584 prompt tokens and generates 512 (the default
			// split), and each decode step reads the weights and the sequences' KV
			// cache at 72% of the bandwidth and computes 8 tokens. The T4 serves 309
			// tokens per second (261.1 ms to the first token, 25.9 ms per token); the
			// A100 80 GB 1,991; the H100 NVL 4,222. Every size meets both targets and
			// takes the full 15: a faster GPU earns nothing more. The 8-GPU sizes
			// split copies over their GPUs (ND40rs_v2: one copy over all eight
			// V100s) but the job fits in one GPU.
			ConfigStateChecks: slices.Concat(
				inferenceSmallModelRankingChecks(),
				inferenceSmallModelRequirementsChecks(),
				inferenceSmallModelRejectedChecks(),
			),
		}},
	})
}

// inferenceSmallModelRankingChecks checks the ranking of
// TestRecommendationDataSource_InferenceSmallModel: the scores, the top
// layout, the estimates and the deployment settings.
func inferenceSmallModelRankingChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.opt"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return []statecheck.StateCheck{
		// Seeds 000/001: a small job is not put on an 8-GPU ND size. The T4
		// (15 GiB usable, 0.526 USD/h, the cheapest) scores 25 + 25 + 20 x
		// (4.40 / 13.5 = 0.326) / 0.5 + 15 + 15 = 93.1, with no penalty for
		// serving bf16 weights in fp16 (the step model times it); the quarter RTX
		// PRO 6000 (24 GiB, 1.13 USD/h): 25 + 25 x 0.526 / 1.13 + 20 x (4.40 /
		// 21.6) / 0.5 + 15 + 15 = 74.8; the A100 80 GB (72 GiB, 3.673 USD/h): 25 +
		// 3.58 + 2.45 + 15 + 15 = 61.0; the H100 NVL (84.6 GiB, 6.98 USD/h): 25 +
		// 1.88 + 2.08 + 15 + 15 = 59.0; the ND40rs_v2 (8 V100s, 22.032 USD/h) 25 + 0.6 + 0.4 + 15 + 15 - 10 (unused
		// InfiniBand) - 13.1 (the job fits in one of 8 GPUs) = 33.2.
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_NC4as_T4_v3")),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList(
			"Standard_NC4as_T4_v3", "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC24ads_A100_v4",
			"Standard_NC40ads_H100_v5", "Standard_ND40rs_v2")),
		statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"rank":                   knownvalue.Int64Exact(1),
			"score":                  knownvalue.Float64Exact(93.1),
			"nodes":                  knownvalue.Int64Exact(1),
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Int64Exact(1),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
			"gpus_per_node":          knownvalue.Float64Exact(1),
			"total_gpu_memory_gib":   knownvalue.Float64Exact(16),
			"price_per_hour":         knownvalue.Float64Exact(0.526),
			"total_price_per_hour":   knownvalue.Float64Exact(0.526),
			"price_is_spot":          knownvalue.Bool(false),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("score"), knownvalue.Float64Exact(74.8)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("score"), knownvalue.Float64Exact(61)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(3).AtMapKey("score"), knownvalue.Float64Exact(59)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(4).AtMapKey("score"), knownvalue.Float64Exact(33.2)),
		// The service's estimate: 312 output tokens per second on the T4; 0.526
		// USD per hour / (312.3 x 3,600) tokens = 0.4678 USD per million. No job to
		// time, no hpc bound; four sentences (decode, prefill, capacity, idle
		// latency).
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"tokens_per_second":       knownvalue.Float64Exact(312),
			"cost_per_million_tokens": knownvalue.Float64Exact(0.4678),
			"efficiency":              knownvalue.Float64Exact(0.72),
			"job_hours":               knownvalue.Null(),
			"job_cost_usd":            knownvalue.Null(),
			"relative_throughput":     knownvalue.Null(),
			"assumptions":             knownvalue.ListSizeExact(4),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(2011)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(3).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(4256)),
		// One GPU of the 8-GPU size holds a copy and every sequence; the layout
		// search splits one copy over all eight V100s, the 8 requests decoded
		// together (each step reads an eighth of the weights on each GPU and
		// waits 2 x 24 layers x 3 x 10 us for its all-reduces: the fastest
		// layout on the VM), and the idle-GPU penalty says a one-GPU size
		// serves the job for less.
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(4).AtMapKey("tensor_parallel_size"), knownvalue.Int64Exact(8)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(4).AtMapKey("replicas"), knownvalue.Int64Exact(1)),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("network").AtMapKey("rdma"), knownvalue.Bool(false)),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("name"), knownvalue.StringExact("Standard_NC4as_T4_v3")),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("reasons").AtSliceIndex(0), knownvalue.StringExact("The NC family is preferred for inference (generative model).")),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"rdma":           knownvalue.Bool(false),
			"rdma_placement": knownvalue.Null(),
			"aks":            knownvalue.Null(),
			"cyclecloud":     knownvalue.Null(),
			"azureml":        knownvalue.Null(),
			"batch":          knownvalue.Null(),
		})),
	}
}

// inferenceSmallModelRequirementsChecks checks the requirements
// TestRecommendationDataSource_InferenceSmallModel derives: the memory, the
// serving inputs and the nulls of training.
func inferenceSmallModelRequirementsChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.opt"
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"category":            knownvalue.StringExact("gpu"),
			"gpu_memory_gib":      knownvalue.Float64Exact(4.41),
			"system_memory_gib":   knownvalue.Float64Exact(3.63), // 1.5 x 2.42
			"interconnect":        knownvalue.StringExact("any"),
			"nodes":               knownvalue.Int64Exact(1),
			"preferred_families":  stringList("NC", "ND"),
			"precision":           knownvalue.StringExact("bf16"),
			"model":               knownvalue.Null(),
			"fine_tuning_method":  knownvalue.Null(),
			"context_tokens":      knownvalue.Int64Exact(4096),
			"concurrent_requests": knownvalue.Int64Exact(8),
			"kv_cache_gib":        knownvalue.Float64Exact(1.86),
			"kv_bytes_per_token":  knownvalue.Int64Exact(61104),
			// The top size's efficiency; the service states no throughput and
			// trains nothing.
			"efficiency":              knownvalue.Float64Exact(0.72),
			"tokens_per_second":       knownvalue.Null(),
			"training_flops":          knownvalue.Null(),
			"training_tokens_billion": knownvalue.Null(),
			"token_budget":            knownvalue.Null(),
			"deadline_hours":          knownvalue.Null(),
			"hpc_bound":               knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("memory"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"gib":                 knownvalue.Float64Exact(4.41),
			"bytes_per_parameter": knownvalue.Float64Exact(2),
			"weights_gib":         knownvalue.Float64Exact(2.42),
			"gradients_gib":       knownvalue.Null(),
			"optimizer_gib":       knownvalue.Null(),
			"adapters_gib":        knownvalue.Null(),
			"activations_gib":     knownvalue.Float64Exact(0.12),
			"kv_cache_gib":        knownvalue.Float64Exact(1.86),
		})),
	}
}

// inferenceSmallModelRejectedChecks checks the rejections of
// TestRecommendationDataSource_InferenceSmallModel.
func inferenceSmallModelRejectedChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.opt"
	return []statecheck.StateCheck{
		// The CPU and HPC sizes are not inference sizes (E104i, E48, F2s, H16r and
		// the two HB); NV sizes are a fallback, listed after the others.
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"constraint": knownvalue.StringExact("workload"),
			"count":      knownvalue.Int64Exact(6),
			"examples":   stringList("Standard_E104i_v5", "Standard_E48_v5", "Standard_F2s_v2"),
		})),
		// Not priced in eastus: the confidential H100 and the MI300X (eastus2 only).
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"constraint": knownvalue.StringExact("region"),
			"count":      knownvalue.Int64Exact(2),
			"examples":   stringList("Standard_NCC40ads_H100_v5", "Standard_ND96isr_MI300X_v5"),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(2), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"constraint": knownvalue.StringExact("retired"),
			"count":      knownvalue.Int64Exact(2),
			"examples":   stringList("Standard_NC24rs_v3", "Standard_NV12s_v3"),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected"), knownvalue.ListSizeExact(3)),
	}
}

// 70B training (1059.38 GiB: 70e9 x 16 bytes = 1043.08 GiB of states,
// sharded, and one 4,096-token sequence's activations on every GPU, 70e9 x
// 0.25 bytes = 16.3 GiB) needs several VMs with InfiniBand for its deadline
// (memory alone takes one MI300X VM, 146.69 GiB a GPU): the ND
// sizes whose GPUs run bf16 (not ND40rs_v2's V100s). Without tokens_billion
// the job is the compute-optimal 20 tokens per parameter, 1,400 billion:
// 6 x 70e9 x 1,400e9 = 5.88e23 FLOPs. Each size scales out to finish within
// the 720-hour default deadline, within 100 VMs (InfiniBand): one VM does
// 8 x dense bf16 peak x MFU, so the MI300X (1,307.4 TFLOPS, 30% MFU, not in
// the NVIDIA list) 3.138e15 FLOP/s: ceil(5.88e23 / (720 x 3,600 x 3.138e15)
// = 72.3) = 73 VMs, 713.07 hours; the H100 (989.5, 40%) 3.166e15: 72 VMs,
// 716.43 hours; the A100 40 GB (312, 40%) 9.98e14 would need 228, so it
// runs on 100 for 1635.95 hours, past the default, with a warning, and ranks
// after the others. Without a region each is priced at its lowest, so the
// jobs cost 73 x 48 x 713.07 = 2,498,597.73, 72 x 98.32 x 716.43 =
// 5,071,669.19 and 100 x 27.197 x 1635.95 = 4,449,295.54 USD. The sizing
// component of a timed training layout is that of its GPUs kept busy (all
// of them: 1). The time
// component of training is min(1, deadline / hours): 1 for a layout that
// meets the 720 hours, 720 / 1635.95 = 0.440 for ND96asr_v4. The MI300X
// scores 25 + 25 + 20 + 15 + 15 / 73 = 85.2; the H100 25 + 25 x
// 2,498,597.73 / 5,071,669.19 (0.493) + 20 + 15 + 15 / 72 = 72.5;
// ND96asr_v4 25 + 25 x 2,498,597.73 / 4,449,295.54 (0.562) + 20 x 0.574 +
// 15 x 0.440 + 15 / 100 = 57.3.
func TestRecommendationDataSource_TrainingLargeModelOnAKS(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "llm" {
  workload = "training"
  model = {
    parameters_billion = 70
    precision          = "bf16"
  }
  target = "aks"
}`,
			ConfigStateChecks: slices.Concat(
				trainingOnAKSRankingChecks(),
				trainingOnAKSDeploymentChecks(),
				trainingOnAKSRequirementsChecks(),
			),
		}},
	})
}

// trainingOnAKSRankingChecks checks the ranking of
// TestRecommendationDataSource_TrainingLargeModelOnAKS: the scores, layouts,
// job estimates, the deadline warning and the precision rejection.
func trainingOnAKSRankingChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.llm"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList(
			"Standard_ND96isr_MI300X_v5", "Standard_ND96isr_H100_v5", "Standard_ND96asr_v4")),
		statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":      knownvalue.Float64Exact(85.2),
			"nodes":      knownvalue.Int64Exact(73),
			"total_gpus": knownvalue.Float64Exact(584),
			// Training: one job, no serving layout.
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Null(),
			"pipeline_parallel_size": knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("score"), knownvalue.Float64Exact(72.5)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("score"), knownvalue.Float64Exact(72.5)), // timed training sizes on busy GPUs (all 8: sizing 1)
		// 1,400e9 tokens / (713.07 x 3,600 s) = 545,373 tokens per second;
		// 2,498,597.73 USD / 1.4e6 million tokens = 1.7847 USD per million.
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":               knownvalue.Float64Exact(713.07),
			"job_cost_usd":            knownvalue.Float64Exact(2498597.73),
			"tokens_per_second":       knownvalue.Float64Exact(545373),
			"cost_per_million_tokens": knownvalue.Float64Exact(1.7847),
			"efficiency":              knownvalue.Float64Exact(0.3),
			"relative_throughput":     knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":    knownvalue.Float64Exact(716.43),
			"job_cost_usd": knownvalue.Float64Exact(5071669.19),
			"efficiency":   knownvalue.Float64Exact(0.4),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":    knownvalue.Float64Exact(1635.95),
			"job_cost_usd": knownvalue.Float64Exact(4449295.54),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("warnings"), listContains{
			knownvalue.StringRegexp(regexp.MustCompile(`^The job runs about 1635\.95 hours on 100 VMs, beyond the 720-hour default`))}),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected"), listContains{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"constraint": knownvalue.StringExact("precision"),
			"count":      knownvalue.Int64Exact(3),
			"examples":   stringList("Standard_NC24rs_v3", "Standard_NC4as_T4_v3", "Standard_ND40rs_v2"),
			"reason":     knownvalue.StringRegexp(regexp.MustCompile(`does not run bf16 natively`)),
		})}),
	}
}

// trainingOnAKSDeploymentChecks checks the deployment settings and node
// counts of TestRecommendationDataSource_TrainingLargeModelOnAKS: InfiniBand
// on a scale set and the AKS node pools of the AMD and NVIDIA sizes.
func trainingOnAKSDeploymentChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.llm"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"rdma":                   knownvalue.Bool(true),
			"rdma_placement":         knownvalue.StringExact("scale_set"),
			"single_placement_group": knownvalue.Bool(true),
			"image_urn":              knownvalue.StringExact("microsoft-dsvm:ubuntu-hpc:2404-rocm:latest"),
			"cpu_architecture":       knownvalue.StringExact("x86_64"),
		})),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment").AtMapKey("aks"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"gpu_driver":  knownvalue.StringExact("None"),
			"node_taints": stringList("sku=gpu:NoSchedule"),
			// No deprecated "accelerator" label: AKS sets kubernetes.azure.com/accelerator.
			"node_labels": knownvalue.MapExact(map[string]knownvalue.Check{
				"hpcsku.io/gpu-model": knownvalue.StringExact("mi300x"),
				"hpcsku.io/vm-size":   knownvalue.StringExact("Standard_ND96isr_MI300X_v5"),
			}),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("nodes"), knownvalue.Int64Exact(72)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(2).AtMapKey("nodes"), knownvalue.Int64Exact(100)),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("deployment").AtMapKey("aks").AtMapKey("gpu_driver"), knownvalue.StringExact("Install")),
		statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("network").AtMapKey("infiniband"), knownvalue.StringExact("NDR")),
	}
}

// trainingOnAKSRequirementsChecks checks the requirements
// TestRecommendationDataSource_TrainingLargeModelOnAKS derives: the memory of
// full training and the throughput model's work, budget and deadline.
func trainingOnAKSRequirementsChecks() []statecheck.StateCheck {
	const ds = "data.hpcsku_recommendation.llm"
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("interconnect"), knownvalue.StringExact("infiniband")),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("gpu_memory_gib"), knownvalue.Float64Exact(1059.38)),
		// 70e9 x 2 bytes of bf16 weights, 2 of gradients, 4 + 8 of fp32 master
		// weights and Adam moments (1043.08 GiB), and the activations each GPU
		// keeps of one 4,096-token sequence without the architecture, 70e9 x
		// 0.25 bytes = 16.3 GiB (was 50% of the states, 521.54).
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("memory"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"weights_gib":     knownvalue.Float64Exact(130.39),
			"gradients_gib":   knownvalue.Float64Exact(130.39),
			"optimizer_gib":   knownvalue.Float64Exact(782.31),
			"adapters_gib":    knownvalue.Null(),
			"activations_gib": knownvalue.Float64Exact(16.3),
			"kv_cache_gib":    knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"precision":           knownvalue.StringExact("bf16"),
			"fine_tuning_method":  knownvalue.Null(),
			"context_tokens":      knownvalue.Int64Exact(4096), // full training sizes its activations from the context
			"concurrent_requests": knownvalue.Null(),
			"kv_cache_gib":        knownvalue.Null(),
			"kv_bytes_per_token":  knownvalue.Null(),
			// The throughput model's work and the default budget and deadline.
			"training_flops":          knownvalue.Float64Exact(5.88e23),
			"training_tokens_billion": knownvalue.Float64Exact(1400),
			"token_budget":            knownvalue.StringExact("20 tokens per parameter, compute-optimal (Hoffmann et al. 2022); set tokens_billion for the real budget"),
			"deadline_hours":          knownvalue.Float64Exact(720),
			"efficiency":              knownvalue.Float64Exact(0.3),
			"tokens_per_second":       knownvalue.Null(),
			"hpc_bound":               knownvalue.Null(),
			"nodes":                   knownvalue.Int64Exact(73),
		})),
	}
}

// A model of the catalog's model table by name, with the workload's own
// inputs. Llama 3.1 8B (8.03B, bf16, 32 layers, 8 KV heads of 128, 32
// attention heads) serving 32 sequences of 8,192 tokens: weights 8.03e9 x 2
// bytes = 14.96 GiB, workspace 5% = 0.75, KV cache 2 x 32 x 8 x 128 x 2 =
// 131,072 bytes per token x 8,192 x 32 = 32 GiB; 47.7 GiB. Each GPU may use
// 90% of its memory; a copy needs 15.71 GiB plus 1 GiB per sequence.
func TestRecommendationDataSource_NamedModel(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
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
data "hpcsku_recommendation" "busy" {
  workload            = "inference"
  model               = { name = "LLAMA-3.1-8B" }
  context_tokens      = 8192
  concurrent_requests = 256
  gpu_models          = ["a100-pcie-80gb"]
}
`,
			ConfigStateChecks: slices.Concat(
				namedModelServeRequirementsChecks(),
				namedModelServeRankingChecks(),
				namedModelServeEstimateChecks(),
				namedModelQLoRARequirementsChecks(),
				namedModelQLoRARankingChecks(),
				namedModelBusyChecks(),
			),
		}},
	})
}

// namedModelServeRequirementsChecks checks the requirements of the Llama 3.1
// 8B service of TestRecommendationDataSource_NamedModel: the model's memory
// and KV cache.
func namedModelServeRequirementsChecks() []statecheck.StateCheck {
	const serve = "data.hpcsku_recommendation.serve"
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"model":               knownvalue.StringExact("llama-3.1-8b"),
			"precision":           knownvalue.StringExact("bf16"),
			"fine_tuning_method":  knownvalue.Null(),
			"context_tokens":      knownvalue.Int64Exact(8192),
			"concurrent_requests": knownvalue.Int64Exact(32),
			"kv_cache_gib":        knownvalue.Float64Exact(32),
			"kv_bytes_per_token":  knownvalue.Int64Exact(131072),
			"gpu_memory_gib":      knownvalue.Float64Exact(47.7),
			"system_memory_gib":   knownvalue.Float64Exact(22.44), // 1.5 x 14.96
		})),
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("requirements").AtMapKey("memory"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"gib":             knownvalue.Float64Exact(47.7),
			"weights_gib":     knownvalue.Float64Exact(14.96),
			"activations_gib": knownvalue.Float64Exact(0.75),
			"kv_cache_gib":    knownvalue.Float64Exact(32),
			"gradients_gib":   knownvalue.Null(),
			"optimizer_gib":   knownvalue.Null(),
			"adapters_gib":    knownvalue.Null(),
		})),
	}
}

// namedModelServeRankingChecks checks the ranking of the Llama 3.1 8B service
// of TestRecommendationDataSource_NamedModel: scores and serving layouts.
func namedModelServeRankingChecks() []statecheck.StateCheck {
	const serve = "data.hpcsku_recommendation.serve"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// Without a region each size is priced at its lowest. A service is
		// compared on the price of its layout and on its latency against the
		// default targets (2,000 ms to the first token, 200 ms per output token),
		// from the step model: each request prefills 7,168 prompt tokens and
		// generates 1,024 (the default split of the stated context), and each
		// decode step reads the weights (14.96 GiB) and the sequences' KV cache
		// at 72% of the copy's bandwidth and computes the batch's tokens at 30%
		// of its peak; a prefill runs at 86%.
		//
		// The A100 80 GB (72 GiB usable, 3.673 USD/h, the cheapest) holds a copy and
		// every sequence (47.71 / 72 = 0.66, in the sizing band): 566 tokens per
		// second, the first token after 556.7 ms and one every 57.6 ms, within
		// both targets: 25 + 25 + 20 + 15 + 15 = 100. The H100 NVL (84.6 GiB,
		// 6.98 USD/h: 1,262, faster, but a faster layout earns nothing beyond
		// the targets): 25 + 25 x 3.673 / 6.98 + 20 + 15 + 15 = 88.2. The
		// quarter RTX PRO 6000 (21.6 GiB) holds a copy and floor((21.6 - 15.71)
		// / 1) = 5 sequences: 7 copies on 7 VMs (55.37 USD/h), at 94% of their
		// memory: 67.8. ND40rs_v2 (8 V100s, one copy over all 8, 1,589 tokens
		// per second, unused InfiniBand): 57.5. ND96asr_v4 splits copies over
		// its NVLinked A100s 40 GB (a copy does not fit one): one copy of 8
		// GPUs, 2,896 tokens per second (two copies of 4 serve fewer, their
		// steps reading twice the weights per GPU): 55.
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("vm_sizes"), stringList(
			"Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5", "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_ND40rs_v2", "Standard_ND96asr_v4")),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":                  knownvalue.Float64Exact(100),
			"nodes":                  knownvalue.Int64Exact(1),
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Int64Exact(1),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(1).AtMapKey("score"), knownvalue.Float64Exact(88.2)),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(2), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":    knownvalue.Float64Exact(67.8),
			"nodes":    knownvalue.Int64Exact(7),
			"replicas": knownvalue.Int64Exact(7),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(3), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":                  knownvalue.Float64Exact(57.5),
			"nodes":                  knownvalue.Int64Exact(1),
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Int64Exact(8),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
			"total_price_per_hour":   knownvalue.Float64Exact(22.032),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(4), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":                  knownvalue.Float64Exact(55),
			"nodes":                  knownvalue.Int64Exact(1),
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Int64Exact(8),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
		})),
	}
}

// namedModelServeEstimateChecks checks the estimates of the Llama 3.1 8B
// service of TestRecommendationDataSource_NamedModel: throughput, latency and
// the token split.
func namedModelServeEstimateChecks() []statecheck.StateCheck {
	const serve = "data.hpcsku_recommendation.serve"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// The service's estimates (idle: no load is stated): 566 output tokens
		// per second on the A100, 3.673 USD per hour / (566.4 x 3,600) = 1.8012
		// USD per million; ND40rs_v2's copy over its 8 V100s, 1,617.
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"tokens_per_second":       knownvalue.Float64Exact(566),
			"cost_per_million_tokens": knownvalue.Float64Exact(1.8012),
			"efficiency":              knownvalue.Float64Exact(0.72),
			"sequences_per_copy":      knownvalue.Int64Exact(32),
			"concurrent_requests":     knownvalue.Int64Exact(32),
			"job_hours":               knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(1).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(1262)),
		// On the H100 NVL a prefill takes 178.96 ms and a decode step of 32
		// sequences 19.76 ms: the first token after 198.7 ms and the server's
		// own 30 ms (FirstTokenSeconds), 228.7 ms, then one every
		// 25.96 s / 1,024 = 25.3 ms; 1,262.4 / 1,024 = 1.2328 requests a second.
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(1).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"time_to_first_token_ms":   knownvalue.Float64Exact(228.7),
			"time_per_output_token_ms": knownvalue.Float64Exact(25.3),
			"requests_per_second":      knownvalue.Float64Exact(1.2328),
		})),
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"prompt_tokens": knownvalue.Int64Exact(7168),
			"output_tokens": knownvalue.Int64Exact(1024),
			"token_split":   knownvalue.StringRegexp(regexp.MustCompile(`^7,168 prompt and 1,024 output tokens per request: the default split of the 8,192-token context, one output token in eight`)),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(3).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(1617)),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(4).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(2933)),
	}
}

// namedModelQLoRARequirementsChecks checks the requirements of the QLoRA
// fine-tuning of Llama 3.1 70B in TestRecommendationDataSource_NamedModel;
// its comment works out the figures namedModelQLoRARankingChecks checks too.
func namedModelQLoRARequirementsChecks() []statecheck.StateCheck {
	const qlora = "data.hpcsku_recommendation.qlora"
	return []statecheck.StateCheck{
		// QLoRA of Llama 3.1 70B: embeddings and output layer (2 x 128,256 x 8,192)
		// at 2 bytes and the rest at 4.127 bits = 36.8 GiB, adapters 1% x 70.55e9 x
		// 12 bytes = 7.88, activations of one 4,096-token sequence 4,096 x (80 x
		// 8,192 x 2 + 8,192 x 34 + 128,256 x 4) bytes = 8.02; 52.7 GiB.
		//
		// Its work, on the default 0.1 billion tokens: (4 x 70.55e9 + 4 x 80 layers
		// x 4,096 tokens x 8,192 attention width) = 2.929e11 FLOPs per token,
		// 2.929e19 in all, at 40% MFU on the NVIDIA data-center GPUs (30% on the
		// MI300X) of the dense bf16/fp16 peak. A job on one VM without a gpus
		// setting that fits one GPU and finishes within the 720-hour default on
		// one uses one (without the PCIe factor): the H100 NVL (835.5 TFLOPS)
		// 24.35 hours, 169.95 USD, the cheapest; the A100 80 GB (312) 65.2 hours,
		// 239.49 USD; on the 8-GPU sizes one H100 (989.5) takes 20.56 hours (98.32
		// USD/h: 2,021.34 USD) and one MI300X 20.75. 52.7 GiB does not fit one
		// A100 40 GB or V100 32 GB: ND96asr_v4 uses its 8 GPUs, 8.15 hours (the
		// fastest), 221.66 USD; ND40rs_v2 8 V100s at 125 fp16 TFLOPS, 20.34 hours.
		// With NC acceptable (12.5) and ND preferred (25) for fine-tuning. Each
		// finishes well within the 720-hour default, and the time component of
		// training is min(1, deadline / hours): 1 for all three, so speed within
		// the deadline counts for nothing. The H100 NVL (52.7 / 94 = 0.56, in the
		// band) 12.5 + 25 + 20 + 15 + 15 = 87.5; the A100 80 GB (52.7 / 80 =
		// 0.66) 12.5 + 25 x 169.95 / 239.49 (0.71) + 20 + 15 + 15 = 80.2;
		// ND96asr_v4 (each GPU keeps the 5 GiB of checkpointed activations, 80 x
		// 4,096 x 8,192 x 2 bytes, and an eighth of the rest: 87.7 GiB of 320,
		// 0.27, below the band: 0.55) 25 + 25 x 169.95 / 221.66 (0.77) + 20 x
		// 0.55 + 15 + 15 - 10 (unused InfiniBand) = 75.1. So ND96asr_v4 ranks
		// after the A100 80 GB although its job is both faster (8.15 against
		// 65.2 hours) and cheaper (221.66 against 239.49 USD).
		statecheck.ExpectKnownValue(qlora, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"model":               knownvalue.StringExact("llama-3.1-70b"),
			"fine_tuning_method":  knownvalue.StringExact("qlora"),
			"context_tokens":      knownvalue.Int64Exact(4096),
			"concurrent_requests": knownvalue.Null(),
			"kv_cache_gib":        knownvalue.Null(),
			"kv_bytes_per_token":  knownvalue.Null(),
			"gpu_memory_gib":      knownvalue.Float64Exact(52.7),
		})),
		statecheck.ExpectKnownValue(qlora, tfjsonpath.New("requirements").AtMapKey("memory"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"gib":             knownvalue.Float64Exact(52.7),
			"weights_gib":     knownvalue.Float64Exact(36.8),
			"adapters_gib":    knownvalue.Float64Exact(7.88),
			"activations_gib": knownvalue.Float64Exact(8.02),
			"gradients_gib":   knownvalue.Null(),
			"optimizer_gib":   knownvalue.Null(),
			"kv_cache_gib":    knownvalue.Null(),
		})),
	}
}

// namedModelQLoRARankingChecks checks the ranking and job estimates of the
// QLoRA fine-tuning of Llama 3.1 70B in
// TestRecommendationDataSource_NamedModel (worked out in
// namedModelQLoRARequirementsChecks).
func namedModelQLoRARankingChecks() []statecheck.StateCheck {
	const qlora = "data.hpcsku_recommendation.qlora"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":                knownvalue.StringExact("Standard_NC40ads_H100_v5"),
			"score":                  knownvalue.Float64Exact(80.8),
			"nodes":                  knownvalue.Int64Exact(1),
			"total_gpus":             knownvalue.Float64Exact(1),
			"replicas":               knownvalue.Int64Exact(1),
			"tensor_parallel_size":   knownvalue.Null(),
			"pipeline_parallel_size": knownvalue.Null(),
		})),
		// A timed training job sizes on the GPUs it keeps busy and trains on
		// every GPU of its VM: the eight MI300X of ND96isr_MI300X_v5 (2.59
		// hours, 124.48 USD) set the cheapest job. The H100 NVL 12.5 + 25 x
		// 124.48 / 169.95 (18.31) + 20 + 15 + 15 = 80.8; ND96asr_v4 (sizing
		// 1) 25 + 25 x 124.48 / 221.66 (14.04) + 20 + 15 + 15 - 10 (unused
		// InfiniBand) = 79.0; the MI300X VM, whose one GPU would finish the
		// job in time, pays the idle-GPU penalty (13.1) and 10 for unused
		// InfiniBand: 76.9.
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":    knownvalue.StringExact("Standard_ND96asr_v4"),
			"score":      knownvalue.Float64Exact(79),
			"total_gpus": knownvalue.Float64Exact(8),
		})),
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(2), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":    knownvalue.StringExact("Standard_ND96isr_MI300X_v5"),
			"score":      knownvalue.Float64Exact(76.9),
			"total_gpus": knownvalue.Float64Exact(8),
		})),
		// 0.1e9 tokens / (24.35 x 3,600 s) = 1,141 tokens per second; 169.95 USD
		// / 100 million tokens = 1.6995 USD per million.
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":               knownvalue.Float64Exact(24.35),
			"job_cost_usd":            knownvalue.Float64Exact(169.95),
			"tokens_per_second":       knownvalue.Float64Exact(1141),
			"cost_per_million_tokens": knownvalue.Float64Exact(1.6995),
			"efficiency":              knownvalue.Float64Exact(0.4),
		})),
		// ND96isr_MI300X_v5: 2.929e19 / (8 x 1,307.4e12 x 0.30) = 9,334 s,
		// 2.59 hours, x 48 USD/h = 124.48 USD; ND96asr_v4: 2.929e19 / (8 x
		// 312e12 x 0.40) = 29,341 s, 8.15 hours, x 27.197 = 221.66 USD.
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(2).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":    knownvalue.Float64Exact(2.59),
			"job_cost_usd": knownvalue.Float64Exact(124.48),
			"efficiency":   knownvalue.Float64Exact(0.3),
		})),
		statecheck.ExpectKnownValue(qlora, recs.AtSliceIndex(1).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":    knownvalue.Float64Exact(8.15),
			"job_cost_usd": knownvalue.Float64Exact(221.66),
			"efficiency":   knownvalue.Float64Exact(0.4),
		})),
		statecheck.ExpectKnownValue(qlora, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"training_flops":          knownvalue.Float64Exact(2.9293741824e19),
			"training_tokens_billion": knownvalue.Float64Exact(0.1),
			"token_budget":            knownvalue.StringExact("0.1 billion tokens, a typical fine-tuning set (a judgement); set tokens_billion for the real budget"),
			"deadline_hours":          knownvalue.Float64Exact(720),
		})),
	}
}

// namedModelBusyChecks checks the Llama 3.1 8B service of 256 sequences in
// TestRecommendationDataSource_NamedModel: copies on several VMs.
func namedModelBusyChecks() []statecheck.StateCheck {
	const busy = "data.hpcsku_recommendation.busy"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// 256 sequences: 256 GiB of KV cache. One A100 80 GB holds a copy and
		// floor((72 - 15.71) / 1) = 56 sequences, so ceil(256 / 56) = 5 copies on
		// 5 VMs, none spanning VMs (no InfiniBand needed): 5 x 3.673 USD/h.
		// 15.7 + 256 = 271.7 GiB in all.
		statecheck.ExpectKnownValue(busy, tfjsonpath.New("requirements").AtMapKey("gpu_memory_gib"), knownvalue.Float64Exact(271.7)),
		statecheck.ExpectKnownValue(busy, tfjsonpath.New("requirements").AtMapKey("kv_cache_gib"), knownvalue.Float64Exact(256)),
		statecheck.ExpectKnownValue(busy, tfjsonpath.New("requirements").AtMapKey("interconnect"), knownvalue.StringExact("any")),
		statecheck.ExpectKnownValue(busy, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":                knownvalue.StringExact("Standard_NC24ads_A100_v4"),
			"nodes":                  knownvalue.Int64Exact(5),
			"replicas":               knownvalue.Int64Exact(5),
			"tensor_parallel_size":   knownvalue.Int64Exact(1),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
			"total_gpus":             knownvalue.Float64Exact(5),
			"total_price_per_hour":   knownvalue.Float64Exact(18.365),
		})),
		statecheck.ExpectKnownValue(busy, recs.AtSliceIndex(0).AtMapKey("deployment").AtMapKey("rdma"), knownvalue.Bool(false)),
		// Each copy serves ceil(256 / 5) = 52 sequences: a step reads 14.96 +
		// 52 x 0.9375 = 63.71 GiB at 0.72 x 1,935 GB/s, 49.1 ms, and computes
		// 52 tokens in 11.2 ms; with 52 prefills of 7,168 prompt tokens (479.3
		// ms each at 86% of 312 TFLOPS) per 1,024 steps, 615 tokens per second
		// a copy, 3,073 for the service. The only size: 25 + 25 + 20 x
		// band(334.55 / 360 = 0.93) 0.74 + 15 + 15 / 5 = 82.7.
		statecheck.ExpectKnownValue(busy, recs.AtSliceIndex(0).AtMapKey("score"), knownvalue.Float64Exact(82.7)),
		statecheck.ExpectKnownValue(busy, recs.AtSliceIndex(0).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(3073)),
	}
}

// The throughput model's inputs: a pretraining job by tokens_billion and
// deadline_hours, a service by tokens_per_second, an MPI job by hpc_bound.
func TestRecommendationDataSource_Throughput(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "pretrain" {
  workload       = "training"
  model          = { parameters_billion = 7 }
  tokens_billion = 300
  deadline_hours = 30
}
data "hpcsku_recommendation" "serve" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 512
  concurrent_requests = 512
  tokens_per_second   = 20000
  gpu_models          = ["a100-pcie-80gb", "h100-nvl-94gb"]
}
data "hpcsku_recommendation" "plain" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 512
  concurrent_requests = 4096
  gpu_models          = ["a100-pcie-80gb", "h100-nvl-94gb"]
}
data "hpcsku_recommendation" "cfd" {
  workload            = "hpc"
  cores               = 2000
  region              = "eastus"
  hpc_bound           = "memory_capacity"
  min_lifetime_months = 0
}
`,
			ConfigStateChecks: slices.Concat(
				throughputPretrainingChecks(),
				throughputConcurrentRequestsChecks(),
				throughputTokensPerSecondChecks(),
				throughputMemoryCapacityChecks(),
			),
		}},
	})
}

// throughputPretrainingChecks checks the pretraining job of
// TestRecommendationDataSource_Throughput, set by tokens_billion and
// deadline_hours.
func throughputPretrainingChecks() []statecheck.StateCheck {
	const pretrain = "data.hpcsku_recommendation.pretrain"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// Pretraining 7B on 300 billion tokens: 6 x 7e9 x 300e9 = 1.26e22 FLOPs;
		// 156.46 GiB of states, on one VM of each 8-GPU ND size (it fits one MI300X
		// GPU, but one GPU would take 1.26e22 / (1,307.4e12 x 0.30) = 8,924 hours,
		// past the deadline, so the job uses all eight). A VM does 8 x dense bf16
		// peak x MFU: the MI300X 8 x 1,307.4e12 x 0.30 = 3.138e15 FLOP/s, so
		// ceil(1.26e22 / (30 x 3,600 x 3.138e15) = 37.2) = 38 VMs, 1.26e22 / (38 x
		// 3.138e15) = 105,671 s = 29.35 hours, 38 x 48 USD/h (eastus2, its only
		// price) x 29.35 = 53,541.38 USD; the H100 8 x 989.5e12 x 0.40 = 3.166e15:
		// 37 VMs, 29.87 hours, 37 x 98.32 x 29.87 = 108,678.63 USD. The A100 40 GB
		// (9.98e14 a VM) would need 117 VMs, more than the 100 one job may span
		// with InfiniBand (on 100 it takes 35.06 hours): removed by deadline.
		// Scores: the time component of training is min(1, deadline / hours), 1
		// for both (30 / 29.35 and 30 / 29.87 are above 1). The MI300X (sizing on
		// the memory layout, 156.46 / 1,536 GiB = 0.10: 0.20) 25 + 25 + 20 x 0.20
		// + 15 + 15 / 38 = 69.5; the H100 (156.46 / 637.2 = 0.25: 0.49) 25 + 25 x
		// 53,541.38 / 108,678.63 (0.493) + 20 x 0.49 + 15 + 15 / 37 = 62.5.
		statecheck.ExpectKnownValue(pretrain, tfjsonpath.New("vm_sizes"), stringList("Standard_ND96isr_MI300X_v5", "Standard_ND96isr_H100_v5")),
		statecheck.ExpectKnownValue(pretrain, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":                knownvalue.Float64Exact(85.4), // sizing 1: the deadline's VMs all compute
			"nodes":                knownvalue.Int64Exact(38),
			"total_gpus":           knownvalue.Float64Exact(304),
			"total_price_per_hour": knownvalue.Float64Exact(1824),
		})),
		// 300e9 tokens / 105,671 s = 2,838,926 tokens per second; 53,541.38 USD /
		// 300,000 million tokens = 0.1785 USD per million.
		statecheck.ExpectKnownValue(pretrain, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"job_hours":                knownvalue.Float64Exact(29.35),
			"job_cost_usd":             knownvalue.Float64Exact(53541.38),
			"tokens_per_second":        knownvalue.Float64Exact(2838926),
			"cost_per_million_tokens":  knownvalue.Float64Exact(0.1785),
			"samples_per_second":       knownvalue.Null(),
			"relative_throughput":      knownvalue.Null(),
			"time_to_first_token_ms":   knownvalue.Null(),
			"time_per_output_token_ms": knownvalue.Null(),
			"requests_per_second":      knownvalue.Null(),
			"sequences_per_copy":       knownvalue.Null(),
			"concurrent_requests":      knownvalue.Null(),
			"license_cost_usd":         knownvalue.Null(),
			"license_cost_per_hour":    knownvalue.Null(),
			"efficiency":               knownvalue.Float64Exact(0.3),
			"assumptions": knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("Training FLOPs: (6 × 7B active parameters) per token × 300 billion tokens = 1.260e+22 FLOPs."),
				knownvalue.StringExact("Rate: 38 VMs × 8 GPUs × 1307.4 dense TFLOPS (bf16) × 30% MFU = 1.192e+17 FLOP/s."),
				knownvalue.StringExact("MFU: 30% for the AMD Instinct MI300X."),
				knownvalue.StringExact("Time: FLOPs ÷ rate = 29.35 hours; cost: hours × 1824.00 USD per hour for all VMs."),
			}),
		})),
		statecheck.ExpectKnownValue(pretrain, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score": knownvalue.Float64Exact(72.7), // sizing 1: the deadline's VMs all compute
			"nodes": knownvalue.Int64Exact(37),
		})),
		statecheck.ExpectKnownValue(pretrain, recs.AtSliceIndex(1).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"job_hours":    knownvalue.Float64Exact(29.87),
			"job_cost_usd": knownvalue.Float64Exact(108678.63),
			"efficiency":   knownvalue.Float64Exact(0.4),
		})),
		statecheck.ExpectKnownValue(pretrain, tfjsonpath.New("rejected"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"constraint": knownvalue.StringExact("deadline"),
			"count":      knownvalue.Int64Exact(1),
			"examples":   stringList("Standard_ND96asr_v4"),
		})}),
		statecheck.ExpectKnownValue(pretrain, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"training_flops":          knownvalue.Float64Exact(1.26e22),
			"training_tokens_billion": knownvalue.Float64Exact(300),
			"token_budget":            knownvalue.StringExact("tokens_billion"),
			"deadline_hours":          knownvalue.Float64Exact(30),
			"efficiency":              knownvalue.Float64Exact(0.3),
			"nodes":                   knownvalue.Int64Exact(38),
			"interconnect":            knownvalue.StringExact("infiniband"),
			"tokens_per_second":       knownvalue.Null(),
			"hpc_bound":               knownvalue.Null(),
		})),
	}
}

// throughputConcurrentRequestsChecks checks the service of
// TestRecommendationDataSource_Throughput sized by its concurrent requests
// alone.
func throughputConcurrentRequestsChecks() []statecheck.StateCheck {
	const plain = "data.hpcsku_recommendation.plain"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// Llama 3.1 8B serving sequences of 512 tokens, each request 448 prompt
		// and 64 output tokens (the default split): 131,072 bytes of KV cache per
		// token, 0.0625 GiB a sequence; a copy is 15.71 GiB of weights (14.96) and
		// workspace. A copy decodes at most 256 sequences together on an A100
		// and 1,024 on an H100 NVL (vLLM's max_num_seqs by GPU memory). Short
		// outputs make the prefills weigh: 256 prefills of 448 tokens per 64
		// decode steps. On one A100 (1,935 GB/s at 72%, 312 TFLOPS at 30% for
		// decode, 86% for prefill) a step of 256 takes 23.09 ms reading and
		// 44.61 ms computing, a prefill 27.01 ms: 1,457 tokens per second a
		// copy; on an H100 NVL a step of 1,024 takes 28.66 + 66.64 ms, a
		// prefill 10.08 ms.
		//
		// Without a load the copies are those the 4,096 concurrent sequences
		// need: 16 A100 copies, one a VM, 23,306 tokens per second (58.768
		// USD/h), a token every 175.7 ms. Four H100 NVL copies would hold
		// them (1,024 each) but emit a token more slowly than the default
		// 200 ms (the service states concurrent_requests: an interactive
		// one), so the layout takes the fewest copies that meet it, as a
		// stated max_time_per_output_token_ms = 200 would: 6 copies of 683
		// sequences, 173.1 ms, 23,672 tokens per second for 41.88 USD/h. It
		// ranks first, cheaper for more.
		statecheck.ExpectKnownValue(plain, tfjsonpath.New("vm_sizes"), stringList("Standard_NC40ads_H100_v5", "Standard_NC24ads_A100_v4")),
		statecheck.ExpectKnownValue(plain, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":  knownvalue.StringExact("Standard_NC40ads_H100_v5"),
			"score":    knownvalue.Float64Exact(87.5),
			"replicas": knownvalue.Int64Exact(6),
			"nodes":    knownvalue.Int64Exact(6),
		})),
		statecheck.ExpectKnownValue(plain, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"tokens_per_second":        knownvalue.Float64Exact(23672),
			"time_per_output_token_ms": knownvalue.Float64Exact(173.1),
			"sequences_per_copy":       knownvalue.Int64Exact(683),
			"concurrent_requests":      knownvalue.Int64Exact(4096),
		})),
		statecheck.ExpectKnownValue(plain, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"vm_size":  knownvalue.StringExact("Standard_NC24ads_A100_v4"),
			"score":    knownvalue.Float64Exact(76.4),
			"replicas": knownvalue.Int64Exact(16),
			"nodes":    knownvalue.Int64Exact(16),
		})),
		statecheck.ExpectKnownValue(plain, recs.AtSliceIndex(1).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(23306)),
		statecheck.ExpectKnownValue(plain, tfjsonpath.New("requirements").AtMapKey("tokens_per_second"), knownvalue.Null()),
	}
}

// throughputTokensPerSecondChecks checks the service of
// TestRecommendationDataSource_Throughput sized by tokens_per_second.
func throughputTokensPerSecondChecks() []statecheck.StateCheck {
	const serve = "data.hpcsku_recommendation.serve"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// 20,000 output tokens per second (312.5 requests of 64 tokens), with
		// the 512 stated conversations a floor on the KV cache held. Each copy
		// runs the largest batch its KV cache holds (no target stated, and the
		// default ones are met): 792 sequences on an H100 NVL copy, 3,963
		// tokens per second; 256 on an A100, 1,457. At no more than 90% of
		// their capacity the load takes ceil(20,000 / (0.9 x 3,963)) = 6 H100
		// NVL copies (23,780 tokens per second, 6 x 6.98 = 41.88 USD/h) or 16
		// A100 copies (23,306, 58.768 USD/h), one a VM. At the load an H100 NVL
		// copy decodes its share of the load (Little's law): a token every 31.9
		// ms, the first after 70.5 ms with the wait for a copy and the server's
		// own 30 ms. The H100 NVL, cheaper for more: 87.5; the A100: 78.8 (below
		// the memory band at the load, neither loses sizing points).
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("vm_sizes"), stringList("Standard_NC40ads_H100_v5", "Standard_NC24ads_A100_v4")),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":                  knownvalue.Float64Exact(87.5),
			"nodes":                  knownvalue.Int64Exact(6),
			"replicas":               knownvalue.Int64Exact(6),
			"tensor_parallel_size":   knownvalue.Int64Exact(1),
			"pipeline_parallel_size": knownvalue.Int64Exact(1),
			"total_price_per_hour":   knownvalue.Float64Exact(41.88),
		})),
		// 41.88 USD per hour / (23,780 x 3,600) tokens = 0.4892 USD per million
		// of capacity; the estimate prices the load's tokens: 41.88 / (20,000 x
		// 3,600) x 1e6 = 0.5817.
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"tokens_per_second":        knownvalue.Float64Exact(23780),
			"cost_per_million_tokens":  knownvalue.Float64Exact(0.5817),
			"time_to_first_token_ms":   knownvalue.Float64Exact(70.5),
			"time_per_output_token_ms": knownvalue.Float64Exact(31.9),
			"sequences_per_copy":       knownvalue.Int64Exact(792),
			"concurrent_requests":      knownvalue.Int64Exact(651),
			"efficiency":               knownvalue.Float64Exact(0.72),
			"job_hours":                knownvalue.Null(),
			"job_cost_usd":             knownvalue.Null(),
			"relative_throughput":      knownvalue.Null(),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score":    knownvalue.Float64Exact(78.8),
			"nodes":    knownvalue.Int64Exact(16),
			"replicas": knownvalue.Int64Exact(16),
		})),
		statecheck.ExpectKnownValue(serve, recs.AtSliceIndex(1).AtMapKey("estimate").AtMapKey("tokens_per_second"), knownvalue.Float64Exact(23306)),
		statecheck.ExpectKnownValue(serve, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"tokens_per_second":   knownvalue.Float64Exact(20000),
			"requests_per_second": knownvalue.Null(),
			"concurrent_requests": knownvalue.Int64Exact(512),
			"nodes":               knownvalue.Int64Exact(6),
			"efficiency":          knownvalue.Float64Exact(0.72),
			"training_flops":      knownvalue.Null(),
			"deadline_hours":      knownvalue.Null(),
		})),
	}
}

// throughputMemoryCapacityChecks checks the MPI job of
// TestRecommendationDataSource_Throughput bound by memory capacity
// (hpc_bound).
func throughputMemoryCapacityChecks() []statecheck.StateCheck {
	const cfd = "data.hpcsku_recommendation.cfd"
	recs := tfjsonpath.New("recommendations")
	return []statecheck.StateCheck{
		// Bound by memory capacity: memory does not add up across VMs; the job
		// runs once it fits, and the fewest VMs that hold it win. 17 VMs (ceil(2,000
		// / 120)) of HB120rs_v3 or HB120rs_v2 hold it: 1 / 17 each, relative
		// throughput 1, both at 61.2 USD/h. HB120rs_v3: 25 + 25 + 20 x (2,000 /
		// 2,040 = 0.98) + 15 + 15 / 17 = 85.5; HB120rs_v2, retiring on 2027-05-31,
		// within the 24-month warning horizon (-5; min_lifetime_months = 0 keeps
		// it): 25 + 25 + 19.61 + 15 + 0.88 - 5 = 80.5.
		statecheck.ExpectKnownValue(cfd, tfjsonpath.New("vm_sizes"), stringList("Standard_HB120rs_v3", "Standard_HB120rs_v2")),
		statecheck.ExpectKnownValue(cfd, recs.AtSliceIndex(0).AtMapKey("score"), knownvalue.Float64Exact(85.5)),
		statecheck.ExpectKnownValue(cfd, recs.AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectExact(map[string]knownvalue.Check{
			"job_hours":                knownvalue.Null(),
			"job_cost_usd":             knownvalue.Null(),
			"tokens_per_second":        knownvalue.Null(),
			"cost_per_million_tokens":  knownvalue.Null(),
			"samples_per_second":       knownvalue.Null(),
			"relative_throughput":      knownvalue.Float64Exact(1),
			"time_to_first_token_ms":   knownvalue.Null(),
			"time_per_output_token_ms": knownvalue.Null(),
			"requests_per_second":      knownvalue.Null(),
			"sequences_per_copy":       knownvalue.Null(),
			"concurrent_requests":      knownvalue.Null(),
			"license_cost_usd":         knownvalue.Null(),
			"license_cost_per_hour":    knownvalue.Null(),
			"efficiency":               knownvalue.Float64Exact(1),
			"assumptions":              stringList("Bound: memory_capacity (hpc_bound); the job's memory fits on 17 VMs, and the fewest VMs that hold it win: 1 / 17 = 0.0588, relative to the best layout of the request."),
		})),
		statecheck.ExpectKnownValue(cfd, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"score": knownvalue.Float64Exact(80.5),
			"nodes": knownvalue.Int64Exact(17),
		})),
		statecheck.ExpectKnownValue(cfd, recs.AtSliceIndex(1).AtMapKey("estimate").AtMapKey("relative_throughput"), knownvalue.Float64Exact(1)),
		statecheck.ExpectKnownValue(cfd, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"hpc_bound":         knownvalue.StringExact("memory_capacity"),
			"efficiency":        knownvalue.Float64Exact(1),
			"training_flops":    knownvalue.Null(),
			"tokens_per_second": knownvalue.Null(),
			"deadline_hours":    knownvalue.Null(),
		})),
	}
}

// hpcAndTargetsConfig is the configuration of
// TestRecommendationDataSource_HPCAndTargets: an MPI job by cores, a training
// job on AKS with AMD GPUs, fine-tuning on CycleCloud, a small model on CPU
// sizes and a preferred size.
const hpcAndTargetsConfig = `
data "hpcsku_recommendation" "cfd" {
  workload = "hpc"
  cores    = 2000
  region   = "eastus"
}
data "hpcsku_recommendation" "amd_aks" {
  workload   = "training"
  model      = { parameters_billion = 7 }
  target     = "aks"
  gpu_vendor = "amd"
}
data "hpcsku_recommendation" "slurm" {
  workload = "fine_tuning"
  model    = { parameters_billion = 7 }
  target   = "cyclecloud"
  region   = "eastus"
}
data "hpcsku_recommendation" "small" {
  workload = "training"
  model = {
    parameters_billion = 0.1
    class              = "small"
  }
}
data "hpcsku_recommendation" "keep" {
  workload = "inference"
  model    = { parameters_billion = 1.3 }
  region   = "eastus"
  prefer   = ["Standard_NC24ads_A100_v4"]
}
`

func TestRecommendationDataSource_HPCAndTargets(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: hpcAndTargetsConfig,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("recommendations").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size":              knownvalue.StringExact("Standard_HB120rs_v3"),
					"nodes":                knownvalue.Int64Exact(17), // ceil(2000 / 120)
					"price_per_hour":       knownvalue.Float64Exact(3.6),
					"total_price_per_hour": knownvalue.Float64Exact(61.2),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment").AtMapKey("rdma"), knownvalue.Bool(true)),
				// hpc is bound by memory bandwidth by default: 17 VMs x 117.65 cores each,
				// a = 117.65 x 3.0 GB/s per GHz x 3.0 GHz against 350 GB/s STREAM,
				// (a^-2 + 350^-2)^(-1/2) = 332.32 GB/s per VM, x 1 / (1 + 0.02 x 16)
				// (parallel efficiency on 17 VMs) = 4,279.81, the only layout, so the best.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"relative_throughput": knownvalue.Float64Exact(1),
					"efficiency":          knownvalue.Float64Exact(0.7576), // 1 / 1.32, rounded to 4 decimals
					"job_hours":           knownvalue.Null(),
					"assumptions":         stringList("Bound: memory_bandwidth (hpc_bound); 17 VMs × 332.32 GB/s of memory bandwidth per VM × 75.76% parallel efficiency = 4279.81, relative to the best layout of the request."),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("requirements").AtMapKey("hpc_bound"), knownvalue.StringExact("memory_bandwidth")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.amd_aks", tfjsonpath.New("vm_sizes"), stringList("Standard_ND96isr_MI300X_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.slurm", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment").AtMapKey("cyclecloud"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"partition":              knownvalue.StringExact("gpu"),
					"machine_type":           knownvalue.StringExact("Standard_ND96asr_v4"),
					"os_image":               knownvalue.StringExact("microsoft-dsvm:ubuntu-hpc:2404:latest"),
					"max_nodes":              knownvalue.Int64Exact(1),
					"max_scaleset_size":      knownvalue.Null(),
					"fallback_machine_types": knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringExact("Standard_ND96asr_v4")}),
					"interruptible":          knownvalue.Bool(false),
					"sbatch_args":            stringList("--nodes=1", "--gpus-per-node=8", "--ntasks-per-node=1"),
					"note":                   knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_E48_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("requirements").AtMapKey("category"), knownvalue.StringExact("cpu")),
				// A small model on CPU sizes: the throughput model times GPU jobs of
				// language models only, so no estimate and no work.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("estimate"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"training_flops":          knownvalue.Null(),
					"training_tokens_billion": knownvalue.Null(),
					"token_budget":            knownvalue.Null(),
					"deadline_hours":          knownvalue.Null(),
					"efficiency":              knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_NC24ads_A100_v4")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("reasons").AtSliceIndex(0),
					knownvalue.StringExact("Ranked first because it is the first size in prefer that meets every requirement.")),
				// Then the best scored size: the T4 at 0.526 USD/h in eastus (79.1 against
				// the quarter RTX PRO 6000's 74.8, as in TestRecommendationDataSource_InferenceSmallModel).
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("vm_size"), knownvalue.StringExact("Standard_NC4as_T4_v3")),
			},
		}},
	})
}

// recommendationErrorCases are the hpcsku_recommendation configurations
// that must fail, on the fixture catalog, and their errors: invalid inputs
// and requests no size fits, with the nearest miss.
var recommendationErrorCases = map[string]errorCase{
	"unknown workload": {
		config: `data "hpcsku_recommendation" "x" { workload = "gaming" }`,
		err:    `Attribute workload value must be one of:\s+\["training"\s+"fine_tuning"\s+"inference"\s+"hpc"\s+"htc"\s+"visualization"\s+"data_processing"\]`,
	},
	"missing workload": {
		config: `data "hpcsku_recommendation" "x" { region = "eastus" }`,
		err:    `The argument "workload" is required`,
	},
	"zero parameters": {
		config: `data "hpcsku_recommendation" "x" {
  workload = "inference"
  model    = { parameters_billion = 0 }
}`,
		err: `parameters_billion must be greater than 0 and at most 100,000; got 0.`,
	},
	"unknown precision": {
		config: `data "hpcsku_recommendation" "x" {
  workload = "inference"
  model = {
    parameters_billion = 7
    precision          = "fp2"
  }
}`,
		err: `Attribute model.precision value must be one of:\s+\["fp32"\s+"tf32"\s+"bf16"\s+"fp16"\s+"fp8"\s+"fp4"\s+"int8"\s+"int4"\]`,
	},
	"too many results": {
		config: `data "hpcsku_recommendation" "x" {
  workload    = "hpc"
  max_results = 51
}`,
		err: `max_results must be at least 1 and at most 50; got 51.`,
	},
	"malformed cuda version": {
		config: `data "hpcsku_recommendation" "x" {
  workload     = "data_processing"
  cuda_version = "thirteen"
}`,
		err: wrapped(`Attribute cuda_version must be a version such as "12.4" or "13.0", got: thirteen`),
	},
	"price cap without region": {
		config: `data "hpcsku_recommendation" "x" {
  workload           = "hpc"
  max_price_per_hour = 5
}`,
		err: `Attribute "region" or "regions" must be specified when\s+"max_price_per_hour"\s+is\s+specified`,
	},
	"unknown region": {
		config: `data "hpcsku_recommendation" "x" {
  workload = "hpc"
  region   = "moon-1"
}`,
		err: `(?i)Unknown Region`,
	},
	"amd with cuda": {
		config: `data "hpcsku_recommendation" "x" {
  workload     = "training"
  model        = { parameters_billion = 7 }
  gpu_vendor   = "amd"
  cuda_version = "12.0"
}`,
		// workload 9: the CPU and HPC sizes and the three NV sizes, which are
		// not training sizes; gpu_vendor 9: the NVIDIA NC and ND sizes
		// (retired ones too: gpu_vendor comes before retired).
		err: `No VM Size Fits[\s\S]*workload: 9[\s\S]*gpu_vendor: 9[\s\S]*cuda_version: 1 \(Standard_ND96isr_MI300X_v5\)[\s\S]*` +
			// Both halves of the contradiction are a nearest miss; the MI300X
			// (failing only cuda_version) scores highest on the job.
			wrapped(`Nearest miss: Standard_ND96isr_MI300X_v5 fails only cuda_version. To use it, remove cuda_version (AMD GPUs run ROCm, not CUDA).`),
	},
	"impossible budget": {
		config: `data "hpcsku_recommendation" "x" {
  workload           = "training"
  model              = { parameters_billion = 70 }
  region             = "eastus"
  max_price_per_hour = 1
}`,
		// The GPUs without bf16 (T4, V100) fail precision; the four single-GPU NC
		// sizes have no InfiniBand, so the job may span only one of their VMs,
		// which does not hold it (gpu_memory); the MI300X has no eastus price;
		// the two ND sizes left cost more. Of those, ND96asr_v4 would train the
		// 5.88e23 FLOPs on its 100 VMs at most in 5.88e23 / (100 x 8 x 312e12 x
		// 0.40) = 1635.95 hours, past the 720-hour default, so it comes after the
		// H100 size (72 VMs, 716.43 hours): the nearest miss.
		err: `No VM Size Fits[\s\S]*precision: 3 \(Standard_NC24rs_v3, Standard_NC4as_T4_v3, Standard_ND40rs_v2\)[\s\S]*gpu_memory: 4[\s\S]*region: 1[\s\S]*max_price_per_hour: 2 \(Standard_ND96asr_v4, Standard_ND96isr_H100_v5\)[\s\S]*` +
			wrapped(`Nearest miss: Standard_ND96isr_H100_v5 fails only max_price_per_hour. To use it, raise max_price_per_hour to at least 98.32 (98.32 USD per hour in eastus).`),
	},
	"deadline nobody meets": {
		config: `data "hpcsku_recommendation" "x" {
  workload       = "training"
  model          = { parameters_billion = 7 }
  tokens_billion = 300
  deadline_hours = 5
  region         = "eastus"
}`,
		// 1.26e22 FLOPs on the 100 VMs one job may span with InfiniBand take at
		// least 1.26e22 / (100 x 8 x 989.5e12 x 0.40) = 39,793 s, 11.05 hours
		// (H100), 1.26e22 / (100 x 8 x 1,307.4e12 x 0.30) = 40,156 s, 11.15
		// (MI300X) and 1.26e22 / (100 x 8 x 312e12 x 0.40) = 126,202 s, 35.06
		// (A100 40 GB). Each fails deadline (the MI300X also region, which comes
		// later). Of the two that fail only deadline, the nearest miss is the one
		// that needs the shortest deadline: the H100 size, ceil(11.05) = 12.
		err: `No VM Size Fits[\s\S]*deadline: 3 \(Standard_ND96asr_v4, Standard_ND96isr_H100_v5, Standard_ND96isr_MI300X_v5\)[\s\S]*` +
			wrapped(`Nearest miss: Standard_ND96isr_H100_v5 fails only deadline. To use it, raise deadline_hours to at least 12 (the job takes that long on 100 VMs of it).`),
	},
	"latency target nobody meets": {
		config: `data "hpcsku_recommendation" "x" {
  workload                     = "inference"
  model                        = { name = "llama-3.1-70b" }
  max_time_per_output_token_ms = 0.1
}`,
		// Even one sequence per copy reads 140 GB of weights a step.
		err: `No VM Size Fits[\s\S]*max_time_per_output_token_ms: \d+ \([\s\S]*` +
			`Nearest\s+miss:\s+\S+\s+fails\s+only\s+max_time_per_output_token_ms\.\s+To\s+use\s+it,\s+raise\s+max_time_per_output_token_ms\s+to\s+\d+`,
	},
	"throughput nobody sustains": {
		config: `data "hpcsku_recommendation" "x" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 512
  concurrent_requests = 4096
  tokens_per_second   = 10000000
  gpu_models          = ["a100-pcie-80gb", "h100-nvl-94gb"]
}`,
		// 10 million tokens per second need more copies than 1,000 VMs hold
		// at no more than 90% of their capacity (the 4,096 stated sequences
		// are only a floor on the KV cache held).
		err: `No VM Size Fits[\s\S]*tokens_per_second: 3 \(Standard_NC24ads_A100_v4, Standard_NC40ads_H100_v5, Standard_NCC40ads_H100_v5\)\. ` +
			wrapped(`Cannot serve 10,000,000 output tokens per second within 1000 VMs at no more than 90% of their capacity, at the throughput the step model estimates.`),
	},
}

func TestRecommendationDataSource_Errors(t *testing.T) {
	t.Parallel()
	testErrors(t, fixtureProviderFactories(t), nil, recommendationErrorCases)
}

// TestRecommendationDataSource_SpotSKUMatchesOtherDataSources ranks spot
// inference in one region of the embedded catalog and checks, through
// Terraform, the spot price outputs against the engine's own answer for the
// same request, and that the top size's full record (`sku_records`, with
// `full_records = true`) equals what hpcsku_sku and hpcsku_catalog return
// for that size and region. It compares rather than
// pins, so it follows the embedded catalog's data.
func TestRecommendationDataSource_SpotSKUMatchesOtherDataSources(t *testing.T) {
	t.Parallel()
	data := testProviderData(t)
	res, err := data.Engine.Recommend(recommend.Request{
		Workload: recommend.WorkloadInference, Model: &recommend.Model{ParametersBillion: 13},
		Spot: true, Region: "eastus", MaxResults: ptrTo(int64(10)), AsOf: data.AsOf,
	})
	if err != nil {
		t.Fatal(err)
	}
	top := res.Recommendations[0]
	spot := top.SKU.Prices["eastus"].SpotUSDPerHour
	if !top.PriceIsSpot || top.PricePerHour == nil || spot == nil {
		t.Fatalf("the engine's top spot recommendation %s has no spot price", top.VMSize)
	}
	const ds = "data.hpcsku_recommendation.spot"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
provider "hpcsku" {
  as_of = "2026-11-22"
}
data "hpcsku_recommendation" "spot" {
  workload    = "inference"
  model       = { parameters_billion = 13 }
  spot         = true
  region       = "eastus"
  max_results  = 10
  full_records = true
}
data "hpcsku_sku" "top" {
  name   = data.hpcsku_recommendation.spot.vm_size
  region = "eastus"
}
data "hpcsku_catalog" "top" {
  name_regex      = "^${data.hpcsku_recommendation.spot.vm_size}$"
  region          = "eastus"
  include_retired = true
  full_records    = true
}
locals {
  top = data.hpcsku_recommendation.spot.sku_records[data.hpcsku_recommendation.spot.vm_size]
}
output "same_as_sku_data_source" {
  value = local.top == data.hpcsku_sku.top.sku
}
output "same_as_catalog_data_source" {
  value = local.top == data.hpcsku_catalog.top.sku_records[data.hpcsku_recommendation.spot.vm_size]
}
output "summary_of_the_record" {
  value = data.hpcsku_recommendation.spot.recommendations[0].sku.gpu.model == local.top.gpu.model && data.hpcsku_recommendation.spot.recommendations[0].sku.name == local.top.name
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_size"), knownvalue.StringExact(top.VMSize)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations"), knownvalue.ListSizeExact(len(res.Recommendations))),
				statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rank":           knownvalue.Int64Exact(1),
					"score":          knownvalue.Float64Exact(top.Score),
					"price_is_spot":  knownvalue.Bool(true),
					"price_per_hour": knownvalue.Float64Exact(*top.PricePerHour),
					"price_source":   knownvalue.StringExact(top.PriceSource),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("sku_records").AtMapKey(top.VMSize).AtMapKey("price"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"region":            knownvalue.StringExact("eastus"),
					"spot_usd_per_hour": knownvalue.Float64Exact(*spot),
				})),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("region"), knownvalue.StringExact("eastus")),
				statecheck.ExpectKnownOutputValue("same_as_sku_data_source", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("same_as_catalog_data_source", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("summary_of_the_record", knownvalue.Bool(true)),
			},
		}},
	})
}

// TestRecommendationReadMatrix reads hpcsku_recommendation through the
// provider server, as Terraform does, for every workload on every target,
// without a region and in two regions, on demand and spot (the spot reads
// also set the throughput model's inputs: tokens_billion and
// deadline_hours, tokens_per_second, hpc_bound). Each state is decoded and
// compared with the engine's answer to the same request: the ranked sizes
// with their ranks, scores, prices and estimates, the deployment settings
// of the target, the requirements and rejections, and each ranked size's
// `sku` with the summary of a fresh conversion of the catalog size (no
// memo). Requests
// nothing fits must fail with the no-fit error.
func TestRecommendationReadMatrix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := &readMatrix{s: newProtoServer(t), data: testProviderData(t)}
	(&recommendationDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &m.sr)
	// The subtests run in parallel: the counts are checked once they have all finished.
	t.Cleanup(func() {
		read, noFit := m.read.Load(), m.noFit.Load()
		t.Logf("%d reads compared, %d without a fitting size", read, noFit)
		if read < 200 {
			t.Errorf("only %d reads compared (%d without a fitting size); the matrix no longer exercises the outputs", read, noFit)
		}
	})
	for _, w := range recommend.Workloads() {
		for _, target := range recommend.Targets() {
			for _, region := range []string{"", "eastus", "westeurope"} {
				for _, spot := range []bool{false, true} {
					attrs, req := readMatrixRequest(w, target, region, spot, m.data.AsOf)
					t.Run(fmt.Sprintf("%s/%s/%s/spot=%t", w, target, region, spot), func(t *testing.T) {
						t.Parallel()
						m.check(ctx, t, attrs, req)
					})
				}
			}
		}
	}
}

// readMatrix is what the reads of TestRecommendationReadMatrix share: the
// provider server, the data source's schema, the provider data whose engine
// answers the same requests, and the counts of reads compared and of
// requests nothing fits.
type readMatrix struct {
	s           *protoServer
	sr          datasource.SchemaResponse
	data        *providerData
	read, noFit atomic.Int64
}

// readMatrixRequest is one read of TestRecommendationReadMatrix: the
// attributes of the configuration and the engine's request for the same
// inputs. Model workloads read a 7B model on demand; spot reads name a model
// and set the workload's own inputs and the throughput model's. HPC and HTC
// read 512 cores; spot reads state the bound.
func readMatrixRequest(w, target, region string, spot bool, asOf time.Time) (map[string]tftypes.Value, recommend.Request) {
	attrs := map[string]tftypes.Value{"workload": str(w), "target": str(target), "spot": tftypes.NewValue(tftypes.Bool, spot)}
	req := recommend.Request{Workload: w, Target: target, Region: region, Spot: spot, AsOf: asOf}
	switch w {
	case recommend.WorkloadTraining, recommend.WorkloadFineTuning, recommend.WorkloadInference:
		if !spot {
			attrs["model"] = modelValue(map[string]tftypes.Value{"parameters_billion": num(7), "precision": str("bf16")})
			req.Model = &recommend.Model{ParametersBillion: 7, Precision: "bf16"}
			break
		}
		// Spot reads name a model and set the workload's own inputs.
		attrs["model"] = modelValue(map[string]tftypes.Value{"name": str("Llama 3.1 8B")})
		req.Model = &recommend.Model{Name: "Llama 3.1 8B"}
		attrs["context_tokens"] = num(8192)
		req.ContextTokens = ptrTo(int64(8192))
		// and the throughput model's inputs.
		switch w {
		case recommend.WorkloadInference:
			attrs["concurrent_requests"] = num(64)
			req.ConcurrentRequests = ptrTo(int64(64))
			attrs["tokens_per_second"] = num(2000)
			req.TokensPerSecond = ptrTo(2000.0)
		case recommend.WorkloadFineTuning:
			attrs["fine_tuning_method"] = str("lora")
			req.FineTuningMethod = "lora"
			attrs["training_batch_size"] = num(4)
			req.TrainingBatchSize = ptrTo(int64(4))
			attrs["tokens_billion"] = num(0.5)
			req.TokensBillion = ptrTo(0.5)
			attrs["deadline_hours"] = num(48)
			req.DeadlineHours = ptrTo(48.0)
		default:
			attrs["training_batch_size"] = num(2)
			req.TrainingBatchSize = ptrTo(int64(2))
			attrs["tokens_billion"] = num(50)
			req.TokensBillion = ptrTo(50.0)
			attrs["deadline_hours"] = num(500)
			req.DeadlineHours = ptrTo(500.0)
		}
	case recommend.WorkloadHPC, recommend.WorkloadHTC:
		attrs["cores"] = num(512)
		req.Cores = ptrTo(int64(512))
		if spot {
			// Spot reads state the bound (the defaults are
			// memory_bandwidth for hpc, compute for htc).
			bound := map[string]string{recommend.WorkloadHPC: recommend.BoundCompute, recommend.WorkloadHTC: recommend.BoundMemoryCapacity}[w]
			attrs["hpc_bound"] = str(bound)
			req.HPCBound = bound
		}
	}
	if region != "" {
		attrs["region"] = str(region)
	}
	return attrs, req
}

// check reads hpcsku_recommendation with attrs through the provider server
// and compares the decoded state with the engine's answer to req; when
// nothing fits, the read must fail with the no-fit error.
func (m *readMatrix) check(ctx context.Context, t *testing.T, attrs map[string]tftypes.Value, req recommend.Request) {
	t.Helper()
	want, err := m.data.Engine.Recommend(req)
	resp, rpcErr := m.s.ReadDataSource(ctx, m.s.readRequest(t, "hpcsku_recommendation", attrs))
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	var nf *recommend.NoFitError
	if errors.As(err, &nf) {
		m.noFit.Add(1)
		if !diagsHaveError(resp.Diagnostics) || !strings.Contains(diagsString(resp.Diagnostics), "No VM Size Fits") {
			t.Fatalf("the engine finds no fit, the read says:\n%s", diagsString(resp.Diagnostics))
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diagsHaveError(resp.Diagnostics) {
		t.Fatalf("read failed:\n%s", diagsString(resp.Diagnostics))
	}
	m.read.Add(1)
	raw, err := resp.State.Unmarshal(m.s.schemas.DataSourceSchemas["hpcsku_recommendation"].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	var got recommendationDataSourceModel
	if d := (tfsdk.State{Schema: m.sr.Schema, Raw: raw}).Get(ctx, &got); d.HasError() {
		t.Fatal(d)
	}
	checkRecommendationState(ctx, t, got, want, m.data)
}

// checkRecommendationState compares a decoded hpcsku_recommendation state
// with the engine's result.
func checkRecommendationState(ctx context.Context, t *testing.T, got recommendationDataSourceModel, want *recommend.Result, data *providerData) {
	t.Helper()
	recs := got.Recommendations
	if len(recs) != len(want.Recommendations) || len(got.VMSizes) != len(want.Recommendations) {
		t.Fatalf("%d recommendations and %d vm_sizes, want %d", len(recs), len(got.VMSizes), len(want.Recommendations))
	}
	if got.VMSize.ValueString() != want.Recommendations[0].VMSize {
		t.Errorf("vm_size %s, want %s", got.VMSize, want.Recommendations[0].VMSize)
	}
	for i, w := range want.Recommendations {
		checkRecommendation(ctx, t, i, got.VMSizes[i], recs[i], w, data)
	}
	checkRequirements(t, got.Requirements, want)
	if len(got.Rejected) != len(want.Rejected) {
		t.Fatalf("%d rejections, want %d", len(got.Rejected), len(want.Rejected))
	}
	for i, w := range want.Rejected {
		if g := got.Rejected[i]; g.Constraint != w.Constraint || g.Count != w.Count || !slices.Equal(g.Examples, w.Examples) || g.Reason != w.Reason {
			t.Errorf("rejection %d: %+v, want %+v", i, g, w)
		}
	}
	if got.AsOf.ValueString() != data.AsOf.Format(catalog.DateLayout) || got.CatalogVersion.ValueString() != data.Catalog.Version {
		t.Errorf("as_of %s, catalog_version %s", got.AsOf, got.CatalogVersion)
	}
}

// checkRecommendation compares recommendation i of the state, whose entry
// in vm_sizes is vmSize, with the engine's: the ranking, prices, layout,
// deployment and estimate, and its `sku` with the summary of a fresh
// conversion of the catalog size.
func checkRecommendation(ctx context.Context, t *testing.T, i int, vmSize string, g recommendationOut, w recommend.Recommendation, data *providerData) {
	t.Helper()
	floatEq := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	if vmSize != w.VMSize || g.VMSize != w.VMSize || g.Rank != w.Rank || g.Score != w.Score || g.Nodes != w.Nodes ||
		g.TotalGPUs != w.TotalGPUs || !floatEq(g.PricePerHour, w.PricePerHour) || !floatEq(g.TotalPricePerHour, w.TotalPricePerHour) ||
		g.PriceIsSpot != w.PriceIsSpot || !slices.Equal(g.Reasons, w.Reasons) || !slices.Equal(g.Warnings, w.Warnings) {
		t.Errorf("recommendation %d: %s rank %d score %v nodes %d, want %s rank %d score %v nodes %d (or prices, reasons, warnings differ)",
			i, g.VMSize, g.Rank, g.Score, g.Nodes, w.VMSize, w.Rank, w.Score, w.Nodes)
	}
	if g.Replicas != w.Replicas || !int64Eq(g.TensorParallelSize, w.TensorParallel) || !int64Eq(g.PipelineParallelSize, w.PipelineStages) {
		t.Errorf("recommendation %d (%s): replicas %d, tensor parallel %v, pipeline parallel %v; want %d, %d, %d (0 as null)",
			i, w.VMSize, g.Replicas, g.TensorParallelSize, g.PipelineParallelSize, w.Replicas, w.TensorParallel, w.PipelineStages)
	}
	if why := deploymentDiff(g.Deployment, w.Deployment); why != "" {
		t.Errorf("recommendation %d (%s): deployment %s", i, w.VMSize, why)
	}
	checkEstimate(t, i, w.VMSize, g.Estimate, w.Estimate)
	full, d := newSKUObject(ctx, w.SKU, w.PriceRegion, data.AsOf)
	if d.HasError() {
		t.Fatal(d)
	}
	fresh, d := projectObject(full, skuSummaryType(), skuSummaryFields)
	if d.HasError() {
		t.Fatal(d)
	}
	if !g.SKU.Equal(fresh) {
		t.Errorf("recommendation %d (%s): sku differs from the summary of a fresh conversion of the size in %q", i, w.VMSize, w.PriceRegion)
	}
}

// checkRequirements compares the state's requirements with the engine's
// (want.Requirements): the category, layout and interconnect, the model and
// serving inputs, the throughput model's work, the efficiency (the top
// recommendation's) and the memory.
func checkRequirements(t *testing.T, r *requirementsOut, want *recommend.Result) {
	t.Helper()
	w := want.Requirements
	if r == nil || r.Category != w.Category || r.Nodes != w.Nodes ||
		r.Interconnect != w.Interconnect || (r.Memory == nil) != (w.Memory == nil) {
		t.Errorf("requirements %+v, want %+v", r, w)
	}
	if r == nil {
		return
	}
	if !strEq(r.Precision, w.Precision) || !strEq(r.Model, w.Model) || !strEq(r.FineTuningMethod, w.FineTuningMethod) ||
		!int64Eq(r.ContextTokens, w.ContextTokens) || !int64Eq(r.ConcurrentRequests, w.ConcurrentRequests) ||
		!float64Eq(r.KVCacheGiB, w.KVCacheGiB) || !int64Eq(r.KVBytesPerToken, int64(w.KVBytesPerToken)) {
		t.Errorf("requirements: precision %v, model %v, fine_tuning_method %v, context_tokens %v, concurrent_requests %v, kv_cache_gib %v, kv_bytes_per_token %v; want %+v",
			r.Precision, r.Model, r.FineTuningMethod, r.ContextTokens, r.ConcurrentRequests, r.KVCacheGiB, r.KVBytesPerToken, w)
	}
	if !float64Eq(r.TrainingFLOPs, w.TrainingFLOPs) || !float64Eq(r.TrainingTokensBillion, w.TrainingTokensBillion) || !strEq(r.TokenBudget, w.TokenBudget) ||
		!float64Eq(r.DeadlineHours, w.DeadlineHours) || !float64Eq(r.TokensPerSecond, w.TokensPerSecond) || !strEq(r.HPCBound, w.HPCBound) ||
		!float64Eq(r.Efficiency, w.Efficiency) {
		t.Errorf("requirements: training_flops %v, training_tokens_billion %v, token_budget %v, deadline_hours %v, tokens_per_second %v, hpc_bound %v, efficiency %v; want %+v",
			r.TrainingFLOPs, r.TrainingTokensBillion, r.TokenBudget, r.DeadlineHours, r.TokensPerSecond, r.HPCBound, r.Efficiency, w)
	}
	if top := want.Recommendations[0].Estimate; (top == nil && w.Efficiency != 0) || (top != nil && top.Efficiency != w.Efficiency) {
		t.Errorf("requirements.efficiency %v is not the top recommendation's", w.Efficiency)
	}
	if m, wm := r.Memory, w.Memory; m != nil && wm != nil {
		if m.GiB != wm.GiB || !float64Eq(m.WeightsGiB, wm.WeightsGiB) || !float64Eq(m.GradientsGiB, wm.GradientsGiB) ||
			!float64Eq(m.OptimizerGiB, catalog.Round2(wm.MasterWeightsGiB+wm.OptimizerGiB)) || !float64Eq(m.AdaptersGiB, wm.AdapterGiB) ||
			!float64Eq(m.ActivationsGiB, wm.ActivationGiB) || !float64Eq(m.KVCacheGiB, wm.KVCacheGiB) || m.Formula != wm.Formula {
			t.Errorf("requirements.memory %+v, want %+v", *m, *wm)
		}
	}
}

// checkEstimate compares recommendation i's `estimate` with the engine's:
// null exactly when the engine gives none, each figure null where the
// engine's is nil.
func checkEstimate(t *testing.T, i int, size string, got *estimateOut, want *recommend.Estimate) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Errorf("recommendation %d (%s): estimate %+v, want %+v", i, size, got, want)
		return
	}
	if want == nil {
		return
	}
	floatEq := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	if !floatEq(got.JobHours, want.JobHours) || !floatEq(got.JobCostUSD, want.JobCostUSD) || !floatEq(got.TokensPerSecond, want.TokensPerSecond) ||
		!floatEq(got.CostPerMillionTokens, want.CostPerMillionTokens) || !floatEq(got.RelativeThroughput, want.RelativeThroughput) ||
		got.Efficiency != want.Efficiency || !slices.Equal(got.Assumptions, want.Assumptions) || len(got.Assumptions) == 0 {
		t.Errorf("recommendation %d (%s): estimate %+v, want %+v", i, size, *got, *want)
	}
}

// strEq, int64Eq and float64Eq compare an output that is null for the
// engine's zero value with that value.
func strEq(got *string, want string) bool {
	return (got == nil && want == "") || (got != nil && *got == want && want != "")
}
func int64Eq(got *int64, want int64) bool {
	return (got == nil && want == 0) || (got != nil && *got == want && want != 0)
}
func float64Eq(got *float64, want float64) bool {
	return (got == nil && want == 0) || (got != nil && *got == want && want != 0)
}

// deploymentDiff compares the deployment read back from state with the
// engine's, field by field (null for the engine's empty strings and zero
// counts); it returns the first difference, or "".
func deploymentDiff(g deploymentOut, w deploy.Deployment) string {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	switch {
	case str(g.ImageURN) != w.ImageURN || str(g.ImageSource) != w.ImageSource || str(g.CPUArchitecture) != w.CPUArchitecture:
		return fmt.Sprintf("image %q from %q on %q, want %q from %q on %q", str(g.ImageURN), str(g.ImageSource), str(g.CPUArchitecture), w.ImageURN, w.ImageSource, w.CPUArchitecture)
	case g.AcceleratedNetworking != w.AcceleratedNetworking || g.RDMA != w.RDMA || str(g.RDMAPlacement) != w.RDMAPlacement || g.SinglePlacementGroup != w.SinglePlacementGroup:
		return fmt.Sprintf("network %v %v %q %v, want %v %v %q %v", g.AcceleratedNetworking, g.RDMA, str(g.RDMAPlacement), g.SinglePlacementGroup, w.AcceleratedNetworking, w.RDMA, w.RDMAPlacement, w.SinglePlacementGroup)
	case (g.AKS != nil) != (w.AKS != nil) || (g.CycleCloud != nil) != (w.CycleCloud != nil) || (g.AzureML != nil) != (w.AzureML != nil) || (g.Batch != nil) != (w.Batch != nil):
		return fmt.Sprintf("target objects %+v, want %+v", g, w)
	}
	if a, b := g.AKS, w.AKS; a != nil && (str(a.GPUDriver) != b.GPUDriver || !maps.Equal(a.NodeLabels, b.NodeLabels) || !slices.Equal(a.NodeTaints, b.NodeTaints) ||
		(a.NodeAutoProvisioning == nil) != (b.NodeAutoProvisioning == nil) ||
		(a.NodeAutoProvisioning != nil && (a.NodeAutoProvisioning.Key != b.NodeAutoProvisioning.Key || a.NodeAutoProvisioning.Operator != b.NodeAutoProvisioning.Operator ||
			!slices.Equal(a.NodeAutoProvisioning.Values, b.NodeAutoProvisioning.Values))) || str(a.Note) != b.Note) {
		return fmt.Sprintf("AKS %+v, want %+v", a, b)
	}
	if c, b := g.CycleCloud, w.CycleCloud; c != nil && (c.Partition != b.Partition || c.MachineType != b.MachineType || str(c.OSImage) != b.OSImage ||
		c.MaxNodes != b.MaxNodes || (c.MaxScaleSetSize == nil) != (b.MaxScaleSetSize == 0) || (c.MaxScaleSetSize != nil && *c.MaxScaleSetSize != b.MaxScaleSetSize) ||
		!slices.Equal(c.FallbackMachineTypes, b.FallbackMachineTypes)) {
		return fmt.Sprintf("CycleCloud %+v, want %+v", c, b)
	}
	if m, b := g.AzureML, w.AzureML; m != nil && *m != (azureMLOut{VMSize: b.VMSize, VMPriority: b.VMPriority, MinNodeCount: b.MinNodeCount, MaxNodeCount: b.MaxNodeCount}) {
		return fmt.Sprintf("Azure ML %+v, want %+v", m, b)
	}
	if p, b := g.Batch, w.Batch; p != nil {
		if p.VMSize != b.VMSize || str(p.NodeAgentSKUID) != b.NodeAgentSKUID || p.InterNodeCommunication != b.InterNodeCommunication ||
			p.TargetDedicatedNodes != b.TargetDedicatedNodes || p.TargetLowPriorityNodes != b.TargetLowPriorityNodes || str(p.Note) != b.Note ||
			(p.Image == nil) != (b.Image == nil) || (p.Image != nil && *p.Image != (imageReferenceOut{Publisher: b.Image.Publisher, Offer: b.Image.Offer, SKU: b.Image.SKU, Version: b.Image.Version})) {
			return fmt.Sprintf("Batch %+v, want %+v", p, b)
		}
	}
	return ""
}

// deploymentsConfig is the configuration of
// TestRecommendationDataSource_Deployments: recommendations on AKS, VMs, a
// scale set, Azure ML (spot) and Batch, with and without InfiniBand, and the
// HBv3 size's own record.
const deploymentsConfig = `
data "hpcsku_recommendation" "aks_cpu" {
  workload = "hpc"
  target   = "aks"
}
data "hpcsku_recommendation" "vm_ib" {
  workload = "hpc"
  cores    = 1000
  target   = "vm"
}
data "hpcsku_recommendation" "vmss_ib" {
  workload = "hpc"
  cores    = 1000
  target   = "vmss"
}
data "hpcsku_recommendation" "aml_spot" {
  workload = "hpc"
  cores    = 1000
  target   = "azureml"
  spot     = true
}
data "hpcsku_recommendation" "batch_mpi" {
  workload = "hpc"
  cores    = 1000
  target   = "batch"
}
data "hpcsku_recommendation" "batch_grid" {
  workload = "inference"
  model    = { parameters_billion = 1.3 }
  target   = "batch"
  prefer   = ["Standard_NC24lds_xl_RTXPRO6000BSE_v6"]
}
data "hpcsku_sku" "hb" {
  name = "Standard_HB120rs_v3"
}
`

// The deployment object per target, as Terraform reads it: what each
// downstream resource takes (azurerm's gpu_driver accepts only Install or
// None, so a CPU pool gets null; InfiniBand across plain VMs needs one
// availability set, across a scale set one placement group; Azure ML and
// Batch settings; no image where none is documented).
func TestRecommendationDataSource_Deployments(t *testing.T) {
	t.Parallel()
	// A fresh path each time: paths extended from one shared path may share
	// its backing array.
	dep0 := func() tfjsonpath.Path {
		return tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment")
	}
	ds := func(name string) string { return "data.hpcsku_recommendation." + name }
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: deploymentsConfig,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds("aks_cpu"), dep0().AtMapKey("aks"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"gpu_driver":  knownvalue.Null(),
					"os_sku":      knownvalue.Null(),
					"spot":        knownvalue.Null(),
					"kaito":       knownvalue.Null(),
					"node_taints": knownvalue.ListExact([]knownvalue.Check{}),
					"node_labels": knownvalue.MapExact(map[string]knownvalue.Check{"hpcsku.io/vm-size": knownvalue.StringExact("Standard_HB120rs_v3")}),
					"node_auto_provisioning": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"key":      knownvalue.StringExact("karpenter.azure.com/sku-name"),
						"operator": knownvalue.StringExact("In"),
						"values":   knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringExact("Standard_HB120rs_v3")}),
					}),
					"note": knownvalue.StringRegexp(regexp.MustCompile(`^CPU node pool: no GPU driver or taint needed`)),
				})),
				// 1,000 cores on HBv3: ceil(1000 / 120) = 9 VMs over InfiniBand.
				statecheck.ExpectKnownValue(ds("vm_ib"), tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("nodes"), knownvalue.Int64Exact(9)),
				statecheck.ExpectKnownValue(ds("vm_ib"), dep0(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rdma":                   knownvalue.Bool(true),
					"rdma_placement":         knownvalue.StringExact("availability_set"),
					"single_placement_group": knownvalue.Bool(false),
					"image_urn":              knownvalue.StringExact("microsoft-dsvm:ubuntu-hpc:2404:latest"),
					"image_source":           knownvalue.StringRegexp(regexp.MustCompile(`^Azure/azhpc-images:versions\.json@8e9d055`)),
				})),
				statecheck.ExpectKnownValue(ds("vmss_ib"), dep0(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rdma_placement":         knownvalue.StringExact("scale_set"),
					"single_placement_group": knownvalue.Bool(true),
				})),
				statecheck.ExpectKnownValue(ds("aml_spot"), dep0().AtMapKey("azureml"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"vm_size":        knownvalue.StringExact("Standard_HB120rs_v3"),
					"vm_priority":    knownvalue.StringExact("LowPriority"),
					"min_node_count": knownvalue.Int64Exact(0),
					"max_node_count": knownvalue.Int64Exact(9),
				})),
				statecheck.ExpectKnownValue(ds("batch_mpi"), dep0().AtMapKey("batch"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"vm_size":           knownvalue.StringExact("Standard_HB120rs_v3"),
					"node_agent_sku_id": knownvalue.StringExact("batch.node.ubuntu 24.04"),
					"image": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"publisher": knownvalue.StringExact("microsoft-dsvm"),
						"offer":     knownvalue.StringExact("ubuntu-hpc"),
						"sku":       knownvalue.StringExact("2404"),
						"version":   knownvalue.StringExact("latest"),
					}),
					"inter_node_communication":  knownvalue.StringExact("Enabled"),
					"target_dedicated_nodes":    knownvalue.Int64Exact(9),
					"target_low_priority_nodes": knownvalue.Int64Exact(0),
					"max_tasks_per_node":        knownvalue.Int64Exact(1),
					"note":                      knownvalue.StringRegexp(regexp.MustCompile(`at most 100 nodes in Batch-service accounts and 80 in user-subscription accounts`)),
				})),
				statecheck.ExpectKnownValue(ds("batch_grid"), tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_NC24lds_xl_RTXPRO6000BSE_v6")),
				statecheck.ExpectKnownValue(ds("batch_grid"), dep0(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"image_urn":      knownvalue.Null(),
					"image_source":   knownvalue.Null(),
					"rdma_placement": knownvalue.Null(),
					"batch": knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"image":                    knownvalue.Null(),
						"node_agent_sku_id":        knownvalue.Null(),
						"inter_node_communication": knownvalue.StringExact("Disabled"),
						"note":                     knownvalue.StringRegexp(regexp.MustCompile(`your own image reference`)),
					}),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.hb", tfjsonpath.New("sku").AtMapKey("support").AtMapKey("azureml"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"status": knownvalue.StringExact("supported"),
				})),
			},
		}},
	})
}
