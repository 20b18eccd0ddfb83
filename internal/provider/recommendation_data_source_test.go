package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func stringList(list ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(list))
	for i, s := range list {
		checks[i] = knownvalue.StringExact(s)
	}
	return knownvalue.ListExact(checks)
}

func TestRecommendationDataSource_InferenceSmallModel(t *testing.T) {
	const ds = "data.hpcsku_recommendation.opt"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "opt" {
  workload = "inference"
  model = {
    parameters_billion = 1.3
  }
  region = "eastus"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				// Seeds 000/001: a small job is not put on an 8-GPU ND size. The
				// quarter RTX PRO 6000 slice (24 GiB, 1.13 USD/h in eastus) scores
				// 64.8, the T4 60.5 (the engine's scenario 1 has the arithmetic).
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_NC24lds_xl_RTXPRO6000BSE_v6")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList(
					"Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC36lds_xl_RTXPRO6000BSE_v6", "Standard_NC36ds_xl_RTXPRO6000BSE_v6",
					"Standard_NC4as_T4_v3", "Standard_NC72lds_xl_RTXPRO6000BSE_v6")),
				statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rank":                 knownvalue.Int64Exact(1),
					"score":                knownvalue.Float64Exact(64.8),
					"nodes":                knownvalue.Int64Exact(1),
					"gpus_per_node":        knownvalue.Float64Exact(0.25),
					"total_gpu_memory_gib": knownvalue.Float64Exact(24),
					"price_per_hour":       knownvalue.Float64Exact(1.13),
					"total_price_per_hour": knownvalue.Float64Exact(1.13),
					"price_is_spot":        knownvalue.Bool(false),
				})),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("network").AtMapKey("rdma"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("price").AtMapKey("region"), knownvalue.StringExact("eastus")),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("reasons").AtSliceIndex(0), knownvalue.StringExact("The NC family is preferred for inference (generative model).")),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rdma":            knownvalue.Bool(false),
					"placement_group": knownvalue.Bool(false),
					"aks":             knownvalue.Null(),
					"cyclecloud":      knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"category":           knownvalue.StringExact("gpu"),
					"gpu_memory_gib":     knownvalue.Float64Exact(2.91),
					"system_memory_gib":  knownvalue.Float64Exact(3.63),
					"interconnect":       knownvalue.StringExact("any"),
					"nodes":              knownvalue.Int64Exact(1),
					"preferred_families": stringList("NC", "ND"),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("memory").AtMapKey("bytes_per_parameter"), knownvalue.Float64Exact(2)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"constraint": knownvalue.StringExact("retired"),
					"count":      knownvalue.Int64Exact(70),
					"examples":   stringList("Standard_H16", "Standard_H16_Promo", "Standard_H16m"),
				})),
				// Then min_lifetime_months, deployable (ND128isrG5_GB300_v6),
				// unknown_specs (NC A10 v4), workload and confidential. Not
				// priced in eastus: ND128isr_GB300_v6 (D35), H200, the two
				// MI300X sizes, the four NG and the three NVv2 sizes.
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(2), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"constraint": knownvalue.StringExact("deployable"),
					"count":      knownvalue.Int64Exact(1),
					"examples":   stringList("Standard_ND128isrG5_GB300_v6"),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected").AtSliceIndex(6), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"constraint": knownvalue.StringExact("region"),
					"count":      knownvalue.Int64Exact(11),
				})),
			},
		}},
	})
}

func TestRecommendationDataSource_TrainingLargeModelOnAKS(t *testing.T) {
	const ds = "data.hpcsku_recommendation.llm"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
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
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList(
					"Standard_ND96isr_MI300X_v5", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4", "Standard_ND96isr_H200_v5", "Standard_ND96isr_H100_v5")),
				statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"nodes":      knownvalue.Int64Exact(2),
					"total_gpus": knownvalue.Float64Exact(16),
				})),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rdma":                   knownvalue.Bool(true),
					"placement_group":        knownvalue.Bool(true),
					"single_placement_group": knownvalue.Bool(true),
					"image_urn":              knownvalue.StringExact("microsoft-dsvm:ubuntu-hpc:2404-rocm:latest"),
				})),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("deployment").AtMapKey("aks"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"gpu_driver":  knownvalue.StringExact("None"),
					"node_taints": stringList("sku=gpu:NoSchedule"),
					"node_labels": knownvalue.MapExact(map[string]knownvalue.Check{
						"accelerator":         knownvalue.StringExact("amd"),
						"hpcsku.io/gpu-model": knownvalue.StringExact("mi300x"),
						"hpcsku.io/vm-size":   knownvalue.StringExact("Standard_ND96isr_MI300X_v5"),
					}),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("nodes"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("deployment").AtMapKey("aks").AtMapKey("gpu_driver"), knownvalue.StringExact("Install")),
				statecheck.ExpectKnownValue(ds, rec0.AtMapKey("sku").AtMapKey("network").AtMapKey("infiniband"), knownvalue.StringExact("NDR")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("interconnect"), knownvalue.StringExact("infiniband")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("requirements").AtMapKey("gpu_memory_gib"), knownvalue.Float64Exact(1564.62)),
			},
		}},
	})
}

func TestRecommendationDataSource_HPCAndTargets(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
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
  prefer   = ["Standard_NC8as_T4_v3"]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("recommendations").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size":              knownvalue.StringExact("Standard_HB120rs_v3"),
					"nodes":                knownvalue.Int64Exact(17), // ceil(2000 / 120)
					"price_per_hour":       knownvalue.Float64Exact(3.6),
					"total_price_per_hour": knownvalue.Float64Exact(61.2),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.cfd", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment").AtMapKey("rdma"), knownvalue.Bool(true)),
				// ND96is_MI300X_v5 holds 7B on one VM without InfiniBand to pay for.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.amd_aks", tfjsonpath.New("vm_sizes"), stringList("Standard_ND96is_MI300X_v5", "Standard_ND96isr_MI300X_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.slurm", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment").AtMapKey("cyclecloud"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"partition":    knownvalue.StringExact("gpu"),
					"slurm_hpc":    knownvalue.Bool(false),
					"machine_type": knownvalue.StringExact("Standard_NC48ads_A100_v4"),
				})),
				// The smallest E size holds the 2.24 GiB job.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_E2_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.small", tfjsonpath.New("requirements").AtMapKey("category"), knownvalue.StringExact("cpu")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_NC8as_T4_v3")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("reasons").AtSliceIndex(0),
					knownvalue.StringExact("Ranked first because it is the first size in prefer that meets every requirement.")),
				// Then the best scored size: the quarter RTX PRO 6000 slice at 1.13 USD/h
				// in eastus (64.8 against the T4's 60.5, as in the engine's scenario 1).
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.keep", tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("vm_size"), knownvalue.StringExact("Standard_NC24lds_xl_RTXPRO6000BSE_v6")),
			},
		}},
	})
}

func TestRecommendationDataSource_Errors(t *testing.T) {
	cases := map[string]struct {
		config string
		err    string
	}{
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
			err: `Attribute model.parameters_billion value must be greater than 0, got: 0`,
		},
		"unknown precision": {
			config: `data "hpcsku_recommendation" "x" {
  workload = "inference"
  model = {
    parameters_billion = 7
    precision          = "fp2"
  }
}`,
			err: `Attribute model.precision value must be one of:\s+\["fp32"\s+"tf32"\s+"bf16"\s+"fp16"\s+"fp8"\s+"int8"\s+"int4"\]`,
		},
		"too many results": {
			config: `data "hpcsku_recommendation" "x" {
  workload    = "hpc"
  max_results = 51
}`,
			err: `Attribute max_results value must be between 1 and 50, got: 51`,
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
			err: `Attribute "region" must be specified when "max_price_per_hour" is\s+specified`,
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
			err: `No VM Size Fits[\s\S]*gpu_vendor: 25[\s\S]*cuda_version: 2 \(Standard_ND96is_MI300X_v5, Standard_ND96isr_MI300X_v5\)[\s\S]*` +
				wrapped(`Nearest miss: Standard_NC48ads_A100_v4 fails only gpu_vendor. To use it, set gpu_vendor to "nvidia" or "any".`),
		},
		"impossible budget": {
			config: `data "hpcsku_recommendation" "x" {
  workload           = "training"
  model              = { parameters_billion = 70 }
  region             = "eastus"
  max_price_per_hour = 1
}`,
			err: `No VM Size Fits[\s\S]*max_price_per_hour: 5[\s\S]*` +
				wrapped(`Nearest miss: Standard_ND96amsr_A100_v4 fails only max_price_per_hour. To use it, raise max_price_per_hour to at least 32.78`),
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviderFactories(t),
				Steps:                    []resource.TestStep{{Config: c.config, ExpectError: regexp.MustCompile(c.err)}},
			})
		})
	}
}
