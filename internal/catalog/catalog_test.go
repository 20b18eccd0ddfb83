// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"
)

// referenceDir holds the reference facts the catalog, its performance facts
// and its model table were converted from (see its README.md), copied into
// the repository so that the comparisons always run.
const referenceDir = "testdata/reference"

func i64(v int64) *int64     { return &v }
func f64(v float64) *float64 { return &v }
func bp(v bool) *bool        { return &v }

func date(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		tb.Fatalf("bad test date %q: %v", s, err)
	}
	return t
}

func mustDefault(tb testing.TB) *Catalog {
	tb.Helper()
	c, err := Default()
	if err != nil {
		tb.Fatalf("Default(): %v", err)
	}
	return c
}

func mustLookup(tb testing.TB, c *Catalog, name string) *SKU {
	tb.Helper()
	s, ok := c.Lookup(name)
	if !ok {
		tb.Fatalf("Lookup(%q): not found", name)
	}
	return s
}

// referenceCSV reads one reference CSV as rows keyed by column name. A
// missing file is a failure, never a skip.
func referenceCSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(referenceDir, name))
	if err != nil {
		t.Fatalf("open reference %s: %v", name, err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read reference %s: %v", name, err)
	}
	if len(all) < 2 {
		t.Fatalf("reference %s has no rows", name)
	}
	rows := make([]map[string]string, 0, len(all)-1)
	for _, rec := range all[1:] {
		m := make(map[string]string, len(rec))
		for i, h := range all[0] {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func skuNames(skus []*SKU) []string {
	out := make([]string, len(skus))
	for i, s := range skus {
		out[i] = s.Name
	}
	return out
}

// show prints a pointer's value, or nil.
func show[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// skuFact pins the facts of one size. Every value comes from the reference
// facts (skus.csv, gpus.csv, lifecycle.csv, support.csv, images.csv,
// prices.csv, prices_additions.csv, spot_prices.csv) as amended by the
// decisions recorded in data/catalog.json (D42 moved AKS support to the
// node auto-provisioning registry, D79 that of AMD sizes back to AKS's AMD
// GPU page); none is copied from the JSON under test. Spot prices follow
// D19: the prices.csv price times the spot_prices.csv spot-to-on-demand
// ratio, rounded to 6 decimals; none where that ratio is 1 (D33).
type skuFact struct {
	name, series, family, category string

	vcpus   *int64
	memGiB  *float64
	tempGiB *int64
	nvmeGiB *int64
	arch    string

	// GPU; gpuModel == "" means the size has no GPU.
	gpuCount     float64
	gpuCountText string
	gpuModel     string
	vendor       string
	gpuArch      string
	ccOrGfx      string // compute capability (NVIDIA) or gfx target (AMD)
	minToolkit   string // minimum CUDA (NVIDIA) or ROCm (AMD)
	maxCUDA      int64
	gpuMem       float64 // per GPU, or the slice of a partial GPU
	gpuMemTotal  float64
	interconnect string

	rdma         bool
	ib           string
	ibGbps       int64 // per VM, all ports
	ibPorts      int64
	ethMbps      *int64
	accel        *bool
	hyperV       []string
	confidential bool

	status       string
	retirement   string
	replacements []string
	decisions    []string // each must be linked to the size

	aks          string
	hasImage     bool
	imageURN     string
	imageToolkit string // CUDA toolkit, or ROCm for the AMD image

	// The prices of the reference snapshot: priceRegions regions with a
	// prices.csv row (at least as many after a refresh) and, in
	// priceRegion, the price and spot estimate (compared until a refresh).
	priceRegions int
	priceRegion  string
	price        float64
	spot         *float64
}

var skuFacts = []skuFact{
	{
		name: "Standard_E104ids_v5", series: "Edsv5", family: "E", category: "cpu",
		vcpus: i64(104), memGiB: f64(672), tempGiB: i64(3800), nvmeGiB: nil, arch: "x86_64",
		rdma: false, ethMbps: i64(100000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "ga", aks: "supported", priceRegions: 55, priceRegion: "eastus", price: 8.237, spot: f64(0.90607),
	},
	{
		name: "Standard_E96_v5", series: "Ev5", family: "E", category: "cpu",
		vcpus: i64(96), memGiB: f64(672), tempGiB: i64(0), nvmeGiB: nil, arch: "x86_64",
		rdma: false, ethMbps: i64(30000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "ga", aks: "supported", priceRegions: 57, priceRegion: "eastus", price: 6.048, spot: f64(0.66528),
	},
	{
		name: "Standard_FX48mds", series: "FX", family: "F", category: "cpu",
		vcpus: i64(48), memGiB: f64(1008), tempGiB: i64(2016), nvmeGiB: nil, arch: "x86_64",
		rdma: false, ethMbps: i64(32000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", priceRegions: 18, priceRegion: "eastus", price: 4.464, spot: f64(0.492826),
	},
	{
		name: "Standard_F72s_v2", series: "Fsv2", family: "F", category: "cpu",
		vcpus: i64(72), memGiB: f64(144), tempGiB: i64(576), nvmeGiB: nil, arch: "x86_64",
		rdma: false, ethMbps: i64(30000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retiring", retirement: "2028-11-15", replacements: []string{"Standard_F64als_v6"}, decisions: []string{"D18"},
		aks: "supported", priceRegions: 57, priceRegion: "eastus", price: 3.045, spot: f64(0.33495),
	},
	{
		name: "Standard_H16r", series: "H", family: "H", category: "hpc",
		vcpus: i64(16), memGiB: f64(112), tempGiB: i64(2000), nvmeGiB: nil, arch: "x86_64",
		rdma: true, ib: "FDR", ibGbps: 56, ibPorts: 1, ethMbps: nil, accel: bp(false), hyperV: []string{}, confidential: false,
		status: "retired", retirement: "2022-08-31", replacements: []string{"Standard_HB120-16rs_v3"}, decisions: []string{"D2", "D18"},
		aks: "unsupported", priceRegions: 12, priceRegion: "eastus", price: 1.988,
	},
	{
		name: "Standard_HB60rs", series: "HB", family: "HB", category: "hpc",
		vcpus: i64(60), memGiB: f64(228), tempGiB: i64(700), nvmeGiB: nil, arch: "x86_64",
		rdma: true, ib: "EDR", ibGbps: 100, ibPorts: 1, ethMbps: nil, accel: nil, hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2024-08-31", replacements: []string{"Standard_HB120-64rs_v3", "Standard_HB120rs_v3"}, decisions: []string{"D2", "D17", "D18"},
		aks: "unsupported", priceRegions: 3, priceRegion: "eastus", price: 2.28, spot: f64(0.276336),
	},
	{
		name: "Standard_HB120rs_v2", series: "HBv2", family: "HB", category: "hpc",
		vcpus: i64(120), memGiB: f64(456), tempGiB: i64(480), nvmeGiB: i64(960), arch: "x86_64",
		rdma: true, ib: "HDR", ibGbps: 200, ibPorts: 1, ethMbps: i64(40000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retiring", retirement: "2027-05-31", replacements: []string{"Standard_HB176-144rs_v4", "Standard_HB120rs_v3"}, decisions: []string{"D4", "D18"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 13, priceRegion: "eastus", price: 3.6, spot: f64(0.396),
	},
	{
		name: "Standard_HB120-32rs_v3", series: "HBv3", family: "HB", category: "hpc",
		vcpus: i64(32), memGiB: f64(448), tempGiB: i64(480), nvmeGiB: i64(1920), arch: "x86_64",
		rdma: true, ib: "HDR", ibGbps: 200, ibPorts: 1, ethMbps: i64(40000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 9, priceRegion: "eastus", price: 3.6, spot: f64(0.396),
	},
	{
		name: "Standard_HB176rs_v4", series: "HBv4", family: "HB", category: "hpc",
		vcpus: i64(176), memGiB: f64(768), tempGiB: i64(480), nvmeGiB: i64(3600), arch: "x86_64",
		rdma: true, ib: "NDR", ibGbps: 400, ibPorts: 1, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D7"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 9, priceRegion: "eastus", price: 7.2, spot: f64(1.8),
	},
	{
		name: "Standard_HB368rs_v5", series: "HBv5", family: "HB", category: "hpc",
		vcpus: i64(368), memGiB: f64(432), tempGiB: i64(480), nvmeGiB: i64(14304), arch: "x86_64",
		rdma: true, ib: "NDR", ibGbps: 800, ibPorts: 4, ethMbps: i64(180000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D6"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 4, priceRegion: "eastus", price: 19.8,
	},
	{
		name: "Standard_HC44rs", series: "HC", family: "HC", category: "hpc",
		vcpus: i64(44), memGiB: f64(352), tempGiB: i64(700), nvmeGiB: nil, arch: "x86_64",
		rdma: true, ib: "EDR", ibGbps: 100, ibPorts: 1, ethMbps: i64(40000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retiring", retirement: "2027-05-31", replacements: []string{"Standard_HB176-48rs_v4", "Standard_HX176-48rs"}, decisions: []string{"D4", "D18"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 14, priceRegion: "eastus", price: 3.168, spot: f64(0.34848),
	},
	{
		name: "Standard_HX176rs", series: "HX", family: "HX", category: "hpc",
		vcpus: i64(176), memGiB: f64(1408), tempGiB: i64(480), nvmeGiB: i64(3600), arch: "x86_64",
		rdma: true, ib: "NDR", ibGbps: 400, ibPorts: 1, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D7"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 8, priceRegion: "eastus", price: 8.64, spot: f64(2.16),
	},
	{
		name: "Standard_NC24r", series: "NC", family: "NC", category: "gpu",
		vcpus: i64(24), memGiB: f64(224), tempGiB: i64(1440), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "k80", vendor: "nvidia", gpuArch: "Kepler", ccOrGfx: "3.7", minToolkit: "6.5", maxCUDA: 11,
		gpuMem: 12, gpuMemTotal: 48, interconnect: "PCIe",
		rdma: true, ib: "FDR", ibGbps: 56, ibPorts: 1, ethMbps: nil, accel: bp(false), hyperV: []string{"1"}, confidential: false,
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_NC64as_T4_v3"}, decisions: []string{"D1", "D2", "D18"},
		aks: "unsupported", priceRegions: 0,
	},
	{
		name: "Standard_NC24rs_v2", series: "NCv2", family: "NC", category: "gpu",
		vcpus: i64(24), memGiB: f64(448), tempGiB: i64(2948), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "p100", vendor: "nvidia", gpuArch: "Pascal", ccOrGfx: "6.0", minToolkit: "8.0", maxCUDA: 12,
		gpuMem: 16, gpuMemTotal: 64, interconnect: "PCIe",
		rdma: true, ib: "FDR", ibGbps: 56, ibPorts: 1, ethMbps: nil, accel: nil, hyperV: []string{}, confidential: false,
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_NC96ads_A100_v4"}, decisions: []string{"D1", "D2", "D18"},
		aks: "unsupported", priceRegions: 0,
	},
	{
		name: "Standard_NC24rs_v3", series: "NCv3", family: "NC", category: "gpu",
		vcpus: i64(24), memGiB: f64(448), tempGiB: i64(2948), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "v100-pcie-16gb", vendor: "nvidia", gpuArch: "Volta", ccOrGfx: "7.0", minToolkit: "9.0", maxCUDA: 12,
		gpuMem: 16, gpuMemTotal: 64, interconnect: "PCIe",
		rdma: true, ib: "FDR", ibGbps: 56, ibPorts: 1, ethMbps: nil, accel: bp(false), hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2025-09-30", replacements: []string{"Standard_NC80adis_H100_v5"}, decisions: []string{"D2", "D18"},
		aks: "unsupported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2204-v100:latest", imageToolkit: "12.9", priceRegions: 23, priceRegion: "eastus", price: 13.46, spot: f64(1.7498),
	},
	{
		name: "Standard_NC4as_T4_v3", series: "NCasT4_v3", family: "NC", category: "gpu",
		vcpus: i64(4), memGiB: f64(28), tempGiB: i64(176), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "t4", vendor: "nvidia", gpuArch: "Turing", ccOrGfx: "7.5", minToolkit: "10.0", maxCUDA: 13,
		gpuMem: 16, gpuMemTotal: 16, interconnect: "PCIe",
		rdma: false, ethMbps: i64(8000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		// D70: eastus spot is the 2026-09-28 Spot meter's ratio, 0.526 x 0.2836.
		status: "ga", aks: "supported", priceRegions: 29, priceRegion: "eastus", price: 0.526, spot: f64(0.149174),
	},
	{
		name: "Standard_NC96ads_A100_v4", series: "NC_A100_v4", family: "NC", category: "gpu",
		vcpus: i64(96), memGiB: f64(880), tempGiB: i64(256), nvmeGiB: i64(3840), arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "a100-pcie-80gb", vendor: "nvidia", gpuArch: "Ampere", ccOrGfx: "8.0", minToolkit: "11.0", maxCUDA: 13,
		gpuMem: 80, gpuMemTotal: 320, interconnect: "PCIe",
		rdma: false, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 27, priceRegion: "eastus", price: 14.692, spot: nil, // D75: not low-priority capable in eastus
	},
	{
		name: "Standard_NC40ads_H100_v5", series: "NCads_H100_v5", family: "NC", category: "gpu",
		vcpus: i64(40), memGiB: f64(320), tempGiB: i64(3576), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "h100-nvl-94gb", vendor: "nvidia", gpuArch: "Hopper", ccOrGfx: "9.0", minToolkit: "11.8", maxCUDA: 13,
		gpuMem: 94, gpuMemTotal: 94, interconnect: "PCIe (NVLink bridge between GPU pair per azure-docs ncads-h100-v5.md 'NVLink Interconnect: Supported')",
		rdma: false, ethMbps: i64(40000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D10", "D33"},
		// D33: the older catalog's H100 ratio is 1, no spot discount; in
		// eastus the 2026-09-28 Spot meter gives 0.1848 (D70): 6.98 x 0.1848.
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 27, priceRegion: "eastus", price: 6.98, spot: f64(1.289904),
	},
	{
		name: "Standard_NCC40ads_H100_v5", series: "NCCads_H100_v5", family: "NC", category: "gpu",
		vcpus: i64(40), memGiB: f64(320), tempGiB: i64(800), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "h100-nvl-94gb", vendor: "nvidia", gpuArch: "Hopper", ccOrGfx: "9.0", minToolkit: "11.8", maxCUDA: 13,
		gpuMem: 94, gpuMemTotal: 94, interconnect: "PCIe",
		rdma: false, ethMbps: i64(40000), accel: bp(false), hyperV: []string{"2"}, confidential: true,
		// No spot: the spot_prices.csv row prints 6.98, the price of
		// Standard_NC40ads_H100_v5, not this size's 8.82 (D80).
		status: "ga", aks: "supported", hasImage: true, imageURN: "Canonical:0001-com-ubuntu-confidential-vm-jammy:22_04-lts-cvm:22.04.202606120", imageToolkit: "", priceRegions: 4, priceRegion: "eastus2", price: 8.82,
	},
	{
		name: "Standard_NC24lds_xl_RTXPRO6000BSE_v6", series: "NC_RTXPRO6000BSE_v6", family: "NC", category: "gpu",
		vcpus: i64(24), memGiB: f64(72), tempGiB: i64(256), nvmeGiB: i64(1600), arch: "x86_64",
		gpuCount: 0.25, gpuCountText: "1/4", gpuModel: "rtx-pro-6000-bse", vendor: "nvidia", gpuArch: "Blackwell", ccOrGfx: "12.0", minToolkit: "12.8", maxCUDA: 13,
		gpuMem: 24, gpuMemTotal: 24, interconnect: "PCIe (SR-IOV vGPU)",
		rdma: false, ethMbps: i64(22500), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D13", "D42"},
		// prices_additions.csv (the 2026-06-18 snapshot's rows prices.csv lacked).
		aks: "supported", hasImage: true, imageURN: "" /* GRID v20 build, no Marketplace URN */, imageToolkit: "13.2", priceRegions: 14, priceRegion: "eastus", price: 1.13,
	},
	{
		name: "Standard_NC320ds_xl_RTXPRO6000BSE_v6", series: "NC_RTXPRO6000BSE_v6", family: "NC", category: "gpu",
		vcpus: i64(320), memGiB: f64(1280), tempGiB: i64(2048), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 2, gpuCountText: "2", gpuModel: "rtx-pro-6000-bse", vendor: "nvidia", gpuArch: "Blackwell", ccOrGfx: "12.0", minToolkit: "12.8", maxCUDA: 13,
		gpuMem: 96, gpuMemTotal: 192, interconnect: "PCIe (SR-IOV vGPU)",
		rdma: false, ethMbps: i64(200000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "retired", retirement: "2026-03-18", replacements: []string{"Standard_NC288ds_xl_RTXPRO6000BSE_v6"}, decisions: []string{"D13", "D42"},
		aks: "unsupported", hasImage: true, imageURN: "" /* GRID v20 build, no Marketplace URN */, imageToolkit: "13.2", priceRegions: 7, priceRegion: "eastus", price: 16.588,
	},
	{
		name: "Standard_ND24rs", series: "ND", family: "ND", category: "gpu",
		vcpus: i64(24), memGiB: f64(448), tempGiB: i64(2948), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "p40", vendor: "nvidia", gpuArch: "Pascal", ccOrGfx: "6.1", minToolkit: "8.0", maxCUDA: 12,
		gpuMem: 24, gpuMemTotal: 96, interconnect: "PCIe",
		rdma: true, ib: "FDR", ibGbps: 56, ibPorts: 1, ethMbps: nil, accel: bp(false), hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_ND96amsr_A100_v4"}, decisions: []string{"D1", "D2", "D18"},
		aks: "unsupported", priceRegions: 0,
	},
	{
		name: "Standard_ND40rs_v2", series: "NDv2", family: "ND", category: "gpu",
		vcpus: i64(40), memGiB: f64(672), tempGiB: i64(2948), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "v100-sxm2-32gb", vendor: "nvidia", gpuArch: "Volta", ccOrGfx: "7.0", minToolkit: "9.0", maxCUDA: 12,
		gpuMem: 32, gpuMemTotal: 256, interconnect: "NVLink (2.0)",
		rdma: true, ib: "EDR", ibGbps: 100, ibPorts: 1, ethMbps: i64(24000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D8"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2204-v100:latest", imageToolkit: "12.9", priceRegions: 5, priceRegion: "eastus", price: 22.032, spot: f64(2.42352),
	},
	{
		name: "Standard_ND96asr_v4", series: "NDasrA100_v4", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(900), tempGiB: i64(6000), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "a100-sxm-40gb", vendor: "nvidia", gpuArch: "Ampere", ccOrGfx: "8.0", minToolkit: "11.0", maxCUDA: 13,
		gpuMem: 40, gpuMemTotal: 320, interconnect: "NVLink 3.0",
		rdma: true, ib: "HDR", ibGbps: 1600, ibPorts: 8, ethMbps: i64(24000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 5, priceRegion: "eastus", price: 27.197, spot: nil, // D75: not low-priority capable in eastus
	},
	{
		name: "Standard_ND96amsr_A100_v4", series: "NDm_A100_v4", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(1900), tempGiB: i64(6400), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "a100-sxm-80gb", vendor: "nvidia", gpuArch: "Ampere", ccOrGfx: "8.0", minToolkit: "11.0", maxCUDA: 13,
		gpuMem: 80, gpuMemTotal: 640, interconnect: "NVLink 3.0",
		rdma: true, ib: "HDR", ibGbps: 1600, ibPorts: 8, ethMbps: i64(24000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 29, priceRegion: "eastus", price: 32.77, spot: nil, // D75: not low-priority capable in eastus
	},
	{
		name: "Standard_ND96isr_H100_v5", series: "ND-H100-v5", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(1900), tempGiB: i64(1024), nvmeGiB: i64(28000), arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "h100-sxm-80gb", vendor: "nvidia", gpuArch: "Hopper", ccOrGfx: "9.0", minToolkit: "11.8", maxCUDA: 13,
		gpuMem: 80, gpuMemTotal: 640, interconnect: "NVLink 4.0",
		rdma: true, ib: "NDR", ibGbps: 3200, ibPorts: 8, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D16", "D33", "D66", "D70"},
		// D70: the eastus Spot meter of 2026-09-28, 98.32 x 0.1848.
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 23, priceRegion: "eastus", price: 98.32, spot: f64(18.169536),
	},
	{
		name: "Standard_ND96isr_H200_v5", series: "ND-H200-v5", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(1850), tempGiB: i64(1024), nvmeGiB: i64(28000), arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "h200-141gb", vendor: "nvidia", gpuArch: "Hopper", ccOrGfx: "9.0", minToolkit: "11.8", maxCUDA: 13,
		gpuMem: 141, gpuMemTotal: 1128, interconnect: "NVLink 4.0 (900 GB/s)",
		rdma: true, ib: "NDR", ibGbps: 3200, ibPorts: 8, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404:latest", imageToolkit: "13.0", priceRegions: 28, priceRegion: "australiaeast", price: 122.96,
	},
	{
		name: "Standard_ND96isr_MI300X_v5", series: "ND-MI300X-v5", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(1850), tempGiB: i64(1000), nvmeGiB: i64(28000), arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "mi300x", vendor: "amd", gpuArch: "CDNA3", ccOrGfx: "gfx942", minToolkit: "6.0", maxCUDA: 0,
		gpuMem: 192, gpuMemTotal: 1536, interconnect: "AMD Infinity Fabric 4th gen (128 GB/s per GPU link, 896 GB/s aggregate)",
		rdma: true, ib: "NDR", ibGbps: 3200, ibPorts: 8, ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404-rocm:latest", imageToolkit: "6.4.4", priceRegions: 17, priceRegion: "australiasoutheast", price: 67.2,
	},
	{
		name: "Standard_ND128isr_NDR_GB200_v6", series: "ND-GB200-v6", family: "ND", category: "gpu",
		vcpus: i64(128), memGiB: f64(900), tempGiB: i64(0), nvmeGiB: i64(16384), arch: "arm64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "gb200", vendor: "nvidia", gpuArch: "Blackwell", ccOrGfx: "10.0", minToolkit: "12.8", maxCUDA: 13,
		gpuMem: 192, gpuMemTotal: 768, interconnect: "NVLink 5th gen (4x1.8 TB/s per VM; NVL72 domain of 72 GPUs / 18 VMs)",
		rdma: true, ib: "NDR", ibGbps: 1600, ibPorts: 4, ethMbps: i64(160000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D5", "D15", "D42"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404-gb:latest", imageToolkit: "13.0", priceRegions: 19, priceRegion: "eastus", price: 108.16,
	},
	{
		name: "Standard_ND128isr_GB300_v6", series: "ND-GB300-v6", family: "ND", category: "gpu",
		vcpus: i64(128), memGiB: f64(864), tempGiB: i64(0), nvmeGiB: i64(16384), arch: "arm64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "gb300", vendor: "nvidia", gpuArch: "Blackwell Ultra", ccOrGfx: "10.3", minToolkit: "12.9", maxCUDA: 13,
		gpuMem: 288, gpuMemTotal: 1152, interconnect: "NVLink 5th gen (4x1.8 TB/s per VM; NVL72 domain of 72 GPUs / 18 VMs)",
		rdma: true, ib: "XDR", ibGbps: 3200, ibPorts: 4, ethMbps: i64(160000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D15", "D35", "D42"},
		aks: "supported", hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404-gb:latest", imageToolkit: "13.0", priceRegions: 0,
	},
	{
		name: "Standard_NG8ads_V620_v1", series: "NGads_V620", family: "NG", category: "gpu",
		vcpus: i64(8), memGiB: f64(16), tempGiB: i64(256), nvmeGiB: i64(960), arch: "x86_64",
		gpuCount: 0.25, gpuCountText: "1/4", gpuModel: "v620", vendor: "amd", gpuArch: "RDNA2", ccOrGfx: "gfx1030", minToolkit: "", maxCUDA: 0,
		gpuMem: 8, gpuMemTotal: 8, interconnect: "PCIe (SR-IOV partial GPU)",
		rdma: false, ethMbps: i64(10000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "ga", aks: "unsupported", priceRegions: 7, priceRegion: "centralus", price: 0.78,
	},
	{
		name: "Standard_NV6", series: "NV", family: "NV", category: "gpu",
		vcpus: i64(6), memGiB: f64(56), tempGiB: i64(340), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "m60", vendor: "nvidia", gpuArch: "Maxwell", ccOrGfx: "5.2", minToolkit: "6.5", maxCUDA: 12,
		gpuMem: 8, gpuMemTotal: 8, interconnect: "PCIe",
		rdma: false, ethMbps: nil, accel: bp(false), hyperV: []string{"1"}, confidential: false,
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_NV12ads_A10_v5"}, decisions: []string{"D1", "D2", "D9", "D18"},
		aks: "unsupported", priceRegions: 0,
	},
	{
		name: "Standard_NV24", series: "NV", family: "NV", category: "gpu",
		vcpus: i64(24), memGiB: f64(224), tempGiB: i64(1440), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 4, gpuCountText: "4", gpuModel: "m60", vendor: "nvidia", gpuArch: "Maxwell", ccOrGfx: "5.2", minToolkit: "6.5", maxCUDA: 12,
		gpuMem: 8, gpuMemTotal: 32, interconnect: "PCIe",
		rdma: false, ethMbps: nil, accel: bp(false), hyperV: []string{"1"}, confidential: false,
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_NV36ads_A10_v5"}, decisions: []string{"D1", "D2", "D9", "D18"},
		aks: "unsupported", priceRegions: 0,
	},
	{
		name: "Standard_NV6ads_A10_v5", series: "NVadsA10_v5", family: "NV", category: "gpu",
		vcpus: i64(6), memGiB: f64(55), tempGiB: i64(180), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 0.16666666666666666, gpuCountText: "1/6", gpuModel: "a10", vendor: "nvidia", gpuArch: "Ampere", ccOrGfx: "8.6", minToolkit: "11.1", maxCUDA: 13,
		gpuMem: 4, gpuMemTotal: 4, interconnect: "PCIe (SR-IOV partial GPU)",
		rdma: false, ethMbps: i64(5000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		// D70: a spot row from the 2026-09-28 eastus snapshot, 0.454 x 0.1848.
		status: "ga", aks: "supported", priceRegions: 36, priceRegion: "eastus", price: 0.454, spot: f64(0.083899),
	},
	{
		name: "Standard_NV12ads_V710_v5", series: "NVads_V710_v5", family: "NV", category: "gpu",
		vcpus: i64(12), memGiB: f64(64), tempGiB: i64(768), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 0.5, gpuCountText: "1/2", gpuModel: "v710", vendor: "amd", gpuArch: "RDNA3", ccOrGfx: "gfx1101", minToolkit: "", maxCUDA: 0,
		gpuMem: 12, gpuMemTotal: 12, interconnect: "PCIe (SR-IOV partial GPU)",
		rdma: false, ethMbps: i64(10000), accel: bp(true), hyperV: []string{"2"}, confidential: false,
		status: "ga", decisions: []string{"D42", "D79"}, aks: "unknown", priceRegions: 7, priceRegion: "eastus", price: 1.0,
	},
	{
		name: "Standard_NV12s_v3", series: "NVv3", family: "NV", category: "gpu",
		vcpus: i64(12), memGiB: f64(112), tempGiB: i64(320), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "m60", vendor: "nvidia", gpuArch: "Maxwell", ccOrGfx: "5.2", minToolkit: "6.5", maxCUDA: 12,
		gpuMem: 8, gpuMemTotal: 8, interconnect: "PCIe",
		rdma: false, ethMbps: i64(6000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2026-09-30", replacements: []string{"Standard_NV12ads_A10_v5"}, decisions: []string{"D3", "D18", "D49"},
		aks: "unsupported", priceRegions: 19, priceRegion: "eastus", price: 1.14, spot: f64(0.1254),
	},
	{
		name: "Standard_NV4as_v4", series: "NVv4", family: "NV", category: "gpu",
		vcpus: i64(4), memGiB: f64(14), tempGiB: i64(88), nvmeGiB: nil, arch: "x86_64",
		gpuCount: 0.125, gpuCountText: "1/8", gpuModel: "mi25", vendor: "amd", gpuArch: "GCN 5 (Vega 10)", ccOrGfx: "gfx900", minToolkit: "", maxCUDA: 0,
		gpuMem: 2, gpuMemTotal: 2, interconnect: "PCIe (SR-IOV partitions)",
		rdma: false, ethMbps: i64(1000), accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2026-09-30", replacements: []string{"Standard_NV4ads_V710_v5"}, decisions: []string{"D3", "D18", "D49"},
		aks: "unsupported", priceRegions: 23, priceRegion: "eastus", price: 0.233, spot: f64(0.02563),
	},
	{
		name: "Standard_NV16ahs_v4", series: "NVv4", family: "NV", category: "gpu",
		vcpus: nil, memGiB: nil, tempGiB: nil, nvmeGiB: nil, arch: "x86_64",
		gpuCount: 0, gpuCountText: "", gpuModel: "mi25", vendor: "amd", gpuArch: "GCN 5 (Vega 10)", ccOrGfx: "gfx900", minToolkit: "", maxCUDA: 0,
		gpuMem: 0, gpuMemTotal: 0, interconnect: "PCIe (SR-IOV partitions)",
		rdma: false, ethMbps: nil, accel: bp(true), hyperV: []string{"1", "2"}, confidential: false,
		status: "retired", retirement: "2026-09-30", replacements: []string{"Standard_NV12ads_V710_v5"}, decisions: []string{"D3", "D18", "D49"},
		aks: "unsupported", priceRegions: 0,
	},
}

// addedSKUFacts are the sizes added with D36-D41: the size pages (F v6,
// Ev5), the NC and NV Promo twins, and the sizes without a size page.
var addedSKUFacts = []skuFact{
	{
		// fasv7-series.md: 2 vCPUs, 8 GB, no local storage, 3 NICs, 16,000 Mb/s, Gen 2 only.
		name: "Standard_F2as_v7", series: "Fasv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(8), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.137,
	},
	{
		// falsv7-series.md: 2 vCPUs, 4 GB, no local storage, 16,000 Mb/s.
		name: "Standard_F2als_v7", series: "Falsv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(4), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.121,
	},
	{
		// famsv7-series.md: 2 vCPUs, 16 GB, no local storage, 16,000 Mb/s.
		name: "Standard_F2ams_v7", series: "Famsv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(16), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.179,
	},
	{
		// fadsv7-series.md: 2 vCPUs, 8 GiB, 220 GiB temporary NVMe disk, 16,000 Mb/s.
		name: "Standard_F2ads_v7", series: "Fadsv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(8), tempGiB: i64(220), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.172,
	},
	{
		// faldsv7-series.md: 2 vCPUs, 4 GB, 220 GiB temporary NVMe disk, 16,000 Mb/s.
		name: "Standard_F2alds_v7", series: "Faldsv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(4), tempGiB: i64(220), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.143,
	},
	{
		// famdsv7-series.md: 2 vCPUs, 16 GB, 220 GiB temporary NVMe disk, 16,000 Mb/s.
		name: "Standard_F2amds_v7", series: "Famdsv7", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(16), tempGiB: i64(220), arch: "x86_64",
		ethMbps: i64(16000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60", "D72"}, aks: "supported",
		// D72: the Batch-verified, NVMe-capable Ubuntu Server 24.04 image.
		hasImage: true, imageURN: "Canonical:ubuntu-24_04-lts:server:latest",
		priceRegions: 32, priceRegion: "eastus", price: 0.218,
	},
	{
		// fxmsv2-series.md: 4 vCPUs, 84 GB, no local storage, 25,000 Mb/s.
		name: "Standard_FX4ms_v2", series: "FXmsv2", family: "F", category: "cpu",
		vcpus: i64(4), memGiB: f64(84), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(25000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60"}, aks: "supported",
		priceRegions: 34, priceRegion: "eastus", price: 0.443,
	},
	{
		// fxmdsv2-series.md: 4 vCPUs, 84 GB, 220 GiB temporary NVMe disk, 25,000 Mb/s.
		name: "Standard_FX4mds_v2", series: "FXmdsv2", family: "F", category: "cpu",
		vcpus: i64(4), memGiB: f64(84), tempGiB: i64(220), arch: "x86_64",
		ethMbps: i64(25000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D60"}, aks: "supported",
		priceRegions: 34, priceRegion: "eastus", price: 0.547,
	},
	{
		// falsv6-series.md: 2 vCPUs, 4 GB, no local storage, 2 NICs, 12,500 Mb/s, Gen 2 only.
		name: "Standard_F2als_v6", series: "Falsv6", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(4), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(12500), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D37"}, aks: "supported",
		priceRegions: 57, priceRegion: "eastus", price: 0.121,
	},
	{
		name: "Standard_F2as_v6", series: "Fasv6", family: "F", category: "cpu",
		vcpus: i64(2), memGiB: f64(8), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(12500), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D37"}, aks: "supported",
		priceRegions: 57, priceRegion: "eastus", price: 0.137,
	},
	{
		name: "Standard_F64ams_v6", series: "Famsv6", family: "F", category: "cpu",
		vcpus: i64(64), memGiB: f64(512), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(36000), accel: bp(true), hyperV: []string{"2"},
		// 57 snapshot regions but newzealandnorth (D47).
		status: "ga", decisions: []string{"D37", "D47"}, aks: "supported",
		priceRegions: 56, priceRegion: "eastus", price: 5.728,
	},
	{
		// ev5-series.md: the smallest size, 2 vCPUs and 16 GB.
		name: "Standard_E2_v5", series: "Ev5", family: "E", category: "cpu",
		vcpus: i64(2), memGiB: f64(16), tempGiB: i64(0), arch: "x86_64",
		ethMbps: i64(12500), accel: bp(true), hyperV: []string{"1", "2"},
		status: "ga", aks: "supported",
		priceRegions: 57, priceRegion: "eastus", price: 0.126,
	},
	{
		// The twin Standard_NC6's facts (D36).
		name: "Standard_NC6_Promo", series: "NC", family: "NC", category: "gpu",
		vcpus: i64(6), memGiB: f64(56), tempGiB: i64(340), arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "k80", vendor: "nvidia", gpuArch: "Kepler", ccOrGfx: "3.7", minToolkit: "6.5", maxCUDA: 11,
		gpuMem: 12, gpuMemTotal: 12, interconnect: "PCIe",
		accel: bp(false), hyperV: []string{"1"},
		status: "retired", retirement: "2023-09-06", replacements: []string{"Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3"},
		decisions: []string{"D1", "D2", "D18", "D36"}, aks: "unsupported",
		priceRegions: 9, priceRegion: "eastus", price: 0.396,
	},
	{
		// No size page: the Resource SKUs API's 8 vCPUs, 100 GiB and
		// one A10 (D52), the A10 from the AKS GPU registry (D39).
		name: "Standard_NC8ads_A10_v4", series: "NCads_A10_v4", family: "NC", category: "gpu",
		vcpus: i64(8), memGiB: f64(100), arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "a10", vendor: "nvidia", gpuArch: "Ampere", ccOrGfx: "8.6", minToolkit: "11.1", maxCUDA: 13,
		gpuMem: 24, gpuMemTotal: 24, interconnect: "PCIe",
		status: "ga", decisions: []string{"D39", "D52"}, aks: "supported",
		priceRegions: 3, priceRegion: "westus3", price: 1.1,
	},
	{
		// virtual-machines-common-sizes-previous-gen.md: 6 vCPUs, 112 GiB,
		// 320 GiB, 1 GPU of 8 GiB (D9), 12 data disks, 4 NICs.
		name: "Standard_NV6s_v2", series: "NVv2", family: "NV", category: "gpu",
		vcpus: i64(6), memGiB: f64(112), tempGiB: i64(320), arch: "x86_64",
		gpuCount: 1, gpuCountText: "1", gpuModel: "m60", vendor: "nvidia", gpuArch: "Maxwell", ccOrGfx: "5.2", minToolkit: "6.5", maxCUDA: 12,
		gpuMem: 8, gpuMemTotal: 8, interconnect: "PCIe",
		status: "ga", decisions: []string{"D9", "D41"}, aks: "unknown",
		priceRegions: 2, priceRegion: "southcentralus", price: 0.684,
	},
	{
		// Standard_ND96isr_MI300X_v5 without InfiniBand (D40).
		name: "Standard_ND96is_MI300X_v5", series: "ND-MI300X-v5", family: "ND", category: "gpu",
		vcpus: i64(96), memGiB: f64(1850), tempGiB: i64(1000), nvmeGiB: i64(28000), arch: "x86_64",
		gpuCount: 8, gpuCountText: "8", gpuModel: "mi300x", vendor: "amd", gpuArch: "CDNA3", ccOrGfx: "gfx942", minToolkit: "6.0",
		gpuMem: 192, gpuMemTotal: 1536, interconnect: "AMD Infinity Fabric 4th gen (128 GB/s per GPU link, 896 GB/s aggregate)",
		ethMbps: i64(80000), accel: bp(true), hyperV: []string{"2"},
		status: "ga", decisions: []string{"D16", "D40", "D79"}, aks: "unknown",
		hasImage: true, imageURN: "microsoft-dsvm:ubuntu-hpc:2404-rocm:latest", imageToolkit: "6.4.4",
		priceRegions: 17, priceRegion: "westus3", price: 48,
	},
}

// init appends the added sizes to the pinned ones, so that every test of
// skuFacts covers both.
func init() {
	skuFacts = append(skuFacts, addedSKUFacts...)
}

// factChecker returns the check a TestSKUFacts subtest reports a field
// with: an error naming the field, what the size has and what is pinned.
func factChecker(t *testing.T) func(field string, ok bool, got, want any) {
	return func(field string, ok bool, got, want any) {
		t.Helper()
		if !ok {
			t.Errorf("%s = %v, want %v", field, got, want)
		}
	}
}

func TestSKUFacts(t *testing.T) {
	c := mustDefault(t)
	if len(skuFacts) < 24 {
		t.Fatalf("only %d sizes pinned", len(skuFacts))
	}
	for _, f := range skuFacts {
		t.Run(f.name, func(t *testing.T) {
			s := mustLookup(t, c, f.name)
			check := factChecker(t)
			check("Name", s.Name == f.name, s.Name, f.name)
			check("Series", s.Series == f.series, s.Series, f.series)
			check("Family", s.Family == f.family, s.Family, f.family)
			check("Category", s.Category == f.category, s.Category, f.category)
			check("VCPUs", samePtr(s.VCPUs, f.vcpus), show(s.VCPUs), show(f.vcpus))
			check("MemoryGiB", samePtr(s.MemoryGiB, f.memGiB), show(s.MemoryGiB), show(f.memGiB))
			check("TempDiskGiB", samePtr(s.TempDiskGiB, f.tempGiB), show(s.TempDiskGiB), show(f.tempGiB))
			check("LocalNVMeGiB", samePtr(s.LocalNVMeGiB, f.nvmeGiB), show(s.LocalNVMeGiB), show(f.nvmeGiB))
			check("Arch", s.Arch == f.arch, s.Arch, f.arch)
			checkGPUFacts(t, s, f)
			checkNetworkFacts(t, s, f)
			checkLifecycleFacts(t, s, f)
			checkImageFacts(t, s, f)
			checkPriceFacts(t, c, s, f)
		})
	}
}

// checkGPUFacts compares a size's GPU with the pinned one, or checks that
// the size has none.
func checkGPUFacts(t *testing.T, s *SKU, f skuFact) {
	t.Helper()
	check := factChecker(t)
	if f.gpuModel == "" {
		check("GPU", s.GPU == nil, s.GPU, "nil")
		return
	}
	if s.GPU == nil {
		t.Errorf("GPU = nil, want %s", f.gpuModel)
		return
	}
	g := s.GPU
	check("GPU.Count", near(g.Count, f.gpuCount), g.Count, f.gpuCount)
	check("GPU.CountText", g.CountText == f.gpuCountText, g.CountText, f.gpuCountText)
	check("GPU.ModelID", g.ModelID == f.gpuModel, g.ModelID, f.gpuModel)
	check("GPU.Vendor", g.Vendor == f.vendor, g.Vendor, f.vendor)
	check("GPU.Architecture", g.Architecture == f.gpuArch, g.Architecture, f.gpuArch)
	check("GPU.MemoryGiB", near(g.MemoryGiB, f.gpuMem), g.MemoryGiB, f.gpuMem)
	check("GPU.MemoryGiBTotal", near(g.MemoryGiBTotal, f.gpuMemTotal), g.MemoryGiBTotal, f.gpuMemTotal)
	check("GPU.Interconnect", g.Interconnect == f.interconnect, g.Interconnect, f.interconnect)
	check("GPU.MaxCUDAMajor", g.MaxCUDAMajor == f.maxCUDA, g.MaxCUDAMajor, f.maxCUDA)
	switch f.vendor {
	case VendorNVIDIA:
		check("GPU.ComputeCapability", g.ComputeCapability == f.ccOrGfx, g.ComputeCapability, f.ccOrGfx)
		check("GPU.MinCUDA", g.MinCUDA == f.minToolkit, g.MinCUDA, f.minToolkit)
		check("GPU.GfxTarget", g.GfxTarget == "", g.GfxTarget, "")
	case VendorAMD:
		check("GPU.GfxTarget", g.GfxTarget == f.ccOrGfx, g.GfxTarget, f.ccOrGfx)
		check("GPU.MinROCm", g.MinROCm == f.minToolkit, g.MinROCm, f.minToolkit)
		check("GPU.ComputeCapability", g.ComputeCapability == "", g.ComputeCapability, "")
		check("GPU.MinCUDA", g.MinCUDA == "", g.MinCUDA, "")
	default:
		t.Fatalf("bad vendor %q in the test table", f.vendor)
	}
}

// checkNetworkFacts compares a size's network, Hyper-V generations and
// confidential flag with the pinned ones.
func checkNetworkFacts(t *testing.T, s *SKU, f skuFact) {
	t.Helper()
	check := factChecker(t)
	n := s.Network
	check("Network.RDMA", n.RDMA == f.rdma, n.RDMA, f.rdma)
	check("Network.InfiniBand", n.InfiniBand == f.ib, n.InfiniBand, f.ib)
	check("Network.InfiniBandGbps", n.InfiniBandGbps == f.ibGbps, n.InfiniBandGbps, f.ibGbps)
	check("Network.InfiniBandPorts", n.InfiniBandPorts == f.ibPorts, n.InfiniBandPorts, f.ibPorts)
	check("Network.EthernetMbps", samePtr(n.EthernetMbps, f.ethMbps), show(n.EthernetMbps), show(f.ethMbps))
	check("Network.AcceleratedNetworking", samePtr(n.AcceleratedNetworking, f.accel), show(n.AcceleratedNetworking), show(f.accel))
	check("HyperVGenerations", equalStrings(s.HyperVGenerations, f.hyperV), s.HyperVGenerations, f.hyperV)
	check("Confidential", s.Confidential == f.confidential, s.Confidential, f.confidential)
}

// checkLifecycleFacts compares a size's lifecycle with the pinned one and
// checks that every pinned decision is linked to it.
func checkLifecycleFacts(t *testing.T, s *SKU, f skuFact) {
	t.Helper()
	check := factChecker(t)
	lc := s.Lifecycle
	check("Lifecycle.Status", lc.Status == f.status, lc.Status, f.status)
	check("Lifecycle.RetirementDate", lc.RetirementDate == f.retirement, lc.RetirementDate, f.retirement)
	check("Lifecycle.ReplacementSizes", equalStrings(lc.ReplacementSizes, f.replacements), lc.ReplacementSizes, f.replacements)
	linked := map[string]bool{}
	for _, d := range s.Decisions {
		linked[d] = true
	}
	for _, d := range f.decisions {
		check("Decisions contains "+d, linked[d], s.Decisions, f.decisions)
	}
}

// checkImageFacts compares a size's AKS support and image with the pinned
// ones, or checks that the size has no image.
func checkImageFacts(t *testing.T, s *SKU, f skuFact) {
	t.Helper()
	check := factChecker(t)
	check("Support.AKS.Status", s.Support.AKS.Status == f.aks, s.Support.AKS.Status, f.aks)
	if !f.hasImage {
		check("Image", s.Image == nil, s.Image, "nil")
		return
	}
	if s.Image == nil {
		t.Errorf("Image = nil, want %q", f.imageURN)
		return
	}
	check("Image.URN", s.Image.URN == f.imageURN, s.Image.URN, f.imageURN)
	toolkit := s.Image.CUDAToolkit
	if f.vendor == VendorAMD {
		toolkit = s.Image.ROCm
	}
	check("Image toolkit", toolkit == f.imageToolkit, toolkit, f.imageToolkit)
}

// checkPriceFacts compares a size's prices with the pinned ones: the
// number of regions always, the price and spot estimate in priceRegion only
// at the reference snapshot.
func checkPriceFacts(t *testing.T, c *Catalog, s *SKU, f skuFact) {
	t.Helper()
	check := factChecker(t)
	snapshot := atReferenceSnapshot(c)
	check("len(Prices)", len(s.Prices) == f.priceRegions || (!snapshot && len(s.Prices) > f.priceRegions), len(s.Prices), f.priceRegions)
	if f.priceRegion == "" {
		return
	}
	p, ok := s.Prices[f.priceRegion]
	if !ok {
		t.Fatalf("no price in %s", f.priceRegion)
	}
	check("Price.Region", p.Region == f.priceRegion, p.Region, f.priceRegion)
	check("Price.SnapshotDate", p.SnapshotDate == c.PriceSnapshotDate, p.SnapshotDate, c.PriceSnapshotDate)
	if !snapshot {
		return
	}
	check("Price.USDPerHour", p.USDPerHour == f.price, p.USDPerHour, f.price)
	if f.spot == nil {
		check("Price.SpotUSDPerHour", p.SpotUSDPerHour == nil, show(p.SpotUSDPerHour), "nil")
		return
	}
	check("Price.SpotUSDPerHour", p.SpotUSDPerHour != nil && near(*p.SpotUSDPerHour, *f.spot), show(p.SpotUSDPerHour), *f.spot)
	check("Price.SpotSource", p.SpotSource != "", p.SpotSource, "a source")
}

// TestPinnedFactsCoverEveryFamilyAndSeries makes sure the table above keeps
// one size from every family and every series the catalog covers.
func TestPinnedFactsCoverEveryFamilyAndSeries(t *testing.T) {
	wantSeries := []string{
		"Edsv5", "Ev5", "FX", "Fsv2", "H", "HB", "HBv2", "HBv3", "HBv4", "HBv5", "HC", "HX",
		"NC", "NCv2", "NCv3", "NCasT4_v3", "NC_A100_v4", "NCads_H100_v5", "NCCads_H100_v5", "NC_RTXPRO6000BSE_v6",
		"ND", "NDv2", "NDasrA100_v4", "NDm_A100_v4", "ND-H100-v5", "ND-H200-v5", "ND-MI300X-v5", "ND-GB200-v6", "ND-GB300-v6",
		"NGads_V620", "NV", "NVadsA10_v5", "NVads_V710_v5", "NVv3", "NVv4",
		// Added with D37, D39 and D41.
		"Falsv6", "Fasv6", "Famsv6", "NCads_A10_v4", "NVv2",
		// Added with D60.
		"Fasv7", "Falsv7", "Famsv7", "Fadsv7", "Faldsv7", "Famdsv7", "FXmsv2", "FXmdsv2",
	}
	have := map[string]bool{}
	for _, f := range skuFacts {
		have[f.series] = true
	}
	for _, s := range wantSeries {
		if !have[s] {
			t.Errorf("no pinned size of series %s", s)
		}
	}
	c := mustDefault(t)
	if got := c.SeriesNames(); !equalStrings(sortedUnique(wantSeries), got) {
		t.Errorf("catalog series = %v, want %v", got, sortedUnique(wantSeries))
	}
}

// gpuModelFacts pins every GPU model against gpus.csv (A100 and V100 rows
// there cover several form factors, split into one model each here).
var gpuModelFacts = []struct {
	id, name, vendor, arch, ccOrGfx, minToolkit string
	maxCUDA                                     int64
	memGiB                                      float64
}{
	{"k80", "NVIDIA Tesla K80", "nvidia", "Kepler", "3.7", "6.5", 11, 12},
	{"m60", "NVIDIA Tesla M60", "nvidia", "Maxwell", "5.2", "6.5", 12, 8},
	{"p100", "NVIDIA Tesla P100 16GB PCIe", "nvidia", "Pascal", "6.0", "8.0", 12, 16},
	{"p40", "NVIDIA Tesla P40", "nvidia", "Pascal", "6.1", "8.0", 12, 24},
	{"v100-pcie-16gb", "NVIDIA Tesla V100 16GB PCIe", "nvidia", "Volta", "7.0", "9.0", 12, 16},
	{"v100-sxm2-32gb", "NVIDIA Tesla V100 32GB SXM2", "nvidia", "Volta", "7.0", "9.0", 12, 32},
	{"t4", "NVIDIA Tesla T4", "nvidia", "Turing", "7.5", "10.0", 13, 16},
	{"a100-sxm-40gb", "NVIDIA A100 40GB SXM", "nvidia", "Ampere", "8.0", "11.0", 13, 40},
	{"a100-sxm-80gb", "NVIDIA A100 80GB SXM", "nvidia", "Ampere", "8.0", "11.0", 13, 80},
	{"a100-pcie-80gb", "NVIDIA A100 80GB PCIe", "nvidia", "Ampere", "8.0", "11.0", 13, 80},
	{"a10", "NVIDIA A10", "nvidia", "Ampere", "8.6", "11.1", 13, 24},
	{"h100-sxm-80gb", "NVIDIA H100 80GB SXM", "nvidia", "Hopper", "9.0", "11.8", 13, 80},
	{"h100-nvl-94gb", "NVIDIA H100 NVL 94GB", "nvidia", "Hopper", "9.0", "11.8", 13, 94},
	{"h200-141gb", "NVIDIA H200 141GB", "nvidia", "Hopper", "9.0", "11.8", 13, 141},
	{"gb200", "NVIDIA GB200 (B200 GPU)", "nvidia", "Blackwell", "10.0", "12.8", 13, 192},
	{"gb300", "NVIDIA GB300 (Blackwell Ultra B300 GPU)", "nvidia", "Blackwell Ultra", "10.3", "12.9", 13, 288},
	{"rtx-pro-6000-bse", "NVIDIA RTX PRO 6000 Blackwell Server Edition", "nvidia", "Blackwell", "12.0", "12.8", 13, 96},
	{"mi300x", "AMD Instinct MI300X", "amd", "CDNA3", "gfx942", "6.0", 0, 192},
	{"mi25", "AMD Radeon Instinct MI25", "amd", "GCN 5 (Vega 10)", "gfx900", "", 0, 16},
	{"v620", "AMD Radeon PRO V620", "amd", "RDNA2", "gfx1030", "", 0, 32},
	// gpus.csv: 28 GiB physical, Azure exposes 24 per full GPU.
	{"v710", "AMD Radeon PRO V710", "amd", "RDNA3", "gfx1101", "", 0, 24},
}

func TestGPUModelFacts(t *testing.T) {
	c := mustDefault(t)
	var ids []string
	for _, f := range gpuModelFacts {
		ids = append(ids, f.id)
		t.Run(f.id, func(t *testing.T) {
			g, ok := c.GPUModel(f.id)
			if !ok {
				t.Fatalf("GPUModel(%q) not found", f.id)
			}
			cc, minTK := g.ComputeCapability, g.MinCUDA
			if f.vendor == VendorAMD {
				cc, minTK = g.GfxTarget, g.MinROCm
			}
			got := fmt.Sprintf("%s|%s|%s|%s|%s|%d|%g", g.Name, g.Vendor, g.Architecture, cc, minTK, g.MaxCUDAMajor, g.MemoryGiB)
			want := fmt.Sprintf("%s|%s|%s|%s|%s|%d|%g", f.name, f.vendor, f.arch, f.ccOrGfx, f.minToolkit, f.maxCUDA, f.memGiB)
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	// Every reference model is still used by a size; a new model may join.
	listed := c.GPUModelIDs()
	for _, id := range sortedUnique(ids) {
		if !slices.Contains(listed, id) {
			t.Errorf("GPUModelIDs() = %v lacks %s", listed, id)
		}
	}
}

func TestCatalogMetadata(t *testing.T) {
	c := mustDefault(t)
	if c.Version != "2026.11.0" {
		t.Errorf("Version = %q", c.Version)
	}
	// A refresh moves both dates forward from the reference's.
	if c.DataDate.Before(date(t, "2026-11-01")) {
		t.Errorf("DataDate = %v, before the reference's 2026-11-01", c.DataDate)
	}
	if snap, err := time.Parse(DateLayout, c.PriceSnapshotDate); err != nil || snap.Before(date(t, referenceSnapshot)) || snap.After(c.DataDate) {
		t.Errorf("PriceSnapshotDate = %q, want a date from the reference's %s to the data date", c.PriceSnapshotDate, referenceSnapshot)
	}
	if c.PriceSource == "" || c.SpotSource == "" || c.SpotCaveat == "" || len(c.Sources) == 0 {
		t.Errorf("price source %q, spot source %q, caveat %q, sources %v: all are required", c.PriceSource, c.SpotSource, c.SpotCaveat, c.Sources)
	}
}

// TestDecisions checks that the decisions are numbered D1, D2, ... in
// order (D1-D22 at the reference), each with a topic, a decision and
// sources.
func TestDecisions(t *testing.T) {
	c := mustDefault(t)
	if len(c.Decisions) < 22 {
		t.Fatalf("%d decisions, want D1-D22 at least", len(c.Decisions))
	}
	for i, d := range c.Decisions {
		if want := fmt.Sprintf("D%d", i+1); d.ID != want {
			t.Errorf("decision %d has ID %q, want %q", i, d.ID, want)
		}
		if d.Topic == "" || d.Decision == "" || len(d.Sources) == 0 {
			t.Errorf("decision %s: topic %q, decision %q, %d sources", d.ID, d.Topic, d.Decision, len(d.Sources))
		}
	}
}

// Standard_ND96is_H100_v5 is offered on request: no public Resource SKUs
// API list names it (D73), while the other sizes without a size page are
// in those lists and so are not.
func TestOnRequestSizes(t *testing.T) {
	c := mustDefault(t)
	var got []string
	for _, s := range c.SKUs() {
		if s.OnRequest {
			got = append(got, s.Name)
			if len(s.OnRequestSources) < 3 || !s.NoSizePage {
				t.Errorf("%s: on request with %d API lists checked, size page %v", s.Name, len(s.OnRequestSources), !s.NoSizePage)
			}
		}
	}
	if !slices.Equal(got, []string{"Standard_ND96is_H100_v5"}) {
		t.Errorf("on-request sizes %v", got)
	}
	for _, name := range []string{"Standard_ND96is_MI300X_v5", "Standard_NC8ads_A10_v4"} {
		if s, ok := c.Lookup(name); !ok || s.OnRequest || !s.NoSizePage {
			t.Errorf("%s: in the API lists without a size page, not on request", name)
		}
	}
}
