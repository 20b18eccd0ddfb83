// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The overlay fixtures are the azureexport package's.
const (
	availabilityFixture = "../azureexport/testdata/availability.json"
	retailPricesFixture = "../azureexport/testdata/prices_retail.json"
)

func overlaid(t *testing.T, o catalog.Overlays) *catalog.Catalog {
	t.Helper()
	c, _, err := testCatalog(t).WithOverlays(o)
	if err != nil {
		t.Fatalf("WithOverlays: %v", err)
	}
	return c
}

func withAvailability(t *testing.T) *catalog.Catalog {
	t.Helper()
	a, err := azureexport.LoadAvailability(availabilityFixture)
	if err != nil {
		t.Fatal(err)
	}
	return overlaid(t, catalog.Overlays{Availability: a.Overlay()})
}

func rejection(rs []Rejection, constraint string) *Rejection {
	for i := range rs {
		if rs[i].Constraint == constraint {
			return &rs[i]
		}
	}
	return nil
}

var training70B = Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus", AsOf: asOf}

// TestAvailabilityRestrictsH100: the fixture restricts Standard_ND96isr_H100_v5
// in eastus for the subscription (NotAvailableForSubscription).
func TestAvailabilityRestrictsH100(t *testing.T) {
	before := mustRecommend(t, training70B)
	if !slices.Contains(names(before), "Standard_ND96isr_H100_v5") {
		t.Fatalf("without the file, 70B training in eastus should return the H100 size: %v", names(before))
	}

	cat := withAvailability(t)
	res, err := newTestEngine(t, cat).Recommend(training70B)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, cat, training70B, res)
	if slices.Contains(names(res), "Standard_ND96isr_H100_v5") {
		t.Errorf("the restricted H100 size is still recommended: %v", names(res))
	}
	r := rejection(res.Rejected, "availability")
	if r == nil || r.Count != 1 || !slices.Equal(r.Examples, []string{"Standard_ND96isr_H100_v5"}) {
		t.Fatalf("availability rejection %+v in %+v", r, res.Rejected)
	}
	for _, want := range []string{`Restricted for this subscription in region "eastus" by the availability file ../azureexport/testdata/availability.json`,
		"Reason codes: NotAvailableForSubscription (Standard_ND96isr_H100_v5)."} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason %q does not contain %q", r.Reason, want)
		}
	}
	// Sizes the file does not list in eastus fail "region", with the file named.
	reg := rejection(res.Rejected, "region")
	if reg == nil || !strings.Contains(reg.Reason, "the availability file ../azureexport/testdata/availability.json does not list it there") {
		t.Errorf("region rejection %+v", reg)
	}
	// The H100 size in a preferred list is skipped with the reason.
	req := training70B
	req.Prefer = []string{"Standard_ND96isr_H100_v5"}
	res, err = newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if w.Summary == "Preferred Size Skipped" && strings.Contains(w.Detail, "Standard_ND96isr_H100_v5, named in prefer, fails availability: Restricted for this subscription") {
			found = true
		}
	}
	if !found {
		t.Errorf("no skipped-preference warning: %+v", res.Warnings)
	}
}

// TestAvailabilityNoFitSuggestsARegion, on the fixture catalog, whose only
// H100 SXM size the availability file restricts in eastus: the nearest
// miss names the regions where the file offers it.
func TestAvailabilityNoFitSuggestsARegion(t *testing.T) {
	a, err := azureexport.LoadAvailability(availabilityFixture)
	if err != nil {
		t.Fatal(err)
	}
	cat, _, err := fixture(t).WithOverlays(catalog.Overlays{Availability: a.Overlay()})
	if err != nil {
		t.Fatal(err)
	}
	// Only the H100 size passes everything but availability: the A100 sizes
	// are below compute capability 9.0.
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus", GPUModels: []string{"h100-sxm-80gb"},
		MinComputeCapability: "9.0", CUDAVersion: "12.0", AsOf: asOf}
	_, err = newTestEngine(t, cat).Recommend(req)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("want a no-fit error, got %v", err)
	}
	if nf.NearestMiss == nil || nf.NearestMiss.VMSize != "Standard_ND96isr_H100_v5" || nf.NearestMiss.FailedConstraint != "availability" ||
		!strings.Contains(nf.NearestMiss.Relax, "choose a region where the availability file offers it to this subscription, such as eastus2, westus3") {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	if !strings.Contains(nf.Error(), "availability: 1 (Standard_ND96isr_H100_v5)") {
		t.Errorf("error %q", nf.Error())
	}
}

// TestAvailabilityKeepsUnpricedSizes: a region only the availability file
// knows (a sovereign cloud) has no prices; the sizes it lists are ranked
// unpriced, with a warning.
func TestAvailabilityKeepsUnpricedSizes(t *testing.T) {
	a, err := azureexport.ParseAvailability("gov.json", []byte(`[
		{"name": "Standard_ND96isr_H100_v5", "locations": ["usgovvirginia"], "family": "standardNDSH100v5Family"},
		{"name": "Standard_ND96amsr_A100_v4", "locations": ["usgovvirginia"], "restrictions": [{"type": "Location", "reasonCode": "QuotaId", "values": ["usgovvirginia"]}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cat := overlaid(t, catalog.Overlays{Availability: a.Overlay()})
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "usgovvirginia", AsOf: asOf}
	if fe := newTestEngine(t, cat).Validate(req); len(fe) != 0 {
		t.Fatalf("validate: %+v", fe)
	}
	res, err := newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	assertNames(t, names(res), "Standard_ND96isr_H100_v5")
	rec := res.Recommendations[0]
	if rec.PricePerHour != nil || len(rec.Warnings) == 0 || !strings.Contains(strings.Join(rec.Warnings, " "), "No price is known for this size in usgovvirginia, where the availability file offers it") {
		t.Errorf("recommendation %+v", rec)
	}
	if r := rejection(res.Rejected, "availability"); r == nil || !strings.Contains(r.Reason, "QuotaId (Standard_ND96amsr_A100_v4)") {
		t.Errorf("availability rejection %+v", r)
	}
}

// TestPricesFileChangesPriceAndRanking: the negotiated CSV prices the H100
// size in eastus at 36.00 instead of the embedded list price, which moves
// it up the ranking; the Retail Prices API fixture prices it at 63.50 with
// a spot meter. Results say where the price comes from. The job is a 105B
// model on 10 billion tokens, which no VM holds (a 70B one fits one MI300X
// VM in eastus2, and without a region scale-up then removes the H100's
// layout): 105e9 × 16 = 1,564.62 GiB of states, sharded, beside 105e9 ×
// 0.25 = 24.45 GiB of activations on every GPU. Memory sets every layout
// (⌈1,564.62 / (8 × (79.65 × 0.9 - 24.45))⌉ = ⌈4.14⌉ = 5 VMs of 8 H100
// GPUs, each filling at most 90% of its memory, GPUMemoryShare) and the job
// cost ranks them: 6 × 105e9 × 10e9 = 6.3e21 FLOPs / (5 × 8 × 989.5e12 ×
// 40%) = 110.54 hours, and at 36.00 a VM the job costs 110.54 × 180 USD/h
// = 19,896 USD. The V100 size cannot train in bf16.
func TestPricesFileChangesPriceAndRanking(t *testing.T) {
	load := func(file string) *catalog.Catalog {
		p, err := azureexport.LoadPriceFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return overlaid(t, catalog.Overlays{Prices: p.Overlay()})
	}
	all := training70B
	all.Model = &Model{ParametersBillion: 105}
	all.MaxResults = i64(50)
	all.TokensBillion = f64(10)
	before := mustRecommend(t, all)

	cat := load("../azureexport/testdata/prices_negotiated.csv")
	res := mustRecommendOn(t, cat, all)
	const h100 = "Standard_ND96isr_H100_v5"
	if was, now := rankOf(before, h100), rankOf(res, h100); was == 0 || now == 0 || now >= was {
		t.Errorf("the H100 size ranks %d at the list price and %d at the negotiated one: a lower price must move it up", was, now)
	}
	if byName(res, "Standard_ND40rs_v2") != nil || rejectedBy(t, cat, all, "Standard_ND40rs_v2") != "precision" {
		t.Errorf("the V100 size trains in bf16: %v", names(res))
	}
	rec := byName(res, "Standard_ND96isr_H100_v5")
	if rec == nil {
		t.Fatalf("the H100 size is not ranked: %v", names(res))
	}
	if *rec.PricePerHour != 36 || *rec.TotalPricePerHour != 180 || rec.PriceSource != "Price from the prices file ../azureexport/testdata/prices_negotiated.csv in eastus." || !near(rec.Estimate.JobCostUSD, 19896) {
		t.Errorf("price %v (total %v), source %q", *rec.PricePerHour, *rec.TotalPricePerHour, rec.PriceSource)
	}
	// Sizes the file does not price keep the embedded price and say so.
	if r := byName(res, "Standard_ND96asr_v4"); r == nil || *r.PricePerHour != r.SKU.Prices["eastus"].USDPerHour || r.PriceSource != "Linux pay-as-you-go list price in eastus." {
		t.Errorf("ND96asr_v4 %+v", r)
	}

	cat = load(retailPricesFixture)
	res = mustRecommendOn(t, cat, all)
	if rec := byName(res, "Standard_ND96isr_H100_v5"); rec == nil || *rec.PricePerHour != 63.5 ||
		rec.PriceSource != "Price from the prices file ../azureexport/testdata/prices_retail.json in eastus." {
		t.Errorf("Retail price: %+v", rec)
	}
	// Spot prices from the file rank spot requests.
	spot := all
	spot.Spot = true
	res = mustRecommendOn(t, cat, spot)
	if rec := byName(res, "Standard_ND96isr_H100_v5"); rec == nil || !rec.PriceIsSpot || *rec.PricePerHour != 25.4 ||
		rec.PriceSource != "Spot price from the prices file ../azureexport/testdata/prices_retail.json in eastus." {
		t.Errorf("spot recommendation %+v", rec)
	}
	// Without a region, the price of the region chosen names the file when
	// it comes from it.
	noRegion := all
	noRegion.Region = ""
	res = mustRecommendOn(t, cat, noRegion)
	if rec := byName(res, "Standard_ND96isr_H100_v5"); rec == nil || *rec.PricePerHour != 63.5 ||
		!strings.HasPrefix(rec.PriceSource, fmt.Sprintf("Price from the prices file ../azureexport/testdata/prices_retail.json in eastus, the region chosen for it of the %d that price it", len(rec.SKU.Prices))) {
		t.Errorf("no-region recommendation %+v", rec)
	}
}
