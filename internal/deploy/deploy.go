// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

import (
	"fmt"
	"math"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Targets: where a size will run, each with its own settings.
// ScaleSetVMs is the most VMs of one scale set (of several placement
// groups, which a rack-scale series' scale set is): 1,000
// (MicrosoftDocs/azure-compute-docs, "Virtual Machine Scale Sets and
// placement groups").
const ScaleSetVMs = 1000

const (
	TargetVM         = "vm"
	TargetVMSS       = "vmss"
	TargetAKS        = "aks"
	TargetCycleCloud = "cyclecloud"
	TargetAzureML    = "azureml"
	TargetBatch      = "batch"
	// TargetKAITO is AKS with KAITO (the AI toolchain operator add-on):
	// a node pool's settings and a Workspace's resource and preset.
	TargetKAITO = "kaito"
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

	// Spot VMs, as azurerm takes them (terraform-provider-azurerm 5.2:
	// azurerm_linux_virtual_machine and its scale sets' priority,
	// eviction_policy and max_bid_price; the AKS node pool's priority,
	// eviction_policy and spot_max_price; -1 never evicts for price, the
	// on-demand price capping it). AKS labels and taints a Spot pool's
	// nodes itself, but azurerm reads the taint back and plans its removal
	// unless the configuration sets it, so both are emitted, as azurerm's
	// documentation asks ("Add a spot node pool", AKS documentation).
	PrioritySpot         = "Spot"
	EvictionPolicyDelete = "Delete"
	SpotMaxPrice         = -1.0
	LabelSpotPriority    = "kubernetes.azure.com/scalesetpriority"
	SpotPriorityValue    = "spot"
	AKSSpotTaint         = LabelSpotPriority + "=spot:NoSchedule"
	// CapacityTypeLabel is the node auto-provisioning (Karpenter)
	// requirement key of Spot and on-demand capacity.
	CapacityTypeLabel = "karpenter.sh/capacity-type"

	// OSSKUUbuntu2404 is the AKS node pool os_sku of confidential GPU sizes
	// (az-cgpu-onboarding's AKS guide: Ubuntu 24.04 is the only supported
	// OS) and of the rack-scale GB sizes (whose GPU stack needs the 6.8
	// kernel's support, D56).
	OSSKUUbuntu2404 = "Ubuntu2404"

	// RDMANote: the RDMA network's address space, which the VNet must not
	// overlap ("High performance computing VM sizes", RDMA-capable
	// instances).
	RDMANote = "The RDMA network reserves 172.16.0.0/16: the virtual network's address space must not overlap it."

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

	// BatchMPINodesBatchService and BatchMPINodesUserSubscription are the
	// most nodes of a Batch pool with inter-node communication enabled, in
	// an account whose pool allocation mode is BatchService and
	// UserSubscription ("Batch service quotas and limits", pool size
	// limits).
	BatchMPINodesBatchService     = 100
	BatchMPINodesUserSubscription = 80

	// AvailabilitySetVMs is the most VMs of one availability set, where
	// target vm places the on-demand VMs of one InfiniBand job
	// (MicrosoftDocs/azure-docs:includes/azure-virtual-machines-limits-azure-resource-manager.md@c9326a42ed199307f237e08d87f9c89bc005d59c,
	// "Virtual machines per availability set": 200).
	AvailabilitySetVMs = 200

	// SpotScaleSetNote: Azure refuses Spot VMs in an availability set
	// (error AzureSpotVMNotSupportedInAvailabilitySet, "Error messages for
	// Azure Spot Virtual Machines and scale sets",
	// https://learn.microsoft.com/azure/virtual-machines/error-codes-spot),
	// so target vm's Spot VMs of one InfiniBand job go in a scale set with
	// a single placement group, which InfiniBand joins as it does an
	// availability set.
	SpotScaleSetNote = "Azure refuses Spot VMs in an availability set (AzureSpotVMNotSupportedInAvailabilitySet): deploy these VMs as one scale set with single_placement_group = true and the Spot settings (target = \"vmss\"), at most the size's InfiniBand span, which InfiniBand joins as it joins an availability set."

	// BatchTaskSlotsMax is the most task slots of a Batch node: the
	// smaller of BatchTaskSlotsPerVCPU × the size's vCPUs and this
	// (taskSlotsPerNode, "The default value is 1. The maximum value is the
	// smaller of 4 times the number of cores of the vmSize of the pool or
	// 256", https://learn.microsoft.com/dotnet/api/azure.resourcemanager.batch.batchaccountpooldata.taskslotspernode).
	BatchTaskSlotsMax     = 256
	BatchTaskSlotsPerVCPU = 4

	// BatchDefaultDedicatedCores is the top of the default dedicated core
	// quota of a Batch account in BatchService mode (0 to 900, reduced to
	// 0 for new accounts in some regions; "Batch service quotas and
	// limits").
	BatchDefaultDedicatedCores = 900
)

// Layout is what the settings are built from: a ranked size, the job's
// layout on it and the request's target.
type Layout struct {
	SKU    *catalog.SKU
	Target string // one of the Target constants
	Nodes  int64  // the VMs of the layout
	// Spans: one job (one copy of the model, for inference) spans several
	// VMs; IBNeeded: the job needs InfiniBand.
	Spans, IBNeeded bool
	// MPI: the workload is tightly coupled MPI (hpc); IndependentTasks:
	// its VMs never talk to each other (htc).
	MPI, IndependentTasks bool
	// Spot: the VMs are Spot VMs; SpotAsked: the request asked for spot,
	// whether or not the size sells Spot VMs (the span of an InfiniBand
	// job on target vm is then a scale set's: AvailabilitySetPlaces).
	Spot, SpotAsked bool
	// Zones are the zones of the layout's region where the subscription
	// may deploy the size (nil without an availability file).
	Zones []string
	// PlacementGroupVMs is the most VMs of one InfiniBand placement group,
	// which a CycleCloud node array's scale set is limited to.
	PlacementGroupVMs int64
	// TasksPerVM is the ranks or tasks an hpc or htc job runs at once on
	// each VM (perfmodel.TasksPerVM); 0 for other jobs.
	TasksPerVM int64
	// Served is a served model's layout as its estimate used it (nil for
	// other jobs); TrainGPUsPerVM the GPUs of each VM a training or
	// fine-tuning job computes on (0 for other jobs).
	Served         *ServedLayout
	TrainGPUsPerVM int64
	// KAITO is the KAITO version and the preset of the served model
	// (target kaito); nil otherwise.
	KAITO *KAITOLayout
}

// KAITOLayout is what a KAITO Workspace takes beyond the layout: the KAITO
// version the AKS add-on ships, and the preset of the served model ("" for
// a model without one, and for jobs other than serving). A preset serves
// the model's published checkpoint: for a layout sized for other weights
// (PresetCheckpoint, the checkpoint's precision, differs from Precision,
// the layout's) the preset is named in the note, not used.
//
// GPUs, TotalGiB and PerGPUGiB are what the preset's inference needs
// (KAITO's webhook refuses a Workspace whose instanceType × count has
// fewer GPUs, less GPU memory or smaller GPUs); Distributed whether it
// serves a copy over several VMs.
type KAITOLayout struct {
	Version, Preset, PresetNote string
	PresetCheckpoint, Precision string
	GPUs                        int64
	TotalGiB, PerGPUGiB         float64
	Distributed                 bool
}

// kaitoDeployment is the Workspace's resource and preset: the size as its
// instanceType, the node pool's labels as its labelSelector, and the
// preset where KAITO has one for the model and it serves the layout's
// copy. KAITO 0.6.0 serves a preset Workspace as one copy (it takes
// min(resource.count, the VMs the preset needs) VMs as one server, with
// tensor-parallel-size set to each VM's GPUs: pkg/workspace/inference
// preset_inferences.go and pkg/model/interface.go at v0.6.0), so a preset's
// count is the VMs of one copy and its Workspaces the copies; a template
// is a Deployment of count identical pods, one a VM.
func kaitoDeployment(l *Layout, aks *AKSDeployment) *KAITODeployment {
	k := &KAITODeployment{InstanceType: l.SKU.Name, Count: l.Nodes, Workspaces: 1, LabelSelector: aks.NodeLabels}
	v := "KAITO"
	if l.KAITO != nil {
		v = "KAITO " + l.KAITO.Version
	}
	c := copyOf(l)
	refusal := ""
	if l.KAITO != nil && l.KAITO.Preset != "" {
		refusal = presetRefusal(l, v, c)
	}
	switch {
	case l.KAITO != nil && l.KAITO.Preset != "" && refusal == "":
		k.PresetName, k.Count, k.Workspaces = l.KAITO.Preset, c.vms, c.copies
		k.Note = presetNote(v, l.KAITO, k)
	case l.Served != nil && c.vms > 1:
		k.Workspaces = 0
		k.Note = multiVMAdvice(v, refusal, c)
	case refusal != "":
		k.Note = refusal + ": " + templateAdvice(c, k.Count)
	case l.Served != nil:
		k.Note = v + " has no preset for this model: " + templateAdvice(c, k.Count)
	default:
		k.Note = v + " presets serve models: run this job on the node pool, or as a Workspace's tuning or inference.template."
	}
	return k
}

// kaitoCopy is how a served layout's copies sit on its VMs: the VMs one
// copy spans, the GPUs of each VM it computes on, the GPUs of a VM and
// the copies of the layout.
type kaitoCopy struct{ vms, tp, gpus, copies int64 }

// copyOf is the layout's copies; without a served layout, one copy on
// every GPU of each VM.
func copyOf(l *Layout) kaitoCopy {
	gpus := int64(1)
	if l.SKU.GPU != nil && l.SKU.GPU.Count >= 1 {
		gpus = int64(l.SKU.GPU.Count)
	}
	c := kaitoCopy{vms: 1, tp: gpus, gpus: gpus, copies: l.Nodes}
	if sv := l.Served; sv != nil && sv.TP >= 1 {
		c.vms, c.tp, c.copies = max(1, sv.PP), sv.TP, max(1, sv.Copies)
	}
	return c
}

// presetRefusal says why the model's preset does not serve the layout's
// copy, "" when it does: the layout is sized for other weights than the
// preset's checkpoint; the size's GPUs are smaller than the preset needs;
// the preset takes another number of VMs than a copy spans (KAITO serves
// it on the fewest VMs that hold its GPU memory, and its webhook refuses
// fewer GPUs or less memory than it needs); or the layout runs copies on a
// share of each VM's GPUs where the preset takes them all.
func presetRefusal(l *Layout, v string, c kaitoCopy) string {
	p := l.KAITO
	gpuGiB := 0.0
	if l.SKU.GPU != nil {
		gpuGiB = l.SKU.GPU.MemoryGiB
	}
	memVMs, needVMs := presetVMs(p, c.gpus, gpuGiB)
	switch {
	case p.PresetCheckpoint != p.Precision:
		return v + "'s preset " + p.Preset + " serves the published " + p.PresetCheckpoint + " checkpoint, not the " + p.Precision +
			" weights this layout is sized for (ask for model.precision = \"" + p.PresetCheckpoint + "\" to use the preset)"
	case gpuGiB < p.PerGPUGiB:
		return fmt.Sprintf("%s's preset %s needs %s GiB of memory on each GPU (its webhook refuses smaller GPUs), where this size's have %s GiB",
			v, p.Preset, catalog.TrimFloat(p.PerGPUGiB), catalog.TrimFloat(gpuGiB))
	case memVMs > 1 && !p.Distributed:
		return fmt.Sprintf("%s's preset %s serves a copy on one VM only, and its %s GiB of GPU memory need %s of this size",
			v, p.Preset, catalog.TrimFloat(p.TotalGiB), catalog.Plural(memVMs, "VM", "VMs"))
	case needVMs != c.vms || memVMs != c.vms:
		return fmt.Sprintf("%s's preset %s needs %s and %s GiB of GPU memory (its webhook refuses fewer), %s of this size, where this layout serves a copy on %s",
			v, p.Preset, catalog.Plural(p.GPUs, "GPU", "GPUs"), catalog.TrimFloat(p.TotalGiB), catalog.Plural(needVMs, "VM", "VMs"), catalog.Plural(c.vms, "VM", "VMs"))
	case c.tp != c.gpus:
		return fmt.Sprintf("%s's preset %s serves one copy on all %s of a VM (tensor-parallel-size %d), where this layout's copies take %s each (tensor-parallel-size %d)",
			v, p.Preset, catalog.Plural(c.gpus, "GPU", "GPUs"), c.gpus, catalog.Plural(c.tp, "GPU", "GPUs"), c.tp)
	}
	return ""
}

// presetVMs is the VMs of a size with gpus GPUs of gpuGiB each that a
// preset Workspace takes: memVMs the fewest that hold the preset's GPU
// memory (KAITO serves it on no more), needVMs the fewest its webhook
// takes (those and enough for its GPU count).
func presetVMs(p *KAITOLayout, gpus int64, gpuGiB float64) (memVMs, needVMs int64) {
	memVMs = 1
	if vm := float64(gpus) * gpuGiB; vm > 0 {
		memVMs = max(1, int64(math.Ceil(p.TotalGiB/vm)))
	}
	return memVMs, max(memVMs, (p.GPUs+gpus-1)/gpus)
}

// presetNote says which preset serves the model, with what it needs, and
// the Workspaces a layout of several copies takes.
func presetNote(v string, p *KAITOLayout, k *KAITODeployment) string {
	note := v + " serves the model as preset " + k.PresetName
	if p.PresetNote != "" {
		note += " (" + p.PresetNote + ")"
	}
	note += "."
	if k.Workspaces > 1 {
		note += fmt.Sprintf(" A preset Workspace serves one copy, on at most resource.count VMs: create %d Workspaces with these settings, one for each copy.", k.Workspaces)
	}
	return note
}

// multiVMAdvice is what serves a copy over several VMs that no preset
// serves: KAITO serves a model over several nodes only from a preset
// (website/docs/multi-node-inference.md at v0.6.0), and a template is a
// Deployment of identical pods, none told its rank or the head's address,
// so no Workspace does.
func multiVMAdvice(v, refusal string, c kaitoCopy) string {
	if refusal == "" {
		refusal = v + " has no preset for this model"
	}
	return fmt.Sprintf("%s, and a copy of this layout spans %s, which %s serves only from a preset: a template Workspace is a Deployment of identical pods, "+
		"none given its rank or the head's address (the ${NODE_RANK} and ${HEAD_ADDRESS} of deployment.serving.vllm_args), so no Workspace serves it. "+
		"Run each copy on the node pool with a multi-node launcher outside KAITO that starts one pod on each of its VMs with its rank and the head's address "+
		"(a LeaderWorkerSet of size %d, say), or ask for a size whose VM holds a copy.",
		refusal, catalog.Plural(c.vms, "VM", "VMs"), v, c.vms)
}

// templateAdvice is how a Workspace runs the layout from a template: a
// pod on each of the count VMs, taking all its GPUs and running vLLM with
// the layout's arguments.
func templateAdvice(c kaitoCopy, count int64) string {
	return fmt.Sprintf("give the Workspace inference.template, a pod that requests the %s of a VM and runs vLLM with deployment.serving.vllm_args (resource.count %d: one pod on each VM).",
		catalog.Plural(c.gpus, "GPU", "GPUs"), count)
}

// For derives the target-ready settings of a layout:
//   - ImageURN: the catalog's recommended Marketplace image for the series,
//     "" where none is documented (no image, or a build published without
//     a URN, such as the RTX PRO 6000 v6 GRID image), with where the URN
//     is documented.
//   - SecurityType and its azurerm arguments for confidential sizes.
//   - RDMA: the job uses the size's InfiniBand (it has RDMA and the job
//     needs InfiniBand); configure the InfiniBand drivers and MPI.
//   - RDMAPlacement: when InfiniBand traffic crosses VMs, the grouping it
//     needs: one availability set for on-demand plain VMs
//     (AvailabilitySetPlaces), one scale set with a single placement group
//     for Spot VMs (which Azure refuses in an availability set) and every
//     other target.
//   - The target's own object (aks, cyclecloud, azureml, batch).
//
// Fallback lists (AKS node auto-provisioning, CycleCloud machine types)
// need the whole ranking; see FillRankedLists.
func For(l *Layout) Deployment {
	s := l.SKU
	rdma := s.Network.RDMA && l.IBNeeded
	d := Deployment{
		AcceleratedNetworking: s.Network.AcceleratedNetworking != nil && *s.Network.AcceleratedNetworking,
		RDMA:                  rdma,
		CPUArchitecture:       s.Arch,
		Zones:                 l.Zones,
	}
	if ImageFits(s) {
		d.ImageURN, d.ImageSource = s.Image.URN, s.Image.URNLocator
	}
	if s.Confidential {
		d.SecurityType, d.OSDiskSecurityEncryptionType = SecurityTypeConfidentialVM, OSDiskEncryptionVMGuestState
		d.VTPMEnabled, d.SecureBootEnabled = true, true
	}
	if rdma && l.Spans {
		// A rack-allocated size (a placement record: ND GB200 and GB300
		// v6) goes in a scale set's interconnect block on any target.
		d.RDMAPlacement = PlacementScaleSet
		if AvailabilitySetPlaces(l.Target, l.Spot || l.SpotAsked, s) {
			d.RDMAPlacement = PlacementAvailabilitySet
		}
		d.SinglePlacementGroup = d.RDMAPlacement == PlacementScaleSet && (s.Placement == nil || s.Placement.SinglePlacementGroup)
	}
	d.Serving, d.Launch = servingFor(l), launchFor(l)
	targetDeployment(l, &d, rdma)
	if note := copyGroupsNote(l, &d); note != "" {
		if d.AKS != nil {
			d.AKS.Note += " " + note
		} else {
			d.Note = strings.TrimSpace(d.Note + " " + note)
		}
	}
	return d
}

// AvailabilitySetPlaces reports whether the target puts the VMs of one
// InfiniBand job of the size in an availability set (at most
// AvailabilitySetVMs): target vm's on-demand VMs of a size Azure does not
// allocate by racks. Spot VMs (spot asked for) go in a scale set with a
// single placement group instead, as Azure refuses Spot VMs in an
// availability set (SpotScaleSetNote), and so do the rack-allocated ND
// GB200 and GB300 v6.
func AvailabilitySetPlaces(target string, spot bool, s *catalog.SKU) bool {
	return target == TargetVM && !spot && s.Placement == nil
}

// copyGroupsNote says how a served model whose copies each span VMs over
// InfiniBand is deployed when the service holds more VMs than one group
// of its InfiniBand placement does (a scale set with a single placement
// group, a node pool, or target vm's availability set): in several
// groups of whole copies, as InfiniBand joins the VMs of a copy and not
// the copies; "" otherwise. A rack-scale size's interconnect block
// (a placement record) and CycleCloud, whose node array adds scale sets of
// max_scale_set_size itself, need no split; nor does Batch, whose service
// is one pool the engine holds within the pool limit the pool's note
// gives (BatchMPINodesBatchService, BatchMPINodesUserSubscription).
func copyGroupsNote(l *Layout, d *Deployment) string {
	sv := l.Served
	if sv == nil || sv.PP < 2 || d.RDMAPlacement == "" || l.SKU.Placement != nil || l.Target == TargetCycleCloud || l.Target == TargetBatch {
		return ""
	}
	limit, group := l.PlacementGroupVMs, "scale set with a single placement group"
	switch {
	case d.RDMAPlacement == PlacementAvailabilitySet:
		limit, group = AvailabilitySetVMs, "availability set"
	case l.Target == TargetAKS || l.Target == TargetKAITO:
		group = "node pool (one scale set with a single placement group)"
	}
	perGroup := limit / sv.PP
	if limit <= 0 || l.Nodes <= limit || perGroup < 1 {
		return ""
	}
	copies := l.Nodes / sv.PP
	groups := (copies + perGroup - 1) / perGroup
	return fmt.Sprintf("The service's %s VMs are %s copies of %d VMs each, more than one %s holds (%s VMs): deploy %d of them, each of whole copies, at most %s copies (%s VMs) in each; InfiniBand joins the VMs of a copy, not the copies.",
		catalog.GroupDigits(l.Nodes), catalog.GroupDigits(copies), sv.PP, group, catalog.GroupDigits(limit), groups, catalog.GroupDigits(perGroup), catalog.GroupDigits(perGroup*sv.PP))
}

// targetDeployment fills the settings of the request's target: the VM and
// scale set arguments (spot, the interconnect of a rack-scale size on a
// scale set, notes) or the target's own object.
func targetDeployment(l *Layout, d *Deployment, rdma bool) {
	s := l.SKU
	switch l.Target {
	case TargetVM, TargetVMSS:
		if l.Spot {
			d.Spot = &SpotSettings{Priority: PrioritySpot, EvictionPolicy: EvictionPolicyDelete, MaxBidPrice: SpotMaxPrice}
		}
		if rdma && l.Spans {
			d.Note = RDMANote
			switch {
			case l.Target == TargetVMSS:
				d.Interconnect = interconnectDeployment(s.Placement, l.Nodes)
			case s.Placement != nil:
				d.Note += " Azure places these VMs by whole racks in a scale set (an interconnect block): deploy them as a scale set (target = \"vmss\")."
			case d.RDMAPlacement == PlacementScaleSet:
				d.Note += " " + SpotScaleSetNote
			}
		}
	case TargetAKS:
		d.AKS = aksDeployment(l, rdma)
	case TargetKAITO:
		d.AKS = aksDeployment(l, rdma)
		d.AKS.KAITO = kaitoDeployment(l, d.AKS)
	case TargetCycleCloud:
		d.CycleCloud = cycleCloudDeployment(l, d.ImageURN, d.SinglePlacementGroup, rdma)
	case TargetAzureML:
		ml := &AzureMLDeployment{VMSize: s.Name, VMPriority: AzureMLDedicated, MaxNodeCount: l.Nodes}
		if l.Spot {
			ml.VMPriority = AzureMLLowPriority
		}
		d.AzureML = ml
	case TargetBatch:
		d.Batch = batchDeployment(l, d.ImageURN)
	}
}

// SpotOffered reports whether the target runs the layout on Spot VMs when
// spot is asked for: everywhere but CycleCloud's hpc and gpu partitions,
// which CycleCloud Workspace for Slurm runs on demand (its Spot setting is
// the htc partition's alone: Azure/cyclecloud-slurm-workspace, bicep
// types htc_t.useSpot).
func SpotOffered(l *Layout) bool {
	return l.Target != TargetCycleCloud || CycleCloudPartition(l) == PartitionHTC
}

// CycleCloudPartition is the Slurm partition of a layout: hpc for MPI,
// gpu for GPU sizes, htc otherwise.
func CycleCloudPartition(l *Layout) string {
	switch {
	case l.MPI:
		return PartitionHPC
	case l.SKU.GPU != nil:
		return PartitionGPU
	}
	return PartitionHTC
}

// Unsupported says why the target cannot deploy the size, "" when it can:
// azurerm_batch_pool cannot create a pool of confidential VMs, which needs
// the OS disk's securityEncryptionType that it does not set (azurerm 5.2's
// batch pool takes security_type "confidentialVM" but no OS disk security
// profile; hashicorp/terraform-provider-azurerm#31422).
func Unsupported(s *catalog.SKU, target string) string {
	if target == TargetBatch && s.Confidential {
		return "azurerm_batch_pool cannot create confidential-VM pools: the OS disk security encryption type they need is not an argument of it (hashicorp/terraform-provider-azurerm#31422)"
	}
	return ""
}

// ImageFits reports whether the size's catalog image can be deployed as
// given: it has a URN, and boots as a confidential VM where the size is
// confidential (D57).
func ImageFits(s *catalog.SKU) bool {
	return s.Image != nil && s.Image.URN != "" && (!s.Confidential || s.Image.ConfidentialVM)
}

// cycleCloudDeployment: the partition of the workload (hpc for MPI, gpu
// for GPU sizes, htc otherwise) and, when the job's InfiniBand crosses
// VMs of one scale set, its limit.
func cycleCloudDeployment(l *Layout, imageURN string, singlePlacementGroup, rdma bool) *CycleCloudDeployment {
	s := l.SKU
	cc := &CycleCloudDeployment{MachineType: s.Name, OSImage: imageURN, MaxNodes: l.Nodes, Partition: CycleCloudPartition(l)}
	if singlePlacementGroup {
		cc.MaxScaleSetSize = l.PlacementGroupVMs
	}
	cc.Interruptible = l.Spot && SpotOffered(l)
	cc.SbatchArgs = sbatchArgs(l)
	var notes []string
	if rdma && l.Spans {
		notes = append(notes, RDMANote)
		if s.Placement != nil {
			notes = append(notes, fmt.Sprintf("Scale the partition by whole racks of %d with scale_m1 (CycleCloud Slurm's rack tool for GB200 and GB300), which keeps only fully populated racks.", s.Placement.RackVMs))
		}
	}
	if l.Spot && !cc.Interruptible {
		notes = append(notes, "CycleCloud Workspace for Slurm runs the "+cc.Partition+" partition on demand: Spot is the htc partition's alone.")
	}
	cc.Note = strings.Join(notes, " ")
	return cc
}

// batchDeployment: the image reference split from the URN (nil without
// one; the catalog loader admits only publisher:offer:sku:version) and the
// node agent Batch's sources name for it ("" otherwise); inter-node
// communication when one job spans VMs, never for independent tasks (htc);
// the VMs as dedicated or Spot nodes; the tasks each node runs at once
// (batchTaskSlots).
func batchDeployment(l *Layout, imageURN string) *BatchDeployment {
	s := l.SKU
	b := &BatchDeployment{VMSize: s.Name, InterNodeCommunication: BatchInterNodeDisabled}
	mpi := l.Spans && !l.IndependentTasks
	if mpi {
		b.InterNodeCommunication = BatchInterNodeEnabled
	}
	if l.Spot {
		b.TargetLowPriorityNodes = l.Nodes
	} else {
		b.TargetDedicatedNodes = l.Nodes
	}
	var notes []string
	b.MaxTasksPerNode = 1
	if l.IndependentTasks && !mpi && l.TasksPerVM > 1 {
		var capped string
		b.MaxTasksPerNode, capped = batchTaskSlots(s, l.TasksPerVM)
		if capped != "" {
			notes = append(notes, capped)
		}
	}
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
	if l.Spot {
		notes = append(notes, "Batch runs Spot VMs as target_low_priority_nodes (its low-priority VMs retired in 2025), and only in pools of a Batch account whose pool allocation mode is UserSubscription.")
	} else if q := s.QuotaVCPUCount(); q != nil && b.TargetDedicatedNodes*(*q) > 0 {
		v := b.TargetDedicatedNodes * (*q)
		notes = append(notes, fmt.Sprintf("In a Batch-service account the pool's %d dedicated vCPUs count against the account's dedicated core quota, %d by default at most and 0 for new accounts in some regions (Batch service quotas and limits): check it, request an increase, or use pool allocation mode UserSubscription, where the subscription's quotas apply.", v, BatchDefaultDedicatedCores))
	}
	if mpi {
		notes = append(notes, fmt.Sprintf("Inter-node communication keeps the pool's VMs on one network for MPI; such a pool holds at most %d nodes in Batch-service accounts and %d in user-subscription accounts (pool allocation mode UserSubscription).",
			BatchMPINodesBatchService, BatchMPINodesUserSubscription))
	}
	b.Note = strings.Join(notes, " ")
	return b
}

// batchTaskSlots is a pool's max_tasks_per_node for independent tasks,
// tasks of them on each node: Batch runs one task on a node unless told
// otherwise, so a layout of one task per vCPU needs them all as slots, at
// most Batch's limit (BatchTaskSlotsMax, BatchTaskSlotsPerVCPU × vCPUs), of
// which a note then says what it means.
func batchTaskSlots(s *catalog.SKU, tasks int64) (slots int64, note string) {
	limit := int64(BatchTaskSlotsMax)
	if s.VCPUs != nil && *s.VCPUs > 0 {
		limit = min(limit, BatchTaskSlotsPerVCPU**s.VCPUs)
	}
	if tasks <= limit {
		return tasks, ""
	}
	return limit, fmt.Sprintf("Batch runs at most %d tasks at once on a node (max_tasks_per_node): the layout's %d one-core tasks per node need tasks of %d cores each (several processes or threads per task) to keep its vCPUs busy.",
		limit, tasks, (tasks+limit-1)/limit)
}

// interconnectDeployment: the interconnect settings of a size allocated by
// rack, for a job on nodes VMs (whole racks, D55); nil for other sizes.
func interconnectDeployment(p *catalog.Placement, nodes int64) *InterconnectDeployment {
	if p == nil || p.RackVMs < 1 {
		return nil
	}
	racks := (nodes + p.RackVMs - 1) / p.RackVMs
	sets := (racks*p.RackVMs + ScaleSetVMs - 1) / ScaleSetVMs
	return &InterconnectDeployment{
		HighSpeedInterconnectPlacement: p.HighSpeedInterconnectPlacement, APIVersion: p.APIVersion,
		RackVMs: p.RackVMs, Racks: racks, InterconnectBlockCapacity: racks * p.RackVMs, ScaleSets: sets, Sources: p.Sources,
		Note: fmt.Sprintf("Azure allocates these VMs by racks of %d and rejects a scale set with a single placement group: create an interconnect group and an interconnect block (Microsoft.Compute/interconnectBlocks, sku capacity %d), and give the scale set (Microsoft.Compute/virtualMachineScaleSets@%s; %s of at most %d VMs) single_placement_group = false, highSpeedInterconnectPlacement = \"%s\", virtualMachineProfile.interconnectBlockProfile and networkProfile.interconnectGroupProfile. azurerm cannot set these properties: set them with azapi (an azapi_update_resource on the scale set, or the whole scale set as an azapi_resource).",
			p.RackVMs, racks*p.RackVMs, p.APIVersion, catalog.Plural(sets, "scale set", "scale sets"), ScaleSetVMs, p.HighSpeedInterconnectPlacement),
	}
}

// AKS notes on GPU drivers and InfiniBand (D56).
const (
	aksNoteAMD          = "AKS does not install AMD GPU drivers: set gpu_driver to \"None\" and deploy the AMD GPU operator, which installs the driver and the amd.com/gpu device plugin."
	aksNoteArm64GPU     = "AKS installs no GPU driver on arm64 nodes (gpu_driver = \"Install\" does nothing there): set gpu_driver to \"None\" and deploy the NVIDIA GPU Operator with its driver (and, for NVLink across VMs, its IMEX channels through the DRA driver's ComputeDomains); pods need a toleration for " + AKSGPUTaint + "."
	aksNoteConfidential = "Confidential GPU: AKS installs no driver for it (gpu_driver = \"None\"); run Ubuntu 24.04 nodes and the NVIDIA GPU Operator with its signed driver, then turn on the GPU's confidential-computing mode, as Azure/az-cgpu-onboarding's AKS guide (docs/Confidential-GPU-H100-AKS-Onboarding.md) does; pods need a toleration for " + AKSGPUTaint + "."
	aksNoteRackScale    = " AKS manages the node pool's scale set, and documents no interconnect groups or blocks for GB200 and GB300 pools: a pool whose job spans racks depends on AKS placing it."
	aksNoteIB           = " InfiniBand on AKS needs the NVIDIA Network Operator (RDMA shared device plugin) and the subscription feature Microsoft.ContainerService/AKSInfinibandSupport registered (az feature register --namespace Microsoft.ContainerService --name AKSInfinibandSupport), which keeps a pool's nodes on one InfiniBand network."
)

// aksDeployment: rdma is whether the job uses the size's InfiniBand.
func aksDeployment(l *Layout, rdma bool) *AKSDeployment {
	s := l.SKU
	a := &AKSDeployment{NodeLabels: map[string]string{LabelVMSize: s.Name}, NodeTaints: []string{}}
	a.GPUDriver, a.Note = aksDriver(s)
	if s.GPU != nil {
		a.NodeTaints = []string{AKSGPUTaint}
		a.NodeLabels[LabelGPUModel] = s.GPU.ModelID
		if s.Confidential || s.Placement != nil {
			a.OSSKU = OSSKUUbuntu2404
		}
	}
	if rdma {
		a.Note += aksNoteIB
	}
	if s.Placement != nil && rdma && l.Spans {
		a.Note += aksNoteRackScale
	}
	if l.Spot {
		a.Spot = &AKSSpot{Priority: PrioritySpot, EvictionPolicy: EvictionPolicyDelete, SpotMaxPrice: SpotMaxPrice,
			NodeAutoProvisioning: &NodeRequirement{Key: CapacityTypeLabel, Operator: "In", Values: []string{SpotPriorityValue}}}
		a.NodeTaints = append(a.NodeTaints, AKSSpotTaint)
		a.NodeLabels[LabelSpotPriority] = SpotPriorityValue
	}
	if why := napCannot(l, rdma); why != "" {
		a.Note += " Node auto-provisioning cannot place this job: " + why + "; use a node pool."
		if a.Spot != nil {
			a.Spot.NodeAutoProvisioning = nil
		}
	} else {
		a.NodeAutoProvisioning = &NodeRequirement{Key: AKSSizeLabel, Operator: "In"}
	}
	return a
}

// aksDriver is a node pool's gpu_driver and what its note says of the
// GPU stack.
func aksDriver(s *catalog.SKU) (driver, note string) {
	switch {
	case s.GPU == nil:
		return "", "CPU node pool: no GPU driver or taint needed (leave gpu_driver unset)."
	case strings.EqualFold(s.GPU.Vendor, catalog.VendorAMD):
		return GPUDriverNone, aksNoteAMD
	case s.Arch == "arm64":
		return GPUDriverNone, aksNoteArm64GPU
	case s.Confidential:
		return GPUDriverNone, aksNoteConfidential
	}
	note = "AKS installs the NVIDIA driver; deploy the NVIDIA device plugin or GPU Operator for nvidia.com/gpu; pods tolerate " + AKSGPUTaint + "."
	if s.GPU.Count < 1 {
		note += " Partial GPUs use the GRID driver, which AKS selects."
	}
	return GPUDriverInstall, note
}

// napCannot says why AKS node auto-provisioning cannot place the job on
// the size, "" when it can (D56).
func napCannot(l *Layout, rdma bool) string {
	s := l.SKU
	switch {
	case rdma && l.Spans:
		return "its InfiniBand crosses VMs, which must be in one scale set"
	case s.GPU != nil && strings.EqualFold(s.GPU.Vendor, catalog.VendorAMD):
		return "its default node class leaves out AMD GPU sizes"
	case s.QuotaVCPUs != nil:
		return "its default node class leaves out constrained-core sizes"
	case s.NoNodeAutoProvisioning:
		return "its GPU registry leaves out this size"
	}
	return ""
}

// FillRankedLists sets the lists that name other ranked sizes, given the
// ranked sizes' names and settings in rank order: an AKS node
// auto-provisioning requirement where it can place the job (the ranked
// sizes of the same CPU architecture it can place: a NodePool's nodes
// share one image architecture) and CycleCloud's fallback machine types
// (the ranked sizes of the same CPU architecture and the same image, which
// can replace the size in a node array without changing its image). Each
// list starts with the size itself.
func FillRankedLists(sizes []string, ds []*Deployment) {
	for i, d := range ds {
		if d.AKS != nil && d.AKS.NodeAutoProvisioning != nil {
			vals := []string{sizes[i]}
			for j, o := range ds {
				if j != i && o.CPUArchitecture == d.CPUArchitecture && o.AKS.NodeAutoProvisioning != nil {
					vals = append(vals, sizes[j])
				}
			}
			d.AKS.NodeAutoProvisioning.Values = vals
		}
		if cc := d.CycleCloud; cc != nil {
			cc.FallbackMachineTypes = []string{sizes[i]}
			if cc.OSImage == "" {
				continue
			}
			for j, o := range ds {
				if j != i && o.CPUArchitecture == d.CPUArchitecture && o.CycleCloud.OSImage == cc.OSImage {
					cc.FallbackMachineTypes = append(cc.FallbackMachineTypes, sizes[j])
				}
			}
		}
	}
}
