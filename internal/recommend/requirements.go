// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the requirements step: the validated request with its
// defaults applied, and what the job needs derived as numbers (its families,
// model and memory, the GPU split, and the work the performance models time).

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
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
	spotPriced                                     bool // spot, and some ranked size has a spot price (explainRanking)
	lifetimeMonths                                 int64
	lifetimeCutoff, warnCutoff                     time.Time
	includePreview, confidential                   bool
	isolated                                       *bool
	maxResults                                     int
	asOf                                           time.Time
	availFile                                      string // the availability file laid over the catalog, or ""
	kaito                                          *catalog.KAITO
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
	maxNodes   int64 // max_nodes, else MaxNodes: the most VMs of any layout
	cores      int64
	// workUnused: tokens_billion or deadline_hours were given for a job the
	// throughput model does not time; servingUnused names the serving
	// arguments given for a model whose serving it does not time.
	workUnused    bool
	servingUnused []string
}

// deriveRequirements applies defaults and derives the requirements. The
// request must have passed validate's fatal checks.
func deriveRequirements(cat *catalog.Catalog, req Request) *requirements {
	n := &requirements{req: req, settings: settingsOf(cat, req)}
	deriveNeed(&n.need, cat, req)
	n.train = trainingOf(&n.need, req, !n.ibNeeded(true))
	n.serve = servingOf(&n.need, req)
	n.hpc = hpcWorkOf(req)
	n.workUnused = n.hasModel && n.fit.category == catalog.CategoryGPU &&
		((n.train.FLOPs == 0 && req.DeadlineHours != nil) || (req.TokensBillion != nil && n.train.TokensB == 0))
	n.servingUnused = n.serve.dropUntimed(n.servedLM() || n.cpuService(), n.hasModel || req.GPUMemoryGiB != nil)
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
	s.kaito = cat.KAITO()
	s.includePreview = req.IncludePreview
	s.confidential = valueOr(req.Confidential, false)
	s.isolated = req.Isolated
	s.lifetimeMonths = valueOr(req.MinLifetimeMonths, DefaultMinLifetimeMonths)
	s.lifetimeCutoff = catalog.RetirementHorizon(s.asOf, int(s.lifetimeMonths))
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
	n.maxNodes = min(valueOr(req.MaxNodes, MaxNodes), MaxNodes)
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

// precisionActive reports whether the precision constraint applies: a
// model trained or fine-tuned on GPUs.
func (n *requirements) precisionActive() bool {
	return n.hasModel && n.fit.category == catalog.CategoryGPU && isModelWorkload(n.workload)
}

// runsPrecision reports whether the size runs the job's precision: a
// training job's compute precision natively, a served model's weights
// natively or with the engines' weight-only kernels.
func (n *requirements) runsPrecision(in *sizeInfo) bool {
	if n.workload == WorkloadInference {
		return in.RunsWeights(n.precision)
	}
	return in.RunsTraining(n.train.ComputePrec)
}

// gpuJobOf derives how the job's GPU memory need splits.
func gpuJobOf(n *need, req Request) perfmodel.GPUJob {
	j := perfmodel.GPUJob{Total: n.gpuMemNeed, Shard: n.gpuMemNeed, Share: 1, Band: SizingBandHigh}
	if n.gpuMemNeed <= 0 {
		return j
	}
	if req.GPUMemoryGiB == nil && n.mem != nil {
		// An estimate leaves the runtime's reserve (GPUMemoryShare); a
		// stated gpu_memory_gib is the whole need (Share 1).
		j.Share = perfmodel.GPUMemoryShare
		if n.mem.DataParallel {
			j.DataParallel = true
		}
		if n.workload != WorkloadInference && !j.DataParallel {
			// Sharded training (FSDP or ZeRO-3), full or adapters: each
			// GPU keeps the activations of its own micro-batch whole.
			j.Replicated = math.Min(n.mem.ActivationGiB, j.Shard)
		}
		if n.workload == WorkloadInference {
			j.TensorParallel, j.Kind = true, n.mi.Kind
			if kv := perfmodel.KVCacheOf(&n.mi); kv.PerSeq > 0 {
				j.KVPerSeq = kv.PerSeq / perfmodel.GiB
				j.Seqs = n.mi.Seqs
				j.KVSplit = kv.Split
				j.Shard = n.mem.WeightsGiB + n.mem.ActivationGiB
			}
		}
	}
	if m := n.mi.Model; m != nil && m.AttentionHeads != nil && j.TensorParallel && !j.Placed() {
		j.Heads = *m.AttentionHeads
		if m.KVHeads != nil {
			j.KVHeads = *m.KVHeads
		}
	}
	return j
}

// trainingOf derives the work of a training or fine-tuning job on GPUs:
// a language model's or an encoder's by tokens, a vision, diffusion or
// speech model's by samples; ethernet is whether one job's VMs talk
// without InfiniBand.
func trainingOf(n *need, req Request, ethernet bool) training {
	t := training{deadlineStated: req.DeadlineHours != nil}
	if n.hasModel && n.fit.category == catalog.CategoryGPU && (n.workload == WorkloadTraining || n.workload == WorkloadFineTuning) {
		if n.mi.Generative() || n.mi.Kind == catalog.ModelKindEncoder {
			var tokensB float64
			tokensB, t.budget = tokenBudgetOf(n, req)
			t.TrainingWork = perfmodel.LanguageModelWork(encoderContext(n.mi), tokensB)
		} else {
			t.sampleWork(n, req)
		}
	}
	if n.hasModel {
		t.ComputePrec = perfmodel.ComputePrecision(n.precision, n.mi.Method)
	}
	t.Deadline, t.GPUs, t.GPUMemNeed, t.Ethernet = valueOr(req.DeadlineHours, DefaultDeadlineHours), n.gpus, n.gpuMemNeed, ethernet
	t.MemShare = n.job.Share
	return t
}

// encoderContext is the model an encoder's training is timed with: its
// sequences at most its maximum context (an encoder trains on sequences
// of that length; context_tokens does not apply to it).
func encoderContext(mi perfmodel.MemoryInput) *perfmodel.MemoryInput {
	if mi.Kind == catalog.ModelKindEncoder && mi.Model != nil && mi.Model.MaxContextTokens != nil && mi.Context > *mi.Model.MaxContextTokens {
		mi.Context = *mi.Model.MaxContextTokens
	}
	return &mi
}

// sampleWork derives the work of training a vision, diffusion or speech
// model by samples: the forward FLOPs of one sample (model.forward_gflops,
// else the model table's) and the samples (samples_million, else the
// kind's default). Without either the job is not timed, and its sizes rank
// by the rate the training model gives them per USD (proxy).
func (t *training) sampleWork(n *need, req Request) {
	var forward, frozen float64
	if tm := n.mi.Model; tm != nil && tm.ForwardGFLOPs != nil {
		forward = *tm.ForwardGFLOPs
		if tm.FrozenGFLOPs != nil {
			frozen = *tm.FrozenGFLOPs
		}
	}
	if req.Model.ForwardGFLOPs > 0 {
		forward = req.Model.ForwardGFLOPs
	}
	var samples float64
	switch {
	case req.SamplesMillion != nil:
		samples, t.budget = *req.SamplesMillion, samplesStated
	case n.mi.Kind == catalog.ModelKindVision:
		samples, t.budget = DefaultVisionSamplesMillion, samplesVision
	}
	switch {
	case forward > 0 && samples > 0:
		t.TrainingWork = perfmodel.SampleWork(n.mi.Kind, n.mi.Method, forward, frozen, samples)
		return
	case forward > 0:
		t.untimed = "samples_million (the samples the job processes, dataset × epochs, in millions)"
	case samples > 0 || n.mi.Model != nil:
		t.untimed = "model.forward_gflops (the FLOPs of one sample's forward pass)"
	default:
		t.untimed = "model.forward_gflops (the FLOPs of one sample's forward pass) and samples_million (the samples the job processes, in millions)"
	}
	t.TrainingWork = perfmodel.SampleWork(n.mi.Kind, n.mi.Method, 0, 0, 0)
	t.budget, t.proxy = tokensNone, true
}

// tokenBudgetOf is the tokens a training or fine-tuning job processes, in
// billions, and where they come from: tokens_billion, else the default
// budget of the workload.
func tokenBudgetOf(n *need, req Request) (float64, tokenSource) {
	switch {
	case req.TokensBillion != nil:
		return *req.TokensBillion, tokensStated
	case n.workload == WorkloadTraining:
		return ChinchillaTokensPerParameter * n.mi.Params, tokensChinchilla
	}
	return DefaultFineTuningTokensBillion, tokensFineTuning
}

func hpcWorkOf(req Request) hpcWork {
	h := hpcWork{}
	switch req.Workload {
	case WorkloadHPC:
		h.HPCJob = perfmodel.HPCJob{Bound: orDefault(req.HPCBound, BoundMemoryBandwidth), Coupled: true}
	case WorkloadHTC:
		h.HPCJob = perfmodel.HPCJob{Bound: orDefault(req.HPCBound, BoundCompute)}
	default:
		return h
	}
	h.Cores = valueOr(req.Cores, 0)
	h.Measured, h.MeasuredAt = valueOr(req.ParallelEfficiency, 0), valueOr(req.Nodes, 0)
	h.license, h.hasLicense = valueOr(req.LicenseCostPerCoreHour, 0), req.LicenseCostPerCoreHour != nil
	return h
}

func servingOf(n *need, req Request) serving {
	kv := n.job.KVPerSeq
	if !n.servedLM() {
		kv = 0 // no step model times it
	}
	s := serving{Service: perfmodel.ServiceOf(&n.mi, n.precision, kv),
		seqs: n.job.Seqs, concurrencyStated: req.ConcurrentRequests != nil}
	if n.mem != nil {
		s.HasMemory, s.WeightsGiB = true, n.mem.WeightsGiB
	}
	if n.workload == WorkloadInference && s.Output > 0 {
		switch {
		case req.TokensPerSecond != nil:
			s.loadTPS = *req.TokensPerSecond
			s.load = s.loadTPS / s.Output
		case req.RequestsPerSecond != nil:
			s.load, s.rateStated = *req.RequestsPerSecond, true
			s.loadTPS = s.load * s.Output
		}
	}
	s.minReplicas = valueOr(req.MinReplicas, 1)
	if n.workload == WorkloadInference {
		s.maxTTFT = valueOr(req.MaxTimeToFirstTokenMs, 0) / 1000
		s.maxTPOT = valueOr(req.MaxTimePerOutputTokenMs, 0) / 1000
	}
	return s
}

// normalRegions is the list of regions in the catalog's lower case,
// without surrounding spaces.
func normalRegions(rs []string) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, strings.ToLower(strings.TrimSpace(r)))
	}
	return out
}

// regionScoped reports whether the request says where sizes may run:
// region or regions.
func (s *settings) regionScoped() bool { return s.region != "" || len(s.regions) > 0 }

// regionWords names the allowed regions in a sentence: `region "eastus"`,
// or `regions "eastus", "westus2"`.
func (s *settings) regionWords() string {
	if s.region != "" {
		return "region " + quote(s.region)
	}
	return "regions " + catalog.QuoteList(s.regions)
}

// quotaActive reports whether the request has usage files.
func (n *requirements) quotaActive() bool { return len(n.req.Usage) > 0 }

// cpuServed reports whether the request serves a small model on CPU sizes,
// which cpuSpeed times.
func (n *requirements) cpuServed(in *sizeInfo) bool { return n.cpuService() && !in.IsGPU }

// cpuCopies reports whether the size runs copies of a small served model,
// timed or not, one on each VM: inference of the small class on a CPU
// size.
func (n *requirements) cpuCopies(in *sizeInfo) bool {
	return n.workload == WorkloadInference && n.class == ClassSmall && !in.IsGPU
}

// cpuService reports whether the request serves a small model whose
// memory the engine estimates: on CPU sizes, one copy on each VM, timed as
// a language model. A model the table names as an encoder, vision,
// diffusion or speech model makes one pass per request and generates no
// stream of tokens to time: it is untimed, as on GPU sizes.
func (n *requirements) cpuService() bool {
	return n.workload == WorkloadInference && n.class == ClassSmall && n.serve.HasMemory &&
		(n.mi.Kind == "" || n.mi.Generative())
}

// spotOn reports whether the size runs on Spot VMs where the request asks
// for spot: the target runs its partition on Spot (deploy.SpotOffered).
func (n *requirements) spotOn(in *sizeInfo) bool {
	return n.spot && deploy.SpotOffered(&deploy.Layout{SKU: in.sku, Target: n.target, MPI: n.workload == WorkloadHPC})
}

// spotDeployed reports whether the layout's deployment asks for Spot VMs:
// spot asked for, on a target that runs the layout on Spot (SpotOffered),
// and a size Azure sells Spot VMs of in its region, whether or not the
// catalog knows its spot price (e.spot: priced at one).
func (n *requirements) spotDeployed(e *eval) bool {
	return n.spotOn(e.in) && !e.noSpot
}

// spotTraining reports whether a training or fine-tuning job asks for
// spot prices.
func (n *requirements) spotTraining() bool {
	return n.spot && (n.workload == WorkloadTraining || n.workload == WorkloadFineTuning)
}

// serviceTimed reports whether the request is a served language model the
// step model times.
func (n *requirements) serviceTimed() bool {
	return (n.servedLM() || n.cpuService()) && n.train.FLOPs == 0
}

// servedLM reports whether the request serves a language model on GPU
// sizes from its memory estimate: its copies are split by tensor
// parallelism and timed by the step model. Other served models' copies
// are placed (perfmodel.GPUJob.Placed) and untimed, an encoder-decoder
// speech model's although it keeps a cache per request.
func (n *need) servedLM() bool { return n.job.TensorParallel && !n.job.Placed() }

// workDefined reports whether the request defines work the performance
// models can time: training or fine-tuning FLOPs, a served language model,
// or an HPC bound.
func (n *requirements) workDefined() bool {
	return n.train.FLOPs > 0 || n.serviceTimed() || n.hpc.Bound != ""
}

// spanFor is the most VMs one job (one copy of the model, for inference)
// may span on a size, within max_nodes: any number when it needs no
// InfiniBand, else the size's InfiniBand span (whole racks) on an RDMA
// size and one VM on the others.
func (n *requirements) spanFor(in *sizeInfo) int64 { return n.spanWithin(in, n.maxNodes) }

// spanWithin is spanFor with max_nodes at most.
func (n *requirements) spanWithin(in *sizeInfo, most int64) int64 {
	switch {
	case !n.ibNeeded(true):
		return n.poolLimit(in, most)
	case in.sku.Network.RDMA:
		r := max(in.rackVMs, 1)
		return max(n.poolLimit(in, min(in.maxJobVMs, most))/r*r, 1)
	}
	return 1
}

// ibSpan is the most VMs one InfiniBand job may span on a size on the
// request's target: the size's span (catalog SKU.MaxJobVMs), at most what a
// Batch pool whose nodes talk to each other holds.
func (n *requirements) ibSpan(in *sizeInfo) int64 { return n.poolLimit(in, in.maxJobVMs) }

// spanOf is the VMs one job may span on a size as constraint c counts
// them: the InfiniBand span for nodes, the deadline's scale-out for
// deadline, spanFor (within max_nodes) for the others.
func (n *requirements) spanOf(c constraint, in *sizeInfo) int64 {
	switch c {
	case cNodes:
		return n.ibSpan(in)
	case cDeadline:
		return n.deadlineSpan(in)
	}
	return n.spanFor(in)
}

// poolLimit caps the VMs of one job spanning VMs of a size at what its
// target's group of VMs holds (poolVMs); limit elsewhere.
func (n *requirements) poolLimit(in *sizeInfo, limit int64) int64 {
	if l, _ := n.poolVMs(in); l > 0 {
		return min(limit, l)
	}
	return limit
}

// poolVMs is the most VMs of the group the request's target puts one job
// spanning VMs in, and what that group is; 0 where the target sets no
// limit of its own. On Batch, a pool with inter-node communication holds
// at most batchMPINodes nodes (the job's VMs talk to each other, so its
// tasks are not independent); on target vm, an InfiniBand job's on-demand
// VMs share one availability set, which holds at most
// deploy.AvailabilitySetVMs (deploy.AvailabilitySetPlaces), except on a
// size Azure allocates by racks (in.rackVMs above 1: ND GB200 and GB300
// v6), whose VMs go in a scale set's interconnect block whatever the
// target (the deployment note says so); Spot VMs, which Azure refuses in
// an availability set, go in a scale set with a single placement group,
// held to the size's span as on target vmss. in nil: any size.
func (n *requirements) poolVMs(in *sizeInfo) (int64, string) {
	switch {
	case n.target == TargetBatch && !n.independentTasks():
		if n.spot {
			return n.batchMPINodes(), "a Batch pool whose nodes talk to each other, in the user-subscription account Spot needs"
		}
		return n.batchMPINodes(), "a Batch pool whose nodes talk to each other"
	case n.target == TargetVM && !n.spot && n.ibNeeded(true) && (in == nil || in.rackVMs <= 1):
		return deploy.AvailabilitySetVMs, "the availability set target vm places InfiniBand VMs in (but ND GB200 and GB300 v6, placed by racks in a scale set)"
	}
	return 0, ""
}

// batchMPINodes is the most nodes of the request's Batch pool with
// inter-node communication: with spot, a user-subscription account's
// (deploy.BatchMPINodesUserSubscription), since Batch runs Spot VMs only in
// pools of accounts whose pool allocation mode is UserSubscription; else a
// Batch-service account's (deploy.BatchMPINodesBatchService).
func (n *requirements) batchMPINodes() int64 {
	if n.spot {
		return deploy.BatchMPINodesUserSubscription
	}
	return deploy.BatchMPINodesBatchService
}

// deadlineSpan is the most VMs a training job scales out to for its
// deadline on a size: the VMs one job may span, at most the size's
// InfiniBand span (at least MaxNodesRDMA over Ethernet).
func (n *requirements) deadlineSpan(in *sizeInfo) int64 {
	return n.deadlineSpanWithin(in, n.maxNodes)
}

// deadlineSpanWithin is deadlineSpan with max_nodes at most.
func (n *requirements) deadlineSpanWithin(in *sizeInfo, most int64) int64 {
	return min(n.spanWithin(in, most), max(in.maxJobVMs, MaxNodesRDMA))
}

// deadlineVMs is the VMs a deadline is judged on for a size: the nodes
// setting, else the most the job may scale out to (deadlineSpan).
func (n *requirements) deadlineVMs(in *sizeInfo) int64 {
	if n.fixedNodes > 0 {
		return n.fixedNodes
	}
	return n.deadlineSpan(in)
}

// familyFit returns the family component and whether the family is a
// fallback; ok is false when the family does not serve the workload.
func (n *requirements) familyFit(fam string) (fit float64, fallback, ok bool) {
	if slices.Contains(n.fit.preferred, fam) {
		return 1, false, true
	}
	if slices.Contains(n.fit.acceptable, fam) {
		return 0.5, false, true
	}
	if slices.Contains(n.fit.fallback, fam) {
		return 0, true, true
	}
	return 0, false, false
}
