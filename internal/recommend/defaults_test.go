// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Requirements.Defaults names every value the engine chose on the user's
// behalf, with the value used, and nothing the request stated.
func TestDefaultsListWhatTheEngineChose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		req    Request
		want   map[string]string // entries that must be there
		absent []string          // inputs the request states or the job does not use
	}{
		{"fine-tuning a named model", Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}},
			map[string]string{"model.parameters_billion": "8.03", "model.precision": PrecisionBF16, "fine_tuning_method": MethodFull,
				"tokens_billion": strconv.FormatFloat(DefaultFineTuningTokensBillion, 'f', -1, 64), "deadline_hours": strconv.Itoa(DefaultDeadlineHours),
				"target": DefaultTarget},
			[]string{"concurrent_requests", "hpc_bound", "nodes", "max_results"}},
		// Serving refuses a stated context above the maximum (validate);
		// fine-tuning caps it.
		{"a fine-tuning context above the model's maximum is capped", Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b", Precision: PrecisionBF16}, FineTuningMethod: MethodLoRA, ContextTokens: i64(10_000_000), Target: TargetAKS},
			map[string]string{"context_tokens": "131072", "tokens_billion": strconv.FormatFloat(DefaultFineTuningTokensBillion, 'f', -1, 64)},
			[]string{"model.precision", "target", "fine_tuning_method", "concurrent_requests"}},
		{"a stated context within the maximum is not a default", Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 7}, ContextTokens: i64(8192)},
			map[string]string{"model.precision": DefaultPrecision, "model.class": DefaultClass},
			[]string{"context_tokens", "model.parameters_billion"}},
		{"hpc without cores runs one VM", Request{Workload: WorkloadHPC},
			map[string]string{"nodes": "1", "hpc_bound": BoundMemoryBandwidth, "interconnect": DefaultInterconnect},
			[]string{"gpu_vendor", "model.precision"}},
		{"hpc with cores chooses its nodes", Request{Workload: WorkloadHPC, Cores: i64(512), HPCBound: BoundCompute},
			map[string]string{},
			[]string{"nodes", "hpc_bound"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := mustRecommend(t, tt.req).Requirements.Defaults
			for k, v := range tt.want {
				if d[k] != v {
					t.Errorf("defaults[%q] = %q, want %q (all: %v)", k, d[k], v, d)
				}
			}
			for _, k := range tt.absent {
				if v, ok := d[k]; ok {
					t.Errorf("defaults[%q] = %q; the request states it or the job does not use it", k, v)
				}
			}
		})
	}
}

// The context a training job's FLOPs count (the attention term of 6 ×
// layers × context × width) is the context requirements report, and a
// default when the request leaves it unset: full training sizes its
// memory without it, but its time depends on it.
func TestTrainingReportsTheContextItsFLOPsUse(t *testing.T) {
	t.Parallel()
	contextWords := regexp.MustCompile(`layers × ([0-9,]+) tokens of context`)
	for _, req := range []Request{
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-70b"}, TokensBillion: f64(2), DeadlineHours: f64(48)},
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodFull},
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodLoRA},
		{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}},
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodFull, ContextTokens: i64(8192)},
	} {
		req.AsOf = asOf
		r := mustRecommend(t, req).Requirements
		var used string
		for _, e := range r.Explanation {
			if m := contextWords.FindStringSubmatch(e); m != nil {
				used = strings.ReplaceAll(m[1], ",", "")
			}
		}
		what := req.Workload + " " + req.Model.Name + " " + req.FineTuningMethod
		if used == "" {
			t.Fatalf("%s: no context in the training work (%q)", what, r.Explanation)
		}
		if got := strconv.FormatInt(r.ContextTokens, 10); got != used {
			t.Errorf("%s: requirements.context_tokens = %s, but the FLOPs use %s tokens of context", what, got, used)
		}
		if d, ok := r.Defaults["context_tokens"]; req.ContextTokens == nil && d != used {
			t.Errorf("%s: defaults[context_tokens] = %q, want %s (all: %v)", what, d, used, r.Defaults)
		} else if req.ContextTokens != nil && ok {
			t.Errorf("%s: defaults[context_tokens] = %q although the request states it", what, d)
		}
	}
}

// A variant's name or a Hugging Face id is estimated as the table's model
// whose architecture it shares, with a warning naming both.
func TestModelAliasWarns(t *testing.T) {
	t.Parallel()
	base := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}})
	for _, name := range []string{"Llama 3.1 70B Instruct", "meta-llama/Llama-3.1-70B-Instruct"} {
		res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: name}})
		if res.Requirements.Model != "llama-3.1-70b" || res.Requirements.Memory.GiB != base.Requirements.Memory.GiB {
			t.Errorf("%q: model %q with %v GiB; want llama-3.1-70b's %v GiB", name, res.Requirements.Model, res.Requirements.Memory.GiB, base.Requirements.Memory.GiB)
		}
		var warned bool
		for _, w := range res.Warnings {
			warned = warned || (w.Summary == "Model Name Resolved To Its Architecture" && strings.Contains(w.Detail, strconv.Quote(name)) && strings.Contains(w.Detail, `model.name = "llama-3.1-70b"`))
		}
		if !warned {
			t.Errorf("%q: no warning naming the alias and the model: %+v", name, res.Warnings)
		}
	}
	for _, w := range base.Warnings {
		if w.Summary == "Model Name Resolved To Its Architecture" {
			t.Errorf("the table's own id warns: %+v", w)
		}
	}
}

// Every served language model of the table takes requests its engines
// accept: with the token counts left out, or only one of them stated, the
// prompt and output split a context no longer than the model's maximum,
// and the context the engines are given (max_model_len) holds them.
func TestServedRequestsFitTheModelsContext(t *testing.T) {
	eng := testEngine(t)
	for _, m := range eng.Catalog().Models() {
		if m.MaxContextTokens == nil || (m.Kind != catalog.ModelKindGenerative && m.Kind != catalog.ModelKindMoE) {
			continue
		}
		for _, req := range []Request{
			{Workload: WorkloadInference, Model: &Model{Name: m.ID}, RequestsPerSecond: f64(1), AsOf: asOf},
			{Workload: WorkloadInference, Model: &Model{Name: m.ID}, PromptTokens: i64(*m.MaxContextTokens - 1), ConcurrentRequests: i64(1), AsOf: asOf},
		} {
			res, err := eng.Recommend(req)
			var nf *NoFitError
			if errors.As(err, &nf) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", m.ID, err)
			}
			r := res.Requirements
			if r.PromptTokens+r.OutputTokens > r.ContextTokens || r.ContextTokens > *m.MaxContextTokens {
				t.Errorf("%s (maximum %d): %d prompt + %d output tokens in a context of %d", m.ID, *m.MaxContextTokens, r.PromptTokens, r.OutputTokens, r.ContextTokens)
			}
		}
	}
}

// total_memory_gib sets an HPC job's VMs: nodes is not a default then.
func TestTotalMemorySetsTheNodes(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, HPCBound: "memory_capacity", TotalMemoryGiB: f64(20000), Region: "eastus", AsOf: asOf})
	if v, ok := res.Requirements.Defaults["nodes"]; ok || res.Requirements.Nodes < 2 {
		t.Errorf("defaults nodes %q with %d VMs", v, res.Requirements.Nodes)
	}
}
