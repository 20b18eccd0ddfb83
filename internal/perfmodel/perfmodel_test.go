// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// hardware is the embedded catalog's size, as the models read it.
func hardware(t *testing.T, name string) *Hardware {
	t.Helper()
	h := HardwareOf(catalogtest.Lookup(t, catalogtest.Embedded(t), name))
	return &h
}

// model is the embedded catalog's model table entry.
func model(t *testing.T, id string) *catalog.Model {
	t.Helper()
	m, _, ok := catalogtest.Embedded(t).ResolveModel(id)
	if !ok {
		t.Fatalf("no model %s", id)
	}
	return m
}

// servedAs is the service of mi at precision, its KV cache from the memory
// model and weightsGiB of weights.
func servedAs(mi *MemoryInput, precision string, weightsGiB float64) Service {
	s := ServiceOf(mi, precision, KVCacheOf(mi).PerSeq/GiB)
	s.HasMemory, s.WeightsGiB = true, weightsGiB
	return s
}

// A precision the GPU lacks computes in bf16 or fp16; fp32 has no such
// fallback, and no figure is 0.
func TestPeakTFLOPSFallsBackToHalfPrecision(t *testing.T) {
	h := Hardware{IsGPU: true, Precisions: precisionBit(PrecisionBF16) | precisionBit(PrecisionFP16)}
	h.TFLOPS[2], h.TFLOPS[3] = 312, 300
	for p, want := range map[string]float64{"": 312, PrecisionBF16: 312, PrecisionFP16: 300, PrecisionFP8: 312, PrecisionINT4: 312, PrecisionFP32: 0} {
		if got := h.PeakTFLOPS(p); got != want {
			t.Errorf("%q: %v TFLOPS, want %v", p, got, want)
		}
	}
	if !h.WeightOnly(PrecisionFP8, "") || h.WeightOnly(PrecisionBF16, "") || !h.WeightOnly(PrecisionINT8, "") {
		t.Error("fp8 and int8 weights on a bf16 GPU run weight-only; bf16 does not")
	}
	if h.ClosestPrecision(PrecisionFP8) != PrecisionBF16 || h.RunsTraining(PrecisionFP8) {
		t.Error("a GPU without fp8 trains an fp8 job in bf16")
	}
}

// Full training of a 7B model in bf16 keeps 16 bytes of states per
// parameter (the ZeRO paper's figure) and half as much again of
// activations; inference holds the weights, a workspace and the KV cache.
func TestMemoryModelStates(t *testing.T) {
	train := EstimateMemory(&MemoryInput{Params: 7, Active: 7, Precision: PrecisionBF16, BPP: 2, Workload: WorkloadTraining,
		Method: MethodFull, Kind: catalog.ModelKindGenerative, Context: 4096, Batch: 1})
	// 0.25 bytes per parameter per 4,096 tokens of checkpointed activations
	// without the architecture, one sequence of 4,096 tokens.
	if train.StateBytesPerParameter != 16 || train.GiB != ToGiB(7e9*16+7e9*LoRAActivationBytesPerParameter) {
		t.Errorf("training: %v bytes per parameter, %v GiB", train.StateBytesPerParameter, train.GiB)
	}
	mi := MemoryInput{Params: 8.03, Active: 8.03, Precision: PrecisionBF16, BPP: 2, Workload: WorkloadInference,
		Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-8b"), Context: 8192, Seqs: 32}
	inf := EstimateMemory(&mi)
	kv := KVCacheOf(&mi)
	// Llama 3.1 8B: 2 × 32 layers × 8 KV heads × 128 × 2 bytes = 128 KiB per token.
	if kv.PerSeq != 131072*8192 || kv.Split != 8 || inf.KVCacheGiB != ToGiB(kv.PerSeq*32) {
		t.Errorf("KV cache %v bytes per sequence (split %d), %v GiB in all", kv.PerSeq, kv.Split, inf.KVCacheGiB)
	}
	if want := ToGiB(8.03e9*2*(1+InferenceWorkspaceFraction) + kv.PerSeq*32); inf.GiB != want {
		t.Errorf("inference %v GiB, want %v", inf.GiB, want)
	}
}

// A size the model has no rate for is not timed, never a job of 0 hours:
// the GPU counts of Standard_NV16ahs_v4 and Standard_NV12hs_v3 are unknown
// (only retirement pages name them).
func TestTrainingWithoutARateIsNotTimed(t *testing.T) {
	w := TrainingWork{ComputePrec: PrecisionFP16, FLOPs: TrainingFLOPsPerToken * 7e9 * 1e11, Deadline: 720}
	for _, c := range []struct{ size, precision string }{{"Standard_NV16ahs_v4", PrecisionFP16}, {"Standard_NV12hs_v3", PrecisionFP32}} {
		h := hardware(t, c.size)
		w.ComputePrec = c.precision
		if hours, ok := w.Hours(h, 1); ok || w.MeetsDeadline(h, 1) {
			t.Errorf("%s at %s: timed at %v hours, want not timed", c.size, c.precision, hours)
		}
		if run, ok := TimeTraining(h, 7, 100, 1, c.precision, true); ok {
			t.Errorf("%s at %s: TimeTraining %+v, want not timed", c.size, c.precision, run)
		}
	}
}

// More VMs finish a training job sooner, and the VMs a deadline takes meet
// it; a job that one GPU of a multi-GPU VM holds and finishes within the
// deadline (OneGPUSuffices) still trains on every GPU the VM pays for.
func TestTrainingScalesOut(t *testing.T) {
	h := hardware(t, "Standard_ND96isr_H100_v5")
	w := TrainingWork{ComputePrec: PrecisionBF16, FLOPs: TrainingFLOPsPerToken * 7e9 * 2e12, Deadline: 200}
	one, _ := w.Hours(h, 1)
	two, _ := w.Hours(h, 2)
	if !(two < one) || math.Abs(one/two-2) > 1e-9 {
		t.Errorf("1 VM %v hours, 2 VMs %v: InfiniBand scales linearly", one, two)
	}
	k := w.DeadlineNodes(h, 1)
	if !w.MeetsDeadline(h, k) || (k > 1 && w.MeetsDeadline(h, k-1)) {
		t.Errorf("%d VMs for a %v-hour deadline", k, w.Deadline)
	}
	small := TrainingWork{ComputePrec: PrecisionBF16, FLOPs: 1e18, Deadline: 720, GPUMemNeed: 20}
	if small.UsesOneGPU(h, 1) || small.GPUsUsed(h, 1) != 8 || !small.OneGPUSuffices(h, 1) || small.OneGPUSuffices(h, 2) {
		t.Error("a small job on one VM trains on its 8 GPUs, and one of them would suffice")
	}
}

// A copy decoding more sequences together serves more tokens per second
// and each sequence slower; a request's first token waits for its prefill
// and a decode step; a tensor-parallel split waits for its all-reduces,
// their latency and, growing with the batch, their activations.
func TestServingStepModel(t *testing.T) {
	h := hardware(t, "Standard_ND96isr_H100_v5")
	mi := MemoryInput{Params: 70.6, Active: 70.6, Precision: PrecisionBF16, BPP: 2, Workload: WorkloadInference,
		Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-70b"), Context: 4096, Prompt: 3584, Output: 512}
	s := servedAs(&mi, PrecisionBF16, 70.6*2e9/GiB)
	prev := CopySpeed{}
	for _, b := range []float64{1, 8, 64, 256} {
		c := s.Speed(h, 8, 1, b)
		latency := 2 * 80 * AllReduceSeconds * 3 // two per layer, log2(8) steps each
		if c.TPS <= prev.TPS || c.TPOT < prev.TPOT || c.TTFT < c.Prefill || c.AllReduce <= latency || c.AllReduce <= prev.AllReduce {
			t.Errorf("batch %g: %+v after %+v", b, c, prev)
		}
		prev = c
	}
	if c := s.Speed(h, 8, 1, 0); c.TPS != 0 {
		t.Errorf("an empty batch is not timed: %+v", c)
	}
}

// Pipeline stages across VMs run their micro-batches in turn: one sequence
// still waits for every stage's share of the weights, so a token takes no
// less than reading all of them at one stage's bandwidth (at InferenceMBU),
// and a prompt
// passes through the stages one after another; at a large batch the stages
// work together, so two stages give more tokens per second than one stage
// of the same GPUs could hold. Llama 3.1 405B in bf16 over two ND A100 v4
// VMs.
func TestServingPipelineStages(t *testing.T) {
	h := hardware(t, "Standard_ND96amsr_A100_v4")
	mi := MemoryInput{Params: 405.85, Active: 405.85, Precision: PrecisionBF16, BPP: 2, Workload: WorkloadInference,
		Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-405b"), Context: 1200, Prompt: 1000, Output: 200}
	s := servedAs(&mi, PrecisionBF16, 405.85*2e9/GiB)
	one := s.Speed(h, 8, 2, 1)
	read := s.WeightsGiB * GiB / (8 * h.HBMGBs * 1e9 * InferenceMBU) // all the weights at one stage's bandwidth
	if one.TPOT < read {
		t.Errorf("one sequence over two stages: %v s a token, below the %v s of reading the weights", one.TPOT, read)
	}
	if prefill := one.Prefill - one.PrefillMove; one.TTFT < 2*prefill {
		t.Errorf("first token %v s, below two stages' prefill in turn (2 × %v s)", one.TTFT, prefill)
	}
	if many := s.Speed(h, 8, 2, 256); many.TPS < 1.5*s.Speed(h, 8, 1, 256).TPS {
		t.Errorf("256 sequences: %v tokens per second over two stages, against %v on one stage's GPUs", many.TPS, s.Speed(h, 8, 1, 256).TPS)
	}
}

// A mixture of experts' decode step routes its tokens in every layer, a
// fixed cost a dense model's step does not pay: at one sequence it is
// most of the step beyond the touched weights, and at a large batch a
// small part of it.
func TestServingStepRoutesExperts(t *testing.T) {
	h := hardware(t, "Standard_ND96isr_H200_v5")
	m := model(t, "gpt-oss-120b")
	mi := MemoryInput{Params: 117, Active: 5.1, Precision: PrecisionFP4, Workload: WorkloadInference,
		Kind: catalog.ModelKindMoE, Model: m, Context: 2048, Prompt: 1024, Output: 1024}
	s := servedAs(&mi, PrecisionFP4, 60.8)
	want := float64(*m.Layers) * ExpertLayerSeconds
	one, many := s.Speed(h, 1, 1, 1), s.Speed(h, 1, 1, 256)
	if one.Routing != want || many.Routing != want || one.Routing < one.Memory || many.Routing > (many.Memory+many.Compute)/10 {
		t.Errorf("routing %v s a step (want %v): at 1 %+v, at 256 %+v", one.Routing, want, one, many)
	}
	dense := ServiceOf(&MemoryInput{Params: 8, Active: 8, Precision: PrecisionBF16, Workload: WorkloadInference,
		Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-8b"), Context: 2048, Prompt: 1024, Output: 1024}, PrecisionBF16, 0.25)
	dense.HasMemory, dense.WeightsGiB = true, 15
	if c := dense.Speed(h, 1, 1, 1); c.Routing != 0 || c.TPS <= 0 {
		t.Errorf("a dense model routes no tokens: %+v", c)
	}
}

// The parallel-efficiency curve: 1 on one VM, 0.98 on two (the published
// median), scaled through a measured efficiency; htc's independent tasks
// lose nothing.
func TestHPCEfficiency(t *testing.T) {
	if ScalingEfficiency(1) != 1 || math.Abs(ScalingEfficiency(2)-0.98) > 0.005 {
		t.Errorf("curve: %v, %v", ScalingEfficiency(1), ScalingEfficiency(2))
	}
	j := HPCJob{Bound: BoundMemoryBandwidth, Coupled: true, Measured: 1.2, MeasuredAt: 4}
	if got, want := j.Efficiency(16), 1.2*ScalingEfficiency(16)/ScalingEfficiency(4); math.Abs(got-want) > 1e-12 {
		t.Errorf("scaled curve %v, want %v", got, want)
	}
	if htc := (HPCJob{Bound: BoundCompute}); htc.Efficiency(50) != 1 {
		t.Errorf("htc %v", htc.Efficiency(50))
	}
	h := hardware(t, "Standard_HB120rs_v3")
	full, quarter := VMRate(h, BoundMemoryBandwidth, 120), VMRate(h, BoundMemoryBandwidth, 30)
	if !(quarter < full && quarter > full/4 && full <= h.StreamGBs) {
		t.Errorf("a quarter of the cores draws %v of %v GB/s (STREAM %v)", quarter, full, h.StreamGBs)
	}
}

// A vision job keeps the catalog's figure for its GPU where there is one
// (the H100's, from the fitted runs), and on a GPU without one the kind's
// figure scaled by the GPU's training MFU (the RTX PRO 6000 at 0.30 of the
// 0.40 data-center figure); a language model keeps the GPU's training MFU.
func TestKindMFU(t *testing.T) {
	h100, rtx := hardware(t, "Standard_ND96isr_H100_v5"), hardware(t, "Standard_NC288ds_xl_RTXPRO6000BSE_v6")
	if got := h100.MFUFor(catalog.ModelKindVision); got != 0.18 {
		t.Errorf("H100 vision MFU %v, want the catalog's 0.18", got)
	}
	if got, want := rtx.MFUFor(catalog.ModelKindDiffusion), SampleKindMFU[catalog.ModelKindDiffusion]*0.30/TrainingMFU; math.Abs(got-want) > 1e-12 {
		t.Errorf("RTX PRO diffusion MFU %v, want %v", got, want)
	}
	if got := h100.MFUFor(catalog.ModelKindGenerative); got != h100.TrainMFU {
		t.Errorf("H100 language-model MFU %v, want its training_mfu %v", got, h100.TrainMFU)
	}
	// Every kind the catalog times by samples has a figure, and no other.
	if kinds := slices.Sorted(maps.Keys(SampleKindMFU)); !slices.Equal(kinds, catalog.SampleKinds()) {
		t.Errorf("SampleKindMFU covers %v, the catalog times %v by samples", kinds, catalog.SampleKinds())
	}
}

// Full training costs 3 forward passes per sample plus the frozen
// encoders' one; LoRA 2.
func TestSampleWork(t *testing.T) {
	full := SampleWork(catalog.ModelKindDiffusion, MethodFull, 100, 50, 2)
	if full.FLOPs != (3*100+50)*1e9*2e6 || full.Kind != catalog.ModelKindDiffusion {
		t.Errorf("full: %g FLOPs of kind %q", full.FLOPs, full.Kind)
	}
	lora := SampleWork("", MethodLoRA, 100, 0, 1)
	if lora.FLOPs != 2*100*1e9*1e6 || lora.Kind != catalog.ModelKindVision {
		t.Errorf("LoRA of an unknown kind: %g FLOPs of kind %q", lora.FLOPs, lora.Kind)
	}
}

// The weights' matrix products compute at the precision the engines run
// them in: fp8 W8A8 where the GPU computes fp8, NVFP4 W4A4 on Blackwell,
// MXFP4 with bf16 activations, int8 W8A8 from Turing to Hopper, int4
// weight-only; the rest dequantise for 16-bit arithmetic. Attention runs
// in 16 bits whatever the weights: a 127k-token prompt of Llama 3.1 8B,
// whose prefill is mostly attention, saves with fp8 weights only the
// weights' share (at the fp8 peak throughout it would take half as long).
func TestServedArithmeticPrecision(t *testing.T) {
	h100, a100, gb200, mi300x := hardware(t, "Standard_ND96isr_H100_v5"), hardware(t, "Standard_ND96amsr_A100_v4"),
		hardware(t, "Standard_ND128isr_NDR_GB200_v6"), hardware(t, "Standard_ND96isr_MI300X_v5")
	for _, c := range []struct {
		h              *Hardware
		p, format, gem string
		tflops         float64
	}{
		{h100, PrecisionFP8, "", PrecisionFP8, 1979}, {a100, PrecisionFP8, "", "", 312}, {mi300x, PrecisionFP8, "", PrecisionFP8, 2614.9},
		{gb200, PrecisionFP4, "", PrecisionFP4, 10000}, {gb200, PrecisionFP4, "nvfp4", PrecisionFP4, 10000},
		{gb200, PrecisionFP4, "mxfp4", "", 2500}, {h100, PrecisionFP4, "mxfp4", "", 989.5},
		{h100, PrecisionINT8, "", PrecisionINT8, 1979}, {a100, PrecisionINT8, "", PrecisionINT8, 624}, {gb200, PrecisionINT8, "", "", 2500}, {mi300x, PrecisionINT8, "", "", 1307.4},
		{h100, PrecisionINT4, "", "", 989.5}, {h100, PrecisionBF16, "", PrecisionBF16, 989.5},
	} {
		if g, tf := c.h.GEMMPrecision(c.p, c.format), c.h.GEMMTFLOPS(c.p, c.format); g != c.gem || tf != c.tflops {
			t.Errorf("%v TFLOPS bf16, %s (%q): weights computed at %q, %v TFLOPS; want %q, %v", c.h.TFLOPS[2], c.p, c.format, g, tf, c.gem, c.tflops)
		}
		if wo := c.h.WeightOnly(c.p, c.format); wo != (c.gem == "" && c.p != PrecisionBF16) {
			t.Errorf("%s (%q) on %v TFLOPS bf16: weight-only %v", c.p, c.format, c.h.TFLOPS[2], wo)
		}
	}
	mi := MemoryInput{Params: 8.03, Active: 8.03, Workload: WorkloadInference, Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-8b"),
		Context: 131072, Prompt: 126976, Output: 1024}
	bf, f8 := servedAs(&mi, PrecisionBF16, 15), servedAs(&mi, PrecisionFP8, 7.5)
	a, b := f8.Speed(h100, 1, 1, 1).Prefill, bf.Speed(h100, 1, 1, 1).Prefill
	weights := 2 * 8.03e9 * 126976 / (989.5e12 * h100.TrainMFU / TrainingMFU * PrefillMFU)
	if math.Abs((b-a)-weights/2) > 1e-9*b {
		t.Errorf("fp8 prefill %v s against bf16 %v s: want only the weights' %v s halved", a, b, weights)
	}
}

// A model served in fp32 or tf32 keeps its activations at 32 bits, so its
// attention computes at the weights' precision too: the whole prefill of
// Llama 3.1 8B on an H100 NVL (60 fp32, 417.5 tf32, 835.5 bf16 TFLOPS),
// attention included, takes the bf16 prefill's time × the bf16 peak over
// the 32-bit one (beside fp8 weights attention stays at 16 bits:
// TestServedArithmeticPrecision).
func TestThirtyTwoBitModelsAttendAtThirtyTwoBits(t *testing.T) {
	h := hardware(t, "Standard_NC40ads_H100_v5")
	mi := MemoryInput{Params: 8.03, Active: 8.03, Workload: WorkloadInference, Kind: catalog.ModelKindGenerative, Model: model(t, "llama-3.1-8b"),
		Context: 131072, Prompt: 126976, Output: 1024}
	s := servedAs(&mi, PrecisionBF16, 15)
	bf := s.Speed(h, 1, 1, 1).Prefill
	for _, p := range []string{PrecisionFP32, PrecisionTF32} {
		s := servedAs(&mi, p, 30)
		got := s.Speed(h, 1, 1, 1).Prefill
		want := bf * h.PeakTFLOPS(PrecisionBF16) / h.PeakTFLOPS(p)
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s prefill %v s, want the bf16 prefill's %v s × %v / %v = %v s", p, got, bf, h.PeakTFLOPS(PrecisionBF16), h.PeakTFLOPS(p), want)
		}
	}
}

// Sliding-window and chunked layers attend to at most their window, in
// the prefill as in the KV cache: gpt-oss-120b's 18 windowed layers of 36
// (128 tokens) halve a 126,976-token prompt's attention, and Llama 4
// Scout's 36 chunked layers of 48 (8,192 tokens) cut a 1M-token prompt's to
// about a quarter; a decode token at that context attends likewise.
func TestWindowedLayersAttendToTheirWindow(t *testing.T) {
	h := hardware(t, "Standard_ND96isr_H100_v5")
	for _, c := range []struct {
		id             string
		params, active float64
		prompt         int64
		lo, hi         float64 // full attention ÷ the model's
	}{{"gpt-oss-120b", 116.8, 5.1, 126976, 1.95, 2.0}, {"llama-4-scout-17b-16e", 109, 17, 1 << 20, 3.6, 4.0}} {
		m := model(t, c.id)
		mi := MemoryInput{Params: c.params, Active: c.active, Workload: WorkloadInference, Kind: catalog.ModelKindMoE, Model: m,
			Context: c.prompt + 1024, Prompt: c.prompt, Output: 2}
		s := servedAs(&mi, PrecisionBF16, 2*c.params)
		L, W, P := float64(*m.Layers), float64(*m.AttentionHeads**m.HeadDim), float64(c.prompt)
		peak := 8 * h.PeakTFLOPS("") * 1e12 * h.TrainMFU / TrainingMFU
		sp := s.Speed(h, 8, 1, 1)
		attention := sp.Prefill - sp.PrefillMove - 2*c.active*1e9*P/(peak*PrefillMFU)
		full := 2 * L * W * P * P / (peak * PrefillMFU)
		if r := full / attention; r < c.lo || r > c.hi {
			t.Errorf("%s: a %v-token prompt's attention %v s, full attention %v s: %.2f×, want %v to %v", c.id, P, attention, full, r, c.lo, c.hi)
		}
		if r := L * P / s.DecodeAttended(P); r < c.lo || r > c.hi {
			t.Errorf("%s: a decode token at %v tokens attends to %v, %.2f× fewer than full attention", c.id, P, s.DecodeAttended(P), r)
		}
	}
}

// A tensor-parallel all-reduce sums the row-parallel layers' outputs, a
// hidden_size vector per token (vLLM's RowParallelLinear), not the
// attention width: DeepSeek-R1 moves 7,168 values a token, not its 128
// heads × 192 = 24,576; gpt-oss-120b 2,880, not 4,096; Llama 3.1 70B,
// whose two are equal, 8,192.
func TestAllReduceMovesTheHiddenSize(t *testing.T) {
	h := hardware(t, "Standard_ND96isr_H200_v5")
	for _, c := range []struct {
		id     string
		hidden float64
	}{{"deepseek-r1", 7168}, {"gpt-oss-120b", 2880}, {"llama-3.1-70b", 8192}} {
		m := model(t, c.id)
		s := ServiceOf(&MemoryInput{Params: m.ParametersBillion, Active: m.ActiveParametersBillion, Workload: WorkloadInference, Kind: m.Kind, Model: m,
			Context: 2048, Prompt: 1024, Output: 1024}, PrecisionBF16, 0)
		want := 2 * 7.0 / 8 * 256 * c.hidden * ActivationBytes / (h.LinkGBs / 2 * 1e9 * LinkEfficiency)
		if r := s.OneAllReduce(h, 8, 256); math.Abs(r.Move-want) > 1e-12 {
			t.Errorf("%s: 256 tokens' all-reduce moves for %v s, want %v s (%v values a token)", c.id, r.Move, want, c.hidden)
		}
	}
}

// gpt-oss-120b's MXFP4 covers the experts alone: a decode step of one
// sequence reads the 1.53B non-expert parameters in bf16 and 4 experts of
// 36 layers × 24.9M parameters at 4.25 bits, at least 4.6 GiB, not the
// 2.65 GiB a share of the 60.8 GiB checkpoint by parameters gives; at a
// large batch every expert, the whole checkpoint.
func TestMXFP4ExpertsAreReadAtTheirOwnBytes(t *testing.T) {
	m := model(t, "gpt-oss-120b")
	mi := MemoryInput{Params: 116.8, Active: 5.1, Precision: PrecisionFP4, Workload: WorkloadInference, Kind: catalog.ModelKindMoE, Model: m,
		Context: 2048, Prompt: 1024, Output: 1024, Checkpoint: "mxfp4", CheckpointGiB: 60.8}
	s := servedAs(&mi, PrecisionFP4, 60.8)
	floor := (1.53e9*2 + 4*36*24.9e6*4.25/8) / GiB
	if got := s.TouchedWeights(1); got < floor || got > 60.8/8 {
		t.Errorf("one sequence reads %v GiB, want at least %v and far from the whole checkpoint", got, floor)
	}
	if got := s.TouchedWeights(4096); math.Abs(got-60.8) > 0.01 {
		t.Errorf("4,096 sequences read %v GiB, want the whole 60.8", got)
	}
}

// Whisper large-v3 served keeps a cache per request (decoderCache):
// 163,840 bytes per decoder token × 448 + 245,760,000 bytes of
// cross-attention over the encoder's 1,500 positions, whatever the
// context. Its copies are placed, keyed on the kind: never split by tensor
// parallelism, more of them holding more requests on a VM of four GPUs of
// 80 GB (each copy on one GPU, as many as the requests' caches need).
// BERT keeps none and a language model's copy is not placed.
func TestEncoderDecoderCachePerRequest(t *testing.T) {
	mi := MemoryInput{Params: 1.55, Active: 1.55, Precision: PrecisionFP16, BPP: 2, Workload: WorkloadInference,
		Kind: catalog.ModelKindSpeech, Model: model(t, "whisper-large-v3"), Context: 4096, Seqs: 256}
	kv := KVCacheOf(&mi)
	if want := 163840.0*448 + 245760000; kv.PerSeq != want || !kv.Request {
		t.Fatalf("Whisper cache %v bytes a request (request %v), want %v", kv.PerSeq, kv.Request, want)
	}
	e := EstimateMemory(&mi)
	if e.KVCacheGiB != ToGiB(kv.PerSeq*256) || e.ConcurrentRequests != 256 || e.ContextTokens != 0 || e.KVBytesPerToken != 0 {
		t.Errorf("Whisper at 256 requests: %+v", e)
	}
	if bert := (MemoryInput{Kind: catalog.ModelKindEncoder, Model: model(t, "bert-large"), Context: 512, Seqs: 256}); KVCacheOf(&bert).PerSeq != 0 {
		t.Error("BERT keeps a KV cache")
	}
	j := GPUJob{Total: e.GiB, Shard: e.WeightsGiB + e.ActivationGiB, KVPerSeq: kv.PerSeq / GiB, Seqs: 256, Share: GPUMemoryShare,
		Band: 0.85, TensorParallel: true, Kind: catalog.ModelKindSpeech}
	if !j.Placed() {
		t.Fatal("Whisper's copies are not placed")
	}
	h := Hardware{IsGPU: true, GPUUnits: 4, UnitMemGiB: 80}
	l := j.Fit(&h, 10, 1, 0, 0)
	if !l.OK || l.TP != 1 || l.PP != 1 || l.Copies < 2 || float64(l.Copies*l.PerCopy) < 256 {
		t.Errorf("Whisper at 256 requests on 4 × 80 GB: %+v; want copies of one GPU each holding every request", l)
	}
	if lm := (GPUJob{TensorParallel: true, KVPerSeq: 0.1, Kind: catalog.ModelKindGenerative}); lm.Placed() {
		t.Error("a language model's copy is placed")
	}
}

// vLLM's INT8 W8A8 page: INT8 computation from compute capability 7.5
// (Turing, Ampere, Ada Lovelace, Hopper), none from 10.0 (Blackwell). The
// P40 of the ND sizes (6.1) has an INT8 rate of its own but no engine
// kernel for it, so it runs no int8 weights; the T4 (7.5) does.
func TestInt8W8A8Window(t *testing.T) {
	for cc, want := range map[int]bool{61: false, 70: false, 75: true, 80: true, 89: true, 90: true, 100: false, 103: false, 120: false} {
		if INT8W8A8(cc) != want {
			t.Errorf("compute capability %d: INT8 W8A8 %v, want %v", cc, !want, want)
		}
	}
	p40, t4 := hardware(t, "Standard_ND6s"), hardware(t, "Standard_NC4as_T4_v3")
	if p40.TFLOPS[6] <= 0 || p40.RunsWeights(PrecisionINT8) || !t4.RunsWeights(PrecisionINT8) {
		t.Errorf("int8: P40 (%v TOPS) runs it %v, T4 %v; want the P40 not, the T4 yes", p40.TFLOPS[6], p40.RunsWeights(PrecisionINT8), t4.RunsWeights(PrecisionINT8))
	}
}

// Full training and full fine-tuning size the activations of one GPU's
// micro-batch from its tokens, as LoRA does, not as a share of the model
// states: Llama 3.1 8B fine-tuned in full at 4,096 and at 131,072 tokens
// needed 149.57 GiB at both (25% of the 119.66 GiB of states); its
// checkpointed activations are 3.49 GiB at 4,096 tokens and 111.63 GiB at
// 131,072, the LoRA figure (32 layers × 4096 × 2 + 4096 × 34 + 128,256 × 4
// bytes a token).
func TestFullTrainingActivationsFollowTheContext(t *testing.T) {
	m := model(t, "llama-3.1-8b")
	for _, c := range []struct {
		workload    string
		context     int64
		act, states float64
	}{
		{WorkloadFineTuning, 4096, 3.49, 119.66},
		{WorkloadFineTuning, 131072, 111.63, 119.66},
		{WorkloadTraining, 131072, 111.63, 119.66},
	} {
		mi := MemoryInput{Params: m.ParametersBillion, Active: m.ParametersBillion, Precision: PrecisionBF16, BPP: 2, Workload: c.workload,
			Method: MethodFull, Kind: catalog.ModelKindGenerative, Model: m, Context: c.context, Batch: 1}
		e := EstimateMemory(&mi)
		lora := mi
		lora.Method = MethodLoRA
		act, _ := TrainingActivations(&lora)
		if e.ActivationGiB != c.act || ToGiB(act) != c.act || math.Abs(e.GiB-(c.states+c.act)) > 0.011 || e.ContextTokens != c.context || e.TrainingBatchSize != 1 {
			t.Errorf("%s at %d tokens: activations %v GiB (LoRA %v), total %v, context %d; want %v of activations on %v of states",
				c.workload, c.context, e.ActivationGiB, ToGiB(act), e.GiB, e.ContextTokens, c.act, c.states)
		}
		if !strings.Contains(e.Formula, "activations per GPU: "+groupInt(float64(c.context))+" tokens") {
			t.Errorf("formula %q", e.Formula)
		}
	}
	// Two sequences a GPU hold twice the activations.
	mi := MemoryInput{Params: m.ParametersBillion, Active: m.ParametersBillion, Precision: PrecisionBF16, BPP: 2, Workload: WorkloadTraining,
		Method: MethodFull, Kind: catalog.ModelKindGenerative, Model: m, Context: 4096, Batch: 2}
	if e := EstimateMemory(&mi); e.ActivationGiB != 6.98 {
		t.Errorf("2 × 4,096 tokens: %v GiB of activations, want 6.98", e.ActivationGiB)
	}
}
