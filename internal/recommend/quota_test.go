// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// usageFixture is the usage file of eastus, in the shape az vm list-usage
// prints: standardNDSH100v5Family has a limit of 0, StandardNCADSA100v4Family
// leaves 24 of 48 vCPUs, 214 of the region's 350 vCPUs and all 100
// low-priority vCPUs are free.
func usageFixture(t *testing.T) map[string]*catalog.Usage {
	t.Helper()
	u, err := azureexport.LoadUsage("eastus", "../azureexport/testdata/usage_eastus.json")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*catalog.Usage{"eastus": u}
}

const h100 = "Standard_ND96isr_H100_v5"

// Serving an 8B model in eastus: every size whose quota suffices or is
// unknown ranks before every size it cannot hold; an unknown quota costs
// QuotaUnknownPenalty points instead of a group of its own, so it ranks
// with the sufficient ones, lower; the H100 size, whose family limit is 0,
// says exactly what to request.
func TestQuotaRanksSufficientFirstAndNamesTheIncrease(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "eastus", MaxResults: i64(MaxResultsLimit), Usage: usageFixture(t), AsOf: asOf}
	res := mustRecommend(t, req)
	insufficient := false
	seen := map[string]bool{}
	for _, r := range res.Recommendations {
		if r.Quota == nil {
			t.Fatalf("%s: no quota with usage files", r.VMSize)
		}
		seen[r.Quota.Status] = true
		switch {
		case r.Preferred:
		case r.Quota.Status == QuotaInsufficient:
			insufficient = true
		case insufficient:
			t.Errorf("%s (%s) ranks after a size whose quota is insufficient", r.VMSize, r.Quota.Status)
		}
	}
	if !seen[QuotaSufficient] || !seen[QuotaInsufficient] || !seen[QuotaUnknown] {
		t.Fatalf("statuses %v: the fixture should give sufficient, unknown and insufficient sizes", seen)
	}
	h := byName(res, h100)
	if h == nil {
		t.Fatalf("%s is not ranked: %v", h100, names(res))
	}
	q := h.Quota
	if q.Status != QuotaInsufficient || q.Family != "standardNDSH100v5Family" || q.VCPUsNeeded != 96 || *q.FamilyVCPUsAvailable != 0 || *q.RegionalVCPUsAvailable != 214 {
		t.Errorf("H100 quota %+v", q)
	}
	want := "Request a quota increase of standardNDSH100v5Family in eastus from 0 to at least 96 vCPUs."
	if !slices.ContainsFunc(h.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("H100 warnings %q lack %q", h.Warnings, want)
	}
	a100 := byName(res, "Standard_NC24ads_A100_v4")
	if a100 == nil || a100.Quota.Status != QuotaSufficient || a100.Quota.VCPUsNeeded != 24 || *a100.Quota.FamilyVCPUsAvailable != 24 {
		t.Errorf("NC24ads_A100_v4 (24 of 48 family vCPUs free): %+v", a100)
	}

	// require_quota removes the sizes the quota cannot hold, under quota.
	req.RequireQuota = true
	strict := mustRecommend(t, req)
	if byName(strict, h100) != nil {
		t.Errorf("require_quota keeps %s", h100)
	}
	for _, r := range strict.Recommendations {
		if r.Quota.Status == QuotaInsufficient {
			t.Errorf("require_quota keeps %s (insufficient)", r.VMSize)
		}
	}
	if r := rejection(strict.Rejected, "quota"); r == nil || !slices.Contains(r.Examples, h100) && r.Count < 3 {
		t.Errorf("quota rejection %+v", r)
	}
}

// Spot VMs count against the region's low-priority vCPUs, not the family:
// the H100 size, whose family limit is 0, fits the 100 low-priority vCPUs.
func TestQuotaSpotUsesTheLowPriorityLimit(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "eastus", Spot: true, MaxResults: i64(MaxResultsLimit), Usage: usageFixture(t), AsOf: asOf}
	res := mustRecommend(t, req)
	h := byName(res, h100)
	if h == nil {
		t.Fatalf("%s is not ranked: %v", h100, names(res))
	}
	if q := h.Quota; q.Status != QuotaSufficient || q.FamilyVCPUsAvailable != nil || *q.RegionalVCPUsAvailable != 100 {
		t.Errorf("spot H100 quota %+v", q)
	}
	// Two spot VMs of 96 vCPUs exceed the 100 low-priority vCPUs.
	req.Nodes = i64(2)
	h = byName(mustRecommend(t, req), h100)
	if h == nil || h.Quota.Status != QuotaInsufficient ||
		!slices.ContainsFunc(h.Warnings, func(w string) bool {
			return strings.Contains(w, "Request a quota increase of the Total Regional Low-priority vCPUs of eastus from 100 to at least 192 vCPUs.")
		}) {
		t.Errorf("two spot H100 VMs: %+v", h)
	}
}

// Without a usage file for the region, or a family the file does not
// list, the quota is unknown and says why; without usage files, there is
// none.
func TestQuotaUnknownAndAbsent(t *testing.T) {
	base := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "westus2", AsOf: asOf}
	if r := mustRecommend(t, base).Recommendations[0]; r.Quota != nil {
		t.Errorf("quota %+v without usage files", r.Quota)
	}
	req := base
	req.Usage = usageFixture(t)
	for _, r := range mustRecommend(t, req).Recommendations {
		if r.Quota.Status != QuotaUnknown || !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "usage_files has no file for westus2") }) {
			t.Errorf("%s: %+v %q", r.VMSize, r.Quota, r.Warnings)
		}
	}
}

// A training job scaled out for the default deadline uses at most the VMs
// the quota leaves, runs longer, and names the increase that would meet
// the deadline; a stated deadline the quota cannot hold is insufficient.
func TestQuotaHoldsDefaultDeadlineScaleOut(t *testing.T) {
	const a100 = "Standard_NC24ads_A100_v4"
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 1}, TokensBillion: f64(1000), Interconnect: InterconnectAny,
		Region: "eastus", Prefer: []string{a100}, AsOf: asOf}
	free := mustRecommend(t, req).Recommendations[0]
	if free.VMSize != a100 || free.Nodes < 2 {
		t.Fatalf("%s on %d VMs: the default deadline should scale it out", free.VMSize, free.Nodes)
	}
	req.Usage = usageFixture(t) // 24 of the family's 48 vCPUs free: one VM
	held := mustRecommend(t, req).Recommendations[0]
	if held.VMSize != a100 || held.Nodes != 1 || held.Quota.Status != QuotaSufficient || held.Quota.VCPUsNeeded != 24 || *held.Estimate.JobHours <= *free.Estimate.JobHours {
		t.Fatalf("held to the quota: %s on %d VMs, %v hours (free: %d VMs, %v hours), quota %+v", held.VMSize, held.Nodes, *held.Estimate.JobHours, free.Nodes, *free.Estimate.JobHours, held.Quota)
	}
	// The family's 24 vCPUs in use plus 24 per VM, and the region's 136 too.
	want := "Request a quota increase of StandardNCADSA100v4Family in eastus from 48 to at least " + groupInt(float64(24+free.Nodes*24)) +
		" vCPUs and the Total Regional vCPUs of eastus from 350 to at least " + groupInt(float64(136+free.Nodes*24)) + " vCPUs."
	if !slices.ContainsFunc(held.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("warnings %q lack %q", held.Warnings, want)
	}
	// The deadline the free layout meets, stated: the quota cannot hold it.
	req.DeadlineHours = f64(*free.Estimate.JobHours * 1.01)
	stated := byName(mustRecommend(t, req), a100)
	if stated == nil || stated.Nodes != free.Nodes || stated.Quota.Status != QuotaInsufficient {
		t.Errorf("stated deadline: %+v", stated)
	}
}

// When the quota holds no ranked size, a result warning says so and names
// the increase the rank-1 size needs.
func TestQuotaHoldsNoRankedSize(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "eastus", GPUModels: []string{"h100-sxm-80gb"}, Usage: usageFixture(t), AsOf: asOf}
	res := mustRecommend(t, req)
	for _, r := range res.Recommendations {
		if r.Quota.Status != QuotaInsufficient {
			t.Skipf("%s: quota %s", r.VMSize, r.Quota.Status)
		}
	}
	if !slices.ContainsFunc(res.Warnings, func(w Warning) bool {
		return w.Summary == "Quota Holds No Ranked Size" && strings.Contains(w.Detail, "Request a quota increase of standardNDSH100v5Family in eastus from 0 to at least 96 vCPUs.")
	}) {
		t.Errorf("warnings %+v", res.Warnings)
	}
}

// The warning that the quota holds no ranked size is not given while one
// does: prefer pins Standard_HB120-16rs_v3, whose 4 VMs for 64 cores need
// 480 of the family's 200 vCPUs, at rank 1, and the sizes after it hold
// the job on one VM each.
func TestQuotaHoldsNoRankedSizeOnlyWhenNoneFits(t *testing.T) {
	req := Request{Workload: WorkloadHPC, Cores: i64(64), Region: "eastus", Prefer: []string{"Standard_HB120-16rs_v3"}, AsOf: asOf,
		Usage: map[string]*catalog.Usage{"eastus": catalog.NewUsage("eastus", "usage.json", []catalog.UsageCount{
			{Name: "cores", Current: 0, Limit: 1000},
			{Name: "standardHBv3Family", Current: 0, Limit: 200},
		})}}
	res := mustRecommend(t, req)
	if top := res.Recommendations[0]; top.VMSize != "Standard_HB120-16rs_v3" || top.Quota.Status != QuotaInsufficient {
		t.Fatalf("rank 1 %s, quota %+v: want the preferred size, insufficient", top.VMSize, top.Quota)
	}
	held := slices.IndexFunc(res.Recommendations, func(r Recommendation) bool { return r.Quota.Status != QuotaInsufficient })
	if held < 0 {
		t.Fatalf("no ranked size's quota holds the job: %v", names(res))
	}
	if slices.ContainsFunc(res.Warnings, func(w Warning) bool { return w.Summary == "Quota Holds No Ranked Size" }) {
		t.Errorf("%s (rank %d) is %s, yet the result warns that the quota holds no ranked size", res.Recommendations[held].VMSize, held+1, res.Recommendations[held].Quota.Status)
	}
}

// With regions and usage files, a size goes to the allowed region whose
// quota suffices before a cheaper one whose quota does not: the H100 size
// has no family quota in eastus and 1,200 vCPUs in westus3.
func TestRegionsPreferTheRegionWhoseQuotaSuffices(t *testing.T) {
	usage := usageFixture(t)
	west, err := azureexport.LoadUsage("westus3", "../azureexport/testdata/usage_westus3_api.json")
	if err != nil {
		t.Fatal(err)
	}
	usage["westus3"] = west
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Regions: []string{"eastus", "westus3"}, GPUModels: []string{"h100-sxm-80gb"}, AsOf: asOf}
	free := byName(mustRecommend(t, req), h100)
	if free == nil {
		t.Fatalf("%s is not ranked", h100)
	}
	req.Usage = usage
	h := byName(mustRecommend(t, req), h100)
	if h == nil || h.PriceRegion != "westus3" || h.Quota.Status != QuotaSufficient || *h.Quota.RegionalVCPUsAvailable != 100 {
		t.Fatalf("with usage files: %+v (without: %s)", h, free.PriceRegion)
	}
	t.Logf("without usage files in %s, with them in %s", free.PriceRegion, h.PriceRegion)
}

// More quota never makes a size's quota worse: with every limit of the
// usage file raised tenfold, no size ranked in both results has a worse
// status, and require_quota removes no more sizes. (A size can still leave
// the list: held to one VM by the quota it stays, free to scale out for the
// default deadline it spans VMs, which scale_up removes when another size
// holds the job on one.)
func TestMoreQuotaNeverHurts(t *testing.T) {
	data, err := os.ReadFile("../azureexport/testdata/usage_eastus.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		limit, err := strconv.Atoi(r["limit"].(string))
		if err != nil {
			t.Fatal(err)
		}
		r["limit"] = strconv.Itoa(10 * limit)
	}
	raised, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	more, err := azureexport.ParseUsage("eastus", "raised.json", raised)
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []Request{
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, Region: "eastus"},
		{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, Region: "eastus"},
		{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "eastus", Spot: true},
	} {
		req.MaxResults, req.AsOf, req.RequireQuota = i64(MaxResultsLimit), asOf, true
		req.Usage = usageFixture(t)
		before, errBefore := testEngine(t).Recommend(req)
		req.Usage = map[string]*catalog.Usage{"eastus": more}
		after := mustRecommend(t, req)
		if errBefore != nil {
			continue // nothing fitted the smaller quota
		}
		if a, b := rejection(after.Rejected, "quota"), rejection(before.Rejected, "quota"); a != nil && (b == nil || a.Count > b.Count) {
			t.Errorf("%s: require_quota removes %+v with more quota, %+v with less", req.Workload, a, b)
		}
		for _, b := range before.Recommendations {
			if a := byName(after, b.VMSize); a != nil && quotaRank(a.Quota.Status) > quotaRank(b.Quota.Status) {
				t.Errorf("%s %s: %s with more quota, %s with less", req.Workload, b.VMSize, a.Quota.Status, b.Quota.Status)
			}
		}
	}
}

// An unknown quota is a penalty, not a group: with a usage file for the
// A100 family's region only, a layout whose quota is unknown but which
// leads by more than QuotaUnknownPenalty points ranks first, ahead of the
// sizes whose quota suffices; without the lead it would rank after them.
// On the fixture catalog, the 8B service of 32 conversations at 8,192
// tokens: the A100 80 GB layout scores 100 and the H100 NVL 88.2 without
// usage files (TestRecommendationDataSource_NamedModel).
func TestUnknownQuotaLeadingByMoreThanThePenaltyRanksFirst(t *testing.T) {
	// Only the H100 NVL's family is in the file, with room: the A100's
	// quota is unknown.
	u := catalog.NewUsage("eastus", "usage.json", []catalog.UsageCount{
		{Name: "cores", Current: 0, Limit: 1000},
		{Name: "StandardNCadsH100v5Family", Current: 0, Limit: 400},
	})
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32),
		Region: "eastus", Usage: map[string]*catalog.Usage{"eastus": u}, AsOf: asOf, MaxResults: i64(MaxResultsLimit)}
	res := mustRecommendOn(t, fixture(t), req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_NC24ads_A100_v4" || top.Quota == nil || top.Quota.Status != QuotaUnknown {
		t.Fatalf("top %s, quota %+v: want the A100 80 GB with an unknown quota", top.VMSize, top.Quota)
	}
	if h := byName(res, "Standard_NC40ads_H100_v5"); h == nil || h.Quota.Status != QuotaSufficient || top.Score-h.Score > 100-88.2-QuotaUnknownPenalty+0.05 {
		t.Errorf("H100 NVL %+v after the A100 at %v", h, top.Score)
	}
}

// Where Azure sells no Spot VMs of the size (NC A100 v4 in eastus, D75),
// spot = true deploys it on demand, so its quota is its family's, not the
// region's low-priority vCPUs: 24 of StandardNCADSA100v4Family's vCPUs.
func TestQuotaOnDemandWhereAzureSellsNoSpot(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, Region: "eastus", Spot: true, GPUModels: []string{"a100-pcie-80gb"}, Usage: usageFixture(t), AsOf: asOf}
	r := byName(mustRecommend(t, req), "Standard_NC24ads_A100_v4")
	if r == nil || r.Quota == nil || r.Quota.FamilyVCPUsAvailable == nil || *r.Quota.FamilyVCPUsAvailable != 24 {
		t.Errorf("NC24ads_A100_v4 on spot in eastus: %+v", r)
	}
}

// checkQuota holds for every recommendation with usage files: its quota is
// about the layout recommended, nodes VMs of the size's quota vCPUs; the
// status says whether the usage file leaves that many free; and an
// insufficient quota's warning names those VMs.
func checkQuota(t *testing.T, r Recommendation) {
	t.Helper()
	q := r.Quota
	if q == nil {
		return
	}
	if want := r.Nodes * quotaVCPUs(r.SKU); q.VCPUsNeeded != want {
		t.Errorf("%s on %d VMs: vcpus_needed %d, want %d", r.VMSize, r.Nodes, q.VCPUsNeeded, want)
	}
	if q.Status == QuotaUnknown || q.RegionalVCPUsAvailable == nil {
		return
	}
	free := *q.RegionalVCPUsAvailable
	if q.FamilyVCPUsAvailable != nil {
		free = min(free, *q.FamilyVCPUsAvailable)
	}
	if fits := q.VCPUsNeeded <= free; fits != (q.Status == QuotaSufficient) {
		t.Errorf("%s: %d vCPUs needed, %d free, yet status %s", r.VMSize, q.VCPUsNeeded, free, q.Status)
	}
	names := groupInt(float64(q.VCPUsNeeded)) + " vCPUs (" + catalog.Plural(r.Nodes, "VM", "VMs")
	if q.Status == QuotaInsufficient && !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, names) }) {
		t.Errorf("%s: warnings %q do not name the %s of the layout", r.VMSize, r.Warnings, names)
	}
}

// gb200Usage is a usage file of eastus whose GB200 family leaves limit
// vCPUs, and the region far more.
func gb200Usage(limit int64) map[string]*catalog.Usage {
	return map[string]*catalog.Usage{"eastus": catalog.NewUsage("eastus", "usage.json", []catalog.UsageCount{
		{Name: "cores", Current: 0, Limit: 100000},
		{Name: "standardNDISRGB200V6NDRFamily", Current: 0, Limit: limit},
	})}
}

// A rack-allocated size (GB200: racks of 18 VMs) is judged on the whole
// racks it is recommended on, not the VMs the job asked for: a deadline
// met on 8 VMs takes a rack of 18, 2,304 vCPUs, which 1,024 free do not
// hold; the default deadline scaled out within 3,200 free vCPUs stops at
// the whole racks they hold (one), not at 25 VMs rounded up to 36.
func TestQuotaJudgesWholeRacks(t *testing.T) {
	const gb200 = "Standard_ND128isr_NDR_GB200_v6"
	stated := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, TokensBillion: f64(50), DeadlineHours: f64(200),
		Region: "eastus", GPUModels: []string{"gb200"}, Usage: gb200Usage(1024), AsOf: asOf}
	r := byName(mustRecommend(t, stated), gb200)
	if r == nil || r.Nodes%18 != 0 || r.Quota.Status != QuotaInsufficient ||
		!slices.ContainsFunc(r.Warnings, func(w string) bool {
			return strings.Contains(w, "from 1,024 to at least "+groupInt(float64(r.Nodes*128))+" vCPUs")
		}) {
		t.Fatalf("stated deadline: %+v", r)
	}
	checkQuota(t, *r)

	scaled := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus", GPUModels: []string{"gb200"}, AsOf: asOf}
	free := byName(mustRecommend(t, scaled), gb200)
	if free == nil || free.Nodes <= 36 {
		t.Fatalf("without usage files: %+v; the default deadline should scale it past two racks", free)
	}
	scaled.Usage = gb200Usage(3200)
	held := byName(mustRecommend(t, scaled), gb200)
	if held == nil || held.Nodes != 18 || held.Quota.Status != QuotaSufficient {
		t.Fatalf("within 3,200 vCPUs (25 VMs): %+v, want one rack of 18 VMs", held)
	}
	checkQuota(t, *held)
	if want := "takes " + catalog.Plural(free.Nodes, "VM", "VMs"); !slices.ContainsFunc(held.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("warnings %q lack %q", held.Warnings, want)
	}
}

// When the quota holds not even the smallest layout of a training job the
// default deadline scales out, the job falls back to that smallest layout,
// and its figures and advice are about it: 70B on H100 with 192 of the
// family's vCPUs free (2 VMs) runs on the VMs that hold it, not the 72 the
// deadline takes, and the warning asks for the increase those VMs need.
func TestQuotaBelowTheSmallestLayoutKeepsIt(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, Region: "eastus", GPUModels: []string{"h100-sxm-80gb"}, AsOf: asOf}
	scaled := byName(mustRecommend(t, req), h100)
	long := req
	long.DeadlineHours = f64(87600)
	least := byName(mustRecommend(t, long), h100)
	if scaled == nil || least == nil || least.Nodes >= scaled.Nodes || least.Nodes*96 <= 192 {
		t.Fatalf("without usage files: %+v on the smallest layout, %+v scaled out; want the smallest above 2 VMs", least, scaled)
	}
	req.Usage = map[string]*catalog.Usage{"eastus": catalog.NewUsage("eastus", "usage.json", []catalog.UsageCount{
		{Name: "cores", Current: 100, Limit: 1000},
		{Name: "standardNDSH100v5Family", Current: 96, Limit: 288},
	})}
	r := byName(mustRecommend(t, req), h100)
	if r == nil || r.Nodes != least.Nodes || r.Quota.Status != QuotaInsufficient {
		t.Fatalf("with 192 vCPUs free: %+v, want the smallest layout, %d VMs, insufficient", r, least.Nodes)
	}
	checkQuota(t, *r)
	want := "from 288 to at least " + groupInt(float64(96+least.Nodes*96)) + " vCPUs"
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("warnings %q lack %q", r.Warnings, want)
	}
}
