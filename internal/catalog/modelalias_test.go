// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog_test

import (
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// Instruct and chat variants, Hugging Face ids and names without their
// version resolve to the model whose architecture they share; a model's
// own id or name is never read as an alias, and a name that is no variant
// of one model resolves to none.
func TestResolveModel(t *testing.T) {
	cat := catalogtest.Embedded(t)
	for _, tt := range []struct {
		name, id string
		alias    bool
	}{
		{"llama-3.1-70b", "llama-3.1-70b", false},
		{"Llama 3.1 70B", "llama-3.1-70b", false},
		{"Llama 3.1 70B Instruct", "llama-3.1-70b", true},
		{"meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b", true},
		{"mistral-7b", "mistral-7b-v0.3", true},
		{"mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3", true},
		{"google/gemma-2-9b-it", "gemma-2-9b", true},
		{"Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", true},
		{"Llama 3.3 70B Instruct", "llama-3.3-70b", false}, // the table's own name
		{"deepseek-r1-distill-llama-70b", "deepseek-r1-distill-llama-70b", false},
		// Whisper large (v1) is the table's one version of it: the same
		// 32 layers of 1,280, 1.55B parameters; v3's 128 mel bins and one
		// more token add 0.2M, so memory and work are the same.
		{"openai/whisper-large", "whisper-large-v3", true},
	} {
		m, alias, ok := cat.ResolveModel(tt.name)
		if !ok || m.ID != tt.id || alias != tt.alias {
			t.Errorf("ResolveModel(%q) = %v, alias %v, %v; want %s, alias %v", tt.name, m, alias, ok, tt.id, tt.alias)
		}
	}
	// deepseek-r1 is the table's own id, never an alias of the distilled
	// Llama (another architecture); the loop below checks it resolves to
	// itself.
	if m, alias, ok := cat.ResolveModel("deepseek-r1"); !ok || alias || m.ID != "deepseek-r1" {
		t.Errorf("ResolveModel(%q) = %v, alias %v, %v; want deepseek-r1 itself", "deepseek-r1", m, alias, ok)
	}
	for _, name := range []string{"llama-3.1", "mistral", "meta-llama/", "instruct", "llama-3.1-70b-base", "deepseek", "DeepSeek", "deepseek-ai/DeepSeek", "openai/whisper-large-v2"} {
		if m, _, ok := cat.ResolveModel(name); ok {
			t.Errorf("ResolveModel(%q) = %s; want no model", name, m.ID)
		}
	}
	// Every id and name of the table is itself, never an alias.
	for _, m := range cat.Models() {
		for _, name := range []string{m.ID, m.Name} {
			if got, alias, ok := cat.ResolveModel(name); !ok || got != m || alias {
				t.Errorf("ResolveModel(%q) = %v, alias %v; want %s itself", name, got, alias, m.ID)
			}
		}
	}
}

func TestClosestValue(t *testing.T) {
	allowed := []string{"fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8", "int4"}
	for v, want := range map[string]string{"fp6": "", "Fp4": "fp4", "BF16": "bf16", "Fp8": "fp8", "bf61": "bf16", "bf15": "bf16", "fp64": "", "x": "", "": "", "int16": ""} {
		got, ok := catalog.ClosestValue(v, allowed)
		if got != want || ok != (want != "") {
			t.Errorf("ClosestValue(%q) = %q, %v; want %q", v, got, ok, want)
		}
	}
	if got := catalog.DidYouMean("BF16", allowed); got != ` Did you mean "bf16"? Values are case-sensitive.` {
		t.Errorf("DidYouMean(BF16) = %q", got)
	}
	if got := catalog.DidYouMean("vmms", []string{"vm", "vmss", "aks"}); got != ` Did you mean "vmss"?` {
		t.Errorf("DidYouMean(vmms) = %q", got)
	}
}

// A family name that begins the ids of several models (deepseek for
// deepseek-v3, deepseek-r1 and the R1 distillation; gemma-2; qwen3) names
// none of them: it resolves to no model, and the error lists the
// candidates, rather than to the one whose id continues with a version.
func TestFamilyNameResolvesToNone(t *testing.T) {
	cat := catalogtest.Embedded(t)
	for _, m := range cat.Models() {
		words := strings.Split(m.ID, "-")
		for i := 1; i < len(words); i++ {
			prefix := strings.Join(words[:i], "-")
			if _, own := cat.Model(prefix); own || len(modelsBeginning(cat, prefix)) < 2 {
				continue
			}
			if got, _, ok := cat.ResolveModel(prefix); ok {
				t.Errorf("ResolveModel(%q) = %s; want none of %v", prefix, got.ID, modelsBeginning(cat, prefix))
			}
		}
	}
}

// modelsBeginning lists the ids that continue prefix with a hyphen.
func modelsBeginning(cat *catalog.Catalog, prefix string) []string {
	var ids []string
	for _, m := range cat.Models() {
		if strings.HasPrefix(m.ID, prefix+"-") {
			ids = append(ids, m.ID)
		}
	}
	return ids
}
