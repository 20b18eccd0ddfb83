// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// Model describes the model of a training, fine-tuning or inference job.
type Model struct {
	// Name is a model of the catalog's model table, by id or display name,
	// case-insensitive; "" means none. It supplies the parameter counts,
	// the architecture (layers, KV heads, head dimension, attention kind)
	// and the published precision.
	Name string
	// ParametersBillion is the parameter count in billions (70 for a 70B
	// model). 0 means unknown (or, with Name, the table's count).
	ParametersBillion float64
	// ActiveParametersBillion is the parameters one token uses, for a
	// mixture-of-experts model described without Name; 0 means all.
	ActiveParametersBillion float64
	// Precision is one of Precisions; "" means the published precision of
	// the named model, else bf16.
	Precision string
	// ForwardGFLOPs is the forward pass of one sample (an image, a
	// denoising step, an audio segment) of a vision, diffusion or speech
	// model, GFLOPs; 0 means the model table's (none for an unnamed
	// model).
	ForwardGFLOPs float64
	// Class is one of ModelClasses; "" means the named model's (generative
	// for language models, nongenerative for the others), else generative.
	Class string
}

// Request is the input of Recommend. Pointer fields are optional (nil means
// not set); string enums accept "" for their default.
type Request struct {
	Workload string // one of Workloads (required)
	Model    *Model

	// FineTuningMethod is one of FineTuningMethods (fine_tuning only); ""
	// means full, or qlora for int4 and lora for int8 models.
	FineTuningMethod string
	// ContextTokens is the tokens of one sequence: the longest prompt plus
	// output for inference, which sizes the KV cache; the sequence length
	// for training and fine-tuning. nil means PromptTokens + OutputTokens
	// for inference when either is set, else DefaultContextTokens; capped
	// at the model's maximum context.
	ContextTokens *int64
	// PromptTokens and OutputTokens are the mean prompt and output tokens
	// of one request (inference only). nil means the other's share of
	// the default split (DefaultOutputShare), or the split of the context.
	PromptTokens, OutputTokens *int64
	// ConcurrentRequests is the sequences in flight across the service
	// (inference only); nil means DefaultConcurrentRequests.
	ConcurrentRequests *int64
	// TrainingBatchSize is the sequences or samples each GPU processes per
	// step (training and fine-tuning); nil means the model kind's default.
	TrainingBatchSize *int64

	// TokensBillion is the tokens a training or fine-tuning job processes
	// (dataset × epochs), in billions; nil means the default budget
	// (ChinchillaTokensPerParameter for training,
	// DefaultFineTuningTokensBillion for fine-tuning).
	TokensBillion *float64
	// SamplesMillion is the samples a training or fine-tuning job of a
	// vision, diffusion or speech model processes (dataset × epochs), in
	// millions; nil means DefaultVisionSamplesMillion for a vision model
	// and no timing for the others.
	SamplesMillion *float64
	// DeadlineHours is the wall time a training or fine-tuning job must
	// finish in; nil means DefaultDeadlineHours, which never rejects a
	// size (the job then runs longer, with a warning).
	DeadlineHours *float64
	// TokensPerSecond is the output tokens per second an inference service
	// must sustain across its replicas; nil means none. A service stated
	// only by it is a batch service: no default latency targets.
	TokensPerSecond *float64
	// RequestsPerSecond is the mean arrival rate of requests to the whole
	// service (all copies), per second; nil means none. Its load in tokens
	// is RequestsPerSecond × the output tokens of a request. Exclusive with
	// TokensPerSecond. With a load (either) and no ConcurrentRequests, the
	// requests in flight are derived from it (Little's law).
	RequestsPerSecond *float64
	// MaxTimeToFirstTokenMs and MaxTimePerOutputTokenMs are the mean time
	// to the first output token and per output token after it that an
	// inference service must meet, in milliseconds; nil means none. The
	// layout search keeps only layouts that meet them, and a size none of
	// whose layouts does is removed.
	MaxTimeToFirstTokenMs, MaxTimePerOutputTokenMs *float64
	// MinReplicas is the copies of a served model that must run on
	// separate VMs, for availability (inference only): the layout takes at
	// least MinReplicas × pipeline stages VMs. nil means 1.
	MinReplicas *int64
	// HPCBound is what bounds an hpc or htc job (one of HPCBounds); ""
	// means memory_bandwidth for hpc and compute for htc.
	HPCBound string
	// ParallelEfficiency is the parallel efficiency the team measured for
	// an hpc or htc job on Nodes VMs (on any VM count above 1 without
	// Nodes); nil means the fitted curve. See hpc_model.go.
	ParallelEfficiency *float64
	// ReferenceRun is a run of the job the team measured (hpc, htc): every
	// layout gets job hours and cost from the model's ratio to it. nil
	// means none: relative throughput only.
	ReferenceRun *ReferenceRun
	// LicenseCostPerCoreHour is the USD per core per hour of a solver
	// licensed per core (hpc, htc), added to the job's cost on the cores
	// each layout runs; nil means none.
	LicenseCostPerCoreHour *float64

	GPUMemoryGiB *float64 // total GPU memory the job needs; overrides the estimate
	GPUs         *int64   // minimum whole GPUs per job
	Nodes        *int64   // fixed number of VMs
	// MaxNodes caps the VMs of any layout: the whole job, or every copy
	// of a service; nil means no cap beyond MaxNodes.
	MaxNodes        *int64
	Cores           *int64   // total cores per job (hpc, htc)
	MinVCPUs        *int64   // per VM
	MinMemoryGiB    *float64 // per VM
	TotalMemoryGiB  *float64 // per job, spread over its VMs (hpc, htc)
	MinLocalDiskGiB *float64 // per VM: temporary disk plus local NVMe

	Interconnect         string   // "" or one of Interconnects
	GPUVendor            string   // "" or one of GPUVendors
	GPUModels            []string // catalog GPU model ids or names, case-insensitive
	CUDAVersion          string   // toolkit version the software needs, e.g. "12.0"
	MinComputeCapability string   // e.g. "8.0"

	Target string // "" or one of Targets
	Region string // catalog region name, e.g. "eastus"
	// Regions are the regions the job may run in (exclusive with Region):
	// each size is placed in the best of them that offers it (deployable,
	// then with quota, then with spot selling Spot VMs of it, then
	// cheapest), and Recommendation.PriceRegion names it.
	Regions []string
	// Usage is the subscription's vCPU usage per lower-case region, from
	// the provider's usage_files; nil without them. RequireQuota removes
	// the sizes whose quota is insufficient (constraint quota).
	Usage        map[string]*catalog.Usage
	RequireQuota bool

	MaxPricePerHour      *float64 // USD per VM
	MaxTotalPricePerHour *float64 // USD for all VMs of the job
	Spot                 bool     // price with spot prices where known

	MinLifetimeMonths *int64 // nil means DefaultMinLifetimeMonths
	IncludePreview    bool
	// IncludeOnRequest keeps sizes Azure offers on request (catalog
	// OnRequest), which the on_request constraint otherwise removes.
	IncludeOnRequest bool
	Confidential     *bool // true: confidential sizes only; nil or false: none
	Isolated         *bool // true: isolated only; false: not isolated; nil: either

	OptimizeFor string   // "" or one of OptimizeFors
	MaxResults  *int64   // nil means DefaultMaxResults; 1..MaxResultsLimit
	Prefer      []string // ordered size names; the first that fits is rank 1

	// AsOf is the provider's date, for lifecycle checks and warnings. Zero
	// means the catalog's data date.
	AsOf time.Time
}

// ReferenceRun is a run of an hpc or htc job the team measured.
type ReferenceRun struct {
	// VMSize is any HPC or CPU size of the catalog, retired or outside the
	// request's region or filters: a measurement, not a candidate.
	VMSize string
	Nodes  int64   // VMs it ran on
	Hours  float64 // its wall time
	// Cores is the ranks it ran, spread evenly over exactly Nodes VMs;
	// nil means every core of its VMs.
	Cores *int64
}

// FieldError is one problem with one input attribute.
type FieldError struct {
	// Path names the attribute, e.g. {"model", "precision"}. An element
	// made of digits is a list index, e.g. {"prefer", "1"}.
	Path []string
	// Summary is a short Title Case heading; Detail full sentences naming
	// the allowed values or the fix.
	Summary, Detail string
	// Kind says what Recommend does about the problem; callers match on it,
	// never on the Summary text.
	Kind FieldErrorKind
	// Soft is Kind != KindInvalid: each value is valid on its own, and
	// Recommend goes on (KindNoMatch, KindIgnored). Recommend refuses a
	// request, with a *ValidationError, only for the others.
	Soft bool
}

// FieldErrorKind classifies a FieldError by what Recommend does about it.
type FieldErrorKind uint8

const (
	// KindInvalid: the value cannot be interpreted (an unknown enum value,
	// a number out of range, a malformed version, a region, GPU model or
	// model the catalog does not know). Recommend refuses the request with
	// a *ValidationError, before any ranking.
	KindInvalid FieldErrorKind = iota
	// KindNoMatch: the value is valid on its own, but no size can match
	// it: it contradicts another input (gpu_vendor = "amd" with
	// cuda_version, a GPU model of another vendor). Recommend goes on; when
	// no size fits, every size fails a constraint and it returns a
	// *NoFitError.
	KindNoMatch
	// KindIgnored: the workload does not use the input (model for hpc,
	// cores for a GPU workload) or the catalog does not know a prefer
	// entry. Recommend ignores it and adds a result warning.
	KindIgnored
)

// MemoryEstimate is the memory a model needs for a workload, with its
// parts: the memory model's estimate (perfmodel.EstimateMemory).
type MemoryEstimate = perfmodel.MemoryEstimate

// Result is the output of Recommend.
type Result struct {
	Requirements    Requirements
	Recommendations []Recommendation
	// Rejected has one entry per constraint that removed sizes, in the
	// order of Constraints; each size is counted under the first
	// constraint it fails.
	Rejected []Rejection
	// Warnings are for the whole result (Terraform warning diagnostics).
	Warnings []Warning
}

// Requirements is what the engine derived from the request.
type Requirements struct {
	Workload           string
	Category           string // gpu, cpu or hpc
	PreferredFamilies  []string
	AcceptableFamilies []string
	FallbackFamilies   []string
	GPUMemoryGiB       *float64        // total GPU memory the job needs
	Memory             *MemoryEstimate // nil without a model
	SystemMemoryGiB    *float64        // total system RAM the job needs
	// Nodes and Interconnect are those of the top recommendation: VMs per
	// job, and "infiniband" when it needs InfiniBand, "any" otherwise.
	Nodes         int64
	Interconnect  string
	MinGPUsPerJob *float64
	Cores         *int64
	Precision     string
	ModelClass    string
	// Model is the catalog model id; "" without model.name.
	Model string
	// FineTuningMethod, ContextTokens, ConcurrentRequests, KVCacheGiB and
	// KVBytesPerToken as the estimate used them; zero where they do not
	// apply.
	FineTuningMethod   string
	ContextTokens      int64
	ConcurrentRequests int64
	KVCacheGiB         float64
	KVBytesPerToken    float64
	// TrainingTokensBillion and TrainingFLOPs are the work of a training or
	// fine-tuning job; TokenBudget says where the tokens came from
	// ("tokens_billion", or the default that was assumed). DeadlineHours
	// is the deadline used (stated or DefaultDeadlineHours).
	TrainingTokensBillion float64
	TrainingFLOPs         float64
	TokenBudget           string
	// TrainingSamplesMillion is the samples of a job timed by samples (the
	// input or its default); 0 otherwise. TokenBudget then says where
	// they came from.
	TrainingSamplesMillion float64
	DeadlineHours          float64
	// PromptTokens and OutputTokens are a served request's mean prompt and
	// output as the step model used them; TokenSplit says where they came
	// from (given, or the default split and its source). Zero and "" where
	// no language model is served.
	PromptTokens, OutputTokens int64
	TokenSplit                 string
	// MaxTimeToFirstTokenMs and MaxTimePerOutputTokenMs are the stated
	// latency targets; 0 where none.
	MaxTimeToFirstTokenMs, MaxTimePerOutputTokenMs float64
	// MinReplicas is the copies on separate VMs the layouts hold (the
	// input or its default, 1), timed or not; 0 where no model whose
	// memory the engine estimates is served.
	MinReplicas int64
	// TokensPerSecond is the inference load in output tokens per second
	// (tokens_per_second, or requests_per_second × output tokens);
	// RequestsPerSecond the stated arrival rate (0 where none). HPCBound
	// the bound used for hpc and htc.
	TokensPerSecond   float64
	RequestsPerSecond float64
	HPCBound          string
	// Efficiency is the top recommendation's Estimate.Efficiency.
	Efficiency  float64
	OptimizeFor string
	Target      string
	AsOf        time.Time
	// Defaults maps each input the engine chose a value for on the user's
	// behalf (an unset input the job uses, or a context above the model's
	// maximum) to the value used, as text: "model.precision": "bf16".
	Defaults    map[string]string
	Explanation []string
}

// Recommendation is one ranked size.
type Recommendation struct {
	Rank   int64
	Score  float64 // 0-100, one decimal
	VMSize string
	SKU    *catalog.SKU
	Nodes  int64
	// Replicas is the copies of the model serving in parallel (inference;
	// 1 otherwise). TensorParallel is the GPUs one copy is split over
	// inside a VM, PipelineStages the VMs one copy spans (1 when it fits
	// one VM); both 0 when the job has no model or GPU memory need. A
	// small model served on CPU runs one copy on each VM: Replicas is
	// the VMs, TensorParallel 0 and PipelineStages 1.
	Replicas          int64
	TensorParallel    int64
	PipelineStages    int64
	GPUsPerNode       float64
	TotalGPUs         float64
	TotalGPUMemoryGiB float64
	// PricePerHour is per VM; TotalPricePerHour for all VMs; nil when the
	// catalog has no price (in the region, or anywhere).
	PricePerHour, TotalPricePerHour, PricePerGPUHour *float64
	PriceIsSpot                                      bool
	// PriceRegion is the size's region: the requested region, the one
	// chosen among Regions, or without either the best of the regions
	// that price it, chosen the same way; "" when the size has no price and
	// no region was requested.
	PriceRegion string
	PriceSource string
	// Preferred is true when `prefer` put this size first.
	Preferred  bool
	Reasons    []string
	Warnings   []string
	Deployment deploy.Deployment
	// Quota is the layout's vCPU quota in its region; nil without usage
	// files.
	Quota *Quota
	// Estimate is the time and cost of the job on this layout; nil when
	// the request defines no work to estimate.
	Estimate *Estimate
}

// Estimate is the throughput, time and cost of a job on one layout. A nil
// figure is one the inputs do not define.
type Estimate struct {
	// JobHours and JobCostUSD are the wall time and the cost of the whole
	// job (training and fine-tuning; hpc and htc with a reference run,
	// the cost with the licences).
	JobHours, JobCostUSD *float64
	// TokensPerSecond is the whole job's: tokens processed (training and
	// fine-tuning) or output tokens of every replica serving the stated
	// concurrency (inference). CostPerMillionTokens is the price of a
	// million of them.
	TokensPerSecond, CostPerMillionTokens *float64
	// SamplesPerSecond is the whole job's samples per second, for training
	// and fine-tuning timed by samples (vision, diffusion, speech).
	SamplesPerSecond *float64
	// TimeToFirstTokenMs and TimePerOutputTokenMs are a request's mean
	// time to its first output token (its wait for a copy included) and
	// per output token after it, at the stated load (idle without one);
	// RequestsPerSecond the requests the service completes per second at
	// its capacity (inference).
	TimeToFirstTokenMs, TimePerOutputTokenMs, RequestsPerSecond *float64
	// SequencesPerCopy is the most sequences one copy decodes together
	// (the engine's max_num_seqs); ConcurrentRequests the requests in the
	// service at the load (Little's law) or the stated or default
	// concurrency (inference).
	SequencesPerCopy, ConcurrentRequests *int64
	// RelativeThroughput is the layout's throughput by HPCBound relative
	// to the best candidate of the request (hpc, htc).
	RelativeThroughput *float64
	// LicenseCostUSD is the per-core licence cost of the whole job (hpc,
	// htc with a reference run and license_cost_per_core_hour);
	// LicenseCostPerHour the same per hour without a reference run.
	LicenseCostUSD, LicenseCostPerHour *float64
	// Efficiency is the model FLOPs utilization (training, inference
	// prefill) or parallel efficiency (hpc, htc) the estimate used.
	Efficiency float64
	// Assumptions are the formula, constants and facts, in sentences.
	Assumptions []string
}

// Rejection counts the sizes one hard constraint removed.
type Rejection struct {
	Constraint string // one of Constraints
	Count      int64
	Examples   []string // up to 3 names, in catalog order
	Reason     string
}

// Warning is a result-level warning.
type Warning struct {
	Summary, Detail string
}

// NearestMiss is the best size that failed the fewest relaxable constraints
// (exactly one when such a size exists).
type NearestMiss struct {
	VMSize            string
	FailedConstraint  string   // the first (usually only) failed constraint
	FailedConstraints []string // all of them
	Relax             string   // what to change, in a sentence
}

// The quota statuses, best first: the order of the ranking.
const (
	QuotaSufficient   = "sufficient"
	QuotaUnknown      = "unknown"
	QuotaInsufficient = "insufficient"
)

// Quota is a recommendation's vCPU quota in its region.
type Quota struct {
	// Family is the size's quota family; "" when neither the catalog nor
	// the availability file knows it.
	Family string
	// VCPUsNeeded is the layout's VMs times the size's quota vCPUs.
	VCPUsNeeded int64
	// FamilyVCPUsAvailable is the family's limit minus its usage; nil for
	// Spot (which counts against the low-priority total only) or where the
	// usage file does not list the family. RegionalVCPUsAvailable is the
	// regional total's (low-priority total's, for Spot); nil where the
	// region has no usage file.
	FamilyVCPUsAvailable, RegionalVCPUsAvailable *int64
	// Status is QuotaSufficient, QuotaUnknown (no usage file for the
	// region, or the family is not in it) or QuotaInsufficient (even the
	// smallest layout that holds the job, or the stated nodes or deadline,
	// exceeds the quota).
	Status string
}

func fe(summary, detail string, path ...string) FieldError {
	return FieldError{Path: path, Summary: summary, Detail: detail}
}
