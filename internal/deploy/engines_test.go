// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// engineFlags are the flags of the pinned engine versions the arguments
// may use, each with where its documentation defines it.
var engineFlags = map[string]map[string]string{
	"vllm " + VLLMVersion: {
		"--tensor-parallel-size":         "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L798-800",
		"--pipeline-parallel-size":       "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L789-793",
		"--data-parallel-size":           "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L819-821",
		"--max-num-seqs":                 "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L1112-1118",
		"--max-model-len":                "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L669",
		"--kv-cache-dtype":               "vllm-project/vllm:vllm/config/cache.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb (auto, bfloat16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc, fp8_ds_mla)",
		"--quantization":                 "vllm-project/vllm:vllm/model_executor/layers/quantization/__init__.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb (fp8 among QuantizationMethods)",
		"--gpu-memory-utilization":       "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L925-927",
		"--distributed-executor-backend": "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L785-788",
		"--nnodes":                       "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L794-797",
		"--node-rank":                    "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L794-797",
		"--master-addr":                  "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L794-797",
		"--hf-overrides":                 "vllm-project/vllm:vllm/engine/arg_utils.py@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb L708 (JSON, union_dict_and_str L143-146)",
	},
	"sglang " + SGLangVersion: {
		"--tp-size":                  "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L816-822",
		"--pp-size":                  "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L830-836",
		"--dp-size":                  "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L842-848",
		"--max-running-requests":     "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L635-637",
		"--context-length":           "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L470-477",
		"--kv-cache-dtype":           "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd (auto, fp8_e5m2, fp8_e4m3, bf16, bfloat16, fp4_e2m1)",
		"--quantization":             "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L128-165 (fp8)",
		"--mem-fraction-static":      "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L631-634",
		"--nnodes":                   "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L807-815",
		"--node-rank":                "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L807-815",
		"--dist-init-addr":           "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L807-815",
		"--json-model-override-args": "sgl-project/sglang:python/sglang/srt/server_args.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd L513-516 (a JSON string)",
	},
}

// engineValues are the values the pinned versions accept for the flags
// whose values are a closed list.
var engineValues = map[string]map[string][]string{
	"vllm " + VLLMVersion:     {"--kv-cache-dtype": {"auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla"}, "--quantization": {"fp8"}, "--distributed-executor-backend": {"ray", "mp", "uni", "external_launcher"}},
	"sglang " + SGLangVersion: {"--kv-cache-dtype": {"auto", "fp8_e5m2", "fp8_e4m3", "bf16", "bfloat16", "fp4_e2m1"}, "--quantization": {"fp8"}},
}

// checkEngineArgs fails for an argument that is not --flag=value with a
// flag and value the pinned engine documents.
func checkEngineArgs(t *testing.T, engine string, args []string) {
	t.Helper()
	for _, a := range args {
		flag, value, ok := strings.Cut(a, "=")
		if _, known := engineFlags[engine][flag]; !ok || !known || value == "" {
			t.Errorf("%s: %q is not --flag=value with a flag of the pinned documentation", engine, a)
			continue
		}
		if allowed, closed := engineValues[engine][flag]; closed && !slices.Contains(allowed, value) {
			t.Errorf("%s: %s=%s, allowed %v", engine, flag, value, allowed)
		}
	}
}

// Every layout's arguments use the pinned engines' flags and values: one
// GPU, fp8 with its KV cache, a copy over two VMs, a published quantised
// checkpoint, int8 on Blackwell (no vLLM arguments).
func TestServingArgsUseDocumentedFlags(t *testing.T) {
	for _, sv := range []ServedLayout{
		{TP: 1, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 256, Context: 4096, Precision: "bf16", MemoryShare: 0.9, CC: 75},
		{TP: 4, PP: 1, CopiesPerVM: 2, SeqsPerCopy: 1024, Context: 8192, Precision: "fp8", KVFP8: true, MemoryShare: 0.9, CC: 90},
		{TP: 8, PP: 2, CopiesPerVM: 1, SeqsPerCopy: 64, Context: 131072, Precision: "bf16", MemoryShare: 0.9, CC: 90},
		{TP: 2, PP: 1, CopiesPerVM: 4, SeqsPerCopy: 512, Context: 4096, Precision: "fp4", Checkpoint: "mxfp4", MemoryShare: 0.9, CC: 100},
		{TP: 1, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 256, Context: 4096, Precision: "int8", MemoryShare: 0.9, CC: 120, NoVLLMINT8: true},
		{TP: 2, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 16, Context: 65536, Precision: "bf16", MemoryShare: 0.9, CC: 90, ConfigContext: 40960, YaRN: qwen3YaRN},
	} {
		q, _ := quantization(&sv)
		checkEngineArgs(t, "vllm "+VLLMVersion, vllm.args(&sv, q))
		checkEngineArgs(t, "sglang "+SGLangVersion, sglang.args(&sv, q))
	}
}

// --quantization=fp8 quantizes a 16-bit checkpoint as it loads; a
// checkpoint that names its own quantization (gpt-oss's MXFP4, an fp8
// DeepSeek) takes no --quantization the engines would refuse, and a
// precision other than the checkpoint's says which checkpoint to serve.
func TestQuantizationFlagOnlyOverA16BitCheckpoint(t *testing.T) {
	for _, c := range []struct {
		precision, checkpoint, method, note string
	}{
		{"fp8", "bf16", "fp8", "quantizes the 16-bit checkpoint"},
		{"fp8", "", "fp8", "quantizes the 16-bit checkpoint"},
		{"fp8", "mxfp4", "", "Serve a checkpoint quantized to fp8"},
		{"fp8", "fp8", "", "names its quantization"},
		{"fp4", "mxfp4", "", "names its quantization"},
		{"bf16", "mxfp4", "", "serve a bf16 checkpoint"},
		{"bf16", "bf16", "", ""},
		{"int4", "bf16", "", "Serve a checkpoint quantized to int4"},
	} {
		method, note := quantization(&ServedLayout{Precision: c.precision, Checkpoint: c.checkpoint})
		if method != c.method || !strings.Contains(note, c.note) || (c.note == "") != (note == "") {
			t.Errorf("%s over a %q checkpoint: --quantization %q, note %q", c.precision, c.checkpoint, method, note)
		}
	}
}

// A precision served from a checkpoint quantized to it names the formats
// the engines load at that precision, and no other's: fp4 an NVFP4 or
// MXFP4 checkpoint, int4 AWQ or GPTQ, int8 W8A8.
func TestQuantizedCheckpointAdviceMatchesTheFormat(t *testing.T) {
	for _, c := range []struct {
		precision string
		want      []string
		not       []string
	}{
		{"fp4", []string{"NVFP4", "MXFP4"}, []string{"AWQ", "GPTQ", "W8A8", "int4", "int8"}},
		{"int4", []string{"AWQ", "GPTQ"}, []string{"NVFP4", "MXFP4", "W8A8", "int8", "fp4"}},
		{"int8", []string{"W8A8"}, []string{"NVFP4", "MXFP4", "AWQ", "GPTQ", "int4", "fp4"}},
	} {
		for _, checkpoint := range []string{"bf16", ""} {
			method, note := quantization(&ServedLayout{Precision: c.precision, Checkpoint: checkpoint})
			bad := method != "" || !strings.Contains(note, "Serve a checkpoint quantized to "+c.precision)
			for _, w := range c.want {
				bad = bad || !strings.Contains(note, w)
			}
			for _, n := range c.not {
				bad = bad || strings.Contains(note, n)
			}
			if bad {
				t.Errorf("%s over a %q checkpoint: --quantization %q, note %q", c.precision, checkpoint, method, note)
			}
		}
	}
}

// Each engine's arguments only for the AMD architectures its ROCm build
// supports: an MI300X (gfx942) and an MI355X (gfx950) get both; a Radeon
// PRO V710 (gfx1101) and an MI200 (gfx90a) vLLM's alone, with a note that
// SGLang does not serve them; a Radeon PRO V620 (gfx1030) and a gfx900
// neither, with a note that neither engine serves the GPU.
func TestEngineArgsOnlyForTheROCmTargetsTheySupport(t *testing.T) {
	for _, c := range []struct {
		gfx          string
		vllm, sglang bool
		note         string
	}{
		{"gfx942", true, true, ""},
		{"gfx950", true, true, ""},
		{"gfx1101", true, false, "SGLang's ROCm build does not support"},
		{"gfx90a", true, false, "SGLang's ROCm build does not support"},
		{"gfx1030", false, false, "Neither vLLM nor SGLang serves"},
		{"gfx900", false, false, "Neither vLLM nor SGLang serves"},
	} {
		sku := &catalog.SKU{Name: "x", GPU: &catalog.GPU{Count: 1, Vendor: catalog.VendorAMD, GfxTarget: c.gfx}}
		d := servingFor(&Layout{SKU: sku, Served: &ServedLayout{TP: 1, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 8, Context: 4096, Precision: "bf16", MemoryShare: 0.9, GfxTarget: c.gfx}})
		if (d.VLLMArgs != nil) != c.vllm || (d.SGLangArgs != nil) != c.sglang || (c.note == "") != (d.Note == "") || !strings.Contains(d.Note, c.note) || (c.note != "" && !strings.Contains(d.Note, c.gfx)) {
			t.Errorf("%s: vLLM %v, SGLang %v, note %q; want vLLM %v, SGLang %v, note with %q", c.gfx, d.VLLMArgs, d.SGLangArgs, d.Note, c.vllm, c.sglang, c.note)
		}
	}
}

// SGLang's arguments only from compute capability 7.5 (SGLangMinComputeCapability):
// none on a V100 (7.0), with a note to serve it with vLLM; a T4 (7.5) and
// an H100 (9.0) get both engines' arguments and no note.
func TestSGLangArgsOnlyFromComputeCapability75(t *testing.T) {
	for _, c := range []struct {
		cc     int
		sglang bool
	}{{70, false}, {75, true}, {90, true}} {
		sku := &catalog.SKU{Name: "x", GPU: &catalog.GPU{Count: 1, Vendor: catalog.VendorNVIDIA}}
		d := servingFor(&Layout{SKU: sku, Served: &ServedLayout{TP: 1, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 8, Context: 4096, Precision: "bf16", MemoryShare: 0.9, CC: c.cc}})
		if d.VLLMArgs == nil || (d.SGLangArgs != nil) != c.sglang || c.sglang != (d.Note == "") || (!c.sglang && !strings.Contains(d.Note, "serve the model with vLLM")) {
			t.Errorf("CC %d: vLLM %v, SGLang %v, note %q; want SGLang arguments %v", c.cc, d.VLLMArgs, d.SGLangArgs, d.Note, c.sglang)
		}
	}
}

// int4 names the formats vLLM runs on the GPU: GPTQ alone below compute
// capability 7.5 (AWQMinComputeCapability), AWQ or GPTQ from it.
func TestInt4CheckpointFormatsFollowComputeCapability(t *testing.T) {
	for _, c := range []struct {
		cc       int
		awq      bool
		gptqOnly bool
	}{{70, false, true}, {75, true, false}, {90, true, false}} {
		_, note := quantization(&ServedLayout{Precision: "int4", Checkpoint: "bf16", CC: c.cc})
		if strings.Contains(note, "AWQ or GPTQ") != c.awq || strings.Contains(note, "int4 (GPTQ;") != c.gptqOnly {
			t.Errorf("CC %d: note %q; want AWQ named %v", c.cc, note, c.awq)
		}
	}
}

// qwen3YaRN is Qwen3's YaRN: factor 4 over 32,768 positions, RoPE base 1e6.
var qwen3YaRN = &catalog.YaRNDoc{Factor: 4, OriginalMaxPositionEmbeddings: 32768, RopeTheta: 1e6}

// A context above the checkpoint config's (Qwen3's 40,960) takes YaRN as
// one JSON argument: vLLM's --hf-overrides under rope_parameters, the key
// v0.16.0 reads; SGLang's arguments with --json-model-override-args under
// rope_scaling go into the note beside SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1,
// without which SGLang refuses the context, and sglang_args is null. The
// note says YaRN is applied only because the context needs it. At or
// below the config's context, and for a model without a config context,
// nothing is added.
func TestYaRNOnlyAboveTheConfigContext(t *testing.T) {
	sku := &catalog.SKU{Name: "x", GPU: &catalog.GPU{Count: 1, Vendor: catalog.VendorNVIDIA}}
	for _, c := range []struct {
		context, config int64
		y               *catalog.YaRNDoc
		yarn            bool
	}{{65536, 40960, qwen3YaRN, true}, {131072, 32768, qwen3YaRN, true}, {40960, 40960, qwen3YaRN, false}, {32768, 40960, qwen3YaRN, false}, {65536, 0, nil, false}} {
		sv := &ServedLayout{TP: 1, PP: 1, CopiesPerVM: 1, SeqsPerCopy: 8, Context: c.context, Precision: "bf16", MemoryShare: 0.9, CC: 90, ConfigContext: c.config, YaRN: c.y}
		d := servingFor(&Layout{SKU: sku, Served: sv})
		override := ""
		for _, a := range d.VLLMArgs {
			if v, ok := strings.CutPrefix(a, "--hf-overrides="); ok {
				override = v
			}
		}
		var got map[string]map[string]any
		if c.yarn {
			if err := json.Unmarshal([]byte(override), &got); err != nil || got["rope_parameters"]["rope_type"] != "yarn" || got["rope_parameters"]["factor"] != 4.0 ||
				got["rope_parameters"]["original_max_position_embeddings"] != 32768.0 || got["rope_parameters"]["rope_theta"] != 1e6 {
				t.Errorf("context %d over %d: --hf-overrides %q (%v); want rope_parameters with the YaRN", c.context, c.config, override, err)
			}
			if d.SGLangArgs != nil || !strings.Contains(d.Note, SGLangLongerContextEnv) || !strings.Contains(d.Note, `--json-model-override-args={"rope_scaling":{"rope_type":"yarn"`) ||
				!strings.Contains(d.Note, "only because the context needs it") {
				t.Errorf("context %d over %d: SGLang %v, note %q", c.context, c.config, d.SGLangArgs, d.Note)
			}
			continue
		}
		if override != "" || d.SGLangArgs == nil || d.Note != "" {
			t.Errorf("context %d over %d: --hf-overrides %q, SGLang %v, note %q; want neither override nor note", c.context, c.config, override, d.SGLangArgs, d.Note)
		}
	}
}
