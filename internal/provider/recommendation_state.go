// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"math"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

type recommendationModelInput struct {
	Name                    types.String  `tfsdk:"name"`
	ParametersBillion       types.Float64 `tfsdk:"parameters_billion"`
	ActiveParametersBillion types.Float64 `tfsdk:"active_parameters_billion"`
	Precision               types.String  `tfsdk:"precision"`
	Class                   types.String  `tfsdk:"class"`
	ForwardGFLOPs           types.Float64 `tfsdk:"forward_gflops"`
}

// referenceRunInput is `reference_run`.
type referenceRunInput struct {
	VMSize types.String  `tfsdk:"vm_size"`
	Nodes  types.Int64   `tfsdk:"nodes"`
	Hours  types.Float64 `tfsdk:"hours"`
	Cores  types.Int64   `tfsdk:"cores"`
}

type recommendationDataSourceModel struct {
	Workload             types.String  `tfsdk:"workload"`
	Model                types.Object  `tfsdk:"model"`
	FineTuningMethod     types.String  `tfsdk:"fine_tuning_method"`
	ContextTokens        types.Int64   `tfsdk:"context_tokens"`
	ConcurrentRequests   types.Int64   `tfsdk:"concurrent_requests"`
	PromptTokens         types.Int64   `tfsdk:"prompt_tokens"`
	OutputTokens         types.Int64   `tfsdk:"output_tokens"`
	MaxTimeToFirstToken  types.Float64 `tfsdk:"max_time_to_first_token_ms"`
	MaxTimePerOutput     types.Float64 `tfsdk:"max_time_per_output_token_ms"`
	MinReplicas          types.Int64   `tfsdk:"min_replicas"`
	TrainingBatchSize    types.Int64   `tfsdk:"training_batch_size"`
	TokensBillion        types.Float64 `tfsdk:"tokens_billion"`
	SamplesMillion       types.Float64 `tfsdk:"samples_million"`
	DeadlineHours        types.Float64 `tfsdk:"deadline_hours"`
	TokensPerSecond      types.Float64 `tfsdk:"tokens_per_second"`
	RequestsPerSecond    types.Float64 `tfsdk:"requests_per_second"`
	HPCBound             types.String  `tfsdk:"hpc_bound"`
	ParallelEfficiency   types.Float64 `tfsdk:"parallel_efficiency"`
	ReferenceRun         types.Object  `tfsdk:"reference_run"`
	LicenseCostPerCore   types.Float64 `tfsdk:"license_cost_per_core_hour"`
	GPUMemoryGiB         types.Float64 `tfsdk:"gpu_memory_gib"`
	GPUs                 types.Int64   `tfsdk:"gpus"`
	Nodes                types.Int64   `tfsdk:"nodes"`
	MaxNodes             types.Int64   `tfsdk:"max_nodes"`
	Cores                types.Int64   `tfsdk:"cores"`
	MinVCPUs             types.Int64   `tfsdk:"min_vcpus"`
	MinMemoryGiB         types.Float64 `tfsdk:"min_memory_gib"`
	TotalMemoryGiB       types.Float64 `tfsdk:"total_memory_gib"`
	MinLocalDiskGiB      types.Float64 `tfsdk:"min_local_disk_gib"`
	Interconnect         types.String  `tfsdk:"interconnect"`
	GPUVendor            types.String  `tfsdk:"gpu_vendor"`
	GPUModels            types.List    `tfsdk:"gpu_models"`
	CUDAVersion          types.String  `tfsdk:"cuda_version"`
	MinComputeCapability types.String  `tfsdk:"min_compute_capability"`
	Target               types.String  `tfsdk:"target"`
	Region               types.String  `tfsdk:"region"`
	Regions              types.List    `tfsdk:"regions"`
	RequireQuota         types.Bool    `tfsdk:"require_quota"`
	MaxPricePerHour      types.Float64 `tfsdk:"max_price_per_hour"`
	MaxTotalPricePerHour types.Float64 `tfsdk:"max_total_price_per_hour"`
	Spot                 types.Bool    `tfsdk:"spot"`
	MinLifetimeMonths    types.Int64   `tfsdk:"min_lifetime_months"`
	IncludePreview       types.Bool    `tfsdk:"include_preview"`
	IncludeOnRequest     types.Bool    `tfsdk:"include_on_request"`
	Confidential         types.Bool    `tfsdk:"confidential"`
	Isolated             types.Bool    `tfsdk:"isolated"`
	OptimizeFor          types.String  `tfsdk:"optimize_for"`
	MaxResults           types.Int64   `tfsdk:"max_results"`
	Prefer               types.List    `tfsdk:"prefer"`
	FullRecords          types.Bool    `tfsdk:"full_records"`

	// Computed outputs: null in the configuration, always known in the
	// state (the slices are never nil there).
	VMSize          types.String        `tfsdk:"vm_size"`
	VMSizes         []string            `tfsdk:"vm_sizes"`
	Requirements    *requirementsOut    `tfsdk:"requirements"`
	Rejected        []rejectionOut      `tfsdk:"rejected"`
	AsOf            types.String        `tfsdk:"as_of"`
	CatalogVersion  types.String        `tfsdk:"catalog_version"`
	Recommendations []recommendationOut `tfsdk:"recommendations"`
	SKURecords      types.Dynamic       `tfsdk:"sku_records"`
}

type recommendationOut struct {
	Rank     int64   `tfsdk:"rank"`
	Score    float64 `tfsdk:"score"`
	VMSize   string  `tfsdk:"vm_size"`
	Nodes    int64   `tfsdk:"nodes"`
	Replicas int64   `tfsdk:"replicas"`
	// TensorParallelSize and PipelineParallelSize are nil (null) when the
	// engine gives 0: not inference of a model.
	TensorParallelSize   *int64        `tfsdk:"tensor_parallel_size"`
	PipelineParallelSize *int64        `tfsdk:"pipeline_parallel_size"`
	GPUsPerNode          float64       `tfsdk:"gpus_per_node"`
	TotalGPUs            float64       `tfsdk:"total_gpus"`
	TotalGPUMemoryGiB    float64       `tfsdk:"total_gpu_memory_gib"`
	PricePerHour         *float64      `tfsdk:"price_per_hour"`
	TotalPricePerHour    *float64      `tfsdk:"total_price_per_hour"`
	PricePerGPUHour      *float64      `tfsdk:"price_per_gpu_hour"`
	PriceIsSpot          bool          `tfsdk:"price_is_spot"`
	Region               *string       `tfsdk:"region"`
	PriceSource          *string       `tfsdk:"price_source"`
	Reasons              []string      `tfsdk:"reasons"`
	Warnings             []string      `tfsdk:"warnings"`
	Deployment           deploymentOut `tfsdk:"deployment"`
	// Estimate is nil (null) when the engine gives none: the request
	// defines no work to time.
	Estimate *estimateOut `tfsdk:"estimate"`
	// Quota is nil (null) without the provider's usage_files.
	Quota *quotaOut `tfsdk:"quota"`
	// SKU is the memoized SKU summary (providerData.skus).
	SKU types.Object `tfsdk:"sku"`
}

// estimateOut is a recommendation's `estimate`; a figure the engine does
// not give (nil) is null.
type estimateOut struct {
	JobHours             *float64 `tfsdk:"job_hours"`
	JobCostUSD           *float64 `tfsdk:"job_cost_usd"`
	TokensPerSecond      *float64 `tfsdk:"tokens_per_second"`
	CostPerMillionTokens *float64 `tfsdk:"cost_per_million_tokens"`
	SamplesPerSecond     *float64 `tfsdk:"samples_per_second"`
	TimeToFirstTokenMs   *float64 `tfsdk:"time_to_first_token_ms"`
	TimePerOutputTokenMs *float64 `tfsdk:"time_per_output_token_ms"`
	RequestsPerSecond    *float64 `tfsdk:"requests_per_second"`
	SequencesPerCopy     *int64   `tfsdk:"sequences_per_copy"`
	ConcurrentRequests   *int64   `tfsdk:"concurrent_requests"`
	RelativeThroughput   *float64 `tfsdk:"relative_throughput"`
	LicenseCostUSD       *float64 `tfsdk:"license_cost_usd"`
	LicenseCostPerHour   *float64 `tfsdk:"license_cost_per_hour"`
	Efficiency           float64  `tfsdk:"efficiency"`
	Assumptions          []string `tfsdk:"assumptions"`
}

type deploymentOut struct {
	ImageURN                     *string          `tfsdk:"image_urn"`
	ImageSource                  *string          `tfsdk:"image_source"`
	CPUArchitecture              *string          `tfsdk:"cpu_architecture"`
	AcceleratedNetworking        bool             `tfsdk:"accelerated_networking"`
	RDMA                         bool             `tfsdk:"rdma"`
	RDMAPlacement                *string          `tfsdk:"rdma_placement"`
	SinglePlacementGroup         bool             `tfsdk:"single_placement_group"`
	Zones                        []string         `tfsdk:"zones"` // nil (null) without an availability file
	SecurityType                 *string          `tfsdk:"security_type"`
	VTPMEnabled                  bool             `tfsdk:"vtpm_enabled"`
	SecureBootEnabled            bool             `tfsdk:"secure_boot_enabled"`
	OSDiskSecurityEncryptionType *string          `tfsdk:"os_disk_security_encryption_type"`
	Spot                         *spotOut         `tfsdk:"spot"`
	Note                         *string          `tfsdk:"note"`
	Interconnect                 *interconnectOut `tfsdk:"interconnect"`
	Serving                      *servingOut      `tfsdk:"serving"`
	Launch                       *launchOut       `tfsdk:"launch"`
	AKS                          *aksOut          `tfsdk:"aks"`
	CycleCloud                   *cycleCloudOut   `tfsdk:"cyclecloud"`
	AzureML                      *azureMLOut      `tfsdk:"azureml"`
	Batch                        *batchOut        `tfsdk:"batch"`
}

type interconnectOut struct {
	HighSpeedInterconnectPlacement string   `tfsdk:"high_speed_interconnect_placement"`
	APIVersion                     string   `tfsdk:"api_version"`
	RackVMs                        int64    `tfsdk:"rack_vms"`
	Racks                          int64    `tfsdk:"racks"`
	ScaleSets                      int64    `tfsdk:"scale_sets"`
	InterconnectBlockCapacity      int64    `tfsdk:"interconnect_block_capacity"`
	Sources                        []string `tfsdk:"sources"`
	Note                           string   `tfsdk:"note"`
}

type servingOut struct {
	VLLMArgs   []string `tfsdk:"vllm_args"`
	SGLangArgs []string `tfsdk:"sglang_args"`
	Note       *string  `tfsdk:"note"`
}

type launchOut struct {
	NNodes       int64             `tfsdk:"nnodes"`
	NProcPerNode int64             `tfsdk:"nproc_per_node"`
	Env          map[string]string `tfsdk:"env"`
}

type spotOut struct {
	Priority       string  `tfsdk:"priority"`
	EvictionPolicy string  `tfsdk:"eviction_policy"`
	MaxBidPrice    float64 `tfsdk:"max_bid_price"`
}

type aksOut struct {
	NodeTaints           []string          `tfsdk:"node_taints"`
	NodeLabels           map[string]string `tfsdk:"node_labels"`
	GPUDriver            *string           `tfsdk:"gpu_driver"`
	OSSKU                *string           `tfsdk:"os_sku"`
	Spot                 *aksSpotOut       `tfsdk:"spot"`
	NodeAutoProvisioning *nodeRequirement  `tfsdk:"node_auto_provisioning"`
	KAITO                *kaitoOut         `tfsdk:"kaito"`
	Note                 *string           `tfsdk:"note"`
}

type kaitoOut struct {
	InstanceType  string            `tfsdk:"instance_type"`
	Count         int64             `tfsdk:"count"`
	Workspaces    int64             `tfsdk:"workspaces"`
	LabelSelector map[string]string `tfsdk:"label_selector"`
	PresetName    *string           `tfsdk:"preset_name"`
	Note          string            `tfsdk:"note"`
}

type aksSpotOut struct {
	Priority             string           `tfsdk:"priority"`
	EvictionPolicy       string           `tfsdk:"eviction_policy"`
	SpotMaxPrice         float64          `tfsdk:"spot_max_price"`
	NodeAutoProvisioning *nodeRequirement `tfsdk:"node_auto_provisioning"`
}

type nodeRequirement struct {
	Key      string   `tfsdk:"key"`
	Operator string   `tfsdk:"operator"`
	Values   []string `tfsdk:"values"`
}

type cycleCloudOut struct {
	Partition            string   `tfsdk:"partition"`
	MachineType          string   `tfsdk:"machine_type"`
	OSImage              *string  `tfsdk:"os_image"`
	MaxNodes             int64    `tfsdk:"max_nodes"`
	MaxScaleSetSize      *int64   `tfsdk:"max_scaleset_size"`
	FallbackMachineTypes []string `tfsdk:"fallback_machine_types"`
	Interruptible        bool     `tfsdk:"interruptible"`
	SbatchArgs           []string `tfsdk:"sbatch_args"`
	Note                 *string  `tfsdk:"note"`
}

type azureMLOut struct {
	VMSize       string `tfsdk:"vm_size"`
	VMPriority   string `tfsdk:"vm_priority"`
	MinNodeCount int64  `tfsdk:"min_node_count"`
	MaxNodeCount int64  `tfsdk:"max_node_count"`
}

type batchOut struct {
	VMSize                 string             `tfsdk:"vm_size"`
	NodeAgentSKUID         *string            `tfsdk:"node_agent_sku_id"`
	Image                  *imageReferenceOut `tfsdk:"image"`
	InterNodeCommunication string             `tfsdk:"inter_node_communication"`
	TargetDedicatedNodes   int64              `tfsdk:"target_dedicated_nodes"`
	TargetLowPriorityNodes int64              `tfsdk:"target_low_priority_nodes"`
	MaxTasksPerNode        int64              `tfsdk:"max_tasks_per_node"`
	Note                   *string            `tfsdk:"note"`
}

type imageReferenceOut struct {
	Publisher string `tfsdk:"publisher"`
	Offer     string `tfsdk:"offer"`
	SKU       string `tfsdk:"sku"`
	Version   string `tfsdk:"version"`
}

// memoryOut is requirements.memory; a part the estimate does not have
// (0) is null.
type memoryOut struct {
	GiB               float64  `tfsdk:"gib"`
	BytesPerParameter float64  `tfsdk:"bytes_per_parameter"`
	WeightsGiB        *float64 `tfsdk:"weights_gib"`
	GradientsGiB      *float64 `tfsdk:"gradients_gib"`
	OptimizerGiB      *float64 `tfsdk:"optimizer_gib"`
	AdaptersGiB       *float64 `tfsdk:"adapters_gib"`
	ActivationsGiB    *float64 `tfsdk:"activations_gib"`
	KVCacheGiB        *float64 `tfsdk:"kv_cache_gib"`
	Formula           string   `tfsdk:"formula"`
}

type requirementsOut struct {
	Category          string     `tfsdk:"category"`
	PreferredFamilies []string   `tfsdk:"preferred_families"`
	GPUMemoryGiB      *float64   `tfsdk:"gpu_memory_gib"`
	Memory            *memoryOut `tfsdk:"memory"`
	SystemMemoryGiB   *float64   `tfsdk:"system_memory_gib"`
	Nodes             int64      `tfsdk:"nodes"`
	Interconnect      string     `tfsdk:"interconnect"`
	MinGPUsPerJob     *float64   `tfsdk:"min_gpus_per_job"`
	// The model inputs as the estimate used them; nil (null) where they
	// do not apply.
	Precision          *string  `tfsdk:"precision"`
	Model              *string  `tfsdk:"model"`
	FineTuningMethod   *string  `tfsdk:"fine_tuning_method"`
	ContextTokens      *int64   `tfsdk:"context_tokens"`
	ConcurrentRequests *int64   `tfsdk:"concurrent_requests"`
	PromptTokens       *int64   `tfsdk:"prompt_tokens"`
	OutputTokens       *int64   `tfsdk:"output_tokens"`
	TokenSplit         *string  `tfsdk:"token_split"`
	MaxTimeToFirstTok  *float64 `tfsdk:"max_time_to_first_token_ms"`
	MaxTimePerOutput   *float64 `tfsdk:"max_time_per_output_token_ms"`
	MinReplicas        *int64   `tfsdk:"min_replicas"`
	KVCacheGiB         *float64 `tfsdk:"kv_cache_gib"`
	KVBytesPerToken    *int64   `tfsdk:"kv_bytes_per_token"`
	// The throughput model's inputs and work; nil (null) where they do
	// not apply.
	TrainingFLOPs         *float64          `tfsdk:"training_flops"`
	TrainingTokensBillion *float64          `tfsdk:"training_tokens_billion"`
	TokenBudget           *string           `tfsdk:"token_budget"`
	SamplesMillion        *float64          `tfsdk:"samples_million"`
	DeadlineHours         *float64          `tfsdk:"deadline_hours"`
	TokensPerSecond       *float64          `tfsdk:"tokens_per_second"`
	RequestsPerSecond     *float64          `tfsdk:"requests_per_second"`
	HPCBound              *string           `tfsdk:"hpc_bound"`
	Efficiency            *float64          `tfsdk:"efficiency"`
	Explanation           []string          `tfsdk:"explanation"`
	Defaults              map[string]string `tfsdk:"defaults"`
}

type rejectionOut struct {
	Constraint string   `tfsdk:"constraint"`
	Count      int64    `tfsdk:"count"`
	Examples   []string `tfsdk:"examples"`
	Reason     string   `tfsdk:"reason"`
}

// optPositive is nil (null) for a figure the engine leaves at 0 (or
// below): not applicable.
func optPositive[T int64 | float64](v T) *T {
	if v <= 0 {
		return nil
	}
	return &v
}

// quotaOut is a recommendation's `quota`.
type quotaOut struct {
	Family                 *string `tfsdk:"family"`
	VCPUsNeeded            int64   `tfsdk:"vcpus_needed"`
	FamilyVCPUsAvailable   *int64  `tfsdk:"family_vcpus_available"`
	RegionalVCPUsAvailable *int64  `tfsdk:"regional_vcpus_available"`
	Status                 string  `tfsdk:"status"`
}

// quotaOutput is a recommendation's `quota`: nil (null) without usage files.
func quotaOutput(q *recommend.Quota) *quotaOut {
	if q == nil {
		return nil
	}
	return &quotaOut{Family: strPtr(q.Family), VCPUsNeeded: q.VCPUsNeeded, FamilyVCPUsAvailable: q.FamilyVCPUsAvailable, RegionalVCPUsAvailable: q.RegionalVCPUsAvailable, Status: q.Status}
}

// estimateOutput is a recommendation's `estimate`: nil (null) when the
// engine gives none.
func estimateOutput(e *recommend.Estimate) *estimateOut {
	if e == nil {
		return nil
	}
	return &estimateOut{
		JobHours: e.JobHours, JobCostUSD: e.JobCostUSD,
		TokensPerSecond: e.TokensPerSecond, CostPerMillionTokens: e.CostPerMillionTokens, SamplesPerSecond: e.SamplesPerSecond,
		TimeToFirstTokenMs: e.TimeToFirstTokenMs, TimePerOutputTokenMs: e.TimePerOutputTokenMs, RequestsPerSecond: e.RequestsPerSecond,
		SequencesPerCopy: e.SequencesPerCopy, ConcurrentRequests: e.ConcurrentRequests,
		RelativeThroughput: e.RelativeThroughput, Efficiency: e.Efficiency,
		LicenseCostUSD: e.LicenseCostUSD, LicenseCostPerHour: e.LicenseCostPerHour,
		Assumptions: nonNil(e.Assumptions),
	}
}

// setRecommendationOutputs fills the model's computed outputs from the
// engine's result; each ranked size's `sku` comes from the memo.
func setRecommendationOutputs(ctx context.Context, cfg *recommendationDataSourceModel, result *recommend.Result, data *providerData) diag.Diagnostics {
	var diags diag.Diagnostics
	recs := make([]recommendationOut, len(result.Recommendations))
	cfg.VMSizes = make([]string, len(result.Recommendations))
	for i, rec := range result.Recommendations {
		dep := deploymentOutput(rec.Deployment)
		sku, d := data.skus.view(ctx, rec.SKU, rec.PriceRegion, data.AsOf, skuSummary)
		diags.Append(d...)
		recs[i] = recommendationOut{
			Rank: rec.Rank, Score: rec.Score, VMSize: rec.VMSize, Nodes: rec.Nodes,
			Replicas: rec.Replicas, TensorParallelSize: optPositive(rec.TensorParallel), PipelineParallelSize: optPositive(rec.PipelineStages),
			GPUsPerNode: rec.GPUsPerNode, TotalGPUs: rec.TotalGPUs, TotalGPUMemoryGiB: rec.TotalGPUMemoryGiB,
			PricePerHour: rec.PricePerHour, TotalPricePerHour: rec.TotalPricePerHour, PricePerGPUHour: rec.PricePerGPUHour,
			PriceIsSpot: rec.PriceIsSpot, Region: strPtr(rec.PriceRegion), PriceSource: strPtr(rec.PriceSource),
			Reasons: nonNil(rec.Reasons), Warnings: nonNil(rec.Warnings),
			Deployment: dep,
			Estimate:   estimateOutput(rec.Estimate),
			Quota:      quotaOutput(rec.Quota),
			SKU:        sku,
		}
		cfg.VMSizes[i] = rec.VMSize
	}
	cfg.Recommendations = recs
	var d diag.Diagnostics
	cfg.SKURecords, d = skuRecordsValue(cfg.FullRecords.ValueBool(), func() (types.Map, diag.Diagnostics) {
		return rankedRecords(ctx, result.Recommendations, data)
	})
	diags.Append(d...)
	cfg.VMSize = types.StringNull()
	if len(cfg.VMSizes) > 0 {
		cfg.VMSize = types.StringValue(cfg.VMSizes[0])
	}

	rq := result.Requirements
	cfg.Requirements = &requirementsOut{
		Category: rq.Category, PreferredFamilies: nonNil(rq.PreferredFamilies), GPUMemoryGiB: rq.GPUMemoryGiB,
		SystemMemoryGiB: rq.SystemMemoryGiB, Nodes: rq.Nodes, Interconnect: rq.Interconnect,
		MinGPUsPerJob: rq.MinGPUsPerJob, Explanation: nonNil(rq.Explanation),
		Precision: strPtr(rq.Precision), Model: strPtr(rq.Model), FineTuningMethod: strPtr(rq.FineTuningMethod),
		ContextTokens: optPositive(rq.ContextTokens), ConcurrentRequests: optPositive(rq.ConcurrentRequests),
		PromptTokens: optPositive(rq.PromptTokens), OutputTokens: optPositive(rq.OutputTokens), TokenSplit: strPtr(rq.TokenSplit),
		MaxTimeToFirstTok: optPositive(rq.MaxTimeToFirstTokenMs), MaxTimePerOutput: optPositive(rq.MaxTimePerOutputTokenMs),
		MinReplicas: optPositive(rq.MinReplicas),
		KVCacheGiB:  optPositive(rq.KVCacheGiB), KVBytesPerToken: optPositive(int64(math.Round(rq.KVBytesPerToken))),
		TrainingFLOPs: optPositive(rq.TrainingFLOPs), TrainingTokensBillion: optPositive(rq.TrainingTokensBillion), TokenBudget: strPtr(rq.TokenBudget),
		SamplesMillion: optPositive(rq.TrainingSamplesMillion),
		DeadlineHours:  optPositive(rq.DeadlineHours), TokensPerSecond: optPositive(rq.TokensPerSecond), RequestsPerSecond: optPositive(rq.RequestsPerSecond), HPCBound: strPtr(rq.HPCBound),
		Efficiency: optPositive(rq.Efficiency), Defaults: rq.Defaults,
	}
	if m := rq.Memory; m != nil {
		cfg.Requirements.Memory = &memoryOut{
			GiB: m.GiB, BytesPerParameter: m.BytesPerParameter,
			WeightsGiB: optPositive(m.WeightsGiB), GradientsGiB: optPositive(m.GradientsGiB),
			OptimizerGiB: optPositive(catalog.Round2(m.MasterWeightsGiB + m.OptimizerGiB)), AdaptersGiB: optPositive(m.AdapterGiB),
			ActivationsGiB: optPositive(m.ActivationGiB), KVCacheGiB: optPositive(m.KVCacheGiB),
			Formula: m.Formula,
		}
	}

	cfg.Rejected = make([]rejectionOut, len(result.Rejected))
	for i, x := range result.Rejected {
		cfg.Rejected[i] = rejectionOut{Constraint: x.Constraint, Count: x.Count, Examples: nonNil(x.Examples), Reason: x.Reason}
	}
	cfg.AsOf = types.StringValue(data.AsOf.Format(catalog.DateLayout))
	cfg.CatalogVersion = types.StringValue(data.Catalog.Version)
	return diags
}

// rankedRecords is `sku_records`: the full record of each ranked size, priced
// in its recommendation's region.
func rankedRecords(ctx context.Context, recs []recommend.Recommendation, data *providerData) (types.Map, diag.Diagnostics) {
	skus := make([]*catalog.SKU, len(recs))
	regions := make(map[*catalog.SKU]string, len(recs))
	for i, r := range recs {
		skus[i], regions[r.SKU] = r.SKU, r.PriceRegion
	}
	return data.skus.records(ctx, skus, func(s *catalog.SKU) string { return regions[s] }, data.AsOf)
}

// deploymentOutput converts the engine's deployment settings; empty
// strings become null.
// aksOutput is a recommendation's `deployment.aks`: nil (null) unless the
// target is aks.
func aksOutput(a *deploy.AKSDeployment) *aksOut {
	if a == nil {
		return nil
	}
	labels := a.NodeLabels
	if labels == nil {
		labels = map[string]string{}
	}
	out := &aksOut{NodeTaints: nonNil(a.NodeTaints), NodeLabels: labels, GPUDriver: strPtr(a.GPUDriver), OSSKU: strPtr(a.OSSKU), Note: strPtr(a.Note),
		NodeAutoProvisioning: requirementOutput(a.NodeAutoProvisioning)}
	if sp := a.Spot; sp != nil {
		out.Spot = &aksSpotOut{Priority: sp.Priority, EvictionPolicy: sp.EvictionPolicy, SpotMaxPrice: sp.SpotMaxPrice,
			NodeAutoProvisioning: requirementOutput(sp.NodeAutoProvisioning)}
	}
	if k := a.KAITO; k != nil {
		out.KAITO = &kaitoOut{InstanceType: k.InstanceType, Count: k.Count, Workspaces: k.Workspaces, LabelSelector: labels, PresetName: strPtr(k.PresetName), Note: k.Note}
	}
	return out
}

// requirementOutput is a node requirement, nil (null) for none.
func requirementOutput(r *deploy.NodeRequirement) *nodeRequirement {
	if r == nil {
		return nil
	}
	return &nodeRequirement{Key: r.Key, Operator: r.Operator, Values: nonNil(r.Values)}
}

func deploymentOutput(d deploy.Deployment) deploymentOut {
	dep := deploymentOut{
		ImageURN:              strPtr(d.ImageURN),
		ImageSource:           strPtr(d.ImageSource),
		CPUArchitecture:       strPtr(d.CPUArchitecture),
		AcceleratedNetworking: d.AcceleratedNetworking,
		RDMA:                  d.RDMA,
		RDMAPlacement:         strPtr(d.RDMAPlacement),
		SinglePlacementGroup:  d.SinglePlacementGroup,
		SecurityType:          strPtr(d.SecurityType), VTPMEnabled: d.VTPMEnabled, SecureBootEnabled: d.SecureBootEnabled,
		OSDiskSecurityEncryptionType: strPtr(d.OSDiskSecurityEncryptionType),
		Zones:                        d.Zones,
		Note:                         strPtr(d.Note),
	}
	if sp := d.Spot; sp != nil {
		dep.Spot = &spotOut{Priority: sp.Priority, EvictionPolicy: sp.EvictionPolicy, MaxBidPrice: sp.MaxBidPrice}
	}
	dep.AKS = aksOutput(d.AKS)
	if s := d.Serving; s != nil {
		dep.Serving = &servingOut{VLLMArgs: s.VLLMArgs, SGLangArgs: s.SGLangArgs, Note: strPtr(s.Note)}
	}
	if l := d.Launch; l != nil {
		dep.Launch = &launchOut{NNodes: l.NNodes, NProcPerNode: l.NProcPerNode, Env: l.Env}
	}
	if ic := d.Interconnect; ic != nil {
		dep.Interconnect = &interconnectOut{
			HighSpeedInterconnectPlacement: ic.HighSpeedInterconnectPlacement, APIVersion: ic.APIVersion, RackVMs: ic.RackVMs, Racks: ic.Racks, ScaleSets: ic.ScaleSets,
			InterconnectBlockCapacity: ic.InterconnectBlockCapacity, Sources: nonNil(ic.Sources), Note: ic.Note,
		}
	}
	if c := d.CycleCloud; c != nil {
		dep.CycleCloud = &cycleCloudOut{
			Partition: c.Partition, MachineType: c.MachineType, OSImage: strPtr(c.OSImage), MaxNodes: c.MaxNodes,
			MaxScaleSetSize: optPositive(c.MaxScaleSetSize), FallbackMachineTypes: nonNil(c.FallbackMachineTypes),
			Interruptible: c.Interruptible, SbatchArgs: c.SbatchArgs, Note: strPtr(c.Note),
		}
	}
	if m := d.AzureML; m != nil {
		dep.AzureML = &azureMLOut{VMSize: m.VMSize, VMPriority: m.VMPriority, MinNodeCount: m.MinNodeCount, MaxNodeCount: m.MaxNodeCount}
	}
	if b := d.Batch; b != nil {
		out := &batchOut{
			VMSize: b.VMSize, NodeAgentSKUID: strPtr(b.NodeAgentSKUID), InterNodeCommunication: b.InterNodeCommunication,
			TargetDedicatedNodes: b.TargetDedicatedNodes, TargetLowPriorityNodes: b.TargetLowPriorityNodes, MaxTasksPerNode: b.MaxTasksPerNode, Note: strPtr(b.Note),
		}
		if im := b.Image; im != nil {
			out.Image = &imageReferenceOut{Publisher: im.Publisher, Offer: im.Offer, SKU: im.SKU, Version: im.Version}
		}
		dep.Batch = out
	}
	return dep
}
