// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// TestMemoryFitUsesAllottedMemory: memory fit counts on the smaller of the
// documented and the allotted memory (catalog decision D45).
// Standard_ND96amsr_A100_v4 is documented with 1,900 GiB and allotted
// 1,800, so a request for 1,850 GiB per VM leaves it out; the HBv3 sizes
// are allotted 456 GiB but documented with 448, which is what counts.
func TestMemoryFitUsesAllottedMemory(t *testing.T) {
	cat := testCatalog(t)
	amsr := mustLookupSKU(t, cat, "Standard_ND96amsr_A100_v4")
	if *amsr.MemoryGiB != 1900 || *amsr.MemoryGiBAllotted != 1800 {
		t.Fatalf("ND96amsr_A100_v4 memory %v, allotted %v", *amsr.MemoryGiB, *amsr.MemoryGiBAllotted)
	}
	res := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, MinMemoryGiB: f64(1850), AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.VMSize == "Standard_ND96amsr_A100_v4" {
			t.Errorf("%s listed for 1,850 GiB per VM: it is allotted 1,800", r.VMSize)
		}
	}
	// Its GPU model alone: it fails min_memory_gib.
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 70}, GPUModels: []string{"a100-sxm-80gb"}, MinMemoryGiB: f64(1850), AsOf: asOf}
	nf := mustNoFit(t, req)
	assertRejectedBy(t, cat, req, nf.Rejected, "min_memory_gib", "Standard_ND96amsr_A100_v4")
	// 1,800 GiB fits it.
	res = mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, MinMemoryGiB: f64(1800), AsOf: asOf, MaxResults: i64(50)})
	if !slices.Contains(names(res), "Standard_ND96amsr_A100_v4") {
		t.Errorf("ND96amsr_A100_v4 missing for 1,800 GiB per VM: %v", names(res))
	}
	// HBv3: 448 GiB counts, not the allotted 456. At 450 GiB the HBv3 and
	// HBv5 (432 GiB) sizes fail; HBv4 and HX (768 and 1,408) remain.
	req = Request{Workload: "hpc", MinMemoryGiB: f64(450), AsOf: asOf, MaxResults: i64(50)}
	res = mustRecommend(t, req)
	var small []string
	for _, s := range cat.SKUs() {
		if (s.Series == "HBv3" || s.Series == "HBv5") && !s.RetiredAt(asOf) {
			small = append(small, s.Name)
		}
	}
	if len(small) == 0 {
		t.Fatal("no HBv3 or HBv5 size")
	}
	assertRejectedBy(t, cat, req, res.Rejected, "min_memory_gib", small...)
	for _, r := range res.Recommendations {
		if r.SKU.Series == "HBv3" {
			t.Errorf("%s listed at 450 GiB: 448 counts", r.VMSize)
		}
	}
	res = mustRecommend(t, Request{Workload: "hpc", MinMemoryGiB: f64(448), AsOf: asOf, MaxResults: i64(50)})
	if !slices.Contains(names(res), "Standard_HB120rs_v3") {
		t.Errorf("HB120rs_v3 missing at 448 GiB: %v", names(res))
	}
}

// TestPricePerCoreUsesActiveCores: for hpc without cores the cost is the
// price of the hpc_bound throughput the VM delivers on the cores it can
// use. A constrained-core size costs what its parent does (catalog
// decision D46): bound by compute, its FP64 peak counts its active cores
// only, so it costs more per GFLOPS and ranks after the parent; bound by
// memory bandwidth (the hpc default), it keeps the parent's STREAM
// bandwidth at the parent's price, the case such sizes are offered for,
// and scores the same.
func TestPricePerCoreUsesActiveCores(t *testing.T) {
	cat := testCatalog(t)
	c16 := mustLookupSKU(t, cat, "Standard_HB120-16rs_v3")
	if *c16.VCPUs != 16 || *c16.QuotaVCPUs != 120 {
		t.Fatalf("HB120-16rs_v3: vCPUs %d, quota vCPUs %d", *c16.VCPUs, *c16.QuotaVCPUs)
	}
	res := mustRecommend(t, Request{Workload: "hpc", HPCBound: BoundCompute, Region: "eastus", AsOf: asOf, MaxResults: i64(50)})
	rank := map[string]int64{}
	for _, r := range res.Recommendations {
		rank[r.VMSize] = r.Rank
		// The eastus price over the active cores: 3.6 USD/h over 16 is
		// 0.2250 for the 16-core size, over 120 0.0300 for its parent.
		if r.VMSize == "Standard_HB120-16rs_v3" || r.VMSize == "Standard_HB120rs_v3" {
			if want := fmt.Sprintf("%.4f USD per vCPU-hour.", r.SKU.Prices["eastus"].USDPerHour/float64(*r.SKU.VCPUs)); !slices.Contains(r.Reasons, want) {
				t.Errorf("%s reasons %q, want %q", r.VMSize, r.Reasons, want)
			}
		}
	}
	if rank["Standard_HB120rs_v3"] == 0 || rank["Standard_HB120-16rs_v3"] == 0 || rank["Standard_HB120-16rs_v3"] < rank["Standard_HB120rs_v3"] {
		t.Errorf("ranks %v: the 16-core size must come after its parent", rank)
	}
	// The FP64 peak of HBv3, 4,000 GFLOPS for its 120 cores, scaled to 16:
	// 533.33 GFLOPS, 3.6 / 533.33 = 0.00675 USD per GFLOPS-hour against
	// 0.0009 for the parent.
	for name, want := range map[string]float64{"Standard_HB120rs_v3": 4000, "Standard_HB120-16rs_v3": 533.33} {
		s := mustLookupSKU(t, cat, name)
		if p := s.Performance.CPU; p == nil || p.FP64PeakGFLOPS == nil || math.Abs(*p.FP64PeakGFLOPS-want) > 0.01 {
			t.Errorf("%s: FP64 peak %+v, want %v", name, p, want)
		}
	}

	res = mustRecommend(t, Request{Workload: "hpc", Region: "eastus", AsOf: asOf, MaxResults: i64(50)})
	parent, c16r := byName(res, "Standard_HB120rs_v3"), byName(res, "Standard_HB120-16rs_v3")
	// Bound by memory bandwidth, the 16-core size keeps its parent's memory
	// system but its 16 cores draw less of it: less per VM, more per core
	// ((16 × 3.0 × 3.0)⁻² + 350⁻²)^(−1/2) = 133.17 GB/s against 332.95
	// for 120 cores).
	if parent == nil || c16r == nil || res.Requirements.HPCBound != BoundMemoryBandwidth {
		t.Fatalf("memory bandwidth bound: %+v and %+v, bound %q", parent, c16r, res.Requirements.HPCBound)
	}
	p, c := parent.Estimate, c16r.Estimate
	if p == nil || c == nil || p.RelativeThroughput == nil || c.RelativeThroughput == nil {
		t.Fatalf("memory bandwidth bound: estimates %+v and %+v", p, c)
	}
	if perVM := *c.RelativeThroughput / *p.RelativeThroughput; math.Abs(perVM-133.17/332.95) > 0.001 || perVM*120/16 < 2 {
		t.Errorf("memory bandwidth bound: 16 cores give %.3f of the parent's throughput per VM (%.2f per core), want 0.400 (3.0 per core)", perVM, perVM*120/16)
	}
}

// TestDeployableConstraint: a size no deployable list names
// (Standard_ND128isrG5_GB300_v6, catalog decision D44) is removed under
// deployable, which no setting relaxes; an availability file that lists it
// lets it through.
func TestDeployableConstraint(t *testing.T) {
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 70}, GPUModels: []string{"gb300"}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	if got := names(res); !slices.Contains(got, "Standard_ND128isr_GB300_v6") || slices.Contains(got, "Standard_ND128isrG5_GB300_v6") {
		t.Errorf("sizes %v", got)
	}
	assertRejectedBy(t, testCatalog(t), req, res.Rejected, "deployable", "Standard_ND128isrG5_GB300_v6")
	if r := rejection(res.Rejected, "deployable"); r == nil || !strings.Contains(r.Reason, "cannot be deployed") {
		t.Errorf("deployable rejection %+v", r)
	}
	// The subscription's availability file lists it in westus2: deployable.
	a, err := azureexport.ParseAvailability("mine.json", []byte(`[
		{"name": "Standard_ND128isrG5_GB300_v6", "locations": ["westus2"]},
		{"name": "Standard_ND128isr_GB300_v6", "locations": ["westus2"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cat := overlaid(t, catalog.Overlays{Availability: a.Overlay()})
	req.Region = "westus2"
	res, err = newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(res), "Standard_ND128isrG5_GB300_v6") || rejection(res.Rejected, "deployable") != nil {
		t.Errorf("with the availability file: %v, rejected %+v", names(res), res.Rejected)
	}
}

func mustLookupSKU(t *testing.T, cat *catalog.Catalog, name string) *catalog.SKU {
	t.Helper()
	s, ok := cat.Lookup(name)
	if !ok {
		t.Fatalf("%s not in the catalog", name)
	}
	return s
}
