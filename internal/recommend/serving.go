// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds a served language model as the layout search sizes it: the
// step model (perfmodel.Service) with the demand, the batch each copy decodes
// and the copies tokens_per_second needs.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// serving is a served language model as the step model times it
// (perfmodel.Service), with the demand the layouts must meet.
type serving struct {
	perfmodel.Service
	seqs int64 // concurrent sequences
	// tps is the output tokens per second asked for (tokens_per_second;
	// 0: none), concurrencyStated whether concurrent_requests was given.
	tps               float64
	concurrencyStated bool
	// maxTTFT and maxTPOT are the stated latency targets, seconds; 0:
	// none.
	maxTTFT, maxTPOT float64
	// minReplicas is the copies that must run on separate VMs.
	minReplicas int64
}

// speed times one copy of the layout decoding b sequences together
// (perfmodel.Service.Speed).
func (s *serving) speed(in *sizeInfo, gl *gpuLayout, b int64) perfmodel.CopySpeed {
	return s.Speed(&in.Hardware, gl.TP, gl.PP, b)
}

// batch is the sequences one copy decodes together: its share of
// concurrent_requests; with tokens_per_second and no concurrent_requests
// stated, as many as its KV cache holds (a service that must sustain a
// throughput has the requests in flight to fill its copies). At most
// maxBatch.
func (s *serving) batch(gl *gpuLayout) int64 {
	b := (s.seqs + gl.Copies - 1) / max(gl.Copies, 1)
	if s.tps > 0 && !s.concurrencyStated {
		b = max(b, gl.PerCopy)
	}
	return min(max(b, 1), maxBatch(gl))
}

// maxBatch is the most sequences one copy of the layout decodes together:
// MaxBatchSequences per GPU of the copy.
func maxBatch(gl *gpuLayout) int64 { return perfmodel.MaxBatchSequences * max(gl.TP*gl.PP, 1) }

// copiesFor is the copies that sustain tokens_per_second: with
// filled copies, the throughput over one copy's; with a stated
// concurrency, the fewest copies whose share of it reaches the rate (fewer
// sequences per copy decode faster each), or more than MaxNodes copies
// when none does, which fails tokens_per_second.
func (s *serving) copiesFor(in *sizeInfo, gl *gpuLayout) int64 {
	if !s.concurrencyStated {
		if r := s.decodeRate(in, gl, s.batch(gl)); r > 0 {
			return int64(math.Ceil(s.tps/r - 1e-9))
		}
		return 0
	}
	seqs := s.seqs
	// The service decodes every stated sequence; copies only shrink the
	// batch each decodes, and so speed each sequence up. Take the largest
	// batch whose per-sequence speed × the sequences reaches the rate,
	// and the fewest copies that give it.
	for b := min((seqs+gl.Copies-1)/max(gl.Copies, 1), maxBatch(gl)); b >= 1; b-- {
		if r := s.decodeRate(in, gl, b); r > 0 && r/float64(b)*float64(seqs) >= s.tps-1e-9 {
			return max(gl.Copies, (seqs+b-1)/b)
		}
	}
	if s.decodeRate(in, gl, 1) <= 0 {
		return 0
	}
	return MaxNodes*max(gl.PerGroup, 1) + 1
}

// decodeRate is the output tokens per second of one copy of the layout
// decoding b sequences together (speed); 0 when the catalog has no
// figures for the GPU.
func (s *serving) decodeRate(in *sizeInfo, gl *gpuLayout, b int64) float64 {
	return s.speed(in, gl, b).TPS
}

// defaultTargets reports whether a service is held to the default latency
// targets: an interactive one (concurrent_requests stated, or no
// tokens_per_second) with no stated target.
func (s *serving) defaultTargets() bool {
	return s.maxTTFT <= 0 && s.maxTPOT <= 0 && (s.concurrencyStated || s.tps <= 0)
}

// missesDefaultTargets reports whether a timed layout (c) of a service
// held to the default targets misses one of them.
func (s *serving) missesDefaultTargets(c perfmodel.CopySpeed) bool {
	return s.defaultTargets() && c.TPS > 0 && (c.TTFT*1000 > DefaultTimeToFirstTokenMs || c.TPOT*1000 > DefaultTimePerOutputTokenMs)
}
