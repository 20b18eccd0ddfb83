// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the throughput model: how fast a layout trains, serves or
// solves, and so what the job costs. Its constants and their sources are in
// rules.go.

import (
	"fmt"
	"math"
	"strconv"
)

// peakTFLOPS is one whole GPU's dense TFLOPS for arithmetic at precision p:
// "" (bf16 or fp16, the larger), int8 and int4 weights (dequantised to bf16
// or fp16 by weight-only kernels), or a precision the GPU lacks (the next
// it runs: bf16 or fp16). 0 when the catalog has no figure.
func (in *sizeInfo) peakTFLOPS(p string) float64 {
	// Indexes into precisions: fp32 0, tf32 1, bf16 2, fp16 3, fp8 4.
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
	}
	if i >= 0 && in.tflops[i] > 0 {
		return in.tflops[i]
	}
	if p == PrecisionFP32 {
		return 0
	}
	return half
}

// trainingFLOPs derives the work of a training or fine-tuning job and the
// budget it assumed.
func (n *norm) trainingFLOPs() {
	if !n.hasModel || n.fit.category != "gpu" || (n.workload != WorkloadTraining && n.workload != WorkloadFineTuning) || !n.mi.generative() {
		return
	}
	mi := &n.mi
	switch {
	case n.req.TokensBillion != nil:
		n.tokensB, n.tokenBudget = *n.req.TokensBillion, "tokens_billion"
	case n.workload == WorkloadTraining:
		n.tokensB = ChinchillaTokensPerParameter * mi.params
		n.tokenBudget = fmt.Sprintf("%d tokens per parameter, compute-optimal (Hoffmann et al. 2022); set tokens_billion for the real budget", ChinchillaTokensPerParameter)
	default:
		n.tokensB = DefaultFineTuningTokensBillion
		n.tokenBudget = fmt.Sprintf("%s billion tokens, a typical fine-tuning set (a judgement); set tokens_billion for the real budget", trimFloat(DefaultFineTuningTokensBillion))
	}
	factor := float64(TrainingFLOPsPerToken)
	if mi.method == MethodLoRA || mi.method == MethodQLoRA {
		factor = LoRAFLOPsPerToken
	}
	perToken := factor * mi.active * 1e9
	n.flopsHow = fmt.Sprintf("%s × %sB active parameters", trimFloat(factor), trimFloat(mi.active))
	if m := mi.model; m != nil && m.Layers != nil && mi.generative() {
		d := int64(0)
		switch {
		case m.AttentionHeads != nil && m.HeadDim != nil:
			d = *m.AttentionHeads * *m.HeadDim
		case m.HiddenSize != nil:
			d = *m.HiddenSize
		}
		if d > 0 {
			perToken += factor * float64(*m.Layers) * float64(mi.context) * float64(d)
			n.flopsHow += fmt.Sprintf(" + %s × %d layers × %s tokens of context × %d attention width", trimFloat(factor), *m.Layers, groupInt(float64(mi.context)), d)
		}
	}
	n.flops = perToken * n.tokensB * 1e9
	n.flopsHow = fmt.Sprintf("(%s) per token × %s billion tokens = %s FLOPs", n.flopsHow, trimFloat(n.tokensB), sci(n.flops))
}

// trainingMFU is the model FLOPs utilization of a training layout on
// nodes VMs; ethernet when they talk without InfiniBand. A job on one GPU
// of a VM pays no PCIe all-reduce.
func (n *norm) trainingMFU(in *sizeInfo, nodes int64, ethernet bool) float64 {
	return n.trainingMFUWith(in, nodes, ethernet, n.usesOneGPU(in, nodes))
}

func (n *norm) trainingMFUWith(in *sizeInfo, nodes int64, ethernet, oneGPU bool) float64 {
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
func (n *norm) usesOneGPU(in *sizeInfo, nodes int64) bool {
	if nodes != 1 || n.gpus > 1 || in.gpuCount <= 1 || n.gpuMemNeed <= 0 || n.gpuMemNeed > in.unitMem || n.flops <= 0 {
		return false
	}
	peak := in.peakTFLOPS(n.computePrec) * 1e12
	mfu := in.trainMFU
	return peak > 0 && n.flops/(peak*mfu)/3600 <= n.deadline
}

// gpusUsed is the GPUs per VM a training job uses on nodes VMs.
func (n *norm) gpusUsed(in *sizeInfo, nodes int64) float64 {
	if n.usesOneGPU(in, nodes) {
		return 1
	}
	return in.gpuCount
}

// trainingRate is the FLOP/s of a training layout on nodes VMs.
func (n *norm) trainingRate(in *sizeInfo, nodes int64) float64 {
	one := n.usesOneGPU(in, nodes)
	gpus := in.gpuCount
	if one {
		gpus = 1
	}
	return float64(nodes) * gpus * in.peakTFLOPS(n.computePrec) * 1e12 * n.trainingMFUWith(in, nodes, !n.ibNeeded(true), one)
}

// trainingHours is the wall time of the job on nodes VMs of the size; 0
// when the catalog has no throughput for its GPU.
func (n *norm) trainingHours(in *sizeInfo, nodes int64) float64 {
	r := n.trainingRate(in, nodes)
	if r <= 0 || n.flops <= 0 {
		return 0
	}
	return n.flops / r / 3600
}

// deadlineNodes is the fewest VMs of the size that finish the job within
// the deadline, at least nodes; 0 when unknown.
func (n *norm) deadlineNodes(in *sizeInfo, nodes int64) int64 {
	h := n.trainingHours(in, nodes)
	if h <= 0 || h <= n.deadline {
		return nodes
	}
	perVM := n.trainingRate(in, 2) / 2
	return max(nodes, int64(math.Ceil(n.flops/(n.deadline*3600*perVM)-1e-9)))
}

// decodeRate is the output tokens per second of one copy of a served
// language model holding b sequences: each decode step reads the weights
// (of a mixture of experts, the share b tokens' experts reach) and the KV
// cache of the b sequences from memory, at InferenceMBU of the copy's
// bandwidth, and does the arithmetic of b output tokens with their share of
// prefill, at InferenceMFU of its peak; the slower bounds the step. 0 when
// the catalog has no figures for the GPU.
func (n *norm) decodeRate(in *sizeInfo, gl *gpuLayout, b int64) float64 {
	frac := 1.0
	if in.gpuCount < 1 {
		frac = in.gpuCount
	}
	gpus := float64(gl.tp*gl.pp) * frac
	bw := gpus * in.hbmGBs * 1e9
	peak := gpus * in.peakTFLOPS(n.precision) * 1e12
	if bw <= 0 || peak <= 0 || n.mem == nil || b < 1 {
		return 0
	}
	mi := &n.mi
	weights := n.mem.WeightsGiB * GiB * math.Min(1, mi.active/mi.params*float64(b))
	kv := float64(b) * n.job.kvPerSeq * GiB * KVReadShare
	tMem := (weights + kv) / (bw * InferenceMBU)
	perToken := 2 * mi.active * 1e9 / (1 - PromptShare) // an output token and its prompt tokens' prefill
	tComp := float64(b) * perToken / (peak * InferenceMFU)
	return float64(b) / math.Max(tMem, tComp)
}

// hpcRate is the throughput of an hpc or htc layout by the bound: STREAM
// GB/s, FP64 GFLOPS or memory GiB per VM, times the VMs and the parallel
// efficiency. 0 when the catalog has no figure.
func (n *norm) hpcRate(in *sizeInfo, nodes int64) (rate, eff float64) {
	var per float64
	switch n.hpcBound {
	case BoundMemoryBandwidth:
		per = in.streamGBs
		if in.physCores > 0 {
			per = math.Min(per, float64(in.physCores)*MaxStreamGBsPerCore)
		}
	case BoundCompute:
		per = in.fp64GFLOPS
	case BoundMemoryCapacity:
		per = in.memGiB
	}
	eff = 1
	if n.workload == WorkloadHPC && nodes > 1 {
		eff = HPCParallelEfficiency
	}
	return per * float64(nodes) * eff, eff
}

// hpcUnit names the bound's throughput unit.
func (n *norm) hpcUnit() string {
	switch n.hpcBound {
	case BoundMemoryBandwidth:
		return "GB/s of STREAM bandwidth"
	case BoundCompute:
		return "GFLOPS of FP64 peak"
	}
	return "GiB of memory"
}

// estimate derives a recommendation's time and cost; nil when the request
// defines no work.
func (n *norm) estimate(e *eval, bestHPC float64) *Estimate {
	in := e.in
	switch {
	case n.flops > 0 && in.isGPU:
		h := n.trainingHours(in, e.nodes)
		if h <= 0 {
			return &Estimate{Assumptions: []string{"The catalog has no throughput figure for the " + in.sku.GPU.Model + " at this precision: no time or cost estimate."}}
		}
		mfu := n.trainingMFU(in, e.nodes, !e.ibNeeded)
		est := &Estimate{JobHours: ptr(round2(h)), Efficiency: mfu}
		tps := n.tokensB * 1e9 / (h * 3600)
		est.TokensPerSecond = ptr(math.Round(tps))
		if e.hasPrice {
			cost := h * e.total
			est.JobCostUSD = ptr(round2(cost))
			est.CostPerMillionTokens = ptr(round4(cost / (n.tokensB * 1e3)))
		}
		peak := in.peakTFLOPS(n.computePrec)
		// Built by concatenation: this runs for every returned
		// recommendation.
		est.Assumptions = []string{
			"Training FLOPs: " + n.flopsHow + ".",
			"Rate: " + plural(e.nodes, "VM", "VMs") + " × " + plural(n.gpusUsed(in, e.nodes), "GPU", "GPUs") + " × " + trimFloat(peak) + " dense TFLOPS (" + n.computeLabel() + ") × " + trimFloat(mfu*100) + "% MFU = " + sci(n.trainingRate(in, e.nodes)) + " FLOP/s" + oneGPUWhy(n.usesOneGPU(in, e.nodes)) + ".",
			"MFU: " + n.mfuWhy(in, e) + ".",
			"Time: FLOPs ÷ rate = " + trimFloat(h) + " hours; cost: hours × " + money(e.total) + " USD per hour for all VMs.",
		}
		return est
	case e.gl.ok && n.job.kvPerSeq > 0 && in.isGPU:
		b := n.servingBatch(&e.gl)
		r := n.decodeRate(in, &e.gl, b)
		if r <= 0 {
			return &Estimate{Assumptions: []string{"The catalog has no bandwidth or throughput figure for the " + in.sku.GPU.Model + ": no throughput estimate."}}
		}
		tps := r * float64(e.gl.copies)
		est := &Estimate{TokensPerSecond: ptr(math.Round(tps)), Efficiency: InferenceMBU}
		if e.hasPrice {
			est.CostPerMillionTokens = ptr(round4(e.total / (tps * 3600) * 1e6))
		}
		est.Assumptions = []string{
			fmt.Sprintf("Decode: %s serving %d sequences each; a step reads the weights and %s%% of each sequence's KV cache at %s%% of %s GB/s per GPU (MBU), and computes each output token with its %s prompt tokens' prefill at %s%% of the GPUs' peak; the slower bounds the step.",
				plural(e.gl.copies, "copy", "copies"), b, trimFloat(KVReadShare*100), trimFloat(InferenceMBU*100), trimFloat(in.hbmGBs), trimFloat(PromptShare/(1-PromptShare)), trimFloat(InferenceMFU*100)),
			fmt.Sprintf("Throughput: %s output tokens per second per copy, %s for the service.", groupInt(r), groupInt(tps)),
		}
		return est
	case (n.workload == WorkloadHPC || n.workload == WorkloadHTC) && bestHPC > 0:
		rate, eff := n.hpcRate(in, e.nodes)
		if rate <= 0 {
			return &Estimate{Assumptions: []string{"The catalog has no " + n.hpcBound + " figure for this size: no throughput estimate."}}
		}
		est := &Estimate{RelativeThroughput: ptr(round4(rate / bestHPC)), Efficiency: eff}
		est.Assumptions = []string{
			fmt.Sprintf("Bound: %s (hpc_bound); %d VMs × %s %s per VM × %s%% parallel efficiency = %s, relative to the best layout of the request.",
				n.hpcBound, e.nodes, trimFloat(rate/float64(e.nodes)/eff), n.hpcUnit(), trimFloat(eff*100), trimFloat(rate)),
		}
		return est
	}
	return nil
}

// computeLabel names the precision training computes in.
func (n *norm) computeLabel() string {
	if n.computePrec == "" {
		return "bf16 or fp16"
	}
	return n.computePrec
}

// mfuWhy says how a layout's MFU was derived.
func (n *norm) mfuWhy(in *sizeInfo, e *eval) string {
	s := trimFloat(in.trainMFU*100) + "% for the " + in.sku.GPU.Model
	if in.gpuCount < 1 {
		s += ", × " + trimFloat(PartialGPUTrainingFactor) + " for a share of a GPU"
	}
	if in.gpuUnits > 1 && !in.linked && !n.usesOneGPU(in, e.nodes) {
		s += ", × " + trimFloat(PCIeTrainingFactor) + " for GPUs without NVLink"
	}
	if e.nodes > 1 && !e.ibNeeded {
		s += ", × " + trimFloat(EthernetTrainingFactor) + " across VMs without InfiniBand"
	}
	return s
}

// sci formats a large number as 1.23e22.
func sci(f float64) string { return strconv.FormatFloat(f, 'e', 3, 64) }

// estimateReasons puts the estimate next to the hourly price.
func (n *norm) estimateReasons(e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	var out []string
	switch {
	case est.JobHours != nil:
		s := "Estimated " + trimFloat(*est.JobHours) + " hours for the job on " + plural(e.nodes, "VM", "VMs")
		if est.JobCostUSD != nil {
			s += ", " + money(*est.JobCostUSD) + " USD in all (" + money(*est.CostPerMillionTokens) + " USD per million tokens)"
		}
		out = append(out, s+", at "+trimFloat(est.Efficiency*100)+"% MFU.")
	case est.TokensPerSecond != nil:
		s := "Estimated " + groupInt(*est.TokensPerSecond) + " output tokens per second for the service"
		if est.CostPerMillionTokens != nil {
			s += ", " + money(*est.CostPerMillionTokens) + " USD per million output tokens"
		}
		out = append(out, s+".")
	case est.RelativeThroughput != nil:
		out = append(out, "Throughput by "+n.hpcBound+": "+percent(*est.RelativeThroughput)+" of the best layout for this request.")
	}
	return out
}

// estimateWarnings flags a default deadline the layout cannot meet and a
// size without the facts to estimate.
func (n *norm) estimateWarnings(e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	if est.JobHours == nil && est.TokensPerSecond == nil && est.RelativeThroughput == nil {
		return []string{"The catalog has no throughput figures for this size, so its time and cost per job are not estimated; compare it on price per hour only."}
	}
	if est.JobHours != nil && !n.deadlineStated && *est.JobHours > n.deadline {
		return []string{"The job runs about " + trimFloat(*est.JobHours) + " hours on " + plural(e.nodes, "VM", "VMs") + ", beyond the " + itoa(DefaultDeadlineHours) + "-hour default, even on the most VMs one job may span here; set deadline_hours to accept it, or choose a size with InfiniBand or faster GPUs."}
	}
	return nil
}

// workDefined reports whether the request defines work the throughput
// model can time: training or fine-tuning FLOPs, a served language model,
// or an HPC bound.
func (n *norm) workDefined() bool {
	return n.flops > 0 || n.job.kvPerSeq > 0 || n.hpcBound != ""
}

// speedOf is a layout's speed, what the time component compares: 1 / job
// hours (training, fine-tuning), output tokens per second each sequence
// sees at the stated concurrency (inference), or the bound's throughput
// (hpc, htc). 0 when the request defines no work or the catalog has no
// figure for the size.
func (n *norm) speedOf(e *eval) float64 {
	in := e.in
	switch {
	case !in.known:
	case n.flops > 0:
		if in.isGPU {
			if h := n.trainingHours(in, e.nodes); h > 0 {
				return 1 / h
			}
		}
	case n.job.kvPerSeq > 0:
		// A service runs whether or not it is busy: its cost is the price
		// of the layout sized for the stated concurrency and
		// tokens_per_second, and its speed what each conversation sees,
		// output tokens per second per sequence.
		if e.gl.ok && in.isGPU {
			b := n.servingBatch(&e.gl)
			return n.decodeRate(in, &e.gl, b) / float64(b)
		}
	case n.hpcBound != "":
		r, _ := n.hpcRate(in, e.nodes)
		return r
	}
	return 0
}

// servingBatch is the sequences one copy decodes together: its share of
// concurrent_requests; with tokens_per_second and no concurrent_requests
// stated, as many as its KV cache holds (a service that must sustain a
// throughput has the requests in flight to fill its copies). At most
// MaxBatchSequences.
func (n *norm) servingBatch(gl *gpuLayout) int64 {
	b := (n.job.seqs + gl.copies - 1) / max(gl.copies, 1)
	if n.tps > 0 && n.req.ConcurrentRequests == nil {
		b = max(b, gl.perCopy)
	}
	return min(max(b, 1), MaxBatchSequences)
}

// copiesForThroughput is the copies that sustain tokens_per_second: with
// filled copies, the throughput over one copy's; with a stated
// concurrency, the fewest copies whose share of it reaches the rate (fewer
// sequences per copy decode faster each), or more than MaxNodes copies
// when none does, which fails tokens_per_second.
func (n *norm) copiesForThroughput(in *sizeInfo, gl *gpuLayout) int64 {
	if n.req.ConcurrentRequests == nil {
		if r := n.decodeRate(in, gl, n.servingBatch(gl)); r > 0 {
			return int64(math.Ceil(n.tps/r - 1e-9))
		}
		return 0
	}
	seqs := n.job.seqs
	// The service decodes every stated sequence; copies only shrink the
	// batch each decodes, and so speed each sequence up. Take the largest
	// batch whose per-sequence speed × the sequences reaches the rate,
	// and the fewest copies that give it.
	for b := min((seqs+gl.copies-1)/max(gl.copies, 1), MaxBatchSequences); b >= 1; b-- {
		if r := n.decodeRate(in, gl, b); r > 0 && r/float64(b)*float64(seqs) >= n.tps-1e-9 {
			return max(gl.copies, (seqs+b-1)/b)
		}
	}
	if n.decodeRate(in, gl, 1) <= 0 {
		return 0
	}
	return MaxNodes*max(gl.perGroup, 1) + 1
}

func oneGPUWhy(one bool) string {
	if one {
		return " (the job fits one GPU and finishes within the deadline there: the VM's other GPUs sit idle)"
	}
	return ""
}
