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

func TestSKUFunction_H100(t *testing.T) {
	t.Parallel()
	testFunctionOutputs(t, `
output "sku" {
  value = provider::hpcsku::sku("nd96isr_h100_v5")
}
output "rdma" {
  value = provider::hpcsku::sku("Standard_ND96isr_H100_v5").network.rdma
}`, map[string]knownvalue.Check{
		"sku": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"name":     knownvalue.StringExact("Standard_ND96isr_H100_v5"),
			"series":   knownvalue.StringExact("ND-H100-v5"),
			"category": knownvalue.StringExact("gpu"),
			"vcpus":    knownvalue.Int64Exact(96),
			"gpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"count":            knownvalue.Float64Exact(8),
				"model_id":         knownvalue.StringExact("h100-sxm-80gb"),
				"memory_gib_total": knownvalue.Float64Exact(640),
			}),
			"network": knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"infiniband":      knownvalue.StringExact("NDR"),
				"infiniband_gbps": knownvalue.Int64Exact(3200),
			}),
			"lifecycle": knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"status":          knownvalue.StringExact("ga"),
				"retirement_date": knownvalue.Null(),
			}),
			// A function takes no region, so there is no price.
			"price": knownvalue.Null(),
			"performance": knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"gpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"bf16_tflops":          knownvalue.Float64Exact(989.5),
					"memory_bandwidth_gbs": knownvalue.Float64Exact(3350),
				}),
				"cpu": knownvalue.Null(),
			}),
			"priced_regions": knownvalue.NotNull(),
			"availability": knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"available": knownvalue.Null(),
				"regions":   knownvalue.NotNull(),
			}),
		}),
		"rdma": knownvalue.Bool(true),
	})
}

// The function returns exactly the object hpcsku_sku returns in `sku` when
// no region is set and the provider's as_of is today.
func TestSKUFunction_SameAsDataSource(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{{
			Config: `
locals {
  sizes = ["Standard_ND96isr_H100_v5", "Standard_NC24rs_v3", "Standard_HB176rs_v4", "Standard_NV6ads_A10_v5", "Standard_ND96isr_MI300X_v5"]
}
data "hpcsku_sku" "each" {
  count = length(local.sizes)
  name  = local.sizes[count.index]
}
output "same" {
  value = [for i, s in local.sizes : provider::hpcsku::sku(s) == data.hpcsku_sku.each[i].sku]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("same", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.Bool(true), knownvalue.Bool(true), knownvalue.Bool(true), knownvalue.Bool(true), knownvalue.Bool(true),
				})),
			},
		}},
	})
}

// Functions judge the lifecycle at today's date (the test clock, 2026-11-22),
// whatever the provider's as_of says: Terraform does not configure the
// provider for function calls.
func TestSKUFunction_IgnoresProviderAsOf(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		TerraformVersionChecks:   functionVersionChecks,
		Steps: []resource.TestStep{{
			Config: `
provider "hpcsku" {
  as_of = "2027-06-01"
}
data "hpcsku_sku" "hc44" {
  name = "Standard_HC44rs"
}
output "function_status" {
  value = provider::hpcsku::sku("Standard_HC44rs").lifecycle.status
}
output "data_source_status" {
  value = data.hpcsku_sku.hc44.sku.lifecycle.status
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				// HC44rs retires on 2027-05-31: after 2026-11-22, before 2027-06-01.
				statecheck.ExpectKnownOutputValue("function_status", knownvalue.StringExact("retiring")),
				statecheck.ExpectKnownOutputValue("data_source_status", knownvalue.StringExact("retired")),
			},
		}},
	})
}

// A size chosen by a variable can be checked in an output precondition with
// the facts the function returns.
func TestSKUFunction_Precondition(t *testing.T) {
	t.Parallel()
	cfg := `
variable "size" {
  type = string
}
output "size" {
  value = provider::hpcsku::sku(var.size).name
  precondition {
    condition     = provider::hpcsku::sku(var.size).network.rdma
    error_message = "${var.size} has no RDMA network; multi-node MPI needs an RDMA (InfiniBand) size."
  }
}`
	testGuard(t, cfg, config.Variables{"size": config.StringVariable("Standard_NC4as_T4_v3")}, "Standard_NC4as_T4_v3 has no RDMA network; multi-node MPI needs an RDMA (InfiniBand) size.",
		config.Variables{"size": config.StringVariable("hb176rs_v4")}, "size", knownvalue.StringExact("Standard_HB176rs_v4"))
}

func TestSKUFunction_Errors(t *testing.T) {
	t.Parallel()
	testFunctionErrors(t, withSizeNameErrors(`provider::hpcsku::sku(%s)`, map[string]functionErrorCase{
		"unknown name": {
			call: `provider::hpcsku::sku("Standard_ND96isr_H100_v9")`,
			err: wrapped(`Invalid value for "name" parameter: Unknown VM Size:`) +
				`[\s\S]*` + suggests("Standard_ND96isr_H100_v5"),
		},
	}))
}
