// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// The memory estimates below are pinned against hand calculations written
// next to each case. Architecture facts come from the catalog's model table
// (internal/catalog/data/models.json; each model's sources are there, and
// internal/catalog/testdata/reference/models.md §4 derives the per-token KV
// sizes). GiB = 2^30 bytes; parameter counts are decimal. Sources of the
// rules: rules.go (vLLM's CacheEngine for the KV cache, the QLoRA paper
// for NF4 and adapters, Korthikanti et al. 2022 for activations, the ZeRO
// paper for 16 bytes per parameter).
func TestMemoryEstimatesPinned(t *testing.T) {
	eng := testEngine(t)
	for _, tt := range pinnedMemoryCases {
		t.Run(tt.name, func(t *testing.T) {
			e, _, err := estimateMemory(eng, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			got := pinnedMemory{gib: e.GiB, weights: e.WeightsGiB, kv: e.KVCacheGiB, act: e.ActivationGiB, adapters: e.AdapterGiB,
				kvPerToken: e.KVBytesPerToken, method: e.FineTuningMethod, dataParallel: e.DataParallel}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v\nformula %s", got, tt.want, e.Formula)
			}
			if !strings.Contains(e.Formula, "; total "+trimFloat(tt.want.gib)+" GiB") {
				t.Errorf("formula %q does not end with the total", e.Formula)
			}
		})
	}
}

// pinnedMemory is what TestMemoryEstimatesPinned pins of an estimate.
type pinnedMemory struct {
	gib, weights, kv, act, adapters float64
	kvPerToken                      float64
	method                          string
	dataParallel                    bool
}

// pinnedMemoryCases are the estimates TestMemoryEstimatesPinned pins, each
// with its hand calculation.
var pinnedMemoryCases = []struct {
	name string
	req  MemoryRequest
	want pinnedMemory
}{
	{
		// Llama 3.1 8B: 32 layers, 8 KV heads × 128, bf16 cache:
		// 2 × 32 × 8 × 128 × 2 = 131,072 bytes = 128 KiB per token;
		// 8,192 tokens × 32 sequences × 128 KiB = 32 GiB of KV cache.
		// Weights 8.03e9 × 2 = 14.96 GiB; workspace 5% = 0.75 GiB.
		// Total (16.06e9 + 0.803e9 + 34.36e9) / 2^30 = 47.7 GiB.
		"llama-3.1-8b inference 8k x 32",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)},
		pinnedMemory{gib: 47.7, weights: 14.96, kv: 32, act: 0.75, kvPerToken: 131072},
	},
	{
		// Llama 3.1 70B: 2 × 80 × 8 × 128 × 2 = 327,680 bytes (320 KiB)
		// per token; × 8,192 × 32 = 80 GiB (models.md §4.7). Weights
		// 70.55e9 × 2 = 131.41 GiB, workspace 6.57 GiB: 217.98 GiB.
		"llama-3.1-70b inference 8k x 32",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "Llama 3.1 70B"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)},
		pinnedMemory{gib: 217.98, weights: 131.41, kv: 80, act: 6.57, kvPerToken: 327680},
	},
	{
		// QLoRA on Llama 3.1 70B: embeddings and output 2 × 128,256 ×
		// 8,192 = 2.10e9 parameters at 2 bytes; the other 68.45e9 in
		// NF4 at 4.127 bits: 35.31e9 + 4.20e9 bytes = 36.8 GiB (models.md
		// §4.7 gives ≈ 39.5 GB). Adapters 1% × 70.55e9 × 12 bytes = 7.88
		// GiB. Activations at 4,096 tokens × 1 sequence: 80 × 4096 ×
		// 8192 × 2 (checkpointed) + 4096 × 8192 × 34 (one layer) + 4096
		// × 128,256 × 4 (logits) = 8.61e9 bytes = 8.02 GiB. Total 52.7
		// GiB: one 80 GB GPU.
		"llama-3.1-70b qlora",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-70b"}, FineTuningMethod: MethodQLoRA},
		pinnedMemory{gib: 52.7, weights: 36.8, act: 8.02, adapters: 7.88, method: MethodQLoRA},
	},
	{
		// LoRA on Llama 3.1 8B in bf16: frozen 8.03e9 × 2 = 14.96 GiB;
		// adapters 1% × 8.03e9 × 16 = 1.2 GiB; activations 32 × 4096 ×
		// 4096 × 2 + 4096 × 4096 × 34 + 4096 × 128,256 × 4 = 3.75e9
		// bytes = 3.49 GiB. Total 19.64 GiB.
		"llama-3.1-8b lora",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodLoRA},
		pinnedMemory{gib: 19.64, weights: 14.96, act: 3.49, adapters: 1.2, method: MethodLoRA},
	},
	{
		// Full fine-tuning of Llama 3.1 8B (the default method at bf16):
		// 8.03e9 × 16 bytes = 119.66 GiB of states, + the checkpointed
		// activations of one 4,096-token sequence per GPU, 3.49 GiB (the
		// LoRA figure) = 123.14 GiB (was 149.57: 25% of the states).
		"llama-3.1-8b full fine-tuning",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-8b"}},
		pinnedMemory{gib: 123.14, weights: 14.96, act: 3.49, method: MethodFull},
	},
	{
		// Qwen2.5 7B has 4 KV heads: 2 × 28 × 4 × 128 × 2 = 57,344
		// bytes per token; defaults 4,096 × 8 sequences = 1.75 GiB.
		// Weights 7.61e9 × 2 = 14.17 GiB, workspace 0.71: 16.63 GiB.
		"qwen2.5-7b inference defaults",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "qwen2.5-7b"}},
		pinnedMemory{gib: 16.63, weights: 14.17, kv: 1.75, act: 0.71, kvPerToken: 57344},
	},
	{
		// DeepSeek-V3 in fp8 with MLA: 61 layers × (512 latent + 64
		// RoPE) × 1 byte = 35,136 bytes per token (models.md §4.2 gives
		// 70,272 at bf16); × 4,096 × 8 = 1.07 GiB. Weights: the published
		// checkpoint, 688,586,727,753 bytes = 641.3 GiB (671e9 × 1 byte
		// would be 624.92: the checkpoint adds block scales, bf16
		// embeddings and the multi-token prediction module); workspace
		// 5% of it, 32.07: 674.44 GiB.
		"deepseek-v3 inference fp8 MLA",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "deepseek-v3"}},
		pinnedMemory{gib: 674.44, weights: 641.3, kv: 1.07, act: 32.07, kvPerToken: 35136},
	},
	{
		// Gemma 2 9B: 42 layers, 8 KV heads × 256; 21 layers keep a
		// 4,096-token window. Per sequence of 8,192 tokens: 2 × 8 × 256
		// × 2 × (21 × 8,192 + 21 × 4,096) = 2.11e9 bytes, an average of
		// 258,048 bytes per token (344,064 if every layer kept it all);
		// × 16 sequences = 31.5 GiB. Weights 9.24e9 × 2 = 17.21 GiB,
		// workspace 0.86: 49.57 GiB.
		"gemma-2-9b inference sliding window",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "gemma-2-9b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(16)},
		pinnedMemory{gib: 49.57, weights: 17.21, kv: 31.5, act: 0.86, kvPerToken: 258048},
	},
	{
		// Mixtral 8x7B: memory by total parameters (46.7e9 × 2 = 86.99
		// GiB), KV by its attention (2 × 32 × 8 × 128 × 2 = 131,072
		// bytes per token; × 4,096 × 8 = 4 GiB); workspace 4.35: 95.33.
		"mixtral-8x7b inference",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "mixtral-8x7b"}},
		pinnedMemory{gib: 95.33, weights: 86.99, kv: 4, act: 4.35, kvPerToken: 131072},
	},
	{
		// gpt-oss-120b in MXFP4: the published checkpoint, 60.8 GiB (the
		// model card's Table 1; 116.8e9 × 4.25 bits would be 57.79 GiB).
		// KV: 2 × 8 × 64 × 2 = 2,048 bytes per layer per token; 18 full
		// layers × 4,096 + 18 window layers × 128 per sequence: 38,016
		// bytes per token on average; × 4,096 × 8 = 1.16 GiB. Workspace
		// 3.04: 65 GiB.
		"gpt-oss-120b inference mxfp4",
		MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "gpt-oss-120b"}},
		pinnedMemory{gib: 65, weights: 60.8, kv: 1.16, act: 3.04, kvPerToken: 38016},
	},
	{
		// ViT-L/16 training in bf16 at 256 images per GPU: states
		// 0.307e9 × 16 = 4.57 GiB; activations 256 × 24 layers × 197
		// patches × 1,024 hidden × 34 bytes = 39.25 GiB. Every GPU holds
		// all of it (data parallel): 43.82 GiB.
		"vit-large training batch 256",
		MemoryRequest{Workload: WorkloadTraining, Model: Model{Name: "vit-large", Precision: PrecisionBF16}, TrainingBatchSize: i64(256)},
		pinnedMemory{gib: 43.82, weights: 0.57, act: 39.25, method: MethodFull, dataParallel: true},
	},
	{
		// BERT-large fine-tuning, published in fp32 (no master copy: 4 +
		// 4 + 8 = 16 bytes): 0.34e9 × 16 = 5.07 GiB; default batch 32 ×
		// 24 × 512 × 1,024 × 68 (32-bit activations) = 25.5 GiB: 30.57
		// GiB per GPU.
		"bert-large fine-tuning default batch",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "bert-large"}},
		pinnedMemory{gib: 30.57, weights: 1.27, act: 25.5, method: MethodFull, dataParallel: true},
	},
	{
		// A 70B int4 model without a name: QLoRA by default. Base 70e9 ×
		// 4.127 / 8 = 33.63 GiB; adapters 70e9 × 1% × 12 = 7.82 GiB;
		// activations without architecture 0.25 bytes per parameter per
		// 4,096 tokens = 16.3 GiB. Total 57.75 GiB.
		"70B int4 fine-tuning defaults to qlora",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{ParametersBillion: 70, Precision: PrecisionINT4}},
		pinnedMemory{gib: 57.75, weights: 33.63, act: 16.3, adapters: 7.82, method: MethodQLoRA},
	},
	{
		// An 8B model without a name: 128 KiB per token × (8 / 8)^0.42
		// = 131,072 bytes; × 4,096 × 8 = 4 GiB. Weights 8e9 × 2 = 14.9,
		// workspace 0.75: 19.65 GiB.
		"unnamed 8B inference approximates the KV cache",
		MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 8}},
		pinnedMemory{gib: 19.65, weights: 14.9, kv: 4, act: 0.75, kvPerToken: 131072},
	},
	{
		// Pretraining 70B in bf16: 70e9 × 16 = 1,043.08 GiB of states,
		// + one 4,096-token sequence's activations per GPU without the
		// architecture, 70e9 × 0.25 bytes = 16.3 GiB: 1,059.38 GiB (was
		// 1,564.62, 50% of the states).
		"70B training",
		MemoryRequest{Workload: WorkloadTraining, Model: Model{ParametersBillion: 70}},
		pinnedMemory{gib: 1059.38, weights: 130.39, act: 16.3, method: MethodFull},
	},
	{
		// LoRA on an int8 base (the default method for int8): 8.03e9 × 1
		// = 7.48 GiB frozen; adapters 8.03e9 × 1% × 16 = 1.2 GiB;
		// activations 3.745e9 bytes = 3.49 GiB; (8.03e9 + 1.285e9 +
		// 3.745e9) / 2^30 = 12.16 GiB.
		"llama-3.1-8b int8 defaults to lora",
		MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-8b", Precision: PrecisionINT8}},
		pinnedMemory{gib: 12.16, weights: 7.48, act: 3.49, adapters: 1.2, method: MethodLoRA},
	},
}

// The three-argument estimate keeps its meaning for full training and
// gains the defaults of the new inputs.
func TestEstimateGPUMemoryGiB(t *testing.T) {
	tests := []struct {
		name                string
		params              float64
		precision, workload string
		gib, bpp, state     float64
		method              string
	}{
		// 70e9 × (2 + 2 + 4 + 8) = 1043.08 GiB of states, + 50%.
		{"training 70B bf16", 70, "bf16", "training", 1059.38, 2, 16, MethodFull},
		// Full fine-tuning (the default at bf16): the same states, + 25%.
		{"fine_tuning 70B default precision", 70, "", "fine_tuning", 1059.38, 2, 16, MethodFull},
		// fp32: no master copy, 4 + 4 + 8 = 16.
		{"training 7B fp32", 7, "fp32", "training", 107.57, 4, 16, MethodFull},
		{"training 7B tf32", 7, "tf32", "training", 107.57, 4, 16, MethodFull},
		// fp8: bf16 gradients, 1 + 2 + 4 + 8 = 15; 7e9 × 15 × 1.5.
		{"training 7B fp8", 7, "fp8", "training", 99.42, 1, 15, MethodFull},
		// int8 fine-tuning is LoRA on a frozen 8-bit base: 7e9 × 1 = 6.52
		// GiB + adapters 7e9 × 1% × 16 = 1.04 + activations 7e9 × 0.25 =
		// 1.63: 9.19 GiB.
		{"fine_tuning 7B int8", 7, "int8", "fine_tuning", 9.19, 1, 1, MethodLoRA},
		// Inference: weights + 5% + the approximate KV cache of 8 × 4,096
		// tokens at 128 KiB × (7 / 8)^0.42 = 123,924 bytes per token:
		// 13.04 + 0.65 + 3.78 = 17.47 GiB.
		{"inference 7B bf16", 7, "bf16", "inference", 17.47, 2, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := EstimateGPUMemoryGiB(tt.params, tt.precision, tt.workload)
			if err != nil {
				t.Fatal(err)
			}
			if e.GiB != tt.gib || e.BytesPerParameter != tt.bpp || e.StateBytesPerParameter != tt.state || e.FineTuningMethod != tt.method {
				t.Errorf("got %v GiB, %v, %v, %q; want %v, %v, %v, %q\n%s", e.GiB, e.BytesPerParameter, e.StateBytesPerParameter, e.FineTuningMethod, tt.gib, tt.bpp, tt.state, tt.method, e.Formula)
			}
		})
	}
}

func TestEstimateFormula(t *testing.T) {
	e, _ := EstimateGPUMemoryGiB(70, "bf16", "training")
	want := "model states: 70B parameters × 16 bytes (bf16 weights 2 + gradients 2 + fp32 master weights 4 + Adam moments 8) = 1043.08 GiB; activations per GPU: 0.25 bytes per parameter per 4,096 tokens × 4,096 tokens (no architecture) = 16.3 GiB; total 1059.38 GiB"
	if e.Formula != want {
		t.Errorf("formula\n got  %q\n want %q", e.Formula, want)
	}
}

func TestEstimateErrors(t *testing.T) {
	for _, tt := range []struct {
		params              float64
		precision, workload string
		msg                 string
	}{
		{0, "bf16", "training", "greater than 0"},
		{-1, "bf16", "training", "greater than 0"},
		{math.NaN(), "bf16", "training", "greater than 0"},
		{math.Inf(1), "bf16", "training", "greater than 0"},
		{100001, "bf16", "training", "at most 100,000"},
		{7, "fp64", "training", `precision "fp64" is not one of fp32, tf32, bf16, fp16, fp8, fp4, int8, int4`},
		{7, "bf16", "hpc", `covers the training, fine_tuning and inference workloads, not "hpc"`},
		{7, "bf16", "", `not ""`},
		{7, "int4", "training", "cannot run in int4"},
		{7, "int8", "training", "cannot run in int8"},
	} {
		_, err := EstimateGPUMemoryGiB(tt.params, tt.precision, tt.workload)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("(%v, %q, %q): error %v, want %q", tt.params, tt.precision, tt.workload, err, tt.msg)
		}
	}
}

func TestEstimateMemoryErrors(t *testing.T) {
	eng := testEngine(t)
	for _, tt := range []struct {
		req  MemoryRequest
		path string
		msg  string
	}{
		{MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "llama-3.1-8"}}, "model.name", "Did you mean"},
		{MemoryRequest{Workload: WorkloadInference, Model: Model{}}, "model", "name"},
		{MemoryRequest{Workload: WorkloadHPC, Model: Model{ParametersBillion: 7}}, "workload", "training"},
		{MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 7}, FineTuningMethod: MethodLoRA}, "fine_tuning_method", "fine-tuning"},
		{MemoryRequest{Workload: WorkloadTraining, Model: Model{ParametersBillion: 7}, ConcurrentRequests: i64(4)}, "concurrent_requests", "serving"},
		{MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 7}, TrainingBatchSize: i64(4)}, "training_batch_size", "training"},
		{MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 7}, ContextTokens: i64(0)}, "context_tokens", "at least 1"},
		{MemoryRequest{Workload: WorkloadTraining, Model: Model{ParametersBillion: 7, Precision: PrecisionINT4}}, "model.precision", "bf16"},
		{MemoryRequest{Workload: WorkloadFineTuning, Model: Model{ParametersBillion: 7, Precision: PrecisionINT8}, FineTuningMethod: MethodFull}, "fine_tuning_method", "lora"},
		{MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 7, ActiveParametersBillion: 8}}, "model.active_parameters_billion", "at most"},
		{MemoryRequest{Workload: WorkloadFineTuning, Model: Model{ParametersBillion: 7}, FineTuningMethod: "dora"}, "fine_tuning_method", `"full", "lora", "qlora"`},
	} {
		_, _, err := estimateMemory(eng, tt.req)
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Errors) == 0 {
			t.Errorf("%+v: error %v, want a ValidationError", tt.req, err)
			continue
		}
		fe := ve.Errors[0]
		if got := strings.Join(fe.Path, "."); got != tt.path || !strings.Contains(fe.Detail, tt.msg) {
			t.Errorf("%+v: %s: %s; want %s containing %q", tt.req, got, fe.Detail, tt.path, tt.msg)
		}
	}
}

// An explicit count or precision wins over the table, with a warning.
func TestEstimateMemoryOverridesTheTable(t *testing.T) {
	eng := testEngine(t)
	e, warnings, err := estimateMemory(eng, MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "llama-3.1-8b", ParametersBillion: 8, Precision: PrecisionFP8}})
	if err != nil {
		t.Fatal(err)
	}
	// 8e9 × 1 byte = 7.45 GiB; fp8 models cache KV in 1 byte: 65,536
	// bytes per token.
	if e.ParametersBillion != 8 || e.WeightsGiB != 7.45 || e.KVBytesPerToken != 65536 || len(warnings) != 2 {
		t.Errorf("estimate %+v, warnings %+v", e, warnings)
	}
	for i, s := range []string{"Parameter Count Differs From The Model Table", "Precision Differs From The Model Table"} {
		if i >= len(warnings) || warnings[i].Summary != s {
			t.Errorf("warning %d: %+v, want %q", i, warnings, s)
		}
	}
}

// Every precision has a byte size; at the training precisions, training
// needs as much as full fine-tuning (the same states, and activations of
// the same micro-batch), more than inference; and
// the fine-tuning default follows the precision.
func TestMemoryModelTables(t *testing.T) {
	for _, p := range Precisions() {
		if _, ok := perfmodel.BytesPerParameter(p); !ok {
			t.Errorf("no bytes per parameter for %s", p)
		}
		if perfmodel.Quantised(p) {
			continue // no full training; fine-tuning is LoRA or QLoRA
		}
		tr, _ := EstimateGPUMemoryGiB(13, p, WorkloadTraining)
		ft, _ := EstimateGPUMemoryGiB(13, p, WorkloadFineTuning)
		inf, _ := EstimateGPUMemoryGiB(13, p, WorkloadInference)
		if !(tr.GiB == ft.GiB && ft.GiB > inf.GiB) {
			t.Errorf("%s: training %v, fine-tuning %v, inference %v", p, tr.GiB, ft.GiB, inf.GiB)
		}
	}
	for p, m := range map[string]string{PrecisionINT4: MethodQLoRA, PrecisionINT8: MethodLoRA, PrecisionFP4: MethodQLoRA, PrecisionBF16: MethodFull, PrecisionFP8: MethodFull} {
		if got := defaultMethod(p); got != m {
			t.Errorf("defaultMethod(%s) = %s, want %s", p, got, m)
		}
	}
}

// estimateMemory is the memory model's estimate of the job the engine
// resolves, as gpu_memory_gib and the guide ask for it.
func estimateMemory(eng *Engine, r MemoryRequest) (MemoryEstimate, []Warning, error) {
	mi, warnings, err := eng.ResolveMemory(r)
	if err != nil {
		return MemoryEstimate{}, nil, err
	}
	return perfmodel.EstimateMemory(&mi), warnings, nil
}

// A model whose published checkpoint the table sizes is served from it:
// gpt-oss-120b's MXFP4 checkpoint holds 60.8 GiB (bf16 attention,
// embeddings and scales beside the MXFP4 experts), more than parameters ×
// 4.25 bits, and one 1k-token sequence needs it plus the workspace. A
// precision other than the published one has no checkpoint to read.
func TestServedWeightsAreTheCheckpoint(t *testing.T) {
	eng := testEngine(t)
	one, ctx := int64(1), int64(1024)
	ask := func(precision string) MemoryEstimate {
		t.Helper()
		e, _, err := estimateMemory(eng, MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "gpt-oss-120b", Precision: precision}, ConcurrentRequests: &one, ContextTokens: &ctx})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := ask("")
	if e.WeightsGiB != 60.8 || e.GiB < 60.8+e.ActivationGiB || e.ActivationGiB <= 0 || !strings.Contains(e.Formula, "published mxfp4 checkpoint") {
		t.Errorf("gpt-oss-120b at one 1k sequence: %v GiB, weights %v, workspace %v: %s", e.GiB, e.WeightsGiB, e.ActivationGiB, e.Formula)
	}
	if b := ask(PrecisionBF16); b.WeightsGiB <= e.WeightsGiB || strings.Contains(b.Formula, "checkpoint") {
		t.Errorf("gpt-oss-120b in bf16 is parameters × 2 bytes: %s", b.Formula)
	}
}

// A small model trains on CPU sizes: its memory formula speaks of no GPU
// (the data-parallel words are for the GPUs of a vision or encoder job).
func TestCPUTrainingFormulaNamesNoGPU(t *testing.T) {
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 0.1, Class: ClassSmall}},
		{Workload: WorkloadFineTuning, Model: &Model{ParametersBillion: 0.3, Class: ClassSmall}},
	} {
		req.AsOf = asOf
		res := mustRecommend(t, req)
		if res.Requirements.Category != "cpu" {
			t.Fatalf("%+v: category %q, want cpu", req.Model, res.Requirements.Category)
		}
		if f := res.Requirements.Memory.Formula; strings.Contains(f, "GPU") {
			t.Errorf("%s of %+v on %s: the memory formula names GPUs: %q", req.Workload, req.Model, res.Recommendations[0].VMSize, f)
		}
	}
}

// A checkpoint published in a 4-bit floating-point format (gpt-oss's
// MXFP4) has no tool that trains adapters on it as it is (D82): its
// fine-tuning defaults to QLoRA on a 4-bit NF4 base, as for int4, and
// LoRA asked for by name trains on the base upcast to bf16. Either way the
// frozen base is never counted at the checkpoint's MXFP4 bits.
func TestFP4FineTuningTrainsOnAQuantisedOrUpcastBase(t *testing.T) {
	eng := testEngine(t)
	ask := func(method string) MemoryEstimate {
		t.Helper()
		e, _, err := estimateMemory(eng, MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "gpt-oss-120b"}, FineTuningMethod: method})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if d := ask(""); d.FineTuningMethod != MethodQLoRA || !strings.Contains(d.Formula, "NF4 base") {
		t.Errorf("gpt-oss-120b fine-tuning by default: method %s, %s; want qlora on an NF4 base", d.FineTuningMethod, d.Formula)
	}
	if l := ask(MethodLoRA); l.StateBytesPerParameter != 2 || !strings.Contains(l.Formula, "bf16") {
		t.Errorf("gpt-oss-120b LoRA: %v bytes per base parameter, %s; want the base upcast to bf16 (2 bytes)", l.StateBytesPerParameter, l.Formula)
	}
}

// Activations are stored at the precision training computes in: an fp32
// model keeps twice the bytes of the same model in bf16 (Korthikanti et
// al.'s 34 bytes per element-layer are 16-bit activations). BERT-large is
// published in fp32.
func TestFP32TrainingActivationsAreTwiceBF16(t *testing.T) {
	eng := testEngine(t)
	ask := func(precision string) MemoryEstimate {
		t.Helper()
		e, _, err := estimateMemory(eng, MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "bert-large", Precision: precision}})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	fp32, bf16 := ask(""), ask(PrecisionBF16)
	if fp32.Precision != PrecisionFP32 || math.Abs(fp32.ActivationGiB-2*bf16.ActivationGiB) > 0.02 {
		t.Errorf("bert-large activations: %s %v GiB, bf16 %v GiB; want twice: %s", fp32.Precision, fp32.ActivationGiB, bf16.ActivationGiB, fp32.Formula)
	}
}

// A diffusion model's text encoders are frozen in training (their forward
// pass is frozen_gflops): they keep their 16-bit weights, but no
// gradients, master copy or Adam moments. SDXL's 3.4B parameters are a
// 2.6B UNet and 0.817B of text encoders (SDXL paper, Table 1).
func TestFrozenEncodersHoldWeightsAlone(t *testing.T) {
	e, _, err := estimateMemory(testEngine(t), MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "stable-diffusion-xl"}})
	if err != nil {
		t.Fatal(err)
	}
	unet, all := (3.4-0.817)*1e9, 3.4e9
	if e.OptimizerGiB != perfmodel.ToGiB(unet*perfmodel.AdamStateBytesPerParameter) || e.GradientsGiB != perfmodel.ToGiB(unet*2) || e.WeightsGiB != perfmodel.ToGiB(all*2) {
		t.Errorf("SDXL fine-tuning: weights %v, gradients %v, Adam %v GiB; want weights of all 3.4B, gradients and Adam of the 2.583B UNet: %s", e.WeightsGiB, e.GradientsGiB, e.OptimizerGiB, e.Formula)
	}
}

// Serving a Stable Diffusion 3 model loads its three text encoders beside
// the MMDiT (CLIP-L 123.65M and OpenCLIP bigG 694.66M text towers, T5 v1.1
// XXL's encoder 4.76B: 5.58B), which diffusers' SD3 documentation says
// make it hard to run under 24 GB even in fp16.
func TestServedDiffusionModelsLoadTheirTextEncoders(t *testing.T) {
	const encoders = 5.58e9
	for name, mmdit := range map[string]float64{"stable-diffusion-3-medium": 2.03e9, "stable-diffusion-3.5-large": 8.1e9} {
		e, _, err := estimateMemory(testEngine(t), MemoryRequest{Workload: WorkloadInference, Model: Model{Name: name}})
		if err != nil {
			t.Fatal(err)
		}
		if e.WeightsGiB < perfmodel.ToGiB((mmdit+encoders)*2) {
			t.Errorf("%s served: weights %v GiB; want the MMDiT and its text encoders, at least %v GiB: %s", name, e.WeightsGiB, perfmodel.ToGiB((mmdit+encoders)*2), e.Formula)
		}
	}
}

// QLoRA keeps the input embedding and the output layer at 16 bits. Where a
// model's output layer is its input embedding (tied: Gemma 2, Llama 3.2 1B,
// OPT), that is one vocabulary × hidden matrix, not two: Gemma 2 9B's
// report counts 917,962,752 embedding parameters in its 9.24B.
func TestTiedEmbeddingsCountedOnce(t *testing.T) {
	for _, c := range []struct {
		name     string
		matrices float64
	}{{"gemma-2-9b", 1}, {"llama-3.2-1b", 1}, {"opt-66b", 1}, {"llama-3.1-8b", 2}, {"qwen2.5-7b", 2}} {
		m, _ := testCatalog(t).Model(c.name)
		e, _, err := estimateMemory(testEngine(t), MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: c.name}, FineTuningMethod: MethodQLoRA})
		if err != nil {
			t.Fatal(err)
		}
		emb := c.matrices * float64(*m.VocabSize) * float64(*m.HiddenSize)
		want := perfmodel.ToGiB((m.ParametersBillion*1e9-emb)*perfmodel.QLoRABaseBytesPerParameter + emb*2)
		if math.Abs(e.WeightsGiB-want) > 0.01 {
			t.Errorf("%s QLoRA frozen base %v GiB; want %v GiB, %v embedding matrices at 16 bits: %s", c.name, e.WeightsGiB, want, c.matrices, e.Formula)
		}
	}
}

// Full fine-tuning and training size each GPU's activations from the
// context, and every GPU keeps them whole: Llama 3.1 8B fine-tuned in full
// needed 149.57 GiB at 4,096 and at 131,072 tokens, "74.79 GiB per GPU" on
// Standard_NC80adis_H100_v5 at both; pretraining it at 131,072 tokens ran
// on 2 ND96isr_H100_v5, whose 80 GB GPUs cannot hold the 111.63 GiB of one
// sequence's activations. Now 4,096 tokens hold 3.49 GiB of them on each
// GPU beside half the states, 63.32 of the 94 × 0.9 = 84.6 GiB each may
// fill (GPUMemoryShare); 131,072 tokens fail gpu_memory_per_gpu on
// every 94 GiB and 80 GiB GPU, with a reason that names the context, and
// LoRA's layouts keep all 111.63 GiB on each GPU.
func TestLongContextActivationsStayOnEachGPU(t *testing.T) {
	const nc = "Standard_NC80adis_H100_v5"
	ft := Request{Workload: WorkloadFineTuning, FineTuningMethod: MethodFull, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(4096), Prefer: []string{nc}, AsOf: asOf}
	res := mustRecommend(t, ft)
	if top := res.Recommendations[0]; top.VMSize != nc || res.Requirements.Memory.GiB != 123.14 ||
		!slices.Contains(top.Reasons, "The states are sharded over 2 GPUs (63.32 GiB per GPU, with its own activations, of 84.6 GiB usable).") {
		t.Errorf("4,096 tokens: %s first, %v GiB, reasons %q", top.VMSize, res.Requirements.Memory.GiB, top.Reasons)
	}
	ft.ContextTokens = i64(131072)
	res = mustRecommend(t, ft)
	if got := rejectedBy(t, testCatalog(t), ft, nc); got != "gpu_memory_per_gpu" || res.Requirements.Memory.ActivationGiB != 111.63 {
		t.Errorf("131,072 tokens: %s fails %q, activations %v GiB", nc, got, res.Requirements.Memory.ActivationGiB)
	}
	r := rejection(res.Rejected, "gpu_memory_per_gpu")
	if r == nil || !strings.Contains(r.Reason, "alone take 111.63 GiB on every GPU") || !strings.Contains(r.Reason, "context parallelism, which splits one sequence over GPUs, is not modelled") {
		t.Errorf("rejection %+v", r)
	}
	ft.FineTuningMethod = MethodLoRA
	train := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(131072), TokensBillion: f64(10), DeadlineHours: f64(72), AsOf: asOf, MaxResults: i64(50)}
	for _, req := range []Request{ft, train} {
		for _, rec := range mustRecommend(t, req).Recommendations {
			if rec.SKU.GPU.MemoryGiBTotal/rec.SKU.GPU.Count < 111.63 {
				t.Errorf("%s %s at 131,072 tokens on %s, %v GiB GPUs", req.Workload, req.FineTuningMethod, rec.VMSize, rec.SKU.GPU.MemoryGiBTotal/rec.SKU.GPU.Count)
			}
		}
	}
}
