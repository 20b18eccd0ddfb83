// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the phrases the constraints' reasons and the explanation
// share: what the job is called, on how many VMs its memory must fit, why it
// needs InfiniBand, what one GPU holds and how to lower it.

import (
	"fmt"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// spotTrainingAdvice is the advice for spot training and fine-tuning.
const spotTrainingAdvice = "Spot capacity can be reclaimed at any time. Microsoft recommends spot for interruptible work such as inference (Microsoft's AI compute guidance); for training and fine-tuning, checkpoint regularly so an eviction loses little work."

// memClause says on how many VMs the GPU memory must fit.
func memClause(n *requirements) string {
	switch {
	case n.fixedNodes > 0:
		return fmt.Sprintf("on %d VMs (nodes)", n.fixedNodes)
	case n.ibNeeded(true):
		what := "the job"
		if n.servedLM() {
			what = "one copy of the model"
		}
		return fmt.Sprintf("within the memory its GPUs may use: %s must fit one VM, or up to its InfiniBand span (sizes without it cannot span VMs)%s", what, poolClause(n))
	}
	return fmt.Sprintf("within %d VMs, in the memory its GPUs may use", MaxNodes)
}

// nodesClause says on how many VMs the job's GPUs, cores or memory must
// fit; spanDetail gives each size's figure.
func nodesClause(n *requirements) string {
	switch {
	case n.fixedNodes > 0:
		return fmt.Sprintf("on %d VMs (nodes)", n.fixedNodes)
	case n.ibNeeded(true):
		return "within its InfiniBand span (one VM on a size without it)" + poolClause(n)
	}
	return fmt.Sprintf("within %d VMs", MaxNodes)
}

// spanWhat says where a size's InfiniBand span comes from (catalog
// SKU.MaxJobVMs, D74 and D81).
func spanWhat() string {
	return fmt.Sprintf("its series' span where its pages state one (catalog placement.max_job_vms or max_mpi_job_vms), else the %d VMs of one scale set's single placement group", MaxNodesRDMA)
}

// poolClause adds the limit of the target's group of VMs where it caps
// the VMs one job spans (poolVMs).
func poolClause(n *requirements) string {
	if l, what := n.poolVMs(nil); l > 0 {
		return fmt.Sprintf("; at most %d in %s", l, what)
	}
	return ""
}

// ibWhyMultiVM is ibWhy's answer when only the VM count asks for InfiniBand.
const ibWhyMultiVM = "the job spans several VMs"

// ibWhy says why the job needs InfiniBand.
func ibWhy(n *requirements) string {
	switch {
	case n.interconnect == InterconnectInfiniBand:
		return "interconnect = \"infiniband\""
	case n.workload == WorkloadHPC:
		return "tightly coupled MPI"
	}
	return ibWhyMultiVM
}

func priceWhere(n *requirements) string {
	s := ""
	switch {
	case n.region != "":
		s = " in " + n.region
	case n.regionScoped():
		s = " in its region of " + catalog.QuoteList(n.regions)
	}
	if n.spot {
		s += " (spot where known)"
	}
	return s
}

// jobLabel names the job as the reasons do: "training (small model)".
func jobLabel(n *requirements) string {
	if n.fitKey != n.workload {
		return wordsOf(n.workload).label + " (" + n.class + " model)"
	}
	return wordsOf(n.workload).label
}

// words are what sentences call a workload and the GPU memory a job
// spreads over its GPUs when no model's layout says how (the sharded
// layout; gpu_memory_gib): its label, what the memory holds (parts, short;
// whole, in full, as a sentence's subject), how it spreads and by what.
type words struct{ label, parts, whole, spread, how string }

// workloadWords holds each workload's words; workloads not listed are
// named as given, and their memory is a model's sharded states
// (defaultWords).
var workloadWords = map[string]words{
	WorkloadVisualization: {label: "visualization", parts: "scenes and frame buffers",
		whole: "scenes, textures and frame buffers", spread: "are spread"},
	WorkloadDataProcessing: {label: "data processing", parts: "data", whole: "the data",
		spread: "is partitioned", how: " (one RAPIDS worker per GPU)"},
}

var defaultWords = words{parts: "states and activations", whole: "weights, gradients, optimizer states and activations",
	spread: "are sharded", how: " (FSDP or ZeRO-3)"}

// wordsOf is a workload's words.
func wordsOf(workload string) words {
	if w, ok := workloadWords[workload]; ok {
		return w
	}
	w := defaultWords
	w.label = workload
	return w
}

// shareWhat says what one GPU must hold.
func shareWhat(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return fmt.Sprintf("every GPU holds the whole model, its states and its batch (%s GiB, data parallel)%s", trimFloat(j.Shard), withinShare(j))
	case j.Placed() && j.KVPerSeq > 0:
		return fmt.Sprintf("one GPU holds a copy with the cache of at least one request, or each of the fewest GPUs of one VM that hold them its placed share, within %s%% of its usable memory", trimFloat(j.Share*100))
	case j.Placed():
		return fmt.Sprintf("one GPU holds a copy, or each of the fewest GPUs of one VM that hold it its placed share, within %s%% of its usable memory", trimFloat(j.Share*100))
	case j.KVPerSeq > 0:
		return fmt.Sprintf("each GPU holds its tensor-parallel share of the weights and of the KV cache within %s%% of its usable memory, and the attention heads (and KV heads, which GPUs beyond their number hold copies of) limit how far the model splits", trimFloat(j.Share*100))
	case j.TensorParallel:
		return fmt.Sprintf("each GPU holds its tensor-parallel share within %s%% of its usable memory", trimFloat(j.Share*100))
	}
	if j.Replicated > 0 {
		return "each GPU holds its share of the sharded model states and the whole activations of its own micro-batch (FSDP and ZeRO-3 shard the states, not the activations)" + withinShare(j)
	}
	return "each GPU holds its share of the " + wordsOf(n.workload).parts + withinShare(j)
}

// activationsFill reports whether the activations every GPU of a sharded
// training job keeps whole fill a GPU of usable GiB: no number of GPUs
// holds one micro-batch there.
func activationsFill(n *requirements, usable float64) bool {
	return n.job.Replicated > 0 && n.job.Replicated >= usable
}

// contextTooLong says why one micro-batch's activations fill a GPU, and
// what lowers them: context parallelism, which splits one sequence over
// GPUs (the Llama 3 paper's long-context training, arXiv 2407.21783,
// §3.3.2), is not modelled.
func contextTooLong(n *requirements) string {
	return fmt.Sprintf("the activations of one micro-batch (%s × %s tokens) alone take %s GiB on every GPU; lower context_tokens or training_batch_size, or choose a size with larger GPUs (context parallelism, which splits one sequence over GPUs, is not modelled)",
		catalog.Plural(n.mi.Batch, "sequence", "sequences"), groupInt(float64(n.mi.Context)), trimFloat(n.job.Replicated))
}

// lowerWhat says how to lower the need per GPU.
func lowerWhat(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return "lower training_batch_size, or choose a size with larger GPUs"
	case j.KVPerSeq > 0 && !j.Placed():
		return "lower concurrent_requests or context_tokens, or choose a size with larger GPUs"
	case n.workload == WorkloadFineTuning && n.mi.Method == MethodFull:
		return "use fine_tuning_method = \"lora\" or \"qlora\", or choose a size with larger GPUs"
	case j.Replicated > 0:
		return "lower context_tokens or training_batch_size (the activations every GPU keeps whole), or choose a size with larger GPUs"
	}
	return "choose a size with larger GPUs"
}

// precisionWhat says which precision the job computes in, and why.
func precisionWhat(n *requirements) string {
	switch {
	case n.mi.Method == MethodQLoRA:
		return "QLoRA computes in bf16 or fp16"
	case n.mi.Method == MethodLoRA && n.train.ComputePrec == "":
		return "adapters on a quantised base compute in bf16 or fp16"
	case n.mi.Method == MethodLoRA:
		return "LoRA computes in the base model's " + n.precision
	}
	return "full training computes in " + n.precision
}

// computeLabel names the precision training computes in on the size, and
// for fp8 how its rate derives from the 16-bit peak (TrainingTFLOPS).
func computeLabel(n *requirements, in *sizeInfo) string {
	p := n.train.ComputePrec
	switch {
	case p == "":
		return "bf16 or fp16"
	case p == perfmodel.PrecisionFP8 && in.TrainingTFLOPS(p) < in.PeakTFLOPS(p):
		return "fp8: the 16-bit " + trimFloat(in.PeakTFLOPS("")) + " × " + trimFloat(perfmodel.FP8TrainingSpeedup) +
			", fp8 training's measured speed-up over bf16, not the fp8 peak of " + trimFloat(in.PeakTFLOPS(p))
	}
	return p
}

// loadWords names a service's load: "50 requests per second (10,000
// output tokens per second)" or "10,000 output tokens per second".
func loadWords(sv *serving) string {
	if sv.rateStated {
		return catalog.Plural(sv.load, "request", "requests") + " per second (" + loadFigure(sv.loadTPS) + " output tokens per second)"
	}
	return loadFigure(sv.loadTPS) + " output tokens per second"
}
