// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"strings"
	"testing"
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
		e := hpcEfficiency(n)
		if e >= prev || e <= 0 {
			t.Errorf("efficiency on %d VMs %v, after %v", n, e, prev)
		}
		prev = e
	}
	if e := hpcEfficiency(1); e != 1 {
		t.Errorf("one VM: %v", e)
	}
	if e := hpcEfficiency(2); math.Abs(e-0.98) > 0.005 {
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
	h := hpcWork{bound: BoundMemoryBandwidth, coupled: true, measured: 1.2, measuredAt: 4}
	if got, want := h.efficiency(16), 1.2*hpcEfficiency(16)/hpcEfficiency(4); math.Abs(got-want) > 1e-12 || h.efficiency(1) != 1 {
		t.Errorf("scaled curve: %v on 16 VMs, want %v; %v on one", got, want, h.efficiency(1))
	}

	res = mustRecommend(t, Request{Workload: WorkloadHPC, Cores: i64(2000), ParallelEfficiency: f64(0.5), AsOf: asOf})
	for _, r := range res.Recommendations {
		if want := map[bool]float64{true: 1, false: 0.5}[r.Nodes == 1]; r.Estimate == nil || r.Estimate.Efficiency != want {
			t.Errorf("%s on %d VMs: estimate %+v, want %v", r.VMSize, r.Nodes, r.Estimate, want)
		}
	}
	htc := hpcWork{bound: BoundCompute}
	if htc.efficiency(50) != 1 {
		t.Errorf("htc on 50 VMs: %v", htc.efficiency(50))
	}
}
