// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// maxRetiresWithinMonths bounds the months argument (100 years), far beyond
// any announced retirement, so that the date arithmetic cannot overflow.
const maxRetiresWithinMonths = 1200

// retiresWithinMonths is the range of retires_within's months, with the
// engine's wording of a number out of range.
var retiresWithinMonths = recommend.NumberRange{Name: "months", Summary: "Invalid Month Count", MinInclusive: true, Max: maxRetiresWithinMonths, HasMax: true}

// newRetiresWithinFunction is provider::hpcsku::retires_within(name, months).
func newRetiresWithinFunction(p *hpcskuProvider) function.Function {
	return &sizeFunction{
		provider: p,
		name:     "retires_within",
		definition: function.Definition{
			Summary: "Whether an Azure VM size is retired or retires within a number of months.",
			MarkdownDescription: "Returns `true` when the size named `name` is already retired today (see `is_retired`), " +
				"or when its announced retirement date falls on or before the horizon: today's date in UTC plus `months` calendar months. " +
				"The horizon moves the month and keeps the day of the month; a day the target month lacks rolls over into the next month, " +
				"so 31 August plus 1 month is 1 October. " +
				"With `months = 0` it is the same as `is_retired`. " +
				"Returns `false` for a size with no announced retirement. " +
				"An unknown name fails the call with the closest names (\"did you mean\").\n\n" +
				"Use it in a `precondition`, `check` block or `variable` validation to keep sizes that retire before a cluster's planned end of life out of a configuration. " +
				"In a `variable` validation, Terraform 1.8 lets the condition refer only to the variable being validated, so `months` must be a literal there; " +
				"from Terraform 1.9 it may come from another variable.\n\n" +
				functionSettingsNote,
			Parameters: []function.Parameter{
				sizeNameParameter("Standard_HC44rs"),
				// A number, not an Int64Parameter: the framework reports a
				// fractional argument to an Int64Parameter as a provider bug
				// ("Unable to Convert Function Argument"), while
				// rangeValidator explains it.
				function.Float64Parameter{
					Name: "months",
					MarkdownDescription: "The horizon in whole calendar months from today, from `0` to `1200`. " +
						"A negative or fractional number fails the call.",
					AllowNullValue:     false,
					AllowUnknownValues: false,
					Validators: []function.Float64ParameterValidator{
						rangeValidator{r: retiresWithinMonths, whole: true},
					},
				},
			},
			Return: function.BoolReturn{},
		},
		result: func(ctx context.Context, s *catalog.SKU, args function.ArgumentsData) (any, *function.FuncError) {
			var months float64
			if err := args.GetArgument(ctx, 1, &months); err != nil {
				return nil, err
			}
			return s.RetiresWithin(p.functionToday(), int(months)), nil
		},
	}
}
