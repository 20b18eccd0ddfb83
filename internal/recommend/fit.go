// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the per-GPU fit: how a job's GPU memory splits over the
// GPUs of a size, how many VMs and model copies that takes, and whether
// every GPU's share fits the memory it exposes.

import (
	"fmt"
	"math"
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
			j.replicated = math.Min(round2(rep/GiB), j.shard)
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

// explain is the requirements' sentence on the split.
func (j *gpuJob) explain() string {
	switch {
	case j.dataParallel:
		return "Per-GPU fit: every GPU holds the whole model, its states and its batch (data parallel), so one GPU must hold all of it."
	case j.kvPerSeq > 0:
		return fmt.Sprintf("Per-GPU fit: a copy of the model is split over a VM's GPUs by tensor parallelism (a degree that divides the attention heads) and over VMs by pipeline stages only when one VM cannot hold it; each GPU holds its share of the weights and of the KV cache within %s%% of its usable memory (vLLM's gpu_memory_utilization). More copies serve more concurrent requests.", trimFloat(j.share*100))
	case j.tensorParallel:
		return fmt.Sprintf("Per-GPU fit: the model is split over a VM's GPUs by tensor parallelism and over VMs by pipeline stages; each GPU holds its share within %s%% of its usable memory.", trimFloat(j.share*100))
	}
	return "Per-GPU fit: weights, gradients, optimizer states and activations are sharded over every GPU of the job (FSDP or ZeRO-3); each GPU's share must fit the memory it exposes."
}

// gpuLayout is how a size holds the job's GPU memory.
type gpuLayout struct {
	ok        bool
	totalFail bool // the job's total does not fit the VMs allowed (gpu_memory); else the shard (gpu_memory_per_gpu)
	nodes     int64
	tp, pp    int64
	replicas  int64
	copies    int64   // the copies the requests need (serving), at most replicas
	perCopy   int64   // the sequences one copy's KV cache holds (serving)
	perGroup  int64   // copies per pp VMs (serving)
	perGPU    float64 // GiB one GPU holds
	used      float64 // GiB the job uses over every GPU
	capacity  float64 // GiB the job may use over every GPU
	kvRoom    float64 // GiB of KV cache room left over every copy (inference)
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

// fitGPU lays the job out on a size with at most limit VMs in all (fixed
// VMs when fixed > 0), of which one job (one copy of the model, for
// inference) spans at most span.
func (j *gpuJob) fitGPU(in *sizeInfo, limit, span, fixed int64) gpuLayout {
	units := in.gpuUnits
	cap1 := in.unitMem * j.share // per GPU
	l := gpuLayout{tp: 1, pp: 1, replicas: 1}
	vmCap := float64(units) * cap1
	maxVMs := limit
	if fixed > 0 {
		maxVMs = min(fixed, limit)
	}
	span = min(span, maxVMs)
	room := span // VMs that can hold one job's total
	if j.tensorParallel && j.kvPerSeq > 0 {
		room = maxVMs // copies spread the KV cache over VMs
	}
	l.totalFail = j.total > float64(room)*vmCap+1e-9
	if cap1 <= 0 {
		l.totalFail = true
		return l
	}
	switch {
	case j.dataParallel:
		l.nodes, l.perGPU = 1, j.shard
		if j.shard > cap1+1e-9 {
			return l
		}
		l.used, l.capacity = j.shard*float64(units), vmCap
	case j.tensorParallel:
		// Split a copy only as far as the VM's copies then hold every
		// concurrent sequence within the sizing band (else at all): more
		// copies serve more requests than a wider split, whose all-reduce
		// per layer costs time (across PCIe most of all). When no degree
		// holds them on one VM, the widest split holds the most per VM.
		tp := j.tensorChoice(units, cap1, tensorDegree(units, j.heads))
		kvDiv := j.kvDivisor(tp)
		// Pipeline stages: the fewest VMs whose GPUs hold their share of
		// the weights and the KV cache of at least one sequence; when a
		// copy must span VMs, the stage count that needs the fewest VMs
		// for every sequence (more stages leave each GPU more room).
		need := j.shard/float64(tp) + j.kvPerSeq/float64(kvDiv)
		pp := max(int64(math.Ceil(need/cap1-1e-9)), 1)
		if pp > span {
			l.totalFail = l.totalFail || j.shard > float64(span)*vmCap+1e-9
			l.nodes, l.tp, l.pp, l.perGPU = pp, tp, pp, need/float64(span)
			return l
		}
		perGroup := units / tp // copies per pp VMs
		// copiesFor is the copies the requests need with pp stages, the
		// sequences one copy decodes together (its KV cache holds them, at
		// most MaxBatchSequences) and the KV cache one copy holds (GiB).
		copiesFor := func(pp int64) (copies, perCopy int64, kvCap float64) {
			if j.kvPerSeq <= 0 {
				return 1, 0, 0
			}
			kvCap = (cap1 - j.shard/float64(tp*pp)) * float64(kvDiv*pp)
			perCopy = min(max(int64(math.Floor(kvCap/j.kvPerSeq+1e-9)), 1), MaxBatchSequences)
			return (j.seqs + perCopy - 1) / perCopy, perCopy, kvCap
		}
		vms := func(pp int64) int64 {
			c, _, _ := copiesFor(pp)
			return (c + perGroup - 1) / perGroup * pp
		}
		if pp > 1 {
			for best, k := vms(pp), pp+1; k <= span && k < best; k++ {
				if v := vms(k); v < best {
					pp, best = k, v
				}
			}
		}
		copies, perCopy, kvCap := copiesFor(pp)
		l.perCopy = perCopy
		groups := (copies + perGroup - 1) / perGroup
		l.tp, l.pp, l.nodes = tp, pp, groups*pp
		if fixed > 0 && l.nodes <= fixed {
			groups = fixed / pp
			l.nodes = fixed
		}
		l.replicas, l.copies, l.perGroup = groups*perGroup, copies, perGroup
		kvUsed := float64(j.seqs) * j.kvPerSeq
		l.perGPU = j.shard/float64(tp*pp) + math.Min(kvUsed, kvCap*float64(l.replicas))/float64(l.replicas*kvDiv*pp)
		// The job uses the copies its requests need; the VMs' other GPUs
		// hold copies it does not need (see the idle-GPU penalty).
		l.used = float64(copies)*j.shard + kvUsed*float64(tp)/float64(kvDiv)
		l.capacity = float64(l.nodes) * vmCap
		l.kvRoom = math.Max(0, kvCap*float64(l.replicas)-kvUsed)
		if l.nodes > maxVMs {
			l.totalFail = true
			return l
		}
	default:
		split := j.shard - j.replicated
		if j.replicated >= cap1 {
			l.nodes, l.perGPU = 1, j.replicated+split/float64(units)
			return l
		}
		k := max(int64(math.Ceil(split/(float64(units)*(cap1-j.replicated))-1e-9)), 1)
		l.nodes, l.tp = k, units
		l.perGPU = j.replicated + split/float64(units*k)
		if k > span {
			// One job may span only span VMs (one, without InfiniBand).
			l.totalFail = true
			return l
		}
		if fixed > 0 {
			l.nodes = fixed
			l.perGPU = j.replicated + split/float64(units*fixed)
		}
		l.used, l.capacity = l.perGPU*float64(units*l.nodes), float64(l.nodes)*vmCap
	}
	l.ok = true
	return l
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

// shareWhat says what one GPU must hold.
func (j *gpuJob) shareWhat() string {
	switch {
	case j.dataParallel:
		return fmt.Sprintf("every GPU holds the whole model, its states and its batch (%s GiB, data parallel)", trimFloat(j.shard))
	case j.kvPerSeq > 0:
		return fmt.Sprintf("each GPU holds its tensor-parallel share of the weights and of the KV cache within %s%% of its usable memory, and the attention heads (and KV heads, which GPUs beyond their number hold copies of) limit how far the model splits", trimFloat(j.share*100))
	case j.tensorParallel:
		return fmt.Sprintf("each GPU holds its tensor-parallel share within %s%% of its usable memory", trimFloat(j.share*100))
	}
	return "each GPU holds its share of the sharded states and activations within the memory it exposes"
}

// lowerWhat says how to lower the need per GPU.
func (j *gpuJob) lowerWhat(n *requirements) string {
	switch {
	case j.dataParallel:
		return "lower training_batch_size, or choose a size with larger GPUs"
	case j.kvPerSeq > 0:
		return "lower concurrent_requests or context_tokens, or choose a size with larger GPUs"
	case n.workload == WorkloadFineTuning && n.mi.method == MethodFull:
		return "use fine_tuning_method = \"lora\" or \"qlora\", or choose a size with larger GPUs"
	case j.replicated > 0:
		return "lower context_tokens or training_batch_size (the activations every GPU keeps whole), or choose a size with larger GPUs"
	}
	return "choose a size with larger GPUs"
}

// perGPUDetail gives the numbers of the first size counted under
// gpu_memory_per_gpu.
func perGPUDetail(n *requirements, evals []eval) string {
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.firstFail() != cGPUMemoryPerGPU {
			continue
		}
		in := e.in
		usable := trimFloat(in.unitMem)
		if n.job.share < 1 {
			usable = fmt.Sprintf("%s GiB × %s%% = %s", trimFloat(in.unitMem), trimFloat(n.job.share*100), trimFloat(in.unitMem*n.job.share))
		}
		return fmt.Sprintf("For example %s needs %s GiB on each GPU against %s GiB it can use.", in.sku.Name, trimFloat(e.gl.perGPU), usable)
	}
	return ""
}
