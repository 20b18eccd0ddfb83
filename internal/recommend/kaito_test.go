// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"strings"
	"testing"
)

// Llama 3.1 8B served on AKS with KAITO: only sizes of KAITO's SKU table
// rank (none a share of a GPU, none AMD), each with the Workspace's
// instance type and count from its size and VMs, the node pool's labels as
// its label selector and KAITO's preset for the model; sizes KAITO does
// not list are counted under target.
func TestKAITOTarget(t *testing.T) {
	cat := testCatalog(t)
	k := cat.KAITO()
	res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.1-8b"}, Target: TargetKAITO, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		w := r.Deployment.AKS
		if !k.TakesInstanceType(r.VMSize) || r.SKU.GPU == nil || r.SKU.GPU.Count < 1 || r.SKU.GPU.Vendor == "amd" {
			t.Errorf("%s ranks on KAITO, which does not take it", r.VMSize)
		}
		if w == nil || w.KAITO == nil || w.KAITO.InstanceType != r.VMSize || w.KAITO.Count != r.Nodes || w.KAITO.PresetName != "llama-3.1-8b-instruct" ||
			w.KAITO.LabelSelector["hpcsku.io/vm-size"] != r.VMSize {
			t.Errorf("%s on %d VMs: AKS %+v, KAITO %+v", r.VMSize, r.Nodes, w, w.KAITO)
		}
	}
	if rej := rejectionOf(res.Rejected, "target"); rej == nil || !strings.Contains(rej.Reason, "KAITO 0.6.0") {
		t.Errorf("rejections %+v: want sizes KAITO does not list under target", res.Rejected)
	}
	// A model KAITO has no preset for runs from a template, which the
	// note says with the serving arguments to give it.
	res = mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "qwen3-8b"}, Target: TargetKAITO})
	if w := res.Recommendations[0].Deployment.AKS.KAITO; w.PresetName != "" || !strings.Contains(w.Note, "inference.template") {
		t.Errorf("qwen3-8b on KAITO: %+v", w)
	}
	// A preset serves the published checkpoint: Llama 3.3 70B in fp8 (the
	// preset's bf16 weights, 131 GiB, would not fit the layout's GPUs) runs
	// from a template, and the note names the preset and the precision
	// that would use it.
	res = mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.3-70b", Precision: PrecisionFP8}, RequestsPerSecond: f64(1), Target: TargetKAITO})
	for _, r := range res.Recommendations {
		if w := r.Deployment.AKS.KAITO; w.PresetName != "" || !strings.Contains(w.Note, "llama-3.3-70b-instruct serves the published bf16 checkpoint") || !strings.Contains(w.Note, "inference.template") {
			t.Errorf("llama-3.3-70b fp8 on %s with KAITO: %+v", r.VMSize, w)
		}
	}
}

// rejectionOf is the rejection under a constraint, nil without one.
func rejectionOf(rs []Rejection, constraint string) *Rejection {
	for i := range rs {
		if rs[i].Constraint == constraint {
			return &rs[i]
		}
	}
	return nil
}
