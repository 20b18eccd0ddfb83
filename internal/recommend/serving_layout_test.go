// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// copiesSentence is the estimate's account of the copies it timed.
var copiesSentence = regexp.MustCompile(`^Decode step: (\d+) (?:copy|copies) of ([\d.]+) GPUs?, at most (\d+) sequences each`)

// The layout a served recommendation reports (replicas, tensor and
// pipeline parallel sizes, VMs) is the one its estimate times: as many
// copies, each over tensor_parallel_size × pipeline_parallel_size GPUs,
// on VMs that hold them, with min_replicas copies on separate VMs.
func TestServedLayoutAgreesWithEstimate(t *testing.T) {
	eng := testEngine(t)
	named := func(name, precision string) *Model { return &Model{Name: name, Precision: precision} }
	reqs := []Request{
		{Workload: WorkloadInference, Model: named("llama-3.1-8b", "")},
		{Workload: WorkloadInference, Model: named("llama-3.1-70b", PrecisionFP8), ConcurrentRequests: i64(256), PromptTokens: i64(2000), OutputTokens: i64(500)},
		{Workload: WorkloadInference, Model: named("llama-3.1-405b", PrecisionFP8), ConcurrentRequests: i64(64)},
		{Workload: WorkloadInference, Model: named("deepseek-r1", PrecisionFP4), ConcurrentRequests: i64(512), PromptTokens: i64(800), OutputTokens: i64(3700)},
		{Workload: WorkloadInference, Model: named("mixtral-8x7b", ""), TokensPerSecond: f64p(50000)},
		{Workload: WorkloadInference, Model: named("llama-3.1-8b", ""), MinReplicas: i64(3)},
		{Workload: WorkloadInference, Model: named("llama-3.1-70b", PrecisionFP8), ConcurrentRequests: i64(512), MaxTimePerOutputTokenMs: f64p(40)},
	}
	checked := 0
	for _, req := range reqs {
		req.AsOf, req.MaxResults = asOf, i64(MaxResultsLimit)
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Model.Name, err)
		}
		minReplicas := valueOr(req.MinReplicas, 1)
		for _, r := range res.Recommendations {
			if r.Estimate == nil || r.Estimate.TokensPerSecond == nil {
				continue
			}
			m := copiesSentence.FindStringSubmatch(r.Estimate.Assumptions[0])
			if m == nil {
				t.Fatalf("%s on %s: no decode sentence in %q", req.Model.Name, r.VMSize, r.Estimate.Assumptions)
			}
			copies, _ := strconv.ParseInt(m[1], 10, 64)
			gpus, _ := strconv.ParseFloat(m[2], 64)
			split := float64(r.TensorParallel*r.PipelineStages) * math.Min(1, r.GPUsPerNode)
			if copies != r.Replicas || math.Abs(gpus-split) > 1e-9 {
				t.Errorf("%s on %s: replicas %d, tp %d, pp %d; the estimate times %d copies of %v GPUs", req.Model.Name, r.VMSize, r.Replicas, r.TensorParallel, r.PipelineStages, copies, gpus)
			}
			if float64(r.Replicas)*split > float64(r.Nodes)*r.GPUsPerNode+1e-9 || r.Nodes < minReplicas*r.PipelineStages {
				t.Errorf("%s on %s: %d copies of %v GPUs on %d VMs of %v GPUs (min_replicas %d)", req.Model.Name, r.VMSize, r.Replicas, split, r.Nodes, r.GPUsPerNode, minReplicas)
			}
			if tpot := req.MaxTimePerOutputTokenMs; tpot != nil && *r.Estimate.TimePerOutputTokenMs > *tpot {
				t.Errorf("%s on %s: %v ms a token against a %v ms target", req.Model.Name, r.VMSize, *r.Estimate.TimePerOutputTokenMs, *tpot)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("%d timed recommendations checked", checked)
	}
}
