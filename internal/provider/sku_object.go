// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The SKU object is defined once here. Every data source and function that
// returns a size returns this shape.

type skuModel struct {
	Name              string               `tfsdk:"name"`
	Series            string               `tfsdk:"series"`
	Family            string               `tfsdk:"family"`
	Category          string               `tfsdk:"category"`
	VCPUs             *int64               `tfsdk:"vcpus"`
	MemoryGiB         *float64             `tfsdk:"memory_gib"`
	MemoryGiBAllotted *float64             `tfsdk:"memory_gib_allotted"`
	QuotaVCPUs        *int64               `tfsdk:"quota_vcpus"`
	Deployable        bool                 `tfsdk:"deployable"`
	OnRequest         bool                 `tfsdk:"on_request"`
	TempDiskGiB       *int64               `tfsdk:"temp_disk_gib"`
	LocalNVMeGiB      *int64               `tfsdk:"local_nvme_gib"`
	CPUModel          *string              `tfsdk:"cpu_model"`
	Arch              string               `tfsdk:"arch"`
	GPU               *skuGPUModel         `tfsdk:"gpu"`
	Network           skuNetworkModel      `tfsdk:"network"`
	HyperVGenerations []string             `tfsdk:"hyperv_generations"`
	Confidential      bool                 `tfsdk:"confidential"`
	Isolated          bool                 `tfsdk:"isolated"`
	PremiumStorage    *bool                `tfsdk:"premium_storage"`
	MaxDataDisks      *int64               `tfsdk:"max_data_disks"`
	MaxNICs           *int64               `tfsdk:"max_nics"`
	Lifecycle         skuLifecycleModel    `tfsdk:"lifecycle"`
	Support           skuSupportModel      `tfsdk:"support"`
	Image             *skuImageModel       `tfsdk:"image"`
	Price             *skuPriceModel       `tfsdk:"price"`
	PricedRegions     []string             `tfsdk:"priced_regions"`
	Availability      skuAvailabilityModel `tfsdk:"availability"`
	Performance       skuPerformanceModel  `tfsdk:"performance"`
	Sources           []string             `tfsdk:"sources"`
	Decisions         []string             `tfsdk:"decisions"`
	Notes             *string              `tfsdk:"notes"`
}

type skuGPUModel struct {
	Count             float64  `tfsdk:"count"`
	CountText         string   `tfsdk:"count_text"`
	ModelID           string   `tfsdk:"model_id"`
	Model             string   `tfsdk:"model"`
	Vendor            string   `tfsdk:"vendor"`
	Architecture      string   `tfsdk:"architecture"`
	MemoryGiB         *float64 `tfsdk:"memory_gib"`
	MemoryGiBTotal    *float64 `tfsdk:"memory_gib_total"`
	Interconnect      string   `tfsdk:"interconnect"`
	ComputeCapability *string  `tfsdk:"compute_capability"`
	GfxTarget         *string  `tfsdk:"gfx_target"`
	MinCUDA           *string  `tfsdk:"min_cuda"`
	MaxCUDAMajor      *int64   `tfsdk:"max_cuda_major"`
	MinROCm           *string  `tfsdk:"min_rocm"`
	Precisions        []string `tfsdk:"precisions"`
}

type skuNetworkModel struct {
	AcceleratedNetworking *bool   `tfsdk:"accelerated_networking"`
	RDMA                  bool    `tfsdk:"rdma"`
	InfiniBand            *string `tfsdk:"infiniband"`
	InfiniBandGbps        *int64  `tfsdk:"infiniband_gbps"`
	InfiniBandPorts       *int64  `tfsdk:"infiniband_ports"`
	EthernetMbps          *int64  `tfsdk:"ethernet_mbps"`
}

type skuLifecycleModel struct {
	Status            string   `tfsdk:"status"`
	CatalogStatus     string   `tfsdk:"catalog_status"`
	AnnouncedDate     *string  `tfsdk:"announced_date"`
	RetirementDate    *string  `tfsdk:"retirement_date"`
	ReplacementSeries []string `tfsdk:"replacement_series"`
	ReplacementSizes  []string `tfsdk:"replacement_sizes"`
	Note              *string  `tfsdk:"note"`
}

type skuSupportEntryModel struct {
	Status string  `tfsdk:"status"`
	Note   *string `tfsdk:"note"`
}

type skuSupportModel struct {
	AKS        skuSupportEntryModel `tfsdk:"aks"`
	AzureML    skuSupportEntryModel `tfsdk:"azureml"`
	CycleCloud skuSupportEntryModel `tfsdk:"cyclecloud"`
	Batch      skuSupportEntryModel `tfsdk:"batch"`
}

type skuImageModel struct {
	URN         *string `tfsdk:"urn"`
	OS          string  `tfsdk:"os"`
	CUDAToolkit *string `tfsdk:"cuda_toolkit"`
	Driver      *string `tfsdk:"driver"`
	ROCm        *string `tfsdk:"rocm"`
	Source      string  `tfsdk:"source"`
}

type skuPriceModel struct {
	Region         string   `tfsdk:"region"`
	USDPerHour     float64  `tfsdk:"usd_per_hour"`
	SpotUSDPerHour *float64 `tfsdk:"spot_usd_per_hour"`
	SnapshotDate   string   `tfsdk:"snapshot_date"`
	Source         string   `tfsdk:"source"`
	SpotSource     *string  `tfsdk:"spot_source"`
}

type skuPerformanceModel struct {
	GPU *skuGPUPerformanceModel `tfsdk:"gpu"`
	CPU *skuCPUPerformanceModel `tfsdk:"cpu"`
}

type skuGPUPerformanceModel struct {
	FP64TFLOPS         *float64            `tfsdk:"fp64_tflops"`
	FP64TensorTFLOPS   *float64            `tfsdk:"fp64_tensor_tflops"`
	FP32TFLOPS         *float64            `tfsdk:"fp32_tflops"`
	TF32TFLOPS         *float64            `tfsdk:"tf32_tflops"`
	BF16TFLOPS         *float64            `tfsdk:"bf16_tflops"`
	FP16TFLOPS         *float64            `tfsdk:"fp16_tflops"`
	FP8TFLOPS          *float64            `tfsdk:"fp8_tflops"`
	FP4TFLOPS          *float64            `tfsdk:"fp4_tflops"`
	INT8TOPS           *float64            `tfsdk:"int8_tops"`
	MemoryBandwidthGBs *float64            `tfsdk:"memory_bandwidth_gbs"`
	NVLinkGBsPerGPU    *float64            `tfsdk:"nvlink_gbs_per_gpu"`
	UsableMemoryGiB    *float64            `tfsdk:"usable_memory_gib"`
	TrainingMFU        *float64            `tfsdk:"training_mfu"`
	TrainingMFUByKind  map[string]float64  `tfsdk:"training_mfu_by_kind"`
	Sources            map[string][]string `tfsdk:"sources"`
	Decisions          []string            `tfsdk:"decisions"`
	Notes              *string             `tfsdk:"notes"`
}

type skuCPUPerformanceModel struct {
	CPUModel        *string             `tfsdk:"cpu_model"`
	Cores           *int64              `tfsdk:"cores"`
	BaseGHz         *float64            `tfsdk:"base_ghz"`
	MaxBoostGHz     *float64            `tfsdk:"max_boost_ghz"`
	AllCoreGHz      *float64            `tfsdk:"all_core_ghz"`
	StreamGBs       *float64            `tfsdk:"stream_gbs"`
	StreamDerived   bool                `tfsdk:"stream_derived"`
	FP64PeakGFLOPS  *float64            `tfsdk:"fp64_peak_gflops"`
	FP64PeakDerived bool                `tfsdk:"fp64_peak_derived"`
	Sources         map[string][]string `tfsdk:"sources"`
	Decisions       []string            `tfsdk:"decisions"`
	Notes           *string             `tfsdk:"notes"`
}

func strAttr(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}
func int64Attr(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}
func float64Attr(desc string) schema.Float64Attribute {
	return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
}
func boolAttr(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
}
func strListAttr(desc string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
}

func supportEntryAttr(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed:            true,
		MarkdownDescription: desc,
		Attributes: map[string]schema.Attribute{
			"status": strAttr("`supported`, `unsupported` or `unknown`."),
			"note":   strAttr("What the sources say, or null."),
		},
	}
}

// fullRecordsAttribute is the `full_records` input of the data sources that
// return size summaries.
func fullRecordsAttribute(what string) schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true,
		MarkdownDescription: "When `true`, `sku_records` holds the full record of " + what + ", as `hpcsku_sku` returns it (performance with sources, support, image, prices, availability, notes). " +
			"Defaults to `false`: the summaries keep plans fast and state small, and `hpcsku_sku` looks up one size's full record.",
	}
}

// skuRecordsAttribute is the `sku_records` output that `full_records` fills.
//
// It is dynamic, not a map of the SKU object's type: the full record's type
// has 140 attributes, and Terraform and the framework build, walk and check
// a data source's whole schema type for every data source of a plan, null
// or not; that was a tenth of a plan of 100 recommendations (bench/README.md).
// The value, when set, is the map of full records all the same: references
// such as `sku_records["Standard_HB120rs_v3"].performance.cpu.stream_gbs`
// read it as before.
func skuRecordsAttribute(what string) schema.DynamicAttribute {
	return schema.DynamicAttribute{
		Computed:            true,
		MarkdownDescription: "With `full_records = true`, the full record of " + what + ": a map keyed by size name whose values have the shape `hpcsku_sku` returns in its `sku`. Null otherwise.",
	}
}

// skuRecordsValue is `sku_records`: records (a map of full records) when
// full is true, else null.
func skuRecordsValue(full bool, records func() (types.Map, diag.Diagnostics)) (types.Dynamic, diag.Diagnostics) {
	if !full {
		return types.DynamicNull(), nil
	}
	m, diags := records()
	return types.DynamicValue(m), diags
}

// skuAttributes is the schema of the SKU object.
func skuAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":       strAttr("The Azure size name, ready for `size`, `sku` and `vm_size` arguments, for example `Standard_ND96isr_H100_v5`."),
		"series":     strAttr("The series, for example `ND-H100-v5`."),
		"family":     strAttr("The family, for example `ND`, `NC`, `NV`, `HB`, `HX`, `E` or `F`."),
		"category":   strAttr("`gpu`, `hpc` or `cpu`."),
		"vcpus":      int64Attr("vCPUs (cores on HPC sizes, which run without SMT). Null where no source gives it."),
		"memory_gib": float64Attr("Memory in GiB as the size's documentation gives it. Null where no source gives it."),
		"memory_gib_allotted": float64Attr("Memory in GiB that the Resource SKUs API reports the VM is allotted, where it differs from the documented `memory_gib` " +
			"(for example 1,800 for `Standard_ND96amsr_A100_v4`, documented as 1,900); null where the API gives the documented figure or no source was found. " +
			"`hpcsku_recommendation` fits memory to the smaller of the two."),
		"quota_vcpus": int64Attr("vCPUs that one VM counts against the subscription's vCPU quota. For a constrained-core size " +
			"(for example `Standard_HB120-16rs_v3`) this is its parent's count, while `vcpus` is the active cores; otherwise it equals `vcpus`. Null where no source gives it."),
		"deployable": boolAttr("`false` for the few sizes that no deployable list names (the Resource SKUs API, AKS's GPU list and the price snapshot): " +
			"they appear in documentation only and `hpcsku_recommendation` leaves them out under the `deployable` constraint."),
		"on_request": boolAttr("`true` for a size Azure offers on request: other lists name it (AKS's GPU registry, the retail price data) but no public list of the Resource SKUs API does, " +
			"so a subscription has it only once Azure grants it; `hpcsku_recommendation` leaves it out under the `on_request` constraint unless `include_on_request` is set."),
		"temp_disk_gib":  int64Attr("Temporary disk in GiB. Null where no source gives it."),
		"local_nvme_gib": int64Attr("Local NVMe capacity in GiB beyond the temporary disk, or null when there is none."),
		"cpu_model":      strAttr("The host CPU, as the docs name it."),
		"arch":           strAttr("Host architecture: `x86_64` or `arm64`."),
		"gpu": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The GPUs of the size; null for CPU and HPC sizes.",
			Attributes: map[string]schema.Attribute{
				"count":              float64Attr("GPUs per VM; fractional for partitioned GPUs (`0.25` is a quarter of one GPU). Zero where the sources give no count."),
				"count_text":         strAttr("The GPU count as the docs print it, for example `1/4`."),
				"model_id":           strAttr("Catalog identifier of the GPU model, for example `h100-sxm-80gb`; use it in `gpu_models` filters."),
				"model":              strAttr("GPU model name, for example `NVIDIA H100 80GB SXM`."),
				"vendor":             strAttr("`nvidia` or `amd`."),
				"architecture":       strAttr("GPU architecture, for example `Hopper` or `CDNA3`."),
				"memory_gib":         float64Attr("GPU memory per GPU in GiB; for a partial GPU, the memory of its slice."),
				"memory_gib_total":   float64Attr("GPU memory of the whole VM in GiB."),
				"interconnect":       strAttr("GPU interconnect, for example `NVLink 4.0` or `PCIe`."),
				"compute_capability": strAttr("NVIDIA compute capability, for example `9.0`; null for AMD."),
				"gfx_target":         strAttr("AMD LLVM target, for example `gfx942`; null for NVIDIA."),
				"min_cuda":           strAttr("Oldest CUDA toolkit that supports the GPU; null for AMD."),
				"max_cuda_major":     int64Attr("Newest CUDA major version that still supports the GPU (for example `12` for V100, which CUDA 13 dropped); null for AMD."),
				"min_rocm":           strAttr("Oldest ROCm release that supports the GPU, where known."),
				"precisions":         strListAttr("Precisions the GPU runs natively, from `fp64`, `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `fp4`, `int8`, `int4`."),
			},
		},
		"network": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Networking.",
			Attributes: map[string]schema.Attribute{
				"accelerated_networking": boolAttr("Whether accelerated networking is supported; null where the sources do not say."),
				"rdma":                   boolAttr("Whether the size has an RDMA (InfiniBand) back-end network."),
				"infiniband":             strAttr("InfiniBand generation: `FDR`, `EDR`, `HDR`, `NDR` or `XDR`; null without RDMA."),
				"infiniband_gbps":        int64Attr("InfiniBand bandwidth per VM in Gb/s, all ports added up; null without RDMA."),
				"infiniband_ports":       int64Attr("InfiniBand ports per VM; null without RDMA."),
				"ethernet_mbps":          int64Attr("Expected Ethernet bandwidth in Mb/s; null where the sources do not say."),
			},
		},
		"hyperv_generations": strListAttr("Hyper-V generations the size supports (`1`, `2`); empty where unknown."),
		"confidential":       boolAttr("Whether this is a confidential-computing size."),
		"isolated":           boolAttr("Whether the size is isolated to one customer's hardware."),
		"premium_storage":    boolAttr("Whether Premium Storage is supported; null where the sources do not say."),
		"max_data_disks":     int64Attr("Maximum data disks; null where the sources do not say."),
		"max_nics":           int64Attr("Maximum NICs; null where the sources do not say."),
		"lifecycle": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Where the size stands in its life.",
			Attributes: map[string]schema.Attribute{
				"status":             strAttr("Status at the provider's `as_of` date: `ga`, `preview`, `retiring` or `retired`. The retirement date decides (catalog decision D83): a size is `retired` from its date on, and `retiring` before it, also when the catalog records it as retired."),
				"catalog_status":     strAttr("Status as recorded in the catalog, before applying the `as_of` date."),
				"announced_date":     strAttr("When the retirement was announced (`YYYY-MM-DD`), or null."),
				"retirement_date":    strAttr("The retirement date (`YYYY-MM-DD`), or null when none is announced."),
				"replacement_series": strListAttr("Replacement series named by the retirement or migration guidance."),
				"replacement_sizes":  strListAttr("Replacement sizes, matched on GPU share or core count."),
				"note":               strAttr("Notes on the lifecycle, such as regional extensions or conflicting dates."),
			},
		},
		"support": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Orchestrator and service support.",
			Attributes: map[string]schema.Attribute{
				"aks":        supportEntryAttr("AKS node pools."),
				"azureml":    supportEntryAttr("Azure Machine Learning compute."),
				"cyclecloud": supportEntryAttr("Azure CycleCloud (Slurm and other schedulers)."),
				"batch":      supportEntryAttr("Azure Batch pools."),
			},
		},
		"image": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The recommended Azure HPC/AI image, or null where none is documented for the series.",
			Attributes: map[string]schema.Attribute{
				"urn":          strAttr("Marketplace URN (`publisher:offer:sku:version`), or null where the image has none."),
				"os":           strAttr("Operating system."),
				"cuda_toolkit": strAttr("CUDA toolkit in the image, or null."),
				"driver":       strAttr("GPU driver in the image, or null."),
				"rocm":         strAttr("ROCm release in the image, or null."),
				"source":       strAttr("Where the image facts come from."),
			},
		},
		"price": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Linux pay-as-you-go price in the requested `region`; null when no region is requested or the size is not priced there.",
			Attributes: map[string]schema.Attribute{
				"region":            strAttr("The region."),
				"usd_per_hour":      float64Attr("On-demand USD per hour for one VM."),
				"spot_usd_per_hour": float64Attr("Spot USD per hour, or null where unknown: the provider's `prices_file` spot price where it gives one, otherwise an estimate (see `spot_source`)."),
				"snapshot_date":     strAttr("Date of the price snapshot; for a price from the provider's `prices_file`, the file's modification date."),
				"source":            strAttr("Where the price comes from: `embedded snapshot of <date>`, or `prices file <path> (<format>)` when the provider's `prices_file` prices the size in this region."),
				"spot_source":       strAttr("Where the spot price comes from (the prices file, or how the estimate was made), or null."),
			},
		},
		"priced_regions": strListAttr("Regions where the catalog has a price for the size (a size not priced in a region is usually not offered there)."),
		"availability":   skuAvailabilityAttribute(),
		"performance":    skuPerformanceAttribute(),
		"sources":        strListAttr("Sources of the size's facts, as `repository:path@commit` or a page name."),
		"decisions":      strListAttr("Identifiers of recorded decisions between disagreeing sources that apply to this size; see the catalog's decisions list."),
		"notes":          strAttr("Notes from the sources."),
	}
}

// figureSourcesAttr is a performance object's sources: one list per figure.
func figureSourcesAttr(desc string) schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.ListType{ElemType: types.StringType}, MarkdownDescription: desc}
}

// skuPerformanceAttribute is the schema of the SKU object's performance.
func skuPerformanceAttribute() schema.SingleNestedAttribute {
	// tensor describes a dense tensor-core figure; vector an FP64 or FP32
	// figure of the vector units, which have no sparse mode.
	tensor := func(precision string) schema.Float64Attribute {
		return float64Attr("Dense " + precision + " throughput of one GPU in TFLOPS: without 2:4 structured sparsity, so half the datasheet's figure where the datasheet gives only the sparse one. " +
			"Null where the GPU has no native " + precision + " path, or no source gives a figure known to be dense.")
	}
	vector := func(precision string) schema.Float64Attribute {
		return float64Attr(precision + " throughput of one GPU on its vector (non-tensor) units in TFLOPS. Null where no source gives it.")
	}
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "Performance facts: the throughput and memory bandwidth of the size's GPU model, per GPU, and the CPU performance of the VM. " +
			"Always set; its `gpu` and `cpu` are null where the catalog has no performance record for the size's GPU model or series, and each figure is null where no source gives it. " +
			"Every figure has its sources in the nested object's `sources`, keyed by the figure's name. Figures come from the catalog's performance table and can be corrected with the provider's `catalog_file`.",
		Attributes: map[string]schema.Attribute{
			"gpu": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "The GPU model's performance, per GPU: a whole GPU's figures, also for a size with a share of one (`gpu.count` below 1). Multiply by `gpu.count` for the VM. " +
					"Null for sizes without GPUs and where the catalog has no record for the GPU model.",
				Attributes: map[string]schema.Attribute{
					"fp64_tflops":          vector("FP64"),
					"fp64_tensor_tflops":   float64Attr("FP64 throughput of one GPU on its tensor cores (matrix cores on AMD) in TFLOPS. Null where the GPU has no FP64 tensor path or no source gives it."),
					"fp32_tflops":          vector("FP32"),
					"tf32_tflops":          tensor("TF32"),
					"bf16_tflops":          tensor("BF16"),
					"fp16_tflops":          tensor("FP16"),
					"fp8_tflops":           tensor("FP8"),
					"fp4_tflops":           tensor("FP4"),
					"int8_tops":            float64Attr("Dense INT8 throughput of one GPU in TOPS (without 2:4 structured sparsity). Null where the GPU has no native INT8 path, or no source gives a figure known to be dense."),
					"memory_bandwidth_gbs": float64Attr("Peak memory (HBM or GDDR) bandwidth of one GPU in GB/s. Null where no source gives it."),
					"nvlink_gbs_per_gpu": float64Attr("Bidirectional GPU-to-GPU link bandwidth of one GPU in GB/s: NVLink, or AMD Infinity Fabric on MI300X. " +
						"Null where the size's GPUs are not linked to each other (one GPU, PCIe only, or a bridge Azure does not document) or no source gives it."),
					"usable_memory_gib": float64Attr("Memory the driver reports for one whole GPU (`nvidia-smi` `memory.total`) in GiB, a little less than the nominal `gpu.memory_gib`; " +
						"CUDA allocations get slightly less again. Null where no public capture gives it: use the nominal memory."),
					"training_mfu": float64Attr("Model FLOPs utilization a training job keeps on this GPU model: the share of the dense peak that `hpcsku_recommendation` times training with. " +
						"Null where the catalog has no throughput figure for the GPU; the ranking then uses its figure for other GPUs."),
					"training_mfu_by_kind": schema.MapAttribute{Computed: true, ElementType: types.Float64Type,
						MarkdownDescription: "The same for training `vision`, `diffusion` and `speech` models, keyed by kind, where the catalog gives a figure (fitted on published runs); null where it gives none, and a kind it does not list takes the ranking's figure for the kind."},
					"sources": figureSourcesAttr("Sources of each figure, keyed by the figure's attribute name (for example `bf16_tflops`); a null figure has no entry. " +
						"Each list holds `repository:path@commit` references or page URLs."),
					"decisions": strListAttr("Identifiers of recorded decisions that shaped these figures (for example how dense figures are derived from sparse ones); see the catalog's decisions list."),
					"notes":     strAttr("Notes on the figures, or null."),
				},
			},
			"cpu": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "The CPU performance of the VM (of the whole size, not per core). The catalog records one size of each CPU and HPC series; " +
					"a smaller size of the series scales memory bandwidth and FP64 peak with its vCPUs, and a constrained-core size (for example `Standard_HB176-24rs_v4`) " +
					"keeps its parent's memory bandwidth while its FP64 peak scales with its active cores. Null for GPU sizes and where the catalog has no record for the series.",
				Attributes: map[string]schema.Attribute{
					"cpu_model":     strAttr("The CPU the figures are for, as the series' performance record names it; null where it names none."),
					"cores":         int64Attr("Physical cores the VM runs on: the active cores of a constrained-core size, half the vCPUs where the series runs two threads per core. Null where the vCPU count is unknown or is not a whole number of cores."),
					"base_ghz":      float64Attr("Base clock in GHz; null where no source gives it."),
					"max_boost_ghz": float64Attr("Single-core maximum boost clock in GHz; null where no source gives it."),
					"all_core_ghz":  float64Attr("All-core boost clock in GHz as Microsoft states it; null where no source gives it."),
					"stream_gbs": float64Attr("STREAM Triad memory bandwidth of the VM in GB/s, as Microsoft publishes it for the series, scaled to the size as `performance.cpu` describes. " +
						"Where Microsoft publishes none, it is derived from the host's memory system, and `stream_derived` is true: the VM's cores' share of the host's peak (sockets x channels x MT/s x 8 bytes) " +
						"times " + strconv.FormatFloat(catalog.StreamPerPeakBandwidth, 'f', -1, 64) + ", the share STREAM reaches of the peak on the HPC hosts with both figures. Null where neither is known."),
					"stream_derived": boolAttr("Whether `stream_gbs` is derived from the host's memory system rather than published; `sources.stream_gbs` then starts with the calculation."),
					"fp64_peak_gflops": float64Attr("Theoretical FP64 peak of the VM in GFLOPS (HPL Rpeak). Where Microsoft publishes a peak, it is that figure scaled to the size's cores; " +
						"where it publishes none, it is derived as cores x all-core clock (the maximum boost where no other is stated) x FP64 operations per cycle of one core's vector units, and `fp64_peak_derived` is true. " +
						"Null where neither is possible."),
					"fp64_peak_derived": boolAttr("Whether `fp64_peak_gflops` is derived from cores, clock and FP64 operations per cycle rather than published; " +
						"`sources.fp64_peak_gflops` then starts with the calculation."),
					"sources": figureSourcesAttr("Sources of each figure, keyed by `cpu_model`, `cores`, `clocks` (for `base_ghz`, `max_boost_ghz` and `all_core_ghz`), `stream_gbs` and `fp64_peak_gflops`; " +
						"a null figure has no entry. Where a figure was scaled to the size or derived, its list starts with a sentence that says how (`scaled: ...` or `derived: ...`), followed by `repository:path@commit` references or page URLs."),
					"decisions": strListAttr("Identifiers of recorded decisions that shaped these figures (for example which STREAM figure where sources differ); see the catalog's decisions list."),
					"notes":     strAttr("Notes on the figures, or null."),
				},
			},
		},
	}
}

// skuObjectType is the type of the SKU object, built from its schema on
// first use.
var skuObjectType = sync.OnceValue(func() types.ObjectType {
	return types.ObjectType{AttrTypes: attributeTypes(skuAttributes())}
})

// skuFields names attributes of the SKU object and, for a nested object, the
// attributes of it to keep (nil keeps the whole attribute).
type skuFields map[string]skuFields

// skuSummaryFields is the SKU summary that each recommendation carries: the
// attributes a platform team reads to choose and deploy a size, with the
// names and nesting of the full record, so `sku.gpu.model` reads the same in
// both. The rest of the record (performance with sources, support, image,
// prices, availability, notes) is one `hpcsku_sku` lookup away, or in
// `sku_records` with `full_records = true`.
var skuSummaryFields = skuFields{
	"name": nil, "series": nil, "family": nil, "category": nil, "vcpus": nil, "memory_gib": nil, "arch": nil, "deployable": nil,
	"gpu":       {"count": nil, "model_id": nil, "model": nil, "vendor": nil, "memory_gib": nil, "memory_gib_total": nil},
	"network":   {"rdma": nil, "infiniband": nil, "infiniband_gbps": nil},
	"lifecycle": {"status": nil, "retirement_date": nil, "replacement_sizes": nil},
}

// skuCatalogSummaryFields is the summary of each size in `hpcsku_catalog`:
// the recommendation's summary and the price in the requested region.
var skuCatalogSummaryFields = func() skuFields {
	f := maps.Clone(skuSummaryFields)
	f["price"] = nil
	return f
}()

// projectAttributes is the schema of the SKU object restricted to fields.
func projectAttributes(attrs map[string]schema.Attribute, fields skuFields) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(fields))
	for name, sub := range fields {
		a := attrs[name]
		if nested, ok := a.(schema.SingleNestedAttribute); ok && sub != nil {
			nested.Attributes = projectAttributes(nested.Attributes, sub)
			a = nested
		}
		out[name] = a
	}
	return out
}

// projectObject restricts a SKU object (or a nested object of it) to fields;
// typ is the restricted type.
func projectObject(obj types.Object, typ types.ObjectType, fields skuFields) (types.Object, diag.Diagnostics) {
	if obj.IsNull() {
		return types.ObjectNull(typ.AttrTypes), nil
	}
	var diags diag.Diagnostics
	attrs := obj.Attributes()
	out := make(map[string]attr.Value, len(fields))
	for name, sub := range fields {
		v := attrs[name]
		if sub != nil {
			nested, ok := v.(types.Object)
			nestedType, typeOK := typ.AttrTypes[name].(types.ObjectType)
			if !ok || !typeOK {
				diags.AddError("SKU Summary Error", "Attribute "+name+" of the size record is not an object. This is a bug in the provider; please report it.")
				return types.ObjectNull(typ.AttrTypes), diags
			}
			var d diag.Diagnostics
			v, d = projectObject(nested, nestedType, sub)
			diags.Append(d...)
		}
		out[name] = v
	}
	res, d := types.ObjectValue(typ.AttrTypes, out)
	diags.Append(d...)
	return res, diags
}

// skuSummaryType and skuCatalogSummaryType are the types of the two summaries.
var (
	skuSummaryType = sync.OnceValue(func() types.ObjectType {
		return types.ObjectType{AttrTypes: attributeTypes(projectAttributes(skuAttributes(), skuSummaryFields))}
	})
	skuCatalogSummaryType = sync.OnceValue(func() types.ObjectType {
		return types.ObjectType{AttrTypes: attributeTypes(projectAttributes(skuAttributes(), skuCatalogSummaryFields))}
	})
)

// attributeTypes are the value types of a nested attribute's attributes.
func attributeTypes(attrs map[string]schema.Attribute) map[string]attr.Type {
	m := make(map[string]attr.Type, len(attrs))
	for name, a := range attrs {
		m[name] = a.GetType()
	}
	return m
}

// strPtr is nil (null) for an empty string, which the catalog uses for
// "not given".
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilMap(m map[string][]string) map[string][]string {
	if m == nil {
		return map[string][]string{}
	}
	return m
}

// newSKUModel converts a catalog size; region selects the price shown.
func newSKUModel(s *catalog.SKU, region string, asOf time.Time) skuModel {
	m := skuModel{
		Name: s.Name, Series: s.Series, Family: s.Family, Category: s.Category,
		VCPUs: s.VCPUs, MemoryGiB: s.MemoryGiB, MemoryGiBAllotted: s.MemoryGiBAllotted, QuotaVCPUs: s.QuotaVCPUCount(), Deployable: s.Deployable, OnRequest: s.OnRequest,
		TempDiskGiB: s.TempDiskGiB, LocalNVMeGiB: s.LocalNVMeGiB,
		CPUModel: strPtr(s.CPUModel), Arch: s.Arch,
		HyperVGenerations: nonNil(s.HyperVGenerations),
		Confidential:      s.Confidential, Isolated: s.Isolated, PremiumStorage: s.PremiumStorage,
		MaxDataDisks: s.MaxDataDisks, MaxNICs: s.MaxNICs,
		Sources: nonNil(s.Sources), Decisions: nonNil(s.Decisions), Notes: strPtr(s.Notes),
	}
	if g := s.GPU; g != nil {
		gm := &skuGPUModel{
			Count: g.Count, CountText: g.CountText, ModelID: g.ModelID, Model: g.Model, Vendor: g.Vendor,
			Architecture: g.Architecture, Interconnect: g.Interconnect,
			ComputeCapability: strPtr(g.ComputeCapability), GfxTarget: strPtr(g.GfxTarget),
			MinCUDA: strPtr(g.MinCUDA), MinROCm: strPtr(g.MinROCm), Precisions: nonNil(g.Precisions),
		}
		if g.MemoryGiB > 0 {
			mem, total := g.MemoryGiB, g.MemoryGiBTotal
			gm.MemoryGiB, gm.MemoryGiBTotal = &mem, &total
		}
		if g.MaxCUDAMajor > 0 {
			v := g.MaxCUDAMajor
			gm.MaxCUDAMajor = &v
		}
		m.GPU = gm
	}
	n := s.Network
	m.Network = skuNetworkModel{AcceleratedNetworking: n.AcceleratedNetworking, RDMA: n.RDMA, EthernetMbps: n.EthernetMbps}
	if n.InfiniBand != "" {
		ib, gbps, ports := n.InfiniBand, n.InfiniBandGbps, n.InfiniBandPorts
		m.Network.InfiniBand, m.Network.InfiniBandGbps, m.Network.InfiniBandPorts = &ib, &gbps, &ports
	}
	lc := s.Lifecycle
	m.Lifecycle = skuLifecycleModel{
		Status: s.StatusAt(asOf), CatalogStatus: lc.Status,
		AnnouncedDate: strPtr(lc.AnnouncedDate), RetirementDate: strPtr(lc.RetirementDate),
		ReplacementSeries: nonNil(lc.ReplacementSeries), ReplacementSizes: nonNil(lc.ReplacementSizes),
		Note: strPtr(lc.Note),
	}
	entry := func(e catalog.SupportEntry) skuSupportEntryModel {
		return skuSupportEntryModel{Status: e.Status, Note: strPtr(e.Note)}
	}
	m.Support = skuSupportModel{AKS: entry(s.Support.AKS), AzureML: entry(s.Support.AzureML), CycleCloud: entry(s.Support.CycleCloud), Batch: entry(s.Support.Batch)}
	if im := s.Image; im != nil {
		m.Image = &skuImageModel{URN: strPtr(im.URN), OS: im.OS, CUDAToolkit: strPtr(im.CUDAToolkit), Driver: strPtr(im.Driver), ROCm: strPtr(im.ROCm), Source: im.Source}
	}
	if p, ok := s.Prices[region]; ok && region != "" {
		m.Price = &skuPriceModel{Region: p.Region, USDPerHour: p.USDPerHour, SpotUSDPerHour: p.SpotUSDPerHour, SnapshotDate: p.SnapshotDate, Source: p.Source, SpotSource: strPtr(p.SpotSource)}
	}
	m.PricedRegions = make([]string, 0, len(s.Prices))
	for r := range s.Prices {
		m.PricedRegions = append(m.PricedRegions, r)
	}
	sort.Strings(m.PricedRegions)
	m.Availability = newSKUAvailabilityModel(s, region, asOf)
	m.Performance = newSKUPerformanceModel(s.Performance)
	return m
}

// newSKUPerformanceModel converts a size's performance facts.
func newSKUPerformanceModel(p catalog.Performance) skuPerformanceModel {
	var m skuPerformanceModel
	if g := p.GPU; g != nil {
		m.GPU = &skuGPUPerformanceModel{
			FP64TFLOPS: g.FP64TFLOPS, FP64TensorTFLOPS: g.FP64TensorTFLOPS, FP32TFLOPS: g.FP32TFLOPS,
			TF32TFLOPS: g.TF32TFLOPS, BF16TFLOPS: g.BF16TFLOPS, FP16TFLOPS: g.FP16TFLOPS, FP8TFLOPS: g.FP8TFLOPS,
			FP4TFLOPS: g.FP4TFLOPS, INT8TOPS: g.INT8TOPS, MemoryBandwidthGBs: g.MemoryBandwidthGBs,
			NVLinkGBsPerGPU: g.NVLinkGBsPerGPU, UsableMemoryGiB: g.UsableMemoryGiB, TrainingMFU: g.TrainingMFU, TrainingMFUByKind: g.TrainingMFUByKind,
			Sources: nonNilMap(g.Sources), Decisions: nonNil(g.Decisions), Notes: strPtr(g.Notes),
		}
	}
	if c := p.CPU; c != nil {
		m.CPU = &skuCPUPerformanceModel{
			CPUModel: strPtr(c.CPUModel), Cores: c.Cores,
			BaseGHz: c.BaseGHz, MaxBoostGHz: c.MaxBoostGHz, AllCoreGHz: c.AllCoreGHz,
			StreamGBs: c.StreamGBs, StreamDerived: c.StreamDerived, FP64PeakGFLOPS: c.FP64PeakGFLOPS, FP64PeakDerived: c.FP64PeakDerived,
			Sources: nonNilMap(c.Sources), Decisions: nonNil(c.Decisions), Notes: strPtr(c.Notes),
		}
	}
	return m
}

// skuObjects memoizes SKU objects for one catalog, by size, price region
// and date. Converting a size through the framework's reflection
// (types.ObjectValueFrom) costs about 0.5 ms and 8,000 allocations, and a
// plan reads every data source in one provider process: a hundred
// recommendations return about 500 ranked sizes, but only about 60 distinct
// (size, region) pairs. The memo belongs to the configured provider
// (providerData) or to the functions (functionData), so it lives as long as
// the catalog it describes and is never shared with another catalog.
//
// The keys are naturally bounded: the regions are ones the catalog knows
// (data sources reject others, and the engine prices only in them), and a
// providerData has one date, so there is at most one object per size and
// region, plus one per size without a region (the functions' memo: one per
// size and day). That is still 144 sizes times 58 for the embedded catalog,
// about 8,400 objects of about 9 KB, so the memo is also capped: it is
// emptied when it holds skuObjectMemoSize objects, which bounds it at about
// 9 MB. A plan with a hundred recommendations needs about 60. Values are
// immutable and safe to share between concurrent reads, also after the
// memo dropped them.
type skuObjects struct {
	mu sync.RWMutex
	m  map[skuObjectKey]types.Object
}

const skuObjectMemoSize = 1024

type skuObjectKey struct {
	sku    *catalog.SKU
	region string
	asOf   int64 // Unix seconds
	view   skuView
}

// skuView is the shape of a SKU object: the full record or a summary.
type skuView int

const (
	skuFull skuView = iota
	skuSummary
	skuCatalogSummary
)

// object returns the full SKU object of s with the price of region ("" for
// none), judged at asOf, converting it on the first request.
func (c *skuObjects) object(ctx context.Context, s *catalog.SKU, region string, asOf time.Time) (types.Object, diag.Diagnostics) {
	return c.view(ctx, s, region, asOf, skuFull)
}

// view returns the SKU object of s in the shape v, memoized like object.
func (c *skuObjects) view(ctx context.Context, s *catalog.SKU, region string, asOf time.Time, v skuView) (types.Object, diag.Diagnostics) {
	key := skuObjectKey{sku: s, region: region, asOf: asOf.Unix(), view: v}
	c.mu.RLock()
	obj, ok := c.m[key]
	c.mu.RUnlock()
	if ok {
		return obj, nil
	}
	obj, diags := newSKUView(ctx, s, region, asOf, v)
	if diags.HasError() {
		return obj, diags
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= skuObjectMemoSize {
		c.m = map[skuObjectKey]types.Object{}
	}
	c.m[key] = obj
	c.mu.Unlock()
	return obj, diags
}

// newSKUObject converts a catalog size into the SKU object, without the memo.
//
// The model goes through terraformValue, not types.ObjectValueFrom: the
// framework's reflection parsed the record's 150 struct tags again for
// every size (0.5 ms each), a quarter of a plan's provider time when each
// new provider process converts the sizes it ranks.
func newSKUObject(ctx context.Context, s *catalog.SKU, region string, asOf time.Time) (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	null := types.ObjectNull(skuObjectType().AttrTypes)
	tv, err := terraformValue(ctx, skuTerraformType(), reflect.ValueOf(newSKUModel(s, region, asOf)))
	if err != nil {
		diags.AddError("Size Record Conversion Failed", "The provider could not convert the record of "+s.Name+". This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return null, diags
	}
	v, err := skuObjectType().ValueFromTerraform(ctx, tv)
	obj, ok := v.(types.Object)
	if err != nil || !ok {
		diags.AddError("Size Record Conversion Failed", fmt.Sprintf("The provider could not convert the record of %s (%T, %v). This is a bug in the provider; please report it.", s.Name, v, err))
		return null, diags
	}
	return obj, diags
}

// skuTerraformType is the SKU object's terraform-plugin-go type.
var skuTerraformType = sync.OnceValue(func() tftypes.Type { return skuObjectType().TerraformType(context.Background()) })

// newSKUView converts a catalog size into the SKU object of the shape v,
// without the memo: a summary is the full object projected onto its fields.
// The full object is not memoized on the way: most plans never ask for it,
// and the memo then holds only the small summaries.
func newSKUView(ctx context.Context, s *catalog.SKU, region string, asOf time.Time, v skuView) (types.Object, diag.Diagnostics) {
	full, diags := newSKUObject(ctx, s, region, asOf)
	fields := v.fields()
	switch {
	case diags.HasError():
		return types.ObjectNull(v.objectType().AttrTypes), diags
	case fields == nil:
		return full, diags
	}
	return projectObject(full, v.objectType(), fields)
}

// list converts sizes into a list of SKU objects of the shape v.
func (c *skuObjects) list(ctx context.Context, skus []*catalog.SKU, region string, asOf time.Time, v skuView) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := v.objectType()
	elems := make([]attr.Value, len(skus))
	for i, s := range skus {
		obj, d := c.view(ctx, s, region, asOf, v)
		diags.Append(d...)
		elems[i] = obj
	}
	if diags.HasError() {
		return types.ListNull(typ), diags
	}
	list, d := types.ListValue(typ, elems)
	diags.Append(d...)
	return list, diags
}

// records converts sizes into a map of full SKU objects keyed by size name.
func (c *skuObjects) records(ctx context.Context, skus []*catalog.SKU, region func(*catalog.SKU) string, asOf time.Time) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make(map[string]attr.Value, len(skus))
	for _, s := range skus {
		obj, d := c.object(ctx, s, region(s), asOf)
		diags.Append(d...)
		elems[s.Name] = obj
	}
	if diags.HasError() {
		return types.MapNull(skuObjectType()), diags
	}
	m, d := types.MapValue(skuObjectType(), elems)
	diags.Append(d...)
	return m, diags
}

// fields are the attributes of the shape v; nil for the full record.
func (v skuView) fields() skuFields {
	switch v {
	case skuSummary:
		return skuSummaryFields
	case skuCatalogSummary:
		return skuCatalogSummaryFields
	}
	return nil
}

// objectType is the type of a SKU object of the shape v.
func (v skuView) objectType() types.ObjectType {
	switch v {
	case skuSummary:
		return skuSummaryType()
	case skuCatalogSummary:
		return skuCatalogSummaryType()
	}
	return skuObjectType()
}
