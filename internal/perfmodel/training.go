// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the training model: the FLOPs of a training or
// fine-tuning job, and how fast a layout of VMs computes them.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

const (
	// TrainingFLOPsPerToken is the model FLOPs of one training token per
	// active parameter: 2 forward and 4 backward (Kaplan et al. 2020,
	// arXiv 2001.08361; EleutherAI's Transformer Math 101). Where the
	// architecture is known the attention term 6 × layers × context ×
	// hidden is added per token (Kaplan et al. Table 1: 2 n_layer n_ctx
	// d_attn forward). LoRAFLOPsPerToken is the same for LoRA and QLoRA:
	// the frozen weights need no weight gradients, so the backward pass is
	// half of full training's (2 forward + 2 backward).
	TrainingFLOPsPerToken = 6
	LoRAFLOPsPerToken     = 4

	// TrainingMFU is the model FLOPs utilization of training on NVIDIA
	// data-center GPUs (V100, A100, H100, H200, GB200, GB300) on NVLink
	// inside a VM and InfiniBand across VMs: 40%, the middle of the Llama 3
	// paper's 38% to 43% on 16,384 H100s in bf16 (Dubey et al. 2024, arXiv
	// 2407.21783, Table 4) and Megatron-LM's 41.5% to 56% on A100s
	// (Korthikanti et al. 2022, Table 5, at 22B to 1T). OtherTrainingMFU
	// is the same for the other GPUs (the AMD MI300X, whose training
	// stacks publish less; inference and graphics GPUs): 30%, a judgement.
	// Each GPU's figure is catalog data (training_mfu in performance.json,
	// decision D48); OtherTrainingMFU applies to a GPU the catalog gives
	// none.
	TrainingMFU      = 0.40
	OtherTrainingMFU = 0.30

	// PCIeTrainingFactor scales MFU on several GPUs of a VM without NVLink
	// (gradient all-reduce over PCIe); PartialGPUTrainingFactor on a
	// share of a GPU (vGPU scheduling); EthernetTrainingFactor across VMs
	// without InfiniBand (interconnect = "any"). Judgements, after the
	// Azure HPC guidance that InfiniBand is what multi-VM training needs.
	PCIeTrainingFactor       = 0.8
	PartialGPUTrainingFactor = 0.8
	EthernetTrainingFactor   = 0.5

	// SampleTrainingFactor is a training step's FLOPs per sample over its
	// forward pass: the backward pass computes gradients of the
	// activations and of the weights, each as much as the forward (2 + 4
	// per parameter and token in Kaplan et al. 2020, the ratio every
	// layer type shares). LoRASampleFactor is the same for LoRA: no
	// weight gradients of the frozen network.
	SampleTrainingFactor = 3
	LoRASampleFactor     = 2

	// FP8TrainingSpeedup is how much faster fp8 training runs than bf16
	// on the same GPUs: 1.5, PyTorch's measurement pretraining Llama3-70B
	// on 128 H100s with torchao's float8 compute and float8 all-gather in
	// FSDP2 ("We observed 1.50x speedup with float8 compared with
	// bfloat16", https://dev-discuss.pytorch.org/t/enabling-float8-all-gather-in-fsdp2/2359;
	// torchao's pretraining tutorial gives up to 1.5x on 512 GPUs and
	// 1.34x to 1.43x on 2,000 H200s with the rowwise recipe,
	// https://docs.pytorch.org/ao/stable/pretraining.html). The fp8 dense
	// peak is twice bf16's, but only the linear layers' matrix products run
	// in fp8: attention, normalisation, the optimizer and the casts and
	// scales stay in bf16 or fp32. TrainingTFLOPS applies it.
	FP8TrainingSpeedup = 1.5
)

// TrainingTFLOPS is the dense TFLOPS one GPU trains at, at compute
// precision p, which the training MFU multiplies: the GPU's peak at p,
// but for fp8 the 16-bit peak × FP8TrainingSpeedup (at most the fp8
// peak), since fp8 training computes only its linear layers in fp8.
func (h *Hardware) TrainingTFLOPS(p string) float64 {
	peak := h.PeakTFLOPS(p)
	if p == PrecisionFP8 {
		return math.Min(peak, h.PeakTFLOPS("")*FP8TrainingSpeedup)
	}
	return peak
}

// SampleKindMFU is the training MFU of the kinds timed by samples
// (catalog.SampleKinds, each of which it lists) on a
// GPU the catalog gives no training_mfu_by_kind figure for, at
// TrainingMFU (scaled by the GPU's training_mfu ÷ TrainingMFU). Vision
// and diffusion are the medians of the MFUs the fitted rows of the
// published runs imply (internal/recommend/internal/samplebench: 0.20 over
// 13 vision rows on V100, A100 and H100; 0.31 over three Stable Diffusion
// rows on H100). Speech has no such row: it takes the vision
// figure, a judgement (Whisper is a transformer over a fixed 1,500
// positions, as ViT is over its patches).
var SampleKindMFU = map[string]float64{
	catalog.ModelKindVision:    0.20,
	catalog.ModelKindDiffusion: 0.31,
	catalog.ModelKindSpeech:    0.20,
}

// ComputePrecision is the precision the GPUs must run natively for a
// training or fine-tuning job: the model's for full training; for LoRA the
// base's, unless it is quantised (fp8, int8, int4), whose adapters compute
// in bf16 or fp16 (either will do, "" here); QLoRA always computes in bf16
// or fp16.
func ComputePrecision(precision, method string) string {
	if method == MethodQLoRA {
		return ""
	}
	if method == MethodLoRA {
		if precision == PrecisionFP8 || Quantised(precision) {
			return ""
		}
	}
	return precision
}

// TrainingWork is the work of a training or fine-tuning job of a language
// model, with what decides how fast a layout computes it.
type TrainingWork struct {
	ComputePrec    string  // the precision the GPUs must run ("" bf16 or fp16)
	FLOPs, TokensB float64 // the work; 0 when the model does not time the job
	// Kind is the model kind whose MFU the GPUs keep (Hardware.MFUFor):
	// a kind timed by samples, else "" (a language model's TrainMFU).
	// SamplesM is a job timed by samples: its samples, in millions;
	// PerSample the FLOPs of one (Factor × Forward + Frozen, GFLOPs).
	Kind                string
	SamplesM, PerSample float64
	Forward, Frozen     float64
	// FLOPs per token: Factor × (Active parameters + Layers × Context ×
	// Width), the attention term only where the architecture is known.
	Factor                 float64
	Active                 float64 // billions
	Layers, Context, Width int64
	// Deadline is the hours the job should finish in, which decides
	// whether a job that fits one GPU uses only it; GPUs the gpus setting
	// (0: none), GPUMemNeed the job's GPU memory, GiB, and MemShare the
	// share of a GPU's usable memory it may fill (GPUJob.Share).
	Deadline   float64
	GPUs       int64
	GPUMemNeed float64
	MemShare   float64
	Ethernet   bool // one job's VMs talk without InfiniBand
}

// LanguageModelWork is the work of training or fine-tuning a language
// model on tokensB billion tokens with method (full, lora or qlora): its
// FLOPs per token from the active parameters and, where the model table
// knows the architecture, the attention over the context.
func LanguageModelWork(mi *MemoryInput, tokensB float64) TrainingWork {
	t := TrainingWork{TokensB: tokensB, Factor: float64(TrainingFLOPsPerToken), Active: mi.Active}
	if mi.Method == MethodLoRA || mi.Method == MethodQLoRA {
		t.Factor = LoRAFLOPsPerToken
	}
	perToken := t.Factor * mi.Active * 1e9
	if m := mi.Model; m != nil && m.Layers != nil {
		switch {
		case m.AttentionHeads != nil && m.HeadDim != nil:
			t.Width = *m.AttentionHeads * *m.HeadDim
		case m.HiddenSize != nil:
			t.Width = *m.HiddenSize
		}
		if t.Width > 0 {
			t.Layers, t.Context = *m.Layers, mi.Context
			perToken += t.Factor * float64(t.Layers) * float64(t.Context) * float64(t.Width)
		}
	}
	t.FLOPs = perToken * t.TokensB * 1e9
	return t
}

// SampleWork is the work of training or fine-tuning a vision, diffusion
// or speech model (kind; "" an unknown non-generative model, which takes
// the vision figure) with method on samplesM million samples of forward
// GFLOPs each, with frozen GFLOPs of frozen encoders per sample: per
// sample SampleTrainingFactor (LoRASampleFactor) × forward + frozen.
func SampleWork(kind, method string, forward, frozen, samplesM float64) TrainingWork {
	if kind == "" {
		kind = catalog.ModelKindVision
	}
	t := TrainingWork{Kind: kind, SamplesM: samplesM, Forward: forward, Frozen: frozen, Factor: SampleTrainingFactor}
	if method == MethodLoRA || method == MethodQLoRA {
		t.Factor = LoRASampleFactor
	}
	t.PerSample = t.Factor*forward + frozen
	t.FLOPs = t.PerSample * 1e9 * samplesM * 1e6
	return t
}

// MFU is the model FLOPs utilization of a training layout on nodes VMs;
// ethernet when they talk without InfiniBand. A job on one GPU of a VM
// pays no PCIe all-reduce.
func (t *TrainingWork) MFU(h *Hardware, nodes int64, ethernet bool) float64 {
	return t.trainingMFU(h, nodes, ethernet, t.UsesOneGPU(h, nodes))
}

func (t *TrainingWork) trainingMFU(h *Hardware, nodes int64, ethernet, oneGPU bool) float64 {
	m := h.MFUFor(t.Kind)
	if h.GPUCount < 1 {
		m *= PartialGPUTrainingFactor
	}
	if h.GPUUnits > 1 && !h.Linked && !oneGPU {
		m *= PCIeTrainingFactor
	}
	if nodes > 1 && ethernet {
		m *= EthernetTrainingFactor
	}
	return m
}

// UsesOneGPU reports whether a timed training job on a multi-GPU size
// uses one of its GPUs: only where one GPU computes it faster than all of
// them. The whole VM is paid for either way, so the job costs its price
// × hours, and all its GPUs finish it sooner for less even without
// NVLink (GPUs × PCIeTrainingFactor > 1): a small job that fits one GPU
// still trains on every GPU of the VM it pays for. What job sizing asks
// ("Compute for Machine Learning on HPC": small jobs do not take
// advantage of larger sizes and leave GPUs idle) is answered by the
// ranking (OneGPUSuffices).
func (t *TrainingWork) UsesOneGPU(h *Hardware, nodes int64) bool {
	if !t.fitsOneGPU(h, nodes) || t.FLOPs <= 0 {
		return false
	}
	return t.rate(h, nodes, true) > t.rate(h, nodes, false)
}

// OneGPUSuffices reports whether a timed training job is small for a
// multi-GPU size: it runs on one VM without a gpus setting, its memory
// fits one GPU, and one GPU would finish it within the deadline (Job
// sizing in "Compute for Machine Learning on HPC": small jobs do not take
// advantage of larger sizes). It still trains on every GPU of the VM it
// pays for (UsesOneGPU); the ranking takes the idle-GPU penalty off such a
// size, since a one-GPU size would serve the job and data parallelism is
// what the others add.
func (t *TrainingWork) OneGPUSuffices(h *Hardware, nodes int64) bool {
	if !t.fitsOneGPU(h, nodes) || t.FLOPs <= 0 {
		return false
	}
	peak := h.TrainingTFLOPS(t.ComputePrec) * 1e12
	mfu := h.MFUFor(t.Kind)
	return peak > 0 && t.FLOPs/(peak*mfu)/3600 <= t.Deadline
}

// fitsOneGPU reports whether the job could run on one GPU of a multi-GPU
// size: one VM, no gpus setting above 1, and memory one GPU holds within
// the share the job may fill (MemShare; 0 reads as 1).
func (t *TrainingWork) fitsOneGPU(h *Hardware, nodes int64) bool {
	share := t.MemShare
	if share <= 0 {
		share = 1
	}
	return nodes == 1 && t.GPUs <= 1 && h.GPUCount > 1 && t.GPUMemNeed > 0 && t.GPUMemNeed <= h.UnitMemGiB*share+1e-9
}

// ProxyRate is the FLOP/s an untimed job (no work to time) is compared
// on: the layout's rate, or one GPU's where the job fits one GPU of a
// multi-GPU VM, since without its work nothing shows that more GPUs pay
// off (UsesOneGPU).
func (t *TrainingWork) ProxyRate(h *Hardware, nodes int64) float64 {
	return t.rate(h, nodes, t.fitsOneGPU(h, nodes))
}

// GPUsUsed is the GPUs per VM a training job uses on nodes VMs.
func (t *TrainingWork) GPUsUsed(h *Hardware, nodes int64) float64 {
	if t.UsesOneGPU(h, nodes) {
		return 1
	}
	return h.GPUCount
}

// Rate is the FLOP/s of a training layout on nodes VMs.
func (t *TrainingWork) Rate(h *Hardware, nodes int64) float64 {
	return t.rate(h, nodes, t.UsesOneGPU(h, nodes))
}

// rate is the FLOP/s of nodes VMs of the size, on one GPU of the VM where
// one is set.
func (t *TrainingWork) rate(h *Hardware, nodes int64, one bool) float64 {
	gpus := h.GPUCount
	if one {
		gpus = 1
	}
	return float64(nodes) * gpus * h.TrainingTFLOPS(t.ComputePrec) * 1e12 * t.trainingMFU(h, nodes, t.Ethernet, one)
}

// Hours is the wall time of the job on nodes VMs of the size, and whether
// the model times it: false when the job has no work or the catalog gives
// no rate for the size (no GPU count, or no throughput at the precision),
// so that a rate of 0 never reads as a job of 0 hours.
func (t *TrainingWork) Hours(h *Hardware, nodes int64) (float64, bool) {
	r := t.Rate(h, nodes)
	if r <= 0 || t.FLOPs <= 0 {
		return 0, false
	}
	return t.FLOPs / r / 3600, true
}

// MeetsDeadline reports whether the model times the job on nodes VMs of
// the size and it finishes within the deadline.
func (t *TrainingWork) MeetsDeadline(h *Hardware, nodes int64) bool {
	hours, ok := t.Hours(h, nodes)
	return ok && hours <= t.Deadline
}

// DeadlineNodes is the fewest VMs of the size that finish the job within
// the deadline, at least nodes; nodes when the model cannot time the job.
func (t *TrainingWork) DeadlineNodes(h *Hardware, nodes int64) int64 {
	hours, ok := t.Hours(h, nodes)
	if !ok || hours <= t.Deadline {
		return nodes
	}
	perVM := t.Rate(h, 2) / 2
	return max(nodes, int64(math.Ceil(t.FLOPs/(t.Deadline*3600*perVM)-1e-9)))
}

// TrainingRun is full training on nodes VMs of a size as the model times
// it: the FLOPs, the MFU, the rate and the wall time.
type TrainingRun struct {
	FLOPs, MFU, Rate, Hours, PeakTFLOPS float64
}

// TimeTraining times full training of activeB billion active parameters
// on tokensB billion tokens (TrainingFLOPsPerToken per active parameter
// per token) on nodes VMs of the size at precision; the VMs talk over
// InfiniBand when the size has it (ethernet false), else over Ethernet.
// It reports false when the model cannot time the run (Hours).
func TimeTraining(h *Hardware, activeB, tokensB float64, nodes int64, precision string, ethernet bool) (TrainingRun, bool) {
	t := TrainingWork{ComputePrec: precision, Ethernet: ethernet,
		FLOPs: TrainingFLOPsPerToken * activeB * 1e9 * tokensB * 1e9}
	hours, ok := t.Hours(h, nodes)
	return TrainingRun{FLOPs: t.FLOPs, MFU: t.MFU(h, nodes, ethernet), Rate: t.Rate(h, nodes),
		Hours: hours, PeakTFLOPS: h.TrainingTFLOPS(precision)}, ok
}
