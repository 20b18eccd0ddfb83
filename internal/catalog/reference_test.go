// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests compare the embedded catalog with every row of the reference
// CSVs it was converted from. A difference is allowed only where a decision
// recorded in data/catalog.json says so; each such exception is spelled out
// below. The reference files live in testdata/reference.

func refInt(t *testing.T, s string) *int64 {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("reference value %q is not an integer", s)
	}
	return &v
}

func refFloat(t *testing.T, s string) *float64 {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("reference value %q is not a number", s)
	}
	return &v
}

func refBool(t *testing.T, s string) *bool {
	t.Helper()
	switch s {
	case "true":
		return bp(true)
	case "false":
		return bp(false)
	case "unknown", "":
		return nil
	}
	t.Fatalf("reference value %q is not true, false or unknown", s)
	return nil
}

// refCount parses a reference GPU count such as "8" or "1/4" without the
// code under test.
func refCount(t *testing.T, s string) float64 {
	t.Helper()
	if s == "" {
		return 0
	}
	if num, den, ok := strings.Cut(s, "/"); ok {
		return *refFloat(t, num) / *refFloat(t, den)
	}
	return *refFloat(t, s)
}

var (
	ibGenRE   = regexp.MustCompile(`^(FDR|EDR|HDR|NDR|XDR)\b`)
	ibRateRE  = regexp.MustCompile(`(\d+) Gb/s`)
	ibPortsRE = regexp.MustCompile(`Gb/s x(\d+)`)
)

// normalisedSources rewrites a reference list of sources ("a; b") as the
// catalog holds it: testdata/sources_normalised.json maps every entry that was not in
// the source grammar (see sources.go) to the entries that replace it.
func normalisedSources(t *testing.T, joined string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/sources_normalised.json")
	if err != nil {
		t.Fatal(err)
	}
	var rewrite map[string][]string
	if err := json.Unmarshal(b, &rewrite); err != nil {
		t.Fatalf("sources_normalised.json: %v", err)
	}
	// An entry may itself contain "; ", so the reference's list is split at
	// the longest known entry first.
	var split []string
	for rest := joined; rest != ""; {
		e, _, _ := strings.Cut(rest, "; ")
		for k := range rewrite {
			if len(k) > len(e) && (rest == k || strings.HasPrefix(rest, k+"; ")) {
				e = k
			}
		}
		split = append(split, e)
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, e), "; ")
	}
	var out []string
	for _, e := range split {
		repl, ok := rewrite[e]
		if !ok {
			repl = []string{e}
		}
		for _, r := range repl {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

func TestReferenceSKUsCSV(t *testing.T) {
	rows := referenceCSV(t, "skus.csv")
	c := mustDefault(t)
	categories := map[string]string{"E": CategoryCPU, "F": CategoryCPU, "H": CategoryHPC, "HB": CategoryHPC, "HC": CategoryHPC, "HX": CategoryHPC}
	for _, r := range rows {
		name := r["name"]
		t.Run(name, func(t *testing.T) {
			s := mustLookup(t, c, name)
			diff := skusCSVDiff(t)
			diff("Name", s.Name, name)
			diff("Series", s.Series, r["series"])
			diff("Family", s.Family, r["family"])
			cat := categories[r["family"]]
			if cat == "" {
				cat = CategoryGPU
			}
			diff("Category", s.Category, cat)
			compareSKURowSpecs(t, s, r)
			compareSKURowSources(t, c, s, r)
			compareSKURowNetwork(t, s, r)
			diff("Lifecycle.Status", s.Lifecycle.Status, retiredOnDate(c.series[s.Series].Decisions, strings.ToLower(r["status"])))
			diff("Lifecycle.RetirementDate", s.Lifecycle.RetirementDate, r["retirement_date"])
			compareSKURowGPU(t, s, r, cat)
		})
	}
}

// skusCSVDiff returns the check a TestReferenceSKUsCSV subtest compares a
// field with: an error when the printed values differ.
func skusCSVDiff(t *testing.T) func(field string, got, want any) {
	return func(field string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, skus.csv says %v", field, got, want)
		}
	}
}

// compareSKURowSpecs compares a size's vCPUs, memory, storage, disks,
// NICs, confidential flag and Hyper-V generations with its skus.csv row.
func compareSKURowSpecs(t *testing.T, s *SKU, r map[string]string) {
	t.Helper()
	diff := skusCSVDiff(t)
	diff("VCPUs", show(s.VCPUs), show(refInt(t, r["vcpus"])))
	diff("MemoryGiB", show(s.MemoryGiB), show(refFloat(t, r["memory_gib"])))

	// D15: GB200/GB300 local storage is all NVMe, stored as
	// local NVMe with no temporary disk.
	wantTemp := refInt(t, r["temp_storage_gib"])
	if r["series"] == "ND-GB200-v6" || r["series"] == "ND-GB300-v6" {
		diff("LocalNVMeGiB (D15)", show(s.LocalNVMeGiB), show(wantTemp))
		wantTemp = i64(0)
	}
	diff("TempDiskGiB", show(s.TempDiskGiB), show(wantTemp))

	diff("CPUModel", s.CPUModel, r["cpu_model"])
	diff("PremiumStorage", show(s.PremiumStorage), show(refBool(t, r["premium_storage"])))
	diff("MaxDataDisks", show(s.MaxDataDisks), show(refInt(t, r["max_data_disks"])))
	diff("MaxNICs", show(s.MaxNICs), show(refInt(t, r["max_nics"])))
	diff("Confidential", s.Confidential, r["confidential"] == "true")
	wantGen := []string{}
	if r["hyperv_generations"] != "unknown" {
		wantGen = strings.Split(r["hyperv_generations"], ",")
	}
	diff("HyperVGenerations", s.HyperVGenerations, wantGen)
}

// compareSKURowSources compares a size's sources with its skus.csv row's,
// normalised; entries after the row's must each be cited by a decision
// the size links.
func compareSKURowSources(t *testing.T, c *Catalog, s *SKU, r map[string]string) {
	t.Helper()
	wantSources := normalisedSources(t, r["source"])
	got := s.Sources
	if len(got) > len(wantSources) && equalStrings(got[:len(wantSources)], wantSources) {
		// Entries added after the reference's: each one a source of a
		// decision the size links (D44-D46 added the API listings).
		for _, extra := range got[len(wantSources):] {
			if !decisionCites(c, s, extra) {
				t.Errorf("source %q beyond skus.csv's is cited by none of the decisions %v", extra, s.Decisions)
			}
		}
		got = got[:len(wantSources)]
	}
	skusCSVDiff(t)("Sources", strings.Join(got, "; "), strings.Join(wantSources, "; "))
}

// compareSKURowNetwork compares a size's network with its skus.csv row,
// the InfiniBand generation, ports and rate parsed from the row's text.
func compareSKURowNetwork(t *testing.T, s *SKU, r map[string]string) {
	t.Helper()
	diff := skusCSVDiff(t)
	n := s.Network
	diff("RDMA", n.RDMA, r["rdma"] == "true")
	diff("InfiniBandText", n.InfiniBandText, r["infiniband"])
	if ib := r["infiniband"]; ib != "" {
		if m := ibGenRE.FindStringSubmatch(ib); m != nil {
			diff("InfiniBand", n.InfiniBand, m[1])
		}
		rate := refInt(t, ibRateRE.FindStringSubmatch(ib)[1])
		ports := int64(1)
		if m := ibPortsRE.FindStringSubmatch(ib); m != nil {
			ports = *refInt(t, m[1])
		}
		diff("InfiniBandPorts", n.InfiniBandPorts, ports)
		diff("InfiniBandGbps", n.InfiniBandGbps, *rate*ports)
	}
	diff("AcceleratedNetworking", show(n.AcceleratedNetworking), show(refBool(t, r["accelerated_networking"])))
	diff("EthernetMbps", show(n.EthernetMbps), show(refInt(t, r["network_bandwidth_mbps"])))
}

// compareSKURowGPU compares a size's GPU with its skus.csv row, or checks
// that a size of category cat other than GPU has none.
func compareSKURowGPU(t *testing.T, s *SKU, r map[string]string, cat string) {
	t.Helper()
	diff := skusCSVDiff(t)
	if cat != CategoryGPU {
		diff("gpu_count", r["gpu_count"], "0")
		diff("GPU", s.GPU == nil, true)
		return
	}
	if s.GPU == nil {
		t.Fatalf("GPU = nil, skus.csv says %s x %s", r["gpu_count"], r["gpu_model"])
	}
	g := s.GPU
	wantCount, wantText := refCount(t, r["gpu_count"]), r["gpu_count"]
	wantMem := refFloat(t, r["gpu_memory_gib_per_gpu"])
	if r["series"] == "NV" {
		// D9: one GPU is half an M60 board with 8 GiB; the NV page
		// counts boards.
		wantCount *= 2
		wantText = strconv.FormatFloat(wantCount, 'f', -1, 64)
		wantMem = f64(8)
	}
	if !near(g.Count, wantCount) {
		t.Errorf("GPU.Count = %v, want %v", g.Count, wantCount)
	}
	diff("GPU.CountText", g.CountText, wantText)
	diff("GPU.Vendor", g.Vendor, strings.ToLower(r["gpu_vendor"]))
	diff("GPU.Interconnect", g.Interconnect, r["gpu_interconnect"])
	if wantMem == nil {
		diff("GPU.MemoryGiB", g.MemoryGiB, 0)
		return
	}
	diff("GPU.MemoryGiB", g.MemoryGiB, *wantMem)
	diff("GPU.MemoryGiBTotal", g.MemoryGiBTotal, math.Round(*wantMem*math.Max(wantCount, 1)*100)/100)
}

// decisionCites reports whether one of the decisions s links cites the
// document src names (notes aside).
func decisionCites(c *Catalog, s *SKU, src string) bool {
	want, err := ParseSource(src)
	if err != nil {
		return false
	}
	want.Note = ""
	for _, d := range c.Decisions {
		if !slices.Contains(s.Decisions, d.ID) {
			continue
		}
		for _, ds := range d.Sources {
			if got, err := ParseSource(ds); err == nil {
				got.Note = ""
				if got == want {
					return true
				}
			}
		}
	}
	return false
}

// D49: NVv3 and NVv4, "retiring" in the reference, retired on their date,
// before the catalog's data date, and their notes say so first.
const d49NotePrefix = "retired 2026-09-30 as its retirement page announced (D49); "

// retiredOnDate is the reference status a series' decisions turn into the
// catalog's: "retiring" becomes "retired" under D49.
func retiredOnDate(decisions []string, status string) string {
	if status == StatusRetiring && slices.Contains(decisions, "D49") {
		return StatusRetired
	}
	return status
}

// refSeriesName turns "NC (incl. NC_Promo)" into "NC".
func refSeriesName(s string) string { return strings.Fields(s)[0] }

func TestReferenceLifecycleCSV(t *testing.T) {
	rows := referenceCSV(t, "lifecycle.csv")
	c := mustDefault(t)
	sizesOf := map[string]int{}
	for _, s := range c.SKUs() {
		sizesOf[s.Series]++
	}
	for _, r := range rows {
		name := refSeriesName(r["series"])
		sr, ok := c.series[name]
		if !ok {
			t.Errorf("series %s is missing", name)
			continue
		}
		lc := sr.Lifecycle
		got := fmt.Sprintf("%s|%s|%s|%s|%s|%s", sr.Family, lc.Status, lc.AnnouncedDate, lc.RetirementDate, strings.Join(lc.ReplacementSeries, "; "), lc.Note)
		note := r["notes"]
		if slices.Contains(sr.Decisions, "D49") {
			note = d49NotePrefix + note
		}
		want := fmt.Sprintf("%s|%s|%s|%s|%s|%s", r["family"], retiredOnDate(sr.Decisions, strings.ToLower(r["status"])), r["announced_date"], r["retirement_date"], r["replacement_series"], note)
		if got != want {
			t.Errorf("series %s:\n got  %s\n want %s", name, got, want)
		}
		if sizesOf[name] == 0 {
			t.Errorf("series %s has no size", name)
		}
	}
}

func TestReferenceSupportCSV(t *testing.T) {
	rows := referenceCSV(t, "support.csv")
	c := mustDefault(t)
	seen := 0
	for _, r := range rows {
		for _, name := range strings.Split(refSeriesName(r["series"]), "/") {
			seen++
			sr, ok := c.series[name]
			if !ok {
				t.Errorf("series %s is missing", name)
				continue
			}
			compareSupportRow(t, name, sr, r)
		}
	}
	// support.csv has 34 rows; Ev5 and Edsv5 share one: 35 series.
	if seen != 35 {
		t.Errorf("support.csv covers %d series, want 35", seen)
	}
}

// supportVerdict turns a support.csv verdict into a support status.
func supportVerdict(t *testing.T, v string) string {
	t.Helper()
	switch {
	case strings.HasPrefix(v, "yes"):
		return SupportSupported
	case strings.HasPrefix(v, "unknown"):
		return SupportUnknown
	case strings.HasPrefix(v, "no"), strings.HasPrefix(v, "n/a"),
		strings.HasPrefix(v, "listed (retired"): // D2
		return SupportUnsupported
	}
	t.Fatalf("unexpected support verdict %q", v)
	return ""
}

// compareSupportRow compares the AKS and Azure ML support of series name
// with its support.csv row, and checks that a retired series is supported
// nowhere.
func compareSupportRow(t *testing.T, name string, sr SeriesDoc, r map[string]string) {
	t.Helper()
	// D42: AKS node auto-provisioning's GPU registry makes a series
	// supported on AKS; D43: Azure ML's SKU list on Azure ML. Where
	// that changed the verdict, the note names the list.
	// D49: a series retired since the reference is unsupported.
	retiredSince := func(got string) bool { return slices.Contains(sr.Decisions, "D49") && got == SupportUnsupported }
	if got, want := sr.Support.AKS.Status, supportVerdict(t, r["aks_node_pool"]); got != want && !retiredSince(got) && !aksReadSince(sr, got) &&
		(!slices.Contains(sr.Decisions, "D42") || got != SupportSupported || !strings.Contains(sr.Support.AKS.Note, "node auto-provisioning")) {
		t.Errorf("series %s: AKS %s, support.csv says %q", name, got, r["aks_node_pool"])
	}
	if got, want := sr.Support.AzureML.Status, supportVerdict(t, r["azure_ml_compute"]); got != want && !retiredSince(got) &&
		(!slices.Contains(sr.Decisions, "D43") || got != SupportSupported || !strings.Contains(sr.Support.AzureML.Note, "managed online endpoints SKU list")) {
		t.Errorf("series %s: Azure ML %s, support.csv says %q", name, got, r["azure_ml_compute"])
	}
	if sr.Lifecycle.Status != StatusRetired {
		return
	}
	// D2: no new VM of a retired size can be created.
	for svc, e := range map[string]SupportEntryDoc{"AKS": sr.Support.AKS, "Azure ML": sr.Support.AzureML, "CycleCloud": sr.Support.CycleCloud, "Batch": sr.Support.Batch} {
		if e.Status != SupportUnsupported {
			t.Errorf("retired series %s: %s %s, want unsupported (D2)", name, svc, e.Status)
		}
	}
}

// aksSinceReference holds the AKS verdicts D79 reads from pages the
// reference did not weigh: the NVads V710 v5 sizes are unknown, not
// unsupported, as no AKS page documents them either way; AKS's confidential
// GPU page documents an NCCads H100 v5 node pool; the HBv2, HBv4 and HC
// overviews name AKS among their orchestrators.
var aksSinceReference = map[string]string{
	"NVads_V710_v5":  SupportUnknown,
	"NCCads_H100_v5": SupportSupported,
	"HBv2":           SupportSupported,
	"HBv4":           SupportSupported,
	"HC":             SupportSupported,
}

// aksReadSince is whether D79 gives series sr the AKS verdict got, its note
// naming the decision.
func aksReadSince(sr SeriesDoc, got string) bool {
	want, ok := aksSinceReference[sr.Name]
	return ok && got == want && slices.Contains(sr.Decisions, "D79") && strings.Contains(sr.Support.AKS.Note, "D79")
}

// gpuRowModels maps each gpus.csv row to the catalog's model identifiers.
var gpuRowModels = map[string][]string{
	"NVIDIA Tesla K80":                                     {"k80"},
	"NVIDIA Tesla M60":                                     {"m60"},
	"NVIDIA Tesla P100 16GB PCIe":                          {"p100"},
	"NVIDIA Tesla P40":                                     {"p40"},
	"NVIDIA Tesla V100 (16GB PCIe / 32GB SXM2)":            {"v100-pcie-16gb", "v100-sxm2-32gb"},
	"NVIDIA Tesla T4":                                      {"t4"},
	"NVIDIA A100 (40GB SXM / 80GB SXM / 80GB PCIe)":        {"a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-80gb"},
	"NVIDIA A10":                                           {"a10"},
	"NVIDIA H100 80GB SXM":                                 {"h100-sxm-80gb"},
	"NVIDIA H100 NVL 94GB":                                 {"h100-nvl-94gb"},
	"NVIDIA H200 141GB":                                    {"h200-141gb"},
	"NVIDIA GB200 (B200 GPU in Grace-Blackwell superchip)": {"gb200"},
	"NVIDIA GB300 (Blackwell Ultra B300)":                  {"gb300"},
	"NVIDIA RTX PRO 6000 Blackwell Server Edition":         {"rtx-pro-6000-bse"},
	"AMD Instinct MI300X":                                  {"mi300x"},
	"AMD Radeon Instinct MI25":                             {"mi25"},
	"AMD Radeon PRO V620":                                  {"v620"},
	"AMD Radeon PRO V710":                                  {"v710"},
}

// The gpus.csv columns' patterns: the minimum toolkit version, the
// maximum CUDA major version and each memory figure.
var (
	gpuToolkitRE = regexp.MustCompile(`^(?:CUDA|ROCm) (\d+\.\d+)`)
	gpuMajorRE   = regexp.MustCompile(`^(\d+)\.x`)
	gpuNumRE     = regexp.MustCompile(`\d+(?:\.\d+)?`)
)

func TestReferenceGPUsCSV(t *testing.T) {
	rows := referenceCSV(t, "gpus.csv")
	c := mustDefault(t)
	covered := 0
	for _, r := range rows {
		ids, ok := gpuRowModels[r["gpu_model"]]
		if !ok {
			t.Errorf("gpus.csv row %q is not mapped", r["gpu_model"])
			continue
		}
		for _, id := range ids {
			covered++
			g, ok := c.GPUModel(id)
			if !ok {
				t.Errorf("GPU model %s (%s) is missing", id, r["gpu_model"])
				continue
			}
			compareGPURow(t, id, g, r)
			compareGPURowToolkits(t, id, g, r)
			compareGPURowMemory(t, id, g, r)
		}
	}
	if covered != 21 {
		t.Errorf("gpus.csv rows map to %d models, want 21", covered)
	}
}

// compareGPURow compares a GPU model's vendor, architecture and compute
// capability or gfx target with its gpus.csv row.
func compareGPURow(t *testing.T, id string, g GPUModelDoc, r map[string]string) {
	t.Helper()
	if g.Vendor != strings.ToLower(r["vendor"]) {
		t.Errorf("%s: vendor %s, gpus.csv %s", id, g.Vendor, r["vendor"])
	}
	// The catalog keeps the architecture name without the die
	// ("Blackwell (GB202)" -> "Blackwell").
	if g.Architecture == "" || !strings.HasPrefix(r["architecture"], g.Architecture) {
		t.Errorf("%s: architecture %q, gpus.csv %q", id, g.Architecture, r["architecture"])
	}
	ccOrGfx := g.ComputeCapability
	if g.Vendor == VendorAMD {
		ccOrGfx = g.GfxTarget
	}
	if ccOrGfx != r["compute_capability_or_gfx"] {
		t.Errorf("%s: compute capability/gfx %q, gpus.csv %q", id, ccOrGfx, r["compute_capability_or_gfx"])
	}
}

// compareGPURowToolkits compares a GPU model's minimum CUDA or ROCm and its
// maximum CUDA major version with its gpus.csv row.
func compareGPURowToolkits(t *testing.T, id string, g GPUModelDoc, r map[string]string) {
	t.Helper()
	minTK := g.MinCUDA
	if g.Vendor == VendorAMD {
		minTK = g.MinROCm
	}
	wantTK := ""
	if m := gpuToolkitRE.FindStringSubmatch(r["min_cuda_or_rocm"]); m != nil {
		wantTK = m[1]
	}
	if minTK != wantTK {
		t.Errorf("%s: minimum toolkit %q, gpus.csv %q", id, minTK, r["min_cuda_or_rocm"])
	}
	wantMajor := int64(0)
	if m := gpuMajorRE.FindStringSubmatch(r["max_cuda_major_supported"]); m != nil {
		wantMajor = *refInt(t, m[1])
	}
	if g.MaxCUDAMajor != wantMajor {
		t.Errorf("%s: max CUDA major %d, gpus.csv %q", id, g.MaxCUDAMajor, r["max_cuda_major_supported"])
	}
}

// compareGPURowMemory checks that a GPU model's memory is one of the
// figures of its gpus.csv row.
func compareGPURowMemory(t *testing.T, id string, g GPUModelDoc, r map[string]string) {
	t.Helper()
	memOK := false
	for _, m := range gpuNumRE.FindAllString(r["memory_gib"], -1) {
		if *refFloat(t, m) == g.MemoryGiB {
			memOK = true
		}
	}
	if !memOK {
		t.Errorf("%s: memory %v GiB is not among gpus.csv %q", id, g.MemoryGiB, r["memory_gib"])
	}
}

func TestReferenceImagesCSV(t *testing.T) {
	rows := referenceCSV(t, "images.csv")
	c := mustDefault(t)
	used := 0
	for _, s := range c.SKUs() {
		im := s.Image
		if im == nil {
			continue
		}
		used++
		if im.ID == "ubuntu-cvm-2204" {
			// The confidential VM image is not among the reference facts'
			// HPC images: D57 chose it over the Ubuntu-HPC image they map
			// the confidential H100 to.
			if !slices.Contains(s.Decisions, "D57") {
				t.Errorf("%s: image %s without D57", s.Name, im.URN)
			}
			continue
		}
		if im.ID == "ubuntu-2404" {
			// Nor is the plain Ubuntu Server image of the F v7 CPU sizes,
			// which the reference facts give no image (D72).
			if !slices.Contains(s.Decisions, "D72") {
				t.Errorf("%s: image %s without D72", s.Name, im.URN)
			}
			continue
		}
		row := imagesCSVRow(rows, im)
		if row == nil {
			t.Errorf("%s: image %q is not in images.csv", s.Name, im.URN)
			continue
		}
		compareImageRow(t, s, im, row)
	}
	if used == 0 {
		t.Fatal("no size has an image")
	}
}

// imagesCSVRow returns the images.csv row of an image, or nil.
func imagesCSVRow(rows []map[string]string, im *Image) map[string]string {
	for _, r := range rows {
		// Images without a URN are builds the image repository
		// publishes under tags: matched to the row that lists them.
		if (im.URN != "" && r["urn"] == im.URN) ||
			(im.ID == "ubuntu-hpc-gb-2404" && strings.Contains(r["urn"], "GB200/GB300")) ||
			(im.ID == "ubuntu-hpc-2404-ncv6" && r["urn"] == "microsoft-dsvm:ubuntu-hpc:2404:latest" && strings.Contains(r["gpu_families_supported"], "NCv6")) {
			return r
		}
	}
	return nil
}

// compareImageRow compares the toolkit, driver, ROCm and source of size s's
// image with its images.csv row.
func compareImageRow(t *testing.T, s *SKU, im *Image, row map[string]string) {
	t.Helper()
	for what, v := range map[string]string{"CUDA toolkit": im.CUDAToolkit, "driver": strings.Fields(im.Driver + " x")[0], "ROCm": im.ROCm} {
		if v == "" || v == "x" {
			continue
		}
		col := map[string]string{"CUDA toolkit": "cuda_toolkit", "driver": "nvidia_driver", "ROCm": "rocm"}[what]
		if !strings.Contains(row[col], v) {
			t.Errorf("%s: image %s %s %q is not in images.csv %q", s.Name, im.URN, what, v, row[col])
		}
	}
	if im.Source == "" || !strings.HasPrefix(row["source"], strings.Fields(im.Source)[0]) {
		t.Errorf("%s: image source %q, images.csv %q", s.Name, im.Source, row["source"])
	}
}

// TestReferencePricesCSV: every row of the reference prices.csv is priced,
// at the reference's price until a refresh replaces the snapshot.
func TestReferencePricesCSV(t *testing.T) {
	rows := referenceCSV(t, "prices.csv")
	c := mustDefault(t)
	if len(rows) != referencePriceRows {
		t.Errorf("prices.csv has %d rows, want %d", len(rows), referencePriceRows)
	}
	for _, r := range rows {
		s := mustLookup(t, c, r["vm_size"])
		p, ok := s.Prices[r["region"]]
		if !ok {
			t.Errorf("%s in %s: no price, prices.csv says %s", r["vm_size"], r["region"], r["usd_per_hour"])
			continue
		}
		if want := *refFloat(t, r["usd_per_hour"]); atReferenceSnapshot(c) && p.USDPerHour != want {
			t.Errorf("%s in %s: %v, prices.csv says %v", r["vm_size"], r["region"], p.USDPerHour, want)
		}
	}
}

// TestReferenceSpotPrices recomputes every spot price (D19): the current
// on-demand price times the spot_prices.csv spot-to-on-demand ratio of the
// same region and size, rounded to 6 decimals; none without a ratio, and
// none where the ratio is 1 or more, no spot discount (D33). The embedded
// rows dated from the 2026-09-28 eastus snapshot replace the reference's
// ratio, or add one (D70); a pair the Resource SKUs API marks not
// low-priority capable has none (D75), nor does a row whose on-demand
// figure is not the reference's price of the size (D80).
func TestReferenceSpotPrices(t *testing.T) {
	c := mustDefault(t)
	ratio := spotRatiosExpected(t)
	n := 0
	for _, s := range c.SKUs() {
		for region, p := range s.Prices {
			rt, ok := ratio[[2]string{region, s.Name}]
			switch {
			case !ok && p.SpotUSDPerHour != nil:
				t.Errorf("%s in %s: spot %v without a spot_prices.csv row", s.Name, region, *p.SpotUSDPerHour)
			case ok && rt >= 1 && p.SpotUSDPerHour != nil:
				t.Errorf("%s in %s: spot %v, but spot_prices.csv lists no discount (D33)", s.Name, region, *p.SpotUSDPerHour)
			case ok && rt < 1:
				n++
				want := math.Round(p.USDPerHour*rt*1e6) / 1e6
				if p.SpotUSDPerHour == nil || math.Abs(*p.SpotUSDPerHour-want) > 1.5e-6 {
					t.Errorf("%s in %s: spot %s, want %v", s.Name, region, show(p.SpotUSDPerHour), want)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no price has a spot ratio")
	}
}

// spotRatiosExpected is the spot-to-on-demand ratio of each region and
// size: the reference's, replaced or added by the embedded rows of the
// 2026-09-28 eastus snapshot (D70), removed where the Resource SKUs API
// marks the pair not low-priority capable (D75); none from a reference row
// whose on-demand figure is not the reference's price (D80).
func spotRatiosExpected(t *testing.T) map[[2]string]float64 {
	t.Helper()
	price := map[[2]string]string{}
	for _, file := range []string{"prices.csv", "prices_additions.csv"} {
		for _, r := range referenceCSV(t, file) {
			price[[2]string{r["region"], r["vm_size"]}] = r["usd_per_hour"]
		}
	}
	ratio := map[[2]string]float64{}
	for _, r := range referenceCSV(t, "spot_prices.csv") {
		k := [2]string{r["region"], r["vm_size"]}
		if od, p := refFloat(t, r["usd_per_hour"]), refFloat(t, price[k]); od != nil && p != nil && math.Abs(*p-*od) > 0.005*(*p) {
			continue // D80: another size's or another time's on-demand price
		}
		if r["usd_per_hour"] != "" {
			ratio[[2]string{r["region"], r["vm_size"]}] = *refFloat(t, r["spot_usd_per_hour"]) / *refFloat(t, r["usd_per_hour"])
		}
	}
	refreshed, incapable := 0, 0
	for _, r := range embeddedRecords(t, "data/spot_prices.csv", 6) {
		switch {
		case r[4] == "2026-09-28" && strings.HasPrefix(r[5], "convox/convox:"):
			ratio[[2]string{r[0], r[1]}] = *refFloat(t, r[3]) / *refFloat(t, r[2])
			refreshed++
		case r[2] == "" && strings.Contains(r[5], "LowPriorityCapable=False"):
			delete(ratio, [2]string{r[0], r[1]})
			incapable++
		}
	}
	if refreshed != 12 || incapable != 33 {
		t.Errorf("%d spot rows from the 2026-09-28 eastus snapshot (want 12 of its 18 that Azure sells, D70), %d not low-priority capable (want 33, D75)", refreshed, incapable)
	}
	return ratio
}
