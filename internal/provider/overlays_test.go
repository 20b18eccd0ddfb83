// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

const training70BConfig = `
data "hpcsku_recommendation" "train" {
  workload = "training"
  model = {
    parameters_billion = 70
  }
  region = "eastus"

  full_records = true
}
`

// TestOverlay_AvailabilityFileRestrictsH100: with an availability file that
// restricts Standard_ND96isr_H100_v5 in eastus, a 70B training
// recommendation in eastus no longer returns it and rejected says why;
// without the file it does. On the fixture catalog, in eastus, the ND sizes
// are ND96isr_H100_v5 (first: see TestOverlay_PricesFileReranks) and
// ND96asr_v4 (ND40rs_v2's V100s lack bf16: precision). The file lists
// sizes the fixture does not have; Configure warns about them.
func TestOverlay_AvailabilityFileRestrictsH100(t *testing.T) {
	t.Parallel()
	const ds = "data.hpcsku_recommendation.train"
	const h100 = "Standard_ND96isr_H100_v5"
	avail := fixture(t, "availability.json")
	record := func(size string) tfjsonpath.Path { return tfjsonpath.New("sku_records").AtMapKey(size) }
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(nil) + training70BConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), listContains{knownvalue.StringExact(h100)}),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected"), listLacks{knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"constraint": knownvalue.StringExact("availability"),
					})}),
					statecheck.ExpectKnownValue(ds, record(h100).AtMapKey("availability"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"source":       knownvalue.StringExact("embedded price snapshot of 2026-06-18"),
						"available":    knownvalue.Bool(true),
						"zones":        knownvalue.ListExact([]knownvalue.Check{}),
						"restrictions": knownvalue.ListExact([]knownvalue.Check{}),
						"quota_family": knownvalue.StringExact("standardNDSH100v5Family"), // the catalog's
					})),
				},
			},
			{
				Config: providerBlock(map[string]string{"availability_file": avail}) + training70BConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), listLacks{knownvalue.StringExact(h100)}),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("rejected"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"constraint": knownvalue.StringExact("availability"),
						"count":      knownvalue.Int64Exact(1),
						"examples":   stringList(h100),
						"reason": knownvalue.StringExact(`Restricted for this subscription in region "eastus" by the availability file ` + avail +
							" (a Location restriction: the subscription cannot deploy it there). Reason codes: NotAvailableForSubscription (" + h100 + ")."),
					})}),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_size"), knownvalue.StringExact("Standard_ND96asr_v4")),
					// Results carry the zones and the quota family.
					statecheck.ExpectKnownValue(ds, record("Standard_ND96asr_v4").AtMapKey("availability"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"source":       knownvalue.StringExact("availability file " + avail),
						"available":    knownvalue.Bool(true),
						"regions":      stringList("eastus"),
						"zones":        stringList("1", "2", "3"),
						"restrictions": knownvalue.ListExact([]knownvalue.Check{}),
						"quota_family": knownvalue.StringExact("standardNDASv4_A100Family"),
					})),
					// Prices are still the embedded ones, and say so.
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(0).AtMapKey("price_source"), knownvalue.StringExact("Linux pay-as-you-go list price in eastus.")),
					statecheck.ExpectKnownValue(ds, record("Standard_ND96asr_v4").AtMapKey("price").AtMapKey("source"), knownvalue.StringExact("embedded snapshot of 2026-06-18")),
				},
			},
		},
	})
}

// TestOverlay_PricesFileReranks: a prices file changes price_per_hour and the
// cost ranking, and results say the price source. On the fixture catalog.
func TestOverlay_PricesFileReranks(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: fixtureProviderFactories(t),
		Steps: []resource.TestStep{
			pricesEmbeddedStep(),
			pricesNegotiatedStep(fixture(t, "prices_negotiated.csv")),
			pricesRetailStep(fixture(t, "prices_retail.json")),
		},
	})
}

// pricesEmbeddedStep is the step of TestOverlay_PricesFileReranks without
// a prices file: the embedded prices rank the sizes.
func pricesEmbeddedStep() resource.TestStep {
	const ds = "data.hpcsku_recommendation.train"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return resource.TestStep{
		Config: providerBlock(nil) + training70BConfig,
		ConfigStateChecks: []statecheck.StateCheck{
			// 1059.38 GiB (70e9 x 16 bytes of states + 70e9 x 0.25 bytes of one
			// 4,096-token sequence's activations on every GPU) and, on the default 1,400 billion
			// tokens, 6 x 70e9 x 1,400e9 = 5.88e23 FLOPs, scaled out to finish within
			// the 720-hour default: 8 H100 x 989.5e12 x 0.40 = 3.166e15 FLOP/s a VM,
			// 72 VMs (7,079.04 USD/h), 716.43 hours, 5,071,669.19 USD; 8 A100 40 GB x
			// 312e12 x 0.40 = 9.98e14, which would need 228 VMs: 100, the most with
			// InfiniBand, 1635.95 hours, past the default, 2,719.7 USD/h x 1635.95 =
			// 4,449,295.54 USD. The time component of training is min(1, deadline /
			// hours): 1 for the H100 size, 720 / 1635.95 = 0.440 for ND96asr_v4. The
			// scores of timed training sizes take the sizing component of their GPUs
			// kept busy (all of them: 1). ND40rs_v2's V100s lack bf16 (precision).
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList("Standard_ND96isr_H100_v5", "Standard_ND96asr_v4")),
			statecheck.ExpectKnownValue(ds, rec0.AtMapKey("score"), knownvalue.Float64Exact(85.2)), // timed training sizes on busy GPUs (sizing 1)
			statecheck.ExpectKnownValue(ds, rec0.AtMapKey("price_per_hour"), knownvalue.Float64Exact(98.32)),
			statecheck.ExpectKnownValue(ds, rec0.AtMapKey("estimate").AtMapKey("job_cost_usd"), knownvalue.Float64Exact(5071669.19)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("score"), knownvalue.Float64Exact(76.8)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("price_per_hour"), knownvalue.Float64Exact(27.197)),
		},
	}
}

// pricesNegotiatedStep is the step of TestOverlay_PricesFileReranks with the
// negotiated prices of the CSV file csv.
func pricesNegotiatedStep(csv string) resource.TestStep {
	const ds = "data.hpcsku_recommendation.train"
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return resource.TestStep{
		// Negotiated prices: the H100 size at 36.00 instead of 98.32 (72 VMs,
		// 2,592 USD/h, 716.43 hours: 1,856,998.48 USD) is now the cheaper job as
		// well as the faster: 25 + 25 + 20 + 15 + 15 / 72 = 85.2; ND96asr_v4 25 +
		// 25 x 1,856,998.48 / 4,449,295.54 (0.417) + 20 x 0.574 + 15 x 0.440 +
		// 15 / 100 = 53.7.
		Config: providerBlock(map[string]string{"prices_file": csv}) + training70BConfig,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("vm_sizes"), stringList("Standard_ND96isr_H100_v5", "Standard_ND96asr_v4")),
			statecheck.ExpectKnownValue(ds, rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"vm_size":              knownvalue.StringExact("Standard_ND96isr_H100_v5"),
				"score":                knownvalue.Float64Exact(85.2),
				"price_per_hour":       knownvalue.Float64Exact(36),
				"total_price_per_hour": knownvalue.Float64Exact(2592),
				"price_source":         knownvalue.StringExact("Price from the prices file " + csv + " in eastus."),
			})),
			statecheck.ExpectKnownValue(ds, rec0.AtMapKey("estimate").AtMapKey("job_cost_usd"), knownvalue.Float64Exact(1856998.48)),
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("score"), knownvalue.Float64Exact(76.8)), // timed training sizes on busy GPUs (sizing 1)
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("sku_records").AtMapKey("Standard_ND96isr_H100_v5").AtMapKey("price"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"usd_per_hour": knownvalue.Float64Exact(36),
				"source":       knownvalue.StringExact("prices file " + csv + " (CSV)"),
			})),
			// A size the file does not price keeps the embedded price.
			statecheck.ExpectKnownValue(ds, tfjsonpath.New("recommendations").AtSliceIndex(1).AtMapKey("price_source"),
				knownvalue.StringExact("Linux pay-as-you-go list price in eastus.")),
		},
	}
}

// pricesRetailStep is the step of TestOverlay_PricesFileReranks with the
// Retail Prices API JSON file retail.
func pricesRetailStep(retail string) resource.TestStep {
	rec0 := tfjsonpath.New("recommendations").AtSliceIndex(0)
	return resource.TestStep{
		// Retail Prices API JSON, with a spot meter used for spot = true.
		Config: providerBlock(map[string]string{"prices_file": retail}) + `
data "hpcsku_sku" "h100" {
  name   = "Standard_ND96isr_H100_v5"
  region = "eastus"
}

data "hpcsku_recommendation" "spot" {
  workload = "training"
  model = {
    parameters_billion = 70
  }
  region     = "eastus"
  gpu_models = ["h100-sxm-80gb"]
  spot       = true
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("price"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"region":            knownvalue.StringExact("eastus"),
				"usd_per_hour":      knownvalue.Float64Exact(63.5),
				"spot_usd_per_hour": knownvalue.Float64Exact(25.4),
				"snapshot_date":     knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)),
				"source":            knownvalue.StringExact("prices file " + retail + " (Azure Retail Prices API JSON)"),
				"spot_source":       knownvalue.StringExact("prices file " + retail + " (Azure Retail Prices API JSON), spot meter"),
			})),
			statecheck.ExpectKnownValue("data.hpcsku_recommendation.spot", rec0, knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"vm_size":        knownvalue.StringExact("Standard_ND96isr_H100_v5"),
				"price_is_spot":  knownvalue.Bool(true),
				"price_per_hour": knownvalue.Float64Exact(25.4),
				"price_source":   knownvalue.StringExact("Spot price from the prices file " + retail + " in eastus."),
			})),
		},
	}
}

// catalogAndSKUOverlaysConfig reads hpcsku_catalog and hpcsku_sku for
// TestOverlay_CatalogAndSKUHonourFiles: sizes of the catalog file and sizes
// the availability file restricts, with and without a region.
const catalogAndSKUOverlaysConfig = `
data "hpcsku_catalog" "east" {
  region     = "eastus"
  gpu_models = ["h100-sxm-80gb", "a100-sxm-80gb"]
}

data "hpcsku_catalog" "np" {
  families = ["NP"]
}

data "hpcsku_sku" "np" {
  name   = "Standard_NP10s"
  region = "eastus"
}

data "hpcsku_sku" "h100" {
  name   = "Standard_ND96isr_H100_v5"
  region = "eastus2"
}

data "hpcsku_sku" "h100_everywhere" {
  name = "Standard_ND96isr_H100_v5"
}
`

// TestOverlay_CatalogAndSKUHonourFiles: hpcsku_catalog and hpcsku_sku honour the
// availability file and the catalog file.
func TestOverlay_CatalogAndSKUHonourFiles(t *testing.T) {
	t.Parallel()
	avail := fixture(t, "availability.json")
	extra := fixture(t, "catalog_file.json")
	settings := map[string]string{"availability_file": avail, "catalog_file": extra}
	const h100 = "data.hpcsku_sku.h100"
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{
			{
				// Without a catalog file the size is unknown.
				Config:      providerBlock(nil) + `data "hpcsku_sku" "np" { name = "Standard_NP10s" }`,
				ExpectError: regexp.MustCompile(`Unknown VM Size`),
			},
			{
				Config: providerBlock(settings) + catalogAndSKUOverlaysConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					// eastus offers the A100 size; the H100 size is restricted there.
					statecheck.ExpectKnownValue("data.hpcsku_catalog.east", tfjsonpath.New("skus"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Standard_ND96amsr_A100_v4")}),
					})),
					statecheck.ExpectKnownValue("data.hpcsku_catalog.np", tfjsonpath.New("skus").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("Standard_NP10s")),
					statecheck.ExpectKnownValue("data.hpcsku_sku.np", tfjsonpath.New("sku"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"vcpus":      knownvalue.Int64Exact(10),
						"memory_gib": knownvalue.Float64Exact(168),
						"sources":    stringList("https://learn.microsoft.com/azure/virtual-machines/sizes/fpga-accelerated/np-series"),
						"price":      knownvalue.Null(),
					})),
					statecheck.ExpectKnownValue("data.hpcsku_sku.np", tfjsonpath.New("sku").AtMapKey("availability"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"available":    knownvalue.Bool(true),
						"zones":        stringList("1", "2", "3"),
						"quota_family": knownvalue.StringExact("standardNPSFamily"),
					})),
					// Zone 2 is restricted in eastus2.
					statecheck.ExpectKnownValue(h100, tfjsonpath.New("sku").AtMapKey("availability"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"source":    knownvalue.StringExact("availability file " + avail),
						"available": knownvalue.Bool(true),
						"regions":   stringList("eastus2", "westus3"),
						"zones":     stringList("1", "3"),
						"restrictions": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
							"region":      knownvalue.StringExact("eastus2"),
							"type":        knownvalue.StringExact("Zone"),
							"reason_code": knownvalue.StringExact("NotAvailableForSubscription"),
							"zones":       stringList("2"),
						})}),
						"quota_family": knownvalue.StringExact("standardNDSH100v5Family"),
					})),
					// The GPU count is the catalog's (the file agrees here), and so is the memory.
					statecheck.ExpectKnownValue(h100, tfjsonpath.New("sku").AtMapKey("gpu").AtMapKey("count"), knownvalue.Float64Exact(8)),
					// Without a region: every restriction, no zones.
					statecheck.ExpectKnownValue("data.hpcsku_sku.h100_everywhere", tfjsonpath.New("sku").AtMapKey("availability"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"available": knownvalue.Null(),
						"zones":     knownvalue.ListExact([]knownvalue.Check{}),
						"restrictions": knownvalue.ListExact([]knownvalue.Check{
							knownvalue.ObjectPartial(map[string]knownvalue.Check{"region": knownvalue.StringExact("eastus"), "type": knownvalue.StringExact("Location")}),
							knownvalue.ObjectPartial(map[string]knownvalue.Check{"region": knownvalue.StringExact("eastus2"), "type": knownvalue.StringExact("Zone")}),
						}),
					})),
				},
			},
		},
	})
}

// overlayErrorCase is a broken overlay setting and the fragments its
// error must show: the file, the entry and the field.
type overlayErrorCase struct {
	name     string
	setting  string
	file     string // written to a temporary file; "" for a missing file
	summary  string
	fragment []string
}

func overlayErrorCases() []overlayErrorCase {
	ok := `{"name": "Standard_NC40ads_H100_v5", "locations": ["eastus"]}`
	return []overlayErrorCase{
		{"missing availability file", "availability_file", "", "Cannot Read Availability File",
			[]string{"the availability file does not exist"}},
		{"availability bad JSON", "availability_file", "[\n" + ok + ",\n{\"name\": \"Standard_X\",,}\n]", "Invalid Availability File",
			[]string{"Entry: entry 2", "invalid JSON at line 3, column 24"}},
		{"availability wrong type", "availability_file", `[{"name": "Standard_ND96isr_H100_v5", "locations": "eastus"}]`, "Invalid Availability File",
			[]string{"Entry: entry 1 (Standard_ND96isr_H100_v5)", "Field: locations", "expected a list of strings, got a string"}},
		{"availability duplicate", "availability_file", "[" + ok + ", " + ok + "]", "Invalid Availability File",
			[]string{"Entry: entry 2 (Standard_NC40ads_H100_v5 in eastus)", "Field: name", "duplicate"}},
		{"prices wrong type", "prices_file", `{"Items": [{"armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "retailPrice": "98.32"}]}`,
			"Invalid Prices File", []string{"Entry: Items[0] (Standard_ND96isr_H100_v5 in eastus)", "Field: retailPrice", "expected a number, got a string"}},
		{"prices CSV duplicate", "prices_file", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,90\neastus,Standard_ND96isr_H100_v5,91\n",
			"Invalid Prices File", []string{"Entry: line 3 (Standard_ND96isr_H100_v5 in eastus)", "Field: vm_size", "duplicate"}},
		{"prices CSV display-name region", "prices_file", "region,vm_size,usd_per_hour\nUS East,Standard_ND96isr_H100_v5,36\n",
			"Invalid Prices File", []string{"Entry: line 2 (Standard_ND96isr_H100_v5 in us east)", "Field: region", `"US East" is a display name: use the region's short name, eastus.`}},
		{"catalog unknown field", "catalog_file", `{"skus": [{"name": "Standard_NP10s", "vcpu": 10}]}`, "Invalid Catalog File",
			[]string{"Entry: skus[0] (Standard_NP10s)", "Field: vcpu", "unknown field"}},
		{"catalog wrong type", "catalog_file", `{"skus": [{"name": "Standard_NP10s", "vcpus": "ten"}]}`, "Invalid Catalog File",
			[]string{"Entry: skus[0] (Standard_NP10s)", "Field: vcpus", "expected a whole number, got a string"}},
		{"catalog duplicate", "catalog_file", `{"gpu_models": [{"id": "x1"}, {"id": "X1"}]}`, "Invalid Catalog File",
			[]string{"Entry: gpu_models[1] (X1)", "Field: id", "duplicate"}},
		{"catalog merge", "catalog_file", `{"skus": [{"name": "Standard_NP10s", "series": "NP", "arch": "x86_64", "network": {}, "sources": ["x"]}]}`,
			"Invalid Catalog File", []string{"Entry: size Standard_NP10s", `series "NP" is not defined`}},
	}
}

// TestConfigureOverlayErrors: every error names the setting's file, the
// entry and the field, on the setting's attribute.
func TestConfigureOverlayErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range overlayErrorCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "overlay")
			if tc.file != "" {
				if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			data, diags := configureWith(t, map[string]string{tc.setting: path})
			if data != nil || diags.ErrorsCount() != 1 {
				t.Fatalf("data %v, diagnostics %v", data, diags)
			}
			d := diags.Errors()[0]
			wa, ok := d.(diag.DiagnosticWithPath)
			if !ok || wa.Path().String() != tc.setting {
				t.Errorf("diagnostic not on %s: %#v", tc.setting, d)
			}
			if d.Summary() != tc.summary {
				t.Errorf("summary %q, want %q", d.Summary(), tc.summary)
			}
			for _, want := range append([]string{"The " + tc.setting + " " + path + " could not be used."}, tc.fragment...) {
				if !strings.Contains(d.Detail(), want) {
					t.Errorf("detail does not contain %q:\n%s", want, d.Detail())
				}
			}
		})
	}
}

// TestConfigureOverlayFileOverLimit: files over the documented limit are
// refused before they are read. Each file is sparse: one byte over the
// limit, without the disk space.
func TestConfigureOverlayFileOverLimit(t *testing.T) {
	t.Parallel()
	limits := userfile.DefaultLimits()
	for _, tc := range []struct {
		setting, limit string
		max            int64
	}{
		{"availability_file", "64 MiB", limits.AvailabilityFile},
		{"prices_file", "128 MiB", limits.PricesFile},
		{"catalog_file", "16 MiB", limits.CatalogFile},
	} {
		t.Run(tc.setting, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "big")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, tc.max+1); err != nil {
				t.Fatal(err)
			}
			_, diags := configureWith(t, map[string]string{tc.setting: path})
			if diags.ErrorsCount() != 1 || !strings.HasPrefix(diags.Errors()[0].Summary(), "Cannot Read ") ||
				!strings.Contains(diags.Errors()[0].Detail(), "more than the "+tc.limit+" limit") ||
				!strings.Contains(diags.Errors()[0].Detail(), path) {
				t.Errorf("diagnostics %v", diags)
			}
		})
	}
}

// TestConfigureWithoutOverlaysReadsNothing: with no setting, Configure hands
// the data sources the catalog it was given, untouched.
func TestConfigureWithoutOverlaysReadsNothing(t *testing.T) {
	t.Parallel()
	data, diags := configureWith(t, nil)
	if diags.HasError() || len(diags) != 0 || data == nil || data.Catalog != testCatalog(t) {
		t.Fatalf("data %v, diagnostics %v", data, diags)
	}
}

// TestConfigureOverlayWarnings: GPU and HPC sizes the files know and the
// catalog does not are reported, with what the availability file says.
func TestConfigureOverlayWarnings(t *testing.T) {
	t.Parallel()
	data, diags := configureWith(t, map[string]string{
		"availability_file": fixture(t, "availability.json"),
		"prices_file":       fixture(t, "prices_retail.json"),
	})
	if diags.HasError() || data == nil {
		t.Fatalf("diagnostics %v", diags)
	}
	warnings := map[string]string{}
	for _, d := range diags.Warnings() {
		warnings[d.Summary()] = d.Detail()
	}
	if len(warnings) != 2 {
		t.Errorf("warnings %v", warnings)
	}
	w := warnings["Sizes Not In The Catalog"]
	for _, want := range []string{
		"lists 1 GPU or HPC size that the catalog (version " + testCatalog(t).Version + ") does not have",
		"  - Standard_NP10s: 10 vCPUs, 168 GiB memory, no GPU count reported (the API omits it for some GPU sizes), accelerated networking, " +
			"Hyper-V generations 1, 2, quota family standardNPSFamily; available in eastus",
		"1 other size in the file outside the families the catalog covers (general-purpose sizes) ignored.",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warning does not contain %q:\n%s", want, w)
		}
	}
	if strings.Contains(w, "Standard_D4s_v5") {
		t.Errorf("a general-purpose size is listed:\n%s", w)
	}
	if w := warnings["Prices For Sizes Not In The Catalog"]; !strings.Contains(w, "prices 1 GPU or HPC size that the catalog does not have; their prices are not used: Standard_NP10s.") {
		t.Errorf("prices warning %q", w)
	}
	// With the catalog file, the size is known and nothing is reported.
	_, diags = configureWith(t, map[string]string{
		"availability_file": fixture(t, "availability.json"),
		"prices_file":       fixture(t, "prices_retail.json"),
		"catalog_file":      fixture(t, "catalog_file.json"),
	})
	if diags.HasError() || diags.WarningsCount() != 0 {
		t.Errorf("diagnostics %v", diags)
	}
}

// TestOverlay_ErrorsInTerraform runs a few of the error cases through Terraform, to
// check how the messages read there: one failing step per case, then a
// valid step.
func TestOverlay_ErrorsInTerraform(t *testing.T) {
	t.Parallel()
	const sku = `data "hpcsku_sku" "x" { name = "Standard_ND96isr_H100_v5" }`
	var steps []resource.TestStep
	for _, tc := range overlayErrorCases() {
		switch tc.name {
		case "missing availability file", "availability wrong type", "prices CSV duplicate", "catalog unknown field":
		default:
			continue
		}
		path := filepath.Join(t.TempDir(), "overlay")
		if tc.file != "" {
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("step %d: %s", len(steps)+1, tc.name)
		pattern := wrapped(tc.summary) + `[\s\S]*` + wrapped(path) + `[\s\S]*` + wrapped(tc.fragment[0])
		steps = append(steps, resource.TestStep{
			Config:      providerBlock(map[string]string{tc.setting: path}) + sku,
			ExpectError: regexp.MustCompile(pattern),
		})
	}
	if len(steps) != 4 {
		t.Fatalf("%d error cases found, want 4", len(steps))
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps:                    append(steps, resource.TestStep{Config: providerBlock(nil) + sku}),
	})
}
