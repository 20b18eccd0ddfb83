// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
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

var (
	_ validator.Float64                  = rangeValidator{}
	_ validator.Int64                    = rangeValidator{}
	_ function.Float64ParameterValidator = rangeValidator{}
)

// rangeValidator checks a number against the engine's range for the input
// (recommend.NumberRange) and reports it in the engine's words, so that an
// attribute, a function argument and the engine's own validation give one
// message, naming a nested attribute by its path (model.parameters_billion). whole (function arguments only) also requires a whole number.
type rangeValidator struct {
	r     recommend.NumberRange
	whole bool
}

// inRange builds the validator of an input's engine range.
func inRange(r recommend.NumberRange) rangeValidator { return rangeValidator{r: r} }

// plainNumber prints a number without an exponent (1000000, not 1e+06).
func plainNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (v rangeValidator) Description(context.Context) string {
	if v.whole {
		return "value must be a whole number " + v.r.Bounds()
	}
	return "value must be " + v.r.Bounds()
}

func (v rangeValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v rangeValidator) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if f := req.ConfigValue.ValueFloat64(); !v.r.Contains(f) {
		resp.Diagnostics.AddAttributeError(req.Path, v.r.Summary, v.r.At(req.Path.String()).Message(plainNumber(f)))
	}
}

func (v rangeValidator) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if i := req.ConfigValue.ValueInt64(); !v.r.Contains(float64(i)) {
		resp.Diagnostics.AddAttributeError(req.Path, v.r.Summary, v.r.At(req.Path.String()).Message(strconv.FormatInt(i, 10)))
	}
}

// ValidateParameterFloat64 reports a value out of range or not whole. The
// message has no final period: Terraform adds one.
func (v rangeValidator) ValidateParameterFloat64(_ context.Context, req function.Float64ParameterValidatorRequest, resp *function.Float64ParameterValidatorResponse) {
	if req.Value.IsNull() || req.Value.IsUnknown() {
		return
	}
	f := req.Value.ValueFloat64()
	msg := ""
	switch {
	case !v.r.Contains(f):
		msg = v.r.Message(plainNumber(f))
	case v.whole && f != math.Trunc(f):
		msg = v.r.Name + " must be a whole number; got " + plainNumber(f) + "."
	default:
		return
	}
	resp.Error = function.NewArgumentFuncError(req.ArgumentPosition, v.r.Summary+": "+strings.TrimSuffix(msg, "."))
}
