// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// This file derives, without the engine, which hard constraint removes each
// size of a catalog for a request: the rejection counts a result must report
// for whatever catalog it ran on. Tests on the embedded catalog compare with
// it instead of pinning counts that every added size changes; tests on the
// fixture catalog pin the counts by hand as well, which checks this oracle.

// oracleConstraints is the evaluation order, as documented on Constraints.
var oracleConstraints = []string{
	"retired", "min_lifetime_months", "preview", "deployable", "unknown_specs", "workload", "confidential", "isolated",
	"gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "target", "region", "availability",
	"min_vcpus", "min_memory_gib", "min_local_disk_gib", "gpu_memory", "gpus", "cores", "system_memory",
	"nodes", "interconnect", "max_price_per_hour", "max_total_price_per_hour", "scale_up",
}

// oracleFamilies is the family table of the Constraints documentation:
// which families serve a workload, and the catalog category it needs.
func oracleFamilies(req Request) (families []string, category string) {
	class := ClassGenerative
	if req.Model != nil && req.Model.Class != "" {
		class = req.Model.Class
	}
	switch w := req.Workload; {
	case (w == "training" || w == "fine_tuning") && class == ClassSmall:
		return []string{"E"}, "cpu"
	case w == "inference" && class == ClassSmall:
		return []string{"F"}, "cpu"
	case w == "training" || w == "fine_tuning":
		return []string{"ND", "NC"}, "gpu"
	case w == "inference":
		return []string{"NC", "ND", "NV", "NG"}, "gpu"
	case w == "hpc":
		return []string{"HB", "HX", "HC", "H"}, "hpc"
	case w == "htc":
		return []string{"F", "HB", "HX", "HC", "H", "E"}, "cpu"
	case w == "visualization":
		return []string{"NV", "NG", "NC"}, "gpu"
	case w == "data_processing":
		return []string{"NC", "ND", "NV"}, "gpu"
	}
	return nil, ""
}

// oracleVersion parses "major.minor"; ok is false for anything else.
func oracleVersion(s string) (major, minor int, ok bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) == 0 || len(parts) > 3 {
		return 0, 0, false
	}
	var err error
	if major, err = strconv.Atoi(parts[0]); err != nil {
		return 0, 0, false
	}
	if len(parts) > 1 {
		if minor, err = strconv.Atoi(parts[1]); err != nil {
			return 0, 0, false
		}
	}
	return major, minor, true
}

func versionBelow(aMaj, aMin, bMaj, bMin int) bool {
	return aMaj < bMaj || (aMaj == bMaj && aMin < bMin)
}

// oracleVMs is the fewest VMs holding need when each has per (the engine
// rounds up, forgiving floating-point noise, and needs at least one).
func oracleVMs(need, per float64) int64 {
	if per <= 0 {
		return math.MaxInt32
	}
	return max(int64(math.Ceil(need/per-1e-9)), 1)
}

// oracleEval is one size as the oracle sees it.
type oracleEval struct {
	sku   *catalog.SKU
	fails map[string]bool
	nodes int64
}

// firstFailure is the first failed constraint in evaluation order, or "".
func (e oracleEval) firstFailure() string {
	for _, c := range oracleConstraints {
		if e.fails[c] {
			return c
		}
	}
	return ""
}

// oracleEvaluate checks one size against a valid request, the way the
// Constraints documentation describes each constraint.
func oracleEvaluate(cat *catalog.Catalog, req Request, s *catalog.SKU) oracleEval {
	e := oracleEval{sku: s, fails: map[string]bool{}, nodes: 1}
	fail := func(c string) { e.fails[c] = true }
	day := req.AsOf
	if day.IsZero() {
		day = cat.DataDate
	}
	y, m, d := day.UTC().Date()
	day = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	months := int64(DefaultMinLifetimeMonths)
	if req.MinLifetimeMonths != nil {
		months = *req.MinLifetimeMonths
	}
	if s.RetiredAt(day) {
		fail("retired")
	}
	if rt, ok := s.RetirementTime(); ok && rt.Before(day.AddDate(0, int(months), 0)) {
		fail("min_lifetime_months")
	}
	if s.Lifecycle.Status == catalog.StatusPreview && !req.IncludePreview {
		fail("preview")
	}
	// An availability file that lists a size shows it can be deployed.
	if !s.Deployable && len(s.Availability) == 0 {
		fail("deployable")
	}
	g := s.GPU
	known := s.VCPUs != nil && s.MemoryGiB != nil && (g == nil || g.Count > 0)
	if !known {
		fail("unknown_specs")
	}
	families, category := oracleFamilies(req)
	vendor := ""
	if g != nil {
		vendor = strings.ToLower(g.Vendor)
	}
	ccMaj, ccMin, ccOK := 0, 0, false
	if g != nil {
		ccMaj, ccMin, ccOK = oracleVersion(g.ComputeCapability)
		ccOK = ccOK && g.ComputeCapability != ""
	}
	if !slices.Contains(families, s.Family) || (g != nil) != (category == "gpu") {
		fail("workload")
	}
	if req.Workload == "data_processing" {
		minMaj, minMin, _ := oracleVersion(DataProcessingMinComputeCapability)
		if vendor != "nvidia" || !ccOK || versionBelow(ccMaj, ccMin, minMaj, minMin) {
			fail("workload")
		}
	}
	if s.Confidential != (req.Confidential != nil && *req.Confidential) {
		fail("confidential")
	}
	if req.Isolated != nil && s.Isolated != *req.Isolated {
		fail("isolated")
	}
	if v := strings.ToLower(req.GPUVendor); v != "" && v != "any" && vendor != v {
		fail("gpu_vendor")
	}
	if len(req.GPUModels) > 0 {
		ok := false
		for _, m := range req.GPUModels {
			m = strings.TrimSpace(m)
			if g != nil && (strings.EqualFold(m, g.ModelID) || strings.EqualFold(m, g.Model)) {
				ok = true
			}
		}
		if !ok {
			fail("gpu_models")
		}
	}
	if req.CUDAVersion != "" {
		maj, mnr, _ := oracleVersion(req.CUDAVersion)
		if vendor != "nvidia" || int64(maj) > g.MaxCUDAMajor {
			fail("cuda_version")
		} else if gMaj, gMin, ok := oracleVersion(g.MinCUDA); ok && g.MinCUDA != "" && versionBelow(maj, mnr, gMaj, gMin) {
			fail("cuda_version")
		}
	}
	if req.MinComputeCapability != "" {
		maj, mnr, _ := oracleVersion(req.MinComputeCapability)
		if !ccOK || versionBelow(ccMaj, ccMin, maj, mnr) {
			fail("min_compute_capability")
		}
	}
	if targetSupport(s, req.Target) == catalog.SupportUnsupported {
		fail("target")
	}

	// The price the caps compare: the region's (spot where asked and
	// known), or without a region the lowest over all regions.
	var price float64
	hasPrice := false
	if region := strings.ToLower(strings.TrimSpace(req.Region)); region != "" {
		p, priced := s.Prices[region]
		if priced {
			price, hasPrice = p.USDPerHour, true
			if req.Spot && p.SpotUSDPerHour != nil {
				price = *p.SpotUSDPerHour
			}
		}
		if s.HasAvailability() {
			if ra, listed := s.AvailabilityIn(region); !listed {
				fail("region")
			} else if ra.LocationRestriction() != nil {
				fail("availability")
			}
		} else if !priced {
			fail("region")
		}
	} else {
		lowest, lowestSpot := math.Inf(1), math.Inf(1)
		for _, p := range s.Prices {
			lowest = min(lowest, p.USDPerHour)
			if p.SpotUSDPerHour != nil {
				lowestSpot = min(lowestSpot, *p.SpotUSDPerHour)
			}
		}
		switch {
		case req.Spot && !math.IsInf(lowestSpot, 1):
			price, hasPrice = lowestSpot, true
		case !math.IsInf(lowest, 1):
			price, hasPrice = lowest, true
		}
	}

	var vcpus int64
	var mem, disk float64
	if s.VCPUs != nil {
		vcpus = *s.VCPUs
	}
	// Memory fit counts on the smaller of the documented and the allotted
	// memory.
	if s.MemoryGiB != nil {
		mem = *s.MemoryGiB
		if s.MemoryGiBAllotted != nil && *s.MemoryGiBAllotted < mem {
			mem = *s.MemoryGiBAllotted
		}
	}
	if s.TempDiskGiB != nil {
		disk += float64(*s.TempDiskGiB)
	}
	if s.LocalNVMeGiB != nil {
		disk += float64(*s.LocalNVMeGiB)
	}
	if req.MinVCPUs != nil && *req.MinVCPUs > 0 && vcpus < *req.MinVCPUs {
		fail("min_vcpus")
	}
	if req.MinMemoryGiB != nil && *req.MinMemoryGiB > 0 && mem < *req.MinMemoryGiB {
		fail("min_memory_gib")
	}
	if req.MinLocalDiskGiB != nil && *req.MinLocalDiskGiB > 0 && disk < *req.MinLocalDiskGiB {
		fail("min_local_disk_gib")
	}

	// Layout: the most VMs any need asks for, and the need that asks.
	var gpuMem, sysMem float64
	var est *MemoryEstimate
	modelWorkload := req.Workload == "training" || req.Workload == "fine_tuning" || req.Workload == "inference"
	if req.Model != nil && modelWorkload && req.Model.ParametersBillion > 0 {
		precision := req.Model.Precision
		if precision == "" {
			precision = DefaultPrecision
		}
		if m, err := EstimateGPUMemoryGiB(req.Model.ParametersBillion, precision, req.Workload); err == nil {
			est = &m
		}
	}
	switch {
	case req.GPUMemoryGiB != nil:
		gpuMem = *req.GPUMemoryGiB
	case category == "gpu" && est != nil:
		gpuMem = est.GiB
	}
	weights := func() float64 { return math.Round(est.WeightsGiB*InferenceSystemMemoryFactor*100) / 100 }
	switch {
	case est != nil && category == "gpu" && req.Workload == "inference":
		sysMem = weights()
	case est != nil && category != "gpu":
		sysMem = est.GiB
		if req.Workload == "inference" {
			sysMem = max(sysMem, weights())
		}
	}
	nodes, driver := int64(1), ""
	need := func(k int64, c string) {
		if k > nodes {
			nodes, driver = k, c
		}
	}
	if known {
		if gpuMem > 0 {
			if g == nil || g.MemoryGiBTotal <= 0 {
				fail("gpu_memory")
			} else {
				need(oracleVMs(gpuMem, g.MemoryGiBTotal), "gpu_memory")
			}
		}
		if req.GPUs != nil && *req.GPUs > 0 {
			if g == nil || g.Count < 1 {
				fail("gpus")
			} else {
				need(oracleVMs(float64(*req.GPUs), g.Count), "gpus")
			}
		}
		if req.Cores != nil && *req.Cores > 0 && (req.Workload == "hpc" || req.Workload == "htc") {
			need(oracleVMs(float64(*req.Cores), float64(vcpus)), "cores")
		}
		if sysMem > 0 {
			need(oracleVMs(sysMem, mem), "system_memory")
		}
	}
	if req.Nodes != nil && *req.Nodes > 0 {
		if nodes > *req.Nodes {
			fail(driver)
		}
		nodes = *req.Nodes
	}
	e.nodes = nodes
	ib := false
	switch req.Interconnect {
	case "infiniband":
		ib = true
	case "any":
	default:
		ib = req.Workload == "hpc" || (nodes > 1 && req.Workload != "htc")
	}
	limit := int64(MaxNodes)
	if ib {
		limit = MaxNodesRDMA
	}
	if nodes > limit {
		if req.Nodes != nil && *req.Nodes > 0 {
			fail("nodes")
		} else {
			fail(driver)
		}
	}
	if ib && !s.Network.RDMA {
		fail("interconnect")
	}
	if req.MaxPricePerHour != nil && *req.MaxPricePerHour > 0 && (!hasPrice || price > *req.MaxPricePerHour) {
		fail("max_price_per_hour")
	}
	if req.MaxTotalPricePerHour != nil && *req.MaxTotalPricePerHour > 0 && (!hasPrice || price*float64(nodes) > *req.MaxTotalPricePerHour) {
		fail("max_total_price_per_hour")
	}
	return e
}

// oracleEvaluateAll evaluates every size of cat, scale_up included: when
// some size holds the job on one VM, sizes that pass every other
// constraint on several VMs go, unless named in prefer (never for hpc, htc
// or a fixed nodes setting).
func oracleEvaluateAll(cat *catalog.Catalog, req Request) []oracleEval {
	evals := make([]oracleEval, 0, len(cat.SKUs()))
	single := false
	for _, s := range cat.SKUs() {
		e := oracleEvaluate(cat, req, s)
		single = single || (len(e.fails) == 0 && e.nodes == 1)
		evals = append(evals, e)
	}
	named := map[*catalog.SKU]bool{}
	for _, p := range req.Prefer {
		if s, ok := cat.Lookup(p); ok {
			named[s] = true
		}
	}
	if single && req.Nodes == nil && req.Workload != "hpc" && req.Workload != "htc" {
		for i := range evals {
			if e := &evals[i]; len(e.fails) == 0 && e.nodes > 1 && !named[e.sku] {
				e.fails["scale_up"] = true
			}
		}
	}
	return evals
}

// oracleRejections are the rejections a result for req on cat must report,
// without their reasons: per constraint in evaluation order, the number of
// sizes counted under it and the first three of them in catalog order.
func oracleRejections(cat *catalog.Catalog, req Request) []Rejection {
	byConstraint := map[string]*Rejection{}
	for _, e := range oracleEvaluateAll(cat, req) {
		c := e.firstFailure()
		if c == "" {
			continue
		}
		r := byConstraint[c]
		if r == nil {
			r = &Rejection{Constraint: c}
			byConstraint[c] = r
		}
		r.Count++
		if len(r.Examples) < 3 {
			r.Examples = append(r.Examples, e.sku.Name)
		}
	}
	var out []Rejection
	for _, c := range oracleConstraints {
		if r := byConstraint[c]; r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// rejectedBy names the constraint the oracle counts a size under for req,
// or "" when the size passes.
func rejectedBy(t *testing.T, cat *catalog.Catalog, req Request, name string) string {
	t.Helper()
	s, ok := cat.Lookup(name)
	if !ok {
		t.Fatalf("%s is not in the catalog", name)
	}
	for _, e := range oracleEvaluateAll(cat, req) {
		if e.sku == s {
			return e.firstFailure()
		}
	}
	return ""
}

// checkRejections compares a result's rejections, reasons aside, with the
// oracle's for the same catalog and request.
func checkRejections(t *testing.T, cat *catalog.Catalog, req Request, got []Rejection) {
	t.Helper()
	want := oracleRejections(cat, req)
	stripped := make([]Rejection, len(got))
	for i, r := range got {
		stripped[i] = Rejection{Constraint: r.Constraint, Count: r.Count, Examples: r.Examples}
	}
	if !reflect.DeepEqual(stripped, want) {
		t.Errorf("rejections differ from the oracle's:\n got  %s\n want %s", formatRejections(stripped), formatRejections(want))
	}
}

func formatRejections(rs []Rejection) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %d %v", r.Constraint, r.Count, r.Examples)
	}
	return strings.Join(parts, "; ")
}

// The oracle knows the same constraints, in the same order, as the engine.
func TestOracleConstraintOrder(t *testing.T) {
	if !reflect.DeepEqual(oracleConstraints, Constraints()) {
		t.Errorf("oracle order %v, engine %v", oracleConstraints, Constraints())
	}
}
