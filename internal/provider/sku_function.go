// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// newSKUFunction is provider::hpcsku::sku(name): the SKU object of one size.
func newSKUFunction(p *hpcskuProvider) function.Function {
	return &sizeFunction{
		provider: p,
		name:     "sku",
		definition: function.Definition{
			Summary: "Look up one Azure VM size and return every fact the catalog has about it.",
			MarkdownDescription: "Returns the size named `name` as an object with the same attributes as `hpcsku_sku.sku` (the full record; `hpcsku_catalog.skus` and each recommendation's `sku` are summaries of it): " +
				"GPU, CUDA, RDMA/InfiniBand, support, image and lifecycle facts, with their sources. " +
				"A function takes no region, so `price`, `availability.region` and `availability.available` are always null; " +
				"`priced_regions` and `availability.regions` list where the size is offered. " +
				"`lifecycle.status` is judged at today's date in UTC. " +
				"An unknown name fails the call with the closest names (\"did you mean\").\n\n" +
				"Use it where a data source cannot go, such as a `variable` validation or a `check` block, for example " +
				"`provider::hpcsku::sku(var.size).network.rdma`.\n\n" + functionSettingsNote,
			Parameters: []function.Parameter{
				sizeNameParameter("Standard_ND96isr_H100_v5"),
			},
			Return: function.ObjectReturn{AttributeTypes: skuObjectType().AttrTypes},
		},
		result: func(ctx context.Context, s *catalog.SKU, _ function.ArgumentsData) (any, *function.FuncError) {
			data, funcErr := p.functionState(ctx)
			if funcErr != nil {
				return nil, funcErr
			}
			obj, diags := data.skus.object(ctx, s, "", p.functionToday())
			if diags.HasError() {
				return nil, function.FuncErrorFromDiags(ctx, diags)
			}
			return obj, nil
		},
	}
}
