// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file asks the per-GPU split (perfmodel.GPUJob) for a request: how
// its GPU memory need splits, and the layouts the split finds on a size.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// gpuJobOf derives how the job's GPU memory need splits.
func gpuJobOf(n *need, req Request) perfmodel.GPUJob {
	j := perfmodel.GPUJob{Total: n.gpuMemNeed, Shard: n.gpuMemNeed, Share: 1, Band: SizingBandHigh}
	if n.gpuMemNeed <= 0 {
		return j
	}
	if req.GPUMemoryGiB == nil && n.mem != nil {
		if n.mem.DataParallel {
			j.DataParallel = true
		}
		if n.workload != WorkloadInference && !j.DataParallel && (n.mi.Method == MethodLoRA || n.mi.Method == MethodQLoRA) {
			_, rep, _ := perfmodel.TrainingActivationParts(&n.mi)
			j.Replicated = math.Min(catalog.Round2(rep/perfmodel.GiB), j.Shard)
		}
		if n.workload == WorkloadInference {
			j.Share = perfmodel.ServingMemoryShare
			j.TensorParallel = true
			if kv := perfmodel.KVCacheOf(&n.mi); kv.PerSeq > 0 {
				j.KVPerSeq = kv.PerSeq / perfmodel.GiB
				j.Seqs = n.mi.Seqs
				j.KVSplit = kv.Split
				j.Shard = n.mem.WeightsGiB + n.mem.ActivationGiB
			}
		}
	}
	if n.mi.Model != nil && n.mi.Model.AttentionHeads != nil && j.TensorParallel {
		j.Heads = *n.mi.Model.AttentionHeads
	}
	return j
}

// gpuLayout is how a size holds the job's GPU memory (the per-GPU split's
// layout), with what the serving layout search found.
type gpuLayout struct {
	perfmodel.Layout
	memNodes int64 // the VMs memory alone takes (serving: before tokens_per_second's copies)
	// Serving with latency targets: which target the layout misses, and
	// the fastest time to first token and per output token the size's
	// layouts reach (seconds), which the nearest miss quotes.
	missTTFT, missTPOT bool
	bestTTFT, bestTPOT float64
}

// fitGPU lays the job out on a size with at most limit VMs in all (fixed
// VMs when fixed > 0), of which one job (one copy of the model, for
// inference) spans at most span; a served copy over tp GPUs of a VM (0:
// the split's choice).
func fitGPU(j *perfmodel.GPUJob, in *sizeInfo, limit, span, fixed, tp int64) gpuLayout {
	return gpuLayout{Layout: j.Fit(&in.Hardware, limit, span, fixed, tp)}
}
