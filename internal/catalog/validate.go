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

func validDate(s string) bool {
	_, err := time.Parse(DateLayout, s)
	return err == nil
}

// validate checks the invariants every catalog must hold.
func (c *Catalog) validate() []error {
	var errs []error
	add := func(name, format string, a ...any) {
		errs = append(errs, fmt.Errorf("size %s: %s", name, fmt.Sprintf(format, a...)))
	}
	if c.Version == "" || c.DataDate.IsZero() {
		errs = append(errs, errors.New("catalog: version and data_date are required"))
	}
	for _, g := range c.gpuModels {
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
	}
	for _, sr := range c.series {
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
	}
	for _, s := range c.skus {
		if !sizeNameRE.MatchString(s.Name) {
			add(s.Name, "the name must look like Standard_<size>")
		}
		if len(s.Sources) == 0 {
			add(s.Name, "no sources")
		}
		if s.Arch != "x86_64" && s.Arch != "arm64" {
			add(s.Name, "arch %q must be x86_64 or arm64", s.Arch)
		}
		if s.VCPUs != nil && *s.VCPUs <= 0 {
			add(s.Name, "vcpus must be positive")
		}
		if s.MemoryGiB != nil && *s.MemoryGiB <= 0 {
			add(s.Name, "memory_gib must be positive")
		}
		if s.MemoryGiBAllotted != nil && !(*s.MemoryGiBAllotted > 0) {
			add(s.Name, "memory_gib_allotted must be positive")
		}
		if s.QuotaVCPUs != nil && (*s.QuotaVCPUs <= 0 || (s.VCPUs != nil && *s.QuotaVCPUs < *s.VCPUs)) {
			add(s.Name, "quota_vcpus must be positive and at least vcpus (quota counts the parent size's vCPUs)")
		}
		if (s.Category == CategoryGPU) != (s.GPU != nil) {
			add(s.Name, "category %q and GPU presence disagree", s.Category)
		}
		if s.GPU != nil && s.VCPUs != nil && s.GPU.Count <= 0 {
			add(s.Name, "a GPU size with known specs needs a positive GPU count")
		}
		if s.Network.RDMA && s.Network.InfiniBand == "" {
			add(s.Name, "RDMA sizes need an InfiniBand generation")
		}
		if !s.Network.RDMA && s.Network.InfiniBand != "" {
			add(s.Name, "InfiniBand %s is set but rdma is false", s.Network.InfiniBand)
		}
		if s.Network.InfiniBand != "" && !slices.Contains([]string{"FDR", "EDR", "HDR", "NDR", "XDR"}, s.Network.InfiniBand) {
			add(s.Name, "InfiniBand generation %q is not one of FDR, EDR, HDR, NDR, XDR", s.Network.InfiniBand)
		}
		for _, g := range s.HyperVGenerations {
			if g != "1" && g != "2" {
				add(s.Name, "Hyper-V generation %q must be 1 or 2", g)
			}
		}
		lc := s.Lifecycle
		if !slices.Contains(Statuses(), lc.Status) {
			add(s.Name, "lifecycle status %q is not one of %s", lc.Status, strings.Join(Statuses(), ", "))
		}
		for _, d := range []string{lc.AnnouncedDate, lc.RetirementDate} {
			if d != "" && !validDate(d) {
				add(s.Name, "date %q is not YYYY-MM-DD", d)
			}
		}
		if (lc.Status == StatusRetired || lc.Status == StatusRetiring) && lc.RetirementDate == "" {
			add(s.Name, "status %s needs a retirement date", lc.Status)
		}
		if lc.Status == StatusRetired {
			if t, err := time.Parse(DateLayout, lc.RetirementDate); err == nil && !t.Before(c.DataDate) {
				add(s.Name, "retired, but its retirement date %s is not before the data date", lc.RetirementDate)
			}
			if len(lc.ReplacementSizes) == 0 && len(lc.ReplacementSeries) == 0 {
				add(s.Name, "retired sizes need a replacement")
			}
		}
		for region, p := range s.Prices {
			if !(p.USDPerHour > 0) {
				add(s.Name, "price in %s must be positive", region)
			}
			if p.SpotUSDPerHour != nil && !(*p.SpotUSDPerHour > 0) {
				add(s.Name, "spot price in %s must be positive", region)
			}
		}
	}
	return errs
}
