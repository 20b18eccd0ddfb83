// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file hands a ranked layout to the deployment settings
// (internal/deploy): the size, its VMs, whether the job spans them over
// InfiniBand, the target, and the zones of its region.

import (
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// deployment is the target-ready settings of a ranked layout.
func deployment(n *requirements, e *eval) deploy.Deployment {
	return deploy.For(&deploy.Layout{
		SKU: e.in.sku, Target: n.target, Nodes: e.nodes, Spans: e.spans, IBNeeded: e.ibNeeded,
		MPI: n.workload == WorkloadHPC, IndependentTasks: n.independentTasks(), Spot: n.spot && !e.noSpot, SpotAsked: n.spot,
		Zones: zonesOf(n, e), PlacementGroupVMs: e.in.maxJobVMs, TasksPerVM: tasksPerVM(n, e),
		Served: servedLayout(n, e), TrainGPUsPerVM: trainGPUsPerVM(n, e), KAITO: kaitoLayout(n),
	})
}

// kaitoLayout is the KAITO version and the served model's preset (target
// kaito); nil otherwise.
func kaitoLayout(n *requirements) *deploy.KAITOLayout {
	if n.target != TargetKAITO || n.kaito == nil {
		return nil
	}
	k := &deploy.KAITOLayout{Version: n.kaito.Version}
	if m := n.mi.Model; m != nil && n.workload == WorkloadInference && n.hasModel {
		if p, ok := n.kaito.Preset(m.ID); ok {
			k.Preset, k.PresetNote = p.Name, p.Note
			k.PresetCheckpoint, k.Precision = m.Precision, n.precision
			k.GPUs, k.TotalGiB, k.PerGPUGiB, k.Distributed = int64(p.GPUCount), p.TotalGPUMemoryGiB, p.PerGPUMemoryGiB, p.DistributedInference
		}
	}
	return k
}

// servedLayout is the layout a served model's estimate used, as the
// serving engines take it; nil where no language model is served on GPUs.
func servedLayout(n *requirements, e *eval) *deploy.ServedLayout {
	in := e.in
	if !n.serviceTimed() || !in.IsGPU || !e.gl.OK || e.pt.maxBatch < 1 || n.job.KVPerSeq <= 0 {
		return nil
	}
	sv := &deploy.ServedLayout{
		TP: e.gl.TP, PP: e.gl.PP, CopiesPerVM: max(1, min(e.gl.PerGroup, e.ptCopies)), Copies: e.gl.Replicas,
		SeqsPerCopy: e.pt.maxBatch, Context: n.mi.Context, Precision: n.precision,
		KVFP8: n.precision == perfmodel.PrecisionFP8, MemoryShare: n.job.Share, CC: in.CC,
		NoVLLMINT8: !in.AMD && !perfmodel.INT8W8A8(in.CC),
	}
	if g := in.sku.GPU; g != nil {
		sv.GfxTarget = g.GfxTarget
	}
	sv.MeanContext = n.req.ContextTokens == nil && (n.req.PromptTokens != nil || n.req.OutputTokens != nil)
	if m := n.mi.Model; m != nil {
		sv.Checkpoint = m.Precision
		sv.ConfigContext, sv.YaRN = m.ConfigContextTokens, m.YaRN
	}
	return sv
}

// tasksPerVM is the ranks or tasks an hpc or htc job runs at once on each
// VM of the layout (perfmodel.TasksPerVM); 0 for other jobs.
func tasksPerVM(n *requirements, e *eval) int64 {
	if n.workload != WorkloadHPC && n.workload != WorkloadHTC {
		return 0
	}
	return perfmodel.TasksPerVM(&e.in.Hardware, n.hpc.Cores, e.nodes)
}

// trainGPUsPerVM is the GPUs of each VM a training or fine-tuning job
// computes on (one for a share of a GPU); 0 for other jobs.
func trainGPUsPerVM(n *requirements, e *eval) int64 {
	if !e.in.IsGPU || (n.workload != WorkloadTraining && n.workload != WorkloadFineTuning) {
		return 0
	}
	return max(1, int64(n.train.GPUsUsed(&e.in.Hardware, e.nodes)))
}

// fillRankedLists sets the settings that name the other ranked sizes
// (deploy.FillRankedLists).
func fillRankedLists(recs []Recommendation) {
	sizes := make([]string, len(recs))
	ds := make([]*deploy.Deployment, len(recs))
	for i := range recs {
		sizes[i], ds[i] = recs[i].VMSize, &recs[i].Deployment
	}
	deploy.FillRankedLists(sizes, ds)
}

// zonesOf lists the availability zones of the recommendation's region
// where the subscription can deploy the size: the availability file's zones
// of the region minus those with a Zone restriction, sorted; empty where
// the region has no zones or the file does not list the size there; nil
// without an availability file.
func zonesOf(n *requirements, e *eval) []string {
	s := e.in.sku
	if !s.HasAvailability() {
		return nil
	}
	region := e.priceRegion
	if n.regionScoped() {
		region = e.region
	}
	ra, listed := s.AvailabilityIn(region)
	if !listed || ra.LocationRestriction() != nil {
		return []string{}
	}
	return append([]string{}, ra.Zones...)
}
