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
)

// Workloads.
const (
	// WorkloadTraining is training a model from scratch (pretraining) or any
	// full training run: weights, gradients and optimizer states on the GPUs.
	WorkloadTraining = "training"
	// WorkloadFineTuning is fine-tuning an existing model, by one of
	// FineTuningMethods: full (the same state per parameter as training,
	// less activation headroom), LoRA or QLoRA (a frozen base and small
	// trainable adapters).
	WorkloadFineTuning = "fine_tuning"
	// WorkloadInference is serving a model: weights plus KV cache.
	WorkloadInference = "inference"
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

// Precisions.
const (
	PrecisionFP32 = "fp32"
	PrecisionTF32 = "tf32"
	PrecisionBF16 = "bf16"
	PrecisionFP16 = "fp16"
	PrecisionFP8  = "fp8"
	// PrecisionFP4 is 4-bit floating-point weights in blocks with a shared
	// scale (NVFP4, MXFP4), which Blackwell GPUs compute natively.
	PrecisionFP4  = "fp4"
	PrecisionINT8 = "int8"
	PrecisionINT4 = "int4"
)

// DefaultPrecision is used when Model.Precision is empty: bf16 is the
// default of current training and serving stacks.
const DefaultPrecision = PrecisionBF16

// Fine-tuning methods (FineTuningMethod).
const (
	// MethodFull trains every parameter: weights, gradients, an fp32
	// master copy and Adam's moments for all of them.
	MethodFull = "full"
	// MethodLoRA freezes the base weights at the model's precision and
	// trains low-rank adapters (Hu et al. 2021, arXiv 2106.09685).
	MethodLoRA = "lora"
	// MethodQLoRA freezes a 4-bit NF4 base and trains bf16 adapters with a
	// paged optimizer (Dettmers et al. 2023, arXiv 2305.14314).
	MethodQLoRA = "qlora"
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
	TargetVM         = "vm"
	TargetVMSS       = "vmss"
	TargetAKS        = "aks"
	TargetCycleCloud = "cyclecloud"
	TargetAzureML    = "azureml"
	TargetBatch      = "batch"
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
	precisions    = []string{PrecisionFP32, PrecisionTF32, PrecisionBF16, PrecisionFP16, PrecisionFP8, PrecisionFP4, PrecisionINT8, PrecisionINT4}
	modelClasses  = []string{ClassGenerative, ClassNonGenerative, ClassSmall}
	interconnects = []string{InterconnectAuto, InterconnectInfiniBand, InterconnectAny}
	gpuVendors    = []string{GPUVendorAny, GPUVendorNVIDIA, GPUVendorAMD}
	targets       = []string{TargetVM, TargetVMSS, TargetAKS, TargetCycleCloud, TargetAzureML, TargetBatch}
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
// Memory model (EstimateGPUMemoryGiB, memory.go)

// GiB is the number of bytes in a gibibyte. Parameter counts are decimal
// (70B = 70e9); memory is reported in GiB like the catalog.
const GiB = 1 << 30

// bytesPerParameter is the storage size of one weight at each precision.
// tf32 is a tensor-core compute mode: weights are stored in fp32. fp4 is
// NVFP4's 4.5 bits: 4-bit values with an 8-bit scale per 16 (NVIDIA's
// NVFP4 format; a model table entry keeps its own format's bits, MXFP4's
// 4.25).
var bytesPerParameter = map[string]float64{
	PrecisionFP32: 4,
	PrecisionTF32: 4,
	PrecisionBF16: 2,
	PrecisionFP16: 2,
	PrecisionFP8:  1,
	PrecisionFP4:  4.5 / 8,
	PrecisionINT8: 1,
	PrecisionINT4: 0.5,
}

const (
	// MinGradientBytesPerParameter: gradients are kept at the weights'
	// precision, but never below 16 bits: fp8 and integer training keep
	// bf16 gradients (as NVIDIA Transformer Engine does).
	MinGradientBytesPerParameter = 2

	// MasterWeightBytesPerParameter: mixed-precision training keeps an fp32
	// master copy of the weights for the optimizer update whenever the
	// working weights are narrower than 32 bits (Micikevicius et al. 2018).
	MasterWeightBytesPerParameter = 4

	// AdamStateBytesPerParameter: Adam and AdamW keep two fp32 moments (m
	// and v) per parameter. With the lines above, bf16 mixed precision
	// needs 2 + 2 + 4 + 8 = 16 bytes per parameter, the figure of the ZeRO
	// paper (Rajbhandari et al. 2020); fp32 needs 4 + 4 + 8 = 16 too.
	AdamStateBytesPerParameter = 8

	// TrainingActivationHeadroom is added on top of the model states for
	// full training of a language model: activations and temporary
	// buffers at the micro-batch sizes used for pretraining without full
	// activation recomputation. For 7B to 70B transformers at 2k-4k
	// context this is 30% to 70% of the model states (Korthikanti et al.
	// 2022); we take the middle, 50%.
	TrainingActivationHeadroom = 0.50

	// FineTuningActivationHeadroom is the same for full fine-tuning of a
	// language model, where activation checkpointing and shorter sequences
	// are the norm: 25%.
	FineTuningActivationHeadroom = 0.25

	// LoRAAdapterShare is the trainable adapters' share of the parameters
	// for LoRA and QLoRA: rank 64 on every linear layer, the QLoRA paper's
	// setting for its 33B and 65B runs, is about 1.2% of LLaMA-65B (80
	// layers × 64 × (4 × (8192 + 8192) + 3 × (8192 + 22016))); rank 16 is
	// about 0.3%. 1% sizes for the common ranks with room to spare.
	LoRAAdapterShare = 0.01

	// LoRAAdapterBytesPerParameter: each adapter parameter keeps a bf16
	// weight, a bf16 gradient, an fp32 master copy and Adam's two fp32
	// moments (2 + 2 + 4 + 8, the ZeRO paper's 16 bytes).
	LoRAAdapterBytesPerParameter = 16
	// QLoRAAdapterBytesPerParameter: QLoRA keeps bf16 adapters with no
	// master copy and a paged Adam (2 + 2 + 8).
	QLoRAAdapterBytesPerParameter = 12

	// QLoRABaseBytesPerParameter is a linear-layer weight in NF4 with
	// double-quantised constants: 4 bits + 0.127 bits (QLoRA paper §3).
	// Embeddings and the output layer stay at 16 bits.
	QLoRABaseBytesPerParameter = 4.127 / 8

	// CheckpointedActivationBytes is what activation checkpointing keeps
	// per token per layer, each layer's 16-bit input (2 × hidden bytes);
	// RecomputedLayerActivationBytes the activations of the one layer
	// being recomputed, 34 × hidden bytes per token with FlashAttention or
	// PyTorch's memory-efficient attention, which do not store the score
	// matrix (Korthikanti et al. 2022, arXiv 2205.05198, §4.1). LoRA and
	// QLoRA recipes checkpoint activations (the QLoRA paper, Hugging
	// Face's PEFT guides); the logits add vocabulary × 4 bytes (fp32) per
	// token.
	CheckpointedActivationBytes    = 2
	RecomputedLayerActivationBytes = 34
	LogitBytes                     = 4

	// LoRAActivationBytesPerParameter estimates LoRA and QLoRA activations
	// for a model without architecture facts, per 4,096 tokens of the
	// micro-batch: the formula above gives 0.47 bytes per parameter for
	// Llama 3.1 8B and 0.12 for Llama 3.1 70B; 0.25 sits between them.
	LoRAActivationBytesPerParameter = 0.25

	// SampleActivationBytes is the activation memory of one training
	// sample per layer per token of its sequence per unit of hidden size
	// for the kinds trained with plain data parallelism (encoder, vision,
	// speech): 34 bytes, Korthikanti et al.'s 16-bit activations of a
	// transformer layer without the score matrix (FlashAttention or
	// PyTorch's memory-efficient attention) and without recomputation. The
	// sequence is the model's max_context_tokens: 512 tokens for BERT, 197
	// patches for ViT-L/16 at 224 × 224 pixels.
	SampleActivationBytes = 34

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

	// ServingMemoryShare is the share of each GPU's usable memory a serving
	// engine takes for weights, activations and KV cache: vLLM's default
	// gpu_memory_utilization is 0.9 (vLLM engine arguments); the rest is
	// the CUDA context, NCCL buffers and fragmentation.
	ServingMemoryShare = 0.9

	// InferenceWorkspaceFraction is the activation workspace of a serving
	// engine, as a share of the weights: the peak of a prefill chunk
	// (vLLM profiles it at start-up with max_num_batched_tokens, 8,192 by
	// default with chunked prefill). 5% is a judgement (1 GiB for an 8B
	// model in bf16); with the 10% vLLM leaves out, it covers the 20% of
	// runtime buffers EleutherAI's Transformer Math 101 adds to the
	// weights.
	InferenceWorkspaceFraction = 0.05

	// InferenceHeadroom is added to the weights of a model without a KV
	// cache (encoder, vision, diffusion and speech models): activations
	// for a moderate batch, the 20% of EleutherAI's Transformer Math 101
	// (1.2 × the weights).
	InferenceHeadroom = 0.20

	// KVBytesPerElement is the KV cache's storage per element: 2 bytes
	// (bf16 or fp16, vLLM's default cache dtype "auto"); 1 for fp8 models.
	KVBytesPerElement    = 2
	KVBytesPerElementFP8 = 1

	// ApproxKVBytesPerToken and ApproxKVExponent estimate the KV cache of a
	// language model without architecture facts: 128 KiB per token at
	// 16 bits for an 8B model, scaled by (active parameters / 8B) ^ 0.42,
	// the power law through Llama 3.1 8B (128 KiB) and 70B (320 KiB), both
	// with grouped-query attention and 8 KV heads; it gives 661 KiB for
	// 405B (the real 504 KiB) and 58 KiB for 1.2B (32 KiB), erring high.
	ApproxKVBytesPerToken = 131072
	ApproxKVExponent      = 0.42

	// InferenceSystemMemoryFactor: a VM that serves a model needs system
	// RAM of at least 150% of the model weights ("What are compute targets
	// in Azure Machine Learning?": "Start with a machine that has 150% of
	// the RAM your model requires"). When the model is split over several
	// VMs, each holds its share.
	InferenceSystemMemoryFactor = 1.5

	// MaxParametersBillion bounds model.parameters_billion (100 trillion).
	MaxParametersBillion = 100000
)

// sampleActivationBytesPerParameter estimates one training sample's
// activations, per parameter, for a model of each kind without architecture
// facts. Encoder, vision and speech: the SampleActivationBytes formula on
// the catalog's reference models, BERT-large at 512 tokens (24 × 512 × 1024
// × 34 bytes = 428 MB for 0.34B parameters, 1.3), ViT-L/16 at 224 × 224
// (24 × 197 × 1024 × 34 = 165 MB for 0.307B, 0.55) and the Whisper large-v3
// encoder's 1,500 frames (32 × 1500 × 1280 × 34 = 2.1 GB for 1.55B, 1.4).
// Diffusion: 2, a judgement for a UNet at 1024 × 1024 pixels (SDXL, 6.8 GB
// per image), whose convolutions keep far more per parameter than a
// transformer at 224 pixels. "" is a non-generative model of unknown kind.
var sampleActivationBytesPerParameter = map[string]float64{
	catalog.ModelKindEncoder:   1.3,
	catalog.ModelKindVision:    0.55,
	catalog.ModelKindSpeech:    1.4,
	catalog.ModelKindDiffusion: 2,
	"":                         1,
}

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

	// MaxNodesRDMA is the most VMs of one job that needs InfiniBand: RDMA
	// traffic needs the VMs in one placement group, and a scale set with a
	// single placement group holds at most 100 VMs.
	MaxNodesRDMA = 100

	// BatchMPINodesBatchService and BatchMPINodesUserSubscription are the
	// most nodes of a Batch pool with inter-node communication enabled, in
	// an account whose pool allocation mode is BatchService and
	// UserSubscription ("Batch service quotas and limits", pool size
	// limits).
	BatchMPINodesBatchService     = 100
	BatchMPINodesUserSubscription = 80

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
// to price; performance to newer generations and fewer VMs.
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
// Throughput model (throughput.go): time and cost per job

// HPC bounds (HPCBound): what limits the speed of an hpc or htc job.
const (
	// BoundMemoryBandwidth: the solver streams memory (most CFD, weather
	// and sparse solvers): throughput scales with STREAM bandwidth.
	BoundMemoryBandwidth = "memory_bandwidth"
	// BoundCompute: dense arithmetic (HPL-like kernels, many independent
	// compute tasks): throughput scales with FP64 peak.
	BoundCompute = "compute"
	// BoundMemoryCapacity: the problem size is set by memory: throughput
	// scales with memory per VM.
	BoundMemoryCapacity = "memory_capacity"
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

	// DefaultDeadlineHours is the wall time training and fine-tuning are
	// sized to finish in without deadline_hours: 720 hours, 30 days. It
	// scales a job out within the placement limits but never rejects a
	// size: where none meets it, the job runs longer and a warning says
	// how long. MaxDeadlineHours bounds deadline_hours (10 years).
	DefaultDeadlineHours = 720
	MaxDeadlineHours     = 87600

	// MaxTokensPerSecond bounds tokens_per_second.
	MaxTokensPerSecond = 1e9
	// DefaultTimeToFirstTokenMs and DefaultTimePerOutputTokenMs are the
	// latency targets of an interactive service (concurrent_requests
	// stated or defaulted) without stated ones: MLPerf Inference's Server
	// scenario limits for Llama 2 70B, 2 s to the first token and 200 ms
	// per output token (p99 limits there, so lenient as means). Like the
	// default deadline they never remove a size or shape a layout: layouts
	// that miss them rank after those that meet them, with a warning. They
	// are what such a service's latency is scored against (latencyScore).
	DefaultTimeToFirstTokenMs   = 2000
	DefaultTimePerOutputTokenMs = 200
	// LatencyFirstTokenShare is the time to first token's share of a
	// timed service's time component, the time per output token taking
	// the rest: the two weigh alike (judgement).
	LatencyFirstTokenShare = 0.5
	// MaxLatencyTargetMs bounds max_time_to_first_token_ms and
	// max_time_per_output_token_ms: an hour.
	MaxLatencyTargetMs = 3.6e6

	// TrainingFLOPsPerToken is the model FLOPs of one training token per
	// active parameter: 2 forward and 4 backward (Kaplan et al. 2020,
	// arXiv 2001.08361; EleutherAI's Transformer Math 101). Where the
	// architecture is known the attention term 6 × layers × context ×
	// hidden is added per token (Kaplan et al. Table 1: 2 n_layer n_ctx
	// d_attn forward). LoRAFLOPsPerToken is the same for LoRA and QLoRA:
	// the frozen weights need no weight gradients, so the backward pass is
	// half of full training's (2 forward + 2 backward).
	TrainingFLOPsPerToken = 6
	LoRAFLOPsPerToken     = 4

	// TrainingMFU is the model FLOPs utilization of training on NVIDIA
	// data-center GPUs (V100, A100, H100, H200, GB200, GB300) on NVLink
	// inside a VM and InfiniBand across VMs: 40%, the middle of the Llama 3
	// paper's 38% to 43% on 16,384 H100s in bf16 (Dubey et al. 2024, arXiv
	// 2407.21783, Table 4) and Megatron-LM's 41.5% to 56% on A100s
	// (Korthikanti et al. 2022, Table 5, at 22B to 1T). OtherTrainingMFU
	// is the same for the other GPUs (the AMD MI300X, whose training
	// stacks publish less; inference and graphics GPUs): 30%, a judgement.
	// Each GPU's figure is catalog data (training_mfu in performance.json,
	// decision D48); OtherTrainingMFU applies to a GPU the catalog gives
	// none.
	TrainingMFU      = 0.40
	OtherTrainingMFU = 0.30

	// PCIeTrainingFactor scales MFU on several GPUs of a VM without NVLink
	// (gradient all-reduce over PCIe); PartialGPUTrainingFactor on a
	// share of a GPU (vGPU scheduling); EthernetTrainingFactor across VMs
	// without InfiniBand (interconnect = "any"). Judgements, after the
	// Azure HPC guidance that InfiniBand is what multi-VM training needs.
	PCIeTrainingFactor       = 0.8
	PartialGPUTrainingFactor = 0.8
	EthernetTrainingFactor   = 0.5

	// InferenceMBU is the share of the GPUs' memory bandwidth a decode step
	// achieves reading the weights and the KV cache (model bandwidth
	// utilization; Databricks/Mosaic, "LLM Inference Performance
	// Engineering: Best Practices", 2023, reports 55% to 60% on A100 and
	// H100).
	InferenceMBU = 0.60

	// DecodeMFU and PrefillMFU are the shares of the GPUs' dense peak a
	// decode step's arithmetic and a prompt's prefill achieve on the GPUs
	// of TrainingMFU's class, scaled for another GPU by its training MFU
	// over TrainingMFU (the MI300X's 30%: three quarters). Fitted, the two
	// constants of the serving model, to the published measurements of
	// package servingbench (internal/servingbench, whose test checks them
	// and whose table the ranking guide shows): 50% and 40% give a median
	// absolute error of 23% over its rows.
	DecodeMFU  = 0.50
	PrefillMFU = 0.40

	// AllReduceSeconds is the time of one tensor-parallel all-reduce of a
	// decode step's activations, which are small: its latency, 15 µs, a
	// judgement within the 10 to 30 µs nccl-tests report for small
	// messages inside an NVLink domain. A step waits for two per layer.
	AllReduceSeconds = 15e-6

	// WidthPerLayer is the model width per layer that estimates the layers
	// of a model without architecture facts: 128, Llama's (4,096 / 32 for
	// 8B, 8,192 / 80 for 70B, 16,384 / 126 for 405B).
	WidthPerLayer = 128

	// MaxBatchSequences is the most sequences one GPU of a copy decodes
	// together: vLLM's default max_num_seqs, 256, per GPU of the copy (a
	// copy over eight GPUs runs up to 2,048, TensorRT-LLM's default
	// max_batch_size). More concurrent requests take more copies. With
	// tokens_per_second, each copy is taken to run as many sequences as
	// its KV cache holds, up to this (a service that must sustain a
	// throughput has the requests in flight to fill its copies).
	MaxBatchSequences = 256

	// CPUStreamEfficiency is the share of a CPU VM's STREAM triad
	// bandwidth a decode step of a small model achieves reading its
	// weights: 80%, a judgement (a decode step streams the weights through
	// matrix-vector products as STREAM streams its arrays, with fewer
	// writes).
	CPUStreamEfficiency = 0.80

	// CPUComputeEfficiency is the share of a CPU VM's FP32 rate a small
	// model's decode and prefill arithmetic achieve: 30%, a judgement
	// (matrix products at the batch sizes of serving keep the vector
	// units far from their peak).
	CPUComputeEfficiency = 0.30

	// CPUFP32PerFP64 is a CPU core's FP32 FLOPs per FP64 FLOP: 2, its
	// vector units holding twice as many single-precision lanes (AVX2,
	// AVX-512).
	CPUFP32PerFP64 = 2
)
