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

// A reference run and a per-core licence reach the estimate: job hours and
// cost with the licences of the job, or the licences per hour without a
// run.
func TestRecommendationDataSource_ReferenceRunAndLicense(t *testing.T) {
	t.Parallel()
	est := tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("estimate")
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_recommendation" "run" {
  workload                   = "hpc"
  cores                      = 240
  region                     = "eastus"
  prefer                     = ["Standard_HB120rs_v3"]
  reference_run              = { vm_size = "Standard_HB120rs_v3", nodes = 2, hours = 4 }
  license_cost_per_core_hour = 0.5
}
data "hpcsku_recommendation" "hourly" {
  workload                   = "hpc"
  cores                      = 240
  region                     = "eastus"
  prefer                     = ["Standard_HB120rs_v3"]
  license_cost_per_core_hour = 0.5
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				// 2 HB120rs_v3 VMs at 3.6 USD/h run the 240 ranks as the
				// reference run did: 4 hours, 4 x (7.2 + 240 x 0.5) = 508.8 USD,
				// 480 of it licences.
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.run", est, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"job_hours":             knownvalue.Float64Exact(4),
					"job_cost_usd":          knownvalue.Float64Exact(508.8),
					"license_cost_usd":      knownvalue.Float64Exact(480),
					"license_cost_per_hour": knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_recommendation.hourly", est, knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"job_hours":             knownvalue.Null(),
					"job_cost_usd":          knownvalue.Null(),
					"license_cost_usd":      knownvalue.Null(),
					"license_cost_per_hour": knownvalue.Float64Exact(120),
				})),
			},
		}},
	})
}
