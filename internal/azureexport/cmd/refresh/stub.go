// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// stub proposes a catalog entry for a size the catalog does not know, from
// what the availability file reports. It is a starting point for a
// maintainer: the series, CPU and GPU model, InfiniBand and sources must
// come from the documentation, and GPU counts from the API are not trusted.
func stub(s *azureexport.AvailableSize) catalog.SKUDoc {
	sp := s.Specs
	d := catalog.SKUDoc{
		Name:              s.Name,
		Series:            "TODO: series name from series.json, or a new series",
		VCPUs:             sp.VCPUs,
		MemoryGiB:         sp.MemoryGiB,
		TempDiskGiB:       sp.TempDiskGiB,
		Arch:              sp.Arch,
		HyperVGenerations: sp.HyperVGenerations,
		PremiumStorage:    sp.PremiumStorage,
		MaxDataDisks:      sp.MaxDataDisks,
		MaxNICs:           sp.MaxNICs,
		Network:           catalog.NetworkDoc{AcceleratedNetworking: sp.AcceleratedNetworking},
		Sources:           []string{"TODO: the size's page in MicrosoftDocs/azure-compute-docs, as repository:path@commit"},
		Notes:             "Proposed from an az vm list-skus export (" + s.Describe() + "); check every fact against the documentation.",
	}
	if d.Arch == "" {
		d.Arch = "x86_64"
	}
	if d.HyperVGenerations == nil {
		d.HyperVGenerations = []string{}
	}
	if sp.RDMA != nil && *sp.RDMA {
		d.Network.RDMA = true
		d.Network.InfiniBand = &catalog.InfiniBandDoc{Generation: "TODO: HDR, NDR or XDR", Text: "TODO"}
	}
	if sp.GPUs != nil || strings.HasPrefix(strings.ToLower(strings.TrimPrefix(s.Name, "Standard_")), "n") {
		// The API's GPU counts are missing or rounded for fractional GPUs:
		// the count comes from the documentation (Notes carry what was reported).
		d.GPU = &catalog.SKUGPUDoc{Count: "TODO", Model: "TODO: GPU model id from gpu_models.json", Interconnect: "TODO"}
	}
	return d
}
