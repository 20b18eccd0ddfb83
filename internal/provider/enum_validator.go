// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/helpers/validatordiag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

var (
	_ validator.String                  = enumValidator{}
	_ function.StringParameterValidator = enumValidator{}
)

// enumValidator is stringvalidator.OneOf with a suggestion: values stay
// case-sensitive, as Terraform's conventions have it, but a value in the
// wrong case or a near miss gets "Did you mean" with the value it likely
// meant (catalog.DidYouMean), after the same message OneOf gives.
type enumValidator struct{ values []string }

// oneOf checks that a string is one of the values.
func oneOf(values ...string) enumValidator { return enumValidator{values: values} }

func (v enumValidator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (v enumValidator) MarkdownDescription(context.Context) string {
	return fmt.Sprintf("value must be one of: %q", v.values)
}

func (v enumValidator) allowed(s string) bool {
	for _, a := range v.values {
		if a == s {
			return true
		}
	}
	return false
}

func (v enumValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || v.allowed(req.ConfigValue.ValueString()) {
		return
	}
	d := validatordiag.InvalidAttributeValueMatchDiagnostic(req.Path, v.Description(ctx), req.ConfigValue.String())
	resp.Diagnostics.AddAttributeError(req.Path, d.Summary(), d.Detail()+"."+catalog.DidYouMean(req.ConfigValue.ValueString(), v.values))
}

// ValidateParameterString reports a value that is not allowed. The message
// has no final period: Terraform adds one.
func (v enumValidator) ValidateParameterString(ctx context.Context, req function.StringParameterValidatorRequest, resp *function.StringParameterValidatorResponse) {
	if req.Value.IsNull() || req.Value.IsUnknown() || v.allowed(req.Value.ValueString()) {
		return
	}
	msg := fmt.Sprintf("Invalid Parameter Value Match: %s, got: %s", v.Description(ctx), req.Value.String())
	if s, ok := catalog.ClosestValue(req.Value.ValueString(), v.values); ok {
		msg += fmt.Sprintf("; did you mean %q", s)
	}
	resp.Error = function.NewArgumentFuncError(req.ArgumentPosition, msg)
}
