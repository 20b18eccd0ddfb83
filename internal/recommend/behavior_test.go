// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

func warningSummaries(ws []Warning) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, w.Summary)
	}
	return out
}

// The tests in this file check the engine's mechanisms (prefer, scale-up,
// spot, warnings, preview, deployment settings, layouts, interconnect,
// per-VM minimums, confidential and isolated sizes) on the fixture catalog
// of package catalogtest, whose sizes and prices are frozen, so that their
// counts and scores do not move when the embedded catalog changes. Its data
// date is 2026-11-01, like asOf. Most requests leave the same base
// rejections: retired 3 (H16r and NC24rs_v3 by status, NV12s_v3 whose
// 2026-09-30 retirement has passed), min_lifetime_months 1 (HB120rs_v2
// retires 2027-05-31, within 12 months) and, for GPU workloads,
// confidential 1 (NCC40ads_H100_v5).

// prefer pins the first fitting size to rank 1; sizes named before it that
// fail are reported; the rest of the list keeps its order.
func TestPrefer(t *testing.T) {
	cat := fixture(t)
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf,
		Prefer: []string{"Standard_NV12s_v3", "standard_nc24ads_a100_v4", "Standard_NC4as_T4_v3"}}
	res := mustRecommendOn(t, cat, req)
	assertNames(t, names(res), "Standard_NC24ads_A100_v4", "Standard_NC4as_T4_v3", "Standard_NC24lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC40ads_H100_v5", "Standard_ND40rs_v2")
	top := res.Recommendations[0]
	if !top.Preferred || top.Reasons[0] != "Ranked first because it is the first size in prefer that meets every requirement." || res.Recommendations[1].Preferred {
		t.Errorf("top %+v", top)
	}
	// 1.3B in bf16 serving 8 sequences of 4,096 tokens: 2.42 GiB of
	// weights + 0.12 of workspace + 1.86 of KV cache (61,104 bytes per
	// token: 131,072 × (1.3 / 8)^0.42) = 4.41 GiB. The sixth of a V710
	// (4 × 0.9 = 3.6 GiB) holds the weights and 4 sequences: 2 copies on 2
	// VMs (0.666 USD/h), a fallback the catalog has no throughput figures
	// for. Among the NC and ND sizes the T4 (0.526 USD/h) is the cheapest
	// layout that holds the demand. The time component is the latency
	// against the default targets, 2,000 ms to the first token and 200
	// ms per output token (the step model, serving.go): each request
	// prefills 3,584 prompt tokens and generates 512 (the default split).
	// Every size here meets both (the T4, 65 TFLOPS fp16 and 300 GB/s:
	// 504 ms and 33.2 ms), so each scores the full 15 and the price
	// decides. The T4 (15 GiB usable, 13.5 for serving): 25 + 25 + 20 ×
	// 0.65 (4.4 of 13.5 GiB is 33%, below the 50%-85% band: 0.33 / 0.5) +
	// 15 + 15 = 93.1, with no penalty for serving bf16 weights in fp16
	// (the step model times the fp16 arithmetic). The A100 (72 GiB for
	// serving, 3.673 USD/h): 25 + 25 × 0.526 / 3.673 + 20 × 0.061 / 0.5 +
	// 15 + 15 = 61.0. More than 10 points apart: a warning names the T4.
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Preferred Size Skipped", "A Better Size Exists"}) {
		t.Errorf("warnings %v", got)
	}
	if d := res.Warnings[0].Detail; !strings.HasPrefix(d, "Standard_NV12s_v3, named in prefer, fails retired:") {
		t.Errorf("detail %q", d)
	}
	if d := res.Warnings[len(res.Warnings)-1].Detail; !strings.HasPrefix(d, "Standard_NC4as_T4_v3 scores 93.1 against 61 for the preferred Standard_NC24ads_A100_v4.") {
		t.Errorf("detail %q", d)
	}
	// Within 10 points no warning. 1.3B serving 100 sequences (see
	// TestReplicasNeedNoInfiniBand): 3 T4 copies on 3 VMs, 1.578 USD/h,
	// 25 + 25 + 20 + 15 + 15 / 3 = 90.0; 2 quarter RTX PRO 6000 copies on 2
	// VMs, 2.26 USD/h: 25 + 25 × 1.578 / 2.26 + 20 + 15 + 15 / 2 = 85.0,
	// 5 below: preferred, no warning. Both meet the default targets.
	res = mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, ConcurrentRequests: i64(100), AsOf: asOf,
		Prefer: []string{"Standard_NC24lds_xl_RTXPRO6000BSE_v6"}})
	if got := warningSummaries(res.Warnings); len(got) != 0 || res.Recommendations[0].VMSize != "Standard_NC24lds_xl_RTXPRO6000BSE_v6" || res.Recommendations[0].Score != 85 ||
		res.Recommendations[1].VMSize != "Standard_NC4as_T4_v3" || res.Recommendations[1].Score != 90 {
		t.Errorf("sizes %v, warnings %v", names(res), got)
	}

	// A preferred 8-GPU ND size for a 1.3B model: kept, with a warning
	// naming the clearly better size. The H100 VM (8 × 79.65 × 0.9 =
	// 573.48 GiB for serving, 98.32 USD/h, one copy split over its 8 GPUs,
	// faster than the reference but capped at it): 25 + 0.13 + 20 × 0.0077
	// / 0.5 + 15 + 15 − 10 (unused InfiniBand) − 15 × 7/8 (the job fits in
	// one GPU) = 32.3, against the T4's 93.1.
	res = mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf, Prefer: []string{"Standard_ND96isr_H100_v5"}})
	if res.Recommendations[0].VMSize != "Standard_ND96isr_H100_v5" || res.Recommendations[1].VMSize != "Standard_NC4as_T4_v3" {
		t.Errorf("sizes %v", names(res))
	}
	want := Warning{"A Better Size Exists", "Standard_NC4as_T4_v3 scores 93.1 against 32.3 for the preferred Standard_ND96isr_H100_v5. Put it first in prefer to switch (this replaces running VMs)."}
	if !reflect.DeepEqual(res.Warnings, []Warning{want}) {
		t.Errorf("warnings %+v", res.Warnings)
	}

	// No preferred size fits.
	res = mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf, Prefer: []string{"Standard_HB120rs_v3"}})
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Preferred Size Skipped", "No Preferred Size Fits"}) || res.Recommendations[0].Preferred {
		t.Errorf("warnings %v", got)
	}
}

// Training a 20B model in bf16 on 20 billion tokens: 20e9 × 16 × 1.5 =
// 447.03 GiB, sharded over every GPU, and 6 × 20e9 × 20e9 = 2.4e21 FLOPs,
// which one VM of either 8-GPU size below finishes well within the
// default 720 hours (the job is sized by memory, not time). ND96isr_H100_v5 (8 × 79.65 = 637.2 GiB usable) and
// ND96isr_MI300X_v5 (1,536) hold it on one VM, so ND96asr_v4 (320 GiB, 2
// VMs with InfiniBand) is dropped by scale_up; named in prefer, it stays,
// on 2 VMs with InfiniBand. The V100 and T4 sizes (ND40rs_v2, NC24rs_v3,
// NC4as_T4_v3) have no bf16 and cannot train in it: precision 3 (the
// retired NC24rs_v3 is counted there too, precision coming before the
// lifecycle in the new order; so is the V100 size that used to stay with
// a warning and now cannot train in bf16 at all). The 4 remaining NC sizes
// (24 to 94 GiB) would need several VMs without InfiniBand: interconnect 4
// (the confidential H100 among them, interconnect coming before
// confidential). Not training sizes: workload 9 (E104i, E48, F2s, the HPC
// sizes and the NV sizes).
func TestScaleUpBeforeScaleOut(t *testing.T) {
	cat := fixture(t)
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 20}, TokensBillion: f64(20), AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommendOn(t, cat, req)
	// Cost is the job's; time counts against the deadline, min(1, 720 ÷
	// hours). H100 VM: 8 × 989.5 TFLOPS × 40% MFU = 3.166e15 FLOP/s, 2.4e21
	// / 3.166e15 / 3,600 = 210.54 hours, × 98.32 USD/h = 20,700 USD.
	// MI300X VM: 8 × 1,307.4 × 30% = 3.138e15 FLOP/s, 212.47 hours, × 48 =
	// 10,198 USD. Both finish within 720 hours: time 1 for each. A timed
	// training job sizes on the GPUs it keeps busy: all 8 on both (sizing
	// 1). MI300X: 25 + 25 + 20 + 15 + 15 − 10 (InfiniBand unused on one VM)
	// = 90; H100: 25 + 25 × 10,198 / 20,700 + 20 + 15 + 15 − 10 = 77.3.
	assertNames(t, names(res), "Standard_ND96isr_MI300X_v5", "Standard_ND96isr_H100_v5")
	if got := []float64{res.Recommendations[0].Score, res.Recommendations[1].Score}; !reflect.DeepEqual(got, []float64{90, 77.3}) {
		t.Errorf("scores %v, want [90 77.3]", got)
	}
	for _, r := range res.Recommendations {
		if r.Nodes != 1 || r.Replicas != 1 || r.TensorParallel != 0 || r.PipelineStages != 0 {
			t.Errorf("%s on %d VMs, replicas %d, tp %d, pp %d", r.VMSize, r.Nodes, r.Replicas, r.TensorParallel, r.PipelineStages)
		}
	}
	// The four NC sizes without InfiniBand would need several VMs, which a
	// job may span only with it: they cannot hold the job (gpu_memory).
	assertRejected(t, res.Rejected, map[string]int64{"workload": 9, "precision": 3, "gpu_memory": 4, "scale_up": 1})
	for _, r := range res.Rejected {
		if r.Constraint == "scale_up" && !reflect.DeepEqual(r.Examples, []string{"Standard_ND96asr_v4"}) {
			t.Errorf("scale_up examples %v", r.Examples)
		}
		if r.Constraint == "precision" && !reflect.DeepEqual(r.Examples, []string{"Standard_NC24rs_v3", "Standard_NC4as_T4_v3", "Standard_ND40rs_v2"}) {
			t.Errorf("precision examples %v", r.Examples)
		}
	}
	req.Prefer = []string{"Standard_ND96asr_v4"}
	res = mustRecommendOn(t, cat, req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_ND96asr_v4" || top.Nodes != 2 || !top.Deployment.RDMA || top.Deployment.RDMAPlacement != "availability_set" || top.Deployment.SinglePlacementGroup || res.Requirements.Interconnect != "infiniband" {
		t.Errorf("top %s on %d VMs, deployment %+v, interconnect %q", top.VMSize, top.Nodes, top.Deployment, res.Requirements.Interconnect)
	}
	if _, ok := rejectedCounts(res.Rejected)["scale_up"]; ok {
		t.Errorf("a preferred size is not removed by scale_up")
	}
	// 298.02 GiB of model states over 16 A100 40 GB, with the 4.66 GiB of
	// one sequence's activations on each: 23.29 GiB per GPU of the 40 × 0.9
	// = 36 the job may use (GPUMemoryShare; 2 VMs: ⌈298.02 ÷ (8 × (36 −
	// 4.66))⌉ = 2) (was 27.94, the activations 50% of the states spread
	// over the GPUs).
	if want := "The states are sharded over 16 GPUs (23.29 GiB per GPU, with its own activations, of 36 GiB usable)."; !slices.Contains(top.Reasons, want) {
		t.Errorf("reasons %q, want %q", top.Reasons, want)
	}

	// Without tokens_billion, pretraining assumes 20 tokens per parameter
	// (400 billion): 4.8e22 FLOPs, 4.8e22 / 3.166e15 / 3,600 = 4,211
	// hours on one H100 VM. Every size scales out to finish within the
	// default 720 hours: ⌈4.8e22 / (720 × 3,600 × 3.166e15)⌉ = ⌈5.85⌉ = 6
	// H100 VMs (701.8 hours), ⌈5.90⌉ = 6 MI300X VMs (708.2 hours), and
	// ⌈4.8e22 / (720 × 3,600 × 8 × 312e12 × 0.4)⌉ = ⌈18.55⌉ = 19
	// ND96asr_v4 VMs (702.9 hours). No size holds the job on one VM, so
	// scale_up removes none. MI300X: 6 × 48 × 708.2 = 203,970 USD; H100:
	// 6 × 98.32 × 701.8 = 414,010; ND96asr_v4: 19 × 27.197 × 702.9 =
	// 363,210, all within 720 hours (time 1). MI300X: 25 + 25 + 20 × 0.582
	// (the sizing of the one VM the memory needs) + 15 + 15 / 6 = 79.14,
	// 79.1.
	res = mustRecommendOn(t, cat, Request{Workload: "training", Model: &Model{ParametersBillion: 20}, AsOf: asOf, MaxResults: i64(50)})
	nodes := map[string]int64{}
	for _, r := range res.Recommendations {
		nodes[r.VMSize] = r.Nodes
		if !r.Deployment.RDMA || r.Estimate == nil || r.Estimate.JobHours == nil || *r.Estimate.JobHours > DefaultDeadlineHours {
			t.Errorf("%s on %d VMs: RDMA %v, estimate %+v", r.VMSize, r.Nodes, r.Deployment.RDMA, r.Estimate)
		}
	}
	if want := map[string]int64{"Standard_ND96isr_MI300X_v5": 6, "Standard_ND96isr_H100_v5": 6, "Standard_ND96asr_v4": 19}; !reflect.DeepEqual(nodes, want) {
		t.Errorf("VMs %v, want %v", nodes, want)
	}
	// MI300X on 6 VMs (the deadline's count, every GPU busy: sizing 1), the
	// cheapest job, on time: 25 + 25 + 20 + 15 + 15 / 6 = 87.5.
	if top := res.Recommendations[0]; top.VMSize != "Standard_ND96isr_MI300X_v5" || top.Score != 87.5 {
		t.Errorf("top %s %v", top.VMSize, top.Score)
	}
	assertRejected(t, res.Rejected, map[string]int64{"workload": 9, "precision": 3, "gpu_memory": 4})
}

// Spot in eastus: the fixture has spot estimates for the T4, the A100
// sizes and the V100; none for the quarter RTX PRO 6000, the H100 sizes and
// the NV sizes, which stay at their on-demand price with a warning. The
// MI300X and the confidential H100 are not priced in eastus: region 2. A
// 1.3B model (4.41 GiB with the KV cache of 8 sequences) fits the T4's
// 13.5 GiB serving share; a 7B one no longer does (13.69 GiB of weights and
// workspace), which is why this test serves 1.3B.
func TestSpotPrices(t *testing.T) {
	cat := fixture(t)
	res := mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, Spot: true, Region: "eastus", AsOf: asOf, MaxResults: i64(50)})
	top := res.Recommendations[0]
	sp := top.SKU.Prices["eastus"].SpotUSDPerHour
	if top.VMSize != "Standard_NC4as_T4_v3" || !top.PriceIsSpot || sp == nil || *top.PricePerHour != *sp || !strings.HasPrefix(top.PriceSource, "Spot estimate") {
		t.Errorf("top %s spot %v price %v source %q", top.VMSize, top.PriceIsSpot, *top.PricePerHour, top.PriceSource)
	}
	onDemand := []string{}
	for _, r := range res.Recommendations {
		p := r.SKU.Prices["eastus"]
		if r.PriceIsSpot != (p.SpotUSDPerHour != nil) {
			t.Errorf("%s: PriceIsSpot %v", r.VMSize, r.PriceIsSpot)
		}
		if !r.PriceIsSpot {
			onDemand = append(onDemand, r.VMSize)
			if *r.PricePerHour != p.USDPerHour || !strings.Contains(strings.Join(r.Warnings, " "), "No spot price is known") {
				t.Errorf("%s: on-demand fallback %v %q", r.VMSize, *r.PricePerHour, r.Warnings)
			}
		}
	}
	slices.Sort(onDemand)
	if want := []string{"Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC40ads_H100_v5", "Standard_ND96isr_H100_v5", "Standard_NV4ads_V710_v5", "Standard_NV6ads_A10_v5"}; !reflect.DeepEqual(onDemand, want) {
		t.Errorf("priced on demand: %v, want %v", onDemand, want)
	}
	// The retired NC24rs_v3 and NV12s_v3 would hold the job; region comes
	// before confidential and the lifecycle in the new order.
	assertRejected(t, res.Rejected, map[string]int64{"workload": 6, "region": 2, "retired": 2})
	// The sizes without a spot price come after every size with one, and
	// one warning counts them and says why.
	for i, r := range res.Recommendations {
		if i > 0 && r.PriceIsSpot && !res.Recommendations[i-1].PriceIsSpot {
			t.Errorf("%s, priced at spot, after %s, priced on demand", r.VMSize, res.Recommendations[i-1].VMSize)
		}
	}
	// The fixture's spot ratios are undated: the top size's price says so.
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Spot Estimate Undated", "Sizes Without A Spot Price Listed Last"}) ||
		!strings.HasPrefix(res.Warnings[1].Detail, fmt.Sprintf("%d ranked sizes have no spot price in eastus and are listed after the %d with one: their prices are on-demand", len(onDemand), len(res.Recommendations)-len(onDemand))) {
		t.Errorf("inference on spot: warnings %+v", res.Warnings)
	}

	tr := mustRecommendOn(t, cat, Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7}, Spot: true, AsOf: asOf})
	if got := warningSummaries(tr.Warnings); !reflect.DeepEqual(got, []string{"Spot VMs For Training", "Spot Estimate Undated", "Sizes Without A Spot Price Listed Last"}) || !strings.Contains(tr.Warnings[0].Detail, "checkpoint regularly") {
		t.Errorf("warnings %+v", tr.Warnings)
	}
	if !tr.Recommendations[0].PriceIsSpot {
		t.Errorf("top not priced at spot")
	}
}

func TestResultWarnings(t *testing.T) {
	cat := fixture(t)
	// The fixture's data date is 2026-11-01: 180 days later is 2027-04-30.
	for _, tt := range []struct {
		day  time.Time
		want bool
	}{{time.Date(2027, 4, 30, 0, 0, 0, 0, time.UTC), false}, {time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC), true}} {
		res := mustRecommendOn(t, cat, Request{Workload: "hpc", AsOf: tt.day, MinLifetimeMonths: i64(0)})
		got := warningSummaries(res.Warnings)
		if has := reflect.DeepEqual(got, []string{"Catalog Data Is Old"}); has != tt.want {
			t.Errorf("%s: warnings %v", tt.day.Format("2006-01-02"), got)
		}
	}
	old := mustRecommendOn(t, cat, Request{Workload: "hpc", AsOf: time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0)})
	if d := old.Warnings[0].Detail; !strings.Contains(d, "2026-11-01, 181 days before 2027-05-01") {
		t.Errorf("detail %q", d)
	}

	// A retiring size pinned with prefer: HBv2 retires 2027-05-31, within
	// 24 months of 2026-01-01.
	res := mustRecommendOn(t, cat, Request{Workload: "hpc", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0), Prefer: []string{"Standard_HB120rs_v2"}})
	top := res.Recommendations[0]
	if top.VMSize != "Standard_HB120rs_v2" || !reflect.DeepEqual(warningSummaries(res.Warnings), []string{"Recommended Size Retires Soon"}) {
		t.Errorf("top %s, warnings %+v", top.VMSize, res.Warnings)
	}
	if !strings.Contains(res.Warnings[0].Detail, "retires on 2027-05-31") || !strings.HasPrefix(top.Warnings[0], "Retires on 2027-05-31, within 24 months") {
		t.Errorf("detail %q, size warnings %q", res.Warnings[0].Detail, top.Warnings)
	}
	// Without prefer, HBv3 (same price per core, not retiring) leads.
	res = mustRecommendOn(t, cat, Request{Workload: "hpc", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0)})
	if res.Recommendations[0].VMSize != "Standard_HB120rs_v3" || len(res.Warnings) != 0 {
		t.Errorf("top %s, warnings %+v", res.Recommendations[0].VMSize, res.Warnings)
	}

	// Unknown support on the target: allowed, with a warning. 13B inference
	// (24.21 GiB of weights + 1.21 of workspace + 4.9 of KV cache = 30.33
	// GiB) does not fit the T4 or the quarter RTX PRO 6000 on one VM (a
	// copy would span 2 VMs, which needs InfiniBand); the A100 80 GB leads,
	// and Azure Machine Learning's support for it is not documented.
	res = mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, Target: "azureml", AsOf: asOf})
	if top := res.Recommendations[0]; top.VMSize != "Standard_NC24ads_A100_v4" || top.SKU.Support.AzureML.Status != "unknown" {
		t.Errorf("top %s", top.VMSize)
	}
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Target Support Unknown"}) {
		t.Errorf("warnings %v", got)
	}

	// Inputs Recommend ignores are reported.
	res = mustRecommendOn(t, cat, Request{Workload: "training", Cores: i64(64), Prefer: []string{"Standard_NC4as_T4"}, AsOf: asOf})
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"No Preferred Size Fits", "Cores Not Used", "Unknown Preferred Size"}) {
		t.Errorf("warnings %v", got)
	}
	// A GPU setting on a CPU workload leaves nothing: the three HPC sizes
	// fail gpu_memory (which comes before the lifecycle: the retired H16r
	// and the retiring HB120rs_v2 are counted there too), and the nearest
	// miss, the one current HPC size, says to remove it.
	nf := mustNoFitOn(t, cat, Request{Workload: "hpc", GPUMemoryGiB: f64(80), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 16, "gpu_memory": 3})
	if m := nf.NearestMiss; m == nil || m.VMSize != "Standard_HB120rs_v3" || m.Relax != "remove gpu_memory_gib (this size has no GPU)." {
		t.Errorf("nearest miss %+v", m)
	}
}

// previewFixture is the fixture catalog with the NCasT4_v3 and
// NC_RTXPRO6000BSE_v6 series marked preview, laid over it as a catalog file
// is.
func previewFixture(t *testing.T) *catalog.Catalog {
	t.Helper()
	doc, err := catalogtest.Document("series.json")
	if err != nil {
		t.Fatal(err)
	}
	var preview []catalog.SeriesDoc
	for _, s := range doc.Series {
		if s.Name == "NCasT4_v3" || s.Name == "NC_RTXPRO6000BSE_v6" {
			s.Lifecycle.Status = catalog.StatusPreview
			preview = append(preview, s)
		}
	}
	if len(preview) != 2 {
		t.Fatalf("%d series marked preview, want 2", len(preview))
	}
	cat, _, err := fixture(t).WithOverlays(catalog.Overlays{Catalog: &catalog.CatalogFile{File: "preview.json", Document: catalog.Document{Series: preview}}})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestPreview(t *testing.T) {
	cat := previewFixture(t)
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf}
	res := mustRecommendOn(t, cat, req)
	// preview 2: the T4 and the quarter RTX PRO 6000. The retired
	// NC24rs_v3 and NV12s_v3 would hold the job (preview comes after the
	// lifecycle; workload and confidential before it).
	assertRejected(t, res.Rejected, map[string]int64{"workload": 6, "retired": 2, "preview": 2, "confidential": 1})
	// Without the T4, the cheapest layout the throughput model times is
	// the sixth of an A10 on 3 VMs (1.362 USD/h; the sixth of a V710 has
	// no figures and is compared only with such sizes). The A100 80 GB
	// and the H100 NVL both meet the default latency targets (see
	// TestPrefer) and hold the model many times over: a faster layout
	// earns nothing beyond the targets, so the cheaper A100 (3.673 USD/h)
	// leads: 25 + 25 × 1.362 / 3.673 + 20 × 0.061 / 0.5 + 15 + 15 = 66.7.
	if top := res.Recommendations[0]; top.VMSize != "Standard_NC24ads_A100_v4" || top.Score != 66.7 || res.Recommendations[1].VMSize != "Standard_NC40ads_H100_v5" {
		t.Errorf("sizes %v, top score %v", names(res), top.Score)
	}
	// Included: the T4 (93.1 − 5 for preview, see TestPrefer) leads the
	// quarter RTX PRO 6000 (25 + 25 × 0.526 / 1.13 + 20 × 0.204 / 0.5 + 15
	// + 15 = 74.8, − 5), with warnings.
	req.IncludePreview = true
	res = mustRecommendOn(t, cat, req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_NC4as_T4_v3" || top.Score != 88.1 || res.Recommendations[1].VMSize != "Standard_NC24lds_xl_RTXPRO6000BSE_v6" || res.Recommendations[1].Score != 69.8 {
		t.Errorf("sizes %v, top score %v", names(res), top.Score)
	}
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Recommended Size Is In Preview"}) || !strings.HasPrefix(top.Warnings[0], "In preview") {
		t.Errorf("warnings %v, size warnings %q", got, top.Warnings)
	}
}

func TestNodesAndGPUs(t *testing.T) {
	cat := fixture(t)
	// Fine-tuning 13B (242.14 GiB) on exactly 4 VMs: 60.54 GiB per VM.
	res := mustRecommendOn(t, cat, Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 13}, Nodes: i64(4), AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.Nodes != 4 || !r.Deployment.RDMA {
			t.Errorf("%s: %d nodes, RDMA %v", r.VMSize, r.Nodes, r.Deployment.RDMA)
		}
	}
	// The V100 and T4 sizes cannot train in bf16 (precision 3, the
	// retired NC24rs_v3 among them); the quarter RTX PRO 6000, the A100,
	// the H100 NVL and the confidential H100 have no InfiniBand, so a job
	// may span only one of their VMs, which does not hold it (gpu_memory
	// 4, which comes before confidential). Not training sizes: workload 9.
	assertRejected(t, res.Rejected, map[string]int64{"workload": 9, "precision": 3, "gpu_memory": 4})
	// The job is 6 × 13e9 × 0.1e9 = 7.8e18 FLOPs (the default fine-tuning
	// budget of 0.1 billion tokens). On 4 VMs: MI300X 4 × 8 × 1,307.4
	// TFLOPS × 30% = 1.255e16 FLOP/s, 0.1726 hours, 4 × 48 × 0.1726 = 33.15
	// USD; H100 4 × 8 × 989.5 × 40% = 1.266e16, 0.1711 hours, 67.28 USD;
	// ND96asr_v4 4 × 8 × 312 × 40% = 3.994e15, 0.5425 hours, 59.02 USD.
	// The MI300X costs least for the job, and every layout finishes well
	// within the default 720 hours (time 1); every GPU computes (sizing 1):
	// 25 + 25 + 20 + 15 + 15 / 4 = 88.75, 88.8.
	if top := res.Recommendations[0]; top.VMSize != "Standard_ND96isr_MI300X_v5" || top.Score != 88.8 || top.Estimate == nil || !near(top.Estimate.JobCostUSD, 33.15) {
		t.Errorf("top %s %v %+v", top.VMSize, top.Score, top.Estimate)
	}

	// 16 GPUs: two 8-GPU ND VMs, the V100 cheapest (2 × 22.032 USD/h; no
	// model, so no training precision to check); the quarter RTX PRO 6000
	// has no whole GPU (gpus 1); the one-GPU NC sizes would need 16 VMs
	// without InfiniBand (interconnect 4, the confidential H100 among
	// them); the retired NC24rs_v3 (4 V100s with InfiniBand) would hold it
	// on 4 VMs (retired 1).
	res = mustRecommendOn(t, cat, Request{Workload: "training", GPUs: i64(16), AsOf: asOf})
	top := res.Recommendations[0]
	if top.VMSize != "Standard_ND40rs_v2" || top.Nodes != 2 || top.TotalGPUs != 16 || *top.TotalPricePerHour != 44.064 {
		t.Errorf("top %s %d %v %v", top.VMSize, top.Nodes, top.TotalGPUs, *top.TotalPricePerHour)
	}
	assertRejected(t, res.Rejected, map[string]int64{"workload": 9, "gpus": 1, "interconnect": 4, "retired": 1})

	// Too many nodes for an InfiniBand job: every HPC size, the retired
	// H16r and the retiring HB120rs_v2 too (nodes comes before the
	// lifecycle). An MPI job is not sent over Ethernet.
	nf := mustNoFitOn(t, cat, Request{Workload: "hpc", Nodes: i64(101), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 16, "nodes": 3})
	if m := nf.NearestMiss; m == nil || m.FailedConstraint != "nodes" || m.Relax != "lower nodes to 100." {
		t.Errorf("nearest miss %+v", m)
	}
}

func TestInterconnectModes(t *testing.T) {
	cat := fixture(t)
	// interconnect = "infiniband": only the 4 ND sizes (the V100 one
	// serves with a penalty for bf16). Without InfiniBand a copy may span
	// only one VM: the sizes whose VM cannot hold the 13B model (the T4,
	// the quarter RTX PRO 6000 and the 3 NV sizes, the retired NV12s_v3
	// among them) fail gpu_memory (5); the A100, the H100 NVL and the
	// confidential H100 hold it but have no InfiniBand (interconnect 3);
	// the retired NC24rs_v3 has InfiniBand (retired 1).
	res := mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, Interconnect: "infiniband", AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if !r.SKU.Network.RDMA || !r.Deployment.RDMA || r.Deployment.RDMAPlacement != "" {
			t.Errorf("%s: rdma %v, deployment %+v", r.VMSize, r.SKU.Network.RDMA, r.Deployment)
		}
	}
	if len(res.Recommendations) != 4 {
		t.Errorf("sizes %v", names(res))
	}
	assertRejected(t, res.Rejected, map[string]int64{"workload": 6, "gpu_memory": 5, "interconnect": 3, "retired": 1})

	// interconnect = "any": the A100 over Ethernet on several VMs is
	// allowed. The job is a 105B model, which no VM holds (a 70B one fits
	// one MI300X VM, and scale-up then removes every multi-VM layout):
	// 105e9 × 16 bytes = 1,564.62 GiB of states, sharded, beside one
	// 4,096-token sequence's activations on every GPU, 105e9 × 0.25 bytes
	// = 24.45 GiB. Each 80 GiB A100 may fill 80 × 0.9 = 72 GiB
	// (GPUMemoryShare) and keeps 72 - 24.45 = 47.55 GiB for states:
	// ⌈1,564.62 / 47.55⌉ = 33 VMs (29 when it filled all 80). On 1 billion
	// tokens (6 × 105e9 × 1e9 = 6.3e20 FLOPs) memory sets the VMs: 33 ×
	// 312 TFLOPS × 40% MFU × 0.5 across VMs over Ethernet = 2.0592e15
	// FLOP/s, 84.98 hours, within the default deadline.
	big := &Model{ParametersBillion: 105}
	res = mustRecommendOn(t, cat, Request{Workload: "training", Model: big, TokensBillion: f64(1), Interconnect: "any", AsOf: asOf, MaxResults: i64(50)})
	found := false
	for _, r := range res.Recommendations {
		if r.VMSize == "Standard_NC24ads_A100_v4" {
			found = true
			if r.Nodes != 33 || r.Deployment.RDMA || r.Deployment.RDMAPlacement != "" || r.Estimate == nil || !near(r.Estimate.JobHours, 84.98) || r.Estimate.Efficiency != 0.2 {
				t.Errorf("%s: %d nodes, %+v, %+v", r.VMSize, r.Nodes, r.Deployment, r.Estimate)
			}
		}
		if r.SKU.Network.RDMA && r.Deployment.RDMA {
			t.Errorf("%s: interconnect any uses no RDMA", r.VMSize)
		}
	}
	if !found || res.Requirements.Interconnect != "any" {
		t.Errorf("NC24ads_A100_v4 missing: %v", names(res))
	}
	if _, ok := rejectedCounts(res.Rejected)["interconnect"]; ok {
		t.Error("no interconnect rejections with interconnect = any")
	}

	// With the default budget of 20 tokens per parameter (6 × 105e9 ×
	// 2.1e12 = 1.323e24 FLOPs) over Ethernet, even 100 VMs of any size run
	// past the default 720 hours (the A100 one: 1.323e24 / (100 × 312e12
	// × 0.2) / 3,600 = 58,894 hours): each is listed on the 100 VMs one
	// job may span, with a warning that says how long it runs. (The
	// quarter RTX PRO 6000's 24 GiB cannot hold one sequence's 24.45 GiB
	// of activations: gpu_memory_per_gpu.)
	res = mustRecommendOn(t, cat, Request{Workload: "training", Model: big, Interconnect: "any", AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.Nodes != MaxNodesRDMA || r.Estimate == nil || r.Estimate.JobHours == nil || *r.Estimate.JobHours <= DefaultDeadlineHours ||
			!strings.Contains(strings.Join(r.Warnings, " "), "beyond the 720-hour default") {
			t.Errorf("%s on %d VMs: %+v, warnings %q", r.VMSize, r.Nodes, r.Estimate, r.Warnings)
		}
		if r.VMSize == "Standard_NC24ads_A100_v4" && !near(r.Estimate.JobHours, 58894) {
			t.Errorf("%s: %v hours", r.VMSize, *r.Estimate.JobHours)
		}
	}
}

// optimize_for shifts weight: performance to speed (the time component:
// job hours, tokens per second per sequence) and fewer VMs, cost to the
// job's cost. On the fixture catalog the orders are pinned.
func TestOptimizeForReorders(t *testing.T) {
	cat := fixture(t)
	// 105B training on 10 billion tokens, a job no VM holds (70B fits one
	// MI300X VM, which leaves nothing to reorder): 105e9 × 16 = 1,564.62
	// GiB of states, sharded, and one 4,096-token sequence's activations,
	// 105e9 × 0.25 = 24.45 GiB, on every GPU, within 90% of each GPU's
	// usable memory (GPUMemoryShare). 6 × 105e9 × 10e9 = 6.3e21 FLOPs,
	// within the default deadline on the VMs memory takes. MI300X:
	// ⌈1,564.62 / (8 × (172.8 - 24.45))⌉ = 2 VMs × 8 × 1,307.4 TFLOPS × 30%
	// MFU, 278.86 hours, 2 × 48 × 278.86 = 26,771 USD; H100: ⌈1,564.62 /
	// (8 × (71.69 - 24.45))⌉ = 5 VMs (4 when it filled 79.65) × 8 × 989.5 ×
	// 40%, 110.54 hours, 54,339 USD; A100 40 GB: ⌈1,564.62 / (8 × (36 -
	// 24.45))⌉ = 17 VMs (was 13) × 8 × 312 × 40%, 103.11 hours, 47,671 USD.
	// Balanced, all three finish within the default 720 hours (time 1)
	// and the cheapest job leads: MI300X 25 + 25 + 20 + 15 + 15 / 2 = 92.5
	// against the H100's 25 + 25 × 26,771 / 54,339 + 20 + 15 + 15 / 5 =
	// 75.3 and the A100's 25 + 25 × 26,771 / 47,671 + 20 + 15 + 15 / 17 =
	// 74.9. For performance, the fast on few VMs: the H100 20 + 10 × 0.493
	// + 10 + 35 × 103.11 / 110.54 + 25 / 5 = 72.6 against the A100's (the
	// fastest, on 17 VMs) 20 + 10 × 0.562 + 10 + 35 + 25 / 17 = 72.1 and
	// the MI300X's 20 + 10 + 10 + 35 × 103.11 / 278.86 + 25 / 2 = 65.4. The
	// V100 size cannot train in bf16 (precision).
	scores := func(res *Result) []float64 {
		out := make([]float64, len(res.Recommendations))
		for i, r := range res.Recommendations {
			out[i] = r.Score
		}
		return out
	}
	train := Request{Workload: "training", Model: &Model{ParametersBillion: 105}, TokensBillion: f64(10), AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommendOn(t, cat, train)
	assertNames(t, names(res), "Standard_ND96isr_MI300X_v5", "Standard_ND96isr_H100_v5", "Standard_ND96asr_v4")
	// Timed training sizes on the GPUs kept busy: every layout uses all its
	// GPUs (sizing 1 for each).
	if got := scores(res); !reflect.DeepEqual(got, []float64{92.5, 75.3, 74.9}) {
		t.Errorf("balanced scores %v", got)
	}
	train.OptimizeFor = "performance"
	res = mustRecommendOn(t, cat, train)
	assertNames(t, names(res), "Standard_ND96isr_H100_v5", "Standard_ND96asr_v4", "Standard_ND96isr_MI300X_v5")
	if got := scores(res); !reflect.DeepEqual(got, []float64{72.6, 72.1, 65.4}) {
		t.Errorf("performance scores %v", got)
	}

	// 1.3B inference: the T4 (0.526 USD/h, 30.1 tokens/s per sequence)
	// leads when balanced (79.1, see TestPrefer); the H100 NVL (6.98
	// USD/h, 417 tokens/s per sequence, the fastest layout that is not
	// oversized) for performance: 20 + 10 × 0.075 + 10 × 0.104 + 35 + 25
	// = 81.8 against the T4's 20 + 10 + 10 × 0.65 + 35 × 0.072 + 25 = 64.1.
	inf := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf}
	if top := mustRecommendOn(t, cat, inf).Recommendations[0]; top.VMSize != "Standard_NC4as_T4_v3" {
		t.Errorf("balanced: top %s", top.VMSize)
	}
	inf.OptimizeFor = "performance"
	if top := mustRecommendOn(t, cat, inf).Recommendations[0]; top.VMSize != "Standard_NC40ads_H100_v5" || top.Score != 81.8 {
		t.Errorf("performance: top %s %v", top.VMSize, top.Score)
	}

	// 13B inference (30.33 GiB, see TestPrefer): the H100 NVL (6.98 USD/h,
	// 55.4 tokens/s per sequence, the reference) ranks above the A100 80
	// GB (3.673 USD/h, 25.3) for performance (20 + 10 × 0.526 + 10 × 0.717
	// + 35 + 25 = 81.5 against 20 + 10 + 10 × 0.842 + 35 × 25.3 / 55.4 +
	// 25 = 74.4), below it for cost.
	inf = Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, AsOf: asOf, MaxResults: i64(50), OptimizeFor: "performance"}
	assertOrder(t, names(mustRecommendOn(t, cat, inf)), "Standard_NC40ads_H100_v5", "Standard_NC24ads_A100_v4")
	inf.OptimizeFor = "cost"
	assertOrder(t, names(mustRecommendOn(t, cat, inf)), "Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5")
}

// On the embedded catalog, the score gap between a faster and a slower
// layout grows for performance, and between a cheaper and a dearer one for
// cost.
func TestOptimizeFor(t *testing.T) {
	gap := func(res *Result, a, b string) float64 {
		t.Helper()
		ra, rb := byName(res, a), byName(res, b)
		if ra == nil || rb == nil {
			t.Fatalf("%s or %s not ranked: %v", a, b, names(res))
		}
		return ra.Score - rb.Score
	}
	// 105B training on 10 billion tokens (6.3e21 FLOPs, within the default
	// deadline on the VMs memory takes; 70B fits one MI300X VM, and
	// scale-up then lists no multi-VM layout to compare): GB200 (a rack of
	// 18 VMs × 4 × 2,500 TFLOPS × 40% MFU, 24.31 hours) against the A100
	// 80 GB (4 VMs × 8 × 312 × 40%, 438.2 hours, a third of the price per
	// hour).
	base := Request{Workload: "training", Model: &Model{ParametersBillion: 105}, TokensBillion: f64(10), AsOf: asOf, MaxResults: i64(50)}
	perf := base
	perf.OptimizeFor = "performance"
	const gb200, a100 = "Standard_ND128isr_NDR_GB200_v6", "Standard_ND96amsr_A100_v4"
	balanced, performance := mustRecommend(t, base), mustRecommend(t, perf)
	if g, p := gap(balanced, gb200, a100), gap(performance, gb200, a100); !(p > g) {
		t.Errorf("GB200 - A100 score: %v balanced, %v for performance; performance must favour the faster layout", g, p)
	}

	// 13B inference (30.33 GiB with the KV cache of 8 sequences): the
	// 4-GPU T4 size (4.352 USD/h) against the H100 NVL (6.98 USD/h,
	// faster).
	inf := Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, AsOf: asOf, MaxResults: i64(50)}
	costReq := inf
	costReq.OptimizeFor = "cost"
	const t4, h100 = "Standard_NC64as_T4_v3", "Standard_NC40ads_H100_v5"
	balanced, cost := mustRecommend(t, inf), mustRecommend(t, costReq)
	if b, c := gap(balanced, t4, h100), gap(cost, t4, h100); !(c > b) {
		t.Errorf("T4 - H100 score: %v balanced, %v for cost; cost must favour the cheaper size", b, c)
	}
	for _, res := range []*Result{balanced, cost} {
		if top := res.Recommendations[0]; top.SKU.Family != "NC" || top.Nodes != 1 {
			t.Errorf("top %s on %d VMs", top.VMSize, top.Nodes)
		}
	}
}

func TestPerVMMinimums(t *testing.T) {
	cat := fixture(t)
	// min_vcpus 24 removes the T4 and the two NV sizes (4 to 6 vCPUs);
	// min_memory_gib 300 the A100 (220 GiB) and the quarter RTX PRO 6000
	// (72); min_local_disk_gib 3000 the V100 (2,948 GiB of temporary
	// disk). The H100 NVL (40 vCPUs, 320 GiB, 3,576 GiB of disk) leads
	// the 8-GPU sizes. The per-VM minimums come last in the new order: the
	// retired NC24rs_v3 and NV12s_v3 are counted under retired, the
	// confidential H100 under confidential, the HPC and CPU sizes under
	// workload.
	res := mustRecommendOn(t, cat, Request{Workload: "inference", MinVCPUs: i64(24), MinMemoryGiB: f64(300), MinLocalDiskGiB: f64(3000), AsOf: asOf})
	assertNames(t, names(res), "Standard_NC40ads_H100_v5", "Standard_ND96isr_MI300X_v5", "Standard_ND96asr_v4", "Standard_ND96isr_H100_v5")
	assertRejected(t, res.Rejected, map[string]int64{"workload": 6, "retired": 2, "confidential": 1,
		"min_vcpus": 3, "min_memory_gib": 2, "min_local_disk_gib": 1})
}

func TestConfidentialAndIsolated(t *testing.T) {
	cat := fixture(t)
	// confidential 10: every current NC, ND and NV size but NCC40ads.
	res := mustRecommendOn(t, cat, Request{Workload: "inference", Confidential: boolp(true), AsOf: asOf})
	assertNames(t, names(res), "Standard_NCC40ads_H100_v5")
	// workload 6 (the CPU and HPC sizes), retired 2 (NC24rs_v3 and
	// NV12s_v3), both before confidential.
	assertRejected(t, res.Rejected, map[string]int64{"workload": 6, "retired": 2, "confidential": 10})

	// isolated 3: E48_v5, F2s_v2 and HB120rs_v3 are not isolated.
	res = mustRecommendOn(t, cat, Request{Workload: "htc", Isolated: boolp(true), AsOf: asOf})
	assertNames(t, names(res), "Standard_E104i_v5")
	// workload 13: the GPU sizes (the retired NC24rs_v3 among them);
	// the retired H16r and the retiring HB120rs_v2 are htc sizes, counted
	// under the lifecycle, which comes before isolated.
	assertRejected(t, res.Rejected, map[string]int64{"workload": 13, "retired": 1, "min_lifetime_months": 1, "isolated": 3})

	// htc is compute bound by default: the price per GFLOPS of FP64, cores
	// × FP64 clock × FLOPs per cycle. HB120rs_v3 (120 × 2.08 × 16 =
	// 3,993.6 GFLOPS, 3.6 USD/h): 25 + 25 + 10 + 15 + 15 = 90, its unused
	// InfiniBand costing no points beyond the price per GFLOPS it is in;
	// E48_v5 (24 cores × 3.5 GHz × 32 = 2,688 GFLOPS, 3.024 USD/h, an
	// acceptable family): 12.5 + 25 × 0.0009 / 0.001125 + 10 + 15 × 2,688
	// / 3,993.6 + 15 = 67.6. The fixture
	// has no CPU figures for Fsv2, so F2s_v2 ranks after the sizes the
	// throughput model can compare, its score capped at theirs (76.5 on
	// price per vCPU and generation alone, 67.6 here).
	res = mustRecommendOn(t, cat, Request{Workload: "htc", Isolated: boolp(false), AsOf: asOf, MaxResults: i64(50)})
	assertNames(t, names(res), "Standard_HB120rs_v3", "Standard_E48_v5", "Standard_F2s_v2")
	if got := []float64{res.Recommendations[0].Score, res.Recommendations[1].Score, res.Recommendations[2].Score}; !reflect.DeepEqual(got, []float64{90, 67.6, 67.6}) {
		t.Errorf("scores %v", got)
	}
	if e := res.Recommendations[2].Estimate; e == nil || e.RelativeThroughput != nil || !strings.Contains(strings.Join(res.Recommendations[2].Warnings, " "), "no throughput figures") {
		t.Errorf("F2s_v2: estimate %+v, warnings %q", e, res.Recommendations[2].Warnings)
	}
	assertRejected(t, res.Rejected, map[string]int64{"workload": 13, "retired": 1, "min_lifetime_months": 1, "isolated": 1})
}

// A 9-trillion-parameter model does not fit on 100 InfiniBand VMs of any
// size: 9000e9 × 16 bytes = 134,110.45 GiB of states, and every GPU keeps
// one 4,096-token sequence's activations, 9000e9 × 0.25 bytes = 2,095.48
// GiB (without the architecture); 136,205.93 GiB in all. The MI300X, with
// the most GPU memory (1,536 GiB a VM, 1,382.4 within the 90% a job may
// fill), is the nearest miss.
func TestTooLargeForAnySize(t *testing.T) {
	// The V100 and T4 sizes cannot train in bf16 (precision 3); 6 others
	// fail gpu_memory, the confidential H100 among them (gpu_memory comes
	// before confidential). 100 MI300X VMs hold the 136,205.93 GiB in
	// total (100 × 8 × 192 × 0.9 = 138,240 GiB), but no GPU holds the
	// 2,095.48 GiB of activations each keeps whole: it fails
	// gpu_memory_per_gpu. (10,000B, 151,339.92 GiB, fills more than the
	// 138,240 and fails gpu_memory there, now that a job fills at most 90%
	// of each GPU, GPUMemoryShare.)
	nf := mustNoFitOn(t, fixture(t), Request{Workload: "training", Model: &Model{ParametersBillion: 9000}, AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 9, "precision": 3, "gpu_memory": 6, "gpu_memory_per_gpu": 1})
	// The nearest miss is the size whose 100 VMs come closest: the MI300X.
	// A one-GPU size without InfiniBand is not: lowering the need to what
	// 100 of its VMs hold still leaves a job that spans 100 VMs and needs
	// InfiniBand it lacks, so its relax advice would not make it fit. Its
	// advice names the activations, which no number of VMs splits.
	m := nf.NearestMiss
	if m == nil || m.VMSize != "Standard_ND96isr_MI300X_v5" || !reflect.DeepEqual(m.FailedConstraints, []string{"gpu_memory_per_gpu"}) ||
		!strings.HasPrefix(m.Relax, "lower the need per GPU to 172.8 GiB (it needs ") ||
		!strings.Contains(m.Relax, "the activations of one micro-batch (1 sequence × 4,096 tokens) alone take 2095.48 GiB on every GPU") {
		t.Errorf("nearest miss %+v", m)
	}
}

func TestNearestMiss(t *testing.T) {
	cat := fixture(t)
	// gpu_vendor amd with cuda_version: the NVIDIA sizes fail only
	// gpu_vendor, the MI300X only cuda_version; the T4 scores best. The
	// retired and confidential NVIDIA sizes are counted under gpu_vendor
	// too, which comes before the lifecycle and confidential.
	nf := mustNoFitOn(t, cat, Request{Workload: "inference", GPUVendor: "amd", CUDAVersion: "12.0", AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 6, "gpu_vendor": 11, "cuda_version": 2})
	want := &NearestMiss{VMSize: "Standard_NC4as_T4_v3", FailedConstraint: "gpu_vendor", FailedConstraints: []string{"gpu_vendor"},
		Relax: "set gpu_vendor to \"nvidia\" or \"any\"."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	msg := nf.Error()
	for _, s := range []string{"all 19 sizes", "\n  - gpu_vendor: 11 (Standard_NC24ads_A100_v4, ", "\n  - cuda_version: 2 (Standard_ND96isr_MI300X_v5, Standard_NV4ads_V710_v5)",
		"Nearest miss: Standard_NC4as_T4_v3 fails only gpu_vendor. To use it, set gpu_vendor"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error lacks %q:\n%s", s, msg)
		}
	}

	// 1.3B in eastus at 0.05 USD/h: the T4 at 0.526 USD/h is the cheapest
	// size that passes everything else. max_price_per_hour 9: the 4
	// current NC sizes without the confidential one, the 3 NVIDIA ND sizes
	// and the 2 current NV sizes (the sixths of an A10 and a V710 hold the
	// job with copies on 3 and 2 VMs). The MI300X and the confidential H100
	// have no eastus price (region 2); the retired NC24rs_v3 and NV12s_v3
	// would hold it (retired 2).
	nf = mustNoFitOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, Region: "eastus", MaxPricePerHour: f64(0.05), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 6, "region": 2, "retired": 2, "max_price_per_hour": 9})
	want = &NearestMiss{VMSize: "Standard_NC4as_T4_v3", FailedConstraint: "max_price_per_hour", FailedConstraints: []string{"max_price_per_hour"},
		Relax: "raise max_price_per_hour to at least 0.53 (0.526 USD per hour in eastus)."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}

	// A total budget across nodes: 105B training on 10 billion tokens
	// (1,564.62 GiB of states and 24.45 GiB of activations a GPU, see
	// TestOptimizeForReorders; 70B fits one VM) needs the 2 MI300X VMs
	// that hold it at 48 USD/h in eastus2 (6.3e21 FLOPs, 278.86 hours on
	// them).
	big := &Model{ParametersBillion: 105}
	nf = mustNoFitOn(t, cat, Request{Workload: "training", Model: big, TokensBillion: f64(10), MaxTotalPricePerHour: f64(50), AsOf: asOf})
	if m := nf.NearestMiss; m == nil || m.VMSize != "Standard_ND96isr_MI300X_v5" ||
		m.Relax != "raise max_total_price_per_hour to at least 96.00 (2 VMs at 48 USD per hour in eastus2)." {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	// Pretraining on the default 20 tokens per parameter (6 × 105e9 ×
	// 2.1e12 = 1.323e24 FLOPs) within the default 720 hours would take
	// ⌈1.323e24 / (720 × 3,600 × 8 × 1,307.4e12 × 0.3)⌉ = ⌈162.7⌉ = 163 of
	// them, but the default deadline never removes a size: under the cap
	// the job keeps to the VMs the cap pays for, at least the 2 that hold
	// it, so the smallest raise is again 96.00.
	nf = mustNoFitOn(t, cat, Request{Workload: "training", Model: big, MaxTotalPricePerHour: f64(50), AsOf: asOf})
	if m := nf.NearestMiss; m == nil || m.VMSize != "Standard_ND96isr_MI300X_v5" ||
		m.Relax != "raise max_total_price_per_hour to at least 96.00 (2 VMs at 48 USD per hour in eastus2)." {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
}

func TestNoFitErrorText(t *testing.T) {
	e := &NoFitError{Rejected: []Rejection{{Constraint: "retired", Count: 2, Examples: []string{"A", "B"}, Reason: "Retired."}}}
	want := "No VM size meets every requirement: all 2 sizes of the catalog were removed.\nSizes removed, by the first constraint each failed:\n  - retired: 2 (A, B). Retired.\nNo size is within reach by relaxing settings: every size is retired, cannot be deployed, lacks specifications, or does not serve this workload."
	if e.Error() != want {
		t.Errorf("error\n got  %q\n want %q", e.Error(), want)
	}
	e.NearestMiss = &NearestMiss{VMSize: "A", FailedConstraint: "region", FailedConstraints: []string{"region", "max_price_per_hour"}, Relax: "x; and y."}
	if !strings.HasSuffix(e.Error(), "\nNearest miss: A fails region and max_price_per_hour. To use it, x; and y.") {
		t.Errorf("error %q", e.Error())
	}
}

func TestRequirements(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, AsOf: asOf})
	rq := res.Requirements
	// The memory estimate's sentence is checked on its own below.
	want := []string{
		"Training prefers the ND family (InfiniBand, NVLink); NC with Ethernet is the alternative for single-VM jobs (Microsoft's AI compute guidance).",
		"",
		"GPU memory: 1059.38 GiB in total, from the model estimate.",
		"Per-GPU fit: the model states are sharded over the job's GPUs (FSDP or ZeRO-3); each GPU holds its share and its own micro-batch's activations (4,096 tokens, 16.3 GiB) within 90% of its usable memory.",
		"Training work: (6 × 70B active parameters) per token × 1400 billion tokens = 5.880e+23 FLOPs; tokens: 20 tokens per parameter, compute-optimal (Hoffmann et al. 2022); set tokens_billion for the real budget.",
		"Deadline: 720 hours by default; each size scales out to meet it within the VMs one job may span, and a size that cannot runs longer, with a warning.",
		"Scale up before scale out: one VM when any size holds the job, more VMs only when none does (Azure Machine Learning guidance).",
		"Interconnect: InfiniBand only when the job spans several VMs; otherwise RDMA sizes lose points for bandwidth they would not use (Azure HPC guidance: InfiniBand only where it is used).",
	}
	var formula string
	got := slices.Clone(rq.Explanation)
	if len(got) > 1 {
		formula, got[1] = got[1], ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explanation\n got  %q\n want %q", rq.Explanation, want)
	}
	const states = "model states: 70B parameters × 16 bytes (bf16 weights 2 + gradients 2 + fp32 master weights 4 + Adam moments 8)"
	if m := rq.Memory; m == nil || formula != "Memory estimate: "+trimFloat(m.GiB)+" GiB, derived in memory.formula." ||
		!strings.HasPrefix(m.Formula, states) || !strings.Contains(m.Formula, "1043.08") || !strings.Contains(m.Formula, "16.3") {
		t.Errorf("memory estimate %q, memory %+v", formula, m)
	}
	if rq.FineTuningMethod != "" || rq.Model != "" || rq.ContextTokens != DefaultContextTokens || rq.ConcurrentRequests != 0 || rq.KVCacheGiB != 0 {
		t.Errorf("training without a model name: method %q, model %q, context %d, concurrency %d, KV cache %v",
			rq.FineTuningMethod, rq.Model, rq.ContextTokens, rq.ConcurrentRequests, rq.KVCacheGiB)
	}
	if rq.Workload != "training" || rq.Category != "gpu" || !reflect.DeepEqual(rq.PreferredFamilies, []string{"ND"}) ||
		!reflect.DeepEqual(rq.AcceptableFamilies, []string{"NC"}) || rq.Precision != "bf16" || rq.ModelClass != "generative" ||
		rq.OptimizeFor != "balanced" || rq.Target != "vm" || !rq.AsOf.Equal(asOf) || rq.SystemMemoryGiB != nil {
		t.Errorf("requirements %+v", rq)
	}
	// The work: 6 × 70e9 × 1.4e12 tokens (20 per parameter) = 5.88e23
	// FLOPs, within the default deadline; the efficiency is the top
	// layout's MFU.
	if rq.TrainingFLOPs != 5.88e23 || rq.TrainingTokensBillion != 1400 || !strings.HasPrefix(rq.TokenBudget, "20 tokens per parameter") ||
		rq.DeadlineHours != DefaultDeadlineHours || rq.TokensPerSecond != 0 || rq.HPCBound != "" || rq.Efficiency != res.Recommendations[0].Estimate.Efficiency {
		t.Errorf("throughput requirements %+v", rq)
	}
	// gpu_memory_gib overrides the estimate, which stays visible. On 1
	// billion tokens (4.2e20 FLOPs) one VM holding 100 GiB finishes well
	// within the default deadline.
	res = mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, TokensBillion: f64(1), GPUMemoryGiB: f64(100), AsOf: asOf})
	if *res.Requirements.GPUMemoryGiB != 100 || res.Requirements.Memory.GiB != 1059.38 || res.Recommendations[0].Nodes != 1 {
		t.Errorf("requirements %+v", res.Requirements)
	}
	// A zero AsOf is the catalog's data date.
	res = mustRecommend(t, Request{Workload: "visualization"})
	if !res.Requirements.AsOf.Equal(testCatalog(t).DataDate) {
		t.Errorf("as of %v", res.Requirements.AsOf)
	}
	// The formula names each part and ends with the total: model states
	// 1,043.08 + one 4,096-token sequence's activations per GPU, 16.3 =
	// 1,059.38 GiB.
	if f := rq.Memory.Formula; !strings.HasSuffix(f, "activations per GPU: 0.25 bytes per parameter per 4,096 tokens × 4,096 tokens (no architecture) = 16.3 GiB; total 1059.38 GiB") {
		t.Errorf("the memory formula reads %q", f)
	}
}

// Visualization and data processing are described in their own words:
// their GPU memory is scenes and frame buffers, or partitioned data, not a
// model's states, activations or optimizer.
func TestWorkloadWording(t *testing.T) {
	training := []string{"states", "activations", "optimizer", "gradients", "FSDP", "ZeRO", "training", "data_processing"}
	for _, req := range []Request{
		{Workload: WorkloadVisualization, GPUMemoryGiB: f64(40)},
		{Workload: WorkloadVisualization, GPUs: i64(4)},
		{Workload: WorkloadDataProcessing, GPUMemoryGiB: f64(200)},
		{Workload: WorkloadDataProcessing},
	} {
		req.AsOf = asOf
		res := mustRecommend(t, req)
		texts := slices.Clone(res.Requirements.Explanation)
		for _, r := range res.Recommendations {
			texts = append(texts, r.Reasons...)
		}
		for _, text := range texts {
			for _, word := range training {
				if strings.Contains(text, word) {
					t.Errorf("%s: %q says %q", req.Workload, text, word)
				}
			}
		}
	}
}

// Every AMD GPU pick says its software must be ROCm, not CUDA; no other
// size says so.
func TestAMDNeedsROCm(t *testing.T) {
	amd := 0
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}},
		{Workload: WorkloadInference, Model: &Model{ParametersBillion: 70}, MaxResults: i64(MaxResultsLimit)},
		{Workload: WorkloadVisualization, MaxResults: i64(MaxResultsLimit)},
	} {
		req.AsOf = asOf
		for _, r := range mustRecommend(t, req).Recommendations {
			isAMD := r.SKU.GPU != nil && r.SKU.GPU.Vendor == catalog.VendorAMD
			said := slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "ROCm") })
			if isAMD != said {
				t.Errorf("%s %s (AMD %v): warnings %q", req.Workload, r.VMSize, isAMD, r.Warnings)
			}
			if isAMD {
				amd++
			}
		}
	}
	if amd == 0 {
		t.Fatal("no AMD GPU size was ranked")
	}
}

// A size prefer names stays ranked as its retirement date nears, under the
// default min_lifetime_months, with its retirement warning, so a running
// fleet's vm_size does not change; a stated min_lifetime_months removes it
// like any other size.
func TestPreferKeepsARetiringSizeUnderTheDefaultLifetime(t *testing.T) {
	const size = "Standard_HB120rs_v2" // retires 2027-05-31, within 12 months of asOf
	req := Request{Workload: WorkloadHPC, Cores: i64(480), Prefer: []string{size}, AsOf: asOf}
	r := mustRecommend(t, req).Recommendations[0]
	if r.VMSize != size {
		t.Fatalf("rank 1 is %s, want the preferred %s", r.VMSize, size)
	}
	if !strings.Contains(strings.Join(r.Warnings, " "), "Retires on 2027-05-31") {
		t.Errorf("%s: warnings %q say nothing of its retirement", size, r.Warnings)
	}
	req.MinLifetimeMonths = i64(12)
	res := mustRecommend(t, req)
	for _, r := range res.Recommendations {
		if r.VMSize == size {
			t.Fatalf("min_lifetime_months = 12 stated: %s still ranked", size)
		}
	}
}

// min_lifetime_months counts a retirement on the horizon's last day as
// within it, as retires_within and hpcsku_sku do (catalog.RetiresWithin):
// HBv2 retires 2027-05-31, 12 months after 2026-05-31 to the day, so
// min_lifetime_months = 12 removes it on 2026-05-31 and keeps it, preferred,
// a day earlier.
func TestMinLifetimeCountsTheHorizonDay(t *testing.T) {
	const size = "Standard_HB120rs_v2"
	for _, tt := range []struct {
		day    time.Time
		ranked bool
	}{{time.Date(2026, 5, 30, 0, 0, 0, 0, time.UTC), true}, {time.Date(2026, 5, 31, 0, 0, 0, 0, time.UTC), false}} {
		req := Request{Workload: WorkloadHPC, Cores: i64(480), Prefer: []string{size}, MinLifetimeMonths: i64(12), AsOf: tt.day}
		res := mustRecommend(t, req)
		if ranked := res.Recommendations[0].VMSize == size; ranked != tt.ranked {
			t.Errorf("as of %s: %s ranked first %v, want %v", tt.day.Format(catalog.DateLayout), size, ranked, tt.ranked)
		}
		if got := mustLookupSKU(t, testCatalog(t), size).RetiresWithin(tt.day, 12); got == tt.ranked {
			t.Errorf("as of %s: RetiresWithin 12 months %v, the ranking disagrees", tt.day.Format(catalog.DateLayout), got)
		}
	}
}

// A total price cap with the default deadline: the deadline scales a job
// out only as far as the cap pays for, and never removes a size for it.
// Pretraining 7B on 2T tokens under 200 USD/h: ND96isr_MI300X_v5 runs on
// the 4 VMs the cap pays for (192 USD/h), past the default 720 hours, with
// a warning that names the VMs the default deadline takes; ND96isr_H100_v5
// on 2.
func TestTotalPriceCapLimitsTheDefaultDeadlinesScaleOut(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64(2000), MaxTotalPricePerHour: f64(200), MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	res := mustRecommend(t, req)
	for size, vms := range map[string]int64{"Standard_ND96isr_MI300X_v5": 4, "Standard_ND96isr_H100_v5": 2} {
		r := byName(res, size)
		if r == nil || r.Nodes != vms || *r.TotalPricePerHour > 200 {
			t.Fatalf("%s: %+v", size, r)
		}
		if !strings.Contains(strings.Join(r.Warnings, " "), "the most VMs max_total_price_per_hour pays for (meeting it takes ") {
			t.Errorf("%s: warnings %q", size, r.Warnings)
		}
	}
}

// A price cap holds a rack-allocated size's default scale-out to the whole
// racks it pays for: 70B pretraining on GB200 (racks of 18 VMs at 108.16
// USD/h) under 2,500 USD/h runs on one rack, not on the 23 VMs the cap pays
// for rounded up to two racks, which the cap does not allow.
func TestTotalPriceCapHoldsWholeRacks(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus", GPUModels: []string{"gb200"}, MaxTotalPricePerHour: f64(2500), AsOf: asOf}
	r := byName(mustRecommend(t, req), "Standard_ND128isr_NDR_GB200_v6")
	if r == nil || r.Nodes != 18 || *r.TotalPricePerHour > 2500 {
		t.Fatalf("%+v", r)
	}
}

// A price cap's relax names the cent the layout costs, not one more from a
// float product's error, and serves when followed: 2,000 cores on 6
// HB-series VMs at 19.8 USD per hour is 118.80.
func TestPriceCapRelaxIsTheCentItCosts(t *testing.T) {
	req := Request{Workload: WorkloadHPC, Cores: i64(2000), MaxTotalPricePerHour: f64(50), Region: "eastus", LicenseCostPerCoreHour: f64(0.1), AsOf: asOf}
	m := mustNoFit(t, req).NearestMiss
	if m == nil || m.Relax != "raise max_total_price_per_hour to at least 118.80 (6 VMs at 19.8 USD per hour in eastus)." {
		t.Fatalf("nearest miss %+v", m)
	}
	req.MaxTotalPricePerHour = f64(118.80)
	if r := byName(mustRecommend(t, req), m.VMSize); r == nil {
		t.Errorf("%s does not serve at 118.80", m.VMSize)
	}
}

// max_nodes below one rack of a rack-allocated size keeps a job on one VM:
// 7B pretraining on GB200 by 720 hours with max_nodes = 10 misses the
// deadline there, and the nearest miss names the rack (18 VMs), which
// meets it when followed, before the longer deadline.
func TestDeadlineMissBelowARackNamesTheRack(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64(2000), DeadlineHours: f64(720), GPUModels: []string{"gb200"}, MaxNodes: i64(10), AsOf: asOf}
	m := mustNoFit(t, req).NearestMiss
	if m == nil || !strings.HasPrefix(m.Relax, "raise max_nodes to 18 (Azure allocates these VMs by racks of 18") || !strings.Contains(m.Relax, "on 1 VM of it") {
		t.Fatalf("nearest miss %+v", m)
	}
	req.MaxNodes = i64(18)
	if r := byName(mustRecommend(t, req), m.VMSize); r == nil || r.Nodes != 18 {
		t.Errorf("%s with max_nodes = 18: %+v", m.VMSize, r)
	}
}

// A deadline's nearest miss never names a deadline_hours above what the
// engine accepts (MaxDeadlineHours): where the job takes longer on the VMs
// allowed, it names the max_nodes (or nodes) that finish it, with the
// deadline that takes, and serves when followed; where no layout one job
// may span finishes it within the bounds, it says so. Llama 3.1 70B on
// 15,000B tokens with max_nodes = 4 advised deadline_hours = 144554.
func TestDeadlineMissStaysWithinTheBounds(t *testing.T) {
	advice := regexp.MustCompile(`^raise (max_nodes|nodes) to (\d+)(?: and deadline_hours to at least (\d+))? \(`)
	base := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-70b"}, TokensBillion: f64(15000), DeadlineHours: f64(720), AsOf: asOf}
	with := func(f func(*Request)) Request { r := base; f(&r); return r }
	for _, req := range []Request{
		with(func(r *Request) { r.MaxNodes = i64(4) }),
		with(func(r *Request) { r.MaxNodes = i64(4); r.DeadlineHours = f64(MaxDeadlineHours) }),
		with(func(r *Request) { r.MaxNodes = i64(1) }),
		with(func(r *Request) { r.MaxNodes = i64(4); r.Interconnect = "any" }),
		with(func(r *Request) { r.MaxNodes = i64(4); r.Target = TargetBatch }),
		with(func(r *Request) { r.Nodes = i64(4) }),
	} {
		m := mustNoFit(t, req).NearestMiss
		if m == nil || m.FailedConstraint != "deadline" {
			t.Fatalf("%+v: nearest miss %+v", req, m)
		}
		g := advice.FindStringSubmatch(m.Relax)
		if g == nil {
			t.Errorf("max_nodes %v nodes %v: nearest miss %q names no VMs", deref(req.MaxNodes), deref(req.Nodes), m.Relax)
			continue
		}
		vms, _ := strconv.ParseInt(g[2], 10, 64)
		if g[1] == "nodes" {
			req.Nodes = &vms
		} else {
			req.MaxNodes = &vms
		}
		if g[3] != "" {
			h, _ := strconv.ParseFloat(g[3], 64)
			req.DeadlineHours = &h
		}
		if r := byName(mustRecommend(t, req), m.VMSize); r == nil {
			t.Errorf("%q followed: %s is not ranked", m.Relax, m.VMSize)
		}
	}
	req := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-405b"}, TokensBillion: f64(1e6), DeadlineHours: f64(720), AsOf: asOf}
	if m := mustNoFit(t, req).NearestMiss; m == nil || strings.Contains(m.Relax, "raise") || !strings.HasPrefix(m.Relax, "none within the bounds: ") {
		t.Errorf("405B on 1,000,000B tokens: nearest miss %+v", m)
	}
}

// scale_up removes a layout that spans VMs for memory when some size holds
// the job on one VM, never one whose VMs a stated deadline added: Llama 3.1
// 8B on 1 billion tokens in eastus within 1 hour lists ND96asr_v4 on 15
// VMs (388.94 USD), but within 6 hours, which ND GB200 v6 meets on one VM,
// scale_up removed ND96asr_v4 and ND96amsr_A100_v4, whose single VM holds
// the job and which meet the later deadline on fewer VMs. A later deadline
// keeps them, at no more cost.
func TestLaterDeadlineKeepsLayoutsScaledOutForIt(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: f64(1), Region: "eastus", MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	cost := map[string]float64{}
	for _, d := range []float64{1, 6} {
		req.DeadlineHours = f64(d)
		res := mustRecommend(t, req)
		if n := rejectedCounts(res.Rejected)["scale_up"]; n != 0 {
			t.Errorf("within %v hours scale_up removes %d sizes: %s", d, n, formatRejections(res.Rejected))
		}
		for _, name := range []string{"Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4"} {
			r := byName(res, name)
			switch {
			case r == nil:
				t.Errorf("within %v hours %s is not ranked: %v", d, name, names(res))
			case r.Estimate == nil || r.Estimate.JobCostUSD == nil || *r.Estimate.JobHours > d:
				t.Errorf("within %v hours %s: %+v", d, name, r.Estimate)
			case d == 1 && name == "Standard_ND96asr_v4" && (r.Nodes != 15 || !near(r.Estimate.JobCostUSD, 388.94)):
				t.Errorf("within 1 hour ND96asr_v4 on %d VMs, %v USD; want 15 VMs, 388.94 USD", r.Nodes, *r.Estimate.JobCostUSD)
			case d == 6 && *r.Estimate.JobCostUSD > cost[name]*1.0001+0.01:
				t.Errorf("within 6 hours %s costs %v USD, more than %v within 1", name, *r.Estimate.JobCostUSD, cost[name])
			default:
				cost[name] = *r.Estimate.JobCostUSD
			}
		}
	}
}
