// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

func sameFloat(got, want *float64) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	return math.Abs(*got-*want) < 1e-9
}

// TestPerformanceHandValues pins the facts the ranking will rely on against
// figures worked out by hand from the sources named in each comment.
func TestPerformanceHandValues(t *testing.T) {
	c := mustDefault(t)
	checkH100HandValues(t, c)
	for _, tc := range cpuHandValues {
		checkCPUHandValue(t, mustCPUPerformance(t, c, tc.name), tc)
	}
	// HBv5: the size page's all-core frequency peak of 4 GHz (D68).
	if p := mustCPUPerformance(t, c, "Standard_HB368rs_v5"); !sameFloat(p.StreamGBs, f64(6600)) || !sameFloat(p.FP64PeakGFLOPS, f64(16000)) || !sameFloat(p.AllCoreGHz, f64(4)) {
		t.Errorf("HB368rs_v5 = STREAM %s, FP64 %s, all-core %s", show(p.StreamGBs), show(p.FP64PeakGFLOPS), show(p.AllCoreGHz))
	}
	// Every size of a series with facts has them; GPU sizes of a model with
	// facts have them.
	for _, s := range c.SKUs() {
		_, hasSeries := c.SeriesPerformance(s.Series)
		if hasSeries != (s.Performance.CPU != nil) {
			t.Errorf("%s: series facts %v, CPU performance %v", s.Name, hasSeries, s.Performance.CPU != nil)
		}
		if s.GPU != nil {
			if _, ok := c.GPUPerformance(s.GPU.ModelID); ok != (s.Performance.GPU != nil) {
				t.Errorf("%s: GPU model facts %v, GPU performance %v", s.Name, ok, s.Performance.GPU != nil)
			}
		}
	}
}

// checkH100HandValues pins the GPU performance of Standard_ND96isr_H100_v5.
func checkH100HandValues(t *testing.T, c *Catalog) {
	t.Helper()
	// NVIDIA H100 datasheet, SXM column: BF16 1,979 and FP8 3,958 TFLOPS
	// with sparsity, halved (D23); 3.35 TB/s; NVLink 900 GB/s; nvidia-smi
	// 81,559 MiB = 79.65 GiB (D25).
	h100 := mustLookup(t, c, "Standard_ND96isr_H100_v5")
	g := h100.Performance.GPU
	if g == nil {
		t.Fatal("ND96isr_H100_v5 has no GPU performance")
	}
	for _, f := range []struct {
		name      string
		got, want *float64
	}{
		{"bf16", g.BF16TFLOPS, f64(1979.0 / 2)},
		{"fp16", g.FP16TFLOPS, f64(1979.0 / 2)},
		{"fp8", g.FP8TFLOPS, f64(3958.0 / 2)},
		{"int8", g.INT8TOPS, f64(3958.0 / 2)},
		{"tf32", g.TF32TFLOPS, f64(989.0 / 2)},
		{"fp64", g.FP64TFLOPS, f64(34)},
		{"fp64 tensor", g.FP64TensorTFLOPS, f64(67)},
		{"fp4", g.FP4TFLOPS, nil},
		{"memory bandwidth", g.MemoryBandwidthGBs, f64(3350)},
		{"nvlink", g.NVLinkGBsPerGPU, f64(900)},
		{"usable memory", g.UsableMemoryGiB, f64(math.Round(81559.0/1024*100) / 100)},
		{"VM bf16", h100.VMTotal(g.BF16TFLOPS), f64(8 * 989.5)},
		{"VM bandwidth", h100.VMTotal(g.MemoryBandwidthGBs), f64(8 * 3350)},
		{"DenseTFLOPS(bf16)", g.DenseTFLOPS("BF16"), f64(989.5)},
		{"DenseTFLOPS(fp6)", g.DenseTFLOPS("fp6"), nil},
	} {
		if !sameFloat(f.got, f.want) {
			t.Errorf("ND96isr_H100_v5 %s = %s, want %s", f.name, show(f.got), show(f.want))
		}
	}
	if h100.Performance.CPU != nil {
		t.Errorf("a GPU size has CPU performance %+v", h100.Performance.CPU)
	}
	if len(g.Sources["bf16_tflops"]) == 0 || len(g.Sources["usable_memory_gib"]) == 0 || g.Sources["fp4_tflops"] != nil {
		t.Errorf("H100 sources %v", g.Sources)
	}
}

// mustCPUPerformance returns a size's CPU performance, failing the test if
// it has none.
func mustCPUPerformance(t *testing.T, c *Catalog, name string) *CPUPerformance {
	t.Helper()
	p := mustLookup(t, c, name).Performance.CPU
	if p == nil {
		t.Fatalf("%s has no CPU performance", name)
	}
	return p
}

// cpuHandValue pins the CPU performance of one size.
type cpuHandValue struct {
	name         string
	cores        int64
	stream, fp64 *float64
	derived      bool
	fp64Note     string // the first fp64 source: a computed figure's explanation
	streamNote   string
}

// cpuHandValues are the CPU performance figures TestPerformanceHandValues
// pins.
var cpuHandValues = []cpuHandValue{
	// hbv4-performance.md: STREAM 750-780 GB/s (D27); 7.6 TF Rpeak for
	// the 144-core size, so 176 cores carry 7,600 x 176/144 (D28).
	{"Standard_HB176rs_v4", 176, f64(780), f64(math.Round(7600.0*176/144*100) / 100), false, "scaled: 7600 GFLOPS published for 144 cores", ""},
	{"Standard_HB176-144rs_v4", 144, f64(780), f64(7600), false, "MicrosoftDocs/", "scaled: a constrained-core size keeps"},
	// hbv3-performance.md: 4 TF for 120 cores; HB120-16rs_v3 keeps the
	// parent's 350 GB/s and gets 16/120 of the peak.
	{"Standard_HB120-16rs_v3", 16, f64(350), f64(math.Round(4000.0*16/120*100) / 100), false, "scaled: 4000 GFLOPS published for 120 cores x 16/120", "scaled: a constrained-core size keeps"},
	{"Standard_HB60-15rs", 15, f64(260), f64(250), false, "scaled:", "scaled:"},
	// Fsv2, hyper-threaded: AVX-512 on two FMA units = 32 FP64 FLOPs per
	// cycle at 2.5 GHz, the all-core AVX-512 clock of HC's Xeon
	// Platinum 8168, one of its processors (D29).
	// STREAM derived (D64): the cores' share of an 8168 host, 2 x 6
	// channels of DDR4-2666 x 8 B = 255.9 GB/s for 48 cores, x 0.85.
	{"Standard_F72s_v2", 36, f64(163.16), f64(36 * 2.5 * 32), true, "derived: 36 cores x 2.5 GHz all-core FP64 clock x 32", "derived: 36 cores of the host's 48 cores"},
	{"Standard_F2s_v2", 1, f64(4.53), f64(1 * 2.5 * 32), true, "derived: 1 core x 2.5 GHz", "derived: 1 core of the host's 48 cores"},
	// FX: a Xeon Gold 6246R host, 2 x 6 channels of DDR4-2933 = 281.6
	// GB/s for 32 cores, x 0.85 x 24 cores = 179.5 GB/s.
	{"Standard_FX48mds", 24, f64(179.5), f64(24 * 4.0 * 32), true, "derived: 24 cores x 4 GHz", "derived: 24 cores of the host's 32 cores"},
	{"Standard_E104i_v5", 52, nil, f64(52 * 3.5 * 32), true, "derived: 52 cores", ""},
	{"Standard_E48ds_v5", 24, nil, f64(24 * 3.5 * 32), true, "derived: 24 cores", ""},
	// h-series.md: H16 sizes 80 GB/s, H8 sizes 40 GB/s; Haswell AVX2 on
	// two FMA units = 16 FLOPs per cycle at the 3.3 GHz all-core peak.
	{"Standard_H8", 8, f64(40), f64(8 * 3.3 * 16), true, "derived: 8 cores x 3.3 GHz", "scaled: Standard_H16r STREAM 80 GB/s x 8/16 vCPUs"},
	// hc-series-performance.md: 190 GB/s and 3,520 GFLOPS for 44 cores.
	{"Standard_HC44-16rs", 16, f64(190), f64(math.Round(3520.0*16/44*100) / 100), false, "scaled:", "scaled:"},
}

// checkCPUHandValue compares a size's CPU performance and its sources with
// the pinned ones.
func checkCPUHandValue(t *testing.T, p *CPUPerformance, tc cpuHandValue) {
	t.Helper()
	if p.Cores == nil || *p.Cores != tc.cores {
		t.Errorf("%s cores = %s, want %d", tc.name, show(p.Cores), tc.cores)
	}
	if !sameFloat(p.StreamGBs, tc.stream) {
		t.Errorf("%s STREAM = %s, want %s", tc.name, show(p.StreamGBs), show(tc.stream))
	}
	if !sameFloat(p.FP64PeakGFLOPS, f64(math.Round(*tc.fp64*100)/100)) || p.FP64PeakDerived != tc.derived {
		t.Errorf("%s FP64 peak = %s (derived %v), want %v (derived %v)", tc.name, show(p.FP64PeakGFLOPS), p.FP64PeakDerived, *tc.fp64, tc.derived)
	}
	// A computed figure's explanation comes first, then real sources.
	src := p.Sources["fp64_peak_gflops"]
	computed := strings.HasPrefix(tc.fp64Note, "scaled:") || strings.HasPrefix(tc.fp64Note, "derived:")
	if len(src) == 0 || !strings.HasPrefix(src[0], tc.fp64Note) || (computed && len(src) < 2) {
		t.Errorf("%s FP64 sources %q, want a first entry starting %q", tc.name, src, tc.fp64Note)
	}
	if tc.stream == nil {
		if p.Sources["stream_gbs"] != nil {
			t.Errorf("%s has STREAM sources without a figure", tc.name)
		}
		return
	}
	src = p.Sources["stream_gbs"]
	if len(src) == 0 || (tc.streamNote != "" && !strings.HasPrefix(src[0], tc.streamNote)) ||
		(tc.streamNote == "" && !strings.HasPrefix(src[0], "MicrosoftDocs/")) {
		t.Errorf("%s STREAM sources %q, want first %q", tc.name, src, tc.streamNote)
	}
}

// TestNVLinkOnlyWhereGPUsAreLinked pins decision D26.
func TestNVLinkOnlyWhereGPUsAreLinked(t *testing.T) {
	c := mustDefault(t)
	for name, want := range map[string]*float64{
		"Standard_ND96isr_H100_v5":   f64(900),
		"Standard_ND96amsr_A100_v4":  f64(600),
		"Standard_ND40rs_v2":         f64(300),
		"Standard_ND96isr_MI300X_v5": f64(896), // Infinity Fabric, 7 x 128 GB/s
		"Standard_NC80adis_H100_v5":  f64(600), // two H100 NVL joined by a bridge
		"Standard_NC40ads_H100_v5":   nil,      // one GPU
		"Standard_NCC40ads_H100_v5":  nil,      // PCIe
		"Standard_NC96ads_A100_v4":   nil,      // the A100 PCIe bridge is not documented on Azure
		"Standard_NC64as_T4_v3":      nil,
	} {
		s := mustLookup(t, c, name)
		g := s.Performance.GPU
		if g == nil {
			t.Errorf("%s has no GPU performance", name)
			continue
		}
		if !sameFloat(g.NVLinkGBsPerGPU, want) {
			t.Errorf("%s NVLink = %s, want %s", name, show(g.NVLinkGBsPerGPU), show(want))
		}
		if (g.Sources["nvlink_gbs_per_gpu"] != nil) != (want != nil) {
			t.Errorf("%s NVLink sources %v", name, g.Sources["nvlink_gbs_per_gpu"])
		}
	}
	// The model's record keeps the bridge figure.
	if g, _ := c.GPUPerformance("a100-pcie-80gb"); g == nil || !sameFloat(g.NVLinkGBsPerGPU, f64(600)) {
		t.Errorf("a100-pcie-80gb model record = %+v", g)
	}
	// A share of a GPU totals to its share.
	nv := mustLookup(t, c, "Standard_NV6ads_A10_v5")
	if got := nv.VMTotal(nv.Performance.GPU.BF16TFLOPS); !sameFloat(got, f64(math.Round(125.0/6*100)/100)) {
		t.Errorf("NV6ads_A10_v5 VM bf16 = %s, want 125/6", show(got))
	}
}

// TestT4MemoryBandwidth pins D50: the T4's memory bandwidth is the board
// specification's 320 GB/s, not the datasheet's 300, on every T4 size.
func TestT4MemoryBandwidth(t *testing.T) {
	c := mustDefault(t)
	s := mustLookup(t, c, "Standard_NC4as_T4_v3")
	if g := s.Performance.GPU; g == nil || !sameFloat(g.MemoryBandwidthGBs, f64(320)) || !slices.Contains(g.Decisions, "D50") {
		t.Errorf("Standard_NC4as_T4_v3 memory_bandwidth_gbs = %+v, want 320 (D50)", g)
	}
}

// referenceGPUPerfExceptions are the figures a decision has changed since
// the reference gpu_perf.csv: GPU model, column, decision, catalog figure.
var referenceGPUPerfExceptions = map[[2]string]struct {
	decision string
	value    float64
}{
	{"t4", "memory_bandwidth_gbs"}: {"D50", 320},
}

// TestReferenceGPUPerfCSV compares every GPU performance record with the
// reference gpu_perf.csv it was converted from: no figure differs but
// where a decision listed in referenceGPUPerfExceptions says so. Records
// added since are listed in the golden summary.
func TestReferenceGPUPerfCSV(t *testing.T) {
	c := mustDefault(t)
	for _, r := range referenceCSV(t, "gpu_perf.csv") {
		g, ok := c.GPUPerformance(r["id"])
		if !ok {
			t.Errorf("GPU model %s has no performance record", r["id"])
			continue
		}
		for col, got := range map[string]*float64{
			"fp64_tflops": g.FP64TFLOPS, "fp64_tensor_tflops": g.FP64TensorTFLOPS, "fp32_tflops": g.FP32TFLOPS,
			"tf32_tflops": g.TF32TFLOPS, "bf16_tflops": g.BF16TFLOPS, "fp16_tflops": g.FP16TFLOPS, "fp8_tflops": g.FP8TFLOPS,
			"fp4_tflops": g.FP4TFLOPS, "int8_tops": g.INT8TOPS, "memory_bandwidth_gbs": g.MemoryBandwidthGBs,
			"nvlink_gbs_per_gpu": g.NVLinkGBsPerGPU,
		} {
			want := refFloat(t, r[col])
			if e, ok := referenceGPUPerfExceptions[[2]string{r["id"], col}]; ok && slices.Contains(g.Decisions, e.decision) {
				want = f64(e.value)
			}
			if !sameFloat(got, want) {
				t.Errorf("%s %s = %s, gpu_perf.csv %q", r["id"], col, show(got), r[col])
			}
			if got != nil && len(g.Sources[col]) == 0 {
				t.Errorf("%s %s has no source", r["id"], col)
			}
		}
	}
}

// TestReferenceHPCPerfCSV compares the series performance records with the
// reference hpc_perf.csv. Differences allowed: Edsv5 is not in the file
// (it shares Ev5's processors and clock); the file's boost_ghz is the
// all-core turbo for FX and Ev5 (perf.md), kept as all_core_ghz; the file
// leaves the FP64 peak empty where Microsoft publishes none, and the catalog
// derives it (D29).
func TestReferenceHPCPerfCSV(t *testing.T) {
	c := mustDefault(t)
	rows := referenceCSV(t, "hpc_perf.csv")
	seen := map[string]bool{}
	for _, r := range rows {
		name := r["series"]
		seen[name] = true
		p, ok := c.SeriesPerformance(name)
		if !ok {
			t.Errorf("series %s has no performance record", name)
			continue
		}
		ref := mustLookup(t, c, p.ReferenceSize)
		if cores := *ref.VCPUs / p.ThreadsPerCore; cores != *refInt(t, r["physical_cores_per_vm"]) {
			t.Errorf("%s: %s has %d cores, hpc_perf.csv %s", name, ref.Name, cores, r["physical_cores_per_vm"])
		}
		if !sameFloat(p.BaseGHz, refFloat(t, r["base_ghz"])) {
			t.Errorf("%s base = %s, hpc_perf.csv %q", name, show(p.BaseGHz), r["base_ghz"])
		}
		boost := p.MaxBoostGHz
		if name == "FX" || name == "Ev5" {
			boost = p.AllCoreGHz
		}
		if !sameFloat(boost, refFloat(t, r["boost_ghz"])) {
			t.Errorf("%s boost = %s, hpc_perf.csv %q", name, show(boost), r["boost_ghz"])
		}
		if !sameFloat(p.L3CacheMB, refFloat(t, r["l3_cache_mb"])) {
			t.Errorf("%s L3 = %s MB, hpc_perf.csv %q", name, show(p.L3CacheMB), r["l3_cache_mb"])
		}
		if !sameFloat(p.StreamGBs, refFloat(t, r["memory_bandwidth_gbs_stream"])) {
			t.Errorf("%s STREAM = %s, hpc_perf.csv %q", name, show(p.StreamGBs), r["memory_bandwidth_gbs_stream"])
		}
		want := refFloat(t, r["fp64_peak_gflops_per_vm"])
		switch {
		case want != nil && !sameFloat(p.FP64PeakGFLOPS, want):
			t.Errorf("%s FP64 peak = %s, hpc_perf.csv %q", name, show(p.FP64PeakGFLOPS), r["fp64_peak_gflops_per_vm"])
		case want == nil && (p.FP64PeakGFLOPS != nil || p.FP64FLOPsPerCycle == nil || !ref.Performance.CPU.FP64PeakDerived):
			t.Errorf("%s: no published FP64 peak, so the catalog must derive it (record %s, flops/cycle %s)", name, show(p.FP64PeakGFLOPS), show(p.FP64FLOPsPerCycle))
		}
		if got := *ref.MemoryGiB; got != *refFloat(t, r["memory_gib"]) && name != "HBv3" {
			// HBv3: hpc_perf.csv 448 is the size table's; the catalog stores the same.
			t.Errorf("%s memory %v, hpc_perf.csv %s", name, got, r["memory_gib"])
		}
	}
	// Records beyond hpc_perf.csv: Edsv5 (Ev5's hosts), the F v6 series
	// (D37), and the F v7 and FX v2 series (D60).
	beyond := map[string]bool{"Edsv5": true, "Falsv6": true, "Famsv6": true, "Fasv6": true,
		"Fasv7": true, "Falsv7": true, "Famsv7": true, "Fadsv7": true, "Faldsv7": true, "Famdsv7": true, "FXmsv2": true, "FXmdsv2": true}
	for name := range c.perf.series {
		if !seen[name] && !beyond[name] {
			t.Errorf("series %s has a performance record the reference does not have", name)
		}
	}
}

func perfDocs(g *GPUPerformanceDoc, s *SeriesPerformanceDoc) []Document {
	docs := testDocs()
	docs[0].Decisions = append(docs[0].Decisions, DecisionDoc{ID: "D2", Topic: "t", Decision: "d", Sources: []string{"Test fixture (2026-11-01)"}})
	docs[1].GPUModels[0].Precisions = []string{"fp64", "fp32", "bf16"}
	cpuSeries := SeriesDoc{
		Name: "CX_v1", Family: "CX", Category: CategoryCPU,
		Lifecycle: LifecycleDoc{Status: StatusGA, Sources: []string{"Test fixture (2026-11-01)"}},
		Support:   docs[3].Series[0].Support,
		Sources:   []string{"Test fixture (2026-11-01)"},
	}
	docs[3].Series = append(docs[3].Series, cpuSeries)
	cx := func(name string, vcpus int64) SKUDoc {
		return SKUDoc{Name: name, Series: "CX_v1", VCPUs: i64(vcpus), MemoryGiB: f64(64), TempDiskGiB: i64(0), Arch: "x86_64",
			Network: NetworkDoc{EthernetMbps: i64(10000)}, HyperVGenerations: []string{"2"}, Sources: []string{"Test fixture (2026-11-01)"}}
	}
	docs[4].SKUs = append(docs[4].SKUs, cx("Standard_CX64_v1", 64), cx("Standard_CX64-16_v1", 16), cx("Standard_CX8_v1", 8))
	var d Document
	if g != nil {
		d.GPUPerformance = []GPUPerformanceDoc{*g}
	}
	if s != nil {
		d.SeriesPerformance = []SeriesPerformanceDoc{*s}
	}
	return append(docs, d)
}

func validGPUPerf() GPUPerformanceDoc {
	return GPUPerformanceDoc{
		GPUModel: "g1", FP32TFLOPS: f64(60), BF16TFLOPS: f64(900), MemoryBandwidthGBs: f64(3000), NVLinkGBsPerGPU: f64(900), UsableMemoryGiB: f64(79),
		Sources: map[string][]string{"fp32_tflops": {"Test fixture (2026-11-01)"}, "bf16_tflops": {"Test fixture (2026-11-01)"}, "memory_bandwidth_gbs": {"Test fixture (2026-11-01)"}, "nvlink_gbs_per_gpu": {"Test fixture (2026-11-01)"}, "usable_memory_gib": {"Test fixture (2026-11-01)"}},
	}
}

func validSeriesPerf() SeriesPerformanceDoc {
	return SeriesPerformanceDoc{
		Series: "CX_v1", CPUModel: "Test CPU", ReferenceSize: "Standard_CX64_v1", ThreadsPerCore: 2,
		AllCoreGHz: f64(3), StreamGBs: f64(200), FP64FLOPsPerCycle: i64(32),
		Sources: map[string][]string{"cpu_model": {"Test fixture (2026-11-01)"}, "cores": {"Test fixture (2026-11-01)"}, "clocks": {"Test fixture (2026-11-01)"}, "stream_gbs": {"Test fixture (2026-11-01)"}, "fp64_flops_per_cycle": {"Test fixture (2026-11-01)"}},
	}
}

func TestPerformanceJoinOnTestCatalog(t *testing.T) {
	g, s := validGPUPerf(), validSeriesPerf()
	c, err := Build(perfDocs(&g, &s), nil, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	// Two GPUs over PCIe: the NVLink figure is dropped for the size.
	nx := mustLookup(t, c, "Standard_NX8_v1")
	if nx.Performance.GPU == nil || !sameFloat(nx.Performance.GPU.BF16TFLOPS, f64(900)) || nx.Performance.GPU.NVLinkGBsPerGPU != nil {
		t.Errorf("NX8_v1 GPU performance %+v", nx.Performance.GPU)
	}
	for name, want := range map[string][3]float64{
		// cores, STREAM, FP64 peak (32 cores x 3 GHz x 32 = 3,072)
		"Standard_CX64_v1":    {32, 200, 3072},
		"Standard_CX64-16_v1": {8, 200, 8 * 3 * 32}, // constrained: parent's bandwidth
		"Standard_CX8_v1":     {4, 25, 4 * 3 * 32},  // smaller: both scale with vCPUs
	} {
		p := mustLookup(t, c, name).Performance.CPU
		if p == nil || p.Cores == nil || float64(*p.Cores) != want[0] || !sameFloat(p.StreamGBs, &want[1]) || !sameFloat(p.FP64PeakGFLOPS, &want[2]) || !p.FP64PeakDerived {
			t.Errorf("%s CPU performance %+v, want cores %v, STREAM %v, FP64 %v derived", name, p, want[0], want[1], want[2])
		}
	}
	// A published peak for another core count scales per core.
	s.FP64PeakGFLOPS, s.FP64PeakCores, s.FP64FLOPsPerCycle = f64(2000), i64(16), nil
	s.Sources = map[string][]string{"cores": {"t"}, "cpu_model": {"t"}, "clocks": {"t"}, "stream_gbs": {"t"}, "fp64_peak_gflops": {"t"}}
	c, err = Build(perfDocs(&g, &s), nil, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if p := mustLookup(t, c, "Standard_CX64_v1").Performance.CPU; !sameFloat(p.FP64PeakGFLOPS, f64(4000)) || p.FP64PeakDerived {
		t.Errorf("CX64_v1 FP64 %s (derived %v), want 2,000 x 32/16 = 4,000 published", show(p.FP64PeakGFLOPS), p.FP64PeakDerived)
	}
}

func TestPerformanceRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		gpu  func(*GPUPerformanceDoc)
		ser  func(*SeriesPerformanceDoc)
		want string
	}{
		{"unknown GPU model", func(d *GPUPerformanceDoc) { d.GPUModel = "g9" }, nil, `GPU performance g9: GPU model "g9" is not defined`},
		{"figure without source", func(d *GPUPerformanceDoc) { delete(d.Sources, "bf16_tflops") }, nil, "bf16_tflops is given without a source"},
		{"source for no figure", func(d *GPUPerformanceDoc) { d.Sources["bf16"] = []string{"t"} }, nil, `sources: "bf16" is not a figure`},
		{"empty source", func(d *GPUPerformanceDoc) { d.Sources["fp32_tflops"] = []string{" "} }, nil, `"fp32_tflops" has an empty source`},
		{"precision the model lacks", func(d *GPUPerformanceDoc) { d.FP8TFLOPS = f64(1); d.Sources["fp8_tflops"] = []string{"t"} }, nil, "does not list fp8 among its precisions"},
		{"negative", func(d *GPUPerformanceDoc) { d.FP32TFLOPS = f64(-1) }, nil, "fp32_tflops must be a positive number"},
		{"NaN", func(d *GPUPerformanceDoc) { d.MemoryBandwidthGBs = f64(math.NaN()) }, nil, "memory_bandwidth_gbs must be a positive number"},
		{"usable above nominal", func(d *GPUPerformanceDoc) { d.UsableMemoryGiB = f64(81) }, nil, "usable_memory_gib 81 is more than the model's memory_gib 80"},
		{"fp64 tensor below fp64", func(d *GPUPerformanceDoc) {
			d.FP64TFLOPS, d.FP64TensorTFLOPS = f64(30), f64(20)
			d.Sources["fp64_tflops"], d.Sources["fp64_tensor_tflops"] = []string{"t"}, []string{"t"}
		}, nil, "fp64_tensor_tflops 20 is below fp64_tflops 30"},
		{"undefined decision", func(d *GPUPerformanceDoc) { d.Decisions = []string{"D99"} }, nil, `decision "D99" is not defined`},
		{"training MFU without source", func(d *GPUPerformanceDoc) { d.TrainingMFU = f64(0.4) }, nil, "training_mfu is given without a source"},
		{"training MFU above 1", func(d *GPUPerformanceDoc) { d.TrainingMFU = f64(40); d.Sources["training_mfu"] = []string{"t"} }, nil, "training_mfu is a share of the dense peak, at most 1, got 40"},
		{"training MFU zero", func(d *GPUPerformanceDoc) { d.TrainingMFU = f64(0); d.Sources["training_mfu"] = []string{"t"} }, nil, "training_mfu must be a positive number"},
		{"MFU by kind without source", func(d *GPUPerformanceDoc) { d.TrainingMFUByKind = map[string]float64{"vision": 0.3} }, nil, "training_mfu_by_kind is given without a source"},
		{"MFU by kind for a language model", func(d *GPUPerformanceDoc) {
			d.TrainingMFUByKind, d.Sources["training_mfu_by_kind"] = map[string]float64{"generative": 0.3}, []string{"t"}
		}, nil, `training_mfu_by_kind: "generative" is not a kind timed by samples (diffusion, speech, vision)`},
		{"MFU by kind above 1", func(d *GPUPerformanceDoc) {
			d.TrainingMFUByKind, d.Sources["training_mfu_by_kind"] = map[string]float64{"vision": 30}, []string{"t"}
		}, nil, "training_mfu_by_kind[vision] is a share of the dense peak, above 0 and at most 1, got 30"},
		{"unknown series", nil, func(d *SeriesPerformanceDoc) { d.Series = "CX_v9" }, `series performance CX_v9: series "CX_v9" is not defined`},
		{"GPU series", nil, func(d *SeriesPerformanceDoc) { d.Series, d.ReferenceSize = "NX_v1", "Standard_NX8_v1" }, "is a GPU series"},
		{"reference size missing", nil, func(d *SeriesPerformanceDoc) { d.ReferenceSize = "Standard_CX96_v1" }, `reference_size "Standard_CX96_v1" is not in the catalog`},
		{"reference size of another series", nil, func(d *SeriesPerformanceDoc) { d.ReferenceSize = "Standard_NX8_v1" }, "is of series NX_v1, not CX_v1"},
		{"constrained reference", nil, func(d *SeriesPerformanceDoc) { d.ReferenceSize = "Standard_CX64-16_v1" }, "is a constrained-core size"},
		{"threads per core", nil, func(d *SeriesPerformanceDoc) { d.ThreadsPerCore = 3 }, "threads_per_core must be 1 or 2, got 3"},
		{"derived without a clock", nil, func(d *SeriesPerformanceDoc) { d.AllCoreGHz = nil; delete(d.Sources, "clocks") }, "a derived FP64 peak needs all_core_ghz"},
		{"stream without source", nil, func(d *SeriesPerformanceDoc) { delete(d.Sources, "stream_gbs") }, "stream_gbs is given without a source"},
		{"peak cores without peak", nil, func(d *SeriesPerformanceDoc) { d.FP64PeakCores = i64(16) }, "fp64_peak_cores is given without fp64_peak_gflops"},
		{"boost below base", nil, func(d *SeriesPerformanceDoc) { d.BaseGHz, d.MaxBoostGHz = f64(3), f64(2) }, "max_boost_ghz 2 is below base_ghz 3"},
		{"zero clock", nil, func(d *SeriesPerformanceDoc) { d.AllCoreGHz = f64(0) }, "all_core_ghz must be a positive number"},
		{"FP64 clock without FLOPs per cycle", nil, func(d *SeriesPerformanceDoc) {
			d.FP64FLOPsPerCycle, d.FP64AllCoreGHz = nil, f64(2.5)
			delete(d.Sources, "fp64_flops_per_cycle")
			d.Sources["fp64_all_core_ghz"] = []string{"t"}
		}, "fp64_all_core_ghz is given without fp64_flops_per_cycle"},
		{"FP64 clock without source", nil, func(d *SeriesPerformanceDoc) { d.FP64AllCoreGHz = f64(2.5) }, "fp64_all_core_ghz is given without a source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, s := validGPUPerf(), validSeriesPerf()
			if tc.gpu != nil {
				tc.gpu(&g)
			}
			if tc.ser != nil {
				tc.ser(&s)
			}
			_, err := Build(perfDocs(&g, &s), nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Build error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestFP64FormulaAgreesWithPublishedPeaks: every HPC and CPU series has the
// per-core facts of the one FP64 formula (cores x FP64 clock x FP64 FLOPs
// per cycle), and on every size of a series with a published peak (HPL
// Rpeak, scaled to the size's cores) the formula lands within 10% of it.
func TestFP64FormulaAgreesWithPublishedPeaks(t *testing.T) {
	c := mustDefault(t)
	checked := map[string]bool{}
	for _, s := range c.SKUs() {
		if s.Category == CategoryGPU {
			continue
		}
		p := s.Performance.CPU
		if p == nil || p.Cores == nil || p.CoreGHz == nil || p.FP64GHz == nil || p.FP64FLOPsPerCycle == nil {
			t.Errorf("%s (%s): no per-core FP64 facts: %+v", s.Name, s.Series, p)
			continue
		}
		derived := p.FP64GFLOPS(float64(*p.Cores))
		if p.FP64PeakDerived {
			if !sameFloat(p.FP64PeakGFLOPS, f64(math.Round(derived*100)/100)) {
				t.Errorf("%s: derived peak %s, the formula gives %v", s.Name, show(p.FP64PeakGFLOPS), derived)
			}
			continue
		}
		if r := derived / *p.FP64PeakGFLOPS; r < 0.9 || r > 1.1 {
			t.Errorf("%s: %d cores x %v GHz x %d FLOPs per cycle = %.0f GFLOPS, %.0f%% of the published %v", s.Name, *p.Cores, *p.FP64GHz, *p.FP64FLOPsPerCycle, derived, r*100, *p.FP64PeakGFLOPS)
		}
		checked[s.Series] = true
	}
	for _, series := range []string{"HB", "HBv2", "HBv3", "HBv4", "HBv5", "HC", "HX"} {
		if !checked[series] {
			t.Errorf("series %s: no size compared with its published peak", series)
		}
	}
}

// TestConstrainedCoresKeepTheCache: a constrained-core size keeps its
// parent's L3 cache (and STREAM bandwidth), so each of its cores has more.
func TestConstrainedCoresKeepTheCache(t *testing.T) {
	c := mustDefault(t)
	for name, want := range map[string]float64{"Standard_HB120-16rs_v3": 1536, "Standard_HB176-24rs_v4": 2304, "Standard_HX176-48rs": 2304, "Standard_HB120rs_v2": 512} {
		if p := mustLookup(t, c, name).Performance.CPU; p == nil || !sameFloat(p.L3CacheMB, f64(want)) {
			t.Errorf("%s: L3 %+v, want %v MB", name, p, want)
		}
	}
	if p := mustLookup(t, c, "Standard_F16s_v2").Performance.CPU; p == nil || p.L3CacheMB != nil {
		t.Errorf("F16s_v2: L3 %+v, Microsoft publishes none", p)
	}
}

// TestFv6DerivedPeak: the F v6 series publish no FP64 peak; it is derived
// from the 2.25 GHz base clock of the EPYC 9634, the retail part nearest
// their hosts' (D71; the 3.7 GHz maximum boost made it an upper bound), and
// 16 FP64 FLOPs per Zen 4 core per cycle (D29, D37), one core per vCPU, and
// smaller sizes scale with their vCPUs.
func TestFv6DerivedPeak(t *testing.T) {
	c := mustDefault(t)
	for name, vcpus := range map[string]float64{"Standard_F64als_v6": 64, "Standard_F64as_v6": 64, "Standard_F64ams_v6": 64, "Standard_F2als_v6": 2, "Standard_F16ams_v6": 16} {
		p := mustLookup(t, c, name).Performance.CPU
		want := math.Round(vcpus*2.25*16*100) / 100
		// D64: the cores' share of an EPYC 9V74 host's 12 channels of
		// DDR5-4800 for 80 cores per socket, x 0.85: 4.896 GB/s per core.
		stream := math.Round(vcpus*12*4.8*8*0.85/80*100) / 100
		if p == nil || !sameFloat(p.FP64PeakGFLOPS, f64(want)) || !p.FP64PeakDerived || !sameFloat(p.StreamGBs, f64(stream)) || !p.StreamDerived {
			t.Errorf("%s CPU performance: FP64 %s, STREAM %s; want a derived %v GFLOPS and a derived %v GB/s", name, show(p.FP64PeakGFLOPS), show(p.StreamGBs), want, stream)
		}
	}
}

// TestPerformanceThroughCatalogFile replaces a CPU series with its
// performance facts (the Fasv6 series as its preview page described it, and
// two of its sizes) and corrects a GPU model's usable memory through a
// catalog file.
func TestPerformanceThroughCatalogFile(t *testing.T) {
	f, err := LoadCatalogFile("testdata/catalog_file_perf.json")
	if err != nil {
		t.Fatal(err)
	}
	c, rep := mustOverlay(t, Overlays{Catalog: f})
	if len(rep.SizesAdded) != 0 || !equalStrings(rep.SizesReplaced, []string{"Standard_F2as_v6", "Standard_F64as_v6"}) {
		t.Errorf("added %v, replaced %v", rep.SizesAdded, rep.SizesReplaced)
	}
	// The file's Fasv6 series (preview) replaces the embedded one for every
	// Fasv6 size, the file's two and the embedded others.
	for _, name := range []string{"Standard_F2as_v6", "Standard_F16as_v6"} {
		if s := mustLookup(t, c, name); s.Lifecycle.Status != StatusPreview {
			t.Errorf("%s: status %s after the catalog file, want preview", name, s.Lifecycle.Status)
		}
	}
	// fasv6-series-summary.md: no SMT, boosted maximum 3.7 GHz, the only
	// clock stated; Zen 4: 16 FP64 FLOPs per cycle. 64 x 3.7 x 16 = 3,788.8.
	for name, want := range map[string]float64{"Standard_F64as_v6": 64 * 3.7 * 16, "Standard_F2as_v6": 2 * 3.7 * 16} {
		p := mustLookup(t, c, name).Performance.CPU
		if p == nil || !sameFloat(p.FP64PeakGFLOPS, f64(math.Round(want*100)/100)) || !p.FP64PeakDerived ||
			!strings.Contains(p.Sources["fp64_peak_gflops"][0], "maximum boost clock, the only one stated") {
			t.Errorf("%s CPU performance %+v, want derived %v", name, p, want)
		}
	}
	// The correction replaces the T4's record for every T4 size.
	if g := mustLookup(t, c, "Standard_NC4as_T4_v3").Performance.GPU; g == nil || !sameFloat(g.UsableMemoryGiB, f64(14.76)) {
		t.Errorf("NC4as_T4_v3 GPU performance after the correction: %+v", g)
	}
	if g := mustLookup(t, mustDefault(t), "Standard_NC4as_T4_v3").Performance.GPU; !sameFloat(g.UsableMemoryGiB, f64(15)) {
		t.Errorf("embedded T4 usable memory changed to %s", show(g.UsableMemoryGiB))
	}
}

// wantFileError checks that err is a *userfile.Error about extra.json with
// the given entry and field and a problem containing want.
func wantFileError(t *testing.T, err error, entry, field, want string) {
	t.Helper()
	userfiletest.Check(t, err, "extra.json", entry, field, want)
}

func TestCatalogFilePerformanceErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, entry, field, want string }{
		{"unknown field", `{"gpu_performance": [{"gpu_model": "t4", "fp32": 8.1}]}`, "gpu_performance[0] (t4)", "fp32", "unknown field"},
		{"wrong type", `{"series_performance": [{"series": "HBv4", "stream_gbs": "780"}]}`, "series_performance[0] (HBv4)", "stream_gbs", "expected a number, got a string"},
		{"listed twice", `{"gpu_performance": [{"gpu_model": "t4"}, {"gpu_model": "T4"}]}`, "gpu_performance[1] (T4)", "gpu_model", "duplicate"},
		{"unknown section", `{"performance": []}`, "", "performance", "unknown section: a catalog file may have skus, series, gpu_models, gpu_performance, series_performance, images, models and decisions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCatalogFile("extra.json", []byte(tc.in))
			wantFileError(t, err, tc.entry, tc.field, tc.want)
		})
	}
	f, err := ParseCatalogFile("extra.json", []byte(`{"gpu_performance": [{"gpu_model": "t4", "fp32_tflops": 8.1, "sources": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = mustDefault(t).WithOverlays(Overlays{Catalog: f})
	wantFileError(t, err, "GPU performance t4", "", "fp32_tflops is given without a source")
}

// TestPerformanceAndModelDecisionsLinked pins records that link each of the
// decisions D23-D32, so none is left unlinked and each shapes what it says;
// a record added later may link them too.
func TestPerformanceAndModelDecisionsLinked(t *testing.T) {
	c := mustDefault(t)
	linked := map[string][]string{}
	for _, id := range sortedKeys(c.perf.gpu) {
		for _, d := range c.perf.gpu[id].Decisions {
			linked[d] = append(linked[d], id)
		}
	}
	for _, name := range sortedKeys(c.perf.series) {
		for _, d := range c.perf.series[name].Decisions {
			linked[d] = append(linked[d], name)
		}
	}
	for _, m := range c.Models() {
		for _, d := range m.Decisions {
			linked[d] = append(linked[d], m.ID)
		}
	}
	for id, want := range map[string][]string{
		"D23": {"a10", "a100-pcie-80gb", "a100-sxm-40gb", "a100-sxm-80gb", "gb200", "gb300", "h100-nvl-94gb", "h100-sxm-80gb", "h200-141gb", "rtx-pro-6000-bse"},
		"D24": {"gb200", "gb300"},
		"D25": {"a10", "a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm-80gb", "t4"},
		"D26": {"a100-pcie-80gb", "h100-nvl-94gb", "mi300x"},
		"D27": {"H", "HB", "HBv2", "HBv3", "HBv4", "HBv5", "HC", "HX"},
		"D28": {"HBv4", "HX"},
		"D29": {"Edsv5", "Ev5", "FX", "Falsv6", "Famsv6", "Fasv6", "Fsv2", "H"},
		"D37": {"Falsv6", "Famsv6", "Fasv6"},
		"D31": {"gpt-oss-120b", "gpt-oss-20b"},
		"D32": {"deepseek-v3", "gemma-2-27b", "gemma-2-9b", "gemma-3-27b", "gpt-oss-120b", "gpt-oss-20b", "llama-4-maverick-17b-128e", "llama-4-scout-17b-16e", "phi-3-mini"},
	} {
		for _, w := range want {
			if !slices.Contains(linked[id], w) {
				t.Errorf("decision %s linked from %v, not from %s", id, linked[id], w)
			}
		}
	}
	// D30 settles the models whose sources disagree (models.md's conflicts).
	if n := len(linked["D30"]); n < 19 {
		t.Errorf("D30 linked from %d models, want the 19 of models.md's conflicts: %v", n, linked["D30"])
	}
	// Every usable memory figure is under D25; the sizes of these models
	// carry it.
	for _, id := range sortedKeys(c.perf.gpu) {
		g := c.perf.gpu[id]
		if (g.UsableMemoryGiB != nil) != slices.Contains(g.Decisions, "D25") {
			t.Errorf("%s: usable memory %s, decisions %v", id, show(g.UsableMemoryGiB), g.Decisions)
		}
	}
}

// Every GPU model of the embedded catalog with a throughput figure carries
// its training efficiency, a share of its dense peak, under decision D48
// (the judgement that sets it by GPU class); a model without throughput
// figures has none. The figure reaches the model's sizes.
func TestTrainingMFUForEveryGPUModel(t *testing.T) {
	c := mustDefault(t)
	timed := 0
	for _, id := range sortedKeys(c.gpuModels) {
		g, ok := c.GPUPerformance(id)
		if !ok {
			t.Errorf("%s: no performance record", id)
			continue
		}
		throughput := false
		for _, p := range []string{"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"} {
			throughput = throughput || g.DenseTFLOPS(p) != nil
		}
		switch {
		case !throughput:
			if g.TrainingMFU != nil {
				t.Errorf("%s: training_mfu %s without a throughput figure to apply it to", id, show(g.TrainingMFU))
			}
		case g.TrainingMFU == nil || !(*g.TrainingMFU > 0 && *g.TrainingMFU <= 1):
			t.Errorf("%s: training_mfu %s, want a share of the dense peak", id, show(g.TrainingMFU))
		case !slices.Contains(g.Decisions, "D48"):
			t.Errorf("%s: training_mfu without decision D48 (decisions %v)", id, g.Decisions)
		default:
			timed++
		}
	}
	if timed == 0 {
		t.Error("no GPU model has a training efficiency")
	}
	for _, s := range c.SKUs() {
		if s.GPU == nil || s.Performance.GPU == nil {
			continue
		}
		if g, _ := c.GPUPerformance(s.GPU.ModelID); !sameFloat(s.Performance.GPU.TrainingMFU, g.TrainingMFU) {
			t.Errorf("%s: training_mfu %s, its GPU model's %s", s.Name, show(s.Performance.GPU.TrainingMFU), show(g.TrainingMFU))
		}
	}
}

// TestGB300PrecisionsListFP64 pins D51: NVIDIA GB300's precisions list fp64,
// which its performance record gives a figure for.
func TestGB300PrecisionsListFP64(t *testing.T) {
	c := mustDefault(t)
	m, ok := c.GPUModel("gb300")
	if !ok {
		t.Fatal("GPU model gb300 not found")
	}
	if !slices.Contains(m.Precisions, "fp64") {
		t.Errorf("gb300 precisions = %v, want fp64 among them (D51)", m.Precisions)
	}
	if g, _ := c.GPUPerformance("gb300"); g == nil || g.FP64TFLOPS == nil {
		t.Errorf("gb300 performance gives no fp64_tflops: %+v", g)
	}
}

// TestMI25PrecisionsListFP64 pins D61: the MI25's precisions list fp64, as
// its performance record gives an FP64 figure.
func TestMI25PrecisionsListFP64(t *testing.T) {
	s := mustLookup(t, mustDefault(t), "Standard_NV32as_v4")
	g := s.Performance.GPU
	if !slices.Contains(s.GPU.Precisions, "fp64") || g == nil || g.FP64TFLOPS == nil || !slices.Contains(g.Decisions, "D61") {
		t.Errorf("Standard_NV32as_v4 precisions %v, performance %+v; want fp64 listed with its figure (D61)", s.GPU.Precisions, g)
	}
}

// TestStreamShareOfPeak holds StreamPerPeakBandwidth to the hosts with both
// a published STREAM figure and a known memory system: it is the median of
// their STREAM / peak ratios (one per host processor), and every host's
// published figure lies within 30% of the one derived from it. Each
// host's ratio and error is printed.
func TestStreamShareOfPeak(t *testing.T) {
	c := mustDefault(t)
	byCPU := map[string]float64{}
	for _, series := range c.SeriesNames() {
		p, ok := c.SeriesPerformance(series)
		if !ok || p.StreamGBs == nil || p.HostMemory == nil {
			continue
		}
		r := *p.StreamGBs / p.HostMemory.PeakGBs()
		derived := p.HostMemory.PeakGBs() * StreamPerPeakBandwidth
		t.Logf("%-5s %-45s STREAM %6.0f GB/s, peak %6.1f GB/s: share %.3f; derived %6.1f GB/s (%+.0f%%)",
			series, p.CPUModel, *p.StreamGBs, p.HostMemory.PeakGBs(), r, derived, (derived / *p.StreamGBs - 1)*100)
		if math.Abs(derived / *p.StreamGBs - 1) > 0.30 {
			t.Errorf("%s: derived STREAM %.0f GB/s is more than 30%% from the published %v", series, derived, *p.StreamGBs)
		}
		byCPU[p.CPUModel] = r
	}
	if len(byCPU) < 5 {
		t.Fatalf("%d hosts with both figures; the fit needs the HPC series' memory systems", len(byCPU))
	}
	var shares []float64
	for _, r := range byCPU {
		shares = append(shares, r)
	}
	slices.Sort(shares)
	median := (shares[(len(shares)-1)/2] + shares[len(shares)/2]) / 2
	if math.Abs(median-StreamPerPeakBandwidth) > 0.01 {
		t.Errorf("median STREAM share of peak over %d hosts is %.3f; StreamPerPeakBandwidth is %v", len(shares), median, StreamPerPeakBandwidth)
	}
}

// TestDerivedStreamIsAFairShare: where a series publishes no STREAM
// figure, each size's is its cores' share of the host's, so it grows with
// the size's cores and never passes the host's whole derived bandwidth.
func TestDerivedStreamIsAFairShare(t *testing.T) {
	c := mustDefault(t)
	seen := 0
	for _, s := range c.SKUs() {
		p := s.Performance.CPU
		if p == nil || !p.StreamDerived {
			continue
		}
		seen++
		hp, _ := c.SeriesPerformance(s.Series)
		h := hp.HostMemory
		perCore := h.PeakGBs() * StreamPerPeakBandwidth / float64(h.Sockets*h.CoresPerSocket)
		if p.Cores == nil || p.StreamGBs == nil || *p.StreamGBs > h.PeakGBs()*StreamPerPeakBandwidth+0.01 {
			t.Errorf("%s: derived STREAM %s above the host's %.1f GB/s", s.Name, show(p.StreamGBs), h.PeakGBs()*StreamPerPeakBandwidth)
			continue
		}
		if _, constrained := constrainedParent(s.Name); !constrained && math.Abs(*p.StreamGBs-math.Min(float64(*p.Cores)*perCore, h.PeakGBs()*StreamPerPeakBandwidth)) > 0.01 {
			t.Errorf("%s: derived STREAM %v GB/s, not %d cores x %.2f GB/s", s.Name, *p.StreamGBs, *p.Cores, perCore)
		}
		if src := p.Sources["stream_gbs"]; len(src) < 2 || !strings.HasPrefix(src[0], "derived: ") {
			t.Errorf("%s: sources.stream_gbs %q should start with the calculation and name the host's sources", s.Name, src)
		}
	}
	if seen == 0 {
		t.Error("no size has a derived STREAM figure: the F series publish none and need their hosts' memory systems")
	}
}
