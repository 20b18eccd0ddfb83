// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestChangelogNamesEverySchemaName checks that CHANGELOG.md names, in
// backticks, every name a user writes or reads: each data source and
// function, each provider setting, each attribute of each data source at
// any depth, and each function parameter and attribute of a function's
// result. A name counts wherever it is a segment of a backticked span
// (`deployment.aks.node_taints` names deployment, aks and node_taints).
func TestChangelogNamesEverySchemaName(t *testing.T) {
	b, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, span := range regexp.MustCompile("`[^`]+`").FindAllString(string(b), -1) {
		for _, seg := range regexp.MustCompile(`[a-z0-9_]+`).FindAllString(span, -1) {
			named[seg] = true
		}
	}
	names := schemaNames(t)
	if len(names) < 100 {
		t.Fatalf("only %d schema names found: the walk over the schemas is broken", len(names))
	}
	var missing []string
	for n := range names {
		if !named[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("CHANGELOG.md does not name %d of the %d schema names in backticks: %s", len(missing), len(names), strings.Join(missing, ", "))
	}
}

// schemaNames collects the data source and function names, the provider's
// settings, and every attribute and parameter name of their schemas.
func schemaNames(t *testing.T) map[string]bool {
	t.Helper()
	ctx := context.Background()
	names := map[string]bool{}
	p := New("test")()
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	for n := range ps.Schema.Attributes {
		names[n] = true
	}
	for _, newDS := range p.DataSources(ctx) {
		ds := newDS()
		var m datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: meta.TypeName}, &m)
		names[m.TypeName] = true
		var s datasource.SchemaResponse
		ds.Schema(ctx, datasource.SchemaRequest{}, &s)
		addAttributes(names, s.Schema.Attributes)
	}
	pf, ok := p.(provider.ProviderWithFunctions)
	if !ok {
		t.Fatal("the provider has no functions")
	}
	for _, newFn := range pf.Functions(ctx) {
		fn := newFn()
		var m function.MetadataResponse
		fn.Metadata(ctx, function.MetadataRequest{}, &m)
		names[m.Name] = true
		var d function.DefinitionResponse
		fn.Definition(ctx, function.DefinitionRequest{}, &d)
		for _, prm := range d.Definition.Parameters {
			names[prm.GetName()] = true
		}
		addType(names, d.Definition.Return.GetType())
	}
	return names
}

func addAttributes(names map[string]bool, attrs map[string]dsschema.Attribute) {
	for n, a := range attrs {
		names[n] = true
		switch a := a.(type) {
		case dsschema.SingleNestedAttribute:
			addAttributes(names, a.Attributes)
		case dsschema.ListNestedAttribute:
			addAttributes(names, a.NestedObject.Attributes)
		case dsschema.SetNestedAttribute:
			addAttributes(names, a.NestedObject.Attributes)
		case dsschema.MapNestedAttribute:
			addAttributes(names, a.NestedObject.Attributes)
		}
	}
}

// addType adds the attribute names of an object type, at any depth.
func addType(names map[string]bool, typ attr.Type) {
	switch typ := typ.(type) {
	case types.ObjectType:
		for n, at := range typ.AttrTypes {
			names[n] = true
			addType(names, at)
		}
	case types.ListType:
		addType(names, typ.ElemType)
	case types.SetType:
		addType(names, typ.ElemType)
	case types.MapType:
		addType(names, typ.ElemType)
	}
}
