package provider

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
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
	AzureML    skuSupportEntryModel `tfsdk:"azure_ml"`
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

// skuAttributes is the schema of the SKU object.
func skuAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":           strAttr("The Azure size name, ready for `size`, `sku` and `vm_size` arguments, for example `Standard_ND96isr_H100_v5`."),
		"series":         strAttr("The series, for example `ND-H100-v5`."),
		"family":         strAttr("The family, for example `ND`, `NC`, `NV`, `HB`, `HX`, `E` or `F`."),
		"category":       strAttr("`gpu`, `hpc` or `cpu`."),
		"vcpus":          int64Attr("vCPUs (cores on HPC sizes, which run without SMT). Null where no source gives it."),
		"memory_gib":     float64Attr("Memory in GiB. Null where no source gives it."),
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
				"status":             strAttr("Status at the provider's `as_of` date: `ga`, `preview`, `retiring` or `retired` (a retiring size whose date has come is `retired`)."),
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
				"azure_ml":   supportEntryAttr("Azure Machine Learning compute."),
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
		"sources":        strListAttr("Sources of the size's facts, as `repository:path@commit` or a page name."),
		"decisions":      strListAttr("Identifiers of recorded decisions between disagreeing sources that apply to this size; see the catalog's decisions list."),
		"notes":          strAttr("Notes from the sources."),
	}
}

var skuObjectType = schema.SingleNestedAttribute{Attributes: skuAttributes()}.GetType().(basetypes.ObjectType)

// skuObjectTerraformType is skuObjectType as a terraform-plugin-go type.
var skuObjectTerraformType = skuObjectType.TerraformType(context.Background())

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

// newSKUModel converts a catalog size; region selects the price shown.
func newSKUModel(s *catalog.SKU, region string, asOf time.Time) skuModel {
	m := skuModel{
		Name: s.Name, Series: s.Series, Family: s.Family, Category: s.Category,
		VCPUs: s.VCPUs, MemoryGiB: s.MemoryGiB, TempDiskGiB: s.TempDiskGiB, LocalNVMeGiB: s.LocalNVMeGiB,
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
	m.Availability = newSKUAvailabilityModel(s, region)
	return m
}

// skuObjectValue converts a catalog size into the SKU object value. Results
// are memoized (see skuObjects): a plan reads every data source in one
// provider process, and their results share sizes.
func skuObjectValue(ctx context.Context, s *catalog.SKU, region string, asOf time.Time) (types.Object, diag.Diagnostics) {
	e, diags := skuObjectEntry(ctx, s, region, asOf)
	return e.obj, diags
}

// skuObjectTerraformValue is skuObjectValue as a terraform-plugin-go value,
// memoized as well: hpcsku_recommendation builds its state from these.
func skuObjectTerraformValue(ctx context.Context, s *catalog.SKU, region string, asOf time.Time) (tftypes.Value, diag.Diagnostics) {
	e, diags := skuObjectEntry(ctx, s, region, asOf)
	return e.tf, diags
}

type skuObjectCacheEntry struct {
	obj types.Object
	tf  tftypes.Value
}

func skuObjectEntry(ctx context.Context, s *catalog.SKU, region string, asOf time.Time) (skuObjectCacheEntry, diag.Diagnostics) {
	key := skuObjectKey{sku: s, region: region, asOf: asOf.Unix()}
	skuObjects.RLock()
	e, ok := skuObjects.m[key]
	skuObjects.RUnlock()
	if ok {
		return e, nil
	}
	obj, diags := newSKUModel(s, region, asOf).objectValue()
	if diags.HasError() {
		return skuObjectCacheEntry{obj: obj, tf: tftypes.NewValue(skuObjectTerraformType, nil)}, diags
	}
	tf, err := obj.ToTerraformValue(ctx)
	if err != nil {
		diags.AddError("SKU Conversion Failed", "The size "+s.Name+" could not be converted. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return skuObjectCacheEntry{obj: obj, tf: tftypes.NewValue(skuObjectTerraformType, nil)}, diags
	}
	e = skuObjectCacheEntry{obj: obj, tf: tf}
	skuObjects.Lock()
	if len(skuObjects.m) >= skuObjectCacheSize {
		clear(skuObjects.m)
	}
	skuObjects.m[key] = e
	skuObjects.Unlock()
	return e, diags
}

// skuListValue converts sizes into a list of SKU objects.
func skuListValue(ctx context.Context, skus []*catalog.SKU, region string, asOf time.Time) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, len(skus))
	for i, s := range skus {
		obj, d := skuObjectValue(ctx, s, region, asOf)
		diags.Append(d...)
		elems[i] = obj
	}
	if diags.HasError() {
		return types.ListNull(skuObjectType), diags
	}
	list, d := types.ListValue(skuObjectType, elems)
	diags.Append(d...)
	return list, diags
}

// skuObjects memoizes SKU object values by size, price region and date.
// Converting a size costs about 0.5 ms and 8,000 allocations through the
// framework's reflection (types.ObjectValueFrom), 20 µs built by hand
// (objectValue) and 45 ns from here (BenchmarkSKUObjectValue), so a plan
// with a hundred recommendations converts each size once. Values are immutable and safe to
// share between concurrent reads. The key holds the catalog's *SKU, so
// another catalog never sees these entries; the map is cleared when full,
// which bounds its memory at about skuObjectCacheSize objects.
var skuObjects = struct {
	sync.RWMutex
	m map[skuObjectKey]skuObjectCacheEntry
}{m: map[skuObjectKey]skuObjectCacheEntry{}}

const skuObjectCacheSize = 1024

type skuObjectKey struct {
	sku    *catalog.SKU
	region string
	asOf   int64
}

// objectValue builds the SKU object from the model by hand. It is the
// equivalent of types.ObjectValueFrom(ctx, skuObjectType.AttrTypes, m)
// (TestSKUObjectMatchesReflection checks that for every size) without the
// reflection, which dominated the cost of a read.
func (m skuModel) objectValue() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	object := func(typ attr.Type, attrs map[string]attr.Value) types.Object {
		ot := typ.(basetypes.ObjectType)
		v, d := types.ObjectValue(ot.AttrTypes, attrs)
		diags.Append(d...)
		return v
	}
	t := skuObjectType.AttrTypes
	gpu := types.ObjectNull(t["gpu"].(basetypes.ObjectType).AttrTypes)
	if g := m.GPU; g != nil {
		gpu = object(t["gpu"], map[string]attr.Value{
			"count":              types.Float64Value(g.Count),
			"count_text":         types.StringValue(g.CountText),
			"model_id":           types.StringValue(g.ModelID),
			"model":              types.StringValue(g.Model),
			"vendor":             types.StringValue(g.Vendor),
			"architecture":       types.StringValue(g.Architecture),
			"memory_gib":         types.Float64PointerValue(g.MemoryGiB),
			"memory_gib_total":   types.Float64PointerValue(g.MemoryGiBTotal),
			"interconnect":       types.StringValue(g.Interconnect),
			"compute_capability": types.StringPointerValue(g.ComputeCapability),
			"gfx_target":         types.StringPointerValue(g.GfxTarget),
			"min_cuda":           types.StringPointerValue(g.MinCUDA),
			"max_cuda_major":     types.Int64PointerValue(g.MaxCUDAMajor),
			"min_rocm":           types.StringPointerValue(g.MinROCm),
			"precisions":         stringListValue(g.Precisions),
		})
	}
	n := m.Network
	lc := m.Lifecycle
	supportType := t["support"].(basetypes.ObjectType).AttrTypes
	entry := func(e skuSupportEntryModel) attr.Value {
		return object(supportType["aks"], map[string]attr.Value{
			"status": types.StringValue(e.Status),
			"note":   types.StringPointerValue(e.Note),
		})
	}
	image := types.ObjectNull(t["image"].(basetypes.ObjectType).AttrTypes)
	if im := m.Image; im != nil {
		image = object(t["image"], map[string]attr.Value{
			"urn":          types.StringPointerValue(im.URN),
			"os":           types.StringValue(im.OS),
			"cuda_toolkit": types.StringPointerValue(im.CUDAToolkit),
			"driver":       types.StringPointerValue(im.Driver),
			"rocm":         types.StringPointerValue(im.ROCm),
			"source":       types.StringValue(im.Source),
		})
	}
	price := types.ObjectNull(t["price"].(basetypes.ObjectType).AttrTypes)
	if p := m.Price; p != nil {
		price = object(t["price"], map[string]attr.Value{
			"region":            types.StringValue(p.Region),
			"usd_per_hour":      types.Float64Value(p.USDPerHour),
			"spot_usd_per_hour": types.Float64PointerValue(p.SpotUSDPerHour),
			"snapshot_date":     types.StringValue(p.SnapshotDate),
			"source":            types.StringValue(p.Source),
			"spot_source":       types.StringPointerValue(p.SpotSource),
		})
	}
	availability, d := m.Availability.objectValue(t["availability"])
	diags.Append(d...)
	obj := object(skuObjectType, map[string]attr.Value{
		"name":           types.StringValue(m.Name),
		"series":         types.StringValue(m.Series),
		"family":         types.StringValue(m.Family),
		"category":       types.StringValue(m.Category),
		"vcpus":          types.Int64PointerValue(m.VCPUs),
		"memory_gib":     types.Float64PointerValue(m.MemoryGiB),
		"temp_disk_gib":  types.Int64PointerValue(m.TempDiskGiB),
		"local_nvme_gib": types.Int64PointerValue(m.LocalNVMeGiB),
		"cpu_model":      types.StringPointerValue(m.CPUModel),
		"arch":           types.StringValue(m.Arch),
		"gpu":            gpu,
		"network": object(t["network"], map[string]attr.Value{
			"accelerated_networking": types.BoolPointerValue(n.AcceleratedNetworking),
			"rdma":                   types.BoolValue(n.RDMA),
			"infiniband":             types.StringPointerValue(n.InfiniBand),
			"infiniband_gbps":        types.Int64PointerValue(n.InfiniBandGbps),
			"infiniband_ports":       types.Int64PointerValue(n.InfiniBandPorts),
			"ethernet_mbps":          types.Int64PointerValue(n.EthernetMbps),
		}),
		"hyperv_generations": stringListValue(m.HyperVGenerations),
		"confidential":       types.BoolValue(m.Confidential),
		"isolated":           types.BoolValue(m.Isolated),
		"premium_storage":    types.BoolPointerValue(m.PremiumStorage),
		"max_data_disks":     types.Int64PointerValue(m.MaxDataDisks),
		"max_nics":           types.Int64PointerValue(m.MaxNICs),
		"lifecycle": object(t["lifecycle"], map[string]attr.Value{
			"status":             types.StringValue(lc.Status),
			"catalog_status":     types.StringValue(lc.CatalogStatus),
			"announced_date":     types.StringPointerValue(lc.AnnouncedDate),
			"retirement_date":    types.StringPointerValue(lc.RetirementDate),
			"replacement_series": stringListValue(lc.ReplacementSeries),
			"replacement_sizes":  stringListValue(lc.ReplacementSizes),
			"note":               types.StringPointerValue(lc.Note),
		}),
		"support": object(t["support"], map[string]attr.Value{
			"aks":        entry(m.Support.AKS),
			"azure_ml":   entry(m.Support.AzureML),
			"cyclecloud": entry(m.Support.CycleCloud),
			"batch":      entry(m.Support.Batch),
		}),
		"image":          image,
		"price":          price,
		"priced_regions": stringListValue(m.PricedRegions),
		"availability":   availability,
		"sources":        stringListValue(m.Sources),
		"decisions":      stringListValue(m.Decisions),
		"notes":          types.StringPointerValue(m.Notes),
	})
	return obj, diags
}

// stringListValue converts a Go slice into a known list of strings (nil
// gives an empty list, as the reflection conversion of nonNil values does).
func stringListValue(values []string) types.List {
	elems := make([]attr.Value, len(values))
	for i, v := range values {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

var _ attr.Type = skuObjectType
