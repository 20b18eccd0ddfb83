// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Standard_HC44rs retires on 2027-05-31. From the test clock, 2026-11-22,
// 6 months is 2027-05-22 (before it) and 7 months is 2027-06-22 (after it).
func TestRetiresWithinFunction(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "hc44_0" {
  value = provider::hpcsku::retires_within("Standard_HC44rs", 0)
}
output "hc44_6" {
  value = provider::hpcsku::retires_within("Standard_HC44rs", 6)
}
output "hc44_7" {
  value = provider::hpcsku::retires_within("hc44rs", 7)
}
output "v100_0" {
  # Already retired: true for any horizon.
  value = provider::hpcsku::retires_within("Standard_NC24rs_v3", 0)
}
output "h100_1200" {
  # No retirement announced: false for any horizon.
  value = provider::hpcsku::retires_within("Standard_ND96isr_H100_v5", 1200)
}`, map[string]knownvalue.Check{
		"hc44_0":    knownvalue.Bool(false),
		"hc44_6":    knownvalue.Bool(false),
		"hc44_7":    knownvalue.Bool(true),
		"v100_0":    knownvalue.Bool(true),
		"h100_1200": knownvalue.Bool(false),
	})
}

// The horizon is inclusive: with the clock at 2026-12-31, 5 months ends on
// 2027-05-31, Standard_HC44rs's retirement date. A day earlier it ends on
// 2027-05-30.
func TestRetiresWithinFunction_InclusiveHorizon(t *testing.T) {
	t.Parallel()
	factories := func(day time.Time) map[string]func() (tfprotov6.ProviderServer, error) {
		return map[string]func() (tfprotov6.ProviderServer, error){
			"hpcsku": providerserver.NewProtocol6WithError(NewTestProvider(testCatalog(t), func() time.Time { return day })()),
		}
	}
	cfg := `
output "hc44_5" {
  value = provider::hpcsku::retires_within("Standard_HC44rs", 5)
}`
	for _, c := range []struct {
		today time.Time
		want  bool
	}{
		{time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC), true},
		{time.Date(2026, 12, 30, 0, 0, 0, 0, time.UTC), false},
	} {
		t.Run(c.today.Format(catalog.DateLayout), func(t *testing.T) {
			t.Parallel()
			unitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories(c.today),
				TerraformVersionChecks:   functionVersionChecks,
				Steps: []resource.TestStep{{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownOutputValue("hc44_5", knownvalue.Bool(c.want)),
					}},
				}},
			})
		})
	}
}

// A check block reports a size that retires within the horizon as a warning
// without failing the plan, and passes for a size that does not.
func TestRetiresWithinFunction_CheckBlock(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{{
			Config: `
locals {
  partitions = {
    hpc = "Standard_HC44rs"
    gpu = "Standard_ND96isr_H100_v5"
  }
}
check "hpc_lifetime" {
  assert {
    condition     = !provider::hpcsku::retires_within(local.partitions.hpc, 12)
    error_message = "${local.partitions.hpc} retires on ${provider::hpcsku::sku(local.partitions.hpc).lifecycle.retirement_date}, within 12 months."
  }
}
check "gpu_lifetime" {
  assert {
    condition     = !provider::hpcsku::retires_within(local.partitions.gpu, 12)
    error_message = "${local.partitions.gpu} retires within 12 months."
  }
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				expectCheckBlock("hpc_lifetime", "fail", "Standard_HC44rs retires on 2027-05-31, within 12 months."),
				expectCheckBlock("gpu_lifetime", "pass", ""),
			}},
		}},
	})
}

func TestRetiresWithinFunction_Errors(t *testing.T) {
	t.Parallel()
	testFunctionErrors(t, withSizeNameErrors(`provider::hpcsku::retires_within(%s, 6)`, map[string]functionErrorCase{
		"unknown name": {
			call: `provider::hpcsku::retires_within("Standard_HC44rs_v9", 6)`,
			err: wrapped(`Invalid value for "name" parameter: Unknown VM Size: The size "Standard_HC44rs_v9" is not in the catalog`) +
				`[\s\S]*` + suggests("Standard_HC44rs"),
		},
		"negative months": {
			call: `provider::hpcsku::retires_within("Standard_HC44rs", -1)`,
			err:  wrapped(`Invalid value for "months" parameter: Invalid Month Count: months must be at least 0 and at most 1,200; got -1.`),
		},
		"too many months": {
			call: `provider::hpcsku::retires_within("Standard_HC44rs", 1201)`,
			err:  wrapped(`Invalid value for "months" parameter: Invalid Month Count: months must be at least 0 and at most 1,200; got 1201.`),
		},
		"fractional months": {
			call: `provider::hpcsku::retires_within("Standard_HC44rs", 1.5)`,
			err:  wrapped(`Invalid value for "months" parameter: Invalid Month Count: months must be a whole number; got 1.5.`),
		},
		"null months": {
			call: `provider::hpcsku::retires_within("Standard_HC44rs", null)`,
			err:  wrapped(`Invalid value for "months" parameter: argument must not be null.`),
		},
	}))
}
