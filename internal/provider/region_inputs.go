// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// regionsAttribute is hpcsku_recommendation's `regions`: the regions the
// job may run in, exclusive with `region`.
func regionsAttribute() schema.ListAttribute {
	return schema.ListAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "The Azure regions the job may run in (data residency, capacity), instead of one `region`. Each size is placed in the best of them that offers it: " +
			"with the provider's `availability_file`, only where the file lists it without a restriction for the subscription; with `usage_files`, where the quota suffices before where it is unknown or insufficient; with `spot = true`, where a spot price is known before where none is, before where Azure sells no Spot VMs of the size; then the cheapest. " +
			"Each recommendation's `region` names the region chosen. A size no listed region offers is removed (constraints `region` and `availability`). Conflicts with `region`.",
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
			listvalidator.ConflictsWith(path.MatchRoot("region")),
		},
	}
}

var _ validator.Float64 = needsRegion{}

// needsRegion requires region or regions next to a price cap: a cap
// compares the price where the size runs, which without either is its
// price in the region chosen for it among all that price it.
type needsRegion struct{}

func (needsRegion) Description(context.Context) string {
	return "Attribute \"region\" or \"regions\" must be specified"
}

func (v needsRegion) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (needsRegion) ValidateFloat64(ctx context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() {
		return
	}
	for _, name := range []string{"region", "regions"} {
		var v attr.Value
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &v)...)
		if v != nil && !v.IsNull() {
			return
		}
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Combination",
		fmt.Sprintf("Attribute \"region\" or \"regions\" must be specified when %q is specified: the cap compares the price where the size runs.", req.Path.String()))
}
