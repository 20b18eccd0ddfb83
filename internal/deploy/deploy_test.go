// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

func size(t *testing.T, name string) *catalog.SKU {
	t.Helper()
	return catalogtest.Lookup(t, catalogtest.Embedded(t), name)
}

// InfiniBand across VMs needs one availability set for plain VMs and one
// scale set with a single placement group elsewhere; a job on one VM, or
// one that needs no InfiniBand, needs neither.
func TestInfiniBandPlacementPerTarget(t *testing.T) {
	h100 := size(t, "Standard_ND96isr_H100_v5")
	for target, want := range map[string]string{TargetVM: PlacementAvailabilitySet, TargetVMSS: PlacementScaleSet, TargetAKS: PlacementScaleSet, TargetBatch: PlacementScaleSet} {
		d := For(&Layout{SKU: h100, Target: target, Nodes: 4, Spans: true, IBNeeded: true, PlacementGroupVMs: 100})
		if !d.RDMA || d.RDMAPlacement != want || d.SinglePlacementGroup != (want == PlacementScaleSet) {
			t.Errorf("%s: %+v", target, d)
		}
	}
	for _, l := range []Layout{{SKU: h100, Target: TargetVMSS, Nodes: 1, IBNeeded: true}, {SKU: h100, Target: TargetVMSS, Nodes: 4, Spans: true}} {
		if d := For(&l); d.RDMAPlacement != "" || d.RDMA != l.IBNeeded {
			t.Errorf("%+v: %+v", l, d)
		}
	}
}

// A service whose copies each span VMs over InfiniBand, on more VMs than
// one placement group holds, is deployed in several groups of whole
// copies, each within the group's limit: 51 copies of 2 ND H100 v5 VMs are
// 2 scale sets (or node pools) of at most 50 copies, one availability set
// of 200 holds them on target vm, and a service within one group, whose
// copies each fit one VM, or on Batch (one pool, which the engine holds to
// its limit), is told nothing.
func TestServiceCopiesSplitIntoPlacementGroups(t *testing.T) {
	h100 := size(t, "Standard_ND96isr_H100_v5")
	layout := func(target string, nodes, pp int64) *Layout {
		return &Layout{SKU: h100, Target: target, Nodes: nodes, Spans: pp > 1, IBNeeded: pp > 1, PlacementGroupVMs: h100.MaxJobVMs(),
			Served: &ServedLayout{TP: 8, PP: pp, CopiesPerVM: 1, Copies: nodes / pp, SeqsPerCopy: 1, Context: 2250}}
	}
	split := "deploy 2 of them, each of whole copies, at most 50 copies (100 VMs) in each"
	for _, target := range []string{TargetVMSS, TargetAKS} {
		d := For(layout(target, 102, 2))
		note := d.Note
		if d.AKS != nil {
			note = d.AKS.Note
		}
		if !strings.Contains(note, split) {
			t.Errorf("%s, 51 copies of 2 VMs: note %q, want %q", target, note, split)
		}
	}
	for _, l := range []*Layout{layout(TargetVM, 102, 2), layout(TargetVMSS, 100, 2), layout(TargetVMSS, 102, 1), layout(TargetBatch, 102, 2)} {
		if d := For(l); strings.Contains(d.Note, "whole copies") {
			t.Errorf("%s, %d VMs of copies of %d: note %q", l.Target, l.Nodes, l.Served.PP, d.Note)
		}
	}
}

// A CycleCloud partition follows the workload and the GPU, and limits its
// scale set to one placement group only where InfiniBand crosses VMs.
func TestCycleCloudPartition(t *testing.T) {
	cases := []struct {
		layout    Layout
		partition string
		limit     int64
	}{
		{Layout{SKU: size(t, "Standard_HB120rs_v3"), MPI: true, Spans: true, IBNeeded: true, Nodes: 8}, PartitionHPC, 100},
		{Layout{SKU: size(t, "Standard_ND96isr_H100_v5"), Spans: true, IBNeeded: true, Nodes: 2}, PartitionGPU, 100},
		{Layout{SKU: size(t, "Standard_HB120rs_v3"), IndependentTasks: true, Spans: true, Nodes: 17}, PartitionHTC, 0},
	}
	for _, c := range cases {
		c.layout.Target, c.layout.PlacementGroupVMs = TargetCycleCloud, 100
		cc := For(&c.layout).CycleCloud
		if cc.Partition != c.partition || cc.MaxScaleSetSize != c.limit || cc.MaxNodes != c.layout.Nodes || cc.MachineType != c.layout.SKU.Name {
			t.Errorf("%s: %+v", c.layout.SKU.Name, cc)
		}
	}
}

// Node auto-provisioning lists the ranked sizes it can place, each pool's
// own size first and only sizes of its CPU architecture; a job whose
// InfiniBand crosses VMs gets a node pool instead.
func TestNodeAutoProvisioningLists(t *testing.T) {
	names := []string{"Standard_NC24ads_A100_v4", "Standard_ND96isr_H100_v5", "Standard_NC40ads_H100_v5"}
	ds := make([]*Deployment, 0, len(names)+1)
	for _, n := range names {
		d := For(&Layout{SKU: size(t, n), Target: TargetAKS, Nodes: 1})
		ds = append(ds, &d)
	}
	spanning := For(&Layout{SKU: size(t, "Standard_ND96isr_H100_v5"), Target: TargetAKS, Nodes: 4, Spans: true, IBNeeded: true})
	ds, names = append(ds, &spanning), append(names, "Standard_ND96isr_H100_v5")
	FillRankedLists(names, ds)
	for i, d := range ds[:3] {
		v := d.AKS.NodeAutoProvisioning.Values
		if v[0] != names[i] || len(v) != 3 || !slices.Contains(v, names[(i+1)%3]) {
			t.Errorf("%s: %v", names[i], v)
		}
	}
	if spanning.AKS.NodeAutoProvisioning != nil || spanning.AKS.GPUDriver != GPUDriverInstall {
		t.Errorf("spanning InfiniBand job: %+v", spanning.AKS)
	}
}
