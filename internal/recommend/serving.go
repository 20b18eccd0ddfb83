// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the layout search of a served language model: the
// batch each copy decodes, the copies the load, min_replicas and the
// stated latency targets need, and the score of its latency. The step
// model that times a copy is perfmodel.Service.

import (
	"fmt"
	"math"
	"sort"

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

func servingOf(n *need, req Request) serving {
	s := serving{Service: perfmodel.ServiceOf(&n.mi, n.precision, n.job.KVPerSeq),
		seqs: n.job.Seqs, concurrencyStated: req.ConcurrentRequests != nil}
	if n.mem != nil {
		s.HasMemory, s.WeightsGiB = true, n.mem.WeightsGiB
	}
	if n.workload == WorkloadInference && req.TokensPerSecond != nil {
		s.tps = *req.TokensPerSecond
	}
	s.minReplicas = valueOr(req.MinReplicas, 1)
	if n.workload == WorkloadInference {
		s.maxTTFT = valueOr(req.MaxTimeToFirstTokenMs, 0) / 1000
		s.maxTPOT = valueOr(req.MaxTimePerOutputTokenMs, 0) / 1000
	}
	return s
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

// cpuServed reports whether the request serves a small model on CPU sizes,
// which cpuSpeed times.
func (n *requirements) cpuServed(in *sizeInfo) bool { return n.cpuService() && !in.IsGPU }

// cpuService reports whether the request serves a small model whose
// memory the engine estimates: on CPU sizes, one copy on each VM.
func (n *requirements) cpuService() bool {
	return n.workload == WorkloadInference && n.class == ClassSmall && n.serve.HasMemory
}

// layOutCPUService sizes a small model served on a CPU size, one copy on
// each VM: the fewest VMs that run min_replicas copies, sustain
// tokens_per_second and meet the stated latency targets (more VMs decode
// smaller batches, each faster). A stated target the size misses even at
// one sequence per VM removes it; without the catalog's figures the size
// keeps the VMs its memory needs.
func layOutCPUService(n *requirements, e *eval, vc *vmCount) {
	sv, in := &n.serve, e.in
	if !n.cpuServed(in) {
		return
	}
	one := sv.CPUSpeed(&in.Hardware, 1)
	if one.TPS <= 0 {
		return
	}
	e.gl.bestTTFT, e.gl.bestTPOT = one.TTFT, one.TPOT
	switch {
	case sv.maxTTFT > 0 && one.TTFT > sv.maxTTFT:
		e.fail(cMaxTimeToFirstToken)
		return
	case sv.maxTPOT > 0 && one.TPOT > sv.maxTPOT:
		e.fail(cMaxTimePerOutputToken)
		return
	}
	meets := func(k int64) bool {
		c := sv.CPUSpeed(&in.Hardware, n.cpuBatch(k))
		return c.TPS*float64(k) >= sv.tps-1e-9 && (sv.maxTTFT <= 0 || c.TTFT <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.TPOT <= sv.maxTPOT)
	}
	lo := max(vc.nodes, sv.minReplicas, 1)
	k := lo
	if lo <= MaxNodes && !meets(lo) {
		// The rate of k VMs grows with k: search for the fewest.
		k = lo + int64(sort.Search(int(MaxNodes-lo+1), func(i int) bool { return meets(lo + int64(i)) }))
	}
	driver := cTokensPerSecond
	if k > MaxNodes && sv.tps <= 0 {
		driver = cMaxTimePerOutputToken
	}
	vc.need(k, driver)
}

// cpuBatch is the sequences one copy of a small model decodes together on
// nodes VMs of a CPU size, one copy on each: its share of the concurrent
// requests, at most MaxBatchSequences.
func (n *requirements) cpuBatch(nodes int64) int64 {
	return min(max((n.mi.Seqs+nodes-1)/max(nodes, 1), 1), perfmodel.MaxBatchSequences)
}

// decodeRate is the output tokens per second of one copy of the layout
// decoding b sequences together (speed); 0 when the catalog has no
// figures for the GPU.
func (s *serving) decodeRate(in *sizeInfo, gl *gpuLayout, b int64) float64 {
	return s.speed(in, gl, b).TPS
}

// searchServing is the layout search of a served model on a size, from
// the layout fitGPU found (def): every tensor-parallel degree that divides
// the VM's GPUs and the attention heads, each copy on one VM (pipeline
// stages across VMs only at the degree of a whole VM, where no narrower
// split fits), with the copies the concurrent requests, tokens_per_second
// and the stated latency targets need. It keeps the layout on the fewest
// VMs, ties to the most output tokens per second (at one price, the lowest
// cost per million output tokens); def when no degree does better. When
// no layout meets a stated target, the result says which it misses.
func (n *requirements) searchServing(in *sizeInfo, def gpuLayout, limit, span int64) gpuLayout {
	var best, miss gpuLayout
	bestTPS, found := 0.0, false
	fastTTFT, fastTPOT := math.Inf(1), math.Inf(1)
	consider := func(gl gpuLayout) {
		one := n.serve.speed(in, &gl, 1)
		fastTTFT, fastTPOT = math.Min(fastTTFT, one.TTFT), math.Min(fastTPOT, one.TPOT)
		gl, ok := n.withTargets(in, n.withDemand(in, gl))
		if !ok {
			miss = gl
			return
		}
		if r := n.serviceRate(in, &gl); !found || gl.Nodes < best.Nodes || (gl.Nodes == best.Nodes && r > bestTPS) {
			best, bestTPS, found = gl, r, true
		}
	}
	consider(def)
	for d := int64(1); d <= in.GPUUnits; d++ {
		if in.GPUUnits%d != 0 || (n.job.Heads != 0 && n.job.Heads%d != 0) || d == def.TP {
			continue
		}
		if gl := fitGPU(&n.job, in, limit, span, n.fixedNodes, d); gl.OK && (gl.PP == 1 || d == in.GPUUnits) {
			consider(gl)
		}
	}
	if !found {
		best = miss
		best.missTTFT = n.serve.maxTTFT > 0 && fastTTFT > n.serve.maxTTFT
		best.missTPOT = !best.missTTFT
	}
	best.bestTTFT, best.bestTPOT = fastTTFT, fastTPOT
	return best
}

// withTargets adds to a layout the copies the stated latency targets
// need: the fewest whose share of the requests each copy decodes within
// them, within MaxNodes VMs. ok is false when no number of copies does.
func (n *requirements) withTargets(in *sizeInfo, gl gpuLayout) (gpuLayout, bool) {
	sv := &n.serve
	if sv.maxTTFT <= 0 && sv.maxTPOT <= 0 {
		return gl, true
	}
	meets := func(g *gpuLayout) bool {
		c := sv.speed(in, g, sv.batch(g))
		return c.TPS > 0 && (sv.maxTTFT <= 0 || c.TTFT <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.TPOT <= sv.maxTPOT)
	}
	if meets(&gl) {
		return gl, true
	}
	most := min(sv.seqs, MaxNodes/max(gl.PP, 1)*max(gl.PerGroup, 1))
	if most <= gl.Copies || !meets(ptr(servingCopies(n, in, gl, most))) {
		return gl, false
	}
	lo, hi := gl.Copies, most // lo misses, hi meets
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if meets(ptr(servingCopies(n, in, gl, mid))) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return servingCopies(n, in, gl, hi), true
}

// withDemand adds to a layout the copies tokens_per_second needs, and the
// VMs min_replicas does: one copy on each of min_replicas groups of
// pipeline stages at least.
func (n *requirements) withDemand(in *sizeInfo, gl gpuLayout) gpuLayout {
	gl.memNodes = gl.Nodes
	if groups := gl.Nodes / max(gl.PP, 1); n.serve.minReplicas > groups && n.fixedNodes == 0 {
		gl = servingCopies(n, in, gl, max(gl.Copies, n.serve.minReplicas*max(gl.PerGroup, 1)))
	}
	if n.serve.tps > 0 {
		if want := n.serve.copiesFor(in, &gl); want > gl.Copies {
			gl = servingCopies(n, in, gl, want)
		}
	}
	return gl
}

// serviceRate is the output tokens per second of a layout's copies at
// their batch; 0 when the catalog has no figures for the GPU.
func (n *requirements) serviceRate(in *sizeInfo, gl *gpuLayout) float64 {
	return n.serve.decodeRate(in, gl, n.serve.batch(gl)) * float64(gl.Copies)
}

// served times the layout of a served model: its copies' step model on
// the GPUs (each copy at its batch), or a small model on a CPU size, one
// copy on each VM; copies is the copies the layout runs, 0 when it is not
// timed.
func (n *requirements) served(e *eval) (c perfmodel.CopySpeed, copies int64) {
	switch {
	case e.gl.OK && e.in.IsGPU:
		return n.serve.speed(e.in, &e.gl, n.serve.batch(&e.gl)), e.gl.Copies
	case n.cpuServed(e.in):
		return n.serve.CPUSpeed(&e.in.Hardware, n.cpuBatch(e.nodes)), e.nodes
	}
	return perfmodel.CopySpeed{}, 0
}

// serviceTimed reports whether the request is a served language model the
// step model times.
func (n *requirements) serviceTimed() bool {
	return (n.job.KVPerSeq > 0 || n.cpuService()) && n.train.FLOPs == 0
}

// tokenSplitSentence says where a served request's prompt and output
// tokens come from.
func tokenSplitSentence(req Request, mi *perfmodel.MemoryInput) string {
	split := fmt.Sprintf("%s prompt and %s output tokens per request", groupInt(float64(mi.Prompt)), groupInt(float64(mi.Output)))
	switch {
	case req.PromptTokens != nil && req.OutputTokens != nil:
		return split + ": prompt_tokens and output_tokens."
	case req.PromptTokens != nil || req.OutputTokens != nil:
		return split + ": the one not given follows the default of one output token in eight (DefaultOutputShare)" + splitSource + "."
	}
	return split + ": the default split of the " + groupInt(float64(mi.Prompt+mi.Output)) + "-token context, one output token in eight (DefaultOutputShare)" + splitSource + "."
}

// splitSource is the source of DefaultOutputShare as the token split
// cites it.
const splitSource = ", after Azure's production conversation traces, median 1,020 prompt and 129 output tokens (Patel et al. 2024, \"Splitwise\", arXiv 2311.18677)"

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

// latencyScore is a timed service's time component (0..1): the time to
// first token's part (LatencyFirstTokenShare) and the time per output
// token's, each min(1, target ÷ the estimate). The targets are the stated
// ones, else an interactive service's defaults; a layout within them loses
// nothing to a faster one, and a batch service stated only by
// tokens_per_second, which has none, scores 1. With raw (optimize_for =
// "performance") the targets are the shortest times of the candidates
// timed the same way (ref): raw latency.
func (s *serving) latencyScore(raw bool, e *eval, ref *scoreRef) float64 {
	first, per := s.maxTTFT, s.maxTPOT
	switch {
	case raw:
		first, per = ref.minTTFT, 0
		if ref.maxSpeed > 0 {
			per = 1 / ref.maxSpeed // a sequence's speed is 1 ÷ its time per output token
		}
	case s.defaultTargets():
		first, per = DefaultTimeToFirstTokenMs/1000.0, DefaultTimePerOutputTokenMs/1000.0
	}
	part := func(target, got float64) float64 {
		if target <= 0 {
			return 1
		}
		return math.Min(1, target/got)
	}
	return LatencyFirstTokenShare*part(first, e.ttft) + (1-LatencyFirstTokenShare)*part(per, e.tpot)
}
