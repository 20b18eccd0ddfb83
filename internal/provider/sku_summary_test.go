// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Every attribute of a summary is an attribute of the full record, with the
// same name, nesting and type, so a reference such as `sku.gpu.model` reads
// the same in a recommendation and in hpcsku_sku.
func TestSKUSummaryIsASubsetOfTheFullRecord(t *testing.T) {
	for name, fields := range map[string]skuFields{"summary": skuSummaryFields, "catalog summary": skuCatalogSummaryFields} {
		t.Run(name, func(t *testing.T) {
			checkSubset(t, "sku", skuAttributes(), fields)
			full := skuObjectType()
			projected := projectAttributes(skuAttributes(), fields)
			for attr, a := range projected {
				if fields[attr] == nil && !a.GetType().Equal(full.AttrTypes[attr]) {
					t.Errorf("sku.%s: type %s, the full record's is %s", attr, a.GetType(), full.AttrTypes[attr])
				}
			}
		})
	}
}

func checkSubset(t *testing.T, path string, attrs map[string]schema.Attribute, fields skuFields) {
	t.Helper()
	for name, sub := range fields {
		a, ok := attrs[name]
		if !ok {
			t.Errorf("%s.%s is not an attribute of the full record", path, name)
			continue
		}
		if sub == nil {
			continue
		}
		nested, ok := a.(schema.SingleNestedAttribute)
		if !ok {
			t.Errorf("%s.%s lists nested attributes but is not an object", path, name)
			continue
		}
		checkSubset(t, path+"."+name, nested.Attributes, sub)
	}
}

// A recommendation's `sku` is the summary: its GPU, network and lifecycle
// facts, but no performance, support or sources, and `sku_records` is null
// unless full_records is true; then it holds one full record per ranked size,
// each with the price of its recommendation's region.
func TestRecommendationSKUSummaryAndFullRecords(t *testing.T) {
	const cfg = `
provider "hpcsku" {}

data "hpcsku_recommendation" "summary" {
  workload = "fine_tuning"
  model    = { parameters_billion = 7, precision = "bf16" }
  target   = "aks"
  region   = "eastus"
}

data "hpcsku_recommendation" "full" {
  workload     = "fine_tuning"
  model        = { parameters_billion = 7, precision = "bf16" }
  target       = "aks"
  region       = "eastus"
  full_records = true
}

output "same_sizes" {
  value = data.hpcsku_recommendation.summary.vm_sizes == data.hpcsku_recommendation.full.vm_sizes
}

output "records_are_the_ranked_sizes" {
  value = sort(keys(data.hpcsku_recommendation.full.sku_records)) == sort(data.hpcsku_recommendation.full.vm_sizes)
}

output "records_priced_in_the_region" {
  value = alltrue([for r in values(data.hpcsku_recommendation.full.sku_records) : r.price.region == "eastus"])
}

output "summary_matches_record" {
  value = alltrue([
    for r in data.hpcsku_recommendation.full.recommendations :
    r.sku.gpu.model == data.hpcsku_recommendation.full.sku_records[r.vm_size].gpu.model &&
    r.sku.lifecycle.status == data.hpcsku_recommendation.full.sku_records[r.vm_size].lifecycle.status &&
    r.sku.network.rdma == data.hpcsku_recommendation.full.sku_records[r.vm_size].network.rdma
  ])
}
`
	summary := statecheck.ExpectKnownValue
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("sku")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				summary("data.hpcsku_recommendation.summary", rec0, knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": knownvalue.NotNull(), "series": knownvalue.NotNull(), "family": knownvalue.NotNull(), "category": knownvalue.StringExact("gpu"),
					"vcpus": knownvalue.NotNull(), "memory_gib": knownvalue.NotNull(), "arch": knownvalue.NotNull(), "deployable": knownvalue.Bool(true),
					"gpu": knownvalue.ObjectExact(map[string]knownvalue.Check{
						"count": knownvalue.NotNull(), "model_id": knownvalue.NotNull(), "model": knownvalue.NotNull(), "vendor": knownvalue.NotNull(),
						"memory_gib": knownvalue.NotNull(), "memory_gib_total": knownvalue.NotNull(),
					}),
					"network":   knownvalue.ObjectExact(map[string]knownvalue.Check{"rdma": knownvalue.NotNull(), "infiniband": knownvalue.Null(), "infiniband_gbps": knownvalue.Null()}),
					"lifecycle": knownvalue.ObjectExact(map[string]knownvalue.Check{"status": knownvalue.StringExact("ga"), "retirement_date": knownvalue.Null(), "replacement_sizes": knownvalue.NotNull()}),
				})),
				summary("data.hpcsku_recommendation.summary", tfjsonpath.New("sku_records"), knownvalue.Null()),
				summary("data.hpcsku_recommendation.full", tfjsonpath.New("sku_records"), knownvalue.NotNull()),
				summary("data.hpcsku_recommendation.full", rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.NotNull()})),
				outputTrue("same_sizes"), outputTrue("records_are_the_ranked_sizes"), outputTrue("records_priced_in_the_region"), outputTrue("summary_matches_record"),
			},
		}},
	})
}

// hpcsku_catalog lists summaries with the price of the requested region;
// full_records adds each size's full record.
func TestCatalogSKUSummaryAndFullRecords(t *testing.T) {
	const cfg = `
provider "hpcsku" {}

data "hpcsku_catalog" "hb" {
  families = ["HB"]
  region   = "eastus"
}

data "hpcsku_catalog" "hb_full" {
  families     = ["HB"]
  region       = "eastus"
  full_records = true
}

output "same_sizes" {
  value = sort([for s in data.hpcsku_catalog.hb.skus : s.name]) == sort(keys(data.hpcsku_catalog.hb_full.sku_records))
}

output "summaries_priced" {
  value = alltrue([for s in data.hpcsku_catalog.hb.skus : s.price.region == "eastus" && s.price.usd_per_hour > 0])
}

output "records_have_performance" {
  value = alltrue([for r in values(data.hpcsku_catalog.hb_full.sku_records) : r.performance.cpu != null && r.price.region == "eastus"])
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_catalog.hb", tfjsonpath.New("sku_records"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.hpcsku_catalog.hb", tfjsonpath.New("skus").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"family": knownvalue.StringExact("HB"),
					"price":  knownvalue.ObjectPartial(map[string]knownvalue.Check{"region": knownvalue.StringExact("eastus")}),
				})),
				outputTrue("same_sizes"), outputTrue("summaries_priced"), outputTrue("records_have_performance"),
			},
		}},
	})
}

// The state budgets of the lean results: the quickstart's recommendation
// (7B full fine-tuning on AKS in eastus, 5 recommendations) and hpcsku_catalog
// without a filter, each counted as the length of Python's json.dumps of the
// data source's attributes, the measure bench/run.sh reports.
func TestStateBudgets(t *testing.T) {
	const cfg = `
provider "hpcsku" {}

data "hpcsku_recommendation" "quickstart" {
  workload = "fine_tuning"
  model    = { parameters_billion = 7, precision = "bf16" }
  target   = "aks"
  region   = "eastus"
}

data "hpcsku_catalog" "all" {}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				stateBytesAtMost("data.hpcsku_recommendation.quickstart", 24_000),
				stateBytesAtMost("data.hpcsku_catalog.all", 250_000),
			},
		}},
	})
}

func outputTrue(name string) statecheck.StateCheck {
	return statecheck.ExpectKnownOutputValue(name, knownvalue.Bool(true))
}

// stateBytesAtMost checks that a resource's attributes in the state take at
// most limit bytes as Python's json.dumps writes them.
func stateBytesAtMost(address string, limit int) statecheck.StateCheck {
	return stateBytesCheck{address: address, limit: limit}
}

type stateBytesCheck struct {
	address string
	limit   int
}

func (c stateBytesCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address != c.address {
			continue
		}
		if n := len(pythonJSON(r.AttributeValues)); n > c.limit {
			resp.Error = fmt.Errorf("%s: %d bytes of state, above the budget of %d", c.address, n, c.limit)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the state", c.address)
}

// pythonJSON writes v as Python's json.dumps does with its defaults: ", "
// and ": " separators, non-ASCII characters escaped as \uXXXX.
func pythonJSON(v any) string {
	var b strings.Builder
	writePythonJSON(&b, v)
	return b.String()
}

func writePythonJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		writePythonString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePythonJSON(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writePythonString(b, k)
			b.WriteString(": ")
			writePythonJSON(b, x[k])
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%v", x) // json.Number and other scalars
	}
}

func writePythonString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r > 0x7f:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(b, `\u%04x`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
