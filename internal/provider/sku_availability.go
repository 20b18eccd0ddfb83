// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The SKU object's availability attribute: where a size can be deployed
// and where that knowledge comes from (the provider's availability_file, or
// the embedded price snapshot).

type skuAvailabilityModel struct {
	Source       string                `tfsdk:"source"`
	Available    *bool                 `tfsdk:"available"`
	Regions      []string              `tfsdk:"regions"`
	Zones        []string              `tfsdk:"zones"`
	Restrictions []skuRestrictionModel `tfsdk:"restrictions"`
	QuotaFamily  *string               `tfsdk:"quota_family"`
}

type skuRestrictionModel struct {
	Region     string   `tfsdk:"region"`
	Type       string   `tfsdk:"type"`
	ReasonCode string   `tfsdk:"reason_code"`
	Zones      []string `tfsdk:"zones"`
}

// skuAvailabilityAttribute is the schema of the SKU object's availability.
func skuAvailabilityAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "Where the size can be deployed, and where that knowledge comes from. Without the provider's `availability_file`, " +
			"a size is taken to be offered in the regions where the embedded price snapshot prices it; with one, the file decides, for the subscription it was exported from. " +
			"A size retired at the `as_of` date (`lifecycle.status` `retired`) cannot be deployed anywhere: Azure creates no VMs of it, so `available` is false, `regions` and `zones` are empty, " +
			"while `priced_regions` and `restrictions` still say where the price snapshot prices it and what the file reports. " +
			"See the [subscription data guide](../guides/subscription-data.md).",
		Attributes: map[string]schema.Attribute{
			"source": strAttr("Where availability comes from: `embedded price snapshot of <date>`, or `availability file <path>` when the provider's `availability_file` is set."),
			"available": boolAttr("Whether the size can be deployed in the region: `hpcsku_sku`'s or `hpcsku_catalog`'s `region`, or a recommendation's `region`. With an availability file, the file lists it there without a `Location` restriction; " +
				"otherwise the embedded snapshot prices it there. False for a size retired at the `as_of` date. Null without a region."),
			"regions": strListAttr("Every region where the size can be deployed, in the same sense as `available`, sorted; empty for a size retired at the `as_of` date."),
			"zones": strListAttr("Availability zones in the region (as for `available`) the subscription can deploy the size to: the region's zones minus those with a `Zone` restriction, sorted. " +
				"Empty without an availability file, without `region`, where the region has no zones, or where the size is not available."),
			"restrictions": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The availability file's restrictions on the size for the subscription: in the region (as for `available`) when there is one, otherwise in every region. " +
					"Empty without an availability file.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"region":      strAttr("The region the restriction applies to."),
					"type":        strAttr("`Location` (the size cannot be deployed in the region) or `Zone` (not in the listed zones)."),
					"reason_code": strAttr("Azure's reason, for example `NotAvailableForSubscription` or `QuotaId` (the subscription's offer type does not allow the size)."),
					"zones":       strListAttr("The restricted zones of a `Zone` restriction; empty for a `Location` restriction."),
				}},
			},
			"quota_family": strAttr("The size's vCPU quota family (the Resource SKUs API's `family`, for example `standardNDSH100v5Family`), which `az vm list-usage` reports and a quota increase request names: " +
				"the availability file's where it gives one, else the catalog's; null when neither knows it."),
		},
	}
}

// newSKUAvailabilityModel describes a size's availability on the day asOf;
// region is the region `available` and `zones` are about, or "".
func newSKUAvailabilityModel(s *catalog.SKU, region string, asOf time.Time) skuAvailabilityModel {
	region = strings.ToLower(region)
	m := skuAvailabilityModel{
		Source:       s.AvailabilitySource,
		Regions:      nonNil(s.DeployableRegions(asOf)),
		Zones:        []string{},
		Restrictions: []skuRestrictionModel{},
		QuotaFamily:  strPtr(s.QuotaFamily),
	}
	if region != "" {
		ok := s.DeployableIn(region, asOf)
		m.Available = &ok
		if ra, listed := s.AvailabilityIn(region); listed && ok {
			m.Zones = nonNil(ra.Zones)
		}
	}
	regions := make([]string, 0, len(s.Availability))
	for r := range s.Availability {
		if region == "" || r == region {
			regions = append(regions, r)
		}
	}
	sort.Strings(regions)
	for _, r := range regions {
		for _, x := range s.Availability[r].Restrictions {
			m.Restrictions = append(m.Restrictions, skuRestrictionModel{Region: r, Type: x.Type, ReasonCode: x.ReasonCode, Zones: nonNil(x.Zones)})
		}
	}
	return m
}
