// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file defines the on-disk format of the catalog: JSON documents under
// data/, decoded strictly (unknown fields are errors). Every embedded file
// and every user-supplied catalog file is one Document; documents are merged
// in order, a later entry with the same key replacing an earlier one.

// Document is one catalog data file. Every section is optional.
type Document struct {
	// Schema names the file's JSON Schema (data/schema/*.schema.json) for
	// editors; the catalog ignores it.
	Schema    string        `json:"$schema,omitempty"`
	Catalog   *MetaDoc      `json:"catalog,omitempty"`
	Decisions []DecisionDoc `json:"decisions,omitempty"`
	GPUModels []GPUModelDoc `json:"gpu_models,omitempty"`
	Images    []ImageDoc    `json:"images,omitempty"`
	Series    []SeriesDoc   `json:"series,omitempty"`
	SKUs      []SKUDoc      `json:"skus,omitempty"`
	// Performance facts (perf.go) and the open-model table (models.go).
	GPUPerformance    []GPUPerformanceDoc    `json:"gpu_performance,omitempty"`
	SeriesPerformance []SeriesPerformanceDoc `json:"series_performance,omitempty"`
	Models            []ModelDoc             `json:"models,omitempty"`
	// KAITO is KAITO's tables (kaito.go); the last document's wins.
	KAITO *KAITODoc `json:"kaito,omitempty"`
}

// MetaDoc carries the catalog's version and dates.
type MetaDoc struct {
	Version           string   `json:"version"`
	DataDate          string   `json:"data_date"`
	PriceSnapshotDate string   `json:"price_snapshot_date"`
	PriceSource       string   `json:"price_source"`
	SpotSource        string   `json:"spot_source"`
	SpotCaveat        string   `json:"spot_caveat"`
	Sources           []string `json:"sources"`
}

// DecisionDoc records how a disagreement between sources was settled.
type DecisionDoc struct {
	ID       string   `json:"id"`
	Topic    string   `json:"topic"`
	Decision string   `json:"decision"`
	Rejected string   `json:"rejected,omitempty"`
	Sources  []string `json:"sources"`
}

// GPUModelDoc is one GPU model.
type GPUModelDoc struct {
	ID                string   `json:"id"`
	Name              string   `json:"name"`
	Vendor            string   `json:"vendor"`
	Architecture      string   `json:"architecture"`
	ComputeCapability string   `json:"compute_capability,omitempty"`
	GfxTarget         string   `json:"gfx_target,omitempty"`
	MinCUDA           string   `json:"min_cuda,omitempty"`
	MaxCUDAMajor      int64    `json:"max_cuda_major,omitempty"`
	MinROCm           string   `json:"min_rocm,omitempty"`
	MemoryGiB         float64  `json:"memory_gib"`
	MemoryType        string   `json:"memory_type,omitempty"`
	Precisions        []string `json:"precisions"`
	Sources           []string `json:"sources"`
	Notes             string   `json:"notes,omitempty"`
	// ArchitectureYear is the year the architecture launched. Models of
	// one architecture share it; a model without it takes it from another
	// model of the same architecture.
	ArchitectureYear int `json:"architecture_year,omitempty"`
}

// ImageDoc is one recommended marketplace image.
type ImageDoc struct {
	ID          string `json:"id"`
	URN         string `json:"urn,omitempty"`
	OS          string `json:"os"`
	Arch        string `json:"arch"`
	CUDAToolkit string `json:"cuda_toolkit,omitempty"`
	Driver      string `json:"driver,omitempty"`
	ROCm        string `json:"rocm,omitempty"`
	// BatchNodeAgentSKUID is the Azure Batch node agent SKU that runs the
	// image, as Batch's supported images list gives it.
	BatchNodeAgentSKUID string `json:"batch_node_agent_sku_id,omitempty"`
	Source              string `json:"source"`
	// ConfidentialVM is whether the image boots as a confidential VM
	// (securityType ConfidentialVM); confidential sizes need such an image.
	ConfidentialVM bool `json:"confidential_vm,omitempty"`
	// URNSource is where the Marketplace URN is documented when the image's
	// source (its build repository) does not list it; without it, the URN
	// is documented where the image is.
	URNSource string `json:"urn_source,omitempty"`
	Notes     string `json:"notes,omitempty"`
}

// SeriesDoc holds the facts shared by every size of a series.
type SeriesDoc struct {
	Name      string       `json:"name"`
	Family    string       `json:"family"`
	Category  string       `json:"category"`
	Lifecycle LifecycleDoc `json:"lifecycle"`
	Support   SupportDoc   `json:"support"`
	Image     string       `json:"image,omitempty"`
	Sources   []string     `json:"sources"`
	Decisions []string     `json:"decisions,omitempty"`
	// YearAvailable is the year the series became generally available on
	// Azure; the ranking orders generations by it.
	YearAvailable int `json:"year_available,omitempty"`
	// QuotaFamily is the Resource SKUs API's family of the series' sizes
	// (for example standardNDSH100v5Family): the vCPU quota family their
	// VMs count against, which `az vm list-usage` reports. Omitted when no
	// source gives it.
	QuotaFamily string `json:"quota_family,omitempty"`
	// NoNodeAutoProvisioning is true for GPU series AKS node
	// auto-provisioning (Karpenter) does not place: its GPU registry
	// leaves them out. NodeAutoProvisioningSources say so; omitted
	// otherwise.
	NoNodeAutoProvisioning      bool     `json:"no_node_auto_provisioning,omitempty"`
	NodeAutoProvisioningSources []string `json:"node_auto_provisioning_sources,omitempty"`
	// NCCLEnv is the NCCL environment Azure's HPC image writes to
	// /etc/nccl.conf for the series' sizes (topology file, PCI relaxed
	// ordering), which a training job's processes need where the file is
	// not read (containers); NCCLEnvSources give it. Omitted where the
	// image writes none.
	NCCLEnv        map[string]string `json:"nccl_env,omitempty"`
	NCCLEnvSources []string          `json:"nccl_env_sources,omitempty"`
	// MaxMPIJobVMs is the most VMs one MPI job of the series may span over
	// InfiniBand in one scale set with a single placement group, as the
	// series' own page states it (its "Max MPI Job Size"; decision D81);
	// MaxMPIJobVMsSources give it. Omitted where no page of the series
	// states one: SinglePlacementGroupVMs then (D74). A series with a
	// placement record gives its span there instead (placement.max_job_vms).
	MaxMPIJobVMs        int      `json:"max_mpi_job_vms,omitempty"`
	MaxMPIJobVMsSources []string `json:"max_mpi_job_vms_sources,omitempty"`
	// Placement is how Azure places the series' VMs when one job spans
	// several, where it differs from the usual InfiniBand scale set (one
	// with a single placement group); omitted otherwise.
	Placement *PlacementDoc `json:"placement,omitempty"`
}

// PlacementDoc is how Azure allocates and connects the VMs of a series
// whose VMs share a rack-scale NVLink domain.
type PlacementDoc struct {
	// RackVMs is the VMs of one rack, which Azure allocates together: a job
	// that spans VMs takes whole racks.
	RackVMs int `json:"rack_vms"`
	// SinglePlacementGroup is whether a scale set of the series may have a
	// single placement group (false: Azure rejects one).
	SinglePlacementGroup bool `json:"single_placement_group"`
	// HighSpeedInterconnectPlacement is the scale set's
	// highSpeedInterconnectPlacement value.
	HighSpeedInterconnectPlacement string `json:"high_speed_interconnect_placement"`
	// APIVersion is the Compute API version that takes the interconnect
	// settings (interconnectBlockProfile, interconnectGroupProfile).
	APIVersion string `json:"api_version"`
	// MaxJobVMs is the most VMs one InfiniBand job of the series may span,
	// whole racks; 0 for SinglePlacementGroupVMs (sources name the figure).
	MaxJobVMs int      `json:"max_job_vms,omitempty"`
	Sources   []string `json:"sources"`
	Notes     string   `json:"notes,omitempty"`
}

// LifecycleDoc is a series' lifecycle, or a size's override of it.
type LifecycleDoc struct {
	Status            string   `json:"status,omitempty"`
	AnnouncedDate     string   `json:"announced_date,omitempty"`
	RetirementDate    string   `json:"retirement_date,omitempty"`
	ReplacementSeries []string `json:"replacement_series,omitempty"`
	ReplacementSizes  []string `json:"replacement_sizes,omitempty"`
	// CapacityRestrictedDate is the day Azure began restricting capacity
	// growth for the series (new VMs may not be allocated), YYYY-MM-DD;
	// omitted when no restriction is announced.
	CapacityRestrictedDate string   `json:"capacity_restricted_date,omitempty"`
	Note                   string   `json:"note,omitempty"`
	Sources                []string `json:"sources,omitempty"`
}

// SupportDoc is a series' orchestrator and service support.
type SupportDoc struct {
	AKS        SupportEntryDoc `json:"aks"`
	AzureML    SupportEntryDoc `json:"azureml"`
	CycleCloud SupportEntryDoc `json:"cyclecloud"`
	Batch      SupportEntryDoc `json:"batch"`
	Sources    []string        `json:"sources,omitempty"`
}

// SupportEntryDoc is one support verdict.
type SupportEntryDoc struct {
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// SKUDoc is one size as stored.
type SKUDoc struct {
	Name   string `json:"name"`
	Series string `json:"series"`
	// VCPUs are the vCPUs the VM can use: the active cores of a
	// constrained-core size.
	VCPUs *int64 `json:"vcpus"`
	// QuotaVCPUs is what vCPU quota counts for the size when it differs from
	// vcpus: the parent size's vCPUs for a constrained-core size, as the
	// Resource SKUs API reports them. Omitted when the same or unknown.
	QuotaVCPUs *int64 `json:"quota_vcpus,omitempty"`
	// QuotaFamily overrides the series' quota family where the size's
	// differs (an isolated size in a family of its own).
	QuotaFamily string `json:"quota_family,omitempty"`
	// MemoryGiB is the memory the size documentation states.
	MemoryGiB *float64 `json:"memory_gib"`
	// MemoryGiBAllotted is the memory the Resource SKUs API reports when it
	// differs from memory_gib. Memory fit uses the smaller of the two.
	// Omitted when the same or unknown.
	MemoryGiBAllotted *float64   `json:"memory_gib_allotted,omitempty"`
	TempDiskGiB       *int64     `json:"temp_disk_gib"`
	LocalNVMeGiB      *int64     `json:"local_nvme_gib,omitempty"`
	CPUModel          string     `json:"cpu_model,omitempty"`
	Arch              string     `json:"arch"`
	GPU               *SKUGPUDoc `json:"gpu,omitempty"`
	Network           NetworkDoc `json:"network"`
	HyperVGenerations []string   `json:"hyperv_generations"`
	Confidential      bool       `json:"confidential"`
	Isolated          bool       `json:"isolated"`
	PremiumStorage    *bool      `json:"premium_storage"`
	MaxDataDisks      *int64     `json:"max_data_disks"`
	MaxNICs           *int64     `json:"max_nics"`
	// Deployable is false for a size that no list of deployable sizes
	// names (the Resource SKUs API, the AKS GPU registry, the retail price
	// data): it is kept for guardrails but never recommended. Omitted (true)
	// otherwise.
	Deployable *bool `json:"deployable,omitempty"`
	// SizePage is false for a size Microsoft publishes no size page for
	// (its facts come from other lists, and it may be offered only on
	// request); omitted (true) otherwise.
	SizePage *bool `json:"size_page,omitempty"`
	// OnRequest is true for a size no public list of the Resource SKUs API
	// names although other lists do (AKS's GPU registry, the retail price
	// data): Azure offers it on request, to some subscriptions only.
	// OnRequestSources are the dated API lists checked. Omitted (false)
	// otherwise.
	OnRequest        bool          `json:"on_request,omitempty"`
	OnRequestSources []string      `json:"on_request_sources,omitempty"`
	Lifecycle        *LifecycleDoc `json:"lifecycle,omitempty"`
	// Support overrides the series' support verdicts for this size.
	Support   *SupportOverrideDoc `json:"support,omitempty"`
	Sources   []string            `json:"sources"`
	Notes     string              `json:"notes,omitempty"`
	Decisions []string            `json:"decisions,omitempty"`
}

// SupportOverrideDoc is a size's override of its series' support: each
// verdict given replaces the series' one, and the sources are added to the
// series' support sources.
type SupportOverrideDoc struct {
	AKS        *SupportEntryDoc `json:"aks,omitempty"`
	AzureML    *SupportEntryDoc `json:"azureml,omitempty"`
	CycleCloud *SupportEntryDoc `json:"cyclecloud,omitempty"`
	Batch      *SupportEntryDoc `json:"batch,omitempty"`
	Sources    []string         `json:"sources,omitempty"`
}

// SKUGPUDoc is a size's GPU share.
type SKUGPUDoc struct {
	Count        string   `json:"count"`
	Model        string   `json:"model"`
	MemoryGiB    *float64 `json:"memory_gib"`
	Interconnect string   `json:"interconnect"`
}

// NetworkDoc is a size's networking.
type NetworkDoc struct {
	AcceleratedNetworking *bool          `json:"accelerated_networking"`
	RDMA                  bool           `json:"rdma"`
	InfiniBand            *InfiniBandDoc `json:"infiniband,omitempty"`
	EthernetMbps          *int64         `json:"ethernet_mbps"`
}

// InfiniBandDoc is a size's InfiniBand fabric.
type InfiniBandDoc struct {
	Generation  string `json:"generation"`
	GbpsPerPort int64  `json:"gbps_per_port"`
	Ports       int64  `json:"ports"`
	Text        string `json:"text"`
}
