// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// requirements is a validated request with its defaults applied and what
// the job needs derived, as numbers: deriveRequirements makes it in steps
// (the settings; the model, its memory and the needs; the work the
// throughput model times), and no later step writes it. It holds no
// sentences of its own: explainRequirements says them, from these values.
type requirements struct {
	req Request
	settings
	need
	// The work the throughput model times, and how fast the request wants it.
	train training
	serve serving
	hpc   hpcWork
	// checks is the constraints the per-size checks run (activeChecks).
	checks uint64
}

// settings are the request's filters, places, dates and ranking choices,
// with their defaults.
type settings struct {
	interconnect, vendor, target, region, optimize string
	regions                                        []string // the allowed regions (regions), lower case; nil with region or without either
	gpuModels                                      []string // lower case
	cuda, minCC                                    version
	maxPrice, maxTotal                             float64 // 0: none
	minVCPUs                                       int64
	minMem, minDisk                                float64
	spot                                           bool
	lifetimeMonths                                 int64
	lifetimeCutoff, warnCutoff                     time.Time
	includePreview, confidential                   bool
	isolated                                       *bool
	maxResults                                     int
	asOf                                           time.Time
	availFile                                      string // the availability file laid over the catalog, or ""
	w                                              weights
}

// need is what the job needs of a size: its category and families, its
// model and memory, and the counts it asks for.
type need struct {
	workload, class, precision string
	fitKey                     string
	fit                        familyFit
	dataProcessingCC           version

	hasModel   bool
	mem        *MemoryEstimate
	mi         perfmodel.MemoryInput // the resolved model (hasModel)
	model      modelFacts            // what resolving the model found (hasModel)
	job        perfmodel.GPUJob      // how the GPU memory need splits over GPUs (gpuMemNeed > 0)
	gpuMemNeed float64               // 0: none
	sysMemNeed float64               // 0: none
	gpus       int64
	fixedNodes int64
	cores      int64
	// workUnused and tpsUnused: tokens_billion or deadline_hours, and
	// tokens_per_second, were given for a job the throughput model does not
	// time.
	workUnused, tpsUnused bool
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

// deriveRequirements applies defaults and derives the requirements. The
// request must have passed validate's fatal checks.
func deriveRequirements(cat *catalog.Catalog, req Request) *requirements {
	n := &requirements{req: req, settings: settingsOf(cat, req)}
	deriveNeed(&n.need, cat, req)
	n.train = trainingOf(&n.need, req, !n.ibNeeded(true))
	n.serve = servingOf(&n.need, req)
	n.hpc = hpcWorkOf(req)
	n.workUnused = n.train.FLOPs == 0 && n.hasModel && n.fit.category == catalog.CategoryGPU &&
		(req.TokensBillion != nil || req.DeadlineHours != nil)
	if n.serve.tps > 0 && n.job.KVPerSeq == 0 && !n.cpuService() {
		// Only a served language model's copies are timed.
		n.tpsUnused = n.hasModel || req.GPUMemoryGiB != nil
		n.serve.tps = 0
	}
	n.checks = activeChecks(n)
	return n
}

// settingsOf reads the request's settings, with their defaults.
func settingsOf(cat *catalog.Catalog, req Request) settings {
	s := settings{asOf: req.AsOf}
	if s.asOf.IsZero() {
		s.asOf = cat.DataDate
	}
	s.asOf = catalog.UTCDay(s.asOf)
	s.interconnect = orDefault(req.Interconnect, DefaultInterconnect)
	s.vendor = orDefault(req.GPUVendor, DefaultGPUVendor)
	s.target = orDefault(req.Target, DefaultTarget)
	s.optimize = orDefault(req.OptimizeFor, DefaultOptimizeFor)
	s.w = weightSets[s.optimize]
	s.region = strings.ToLower(strings.TrimSpace(req.Region)) // the catalog's region names are lower case
	if len(req.Regions) > 0 {
		s.regions = normalRegions(req.Regions)
	}
	if a := cat.Availability(); a != nil {
		s.availFile = a.File
	}
	s.spot = req.Spot
	s.includePreview = req.IncludePreview
	s.confidential = valueOr(req.Confidential, false)
	s.isolated = req.Isolated
	s.lifetimeMonths = valueOr(req.MinLifetimeMonths, DefaultMinLifetimeMonths)
	s.lifetimeCutoff = s.asOf.AddDate(0, int(s.lifetimeMonths), 0)
	s.warnCutoff = catalog.RetirementHorizon(s.asOf, catalog.RetirementWarningMonths)
	s.maxResults = int(valueOr(req.MaxResults, DefaultMaxResults))
	for _, g := range req.GPUModels {
		s.gpuModels = append(s.gpuModels, strings.ToLower(strings.TrimSpace(g)))
	}
	s.cuda = parseVersion(req.CUDAVersion)
	s.minCC = parseVersion(req.MinComputeCapability)
	// Unset numbers are 0: no cap, no minimum.
	s.maxPrice = valueOr(req.MaxPricePerHour, 0)
	s.maxTotal = valueOr(req.MaxTotalPricePerHour, 0)
	s.minVCPUs = valueOr(req.MinVCPUs, 0)
	s.minMem = valueOr(req.MinMemoryGiB, 0)
	s.minDisk = valueOr(req.MinLocalDiskGiB, 0)
	return s
}

// deriveNeed derives what the job needs: its families, its model and
// memory estimate, the GPU and system memory, and the counts the request
// sets. It fills n in place, inside the requirements.
func deriveNeed(n *need, cat *catalog.Catalog, req Request) {
	*n = need{workload: req.Workload, class: DefaultClass, precision: DefaultPrecision}
	n.gpus = valueOr(req.GPUs, 0)
	n.fixedNodes = valueOr(req.Nodes, 0)
	if (n.workload == WorkloadHPC || n.workload == WorkloadHTC) && req.Cores != nil {
		n.cores = *req.Cores
	}
	modelWorkload := isModelWorkload(n.workload)
	rm, ok := resolveModel(cat, req)
	if req.Model != nil && modelWorkload {
		n.class = rm.class
		n.precision = orDefault(rm.mi.Precision, orDefault(req.Model.Precision, DefaultPrecision))
	}
	if ok {
		n.mi = rm.mi
		e := perfmodel.EstimateMemory(&n.mi)
		n.mem = &e
		n.hasModel = true
		n.model = rm.found
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
	if n.workload == WorkloadDataProcessing {
		n.dataProcessingCC = parseVersion(DataProcessingMinComputeCapability)
	}
	n.gpuMemNeed, n.sysMemNeed = memoryNeeds(n, req)
	if n.fit.category == catalog.CategoryGPU {
		n.job = gpuJobOf(n, req)
	}
}

// memoryNeeds is the GPU and system memory the job needs: gpu_memory_gib
// or the model estimate on GPU sizes (a GPU setting on a CPU workload
// fails gpu_memory on every size), and system memory for inference (150%
// of the weights) or a model on the CPU.
func memoryNeeds(n *need, req Request) (gpuMem, sysMem float64) {
	if n.fit.category != catalog.CategoryGPU {
		if req.GPUMemoryGiB != nil {
			gpuMem = *req.GPUMemoryGiB
		}
		if req.TotalMemoryGiB != nil && (n.workload == WorkloadHPC || n.workload == WorkloadHTC) {
			// A distributed job's memory, spread over its VMs.
			sysMem = *req.TotalMemoryGiB
		}
		if n.mem != nil {
			// Small models on CPU: the estimate is system memory.
			sysMem = n.mem.GiB
			if n.workload == WorkloadInference {
				sysMem = max(sysMem, catalog.Round2(n.mem.WeightsGiB*InferenceSystemMemoryFactor))
			}
		}
		return gpuMem, sysMem
	}
	switch {
	case req.GPUMemoryGiB != nil:
		gpuMem = *req.GPUMemoryGiB
	case n.mem != nil:
		gpuMem = n.mem.GiB
	}
	if n.mem != nil && n.workload == WorkloadInference {
		sysMem = catalog.Round2(n.mem.WeightsGiB * InferenceSystemMemoryFactor)
	}
	return gpuMem, sysMem
}

// ibNeeded reports whether a layout needs InfiniBand; spans is whether one
// job (one copy of the model, for inference) spans several VMs.
func (n *requirements) ibNeeded(spans bool) bool {
	switch n.interconnect {
	case InterconnectInfiniBand:
		return true
	case InterconnectAny:
		return false
	}
	return n.workload == WorkloadHPC || (spans && !n.independentTasks())
}

// independentTasks reports whether the job's VMs never talk to each other:
// htc's independent tasks need no InfiniBand and no inter-node
// communication, however many VMs they run on.
func (n *requirements) independentTasks() bool { return n.workload == WorkloadHTC }

// scaleUpApplies reports whether multi-VM layouts are dropped when some size
// holds the job on one VM.
func (n *requirements) scaleUpApplies() bool {
	return n.fixedNodes == 0 && n.workload != WorkloadHPC && n.workload != WorkloadHTC
}

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
		r.ContextTokens = n.mem.ContextTokens
		r.ConcurrentRequests = n.mem.ConcurrentRequests
		r.KVCacheGiB = n.mem.KVCacheGiB
		r.KVBytesPerToken = n.mem.KVBytesPerToken
		r.TrainingFLOPs, r.TrainingTokensBillion, r.TokenBudget = n.train.FLOPs, n.train.TokensB, tokenBudget(&n.train)
		if n.train.FLOPs > 0 {
			r.DeadlineHours = n.train.Deadline
		}
		r.TokensPerSecond = n.serve.tps
		if n.serviceTimed() {
			r.PromptTokens, r.OutputTokens, r.TokenSplit = n.mi.Prompt, n.mi.Output, tokenSplitSentence(n.req, &n.mi)
			r.MaxTimeToFirstTokenMs, r.MaxTimePerOutputTokenMs = n.serve.maxTTFT*1000, n.serve.maxTPOT*1000
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

// precisionActive reports whether the precision constraint applies: a
// model trained or fine-tuned on GPUs.
func (n *requirements) precisionActive() bool {
	return n.hasModel && n.fit.category == catalog.CategoryGPU &&
		(n.workload == WorkloadTraining || n.workload == WorkloadFineTuning)
}
