// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
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

	// Node labels on AKS node pools.
	LabelVMSize      = "hpcsku.io/vm-size"
	LabelGPUModel    = "hpcsku.io/gpu-model"
	LabelAccelerator = "accelerator" // "nvidia" or "amd"

	// AKS gpu_driver settings: "Install" lets AKS install the NVIDIA driver;
	// "None" skips it (AMD GPUs need the AMD GPU operator instead).
	GPUDriverInstall = "Install"
	GPUDriverNone    = "None"

	// CycleCloud Slurm partitions (the node arrays of the CycleCloud Slurm
	// template): hpc for tightly coupled MPI, gpu for GPU sizes, htc for the
	// rest.
	PartitionHPC = "hpc"
	PartitionGPU = "gpu"
	PartitionHTC = "htc"
)

// deployment derives target-ready settings:
//   - ImageURN: the catalog's recommended image for the series ("" if none).
//   - AcceleratedNetworking: as the catalog says (false when unknown).
//   - RDMA: the job uses the size's InfiniBand (it has RDMA and the job
//     needs InfiniBand); configure the InfiniBand drivers and MPI.
//   - PlacementGroup and SinglePlacementGroup: RDMA and more than one VM
//     (InfiniBand traffic stays within one placement group).
//   - AKS (target aks): GPU pools get AKSGPUTaint and vendor/model labels;
//     NVIDIA sizes gpu_driver "Install"; AMD sizes "None" (AMD GPU operator).
//   - CycleCloud (target cyclecloud): partition hpc for the hpc workload
//     (slurm.hpc true), gpu for GPU sizes (slurm.hpc true when the job spans
//     VMs over InfiniBand), htc otherwise; machine type is the size name.
func (n *norm) deployment(e *eval) Deployment {
	s := e.in.sku
	rdma := s.Network.RDMA && e.ibNeeded
	d := Deployment{
		AcceleratedNetworking: e.in.accelNet,
		RDMA:                  rdma,
	}
	if s.Image != nil {
		d.ImageURN = s.Image.URN
	}
	multiRDMA := rdma && e.nodes > 1
	d.PlacementGroup, d.SinglePlacementGroup = multiRDMA, multiRDMA
	switch n.target {
	case TargetAKS:
		d.AKS = aksDeployment(e)
	case TargetCycleCloud:
		cc := &CycleCloudDeployment{MachineType: s.Name}
		switch {
		case n.workload == WorkloadHPC:
			cc.Partition, cc.SlurmHPC = PartitionHPC, true
		case e.in.isGPU:
			cc.Partition, cc.SlurmHPC = PartitionGPU, multiRDMA
		default:
			cc.Partition = PartitionHTC
		}
		d.CycleCloud = cc
	}
	return d
}

func aksDeployment(e *eval) *AKSDeployment {
	s := e.in.sku
	a := &AKSDeployment{NodeLabels: map[string]string{LabelVMSize: s.Name}}
	if !e.in.isGPU {
		a.NodeTaints = []string{}
		a.Note = "CPU node pool: no GPU driver or taint needed."
		if s.Network.RDMA && e.ibNeeded {
			a.Note += " InfiniBand on AKS needs the NVIDIA Network Operator (RDMA shared device plugin)."
		}
		return a
	}
	a.NodeTaints = []string{AKSGPUTaint}
	a.NodeLabels[LabelGPUModel] = s.GPU.ModelID
	a.NodeLabels[LabelAccelerator] = e.in.vendor
	switch e.in.vendor {
	case catalog.VendorAMD:
		a.GPUDriver = GPUDriverNone
		a.Note = "AKS does not install AMD GPU drivers: set gpu_driver to \"None\" and deploy the AMD GPU operator, which installs the driver and the amd.com/gpu device plugin."
	default:
		a.GPUDriver = GPUDriverInstall
		a.Note = "AKS installs the NVIDIA driver (gpu_driver = \"Install\"); deploy the NVIDIA device plugin or GPU Operator to schedule nvidia.com/gpu. Pods need a toleration for " + AKSGPUTaint + "."
		if e.in.gpuCount < 1 {
			a.Note += " Partial-GPU sizes use the GRID driver, which AKS selects."
		}
	}
	if s.Network.RDMA && e.ibNeeded {
		a.Note += " InfiniBand on AKS needs the NVIDIA Network Operator (RDMA shared device plugin)."
	}
	return a
}
