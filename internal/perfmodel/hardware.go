// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

import (
	"math"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Hardware is what the models read of one VM size: its GPUs (count, the
// units a model splits over, usable memory, NVLink, dense throughput per
// precision, memory bandwidth, training efficiency) and its CPU (vCPUs,
// physical cores, clock, STREAM bandwidth and FP64 rate). A figure the
// catalog does not give is 0.
type Hardware struct {
	IsGPU    bool
	GPUCount float64 // a share for a partial GPU
	// GPUUnits is the GPUs a model can be split over (1 for a partial GPU,
	// whose slice is one unit); UnitMemGiB the usable memory of one: the
	// catalog's usable figure where known, else the nominal (catalog
	// decision on usable memory), and the slice for a partial GPU.
	GPUUnits   int64
	UnitMemGiB float64
	Linked     bool // two or more GPUs joined by NVLink (or Infinity Fabric)
	// LinkGBs is one GPU's bidirectional bandwidth to the others of its
	// VM, GB/s: NVLink's (Infinity Fabric's) where Linked, else PCIeGBs.
	LinkGBs float64
	// TFLOPS is one whole GPU's dense TFLOPS per precision, indexed as
	// Precisions; HBMGBs its memory bandwidth, GB/s; TrainMFU the training
	// MFU of its class (catalog data, else OtherTrainingMFU).
	TFLOPS   [8]float64
	HBMGBs   float64
	TrainMFU float64
	// KindMFU is the training MFU for each model kind timed by samples
	// (the kinds of SampleKindMFU): the catalog's training_mfu_by_kind,
	// else the kind's figure scaled by TrainMFU ÷ TrainingMFU.
	KindMFU    map[string]float64
	Precisions uint16 // bit set over Precisions: the formats the GPU runs natively
	ArchYear   int    // the year the GPU's architecture launched; 0 unknown
	// CC is an NVIDIA GPU's compute capability × 10 (90 for 9.0); 0 for
	// AMD GPUs (AMD) and where the catalog gives none.
	CC  int
	AMD bool
	// Per VM: vCPUs, physical cores, STREAM bandwidth (GB/s) and FP64 rate
	// (GFLOPS: cores × FP64 clock × FP64 FLOPs per cycle); per core the
	// all-core clock (GHz) and FP64 rate (GFLOPS).
	VCPUs      int64
	PhysCores  int64
	StreamGBs  float64
	FP64GFLOPS float64
	CoreGHz    float64
	CoreFP64   float64
}

// MFUFor is the training MFU of a job of the model kind: KindMFU for
// the kinds timed by samples, TrainMFU for the others (language models
// and encoders).
func (h *Hardware) MFUFor(kind string) float64 {
	if kind == "" { // a language model's work (TrainingWork.Kind)
		return h.TrainMFU
	}
	if m, ok := h.KindMFU[kind]; ok {
		return m
	}
	return h.TrainMFU
}

// HardwareOf reads a size's facts from the catalog.
func HardwareOf(s *catalog.SKU) Hardware {
	var h Hardware
	if s.VCPUs != nil {
		h.VCPUs = *s.VCPUs
	}
	if s.GPU != nil {
		h.gpuFacts(s)
	}
	h.cpuFacts(s)
	return h
}

// gpuFacts reads a GPU size's counts, memory, precisions, throughput and
// the training MFU of its class.
func (h *Hardware) gpuFacts(s *catalog.SKU) {
	g := s.GPU
	h.IsGPU = true
	h.GPUCount = g.Count
	h.ArchYear = g.ArchitectureYear
	h.AMD = strings.EqualFold(g.Vendor, catalog.VendorAMD)
	h.CC = computeCapability(g.ComputeCapability)
	for _, pr := range g.Precisions {
		h.Precisions |= precisionBit(strings.ToLower(pr))
	}
	h.GPUUnits, h.UnitMemGiB = 1, g.MemoryGiB
	if g.Count >= 1 {
		h.GPUUnits = int64(g.Count)
	}
	p := s.Performance.GPU
	if p != nil {
		for i, pr := range precisions {
			if v := p.DenseTFLOPS(pr); v != nil {
				h.TFLOPS[i] = *v
			}
		}
		if p.MemoryBandwidthGBs != nil {
			h.HBMGBs = *p.MemoryBandwidthGBs
		}
	}
	h.TrainMFU = OtherTrainingMFU
	if p != nil && p.TrainingMFU != nil {
		h.TrainMFU = *p.TrainingMFU
	}
	h.KindMFU = make(map[string]float64, len(SampleKindMFU))
	for k, m := range SampleKindMFU {
		h.KindMFU[k] = m * h.TrainMFU / TrainingMFU
		if p != nil {
			if v, ok := p.TrainingMFUByKind[k]; ok {
				h.KindMFU[k] = v
			}
		}
	}
	h.Linked = p != nil && p.NVLinkGBsPerGPU != nil && h.GPUUnits > 1
	h.LinkGBs = PCIeGBs
	if h.Linked {
		h.LinkGBs = *p.NVLinkGBsPerGPU
	}
	if p != nil && p.UsableMemoryGiB != nil {
		u := *p.UsableMemoryGiB
		if g.Count < 1 {
			u *= g.Count
		}
		h.UnitMemGiB = math.Min(h.UnitMemGiB, u)
	}
}

// cpuFacts reads the VM's STREAM bandwidth, FP64 rate and cores, and the
// per-core clock and FP64 rate.
func (h *Hardware) cpuFacts(s *catalog.SKU) {
	c := s.Performance.CPU
	if c == nil {
		return
	}
	if c.StreamGBs != nil {
		h.StreamGBs = *c.StreamGBs
	}
	if c.Cores != nil {
		h.PhysCores = *c.Cores
	}
	if c.CoreGHz != nil {
		h.CoreGHz = *c.CoreGHz
	}
	h.CoreFP64 = c.FP64GFLOPS(1)
	h.FP64GFLOPS = c.FP64GFLOPS(float64(h.PhysCores))
}

// PeakTFLOPS is one whole GPU's dense TFLOPS for arithmetic at precision p:
// "" (bf16 or fp16, the larger), int8 (the GPU's INT8 rate, TOPS), or a
// precision the GPU has no figure for (int4, and fp8 or fp4 on a GPU
// without them: the arithmetic in bf16 or fp16). A served model's weights
// compute at GEMMPrecision, its attention at AttentionPrecision
// (GEMMTFLOPS, AttentionTFLOPS). 0 when
// the catalog has no figure.
func (h *Hardware) PeakTFLOPS(p string) float64 {
	// Indexes into precisions: fp32 0, tf32 1, bf16 2, fp16 3, fp8 4, fp4 5, int8 6.
	half := math.Max(h.TFLOPS[2], h.TFLOPS[3])
	i := -1
	switch p {
	case "", PrecisionINT4:
		return half
	case PrecisionFP32:
		i = 0
	case PrecisionTF32:
		i = 1
	case PrecisionBF16:
		i = 2
	case PrecisionFP16:
		i = 3
	case PrecisionFP8:
		i = 4
	case PrecisionFP4:
		i = 5
	case PrecisionINT8:
		i = 6
	}
	if i >= 0 && h.TFLOPS[i] > 0 {
		return h.TFLOPS[i]
	}
	if p == PrecisionFP32 {
		return 0
	}
	return half
}

// computeCapability reads "9.0" as 90; 0 when it does not parse.
func computeCapability(s string) int {
	major, minor, ok := strings.Cut(strings.TrimSpace(s), ".")
	m, err := strconv.Atoi(major)
	if err != nil || m < 0 {
		return 0
	}
	n := 0
	if ok && len(minor) > 0 {
		n, err = strconv.Atoi(minor[:1])
		if err != nil {
			return 0
		}
	}
	return m*10 + n
}
