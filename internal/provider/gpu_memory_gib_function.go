// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

var _ function.Function = (*gpuMemoryGiBFunction)(nil)

// memoryWorkloads returns the workloads recommend.EstimateGPUMemoryGiB models.
func memoryWorkloads() []string {
	return []string{recommend.WorkloadTraining, recommend.WorkloadFineTuning, recommend.WorkloadInference}
}

// gpuMemoryGiBFunction is
// provider::hpcsku::gpu_memory_gib(parameters_billion, precision, workload).
type gpuMemoryGiBFunction struct {
	provider *hpcskuProvider
}

func newGPUMemoryGiBFunction(p *hpcskuProvider) function.Function {
	return &gpuMemoryGiBFunction{provider: p}
}

func (f *gpuMemoryGiBFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "gpu_memory_gib"
}

func (f *gpuMemoryGiBFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Estimate the GPU memory, in GiB, that a model needs for training, fine-tuning or inference.",
		MarkdownDescription: "Returns the total GPU memory in GiB, rounded to 0.01, that a model of `parameters_billion` parameters " +
			"needs at `precision` for `workload`. It is the same estimate `hpcsku_recommendation` uses and reports in `requirements.memory.gib`, " +
			"so a module can show it or check a size against it, for example against `provider::hpcsku::sku(var.size).gpu.memory_gib_total`.\n\n" +
			"For `training` and `fine_tuning` it counts, per parameter, the weights at `precision`, gradients at that precision but at least 2 bytes, " +
			"an fp32 master copy of the weights when they are narrower than 4 bytes, and Adam's two fp32 moments, then adds activation headroom " +
			"(50% for `training`, 25% for `fine_tuning`). For `inference` it counts the weights and adds 20% for the KV cache and activations. " +
			"The [ranking guide](../guides/ranking.md) explains the model and its sources.\n\n" +
			"It reads no catalog and no date, so its result never changes between plan and apply.",
		Parameters: []function.Parameter{
			function.Float64Parameter{
				Name: "parameters_billion",
				MarkdownDescription: "Parameters in billions, for example `70` or `1.3`. " +
					"Must be greater than `0` and at most `100000`; zero or a negative number fails the call.",
				AllowNullValue:     false,
				AllowUnknownValues: false,
				Validators: []function.Float64ParameterValidator{
					numberRangeValidator{min: 0, minExclusive: true, max: recommend.MaxParametersBillion},
				},
			},
			function.StringParameter{
				Name:                "precision",
				MarkdownDescription: "Numeric precision of the weights, one of " + quoted(recommend.Precisions()) + ". `tf32` weights are stored in fp32.",
				AllowNullValue:      false,
				AllowUnknownValues:  false,
				Validators:          []function.StringParameterValidator{stringvalidator.OneOf(recommend.Precisions()...)},
			},
			function.StringParameter{
				Name:                "workload",
				MarkdownDescription: "What the model is used for, one of " + quoted(memoryWorkloads()) + ".",
				AllowNullValue:      false,
				AllowUnknownValues:  false,
				Validators:          []function.StringParameterValidator{stringvalidator.OneOf(memoryWorkloads()...)},
			},
		},
		Return: function.Float64Return{},
	}
}

func (f *gpuMemoryGiBFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var params float64
	var precision, workload string
	resp.Error = req.Arguments.Get(ctx, &params, &precision, &workload)
	if resp.Error != nil {
		return
	}
	est, err := recommend.EstimateGPUMemoryGiB(params, precision, workload)
	if err != nil {
		// The parameter validators accept only what the engine accepts, so
		// this is a disagreement between them: a provider bug.
		tflog.Error(ctx, "memory estimate failed", map[string]any{"error": err.Error()})
		resp.Error = function.NewFuncError("Memory Estimate Failed: The GPU memory estimate rejected arguments the function accepted. " +
			"This is a bug in the provider; please report it with this message: " + err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, est.GiB)
}
