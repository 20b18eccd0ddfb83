// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The ranking guide (templates/guides/ranking.md.tmpl) quotes what the
// engine estimates, picks and scores on the embedded catalog at the guide's
// as_of. Each test below asks the engine the guide's question, checks the
// answer against a figure derived by hand from the catalog's facts and the
// rules the guide states (the score formula, the layout arithmetic), and
// checks that the guide quotes that figure: a change to the engine, the
// catalog or the guide that moves one without the others fails here.

// guideDate is the as_of of every example in the guide.
var guideDate = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

const guideFile = "../../templates/guides/ranking.md.tmpl"

// guideRecommend ranks the embedded catalog for req at the guide's date,
// with every candidate returned unless req sets max_results.
func guideRecommend(t *testing.T, req Request) *Result {
	t.Helper()
	req.AsOf = guideDate
	if req.MaxResults == nil {
		req.MaxResults = i64(MaxResultsLimit)
	}
	res, err := testEngine(t).Recommend(req)
	if err != nil {
		t.Fatalf("Recommend(%+v): %v", req, err)
	}
	return res
}

// guideQuotes checks that the guide contains each snippet, line breaks and
// indentation aside.
func guideQuotes(t *testing.T, snippets ...string) {
	t.Helper()
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	for _, s := range snippets {
		if !strings.Contains(text, strings.Join(strings.Fields(s), " ")) {
			t.Errorf("the guide does not quote %q", s)
		}
	}
}

// guideRec returns the recommendation for name, failing the test when the
// size is not ranked.
func guideRec(t *testing.T, res *Result, name string) Recommendation {
	t.Helper()
	for _, r := range res.Recommendations {
		if r.VMSize == name {
			return r
		}
	}
	t.Fatalf("%s is not ranked (%d sizes are)", name, len(res.Recommendations))
	return Recommendation{}
}

// guideFirstFailure is the constraint a size is counted under for req, read from
// the Preferred Size Skipped warning that naming it in prefer gives; "" when
// it passes every constraint (prefer exempts it from scale_up only).
func guideFirstFailure(t *testing.T, req Request, name string) string {
	t.Helper()
	req.Prefer, req.MaxResults = []string{name}, i64(1)
	res := guideRecommend(t, req)
	prefix := name + ", named in prefer, fails "
	for _, w := range res.Warnings {
		if w.Summary == "Preferred Size Skipped" && strings.HasPrefix(w.Detail, prefix) {
			c, _, _ := strings.Cut(strings.TrimPrefix(w.Detail, prefix), ":")
			return c
		}
	}
	return ""
}

// guideBand is the sizing component of a GPU memory share as the guide states
// it: share ÷ 0.5 below 50%, 1 from 50% to 85%, down to 0.5 at 100%.
func guideBand(u float64) float64 {
	switch {
	case u < 0.5:
		return u / 0.5
	case u <= 0.85:
		return 1
	}
	return 1 - 0.5*math.Min(1, (u-0.85)/0.15)
}

// guideWeights are the weights of one optimize_for, in the guide's order.
type guideWeights struct{ family, cost, sizing, time, scale float64 }

var (
	guideBalancedW    = guideWeights{25, 25, 20, 15, 15}
	guidePerformanceW = guideWeights{20, 10, 10, 35, 25}
)

// guideScore adds up a score as the guide's tables do: family, cost,
// sizing (already through guideBand), time (speed relative to the fastest,
// or the generation) and scale (1 ÷ VMs), minus penalties, rounded to one
// decimal.
func guideScore(w guideWeights, family, cost, sizing, time float64, nodes int64, penalties float64) float64 {
	return round1(w.family*family + w.cost*cost + w.sizing*sizing + w.time*time + w.scale/float64(nodes) - penalties)
}

// guideGeneration is the generation component of a series year.
func guideGeneration(year int) float64 { return math.Max(0, math.Min(1, float64(year-2016)/10)) }

// guideGPUFacts is one GPU's dense TFLOPS for 16-bit arithmetic (the larger
// of bf16 and fp16) and memory bandwidth in GB/s, from the catalog's
// performance facts.
func guideGPUFacts(t *testing.T, s *catalog.SKU) (tflops, gbs float64) {
	t.Helper()
	p := s.Performance.GPU
	if p == nil || p.MemoryBandwidthGBs == nil {
		t.Fatalf("%s has no GPU performance facts", s.Name)
	}
	for _, v := range []*float64{p.BF16TFLOPS, p.FP16TFLOPS} {
		if v != nil {
			tflops = math.Max(tflops, *v)
		}
	}
	return tflops, *p.MemoryBandwidthGBs
}

// guideLinked reports whether the catalog gives the size's GPUs an NVLink.
func guideLinked(s *catalog.SKU) bool {
	return s.Performance.GPU != nil && s.Performance.GPU.NVLinkGBsPerGPU != nil && s.GPU.Count > 1
}

// guideTrainRate is one VM's training rate in FLOP/s on gpus of its GPUs at
// the MFU the guide states: mfu for the GPU class, × 0.8 over PCIe when
// several GPUs of the VM work without NVLink.
func guideTrainRate(t *testing.T, s *catalog.SKU, gpus, mfu float64) float64 {
	t.Helper()
	tflops, _ := guideGPUFacts(t, s)
	if gpus > 1 && !guideLinked(s) {
		mfu *= PCIeTrainingFactor
	}
	return gpus * tflops * 1e12 * mfu
}

// guideDecode is the output tokens per second of one copy decoding b
// sequences, as the guide states the formula: the slower of reading the
// weights and 87.5% of each sequence's KV cache at 60% of the bandwidth, and
// the arithmetic of b output tokens with three prompt tokens each at 35% of
// the peak.
func guideDecode(weightsGiB, kvSeqGiB, b, gpus, gbs, tflops, activeB float64) float64 {
	mem := (weightsGiB*GiB + b*kvSeqGiB*GiB*KVReadShare) / (gpus * gbs * 1e9 * InferenceMBU)
	comp := b * 2 * activeB * 1e9 / (1 - PromptShare) / (gpus * tflops * 1e12 * InferenceMFU)
	return b / math.Max(mem, comp)
}

// guideSize looks up any size of the embedded catalog.
func guideSize(t *testing.T, name string) *catalog.SKU {
	t.Helper()
	s, ok := testEngine(t).Catalog().Lookup(name)
	if !ok {
		t.Fatalf("%s is not in the catalog", name)
	}
	return s
}

// guideNear reports whether got is within 0.01% of want.
func guideNear(got, want float64) bool { return math.Abs(got-want) <= 1e-4*math.Abs(want) }

// guideEst is the estimate of a ranked size, failing when it has none.
func guideEst(t *testing.T, res *Result, name string) *Estimate {
	t.Helper()
	r := guideRec(t, res, name)
	if r.Estimate == nil {
		t.Fatalf("%s has no estimate", name)
	}
	return r.Estimate
}

// guideVal dereferences an estimate figure, NaN when it is null.
func guideVal(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// guideSKU looks a size up in the embedded catalog.
func guideSKU(t *testing.T, name string) *catalog.SKU {
	t.Helper()
	s, ok := testEngine(t).Catalog().Lookup(name)
	if !ok || s.GPU == nil {
		t.Fatalf("%s is not a GPU size of the catalog", name)
	}
	return s
}

// guideUsable is the memory one GPU (or slice) of a size exposes: the
// driver-reported figure where the catalog records it, else the nominal.
func guideUsable(s *catalog.SKU) float64 {
	u := s.GPU.MemoryGiB
	if p := s.Performance.GPU; p != nil && p.UsableMemoryGiB != nil {
		v := *p.UsableMemoryGiB
		if s.GPU.Count < 1 {
			v *= s.GPU.Count
		}
		u = math.Min(u, v)
	}
	return u
}

// guideEastus is a size's pay-as-you-go price in eastus.
func guideEastus(t *testing.T, s *catalog.SKU) float64 {
	t.Helper()
	p, ok := s.Prices["eastus"]
	if !ok {
		t.Fatalf("%s has no eastus price", s.Name)
	}
	return p.USDPerHour
}

// guideCheapest is the lowest total price among the ranked sizes (all of them,
// with max_results 50): the cost component's reference.
func guideCheapest(res *Result) float64 {
	m := math.Inf(1)
	for _, r := range res.Recommendations {
		if r.TotalPricePerHour != nil {
			m = math.Min(m, *r.TotalPricePerHour)
		}
	}
	return m
}

// guideRejected is the number of sizes counted under constraint c.
func guideRejected(res *Result, c string) int64 {
	for _, r := range res.Rejected {
		if r.Constraint == c {
			return r.Count
		}
	}
	return 0
}

func guideHasText(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.Contains(x, s) })
}

// The memory estimates of the guide's worked examples, each recomputed from
// the rules the guide states.
func TestGuideMemoryExamples(t *testing.T) {
	eng := testEngine(t)
	gib := func(bytes float64) float64 { return round2(bytes / GiB) }
	tests := []struct {
		name  string
		req   MemoryRequest
		want  float64
		quote string
	}{
		// 7e9 × 16 bytes × 1.25.
		{"7B full fine-tuning", MemoryRequest{Workload: WorkloadFineTuning, Model: Model{ParametersBillion: 7}}, gib(7e9 * 16 * 1.25), "**130.39 GiB**"},
		// 70e9 × 16 bytes × 1.5.
		{"70B training", MemoryRequest{Workload: WorkloadTraining, Model: Model{ParametersBillion: 70}}, gib(70e9 * 16 * 1.5), "**1,564.62 GiB**"},
		// Frozen 8.03e9 × 2 + adapters 8.03e7 × 16 + 4,096 tokens ×
		// (32 × 4,096 × 2 + 4,096 × 34 + 128,256 × 4).
		{"Llama 3.1 8B LoRA", MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodLoRA},
			gib(8.03e9*2 + 8.03e7*16 + 4096*(32*4096*2+4096*34+128256*4)), "**19.64 GiB**"},
		// NF4 base (70.55e9 − 2 × 128,256 × 8,192) × 4.127 / 8 + the
		// embeddings × 2 + adapters 70.55e7 × 12 + 4,096 × (80 × 8,192 × 2
		// + 8,192 × 34 + 128,256 × 4).
		{"Llama 3.1 70B QLoRA", MemoryRequest{Workload: WorkloadFineTuning, Model: Model{Name: "llama-3.1-70b"}, FineTuningMethod: MethodQLoRA},
			gib((70.55e9-2*128256*8192)*4.127/8 + 2*128256*8192*2 + 70.55e7*12 + 4096*(80*8192*2+8192*34+128256*4)), "**52.7 GiB**"},
		// 0.307e9 × 16 + 256 × 24 × 197 × 1,024 × 34, per GPU.
		{"ViT-L/16 training", MemoryRequest{Workload: WorkloadTraining, Model: Model{Name: "vit-large", Precision: PrecisionBF16}, TrainingBatchSize: i64(256)},
			gib(0.307e9*16 + 256*24*197*1024*34), "**43.82 GiB per GPU**"},
		// 8.03e9 × 2 × 1.05 + 2 × 32 × 8 × 128 × 2 bytes × 8,192 × 32.
		{"Llama 3.1 8B inference", MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)},
			gib(8.03e9*2*1.05 + 2*32*8*128*2*8192*32), "**47.7 GiB**"},
		// 70.55e9 × 2 × 1.05 + 2 × 80 × 8 × 128 × 2 bytes × 8,192 × 32.
		{"Llama 3.1 70B inference", MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "llama-3.1-70b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)},
			gib(70.55e9*2*1.05 + 2*80*8*128*2*8192*32), "**217.98 GiB**"},
		// 1.3e9 × 2 × 1.05 + 131,072 × (1.3 / 8)^0.42 bytes × 4,096 × 8.
		{"OPT-1.3B by size", MemoryRequest{Workload: WorkloadInference, Model: Model{ParametersBillion: 1.3, Precision: PrecisionBF16}},
			gib(1.3e9*2*1.05 + 131072*math.Pow(1.3/8, 0.42)*4096*8), "**4.41 GiB**"},
		// fp16, 2,048 tokens: 1.32e9 × 2 × 1.05 + 2 × 24 × 32 × 64 × 2 ×
		// 2,048 × 8.
		{"OPT-1.3B by name", MemoryRequest{Workload: WorkloadInference, Model: Model{Name: "opt-1.3b"}},
			gib(1.32e9*2*1.05 + 2*24*32*64*2*2048*8), "(196,608 bytes per token): 5.58 GiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, err := eng.EstimateMemory(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			// The engine rounds each part before adding them up: a cent of
			// difference is rounding.
			if math.Abs(e.GiB-tt.want) > 0.011 {
				t.Errorf("%v GiB, want %v (%s)", e.GiB, tt.want, e.Formula)
			}
			if !strings.Contains(strings.ReplaceAll(tt.quote, ",", ""), trimFloat(e.GiB)) {
				t.Errorf("the engine gives %v GiB, the guide %q", e.GiB, tt.quote)
			}
			guideQuotes(t, tt.quote)
		})
	}
	// System memory per copy: 150% of the weights.
	for _, tt := range []struct {
		req     Request
		weights float64 // bytes
	}{
		{Request{Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)}, 8.03e9 * 2},
		{Request{Model: &Model{Name: "llama-3.1-70b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32)}, 70.55e9 * 2},
		{Request{Model: &Model{ParametersBillion: 1.3, Precision: PrecisionBF16}}, 1.3e9 * 2},
	} {
		tt.req.Workload, tt.req.Region, tt.req.MaxResults = WorkloadInference, "eastus", i64(1)
		res := guideRecommend(t, tt.req)
		if want := round2(round2(tt.weights/GiB) * 1.5); res.Requirements.SystemMemoryGiB == nil || *res.Requirements.SystemMemoryGiB != want {
			t.Errorf("%+v: system memory %v, want %v", tt.req.Model, res.Requirements.SystemMemoryGiB, want)
		}
	}
	guideQuotes(t, "| System memory per copy | 22.44 GiB | 197.12 GiB | 3.63 GiB |")
}

// Worked score: 7B fine-tuning on AKS in eastus, 0.1 billion tokens. The NC
// size with two NVLink-joined H100 NVL GPUs runs the cheapest job and beats
// the preferred ND family; the cheapest size by the hour runs the dearest
// job of the three. Every layout finishes within the default 720 hours, so
// with balanced weights each takes the whole time component (min(1, 720 ÷
// hours)); optimize_for = "performance" compares speed with the fastest.
// A timed training job's sizing component is the share of its VMs' GPUs it
// keeps busy: every GPU here, since no single GPU holds the job.
func TestGuideWorkedScore7BFineTuning(t *testing.T) {
	req := Request{Workload: WorkloadFineTuning, Model: &Model{ParametersBillion: 7}, Target: TargetAKS, Region: "eastus"}
	res := guideRecommend(t, req)
	const need = 130.39
	flops := 6 * 7e9 * 0.1e9
	if rq := res.Requirements; rq.GPUMemoryGiB == nil || *rq.GPUMemoryGiB != need || !guideNear(rq.TrainingFLOPs, flops) || rq.TrainingTokensBillion != 0.1 || flops != 4.2e18 {
		t.Fatalf("GPU memory %v, %v FLOPs on %v billion tokens", rq.GPUMemoryGiB, rq.TrainingFLOPs, rq.TrainingTokensBillion)
	}
	nc80, nd, nc48, h100 := guideSKU(t, "Standard_NC80adis_H100_v5"), guideSKU(t, "Standard_ND96asr_v4"), guideSKU(t, "Standard_NC48ads_A100_v4"), guideSKU(t, "Standard_ND96isr_H100_v5")
	// No GPU of these holds 130.39 GiB, so each job uses every GPU.
	type job struct {
		s                *catalog.SKU
		rate, hours, usd float64
	}
	jobOf := func(s *catalog.SKU) job {
		if guideUsable(s) >= need {
			t.Fatalf("%s: one GPU holds the job", s.Name)
		}
		j := job{s: s, rate: guideTrainRate(t, s, s.GPU.Count, TrainingMFU)}
		j.hours = flops / j.rate / 3600
		j.usd = j.hours * guideEastus(t, s)
		return j
	}
	a, b, c, fast := jobOf(nc80), jobOf(nd), jobOf(nc48), jobOf(h100)
	if round2(a.rate/1e14) != 6.68 || round2(b.rate/1e14) != 9.98 || round2(c.rate/1e14) != 2 || round2(fast.rate/1e14) != 31.66 ||
		round2(a.hours) != 1.75 || round2(a.usd) != 24.37 || round2(b.hours) != 1.17 || round2(b.usd) != 31.78 ||
		round2(c.hours) != 5.84 || round2(c.usd) != 42.92 || round2(fast.hours) != 0.37 || round2(fast.hours*guideEastus(t, h100)) != 36.23 {
		t.Errorf("hand jobs %+v %+v %+v %+v", a, b, c, fast)
	}
	// The cheapest job and the fastest layout of every candidate.
	for _, r := range res.Recommendations {
		if e := r.Estimate; e == nil || guideVal(e.JobCostUSD) < round2(a.usd) || guideVal(e.JobHours) < round2(fast.hours) {
			t.Errorf("%s: %+v is cheaper or faster than the guide's references", r.VMSize, r.Estimate)
		}
	}
	vmMem := func(s *catalog.SKU) float64 { return guideUsable(s) * s.GPU.Count } // 188, 320, 160
	// Time: against the deadline with balanced weights, against the
	// fastest layout with optimize_for = "performance". Sizing: every GPU
	// of the VM computes (the job's memory needs more than one), so 1.
	score := func(w guideWeights, j job, family, penalties float64) float64 {
		time := math.Min(1, DefaultDeadlineHours/j.hours)
		if w == guidePerformanceW {
			time = j.rate / fast.rate
		}
		busy := j.s.GPU.Count / j.s.GPU.Count
		return guideScore(w, family, a.usd/j.usd, busy, time, 1, penalties)
	}
	wantA, wantB, wantC := score(guideBalancedW, a, 0.5, 0), score(guideBalancedW, b, 1, PenaltyUnusedRDMA), score(guideBalancedW, c, 0.5, 0)
	if wantA != 87.5 || wantB != 84.2 || wantC != 76.7 || vmMem(nc80) != 188 || vmMem(nd) != 320 || vmMem(nc48) != 160 || c.hours > DefaultDeadlineHours ||
		math.Round(100*need/vmMem(nc80)) != 69 || math.Round(100*need/vmMem(nd)) != 41 || math.Round(100*need/vmMem(nc48)) != 81 {
		t.Errorf("hand scores %v, %v, %v; the guide quotes 87.5, 84.2 and 76.7", wantA, wantB, wantC)
	}
	// Between them, the two 8-GPU SXM sizes: the H100's dearer job
	// (36.23 USD) and the A100 80 GB's (1.17 hours × 32.77 = 38.29 USD),
	// each less the 10 points of unused InfiniBand.
	wantH := score(guideBalancedW, fast, 1, PenaltyUnusedRDMA)
	am := jobOf(guideSKU(t, "Standard_ND96amsr_A100_v4"))
	wantAM := score(guideBalancedW, am, 1, PenaltyUnusedRDMA)
	if wantH != 81.8 || wantAM != 80.9 || round2(am.usd) != 38.29 {
		t.Errorf("hand scores ND96isr_H100_v5 %v, ND96amsr_A100_v4 %v (%v USD)", wantH, wantAM, am.usd)
	}
	for _, tt := range []struct {
		j     job
		score float64
		rank  int64
	}{{a, wantA, 1}, {b, wantB, 2}, {fast, wantH, 3}, {am, wantAM, 4}, {c, wantC, 5}} {
		r := guideRec(t, res, tt.j.s.Name)
		if r.Score != tt.score || r.Rank != tt.rank || r.Nodes != 1 || r.Deployment.RDMA ||
			guideVal(r.Estimate.JobHours) != round2(tt.j.hours) || guideVal(r.Estimate.JobCostUSD) != round2(tt.j.usd) {
			t.Errorf("%s: rank %d, %v, %+v; want rank %d, %v", r.VMSize, r.Rank, r.Score, r.Estimate, tt.rank, tt.score)
		}
	}
	if e := guideEst(t, res, nc48.Name); !guideNear(e.Efficiency, 0.32) || !guideNear(TrainingMFU*PCIeTrainingFactor, 0.32) {
		t.Errorf("NC48ads_A100_v4 MFU %v", e.Efficiency)
	}
	top := res.Recommendations[0]
	if !guideHasText(top.Reasons, "(65.19 GiB per GPU of 94 GiB usable)") ||
		!guideHasText(top.Reasons, "Estimated 1.75 hours for the job on 1 VM, 24.37 USD in all (0.24 USD per million tokens), at 40% MFU.") {
		t.Errorf("reasons %q", top.Reasons)
	}
	if got := guideFirstFailure(t, req, "Standard_NC24ads_A100_v4"); got != "gpu_memory" {
		t.Errorf("NC24ads_A100_v4 is counted under %q, want gpu_memory", got)
	}
	if got := guideFirstFailure(t, req, "Standard_NC4as_T4_v3"); got != "precision" {
		t.Errorf("NC4as_T4_v3 is counted under %q, want precision", got)
	}
	if r := round1(guideEastus(t, nc80) / guideEastus(t, nc48)); r != 1.9 || round1(a.rate/c.rate) != 3.3 {
		t.Errorf("price ratio %v, speed ratio %v", r, a.rate/c.rate)
	}
	guideQuotes(t,
		"`Standard_NC80adis_H100_v5`, one VM with two 94 GB H100 NVL GPUs joined by NVLink (188 GiB, 69% used",
		"each GPU holds 65.19 GiB of the sharded states, and the default 0.1 billion tokens take 1.75 hours, 24.37 USD",
		"6 × 7B × 0.1B = 4.2e18 FLOPs",
		"8 × 989.5 TFLOPS × 40% = 31.664, in 0.37 hours",
		"| Rate | 2 H100 NVL joined by NVLink: 2 × 835.5 × 40% = 6.684 | 8 A100 40 GB: 8 × 312 × 40% = 9.984 | 2 A100 80 GB PCIe without NVLink: 2 × 312 × 40% × 0.8 = 1.997 |",
		"| Job | 1.75 hours × 13.96 USD = 24.37 USD | 1.17 hours × 27.197 USD = 31.78 USD | 5.84 hours × 7.346 USD = 42.92 USD |",
		"| Cost | 25 × 24.37 ÷ 24.37 = 25 | 25 × 24.37 ÷ 31.78 = 19.17 | 25 × 24.37 ÷ 42.92 = 14.19 |",
		"| Sizing (GPUs busy) | 2 of 2: 20 × 1 = 20 | 8 of 8: 20 | 2 of 2: 20 |",
		"| Time | 1.75 hours, within 720: 15 | 1.17 hours: 15 | 5.84 hours: 15 |",
		"| **Score** | **87.5** (rank 1) | **84.2** (rank 2) | **76.7** (rank 5) |",
		"`Standard_ND96isr_H100_v5` (36.23 USD, 81.8) and `Standard_ND96amsr_A100_v4` (38.29 USD, 80.9) rank between them",
		"so each takes the whole time component, 15 × min(1, 720 ÷ hours) = 15",
		"costs 1.9 times as much per hour, finishes 3.3 times sooner",
		"the single-GPU `Standard_NC24ads_A100_v4`, are removed under `gpu_memory`",
		"(T4, V100 and older) are removed under `precision`",
		"The two A100 PCIe GPUs of `Standard_NC48ads_A100_v4` train at 40% × 0.8 = 32%",
		"\"Estimated 1.75 hours for the job on 1 VM, 24.37 USD in all (0.24 USD per million tokens), at 40% MFU.\"")
	for _, v := range []struct{ got, want float64 }{
		{25 * a.usd / b.usd, 19.17}, {25 * a.usd / c.usd, 14.19}, {35 * a.rate / fast.rate, 7.39},
	} {
		if round2(v.got) != v.want {
			t.Errorf("a table cell is %v by hand, the guide quotes %v", v.got, v.want)
		}
	}

	// optimize_for = "performance": the 8-GPU H100 size first.
	req.OptimizeFor = OptimizePerformance
	perf := guideRecommend(t, req)
	wantFast := score(guidePerformanceW, fast, 1, PenaltyUnusedRDMA)
	wantA = score(guidePerformanceW, a, 0.5, 0)
	if top := perf.Recommendations[0]; top.VMSize != h100.Name || top.Score != wantFast || wantFast != 86.7 ||
		guideRec(t, perf, nc80.Name).Score != wantA || wantA != 62.4 {
		t.Errorf("performance: top %s %v (hand %v), NC80adis_H100_v5 %v (hand %v)", top.VMSize, top.Score, wantFast, guideRec(t, perf, nc80.Name).Score, wantA)
	}
	guideQuotes(t, "puts `Standard_ND96isr_H100_v5` (eight H100 SXM GPUs, 0.37 hours, 36.23 USD) first at 86.7 against 62.4 for the H100 NVL pair",
		"(time = 35 × 6.684 ÷ 31.664 = 7.39 for the H100 NVL pair)")

	// prefer keeps the deployed size first and names the better one: four
	// A100 PCIe GPUs cost twice the pair's price for half the pair's rate
	// (4 × 312 × 40% × 0.8 = 3.994, 2.92 hours, 42.92 USD), all four busy:
	// 12.5 + 25 × 24.37 ÷ 42.92 + 20 + 15 + 15 = 76.7.
	req.OptimizeFor, req.Prefer, req.MaxResults = "", []string{"Standard_NC96ads_A100_v4"}, i64(3)
	pref := guideRecommend(t, req)
	nc96 := jobOf(guideSKU(t, "Standard_NC96ads_A100_v4"))
	want96 := score(guideBalancedW, nc96, 0.5, 0)
	if want96 != 76.7 || pref.Recommendations[0].Score != want96 || !slices.ContainsFunc(pref.Warnings, func(w Warning) bool {
		return w.Summary == "A Better Size Exists" && strings.HasPrefix(w.Detail, "Standard_NC80adis_H100_v5 scores 87.5 against 76.7 for the preferred Standard_NC96ads_A100_v4.")
	}) {
		t.Errorf("NC96ads_A100_v4 %v (hand %v); warnings %+v", pref.Recommendations[0].Score, want96, pref.Warnings)
	}
	guideQuotes(t, "# that Standard_NC80adis_H100_v5 scores 87.5 against 76.7.")
}

// 70B training: the memory alone needs a few VMs of each size; the default
// budget, 20 tokens per parameter, scales each out to finish within 720
// hours where it can.
func TestGuide70BTraining(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus"}
	const need = 1564.62
	sizes := map[string]int64{
		"Standard_ND96amsr_A100_v4":      3,
		"Standard_ND96asr_v4":            5,
		"Standard_ND96isr_H100_v5":       3,
		"Standard_ND128isr_NDR_GB200_v6": 3,
	}
	// A billion tokens take less than a day on the VMs the memory needs:
	// those are the layouts.
	small := req
	small.TokensBillion = f64p(1)
	mem := guideRecommend(t, small)
	for name, quoted := range sizes {
		s := guideSKU(t, name)
		r := guideRec(t, mem, name)
		if want := int64(math.Ceil(need / (guideUsable(s) * s.GPU.Count))); r.Nodes != want || want != quoted || !r.Deployment.RDMA {
			t.Errorf("%s: %d VMs (RDMA %v), hand %d, the guide %d", name, r.Nodes, r.Deployment.RDMA, want, quoted)
		}
	}

	res := guideRecommend(t, req)
	flops := 6 * 70e9 * 1400e9
	if rq := res.Requirements; rq.TrainingTokensBillion != 20*70 || !guideNear(rq.TrainingFLOPs, flops) || flops != 5.88e23 || rq.Interconnect != "infiniband" ||
		!strings.Contains(rq.TokenBudget, "20 tokens per parameter") {
		t.Errorf("requirements %+v", rq)
	}
	// One VM's rate; the VMs that finish within 720 hours, at most 100.
	vms := func(s *catalog.SKU, mfu float64) (int64, float64) {
		rate := guideTrainRate(t, s, s.GPU.Count, mfu)
		k := int64(math.Ceil(flops / (DefaultDeadlineHours * 3600 * rate)))
		return k, flops / (float64(min(k, MaxNodesRDMA)) * rate) / 3600
	}
	gb, h100, a100, a40 := guideSKU(t, "Standard_ND128isr_NDR_GB200_v6"), guideSKU(t, "Standard_ND96isr_H100_v5"), guideSKU(t, "Standard_ND96amsr_A100_v4"), guideSKU(t, "Standard_ND96asr_v4")
	kGB, hGB := vms(gb, TrainingMFU)
	kH, hH := vms(h100, TrainingMFU)
	kA, hA := vms(a100, TrainingMFU)
	if kGB != 57 || kH != 72 || kA != 228 || round2(hGB) != 716.37 || round2(hH) != 716.43 || round2(hA) != 1635.95 {
		t.Errorf("hand: GB200 %d VMs %v h, H100 %d %v h, A100 %d %v h", kGB, hGB, kH, hH, kA, hA)
	}
	costGB := hGB * float64(kGB) * guideEastus(t, gb)
	top := res.Recommendations[0]
	if top.VMSize != gb.Name || top.Nodes != kGB || guideVal(top.Estimate.JobHours) != round2(hGB) || guideVal(top.Estimate.JobCostUSD) != round2(costGB) ||
		math.Round(costGB/1e4)/100 != 4.42 {
		t.Errorf("top %s on %d VMs: %+v", top.VMSize, top.Nodes, top.Estimate)
	}
	if r := guideRec(t, res, h100.Name); r.Nodes != kH || guideVal(r.Estimate.JobHours) != round2(hH) {
		t.Errorf("%s on %d VMs: %+v", r.VMSize, r.Nodes, r.Estimate)
	}
	late := "The job runs about 1635.95 hours on 100 VMs, beyond the 720-hour default, even on the most VMs one job may span here; set deadline_hours to accept it, or choose a size with InfiniBand or faster GPUs."
	for _, s := range []*catalog.SKU{a100, a40} {
		r := guideRec(t, res, s.Name)
		if r.Nodes != MaxNodesRDMA || guideVal(r.Estimate.JobHours) != round2(hA) || !slices.Contains(r.Warnings, late) || r.Rank <= guideRec(t, res, h100.Name).Rank {
			t.Errorf("%s: rank %d on %d VMs, %+v, %q", s.Name, r.Rank, r.Nodes, r.Estimate, r.Warnings)
		}
	}
	if got := guideFirstFailure(t, req, "Standard_ND40rs_v2"); got != "precision" {
		t.Errorf("ND40rs_v2 is counted under %q, want precision", got)
	}
	if got := guideFirstFailure(t, req, "Standard_NC96ads_A100_v4"); got != "gpu_memory" {
		t.Errorf("NC96ads_A100_v4 is counted under %q, want gpu_memory", got)
	}
	// Without region: the MI300X (30% MFU) in eastus2; NVIDIA only: the
	// H200 in eastus2.
	req.Region = ""
	mi := guideSKU(t, "Standard_ND96isr_MI300X_v5")
	kM, hM := vms(mi, OtherTrainingMFU)
	anyRegion := guideRecommend(t, req).Recommendations[0]
	costM := hM * float64(kM) * 48
	if anyRegion.VMSize != mi.Name || anyRegion.Nodes != kM || kM != 73 || anyRegion.PriceRegion != "eastus2" || anyRegion.PricePerHour == nil || *anyRegion.PricePerHour != 48 ||
		guideVal(anyRegion.Estimate.JobHours) != round2(hM) || round2(hM) != 713.07 || math.Round(costM/1e4)/100 != 2.5 || guideVal(anyRegion.Estimate.JobCostUSD) != round2(costM) {
		t.Errorf("without region: %s on %d VMs in %s: %+v", anyRegion.VMSize, anyRegion.Nodes, anyRegion.PriceRegion, anyRegion.Estimate)
	}
	req.GPUVendor = GPUVendorNVIDIA
	h200 := guideSKU(t, "Standard_ND96isr_H200_v5")
	kH200, _ := vms(h200, TrainingMFU)
	if nv := guideRecommend(t, req).Recommendations[0]; nv.VMSize != h200.Name || nv.Nodes != kH200 || kH200 != 72 || nv.PriceRegion != "eastus2" {
		t.Errorf("NVIDIA without region: %s on %d VMs in %s", nv.VMSize, nv.Nodes, nv.PriceRegion)
	}
	guideQuotes(t,
		"For the memory alone `Standard_ND96amsr_A100_v4` (8 × 80 GB) needs 3 VMs; `Standard_ND96asr_v4` (8 × 40 GB) 5; `Standard_ND96isr_H100_v5` 3; `Standard_ND128isr_NDR_GB200_v6` (4 × 192 GB) 3.",
		"`Standard_ND40rs_v2` (8 × V100 32 GB) is removed under `precision` (no bf16), and the NC sizes under `gpu_memory`.",
		"The default budget of 20 tokens per parameter (1,400 billion tokens, 5.88e23 FLOPs)",
		"`Standard_ND128isr_NDR_GB200_v6` scales out to 57 VMs (716.37 hours, 4.42 million USD) and ranks first, `Standard_ND96isr_H100_v5` to 72 VMs (716.43 hours). The A100 sizes would need 228 VMs",
		"on 100 VMs they take 1,635.95 hours, with a warning",
		"`Standard_ND96isr_MI300X_v5` (8 × 192 GB, 73 VMs, 713.07 hours, 2.50 million USD in `eastus2`) ranks first instead",
		"`Standard_ND96isr_H200_v5` (72 VMs, in `eastus2`) ranks first",
		"140 billion for 7B, 1,400 billion for 70B",
		"\""+late+"\"")
}

// OPT-1.3B inference in eastus: the job-sizing table, added up by hand from
// the catalog's prices, usable memory and bandwidth.
func TestGuideOPTJobSizing(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 1.3, Precision: PrecisionBF16}, Region: "eastus"}
	res := guideRecommend(t, req)
	if res.Requirements.GPUMemoryGiB == nil || *res.Requirements.GPUMemoryGiB != 4.41 {
		t.Fatalf("GPU memory %v", res.Requirements.GPUMemoryGiB)
	}
	// The layout counts the rounded weights and workspace and the KV cache
	// unrounded: 8 sequences × 4,096 tokens × 131,072 × (1.3 ÷ 8)^0.42
	// bytes = 4 × (1.3 ÷ 8)^0.42 GiB.
	weights, workspace := round2(1.3e9*2/GiB), round2(0.05*1.3e9*2/GiB)
	kvSeq := 4096 * 131072 * math.Pow(1.3/8, 0.42) / GiB
	used := weights + workspace + 8*kvSeq
	if weights+workspace != 2.54 || round3(8*kvSeq) != 1.865 || round3(used) != 4.405 {
		t.Errorf("used %v GiB (%v + %v + %v)", used, weights, workspace, 8*kvSeq)
	}
	t4, nc40, h100, gb := guideSKU(t, "Standard_NC4as_T4_v3"), guideSKU(t, "Standard_NC40ads_H100_v5"), guideSKU(t, "Standard_ND96isr_H100_v5"), guideSKU(t, "Standard_ND128isr_NDR_GB200_v6")
	rtx, t48 := guideSKU(t, "Standard_NC24lds_xl_RTXPRO6000BSE_v6"), guideSKU(t, "Standard_NC8as_T4_v3")
	// What each may use: 15 × 0.9 = 13.5, 94 × 0.9 = 84.6, 8 × 79.65 × 0.9
	// = 573.48, 24 × 0.9 = 21.6 GiB.
	mayUse := func(s *catalog.SKU) float64 { return guideUsable(s) * math.Max(s.GPU.Count, 1) * ServingMemoryShare }
	// One copy of 8 sequences on one GPU (a share of one for a slice).
	perSeq := func(s *catalog.SKU, weightsGiB, kv, activeB float64) float64 {
		tflops, gbs := guideGPUFacts(t, s)
		return guideDecode(weightsGiB, kv, 8, math.Min(s.GPU.Count, 1), gbs, tflops, activeB) / 8
	}
	fastest := perSeq(gb, weights, kvSeq, 1.3)
	minCost := guideCheapest(res)
	if minCost != guideEastus(t, t4) || round2(mayUse(t4)) != 13.5 || round2(mayUse(nc40)) != 84.6 || round2(mayUse(h100)) != 573.48 || round2(mayUse(rtx)) != 21.6 {
		t.Errorf("cheapest %v; may use %v, %v, %v, %v GiB", minCost, mayUse(t4), mayUse(nc40), mayUse(h100), mayUse(rtx))
	}
	for _, tt := range []struct {
		s         *catalog.SKU
		penalties float64
		score     float64
		rank      int64
		time      float64 // as the guide quotes it: bandwidth ÷ 8,000 GB/s
	}{
		{t4, PenaltyPrecisionInference, 73.6, 1, 300.0 / 8000},
		{t48, PenaltyPrecisionInference, 66.1, 2, 300.0 / 8000},
		{rtx, 0, 60.5, 3, 1597.0 / 4 / 8000},
		{nc40, 0, 51.3, 7, 3900.0 / 8000},
		{h100, PenaltyUnusedRDMA + PenaltyIdleGPUs*7/8, 23.6, 20, 3350.0 / 8000},
	} {
		speed := perSeq(tt.s, weights, kvSeq, 1.3)
		hand := guideScore(guideBalancedW, 1, minCost/guideEastus(t, tt.s), guideBand(used/mayUse(tt.s)), speed/fastest, 1, tt.penalties)
		r := guideRec(t, res, tt.s.Name)
		if r.Score != hand || hand != tt.score || r.Rank != tt.rank || !guideNear(speed/fastest, tt.time) || guideVal(r.Estimate.TokensPerSecond) != math.Round(speed*8) {
			t.Errorf("%s: rank %d score %v, by hand %v (time %v); the guide quotes rank %d, %v; %+v", tt.s.Name, r.Rank, r.Score, hand, speed/fastest, tt.rank, tt.score, r.Estimate)
		}
	}
	for _, v := range []struct{ got, want float64 }{
		{25 * minCost / guideEastus(t, nc40), 1.88}, {25 * minCost / guideEastus(t, h100), 0.13},
		{20 * used / mayUse(t4) / 0.5, 13.05}, {20 * used / mayUse(nc40) / 0.5, 2.08}, {20 * used / mayUse(h100) / 0.5, 0.31},
		{15 * 300.0 / 8000, 0.56}, {15 * 3900.0 / 8000, 7.31}, {15 * 3350.0 / 8000, 6.28},
		{3900.0 / 300, 13}, {math.Round(10*guideEastus(t, nc40)/guideEastus(t, t4)) / 10, 13.3},
	} {
		if round2(v.got) != v.want {
			t.Errorf("a table cell is %v by hand, the guide quotes %v", v.got, v.want)
		}
	}
	if w := guideRec(t, res, t4.Name).Warnings; !guideHasText(w, "has no native bf16 support") {
		t.Errorf("T4 warnings %q", w)
	}
	if e := guideEst(t, res, t4.Name); guideVal(e.TokensPerSecond) != 331 {
		t.Errorf("T4 %+v", e)
	}
	if e := guideEst(t, res, rtx.Name); guideVal(e.TokensPerSecond) != 441 {
		t.Errorf("RTX PRO 6000 slice %+v", e)
	}
	// fp16, as OPT is published: no penalty. Named: 5.58 GiB of fp16,
	// 2,048 tokens of 196,608 bytes (3 GiB of KV cache).
	req.Model.Precision = PrecisionFP16
	t4Time := perSeq(t4, weights, kvSeq, 1.3) / fastest
	if r := guideRecommend(t, req).Recommendations[0]; r.VMSize != t4.Name || r.Score != 78.6 || r.Score != guideScore(guideBalancedW, 1, 1, guideBand(used/mayUse(t4)), t4Time, 1, 0) {
		t.Errorf("fp16: %s %v", r.VMSize, r.Score)
	}
	named := guideRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "opt-1.3b"}, Region: "eastus"})
	w2, kv2 := round2(1.32e9*2/GiB), 196608.0*2048/GiB
	usedNamed := w2 + round2(0.05*1.32e9*2/GiB) + 8*kv2
	namedTime := perSeq(t4, w2, kv2, 1.32) / perSeq(gb, w2, kv2, 1.32)
	if r := named.Recommendations[0]; r.VMSize != t4.Name || *named.Requirements.GPUMemoryGiB != 5.58 || named.Requirements.ContextTokens != 2048 || round2(usedNamed) != 5.58 ||
		r.Score != 82.1 || r.Score != guideScore(guideBalancedW, 1, 1, guideBand(usedNamed/mayUse(t4)), namedTime, 1, 0) {
		t.Errorf("opt-1.3b: %s %v, %v GiB, %d tokens", r.VMSize, r.Score, *named.Requirements.GPUMemoryGiB, named.Requirements.ContextTokens)
	}
	guideQuotes(t,
		"2.54 of weights and workspace and the KV cache unrounded, 4 × (1.3 ÷ 8)^0.42 = 1.865 GiB",
		"one GB200 GPU of `Standard_ND128isr_NDR_GB200_v6` (8,000 GB/s)",
		"| Cost | 25 × 0.526 ÷ 0.526 = 25 | 25 × 0.526 ÷ 6.98 = 1.88 | 25 × 0.526 ÷ 98.32 = 0.13 |",
		"4.405 of 13.5 GiB, 33%: 20 × (4.405 ÷ 13.5) ÷ 0.5 = 13.05", "4.405 of 84.6 GiB, 5%: 20 × (4.405 ÷ 84.6) ÷ 0.5 = 2.08",
		"4.405 of 573.48 GiB, 0.8%: 20 × (4.405 ÷ 573.48) ÷ 0.5 = 0.31",
		"| Time | 15 × 300 ÷ 8,000 = 0.56 | 15 × 3,900 ÷ 8,000 = 7.31 | 15 × 3,350 ÷ 8,000 = 6.28 |",
		"| **Score** | **73.6** (rank 1) | **51.3** (rank 7) | **23.6** (rank 20) |",
		"The H100 NVL serves each sequence 13 times as fast as the T4 but costs 13.3 times as much per hour",
		"at 0.526 USD per hour, ranks first at 73.6", "it serves the 8 default requests at about 331 output tokens per second",
		"`Standard_NC8as_T4_v3`, the same GPU at 0.752 USD per hour, follows at 66.1",
		"`Standard_NC24lds_xl_RTXPRO6000BSE_v6` (24 GB, 1.13 USD per hour, native bf16, 441 tokens per second) at 60.5",
		"the T4 scores 78.6; named (`name = \"opt-1.3b\"`) it needs 5.58 GiB and scores 82.1")
}

// round3 rounds to three decimals.
func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// The layout examples: replicas, tensor parallelism checked per GPU,
// pipeline stages, the PCIe rule and InfiniBand only where a copy spans VMs.
func TestGuideLayoutExamples(t *testing.T) {
	// Llama 3.1 8B at 8,192 × 32: one A100 in the band, 72 − 47.71 = 24.29
	// GiB of KV cache room (24.29 GiB ÷ 128 KiB = 198,984 tokens).
	chat := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32), Region: "eastus"}
	res := guideRecommend(t, chat)
	top := res.Recommendations[0]
	room := "KV cache room left: 24.29 GiB, about 198,984 more tokens (24 more sequences of 8,192 tokens)."
	if math.Abs(80*ServingMemoryShare-47.71-24.29) > 1e-9 || math.Round(24.29*GiB/131072) != 198984 {
		t.Error("the KV room arithmetic")
	}
	sizing := "Holds the 47.7 GiB the job needs on 1 VM (80 GiB of GPU memory; 66% of what the job may use, inside the 50%-85% target band)."
	if top.VMSize != "Standard_NC24ads_A100_v4" || !guideHasText(top.Reasons, sizing) || !guideHasText(top.Reasons, room) {
		t.Errorf("top %s: %q", top.VMSize, top.Reasons)
	}
	// One copy decodes the 32 sequences: 14.96 GiB of weights and 32 ×
	// 0.875 GiB of KV cache per step at 60% of 1,935 GB/s.
	tflops, gbs := guideGPUFacts(t, guideSKU(t, top.VMSize))
	rate := guideDecode(14.96, 1, 32, 1, gbs, tflops, 8.03)
	if e := top.Estimate; e == nil || guideVal(e.TokensPerSecond) != math.Round(rate) || rate < 805 || rate >= 806 ||
		guideVal(e.CostPerMillionTokens) != round4(3.673/(rate*3600)*1e6) || round2(3.673/(rate*3600)*1e6) != 1.27 {
		t.Errorf("top estimate %+v, hand %v tokens per second", top.Estimate, rate)
	}
	guideQuotes(t, "(66% of the 72 GiB the serving engine may use), about 805 output tokens per second, 1.27 USD per million output tokens.")
	if r := guideRec(t, res, "Standard_NC48ads_A100_v4"); r.Replicas != 2 || r.TensorParallel != 1 || guideHasText(r.Warnings, "without NVLink") {
		t.Errorf("NC48ads_A100_v4: %d copies of %d GPUs, %q", r.Replicas, r.TensorParallel, r.Warnings)
	}
	if r := guideRec(t, res, "Standard_NC64as_T4_v3"); r.Replicas != 1 || r.TensorParallel != 4 || !guideHasText(r.Warnings, "split over 4 GPUs without NVLink") {
		t.Errorf("NC64as_T4_v3: %d copies of %d GPUs, %q", r.Replicas, r.TensorParallel, r.Warnings)
	}
	guideQuotes(t, sizing, room,
		"`Standard_NC48ads_A100_v4` serves two copies, one per GPU, instead of splitting one copy over PCIe; `Standard_NC64as_T4_v3` (four 16 GB T4s) must split the copy four ways")

	// Llama 3.1 70B at 32,768 × 8: 137.98 GiB of weights and workspace ÷ 2
	// + 10 GiB ÷ 2 = 73.99 GiB per A100 of NC48ads (over 72); four ways,
	// 34.5 + 20 = 54.5 GiB.
	long := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, ContextTokens: i64(32768), Region: "eastus"}
	res = guideRecommend(t, long)
	if got := guideFirstFailure(t, long, "Standard_NC48ads_A100_v4"); got != "gpu_memory_per_gpu" {
		t.Errorf("NC48ads_A100_v4 is counted under %q", got)
	}
	top = res.Recommendations[0]
	if (131.41+6.57)/2+10.0/2 <= 72 || round2((131.41+6.57)/4+80.0/4) != 54.5 {
		t.Error("the per-GPU arithmetic")
	}
	if top.VMSize != "Standard_NC96ads_A100_v4" || top.TensorParallel != 4 || top.PipelineStages != 1 ||
		!guideHasText(top.Reasons, "split over 4 GPUs (54.5 GiB per GPU of 72 GiB it may use)") || !guideHasText(top.Warnings, "without NVLink") {
		t.Errorf("top %s tp %d pp %d: %q %q", top.VMSize, top.TensorParallel, top.PipelineStages, top.Reasons, top.Warnings)
	}
	guideQuotes(t, "so the size is removed under `gpu_memory_per_gpu`. `Standard_NC96ads_A100_v4` splits the copy four ways (54.5 GiB per GPU) and ranks first, with the PCIe warning.",
		"Each copy of the model is split over 4 GPUs (54.5 GiB per GPU of 72 GiB it may use).")

	// Llama 3.1 405B: two pipeline stages over InfiniBand in eastus; one
	// MI300X VM without region, the InfiniBand twin 10 points behind.
	big := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-405b"}, Region: "eastus"}
	res = guideRecommend(t, big)
	top = res.Recommendations[0]
	if top.VMSize != "Standard_ND96amsr_A100_v4" || top.Nodes != 2 || top.PipelineStages != 2 || top.TensorParallel != 8 || !top.Deployment.RDMA ||
		*res.Requirements.SystemMemoryGiB != 1133.93 {
		t.Errorf("405B in eastus: %s on %d VMs, tp %d pp %d, RDMA %v; system memory %v", top.VMSize, top.Nodes, top.TensorParallel, top.PipelineStages, top.Deployment.RDMA, *res.Requirements.SystemMemoryGiB)
	}
	if got := guideFirstFailure(t, big, "Standard_ND128isr_GB300_v6"); got != "system_memory" {
		t.Errorf("ND128isr_GB300_v6 is counted under %q", got)
	}
	big.Region = ""
	res = guideRecommend(t, big)
	mi, mir := guideSKU(t, "Standard_ND96is_MI300X_v5"), guideSKU(t, "Standard_ND96isr_MI300X_v5")
	mayUse := guideUsable(mi) * mi.GPU.Count * ServingMemoryShare
	// One copy of 8 sequences over the 8 GPUs: 755.95 GiB of weights and
	// 2 × 126 × 8 × 128 × 2 bytes × 4,096 tokens of KV cache per sequence.
	// The cheapest candidate, and the fastest: the time component is 1.
	tflops, gbs = guideGPUFacts(t, mi)
	rate = guideDecode(round2(405.85e9*2/GiB), 2*126*8*128*2*4096.0/GiB, 8, 8, gbs, tflops, 405.85)
	want := guideScore(guideBalancedW, 1, 1, guideBand(809.5/mayUse), 1, 1, 0)
	for _, r := range res.Recommendations {
		if r.Estimate == nil || guideVal(r.Estimate.TokensPerSecond) > math.Round(rate) {
			t.Errorf("%s serves %+v, faster than the MI300X's %v", r.VMSize, r.Estimate, rate)
		}
	}
	if r := res.Recommendations[0]; r.VMSize != mi.Name || r.Nodes != 1 || r.Deployment.RDMA || r.Score != want || want != 100 ||
		guideVal(r.Estimate.TokensPerSecond) != math.Round(rate) || guideRec(t, res, mir.Name).Score != want-PenaltyUnusedRDMA || guideCheapest(res) != 48 {
		t.Errorf("405B without region: %s %v (hand %v), %s %v", r.VMSize, r.Score, want, mir.Name, guideRec(t, res, mir.Name).Score)
	}
	for _, r := range res.Recommendations {
		if r.PipelineStages != 1 {
			t.Errorf("%s spans %d VMs per copy although a size holds one on one VM", r.VMSize, r.PipelineStages)
		}
	}
	if guideRejected(res, "scale_up") == 0 {
		t.Errorf("no scale_up removal: %+v", res.Rejected)
	}
	guideQuotes(t,
		"so `Standard_ND96amsr_A100_v4` runs each copy over 8 GPUs and 2 VMs (2 pipeline stages) with InfiniBand, and ranks first",
		"(809.5 GiB; 1,133.93 GiB of system memory per copy)",
		"`Standard_ND96is_MI300X_v5` (no InfiniBand) scores 100.0 and `Standard_ND96isr_MI300X_v5`, the same eight MI300X GPUs with InfiniBand at the same price, 90.0")

	// 2,000 requests: copies on many VMs, no InfiniBand, no scale_up; a
	// copy decodes at most 256 sequences. No split holds 2,000 sequences
	// on one VM, so each size splits a copy over all its GPUs (tensorChoice:
	// else the largest degree). The KV cache is 1 GiB a sequence (8,192 ×
	// 128 KiB), the weights and workspace 15.71 GiB (14.96 of weights).
	chat.ConcurrentRequests = i64(2000)
	res = guideRecommend(t, chat)
	type copyOf struct {
		s                       *catalog.SKU
		tp, perCopy, copies, b  int64
		rate, perSeq, used, cap float64
	}
	serve := func(name string, tp int64) copyOf {
		s := guideSKU(t, name)
		tflops, gbs := guideGPUFacts(t, s)
		c := copyOf{s: s, tp: tp}
		mayUse := guideUsable(s) * ServingMemoryShare
		// A copy over tp GPUs holds the sequences the room after its share
		// of the weights takes, at most 256 (the KV heads, 8, divide over
		// up to 8 GPUs).
		c.perCopy = min(int64(math.Floor((mayUse-15.71/float64(tp))*float64(tp))), MaxBatchSequences)
		c.copies = (2000 + c.perCopy - 1) / c.perCopy
		c.b = (2000 + c.copies - 1) / c.copies
		c.rate = guideDecode(14.96, 1, float64(c.b), float64(tp), gbs, tflops, 8.03)
		c.perSeq = c.rate / float64(c.b)
		vms := c.copies * tp / int64(s.GPU.Count)
		c.used, c.cap = float64(c.copies)*15.71+2000, float64(vms)*s.GPU.Count*mayUse
		return c
	}
	nc24, nc80, gb := serve("Standard_NC24ads_A100_v4", 1), serve("Standard_NC80adis_H100_v5", 2), serve("Standard_ND128isr_NDR_GB200_v6", 4)
	if nc24.perCopy != 56 || nc24.copies != 36 || nc24.b != 56 || math.Round(nc24.rate) != 947 || nc80.perCopy != 153 || nc80.copies != 14 || nc80.b != 143 || math.Round(nc80.rate) != 4449 ||
		gb.perCopy != MaxBatchSequences || gb.copies != 8 || gb.b != 250 || round2(gb.perSeq) != 76.51 || round2(nc80.perSeq) != 31.11 || round3(nc24.perSeq) != 16.905 {
		t.Errorf("hand services %+v %+v %+v", nc24, nc80, gb)
	}
	minCost := guideCheapest(res)
	for _, r := range res.Recommendations {
		var copies, b float64
		for _, a := range r.Estimate.Assumptions {
			if m := decodeAssumption.FindStringSubmatch(a); m != nil {
				copies, _ = strconv.ParseFloat(m[1], 64)
				b, _ = strconv.ParseFloat(m[2], 64)
			}
		}
		if r.Deployment.RDMA || r.PipelineStages != 1 || b > MaxBatchSequences || (r.Estimate.TokensPerSecond != nil && *r.Estimate.TokensPerSecond/(copies*b) > gb.perSeq*1.0001) {
			t.Errorf("%s: RDMA %v, %d stages, %+v: faster per sequence than the GB200's %v, or more than 256 sequences a copy", r.VMSize, r.Deployment.RDMA, r.PipelineStages, r.Estimate, gb.perSeq)
		}
	}
	for _, tt := range []struct {
		c     copyOf
		score float64
		rank  int64
	}{{nc24, 61.6, 1}, {nc80, 61.4, 2}} {
		vms := tt.c.copies * tt.c.tp / int64(tt.c.s.GPU.Count)
		hand := guideScore(guideBalancedW, 1, minCost/(float64(vms)*guideEastus(t, tt.c.s)), guideBand(tt.c.used/tt.c.cap), tt.c.perSeq/gb.perSeq, vms, 0)
		r := guideRec(t, res, tt.c.s.Name)
		if hand != tt.score || r.Score != hand || r.Rank != tt.rank || r.Nodes != vms || r.Replicas != tt.c.copies || r.TensorParallel != tt.c.tp ||
			guideVal(r.Estimate.TokensPerSecond) != math.Round(tt.c.rate*float64(tt.c.copies)) {
			t.Errorf("2,000 requests: %s rank %d, %v, %d copies of %d GPUs on %d VMs; hand %v", r.VMSize, r.Rank, r.Score, r.Replicas, r.TensorParallel, r.Nodes, hand)
		}
	}
	if minCost != 117.536 || guideRejected(res, "scale_up") != 0 || !guideLinked(nc80.s) || round2(nc80.perSeq/nc24.perSeq) != 1.84 || round2(14*13.96/(36*3.673)) != 1.48 {
		t.Errorf("cheapest %v, rejected %+v", minCost, res.Rejected)
	}
	for _, name := range []string{"Standard_ND128isr_NDR_GB200_v6", "Standard_ND96isr_H100_v5", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4"} {
		if r := guideRec(t, res, name); r.Replicas != 8 || !guideHasText(r.Estimate.Assumptions, "Decode: 8 copies serving 250 sequences each") {
			t.Errorf("%s: %d copies, %q", name, r.Replicas, r.Estimate.Assumptions)
		}
	}
	guideQuotes(t, "a copy decodes at most 256 sequences together: the GB200, H100 and A100 ND sizes, whose copies would hold more, serve 8 copies of 250.",
		"`Standard_NC24ads_A100_v4` ranks first at 61.6 with 36 copies on 36 VMs (one A100 and 56 sequences each, 132.23 USD per hour); `Standard_NC80adis_H100_v5` follows at 61.4 with 14 copies on 14 VMs, each copy over the VM's two NVLink-joined GPUs (143 sequences each, 195.44 USD per hour), and serves each sequence 1.84 times as fast for 1.48 times the price.")

	// QLoRA of Llama 3.1 70B on 0.1 billion tokens: (4 × 70.55B + 4 × 80
	// layers × 4,096 tokens × 8,192) FLOPs per token, on one GPU at 40% of
	// its 16-bit peak; on the eight 40 GB A100 GPUs of ND96asr_v4, which
	// no one of them holds, sharded over all eight. Each layout keeps every
	// GPU it has busy (sizing 1) and finishes within 720 hours (time 1).
	res = guideRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-70b"}, FineTuningMethod: MethodQLoRA, Region: "eastus"})
	flops := (4*70.55e9 + 4*80*4096*8192.0) * 0.1e9
	cheapest := 0.0
	for _, tt := range []struct {
		name         string
		gpus         float64
		rank         int64
		memShare     float64 // GPU memory used, in percent
		quotedHours  float64
		quotedDollar float64
		family, pen  float64
		score        float64
	}{
		{"Standard_NC40ads_H100_v5", 1, 1, 56, 24.35, 169.95, 0.5, 0, 87.5},
		{"Standard_ND96asr_v4", 8, 2, 16, 8.15, 221.66, 1, PenaltyUnusedRDMA, 84.2},
		{"Standard_NC24ads_A100_v4", 1, 3, 66, 65.2, 239.49, 0.5, 0, 80.2},
	} {
		s := guideSKU(t, tt.name)
		hours := flops / guideTrainRate(t, s, tt.gpus, TrainingMFU) / 3600
		usd := hours * guideEastus(t, s)
		if cheapest == 0 {
			cheapest = usd
		}
		hand := guideScore(guideBalancedW, tt.family, cheapest/usd, tt.gpus/s.GPU.Count, math.Min(1, DefaultDeadlineHours/hours), 1, tt.pen)
		r := guideRec(t, res, tt.name)
		if r.Rank != tt.rank || r.TotalGPUs != tt.gpus || math.Round(100*52.7/(guideUsable(s)*s.GPU.Count)) != tt.memShare || round2(hours) != tt.quotedHours || round2(usd) != tt.quotedDollar ||
			guideVal(r.Estimate.JobHours) != tt.quotedHours || guideVal(r.Estimate.JobCostUSD) != tt.quotedDollar || hand != tt.score || r.Score != hand {
			t.Errorf("QLoRA 70B: %s rank %d, %v GPUs, %v, %+v; hand %v hours, %v", tt.name, r.Rank, r.TotalGPUs, r.Score, r.Estimate, hours, hand)
		}
	}
	guideQuotes(t, "`Standard_NC40ads_H100_v5`, one 94 GB H100 NVL (56% used, 6.98 USD per hour), fine-tunes the default 0.1 billion tokens in 24.35 hours for 169.95 USD and ranks first at 87.5;",
		"`Standard_ND96asr_v4` (eight 40 GB A100 GPUs, none of which holds the job alone: 8.15 hours, 221.66 USD) follows at 84.2; one 80 GB A100 (`Standard_NC24ads_A100_v4`, 3.673 USD per hour, 66% used) is cheaper by the hour but takes 65.2 hours, 239.49 USD, and ranks third at 80.2.")
}

// The throughput model's examples: the FLOPs formula, the MFU factors, one
// GPU for a small job, the deadline and scale_up, and one copy's decode
// rate, each recomputed from the catalog's facts.
func TestGuideThroughputModel(t *testing.T) {
	// Llama 3.1 8B with LoRA on 0.1 billion tokens: one H100 of eight, or
	// one H100 NVL.
	lora := Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodLoRA, Region: "eastus"}
	res := guideRecommend(t, lora)
	flops := (4*8.03e9 + 4*32*4096*4096.0) * 0.1e9
	if !guideNear(res.Requirements.TrainingFLOPs, flops) || sci(flops) != "3.427e+18" || *res.Requirements.GPUMemoryGiB != 19.64 ||
		!strings.Contains(res.Requirements.TokenBudget, "0.1 billion tokens") {
		t.Errorf("%v FLOPs, %v GiB, budget %q", res.Requirements.TrainingFLOPs, *res.Requirements.GPUMemoryGiB, res.Requirements.TokenBudget)
	}
	for _, tt := range []struct {
		name       string
		hours, usd float64
	}{{"Standard_ND96isr_H100_v5", 2.4, 236.45}, {"Standard_NC40ads_H100_v5", 2.85, 19.88}} {
		s := guideSKU(t, tt.name)
		if guideUsable(s) < 19.64 {
			t.Fatalf("%s: one GPU does not hold the job", tt.name)
		}
		hours := flops / guideTrainRate(t, s, 1, TrainingMFU) / 3600
		e := guideEst(t, res, tt.name)
		if round2(hours) != tt.hours || round2(hours*guideEastus(t, s)) != tt.usd || guideVal(e.JobHours) != tt.hours || guideVal(e.JobCostUSD) != tt.usd {
			t.Errorf("%s: %+v, hand %v hours", tt.name, e, hours)
		}
	}
	if p := guideEastus(t, guideSKU(t, "Standard_ND96isr_H100_v5")); p != 98.32 {
		t.Errorf("ND96isr_H100_v5 costs %v", p)
	}
	if r := guideRec(t, res, "Standard_ND96isr_H100_v5"); r.Score >= res.Recommendations[0].Score || !guideHasText(r.Warnings, "The job fits in one of its 8 GPUs") {
		t.Errorf("ND96isr_H100_v5 %v, warnings %q", r.Score, r.Warnings)
	}
	if p := guideSKU(t, "Standard_ND96isr_H100_v5").Performance.GPU; p.BF16TFLOPS == nil || *p.BF16TFLOPS != 989.5 || p.FP8TFLOPS == nil || *p.FP8TFLOPS != 1979 {
		t.Errorf("H100 SXM dense TFLOPS %v, %v", p.BF16TFLOPS, p.FP8TFLOPS)
	}
	guideQuotes(t,
		"(989.5 for bf16 on an H100 SXM, 1,979 for fp8)",
		"(4 × 8.03B + 4 × 32 × 4,096 × 4,096) × 0.1B = 3.427e18 FLOPs",
		"Llama 3.1 8B with LoRA (19.64 GiB) uses one of the eight GPUs of `Standard_ND96isr_H100_v5`: 3.427e18 ÷ (989.5 TFLOPS × 40%) = 2.4 hours, 236.45 USD at 98.32 USD per hour; `Standard_NC40ads_H100_v5`, one H100 NVL at 6.98 USD per hour, takes 2.85 hours, 19.88 USD.")

	// 7B on its default 140 billion tokens: one GB200 VM (4 × 2,500 TFLOPS
	// × 40%) finishes within 720 hours, and so does one 8-GPU H100 VM, at
	// a dearer job; both take the whole time component, so the cheaper job
	// ranks first. The A100 sizes, which need more VMs, are removed under
	// scale_up. Two RTX PRO 6000 GPUs without NVLink train at 24%.
	pre := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, Region: "eastus"}
	res = guideRecommend(t, pre)
	gb, h100, a40 := guideSKU(t, "Standard_ND128isr_NDR_GB200_v6"), guideSKU(t, "Standard_ND96isr_H100_v5"), guideSKU(t, "Standard_ND96asr_v4")
	flops = 6 * 7e9 * 140e9
	hoursGB := flops / guideTrainRate(t, gb, 4, TrainingMFU) / 3600
	hours := flops / guideTrainRate(t, h100, 8, TrainingMFU) / 3600
	usdGB, usdH := hoursGB*guideEastus(t, gb), hours*guideEastus(t, h100)
	if top := res.Recommendations[0]; top.VMSize != gb.Name || top.Nodes != 1 || guideVal(top.Estimate.JobHours) != round2(hoursGB) || round2(hoursGB) != 408.33 ||
		guideVal(top.Estimate.JobCostUSD) != round2(usdGB) || round2(usdGB) != 44165.33 || res.Requirements.TrainingTokensBillion != 140 {
		t.Errorf("top %s on %d VMs %+v, hand %v hours", top.VMSize, top.Nodes, top.Estimate, hoursGB)
	}
	if r := res.Recommendations[1]; r.VMSize != h100.Name || r.Nodes != 1 || guideVal(r.Estimate.JobHours) != round2(hours) || round2(hours) != 515.83 ||
		guideVal(r.Estimate.JobCostUSD) != round2(usdH) || round2(usdH) != 50716.69 {
		t.Errorf("second %s on %d VMs %+v, hand %v hours", r.VMSize, r.Nodes, r.Estimate, hours)
	}
	if !slices.ContainsFunc(res.Rejected, func(r Rejection) bool { return r.Constraint == "scale_up" && slices.Contains(r.Examples, a40.Name) }) {
		t.Errorf("ND96asr_v4 is not removed under scale_up: %+v", res.Rejected)
	}
	k := int64(math.Ceil(flops / (DefaultDeadlineHours * 3600 * guideTrainRate(t, a40, 8, TrainingMFU))))
	pref := pre
	pref.Prefer = []string{a40.Name}
	if r := guideRecommend(t, pref).Recommendations[0]; r.VMSize != a40.Name || r.Nodes != k || k != 3 {
		t.Errorf("preferred %s on %d VMs, hand %d", r.VMSize, r.Nodes, k)
	}
	if e := guideEst(t, res, "Standard_NC288ds_xl_RTXPRO6000BSE_v6"); !guideNear(e.Efficiency, OtherTrainingMFU*PCIeTrainingFactor) || !guideNear(e.Efficiency, 0.24) {
		t.Errorf("NC288ds_xl_RTXPRO6000BSE_v6 MFU %v", e.Efficiency)
	}
	guideQuotes(t,
		"`Standard_ND128isr_NDR_GB200_v6` takes 408.33 hours on one VM (4 × 2,500 TFLOPS × 40%, 44,165.33 USD) and ranks first, `Standard_ND96isr_H100_v5` 515.83 hours (50,716.69 USD), so `Standard_ND96asr_v4`, which needs 3 VMs to finish within 720 hours, is removed under `scale_up`.",
		"GPUs of `Standard_NC288ds_xl_RTXPRO6000BSE_v6` at 30% × 0.8 = 24%.")

	// A stated deadline no A100 40 GB layout meets: 2,338 VMs for 10
	// hours; 100 VMs take 234 hours.
	tight := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64p(2000), DeadlineHours: f64p(10), GPUModels: []string{"a100-sxm-40gb"}, Region: "eastus", AsOf: guideDate}
	_, err := testEngine(t).Recommend(tight)
	var nf *NoFitError
	rate := guideTrainRate(t, a40, 8, TrainingMFU)
	if math.Ceil(8.4e22/(10*3600*rate)) != 2338 || math.Ceil(8.4e22/(100*rate)/3600) != 234 {
		t.Error("the deadline arithmetic")
	}
	miss := "Standard_ND96asr_v4 fails only deadline. To use it, raise deadline_hours to at least 234 (the job takes that long on 100 VMs of it)."
	if !errors.As(err, &nf) || nf.NearestMiss == nil || !strings.Contains(err.Error(), "Nearest miss: "+miss) || nf.NearestMiss.VMSize != a40.Name || nf.NearestMiss.FailedConstraint != "deadline" {
		t.Errorf("error %v", err)
	}
	guideQuotes(t, "10 hours would take 2,338 `Standard_ND96asr_v4` VMs; the nearest miss reads `"+miss+"`",
		"`raise deadline_hours to at least 234 (the job takes that long on 100 VMs of it)`")

	// One copy of Llama 3.1 8B decoding 32 sequences of 8,192 tokens on one
	// H100 NVL.
	serve := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32), Region: "eastus"}
	res = guideRecommend(t, serve)
	nc40 := guideSKU(t, "Standard_NC40ads_H100_v5")
	tflops, gbs := guideGPUFacts(t, nc40)
	memMS := (14.96 + 32*KVReadShare) * GiB / (gbs * 1e9 * InferenceMBU) * 1e3
	compMS := 32 * 2 * 8.03e9 / (1 - PromptShare) / (tflops * 1e12 * InferenceMFU) * 1e3
	tps := guideDecode(14.96, 1, 32, 1, gbs, tflops, 8.03)
	e := guideEst(t, res, nc40.Name)
	if round2(memMS) != 19.71 || round2(compMS) != 7.03 || math.Round(tps) != 1623 || guideVal(e.TokensPerSecond) != 1623 ||
		round2(6.98/(tps*3600)*1e6) != 1.19 || e.Efficiency != InferenceMBU {
		t.Errorf("%v ms, %v ms, %v tokens per second; %+v", memMS, compMS, tps, e)
	}
	guideQuotes(t, "(14.96 + 28) GiB ÷ (3,900 × 0.6 GB/s) = 19.71 ms; its arithmetic, 32 × 2 × 8.03B ÷ 0.25 ÷ (835.5 × 0.35 TFLOPS) = 7.03 ms: 32 ÷ 19.71 ms = 1,623 output tokens per second, 1.19 USD per million at 6.98 USD per hour.")
}

// The guide's three worked examples of time and cost, added up by hand.
func TestGuideWorkedThroughputExamples(t *testing.T) {
	t.Run("pretraining by a deadline", func(t *testing.T) {
		req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64p(2000), DeadlineHours: f64p(2000), Region: "eastus"}
		res := guideRecommend(t, req)
		const need = 156.46
		flops := 6 * 7e9 * 2000e9
		if rq := res.Requirements; *rq.GPUMemoryGiB != need || round2(7e9*16*1.5/GiB) != need || !guideNear(rq.TrainingFLOPs, flops) || flops != 8.4e22 ||
			rq.TokenBudget != "tokens_billion" || rq.DeadlineHours != 2000 {
			t.Errorf("requirements %+v", rq)
		}
		type job struct {
			s                          *catalog.SKU
			oneVM, vms, hours, usd, sz float64
			mem                        float64 // GPU memory used on the VMs the memory needs
		}
		jobOf := func(name string) job {
			s := guideSKU(t, name)
			rate := guideTrainRate(t, s, s.GPU.Count, TrainingMFU)
			j := job{s: s, oneVM: flops / rate / 3600}
			j.vms = math.Ceil(j.oneVM / 2000)
			j.hours = flops / (j.vms * rate) / 3600
			j.usd = j.hours * j.vms * guideEastus(t, s)
			j.mem = need / (guideUsable(s) * s.GPU.Count) // the one VM the memory needs
			j.sz = s.GPU.Count / s.GPU.Count              // a timed training job: every GPU computes
			if need > guideUsable(s)*s.GPU.Count || need <= guideUsable(s) && j.oneVM <= 2000 {
				t.Fatalf("%s: the memory needs more than one VM, or one GPU runs the job", name)
			}
			return j
		}
		a, b, c := jobOf("Standard_ND96asr_v4"), jobOf("Standard_ND128isr_NDR_GB200_v6"), jobOf("Standard_ND96isr_H100_v5")
		for _, r := range res.Recommendations {
			if guideVal(r.Estimate.JobCostUSD) < round2(b.usd) || guideVal(r.Estimate.JobHours) < round2(c.hours) {
				t.Errorf("%s: %+v is cheaper or faster than the guide's references", r.VMSize, r.Estimate)
			}
		}
		// Every layout meets the 2,000 hours: time min(1, 2,000 ÷ hours) = 1.
		for _, tt := range []struct {
			j                            job
			oneVM, vms, hours, usd, rank float64
			score                        float64
		}{
			{a, 23371, 12, 1947.56, 635613.65, 2, 86.1},
			{b, 5833, 3, 1944.44, 630933.33, 1, 90},
			{c, 7369, 4, 1842.26, 724524.17, 3, 85.5},
		} {
			hand := guideScore(guideBalancedW, 1, b.usd/tt.j.usd, tt.j.sz, math.Min(1, 2000/tt.j.hours), int64(tt.j.vms), 0)
			r := guideRec(t, res, tt.j.s.Name)
			if math.Round(tt.j.oneVM) != tt.oneVM || tt.j.vms != tt.vms || round2(tt.j.hours) != tt.hours || round2(tt.j.usd) != tt.usd || hand != tt.score ||
				r.Score != hand || float64(r.Rank) != tt.rank || float64(r.Nodes) != tt.vms || !r.Deployment.RDMA ||
				guideVal(r.Estimate.JobHours) != tt.hours || guideVal(r.Estimate.JobCostUSD) != tt.usd {
				t.Errorf("%s: rank %d, %v on %d VMs, %+v; hand %+v, %v", r.VMSize, r.Rank, r.Score, r.Nodes, r.Estimate, tt.j, hand)
			}
		}
		for _, v := range []struct{ got, want float64 }{
			{25 * b.usd / a.usd, 24.82}, {25 * b.usd / c.usd, 21.77}, {100 * a.mem, 48.89}, {100 * b.mem, 20.37}, {100 * c.mem, 24.55}, {20 * a.sz, 20},
			{a.vms * 27.197, 326.36}, {b.vms * 108.16, 324.48}, {c.vms * 98.32, 393.28},
		} {
			if round2(v.got) != v.want {
				t.Errorf("a table cell is %v by hand, the guide quotes %v", v.got, v.want)
			}
		}
		reason := "Holds the 156.46 GiB the job needs on 1 VM (320 GiB of GPU memory, 49% used); the deadline takes 12 VMs, every GPU computing."
		if !guideHasText(guideRec(t, res, a.s.Name).Reasons, reason) {
			t.Errorf("ND96asr_v4 reasons %q", guideRec(t, res, a.s.Name).Reasons)
		}
		guideQuotes(t, reason)
		e := guideEst(t, res, a.s.Name)
		if tps := 2000e9 / (a.hours * 3600); guideVal(e.TokensPerSecond) != math.Round(tps) || math.Round(tps) != 285257 ||
			guideVal(e.CostPerMillionTokens) != round4(a.usd/2e6) || round4(a.usd/2e6) != 0.3178 || a.usd/b.usd > 1.01 {
			t.Errorf("ND96asr_v4 %+v", e)
		}
		guideQuotes(t,
			"156.46 GiB of GPU memory and 6 × 7B × 2,000B = 8.4e22 FLOPs",
			"| One VM's rate | 8 × 312 TFLOPS × 40% = 998.4: 23,371 hours on one VM | 4 × 2,500 × 40% = 4,000: 5,833 hours | 8 × 989.5 × 40% = 3,166.4: 7,369 hours |",
			"| VMs for 2,000 hours | ⌈23,371 ÷ 2,000⌉ = 12 | ⌈5,833 ÷ 2,000⌉ = 3 | ⌈7,369 ÷ 2,000⌉ = 4 |",
			"| Job | 1,947.56 hours × 326.36 USD = 635,613.65 USD | 1,944.44 hours × 324.48 USD = 630,933.33 USD | 1,842.26 hours × 393.28 USD = 724,524.17 USD |",
			"| Cost | 25 × 630,933.33 ÷ 635,613.65 = 24.82 | 25 | 25 × 630,933.33 ÷ 724,524.17 = 21.77 |",
			"| Sizing (GPUs busy) | 8 of 8 on each VM: 20 | 4 of 4: 20 | 8 of 8: 20 |",
			"| Time | 1,947.56 hours, within 2,000: 15 | 1,944.44 hours: 15 | 1,842.26 hours: 15 |",
			"| Scale | 15 ÷ 12 = 1.25 | 15 ÷ 3 = 5 | 15 ÷ 4 = 3.75 |",
			"| **Score** | **86.1** (rank 2) | **90.0** (rank 1) | **85.5** (rank 3) |",
			"Each layout meets the deadline, so finishing sooner earns nothing, and each keeps every GPU of its VMs busy",
			"its job costs within 1% of the GB200's",
			"(156.46 GiB is 49% of one `Standard_ND96asr_v4` VM's 320 GiB, 20% of a GB200 VM's 768 GiB and 25% of an H100 VM's 637.2 GiB)",
			"Its estimate: 285,257 tokens per second, 0.3178 USD per million tokens.")
	})

	t.Run("a service by throughput", func(t *testing.T) {
		// No concurrent_requests: the copies are filled to their KV cache.
		req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), TokensPerSecond: f64p(5000), Region: "eastus"}
		res := guideRecommend(t, req)
		const shard = 15.71 // weights and workspace; a sequence's KV cache is 1 GiB
		type svc struct {
			s                        *catalog.SKU
			seqs, rate, perSeq, copy float64
		}
		// Sequences per copy: the KV cache one GPU's serving memory holds
		// after the weights, at most 256; one copy per GPU.
		svcOf := func(name string) svc {
			s := guideSKU(t, name)
			tflops, gbs := guideGPUFacts(t, s)
			v := svc{s: s, seqs: math.Min(math.Floor(guideUsable(s)*ServingMemoryShare-shard), MaxBatchSequences)}
			v.rate = guideDecode(14.96, 1, v.seqs, 1, gbs, tflops, 8.03)
			v.perSeq = v.rate / v.seqs
			v.copy = math.Ceil(5000 / v.rate)
			return v
		}
		a, b, c, fast := svcOf("Standard_NC40ads_H100_v5"), svcOf("Standard_NC80adis_H100_v5"), svcOf("Standard_NC24ads_A100_v4"), svcOf("Standard_ND96isr_H100_v5")
		if a.seqs != 68 || c.seqs != 56 || fast.seqs != 55 || math.Round(a.rate) != 1990 || math.Round(c.rate) != 947 || a.copy != 3 || c.copy != 6 ||
			round3(a.perSeq) != 29.268 || round3(c.perSeq) != 16.905 || round3(fast.perSeq) != 29.674 || round2(guideUsable(a.s)*ServingMemoryShare) != 84.6 {
			t.Errorf("hand services %+v %+v %+v", a, c, fast)
		}
		// Sizes the catalog has figures for serve 5,000 tokens per second;
		// the others (the AMD V710) are compared among themselves.
		minCost := math.Inf(1)
		for _, r := range res.Recommendations {
			if e := r.Estimate; e != nil && e.TokensPerSecond != nil {
				minCost = math.Min(minCost, *r.TotalPricePerHour)
				if *e.TokensPerSecond < 5000 {
					t.Errorf("%s serves %+v", r.VMSize, r.Estimate)
				}
			}
		}
		// The copies the throughput needs each run their batch: they use
		// their weights and workspace and the KV cache of their sequences.
		used := func(v svc) float64 { return v.copy * (shard + v.seqs) }
		for _, tt := range []struct {
			v            svc
			vms          int64
			total, score float64
			rank         int64
		}{{a, 3, 20.94, 80.5, 2}, {b, 2, 27.92, 86, 1}, {c, 6, 22.038, 70.1, 5}} {
			capacity := float64(tt.vms) * tt.v.s.GPU.Count * guideUsable(tt.v.s) * ServingMemoryShare
			hand := guideScore(guideBalancedW, 1, minCost/tt.total, guideBand(used(tt.v)/capacity), tt.v.perSeq/fast.perSeq, tt.vms, 0)
			r := guideRec(t, res, tt.v.s.Name)
			if r.Score != hand || hand != tt.score || r.Rank != tt.rank || r.Nodes != tt.vms || round4(float64(tt.vms)*guideEastus(t, tt.v.s)) != tt.total || r.Deployment.RDMA ||
				guideVal(r.Estimate.TokensPerSecond) != math.Round(tt.v.copy*tt.v.rate) {
				t.Errorf("%s: rank %d, %v on %d VMs, %+v; hand %v", r.VMSize, r.Rank, r.Score, r.Nodes, r.Estimate, hand)
			}
		}
		e := guideEst(t, res, a.s.Name)
		if minCost != 20.94 || guideVal(e.TokensPerSecond) != 5971 || round2(guideVal(e.CostPerMillionTokens)) != 0.97 || math.Round(c.copy*c.rate) != 5680 {
			t.Errorf("cheapest %v; NC40ads_H100_v5 %+v", minCost, e)
		}
		for _, v := range []struct{ got, want float64 }{
			{25 * minCost / 27.92, 18.75}, {25 * minCost / 22.038, 23.75}, {used(a), 251.13}, {used(c), 430.26},
			{20 * guideBand(used(a)/253.8), 10.7}, {guideBand(used(a) / 253.8), 0.535}, {used(b) / 338.4, 0.742}, {20 * guideBand(used(c)/432), 10.27}, {guideBand(used(c) / 432), 0.513},
			{15 * a.perSeq / fast.perSeq, 14.79}, {15 * c.perSeq / fast.perSeq, 8.55}, {InferenceMBU * 3900, 2340}, {InferenceMBU * 1935, 1161},
			{used(a) / 253.8, 0.989}, {used(c) / 432, 0.996},
		} {
			if round2(v.got) != v.want && round3(v.got) != v.want {
				t.Errorf("a table cell is %v by hand, the guide quotes %v", v.got, v.want)
			}
		}
		if round3(GiB/1e9) != 1.074 {
			t.Error("a GiB in GB")
		}
		guideQuotes(t,
			"`Standard_ND96isr_H100_v5` (55 sequences per H100 SXM, 29.674 output tokens per second each; 1 GiB is 1.074 GB)",
			"| Sequences per copy | (84.6 − 15.71) GiB ÷ 1 GiB = 68 | 68 | (72 − 15.71) ÷ 1 = 56 |",
			"| One copy | 68 ÷ ((14.96 + 68 × 0.875) GiB ÷ 2,340 GB/s) = 1,990 tokens per second | 1,990 | 56 ÷ ((14.96 + 56 × 0.875) GiB ÷ 1,161 GB/s) = 947 |",
			"| Copies | ⌈5,000 ÷ 1,990⌉ = 3, on 3 VMs: 5,971 tokens per second | 3, on 2 VMs of two GPUs | ⌈5,000 ÷ 947⌉ = 6, on 6 VMs: 5,680 |",
			"| Price | 20.94 USD per hour, 0.97 per million tokens | 27.92 USD per hour | 22.038 USD per hour |",
			"| Cost | 25 | 25 × 20.94 ÷ 27.92 = 18.75 | 25 × 20.94 ÷ 22.038 = 23.75 |",
			"| Sizing | 3 × (15.71 + 68) = 251.13 of 253.8 GiB, 98.9%: 20 × 0.535 = 10.7 | 251.13 of 338.4 GiB, 74%, inside the band: 20 | 6 × (15.71 + 56) = 430.26 of 432 GiB, 99.6%: 20 × 0.513 = 10.27 |",
			"| Time | 15 × 29.268 ÷ 29.674 = 14.79 | 14.79 | 15 × 16.905 ÷ 29.674 = 8.55 |",
			"| Scale | 15 ÷ 3 = 5 | 15 ÷ 2 = 7.5 | 15 ÷ 6 = 2.5 |",
			"| **Score** | **80.5** (rank 2) | **86.0** (rank 1) | **70.1** (rank 5) |",
			"so the three GPUs of `Standard_NC40ads_H100_v5` are 98.9% used, above the target band, while the fourth GPU of `Standard_NC80adis_H100_v5` (a copy the throughput does not need) leaves room: it ranks first although it costs a third more per hour.")
		if r := guideRec(t, res, b.s.Name); r.Replicas != 4 || !guideHasText(r.Estimate.Assumptions, "Decode: 3 copies serving 68 sequences each") || round2(27.92/20.94) != 1.33 {
			t.Errorf("NC80adis_H100_v5: %d replicas, %q", r.Replicas, r.Estimate.Assumptions)
		}

		// With concurrent_requests = 32 stated, the service decodes those 32
		// sequences: 5,000 tokens per second is 156.25 for each. One H100
		// NVL copy decoding one sequence reads the weights and its KV cache
		// per step, 2,340 GB/s ÷ (14.96 + 0.875) GiB = 137.63 tokens per
		// second: no H100 NVL layout reaches it, and the size fails
		// tokens_per_second. A GB200 copy (8,000 GB/s) decoding 15 reaches
		// it, 16 do not: ⌈32 ÷ 15⌉ = 3 copies of ⌈32 ÷ 3⌉ = 11.
		req.ConcurrentRequests = i64(32)
		stated := guideRecommend(t, req)
		h100T, h100B := guideGPUFacts(t, a.s)
		one := guideDecode(14.96, 1, 1, 1, h100B, h100T, 8.03)
		gbT, gbB := guideGPUFacts(t, guideSKU(t, "Standard_ND128isr_NDR_GB200_v6"))
		perSeq := func(b float64) float64 { return guideDecode(14.96, 1, b, 1, gbB, gbT, 8.03) / b }
		gbRate := guideDecode(14.96, 1, 11, 1, gbB, gbT, 8.03)
		if round2(5000.0/32) != 156.25 || round2(one) != 137.63 || h100B*InferenceMBU != 2340 || one*32 >= 5000 || perSeq(15)*32 < 5000 || perSeq(16)*32 >= 5000 {
			t.Errorf("hand: one H100 NVL sequence %v tokens per second; GB200 per sequence at 15 %v, at 16 %v", one, perSeq(15), perSeq(16))
		}
		for _, v := range []svc{a, b, c, fast} {
			if got := guideFirstFailure(t, req, v.s.Name); got != "tokens_per_second" {
				t.Errorf("with 32 requests, %s is counted under %q", v.s.Name, got)
			}
		}
		if top := stated.Recommendations[0]; top.VMSize != "Standard_ND128isr_NDR_GB200_v6" || top.Nodes != 1 || guideVal(top.Estimate.TokensPerSecond) != math.Round(3*gbRate) || math.Round(3*gbRate) != 6000 ||
			!guideHasText(top.Estimate.Assumptions, "Decode: 3 copies serving 11 sequences each") {
			t.Errorf("with 32 requests: top %s on %d VMs, %+v", top.VMSize, top.Nodes, top.Estimate)
		}
		guideQuotes(t,
			"5,000 tokens per second is 156.25 for each of the 32 sequences",
			"2,340 GB/s ÷ (14.96 + 0.875) GiB = 137.63 output tokens per second",
			"so every H100 NVL size fails `tokens_per_second`",
			"`Standard_ND128isr_NDR_GB200_v6` ranks first: a GB200 copy decoding 15 sequences gives each the 156.25, 16 do not, so ⌈32 ÷ 15⌉ = 3 copies of 11 sequences serve 6,000 tokens per second")
	})

	t.Run("a bandwidth-bound CFD job", func(t *testing.T) {
		req := Request{Workload: WorkloadHPC, Cores: i64(2000), HPCBound: BoundMemoryBandwidth, Region: "eastus"}
		res := guideRecommend(t, req)
		type hpc struct {
			s                         *catalog.SKU
			perVM, vms, rate, perUnit float64
		}
		// A VM's bandwidth: STREAM, at most 50 GB/s per physical core.
		hpcOf := func(name string) hpc {
			s := guideSize(t, name)
			c := s.Performance.CPU
			if c == nil || c.StreamGBs == nil || c.Cores == nil || s.VCPUs == nil {
				t.Fatalf("%s has no STREAM figure", name)
			}
			h := hpc{s: s, perVM: math.Min(*c.StreamGBs, 50*float64(*c.Cores)), vms: math.Ceil(2000 / float64(*s.VCPUs))}
			h.rate = h.vms * h.perVM * HPCParallelEfficiency
			h.perUnit = h.vms * guideEastus(t, s) / h.rate
			return h
		}
		a, b, c, d, e := hpcOf("Standard_HB368-144rs_v5"), hpcOf("Standard_HB368-48rs_v5"), hpcOf("Standard_HB368rs_v5"), hpcOf("Standard_HB176-24rs_v4"), hpcOf("Standard_HB120rs_v3")
		best := hpcOf("Standard_HB368-96rs_v5")
		if best.rate != b.rate || best.perVM != 4800 || b.perVM != 2400 || a.perVM != 6600 || d.perVM != 780 || MaxStreamGBsPerCore != 50 {
			t.Errorf("hand bandwidths: %+v %+v %+v", best, b, a)
		}
		for _, r := range res.Recommendations {
			if est := r.Estimate; est == nil || guideVal(est.RelativeThroughput) > 1 || r.VMSize != b.s.Name && r.VMSize != best.s.Name && guideVal(est.RelativeThroughput) == 1 {
				t.Errorf("%s: %+v", r.VMSize, r.Estimate)
			}
		}
		for _, tt := range []struct {
			h                      hpc
			vms, rate, rel, perGBs float64
			score                  float64
			rank                   int64
		}{
			{a, 14, 83160, 0.9167, 0.00333, 84.7, 1},
			{b, 42, 90720, 1, 0.00917, 69.3, 8},
			{c, 6, 35640, 0.3929, 0.00333, 76.5, 7},
			{d, 84, 58968, 0.65, 0.01026, 62.9, 9},
			{e, 17, 5355, 0.059, 0.01143, 53.7, 21},
		} {
			h := tt.h
			hand := guideScore(guideBalancedW, 1, a.perUnit/h.perUnit, 2000/(h.vms*float64(*h.s.VCPUs)), h.rate/b.rate, int64(h.vms), 0)
			r := guideRec(t, res, h.s.Name)
			if h.vms != tt.vms || h.rate != tt.rate || round4(h.rate/b.rate) != tt.rel || round5(h.perUnit) != tt.perGBs || hand != tt.score ||
				r.Score != hand || r.Rank != tt.rank || float64(r.Nodes) != h.vms || guideVal(r.Estimate.RelativeThroughput) != tt.rel || r.Estimate.Efficiency != 0.9 {
				t.Errorf("%s: rank %d, %v on %d VMs, %+v; hand %+v, %v", r.VMSize, r.Rank, r.Score, r.Nodes, r.Estimate, h, hand)
			}
		}
		for _, v := range []struct{ got, want float64 }{
			{25 * a.perUnit / b.perUnit, 9.09}, {25 * a.perUnit / d.perUnit, 8.125}, {20 * 2000 / 2016.0, 19.84}, {20 * 2000 / 2208.0, 18.12},
			{15 * a.rate / b.rate, 13.75}, {15 * c.rate / b.rate, 5.89}, {15 * d.rate / b.rate, 9.75},
			{15 / 14.0, 1.07}, {15 / 42.0, 0.36}, {15 / 84.0, 0.18}, {a.vms * 144, 2016}, {b.vms * 48, 2016}, {c.vms * 368, 2208},
			{a.rate / c.rate, 2.33}, {best.perUnit / a.perUnit, 1.375}, {b.perUnit / a.perUnit, 2.75}, {6600.0 / 50, 132},
		} {
			if math.Round(v.got*1000)/1000 != v.want && round2(v.got) != v.want {
				t.Errorf("a table cell is %v by hand, the guide quotes %v", v.got, v.want)
			}
		}
		if res.Requirements.HPCBound != BoundMemoryBandwidth || res.Requirements.Efficiency != HPCParallelEfficiency || res.Recommendations[0].VMSize != a.s.Name {
			t.Errorf("requirements %+v", res.Requirements)
		}
		guideQuotes(t,
			"| Bandwidth per VM | min(6,600, 144 × 50) = 6,600 GB/s | min(6,600, 48 × 50) = 2,400 | 6,600 | min(780, 24 × 50) = 780 |",
			"| VMs | ⌈2,000 ÷ 144⌉ = 14 | ⌈2,000 ÷ 48⌉ = 42 | ⌈2,000 ÷ 368⌉ = 6 | ⌈2,000 ÷ 24⌉ = 84 |",
			"| Throughput | 14 × 6,600 × 0.9 = 83,160 GB/s | 42 × 2,400 × 0.9 = 90,720 | 6 × 6,600 × 0.9 = 35,640 | 84 × 780 × 0.9 = 58,968 |",
			"| `relative_throughput` | 83,160 ÷ 90,720 = 0.9167 | 1 | 0.3929 | 0.65 |",
			"| Price per GB/s-hour | 19.8 ÷ (6,600 × 0.9) = 0.00333 USD | 19.8 ÷ (2,400 × 0.9) = 0.00917 USD | 0.00333 USD | 7.2 ÷ (780 × 0.9) = 0.01026 USD |",
			"| Cost | 25 | 25 × 0.00333 ÷ 0.00917 = 9.09 | 25 | 25 × 0.00333 ÷ 0.01026 = 8.125 |",
			"| Sizing | 2,000 of 2,016 cores: 19.84 | 2,000 of 2,016: 19.84 | 2,000 of 2,208: 18.12 | 2,000 of 2,016: 19.84 |",
			"| Time | 15 × 0.9167 = 13.75 | 15 | 15 × 0.3929 = 5.89 | 15 × 0.65 = 9.75 |",
			"| Scale | 15 ÷ 14 = 1.07 | 15 ÷ 42 = 0.36 | 15 ÷ 6 = 2.5 | 15 ÷ 84 = 0.18 |",
			"| **Score** | **84.7** (rank 1) | **69.3** (rank 8) | **76.5** (rank 7) | **62.9** (rank 9) |",
			"14, for 2.33 times the bandwidth of 6 full VMs",
			"The 96- and 48-core sizes reach the most bandwidth, 90,720 GB/s, at 1.375 and 2.75 times the price per GB/s.",
			"`Standard_HB120rs_v3` (17 VMs × 350 GB/s) reaches 0.059 of it.",
			"HBv5's 6,600 GB/s holds down to 132 cores, so `Standard_HB368-96rs_v5` counts 4,800 and `Standard_HB368-48rs_v5` 2,400.")
	})
}

// round5 rounds to five decimals.
func round5(f float64) float64 { return math.Round(f*1e5) / 1e5 }

// The published runs table: each prediction recomputed as the training
// FLOPs ÷ (dense peak × 40%), from the run's inputs and the model table's
// architecture, against what the engine estimates on the run's size.
func TestGuidePublishedRuns(t *testing.T) {
	eng := testEngine(t)
	quoted := map[string]struct {
		predicted, ratio float64
		reported         string
	}{
		"Llama 2 7B":     {180000, 0.98, "184,320"},
		"Llama 2 13B":    {348000, 0.94, "368,640"},
		"Llama 2 70B":    {1840000, 1.07, "1,720,320"},
		"Llama 3.1 405B": {27800000, 0.90, "30,840,000"},
		"Llama 3.1 70B":  {4800000, 0.69, "7,000,000"},
		"Llama 3.1 8B":   {575000, 0.39, "1,460,000"},
	}
	if len(quoted) != len(publishedRuns) {
		t.Fatalf("the guide lists %d runs, the test %d", len(quoted), len(publishedRuns))
	}
	within := 0
	for _, run := range publishedRuns {
		q, ok := quoted[run.name]
		if !ok {
			t.Fatalf("%s is not in the guide's table", run.name)
		}
		m := run.req.Model
		active, perToken := m.ParametersBillion, 0.0
		ctx := 4096.0
		if run.req.ContextTokens != nil {
			ctx = float64(*run.req.ContextTokens)
		}
		if m.Name != "" {
			cm, ok := eng.Catalog().Model(m.Name)
			if !ok || cm.Layers == nil || cm.AttentionHeads == nil || cm.HeadDim == nil {
				t.Fatalf("%s: no architecture", m.Name)
			}
			active = cm.ActiveParametersBillion
			perToken = 6 * float64(*cm.Layers) * ctx * float64(*cm.AttentionHeads**cm.HeadDim)
		}
		flops := (6*active*1e9 + perToken) * *run.req.TokensBillion * 1e9
		s := guideSKU(t, run.size)
		tflops, _ := guideGPUFacts(t, s)
		gpuHours := flops / (tflops * 1e12 * TrainingMFU) / 3600
		ratio := gpuHours / run.hours
		// The engine on the run's size: hours × VMs × GPUs per VM.
		req := run.req
		req.AsOf, req.Prefer, req.Interconnect, req.MaxResults = guideDate, []string{run.size}, InterconnectInfiniBand, i64(1)
		r := guideRecommend(t, req).Recommendations[0]
		engine := guideVal(r.Estimate.JobHours) * float64(r.Nodes) * r.GPUsPerNode
		threeSig := func(v float64) float64 { p := math.Pow(10, math.Floor(math.Log10(v))-2); return math.Round(v/p) * p }
		if r.VMSize != run.size || math.Abs(engine/gpuHours-1) > 1e-3 || threeSig(gpuHours) != q.predicted || round2(ratio) != q.ratio ||
			groupInt(run.hours) != q.reported || (ratio >= 1/1.5 && ratio <= 1.5) != run.within {
			t.Errorf("%s: engine %v GPU-hours on %s, hand %v (%v×); the guide quotes %v (%v×)", run.name, engine, r.VMSize, gpuHours, ratio, q.predicted, q.ratio)
		}
		if run.within {
			within++
		}
		kind := "predicted"
		if !run.predicted {
			kind = "fitted"
		}
		row := guideRow(t, "| "+run.name)
		if row == "" {
			row = guideRowPrefix(t, "| "+run.name+" (")
		}
		want := fmt.Sprintf("| %s | %s | %.2f | %s", q.reported, groupInt(q.predicted), q.ratio, kind)
		if !strings.Contains(row, want) {
			t.Errorf("the guide's row %q does not contain %q", row, want)
		}
		if run.name == "Llama 3.1 8B" {
			// The reported hours imply 16% MFU.
			if mfu := flops / (run.hours * 3600 * tflops * 1e12); math.Round(mfu*100) != 16 {
				t.Errorf("implied MFU %v", mfu)
			}
		}
	}
	if within != 5 {
		t.Errorf("%d runs within 1.5×", within)
	}
	guideQuotes(t, "Five of the six fall within 1.5 times the reported figure.", "the card's figure implies 16% MFU")
}

// guideRowPrefix is the guide's line that starts with prefix.
func guideRowPrefix(t *testing.T, prefix string) string {
	t.Helper()
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}

// Ordering, VM limits and the nearest miss, as the guide quotes them.
func TestGuideOrderingLimitsAndNearestMiss(t *testing.T) {
	// RAPIDS with CUDA 12.0: a tie broken by price.
	res := guideRecommend(t, Request{Workload: WorkloadDataProcessing, CUDAVersion: "12.0", Region: "eastus"})
	a, h := guideRec(t, res, "Standard_NC24ads_A100_v4"), guideRec(t, res, "Standard_NC40ads_H100_v5")
	if a.Score != 62.1 || h.Score != 62.1 || a.Rank != h.Rank-1 || *a.PricePerHour != 3.673 || *h.PricePerHour != 6.98 {
		t.Errorf("A100 rank %d %v at %v, H100 rank %d %v at %v", a.Rank, a.Score, *a.PricePerHour, h.Rank, h.Score, *h.PricePerHour)
	}
	// No work to time: the hourly price and the generation (no size, so
	// sizing is 0.5).
	for _, r := range []Recommendation{a, h} {
		if r.Estimate != nil || r.Score != guideScore(guideBalancedW, 1, guideCheapest(res)/(*r.PricePerHour), 0.5, guideGeneration(r.SKU.SeriesYear), 1, 0) {
			t.Errorf("%s: %v, %+v", r.VMSize, r.Score, r.Estimate)
		}
	}
	guideQuotes(t, "`Standard_NC24ads_A100_v4` and `Standard_NC40ads_H100_v5` both score 62.1; the A100 size ranks first because it costs 3.673 against 6.98 USD per hour.")

	// 2,000 MPI cores: 125 VMs of 16 cores are more than 100 InfiniBand VMs.
	hpc := Request{Workload: WorkloadHPC, Cores: i64(2000)}
	if got := guideFirstFailure(t, hpc, "Standard_HB120-16rs_v3"); got != "cores" || math.Ceil(2000.0/16) != 125 {
		t.Errorf("HB120-16rs_v3 is counted under %q", got)
	}
	guideQuotes(t, "`Standard_HB120-16rs_v3` (16 cores) would need 125 VMs and fails `cores`.")

	// LoRA in bf16 on T4s only, under 1 USD per hour in eastus: the T4
	// fails only precision (the H100 NVL would fail gpu_models and the
	// price), and the nearest miss names fp16.
	if p := guideEastus(t, guideSKU(t, "Standard_NC4as_T4_v3")); p >= 1 {
		t.Errorf("NC4as_T4_v3 costs %v", p)
	}
	_, err := testEngine(t).Recommend(Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.2-1b"}, FineTuningMethod: MethodLoRA, GPUModels: []string{"t4"},
		MaxPricePerHour: f64p(1), Region: "eastus", AsOf: guideDate})
	var nf *NoFitError
	if !errors.As(err, &nf) || nf.NearestMiss == nil {
		t.Fatalf("error %v, want a NoFitError with a nearest miss", err)
	}
	m := nf.NearestMiss
	relax := `set model.precision = "fp16", the closest precision the NVIDIA Tesla T4 runs natively.`
	if m.VMSize != "Standard_NC4as_T4_v3" || len(m.FailedConstraints) != 1 || m.FailedConstraint != "precision" || m.Relax != relax {
		t.Errorf("nearest miss %+v", m)
	}
	guideQuotes(t, "restricted to `gpu_models = [\"t4\"]` and `max_price_per_hour = 1` in `eastus`",
		"`Standard_NC4as_T4_v3 fails only precision. To use it, "+relax+"`")
}

// Every constant the guide names is quoted with the value rules.go gives it.
func TestGuideConstants(t *testing.T) {
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	g := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	n := func(v int64) string { return groupInt(float64(v)) }
	batch := defaultTrainingBatchSize
	if batch[catalog.ModelKindGenerative] != batch[catalog.ModelKindMoE] || batch[catalog.ModelKindEncoder] != batch[""] {
		t.Errorf("the guide groups language models, and encoders with unknown kinds: %v", batch)
	}
	if QLoRABaseBytesPerParameter*8 != 4.127 {
		t.Errorf("QLoRABaseBytesPerParameter %v", QLoRABaseBytesPerParameter)
	}
	guideQuotes(t,
		"`MinGradientBytesPerParameter = "+g(MinGradientBytesPerParameter)+"`",
		"`MasterWeightBytesPerParameter = "+g(MasterWeightBytesPerParameter)+"`",
		"`AdamStateBytesPerParameter = "+g(AdamStateBytesPerParameter)+"`",
		"`TrainingActivationHeadroom = "+f2(TrainingActivationHeadroom)+"`",
		"`FineTuningActivationHeadroom = "+f2(FineTuningActivationHeadroom)+"`",
		"`LoRAAdapterShare = "+g(LoRAAdapterShare)+"`",
		"`LoRAAdapterBytesPerParameter = "+g(LoRAAdapterBytesPerParameter)+"`",
		"`QLoRAAdapterBytesPerParameter = "+g(QLoRAAdapterBytesPerParameter)+"`",
		"`QLoRABaseBytesPerParameter = 4.127 / 8`",
		"`CheckpointedActivationBytes = "+g(CheckpointedActivationBytes)+"`",
		"`RecomputedLayerActivationBytes = "+g(RecomputedLayerActivationBytes)+"`",
		"`LogitBytes = "+g(LogitBytes)+"`",
		g(LoRAActivationBytesPerParameter)+" bytes per parameter per "+n(DefaultContextTokens)+" tokens (`LoRAActivationBytesPerParameter`)",
		"`InferenceWorkspaceFraction = "+f2(InferenceWorkspaceFraction)+"`",
		"`InferenceHeadroom = "+f2(InferenceHeadroom)+"`",
		"`ServingMemoryShare = "+g(ServingMemoryShare)+"`",
		"`ApproxKVBytesPerToken = "+g(ApproxKVBytesPerToken)+"`",
		"`ApproxKVExponent = "+g(ApproxKVExponent)+"`",
		g(KVBytesPerElement)+" (`KVBytesPerElement`",
		g(KVBytesPerElementFP8)+" for an fp8 model (`KVBytesPerElementFP8`)",
		"`SampleActivationBytes`", "hidden × "+g(SampleActivationBytes)+" bytes (`SampleActivationBytes`",
		"`InferenceSystemMemoryFactor = "+g(InferenceSystemMemoryFactor)+"`",
		n(DefaultContextTokens)+" (`DefaultContextTokens`)",
		n(DefaultConcurrentRequests)+" (`DefaultConcurrentRequests`)",
		n(MaxContextTokens)+" (`MaxContextTokens`)",
		n(MaxConcurrentRequests)+" (`MaxConcurrentRequests`)",
		n(MaxTrainingBatchSize)+" (`MaxTrainingBatchSize`)",
		fmt.Sprintf("%d sequence for language models, %d for encoders and models of unknown kind, %d for vision, %d for speech, %d for diffusion",
			batch[catalog.ModelKindGenerative], batch[catalog.ModelKindEncoder], batch[catalog.ModelKindVision], batch[catalog.ModelKindSpeech], batch[catalog.ModelKindDiffusion]),
		"`SizingBandLow = "+f2(SizingBandLow)+"`",
		"`SizingBandHigh = "+f2(SizingBandHigh)+"`",
		"`SizingFullScore = "+g(SizingFullScore)+"`",
		"at most "+n(MaxNodes)+" VMs (`MaxNodes`",
		"at most "+n(MaxNodesRDMA)+" VMs (`MaxNodesRDMA`",
		"| Unused InfiniBand | "+g(PenaltyUnusedRDMA)+" |",
		"| Precision, inference | "+g(PenaltyPrecisionInference)+" |",
		"| Tensor parallelism over PCIe | "+g(PenaltyTensorParallelPCIe)+" |",
		"costs "+g(PenaltyTensorParallelPCIe)+" points (`PenaltyTensorParallelPCIe`)",
		"| Idle GPUs | "+g(PenaltyIdleGPUs)+" × (GPUs − 1) ÷ GPUs |",
		"| Retiring | "+g(PenaltyRetiring)+" |", "| Preview | "+g(PenaltyPreview)+" |",
		"| Unknown target support | "+g(PenaltyUnknownSupport)+" |", "| No price | "+g(PenaltyNoPrice)+" |",
		// The throughput model.
		"`ChinchillaTokensPerParameter = "+g(ChinchillaTokensPerParameter)+"`",
		"`DefaultFineTuningTokensBillion = "+g(DefaultFineTuningTokensBillion)+"`",
		n(MaxTokensBillion)+" (`MaxTokensBillion`)",
		n(DefaultDeadlineHours)+" (`DefaultDeadlineHours`)",
		n(MaxDeadlineHours)+" (`MaxDeadlineHours`, 10 years)",
		groupInt(MaxTokensPerSecond)+" (`MaxTokensPerSecond`)",
		"| "+g(TrainingFLOPsPerToken)+" (`TrainingFLOPsPerToken`) |",
		"| "+g(LoRAFLOPsPerToken)+" (`LoRAFLOPsPerToken`) |",
		"| "+f2(TrainingMFU)+" | `TrainingMFU`:",
		"| "+f2(OtherTrainingMFU)+" | `OtherTrainingMFU`:",
		"| × "+g(PCIeTrainingFactor)+" | `PCIeTrainingFactor` |",
		"| × "+g(PartialGPUTrainingFactor)+" | `PartialGPUTrainingFactor` |",
		"| × "+g(EthernetTrainingFactor)+" | `EthernetTrainingFactor` |",
		"| `InferenceMBU` | "+f2(InferenceMBU)+" |",
		"| `InferenceMFU` | "+f2(InferenceMFU)+" |",
		"| `PromptShare` | "+f2(PromptShare)+" |",
		"| `KVReadShare` | "+g(KVReadShare)+" |",
		"| `MaxBatchSequences` | "+n(MaxBatchSequences)+" |",
		f2(HPCParallelEfficiency)+" for `hpc` on more than one VM (`HPCParallelEfficiency`",
		"at most "+g(MaxStreamGBsPerCore)+" GB/s per physical core (`MaxStreamGBsPerCore`)",
	)
	if KVReadShare != PromptShare+(1-PromptShare)/2 {
		t.Errorf("KVReadShare %v is not the prompt plus half the output", KVReadShare)
	}
	// The MFU table's classes: the catalog gives each GPU one of the
	// guide's two figures, TrainingMFU only to NVIDIA GPUs; a GPU it gives
	// none takes OtherTrainingMFU.
	cat := testCatalog(t)
	for _, id := range cat.GPUModelIDs() {
		p, _ := cat.GPUPerformance(id)
		g, _ := cat.GPUModel(id)
		switch {
		case p == nil || p.TrainingMFU == nil:
		case *p.TrainingMFU != TrainingMFU && *p.TrainingMFU != OtherTrainingMFU:
			t.Errorf("%s: training_mfu %v is neither of the guide's figures", id, *p.TrainingMFU)
		case *p.TrainingMFU == TrainingMFU && g.Vendor != "nvidia":
			t.Errorf("%s: training_mfu %v, the guide's figure for NVIDIA data-center GPUs, on a %s GPU", id, *p.TrainingMFU, g.Vendor)
		}
	}
	guideQuotes(t, "NVIDIA data-center GPUs: V100, A100, H100, H200, GB200, GB300 (`training_mfu` in the catalog, decision D48)")
	for _, b := range HPCBounds() {
		if guideRowPrefix(t, "| `"+b+"`") == "" {
			t.Errorf("the guide's hpc_bound table has no row for %s", b)
		}
	}
	for kind, label := range map[string]string{catalog.ModelKindEncoder: "`encoder`", catalog.ModelKindVision: "`vision`", catalog.ModelKindSpeech: "`speech`", catalog.ModelKindDiffusion: "`diffusion`", "": "unknown"} {
		guideQuotes(t, "| "+label+" | "+g(sampleActivationBytesPerParameter[kind])+" |")
	}
	for p, bpp := range bytesPerParameter {
		if p == PrecisionTF32 || p == PrecisionFP16 {
			continue // on the rows of fp32 and bf16
		}
		row := "| `" + p + "`"
		switch p {
		case PrecisionFP32:
			row += ", `tf32`"
		case PrecisionBF16:
			row += " (default), `fp16`"
		}
		guideQuotes(t, row+" |")
		if !strings.HasSuffix(guideRow(t, row), " | "+g(bpp)+" |") {
			t.Errorf("the %s row does not end with %v bytes for inference: %q", p, bpp, guideRow(t, row))
		}
	}
}

// guideRow is the guide's table row that starts with prefix.
func guideRow(t *testing.T, prefix string) string {
	t.Helper()
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, prefix+" |") {
			return line
		}
	}
	return ""
}

// The guide's table of hard constraints lists them in the engine's order.
func TestGuideConstraintOrder(t *testing.T) {
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "| Constraint | Removes a size when |\n|---|---|\n")
	if !ok {
		t.Fatal("no table of hard constraints")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var got []string
	for _, line := range strings.Split(table, "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, name := range strings.Split(first, ", ") {
			got = append(got, strings.Trim(name, "`"))
		}
	}
	if want := Constraints(); !slices.Equal(got, want) {
		t.Errorf("the guide lists\n %v\nthe engine evaluates\n %v", got, want)
	}
}
