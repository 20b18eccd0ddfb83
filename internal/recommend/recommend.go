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
// when no size passes every hard constraint (never an empty success).
func (e *Engine) Recommend(req Request) (*Result, error) {
	cat, p := e.cat, e.prep
	fatal, soft := validate(cat, req)
	if len(fatal) > 0 {
		return nil, &ValidationError{Errors: fatal}
	}
	n := deriveRequirements(cat, req)

	buf, ok := e.evals.Get().(*[]eval)
	if !ok {
		buf = new([]eval)
	}
	defer e.evals.Put(buf)
	if cap(*buf) < len(p.sizes) {
		*buf = make([]eval, len(p.sizes))
	}
	evals := (*buf)[:len(p.sizes)]
	for i := range p.sizes {
		n.evaluate(&p.sizes[i], &evals[i])
	}
	n.check(evals) // every constraint, on every size, for the nearest miss
	for rank, name := range req.Prefer {
		if s, ok := cat.Lookup(name); ok {
			for i := range evals {
				if evals[i].in.sku == s && evals[i].preferredRank < 0 {
					evals[i].preferredRank = rank
				}
			}
		}
	}

	n.scaleUp(evals)

	cands := make([]*eval, 0, 32)
	for i := range evals {
		if evals[i].fails == 0 {
			cands = append(cands, &evals[i])
		}
	}
	rejected := n.rejections(evals)
	if len(cands) == 0 {
		return nil, &NoFitError{Rejected: rejected, NearestMiss: n.nearestMiss(evals), checked: len(evals)}
	}

	n.scoreAll(cands)
	slices.SortFunc(cands, compareEvals)
	top := cands[0]

	// prefer: the first named size that passed every constraint is rank 1.
	var preferred *eval
	for _, e := range cands {
		if e.preferredRank >= 0 && (preferred == nil || e.preferredRank < preferred.preferredRank) {
			preferred = e
		}
	}
	if preferred != nil && preferred != top {
		i := slices.Index(cands, preferred)
		copy(cands[1:i+1], cands[:i])
		cands[0] = preferred
	}

	res := &Result{Rejected: rejected}
	limit := min(n.maxResults, len(cands))
	bestHPC := 0.0
	if n.hpc.bound != "" {
		for _, e := range cands {
			r, _ := n.hpc.rate(e.in, e.nodes)
			bestHPC = math.Max(bestHPC, r)
		}
	}
	res.Recommendations = make([]Recommendation, limit)
	for i := 0; i < limit; i++ {
		res.Recommendations[i] = n.recommendation(cands[i], int64(i+1), preferred == cands[i], bestHPC)
	}
	fillRankedLists(res.Recommendations)
	res.Requirements = n.summary()
	if est := res.Recommendations[0].Estimate; est != nil {
		res.Requirements.Efficiency = est.Efficiency
	}
	first := cands[0]
	res.Requirements.Nodes = first.nodes
	if first.ibNeeded {
		res.Requirements.Interconnect = "infiniband"
	}
	res.Warnings = append(res.Warnings, requirementWarnings(n)...)
	res.Warnings = append(res.Warnings, n.resultWarnings(cat, first, top, preferred, evals)...)
	res.Warnings = append(res.Warnings, ignoredInputs(soft)...)
	return res, nil
}

// compareEvals orders fallback families last, then sizes the throughput
// model cannot time (when the request defines work) after those it can,
// then layouts that run past the default deadline after those that meet
// it, then by score (descending), then cost (ascending, unpriced last), then
// name.
func compareEvals(a, b *eval) int {
	if c := cmp.Or(falseFirst(a.fallback, b.fallback), falseFirst(a.lacksFacts, b.lacksFacts), falseFirst(a.lateDefault, b.lateDefault)); c != 0 {
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

// scoreAll scores candidates. Cost and speed are relative to the best
// candidate timed the same way: sizes the throughput model times are
// compared on job cost and speed, the others (when the request defines
// work, sizes without figures) on price per hour and generation.
func (n *requirements) scoreAll(cands []*eval) {
	work := n.workDefined()
	// Cost and speed references per group: timed and on time, timed and
	// late, not timed.
	var minCost, maxSpeed [3]float64
	minCost[0], minCost[1], minCost[2] = math.Inf(1), math.Inf(1), math.Inf(1)
	ref := func(e *eval) int { return 2*b2i(e.lacksFacts) + b2i(e.lateDefault && !e.lacksFacts) }
	for _, e := range cands {
		e.lacksFacts = work && !e.hasFacts
		g := ref(e)
		if e.hasPrice && e.costKey > 0 && e.costKey < minCost[g] {
			minCost[g] = e.costKey
		}
		maxSpeed[g] = math.Max(maxSpeed[g], e.speed)
	}
	// Groups in the order compareEvals lists them; a later group's score
	// is capped at the lowest score of the groups before it, so scores
	// never increase down the list.
	var minOf [8]float64
	for i := range minOf {
		minOf[i] = math.Inf(1)
	}
	group := func(e *eval) int { return 4*b2i(e.fallback) + 2*b2i(e.lacksFacts) + b2i(e.lateDefault) }
	for _, e := range cands {
		g := ref(e)
		e.score = n.score(e, minCost[g], maxSpeed[g])
		minOf[group(e)] = math.Min(minOf[group(e)], e.score)
	}
	for _, e := range cands {
		for g := 0; g < group(e); g++ {
			if e.score > minOf[g] {
				e.score = minOf[g]
			}
		}
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
func (n *requirements) score(e *eval, minCost, maxSpeed float64) float64 {
	w := n.w
	cost := 0.0
	if e.hasPrice && e.costKey > 0 && !math.IsInf(minCost, 1) {
		cost = minCost / e.costKey
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
	case e.hasFacts && n.train.flops > 0 && n.optimize != OptimizePerformance:
		// Training: time to result counts against the deadline; a layout
		// that meets it loses nothing to a faster one (optimize_for =
		// "performance" ranks on raw speed).
		gen = math.Min(1, n.train.deadline*e.speed)
	case e.hasFacts && maxSpeed > 0:
		gen = e.speed / maxSpeed
	}
	s := w.Family*e.fit + w.Cost*cost + w.Sizing*sizing + w.Generation*gen + w.Scale/float64(e.nodes)
	if e.unusedRDMA {
		s -= PenaltyUnusedRDMA
	}
	if !e.nativePrec && n.workload == WorkloadInference {
		s -= PenaltyPrecisionInference
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

func (n *requirements) recommendation(e *eval, rank int64, preferred bool, bestHPC float64) Recommendation {
	in, s := e.in, e.in.sku
	r := Recommendation{
		Rank:        rank,
		Score:       e.score,
		VMSize:      s.Name,
		SKU:         s,
		Nodes:       e.nodes,
		Replicas:    1,
		GPUsPerNode: in.gpuCount,
		TotalGPUs:   round2(in.gpuCount * float64(e.nodes)),
		Preferred:   preferred,
	}
	r.TotalGPUMemoryGiB = round2(in.gpuMem * float64(e.nodes))
	if n.job.tensorParallel && e.gl.ok {
		r.Replicas, r.TensorParallel, r.PipelineStages = e.gl.replicas, e.gl.tp, e.gl.pp
	}
	if e.hasPrice {
		r.PricePerHour = ptr(e.price)
		r.TotalPricePerHour = ptr(round4(e.total))
		if in.gpuCount > 0 {
			r.PricePerGPUHour = ptr(round4(e.price / in.gpuCount))
		}
		r.PriceIsSpot = e.spot
		r.PriceRegion = e.priceRegion
		r.PriceSource = n.priceSource(e)
	} else if n.region == "" {
		r.PriceSource = "No list price in the catalog for this size in any region."
	}
	if n.region != "" {
		r.PriceRegion = n.region // also when the size is offered there unpriced (availability file)
	}
	r.Estimate = n.estimate(e, bestHPC)
	r.Reasons = n.reasons(e, preferred)
	r.Reasons = append(r.Reasons, n.estimateReasons(e, r.Estimate)...)
	r.Warnings = n.warnings(e)
	r.Warnings = append(r.Warnings, n.estimateWarnings(e, r.Estimate)...)
	r.Deployment = n.deployment(e)
	return r
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }
