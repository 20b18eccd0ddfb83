// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// isModelWorkload reports whether the workload takes a model.
func isModelWorkload(w string) bool {
	return w == WorkloadTraining || w == WorkloadFineTuning || w == WorkloadInference
}

// enginePrecision maps a model table's published precision to one of
// precisions: the 4-bit floating-point block formats (MXFP4, NVFP4) are
// fp4, which Blackwell GPUs compute natively; NF4, a 4-bit integer code
// dequantised for arithmetic, is int4.
func enginePrecision(published string) string {
	switch p := strings.ToLower(published); p {
	case "mxfp4", "nvfp4":
		return PrecisionFP4
	case "nf4":
		return PrecisionINT4
	default:
		if slices.Contains(precisions, p) {
			return p
		}
	}
	return DefaultPrecision
}

// resolvedModel is the request's model with the table's facts filled in,
// and what resolving it found that the explanation says.
type resolvedModel struct {
	mi    perfmodel.MemoryInput
	class string
	found modelFacts
}

// modelFacts is what resolving a model found: where the request departs
// from the model table (or the table's precision from the engine's), and
// the inputs the model does not use. modelWarnings and modelNotes say them.
type modelFacts struct {
	// aliasOf is model.name when it names a variant (an instruct or chat
	// tuning, a Hugging Face id) of the table's model rather than the model.
	aliasOf         string
	paramsDiffer    bool   // parameters_billion differs from the table's count
	precisionDiffer bool   // precision differs from the published one
	handledAs       string // the engine's precision for a published one it names otherwise (MXFP4: int4)
	trainsInBF16    string // the published quantised precision full training replaces with bf16
	contextCapped   bool   // context_tokens is above the model's maximum context
	// Inputs the model does not use: context_tokens (not a language
	// model), concurrent_requests (a model that keeps no cache per request:
	// not a language model or an encoder-decoder speech model).
	unusedContext, unusedConcurrency bool
}

// resolveModel fills the model of a validated request from the catalog's
// model table and the defaults. ok is false when there is no model or
// nothing gives its size.
func resolveModel(cat *catalog.Catalog, req Request) (r resolvedModel, ok bool) {
	r.class = DefaultClass
	m := req.Model
	if m == nil || !isModelWorkload(req.Workload) {
		return r, false
	}
	var tm *catalog.Model
	if name := strings.TrimSpace(m.Name); name != "" && cat != nil {
		var alias bool
		if tm, alias, _ = cat.ResolveModel(name); alias {
			r.found.aliasOf = name
		}
	}
	mi := &r.mi
	mi.Workload, mi.Model = req.Workload, tm
	switch {
	case m.Class != "":
		r.class = m.Class
	case tm != nil && tm.Kind != catalog.ModelKindGenerative && tm.Kind != catalog.ModelKindMoE:
		r.class = ClassNonGenerative
	}
	mi.CPU = r.class == ClassSmall // small models run on CPU sizes
	// Parameters: the request's, else the table's.
	mi.Params = m.ParametersBillion
	if tm != nil {
		if mi.Params == 0 {
			mi.Params = tm.ParametersBillion
		} else {
			r.found.paramsDiffer = mi.Params != tm.ParametersBillion
		}
	}
	if !(mi.Params > 0) {
		return r, false
	}
	mi.Active = mi.Params
	switch {
	case m.ActiveParametersBillion > 0:
		mi.Active = min(m.ActiveParametersBillion, mi.Params)
	case tm != nil:
		mi.Active = min(tm.ActiveParametersBillion*mi.Params/tm.ParametersBillion, mi.Params)
	}
	if tm != nil {
		// The frozen encoders' share, in proportion like the active count.
		mi.Frozen = tm.FrozenParametersBillion * mi.Params / tm.ParametersBillion
	}
	// Kind: the table's, else from the class and the active parameters.
	switch {
	case tm != nil:
		mi.Kind = tm.Kind
	case r.class == ClassGenerative && mi.Active < mi.Params:
		mi.Kind = catalog.ModelKindMoE
	case r.class == ClassGenerative:
		mi.Kind = catalog.ModelKindGenerative
	}
	r.resolvePrecision(m, tm)
	r.resolveMethod(req)
	r.resolveSequences(req, tm)
	r.unusedInputs(req)
	return r, true
}

// bpp is the storage of one weight at a precision the request has
// passed validate with.
func bpp(p string) float64 {
	b, _ := perfmodel.BytesPerParameter(p)
	return b
}

// resolvePrecision: the request's precision, else the table's published
// one, else the default.
func (r *resolvedModel) resolvePrecision(m *Model, tm *catalog.Model) {
	mi := &r.mi
	mi.Precision = m.Precision
	switch {
	case mi.Precision != "":
		mi.BPP = bpp(mi.Precision)
		r.found.precisionDiffer = tm != nil && enginePrecision(tm.Precision) != mi.Precision
	case tm != nil:
		mi.Precision = enginePrecision(tm.Precision)
		mi.BPP = tm.PrecisionBits / 8
		if !strings.EqualFold(tm.Precision, mi.Precision) {
			r.found.handledAs = mi.Precision
		}
	default:
		mi.Precision = DefaultPrecision
		mi.BPP = bpp(DefaultPrecision)
	}
	if tm != nil && !r.found.paramsDiffer && enginePrecision(tm.Precision) == mi.Precision {
		// The published checkpoint, where the table gives its size.
		mi.Checkpoint, mi.CheckpointGiB = tm.Precision, tm.CheckpointGiB[tm.Precision]
	}
}

// resolveMethod: the fine-tuning method, and bf16 for full training of a
// published quantised model.
func (r *resolvedModel) resolveMethod(req Request) {
	mi := &r.mi
	switch req.Workload {
	case WorkloadTraining:
		mi.Method = MethodFull
	case WorkloadFineTuning:
		mi.Method = orDefault(req.FineTuningMethod, defaultMethod(mi.Precision))
	}
	if mi.Method == MethodFull && perfmodel.Quantised(mi.Precision) {
		// A published quantised model (validate refuses a stated one):
		// full training updates every weight in bf16.
		r.found.trainsInBF16 = mi.Precision
		mi.Precision, mi.BPP = PrecisionBF16, bpp(PrecisionBF16)
	}
}

// resolveSequences: the context (capped at the model's maximum), the
// prompt and output of a request, the concurrent sequences and the
// training batch.
func (r *resolvedModel) resolveSequences(req Request, tm *catalog.Model) {
	mi := &r.mi
	longest := int64(0) // the model's maximum context; 0 where none is known
	if tm != nil && tm.MaxContextTokens != nil && mi.Generative() {
		longest = *tm.MaxContextTokens
	}
	mi.Context = valueOr(req.ContextTokens, DefaultContextTokens)
	if req.Workload == WorkloadInference {
		// The default context the split comes from is capped at the
		// maximum before the split (validate refuses a stated one above it).
		r.found.contextCapped = longest > 0 && mi.Context > longest && (req.ContextTokens != nil || (req.PromptTokens == nil && req.OutputTokens == nil))
		mi.Prompt, mi.Output, mi.Context = tokenSplit(req, longest)
		mi.SplitGiven = req.PromptTokens != nil && req.OutputTokens != nil
	}
	if longest > 0 && mi.Context > longest {
		r.found.contextCapped = true
		mi.Context = longest
	}
	mi.Seqs = valueOr(req.ConcurrentRequests, DefaultConcurrentRequests)
	if req.ConcurrentRequests == nil && req.Workload == WorkloadInference && (req.TokensPerSecond != nil || req.RequestsPerSecond != nil) &&
		(mi.Generative() || mi.Kind == "") {
		// With a load the requests in flight are derived, per layout: the
		// memory estimate holds one sequence per copy, and the layout
		// search adds the KV cache of each copy's batch. A model the
		// table names as another kind is not timed (its load is not
		// used): an encoder-decoder keeps the default requests' caches.
		mi.Seqs = 1
	}
	mi.Batch = valueOr(req.TrainingBatchSize, defaultTrainingBatchSize[mi.Kind])
}

// tokenSplit is a served request's mean prompt and output tokens and the
// context that sizes its KV cache. A token count the request leaves out
// follows from DefaultOutputShare: of the other count, else of the
// context (stated or DefaultContextTokens, at most the model's maximum
// context longest, 0 where unknown); the context, when not stated, is
// prompt plus output. A count derived under a stated context or the
// model's maximum is kept inside it (validate refuses stated counts
// beyond the maximum).
func tokenSplit(req Request, longest int64) (prompt, output, context int64) {
	ctx := valueOr(req.ContextTokens, DefaultContextTokens)
	if longest > 0 {
		ctx = min(ctx, longest)
	}
	bound := longest // the longest sequence a derived count keeps inside; 0: none
	if req.ContextTokens != nil {
		bound = ctx
	}
	promptPerOutput := (1 - DefaultOutputShare) / DefaultOutputShare
	switch p, o := req.PromptTokens, req.OutputTokens; {
	case p != nil && o != nil:
		prompt, output = *p, *o
	case p != nil:
		prompt = *p
		output = max(int64(math.Round(float64(prompt)/promptPerOutput)), 1)
		if bound > 0 {
			output = max(min(output, bound-prompt), 1)
		}
	case o != nil:
		output = *o
		prompt = max(int64(math.Round(float64(output)*promptPerOutput)), 1)
		if bound > 0 {
			prompt = max(min(prompt, bound-output), 1)
		}
	default:
		output = max(int64(math.Round(float64(ctx)*DefaultOutputShare)), 1)
		prompt = max(ctx-output, 1)
	}
	if req.ContextTokens == nil {
		ctx = prompt + output
	}
	return prompt, output, ctx
}

// unusedInputs finds the inputs this model does not use, which the
// explanation warns about rather than ignore them.
func (r *resolvedModel) unusedInputs(req Request) {
	mi := &r.mi
	r.found.unusedContext = req.ContextTokens != nil && !mi.Generative()
	r.found.unusedConcurrency = req.ConcurrentRequests != nil && perfmodel.KVCacheOf(mi).PerSeq <= 0
}

// EstimateGPUMemoryGiB estimates the accelerator memory a language model of
// the given size needs for a workload (training, fine_tuning or inference),
// without architecture facts and with the defaults of every other input:
// the fine-tuning method follows the precision (qlora for int4 and fp4,
// lora for int8, else full), inference serves DefaultConcurrentRequests sequences of
// DefaultContextTokens tokens. precision "" means bf16. Engine.EstimateMemory
// takes a model name and the other inputs.
func EstimateGPUMemoryGiB(parametersBillion float64, precision, workload string) (MemoryEstimate, error) {
	if f := RangeParametersBillion.Check(parametersBillion, "parameters_billion"); f != nil {
		return MemoryEstimate{}, errors.New(f.Detail)
	}
	if precision == "" {
		precision = DefaultPrecision
	}
	bpp, ok := perfmodel.BytesPerParameter(precision)
	if !ok {
		return MemoryEstimate{}, fmt.Errorf("precision %q is not one of %s", precision, strings.Join(precisions, ", "))
	}
	mi := perfmodel.MemoryInput{Params: parametersBillion, Active: parametersBillion, Precision: precision, BPP: bpp, Workload: workload, Kind: catalog.ModelKindGenerative}
	switch workload {
	case WorkloadTraining:
		if perfmodel.Quantised(precision) {
			return MemoryEstimate{}, fmt.Errorf("training updates every weight and cannot run in %s; use bf16, fp16, fp8, tf32 or fp32, or fine_tuning (LoRA or QLoRA on the quantised model)", precision)
		}
		mi.Method = MethodFull
	case WorkloadFineTuning:
		mi.Method = defaultMethod(precision)
	case WorkloadInference:
	default:
		return MemoryEstimate{}, fmt.Errorf("the memory model covers the training, fine_tuning and inference workloads, not %q", workload)
	}
	mi.Context, mi.Seqs, mi.Batch = DefaultContextTokens, DefaultConcurrentRequests, defaultTrainingBatchSize[mi.Kind]
	return perfmodel.EstimateMemory(&mi), nil
}

// defaultMethod is the fine-tuning method of a precision: qlora for the
// 4-bit formats (int4, and fp4, which no tool trains adapters on as it is:
// D82), lora (on a frozen 8-bit base) for int8, full otherwise.
func defaultMethod(precision string) string {
	switch precision {
	case PrecisionINT4, PrecisionFP4:
		return MethodQLoRA
	case PrecisionINT8:
		return MethodLoRA
	}
	return MethodFull
}
