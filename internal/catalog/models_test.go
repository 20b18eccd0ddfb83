// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// referenceModelExceptions are the figures a decision has changed since
// the reference models.csv: model, column, decision, catalog figure.
var referenceModelExceptions = map[[2]string]struct {
	decision, value string
}{
	{"mixtral-8x22b", "vocab_size"}: {"D30", "32000"},
	{"deepseek-v3", "display_name"}: {"D30", "DeepSeek-V3 (671B)"},
	{"deepseek-v3", "license"}:      {"D30", "DeepSeek Model License (weights; code MIT)"},
}

// TestModelsMatchReference compares every model with the reference
// models.csv row it was converted from: every column, no exception but
// where a decision listed in referenceModelExceptions says so. Models
// added since are listed in the golden summary.
func TestModelsMatchReference(t *testing.T) {
	c := mustDefault(t)
	for _, r := range referenceCSV(t, "models.csv") {
		m, ok := c.Model(r["id"])
		if !ok {
			t.Errorf("model %s is missing", r["id"])
			continue
		}
		r = withReferenceExceptions(r, m)
		if m.ID != r["id"] || m.Name != r["display_name"] || m.Family != r["family"] || m.Kind != r["kind"] ||
			m.Precision != r["native_precision"] || m.License != r["license"] {
			t.Errorf("%s: %q %q %q %q %q, models.csv %q %q %q %q %q", r["id"], m.Name, m.Family, m.Kind, m.Precision, m.License,
				r["display_name"], r["family"], r["kind"], r["native_precision"], r["license"])
		}
		if m.ParametersBillion != *refFloat(t, r["parameters_billion"]) || m.ActiveParametersBillion != *refFloat(t, r["active_parameters_billion"]) {
			t.Errorf("%s: parameters %v / %v, models.csv %s / %s", r["id"], m.ParametersBillion, m.ActiveParametersBillion, r["parameters_billion"], r["active_parameters_billion"])
		}
		for col, got := range map[string]*int64{
			"num_layers": m.Layers, "hidden_size": m.HiddenSize, "num_attention_heads": m.AttentionHeads, "num_kv_heads": m.KVHeads,
			"head_dim": m.HeadDim, "intermediate_size": m.IntermediateSize, "vocab_size": m.VocabSize,
			"max_context_tokens": m.MaxContextTokens, "num_experts": m.Experts, "experts_per_token": m.ActiveExperts,
		} {
			want := refInt(t, r[col])
			if (got == nil) != (want == nil) || (got != nil && *got != *want) {
				t.Errorf("%s %s = %s, models.csv %q", r["id"], col, show(got), r[col])
			}
		}
		if len(m.Sources) == 0 {
			t.Errorf("%s has no sources", m.ID)
		}
	}
}

// withReferenceExceptions is a models.csv row with the figures a decision
// the model lists has changed (referenceModelExceptions).
func withReferenceExceptions(r map[string]string, m *Model) map[string]string {
	r = maps.Clone(r)
	for k, e := range referenceModelExceptions {
		if k[0] == m.ID && slices.Contains(m.Decisions, e.decision) {
			r[k[1]] = e.value
		}
	}
	return r
}

// TestModelHandValues pins facts the memory estimates use, from the models'
// configs as cited in models.json.
func TestModelHandValues(t *testing.T) {
	c := mustDefault(t)
	get := func(id string) *Model {
		t.Helper()
		m, ok := c.Model(id)
		if !ok {
			t.Fatalf("model %s missing", id)
		}
		return m
	}
	// Llama 3.1 8B config: 32 layers, 32 heads, 8 KV heads, head_dim 128, bf16.
	l := get("llama-3.1-8b")
	if *l.Layers != 32 || *l.AttentionHeads != 32 || *l.KVHeads != 8 || *l.HeadDim != 128 || l.AttentionKind != AttentionGQA ||
		l.Precision != "bf16" || l.PrecisionBits != 16 || *l.MaxContextTokens != 131072 || l.Experts != nil {
		t.Errorf("llama-3.1-8b = %+v", l)
	}
	// gpt-oss-120b: 128 experts, 4 per token, MXFP4 = 4 bits + an 8-bit
	// scale per 32 values = 4.25 bits; alternate layers windowed at 128.
	g := get("gpt-oss-120b")
	if g.Kind != ModelKindMoE || *g.Experts != 128 || *g.ActiveExperts != 4 || g.Precision != "mxfp4" || g.PrecisionBits != 4+8.0/32 ||
		*g.SlidingWindow != 128 || *g.SlidingWindowLayers != 18 || *g.Layers != 36 || g.ActiveParametersBillion != 5.1 {
		t.Errorf("gpt-oss-120b = %+v", g)
	}
	// DeepSeek-V3: MLA with a 512-wide latent and a 64-wide RoPE key, no
	// KV heads; 671B total, 37B active, FP8 weights; one shared expert.
	d := get("deepseek-v3")
	if d.AttentionKind != AttentionMLA || d.KVHeads != nil || *d.KVLoRARank != 512 || *d.QKRopeHeadDim != 64 ||
		d.ParametersBillion != 671 || d.ActiveParametersBillion != 37 || d.PrecisionBits != 8 || *d.SharedExperts != 1 {
		t.Errorf("deepseek-v3 = %+v", d)
	}
	// Mixtral 8x22B is the base model, Mixtral-8x22B-v0.1, as Mixtral 8x7B
	// is: its vocabulary is 32,000 (mistral-inference's README: the v0.3
	// tar extends it to 32,768, the Instruct v0.1 vocabulary).
	for _, id := range []string{"mixtral-8x22b", "mixtral-8x7b"} {
		if m := get(id); *m.VocabSize != 32000 {
			t.Errorf("%s (%s) vocab_size = %d, want the base v0.1 model's 32000", id, m.Name, *m.VocabSize)
		}
	}
	// Plain multi-head attention follows from equal head counts.
	if b := get("bert-base"); b.AttentionKind != AttentionMHA || b.PrecisionBits != 32 {
		t.Errorf("bert-base attention %q, bits %v", b.AttentionKind, b.PrecisionBits)
	}
	// SDXL has no transformer-shaped facts at all.
	if s := get("stable-diffusion-xl"); s.Layers != nil || s.AttentionHeads != nil || s.AttentionKind != "" || s.MaxContextTokens != nil || s.Kind != ModelKindDiffusion {
		t.Errorf("stable-diffusion-xl = %+v", s)
	}
	// Ordered by id.
	ms := c.Models()
	for i := 1; i < len(ms); i++ {
		if ms[i-1].ID >= ms[i].ID {
			t.Errorf("models out of order: %s before %s", ms[i-1].ID, ms[i].ID)
		}
	}
}

func TestModelLookupAndSuggest(t *testing.T) {
	c := mustDefault(t)
	ref := referenceNames(t)
	for _, q := range []string{"llama-3.1-8b", "LLAMA-3.1-8B", " Llama 3.1 8B ", "llama 3.1 8b"} {
		if m, ok := c.Model(q); !ok || m.ID != "llama-3.1-8b" {
			t.Errorf("Model(%q) = %v, %v", q, m, ok)
		}
	}
	if m, ok := c.Model("DeepSeek-V3 (671B)"); !ok || m.ID != "deepseek-v3" {
		t.Errorf("Model by display name = %v, %v", m, ok)
	}
	for _, q := range []string{"", "llama", "llama-3.1-8", "gpt-5"} {
		if m, ok := c.Model(q); ok {
			t.Errorf("Model(%q) = %s, want not found", q, m.ID)
		}
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		// Contained in the id or name first, by edit distance.
		{"mixtral", []string{"mixtral-8x7b", "mixtral-8x22b", "mistral-7b-v0.3"}},
		{"llama-3.1-8", []string{"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"}},
		{"gpt-oss-12b", []string{"gpt-oss-120b", "gpt-oss-20b", "opt-1.3b"}},
		// "Qwen3 8B" is 2 edits from the query; "qwen3-235" (its first 9
		// characters) 3.
		{"Qwen3 32B", []string{"qwen3-32b", "qwen3-8b", "qwen3-235b-a22b"}},
		// An empty query gets the shortest ids or names.
		{"", []string{"phi-4", "opt-66b", "opt-1.3b"}},
	} {
		if got := ref.Suggest(ModelName, tc.q); !equalStrings(got, tc.want) {
			t.Errorf("SuggestModels(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func validModel() ModelDoc {
	return ModelDoc{
		ID: "test-7b", Name: "Test 7B", Family: "test", Kind: ModelKindGenerative, ParametersBillion: 7, ActiveParametersBillion: f64(7),
		Layers: i64(32), HiddenSize: i64(4096), AttentionHeads: i64(32), KVHeads: i64(8), HeadDim: i64(128), MaxContextTokens: i64(8192),
		Precision: "bf16", License: "Apache-2.0", Sources: []string{"test"},
	}
}

// yarn is YaRN scaling by factor from original positions, RoPE base 10,000.
func yarn(factor float64, original int64) *YaRNDoc {
	return &YaRNDoc{Factor: factor, OriginalMaxPositionEmbeddings: original, RopeTheta: 10000}
}

func TestModelRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*ModelDoc)
		want string
	}{
		{"upper-case id", func(m *ModelDoc) { m.ID = "Test-7B" }, `id "Test-7B" must be lower-case`},
		{"no name", func(m *ModelDoc) { m.Name = " " }, "name is required"},
		{"kind", func(m *ModelDoc) { m.Kind = "llm" }, `kind "llm" is not one of diffusion, encoder, generative, moe, speech, vision`},
		{"no parameters", func(m *ModelDoc) { m.ParametersBillion = 0 }, "parameters_billion must be a positive number"},
		{"active above total", func(m *ModelDoc) { m.ActiveParametersBillion = f64(8) }, "active_parameters_billion 8 must be positive and at most parameters_billion 7"},
		{"dense with fewer active", func(m *ModelDoc) { m.ActiveParametersBillion = f64(6) }, "a dense (generative) model's active_parameters_billion must equal"},
		{"heads not divisible", func(m *ModelDoc) { m.KVHeads = i64(5) }, "attention_heads 32 must be a multiple of kv_heads 5"},
		{"more KV heads", func(m *ModelDoc) { m.KVHeads = i64(64) }, "attention_heads 32 must be a multiple of kv_heads 64"},
		{"KV heads alone", func(m *ModelDoc) { m.AttentionHeads = nil }, "kv_heads is given without attention_heads"},
		{"negative layers", func(m *ModelDoc) { m.Layers = i64(-1) }, "layers must be positive"},
		{"moe without experts", func(m *ModelDoc) { m.Kind = ModelKindMoE; m.ActiveParametersBillion = f64(2) }, "a moe model needs experts and active_experts"},
		{"moe active experts", func(m *ModelDoc) {
			m.Kind, m.ActiveParametersBillion, m.Experts, m.ActiveExperts = ModelKindMoE, f64(2), i64(8), i64(9)
		}, "active_experts 9 is more than experts 8"},
		{"moe all active", func(m *ModelDoc) { m.Kind, m.Experts, m.ActiveExperts = ModelKindMoE, i64(8), i64(2) }, "must be below parameters_billion"},
		{"dense with experts", func(m *ModelDoc) { m.Experts = i64(8) }, `experts are given, but kind is "generative"`},
		{"precision", func(m *ModelDoc) { m.Precision = "fp6" }, `precision "fp6" is not one of bf16, fp16, fp32, fp8, int4, int8, mxfp4, nf4, nvfp4`},
		{"no license", func(m *ModelDoc) { m.License = "" }, "license is required"},
		{"no sources", func(m *ModelDoc) { m.Sources = nil }, "no sources"},
		{"undefined decision", func(m *ModelDoc) { m.Decisions = []string{"D99"} }, `decision "D99" is not defined`},
		{"attention kind disagrees", func(m *ModelDoc) { m.Attention = &AttentionDoc{Kind: AttentionMHA} }, `attention.kind "mha" disagrees with 32 attention heads and 8 KV heads (gqa)`},
		{"unknown attention kind", func(m *ModelDoc) { m.Attention = &AttentionDoc{Kind: "linear"} }, `attention.kind "linear" is not one of gqa, mha, mla, mqa`},
		{"mla without rank", func(m *ModelDoc) { m.KVHeads = nil; m.Attention = &AttentionDoc{Kind: AttentionMLA} }, "kv_lora_rank and attention.qk_rope_head_dim are given exactly for kind mla"},
		{"rank without mla", func(m *ModelDoc) { m.Attention = &AttentionDoc{KVLoRARank: i64(512), QKRopeHeadDim: i64(64)} }, "given exactly for kind mla"},
		{"heads without KV heads", func(m *ModelDoc) { m.KVHeads = nil }, "attention_heads without kv_heads needs attention.kind (mla)"},
		{"window without layers", func(m *ModelDoc) { m.Attention = &AttentionDoc{SlidingWindow: i64(4096)} }, "sliding_window and attention.sliding_window_layers go together"},
		{"checkpoint without sources", func(m *ModelDoc) { m.CheckpointGiB = map[string]float64{"bf16": 14} }, "checkpoint_gib needs checkpoint_sources"},
		{"sources without checkpoint", func(m *ModelDoc) { m.CheckpointSources = []string{"https://example.org/x"} }, "checkpoint_sources without checkpoint_gib"},
		{"checkpoint precision", func(m *ModelDoc) {
			m.CheckpointGiB, m.CheckpointSources = map[string]float64{"fp6": 6}, []string{"https://example.org/x"}
		}, `checkpoint_gib: precision "fp6" is not one of`},
		{"checkpoint below the weights", func(m *ModelDoc) {
			m.CheckpointGiB, m.CheckpointSources = map[string]float64{"bf16": 12}, []string{"https://example.org/x"}
		}, "checkpoint_gib[bf16] = 12 is outside 0.95 to 1.5 times parameters × bits (13.0 GiB)"},
		{"checkpoint source form", func(m *ModelDoc) {
			m.CheckpointGiB, m.CheckpointSources = map[string]float64{"bf16": 14}, []string{"the model card"}
		}, "checkpoint_sources:"},
		{"tied embeddings without a vocabulary", func(m *ModelDoc) { m.TiedEmbeddings, m.VocabSize = true, nil }, "tied_embeddings needs vocab_size and hidden_size"},
		{"tied embedding above the parameters", func(m *ModelDoc) { m.TiedEmbeddings, m.VocabSize = true, i64(2_000_000) }, "vocab_size × hidden_size (8.192e+09) is not less than parameters_billion"},
		{"more windowed layers than layers", func(m *ModelDoc) {
			m.Attention = &AttentionDoc{SlidingWindow: i64(4096), SlidingWindowLayers: i64(33)}
		}, "sliding_window_layers 33 must be at most layers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := validModel()
			tc.mod(&m)
			docs := append(testDocs(), Document{Models: []ModelDoc{m}})
			_, err := Build(docs, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A name that is another model's id is ambiguous.
	a, b := validModel(), validModel()
	b.ID, b.Name = "test-7b-chat", "TEST-7B"
	if _, err := Build(append(testDocs(), Document{Models: []ModelDoc{a, b}}), nil, nil); err == nil || !strings.Contains(err.Error(), `"test-7b" is already the id or name of model test-7b`) {
		t.Errorf("Build error = %v", err)
	}
	// A later document's entry replaces an earlier one's with the same id.
	a2 := validModel()
	a2.ID, a2.MaxContextTokens = "TEST-7B", i64(32768)
	a2.ID = "test-7b"
	c, err := Build(append(testDocs(), Document{Models: []ModelDoc{a}}, Document{Models: []ModelDoc{a2}}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := c.Model("test-7b"); len(c.Models()) != 1 || *m.MaxContextTokens != 32768 {
		t.Errorf("models after the replacement: %d, context %s", len(c.Models()), show(m.MaxContextTokens))
	}
}

// An encoder-decoder's cached decoder is a speech model's, with positive
// layers and positions, the head counts and decoder tokens it is sized
// from, and sources.
func TestEncoderDecoderRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*ModelDoc)
		want string
	}{
		{"encoder_decoder on a language model", func(m *ModelDoc) {
			m.EncoderDecoder = &EncoderDecoderDoc{DecoderLayers: 32, EncoderPositions: 1500, Sources: []string{"https://example.org/x"}}
		}, `encoder_decoder is for a speech model, not kind "generative"`},
		{"encoder_decoder without positions", func(m *ModelDoc) {
			m.Kind, m.EncoderDecoder = ModelKindSpeech, &EncoderDecoderDoc{DecoderLayers: 32, Sources: []string{"https://example.org/x"}}
		}, "encoder_decoder needs positive decoder_layers and encoder_positions"},
		{"encoder_decoder without heads", func(m *ModelDoc) {
			m.Kind, m.KVHeads, m.EncoderDecoder = ModelKindSpeech, nil, &EncoderDecoderDoc{DecoderLayers: 32, EncoderPositions: 1500, Sources: []string{"https://example.org/x"}}
		}, "encoder_decoder needs kv_heads, head_dim and max_context_tokens"},
		{"encoder_decoder without sources", func(m *ModelDoc) {
			m.Kind, m.EncoderDecoder = ModelKindSpeech, &EncoderDecoderDoc{DecoderLayers: 32, EncoderPositions: 1500}
		}, "encoder_decoder needs sources"},
		{"encoder_decoder source form", func(m *ModelDoc) {
			m.Kind, m.EncoderDecoder = ModelKindSpeech, &EncoderDecoderDoc{DecoderLayers: 32, EncoderPositions: 1500, Sources: []string{"the config"}}
		}, "encoder_decoder.sources:"},
	} {
		m := validModel()
		tc.mod(&m)
		if _, err := Build(append(testDocs(), Document{Models: []ModelDoc{m}}), nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Build error = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// The work per sample is only for the kinds timed by samples, at least 2
// FLOPs per parameter, with the sample it is counted on and its sources.
func TestModelSampleWorkRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*ModelDoc)
		want string
	}{
		{"forward on a language model", func(m *ModelDoc) {
			m.ForwardGFLOPs, m.ReferenceInput, m.WorkSources = f64(100), "one token", []string{"https://example.org/x"}
		}, "forward_gflops is for the kinds timed by samples (diffusion, speech, vision), not generative"},
		{"forward below the parameters", func(m *ModelDoc) {
			m.Kind, m.KVHeads, m.AttentionHeads = ModelKindVision, nil, nil
			m.ForwardGFLOPs, m.ReferenceInput, m.WorkSources = f64(10), "224x224 image", []string{"https://example.org/x"}
		}, "forward_gflops = 10 is below 2 FLOPs per trained parameter (14 GFLOPs)"},
		{"frozen parameters of the whole model", func(m *ModelDoc) { m.FrozenParametersBillion = f64(m.ParametersBillion) }, "frozen_parameters_billion = 7 must be greater than 0 and less than parameters_billion (7)"},
		{"forward without a reference input", func(m *ModelDoc) {
			m.Kind, m.KVHeads, m.AttentionHeads = ModelKindVision, nil, nil
			m.ForwardGFLOPs, m.WorkSources = f64(100), []string{"https://example.org/x"}
		}, "forward_gflops needs reference_input"},
		{"forward without sources", func(m *ModelDoc) {
			m.Kind, m.KVHeads, m.AttentionHeads = ModelKindVision, nil, nil
			m.ForwardGFLOPs, m.ReferenceInput = f64(100), "224x224 image"
		}, "forward_gflops needs work_sources"},
		{"frozen alone", func(m *ModelDoc) { m.FrozenGFLOPs = f64(100) }, "frozen_gflops, reference_input and work_sources need forward_gflops"},
		{"negative frozen", func(m *ModelDoc) {
			m.Kind, m.KVHeads, m.AttentionHeads = ModelKindDiffusion, nil, nil
			m.ForwardGFLOPs, m.FrozenGFLOPs, m.ReferenceInput, m.WorkSources = f64(100), f64(-1), "one step", []string{"https://example.org/x"}
		}, "frozen_gflops = -1 must be greater than 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := validModel()
			tc.mod(&m)
			_, err := Build(append(testDocs(), Document{Models: []ModelDoc{m}}), nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestModelsThroughCatalogFile adds a model and corrects another through a
// catalog file's models section.
func TestModelsThroughCatalogFile(t *testing.T) {
	f, err := LoadCatalogFile("testdata/catalog_file_perf.json")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := mustOverlay(t, Overlays{Catalog: f})
	if n := len(mustDefault(t).Models()); len(c.Models()) != n+1 {
		t.Errorf("%d models, want %d + 1", len(c.Models()), n)
	}
	if m, ok := c.Model("Qwen3 14B"); !ok || m.ID != "qwen3-14b" || *m.Layers != 40 || *m.KVHeads != 8 {
		t.Errorf("added model = %+v, %v", m, ok)
	}
	if m, _ := c.Model("llama-3.1-8b"); m.Precision != "fp8" || m.PrecisionBits != 8 || m.Notes == "" {
		t.Errorf("corrected model = %+v", m)
	}
	if m, _ := mustDefault(t).Model("llama-3.1-8b"); m.Precision != "bf16" {
		t.Errorf("embedded model changed: %+v", m)
	}
	if _, ok := mustDefault(t).Model("qwen3-14b"); ok {
		t.Error("embedded catalog gained the overlay's model")
	}
	for _, tc := range []struct{ name, in, entry, field, want string }{
		{"unknown field", `{"models": [{"id": "x", "params": 7}]}`, "models[0] (x)", "params", "unknown field"},
		{"listed twice", `{"models": [{"id": "a"}, {"id": "A"}]}`, "models[1] (A)", "id", "duplicate"},
		{"no id", `{"models": [{"name": "A"}]}`, "models[0]", "id", "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCatalogFile("extra.json", []byte(tc.in))
			wantFileError(t, err, tc.entry, tc.field, tc.want)
		})
	}
	f, err = ParseCatalogFile("extra.json", []byte(`{"models": [{"id": "tiny", "name": "Tiny", "kind": "moe", "parameters_billion": 1, "precision": "bf16", "license": "MIT", "sources": ["x"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = mustDefault(t).WithOverlays(Overlays{Catalog: f})
	wantFileError(t, err, "model tiny", "", "a moe model needs experts and active_experts")
}

// The model ids the schema documents are the embedded table's, in order.
func TestEmbeddedModelIDs(t *testing.T) {
	ids, err := EmbeddedModelIDs()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range cat.Models() {
		want = append(want, m.ID)
	}
	if !slices.Equal(ids, want) || len(ids) == 0 {
		t.Errorf("EmbeddedModelIDs = %v, want %v", ids, want)
	}
}

// The Qwen3 and Qwen2.5 checkpoints' configs allow less context than the
// YaRN maximum: Qwen3's config.json 40,960 positions, the Qwen2.5 Instruct
// configs 32,768; each reaches 131,072 with YaRN factor 4 over 32,768
// positions and RoPE base 1,000,000 (the cards' Processing Long Texts, the
// configs in context_sources). Other models give no config context.
func TestConfigContextBelowTheYaRNMaximum(t *testing.T) {
	c := mustDefault(t)
	want := map[string]int64{
		"qwen3-8b": 40960, "qwen3-32b": 40960, "qwen3-235b-a22b": 40960,
		"qwen2.5-7b": 32768, "qwen2.5-14b": 32768, "qwen2.5-32b": 32768, "qwen2.5-72b": 32768,
	}
	for _, m := range c.Models() {
		w, ok := want[m.ID]
		if !ok {
			if m.ConfigContextTokens != 0 || m.YaRN != nil {
				t.Errorf("%s: config context %d, yarn %+v; want none", m.ID, m.ConfigContextTokens, m.YaRN)
			}
			continue
		}
		y := m.YaRN
		if m.ConfigContextTokens != w || y == nil || y.Factor != 4 || y.OriginalMaxPositionEmbeddings != 32768 || y.RopeTheta != 1e6 || len(m.ContextSources) == 0 {
			t.Errorf("%s: config context %d, yarn %+v, sources %v; want %d, factor 4 over 32768, rope_theta 1e6", m.ID, m.ConfigContextTokens, y, m.ContextSources, w)
		}
	}
}

// A config context goes with YaRN and sources, below max_context_tokens,
// and YaRN reaches max_context_tokens.
func TestModelConfigContextRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*ModelDoc)
		want string
	}{
		{"config context without yarn", func(m *ModelDoc) {
			m.ConfigContextTokens, m.ContextSources = i64(4096), []string{"https://example.org/x"}
		}, "config_context_tokens and yarn go together"},
		{"config context without sources", func(m *ModelDoc) { m.ConfigContextTokens, m.YaRN = i64(4096), yarn(2, 4096) }, "config_context_tokens needs context_sources"},
		{"config context at the maximum", func(m *ModelDoc) {
			m.ConfigContextTokens, m.YaRN, m.ContextSources = i64(8192), yarn(2, 4096), []string{"https://example.org/x"}
		}, "config_context_tokens = 8192 must be positive and below max_context_tokens (8192)"},
		{"yarn short of the maximum", func(m *ModelDoc) {
			m.ConfigContextTokens, m.YaRN, m.ContextSources = i64(4096), yarn(1.5, 4096), []string{"https://example.org/x"}
		}, "yarn reaches 6144 tokens (factor × original_max_position_embeddings), below max_context_tokens (8192)"},
		{"yarn factor", func(m *ModelDoc) {
			m.ConfigContextTokens, m.YaRN, m.ContextSources = i64(4096), yarn(1, 8192), []string{"https://example.org/x"}
		}, "yarn needs a factor above 1"},
		{"context source form", func(m *ModelDoc) {
			m.ConfigContextTokens, m.YaRN, m.ContextSources = i64(4096), yarn(2, 4096), []string{"the model card"}
		}, "context_sources:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := validModel()
			tc.mod(&m)
			if _, err := Build(append(testDocs(), Document{Models: []ModelDoc{m}}), nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Whisper large-v3 is an encoder-decoder whose served copies cache each
// request's decoder: 32 decoder layers, cross-attention over 1,500 encoder
// positions, 20 heads of 64 and 448 decoder tokens (openai/whisper-large-v3's
// config.json: decoder_layers, max_source_positions, decoder_attention_heads,
// d_model 1280, max_target_positions). No other model gives one.
func TestWhisperEncoderDecoderFacts(t *testing.T) {
	for _, m := range mustDefault(t).Models() {
		ed := m.EncoderDecoder
		if m.ID != "whisper-large-v3" {
			if ed != nil {
				t.Errorf("%s: encoder_decoder %+v; want none", m.ID, ed)
			}
			continue
		}
		if ed == nil || ed.DecoderLayers != 32 || ed.EncoderPositions != 1500 || len(ed.Sources) == 0 ||
			*m.KVHeads != 20 || *m.HeadDim != 64 || *m.HiddenSize != 1280 || *m.MaxContextTokens != 448 || *m.VocabSize != 51866 {
			t.Errorf("whisper-large-v3: encoder_decoder %+v, kv_heads %d, head_dim %d, hidden %d, max_context %d, vocab %d; want 32 decoder layers, 1,500 positions, 20 × 64, 1280, 448, 51866",
				ed, *m.KVHeads, *m.HeadDim, *m.HiddenSize, *m.MaxContextTokens, *m.VocabSize)
		}
	}
}
