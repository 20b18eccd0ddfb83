// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// withStream returns the embedded catalog with a STREAM bandwidth of gbs
// for the reference size of the CPU series (scaled to its other sizes by
// their vCPUs), which the catalog does not publish for the F family.
func withStream(t *testing.T, series string, gbs float64) *catalog.Catalog {
	t.Helper()
	f, err := os.Open("../catalog/data/performance.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := catalog.DecodeDocument(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.SeriesPerformance {
		if p.Series != series {
			continue
		}
		p.StreamGBs = f64(gbs)
		p.Sources["stream_gbs"] = []string{"test"}
		c, _, err := testCatalog(t).WithOverlays(catalog.Overlays{Catalog: &catalog.CatalogFile{File: "test", Document: catalog.Document{SeriesPerformance: []catalog.SeriesPerformanceDoc{p}}}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Fatalf("no performance for series %s", series)
	return nil
}

// A small model served on a CPU size is timed by the step model with the
// VM's STREAM bandwidth: one request of a short prompt decodes one token
// per read of the weights, so its time per output token is the weights
// over the achieved STREAM bandwidth, a little more for the prefills
// continuous batching interleaves. A size without a STREAM figure stays
// without an estimate.
func TestSmallModelServedOnCPU(t *testing.T) {
	const params = 0.5 // billion, bf16: 2 bytes each
	model := &Model{ParametersBillion: params, Class: ClassSmall}
	cat := withStream(t, "Fsv2", 200)
	for _, size := range []string{"Standard_F16s_v2", "Standard_F72s_v2"} {
		req := Request{Workload: WorkloadInference, Model: model, PromptTokens: i64(64), OutputTokens: i64(512),
			ConcurrentRequests: i64(1), Prefer: []string{size}, AsOf: asOf}
		r := mustRecommendOn(t, cat, req).Recommendations[0]
		if r.VMSize != size {
			t.Fatalf("%s: rank 1 is %s", size, r.VMSize)
		}
		est := r.Estimate
		if est == nil || est.TokensPerSecond == nil || est.TimeToFirstTokenMs == nil || est.TimePerOutputTokenMs == nil || est.RequestsPerSecond == nil {
			t.Fatalf("%s: estimate %+v, want tokens per second and latencies", size, est)
		}
		stream := *r.SKU.Performance.CPU.StreamGBs
		bound := params * 1e9 * 2 / (stream * 1e9 * perfmodel.CPUStreamEfficiency) * 1000 // ms per read of the weights
		if tpot := *est.TimePerOutputTokenMs; tpot < bound-0.1 || tpot > bound*1.1 {
			t.Errorf("%s: %v ms per output token, want about the %.2f ms one read of 1 GB of weights takes at %v%% of %v GB/s STREAM",
				size, tpot, bound, perfmodel.CPUStreamEfficiency*100, stream)
		}
		if *est.TimeToFirstTokenMs <= 0 || *est.TokensPerSecond <= 0 || *est.RequestsPerSecond <= 0 {
			t.Errorf("%s: estimate %+v", size, est)
		}
		if r.PricePerHour != nil && est.CostPerMillionTokens == nil {
			t.Errorf("%s: priced at %v USD per hour with no cost per million tokens", size, *r.PricePerHour)
		}
		if !strings.Contains(strings.Join(est.Assumptions, " "), "STREAM") {
			t.Errorf("%s: assumptions %q do not name the STREAM bandwidth", size, est.Assumptions)
		}
		t.Logf("%s: %v", size, est.Assumptions)
	}

	res := mustRecommendOn(t, testCatalog(t), Request{Workload: WorkloadInference, Model: model, AsOf: asOf})
	for _, r := range res.Recommendations {
		if c := r.SKU.Performance.CPU; (c == nil || c.StreamGBs == nil) && r.Estimate != nil {
			t.Errorf("%s: no STREAM figure, estimate %+v", r.VMSize, r.Estimate)
		}
	}
}

// A small model served on CPU sizes of the embedded catalog (the F
// series' STREAM figures derived from their hosts, D64) is sized for its
// demand as a GPU service is: every ranked size runs one copy on each VM,
// at least min_replicas of them, sustains tokens_per_second by its own
// estimate and meets a stated per-token target; a target no CPU size can
// meet removes them all under the target's name, with the fastest size's
// time in the change it proposes.
func TestSmallModelSizedForItsDemandOnCPU(t *testing.T) {
	model := &Model{ParametersBillion: 0.5, Class: ClassSmall}
	req := Request{Workload: WorkloadInference, Model: model, PromptTokens: i64(200), OutputTokens: i64(100),
		ConcurrentRequests: i64(64), TokensPerSecond: f64(3000), MinReplicas: i64(2), MaxTimePerOutputTokenMs: f64(50),
		Region: "eastus", MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	res := mustRecommend(t, req)
	timed := 0
	for _, r := range res.Recommendations {
		if r.SKU.GPU != nil {
			continue
		}
		if r.Replicas != r.Nodes || r.PipelineStages != 1 || r.Nodes < 2 {
			t.Errorf("%s: %d replicas, %d pipeline stages on %d VMs; want one copy on each of at least 2 VMs", r.VMSize, r.Replicas, r.PipelineStages, r.Nodes)
		}
		est := r.Estimate
		if est == nil || est.TokensPerSecond == nil {
			continue
		}
		timed++
		if *est.TokensPerSecond+0.5 < 3000 || *est.TimePerOutputTokenMs > 50 {
			t.Errorf("%s on %d VMs: %v tokens/s at %v ms per token; asked 3000 at 50 ms", r.VMSize, r.Nodes, *est.TokensPerSecond, *est.TimePerOutputTokenMs)
		}
	}
	if timed == 0 {
		t.Fatal("no CPU size was timed: the F series need STREAM figures")
	}

	req.MaxTimePerOutputTokenMs = f64(0.01)
	res, err := testEngine(t).Recommend(req)
	var rejected []Rejection
	var nf *NoFitError
	switch {
	case errors.As(err, &nf):
		rejected = nf.Rejected
	case err != nil:
		t.Fatal(err)
	default:
		rejected = res.Rejected
		for _, r := range res.Recommendations {
			if r.Estimate != nil && r.Estimate.TimePerOutputTokenMs != nil {
				t.Errorf("a 0.01 ms per-token target: %s ranked at %v ms per token", r.VMSize, *r.Estimate.TimePerOutputTokenMs)
			}
		}
	}
	found := false
	for _, rj := range rejected {
		found = found || (rj.Constraint == "max_time_per_output_token_ms" && rj.Count > 0)
	}
	if !found {
		t.Errorf("a 0.01 ms per-token target: rejections %+v; want CPU sizes removed under max_time_per_output_token_ms", rejected)
	}
}

// Held to the default latency targets, a CPU size whose decode is slower
// than the default per-token target is warned about, as a GPU size is.
func TestSmallModelOnCPUWarnsPastDefaultTargets(t *testing.T) {
	model := &Model{ParametersBillion: 3, Class: ClassSmall}
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: model, ConcurrentRequests: i64(32),
		Prefer: []string{"Standard_F2als_v6"}, AsOf: asOf})
	r := res.Recommendations[0]
	if r.VMSize != "Standard_F2als_v6" || r.Estimate == nil || r.Estimate.TimePerOutputTokenMs == nil {
		t.Fatalf("rank 1 %s, estimate %+v", r.VMSize, r.Estimate)
	}
	if *r.Estimate.TimePerOutputTokenMs <= DefaultTimePerOutputTokenMs {
		t.Fatalf("a 3B model on two cores decodes at %v ms per token, within the default target: pick a slower case", *r.Estimate.TimePerOutputTokenMs)
	}
	if !strings.Contains(strings.Join(r.Warnings, " "), "default targets") {
		t.Errorf("%v ms per token past the %d ms default, warnings %q", *r.Estimate.TimePerOutputTokenMs, DefaultTimePerOutputTokenMs, r.Warnings)
	}
}

// min_replicas holds on every CPU size, the untimed ones too (no STREAM
// figure: Standard_FX2ms_v2, named in prefer): three copies of a small
// model run on three VMs, and with max_nodes = 2 no size serves them.
func TestCPUServiceKeepsMinReplicas(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 0.5, Class: ClassSmall}, MinReplicas: i64(3), Prefer: []string{"Standard_FX2ms_v2"}, AsOf: asOf}
	res := mustRecommend(t, req)
	if r := res.Recommendations[0]; r.VMSize != "Standard_FX2ms_v2" || r.Estimate != nil || r.Nodes != 3 || r.Replicas != 3 {
		t.Errorf("%s (estimate %+v): %d copies on %d VMs", r.VMSize, r.Estimate, r.Replicas, r.Nodes)
	}
	req.MaxNodes = i64(2)
	if nf := mustNoFit(t, req); nf.NearestMiss == nil || nf.NearestMiss.Relax != "raise max_nodes to 3." {
		t.Errorf("max_nodes = 2: nearest miss %+v", nf.NearestMiss)
	}
}

// A small model served on CPU sizes keeps no KV cache in its layout: with
// a load, the requirements' sentences on the batch and the derived
// requests say so, and never that a KV cache bounds or grows them.
func TestCPUServiceExplainsNoKVCache(t *testing.T) {
	for _, m := range []*Model{{ParametersBillion: 0.1, Class: ClassSmall}, {Name: "llama-3.2-1b", Class: ClassSmall}} {
		res := mustRecommend(t, Request{Workload: WorkloadInference, Model: m, TokensPerSecond: f64(500), AsOf: asOf})
		for _, e := range res.Requirements.Explanation {
			if strings.Contains(e, "KV cache") {
				t.Errorf("%+v on CPU sizes: %q", m, e)
			}
		}
	}
}

// A model the table names as an encoder or a speech model makes a forward
// pass per request and generates no stream of output tokens the step
// model could time: served on CPU sizes (class small) it is untimed, as
// on GPU sizes, with the same warning naming the load it does not use,
// never a text generator's output tokens and VMs sized for them.
func TestNonLanguageModelsOnCPUAreUntimedAsOnGPU(t *testing.T) {
	for _, name := range []string{"bert-base", "whisper-large-v3"} {
		for _, class := range []string{ClassSmall, ""} {
			req := Request{Workload: WorkloadInference, Model: &Model{Name: name, Class: class}, RequestsPerSecond: f64(50), Region: "eastus", AsOf: asOf}
			r := mustRecommend(t, req)
			if r.Requirements.TokensPerSecond != 0 || r.Requirements.OutputTokens != 0 {
				t.Errorf("%s class %q: a load of %v output tokens per second, %d output tokens a request", name, class, r.Requirements.TokensPerSecond, r.Requirements.OutputTokens)
			}
			for _, rec := range r.Recommendations {
				if rec.Estimate != nil && rec.Estimate.TokensPerSecond != nil {
					t.Errorf("%s class %q on %s: timed at %v output tokens per second", name, class, rec.VMSize, *rec.Estimate.TokensPerSecond)
				}
			}
			if !slices.ContainsFunc(r.Warnings, func(w Warning) bool {
				return w.Summary == "Argument Not Used By The Model" && strings.HasPrefix(w.Detail, "requests_per_second is not used")
			}) {
				t.Errorf("%s class %q: no warning that requests_per_second is not used: %v", name, class, r.Warnings)
			}
		}
	}
}

// A small model the step model does not time on CPU sizes (an encoder, a
// speech model) still runs min_replicas copies on separate VMs: BERT-base
// with min_replicas = 3 had been served from one VM.
func TestUntimedCPUServiceKeepsMinReplicas(t *testing.T) {
	for _, name := range []string{"bert-base", "whisper-large-v3"} {
		res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: name, Class: ClassSmall}, MinReplicas: i64(3), Region: "eastus", AsOf: asOf})
		if res.Requirements.MinReplicas != 3 {
			t.Errorf("%s: requirements.min_replicas %d, want 3", name, res.Requirements.MinReplicas)
		}
		for _, r := range res.Recommendations {
			if r.Nodes < 3 {
				t.Errorf("%s on %s: %d VMs for min_replicas = 3", name, r.VMSize, r.Nodes)
			}
		}
	}
}
