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

// Every constraint is described in full by its table entry: a unique name,
// a reason, and a check unless layout or scaleUp finds it; those without
// relax are the ones a nearest miss may not fail.
func TestConstraintTable(t *testing.T) {
	names := map[string]bool{}
	var unchecked, fixed []string
	for c := constraint(0); c < numConstraints; c++ {
		d := constraintTable[c]
		if d.name == "" || names[d.name] {
			t.Errorf("constraint %d: name %q empty or repeated", c, d.name)
		}
		names[d.name] = true
		if d.reason == nil {
			t.Errorf("%s: no reason", d.name)
		}
		if d.fails == nil {
			unchecked = append(unchecked, d.name)
		}
		if (d.fails != nil) != (d.decidedBy == stageCheck) {
			t.Errorf("%s: decided by %s, with a check %t", d.name, d.decidedBy, d.fails != nil)
		}
		if d.relax == nil {
			fixed = append(fixed, d.name)
		}
		if notRelaxable&(1<<c) != 0 != (d.relax == nil) {
			t.Errorf("%s: notRelaxable disagrees with relax", d.name)
		}
	}
	// gpu_memory_per_gpu is found by the per-GPU fit, with gpu_memory;
	// deadline and tokens_per_second by the throughput model, as layout
	// scales a job out for time or a service out for throughput; the
	// latency targets by the layout search of a service.
	if want := []string{"gpu_memory", "gpu_memory_per_gpu", "gpus", "cores", "system_memory", "deadline", "tokens_per_second", "max_time_to_first_token_ms", "max_time_per_output_token_ms", "nodes", "max_nodes", "scale_up"}; !slices.Equal(unchecked, want) {
		t.Errorf("constraints found by layout or scaleUp = %v, want %v", unchecked, want)
	}
	// In evaluation order. precision is relaxable (train in a precision
	// the GPU runs), so is gpu_memory_per_gpu (a smaller batch, fewer
	// requests, LoRA, or larger GPUs), and so are deadline (a later one)
	// and tokens_per_second (a lower one).
	if want := []string{"workload", "unknown_specs", "retired", "deployable", "scale_up"}; !slices.Equal(fixed, want) {
		t.Errorf("constraints a user cannot relax = %v, want %v", fixed, want)
	}
	// The order is the table's; what a reader expects of it is that a size
	// is counted under the first reason in this sequence of groups: the
	// request itself, what the size is (its GPU's facts), whether it holds
	// the job (in total, per GPU, in time), where it runs (a retired size
	// runs nowhere, so retirement comes before the target), its lifecycle,
	// the price caps, the rest, and scale_up last. The order within a
	// group is the table's alone.
	groups := [][]string{
		{"workload", "unknown_specs"},
		{"gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "precision"},
		{"gpu_memory", "gpu_memory_per_gpu", "gpus", "cores", "system_memory", "deadline", "tokens_per_second", "max_time_to_first_token_ms", "max_time_per_output_token_ms", "nodes", "max_nodes"},
		{"interconnect", "region", "availability", "quota", "retired", "target"},
		{"min_lifetime_months", "preview", "on_request", "deployable"},
		{"max_price_per_hour", "max_total_price_per_hour"},
		{"confidential", "isolated", "min_vcpus", "min_memory_gib", "min_local_disk_gib"},
		{"scale_up"},
	}
	group := map[string]int{}
	for i, g := range groups {
		for _, name := range g {
			group[name] = i
		}
	}
	last := 0
	for _, name := range Constraints() {
		g, ok := group[name]
		switch {
		case !ok:
			t.Errorf("%s: in no group of the expected order; add it to the group it belongs to", name)
		case g < last:
			t.Errorf("%s (group %d) comes after a constraint of group %d", name, g, last)
		default:
			last = g
		}
	}
	if len(group) != len(Constraints()) {
		t.Errorf("the groups name %d constraints, the table has %d", len(group), len(Constraints()))
	}
}

// A request checks only the constraints it sets (plus those always on).
func TestActiveChecks(t *testing.T) {
	cat := testCatalog(t)
	active := func(req Request) []string {
		var out []string
		m := activeChecks(deriveRequirements(cat, req))
		for c := constraint(0); c < numConstraints; c++ {
			if m&(1<<c) != 0 {
				out = append(out, c.String())
			}
		}
		return out
	}
	always := []string{"workload", "unknown_specs", "interconnect", "retired", "target", "min_lifetime_months", "preview", "on_request", "deployable", "confidential"}
	if got := active(Request{Workload: WorkloadTraining}); !slices.Equal(got, always) {
		t.Errorf("training with no settings checks %v, want %v", got, always)
	}
	// precision: a model trained, fine-tuned or served on GPU sizes; not
	// a small model (CPU) or a job without a model.
	withPrecision := slices.Insert(slices.Clone(always), 2, "precision")
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}},
		{Workload: WorkloadFineTuning, Model: &Model{Name: "llama-3.1-8b"}, FineTuningMethod: MethodQLoRA},
		{Workload: WorkloadInference, Model: &Model{ParametersBillion: 7}},
	} {
		if got := active(req); !slices.Equal(got, withPrecision) {
			t.Errorf("%s of a model checks %v, want %v", req.Workload, got, withPrecision)
		}
	}
	for _, req := range []Request{
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 0.1, Class: ClassSmall}},
		{Workload: WorkloadTraining, GPUMemoryGiB: f64(80)},
	} {
		if got := active(req); !slices.Equal(got, always) {
			t.Errorf("%+v checks %v, want %v", req, got, always)
		}
	}
	all := Request{
		Workload: WorkloadTraining, IncludePreview: true, IncludeOnRequest: true, Isolated: boolp(false), GPUVendor: GPUVendorNVIDIA,
		GPUModels: []string{"t4"}, CUDAVersion: "12.0", MinComputeCapability: "7.0", Region: "eastus",
		MinVCPUs: i64(4), MinMemoryGiB: f64(8), MinLocalDiskGiB: f64(100), MaxPricePerHour: f64(5), MaxTotalPricePerHour: f64(9),
	}
	want := []string{"workload", "unknown_specs", "gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability",
		"interconnect", "region", "availability", "retired", "target", "min_lifetime_months", "deployable",
		"max_price_per_hour", "max_total_price_per_hour", "confidential", "isolated", "min_vcpus", "min_memory_gib", "min_local_disk_gib"}
	if got := active(all); !slices.Equal(got, want) {
		t.Errorf("a request setting every filter checks %v\nwant %v", got, want)
	}
}

// A retired size named in prefer is skipped because it is retired under
// every target, including the targets that do not support it: the target
// does not hide the retirement a plain VM request reports.
func TestPreferredRetiredSizeNamesRetirement(t *testing.T) {
	cat := testCatalog(t)
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf}
	checked := 0
	for _, s := range cat.SKUs() {
		if !s.RetiredAt(asOf) || rejectedBy(t, cat, req, s.Name) != "retired" {
			continue
		}
		for _, target := range Targets() {
			r := req
			r.Target = target
			if got := rejectedBy(t, cat, r, s.Name); got != "retired" {
				t.Errorf("%s on target %s: counted under %q, not retired", s.Name, target, got)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no retired size is skipped for its retirement alone")
	}
}

// Weights at a precision the GPU does not compute need the serving
// engines' weight-only kernels: gpt-oss-20b's MXFP4 experts run on Ampere
// (compute capability 8.0) and newer, so no T4 (7.5) or V100 (7.0) size
// serves it, and they are counted under precision; in bf16 a T4 serves it.
func TestServedPrecisionNeedsAKernel(t *testing.T) {
	cat := testCatalog(t)
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "gpt-oss-20b"}, AsOf: asOf, MaxResults: i64(MaxResultsLimit)}
	res := mustRecommendOn(t, cat, req)
	for _, r := range res.Recommendations {
		if h := perfmodel.HardwareOf(r.SKU); h.IsGPU && !h.AMD && h.CC < 80 {
			t.Errorf("%s (compute capability %d) serves MXFP4 weights", r.VMSize, h.CC)
		}
	}
	if got := rejectedBy(t, cat, req, "Standard_NC4as_T4_v3"); got != "precision" {
		t.Errorf("NC4as_T4_v3 counted under %q, want precision", got)
	}
	req.Model.Precision = PrecisionBF16
	if got := rejectedBy(t, cat, req, "Standard_NC4as_T4_v3"); got == "precision" {
		t.Error("a T4 serves bf16 weights (as fp16)")
	}
}

// A size priced elsewhere than the request's region: the nearest miss
// names the regions where it costs least, cheapest first, not the first
// in the alphabet.
func TestRelaxRegionNamesTheCheapestRegions(t *testing.T) {
	p := prepare(testCatalog(t))
	for i := range p.sizes {
		in := &p.sizes[i]
		if len(in.regions) < 4 {
			continue
		}
		got := relaxRegion(nil, &eval{in: in})
		first := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(got, "choose a region where it is priced, such as "))[0], ",")
		cheapest := math.Inf(1)
		for _, pr := range in.sku.Prices {
			cheapest = min(cheapest, pr.USDPerHour)
		}
		if p := in.sku.Prices[first].USDPerHour; p != cheapest {
			t.Errorf("%s: %q names %s at %v USD/h first; its cheapest is %v", in.sku.Name, got, first, p, cheapest)
		}
	}
}
