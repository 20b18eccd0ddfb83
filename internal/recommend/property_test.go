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
// sometimes not. Other tests and the comparison harness's stored requests
// depend on the numbers it draws from r and their order: the helpers below
// draw in the order their fields and statements are written.
func randomRequest(r *rand.Rand, cat *catalog.Catalog) Request {
	d := requestDraw{r}
	req := d.constraints()
	if r.IntN(10) < 6 {
		req.Model = d.model(cat)
	}
	d.workloadInputs(&req)
	d.oddInputs(&req)
	d.catalogInputs(cat, &req)
	return req
}

// requestDraw draws the parts of a random request from r.
type requestDraw struct {
	r *rand.Rand
}

// pick is one of vs.
func (d requestDraw) pick(vs ...string) string { return vs[d.r.IntN(len(vs))] }

// maybeF is nil two times in three, else one of vs.
func (d requestDraw) maybeF(vs ...float64) *float64 {
	if d.r.IntN(3) > 0 {
		return nil
	}
	v := vs[d.r.IntN(len(vs))]
	return &v
}

// maybeI is nil two times in three, else one of vs.
func (d requestDraw) maybeI(vs ...int64) *int64 {
	if d.r.IntN(3) > 0 {
		return nil
	}
	v := vs[d.r.IntN(len(vs))]
	return &v
}

// constraints is a request without a model: the workload, the hard
// constraints and the ranking settings, drawn in the order of the fields.
func (d requestDraw) constraints() Request {
	pick, maybeF, maybeI := d.pick, d.maybeF, d.maybeI
	return Request{
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
		Spot:                 d.r.IntN(4) == 0,
		MinLifetimeMonths:    maybeI(0, 12, 36),
		IncludePreview:       d.r.IntN(2) == 0,
		OptimizeFor:          pick(append([]string{""}, OptimizeFors()...)...),
		MaxResults:           maybeI(1, 3, 50),
		AsOf:                 []time.Time{{}, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), asOf, time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)}[d.r.IntN(5)],
	}
}

// model is a model by its size, precision and class; four times in ten a
// named model of the table (by id or display name, any case), sometimes
// with a count of its own; one in ten an unknown name; else now and then a
// mixture of experts by its active parameters.
func (d requestDraw) model(cat *catalog.Catalog) *Model {
	r, pick := d.r, d.pick
	m := &Model{
		ParametersBillion: []float64{0, 0.1, 1.3, 7, 13, 70, 175, 405, 1000}[r.IntN(9)],
		Precision:         pick(append([]string{""}, Precisions()...)...),
		Class:             pick("", "", "generative", "nongenerative", "small"),
	}
	switch models := cat.Models(); r.IntN(10) {
	case 0, 1, 2, 3:
		t := models[r.IntN(len(models))]
		m.Name = pick(t.ID, t.Name, strings.ToUpper(t.ID))
		if r.IntN(3) > 0 {
			m.ParametersBillion = 0
		}
		if r.IntN(2) == 0 {
			m.Precision = ""
		}
	case 4:
		m.Name = "no-such-model"
	case 5:
		m.ActiveParametersBillion = m.ParametersBillion / 8
	}
	return m
}

// workloadInputs sets the inputs of model workloads, mostly on the
// workloads that use them.
func (d requestDraw) workloadInputs(req *Request) {
	pick, maybeF, maybeI := d.pick, d.maybeF, d.maybeI
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
}

// oddInputs sets, now and then, a fine-tuning method on any workload, and
// the throughput inputs out of range or on a workload that does not use
// them.
func (d requestDraw) oddInputs(req *Request) {
	r := d.r
	if r.IntN(30) == 0 {
		req.FineTuningMethod = d.pick("lora", "bogus")
	}
	if r.IntN(60) == 0 {
		req.DeadlineHours = d.maybeF(-1, 0, MaxDeadlineHours+1, 24)
	}
	if r.IntN(60) == 0 {
		req.TokensPerSecond = d.maybeF(0, math.Inf(1), 100)
	}
	if r.IntN(60) == 0 {
		req.HPCBound = d.pick("bogus", BoundCompute)
	}
	if r.IntN(30) == 0 {
		req.ConcurrentRequests = i64(16)
	}
}

// catalogInputs sets, now and then, a region, GPU models and preferred
// sizes of the catalog (and unknown ones), and the confidential and
// isolated settings.
func (d requestDraw) catalogInputs(cat *catalog.Catalog, req *Request) {
	r := d.r
	if r.IntN(4) == 0 {
		req.Region = d.pick(append([]string{"nowhere"}, cat.Regions()...)...)
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
		var nf *NoFitError
		switch {
		case len(fatal) > 0:
			checkPropertiesInvalid(t, req, err, fatal)
			invalid++
			continue
		case errors.As(err, &nf):
			nofit++
			checkPropertiesNoFit(t, cat, req, nf)
		case err != nil:
			t.Fatalf("%+v: unexpected error %v", req, err)
		default:
			ok++
			checkPropertiesResult(t, eng, req, res)
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

// checkPropertiesInvalid: an invalid request gets exactly its validation
// errors.
func checkPropertiesInvalid(t *testing.T, req Request, err error, fatal []FieldError) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Errors, fatal) {
		t.Fatalf("%+v: want the validation errors, got %v", req, err)
	}
}

// checkPropertiesNoFit: a request nothing fits counts every size of the
// catalog once in its rejections, each under a constraint it fails; its
// nearest miss is a size of the catalog with the constraints it fails and
// a relax; and its error has a text.
func checkPropertiesNoFit(t *testing.T, cat *catalog.Catalog, req Request, nf *NoFitError) {
	t.Helper()
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
}

// checkPropertiesResult: a result satisfies every invariant and the
// ordering rules, and max_results changes no more than its length.
func checkPropertiesResult(t *testing.T, eng *Engine, req Request, res *Result) {
	t.Helper()
	cat := eng.Catalog()
	checkInvariants(t, cat, req, res)
	if t.Failed() {
		t.Fatalf("request %+v model %+v", req, req.Model)
	}
	checkOrdering(t, req, res)
	checkMaxResultsOnlyShortens(t, eng, req, res)
}

// checkMaxResultsOnlyShortens: with max_results 50, the recommended and the
// rejected sizes make up the catalog, and the result is res with a longer
// list: the same rejections and requirements, the same recommendations
// first.
func checkMaxResultsOnlyShortens(t *testing.T, eng *Engine, req Request, res *Result) {
	t.Helper()
	cat := eng.Catalog()
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
	shown := map[string]bool{}
	for _, r := range res.Recommendations {
		shown[r.VMSize] = true
	}
	for j := range res.Recommendations {
		// The lists that name other ranked sizes are the longer list's,
		// restricted to the sizes of the shorter one.
		got, want := res.Recommendations[j], full.Recommendations[j]
		got.Deployment, want.Deployment = withoutRankedLists(t, got.Deployment, want.Deployment, shown)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: rank %d differs with max_results 50", req, j+1)
		}
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
	o := orderingCheck{t: t, req: req, fallbackFamilies: n.fit.fallback}
	for _, r := range res.Recommendations {
		o.next(r, named[r.VMSize])
	}
	if n.scaleUpApplies() && o.multi && o.single {
		t.Errorf("%+v: multi-VM layouts next to single-VM ones: %v", req, names(res))
	}
}

// orderingCheck walks a result's recommendations in rank order for
// checkOrdering, keeping what the sizes before the next one were.
type orderingCheck struct {
	t                *testing.T
	req              Request
	fallbackFamilies []string

	fallback   bool // a size of a fallback family came
	multi      bool // a multi-VM layout of a size not named in prefer came
	single     bool // a single-VM layout within the default deadline came
	untimed    bool // a size the throughput model cannot time came
	lateSeen   bool // a layout past the default deadline came
	noSpotSeen bool // with spot = true, a size without a spot price came
}

// next checks the recommendation that comes after those seen so far, one
// named in prefer if named, and adds it to them.
func (o *orderingCheck) next(r Recommendation, named bool) {
	o.t.Helper()
	o.spotGroups(r)
	fb := slices.Contains(o.fallbackFamilies, r.SKU.Family)
	if o.fallback && !fb && !r.Preferred {
		o.t.Errorf("%+v: %s after a fallback size", o.req, r.VMSize)
	}
	if fb && !o.fallback && !r.Preferred {
		o.untimed, o.lateSeen = false, false // the fallback group starts over
	}
	spans := r.Nodes > 1
	if r.TensorParallel > 0 {
		spans = r.PipelineStages > 1
	}
	late := o.timing(r)
	if !r.Preferred {
		o.fallback = o.fallback || fb
		o.single = o.single || (!spans && !late)
	}
	if !r.Preferred && !named {
		o.multi = o.multi || spans
	}
}

// spotGroups: with spot = true, the sizes without a spot price come after
// every size with one, and the groups of next start over among them.
func (o *orderingCheck) spotGroups(r Recommendation) {
	o.t.Helper()
	if r.Preferred {
		return
	}
	noSpot := o.req.Spot && !r.PriceIsSpot
	if o.noSpotSeen && !noSpot {
		o.t.Errorf("%+v: %s, with a spot price, after a size without one", o.req, r.VMSize)
	}
	if noSpot && !o.noSpotSeen {
		o.fallback, o.untimed, o.lateSeen = false, false, false
	}
	o.noSpotSeen = o.noSpotSeen || noSpot
}

// timing: a layout the throughput model times comes before every size it
// cannot time and every layout past the default deadline, unless it is
// past the deadline too. It reports whether r's layout is past it.
func (o *orderingCheck) timing(r Recommendation) (late bool) {
	o.t.Helper()
	e := r.Estimate
	timed := e != nil && (e.JobHours != nil || e.TokensPerSecond != nil || e.RelativeThroughput != nil)
	late = timed && e.JobHours != nil && o.req.DeadlineHours == nil && *e.JobHours > DefaultDeadlineHours
	if r.Preferred {
		return late
	}
	if (o.untimed && timed) || (o.lateSeen && !late && timed) {
		o.t.Errorf("%+v: %s (estimate %+v) after a layout past the default deadline or a size without figures", o.req, r.VMSize, e)
	}
	o.untimed = o.untimed || (e != nil && !timed)
	o.lateSeen = o.lateSeen || late
	return late
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
