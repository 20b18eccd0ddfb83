// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"os"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
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
		bound := params * 1e9 * 2 / (stream * 1e9 * CPUStreamEfficiency) * 1000 // ms per read of the weights
		if tpot := *est.TimePerOutputTokenMs; tpot < bound-0.1 || tpot > bound*1.1 {
			t.Errorf("%s: %v ms per output token, want about the %.2f ms one read of 1 GB of weights takes at %v%% of %v GB/s STREAM",
				size, tpot, bound, CPUStreamEfficiency*100, stream)
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
