// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"testing"
)

// publishedRun is a training run whose authors report the GPU-hours it
// took.
type publishedRun struct {
	name   string
	source string
	req    Request
	size   string  // an Azure size with the run's GPU
	hours  float64 // GPU-hours reported
	// predicted marks the runs the constants were not fitted to.
	predicted bool
	// within is false for a run the model is known to miss by more than
	// 1.5×, with the reason in note.
	within bool
	note   string
}

// publishedRuns are the runs the guide's table lists. TrainingMFU (40%) is
// the middle of the Llama 3 paper's 38% to 43% on H100 for the 405B run:
// that run is the one the constants are fitted to; the others are
// predictions.
var publishedRuns = []publishedRun{
	{
		name:   "Llama 2 7B",
		source: "Touvron et al. 2023, arXiv 2307.09288, Table 2: 184,320 A100-80GB GPU-hours, 2.0T tokens",
		req:    Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 6.74}, TokensBillion: f64p(2000)},
		size:   "Standard_ND96amsr_A100_v4", hours: 184320, predicted: true, within: true,
	},
	{
		name:   "Llama 2 13B",
		source: "Touvron et al. 2023, Table 2: 368,640 A100-80GB GPU-hours, 2.0T tokens",
		req:    Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 13.02}, TokensBillion: f64p(2000)},
		size:   "Standard_ND96amsr_A100_v4", hours: 368640, predicted: true, within: true,
	},
	{
		name:   "Llama 2 70B",
		source: "Touvron et al. 2023, Table 2: 1,720,320 A100-80GB GPU-hours, 2.0T tokens",
		req:    Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 68.98}, TokensBillion: f64p(2000)},
		size:   "Standard_ND96amsr_A100_v4", hours: 1720320, predicted: true, within: true,
	},
	{
		name:   "Llama 3.1 405B",
		source: "Llama 3.1 model card (meta-llama/llama-models, models/llama3_1/MODEL_CARD.md): 30.84M H100-80GB GPU-hours; the Llama 3 paper: about 15.6T tokens, 8,192-token context",
		req:    Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-405b"}, TokensBillion: f64p(15600), ContextTokens: i64(8192)},
		size:   "Standard_ND96isr_H100_v5", hours: 30.84e6, predicted: false, within: true,
	},
	{
		name:   "Llama 3.1 70B",
		source: "Llama 3.1 model card: 7.0M H100-80GB GPU-hours, 15T+ tokens",
		req:    Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-70b"}, TokensBillion: f64p(15000), ContextTokens: i64(8192)},
		size:   "Standard_ND96isr_H100_v5", hours: 7.0e6, predicted: true, within: true,
	},
	{
		name:   "Llama 3.1 8B",
		source: "Llama 3.1 model card: 1.46M H100-80GB GPU-hours, 15T+ tokens",
		req:    Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: f64p(15000), ContextTokens: i64(8192)},
		size:   "Standard_ND96isr_H100_v5", hours: 1.46e6, predicted: true, within: false,
		note: "predicted 0.58M: the card's 1.46M implies 16% MFU, far below the 38% to 43% of the 405B run; small models keep fewer FLOPs per GPU busy at that scale, which one MFU constant does not capture",
	},
}

// The throughput model predicts the GPU-hours of published pretraining runs
// within a factor of 1.5 (all but the one noted), on the Azure size with the
// run's GPU: GPU-hours = the estimate's hours × VMs × GPUs per VM.
func TestPublishedRuns(t *testing.T) {
	eng := testEngine(t)
	inside := 0
	for _, run := range publishedRuns {
		req := run.req
		req.AsOf, req.Prefer, req.Interconnect = asOf, []string{run.size}, InterconnectInfiniBand
		res, err := eng.Recommend(req)
		if err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		r := res.Recommendations[0]
		if r.VMSize != run.size || r.Estimate == nil || r.Estimate.JobHours == nil {
			t.Fatalf("%s: %s %+v", run.name, r.VMSize, r.Estimate)
		}
		gpuHours := *r.Estimate.JobHours * float64(r.Nodes) * r.GPUsPerNode
		ratio := gpuHours / run.hours
		ok := ratio >= 1/1.5 && ratio <= 1.5
		t.Logf("%s: predicted %.0f GPU-hours, reported %.0f (%.2f×)", run.name, gpuHours, run.hours, ratio)
		if ok != run.within {
			t.Errorf("%s: predicted %.0f GPU-hours against %.0f reported (%.2f×); within 1.5× is %v, the table says %v", run.name, gpuHours, run.hours, ratio, ok, run.within)
		}
		if ok && run.predicted {
			inside++
		}
		if math.IsNaN(ratio) {
			t.Errorf("%s: no prediction", run.name)
		}
	}
	if inside < 3 {
		t.Errorf("%d predicted runs within 1.5×, want at least 3", inside)
	}
}
