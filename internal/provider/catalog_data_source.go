// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

var (
	_ datasource.DataSource              = (*catalogDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*catalogDataSource)(nil)
)

// NewCatalogDataSource returns the hpcsku_catalog data source.
func NewCatalogDataSource() datasource.DataSource { return &catalogDataSource{} }

type catalogDataSource struct {
	data *providerData
}

type catalogDataSourceModel struct {
	Families        types.List    `tfsdk:"families"`
	Series          types.List    `tfsdk:"series"`
	Categories      types.List    `tfsdk:"categories"`
	GPUVendor       types.String  `tfsdk:"gpu_vendor"`
	GPUModels       types.List    `tfsdk:"gpu_models"`
	RDMA            types.Bool    `tfsdk:"rdma"`
	MinGPUs         types.Float64 `tfsdk:"min_gpus"`
	MinGPUMemoryGiB types.Float64 `tfsdk:"min_gpu_memory_gib"`
	Region          types.String  `tfsdk:"region"`
	IncludeRetired  types.Bool    `tfsdk:"include_retired"`
	IncludePreview  types.Bool    `tfsdk:"include_preview"`
	NameRegex       types.String  `tfsdk:"name_regex"`
	FullRecords     types.Bool    `tfsdk:"full_records"`
	CatalogVersion  types.String  `tfsdk:"catalog_version"`
	DataDate        types.String  `tfsdk:"data_date"`
	AsOf            types.String  `tfsdk:"as_of"`
	SKUs            types.List    `tfsdk:"skus"`
	SKURecords      types.Dynamic `tfsdk:"sku_records"`
}

func (d *catalogDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_catalog"
}

func nonEmptyStringList() []validator.List {
	return []validator.List{
		listvalidator.SizeAtLeast(1),
		listvalidator.UniqueValues(),
		listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
	}
}

func (d *catalogDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists Azure GPU, HPC and CPU sizes from the embedded catalog, filtered, ordered by name. " +
			"Every size comes as a summary (name, family, vCPUs, memory, GPU, InfiniBand, lifecycle, and the price when `region` is set); `full_records = true` adds each size's full record with its sources. " +
			"Retired sizes are left out unless `include_retired` is `true`.",
		Attributes: map[string]schema.Attribute{
			"families": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only sizes of these families, for example `[\"ND\", \"NC\"]` (case-insensitive). An unknown family is an error that lists the catalog's families.",
				Validators:          nonEmptyStringList(),
			},
			"series": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only sizes of these series, for example `[\"ND-H100-v5\", \"NCads_H100_v5\"]` (case-insensitive). An unknown series is an error that lists the catalog's series.",
				Validators:          nonEmptyStringList(),
			},
			"categories": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only sizes of these categories: `gpu`, `hpc`, `cpu`.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(oneOf(catalog.Categories()...)),
				},
			},
			"gpu_vendor": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only sizes with GPUs of this vendor: `nvidia` or `amd`.",
				Validators:          []validator.String{oneOf(catalog.Vendors()...)},
			},
			"gpu_models": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only sizes with one of these GPU models, by catalog identifier (`h100-sxm-80gb`) or name (`NVIDIA H100 80GB SXM`), case-insensitive. An unknown model is an error that lists the identifiers.",
				Validators:          nonEmptyStringList(),
			},
			"rdma": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "When `true`, only sizes with an RDMA (InfiniBand) network; when `false`, only sizes without one.",
			},
			"min_gpus": schema.Float64Attribute{
				Optional:            true,
				MarkdownDescription: "Only sizes with at least this many GPUs per VM; fractional values such as `0.5` count partial GPUs. Must be zero or more.",
				Validators:          []validator.Float64{float64validator.AtLeast(0)},
			},
			"min_gpu_memory_gib": schema.Float64Attribute{
				Optional:            true,
				MarkdownDescription: "Only sizes with at least this much GPU memory per VM, in GiB. Must be zero or more.",
				Validators:          []validator.Float64{float64validator.AtLeast(0)},
			},
			"region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only sizes available in this Azure region (for example `eastus`): priced there, or with the provider's `availability_file`, offered there to the subscription the file was exported from. " +
					"With `include_retired`, the retired sizes it lists are those the region offered; their `availability.available` is false. " +
					"Each size's `price` and `availability` then describe that region. An unknown region is an error that lists the regions the catalog knows.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"include_retired": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Include sizes retired at the provider's `as_of` date. Defaults to `false`.",
			},
			"include_preview": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Include preview sizes. Defaults to `true`.",
			},
			"name_regex": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only sizes whose name matches this RE2 regular expression, for example `_v5$`.",
				Validators:          []validator.String{regexValidator()},
			},
			"full_records": fullRecordsAttribute("each matching size"),
			"catalog_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Version of the embedded catalog.",
			},
			"data_date": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Date of the catalog's data (`YYYY-MM-DD`).",
			},
			"as_of": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The provider's `as_of` date used for lifecycle judgements (`YYYY-MM-DD`).",
			},
			"skus": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching sizes, ordered by name, each as a summary of its record: the attributes of `hpcsku_sku`'s `sku` listed here, with the same names, and `price` in the requested `region`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: projectAttributes(skuAttributes(), skuCatalogSummaryFields)},
			},
			"sku_records": skuRecordsAttribute("each matching size"),
		},
	}
}

func (d *catalogDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := configureData(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

// listStrings reads a list of strings; null or unknown gives nil.
func listStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

func (d *catalogDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	// A list of thousands of unknown names is one problem, not thousands of diagnostics.
	defer func() { resp.Diagnostics = limitDiagnostics(resp.Diagnostics) }()
	var cfg catalogDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The hpcsku provider was not configured before reading hpcsku_catalog. This is a bug in the provider; please report it.")
		return
	}
	cat := d.data.Catalog
	in := catalog.FilterInput{
		Filter: catalog.Filter{
			Families:        listStrings(ctx, cfg.Families, &resp.Diagnostics),
			Series:          listStrings(ctx, cfg.Series, &resp.Diagnostics),
			Categories:      listStrings(ctx, cfg.Categories, &resp.Diagnostics),
			GPUVendor:       cfg.GPUVendor.ValueString(),
			GPUModels:       listStrings(ctx, cfg.GPUModels, &resp.Diagnostics),
			RDMA:            boolPtr(cfg.RDMA),
			MinGPUs:         float64Ptr(cfg.MinGPUs),
			MinGPUMemoryGiB: float64Ptr(cfg.MinGPUMemoryGiB),
			Region:          cfg.Region.ValueString(),
			IncludeRetired:  cfg.IncludeRetired.ValueBool(),
			IncludePreview:  cfg.IncludePreview.IsNull() || cfg.IncludePreview.ValueBool(),
			AsOf:            d.data.AsOf,
		},
		NameRegex: cfg.NameRegex.ValueString(),
	}
	if resp.Diagnostics.HasError() {
		return
	}
	f, errs := catalog.ValidateFilter(cat, in)
	addCatalogErrors(&resp.Diagnostics, errs...)
	if resp.Diagnostics.HasError() {
		return
	}
	skus := cat.Filter(f)
	list, diags := d.data.skus.list(ctx, skus, f.Region, d.data.AsOf, skuCatalogSummary)
	resp.Diagnostics.Append(diags...)
	cfg.SKURecords, diags = skuRecordsValue(cfg.FullRecords.ValueBool(), func() (types.Map, diag.Diagnostics) {
		return d.data.skus.records(ctx, skus, func(*catalog.SKU) string { return f.Region }, d.data.AsOf)
	})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(skus) == 0 {
		resp.Diagnostics.AddWarning("No Sizes Match",
			"No size in the catalog passes every filter of this hpcsku_catalog data source, so skus is empty. Loosen a filter, or set include_retired = true to see retired sizes.")
	}
	cfg.CatalogVersion = types.StringValue(cat.Version)
	cfg.DataDate = types.StringValue(cat.DataDate.Format(catalog.DateLayout))
	cfg.AsOf = types.StringValue(d.data.AsOf.Format(catalog.DateLayout))
	cfg.SKUs = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
