// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// The sizes of the reference files (testdata/reference/README.md): 144
// sizes, and 2,287 prices for 110 of them in 57 regions. How many sizes,
// prices and regions the catalog has now is in testdata/summary.golden.
const (
	referenceSizes     = 144
	referencePriceRows = 2287
)

// referenceSnapshot is the date of the price snapshot the reference facts
// hold. Until a refresh replaces the embedded prices (and the catalog's
// price_snapshot_date with them), tests compare price values with the
// reference's; after one, they check what a refresh keeps: a refresh
// changes and adds price rows, never removes one, so every size and region
// priced at the reference stays priced.
const referenceSnapshot = "2026-06-18"

// atReferenceSnapshot reports whether the catalog's prices are still the
// reference snapshot's.
func atReferenceSnapshot(c *Catalog) bool { return c.PriceSnapshotDate == referenceSnapshot }

func TestNameIndexCoversEverySize(t *testing.T) {
	c := mustDefault(t)
	if len(c.SKUs()) == 0 || len(c.byName) != len(c.SKUs()) {
		t.Errorf("name index has %d entries for %d sizes", len(c.byName), len(c.SKUs()))
	}
}

// TestNamesMatchReferenceSKUsCSV checks that every size of the reference is
// in the catalog, spelled the same. Sizes added since are listed in the
// golden summary.
func TestNamesMatchReferenceSKUsCSV(t *testing.T) {
	rows := referenceCSV(t, "skus.csv")
	c := mustDefault(t)
	if len(rows) != referenceSizes {
		t.Errorf("skus.csv has %d rows, want %d", len(rows), referenceSizes)
	}
	want := map[string]bool{}
	for _, r := range rows {
		want[r["name"]] = true
	}
	got := map[string]bool{}
	for _, s := range c.SKUs() {
		got[s.Name] = true
	}
	for n := range want {
		if !got[n] {
			t.Errorf("skus.csv size %s is missing from the catalog (exact spelling)", n)
		}
	}
}

func TestNamesUniqueCaseInsensitive(t *testing.T) {
	c := mustDefault(t)
	seen := map[string]string{}
	for _, s := range c.SKUs() {
		k := strings.ToLower(s.Name)
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s differ only in case", prev, s.Name)
		}
		seen[k] = s.Name
		if got, ok := c.Lookup(s.Name); !ok || got != s {
			t.Errorf("Lookup(%q) does not return the listed size", s.Name)
		}
		if !regexp.MustCompile(`^Standard_[A-Za-z0-9_-]+$`).MatchString(s.Name) {
			t.Errorf("%q does not look like a size name", s.Name)
		}
	}
	if !sort.SliceIsSorted(c.SKUs(), func(i, j int) bool { return c.SKUs()[i].Name < c.SKUs()[j].Name }) {
		t.Error("SKUs() is not ordered by name")
	}
}

// TestFamilies checks Families() against the sizes and the families the
// reference covers (README: ND, NC, NV, NG, H, HB, HC, HX, and the F and E
// CPU sizes). How many sizes each family has is in the golden summary.
func TestFamilies(t *testing.T) {
	c := mustDefault(t)
	var fams []string
	for _, s := range c.SKUs() {
		fams = append(fams, s.Family)
	}
	got := c.Families()
	if !equalStrings(got, sortedUnique(fams)) {
		t.Errorf("Families() = %v, the sizes have %v", got, sortedUnique(fams))
	}
	for _, f := range []string{"E", "F", "H", "HB", "HC", "HX", "NC", "ND", "NG", "NV"} {
		if !slices.Contains(got, f) {
			t.Errorf("Families() = %v lacks %s", got, f)
		}
	}
}

// The seven NVv3/NVv4 sizes named only on retirement pages (D20).
var sizesWithoutSpecs = []string{
	"Standard_NV12hs_v3", "Standard_NV16ahs_v4", "Standard_NV24ms_v3", "Standard_NV32ahs_v4",
	"Standard_NV32ms_v3", "Standard_NV4ahs_v4", "Standard_NV8ahs_v4",
}

// GPU sizes whose vCPUs, memory and GPU share are null for other reasons:
// the NC RTX PRO 6000 preview sizes no page gives a GPU share for (D38).
var gpuSizesWithoutShare = map[string][]string{
	"D38": {
		"Standard_NC128mds_xl_RTXPRO6000BSE_v6", "Standard_NC16lds_xl_RTXPRO6000BSE_v6", "Standard_NC32ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC32lds_xl_RTXPRO6000BSE_v6", "Standard_NC32mds_xl_RTXPRO6000BSE_v6", "Standard_NC64ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC64lds_xl_RTXPRO6000BSE_v6", "Standard_NC64mds_xl_RTXPRO6000BSE_v6",
	},
}

func TestGPUSizesJoinAGPUModel(t *testing.T) {
	c := mustDefault(t)
	var unknown []string
	for _, s := range c.SKUs() {
		if s.Category != CategoryGPU {
			if s.GPU != nil {
				t.Errorf("%s: %s size has a GPU", s.Name, s.Category)
			}
			continue
		}
		if s.GPU == nil {
			t.Errorf("%s: GPU size without GPU", s.Name)
			continue
		}
		checkGPUJoinsModel(t, c, s)
		if s.VCPUs == nil {
			unknown = append(unknown, s.Name)
		}
		checkGPUShare(t, s)
	}
	sort.Strings(unknown)
	want := append([]string{}, sizesWithoutSpecs...)
	for _, names := range gpuSizesWithoutShare {
		want = append(want, names...)
	}
	sort.Strings(want)
	if !equalStrings(unknown, want) {
		t.Errorf("sizes with null vCPUs = %v, want %v", unknown, want)
	}
	for id, names := range gpuSizesWithoutShare {
		for _, n := range names {
			if s := mustLookup(t, c, n); !slices.Contains(s.Decisions, id) || slices.Contains(s.Decisions, "D20") {
				t.Errorf("%s: decisions %v, want %s and not D20", n, s.Decisions, id)
			}
		}
	}
}

// checkGPUJoinsModel checks that a GPU size's GPU joins the model table and
// carries its vendor's toolkit facts and none of the other vendor's.
func checkGPUJoinsModel(t *testing.T, c *Catalog, s *SKU) {
	t.Helper()
	g := s.GPU
	m, ok := c.GPUModel(g.ModelID)
	if !ok || m.Name != g.Model || m.Vendor != g.Vendor {
		t.Errorf("%s: GPU model %q does not join the model table", s.Name, g.ModelID)
	}
	switch g.Vendor {
	case VendorNVIDIA:
		if g.ComputeCapability == "" || g.MinCUDA == "" || g.MaxCUDAMajor < 11 || g.GfxTarget != "" {
			t.Errorf("%s: NVIDIA GPU %s has compute capability %q, min CUDA %q, max CUDA major %d, gfx %q", s.Name, g.ModelID, g.ComputeCapability, g.MinCUDA, g.MaxCUDAMajor, g.GfxTarget)
		}
	case VendorAMD:
		if !strings.HasPrefix(g.GfxTarget, "gfx") || g.ComputeCapability != "" || g.MaxCUDAMajor != 0 || g.MinCUDA != "" {
			t.Errorf("%s: AMD GPU %s has gfx %q, compute capability %q, CUDA %q/%d", s.Name, g.ModelID, g.GfxTarget, g.ComputeCapability, g.MinCUDA, g.MaxCUDAMajor)
		}
	default:
		t.Errorf("%s: vendor %q", s.Name, g.Vendor)
	}
}

// checkGPUShare checks a GPU size's GPU count and memory: when its vCPUs
// are unknown, no count, no GPU memory and null memory and temporary disk
// (D20: null, never zero); otherwise a positive count and memory, the
// total the count times the memory per GPU.
func checkGPUShare(t *testing.T, s *SKU) {
	t.Helper()
	g := s.GPU
	if s.VCPUs == nil {
		if g.Count != 0 || g.CountText != "" || g.MemoryGiB != 0 || s.MemoryGiB != nil || s.TempDiskGiB != nil {
			t.Errorf("%s: unknown size has GPU count %q and memory values (D20: null, never zero)", s.Name, g.CountText)
		}
		return
	}
	if !(g.Count > 0) || !(g.MemoryGiB > 0) || g.MemoryGiBTotal < g.MemoryGiB {
		t.Errorf("%s: GPU count %v, memory %v, total %v", s.Name, g.Count, g.MemoryGiB, g.MemoryGiBTotal)
	}
	if g.Count >= 1 && !near(g.MemoryGiBTotal, g.MemoryGiB*g.Count) {
		t.Errorf("%s: total GPU memory %v != %v x %v", s.Name, g.MemoryGiBTotal, g.Count, g.MemoryGiB)
	}
}

func TestRDMAImpliesInfiniBand(t *testing.T) {
	c := mustDefault(t)
	gens := map[string]bool{"FDR": true, "EDR": true, "HDR": true, "NDR": true, "XDR": true}
	for _, s := range c.SKUs() {
		n := s.Network
		if n.RDMA {
			if !gens[n.InfiniBand] || n.InfiniBandGbps <= 0 || n.InfiniBandPorts <= 0 || n.InfiniBandText == "" {
				t.Errorf("%s: RDMA with InfiniBand %q, %d Gb/s, %d ports, text %q", s.Name, n.InfiniBand, n.InfiniBandGbps, n.InfiniBandPorts, n.InfiniBandText)
			}
		} else if n.InfiniBand != "" || n.InfiniBandGbps != 0 {
			t.Errorf("%s: InfiniBand %s without RDMA", s.Name, n.InfiniBand)
		}
	}
}

func TestLifecycleInvariants(t *testing.T) {
	c := mustDefault(t)
	for _, s := range c.SKUs() {
		lc := s.Lifecycle
		rt, hasDate := s.RetirementTime()
		switch lc.Status {
		case StatusRetired:
			if !hasDate || !rt.Before(c.DataDate) {
				t.Errorf("%s: retired with retirement date %q, want a date before %s", s.Name, lc.RetirementDate, c.DataDate.Format(DateLayout))
			}
			if len(lc.ReplacementSizes) == 0 && len(lc.ReplacementSeries) == 0 {
				t.Errorf("%s: retired without a replacement", s.Name)
			}
		case StatusRetiring:
			if !hasDate {
				t.Errorf("%s: retiring without a retirement date", s.Name)
			}
		case StatusGA:
			if lc.RetirementDate != "" {
				t.Errorf("%s: GA with retirement date %s", s.Name, lc.RetirementDate)
			}
		default:
			t.Errorf("%s: status %q", s.Name, lc.Status)
		}
		if len(lc.Sources) == 0 {
			t.Errorf("%s: lifecycle has no source", s.Name)
		}
	}
}

// TestReplacementSizes checks D18: every replacement is a current (GA) size
// of the catalog, the Falsv6 sizes named for Fsv2 included (D37).
func TestReplacementSizes(t *testing.T) {
	c := mustDefault(t)
	n := 0
	for _, s := range c.SKUs() {
		for _, r := range s.Lifecycle.ReplacementSizes {
			n++
			if r == s.Name {
				t.Errorf("%s replaces itself", s.Name)
			}
			rs, ok := c.Lookup(r)
			if !ok {
				t.Errorf("%s: replacement %s is not in the catalog", s.Name, r)
				continue
			}
			if rs.Lifecycle.Status != StatusGA {
				t.Errorf("%s: replacement %s is %s, want ga (D18)", s.Name, r, rs.Lifecycle.Status)
			}
		}
		if s.Lifecycle.Status != StatusGA && len(s.Lifecycle.ReplacementSizes) == 0 {
			t.Errorf("%s: %s size names no replacement size", s.Name, s.Lifecycle.Status)
		}
	}
	if n == 0 {
		t.Fatal("no replacement sizes at all")
	}
}

func TestPricesPositiveAndSpotNotAboveOnDemand(t *testing.T) {
	c := mustDefault(t)
	spots, noSpot := 0, 0
	for _, s := range c.SKUs() {
		for region, p := range s.Prices {
			if p.Region != region {
				t.Errorf("%s: price keyed %s says region %s", s.Name, region, p.Region)
			}
			if !(p.USDPerHour > 0) {
				t.Errorf("%s in %s: price %v is not positive", s.Name, region, p.USDPerHour)
			}
			if p.SnapshotDate != c.PriceSnapshotDate || p.Source == "" {
				t.Errorf("%s in %s: snapshot %q, source %q", s.Name, region, p.SnapshotDate, p.Source)
			}
			if p.SpotUSDPerHour != nil {
				spots++
			}
			if p.NoSpot {
				noSpot++
			}
			if msg := spotDefect(p); msg != "" {
				t.Errorf("%s in %s: %s", s.Name, region, msg)
			}
		}
	}
	if spots == 0 {
		t.Error("no spot price at all")
	}
	if noSpot == 0 {
		t.Error("no size Azure sells no Spot VMs of (D75): the spot table's rows without prices are lost")
	}
}

// spotDefect is what is wrong with a price's spot figures: a spot price
// above the on-demand one or without a source, or a source without a spot
// price or a statement that Azure sells none (NoSpot); "" when nothing.
func spotDefect(p Price) string {
	switch sp := p.SpotUSDPerHour; {
	case sp == nil && p.NoSpot != (p.SpotSource != ""):
		return fmt.Sprintf("no spot price, NoSpot %v, spot source %q", p.NoSpot, p.SpotSource)
	case sp == nil:
		return ""
	case p.NoSpot:
		return "a spot price, and NoSpot"
	case !(*sp > 0) || *sp > p.USDPerHour:
		return fmt.Sprintf("spot %v, on-demand %v", *sp, p.USDPerHour)
	case p.SpotSource == "":
		return "spot price without source"
	}
	return ""
}

func TestPriceCoverage(t *testing.T) {
	c := mustDefault(t)
	if !sort.StringsAreSorted(c.Regions()) {
		t.Error("Regions() is not sorted")
	}
	inRegion := map[string]bool{}
	for _, s := range c.SKUs() {
		for r := range s.Prices {
			inRegion[r] = true
		}
	}
	if len(inRegion) != len(c.Regions()) {
		t.Errorf("prices name %d regions, Regions() lists %d", len(inRegion), len(c.Regions()))
	}
	for _, r := range []string{"eastus", "westeurope", "australiacentral", "westus3", "jioindiawest"} {
		if !c.HasRegion(r) {
			t.Errorf("HasRegion(%q) = false", r)
		}
	}
	for _, r := range []string{"", "mars", "eastus4", "zzz"} {
		if c.HasRegion(r) {
			t.Errorf("HasRegion(%q) = true", r)
		}
	}
}

func TestEverythingHasASource(t *testing.T) {
	c := mustDefault(t)
	blank := func(list []string) bool {
		if len(list) == 0 {
			return true
		}
		for _, s := range list {
			if strings.TrimSpace(s) == "" {
				return true
			}
		}
		return false
	}
	for _, s := range c.SKUs() {
		if blank(s.Sources) {
			t.Errorf("size %s: no source", s.Name)
		}
		if s.GPU != nil && blank(s.GPU.Sources) {
			t.Errorf("size %s: GPU without source", s.Name)
		}
		if s.Image != nil && strings.TrimSpace(s.Image.Source) == "" {
			t.Errorf("size %s: image without source", s.Name)
		}
	}
	for name, sr := range c.series {
		if blank(sr.Sources) {
			t.Errorf("series %s: no source", name)
		}
		if blank(sr.Lifecycle.Sources) {
			t.Errorf("series %s: lifecycle without source", name)
		}
	}
	for id, g := range c.gpuModels {
		if blank(g.Sources) {
			t.Errorf("GPU model %s: no source", id)
		}
	}
	for _, d := range c.Decisions {
		if blank(d.Sources) {
			t.Errorf("decision %s: no source", d.ID)
		}
	}
}

func TestDecisionLinksAreDefined(t *testing.T) {
	c := mustDefault(t)
	defined := map[string]bool{}
	for _, d := range c.Decisions {
		defined[d.ID] = true
	}
	linked := map[string]map[string]bool{}
	for _, s := range c.SKUs() {
		for _, d := range s.Decisions {
			if !defined[d] {
				t.Errorf("%s links undefined decision %s", s.Name, d)
			}
			if linked[d] == nil {
				linked[d] = map[string]bool{}
			}
			linked[d][s.Name] = true
		}
	}
	// How many sizes each decision settles is in the golden summary. At
	// the reference: D1 NC+NCv2+ND+NV (4+4+4+3); D2 the retired series H,
	// HB, NC, NCv2, ND, NV, NCv3 (6+4+4+4+4+3+4); D3 and D49 NVv3+NVv4 (6+8); D4
	// HBv2+HC (5+3); D5 GB200; D6 HBv5; D7 HBv4+HX; D8 NDv2; D9 NV; D10
	// NCads H100 v5; D13/D14 the 15 RTX PRO 6000 sizes; D15 GB200+GB300; D16
	// ND H100 v5, ND H200 v5 and ND MI300X v5; D17 the four HB60 sizes; D18
	// every retired or retiring size (65) but the six RTX PRO preview sizes,
	// whose replacement is D13's; D20 the seven sizes without specs; D21
	// NC48ads and NC96ads A100 v4; D22 the two GB300 sizes.
	for _, id := range []string{"D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D13", "D15", "D16", "D17", "D18", "D20", "D21", "D22",
		"D36", "D37", "D38", "D39", "D40", "D41", "D42", "D43", "D44", "D45", "D46", "D47", "D49", "D52", "D53", "D54", "D55", "D56", "D57", "D58", "D59"} {
		if len(linked[id]) == 0 {
			t.Errorf("decision %s is linked from no size", id)
		}
	}
	// D42 supersedes D14: no size links it any more, and its text says so.
	if len(linked["D14"]) != 0 {
		t.Errorf("D14, superseded by D42, is linked from %d sizes", len(linked["D14"]))
	}
	for _, d := range c.Decisions {
		if d.ID == "D14" && !strings.HasPrefix(d.Decision, "Superseded by D42") {
			t.Errorf("D14 does not say it is superseded by D42: %q", d.Decision)
		}
	}
	// D20 governs exactly the seven sizes without specs.
	if d20 := linked["D20"]; true {
		var got []string
		for n := range d20 {
			got = append(got, n)
		}
		sort.Strings(got)
		if !equalStrings(got, sizesWithoutSpecs) {
			t.Errorf("D20 linked from %v, want %v", got, sizesWithoutSpecs)
		}
	}
}

// TestNoRetiringSizePastDateAtDataDate pins D49: on the catalog's data date
// no size is still "retiring" past its retirement date, and the NVv3/NVv4
// sizes, retired on 2026-09-30, are "retired" with that date and unsupported
// on AKS and Azure ML.
func TestNoRetiringSizePastDateAtDataDate(t *testing.T) {
	c := mustDefault(t)
	n := 0
	for _, s := range c.SKUs() {
		if s.Lifecycle.Status == StatusRetiring && s.StatusAt(c.DataDate) == StatusRetired {
			t.Errorf("%s (%s): retiring, retirement %q, past at %s", s.Name, s.Series, s.Lifecycle.RetirementDate, c.DataDate.Format(time.DateOnly))
		}
		if s.Series != "NVv3" && s.Series != "NVv4" {
			continue
		}
		n++
		if s.Lifecycle.Status != StatusRetired || s.Lifecycle.RetirementDate != "2026-09-30" {
			t.Errorf("%s lifecycle: %s, retirement %q; want retired, 2026-09-30 (D49)", s.Name, s.Lifecycle.Status, s.Lifecycle.RetirementDate)
		}
		if s.Support.AKS.Status != SupportUnsupported || s.Support.AzureML.Status != SupportUnsupported {
			t.Errorf("%s support: AKS %s, Azure ML %s; want unsupported (D49)", s.Name, s.Support.AKS.Status, s.Support.AzureML.Status)
		}
	}
	if n == 0 {
		t.Error("no NVv3 or NVv4 size")
	}
}

// notDeployableSizes are the sizes no deployable list names (D44).
var notDeployableSizes = []string{
	"Standard_NC128mds_xl_RTXPRO6000BSE_v6", "Standard_NC32mds_xl_RTXPRO6000BSE_v6", "Standard_NC64mds_xl_RTXPRO6000BSE_v6",
	"Standard_ND128isrG5_GB300_v6", "Standard_NV12hs_v3", "Standard_NV16ahs_v4", "Standard_NV24ms_v3",
	"Standard_NV32ahs_v4", "Standard_NV32ms_v3", "Standard_NV4ahs_v4", "Standard_NV8ahs_v4",
}

// allottedMemoryGiB returns the memory the Resource SKUs API allots where it
// differs from the size page (D45), by size.
func allottedMemoryGiB() map[string]float64 {
	// SkyPilot's Azure catalog (built from the Resource SKUs API): HBv3 456
	// GiB where the size pages say 448; ND96amsr_A100_v4 1,800 where its
	// page says 1,900. Aspire's AKS VM size list (from the same API): ND
	// GB200 v6 864 where its page says 900, HBv5 448 where its pages say 432.
	allotted := map[string]float64{
		"Standard_HB120rs_v3": 456, "Standard_HB120-16rs_v3": 456, "Standard_HB120-32rs_v3": 456,
		"Standard_HB120-64rs_v3": 456, "Standard_HB120-96rs_v3": 456, "Standard_ND96amsr_A100_v4": 1800,
		"Standard_ND128isr_NDR_GB200_v6": 864, "Standard_HB368rs_v5": 448,
	}
	for _, a := range []string{"48", "96", "144", "192", "240", "288", "336"} {
		allotted["Standard_HB368-"+a+"rs_v5"] = 448
	}
	return allotted
}

// constrainedQuotaVCPUs returns the vCPUs quota counts for constrained-core
// sizes (D46), by size.
func constrainedQuotaVCPUs() map[string]int64 {
	// The parent's vCPUs for the constrained-core sizes of HBv2, HBv3, HBv4,
	// HX, HC and HBv5 (the API listings); HB reports its own count.
	quota := map[string]int64{}
	for _, p := range []struct {
		parent string
		vcpus  int64
		active []string
	}{
		{"Standard_HB120-%srs_v2", 120, []string{"16", "32", "64", "96"}},
		{"Standard_HB120-%srs_v3", 120, []string{"16", "32", "64", "96"}},
		{"Standard_HB176-%srs_v4", 176, []string{"24", "48", "96", "144"}},
		{"Standard_HX176-%srs", 176, []string{"24", "48", "96", "144"}},
		{"Standard_HB368-%srs_v5", 368, []string{"48", "96", "144", "192", "240", "288", "336"}},
		{"Standard_HC44-%srs", 44, []string{"16", "32"}},
		// D60: the FX v2 constrained-core sizes.
		{"Standard_FX4-%sms_v2", 4, []string{"2"}},
		{"Standard_FX4-%smds_v2", 4, []string{"2"}},
		{"Standard_FX8-%sms_v2", 8, []string{"2", "4"}},
		{"Standard_FX8-%smds_v2", 8, []string{"2", "4"}},
		{"Standard_FX12-%sms_v2", 12, []string{"6"}},
		{"Standard_FX12-%smds_v2", 12, []string{"6"}},
		{"Standard_FX16-%sms_v2", 16, []string{"4", "8"}},
		{"Standard_FX16-%smds_v2", 16, []string{"4", "8"}},
		{"Standard_FX24-%sms_v2", 24, []string{"6", "12"}},
		{"Standard_FX24-%smds_v2", 24, []string{"6", "12"}},
		{"Standard_FX32-%sms_v2", 32, []string{"8", "16"}},
		{"Standard_FX32-%smds_v2", 32, []string{"8", "16"}},
		{"Standard_FX48-%sms_v2", 48, []string{"12", "24"}},
		{"Standard_FX48-%smds_v2", 48, []string{"12", "24"}},
		{"Standard_FX64-%sms_v2", 64, []string{"16", "32"}},
		{"Standard_FX64-%smds_v2", 64, []string{"16", "32"}},
		{"Standard_FX96-%sms_v2", 96, []string{"24", "48"}},
		{"Standard_FX96-%smds_v2", 96, []string{"24", "48"}},
		// D67: the Famsv7 and Famdsv7 constrained-core sizes.
		{"Standard_F2-%sams_v7", 2, []string{"1"}},
		{"Standard_F2-%samds_v7", 2, []string{"1"}},
		{"Standard_F4-%sams_v7", 4, []string{"1", "2"}},
		{"Standard_F4-%samds_v7", 4, []string{"1", "2"}},
		{"Standard_F8-%sams_v7", 8, []string{"2", "4"}},
		{"Standard_F8-%samds_v7", 8, []string{"2", "4"}},
		{"Standard_F16-%sams_v7", 16, []string{"4", "8"}},
		{"Standard_F16-%samds_v7", 16, []string{"4", "8"}},
		{"Standard_F32-%sams_v7", 32, []string{"8", "16"}},
		{"Standard_F32-%samds_v7", 32, []string{"8", "16"}},
		{"Standard_F64-%sams_v7", 64, []string{"16", "32"}},
		{"Standard_F64-%samds_v7", 64, []string{"16", "32"}},
	} {
		for _, a := range p.active {
			quota[fmt.Sprintf(p.parent, a)] = p.vcpus
		}
	}
	return quota
}

// TestSecondFiguresAndDeployable pins D44-D46 and the size-level support
// overrides of D42: the sizes no deployable list names, the memory the
// Resource SKUs API allots where it differs from the size page, and the
// vCPUs quota counts for constrained-core sizes.
func TestSecondFiguresAndDeployable(t *testing.T) {
	c := mustDefault(t)
	allotted := allottedMemoryGiB()
	quota := constrainedQuotaVCPUs()
	var gotND, gotAllot, gotQuota []string
	for _, s := range c.SKUs() {
		if !s.Deployable {
			gotND = append(gotND, s.Name)
			if !slices.Contains(s.Decisions, "D44") {
				t.Errorf("%s: not deployable without D44", s.Name)
			}
		}
		if s.MemoryGiBAllotted != nil {
			gotAllot = append(gotAllot, s.Name)
			checkAllottedMemory(t, s, allotted)
		}
		if s.QuotaVCPUs != nil {
			gotQuota = append(gotQuota, s.Name)
			checkQuotaVCPUs(t, s, quota)
		}
	}
	if !equalStrings(gotND, notDeployableSizes) {
		t.Errorf("not deployable: %v, want %v", gotND, notDeployableSizes)
	}
	if len(gotAllot) != len(allotted) || len(gotQuota) != len(quota) {
		t.Errorf("allotted memory on %v, quota vCPUs on %v; want %d and %d sizes", gotAllot, gotQuota, len(allotted), len(quota))
	}
	// Memory fit: ND96amsr_A100_v4 counts on 1,800 GiB, HBv3 on its 448.
	if m := *mustLookup(t, c, "Standard_ND96amsr_A100_v4").FitMemoryGiB(); m != 1800 {
		t.Errorf("ND96amsr_A100_v4 memory for fit %v, want 1800", m)
	}
	if m := *mustLookup(t, c, "Standard_HB120-16rs_v3").FitMemoryGiB(); m != 448 {
		t.Errorf("HB120-16rs_v3 memory for fit %v, want 448", m)
	}
	if s := mustLookup(t, c, "Standard_HB60-15rs"); s.QuotaVCPUs != nil || *s.QuotaVCPUCount() != *s.VCPUs {
		t.Errorf("Standard_HB60-15rs: quota vCPUs %s, the API reports its own %d", show(s.QuotaVCPUs), *s.VCPUs)
	}
	checkSizeSupportOverrides(t, c)
}

// checkAllottedMemory checks a size's allotted memory against the table
// (D45), and that fitting counts on the lesser of it and the documented
// memory.
func checkAllottedMemory(t *testing.T, s *SKU, allotted map[string]float64) {
	t.Helper()
	if want, ok := allotted[s.Name]; !ok || *s.MemoryGiBAllotted != want || !slices.Contains(s.Decisions, "D45") {
		t.Errorf("%s: allotted %v, want %v (D45)", s.Name, *s.MemoryGiBAllotted, want)
	}
	if fit := *s.FitMemoryGiB(); fit != math.Min(*s.MemoryGiB, *s.MemoryGiBAllotted) {
		t.Errorf("%s: memory for fit %v, documented %v, allotted %v", s.Name, fit, *s.MemoryGiB, *s.MemoryGiBAllotted)
	}
}

// checkQuotaVCPUs checks a constrained-core size's quota vCPUs against the
// table (D46): the parent's count, more than the size's active vCPUs.
func checkQuotaVCPUs(t *testing.T, s *SKU, quota map[string]int64) {
	t.Helper()
	if want, ok := quota[s.Name]; !ok || *s.QuotaVCPUs != want || *s.VCPUs >= want || !slices.Contains(s.Decisions, "D46") {
		t.Errorf("%s: quota vCPUs %d for %d active, want %d (D46)", s.Name, *s.QuotaVCPUs, *s.VCPUs, want)
	}
}

// checkSizeSupportOverrides pins D42's size overrides (the GB300 size the
// registry does not list, the retired preview sizes of a supported series)
// and D43's Azure ML sizes.
func checkSizeSupportOverrides(t *testing.T, c *Catalog) {
	t.Helper()
	// D42's size overrides: the GB300 size the registry does not list, the
	// retired preview sizes of a supported series.
	if s := mustLookup(t, c, "Standard_ND128isrG5_GB300_v6"); s.Support.AKS.Status != SupportUnknown || !strings.Contains(s.Support.AKS.Note, "node auto-provisioning") {
		t.Errorf("ND128isrG5_GB300_v6 AKS %+v, want unknown", s.Support.AKS)
	}
	if s := mustLookup(t, c, "Standard_ND128isr_GB300_v6"); s.Support.AKS.Status != SupportSupported {
		t.Errorf("ND128isr_GB300_v6 AKS %+v, want supported", s.Support.AKS)
	}
	for _, s := range c.Filter(Filter{Series: []string{"NC_RTXPRO6000BSE_v6"}, IncludeRetired: true}) {
		want := SupportSupported
		if s.Lifecycle.Status == StatusRetired {
			want = SupportUnsupported
		}
		if s.Support.AKS.Status != want || !slices.Contains(s.Decisions, "D42") {
			t.Errorf("%s (%s): AKS %s, want %s (D42)", s.Name, s.Lifecycle.Status, s.Support.AKS.Status, want)
		}
	}
	// D43: Azure ML's managed online endpoints SKU list.
	for _, name := range []string{"Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5", "Standard_ND96amsr_A100_v4", "Standard_NV36ads_A10_v5"} {
		if s := mustLookup(t, c, name); s.Support.AzureML.Status != SupportSupported || !slices.Contains(s.Decisions, "D43") {
			t.Errorf("%s: Azure ML %s, decisions %v", name, s.Support.AzureML.Status, s.Decisions)
		}
	}
}

// TestAKSSupportsTheAMDSizesItDocuments pins D79: AKS's AMD GPU page says
// AKS supports Standard_ND96isr_MI300X_v5, and node auto-provisioning, whose
// GPU registry lists other AMD sizes, leaves AMD GPU sizes out of its default
// node class (D56). No other AMD GPU size is supported on AKS, and a
// current one is unknown, its note naming both.
func TestAKSSupportsTheAMDSizesItDocuments(t *testing.T) {
	for _, s := range mustDefault(t).SKUs() {
		if s.GPU == nil || s.GPU.Vendor != VendorAMD || s.Name == "Standard_ND96isr_MI300X_v5" {
			continue
		}
		a := s.Support.AKS
		switch {
		case a.Status == SupportSupported:
			t.Errorf("%s: AKS supported, but AKS's AMD GPU page names Standard_ND96isr_MI300X_v5 only (D79)", s.Name)
		case a.Status == SupportUnknown && (!strings.Contains(a.Note, "ND96isr_MI300X_v5") || !strings.Contains(a.Note, "node auto-provisioning")):
			t.Errorf("%s: AKS unknown, note %q; want it to name the AMD page's size and node auto-provisioning (D79)", s.Name, a.Note)
		}
	}
}

// TestHC44ConstrainedQuotaVCPUs pins D46 for HC: Standard_HC44-16rs and
// Standard_HC44-32rs run 16 and 32 cores, and quota_vcpus is the parent's 44
// the Resource SKUs API reports.
func TestHC44ConstrainedQuotaVCPUs(t *testing.T) {
	c := mustDefault(t)
	for name, active := range map[string]int64{"Standard_HC44-16rs": 16, "Standard_HC44-32rs": 32} {
		s := mustLookup(t, c, name)
		if s.VCPUs == nil || *s.VCPUs != active || s.QuotaVCPUs == nil || *s.QuotaVCPUs != 44 {
			t.Errorf("%s vcpus = %s, quota_vcpus = %s; want %d and 44 (D46)", name, show(s.VCPUs), show(s.QuotaVCPUs), active)
		}
	}
}

// TestNCadsA10v4APIFigures pins D52: the NC A10 v4 sizes carry the Resource
// SKUs API's vCPUs, memory and GPU count, 24 GiB per A10.
func TestNCadsA10v4APIFigures(t *testing.T) {
	c := mustDefault(t)
	for _, w := range []struct {
		name         string
		vcpus        int64
		memGiB, gpus float64
	}{
		{"Standard_NC8ads_A10_v4", 8, 100, 1},
		{"Standard_NC16ads_A10_v4", 16, 200, 1},
		{"Standard_NC32ads_A10_v4", 32, 400, 2},
	} {
		s := mustLookup(t, c, w.name)
		if s.VCPUs == nil || *s.VCPUs != w.vcpus || s.MemoryGiB == nil || *s.MemoryGiB != w.memGiB {
			t.Errorf("%s vcpus = %s, memory_gib = %s; want %d and %v (D52)", w.name, show(s.VCPUs), show(s.MemoryGiB), w.vcpus, w.memGiB)
		}
		if g := s.GPU; g == nil || g.Count != w.gpus || g.MemoryGiB != 24 || !slices.Contains(s.Decisions, "D52") {
			t.Errorf("%s gpu = %+v, want %v A10 of 24 GiB (D52)", w.name, g, w.gpus)
		}
	}
}

// TestAllottedMemoryGB200AndHBv5 pins D45 for the sizes Aspire's listing of
// the Resource SKUs API gives: Standard_ND128isr_NDR_GB200_v6 is allotted
// 864 GiB of its documented 900, Standard_HB368rs_v5 448 of its documented
// 432, and memory fit counts on the smaller.
func TestAllottedMemoryGB200AndHBv5(t *testing.T) {
	c := mustDefault(t)
	for name, w := range map[string][2]float64{
		"Standard_ND128isr_NDR_GB200_v6": {864, 864},
		"Standard_HB368rs_v5":            {448, 432},
	} {
		s := mustLookup(t, c, name)
		if s.MemoryGiBAllotted == nil || *s.MemoryGiBAllotted != w[0] || *s.FitMemoryGiB() != w[1] {
			t.Errorf("%s memory_gib_allotted = %s, fit %s; want %v and %v (D45)", name, show(s.MemoryGiBAllotted), show(s.FitMemoryGiB()), w[0], w[1])
		}
	}
}

// TestNV28admsV710LeftTheAPI pins D53: Standard_NV28adms_V710_v5, gone from
// the Resource SKUs API since 2026-08, stays in the catalog, deployable,
// and its notes say it left the API.
func TestNV28admsV710LeftTheAPI(t *testing.T) {
	s := mustLookup(t, mustDefault(t), "Standard_NV28adms_V710_v5")
	if !s.Deployable || !slices.Contains(s.Decisions, "D53") || !strings.Contains(s.Notes, "left the Resource SKUs API") {
		t.Errorf("Standard_NV28adms_V710_v5 deployable = %v, decisions = %v, notes = %q; want deployable, D53 and its notes naming the API", s.Deployable, s.Decisions, s.Notes)
	}
}

// TestGraceBlackwellImage pins D54: every GB200 and GB300 size gets the arm64
// 2404-gb Marketplace image, its URN documented by the Compute API example
// rather than the image repository, and no Batch node agent (Batch support
// of the image is unconfirmed).
func TestGraceBlackwellImage(t *testing.T) {
	n := 0
	for _, s := range mustDefault(t).SKUs() {
		if s.GPU == nil || (s.GPU.ModelID != "gb200" && s.GPU.ModelID != "gb300") {
			continue
		}
		n++
		im := s.Image
		if im == nil || im.URN != "microsoft-dsvm:ubuntu-hpc:2404-gb:latest" || im.Arch != "arm64" || s.Arch != "arm64" ||
			!strings.Contains(im.URNSource, "WithInterconnectBlock") || im.BatchNodeAgentSKUID != "" || !slices.Contains(s.Decisions, "D54") {
			t.Errorf("%s image = %+v, decisions %v; want the arm64 2404-gb URN from the API example, no Batch node agent, D54", s.Name, im, s.Decisions)
		}
	}
	if n < 2 {
		t.Errorf("%d GB200/GB300 sizes, want at least one of each", n)
	}
}

// TestRackScalePlacement pins D55: the GB200 and GB300 series are allocated
// by racks of 18 VMs, allow no single placement group and take the
// interconnect settings of the Compute API 2026-03-01; other series keep the
// usual placement.
func TestRackScalePlacement(t *testing.T) {
	for _, s := range mustDefault(t).SKUs() {
		gb := s.GPU != nil && (s.GPU.ModelID == "gb200" || s.GPU.ModelID == "gb300")
		p := s.Placement
		switch {
		case gb && (p == nil || p.RackVMs != 18 || p.SinglePlacementGroup || p.HighSpeedInterconnectPlacement != "Trunk" || p.APIVersion != "2026-03-01" || !slices.Contains(s.Decisions, "D55")):
			t.Errorf("%s placement = %+v, decisions %v; want racks of 18, no single placement group, Trunk, 2026-03-01 (D55)", s.Name, p, s.Decisions)
		case !gb && p != nil:
			t.Errorf("%s placement = %+v, want none", s.Name, p)
		}
	}
}

// TestMPIJobSpan pins D81: a size of a series whose overview states a Max
// MPI Job Size of 300 VMs in one scale set with a single placement group
// (HBv2, HBv3, HBv4, HBv5, HC, HX) spans 300 VMs in one InfiniBand job, in
// that ordinary scale set (no placement record); the GB series keep their
// racks (D74), and every other size the single placement group's 100.
func TestMPIJobSpan(t *testing.T) {
	stated := []string{"HBv2", "HBv3", "HBv4", "HBv5", "HC", "HX"}
	n := 0
	for _, s := range mustDefault(t).SKUs() {
		want := int64(SinglePlacementGroupVMs)
		switch {
		case slices.Contains(stated, s.Series):
			n++
			want = 300
			if s.Placement != nil || !slices.Contains(s.Decisions, "D81") {
				t.Errorf("%s placement %+v, decisions %v: want the span as series data (D81), no placement record", s.Name, s.Placement, s.Decisions)
			}
		case s.Placement != nil:
			want = s.Placement.MaxJobVMs
		}
		if got := s.MaxJobVMs(); got != want {
			t.Errorf("%s (%s) MaxJobVMs = %d, want %d", s.Name, s.Series, got, want)
		}
	}
	if n == 0 {
		t.Error("no size of a series that states its MPI job size")
	}
}

// TestConfidentialImage pins D57: every confidential size boots an image
// that runs as a confidential VM, the confidential H100 Canonical's CVM image.
func TestConfidentialImage(t *testing.T) {
	n := 0
	for _, s := range mustDefault(t).SKUs() {
		if !s.Confidential {
			continue
		}
		n++
		if s.Image != nil && s.Image.URN != "" && !s.Image.ConfidentialVM {
			t.Errorf("%s: image %+v does not boot as a confidential VM", s.Name, s.Image)
		}
	}
	s := mustLookup(t, mustDefault(t), "Standard_NCC40ads_H100_v5")
	if n == 0 || s.Image == nil || s.Image.URN != "Canonical:0001-com-ubuntu-confidential-vm-jammy:22_04-lts-cvm:22.04.202606120" || !slices.Contains(s.Decisions, "D57") {
		t.Errorf("Standard_NCC40ads_H100_v5 image = %+v, decisions %v; want the CVM image (D57)", s.Image, s.Decisions)
	}
}

// TestConfidentialGPUOnAKS: AKS's confidential GPU page is a how-to for a
// node pool of Standard_NCC40ads_H100_v5 that says node auto-provisioning
// cannot take confidential GPUs: the size is supported on AKS, through a
// node pool only, and its support sources name the page.
func TestConfidentialGPUOnAKS(t *testing.T) {
	s := mustLookup(t, mustDefault(t), "Standard_NCC40ads_H100_v5")
	cited := slices.ContainsFunc(s.Support.Sources, func(src string) bool { return strings.Contains(src, "articles/aks/use-confidential-gpus.md@") })
	if s.Support.AKS.Status != SupportSupported || !cited || !s.NoNodeAutoProvisioning || !strings.Contains(s.Support.AKS.Note, "node pool") {
		t.Errorf("Standard_NCC40ads_H100_v5: AKS %+v, sources %q, no node auto-provisioning %t; want supported on a node pool, citing use-confidential-gpus.md",
			s.Support.AKS, s.Support.Sources, s.NoNodeAutoProvisioning)
	}
}

// hpcOverviewsNamingAKS are the HPC series whose overview page's software
// table gives "Orchestrator Support" with Azure Kubernetes Service (AKS).
var hpcOverviewsNamingAKS = map[string]string{
	"HBv2": "hbv2-series-overview.md@",
	"HBv3": "hbv3-series-overview.md@",
	"HBv4": "hbv4-series-overview.md@",
	"HBv5": "hbv5-series-overview.md@",
	"HC":   "hc-series-overview.md@",
	"HX":   "hx-series-overview.md@",
}

// TestHPCOverviewsNameAKS: an HPC series whose overview names AKS among its
// orchestrators is supported on AKS, its support sources citing the
// overview, until it retires.
func TestHPCOverviewsNameAKS(t *testing.T) {
	c := mustDefault(t)
	for series, page := range hpcOverviewsNamingAKS {
		for _, s := range c.Filter(Filter{Series: []string{series}, AsOf: c.DataDate}) {
			cited := slices.ContainsFunc(s.Support.Sources, func(src string) bool { return strings.Contains(src, page) })
			if s.Support.AKS.Status != SupportSupported || !cited {
				t.Errorf("%s (%s): AKS %+v, sources %q; want supported, citing %s", s.Name, series, s.Support.AKS, s.Support.Sources, page)
			}
		}
	}
}

// TestND96isH100 pins D58: the H100 VM without InfiniBand carries the isr
// size's facts less the fabric, has no size page, and is priced where the
// retail data prices it, below the isr size.
func TestND96isH100(t *testing.T) {
	c := mustDefault(t)
	is, isr := mustLookup(t, c, "Standard_ND96is_H100_v5"), mustLookup(t, c, "Standard_ND96isr_H100_v5")
	if is.Network.RDMA || !is.NoSizePage || !is.Deployable || is.GPU == nil || isr.GPU == nil || is.GPU.Count != isr.GPU.Count || is.GPU.ModelID != isr.GPU.ModelID ||
		*is.VCPUs != *isr.VCPUs || !slices.Contains(is.Decisions, "D58") {
		t.Errorf("Standard_ND96is_H100_v5 = %+v; want the isr facts without RDMA, no size page, D58", is)
	}
	if p, q := is.Prices["eastus"], isr.Prices["eastus"]; p.USDPerHour != 88.488 || q.USDPerHour <= p.USDPerHour {
		t.Errorf("eastus prices %v (is) and %v (isr)", p.USDPerHour, q.USDPerHour)
	}
}
