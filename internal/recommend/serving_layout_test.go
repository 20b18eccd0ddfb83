// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// copiesSentence is the estimate's account of the copies it timed.
var copiesSentence = regexp.MustCompile(`^Decode step: ([\d,]+) (?:copy|copies) of ([\d.]+) GPUs?, at most ([\d,]+) sequences? each`)

// The layout a served recommendation reports (replicas, tensor and
// pipeline parallel sizes, VMs) is the one its estimate times: as many
// copies, each over tensor_parallel_size × pipeline_parallel_size GPUs,
// on VMs that hold them, with min_replicas copies on separate VMs.
func TestServedLayoutAgreesWithEstimate(t *testing.T) {
	eng := testEngine(t)
	named := func(name, precision string) *Model { return &Model{Name: name, Precision: precision} }
	reqs := []Request{
		{Workload: WorkloadInference, Model: named("llama-3.1-8b", "")},
		{Workload: WorkloadInference, Model: named("llama-3.1-70b", PrecisionFP8), ConcurrentRequests: i64(256), PromptTokens: i64(2000), OutputTokens: i64(500)},
		{Workload: WorkloadInference, Model: named("llama-3.1-405b", PrecisionFP8), ConcurrentRequests: i64(64)},
		{Workload: WorkloadInference, Model: named("deepseek-r1", PrecisionFP4), ConcurrentRequests: i64(512), PromptTokens: i64(800), OutputTokens: i64(3700)},
		{Workload: WorkloadInference, Model: named("mixtral-8x7b", ""), TokensPerSecond: f64p(50000)},
		{Workload: WorkloadInference, Model: named("llama-3.1-8b", ""), MinReplicas: i64(3)},
		{Workload: WorkloadInference, Model: named("llama-3.1-70b", PrecisionFP8), ConcurrentRequests: i64(512), MaxTimePerOutputTokenMs: f64p(40)},
		{Workload: WorkloadInference, Model: named("llama-3.1-70b", ""), RequestsPerSecond: f64p(5), PromptTokens: i64(2000), OutputTokens: i64(300), MaxTimePerOutputTokenMs: f64p(50)},
		{Workload: WorkloadInference, Model: named("llama-3.1-405b", ""), ConcurrentRequests: i64(1), PromptTokens: i64(1000), OutputTokens: i64(200), Prefer: []string{"Standard_ND96amsr_A100_v4"}},
		{Workload: WorkloadInference, Model: named("gpt-oss-120b", ""), RequestsPerSecond: f64p(8), PromptTokens: i64(1000), OutputTokens: i64(1000)},
		{Workload: WorkloadInference, Model: named("qwen2.5-72b", PrecisionINT4), ConcurrentRequests: i64(64)},
	}
	checked, splits, stages, weightOnly := 0, 0, 0, 0
	for _, req := range reqs {
		req.AsOf, req.MaxResults = asOf, i64(MaxResultsLimit)
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Model.Name, err)
		}
		for _, r := range res.Recommendations {
			if r.Estimate == nil || r.Estimate.TokensPerSecond == nil {
				continue
			}
			checkServedCopies(t, &req, r)
			checkReplicasReason(t, &req, r)
			checkCostSentence(t, r)
			checkLowUseAdvice(t, &req, r)
			if checkPrecisionWords(t, r) {
				weightOnly++
			}
			if checkStagesClause(t, r) {
				stages++
			}
			if checkAllReduceClause(t, r) {
				splits++
			}
			checked++
		}
	}
	if checked < 20 || splits < 5 || stages < 1 || weightOnly < 5 {
		t.Errorf("%d timed recommendations checked, %d of them split over GPUs, %d over pipeline stages, %d weight-only", checked, splits, stages, weightOnly)
	}
}

// checkServedCopies: the estimate times the copies the recommendation
// reports, each over tensor_parallel_size × pipeline_parallel_size GPUs, on
// VMs that hold them with min_replicas copies on separate VMs, within a
// stated time per output token.
func checkServedCopies(t *testing.T, req *Request, r Recommendation) {
	t.Helper()
	m := copiesSentence.FindStringSubmatch(r.Estimate.Assumptions[0])
	if m == nil {
		t.Fatalf("%s on %s: no decode sentence in %q", req.Model.Name, r.VMSize, r.Estimate.Assumptions)
	}
	copies, _ := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
	gpus, _ := strconv.ParseFloat(m[2], 64)
	split := float64(r.TensorParallel*r.PipelineStages) * math.Min(1, r.GPUsPerNode)
	if copies != r.Replicas || math.Abs(gpus-split) > 1e-9 {
		t.Errorf("%s on %s: replicas %d, tp %d, pp %d; the estimate times %d copies of %v GPUs", req.Model.Name, r.VMSize, r.Replicas, r.TensorParallel, r.PipelineStages, copies, gpus)
	}
	minReplicas := valueOr(req.MinReplicas, 1)
	if float64(r.Replicas)*split > float64(r.Nodes)*r.GPUsPerNode+1e-9 || r.Nodes < minReplicas*r.PipelineStages {
		t.Errorf("%s on %s: %d copies of %v GPUs on %d VMs of %v GPUs (min_replicas %d)", req.Model.Name, r.VMSize, r.Replicas, split, r.Nodes, r.GPUsPerNode, minReplicas)
	}
	if tpot := req.MaxTimePerOutputTokenMs; tpot != nil && *r.Estimate.TimePerOutputTokenMs > *tpot {
		t.Errorf("%s on %s: %v ms a token against a %v ms target", req.Model.Name, r.VMSize, *r.Estimate.TimePerOutputTokenMs, *tpot)
	}
}

// costSentence is the reason that prices a service's output tokens: at
// its capacity, or at the stated load.
var costSentence = regexp.MustCompile(`^Estimated ([\d,]+) output tokens per second for the service(?: \(its capacity\); at the load of ([\d,]+))?, ([\d.]+) USD per million output tokens\.$`)

// checkCostSentence: the price per million output tokens a reason quotes
// is the VMs' price for an hour over the hour's tokens that sentence names
// (the load's, where one is stated).
func checkCostSentence(t *testing.T, r Recommendation) {
	t.Helper()
	if r.TotalPricePerHour == nil {
		return
	}
	for _, reason := range r.Reasons {
		m := costSentence.FindStringSubmatch(reason)
		if m == nil {
			continue
		}
		tokens := m[1]
		if m[2] != "" {
			tokens = m[2]
		}
		tps, _ := strconv.ParseFloat(strings.ReplaceAll(tokens, ",", ""), 64)
		usd, _ := strconv.ParseFloat(m[3], 64)
		// The tokens are rounded to whole ones, the price to cents.
		lo, hi := *r.TotalPricePerHour/((tps+0.5)*3600)*1e6-0.01, *r.TotalPricePerHour/(math.Max(tps-0.5, 0.5)*3600)*1e6+0.01
		if usd < lo || usd > hi {
			t.Errorf("%s: %q: %v USD an hour over %v tokens a second is %.4f to %.4f USD per million", r.VMSize, reason, *r.TotalPricePerHour, tps, lo, hi)
		}
		return
	}
	t.Errorf("%s: no cost sentence in %q", r.VMSize, r.Reasons)
}

// checkLowUseAdvice: a service at a load, whose batches the load and its
// targets set, is not told to use larger batches.
func checkLowUseAdvice(t *testing.T, req *Request, r Recommendation) {
	t.Helper()
	if req.TokensPerSecond == nil && req.RequestsPerSecond == nil {
		return
	}
	for _, w := range r.Warnings {
		if strings.Contains(w, "use larger batches") {
			t.Errorf("%s at a load, whose batches the load and targets set: %q", r.VMSize, w)
		}
	}
}

// checkPrecisionWords: where the estimate times weights weight-only
// (dequantised, computed in bf16 or fp16), no reason says the GPU supports
// the precision natively and no warning says the arithmetic runs at
// another low precision; it reports whether the layout is weight-only.
func checkPrecisionWords(t *testing.T, r Recommendation) bool {
	t.Helper()
	if !slices.ContainsFunc(r.Estimate.Assumptions, func(a string) bool { return strings.HasPrefix(a, "Weight-only:") }) {
		return false
	}
	for _, s := range append(append([]string{}, r.Reasons...), r.Warnings...) {
		if strings.Contains(s, "natively.") && strings.HasPrefix(s, "The GPU supports") || strings.Contains(s, "runs at the next precision it supports") {
			t.Errorf("%s, weight-only: %q", r.VMSize, s)
		}
	}
	return true
}

// checkStagesClause: the decode sentence of a copy over pipeline stages
// says each stage reads its share of the weights once per micro-batch, and
// only then; it reports whether the copy has stages.
func checkStagesClause(t *testing.T, r Recommendation) bool {
	t.Helper()
	staged := strings.Contains(r.Estimate.Assumptions[0], "pipeline stages reads its share once for each of")
	if staged != (r.PipelineStages > 1) {
		t.Errorf("%s, %d pipeline stages: %q", r.VMSize, r.PipelineStages, r.Estimate.Assumptions[0])
	}
	return staged
}

// allReduceClause is the decode-step sentence's account of a split copy's
// all-reduces: total ms (2 per layer × layers × µs each: steps of the
// step latency over GPUs, and µs moving the step's activations).
var allReduceClause = regexp.MustCompile(`waits ([\d.]+) ms for its all-reduces \(2 per layer × ([\d.]+) layers × ([\d.]+) µs: ([\d.]+) steps? of ([\d.]+) µs over (\d+) GPUs, and ([\d.]+) µs moving (\d+) tokens' activations\)`)

// checkAllReduceClause: a copy split over GPUs says what its all-reduces
// take, and the figures add up: steps = log2 of the GPUs, each all-reduce
// is the steps' latency plus the move, and the step waits for two per
// layer; its prefill moves the prompt's activations through them. A copy
// on one GPU names none. It reports whether the copy is
// split.
func checkAllReduceClause(t *testing.T, r Recommendation) bool {
	t.Helper()
	m := allReduceClause.FindStringSubmatch(r.Estimate.Assumptions[0])
	moves := strings.Contains(r.Estimate.Assumptions[1], "ms moving its activations through the all-reduces")
	if r.TensorParallel < 2 {
		if m != nil || moves {
			t.Errorf("%s: one GPU per copy, yet all-reduces in %q", r.VMSize, r.Estimate.Assumptions[:2])
		}
		return false
	}
	if !moves {
		t.Errorf("%s, TP%d: the prefill moves no activations: %q", r.VMSize, r.TensorParallel, r.Estimate.Assumptions[1])
	}
	if m == nil {
		t.Errorf("%s, TP%d: no all-reduce clause in %q", r.VMSize, r.TensorParallel, r.Estimate.Assumptions[0])
		return true
	}
	var f [8]float64
	for i := range f {
		f[i], _ = strconv.ParseFloat(m[i+1], 64)
	}
	total, layers, each, steps, step, gpus, move := f[0], f[1], f[2], f[3], f[4], f[5], f[6]
	switch {
	case gpus != float64(r.TensorParallel) || math.Abs(steps-math.Log2(gpus)) > 0.01 || step != perfmodel.AllReduceSeconds*1e6:
		t.Errorf("%s, TP%d: %q", r.VMSize, r.TensorParallel, m[0])
	case math.Abs(steps*step+move-each) > 0.02:
		t.Errorf("%s: %q: %v × %v µs + %v µs is not %v µs", r.VMSize, m[0], steps, step, move, each)
	case math.Abs(2*layers*each/1000-total) > 0.01*total+0.01:
		t.Errorf("%s: %q: 2 × %v × %v µs is not %v ms", r.VMSize, m[0], layers, each, total)
	}
	return true
}

// replicasReason is the layout reason's account of what a served layout's
// copies serve: the load's requests in the service, or the concurrent
// requests.
var replicasReason = regexp.MustCompile(`; ([\d,]+) copies \(replicas\) (?:carry the load, about ([\d,]+) requests? in the service|serve the ([\d,]+) concurrent requests?)\.`)

// checkReplicasReason: a layout of several copies says what they serve. At
// a load that is the requests in the service its estimate reports (derived,
// not the one sequence per copy the memory estimate holds); without one,
// the concurrent requests.
func checkReplicasReason(t *testing.T, req *Request, r Recommendation) {
	t.Helper()
	if r.Replicas < 2 {
		return
	}
	var m []string
	for _, reason := range r.Reasons {
		if m = replicasReason.FindStringSubmatch(reason); m != nil {
			break
		}
	}
	loaded := req.TokensPerSecond != nil || req.RequestsPerSecond != nil
	switch {
	case m == nil:
		t.Errorf("%s: %d copies, no reason says what they serve: %q", r.VMSize, r.Replicas, r.Reasons)
	case m[1] != catalog.GroupDigits(r.Replicas):
		t.Errorf("%s: %d copies, reason %q", r.VMSize, r.Replicas, m[0])
	case loaded && m[2] != catalog.GroupInt(float64(*r.Estimate.ConcurrentRequests)):
		t.Errorf("%s at a load: %q, the estimate has %d requests in the service", r.VMSize, m[0], *r.Estimate.ConcurrentRequests)
	case !loaded && m[3] != catalog.GroupDigits(valueOr(req.ConcurrentRequests, DefaultConcurrentRequests)):
		t.Errorf("%s: %q, %v concurrent requests asked", r.VMSize, m[0], req.ConcurrentRequests)
	}
}

// idleWarning is the warning on a size whose GPUs a served job leaves idle:
// it fits one GPU, or its demand needs k of them at one copy per GPU.
var idleWarning = regexp.MustCompile(`^(?:The job fits in one of its \d+ GPUs|Copies of one GPU each serve the (?:load|stated concurrency|default concurrency) on (\d+) of its (\d+) GPUs);`)

// A service's GPUs are idle only when its demand does not need them. Llama
// 3.1 8B at 2,000 output tokens per second and 20 ms a token needs two H100
// NVL: one NC80adis_H100_v5 (two GPUs, one VM, one copy split over both)
// carries no idle-GPU warning and ranks above two NC40ads_H100_v5 at the
// same price per output token. At 6,000 tokens per second and 30 ms on an
// ND96isr_H100_v5, the load needs some of its eight GPUs at one copy per
// GPU, and the warning says how many.
func TestServiceUsesTheGPUsItsLoadNeeds(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, TokensPerSecond: f64p(2000), MaxTimePerOutputTokenMs: f64p(20), AsOf: asOf, MaxResults: i64(MaxResultsLimit)}
	res := mustRecommend(t, req)
	two, one := byName(res, "Standard_NC80adis_H100_v5"), byName(res, "Standard_NC40ads_H100_v5")
	if two == nil || one == nil || *two.Estimate.CostPerMillionTokens != *one.Estimate.CostPerMillionTokens || one.Nodes < 2 {
		t.Fatalf("NC80adis_H100_v5 %+v, NC40ads_H100_v5 %+v: want the same price per token, the one-GPU size on two or more VMs", two, one)
	}
	for _, w := range two.Warnings {
		if idleWarning.MatchString(w) {
			t.Errorf("NC80adis_H100_v5, whose two GPUs the load needs: %q", w)
		}
	}
	if two.Rank > one.Rank {
		t.Errorf("NC80adis_H100_v5 (one VM) ranks %d, after NC40ads_H100_v5 on %d VMs (%d)", two.Rank, one.Nodes, one.Rank)
	}
	req.TokensPerSecond, req.MaxTimePerOutputTokenMs, req.Prefer = f64p(6000), f64p(30), []string{"Standard_ND96isr_H100_v5"}
	nd := mustRecommend(t, req).Recommendations[0]
	var m []string
	for _, w := range nd.Warnings {
		if m = idleWarning.FindStringSubmatch(w); m != nil {
			break
		}
	}
	if m == nil || m[1] == "" || m[2] != "8" || m[1] == "1" || m[1] == "8" {
		t.Errorf("ND96isr_H100_v5 at 6,000 tokens per second: warnings %q, want the GPUs the load needs (2 to 7 of 8)", nd.Warnings)
	}
}

// The load sentence counts one request in the singular: a service of one
// request per second says so, and no sentence of any size writes "1
// requests".
func TestLoadSentenceCountsOneRequest(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, RequestsPerSecond: f64p(1), OutputTokens: i64(500), AsOf: asOf, MaxResults: i64(MaxResultsLimit)}
	res := mustRecommend(t, req)
	timed := 0
	for _, r := range res.Recommendations {
		if r.Estimate == nil || r.Estimate.TokensPerSecond == nil {
			continue
		}
		timed++
		all := strings.Join(append(append([]string{}, r.Reasons...), r.Estimate.Assumptions...), " ")
		if !strings.Contains(all, "At the load, 1 request per second (500 output tokens per second") || regexp.MustCompile(`\b1 requests\b`).MatchString(all) {
			t.Errorf("%s: %q", r.VMSize, r.Estimate.Assumptions)
		}
	}
	if timed < 5 {
		t.Errorf("%d timed sizes", timed)
	}
}

// perGPUReason and kvRoomReason read the layout reason's GiB per GPU and
// KV cache room left.
var (
	perGPUReason = regexp.MustCompile(`\(([\d.]+) GiB per GPU of [\d.]+ GiB it may use\)`)
	kvRoomReason = regexp.MustCompile(`KV cache room left: ([\d.]+) GiB`)
)

// Copies added for min_replicas share the requests: Llama 3.1 70B with 24
// concurrent requests and min_replicas = 3 on NC80adis_H100_v5 runs three
// two-GPU copies of 8 sequences each, and the reasons give each GPU's share
// and the KV cache room left as for one copy of 8 sequences (three times
// the room), not as for one copy holding all 24.
func TestReplicasShareTheRequestsInTheReasons(t *testing.T) {
	size := "Standard_NC80adis_H100_v5"
	figures := func(req Request) (perGPU, room float64) {
		t.Helper()
		req.Workload, req.Model, req.Prefer, req.AsOf = WorkloadInference, &Model{Name: "llama-3.1-70b"}, []string{size}, asOf
		r := mustRecommend(t, req).Recommendations[0]
		for _, reason := range r.Reasons {
			if m, k := perGPUReason.FindStringSubmatch(reason), kvRoomReason.FindStringSubmatch(reason); m != nil && k != nil {
				perGPU, _ = strconv.ParseFloat(m[1], 64)
				room, _ = strconv.ParseFloat(k[1], 64)
				return perGPU, room
			}
		}
		t.Fatalf("%s: no layout reason in %q", r.VMSize, r.Reasons)
		return 0, 0
	}
	threeGPU, threeRoom := figures(Request{ConcurrentRequests: i64(24), MinReplicas: i64(3)})
	oneGPU, oneRoom := figures(Request{ConcurrentRequests: i64(8)})
	if math.Abs(threeGPU-oneGPU) > 0.01 || math.Abs(threeRoom-3*oneRoom) > 0.05 {
		t.Errorf("3 copies of 8 sequences: %v GiB per GPU, %v GiB of room; one copy of 8: %v GiB per GPU, %v GiB of room", threeGPU, threeRoom, oneGPU, oneRoom)
	}
}

// min_replicas is an availability requirement, not a timed one: a served
// model the step model does not time (no KV cache: speech, vision,
// diffusion, an encoder) still runs its copies on min_replicas separate
// VMs, and max_nodes below them removes every size. Its latency targets
// size nothing, and a warning names them rather than drop them in
// silence.
func TestUntimedServiceKeepsMinReplicas(t *testing.T) {
	for _, name := range []string{"whisper-large-v3", "vit-huge", "stable-diffusion-xl", "bert-large"} {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: name}, MinReplicas: i64(3),
			MaxTimeToFirstTokenMs: f64(50), MaxTimePerOutputTokenMs: f64(1), Region: "eastus", AsOf: asOf}
		res := mustRecommend(t, req)
		if got := res.Requirements.MinReplicas; got != 3 {
			t.Errorf("%s: requirements.min_replicas = %d, want 3", name, got)
		}
		for _, r := range res.Recommendations {
			if r.Nodes < 3*max(r.PipelineStages, 1) || r.Replicas < 3 {
				t.Errorf("%s on %s: %d copies on %d VMs, not 3 copies on separate VMs", name, r.VMSize, r.Replicas, r.Nodes)
			}
		}
		warned := false
		for _, w := range res.Warnings {
			warned = warned || (w.Summary == "Argument Not Used By The Model" &&
				strings.Contains(w.Detail, "max_time_to_first_token_ms") && strings.Contains(w.Detail, "max_time_per_output_token_ms"))
		}
		if !warned {
			t.Errorf("%s: no warning that the latency targets are not used (warnings %+v)", name, res.Warnings)
		}
		req.MaxNodes = i64(2)
		if nf := mustNoFit(t, req); nf.NearestMiss == nil || nf.NearestMiss.Relax != "raise max_nodes to 3." {
			t.Errorf("%s, max_nodes = 2: nearest miss %+v", name, nf.NearestMiss)
		}
	}
}

// A served model without a KV cache (diffusion, vision, an encoder) is not
// served tensor-parallel: a copy runs on one GPU wherever one holds it, and
// one that none holds is placed over GPUs of one VM (Diffusers' and
// Accelerate's device_map), so no all-reduce crosses PCIe and no copy spans
// VMs. Its copies serve no concurrency: no sentence counts concurrent
// requests or names a default concurrency. (Whisper, whose copies hold the
// concurrent requests' caches, is TestWhisperCachesEachRequest's.)
func TestUntimedCopiesRunOnOneGPUWhereOneHoldsThem(t *testing.T) {
	usable := regexp.MustCompile(`GiB per GPU of ([\d.]+) GiB it may use`)
	split := 0
	for _, req := range []Request{
		{Model: &Model{Name: "stable-diffusion-3.5-large"}, GPUModels: []string{"t4"}},
		{Model: &Model{Name: "stable-diffusion-3.5-large"}},
		{Model: &Model{Name: "vit-huge"}, GPUModels: []string{"a10"}},
		{Model: &Model{Name: "bert-large"}},
	} {
		req.Workload, req.AsOf, req.MaxResults = WorkloadInference, asOf, i64(MaxResultsLimit)
		res := mustRecommend(t, req)
		need := *res.Requirements.GPUMemoryGiB
		for _, r := range res.Recommendations {
			text := strings.Join(append(append([]string{}, r.Reasons...), r.Warnings...), " ")
			for _, bad := range []string{"concurrent request", "concurrency", "all-reduce"} {
				if strings.Contains(text, bad) {
					t.Errorf("%s on %s says %q: %q", req.Model.Name, r.VMSize, bad, text)
				}
			}
			if r.PipelineStages > 1 {
				t.Errorf("%s on %s: a copy spans %d VMs", req.Model.Name, r.VMSize, r.PipelineStages)
			}
			m := usable.FindStringSubmatch(text)
			if r.TensorParallel <= 1 || m == nil {
				continue
			}
			split++
			if perGPU, _ := strconv.ParseFloat(m[1], 64); need <= perGPU {
				t.Errorf("%s on %s: a copy of %v GiB split over %d GPUs, though one GPU may use %v GiB", req.Model.Name, r.VMSize, need, r.TensorParallel, perGPU)
			}
		}
	}
	if split == 0 {
		t.Error("no copy placed over several GPUs: Stable Diffusion 3.5 Large on T4s should be")
	}
}

// A service whose copies each span VMs (pipeline stages over InfiniBand)
// is as many jobs as it has copies: each copy is held to the VMs one
// InfiniBand job of the size may span, the copies together to 1,000 VMs
// or max_nodes, never to one job's span. Llama 3.1 405B on H100 SXM (2
// VMs a copy, 100 VMs one job may span) and on GB200 (504 in whole
// racks): a load past the span is served, and where max_nodes is the
// miss, raising it to the figure named serves it.
func TestServiceCopiesAreHeldToTheSpanOneByOne(t *testing.T) {
	eng := testEngine(t)
	service := func(rps, ttft, tpot float64, gpu string) Request {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-405b"}, PromptTokens: i64(2000), OutputTokens: i64(250),
			RequestsPerSecond: f64p(rps), MaxTimePerOutputTokenMs: f64p(tpot), GPUModels: []string{gpu}, Region: "eastus", AsOf: asOf}
		if ttft > 0 {
			req.MaxTimeToFirstTokenMs = f64p(ttft)
		}
		return req
	}
	beyond := func(req Request, size string) {
		t.Helper()
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatalf("%s: %v", describe(req), err)
		}
		r := byName(res, size)
		if r == nil {
			t.Errorf("%s: %s not listed; want it on more VMs than one job's span", describe(req), size)
			return
		}
		if r.Nodes <= r.SKU.MaxJobVMs() || r.PipelineStages < 2 || r.PipelineStages > r.SKU.MaxJobVMs() || r.Nodes > MaxNodes {
			t.Errorf("%s: %s on %d VMs, %d a copy; want more VMs than one job's span, each copy within it", describe(req), r.VMSize, r.Nodes, r.PipelineStages)
		}
	}
	beyond(service(3.6, 0, 51, "h100-sxm-80gb"), "Standard_ND96isr_H100_v5")
	for _, rps := range []float64{25, 30} {
		beyond(service(rps, 307, 41, "gb200"), "Standard_ND128isr_NDR_GB200_v6")
	}
	req := service(5, 0, 51, "h100-sxm-80gb")
	req.MaxNodes = i64(4)
	miss, m := missAlone(eng, req, relaxedMaxNodes)
	if miss == nil {
		t.Fatalf("%s: want a nearest miss that raises max_nodes alone", describe(req))
	}
	k, _ := strconv.ParseInt(m[1], 10, 64)
	req.MaxNodes = &k
	beyond(req, miss.VMSize)
}

// On target batch a service whose copies each span VMs is one pool with
// inter-node communication, the one azurerm_batch_pool the target deploys,
// which holds at most 100 nodes (80 in the user-subscription account Spot
// needs): no size is listed on more, none is told to split into scale
// sets, and where the load needs more, lowering it as the nearest miss says
// lists the size within the pool. Llama 3.1 405B, two ND96isr_H100_v5 VMs
// a copy, within 51 ms a token: 3.6 requests per second (102 VMs elsewhere)
// and, on spot, 3.0 (86 VMs).
func TestBatchServiceFitsOnePool(t *testing.T) {
	eng := testEngine(t)
	const size = "Standard_ND96isr_H100_v5"
	inPool := func(req Request, pool int64) bool {
		t.Helper()
		res, err := eng.Recommend(req)
		var nf *NoFitError
		if errors.As(err, &nf) {
			return false
		}
		if err != nil {
			t.Fatalf("%s: %v", describe(req), err)
		}
		for _, r := range res.Recommendations {
			if r.PipelineStages < 2 {
				continue
			}
			b := r.Deployment.Batch
			if b == nil || b.InterNodeCommunication != deploy.BatchInterNodeEnabled || r.Nodes > pool || strings.Contains(r.Deployment.Note, "scale set") {
				t.Errorf("%s, spot %v: %s on %d VMs (copies of %d), batch %+v, note %q; want one pool of at most %d nodes", describe(req), req.Spot,
					r.VMSize, r.Nodes, r.PipelineStages, b, r.Deployment.Note, pool)
			}
		}
		return byName(res, size) != nil
	}
	for _, c := range []struct {
		spot bool
		rps  float64
		pool int64
	}{{false, 3.6, deploy.BatchMPINodesBatchService}, {true, 3.0, deploy.BatchMPINodesUserSubscription}} {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-405b"}, PromptTokens: i64(2000), OutputTokens: i64(250),
			RequestsPerSecond: f64p(c.rps), MaxTimePerOutputTokenMs: f64p(51), GPUModels: []string{"h100-sxm-80gb"}, Region: "eastus", AsOf: asOf,
			Target: TargetBatch, Spot: c.spot}
		if inPool(req, c.pool) || !c.spot {
			continue
		}
		miss, m := missAlone(eng, req, relaxedLoad)
		if miss == nil || miss.VMSize != size {
			t.Fatalf("%s on spot: nearest miss %+v, want %s with a lower load", describe(req), miss, size)
		}
		v, _ := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		req.RequestsPerSecond = &v
		if !inPool(req, c.pool) {
			t.Errorf("%s on spot: %s not listed after %q", describe(req), size, miss.Relax)
		}
	}
}

// idleClaim matches the warning that copies of one GPU each need fewer of
// a size's GPUs than it has.
var idleClaim = regexp.MustCompile(`Copies of one GPU each serve the load on (\d+) of its (\d+) GPUs`)

// The idle-GPU penalty counts the copies the layout needs, those a time to
// first token adds included: a size warned that copies of one GPU each
// serve the load on N of its GPUs has the one-GPU sizes of the same GPU
// listed on N VMs, one copy each, where there are any; a size told a one-GPU size serves the
// job for less has one listed that costs less; and more load never gives
// a cheaper first size. Qwen2.5 7B at 3 and 5 requests per second of
// 4,000-token prompts within 500 ms to the first token and 30 ms a token.
func TestIdleGPUsCountTheCopiesTheTargetsAdd(t *testing.T) {
	eng := testEngine(t)
	top := map[float64]float64{}
	for _, rps := range []float64{3, 5} {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: "qwen2.5-7b"}, PromptTokens: i64(4000), OutputTokens: i64(400),
			RequestsPerSecond: f64p(rps), MaxTimeToFirstTokenMs: f64p(500), MaxTimePerOutputTokenMs: f64p(30), Region: "eastus", AsOf: asOf}
		served, _ := passing(t, eng, req)
		res := mustRecommend(t, req)
		top[rps] = *res.Recommendations[0].TotalPricePerHour
		for _, r := range served {
			words := strings.Join(r.Warnings, " ") + " " + strings.Join(r.Reasons, " ")
			if m := idleClaim.FindStringSubmatch(words); m != nil {
				k, _ := strconv.ParseInt(m[1], 10, 64)
				sibling := func(o Recommendation) bool {
					return o.SKU.GPU != nil && o.SKU.GPU.Count == 1 && o.SKU.GPU.ModelID == r.SKU.GPU.ModelID
				}
				if slices.ContainsFunc(mapValues(served), sibling) && !slices.ContainsFunc(mapValues(served), func(o Recommendation) bool { return sibling(o) && o.Nodes == k }) {
					t.Errorf("%v req/s: %s says %q; no one-GPU size of its GPU is listed on %d VMs", rps, r.VMSize, m[0], k)
				}
			}
			if strings.Contains(words, "a one-GPU size serves it for less") && !slices.ContainsFunc(mapValues(served), func(o Recommendation) bool {
				return o.SKU.GPU != nil && o.SKU.GPU.Count == 1 && *o.TotalPricePerHour < *r.TotalPricePerHour
			}) {
				t.Errorf("%v req/s: %s (%v USD/h) is told a one-GPU size serves it for less; none listed does", rps, r.VMSize, *r.TotalPricePerHour)
			}
		}
	}
	if top[5] < top[3] {
		t.Errorf("first size: %v USD/h at 3 requests per second, %v at 5", top[3], top[5])
	}
}

func mapValues(m map[string]Recommendation) []Recommendation {
	out := make([]Recommendation, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	return out
}

// Whisper large-v3 served keeps a cache per request, as vLLM serves it (an
// encoder-decoder with a decoder self-attention cache and a cross-attention
// cache over the encoder's 1,500 positions): 163,840 bytes per decoder
// token × 448 + 245.8 MB, about 0.30 GiB a request against 2.89 GiB of
// weights. 256 concurrent requests need at least 2.89 + 256 × 0.30 GiB over
// the copies, which no one-T4 VM holds; had been one Standard_NC4as_T4_v3
// at 3.46 GiB, as at one request, with a warning that concurrent_requests
// was not used. The copies stay placed, never tensor-parallel, and
// untimed; at one request the answer is one T4 still.
func TestWhisperCachesEachRequest(t *testing.T) {
	whisper := func(concurrent int64) *Result {
		return mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "whisper-large-v3"},
			ConcurrentRequests: i64(concurrent), MaxResults: i64(MaxResultsLimit), Region: "eastus", AsOf: asOf})
	}
	res := whisper(256)
	rq := res.Requirements
	perRequest := (163840*448 + 245760000) / float64(perfmodel.GiB) // 0.297 GiB
	if need := 2.89 + 256*perRequest; rq.GPUMemoryGiB == nil || *rq.GPUMemoryGiB < need || rq.ConcurrentRequests != 256 || math.Abs(rq.KVCacheGiB-256*perRequest) > 0.01 {
		t.Fatalf("256 requests: gpu_memory_gib %v, concurrent_requests %d, kv_cache_gib %v; want at least %v GiB for 256 requests' caches", *rq.GPUMemoryGiB, rq.ConcurrentRequests, rq.KVCacheGiB, need)
	}
	for _, w := range res.Warnings {
		if strings.HasPrefix(w.Detail, "concurrent_requests is not used") {
			t.Errorf("256 requests: warning %q", w.Detail)
		}
	}
	if len(res.Recommendations) == 0 {
		t.Fatal("256 requests: no recommendation")
	}
	for _, r := range res.Recommendations {
		held := r.TotalGPUMemoryGiB
		if r.VMSize == "Standard_NC4as_T4_v3" && r.Nodes == 1 || held < *rq.GPUMemoryGiB {
			t.Errorf("256 requests on %s: %d VMs hold %v GiB of GPU memory, below the %v GiB needed", r.VMSize, r.Nodes, held, *rq.GPUMemoryGiB)
		}
		if r.TensorParallel > 1 || r.PipelineStages > 1 || (r.Deployment.Serving != nil && len(r.Deployment.Serving.VLLMArgs) > 0) {
			t.Errorf("256 requests on %s: tensor parallel %d, %d stages, serving %+v; want placed copies on one GPU each", r.VMSize, r.TensorParallel, r.PipelineStages, r.Deployment.Serving)
		}
		if r.Estimate != nil && r.Estimate.TokensPerSecond != nil {
			t.Errorf("256 requests on %s: timed at %v output tokens per second", r.VMSize, *r.Estimate.TokensPerSecond)
		}
		if text := strings.Join(append(append([]string{}, r.Reasons...), r.Warnings...), " "); strings.Contains(text, "all-reduce") || strings.Contains(text, "tensor parallel") {
			t.Errorf("256 requests on %s says the copies are split: %q", r.VMSize, text)
		}
	}
	// A load is not used (untimed): the requests keep their default, 8.
	loaded := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "whisper-large-v3"}, RequestsPerSecond: f64(20), Region: "eastus", AsOf: asOf})
	if rq := loaded.Requirements; rq.ConcurrentRequests != DefaultConcurrentRequests || rq.Defaults["concurrent_requests"] != "8" {
		t.Errorf("at 20 requests per second: concurrent_requests %d, defaults %v; want the default 8", rq.ConcurrentRequests, rq.Defaults)
	}
	one := whisper(1).Recommendations[0]
	if one.VMSize != "Standard_NC4as_T4_v3" || one.Nodes != 1 || one.Replicas != 1 {
		t.Errorf("1 request: %d × %s with %d copies, want 1 × Standard_NC4as_T4_v3", one.Nodes, one.VMSize, one.Replicas)
	}
}

// A served model that keeps no cache per request (an encoder, a vision or
// a diffusion model) does not use concurrent_requests: the warning says
// so, and the memory is the same at 256 requests as at 1.
func TestConcurrencyNotUsedWithoutACache(t *testing.T) {
	for _, name := range []string{"bert-large", "vit-huge", "stable-diffusion-xl"} {
		need := func(concurrent int64) (float64, []Warning) {
			res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: name}, ConcurrentRequests: i64(concurrent), Region: "eastus", AsOf: asOf})
			return *res.Requirements.GPUMemoryGiB, res.Warnings
		}
		many, warnings := need(256)
		if few, _ := need(1); many != few {
			t.Errorf("%s: %v GiB at 256 requests, %v at 1", name, many, few)
		}
		if !slices.ContainsFunc(warnings, func(w Warning) bool {
			return w.Summary == "Argument Not Used By The Model" && strings.HasPrefix(w.Detail, "concurrent_requests is not used") && strings.Contains(w.Detail, "keeps no KV cache per request")
		}) {
			t.Errorf("%s: no warning that concurrent_requests is not used: %v", name, warnings)
		}
	}
}
