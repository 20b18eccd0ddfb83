// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// azurermValues are the values azurerm 5.2 accepts for each argument the
// settings fill (terraform-provider-azurerm at
// v1.44.1-0.20260824201233-fae580791926, the version `make test-examples`
// builds, and the go-azure-sdk its go.mod pins), by target. The examples
// plan against that provider; this table keeps every value the engine can
// emit inside it.
var azurermValues = map[string]map[string][]string{
	// internal/services/compute/linux_virtual_machine_resource.go
	// (priority L299-308, eviction_policy L250-259), the scale set's
	// (L1316-1325, L1247-1256), virtual_machine.go L225-233
	// (os_disk.security_encryption_type).
	TargetVM: {
		"priority":                         {"Regular", "Spot"},
		"eviction_policy":                  {"Deallocate", "Delete"},
		"os_disk.security_encryption_type": {"VMGuestStateOnly", "DiskWithVMGuestState"},
	},
	TargetVMSS: {
		"priority":                         {"Regular", "Spot"},
		"eviction_policy":                  {"Deallocate", "Delete"},
		"os_disk.security_encryption_type": {"VMGuestStateOnly", "DiskWithVMGuestState"},
	},
	// internal/services/containers/kubernetes_cluster_node_pool_resource.go:
	// priority L335-344, eviction_policy L168-176, os_sku L303-316,
	// gpu_driver L200-205 (go-azure-sdk containerservice/2025-10-01
	// agentpools constants).
	TargetAKS: {
		"priority":        {"Regular", "Spot"},
		"eviction_policy": {"Delete", "Deallocate"},
		"os_sku":          {"AzureLinux", "AzureLinux3", "Ubuntu", "Ubuntu2204", "Ubuntu2404", "Windows2019", "Windows2022"},
		"gpu_driver":      {"Install", "None"},
	},
	// internal/services/machinelearning/machine_learning_compute_cluster_resource.go
	// L67-72.
	TargetAzureML: {"vm_priority": {"Dedicated", "LowPriority"}},
	// internal/services/batch/batch_pool_resource.go
	// (inter_node_communication), whose security_profile takes
	// security_type "confidentialVM" or "trustedLaunch" but no OS disk
	// security profile: confidential sizes are not offered for Batch.
	TargetBatch: {"inter_node_communication": {"Enabled", "Disabled"}},
}

// Every setting the engine can emit, for every size of the embedded
// catalog, on every target, with and without spot, is a value azurerm
// accepts; the spot prices -1 are what azurerm's validators take
// (max_bid_price FloatAtLeast(-1), spot_max_price -1 or at least 0.00001).
func TestEmittedValuesAreAzurerms(t *testing.T) {
	cat := catalogtest.Embedded(t)
	for _, s := range cat.SKUs() {
		for target := range azurermValues {
			if Unsupported(s, target) != "" {
				continue
			}
			for _, spot := range []bool{false, true} {
				d := For(&Layout{SKU: s, Target: target, Nodes: 4, Spans: true, IBNeeded: s.Network.RDMA, Spot: spot, PlacementGroupVMs: s.MaxJobVMs()})
				for arg, v := range emitted(&d, target) {
					if allowed := azurermValues[target][arg]; !slices.Contains(allowed, v) {
						t.Errorf("%s on %s (spot %v): %s = %q, azurerm takes %q", s.Name, target, spot, arg, v, allowed)
					}
				}
				if d.Spot != nil && d.Spot.MaxBidPrice != -1 || d.AKS != nil && d.AKS.Spot != nil && d.AKS.Spot.SpotMaxPrice != -1 {
					t.Errorf("%s on %s: spot price %+v %+v", s.Name, target, d.Spot, d.AKS)
				}
			}
		}
	}
}

// emitted is the azurerm argument values a deployment sets for a target,
// by argument (the VM-level settings are the vm and vmss resources').
func emitted(d *Deployment, target string) map[string]string {
	out := map[string]string{}
	set := func(arg, v string) {
		if v != "" {
			out[arg] = v
		}
	}
	if target == TargetVM || target == TargetVMSS {
		set("os_disk.security_encryption_type", d.OSDiskSecurityEncryptionType)
	}
	if sp := d.Spot; sp != nil {
		set("priority", sp.Priority)
		set("eviction_policy", sp.EvictionPolicy)
	}
	if a := d.AKS; a != nil {
		set("os_sku", a.OSSKU)
		set("gpu_driver", a.GPUDriver)
		if a.Spot != nil {
			set("priority", a.Spot.Priority)
			set("eviction_policy", a.Spot.EvictionPolicy)
		}
	}
	if m := d.AzureML; m != nil {
		set("vm_priority", m.VMPriority)
	}
	if b := d.Batch; b != nil {
		set("inter_node_communication", b.InterNodeCommunication)
	}
	return out
}

// Spot on AKS: the Spot pool arguments, the taint and label AKS puts on
// Spot nodes (which azurerm plans to remove unless they are set), and
// node auto-provisioning's capacity requirement; a Spot scale set gets
// priority, eviction policy and max bid price; CycleCloud runs Spot on the
// htc partition only.
func TestSpotPerTarget(t *testing.T) {
	a100 := size(t, "Standard_NC24ads_A100_v4")
	a := For(&Layout{SKU: a100, Target: TargetAKS, Nodes: 1, Spot: true}).AKS
	if a.Spot == nil || a.Spot.Priority != "Spot" || a.Spot.EvictionPolicy != "Delete" || !slices.Contains(a.NodeTaints, "kubernetes.azure.com/scalesetpriority=spot:NoSchedule") ||
		a.NodeLabels["kubernetes.azure.com/scalesetpriority"] != "spot" || a.Spot.NodeAutoProvisioning == nil || a.Spot.NodeAutoProvisioning.Key != "karpenter.sh/capacity-type" ||
		!slices.Equal(a.Spot.NodeAutoProvisioning.Values, []string{"spot"}) {
		t.Errorf("AKS spot %+v, spot %+v", a, a.Spot)
	}
	if d := For(&Layout{SKU: a100, Target: TargetVMSS, Nodes: 2, Spot: true}); d.Spot == nil || *d.Spot != (SpotSettings{"Spot", "Delete", -1}) {
		t.Errorf("scale set spot %+v", d.Spot)
	}
	if d := For(&Layout{SKU: a100, Target: TargetVMSS, Nodes: 2}); d.Spot != nil {
		t.Errorf("on demand, spot %+v", d.Spot)
	}
	hb := size(t, "Standard_HB120rs_v3")
	for _, tc := range []struct {
		l    Layout
		want bool
	}{
		{Layout{SKU: hb, Target: TargetCycleCloud, Nodes: 8, Spot: true, IndependentTasks: true}, true},
		{Layout{SKU: hb, Target: TargetCycleCloud, Nodes: 8, Spot: true, MPI: true, Spans: true, IBNeeded: true}, false},
		{Layout{SKU: a100, Target: TargetCycleCloud, Nodes: 1, Spot: true}, false},
	} {
		cc := For(&tc.l).CycleCloud
		if cc.Interruptible != tc.want || SpotOffered(&tc.l) != tc.want || (!tc.want && !strings.Contains(cc.Note, "on demand")) {
			t.Errorf("%s partition %s: interruptible %v, note %q; want %v", tc.l.SKU.Name, cc.Partition, cc.Interruptible, cc.Note, tc.want)
		}
	}
}

// InfiniBand across VMs: the RDMA network's address space for plain VMs,
// scale sets and CycleCloud; a rack-scale size's interconnect on a scale
// set only, scale_m1 on CycleCloud, and AKS says it manages the scale set.
func TestRackScaleAndRDMANotesPerTarget(t *testing.T) {
	gb := size(t, "Standard_ND128isr_NDR_GB200_v6")
	for _, target := range []string{TargetVM, TargetVMSS, TargetCycleCloud, TargetAKS, TargetAzureML} {
		d := For(&Layout{SKU: gb, Target: target, Nodes: 36, Spans: true, IBNeeded: true, PlacementGroupVMs: gb.MaxJobVMs()})
		notes := d.Note
		if d.CycleCloud != nil {
			notes += d.CycleCloud.Note
		}
		if d.AKS != nil {
			notes += d.AKS.Note
		}
		wantRDMA := target == TargetVM || target == TargetVMSS || target == TargetCycleCloud
		switch {
		case (d.Interconnect != nil) != (target == TargetVMSS):
			t.Errorf("%s: interconnect %+v", target, d.Interconnect)
		case strings.Contains(notes, "172.16.0.0/16") != wantRDMA:
			t.Errorf("%s: notes %q", target, notes)
		case target == TargetCycleCloud && !strings.Contains(notes, "scale_m1"):
			t.Errorf("cyclecloud: %q", notes)
		case target == TargetAKS && (!strings.Contains(notes, "manages the node pool's scale set") || d.AKS.OSSKU != OSSKUUbuntu2404):
			t.Errorf("aks: %q, os_sku %q", notes, d.AKS.OSSKU)
		}
	}
}
