// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// dataCenterTrainingGPU reports whether a GPU is of the A100 and H100 class
// an architect sizes a vision training run on, AMD's MI300X among them: on
// the eight GPUs of the VM it pays for, ViT-Large's 115 million samples take
// 7.52 hours and 360.93 USD there, less than on one A100 (145 hours, 534
// USD).
func dataCenterTrainingGPU(id string) bool {
	for _, p := range []string{"a100-", "h100-", "h200-", "mi300x"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

// dominates reports whether a is at least as fast as b for no more money
// per hour, and strictly better on one of them.
func dominates(aPrice, aSpeed, bPrice, bSpeed float64) bool {
	return aPrice <= bPrice && aSpeed >= bSpeed && (aPrice < bPrice || aSpeed > bSpeed)
}

// "Train ViT-Large in bf16, batch 256 per GPU" on 115 million samples, as
// a platform team writes it: timed, with an A100 or H100 first, every size
// with its samples per second, and no size ranked below one it is both
// slower and dearer than.
func TestVisionTrainingIsTimedBySamples(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, MaxResults: i64(50),
		Model: &Model{Name: "vit-large", Precision: PrecisionBF16}, TrainingBatchSize: i64(256), SamplesMillion: f64(115)})
	if rq := res.Requirements; rq.TrainingSamplesMillion != 115 || rq.TrainingTokensBillion != 0 || !(rq.TrainingFLOPs > 4e19 && rq.TrainingFLOPs < 4.5e19) {
		t.Errorf("requirements: %v million samples, %v billion tokens, %g FLOPs; want 115, 0 and 3 × 123.1 GFLOPs × 115 million", rq.TrainingSamplesMillion, rq.TrainingTokensBillion, rq.TrainingFLOPs)
	}
	top := res.Recommendations[0]
	if !dataCenterTrainingGPU(top.SKU.GPU.ModelID) || top.Estimate == nil || top.Estimate.JobHours == nil {
		t.Fatalf("top %s (%s), estimate %+v: want an A100 or H100 class size with job hours", top.VMSize, top.SKU.GPU.ModelID, top.Estimate)
	}
	for _, r := range res.Recommendations {
		e := r.Estimate
		if e == nil || e.SamplesPerSecond == nil || e.TokensPerSecond != nil || e.CostPerMillionTokens != nil {
			t.Errorf("%s: estimate %+v, want samples per second and no token figures", r.VMSize, e)
		}
	}
	assertNoDominatedAbove(t, res, func(r Recommendation) float64 { return *r.Estimate.SamplesPerSecond })
}

// assertNoDominatedAbove fails when a recommendation ranks above one that
// is at least as fast for no more money: a faster GPU at the same price
// never ranks lower.
func assertNoDominatedAbove(t *testing.T, res *Result, speed func(Recommendation) float64) {
	t.Helper()
	recs, pairs := res.Recommendations, 0
	for i := range recs {
		for j := i + 1; j < len(recs); j++ {
			a, b := recs[i], recs[j]
			if a.TotalPricePerHour == nil || b.TotalPricePerHour == nil {
				continue
			}
			pairs++
			if dominates(*b.TotalPricePerHour, speed(b), *a.TotalPricePerHour, speed(a)) {
				t.Errorf("%s (rank %d, %.3f USD/h, %.4g) ranks above %s (rank %d, %.3f USD/h, %.4g), which is faster for no more",
					a.VMSize, a.Rank, *a.TotalPricePerHour, speed(a), b.VMSize, b.Rank, *b.TotalPricePerHour, speed(b))
			}
		}
	}
	if pairs < 10 {
		t.Errorf("only %d priced pairs of recommendations to compare", pairs)
	}
}

// An unnamed 0.3B vision model in bf16, with neither its work per sample
// nor its samples: not timed, so no estimate, a warning naming what to
// set, and its sizes ranked by the FLOP/s they give per USD, which puts an
// A100 or H100 first rather than the cheapest slice of a GPU.
func TestUntimedVisionTrainingRanksByRatePerUSD(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, MaxResults: i64(50),
		Model: &Model{ParametersBillion: 0.3, Precision: PrecisionBF16, Class: ClassNonGenerative}})
	top := res.Recommendations[0]
	if !dataCenterTrainingGPU(top.SKU.GPU.ModelID) || top.Estimate != nil {
		t.Errorf("top %s (%s), estimate %+v: want an A100 or H100 class size, not timed", top.VMSize, top.SKU.GPU.ModelID, top.Estimate)
	}
	if !hasWarning(res.Warnings, "Training Not Timed", "model.forward_gflops") {
		t.Errorf("warnings %+v: want Training Not Timed naming model.forward_gflops", res.Warnings)
	}
	cheapest := res.Recommendations[0]
	for _, r := range res.Recommendations {
		if r.TotalPricePerHour != nil && *r.TotalPricePerHour < *cheapest.TotalPricePerHour {
			cheapest = r
		}
	}
	if cheapest.VMSize == top.VMSize {
		t.Errorf("the cheapest size %s ranks first: price alone decided", top.VMSize)
	}
	// With the work stated, the same model is timed.
	res = mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf,
		Model:          &Model{ParametersBillion: 0.3, Precision: PrecisionBF16, Class: ClassNonGenerative, ForwardGFLOPs: 120},
		SamplesMillion: f64(115)})
	if e := res.Recommendations[0].Estimate; e == nil || e.JobHours == nil || e.SamplesPerSecond == nil {
		t.Errorf("with forward_gflops and samples_million: estimate %+v, want job hours", e)
	}
}

// A vision model is timed on ImageNet-1k × 90 epochs by default, and says
// so; a diffusion or speech model is not, until samples_million is set.
func TestSampleDefaultsByKind(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{Name: "resnet-50"}})
	if rq := res.Requirements; rq.TrainingSamplesMillion != DefaultVisionSamplesMillion || rq.Defaults["samples_million"] != "115.3" ||
		!strings.Contains(rq.TokenBudget, "ImageNet-1k") {
		t.Errorf("resnet-50: %v million samples, defaults %v, budget %q", rq.TrainingSamplesMillion, rq.Defaults, rq.TokenBudget)
	}
	for _, name := range []string{"stable-diffusion-3-medium", "whisper-large-v3"} {
		req := Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{Name: name}}
		res := mustRecommend(t, req)
		if res.Requirements.TrainingFLOPs != 0 || !hasWarning(res.Warnings, "Training Not Timed", "samples_million") {
			t.Errorf("%s without samples_million: %g FLOPs, warnings %+v", name, res.Requirements.TrainingFLOPs, res.Warnings)
		}
		req.SamplesMillion = f64(10)
		res = mustRecommend(t, req)
		if e := res.Recommendations[0].Estimate; res.Requirements.TrainingSamplesMillion != 10 || e == nil || e.JobHours == nil {
			t.Errorf("%s with samples_million: %v million samples, estimate %+v", name, res.Requirements.TrainingSamplesMillion, e)
		}
	}
	// An encoder is timed by tokens, like a language model.
	res = mustRecommend(t, Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{Name: "bert-large"}, TokensBillion: f64(10)})
	if e := res.Recommendations[0].Estimate; e == nil || e.JobHours == nil || e.TokensPerSecond == nil {
		t.Errorf("bert-large with tokens_billion: estimate %+v", e)
	}
}

// LoRA of a vision model costs 2 forward passes per sample, full training 3.
func TestLoRASampleWork(t *testing.T) {
	full := mustRecommend(t, Request{Workload: WorkloadFineTuning, AsOf: asOf, Model: &Model{Name: "vit-huge"}, FineTuningMethod: MethodFull, SamplesMillion: f64(1)})
	lora := mustRecommend(t, Request{Workload: WorkloadFineTuning, AsOf: asOf, Model: &Model{Name: "vit-huge"}, FineTuningMethod: MethodLoRA, SamplesMillion: f64(1)})
	if r := lora.Requirements.TrainingFLOPs / full.Requirements.TrainingFLOPs; r < 0.66 || r > 0.67 {
		t.Errorf("LoRA ÷ full FLOPs = %v, want 2 ÷ 3", r)
	}
}

// samples_million and model.forward_gflops where no job is timed by
// samples are errors on the attribute, naming what to do.
func TestSampleInputsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		path string
		want string
	}{
		{"with tokens_billion", Request{Workload: WorkloadTraining, Model: &Model{Name: "vit-large"}, SamplesMillion: f64(1), TokensBillion: f64(1)}, "samples_million", "Set the one for this model"},
		{"a language model", Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, SamplesMillion: f64(1)}, "samples_million", "timed by tokens_billion"},
		{"an encoder", Request{Workload: WorkloadTraining, Model: &Model{Name: "bert-base"}, SamplesMillion: f64(1)}, "samples_million", "encoder model"},
		{"an unnamed generative model", Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 1}, SamplesMillion: f64(1)}, "samples_million", `model.class = "nongenerative"`},
		{"forward on a language model", Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 1, ForwardGFLOPs: 10}}, "model.forward_gflops", "Remove model.forward_gflops"},
		{"forward for inference", Request{Workload: WorkloadInference, Model: &Model{Name: "vit-large", ForwardGFLOPs: 10}}, "model.forward_gflops", "not workload \"inference\""},
		{"serving", Request{Workload: WorkloadInference, Model: &Model{Name: "vit-large"}, SamplesMillion: f64(1)}, "samples_million", "training and fine-tuning"},
		{"too many", Request{Workload: WorkloadTraining, Model: &Model{Name: "vit-large"}, SamplesMillion: f64(2e6)}, "samples_million", "at most 1,000,000"},
		{"no forward", Request{Workload: WorkloadTraining, Model: &Model{Name: "vit-large", ForwardGFLOPs: -1}}, "model.forward_gflops", "greater than 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.AsOf = asOf
			_, err := testEngine(t).Recommend(tc.req)
			ve, ok := err.(*ValidationError)
			if !ok {
				t.Fatalf("error %v, want a validation error", err)
			}
			for _, f := range ve.Errors {
				if strings.Join(f.Path, ".") == tc.path && strings.Contains(f.Detail, tc.want) {
					return
				}
			}
			t.Errorf("errors %+v, want one at %s containing %q", ve.Errors, tc.path, tc.want)
		})
	}
}

// hasWarning reports whether a warning has the summary and mentions text.
func hasWarning(ws []Warning, summary, text string) bool {
	for _, w := range ws {
		if w.Summary == summary && strings.Contains(w.Detail, text) {
			return true
		}
	}
	return false
}

// A vision job with a deadline scales out like a language model's, within
// max_nodes: ViT-H/14 on 1,000 million samples within 24 hours needs
// several VMs of 8 GPUs with InfiniBand, and none beyond the cap.
func TestVisionDeadlineScalesOut(t *testing.T) {
	req := Request{Workload: WorkloadTraining, AsOf: asOf, Model: &Model{Name: "vit-huge", Precision: PrecisionBF16},
		SamplesMillion: f64(1000), DeadlineHours: f64(24), MaxResults: i64(20)}
	res := mustRecommend(t, req)
	top := res.Recommendations[0]
	if top.Nodes < 2 || top.Estimate == nil || top.Estimate.JobHours == nil || *top.Estimate.JobHours > 24 {
		t.Fatalf("top %s on %d VMs, estimate %+v: want several VMs within 24 hours", top.VMSize, top.Nodes, top.Estimate)
	}
	req.MaxNodes = i64(top.Nodes - 1)
	res, err := testEngine(t).Recommend(req)
	if err == nil {
		for _, r := range res.Recommendations {
			if r.Nodes > *req.MaxNodes || *r.Estimate.JobHours > 24 {
				t.Errorf("%s on %d VMs, %v hours: beyond max_nodes %d or the deadline", r.VMSize, r.Nodes, *r.Estimate.JobHours, *req.MaxNodes)
			}
		}
	}
}

// The reasons say how a training job uses a size's GPU memory as it is:
// Whisper large v3 without samples_million (ranked by its rate per USD)
// fills 66% of what it may use of one H100 NVL (55.43 GiB of 94 × 0.9 =
// 84.6, GPUMemoryShare), not 100%; a LoRA fine-tune of an 8B model that
// one GPU of an 8-GPU VM holds trains on all eight, which the VM pays for,
// its states sharded over them and each keeping its own activations (3.49
// GiB at 4,096 tokens: 5.51 GiB per GPU of the 79.65 × 0.9 = 71.69 it may
// use).
func TestTrainingReasonsSayTheMemoryItUses(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, Model: &Model{Name: "whisper-large-v3"}, MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	if r := byName(res, "Standard_NC40ads_H100_v5"); r == nil || !strings.Contains(r.Reasons[1], "(94 GiB of GPU memory, 66% used)") {
		t.Errorf("whisper on NC40ads_H100_v5: %+v", r)
	}
	res = mustRecommend(t, Request{Workload: WorkloadFineTuning, FineTuningMethod: "lora", Model: &Model{Name: "llama-3.1-8b"}, Prefer: []string{"Standard_ND96isr_H100_v5"}, AsOf: asOf})
	if r := res.Recommendations[0]; !slices.Contains(r.Reasons, "The states are sharded over 8 GPUs (5.51 GiB per GPU, with its own activations, of 71.69 GiB usable).") {
		t.Errorf("%s: %q", r.VMSize, r.Reasons)
	}
}

// An estimate's efficiency is rounded as its other fractions are (round4):
// Whisper large v3 fine-tuned on 10 million samples reported
// 0.20000000000000004, the speech MFU 0.20 × the H100's 0.40 ÷ 0.40 in
// floating point; 0.2 now, as the 20% its rate sentence gives.
func TestEstimateEfficiencyIsRounded(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "whisper-large-v3"}, SamplesMillion: f64(10), MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	for _, r := range res.Recommendations {
		if e := r.Estimate; e != nil && e.Efficiency != round4(e.Efficiency) {
			t.Errorf("%s: efficiency %v", r.VMSize, e.Efficiency)
		}
	}
	if r := byName(res, "Standard_NC40ads_H100_v5"); r == nil || r.Estimate == nil || r.Estimate.Efficiency != 0.2 {
		t.Errorf("NC40ads_H100_v5: %+v, want efficiency 0.2", r)
	}
	if res.Requirements.Efficiency != round4(res.Requirements.Efficiency) {
		t.Errorf("requirements efficiency %v", res.Requirements.Efficiency)
	}
}

// A training or fine-tuning job estimated from its model fills at most
// GPUMemoryShare (90%) of each GPU's usable memory, as a served model
// does: the CUDA context, NCCL buffers and the allocator's fragmentation
// take the rest. These layouts filled up to 99.7% of it: full fine-tuning
// of 34B at 4 × 2,048 tokens 79.16 GiB per GPU of the H100's 79.65,
// gemma-2-27b QLoRA 23.88 GiB of the RTX PRO 6000 slice's 24, 13B QLoRA at
// 16,384 tokens 14.04 of the T4's 15. Each size now either leaves the
// reserve, its reason naming the memory the job may use (usable × 0.9),
// or is not ranked (24 × 0.9 = 21.6 < 23.88 GiB; 15 × 0.9 = 13.5 < 14.04,
// the T4 VM's 4 GPUs the most the job may span without InfiniBand).
func TestTrainingLeavesTheRuntimeReserve(t *testing.T) {
	for _, c := range trainingReserveCases {
		t.Run(c.name, func(t *testing.T) {
			c.req.MaxResults, c.req.AsOf = i64(MaxResultsLimit), asOf
			seen := false
			for _, r := range mustRecommend(t, c.req).Recommendations {
				for _, reason := range r.Reasons {
					if held, may, ok := perGPUFigures(reason); ok {
						seen = checkReserve(t, r.VMSize, reason, held, may, c.size, c.usable) || seen
					}
				}
			}
			if seen == c.rejected {
				t.Errorf("%s ranked with a per-GPU figure: %v, want %v", c.size, seen, !c.rejected)
			}
		})
	}
}

// layoutPerGPU matches a training layout's reason on the GiB one GPU
// holds of the GiB it may use.
var layoutPerGPU = regexp.MustCompile(`\(([\d.,]+) GiB (?:per GPU(?:, with its own activations,)? )?of ([\d.,]+) GiB usable\)`)

// perGPUFigures reads the GiB one GPU holds and the GiB it may use from a
// layout reason.
func perGPUFigures(reason string) (held, may float64, ok bool) {
	m := layoutPerGPU.FindStringSubmatch(reason)
	if m == nil {
		return 0, 0, false
	}
	held, _ = strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	may, _ = strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	return held, may, true
}

// checkReserve checks that a layout holds at most what it may use and, on
// the size pinned (whose GPU exposes usable GiB), that what it may use is
// usable × GPUMemoryShare; it reports whether vm is that size.
func checkReserve(t *testing.T, vm, reason string, held, may float64, size string, usable float64) bool {
	t.Helper()
	if held > may+0.005 {
		t.Errorf("%s holds %v GiB per GPU, above the %v GiB it may use: %q", vm, held, may, reason)
	}
	if vm != size {
		return false
	}
	if want := usable * perfmodel.GPUMemoryShare; math.Abs(may-want) > 0.005 || held > want+0.005 {
		t.Errorf("%s: %q, want at most %v GiB usable (%v × %v)", vm, reason, want, usable, perfmodel.GPUMemoryShare)
	}
	return true
}

// trainingReserveCases are TestTrainingLeavesTheRuntimeReserve's jobs, each
// with a size it filled above the reserve, the GiB one GPU of it exposes,
// and whether the size can no longer hold the job.
var trainingReserveCases = []struct {
	name     string
	req      Request
	size     string
	usable   float64
	rejected bool
}{
	{"34B full fine-tuning at 4 × 2,048 tokens", Request{Workload: WorkloadFineTuning, Model: &Model{ParametersBillion: 34}, ContextTokens: i64(2048), TrainingBatchSize: i64(4), Prefer: []string{"Standard_ND96isr_H100_v5"}}, "Standard_ND96isr_H100_v5", 79.65, false},
	{"gemma-2-27b QLoRA", Request{Workload: WorkloadFineTuning, FineTuningMethod: "qlora", Model: &Model{Name: "gemma-2-27b"}}, "Standard_NC24lds_xl_RTXPRO6000BSE_v6", 24, true},
	{"13B QLoRA at 16k", Request{Workload: WorkloadFineTuning, FineTuningMethod: "qlora", Model: &Model{ParametersBillion: 13}, ContextTokens: i64(16384)}, "Standard_NC64as_T4_v3", 15, true},
	{"13B QLoRA at 32k", Request{Workload: WorkloadFineTuning, FineTuningMethod: "qlora", Model: &Model{ParametersBillion: 13}, ContextTokens: i64(32768)}, "Standard_ND40rs_v2", 32, false},
}
