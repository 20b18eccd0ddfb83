// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateConfig checks a data source's configuration against its schema as
// the framework's ValidateDataResourceConfig does: required attributes set,
// read-only ones unset, every attribute's validators, nested attributes
// within a set object, deprecation warnings; with the same messages. It
// reads each value straight from the configuration instead of resolving
// its path from the schema's root once per attribute, which made the
// framework's check of hpcsku_recommendation's inputs cost about as much as
// its read (bench/README.md).
//
// It handles the attribute kinds validatedFast accepts; the provider's
// server sends any other schema to the framework.
func validateConfig(ctx context.Context, config tfsdk.Config, attrs map[string]schema.Attribute) diag.Diagnostics {
	var diags diag.Diagnostics
	validateAttributes(ctx, config, path.Empty(), attrs, config.Raw, &diags)
	return diags
}

func validateAttributes(ctx context.Context, config tfsdk.Config, parent path.Path, attrs map[string]schema.Attribute, obj tftypes.Value, diags *diag.Diagnostics) {
	var vals map[string]tftypes.Value
	if err := obj.As(&vals); err != nil {
		diags.AddAttributeError(parent, "Configuration Not Decoded", "The configuration could not be read. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return
	}
	for name, a := range attrs {
		validateAttribute(ctx, config, parent.AtName(name), a, vals[name], diags)
	}
}

func validateAttribute(ctx context.Context, config tfsdk.Config, p path.Path, a schema.Attribute, v tftypes.Value, diags *diag.Diagnostics) {
	null, unknown := v.IsNull(), !v.IsKnown()
	if a.IsComputed() && !a.IsOptional() && !null {
		diags.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
			"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
	}
	if a.IsRequired() && null {
		diags.AddAttributeError(p, "Missing Configuration for Required Attribute",
			fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p.String())+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
	}
	value, err := a.GetType().ValueFromTerraform(ctx, v)
	if err != nil {
		// The framework's words, for a value its type refuses (0.5 for an
		// integer).
		diags.AddAttributeError(p, "Configuration Read Error",
			"An unexpected error was encountered trying to convert an attribute value from the configuration. "+
				"This is always an error in the provider. Please report the following to the provider developer:\n\nError: "+err.Error())
		return
	}
	diags.Append(runValidators(ctx, config, p, a, value)...)
	if nested, ok := a.(schema.SingleNestedAttribute); ok && !null && !unknown {
		validateAttributes(ctx, config, p, nested.Attributes, v, diags)
	}
	if msg := a.GetDeprecationMessage(); msg != "" && !null && !unknown {
		diags.AddAttributeWarning(p, "Attribute Deprecated", msg)
	}
}

// Each kind of attribute with validators, by the method the framework's
// schema types give them.
type (
	stringValidated  interface{ StringValidators() []validator.String }
	int64Validated   interface{ Int64Validators() []validator.Int64 }
	float64Validated interface{ Float64Validators() []validator.Float64 }
	boolValidated    interface{ BoolValidators() []validator.Bool }
	listValidated    interface{ ListValidators() []validator.List }
	objectValidated  interface{ ObjectValidators() []validator.Object }
)

// runValidators calls a's validators on value, a value of a's type.
func runValidators(ctx context.Context, config tfsdk.Config, p path.Path, a schema.Attribute, value attr.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	expr := p.Expression()
	switch a := a.(type) {
	case stringValidated:
		validateAs(p, value, &diags, a.StringValidators(), func(v validator.String, cv types.String) diag.Diagnostics {
			resp := &validator.StringResponse{}
			v.ValidateString(ctx, validator.StringRequest{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	case int64Validated:
		validateAs(p, value, &diags, a.Int64Validators(), func(v validator.Int64, cv types.Int64) diag.Diagnostics {
			resp := &validator.Int64Response{}
			v.ValidateInt64(ctx, validator.Int64Request{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	case float64Validated:
		validateAs(p, value, &diags, a.Float64Validators(), func(v validator.Float64, cv types.Float64) diag.Diagnostics {
			resp := &validator.Float64Response{}
			v.ValidateFloat64(ctx, validator.Float64Request{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	case boolValidated:
		validateAs(p, value, &diags, a.BoolValidators(), func(v validator.Bool, cv types.Bool) diag.Diagnostics {
			resp := &validator.BoolResponse{}
			v.ValidateBool(ctx, validator.BoolRequest{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	case listValidated:
		validateAs(p, value, &diags, a.ListValidators(), func(v validator.List, cv types.List) diag.Diagnostics {
			resp := &validator.ListResponse{}
			v.ValidateList(ctx, validator.ListRequest{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	case objectValidated:
		validateAs(p, value, &diags, a.ObjectValidators(), func(v validator.Object, cv types.Object) diag.Diagnostics {
			resp := &validator.ObjectResponse{}
			v.ValidateObject(ctx, validator.ObjectRequest{Config: config, ConfigValue: cv, Path: p, PathExpression: expr}, resp)
			return resp.Diagnostics
		})
	}
	return diags
}

// validateAs runs each validator of one kind on value, read as T, the value
// type of that kind.
func validateAs[T attr.Value, V any](p path.Path, value attr.Value, diags *diag.Diagnostics, validators []V, run func(V, T) diag.Diagnostics) {
	cv, ok := valueOf[T](p, value, diags)
	if !ok {
		return
	}
	for _, v := range validators {
		diags.Append(run(v, cv)...)
	}
}

// valueOf is value as T, the value type of its attribute's kind; an error
// when the schema gives the attribute a type of another kind.
func valueOf[T attr.Value](p path.Path, value attr.Value, diags *diag.Diagnostics) (T, bool) {
	v, ok := value.(T)
	if !ok {
		diags.AddAttributeError(p, "Invalid Value Type", fmt.Sprintf("The provider read a %T where its validators take a %T. This is a bug in the provider; please report it.", value, v))
	}
	return v, ok
}

// validatedFast reports whether validateConfig handles every attribute of
// attrs that a configuration can set: string, number, bool, list and
// single nested attributes of the framework's own types, without custom
// types (whose values may validate themselves) or write-only attributes.
// Read-only attributes of any kind are checked only for being unset.
func validatedFast(attrs map[string]schema.Attribute) bool {
	for _, a := range attrs {
		if !a.IsRequired() && !a.IsOptional() {
			continue
		}
		if a.IsWriteOnly() {
			return false
		}
		switch a := a.(type) {
		case schema.StringAttribute:
			if a.CustomType != nil {
				return false
			}
		case schema.Int64Attribute:
			if a.CustomType != nil {
				return false
			}
		case schema.Float64Attribute:
			if a.CustomType != nil {
				return false
			}
		case schema.BoolAttribute:
			if a.CustomType != nil {
				return false
			}
		case schema.ListAttribute:
			if a.CustomType != nil {
				return false
			}
		case schema.SingleNestedAttribute:
			if a.CustomType != nil || !validatedFast(a.Attributes) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
