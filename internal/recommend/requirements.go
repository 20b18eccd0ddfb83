// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// norm is a validated request with its defaults applied and its
// requirements derived.
type norm struct {
	req Request

	workload, class, precision string
	hasModel                   bool
	fitKey, label, asOfText    string
	fit                        familyFit

	mem           *MemoryEstimate
	mi            memoryInput // the resolved model (hasModel)
	job           gpuJob      // how the GPU memory need splits over GPUs (gpuMemNeed > 0)
	computePrec   string      // training: the precision the GPUs must run ("" bf16 or fp16); see precisionActive
	modelWarnings []Warning   // about the model inputs
	// Throughput: the training work (FLOPs, tokens, where the budget came
	// from), the deadline, the service throughput asked for, the HPC bound.
	flops, tokensB        float64
	tokenBudget, flopsHow string
	deadline              float64
	deadlineStated        bool
	tps                   float64
	hpcBound              string
	gpuMemNeed            float64 // 0: none
	sysMemNeed            float64 // 0: none
	gpus                  int64
	fixedNodes            int64
	cores                 int64

	minVCPUs        int64
	minMem, minDisk float64

	interconnect, vendor, target, region, optimize string
	gpuModels                                      []string // lower case
	cuda, minCC                                    version
	dataProcessingCC                               version
	maxPrice, maxTotal                             float64 // 0: none
	spot                                           bool
	lifetimeMonths                                 int64
	lifetimeCutoff, warnCutoff                     time.Time
	includePreview, confidential                   bool
	isolated                                       *bool
	maxResults                                     int
	asOf                                           time.Time
	availFile                                      string // the availability file laid over the catalog, or ""
	w                                              weights
	explanation                                    []string
	checks                                         uint32 // the constraints evaluate checks (activeChecks)
}

// valueOr is *p, or d when p is nil.
func valueOr[T any](p *T, d T) T {
	if p == nil {
		return d
	}
	return *p
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// normalize applies defaults and derives the requirements. The request
// must have passed validate's fatal checks.
func normalize(cat *catalog.Catalog, req Request) *norm {
	n := &norm{req: req, workload: req.Workload}
	n.asOf = req.AsOf
	if n.asOf.IsZero() {
		n.asOf = cat.DataDate
	}
	n.asOf = catalog.UTCDay(n.asOf)
	n.interconnect = orDefault(req.Interconnect, DefaultInterconnect)
	n.vendor = orDefault(req.GPUVendor, DefaultGPUVendor)
	n.target = orDefault(req.Target, DefaultTarget)
	n.optimize = orDefault(req.OptimizeFor, DefaultOptimizeFor)
	n.w = weightSets[n.optimize]
	n.region = strings.ToLower(strings.TrimSpace(req.Region)) // the catalog's region names are lower case
	if a := cat.Availability(); a != nil {
		n.availFile = a.File
	}
	n.spot = req.Spot
	n.includePreview = req.IncludePreview
	n.confidential = valueOr(req.Confidential, false)
	n.isolated = req.Isolated
	n.lifetimeMonths = valueOr(req.MinLifetimeMonths, DefaultMinLifetimeMonths)
	n.lifetimeCutoff = n.asOf.AddDate(0, int(n.lifetimeMonths), 0)
	n.warnCutoff = catalog.RetirementHorizon(n.asOf, catalog.RetirementWarningMonths)
	n.maxResults = int(valueOr(req.MaxResults, DefaultMaxResults))
	for _, g := range req.GPUModels {
		n.gpuModels = append(n.gpuModels, strings.ToLower(strings.TrimSpace(g)))
	}
	n.cuda = parseVersion(req.CUDAVersion)
	n.minCC = parseVersion(req.MinComputeCapability)
	// Unset numbers are 0: no cap, no minimum, no fixed count.
	n.maxPrice = valueOr(req.MaxPricePerHour, 0)
	n.maxTotal = valueOr(req.MaxTotalPricePerHour, 0)
	n.gpus = valueOr(req.GPUs, 0)
	n.fixedNodes = valueOr(req.Nodes, 0)
	n.minVCPUs = valueOr(req.MinVCPUs, 0)
	n.minMem = valueOr(req.MinMemoryGiB, 0)
	n.minDisk = valueOr(req.MinLocalDiskGiB, 0)

	modelWorkload := isModelWorkload(n.workload)
	n.class = DefaultClass
	n.precision = DefaultPrecision
	rm, ok := resolveModel(cat, req)
	if req.Model != nil && modelWorkload {
		n.class = rm.class
		n.precision = orDefault(rm.mi.precision, orDefault(req.Model.Precision, DefaultPrecision))
	}
	var modelNotes []string
	if ok {
		n.mi = rm.mi
		e := estimateMemory(&n.mi)
		n.mem = &e
		n.hasModel = true
		n.modelWarnings = rm.warnings
		modelNotes = rm.notes
		n.computePrec = computePrecision(n.precision, n.mi.method)
	}
	n.deadline = valueOr(req.DeadlineHours, DefaultDeadlineHours)
	n.deadlineStated = req.DeadlineHours != nil
	if n.workload == WorkloadInference && req.TokensPerSecond != nil {
		n.tps = *req.TokensPerSecond
	}
	switch n.workload {
	case WorkloadHPC:
		n.hpcBound = orDefault(req.HPCBound, BoundMemoryBandwidth)
	case WorkloadHTC:
		n.hpcBound = orDefault(req.HPCBound, BoundCompute)
	}
	if (n.workload == WorkloadHPC || n.workload == WorkloadHTC) && req.Cores != nil {
		n.cores = *req.Cores
	}

	switch {
	case modelWorkload && n.class == ClassSmall:
		n.fitKey = n.workload + "/cpu"
	case modelWorkload:
		n.fitKey = n.workload + "/gpu"
	default:
		n.fitKey = n.workload
	}
	n.fit = familyRules[n.fitKey]
	n.label = n.workload
	if n.fitKey != n.workload {
		n.label = n.workload + " (" + n.class + " model)"
	}
	n.asOfText = n.asOf.Format(catalog.DateLayout)
	if n.workload == WorkloadDataProcessing {
		n.dataProcessingCC = parseVersion(DataProcessingMinComputeCapability)
	}

	ex := []string{n.fit.explain}
	if n.mem != nil {
		if n.mem.Model != "" {
			ex = append(ex, "Model: "+n.mi.model.Name+" ("+n.mi.kind+", "+trimFloat(n.mi.params)+"B parameters) from the catalog's model table.")
		}
		ex = append(ex, modelNotes...)
		if n.mi.method != "" && n.workload == WorkloadFineTuning {
			ex = append(ex, "Fine-tuning method: "+n.mi.method+methodWhy(n.req.FineTuningMethod, n.precision)+".")
		}
		ex = append(ex, "Memory estimate: "+n.mem.Formula+".")
	}
	if req.GPUMemoryGiB != nil && n.fit.category != catalog.CategoryGPU {
		// A GPU setting on a CPU workload: every size fails gpu_memory.
		n.gpuMemNeed = *req.GPUMemoryGiB
	}
	if n.fit.category == catalog.CategoryGPU {
		switch {
		case req.GPUMemoryGiB != nil:
			n.gpuMemNeed = *req.GPUMemoryGiB
			ex = append(ex, fmt.Sprintf("GPU memory: %s GiB, as given by gpu_memory_gib (it overrides the model estimate).", trimFloat(n.gpuMemNeed)))
		case n.mem != nil:
			n.gpuMemNeed = n.mem.GiB
			ex = append(ex, fmt.Sprintf("GPU memory: %s GiB in total, from the model estimate.", trimFloat(n.gpuMemNeed)))
		}
		if n.mem != nil && n.workload == WorkloadInference {
			n.sysMemNeed = round2(n.mem.WeightsGiB * InferenceSystemMemoryFactor)
			ex = append(ex, fmt.Sprintf("System memory: at least %s GiB per copy of the model, 150%% of the %s GiB of weights (Azure Machine Learning guidance); a copy split over several VMs needs its share on each.", trimFloat(n.sysMemNeed), trimFloat(n.mem.WeightsGiB)))
		}
		n.job = n.gpuJobOf()
		if n.gpuMemNeed > 0 {
			ex = append(ex, n.job.explain())
		}
		n.trainingFLOPs()
		if n.flops == 0 && n.hasModel && (req.TokensBillion != nil || req.DeadlineHours != nil) {
			n.modelWarnings = append(n.modelWarnings, Warning{"Argument Not Used By The Model",
				"tokens_billion and deadline_hours are not used: the throughput model times the training of language models (6 × parameters × tokens), and this is a " + kindLabel(n.mi.kind) + ". Remove them, or describe a language model."})
		}
		if n.flops > 0 {
			ex = append(ex, "Training work: "+n.flopsHow+"; tokens: "+n.tokenBudget+".")
			if n.deadlineStated {
				ex = append(ex, fmt.Sprintf("Deadline: %s hours (deadline_hours); each size scales out to meet it within the VMs one job may span, and sizes that cannot are removed (deadline).", trimFloat(n.deadline)))
			} else {
				ex = append(ex, fmt.Sprintf("Deadline: %d hours by default; each size scales out to meet it within the VMs one job may span, and a size that cannot runs longer, with a warning.", DefaultDeadlineHours))
			}
		}
	} else if n.mem != nil {
		// Small models on CPU: the estimate is system memory.
		n.sysMemNeed = n.mem.GiB
		if n.workload == WorkloadInference {
			n.sysMemNeed = max(n.sysMemNeed, round2(n.mem.WeightsGiB*InferenceSystemMemoryFactor))
		}
		ex = append(ex, fmt.Sprintf("System memory: at least %s GiB, the model runs on the CPU.", trimFloat(n.sysMemNeed)))
	}
	if n.tps > 0 && n.job.kvPerSeq == 0 {
		// Only a served language model's copies are timed.
		if n.hasModel || n.req.GPUMemoryGiB != nil {
			n.modelWarnings = append(n.modelWarnings, Warning{"Argument Not Used By The Model",
				"tokens_per_second is not used: the throughput model times serving a language model whose memory the engine estimates (not a stated gpu_memory_gib, a model on CPU sizes, or a model without a KV cache). Remove it, or describe the served language model."})
		}
		n.tps = 0
	}
	if n.tps > 0 {
		ex = append(ex, fmt.Sprintf("Throughput: %s output tokens per second across the service (tokens_per_second); each size gets the copies it needs.", trimFloat(n.tps)))
	}
	if n.gpus > 0 {
		ex = append(ex, fmt.Sprintf("GPUs: at least %d whole GPUs per job.", n.gpus))
	}
	if n.hpcBound != "" {
		ex = append(ex, "Bound: "+n.hpcBound+" (hpc_bound): throughput is compared as the VMs' "+n.hpcUnit()+", times the parallel efficiency.")
	}
	if n.cores > 0 {
		ex = append(ex, fmt.Sprintf("Cores: %d per job; VMs = ceil(cores / vCPUs per VM). HPC sizes run with SMT off, so their vCPUs are physical cores.", n.cores))
	}
	if n.fixedNodes > 0 {
		ex = append(ex, fmt.Sprintf("Nodes: fixed at %d by the nodes setting.", n.fixedNodes))
	} else if n.workload == WorkloadInference && n.job.kvPerSeq > 0 {
		ex = append(ex, "Scale up, then out: each copy of the model gets the VM's GPUs (tensor parallel), and spans several VMs only when no size holds it on one; copies (replicas) are added when one VM cannot hold the KV cache of every concurrent request (Azure Machine Learning guidance: start with a machine that holds the model, then add machines for concurrency).")
	} else if n.workload != WorkloadHPC && n.workload != WorkloadHTC {
		ex = append(ex, "Scale up before scale out: one VM when any size holds the job, more VMs only when none does (Azure Machine Learning guidance).")
	}
	ex = append(ex, n.interconnectExplanation())
	n.explanation = ex
	n.checks = n.activeChecks()
	return n
}

// ibNeeded reports whether a layout needs InfiniBand; spans is whether one
// job (one copy of the model, for inference) spans several VMs.
func (n *norm) ibNeeded(spans bool) bool {
	switch n.interconnect {
	case InterconnectInfiniBand:
		return true
	case InterconnectAny:
		return false
	}
	return n.workload == WorkloadHPC || (spans && n.workload != WorkloadHTC)
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
	}
	return " (the default)"
}

// scaleUpApplies reports whether multi-VM layouts are dropped when some size
// holds the job on one VM.
func (n *norm) scaleUpApplies() bool {
	return n.fixedNodes == 0 && n.workload != WorkloadHPC && n.workload != WorkloadHTC
}

func (n *norm) requirements() Requirements {
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
		Explanation:        n.explanation,
		Interconnect:       "any",
		Nodes:              1,
	}
	if n.hasModel {
		r.Precision = n.precision
		r.Model = n.mem.Model
		r.FineTuningMethod = n.mem.FineTuningMethod
		if n.workload != WorkloadFineTuning {
			r.FineTuningMethod = ""
		}
		r.ContextTokens = n.mem.ContextTokens
		r.ConcurrentRequests = n.mem.ConcurrentRequests
		r.KVCacheGiB = n.mem.KVCacheGiB
		r.KVBytesPerToken = n.mem.KVBytesPerToken
		r.TrainingFLOPs, r.TrainingTokensBillion, r.TokenBudget = n.flops, n.tokensB, n.tokenBudget
		if n.flops > 0 {
			r.DeadlineHours = n.deadline
		}
		r.TokensPerSecond = n.tps
	} else {
		r.ModelClass = ""
		if n.req.Model != nil && n.req.Model.Class != "" {
			r.ModelClass = n.class
		}
	}
	r.HPCBound = n.hpcBound
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

// precisionActive reports whether the precision constraint applies: a
// model trained or fine-tuned on GPUs.
func (n *norm) precisionActive() bool {
	return n.hasModel && n.fit.category == catalog.CategoryGPU &&
		(n.workload == WorkloadTraining || n.workload == WorkloadFineTuning)
}

// precisionWhat says which precision the job computes in, and why.
func (n *norm) precisionWhat() string {
	switch {
	case n.mi.method == MethodQLoRA:
		return "QLoRA computes in bf16 or fp16"
	case n.mi.method == MethodLoRA && n.computePrec == "":
		return "adapters on a quantised base compute in bf16 or fp16"
	case n.mi.method == MethodLoRA:
		return "LoRA computes in the base model's " + n.precision
	}
	return "full training computes in " + n.precision
}
