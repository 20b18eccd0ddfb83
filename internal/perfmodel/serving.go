// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the step model of a served language model: how long one
// copy takes to prefill a prompt and to run a decode step at its batch,
// and so its output tokens per second, time to first token and time per
// output token, on GPUs or, for a small model, on a CPU VM.

import (
	"math"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

const (
	// The step model's fitted constants: InferenceMBU, DecodeMFU,
	// PrefillMFU, AllReduceSeconds, ExpertLayerSeconds, LinkEfficiency and
	// FirstTokenSeconds here, ServiceCV2 of the queue. They were fitted,
	// by a random search over physically plausible ranges and later scans
	// of one or two of them, to the reference rows of package servingbench
	// only (the 44 throughput rows, the 12 rate rows and the 15 sweep
	// points of ../shared/reference); the ranking guide lists every row
	// with its prediction and error.

	// InferenceMBU is the share of the GPUs' memory bandwidth a decode step
	// achieves reading the weights and the KV cache (model bandwidth
	// utilization): fitted, 72%, above the 55% to 60% Databricks/Mosaic
	// ("LLM Inference Performance Engineering: Best Practices", 2023)
	// measured on A100 and H100 with the engines of 2023.
	InferenceMBU = 0.72

	// DecodeMFU and PrefillMFU are the shares of the GPUs' dense peak a
	// decode step's arithmetic and a prompt's prefill achieve on the GPUs
	// of TrainingMFU's class, scaled for another GPU by its training MFU
	// over TrainingMFU (the MI300X's 30%: three quarters), the weights'
	// matrix products at their GEMMPrecision's peak and attention at
	// AttentionPrecision's (16-bit beside all but fp32 and tf32 weights). Fitted: 30% and 86%. A decode step's arithmetic is many
	// small matrix products, with attention over every sequence's cache,
	// sampling and scheduling per sequence, which the fitted 30% carries; a
	// prefill is a few large ones. PrefillMFU was 80% while every FLOP ran
	// at the weights' peak; once attention ran at 16 bits and MXFP4 with
	// bf16 activations, a scan of 0.80 to 1.00 with DecodeMFU 0.28 to 0.32
	// on the same rows kept the guards only at 0.86 to 0.88 with 0.30.
	DecodeMFU  = 0.30
	PrefillMFU = 0.86

	// AllReduceSeconds is the latency of one step of a tensor-parallel
	// all-reduce (log2 of the GPUs of them): fitted with
	// ExpertLayerSeconds, 10 µs, so that an all-reduce over eight GPUs
	// (three steps) takes 30 µs, the top of the 10 to 30 µs nccl-tests
	// report for small messages inside an NVLink domain. A decode step
	// waits for two all-reduces per layer; each also moves its
	// activations, 2 (tp − 1) / tp of them over each GPU's link (a ring),
	// at LinkEfficiency of the link's one-way bandwidth.
	AllReduceSeconds = 10e-6

	// ExpertLayerSeconds is the time a decode step spends in each layer
	// of a mixture of experts besides reading and computing its weights:
	// routing the step's tokens (the router's scores, the top-k choice,
	// sorting the tokens by expert and gathering them back) and launching
	// the grouped expert kernels, a handful of small kernels a dense layer
	// does not run. Fitted with AllReduceSeconds: 60 µs. The sweep points
	// of gpt-oss-120b and DeepSeek-R1 at 4 to 16 requests in flight, where
	// this cost is a fifth to over half of a step, set it; the fit's loss is
	// flat from 60 to 90 µs and 60 moves the throughput rows, at high
	// batch, least.
	ExpertLayerSeconds = 60e-6

	// LinkEfficiency is the share of a GPU link's one-way bandwidth a
	// ring all-reduce achieves: fitted, 90%, near the 360 to 390 GB/s
	// nccl-tests report as bus bandwidth on H100's 450 GB/s NVLink.
	LinkEfficiency = 0.9

	// FirstTokenSeconds is the time a request spends before its first
	// token that no step of the model holds: the server parsing and
	// tokenizing it, scheduling it into a step and returning the token.
	// Fitted on the rate rows' first tokens alone (the other constants
	// kept): 30 ms. The sweep points, which the fit did not use, agree:
	// their first tokens at 4 requests in flight come 35 to 70 ms after
	// the prefill and step the model times.
	FirstTokenSeconds = 0.030

	// PCIeGBs is the bidirectional bandwidth between GPUs that no NVLink
	// joins: 64 GB/s, PCIe 4.0 x16 (32 GB/s each way).
	PCIeGBs = 64

	// ActivationBytes is the bytes of one activation an all-reduce moves:
	// 2, bf16 or fp16.
	ActivationBytes = 2

	// WidthPerLayer is the model width per layer that estimates the layers
	// of a model without architecture facts: 128, Llama's (4,096 / 32 for
	// 8B, 8,192 / 80 for 70B, 16,384 / 126 for 405B).
	WidthPerLayer = 128

	// CPUStreamEfficiency is the share of a CPU VM's STREAM triad
	// bandwidth a decode step of a small model achieves reading its
	// weights: 80%, a judgement (a decode step streams the weights through
	// matrix-vector products as STREAM streams its arrays, with fewer
	// writes).
	CPUStreamEfficiency = 0.80

	// CPUComputeEfficiency is the share of a CPU VM's FP32 rate a small
	// model's decode and prefill arithmetic achieve: 30%, a judgement
	// (matrix products at the batch sizes of serving keep the vector
	// units far from their peak).
	CPUComputeEfficiency = 0.30

	// CPUFP32PerFP64 is a CPU core's FP32 FLOPs per FP64 FLOP: 2, its
	// vector units holding twice as many single-precision lanes (AVX2,
	// AVX-512).
	CPUFP32PerFP64 = 2
)

// Service is a served language model as the step model times it: the
// model's facts and one request's tokens.
type Service struct {
	// Precision is the weights'; Format the published checkpoint's format
	// they come from ("mxfp4"; "" when none), which with the GPU sets the
	// precision of their matrix products (Hardware.GEMMPrecision).
	Precision, Format string
	HasMemory         bool    // the memory model estimates the model's memory
	WeightsGiB        float64 // of one copy
	Active, Params    float64 // billions
	KVPerSeq          float64 // GiB of KV cache per sequence of the context; 0 without one
	Context           int64   // tokens of the longest sequence (sizes KVPerSeq)
	Prompt, Output    float64 // mean tokens of one request
	// Layers and Width (attention heads × head dimension) time the
	// attention; 0 when the architecture is unknown. Depth is the layers
	// whose all-reduces a tensor-parallel copy waits for: the table's, else
	// estimated from the parameters (ModelDepth).
	Layers, Width, Depth float64
	// Hidden is the model's hidden size, the vector per token each
	// row-parallel layer's all-reduce sums (the attention output and MLP
	// or expert down projections, vLLM's RowParallelLinear): the table's
	// hidden_size, else Width; 0 when both are unknown.
	Hidden float64
	// WindowLayers of the Layers attend to at most Window tokens before
	// each token (sliding-window or chunked attention); 0 when none.
	WindowLayers, Window float64
	// Experts and PerToken are a mixture of experts' routed experts and
	// those one token uses; 0 when unknown.
	Experts, PerToken float64
	// ExpertBytes is the bytes of one routed expert's parameter where the
	// published checkpoint's format covers the experts only
	// (expertOnlyFormats), the rest of its weights kept wider; 0 otherwise.
	ExpertBytes float64
}

// ServiceOf is the service of a resolved model at precision, whose
// sequences hold kvPerSeq GiB of KV cache each; its weights are set by
// WithMemory.
func ServiceOf(mi *MemoryInput, precision string, kvPerSeq float64) Service {
	s := Service{Precision: precision, Format: mi.Checkpoint, Active: mi.Active, Params: mi.Params,
		KVPerSeq: kvPerSeq, Context: mi.Context, Prompt: float64(mi.Prompt), Output: float64(mi.Output)}
	s.Depth = ModelDepth(s.Params)
	if m := mi.Model; m != nil {
		if m.Layers != nil && m.AttentionHeads != nil && m.HeadDim != nil {
			s.Layers, s.Width = float64(*m.Layers), float64(*m.AttentionHeads**m.HeadDim)
		}
		if m.Layers != nil {
			s.Depth = float64(*m.Layers)
		}
		s.Hidden = s.Width
		if m.HiddenSize != nil {
			s.Hidden = float64(*m.HiddenSize)
		}
		if s.Layers > 0 && m.SlidingWindow != nil && m.SlidingWindowLayers != nil {
			s.WindowLayers, s.Window = float64(*m.SlidingWindowLayers), float64(*m.SlidingWindow)
		}
		if m.Kind == catalog.ModelKindMoE && m.Experts != nil && m.ActiveExperts != nil && *m.Experts > *m.ActiveExperts {
			s.Experts, s.PerToken = float64(*m.Experts), float64(*m.ActiveExperts)
			if expertOnlyFormats[strings.ToLower(mi.Checkpoint)] && mi.CheckpointGiB > 0 {
				s.ExpertBytes = m.PrecisionBits / 8
			}
		}
	}
	return s
}

// CopySpeed is one copy of a served model at its batch as the step model
// times it. Seconds.
type CopySpeed struct {
	Memory, Compute float64 // one decode step's memory and arithmetic time
	AllReduce       float64 // one step's tensor-parallel all-reduces
	Routing         float64 // one step's routing to experts (a mixture of experts)
	Prefill         float64 // one request's prefill
	PrefillMove     float64 // the part of Prefill moving the prompt's activations through the all-reduces
	// TPS is the copy's output tokens per second; TTFT and TPOT a
	// request's mean time to first token and per output token.
	TPS, TTFT, TPOT float64
	WeightOnly      bool // the weights dequantised for 16-bit arithmetic (Hardware.WeightOnly)
}

// CopyGPUs is the GPUs of one copy split over tp GPUs of a VM and pp
// VMs (pipeline stages), a share for a partial GPU.
func CopyGPUs(h *Hardware, tp, pp int64) float64 {
	g := float64(tp * pp)
	if h.GPUCount < 1 {
		g *= h.GPUCount
	}
	return g
}

// Speed times one copy, split over tp GPUs of a VM and pp VMs, decoding b
// sequences together with continuous batching: each sequence's prompt is
// prefilled once, at PrefillMFU of the copy's peak (the weights' matrix
// products at GEMMPrecision's, attention at AttentionPrecision's), and each of its output
// tokens comes from a decode step that reads the weights (of a mixture of
// experts, the experts the batch touches) and every sequence's KV cache at
// InferenceMBU of the copy's bandwidth, then computes b tokens at
// DecodeMFU of its peak; a mixture of experts routes the step's tokens in
// each layer (ExpertLayerSeconds); a copy split by tensor parallelism waits
// for two all-reduces per layer (allReduce), in the decode step over b
// tokens and in the prefill over the prompt's. Pipeline stages run their
// micro-batches in turn: the weights take one stage's bandwidth, and a
// prompt's prefill passes through the stages one after another before its
// first token. Prefill and decode share the GPUs: over the output tokens of
// b requests the copy runs output steps and b prefills. The zero value when
// the catalog has no figures for the GPU.
func (s *Service) Speed(h *Hardware, tp, pp int64, b float64) CopySpeed {
	gpus := CopyGPUs(h, tp, pp)
	bw := gpus * h.HBMGBs * 1e9
	scale := gpus * 1e12 * h.TrainMFU / TrainingMFU
	peak, attn := h.GEMMTFLOPS(s.Precision, s.Format)*scale, h.AttentionTFLOPS(s.Precision, s.Format)*scale
	if bw <= 0 || peak <= 0 || attn <= 0 || !s.HasMemory || !(b > 0) || s.Output <= 0 {
		return CopySpeed{}
	}
	fb := b
	mean := s.Prompt + s.Output/2
	c := CopySpeed{WeightOnly: h.IsGPU && h.WeightOnly(s.Precision, s.Format)}
	// Pipeline stages run their micro-batches in turn: each stage reads
	// its share of the weights once for each of pp micro-batches, so the
	// weights take one stage's bandwidth, while the KV cache, read by the
	// stage that holds its layers, and the arithmetic use every GPU.
	stages := float64(max(pp, 1))
	c.Memory = s.TouchedWeights(b)*GiB/(bw/stages*InferenceMBU) + s.KVRead(b)/(bw*InferenceMBU)
	// The weights' matrix products run at GEMMPrecision, attention's
	// score and value products at AttentionPrecision.
	c.Compute = fb * (2*s.Active*1e9/peak + 4*s.Width*s.DecodeAttended(mean)/attn) / DecodeMFU
	c.Prefill = (2*s.Active*1e9*s.Prompt/peak + 4*s.Width*s.PrefillAttended(s.Prompt)/attn) / PrefillMFU
	c.AllReduce = s.allReduce(h, tp, b)
	c.Routing = s.routing()
	c.PrefillMove = s.allReduce(h, tp, s.Prompt) - s.allReduce(h, tp, 0)
	c.Prefill += c.PrefillMove
	c = s.timed(c, c.Memory+c.Compute+c.AllReduce+c.Routing, fb)
	// A prompt passes through the stages one after another: its first
	// token waits for each stage's share of the prefill in turn.
	c.TTFT += (stages - 1) * (c.Prefill - c.PrefillMove)
	return c
}

// DecodeAttended is the tokens, summed over the layers, one token attends
// to after context tokens: all of them in a layer of full attention, at
// most Window in a windowed one (sliding-window or chunked attention, as
// the KV cache keeps them: headsKVCache). Attention's score and value
// products take 4 × Width FLOPs per token attended to.
func (s *Service) DecodeAttended(context float64) float64 {
	return (s.Layers-s.WindowLayers)*context + s.WindowLayers*s.windowed(context)
}

// PrefillAttended is DecodeAttended summed over a prompt's tokens: in a
// layer of full attention each attends to those before it (p²/2 in all),
// in a windowed one to at most Window of them (Window × p − Window²/2 for
// a prompt longer than the window).
func (s *Service) PrefillAttended(p float64) float64 {
	win := p * p / 2
	if w := s.windowed(p); w < p {
		win = w*p - w*w/2
	}
	return (s.Layers-s.WindowLayers)*p*p/2 + s.WindowLayers*win
}

// windowed is the tokens a windowed layer attends to after context
// tokens: at most Window.
func (s *Service) windowed(context float64) float64 {
	if s.Window > 0 {
		return math.Min(context, s.Window)
	}
	return context
}

// allReduce is the time of the two all-reduces per layer of a step over
// tokens tokens on a copy split over tp GPUs (OneAllReduce each); 0 on one
// GPU.
func (s *Service) allReduce(h *Hardware, tp int64, tokens float64) float64 {
	r := s.OneAllReduce(h, tp, tokens)
	return 2 * s.Depth * (r.Latency + r.Move)
}

// AllReduce is one tensor-parallel all-reduce of a step: its Steps (log2
// of the GPUs), its Latency (Steps × AllReduceSeconds) and the time its
// activations take over each GPU's link, a ring (Move), seconds.
type AllReduce struct {
	Steps, Latency, Move float64
}

// OneAllReduce is one all-reduce of a step over tokens tokens on a copy
// split over tp GPUs, each token's Hidden activations (WidthPerLayer ×
// Depth without the architecture): 2 (tp − 1) / tp of them over each
// GPU's link at LinkEfficiency of its one-way bandwidth; the zero value on
// one GPU.
func (s *Service) OneAllReduce(h *Hardware, tp int64, tokens float64) AllReduce {
	if tp < 2 {
		return AllReduce{}
	}
	width := s.Hidden
	if width <= 0 {
		width = WidthPerLayer * s.Depth
	}
	n := float64(tp)
	r := AllReduce{Steps: math.Log2(n)}
	r.Latency = AllReduceSeconds * r.Steps
	if h.LinkGBs > 0 {
		r.Move = 2 * (n - 1) / n * tokens * width * ActivationBytes / (h.LinkGBs / 2 * 1e9 * LinkEfficiency)
	}
	return r
}

// routing is the time one decode step of a mixture of experts spends
// routing its tokens: ExpertLayerSeconds in each of its layers; 0 for a
// dense model or one without the expert counts.
func (s *Service) routing() float64 {
	if s.Experts <= 0 {
		return 0
	}
	return s.Depth * ExpertLayerSeconds
}

// timed completes a copy's speed from one decode step's time: over the
// output tokens of b requests the copy runs output steps and b prefills.
func (s *Service) timed(c CopySpeed, step, fb float64) CopySpeed {
	cycle := s.Output*step + fb*c.Prefill
	c.TPS = fb * s.Output / cycle
	c.TPOT = cycle / s.Output
	// A new request waits for the running step, then its prefill runs
	// with the next; the server's own work adds FirstTokenSeconds.
	c.TTFT = c.Prefill + step + FirstTokenSeconds
	return c
}

// CPUFP32 is a CPU VM's FP32 rate, FLOP/s: CPUFP32PerFP64 × its FP64 rate
// (physical cores × the per-core FP64 rate).
func CPUFP32(h *Hardware) float64 { return CPUFP32PerFP64 * h.FP64GFLOPS * 1e9 }

// CPUSpeed times one copy of a small model on a CPU VM decoding b
// sequences together: a decode step reads the weights and every
// sequence's KV cache at CPUStreamEfficiency of the VM's STREAM
// bandwidth, and takes no less than its arithmetic, b tokens × 2 × the
// active parameters at CPUComputeEfficiency of the VM's FP32 rate (the
// cores overlap the two); a prompt's prefill is arithmetic at the same
// efficiency. The zero value when the catalog has no STREAM or FP64
// figure for the size.
func (s *Service) CPUSpeed(h *Hardware, b float64) CopySpeed {
	bw, peak := h.StreamGBs*1e9*CPUStreamEfficiency, CPUFP32(h)*CPUComputeEfficiency
	if bw <= 0 || peak <= 0 || !s.HasMemory || !(b > 0) || s.Output <= 0 {
		return CopySpeed{}
	}
	fb := b
	c := CopySpeed{
		Memory:  (s.TouchedWeights(b)*GiB + s.KVRead(b)) / bw,
		Compute: fb * 2 * s.Active * 1e9 / peak,
		Prefill: 2 * s.Active * 1e9 * s.Prompt / peak,
	}
	return s.timed(c, math.Max(c.Memory, c.Compute), fb)
}

// KVRead is the bytes of KV cache one decode step of b sequences reads:
// the mean sequence in flight holds its prompt and half its output.
func (s *Service) KVRead(b float64) float64 {
	mean := s.Prompt + s.Output/2
	return b * s.KVPerSeq * GiB * math.Min(1, mean/float64(max(s.Context, 1)))
}

// ModelDepth estimates a language model's layers from its parameters
// (billions) when the table has no architecture: about 12 × layers ×
// width² parameters (Kaplan et al. 2020, arXiv 2001.08361) at
// WidthPerLayer of width per layer.
func ModelDepth(paramsB float64) float64 {
	return math.Max(1, math.Round(math.Cbrt(paramsB*1e9/(12*WidthPerLayer*WidthPerLayer))))
}

// expertOnlyFormats are the published formats that quantise a mixture of
// experts' routed experts alone: MXFP4 in gpt-oss, whose attention, router
// and embeddings stay bf16 (the gpt-oss model card, arXiv 2508.10925,
// Table 1: "MXFP4 MoE weights and bf16 rest").
var expertOnlyFormats = map[string]bool{"mxfp4": true}

// TouchedWeights is the GiB of weights one decode step of b sequences
// reads: all of a dense model's; of a mixture of experts, the shared part
// and the routed experts b tokens reach, each token picking PerToken of
// the experts (expected share 1 − (1 − PerToken/Experts)^b), each part at
// its own bytes where the checkpoint's format covers the experts only
// (ExpertBytes: the shared part is the checkpoint less the routed experts
// at the format's bits), else in proportion to its parameters. Without
// the expert counts, Active ÷ Params × b of the weights, at most all.
func (s *Service) TouchedWeights(b float64) float64 {
	if s.Active >= s.Params {
		return s.WeightsGiB
	}
	if s.Experts <= 0 {
		return s.WeightsGiB * math.Min(1, s.Active/s.Params*b)
	}
	expert := (s.Params - s.Active) / (s.Experts - s.PerToken) // billions per routed expert
	shared := math.Max(0, s.Active-s.PerToken*expert)
	reached := s.Experts * (1 - math.Pow(1-s.PerToken/s.Experts, b))
	if s.ExpertBytes > 0 {
		perExpert := expert * 1e9 * s.ExpertBytes / GiB // GiB
		sharedGiB := math.Max(0, s.WeightsGiB-s.Experts*perExpert)
		return math.Min(s.WeightsGiB, sharedGiB+reached*perExpert)
	}
	return s.WeightsGiB * math.Min(1, (shared+reached*expert)/s.Params)
}
