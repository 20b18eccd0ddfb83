// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"strings"
	"testing"
)

// A reference run gives every layout job hours and cost: on the run's own
// layout its hours come back; elsewhere they follow the model's ratio; the
// run may be on a retired size outside the request's filters.
func TestReferenceRunHours(t *testing.T) {
	req := Request{Workload: WorkloadHPC, Cores: i64(120), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit),
		ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 1, Hours: 10}}
	res := mustRecommend(t, req)
	r := byName(res, "Standard_HB120rs_v3")
	if r == nil || r.Estimate.JobHours == nil || *r.Estimate.JobHours != 10 || r.Estimate.JobCostUSD == nil || math.Abs(*r.Estimate.JobCostUSD-10**r.TotalPricePerHour) > 0.01 {
		t.Fatalf("HB120rs_v3 on its own reference run: %+v", r.Estimate)
	}
	if !strings.Contains(strings.Join(r.Reasons, " "), "Estimated 10 hours for the job on 1 VM (120 cores), from the reference run's 10 hours") {
		t.Errorf("reasons %q", r.Reasons)
	}
	// HBv4 runs the 120 ranks faster than HBv3; HB120-16rs_v3 needs 8 VMs
	// for them, each of 16 cores.
	for _, name := range []string{"Standard_HB176rs_v4", "Standard_HB120-16rs_v3"} {
		if o := byName(res, name); o == nil || o.Estimate.JobHours == nil {
			t.Errorf("%s: no job hours", name)
		}
	}
	if h := *byName(res, "Standard_HB176rs_v4").Estimate.JobHours; h >= 10 {
		t.Errorf("HB176rs_v4: %v hours, not faster than HBv3's 10", h)
	}
	// The same job measured on one retired HB60rs VM: a measurement, not
	// a candidate; HB120rs_v3 draws more memory bandwidth.
	req.ReferenceRun = &ReferenceRun{VMSize: "Standard_HB60rs", Nodes: 1, Hours: 30}
	res = mustRecommend(t, req)
	if byName(res, "Standard_HB60rs") != nil {
		t.Errorf("the retired reference size is ranked")
	}
	if e := byName(res, "Standard_HB120rs_v3").Estimate; e.JobHours == nil || *e.JobHours >= 30 {
		t.Errorf("HB120rs_v3 from an HB60rs run: %+v", e)
	}
	if !strings.Contains(strings.Join(res.Requirements.Explanation, " "), "Reference run: 30 hours on 1 VM of Standard_HB60rs (60 cores)") {
		t.Errorf("explanation %q", res.Requirements.Explanation)
	}
}

// A per-core licence is added to each layout's cost on the cores it runs:
// with a reference run to the job's cost, without one to its hourly price,
// which the ranking compares per unit of throughput. With a licence that
// outweighs the VM, fewer, faster cores win: a constrained-core size
// beats its parent, which wins without the licence.
func TestLicenseCostPerCore(t *testing.T) {
	req := Request{Workload: WorkloadHPC, Cores: i64(240), Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit),
		ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 2, Hours: 4}, LicenseCostPerCoreHour: f64(0.5)}
	res := mustRecommend(t, req)
	r := byName(res, "Standard_HB120rs_v3")
	e := r.Estimate
	if e.JobHours == nil || *e.JobHours != 4 || e.LicenseCostUSD == nil || *e.LicenseCostUSD != 4*240*0.5 ||
		e.JobCostUSD == nil || math.Abs(*e.JobCostUSD-4*(*r.TotalPricePerHour+120)) > 0.01 || e.LicenseCostPerHour != nil {
		t.Errorf("HB120rs_v3: %+v", e)
	}

	// A hyper-threaded size runs a rank per vCPU: 64 ranks on one
	// F64s_v2 (32 cores) pay 64 licences.
	res = mustRecommend(t, Request{Workload: WorkloadHTC, Cores: i64(64), Region: "eastus", AsOf: asOf, LicenseCostPerCoreHour: f64(1), Prefer: []string{"Standard_F64s_v2"}})
	if r := byName(res, "Standard_F64s_v2"); r == nil || r.Nodes != 1 || r.Estimate.LicenseCostPerHour == nil || *r.Estimate.LicenseCostPerHour != 64 {
		t.Errorf("F64s_v2 for 64 ranks: %+v", r)
	}

	rank := func(license *float64) map[string]int64 {
		res := mustRecommend(t, Request{Workload: WorkloadHPC, Region: "eastus", AsOf: asOf, MaxResults: i64(MaxResultsLimit), LicenseCostPerCoreHour: license})
		out := map[string]int64{}
		for _, r := range res.Recommendations {
			out[r.VMSize] = r.Rank
			if license != nil && (r.Estimate.LicenseCostPerHour == nil || *r.Estimate.LicenseCostPerHour != round4(*license*float64(*r.SKU.VCPUs))) {
				t.Errorf("%s: licence per hour %v for %d cores", r.VMSize, r.Estimate.LicenseCostPerHour, *r.SKU.VCPUs)
			}
		}
		return out
	}
	if r := rank(nil); r["Standard_HB120rs_v3"] > r["Standard_HB120-16rs_v3"] {
		t.Errorf("without a licence: HB120rs_v3 rank %d, HB120-16rs_v3 %d", r["Standard_HB120rs_v3"], r["Standard_HB120-16rs_v3"])
	}
	if r := rank(f64(1)); r["Standard_HB120rs_v3"] < r["Standard_HB120-16rs_v3"] {
		t.Errorf("at 1 USD per core-hour: HB120rs_v3 rank %d, HB120-16rs_v3 %d", r["Standard_HB120rs_v3"], r["Standard_HB120-16rs_v3"])
	}
}

// Invalid reference runs and licence costs: each names its attribute.
func TestReferenceRunValidation(t *testing.T) {
	eng := testEngine(t)
	for _, tc := range []struct {
		req     Request
		path    string
		summary string
	}{
		{Request{Workload: WorkloadHPC, LicenseCostPerCoreHour: f64(-0.1)}, "license_cost_per_core_hour", "Invalid License Cost"},
		{Request{Workload: WorkloadTraining, LicenseCostPerCoreHour: f64(1)}, "license_cost_per_core_hour", "Argument Not Used By Workload"},
		{Request{Workload: WorkloadInference, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 1, Hours: 1}}, "reference_run", "Argument Not Used By Workload"},
		{Request{Workload: WorkloadHPC, ReferenceRun: &ReferenceRun{VMSize: "Standard_ND96isr_H100_v5", Nodes: 1, Hours: 1}}, "reference_run.vm_size", "Reference Run Not On An HPC Or CPU Size"},
		{Request{Workload: WorkloadHPC, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v9", Nodes: 1, Hours: 1}}, "reference_run.vm_size", "Unknown VM Size"},
		{Request{Workload: WorkloadHPC, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 1, Hours: 0}}, "reference_run.hours", "Invalid Reference Run"},
		{Request{Workload: WorkloadHTC, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 0, Hours: 1}}, "reference_run.nodes", "Invalid Reference Run"},
		{Request{Workload: WorkloadHPC, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 2, Hours: 1, Cores: i64(241)}}, "reference_run.cores", "Reference Run Cores Do Not Fit"},
		{Request{Workload: WorkloadHPC, ReferenceRun: &ReferenceRun{VMSize: "Standard_HB120rs_v3", Nodes: 2, Hours: 1, Cores: i64(0)}}, "reference_run.cores", "Invalid Reference Run"},
	} {
		errs := eng.Validate(tc.req)
		if len(errs) != 1 || strings.Join(errs[0].Path, ".") != tc.path || errs[0].Summary != tc.summary || errs[0].Soft {
			t.Errorf("%+v: %+v", tc.req, errs)
		}
	}
}

// A memory_capacity job with a reference run and a licence per core: the
// layouts compare on the whole job's cost and time, so among the HX176
// sizes on the same 15 VMs the one that finishes the job for least comes
// first, not the one with the fewest licensed cores per hour.
func TestMemoryCapacityJobRanksOnItsJobCost(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, HPCBound: "memory_capacity", TotalMemoryGiB: f64(20000), Region: "eastus",
		ReferenceRun: &ReferenceRun{VMSize: "Standard_HX176rs", Nodes: 12, Hours: 5}, LicenseCostPerCoreHour: f64(0.05), MaxResults: i64(MaxResultsLimit), AsOf: asOf})
	var hx []Recommendation
	for _, r := range res.Recommendations {
		if strings.HasPrefix(r.VMSize, "Standard_HX176") {
			hx = append(hx, r)
		}
	}
	for i := 1; i < len(hx); i++ {
		if *hx[i].Estimate.JobCostUSD < *hx[i-1].Estimate.JobCostUSD && *hx[i].Estimate.JobHours <= *hx[i-1].Estimate.JobHours {
			t.Errorf("%s (%v h, %v USD) ranks below %s (%v h, %v USD)", hx[i].VMSize, *hx[i].Estimate.JobHours, *hx[i].Estimate.JobCostUSD,
				hx[i-1].VMSize, *hx[i-1].Estimate.JobHours, *hx[i-1].Estimate.JobCostUSD)
		}
	}
	if len(hx) < 3 {
		t.Fatalf("HX176 sizes ranked: %d", len(hx))
	}
}
