// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the throughput model: how fast a layout trains, serves or
// solves, and so what the job costs. Its constants and their sources are in
// rules.go.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// peakTFLOPS is one whole GPU's dense TFLOPS for arithmetic at precision p:
// "" (bf16 or fp16, the larger), int8 and int4 weights (dequantised to bf16
// or fp16 by weight-only kernels), or a precision the GPU lacks (fp8 or fp4
// weights run weight-only, the arithmetic in bf16 or fp16). 0 when the catalog has no figure.
func (in *sizeInfo) peakTFLOPS(p string) float64 {
	// Indexes into precisions: fp32 0, tf32 1, bf16 2, fp16 3, fp8 4, fp4 5.
	half := math.Max(in.tflops[2], in.tflops[3])
	i := -1
	switch p {
	case "", PrecisionINT8, PrecisionINT4:
		return half
	case PrecisionFP32:
		i = 0
	case PrecisionTF32:
		i = 1
	case PrecisionBF16:
		i = 2
	case PrecisionFP16:
		i = 3
	case PrecisionFP8:
		i = 4
	case PrecisionFP4:
		i = 5
	}
	if i >= 0 && in.tflops[i] > 0 {
		return in.tflops[i]
	}
	if p == PrecisionFP32 {
		return 0
	}
	return half
}

// training is the work of a training or fine-tuning job as the throughput
// model times it, with what decides how fast its GPUs compute it.
type training struct {
	computePrec    string  // the precision the GPUs must run ("" bf16 or fp16)
	flops, tokensB float64 // the work; 0 when the model does not time the job
	budget         tokenSource
	// FLOPs per token: factor × (active parameters + layers × context ×
	// width), the attention term only where the architecture is known.
	factor                 float64
	active                 float64 // billions
	layers, context, width int64
	deadline               float64
	deadlineStated         bool
	gpus                   int64   // the gpus setting
	gpuMemNeed             float64 // GiB
	ethernet               bool    // one job's VMs talk without InfiniBand
}

// tokenSource is where a training job's token budget comes from.
type tokenSource uint8

const (
	tokensNone       tokenSource = iota // no work the model times
	tokensStated                        // tokens_billion
	tokensChinchilla                    // ChinchillaTokensPerParameter per parameter
	tokensFineTuning                    // DefaultFineTuningTokensBillion
)

// trainingOf derives the work of a training or fine-tuning job of a
// language model on GPUs; ethernet is whether one job's VMs talk without
// InfiniBand.
func trainingOf(n *need, req Request, ethernet bool) training {
	t := training{deadline: valueOr(req.DeadlineHours, DefaultDeadlineHours), deadlineStated: req.DeadlineHours != nil,
		gpus: n.gpus, gpuMemNeed: n.gpuMemNeed, ethernet: ethernet}
	if !n.hasModel {
		return t
	}
	t.computePrec = computePrecision(n.precision, n.mi.method)
	if n.fit.category != catalog.CategoryGPU || (n.workload != WorkloadTraining && n.workload != WorkloadFineTuning) || !n.mi.generative() {
		return t
	}
	mi := &n.mi
	switch {
	case req.TokensBillion != nil:
		t.tokensB, t.budget = *req.TokensBillion, tokensStated
	case n.workload == WorkloadTraining:
		t.tokensB, t.budget = ChinchillaTokensPerParameter*mi.params, tokensChinchilla
	default:
		t.tokensB, t.budget = DefaultFineTuningTokensBillion, tokensFineTuning
	}
	t.factor = float64(TrainingFLOPsPerToken)
	if mi.method == MethodLoRA || mi.method == MethodQLoRA {
		t.factor = LoRAFLOPsPerToken
	}
	t.active = mi.active
	perToken := t.factor * mi.active * 1e9
	if m := mi.model; m != nil && m.Layers != nil {
		switch {
		case m.AttentionHeads != nil && m.HeadDim != nil:
			t.width = *m.AttentionHeads * *m.HeadDim
		case m.HiddenSize != nil:
			t.width = *m.HiddenSize
		}
		if t.width > 0 {
			t.layers, t.context = *m.Layers, mi.context
			perToken += t.factor * float64(t.layers) * float64(t.context) * float64(t.width)
		}
	}
	t.flops = perToken * t.tokensB * 1e9
	return t
}

// mfu is the model FLOPs utilization of a training layout on nodes VMs;
// ethernet when they talk without InfiniBand. A job on one GPU of a VM
// pays no PCIe all-reduce.
func (t *training) mfu(in *sizeInfo, nodes int64, ethernet bool) float64 {
	return trainingMFU(in, nodes, ethernet, t.usesOneGPU(in, nodes))
}

func trainingMFU(in *sizeInfo, nodes int64, ethernet, oneGPU bool) float64 {
	m := in.trainMFU
	if in.gpuCount < 1 {
		m *= PartialGPUTrainingFactor
	}
	if in.gpuUnits > 1 && !in.linked && !oneGPU {
		m *= PCIeTrainingFactor
	}
	if nodes > 1 && ethernet {
		m *= EthernetTrainingFactor
	}
	return m
}

// usesOneGPU reports whether a training job on a multi-GPU size uses one
// of its GPUs: it runs on one VM without a gpus setting, its memory fits
// one GPU, and one GPU finishes it within the deadline (Job sizing in
// "Compute for Machine Learning on HPC": small jobs do not take advantage
// of larger sizes and leave GPUs idle).
func (t *training) usesOneGPU(in *sizeInfo, nodes int64) bool {
	if nodes != 1 || t.gpus > 1 || in.gpuCount <= 1 || t.gpuMemNeed <= 0 || t.gpuMemNeed > in.unitMem || t.flops <= 0 {
		return false
	}
	peak := in.peakTFLOPS(t.computePrec) * 1e12
	mfu := in.trainMFU
	return peak > 0 && t.flops/(peak*mfu)/3600 <= t.deadline
}

// gpusUsed is the GPUs per VM a training job uses on nodes VMs.
func (t *training) gpusUsed(in *sizeInfo, nodes int64) float64 {
	if t.usesOneGPU(in, nodes) {
		return 1
	}
	return in.gpuCount
}

// rate is the FLOP/s of a training layout on nodes VMs.
func (t *training) rate(in *sizeInfo, nodes int64) float64 {
	one := t.usesOneGPU(in, nodes)
	gpus := in.gpuCount
	if one {
		gpus = 1
	}
	return float64(nodes) * gpus * in.peakTFLOPS(t.computePrec) * 1e12 * trainingMFU(in, nodes, t.ethernet, one)
}

// hours is the wall time of the job on nodes VMs of the size; 0 when the
// catalog has no throughput for its GPU.
func (t *training) hours(in *sizeInfo, nodes int64) float64 {
	r := t.rate(in, nodes)
	if r <= 0 || t.flops <= 0 {
		return 0
	}
	return t.flops / r / 3600
}

// deadlineNodes is the fewest VMs of the size that finish the job within
// the deadline, at least nodes; 0 when unknown.
func (t *training) deadlineNodes(in *sizeInfo, nodes int64) int64 {
	h := t.hours(in, nodes)
	if h <= 0 || h <= t.deadline {
		return nodes
	}
	perVM := t.rate(in, 2) / 2
	return max(nodes, int64(math.Ceil(t.flops/(t.deadline*3600*perVM)-1e-9)))
}

// hpcWork is an hpc or htc job as the throughput model compares it.
type hpcWork struct {
	bound   string // hpc_bound; "" for other workloads
	coupled bool   // hpc: tightly coupled, parallel efficiency across VMs
	cores   int64  // the cores setting; 0: every core of each VM
	// measured is parallel_efficiency (0: none), measuredAt the VMs it
	// was measured on (the nodes setting; 0: any VM count above 1).
	measured   float64
	measuredAt int64
	// license is license_cost_per_core_hour (hasLicense: it was set), ref
	// the reference run (nil: none; set by resolveReference).
	license    float64
	hasLicense bool
	ref        *hpcReference
}

func hpcWorkOf(req Request) hpcWork {
	h := hpcWork{}
	switch req.Workload {
	case WorkloadHPC:
		h = hpcWork{bound: orDefault(req.HPCBound, BoundMemoryBandwidth), coupled: true}
	case WorkloadHTC:
		h = hpcWork{bound: orDefault(req.HPCBound, BoundCompute)}
	default:
		return h
	}
	h.cores = valueOr(req.Cores, 0)
	h.measured, h.measuredAt = valueOr(req.ParallelEfficiency, 0), valueOr(req.Nodes, 0)
	h.license, h.hasLicense = valueOr(req.LicenseCostPerCoreHour, 0), req.LicenseCostPerCoreHour != nil
	return h
}

// rate is the throughput of an hpc or htc layout by the bound: the VMs
// times one VM's rate on the cores the job uses on it (hpc_model.go),
// times the parallel efficiency. 0 when the catalog has no figure.
func (h *hpcWork) rate(in *sizeInfo, nodes int64) (rate, eff float64) {
	if h.bound == BoundMemoryCapacity {
		return memoryCapacityRate(nodes), 1
	}
	per := hpcVMRate(in, h.bound, hpcCoresPerVM(in, h.cores, nodes))
	eff = h.efficiency(nodes)
	return per * float64(nodes) * eff, eff
}

// unit names the bound's throughput unit.
func (h *hpcWork) unit() string {
	switch h.bound {
	case BoundMemoryBandwidth:
		return "GB/s of memory bandwidth"
	case BoundCompute:
		return "GFLOPS of FP64"
	}
	return "jobs per VM"
}

// figures is a layout's time, cost and throughput as the throughput model
// estimates them; work is workNone when the request defines no work the
// model times for the size.
type figures struct {
	work  workKind
	known bool // the catalog has the figures the estimate needs
	// Training: wall hours, MFU, FLOP/s, GPUs computing per VM, one GPU's
	// dense TFLOPS, and whether the job uses one GPU of the VM.
	hours, mfu, rate, gpusUsed, peak float64
	oneGPU                           bool
	// Serving: the sequences one copy decodes together, its step model,
	// its output tokens per second, and the service's.
	batch        int64
	copy         copySpeed
	perCopy, tps float64
	cpu          bool // a small model on a CPU size (cpuSpeed)
	// HPC: the layout's throughput, its parallel efficiency, its share of
	// the best layout's, and the job's hours from a reference run.
	hpcRate, eff, relative, hpcHours float64
}

// workKind is what the throughput model times.
type workKind uint8

const (
	workNone workKind = iota
	workTraining
	workServing
	workHPC
)

// figuresOf estimates a layout; bestHPC is the best hpc or htc throughput
// among the ranked layouts.
func figuresOf(n *requirements, e *eval, bestHPC float64) figures {
	in := e.in
	var f figures
	switch {
	case n.train.flops > 0 && in.isGPU:
		f.work, f.hours = workTraining, n.train.hours(in, e.nodes)
		if f.known = f.hours > 0; f.known {
			f.mfu = n.train.mfu(in, e.nodes, !e.ibNeeded)
			f.rate, f.gpusUsed = n.train.rate(in, e.nodes), n.train.gpusUsed(in, e.nodes)
			f.peak, f.oneGPU = in.peakTFLOPS(n.train.computePrec), n.train.usesOneGPU(in, e.nodes)
		}
	case e.gl.ok && n.job.kvPerSeq > 0 && in.isGPU:
		f.work, f.batch = workServing, n.serve.batch(&e.gl)
		f.copy = n.serve.speed(in, &e.gl, f.batch)
		f.perCopy = f.copy.tps
		f.known, f.tps = f.perCopy > 0, f.perCopy*float64(e.gl.copies)
	case n.cpuServed(in):
		// A small model on a CPU size: one copy on each VM; without the
		// catalog's STREAM and FP64 figures, no estimate.
		f.batch = n.cpuBatch(e.nodes)
		f.copy = n.serve.cpuSpeed(in, f.batch)
		if f.perCopy = f.copy.tps; f.perCopy > 0 {
			f.work, f.known, f.cpu, f.tps = workServing, true, true, f.perCopy*float64(e.nodes)
		}
	case (n.workload == WorkloadHPC || n.workload == WorkloadHTC) && bestHPC > 0:
		f.work = workHPC
		f.hpcRate, f.eff = n.hpc.rate(in, e.nodes)
		f.known, f.relative = f.hpcRate > 0, f.hpcRate/bestHPC
		f.hpcHours = n.hpc.jobHours(in, e.nodes)
	}
	return f
}

// estimateFrom is a recommendation's estimate from its figures, with the
// assumptions behind them (work: the training work's derivation); nil when
// the request defines no work.
func estimateFrom(n *requirements, e *eval, f figures, work string) *Estimate {
	if f.work == workNone {
		return nil
	}
	est := &Estimate{Assumptions: assumptions(n, e, f, work)}
	if !f.known {
		return est
	}
	switch f.work {
	case workTraining:
		est.JobHours, est.Efficiency = ptr(catalog.Round2(f.hours)), f.mfu
		est.TokensPerSecond = ptr(math.Round(n.train.tokensB * 1e9 / (f.hours * 3600)))
		if e.hasPrice {
			cost := f.hours * e.total
			est.JobCostUSD = ptr(catalog.Round2(cost))
			est.CostPerMillionTokens = ptr(round4(cost / (n.train.tokensB * 1e3)))
		}
	case workServing:
		est.TokensPerSecond, est.Efficiency = ptr(math.Round(f.tps)), InferenceMBU
		if f.cpu {
			est.Efficiency = CPUStreamEfficiency
		}
		est.TimeToFirstTokenMs = ptr(round1(f.copy.ttft * 1000))
		est.TimePerOutputTokenMs = ptr(round1(f.copy.tpot * 1000))
		est.RequestsPerSecond = ptr(round4(f.tps / n.serve.output))
		if e.hasPrice {
			est.CostPerMillionTokens = ptr(round4(e.total / (f.tps * 3600) * 1e6))
		}
	case workHPC:
		est.RelativeThroughput, est.Efficiency = ptr(round4(f.relative)), f.eff
		hpcEstimate(n, e, f, est)
	}
	return est
}

// workDefined reports whether the request defines work the throughput
// model can time: training or fine-tuning FLOPs, a served language model,
// or an HPC bound.
func (n *requirements) workDefined() bool {
	return n.train.flops > 0 || n.serviceTimed() || n.hpc.bound != ""
}

// speedOf is a layout's speed, what the time component compares: 1 / job
// hours (training, fine-tuning), output tokens per second each sequence
// sees at the stated concurrency (inference), or the bound's throughput
// (hpc, htc). 0 when the request defines no work or the catalog has no
// figure for the size.
func speedOf(n *requirements, e *eval) float64 {
	in := e.in
	switch {
	case !in.known:
	case n.train.flops > 0:
		if in.isGPU {
			if h := n.train.hours(in, e.nodes); h > 0 {
				return 1 / h
			}
		}
	case n.serviceTimed():
		// A service runs whether or not it is busy: its cost is the price
		// of the layout sized for the stated concurrency and
		// tokens_per_second, and its speed what each conversation sees,
		// output tokens per second per sequence (1 ÷ its time per output
		// token; the score compares its latency, latencyScore).
		if e.tpot > 0 {
			return 1 / e.tpot // timed once, by timeService
		}
	case n.hpc.bound != "":
		r, _ := n.hpc.rate(in, e.nodes)
		return r
	}
	return 0
}

// batch is the sequences one copy decodes together: its share of
// concurrent_requests; with tokens_per_second and no concurrent_requests
// stated, as many as its KV cache holds (a service that must sustain a
// throughput has the requests in flight to fill its copies). At most
// maxBatch.
func (s *serving) batch(gl *gpuLayout) int64 {
	b := (s.seqs + gl.copies - 1) / max(gl.copies, 1)
	if s.tps > 0 && !s.concurrencyStated {
		b = max(b, gl.perCopy)
	}
	return min(max(b, 1), maxBatch(gl))
}

// maxBatch is the most sequences one copy of the layout decodes together:
// MaxBatchSequences per GPU of the copy.
func maxBatch(gl *gpuLayout) int64 { return MaxBatchSequences * max(gl.tp*gl.pp, 1) }

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
	for b := min((seqs+gl.copies-1)/max(gl.copies, 1), maxBatch(gl)); b >= 1; b-- {
		if r := s.decodeRate(in, gl, b); r > 0 && r/float64(b)*float64(seqs) >= s.tps-1e-9 {
			return max(gl.copies, (seqs+b-1)/b)
		}
	}
	if s.decodeRate(in, gl, 1) <= 0 {
		return 0
	}
	return MaxNodes*max(gl.perGroup, 1) + 1
}
