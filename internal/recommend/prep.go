// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// prepared holds per-size facts derived once per catalog (a catalog is
// immutable; see Engine), so that Recommend does no parsing or map
// iteration per call.
type prepared struct {
	sizes []sizeInfo
}

// sizeInfo is one size with its derived facts: what the performance
// models read of it (perfmodel.Hardware), and what the constraints and
// the ranking compare.
type sizeInfo struct {
	perfmodel.Hardware
	sku   *catalog.SKU
	index int // position in cat.SKUs()

	known     bool // vCPUs and memory are known
	memGiB    float64
	localDisk float64 // temporary disk + local NVMe, GiB
	accelNet  bool
	gpuMem    float64 // total GPU memory per VM
	// rackVMs is the VMs Azure allocates together for a job that spans
	// VMs (one NVLink rack); 1 for sizes placed one VM at a time.
	rackVMs int64
	// maxJobVMs is the most VMs one InfiniBand job of the size may span
	// (catalog SKU.MaxJobVMs: its series' placement, else one scale set's
	// single placement group).
	maxJobVMs int64
	vendor    string  // lower case
	modelID   string  // lower case
	modelName string  // lower case
	cc        version // compute capability; ok false for AMD
	minCUDA   version
	maxCUDA   int64
	year      int

	retire    time.Time
	hasRetire bool

	nPriced int      // the number of priced regions
	regions []string // sorted priced regions
	// The best of the priced regions (bestRegion without a quota), on
	// demand and on Spot; "" without a price. bestPrice and bestSpotPrice
	// are their prices, read once here rather than from the map for each
	// request.
	bestRegion, bestSpotRegion string
	bestPrice, bestSpotPrice   *catalog.Price
}

// price is the size's price in region: one the catalog has (ok false
// where it has none).
func (in *sizeInfo) price(region string) (p *catalog.Price, ok bool) {
	switch region {
	case "":
		return nil, false
	case in.bestRegion:
		return in.bestPrice, true
	case in.bestSpotRegion:
		return in.bestSpotPrice, true
	}
	if v, ok := in.sku.Prices[region]; ok {
		return &v, true
	}
	return nil, false
}

// version is a parsed "major.minor" number.
type version struct {
	major, minor int
	ok           bool
}

func (v version) less(o version) bool {
	return v.major < o.major || (v.major == o.major && v.minor < o.minor)
}

func (v version) String() string {
	return strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor)
}

// parseVersion parses "12", "12.0" or "12.0.1" (the patch is ignored).
func parseVersion(s string) version {
	s = strings.TrimSpace(s)
	if s == "" {
		return version{}
	}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return version{}
	}
	var nums [2]int
	for i, p := range parts {
		if p == "" || len(p) > 4 {
			return version{}
		}
		for _, r := range p {
			if r < '0' || r > '9' {
				return version{}
			}
		}
		if i < 2 {
			n, _ := strconv.Atoi(p)
			nums[i] = n
		}
	}
	return version{major: nums[0], minor: nums[1], ok: true}
}

// prepare derives every size's facts; NewEngine calls it once per catalog.
func prepare(cat *catalog.Catalog) *prepared {
	skus := cat.SKUs()
	p := &prepared{sizes: make([]sizeInfo, len(skus))}
	for i, s := range skus {
		in := &p.sizes[i]
		in.sku, in.index = s, i
		in.known = s.VCPUs != nil && s.MemoryGiB != nil
		in.Hardware = perfmodel.HardwareOf(s)
		// Memory fit counts on the smaller of the documented and the
		// allotted memory (catalog decision D45).
		if m := s.FitMemoryGiB(); m != nil {
			in.memGiB = *m
		}
		if s.TempDiskGiB != nil {
			in.localDisk += float64(*s.TempDiskGiB)
		}
		if s.LocalNVMeGiB != nil {
			in.localDisk += float64(*s.LocalNVMeGiB)
		}
		in.accelNet = s.Network.AcceleratedNetworking != nil && *s.Network.AcceleratedNetworking
		in.maxJobVMs = s.MaxJobVMs()
		if s.GPU != nil {
			in.gpuFacts(s)
		}
		in.year = DefaultGenerationYear
		if s.SeriesYear > 0 {
			in.year = s.SeriesYear
		} else if s.GPU != nil && s.GPU.ArchitectureYear > 0 {
			in.year = s.GPU.ArchitectureYear
		}
		in.retire, in.hasRetire = s.RetirementTime()
		in.priceFacts(s)
	}
	return p
}

// gpuFacts derives what the constraints compare of a GPU size: memory,
// vendor and model, versions, and how Azure places its VMs.
func (in *sizeInfo) gpuFacts(s *catalog.SKU) {
	g := s.GPU
	in.gpuMem = g.MemoryGiBTotal
	in.vendor = strings.ToLower(g.Vendor)
	in.modelID = strings.ToLower(g.ModelID)
	in.modelName = strings.ToLower(g.Model)
	in.cc = parseVersion(g.ComputeCapability)
	in.minCUDA = parseVersion(g.MinCUDA)
	in.maxCUDA = g.MaxCUDAMajor
	if in.known && in.GPUCount <= 0 {
		in.known = false
	}
	in.rackVMs = 1
	if p := s.Placement; p != nil && p.RackVMs > 1 {
		in.rackVMs = p.RackVMs
	}
}

// priceFacts derives the sorted priced regions and the best of them, on
// demand and on Spot, which the availability file (of the catalog) and the
// prices decide alike for every request without usage files.
func (in *sizeInfo) priceFacts(s *catalog.SKU) {
	for region := range s.Prices {
		in.regions = append(in.regions, region)
	}
	in.nPriced = len(in.regions)
	sort.Strings(in.regions)
	in.bestRegion = bestRegion(s, in.regions, false, false, nil)
	in.bestSpotRegion = bestRegion(s, in.regions, true, false, nil)
	in.bestPrice, in.bestSpotPrice = priceOf(s, in.bestRegion), priceOf(s, in.bestSpotRegion)
}

// priceOf is a copy of the size's price in region, nil where it has none.
func priceOf(s *catalog.SKU, region string) *catalog.Price {
	if p, ok := s.Prices[region]; ok && region != "" {
		return &p
	}
	return nil
}
