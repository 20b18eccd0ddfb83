// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"slices"
	"testing"
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
		if d.relax == nil {
			fixed = append(fixed, d.name)
		}
		if notRelaxable&(1<<c) != 0 != (d.relax == nil) {
			t.Errorf("%s: notRelaxable disagrees with relax", d.name)
		}
	}
	if want := []string{"gpu_memory", "gpus", "cores", "system_memory", "nodes", "scale_up"}; !slices.Equal(unchecked, want) {
		t.Errorf("constraints found by layout or scaleUp = %v, want %v", unchecked, want)
	}
	if want := []string{"retired", "deployable", "unknown_specs", "workload", "scale_up"}; !slices.Equal(fixed, want) {
		t.Errorf("constraints a user cannot relax = %v, want %v", fixed, want)
	}
	want := []string{"retired", "min_lifetime_months", "preview", "deployable", "unknown_specs", "workload", "confidential", "isolated",
		"gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "target", "region",
		"availability", "min_vcpus", "min_memory_gib", "min_local_disk_gib", "gpu_memory", "gpus", "cores", "system_memory",
		"nodes", "interconnect", "max_price_per_hour", "max_total_price_per_hour", "scale_up"}
	if got := Constraints(); !slices.Equal(got, want) {
		t.Errorf("Constraints() = %v\nwant %v", got, want)
	}
}

// A request checks only the constraints it sets (plus those always on).
func TestActiveChecks(t *testing.T) {
	cat := testCatalog(t)
	active := func(req Request) []string {
		var out []string
		m := normalize(cat, req).checks
		for c := constraint(0); c < numConstraints; c++ {
			if m&(1<<c) != 0 {
				out = append(out, c.String())
			}
		}
		return out
	}
	always := []string{"retired", "min_lifetime_months", "preview", "deployable", "unknown_specs", "workload", "confidential", "target", "interconnect"}
	if got := active(Request{Workload: WorkloadTraining}); !slices.Equal(got, always) {
		t.Errorf("training with no settings checks %v, want %v", got, always)
	}
	all := Request{
		Workload: WorkloadTraining, IncludePreview: true, Isolated: boolp(false), GPUVendor: GPUVendorNVIDIA,
		GPUModels: []string{"t4"}, CUDAVersion: "12.0", MinComputeCapability: "7.0", Region: "eastus",
		MinVCPUs: i64(4), MinMemoryGiB: f64(8), MinLocalDiskGiB: f64(100), MaxPricePerHour: f64(5), MaxTotalPricePerHour: f64(9),
	}
	want := []string{"retired", "min_lifetime_months", "deployable", "unknown_specs", "workload", "confidential", "isolated",
		"gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "target", "region", "availability",
		"min_vcpus", "min_memory_gib", "min_local_disk_gib", "interconnect", "max_price_per_hour", "max_total_price_per_hour"}
	if got := active(all); !slices.Equal(got, want) {
		t.Errorf("a request setting every filter checks %v\nwant %v", got, want)
	}
}
