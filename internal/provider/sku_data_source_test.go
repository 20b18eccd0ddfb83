package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

func TestSKUDataSource_H100(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_sku" "h100" {
  name   = "standard_nd96isr_h100_v5"
  region = "EastUS"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("name"), knownvalue.StringExact("Standard_ND96isr_H100_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("vcpus"), knownvalue.Int64Exact(96)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("memory_gib"), knownvalue.Float64Exact(1900)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("gpu"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"count":              knownvalue.Float64Exact(8),
					"model_id":           knownvalue.StringExact("h100-sxm-80gb"),
					"vendor":             knownvalue.StringExact("nvidia"),
					"memory_gib":         knownvalue.Float64Exact(80),
					"memory_gib_total":   knownvalue.Float64Exact(640),
					"interconnect":       knownvalue.StringExact("NVLink 4.0"),
					"compute_capability": knownvalue.StringExact("9.0"),
					"min_cuda":           knownvalue.StringExact("11.8"),
					"max_cuda_major":     knownvalue.Int64Exact(13),
					"gfx_target":         knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("network"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"rdma":             knownvalue.Bool(true),
					"infiniband":       knownvalue.StringExact("NDR"),
					"infiniband_gbps":  knownvalue.Int64Exact(3200),
					"infiniband_ports": knownvalue.Int64Exact(8),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("price"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"region":        knownvalue.StringExact("eastus"),
					"usd_per_hour":  knownvalue.Float64Exact(98.32),
					"snapshot_date": knownvalue.StringExact("2026-06-18"),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("lifecycle").AtMapKey("status"), knownvalue.StringExact("ga")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("support").AtMapKey("aks").AtMapKey("status"), knownvalue.StringExact("supported")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("image").AtMapKey("urn"), knownvalue.StringExact("microsoft-dsvm:ubuntu-hpc:2404:latest")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("retired"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("days_until_retirement"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("replacements"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("as_of"), knownvalue.StringExact("2026-11-22")),
			},
		}},
	})
}

func TestSKUDataSource_Retired(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_sku" "v100" {
  name = "Standard_NC24rs_v3"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("retired"), knownvalue.Bool(true)),
				// 2025-09-30 is 418 days before 2026-11-22.
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("days_until_retirement"), knownvalue.Int64Exact(-418)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("replacements"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Standard_NC80adis_H100_v5")})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("sku").AtMapKey("lifecycle"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"status":          knownvalue.StringExact("retired"),
					"retirement_date": knownvalue.StringExact("2025-09-30"),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("sku").AtMapKey("price"), knownvalue.Null()),
			},
		}},
	})
}

func TestSKUDataSource_AsOfBeforeRetirement(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
provider "hpcsku" {
  as_of = "2026-01-01"
}
data "hpcsku_sku" "nvv3" {
  name = "NV12s_v3"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", tfjsonpath.New("sku").AtMapKey("name"), knownvalue.StringExact("Standard_NV12s_v3")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", tfjsonpath.New("retired"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", tfjsonpath.New("days_until_retirement"), knownvalue.Int64Exact(272)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", tfjsonpath.New("sku").AtMapKey("lifecycle").AtMapKey("status"), knownvalue.StringExact("retiring")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", tfjsonpath.New("replacements"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Standard_NV12ads_A10_v5")})),
			},
		}},
	})
}

func TestSKUDataSource_Errors(t *testing.T) {
	cases := map[string]struct {
		config string
		err    string
	}{
		"unknown name": {
			config: `data "hpcsku_sku" "x" { name = "Standard_ND96isr_H100_v9" }`,
			err:    `Unknown VM Size[\s\S]*Did you mean one of:\s+Standard_ND96isr_H100_v5,\s+Standard_ND96isr_H200_v5`,
		},
		"empty name": {
			config: `data "hpcsku_sku" "x" { name = "" }`,
			err:    `Attribute name string length must be at least 1`,
		},
		"unknown region": {
			config: `data "hpcsku_sku" "x" {
  name   = "Standard_NC4as_T4_v3"
  region = "mars-north"
}`,
			err: `Unknown Region[\s\S]*"mars-north" is not in the catalog[\s\S]*eastus`,
		},
		"bad as_of": {
			config: `provider "hpcsku" {
  as_of = "2026-02-30"
}
data "hpcsku_sku" "x" { name = "Standard_NC4as_T4_v3" }`,
			err: `Invalid Date[\s\S]*"2026-02-30" is not an RFC 3339 date`,
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

// The warning hpcsku_sku adds on name: retired, or retiring within
// catalog.RetirementWarningMonths, with what to move to.
func TestRetirementWarning(t *testing.T) {
	sku := func(status, date string, sizes, series []string) *catalog.SKU {
		return &catalog.SKU{Name: "Standard_X", Lifecycle: catalog.Lifecycle{Status: status, RetirementDate: date, ReplacementSizes: sizes, ReplacementSeries: series}}
	}
	for _, c := range []struct {
		sku  *catalog.SKU
		asOf string
		want string
	}{
		{sku(catalog.StatusRetired, "2025-09-30", []string{"Standard_A"}, nil), "2026-11-22", "Standard_X retired on 2025-09-30. Move to Standard_A."},
		{sku(catalog.StatusRetiring, "2026-09-30", []string{"Standard_A", "Standard_B"}, []string{"A"}), "2026-01-01",
			"Standard_X retires on 2026-09-30, in 272 days. Plan the move to Standard_A or Standard_B."},
		// 2028-11-22 is 731 days, and 24 months, after 2026-11-22.
		{sku(catalog.StatusRetiring, "2028-11-22", nil, []string{"HBv5"}), "2026-11-22", "Standard_X retires on 2028-11-22, in 731 days. Plan the move to the HBv5 series."},
		{sku(catalog.StatusRetiring, "2028-11-23", nil, []string{"HBv5"}), "2026-11-22", ""},
		{sku(catalog.StatusRetired, "", nil, nil), "2026-11-22", "Standard_X is retired. Move to a newer size."},
		{sku(catalog.StatusRetired, "2027-01-31", nil, nil), "2026-11-22", "Standard_X is retired, ahead of its announced retirement date 2027-01-31. Move to a newer size."},
		{sku(catalog.StatusGA, "", nil, nil), "2026-11-22", ""},
	} {
		if got := retirementWarning(c.sku, catalogtest.Day(t, c.asOf)); got != c.want {
			t.Errorf("retirementWarning(%+v, %s) = %q, want %q", c.sku.Lifecycle, c.asOf, got, c.want)
		}
	}
}
