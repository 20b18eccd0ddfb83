// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// groupDigits writes n with a comma between groups of three digits
// (1000000 as 1,000,000), as the engine writes counts.
var groupDigits = catalog.GroupDigits

func quoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

var versionRE = regexp.MustCompile(`^\d+\.\d+$`)

func recommendationInputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"workload": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "What the job does: " + quoted(recommend.Workloads()) + ". `hpc` is tightly coupled MPI; `htc` is throughput of independent tasks; `data_processing` is GPU dataframes (RAPIDS-style).",
			Validators:          []validator.String{oneOf(recommend.Workloads()...)},
		},
		"model": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "The AI model, for `training`, `fine_tuning` and `inference`. Its size, precision and, for a named model, its architecture drive the GPU memory estimate. " +
				"Set `name` or `parameters_billion` (or both).",
			Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{
					Optional:            true,
					MarkdownDescription: modelNameDescription(),
					Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
				},
				"parameters_billion": schema.Float64Attribute{
					Optional: true,
					MarkdownDescription: "Parameters in billions, for example `7` or `1.3`. Must be greater than zero. " +
						"Required without `name`; with `name` it defaults to the model table's count (a different value is used, with a warning).",
					Validators: []validator.Float64{
						inRange(recommend.RangeParametersBillion),
						float64validator.AtLeastOneOf(path.MatchRoot("model").AtName("name")),
					},
				},
				"active_parameters_billion": schema.Float64Attribute{
					Optional: true,
					MarkdownDescription: "For a mixture-of-experts model described without `name`: the parameters one token uses, in billions (for example `12.9` for Mixtral 8x7B), " +
						"at most `parameters_billion`. It scales the KV cache estimate; the weights still count every parameter. Defaults to all of them, or with `name` to the model table's count.",
					Validators: []validator.Float64{inRange(recommend.RangeActiveParametersBillion)},
				},
				"precision": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "Numeric precision of the weights: " + quoted(recommend.Precisions()) + ". " +
						"Defaults to the precision the named model is published in, else `" + recommend.DefaultPrecision + "`. " +
						"`fp4`, `int8` and `int4` cannot be trained: `training` and full fine-tuning need `bf16`, `fp16`, `fp8`, `tf32` or `fp32`.",
					Validators: []validator.String{oneOf(recommend.Precisions()...)},
				},
				"class": schema.StringAttribute{
					Optional: true,
					MarkdownDescription: "Kind of model, the three columns of Microsoft's guidance table: " + quoted(recommend.ModelClasses()) + ". `small` models run on CPU sizes. " +
						"Defaults to the named model's (`generative` for language models, `nongenerative` for the others), else `" + recommend.DefaultClass + "`.",
					Validators: []validator.String{oneOf(recommend.ModelClasses()...)},
				},
				"forward_gflops": schema.Float64Attribute{
					Optional: true,
					MarkdownDescription: "The forward pass of one sample (an image, one denoising step, an audio segment) of a vision, diffusion or speech model, in GFLOPs (a multiply-add is 2 FLOPs), greater than 0 and at most " + groupDigits(int64(recommend.MaxForwardGFLOPs)) + ". " +
						"With `samples_million` it times `training` and `fine_tuning` of a model the table does not have (`class = \"nongenerative\"`), or replaces the table's figure (`hpcsku_models` lists it as `forward_gflops`). " +
						"For a language model, an encoder or `inference` it is an error.",
					Validators: []validator.Float64{inRange(recommend.RangeForwardGFLOPs)},
				},
			},
		},
		"fine_tuning_method": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How `fine_tuning` trains the model: " + quoted(recommend.FineTuningMethods()) + ". " +
				"`full` trains every parameter (weights, gradients, an fp32 master copy and Adam's moments); `lora` trains small adapters on a frozen base at the model's precision (an `fp4` base upcast to bf16); " +
				"`qlora` trains adapters on a frozen 4-bit (NF4) base. Defaults to `" + recommend.MethodQLoRA + "` for an `int4` or `fp4` model, `" + recommend.MethodLoRA + "` for an `int8` model and `" + recommend.MethodFull + "` otherwise. " +
				"Only for workload `fine_tuning`; anywhere else it is an error.",
			Validators: []validator.String{oneOf(recommend.FineTuningMethods()...)},
		},
		"context_tokens": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Tokens of one sequence of a language model, 1 to " + groupDigits(recommend.MaxContextTokens) + ": prompt plus output for `inference` (it sizes the KV cache), " +
				"the sequence length for `training` and `fine_tuning` (it sizes the activations of one micro-batch, which every GPU keeps whole: a context whose activations no GPU holds is not placed, as context parallelism is not modelled). " +
				"Defaults to `" + strconv.Itoa(recommend.DefaultContextTokens) + "`, capped at the named model's maximum context. " +
				"For `inference`, a stated value above the named model's maximum context is an error that names the maximum (the serving engines refuse a longer context), as a `prompt_tokens` plus `output_tokens` above it is; for `training` and `fine_tuning` the estimate caps it. " +
				"Only for the workloads `training`, `fine_tuning` and `inference`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangeContextTokens)},
		},
		"concurrent_requests": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Sequences the service holds in flight at once across all its copies of the model, 1 to " + groupDigits(recommend.MaxConcurrentRequests) + ": each keeps `context_tokens` of KV cache; a request to an encoder-decoder speech model (Whisper) keeps its decoder's cache, self-attention over the decoder's most tokens and cross-attention over the encoder's positions (0.30 GiB for Whisper large-v3), and the copies, untimed, hold every request's. " +
				"When one VM cannot hold the KV cache of them all, the service gets more copies of the model (`recommendations[*].replicas`). Stating it makes the service interactive (each latency target not stated takes its default); with a load (`tokens_per_second`, `requests_per_second`) it is a floor on the KV cache the copies hold, not the batch that carries the load. " +
				"Defaults to `" + strconv.Itoa(recommend.DefaultConcurrentRequests) + "` without a load, and for an encoder-decoder speech model, whose load is not used; with one, the requests in flight of a language model are derived from it (Little's law), and `requirements.concurrent_requests` reports them. An encoder, vision or diffusion model keeps no cache per request and does not use it (a warning says so). " +
				"Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangeConcurrentRequests)},
		},
		"prompt_tokens": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Mean prompt tokens of one request to a served language model, 1 to " + groupDigits(recommend.MaxContextTokens) + ": prefill work, which sets the time to first token and shares the GPUs with decoding. " +
				"Without it, it follows `output_tokens` or the context by the default split of one output token in eight (Azure's production conversation traces; `requirements.token_split` says which). " +
				"Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangePromptTokens)},
		},
		"output_tokens": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Mean output tokens of one request to a served language model, 1 to " + groupDigits(recommend.MaxContextTokens) + ": the decode steps a request takes. " +
				"Without it, it follows `prompt_tokens` or the context by the default split. With `prompt_tokens` and `output_tokens` and no `context_tokens`, the context is their sum; " +
				"a stated `context_tokens` shorter than their sum is an error, and so is a sum longer than the named model's maximum context (the serving engines refuse such requests; a count derived by the split stays within it). Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangeOutputTokens)},
		},
		"max_time_to_first_token_ms": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "Mean time to a request's first output token the service must meet, in milliseconds, greater than 0 and at most " + groupDigits(int64(recommend.MaxLatencyTargetMs)) + ". " +
				"The layout search keeps only layouts whose step-model estimate meets it, adding copies so that each decodes fewer requests; a size none of whose layouts does is removed (constraint `max_time_to_first_token_ms`), and the nearest miss gives the time it can reach. " +
				"Without it, an interactive service (one that states `concurrent_requests`, `requests_per_second` or the other target, or no load at all) is held to a default of " + groupDigits(recommend.DefaultTimeToFirstTokenMs) + " ms, which shapes its layout where some layout meets it and ranks the layouts that miss it after those that meet it, with a warning, but removes no size; a batch service stated only by `tokens_per_second` has none. " +
				"Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeMaxTimeToFirstToken)},
		},
		"max_time_per_output_token_ms": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "Mean time per output token after the first the service must meet, in milliseconds (1,000 ÷ the tokens per second each user sees), greater than 0 and at most " + groupDigits(int64(recommend.MaxLatencyTargetMs)) + ". " +
				"Applied like `max_time_to_first_token_ms` (constraint `max_time_per_output_token_ms`). Without it, an interactive service is held to a default of " + groupDigits(recommend.DefaultTimePerOutputTokenMs) + " ms, as `max_time_to_first_token_ms` to its default: no size removed. Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeMaxTimePerOutputToken)},
		},
		"min_replicas": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Copies of the served model that must run on separate VMs, for availability, 1 to " + groupDigits(recommend.MaxNodes) + ": each layout takes at least `min_replicas` × `pipeline_parallel_size` VMs, and the requests are spread over every copy. It holds for a model the throughput model does not time (an encoder, vision, diffusion or speech model) too, whose latency targets and load are not used. " +
				"Defaults to `1`. Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangeMinReplicas)},
		},
		"training_batch_size": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Sequences or samples each GPU processes per step (the micro-batch), 1 to " + groupDigits(recommend.MaxTrainingBatchSize) + ". " +
				"It sizes the activations each GPU keeps: a language model's (full training, `lora` and `qlora`) and those of the models trained with plain data parallelism (encoder, vision, diffusion, speech). " +
				"Defaults by model kind: " + strconv.FormatInt(recommend.DefaultTrainingBatchSize(catalog.ModelKindGenerative), 10) + " sequence for language models, " +
				strconv.FormatInt(recommend.DefaultTrainingBatchSize(catalog.ModelKindEncoder), 10) + " samples for encoders, " +
				strconv.FormatInt(recommend.DefaultTrainingBatchSize(catalog.ModelKindVision), 10) + " for vision, " +
				strconv.FormatInt(recommend.DefaultTrainingBatchSize(catalog.ModelKindSpeech), 10) + " for speech and " +
				strconv.FormatInt(recommend.DefaultTrainingBatchSize(catalog.ModelKindDiffusion), 10) + " for diffusion models. " +
				"Only for the workloads `training` and `fine_tuning`; anywhere else it is an error.",
			Validators: []validator.Int64{inRange(recommend.RangeTrainingBatchSize)},
		},
		"tokens_billion": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "Tokens the job processes (dataset tokens × epochs), in billions, greater than 0 and at most " + groupDigits(recommend.MaxTokensBillion) + ". " +
				"It sets the work the throughput model times: training FLOPs = " + strconv.Itoa(perfmodel.TrainingFLOPsPerToken) + " (`lora` and `qlora`: " + strconv.Itoa(perfmodel.LoRAFLOPsPerToken) + ") × active parameters × tokens, " +
				"plus the attention term for a named model, and so `recommendations[*].estimate.job_hours` and `job_cost_usd`. " +
				"Defaults to " + strconv.Itoa(recommend.ChinchillaTokensPerParameter) + " tokens per parameter for `training` (compute-optimal, Hoffmann et al. 2022) and " +
				strconv.FormatFloat(recommend.DefaultFineTuningTokensBillion, 'f', -1, 64) + " billion tokens for `fine_tuning` (`requirements.token_budget` says which applied). " +
				"It times language models and encoders; vision, diffusion and speech models are timed by `samples_million`. " +
				"Only for the workloads `training` and `fine_tuning`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeTokensBillion)},
		},
		"samples_million": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "Samples a vision, diffusion or speech model's job processes (images, denoising steps of one image, audio segments: dataset × epochs), in millions, greater than 0 and at most " + groupDigits(recommend.MaxSamplesMillion) + ". " +
				"It sets the work the throughput model times: training FLOPs = (" + strconv.Itoa(perfmodel.SampleTrainingFactor) + " (`lora` and `qlora`: " + strconv.Itoa(perfmodel.LoRASampleFactor) + ") × the forward FLOPs of one sample + the frozen encoders' forward) × samples, " +
				"with the forward FLOPs from the model table or `model.forward_gflops`, and so `recommendations[*].estimate.job_hours`, `job_cost_usd` and `samples_per_second`. " +
				"Defaults to " + strconv.FormatFloat(recommend.DefaultVisionSamplesMillion, 'f', -1, 64) + " for a vision model (ImageNet-1k × 90 epochs); a diffusion or speech model, or an unnamed one, is not timed without it, and its sizes rank by the FLOP/s the training model gives them per USD, with a warning. " +
				"Only for `training` and `fine_tuning` of a vision, diffusion or speech model (an unnamed one with `model.class = \"nongenerative\"`); with `tokens_billion`, for a language model or an encoder, or anywhere else, it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeSamplesMillion)},
		},
		"deadline_hours": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "Wall time, in hours, the job must finish in, greater than 0 and at most " + groupDigits(recommend.MaxDeadlineHours) + ". " +
				"Each size scales out to meet it within the VMs one job may span (with InfiniBand, its series' span: the MPI job size its page states, such as 300 VMs on HBv4, 504 in whole racks on the rack-scale ND GB200 and GB300 v6, else " + strconv.Itoa(recommend.MaxNodesRDMA) + " VMs in one scale set's single placement group; at most " + strconv.Itoa(deploy.AvailabilitySetVMs) + " in target `vm`'s availability set, which the rack-scale sizes do not use, and " + strconv.Itoa(deploy.BatchMPINodesBatchService) + " in a Batch pool (" + strconv.Itoa(deploy.BatchMPINodesUserSubscription) + " with `spot`, in the user-subscription account Batch runs Spot VMs in); one VM without InfiniBand, unless `interconnect` is `any`) and `max_nodes`, " +
				"and sizes that cannot meet it are removed (constraint `deadline`). " +
				"Defaults to " + strconv.Itoa(recommend.DefaultDeadlineHours) + " hours (30 days), which never removes a size: where a size cannot meet it the job runs longer, " +
				"with a warning, and ranks after the layouts that meet it. " +
				"Only for the workloads `training` and `fine_tuning`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeDeadlineHours)},
		},
		"tokens_per_second": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "The load in output tokens per second across all the service's copies of the model, greater than 0 and at most " + groupDigits(int64(recommend.MaxTokensPerSecond)) + ". " +
				"Each size gets the copies that carry it at no more than " + strconv.Itoa(int(perfmodel.MaxUtilization*100)) + "% of their capacity (`recommendations[*].replicas`), each decoding the largest batch its KV cache holds within the latency targets. " +
				"Stated alone, without a latency target, `concurrent_requests` or `requests_per_second`, it describes a batch service, which no default latency target holds. " +
				"A size that would need more than " + groupDigits(recommend.MaxNodes) + " VMs is removed (constraint `tokens_per_second`). " +
				"No default: without a load the service is sized for `concurrent_requests` alone, and `recommendations[*].estimate.tokens_per_second` says what that layout sustains. " +
				"Exclusive with `requests_per_second`. Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeTokensPerSecond)},
		},
		"requests_per_second": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "The load as the mean arrival rate of requests to the whole service (all its copies), requests per second, greater than 0 and at most " + groupDigits(int64(recommend.MaxRequestsPerSecond)) + ". " +
				"Its load in tokens is `requests_per_second` × `output_tokens` (stated or by the default split), which `requirements.tokens_per_second` reports; the service is sized for it as for `tokens_per_second`, and is interactive: each latency target not stated takes its default (stating one keeps the other's default). " +
				"With a load and no `concurrent_requests` the requests in flight are derived, not defaulted (Little's law: load × a request's time in the service), and each recommendation's `estimate.time_to_first_token_ms` and `time_per_output_token_ms` are at this load, the first token including the wait for a copy. " +
				"It is not `recommendations[*].estimate.requests_per_second`, which is the layout's capacity. " +
				"Exclusive with `tokens_per_second`. Only for workload `inference`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeRequestsPerSecond)},
		},
		"hpc_bound": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "What limits the speed of the job: " + quoted(recommend.HPCBounds()) + ". " +
				"`" + recommend.BoundMemoryBandwidth + "` (most CFD, weather and sparse solvers) compares the memory bandwidth the job's cores draw against each VM's STREAM bandwidth, " +
				"`" + recommend.BoundCompute + "` (dense arithmetic) the FP64 rate of the cores it uses (cores × FP64 clock × FP64 FLOPs per cycle), " +
				"`" + recommend.BoundMemoryCapacity + "` (the problem size is set by memory) memory per VM, each times the VMs (and, for `hpc` across VMs, a parallel efficiency). " +
				"The ranking compares the price per unit of that throughput, and `recommendations[*].estimate.relative_throughput` reports it against the best size. " +
				"Defaults to `" + recommend.BoundMemoryBandwidth + "` for `hpc` and `" + recommend.BoundCompute + "` for `htc`. " +
				"Only for the workloads `hpc` and `htc`; anywhere else it is an error.",
			Validators: []validator.String{oneOf(recommend.HPCBounds()...)},
		},
		"parallel_efficiency": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "The parallel efficiency the team measured for the job, " + recommend.RangeParallelEfficiency.Bounds() + ": its speed-up on `nodes` VMs over one VM, divided by `nodes`. " +
				"With `nodes`, the efficiency curve over VM counts (the ranking guide gives it and its fitted constant) is scaled to pass through it; without `nodes`, it is the efficiency of every layout of more than one VM. " +
				"Defaults to the curve for `hpc` (" + strconv.FormatFloat(perfmodel.HPCScalingLoss, 'f', -1, 64) + " in 1 / (1 + loss × (VMs − 1))) and 1 for `htc`, whose tasks are independent. " +
				"Only for the workloads `hpc` and `htc`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeParallelEfficiency)},
		},
		"reference_run": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "A run of the job the team measured. With it, every layout gets `recommendations[*].estimate.job_hours` (the run's hours × the model's throughput for the run ÷ the layout's, " +
				"by `hpc_bound`; `memory_capacity` jobs by memory bandwidth) and `job_cost_usd` (the VMs plus `license_cost_per_core_hour`). Without it, relative throughput only. " +
				"With `parallel_efficiency` the efficiency curve is anchored at both. Only for the workloads `hpc` and `htc`; anywhere else it is an error.",
			Attributes: map[string]schema.Attribute{
				"vm_size": schema.StringAttribute{
					Required: true,
					MarkdownDescription: "The size it ran on: any HPC or CPU size of the catalog, retired or outside `region` and the filters (a measurement, not a candidate). " +
						"A GPU size or an unknown name is an error (with the closest names).",
				},
				"nodes": schema.Int64Attribute{
					Required:            true,
					MarkdownDescription: "The VMs it ran on, " + recommend.RangeReferenceNodes.Bounds() + ".",
					Validators:          []validator.Int64{inRange(recommend.RangeReferenceNodes)},
				},
				"hours": schema.Float64Attribute{
					Required:            true,
					MarkdownDescription: "Its wall time in hours, " + recommend.RangeReferenceHours.Bounds() + ".",
					Validators:          []validator.Float64{inRange(recommend.RangeReferenceHours)},
				},
				"cores": schema.Int64Attribute{
					Optional: true,
					MarkdownDescription: "The ranks it ran, spread evenly over exactly `nodes` VMs; each VM's throughput counts the cores the job used on it. " +
						"At least `nodes` and at most the vCPUs of those VMs. Defaults to every core of its VMs.",
					Validators: []validator.Int64{inRange(recommend.RangeReferenceCores)},
				},
			},
		},
		"license_cost_per_core_hour": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "USD per core per hour of a solver licensed per core (Fluent, STAR-CCM+, Abaqus, LS-DYNA), " + recommend.RangeLicenseCostPerCoreHour.Bounds() + ", on the cores each layout runs: one per vCPU, as the layout places ranks and tasks (`cores`, else every vCPU of its VMs), so a hyper-threaded size's licences count its vCPUs, whose second threads add no throughput. " +
				"With `reference_run` it is added to the job's cost (`recommendations[*].estimate.license_cost_usd`); without, to the hourly price (`estimate.license_cost_per_hour`), " +
				"and the ranking compares price plus licence per unit of relative throughput, moving the sizing, time and scale weights to that cost in proportion to the licences' share of the price, so fewer, faster cores (constrained-core sizes) win where the licence outweighs the VM, and a higher licence never moves the pick to more licensed cores at a higher cost per unit. " +
				"Only for the workloads `hpc` and `htc`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeLicenseCostPerCoreHour)},
		},
		"gpu_memory_gib": schema.Float64Attribute{
			Optional:            true,
			MarkdownDescription: "Total GPU memory the job needs, in GiB. Overrides the estimate from `model`. It is the whole need, the CUDA context, NCCL buffers and allocator fragmentation included, so it may fill each GPU's usable memory; a `model` estimate leaves 10% of it to them (`GPUMemoryShare` in the ranking guide).",
			Validators:          []validator.Float64{inRange(recommend.RangeGPUMemoryGiB)},
		},
		"gpus": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "Minimum GPUs for the whole job.",
			Validators:          []validator.Int64{inRange(recommend.RangeGPUs)},
		},
		"nodes": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Number of VMs the job runs on, 1 to " + groupDigits(recommend.MaxNodes) + ". By default the engine scales up before it scales out and computes this. " +
				"A job over InfiniBand may span at most its size's span (as `deadline_hours` says); a size it exceeds is removed (constraint `nodes`) and the nearest miss names the span.",
			Validators: []validator.Int64{inRange(recommend.RangeNodes)},
		},
		"max_nodes": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "The most VMs any layout may take, 1 to " + groupDigits(recommend.MaxNodes) + ": the whole job, or every copy of a served model together. " +
				"It lowers the VMs a training job scales out to for its deadline, the copies a service adds for its load and the scale-out the quota limits; it never raises the VMs one InfiniBand job of a size may span. " +
				"A size whose smallest layout that holds the job takes more is removed (constraint `max_nodes`); `nodes` above it is an error. No default: " + groupDigits(recommend.MaxNodes) + " VMs, and the InfiniBand span of each size's series.",
			Validators: []validator.Int64{inRange(recommend.RangeMaxNodes)},
		},
		"cores": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "Total cores per job, for `hpc` and `htc`; `nodes` is then computed from the cores per VM.",
			Validators:          []validator.Int64{inRange(recommend.RangeCores)},
		},
		"min_vcpus": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "Minimum vCPUs per VM.",
			Validators:          []validator.Int64{inRange(recommend.RangeMinVCPUs)},
		},
		"min_memory_gib": schema.Float64Attribute{
			Optional:            true,
			MarkdownDescription: "Minimum memory per VM, in GiB. It stays per VM: for `hpc_bound = \"" + recommend.BoundMemoryCapacity + "\"` it never adds up across VMs.",
			Validators:          []validator.Float64{inRange(recommend.RangeMinMemoryGiB)},
		},
		"total_memory_gib": schema.Float64Attribute{
			Optional: true,
			MarkdownDescription: "The memory of a distributed job, in GiB, " + recommend.RangeTotalMemoryGiB.Bounds() + ": spread over its VMs, it sets the fewest VMs each size needs " +
				"(with `nodes`, a size whose VMs cannot hold it is removed, constraint `system_memory`). With `min_memory_gib`, each VM also has at least that much. " +
				"For `hpc_bound = \"" + recommend.BoundMemoryCapacity + "\"` the layout that holds the job on the fewest VMs wins. " +
				"Only for the workloads `hpc` and `htc`; anywhere else it is an error.",
			Validators: []validator.Float64{inRange(recommend.RangeTotalMemoryGiB)},
		},
		"min_local_disk_gib": schema.Float64Attribute{
			Optional:            true,
			MarkdownDescription: "Minimum local disk per VM (temporary disk plus local NVMe), in GiB, for example for checkpoints.",
			Validators:          []validator.Float64{inRange(recommend.RangeMinLocalDiskGiB)},
		},
		"interconnect": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Back-end network: " + quoted(recommend.Interconnects()) + ". `" + recommend.DefaultInterconnect + "` (the default) requires InfiniBand when the job spans VMs or is tightly coupled MPI, and otherwise ranks sizes without it higher, because unused bandwidth costs money.",
			Validators:          []validator.String{oneOf(recommend.Interconnects()...)},
		},
		"gpu_vendor": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "GPU vendor: " + quoted(recommend.GPUVendors()) + ". Defaults to `" + recommend.DefaultGPUVendor + "`.",
			Validators:          []validator.String{oneOf(recommend.GPUVendors()...)},
		},
		"gpu_models": schema.ListAttribute{
			ElementType:         types.StringType,
			Optional:            true,
			MarkdownDescription: "Allowed GPU models, by catalog identifier (`h100-sxm-80gb`) or name, case-insensitive. An unknown entry fails with the closest names.",
			Validators:          nonEmptyStringList(),
		},
		"cuda_version": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "CUDA toolkit the software needs, as `major.minor` (for example `\"13.0\"`). GPUs that toolkit no longer supports, and AMD GPUs, are excluded.",
			Validators:          []validator.String{stringvalidator.RegexMatches(versionRE, "must be a version such as \"12.4\" or \"13.0\"")},
		},
		"min_compute_capability": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Minimum NVIDIA compute capability, as `major.minor` (for example `\"8.0\"` for Ampere and newer). AMD GPUs are excluded.",
			Validators:          []validator.String{stringvalidator.RegexMatches(versionRE, "must be a compute capability such as \"7.0\" or \"9.0\"")},
		},
		"target": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Where the size will run: " + quoted(recommend.Targets()) + ". Defaults to `" + recommend.DefaultTarget + "`. Sizes the target does not support are excluded; sizes with unknown support are kept with a warning. " +
				"`kaito` is AKS with KAITO, the AI toolchain operator add-on: only the sizes of the SKU table of the KAITO version the add-on ships (no share of a GPU, no AMD GPU), with `deployment.aks` and its `kaito` Workspace settings.",
			Validators: []validator.String{oneOf(recommend.Targets()...)},
		},
		"region": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Azure region (for example `eastus`). Only sizes offered there are returned, with that region's prices: sizes priced there, or with the provider's `availability_file`, sizes the file lists there without a restriction for the subscription (constraints `region` and `availability`). Without it or `regions`, each size is placed and priced in the best of the regions that price it, chosen as among `regions`, and its `region` names that region.",
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"regions": regionsAttribute(),
		"max_price_per_hour": schema.Float64Attribute{
			Optional:            true,
			MarkdownDescription: "Maximum USD per hour for one VM, in the region it runs in. Needs `region` or `regions`.",
			Validators:          []validator.Float64{inRange(recommend.RangeMaxPricePerHour), needsRegion{}},
		},
		"max_total_price_per_hour": schema.Float64Attribute{
			Optional:            true,
			MarkdownDescription: "Maximum USD per hour for all VMs of the job, in the region it runs in. Needs `region` or `regions`.",
			Validators:          []validator.Float64{inRange(recommend.RangeMaxTotalPricePerHour), needsRegion{}},
		},
		"require_quota": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Remove the sizes whose `quota` is `insufficient` (constraint `quota`), instead of ranking them last. Sizes whose quota is `unknown` stay, with a warning. " +
				"Needs the provider's `usage_files`. Defaults to `false`.",
		},
		"spot": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "Price with spot estimates where known, and say so, and deploy on Spot VMs (`deployment`'s Spot settings of each target). Where Azure sells no Spot VMs of a size in its region (the Resource SKUs API marks it not low-priority capable, catalog decision D75), the size keeps its on-demand price and on-demand settings, with a warning, after the sizes with a spot price. Spot suits interruptible inference; for training and fine-tuning it adds a warning to checkpoint regularly. Defaults to `false`.",
		},
		"min_lifetime_months": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "Exclude sizes retiring within this many months of the provider's `as_of` date: on or before the day that many calendar months later, as `retires_within` counts. Retired sizes are always excluded. Defaults to `" + strconv.Itoa(recommend.DefaultMinLifetimeMonths) + "`; " +
				"under the default, a size `prefer` names is kept (with its retirement warning and a lower score), so a running size's name does not change as its retirement date nears. Set it to exclude preferred sizes too.",
			Validators: []validator.Int64{inRange(recommend.RangeMinLifetimeMonths)},
		},
		"include_preview": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "Allow preview sizes. Defaults to `false`.",
		},
		"include_on_request": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Allow sizes Azure offers on request: those no public list of the Resource SKUs API names (the size record's `on_request`, " +
				"today `Standard_ND96is_H100_v5`), which a subscription has only once Azure grants it. Defaults to `false`, which removes them (constraint `on_request`) " +
				"unless `prefer` names them or the provider's `availability_file` lists them in the size's region without a restriction (the subscription has them). " +
				"An on-request size in preview also needs `include_preview`.",
		},
		"confidential": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "When `true`, only confidential-computing sizes; when `false`, none.",
		},
		"isolated": schema.BoolAttribute{
			Optional:            true,
			MarkdownDescription: "When `true`, only sizes isolated to one customer's hardware; when `false`, none.",
		},
		"optimize_for": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Ranking emphasis: " + quoted(recommend.OptimizeFors()) + ". Defaults to `" + recommend.DefaultOptimizeFor + "`.",
			Validators:          []validator.String{oneOf(recommend.OptimizeFors()...)},
		},
		"max_results": schema.Int64Attribute{
			Optional:            true,
			MarkdownDescription: "How many ranked sizes to return, 1 to " + strconv.Itoa(recommend.MaxResultsLimit) + ". Defaults to `" + strconv.Itoa(recommend.DefaultMaxResults) + "`.",
			Validators:          []validator.Int64{inRange(recommend.RangeMaxResults)},
		},
		"prefer": schema.ListAttribute{
			ElementType: types.StringType,
			Optional:    true,
			MarkdownDescription: "Sizes to keep, in order of preference. The first one that passes every hard constraint is ranked first, " +
				"so a new catalog or a nearing retirement date does not change `vm_size` and make Terraform replace running VMs " +
				"(a preferred size retiring within the default `min_lifetime_months` stays, with its retirement warning; a retired one does not). " +
				"A warning names a clearly better size when there is one.",
			// An empty or blank entry is the engine's Empty Preferred Size error,
			// which names what an entry looks like.
			Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.UniqueValues()},
		},
		"full_records": fullRecordsAttribute("each ranked size, priced in its recommendation's region"),
	}
}

func recommendationOutputAttributes() map[string]schema.Attribute {
	supportList := func(desc string) schema.ListAttribute { return strListAttr(desc) }
	return map[string]schema.Attribute{
		"vm_size":  strAttr("The top-ranked size, ready for `size`, `sku` and `vm_size` arguments."),
		"vm_sizes": supportList("The ranked size names, for fallback lists (GPU capacity errors are common) and multi-select settings such as CycleCloud's machine type lists."),
		"recommendations": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The ranked sizes, best first.",
			NestedObject:        schema.NestedAttributeObject{Attributes: recommendationAttributes()},
		},
		"sku_records": skuRecordsAttribute("each ranked size, priced in its recommendation's region"),
		"requirements": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "What the engine derived from the inputs, so the ranking can be checked.",
			Attributes: map[string]schema.Attribute{
				"category":           strAttr("Category chosen: `gpu`, `hpc` or `cpu`."),
				"preferred_families": supportList("Families ranked first, best first."),
				"gpu_memory_gib":     float64Attr("Total GPU memory needed, in GiB; null when no GPU is needed or nothing says how much."),
				"memory": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "The GPU memory estimate from `model`, with its parts (each in GiB, rounded to 0.01, null when the job has none); null without a model.",
					Attributes: map[string]schema.Attribute{
						"gib":                 float64Attr("Estimated GPU memory of the whole job, in GiB: the sum of the parts below."),
						"bytes_per_parameter": float64Attr("Bytes per parameter of the precision."),
						"weights_gib":         float64Attr("The model's weights at its precision (for `qlora`, the 4-bit base with its 16-bit embeddings)."),
						"gradients_gib":       float64Attr("Gradients of every parameter (`training` and full fine-tuning); null for `inference`, `lora` and `qlora`."),
						"optimizer_gib":       float64Attr("Optimizer states of every parameter: the fp32 master copy of the weights (when they are narrower than fp32) plus Adam's two fp32 moments (`training` and full fine-tuning); null otherwise."),
						"adapters_gib":        float64Attr("The trainable adapters of `lora` and `qlora` with their gradients and optimizer states; null otherwise."),
						"activations_gib":     float64Attr("Activations: for `training` and `fine_tuning` those of one GPU's micro-batch (each GPU keeps its own), for `inference` the serving engine's workspace (or, for a model without KV cache, its activations)."),
						"kv_cache_gib":        float64Attr("`inference` of a language model: the KV cache of `concurrent_requests` sequences of `context_tokens` tokens; with a load (`tokens_per_second`, `requests_per_second`) and no `concurrent_requests`, of one sequence (the layout search adds each copy's batch); of an encoder-decoder speech model (Whisper), the decoder's cache of `concurrent_requests` requests; null otherwise."),
						"formula":             strAttr("The formula with its inputs."),
					},
				},
				"system_memory_gib":            float64Attr("Minimum VM memory, in GiB (150% of the model for inference); null when not derived."),
				"nodes":                        int64Attr("VMs per job on the top-ranked size; each recommendation has its own `nodes`."),
				"interconnect":                 strAttr("`infiniband` when the top-ranked layout needs InfiniBand, otherwise `any`."),
				"min_gpus_per_job":             float64Attr("Minimum GPUs for the job; null when not set."),
				"precision":                    strAttr("Precision of the model's weights the estimate used (`model.precision`, the named model's published precision, or the default); null without a model."),
				"model":                        strAttr("Catalog identifier of the model (`model.name` resolved in the model table); null without `model.name`."),
				"fine_tuning_method":           strAttr("Fine-tuning method the estimate used (`fine_tuning_method` or its default); null unless workload is `fine_tuning`."),
				"context_tokens":               int64Attr("Tokens per sequence the estimate used (`context_tokens` or its default, capped at the named model's maximum context): a served model's KV cache, adapters' activations, or the attention FLOPs of training and fine-tuning a model whose architecture the table gives; null where it plays no part (models without a sequence, no model)."),
				"concurrent_requests":          int64Attr("Sequences in flight the KV cache was sized for (`concurrent_requests` or its default); with a load (`tokens_per_second`, `requests_per_second`) and no `concurrent_requests`, the top-ranked layout's requests in flight at the load (Little's law; `defaults` says it was derived), while `kv_cache_gib` holds one sequence; for an encoder-decoder speech model, the requests whose caches the copies hold; null unless a language model or such a speech model is served (`inference`)."),
				"prompt_tokens":                int64Attr("Mean prompt tokens of a request the estimate used (`prompt_tokens` or the default split); null unless a language model is served."),
				"output_tokens":                int64Attr("Mean output tokens of a request the estimate used (`output_tokens` or the default split); null unless a language model is served."),
				"max_time_to_first_token_ms":   float64Attr("The stated `max_time_to_first_token_ms` the layouts were searched for; null when not set."),
				"max_time_per_output_token_ms": float64Attr("The stated `max_time_per_output_token_ms` the layouts were searched for; null when not set."),
				"min_replicas":                 int64Attr("Copies on separate VMs the layouts hold (`min_replicas` or its default, 1), whether or not the model's serving is timed; null unless a model whose memory the engine estimates is served."),
				"token_split":                  strAttr("Where `prompt_tokens` and `output_tokens` come from, in a sentence: given, or the default split and its source; null unless a language model is served."),
				"kv_cache_gib":                 float64Attr("KV cache of every concurrent sequence, in GiB, as in `memory.kv_cache_gib`: of one sequence with a load (`tokens_per_second`, `requests_per_second`) and no `concurrent_requests`; null unless a language model is served."),
				"kv_bytes_per_token":           int64Attr("KV cache per token of context, in bytes (2 × layers × KV heads × head dimension × bytes per element for a named model; approximated from the parameters otherwise); null unless a language model is served."),
				"training_flops": float64Attr("The work of a `training` or `fine_tuning` job, in FLOPs: for a language model or an encoder, " + strconv.Itoa(perfmodel.TrainingFLOPsPerToken) + " (`lora` and `qlora`: " + strconv.Itoa(perfmodel.LoRAFLOPsPerToken) + ") × active parameters × `training_tokens_billion`, " +
					"plus the attention term (× layers × context × attention width) for a named model; for a vision, diffusion or speech model, (" + strconv.Itoa(perfmodel.SampleTrainingFactor) + " (`lora`, `qlora`: " + strconv.Itoa(perfmodel.LoRASampleFactor) + ") × forward + frozen encoders) GFLOPs per sample × `samples_million`; null where the throughput model does not time the job."),
				"training_tokens_billion": float64Attr("Tokens the job processes, in billions: `tokens_billion` or its default; null where `training_flops` is, and for a job timed by samples."),
				"samples_million":         float64Attr("Samples a vision, diffusion or speech model's job processes, in millions: `samples_million` or its default; null where `training_flops` is, and for a job timed by tokens."),
				"token_budget":            strAttr("Where `training_tokens_billion` (or `samples_million`) comes from: the input, or the default that was assumed, in a sentence; null where `training_flops` is."),
				"deadline_hours":          float64Attr("The deadline the sizes were scaled out to meet: `deadline_hours` or the " + strconv.Itoa(recommend.DefaultDeadlineHours) + "-hour default; null where `training_flops` is."),
				"tokens_per_second":       float64Attr("The load in output tokens per second the service was sized for: `tokens_per_second`, or `requests_per_second` × `output_tokens`; null unless a load is set for `inference` of a model."),
				"requests_per_second":     float64Attr("The stated `requests_per_second`; null when not set."),
				"hpc_bound":               strAttr("What bounds the job's speed (`hpc_bound` or its default for the workload); null unless the workload is `hpc` or `htc`."),
				"efficiency":              float64Attr("The top-ranked size's `estimate.efficiency`; null when it has no estimate (or a 0 efficiency)."),
				"explanation":             supportList("How the requirements were derived, in plain sentences."),
				"defaults": schema.MapAttribute{
					Computed:    true,
					ElementType: types.StringType,
					MarkdownDescription: "Every value the engine chose on your behalf, keyed by the input's name (`model.precision`, `context_tokens`, `tokens_billion`, `nodes`, ...), as text: " +
						"an input left unset that the job uses, or a stated `context_tokens` above the named model's maximum context, which the estimate of `training` and `fine_tuning` caps. Set an input to replace its default.",
				},
			},
		},
		"rejected": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Per hard constraint, how many sizes it removed and a few of their names. A size is counted under the first constraint it fails.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"constraint": strAttr("The constraint, named after the input that set it (for example `cuda_version`)."),
				"count":      int64Attr("Sizes it removed."),
				"examples":   supportList("Up to three of them."),
				"reason":     strAttr("What the constraint checks."),
			}},
		},
		"as_of":           strAttr("The provider's `as_of` date used for lifecycle judgements (`YYYY-MM-DD`)."),
		"catalog_version": strAttr("Version of the catalog the ranking used."),
	}
}

// recommendationAttributes are the attributes of each entry of
// `recommendations`.
func recommendationAttributes() map[string]schema.Attribute {
	supportList := func(desc string) schema.ListAttribute { return strListAttr(desc) }
	return map[string]schema.Attribute{
		"rank":    int64Attr("1 for the best size."),
		"score":   float64Attr("Score from 0 to 100."),
		"vm_size": strAttr("The size name."),
		"nodes":   int64Attr("VMs of this size the job needs."),
		"replicas": int64Attr("Copies of the model serving in parallel (`inference`): as many as the KV cache of the concurrent requests, the load (`tokens_per_second`, `requests_per_second`), `min_replicas` and the latency targets (stated, and an interactive service's defaults) need, " +
			"on whole VMs (a copy is split over a VM's GPUs only as far as the attention and KV heads allow; a split over GPUs without NVLink is allowed, with a warning and a score penalty); a small model on CPU sizes runs one copy on each VM; 1 otherwise."),
		"tensor_parallel_size": int64Attr("GPUs of one VM each copy of the model is split over, ready for vLLM's `--tensor-parallel-size`; " +
			"null unless the engine lays out a model for `inference` (not when `gpu_memory_gib` replaces the estimate)."),
		"pipeline_parallel_size": int64Attr("VMs each copy of the model spans (pipeline stages), ready for vLLM's `--pipeline-parallel-size`: 1 when a copy fits one VM; " +
			"null unless the engine lays out a model for `inference` (not when `gpu_memory_gib` replaces the estimate)."),
		"gpus_per_node":        float64Attr("GPUs per VM (fractional for partial GPUs); 0 for CPU sizes."),
		"total_gpus":           float64Attr("GPUs across all VMs."),
		"total_gpu_memory_gib": float64Attr("GPU memory across all VMs, in GiB."),
		"price_per_hour":       float64Attr("USD per hour for one VM in the recommendation's `region`; null where the catalog has no price."),
		"total_price_per_hour": float64Attr("USD per hour for all VMs; null where the catalog has no price."),
		"price_per_gpu_hour":   float64Attr("USD per GPU-hour; null where the catalog has no price or the size has no GPU."),
		"price_is_spot":        boolAttr("Whether the prices are spot estimates."),
		"region":               strAttr("The region the size is placed and priced in: the requested `region`, the one chosen among `regions`, or without either the best of the regions that price it, chosen as among `regions` (deployable for the subscription, then with quota, then with `spot` selling Spot VMs of it, then cheapest). Null when the size has no price and no region was requested."),
		"price_source":         strAttr("Where the price comes from (the embedded list prices, or the provider's `prices_file`), with its region; null where the catalog has no price."),
		"reasons":              supportList("Why the size ranks where it does, in plain sentences."),
		"warnings":             supportList("What to watch, in plain sentences."),
		"deployment": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Settings for the target, ready to wire into azurerm virtual machines and scale sets, AKS node pools, CycleCloud Workspace for Slurm partitions, Azure Machine Learning compute clusters and Batch pools.",
			Attributes: map[string]schema.Attribute{
				"image_urn":                        strAttr("Recommended Marketplace image URN (`publisher:offer:sku:version`); null where no documented Marketplace image carries the driver the series needs (the RTX PRO 6000 v6 GRID build is published without a URN) or the catalog names no image. Give your own image then."),
				"image_source":                     strAttr("Where `image_urn` is documented (`repository:path@commit`, or the image build repository when it lists the URN); null with no URN."),
				"cpu_architecture":                 strAttr("The size's CPU architecture, `x86_64` or `arm64`: images and node pools are per architecture."),
				"accelerated_networking":           boolAttr("Whether to enable accelerated networking."),
				"rdma":                             boolAttr("Whether the job uses the RDMA/InfiniBand network."),
				"rdma_placement":                   strAttr("What InfiniBand across VMs needs: `scale_set` (one scale set, with `single_placement_group` as given, at most the size's InfiniBand span: 300 VMs on the HPC series whose pages state it, " + strconv.Itoa(recommend.MaxNodesRDMA) + " where none is stated) for every target but `vm` and on `vm` for the rack-scale ND GB200 and GB300 v6 (placed by racks in a scale set's interconnect block), `availability_set` (one availability set, at most " + strconv.Itoa(deploy.AvailabilitySetVMs) + " VMs) for the other sizes on `vm` without `spot`: Azure refuses Spot VMs in an availability set, so with `spot` they take `scale_set` on `vm` too, within the scale set's span, and the note says to deploy them as a scale set; null when no RDMA traffic crosses VMs. A served model whose copies each span VMs needs InfiniBand within a copy only: where its VMs outnumber one such group, the note says how many groups of whole copies to deploy. A proximity placement group is neither required nor enough for InfiniBand."),
				"single_placement_group":           boolAttr("Whether a scale set needs `single_placement_group = true`: `rdma_placement` is `scale_set` and the size allows a single placement group (ND GB200 v6 and ND GB300 v6 do not: `false` for them, which Azure requires)."),
				"security_type":                    strAttr("`ConfidentialVM` for a confidential size (ARM's `securityProfile.securityType`, which ARM templates and CycleCloud take), else null. The azurerm arguments that go with it are `vtpm_enabled`, `secure_boot_enabled` and `os_disk_security_encryption_type`."),
				"vtpm_enabled":                     boolAttr("`vtpm_enabled` for `azurerm_linux_virtual_machine` and `azurerm_linux_virtual_machine_scale_set`: `true` for a confidential size, which needs it, else `false`."),
				"secure_boot_enabled":              boolAttr("`secure_boot_enabled`: `true` for a confidential size, else `false`."),
				"os_disk_security_encryption_type": strAttr("`os_disk.security_encryption_type`: `DiskWithVMGuestState` for a confidential size (the OS disk and the VM guest state encrypted, as Microsoft's confidential GPU onboarding deploys it), else null."),
				"spot": schema.SingleNestedAttribute{
					Computed: true,
					MarkdownDescription: "Spot arguments of `azurerm_linux_virtual_machine`, `azurerm_linux_virtual_machine_scale_set` and `azurerm_orchestrated_virtual_machine_scale_set`, with `spot = true` and `target` `vm` or `vmss`; null otherwise, and null where Azure sells no Spot VMs of the size in its region (catalog decision D75): the VMs run on demand. " +
						"(AKS, CycleCloud, Azure ML and Batch have their own, in their objects.)",
					Attributes: map[string]schema.Attribute{
						"priority":        strAttr("`priority`: `Spot`."),
						"eviction_policy": strAttr("`eviction_policy`, which azurerm requires with Spot: `Delete` (an evicted VM's disks go with it)."),
						"max_bid_price":   float64Attr("`max_bid_price`: `-1`, never evicted for price (the on-demand price caps it)."),
					},
				},
				"note": strAttr("`vm` and `vmss`: what else the VMs need (the RDMA network's 172.16.0.0/16, which the virtual network must not overlap, for InfiniBand across VMs; a rack-scale size's scale set); null when nothing."),
				"interconnect": schema.SingleNestedAttribute{
					Computed: true,
					MarkdownDescription: "The Compute API settings that place a rack-scale NVLink size's VMs (ND GB200 v6, ND GB300 v6) on their racks when the job spans VMs, with `target = \"vmss\"` (AKS manages its pools' scale sets; CycleCloud scales racks with `scale_m1`; plain VMs cannot take them); null otherwise. " +
						"azurerm cannot set them: set `highSpeedInterconnectPlacement`, `virtualMachineProfile.interconnectBlockProfile` and `virtualMachineProfile.networkProfile.interconnectGroupProfile` on the scale set with azapi (`azapi_update_resource` or `azapi_resource` of type `Microsoft.Compute/virtualMachineScaleSets@<api_version>`), after creating the interconnect group and block.",
					Attributes: map[string]schema.Attribute{
						"high_speed_interconnect_placement": strAttr("The scale set's `highSpeedInterconnectPlacement`: `Trunk`."),
						"api_version":                       strAttr("The Compute API version that takes these settings, for azapi's resource type."),
						"rack_vms":                          int64Attr("VMs of one rack, which Azure allocates together."),
						"racks":                             int64Attr("Whole racks the job takes; the recommendation's `nodes` is `racks` × `rack_vms` unless `nodes` was set."),
						"scale_sets":                        int64Attr("Scale sets the job's VMs take, at most 1,000 VMs each (a scale set of several placement groups)."),
						"interconnect_block_capacity":       int64Attr("`sku.capacity` of the interconnect block (`Microsoft.Compute/interconnectBlocks`) that holds the job's VMs: `racks` × `rack_vms`."),
						"sources":                           supportList("Where these settings are documented."),
						"note":                              strAttr("How to apply them."),
					},
				},
				"serving": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "`inference` of a language model on GPUs: the serving engines' arguments for one VM of the layout the estimate used, never recomputed (the [ranking guide](../guides/ranking.md) gives the flags' sources). Null for CPU sizes and other workloads.",
					Attributes: map[string]schema.Attribute{
						"vllm_args": strListAttr("`vllm serve MODEL` arguments for vLLM " + deploy.VLLMVersion + ", as `--flag=value`, flags at the engine's default left out: `--tensor-parallel-size` and `--pipeline-parallel-size` (`tensor_parallel_size`, `pipeline_parallel_size`; the latter above 1), `--data-parallel-size` (the copies each VM runs, above 1), " +
							"`--max-num-seqs` (`estimate.sequences_per_copy`), `--max-model-len` (`requirements.context_tokens`), `--kv-cache-dtype=fp8` where the estimate stored the KV cache in fp8 (`auto`, the default, otherwise), `--gpu-memory-utilization` where the estimate's share is not vLLM's default 0.9, " +
							"`--quantization=fp8` for a 16-bit checkpoint served in fp8; `--hf-overrides` with the model card's YaRN (`rope_parameters`) where `requirements.context_tokens` is above the context the checkpoint's config allows (Qwen3, Qwen2.5); for a copy over several VMs, `--distributed-executor-backend=mp`, `--nnodes`, `--node-rank=" + deploy.NodeRankPlaceholder + "` and `--master-addr=" + deploy.HeadAddressPlaceholder + "`. " +
							"Null where vLLM's documentation excludes the GPU and format (int8 on compute capability 10.0 and later; an AMD GPU whose architecture its ROCm build does not list, such as the Radeon PRO V620's gfx1030)."),
						"sglang_args": strListAttr("`python -m sglang.launch_server --model-path MODEL` arguments for SGLang " + deploy.SGLangVersion + ", as `--flag=value`: `--tp-size`, `--pp-size` and `--dp-size` above 1, `--max-running-requests` (per copy), `--context-length`, `--kv-cache-dtype=fp8_e4m3` with an fp8 KV cache, `--mem-fraction-static` (0.9; SGLang's own default depends on the GPU), `--quantization`; " +
							"for a copy over several VMs, `--nnodes`, `--node-rank` and `--dist-init-addr`. " +
							"Null on an AMD GPU whose architecture SGLang's ROCm build does not support (it builds for " + strings.Join(deploy.SGLangROCmTargets, " and ") + " only: not the Radeon PRO V620's gfx1030 or V710's gfx1101), and on an NVIDIA GPU below compute capability " + deploy.FormatComputeCapability(deploy.SGLangMinComputeCapability) + " (the V100), which SGLang refuses; the note then says to serve the model with vLLM. " +
							"Null too where the context is above the one the model's checkpoint config allows (YaRN), which SGLang refuses unless `" + deploy.SGLangLongerContextEnv + "` is in its environment, which no argument sets: the note names it and gives SGLang's arguments."),
						"note": strAttr("What else the engines need: the checkpoint a quantised precision needs, an engine's exclusion of the GPU and format (and which engine serves it, if either), YaRN turned on for a context above the checkpoint config's (its factor, and how to run SGLang with it), the limit on a request's length where `context_tokens` is not stated and the context is the mean prompt plus the mean output, and for a copy over several VMs how to fill the placeholders (each VM's rank, the head VM's address; vLLM's other VMs also take `--headless`); null when nothing. The arguments follow `vllm serve MODEL` and `python -m sglang.launch_server --model-path MODEL` on each VM."),
					},
				},
				"launch": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "`training` and `fine_tuning` on GPUs: the launcher settings of a job that spans VMs or computes on fewer GPUs than its VM has; null where it runs on one VM and all its GPUs, and for other workloads.",
					Attributes: map[string]schema.Attribute{
						"nnodes":         int64Attr("torchrun's `--nnodes`: the recommendation's `nodes`."),
						"nproc_per_node": int64Attr("torchrun's `--nproc-per-node`: the GPUs of each VM the job computes on (one process per GPU)."),
						"env": schema.MapAttribute{Computed: true, ElementType: types.StringType,
							MarkdownDescription: "Over InfiniBand across VMs: the NCCL settings Azure's HPC image writes to `/etc/nccl.conf` for the size's series (`NCCL_TOPO_FILE`, `NCCL_IB_PCI_RELAXED_ORDERING`, `NCCL_IGNORE_CPU_AFFINITY`), for containers that do not read that file; null otherwise, and for series the image sets none for (MI300X, GB200, GB300)."},
					},
				},
				"zones": strListAttr("With the provider's `availability_file`: the availability zones of the recommendation's `region` where the subscription can deploy the size " +
					"(the region's zones minus those with a `Zone` restriction), sorted, ready for `zone`, `zones` or `availability_zones` arguments; empty where the region has no zones. Null without an availability file."),
				"aks": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "AKS node pool settings; null unless `target` is `aks`.",
					Attributes: map[string]schema.Attribute{
						"node_taints": supportList("Node taints for `azurerm_kubernetes_cluster_node_pool.node_taints`: `sku=gpu:NoSchedule` on GPU sizes, none on CPU sizes."),
						"node_labels": schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Node labels for `node_labels`: `hpcsku.io/vm-size`, and `hpcsku.io/gpu-model` on GPU sizes (AKS itself sets `kubernetes.azure.com/accelerator`)."},
						"gpu_driver":  strAttr("`gpu_driver` for the node pool: `Install` (NVIDIA on x86_64), `None` (AMD: the AMD GPU operator installs the driver; NVIDIA on arm64, ND GB200 v6 and ND GB300 v6, where AKS installs no driver: the NVIDIA GPU Operator does; a confidential GPU, whose signed driver the GPU Operator installs); null for CPU sizes, which take no setting."),
						"os_sku":      strAttr("`os_sku` for the node pool where the size needs one: `Ubuntu2404` for confidential GPU sizes (the only OS Microsoft's confidential GPU onboarding supports on AKS) and ND GB200 and GB300 v6; null for AKS's default."),
						"spot": schema.SingleNestedAttribute{
							Computed:            true,
							MarkdownDescription: "With `spot = true`: the Spot arguments of the node pool; `node_taints` and `node_labels` then carry `kubernetes.azure.com/scalesetpriority=spot:NoSchedule` and `kubernetes.azure.com/scalesetpriority = \"spot\"`, which AKS sets on Spot nodes and azurerm plans to remove unless the configuration sets them. Null without spot, and null where Azure sells no Spot VMs of the size in its region (catalog decision D75): the node pool runs on demand.",
							Attributes: map[string]schema.Attribute{
								"priority":        strAttr("`priority`: `Spot`."),
								"eviction_policy": strAttr("`eviction_policy`: `Delete`."),
								"spot_max_price":  float64Attr("`spot_max_price`: `-1`, the on-demand price caps it."),
								"node_auto_provisioning": schema.SingleNestedAttribute{
									Computed:            true,
									MarkdownDescription: "The Karpenter NodePool requirement for Spot capacity, beside `node_auto_provisioning`; null where node auto-provisioning cannot place the job.",
									Attributes: map[string]schema.Attribute{
										"key":      strAttr("`karpenter.sh/capacity-type`."),
										"operator": strAttr("`In`."),
										"values":   supportList("`spot`."),
									},
								},
							},
						},
						"node_auto_provisioning": schema.SingleNestedAttribute{
							Computed:            true,
							MarkdownDescription: "A node requirement for clusters that use node auto-provisioning (Karpenter NodePool `spec.template.spec.requirements`): the ranked sizes with this size's CPU architecture that node auto-provisioning can place, this size first. Null where it cannot place the job (InfiniBand across VMs, which needs one scale set; AMD GPU sizes and constrained-core sizes, which its default node class leaves out; sizes its GPU registry leaves out, such as the confidential H100); `note` says why.",
							Attributes: map[string]schema.Attribute{
								"key":      strAttr("`karpenter.azure.com/sku-name`."),
								"operator": strAttr("`In`."),
								"values":   supportList("VM size names, in rank order."),
							},
						},
						"kaito": schema.SingleNestedAttribute{
							Computed:            true,
							MarkdownDescription: "`target = \"kaito\"`: the settings of a KAITO `Workspace` (`kaito.sh/v1beta1`, KAITO 0.6.0, the version the AKS add-on ships); null for other targets.",
							Attributes: map[string]schema.Attribute{
								"instance_type":  strAttr("`resource.instanceType`: `vm_size`."),
								"count":          int64Attr("`resource.count`: the VMs of one Workspace. A preset Workspace serves one copy of the model (KAITO 0.6.0 runs it on at most `count` VMs as one server, on every GPU of each), so with `preset_name` it is the VMs one copy spans; a template Workspace runs `count` identical pods, one on each VM, so without it it is the recommendation's `nodes`."),
								"workspaces":     int64Attr("The Workspaces to create with these settings so that they serve the recommendation's layout: with `preset_name`, one for each copy (`replicas`); otherwise 1, or 0 where no Workspace serves it: a copy over several VMs (`pipeline_parallel_size` above 1) that no preset serves, which KAITO 0.6.0 cannot run from a template (its pods get no rank or head address; `note` names what can)."),
								"label_selector": schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "`resource.labelSelector.matchLabels`: the node pool's `node_labels`."},
								"preset_name":    strAttr("`inference.preset.name` where KAITO has a preset for the served model (`llama-3.1-8b-instruct` for `llama-3.1-8b`, for example) and it serves the layout's copy: at the published precision, which the preset's checkpoint holds; on the VMs KAITO gives it, the fewest of `count` that hold the preset's GPU memory, which must be the VMs a copy spans and meet the GPU count, GPU memory and memory per GPU the preset needs (KAITO's webhook refuses a Workspace below them: Llama 3.3 70B's preset needs 4 GPUs and 320 GiB); and on every GPU of each VM (the preset sets `tensor-parallel-size` to a VM's GPUs). Null for other models, for another `model.precision` (the layout is not sized for the preset's weights), for a layout the preset does not fit or copies on a share of a VM's GPUs (`note` says why) and for other jobs."),
								"note":           strAttr("The preset and what it needs (a Hugging Face token secret for a gated model), or why no preset serves the layout and how to run it: `inference.template` with `deployment.serving.vllm_args` for a copy on one VM, a multi-node launcher outside KAITO for a copy over several."),
							},
						},
						"note": strAttr("What else the node pool needs, or null."),
					},
				},
				"cyclecloud": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "A CycleCloud Slurm partition (CycleCloud Workspace for Slurm's `hpc`, `gpu` or `htc` object, the Slurm cluster template's node arrays); null unless `target` is `cyclecloud`.",
					Attributes: map[string]schema.Attribute{
						"partition":              strAttr("Slurm partition: `hpc` (workload `hpc`), `gpu` (GPU sizes) or `htc`."),
						"machine_type":           strAttr("Machine type for the partition (the workspace's `sku`)."),
						"os_image":               strAttr("The partition's `osImage`: `image_urn`, or null when none is documented (the workspace requires one: give your own)."),
						"max_nodes":              int64Attr("VMs one job needs: the lower bound for the partition's `maxNodes`."),
						"max_scaleset_size":      int64Attr("Most VMs per scale set when the job's InfiniBand crosses VMs in a single placement group: the size's InfiniBand span (300 on the HPC series whose pages state it, " + strconv.Itoa(recommend.MaxNodesRDMA) + " where none is stated; the Slurm template's `HPCMaxScalesetSize`); null otherwise, and for sizes without a single placement group (see `interconnect`)."),
						"fallback_machine_types": supportList("Ranked sizes with the same CPU architecture and image, this size first: sizes the partition can switch to without changing its image. Each partition takes one machine type."),
						"sbatch_args":            strListAttr("GPU partitions: the `sbatch` options of the job: `--nodes` (`nodes`), `--gpus-per-node` (the GPUs each VM computes on; CycleCloud's Slurm configures `gres` GPUs and `select/cons_tres`) and `--ntasks-per-node`: for the `hpc` workload's MPI launch one task per GPU (a rank each, `srun` or `mpirun`), for the others one task per VM, the launcher that starts a process per GPU itself (`srun torchrun` with `deployment.launch`'s `nproc_per_node`, or one vLLM or SGLang server); null on CPU sizes."),
						"interruptible":          boolAttr("Whether the partition runs Spot VMs (`spot = true` and the `htc` partition, the only one CycleCloud Workspace for Slurm offers Spot on: its `useSpot`, the template's `Interruptible` with `MaxPrice` -1); `hpc` and `gpu` partitions run on demand, and so does any partition where Azure sells no Spot VMs of the size in its region (catalog decision D75)."),
						"note":                   strAttr("What else the partition needs: the RDMA network's address space for InfiniBand across VMs, whole racks with `scale_m1` for ND GB200 and GB300 v6, the on-demand price of a Spot request on `hpc` or `gpu`; null when nothing."),
					},
				},
				"azureml": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "`azurerm_machine_learning_compute_cluster` settings; null unless `target` is `azureml`.",
					Attributes: map[string]schema.Attribute{
						"vm_size":        strAttr("`vm_size`."),
						"vm_priority":    strAttr("`vm_priority`: `LowPriority` with `spot = true`, else `Dedicated`; `Dedicated` also where Azure sells no Spot VMs of the size in its region (catalog decision D75)."),
						"min_node_count": int64Attr("`scale_settings.min_node_count`: 0, so the cluster scales to zero when idle."),
						"max_node_count": int64Attr("`scale_settings.max_node_count`: the recommendation's `nodes` (every serving copy's VMs included)."),
					},
				},
				"batch": schema.SingleNestedAttribute{
					Computed:            true,
					MarkdownDescription: "`azurerm_batch_pool` settings; null unless `target` is `batch`.",
					Attributes: map[string]schema.Attribute{
						"vm_size":           strAttr("`vm_size`."),
						"node_agent_sku_id": strAttr("`node_agent_sku_id` matching `image`; null when no documented image has a Batch node agent (give your own image and agent)."),
						"image": schema.SingleNestedAttribute{
							Computed:            true,
							MarkdownDescription: "`storage_image_reference`, split from `image_urn`; null when there is none.",
							Attributes: map[string]schema.Attribute{
								"publisher": strAttr("Image publisher."),
								"offer":     strAttr("Image offer."),
								"sku":       strAttr("Image SKU."),
								"version":   strAttr("Image version."),
							},
						},
						"inter_node_communication":  strAttr("`inter_node_communication`: `Enabled` when one job spans VMs (MPI), else `Disabled`. Such a pool holds at most " + strconv.Itoa(deploy.BatchMPINodesBatchService) + " nodes, " + strconv.Itoa(deploy.BatchMPINodesUserSubscription) + " in a `UserSubscription` account, which `spot` needs: the job's `nodes` stay within it."),
						"target_dedicated_nodes":    int64Attr("`fixed_scale.target_dedicated_nodes`: the recommendation's `nodes` without `spot`, and with `spot` where Azure sells no Spot VMs of the size in its region (catalog decision D75); else 0."),
						"target_low_priority_nodes": int64Attr("`fixed_scale.target_low_priority_nodes`: the recommendation's `nodes` with `spot` (Batch's low-priority VMs retired in 2025; the setting now gives Spot VMs, in pools of a Batch account whose pool allocation mode is `UserSubscription`), except where Azure sells no Spot VMs of the size in its region (catalog decision D75); else 0."),
						"max_tasks_per_node":        int64Attr("`max_tasks_per_node` (Batch's `taskSlotsPerNode`, which defaults to 1): for `htc`, the tasks each node runs at once in the layout, one per vCPU it uses (`cores` spread evenly over the nodes, else every vCPU), at most Batch's limit, the smaller of " + strconv.Itoa(deploy.BatchTaskSlotsPerVCPU) + " × the size's vCPUs and " + strconv.Itoa(deploy.BatchTaskSlotsMax) + " (the note then says so); `1` for a pool whose nodes talk to each other (an MPI job's multi-instance task takes each node whole) and for the other workloads."),
						"note":                      strAttr("What else the pool needs, or null."),
					},
				},
			},
		},
		"quota": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The layout's vCPU quota in its `region`, from the provider's `usage_files`; null without them. " + quotaRanking(),
			Attributes: map[string]schema.Attribute{
				"family":       strAttr("The size's quota family (the Resource SKUs API's `family`, for example `standardNDSH100v5Family`): the `availability_file`'s, else the catalog's; null when neither knows it."),
				"vcpus_needed": int64Attr("The vCPUs the layout counts against quota: `nodes` × the size's quota vCPUs (a constrained-core size counts its parent's)."),
				"family_vcpus_available": int64Attr("The family's limit minus its usage in the usage file of `region`; null for `spot` (Spot VMs count against the region's low-priority vCPUs only) " +
					"or when the file does not list the family."),
				"regional_vcpus_available": int64Attr("The region's total vCPU limit minus its usage (for `spot`, the low-priority vCPUs'); null when `region` has no usage file."),
				"status": strAttr("`sufficient`; `unknown` (no usage file for `region`, or the family is not in it); or `insufficient`: even the smallest layout that holds the job " +
					"(or the stated `nodes` or `deadline_hours`) needs more vCPUs than the family or the region leaves. A job scaled out only for the default deadline uses at most the VMs the quota leaves and runs longer, with a warning."),
			},
		},
		"estimate": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "The time and cost of the job on this layout, from the throughput model (the [ranking guide](../guides/ranking.md) explains it); " +
				"null where the request defines no work to time: no model trained or fine-tuned on GPUs with work the throughput model times (tokens for language models and encoders, samples for vision, diffusion and speech models), no language model served (a served model's estimate replaced by `gpu_memory_gib` included), and a workload other than `hpc` and `htc`. " +
				"A figure the inputs do not define, or the catalog lacks the facts for, is null.",
			Attributes: map[string]schema.Attribute{
				"job_hours": float64Attr("Wall time of the whole job on this layout, in hours: for `training` and `fine_tuning`, `requirements.training_flops` ÷ (VMs × GPUs used × dense peak at the compute precision, for `fp8` the bf16 peak × 1.5, fp8 training's measured speed-up × `efficiency`); " +
					"for `hpc` and `htc` with `reference_run`, the run's hours × its throughput ÷ this layout's, to " + strconv.Itoa(recommend.HPCJobHoursDigits) + " significant digits, from which `job_cost_usd` and `license_cost_usd` are computed (so this figure × the hourly prices reproduces them to the cent); null otherwise."),
				"job_cost_usd":             float64Attr("Cost of the whole job, in USD: `job_hours` × `total_price_per_hour` (for `hpc` and `htc`, the reported `job_hours` × (`total_price_per_hour` + the cores this layout runs × `license_cost_per_core_hour`), rounded to the cent); null where `job_hours` is, or where the size has no price."),
				"license_cost_usd":         float64Attr("`hpc` and `htc` with `reference_run` and `license_cost_per_core_hour`: the licences of the whole job, `job_hours` × the cores this layout runs × `license_cost_per_core_hour`, in USD; null otherwise."),
				"license_cost_per_hour":    float64Attr("`hpc` and `htc` with `license_cost_per_core_hour` and no `reference_run`: the cores this layout runs × `license_cost_per_core_hour`, USD per hour; null otherwise."),
				"tokens_per_second":        float64Attr("Tokens per second of the whole layout: processed (`training`, `fine_tuning`); for `inference`, output by every copy of the model: with a load (`tokens_per_second`, `requests_per_second`), the layout's capacity, each copy at `sequences_per_copy`; without one, serving `concurrent_requests`; null for other workloads."),
				"cost_per_million_tokens":  float64Attr("USD per million of those tokens (output tokens for `inference`); null where `tokens_per_second` is, or where the size has no price."),
				"samples_per_second":       float64Attr("`training` and `fine_tuning` of a vision, diffusion or speech model: samples per second of the whole layout, `requirements.samples_million` ÷ `job_hours`; null for other jobs."),
				"time_to_first_token_ms":   float64Attr("`inference`: a request's mean time to its first output token on this layout, in milliseconds: its prompt's prefill plus the decode step it joins, plus " + strconv.FormatFloat(perfmodel.FirstTokenSeconds*1000, 'f', -1, 64) + " ms of the server's own work (parsing, tokenizing, scheduling) and, at a stated load, its wait for a copy (queueing); without a load, at each copy's share of the concurrent requests, with no wait for a copy; null for other workloads."),
				"time_per_output_token_ms": float64Attr("`inference`: a request's mean time per output token after the first, in milliseconds, with the prefills continuous batching interleaves, at the stated load (without one, at each copy's share of the concurrent requests); null for other workloads."),
				"requests_per_second":      float64Attr("`inference`: requests the layout completes per second, `tokens_per_second` ÷ the output tokens of a request (its capacity, not the stated `requests_per_second`); null for other workloads."),
				"sequences_per_copy":       int64Attr("`inference`: the most sequences one copy decodes together, its serving engine's `max_num_seqs` (vLLM, SGLang), within the KV cache and the latency targets; null for other workloads."),
				"concurrent_requests":      int64Attr("`inference`: the requests in the service: at a load, those in flight there (Little's law); without one, `concurrent_requests` or its default; null for other workloads."),
				"relative_throughput":      float64Attr("`hpc` and `htc`: this layout's throughput by `requirements.hpc_bound` relative to the best layout of the request (1 for the best); null for other workloads."),
				"efficiency": float64Attr("The utilization the estimate used: model FLOPs utilization for `training` and `fine_tuning`, memory bandwidth utilization for `inference`, " +
					"parallel efficiency for `hpc` and `htc`, rounded to 4 decimals; 0 where the catalog has no figures to estimate with."),
				"assumptions": supportList("The formula, constants and facts of the estimate, in plain sentences."),
			},
		},
		"sku": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "A summary of the size's record: the attributes of `hpcsku_sku`'s `sku` listed here, with the same names and nesting. " +
				"The full record (performance with sources, support, image, prices, availability, notes) is one `hpcsku_sku` lookup away, or in `sku_records` with `full_records = true`.",
			Attributes: projectAttributes(skuAttributes(), skuSummaryFields),
		},
	}
}

// recommendationSchema is hpcsku_recommendation's schema, and
// recommendationStateType the type of its state, built once.
var (
	recommendationSchema = sync.OnceValue(func() schema.Schema {
		var resp datasource.SchemaResponse
		(&recommendationDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
		return resp.Schema
	})
	recommendationStateType = sync.OnceValue(func() tftypes.Type {
		return recommendationSchema().Type().TerraformType(context.Background())
	})
)
