// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the ranking: the score of each size that passed every
// constraint (weighted components minus penalties) and the order of the
// candidates, with prefer pinning its first fitting size.

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

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
	if n.serviceTimed() {
		bandOrder(r.cands, n.serve.loadTPS)
	}
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

// compareCandidates orders, with spot = true, the sizes without a spot
// price after those with one (their on-demand prices are not comparable);
// then sizes without a price in the region (usually not offered there
// yet: nothing says what they cost) after priced ones, then fallback
// families last, then sizes the
// throughput model cannot time (when the request defines work) after those
// it can, then layouts that miss a default target (that run past the
// default deadline, or a service's that miss the default latency targets)
// after those that meet them, then by score (descending), then cost
// (ascending), then name.
func compareCandidates(a, b candidate) int {
	if c := cmp.Or(falseFirst(a.lacksSpot, b.lacksSpot), cmp.Compare(a.quotaOrder(), b.quotaOrder()), falseFirst(!a.hasPrice, !b.hasPrice), falseFirst(a.fallback, b.fallback), falseFirst(a.lacksFacts, b.lacksFacts), falseFirst(a.late(), b.late())); c != 0 {
		return c
	}
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
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
			refs[g].minCost, refs[g].licShare = e.costKey, e.licShare
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
	var minOf [96]float64
	for i := range minOf {
		minOf[i] = math.Inf(1)
	}
	for i := range cands {
		c := &cands[i]
		c.score = score(n, c.eval, &refs[ref(c.eval)])
		minOf[c.rankGroup()] = math.Min(minOf[c.rankGroup()], c.score)
	}
	for i := range cands {
		c := &cands[i]
		for g := 0; g < c.rankGroup(); g++ {
			if c.score > minOf[g] {
				c.score = minOf[g]
			}
		}
	}
}

// rankGroup is the candidate's group in the order compareCandidates lists
// the groups before it compares scores.
func (e *eval) rankGroup() int {
	return 16*(3*b2i(e.lacksSpot)+e.quotaOrder()) + 8*b2i(!e.hasPrice) + 4*b2i(e.fallback) + 2*b2i(e.lacksFacts) + b2i(e.late())
}

// bandOrder moves each served layout above the sizing band (more than
// SizingBandHigh of the GPU memory it may use) after every layout of its
// group inside the band whose price per output token is at most
// BandPriceMargin times its own, its score capped at that layout's, so
// that scores never increase down the list. Output tokens are priced as the
// estimate prices them: the load's, where one is stated (load, tokens per
// second), else each layout's own.
func bandOrder(cands []candidate, load float64) {
	perToken := func(c *candidate) float64 {
		tokens := c.serviceTPS
		if load > 0 {
			tokens = load
		}
		if !c.memBand || !c.hasPrice || !(tokens > 0) || !(c.serviceTPS > 0) {
			return 0
		}
		return c.total / tokens
	}
	for i := 0; i < len(cands); i++ {
		c := cands[i]
		price := perToken(&c)
		if price <= 0 || c.sizing <= SizingBandHigh {
			continue
		}
		last := -1
		for j := i + 1; j < len(cands); j++ {
			d := &cands[j]
			if p := perToken(d); p > 0 && d.sizing >= SizingBandLow && d.sizing <= SizingBandHigh && d.rankGroup() == c.rankGroup() && p <= BandPriceMargin*price {
				last = j
			}
		}
		if last < 0 {
			continue
		}
		c.score = math.Min(c.score, cands[last].score)
		copy(cands[i:last], cands[i+1:last+1])
		cands[last] = c
		i-- // the candidate now at i has not been looked at
	}
}

// scoreRef is what a candidate's cost and time are compared with: the
// lowest cost, the highest speed and (a service) the shortest time to
// first token of the candidates timed the same way; 0 where none has one.
// licShare is the licences' share of the price per hour of the layout with
// the lowest cost (licensedWeights).
type scoreRef struct {
	minCost, maxSpeed, minTTFT, licShare float64
}

// faster takes a candidate's speed and time to first token into the
// reference.
func (r *scoreRef) faster(e *eval) {
	r.maxSpeed = math.Max(r.maxSpeed, e.speed)
	if e.ttft > 0 && (r.minTTFT == 0 || e.ttft < r.minTTFT) {
		r.minTTFT = e.ttft
	}
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
	case e.memBand && n.serve.loadTPS > 0:
		sizing = bandScore(math.Max(e.sizing, SizingBandLow))
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
	w = licensedWeights(w, ref.licShare)
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
	if e.quota.status == QuotaUnknown {
		s -= QuotaUnknownPenalty
	}
	if e.in.nPriced == 0 {
		s -= PenaltyNoPrice
	}
	s -= PenaltyIdleGPUs * e.idleGPUShare
	return round1(math.Max(0, math.Min(100, s)))
}

// licensedWeights moves the sizing, time and scale components' weight to
// the cost component in proportion to the licences' share of the price per
// hour (share: that of the cheapest layout per unit of work, whose cost
// the others are compared with). The cost component compares VM price
// plus licences per unit of throughput, but raw speed, fewer VMs and the
// share of vCPUs used would win a rising licence back for larger VMs of
// more, slower cores: as the licence comes to outweigh the VMs, the price
// of the work decides, as license_cost_per_core_hour documents.
func licensedWeights(w weights, share float64) weights {
	if share <= 0 {
		return w
	}
	keep := 1 - share
	w.Cost += share * (w.Sizing + w.Generation + w.Scale)
	w.Sizing, w.Generation, w.Scale = keep*w.Sizing, keep*w.Generation, keep*w.Scale
	return w
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

// latencyScore is a timed service's time component (0..1): the time to
// first token's part (LatencyFirstTokenShare) and the time per output
// token's, each min(1, target ÷ the estimate). Each target is the stated
// one, else an interactive service's default; a layout within them loses
// nothing to a faster one, and a batch service stated only by
// tokens_per_second, which has none, scores 1. With raw (optimize_for =
// "performance") the targets are the shortest times of the candidates
// timed the same way (ref): raw latency.
func (s *serving) latencyScore(raw bool, e *eval, ref *scoreRef) float64 {
	first, per := s.withDefaults()
	if raw {
		first, per = ref.minTTFT, 0
		if ref.maxSpeed > 0 {
			per = 1 / ref.maxSpeed // a sequence's speed is 1 ÷ its time per output token
		}
	}
	part := func(target, got float64) float64 {
		if target <= 0 {
			return 1
		}
		return math.Min(1, target/got)
	}
	return LatencyFirstTokenShare*part(first, e.ttft) + (1-LatencyFirstTokenShare)*part(per, e.tpot)
}
