// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// memoryInput is a model job resolved for the memory estimate: counts,
// precision, method and, where the catalog knows the model, its
// architecture.
type memoryInput struct {
	params, active float64 // billions
	precision      string  // one of precisions
	bpp            float64 // storage bytes per weight
	workload       string
	method         string // full, lora or qlora; "" for inference
	kind           string // catalog model kind; "" for an unknown non-generative model
	model          *catalog.Model
	context        int64 // tokens per sequence
	// prompt and output are the mean tokens of one request (inference of a
	// language model); splitGiven whether the request stated both.
	prompt, output int64
	splitGiven     bool
	seqs           int64 // concurrent sequences (inference)
	batch          int64 // micro-batch per GPU (training)
}

// generative reports whether the model is a language model (dense or
// mixture of experts): KV cache for inference, split over GPUs for training.
func (mi *memoryInput) generative() bool {
	return mi.kind == catalog.ModelKindGenerative || mi.kind == catalog.ModelKindMoE
}

// kvCache describes a model's KV cache.
type kvCache struct {
	// perSeq is the bytes one sequence of the context holds; 0 when the
	// model has no KV cache.
	perSeq float64
	// split is the most GPUs tensor parallelism divides the cache over:
	// the KV heads (more GPUs hold copies); 1 for MLA, whose latent every
	// GPU keeps whole; 0 when unknown (any degree divides it).
	split int64
	how   string
}

// kvCacheOf derives the KV cache of one sequence of mi.context tokens.
func kvCacheOf(mi *memoryInput) kvCache {
	if !mi.generative() {
		return kvCache{}
	}
	b := float64(KVBytesPerElement)
	if mi.precision == PrecisionFP8 {
		b = KVBytesPerElementFP8
	}
	ctx := float64(mi.context)
	bs := trimFloat(b)
	if m := mi.model; m != nil && m.Layers != nil {
		L := float64(*m.Layers)
		if m.AttentionKind == catalog.AttentionMLA && m.KVLoRARank != nil && m.QKRopeHeadDim != nil {
			w := float64(*m.KVLoRARank + *m.QKRopeHeadDim)
			per := L * w * b
			return kvCache{perSeq: per * ctx, split: 1,
				how: fmt.Sprintf("MLA: %d layers × (%d latent + %d RoPE) × %s bytes = %s bytes per token", *m.Layers, *m.KVLoRARank, *m.QKRopeHeadDim, bs, groupInt(per))}
		}
		if m.KVHeads != nil && m.HeadDim != nil {
			perLayer := 2 * float64(*m.KVHeads) * float64(*m.HeadDim) * b
			tokens := L * ctx
			how := fmt.Sprintf("2 × %d layers × %d KV heads × %d head dimension × %s bytes = %s bytes per token", *m.Layers, *m.KVHeads, *m.HeadDim, bs, groupInt(perLayer*L))
			if m.SlidingWindow != nil && m.SlidingWindowLayers != nil && *m.SlidingWindow < mi.context {
				sw := float64(*m.SlidingWindowLayers)
				tokens = (L-sw)*ctx + sw*float64(*m.SlidingWindow)
				how += fmt.Sprintf(", %d of the layers keeping only a %s-token window", *m.SlidingWindowLayers, groupInt(float64(*m.SlidingWindow)))
			}
			return kvCache{perSeq: perLayer * tokens, split: *m.KVHeads, how: how}
		}
	}
	per := ApproxKVBytesPerToken * math.Pow(mi.active/8, ApproxKVExponent) * b / KVBytesPerElement
	return kvCache{perSeq: per * ctx,
		how: fmt.Sprintf("about %s bytes per token, approximated from %sB active parameters (no architecture: name the model for the exact figure)", groupInt(per), trimFloat(mi.active))}
}

// trainingActivations is the activation memory of one GPU's micro-batch for
// LoRA, QLoRA and the data-parallel kinds, in bytes, with its derivation.
func trainingActivations(mi *memoryInput) (float64, string) {
	act, _, how := trainingActivationParts(mi)
	return act, how
}

// trainingActivationParts is trainingActivations with the part every GPU of
// a model split by tensor parallelism keeps whole: the checkpointed layer
// inputs, which tensor parallelism without sequence parallelism replicates
// (Korthikanti et al. 2022, §4.2); all of it when the architecture is
// unknown.
func trainingActivationParts(mi *memoryInput) (act, replicated float64, how string) {
	m := mi.model
	if mi.generative() && m != nil && m.Layers != nil && m.HiddenSize != nil {
		tokens := float64(mi.context) * float64(mi.batch)
		replicated = float64(*m.Layers) * tokens * float64(*m.HiddenSize) * CheckpointedActivationBytes
	}
	act, how = trainingActivationsBytes(mi)
	if replicated == 0 {
		replicated = act
	}
	return act, replicated, how
}

func trainingActivationsBytes(mi *memoryInput) (float64, string) {
	m := mi.model
	batch := float64(mi.batch)
	if mi.generative() {
		tokens := float64(mi.context) * batch
		if m != nil && m.Layers != nil && m.HiddenSize != nil {
			L, H := float64(*m.Layers), float64(*m.HiddenSize)
			act := L*tokens*H*CheckpointedActivationBytes + tokens*H*RecomputedLayerActivationBytes
			how := fmt.Sprintf("%s tokens × (%d layers × %d hidden × %d bytes checkpointed + %d hidden × %d bytes of the layer recomputed",
				groupInt(tokens), *m.Layers, *m.HiddenSize, CheckpointedActivationBytes, *m.HiddenSize, RecomputedLayerActivationBytes)
			if m.VocabSize != nil {
				act += tokens * float64(*m.VocabSize) * LogitBytes
				how += fmt.Sprintf(" + %s vocabulary × %d bytes of logits", groupInt(float64(*m.VocabSize)), LogitBytes)
			}
			return act, how + ")"
		}
		return mi.params * 1e9 * LoRAActivationBytesPerParameter * tokens / DefaultContextTokens,
			fmt.Sprintf("%s bytes per parameter per %s tokens × %s tokens (no architecture)", trimFloat(LoRAActivationBytesPerParameter), groupInt(DefaultContextTokens), groupInt(tokens))
	}
	if m != nil && m.Layers != nil && m.HiddenSize != nil && m.MaxContextTokens != nil && mi.kind != catalog.ModelKindSpeech {
		per := float64(*m.Layers) * float64(*m.MaxContextTokens) * float64(*m.HiddenSize) * SampleActivationBytes
		return per * batch, fmt.Sprintf("%s samples × %d layers × %s tokens × %d hidden × %d bytes", groupInt(batch), *m.Layers, groupInt(float64(*m.MaxContextTokens)), *m.HiddenSize, SampleActivationBytes)
	}
	k := sampleActivationBytesPerParameter[mi.kind]
	return mi.params * 1e9 * k * batch, fmt.Sprintf("%s samples × %s bytes per parameter (%s)", groupInt(batch), trimFloat(k), kindLabel(mi.kind))
}

func kindLabel(kind string) string {
	if kind == "" {
		return "non-generative model"
	}
	return kind + " model"
}

// estimateMemory estimates the GPU memory of a resolved model job.
func estimateMemory(mi *memoryInput) MemoryEstimate {
	m := memorySum{mi: mi, params: mi.params * 1e9}
	m.e = MemoryEstimate{
		ParametersBillion: mi.params, ActiveParametersBillion: mi.active, Precision: mi.precision,
		Workload: mi.workload, FineTuningMethod: mi.method, Kind: mi.kind, BytesPerParameter: mi.bpp,
		DataParallel: !mi.generative() && mi.workload != WorkloadInference,
	}
	if mi.model != nil {
		m.e.Model = mi.model.ID
	}
	m.pb = trimFloat(mi.params) + "B parameters"
	if mi.active < mi.params {
		m.pb += " (" + trimFloat(mi.active) + "B active)"
	}
	switch {
	case mi.workload == WorkloadInference:
		m.inference()
	case mi.method == MethodLoRA || mi.method == MethodQLoRA:
		m.adapters()
	default:
		m.fullTraining()
	}
	e := m.e
	e.GiB = gib(m.total)
	e.Formula = strings.Join(m.parts, "; ") + "; total " + trimFloat(e.GiB) + " GiB"
	if e.DataParallel {
		e.Formula += " per GPU (each GPU holds the whole model: data parallel)"
	}
	return e
}

// gib is bytes in GiB, rounded to 0.01.
func gib(bytes float64) float64 { return catalog.Round2(bytes / GiB) }

// memorySum adds up a memory estimate: its figures, the parts of its
// formula, and the total in bytes.
type memorySum struct {
	mi     *memoryInput
	e      MemoryEstimate
	params float64 // the parameters (not billions)
	pb     string  // the parameters as the formula writes them
	parts  []string
	total  float64
}

func (m *memorySum) part(label string, v float64) {
	m.parts = append(m.parts, label+" "+trimFloat(v)+" GiB")
}

// inference: the weights, with a workspace and the KV cache of the
// concurrent sequences, or headroom for a model without one.
func (m *memorySum) inference() {
	mi := m.mi
	w := m.params * mi.bpp
	m.e.StateBytesPerParameter = mi.bpp
	m.e.WeightsGiB = gib(w)
	m.part(fmt.Sprintf("weights: %s × %s bytes (%s) =", m.pb, trimFloat(mi.bpp), mi.precision), m.e.WeightsGiB)
	if kv := kvCacheOf(mi); kv.perSeq > 0 {
		ws := w * InferenceWorkspaceFraction
		kvb := kv.perSeq * float64(mi.seqs)
		m.e.ActivationGiB, m.e.KVCacheGiB = gib(ws), gib(kvb)
		m.e.KVBytesPerToken = math.Round(kv.perSeq / float64(mi.context))
		m.e.ContextTokens, m.e.ConcurrentRequests = mi.context, mi.seqs
		m.total = w + ws + kvb
		m.part(fmt.Sprintf("workspace: %s%% of the weights =", trimFloat(InferenceWorkspaceFraction*100)), m.e.ActivationGiB)
		m.part(fmt.Sprintf("KV cache: %s, × %s tokens × %s sequences =", kv.how, groupInt(float64(mi.context)), groupInt(float64(mi.seqs))), m.e.KVCacheGiB)
	} else {
		ws := w * InferenceHeadroom
		m.e.ActivationGiB, m.e.HeadroomFraction = gib(ws), InferenceHeadroom
		m.total = w + ws
		m.part(fmt.Sprintf("activations: %s%% of the weights (no KV cache) =", trimFloat(InferenceHeadroom*100)), m.e.ActivationGiB)
	}
}

// adapters: LoRA or QLoRA, a frozen base (NF4 for QLoRA) with trainable
// adapters and the micro-batch's activations.
func (m *memorySum) adapters() {
	mi := m.mi
	var base float64
	adapterBytes := float64(LoRAAdapterBytesPerParameter)
	if mi.method == MethodQLoRA {
		emb := embeddingParameters(mi.model)
		base = (m.params-emb)*QLoRABaseBytesPerParameter + emb*2
		adapterBytes = QLoRAAdapterBytesPerParameter
		m.e.StateBytesPerParameter = round4(base / m.params)
		how := "NF4 base 4.127 bits"
		if emb > 0 {
			how += fmt.Sprintf(", %sB embedding and output parameters at 2 bytes", trimFloat(catalog.Round2(emb/1e9)))
		}
		m.part(fmt.Sprintf("frozen base: %s (%s) =", m.pb, how), gib(base))
	} else {
		base = m.params * mi.bpp
		m.e.StateBytesPerParameter = mi.bpp
		m.part(fmt.Sprintf("frozen base: %s × %s bytes (%s) =", m.pb, trimFloat(mi.bpp), mi.precision), gib(base))
	}
	adapters := m.params * LoRAAdapterShare * adapterBytes
	m.e.WeightsGiB, m.e.AdapterGiB, m.e.AdapterShare = gib(base), gib(adapters), LoRAAdapterShare
	m.part(fmt.Sprintf("adapters: %s%% of the parameters × %s bytes (weights, gradients, optimizer) =", trimFloat(LoRAAdapterShare*100), trimFloat(adapterBytes)), m.e.AdapterGiB)
	act, how := trainingActivations(mi)
	m.e.ActivationGiB = gib(act)
	m.part("activations: "+how+" =", m.e.ActivationGiB)
	m.total = base + adapters + act
	m.e.ContextTokens, m.e.TrainingBatchSize = contextIfUsed(mi), mi.batch
}

// fullTraining: the model states (weights, gradients, master weights, Adam
// moments) with the activations.
func (m *memorySum) fullTraining() {
	mi := m.mi
	grad := math.Max(mi.bpp, MinGradientBytesPerParameter)
	master := 0.0
	if mi.bpp < 4 {
		master = MasterWeightBytesPerParameter
	}
	state := mi.bpp + grad + master + AdamStateBytesPerParameter
	states := m.params * state
	m.e.StateBytesPerParameter = state
	m.e.WeightsGiB = gib(m.params * mi.bpp)
	m.e.GradientsGiB = gib(m.params * grad)
	m.e.MasterWeightsGiB = gib(m.params * master)
	m.e.OptimizerGiB = gib(m.params * AdamStateBytesPerParameter)
	sp := fmt.Sprintf("%s weights %s + gradients %s", mi.precision, trimFloat(mi.bpp), trimFloat(grad))
	if master > 0 {
		sp += " + fp32 master weights " + trimFloat(master)
	}
	sp += " + Adam moments " + trimFloat(AdamStateBytesPerParameter)
	m.part(fmt.Sprintf("model states: %s × %s bytes (%s) =", m.pb, trimFloat(state), sp), gib(states))
	if mi.generative() {
		headroom := TrainingActivationHeadroom
		if mi.workload == WorkloadFineTuning {
			headroom = FineTuningActivationHeadroom
		}
		act := states * headroom
		m.e.ActivationGiB, m.e.HeadroomFraction = gib(act), headroom
		m.part(fmt.Sprintf("activations: %s%% of the model states =", trimFloat(headroom*100)), m.e.ActivationGiB)
		m.total = states + act
	} else {
		act, how := trainingActivations(mi)
		m.e.ActivationGiB = gib(act)
		m.e.TrainingBatchSize = mi.batch
		m.part("activations: "+how+" =", m.e.ActivationGiB)
		m.total = states + act
	}
}

// contextIfUsed is the sequence length the activations used: language
// models only.
func contextIfUsed(mi *memoryInput) int64 {
	if mi.generative() {
		return mi.context
	}
	return 0
}

// embeddingParameters counts the input embedding and output layer
// (vocabulary × hidden, twice), which QLoRA keeps at 16 bits; 0 when the
// architecture is unknown.
func embeddingParameters(m *catalog.Model) float64 {
	if m == nil || m.VocabSize == nil || m.HiddenSize == nil {
		return 0
	}
	return 2 * float64(*m.VocabSize) * float64(*m.HiddenSize)
}

// EstimateGPUMemoryGiB estimates the accelerator memory a language model of
// the given size needs for a workload (training, fine_tuning or inference),
// without architecture facts and with the defaults of every other input:
// the fine-tuning method follows the precision (qlora for int4, lora for
// int8, else full), inference serves DefaultConcurrentRequests sequences of
// DefaultContextTokens tokens. precision "" means bf16. Engine.EstimateMemory
// takes a model name and the other inputs.
func EstimateGPUMemoryGiB(parametersBillion float64, precision, workload string) (MemoryEstimate, error) {
	if f := RangeParametersBillion.Check(parametersBillion, "parameters_billion"); f != nil {
		return MemoryEstimate{}, errors.New(f.Detail)
	}
	if precision == "" {
		precision = DefaultPrecision
	}
	bpp, ok := bytesPerParameter[precision]
	if !ok {
		return MemoryEstimate{}, fmt.Errorf("precision %q is not one of %s", precision, strings.Join(precisions, ", "))
	}
	mi := memoryInput{params: parametersBillion, active: parametersBillion, precision: precision, bpp: bpp, workload: workload, kind: catalog.ModelKindGenerative}
	switch workload {
	case WorkloadTraining:
		if quantised(precision) {
			return MemoryEstimate{}, fmt.Errorf("training updates every weight and cannot run in %s; use bf16, fp16, fp8, tf32 or fp32, or fine_tuning (LoRA or QLoRA on the quantised model)", precision)
		}
		mi.method = MethodFull
	case WorkloadFineTuning:
		mi.method = defaultMethod(precision)
	case WorkloadInference:
	default:
		return MemoryEstimate{}, fmt.Errorf("the memory model covers the training, fine_tuning and inference workloads, not %q", workload)
	}
	mi.context, mi.seqs, mi.batch = DefaultContextTokens, DefaultConcurrentRequests, defaultTrainingBatchSize[mi.kind]
	return estimateMemory(&mi), nil
}

// defaultMethod is the fine-tuning method of a precision: qlora for int4,
// lora (on a frozen 8-bit or fp4 base) for int8 and fp4, full otherwise.
func defaultMethod(precision string) string {
	switch precision {
	case PrecisionINT4:
		return MethodQLoRA
	case PrecisionINT8, PrecisionFP4:
		return MethodLoRA
	}
	return MethodFull
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// trimFloat formats a number with up to two decimals and no trailing zeros.
func trimFloat(f float64) string {
	return strconv.FormatFloat(catalog.Round2(f), 'f', -1, 64)
}

// groupInt formats a number rounded to a whole one with thousands
// separators: 131,072.
func groupInt(f float64) string { return GroupDigits(int64(math.Round(f))) }

// GroupDigits writes n with a comma between groups of three digits
// (1000000 as 1,000,000), as the engine's messages and the provider's
// descriptions write counts.
func GroupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
