// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package catalog holds the embedded catalog of Azure GPU and HPC virtual
// machine sizes: the data files, their decoding and validation, and a typed
// API to look sizes up, list and filter them. It has no Terraform framework
// types so that the ranking engine and tools can use it directly.
package catalog

// Category is the broad kind of a size.
const (
	CategoryGPU = "gpu"
	CategoryHPC = "hpc"
	CategoryCPU = "cpu"
)

// Lifecycle statuses.
const (
	StatusGA       = "ga"
	StatusPreview  = "preview"
	StatusRetiring = "retiring"
	StatusRetired  = "retired"
)

// Support statuses for an orchestrator or service.
const (
	SupportSupported   = "supported"
	SupportUnsupported = "unsupported"
	SupportUnknown     = "unknown"
)

// GPU vendors.
const (
	VendorNVIDIA = "nvidia"
	VendorAMD    = "amd"
)

// Categories lists the allowed categories. Like the other lists of allowed
// values below, it returns a new slice on every call.
func Categories() []string { return []string{CategoryCPU, CategoryGPU, CategoryHPC} }

// Statuses lists the allowed lifecycle statuses.
func Statuses() []string { return []string{StatusGA, StatusPreview, StatusRetiring, StatusRetired} }

// SupportStatuses lists the allowed support statuses.
func SupportStatuses() []string {
	return []string{SupportSupported, SupportUnsupported, SupportUnknown}
}

// Vendors lists the allowed GPU vendors.
func Vendors() []string { return []string{VendorAMD, VendorNVIDIA} }

// SKU is one virtual machine size with every fact the catalog knows about it,
// joined from its size record, its series, its GPU model and the price table.
// Pointer fields are nil where the sources give no value.
type SKU struct {
	Name     string
	Series   string
	Family   string
	Category string
	// SeriesYear is the year the series became generally available on
	// Azure (year_available in series.json); 0 when the series gives none.
	SeriesYear int

	// VCPUs are the vCPUs the VM can use (the active cores of a
	// constrained-core size); price per core divides by them.
	VCPUs *int64
	// QuotaVCPUs is what vCPU quota counts for the size when that differs
	// from VCPUs (the parent size's vCPUs for a constrained-core size); nil
	// when the same or unknown. QuotaVCPUCount gives the figure either way.
	QuotaVCPUs *int64
	// MemoryGiB is the documented memory; MemoryGiBAllotted the memory the
	// Resource SKUs API reports, when it differs (nil when the same or
	// unknown). FitMemoryGiB is the smaller, which memory fit uses.
	MemoryGiB         *float64
	MemoryGiBAllotted *float64
	TempDiskGiB       *int64
	LocalNVMeGiB      *int64
	CPUModel          string
	Arch              string // x86_64 or arm64

	GPU     *GPU
	Network Network

	HyperVGenerations []string
	Confidential      bool
	Isolated          bool
	PremiumStorage    *bool
	MaxDataDisks      *int64
	MaxNICs           *int64

	// Deployable is false for a size that no list of deployable sizes
	// names (size record "deployable": false); such a size is kept for
	// guardrails but never recommended.
	Deployable bool
	// NoSizePage: Microsoft publishes no size page for the size (size
	// record "size_page": false).
	NoSizePage bool
	// OnRequest: no public list of the Resource SKUs API names the size,
	// which Azure offers on request (size record "on_request": true, with
	// OnRequestSources, the dated lists checked).
	OnRequest        bool
	OnRequestSources []string

	Lifecycle Lifecycle
	Support   Support
	Image     *Image
	// Placement is nil for sizes placed as usual (one InfiniBand scale set
	// with a single placement group).
	Placement *Placement
	// MaxMPIJobVMs is the most VMs one MPI job of the size's series may
	// span in one scale set with a single placement group, as the series'
	// page states it (D81); 0 where no page states one.
	MaxMPIJobVMs int64

	// Prices by region name (for example "eastus").
	Prices map[string]Price

	// Availability by lower-case region, from an availability file laid
	// over the catalog (see Catalog.WithOverlays); nil without one.
	Availability map[string]*RegionAvailability
	// QuotaFamily is the size's vCPU quota family (for example
	// standardNDSH100v5Family), which usage files and quota requests name:
	// the availability file's where it gives one, else the catalog's; ""
	// when neither knows it.
	QuotaFamily string
	// NoNodeAutoProvisioning: AKS node auto-provisioning (Karpenter) does
	// not place the size (its series' record).
	NoNodeAutoProvisioning bool
	// NCCLEnv is the NCCL environment Azure's HPC image sets for the
	// size's series (its series' record); nil where it sets none.
	NCCLEnv map[string]string
	// AvailabilitySource says where Availability comes from: "availability
	// file <path>", or "embedded price snapshot of <date>" without one (a
	// size is then taken to be offered where it is priced).
	AvailabilitySource string

	// Performance holds the size's throughput facts (perf.go).
	Performance Performance

	Sources   []string
	Notes     string
	Decisions []string
}

// FitMemoryGiB is the memory a workload can count on: the smaller of the
// documented memory and the memory the Resource SKUs API allots; nil when
// neither is known.
func (s *SKU) FitMemoryGiB() *float64 {
	switch {
	case s.MemoryGiB == nil:
		return s.MemoryGiBAllotted
	case s.MemoryGiBAllotted != nil && *s.MemoryGiBAllotted < *s.MemoryGiB:
		return s.MemoryGiBAllotted
	}
	return s.MemoryGiB
}

// QuotaVCPUCount is what vCPU quota counts for one VM of the size:
// QuotaVCPUs when set, otherwise VCPUs; nil when neither is known.
func (s *SKU) QuotaVCPUCount() *int64 {
	if s.QuotaVCPUs != nil {
		return s.QuotaVCPUs
	}
	return s.VCPUs
}

// GPU describes the accelerators of a size. Count may be fractional for
// partitioned GPUs (for example 0.25 for a quarter of a GPU).
type GPU struct {
	Count             float64
	CountText         string // as printed in the docs, for example "1/4"
	ModelID           string // key into the GPU model table
	Model             string // display name
	Vendor            string
	Architecture      string
	ArchitectureYear  int     // launch year of the architecture; 0 when unknown
	MemoryGiB         float64 // per GPU, or the slice for a partial GPU
	MemoryGiBTotal    float64
	Interconnect      string
	ComputeCapability string // NVIDIA, for example "9.0"
	GfxTarget         string // AMD, for example "gfx942"
	MinCUDA           string // NVIDIA, minimum toolkit, for example "11.8"
	MaxCUDAMajor      int64  // NVIDIA, newest CUDA major that still supports it; 0 for AMD
	MinROCm           string // AMD
	Precisions        []string
	Sources           []string
	Notes             string
}

// Network holds the networking facts of a size.
type Network struct {
	AcceleratedNetworking *bool
	RDMA                  bool
	InfiniBand            string // FDR, EDR, HDR, NDR, XDR or empty
	InfiniBandGbps        int64  // per VM, all ports added up
	InfiniBandPorts       int64
	InfiniBandText        string // as printed in the sources
	EthernetMbps          *int64
}

// Lifecycle is where a size stands in its life.
type Lifecycle struct {
	Status            string
	AnnouncedDate     string // YYYY-MM-DD or empty
	RetirementDate    string // YYYY-MM-DD or empty
	ReplacementSeries []string
	ReplacementSizes  []string
	// CapacityRestrictedDate: YYYY-MM-DD or empty (no restriction).
	CapacityRestrictedDate string
	Note                   string
	Sources                []string
}

// SupportEntry is whether one orchestrator or service supports a size.
type SupportEntry struct {
	Status string
	Note   string
}

// Support collects the orchestrators and services a size works with.
type Support struct {
	AKS        SupportEntry
	AzureML    SupportEntry
	CycleCloud SupportEntry
	Batch      SupportEntry
	Sources    []string
}

// Placement is how Azure allocates and connects the VMs of a size whose
// VMs share a rack-scale NVLink domain (the series' placement record).
type Placement struct {
	RackVMs                        int64
	SinglePlacementGroup           bool
	HighSpeedInterconnectPlacement string
	APIVersion                     string
	MaxJobVMs                      int64 // 0: SinglePlacementGroupVMs
	Sources                        []string
	Notes                          string
}

// SinglePlacementGroupVMs is the most VMs of one scale set with a single
// placement group, which InfiniBand between its VMs needs (scale sets of
// several placement groups do not support InfiniBand): the InfiniBand span
// of one job on a series that states none of its own
// (MicrosoftDocs/azure-compute-docs, "Virtual Machine Scale Sets and
// placement groups"; decisions D74 and D81).
const SinglePlacementGroupVMs = 100

// MaxJobVMs is the most VMs one InfiniBand job of the size may span: its
// series' placement record's, else the MPI job size its series' page
// states (MaxMPIJobVMs, D81), else SinglePlacementGroupVMs.
func (s *SKU) MaxJobVMs() int64 {
	switch {
	case s.Placement != nil && s.Placement.MaxJobVMs > 0:
		return s.Placement.MaxJobVMs
	case s.MaxMPIJobVMs > 0:
		return s.MaxMPIJobVMs
	}
	return SinglePlacementGroupVMs
}

// Image is the recommended marketplace image for a size.
type Image struct {
	ID   string // the catalog's image id
	URN  string // "" when no Marketplace URN is documented
	Arch string // x86_64 or arm64
	// BatchNodeAgentSKUID is the Azure Batch node agent for the image
	// ("" when Batch's supported images do not list it).
	BatchNodeAgentSKUID string
	OS                  string
	CUDAToolkit         string
	Driver              string
	ROCm                string
	Source              string
	ConfidentialVM      bool // boots as a confidential VM
	// URNSource is where URN is documented: the image's Source unless the
	// catalog names another document for the URN. URNLocator is the same
	// without its note (repository:path@commit, or the URL).
	URNSource, URNLocator string
}

// Price is the Linux pay-as-you-go price of a size in one region.
type Price struct {
	Region         string
	USDPerHour     float64
	SpotUSDPerHour *float64
	SnapshotDate   string
	Source         string
	SpotSource     string
	// SpotDate is the date of the spot figure (YYYY-MM-DD), "" when its
	// source gives none.
	SpotDate string
	// NoSpot: Azure sells no Spot VMs of the size in the region (the
	// spot table lists the pair without prices, D75; SpotSource and
	// SpotDate say where and when). A prices_file spot price clears it.
	NoSpot bool
	// File and SpotFile are the prices file the price and the spot price
	// come from; empty for the embedded snapshot.
	File, SpotFile string
}
