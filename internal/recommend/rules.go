// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds every rule the engine encodes, as named constants and
// tables with the reasoning behind each. The guide page
// templates/guides/ranking.md.tmpl (rendered to docs/guides/ranking.md)
// quotes these constants: change it by hand when a rule changes.

import (
	"slices"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// Workloads.
const (
	// WorkloadTraining is training a model from scratch (pretraining) or any
	// full training run: weights, gradients and optimizer states on the GPUs.
	WorkloadTraining = perfmodel.WorkloadTraining
	// WorkloadFineTuning is fine-tuning an existing model, by one of
	// FineTuningMethods: full (the same state per parameter as training,
	// less activation headroom), LoRA or QLoRA (a frozen base and small
	// trainable adapters).
	WorkloadFineTuning = perfmodel.WorkloadFineTuning
	// WorkloadInference is serving a model: weights plus KV cache.
	WorkloadInference = perfmodel.WorkloadInference
	// WorkloadHPC is tightly coupled MPI (CFD, weather, FEA): HPC sizes with
	// InfiniBand.
	WorkloadHPC = "hpc"
	// WorkloadHTC is high-throughput computing: many independent tasks, no
	// interconnect needed, priced per core.
	WorkloadHTC = "htc"
	// WorkloadVisualization is remote visualization and graphics (NV family).
	WorkloadVisualization = "visualization"
	// WorkloadDataProcessing is GPU dataframes and ETL (RAPIDS-style), which
	// need NVIDIA GPUs of compute capability 7.0 (Volta) or newer.
	WorkloadDataProcessing = "data_processing"
)

// Precisions: the performance models' (perfmodel.Precisions).
const (
	PrecisionFP32 = perfmodel.PrecisionFP32
	PrecisionTF32 = perfmodel.PrecisionTF32
	PrecisionBF16 = perfmodel.PrecisionBF16
	PrecisionFP16 = perfmodel.PrecisionFP16
	PrecisionFP8  = perfmodel.PrecisionFP8
	PrecisionFP4  = perfmodel.PrecisionFP4
	PrecisionINT8 = perfmodel.PrecisionINT8
	PrecisionINT4 = perfmodel.PrecisionINT4
)

// DefaultPrecision is used when Model.Precision is empty: bf16 is the
// default of current training and serving stacks.
const DefaultPrecision = PrecisionBF16

// Fine-tuning methods (FineTuningMethod): the memory and training models'.
const (
	MethodFull  = perfmodel.MethodFull
	MethodLoRA  = perfmodel.MethodLoRA
	MethodQLoRA = perfmodel.MethodQLoRA
)

// Model classes, the three columns of the guidance table in "Compute for AI
// workloads on Azure infrastructure".
const (
	// ClassGenerative: LLMs and SLMs. GPU sizes.
	ClassGenerative = "generative"
	// ClassNonGenerative: complex non-generative models (vision, ranking,
	// speech). GPU sizes, like generative ones.
	ClassNonGenerative = "nongenerative"
	// ClassSmall: small non-generative models. CPU sizes: memory-optimized
	// (E family) to train, compute-optimized (F family) to serve.
	ClassSmall = "small"
)

// DefaultClass is used when Model.Class is empty.
const DefaultClass = ClassGenerative

// Interconnect settings.
const (
	// InterconnectAuto requires InfiniBand when the workload is hpc or the
	// job spans several VMs (except htc, whose tasks are independent), and
	// otherwise penalizes RDMA sizes (unused bandwidth costs money).
	InterconnectAuto = "auto"
	// InterconnectInfiniBand requires RDMA (InfiniBand) sizes.
	InterconnectInfiniBand = "infiniband"
	// InterconnectAny never requires InfiniBand (a multi-VM job then runs
	// over Ethernet) and does not penalize RDMA sizes.
	InterconnectAny = "any"
)

// GPU vendor settings.
const (
	GPUVendorAny    = "any"
	GPUVendorNVIDIA = "nvidia"
	GPUVendorAMD    = "amd"
)

// Targets: where the size will run. vm and vmss accept every size; the
// others exclude sizes whose support status is "unsupported" and allow
// "unknown" with a warning.
const (
	TargetVM         = deploy.TargetVM
	TargetVMSS       = deploy.TargetVMSS
	TargetAKS        = deploy.TargetAKS
	TargetCycleCloud = deploy.TargetCycleCloud
	TargetAzureML    = deploy.TargetAzureML
	TargetBatch      = deploy.TargetBatch
	TargetKAITO      = deploy.TargetKAITO
)

// Optimization goals: they shift the score weights (see weightSets).
const (
	OptimizeBalanced    = "balanced"
	OptimizeCost        = "cost"
	OptimizePerformance = "performance"
)

// Defaults of the string settings, used when a Request leaves them empty.
const (
	DefaultInterconnect = InterconnectAuto
	DefaultGPUVendor    = GPUVendorAny
	DefaultTarget       = TargetVM
	DefaultOptimizeFor  = OptimizeBalanced
)

// Allowed values, in documentation order. The engine reads these tables;
// other packages get copies from the functions below (Workloads and the
// others), so no caller can change what the engine accepts.
var (
	workloads     = []string{WorkloadTraining, WorkloadFineTuning, WorkloadInference, WorkloadHPC, WorkloadHTC, WorkloadVisualization, WorkloadDataProcessing}
	methods       = []string{MethodFull, MethodLoRA, MethodQLoRA}
	precisions    = perfmodel.Precisions()
	modelClasses  = []string{ClassGenerative, ClassNonGenerative, ClassSmall}
	interconnects = []string{InterconnectAuto, InterconnectInfiniBand, InterconnectAny}
	gpuVendors    = []string{GPUVendorAny, GPUVendorNVIDIA, GPUVendorAMD}
	targets       = []string{TargetVM, TargetVMSS, TargetAKS, TargetKAITO, TargetCycleCloud, TargetAzureML, TargetBatch}
	optimizeFors  = []string{OptimizeBalanced, OptimizeCost, OptimizePerformance}
)

// Workloads returns the allowed workloads, in documentation order.
func Workloads() []string { return slices.Clone(workloads) }

// FineTuningMethods returns the allowed fine-tuning methods, in documentation order.
func FineTuningMethods() []string { return slices.Clone(methods) }

// Precisions returns the allowed model precisions, in documentation order.
func Precisions() []string { return slices.Clone(precisions) }

// ModelClasses returns the allowed model classes, in documentation order.
func ModelClasses() []string { return slices.Clone(modelClasses) }

// Interconnects returns the allowed interconnect settings, in documentation order.
func Interconnects() []string { return slices.Clone(interconnects) }

// GPUVendors returns the allowed GPU vendor settings, in documentation order.
func GPUVendors() []string { return slices.Clone(gpuVendors) }

// Targets returns the allowed targets, in documentation order.
func Targets() []string { return slices.Clone(targets) }

// OptimizeFors returns the allowed ranking emphases, in documentation order.
func OptimizeFors() []string { return slices.Clone(optimizeFors) }

// ---------------------------------------------------------------------------
// Request defaults and bounds of the model workloads (the memory, training
// and serving models and their constants are in internal/perfmodel)

const (
	// DefaultContextTokens is context_tokens when it is not set: prompt plus
	// output of one sequence for inference, the sequence length for
	// training. DefaultConcurrentRequests is concurrent_requests when it is
	// not set. MaxContextTokens and MaxConcurrentRequests bound them.
	DefaultContextTokens      = 4096
	DefaultConcurrentRequests = 8
	// DefaultOutputShare is the share of a request's tokens that is output
	// when prompt_tokens and output_tokens are not both set: one in eight,
	// after Azure's production LLM inference traces, whose conversation
	// requests have a median of 1,020 prompt and 129 output tokens
	// (Patel et al. 2024, "Splitwise", arXiv 2311.18677, Table 2). The
	// default 4,096-token context splits into 3,584 prompt and 512 output
	// tokens.
	DefaultOutputShare    = 1.0 / 8
	MaxContextTokens      = 10485760
	MaxConcurrentRequests = 100000
	// MaxTrainingBatchSize bounds training_batch_size.
	MaxTrainingBatchSize = 100000

	// InferenceSystemMemoryFactor: a VM that serves a model needs system
	// RAM of at least 150% of the model weights ("What are compute targets
	// in Azure Machine Learning?": "Start with a machine that has 150% of
	// the RAM your model requires"). When the model is split over several
	// VMs, each holds its share.
	InferenceSystemMemoryFactor = 1.5

	// MaxParametersBillion bounds model.parameters_billion (100 trillion).
	MaxParametersBillion = 100000
)

// defaultTrainingBatchSize is training_batch_size when it is not set, per
// model kind: the micro-batch one GPU processes per step. Language models:
// 1 sequence (fine-tuning recipes raise the batch with gradient
// accumulation, not with memory); BERT fine-tuning: 32 (the BERT paper's
// GLUE setting); ViT: 64 (4,096 over 64 accelerators in the ViT paper);
// Whisper: 16; diffusion: 4 (a common SDXL fine-tuning setting).
var defaultTrainingBatchSize = map[string]int64{
	catalog.ModelKindGenerative: 1,
	catalog.ModelKindMoE:        1,
	catalog.ModelKindEncoder:    32,
	catalog.ModelKindVision:     64,
	catalog.ModelKindSpeech:     16,
	catalog.ModelKindDiffusion:  4,
	"":                          32,
}

// ---------------------------------------------------------------------------
// Requirements and layout

const (
	// DefaultMinLifetimeMonths: sizes retiring within this many months of
	// the provider's date are excluded unless min_lifetime_months says
	// otherwise. Retired sizes are always excluded.
	DefaultMinLifetimeMonths = 12

	// CatalogStaleDays: when the catalog's data date is older than this at
	// the provider's date, the result carries a warning.
	CatalogStaleDays = 180

	// DefaultMaxResults is max_results when it is not set; MaxResultsLimit
	// is the most it may be.
	DefaultMaxResults = 5
	MaxResultsLimit   = 50

	// MaxMinLifetimeMonths bounds min_lifetime_months (20 years).
	MaxMinLifetimeMonths = 240

	// MaxNodesRDMA is the InfiniBand span of a size whose series states
	// none (catalog.SinglePlacementGroupVMs: RDMA traffic needs the VMs in
	// one placement group, and a scale set with a single placement group
	// holds at most 100 VMs; D74), and the fewest VMs a training job over
	// Ethernet may scale out to for its deadline (deadlineSpan). A size's
	// own span is catalog SKU.MaxJobVMs (300 on the HPC series whose pages
	// state it, D81).
	MaxNodesRDMA = catalog.SinglePlacementGroupVMs

	// MaxNodes is the most VMs of any job: a scale set holds at most 1,000
	// VMs (with several placement groups). It also bounds nodes.
	MaxNodes = 1000

	// MaxGPUs, MaxCores and MaxMinVCPUs bound gpus, cores and min_vcpus:
	// far above any job the catalog's sizes can hold (MaxNodes VMs of the
	// largest size), low enough that the layout arithmetic stays exact.
	MaxGPUs     = 100000
	MaxCores    = 10000000
	MaxMinVCPUs = 100000

	// DataProcessingMinComputeCapability: RAPIDS needs an NVIDIA GPU of
	// compute capability 7.0 (Volta) or newer and CUDA.
	DataProcessingMinComputeCapability = "7.0"

	// ClearlyBetterScoreMargin: with `prefer`, a warning names the best
	// scored size when it beats the preferred one by at least this many
	// points.
	ClearlyBetterScoreMargin = 10.0

	// LowUtilizationWarning: a recommended GPU layout using less than this
	// share of its GPU memory carries a job-sizing warning (Job sizing in
	// "Compute for Machine Learning on HPC" and the HPC landing zone
	// accelerator: small jobs leave large sizes idle).
	LowUtilizationWarning = 0.25

	// SizingBandLow and SizingBandHigh bound the target band of GPU memory
	// use: the job's stated needs (weights, states, the KV cache of the
	// stated concurrency) fill 50% to 85% of the memory the job may use,
	// leaving room for longer prompts, bursts of requests and allocator
	// fragmentation without paying for idle memory. Above the band the
	// sizing component falls linearly to SizingFullScore at 100%.
	SizingBandLow   = 0.50
	SizingBandHigh  = 0.85
	SizingFullScore = 0.5

	// BandPriceMargin: a served layout above the band ranks after every
	// layout inside it whose price per output token is at most this many
	// times its own (the sizing guidance keeps the band unless leaving it
	// saves more than 10%, a judgement: within 10% the room to spare is
	// worth more than the saving).
	BandPriceMargin = 1.1
)

// familyFit says how well a family suits a workload. Preferred families
// score the full family component; acceptable ones half; fallback families
// score nothing and are listed after every preferred and acceptable size
// (their score is capped at the lowest score above them, so scores never
// increase down the list). Any other family is removed by the "workload"
// constraint.
type familyFit struct {
	category   string   // catalog category of the requirement: gpu, cpu or hpc
	preferred  []string // families named first by the guidance
	acceptable []string // families that work, ranked on score with half the family points
	fallback   []string // families that work but rank after all the others
	explain    string
}

// familyRules maps a workload (and, for model workloads, class) to the
// families that serve it (the table of "Compute for AI workloads on Azure
// infrastructure"; Job sizing in "Compute for Machine Learning on HPC" and
// the HPC landing zone accelerator):
//   - training and fine-tuning of generative or complex models: GPU, ND
//     preferred; NC (Ethernet) is the alternative, which in practice means
//     single-VM jobs, as multi-VM jobs need InfiniBand unless interconnect
//     is "any". NV and NG (graphics, partial GPUs) are not training sizes.
//   - inference of generative or complex models: NC or ND; NV and NG
//     (partial and graphics GPUs) work when the model fits and are listed
//     after every NC and ND size.
//   - small models: memory-optimized CPU (E) to train, compute-optimized CPU
//     (F, including FX) to serve.
//   - hpc: the H families (H, HB, HC, HX), built for MPI.
//   - htc: compute-optimized and HPC CPU sizes; E works at a higher price
//     per core. No GPU sizes.
//   - visualization: NV preferred; NG (AMD graphics) acceptable; NC (NVIDIA
//     with GRID drivers) as a fallback; ND has no display stack.
//   - data_processing: NC preferred; ND (scale up for large data)
//     acceptable; NV (partial GPUs) as a fallback; NVIDIA with compute
//     capability 7.0+ only.
var familyRules = map[string]familyFit{
	"training/gpu":    {category: "gpu", preferred: []string{"ND"}, acceptable: []string{"NC"}, explain: "Training prefers the ND family (InfiniBand, NVLink); NC with Ethernet is the alternative for single-VM jobs (Microsoft's AI compute guidance)."},
	"fine_tuning/gpu": {category: "gpu", preferred: []string{"ND"}, acceptable: []string{"NC"}, explain: "Fine-tuning prefers the ND family; NC with Ethernet is the alternative for single-VM jobs (Microsoft's AI compute guidance)."},
	"inference/gpu":   {category: "gpu", preferred: []string{"NC", "ND"}, fallback: []string{"NV", "NG"}, explain: "Inference uses the NC or ND family; NV and NG sizes work when the model fits and are listed after them (Microsoft's AI compute guidance)."},
	"training/cpu":    {category: "cpu", preferred: []string{"E"}, explain: "Small models train on memory-optimized CPU sizes (E family; Microsoft's AI compute guidance)."},
	"fine_tuning/cpu": {category: "cpu", preferred: []string{"E"}, explain: "Small models are fine-tuned on memory-optimized CPU sizes (E family; Microsoft's AI compute guidance)."},
	"inference/cpu":   {category: "cpu", preferred: []string{"F"}, explain: "Small models are served on compute-optimized CPU sizes (F family; Microsoft's AI compute guidance)."},
	"hpc":             {category: "hpc", preferred: []string{"HB", "HX", "HC", "H"}, explain: "Tightly coupled MPI runs on the HPC families (HB, HX, HC) with InfiniBand."},
	"htc":             {category: "cpu", preferred: []string{"F", "HB", "HX", "HC", "H"}, acceptable: []string{"E"}, explain: "High-throughput tasks run on compute-optimized or HPC CPU sizes, ranked by price per core; no interconnect is needed."},
	"visualization":   {category: "gpu", preferred: []string{"NV"}, acceptable: []string{"NG"}, fallback: []string{"NC"}, explain: "Visualization prefers the NV family; NG works, NC is listed after them; newer generations rank higher (Microsoft's AI compute guidance)."},
	"data_processing": {category: "gpu", preferred: []string{"NC"}, acceptable: []string{"ND"}, fallback: []string{"NV"}, explain: "GPU data processing (RAPIDS) needs NVIDIA GPUs of compute capability 7.0 or newer; NC is preferred, ND works, NV partial GPUs are listed last."},
}

const (
	// GenerationBaseYear and GenerationSpanYears map a year to the
	// generation component: 2016 scores 0, 2026 and later score 1. The
	// year orders generations only, after "Opt for the latest virtual
	// machine SKUs" in "Compute for AI workloads on Azure infrastructure".
	GenerationBaseYear  = 2016
	GenerationSpanYears = 10
	// DefaultGenerationYear is used when the catalog gives no year: neither
	// the series' year_available (series.json, SKU.SeriesYear) nor its GPU
	// architecture's architecture_year (gpu_models.json,
	// GPU.ArchitectureYear).
	DefaultGenerationYear = 2020
)

// ---------------------------------------------------------------------------
// Score (recommend.go)

// weights are the points each score component can contribute; each set adds
// up to 100.
type weights struct {
	// Family: preferred family 1, acceptable 0.5 (familyRules).
	Family float64
	// Cost: the cheapest candidate's cost divided by this one's (1 for the
	// cheapest). The cost is the job's where the throughput model times it
	// (training: price of all VMs × hours; inference: price per output
	// token per second; hpc and htc: price per unit of hpc_bound
	// throughput), else the price of all VMs per hour (for hpc and htc
	// without cores or nodes, per vCPU). Sizes with no known price score 0.
	Cost float64
	// Sizing: the share of what the VMs provide that the job uses (GPUs or
	// cores; system memory for CPU model workloads), or for GPU memory the
	// target band (bandScore). Keeps a small job off an 8-GPU ND size (Job
	// sizing in "Compute for Machine Learning on HPC" and the HPC landing
	// zone accelerator). Neutral 0.5 when the job states no size.
	Sizing float64
	// Generation is the time component: the layout's speed relative to the
	// fastest candidate (1 / job hours for training and fine-tuning,
	// output tokens per second for inference, the hpc_bound throughput for
	// hpc and htc; throughput.go). Where the throughput model cannot time
	// the request, or the size (no performance figures; such sizes rank
	// after the others), it is the age-based generation instead: newer
	// series score higher (SKU.SeriesYear, else GPU.ArchitectureYear, else
	// DefaultGenerationYear).
	Generation float64
	// Scale: 1 / nodes. Fewer, larger VMs first: scale up before scale out
	// ("What are compute targets in Azure Machine Learning?", and Microsoft
	// Learn's Azure Machine Learning unit on GPU compute).
	Scale float64
}

// weightSets are the weights for each optimize_for value: cost moves weight
// to price; performance to newer generations and fewer VMs. With a per-core
// licence (hpc, htc), licensedWeights moves the sizing, time and scale
// weights to the cost in proportion to the licences' share of the price of
// the cheapest layout per unit of work: the cost compares price plus
// licences per unit of throughput, which then decides.
var weightSets = map[string]weights{
	OptimizeBalanced:    {Family: 25, Cost: 25, Sizing: 20, Generation: 15, Scale: 15},
	OptimizeCost:        {Family: 20, Cost: 45, Sizing: 15, Generation: 10, Scale: 10},
	OptimizePerformance: {Family: 20, Cost: 10, Sizing: 10, Generation: 35, Scale: 25},
}

// Penalties are points subtracted from the weighted sum (the score is then
// clamped to 0..100).
const (
	// PenaltyUnusedRDMA: an RDMA (InfiniBand) size for a job that does not
	// need InfiniBand, with interconnect "auto": the bandwidth is paid for
	// and unused (Bandwidth in "Compute for Machine Learning on HPC" and
	// the HPC landing zone accelerator).
	PenaltyUnusedRDMA = 10.0
	// PenaltyTensorParallelPCIe: a served model must be split over GPUs
	// that have no NVLink between them, so every layer's all-reduce
	// crosses PCIe (vLLM's and NVIDIA's guidance keep tensor parallelism
	// inside an NVLink domain). On such sizes the engine splits a copy only
	// as far as memory requires and serves more copies instead.
	PenaltyTensorParallelPCIe = 10.0
	// PenaltyRetiring: the size retires within catalog.RetirementWarningMonths.
	PenaltyRetiring = 5.0
	// PenaltyPreview: the size is in preview (only with include_preview).
	PenaltyPreview = 5.0
	// PenaltyUnknownSupport: the target's support for the size is unknown.
	PenaltyUnknownSupport = 5.0
	// QuotaUnknownPenalty: with usage files, the size's quota is unknown
	// (no file for its region, or the file lacks its family). A size whose
	// quota is known to suffice is safer to plan on, but a layout better by
	// more than these points still leads: an unknown quota ranks with the
	// sufficient ones, 5 points down, and only an insufficient quota ranks
	// later (a judgement).
	QuotaUnknownPenalty = 5.0
	// PenaltyIdleGPUs: the job fits in one GPU of the size but the size has
	// several: the others sit idle (Job sizing in "Compute for Machine
	// Learning on HPC": "Smaller jobs, such as those with OPT 1.3B may not
	// take advantage of larger SKU sizes"). The penalty is this many points
	// times the idle share, (n-1)/n: 13.1 for an 8-GPU size, 7.5 for a
	// 2-GPU size.
	PenaltyIdleGPUs = 15.0
	// PenaltyNoPrice: the size has no price in any region of the price
	// snapshot, which usually means it is not offered yet (or any more).
	// Its cost component is 0 as well.
	PenaltyNoPrice = 15.0
)

// DefaultTrainingBatchSize is training_batch_size when it is not set, for
// a model of the catalog kind (catalog.ModelKinds); "" is a non-generative
// model of unknown kind.
func DefaultTrainingBatchSize(kind string) int64 { return defaultTrainingBatchSize[kind] }

// ---------------------------------------------------------------------------
// Work and targets (throughput.go, serving.go, hpc_reference.go): what the
// performance models time, and what a job must meet

// HPC bounds (HPCBound): what limits the speed of an hpc or htc job.
const (
	BoundMemoryBandwidth = perfmodel.BoundMemoryBandwidth
	BoundCompute         = perfmodel.BoundCompute
	BoundMemoryCapacity  = perfmodel.BoundMemoryCapacity
)

var hpcBounds = []string{BoundMemoryBandwidth, BoundCompute, BoundMemoryCapacity}

// HPCBounds returns the allowed hpc_bound values, in documentation order.
func HPCBounds() []string { return slices.Clone(hpcBounds) }

const (
	// ChinchillaTokensPerParameter is the training budget assumed without
	// tokens_billion: 20 tokens per parameter, compute-optimal in Hoffmann
	// et al. 2022 ("Training Compute-Optimal Large Language Models",
	// arXiv 2203.15556). A pretraining job is thus never sized by memory
	// alone.
	ChinchillaTokensPerParameter = 20

	// DefaultFineTuningTokensBillion is the fine-tuning budget assumed
	// without tokens_billion: 0.1 billion tokens, for example 50,000
	// examples of 2,000 tokens for one epoch, the scale of common
	// instruction-tuning sets (a judgement; state tokens_billion for the
	// real figure).
	DefaultFineTuningTokensBillion = 0.1

	// MaxTokensBillion bounds tokens_billion (a quadrillion tokens).
	MaxTokensBillion = 1000000

	// DefaultVisionSamplesMillion is the samples assumed for training or
	// fine-tuning a vision model without samples_million: ImageNet-1k's
	// 1,281,167 training images × 90 epochs, the classic ResNet schedule
	// (Goyal et al. 2017, arXiv 1706.02677) and torchvision's reference
	// recipe. Diffusion and speech models have no such common schedule:
	// without samples_million they are not timed. MaxSamplesMillion
	// bounds samples_million (a trillion samples).
	DefaultVisionSamplesMillion = 115.3
	MaxSamplesMillion           = 1000000

	// MaxForwardGFLOPs bounds model.forward_gflops: 10 PFLOPs per sample,
	// over 300 times SD3.5 Large's denoising step at 1024x1024.
	MaxForwardGFLOPs = 1e7

	// DefaultDeadlineHours is the wall time training and fine-tuning are
	// sized to finish in without deadline_hours: 720 hours, 30 days. It
	// scales a job out within the placement limits but never rejects a
	// size: where none meets it, the job runs longer and a warning says
	// how long. MaxDeadlineHours bounds deadline_hours (10 years).
	DefaultDeadlineHours = 720
	MaxDeadlineHours     = 87600

	// MaxTokensPerSecond bounds tokens_per_second; MaxRequestsPerSecond
	// bounds requests_per_second.
	MaxTokensPerSecond   = 1e9
	MaxRequestsPerSecond = 1e6
	// DefaultTimeToFirstTokenMs and DefaultTimePerOutputTokenMs are the
	// latency targets of an interactive service (serving.interactive)
	// without stated ones: MLPerf Inference's Server scenario limits for
	// Llama 2 70B, 2 s to the first token and 200 ms per output token (p99
	// limits there, so lenient as means). Like the default deadline they
	// never remove a size; they shape its layout as stated targets would
	// where some layout within max_nodes meets them (the batch, the copies,
	// the split), and layouts that still miss them rank after those that
	// meet them, with a warning. They are what such a service's latency is
	// scored against (latencyScore).
	DefaultTimeToFirstTokenMs   = 2000
	DefaultTimePerOutputTokenMs = 200
	// LatencyFirstTokenShare is the time to first token's share of a
	// timed service's time component, the time per output token taking
	// the rest: the two weigh alike (judgement).
	LatencyFirstTokenShare = 0.5
	// MaxLatencyTargetMs bounds max_time_to_first_token_ms and
	// max_time_per_output_token_ms: an hour.
	MaxLatencyTargetMs = 3.6e6
)

const (
	// MaxParallelEfficiency bounds parallel_efficiency: 1.5, above the
	// superlinear 1.2 to 1.3 of the published runs whose cells per core
	// stay high as VMs are added.
	MaxParallelEfficiency = 1.5

	// MaxTotalMemoryGiB bounds total_memory_gib: 10 PiB, far beyond any
	// job the VMs one job may span can hold.
	MaxTotalMemoryGiB = 10 * 1024 * 1024
)

const (
	// HPCJobHoursDigits is the significant digits an hpc or htc job's
	// reported hours keep (estimate.job_hours with reference_run): its
	// costs are computed from the reported hours, so that job_hours × the
	// hourly prices reproduces them, and four digits keep them within
	// 0.05% of the model's (two decimals put a 0.176-hour job at 0.18,
	// 2% off, and a 0.0123-hour one at 0.01).
	HPCJobHoursDigits = 4

	// MaxLicenseCostPerCoreHour bounds license_cost_per_core_hour: 1,000
	// USD per core per hour, far above any commercial solver's.
	MaxLicenseCostPerCoreHour = 1000
)
