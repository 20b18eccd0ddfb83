// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the memory model: what a model's weights, training
// states, activations and KV cache take, from the model's facts and the
// job's sequences.

import (
	"fmt"
	"math"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// GiB is the number of bytes in a gibibyte. Parameter counts are decimal
// (70B = 70e9); memory is reported in GiB like the catalog.
const GiB = 1 << 30

const (
	// MinGradientBytesPerParameter: gradients are kept at the weights'
	// precision, but never below 16 bits: fp8 and integer training keep
	// bf16 gradients (as NVIDIA Transformer Engine does).
	MinGradientBytesPerParameter = 2

	// MasterWeightBytesPerParameter: mixed-precision training keeps an fp32
	// master copy of the weights for the optimizer update whenever the
	// working weights are narrower than 32 bits (Micikevicius et al. 2018).
	MasterWeightBytesPerParameter = 4

	// AdamStateBytesPerParameter: Adam and AdamW keep two fp32 moments (m
	// and v) per parameter. With the lines above, bf16 mixed precision
	// needs 2 + 2 + 4 + 8 = 16 bytes per parameter, the figure of the ZeRO
	// paper (Rajbhandari et al. 2020); fp32 needs 4 + 4 + 8 = 16 too.
	AdamStateBytesPerParameter = 8

	// LoRAAdapterShare is the trainable adapters' share of the parameters
	// for LoRA and QLoRA: rank 64 on every linear layer, the QLoRA paper's
	// setting for its 33B and 65B runs, is about 1.2% of LLaMA-65B (80
	// layers × 64 × (4 × (8192 + 8192) + 3 × (8192 + 22016))); rank 16 is
	// about 0.3%. 1% sizes for the common ranks with room to spare.
	LoRAAdapterShare = 0.01

	// LoRAAdapterBytesPerParameter: each adapter parameter keeps a bf16
	// weight, a bf16 gradient, an fp32 master copy and Adam's two fp32
	// moments (2 + 2 + 4 + 8, the ZeRO paper's 16 bytes).
	LoRAAdapterBytesPerParameter = 16
	// QLoRAAdapterBytesPerParameter: QLoRA keeps bf16 adapters with no
	// master copy and a paged Adam (2 + 2 + 8).
	QLoRAAdapterBytesPerParameter = 12

	// QLoRABaseBytesPerParameter is a linear-layer weight in NF4 with
	// double-quantised constants: 4 bits + 0.127 bits (QLoRA paper §3).
	// Embeddings and the output layer stay at 16 bits.
	QLoRABaseBytesPerParameter = 4.127 / 8

	// UpcastBaseBytesPerParameter is LoRA's frozen base for a checkpoint
	// in a 4-bit floating-point format (MXFP4, NVFP4): no training tool
	// computes on a frozen fp4 base, so LoRA recipes upcast it to bf16
	// first (decision D82; the default for fp4 is QLoRA).
	UpcastBaseBytesPerParameter = 2

	// CheckpointedActivationBytes is what activation checkpointing keeps
	// per token per layer, each layer's 16-bit input (2 × hidden bytes);
	// RecomputedLayerActivationBytes the activations of the one layer
	// being recomputed, 34 × hidden bytes per token with FlashAttention or
	// PyTorch's memory-efficient attention, which do not store the score
	// matrix (Korthikanti et al. 2022, "Reducing Activation Recomputation
	// in Large Transformer Models", arXiv 2205.05198, §4.1: full
	// recomputation keeps 2sbh bytes per layer); the logits add
	// vocabulary × 4 bytes (fp32) per token. Every training of a language
	// model is sized so, full training and full fine-tuning too: LoRA and
	// QLoRA recipes checkpoint activations (the QLoRA paper, Hugging
	// Face's PEFT guides), and so do the FSDP recipes that train or
	// fine-tune every weight at long context (torchtune's memory
	// optimisation guide: activation checkpointing "when you're memory
	// constrained and want to use a larger model, batch size or context
	// length"). They are a per-GPU term: under FSDP or ZeRO-3 each GPU
	// runs its own micro-batch of at least one whole sequence, and
	// sharding splits the model states, not the activations (Rajbhandari
	// et al. 2020, arXiv 1910.02054, §3: ZeRO-DP partitions the model
	// states; activations are residual memory of each data-parallel
	// process).
	CheckpointedActivationBytes    = 2
	RecomputedLayerActivationBytes = 34
	LogitBytes                     = 4

	// LoRAActivationBytesPerParameter estimates the checkpointed
	// activations of a language model without architecture facts, per
	// LoRAActivationReferenceTokens (4,096) tokens of the micro-batch: the
	// formula above gives 0.47 bytes per parameter for Llama 3.1 8B and
	// 0.12 for Llama 3.1 70B; 0.25 sits between them.
	LoRAActivationBytesPerParameter = 0.25
	LoRAActivationReferenceTokens   = 4096

	// SampleActivationBytes is the activation memory of one training
	// sample per layer per token of its sequence per unit of hidden size
	// for the kinds trained with plain data parallelism (encoder, vision,
	// speech): 34 bytes, Korthikanti et al.'s 16-bit activations of a
	// transformer layer without the score matrix (FlashAttention or
	// PyTorch's memory-efficient attention) and without recomputation. The
	// sequence is the model's max_context_tokens: 512 tokens for BERT, 197
	// patches for ViT-L/16 at 224 × 224 pixels. Training that computes
	// in fp32 or tf32 keeps every one of these tensors at 4 bytes, twice
	// (activationScale), as it does the checkpointed layer inputs and the
	// per-parameter estimates below, which all rest on 16-bit figures.
	SampleActivationBytes = 34

	// InferenceWorkspaceFraction is the activation workspace of a serving
	// engine, as a share of the weights: the peak of a prefill chunk
	// (vLLM profiles it at start-up with max_num_batched_tokens, 8,192 by
	// default with chunked prefill). 5% is a judgement (1 GiB for an 8B
	// model in bf16); with the 10% vLLM leaves out, it covers the 20% of
	// runtime buffers EleutherAI's Transformer Math 101 adds to the
	// weights.
	InferenceWorkspaceFraction = 0.05

	// InferenceHeadroom is added to the weights of a model without a KV
	// cache (encoder, vision and diffusion models, and a speech model
	// whose decoder the table does not give): activations for a moderate
	// batch, the 20% of EleutherAI's Transformer Math 101 (1.2 × the
	// weights). A served encoder-decoder speech model (Whisper) keeps a
	// cache per request like a language model, with its workspace.
	InferenceHeadroom = 0.20

	// KVBytesPerElement is the KV cache's storage per element: 2 bytes
	// (bf16 or fp16, vLLM's default cache dtype "auto"); 1 for fp8 models.
	KVBytesPerElement    = 2
	KVBytesPerElementFP8 = 1

	// ApproxKVBytesPerToken and ApproxKVExponent estimate the KV cache of a
	// language model without architecture facts: 128 KiB per token at
	// 16 bits for an 8B model, scaled by (active parameters / 8B) ^ 0.42,
	// the power law through Llama 3.1 8B (128 KiB) and 70B (320 KiB), both
	// with grouped-query attention and 8 KV heads; it gives 661 KiB for
	// 405B (the real 504 KiB) and 58 KiB for 1.2B (32 KiB), erring high.
	ApproxKVBytesPerToken = 131072
	ApproxKVExponent      = 0.42
)

// sampleActivationBytesPerParameter estimates one training sample's
// activations, per parameter, for a model of each kind without architecture
// facts. Encoder, vision and speech: the SampleActivationBytes formula on
// the catalog's reference models, BERT-large at 512 tokens (24 × 512 × 1024
// × 34 bytes = 428 MB for 0.34B parameters, 1.3), ViT-L/16 at 224 × 224
// (24 × 197 × 1024 × 34 = 165 MB for 0.307B, 0.55) and the Whisper large-v3
// encoder's 1,500 frames (32 × 1500 × 1280 × 34 = 2.1 GB for 1.55B, 1.4).
// Diffusion: 2.6 per trained parameter, a judgement for a UNet at 1024 ×
// 1024 pixels (SDXL's 2.58B UNet, 6.7 GB per image), whose convolutions
// keep far more per parameter than a transformer at 224 pixels; frozen
// encoders keep no activations for a backward pass. "" is a non-generative
// model of unknown kind.
var sampleActivationBytesPerParameter = map[string]float64{
	catalog.ModelKindEncoder:   1.3,
	catalog.ModelKindVision:    0.55,
	catalog.ModelKindSpeech:    1.4,
	catalog.ModelKindDiffusion: 2.6,
	"":                         1,
}

// MemoryInput is a model job resolved for the memory estimate: counts,
// precision, method and, where the catalog knows the model, its
// architecture.
type MemoryInput struct {
	Params, Active float64 // billions
	// Frozen is the part of Params in frozen encoders (billions): served
	// with the rest, kept as weights alone in training.
	Frozen    float64
	Precision string  // one of Precisions
	BPP       float64 // storage bytes per weight
	Workload  string  // WorkloadTraining, WorkloadFineTuning or WorkloadInference
	Method    string  // full, lora or qlora; "" for inference
	Kind      string  // catalog model kind; "" for an unknown non-generative model
	Model     *catalog.Model
	Context   int64 // tokens per sequence
	// Prompt and Output are the mean tokens of one request (inference of
	// a language model); SplitGiven whether the request stated both.
	Prompt, Output int64
	SplitGiven     bool
	Seqs           int64 // concurrent sequences (inference)
	// CheckpointGiB is the published checkpoint's size at Checkpoint, the
	// published precision, where the table gives it (0 otherwise): a
	// served model's weights, embeddings, norms and scales included.
	Checkpoint    string
	CheckpointGiB float64
	Batch         int64 // micro-batch per GPU (training)
	// CPU: the job runs on CPU sizes (a small model), where no GPU holds
	// a share or a copy of it.
	CPU bool
}

// Trained is the parameters training updates (billions): all but the
// frozen encoders'.
func (mi *MemoryInput) Trained() float64 { return mi.Params - mi.Frozen }

// Generative reports whether the model is a language model (dense or
// mixture of experts): KV cache for inference, split over GPUs for training.
func (mi *MemoryInput) Generative() bool {
	return mi.Kind == catalog.ModelKindGenerative || mi.Kind == catalog.ModelKindMoE
}

// MemoryEstimate is the memory a model needs for a workload, with its parts.
// Every GiB figure is rounded to 0.01.
type MemoryEstimate struct {
	GiB float64 // the total the job needs

	// Model is the catalog model id the estimate used; "" without a name.
	Model                   string
	Kind                    string // catalog model kind the activations follow
	ParametersBillion       float64
	ActiveParametersBillion float64
	Precision               string
	Workload                string
	// FineTuningMethod is full, lora or qlora for training and fine_tuning
	// (training is always full); "" for inference.
	FineTuningMethod string

	BytesPerParameter      float64 // storage of one weight at the precision
	StateBytesPerParameter float64 // per parameter: weights + gradients + master + optimizer (full); weights (frozen base, inference)

	WeightsGiB       float64
	GradientsGiB     float64
	MasterWeightsGiB float64
	OptimizerGiB     float64
	AdapterGiB       float64 // LoRA and QLoRA: adapters with their gradients and optimizer states
	AdapterShare     float64 // the adapters' share of the parameters
	ActivationGiB    float64 // training and fine-tuning activations; inference workspace
	KVCacheGiB       float64 // inference: the KV cache of every concurrent sequence (request)
	HeadroomFraction float64 // the activation ratio applied (inference of a model without a KV cache), else 0

	// Inference: the sequences and their length, and the KV cache per
	// token of context (averaged over the context for models with
	// sliding-window layers); for an encoder-decoder speech model, whose
	// cache is per request (KVCache.Request), the requests alone.
	// ContextTokens and TrainingBatchSize are the sequence length and
	// micro-batch for training when they were used.
	KVBytesPerToken    float64
	ContextTokens      int64
	ConcurrentRequests int64
	TrainingBatchSize  int64

	// DataParallel: every GPU holds the whole model and its states (the
	// kinds trained with plain data parallelism: encoder, vision,
	// diffusion, speech); otherwise the model is split over the GPUs, or
	// runs on CPUs (MemoryInput.CPU).
	DataParallel bool

	Formula string // human-readable derivation
}

// KVCache describes a model's KV cache.
type KVCache struct {
	// PerSeq is the bytes one sequence of the context holds; 0 when the
	// model has no KV cache.
	PerSeq float64
	// Request: PerSeq is one request of an encoder-decoder speech model,
	// sized at the decoder's most tokens whatever the context (How says
	// it whole); else PerSeq is mi.Context tokens of a language model.
	Request bool
	// Split is the most GPUs tensor parallelism divides the cache over:
	// the KV heads (more GPUs hold copies); 1 for MLA, whose latent every
	// GPU keeps whole; 0 when unknown (any degree divides it).
	Split int64
	How   string
}

// KVCacheOf derives the KV cache of one sequence of mi.Context tokens, or
// of one request of an encoder-decoder speech model (decoderCache).
func KVCacheOf(mi *MemoryInput) KVCache {
	if mi.Kind == catalog.ModelKindSpeech {
		return decoderCache(mi)
	}
	if !mi.Generative() {
		return KVCache{}
	}
	b := float64(KVBytesPerElement)
	if mi.Precision == PrecisionFP8 {
		b = KVBytesPerElementFP8
	}
	ctx := float64(mi.Context)
	bs := trimFloat(b)
	if m := mi.Model; m != nil && m.Layers != nil {
		L := float64(*m.Layers)
		if m.AttentionKind == catalog.AttentionMLA && m.KVLoRARank != nil && m.QKRopeHeadDim != nil {
			w := float64(*m.KVLoRARank + *m.QKRopeHeadDim)
			per := L * w * b
			return KVCache{PerSeq: per * ctx, Split: 1,
				How: fmt.Sprintf("MLA: %d layers × (%d latent + %d RoPE) × %s bytes = %s bytes per token", *m.Layers, *m.KVLoRARank, *m.QKRopeHeadDim, bs, groupInt(per))}
		}
		if m.KVHeads != nil && m.HeadDim != nil {
			return headsKVCache(mi, m, b, bs)
		}
	}
	per := ApproxKVBytesPerToken * math.Pow(mi.Active/8, ApproxKVExponent) * b / KVBytesPerElement
	return KVCache{PerSeq: per * ctx,
		How: fmt.Sprintf("about %s bytes per token, approximated from %sB active parameters (no architecture: name the model for the exact figure)", groupInt(per), trimFloat(mi.Active))}
}

// decoderCache is the cache one request of an encoder-decoder speech model
// keeps where the table gives its decoder (catalog EncoderDecoderDoc):
// every decoder layer's self-attention keys and values over the decoder's
// most tokens (the model's max_context_tokens, 448 for Whisper: a
// transcript of one 30 s segment is at most that long, and the request's
// context does not change it) and its cross-attention keys and values over
// the encoder's positions, kv_heads × head_dim values each, at the KV
// cache's bytes per element. Whisper large-v3: 163,840 bytes per decoder
// token × 448 + 245,760,000 bytes = 319.2 MB (0.30 GiB). Split is 0: a
// copy over several GPUs holds its layers' caches where the layers are.
func decoderCache(mi *MemoryInput) KVCache {
	m := mi.Model
	if m == nil || m.EncoderDecoder == nil || m.KVHeads == nil || m.HeadDim == nil || m.MaxContextTokens == nil {
		return KVCache{}
	}
	b := float64(KVBytesPerElement)
	if mi.Precision == PrecisionFP8 {
		b = KVBytesPerElementFP8
	}
	ed := m.EncoderDecoder
	width := 2 * float64(ed.DecoderLayers) * float64(*m.KVHeads) * float64(*m.HeadDim) * b // keys and values of every layer, bytes per position
	self, cross := width*float64(*m.MaxContextTokens), width*float64(ed.EncoderPositions)
	how := fmt.Sprintf("decoder self-attention 2 × %d layers × %d heads × %d head dimension × %s bytes = %s bytes per token × %s tokens (the decoder's most) + cross-attention over the encoder's %s positions, %s bytes",
		ed.DecoderLayers, *m.KVHeads, *m.HeadDim, trimFloat(b), groupInt(width), groupInt(float64(*m.MaxContextTokens)), groupInt(float64(ed.EncoderPositions)), groupInt(cross))
	return KVCache{PerSeq: self + cross, Request: true, How: how + fmt.Sprintf(" = %s bytes per request", groupInt(self+cross))}
}

// headsKVCache is the KV cache of a model with grouped-query or
// multi-head attention: keys and values of every KV head of every layer,
// sliding-window layers keeping only their window.
func headsKVCache(mi *MemoryInput, m *catalog.Model, b float64, bs string) KVCache {
	L, ctx := float64(*m.Layers), float64(mi.Context)
	perLayer := 2 * float64(*m.KVHeads) * float64(*m.HeadDim) * b
	tokens := L * ctx
	how := fmt.Sprintf("2 × %d layers × %d KV heads × %d head dimension × %s bytes = %s bytes per token", *m.Layers, *m.KVHeads, *m.HeadDim, bs, groupInt(perLayer*L))
	if m.SlidingWindow != nil && m.SlidingWindowLayers != nil && *m.SlidingWindow < mi.Context {
		sw := float64(*m.SlidingWindowLayers)
		tokens = (L-sw)*ctx + sw*float64(*m.SlidingWindow)
		how += fmt.Sprintf(", %d of the layers keeping only a %s-token window", *m.SlidingWindowLayers, groupInt(float64(*m.SlidingWindow)))
	}
	return KVCache{PerSeq: perLayer * tokens, Split: *m.KVHeads, How: how}
}

// TrainingActivations is the activation memory of one GPU's micro-batch
// (training and fine-tuning), in bytes, with its derivation: each GPU
// keeps the whole of it, however many GPUs the model states are sharded
// over (CheckpointedActivationBytes).
func TrainingActivations(mi *MemoryInput) (float64, string) {
	return trainingActivationsBytes(mi)
}

// activationScale is the activations' bytes against the 16-bit figures
// the constants give: 2 when training computes in fp32 or tf32 (full
// training, or LoRA on such a base), else 1.
func activationScale(mi *MemoryInput) float64 {
	if mi.Method != MethodQLoRA && (mi.Precision == PrecisionFP32 || mi.Precision == PrecisionTF32) {
		return 2
	}
	return 1
}

// activationNote says the activations are 32-bit: "" at 16 bits.
func activationNote(scale float64) string {
	if scale == 1 {
		return ""
	}
	return " (32-bit activations)"
}

func trainingActivationsBytes(mi *MemoryInput) (float64, string) {
	m := mi.Model
	batch := float64(mi.Batch)
	sc := activationScale(mi)
	if mi.Generative() {
		tokens := float64(mi.Context) * batch
		if m != nil && m.Layers != nil && m.HiddenSize != nil {
			L, H := float64(*m.Layers), float64(*m.HiddenSize)
			ckpt, layer := CheckpointedActivationBytes*sc, RecomputedLayerActivationBytes*sc
			act := L*tokens*H*ckpt + tokens*H*layer
			how := fmt.Sprintf("%s tokens × (%d layers × %d hidden × %s bytes checkpointed + %d hidden × %s bytes of the layer recomputed",
				groupInt(tokens), *m.Layers, *m.HiddenSize, trimFloat(ckpt), *m.HiddenSize, trimFloat(layer))
			if m.VocabSize != nil {
				act += tokens * float64(*m.VocabSize) * LogitBytes
				how += fmt.Sprintf(" + %s vocabulary × %d bytes of logits", groupInt(float64(*m.VocabSize)), LogitBytes)
			}
			return act, how + ")"
		}
		return mi.Params * 1e9 * LoRAActivationBytesPerParameter * sc * tokens / LoRAActivationReferenceTokens,
			fmt.Sprintf("%s bytes per parameter per %s tokens × %s tokens (no architecture)%s", trimFloat(LoRAActivationBytesPerParameter*sc), groupInt(LoRAActivationReferenceTokens), groupInt(tokens), activationNote(sc))
	}
	if m != nil && m.Layers != nil && m.HiddenSize != nil && m.MaxContextTokens != nil && mi.Kind != catalog.ModelKindSpeech {
		b := SampleActivationBytes * sc
		per := float64(*m.Layers) * float64(*m.MaxContextTokens) * float64(*m.HiddenSize) * b
		return per * batch, fmt.Sprintf("%s samples × %d layers × %s tokens × %d hidden × %s bytes%s", groupInt(batch), *m.Layers, groupInt(float64(*m.MaxContextTokens)), *m.HiddenSize, trimFloat(b), activationNote(sc))
	}
	k := sampleActivationBytesPerParameter[mi.Kind]
	return mi.Trained() * 1e9 * k * sc * batch, fmt.Sprintf("%s samples × %sB trained parameters × %s bytes (%s)%s", groupInt(batch), trimFloat(mi.Trained()), trimFloat(k*sc), KindLabel(mi.Kind), activationNote(sc))
}

// KindLabel names a model kind as the sentences do: "vision model", or
// "non-generative model" for an unknown kind.
func KindLabel(kind string) string {
	if kind == "" {
		return "non-generative model"
	}
	return kind + " model"
}

// KindWithArticle is KindLabel with its indefinite article: "an encoder
// model", "a vision model".
func KindWithArticle(kind string) string {
	label := KindLabel(kind)
	if strings.ContainsRune("aeiou", rune(label[0])) {
		return "an " + label
	}
	return "a " + label
}

// EstimateMemory estimates the GPU memory of a resolved model job.
func EstimateMemory(mi *MemoryInput) MemoryEstimate {
	m := memorySum{mi: mi, params: mi.Params * 1e9}
	m.e = MemoryEstimate{
		ParametersBillion: mi.Params, ActiveParametersBillion: mi.Active, Precision: mi.Precision,
		Workload: mi.Workload, FineTuningMethod: mi.Method, Kind: mi.Kind, BytesPerParameter: mi.BPP,
		DataParallel: !mi.Generative() && mi.Workload != WorkloadInference && !mi.CPU,
	}
	if mi.Model != nil {
		m.e.Model = mi.Model.ID
	}
	m.pb = trimFloat(mi.Params) + "B parameters"
	if mi.Active < mi.Params {
		m.pb += " (" + trimFloat(mi.Active) + "B active)"
	}
	switch {
	case mi.Workload == WorkloadInference:
		m.inference()
	case mi.Method == MethodLoRA || mi.Method == MethodQLoRA:
		m.adapters()
	default:
		m.fullTraining()
	}
	e := m.e
	e.GiB = ToGiB(m.total)
	e.Formula = strings.Join(m.parts, "; ") + "; total " + trimFloat(e.GiB) + " GiB"
	if e.DataParallel {
		e.Formula += " per GPU (each GPU holds the whole model: data parallel)"
	}
	return e
}

// ToGiB is bytes in GiB, rounded to 0.01.
func ToGiB(bytes float64) float64 { return catalog.Round2(bytes / GiB) }

// memorySum adds up a memory estimate: its figures, the parts of its
// formula, and the total in bytes.
type memorySum struct {
	mi     *MemoryInput
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
	w := m.params * mi.BPP
	m.e.StateBytesPerParameter = mi.BPP
	m.e.WeightsGiB = ToGiB(w)
	if mi.CheckpointGiB > 0 {
		w = mi.CheckpointGiB * GiB
		m.e.WeightsGiB = ToGiB(w)
		m.part(fmt.Sprintf("weights: the published %s checkpoint (%s × %s bytes would be %s GiB) =", mi.Checkpoint, m.pb, trimFloat(mi.BPP), trimFloat(ToGiB(m.params*mi.BPP))), m.e.WeightsGiB)
	} else {
		m.part(fmt.Sprintf("weights: %s × %s bytes (%s) =", m.pb, trimFloat(mi.BPP), mi.Precision), m.e.WeightsGiB)
	}
	if kv := KVCacheOf(mi); kv.PerSeq > 0 {
		ws := w * InferenceWorkspaceFraction
		kvb := kv.PerSeq * float64(mi.Seqs)
		m.e.ActivationGiB, m.e.KVCacheGiB = ToGiB(ws), ToGiB(kvb)
		m.e.ConcurrentRequests = mi.Seqs
		m.total = w + ws + kvb
		m.part(fmt.Sprintf("workspace: %s%% of the weights =", trimFloat(InferenceWorkspaceFraction*100)), m.e.ActivationGiB)
		if kv.Request {
			m.part(fmt.Sprintf("cache: %s, × %s =", kv.How, catalog.Plural(mi.Seqs, "request", "requests")), m.e.KVCacheGiB)
			return
		}
		m.e.KVBytesPerToken = math.Round(kv.PerSeq / float64(mi.Context))
		m.e.ContextTokens = mi.Context
		m.part(fmt.Sprintf("KV cache: %s, × %s tokens × %s sequences =", kv.How, groupInt(float64(mi.Context)), groupInt(float64(mi.Seqs))), m.e.KVCacheGiB)
	} else {
		ws := w * InferenceHeadroom
		m.e.ActivationGiB, m.e.HeadroomFraction = ToGiB(ws), InferenceHeadroom
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
	if mi.Method == MethodQLoRA {
		emb := embeddingParameters(mi.Model)
		base = (m.params-emb)*QLoRABaseBytesPerParameter + emb*2
		adapterBytes = QLoRAAdapterBytesPerParameter
		m.e.StateBytesPerParameter = round4(base / m.params)
		how := "NF4 base 4.127 bits"
		if emb > 0 {
			how += fmt.Sprintf(", %sB embedding and output parameters at 2 bytes", trimFloat(catalog.Round2(emb/1e9)))
		}
		m.part(fmt.Sprintf("frozen base: %s (%s) =", m.pb, how), ToGiB(base))
	} else {
		bpp, how := loraBase(mi)
		base = m.params * bpp
		m.e.StateBytesPerParameter = bpp
		m.part(fmt.Sprintf("frozen base: %s × %s bytes (%s) =", m.pb, trimFloat(bpp), how), ToGiB(base))
	}
	adapters := mi.Trained() * 1e9 * LoRAAdapterShare * adapterBytes
	m.e.WeightsGiB, m.e.AdapterGiB, m.e.AdapterShare = ToGiB(base), ToGiB(adapters), LoRAAdapterShare
	m.part(fmt.Sprintf("adapters: %s%% of the trained parameters × %s bytes (weights, gradients, optimizer) =", trimFloat(LoRAAdapterShare*100), trimFloat(adapterBytes)), m.e.AdapterGiB)
	act, how := TrainingActivations(mi)
	m.e.ActivationGiB = ToGiB(act)
	m.part("activations per GPU: "+how+" =", m.e.ActivationGiB)
	m.total = base + adapters + act
	m.e.ContextTokens, m.e.TrainingBatchSize = contextIfUsed(mi), mi.Batch
}

// loraBase is the bytes per parameter of LoRA's frozen base, and how the
// formula names them: the model's precision, or bf16 for an fp4 model.
func loraBase(mi *MemoryInput) (bytes float64, how string) {
	if mi.Precision == PrecisionFP4 {
		return UpcastBaseBytesPerParameter, "fp4 upcast to bf16: no tool trains on an fp4 base"
	}
	return mi.BPP, mi.Precision
}

// fullTraining: the model states (weights, gradients, master weights, Adam
// moments) with the activations.
func (m *memorySum) fullTraining() {
	mi := m.mi
	grad := math.Max(mi.BPP, MinGradientBytesPerParameter)
	master := 0.0
	if mi.BPP < 4 {
		master = MasterWeightBytesPerParameter
	}
	state := mi.BPP + grad + master + AdamStateBytesPerParameter
	trained, frozen := mi.Trained()*1e9, mi.Frozen*1e9
	states := trained*state + frozen*mi.BPP
	m.e.StateBytesPerParameter = state
	m.e.WeightsGiB = ToGiB(m.params * mi.BPP)
	m.e.GradientsGiB = ToGiB(trained * grad)
	m.e.MasterWeightsGiB = ToGiB(trained * master)
	m.e.OptimizerGiB = ToGiB(trained * AdamStateBytesPerParameter)
	sp := fmt.Sprintf("%s weights %s + gradients %s", mi.Precision, trimFloat(mi.BPP), trimFloat(grad))
	if master > 0 {
		sp += " + fp32 master weights " + trimFloat(master)
	}
	sp += " + Adam moments " + trimFloat(AdamStateBytesPerParameter)
	if frozen == 0 {
		m.part(fmt.Sprintf("model states: %s × %s bytes (%s) =", m.pb, trimFloat(state), sp), ToGiB(states))
	} else {
		m.part(fmt.Sprintf("model states: %sB trained parameters × %s bytes (%s) =", trimFloat(mi.Trained()), trimFloat(state), sp), ToGiB(trained*state))
		m.part(fmt.Sprintf("frozen encoders: %sB parameters × %s bytes (%s weights alone) =", trimFloat(mi.Frozen), trimFloat(mi.BPP), mi.Precision), ToGiB(frozen*mi.BPP))
	}
	act, how := TrainingActivations(mi)
	m.e.ActivationGiB = ToGiB(act)
	m.e.ContextTokens, m.e.TrainingBatchSize = contextIfUsed(mi), mi.Batch
	label := "activations: "
	if mi.Generative() {
		label = "activations per GPU: "
	}
	m.part(label+how+" =", m.e.ActivationGiB)
	m.total = states + act
}

// contextIfUsed is the sequence length the activations used: language
// models only.
func contextIfUsed(mi *MemoryInput) int64 {
	if mi.Generative() {
		return mi.Context
	}
	return 0
}

// embeddingParameters counts the input embedding and output layer
// (vocabulary × hidden each; once where the model ties them), which QLoRA
// keeps at 16 bits; 0 when the architecture is unknown.
func embeddingParameters(m *catalog.Model) float64 {
	if m == nil || m.VocabSize == nil || m.HiddenSize == nil {
		return 0
	}
	matrices := 2.0
	if m.TiedEmbeddings {
		matrices = 1
	}
	return matrices * float64(*m.VocabSize) * float64(*m.HiddenSize)
}

// trimFloat, groupInt, round4: the number formatting every layer shares
// (catalog/text.go).
func trimFloat(f float64) string { return catalog.TrimFloat(f) }

func groupInt(f float64) string { return catalog.GroupInt(f) }

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }
