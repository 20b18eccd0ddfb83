// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// argValue is the value of --flag=value in args; "" where it is absent.
func argValue(args []string, flag string) string {
	for _, a := range args {
		if f, v, ok := strings.Cut(a, "="); ok && f == flag {
			return v
		}
	}
	return ""
}

// argInt is the integer value of --flag=value in args; 1 (the engines'
// default) for a parallel size left out.
func argInt(t *testing.T, args []string, flag string) int64 {
	t.Helper()
	s := argValue(args, flag)
	if s == "" && (flag == "--pipeline-parallel-size" || flag == "--data-parallel-size") {
		return 1
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s in %v: %v", flag, args, err)
	}
	return v
}

// The serving arguments are the layout the estimate used, for services
// stated as users state them: tensor parallel × copies per VM fills the
// VM's GPUs (fewer only where the reasons name idle GPUs; 1 on a share of
// a GPU), the pipeline stages are the recommendation's, --max-num-seqs is
// estimate.sequences_per_copy and --max-model-len the context.
func TestServingArgsFollowTheLayout(t *testing.T) {
	checked := 0
	for _, req := range []Request{
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, PromptTokens: i64(1000), OutputTokens: i64(200), RequestsPerSecond: f64(50), MaxTimeToFirstTokenMs: f64(500), MaxTimePerOutputTokenMs: f64(30)},
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b", Precision: PrecisionFP8}, ContextTokens: i64(2048), TokensPerSecond: f64(50000)},
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-405b"}, ContextTokens: i64(8192)},
		{Workload: WorkloadInference, Model: &Model{Name: "gpt-oss-120b"}},
		{Workload: WorkloadInference, Model: &Model{ParametersBillion: 1.3}},
	} {
		req.AsOf, req.MaxResults = asOf, i64(20)
		res := mustRecommend(t, req)
		for _, r := range res.Recommendations {
			if checkServedLayout(t, res, r) {
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d served layouts checked", checked)
	}
}

// checkServedLayout checks one recommendation's serving arguments against
// its layout and estimate; false where it has none to check.
func checkServedLayout(t *testing.T, res *Result, r Recommendation) bool {
	t.Helper()
	s := r.Deployment.Serving
	if s == nil || r.Estimate == nil || r.Estimate.SequencesPerCopy == nil {
		t.Errorf("%s: serving %+v, estimate %+v", r.VMSize, s, r.Estimate)
		return false
	}
	v := s.VLLMArgs
	if v == nil { // vLLM excludes the GPU and format: SGLang's, by vLLM's names
		g := s.SGLangArgs
		v = []string{"--tensor-parallel-size=" + argValue(g, "--tp-size"), "--max-num-seqs=" + argValue(g, "--max-running-requests"), "--max-model-len=" + argValue(g, "--context-length")}
		for from, to := range map[string]string{"--pp-size": "--pipeline-parallel-size", "--dp-size": "--data-parallel-size"} {
			if x := argValue(g, from); x != "" {
				v = append(v, to+"="+x)
			}
		}
	}
	tp, dp, gpus := argInt(t, v, "--tensor-parallel-size"), argInt(t, v, "--data-parallel-size"), r.GPUsPerNode
	idle := slices.ContainsFunc(r.Reasons, func(reason string) bool { return strings.Contains(reason, "idle") })
	switch {
	case gpus < 1 && tp*dp != 1:
		t.Errorf("%s (a share of a GPU): TP %d × copies %d", r.VMSize, tp, dp)
	case gpus >= 1 && float64(tp*dp) > gpus, gpus >= 1 && float64(tp*dp) < gpus && !idle:
		t.Errorf("%s: TP %d × copies %d on %v GPUs per VM, reasons %q", r.VMSize, tp, dp, gpus, r.Reasons)
	}
	if pp := argInt(t, v, "--pipeline-parallel-size"); pp != r.PipelineStages {
		t.Errorf("%s: pipeline %d, recommendation %d", r.VMSize, pp, r.PipelineStages)
	}
	if n := argInt(t, v, "--max-num-seqs"); n != *r.Estimate.SequencesPerCopy {
		t.Errorf("%s: --max-num-seqs=%d, estimate.sequences_per_copy %d", r.VMSize, n, *r.Estimate.SequencesPerCopy)
	}
	if c := argInt(t, v, "--max-model-len"); c != res.Requirements.ContextTokens {
		t.Errorf("%s: --max-model-len=%d, requirements.context_tokens %d", r.VMSize, c, res.Requirements.ContextTokens)
	}
	if r.PipelineStages > 1 && !strings.Contains(s.Note, "rank") {
		t.Errorf("%s: a copy over %d VMs without the note on its ranks: %q", r.VMSize, r.PipelineStages, s.Note)
	}
	return true
}

// engineAcceptsTensorSplit reports whether vLLM's and SGLang's QKV layer
// (QKVParallelLinear) loads a model of heads attention heads and kvHeads KV
// heads split over tp GPUs: tp divides the attention heads, and divides the
// KV heads or, where it is at least as many, is a multiple of them (the KV
// heads are replicated).
func engineAcceptsTensorSplit(tp, heads, kvHeads int64) bool {
	if heads%tp != 0 {
		return false
	}
	if tp >= kvHeads {
		return tp%kvHeads == 0
	}
	return kvHeads%tp == 0
}

// Every tensor-parallel size the engines are given loads the model: for
// every served model of the catalog with KV heads, served by default and
// at a load with a tight time per output token (which asks for wide
// splits; a model no size serves that fast is skipped there), each ranked
// size's --tensor-parallel-size and --tp-size divide the attention heads
// and divide or are a multiple of the KV heads. Phi-4's 40 heads and 10
// KV heads take 1 or 2 GPUs, never 4 or 8.
func TestTensorParallelSizesLoadTheModel(t *testing.T) {
	t.Parallel()
	cat, checked := testCatalog(t), 0
	for _, m := range cat.Models() {
		if m.KVHeads == nil || m.AttentionHeads == nil {
			continue
		}
		for _, req := range []Request{
			{Workload: WorkloadInference, Model: &Model{Name: m.ID}},
			{Workload: WorkloadInference, Model: &Model{Name: m.ID}, RequestsPerSecond: f64(2), MaxTimePerOutputTokenMs: f64(8)},
		} {
			req.AsOf, req.MaxResults = asOf, i64(50)
			res, err := newTestEngine(t, cat).Recommend(req)
			if err != nil && req.MaxTimePerOutputTokenMs != nil {
				continue
			} else if err != nil {
				t.Fatalf("%s: %v", m.ID, err)
			}
			for _, r := range res.Recommendations {
				checked += checkTensorSplit(t, m, r)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d tensor-parallel sizes checked", checked)
	}
}

// checkTensorSplit checks the tensor-parallel sizes of a recommendation's
// serving arguments against model m's heads, and returns how many it
// checked.
func checkTensorSplit(t *testing.T, m *catalog.Model, r Recommendation) int {
	t.Helper()
	s, n := r.Deployment.Serving, 0
	if s == nil {
		return 0
	}
	for _, args := range [][]string{s.VLLMArgs, s.SGLangArgs} {
		for _, flag := range []string{"--tensor-parallel-size", "--tp-size"} {
			v := argValue(args, flag)
			if v == "" {
				continue
			}
			n++
			if tp, _ := strconv.ParseInt(v, 10, 64); !engineAcceptsTensorSplit(tp, *m.AttentionHeads, *m.KVHeads) {
				t.Errorf("%s (%d heads, %d KV heads) on %s: %s=%s", m.ID, *m.AttentionHeads, *m.KVHeads, r.VMSize, flag, v)
			}
		}
	}
	return n
}

// An AMD GPU SGLang's ROCm build does not support gets no SGLang
// arguments: the Radeon PRO V620 (gfx1030), which vLLM's does not list
// either, gets none at all and a note that neither engine serves it (the
// V710, gfx1101, is not timed, so it has no serving arguments to give).
func TestNoSGLangArgsOnRadeonPRO(t *testing.T) {
	t.Parallel()
	res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.1-8b"}, GPUModels: []string{"v710", "v620"}, Target: TargetVM, MaxResults: i64(50)})
	checked := 0
	for _, r := range res.Recommendations {
		s := r.Deployment.Serving
		if s == nil {
			continue
		}
		checked++
		if s.SGLangArgs != nil || s.VLLMArgs != nil || !strings.Contains(s.Note, "Neither vLLM nor SGLang serves this GPU's architecture (gfx1030") {
			t.Errorf("%s: vLLM %v, SGLang %v, note %q", r.VMSize, s.VLLMArgs, s.SGLangArgs, s.Note)
		}
	}
	if checked == 0 {
		t.Error("no Radeon PRO layout with serving settings ranked")
	}
}

// A training job over several VMs gets torchrun's node count and every
// GPU per VM, with its series' NCCL settings over InfiniBand; a job on one
// VM's GPUs gets no launcher settings, and a CycleCloud GPU partition its
// sbatch options: one task per VM, the torchrun that starts a process per
// GPU (7B on 200 billion tokens within 72 hours on 11 VMs had
// --ntasks-per-node=8, which with srun torchrun --nproc_per_node=8 starts
// 64 processes per VM).
func TestLaunchSettings(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{ParametersBillion: 70}, TokensBillion: f64(1400), MaxResults: i64(10)})
	for _, r := range res.Recommendations {
		l := r.Deployment.Launch
		if r.Nodes > 1 && (l == nil || l.NNodes != r.Nodes || float64(l.NProcPerNode) != r.GPUsPerNode) {
			t.Errorf("%s on %d VMs of %v GPUs: launch %+v", r.VMSize, r.Nodes, r.GPUsPerNode, l)
		}
		if r.Nodes > 1 && r.Deployment.RDMA && strings.Contains(r.VMSize, "H100") && l.Env["NCCL_TOPO_FILE"] != "/opt/microsoft/ndv5/topo.xml" {
			t.Errorf("%s: env %v", r.VMSize, l.Env)
		}
	}
	res = mustRecommend(t, Request{Workload: WorkloadFineTuning, AsOf: asOf, Model: &Model{ParametersBillion: 7, Precision: PrecisionBF16}, Target: TargetCycleCloud})
	top := res.Recommendations[0]
	if top.Nodes == 1 && float64(int64(top.GPUsPerNode)) == top.GPUsPerNode && top.Deployment.Launch != nil {
		t.Errorf("%s: one VM, all its GPUs, launch %+v", top.VMSize, top.Deployment.Launch)
	}
	want := []string{"--nodes=" + strconv.FormatInt(top.Nodes, 10), "--gpus-per-node=" + strconv.FormatFloat(top.GPUsPerNode, 'f', -1, 64), "--ntasks-per-node=1"}
	if cc := top.Deployment.CycleCloud; cc == nil || strings.Join(cc.SbatchArgs, " ") != strings.Join(want, " ") {
		t.Errorf("%s: CycleCloud %+v, want sbatch %v", top.VMSize, cc, want)
	}
	res = mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{ParametersBillion: 7}, TokensBillion: f64(200), DeadlineHours: f64(72), Target: TargetCycleCloud})
	top = res.Recommendations[0]
	l, cc := top.Deployment.Launch, top.Deployment.CycleCloud
	want = []string{"--nodes=" + strconv.FormatInt(top.Nodes, 10), "--gpus-per-node=" + strconv.FormatFloat(top.GPUsPerNode, 'f', -1, 64), "--ntasks-per-node=1"}
	if top.Nodes < 2 || l == nil || l.NNodes != top.Nodes || cc == nil || strings.Join(cc.SbatchArgs, " ") != strings.Join(want, " ") {
		t.Errorf("%s on %d VMs: launch %+v, CycleCloud %+v, want sbatch %v", top.VMSize, top.Nodes, l, cc, want)
	}
}

// A context the engine derives from mean prompt and output tokens is the
// engines' hard limit on a request: the serving note says so and names
// context_tokens; a stated context_tokens needs no such note.
func TestMeanContextLimitIsSaid(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, PromptTokens: i64(1000), OutputTokens: i64(200), RequestsPerSecond: f64(5), AsOf: asOf}
	s := mustRecommend(t, req).Recommendations[0].Deployment.Serving
	if !slices.Contains(s.VLLMArgs, "--max-model-len=1200") || !strings.Contains(s.Note, "mean prompt plus the mean output (1,200 tokens)") || !strings.Contains(s.Note, "set context_tokens") {
		t.Errorf("vLLM %v, note %q", s.VLLMArgs, s.Note)
	}
	req.ContextTokens = i64(8192)
	if s := mustRecommend(t, req).Recommendations[0].Deployment.Serving; strings.Contains(s.Note, "mean prompt") || !slices.Contains(s.VLLMArgs, "--max-model-len=8192") {
		t.Errorf("context_tokens stated: vLLM %v, note %q", s.VLLMArgs, s.Note)
	}
}
