// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// validate splits the problems into fatal ones (Recommend cannot interpret
// the request) and soft ones (contradictions and unknown catalog names,
// which Recommend turns into rejections or warnings).
func validate(cat *catalog.Catalog, req Request) (fatal, soft []FieldError) {
	var p problems
	small := validateModel(&p, req)
	validateUsage(&p, req)
	validateWork(&p, req)
	validateSettings(&p, req)
	validateQuota(&p, req)
	validateContradictions(&p, req, small)
	validateHPCInputs(&p, cat, req)
	validateSampleWork(&p, cat, req)
	if cat != nil {
		validateNames(&p, cat, req)
	}
	return p.fatal, markSoft(p.soft)
}

// validateModel checks the workload and the model; small is whether the
// model is a small one (CPU sizes).
func validateModel(p *problems, req Request) (small bool) {
	if req.Workload == "" {
		p.invalid(fe("Missing Workload",
			fmt.Sprintf("workload is required. Use one of %s.", catalog.QuoteList(workloads)), "workload"))
	} else {
		p.enum(req.Workload, workloads, "Invalid Workload", "workload")
	}
	modelWorkload := req.Workload == WorkloadTraining || req.Workload == WorkloadFineTuning || req.Workload == WorkloadInference
	if m := req.Model; m != nil {
		// 0 is unset: the model table gives the count.
		if m.ParametersBillion != 0 {
			p.add(RangeParametersBillion.Check(m.ParametersBillion, "model", "parameters_billion"))
		}
		if m.ActiveParametersBillion != 0 {
			p.add(RangeActiveParametersBillion.Check(m.ActiveParametersBillion, "model", "active_parameters_billion"))
		}
		if m.ForwardGFLOPs != 0 {
			p.add(RangeForwardGFLOPs.Check(m.ForwardGFLOPs, "model", "forward_gflops"))
		}
		if m.ActiveParametersBillion > 0 && m.ParametersBillion > 0 && m.ActiveParametersBillion > m.ParametersBillion && finite(m.ActiveParametersBillion) {
			p.invalid(fe("Active Parameters Above Total",
				fmt.Sprintf("model.active_parameters_billion (%v) must be at most model.parameters_billion (%v): a mixture-of-experts model uses some of its parameters per token, never more than all of them.", m.ActiveParametersBillion, m.ParametersBillion), "model", "active_parameters_billion"))
		}
		if strings.TrimSpace(m.Name) == "" && m.ParametersBillion == 0 && modelWorkload {
			p.invalid(fe("Missing Model Size",
				"model needs name (a model of the catalog's model table, such as \"llama-3.1-8b\"; see the hpcsku_models data source) or parameters_billion.", "model"))
		}
		p.enum(m.Precision, precisions, "Invalid Precision", "model", "precision")
		p.enum(m.Class, modelClasses, "Invalid Model Class", "model", "class")
		small = m.Class == ClassSmall
		if req.Workload != "" && slices.Contains(workloads, req.Workload) && !modelWorkload {
			p.ignore(fe("Model Not Used",
				fmt.Sprintf("model applies to the training, fine_tuning and inference workloads, not to %q. Remove model, or describe the job with gpu_memory_gib, gpus, nodes or cores.", req.Workload), "model"))
		}
	}
	return small
}

// validateUsage checks that the job's settings apply to the workload:
// fine_tuning_method, context_tokens, concurrent_requests,
// training_batch_size, tokens_billion, deadline_hours, tokens_per_second
// and hpc_bound, each on the workloads that use it.
func validateUsage(p *problems, req Request) {
	knownWorkload := req.Workload != "" && slices.Contains(workloads, req.Workload)
	notUsed := func(set bool, name, uses string, allowed ...string) {
		if set && knownWorkload && !slices.Contains(allowed, req.Workload) {
			p.invalid(fe("Argument Not Used By Workload",
				fmt.Sprintf("%s applies to %s, not to workload %q. Remove %s, or set workload to %s.", name, uses, req.Workload, name, catalog.QuoteList(allowed)), name))
		}
	}
	p.enum(req.FineTuningMethod, methods, "Invalid Fine-Tuning Method", "fine_tuning_method")
	notUsed(req.FineTuningMethod != "", "fine_tuning_method", "fine-tuning", WorkloadFineTuning)
	notUsed(req.ContextTokens != nil, "context_tokens", "language-model jobs (the tokens of one sequence)", WorkloadTraining, WorkloadFineTuning, WorkloadInference)
	notUsed(req.ConcurrentRequests != nil, "concurrent_requests", "serving a model", WorkloadInference)
	notUsed(req.PromptTokens != nil, "prompt_tokens", "serving a model", WorkloadInference)
	notUsed(req.OutputTokens != nil, "output_tokens", "serving a model", WorkloadInference)
	notUsed(req.TrainingBatchSize != nil, "training_batch_size", "training and fine-tuning", WorkloadTraining, WorkloadFineTuning)
	notUsed(req.TokensBillion != nil, "tokens_billion", "training and fine-tuning (the tokens processed)", WorkloadTraining, WorkloadFineTuning)
	notUsed(req.SamplesMillion != nil, "samples_million", "training and fine-tuning (the samples processed)", WorkloadTraining, WorkloadFineTuning)
	notUsed(req.DeadlineHours != nil, "deadline_hours", "training and fine-tuning", WorkloadTraining, WorkloadFineTuning)
	notUsed(req.TokensPerSecond != nil, "tokens_per_second", "serving a model", WorkloadInference)
	notUsed(req.RequestsPerSecond != nil, "requests_per_second", "serving a model", WorkloadInference)
	notUsed(req.MinReplicas != nil, "min_replicas", "serving a model", WorkloadInference)
	notUsed(req.MaxTimeToFirstTokenMs != nil, "max_time_to_first_token_ms", "serving a model", WorkloadInference)
	notUsed(req.MaxTimePerOutputTokenMs != nil, "max_time_per_output_token_ms", "serving a model", WorkloadInference)
	p.enum(req.HPCBound, hpcBounds, "Invalid HPC Bound", "hpc_bound")
	notUsed(req.HPCBound != "", "hpc_bound", "the hpc and htc workloads", WorkloadHPC, WorkloadHTC)
	notUsed(req.ParallelEfficiency != nil, "parallel_efficiency", "the hpc and htc workloads", WorkloadHPC, WorkloadHTC)
	notUsed(req.TotalMemoryGiB != nil, "total_memory_gib", "the hpc and htc workloads (the memory of a distributed job)", WorkloadHPC, WorkloadHTC)
}

// validateWork checks the work's ranges, a quantised precision that cannot
// train, and the job settings that need a model.
func validateWork(p *problems, req Request) {
	p.rangeF(RangeTokensBillion, req.TokensBillion)
	p.rangeF(RangeSamplesMillion, req.SamplesMillion)
	if req.TokensBillion != nil && req.SamplesMillion != nil {
		p.invalid(fe("Conflicting Work",
			"tokens_billion and samples_million both state the job's work: tokens_billion for language models and encoders, samples_million for vision, diffusion and speech models. Set the one for this model.", "samples_million"))
	}
	p.rangeF(RangeDeadlineHours, req.DeadlineHours)
	p.rangeF(RangeTokensPerSecond, req.TokensPerSecond)
	p.rangeF(RangeRequestsPerSecond, req.RequestsPerSecond)
	if req.TokensPerSecond != nil && req.RequestsPerSecond != nil {
		p.invalid(fe("Conflicting Load",
			"requests_per_second and tokens_per_second both state the service's load: requests_per_second as requests arriving per second, tokens_per_second as output tokens per second (requests_per_second × output_tokens). Set one of them.", "requests_per_second"))
	}
	p.rangeF(RangeParallelEfficiency, req.ParallelEfficiency)
	p.rangeF(RangeMaxTimeToFirstToken, req.MaxTimeToFirstTokenMs)
	p.rangeF(RangeMaxTimePerOutputToken, req.MaxTimePerOutputTokenMs)
	if m := req.Model; m != nil && slices.Contains(precisions, m.Precision) && perfmodel.Quantised(m.Precision) {
		switch {
		case req.Workload == WorkloadTraining:
			p.invalid(fe("Precision Cannot Train",
				fmt.Sprintf("Training updates every weight, which %s cannot hold: training runs in bf16, fp16, fp8, tf32 or fp32. Set model.precision to one of those, or use workload \"fine_tuning\" with fine_tuning_method \"lora\" or \"qlora\" to train adapters on a quantised model.", m.Precision), "model", "precision"))
		case req.Workload == WorkloadFineTuning && req.FineTuningMethod == MethodFull:
			p.invalid(fe("Precision Cannot Train",
				fmt.Sprintf("Full fine-tuning updates every weight, which %s cannot hold. Use fine_tuning_method \"lora\" or \"qlora\" (adapters on the quantised model), or set model.precision to bf16, fp16 or fp8.", m.Precision), "fine_tuning_method"))
		}
	}
	if req.Model == nil && isModelWorkload(req.Workload) {
		for _, f := range []struct {
			set  bool
			name string
		}{{req.FineTuningMethod != "", "fine_tuning_method"}, {req.ContextTokens != nil, "context_tokens"}, {req.ConcurrentRequests != nil, "concurrent_requests"},
			{req.PromptTokens != nil, "prompt_tokens"}, {req.OutputTokens != nil, "output_tokens"}, {req.TrainingBatchSize != nil, "training_batch_size"},
			{req.TokensBillion != nil, "tokens_billion"}, {req.SamplesMillion != nil, "samples_million"}, {req.DeadlineHours != nil, "deadline_hours"}, {req.TokensPerSecond != nil, "tokens_per_second"}, {req.RequestsPerSecond != nil, "requests_per_second"},
			{req.MaxTimeToFirstTokenMs != nil, "max_time_to_first_token_ms"}, {req.MinReplicas != nil, "min_replicas"}, {req.MaxTimePerOutputTokenMs != nil, "max_time_per_output_token_ms"}} {
			if f.set {
				p.ignore(fe("Argument Needs A Model",
					fmt.Sprintf("%s describes the job of a model (its memory, time or throughput), but model is not set, so it is not used. Set model (name or parameters_billion), or remove %s.", f.name, f.name), f.name))
			}
		}
	}
}

// validateSampleWork refuses samples_million and model.forward_gflops
// where no job is timed by samples: for a language model or an encoder
// (timed by tokens), a small model (CPU sizes), or serving.
func validateSampleWork(p *problems, cat *catalog.Catalog, req Request) {
	m := req.Model
	if m == nil || (req.SamplesMillion == nil && m.ForwardGFLOPs == 0) || !isModelWorkload(req.Workload) {
		return
	}
	if m.ForwardGFLOPs != 0 && req.Workload == WorkloadInference {
		p.invalid(fe("Argument Not Used By Workload",
			"model.forward_gflops times the training of vision, diffusion and speech models, not workload \"inference\". Remove it, or set workload to \"training\" or \"fine_tuning\".", "model", "forward_gflops"))
		return
	}
	kind, class := "", m.Class
	if name := strings.TrimSpace(m.Name); name != "" && cat != nil {
		if tm, _, ok := cat.ResolveModel(name); ok {
			kind = tm.Kind
		}
	}
	var what string
	switch {
	case class == ClassSmall:
		what = "a small model (model.class = \"small\") runs on CPU sizes, where training is not timed"
	case kind == catalog.ModelKindEncoder || kind == catalog.ModelKindGenerative || kind == catalog.ModelKindMoE:
		what = fmt.Sprintf("%s is %s, whose training is timed by tokens_billion", m.Name, perfmodel.KindWithArticle(kind))
	case kind == "" && class != ClassNonGenerative && (class != "" || strings.TrimSpace(m.Name) == ""):
		what = "the model is a language model (model.class " + orDefault(class, DefaultClass) + "), whose training is timed by tokens_billion; set model.class = \"nongenerative\" for a vision, diffusion or speech model"
	default:
		return
	}
	name, at := "samples_million", []string{"samples_million"}
	if req.SamplesMillion == nil {
		name, at = "model.forward_gflops", []string{"model", "forward_gflops"}
	}
	p.invalid(fe("Argument Not Used By The Model",
		fmt.Sprintf("%s times the training of vision, diffusion and speech models, but %s. Remove %s.", name, what, name), at...))
}

// validateTokenSplit refuses a stated context_tokens shorter than the
// stated prompt_tokens plus output_tokens (a count left out takes at least
// one token): the context is the longest sequence, the others means.
func validateTokenSplit(p *problems, req Request) {
	c := req.ContextTokens
	if c == nil || *c < 1 || (req.PromptTokens == nil && req.OutputTokens == nil) {
		return
	}
	sum := int64(0)
	for _, v := range []*int64{req.PromptTokens, req.OutputTokens} {
		if v == nil || *v < 1 {
			sum++
		} else {
			sum += *v
		}
	}
	if *c < sum {
		p.invalid(fe("Context Shorter Than Request",
			fmt.Sprintf("context_tokens (%s) is the longest sequence and cannot be shorter than prompt_tokens plus output_tokens (%s). Raise context_tokens, or leave it unset to use prompt_tokens plus output_tokens.", catalog.GroupDigits(*c), catalog.GroupDigits(sum)), "context_tokens"))
	}
}

// validateRequestLength refuses a served request longer than the named
// language model's maximum context: a stated context_tokens above it, or
// stated prompt and output tokens (a count left out takes at least one)
// whose sum is. The serving engines refuse such a request (and a
// --max-model-len above the model's), so no layout serves it; the default
// context alone is capped at the maximum.
func validateRequestLength(p *problems, req Request, tm *catalog.Model) {
	generative := tm.Kind == catalog.ModelKindGenerative || tm.Kind == catalog.ModelKindMoE
	if req.Workload != WorkloadInference || !generative || tm.MaxContextTokens == nil {
		return
	}
	if c, longest := req.ContextTokens, *tm.MaxContextTokens; c != nil && *c > longest {
		p.invalid(fe("Context Longer Than Model Context",
			fmt.Sprintf("context_tokens (%s) exceeds %s's maximum context of %s tokens: the serving engines refuse a longer context. Set context_tokens to at most %s, or choose a model with a longer context.",
				catalog.GroupDigits(*c), tm.Name, catalog.GroupDigits(longest), catalog.GroupDigits(longest)), "context_tokens"))
		return
	}
	if req.PromptTokens == nil && req.OutputTokens == nil {
		return
	}
	sum, at := int64(0), "output_tokens"
	for _, v := range []*int64{req.OutputTokens, req.PromptTokens} {
		if v == nil || *v < 1 {
			sum++
			continue
		}
		sum += *v
		if v == req.PromptTokens {
			at = "prompt_tokens"
		}
	}
	if longest := *tm.MaxContextTokens; sum > longest {
		p.invalid(fe("Request Longer Than Model Context",
			fmt.Sprintf("prompt_tokens plus output_tokens (%s) exceed %s's maximum context of %s tokens: the serving engines refuse such requests. Lower %s, or choose a model with a longer context.",
				catalog.GroupDigits(sum), tm.Name, catalog.GroupDigits(longest), at), at))
	}
}

// validateSettings checks the ranges, values and versions of the other
// settings, and the list entries.
func validateSettings(p *problems, req Request) {
	p.rangeF(RangeGPUMemoryGiB, req.GPUMemoryGiB)
	p.rangeI(RangeGPUs, req.GPUs)
	p.rangeI(RangeNodes, req.Nodes)
	p.rangeI(RangeMaxNodes, req.MaxNodes)
	if req.Nodes != nil && req.MaxNodes != nil && *req.Nodes > *req.MaxNodes && *req.MaxNodes >= 1 {
		p.invalid(fe("Nodes Above The Cap",
			fmt.Sprintf("nodes = %d is more than max_nodes = %d, the most VMs any layout may take. Lower nodes to %d or less, or raise max_nodes.", *req.Nodes, *req.MaxNodes, *req.MaxNodes), "nodes"))
	}
	p.rangeI(RangeCores, req.Cores)
	p.rangeI(RangeMinVCPUs, req.MinVCPUs)
	p.rangeI(RangeContextTokens, req.ContextTokens)
	p.rangeI(RangeConcurrentRequests, req.ConcurrentRequests)
	p.rangeI(RangePromptTokens, req.PromptTokens)
	p.rangeI(RangeMinReplicas, req.MinReplicas)
	p.rangeI(RangeOutputTokens, req.OutputTokens)
	validateTokenSplit(p, req)
	p.rangeI(RangeTrainingBatchSize, req.TrainingBatchSize)
	p.rangeF(RangeMinMemoryGiB, req.MinMemoryGiB)
	p.rangeF(RangeTotalMemoryGiB, req.TotalMemoryGiB)
	p.rangeF(RangeMinLocalDiskGiB, req.MinLocalDiskGiB)
	p.rangeF(RangeMaxPricePerHour, req.MaxPricePerHour)
	p.rangeF(RangeMaxTotalPricePerHour, req.MaxTotalPricePerHour)
	p.rangeI(RangeMinLifetimeMonths, req.MinLifetimeMonths)
	p.rangeI(RangeMaxResults, req.MaxResults)
	p.enum(req.Interconnect, interconnects, "Invalid Interconnect", "interconnect")
	p.enum(req.GPUVendor, gpuVendors, "Invalid GPU Vendor", "gpu_vendor")
	p.enum(req.Target, targets, "Invalid Target", "target")
	p.enum(req.OptimizeFor, optimizeFors, "Invalid Optimization Goal", "optimize_for")
	if req.CUDAVersion != "" && !parseVersion(req.CUDAVersion).ok {
		p.invalid(fe("Invalid CUDA Version",
			fmt.Sprintf("cuda_version must be a CUDA toolkit version such as \"12.0\" or \"13.0\"; got %q.", req.CUDAVersion), "cuda_version"))
	} else if v := parseVersion(req.CUDAVersion); v.ok && v.major == 0 {
		p.invalid(fe("Invalid CUDA Version",
			fmt.Sprintf("cuda_version must be a CUDA toolkit version such as \"12.0\"; %q has major version 0.", req.CUDAVersion), "cuda_version"))
	}
	if req.MinComputeCapability != "" {
		v := parseVersion(req.MinComputeCapability)
		if !v.ok || strings.Count(req.MinComputeCapability, ".") > 1 || v.major == 0 {
			p.invalid(fe("Invalid Compute Capability",
				fmt.Sprintf("min_compute_capability must be an NVIDIA compute capability such as \"7.0\" (Volta), \"8.0\" (Ampere) or \"9.0\" (Hopper); got %q.", req.MinComputeCapability), "min_compute_capability"))
		}
	}
	for i, m := range req.GPUModels {
		if strings.TrimSpace(m) == "" {
			p.invalid(fe("Empty GPU Model", "gpu_models entries must not be empty.", "gpu_models", strconv.Itoa(i)))
		}
	}
	if req.Region != "" && len(req.Regions) > 0 {
		p.invalid(fe("Conflicting Regions", "Set region (one region) or regions (the regions the job may run in), not both.", "regions"))
	}
	for i, name := range req.Prefer {
		if strings.TrimSpace(name) == "" {
			p.invalid(fe("Empty Preferred Size", "prefer entries must be VM size names such as \"Standard_NC24ads_A100_v4\"; got a blank entry. Remove it, or name a size.", "prefer", strconv.Itoa(i)))
		}
	}

}

// validateContradictions finds valid values that together leave no size.
func validateContradictions(p *problems, req Request, small bool) {
	cpuWorkload := req.Workload == WorkloadHPC || req.Workload == WorkloadHTC || (isModelWorkload(req.Workload) && small)
	if cpuWorkload {
		what := fmt.Sprintf("workload %q runs on CPU sizes", req.Workload)
		if small {
			what = fmt.Sprintf("a small model (model.class = \"small\") runs on CPU sizes for %s", req.Workload)
		}
		gpuInput := func(set bool, name string) {
			if set {
				p.noMatch(fe("GPU Setting On A CPU Workload",
					fmt.Sprintf("%s is a GPU setting, but %s. Remove %s, or choose a GPU workload (or a generative or nongenerative model class).", name, what, name), name))
			}
		}
		gpuInput(req.GPUMemoryGiB != nil, "gpu_memory_gib")
		gpuInput(req.GPUs != nil, "gpus")
		gpuInput(req.GPUVendor != "" && req.GPUVendor != GPUVendorAny, "gpu_vendor")
		gpuInput(len(req.GPUModels) > 0, "gpu_models")
		gpuInput(req.CUDAVersion != "", "cuda_version")
		gpuInput(req.MinComputeCapability != "", "min_compute_capability")
	}
	if req.Cores != nil && req.Workload != "" && req.Workload != WorkloadHPC && req.Workload != WorkloadHTC {
		p.ignore(fe("Cores Not Used",
			fmt.Sprintf("cores (total cores per job) applies to the hpc and htc workloads, not to %q. For GPU jobs use gpus or gpu_memory_gib; for a per-VM minimum use min_vcpus.", req.Workload), "cores"))
	}
	if req.GPUVendor == GPUVendorAMD {
		if req.CUDAVersion != "" {
			p.noMatch(fe("CUDA Version With AMD GPUs",
				"cuda_version selects NVIDIA GPUs that run a CUDA toolkit, but gpu_vendor is \"amd\": AMD GPUs run ROCm, not CUDA, so no size can match. Remove cuda_version, or set gpu_vendor to \"nvidia\" or \"any\".", "cuda_version"))
		}
		if req.MinComputeCapability != "" {
			p.noMatch(fe("Compute Capability With AMD GPUs",
				"min_compute_capability is an NVIDIA rating, but gpu_vendor is \"amd\", so no size can match. Remove min_compute_capability, or set gpu_vendor to \"nvidia\" or \"any\".", "min_compute_capability"))
		}
	}
	if req.Workload == WorkloadDataProcessing && req.GPUVendor == GPUVendorAMD {
		p.noMatch(fe("AMD GPUs For Data Processing",
			"The data_processing workload needs NVIDIA GPUs (RAPIDS runs on CUDA), but gpu_vendor is \"amd\". Set gpu_vendor to \"nvidia\" or \"any\".", "gpu_vendor"))
	}
	if req.Nodes != nil && req.Cores != nil && *req.Nodes > 0 && *req.Cores > 0 && *req.Cores < *req.Nodes {
		p.noMatch(fe("More Nodes Than Cores",
			fmt.Sprintf("nodes (%d) is larger than cores (%d): some VMs would have nothing to run. Lower nodes or leave it unset so it is computed from cores.", *req.Nodes, *req.Cores), "nodes"))
	}

}

// validateNames checks names against the catalog, explained as every data
// source explains them (catalog.UnknownName).
func validateNames(p *problems, cat *catalog.Catalog, req Request) {
	if m := req.Model; m != nil && strings.TrimSpace(m.Name) != "" && isModelWorkload(req.Workload) {
		tm, _, ok := cat.ResolveModel(m.Name)
		if !ok {
			p.invalid(fe("Unknown Model", cat.UnknownName(catalog.ModelName, m.Name)+" Or describe the model with model.parameters_billion instead of model.name.", "model", "name"))
		} else {
			validateRequestLength(p, req, tm)
		}
	}
	// A misspelled region would remove every size; it is refused before
	// any ranking, with the closest names.
	if r := strings.TrimSpace(req.Region); r != "" {
		if _, ok := cat.Canonical(catalog.RegionName, r); !ok {
			p.invalid(fe("Unknown Region", cat.UnknownName(catalog.RegionName, req.Region), "region"))
		}
	}
	validateRegions(p, cat, req.Regions)
	for i, m := range req.GPUModels {
		if strings.TrimSpace(m) == "" {
			continue
		}
		id, ok := cat.Canonical(catalog.GPUModelName, m)
		if !ok {
			// Refused like a misspelled region: it would narrow the ranking
			// to the other entries without a word.
			p.invalid(fe("Unknown GPU Model", cat.UnknownName(catalog.GPUModelName, m), "gpu_models", strconv.Itoa(i)))
			continue
		}
		if g, _ := cat.GPUModel(id); req.GPUVendor != "" && req.GPUVendor != GPUVendorAny && !strings.EqualFold(g.Vendor, req.GPUVendor) {
			p.noMatch(fe("GPU Model Of Another Vendor",
				fmt.Sprintf("gpu_models entry %q is an %s GPU, but gpu_vendor is %q, so it can never match. Remove it or change gpu_vendor.", m, strings.ToUpper(g.Vendor), req.GPUVendor), "gpu_models", strconv.Itoa(i)))
		}
	}
	for i, name := range req.Prefer {
		if strings.TrimSpace(name) == "" {
			continue
		}
		if _, ok := cat.Canonical(catalog.SizeName, name); !ok {
			p.ignore(fe("Unknown Preferred Size", cat.UnknownName(catalog.SizeName, name), "prefer", strconv.Itoa(i)))
		}
	}
}

// validateHPCInputs checks the reference run and the licence cost: their
// ranges, their workload, and the reference size, which must be an HPC or
// CPU size of the catalog whose cores hold the run.
func validateHPCInputs(p *problems, cat *catalog.Catalog, req Request) {
	p.rangeF(RangeLicenseCostPerCoreHour, req.LicenseCostPerCoreHour)
	hpc := req.Workload == WorkloadHPC || req.Workload == WorkloadHTC
	if req.Workload != "" && slices.Contains(workloads, req.Workload) && !hpc {
		for _, f := range []struct {
			set  bool
			name string
		}{{req.ReferenceRun != nil, "reference_run"}, {req.LicenseCostPerCoreHour != nil, "license_cost_per_core_hour"}} {
			if f.set {
				p.invalid(fe("Argument Not Used By Workload",
					fmt.Sprintf("%s applies to the hpc and htc workloads, not to workload %q. Remove %s, or set workload to %s.", f.name, req.Workload, f.name, catalog.QuoteList([]string{WorkloadHPC, WorkloadHTC})), f.name))
			}
		}
		return
	}
	rr := req.ReferenceRun
	if rr == nil {
		return
	}
	p.add(RangeReferenceNodes.CheckInt(rr.Nodes, "reference_run", "nodes"))
	p.add(RangeReferenceHours.Check(rr.Hours, "reference_run", "hours"))
	if rr.Cores != nil {
		p.add(RangeReferenceCores.CheckInt(*rr.Cores, "reference_run", "cores"))
	}
	if cat == nil {
		return
	}
	s, ok := cat.Lookup(strings.TrimSpace(rr.VMSize))
	switch {
	case !ok:
		ce := cat.UnknownNameError(catalog.SizeName, rr.VMSize)
		p.invalid(fe(ce.Summary(), ce.Detail+" reference_run.vm_size names the size the run was measured on: any HPC or CPU size of the catalog.", "reference_run", "vm_size"))
		return
	case s.Category == catalog.CategoryGPU:
		p.invalid(fe("Reference Run Not On An HPC Or CPU Size",
			fmt.Sprintf("reference_run.vm_size must be an HPC or CPU size, whose cores the model compares; %s is a GPU size.", s.Name), "reference_run", "vm_size"))
		return
	}
	// Ranks per VM: at most its vCPUs, as cores counts them for a request
	// (with hyper-threading, the ranks beyond its physical cores add no
	// throughput).
	vmCores := int64(0)
	if s.VCPUs != nil {
		vmCores = *s.VCPUs
	}
	if rr.Cores != nil && *rr.Cores >= 1 && rr.Nodes >= 1 && vmCores > 0 && (*rr.Cores < rr.Nodes || *rr.Cores > rr.Nodes*vmCores) {
		p.invalid(fe("Reference Run Cores Do Not Fit",
			fmt.Sprintf("reference_run.cores (%d) must be between reference_run.nodes (%d) and the vCPUs of those VMs (%d × %d = %d): each VM runs at least one rank and at most one per vCPU.",
				*rr.Cores, rr.Nodes, rr.Nodes, vmCores, rr.Nodes*vmCores), "reference_run", "cores"))
	}
}

// validateQuota finds require_quota without usage files, which can remove
// nothing.
func validateQuota(p *problems, req Request) {
	if req.RequireQuota && len(req.Usage) == 0 {
		p.ignore(fe("Argument Not Used",
			"require_quota removes the sizes whose vCPU quota is insufficient, which the provider's usage_files say; without them every quota is unknown and it removes nothing. Set usage_files, or remove require_quota.", "require_quota"))
	}
}

// validateRegions checks every entry of regions against the catalog's
// region names, as region is checked: an empty or unknown one is refused
// before any ranking.
func validateRegions(p *problems, cat *catalog.Catalog, regions []string) {
	for i, r := range regions {
		path := []string{"regions", strconv.Itoa(i)}
		switch {
		case strings.TrimSpace(r) == "":
			p.invalid(fe("Empty Region", "regions entries must be Azure region names such as \"eastus\"; got an empty string.", path...))
		default:
			if _, ok := cat.Canonical(catalog.RegionName, r); !ok {
				p.invalid(fe("Unknown Region", cat.UnknownName(catalog.RegionName, r), path...))
			}
		}
	}
}
