// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

func TestDataSourceSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, f := range New("test")().DataSources(ctx) {
		ds := f()
		meta := &datasource.MetadataResponse{}
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "hpcsku"}, meta)
		resp := &datasource.SchemaResponse{}
		ds.Schema(ctx, datasource.SchemaRequest{}, resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, resp.Diagnostics)
		}
		if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, diags)
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Errorf("%s: no MarkdownDescription", meta.TypeName)
		}
		checkDescriptions(t, meta.TypeName, resp.Schema.Attributes)
	}
}

// checkDescriptions fails for every attribute, at any depth, without a
// MarkdownDescription.
func checkDescriptions(t *testing.T, prefix string, attrs map[string]schema.Attribute) {
	t.Helper()
	for name, a := range attrs {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s.%s: no MarkdownDescription", prefix, name)
		}
		switch n := a.(type) {
		case schema.SingleNestedAttribute:
			checkDescriptions(t, prefix+"."+name, n.Attributes)
		case schema.ListNestedAttribute:
			checkDescriptions(t, prefix+"."+name, n.NestedObject.Attributes)
		}
	}
}

// TestCatalogDataSource_AllSizes lists the fixture catalog: 19 sizes, of
// which 3 are retired on 2026-11-22 (H16r and NC24rs_v3 by status,
// NV12s_v3 whose 2026-09-30 retirement has passed).
func TestCatalogDataSource_AllSizes(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_catalog" "all" {
  include_retired = true
}
data "hpcsku_catalog" "current" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("skus"), knownvalue.ListSizeExact(19)),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("catalog_version"), knownvalue.StringExact("2026.11.0-fixture")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("data_date"), knownvalue.StringExact("2026-11-01")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("as_of"), knownvalue.StringExact("2026-11-22")),
				// Ordered by name: the first and last entries.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("skus").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("Standard_E104i_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.all", tfjsonpath.New("skus").AtSliceIndex(18).AtMapKey("name"), knownvalue.StringExact("Standard_NV6ads_A10_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.current", tfjsonpath.New("skus"), knownvalue.ListSizeExact(16)),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.current", tfjsonpath.New("skus"), listLacks{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("Standard_NV12s_v3"),
				})}),
			},
		}},
	})
}

// TestCatalogDataSource_EmbeddedCatalog lists the whole embedded catalog
// through the provider server, with and without retired sizes; what it
// expects is counted from the catalog, so a new size or price does not
// change this test. It calls the server without Terraform: the whole
// catalog's state is some megabytes, which each of the half-dozen Terraform
// commands of a test step would decode and write again, and Terraform's
// handling of this data source is what TestCatalogDataSource_AllSizes runs
// on the fixture catalog.
func TestCatalogDataSource_EmbeddedCatalog(t *testing.T) {
	t.Parallel()
	cat := testCatalog(t)
	skus := cat.SKUs()
	current := 0
	for _, s := range skus {
		if !s.RetiredAt(testAsOf) {
			current++
		}
	}
	if current == 0 || current == len(skus) {
		t.Fatalf("%d of %d sizes current on %s: the test needs both kinds", current, len(skus), testAsOf)
	}
	s := newProtoServer(t)
	all := s.readCatalog(t, map[string]tftypes.Value{"include_retired": tftypes.NewValue(tftypes.Bool, true)})
	if all.version != cat.Version {
		t.Errorf("catalog_version %q, want %q", all.version, cat.Version)
	}
	if want := cat.DataDate.Format(catalog.DateLayout); all.dataDate != want {
		t.Errorf("data_date %q, want %q", all.dataDate, want)
	}
	if n := all.names; len(n) != len(skus) || n[0] != skus[0].Name || n[len(n)-1] != skus[len(skus)-1].Name {
		t.Errorf("with include_retired: %d sizes from %v to %v; want %d from %s to %s",
			len(n), n[:min(1, len(n))], n[max(0, len(n)-1):], len(skus), skus[0].Name, skus[len(skus)-1].Name)
	}
	if got := s.readCatalog(t, nil).names; len(got) != current {
		t.Errorf("without include_retired: %d sizes, want %d", len(got), current)
	}
}

// TestCatalogDataSource_Filters filters the fixture catalog.
func TestCatalogDataSource_Filters(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_catalog" "ib_nvidia" {
  gpu_vendor = "nvidia"
  rdma       = true
}
data "hpcsku_catalog" "amd" {
  categories = ["gpu"]
  gpu_vendor = "amd"
}
data "hpcsku_catalog" "big_memory" {
  families           = ["nd"]
  gpu_vendor         = "nvidia"
  min_gpu_memory_gib = 600
}
data "hpcsku_catalog" "by_model" {
  gpu_models = ["h100-nvl-94gb", "NVIDIA A100 80GB PCIe"]
  min_gpus   = 1
}
data "hpcsku_catalog" "fractional" {
  series     = ["NVadsA10_v5", "NVads_V710_v5"]
  min_gpus   = 0.1
  name_regex = "A10"
}
data "hpcsku_catalog" "whole_nv" {
  families        = ["NV"]
  min_gpus        = 1
  include_retired = true
}
data "hpcsku_catalog" "westeurope_nd" {
  families = ["ND"]
  region   = "westeurope"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				// The retired NC24rs_v3 has InfiniBand too, but retired sizes are
				// listed only with include_retired.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.ib_nvidia", tfjsonpath.New("skus"), names(
					"Standard_ND40rs_v2", "Standard_ND96asr_v4", "Standard_ND96isr_H100_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.amd", tfjsonpath.New("skus"), names(
					"Standard_ND96isr_MI300X_v5", "Standard_NV4ads_V710_v5")),
				// 640 GiB; ND96asr_v4 has 320, ND40rs_v2 256.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.big_memory", tfjsonpath.New("skus"), names("Standard_ND96isr_H100_v5")),
				// A model id or a model name, in any case.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.by_model", tfjsonpath.New("skus"), names(
					"Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5", "Standard_NCC40ads_H100_v5")),
				// NV4ads_V710_v5 does not match the regex.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.fractional", tfjsonpath.New("skus"), names("Standard_NV6ads_A10_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.fractional", tfjsonpath.New("skus").AtSliceIndex(0).AtMapKey("gpu"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"count": knownvalue.Float64Func(func(v float64) error {
						if math.Abs(v-1.0/6) > 0.01 {
							return fmt.Errorf("count %v, want a sixth of a GPU", v)
						}
						return nil
					}),
					"memory_gib":       knownvalue.Float64Exact(4),
					"memory_gib_total": knownvalue.Float64Exact(4),
				})),
				// The sixths of a GPU are below min_gpus; the whole M60 of the
				// retired NV12s_v3 is not.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.whole_nv", tfjsonpath.New("skus"), names("Standard_NV12s_v3")),
				// The MI300X is priced only in eastus2.
				statecheck.ExpectKnownValue("data.hpcsku_catalog.westeurope_nd", tfjsonpath.New("skus"), names(
					"Standard_ND40rs_v2", "Standard_ND96asr_v4", "Standard_ND96isr_H100_v5")),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.westeurope_nd", tfjsonpath.New("skus").AtSliceIndex(1).AtMapKey("price"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"region":       knownvalue.StringExact("westeurope"),
					"usd_per_hour": knownvalue.Float64Exact(35.357),
				})),
			},
		}},
	})
}

// TestCatalogDataSource_Errors: each bad setting fails with its message. A
// name the catalog lacks is answered with suggestions, which must include
// the nearest name (more may join it as the catalog grows), and with the
// catalog's names.
func TestCatalogDataSource_Errors(t *testing.T) {
	t.Parallel()
	cat := testCatalog(t)
	cases := map[string]errorCase{
		"unknown family": {
			config: `data "hpcsku_catalog" "x" { families = ["NZ"] }`,
			err: `Unknown Family[\s\S]*` + wrapped(`The family "NZ" is not in the catalog`) + `[\s\S]*` +
				suggests("ND") + `\s+` + wrapped(`Use one of: `+strings.Join(cat.Families(), ", ")+`.`),
		},
		"unknown series": {
			config: `data "hpcsku_catalog" "x" { series = ["ND-H900-v9"] }`,
			err:    `Unknown Series[\s\S]*"ND-H900-v9" is not in the catalog`,
		},
		"unknown category": {
			config: `data "hpcsku_catalog" "x" { categories = ["tpu"] }`,
			err:    `value must be one of:\s+\["cpu"\s+"gpu"\s+"hpc"\]`,
		},
		"unknown vendor": {
			config: `data "hpcsku_catalog" "x" { gpu_vendor = "intel" }`,
			err:    `Attribute gpu_vendor value must be one of:\s+\["amd"\s+"nvidia"\]`,
		},
		"unknown gpu model": {
			config: `data "hpcsku_catalog" "x" { gpu_models = ["B100"] }`,
			err:    `Unknown GPU Model[\s\S]*"B100" is not in the catalog[\s\S]*h100-sxm-80gb`,
		},
		"negative min_gpus": {
			config: `data "hpcsku_catalog" "x" { min_gpus = -1 }`,
			err:    `Attribute min_gpus value must be at least 0`,
		},
		"negative min_gpu_memory_gib": {
			config: `data "hpcsku_catalog" "x" { min_gpu_memory_gib = -0.5 }`,
			err:    `Attribute min_gpu_memory_gib value must be at least 0`,
		},
		"invalid regex": {
			config: `data "hpcsku_catalog" "x" { name_regex = "Standard_(ND" }`,
			err:    `Invalid Regular Expression[\s\S]*"Standard_\(ND" is not a valid RE2 regular\s+expression`,
		},
		"unknown region": {
			config: `data "hpcsku_catalog" "x" { region = "East US" }`,
			err: `Unknown Region[\s\S]*` + wrapped(`The region "East US" is not in the catalog`) + `[\s\S]*` +
				suggests("eastus") + `\s+` + wrapped(`Use an Azure region name in lower case without spaces, one of: `+cat.Regions()[0]+`,`),
		},
		"empty families": {
			config: `data "hpcsku_catalog" "x" { families = [] }`,
			err:    `Attribute families list must contain at least 1 elements`,
		},
		"duplicate categories": {
			config: `data "hpcsku_catalog" "x" { categories = ["gpu", "gpu"] }`,
			err:    `This attribute contains duplicate values of: "gpu"`,
		},
		"bad as_of": {
			config: `provider "hpcsku" {
  as_of = "yesterday"
}
data "hpcsku_catalog" "x" {}`,
			err: `Invalid Date[\s\S]*` + wrapped(`The value "yesterday" is not an RFC 3339 date. Use a date such as "2026-01-01" or a date-time such as "2026-01-01T00:00:00Z".`),
		},
	}
	testErrors(t, testProviderFactories(t), nil, cases)
}

func TestCatalogDataSource_EmptyResultWarns(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_catalog" "none" {
  families   = ["E"]
  categories = ["gpu"]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_catalog.none", tfjsonpath.New("skus"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// TestCatalogDataSource_AddedSizes: with include_retired the catalog holds
// the Promo twins, the NC RTX PRO 6000 preview sizes superseded at GA and
// the sizes the Resource SKUs API lists without a size page (catalog
// decisions D36-D41); in eastus it lists the nine GA NC RTX PRO 6000 sizes
// with their eastus prices; Fsv2's replacement Falsv6 is there. It checks
// that these sizes are listed, with the catalog's prices and count, so a
// later size or price does not change it.
func TestCatalogDataSource_AddedSizes(t *testing.T) {
	t.Parallel()
	cat := testCatalog(t)
	listed := func(names ...string) []statecheck.StateCheck {
		var out []statecheck.StateCheck
		for _, n := range names {
			out = append(out, statecheck.ExpectKnownValue("data.hpcsku_catalog.added", tfjsonpath.New("skus"),
				listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact(n)})}))
		}
		return out
	}
	checks := listed("Standard_H16_Promo", "Standard_H16m_Promo", "Standard_H16mr_Promo", "Standard_H16r_Promo", "Standard_H8_Promo", "Standard_H8m_Promo",
		"Standard_NC128mds_xl_RTXPRO6000BSE_v6", "Standard_NC12_Promo", "Standard_NC16ads_A10_v4", "Standard_NC16lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC24_Promo", "Standard_NC24r_Promo", "Standard_NC32ads_A10_v4", "Standard_NC32ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC32lds_xl_RTXPRO6000BSE_v6", "Standard_NC32mds_xl_RTXPRO6000BSE_v6", "Standard_NC64ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC64lds_xl_RTXPRO6000BSE_v6", "Standard_NC64mds_xl_RTXPRO6000BSE_v6", "Standard_NC6_Promo", "Standard_NC8ads_A10_v4",
		"Standard_ND96is_MI300X_v5", "Standard_NV12_Promo", "Standard_NV12s_v2", "Standard_NV24_Promo", "Standard_NV24s_v2",
		"Standard_NV6_Promo", "Standard_NV6s_v2")
	for _, name := range []string{
		"Standard_NC144ds_xl_RTXPRO6000BSE_v6", "Standard_NC144lds_xl_RTXPRO6000BSE_v6", "Standard_NC24lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC288ds_xl_RTXPRO6000BSE_v6", "Standard_NC288lds_xl_RTXPRO6000BSE_v6", "Standard_NC36ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC36lds_xl_RTXPRO6000BSE_v6", "Standard_NC72ds_xl_RTXPRO6000BSE_v6", "Standard_NC72lds_xl_RTXPRO6000BSE_v6",
	} {
		p, ok := catalogtest.Lookup(t, cat, name).Prices["eastus"]
		if !ok {
			t.Fatalf("%s has no eastus price", name)
		}
		checks = append(checks, statecheck.ExpectKnownValue("data.hpcsku_catalog.rtx_eastus", tfjsonpath.New("skus"),
			listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"name":  knownvalue.StringExact(name),
				"price": knownvalue.ObjectPartial(map[string]knownvalue.Check{"region": knownvalue.StringExact("eastus"), "usd_per_hour": knownvalue.Float64Exact(p.USDPerHour)}),
			})}))
	}
	falsv6 := 0
	for _, s := range cat.SKUs() {
		if s.Series == "Falsv6" {
			falsv6++
		}
	}
	checks = append(checks,
		statecheck.ExpectKnownValue("data.hpcsku_catalog.falsv6", tfjsonpath.New("skus"),
			listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Standard_F2als_v6")})}),
		statecheck.ExpectKnownValue("data.hpcsku_catalog.falsv6", tfjsonpath.New("skus"), knownvalue.ListSizeExact(falsv6)))
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_catalog" "added" {
  include_retired = true
  name_regex      = "(_Promo|NC(16lds|32ds|32lds|32mds|64ds|64lds|64mds|128mds)_xl_RTXPRO6000BSE_v6|ads_A10_v4|ND96is_MI300X_v5|NV(6|12|24)s_v2)$"
}
data "hpcsku_catalog" "rtx_eastus" {
  series = ["NC_RTXPRO6000BSE_v6"]
  region = "eastus"
}
data "hpcsku_catalog" "falsv6" {
  series = ["Falsv6"]
}
`,
			ConfigStateChecks: checks,
		}},
	})
}
