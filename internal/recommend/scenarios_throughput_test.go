// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// Judgements on the throughput model, on the embedded catalog: what a
// layout scaled for time or throughput must hold, and the arithmetic an
// estimate shows. Each asserts what an Azure HPC/AI architect would sign,
// with the hand arithmetic from the catalog's performance facts.

// Scale up before scale out holds in time as in memory: a size that holds
// a training job on one VM but runs it past the deadline does not make the
// sizes that scale out to meet it go. Pretraining 20B on the default 20
// tokens per parameter: 4.8e22 FLOPs. ND96is_MI300X_v5 (no InfiniBand)
// holds the 447.03 GiB on one VM but takes 4.8e22 / (8 × 1,307.4e12 ×
// 0.3) / 3,600 = 4,249 hours there, six times the default 720; the
// InfiniBand sizes finish within it on a few VMs (the H100 on
// ⌈4.8e22 / (720 × 3,600 × 3.166e15)⌉ = 6, 701.8 hours). Removing those
// by scale_up would leave a six-month job on one VM as the answer.
func TestScaleUpKeepsLayoutsThatMeetTheDeadline(t *testing.T) {
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 20}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	top := res.Recommendations[0]
	if top.Estimate == nil || top.Estimate.JobHours == nil || *top.Estimate.JobHours > DefaultDeadlineHours || !top.Deployment.RDMA {
		t.Errorf("top %s on %d VMs, RDMA %v, estimate %+v: want a layout that meets the default deadline", top.VMSize, top.Nodes, top.Deployment.RDMA, top.Estimate)
	}
	h100 := byName(res, "Standard_ND96isr_H100_v5")
	if h100 == nil || h100.Nodes != 6 || h100.Estimate == nil || !near(h100.Estimate.JobHours, 701.8) {
		t.Fatalf("ND96isr_H100_v5: %+v, sizes %v", h100, names(res))
	}
	if slow := byName(res, "Standard_ND96is_MI300X_v5"); slow != nil {
		if slow.Nodes != 1 || !near(slow.Estimate.JobHours, 4249) || slow.Rank <= h100.Rank {
			t.Errorf("ND96is_MI300X_v5 rank %d on %d VMs, %+v", slow.Rank, slow.Nodes, slow.Estimate)
		}
	}
	if n := rejectedCounts(res.Rejected)["scale_up"]; n != 0 {
		t.Errorf("scale_up removes %d sizes that meet the deadline by scaling out", n)
	}
}

// rateSentence is the estimate's sentence on a training layout's rate:
// VMs × GPUs × dense TFLOPS × MFU = FLOP/s ("1 VM × 1 GPU" in the
// singular), with a note when the job uses one GPU of several.
var rateSentence = regexp.MustCompile(`Rate: (\d+) VMs? × ([0-9.]+) GPUs? × ([0-9.]+) dense TFLOPS \([^)]*\) × ([0-9.]+)% MFU = ([0-9.e+]+) FLOP/s( \([^)]*\))?\.`)

// checkTrainingArithmetic checks that a training estimate's rate sentence
// adds up and that its hours are the job's FLOPs at that rate; it returns
// the GPUs per VM the sentence names.
func checkTrainingArithmetic(t *testing.T, flops float64, r *Recommendation) float64 {
	t.Helper()
	if r.Estimate == nil || r.Estimate.JobHours == nil {
		t.Errorf("%s: no job hours: %+v", r.VMSize, r.Estimate)
		return 0
	}
	for _, a := range r.Estimate.Assumptions {
		m := rateSentence.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		var f [5]float64
		for i := range f {
			f[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		product := f[0] * f[1] * f[2] * 1e12 * f[3] / 100
		if rate := f[4]; rate <= 0 || product/rate > 1.005 || product/rate < 0.995 {
			t.Errorf("%s: %q: %v × %v × %v TFLOPS × %v%% is %.4g FLOP/s, not %v", r.VMSize, a, f[0], f[1], f[2], f[3], product, rate)
		} else if h := flops / rate / 3600; !near(r.Estimate.JobHours, h) {
			t.Errorf("%s: %v hours, but %.4g FLOPs at %v FLOP/s take %.2f", r.VMSize, *r.Estimate.JobHours, flops, rate, h)
		}
		return f[1]
	}
	t.Errorf("%s: no rate sentence in %q", r.VMSize, r.Estimate.Assumptions)
	return 0
}

// A job whose memory fits one GPU and which one GPU finishes within the
// deadline trains on every GPU of the VM it pays for, even without NVLink:
// 4 GPUs × 0.8 still outrun one. QLoRA on Llama 3.2 3B (6 GiB): (4 ×
// 3.21e9 + 4 × 28 layers × 4,096 × 3,072) × 0.1e9 tokens = 1.425e18 FLOPs;
// one T4 (65 TFLOPS fp16) at 30% MFU: 1.425e18 / 1.95e13 / 3,600 = 20.3
// hours on NC4as_T4_v3 (1 T4); NC64as_T4_v3's 4 T4s over PCIe, 4 × 65e12
// × 30% × 0.8 = 6.24e13 FLOP/s: 6.34 hours, where one of its T4s took
// 20.3 at the same price per hour. The job-sizing warning stays: a
// one-GPU size would serve it.
func TestSmallJobTrainsOnEveryGPUOfItsVM(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.2-3b"}, FineTuningMethod: MethodQLoRA, GPUModels: []string{"t4"}, AsOf: asOf, MaxResults: i64(10)})
	flops := res.Requirements.TrainingFLOPs
	if !near(&flops, 1.425e18) {
		t.Fatalf("FLOPs %v, want 1.425e18", flops)
	}
	for _, c := range []struct {
		name       string
		gpus       float64
		hours, mfu float64
	}{{"Standard_NC4as_T4_v3", 1, 20.3, 0.3}, {"Standard_NC64as_T4_v3", 4, 6.34, 0.24}} {
		r := byName(res, c.name)
		if r == nil {
			t.Fatalf("%s not ranked: %v", c.name, names(res))
		}
		if gpus := checkTrainingArithmetic(t, flops, r); gpus != c.gpus || !near(r.Estimate.JobHours, c.hours) || !near(&r.Estimate.Efficiency, c.mfu) {
			t.Errorf("%s: %v GPUs timed, %+v; want %v T4s at %v MFU, %v hours", c.name, gpus, r.Estimate, c.gpus, c.mfu, c.hours)
		}
	}
	four := byName(res, "Standard_NC64as_T4_v3")
	if slices.ContainsFunc(four.Estimate.Assumptions, func(a string) bool { return strings.Contains(a, "sit idle") }) ||
		!slices.ContainsFunc(four.Warnings, func(w string) bool { return strings.Contains(w, "The job fits in one of its 4 GPUs") }) {
		t.Errorf("NC64as_T4_v3: assumptions %q, warnings %q", four.Estimate.Assumptions, four.Warnings)
	}
	// On two VMs (nodes = 2, over Ethernet with interconnect = "any") the
	// job uses every GPU of each: 2 VMs × 4 T4s over PCIe, 8 × 65e12 × 30%
	// × 0.8 × 0.5 = 6.24e13 FLOP/s, 1.425e18 / 6.24e13 / 3,600 = 6.34 hours.
	res = mustRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.2-3b"}, FineTuningMethod: MethodQLoRA, GPUModels: []string{"t4"}, Nodes: i64(2), Interconnect: InterconnectAny, AsOf: asOf, MaxResults: i64(10)})
	if r := byName(res, "Standard_NC64as_T4_v3"); r == nil || checkTrainingArithmetic(t, flops, r) != 4 || !near(r.Estimate.JobHours, 6.34) || !near(&r.Estimate.Efficiency, 0.12) {
		t.Errorf("NC64as_T4_v3 on 2 VMs: %+v", r)
	}
}

// gpus is the fewest whole GPUs the job uses: a job that would fit one GPU
// is timed on all it asked for, and on every GPU of the whole racks a size
// allocated by rack takes (D55). 1B parameters on 100 billion tokens (6e20
// FLOPs) on at least 16 GPUs: GB200 on 4 VMs of 4, rounded up to one rack of
// 18 VMs, 72 × 2,500 TFLOPS × 40% = 7.2e16 FLOP/s, 2.31 hours; MI300X on 2
// VMs of 8, 16 × 1,307.4 × 30%, 26.56 hours.
func TestStatedGPUsAreTimed(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 1}, TokensBillion: f64(100), GPUs: i64(16), AsOf: asOf, MaxResults: i64(50)})
	for i := range res.Recommendations {
		r := &res.Recommendations[i]
		if gpus := checkTrainingArithmetic(t, 6e20, r); gpus*float64(r.Nodes) < 16 {
			t.Errorf("%s: timed on %v GPUs on each of %d VMs, fewer than the 16 asked for", r.VMSize, gpus, r.Nodes)
		}
	}
	for name, hours := range map[string]float64{"Standard_ND128isr_NDR_GB200_v6": 2.31, "Standard_ND96isr_MI300X_v5": 26.56} {
		if r := byName(res, name); r == nil || r.Estimate == nil || !near(r.Estimate.JobHours, hours) {
			t.Errorf("%s: %+v, want %v hours", name, r, hours)
		}
	}
}

// A service sized for tokens_per_second sustains it by its own estimate.
// Llama 3.2 1B with 2,000 concurrent requests: the KV cache of a copy on
// one large GPU holds several hundred sequences, but a copy decodes at most
// 256 together (vLLM's max_num_seqs): the copies a size gets must be
// counted at the batch its estimate uses, so that 1,000,000 output tokens
// per second are served, not about 950,000. Sizes whose GPU the catalog has
// no bandwidth or TFLOPS figure for (the M60 of NVv2, the AMD V710) cannot
// be timed: they stay, with the copies their memory needs, after every
// size that is timed, without figures in their estimate and with a
// warning saying so.
func TestTokensPerSecondMetByTheEstimate(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.2-1b"}, ConcurrentRequests: i64(2000), TokensPerSecond: f64(1e6), AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	timed, untimed := 0, 0
	for _, r := range res.Recommendations {
		e := r.Estimate
		if e == nil {
			t.Fatalf("%s: no estimate", r.VMSize)
		}
		if e.TokensPerSecond == nil {
			untimed++
			if gpu := r.SKU.Performance.GPU; gpu != nil && gpu.MemoryBandwidthGBs != nil && (gpu.BF16TFLOPS != nil || gpu.FP16TFLOPS != nil) {
				t.Errorf("%s: the catalog has figures for its GPU, but %+v", r.VMSize, e)
			}
			if e.CostPerMillionTokens != nil || !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "no throughput figures") }) {
				t.Errorf("%s: %+v, warnings %q; want no figures and a warning", r.VMSize, e, r.Warnings)
			}
			continue
		}
		timed++
		if untimed > 0 && r.PricePerHour != nil { // a size without a price ranks after every priced one
			t.Errorf("%s (timed) after a size without figures: %v", r.VMSize, names(res))
		}
		if *e.TokensPerSecond < 1e6 {
			t.Errorf("%s on %d VMs (%d copies): %+v, want at least 1,000,000 tokens per second", r.VMSize, r.Nodes, r.Replicas, e)
		}
		checkDecodeBatch(t, r)
	}
	if timed == 0 || untimed == 0 {
		t.Errorf("%d sizes timed, %d without figures: the test needs both", timed, untimed)
	}
}

// checkDecodeBatch: the estimate of a served size says the batch each copy
// decodes at most, no more than its engine's max_num_seqs on the size
// (perfmodel.MaxSeqs).
func checkDecodeBatch(t *testing.T, r Recommendation) {
	t.Helper()
	found := false
	h := perfmodel.HardwareOf(r.SKU)
	for _, a := range r.Estimate.Assumptions {
		m := decodeSentence.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		found = true
		if n, _ := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64); n > perfmodel.MaxSeqs(&h) || n < 1 {
			t.Errorf("%s: %q decodes more than %d sequences per copy together", r.VMSize, a, perfmodel.MaxSeqs(&h))
		}
	}
	if !found {
		t.Errorf("%s: no decode sentence in %q", r.VMSize, r.Estimate.Assumptions)
	}
}

// decodeSentence is the estimate's sentence on a served copy's batch.
var decodeSentence = regexp.MustCompile(`(?:copy|copies) of [\d.]+ GPUs?, at most ([\d,]+) sequences? each`)

// A stated deadline no size meets: the nearest miss is the size that needs
// the shortest deadline on the VMs one job may span there, not the best
// scored. Pretraining 70B on 15,000 billion tokens within 100 hours: the
// relax names the hours the nearest miss takes on the most VMs it may span
// (whole racks within its series' InfiniBand span, in a scale set: target
// vm's availability set holds at most 200 VMs); with that deadline it
// fits, and with 1% less no size fits at all.
func TestNearestMissOfADeadlineNeedsTheShortest(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, TokensBillion: f64(15000), DeadlineHours: f64(100), Target: TargetVMSS, AsOf: asOf}
	nf := mustNoFit(t, req)
	m := nf.NearestMiss
	if m == nil || m.FailedConstraint != "deadline" || len(m.FailedConstraints) != 1 {
		t.Fatalf("nearest miss %+v, want one that fails only deadline", m)
	}
	var hours float64
	var vms int64
	s, _ := testCatalog(t).Lookup(m.VMSize)
	if _, err := fmt.Sscanf(m.Relax, "raise deadline_hours to at least %g (the job takes that long on %d VMs of it).", &hours, &vms); err != nil || hours <= 100 || s == nil || vms < s.MaxJobVMs()-17 || vms > s.MaxJobVMs() {
		t.Fatalf("relax %q: %v", m.Relax, err)
	}
	relaxed := req
	relaxed.DeadlineHours, relaxed.MaxResults = f64(hours), i64(MaxResultsLimit)
	if r := byName(mustRecommend(t, relaxed), m.VMSize); r == nil || r.Nodes != vms {
		t.Errorf("with deadline_hours %v, %s is not ranked on %d VMs: %+v", hours, m.VMSize, vms, r)
	}
	relaxed.DeadlineHours = f64(hours * 0.99)
	if again := mustNoFit(t, relaxed).NearestMiss; again == nil || again.VMSize != m.VMSize || again.FailedConstraint != "deadline" {
		t.Errorf("with deadline_hours %v the nearest miss is %+v, want %s failing deadline", hours*0.99, again, m.VMSize)
	}
}

// A stated time per output token no size meets: the nearest miss is the
// size whose fastest layout comes closest, not the best scored, and its
// relax names the figure it reaches. Llama 3.1 70B at 3 ms a token: raised
// to that figure the size serves; 1 ms below it no size does, and the
// nearest miss is the same size.
func TestNearestMissOfALatencyTargetComesClosest(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, RequestsPerSecond: f64(1), MaxTimePerOutputTokenMs: f64(3), AsOf: asOf}
	m := mustNoFit(t, req).NearestMiss
	if m == nil || m.FailedConstraint != "max_time_per_output_token_ms" || len(m.FailedConstraints) != 1 {
		t.Fatalf("nearest miss %+v, want one that fails only max_time_per_output_token_ms", m)
	}
	var ms float64
	if _, err := fmt.Sscanf(m.Relax, "raise max_time_per_output_token_ms to %g (", &ms); err != nil || ms <= 3 {
		t.Fatalf("relax %q: %v", m.Relax, err)
	}
	relaxed := req
	relaxed.MaxTimePerOutputTokenMs, relaxed.MaxResults = f64(ms), i64(MaxResultsLimit)
	if r := byName(mustRecommend(t, relaxed), m.VMSize); r == nil || *r.Estimate.TimePerOutputTokenMs > ms {
		t.Errorf("with max_time_per_output_token_ms %v, %s is not ranked within it: %+v", ms, m.VMSize, r)
	}
	relaxed.MaxTimePerOutputTokenMs = f64(ms - 1)
	if again := mustNoFit(t, relaxed).NearestMiss; again == nil || again.VMSize != m.VMSize {
		t.Errorf("with max_time_per_output_token_ms %v the nearest miss is %+v, want %s", ms-1, again, m.VMSize)
	}
}

// fp8 training is timed at the speed-up PyTorch measured over bf16, not at
// the fp8 dense peak, which is twice bf16's: Llama 3.1 70B on 1,000
// billion tokens on 32 VMs of ND96isr_H100_v5 takes 1,204.61 hours in
// bf16 and 1,204.61 ÷ 1.5 = 803.07 in fp8 (FP8TrainingSpeedup: 1.50x on
// Llama3-70B over 128 H100s), not 602.31; the rate sentence says where the
// figure comes from.
func TestFP8TrainingRunsAtTheMeasuredSpeedUp(t *testing.T) {
	hours := map[string]*Recommendation{}
	for _, p := range []string{PrecisionBF16, PrecisionFP8} {
		req := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-70b", Precision: p}, TokensBillion: f64(1000),
			Nodes: i64(32), Prefer: []string{"Standard_ND96isr_H100_v5"}, MaxResults: i64(1), AsOf: asOf}
		r := byName(mustRecommend(t, req), "Standard_ND96isr_H100_v5")
		if r == nil || r.Estimate == nil || r.Estimate.JobHours == nil {
			t.Fatalf("%s: ND96isr_H100_v5 not timed: %+v", p, r)
		}
		hours[p] = r
	}
	bf16, fp8 := *hours[PrecisionBF16].Estimate.JobHours, *hours[PrecisionFP8].Estimate.JobHours
	if !near(&bf16, 1204.61) || !near(&fp8, 803.07) {
		t.Errorf("bf16 %v hours, fp8 %v hours: want 1,204.61 and 803.07 (1.5 times faster, not twice)", bf16, fp8)
	}
	if s := strings.Join(hours[PrecisionFP8].Estimate.Assumptions, " "); !strings.Contains(s, "1484.25 dense TFLOPS (fp8: the 16-bit 989.5 × 1.5") {
		t.Errorf("fp8 rate sentence does not derive 1,484.25 TFLOPS from the bf16 peak: %s", s)
	}
}

// A job that fits one GPU trains on every GPU of the VM it pays for, so a
// later deadline never makes it slower and dearer on the same VM: Llama
// 3.1 8B on 0.1 billion tokens on one ND GB200 v6 (4 GPUs) took 0.36 hours
// and 38.61 USD within 1 hour, but within 6 hours, which one GPU meets,
// 1.43 hours and 154.43 USD on 1 of its 4 GPUs (nproc_per_node = 1); LoRA
// on an 8B model on ND96isr_H100_v5 29.56 USD within 1 hour and 236.45
// within 6. Now both deadlines give the same layout, hours and cost; a
// one-GPU size still serves the small job for less (NC40ads_H100_v5, 19.88
// USD), and the 8-GPU size keeps its job-sizing warning.
func TestLaterDeadlineKeepsEveryGPUOfTheVM(t *testing.T) {
	cases := []struct {
		req         Request
		size        string
		gpus, hours float64
		usd         float64
	}{
		{Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: f64(0.1), Prefer: []string{"Standard_ND128isr_NDR_GB200_v6"}, Target: TargetCycleCloud},
			"Standard_ND128isr_NDR_GB200_v6", 4, 0.36, 38.61},
		{Request{Workload: WorkloadFineTuning, FineTuningMethod: MethodLoRA, Model: &Model{Name: "llama-3.1-8b"}, Prefer: []string{"Standard_ND96isr_H100_v5"}, MaxResults: i64(MaxResultsLimit)},
			"Standard_ND96isr_H100_v5", 8, 0.30, 29.56},
	}
	for _, c := range cases {
		for _, d := range []float64{1, 6} {
			req := c.req
			req.DeadlineHours, req.AsOf = f64(d), asOf
			res := mustRecommend(t, req)
			r := byName(res, c.size)
			if r == nil || r.Nodes != 1 || r.TotalGPUs != c.gpus || r.Estimate == nil || !near(r.Estimate.JobHours, c.hours) || !near(r.Estimate.JobCostUSD, c.usd) {
				t.Errorf("%s within %v hours: %+v; want %v GPUs, %v hours, %v USD", c.size, d, r, c.gpus, c.hours, c.usd)
				continue
			}
			if l := r.Deployment.Launch; l != nil {
				t.Errorf("%s within %v hours: launch %+v, want none (one VM, every GPU)", c.size, d, l)
			}
			if c.req.Workload == WorkloadFineTuning && d == 6 {
				one := byName(res, "Standard_NC40ads_H100_v5")
				if one == nil || !near(one.Estimate.JobCostUSD, 19.88) ||
					!slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "The job fits in one of its 8 GPUs") }) {
					t.Errorf("NC40ads_H100_v5 %+v; %s warnings %q", one, c.size, r.Warnings)
				}
			}
		}
	}
}
