// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file checks the invariants every joined catalog must hold.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

var sizeNameRE = regexp.MustCompile(`^Standard_[A-Za-z0-9_-]+$`)

// ncclEnvRE is the form of a series' nccl_env key: an NCCL or UCX
// environment variable.
var ncclEnvRE = regexp.MustCompile(`^(NCCL|UCX)_[A-Z0-9_]+$`)

func validDate(s string) bool {
	_, err := time.Parse(DateLayout, s)
	return err == nil
}

// validate checks the invariants every catalog must hold. Errors come in a
// fixed order: the catalog's own fields, then GPU models, series and sizes.
func (c *Catalog) validate() []error {
	var errs []error
	if c.Version == "" || c.DataDate.IsZero() {
		errs = append(errs, errors.New("catalog: version and data_date are required"))
	}
	for _, g := range c.gpuModels {
		errs = append(errs, validateGPUModel(g)...)
	}
	for _, sr := range c.series {
		errs = append(errs, validateSeries(sr)...)
	}
	for _, s := range c.skus {
		errs = append(errs, c.validateSize(s)...)
	}
	return errs
}

// validateGPUModel checks a GPU model's vendor, the toolkit facts its vendor
// needs, and its sources.
func validateGPUModel(g GPUModelDoc) []error {
	var errs []error
	if !slices.Contains(Vendors(), g.Vendor) {
		errs = append(errs, fmt.Errorf("GPU model %s: vendor %q is not one of %s", g.ID, g.Vendor, strings.Join(Vendors(), ", ")))
	}
	if g.Vendor == VendorNVIDIA && (g.ComputeCapability == "" || g.MinCUDA == "" || g.MaxCUDAMajor == 0) {
		errs = append(errs, fmt.Errorf("GPU model %s: NVIDIA models need compute_capability, min_cuda and max_cuda_major", g.ID))
	}
	if g.Vendor == VendorAMD && g.GfxTarget == "" {
		errs = append(errs, fmt.Errorf("GPU model %s: AMD models need gfx_target", g.ID))
	}
	if len(g.Sources) == 0 {
		errs = append(errs, fmt.Errorf("GPU model %s: no sources", g.ID))
	}
	return errs
}

// validateSeries checks a series' category, its support statuses and its
// sources.
func validateSeries(sr SeriesDoc) []error {
	var errs []error
	if !slices.Contains(Categories(), sr.Category) {
		errs = append(errs, fmt.Errorf("series %s: category %q is not one of %s", sr.Name, sr.Category, strings.Join(Categories(), ", ")))
	}
	for _, e := range []SupportEntryDoc{sr.Support.AKS, sr.Support.AzureML, sr.Support.CycleCloud, sr.Support.Batch} {
		if !slices.Contains(SupportStatuses(), e.Status) {
			errs = append(errs, fmt.Errorf("series %s: support status %q is not one of %s", sr.Name, e.Status, strings.Join(SupportStatuses(), ", ")))
		}
	}
	if len(sr.Sources) == 0 {
		errs = append(errs, fmt.Errorf("series %s: no sources", sr.Name))
	}
	if (len(sr.NCCLEnv) > 0) != (len(sr.NCCLEnvSources) > 0) {
		errs = append(errs, fmt.Errorf("series %s: nccl_env and nccl_env_sources go together", sr.Name))
	}
	for k := range sr.NCCLEnv {
		if !ncclEnvRE.MatchString(k) {
			errs = append(errs, fmt.Errorf("series %s: nccl_env key %q is not an NCCL_ or UCX_ environment variable", sr.Name, k))
		}
	}
	if sr.NoNodeAutoProvisioning != (len(sr.NodeAutoProvisioningSources) > 0) {
		errs = append(errs, fmt.Errorf("series %s: no_node_auto_provisioning and node_auto_provisioning_sources go together", sr.Name))
	}
	errs = append(errs, mpiJobVMsProblems(sr)...)
	if p := sr.Placement; p != nil && (p.RackVMs < 1 || p.HighSpeedInterconnectPlacement == "" || p.APIVersion == "" || len(p.Sources) == 0) {
		errs = append(errs, fmt.Errorf("series %s: placement needs rack_vms of at least 1, high_speed_interconnect_placement, api_version and sources", sr.Name))
	}
	if p := sr.Placement; p != nil && p.MaxJobVMs != 0 && (p.MaxJobVMs < p.RackVMs || p.RackVMs > 0 && p.MaxJobVMs%p.RackVMs != 0) {
		errs = append(errs, fmt.Errorf("series %s: placement.max_job_vms %d must be whole racks of %d VMs", sr.Name, p.MaxJobVMs, p.RackVMs))
	}
	return errs
}

// mpiJobVMsProblems checks a series' stated MPI job size: at least one VM,
// with its sources, and not beside a placement record's span, which would
// leave two spans for one series.
func mpiJobVMsProblems(sr SeriesDoc) []error {
	var errs []error
	if sr.MaxMPIJobVMs < 0 {
		errs = append(errs, fmt.Errorf("series %s: max_mpi_job_vms %d must be at least 1 VM", sr.Name, sr.MaxMPIJobVMs))
	}
	if (sr.MaxMPIJobVMs != 0) != (len(sr.MaxMPIJobVMsSources) > 0) {
		errs = append(errs, fmt.Errorf("series %s: max_mpi_job_vms and max_mpi_job_vms_sources go together", sr.Name))
	}
	if p := sr.Placement; p != nil && p.MaxJobVMs != 0 && sr.MaxMPIJobVMs != 0 {
		errs = append(errs, fmt.Errorf("series %s: max_mpi_job_vms and placement.max_job_vms both give the series' InfiniBand span: keep one", sr.Name))
	}
	return errs
}

// validateSize checks one joined size: its specs, network, Hyper-V
// generations, lifecycle and prices, in that order, each problem named
// with the size.
func (c *Catalog) validateSize(s *SKU) []error {
	var problems []string
	problems = append(problems, sizeSpecProblems(s)...)
	problems = append(problems, sizeNetworkProblems(s.Network)...)
	problems = append(problems, hyperVProblems(s.HyperVGenerations)...)
	problems = append(problems, lifecycleProblems(s.Lifecycle, c.DataDate)...)
	problems = append(problems, priceProblems(s.Prices)...)
	var errs []error
	for _, p := range problems {
		errs = append(errs, fmt.Errorf("size %s: %s", s.Name, p))
	}
	return errs
}

// sizeSpecProblems checks a size's name, sources, architecture, vCPU and
// memory figures, and that its category agrees with its GPU.
func sizeSpecProblems(s *SKU) []string {
	var p []string
	if !sizeNameRE.MatchString(s.Name) {
		p = append(p, "the name must look like Standard_<size>")
	}
	if len(s.Sources) == 0 {
		p = append(p, "no sources")
	}
	if s.Arch != "x86_64" && s.Arch != "arm64" {
		p = append(p, fmt.Sprintf("arch %q must be x86_64 or arm64", s.Arch))
	}
	if s.VCPUs != nil && *s.VCPUs <= 0 {
		p = append(p, "vcpus must be positive")
	}
	if s.MemoryGiB != nil && *s.MemoryGiB <= 0 {
		p = append(p, "memory_gib must be positive")
	}
	if s.MemoryGiBAllotted != nil && !(*s.MemoryGiBAllotted > 0) {
		p = append(p, "memory_gib_allotted must be positive")
	}
	if s.QuotaVCPUs != nil && (*s.QuotaVCPUs <= 0 || (s.VCPUs != nil && *s.QuotaVCPUs < *s.VCPUs)) {
		p = append(p, "quota_vcpus must be positive and at least vcpus (quota counts the parent size's vCPUs)")
	}
	if (s.Category == CategoryGPU) != (s.GPU != nil) {
		p = append(p, fmt.Sprintf("category %q and GPU presence disagree", s.Category))
	}
	if s.GPU != nil && s.VCPUs != nil && s.GPU.Count <= 0 {
		p = append(p, "a GPU size with known specs needs a positive GPU count")
	}
	return p
}

// sizeNetworkProblems checks that RDMA and InfiniBand go together and that
// the InfiniBand generation is a known one.
func sizeNetworkProblems(n Network) []string {
	var p []string
	if n.RDMA && n.InfiniBand == "" {
		p = append(p, "RDMA sizes need an InfiniBand generation")
	}
	if !n.RDMA && n.InfiniBand != "" {
		p = append(p, fmt.Sprintf("InfiniBand %s is set but rdma is false", n.InfiniBand))
	}
	if n.InfiniBand != "" && !slices.Contains([]string{"FDR", "EDR", "HDR", "NDR", "XDR"}, n.InfiniBand) {
		p = append(p, fmt.Sprintf("InfiniBand generation %q is not one of FDR, EDR, HDR, NDR, XDR", n.InfiniBand))
	}
	return p
}

// hyperVProblems checks that every Hyper-V generation is 1 or 2.
func hyperVProblems(generations []string) []string {
	var p []string
	for _, g := range generations {
		if g != "1" && g != "2" {
			p = append(p, fmt.Sprintf("Hyper-V generation %q must be 1 or 2", g))
		}
	}
	return p
}

// lifecycleProblems checks a size's lifecycle status and dates: a retiring
// or retired size needs a retirement date, and a retired one a date before
// the data date and a replacement.
func lifecycleProblems(lc Lifecycle, dataDate time.Time) []string {
	var p []string
	if !slices.Contains(Statuses(), lc.Status) {
		p = append(p, fmt.Sprintf("lifecycle status %q is not one of %s", lc.Status, strings.Join(Statuses(), ", ")))
	}
	for _, d := range []string{lc.AnnouncedDate, lc.RetirementDate, lc.CapacityRestrictedDate} {
		if d != "" && !validDate(d) {
			p = append(p, fmt.Sprintf("date %q is not YYYY-MM-DD", d))
		}
	}
	if (lc.Status == StatusRetired || lc.Status == StatusRetiring) && lc.RetirementDate == "" {
		p = append(p, fmt.Sprintf("status %s needs a retirement date", lc.Status))
	}
	if lc.Status == StatusRetired {
		if t, err := time.Parse(DateLayout, lc.RetirementDate); err == nil && !t.Before(dataDate) {
			p = append(p, fmt.Sprintf("retired, but its retirement date %s is not before the data date", lc.RetirementDate))
		}
		if len(lc.ReplacementSizes) == 0 && len(lc.ReplacementSeries) == 0 {
			p = append(p, "retired sizes need a replacement")
		}
	}
	return p
}

// priceProblems checks that every regional price, and spot price where
// given, is positive.
func priceProblems(prices map[string]Price) []string {
	var p []string
	for region, pr := range prices {
		if !(pr.USDPerHour > 0) {
			p = append(p, fmt.Sprintf("price in %s must be positive", region))
		}
		if pr.SpotUSDPerHour != nil && !(*pr.SpotUSDPerHour > 0) {
			p = append(p, fmt.Sprintf("spot price in %s must be positive", region))
		}
	}
	return p
}
