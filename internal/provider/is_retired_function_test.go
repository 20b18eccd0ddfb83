// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// The test clock is 2026-11-22.
func TestIsRetiredFunction(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "v100" {
  # Retired on 2025-09-30.
  value = provider::hpcsku::is_retired("Standard_NC24rs_v3")
}
output "v100_short_lowercase" {
  value = provider::hpcsku::is_retired("nc24rs_v3")
}
output "h100" {
  # No retirement announced.
  value = provider::hpcsku::is_retired("Standard_ND96isr_H100_v5")
}
output "nvv3" {
  # Retired on 2026-09-30.
  value = provider::hpcsku::is_retired("Standard_NV12s_v3")
}
output "hc44" {
  # Retiring on 2027-05-31, still ahead.
  value = provider::hpcsku::is_retired("Standard_HC44rs")
}`, map[string]knownvalue.Check{
		"v100":                 knownvalue.Bool(true),
		"v100_short_lowercase": knownvalue.Bool(true),
		"h100":                 knownvalue.Bool(false),
		"nvv3":                 knownvalue.Bool(true),
		"hc44":                 knownvalue.Bool(false),
	})
}

// is_retired agrees with hpcsku_sku.retired when the provider's as_of is
// today, and ignores an as_of set in the provider block.
func TestIsRetiredFunction_ProviderAsOf(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{
			{
				Config: `
data "hpcsku_sku" "nvv3" {
  name = "Standard_NV12s_v3"
}
output "agree" {
  value = provider::hpcsku::is_retired("Standard_NV12s_v3") == data.hpcsku_sku.nvv3.retired
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("agree", knownvalue.Bool(true)),
				},
			},
			{
				// HC44rs retires on 2027-05-31: after today (2026-11-22),
				// before the provider's as_of.
				Config: `
provider "hpcsku" {
  as_of = "2027-06-01"
}
data "hpcsku_sku" "hc44" {
  name = "Standard_HC44rs"
}
output "function" {
  value = provider::hpcsku::is_retired("Standard_HC44rs")
}
output "data_source" {
  value = data.hpcsku_sku.hc44.retired
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("function", knownvalue.Bool(false)),
					statecheck.ExpectKnownOutputValue("data_source", knownvalue.Bool(true)),
				},
			},
		},
	})
}

// A variable validation rejects a retired size and names its replacement.
// Terraform 1.8 allows functions in a validation that refers to its own
// variable only.
func TestIsRetiredFunction_VariableValidation(t *testing.T) {
	t.Parallel()
	cfg := `
variable "gpu_size" {
  type = string
  validation {
    condition     = !provider::hpcsku::is_retired(var.gpu_size)
    error_message = "${var.gpu_size} is retired; use ${join(" or ", provider::hpcsku::sku(var.gpu_size).lifecycle.replacement_sizes)}."
  }
}
output "gpu_size" {
  value = var.gpu_size
}`
	// CycleCloud's Slurm template still ships this size as its GPU partition default.
	testGuard(t, cfg, config.Variables{"gpu_size": config.StringVariable("Standard_NC24rs_v3")}, "Standard_NC24rs_v3 is retired; use Standard_NC80adis_H100_v5.",
		config.Variables{"gpu_size": config.StringVariable("Standard_ND96isr_H100_v5")}, "gpu_size", knownvalue.StringExact("Standard_ND96isr_H100_v5"))
}

func TestIsRetiredFunction_Errors(t *testing.T) {
	t.Parallel()
	testFunctionErrors(t, withSizeNameErrors(`provider::hpcsku::is_retired(%s)`, map[string]functionErrorCase{
		"unknown name": {
			call: `provider::hpcsku::is_retired("Standard_NC24rs_v9")`,
			err: wrapped(`Invalid value for "name" parameter: Unknown VM Size: The size "Standard_NC24rs_v9" is not in the catalog`) +
				`[\s\S]*` + suggests("Standard_NC24rs_v3"),
		},
	}))
}
