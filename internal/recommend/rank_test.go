// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// A served layout above the sizing band ranks after a layout inside it
// whose output tokens cost at most 10% more, its score capped there; one
// whose in-band rivals all cost more than that keeps its place, as does a
// layout of another group (a spot price against on-demand ones).
func TestBandOrder(t *testing.T) {
	served := func(name string, sizing, perToken, score float64) candidate {
		e := &eval{memBand: true, sizing: sizing, hasPrice: true, total: perToken * 1000, serviceTPS: 1000, in: &sizeInfo{sku: &catalog.SKU{Name: name}}}
		return candidate{eval: e, score: score}
	}
	names := func(cs []candidate) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = fmt.Sprintf("%s %.0f", c.in.sku.Name, c.score)
		}
		return out
	}
	cands := []candidate{
		served("full-cheap", 0.99, 1.0, 90),
		served("full-cheaper", 0.95, 0.5, 88),
		served("band-close", 0.60, 1.08, 85),
		served("band-dear", 0.70, 1.5, 80),
	}
	bandOrder(cands, 0)
	want := []string{"full-cheaper 88", "band-close 85", "full-cheap 85", "band-dear 80"}
	if got := names(cands); !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	other := []candidate{served("full-spot", 0.99, 1.0, 90), served("band-on-demand", 0.6, 1.0, 85)}
	other[1].lacksSpot = true
	bandOrder(other, 0)
	if got := names(other); got[0] != "full-spot 90" {
		t.Errorf("across groups: %q", got)
	}
}

// Phi-3 mini at 3 requests per second, stated as a team would: one H100
// NVL serves it for less per hour than two A100s, with capacity to spare,
// and ranks first although its one copy fills less of its memory than the
// A100s' two.
func TestLightLoadRanksTheCheaperFasterSizeFirst(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "phi-3-mini"}, RequestsPerSecond: f64(3), AsOf: asOf})
	h100, a100 := byName(res, "Standard_NC40ads_H100_v5"), byName(res, "Standard_NC48ads_A100_v4")
	if h100 == nil || a100 == nil {
		t.Fatalf("both sizes serve the load: %v", names(res))
	}
	if *h100.TotalPricePerHour >= *a100.TotalPricePerHour || *h100.Estimate.TokensPerSecond <= *a100.Estimate.TokensPerSecond {
		t.Fatalf("premise: the H100 NVL (%v USD/h, %v tok/s) should be cheaper and faster than the two A100s (%v USD/h, %v tok/s)",
			*h100.TotalPricePerHour, *h100.Estimate.TokensPerSecond, *a100.TotalPricePerHour, *a100.Estimate.TokensPerSecond)
	}
	if h100.Rank > a100.Rank {
		t.Errorf("the H100 NVL ranks %d (score %v), below the two A100s at %d (%v)", h100.Rank, h100.Score, a100.Rank, a100.Score)
	}
}

// A size the price list does not name (usually not offered yet; the
// catalog has ND GB300 v6 without a price) never ranks above a priced size:
// default training of 8B had ranked GB300 second, above MI300X, which runs
// 11 hours past the default deadline.
func TestUnpricedSizesRankAfterPricedOnes(t *testing.T) {
	eng := testEngine(t)
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}},
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Nodes: i64(120)},
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}},
	} {
		req.AsOf, req.MaxResults = asOf, i64(50)
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatal(err)
		}
		unpriced := ""
		for _, r := range res.Recommendations {
			switch {
			case r.PricePerHour == nil && unpriced == "":
				unpriced = r.VMSize
			case r.PricePerHour != nil && unpriced != "":
				t.Errorf("%s %v: %s (no price) ranks above %s (%v USD/h)", req.Workload, req.Model, unpriced, r.VMSize, *r.PricePerHour)
			}
		}
	}
}
