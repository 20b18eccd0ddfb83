// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

var _ function.Function = (*estimateTrainingHoursFunction)(nil)

// Argument positions of estimate_training_hours.
const (
	argTrainActive int64 = iota
	argTrainTokens
	argTrainVMSize
	argTrainNodes
	argTrainPrecision
)

// trainingParameterNames are the parameters of estimate_training_hours, by
// position; the engine's field paths of EstimateTrainingHours are the same
// names.
var trainingParameterNames = []string{"active_parameters_billion", "tokens_billion", "vm_size", "nodes", "precision"}

// trainingArguments maps the engine's field paths to the argument
// positions.
var trainingArguments = map[string]int64{
	trainingParameterNames[argTrainActive]:    argTrainActive,
	trainingParameterNames[argTrainTokens]:    argTrainTokens,
	trainingParameterNames[argTrainVMSize]:    argTrainVMSize,
	trainingParameterNames[argTrainNodes]:     argTrainNodes,
	trainingParameterNames[argTrainPrecision]: argTrainPrecision,
}

// estimateTrainingHoursFunction is
// provider::hpcsku::estimate_training_hours(active_parameters_billion, tokens_billion, vm_size, nodes, precision).
type estimateTrainingHoursFunction struct {
	provider *hpcskuProvider
}

func newEstimateTrainingHoursFunction(p *hpcskuProvider) function.Function {
	return &estimateTrainingHoursFunction{provider: p}
}

func (f *estimateTrainingHoursFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "estimate_training_hours"
}

func (f *estimateTrainingHoursFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Estimate the wall time, in hours, of training a model on a number of VMs of an Azure GPU size.",
		MarkdownDescription: "Returns the hours, rounded to 0.01 (a run shorter than 0.005 hours to two significant digits, so that it never reads as 0), that full training of a model with `active_parameters_billion` active parameters " +
			"on `tokens_billion` billion tokens takes on `nodes` VMs of `vm_size`, computing at `precision`. " +
			"It is the throughput model `hpcsku_recommendation` times training jobs with (`recommendations[*].estimate.job_hours`), for a layout you choose: " +
			"training FLOPs = " + strconv.Itoa(perfmodel.TrainingFLOPsPerToken) + " × active parameters × tokens (Kaplan et al. 2020), " +
			"divided by VMs × GPUs per VM × the GPU's dense peak at `precision` (for `fp8`, the bf16 peak × " + strconv.FormatFloat(perfmodel.FP8TrainingSpeedup, 'f', -1, 64) +
			", the speed-up fp8 training measures over bf16, not the fp8 peak, which is twice bf16's) × the model FLOPs utilization (MFU): " +
			strconv.FormatFloat(perfmodel.TrainingMFU*100, 'f', -1, 64) + "% on NVIDIA data-center GPUs, " +
			strconv.FormatFloat(perfmodel.OtherTrainingMFU*100, 'f', -1, 64) + "% on the others, " +
			"× " + strconv.FormatFloat(perfmodel.PCIeTrainingFactor, 'f', -1, 64) + " for several GPUs without NVLink, " +
			"× " + strconv.FormatFloat(perfmodel.PartialGPUTrainingFactor, 'f', -1, 64) + " for a share of a GPU, and " +
			"× " + strconv.FormatFloat(perfmodel.EthernetTrainingFactor, 'f', -1, 64) + " across VMs of a size without InfiniBand. " +
			"It leaves out the attention term the data source adds for a named model, and assumes every GPU of every VM is used. " +
			"The [ranking guide](../guides/ranking.md) explains the model and its sources.\n\n" +
			"Use it in a `precondition` or `check` block to keep a cluster that cannot finish a run in time out of a configuration.\n\n" +
			"It reads the sizes and GPU figures of the embedded catalog (not the provider's `catalog_file`: Terraform calls functions without configuring the provider) and no date, " +
			"so its result never changes between plan and apply.",
		Parameters: []function.Parameter{
			function.Float64Parameter{
				Name: trainingParameterNames[argTrainActive],
				MarkdownDescription: "Parameters one token uses, in billions: all of them for a dense model (`70` for a 70B model), the active ones for a mixture of experts. " +
					"Greater than `0` and at most `" + strconv.Itoa(recommend.MaxParametersBillion) + "`.",
				AllowNullValue:     false,
				AllowUnknownValues: false,
				Validators: []function.Float64ParameterValidator{
					inRange(recommend.RangeActiveParametersTraining),
				},
			},
			function.Float64Parameter{
				Name: trainingParameterNames[argTrainTokens],
				MarkdownDescription: "Tokens the run processes (dataset tokens × epochs), in billions. " +
					"Greater than `0` and at most `" + strconv.Itoa(recommend.MaxTokensBillion) + "`.",
				AllowNullValue:     false,
				AllowUnknownValues: false,
				Validators: []function.Float64ParameterValidator{
					inRange(recommend.RangeTokensBillion),
				},
			},
			function.StringParameter{
				Name: trainingParameterNames[argTrainVMSize],
				MarkdownDescription: "A GPU size, for example `Standard_ND96isr_H100_v5`. Case-insensitive; the `Standard_` prefix may be left out. " +
					"An unknown name fails the call with the closest names; a size without a GPU, or one whose GPU count the catalog does not know (sizes named only on retirement pages), fails it too, naming a size to use instead.",
				AllowNullValue:     false,
				AllowUnknownValues: false,
				// An empty or blank name is the engine's Missing Name error.
			},
			// A number, not an Int64Parameter: the framework reports a
			// fractional argument to an Int64Parameter as a provider bug
			// ("Unable to Convert Function Argument"), while
			// rangeValidator explains it.
			function.Float64Parameter{
				Name: trainingParameterNames[argTrainNodes],
				MarkdownDescription: "VMs of `vm_size` the run uses, a whole number from `1` to `" + strconv.Itoa(recommend.MaxNodes) + "`. " +
					"VMs of a size with InfiniBand talk over it; the others over Ethernet.",
				AllowNullValue:     false,
				AllowUnknownValues: false,
				Validators: []function.Float64ParameterValidator{
					rangeValidator{r: recommend.RangeNodes, whole: true},
				},
			},
			function.StringParameter{
				Name: trainingParameterNames[argTrainPrecision],
				MarkdownDescription: "Precision the run computes in, one of " + quoted(recommend.Precisions()) + "; null means `" + recommend.DefaultPrecision + "`. " +
					"`fp4`, `int8` and `int4` cannot train, and a precision the size's GPU does not run natively (`bf16` on a V100 or T4) fails the call with the closest one it runs.",
				AllowNullValue:     true,
				AllowUnknownValues: false,
				Validators:         []function.StringParameterValidator{oneOf(recommend.Precisions()...)},
			},
		},
		Return: function.Float64Return{},
	}
}

func (f *estimateTrainingHoursFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var active, tokens, nodes float64
	var vmSize string
	var precision types.String
	resp.Error = req.Arguments.Get(ctx, &active, &tokens, &vmSize, &nodes, &precision)
	if resp.Error != nil {
		return
	}
	eng, funcErr := f.provider.functionEngine(ctx)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	run, err := eng.ResolveTrainingRun(active, tokens, vmSize, int64(nodes), precision.ValueString())
	if err != nil {
		resp.Error = trainingEstimateError(ctx, err)
		return
	}
	// The training model times every run the engine resolves.
	est, timed := run.Time()
	if !timed {
		resp.Error = trainingEstimateError(ctx, fmt.Errorf("the training model cannot time %s at %s", vmSize, run.Precision))
		return
	}
	resp.Error = resp.Result.Set(ctx, catalog.RoundFigure(est.Hours))
}

// trainingEstimateError turns the engine's refusal into an error on the
// argument it is about. A function error names one argument; when the
// engine finds problems with several (an unknown size and an int8
// precision), the error is on the first of them in argument order, and the
// others follow, each introduced as Terraform introduces the first.
func trainingEstimateError(ctx context.Context, err error) *function.FuncError {
	var ve *recommend.ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) == 0 {
		// Nothing but a validation error is expected: a provider bug.
		tflog.Error(ctx, "training estimate failed", map[string]any{"error": err.Error()})
		return function.NewFuncError("Training Estimate Failed: The training time estimate failed. " +
			"This is a bug in the provider; please report it with this message: " + err.Error())
	}
	type problem struct {
		pos  int64 // -1: no argument
		text string
	}
	problems := make([]problem, len(ve.Errors))
	for i, fe := range ve.Errors {
		// Terraform ends a function error with a period of its own.
		problems[i] = problem{pos: -1, text: fe.Summary + ": " + strings.TrimSuffix(fe.Detail, ".")}
		if pos, ok := trainingArguments[strings.Join(fe.Path, ".")]; ok {
			problems[i].pos = pos
		}
	}
	slices.SortStableFunc(problems, func(a, b problem) int {
		if (a.pos < 0) != (b.pos < 0) {
			return cmp.Compare(b.pos, a.pos) // without an argument last
		}
		return cmp.Compare(a.pos, b.pos)
	})
	errs := make([]*function.FuncError, len(problems))
	for i, p := range problems {
		switch {
		case p.pos < 0:
			errs[i] = function.NewFuncError(p.text)
		case i == 0:
			errs[i] = function.NewArgumentFuncError(p.pos, p.text)
		default:
			errs[i] = function.NewFuncError(fmt.Sprintf("Invalid value for %q parameter: %s", trainingParameterNames[p.pos], p.text))
		}
	}
	return function.ConcatFuncErrors(errs...)
}
