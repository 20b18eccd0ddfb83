// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

var threeRegions = []string{"eastus", "westeurope", "southcentralus"}

// With three allowed regions, every size is placed in the cheapest of them
// that prices it, never outside the list, and its price is that region's;
// with spot, the cheapest of those with a spot price, else of those where
// none is known, before those where Azure sells no Spot VMs of it (D75).
func TestRegionsPlaceEachSizeInItsCheapestAllowedRegion(t *testing.T) {
	cat := testCatalog(t)
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}},
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, MaxResults: i64(MaxResultsLimit)},
		{Workload: WorkloadHPC, Cores: i64(1024), MaxResults: i64(MaxResultsLimit)},
		{Workload: WorkloadInference, Model: &Model{ParametersBillion: 13}, Spot: true, MaxResults: i64(MaxResultsLimit)},
	} {
		req.Regions, req.AsOf = threeRegions, asOf
		res := mustRecommend(t, req)
		checkInvariants(t, cat, req, res)
		for _, r := range res.Recommendations {
			if !slices.Contains(threeRegions, r.PriceRegion) {
				t.Fatalf("%s %s: region %q is not one of %v", req.Workload, r.VMSize, r.PriceRegion, threeRegions)
			}
			cheapest, where, tier := math.Inf(1), "", 3
			for _, reg := range threeRegions {
				p, ok := r.SKU.Prices[reg]
				if !ok {
					continue
				}
				price, t := p.USDPerHour, 0
				switch {
				case !req.Spot:
				case p.SpotUSDPerHour != nil:
					price = *p.SpotUSDPerHour
				case p.NoSpot:
					t = 2
				default:
					t = 1
				}
				if t < tier || t == tier && (price < cheapest || price == cheapest && reg < where) {
					cheapest, where, tier = price, reg, t
				}
			}
			if r.PriceRegion != where || r.PricePerHour == nil || *r.PricePerHour != cheapest {
				t.Errorf("%s %s: placed in %s at %v; the cheapest allowed region is %s at %v", req.Workload, r.VMSize, r.PriceRegion, r.PricePerHour, where, cheapest)
			}
		}
	}
}

// One region in regions ranks as region does, and a size no allowed region
// offers is removed under the region constraint.
func TestRegionsOfOneRegionIsRegion(t *testing.T) {
	base := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, AsOf: asOf}
	one, list := base, base
	one.Region, list.Regions = "westeurope", []string{"westeurope"}
	a, b := mustRecommend(t, one), mustRecommend(t, list)
	if !slices.Equal(names(a), names(b)) || !slices.EqualFunc(a.Rejected, b.Rejected, func(x, y Rejection) bool { return x.Constraint == y.Constraint && x.Count == y.Count }) {
		t.Errorf("region %v / %v\nregions %v / %v", names(a), a.Rejected, names(b), b.Rejected)
	}
	if r := rejection(b.Rejected, "region"); r == nil || !strings.Contains(r.Reason, `No price in regions "westeurope"`) {
		t.Errorf("region rejection %+v", r)
	}
}

// With an availability file, a size is placed only where the subscription
// can deploy it: the H100 size, restricted in eastus, goes to westus3; a
// size restricted in every allowed region that lists it is removed under
// availability.
func TestRegionsWithAvailabilityAvoidRestrictedRegions(t *testing.T) {
	cat := withAvailability(t)
	eng := newTestEngine(t, cat)
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Regions: []string{"eastus", "westus3", "westus2"}, MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	res, err := eng.Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Recommendations {
		if !r.SKU.AvailableIn(r.PriceRegion) || !slices.Contains(req.Regions, r.PriceRegion) {
			t.Errorf("%s placed in %q, where the subscription cannot deploy it", r.VMSize, r.PriceRegion)
		}
		if r.VMSize == "Standard_ND96isr_H100_v5" && r.PriceRegion != "westus3" {
			t.Errorf("the H100 size is placed in %s, want westus3 (restricted in eastus)", r.PriceRegion)
		}
	}
	only := req
	only.Regions = []string{"westus2", "eastus2"}
	only.GPUModels = []string{"a100-sxm-80gb"}
	_, err = eng.Recommend(only)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("want no fit, got %v", err)
	}
	if r := rejection(nf.Rejected, "availability"); r == nil || !slices.Contains(r.Examples, "Standard_ND96amsr_A100_v4") {
		t.Errorf("the A100 size restricted (QuotaId) in westus2 is not counted under availability: %+v", nf.Rejected)
	}
}

// Without region or regions, a size is placed, priced and judged on quota
// in a region where the subscription can deploy it, when one prices it:
// the H100 size, restricted in eastus (NotAvailableForSubscription), goes
// to a region the availability file offers it in at the same 98.32 USD/h,
// not to eastus, whose usage file would have called its quota sufficient.
func TestNoRegionPlacesSizesWhereTheyDeploy(t *testing.T) {
	eng := newTestEngine(t, withAvailability(t))
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, GPUModels: []string{"h100-sxm-80gb", "a100-sxm-80gb"},
		Usage: usageFixture(t), MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	res, err := eng.Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Recommendations {
		deployable := slices.ContainsFunc(r.SKU.AvailableRegions(), func(reg string) bool { _, priced := r.SKU.Prices[reg]; return priced })
		if deployable && !r.SKU.AvailableIn(r.PriceRegion) {
			t.Errorf("%s placed in %s, where the subscription cannot deploy it; it can in %v", r.VMSize, r.PriceRegion, r.SKU.AvailableRegions())
		}
	}
	h := byName(res, h100)
	if h == nil || h.PriceRegion == "eastus" || *h.PricePerHour != 98.32 || h.Quota.Status == QuotaSufficient {
		t.Errorf("%s: %+v", h100, h)
	}
}

// With spot = true, a size goes to a region where Azure may sell Spot VMs
// of it before one where it sells none (D75), with regions or without:
// Standard_ND96amsr_A100_v4 costs 32.77 USD/h on demand in eastus, where it
// is not low-priority capable, and in westus2, where no spot row says so.
func TestSpotPrefersRegionsSellingSpot(t *testing.T) {
	const a100 = "Standard_ND96amsr_A100_v4"
	for _, regions := range [][]string{{"eastus", "westus2"}, nil} {
		req := Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, Spot: true, Regions: regions, GPUModels: []string{"a100-sxm-80gb"}, AsOf: asOf}
		r := byName(mustRecommend(t, req), a100)
		if r == nil {
			t.Fatalf("regions %v: %s is not ranked", regions, a100)
		}
		if p := r.SKU.Prices[r.PriceRegion]; p.NoSpot {
			t.Errorf("regions %v: %s placed in %s, where Azure sells no Spot VMs of it; warnings %q", regions, a100, r.PriceRegion, r.Warnings)
		}
	}
}

func TestRegionsValidation(t *testing.T) {
	eng := testEngine(t)
	for _, tt := range []struct {
		req           Request
		path, summary string
		detail        string
	}{
		{Request{Workload: WorkloadHPC, Regions: []string{"eastus", "westeurop"}}, "regions.1", "Unknown Region", "Did you mean one of: westeurope"},
		{Request{Workload: WorkloadHPC, Regions: []string{" "}}, "regions.0", "Empty Region", "got an empty string"},
		{Request{Workload: WorkloadHPC, Region: "eastus", Regions: []string{"westus2"}}, "regions", "Conflicting Regions", "not both"},
	} {
		errs := eng.Validate(tt.req)
		if len(errs) != 1 || strings.Join(errs[0].Path, ".") != tt.path || errs[0].Summary != tt.summary || !strings.Contains(errs[0].Detail, tt.detail) || errs[0].Kind != KindInvalid {
			t.Errorf("%+v: got %+v", tt.req.Regions, errs)
		}
	}
}
