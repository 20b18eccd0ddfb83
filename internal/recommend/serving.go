// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the step model of a served language model: how long one
// copy takes to prefill a prompt and to run a decode step at its batch,
// and so its output tokens per second, time to first token and time per
// output token. Its constants and their sources are in rules.go.

import (
	"fmt"
	"math"
	"sort"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// serving is a served language model as the step model times it.
type serving struct {
	precision      string
	hasMemory      bool    // the engine estimates the model's memory
	weightsGiB     float64 // of one copy
	active, params float64 // billions
	kvPerSeq       float64 // GiB of KV cache per sequence of the context; 0 without one
	context        int64   // tokens of the longest sequence (sizes kvPerSeq)
	prompt, output float64 // mean tokens of one request
	seqs           int64   // concurrent sequences
	// layers and width (attention heads × head dimension) time the
	// attention; 0 when the architecture is unknown. depth is the layers
	// whose all-reduces a tensor-parallel copy waits for: the table's, else
	// estimated from the parameters (modelDepth).
	layers, width, depth float64
	// experts and perToken are a mixture of experts' routed experts and
	// those one token uses; 0 when unknown.
	experts, perToken float64
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
	s := serving{precision: n.precision, active: n.mi.active, params: n.mi.params,
		kvPerSeq: n.job.kvPerSeq, context: n.mi.context, prompt: float64(n.mi.prompt), output: float64(n.mi.output),
		seqs: n.job.seqs, concurrencyStated: req.ConcurrentRequests != nil}
	if n.mem != nil {
		s.hasMemory, s.weightsGiB = true, n.mem.WeightsGiB
	}
	if n.workload == WorkloadInference && req.TokensPerSecond != nil {
		s.tps = *req.TokensPerSecond
	}
	s.minReplicas = valueOr(req.MinReplicas, 1)
	if n.workload == WorkloadInference {
		s.maxTTFT = valueOr(req.MaxTimeToFirstTokenMs, 0) / 1000
		s.maxTPOT = valueOr(req.MaxTimePerOutputTokenMs, 0) / 1000
	}
	s.depth = modelDepth(s.params)
	if m := n.mi.model; m != nil {
		if m.Layers != nil && m.AttentionHeads != nil && m.HeadDim != nil {
			s.layers, s.width = float64(*m.Layers), float64(*m.AttentionHeads**m.HeadDim)
		}
		if m.Layers != nil {
			s.depth = float64(*m.Layers)
		}
		if m.Kind == catalog.ModelKindMoE && m.Experts != nil && m.ActiveExperts != nil && *m.Experts > *m.ActiveExperts {
			s.experts, s.perToken = float64(*m.Experts), float64(*m.ActiveExperts)
		}
	}
	return s
}

// copySpeed is one copy of a served model at its batch as the step model
// times it. Seconds.
type copySpeed struct {
	memory, compute float64 // one decode step's memory and arithmetic time
	allReduce       float64 // one step's tensor-parallel all-reduces
	prefill         float64 // one request's prefill
	// tps is the copy's output tokens per second; ttft and tpot a
	// request's mean time to first token and per output token.
	tps, ttft, tpot float64
	weightOnly      bool // the GPU lacks the precision: weights only, 16-bit arithmetic
}

// copyGPUs is the GPUs of one copy of the layout: its tensor-parallel
// degree × pipeline stages, a share for a partial GPU.
func copyGPUs(in *sizeInfo, gl *gpuLayout) float64 {
	g := float64(gl.tp * gl.pp)
	if in.gpuCount < 1 {
		g *= in.gpuCount
	}
	return g
}

// speed times one copy of the layout decoding b sequences together with
// continuous batching: each sequence's prompt is prefilled once, at
// PrefillMFU of the copy's peak, and each of its output tokens comes from
// a decode step that reads the weights (of a mixture of experts, the
// experts the batch touches) and every sequence's KV cache at InferenceMBU
// of the copy's bandwidth, then computes b tokens at DecodeMFU of its
// peak; a copy split by tensor parallelism waits for two all-reduces per
// layer (AllReduceSeconds each). Prefill and decode share the GPUs: over
// the output tokens of b requests the copy runs output steps and b
// prefills. The zero value when the catalog has no figures for the GPU.
func (s *serving) speed(in *sizeInfo, gl *gpuLayout, b int64) copySpeed {
	gpus := copyGPUs(in, gl)
	bw := gpus * in.hbmGBs * 1e9
	peak := gpus * in.peakTFLOPS(s.precision) * 1e12 * in.trainMFU / TrainingMFU
	if bw <= 0 || peak <= 0 || !s.hasMemory || b < 1 || s.output <= 0 {
		return copySpeed{}
	}
	fb := float64(b)
	mean := s.prompt + s.output/2
	c := copySpeed{weightOnly: in.isGPU && weightOnly(in, s.precision)}
	c.memory = (s.touchedWeights(b)*GiB + s.kvRead(b)) / (bw * InferenceMBU)
	c.compute = fb * (2*s.active*1e9 + 4*s.layers*s.width*mean) / (peak * DecodeMFU)
	c.prefill = (2*s.active*1e9*s.prompt + 2*s.layers*s.width*s.prompt*s.prompt) / (peak * PrefillMFU)
	if gl.tp > 1 {
		c.allReduce = 2 * s.depth * AllReduceSeconds
	}
	return s.timed(c, c.memory+c.compute+c.allReduce, fb)
}

// timed completes a copy's speed from one decode step's time: over the
// output tokens of b requests the copy runs output steps and b prefills.
func (s *serving) timed(c copySpeed, step, fb float64) copySpeed {
	cycle := s.output*step + fb*c.prefill
	c.tps = fb * s.output / cycle
	c.tpot = cycle / s.output
	// A new request waits for the running step, then its prefill runs
	// with the next.
	c.ttft = c.prefill + step
	return c
}

// cpuServed reports whether the request serves a small model on CPU sizes,
// which cpuSpeed times.
func (n *requirements) cpuServed(in *sizeInfo) bool { return n.cpuService() && !in.isGPU }

// cpuService reports whether the request serves a small model whose
// memory the engine estimates: on CPU sizes, one copy on each VM.
func (n *requirements) cpuService() bool {
	return n.workload == WorkloadInference && n.class == ClassSmall && n.serve.hasMemory
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
	one := sv.cpuSpeed(in, 1)
	if one.tps <= 0 {
		return
	}
	e.gl.bestTTFT, e.gl.bestTPOT = one.ttft, one.tpot
	switch {
	case sv.maxTTFT > 0 && one.ttft > sv.maxTTFT:
		e.fail(cMaxTimeToFirstToken)
		return
	case sv.maxTPOT > 0 && one.tpot > sv.maxTPOT:
		e.fail(cMaxTimePerOutputToken)
		return
	}
	meets := func(k int64) bool {
		c := sv.cpuSpeed(in, n.cpuBatch(k))
		return c.tps*float64(k) >= sv.tps-1e-9 && (sv.maxTTFT <= 0 || c.ttft <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.tpot <= sv.maxTPOT)
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
	return min(max((n.mi.seqs+nodes-1)/max(nodes, 1), 1), MaxBatchSequences)
}

// cpuFP32 is a CPU VM's FP32 rate, FLOP/s: CPUFP32PerFP64 × its FP64 rate
// (physical cores × the per-core FP64 rate).
func cpuFP32(in *sizeInfo) float64 { return CPUFP32PerFP64 * in.fp64GFLOPS * 1e9 }

// cpuSpeed times one copy of a small model on a CPU VM decoding b
// sequences together: a decode step reads the weights and every
// sequence's KV cache at CPUStreamEfficiency of the VM's STREAM
// bandwidth, and takes no less than its arithmetic, b tokens × 2 × the
// active parameters at CPUComputeEfficiency of the VM's FP32 rate (the
// cores overlap the two); a prompt's prefill is arithmetic at the same
// efficiency. The zero value when the catalog has no STREAM or FP64
// figure for the size.
func (s *serving) cpuSpeed(in *sizeInfo, b int64) copySpeed {
	bw, peak := in.streamGBs*1e9*CPUStreamEfficiency, cpuFP32(in)*CPUComputeEfficiency
	if bw <= 0 || peak <= 0 || !s.hasMemory || b < 1 || s.output <= 0 {
		return copySpeed{}
	}
	fb := float64(b)
	c := copySpeed{
		memory:  (s.touchedWeights(b)*GiB + s.kvRead(b)) / bw,
		compute: fb * 2 * s.active * 1e9 / peak,
		prefill: 2 * s.active * 1e9 * s.prompt / peak,
	}
	return s.timed(c, math.Max(c.memory, c.compute), fb)
}

// kvRead is the bytes of KV cache one decode step of b sequences reads:
// the mean sequence in flight holds its prompt and half its output.
func (s *serving) kvRead(b int64) float64 {
	mean := s.prompt + s.output/2
	return float64(b) * s.kvPerSeq * GiB * math.Min(1, mean/float64(max(s.context, 1)))
}

// modelDepth estimates a language model's layers from its parameters
// (billions) when the table has no architecture: about 12 × layers ×
// width² parameters (Kaplan et al. 2020, arXiv 2001.08361) at
// WidthPerLayer of width per layer.
func modelDepth(paramsB float64) float64 {
	return math.Max(1, math.Round(math.Cbrt(paramsB*1e9/(12*WidthPerLayer*WidthPerLayer))))
}

// touchedWeights is the GiB of weights one decode step of b sequences
// reads: all of a dense model's; of a mixture of experts, the shared part
// and the routed experts b tokens reach, each token picking perToken of
// the experts (expected share 1 − (1 − perToken/experts)^b). Without the
// expert counts, active ÷ parameters × b of the weights, at most all.
func (s *serving) touchedWeights(b int64) float64 {
	if s.active >= s.params {
		return s.weightsGiB
	}
	if s.experts <= 0 {
		return s.weightsGiB * math.Min(1, s.active/s.params*float64(b))
	}
	expert := (s.params - s.active) / (s.experts - s.perToken) // billions per routed expert
	shared := math.Max(0, s.active-s.perToken*expert)
	reached := s.experts * (1 - math.Pow(1-s.perToken/s.experts, float64(b)))
	return s.weightsGiB * math.Min(1, (shared+reached*expert)/s.params)
}

// decodeRate is the output tokens per second of one copy of the layout
// decoding b sequences together (speed); 0 when the catalog has no
// figures for the GPU.
func (s *serving) decodeRate(in *sizeInfo, gl *gpuLayout, b int64) float64 {
	return s.speed(in, gl, b).tps
}

// weightOnly reports whether a GPU serves weights at precision p
// weight-only: stored at p, dequantised to bf16 or fp16 for the
// arithmetic. int8 and int4 always; fp8 and fp4 on a GPU without the
// format.
func weightOnly(in *sizeInfo, p string) bool {
	switch p {
	case PrecisionINT8, PrecisionINT4:
		return true
	case PrecisionFP8, PrecisionFP4:
		return !in.nativePrecision(p)
	}
	return false
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
		fastTTFT, fastTPOT = math.Min(fastTTFT, one.ttft), math.Min(fastTPOT, one.tpot)
		gl, ok := n.withTargets(in, n.withDemand(in, gl))
		if !ok {
			miss = gl
			return
		}
		if r := n.serviceRate(in, &gl); !found || gl.nodes < best.nodes || (gl.nodes == best.nodes && r > bestTPS) {
			best, bestTPS, found = gl, r, true
		}
	}
	consider(def)
	for d := int64(1); d <= in.gpuUnits; d++ {
		if in.gpuUnits%d != 0 || (n.job.heads != 0 && n.job.heads%d != 0) || d == def.tp {
			continue
		}
		if gl := n.job.fitGPUAt(in, limit, span, n.fixedNodes, d); gl.ok && (gl.pp == 1 || d == in.gpuUnits) {
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
		return c.tps > 0 && (sv.maxTTFT <= 0 || c.ttft <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.tpot <= sv.maxTPOT)
	}
	if meets(&gl) {
		return gl, true
	}
	most := min(sv.seqs, MaxNodes/max(gl.pp, 1)*max(gl.perGroup, 1))
	if most <= gl.copies || !meets(ptr(servingCopies(n, in, gl, most))) {
		return gl, false
	}
	lo, hi := gl.copies, most // lo misses, hi meets
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
	gl.memNodes = gl.nodes
	if groups := gl.nodes / max(gl.pp, 1); n.serve.minReplicas > groups && n.fixedNodes == 0 {
		gl = servingCopies(n, in, gl, max(gl.copies, n.serve.minReplicas*max(gl.perGroup, 1)))
	}
	if n.serve.tps > 0 {
		if want := n.serve.copiesFor(in, &gl); want > gl.copies {
			gl = servingCopies(n, in, gl, want)
		}
	}
	return gl
}

// serviceRate is the output tokens per second of a layout's copies at
// their batch; 0 when the catalog has no figures for the GPU.
func (n *requirements) serviceRate(in *sizeInfo, gl *gpuLayout) float64 {
	return n.serve.decodeRate(in, gl, n.serve.batch(gl)) * float64(gl.copies)
}

// served times the layout of a served model: its copies' step model on
// the GPUs (each copy at its batch), or a small model on a CPU size, one
// copy on each VM; copies is the copies the layout runs, 0 when it is not
// timed.
func (n *requirements) served(e *eval) (c copySpeed, copies int64) {
	switch {
	case e.gl.ok && e.in.isGPU:
		return n.serve.speed(e.in, &e.gl, n.serve.batch(&e.gl)), e.gl.copies
	case n.cpuServed(e.in):
		return n.serve.cpuSpeed(e.in, n.cpuBatch(e.nodes)), e.nodes
	}
	return copySpeed{}, 0
}

// serviceTimed reports whether the request is a served language model the
// step model times.
func (n *requirements) serviceTimed() bool {
	return (n.job.kvPerSeq > 0 || n.cpuService()) && n.train.flops == 0
}

// tokenSplitSentence says where a served request's prompt and output
// tokens come from.
func tokenSplitSentence(req Request, mi *memoryInput) string {
	split := fmt.Sprintf("%s prompt and %s output tokens per request", groupInt(float64(mi.prompt)), groupInt(float64(mi.output)))
	switch {
	case req.PromptTokens != nil && req.OutputTokens != nil:
		return split + ": prompt_tokens and output_tokens."
	case req.PromptTokens != nil || req.OutputTokens != nil:
		return split + ": the one not given follows the default of one output token in eight (DefaultOutputShare)" + splitSource + "."
	}
	return split + ": the default split of the " + groupInt(float64(mi.prompt+mi.output)) + "-token context, one output token in eight (DefaultOutputShare)" + splitSource + "."
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
func (s *serving) missesDefaultTargets(c copySpeed) bool {
	return s.defaultTargets() && c.tps > 0 && (c.ttft*1000 > DefaultTimeToFirstTokenMs || c.tpot*1000 > DefaultTimePerOutputTokenMs)
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
