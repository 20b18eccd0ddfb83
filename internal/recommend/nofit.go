// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the answer when no size fits: the *NoFitError with every
// constraint's count and the nearest miss, with what to relax.

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// NoFitError is returned when no size passes every hard constraint.
type NoFitError struct {
	Rejected    []Rejection
	NearestMiss *NearestMiss // nil when every size fails a constraint that cannot be relaxed
	checked     int
}

// Error lists each constraint with its count, then the nearest miss and what
// to relax, one item per line.
func (e *NoFitError) Error() string {
	var b strings.Builder
	total := e.checked
	if total == 0 {
		for _, r := range e.Rejected {
			total += int(r.Count)
		}
	}
	fmt.Fprintf(&b, "No VM size meets every requirement: all %d sizes of the catalog were removed.\n", total)
	b.WriteString("Sizes removed, by the first constraint each failed:")
	for _, r := range e.Rejected {
		fmt.Fprintf(&b, "\n  - %s: %d (%s). %s", r.Constraint, r.Count, strings.Join(r.Examples, ", "), r.Reason)
	}
	if m := e.NearestMiss; m != nil {
		if len(m.FailedConstraints) == 1 {
			fmt.Fprintf(&b, "\nNearest miss: %s fails only %s. To use it, %s", m.VMSize, m.FailedConstraint, m.Relax)
		} else {
			fmt.Fprintf(&b, "\nNearest miss: %s fails %s. To use it, %s", m.VMSize, strings.Join(m.FailedConstraints, " and "), m.Relax)
		}
	} else {
		b.WriteString("\nNo size is within reach by relaxing settings: every size is retired, cannot be deployed, lacks specifications, or does not serve this workload.")
	}
	return b.String()
}

// nearestMiss is the best size among those that fail the fewest
// constraints, all of them relaxable: scored like candidates (cost relative
// to the others in that group), ties by price, then name. Among sizes
// failing as many constraints, one that cannot hold the job (gpu_memory,
// gpu_memory_per_gpu) comes after the others.
func nearestMiss(n *requirements, evals []eval) *NearestMiss {
	group := withinReach(evals)
	if len(group) == 0 {
		return nil
	}
	m := nearest(n, group)
	nm := &NearestMiss{VMSize: m.in.sku.Name}
	var relaxes []string
	for c := constraint(0); c < numConstraints; c++ {
		if m.failed(c) {
			nm.FailedConstraints = append(nm.FailedConstraints, c.String())
			relaxes = append(relaxes, relax(n, c, m))
		}
	}
	nm.FailedConstraint = nm.FailedConstraints[0]
	nm.Relax = strings.Join(relaxes, "; and ") + "."
	return nm
}

// withinReach is the sizes failing the fewest constraints, all of them
// relaxable; a size that cannot hold the job ranks after one failing as
// many other constraints: its layout, and so its price, is not the job's.
func withinReach(evals []eval) []candidate {
	best := math.MaxInt
	var group []candidate
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.fails&notRelaxable != 0 {
			continue
		}
		k := 2 * bits.OnesCount64(e.fails)
		if e.fails&memoryConstraints != 0 {
			k++
		}
		if k < best {
			best, group = k, group[:0]
		}
		if k == best {
			group = append(group, candidate{eval: e})
		}
	}
	return group
}

// nearest is the best of the sizes within reach, as the ranking orders
// them, unless every one misses the same thing: then the one closerRules
// finds closest (a latency target, a load, max_nodes, a deadline, the
// job's memory), the best ranked among those as close.
func nearest(n *requirements, group []candidate) *eval {
	scoreAll(n, group)
	best := group[0]
	for _, c := range group[1:] {
		if compareCandidates(c, best) < 0 {
			best = c
		}
	}
	for _, r := range closerRules(n) {
		if slices.ContainsFunc(group, func(c candidate) bool { return !r.misses(c) }) {
			continue
		}
		for _, c := range group {
			if r.closer(c.eval, best.eval) || (!r.closer(best.eval, c.eval) && compareCandidates(c, best) < 0) {
				best = c
			}
		}
	}
	return best.eval
}

// closerRule is one way every size within reach can miss the request, and
// which of two such sizes comes closer to it.
type closerRule struct {
	misses func(c candidate) bool
	closer func(e, than *eval) bool
}

// closerRules are the rules nearest applies in turn, each where every
// size within reach misses what it names, starting from the size the
// rules before chose: a stated latency target, the size whose closest
// layout reaches the smallest multiple of it (serving.missRatio); a load,
// the one that carries the most on the most VMs (requirements.mostLoad);
// max_nodes, the one that needs the fewest VMs; a price cap, a size with a
// price before one without (whose relax can only remove the cap); a stated
// deadline, one that finishes within the longest deadline on the VMs it
// may span before one that cannot, then the one that needs the shortest on
// the VMs it may use; the
// job's memory, the one that holds the most.
func closerRules(n *requirements) []closerRule {
	ttft := func(e, than *eval) bool { return n.serve.ttftRatio(&e.gl) < n.serve.ttftRatio(&than.gl) }
	tpot := func(e, than *eval) bool { return n.serve.tpotRatio(&e.gl) < n.serve.tpotRatio(&than.gl) }
	// A size the model cannot time is never closer on hours.
	hours := func(e *eval) float64 {
		if h, ok := n.train.Hours(&e.in.Hardware, n.deadlineVMs(e.in)); ok {
			return h
		}
		return math.Inf(1)
	}
	// A size whose job finishes within MaxDeadlineHours on the most VMs one
	// job of it may span (max_nodes raised) has advice that serves.
	finishes := func(e *eval) bool {
		h, ok := n.train.Hours(&e.in.Hardware, n.deadlineSpanWithin(e.in, MaxNodes))
		return ok && h <= MaxDeadlineHours
	}
	reach := func(e *eval) float64 { return float64(e.in.GPUUnits) * e.in.UnitMemGiB * float64(n.spanFor(e.in)) }
	return []closerRule{
		{func(c candidate) bool { return c.failed(cMaxTimeToFirstToken) }, ttft},
		{func(c candidate) bool { return c.failed(cMaxTimePerOutputToken) }, tpot},
		{func(c candidate) bool { return c.failed(cTokensPerSecond) }, func(e, than *eval) bool { return n.mostLoad(e) > n.mostLoad(than) }},
		{func(c candidate) bool { return c.failed(cMaxNodes) }, func(e, than *eval) bool { return e.nodes < than.nodes }},
		{func(c candidate) bool { return c.failed(cMaxPrice) || c.failed(cMaxTotalPrice) }, func(e, than *eval) bool { return e.hasPrice && !than.hasPrice }},
		{func(c candidate) bool { return c.failed(cDeadline) }, func(e, than *eval) bool {
			if fe, ft := finishes(e), finishes(than); fe != ft {
				return fe
			}
			return hours(e) < hours(than)
		}},
		{func(c candidate) bool { return c.fails&memoryConstraints != 0 }, func(e, than *eval) bool { return reach(e) > reach(than) }},
	}
}
