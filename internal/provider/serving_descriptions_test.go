// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// The serving settings' documentation says what the engine gives, on the
// embedded catalog: every flag of vllm_args is named in its description
// (Qwen3 8B at 65,536 tokens, above its config's 40,960, carries
// --hf-overrides), sglang_args' description names the setting SGLang needs
// where YaRN leaves it null, and the note's names YaRN.
func TestServingDescriptionsNameWhatTheEngineGives(t *testing.T) {
	t.Parallel()
	eng, err := recommend.NewEngine(catalogtest.Embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	recs, ok := recommendationOutputAttributes()["recommendations"].(schema.ListNestedAttribute)
	if !ok {
		t.Fatal("recommendations is not a list of objects")
	}
	dep, _ := recs.NestedObject.Attributes["deployment"].(schema.SingleNestedAttribute)
	serving, _ := dep.Attributes["serving"].(schema.SingleNestedAttribute)
	desc := func(name string) string { return serving.Attributes[name].GetMarkdownDescription() }
	yarn := recommend.Request{Workload: recommend.WorkloadInference, Model: &recommend.Model{Name: "qwen3-8b"}, ContextTokens: ptrTo[int64](65536),
		PromptTokens: ptrTo[int64](30000), OutputTokens: ptrTo[int64](2000), RequestsPerSecond: ptrTo(0.5), GPUModels: []string{"h100-nvl-94gb"}}
	spanning := recommend.Request{Workload: recommend.WorkloadInference, Model: &recommend.Model{Name: "llama-3.1-405b"}, RequestsPerSecond: ptrTo(1.0),
		GPUModels: []string{"h100-sxm-80gb"}}
	fp8 := recommend.Request{Workload: recommend.WorkloadInference, Model: &recommend.Model{Name: "llama-3.1-8b", Precision: "fp8"}, RequestsPerSecond: ptrTo(1.0)}
	yarned := 0
	for _, req := range []recommend.Request{yarn, spanning, fp8} {
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Model.Name, err)
		}
		for _, r := range res.Recommendations {
			s := r.Deployment.Serving
			if s == nil {
				continue
			}
			for _, a := range s.VLLMArgs {
				if flag, _, _ := strings.Cut(a, "="); !strings.Contains(desc("vllm_args"), "`"+flag) {
					t.Errorf("%s, %s: vllm_args carries %s, which its description does not name", req.Model.Name, r.VMSize, flag)
				}
			}
			if strings.Contains(s.Note, deploy.SGLangLongerContextEnv) {
				yarned++
				if !strings.Contains(desc("sglang_args"), deploy.SGLangLongerContextEnv) || !strings.Contains(desc("note"), "YaRN") {
					t.Errorf("%s, %s: sglang_args null for YaRN; sglang_args' description %q, note's %q", req.Model.Name, r.VMSize, desc("sglang_args"), desc("note"))
				}
			}
		}
	}
	if yarned == 0 {
		t.Error("no layout with YaRN")
	}
}

// gpu_memory_gib's context_tokens option says what a context above the
// named model's maximum does, as the function answers: an error for
// inference, capped for training and fine-tuning.
func TestGPUMemoryContextOptionSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	var resp function.DefinitionResponse
	(&gpuMemoryGiBFunction{}).Definition(context.Background(), function.DefinitionRequest{}, &resp)
	options := resp.Definition.VariadicParameter.GetMarkdownDescription()
	_, ctx, _ := strings.Cut(options, "`context_tokens` (")
	ctx, _, _ = strings.Cut(ctx, "`concurrent_requests` (")
	if !strings.Contains(ctx, "error") || !strings.Contains(ctx, "`inference`") || !strings.Contains(ctx, "`training`") {
		t.Errorf("context_tokens option: %q; want an error for inference above the model's maximum, capped for training and fine-tuning", ctx)
	}
}
