// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds a served language model as the layout search sizes it: the
// step model (perfmodel.Service) with the demand (a load, a concurrency,
// latency targets), the batch each copy decodes, and a layout's operating
// point at the load.

import (
	"fmt"
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// serving is a served language model as the step model times it
// (perfmodel.Service), with the demand the layouts must meet.
type serving struct {
	perfmodel.Service
	seqs int64 // concurrent sequences: stated, or the default without a load; 1 with a load (derived)
	// load is the requests per second arriving at the whole service and
	// loadTPS the output tokens per second they ask for (tokens_per_second,
	// or requests_per_second × output tokens); 0: no load.
	load, loadTPS float64
	// concurrencyStated: concurrent_requests was given; rateStated:
	// requests_per_second was.
	concurrencyStated, rateStated bool
	// maxTTFT and maxTPOT are the stated latency targets, seconds; 0:
	// none.
	maxTTFT, maxTPOT float64
	// minReplicas is the copies that must run on separate VMs.
	minReplicas int64
}

// dropUntimed drops the load and the latency targets of a service the
// step model does not time (timed is false: only a served language
// model's copies are timed) and names the arguments that stated them,
// where the request states the job (named reports whether to name them).
// min_replicas stays: copies on separate VMs need no timing.
func (s *serving) dropUntimed(timed, named bool) []string {
	if timed {
		return nil
	}
	var args []string
	for _, a := range []struct {
		set  bool
		name string
	}{
		{s.loadTPS > 0 && !s.rateStated, "tokens_per_second"}, {s.loadTPS > 0 && s.rateStated, "requests_per_second"},
		{s.maxTTFT > 0, "max_time_to_first_token_ms"}, {s.maxTPOT > 0, "max_time_per_output_token_ms"},
	} {
		if a.set && named {
			args = append(args, a.name)
		}
	}
	s.load, s.loadTPS, s.maxTTFT, s.maxTPOT = 0, 0, 0, 0
	return args
}

// interactive reports whether the service answers users who wait: it
// states a latency target, concurrent_requests or requests_per_second, or
// no load at all. A service stated only by tokens_per_second is a batch
// service, held to no default latency targets.
func (s *serving) interactive() bool {
	return s.maxTTFT > 0 || s.maxTPOT > 0 || s.concurrencyStated || s.rateStated || s.loadTPS <= 0
}

// derived reports whether the requests in flight are derived from the
// load rather than stated.
func (s *serving) derived() bool { return s.loadTPS > 0 && !s.concurrencyStated }

// withDefaults is each latency target, seconds: the stated one, else, for
// an interactive service, its default; 0 where none (a batch service's).
func (s *serving) withDefaults() (ttft, tpot float64) {
	ttft, tpot = s.maxTTFT, s.maxTPOT
	if s.interactive() {
		if ttft <= 0 {
			ttft = DefaultTimeToFirstTokenMs / 1000.0
		}
		if tpot <= 0 {
			tpot = DefaultTimePerOutputTokenMs / 1000.0
		}
	}
	return ttft, tpot
}

// loadBatch is the largest batch, up to most, one copy runs at a load:
// within the stated targets and the defaults of those not stated (an
// interactive service's) where some batch meets them all; else within the
// stated ones alone (only a stated target removes a size, and the defaults
// then rank the layout after those that meet them); else, with none
// stated, most. 0 when a stated target is out of reach.
func (s *serving) loadBatch(speed func(b float64) perfmodel.CopySpeed, most int64) int64 {
	ttft, tpot := s.withDefaults()
	if b := largestBatch(speed, most, ttft, tpot); b > 0 {
		return b
	}
	if s.maxTTFT <= 0 && s.maxTPOT <= 0 {
		return most
	}
	return largestBatch(speed, most, s.maxTTFT, s.maxTPOT)
}

// meets reports whether a copy's speed meets the targets ttft and tpot
// (0: none).
func meets(c perfmodel.CopySpeed, ttft, tpot float64) bool {
	return c.TPS > 0 && (ttft <= 0 || c.TTFT <= ttft) && (tpot <= 0 || c.TPOT <= tpot)
}

// speed times one copy of the layout decoding b sequences together
// (perfmodel.Service.Speed).
func (s *serving) speed(in *sizeInfo, gl *gpuLayout, b float64) perfmodel.CopySpeed {
	return s.Speed(&in.Hardware, gl.TP, gl.PP, b)
}

// share is a copy's share of the concurrent sequences: the batch it
// decodes without a load, at most maxBatch.
func (s *serving) share(copies, most int64) int64 {
	return min(max((s.seqs+copies-1)/max(copies, 1), 1), most)
}

// maxBatch is the most sequences one copy on the size decodes together
// (perfmodel.MaxSeqs).
func maxBatch(in *sizeInfo) int64 { return perfmodel.MaxSeqs(&in.Hardware) }

// largestBatch is the largest batch up to most whose copy meets the
// targets (0: none) at idle, found by bisection (a larger batch is never
// faster per sequence); 0 when even one sequence misses them.
func largestBatch(speed func(b float64) perfmodel.CopySpeed, most int64, ttft, tpot float64) int64 {
	if most < 1 || !meets(speed(1), ttft, tpot) {
		return 0
	}
	if meets(speed(float64(most)), ttft, tpot) {
		return most
	}
	lo, hi := int64(1), most // lo meets, hi does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if meets(speed(float64(mid)), ttft, tpot) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// servicePoint is where a service layout runs: the most sequences each
// copy decodes together (its engine's max_num_seqs), one copy's speed there
// (the capacity), and the batch, speed and latencies the load sees (the
// time to first token with the wait for a copy). Without a load the batch
// is the copy's share of the concurrent requests and the latencies are
// idle ones.
type servicePoint struct {
	maxBatch int64
	capacity perfmodel.CopySpeed
	atLoad   perfmodel.CopySpeed
	batch    float64 // mean sequences one copy decodes at the load
	wait     float64 // a request's mean wait for a copy, seconds
	inFlight float64 // requests in the service: waiting, in prefill or decoding
	util     float64 // the load's share of the capacity
	loaded   bool
}

// idlePoint is a layout's point without a load: each of copies copies
// decodes batch sequences.
func (s *serving) idlePoint(speed func(b float64) perfmodel.CopySpeed, batch, copies int64) servicePoint {
	c := speed(float64(batch))
	return servicePoint{maxBatch: batch, capacity: c, atLoad: c, batch: float64(batch), inFlight: float64(min(s.seqs, batch*copies))}
}

// loadPoint is a layout's point at the load: copies copies of at most
// most sequences each. The batch per copy is the fixed point of Little's
// law, the copy's share of the arrival rate × a request's time in the
// batch (its time to first token and its other output tokens), solved to
// 1%; the wait for a copy comes from the queue of copies servers, each
// completing its capacity's requests per second (perfmodel.QueueWait).
func (s *serving) loadPoint(speed func(b float64) perfmodel.CopySpeed, most, copies int64) servicePoint {
	p := servicePoint{maxBatch: most, capacity: speed(float64(most)), loaded: true}
	if p.capacity.TPS <= 0 {
		return p
	}
	perCopy := s.load / float64(copies)
	b := 1e-6 // below the fixed point, which the iteration rises to
	for i := 0; i < 100; i++ {
		c := speed(math.Max(b, 1e-6))
		next := math.Min(perCopy*(c.TTFT+(s.Output-1)*c.TPOT), float64(most))
		done := math.Abs(next-b) <= 0.01*next
		b = next
		if done {
			break
		}
	}
	p.batch, p.atLoad = b, speed(math.Max(b, 1e-6))
	p.util = s.loadTPS / (float64(copies) * p.capacity.TPS)
	p.wait = perfmodel.QueueWait(copies, s.load, p.capacity.TPS/s.Output)
	p.atLoad.TTFT += p.wait
	p.inFlight = s.load * (p.atLoad.TTFT + (s.Output-1)*p.atLoad.TPOT)
	return p
}

// copiesForLoad is the copies that hold a load at most MaxUtilization of
// their capacity, copy capacity output tokens per second each; 0 without a
// load or a capacity.
func (s *serving) copiesForLoad(capacity float64) int64 {
	if s.loadTPS <= 0 || capacity <= 0 {
		return 0
	}
	return int64(math.Ceil(s.loadTPS/(perfmodel.MaxUtilization*capacity) - 1e-9))
}

// missesDefaultTargets reports whether a timed layout (c, at its load) of
// an interactive service misses the default of a target it does not state.
func (s *serving) missesDefaultTargets(c perfmodel.CopySpeed) bool {
	if !s.interactive() || c.TPS <= 0 {
		return false
	}
	return (s.maxTTFT <= 0 && c.TTFT*1000 > DefaultTimeToFirstTokenMs) || (s.maxTPOT <= 0 && c.TPOT*1000 > DefaultTimePerOutputTokenMs)
}

// raiseTarget is the change that would let a size meet the stated latency
// target name (seconds) its closest layout gl misses: raise it to the
// time gl reaches, reach (at the stated load, or at one sequence per copy). It
// never names a value the target already allows: where the figure is not
// above it, lowering the load is the change.
func (s *serving) raiseTarget(name string, target, reach float64, gl *gpuLayout) string {
	ms := math.Ceil(reach * 1000)
	if !(ms > target*1000) {
		switch {
		case s.rateStated:
			return "lower requests_per_second"
		case s.loadTPS > 0:
			return "lower tokens_per_second"
		}
		return "lower concurrent_requests"
	}
	where := "the size's fastest layout, one sequence per copy"
	switch {
	case gl.reachAtLoad:
		where = "what the size's closest layout reaches at the stated load"
	case gl.reachBatch > 1:
		where = "the size's fastest layout within max_nodes, " + catalog.Plural(gl.reachBatch, "sequence", "sequences") + " per copy"
	}
	return fmt.Sprintf("raise %s to %s (%s)", name, trimFloat(ms), where)
}
