// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file says what the engine derived from the request: the requirements'
// sentences and defaults, the model's warnings and notes, the training work
// and the hpc bound, efficiency and reference run.

import (
	"fmt"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// summary is the requirements as Result reports them, with their
// explanation; work is the training work's derivation (flopsHow).
func (n *requirements) summary(work string) Requirements {
	r := Requirements{
		Workload:           n.workload,
		Category:           n.fit.category,
		PreferredFamilies:  append([]string(nil), n.fit.preferred...),
		AcceptableFamilies: append([]string(nil), n.fit.acceptable...),
		FallbackFamilies:   append([]string(nil), n.fit.fallback...),
		Memory:             n.mem,
		ModelClass:         n.class,
		OptimizeFor:        n.optimize,
		Target:             n.target,
		AsOf:               n.asOf,
		Explanation:        explainRequirements(n, work),
		Interconnect:       "any",
		Nodes:              1,
		Defaults:           n.defaults(),
	}
	if n.hasModel {
		r.Precision = n.precision
		r.Model = n.mem.Model
		r.FineTuningMethod = n.mem.FineTuningMethod
		if n.workload != WorkloadFineTuning {
			r.FineTuningMethod = ""
		}
		r.ContextTokens = n.contextUsed()
		r.ConcurrentRequests = n.mem.ConcurrentRequests
		r.KVCacheGiB = n.mem.KVCacheGiB
		r.KVBytesPerToken = n.mem.KVBytesPerToken
		r.TrainingFLOPs, r.TrainingTokensBillion, r.TokenBudget = n.train.FLOPs, n.train.TokensB, tokenBudget(&n.train)
		r.TrainingSamplesMillion = n.train.SamplesM
		if n.train.FLOPs > 0 {
			r.DeadlineHours = n.train.Deadline
		}
		r.TokensPerSecond = n.serve.loadTPS
		if n.serve.rateStated {
			r.RequestsPerSecond = n.serve.load
		}
		if n.serviceTimed() {
			r.PromptTokens, r.OutputTokens, r.TokenSplit = n.mi.Prompt, n.mi.Output, tokenSplitSentence(n.req, &n.mi)
			r.MaxTimeToFirstTokenMs, r.MaxTimePerOutputTokenMs = n.serve.maxTTFT*1000, n.serve.maxTPOT*1000
		}
		if n.serviceTimed() || n.job.TensorParallel || n.class == ClassSmall {
			// Every served model's copies, timed or not.
			r.MinReplicas = n.serve.minReplicas
		}
	} else {
		r.ModelClass = ""
		if n.req.Model != nil && n.req.Model.Class != "" {
			r.ModelClass = n.class
		}
	}
	r.HPCBound = n.hpc.Bound
	if n.gpuMemNeed > 0 {
		v := n.gpuMemNeed
		r.GPUMemoryGiB = &v
	}
	if n.sysMemNeed > 0 {
		v := n.sysMemNeed
		r.SystemMemoryGiB = &v
	}
	if n.gpus > 0 {
		v := float64(n.gpus)
		r.MinGPUsPerJob = &v
	}
	if n.cores > 0 {
		v := n.cores
		r.Cores = &v
	}
	return r
}

// defaults lists every value the engine chose on the user's behalf, keyed
// by the input's name (model.precision, context_tokens): inputs left unset
// that the job uses, and a stated context above the model's maximum, which
// the estimate caps. Requirements.Defaults reports it. max_results, which
// shapes the list rather than the job, is the list's length.
func (n *requirements) defaults() map[string]string {
	d := map[string]string{}
	set := func(unset bool, name, value string) {
		if unset && value != "" {
			d[name] = value
		}
	}
	req := n.req
	set(req.Interconnect == "", "interconnect", n.interconnect)
	set(req.GPUVendor == "" && n.fit.category == catalog.CategoryGPU, "gpu_vendor", n.vendor)
	set(req.Target == "", "target", n.target)
	set(req.OptimizeFor == "", "optimize_for", n.optimize)
	set(req.MinLifetimeMonths == nil, "min_lifetime_months", itoa(n.lifetimeMonths))
	if n.hasModel {
		n.modelDefaults(set)
	}
	if n.workload == WorkloadHPC || n.workload == WorkloadHTC {
		set(req.HPCBound == "", "hpc_bound", n.hpc.Bound)
		// Without cores, nodes or total_memory_gib a job is one VM of each
		// size.
		set(req.Cores == nil && req.Nodes == nil && req.TotalMemoryGiB == nil, "nodes", "1")
	}
	return d
}

// modelDefaults adds the model's and its job's defaults: the table's
// parameter count, the published or default precision and class, the
// fine-tuning method, the sequences, and the training work's budget and
// deadline.
func (n *requirements) modelDefaults(set func(unset bool, name, value string)) {
	req, m := n.req, n.req.Model
	set(m.ParametersBillion == 0, "model.parameters_billion", trimFloat(n.mi.Params))
	set(m.Precision == "", "model.precision", n.precision)
	set(m.Class == "", "model.class", n.class)
	set(req.FineTuningMethod == "" && n.workload == WorkloadFineTuning, "fine_tuning_method", n.mem.FineTuningMethod)
	if c := n.contextUsed(); c > 0 {
		set(req.ContextTokens == nil || n.model.contextCapped, "context_tokens", itoa(c))
	}
	if n.mem.ConcurrentRequests > 0 && n.workload == WorkloadInference && !n.serve.derived() {
		set(req.ConcurrentRequests == nil, "concurrent_requests", itoa(n.mem.ConcurrentRequests))
	}
	if n.mem.TrainingBatchSize > 0 {
		set(req.TrainingBatchSize == nil, "training_batch_size", itoa(n.mem.TrainingBatchSize))
	}
	if n.train.FLOPs > 0 {
		set(n.train.budget == tokensChinchilla || n.train.budget == tokensFineTuning, "tokens_billion", trimFloat(n.train.TokensB))
		set(n.train.budget == samplesVision, "samples_million", trimFloat(n.train.SamplesM))
		set(!n.train.deadlineStated, "deadline_hours", trimFloat(n.train.Deadline))
	}
}

// contextUsed is the context the estimate used: the memory estimate's (a
// served model's KV cache, adapters' activations), else the context the
// training FLOPs' attention term counts (full training sizes its memory
// without it); 0 where neither uses one.
func (n *requirements) contextUsed() int64 {
	switch {
	case n.mem.ContextTokens > 0:
		return n.mem.ContextTokens
	case n.train.FLOPs > 0 && n.train.Width > 0:
		return n.train.Context
	}
	return 0
}

// explainRequirements says how the requirements were derived, in the order
// they were: the families, the model and its memory, the GPU and system
// memory, the work and its deadline, the counts, the scaling rule and the
// interconnect.
func explainRequirements(n *requirements, work string) []string {
	ex := []string{n.fit.explain}
	ex = append(ex, explainModel(n)...)
	ex = append(ex, explainMemory(n, work)...)
	ex = append(ex, loadExplanation(&n.serve, n.cpuService())...)
	if n.gpus > 0 {
		ex = append(ex, fmt.Sprintf("GPUs: at least %d whole GPUs per job.", n.gpus))
	}
	if n.hpc.Bound != "" {
		ex = append(ex, hpcBoundExplanation(&n.hpc))
		ex = append(ex, hpcEfficiencyExplanation(&n.hpc)...)
		ex = append(ex, hpcReferenceExplanation(&n.hpc)...)
	}
	if n.cores > 0 {
		ex = append(ex, fmt.Sprintf("Cores: %d per job; VMs = ceil(cores / vCPUs per VM). HPC sizes run with SMT off, so their vCPUs are physical cores.", n.cores))
	}
	switch {
	case n.fixedNodes > 0:
		ex = append(ex, fmt.Sprintf("Nodes: fixed at %d by the nodes setting.", n.fixedNodes))
	case n.cpuService():
		ex = append(ex, "One copy of the small model on each VM; VMs are added for min_replicas, tokens_per_second and the stated latency targets (each VM then decodes a smaller share of the concurrent requests).")
	case n.job.Placed() && n.job.KVPerSeq > 0:
		ex = append(ex, "Scale up, then out: copies of the model, each on the fewest GPUs that hold it, fill a VM's GPUs, and VMs are added until the copies hold the cache of every concurrent request (each copy its share, within its GPUs).")
	case n.servedLM():
		ex = append(ex, "Scale up, then out: each copy of the model gets the VM's GPUs (tensor parallel), and spans several VMs only when no size holds it on one; copies (replicas) are added when one VM cannot hold the KV cache of every concurrent request (Azure Machine Learning guidance: start with a machine that holds the model, then add machines for concurrency).")
	case n.workload != WorkloadHPC && n.workload != WorkloadHTC:
		ex = append(ex, "Scale up before scale out: one VM when any size holds the job, more VMs only when none does (Azure Machine Learning guidance).")
	}
	return append(ex, interconnectExplanation(n))
}

// explainModel says which model the estimate used and how much memory it
// needs.
func explainModel(n *requirements) []string {
	if n.mem == nil {
		return nil
	}
	var ex []string
	if n.mem.Model != "" {
		ex = append(ex, "Model: "+n.mi.Model.Name+" ("+n.mi.Kind+", "+trimFloat(n.mi.Params)+"B parameters) from the catalog's model table.")
	}
	ex = append(ex, modelNotes(&n.mi, &n.model)...)
	if n.mi.Method != "" && n.workload == WorkloadFineTuning {
		ex = append(ex, "Fine-tuning method: "+n.mi.Method+methodWhy(n.req.FineTuningMethod, n.precision)+".")
	}
	return append(ex, "Memory estimate: "+trimFloat(n.mem.GiB)+" GiB, derived in memory.formula.")
}

// explainMemory says what GPU and system memory the job needs, how the
// GPU memory splits, and the training work (work: its derivation,
// flopsHow) and deadline.
func explainMemory(n *requirements, work string) []string {
	var ex []string
	if n.fit.category != catalog.CategoryGPU {
		if n.mem != nil {
			ex = append(ex, fmt.Sprintf("System memory: at least %s GiB, the model runs on the CPU.", trimFloat(n.sysMemNeed)))
		}
		return ex
	}
	switch {
	case n.req.GPUMemoryGiB != nil:
		ex = append(ex, fmt.Sprintf("GPU memory: %s GiB, as given by gpu_memory_gib (it overrides the model estimate).", trimFloat(n.gpuMemNeed)))
	case n.mem != nil:
		ex = append(ex, fmt.Sprintf("GPU memory: %s GiB in total, from the model estimate.", trimFloat(n.gpuMemNeed)))
	}
	if n.mem != nil && n.workload == WorkloadInference {
		ex = append(ex, fmt.Sprintf("System memory: at least %s GiB per copy of the model, 150%% of the %s GiB of weights (Azure Machine Learning guidance); a copy split over several VMs needs its share on each.", trimFloat(n.sysMemNeed), trimFloat(n.mem.WeightsGiB)))
	}
	if n.gpuMemNeed > 0 {
		ex = append(ex, explainSplit(n))
	}
	if t := &n.train; t.FLOPs > 0 {
		ex = append(ex, "Training work: "+work+"; "+budgetNoun(t)+": "+tokenBudget(t)+".")
		if t.deadlineStated {
			ex = append(ex, fmt.Sprintf("Deadline: %s hours (deadline_hours); each size scales out to meet it within the VMs one job may span, and sizes that cannot are removed (deadline).", trimFloat(t.Deadline)))
		} else {
			ex = append(ex, fmt.Sprintf("Deadline: %d hours by default; each size scales out to meet it within the VMs one job may span, and a size that cannot runs longer, with a warning.", DefaultDeadlineHours))
		}
	}
	return ex
}

// requirementWarnings are the warnings about the request's model inputs:
// the model's own, then the throughput settings the model does not use.
func requirementWarnings(n *requirements) []Warning {
	out := modelWarnings(&n.mi, &n.model)
	if n.workUnused {
		out = append(out, Warning{"Argument Not Used By The Model", workUnusedDetail(n)})
	}
	if t := &n.train; t.untimed != "" {
		out = append(out, Warning{"Training Not Timed",
			"The training of this " + perfmodel.KindLabel(n.mi.Kind) + " is not timed: set " + t.untimed + " for its job hours and cost. Until then its sizes rank by the FLOP/s the training model gives them (dense peak × MFU, of one GPU where the job fits one) per USD, not by price alone."})
	}
	if len(n.servingUnused) > 0 {
		out = append(out, Warning{"Argument Not Used By The Model",
			servingUnusedDetail(n.servingUnused)})
	}
	return out
}

// servingUnusedDetail says which serving arguments the model does not use,
// and why.
func servingUnusedDetail(names []string) string {
	subject, them := joinAnd(names)+" is", "it"
	if len(names) > 1 {
		subject, them = joinAnd(names)+" are", "them"
	}
	return subject + " not used: the throughput model times serving a language model whose memory the engine estimates (not a stated gpu_memory_gib, nor an encoder, vision, diffusion or speech model, which it does not time on GPU or CPU sizes), so no layout is sized for a load or a latency target. Remove " + them + ", or describe the served language model."
}

// workUnusedDetail says which of tokens_billion and deadline_hours the
// job does not use, and why.
func workUnusedDetail(n *requirements) string {
	names, them := "tokens_billion and deadline_hours are", "them"
	switch {
	case n.req.DeadlineHours == nil || n.train.FLOPs > 0:
		names, them = "tokens_billion is", "it"
	case n.req.TokensBillion == nil:
		names, them = "deadline_hours is", "it"
	}
	if n.train.SamplesM > 0 || n.train.proxy {
		return names + " not used: the training of " + perfmodel.KindWithArticle(n.mi.Kind) + " is timed by samples (samples_million and the forward FLOPs of one sample), not tokens. Remove " + them + ", or set samples_million."
	}
	return names + " not used: the throughput model times the training of language models and encoders (tokens) and of vision, diffusion and speech models (samples), and this job is neither. Remove " + them + ", or describe such a model."
}

// budgetNoun names what a training job's budget counts.
func budgetNoun(t *training) string {
	if t.SamplesM > 0 {
		return "samples"
	}
	return "tokens"
}

// tokenBudget says where a training job's tokens (or samples) come from.
func tokenBudget(t *training) string {
	switch t.budget {
	case samplesVision:
		return fmt.Sprintf("%s million, ImageNet-1k's 1,281,167 images × 90 epochs (a judgement); set samples_million for the real budget", trimFloat(DefaultVisionSamplesMillion))
	case samplesStated:
		return "samples_million"
	case tokensChinchilla:
		return fmt.Sprintf("%d tokens per parameter, compute-optimal (Hoffmann et al. 2022); set tokens_billion for the real budget", ChinchillaTokensPerParameter)
	case tokensFineTuning:
		return fmt.Sprintf("%s billion tokens, a typical fine-tuning set (a judgement); set tokens_billion for the real budget", trimFloat(DefaultFineTuningTokensBillion))
	case tokensStated:
		return "tokens_billion"
	}
	return ""
}

// flopsHow derives a training job's FLOPs.
func flopsHow(t *training) string {
	if t.SamplesM > 0 {
		how := fmt.Sprintf("%s × %s GFLOPs forward", trimFloat(t.Factor), trimFloat(t.Forward))
		if t.Frozen > 0 {
			how += fmt.Sprintf(" + %s GFLOPs of frozen encoders", trimFloat(t.Frozen))
		}
		return fmt.Sprintf("(%s) per sample × %s million samples = %s FLOPs", how, trimFloat(t.SamplesM), sci(t.FLOPs))
	}
	how := fmt.Sprintf("%s × %sB active parameters", trimFloat(t.Factor), trimFloat(t.Active))
	if t.Width > 0 {
		how += fmt.Sprintf(" + %s × %d layers × %s tokens of context × %d attention width", trimFloat(t.Factor), t.Layers, groupInt(float64(t.Context)), t.Width)
	}
	return fmt.Sprintf("(%s) per token × %s billion tokens = %s FLOPs", how, trimFloat(t.TokensB), sci(t.FLOPs))
}

// explainSplit is the requirements' sentence on how the GPU memory splits.
func explainSplit(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return "Per-GPU fit: every GPU holds the whole model, its states and its batch (data parallel), so one GPU must hold all of it" + withinShare(j) + "."
	case j.Placed() && j.KVPerSeq > 0:
		return fmt.Sprintf("Per-GPU fit: a copy of the model runs on one GPU, within %s%% of its usable memory, with the cache of the requests it holds (an encoder-decoder keeps its decoder's self-attention and cross-attention keys and values per request); one that no GPU holds with one request's cache has its components or layers placed on the fewest GPUs of one VM that hold them, which run in turn (Accelerate's device_map), not split by tensor parallelism or over VMs. More copies hold more concurrent requests; the step model does not time them, and min_replicas puts them on separate VMs.", trimFloat(j.Share*100))
	case j.KVPerSeq > 0:
		return fmt.Sprintf("Per-GPU fit: a copy of the model is split over a VM's GPUs by tensor parallelism (a degree that divides the attention heads, and divides the KV heads or is a multiple of them) and over VMs by pipeline stages only when one VM cannot hold it; each GPU holds its share of the weights and of the KV cache within %s%% of its usable memory (vLLM's gpu_memory_utilization). More copies serve more concurrent requests.", trimFloat(j.Share*100))
	case j.Placed():
		return fmt.Sprintf("Per-GPU fit: a copy of the model runs on one GPU, within %s%% of its usable memory; one that no GPU holds has its components or layers placed on the fewest GPUs of one VM that hold them, which run in turn (Diffusers' and Accelerate's device_map), not split by tensor parallelism or over VMs. The model keeps no KV cache, so copies serve no timed demand: a VM's GPUs hold as many as fit, min_replicas puts them on separate VMs.", trimFloat(j.Share*100))
	case j.TensorParallel:
		return fmt.Sprintf("Per-GPU fit: the model is split over a VM's GPUs by tensor parallelism and over VMs by pipeline stages; each GPU holds its share within %s%% of its usable memory.", trimFloat(j.Share*100))
	case j.Replicated > 0:
		return "Per-GPU fit: the model states are sharded over the job's GPUs (FSDP or ZeRO-3); each GPU holds its share and its own micro-batch's activations (" + groupInt(float64(n.mi.Context*n.mi.Batch)) + " tokens, " + trimFloat(j.Replicated) + " GiB)" + withinShare(j) + "."
	}
	w := wordsOf(n.workload)
	return "Per-GPU fit: " + w.whole + " " + w.spread + " over every GPU of the job" + w.how + "; each GPU's share must fit" + withinShare(j) + "."
}

// withinShare says what of a GPU's memory a job may fill: the share of its
// usable memory an estimate leaves room within (GPUMemoryShare: the CUDA
// context, NCCL buffers and fragmentation take the rest), or, for a
// stated gpu_memory_gib, the memory it exposes.
func withinShare(j *perfmodel.GPUJob) string {
	if j.Share < 1 {
		return " within " + trimFloat(j.Share*100) + "% of its usable memory"
	}
	return " within the memory it exposes"
}

// interconnectExplanation is the requirements' sentence on InfiniBand.
func interconnectExplanation(n *requirements) string {
	switch {
	case n.interconnect == InterconnectInfiniBand:
		return "Interconnect: InfiniBand required by the interconnect setting."
	case n.interconnect == InterconnectAny:
		return "Interconnect: not required (interconnect = \"any\"); multi-VM jobs run over Ethernet."
	case n.workload == WorkloadHPC:
		return "Interconnect: InfiniBand, as tightly coupled MPI needs it (Azure HPC guidance: InfiniBand only where it is used)."
	case n.workload == WorkloadHTC:
		return "Interconnect: not needed for independent tasks; an RDMA size's InfiniBand is in its price per unit of work, which the ranking compares, and costs no further points."
	}
	return "Interconnect: InfiniBand only when the job spans several VMs; otherwise RDMA sizes lose points for bandwidth they would not use (Azure HPC guidance: InfiniBand only where it is used)."
}

// methodWhy says where the fine-tuning method came from.
func methodWhy(given, precision string) string {
	switch {
	case given != "":
		return " (fine_tuning_method)"
	case precision == PrecisionINT4:
		return " (the default for an int4 model: a 4-bit base with trainable adapters)"
	case precision == PrecisionINT8:
		return " (the default for an int8 model: adapters on a frozen 8-bit base)"
	case precision == PrecisionFP4:
		return " (the default for an fp4 model: adapters on the base requantised to 4-bit NF4, as no tool trains on an fp4 base)"
	}
	return " (the default)"
}

// modelWarnings say where the request departs from the model table, and
// which inputs the model does not use.
func modelWarnings(mi *perfmodel.MemoryInput, found *modelFacts) []Warning {
	var out []Warning
	tm := mi.Model
	if found.aliasOf != "" {
		out = append(out, Warning{"Model Name Resolved To Its Architecture",
			fmt.Sprintf("model.name %q is not an id of the catalog's model table; it is estimated as %s (%s), whose architecture it shares: an instruct or chat tuning or a Hugging Face id has its base model's parameters and layers. Set model.name = %q to remove this warning.",
				found.aliasOf, tm.ID, tm.Name, tm.ID)})
	}
	if found.paramsDiffer {
		out = append(out, Warning{"Parameter Count Differs From The Model Table",
			fmt.Sprintf("model.parameters_billion is %s, but the catalog's model table gives %s for %s; the estimate uses %s. Remove parameters_billion to use the table's count.",
				trimFloat(mi.Params), trimFloat(tm.ParametersBillion), tm.Name, trimFloat(mi.Params))})
	}
	if found.precisionDiffer {
		out = append(out, Warning{"Precision Differs From The Model Table",
			fmt.Sprintf("model.precision is %q, but %s is published in %s; the estimate stores the weights in %s. Remove precision to use the published one.",
				mi.Precision, tm.Name, tm.Precision, mi.Precision)})
	}
	unused := func(set bool, name, why string) {
		if set {
			out = append(out, Warning{"Argument Not Used By The Model", name + " is not used: " + why + " Remove it, or describe the model that needs it."})
		}
	}
	what := perfmodel.KindWithArticle(mi.Kind)
	unused(found.unusedContext, "context_tokens", what+" has no token context the estimate depends on; its sequence is the model's own input size.")
	noCache := what + " keeps no KV cache per request, so concurrency does not change its memory."
	if mi.Kind == catalog.ModelKindSpeech {
		noCache = "the model table gives no decoder for this speech model (encoder_decoder), so the estimate keeps no cache per request and concurrency does not change its memory."
	}
	unused(found.unusedConcurrency, "concurrent_requests", noCache)
	return out
}

// modelNotes say what resolving the model assumed: a published precision
// handled as another, full training in bf16, a capped context.
func modelNotes(mi *perfmodel.MemoryInput, found *modelFacts) []string {
	var out []string
	tm := mi.Model
	if found.handledAs != "" {
		out = append(out, fmt.Sprintf("Precision: %s as published (%s bits per weight), handled as %s.", tm.Precision, trimFloat(tm.PrecisionBits), found.handledAs))
	}
	if found.trainsInBF16 != "" {
		out = append(out, fmt.Sprintf("Precision: %s trains every weight in bf16, not in its published %s.", mi.Workload, found.trainsInBF16))
	}
	if found.contextCapped {
		out = append(out, fmt.Sprintf("Context: %s tokens, capped at %s's maximum context.", groupInt(float64(*tm.MaxContextTokens)), tm.Name))
	}
	return out
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

// hpcBoundExplanation is the requirements' sentence on the bound.
func hpcBoundExplanation(h *hpcWork) string {
	if h.Bound == BoundMemoryCapacity {
		return "Bound: " + h.Bound + " (hpc_bound): the job runs once its memory fits, which never adds up across VMs; the layout that holds it on the fewest VMs wins."
	}
	return "Bound: " + h.Bound + " (hpc_bound): throughput is compared as the VMs' " + h.Unit() + ", times the parallel efficiency."
}

// hpcEfficiencyExplanation says where the parallel efficiency comes from
// when the team measured it.
func hpcEfficiencyExplanation(h *hpcWork) []string {
	switch {
	case h.Measured <= 0:
		return nil
	case h.MeasuredAt > 1:
		return []string{fmt.Sprintf("Parallel efficiency: %s%% measured on %d VMs (parallel_efficiency); the efficiency curve is scaled to pass through it.", trimFloat(h.Measured*100), h.MeasuredAt)}
	}
	return []string{fmt.Sprintf("Parallel efficiency: %s%% (parallel_efficiency) on every layout of more than one VM.", trimFloat(h.Measured*100))}
}

// hpcReferenceExplanation says what the reference run and the licence
// cost give the estimates.
func hpcReferenceExplanation(h *hpcWork) []string {
	var out []string
	if r := h.ref; r != nil {
		s := fmt.Sprintf("Reference run: %s hours on %s of %s (%s cores); a layout's job hours are those hours × the run's throughput ÷ the layout's, by %s.",
			trimFloat(r.hours), catalog.Plural(r.nodes, "VM", "VMs"), r.name, r.cores, h.TimeBound())
		if r.rate <= 0 {
			s = fmt.Sprintf("Reference run on %s: the catalog has no %s figure for it, so no job hours.", r.name, h.TimeBound())
		}
		out = append(out, s)
	}
	if h.hasLicense {
		out = append(out, fmt.Sprintf("Licences: %s USD per core-hour (license_cost_per_core_hour) on the cores each layout runs; faster cores need fewer core-hours.", trimFloat(h.license)))
	}
	return out
}

// loadExplanation says what load the service carries and how its layouts
// are sized for it: a stated load's copies, within MaxUtilization of their
// capacity, and the requests in flight derived from it; a batch service.
// A small model on CPU sizes (cpu) runs one copy on each VM and keeps no
// KV cache in its layout: its batch is bounded by MaxBatchSequences.
func loadExplanation(sv *serving, cpu bool) []string {
	if sv.loadTPS <= 0 {
		return nil
	}
	var out []string
	if sv.rateStated {
		out = append(out, fmt.Sprintf("Load: %s requests per second (requests_per_second) × %s output tokens = %s output tokens per second across the service.", trimFloat(sv.load), groupInt(sv.Output), loadFigure(sv.loadTPS)))
	} else {
		out = append(out, fmt.Sprintf("Load: %s output tokens per second across the service (tokens_per_second), %s requests per second of %s output tokens.", loadFigure(sv.loadTPS), trimFloat(sv.load), groupInt(sv.Output)))
	}
	batch, held := "per copy its KV cache holds", "the memory estimate holds one sequence per copy, and the layout search adds KV cache for each copy's batch"
	if cpu {
		batch, held = fmt.Sprintf("per VM, at most %d sequences,", perfmodel.MaxBatchSequences), "on CPU sizes a VM's batch adds no memory to the estimate"
	}
	out = append(out, fmt.Sprintf("Each layout runs the largest batch %s within the latency targets, and the copies that carry the load at no more than %s of their capacity; the first token waits for a copy as in a queue with that many servers, and the times reported are at the load.", batch, percent(perfmodel.MaxUtilization)))
	if sv.derived() {
		out = append(out, "Concurrent requests: derived from the load, not defaulted: the requests in flight on each layout are the load × a request's time in the service (Little's law); "+held+".")
	}
	if !sv.interactive() {
		out = append(out, "A batch service: stated by tokens_per_second alone, it is held to no default latency targets; state max_time_to_first_token_ms or max_time_per_output_token_ms (or requests_per_second) for an interactive one.")
	}
	return out
}
