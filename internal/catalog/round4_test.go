// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// The corrections of decisions D65 to D79: one test per fix, each naming
// the sizes and the field it pins.

// TestTempDiskIsTheTotalOfTheDisks pins D65: temp_disk_gib of the F v7 d
// sizes and FXmdsv2 is the disk count times the disk size of the size
// page's local storage table, not one disk's size.
func TestTempDiskIsTheTotalOfTheDisks(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		name       string
		disks, gib int64 // the size page's count and size
	}{
		{"Standard_F4ads_v7", 1, 440}, // one disk: unchanged
		{"Standard_F8ads_v7", 2, 440},
		{"Standard_F16ads_v7", 4, 440},
		{"Standard_F48alds_v7", 6, 880},
		{"Standard_F64amds_v7", 4, 1760},
		{"Standard_F80alds_v7", 4, 2200},
		{"Standard_FX8mds_v2", 1, 440},
		{"Standard_FX12mds_v2", 2, 440},
		{"Standard_FX24-6mds_v2", 3, 440}, // a constrained-core size keeps its parent's disks
		{"Standard_FX96mds_v2", 6, 880},
	} {
		s := mustLookup(t, c, tc.name)
		if want := tc.disks * tc.gib; s.TempDiskGiB == nil || *s.TempDiskGiB != want {
			t.Errorf("%s temp_disk_gib = %s, want %d (%d x %d GiB)", tc.name, show(s.TempDiskGiB), want, tc.disks, tc.gib)
		}
		if linked := slices.Contains(s.Decisions, "D65"); linked != (tc.disks > 1) {
			t.Errorf("%s: D65 linked %t, want %t", tc.name, linked, tc.disks > 1)
		}
	}
}

// TestIsolatedSizesFromTheIsolationPage pins D66: isolated is true for the
// sizes Microsoft's isolation page lists, and false for the constrained-core
// sizes and the GB300 G5 size it does not name.
func TestIsolatedSizesFromTheIsolationPage(t *testing.T) {
	c := mustDefault(t)
	for name, want := range map[string]bool{
		// Listed on the page's versions of 2025-12-09 and 2026-04-28.
		"Standard_ND96isr_H100_v5":       true,
		"Standard_ND96isr_H200_v5":       true,
		"Standard_NC80adis_H100_v5":      true,
		"Standard_ND96isr_MI300X_v5":     true,
		"Standard_ND128isr_NDR_GB200_v6": true,
		"Standard_ND128isr_GB300_v6":     true, // the page spells it Standard_ND128isr_NDR_GB300_v6
		// Added by the version of 2026-04-28.
		"Standard_HB120rs_v3":       true,
		"Standard_HB176rs_v4":       true,
		"Standard_HB368rs_v5":       true,
		"Standard_HX176rs":          true,
		"Standard_NC64as_T4_v3":     true,
		"Standard_NC96ads_A100_v4":  true,
		"Standard_NG32ads_V620_v1":  true,
		"Standard_NG32adms_V620_v1": true,
		"Standard_NV72ads_A10_v5":   true,
		"Standard_E104ids_v5":       true,
		// Not named on the page.
		"Standard_HB120-16rs_v3":       false,
		"Standard_HX176-144rs":         false,
		"Standard_ND128isrG5_GB300_v6": false,
		"Standard_ND96is_H100_v5":      false,
		"Standard_NC40ads_H100_v5":     false,
	} {
		s := mustLookup(t, c, name)
		if s.Isolated != want {
			t.Errorf("%s isolated = %t, want %t", name, s.Isolated, want)
		}
		if want && name != "Standard_E104ids_v5" && !slices.Contains(s.Decisions, "D66") {
			t.Errorf("%s: isolated without D66", name)
		}
	}
}

// TestConstrainedCoreFv7Sizes pins D67: the 22 constrained-core Famsv7 and
// Famdsv7 sizes, each with its active vcpus, quota_vcpus of its parent, the
// series' quota family, the parent's memory and temporary disk, and the
// parent's price in every region the parent is priced in.
func TestConstrainedCoreFv7Sizes(t *testing.T) {
	c := mustDefault(t)
	n := 0
	for _, p := range []struct {
		parent int64
		active []int64
	}{{2, []int64{1}}, {4, []int64{1, 2}}, {8, []int64{2, 4}}, {16, []int64{4, 8}}, {32, []int64{8, 16}}, {64, []int64{16, 32}}} {
		for _, a := range p.active {
			for _, suffix := range []string{"ams_v7", "amds_v7"} {
				checkConstrainedFv7(t, c, fmt.Sprintf("Standard_F%d-%d%s", p.parent, a, suffix), fmt.Sprintf("Standard_F%d%s", p.parent, suffix), a)
				n++
			}
		}
	}
	if n != 22 {
		t.Errorf("%d sizes checked, want 22", n)
	}
	// The examples, named: Standard_F2-1ams_v7 has 1 vCPU of its
	// parent's 2 and Standard_F64-32amds_v7 the parent's 4 x 1,760 GiB disks.
	if s := mustLookup(t, c, "Standard_F2-1ams_v7"); *s.VCPUs != 1 || *s.QuotaVCPUCount() != 2 || s.QuotaFamily != "StandardFamsv7Family" {
		t.Errorf("Standard_F2-1ams_v7 vcpus %d, quota vcpus %d, quota family %q", *s.VCPUs, *s.QuotaVCPUCount(), s.QuotaFamily)
	}
	if s := mustLookup(t, c, "Standard_F64-32amds_v7"); *s.TempDiskGiB != 7040 || s.QuotaFamily != "StandardFamdsv7Family" {
		t.Errorf("Standard_F64-32amds_v7 temp_disk_gib %d, quota family %q", *s.TempDiskGiB, s.QuotaFamily)
	}
}

func checkConstrainedFv7(t *testing.T, c *Catalog, name, parentName string, active int64) {
	t.Helper()
	s, parent := mustLookup(t, c, name), mustLookup(t, c, parentName)
	switch {
	case s.Series != parent.Series || s.QuotaFamily != parent.QuotaFamily || s.QuotaFamily == "":
		t.Errorf("%s: series %s, quota family %q; want %s's %s, %q", name, s.Series, s.QuotaFamily, parentName, parent.Series, parent.QuotaFamily)
	case *s.VCPUs != active || s.QuotaVCPUs == nil || *s.QuotaVCPUs != *parent.VCPUs:
		t.Errorf("%s: vcpus %d, quota_vcpus %s; want %d and %d", name, *s.VCPUs, show(s.QuotaVCPUs), active, *parent.VCPUs)
	case *s.MemoryGiB != *parent.MemoryGiB || *s.TempDiskGiB != *parent.TempDiskGiB:
		t.Errorf("%s: memory %v, temp disk %d; want the parent's %v and %d", name, *s.MemoryGiB, *s.TempDiskGiB, *parent.MemoryGiB, *parent.TempDiskGiB)
	case !slices.Contains(s.Decisions, "D67") || !s.Deployable:
		t.Errorf("%s: decisions %v, deployable %t", name, s.Decisions, s.Deployable)
	}
	if len(s.Prices) != 32 || len(s.Prices) != len(parent.Prices) {
		t.Errorf("%s: priced in %d regions, its parent in %d, want 32", name, len(s.Prices), len(parent.Prices))
	}
	for region, p := range parent.Prices {
		if sp, ok := s.Prices[region]; !ok || sp.USDPerHour != p.USDPerHour {
			t.Errorf("%s in %s: %v, want the parent's %v", name, region, sp.USDPerHour, p.USDPerHour)
		}
	}
}

// TestHBv5AllCoreClock pins D68: HBv5's all_core_ghz is the size page's 4
// GHz all-core frequency peak, and the FP64 clock stays the 2.72 GHz its
// published HPL peak implies.
func TestHBv5AllCoreClock(t *testing.T) {
	c := mustDefault(t)
	for _, name := range []string{"Standard_HB368rs_v5", "Standard_HB368-48rs_v5"} {
		cpu := mustLookup(t, c, name).Performance.CPU
		if cpu == nil || cpu.AllCoreGHz == nil || *cpu.AllCoreGHz != 4.0 {
			t.Fatalf("%s all_core_ghz = %v, want 4.0", name, cpu)
		}
		if *cpu.CoreGHz != 4.0 || *cpu.FP64GHz != 2.72 {
			t.Errorf("%s: core clock %v, FP64 clock %v; want 4.0 and 2.72", name, *cpu.CoreGHz, *cpu.FP64GHz)
		}
	}
	if p := mustLookup(t, c, "Standard_HB368rs_v5").Performance.CPU.FP64PeakGFLOPS; *p != 16000 {
		t.Errorf("Standard_HB368rs_v5 fp64_peak_gflops = %v, want the published 16,000", *p)
	}
}

// TestSizeNotesAgreeWithSupport pins D69: no size's notes call it
// unsupported on AKS or Batch while its support record says otherwise, as
// the GA NC RTX PRO 6000 BSE v6 sizes' notes did.
func TestSizeNotesAgreeWithSupport(t *testing.T) {
	c := mustDefault(t)
	for _, s := range c.SKUs() {
		notes := strings.ToLower(s.Notes)
		if strings.Contains(notes, "not supported on aks") && s.Support.AKS.Status != "unsupported" {
			t.Errorf("%s: notes say not supported on AKS, support.aks is %q", s.Name, s.Support.AKS.Status)
		}
		if strings.Contains(notes, "azure batch per") && s.Support.Batch.Status != "unsupported" {
			t.Errorf("%s: notes deny Batch support, support.batch is %q", s.Name, s.Support.Batch.Status)
		}
	}
	for _, name := range []string{"Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC144ds_xl_RTXPRO6000BSE_v6", "Standard_NC288lds_xl_RTXPRO6000BSE_v6"} {
		s := mustLookup(t, c, name)
		if s.Support.AKS.Status != "supported" || s.Support.Batch.Status != "supported" || strings.Contains(s.Notes, "not supported") {
			t.Errorf("%s: support aks %q, batch %q, notes %q", name, s.Support.AKS.Status, s.Support.Batch.Status, s.Notes)
		}
	}
}

// TestGB300WithdrawnListPrice pins the amended D35: the GB300 sizes have
// no price row (the 140.60 USD/h meter of October to December 2025 was
// withdrawn), and D35 records that figure and its regions.
func TestGB300WithdrawnListPrice(t *testing.T) {
	c := mustDefault(t)
	for _, name := range []string{"Standard_ND128isr_GB300_v6", "Standard_ND128isrG5_GB300_v6"} {
		if s := mustLookup(t, c, name); len(s.Prices) != 0 || !slices.Contains(s.Decisions, "D35") {
			t.Errorf("%s: prices %v, decisions %v; want none, with D35", name, s.Prices, s.Decisions)
		}
	}
	for _, d := range c.Decisions {
		if d.ID != "D35" {
			continue
		}
		for _, want := range []string{"140.60 USD/h", "eastus2", "westus3", "October to December 2025", "withdrawn"} {
			if !strings.Contains(d.Decision, want) {
				t.Errorf("D35 does not record %q: %s", want, d.Decision)
			}
		}
	}
}

// TestSpotFromTheEastusSnapshot pins D70: in eastus the spot estimate of a
// GPU size the 2026-09-28 snapshot prices at spot is its on-demand price
// times that snapshot's factor, dated; elsewhere the older ratio stays,
// undated and marked so, and H100 has no estimate where no Spot meter is
// known.
func TestSpotFromTheEastusSnapshot(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		name   string
		factor float64
	}{
		{"Standard_NC4as_T4_v3", 0.2836},
		{"Standard_NV6ads_A10_v5", 0.1848},
		{"Standard_NV36ads_A10_v5", 0.1848},
		{"Standard_NC40ads_H100_v5", 0.1848},
		{"Standard_NC80adis_H100_v5", 0.1848},
		{"Standard_ND96isr_H100_v5", 0.1848},
	} {
		p := mustLookup(t, c, tc.name).Prices["eastus"]
		want := math.Round(p.USDPerHour*tc.factor*1e6) / 1e6
		if p.SpotUSDPerHour == nil || math.Abs(*p.SpotUSDPerHour-want) > 2e-6 || p.SpotDate != "2026-09-28" || !strings.Contains(p.SpotSource, "convox/convox:pkg/billing/prices_azure.go@0e6394812938498a1eacbf652eb94b2e7d190ac3") {
			t.Errorf("%s in eastus: spot %s, date %q, source %q; want %v dated 2026-09-28", tc.name, show(p.SpotUSDPerHour), p.SpotDate, p.SpotSource, want)
		}
	}
	if p := mustLookup(t, c, "Standard_ND96isr_H100_v5").Prices["eastus"]; math.Abs(*p.SpotUSDPerHour-18.17) > 0.005 {
		t.Errorf("Standard_ND96isr_H100_v5 spot in eastus %v, want about 18.17", *p.SpotUSDPerHour)
	}
	// Other regions keep the older ratio, undated, or none for H100.
	if p := mustLookup(t, c, "Standard_NC4as_T4_v3").Prices["westus2"]; p.SpotUSDPerHour == nil || p.SpotDate != "" || !strings.Contains(p.SpotSource, "undated") {
		t.Errorf("Standard_NC4as_T4_v3 in westus2: spot %s, date %q, source %q; want the older ratio, undated", show(p.SpotUSDPerHour), p.SpotDate, p.SpotSource)
	}
	if p := mustLookup(t, c, "Standard_ND96isr_H100_v5").Prices["westus"]; p.SpotUSDPerHour != nil {
		t.Errorf("Standard_ND96isr_H100_v5 in westus: spot %v, want none (no Spot meter known, D33)", *p.SpotUSDPerHour)
	}
}

// TestFP64ClockIsNeverTheMaximumBoost pins D71: every series with a derived
// FP64 rate has a sustained clock for it (a published all-core clock, one
// implied by a published HPL peak, or the base clock of the nearest retail
// part), so no FP64 rate rests on the maximum boost; the F v6 and F v7
// sizes take their retail parts' base clocks.
func TestFP64ClockIsNeverTheMaximumBoost(t *testing.T) {
	c := mustDefault(t)
	for _, s := range c.SKUs() {
		p, ok := c.SeriesPerformance(s.Series)
		if !ok || p.FP64FLOPsPerCycle == nil || p.FP64AllCoreGHz != nil || p.AllCoreGHz != nil {
			continue
		}
		t.Errorf("%s (%s): FP64 clock %v GHz is the maximum boost", s.Name, s.Series, show(p.MaxBoostGHz))
	}
	for _, tc := range []struct {
		name         string
		clock, gflop float64
	}{
		{"Standard_F80alds_v7", 2.6, 80 * 2.6 * 32}, // 6,656, was 80 x 4.5 x 32 = 11,520
		{"Standard_F80ams_v7", 2.6, 6656},
		{"Standard_F16-4amds_v7", 2.6, 4 * 2.6 * 32},
		{"Standard_F64als_v6", 2.25, 64 * 2.25 * 16}, // 2,304, was 3,788.8
		{"Standard_F2as_v6", 2.25, 72},
	} {
		cpu := mustLookup(t, c, tc.name).Performance.CPU
		if cpu == nil || cpu.FP64GHz == nil || *cpu.FP64GHz != tc.clock || cpu.FP64PeakGFLOPS == nil || math.Abs(*cpu.FP64PeakGFLOPS-tc.gflop) > 0.005 {
			t.Errorf("%s: FP64 clock %v, fp64_peak_gflops %v; want %v GHz and %v", tc.name, show(cpu.FP64GHz), show(cpu.FP64PeakGFLOPS), tc.clock, tc.gflop)
		}
		if *cpu.MaxBoostGHz == *cpu.FP64GHz {
			t.Errorf("%s: the FP64 clock is the maximum boost %v", tc.name, *cpu.MaxBoostGHz)
		}
	}
	// HBv3 per core against F v7: 2.08 x 16 = 33.28 GFLOPS against 2.6 x
	// 32 = 83.2, not 144.
	hb, f := mustLookup(t, c, "Standard_HB120rs_v3").Performance.CPU, mustLookup(t, c, "Standard_F80alds_v7").Performance.CPU
	if r := hb.FP64GFLOPS(1) / f.FP64GFLOPS(1); math.Abs(r-0.4) > 1e-9 {
		t.Errorf("HB120rs_v3 per-core FP64 over F80alds_v7's = %v, want 0.4", r)
	}
}

// TestFv7Image pins D72: every F v7 size names the Ubuntu Server 24.04
// image, with its URN and the Batch node agent, while the F v6 sizes still
// name none.
func TestFv7Image(t *testing.T) {
	c := mustDefault(t)
	n := 0
	for _, s := range c.SKUs() {
		switch s.Series {
		case "Fasv7", "Falsv7", "Famsv7", "Fadsv7", "Faldsv7", "Famdsv7":
			n++
			if im := s.Image; im == nil || im.URN != "Canonical:ubuntu-24_04-lts:server:latest" || im.BatchNodeAgentSKUID != "batch.node.ubuntu 24.04" || im.Arch != "x86_64" {
				t.Errorf("%s image %+v", s.Name, im)
			}
		case "Fasv6", "Falsv6", "Famsv6":
			if s.Image != nil {
				t.Errorf("%s image %s, no source settles one (D72)", s.Name, s.Image.URN)
			}
		}
	}
	if n != 76 {
		t.Errorf("%d F v7 sizes, want 76 (54 and the 22 of D67)", n)
	}
	if im := mustLookup(t, c, "Standard_F80alds_v7").Image; im == nil || im.CUDAToolkit != "" || im.Driver != "" {
		t.Errorf("Standard_F80alds_v7 image %+v: a CPU image has no GPU stack", im)
	}
}

// TestSpotOnlyWhereAzureSellsIt pins D75: a region and size the Resource
// SKUs API marks LowPriorityCapable=False (the 2026-09-01 cross-reference
// of the API with the retail Spot meters) has no spot price, though a Spot
// meter prices it; the same size elsewhere keeps its estimate.
func TestSpotOnlyWhereAzureSellsIt(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct{ size, region string }{
		{"Standard_ND96asr_v4", "eastus"},
		{"Standard_ND96amsr_A100_v4", "eastus"},
		{"Standard_NC24ads_A100_v4", "eastus"},
		{"Standard_NC64as_T4_v3", "eastus"},
		{"Standard_NC4as_T4_v3", "westus3"},
		{"Standard_NV36adms_A10_v5", "westus"},
	} {
		if p, ok := mustLookup(t, c, tc.size).Prices[tc.region]; !ok || p.SpotUSDPerHour != nil {
			t.Errorf("%s in %s: priced %v, spot %s; want an on-demand price and no spot (D75)", tc.size, tc.region, ok, show(p.SpotUSDPerHour))
		}
	}
	if p := mustLookup(t, c, "Standard_NC4as_T4_v3").Prices["eastus"]; p.SpotUSDPerHour == nil {
		t.Error("Standard_NC4as_T4_v3 in eastus keeps its spot estimate")
	}
}
