// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Recommend ranks the catalog's sizes for a request. It returns a
// *ValidationError when the request cannot be interpreted, and a *NoFitError
// when no size passes every hard constraint (never an empty success). Its
// steps hand values down: the requirements, each size's evaluation (layout,
// estimate figures, constraints), the ranking of the sizes that pass, and
// the explanation of the ranked ones.
func (e *Engine) Recommend(req Request) (*Result, error) {
	fatal, soft := validate(e.cat, req)
	if len(fatal) > 0 {
		return nil, &ValidationError{Errors: fatal}
	}
	n := deriveRequirements(e.cat, req)
	n.hpc.resolveReference(e.cat, e.prep, req.ReferenceRun)

	buf, ok := e.evals.Get().(*[]eval)
	if !ok {
		buf = new([]eval)
	}
	defer e.evals.Put(buf)
	if cap(*buf) < len(e.prep.sizes) {
		*buf = make([]eval, len(e.prep.sizes))
	}
	evals := (*buf)[:len(e.prep.sizes)]
	evaluateAll(n, e.cat, e.prep, evals)

	rejected := rejections(n, evals)
	r := rank(n, evals)
	if len(r.cands) == 0 {
		return nil, &NoFitError{Rejected: rejected, NearestMiss: nearestMiss(n, evals), checked: len(evals)}
	}
	res := explainRanking(n, r)
	res.Rejected = rejected
	res.Warnings = append(res.Warnings, resultWarnings(n, e.cat, r, evals)...)
	res.Warnings = append(res.Warnings, quotaResultWarnings(n, r)...)
	res.Warnings = append(res.Warnings, ignoredInputs(soft)...)
	return res, nil
}

// evaluateAll evaluates every size for the request: its facts and layout,
// every constraint it fails, whether prefer names it, and scale up before
// scale out, which compares the sizes.
func evaluateAll(n *requirements, cat *catalog.Catalog, p *prepared, evals []eval) {
	for i := range p.sizes {
		evaluate(n, &p.sizes[i], &evals[i])
	}
	for rank, name := range n.req.Prefer {
		if s, ok := cat.Lookup(name); ok {
			for i := range evals {
				if evals[i].in.sku == s && evals[i].preferredRank < 0 {
					evals[i].preferredRank = rank
				}
			}
		}
	}
	check(n, evals) // every constraint, on every size, for the nearest miss
	scaleUp(n, evals)
}

// candidate is a size that passed every constraint (or, for the nearest
// miss, a size within reach) with the score the ranking gave it.
type candidate struct {
	*eval
	score float64
}

// ranking is the sizes that passed every constraint, in rank order, and
// what prefer did to the order.
type ranking struct {
	cands []candidate
	// top is the best size on score, which prefer may have moved down;
	// preferred is whether cands[0] is there because prefer names it.
	top       candidate
	preferred bool
}

// rank scores the sizes that passed every constraint and orders them
// (compareCandidates); the first size named in prefer that passed is rank 1.
func rank(n *requirements, evals []eval) ranking {
	r := ranking{cands: make([]candidate, 0, 32)}
	for i := range evals {
		if evals[i].fails == 0 {
			r.cands = append(r.cands, candidate{eval: &evals[i]})
		}
	}
	if len(r.cands) == 0 {
		return r
	}
	scoreAll(n, r.cands)
	slices.SortFunc(r.cands, compareCandidates)
	r.top = r.cands[0]
	best := -1
	for i := range r.cands {
		if p := r.cands[i].preferredRank; p >= 0 && (best < 0 || p < r.cands[best].preferredRank) {
			best = i
		}
	}
	if best >= 0 {
		p := r.cands[best]
		copy(r.cands[1:best+1], r.cands[:best])
		r.cands[0], r.preferred = p, true
	}
	return r
}

// explainRanking turns the ranked sizes into the result: the top
// max_results recommendations with their reasons, warnings, estimates and
// deployment settings, and the requirements with what the rank-1 layout
// decided.
func explainRanking(n *requirements, r ranking) *Result {
	res := &Result{}
	limit := min(n.maxResults, len(r.cands))
	bestHPC := 0.0
	if n.hpc.Bound != "" {
		for _, c := range r.cands {
			rate, _ := n.hpc.Rate(&c.in.Hardware, c.nodes)
			bestHPC = math.Max(bestHPC, rate)
		}
	}
	// The training work's derivation, said once for every estimate.
	work := ""
	if n.train.FLOPs > 0 {
		work = flopsHow(&n.train)
	}
	res.Recommendations = make([]Recommendation, limit)
	for i := 0; i < limit; i++ {
		res.Recommendations[i] = recommendation(n, r.cands[i], int64(i+1), r.preferred && i == 0, bestHPC, work)
	}
	fillRankedLists(res.Recommendations)
	res.Requirements = n.summary(work)
	if est := res.Recommendations[0].Estimate; est != nil {
		res.Requirements.Efficiency = est.Efficiency
	}
	first := r.cands[0]
	res.Requirements.Nodes = first.nodes
	if first.ibNeeded {
		res.Requirements.Interconnect = "infiniband"
	}
	res.Warnings = requirementWarnings(n)
	return res
}

// compareCandidates orders, with spot = true, the sizes without a spot
// price after those with one (their on-demand prices are not comparable);
// then fallback families last, then sizes the
// throughput model cannot time (when the request defines work) after those
// it can, then layouts that miss a default target (that run past the
// default deadline, or a service's that miss the default latency targets)
// after those that meet them, then by score (descending), then cost (ascending, unpriced last),
// then name.
func compareCandidates(a, b candidate) int {
	if c := cmp.Or(falseFirst(a.lacksSpot, b.lacksSpot), cmp.Compare(a.quotaOrder(), b.quotaOrder()), falseFirst(a.fallback, b.fallback), falseFirst(a.lacksFacts, b.lacksFacts), falseFirst(a.late(), b.late())); c != 0 {
		return c
	}
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if c := falseFirst(!a.hasPrice, !b.hasPrice); c != 0 {
		return c
	}
	if a.costKey != b.costKey {
		if a.costKey < b.costKey {
			return -1
		}
		return 1
	}
	// The same money for more cores: a full size before its
	// constrained-core sizes at the same price.
	if c := cmp.Compare(b.in.VCPUs*b.nodes, a.in.VCPUs*a.nodes); c != 0 {
		return c
	}
	return strings.Compare(a.in.sku.Name, b.in.sku.Name)
}

// falseFirst orders false before true.
func falseFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// scoreAll scores candidates. Cost and time are relative to the best
// candidate timed the same way: sizes the throughput model times are
// compared on job cost and speed (a service on latency), the others (when
// the request defines work, sizes without figures) on price per hour and
// generation.
func scoreAll(n *requirements, cands []candidate) {
	// Cost and time references per group: timed and on time, timed and
	// late, not timed; each at spot prices, or (spot = true asked for, no
	// spot price) on-demand.
	var refs [6]scoreRef
	for i := range refs {
		refs[i].minCost = math.Inf(1)
	}
	ref := func(e *eval) int {
		return 3*b2i(e.lacksSpot) + 2*b2i(e.lacksFacts) + b2i(e.late() && !e.lacksFacts)
	}
	// A service's time reference is the fastest layout that is not
	// oversized (a job that fits in one GPU of a multi-GPU VM): splitting
	// a small model over a VM's GPUs earns it no more than the fastest
	// right-sized layout's speed, at which the component is capped.
	var oversized [6]scoreRef
	for _, c := range cands {
		e := c.eval
		g := ref(e)
		if e.hasPrice && e.costKey > 0 && e.costKey < refs[g].minCost {
			refs[g].minCost = e.costKey
		}
		if n.serviceTimed() && e.idleGPUShare > 0 {
			oversized[g].faster(e)
			continue
		}
		refs[g].faster(e)
	}
	for g := range refs {
		if refs[g].maxSpeed == 0 {
			refs[g].maxSpeed, refs[g].minTTFT = oversized[g].maxSpeed, oversized[g].minTTFT
		}
	}
	// Groups in the order compareCandidates lists them; a later group's score
	// is capped at the lowest score of the groups before it, so scores
	// never increase down the list.
	var minOf [48]float64
	for i := range minOf {
		minOf[i] = math.Inf(1)
	}
	group := func(e *eval) int {
		return 8*(3*b2i(e.lacksSpot)+e.quotaOrder()) + 4*b2i(e.fallback) + 2*b2i(e.lacksFacts) + b2i(e.late())
	}
	for i := range cands {
		c := &cands[i]
		c.score = score(n, c.eval, &refs[ref(c.eval)])
		minOf[group(c.eval)] = math.Min(minOf[group(c.eval)], c.score)
	}
	for i := range cands {
		c := &cands[i]
		for g := 0; g < group(c.eval); g++ {
			if c.score > minOf[g] {
				c.score = minOf[g]
			}
		}
	}
}

// scoreRef is what a candidate's cost and time are compared with: the
// lowest cost, the highest speed and (a service) the shortest time to
// first token of the candidates timed the same way; 0 where none has one.
type scoreRef struct {
	minCost, maxSpeed, minTTFT float64
}

// faster takes a candidate's speed and time to first token into the
// reference.
func (r *scoreRef) faster(e *eval) {
	r.maxSpeed = math.Max(r.maxSpeed, e.speed)
	if e.ttft > 0 && (r.minTTFT == 0 || e.ttft < r.minTTFT) {
		r.minTTFT = e.ttft
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// score is the weighted sum of the components (each in 0..1) minus the
// penalties, clamped to 0..100 and rounded to one decimal.
func score(n *requirements, e *eval, ref *scoreRef) float64 {
	w := n.w
	cost := 0.0
	if e.hasPrice && e.costKey > 0 && !math.IsInf(ref.minCost, 1) {
		cost = ref.minCost / e.costKey
	}
	sizing := 0.5
	switch {
	case e.memBand:
		sizing = bandScore(e.sizing)
	case e.sizing >= 0:
		sizing = e.sizing
	}
	// Time to result where the throughput model times the layout; the
	// generation where it cannot (a tie-break among such sizes).
	gen := float64(e.in.year-GenerationBaseYear) / GenerationSpanYears
	gen = math.Max(0, math.Min(1, gen))
	switch {
	case e.hasFacts && n.train.FLOPs > 0 && n.optimize != OptimizePerformance:
		// Training: time to result counts against the deadline; a layout
		// that meets it loses nothing to a faster one (optimize_for =
		// "performance" ranks on raw speed).
		gen = math.Min(1, n.train.Deadline*e.speed)
	case e.ttft > 0 && e.tpot > 0:
		gen = n.serve.latencyScore(n.optimize == OptimizePerformance, e, ref)
	case e.hasFacts && ref.maxSpeed > 0:
		gen = math.Min(1, e.speed/ref.maxSpeed)
	}
	s := w.Family*e.fit + w.Cost*cost + w.Sizing*sizing + w.Generation*gen + w.Scale/float64(e.nodes)
	if e.unusedRDMA && (n.workload != WorkloadHTC || !e.hasFacts) {
		// htc timed per core: the InfiniBand is in the price per unit of
		// work the cost compares, and costs no points beyond it.
		s -= PenaltyUnusedRDMA
	}
	if e.pcieTP {
		s -= PenaltyTensorParallelPCIe
	}
	if e.retiringSoon {
		s -= PenaltyRetiring
	}
	if e.in.sku.Lifecycle.Status == catalog.StatusPreview {
		s -= PenaltyPreview
	}
	if e.support == catalog.SupportUnknown {
		s -= PenaltyUnknownSupport
	}
	if e.in.nPriced == 0 {
		s -= PenaltyNoPrice
	}
	s -= PenaltyIdleGPUs * e.idleGPUShare
	return round1(math.Max(0, math.Min(100, s)))
}

// bandScore is the sizing component of a GPU memory use u: 1 inside the
// target band (SizingBandLow to SizingBandHigh), falling to 0 at no use
// and to SizingFullScore at a full GPU, which leaves no room for longer
// contexts, more requests or a larger batch than stated.
func bandScore(u float64) float64 {
	switch {
	case u < SizingBandLow:
		return u / SizingBandLow
	case u <= SizingBandHigh:
		return 1
	}
	return 1 - (1-SizingFullScore)*math.Min(1, (u-SizingBandHigh)/(1-SizingBandHigh))
}

func ptr[T any](v T) *T { return &v }

// recommendation is a ranked size's result; work is the training work's
// derivation (flopsHow), "" when there is none.
func recommendation(n *requirements, c candidate, rank int64, preferred bool, bestHPC float64, work string) Recommendation {
	e := c.eval
	in, s := e.in, e.in.sku
	r := Recommendation{
		Rank:        rank,
		Score:       c.score,
		VMSize:      s.Name,
		SKU:         s,
		Nodes:       e.nodes,
		Replicas:    1,
		GPUsPerNode: in.GPUCount,
		TotalGPUs:   catalog.Round2(in.GPUCount * float64(e.nodes)),
		Preferred:   preferred,
	}
	r.TotalGPUMemoryGiB = catalog.Round2(in.gpuMem * float64(e.nodes))
	switch {
	case n.job.TensorParallel && e.gl.OK:
		r.Replicas, r.TensorParallel, r.PipelineStages = e.gl.Replicas, e.gl.TP, e.gl.PP
	case n.cpuServed(in):
		r.Replicas, r.PipelineStages = e.nodes, 1 // one copy on each VM
	}
	if e.hasPrice {
		r.PricePerHour = ptr(e.price)
		r.TotalPricePerHour = ptr(round4(e.total))
		if in.GPUCount > 0 {
			r.PricePerGPUHour = ptr(round4(e.price / in.GPUCount))
		}
		r.PriceIsSpot = e.spot
		r.PriceRegion = e.priceRegion
	}
	r.PriceSource = priceSource(n, e)
	if n.regionScoped() {
		r.PriceRegion = e.region // also when the size is offered there unpriced (availability file)
	}
	r.Estimate = estimateFrom(n, e, figuresOf(n, e, bestHPC), work)
	r.Reasons = reasons(n, e, preferred)
	r.Reasons = append(r.Reasons, estimateReasons(n, e, r.Estimate)...)
	r.Warnings = warnings(n, e)
	r.Warnings = append(r.Warnings, quotaWarnings(n, e)...)
	r.Quota = quotaOf(n, e)
	r.Warnings = append(r.Warnings, estimateWarnings(n, e, r.Estimate)...)
	r.Deployment = deployment(n, e)
	return r
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }
