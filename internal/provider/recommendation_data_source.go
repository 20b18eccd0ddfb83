// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

var (
	_ datasource.DataSource              = (*recommendationDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*recommendationDataSource)(nil)
)

// NewRecommendationDataSource returns the hpcsku_recommendation data source.
func NewRecommendationDataSource() datasource.DataSource { return &recommendationDataSource{} }

type recommendationDataSource struct {
	data *providerData
}

// recommendationTypeName is the data source's type name.
const recommendationTypeName = "hpcsku_recommendation"

func (d *recommendationDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = recommendationTypeName
}

func (d *recommendationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := recommendationInputAttributes()
	for k, v := range recommendationOutputAttributes() {
		attrs[k] = v
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Turns a workload (\"fine-tune a 7B model in bf16 on AKS\", \"MPI CFD on 2,000 cores\") into a ranked, explained list of Azure sizes. " +
			"It derives the requirements (GPU memory, nodes, interconnect, category) from Microsoft's guidance, removes sizes that fail a hard constraint " +
			"(counting each constraint in `rejected`), and ranks the rest with reasons and warnings. When nothing fits it fails with an error that lists " +
			"each constraint with its count and the nearest miss, never an empty result. The rules are explained in the [ranking guide](../guides/ranking.md).",
		Attributes: attrs,
	}
}

func (d *recommendationDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := configureData(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

func float64Ptr(v types.Float64) *float64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	f := v.ValueFloat64()
	return &f
}

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := v.ValueInt64()
	return &i
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// requestFromConfig maps the configuration to an engine request.
func requestFromConfig(ctx context.Context, cfg recommendationDataSourceModel, data *providerData, diags *diag.Diagnostics) recommend.Request {
	req := recommend.Request{
		Workload:                cfg.Workload.ValueString(),
		FineTuningMethod:        cfg.FineTuningMethod.ValueString(),
		ContextTokens:           int64Ptr(cfg.ContextTokens),
		ConcurrentRequests:      int64Ptr(cfg.ConcurrentRequests),
		PromptTokens:            int64Ptr(cfg.PromptTokens),
		OutputTokens:            int64Ptr(cfg.OutputTokens),
		MaxTimeToFirstTokenMs:   float64Ptr(cfg.MaxTimeToFirstToken),
		MaxTimePerOutputTokenMs: float64Ptr(cfg.MaxTimePerOutput),
		MinReplicas:             int64Ptr(cfg.MinReplicas),
		TrainingBatchSize:       int64Ptr(cfg.TrainingBatchSize),
		TokensBillion:           float64Ptr(cfg.TokensBillion),
		SamplesMillion:          float64Ptr(cfg.SamplesMillion),
		DeadlineHours:           float64Ptr(cfg.DeadlineHours),
		TokensPerSecond:         float64Ptr(cfg.TokensPerSecond),
		RequestsPerSecond:       float64Ptr(cfg.RequestsPerSecond),
		HPCBound:                cfg.HPCBound.ValueString(),
		ParallelEfficiency:      float64Ptr(cfg.ParallelEfficiency),
		LicenseCostPerCoreHour:  float64Ptr(cfg.LicenseCostPerCore),
		GPUMemoryGiB:            float64Ptr(cfg.GPUMemoryGiB),
		GPUs:                    int64Ptr(cfg.GPUs),
		Nodes:                   int64Ptr(cfg.Nodes),
		MaxNodes:                int64Ptr(cfg.MaxNodes),
		Cores:                   int64Ptr(cfg.Cores),
		MinVCPUs:                int64Ptr(cfg.MinVCPUs),
		MinMemoryGiB:            float64Ptr(cfg.MinMemoryGiB),
		TotalMemoryGiB:          float64Ptr(cfg.TotalMemoryGiB),
		MinLocalDiskGiB:         float64Ptr(cfg.MinLocalDiskGiB),
		Interconnect:            cfg.Interconnect.ValueString(),
		GPUVendor:               cfg.GPUVendor.ValueString(),
		GPUModels:               listStrings(ctx, cfg.GPUModels, diags),
		CUDAVersion:             cfg.CUDAVersion.ValueString(),
		MinComputeCapability:    cfg.MinComputeCapability.ValueString(),
		Target:                  cfg.Target.ValueString(),
		Region:                  cfg.Region.ValueString(),
		Regions:                 listStrings(ctx, cfg.Regions, diags),
		Usage:                   data.Usage,
		RequireQuota:            cfg.RequireQuota.ValueBool(),
		MaxPricePerHour:         float64Ptr(cfg.MaxPricePerHour),
		MaxTotalPricePerHour:    float64Ptr(cfg.MaxTotalPricePerHour),
		Spot:                    cfg.Spot.ValueBool(),
		MinLifetimeMonths:       int64Ptr(cfg.MinLifetimeMonths),
		IncludePreview:          cfg.IncludePreview.ValueBool(),
		IncludeOnRequest:        cfg.IncludeOnRequest.ValueBool(),
		Confidential:            boolPtr(cfg.Confidential),
		Isolated:                boolPtr(cfg.Isolated),
		OptimizeFor:             cfg.OptimizeFor.ValueString(),
		MaxResults:              int64Ptr(cfg.MaxResults),
		Prefer:                  listStrings(ctx, cfg.Prefer, diags),
		AsOf:                    data.AsOf,
	}
	if !cfg.ReferenceRun.IsNull() && !cfg.ReferenceRun.IsUnknown() {
		var rr referenceRunInput
		diags.Append(cfg.ReferenceRun.As(ctx, &rr, basetypes.ObjectAsOptions{})...)
		req.ReferenceRun = &recommend.ReferenceRun{VMSize: rr.VMSize.ValueString(), Nodes: rr.Nodes.ValueInt64(), Hours: rr.Hours.ValueFloat64(), Cores: int64Ptr(rr.Cores)}
	}
	if !cfg.Model.IsNull() && !cfg.Model.IsUnknown() {
		var m recommendationModelInput
		diags.Append(cfg.Model.As(ctx, &m, basetypes.ObjectAsOptions{})...)
		req.Model = &recommend.Model{
			Name:                    m.Name.ValueString(),
			ParametersBillion:       m.ParametersBillion.ValueFloat64(),
			ActiveParametersBillion: m.ActiveParametersBillion.ValueFloat64(),
			Precision:               m.Precision.ValueString(),
			Class:                   m.Class.ValueString(),
			ForwardGFLOPs:           m.ForwardGFLOPs.ValueFloat64(),
		}
	}
	return req
}

func (d *recommendationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	state, diags := readRecommendation(ctx, req.Config, d.data)
	resp.Diagnostics = diags
	if !diags.HasError() {
		resp.State.Raw = state
	}
}

// readRecommendation is the read of hpcsku_recommendation: the state for
// config, or the diagnostics that stop it. The framework calls it through
// Read; the provider's server (server.go) calls it directly.
func readRecommendation(ctx context.Context, config tfsdk.Config, data *providerData) (state tftypes.Value, diags diag.Diagnostics) {
	// A list of thousands of unknown names is one problem, not thousands of diagnostics.
	defer func() { diags = limitDiagnostics(diags) }()
	var cfg recommendationDataSourceModel
	if diags.Append(modelFromConfig(ctx, config, recommendationSchema().Attributes, &cfg)...); diags.HasError() {
		return tftypes.Value{}, diags
	}
	if data == nil {
		diags.AddError("Provider Not Configured", "The hpcsku provider was not configured before reading hpcsku_recommendation. This is a bug in the provider; please report it.")
		return tftypes.Value{}, diags
	}
	result := recommendFor(ctx, cfg, data, &diags)
	if diags.HasError() {
		return tftypes.Value{}, diags
	}
	for _, w := range result.Warnings {
		diags.AddWarning(w.Summary, w.Detail)
	}
	if diags.Append(setRecommendationOutputs(ctx, &cfg, result, data)...); diags.HasError() {
		return tftypes.Value{}, diags
	}
	state, d := stateValue(ctx, recommendationStateType(), cfg)
	return state, append(diags, d...)
}

// recommendFor ranks the sizes for cfg. Malformed inputs and names the
// catalog does not know stop before any ranking. Soft findings
// (contradictions such as gpu_vendor = "amd" with cuda_version) leave the
// ranking to decide: when nothing fits they are reported on their
// attributes next to the no-fit error; otherwise the result's own warnings
// cover them.
func recommendFor(ctx context.Context, cfg recommendationDataSourceModel, data *providerData, diags *diag.Diagnostics) *recommend.Result {
	eng := data.Engine
	r := requestFromConfig(ctx, cfg, data, diags)
	if diags.HasError() {
		return nil
	}
	var soft []recommend.FieldError
	for _, fe := range eng.Validate(r) {
		if fe.Kind != recommend.KindInvalid {
			soft = append(soft, fe)
			continue
		}
		addFieldError(diags, fe.Path, fe.Summary, fe.Detail)
	}
	if diags.HasError() {
		return nil
	}
	result, err := eng.Recommend(r)
	var nf *recommend.NoFitError
	switch {
	case errors.As(err, &nf):
		diags.AddError("No VM Size Fits", nf.Error())
		for _, fe := range soft {
			addFieldError(diags, fe.Path, fe.Summary, fe.Detail)
		}
	case err != nil:
		diags.AddError("Recommendation Failed", "The ranking engine failed. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
	}
	return result
}
