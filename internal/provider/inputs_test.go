// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// A misspelled region is checked before any ranking: it is the only
// diagnostic, on region, with the closest names, and no "No VM Size Fits"
// follows it.
func TestMisspelledRegionIsTheOnlyError(t *testing.T) {
	t.Parallel()
	s := newProtoServer(t)
	resp, err := s.ReadDataSource(context.Background(), s.readRequest(t, "hpcsku_recommendation", map[string]tftypes.Value{
		"workload": str("training"),
		"model":    modelValue(map[string]tftypes.Value{"parameters_billion": num(7)}),
		"region":   str("eastus3"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("want one diagnostic, got:\n%s", diagsString(resp.Diagnostics))
	}
	d := resp.Diagnostics[0]
	if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != "Unknown Region" || !strings.Contains(d.Detail, "Did you mean one of: eastus, eastus2") ||
		d.Attribute == nil || d.Attribute.String() != `AttributeName("region")` {
		t.Errorf("got %s", diagsString(resp.Diagnostics))
	}
}

// requirements.defaults lists the values chosen for the user, and a Hugging
// Face id is estimated as the model it names, with a warning.
func TestRequirementsDefaultsAndModelAliases(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `data "hpcsku_recommendation" "x" {
  workload       = "inference"
  model          = { name = "meta-llama/Llama-3.1-8B-Instruct" }
}
data "hpcsku_recommendation" "hpc" {
  workload = "hpc"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", tfjsonpath.New("requirements").AtMapKey("model"), knownvalue.StringExact("llama-3.1-8b")),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", tfjsonpath.New("requirements").AtMapKey("defaults"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"context_tokens":      knownvalue.StringExact("4096"),
					"concurrent_requests": knownvalue.StringExact("8"),
					"model.precision":     knownvalue.StringExact("bf16"),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.hpc", tfjsonpath.New("requirements").AtMapKey("defaults"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"nodes":     knownvalue.StringExact("1"),
					"hpc_bound": knownvalue.StringExact("memory_bandwidth"),
				})),
			},
		}},
	})
}

// With regions, each recommendation names the region chosen for it, one of
// the list, and the price cap applies there.
func TestRegionsChooseARegionPerSize(t *testing.T) {
	t.Parallel()
	regions := []string{"eastus", "westeurope", "southcentralus"}
	inList := knownvalue.StringFunc(func(v string) error {
		for _, r := range regions {
			if v == r {
				return nil
			}
		}
		return fmt.Errorf("region %q is not one of %v", v, regions)
	})
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `data "hpcsku_recommendation" "x" {
  workload           = "training"
  model              = { parameters_billion = 70 }
  regions            = ["eastus", "westeurope", "southcentralus"]
  max_price_per_hour = 200
  max_results        = 10
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", tfjsonpath.New("recommendations"), listEvery{attrCheck("region", inList)}),
			},
		}},
	})
}

// With usage_files, each recommendation carries its quota: the H100 size,
// whose family limit in eastus is 0, is insufficient and ranks after every
// size whose quota suffices or is unknown (an unknown quota costs points,
// not a place); require_quota removes it.
func TestUsageFilesGiveEachRecommendationItsQuota(t *testing.T) {
	t.Parallel()
	usage := fixture(t, "usage_eastus.json")
	provider := "provider \"hpcsku\" {\n  as_of = \"2026-11-22\"\n  usage_files = { eastus = \"" + usage + "\" }\n}\n"
	const serve = `
data "hpcsku_recommendation" "x" {
  workload    = "inference"
  model       = { name = "llama-3.1-8b" }
  region      = "eastus"
  max_results = 50
}
data "hpcsku_recommendation" "strict" {
  workload      = "inference"
  model         = { name = "llama-3.1-8b" }
  region        = "eastus"
  max_results   = 50
  require_quota = true
}
output "h100_quota" {
  value = one([for r in data.hpcsku_recommendation.x.recommendations : r.quota if r.vm_size == "Standard_ND96isr_H100_v5"])
}
output "first_status" {
  value = data.hpcsku_recommendation.x.recommendations[0].quota.status
}
output "strict_has_h100" {
  value = contains(data.hpcsku_recommendation.strict.vm_sizes, "Standard_ND96isr_H100_v5")
}
`
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: provider + serve,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("h100_quota", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"family":                   knownvalue.StringExact("standardNDSH100v5Family"),
					"vcpus_needed":             knownvalue.Int64Exact(96),
					"family_vcpus_available":   knownvalue.Int64Exact(0),
					"regional_vcpus_available": knownvalue.Int64Exact(214),
					"status":                   knownvalue.StringExact("insufficient"),
				})),
				statecheck.ExpectKnownOutputValue("first_status", stringOneOf{"sufficient", "unknown"}),
				statecheck.ExpectKnownOutputValue("strict_has_h100", knownvalue.Bool(false)),
			},
		}},
	})
}

// With an availability file, deployment.zones are the zones of the
// recommendation's region the subscription can deploy the size to (zone 2
// of eastus2 is restricted for the H100 size); without it, null.
func TestDeploymentZones(t *testing.T) {
	t.Parallel()
	const h100 = `
data "hpcsku_recommendation" "x" {
  workload   = "inference"
  model      = { parameters_billion = 70 }
  region     = "eastus2"
  gpu_models = ["h100-sxm-80gb"]
}
`
	zones := tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("deployment").AtMapKey("zones")
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(map[string]string{"availability_file": fixture(t, "availability.json")}) + h100,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_ND96isr_H100_v5")),
					statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", zones, stringList("1", "3")),
				},
			},
			{
				Config: providerBlock(nil) + strings.Replace(h100, "eastus2", "eastus", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.hpcsku_recommendation.x", zones, knownvalue.Null()),
				},
			},
		},
	})
}
