// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// prepared holds per-size facts derived once per catalog (a catalog is
// immutable; see Engine), so that Recommend does no parsing or map
// iteration per call.
type prepared struct {
	sizes []sizeInfo
}

// sizeInfo is one size with its derived facts.
type sizeInfo struct {
	sku   *catalog.SKU
	index int // position in cat.SKUs()

	known     bool // vCPUs and memory are known
	vcpus     int64
	memGiB    float64
	localDisk float64 // temporary disk + local NVMe, GiB
	accelNet  bool
	isGPU     bool
	gpuCount  float64
	gpuMem    float64 // total GPU memory per VM
	// gpuUnits is the GPUs a model can be split over (1 for a partial
	// GPU, whose slice is one unit); unitMem the usable memory of one: the
	// catalog's usable figure where known, else the nominal (catalog
	// decision on usable memory), and the slice for a partial GPU.
	gpuUnits int64
	unitMem  float64
	linked   bool // two or more GPUs joined by NVLink (or Infinity Fabric)
	// rackVMs is the VMs Azure allocates together for a job that spans
	// VMs (one NVLink rack); 1 for sizes placed one VM at a time.
	rackVMs int64
	// Performance facts (0 where the catalog has none): dense TFLOPS of
	// one whole GPU per precision (indexed as precisions), its memory
	// bandwidth in GB/s, the training MFU of its class; per VM the STREAM
	// bandwidth (GB/s), FP64 rate (GFLOPS: cores x FP64 clock x FP64
	// FLOPs per cycle) and physical cores; per core the all-core clock
	// (GHz) and FP64 rate (GFLOPS).
	tflops     [8]float64
	hbmGBs     float64
	trainMFU   float64
	streamGBs  float64
	fp64GFLOPS float64
	physCores  int64
	coreGHz    float64
	coreFP64   float64
	vendor     string  // lower case
	modelID    string  // lower case
	modelName  string  // lower case
	cc         version // compute capability; ok false for AMD
	minCUDA    version
	maxCUDA    int64
	precisions uint16 // bit set over precisions
	year       int

	retire    time.Time
	hasRetire bool

	// Lowest on-demand and spot prices over all regions, ties broken by
	// region name; n is the number of priced regions.
	minPrice, minSpot             float64
	minPriceRegion, minSpotRegion string
	nPriced                       int
	regions                       []string // sorted priced regions
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
		if s.VCPUs != nil {
			in.vcpus = *s.VCPUs
		}
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
		if s.GPU != nil {
			in.gpuFacts(s)
		}
		in.cpuFacts(s)
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

// gpuFacts derives a GPU size's facts: counts, memory, versions,
// precisions, throughput and the training MFU of its class.
func (in *sizeInfo) gpuFacts(s *catalog.SKU) {
	g := s.GPU
	in.isGPU = true
	in.gpuCount = g.Count
	in.gpuMem = g.MemoryGiBTotal
	in.vendor = strings.ToLower(g.Vendor)
	in.modelID = strings.ToLower(g.ModelID)
	in.modelName = strings.ToLower(g.Model)
	in.cc = parseVersion(g.ComputeCapability)
	in.minCUDA = parseVersion(g.MinCUDA)
	in.maxCUDA = g.MaxCUDAMajor
	for _, pr := range g.Precisions {
		in.precisions |= precisionBit(strings.ToLower(pr))
	}
	if in.known && in.gpuCount <= 0 {
		in.known = false
	}
	in.gpuUnits, in.unitMem = 1, g.MemoryGiB
	if g.Count >= 1 {
		in.gpuUnits = int64(g.Count)
	}
	if p := s.Performance.GPU; p != nil {
		for i, pr := range precisions {
			if v := p.DenseTFLOPS(pr); v != nil {
				in.tflops[i] = *v
			}
		}
		if p.MemoryBandwidthGBs != nil {
			in.hbmGBs = *p.MemoryBandwidthGBs
		}
	}
	in.trainMFU = OtherTrainingMFU
	if p := s.Performance.GPU; p != nil && p.TrainingMFU != nil {
		in.trainMFU = *p.TrainingMFU
	}
	in.rackVMs = 1
	if p := s.Placement; p != nil && p.RackVMs > 1 {
		in.rackVMs = p.RackVMs
	}
	in.linked = s.Performance.GPU != nil && s.Performance.GPU.NVLinkGBsPerGPU != nil && in.gpuUnits > 1
	if p := s.Performance; p.GPU != nil && p.GPU.UsableMemoryGiB != nil {
		u := *p.GPU.UsableMemoryGiB
		if g.Count < 1 {
			u *= g.Count
		}
		in.unitMem = math.Min(in.unitMem, u)
	}
}

// cpuFacts derives the VM's STREAM bandwidth, FP64 rate and cores, and
// the per-core clock and FP64 rate.
func (in *sizeInfo) cpuFacts(s *catalog.SKU) {
	if c := s.Performance.CPU; c != nil {
		if c.StreamGBs != nil {
			in.streamGBs = *c.StreamGBs
		}
		if c.Cores != nil {
			in.physCores = *c.Cores
		}
		if c.CoreGHz != nil {
			in.coreGHz = *c.CoreGHz
		}
		in.coreFP64 = c.FP64GFLOPS(1)
		in.fp64GFLOPS = c.FP64GFLOPS(float64(in.physCores))
	}
}

// priceFacts derives the lowest on-demand and spot prices over all regions
// (ties broken by region name) and the sorted priced regions.
func (in *sizeInfo) priceFacts(s *catalog.SKU) {
	for region, pr := range s.Prices {
		in.regions = append(in.regions, region)
		if in.nPriced == 0 || pr.USDPerHour < in.minPrice || (pr.USDPerHour == in.minPrice && region < in.minPriceRegion) {
			in.minPrice, in.minPriceRegion = pr.USDPerHour, region
		}
		in.nPriced++
		if pr.SpotUSDPerHour != nil {
			sp := *pr.SpotUSDPerHour
			if in.minSpotRegion == "" || sp < in.minSpot || (sp == in.minSpot && region < in.minSpotRegion) {
				in.minSpot, in.minSpotRegion = sp, region
			}
		}
	}
	sort.Strings(in.regions)
}

func precisionBit(p string) uint16 {
	for i, x := range precisions {
		if x == p {
			return 1 << uint(i)
		}
	}
	return 0
}

// nativePrecision reports whether the GPU runs the model's precision
// natively. Integer weights (int8, int4) are usually dequantized to fp16 or
// bf16 by weight-only kernels, so fp16 support is enough for them.
func (in *sizeInfo) nativePrecision(precision string) bool {
	if !in.isGPU {
		return true
	}
	if in.precisions&precisionBit(precision) != 0 {
		return true
	}
	switch precision {
	case PrecisionFP32:
		return true
	case PrecisionINT8, PrecisionINT4:
		return in.precisions&(precisionBit(PrecisionFP16)|precisionBit(PrecisionBF16)) != 0
	}
	return false
}
