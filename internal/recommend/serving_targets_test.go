// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"strings"
	"testing"
)

// A stated time per output token shapes the layout: the service gets the
// copies whose share of the requests each decodes within it, where without
// the target fewer, fuller copies would serve the same requests.
func TestLatencyTargetAddsCopies(t *testing.T) {
	cat := fixture(t)
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(256),
		GPUModels: []string{"a100-pcie-80gb"}, AsOf: asOf}
	free := mustRecommendOn(t, cat, req).Recommendations[0]
	target := 0.5 * *free.Estimate.TimePerOutputTokenMs
	req.MaxTimePerOutputTokenMs = &target
	res := mustRecommendOn(t, cat, req)
	held := res.Recommendations[0]
	if held.VMSize != free.VMSize || held.Replicas <= free.Replicas || *held.Estimate.TimePerOutputTokenMs > target {
		t.Errorf("without a target %d copies at %v ms a token; with %v ms: %d copies at %v ms", free.Replicas, *free.Estimate.TimePerOutputTokenMs,
			target, held.Replicas, *held.Estimate.TimePerOutputTokenMs)
	}
	// The fewest copies that meet it: under looser targets the service takes
	// fewer copies only when those fewer miss the tighter target.
	type point struct {
		target, tpot float64
		copies       int64
	}
	var pts []point
	for _, share := range []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9} {
		tt := share * *free.Estimate.TimePerOutputTokenMs
		req.MaxTimePerOutputTokenMs = &tt
		r := mustRecommendOn(t, cat, req).Recommendations[0]
		pts = append(pts, point{tt, *r.Estimate.TimePerOutputTokenMs, r.Replicas})
	}
	for i, a := range pts {
		for _, b := range pts[i+1:] {
			if a.copies < b.copies || (a.copies > b.copies && b.tpot <= a.target) {
				t.Errorf("%v ms: %d copies; %v ms: %d copies at %v ms a token", a.target, a.copies, b.target, b.copies, b.tpot)
			}
		}
	}
}

// A target no layout meets removes every size under the constraint named
// after the input, and the nearest miss says what the size can reach.
func TestLatencyTargetNoSizeMeets(t *testing.T) {
	eng := testEngine(t)
	for _, tt := range []struct {
		name, constraint string
		req              Request
	}{
		// A 3,584-token prompt of a 70B model is tens of TFLOPs of
		// prefill: no GPU returns a first token within a millisecond.
		{"first token", "max_time_to_first_token_ms",
			Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, MaxTimeToFirstTokenMs: f64p(1), AsOf: asOf}},
		// Even one sequence per copy reads the 140 GB of weights each
		// step: no GPU decodes a token in 0.1 ms.
		{"per output token", "max_time_per_output_token_ms",
			Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, MaxTimePerOutputTokenMs: f64p(0.1), AsOf: asOf}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eng.Recommend(tt.req)
			var nf *NoFitError
			if !errors.As(err, &nf) {
				t.Fatalf("got %v, want a NoFitError", err)
			}
			if rejectedCounts(nf.Rejected)[tt.constraint] == 0 {
				t.Errorf("rejected %v, none under %s", rejectedCounts(nf.Rejected), tt.constraint)
			}
			if m := nf.NearestMiss; m == nil || m.FailedConstraint != tt.constraint || !strings.HasPrefix(m.Relax, "raise "+tt.constraint+" to ") {
				t.Errorf("nearest miss %+v", nf.NearestMiss)
			}
		})
	}
}
