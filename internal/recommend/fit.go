// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the per-GPU fit: how a job's GPU memory splits over the
// GPUs of a size, how many VMs and model copies that takes, and whether
// every GPU's share fits the memory it exposes.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// gpuJob is the GPU memory of a job as the per-GPU fit splits it. GiB
// figures.
type gpuJob struct {
	total float64 // the job's total need (gpuMemNeed)
	// shard is split evenly over the GPUs one copy of the model uses:
	// weights, states and activations.
	shard float64
	// kvPerSeq is the KV cache of one sequence (inference of a language
	// model), seqs the sequences in flight; kvSplit as kvCache.split.
	kvPerSeq float64
	seqs     int64
	kvSplit  int64
	// heads is the attention heads tensor parallelism must divide; 0 when
	// unknown or the split is not tensor parallel.
	heads int64
	// replicated is the part of shard every GPU keeps whole (sharded
	// training: activations tensor parallelism does not split).
	replicated float64
	// share is the part of each GPU's usable memory the job may use.
	share float64
	// dataParallel: every GPU holds shard whole (plain data parallelism).
	dataParallel bool
	// tensorParallel: a copy is split by tensor parallelism inside a VM and
	// pipeline stages across VMs (inference); otherwise the states are
	// sharded over every GPU of the job (FSDP or ZeRO-3, training).
	tensorParallel bool
}

// gpuJobOf derives how the job's GPU memory need splits.
func gpuJobOf(n *need, req Request) gpuJob {
	j := gpuJob{total: n.gpuMemNeed, shard: n.gpuMemNeed, share: 1}
	if n.gpuMemNeed <= 0 {
		return j
	}
	if req.GPUMemoryGiB == nil && n.mem != nil {
		if n.mem.DataParallel {
			j.dataParallel = true
		}
		if n.workload != WorkloadInference && !j.dataParallel && (n.mi.method == MethodLoRA || n.mi.method == MethodQLoRA) {
			_, rep, _ := trainingActivationParts(&n.mi)
			j.replicated = math.Min(catalog.Round2(rep/GiB), j.shard)
		}
		if n.workload == WorkloadInference {
			j.share = ServingMemoryShare
			j.tensorParallel = true
			if kv := kvCacheOf(&n.mi); kv.perSeq > 0 {
				j.kvPerSeq = kv.perSeq / GiB
				j.seqs = n.mi.seqs
				j.kvSplit = kv.split
				j.shard = n.mem.WeightsGiB + n.mem.ActivationGiB
			}
		}
	}
	if n.mi.model != nil && n.mi.model.AttentionHeads != nil && j.tensorParallel {
		j.heads = *n.mi.model.AttentionHeads
	}
	return j
}

// gpuLayout is how a size holds the job's GPU memory.
type gpuLayout struct {
	ok        bool
	totalFail bool // the job's total does not fit the VMs allowed (gpu_memory); else the shard (gpu_memory_per_gpu)
	nodes     int64
	tp, pp    int64
	replicas  int64
	copies    int64   // the copies the requests are spread over (serving): every replica
	perCopy   int64   // the sequences one copy's KV cache holds (serving)
	perGroup  int64   // copies per pp VMs (serving)
	perGPU    float64 // GiB one GPU holds
	used      float64 // GiB the job uses over every GPU
	capacity  float64 // GiB the job may use over every GPU
	kvRoom    float64 // GiB of KV cache room left over every copy (inference)
	memNodes  int64   // the VMs memory alone takes (serving: before tokens_per_second's copies)
	// Serving with latency targets: which target the layout misses, and
	// the fastest time to first token and per output token the size's
	// layouts reach (seconds), which the nearest miss quotes.
	missTTFT, missTPOT bool
	bestTTFT, bestTPOT float64
}

// tensorDegree is the largest tensor-parallel degree up to units that
// divides heads (any when heads is 0).
func tensorDegree(units, heads int64) int64 {
	for d := units; d > 1; d-- {
		if units%d == 0 && (heads == 0 || heads%d == 0) {
			return d
		}
	}
	return 1
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
}

// fitGPU lays the job out on a size with at most limit VMs in all (fixed
// VMs when fixed > 0), of which one job (one copy of the model, for
// inference) spans at most span.
func (j *gpuJob) fitGPU(in *sizeInfo, limit, span, fixed int64) gpuLayout {
	return j.fitGPUAt(in, limit, span, fixed, 0)
}

// fitGPUAt is fitGPU with a served copy split over tp GPUs of a VM (0:
// tensorChoice's degree).
func (j *gpuJob) fitGPUAt(in *sizeInfo, limit, span, fixed, tp int64) gpuLayout {
	r := gpuRoom{units: in.gpuUnits, perGPU: in.unitMem * j.share, maxVMs: limit, fixed: fixed, tp: tp}
	r.perVM = float64(r.units) * r.perGPU
	if fixed > 0 {
		r.maxVMs = min(fixed, limit)
	}
	r.span = min(span, r.maxVMs)
	l := gpuLayout{tp: 1, pp: 1, replicas: 1}
	room := r.span // VMs that can hold one job's total
	if j.tensorParallel && j.kvPerSeq > 0 {
		room = r.maxVMs // copies spread the KV cache over VMs
	}
	l.totalFail = j.total > float64(room)*r.perVM+1e-9
	if r.perGPU <= 0 {
		l.totalFail = true
		return l
	}
	switch {
	case j.dataParallel:
		j.fitWhole(&l, &r)
	case j.tensorParallel:
		j.fitCopies(&l, &r)
	default:
		j.fitSharded(&l, &r)
	}
	return l
}

// fitWhole lays out a data-parallel job: every GPU holds it whole.
func (j *gpuJob) fitWhole(l *gpuLayout, r *gpuRoom) {
	l.nodes, l.perGPU = 1, j.shard
	if j.shard > r.perGPU+1e-9 {
		return
	}
	l.used, l.capacity = j.shard*float64(r.units), r.perVM
	l.ok = true
}

// fitSharded lays out a job whose states are sharded over every GPU of
// the job, the replicated part kept whole by each.
func (j *gpuJob) fitSharded(l *gpuLayout, r *gpuRoom) {
	split := j.shard - j.replicated
	if j.replicated >= r.perGPU {
		l.nodes, l.perGPU = 1, j.replicated+split/float64(r.units)
		return
	}
	k := max(int64(math.Ceil(split/(float64(r.units)*(r.perGPU-j.replicated))-1e-9)), 1)
	l.nodes, l.tp = k, r.units
	l.perGPU = j.replicated + split/float64(r.units*k)
	if k > r.span {
		// One job may span only span VMs (one, without InfiniBand).
		l.totalFail = true
		return
	}
	if r.fixed > 0 {
		l.nodes = r.fixed
		l.perGPU = j.replicated + split/float64(r.units*r.fixed)
	}
	l.used, l.capacity = l.perGPU*float64(r.units*l.nodes), float64(l.nodes)*r.perVM
	l.ok = true
}

// fitCopies lays out a served model: each copy split by tensor parallelism
// inside a VM (only as far as the VM's copies then hold every concurrent
// sequence within the sizing band, else at all: more copies serve more
// requests than a wider split, whose all-reduce per layer costs time,
// across PCIe most of all; when no degree holds them on one VM, the widest
// split holds the most per VM) and by pipeline stages across VMs, with the
// copies the concurrent sequences need.
func (j *gpuJob) fitCopies(l *gpuLayout, r *gpuRoom) {
	c := copyFit{j: j, perGPU: r.perGPU}
	c.tp = r.tp
	if c.tp <= 0 {
		c.tp = j.tensorChoice(r.units, r.perGPU, tensorDegree(r.units, j.heads))
	}
	c.kvDiv = j.kvDivisor(c.tp)
	c.perGroup = r.units / c.tp // copies per pp VMs
	// Pipeline stages: the fewest VMs whose GPUs hold their share of the
	// weights and the KV cache of at least one sequence.
	need := j.shard/float64(c.tp) + j.kvPerSeq/float64(c.kvDiv)
	pp := max(int64(math.Ceil(need/r.perGPU-1e-9)), 1)
	if pp > r.span {
		l.totalFail = l.totalFail || j.shard > float64(r.span)*r.perVM+1e-9
		l.nodes, l.tp, l.pp, l.perGPU = pp, c.tp, pp, need/float64(r.span)
		return
	}
	pp = c.stages(pp, r.span)
	copies, perCopy, kvCap := c.copies(pp)
	l.perCopy = perCopy
	groups := (copies + c.perGroup - 1) / c.perGroup
	l.tp, l.pp, l.nodes = c.tp, pp, groups*pp
	if r.fixed > 0 && l.nodes <= r.fixed {
		groups = r.fixed / pp
		l.nodes = r.fixed
	}
	l.replicas, l.copies, l.perGroup = groups*c.perGroup, groups*c.perGroup, c.perGroup
	kvUsed := float64(j.seqs) * j.kvPerSeq
	l.perGPU = j.shard/float64(c.tp*pp) + math.Min(kvUsed, kvCap*float64(l.replicas))/float64(l.replicas*c.kvDiv*pp)
	// The job uses the copies its requests need; the VMs' other GPUs
	// hold copies it does not need (see the idle-GPU penalty).
	l.used = float64(copies)*j.shard + kvUsed*float64(c.tp)/float64(c.kvDiv)
	l.capacity = float64(l.nodes) * r.perVM
	l.kvRoom = math.Max(0, kvCap*float64(l.replicas)-kvUsed)
	if l.nodes > r.maxVMs {
		l.totalFail = true
		return
	}
	l.ok = true
}

// copyFit is a served model's copy split over tp GPUs of a size.
type copyFit struct {
	j                   *gpuJob
	tp, kvDiv, perGroup int64
	perGPU              float64 // GiB each GPU may use
}

// copies is the copies the requests need with pp stages, the sequences
// one copy decodes together (its KV cache holds them, at most
// MaxBatchSequences per GPU) and the KV cache one copy holds (GiB).
func (c copyFit) copies(pp int64) (copies, perCopy int64, kvCap float64) {
	j := c.j
	if j.kvPerSeq <= 0 {
		return 1, 0, 0
	}
	kvCap = (c.perGPU - j.shard/float64(c.tp*pp)) * float64(c.kvDiv*pp)
	perCopy = min(max(int64(math.Floor(kvCap/j.kvPerSeq+1e-9)), 1), MaxBatchSequences*c.tp*pp)
	return (j.seqs + perCopy - 1) / perCopy, perCopy, kvCap
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
// concurrent sequence's KV cache within SizingBandHigh of the GPUs' budget,
// else the smallest that holds them at all, else most (the largest).
func (j *gpuJob) tensorChoice(units int64, cap1 float64, most int64) int64 {
	for _, limit := range []float64{SizingBandHigh, 1} {
		for d := int64(1); d <= most; d++ {
			if units%d != 0 || (j.heads != 0 && j.heads%d != 0) || j.shard/float64(d) >= cap1 {
				continue
			}
			copies := float64(units / d)
			if copies*j.shard+float64(j.seqs)*j.kvPerSeq*float64(d)/float64(j.kvDivisor(d)) <= limit*float64(units)*cap1+1e-9 {
				return d
			}
		}
	}
	return most
}

// kvDivisor is how many GPUs of a copy split over tp GPUs divide the KV
// cache: tp, or the KV heads when there are fewer (the other GPUs hold
// copies), or 1 for MLA.
func (j *gpuJob) kvDivisor(tp int64) int64 {
	if j.kvSplit > 0 && j.kvSplit < tp {
		return j.kvSplit
	}
	return tp
}
