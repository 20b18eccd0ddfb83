// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// terraformValue converts v into the terraform-plugin-go value of type typ,
// reading structs by their `tfsdk` tags as the framework's State.Set does.
// It exists because the framework's reflection looks every struct field up
// again on every call (tags parsed, names checked against a regular
// expression) and converts the whole model to framework values and back:
// for a recommendation, most of the read. Here a struct's fields are looked
// up once per Go type (structFields).
//
// v may hold framework values (attr.Value: converted by their own
// ToTerraformValue), pointers (nil is null), slices and maps (nil is null),
// structs, strings, bools and Go numbers. A struct field tagged "-" is
// skipped; an attribute of typ with no field, or a field with no attribute,
// is an error: the model and the schema disagree.
func terraformValue(ctx context.Context, typ tftypes.Type, v reflect.Value) (tftypes.Value, error) {
	if v.CanInterface() && v.Type().Implements(attrValueType) {
		if av, ok := v.Interface().(attr.Value); ok {
			return av.ToTerraformValue(ctx)
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return tftypes.NewValue(typ, nil), nil
		}
		return terraformValue(ctx, typ, v.Elem())
	case reflect.String:
		return primitiveValue(typ, tftypes.String, v, v.String())
	case reflect.Bool:
		return primitiveValue(typ, tftypes.Bool, v, v.Bool())
	case reflect.Int, reflect.Int32, reflect.Int64:
		return primitiveValue(typ, tftypes.Number, v, v.Int())
	case reflect.Float32, reflect.Float64:
		return primitiveValue(typ, tftypes.Number, v, v.Float())
	case reflect.Slice:
		return sliceValue(ctx, typ, v)
	case reflect.Map:
		return mapValue(ctx, typ, v)
	case reflect.Struct:
		return structValue(ctx, typ, v)
	}
	return tftypes.Value{}, fmt.Errorf("cannot convert a Go %s into %s", v.Type(), typ)
}

var attrValueType = reflect.TypeFor[attr.Value]()

// primitiveValue is x as a value of typ, which must be want.
func primitiveValue(typ, want tftypes.Type, v reflect.Value, x any) (tftypes.Value, error) {
	if !typ.Is(want) {
		return tftypes.Value{}, fmt.Errorf("cannot convert a Go %s into %s", v.Type(), typ)
	}
	return tftypes.NewValue(typ, x), nil
}

func sliceValue(ctx context.Context, typ tftypes.Type, v reflect.Value) (tftypes.Value, error) {
	list, ok := typ.(tftypes.List)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("cannot convert a Go %s into %s", v.Type(), typ)
	}
	if v.IsNil() {
		return tftypes.NewValue(typ, nil), nil
	}
	elems := make([]tftypes.Value, v.Len())
	for i := range elems {
		e, err := terraformValue(ctx, list.ElementType, v.Index(i))
		if err != nil {
			return tftypes.Value{}, err
		}
		elems[i] = e
	}
	return tftypes.NewValue(typ, elems), nil
}

func mapValue(ctx context.Context, typ tftypes.Type, v reflect.Value) (tftypes.Value, error) {
	m, ok := typ.(tftypes.Map)
	if !ok || v.Type().Key().Kind() != reflect.String {
		return tftypes.Value{}, fmt.Errorf("cannot convert a Go %s into %s", v.Type(), typ)
	}
	if v.IsNil() {
		return tftypes.NewValue(typ, nil), nil
	}
	elems := make(map[string]tftypes.Value, v.Len())
	for it := v.MapRange(); it.Next(); {
		e, err := terraformValue(ctx, m.ElementType, it.Value())
		if err != nil {
			return tftypes.Value{}, err
		}
		elems[it.Key().String()] = e
	}
	return tftypes.NewValue(typ, elems), nil
}

func structValue(ctx context.Context, typ tftypes.Type, v reflect.Value) (tftypes.Value, error) {
	obj, ok := typ.(tftypes.Object)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("cannot convert a Go %s into %s", v.Type(), typ)
	}
	fields := structFields(v.Type())
	if len(fields) != len(obj.AttributeTypes) {
		return tftypes.Value{}, fmt.Errorf("the Go %s has %d attributes, the schema %d", v.Type(), len(fields), len(obj.AttributeTypes))
	}
	attrs := make(map[string]tftypes.Value, len(fields))
	for _, f := range fields {
		at, ok := obj.AttributeTypes[f.name]
		if !ok {
			return tftypes.Value{}, fmt.Errorf("the Go %s has attribute %q, which the schema does not", v.Type(), f.name)
		}
		a, err := terraformValue(ctx, at, v.Field(f.index))
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", f.name, err)
		}
		attrs[f.name] = a
	}
	return tftypes.NewValue(typ, attrs), nil
}

type structField struct {
	name  string
	index int
}

var structFieldCache sync.Map // reflect.Type -> []structField

// structFields lists the tagged fields of a struct type, once per type.
func structFields(t reflect.Type) []structField {
	if f, ok := structFieldCache.Load(t); ok {
		if fields, ok := f.([]structField); ok {
			return fields
		}
	}
	var fields []structField
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("tfsdk")
		if tag == "" || tag == "-" {
			continue
		}
		fields = append(fields, structField{name: tag, index: i})
	}
	structFieldCache.Store(t, fields)
	return fields
}

// stateValue is model as a state of type typ (terraformValue): what
// State.Set(ctx, model) writes, without the framework's reflection.
func stateValue(ctx context.Context, typ tftypes.Type, model any) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	v, err := terraformValue(ctx, typ, reflect.ValueOf(model))
	if err != nil {
		diags.AddError("State Conversion Failed", "The provider could not convert its result into the state. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
	}
	return v, diags
}

// modelFromConfig fills model, a pointer to a `tfsdk`-tagged struct, from a
// configuration, as config.Get does without the framework's reflection:
// each field of a framework value type gets its attribute's value
// (unknown and null included); any other field is a computed output, null
// in a configuration, and stays zero.
func modelFromConfig(ctx context.Context, config tfsdk.Config, attrs map[string]schema.Attribute, model any) diag.Diagnostics {
	var diags diag.Diagnostics
	fail := func(detail string) diag.Diagnostics {
		diags.AddError("Configuration Not Read", "The provider could not read its configuration. This is a bug in the provider; please report it with this message:\n\n"+detail)
		return diags
	}
	rv := reflect.ValueOf(model)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fail(fmt.Sprintf("the model is a %T, not a pointer to a struct", model))
	}
	var vals map[string]tftypes.Value
	if err := config.Raw.As(&vals); err != nil {
		return fail(err.Error())
	}
	st := rv.Elem()
	for _, f := range structFields(st.Type()) {
		field, v := st.Field(f.index), vals[f.name]
		a, ok := attrs[f.name]
		switch {
		case !ok:
			return fail(fmt.Sprintf("the model has attribute %q, which the schema does not", f.name))
		case !field.Type().Implements(attrValueType):
			if !v.IsNull() {
				return fail(fmt.Sprintf("%s is set in the configuration but its field is a %s", f.name, field.Type()))
			}
			continue
		}
		av, err := a.GetType().ValueFromTerraform(ctx, v)
		if err != nil {
			return fail(fmt.Sprintf("%s: %v", f.name, err))
		}
		value := reflect.ValueOf(av)
		if !value.Type().AssignableTo(field.Type()) {
			return fail(fmt.Sprintf("%s: a %s cannot go into a %s field", f.name, value.Type(), field.Type()))
		}
		field.Set(value)
	}
	return diags
}
