// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// The facts, prices and dates these tests pin are the fixture catalog's,
// which do not change with the embedded catalog's data.

func TestSKUDataSource_H100(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
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
				// Dense figures per GPU (decision D23: half NVIDIA's sparse datasheet figures).
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("performance").AtMapKey("gpu"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"bf16_tflops":          knownvalue.Float64Exact(989.5),
					"fp16_tflops":          knownvalue.Float64Exact(989.5),
					"fp8_tflops":           knownvalue.Float64Exact(1979),
					"fp4_tflops":           knownvalue.Null(),
					"fp64_tflops":          knownvalue.Float64Exact(34),
					"memory_bandwidth_gbs": knownvalue.Float64Exact(3350),
					"nvlink_gbs_per_gpu":   knownvalue.Float64Exact(900),
					"usable_memory_gib":    knownvalue.Float64Exact(79.65),
					"decisions":            knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("D23"), knownvalue.StringExact("D25"), knownvalue.StringExact("D48"), knownvalue.StringExact("D77")}),
					"training_mfu_by_kind": knownvalue.MapExact(map[string]knownvalue.Check{"vision": knownvalue.Float64Exact(0.18), "diffusion": knownvalue.Float64Exact(0.31)}),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("performance").AtMapKey("gpu").AtMapKey("sources").AtMapKey("bf16_tflops"),
					knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringExact("https://nvidia.com/en-us/data-center/h100/")})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("performance").AtMapKey("gpu").AtMapKey("sources").AtMapKey("memory_bandwidth_gbs"),
					knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("performance").AtMapKey("cpu"), knownvalue.Null()),
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

// skuPerformanceCase is a size and the checks of its performance object.
type skuPerformanceCase struct {
	name   string
	checks map[string]knownvalue.Check // by path under performance, "a.b"
}

// skuPerformanceCases are the sizes TestSKUDataSource_Performance reads, by
// the kind of figures they have.
var skuPerformanceCases = map[string]skuPerformanceCase{
	// HBv4 publishes STREAM 780 GB/s for the full size and FP64 7.6
	// TFLOPS for 144 cores: 7,600 x 176/144 (decision D28).
	"published and scaled": {"Standard_HB176rs_v4", map[string]knownvalue.Check{
		"gpu": knownvalue.Null(),
		"cpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"cpu_model":         knownvalue.StringExact("AMD EPYC 9V33X (Genoa-X, 3D V-Cache)"),
			"cores":             knownvalue.Int64Exact(176),
			"base_ghz":          knownvalue.Float64Exact(2.55),
			"all_core_ghz":      knownvalue.Float64Exact(3.7),
			"stream_gbs":        knownvalue.Float64Exact(780),
			"fp64_peak_gflops":  knownvalue.Float64Exact(9288.89),
			"fp64_peak_derived": knownvalue.Bool(false),
		}),
		"cpu.sources.fp64_peak_gflops": knownvalue.ListPartial(map[int]knownvalue.Check{
			0: knownvalue.StringExact("scaled: 7600 GFLOPS published for 144 cores x 176/144 cores"),
		}),
		// The size STREAM was measured on: its sources, no "scaled:" note.
		"cpu.sources.stream_gbs": knownvalue.ListPartial(map[int]knownvalue.Check{
			0: knownvalue.StringRegexp(regexp.MustCompile(`^MicrosoftDocs/azure-compute-docs:articles/virtual-machines/sizes/high-performance-compute/hbv4-performance\.md@`)),
		}),
	}},
	// A constrained-core size keeps its parent's bandwidth; its FP64
	// peak scales with its 24 active cores: 7,600 x 24/144.
	"constrained core": {"Standard_HB176-24rs_v4", map[string]knownvalue.Check{
		"cpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"cores":            knownvalue.Int64Exact(24),
			"stream_gbs":       knownvalue.Float64Exact(780),
			"fp64_peak_gflops": knownvalue.Float64Exact(1266.67),
		}),
		"cpu.sources.stream_gbs": knownvalue.ListPartial(map[int]knownvalue.Check{
			0: knownvalue.StringRegexp(regexp.MustCompile(`^scaled: a constrained-core size keeps the memory bandwidth of its 176-vCPU parent`)),
		}),
	}},
	// Fsv2 has no published peak: 36 cores x 2.5 GHz, the all-core
	// AVX-512 clock of one of its processors, x 32 (decision D29).
	"derived": {"Standard_F72s_v2", map[string]knownvalue.Check{
		"gpu": knownvalue.Null(),
		"cpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"cores":             knownvalue.Int64Exact(36),
			"stream_gbs":        knownvalue.Float64Exact(163.16),
			"stream_derived":    knownvalue.Bool(true),
			"fp64_peak_gflops":  knownvalue.Float64Exact(2880),
			"fp64_peak_derived": knownvalue.Bool(true),
			"decisions":         knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("D29"), knownvalue.StringExact("D64")}),
		}),
		"cpu.sources.stream_gbs": knownvalue.ListPartial(map[int]knownvalue.Check{
			0: knownvalue.StringRegexp(regexp.MustCompile(`^derived: 36 cores of the host's 48 cores x \(2 sockets x 6 channels x 2666 MT/s`)),
		}),
		"cpu.sources.fp64_peak_gflops": knownvalue.ListPartial(map[int]knownvalue.Check{
			0: knownvalue.StringExact("derived: 36 cores x 2.5 GHz all-core FP64 clock x 32 FP64 FLOPs per cycle per core = 2880 GFLOPS (no published peak)"),
		}),
	}},
	// A single PCIe GPU: the A100 PCIe's bridge figure is not shown (D26).
	"no link": {"Standard_NC24ads_A100_v4", map[string]knownvalue.Check{
		"gpu": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"bf16_tflops":          knownvalue.Float64Exact(312),
			"fp8_tflops":           knownvalue.Null(),
			"memory_bandwidth_gbs": knownvalue.Float64Exact(1935),
			"nvlink_gbs_per_gpu":   knownvalue.Null(),
			"usable_memory_gib":    knownvalue.Null(),
		}),
		"cpu": knownvalue.Null(),
	}},
	// No source gives the V710's figures: the record holds nulls, no
	// sources and a note that says so.
	"unknown": {"Standard_NV12ads_V710_v5", map[string]knownvalue.Check{
		"gpu": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"fp64_tflops": knownvalue.Null(), "fp64_tensor_tflops": knownvalue.Null(), "fp32_tflops": knownvalue.Null(),
			"tf32_tflops": knownvalue.Null(), "bf16_tflops": knownvalue.Null(), "fp16_tflops": knownvalue.Null(),
			"fp8_tflops": knownvalue.Null(), "fp4_tflops": knownvalue.Null(), "int8_tops": knownvalue.Null(),
			"memory_bandwidth_gbs": knownvalue.Null(), "nvlink_gbs_per_gpu": knownvalue.Null(), "usable_memory_gib": knownvalue.Null(),
			"training_mfu": knownvalue.Null(), "training_mfu_by_kind": knownvalue.Null(),
			"sources":   knownvalue.MapSizeExact(0),
			"decisions": knownvalue.ListSizeExact(0),
			"notes":     knownvalue.StringRegexp(regexp.MustCompile(`^No AMD figure for the V710`)),
		}),
		"cpu": knownvalue.Null(),
	}},
}

// TestSKUDataSource_Performance checks the performance object of sizes whose
// figures are published, scaled, derived or unknown.
func TestSKUDataSource_Performance(t *testing.T) {
	t.Parallel()
	perf := tfjsonpath.New("sku").AtMapKey("performance")
	// One data source per case, all read in one run.
	var config strings.Builder
	var checks []statecheck.StateCheck
	for _, name := range slices.Sorted(maps.Keys(skuPerformanceCases)) {
		c := skuPerformanceCases[name]
		label := strings.ReplaceAll(name, " ", "_")
		fmt.Fprintf(&config, "data \"hpcsku_sku\" %q {\n  name = %q\n}\n", label, c.name)
		for p, check := range c.checks {
			path := perf
			for _, k := range strings.Split(p, ".") {
				path = path.AtMapKey(k)
			}
			checks = append(checks, statecheck.ExpectKnownValue("data.hpcsku_sku."+label, path, check))
		}
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps:                    []resource.TestStep{{Config: config.String(), ConfigStateChecks: checks}},
	})
}

// TestSKUDataSource_MemoryQuotaDeployable checks the figures where sources
// disagree on what a VM gets (decisions D45, D46) and a size no deployable
// list names (D44).
func TestSKUDataSource_MemoryQuotaDeployable(t *testing.T) {
	t.Parallel()
	sku := func() tfjsonpath.Path { return tfjsonpath.New("sku") }
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_sku" "a100" {
  name = "Standard_ND96amsr_A100_v4"
}
data "hpcsku_sku" "constrained" {
  name = "Standard_HB120-16rs_v3"
}
data "hpcsku_sku" "h100" {
  name = "Standard_ND96isr_H100_v5"
}
data "hpcsku_sku" "nvv3" {
  name = "Standard_NV12hs_v3"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.a100", sku(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"memory_gib":          knownvalue.Float64Exact(1900),
					"memory_gib_allotted": knownvalue.Float64Exact(1800),
					"vcpus":               knownvalue.Int64Exact(96),
					"quota_vcpus":         knownvalue.Int64Exact(96),
					"deployable":          knownvalue.Bool(true),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.constrained", sku(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"vcpus":               knownvalue.Int64Exact(16),
					"quota_vcpus":         knownvalue.Int64Exact(120),
					"memory_gib":          knownvalue.Float64Exact(448),
					"memory_gib_allotted": knownvalue.Float64Exact(456),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", sku(), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"memory_gib_allotted": knownvalue.Null(),
					"quota_vcpus":         knownvalue.Int64Exact(96),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.nvv3", sku().AtMapKey("deployable"), knownvalue.Bool(false)),
			},
		}},
	})
}

func TestSKUDataSource_Retired(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_sku" "v100" {
  name = "Standard_NC24rs_v3"
}
data "hpcsku_sku" "v100_eastus" {
  name   = "Standard_NC24rs_v3"
  region = "eastus"
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
				// Retired: priced in eastus and westeurope, deployable nowhere.
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100_eastus", tfjsonpath.New("sku").AtMapKey("availability"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"available": knownvalue.Bool(false),
					"regions":   knownvalue.ListSizeExact(0),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100_eastus", tfjsonpath.New("sku").AtMapKey("priced_regions"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("eastus"), knownvalue.StringExact("westeurope"),
				})),
			},
		}},
	})
}

func TestSKUDataSource_AsOfBeforeRetirement(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
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

// Every lifecycle judgement is made at as_of: a size the catalog records as
// retired (NCv3, on 2025-09-30) is running and retiring at an as_of before
// its date, and hpcsku_catalog lists it without include_retired.
func TestSKUDataSource_AsOfBeforeARetiredSizesDate(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
provider "hpcsku" {
  as_of = "2025-06-01"
}
data "hpcsku_sku" "v100" {
  name   = "Standard_NC24rs_v3"
  region = "eastus"
}
data "hpcsku_catalog" "ncv3" {
  series = ["NCv3"]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("retired"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("days_until_retirement"), knownvalue.Int64Exact(121)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("sku").AtMapKey("lifecycle").AtMapKey("status"), knownvalue.StringExact("retiring")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("sku").AtMapKey("lifecycle").AtMapKey("catalog_status"), knownvalue.StringExact("retired")),
				statecheck.ExpectKnownValue("data.hpcsku_sku.v100", tfjsonpath.New("sku").AtMapKey("availability").AtMapKey("available"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.ncv3", tfjsonpath.New("skus"), knownvalue.ListSizeExact(1)),
			},
		}},
	})
}

func TestSKUDataSource_Errors(t *testing.T) {
	t.Parallel()
	cases := map[string]errorCase{
		"unknown name": {
			config: `data "hpcsku_sku" "x" { name = "Standard_ND96isr_H100_v9" }`,
			err:    `Unknown VM Size[\s\S]*` + suggests("Standard_ND96isr_H100_v5"),
		},
		"empty name": {
			config: `data "hpcsku_sku" "x" { name = "" }`,
			err:    `Missing Name[\s\S]*A size name is required[\s\S]*Standard_ND96isr_H100_v5`,
		},
		"blank name": {
			config: `data "hpcsku_sku" "x" { name = "  " }`,
			err:    `Missing Name[\s\S]*A size name is required[^?]*Standard_ND96isr_H100_v5\.`,
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
	testErrors(t, testProviderFactories(t), nil, cases)
}

// The warning hpcsku_sku adds on name: retired, or retiring within
// catalog.RetirementWarningMonths, with what to move to.
func TestRetirementWarning(t *testing.T) {
	t.Parallel()
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
		// Status retired, its date to come: retiring until then (D83).
		{sku(catalog.StatusRetired, "2027-01-31", nil, nil), "2026-11-22", "Standard_X retires on 2027-01-31, in 70 days. Plan the move to a newer size."},
		{sku(catalog.StatusGA, "", nil, nil), "2026-11-22", ""},
	} {
		if got := retirementWarning(c.sku, catalogtest.Day(t, c.asOf)); got != c.want {
			t.Errorf("retirementWarning(%+v, %s) = %q, want %q", c.sku.Lifecycle, c.asOf, got, c.want)
		}
	}
}
