// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestModelsDataSource_All lists every model of the catalog, ordered by
// id, what is counted from the catalog, so a new model does not change
// this test; the models of the reference table it was converted from are
// among them, and one of them is checked field by field.
func TestModelsDataSource_All(t *testing.T) {
	t.Parallel()
	cat := testCatalog(t)
	var catalogIDs []string
	for _, m := range cat.Models() {
		catalogIDs = append(catalogIDs, m.ID)
	}
	for _, id := range referenceModelIDs(t) {
		if !slices.Contains(catalogIDs, id) {
			t.Fatalf("the catalog lacks %s of the reference models.csv", id)
		}
	}
	slices.Sort(catalogIDs)
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `data "hpcsku_models" "all" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("models"), ids(catalogIDs...)),
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("catalog_version"), knownvalue.StringExact(cat.Version)),
				// Llama 3.1 8B config: 32 layers, 32 heads, 8 KV heads, head_dim 128.
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("models"), listContains{knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":                        knownvalue.StringExact("llama-3.1-8b"),
					"name":                      knownvalue.StringExact("Llama 3.1 8B"),
					"family":                    knownvalue.StringExact("llama"),
					"kind":                      knownvalue.StringExact("generative"),
					"parameters_billion":        knownvalue.Float64Exact(8.03),
					"active_parameters_billion": knownvalue.Float64Exact(8.03),
					"layers":                    knownvalue.Int64Exact(32),
					"hidden_size":               knownvalue.Int64Exact(4096),
					"attention_heads":           knownvalue.Int64Exact(32),
					"kv_heads":                  knownvalue.Int64Exact(8),
					"head_dim":                  knownvalue.Int64Exact(128),
					"intermediate_size":         knownvalue.Int64Exact(14336),
					"vocab_size":                knownvalue.Int64Exact(128256),
					"tied_embeddings":           knownvalue.Bool(false),
					"max_context_tokens":        knownvalue.Int64Exact(131072),
					"experts":                   knownvalue.Null(),
					"active_experts":            knownvalue.Null(),
					"shared_experts":            knownvalue.Null(),
					"precision":                 knownvalue.StringExact("bf16"),
					"precision_bits":            knownvalue.Float64Exact(16),
					"attention_kind":            knownvalue.StringExact("gqa"),
					"kv_lora_rank":              knownvalue.Null(),
					"qk_rope_head_dim":          knownvalue.Null(),
					"sliding_window":            knownvalue.Null(),
					"sliding_window_layers":     knownvalue.Null(),
					"forward_gflops":            knownvalue.Null(),
					"frozen_gflops":             knownvalue.Null(),
					"frozen_parameters_billion": knownvalue.Null(),
					"reference_input":           knownvalue.Null(),
					"license":                   knownvalue.StringExact("Llama 3.1 Community License"),
					"sources":                   knownvalue.ListSizeExact(5),
					"decisions":                 knownvalue.ListSizeExact(0),
					"notes":                     knownvalue.Null(),
				})}),
				// Gemma 2's output layer is its input embedding.
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("models"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":              knownvalue.StringExact("gemma-2-9b"),
					"tied_embeddings": knownvalue.Bool(true),
				})}),
				// SDXL's 0.817B of text encoders are frozen in training.
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("models"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":                        knownvalue.StringExact("stable-diffusion-xl"),
					"frozen_parameters_billion": knownvalue.Float64Exact(0.817),
				})}),
			},
		}},
	})
}

// referenceModelIDs are the ids of the reference models.csv the model table
// was converted from.
func referenceModelIDs(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../catalog/testdata/reference/models.csv")
	if err != nil {
		t.Fatalf("reference models.csv: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("reference models.csv: %v", err)
	}
	if len(rows) < 2 || rows[0][0] != "id" {
		t.Fatalf("reference models.csv: no id column or no rows")
	}
	ids := make([]string, 0, len(rows)-1)
	for _, r := range rows[1:] {
		ids = append(ids, r[0])
	}
	return ids
}

func TestModelsDataSource_Filters(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_models" "moe" {
  kinds = ["moe"]
}
data "hpcsku_models" "gpt_oss" {
  kinds      = ["moe", "generative"]
  name_regex = "(?i)^GPT-OSS"
}
data "hpcsku_models" "by_display_name" {
  name_regex = "^Qwen3 "
}
data "hpcsku_models" "encoders_and_vision" {
  kinds = ["encoder", "vision"]
}
`,
			// Each filter's results are checked by what every result must have
			// and by models that must be among them, so that a model added to
			// the catalog does not change the test.
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_models.moe", tfjsonpath.New("models"), listEvery{attrCheck("kind", knownvalue.StringExact("moe"))}),
				statecheck.ExpectKnownValue("data.hpcsku_models.moe", tfjsonpath.New("models"), containsIDs(
					"deepseek-v3", "gpt-oss-120b", "gpt-oss-20b", "llama-4-maverick-17b-128e", "llama-4-scout-17b-16e",
					"mixtral-8x22b", "mixtral-8x7b", "qwen3-235b-a22b")),
				statecheck.ExpectKnownValue("data.hpcsku_models.gpt_oss", tfjsonpath.New("models"), listEvery{attrCheck("name", knownvalue.StringRegexp(regexp.MustCompile(`(?i)^GPT-OSS`)))}),
				// gpt-oss-120b: 128 experts, 4 per token, MXFP4 (4.25 bits),
				// every other of 36 layers windowed at 128 tokens.
				statecheck.ExpectKnownValue("data.hpcsku_models.gpt_oss", tfjsonpath.New("models"), listContains{knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id": knownvalue.StringExact("gpt-oss-120b"), "experts": knownvalue.Int64Exact(128), "active_experts": knownvalue.Int64Exact(4),
					"precision": knownvalue.StringExact("mxfp4"), "precision_bits": knownvalue.Float64Exact(4.25),
					"sliding_window": knownvalue.Int64Exact(128), "sliding_window_layers": knownvalue.Int64Exact(18),
					"parameters_billion": knownvalue.Float64Exact(116.8), "active_parameters_billion": knownvalue.Float64Exact(5.1),
					"decisions": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("D31"), knownvalue.StringExact("D32"), knownvalue.StringExact("D82")}),
				})}),
				statecheck.ExpectKnownValue("data.hpcsku_models.gpt_oss", tfjsonpath.New("models"), containsIDs("gpt-oss-20b")),
				// name_regex matches the display name too.
				statecheck.ExpectKnownValue("data.hpcsku_models.by_display_name", tfjsonpath.New("models"), listEvery{attrCheck("name", knownvalue.StringRegexp(regexp.MustCompile(`^Qwen3 `)))}),
				statecheck.ExpectKnownValue("data.hpcsku_models.by_display_name", tfjsonpath.New("models"), containsIDs("qwen3-235b-a22b", "qwen3-32b", "qwen3-8b")),
				statecheck.ExpectKnownValue("data.hpcsku_models.encoders_and_vision", tfjsonpath.New("models"), listEvery{attrCheck("kind", knownvalue.StringRegexp(regexp.MustCompile(`^(encoder|vision)$`)))}),
				statecheck.ExpectKnownValue("data.hpcsku_models.encoders_and_vision", tfjsonpath.New("models"), containsIDs("bert-base", "bert-large", "vit-large")),
			},
		}},
	})
}

// TestModelsDataSource_DeepSeekMLA checks the multi-head latent attention
// facts: no KV heads, a 512-wide latent and a 64-wide RoPE key.
func TestModelsDataSource_DeepSeekMLA(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_models" "deepseek" {
  name_regex = "^deepseek-v3$"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_models.deepseek", tfjsonpath.New("models"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"kv_heads": knownvalue.Null(), "attention_kind": knownvalue.StringExact("mla"),
						"kv_lora_rank": knownvalue.Int64Exact(512), "qk_rope_head_dim": knownvalue.Int64Exact(64),
						"experts": knownvalue.Int64Exact(256), "active_experts": knownvalue.Int64Exact(8), "shared_experts": knownvalue.Int64Exact(1),
						"parameters_billion": knownvalue.Float64Exact(671), "active_parameters_billion": knownvalue.Float64Exact(37),
						"precision": knownvalue.StringExact("fp8"), "precision_bits": knownvalue.Float64Exact(8),
					}),
				})),
			},
		}},
	})
}

func TestModelsDataSource_NoMatchWarnsAndEmpties(t *testing.T) {
	t.Parallel()
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: `
data "hpcsku_models" "none" {
  kinds      = ["speech"]
  name_regex = "llama"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_models.none", tfjsonpath.New("models"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// TestModelsDataSource_CatalogFile adds a model and corrects another through
// the provider's catalog_file.
func TestModelsDataSource_CatalogFile(t *testing.T) {
	t.Parallel()
	extra, err := filepath.Abs("../catalog/testdata/catalog_file_perf.json")
	if err != nil {
		t.Fatal(err)
	}
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: providerBlock(map[string]string{"catalog_file": extra}) + `
data "hpcsku_models" "all" {}
data "hpcsku_models" "qwen3" {
  name_regex = "^qwen3-(14|8)b$"
}
data "hpcsku_models" "llama" {
  name_regex = "^llama-3.1-8b$"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_models.all", tfjsonpath.New("models"), knownvalue.ListSizeExact(len(testCatalog(t).Models())+1)),
				statecheck.ExpectKnownValue("data.hpcsku_models.qwen3", tfjsonpath.New("models"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("qwen3-14b"), "layers": knownvalue.Int64Exact(40), "kv_heads": knownvalue.Int64Exact(8)}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("qwen3-8b"), "layers": knownvalue.Int64Exact(36)}),
				})),
				statecheck.ExpectKnownValue("data.hpcsku_models.llama", tfjsonpath.New("models").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"precision": knownvalue.StringExact("fp8"), "precision_bits": knownvalue.Float64Exact(8),
					"notes": knownvalue.StringExact("Served from our own FP8 quantisation."),
				})),
			},
		}},
	})
}
