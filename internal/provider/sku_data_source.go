// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

var (
	_ datasource.DataSource              = (*skuDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*skuDataSource)(nil)
)

// NewSKUDataSource returns the hpcsku_sku data source.
func NewSKUDataSource() datasource.DataSource { return &skuDataSource{} }

type skuDataSource struct {
	data *providerData
}

type skuDataSourceModel struct {
	Name                types.String `tfsdk:"name"`
	Region              types.String `tfsdk:"region"`
	SKU                 types.Object `tfsdk:"sku"`
	Retired             types.Bool   `tfsdk:"retired"`
	DaysUntilRetirement types.Int64  `tfsdk:"days_until_retirement"`
	Replacements        types.List   `tfsdk:"replacements"`
	AsOf                types.String `tfsdk:"as_of"`
}

func (d *skuDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sku"
}

func (d *skuDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up one Azure size by name and returns every fact the catalog has about it, " +
			"with its retirement state at the provider's `as_of` date and its replacements. " +
			"Use it to check a size a configuration already pins. An unknown name is an error that suggests the closest names.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The size name, for example `Standard_ND96isr_H100_v5`. Case-insensitive; the `Standard_` prefix may be left out.",
				// An empty or blank name is the lookup's Missing Name error.
			},
			"region": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "An Azure region (for example `eastus`) whose price `sku.price` and availability `sku.availability` show. A size not available there is a warning. An unknown region is an error that lists the known regions.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"sku": schema.SingleNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The size's full record: the shape of `hpcsku_catalog`'s and `hpcsku_recommendation`'s `sku_records` entries, of which each `hpcsku_catalog.skus` entry and each recommendation's `sku` is a summary with the same attribute names.",
				Attributes:          skuAttributes(),
			},
			"retired": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the size is retired at the provider's `as_of` date.",
			},
			"days_until_retirement": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Days from the provider's `as_of` date to the retirement date (negative once past); null when no retirement is announced.",
			},
			"replacements": schema.ListAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Sizes to move to: the replacement sizes where the catalog names them, otherwise empty (see `sku.lifecycle.replacement_series`).",
			},
			"as_of": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The provider's `as_of` date used for the lifecycle judgements (`YYYY-MM-DD`).",
			},
		},
	}
}

func (d *skuDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := configureData(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

func (d *skuDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg skuDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The hpcsku provider was not configured before reading hpcsku_sku. This is a bug in the provider; please report it.")
		return
	}
	cat, asOf := d.data.Catalog, d.data.AsOf
	s, ok := cat.Lookup(cfg.Name.ValueString())
	if !ok {
		addCatalogErrors(&resp.Diagnostics, cat.UnknownNameError(catalog.SizeName, cfg.Name.ValueString(), "name"))
		return
	}
	region := ""
	if !cfg.Region.IsNull() {
		if region, ok = cat.Canonical(catalog.RegionName, cfg.Region.ValueString()); !ok {
			addCatalogErrors(&resp.Diagnostics, cat.UnknownNameError(catalog.RegionName, cfg.Region.ValueString(), "region"))
			return
		}
	}
	obj, diags := d.data.skus.object(ctx, s, region, asOf)
	resp.Diagnostics.Append(diags...)
	repl, diags := types.ListValueFrom(ctx, types.StringType, nonNil(s.Lifecycle.ReplacementSizes))
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg.SKU = obj
	cfg.Retired = types.BoolValue(s.RetiredAt(asOf))
	cfg.DaysUntilRetirement = types.Int64Null()
	if days, ok := s.DaysUntilRetirement(asOf); ok {
		cfg.DaysUntilRetirement = types.Int64Value(days)
	}
	cfg.Replacements = repl
	cfg.AsOf = types.StringValue(asOf.Format(catalog.DateLayout))
	if region != "" {
		if s.HasAvailability() {
			if w := notAvailableWarning(s, region, asOf); w != "" {
				resp.Diagnostics.AddAttributeWarning(path.Root("region"), "Size Not Available In Region", w)
			}
		} else if _, priced := s.Prices[region]; !priced {
			resp.Diagnostics.AddAttributeWarning(path.Root("region"), "Size Not Priced In Region",
				fmt.Sprintf("The catalog has no price for %s in %s, which usually means the size is not offered there. It is priced in: %s.", s.Name, region, strings.Join(regionsOf(s), ", ")))
		}
	}
	if w := retirementWarning(s, asOf); w != "" {
		summary := "VM Size Retiring"
		if s.RetiredAt(asOf) {
			summary = "VM Size Retired"
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("name"), summary, w)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// notAvailableWarning explains why the availability file says a size cannot
// be deployed in a region, or returns "" when it can; where else it can be
// deployed at asOf (nowhere once the size is retired).
func notAvailableWarning(s *catalog.SKU, region string, asOf time.Time) string {
	if s.AvailableIn(region) {
		return ""
	}
	where := "nowhere"
	if s.RetiredAt(asOf) {
		where = "nowhere: it is retired"
	} else if regions := s.AvailableRegions(); len(regions) > 0 {
		where = "in " + strings.Join(regions, ", ")
	}
	ra, listed := s.AvailabilityIn(region)
	if !listed {
		return fmt.Sprintf("The %s does not list %s in %s, so the subscription it was exported from is not offered the size there. It is available %s.", s.AvailabilitySource, s.Name, region, where)
	}
	r := ra.LocationRestriction()
	return fmt.Sprintf("The %s restricts %s in %s for the subscription it was exported from (%s restriction, reason code %s), so it cannot be deployed there. It is available %s.",
		s.AvailabilitySource, s.Name, region, r.Type, r.ReasonCode, where)
}

func regionsOf(s *catalog.SKU) []string {
	return newSKUModel(s, "", time.Time{}).PricedRegions
}

// retirementWarning describes a size that is retired at asOf or retires
// within catalog.RetirementWarningMonths of it, naming the date and what to
// move to; "" otherwise.
func retirementWarning(s *catalog.SKU, asOf time.Time) string {
	if !s.RetiresWithin(asOf, catalog.RetirementWarningMonths) {
		return ""
	}
	days, dated := s.DaysUntilRetirement(asOf)
	switch {
	case !dated:
		return fmt.Sprintf("%s is retired. %s", s.Name, s.ReplacementSentence(asOf))
	case days <= 0:
		return fmt.Sprintf("%s retired on %s. %s", s.Name, s.Lifecycle.RetirementDate, s.ReplacementSentence(asOf))
	}
	return fmt.Sprintf("%s retires on %s, in %d days. %s", s.Name, s.Lifecycle.RetirementDate, days, s.ReplacementSentence(asOf))
}
