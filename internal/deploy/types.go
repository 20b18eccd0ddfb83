// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

// Deployment holds target-ready settings for a recommendation.
type Deployment struct {
	ImageURN              string // recommended Marketplace image; "" when none is documented
	ImageSource           string // where ImageURN is documented; "" with no URN
	CPUArchitecture       string // x86_64 or arm64
	AcceleratedNetworking bool
	RDMA                  bool // the job uses the size's InfiniBand (RDMA)
	// RDMAPlacement is what InfiniBand across VMs needs: PlacementScaleSet
	// (one scale set, single placement group) or PlacementAvailabilitySet
	// (target vm); "" when no RDMA traffic crosses VMs.
	RDMAPlacement string
	// SinglePlacementGroup: RDMAPlacement is PlacementScaleSet and the
	// size's scale sets may have a single placement group.
	SinglePlacementGroup bool
	// SecurityType is ARM's securityProfile.securityType for a
	// confidential size ("ConfidentialVM"), "" otherwise; VTPMEnabled,
	// SecureBootEnabled and OSDiskSecurityEncryptionType are the azurerm
	// arguments that go with it (false and "" otherwise).
	SecurityType                 string
	VTPMEnabled                  bool
	SecureBootEnabled            bool
	OSDiskSecurityEncryptionType string
	// Zones are the availability zones of the recommendation's region where
	// the availability file lets the subscription deploy the size, sorted;
	// nil without an availability file.
	Zones []string
	// Spot holds the azurerm arguments of a Spot VM or scale set (targets
	// vm and vmss with spot); nil otherwise.
	Spot *SpotSettings
	// Note says what else the VMs need (targets vm, vmss: InfiniBand's
	// address space, a rack-scale size's scale set); "" when nothing.
	Note string
	// Interconnect holds the scale set settings of a size whose VMs share
	// a rack-scale NVLink domain, when the job spans its VMs and the
	// target is vmss; nil otherwise.
	Interconnect *InterconnectDeployment
	// Serving holds the serving engines' arguments for the layout a
	// served model's estimate used (inference on GPU sizes); nil
	// otherwise. Launch holds a training job's launcher settings where
	// it spans VMs or leaves GPUs idle; nil otherwise.
	Serving    *ServingDeployment
	Launch     *LaunchDeployment
	AKS        *AKSDeployment        // set when the target is aks
	CycleCloud *CycleCloudDeployment // set when the target is cyclecloud
	AzureML    *AzureMLDeployment    // set when the target is azureml
	Batch      *BatchDeployment      // set when the target is batch
}

// ServingDeployment holds the arguments of vLLM (VLLMVersion) and SGLang
// (SGLangVersion) for one VM of the layout, as --flag=value; a list is nil
// where the engine's documentation excludes the GPU and format. Note says
// what else the engines need ("" when nothing).
type ServingDeployment struct {
	VLLMArgs   []string
	SGLangArgs []string
	Note       string
}

// LaunchDeployment holds a training job's launcher settings: torchrun's
// --nnodes and --nproc-per-node, and the NCCL environment of the size's
// series when the job talks over InfiniBand across VMs (nil otherwise).
type LaunchDeployment struct {
	NNodes       int64
	NProcPerNode int64
	Env          map[string]string
}

// InterconnectDeployment holds the Compute API settings that place the VMs
// of a rack-scale NVLink size (ND GB200 v6, ND GB300 v6) on their racks:
// the scale set's highSpeedInterconnectPlacement, and the interconnect block
// and group its profile names, which azurerm cannot set.
type InterconnectDeployment struct {
	HighSpeedInterconnectPlacement string // "Trunk"
	APIVersion                     string // the Compute API version that takes them
	RackVMs                        int64  // VMs of one rack
	Racks                          int64  // whole racks the job takes
	// InterconnectBlockCapacity is the sku capacity of the interconnect
	// block (Microsoft.Compute/interconnectBlocks) that holds the job's VMs.
	InterconnectBlockCapacity int64
	// ScaleSets is the scale sets the job's VMs take: ScaleSetVMs each.
	ScaleSets int64
	Sources   []string
	Note      string
}

// SpotSettings are the Spot arguments of azurerm_linux_virtual_machine
// and its scale sets: priority, eviction_policy and max_bid_price.
type SpotSettings struct {
	Priority       string  // "Spot"
	EvictionPolicy string  // "Delete"
	MaxBidPrice    float64 // -1: never evicted for price
}

// AKSSpot are the Spot arguments of azurerm_kubernetes_cluster_node_pool
// (priority, eviction_policy, spot_max_price) and the requirement a node
// auto-provisioning NodePool takes for Spot capacity.
type AKSSpot struct {
	Priority             string  // "Spot"
	EvictionPolicy       string  // "Delete"
	SpotMaxPrice         float64 // -1: the on-demand price caps it
	NodeAutoProvisioning *NodeRequirement
}

// AKSDeployment holds node pool settings for AKS.
type AKSDeployment struct {
	NodeTaints []string
	NodeLabels map[string]string
	GPUDriver  string // "Install", "None", or "" (no setting) for CPU sizes
	// OSSKU is the node pool's os_sku where the size needs one
	// (OSSKUUbuntu2404 for confidential and rack-scale GPU sizes); "" for
	// AKS's default.
	OSSKU string
	Spot  *AKSSpot // nil without spot
	// KAITO is the KAITO Workspace's resource and preset (target kaito);
	// nil otherwise.
	KAITO *KAITODeployment
	// NodeAutoProvisioning is the requirement a node auto-provisioning
	// (Karpenter) NodePool takes to choose among the ranked sizes (For
	// sets it without values, FillRankedLists fills them); nil where node
	// auto-provisioning cannot place the job.
	NodeAutoProvisioning *NodeRequirement
	Note                 string
}

// KAITODeployment holds a KAITO Workspace's settings (kaito.sh/v1beta1):
// resource.instanceType, resource.count, resource.labelSelector.matchLabels
// and inference.preset.name ("" where no preset serves the layout), and
// the Workspaces to create with them (one for each copy a preset serves).
type KAITODeployment struct {
	InstanceType  string
	Count         int64
	Workspaces    int64
	LabelSelector map[string]string
	PresetName    string
	Note          string
}

// NodeRequirement is one Kubernetes node selector requirement.
type NodeRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// CycleCloudDeployment holds the settings of a CycleCloud Slurm partition
// (a node array of CycleCloud Workspace for Slurm or of the Slurm cluster
// template).
type CycleCloudDeployment struct {
	Partition   string // hpc, gpu or htc
	MachineType string
	OSImage     string // ImageURN; "" when none is documented
	MaxNodes    int64  // the VMs one job needs
	// MaxScaleSetSize is the most VMs of one scale set (one InfiniBand
	// placement group) when the job's InfiniBand crosses VMs; 0 otherwise.
	MaxScaleSetSize int64
	// FallbackMachineTypes are the ranked sizes with the same CPU
	// architecture and image, this size first.
	FallbackMachineTypes []string
	// Interruptible: the node array runs Spot VMs (spot, the htc
	// partition: the only one CycleCloud Workspace for Slurm offers Spot
	// on), with MaxPrice -1.
	Interruptible bool
	// SbatchArgs are the sbatch options of a job on a GPU partition
	// (--nodes, --gpus-per-node, --ntasks-per-node); nil on CPU sizes.
	SbatchArgs []string
	Note       string // what else the partition needs; "" when nothing
}

// AzureMLDeployment holds Azure Machine Learning compute cluster settings.
type AzureMLDeployment struct {
	VMSize       string
	VMPriority   string // Dedicated or LowPriority (spot)
	MinNodeCount int64
	MaxNodeCount int64
}

// BatchDeployment holds Azure Batch pool settings.
type BatchDeployment struct {
	VMSize                 string
	NodeAgentSKUID         string          // "" without a documented image
	Image                  *ImageReference // nil without a documented image
	InterNodeCommunication string          // Enabled or Disabled
	TargetDedicatedNodes   int64
	TargetLowPriorityNodes int64 // Spot nodes
	// MaxTasksPerNode is azurerm_batch_pool's max_tasks_per_node (Batch's
	// taskSlotsPerNode, which defaults to 1): the tasks each node of an
	// htc pool runs at once in the layout, at most BatchTaskSlots; 1 for a
	// pool whose nodes talk to each other (an MPI job's multi-instance
	// task takes each node whole) and for the other jobs.
	MaxTasksPerNode int64
	Note            string
}

// ImageReference is a Marketplace image URN split into its parts.
type ImageReference struct {
	Publisher string
	Offer     string
	SKU       string
	Version   string
}
