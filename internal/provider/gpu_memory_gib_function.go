// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

var _ function.Function = (*gpuMemoryGiBFunction)(nil)

// memoryWorkloads returns the workloads the memory estimate models.
func memoryWorkloads() []string {
	return []string{recommend.WorkloadTraining, recommend.WorkloadFineTuning, recommend.WorkloadInference}
}

// Argument positions of gpu_memory_gib.
const (
	argParameters int64 = iota
	argPrecision
	argWorkload
	argOptions
)

// The keys of gpu_memory_gib's options object.
const (
	optModel            = "model"
	optFineTuningMethod = "fine_tuning_method"
	optContextTokens    = "context_tokens"
	optConcurrent       = "concurrent_requests"
	optBatch            = "training_batch_size"
	optActive           = "active_parameters_billion"
)

// memoryOptionKeys are the keys of the options object, in documentation
// order.
var memoryOptionKeys = []string{optModel, optFineTuningMethod, optContextTokens, optConcurrent, optBatch, optActive}

// gpuMemoryGiBFunction is
// provider::hpcsku::gpu_memory_gib(parameters_billion, precision, workload, options...).
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
			"needs at `precision` for `workload`. It is the same estimate `hpcsku_recommendation` uses and reports in `requirements.memory.gib` " +
			"for the same model and inputs, so a module can show it or check a size against it, for example against `provider::hpcsku::sku(var.size).gpu.memory_gib_total`. " +
			"The recommendation fills at most 90% of each GPU's usable memory with it, leaving the rest to the CUDA context, NCCL buffers and fragmentation; " +
			"passed as `gpu_memory_gib`, a figure is the whole need and may fill it.\n\n" +
			"For `training` (and `fine_tuning` with the `full` method) it counts, per parameter, the weights at `precision`, gradients at that precision but at least 2 bytes, " +
			"an fp32 master copy of the weights when they are narrower than 4 bytes, and Adam's two fp32 moments, then adds the checkpointed activations " +
			"of one GPU's micro-batch (one sequence of " + groupDigits(recommend.DefaultContextTokens) + " tokens unless `options` says otherwise); `fp4`, `int8` and `int4` cannot be trained this way. " +
			"`lora` counts the frozen weights at `precision` (`fp4` upcast to bf16), and `qlora` a 4-bit base, plus trainable adapters (1% of the parameters with their gradients and optimizer states) " +
			"and the activations of a micro-batch. The fine-tuning method defaults to `" + recommend.MethodQLoRA + "` for `int4` and `fp4`, `" + recommend.MethodLoRA + "` for `int8` and `" + recommend.MethodFull + "` otherwise. " +
			"For `inference` it counts the weights, a 5% workspace and the KV cache of " + strconv.Itoa(recommend.DefaultConcurrentRequests) + " concurrent sequences of " +
			groupDigits(recommend.DefaultContextTokens) + " tokens, approximated from the parameter count unless `options` names the model; a named encoder-decoder speech model (`whisper-large-v3`) keeps its decoder's cache per request instead, and another model that is not a language model 20% of the weights for activations. " +
			"The [ranking guide](../guides/ranking.md) explains the model and its sources.\n\n" +
			"An optional fourth argument, an object, sets the other inputs of `hpcsku_recommendation`: " +
			"`model` (a model of the catalog's model table, whose architecture sizes the KV cache and the activations), `fine_tuning_method`, `context_tokens`, " +
			"`concurrent_requests`, `training_batch_size` and `active_parameters_billion`, for example " +
			"`provider::hpcsku::gpu_memory_gib(null, null, \"inference\", { model = \"llama-3.1-8b\", context_tokens = 8192, concurrent_requests = 32 })`. " +
			"With `model`, a null `parameters_billion` or `precision` takes the model table's; a value given is used instead.\n\n" +
			"It reads the model table of the embedded catalog (not the provider's `catalog_file`: Terraform calls functions without configuring the provider) and no date, " +
			"so its result never changes between plan and apply.",
		Parameters: []function.Parameter{
			function.Float64Parameter{
				Name: "parameters_billion",
				MarkdownDescription: "Parameters in billions, for example `70` or `1.3`. " +
					"Must be greater than `0` and at most `" + strconv.Itoa(recommend.MaxParametersBillion) + "`; zero or a negative number fails the call. " +
					"May be null when `options.model` names a model: the model table's count is used.",
				AllowNullValue:     true,
				AllowUnknownValues: false,
				Validators: []function.Float64ParameterValidator{
					inRange(recommend.RangeParametersBillion),
				},
			},
			function.StringParameter{
				Name: "precision",
				MarkdownDescription: "Numeric precision of the weights, one of " + quoted(recommend.Precisions()) + ". `tf32` weights are stored in fp32. " +
					"Null means the precision `options.model` is published in, else `" + recommend.DefaultPrecision + "`.",
				AllowNullValue:     true,
				AllowUnknownValues: false,
				Validators:         []function.StringParameterValidator{oneOf(recommend.Precisions()...)},
			},
			function.StringParameter{
				Name:                "workload",
				MarkdownDescription: "What the model is used for, one of " + quoted(memoryWorkloads()) + ".",
				AllowNullValue:      false,
				AllowUnknownValues:  false,
				Validators:          []function.StringParameterValidator{oneOf(memoryWorkloads()...)},
			},
		},
		VariadicParameter: function.DynamicParameter{
			Name: "options",
			MarkdownDescription: "At most one object with any of the keys " + quoted(memoryOptionKeys) + " (null values are left out), as in `hpcsku_recommendation`: " +
				"`model` (string) names a model of the catalog's model table (see the `hpcsku_models` data source) by identifier or display name, case-insensitive; " +
				"`fine_tuning_method` (" + quoted(recommend.FineTuningMethods()) + ", `fine_tuning` only); " +
				"`context_tokens` (tokens of one sequence, 1 to " + groupDigits(recommend.MaxContextTokens) + ", default " + groupDigits(recommend.DefaultContextTokens) + " capped at the named model's maximum context; a stated value above that maximum is an error for `inference`, where the serving engines refuse it, and capped for `training` and `fine_tuning`); " +
				"`concurrent_requests` (sequences in flight, 1 to " + groupDigits(recommend.MaxConcurrentRequests) + ", default " + strconv.Itoa(recommend.DefaultConcurrentRequests) + ", `inference` only); " +
				"`training_batch_size` (sequences or samples per GPU per step, 1 to " + groupDigits(recommend.MaxTrainingBatchSize) + ", `training` and `fine_tuning` only); " +
				"`active_parameters_billion` (a mixture-of-experts model without `model`: the parameters one token uses, at most `parameters_billion`). " +
				"An unknown key, a value of the wrong type or out of range, or a key the workload does not use fails the call.",
			AllowNullValue:     true,
			AllowUnknownValues: false,
		},
		Return: function.Float64Return{},
	}
}

func (f *gpuMemoryGiBFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var params types.Float64
	var precision, workload types.String
	var options types.Tuple
	resp.Error = req.Arguments.Get(ctx, &params, &precision, &workload, &options)
	if resp.Error != nil {
		return
	}
	mr := recommend.MemoryRequest{
		Workload: workload.ValueString(),
		Model:    recommend.Model{ParametersBillion: params.ValueFloat64(), Precision: precision.ValueString()},
	}
	if resp.Error = memoryOptions(options.Elements(), &mr); resp.Error != nil {
		return
	}
	if params.IsNull() && mr.Model.Name == "" {
		resp.Error = function.NewArgumentFuncError(argParameters, "Missing Model Size: parameters_billion is null and options names no model. "+
			"Give the parameter count in billions, or name a model of the catalog's model table, for example { model = \"llama-3.1-8b\" }")
		return
	}
	eng, funcErr := f.provider.functionEngine(ctx)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	// The engine's warnings (a count or precision that differs from the
	// model table) have no place in a function's result: the description
	// says the given values are used.
	mi, _, err := eng.ResolveMemory(mr)
	if err != nil {
		resp.Error = memoryEstimateError(ctx, err)
		return
	}
	// The memory model estimates the job the engine resolved.
	resp.Error = resp.Result.Set(ctx, perfmodel.EstimateMemory(&mi).GiB)
}

// memoryOptions reads the variadic options into mr: at most one object
// (or map) of memoryOptionKeys, each of its type and range. The engine
// checks the rest (the model name, which workload uses which key).
func memoryOptions(args []attr.Value, mr *recommend.MemoryRequest) *function.FuncError {
	if len(args) > 1 {
		return function.NewArgumentFuncError(argOptions+1, fmt.Sprintf("Too Many Options: gpu_memory_gib takes at most one options object after workload; got %d. "+
			"Put every option in one object, for example { model = \"llama-3.1-8b\", context_tokens = 8192 }", len(args)))
	}
	if len(args) == 0 {
		return nil
	}
	dyn, ok := args[0].(types.Dynamic)
	if !ok || dyn.IsNull() || dyn.IsUnderlyingValueNull() {
		return nil
	}
	var values map[string]attr.Value
	switch v := dyn.UnderlyingValue().(type) {
	case types.Object:
		values = v.Attributes()
	case types.Map:
		values = v.Elements()
	default:
		return function.NewArgumentFuncError(argOptions, fmt.Sprintf("Invalid Options: options must be an object with any of the keys %s, "+
			"for example { model = \"llama-3.1-8b\", context_tokens = 8192 }; got %s", catalog.QuoteList(memoryOptionKeys), typeName(v)))
	}
	for _, key := range slices.Sorted(maps.Keys(values)) {
		if !slices.Contains(memoryOptionKeys, key) {
			return function.NewArgumentFuncError(argOptions, fmt.Sprintf("Unknown Option: options has no key %q. The keys are %s", key, catalog.QuoteList(memoryOptionKeys)))
		}
		v := values[key]
		if v.IsNull() {
			continue
		}
		if funcErr := setMemoryOption(mr, key, v); funcErr != nil {
			return funcErr
		}
	}
	return nil
}

// setMemoryOption checks one non-null option value and sets it on mr.
func setMemoryOption(mr *recommend.MemoryRequest, key string, v attr.Value) *function.FuncError {
	bad := func(format string, a ...any) *function.FuncError {
		return function.NewArgumentFuncError(argOptions, "Invalid Option Value: "+fmt.Sprintf(format, a...))
	}
	switch key {
	case optModel, optFineTuningMethod:
		s, ok := v.(types.String)
		if !ok {
			return bad("options.%s must be a string; got %s", key, typeName(v))
		}
		val := s.ValueString()
		if key == optModel {
			if strings.TrimSpace(val) == "" {
				return bad("options.model must name a model of the catalog's model table, such as \"llama-3.1-8b\"; got an empty string")
			}
			mr.Model.Name = val
			return nil
		}
		if !slices.Contains(recommend.FineTuningMethods(), val) {
			return bad("options.fine_tuning_method must be one of %s; got %q", catalog.QuoteList(recommend.FineTuningMethods()), val)
		}
		mr.FineTuningMethod = val
		return nil
	}
	n, ok := v.(types.Number)
	if !ok {
		return bad("options.%s must be a number; got %s", key, typeName(v))
	}
	if n.IsUnknown() {
		// Unknown values never reach Run (AllowUnknownValues is false).
		return bad("options.%s must be known", key)
	}
	f, _ := n.ValueBigFloat().Float64()
	got := n.ValueBigFloat().Text('g', -1)
	// The engine's ranges and wording, with the option's name.
	outOfRange := func(r recommend.NumberRange) *function.FuncError {
		return bad("options.%s", strings.TrimSuffix(r.Message(got), "."))
	}
	if key == optActive {
		if !recommend.RangeActiveParametersTraining.Contains(f) {
			return outOfRange(recommend.RangeActiveParametersTraining)
		}
		mr.Model.ActiveParametersBillion = f
		return nil
	}
	r := map[string]recommend.NumberRange{optContextTokens: recommend.RangeContextTokens, optConcurrent: recommend.RangeConcurrentRequests, optBatch: recommend.RangeTrainingBatchSize}[key]
	if !n.ValueBigFloat().IsInt() {
		return bad("options.%s must be a whole number; got %s", key, got)
	}
	if !r.Contains(f) {
		return outOfRange(r)
	}
	i := int64(f)
	switch key {
	case optContextTokens:
		mr.ContextTokens = &i
	case optConcurrent:
		mr.ConcurrentRequests = &i
	case optBatch:
		mr.TrainingBatchSize = &i
	}
	return nil
}

// memoryEstimateError turns the engine's refusal into an error on the
// argument it is about. The engine names the inputs as hpcsku_recommendation
// does; the replacer names them as the function does.
func memoryEstimateError(ctx context.Context, err error) *function.FuncError {
	var ve *recommend.ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) == 0 {
		// Nothing but a validation error is expected: a provider bug.
		tflog.Error(ctx, "memory estimate failed", map[string]any{"error": err.Error()})
		return function.NewFuncError("Memory Estimate Failed: The GPU memory estimate failed. " +
			"This is a bug in the provider; please report it with this message: " + err.Error())
	}
	names := strings.NewReplacer(
		"model.parameters_billion", "parameters_billion",
		"model.precision", "precision",
		"model.name", "options.model",
		"model.active_parameters_billion", "options.active_parameters_billion",
	)
	errs := make([]*function.FuncError, len(ve.Errors))
	for i, fe := range ve.Errors {
		// Terraform ends a function error with a period of its own.
		text := names.Replace(fe.Summary + ": " + strings.TrimSuffix(fe.Detail, "."))
		errs[i] = function.NewArgumentFuncError(memoryArgument(fe.Path), text)
	}
	return function.ConcatFuncErrors(errs...)
}

// memoryArgument is the position of the argument an engine field error is
// about.
func memoryArgument(p []string) int64 {
	switch strings.Join(p, ".") {
	case "model", "model.parameters_billion":
		return argParameters
	case "model.precision":
		return argPrecision
	case "workload":
		return argWorkload
	}
	return argOptions
}

// typeName names a Terraform value's type for an error message.
func typeName(v attr.Value) string {
	switch v.(type) {
	case basetypes.StringValue:
		return "a string"
	case basetypes.NumberValue:
		return "a number"
	case basetypes.BoolValue:
		return "a bool"
	case basetypes.ObjectValue:
		return "an object"
	case basetypes.MapValue:
		return "a map"
	case basetypes.ListValue:
		return "a list"
	case basetypes.TupleValue:
		return "a tuple"
	case basetypes.SetValue:
		return "a set"
	}
	return "a " + v.Type(context.Background()).String()
}
