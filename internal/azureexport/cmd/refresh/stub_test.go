// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
)

// TestStub: a proposed entry carries what the export reports and marks
// what must come from the documentation: the series, sources, the
// InfiniBand generation of an RDMA size and the GPU of an N-family size,
// whose count the API is known to get wrong.
func TestStub(t *testing.T) {
	a, err := azureexport.ParseAvailability("skus.json", []byte(`[
		{"name": "Standard_NX8_v1", "locations": ["eastus"], "capabilities": [{"name": "vCPUs", "value": "8"},
			{"name": "MemoryGB", "value": "56"}, {"name": "RdmaEnabled", "value": "True"}, {"name": "GPUs", "value": "1"}]},
		{"name": "Standard_HX4_v1", "locations": ["eastus"], "capabilities": [{"name": "CpuArchitectureType", "value": "Arm64"},
			{"name": "HyperVGenerations", "value": "V2"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	nx, _ := a.Lookup("Standard_NX8_v1")
	d := stub(nx)
	if d.Name != "Standard_NX8_v1" || *d.VCPUs != 8 || *d.MemoryGiB != 56 || d.Arch != "x86_64" || d.HyperVGenerations == nil ||
		!strings.HasPrefix(d.Series, "TODO") || len(d.Sources) != 1 || !strings.HasPrefix(d.Sources[0], "TODO") ||
		!strings.Contains(d.Notes, "8 vCPUs, 56 GiB memory, 1 GPU reported") {
		t.Errorf("NX8_v1 stub %+v", d)
	}
	if !d.Network.RDMA || d.Network.InfiniBand == nil || !strings.HasPrefix(d.Network.InfiniBand.Generation, "TODO") {
		t.Errorf("NX8_v1 network %+v", d.Network)
	}
	if d.GPU == nil || d.GPU.Count != "TODO" || !strings.HasPrefix(d.GPU.Model, "TODO") {
		t.Errorf("NX8_v1 GPU %+v", d.GPU)
	}
	hx, _ := a.Lookup("Standard_HX4_v1")
	d = stub(hx)
	if d.Arch != "arm64" || !slices.Equal(d.HyperVGenerations, []string{"2"}) || d.GPU != nil || d.Network.RDMA || d.VCPUs != nil {
		t.Errorf("HX4_v1 stub %+v", d)
	}
}
