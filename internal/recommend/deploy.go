// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Deployment hints.
const (
	// AKSGPUTaint is the taint put on GPU node pools so that only pods that
	// tolerate it (GPU workloads) land there. It is the taint of the AKS GPU
	// node pool documentation (`--node-taints sku=gpu:NoSchedule`); we use it
	// for NVIDIA and AMD alike rather than the NVIDIA GPU Operator's
	// nvidia.com/gpu=present:NoSchedule, so one toleration fits every GPU
	// pool the provider recommends.
	AKSGPUTaint = "sku=gpu:NoSchedule"

	// Node labels on AKS node pools. AKS itself labels GPU nodes with
	// kubernetes.azure.com/accelerator; the bare "accelerator" label of
	// older AKS releases is deprecated and not set.
	LabelVMSize   = "hpcsku.io/vm-size"
	LabelGPUModel = "hpcsku.io/gpu-model"

	// AKS gpu_driver settings (azurerm accepts only these two): "Install"
	// lets AKS install the NVIDIA driver on x86_64 nodes; "None" skips it
	// (AMD GPUs need the AMD GPU operator instead, arm64 NVIDIA sizes the
	// NVIDIA GPU Operator, D56). CPU sizes get no setting at all.
	GPUDriverInstall = "Install"
	GPUDriverNone    = "None"

	// AKSSizeLabel is the well-known label AKS node auto-provisioning
	// (Karpenter) selects VM sizes by, in a NodePool's requirements
	// ("Node autoprovisioning", AKS documentation:
	// https://learn.microsoft.com/azure/aks/node-autoprovision).
	AKSSizeLabel = "karpenter.azure.com/sku-name"

	// CycleCloud Slurm partitions (the node arrays of the CycleCloud Slurm
	// template): hpc for tightly coupled MPI, gpu for GPU sizes, htc for the
	// rest.
	PartitionHPC = "hpc"
	PartitionGPU = "gpu"
	PartitionHTC = "htc"

	// InfiniBand placement. Azure's InfiniBand connects the VMs of one
	// scale set with a single placement group or of one availability set
	// ("Set up InfiniBand", https://learn.microsoft.com/azure/virtual-machines/setup-infiniband);
	// a proximity placement group is neither required nor enough.
	PlacementScaleSet        = "scale_set"
	PlacementAvailabilitySet = "availability_set"

	// Azure Machine Learning compute cluster priorities
	// (azurerm_machine_learning_compute_cluster vm_priority).
	AzureMLDedicated   = "Dedicated"
	AzureMLLowPriority = "LowPriority"

	// Confidential VMs (catalog decision D57): ARM's
	// securityProfile.securityType and the OS disk encryption azurerm's
	// os_disk.security_encryption_type takes, with secure boot and vTPM on.
	SecurityTypeConfidentialVM   = "ConfidentialVM"
	OSDiskEncryptionVMGuestState = "DiskWithVMGuestState"

	// Batch pool inter_node_communication values.
	BatchInterNodeEnabled  = "Enabled"
	BatchInterNodeDisabled = "Disabled"
)

// deployment derives target-ready settings:
//   - ImageURN: the catalog's recommended Marketplace image for the series,
//     "" where none is documented (no image, or a build published without
//     a URN, such as the RTX PRO 6000 v6 GRID image), with where the URN
//     is documented.
//   - SecurityType and its azurerm arguments for confidential sizes.
//   - RDMA: the job uses the size's InfiniBand (it has RDMA and the job
//     needs InfiniBand); configure the InfiniBand drivers and MPI.
//   - RDMAPlacement: when InfiniBand traffic crosses VMs, the grouping it
//     needs: one availability set for plain VMs, one scale set with a
//     single placement group for every other target.
//   - The target's own object (aks, cyclecloud, azureml, batch).
//
// Fallback lists (AKS node auto-provisioning, CycleCloud machine types)
// need the whole ranking; see fillRankedLists.
func deployment(n *requirements, e *eval) Deployment {
	s := e.in.sku
	rdma := s.Network.RDMA && e.ibNeeded
	d := Deployment{
		AcceleratedNetworking: e.in.accelNet,
		RDMA:                  rdma,
		CPUArchitecture:       s.Arch,
		Zones:                 zonesOf(n, e),
	}
	if imageFits(s) {
		d.ImageURN, d.ImageSource = s.Image.URN, s.Image.URNSource
	}
	if s.Confidential {
		d.SecurityType, d.OSDiskSecurityEncryptionType = SecurityTypeConfidentialVM, OSDiskEncryptionVMGuestState
		d.VTPMEnabled, d.SecureBootEnabled = true, true
	}
	if rdma && e.spans {
		d.RDMAPlacement = PlacementScaleSet
		if n.target == TargetVM {
			d.RDMAPlacement = PlacementAvailabilitySet
		}
		d.SinglePlacementGroup = d.RDMAPlacement == PlacementScaleSet && (s.Placement == nil || s.Placement.SinglePlacementGroup)
		d.Interconnect = interconnectDeployment(s.Placement, e.nodes)
	}
	switch n.target {
	case TargetAKS:
		d.AKS = aksDeployment(e, rdma)
	case TargetCycleCloud:
		cc := &CycleCloudDeployment{MachineType: s.Name, OSImage: d.ImageURN, MaxNodes: e.nodes}
		switch {
		case n.workload == WorkloadHPC:
			cc.Partition = PartitionHPC
		case e.in.IsGPU:
			cc.Partition = PartitionGPU
		default:
			cc.Partition = PartitionHTC
		}
		if d.SinglePlacementGroup {
			cc.MaxScaleSetSize = MaxNodesRDMA
		}
		d.CycleCloud = cc
	case TargetAzureML:
		ml := &AzureMLDeployment{VMSize: s.Name, VMPriority: AzureMLDedicated, MaxNodeCount: e.nodes}
		if n.spot {
			ml.VMPriority = AzureMLLowPriority
		}
		d.AzureML = ml
	case TargetBatch:
		d.Batch = batchDeployment(n, e, d.ImageURN)
	}
	return d
}

// imageFits reports whether the size's catalog image can be deployed as
// given: it has a URN, and boots as a confidential VM where the size is
// confidential (D57).
func imageFits(s *catalog.SKU) bool {
	return s.Image != nil && s.Image.URN != "" && (!s.Confidential || s.Image.ConfidentialVM)
}

// batchDeployment: the image reference split from the URN (nil without
// one; the catalog loader admits only publisher:offer:sku:version) and the
// node agent Batch's sources name for it ("" otherwise); inter-node
// communication when one job spans VMs, never for independent tasks (htc); the VMs as dedicated or Spot nodes.
func batchDeployment(n *requirements, e *eval, imageURN string) *BatchDeployment {
	s := e.in.sku
	b := &BatchDeployment{VMSize: s.Name, InterNodeCommunication: BatchInterNodeDisabled}
	mpi := e.spans && !n.independentTasks()
	if mpi {
		b.InterNodeCommunication = BatchInterNodeEnabled
	}
	if n.spot {
		b.TargetLowPriorityNodes = e.nodes
	} else {
		b.TargetDedicatedNodes = e.nodes
	}
	var notes []string
	if imageURN == "" {
		notes = append(notes, "No Marketplace image is documented for this size: give the pool your own image reference and its node_agent_sku_id.")
	} else {
		p := strings.Split(imageURN, ":")
		b.Image = &ImageReference{Publisher: p[0], Offer: p[1], SKU: p[2], Version: p[3]}
		b.NodeAgentSKUID = s.Image.BatchNodeAgentSKUID
		if b.NodeAgentSKUID == "" {
			notes = append(notes, "Batch's sources name no node agent for this image: check it with az batch pool supported-images list and give its node_agent_sku_id, or use your own image.")
		}
	}
	if n.spot {
		notes = append(notes, "Batch runs Spot VMs as target_low_priority_nodes (its low-priority VMs retired in 2025), and only in pools of a Batch account whose pool allocation mode is UserSubscription.")
	}
	if mpi {
		notes = append(notes, fmt.Sprintf("Inter-node communication keeps the pool's VMs on one network for MPI; such a pool holds at most %d nodes in Batch-service accounts and %d in user-subscription accounts (pool allocation mode UserSubscription).",
			BatchMPINodesBatchService, BatchMPINodesUserSubscription))
	}
	b.Note = strings.Join(notes, " ")
	return b
}

// interconnectDeployment: the interconnect settings of a size allocated by
// rack, for a job on nodes VMs (whole racks, D55); nil for other sizes.
func interconnectDeployment(p *catalog.Placement, nodes int64) *InterconnectDeployment {
	if p == nil || p.RackVMs < 1 {
		return nil
	}
	racks := (nodes + p.RackVMs - 1) / p.RackVMs
	return &InterconnectDeployment{
		HighSpeedInterconnectPlacement: p.HighSpeedInterconnectPlacement, APIVersion: p.APIVersion,
		RackVMs: p.RackVMs, Racks: racks, InterconnectBlockCapacity: racks * p.RackVMs, Sources: p.Sources,
		Note: fmt.Sprintf("Azure allocates these VMs by racks of %d and rejects a scale set with a single placement group: create an interconnect group and an interconnect block (Microsoft.Compute/interconnectBlocks, sku capacity %d), and give the scale set (Microsoft.Compute/virtualMachineScaleSets@%s) single_placement_group = false, highSpeedInterconnectPlacement = \"%s\", virtualMachineProfile.interconnectBlockProfile and networkProfile.interconnectGroupProfile. azurerm cannot set these properties: set them with azapi (an azapi_update_resource on the scale set, or the whole scale set as an azapi_resource).",
			p.RackVMs, racks*p.RackVMs, p.APIVersion, p.HighSpeedInterconnectPlacement),
	}
}

// AKS notes on GPU drivers and InfiniBand (D56).
const (
	aksNoteAMD      = "AKS does not install AMD GPU drivers: set gpu_driver to \"None\" and deploy the AMD GPU operator, which installs the driver and the amd.com/gpu device plugin."
	aksNoteArm64GPU = "AKS installs no GPU driver on arm64 nodes (gpu_driver = \"Install\" does nothing there): set gpu_driver to \"None\" and deploy the NVIDIA GPU Operator with its driver (and, for NVLink across VMs, its IMEX channels through the DRA driver's ComputeDomains); pods need a toleration for " + AKSGPUTaint + "."
	aksNoteIB       = " InfiniBand on AKS needs the NVIDIA Network Operator (RDMA shared device plugin) and the subscription feature Microsoft.ContainerService/AKSInfinibandSupport registered (az feature register --namespace Microsoft.ContainerService --name AKSInfinibandSupport), which keeps a pool's nodes on one InfiniBand network."
)

// aksDeployment: rdma is whether the job uses the size's InfiniBand.
func aksDeployment(e *eval, rdma bool) *AKSDeployment {
	s := e.in.sku
	a := &AKSDeployment{NodeLabels: map[string]string{LabelVMSize: s.Name}, NodeTaints: []string{}}
	switch {
	case !e.in.IsGPU:
		a.Note = "CPU node pool: no GPU driver or taint needed (leave gpu_driver unset)."
	case e.in.vendor == catalog.VendorAMD:
		a.GPUDriver = GPUDriverNone
		a.Note = aksNoteAMD
	case s.Arch == "arm64":
		a.GPUDriver = GPUDriverNone
		a.Note = aksNoteArm64GPU
	default:
		a.GPUDriver = GPUDriverInstall
		a.Note = "AKS installs the NVIDIA driver (gpu_driver = \"Install\"); deploy the NVIDIA device plugin or GPU Operator to schedule nvidia.com/gpu. Pods need a toleration for " + AKSGPUTaint + "."
		if e.in.GPUCount < 1 {
			a.Note += " Partial-GPU sizes use the GRID driver, which AKS selects."
		}
	}
	if e.in.IsGPU {
		a.NodeTaints = []string{AKSGPUTaint}
		a.NodeLabels[LabelGPUModel] = s.GPU.ModelID
	}
	if rdma {
		a.Note += aksNoteIB
	}
	if why := napCannot(e, rdma); why != "" {
		a.Note += " Node auto-provisioning cannot place this job: " + why + "; use a node pool."
	} else {
		a.nap = true
	}
	return a
}

// napCannot says why AKS node auto-provisioning cannot place the job on
// the size, "" when it can (D56).
func napCannot(e *eval, rdma bool) string {
	s := e.in.sku
	switch {
	case rdma && e.spans:
		return "its InfiniBand crosses VMs, which must be in one scale set"
	case e.in.vendor == catalog.VendorAMD:
		return "its default node class leaves out AMD GPU sizes"
	case s.QuotaVCPUs != nil:
		return "its default node class leaves out constrained-core sizes"
	}
	return ""
}

// fillRankedLists sets the lists that name other ranked sizes: an AKS node
// auto-provisioning requirement where it can place the job (the ranked sizes
// of the same CPU architecture it can place: a NodePool's nodes share one
// image architecture) and
// CycleCloud's fallback machine types (the ranked sizes of the same CPU
// architecture and the same image, which can replace the size in a node
// array without changing its image). Each list starts with the size itself.
func fillRankedLists(recs []Recommendation) {
	for i := range recs {
		d := &recs[i].Deployment
		if d.AKS != nil && d.AKS.nap {
			vals := []string{recs[i].VMSize}
			for j := range recs {
				if o := recs[j].Deployment; j != i && o.CPUArchitecture == d.CPUArchitecture && o.AKS.nap {
					vals = append(vals, recs[j].VMSize)
				}
			}
			d.AKS.NodeAutoProvisioning = &NodeRequirement{Key: AKSSizeLabel, Operator: "In", Values: vals}
		}
		if cc := d.CycleCloud; cc != nil {
			cc.FallbackMachineTypes = []string{recs[i].VMSize}
			if cc.OSImage == "" {
				continue
			}
			for j := range recs {
				o := recs[j].Deployment
				if j != i && o.CPUArchitecture == d.CPUArchitecture && o.CycleCloud.OSImage == cc.OSImage {
					cc.FallbackMachineTypes = append(cc.FallbackMachineTypes, recs[j].VMSize)
				}
			}
		}
	}
}
