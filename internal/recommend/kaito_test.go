// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
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
		if w == nil || w.KAITO == nil || w.KAITO.InstanceType != r.VMSize || w.KAITO.LabelSelector["hpcsku.io/vm-size"] != r.VMSize {
			t.Fatalf("%s on %d VMs: AKS %+v", r.VMSize, r.Nodes, w)
		}
		// The preset serves a copy on every GPU of its VMs; a layout of
		// copies on a share of them runs from a template.
		if wantPreset := float64(r.TensorParallel) == r.GPUsPerNode; (w.KAITO.PresetName == "llama-3.1-8b-instruct") != wantPreset {
			t.Errorf("%s, copies of TP %d: KAITO %+v", r.VMSize, r.TensorParallel, w.KAITO)
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

// A KAITO 0.6.0 preset Workspace serves one copy of the model: it uses
// min(resource.count, the VMs its preset needs) VMs as one server with
// tensor-parallel-size set to each VM's GPUs. Following deployment.aks.kaito
// must give the ranked capacity: a preset's Workspaces are the copies, each
// over the VMs one copy spans on all their GPUs; a template's count is
// every VM, one pod each. Llama 3.1 8B at 30,000 tokens/s ranks layouts of
// several copies, on NC80adis H100 v5 two to a VM.
func TestKAITOWorkspacesServeEveryCopy(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.1-8b"}, TokensPerSecond: f64(30000),
		Target: TargetKAITO, Region: "eastus", MaxResults: i64(50)})
	sharedVM := false
	for _, r := range res.Recommendations {
		k := r.Deployment.AKS.KAITO
		sharedVM = sharedVM || r.Replicas > r.Nodes
		if msg := kaitoCapacity(&r, k); msg != "" {
			t.Errorf("%s, %d VMs, %d copies of TP %d, PP %d: Workspace %+v: %s", r.VMSize, r.Nodes, r.Replicas, r.TensorParallel, r.PipelineStages, k, msg)
		}
	}
	if !sharedVM {
		t.Error("no layout runs several copies on a VM: the test no longer covers them")
	}
}

// kaitoCapacity says how following a recommendation's KAITO settings misses
// its layout, "" when it gives it.
func kaitoCapacity(r *Recommendation, k *deploy.KAITODeployment) string {
	switch {
	case k.PresetName == "" && r.PipelineStages > 1:
		if k.Workspaces != 0 {
			return "no template Workspace serves a copy over several VMs"
		}
	case k.PresetName == "" && (k.Count != r.Nodes || k.Workspaces != 1 || !strings.Contains(k.Note, "inference.template")):
		return "a template Workspace should take every VM, one pod each"
	case k.PresetName != "" && (k.Count != r.PipelineStages || k.Workspaces != r.Replicas || k.Count*k.Workspaces != r.Nodes):
		return "a preset serves one copy a Workspace: its count should be a copy's VMs and the Workspaces the copies"
	case k.PresetName != "" && float64(r.TensorParallel) != r.GPUsPerNode:
		return "a preset computes on every GPU of its VMs, one copy at a time; this layout does not"
	case k.PresetName != "" && k.Workspaces > 1 && !strings.Contains(k.Note, fmt.Sprintf("%d Workspaces", k.Workspaces)):
		return "the note should say how many Workspaces to create"
	}
	return ""
}

// KAITO 0.6.0's webhook refuses a preset Workspace whose instanceType ×
// count has fewer GPUs, less GPU memory or smaller GPUs than the preset
// needs, and KAITO serves the preset on the fewest of count VMs that hold
// its GPU memory. For every preset of the catalog, each ranked layout that
// names it passes the webhook at its count and uses every VM of it; Llama
// 3.3 70B on one NC80adis H100 v5 (2 GPUs, 188 GiB; the preset needs 4 and
// 320 GiB) runs from a template.
func TestKAITOPresetsPassTheWebhook(t *testing.T) {
	cat := testCatalog(t)
	k := cat.KAITO()
	presets := 0
	for _, m := range cat.Models() {
		p, ok := k.Preset(m.ID)
		if !ok {
			continue
		}
		presets++
		res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: m.ID}, Target: TargetKAITO, MaxResults: i64(50)})
		for _, r := range res.Recommendations {
			w := r.Deployment.AKS.KAITO
			if w.PresetName == "" {
				continue
			}
			g := r.SKU.GPU
			vms := float64(w.Count)
			if vms*g.Count < float64(p.GPUCount) || vms*g.Count*g.MemoryGiB < p.TotalGPUMemoryGiB || g.MemoryGiB < p.PerGPUMemoryGiB {
				t.Errorf("%s on %s × %d (%v GPUs of %v GiB): the webhook refuses preset %s (%d GPUs, %v GiB, %v GiB a GPU)",
					m.ID, r.VMSize, w.Count, g.Count, g.MemoryGiB, p.Name, p.GPUCount, p.TotalGPUMemoryGiB, p.PerGPUMemoryGiB)
			}
			if (vms-1)*g.Count*g.MemoryGiB >= p.TotalGPUMemoryGiB {
				t.Errorf("%s on %s × %d: KAITO serves preset %s on fewer VMs than count", m.ID, r.VMSize, w.Count, p.Name)
			}
		}
	}
	if presets < 7 {
		t.Errorf("%d presets checked, want every preset of the catalog (7)", presets)
	}
	res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.3-70b"}, Target: TargetKAITO, Region: "eastus"})
	for _, r := range res.Recommendations {
		if w := r.Deployment.AKS.KAITO; r.VMSize == "Standard_NC80adis_H100_v5" && r.Nodes == 1 &&
			(w.PresetName != "" || !strings.Contains(w.Note, "needs 4 GPUs and 320 GiB of GPU memory") || !strings.Contains(w.Note, "inference.template")) {
			t.Errorf("llama-3.3-70b on one NC80adis H100 v5: %+v", w)
		}
	}
}

// A KAITO 0.6.0 template is a Deployment of identical pods: none gets its
// rank or the head's address, and KAITO serves a model over several nodes
// only from a preset. A copy over several VMs is served by the preset's
// multi-node path where it fits (DeepSeek-R1 on two ND H100 v5), and
// otherwise gets no Workspace and a note naming a multi-node launcher
// (Llama 3.1 405B in bf16 over two ND A100 or H100 VMs).
func TestKAITOMultiVMCopies(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "llama-3.1-405b"}, GPUModels: []string{"h100-sxm-80gb", "a100-sxm-80gb"}, Target: TargetKAITO})
	for _, r := range res.Recommendations {
		w := r.Deployment.AKS.KAITO
		if r.PipelineStages < 2 {
			t.Fatalf("llama-3.1-405b on %s: a copy on %d VM; the test wants copies over several", r.VMSize, r.PipelineStages)
		}
		if w.PresetName != "" || w.Workspaces != 0 || strings.Contains(w.Note, "give the Workspace inference.template") || !strings.Contains(w.Note, "multi-node launcher") {
			t.Errorf("llama-3.1-405b on %s, copies over %d VMs: %+v", r.VMSize, r.PipelineStages, w)
		}
	}
	res = mustRecommend(t, Request{Workload: WorkloadInference, AsOf: asOf, Model: &Model{Name: "deepseek-r1"}, GPUModels: []string{"h100-sxm-80gb"}, Target: TargetKAITO})
	r := res.Recommendations[0]
	if w := r.Deployment.AKS.KAITO; r.PipelineStages != 2 || w.PresetName != "deepseek-r1-0528" || kaitoCapacity(&r, w) != "" {
		t.Errorf("deepseek-r1 on %s, copies over %d VMs: %+v", r.VMSize, r.PipelineStages, w)
	}
}
