// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// isModelWorkload reports whether the workload takes a model.
func isModelWorkload(w string) bool {
	return w == WorkloadTraining || w == WorkloadFineTuning || w == WorkloadInference
}

// enginePrecision maps a model table's published precision to one of
// precisions: the 4-bit block formats (MXFP4, NVFP4, NF4) are int4 for the
// engine, which dequantises them for arithmetic as it does int4.
func enginePrecision(published string) string {
	switch p := strings.ToLower(published); p {
	case "mxfp4", "nvfp4", "nf4":
		return PrecisionINT4
	default:
		if slices.Contains(precisions, p) {
			return p
		}
	}
	return DefaultPrecision
}

// resolvedModel is the request's model with the table's facts filled in.
type resolvedModel struct {
	mi       memoryInput
	class    string
	warnings []Warning
	notes    []string // explanation sentences
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
		tm, _ = cat.Model(name)
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
		} else if mi.params != tm.ParametersBillion {
			r.warnings = append(r.warnings, Warning{"Parameter Count Differs From The Model Table",
				fmt.Sprintf("model.parameters_billion is %s, but the catalog's model table gives %s for %s; the estimate uses %s. Remove parameters_billion to use the table's count.",
					trimFloat(mi.params), trimFloat(tm.ParametersBillion), tm.Name, trimFloat(mi.params))})
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
		if tm != nil && enginePrecision(tm.Precision) != mi.precision {
			r.warnings = append(r.warnings, Warning{"Precision Differs From The Model Table",
				fmt.Sprintf("model.precision is %q, but %s is published in %s; the estimate stores the weights in %s. Remove precision to use the published one.",
					mi.precision, tm.Name, tm.Precision, mi.precision)})
		}
	case tm != nil:
		mi.precision = enginePrecision(tm.Precision)
		mi.bpp = tm.PrecisionBits / 8
		if !strings.EqualFold(tm.Precision, mi.precision) {
			r.notes = append(r.notes, fmt.Sprintf("Precision: %s as published (%s bits per weight), handled as %s.", tm.Precision, trimFloat(tm.PrecisionBits), mi.precision))
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
	if mi.method == MethodFull && (mi.precision == PrecisionINT4 || mi.precision == PrecisionINT8) {
		// A published quantised model (validate refuses a stated one):
		// full training updates every weight in bf16.
		r.notes = append(r.notes, fmt.Sprintf("Precision: %s trains every weight in bf16, not in its published %s.", req.Workload, mi.precision))
		mi.precision, mi.bpp = PrecisionBF16, bytesPerParameter[PrecisionBF16]
	}
}

// resolveSequences: the context (capped at the model's maximum), the
// concurrent sequences and the training batch.
func (r *resolvedModel) resolveSequences(req Request, tm *catalog.Model) {
	mi := &r.mi
	mi.context = valueOr(req.ContextTokens, DefaultContextTokens)
	if tm != nil && tm.MaxContextTokens != nil && mi.context > *tm.MaxContextTokens && mi.generative() {
		r.notes = append(r.notes, fmt.Sprintf("Context: %s tokens, capped at %s's maximum context.", groupInt(float64(*tm.MaxContextTokens)), tm.Name))
		mi.context = *tm.MaxContextTokens
	}
	mi.seqs = valueOr(req.ConcurrentRequests, DefaultConcurrentRequests)
	mi.batch = valueOr(req.TrainingBatchSize, defaultTrainingBatchSize[mi.kind])
}

// unusedInputs warns about inputs this model does not use, rather than
// ignore them.
func (r *resolvedModel) unusedInputs(req Request) {
	mi := &r.mi
	unused := func(set bool, name, why string) {
		if set {
			r.warnings = append(r.warnings, Warning{"Argument Not Used By The Model", name + " is not used: " + why + " Remove it, or describe the model that needs it."})
		}
	}
	what := kindLabel(mi.kind)
	unused(req.ContextTokens != nil && !mi.generative(), "context_tokens", "a "+what+" has no token context the estimate depends on; its sequence is the model's own input size.")
	unused(req.ConcurrentRequests != nil && !mi.generative(), "concurrent_requests", "a "+what+" keeps no KV cache per request, so concurrency does not change its memory.")
	unused(req.TrainingBatchSize != nil && mi.generative() && mi.method == MethodFull, "training_batch_size", "full training of a language model sizes activations as a share of the model states (TrainingActivationHeadroom, FineTuningActivationHeadroom), not from the batch.")
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
		switch precision {
		case PrecisionFP8, PrecisionINT8, PrecisionINT4:
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
