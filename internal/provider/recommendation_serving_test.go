// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Services asked the way serving engineers state them, by load and latency
// targets with no concurrent_requests, on the embedded catalog. Llama 3.1
// 8B, 1,000-token prompts and 200-token answers, the first token within
// 500 ms and one every 30 ms, 10,000 output tokens per second, two
// replicas on AKS in East US: the top pick is an NC layout whose copies
// each fit one VM (one full H100 NVL, A100 80 GB or RTX PRO 6000 per copy)
// on two or more VMs, with the capacity for the load and both targets met
// at it, for 28 to 45 USD an hour (to the dollar: two NC80adis_H100_v5 are
// 27.92). The requests in flight are derived from the load, and the
// requirements say so. Llama 3.3 70B in FP8 at 50,000 output tokens per
// second of 2k-token requests: the top pick serves them for 1.0 to 2.2
// USD per million output tokens.
func TestRecommendationDataSource_ServiceByLoad(t *testing.T) {
	t.Parallel()
	const chat, bulk = "data.hpcsku_recommendation.chat", "data.hpcsku_recommendation.bulk"
	top := tfjsonpath.New("recommendations").AtSliceIndex(0)
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "chat" {
  workload                     = "inference"
  model                        = { name = "llama-3.1-8b" }
  prompt_tokens                = 1000
  output_tokens                = 200
  max_time_to_first_token_ms   = 500
  max_time_per_output_token_ms = 30
  tokens_per_second            = 10000
  min_replicas                 = 2
  target                       = "aks"
  region                       = "eastus"
}
data "hpcsku_recommendation" "bulk" {
  workload          = "inference"
  model             = { name = "llama-3.3-70b", precision = "fp8" }
  context_tokens    = 2048
  tokens_per_second = 50000
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(chat, top, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size":                knownvalue.StringRegexp(regexp.MustCompile(`^Standard_NC`)),
					"nodes":                  numberBetween{2, 1000},
					"gpus_per_node":          numberBetween{1, 8},
					"pipeline_parallel_size": knownvalue.Int64Exact(1),
					"tensor_parallel_size":   knownvalue.Int64Exact(1),
					"total_price_per_hour":   numberBetween{27.5, 45.5},
				})),
				statecheck.ExpectKnownValue(chat, top.AtMapKey("sku").AtMapKey("gpu").AtMapKey("model"), stringOneOf{"NVIDIA H100 NVL 94GB", "NVIDIA A100 80GB PCIe", "NVIDIA RTX PRO 6000 Blackwell Server Edition"}),
				statecheck.ExpectKnownValue(chat, top.AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"tokens_per_second":        numberBetween{10000, 1e9},
					"time_to_first_token_ms":   numberBetween{0, 500},
					"time_per_output_token_ms": numberBetween{0, 30},
					"sequences_per_copy":       numberBetween{1, 1024},
					"concurrent_requests":      numberBetween{1, 1e6},
				})),
				statecheck.ExpectKnownValue(chat, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"tokens_per_second":   knownvalue.Float64Exact(10000),
					"requests_per_second": knownvalue.Null(),
					"concurrent_requests": numberBetween{1, 1e6},
				})),
				statecheck.ExpectKnownValue(chat, tfjsonpath.New("requirements").AtMapKey("defaults").AtMapKey("concurrent_requests"), knownvalue.StringRegexp(regexp.MustCompile(`derived from the load`))),
				statecheck.ExpectKnownValue(bulk, top.AtMapKey("estimate").AtMapKey("cost_per_million_tokens"), numberBetween{1.0, 2.2}),
				statecheck.ExpectKnownValue(bulk, top.AtMapKey("estimate").AtMapKey("tokens_per_second"), numberBetween{50000, 1e9}),
			},
		}},
	})
}

// requests_per_second states the load as requests: its tokens are the
// rate × output_tokens, which requirements.tokens_per_second reports, and
// the service is interactive, held to the default targets; a size's
// estimate stays its capacity (estimate.requests_per_second at least the
// stated rate) with latencies at the load.
func TestRecommendationDataSource_RequestsPerSecond(t *testing.T) {
	t.Parallel()
	const svc = "data.hpcsku_recommendation.svc"
	top := tfjsonpath.New("recommendations").AtSliceIndex(0)
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "svc" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  prompt_tokens       = 1000
  output_tokens       = 200
  requests_per_second = 40
  region              = "eastus"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(svc, tfjsonpath.New("requirements"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"requests_per_second": knownvalue.Float64Exact(40),
					"tokens_per_second":   knownvalue.Float64Exact(8000),
				})),
				statecheck.ExpectKnownValue(svc, top.AtMapKey("estimate"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"requests_per_second":      numberBetween{40, 1e9},
					"tokens_per_second":        numberBetween{8000, 1e9},
					"time_to_first_token_ms":   numberBetween{0, 2000},
					"time_per_output_token_ms": numberBetween{0, 200},
				})),
			},
		}},
	})
}
