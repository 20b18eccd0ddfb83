// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// The provider's usage_files setting: per region, the subscription's vCPU
// usage and limits that `az vm list-usage` exports, read in Configure.

const usageFilesSetting = "usage_files"

// usageFilesAttribute is the setting's provider schema attribute.
func usageFilesAttribute() schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: types.StringType,
		MarkdownDescription: "Your subscription's vCPU quota: a map from an Azure region (`eastus`) to the path of the JSON that `az vm list-usage --location REGION -o json` prints for it. " +
			"With it, each `hpcsku_recommendation` recommendation reports its `quota` (the size's quota family, the vCPUs the layout needs, what the family and the region leave free, and whether that suffices). " +
			quotaRanking() + " `require_quota` removes the `insufficient` ones. " +
			"A training job scaled out for the default deadline uses at most the VMs the quota leaves. Spot layouts count against the region's low-priority vCPUs. " +
			"The quota family is the catalog's, or the `availability_file`'s where it gives one. A file that is not `az vm list-usage` output is an error naming the file. " + overlayPathNote,
		Validators: []validator.Map{
			mapvalidator.SizeAtLeast(1),
			mapvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
		},
	}
}

// quotaRanking says, as a sentence, how the ranking orders sizes by their
// quota status, for the descriptions of usage_files and of each
// recommendation's quota.
func quotaRanking() string {
	return fmt.Sprintf("Sizes whose quota is `sufficient` and those whose quota is `unknown` rank together, an unknown quota costing %g points of the score "+
		"(so a layout better by more than that still leads), and the `insufficient` ones after them, each with a warning naming the increase to request.",
		recommend.QuotaUnknownPenalty)
}

// loadUsageFiles reads the usage file of every region the setting names;
// nil when it is not set.
func loadUsageFiles(ctx context.Context, cat *catalog.Catalog, v types.Map, diags *diag.Diagnostics) map[string]*catalog.Usage {
	attr := path.Root(usageFilesSetting)
	switch {
	case v.IsNull():
		return nil
	case v.IsUnknown():
		diags.AddAttributeError(attr, "Usage Files Unknown",
			"The usage_files map must be known when the provider is configured. Use literal paths, variables or path.module, not attributes of resources that are not created yet.")
		return nil
	}
	files := map[string]types.String{}
	diags.Append(v.ElementsAs(ctx, &files, false)...)
	regions := make([]string, 0, len(files))
	for r := range files {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	out := make(map[string]*catalog.Usage, len(files))
	for _, key := range regions {
		at := attr.AtMapKey(key)
		region, ok := cat.Canonical(catalog.RegionName, key)
		if !ok {
			diags.AddAttributeError(at, "Unknown Region", cat.UnknownName(catalog.RegionName, key)+" usage_files maps each region to the file az vm list-usage --location REGION -o json wrote for it.")
			continue
		}
		f := files[key]
		if f.IsUnknown() || f.IsNull() {
			diags.AddAttributeError(at, "Usage File Path Unknown", "The usage file path of "+key+" must be known when the provider is configured.")
			continue
		}
		u, err := azureexport.LoadUsage(region, f.ValueString())
		if err != nil {
			addUsageFileError(diags, at, key, err)
			continue
		}
		if _, dup := out[region]; dup {
			diags.AddAttributeError(at, "Region Given Twice", fmt.Sprintf("usage_files names the region %s twice (as %q and in another spelling); give one file per region.", region, key))
			continue
		}
		out[region] = u
	}
	return out
}

// addUsageFileError reports a problem with the usage file of a region on
// its map entry, naming the file, the entry and the field.
func addUsageFileError(diags *diag.Diagnostics, at path.Path, region string, err error) {
	var fe *userfile.Error
	if !errors.As(err, &fe) {
		diags.AddAttributeError(at, "Invalid Usage File", fmt.Sprintf("The usage file of %s could not be used: %s", region, err))
		return
	}
	summary := "Invalid Usage File"
	if fe.Unreadable {
		summary = "Cannot Read Usage File"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The usage file %s of %s could not be used.\n\n", fe.File, region)
	if fe.Entry != "" {
		fmt.Fprintf(&b, "Entry: %s\n", fe.Entry)
	}
	if fe.Field != "" {
		fmt.Fprintf(&b, "Field: %s\n", fe.Field)
	}
	fmt.Fprintf(&b, "Problem: %s\n\nA usage file is what az vm list-usage --location %s -o json prints. Fix the file, or remove it from usage_files.", fe.Problem, region)
	diags.AddAttributeError(at, summary, b.String())
}
