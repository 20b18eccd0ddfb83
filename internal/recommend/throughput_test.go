// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// The throughput estimates of the layouts below are pinned against hand
// calculations written next to each, from the catalog's performance facts
// (dense TFLOPS, memory bandwidth, STREAM) and the documented constants of
// rules.go. Figures that depend on prices, or on the other sizes of the
// catalog, are pinned on the fixture catalog; on the embedded catalog only
// a size's own hours, efficiency and layout, and ratios between sizes.

func f64p(v float64) *float64 { return &v }

// near reports whether got is within 0.5% of want.
func near(got *float64, want float64) bool {
	return got != nil && math.Abs(*got-want) <= 0.005*math.Abs(want)
}

func estimateOf(t *testing.T, res *Result, size string) *Estimate {
	t.Helper()
	r := byName(res, size)
	if r == nil {
		t.Fatalf("%s not ranked: %v", size, names(res))
	}
	if r.Estimate == nil {
		t.Fatalf("%s has no estimate", size)
	}
	return r.Estimate
}

func TestThroughputEstimatesPinned(t *testing.T) {
	t.Run("pretraining 7B on 2T tokens by a deadline on A100 40 GB", pinnedPretrainingByDeadline)
	t.Run("a deadline no layout meets", pinnedDeadlineNotMet)
	t.Run("LoRA on one H100 NVL", pinnedLoRAOnH100NVL)
	t.Run("full fine-tuning on two linked H100 NVL", pinnedFullFineTuningOnH100NVL)
	t.Run("PCIe GPUs and a partial GPU", pinnedPCIeGPUs)
	t.Run("serving Llama 3.1 8B on one H100 NVL", pinnedServingOnH100NVL)
	t.Run("bandwidth-bound MPI", pinnedBandwidthBoundMPI)
}

// pinnedPretrainingByDeadline: pretraining 7B on 2T tokens by a deadline
// on A100 40 GB, on the VMs the deadline takes: their hours, cost and
// tokens per second.
func pinnedPretrainingByDeadline(t *testing.T) {
	// 6 × 7e9 × 2e12 = 8.4e22 FLOPs. One ND96asr_v4: 8 × 312 TFLOPS ×
	// 40% MFU = 9.984e14 FLOP/s: 23,371 hours. 2,000 hours take
	// ⌈23,371 / 2,000⌉ = 12 VMs over InfiniBand (MFU unchanged):
	// 8.4e22 / (12 × 9.984e14) / 3,600 = 1,947.56 hours, at 12 ×
	// 27.197 USD per hour in eastus = 635,613.65 USD; 2e12 tokens /
	// (1,947.56 × 3,600 s) = 285,257 tokens per second; 635,613.65 /
	// 2e6 million tokens = 0.3178 USD per million.
	res := mustRecommendOn(t, fixture(t), Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64p(2000), DeadlineHours: f64p(2000),
		GPUModels: []string{"a100-sxm-40gb"}, Region: "eastus", AsOf: asOf})
	r := res.Recommendations[0]
	e := r.Estimate
	if r.VMSize != "Standard_ND96asr_v4" || r.Nodes != 12 || !r.Deployment.RDMA || !near(e.JobHours, 1947.56) || !near(e.JobCostUSD, 635613.65) ||
		!near(e.TokensPerSecond, 285257) || !near(e.CostPerMillionTokens, 0.3178) || e.Efficiency != 0.40 {
		t.Errorf("%s on %d VMs: %+v", r.VMSize, r.Nodes, e)
	}
	rq := res.Requirements
	if rq.TrainingFLOPs != 8.4e22 || rq.TrainingTokensBillion != 2000 || rq.TokenBudget != "tokens_billion" || rq.DeadlineHours != 2000 || rq.Efficiency != 0.40 {
		t.Errorf("requirements %+v", rq)
	}
}

// pinnedDeadlineNotMet: a deadline no layout meets; the nearest miss
// names the hours it takes on the VMs one job may span.
func pinnedDeadlineNotMet(t *testing.T) {
	// 10 hours would take ⌈23,371 / 10⌉ = 2,338 ND96asr_v4 VMs, more
	// than the 100 an InfiniBand job may use: deadline. On 100 VMs the
	// job takes 233.71 hours.
	nf := mustNoFitOn(t, fixture(t), Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64p(2000), DeadlineHours: f64p(10),
		GPUModels: []string{"a100-sxm-40gb"}, Region: "eastus", AsOf: asOf})
	if m := nf.NearestMiss; m == nil || m.VMSize != "Standard_ND96asr_v4" || m.FailedConstraint != "deadline" ||
		!strings.Contains(m.Relax, "raise deadline_hours to at least 234 (the job takes that long on 100 VMs of it)") {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
}

// pinnedLoRAOnH100NVL: LoRA on one H100 NVL, and on the eight GPUs of an
// 8-GPU H100 VM.
func pinnedLoRAOnH100NVL(t *testing.T) {
	// Llama 3.1 8B LoRA on the default 0.1B tokens: (4 × 8.03e9 + 4 ×
	// 32 layers × 4,096 tokens × 4,096 attention width) × 1e8 =
	// 3.427e18 FLOPs; one H100 NVL: 835.5 TFLOPS × 40% = 3.342e14
	// FLOP/s: 2.85 hours, × 6.98 USD = 19.88 USD.
	res := mustRecommendOn(t, fixture(t), Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodLoRA, MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	e := estimateOf(t, res, "Standard_NC40ads_H100_v5")
	if !near(e.JobHours, 2.848) || !near(e.JobCostUSD, 19.88) || e.Efficiency != 0.40 {
		t.Errorf("estimate %+v", e)
	}
	if !strings.Contains(res.Requirements.TokenBudget, "0.1 billion tokens") {
		t.Errorf("token budget %q", res.Requirements.TokenBudget)
	}
	// The same job on an 8-GPU H100 VM fits one GPU, but the VM is paid
	// for whole and its eight GPUs finish it sooner for less: 8 × 989.5
	// TFLOPS × 40% = 3.166e15 FLOP/s, 0.3006 hours at 98.32 USD per hour
	// = 29.56 USD (one of the eight took 2.405 hours, 236.5 USD).
	e = estimateOf(t, res, "Standard_ND96isr_H100_v5")
	if !near(e.JobHours, 0.3006) || !near(e.JobCostUSD, 29.56) {
		t.Errorf("ND96isr_H100_v5 estimate %+v", e)
	}
}

// pinnedFullFineTuningOnH100NVL: full fine-tuning on two H100 NVL linked
// by NVLink.
func pinnedFullFineTuningOnH100NVL(t *testing.T) {
	// (6 × 8.03e9 + 6 × 32 × 4,096 × 4,096) × 1e8 = 5.140e18 FLOPs;
	// 149.57 GiB does not fit one GPU: both, linked by NVLink: 2 ×
	// 835.5 TFLOPS × 40% = 6.684e14 FLOP/s: 2.136 hours, at the price of
	// the VM.
	res := mustRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	r := byName(res, "Standard_NC80adis_H100_v5")
	if r == nil || r.Estimate == nil {
		t.Fatalf("NC80adis_H100_v5 not ranked with an estimate: %v", names(res))
	}
	if e := r.Estimate; !near(e.JobHours, 2.136) || !near(e.JobCostUSD, *e.JobHours**r.TotalPricePerHour) {
		t.Errorf("estimate %+v", e)
	}
}

// pinnedPCIeGPUs: 7B training on PCIe GPUs and a partial GPU, and the
// layouts that meet the default deadline first.
func pinnedPCIeGPUs(t *testing.T) {
	// 7B training on the Chinchilla budget: 20 × 7 = 140B tokens, 6 ×
	// 7e9 × 1.4e11 = 5.88e21 FLOPs. Two RTX PRO 6000 without NVLink:
	// 2 × 500 TFLOPS × 30% × 0.8 = 2.4e14 FLOP/s: 6,805.56 hours, past
	// the 720-hour default (no InfiniBand to scale out): a warning.
	res := mustRecommend(t, Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, Region: "eastus", MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	r := byName(res, "Standard_NC288ds_xl_RTXPRO6000BSE_v6")
	if r == nil || !near(r.Estimate.JobHours, 6805.56) || !near(f64p(r.Estimate.Efficiency), 0.24) ||
		!strings.Contains(strings.Join(r.Warnings, " "), "beyond the 720-hour default") {
		t.Errorf("NC288ds_xl_RTXPRO6000BSE_v6: %+v", r)
	}
	if !strings.Contains(res.Requirements.TokenBudget, "20 tokens per parameter") || res.Requirements.TrainingTokensBillion != 140 {
		t.Errorf("requirements %+v", res.Requirements)
	}
	// The layouts that meet the default deadline rank first. One
	// ND128isr_NDR_GB200_v6, 4 × 2,500 TFLOPS × 40% = 4e15 FLOP/s,
	// takes 408.33 hours; one ND96isr_H100_v5, 8 × 989.5 × 40% =
	// 3.166e15 FLOP/s, 515.83 hours: both within 720, so time to result
	// does not part them.
	if top := res.Recommendations[0]; top.Estimate == nil || top.Estimate.JobHours == nil || *top.Estimate.JobHours > DefaultDeadlineHours {
		t.Errorf("top %s %+v: past the default deadline", top.VMSize, top.Estimate)
	}
	if gb := estimateOf(t, res, "Standard_ND128isr_NDR_GB200_v6"); !near(gb.JobHours, 408.33) {
		t.Errorf("ND128isr_NDR_GB200_v6 %+v", gb)
	}
	if h100 := estimateOf(t, res, "Standard_ND96isr_H100_v5"); !near(h100.JobHours, 515.83) {
		t.Errorf("ND96isr_H100_v5 %+v", h100)
	}
	// On the fixture catalog, without the GB200, the H100 ranks first:
	// 515.83 hours × 98.32 USD = 50,716.69 USD.
	if top := mustRecommendOn(t, fixture(t), Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, Region: "eastus", AsOf: asOf}).Recommendations[0]; top.VMSize != "Standard_ND96isr_H100_v5" || !near(top.Estimate.JobCostUSD, 50716.69) {
		t.Errorf("fixture: top %s %+v", top.VMSize, top.Estimate)
	}
}

// pinnedServingOnH100NVL: serving Llama 3.1 8B on one H100 NVL: a stated
// concurrency, a throughput, and a throughput the stated concurrency
// cannot reach.
func pinnedServingOnH100NVL(t *testing.T) {
	// 32 sequences of 8,192 tokens on one copy, each request 7,168
	// prompt and 1,024 output tokens (the default split of the stated
	// context). A decode step reads 14.96 GiB of weights and the KV
	// cache of 32 sequences holding 7,680 tokens on average (32 × 1 GiB
	// × 7,680 / 8,192): (16.06e9 + 32.21e9) / (3,900 GB/s × 72%) =
	// 17.19 ms; its arithmetic, 32 × (2 × 8.03e9 + 4 × 32 layers × 4,096
	// × 7,680) / (835.5 TFLOPS × 30%) = 2.56 ms. A prefill, (2 × 8.03e9
	// × 7,168 + 2 × 32 × 4,096 × 7,168²) / (835.5 TFLOPS × 86%) =
	// 178.96 ms. Over 1,024 steps and 32 prefills: 1,024 × 19.76 ms +
	// 32 × 178.96 ms = 25.96 s for 32 × 1,024 tokens, 1,262 per second;
	// 6.98 / (1,262.4 × 3,600) × 1e6 = 1.5359 USD per million; a token
	// every 25.96 s / 1,024 = 25.3 ms, the first after 178.96 + 19.76 +
	// 30 (the server's own work, FirstTokenSeconds) = 228.7 ms. Without a
	// load these are the idle figures.
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32), MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	cat := fixture(t)
	res := mustRecommendOn(t, cat, req)
	r := byName(res, "Standard_NC40ads_H100_v5")
	if r == nil || r.Replicas != 1 || !near(r.Estimate.TokensPerSecond, 1262) || !near(r.Estimate.CostPerMillionTokens, 1.5359) || r.Estimate.Efficiency != perfmodel.InferenceMBU ||
		!near(r.Estimate.TimeToFirstTokenMs, 228.7) || !near(r.Estimate.TimePerOutputTokenMs, 25.3) {
		t.Fatalf("NC40ads_H100_v5: %+v", r)
	}
	// 5,000 tokens per second, concurrency not stated: a batch service
	// (no latency target) fills each copy to what its KV cache holds,
	// (94 × 90% − 15.71) / 1 GiB = 68 sequences. A step then reads
	// 16.06e9 + 68 × 0.9375 × 2^30 = 84.51e9 bytes: 30.1 ms (the
	// arithmetic, 5.45 ms); 1,024 steps and 68 prefills take 48.57 s:
	// 1,434 tokens per second per copy; ⌈5,000 / (90% × 1,434)⌉ = 4
	// copies on 4 VMs, 5,735 tokens per second of capacity, with no
	// InfiniBand.
	req.TokensPerSecond, req.ConcurrentRequests = f64p(5000), nil
	res = mustRecommendOn(t, cat, req)
	r = byName(res, "Standard_NC40ads_H100_v5")
	if r == nil || r.Replicas != 4 || r.Nodes != 4 || r.Deployment.RDMA || !near(r.Estimate.TokensPerSecond, 5735) || res.Requirements.ConcurrentRequests >= 4*68 {
		t.Errorf("NC40ads_H100_v5 at 5,000 tokens per second: %+v, %d requests in flight", r, res.Requirements.ConcurrentRequests)
	}
	// With 32 conversations stated as well, the load still sizes the
	// service: the conversations are a floor on the KV cache the copies
	// hold (4 × 68 ≥ 32), not the batch that must carry 5,000 tokens per
	// second (which asked 156 tokens per second of each conversation).
	// Stated conversations make the service interactive, held to the
	// default 2,000 ms to the first token: at 87% of their capacity the
	// four copies' queue puts it at 1,758 ms, within it, so the layout
	// keeps the four copies the load takes.
	req.ConcurrentRequests = i64(32)
	res = mustRecommendOn(t, cat, req)
	if r := byName(res, "Standard_NC40ads_H100_v5"); r == nil || r.Replicas != 4 || !near(r.Estimate.TokensPerSecond, 5735) || *r.Estimate.TimeToFirstTokenMs > DefaultTimeToFirstTokenMs ||
		res.Requirements.ConcurrentRequests != 32 {
		t.Errorf("NC40ads_H100_v5 with 32 conversations stated: %+v", r)
	}
}

// pinnedBandwidthBoundMPI: bandwidth-bound MPI on HBv3 and on HBv5 sizes
// with constrained cores.
func pinnedBandwidthBoundMPI(t *testing.T) {
	// 2,000 cores over 17 HB120rs_v3 VMs run 117.65 cores on each: a =
	// 117.65 × 3.0 GB/s per GHz × 3.0 GHz = 1,058.82 against STREAM 350,
	// (a⁻² + 350⁻²)^(−1/2) = 332.32 GB/s per VM, × 17 × the efficiency
	// on 17 VMs, 1 / (1 + 0.02 × 16) = 0.7576: 4,279.81. HBv5's 6,600
	// GB/s of HBM is far from what a constrained size's few cores draw:
	// 21 HB368-96rs_v5 VMs of 95.24 cores × 4.0 GHz, a = 1,142.86,
	// 1,126.10 × 21 / 1.4 = 16,891.49; 42 HB368-48rs_v5 VMs × 569.30 ×
	// 42 / 1.82 = 13,137.66; 14 HB368-144rs_v5 VMs of 142.86 cores ×
	// 1,659.23 × 14 / 1.26 = 18,435.88. Relative throughputs are to the
	// best candidate, which a new size may be: their ratios are pinned.
	res := mustRecommend(t, Request{Workload: WorkloadHPC, Cores: i64(2000), Region: "eastus", MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	ref := estimateOf(t, res, "Standard_HB368-96rs_v5")
	ratio := func(size string) *float64 {
		return f64p(*estimateOf(t, res, size).RelativeThroughput / *ref.RelativeThroughput)
	}
	if e := estimateOf(t, res, "Standard_HB120rs_v3"); !near(ratio("Standard_HB120rs_v3"), 4279.81/16891.49) || !near(&e.Efficiency, 1/1.32) {
		t.Errorf("HB120rs_v3 %+v", e)
	}
	if !near(ratio("Standard_HB368-48rs_v5"), 13137.66/16891.49) || !near(ratio("Standard_HB368-144rs_v5"), 18435.88/16891.49) {
		t.Errorf("HBv5 ratios: 48 cores %v, 144 cores %v", *ratio("Standard_HB368-48rs_v5"), *ratio("Standard_HB368-144rs_v5"))
	}
	if res.Requirements.HPCBound != BoundMemoryBandwidth {
		t.Errorf("bound %q", res.Requirements.HPCBound)
	}
}

// EstimateTrainingHours uses the same constants: 7B on 2T tokens on 12
// ND96asr_v4 VMs is 1,947.56 hours, as Recommend estimates it.
func TestResolveTrainingRun(t *testing.T) {
	eng := testEngine(t)
	run, err := eng.ResolveTrainingRun(7, 2000, "standard_nd96asr_v4", 12, "")
	if est, timed := run.Time(); err != nil || !timed || catalog.Round2(est.Hours) != 1947.56 || est.FLOPs != 8.4e22 || est.MFU != 0.40 || run.Ethernet {
		t.Errorf("estimate %+v of %+v, %v", est, run, err)
	}
	// Two VMs without InfiniBand: 2 × 2 × 835.5 × 40% × 0.5 (Ethernet) =
	// 6.684e14 FLOP/s for 6 × 7e9 × 1.4e11 = 5.88e21: 2,443.65 hours.
	run, err = eng.ResolveTrainingRun(7, 140, "Standard_NC80adis_H100_v5", 2, "bf16")
	if est, timed := run.Time(); err != nil || !timed || catalog.Round2(est.Hours) != 2443.65 || !run.Ethernet {
		t.Errorf("estimate %+v of %+v, %v", est, run, err)
	}
	for _, tt := range []struct {
		active, tokens float64
		size           string
		nodes          int64
		precision      string
		path           string
	}{
		{0, 1, "Standard_ND96asr_v4", 1, "", "active_parameters_billion"},
		{7, -1, "Standard_ND96asr_v4", 1, "", "tokens_billion"},
		{7, 1, "Standard_ND96asr_v5", 1, "", "vm_size"},
		{7, 1, "Standard_HB120rs_v3", 1, "", "vm_size"},
		{7, 1, "Standard_ND96asr_v4", 0, "", "nodes"},
		{7, 1, "Standard_ND96asr_v4", 1, "int4", "precision"},
		{7, 1, "Standard_ND96asr_v4", 1, "fp8", "precision"},
	} {
		_, err := eng.ResolveTrainingRun(tt.active, tt.tokens, tt.size, tt.nodes, tt.precision)
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Errors) == 0 || strings.Join(ve.Errors[0].Path, ".") != tt.path {
			t.Errorf("%+v: %v", tt, err)
		}
	}
}

// A run the catalog cannot time is an error, never 0 hours: on every GPU
// size of the catalog, at every precision, ResolveTrainingRun either
// refuses the run or its time is above 0 hours. Sizes whose GPU count the
// catalog lacks (NVv4's Standard_NV16ahs_v4, named only on its retirement
// page) are refused on vm_size, naming their replacement.
func TestTrainingRunIsTimedOrRefused(t *testing.T) {
	eng := testEngine(t)
	timed := 0
	for i := range eng.prep.sizes {
		in := &eng.prep.sizes[i]
		if !in.IsGPU {
			continue
		}
		for _, precision := range Precisions() {
			run, err := eng.ResolveTrainingRun(7, 100, in.sku.Name, 2, precision)
			if err != nil {
				continue
			}
			timed++
			if est, ok := run.Time(); !ok || !(est.Hours > 0) || math.IsInf(est.Hours, 0) {
				t.Errorf("%s at %s: %v hours, want an error or a time above 0", in.sku.Name, precision, est.Hours)
			}
		}
	}
	if timed < 100 {
		t.Errorf("only %d runs timed", timed)
	}
	for _, tt := range []struct{ size, precision, replacement string }{
		{"Standard_NV16ahs_v4", "fp16", "Standard_NV12ads_V710_v5"},
		{"Standard_NV12hs_v3", "fp32", "Standard_NV12ads_A10_v5"},
	} {
		_, err := eng.ResolveTrainingRun(7, 100, tt.size, 1, tt.precision)
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Errors) != 1 || strings.Join(ve.Errors[0].Path, ".") != "vm_size" ||
			!strings.Contains(ve.Errors[0].Detail, "GPU count") || !strings.Contains(ve.Errors[0].Detail, tt.replacement) {
			t.Errorf("%s at %s: %v, want an error on vm_size naming the unknown GPU count and %s", tt.size, tt.precision, err, tt.replacement)
		}
	}
}

// A job of seconds is reported in hours and dollars that are not zero: a
// fine-tuning or training run of 100,000 tokens, a vision model of 1,000
// images and an HPC job whose reference run took 1.8 seconds each get job
// hours and a job cost above 0, in their figures and their reasons.
func TestShortJobsNeverReadAsNone(t *testing.T) {
	eng := testEngine(t)
	tokens, samples := 0.0001, 0.001
	for _, req := range []Request{
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: &tokens},
		{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: &tokens},
		{Workload: WorkloadTraining, Model: &Model{Name: "resnet-50"}, SamplesMillion: &samples},
		{Workload: WorkloadHPC, Cores: i64(120), Prefer: []string{"Standard_HB120rs_v3"}, Region: "eastus",
			ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 1, Hours: 0.0005}},
	} {
		req.AsOf = asOf
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Recommendations {
			est := r.Estimate
			if est == nil || est.JobHours == nil || est.JobCostUSD == nil {
				continue
			}
			if why := strings.Join(r.Reasons, " "); *est.JobHours <= 0 || *est.JobCostUSD <= 0 || strings.Contains(why, "Estimated 0 hours") || strings.Contains(why, " 0.00 USD in all") {
				t.Errorf("%s %s: %v hours, %v USD: %q", req.Workload, r.VMSize, *est.JobHours, *est.JobCostUSD, r.Reasons)
			}
		}
	}
}
