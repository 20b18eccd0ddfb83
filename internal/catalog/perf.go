// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file holds the performance facts: per GPU model the dense throughput
// at each precision it runs natively, memory bandwidth, NVLink bandwidth and
// the memory the driver exposes; per CPU or HPC series the cores, clocks,
// STREAM bandwidth and FP64 peak of one size. Joining them onto each size
// gives SKU.Performance, scaled to the size.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GPUPerformanceDoc is the throughput of one GPU model, per GPU, as stored.
// Throughput figures are dense (without structured sparsity), in TFLOPS
// (TOPS for int8); null where the GPU has no native path at that precision
// or no source gives the figure.
type GPUPerformanceDoc struct {
	GPUModel           string   `json:"gpu_model"`
	FP64TFLOPS         *float64 `json:"fp64_tflops"`
	FP64TensorTFLOPS   *float64 `json:"fp64_tensor_tflops"`
	FP32TFLOPS         *float64 `json:"fp32_tflops"`
	TF32TFLOPS         *float64 `json:"tf32_tflops"`
	BF16TFLOPS         *float64 `json:"bf16_tflops"`
	FP16TFLOPS         *float64 `json:"fp16_tflops"`
	FP8TFLOPS          *float64 `json:"fp8_tflops"`
	FP4TFLOPS          *float64 `json:"fp4_tflops"`
	INT8TOPS           *float64 `json:"int8_tops"`
	MemoryBandwidthGBs *float64 `json:"memory_bandwidth_gbs"`
	NVLinkGBsPerGPU    *float64 `json:"nvlink_gbs_per_gpu"`
	UsableMemoryGiB    *float64 `json:"usable_memory_gib"`
	// TrainingMFU is the model FLOPs utilization training reaches on the
	// GPU: the share of its dense peak a training job keeps, above 0 and at
	// most 1. Null where no figure is given; the ranking then takes its
	// figure for GPUs without one.
	TrainingMFU *float64 `json:"training_mfu"`
	// TrainingMFUByKind is the same for the model kinds timed by samples
	// (vision, diffusion, speech), keyed by kind: convolutions, small
	// transformers and data loading keep less of the peak than a language
	// model's matrix products. A kind it does not list takes the
	// ranking's figure for the kind.
	TrainingMFUByKind map[string]float64  `json:"training_mfu_by_kind,omitempty"`
	Sources           map[string][]string `json:"sources"`
	Decisions         []string            `json:"decisions,omitempty"`
	Notes             string              `json:"notes,omitempty"`
}

// SeriesPerformanceDoc is the CPU performance of one CPU or HPC series, as
// stored: the figures describe ReferenceSize, and every other size of the
// series is scaled from it (see SKU.Performance).
type SeriesPerformanceDoc struct {
	Series         string `json:"series"`
	CPUModel       string `json:"cpu_model"`
	ReferenceSize  string `json:"reference_size"`
	ThreadsPerCore int64  `json:"threads_per_core"` // vCPUs per physical core: 1, or 2 with hyper-threading
	// Clocks in GHz: base, the single-core maximum boost and the all-core
	// boost Microsoft states.
	BaseGHz     *float64 `json:"base_ghz"`
	MaxBoostGHz *float64 `json:"max_boost_ghz"`
	AllCoreGHz  *float64 `json:"all_core_ghz"`
	// StreamGBs is the STREAM Triad bandwidth of ReferenceSize in GB/s.
	StreamGBs *float64 `json:"stream_gbs"`
	// FP64PeakGFLOPS is a published FP64 peak (HPL Rpeak) for
	// FP64PeakCores cores (default: the cores of ReferenceSize).
	FP64PeakGFLOPS *float64 `json:"fp64_peak_gflops"`
	FP64PeakCores  *int64   `json:"fp64_peak_cores,omitempty"`
	// L3CacheMB is the L3 cache of ReferenceSize in MB, where Microsoft
	// publishes it; a constrained-core size keeps its parent's, so its
	// cores each have more.
	L3CacheMB *float64 `json:"l3_cache_mb,omitempty"`
	// FP64FLOPsPerCycle is the FP64 operations per cycle of one core's
	// vector units. FP64AllCoreGHz is the all-core clock under sustained
	// FP64 vector load (AVX2, AVX-512), where it is below AllCoreGHz;
	// without it the FP64 clock is AllCoreGHz, else MaxBoostGHz. Every
	// FP64 figure the ranking compares is cores x that clock x
	// FP64FLOPsPerCycle (CPUPerformance.FP64GFLOPS); a published peak is
	// kept beside it.
	FP64FLOPsPerCycle *int64   `json:"fp64_flops_per_cycle,omitempty"`
	FP64AllCoreGHz    *float64 `json:"fp64_all_core_ghz,omitempty"`
	// HostMemory is the memory system of the host the series runs on.
	// Where Microsoft publishes no STREAM figure for the series, a size's
	// STREAM bandwidth is derived from it: the size's cores' fair share
	// of the host's peak (see HostMemory.StreamGBs).
	HostMemory *HostMemory         `json:"host_memory,omitempty"`
	Sources    map[string][]string `json:"sources"`
	Decisions  []string            `json:"decisions,omitempty"`
	Notes      string              `json:"notes,omitempty"`
}

// StreamPerPeakBandwidth is the share of a host's peak memory bandwidth
// (sockets x channels x transfer rate x 8 bytes) that STREAM Triad
// reaches: 0.85, fitted as the median over the five host processors with
// both a measured STREAM figure and a known memory system (HB 0.76, HBv2
// and HBv3 0.85, HBv4 and HX 0.85, HC 0.74). H is left out: its 80 GB/s
// is an unlabelled size-table figure, not a STREAM run (0.59 of peak).
// Every derived STREAM figure uses it; TestStreamShareOfPeak prints each
// host's error.
const StreamPerPeakBandwidth = 0.85

// HostMemory is the memory system of a series' host: its sockets, the
// physical cores of each socket, the memory channels of each socket and
// their transfer rate in MT/s.
type HostMemory struct {
	Sockets           int64   `json:"sockets"`
	CoresPerSocket    int64   `json:"cores_per_socket"`
	ChannelsPerSocket int64   `json:"channels_per_socket"`
	MTs               float64 `json:"mts"`
}

// PeakGBs is the host's peak memory bandwidth in GB/s: sockets x
// channels x MT/s x 8 bytes.
func (h *HostMemory) PeakGBs() float64 {
	return float64(h.Sockets*h.ChannelsPerSocket) * h.MTs * 8 / 1000
}

// StreamGBs is the STREAM bandwidth a VM on the given physical cores of
// the host can count on: its cores' fair share of the host's peak times
// StreamPerPeakBandwidth, at most the whole host's.
func (h *HostMemory) StreamGBs(cores float64) float64 {
	hostCores := float64(h.Sockets * h.CoresPerSocket)
	return h.PeakGBs() * StreamPerPeakBandwidth * math.Min(cores, hostCores) / hostCores
}

// Performance holds the throughput facts of a size. A nil field is unknown.
type Performance struct {
	// GPU figures are per GPU of the size's model: a whole GPU's, also for
	// a size with a share of one (multiply by GPU.Count for the VM, see
	// SKU.VMTotal).
	GPU *GPUPerformance
	// CPU figures are per VM, scaled to the size.
	CPU *CPUPerformance
}

// GPUPerformance is the throughput of one GPU of a size. Throughput is
// dense, in TFLOPS (TOPS for int8); nil where the GPU has no native path at
// that precision or no source gives the figure.
type GPUPerformance struct {
	ModelID                                       string
	FP64TFLOPS, FP64TensorTFLOPS, FP32TFLOPS      *float64
	TF32TFLOPS, BF16TFLOPS, FP16TFLOPS, FP8TFLOPS *float64
	FP4TFLOPS, INT8TOPS                           *float64
	MemoryBandwidthGBs                            *float64
	// NVLinkGBsPerGPU is the bidirectional GPU-to-GPU link bandwidth of one
	// GPU (AMD Infinity Fabric on MI300X); nil where the size's GPUs are not
	// linked (PCIe only, or a single GPU).
	NVLinkGBsPerGPU *float64
	// UsableMemoryGiB is the memory the driver reports for the whole GPU,
	// less than the nominal capacity; nil where no source gives it.
	UsableMemoryGiB *float64
	// TrainingMFU is the share of the dense peak a training job keeps on
	// the GPU (model FLOPs utilization); nil where the catalog gives none.
	TrainingMFU *float64
	// TrainingMFUByKind is the same per model kind timed by samples;
	// nil where the catalog gives none.
	TrainingMFUByKind map[string]float64
	// Sources by figure, keyed by the data file's field names
	// ("bf16_tflops", "memory_bandwidth_gbs", ...).
	Sources   map[string][]string
	Decisions []string
	Notes     string
}

// CPUPerformance is the CPU performance of a size, per VM.
type CPUPerformance struct {
	CPUModel string
	// Cores is the physical cores the size runs on: its active cores for a
	// constrained-core size, half its vCPUs with hyper-threading.
	Cores                            *int64
	BaseGHz, MaxBoostGHz, AllCoreGHz *float64
	// StreamGBs is the STREAM Triad memory bandwidth in GB/s. StreamDerived
	// is true when it is derived from the host's memory system because
	// Microsoft publishes no STREAM figure for the series.
	StreamGBs     *float64
	StreamDerived bool
	// FP64PeakGFLOPS is the FP64 peak of the size. FP64PeakDerived is true
	// when it is derived as cores x all-core clock x FP64 operations per
	// cycle because Microsoft publishes no peak for the series.
	FP64PeakGFLOPS  *float64
	FP64PeakDerived bool
	// Per-core facts: CoreGHz is the clock every core runs at together
	// (the all-core clock, else the only stated maximum boost); FP64GHz
	// the clock under FP64 vector load; FP64FLOPsPerCycle the FP64
	// operations per cycle of one core. Nil where unknown.
	CoreGHz, FP64GHz  *float64
	FP64FLOPsPerCycle *int64
	// L3CacheMB is the VM's L3 cache, the parent's for a constrained-core
	// size.
	L3CacheMB *float64
	// Sources by figure ("cores", "clocks", "stream_gbs",
	// "fp64_peak_gflops"): the data file's sources, led by a "scaled: ..." or
	// "derived: ..." sentence where the figure was computed for this size.
	Sources   map[string][]string
	Decisions []string
	Notes     string
}

// gpuFigure names one figure of a GPU performance record.
type gpuFigure struct {
	key       string
	precision string // the precision the figure is for, or ""
	value     *float64
}

func (d *GPUPerformanceDoc) figures() []gpuFigure {
	return []gpuFigure{
		{"fp64_tflops", "fp64", d.FP64TFLOPS},
		{"fp64_tensor_tflops", "fp64", d.FP64TensorTFLOPS},
		{"fp32_tflops", "fp32", d.FP32TFLOPS},
		{"tf32_tflops", "tf32", d.TF32TFLOPS},
		{"bf16_tflops", "bf16", d.BF16TFLOPS},
		{"fp16_tflops", "fp16", d.FP16TFLOPS},
		{"fp8_tflops", "fp8", d.FP8TFLOPS},
		{"fp4_tflops", "fp4", d.FP4TFLOPS},
		{"int8_tops", "int8", d.INT8TOPS},
		{"memory_bandwidth_gbs", "", d.MemoryBandwidthGBs},
		{"nvlink_gbs_per_gpu", "", d.NVLinkGBsPerGPU},
		{"usable_memory_gib", "", d.UsableMemoryGiB},
		{"training_mfu", "", d.TrainingMFU},
	}
}

// DenseTFLOPS returns the dense throughput at a precision ("fp64", "fp32",
// "tf32", "bf16", "fp16", "fp8", "fp4", "int8" in TOPS), or nil.
func (g *GPUPerformance) DenseTFLOPS(precision string) *float64 {
	switch strings.ToLower(precision) {
	case "fp64":
		return g.FP64TFLOPS
	case "fp32":
		return g.FP32TFLOPS
	case "tf32":
		return g.TF32TFLOPS
	case "bf16":
		return g.BF16TFLOPS
	case "fp16":
		return g.FP16TFLOPS
	case "fp8":
		return g.FP8TFLOPS
	case "fp4":
		return g.FP4TFLOPS
	case "int8":
		return g.INT8TOPS
	}
	return nil
}

// VMTotal multiplies a per-GPU figure by the size's GPU count (a fraction
// for a share of a GPU); nil when the figure is unknown or the size has no
// GPUs.
func (s *SKU) VMTotal(perGPU *float64) *float64 {
	if perGPU == nil || s.GPU == nil || s.GPU.Count <= 0 {
		return nil
	}
	v := Round2(*perGPU * s.GPU.Count)
	return &v
}

// GPUPerformance returns the performance record of a GPU model, with the
// model's NVLink figure (sizes drop it where their GPUs are not linked).
func (c *Catalog) GPUPerformance(modelID string) (*GPUPerformance, bool) {
	g, ok := c.perf.gpu[modelID]
	return g, ok
}

// SeriesPerformance returns the stored CPU performance record of a series.
func (c *Catalog) SeriesPerformance(series string) (SeriesPerformanceDoc, bool) {
	p, ok := c.perf.series[series]
	return p, ok
}

// perfTables are the merged performance records.
type perfTables struct {
	gpu    map[string]*GPUPerformance
	series map[string]SeriesPerformanceDoc
}

var seriesPerfSourceKeys = []string{"cpu_model", "cores", "clocks", "stream_gbs", "host_memory", "fp64_peak_gflops", "fp64_flops_per_cycle", "fp64_all_core_ghz", "l3_cache_mb"}

// joinPerformance merges the performance records of the documents (later
// entries replace earlier ones), validates them and sets each size's
// Performance.
func (c *Catalog) joinPerformance(docs []Document, decisions map[string]bool) []error {
	var errs []error
	gpuDocs := map[string]GPUPerformanceDoc{}
	c.perf = perfTables{gpu: map[string]*GPUPerformance{}, series: map[string]SeriesPerformanceDoc{}}
	for _, d := range docs {
		for _, g := range d.GPUPerformance {
			gpuDocs[g.GPUModel] = g
		}
		for _, s := range d.SeriesPerformance {
			c.perf.series[s.Series] = s
		}
	}
	for _, id := range sortedKeys(gpuDocs) {
		d := gpuDocs[id]
		if err := c.checkGPUPerformance(d, decisions); err != nil {
			errs = append(errs, fmt.Errorf("GPU performance %s: %w", id, err))
			continue
		}
		c.perf.gpu[id] = &GPUPerformance{
			ModelID: d.GPUModel, FP64TFLOPS: d.FP64TFLOPS, FP64TensorTFLOPS: d.FP64TensorTFLOPS, FP32TFLOPS: d.FP32TFLOPS,
			TF32TFLOPS: d.TF32TFLOPS, BF16TFLOPS: d.BF16TFLOPS, FP16TFLOPS: d.FP16TFLOPS, FP8TFLOPS: d.FP8TFLOPS,
			FP4TFLOPS: d.FP4TFLOPS, INT8TOPS: d.INT8TOPS, MemoryBandwidthGBs: d.MemoryBandwidthGBs,
			NVLinkGBsPerGPU: d.NVLinkGBsPerGPU, UsableMemoryGiB: d.UsableMemoryGiB, TrainingMFU: d.TrainingMFU,
			TrainingMFUByKind: d.TrainingMFUByKind, Sources: d.Sources, Decisions: d.Decisions, Notes: d.Notes,
		}
	}
	bad := map[string]bool{}
	for _, name := range sortedKeys(c.perf.series) {
		if err := c.checkSeriesPerformance(c.perf.series[name], decisions); err != nil {
			errs = append(errs, fmt.Errorf("series performance %s: %w", name, err))
			bad[name] = true
		}
	}
	for _, s := range c.skus {
		s.Performance = Performance{}
		if s.GPU != nil {
			if g, ok := c.perf.gpu[s.GPU.ModelID]; ok {
				s.Performance.GPU = sizeGPUPerformance(g, s)
			}
		}
		if p, ok := c.perf.series[s.Series]; ok && !bad[s.Series] {
			s.Performance.CPU = c.sizeCPUPerformance(p, s)
		}
	}
	return errs
}

func checkDecisions(ids []string, decisions map[string]bool) error {
	for _, id := range ids {
		if !decisions[id] {
			return fmt.Errorf("decision %q is not defined", id)
		}
	}
	return nil
}

// checkSources requires a non-empty source list for every key in need, and
// allows no keys outside allowed.
func checkSources(sources map[string][]string, need, allowed []string) error {
	for k, list := range sources {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("sources: %q is not a figure (use %s)", k, strings.Join(allowed, ", "))
		}
		if len(list) == 0 {
			return fmt.Errorf("sources: %q has an empty list", k)
		}
		for _, s := range list {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("sources: %q has an empty source", k)
			}
		}
	}
	for _, k := range need {
		if len(sources[k]) == 0 {
			return fmt.Errorf("%s is given without a source (add sources.%s)", k, k)
		}
	}
	return nil
}

func (c *Catalog) checkGPUPerformance(d GPUPerformanceDoc, decisions map[string]bool) error {
	m, ok := c.gpuModels[d.GPUModel]
	if !ok {
		return fmt.Errorf("GPU model %q is not defined", d.GPUModel)
	}
	var keys, need []string
	for _, f := range d.figures() {
		keys = append(keys, f.key)
		if f.value == nil {
			continue
		}
		if !(*f.value > 0) || math.IsInf(*f.value, 0) {
			return fmt.Errorf("%s must be a positive number, got %v", f.key, *f.value)
		}
		need = append(need, f.key)
		// fp64 and fp32 run on every GPU, while the model's precisions list
		// the ones worth computing in; the others must be listed.
		if f.precision != "" && f.precision != "fp64" && f.precision != "fp32" && !slices.Contains(m.Precisions, f.precision) {
			return fmt.Errorf("%s is given, but GPU model %s does not list %s among its precisions (%s)", f.key, m.ID, f.precision, strings.Join(m.Precisions, ", "))
		}
	}
	if d.FP64TFLOPS != nil && d.FP64TensorTFLOPS != nil && *d.FP64TensorTFLOPS < *d.FP64TFLOPS {
		return fmt.Errorf("fp64_tensor_tflops %v is below fp64_tflops %v", *d.FP64TensorTFLOPS, *d.FP64TFLOPS)
	}
	if u := d.TrainingMFU; u != nil && *u > 1 {
		return fmt.Errorf("training_mfu is a share of the dense peak, at most 1, got %v", *u)
	}
	keys = append(keys, "training_mfu_by_kind")
	if len(d.TrainingMFUByKind) > 0 {
		need = append(need, "training_mfu_by_kind")
	}
	for _, k := range sortedKeys(d.TrainingMFUByKind) {
		if !slices.Contains(SampleKinds(), k) {
			return fmt.Errorf("training_mfu_by_kind: %q is not a kind timed by samples (%s)", k, strings.Join(SampleKinds(), ", "))
		}
		if u := d.TrainingMFUByKind[k]; !(u > 0 && u <= 1) {
			return fmt.Errorf("training_mfu_by_kind[%s] is a share of the dense peak, above 0 and at most 1, got %v", k, u)
		}
	}
	if u := d.UsableMemoryGiB; u != nil && m.MemoryGiB > 0 && *u > m.MemoryGiB {
		return fmt.Errorf("usable_memory_gib %v is more than the model's memory_gib %v", *u, m.MemoryGiB)
	}
	if err := checkSources(d.Sources, need, keys); err != nil {
		return err
	}
	return checkDecisions(d.Decisions, decisions)
}

// checkSeriesPerformance checks a series' performance facts: its series
// and reference size, positive figures, consistent clocks and FP64 facts,
// and a source for every figure it gives.
func (c *Catalog) checkSeriesPerformance(d SeriesPerformanceDoc, decisions map[string]bool) error {
	if err := c.checkSeriesReference(d); err != nil {
		return err
	}
	need, err := seriesFigureKeys(d)
	if err != nil {
		return err
	}
	fp64, err := seriesFP64Keys(d)
	if err != nil {
		return err
	}
	if err := checkSources(d.Sources, append(need, fp64...), seriesPerfSourceKeys); err != nil {
		return err
	}
	return checkDecisions(d.Decisions, decisions)
}

// checkSeriesReference checks the series and the reference size the
// figures are published for: a full size of the series whose vCPUs are a
// multiple of threads_per_core.
func (c *Catalog) checkSeriesReference(d SeriesPerformanceDoc) error {
	sr, ok := c.series[d.Series]
	if !ok {
		return fmt.Errorf("series %q is not defined", d.Series)
	}
	if sr.Category == CategoryGPU {
		return fmt.Errorf("series %s is a GPU series: GPU throughput belongs to gpu_performance", d.Series)
	}
	if d.ThreadsPerCore != 1 && d.ThreadsPerCore != 2 {
		return fmt.Errorf("threads_per_core must be 1 or 2, got %d", d.ThreadsPerCore)
	}
	ref, ok := c.byName[strings.ToLower(d.ReferenceSize)]
	if !ok {
		return fmt.Errorf("reference_size %q is not in the catalog", d.ReferenceSize)
	}
	if ref.Series != d.Series {
		return fmt.Errorf("reference_size %s is of series %s, not %s", ref.Name, ref.Series, d.Series)
	}
	if ref.VCPUs == nil || *ref.VCPUs%d.ThreadsPerCore != 0 {
		return fmt.Errorf("reference_size %s needs a vCPU count that is a multiple of threads_per_core", ref.Name)
	}
	if _, constrained := constrainedParent(ref.Name); constrained {
		return fmt.Errorf("reference_size %s is a constrained-core size; use the full size", ref.Name)
	}
	return nil
}

// seriesFigureKeys checks the figures other than the FP64 facts (positive
// numbers, the boost clock at or above the base clock, a whole host memory
// system) and returns the source keys they need.
func seriesFigureKeys(d SeriesPerformanceDoc) ([]string, error) {
	need := []string{"cores"}
	if d.CPUModel != "" {
		need = append(need, "cpu_model")
	}
	for _, f := range []struct {
		key string
		v   *float64
	}{{"base_ghz", d.BaseGHz}, {"max_boost_ghz", d.MaxBoostGHz}, {"all_core_ghz", d.AllCoreGHz}, {"stream_gbs", d.StreamGBs}, {"fp64_peak_gflops", d.FP64PeakGFLOPS}, {"fp64_all_core_ghz", d.FP64AllCoreGHz}, {"l3_cache_mb", d.L3CacheMB}} {
		if f.v != nil && (!(*f.v > 0) || math.IsInf(*f.v, 0)) {
			return nil, fmt.Errorf("%s must be a positive number, got %v", f.key, *f.v)
		}
	}
	if d.BaseGHz != nil || d.MaxBoostGHz != nil || d.AllCoreGHz != nil {
		need = append(need, "clocks")
	}
	if d.BaseGHz != nil && d.MaxBoostGHz != nil && *d.MaxBoostGHz < *d.BaseGHz {
		return nil, fmt.Errorf("max_boost_ghz %v is below base_ghz %v", *d.MaxBoostGHz, *d.BaseGHz)
	}
	if d.StreamGBs != nil {
		need = append(need, "stream_gbs")
	}
	if h := d.HostMemory; h != nil {
		if h.Sockets <= 0 || h.CoresPerSocket <= 0 || h.ChannelsPerSocket <= 0 || !(h.MTs > 0) || math.IsInf(h.MTs, 0) {
			return nil, fmt.Errorf("host_memory needs positive sockets, cores_per_socket, channels_per_socket and mts, got %+v", *h)
		}
		need = append(need, "host_memory")
	}
	if d.L3CacheMB != nil {
		need = append(need, "l3_cache_mb")
	}
	return need, nil
}

// seriesFP64Keys checks the FP64 facts (a published peak, or FLOPs per
// cycle with a clock to derive it from) and returns the source keys they
// need.
func seriesFP64Keys(d SeriesPerformanceDoc) ([]string, error) {
	var need []string
	if d.FP64PeakCores != nil && *d.FP64PeakCores <= 0 {
		return nil, errors.New("fp64_peak_cores must be positive")
	}
	if d.FP64PeakCores != nil && d.FP64PeakGFLOPS == nil {
		return nil, errors.New("fp64_peak_cores is given without fp64_peak_gflops")
	}
	if d.FP64FLOPsPerCycle != nil {
		if *d.FP64FLOPsPerCycle <= 0 {
			return nil, errors.New("fp64_flops_per_cycle must be positive")
		}
		need = append(need, "fp64_flops_per_cycle")
	}
	if d.FP64AllCoreGHz != nil {
		if d.FP64FLOPsPerCycle == nil {
			return nil, errors.New("fp64_all_core_ghz is given without fp64_flops_per_cycle")
		}
		need = append(need, "fp64_all_core_ghz")
	}
	switch {
	case d.FP64PeakGFLOPS != nil:
		need = append(need, "fp64_peak_gflops")
	case d.FP64FLOPsPerCycle != nil && d.AllCoreGHz == nil && d.MaxBoostGHz == nil:
		return nil, errors.New("a derived FP64 peak needs all_core_ghz (or max_boost_ghz) with fp64_flops_per_cycle")
	}
	return need, nil
}

// sizeGPUPerformance is a GPU model's performance as one size sees it: the
// NVLink figure only where the size's GPUs are linked to each other.
func sizeGPUPerformance(g *GPUPerformance, s *SKU) *GPUPerformance {
	if g.NVLinkGBsPerGPU == nil || gpusLinked(s) {
		return g
	}
	cp := *g
	cp.NVLinkGBsPerGPU = nil
	cp.Sources = make(map[string][]string, len(g.Sources))
	for k, v := range g.Sources {
		if k != "nvlink_gbs_per_gpu" {
			cp.Sources[k] = v
		}
	}
	return &cp
}

// gpusLinked reports whether a size has two or more GPUs joined by NVLink
// (or AMD Infinity Fabric), as its interconnect says.
func gpusLinked(s *SKU) bool {
	ic := strings.ToLower(s.GPU.Interconnect)
	return s.GPU.Count >= 2 && (strings.Contains(ic, "nvlink") || strings.Contains(ic, "infinity fabric"))
}

// constrainedRE matches a constrained-core size name, such as
// Standard_HB120-16rs_v3: the parent's vCPUs, then the active ones.
var constrainedRE = regexp.MustCompile(`^Standard_[A-Za-z]+(\d+)-(\d+)`)

// constrainedParent returns the parent's vCPU count of a constrained-core
// size name (one whose active count, after the dash, is below the parent's).
func constrainedParent(name string) (parent int64, ok bool) {
	m := constrainedRE.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	p, err1 := strconv.ParseInt(m[1], 10, 64)
	a, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || p <= 0 || a <= 0 || a >= p {
		return 0, false
	}
	return p, true
}

// sizeCPUPerformance scales a series' performance to one size. A
// constrained-core size keeps its parent's memory bandwidth and its FP64
// peak scales with its active cores; any other size scales both with its
// vCPUs.
func (c *Catalog) sizeCPUPerformance(p SeriesPerformanceDoc, s *SKU) *CPUPerformance {
	out := &CPUPerformance{
		CPUModel: p.CPUModel, BaseGHz: p.BaseGHz, MaxBoostGHz: p.MaxBoostGHz, AllCoreGHz: p.AllCoreGHz,
		CoreGHz: cmp.Or(p.AllCoreGHz, p.MaxBoostGHz), FP64FLOPsPerCycle: p.FP64FLOPsPerCycle,
		Sources: map[string][]string{}, Decisions: p.Decisions, Notes: p.Notes,
	}
	if p.FP64FLOPsPerCycle != nil {
		out.FP64GHz = cmp.Or(p.FP64AllCoreGHz, p.AllCoreGHz, p.MaxBoostGHz)
	}
	for _, k := range []string{"cpu_model", "clocks"} {
		if len(p.Sources[k]) > 0 {
			out.Sources[k] = p.Sources[k]
		}
	}
	if s.VCPUs == nil || *s.VCPUs <= 0 {
		return out
	}
	sc := sizeScaleOf(p, c.byName[strings.ToLower(p.ReferenceSize)], s)
	sc.coresAndCache(out)
	sc.stream(out)
	sc.fp64(out)
	return out
}

// sizeScale is how a size relates to the reference size its series'
// figures are published for.
type sizeScale struct {
	p           SeriesPerformanceDoc
	ref         *SKU
	vcpus       int64
	tpc         float64 // threads per core
	refVCPUs    float64
	cores       float64 // the size's cores
	parent      int64   // a constrained-core size's parent vCPUs
	constrained bool
}

func sizeScaleOf(p SeriesPerformanceDoc, ref, s *SKU) sizeScale {
	sc := sizeScale{p: p, ref: ref, vcpus: *s.VCPUs, tpc: float64(p.ThreadsPerCore), refVCPUs: float64(*ref.VCPUs)}
	sc.cores = float64(sc.vcpus) / sc.tpc
	sc.parent, sc.constrained = constrainedParent(s.Name)
	return sc
}

// coresAndCache: the size's cores where its vCPUs are whole cores, and the
// L3 cache of the reference size or of a constrained-core size of it.
func (sc *sizeScale) coresAndCache(out *CPUPerformance) {
	p := sc.p
	if sc.vcpus%p.ThreadsPerCore == 0 {
		n := sc.vcpus / p.ThreadsPerCore
		out.Cores = &n
		out.Sources["cores"] = p.Sources["cores"]
	}
	if p.L3CacheMB != nil && ((sc.constrained && float64(sc.parent) == sc.refVCPUs) || float64(sc.vcpus) == sc.refVCPUs) {
		// A constrained-core size keeps its parent's cache; other sizes
		// of the series have no published figure.
		out.L3CacheMB = p.L3CacheMB
		out.Sources["l3_cache_mb"] = p.Sources["l3_cache_mb"]
	}
}

// stream: the published STREAM figure scaled to the size (a
// constrained-core size keeps its parent's), else one derived from the
// host's memory system.
func (sc *sizeScale) stream(out *CPUPerformance) {
	p, ref := sc.p, sc.ref
	if p.StreamGBs != nil {
		var note string
		v := *p.StreamGBs
		switch {
		case sc.constrained:
			v = *p.StreamGBs * float64(sc.parent) / sc.refVCPUs
			note = fmt.Sprintf("scaled: a constrained-core size keeps the memory bandwidth of its %d-vCPU parent", sc.parent)
			if float64(sc.parent) != sc.refVCPUs {
				note += fmt.Sprintf(" (%s STREAM %s GB/s x %d/%s vCPUs)", ref.Name, num(*p.StreamGBs), sc.parent, num(sc.refVCPUs))
			}
		case float64(sc.vcpus) != sc.refVCPUs:
			v = *p.StreamGBs * float64(sc.vcpus) / sc.refVCPUs
			note = fmt.Sprintf("scaled: %s STREAM %s GB/s x %d/%s vCPUs", ref.Name, num(*p.StreamGBs), sc.vcpus, num(sc.refVCPUs))
		}
		v = Round2(v)
		out.StreamGBs = &v
		out.Sources["stream_gbs"] = withNote(note, p.Sources["stream_gbs"])
		return
	}
	h := p.HostMemory
	if h == nil {
		return
	}
	bwCores := sc.cores
	if sc.constrained {
		bwCores = float64(sc.parent) / sc.tpc // its parent's memory channels
	}
	v := Round2(h.StreamGBs(bwCores))
	out.StreamGBs, out.StreamDerived = &v, true
	note := fmt.Sprintf("derived: %s of the host's %s x (%d sockets x %d channels x %s MT/s x 8 B = %s GB/s peak) x %s STREAM share = %s GB/s (no published STREAM figure)",
		Plural(bwCores, "core", "cores"), Plural(float64(h.Sockets*h.CoresPerSocket), "core", "cores"), h.Sockets, h.ChannelsPerSocket, num(h.MTs), num(Round2(h.PeakGBs())), num(StreamPerPeakBandwidth), num(v))
	out.Sources["stream_gbs"] = withNote(note, p.Sources["host_memory"])
}

// fp64: the published FP64 peak scaled to the size's cores, else one
// derived from the FP64 clock and FLOPs per cycle.
func (sc *sizeScale) fp64(out *CPUPerformance) {
	p, cores := sc.p, sc.cores
	switch {
	case p.FP64PeakGFLOPS != nil:
		peakCores := sc.refVCPUs / sc.tpc
		if p.FP64PeakCores != nil {
			peakCores = float64(*p.FP64PeakCores)
		}
		v := Round2(*p.FP64PeakGFLOPS * cores / peakCores)
		out.FP64PeakGFLOPS = &v
		note := ""
		if cores != peakCores {
			note = fmt.Sprintf("scaled: %s GFLOPS published for %s cores x %s/%s cores", num(*p.FP64PeakGFLOPS), num(peakCores), num(cores), num(peakCores))
		}
		out.Sources["fp64_peak_gflops"] = withNote(note, p.Sources["fp64_peak_gflops"])
	case out.FP64GHz != nil:
		clock, which := out.FP64GHz, "all-core clock"
		switch {
		case p.FP64AllCoreGHz != nil:
			which = "all-core FP64 clock"
		case p.AllCoreGHz == nil:
			which = "maximum boost clock, the only one stated"
		}
		v := Round2(out.FP64GFLOPS(cores))
		out.FP64PeakGFLOPS = &v
		out.FP64PeakDerived = true
		note := fmt.Sprintf("derived: %s x %s GHz %s x %d FP64 FLOPs per cycle per core = %s GFLOPS (no published peak)",
			Plural(cores, "core", "cores"), num(*clock), which, *p.FP64FLOPsPerCycle, num(v))
		src := withNote(note, p.Sources["fp64_flops_per_cycle"])
		if p.FP64AllCoreGHz != nil {
			src = append(src, p.Sources["fp64_all_core_ghz"]...)
		}
		out.Sources["fp64_peak_gflops"] = append(src, p.Sources["clocks"]...)
	}
}

// FP64GFLOPS is the FP64 rate of the given cores: cores x the FP64 clock x
// FP64 FLOPs per cycle, the one formula every FP64 figure the ranking
// compares comes from; 0 when the catalog lacks the clock or the FLOPs per
// cycle.
func (c *CPUPerformance) FP64GFLOPS(cores float64) float64 {
	if c == nil || c.FP64GHz == nil || c.FP64FLOPsPerCycle == nil {
		return 0
	}
	return cores * *c.FP64GHz * float64(*c.FP64FLOPsPerCycle)
}

// withNote puts a computed figure's explanation before its sources.
func withNote(note string, sources []string) []string {
	if note == "" {
		return sources
	}
	return append([]string{note}, sources...)
}

// num formats a number without trailing zeros.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
