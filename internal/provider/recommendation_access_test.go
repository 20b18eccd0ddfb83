// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// Sizes a team can get, on the embedded catalog. The quickstart's request
// (7B fine-tuning on AKS in East US) ranks no size offered on request and
// counts Standard_ND96is_H100_v5 under on_request; prefer and
// include_on_request each bring it back. A 70B model on 15,000 billion
// tokens within 2,160 hours on GB200 runs on whole racks past the 100 VMs
// of one placement group, within the deadline; max_nodes = 40 caps every
// layout of a 70B pretraining job.
func TestRecommendationDataSource_SizesATeamCanGet(t *testing.T) {
	t.Parallel()
	const onRequest = "Standard_ND96is_H100_v5"
	recs := tfjsonpath.New("recommendations")
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "quickstart" {
  workload    = "fine_tuning"
  model       = { parameters_billion = 7, precision = "bf16" }
  target      = "aks"
  region      = "eastus"
  max_results = 20
}
data "hpcsku_recommendation" "preferred" {
  workload = "fine_tuning"
  model    = { parameters_billion = 7, precision = "bf16" }
  target   = "aks"
  region   = "eastus"
  prefer   = ["` + onRequest + `"]
}
data "hpcsku_recommendation" "opted_in" {
  workload           = "fine_tuning"
  model              = { parameters_billion = 7, precision = "bf16" }
  target             = "aks"
  region             = "eastus"
  include_on_request = true
  max_results        = 20
}
data "hpcsku_recommendation" "gb200" {
  workload       = "training"
  model          = { parameters_billion = 70 }
  tokens_billion = 15000
  deadline_hours = 2160
  gpu_models     = ["gb200"]
  target         = "vmss"
}
data "hpcsku_recommendation" "capped" {
  workload       = "training"
  model          = { parameters_billion = 70 }
  tokens_billion = 1400
  max_nodes      = 40
  max_results    = 20
}
output "quickstart_has_it" {
  value = contains(data.hpcsku_recommendation.quickstart.vm_sizes, "` + onRequest + `")
}
output "opted_in_has_it" {
  value = contains(data.hpcsku_recommendation.opted_in.vm_sizes, "` + onRequest + `")
}
output "capped_ranked" {
  value = length(data.hpcsku_recommendation.capped.recommendations) > 1
}
output "gb200_whole_racks" {
  value = data.hpcsku_recommendation.gb200.recommendations[0].nodes % 18 == 0 && data.hpcsku_recommendation.gb200.recommendations[0].deployment.interconnect.racks * 18 == data.hpcsku_recommendation.gb200.recommendations[0].nodes
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("quickstart_has_it", knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.quickstart", tfjsonpath.New("rejected"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"constraint": knownvalue.StringExact("on_request"),
					"count":      knownvalue.Int64Exact(1),
					"examples":   stringList(onRequest),
				})}),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.preferred", tfjsonpath.New("vm_size"), knownvalue.StringExact(onRequest)),
				statecheck.ExpectKnownOutputValue("opted_in_has_it", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.gb200", recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size": knownvalue.StringExact("Standard_ND128isr_NDR_GB200_v6"),
					"nodes":   numberBetween{101, 504},
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.gb200", recs.AtSliceIndex(0).AtMapKey("estimate").AtMapKey("job_hours"), numberBetween{0, 2160}),
				statecheck.ExpectKnownOutputValue("gb200_whole_racks", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.capped", recs, listEvery{attrCheck("nodes", numberBetween{1, 40})}),
				statecheck.ExpectKnownOutputValue("capped_ranked", knownvalue.Bool(true)),
			},
		}},
	})
}

// An unknown quota costs 5 points, not a place after every sufficient one:
// on the fixture catalog, with a usage file that gives only the H100 NVL's
// family (room to spare), the 8B service of 32 conversations at 8,192
// tokens still ranks the A100 80 GB first (100 points without usage files,
// 95 with its quota unknown) ahead of the H100 NVL (88.2, sufficient).
func TestRecommendationDataSource_UnknownQuotaLeadingRanksFirst(t *testing.T) {
	t.Parallel()
	provider := "provider \"hpcsku\" {\n  as_of = \"2026-11-22\"\n  usage_files = { eastus = \"" + fixture(t, "usage_eastus_h100nvl_only.json") + "\" }\n}\n"
	const ds = "data.hpcsku_recommendation.serve"
	recs := tfjsonpath.New("recommendations")
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: provider + `
data "hpcsku_recommendation" "serve" {
  workload            = "inference"
  model               = { name = "llama-3.1-8b" }
  context_tokens      = 8192
  concurrent_requests = 32
  region              = "eastus"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, recs.AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size": knownvalue.StringExact("Standard_NC24ads_A100_v4"),
					"score":   knownvalue.Float64Exact(95),
				})),
				statecheck.ExpectKnownValue(ds, recs.AtSliceIndex(0).AtMapKey("quota").AtMapKey("status"), knownvalue.StringExact("unknown")),
				statecheck.ExpectKnownValue(ds, recs.AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vm_size": knownvalue.StringExact("Standard_NC40ads_H100_v5"),
					"score":   knownvalue.Float64Exact(88.2),
				})),
				statecheck.ExpectKnownValue(ds, recs.AtSliceIndex(1).AtMapKey("quota").AtMapKey("status"), knownvalue.StringExact("sufficient")),
			},
		}},
	})
}

// The documentation of usage_files and of each recommendation's quota says
// what the ranking does (the test above): an unknown quota ranks with the
// sufficient ones at a cost of QuotaUnknownPenalty points, the insufficient
// after them; neither puts every unknown quota after every sufficient one.
func TestQuotaDescriptionsStateTheUnknownPenalty(t *testing.T) {
	t.Parallel()
	recs, ok := recommendationOutputAttributes()["recommendations"].(schema.ListNestedAttribute)
	if !ok {
		t.Fatal("recommendations is not a list of objects")
	}
	penalty := fmt.Sprintf("costing %g points", recommend.QuotaUnknownPenalty)
	for name, desc := range map[string]string{
		"usage_files":              usageFilesAttribute().MarkdownDescription,
		"recommendations[*].quota": recs.NestedObject.Attributes["quota"].GetMarkdownDescription(),
	} {
		if !strings.Contains(desc, penalty) || !strings.Contains(desc, "rank together") {
			t.Errorf("%s does not say that unknown and sufficient quotas rank together, an unknown one %s:\n%s", name, penalty, desc)
		}
		for _, wrong := range []string{"then `unknown`", "before those whose quota is unknown"} {
			if strings.Contains(desc, wrong) {
				t.Errorf("%s says %q:\n%s", name, wrong, desc)
			}
		}
	}
}
