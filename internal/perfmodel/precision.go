// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

import (
	"slices"
	"strings"
)

// The model workloads: the jobs whose memory and time the models estimate.
// The engine's workloads of the same names are these.
const (
	// WorkloadTraining is training a model from scratch or any full
	// training run: weights, gradients and optimizer states on the GPUs.
	WorkloadTraining = "training"
	// WorkloadFineTuning is fine-tuning an existing model, fully or with
	// adapters (MethodLoRA, MethodQLoRA).
	WorkloadFineTuning = "fine_tuning"
	// WorkloadInference is serving a model: weights plus KV cache.
	WorkloadInference = "inference"
)

// Precisions.
const (
	PrecisionFP32 = "fp32"
	PrecisionTF32 = "tf32"
	PrecisionBF16 = "bf16"
	PrecisionFP16 = "fp16"
	PrecisionFP8  = "fp8"
	// PrecisionFP4 is 4-bit floating-point weights in blocks with a shared
	// scale (NVFP4, MXFP4), which Blackwell GPUs compute natively.
	PrecisionFP4  = "fp4"
	PrecisionINT8 = "int8"
	PrecisionINT4 = "int4"
)

// Fine-tuning methods.
const (
	// MethodFull trains every parameter: weights, gradients, an fp32
	// master copy and Adam's moments for all of them.
	MethodFull = "full"
	// MethodLoRA freezes the base weights at the model's precision and
	// trains low-rank adapters (Hu et al. 2021, arXiv 2106.09685).
	MethodLoRA = "lora"
	// MethodQLoRA freezes a 4-bit NF4 base and trains bf16 adapters with a
	// paged optimizer (Dettmers et al. 2023, arXiv 2305.14314).
	MethodQLoRA = "qlora"
)

// precisions are the precisions in documentation order; Hardware.TFLOPS is
// indexed alike.
var precisions = []string{PrecisionFP32, PrecisionTF32, PrecisionBF16, PrecisionFP16, PrecisionFP8, PrecisionFP4, PrecisionINT8, PrecisionINT4}

// Precisions returns the precisions, in documentation order.
func Precisions() []string { return slices.Clone(precisions) }

// bytesPerParameter is the storage size of one weight at each precision.
// tf32 is a tensor-core compute mode: weights are stored in fp32. fp4 is
// NVFP4's 4.5 bits: 4-bit values with an 8-bit scale per 16 (NVIDIA's
// NVFP4 format; a model table entry keeps its own format's bits, MXFP4's
// 4.25).
var bytesPerParameter = map[string]float64{
	PrecisionFP32: 4,
	PrecisionTF32: 4,
	PrecisionBF16: 2,
	PrecisionFP16: 2,
	PrecisionFP8:  1,
	PrecisionFP4:  4.5 / 8,
	PrecisionINT8: 1,
	PrecisionINT4: 0.5,
}

// BytesPerParameter is the storage of one weight at precision p; ok is
// false for a precision that is not one of Precisions.
func BytesPerParameter(p string) (bytes float64, ok bool) {
	bytes, ok = bytesPerParameter[p]
	return bytes, ok
}

// Quantised reports whether weights at precision p are a storage format
// training cannot update (int8, int4, fp4): only adapters train on them.
func Quantised(p string) bool {
	return p == PrecisionINT8 || p == PrecisionINT4 || p == PrecisionFP4
}

// precisionBit is p's bit in Hardware.Precisions; 0 for an unknown one.
func precisionBit(p string) uint16 {
	for i, x := range precisions {
		if x == p {
			return 1 << uint(i)
		}
	}
	return 0
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

// NativePrecision reports whether the GPU runs a served model's precision
// natively (every precision on a CPU size). Integer weights (int8, int4)
// are usually dequantized to fp16 or bf16 by weight-only kernels, so fp16
// support is enough for them.
func (h *Hardware) NativePrecision(precision string) bool {
	if !h.IsGPU {
		return true
	}
	if h.Precisions&precisionBit(precision) != 0 {
		return true
	}
	switch precision {
	case PrecisionFP32:
		return true
	case PrecisionINT8, PrecisionINT4:
		return h.Precisions&(precisionBit(PrecisionFP16)|precisionBit(PrecisionBF16)) != 0
	}
	return false
}

// RunsTraining reports whether the GPU runs a training job's compute
// precision natively ("" is bf16 or fp16).
func (h *Hardware) RunsTraining(compute string) bool {
	if !h.IsGPU {
		return true
	}
	if compute == "" {
		return h.Precisions&(precisionBit(PrecisionBF16)|precisionBit(PrecisionFP16)) != 0
	}
	if compute == PrecisionFP32 {
		return true
	}
	return h.Precisions&precisionBit(compute) != 0
}

// ClosestPrecision is the precision closest to compute that the GPU runs
// natively.
func (h *Hardware) ClosestPrecision(compute string) string {
	for _, p := range closerPrecisions[compute] {
		if h.RunsTraining(p) {
			return p
		}
	}
	return PrecisionFP32
}

// weightOnlyMinCC is the NVIDIA compute capability (× 10) the serving
// engines' weight-only kernels need for weights at a precision the GPU does
// not compute natively, after vLLM's table of quantization kernels by
// architecture (docs.vllm.ai, Quantization, "Supported Hardware", v0.15):
// fp8 and fp4 (MXFP4, NVFP4) weights dequantise in the Marlin kernels,
// Ampere (8.0) and newer, which is also vLLM's MXFP4 backend for GPUs
// without FP4 (vllm/model_executor/layers/quantization/mxfp4.py); int8
// needs INT8 (W8A8), from INT8W8A8MinCC (Turing); int4 GPTQ, Volta (7.0)
// and newer.
var weightOnlyMinCC = map[string]int{
	PrecisionFP8:  80,
	PrecisionFP4:  80,
	PrecisionINT8: INT8W8A8MinCC,
	PrecisionINT4: 70,
}

// INT8W8A8MinCC and INT8W8A8EndCC bound the NVIDIA compute capabilities
// (× 10) vLLM's INT8 W8A8 kernels run on: from INT8W8A8MinCC (Turing, 7.5)
// up to, not including, INT8W8A8EndCC (Blackwell, 10.0), after vLLM's
// "INT8 W8A8" page (https://docs.vllm.ai/en/latest/features/quantization/int8/,
// vllm-project/vllm:docs/features/quantization/int8.md): INT8 computation
// is supported on compute capability 7.5 and up (Turing, Ampere, Ada
// Lovelace, Hopper), and not on 10.0 and later. The one home of the
// window: GEMMPrecision (int8 computed W8A8), RunsWeights (int8 weights
// served at all, weightOnlyMinCC) and, through the engine, the
// deployment's vLLM arguments (none for int8 outside it) read it.
const (
	INT8W8A8MinCC = 75
	INT8W8A8EndCC = 100
)

// INT8W8A8 reports whether vLLM's INT8 W8A8 kernels run on an NVIDIA GPU
// of compute capability cc (× 10): INT8W8A8MinCC <= cc < INT8W8A8EndCC.
func INT8W8A8(cc int) bool { return cc >= INT8W8A8MinCC && cc < INT8W8A8EndCC }

// RunsWeights reports whether the serving engines run weights at
// precision p on the GPU: natively, or weight-only where their kernels
// support the GPU (weightOnlyMinCC for NVIDIA; on AMD GPUs, fp8 and fp4
// weights where the GPU computes fp8 natively, as vLLM's FP8 kernels and
// its MXFP4 path on the MI300X need, and no int8 or int4 kernels, which
// vLLM's table gives for no AMD GPU). 16- and 32-bit weights everywhere,
// every precision on a CPU size. NVIDIA GPUs below INT8W8A8MinCC run no
// int8 weights, whatever their own INT8 rate (Pascal's): the engines' INT8
// kernels start there.
func (h *Hardware) RunsWeights(p string) bool {
	if h.IsGPU && !h.AMD && p == PrecisionINT8 && h.CC < INT8W8A8MinCC {
		return false
	}
	if !h.IsGPU || h.Precisions&precisionBit(p) != 0 {
		return true
	}
	least, ok := weightOnlyMinCC[p]
	switch {
	case !ok:
		// 16- and 32-bit weights: the engines cast bf16 to fp16 on GPUs
		// without it (vLLM's dtype "auto").
		return true
	case h.AMD:
		return (p == PrecisionFP8 || p == PrecisionFP4) && h.Precisions&precisionBit(PrecisionFP8) != 0
	}
	return h.CC >= least
}

// servingAlternatives lists, per weight precision, the precisions to serve
// in instead where the engines run no kernel for it, smallest first.
var servingAlternatives = map[string][]string{
	PrecisionFP4:  {PrecisionINT4, PrecisionFP8, PrecisionINT8, PrecisionFP16, PrecisionBF16},
	PrecisionFP8:  {PrecisionINT8, PrecisionFP16, PrecisionBF16},
	PrecisionINT8: {PrecisionFP16, PrecisionBF16},
	PrecisionINT4: {PrecisionINT8, PrecisionFP16, PrecisionBF16},
}

// ClosestServing is the precision nearest p, smallest first, whose weights
// the engines run on the GPU (RunsWeights).
func (h *Hardware) ClosestServing(p string) string {
	for _, q := range servingAlternatives[p] {
		if h.RunsWeights(q) {
			return q
		}
	}
	return PrecisionFP32
}

// GEMMPrecision is the precision a served model's weight matrix products
// compute in on the GPU, for weights stored at precision p in the published
// format format (the model table's precision as published, "mxfp4" or
// "nvfp4"; "" for weights not from a published checkpoint); "" is 16-bit
// arithmetic (bf16 or fp16). Attention's score and value products compute
// at AttentionPrecision.
//   - fp8: W8A8 where the GPU computes fp8 (vLLM's FP8 W8A8 on Ada, Hopper,
//     Blackwell and the MI300X, docs.vllm.ai "FP8 W8A8"; TensorRT-LLM's
//     FP8), else weight-only (FP8 Marlin, W8A16).
//   - fp4: W4A4 where the GPU computes fp4 (NVFP4 on Blackwell in
//     TensorRT-LLM and vLLM). MXFP4 keeps bf16 activations everywhere: vLLM's
//     Mxfp4Config.get_supported_act_dtypes is [torch.bfloat16] and its
//     default Blackwell backend SM100_FI_MXFP4_BF16
//     (vllm-project/vllm:vllm/model_executor/layers/quantization/mxfp4.py@007d50058a06dec0f82472d63c819244d460c40d).
//   - int8: W8A8 on NVIDIA GPUs in vLLM's INT8 W8A8 window (INT8W8A8:
//     Turing to Hopper, not Blackwell; its table gives no AMD GPU) with an
//     INT8 rate, else weight-only.
//   - int4: weight-only (GPTQ, AWQ, Marlin: W4A16).
func (h *Hardware) GEMMPrecision(p, format string) string {
	switch p {
	case PrecisionFP8:
		if h.Precisions&precisionBit(PrecisionFP8) != 0 {
			return p
		}
	case PrecisionFP4:
		if !strings.EqualFold(format, "mxfp4") && h.Precisions&precisionBit(PrecisionFP4) != 0 {
			return p
		}
	case PrecisionINT8:
		if !h.AMD && INT8W8A8(h.CC) && h.TFLOPS[6] > 0 {
			return p
		}
	case PrecisionINT4:
	default:
		return p
	}
	return ""
}

// AttentionPrecision is the precision a served model's attention (its
// score and value products) computes in on the GPU, for weights stored at
// p in the published format format: the weights' own (GEMMPrecision) where
// that is 32-bit (fp32, tf32: a model served in fp32 keeps its activations,
// and so its queries, keys and values, in fp32), else 16 bits (""), beside
// quantised weights as beside bf16 or fp16 ones, in vLLM, SGLang and
// TensorRT-LLM alike.
func (h *Hardware) AttentionPrecision(p, format string) string {
	switch g := h.GEMMPrecision(p, format); g {
	case PrecisionFP32, PrecisionTF32:
		return g
	}
	return ""
}

// GEMMTFLOPS is one whole GPU's dense TFLOPS for a served model's weight
// matrix products (GEMMPrecision); AttentionTFLOPS those of its attention
// (AttentionPrecision).
func (h *Hardware) GEMMTFLOPS(p, format string) float64 {
	return h.PeakTFLOPS(h.GEMMPrecision(p, format))
}

// AttentionTFLOPS: see GEMMTFLOPS.
func (h *Hardware) AttentionTFLOPS(p, format string) float64 {
	return h.PeakTFLOPS(h.AttentionPrecision(p, format))
}

// WeightOnly reports whether a GPU serves weights at precision p (in the
// published format format, as GEMMPrecision reads it) weight-only: stored
// at p, dequantised to bf16 or fp16 for the arithmetic (GEMMPrecision).
func (h *Hardware) WeightOnly(p, format string) bool {
	switch p {
	case PrecisionFP8, PrecisionFP4, PrecisionINT8, PrecisionINT4:
		return h.GEMMPrecision(p, format) == ""
	}
	return false
}
