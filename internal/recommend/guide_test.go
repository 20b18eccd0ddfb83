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

// guideBalanced is the score of a layout on one VM with the balanced
// weights, as the guide's tables add it up: family, cost, sizing (already
// through guideBand), generation year and scale (15 ÷ 1 VM), minus
// penalties, rounded to one decimal.
func guideBalanced(family, cost, sizing float64, year int, penalties float64) float64 {
	gen := math.Max(0, math.Min(1, float64(year-2016)/10))
	return round1(25*family + 25*cost + 20*sizing + 15*gen + 15 - penalties)
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

// Worked score: 7B fine-tuning on AKS in eastus. The NC size with two 80 GB
// A100s beats the preferred ND family on cost, the target band and unused
// InfiniBand.
func TestGuideWorkedScore7BFineTuning(t *testing.T) {
	req := Request{Workload: WorkloadFineTuning, Model: &Model{ParametersBillion: 7}, Target: TargetAKS, Region: "eastus"}
	res := guideRecommend(t, req)
	const need = 130.39
	if res.Requirements.GPUMemoryGiB == nil || *res.Requirements.GPUMemoryGiB != need {
		t.Fatalf("GPU memory %v, want %v", res.Requirements.GPUMemoryGiB, need)
	}
	nc, nd := guideSKU(t, "Standard_NC48ads_A100_v4"), guideSKU(t, "Standard_ND96asr_v4")
	minCost := guideCheapest(res)
	if minCost != guideEastus(t, nc) {
		t.Errorf("the cheapest candidate costs %v, want NC48ads_A100_v4's %v", minCost, guideEastus(t, nc))
	}
	vmNC, vmND := guideUsable(nc)*nc.GPU.Count, guideUsable(nd)*nd.GPU.Count // 160, 320
	wantNC := guideBalanced(0.5, 1, guideBand(need/vmNC), nc.SeriesYear, 0)
	wantND := guideBalanced(1, minCost/guideEastus(t, nd), guideBand(need/vmND), nd.SeriesYear, PenaltyUnusedRDMA)
	if wantNC != 81.5 || wantND != 60.6 || vmNC != 160 || vmND != 320 || nc.SeriesYear != 2022 || nd.SeriesYear != 2021 {
		t.Errorf("hand scores %v and %v on %v and %v GiB (%d, %d); the guide quotes 81.5 and 60.6 on 160 and 320 (2022, 2021)", wantNC, wantND, vmNC, vmND, nc.SeriesYear, nd.SeriesYear)
	}
	top := res.Recommendations[0]
	if top.VMSize != nc.Name || top.Score != wantNC || top.Nodes != 1 || top.TotalGPUMemoryGiB != 160 || top.Deployment.RDMA {
		t.Errorf("top %s %v on %d VMs, %v GiB, RDMA %v; want %s %v on 1 VM, 160 GiB, no RDMA", top.VMSize, top.Score, top.Nodes, top.TotalGPUMemoryGiB, top.Deployment.RDMA, nc.Name, wantNC)
	}
	if !guideHasText(top.Reasons, "81% of what the job may use, inside the 50%-85% target band") || !guideHasText(top.Reasons, "(65.19 GiB per GPU of 80 GiB usable)") {
		t.Errorf("reasons %q", top.Reasons)
	}
	if got := guideRec(t, res, nd.Name).Score; got != wantND {
		t.Errorf("%s scores %v, want %v", nd.Name, got, wantND)
	}
	if got := guideFirstFailure(t, req, "Standard_NC24ads_A100_v4"); got != "gpu_memory" {
		t.Errorf("NC24ads_A100_v4 is counted under %q, want gpu_memory", got)
	}
	if got := guideFirstFailure(t, req, "Standard_NC4as_T4_v3"); got != "precision" {
		t.Errorf("NC4as_T4_v3 is counted under %q, want precision", got)
	}
	guideQuotes(t,
		"`Standard_NC48ads_A100_v4`, one VM with two 80 GB A100 GPUs (160 GiB, 81% used",
		"each GPU holds 65.19 GiB of the sharded states",
		"| Cost | 25 × 7.346 ÷ 7.346 = 25 | 25 × 7.346 ÷ 27.197 = 6.75 |",
		"130.39 of 320 GiB, 41%: 20 × (130.39 ÷ 320) ÷ 0.5 = 16.3",
		"| Generation | 15 × (2022 − 2016) ÷ 10 = 9 | 15 × (2021 − 2016) ÷ 10 = 7.5 |",
		"| **Score** | **81.5** | **60.6** |",
		"the single-GPU `Standard_NC24ads_A100_v4`, are removed under `gpu_memory`",
		"(T4, V100 and older) are removed under `precision`")

	// optimize_for = "performance": the RTX PRO 6000 pair first, the best
	// ND size well behind.
	req.OptimizeFor = OptimizePerformance
	perf := guideRecommend(t, req)
	top = perf.Recommendations[0]
	bestND := Recommendation{}
	for _, r := range perf.Recommendations {
		if r.SKU.Family == "ND" && r.Score > bestND.Score {
			bestND = r
		}
	}
	if top.VMSize != "Standard_NC288ds_xl_RTXPRO6000BSE_v6" || top.Score != 86.7 || !guideHasText(top.Reasons, "68% of what the job may use") ||
		guideRec(t, perf, nc.Name).Score != 76.0 || bestND.VMSize != "Standard_ND96isr_H100_v5" || bestND.Score != 64.3 {
		t.Errorf("performance: top %s %v, NC48ads_A100_v4 %v, best ND %s %v", top.VMSize, top.Score, guideRec(t, perf, nc.Name).Score, bestND.VMSize, bestND.Score)
	}
	guideQuotes(t, "`Standard_NC288ds_xl_RTXPRO6000BSE_v6` (192 GB, 2026, 11 USD per hour, 68% used) first (86.7 against 76.0; the best ND size, `Standard_ND96isr_H100_v5`, scores 64.3)")

	// prefer keeps the deployed size first and names the better one.
	req.OptimizeFor, req.Prefer, req.MaxResults = "", []string{"Standard_NC96ads_A100_v4"}, i64(3)
	pref := guideRecommend(t, req)
	if !slices.ContainsFunc(pref.Warnings, func(w Warning) bool {
		return w.Summary == "A Better Size Exists" && strings.HasPrefix(w.Detail, "Standard_NC48ads_A100_v4 scores 81.5 against 65.3 for the preferred Standard_NC96ads_A100_v4.")
	}) {
		t.Errorf("warnings %+v", pref.Warnings)
	}
	guideQuotes(t, "# that Standard_NC48ads_A100_v4 scores 81.5 against 65.3.")
}

// 70B training: every layout spans VMs over InfiniBand, each size on
// ⌈1,564.62 GiB ÷ its usable GPU memory per VM⌉ VMs.
func TestGuide70BTraining(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus"}
	res := guideRecommend(t, req)
	const need = 1564.62
	for name, quoted := range map[string]int64{
		"Standard_ND96amsr_A100_v4":      3,
		"Standard_ND96asr_v4":            5,
		"Standard_ND96isr_H100_v5":       3,
		"Standard_ND128isr_NDR_GB200_v6": 3,
	} {
		s := guideSKU(t, name)
		r := guideRec(t, res, name)
		if want := int64(math.Ceil(need / (guideUsable(s) * s.GPU.Count))); r.Nodes != want || want != quoted || !r.Deployment.RDMA {
			t.Errorf("%s: %d VMs (RDMA %v), hand %d, the guide %d", name, r.Nodes, r.Deployment.RDMA, want, quoted)
		}
	}
	top := res.Recommendations[0]
	a100 := guideSKU(t, "Standard_ND96amsr_A100_v4")
	if top.VMSize != a100.Name || top.TotalPricePerHour == nil || *top.TotalPricePerHour != round4(3*guideEastus(t, a100)) ||
		*top.TotalPricePerHour != 98.31 || !guideHasText(top.Reasons, "81% of what the job may use") || res.Requirements.Interconnect != "infiniband" {
		t.Errorf("top %s at %v USD/h, reasons %q, interconnect %s", top.VMSize, top.TotalPricePerHour, top.Reasons, res.Requirements.Interconnect)
	}
	if got := guideFirstFailure(t, req, "Standard_ND40rs_v2"); got != "precision" {
		t.Errorf("ND40rs_v2 is counted under %q, want precision", got)
	}
	if got := guideFirstFailure(t, req, "Standard_NC96ads_A100_v4"); got != "gpu_memory" {
		t.Errorf("NC96ads_A100_v4 is counted under %q, want gpu_memory", got)
	}
	// Without region: the MI300X on two VMs in eastus2; NVIDIA only: the
	// A100 again.
	req.Region = ""
	anyRegion := guideRecommend(t, req).Recommendations[0]
	if anyRegion.VMSize != "Standard_ND96isr_MI300X_v5" || anyRegion.Nodes != int64(math.Ceil(need/1536)) || anyRegion.Nodes != 2 ||
		anyRegion.TotalPricePerHour == nil || *anyRegion.TotalPricePerHour != 96 || anyRegion.PriceRegion != "eastus2" {
		t.Errorf("without region: %s on %d VMs at %v in %s", anyRegion.VMSize, anyRegion.Nodes, anyRegion.TotalPricePerHour, anyRegion.PriceRegion)
	}
	req.GPUVendor = GPUVendorNVIDIA
	if nv := guideRecommend(t, req).Recommendations[0]; nv.VMSize != a100.Name {
		t.Errorf("NVIDIA without region: %s", nv.VMSize)
	}
	guideQuotes(t,
		"`Standard_ND96amsr_A100_v4` (8 × 80 GB) needs 3 VMs; `Standard_ND96asr_v4` (8 × 40 GB) 5; `Standard_ND96isr_H100_v5` 3; `Standard_ND128isr_NDR_GB200_v6` (4 × 192 GB) 3.",
		"`Standard_ND40rs_v2` (8 × V100 32 GB) is removed under `precision` (no bf16), and the NC sizes under `gpu_memory`.",
		"cheapest total (98.31 USD per hour for 3 VMs), 81% of the GPU memory used",
		"`Standard_ND96isr_MI300X_v5` (8 × 192 GB, 2 VMs, 96 USD per hour in `eastus2`) ranks first instead",
		"and `Standard_ND96amsr_A100_v4` ranks first again")
}

// OPT-1.3B inference in eastus: the job-sizing table, added up by hand from
// the catalog's prices, years and usable memory.
func TestGuideOPTJobSizing(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 1.3, Precision: PrecisionBF16}, Region: "eastus"}
	res := guideRecommend(t, req)
	const need = 4.41
	if res.Requirements.GPUMemoryGiB == nil || *res.Requirements.GPUMemoryGiB != need {
		t.Fatalf("GPU memory %v", res.Requirements.GPUMemoryGiB)
	}
	t4, rtx, h100 := guideSKU(t, "Standard_NC4as_T4_v3"), guideSKU(t, "Standard_NC24lds_xl_RTXPRO6000BSE_v6"), guideSKU(t, "Standard_ND96isr_H100_v5")
	minCost := guideCheapest(res)
	// What each may use: 15 × 0.9 = 13.5, 24 × 0.9 = 21.6, 8 × 79.65 × 0.9
	// = 573.48 GiB.
	mayUse := func(s *catalog.SKU) float64 { return guideUsable(s) * math.Max(s.GPU.Count, 1) * ServingMemoryShare }
	if minCost != guideEastus(t, t4) || round2(mayUse(t4)) != 13.5 || round2(mayUse(rtx)) != 21.6 || round2(mayUse(h100)) != 573.48 {
		t.Errorf("cheapest %v; may use %v, %v, %v GiB", minCost, mayUse(t4), mayUse(rtx), mayUse(h100))
	}
	for _, tt := range []struct {
		s         *catalog.SKU
		penalties float64
		score     float64
		rank      int64
	}{
		{t4, PenaltyPrecisionInference, 79.1, 1},
		{rtx, 0, 74.8, 2},
		{h100, PenaltyUnusedRDMA + PenaltyIdleGPUs*7/8, 27.8, 20},
	} {
		hand := guideBalanced(1, minCost/guideEastus(t, tt.s), guideBand(need/mayUse(tt.s)), tt.s.SeriesYear, tt.penalties)
		r := guideRec(t, res, tt.s.Name)
		if r.Score != hand || hand != tt.score || r.Rank != tt.rank {
			t.Errorf("%s: rank %d score %v, by hand %v; the guide quotes rank %d, %v", tt.s.Name, r.Rank, r.Score, hand, tt.rank, tt.score)
		}
	}
	if w := guideRec(t, res, t4.Name).Warnings; !guideHasText(w, "has no native bf16 support") {
		t.Errorf("T4 warnings %q", w)
	}
	// fp16, as OPT is published: no penalty. Named: 5.58 GiB of fp16.
	req.Model.Precision = PrecisionFP16
	if r := guideRecommend(t, req).Recommendations[0]; r.VMSize != t4.Name || r.Score != 84.1 || r.Score != guideBalanced(1, 1, guideBand(need/mayUse(t4)), t4.SeriesYear, 0) {
		t.Errorf("fp16: %s %v", r.VMSize, r.Score)
	}
	named := guideRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "opt-1.3b"}, Region: "eastus"})
	if r := named.Recommendations[0]; r.VMSize != t4.Name || *named.Requirements.GPUMemoryGiB != 5.58 || named.Requirements.ContextTokens != 2048 ||
		r.Score != 87.5 || r.Score != guideBalanced(1, 1, guideBand(5.58/mayUse(t4)), t4.SeriesYear, 0) {
		t.Errorf("opt-1.3b: %s %v, %v GiB, %d tokens", r.VMSize, r.Score, *named.Requirements.GPUMemoryGiB, named.Requirements.ContextTokens)
	}
	guideQuotes(t,
		"| Cost | 25 × 0.526 ÷ 0.526 = 25 | 25 × 0.526 ÷ 1.13 = 11.64 | 25 × 0.526 ÷ 98.32 = 0.13 |",
		"4.41 of 13.5 GiB, 33%", "4.41 of 21.6 GiB, 20%", "4.41 of 573.48 GiB, 0.8%",
		"| **Score** | **79.1** (rank 1) | **74.8** (rank 2) | **27.8** (rank 20) |",
		"at 0.526 USD per hour, ranks first at 79.1",
		"`Standard_NC24lds_xl_RTXPRO6000BSE_v6` (24 GB, 1.13 USD per hour, native bf16) follows at 74.8",
		"the T4 scores 84.1; named (`name = \"opt-1.3b\"`) it needs 5.58 GiB and scores 87.5")
}

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
	want := guideBalanced(1, 1, guideBand(809.5/mayUse), mi.SeriesYear, 0)
	if r := res.Recommendations[0]; r.VMSize != mi.Name || r.Nodes != 1 || r.Deployment.RDMA || r.Score != want || want != 97.0 ||
		guideRec(t, res, mir.Name).Score != want-PenaltyUnusedRDMA || guideCheapest(res) != 48 {
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
		"`Standard_ND96is_MI300X_v5` (no InfiniBand) scores 97.0 and `Standard_ND96isr_MI300X_v5`, the same eight MI300X GPUs with InfiniBand at the same price, 87.0")

	// 2,000 requests: copies on 29 VMs, no InfiniBand, no scale_up.
	chat.ConcurrentRequests = i64(2000)
	res = guideRecommend(t, chat)
	top = res.Recommendations[0]
	if top.VMSize != "Standard_NC144ds_xl_RTXPRO6000BSE_v6" || top.Nodes != 29 || top.Replicas != 29 || top.PipelineStages != 1 ||
		top.Deployment.RDMA || guideRejected(res, "scale_up") != 0 {
		t.Errorf("2,000 requests: %s, %d copies on %d VMs, RDMA %v, rejected %+v", top.VMSize, top.Replicas, top.Nodes, top.Deployment.RDMA, res.Rejected)
	}
	guideQuotes(t, "`Standard_NC144ds_xl_RTXPRO6000BSE_v6` ranks first with 29 copies on 29 VMs, without InfiniBand.")

	// QLoRA of Llama 3.1 70B: 52.7 GiB on one 80 GB A100.
	res = guideRecommend(t, Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-70b"}, FineTuningMethod: MethodQLoRA, Region: "eastus"})
	if top = res.Recommendations[0]; top.VMSize != "Standard_NC24ads_A100_v4" || top.TotalGPUs != 1 || !guideHasText(top.Reasons, "66% of what the job may use") {
		t.Errorf("QLoRA 70B: %s, %v GPUs, %q", top.VMSize, top.TotalGPUs, top.Reasons)
	}
	guideQuotes(t, "52.7 GiB fits one 80 GB GPU: `Standard_NC24ads_A100_v4`, one A100 (66% used, 3.673 USD per hour)")
}

// Ordering, VM limits and the nearest miss, as the guide quotes them.
func TestGuideOrderingLimitsAndNearestMiss(t *testing.T) {
	// RAPIDS with CUDA 12.0: a tie broken by price.
	res := guideRecommend(t, Request{Workload: WorkloadDataProcessing, CUDAVersion: "12.0", Region: "eastus"})
	a, h := guideRec(t, res, "Standard_NC24ads_A100_v4"), guideRec(t, res, "Standard_NC40ads_H100_v5")
	if a.Score != 62.1 || h.Score != 62.1 || a.Rank != h.Rank-1 || *a.PricePerHour != 3.673 || *h.PricePerHour != 6.98 {
		t.Errorf("A100 rank %d %v at %v, H100 rank %d %v at %v", a.Rank, a.Score, *a.PricePerHour, h.Rank, h.Score, *h.PricePerHour)
	}
	guideQuotes(t, "`Standard_NC24ads_A100_v4` and `Standard_NC40ads_H100_v5` both score 62.1; the A100 size ranks first because it costs 3.673 against 6.98 USD per hour.")

	// 2,000 MPI cores: 125 VMs of 16 cores are more than 100 InfiniBand VMs.
	hpc := Request{Workload: WorkloadHPC, Cores: i64(2000)}
	if got := guideFirstFailure(t, hpc, "Standard_HB120-16rs_v3"); got != "cores" || math.Ceil(2000.0/16) != 125 {
		t.Errorf("HB120-16rs_v3 is counted under %q", got)
	}
	guideQuotes(t, "`Standard_HB120-16rs_v3` (16 cores) would need 125 VMs and fails `cores`.")

	// LoRA in bf16 on T4s only: the nearest miss names fp16.
	_, err := testEngine(t).Recommend(Request{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.2-1b"}, FineTuningMethod: MethodLoRA, GPUModels: []string{"t4"}, AsOf: guideDate})
	var nf *NoFitError
	if !errors.As(err, &nf) || nf.NearestMiss == nil {
		t.Fatalf("error %v, want a NoFitError with a nearest miss", err)
	}
	m := nf.NearestMiss
	relax := `set model.precision = "fp16", the closest precision the NVIDIA Tesla T4 runs natively.`
	if m.VMSize != "Standard_NC4as_T4_v3" || len(m.FailedConstraints) != 1 || m.FailedConstraint != "precision" || m.Relax != relax {
		t.Errorf("nearest miss %+v", m)
	}
	guideQuotes(t, "`Standard_NC4as_T4_v3 fails only precision. To use it, "+relax+"`")
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
	)
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
