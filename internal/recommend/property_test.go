// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
)

// randomRequest draws a request over the whole input space, mostly valid,
// sometimes not.
func randomRequest(r *rand.Rand, cat *catalog.Catalog) Request {
	pick := func(vs ...string) string { return vs[r.IntN(len(vs))] }
	maybeF := func(vs ...float64) *float64 {
		if r.IntN(3) > 0 {
			return nil
		}
		v := vs[r.IntN(len(vs))]
		return &v
	}
	maybeI := func(vs ...int64) *int64 {
		if r.IntN(3) > 0 {
			return nil
		}
		v := vs[r.IntN(len(vs))]
		return &v
	}
	req := Request{
		Workload:             pick(append([]string{"", "train"}, append(Workloads(), Workloads()...)...)...),
		GPUMemoryGiB:         maybeF(8, 40, 100, 700, 5000, 0),
		GPUs:                 maybeI(1, 2, 4, 8, 16, 64),
		Nodes:                maybeI(1, 2, 4, 16, 150),
		Cores:                maybeI(16, 128, 2000, 20000),
		MinVCPUs:             maybeI(4, 48, 200),
		MinMemoryGiB:         maybeF(16, 400, 2000),
		MinLocalDiskGiB:      maybeF(100, 3000, 20000),
		Interconnect:         pick(append([]string{""}, Interconnects()...)...),
		GPUVendor:            pick("", "", "any", "nvidia", "amd"),
		CUDAVersion:          pick("", "", "", "11.8", "12.0", "12.8", "13.0"),
		MinComputeCapability: pick("", "", "", "7.0", "8.0", "9.0", "10.0"),
		Target:               pick(append([]string{"", ""}, Targets()...)...),
		MaxPricePerHour:      maybeF(0.5, 2, 10, 50),
		MaxTotalPricePerHour: maybeF(1, 20, 200),
		Spot:                 r.IntN(4) == 0,
		MinLifetimeMonths:    maybeI(0, 12, 36),
		IncludePreview:       r.IntN(2) == 0,
		OptimizeFor:          pick(append([]string{""}, OptimizeFors()...)...),
		MaxResults:           maybeI(1, 3, 50),
		AsOf:                 []time.Time{{}, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), asOf, time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)}[r.IntN(5)],
	}
	if r.IntN(10) < 6 {
		req.Model = &Model{
			ParametersBillion: []float64{0, 0.1, 1.3, 7, 13, 70, 175, 405, 1000}[r.IntN(9)],
			Precision:         pick(append([]string{""}, Precisions()...)...),
			Class:             pick("", "", "generative", "nongenerative", "small"),
		}
		// A named model of the table (by id or display name, any case),
		// sometimes with a count of its own or an unknown name; else now
		// and then a mixture of experts by its active parameters.
		switch models := cat.Models(); r.IntN(10) {
		case 0, 1, 2, 3:
			m := models[r.IntN(len(models))]
			req.Model.Name = pick(m.ID, m.Name, strings.ToUpper(m.ID))
			if r.IntN(3) > 0 {
				req.Model.ParametersBillion = 0
			}
			if r.IntN(2) == 0 {
				req.Model.Precision = ""
			}
		case 4:
			req.Model.Name = "no-such-model"
		case 5:
			req.Model.ActiveParametersBillion = req.Model.ParametersBillion / 8
		}
	}
	// The inputs of model workloads, mostly on the workloads that use them.
	switch req.Workload {
	case WorkloadFineTuning:
		req.FineTuningMethod = pick("", "", MethodFull, MethodLoRA, MethodQLoRA)
		req.TrainingBatchSize = maybeI(1, 4, 64)
		req.ContextTokens = maybeI(512, 4096, 32768)
		req.TokensBillion = maybeF(0.01, 0.1, 1, 20)
		req.DeadlineHours = maybeF(0.5, 4, 24, 720)
	case WorkloadTraining:
		req.TrainingBatchSize = maybeI(1, 4, 64)
		req.ContextTokens = maybeI(512, 4096, 32768)
		req.TokensBillion = maybeF(1, 100, 2000, 15000)
		req.DeadlineHours = maybeF(10, 168, 720, 2000, 20000)
	case WorkloadInference:
		req.ContextTokens = maybeI(512, 4096, 32768, 1<<20)
		req.ConcurrentRequests = maybeI(1, 8, 64, 1000)
		req.TokensPerSecond = maybeF(50, 2000, 50000, 1e6, 1e8)
	case WorkloadHPC, WorkloadHTC:
		req.HPCBound = pick(append([]string{"", ""}, HPCBounds()...)...)
	}
	if r.IntN(30) == 0 {
		req.FineTuningMethod = pick("lora", "bogus")
	}
	// The throughput inputs now and then out of range, or on a workload
	// that does not use them.
	if r.IntN(60) == 0 {
		req.DeadlineHours = maybeF(-1, 0, MaxDeadlineHours+1, 24)
	}
	if r.IntN(60) == 0 {
		req.TokensPerSecond = maybeF(0, math.Inf(1), 100)
	}
	if r.IntN(60) == 0 {
		req.HPCBound = pick("bogus", BoundCompute)
	}
	if r.IntN(30) == 0 {
		req.ConcurrentRequests = i64(16)
	}
	if r.IntN(4) == 0 {
		req.Region = pick(append([]string{"nowhere"}, cat.Regions()...)...)
	}
	if r.IntN(6) == 0 {
		ids := cat.GPUModelIDs()
		req.GPUModels = []string{ids[r.IntN(len(ids))], ids[r.IntN(len(ids))]}
	}
	if r.IntN(4) == 0 {
		req.Confidential = boolp(r.IntN(3) == 0)
	}
	if r.IntN(4) == 0 {
		req.Isolated = boolp(r.IntN(2) == 0)
	}
	if r.IntN(4) == 0 {
		skus := cat.SKUs()
		req.Prefer = []string{skus[r.IntN(len(skus))].Name, "Standard_Nothing", skus[r.IntN(len(skus))].Name}
	}
	return req
}

// Scenario 12: every returned size satisfies every hard constraint (checked
// independently by satisfies), ranks are 1..n, every size is either
// recommended or counted once in Rejected, scale-up and fallback ordering
// hold, and the output is deterministic.
func TestProperties(t *testing.T) {
	eng := testEngine(t)
	cat := eng.Catalog()
	r := rand.New(rand.NewPCG(1, 2))
	var ok, nofit, invalid int
	for i := 0; i < 3000; i++ {
		req := randomRequest(r, cat)
		res, err := eng.Recommend(req)
		fatal, _ := validate(cat, req)
		var ve *ValidationError
		var nf *NoFitError
		switch {
		case len(fatal) > 0:
			if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Errors, fatal) {
				t.Fatalf("%+v: want the validation errors, got %v", req, err)
			}
			invalid++
			continue
		case errors.As(err, &nf):
			nofit++
			var sum int64
			for _, rj := range nf.Rejected {
				sum += rj.Count
			}
			if sum != int64(len(cat.SKUs())) {
				t.Fatalf("%+v: no fit, but rejections count %d sizes", req, sum)
			}
			checkRejections(t, cat, req, nf.Rejected)
			if t.Failed() {
				t.Fatalf("request %+v model %+v", req, req.Model)
			}
			if m := nf.NearestMiss; m != nil {
				if _, found := cat.Lookup(m.VMSize); !found || len(m.FailedConstraints) == 0 || m.FailedConstraint != m.FailedConstraints[0] || m.Relax == "" {
					t.Fatalf("%+v: nearest miss %+v", req, m)
				}
			}
			if nf.Error() == "" {
				t.Fatal("empty error text")
			}
		case err != nil:
			t.Fatalf("%+v: unexpected error %v", req, err)
		default:
			ok++
			checkInvariants(t, cat, req, res)
			if t.Failed() {
				t.Fatalf("request %+v model %+v", req, req.Model)
			}
			checkOrdering(t, req, res)
			// All candidates: recommended + rejected = the catalog.
			all := req
			all.MaxResults = i64(50)
			full, err := eng.Recommend(all)
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for _, rj := range full.Rejected {
				sum += rj.Count
			}
			if n := len(full.Recommendations); n < 50 && sum+int64(n) != int64(len(cat.SKUs())) {
				t.Fatalf("%+v: %d recommended + %d rejected != %d", req, n, sum, len(cat.SKUs()))
			}
			if !reflect.DeepEqual(full.Rejected, res.Rejected) || !reflect.DeepEqual(full.Requirements, res.Requirements) {
				t.Fatalf("%+v: max_results changed more than the list length", req)
			}
			for j := range res.Recommendations {
				// The lists that name other ranked sizes are the longer
				// list's, restricted to the sizes of the shorter one.
				got, want := res.Recommendations[j], full.Recommendations[j]
				shown := map[string]bool{}
				for _, r := range res.Recommendations {
					shown[r.VMSize] = true
				}
				got.Deployment, want.Deployment = withoutRankedLists(t, got.Deployment, want.Deployment, shown)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%+v: rank %d differs with max_results 50", req, j+1)
				}
			}
		}
		again, err2 := eng.Recommend(req)
		if !reflect.DeepEqual(res, again) || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("%+v: not deterministic", req)
		}
	}
	t.Logf("%d results, %d no-fit errors, %d invalid requests", ok, nofit, invalid)
	if ok < 300 || nofit < 300 || invalid < 100 {
		t.Errorf("the generator must reach every outcome: %d results, %d no-fit, %d invalid", ok, nofit, invalid)
	}
}

// checkOrdering: scale up before scale out, and fallback families last.
// Sizes named in prefer keep their multi-VM layouts (Recommend: "except
// sizes named in prefer"), whether or not they are the one ranked first.
// A served model's copies on separate VMs (replicas) are not a multi-VM
// layout: only a copy split over VMs (pipeline stages) is; nor does a
// single VM that runs a training job past the default deadline make the
// layouts that scale out to meet it go. Within the primary and the
// fallback families, layouts past the default deadline come after those
// that meet it, and sizes the throughput model cannot time after those it
// can.
func checkOrdering(t *testing.T, req Request, res *Result) {
	t.Helper()
	cat := testCatalog(t)
	n := deriveRequirements(cat, req)
	named := map[string]bool{}
	for _, p := range req.Prefer {
		if s, ok := cat.Lookup(p); ok {
			named[s.Name] = true
		}
	}
	fallback := false
	multi, single := false, false
	untimed, lateSeen := false, false
	noSpotSeen := false
	for _, r := range res.Recommendations {
		// With spot = true, the sizes without a spot price come after every
		// size with one, and the groups below start over among them.
		noSpot := req.Spot && !r.PriceIsSpot
		if !r.Preferred {
			if noSpotSeen && !noSpot {
				t.Errorf("%+v: %s, with a spot price, after a size without one", req, r.VMSize)
			}
			if noSpot && !noSpotSeen {
				fallback, untimed, lateSeen = false, false, false
			}
			noSpotSeen = noSpotSeen || noSpot
		}
		fb := slices.Contains(n.fit.fallback, r.SKU.Family)
		if fallback && !fb && !r.Preferred {
			t.Errorf("%+v: %s after a fallback size", req, r.VMSize)
		}
		if fb && !fallback && !r.Preferred {
			untimed, lateSeen = false, false // the fallback group starts over
		}
		spans := r.Nodes > 1
		if r.TensorParallel > 0 {
			spans = r.PipelineStages > 1
		}
		e := r.Estimate
		timed := e != nil && (e.JobHours != nil || e.TokensPerSecond != nil || e.RelativeThroughput != nil)
		late := timed && e.JobHours != nil && req.DeadlineHours == nil && *e.JobHours > DefaultDeadlineHours
		if !r.Preferred {
			if (untimed && timed) || (lateSeen && !late && timed) {
				t.Errorf("%+v: %s (estimate %+v) after a layout past the default deadline or a size without figures", req, r.VMSize, e)
			}
			untimed = untimed || (e != nil && !timed)
			lateSeen = lateSeen || late
		}
		if !r.Preferred {
			fallback = fallback || fb
			single = single || (!spans && !late)
		}
		if !r.Preferred && !named[r.VMSize] {
			multi = multi || spans
		}
	}
	if n.scaleUpApplies() && multi && single {
		t.Errorf("%+v: multi-VM layouts next to single-VM ones: %v", req, names(res))
	}
}

// Scores stay within 0..100 and never NaN, whatever the weights meet.
func TestScoreBounds(t *testing.T) {
	cat := testCatalog(t)
	p := prepare(cat)
	for _, o := range OptimizeFors() {
		n := deriveRequirements(cat, Request{Workload: "inference", OptimizeFor: o, Model: &Model{ParametersBillion: 1}})
		for i := range p.sizes {
			var e eval
			evaluate(n, &p.sizes[i], &e)
			for _, minCost := range []float64{0.01, 1, math.Inf(1)} {
				for _, maxSpeed := range []float64{0, e.speed, 2 * e.speed, 1e12} {
					ref := scoreRef{minCost: minCost, maxSpeed: maxSpeed, minTTFT: e.ttft / 2}
					if s := score(n, &e, &ref); !(s >= 0 && s <= 100) {
						t.Errorf("%s: score %v", p.sizes[i].sku.Name, s)
					}
				}
			}
		}
	}
}

// withoutRankedLists checks that the ranked-size lists of got (from a
// shorter result) are those of want restricted to the shown sizes, and
// returns both deployments without those lists.
func withoutRankedLists(t *testing.T, got, want deploy.Deployment, shown map[string]bool) (deploy.Deployment, deploy.Deployment) {
	t.Helper()
	restrict := func(l []string) []string {
		var out []string
		for _, s := range l {
			if shown[s] {
				out = append(out, s)
			}
		}
		return out
	}
	if got.AKS != nil && want.AKS != nil {
		g, w := *got.AKS, *want.AKS
		if (g.NodeAutoProvisioning == nil) != (w.NodeAutoProvisioning == nil) {
			t.Errorf("node auto-provisioning %v, want %v", g.NodeAutoProvisioning, w.NodeAutoProvisioning)
		} else if g.NodeAutoProvisioning != nil {
			if !reflect.DeepEqual(g.NodeAutoProvisioning.Values, restrict(w.NodeAutoProvisioning.Values)) {
				t.Errorf("node auto-provisioning %v, want %v restricted to the shown sizes", g.NodeAutoProvisioning.Values, w.NodeAutoProvisioning.Values)
			}
			gn, wn := *g.NodeAutoProvisioning, *w.NodeAutoProvisioning
			gn.Values, wn.Values = nil, nil
			g.NodeAutoProvisioning, w.NodeAutoProvisioning = &gn, &wn
		}
		got.AKS, want.AKS = &g, &w
	}
	if got.CycleCloud != nil && want.CycleCloud != nil {
		g, w := *got.CycleCloud, *want.CycleCloud
		if !reflect.DeepEqual(g.FallbackMachineTypes, restrict(w.FallbackMachineTypes)) {
			t.Errorf("fallback machine types %v, want %v restricted to the shown sizes", g.FallbackMachineTypes, w.FallbackMachineTypes)
		}
		g.FallbackMachineTypes, w.FallbackMachineTypes = nil, nil
		got.CycleCloud, want.CycleCloud = &g, &w
	}
	return got, want
}
