// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// asOf is the catalog's data date: every size's lifecycle is as the catalog
// states it (NVv3 and NVv4, retiring 2026-09-30, are retired by then).
var asOf = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	return catalogtest.Embedded(t)
}

// fixture is the fixture catalog of package catalogtest: 19 sizes and
// prices that do not change with the embedded catalog.
func fixture(t testing.TB) *catalog.Catalog {
	t.Helper()
	return catalogtest.Fixture(t)
}

// newTestEngine prepares an engine for cat.
func newTestEngine(t testing.TB, cat *catalog.Catalog) *Engine {
	t.Helper()
	e, err := NewEngine(cat)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	return e
}

// testEngine prepares an engine for the embedded catalog.
func testEngine(t testing.TB) *Engine { return newTestEngine(t, testCatalog(t)) }

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }
func boolp(v bool) *bool     { return &v }

// mustRecommend ranks the embedded catalog for req and checks the result's
// invariants.
func mustRecommend(t *testing.T, req Request) *Result {
	t.Helper()
	return mustRecommendOn(t, testCatalog(t), req)
}

// mustRecommendOn ranks cat for req and checks the result's invariants.
func mustRecommendOn(t *testing.T, cat *catalog.Catalog, req Request) *Result {
	t.Helper()
	res, err := newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatalf("Recommend: %v", err)
	}
	checkInvariants(t, cat, req, res)
	return res
}

// mustNoFit expects the no-fit error for req on the embedded catalog.
func mustNoFit(t *testing.T, req Request) *NoFitError {
	t.Helper()
	return mustNoFitOn(t, testCatalog(t), req)
}

// mustNoFitOn expects the no-fit error for req on cat, with every size
// counted once, under the constraint table's order.
func mustNoFitOn(t *testing.T, cat *catalog.Catalog, req Request) *NoFitError {
	t.Helper()
	res, err := newTestEngine(t, cat).Recommend(req)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("want *NoFitError, got result %v, error %v", res, err)
	}
	if res != nil {
		t.Fatalf("a no-fit error must come without a result")
	}
	var sum int64
	for _, r := range nf.Rejected {
		sum += r.Count
	}
	if sum != int64(len(cat.SKUs())) {
		t.Errorf("no fit, but the rejections count %d of %d sizes", sum, len(cat.SKUs()))
	}
	checkRejections(t, cat, req, nf.Rejected)
	return nf
}

func names(res *Result) []string {
	out := make([]string, len(res.Recommendations))
	for i, r := range res.Recommendations {
		out[i] = r.VMSize
	}
	return out
}

func rejectedCounts(rs []Rejection) map[string]int64 {
	m := map[string]int64{}
	for _, r := range rs {
		m[r.Constraint] = r.Count
	}
	return m
}

func assertNames(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sizes:\n got  %s\n want %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

// assertOrder checks that the sizes in want are all in got, in this order;
// other sizes may come before, between or after them.
func assertOrder(t *testing.T, got []string, want ...string) {
	t.Helper()
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("sizes:\n got  %s\n want, in this order, %s (%s is missing or out of order)", strings.Join(got, ", "), strings.Join(want, ", "), want[i])
	}
}

// assertRejectedBy checks that each named size is removed, counted under
// constraint c (rejectedBy), and that the result's count for c includes
// them.
func assertRejectedBy(t *testing.T, cat *catalog.Catalog, req Request, rs []Rejection, c string, sizes ...string) {
	t.Helper()
	if rejectedCounts(rs)[c] < int64(len(sizes)) {
		t.Errorf("%s removes %d sizes, fewer than the %d named", c, rejectedCounts(rs)[c], len(sizes))
	}
	for _, name := range sizes {
		if got := rejectedBy(t, cat, req, name); got != c {
			t.Errorf("%s: counted under %q, want %q", name, got, c)
		}
	}
}

func assertRejected(t *testing.T, rs []Rejection, want map[string]int64) {
	t.Helper()
	if got := rejectedCounts(rs); !reflect.DeepEqual(got, want) {
		t.Errorf("rejected counts:\n got  %v\n want %v", got, want)
	}
}

// checkInvariants holds for every successful result: ranks 1..n, scores in
// range and not increasing (except a prefer pin at rank 1), rejections in
// the constraint table's order that do not count every size, every
// returned size passing the request's hard filters as the catalog's facts
// show them (satisfies), estimates an architect can read
// (checkEstimate), and quotas about the layouts recommended (checkQuota).
func checkInvariants(t *testing.T, cat *catalog.Catalog, req Request, res *Result) {
	t.Helper()
	if len(res.Recommendations) == 0 {
		t.Fatalf("a result must have at least one recommendation")
	}
	limit := int64(DefaultMaxResults)
	if req.MaxResults != nil {
		limit = *req.MaxResults
	}
	if int64(len(res.Recommendations)) > limit {
		t.Errorf("%d recommendations, max_results %d", len(res.Recommendations), limit)
	}
	var removed int64
	for _, r := range res.Rejected {
		removed += r.Count
		if r.Count <= 0 || len(r.Examples) == 0 || len(r.Examples) > 3 || r.Reason == "" {
			t.Errorf("malformed rejection %+v", r)
		}
	}
	if removed >= int64(len(cat.SKUs())) {
		t.Errorf("rejections count %d sizes of %d, yet %d were recommended", removed, len(cat.SKUs()), len(res.Recommendations))
	}
	checkRejections(t, cat, req, res.Rejected)
	checkDeployments(t, req, res)
	seen := map[string]bool{}
	for i, r := range res.Recommendations {
		if r.Rank != int64(i+1) {
			t.Errorf("recommendation %d has rank %d", i, r.Rank)
		}
		if r.Score < 0 || r.Score > 100 {
			t.Errorf("%s: score %v out of range", r.VMSize, r.Score)
		}
		if i > 1 && r.Score > res.Recommendations[i-1].Score {
			t.Errorf("%s: score %v above the previous %v", r.VMSize, r.Score, res.Recommendations[i-1].Score)
		}
		if seen[r.VMSize] {
			t.Errorf("%s listed twice", r.VMSize)
		}
		seen[r.VMSize] = true
		if r.SKU == nil || r.SKU.Name != r.VMSize {
			t.Errorf("%s: SKU does not match", r.VMSize)
		}
		if len(r.Reasons) == 0 {
			t.Errorf("%s: no reasons", r.VMSize)
		}
		if r.Preferred != (i == 0 && r.Preferred) {
			t.Errorf("%s: only rank 1 can be the preferred pin", r.VMSize)
		}
		if msg := satisfies(req, r); msg != "" {
			t.Errorf("%s violates a hard constraint: %s", r.VMSize, msg)
		}
		checkEstimate(t, r)
		checkQuota(t, r)
	}
}

// noFigures is the warning of a size the throughput model cannot time.
const noFigures = "The catalog has no throughput figures for this size"

// checkEstimate checks what an architect reads in one estimate: a timed
// estimate has positive figures, a size without the catalog's figures has
// an estimate without them and says so, and a job's cost is its hours at
// the layout's price (satisfies).
func checkEstimate(t *testing.T, r Recommendation) {
	t.Helper()
	e := r.Estimate
	if e == nil {
		return
	}
	untimed := e.JobHours == nil && e.TokensPerSecond == nil && e.RelativeThroughput == nil
	if untimed != slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, noFigures) }) {
		t.Errorf("%s: estimate %+v with warnings %q: a size without figures, and only it, says so", r.VMSize, e, r.Warnings)
	}
	for name, p := range map[string]*float64{"job_hours": e.JobHours, "job_cost_usd": e.JobCostUSD, "tokens_per_second": e.TokensPerSecond, "cost_per_million_tokens": e.CostPerMillionTokens, "relative_throughput": e.RelativeThroughput} {
		if p != nil && !(*p > 0) {
			t.Errorf("%s: %s %v, want a positive figure", r.VMSize, name, *p)
		}
	}
	if e.RelativeThroughput != nil && *e.RelativeThroughput > 1 {
		t.Errorf("%s: relative throughput %v above the best candidate's", r.VMSize, *e.RelativeThroughput)
	}
	if !untimed && !(e.Efficiency > 0 && e.Efficiency <= 1) {
		t.Errorf("%s: efficiency %v", r.VMSize, e.Efficiency)
	}
}

// checkRejections checks a result's rejections against the constraint
// table: each constraint at most once, in the order of Constraints, with a
// positive count, one to three examples (no more than the count) that are
// sizes of the catalog in catalog order, and no size under two
// constraints. That every size is counted once in all is checked where the
// whole catalog is known to be accounted for (mustNoFitOn, TestProperties).
func checkRejections(t *testing.T, cat *catalog.Catalog, _ Request, rs []Rejection) {
	t.Helper()
	order := Constraints()
	index := map[string]int{}
	for i, s := range cat.SKUs() {
		index[s.Name] = i
	}
	last, seen := -1, map[string]string{}
	for _, r := range rs {
		at := slices.Index(order, r.Constraint)
		if at < 0 || at <= last {
			t.Errorf("rejection %q out of the constraint table's order (%s)", r.Constraint, formatRejections(rs))
		}
		last = at
		if r.Count < 1 || len(r.Examples) < 1 || len(r.Examples) > 3 || int64(len(r.Examples)) > r.Count || r.Reason == "" {
			t.Errorf("malformed rejection %+v", r)
		}
		prev := -1
		for _, name := range r.Examples {
			i, ok := index[name]
			if !ok || i <= prev {
				t.Errorf("%s: example %s is not a catalog size in catalog order (%v)", r.Constraint, name, r.Examples)
			}
			prev = i
			if c, dup := seen[name]; dup {
				t.Errorf("%s counted under %s and %s", name, c, r.Constraint)
			}
			seen[name] = r.Constraint
		}
	}
}

func formatRejections(rs []Rejection) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %d %v", r.Constraint, r.Count, r.Examples)
	}
	return strings.Join(parts, "; ")
}

// rejectedBy is the constraint the engine counts a size under for req, ""
// when the size passes: read from the Preferred Size Skipped warning that
// naming the size in prefer gives, which names the first constraint it
// fails. prefer exempts the size from scale_up only, so a size that passes
// when preferred and is not ranked otherwise fails scale_up. When no size
// fits, the rejections' examples must name it.
func rejectedBy(t *testing.T, cat *catalog.Catalog, req Request, name string) string {
	t.Helper()
	if _, ok := cat.Lookup(name); !ok {
		t.Fatalf("%s is not in the catalog", name)
	}
	eng := newTestEngine(t, cat)
	preferred := req
	preferred.Prefer, preferred.MaxResults = []string{name}, i64(1)
	res, err := eng.Recommend(preferred)
	var nf *NoFitError
	switch {
	case errors.As(err, &nf):
		for _, r := range nf.Rejected {
			if slices.Contains(r.Examples, name) {
				return r.Constraint
			}
		}
		t.Fatalf("no size fits %+v, and no rejection names %s as an example", req, name)
	case err != nil:
		t.Fatalf("Recommend: %v", err)
	}
	prefix := name + ", named in prefer, fails "
	for _, w := range res.Warnings {
		if w.Summary == "Preferred Size Skipped" && strings.HasPrefix(w.Detail, prefix) {
			c, _, _ := strings.Cut(strings.TrimPrefix(w.Detail, prefix), ":")
			return c
		}
	}
	all := req
	all.MaxResults = i64(MaxResultsLimit)
	full, err := eng.Recommend(all)
	if err != nil {
		return "scale_up" // ranked only when preferred
	}
	if byName(full, name) == nil && len(full.Recommendations) < MaxResultsLimit {
		return "scale_up"
	}
	return ""
}

// memOr is *p, or def when p is nil.
func memOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// satisfies re-checks the hard constraints on one recommendation, written
// independently of the engine, and returns what is violated: the first
// violation of the checks below, in their order.
func satisfies(req Request, r Recommendation) string {
	for _, check := range []func(Request, Recommendation) string{
		satisfiesLifecycle,
		satisfiesSpecs,
		satisfiesGPUModel,
		satisfiesCUDAVersion,
		satisfiesComputeCapability,
		satisfiesTarget,
		satisfiesRegion,
		satisfiesMinimums,
		satisfiesLayout,
		satisfiesInterconnect,
		satisfiesPrices,
		satisfiesEstimate,
	} {
		if v := check(req, r); v != "" {
			return v
		}
	}
	return ""
}

// satisfiesLifecycle: the size is not retired on the request's date (or
// the catalog's), lives the minimum lifetime unless named in prefer
// without one, is not a preview unless previews are asked for, and can be
// deployed.
func satisfiesLifecycle(req Request, r Recommendation) string {
	s := r.SKU
	day := req.AsOf
	if day.IsZero() {
		day = asOf
	}
	if s.RetiredAt(day) {
		return "retired"
	}
	months := int64(DefaultMinLifetimeMonths)
	if req.MinLifetimeMonths != nil {
		months = *req.MinLifetimeMonths
	}
	if s.RetiresWithin(day, int(months)) && (req.MinLifetimeMonths != nil || !slices.Contains(req.Prefer, s.Name)) {
		return "min_lifetime_months"
	}
	if s.Lifecycle.Status == catalog.StatusPreview && !req.IncludePreview {
		return "preview"
	}
	if !s.Deployable && len(s.Availability) == 0 {
		return "deployable"
	}
	return ""
}

// satisfiesSpecs: the size's vCPUs and memory are known, and it is
// confidential and isolated as asked.
func satisfiesSpecs(req Request, r Recommendation) string {
	s := r.SKU
	if s.VCPUs == nil || s.MemoryGiB == nil {
		return "unknown_specs"
	}
	if want := req.Confidential != nil && *req.Confidential; s.Confidential != want {
		return "confidential"
	}
	if req.Isolated != nil && s.Isolated != *req.Isolated {
		return "isolated"
	}
	return ""
}

// satisfiesGPUModel: the GPU is of the vendor asked for and one of the
// models asked for (by identifier or name, any case).
func satisfiesGPUModel(req Request, r Recommendation) string {
	s := r.SKU
	if v := req.GPUVendor; v != "" && v != "any" && (s.GPU == nil || s.GPU.Vendor != v) {
		return "gpu_vendor"
	}
	if len(req.GPUModels) == 0 {
		return ""
	}
	for _, m := range req.GPUModels {
		if s.GPU != nil && (strings.EqualFold(m, s.GPU.ModelID) || strings.EqualFold(m, s.GPU.Model)) {
			return ""
		}
	}
	return "gpu_models"
}

// satisfiesCUDAVersion: an NVIDIA GPU whose CUDA versions include the one
// asked for.
func satisfiesCUDAVersion(req Request, r Recommendation) string {
	s := r.SKU
	if req.CUDAVersion == "" {
		return ""
	}
	var major, minor int
	_, _ = fmt.Sscanf(req.CUDAVersion, "%d.%d", &major, &minor)
	if s.GPU == nil || s.GPU.Vendor != "nvidia" || int64(major) > s.GPU.MaxCUDAMajor {
		return "cuda_version"
	}
	var mj, mn int
	_, _ = fmt.Sscanf(s.GPU.MinCUDA, "%d.%d", &mj, &mn)
	if major < mj || (major == mj && minor < mn) {
		return "cuda_version (too old for the GPU)"
	}
	return ""
}

// satisfiesComputeCapability: a GPU of at least the compute capability
// asked for.
func satisfiesComputeCapability(req Request, r Recommendation) string {
	s := r.SKU
	if req.MinComputeCapability == "" {
		return ""
	}
	var a, b, c, d int
	_, _ = fmt.Sscanf(req.MinComputeCapability, "%d.%d", &a, &b)
	if s.GPU == nil || s.GPU.ComputeCapability == "" {
		return "min_compute_capability"
	}
	_, _ = fmt.Sscanf(s.GPU.ComputeCapability, "%d.%d", &c, &d)
	if c < a || (c == a && d < b) {
		return "min_compute_capability"
	}
	return ""
}

// satisfiesTarget: the target supports the size.
func satisfiesTarget(req Request, r Recommendation) string {
	if targetSupport(r.SKU, req.Target) == catalog.SupportUnsupported {
		return "target"
	}
	return ""
}

// satisfiesRegion: the size is offered in the requested region, priced
// there. Region names are case-insensitive and trimmed; the catalog's are
// lower case. With an availability file the file says where a size is
// offered (it may be offered where the catalog has no price); without one
// a price in the region does.
func satisfiesRegion(req Request, r Recommendation) string {
	s := r.SKU
	region := strings.ToLower(strings.TrimSpace(req.Region))
	if region == "" {
		return ""
	}
	p, priced := s.Prices[region]
	if s.HasAvailability() {
		ra, listed := s.AvailabilityIn(region)
		if !listed {
			return "region"
		}
		if ra.LocationRestriction() != nil {
			return "availability"
		}
	} else if !priced {
		return "region"
	}
	if r.PriceRegion != region {
		return "price region is not the requested region"
	}
	if !priced {
		if r.PricePerHour != nil {
			return "a price in a region where the size has none"
		}
		return ""
	}
	want := p.USDPerHour
	if req.Spot && p.SpotUSDPerHour != nil {
		want = *p.SpotUSDPerHour
	}
	if r.PricePerHour == nil || *r.PricePerHour != want {
		return "price is not the region's"
	}
	return ""
}

// satisfiesMinimums: at least the vCPUs, memory (the less of the size's and
// the allotted) and local disk (temporary and NVMe) asked for.
func satisfiesMinimums(req Request, r Recommendation) string {
	s := r.SKU
	if req.MinVCPUs != nil && *s.VCPUs < *req.MinVCPUs {
		return "min_vcpus"
	}
	if req.MinMemoryGiB != nil && math.Min(*s.MemoryGiB, memOr(s.MemoryGiBAllotted, *s.MemoryGiB)) < *req.MinMemoryGiB {
		return "min_memory_gib"
	}
	if req.MinLocalDiskGiB == nil {
		return ""
	}
	var disk float64
	if s.TempDiskGiB != nil {
		disk += float64(*s.TempDiskGiB)
	}
	if s.LocalNVMeGiB != nil {
		disk += float64(*s.LocalNVMeGiB)
	}
	if disk < *req.MinLocalDiskGiB {
		return "min_local_disk_gib"
	}
	return ""
}

// satisfiesLayout: the nodes setting is kept, the node count is in range,
// and the layout holds the GPU memory, GPUs and cores asked for.
func satisfiesLayout(req Request, r Recommendation) string {
	s := r.SKU
	if req.Nodes != nil && r.Nodes != *req.Nodes {
		return "nodes differ from the nodes setting"
	}
	if r.Nodes < 1 || r.Nodes > MaxNodes {
		return "node count out of range"
	}
	if req.GPUMemoryGiB != nil && r.TotalGPUMemoryGiB+1e-9 < *req.GPUMemoryGiB {
		return "gpu_memory"
	}
	if req.GPUs != nil && (s.GPU == nil || s.GPU.Count < 1 || r.TotalGPUs < float64(*req.GPUs)) {
		return "gpus"
	}
	if req.Cores != nil && (req.Workload == "hpc" || req.Workload == "htc") && r.Nodes**s.VCPUs < *req.Cores {
		return "cores"
	}
	if req.MinReplicas != nil && req.Nodes == nil && (r.Replicas < *req.MinReplicas || r.Nodes < *req.MinReplicas) {
		return "min_replicas"
	}
	if req.MaxNodes != nil && r.Nodes > *req.MaxNodes {
		return "max_nodes"
	}
	return ""
}

// satisfiesInterconnect: a job that needs InfiniBand gets it, on no more
// VMs than one InfiniBand job can use. One job spans VMs: a served model's
// copy with pipeline stages (copies on separate VMs, replicas, need no
// InfiniBand, and each copy is a job of its own); any other job on more
// than one VM.
func satisfiesInterconnect(req Request, r Recommendation) string {
	jobVMs := ibJobVMs(req, r)
	spans := jobVMs > 1
	needIB := req.Interconnect == "infiniband" ||
		((req.Interconnect == "" || req.Interconnect == "auto") && (req.Workload == "hpc" || (spans && req.Workload != "htc")))
	if needIB && !r.SKU.Network.RDMA {
		return "interconnect"
	}
	if needIB && jobVMs > r.SKU.MaxJobVMs() {
		return "more VMs than an InfiniBand job can use"
	}
	if req.MaxNodes != nil && r.Nodes > *req.MaxNodes {
		return "more VMs than max_nodes"
	}
	return ""
}

// ibJobVMs is the VMs one job of a recommendation spans, which InfiniBand
// joins: a served model's copy (its pipeline stages; the copies are
// separate jobs), else the whole layout.
func ibJobVMs(req Request, r Recommendation) int64 {
	if req.Workload == "inference" && req.Model != nil && req.GPUMemoryGiB == nil && r.PipelineStages > 0 {
		return r.PipelineStages
	}
	return r.Nodes
}

// satisfiesPrices: within the price limits, and the total price is the
// price of a VM times the VMs.
func satisfiesPrices(req Request, r Recommendation) string {
	if req.MaxPricePerHour != nil && (r.PricePerHour == nil || *r.PricePerHour > *req.MaxPricePerHour) {
		return "max_price_per_hour"
	}
	if req.MaxTotalPricePerHour != nil && (r.TotalPricePerHour == nil || *r.TotalPricePerHour > *req.MaxTotalPricePerHour+1e-9) {
		return "max_total_price_per_hour"
	}
	if r.PricePerHour != nil && r.TotalPricePerHour != nil {
		if d := *r.PricePerHour*float64(r.Nodes) - *r.TotalPricePerHour; d > 1e-3 || d < -1e-3 {
			return "total price is not price times nodes"
		}
	}
	return ""
}

// satisfiesEstimate: time and throughput, by the layout's own estimate: a
// stated deadline is met, a service sustains the tokens per second asked
// for, and the cost of a job is its hours at the layout's price.
func satisfiesEstimate(req Request, r Recommendation) string {
	e := r.Estimate
	if e == nil {
		return ""
	}
	if req.DeadlineHours != nil && e.JobHours != nil && *e.JobHours > *req.DeadlineHours+0.005 {
		return fmt.Sprintf("deadline: %v hours for deadline_hours %v", *e.JobHours, *req.DeadlineHours)
	}
	if req.TokensPerSecond != nil && e.TokensPerSecond != nil && req.Workload == "inference" && *e.TokensPerSecond+0.5 < *req.TokensPerSecond {
		return fmt.Sprintf("tokens_per_second: the layout serves %v of the %v asked for", *e.TokensPerSecond, *req.TokensPerSecond)
	}
	// (hours rounded to 0.01, the total price to 0.0001 USD, the cost to
	// the cent), licences included: a job's licence cost is its hours at
	// the licence per hour of its cores.
	lic := 0.0
	if e.LicenseCostUSD != nil && *e.JobHours > 0 {
		lic = *e.LicenseCostUSD / *e.JobHours
	}
	if e.JobHours != nil && e.JobCostUSD != nil && r.TotalPricePerHour != nil &&
		math.Abs(*e.JobHours*(*r.TotalPricePerHour+lic)-*e.JobCostUSD) > 0.005*(*r.TotalPricePerHour+lic)+0.00005**e.JobHours+0.02 {
		return fmt.Sprintf("job cost %v for %v hours at %v USD per hour", *e.JobCostUSD, *e.JobHours, *r.TotalPricePerHour)
	}
	return ""
}

// targetSupport is the catalog's support verdict for a size on a target,
// read independently of the engine; supported for the targets without a
// verdict of their own (vm, vmss).
func targetSupport(s *catalog.SKU, target string) string {
	switch target {
	case "aks":
		return s.Support.AKS.Status
	case "cyclecloud":
		return s.Support.CycleCloud.Status
	case "azureml":
		return s.Support.AzureML.Status
	case "batch":
		return s.Support.Batch.Status
	}
	return catalog.SupportSupported
}
