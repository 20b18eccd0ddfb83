// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

var _ validator.String = stringCheck{}

// stringCheck is a string validator made of a check that returns the
// problem's summary and detail, or "" and "" for a valid value. Null and
// unknown values are not checked.
type stringCheck struct {
	description, markdownDescription string
	check                            func(v string) (summary, detail string)
}

func (v stringCheck) Description(context.Context) string { return v.description }

func (v stringCheck) MarkdownDescription(context.Context) string { return v.markdownDescription }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if summary, detail := v.check(req.ConfigValue.ValueString()); summary != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// rfc3339DateValidator checks that a string is an RFC 3339 date or date-time.
func rfc3339DateValidator() validator.String {
	return stringCheck{
		description:         "value must be an RFC 3339 date (2026-01-01) or date-time (2026-01-01T00:00:00Z)",
		markdownDescription: "value must be an RFC 3339 date (`2026-01-01`) or date-time (`2026-01-01T00:00:00Z`)",
		check: func(v string) (string, string) {
			if _, err := parseRFC3339Date(v); err != nil {
				return "Invalid Date", invalidDateDetail(v)
			}
			return "", ""
		},
	}
}

// invalidDateDetail explains a value that is not an RFC 3339 date.
func invalidDateDetail(v string) string {
	return fmt.Sprintf("The value %q is not an RFC 3339 date. Use a date such as \"2026-01-01\" or a date-time such as \"2026-01-01T00:00:00Z\".", v)
}

// regexValidator checks that a string is a valid Go (RE2) regular
// expression, as the catalog's filters compile it.
func regexValidator() validator.String {
	return stringCheck{
		description:         "value must be a valid RE2 regular expression",
		markdownDescription: "value must be a valid [RE2](https://github.com/google/re2/wiki/Syntax) regular expression",
		check: func(v string) (string, string) {
			if _, fe := catalog.CompilePattern(v); fe != nil {
				return fe.Summary(), fe.Detail
			}
			return "", ""
		},
	}
}

var _ validator.Float64 = greaterThanValidator{}

// greaterThanValidator checks that a number is strictly greater than a bound
// and, when max is set (above 0), at most max
// (terraform-plugin-framework-validators has only inclusive lower bounds,
// and prints its bounds as 1000000.000000).
type greaterThanValidator struct{ min, max float64 }

// float64Positive checks that a number is greater than 0.
func float64Positive() validator.Float64 { return greaterThanValidator{min: 0} }

// float64PositiveAtMost checks that a number is greater than 0 and at most
// limit.
func float64PositiveAtMost(limit float64) validator.Float64 {
	return greaterThanValidator{min: 0, max: limit}
}

// plainNumber prints a number without an exponent (1000000, not 1e+06).
func plainNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (v greaterThanValidator) Description(context.Context) string {
	if v.max > 0 {
		return fmt.Sprintf("value must be greater than %s and at most %s", plainNumber(v.min), plainNumber(v.max))
	}
	return fmt.Sprintf("value must be greater than %s", plainNumber(v.min))
}

func (v greaterThanValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v greaterThanValidator) ValidateFloat64(ctx context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	f := req.ConfigValue.ValueFloat64()
	if !(f > v.min) {
		resp.Diagnostics.AddAttributeError(req.Path, "Value Out Of Range",
			fmt.Sprintf("Attribute %s %s, got: %s. Use a positive number.", req.Path, v.Description(ctx), plainNumber(f)))
		return
	}
	if v.max > 0 && f > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Value Out Of Range",
			fmt.Sprintf("Attribute %s %s, got: %s. Use a number of at most %s.", req.Path, v.Description(ctx), plainNumber(f), plainNumber(v.max)))
	}
}

var _ function.Float64ParameterValidator = numberRangeValidator{}

// numberRangeValidator checks a function's number argument against a lower
// bound (inclusive, or exclusive when minExclusive), an inclusive upper bound
// and, when whole is set, that it is a whole number. Bounds and values print
// as plain numbers (1200, not float64validator's 1200.000000, and 1000000,
// not 1e+06).
type numberRangeValidator struct {
	min, max     float64
	minExclusive bool
	whole        bool
}

func (v numberRangeValidator) Description(context.Context) string {
	kind := "a number"
	if v.whole {
		kind = "a whole number"
	}
	if v.minExclusive {
		return fmt.Sprintf("value must be %s greater than %s and at most %s", kind, plainNumber(v.min), plainNumber(v.max))
	}
	return fmt.Sprintf("value must be %s from %s to %s", kind, plainNumber(v.min), plainNumber(v.max))
}

func (v numberRangeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

// ValidateParameterFloat64 reports a value out of range or not whole. The
// message has no final period: Terraform adds one.
func (v numberRangeValidator) ValidateParameterFloat64(ctx context.Context, req function.Float64ParameterValidatorRequest, resp *function.Float64ParameterValidatorResponse) {
	if req.Value.IsNull() || req.Value.IsUnknown() {
		return
	}
	f := req.Value.ValueFloat64()
	low := f < v.min || (v.minExclusive && f == v.min)
	if low || f > v.max || (v.whole && f != math.Trunc(f)) {
		resp.Error = function.NewArgumentFuncError(req.ArgumentPosition,
			fmt.Sprintf("Invalid Parameter Value: %s, got: %s", v.Description(ctx), plainNumber(f)))
	}
}
