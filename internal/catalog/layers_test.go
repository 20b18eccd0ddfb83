// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/hpcsku/terraform-provider-hpcsku"

// layers are DESIGN.md's layers, lowest first, by folder: a package
// belongs to the layer of the folder it is in (internal/catalog/catalogtest
// to the catalog's). internal/azureexport, internal/perfmodel and
// internal/deploy share a rank and do not import each other; the engine,
// internal/recommend, sits on them.
var layers = []struct {
	folder string
	rank   int
}{
	{"internal/userfile", 0},
	{"internal/catalog", 1},
	{"internal/azureexport", 2},
	{"internal/perfmodel", 2},
	{"internal/deploy", 2},
	{"internal/recommend", 3},
	{"internal/provider", 4},
	{"bench", 5},
	{"", 5}, // main.go
}

// layerOf returns the folder and rank of a package of the module.
func layerOf(pkg string) (string, int) {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	for _, l := range layers {
		if l.folder == "" || rel == l.folder || strings.HasPrefix(rel, l.folder+"/") {
			return l.folder, l.rank
		}
	}
	return "", len(layers)
}

// Every package of the module imports only packages of its own layer's
// folder or of a lower layer: no import runs up the layers, so the catalog
// builds and tests without the Azure export readers, the engine or
// Terraform.
func TestNoImportRunsUpTheLayers(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(gobin, "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, "\t")
		folder, rank := layerOf(pkg)
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			checked++
			if f, r := layerOf(imp); r > rank || (r == rank && f != folder) {
				t.Errorf("%s imports %s, which is not below it (DESIGN.md, Layers)", pkg, imp)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no import of the module's own packages was checked")
	}
}
