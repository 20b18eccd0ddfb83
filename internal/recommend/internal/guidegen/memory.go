// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"fmt"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// memoryExample is one column of a memory table: its heading and request.
type memoryExample struct {
	heading string
	req     recommend.MemoryRequest
}

// memoryRow is one row of a memory table: its label and the figure of an
// estimate, "" where the estimate has no such part.
type memoryRow struct {
	label  string
	figure func(m perfmodel.MemoryEstimate) string
}

func gib(v float64) string {
	if v == 0 {
		return ""
	}
	return trim(v) + " GiB"
}

var trainingMemory = []memoryExample{
	{"7B, bf16, `fine_tuning` (full)", recommend.MemoryRequest{Workload: recommend.WorkloadFineTuning, Model: recommend.Model{ParametersBillion: 7}}},
	{"70B, bf16, `training`", recommend.MemoryRequest{Workload: recommend.WorkloadTraining, Model: recommend.Model{ParametersBillion: 70}}},
	{"Llama 3.1 8B, `lora`", recommend.MemoryRequest{Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodLoRA, Model: recommend.Model{Name: "llama-3.1-8b"}}},
	{"Llama 3.1 70B, `qlora`", recommend.MemoryRequest{Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodQLoRA, Model: recommend.Model{Name: "llama-3.1-70b"}}},
}

var trainingRows = []memoryRow{
	{"Weights or frozen base", func(m perfmodel.MemoryEstimate) string { return gib(m.WeightsGiB) }},
	{"Gradients", func(m perfmodel.MemoryEstimate) string { return gib(m.GradientsGiB) }},
	{"fp32 master weights", func(m perfmodel.MemoryEstimate) string { return gib(m.MasterWeightsGiB) }},
	{"Adam moments", func(m perfmodel.MemoryEstimate) string { return gib(m.OptimizerGiB) }},
	{"Adapters", func(m perfmodel.MemoryEstimate) string { return gib(m.AdapterGiB) }},
	{"Activations", func(m perfmodel.MemoryEstimate) string { return gib(m.ActivationGiB) }},
	{"**GPU memory needed**", func(m perfmodel.MemoryEstimate) string { return "**" + gib(m.GiB) + "**" }},
}

var inferenceMemory = []memoryExample{
	{"Llama 3.1 8B, 8,192 tokens × 32 requests", recommend.MemoryRequest{Workload: recommend.WorkloadInference, Model: recommend.Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)}},
	{"Llama 3.1 70B, 8,192 tokens × 32 requests", recommend.MemoryRequest{Workload: recommend.WorkloadInference, Model: recommend.Model{Name: "llama-3.1-70b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)}},
	{"OPT-1.3B by size (`parameters_billion = 1.3`, bf16), defaults", recommend.MemoryRequest{Workload: recommend.WorkloadInference, Model: recommend.Model{ParametersBillion: 1.3}}},
	{"OPT-1.3B by name (`name = \"opt-1.3b\"`), defaults", recommend.MemoryRequest{Workload: recommend.WorkloadInference, Model: recommend.Model{Name: "opt-1.3b"}}},
}

var inferenceRows = []memoryRow{
	{"Weights", func(m perfmodel.MemoryEstimate) string { return gib(m.WeightsGiB) }},
	{"Workspace", func(m perfmodel.MemoryEstimate) string { return gib(m.ActivationGiB) }},
	{"KV cache", func(m perfmodel.MemoryEstimate) string {
		return fmt.Sprintf("%s (%s bytes per token; %s tokens × %s requests)", gib(m.KVCacheGiB), n(m.KVBytesPerToken), n(float64(m.ContextTokens)), n(float64(m.ConcurrentRequests)))
	}},
	{"**GPU memory needed**", func(m perfmodel.MemoryEstimate) string { return "**" + gib(m.GiB) + "**" }},
}

// memoryTable writes the estimates of examples side by side.
func memoryTable(eng *recommend.Engine, examples []memoryExample, rows []memoryRow) (string, error) {
	ests := make([]perfmodel.MemoryEstimate, len(examples))
	var b strings.Builder
	b.WriteString("|")
	for i, ex := range examples {
		mi, _, err := eng.ResolveMemory(ex.req)
		if err != nil {
			return "", fmt.Errorf("%s: %w", ex.heading, err)
		}
		ests[i] = perfmodel.EstimateMemory(&mi) // the memory model, on the job the engine resolved
		b.WriteString(" | " + ex.heading)
	}
	b.WriteString(" |\n|---" + strings.Repeat("|---", len(examples)) + "|\n")
	for _, r := range rows {
		cells := make([]string, len(ests))
		empty := true
		for i, m := range ests {
			cells[i] = r.figure(m)
			empty = empty && cells[i] == ""
		}
		if !empty {
			b.WriteString("| " + r.label + " | " + strings.Join(cells, " | ") + " |\n")
		}
	}
	return b.String(), nil
}
