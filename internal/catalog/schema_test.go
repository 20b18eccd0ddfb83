// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The JSON Schemas in data/schema describe the data files for editors (each
// file names its schema with "$schema"). They are generated from the Go
// document types (format.go) by reflection over their json tags, with the
// types' and fields' comments as descriptions; TestJSONSchemas fails when a
// committed schema differs from the generated one, and
// go test ./internal/catalog -update rewrites them.

const schemaDir = "data/schema"

// schemaEnums are the allowed values of fields, keyed "Type.json_name".
var schemaEnums = map[string][]string{
	"SeriesDoc.category":       Categories(),
	"LifecycleDoc.status":      Statuses(),
	"SupportEntryDoc.status":   SupportStatuses(),
	"GPUModelDoc.vendor":       Vendors(),
	"SKUDoc.arch":              {"x86_64", "arm64"},
	"ImageDoc.arch":            {"x86_64", "arm64"},
	"InfiniBandDoc.generation": {"FDR", "EDR", "HDR", "NDR", "XDR"},
}

// schemaYears are the fields that hold a year (years.go).
var schemaYears = map[string]bool{"SeriesDoc.year_available": true, "GPUModelDoc.architecture_year": true}

// schemaShares are the fields that hold a share: above 0, at most 1.
var schemaShares = map[string]bool{"GPUPerformanceDoc.training_mfu": true}

// schemaGen builds one schema; defs collects the struct types it refers to.
type schemaGen struct {
	docs map[string]string // "Type" and "Type.Field" -> comment
	defs map[string]any
}

// goDocs reads the comments of the package's types and fields.
func goDocs(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			addStructDocs(docs, gd)
		}
	}
	return docs
}

// addStructDocs adds the comments of the struct types a type declaration
// declares, and of their fields, to docs.
func addStructDocs(docs map[string]string, gd *ast.GenDecl) {
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			continue
		}
		docs[ts.Name.Name] = commentText(ts.Doc, gd.Doc)
		for _, fld := range st.Fields.List {
			for _, n := range fld.Names {
				docs[ts.Name.Name+"."+n.Name] = commentText(fld.Doc, fld.Comment)
			}
		}
	}
}

// commentText returns the text of the first comment group that is not
// nil, on one line, or "".
func commentText(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g != nil {
			return strings.Join(strings.Fields(g.Text()), " ")
		}
	}
	return ""
}

func (g *schemaGen) typeSchema(t *testing.T, typ reflect.Type) map[string]any {
	t.Helper()
	switch typ.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.typeSchema(t, typ.Elem())}
	case reflect.Map:
		if typ.Key().Kind() != reflect.String {
			t.Fatalf("map key %s: JSON object keys are strings", typ.Key())
		}
		return map[string]any{"type": "object", "additionalProperties": g.typeSchema(t, typ.Elem())}
	case reflect.Pointer:
		s := g.typeSchema(t, typ.Elem())
		if typ.Elem().Kind() != reflect.Struct {
			// A scalar pointer is null when the sources give no value.
			s["type"] = []any{s["type"], "null"}
		}
		return s
	case reflect.Struct:
		name := typ.Name()
		if _, done := g.defs[name]; !done {
			g.defs[name] = nil // placeholder against recursion
			g.defs[name] = g.structSchema(t, typ, nil)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	t.Fatalf("type %s has no JSON Schema mapping", typ)
	return nil
}

// structSchema describes a struct; only lists the fields to include (all
// when nil) and makes them required.
func (g *schemaGen) structSchema(t *testing.T, typ reflect.Type, only []string) map[string]any {
	t.Helper()
	props := map[string]any{}
	var required []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" || name == "" {
			t.Fatalf("%s.%s: every document field needs a json name", typ.Name(), f.Name)
		}
		if only != nil && !slices.Contains(only, name) && name != "$schema" {
			continue
		}
		s := g.typeSchema(t, f.Type)
		key := typ.Name() + "." + name
		if d := g.docs[typ.Name()+"."+f.Name]; d != "" {
			s["description"] = d
		}
		// Sources follow the source grammar (sources.go).
		switch {
		case name == "sources" && f.Type == reflect.TypeOf([]string{}):
			s["items"] = map[string]any{"type": "string", "pattern": SourcePattern, "description": "A source: " + SourceGrammar + "."}
		case name == "source" && f.Type.Kind() == reflect.String:
			s["pattern"] = SourcePattern
			if s["description"] == nil {
				s["description"] = "A source: " + SourceGrammar + "."
			}
		}
		if vals, ok := schemaEnums[key]; ok {
			s["enum"] = vals
		}
		if schemaYears[key] {
			s["minimum"], s["maximum"] = minYear, maxYear
		}
		if schemaShares[key] {
			s["exclusiveMinimum"], s["maximum"] = 0, 1
		}
		props[name] = s
		if only != nil || !strings.Contains(opts, "omitempty") {
			if name != "$schema" {
				required = append(required, name)
			}
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if d := g.docs[typ.Name()]; d != "" {
		out["description"] = d
	}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

// dataSchemas generates the schema of each embedded data file: a document
// with the sections that file holds.
func dataSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	docs := goDocs(t)
	out := map[string][]byte{}
	for i, d := range embeddedDocs(t) {
		file := strings.TrimPrefix(embeddedDocuments[i], "data/")
		var sections []string
		v := reflect.ValueOf(d)
		for j := 0; j < v.NumField(); j++ {
			name, _, _ := strings.Cut(v.Type().Field(j).Tag.Get("json"), ",")
			if name != "$schema" && !v.Field(j).IsZero() {
				sections = append(sections, name)
			}
		}
		g := &schemaGen{docs: docs, defs: map[string]any{}}
		s := g.structSchema(t, reflect.TypeOf(Document{}), sections)
		s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
		s["title"] = file
		s["$defs"] = g.defs
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(file, ".json")+".schema.json"] = append(b, '\n')
	}
	return out
}

func TestJSONSchemas(t *testing.T) {
	schemas := dataSchemas(t)
	for name, b := range schemas {
		compareGolden(t, filepath.Join(schemaDir, name), b)
	}
	// No stale schema is left behind, and every data file names its own.
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, ok := schemas[filepath.Base(f)]; !ok {
			t.Errorf("%s is not the schema of a data file", f)
		}
	}
	for i, d := range embeddedDocs(t) {
		want := "schema/" + strings.TrimSuffix(strings.TrimPrefix(embeddedDocuments[i], "data/"), ".json") + ".schema.json"
		if d.Schema != want {
			t.Errorf("%s: \"$schema\" is %q, want %q", embeddedDocuments[i], d.Schema, want)
		}
	}
}

// TestDataFilesMatchSchemas validates every data file against its schema,
// with the subset of JSON Schema the generator uses, and checks that the
// schemas reject what the strict decoder and Build reject.
func TestDataFilesMatchSchemas(t *testing.T) {
	schemas := dataSchemas(t)
	load := func(name string) map[string]any {
		var s map[string]any
		if err := json.Unmarshal(schemas[name], &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, name := range embeddedDocuments {
		b, err := embedded.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		schema := load(strings.TrimSuffix(strings.TrimPrefix(name, "data/"), ".json") + ".schema.json")
		if errs := validateJSON(schema, schema, decodeJSON(t, b), "$"); len(errs) > 0 {
			t.Errorf("%s does not match its schema:\n%s", name, strings.Join(errs, "\n"))
		}
	}

	skus := load("skus.schema.json")
	series := load("series.schema.json")
	size := `{"name": "Standard_X", "series": "S", "vcpus": 8, "memory_gib": null, "temp_disk_gib": null, "arch": "x86_64",
		"network": {"accelerated_networking": null, "rdma": false, "ethernet_mbps": null}, "hyperv_generations": ["2"],
		"confidential": false, "isolated": false, "premium_storage": null, "max_data_disks": null, "max_nics": null, "sources": [%s]%s}`
	for _, tc := range []struct {
		name   string
		schema map[string]any
		doc    string
		want   string // "" means valid
	}{
		{"valid size", skus, `{"skus": [` + fmt.Sprintf(size, `"https://example.com/x"`, "") + `]}`, ""},
		{"unknown field", skus, `{"skus": [` + fmt.Sprintf(size, `"https://example.com/x"`, `, "vcpu": 8`) + `]}`, `$.skus[0]: unknown field "vcpu"`},
		{"source outside the grammar", skus, `{"skus": [` + fmt.Sprintf(size, `"specs includes/x.md@1234567"`, "") + `]}`, `$.skus[0].sources[0]: "specs includes/x.md@1234567" does not match the pattern`},
		{"missing required field", skus, `{"skus": [{"name": "Standard_X"}]}`, `$.skus[0]: "arch" is required`},
		{"wrong type", skus, `{"skus": [` + strings.Replace(fmt.Sprintf(size, `"https://example.com/x"`, ""), `"vcpus": 8`, `"vcpus": "8"`, 1) + `]}`, `$.skus[0].vcpus: "8" is not integer or null`},
		{"section of another file", skus, `{"series": []}`, `$: unknown field "series"`},
		{"enum", series, `{"series": [{"name": "S", "family": "F", "category": "fpga", "lifecycle": {}, "support": {}, "sources": []}]}`, `$.series[0].category: "fpga" is not one of`},
		{"year", series, `{"series": [{"name": "S", "family": "F", "category": "cpu", "year_available": 23, "lifecycle": {}, "support": {}, "sources": []}]}`, `$.series[0].year_available: 23 is below 2000`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := validateJSON(tc.schema, tc.schema, decodeJSON(t, []byte(tc.doc)), "$")
			got := strings.Join(errs, "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("errors:\n%s\nwant %q", got, tc.want)
			}
		})
	}
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// validateJSON checks v against schema with the keywords the generator
// writes: $ref, type, properties, required, additionalProperties, items,
// pattern, enum, minimum and maximum.
func validateJSON(root, schema map[string]any, v any, path string) []string {
	if ref, ok := schema["$ref"].(string); ok {
		def := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		return validateJSON(root, def, v, path)
	}
	if types, ok := schemaTypes(schema); ok {
		if !slices.Contains(types, jsonType(v)) && (jsonType(v) != "integer" || !slices.Contains(types, "number")) {
			return []string{path + ": " + fmt.Sprintf("%s is not %s", compactJSON(v), strings.Join(types, " or "))}
		}
	}
	errs := validateJSONValue(schema, v, path)
	switch x := v.(type) {
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range x {
				errs = append(errs, validateJSON(root, items, e, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case map[string]any:
		errs = append(errs, validateJSONObject(root, schema, x, path)...)
	}
	return errs
}

// schemaTypes returns the types a schema's "type" allows, and whether it
// has one.
func schemaTypes(schema map[string]any) ([]string, bool) {
	ty, ok := schema["type"]
	if !ok {
		return nil, false
	}
	var types []string
	switch x := ty.(type) {
	case string:
		types = []string{x}
	case []any:
		for _, y := range x {
			types = append(types, y.(string))
		}
	}
	return types, true
}

// validateJSONValue checks v against a schema's enum, minimum, maximum and
// pattern.
func validateJSONValue(schema map[string]any, v any, path string) []string {
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, a...)) }
	if enum, ok := schema["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || e == v
		}
		if !found {
			fail("%s is not one of %v", compactJSON(v), enum)
		}
	}
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		if lo, ok := schema["minimum"].(float64); ok && f < lo {
			fail("%s is below %g", n, lo)
		}
		if hi, ok := schema["maximum"].(float64); ok && f > hi {
			fail("%s is above %g", n, hi)
		}
	}
	if p, ok := schema["pattern"].(string); ok {
		if s, ok := v.(string); ok && !regexp.MustCompile(p).MatchString(s) {
			fail("%q does not match the pattern", s)
		}
	}
	return errs
}

// validateJSONObject checks an object against a schema's required,
// properties and additionalProperties, its fields in name order.
func validateJSONObject(root, schema map[string]any, x map[string]any, path string) []string {
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, a...)) }
	props, _ := schema["properties"].(map[string]any)
	for _, r := range asStrings(schema["required"]) {
		if _, ok := x[r]; !ok {
			fail("%q is required", r)
		}
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if ps, ok := props[k].(map[string]any); ok {
			errs = append(errs, validateJSON(root, ps, x[k], path+"."+k)...)
			continue
		}
		switch ap := schema["additionalProperties"].(type) {
		case bool:
			if !ap {
				fail("unknown field %q", k)
			}
		case map[string]any:
			errs = append(errs, validateJSON(root, ap, x[k], path+"."+k)...)
		}
	}
	return errs
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

func asStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSchemaDirNotEmbedded guards the embed pattern: the schemas are for
// editors and stay out of the binary.
func TestSchemaDirNotEmbedded(t *testing.T) {
	if _, err := embedded.ReadFile("data/schema/skus.schema.json"); err == nil {
		t.Error("data/schema is embedded in the binary")
	}
	if _, err := os.Stat(filepath.Join(schemaDir, "skus.schema.json")); err != nil {
		t.Error(err)
	}
}
