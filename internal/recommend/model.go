// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
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

// quantised reports whether weights at precision p are a storage format
// training cannot update (int8, int4, fp4): only adapters train on them.
func quantised(p string) bool {
	return p == PrecisionINT8 || p == PrecisionINT4 || p == PrecisionFP4
}

// resolvedModel is the request's model with the table's facts filled in,
// and what resolving it found that the explanation says.
type resolvedModel struct {
	mi    memoryInput
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
	// Inputs the model does not use: context_tokens and concurrent_requests
	// (not a language model), training_batch_size (full training of one).
	unusedContext, unusedConcurrency, unusedBatch bool
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
	mi.workload, mi.model = req.Workload, tm
	switch {
	case m.Class != "":
		r.class = m.Class
	case tm != nil && tm.Kind != catalog.ModelKindGenerative && tm.Kind != catalog.ModelKindMoE:
		r.class = ClassNonGenerative
	}
	// Parameters: the request's, else the table's.
	mi.params = m.ParametersBillion
	if tm != nil {
		if mi.params == 0 {
			mi.params = tm.ParametersBillion
		} else {
			r.found.paramsDiffer = mi.params != tm.ParametersBillion
		}
	}
	if !(mi.params > 0) {
		return r, false
	}
	mi.active = mi.params
	switch {
	case m.ActiveParametersBillion > 0:
		mi.active = min(m.ActiveParametersBillion, mi.params)
	case tm != nil:
		mi.active = min(tm.ActiveParametersBillion*mi.params/tm.ParametersBillion, mi.params)
	}
	// Kind: the table's, else from the class and the active parameters.
	switch {
	case tm != nil:
		mi.kind = tm.Kind
	case r.class == ClassGenerative && mi.active < mi.params:
		mi.kind = catalog.ModelKindMoE
	case r.class == ClassGenerative:
		mi.kind = catalog.ModelKindGenerative
	}
	r.resolvePrecision(m, tm)
	r.resolveMethod(req)
	r.resolveSequences(req, tm)
	r.unusedInputs(req)
	return r, true
}

// resolvePrecision: the request's precision, else the table's published
// one, else the default.
func (r *resolvedModel) resolvePrecision(m *Model, tm *catalog.Model) {
	mi := &r.mi
	mi.precision = m.Precision
	switch {
	case mi.precision != "":
		mi.bpp = bytesPerParameter[mi.precision]
		r.found.precisionDiffer = tm != nil && enginePrecision(tm.Precision) != mi.precision
	case tm != nil:
		mi.precision = enginePrecision(tm.Precision)
		mi.bpp = tm.PrecisionBits / 8
		if !strings.EqualFold(tm.Precision, mi.precision) {
			r.found.handledAs = mi.precision
		}
	default:
		mi.precision = DefaultPrecision
		mi.bpp = bytesPerParameter[DefaultPrecision]
	}
}

// resolveMethod: the fine-tuning method, and bf16 for full training of a
// published quantised model.
func (r *resolvedModel) resolveMethod(req Request) {
	mi := &r.mi
	switch req.Workload {
	case WorkloadTraining:
		mi.method = MethodFull
	case WorkloadFineTuning:
		mi.method = orDefault(req.FineTuningMethod, defaultMethod(mi.precision))
	}
	if mi.method == MethodFull && quantised(mi.precision) {
		// A published quantised model (validate refuses a stated one):
		// full training updates every weight in bf16.
		r.found.trainsInBF16 = mi.precision
		mi.precision, mi.bpp = PrecisionBF16, bytesPerParameter[PrecisionBF16]
	}
}

// resolveSequences: the context (capped at the model's maximum), the
// prompt and output of a request, the concurrent sequences and the
// training batch.
func (r *resolvedModel) resolveSequences(req Request, tm *catalog.Model) {
	mi := &r.mi
	mi.context = valueOr(req.ContextTokens, DefaultContextTokens)
	if req.Workload == WorkloadInference {
		mi.prompt, mi.output, mi.context = tokenSplit(req)
		mi.splitGiven = req.PromptTokens != nil && req.OutputTokens != nil
	}
	if tm != nil && tm.MaxContextTokens != nil && mi.context > *tm.MaxContextTokens && mi.generative() {
		r.found.contextCapped = true
		mi.context = *tm.MaxContextTokens
	}
	mi.seqs = valueOr(req.ConcurrentRequests, DefaultConcurrentRequests)
	mi.batch = valueOr(req.TrainingBatchSize, defaultTrainingBatchSize[mi.kind])
}

// tokenSplit is a served request's mean prompt and output tokens and the
// context that sizes its KV cache. A token count the request leaves out
// follows from DefaultOutputShare: of the other count, else of the
// context (stated or DefaultContextTokens); the context, when not stated,
// is prompt plus output. A count derived under a stated context is kept
// inside it.
func tokenSplit(req Request) (prompt, output, context int64) {
	ctx := valueOr(req.ContextTokens, DefaultContextTokens)
	promptPerOutput := (1 - DefaultOutputShare) / DefaultOutputShare
	switch p, o := req.PromptTokens, req.OutputTokens; {
	case p != nil && o != nil:
		prompt, output = *p, *o
	case p != nil:
		prompt = *p
		output = max(int64(math.Round(float64(prompt)/promptPerOutput)), 1)
		if req.ContextTokens != nil {
			output = max(min(output, ctx-prompt), 1)
		}
	case o != nil:
		output = *o
		prompt = max(int64(math.Round(float64(output)*promptPerOutput)), 1)
		if req.ContextTokens != nil {
			prompt = max(min(prompt, ctx-output), 1)
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
	r.found.unusedContext = req.ContextTokens != nil && !mi.generative()
	r.found.unusedConcurrency = req.ConcurrentRequests != nil && !mi.generative()
	r.found.unusedBatch = req.TrainingBatchSize != nil && mi.generative() && mi.method == MethodFull
}

// computePrecision is the precision the GPUs must run natively for a
// training or fine-tuning job: the model's for full training; for LoRA the
// base's, unless it is quantised (fp8, int8, int4), whose adapters compute
// in bf16 or fp16 (either will do, "" here); QLoRA always computes in bf16
// or fp16.
func computePrecision(precision, method string) string {
	if method == MethodQLoRA {
		return ""
	}
	if method == MethodLoRA {
		if precision == PrecisionFP8 || quantised(precision) {
			return ""
		}
	}
	return precision
}

// closerPrecisions lists, per precision, the precisions to train in
// instead on a GPU without it, closest first.
var closerPrecisions = map[string][]string{
	PrecisionBF16: {PrecisionFP16, PrecisionFP32},
	PrecisionFP16: {PrecisionBF16, PrecisionFP32},
	PrecisionFP8:  {PrecisionBF16, PrecisionFP16, PrecisionFP32},
	PrecisionFP4:  {PrecisionFP8, PrecisionBF16, PrecisionFP16, PrecisionFP32},
	PrecisionTF32: {PrecisionFP32},
	PrecisionFP32: {},
}

// runsTraining reports whether the GPU runs a training job's compute
// precision natively ("" is bf16 or fp16).
func (in *sizeInfo) runsTraining(compute string) bool {
	if !in.isGPU {
		return true
	}
	if compute == "" {
		return in.precisions&(precisionBit(PrecisionBF16)|precisionBit(PrecisionFP16)) != 0
	}
	if compute == PrecisionFP32 {
		return true
	}
	return in.precisions&precisionBit(compute) != 0
}

// closestPrecision is the precision closest to compute that the GPU runs
// natively.
func (in *sizeInfo) closestPrecision(compute string) string {
	for _, p := range closerPrecisions[compute] {
		if in.runsTraining(p) {
			return p
		}
	}
	return PrecisionFP32
}
