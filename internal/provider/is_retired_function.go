// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// newIsRetiredFunction is provider::hpcsku::is_retired(name).
func newIsRetiredFunction(p *hpcskuProvider) function.Function {
	return &sizeFunction{
		provider: p,
		name:     "is_retired",
		definition: function.Definition{
			Summary: "Whether an Azure VM size is retired today.",
			MarkdownDescription: "Returns `true` when the size named `name` is retired at today's date in UTC: " +
				"its announced retirement date is today or earlier (catalog decision D83: the date decides). " +
				"Returns `false` for sizes in general availability or preview and for retiring sizes whose date is still ahead. " +
				"An unknown name fails the call with the closest names (\"did you mean\"). " +
				"It agrees with `hpcsku_sku.retired` when the provider's `as_of` is today.\n\n" +
				"Use it in a `precondition`, `check` block or `variable` validation to reject a retired size at plan time.\n\n" +
				functionSettingsNote,
			Parameters: []function.Parameter{
				sizeNameParameter("Standard_NC24rs_v3"),
			},
			Return: function.BoolReturn{},
		},
		result: func(_ context.Context, s *catalog.SKU, _ function.ArgumentsData) (any, *function.FuncError) {
			return s.RetiredAt(p.functionToday()), nil
		},
	}
}
