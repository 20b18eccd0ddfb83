// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureDir is the fixture catalog of package catalogtest, in the data
// files' format.
const fixtureDir = "catalogtest/testdata"

// TestFixtureFilesMatchSchemas validates the fixture catalog's files against
// the data files' schemas, which their "$schema" keys name, so that the
// fixture stays in the format the data files are in.
func TestFixtureFilesMatchSchemas(t *testing.T) {
	schemas := dataSchemas(t)
	for _, name := range embeddedDocuments {
		file := strings.TrimPrefix(name, "data/")
		b, err := os.ReadFile(filepath.Join(fixtureDir, file))
		if err != nil {
			t.Fatal(err)
		}
		schemaName := strings.TrimSuffix(file, ".json") + ".schema.json"
		var schema map[string]any
		if err := json.Unmarshal(schemas[schemaName], &schema); err != nil {
			t.Fatal(err)
		}
		if errs := validateJSON(schema, schema, decodeJSON(t, b), "$"); len(errs) > 0 {
			t.Errorf("%s does not match its schema:\n%s", file, strings.Join(errs, "\n"))
		}
		var doc struct {
			Schema string `json:"$schema"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if ref := filepath.Join(fixtureDir, filepath.FromSlash(doc.Schema)); filepath.Clean(ref) != filepath.Join(schemaDir, schemaName) {
			t.Errorf("%s: \"$schema\" is %q, which is not %s", file, doc.Schema, filepath.Join(schemaDir, schemaName))
		}
	}
}
