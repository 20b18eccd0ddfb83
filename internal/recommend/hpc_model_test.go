// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// On one VM a constrained-core size of HBv3 or HBv4 draws less memory
// bandwidth than its parent and more per core: memory-bound throughput per
// VM rises with the cores, per core it falls.
func TestConstrainedCoresLessPerVMMorePerCore(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, Nodes: i64(1), MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	for _, sweep := range [][]string{
		{"Standard_HB120-16rs_v3", "Standard_HB120-32rs_v3", "Standard_HB120-64rs_v3", "Standard_HB120-96rs_v3", "Standard_HB120rs_v3"},
		{"Standard_HB176-24rs_v4", "Standard_HB176-48rs_v4", "Standard_HB176-96rs_v4", "Standard_HB176-144rs_v4", "Standard_HB176rs_v4"},
	} {
		prevVM, prevCore := 0.0, math.Inf(1)
		for _, name := range sweep {
			r := byName(res, name)
			if r == nil || r.Estimate == nil || r.Estimate.RelativeThroughput == nil {
				t.Fatalf("%s: not ranked with an estimate", name)
			}
			vm := *r.Estimate.RelativeThroughput
			core := vm / float64(*r.SKU.VCPUs)
			if vm <= prevVM || core >= prevCore {
				t.Errorf("%s: %.4f per VM, %.6f per core; the smaller size before it had %.4f and %.6f", name, vm, core, prevVM, prevCore)
			}
			prevVM, prevCore = vm, core
		}
	}
}

// The efficiency curve falls with the VMs; a measured parallel_efficiency
// at nodes VMs is what those layouts get, and without nodes it applies to
// every layout of more than one VM. htc's independent tasks keep 1.
func TestParallelEfficiency(t *testing.T) {
	prev := 1.0
	for _, n := range []int64{2, 4, 8, 16, 100} {
		e := perfmodel.ScalingEfficiency(n)
		if e >= prev || e <= 0 {
			t.Errorf("efficiency on %d VMs %v, after %v", n, e, prev)
		}
		prev = e
	}
	if e := perfmodel.ScalingEfficiency(1); e != 1 {
		t.Errorf("one VM: %v", e)
	}
	if e := perfmodel.ScalingEfficiency(2); math.Abs(e-0.98) > 0.005 {
		t.Errorf("2 VMs: %v, want about 0.98 (the published median)", e)
	}

	res := mustRecommend(t, Request{Workload: WorkloadHPC, Nodes: i64(4), ParallelEfficiency: f64(0.6), AsOf: asOf})
	for _, r := range res.Recommendations {
		if r.Estimate == nil || r.Estimate.Efficiency != 0.6 {
			t.Errorf("%s on %d VMs: estimate %+v, want the measured 0.6", r.VMSize, r.Nodes, r.Estimate)
		}
	}
	if !strings.Contains(strings.Join(res.Requirements.Explanation, " "), "60% measured on 4 VMs (parallel_efficiency)") {
		t.Errorf("explanation %q", res.Requirements.Explanation)
	}

	// Measured at 4 VMs, the curve scaled through it: 1.2 on 4 VMs is
	// 1.2 / curve(4) × curve(16) on 16.
	h := perfmodel.HPCJob{Bound: BoundMemoryBandwidth, Coupled: true, Measured: 1.2, MeasuredAt: 4}
	if got, want := h.Efficiency(16), 1.2*perfmodel.ScalingEfficiency(16)/perfmodel.ScalingEfficiency(4); math.Abs(got-want) > 1e-12 || h.Efficiency(1) != 1 {
		t.Errorf("scaled curve: %v on 16 VMs, want %v; %v on one", got, want, h.Efficiency(1))
	}

	res = mustRecommend(t, Request{Workload: WorkloadHPC, Cores: i64(2000), ParallelEfficiency: f64(0.5), AsOf: asOf})
	for _, r := range res.Recommendations {
		if want := map[bool]float64{true: 1, false: 0.5}[r.Nodes == 1]; r.Estimate == nil || r.Estimate.Efficiency != want {
			t.Errorf("%s on %d VMs: estimate %+v, want %v", r.VMSize, r.Nodes, r.Estimate, want)
		}
	}
	htc := perfmodel.HPCJob{Bound: BoundCompute}
	if htc.Efficiency(50) != 1 {
		t.Errorf("htc on 50 VMs: %v", htc.Efficiency(50))
	}
}

// memory_capacity: min_memory_gib is per VM and never adds up across VMs,
// so a solver that needs 1,100 GiB on one node, on 72 cores, runs on one
// HX VM rather than three 24-core HX VMs at three times the price; the
// fewest VMs that hold the job win.
func TestMemoryCapacityPerVM(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, HPCBound: BoundMemoryCapacity, MinMemoryGiB: f64(1100), Cores: i64(72), Region: "eastus", AsOf: asOf})
	top := res.Recommendations[0]
	if top.Nodes != 1 || *top.SKU.MemoryGiB < 1100 || *top.Estimate.RelativeThroughput != 1 {
		t.Errorf("top %s on %d VMs (%v GiB each), relative throughput %v", top.VMSize, top.Nodes, *top.SKU.MemoryGiB, *top.Estimate.RelativeThroughput)
	}
	for _, r := range res.Recommendations {
		// Without a licence per core, the full size's cores come at its
		// constrained-core sizes' price: it is not ranked after them.
		if r.Nodes == top.Nodes && r.Score == top.Score && *r.TotalPricePerHour == *top.TotalPricePerHour && *r.SKU.VCPUs > *top.SKU.VCPUs {
			t.Errorf("%s (%d vCPUs) ranks after %s (%d vCPUs) at the same price and score", r.VMSize, *r.SKU.VCPUs, top.VMSize, *top.SKU.VCPUs)
		}
		if r.Nodes > 1 && r.Score >= top.Score {
			t.Errorf("%s on %d VMs scores %v, at least the one-VM top's %v", r.VMSize, r.Nodes, r.Score, top.Score)
		}
		if want := 1 / float64(r.Nodes); !near(r.Estimate.RelativeThroughput, want) {
			t.Errorf("%s on %d VMs: relative throughput %v, want %v", r.VMSize, r.Nodes, *r.Estimate.RelativeThroughput, want)
		}
	}
}

// total_memory_gib is the memory of a distributed job, spread over its
// VMs: every layout holds it, and the sizes with the most memory per VM
// need the fewest VMs.
func TestTotalMemorySpreadOverVMs(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, HPCBound: BoundMemoryCapacity, TotalMemoryGiB: f64(3000), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	fewest := int64(math.MaxInt64)
	for _, r := range res.Recommendations {
		if float64(r.Nodes)**r.SKU.MemoryGiB < 3000 || float64(r.Nodes-1)**r.SKU.MemoryGiB >= 3000 {
			t.Errorf("%s: %d VMs of %v GiB for 3,000 GiB", r.VMSize, r.Nodes, *r.SKU.MemoryGiB)
		}
		fewest = min(fewest, r.Nodes)
	}
	if top := res.Recommendations[0]; top.Nodes != fewest || top.Nodes != 3 {
		t.Errorf("top %s on %d VMs; the fewest that hold 3,000 GiB are %d", top.VMSize, top.Nodes, fewest)
	}
	if !strings.Contains(strings.Join(res.Recommendations[0].Estimate.Assumptions, " "), "the fewest VMs that hold it win") {
		t.Errorf("assumptions %q", res.Recommendations[0].Estimate.Assumptions)
	}
	// On fixed VMs too small for it, the job's memory removes the size.
	res = mustRecommend(t, Request{Workload: WorkloadHTC, TotalMemoryGiB: f64(3000), Nodes: i64(4), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	for _, r := range res.Recommendations {
		if 4**r.SKU.MemoryGiB < 3000 {
			t.Errorf("%s: 4 VMs of %v GiB ranked for 3,000 GiB", r.VMSize, *r.SKU.MemoryGiB)
		}
	}
	if !slices.ContainsFunc(res.Rejected, func(j Rejection) bool {
		return j.Constraint == "system_memory" && strings.Contains(j.Reason, "3000 GiB of memory (total_memory_gib)")
	}) {
		t.Errorf("rejected %+v", res.Rejected)
	}
}

// htc compares per-core work and takes no points off for InfiniBand,
// whose cost is already in the price per unit of work.
func TestHTCNoInfiniBandPenalty(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHTC, Cores: i64(10000), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	for _, r := range res.Recommendations {
		if r.SKU.Network.RDMA && !r.Deployment.RDMA && strings.Contains(strings.Join(r.Reasons, " "), "penal") {
			t.Errorf("%s: reasons %q", r.VMSize, r.Reasons)
		}
	}
	// 10,000 tasks: 625 F16als_v6 VMs do not top the ranking, and 84
	// HB120rs_v3 VMs cost less per unit of FP64 work than they do (per
	// core: 2.08 GHz x 16 FLOPs per cycle against 2.25 x 16, the base clock
	// of the F v6 hosts' nearest retail part (D71), for 3.60 USD an hour per
	// 120 cores against 0.968 per 16). At 2.25 GHz F16als_v6 falls out of
	// the first MaxResultsLimit sizes, so a second request names it in
	// prefer to read its price per unit of work (prefer moves it first,
	// not its estimate).
	perUnit := map[string]float64{}
	for _, r := range res.Recommendations {
		perUnit[r.VMSize] = *r.TotalPricePerHour / *r.Estimate.RelativeThroughput
	}
	if top := res.Recommendations[0].VMSize; top == "Standard_F16als_v6" {
		t.Errorf("top %s", top)
	}
	preferred := mustRecommend(t, Request{Workload: WorkloadHTC, Cores: i64(10000), Region: "eastus", AsOf: asOf, MaxResults: i64(1), Prefer: []string{"Standard_F16als_v6"}})
	if r := preferred.Recommendations[0]; r.VMSize == "Standard_F16als_v6" {
		perUnit[r.VMSize] = *r.TotalPricePerHour / *r.Estimate.RelativeThroughput
	}
	if f, hb := perUnit["Standard_F16als_v6"], perUnit["Standard_HB120rs_v3"]; hb == 0 || f == 0 || hb >= f {
		t.Errorf("price per unit of work: F16als_v6 %v, HB120rs_v3 %v", f, hb)
	}
}

// A compute-bound htc job of 10,000 FP64 tasks compares the F v7 sizes
// with HBv3 on sustained clocks (D71): per core 2.6 GHz (the EPYC 9655's
// base clock) x 32 FP64 FLOPs per cycle = 83.2 GFLOPS against HBv3's 2.08 x
// 16 = 33.28, a ratio of 0.4, where the 4.5 GHz maximum boost gave 144 and
// 0.23.
func TestHTCFP64RatesRestOnSustainedClocks(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHTC, Cores: i64(10000), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	rel := map[string]float64{}
	for _, r := range res.Recommendations {
		rel[r.VMSize] = *r.Estimate.RelativeThroughput
	}
	f, hb := rel["Standard_F80alds_v7"], rel["Standard_HB120rs_v3"]
	if f == 0 || hb == 0 || math.Abs(hb/f-0.4) > 1e-6 {
		t.Errorf("relative throughput: F80alds_v7 %v, HB120rs_v3 %v; want HB120rs_v3 at 0.4 of F80alds_v7", f, hb)
	}
}

// One rule places ranks and counts licences on a hyper-threaded size: a
// rank or task per vCPU. F64s v2 (64 vCPUs, 32 cores) ran 64 cores with
// cores = 64, and was licensed for 64 cores (64 USD/h at 1 USD per
// core-hour), but for 32 with nodes = 1, the same VM running the same
// throughput. Both now license the 64 ranks the layout places.
func TestHyperThreadedLicenceCountsTheRanksPlaced(t *testing.T) {
	t.Parallel()
	lic := func(req Request) (float64, []string) {
		req.Workload, req.Prefer, req.LicenseCostPerCoreHour, req.AsOf = WorkloadHTC, []string{"Standard_F64s_v2"}, f64(1), asOf
		top := mustRecommend(t, req).Recommendations[0]
		if top.VMSize != "Standard_F64s_v2" || top.Nodes != 1 || top.Estimate == nil || top.Estimate.LicenseCostPerHour == nil {
			t.Fatalf("the premise is gone: %s × %d, estimate %+v", top.VMSize, top.Nodes, top.Estimate)
		}
		return *top.Estimate.LicenseCostPerHour, top.Reasons
	}
	byNodes, reasons := lic(Request{Nodes: i64(1)})
	byCores, _ := lic(Request{Cores: i64(64)})
	if byNodes != 64 || byCores != 64 {
		t.Errorf("licences per hour: nodes = 1 %v, cores = 64 %v; want 64 for both", byNodes, byCores)
	}
	if !slices.ContainsFunc(reasons, func(r string) bool { return strings.HasPrefix(r, "Licences: 64 cores") }) {
		t.Errorf("reasons %q", reasons)
	}
}

// An hpc job's reported hours and costs agree: 4,096 licensed cores on 13
// HB368-336rs v5 reported 0.18 hours, 406.14 USD in all and 360.79 USD of
// licences, computed from 0.1762 hours, where 0.18 × (257.40 + 2,048) is
// 414.97 and the licences imply 4,009 cores. The hours now keep four
// significant digits and the costs are computed from them, so that the
// documented formulas reproduce them to the cent.
func TestHPCJobCostsFollowTheReportedHours(t *testing.T) {
	t.Parallel()
	req := Request{Workload: WorkloadHPC, Cores: i64(4096), Region: "eastus", LicenseCostPerCoreHour: f64(0.5), AsOf: asOf,
		ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 5, Hours: 4, Cores: i64(512)}}
	for _, r := range mustRecommend(t, req).Recommendations {
		e := r.Estimate
		if e == nil || e.JobHours == nil || e.JobCostUSD == nil || e.LicenseCostUSD == nil || r.TotalPricePerHour == nil {
			t.Fatalf("%s: estimate %+v", r.VMSize, e)
		}
		h, lic := *e.JobHours, 4096*0.5
		if math.Abs(*e.LicenseCostUSD-h*lic) > 0.005+1e-9 || math.Abs(*e.JobCostUSD-h*(*r.TotalPricePerHour+lic)) > 0.005+1e-9 {
			t.Errorf("%s × %d: %v hours × (%v + %v) = %.4f, reported %v in all and %v of licences (%.4f)", r.VMSize, r.Nodes, h, *r.TotalPricePerHour, lic, h*(*r.TotalPricePerHour+lic), *e.JobCostUSD, *e.LicenseCostUSD, h*lic)
		}
	}
}
