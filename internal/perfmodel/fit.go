// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the per-GPU split: how a job's GPU memory splits over the
// GPUs of a size, how many VMs and model copies that takes, and whether
// every GPU's share fits the memory it exposes.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

const (
	// GPUMemoryShare is the share of each GPU's usable memory a job whose
	// GPU memory is estimated from its model may fill, serving and
	// training alike: the rest is the CUDA context, NCCL buffers and the
	// allocator's fragmentation, which no estimate counts. A serving
	// engine takes vLLM's default gpu_memory_utilization, 0.9 (vLLM engine
	// arguments); training keeps the same reserve, since fragmentation
	// leaves memory free that no tensor can use (ZeRO, Rajbhandari et al.
	// 2020, §3.2 "Residual Memory Consumption": out of memory with over
	// 30% still free) and the caching allocator holds freed blocks its
	// next allocations may not fit (PyTorch "CUDA semantics: Memory
	// management", pytorch.org/docs/stable/notes/cuda.html). A stated
	// gpu_memory_gib is the job's whole need and keeps every GPU's usable
	// memory (share 1).
	GPUMemoryShare = 0.9

	// MaxBatchSequences and LargeGPUBatchSequences are the most sequences
	// one copy of a served model decodes together: vLLM's default
	// max_num_seqs for an engine, 1,024 on GPUs of at least
	// LargeGPUMemoryGiB ("For GPUs like H100 and MI300x, use larger default
	// values") other than the A100 (kept at the smaller values after a
	// throughput regression, vLLM PR #17885), 256 on the others and on CPUs
	// (vllm/engine/arg_utils.py, get_batch_defaults). The catalog's only GPU
	// of that memory before 2022 is the A100, so the rule reads the
	// architecture's year (LargeGPUSinceYear). More concurrent requests take
	// more copies.
	MaxBatchSequences      = 256
	LargeGPUBatchSequences = 1024
	LargeGPUMemoryGiB      = 70
	LargeGPUSinceYear      = 2022
)

// MaxSeqs is the most sequences one copy decodes together on the
// hardware (MaxBatchSequences, LargeGPUBatchSequences).
func MaxSeqs(h *Hardware) int64 {
	if h.IsGPU && h.UnitMemGiB >= LargeGPUMemoryGiB && h.ArchYear >= LargeGPUSinceYear {
		return LargeGPUBatchSequences
	}
	return MaxBatchSequences
}

// GPUJob is the GPU memory of a job as the per-GPU fit splits it. GiB
// figures.
type GPUJob struct {
	Total float64 // the job's total need
	// Shard is split evenly over the GPUs one copy of the model uses:
	// weights, states and activations.
	Shard float64
	// KVPerSeq is the KV cache of one sequence (inference of a language
	// model, or one request of an encoder-decoder speech model), Seqs the
	// sequences in flight; KVSplit as KVCache.Split.
	KVPerSeq float64
	Seqs     int64
	KVSplit  int64
	// Kind is a served model's catalog kind ("" for a non-generative model
	// of unknown kind): a language model's copy is split by tensor
	// parallelism, another's placed (Placed).
	Kind string
	// Heads is the attention heads tensor parallelism must divide, KVHeads
	// the KV heads it must divide or be a multiple of (TensorSplits); 0
	// when unknown (MLA has no KV heads) or the split is not tensor
	// parallel.
	Heads, KVHeads int64
	// Replicated is the part of Shard every GPU keeps whole (sharded
	// training: the activations of the GPU's own micro-batch, which FSDP
	// and ZeRO-3 do not shard).
	Replicated float64
	// Share is the part of each GPU's usable memory the job may use.
	Share float64
	// Band is the share of a VM's GPU memory a served copy's
	// tensor-parallel degree aims to fill with its copies' weights and KV
	// cache (the ranking's sizing band); above it a wider split is taken.
	Band float64
	// DataParallel: every GPU holds Shard whole (plain data parallelism).
	DataParallel bool
	// TensorParallel: a copy is split by tensor parallelism inside a VM and
	// pipeline stages across VMs (inference); otherwise the states are
	// sharded over every GPU of the job (FSDP or ZeRO-3, training).
	TensorParallel bool
}

// Layout is how a size holds the job's GPU memory.
type Layout struct {
	OK        bool
	TotalFail bool // the job's total does not fit the VMs allowed; else one GPU's share does not
	Nodes     int64
	TP, PP    int64
	Replicas  int64
	Copies    int64   // the copies the requests are spread over (serving): every replica
	PerCopy   int64   // the sequences one copy's KV cache holds (serving)
	PerGroup  int64   // copies per PP VMs (serving)
	PerGPU    float64 // GiB one GPU holds
	Used      float64 // GiB the job uses over every GPU
	Capacity  float64 // GiB the job may use over every GPU
	KVRoom    float64 // GiB of KV cache room left over every copy (inference)
}

// TensorDegree is the largest tensor-parallel degree up to units that
// TensorSplits allows on a VM of units GPUs.
func (j *GPUJob) TensorDegree(units int64) int64 {
	for d := units; d > 1; d-- {
		if j.TensorSplits(units, d) {
			return d
		}
	}
	return 1
}

// TensorSplits reports whether a copy may be split over d of a VM's units
// GPUs: d divides the GPUs, and the serving engines' QKV layer loads the
// model split d ways, which needs d to divide the attention heads and to
// divide the KV heads or, where it is at least as many, be a multiple of
// them (each then replicated): QKVParallelLinear.__init__'s divide() calls
// in vllm-project/vllm:vllm/model_executor/layers/linear.py@0036d38de46c5d48fdedeb658dedc0fc0f95677d
// and sgl-project/sglang:python/sglang/srt/layers/linear.py@0079fcc18b3ee44bfeaaea8a9268c1d50b57b3e1.
// Phi-4's 40 heads and 10 KV heads split 1, 2, 5 or 10 ways, not 4 or 8.
func (j *GPUJob) TensorSplits(units, d int64) bool {
	if d < 1 || units%d != 0 || (j.Heads != 0 && j.Heads%d != 0) {
		return false
	}
	switch kv := j.KVHeads; {
	case kv == 0:
		return true
	case d >= kv:
		return d%kv == 0
	}
	return j.KVHeads%d == 0
}

// gpuRoom is what a size offers a job's GPU memory: its GPUs (units), the
// memory each may use (perGPU) and a VM's (perVM), the VMs one job (one
// copy of the model, for inference) may span, the VMs allowed in all, and
// the nodes setting (0: none).
type gpuRoom struct {
	units         int64
	perGPU, perVM float64
	span, maxVMs  int64
	fixed         int64
	tp            int64 // a served copy's tensor-parallel degree; 0: tensorChoice's
	maxSeqs       int64 // the most sequences a copy decodes together (MaxSeqs)
}

// Fit lays the job out on a size with at most limit VMs in all (fixed VMs
// when fixed > 0), of which one job (one copy of the model, for
// inference) spans at most span; a served copy is split over tp GPUs of a
// VM (0: the narrowest degree whose copies hold the requests within
// Band, tensorChoice).
func (j *GPUJob) Fit(h *Hardware, limit, span, fixed, tp int64) Layout {
	r := gpuRoom{units: h.GPUUnits, perGPU: h.UnitMemGiB * j.Share, maxVMs: limit, fixed: fixed, tp: tp, maxSeqs: MaxSeqs(h)}
	r.perVM = float64(r.units) * r.perGPU
	if fixed > 0 {
		r.maxVMs = min(fixed, limit)
	}
	r.span = min(span, r.maxVMs)
	l := Layout{TP: 1, PP: 1, Replicas: 1}
	room := r.span // VMs that can hold one job's total
	if j.TensorParallel && j.KVPerSeq > 0 {
		room = r.maxVMs // copies spread the KV cache over VMs
	}
	l.TotalFail = j.Total > float64(room)*r.perVM+1e-9
	if r.perGPU <= 0 {
		l.TotalFail = true
		return l
	}
	switch {
	case j.DataParallel:
		j.fitWhole(&l, &r)
	case j.TensorParallel:
		j.fitCopies(&l, &r)
	default:
		j.fitSharded(&l, &r)
	}
	return l
}

// fitWhole lays out a data-parallel job: every GPU holds it whole.
func (j *GPUJob) fitWhole(l *Layout, r *gpuRoom) {
	l.Nodes, l.PerGPU = 1, j.Shard
	if j.Shard > r.perGPU+1e-9 {
		return
	}
	l.Used, l.Capacity = j.Shard*float64(r.units), r.perVM
	l.OK = true
}

// fitSharded lays out a job whose states are sharded over every GPU of
// the job, the replicated part kept whole by each.
func (j *GPUJob) fitSharded(l *Layout, r *gpuRoom) {
	split := j.Shard - j.Replicated
	if j.Replicated >= r.perGPU {
		// No number of VMs helps: one GPU cannot hold the part every GPU
		// keeps whole (one micro-batch's activations). The per-GPU fit
		// reports it where the VMs allowed hold the sharded rest.
		l.Nodes, l.PerGPU = 1, j.Replicated+split/float64(r.units)
		l.TotalFail = l.TotalFail && split > float64(r.span)*r.perVM+1e-9
		return
	}
	k := max(int64(math.Ceil(split/(float64(r.units)*(r.perGPU-j.Replicated))-1e-9)), 1)
	l.Nodes, l.TP = k, r.units
	l.PerGPU = j.ShardedPerGPU(r.units, k)
	if k > r.span {
		// One job may span only span VMs (one, without InfiniBand).
		l.TotalFail = true
		return
	}
	if r.fixed > 0 {
		l.Nodes = r.fixed
		l.PerGPU = j.ShardedPerGPU(r.units, r.fixed)
	}
	l.Used, l.Capacity = l.PerGPU*float64(r.units*l.Nodes), float64(l.Nodes)*r.perVM
	l.OK = true
}

// ShardedPerGPU is the GiB one GPU holds when the job's states are
// sharded over nodes VMs of units GPUs each, the replicated part kept
// whole by each: the one home of that figure, for the memory layout
// (fitSharded) and for a layout a deadline scaled out.
func (j *GPUJob) ShardedPerGPU(units, nodes int64) float64 {
	return j.Replicated + (j.Shard-j.Replicated)/float64(units*max(nodes, 1))
}

// fitCopies lays out a served model: each copy split by tensor parallelism
// inside a VM (only as far as the VM's copies then hold every concurrent
// sequence within Band, else at all: more copies serve more requests than
// a wider split, whose all-reduce per layer costs time, across PCIe most
// of all; when no degree holds them on one VM, the widest split holds the
// most per VM) and by pipeline stages across VMs, with the copies the
// concurrent sequences need.
func (j *GPUJob) fitCopies(l *Layout, r *gpuRoom) {
	c := copyFit{j: j, perGPU: r.perGPU, maxSeqs: r.maxSeqs}
	c.tp = r.tp
	if c.tp <= 0 {
		c.tp = j.tensorChoice(r.units, r.perGPU, j.TensorDegree(r.units))
	}
	c.kvDiv = j.KVDivisor(c.tp)
	c.perGroup = r.units / c.tp // copies per pp VMs
	// Pipeline stages: the fewest VMs whose GPUs hold their share of the
	// weights and the KV cache of at least one sequence.
	need := j.Shard/float64(c.tp) + j.KVPerSeq/float64(c.kvDiv)
	pp := max(int64(math.Ceil(need/r.perGPU-1e-9)), 1)
	if pp > r.span {
		l.TotalFail = l.TotalFail || j.Shard > float64(r.span)*r.perVM+1e-9
		l.Nodes, l.TP, l.PP, l.PerGPU = pp, c.tp, pp, need/float64(r.span)
		return
	}
	pp = c.stages(pp, r.span)
	copies, perCopy, kvCap := c.copies(pp)
	l.PerCopy = perCopy
	groups := (copies + c.perGroup - 1) / c.perGroup
	l.TP, l.PP, l.Nodes = c.tp, pp, groups*pp
	if r.fixed > 0 && l.Nodes <= r.fixed {
		groups = r.fixed / pp
		l.Nodes = r.fixed
	}
	l.Replicas, l.Copies, l.PerGroup = groups*c.perGroup, groups*c.perGroup, c.perGroup
	kvUsed := float64(j.Seqs) * j.KVPerSeq
	l.PerGPU = j.Shard/float64(c.tp*pp) + math.Min(kvUsed, kvCap*float64(l.Replicas))/float64(l.Replicas*c.kvDiv*pp)
	// The job uses the copies its requests need; the VMs' other GPUs
	// hold copies it does not need (see the idle-GPU penalty).
	l.Used = float64(copies)*j.Shard + kvUsed*float64(c.tp)/float64(c.kvDiv)
	l.Capacity = float64(l.Nodes) * r.perVM
	l.KVRoom = math.Max(0, kvCap*float64(l.Replicas)-kvUsed)
	if l.Nodes > r.maxVMs {
		l.TotalFail = true
		return
	}
	l.OK = true
}

// Hold sets a served layout's memory where copies of its copies each hold
// the KV cache of held sequences (the others hold only their weights): the
// GiB they use, one GPU's share of a copy that holds them, and the KV cache
// room left over every copy, as fitCopies counts them.
func (j *GPUJob) Hold(l *Layout, h *Hardware, copies int64, held float64) {
	gpus := float64(l.TP * max(l.PP, 1))
	kvDiv := float64(j.KVDivisor(l.TP))
	perCopy := j.Shard + held*j.KVPerSeq*float64(l.TP)/kvDiv
	l.Used = float64(copies) * perCopy
	l.PerGPU = perCopy / gpus
	kvCap := j.copyKVCap(h.UnitMemGiB*j.Share, l.TP, max(l.PP, 1))
	l.KVRoom = math.Max(0, float64(l.Copies)*kvCap-float64(copies)*held*j.KVPerSeq)
}

// copyKVCap is the KV cache one copy over tp GPUs and pp stages holds, each
// GPU using perGPU GiB: what its share of the weights leaves, GiB of the
// model's KV cache (KVPerSeq units: GPUs past the KV heads hold copies).
func (j *GPUJob) copyKVCap(perGPU float64, tp, pp int64) float64 {
	return (perGPU - j.Shard/float64(tp*pp)) * float64(j.KVDivisor(tp)*pp)
}

// copyFit is a served model's copy split over tp GPUs of a size.
type copyFit struct {
	j                   *GPUJob
	tp, kvDiv, perGroup int64
	maxSeqs             int64   // the most sequences a copy decodes together (MaxSeqs)
	perGPU              float64 // GiB each GPU may use
}

// copies is the copies the requests need with pp stages, the sequences
// one copy decodes together (its KV cache holds them, at most MaxSeqs)
// and the KV cache one copy holds (GiB).
func (c copyFit) copies(pp int64) (copies, perCopy int64, kvCap float64) {
	j := c.j
	if j.KVPerSeq <= 0 {
		return 1, 0, 0
	}
	kvCap = j.copyKVCap(c.perGPU, c.tp, pp)
	perCopy = min(max(int64(math.Floor(kvCap/j.KVPerSeq+1e-9)), 1), c.maxSeqs)
	return (j.Seqs + perCopy - 1) / perCopy, perCopy, kvCap
}

// vms is the VMs the copies take with pp stages.
func (c copyFit) vms(pp int64) int64 {
	n, _, _ := c.copies(pp)
	return (n + c.perGroup - 1) / c.perGroup * pp
}

// stages is the pipeline stages of a copy that must span VMs: from pp, the
// stage count that needs the fewest VMs for every sequence (more stages
// leave each GPU more room), at most span.
func (c copyFit) stages(pp, span int64) int64 {
	if pp > 1 {
		for best, k := c.vms(pp), pp+1; k <= span && k < best; k++ {
			if v := c.vms(k); v < best {
				pp, best = k, v
			}
		}
	}
	return pp
}

// tensorChoice is the tensor-parallel degree of a served copy: the
// smallest allowed degree whose copies on one VM hold the weights and every
// concurrent sequence's KV cache within Band of the GPUs' budget, else
// the smallest that holds them at all, else most (the largest). A placed
// copy (Placed) takes the fewest GPUs that hold it with the cache of one
// request where it keeps one: more copies, not wider ones, hold more
// requests, and its split is a placement, not a speed-up.
func (j *GPUJob) tensorChoice(units int64, cap1 float64, most int64) int64 {
	if j.Placed() {
		for d := int64(1); d <= most; d++ {
			if j.TensorSplits(units, d) && (j.Shard+j.KVPerSeq)/float64(d) < cap1 {
				return d
			}
		}
		return most
	}
	for _, limit := range []float64{j.Band, 1} {
		for d := int64(1); d <= most; d++ {
			if !j.TensorSplits(units, d) || j.Shard/float64(d) >= cap1 {
				continue
			}
			copies := float64(units / d)
			if copies*j.Shard+float64(j.Seqs)*j.KVPerSeq*float64(d)/float64(j.KVDivisor(d)) <= limit*float64(units)*cap1+1e-9 {
				return d
			}
		}
	}
	return most
}

// Placed reports whether a served copy is not a language model's (an
// encoder, vision, diffusion or speech model, or a non-generative model of
// unknown kind), whatever cache it keeps: a copy one GPU cannot hold has
// its components or layers placed on several GPUs of one VM, which run in
// turn (Diffusers' and Accelerate's device_map, "Reduce memory usage:
// Multiple GPUs", huggingface.co/docs/diffusers/optimization/memory), not
// split by tensor parallelism: no all-reduce per layer, no attention heads
// to divide, no pipeline across VMs. An encoder-decoder speech model's
// copies keep a cache per request (KVPerSeq), and more of them hold more
// requests, but they stay placed and untimed.
func (j *GPUJob) Placed() bool {
	return j.TensorParallel && j.Kind != catalog.ModelKindGenerative && j.Kind != catalog.ModelKindMoE
}

// KVDivisor is how many GPUs of a copy split over tp GPUs divide the KV
// cache: tp, or the KV heads when there are fewer (the other GPUs hold
// copies), or 1 for MLA.
func (j *GPUJob) KVDivisor(tp int64) int64 {
	if j.KVSplit > 0 && j.KVSplit < tp {
		return j.KVSplit
	}
	return tp
}
