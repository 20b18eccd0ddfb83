// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// The tests in this file change one input of a request, or one fact of
// the catalog, and check that the answer moves the way an architect
// expects, on random requests (randomRequest) over the fixture catalog.
// They read the engine through its exported API only.

// metamorphicRuns is the random requests each test draws.
const metamorphicRuns = 400

// eachRequest calls check for metamorphicRuns random requests on cat, in
// a fixed sequence. Most of them are widened (widen) so that a small
// catalog has sizes that fit them; check gets a second source of random
// numbers for the input it changes.
func eachRequest(t *testing.T, cat *catalog.Catalog, seed uint64, check func(req Request, r *rand.Rand)) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	own := rand.New(rand.NewPCG(seed, 8))
	for range metamorphicRuns {
		req := randomRequest(r, cat)
		if own.IntN(4) > 0 {
			req = widen(req)
		}
		check(req, own)
		if t.Failed() {
			return
		}
	}
}

// widen drops the filters that, on a catalog of a few sizes, leave no size
// for most random requests: minimums per VM, fixed counts, GPU models,
// software versions, isolation and a date past most retirements.
func widen(req Request) Request {
	req.MinVCPUs, req.MinMemoryGiB, req.MinLocalDiskGiB = nil, nil, nil
	req.Nodes, req.GPUs = nil, nil
	if req.Workload != WorkloadHPC && req.Workload != WorkloadHTC {
		req.Cores = nil
	}
	req.GPUModels, req.CUDAVersion, req.MinComputeCapability = nil, "", ""
	req.Confidential, req.Isolated = nil, nil
	req.AsOf = asOf
	if req.Region == "nowhere" {
		req.Region = ""
	}
	return req
}

// pickF is one of vs.
func pickF(r *rand.Rand, vs ...float64) *float64 { return f64(vs[r.IntN(len(vs))]) }

// scaled is a stated figure times k; nil where it is not stated.
func scaled(p *float64, k float64) *float64 {
	if p == nil {
		return nil
	}
	return f64(*p * k)
}

// passing ranks req with every size of the catalog named in prefer, which
// exempts it from scale_up, and every candidate listed: the sizes that
// pass every other hard constraint, by name. ok is false for a request
// the engine refuses as invalid; no size fitting is an empty map.
func passing(t *testing.T, eng *Engine, req Request) (sizes map[string]Recommendation, ok bool) {
	t.Helper()
	req.Prefer = nil
	for _, s := range eng.Catalog().SKUs() {
		req.Prefer = append(req.Prefer, s.Name)
	}
	return ranked(t, eng, req)
}

// ranked is passing with req's own prefer, so that scale_up applies.
func ranked(t *testing.T, eng *Engine, req Request) (sizes map[string]Recommendation, ok bool) {
	t.Helper()
	req.MaxResults = i64(MaxResultsLimit)
	res, err := eng.Recommend(req)
	var ve *ValidationError
	var nf *NoFitError
	switch {
	case errors.As(err, &ve):
		return nil, false
	case errors.As(err, &nf):
		return map[string]Recommendation{}, true
	case err != nil:
		t.Fatalf("%+v: %v", req, err)
	}
	if len(res.Recommendations) >= MaxResultsLimit {
		t.Fatalf("the catalog has more sizes than one result lists")
	}
	sizes = map[string]Recommendation{}
	for _, r := range res.Recommendations {
		sizes[r.VMSize] = r
	}
	return sizes, true
}

// keeps fails the test when a size of before is missing from after.
func keeps(t *testing.T, what string, req Request, before, after map[string]Recommendation) {
	t.Helper()
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s removes %s: request %+v, model %+v", what, name, req, req.Model)
		}
	}
}

// Asking for less GPU memory never removes a size: what holds the larger
// need holds the smaller.
func TestLessGPUMemoryNeverRemovesASize(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachRequest(t, eng.Catalog(), 11, func(req Request, r *rand.Rand) {
		if req.GPUMemoryGiB == nil || *req.GPUMemoryGiB <= 0 {
			req.GPUMemoryGiB = pickF(r, 10, 40, 80, 150, 400, 1500)
		}
		before, ok := passing(t, eng, req)
		if !ok {
			return
		}
		less := req
		less.GPUMemoryGiB = f64(*req.GPUMemoryGiB / 2)
		after, _ := passing(t, eng, less)
		keeps(t, "halving gpu_memory_gib", req, before, after)
		tried += len(before)
	})
	if tried == 0 {
		t.Fatal("no request had a size to keep")
	}
}

// A higher price cap never removes a size, nor does lifting the cap.
func TestRaisingAPriceCapNeverRemovesASize(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachRequest(t, eng.Catalog(), 12, func(req Request, r *rand.Rand) {
		if req.MaxPricePerHour == nil && req.MaxTotalPricePerHour == nil {
			req.MaxPricePerHour = pickF(r, 1, 4, 10, 30)
		}
		before, ok := passing(t, eng, req)
		if !ok {
			return
		}
		raised := req
		raised.MaxPricePerHour, raised.MaxTotalPricePerHour = scaled(req.MaxPricePerHour, 2), scaled(req.MaxTotalPricePerHour, 2)
		after, _ := passing(t, eng, raised)
		keeps(t, "doubling the price caps", req, before, after)
		lifted := req
		lifted.MaxPricePerHour, lifted.MaxTotalPricePerHour = nil, nil
		all, _ := passing(t, eng, lifted)
		keeps(t, "lifting the price caps", req, after, all)
		tried += len(before)
	})
	if tried == 0 {
		t.Fatal("no request had a size to keep")
	}
}

// A later deadline never removes a size, nor makes a size's job cost more:
// the job does the same work on fewer or as many VMs, on every GPU of each
// (a small job that one GPU of a multi-GPU VM would finish in time still
// trains on all the GPUs the VM pays for), with every size preferred and
// as ranked, where scale_up applies: a layout a stated deadline scaled out
// is not removed because another size meets a later one on one VM.
func TestLaterDeadlineNeverRemovesASizeOrRaisesItsJobCost(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	compared := 0
	eachRequest(t, eng.Catalog(), 13, func(req Request, r *rand.Rand) {
		if req.Workload != WorkloadTraining && req.Workload != WorkloadFineTuning {
			req.Workload = []string{WorkloadTraining, WorkloadFineTuning}[r.IntN(2)]
			req.ConcurrentRequests, req.TokensPerSecond, req.HPCBound = nil, nil, ""
		}
		if req.Model == nil {
			req.Model = &Model{ParametersBillion: *pickF(r, 1, 7, 13, 70)}
		}
		if req.DeadlineHours == nil || *req.DeadlineHours <= 0 || *req.DeadlineHours*2 > MaxDeadlineHours {
			req.DeadlineHours = pickF(r, 1, 10, 100, 1000)
		}
		compared += laterDeadlineKeeps(t, eng, req, false)
		compared += laterDeadlineKeeps(t, eng, req, true)
	})
	embedded := newTestEngine(t, testCatalog(t))
	for _, model := range []string{"llama-3.1-8b", "mistral-7b-v0.3"} {
		for _, tokens := range []float64{0.1, 1, 10} {
			for _, d := range []float64{1, 3, 6} {
				req := Request{Workload: WorkloadTraining, Model: &Model{Name: model}, TokensBillion: f64(tokens), DeadlineHours: f64(d), Region: "eastus", AsOf: asOf}
				compared += laterDeadlineKeeps(t, embedded, req, true)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no job cost compared")
	}
}

// laterDeadlineKeeps checks that req with its deadline doubled keeps every
// size that passes it at no more job cost, and returns the costs compared.
// asRanked ranks req as it is, where scale_up applies: the later deadline
// may then remove a size whose job spans VMs for memory (one VM of it
// holds not even the job; another size meets the later deadline on one
// VM), never one whose VMs the deadline added.
func laterDeadlineKeeps(t *testing.T, eng *Engine, req Request, asRanked bool) int {
	t.Helper()
	list := passing
	if asRanked {
		list = ranked
	}
	before, ok := list(t, eng, req)
	if !ok {
		return 0
	}
	later := req
	later.DeadlineHours = f64(*req.DeadlineHours * 2)
	after, _ := list(t, eng, later)
	if asRanked {
		oneVM := req
		oneVM.DeadlineHours, oneVM.MaxNodes, oneVM.Nodes = nil, i64(1), nil
		fits, _ := passing(t, eng, oneVM)
		for name := range before {
			if _, ok := fits[name]; !ok {
				delete(before, name)
			}
		}
	}
	keeps(t, "doubling deadline_hours", req, before, after)
	compared := 0
	for name, b := range before {
		a, ok := after[name]
		if !ok || b.Estimate == nil || a.Estimate == nil || b.Estimate.JobCostUSD == nil || a.Estimate.JobCostUSD == nil {
			continue
		}
		compared++
		was, now := *b.Estimate.JobCostUSD, *a.Estimate.JobCostUSD
		if now > was*1.0001+0.01 {
			t.Errorf("%s: the job costs %v USD by %v hours on %d VMs, %v USD by %v hours on %d VMs: request %+v, model %+v",
				name, was, *req.DeadlineHours, b.Nodes, now, *later.DeadlineHours, a.Nodes, req, req.Model)
		}
	}
	return compared
}

// withPrice returns cat with the size's on-demand and spot prices in every
// region multiplied by factor.
func withPrice(t *testing.T, cat *catalog.Catalog, s *catalog.SKU, factor float64) *catalog.Catalog {
	t.Helper()
	regions := map[string]catalog.OverlayPrice{}
	for region, p := range s.Prices {
		op := catalog.OverlayPrice{USDPerHour: f64(p.USDPerHour * factor)}
		if p.SpotUSDPerHour != nil {
			op.SpotUSDPerHour = f64(*p.SpotUSDPerHour * factor)
		}
		regions[region] = op
	}
	c, _, err := cat.WithOverlays(catalog.Overlays{Prices: &catalog.PriceOverlay{Source: "test", Prices: map[string]map[string]catalog.OverlayPrice{strings.ToLower(s.Name): regions}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rankOf is the size's rank in res, 0 when it is not ranked.
func rankOf(res *Result, name string) int64 {
	if r := byName(res, name); r != nil {
		return r.Rank
	}
	return 0
}

// A size whose price goes up never ranks higher.
func TestHigherPriceNeverRaisesASizesRank(t *testing.T) {
	cat := fixture(t)
	eng := newTestEngine(t, cat)
	pick := rand.New(rand.NewPCG(14, 1))
	compared := 0
	eachRequest(t, cat, 14, func(req Request, _ *rand.Rand) {
		req.MaxResults = i64(MaxResultsLimit)
		res, err := eng.Recommend(req)
		if err != nil {
			return
		}
		r := res.Recommendations[pick.IntN(len(res.Recommendations))]
		if len(r.SKU.Prices) == 0 {
			return
		}
		dearer, err := newTestEngine(t, withPrice(t, cat, r.SKU, 1.5)).Recommend(req)
		if err != nil {
			return // the dearer size fails a price cap and nothing else fits
		}
		compared++
		if now := rankOf(dearer, r.VMSize); now != 0 && now < r.Rank {
			t.Errorf("%s ranks %d, %d at 1.5 times its price: request %+v, model %+v", r.VMSize, r.Rank, now, req, req.Model)
		}
	})
	if compared == 0 {
		t.Fatal("no rank compared")
	}
}

// withSize returns cat with a copy of the named size's record under a new
// name, as a newer size the catalog gains.
func withSize(t *testing.T, cat *catalog.Catalog, from, name string) *catalog.Catalog {
	t.Helper()
	doc, err := catalogtest.Document("skus.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.SKUs {
		if s.Name == from {
			s.Name = name
			c, _, err := cat.WithOverlays(catalog.Overlays{Catalog: &catalog.CatalogFile{File: "test", Document: catalog.Document{SKUs: []catalog.SKUDoc{s}}}})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	t.Fatalf("%s is not in the fixture", from)
	return nil
}

// A size the catalog gains never removes another: each size's hard
// constraints are its own (scale_up aside, which prefer lifts here).
func TestAddingASizeNeverRemovesAnother(t *testing.T) {
	base := fixture(t)
	for _, from := range []string{"Standard_ND96isr_H100_v5", "Standard_NC24ads_A100_v4", "Standard_HB120rs_v3"} {
		grown := withSize(t, base, from, from+"_next")
		if len(grown.SKUs()) != len(base.SKUs())+1 {
			t.Fatalf("%s: %d sizes, want %d", from, len(grown.SKUs()), len(base.SKUs())+1)
		}
		engBase, engGrown := newTestEngine(t, base), newTestEngine(t, grown)
		eachRequest(t, base, 15, func(req Request, _ *rand.Rand) {
			before, ok := passing(t, engBase, req)
			if !ok {
				return
			}
			after, _ := passing(t, engGrown, req)
			keeps(t, "adding a copy of "+from, req, before, after)
		})
	}
}

// Every size is ranked or counted once under the first constraint it
// fails, the counts in the constraint table's order, and the same request
// gives the same answer.
func TestEverySizeIsRankedOrCountedOnce(t *testing.T) {
	cat := fixture(t)
	eng := newTestEngine(t, cat)
	eachRequest(t, cat, 16, func(req Request, _ *rand.Rand) {
		req.MaxResults = i64(MaxResultsLimit)
		res, err := eng.Recommend(req)
		again, err2 := eng.Recommend(req)
		if !reflect.DeepEqual(res, again) || !reflect.DeepEqual(err, err2) {
			t.Fatalf("%+v: two answers", req)
		}
		var rejected []Rejection
		ranked := 0
		var nf *NoFitError
		switch {
		case err == nil:
			rejected, ranked = res.Rejected, len(res.Recommendations)
			checkInvariants(t, cat, req, res)
		case errors.As(err, &nf):
			rejected = nf.Rejected
		default:
			return
		}
		checkRejections(t, cat, req, rejected)
		sum := int64(ranked)
		for _, r := range rejected {
			sum += r.Count
		}
		if sum != int64(len(cat.SKUs())) {
			t.Errorf("%d ranked and %s: %d of %d sizes", ranked, formatRejections(rejected), sum, len(cat.SKUs()))
		}
	})
}

// licenceTieMargin is how much cheaper per unit of work than the top
// layout another may be where the licence decides: the score's resolution
// (0.1 point of a cost component of about 70 points).
const licenceTieMargin = 0.003

// licensedLevels are the licences (USD per core-hour) the licence tests
// raise a request through.
var licensedLevels = []float64{0.001, 0.01, 0.03, 0.1, 0.3, 1, 3, 10, 100, 1000}

// perUnit is a ranked layout's price plus licences per unit of relative
// throughput, and the cores its licences count; ok is false where the
// estimate lacks either.
func perUnit(r *Recommendation, license float64) (cost, cores float64, ok bool) {
	e := r.Estimate
	if e == nil || e.RelativeThroughput == nil || *e.RelativeThroughput <= 0 || e.LicenseCostPerHour == nil || r.TotalPricePerHour == nil {
		return 0, 0, false
	}
	return (*r.TotalPricePerHour + *e.LicenseCostPerHour) / *e.RelativeThroughput, *e.LicenseCostPerHour / license, true
}

// A per-core licence is compared as the documentation says: price plus
// licence per unit of throughput. Raising it never moves the pick to more
// licensed cores at a higher cost per unit than the pick it replaces, and
// once the licences outweigh the VMs of the cheapest layout per unit of
// work, that layout ranks first (within licenceTieMargin, below which the
// scores, rounded to 0.1 point, cannot tell two layouts apart). The time and scale components compared
// raw throughput and fewer VMs, which won a rising licence back for larger
// VMs of more, slower cores: compute-bound in eastus picked HB176rs v4 at
// 0.03 USD per core-hour and HB368rs v5 at 0.1 and 1 (387.80 per unit,
// HB176rs v4 315.75).
func TestHigherLicenceNeverBuysCostlierCores(t *testing.T) {
	t.Parallel()
	eng := testEngine(t)
	for _, bound := range []string{BoundCompute, BoundMemoryBandwidth, BoundMemoryCapacity} {
		for _, region := range []string{"eastus", "westeurope"} {
			for _, cores := range []*int64{nil, i64(4096)} {
				name := fmt.Sprintf("%s/%s/cores=%v", bound, region, cores != nil)
				var prev *Recommendation
				prevLic := 0.0
				for _, lic := range licensedLevels {
					req := Request{Workload: WorkloadHPC, HPCBound: bound, Region: region, Cores: cores, LicenseCostPerCoreHour: f64(lic), MaxResults: i64(MaxResultsLimit), AsOf: asOf}
					res, err := eng.Recommend(req)
					if err != nil {
						t.Fatalf("%s at %v: %v", name, lic, err)
					}
					if msg := licensedPickMoved(res, prev, prevLic, lic); msg != "" {
						t.Errorf("%s: %s", name, msg)
					}
					if msg := cheaperPerUnitBelow(res, lic); msg != "" {
						t.Errorf("%s at %v: %s", name, lic, msg)
					}
					prev, prevLic = &res.Recommendations[0], lic
				}
			}
		}
	}
}

// licensedPickMoved says how raising the licence from prevLic to lic moved
// the pick from prev to more licensed cores at a higher cost per unit than
// prev's at lic; "" when it did not.
func licensedPickMoved(res *Result, prev *Recommendation, prevLic, lic float64) string {
	if prev == nil {
		return ""
	}
	top := &res.Recommendations[0]
	topCost, topCores, _ := perUnit(top, lic)
	_, prevCores, _ := perUnit(prev, prevLic)
	i := slices.IndexFunc(res.Recommendations, func(r Recommendation) bool { return r.VMSize == prev.VMSize && r.Nodes == prev.Nodes })
	if i < 0 || topCores <= prevCores {
		return ""
	}
	if c, _, ok := perUnit(&res.Recommendations[i], lic); ok && topCost > c*(1+1e-9) {
		return fmt.Sprintf("licence %v -> %v moved the pick %s × %d -> %s × %d, %s licensed cores -> %s at %.2f -> %.2f per unit",
			prevLic, lic, prev.VMSize, prev.Nodes, top.VMSize, top.Nodes, trimFloat(prevCores), trimFloat(topCores), c, topCost)
	}
	return ""
}

// cheaperPerUnitBelow names a layout ranked below the top one that costs
// less per unit of work by more than licenceTieMargin while its licences
// outweigh its VMs; "" when none does.
func cheaperPerUnitBelow(res *Result, lic float64) string {
	top := &res.Recommendations[0]
	topCost, _, ok := perUnit(top, lic)
	if !ok {
		return top.VMSize + " has no estimate"
	}
	for i := range res.Recommendations[1:] {
		r := &res.Recommendations[i+1]
		c, _, ok := perUnit(r, lic)
		if !ok || c >= topCost*(1-licenceTieMargin) {
			continue
		}
		if share := *r.Estimate.LicenseCostPerHour / (*r.TotalPricePerHour + *r.Estimate.LicenseCostPerHour); share >= 0.5 {
			return fmt.Sprintf("%s × %d first at %.2f per unit, %s × %d cheaper at %.2f (licences %s of its price)",
				top.VMSize, top.Nodes, topCost, r.VMSize, r.Nodes, c, percent(share))
		}
	}
	return ""
}

// At a licence far above any VM's price a constrained-core size, fewest
// licensed cores for the memory bandwidth, wins: at 1,000 USD per
// core-hour in eastus HB368rs v5 ranked first at 368,020 per unit where
// HB368-48rs v5 is 17% cheaper (it ranked 8th).
func TestConstrainedCoreSizeWinsAtAHighLicence(t *testing.T) {
	t.Parallel()
	res := mustRecommend(t, Request{Workload: WorkloadHPC, Region: "eastus", LicenseCostPerCoreHour: f64(1000), AsOf: asOf})
	top := res.Recommendations[0]
	if top.VMSize != "Standard_HB368-48rs_v5" || top.SKU.QuotaVCPUs == nil {
		t.Errorf("top %s, want the constrained-core Standard_HB368-48rs_v5: %v", top.VMSize, names(res))
	}
}
