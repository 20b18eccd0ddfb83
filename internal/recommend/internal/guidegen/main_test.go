// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

const guide = "../../../../templates/guides/ranking.md.tmpl"

// The committed guide is what the generator writes: an engine change that
// moves a worked example, a constant or the constraint order fails here
// until `make generate` is run.
func TestTemplateIsUpToDate(t *testing.T) {
	in, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	out, err := render(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(in), string(out); got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s is not up to date; run `make generate`. Line %d:\n have %s\n want %s", guide, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s is not up to date (%d lines, want %d); run `make generate`", guide, len(gl), len(wl))
	}
}

// Rendering twice changes nothing.
func TestRenderIsIdempotent(t *testing.T) {
	in, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	once, err := render(in)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := render(once)
	if err != nil {
		t.Fatal(err)
	}
	if string(once) != string(twice) {
		t.Error("a second rendering differs from the first")
	}
}

// A marker without a section, a section without a marker and mismatched
// markers are errors, not silently kept text.
func TestSectionMarkersMustMatch(t *testing.T) {
	one := map[string]section{"a": func(string) (string, error) { return "A", nil }}
	for name, text := range map[string]string{
		"unknown marker": "<!-- generated:a -->\n<!-- end:a -->\n<!-- generated:b -->\n<!-- end:b -->",
		"missing marker": "no markers",
		"mismatched end": "<!-- generated:a -->\n<!-- end:b -->",
		"twice":          "<!-- generated:a -->\n<!-- end:a -->\n<!-- generated:a -->\n<!-- end:a -->",
	} {
		if _, err := replaceSections(text, one); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	got, err := replaceSections("x\n<!-- generated:a -->\nold\n<!-- end:a -->\ny", one)
	if err != nil || got != "x\n<!-- generated:a -->\nA\n<!-- end:a -->\ny" {
		t.Errorf("got %q, %v", got, err)
	}
}

// The constraint table follows the engine's order whatever the template's,
// and fails on a constraint without a row or a row without a constraint.
func TestConstraintTableFollowsTheEngine(t *testing.T) {
	const head = "| Constraint | Removes a size when |\n|---|---|\n"
	order := recommend.Constraints()
	var rows []string
	for i := len(order) - 1; i >= 0; i-- {
		rows = append(rows, "| `"+order[i]+"` | why |")
	}
	got, err := constraintTable(head + strings.Join(rows, "\n") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(strings.TrimPrefix(got, head)), "\n") {
		if want := "| `" + order[i] + "` | why |"; line != want {
			t.Fatalf("row %d: %s, want %s", i, line, want)
		}
	}
	if _, err := constraintTable(head + strings.Join(rows[1:], "\n") + "\n"); err == nil {
		t.Error("a missing row is not an error")
	}
	if _, err := constraintTable(head + strings.Join(rows, "\n") + "\n| `no_such` | why |\n"); err == nil {
		t.Error("a row for an unknown constraint is not an error")
	}
}

// A constant the guide no longer quotes is an error; a quoted figure is
// rewritten across a line break.
func TestQuotedConstants(t *testing.T) {
	if _, err := quoteConstants("nothing quoted"); err == nil {
		t.Error("no error for a guide that quotes no constant")
	}
	in, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	stale := strings.Replace(string(in), "`InferenceHeadroom = 0.20`", "`InferenceHeadroom = 0.75`", 1)
	out, err := quoteConstants(stale)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "`InferenceHeadroom = "+f2(perfmodel.InferenceHeadroom)+"`") {
		t.Error("a stale figure is not rewritten")
	}
}

// allReduceWidths are the guide's names of models in the all-reduce
// bullet, and the catalog models each stands for.
var allReduceWidths = map[string][]string{
	"DeepSeek-V3": {"deepseek-v3"}, "R1": {"deepseek-r1"}, "Qwen3": {"qwen3-8b", "qwen3-32b", "qwen3-235b-a22b"},
	"Qwen3-32B": {"qwen3-32b"}, "Qwen3-235B": {"qwen3-235b-a22b"}, "gpt-oss": {"gpt-oss-20b", "gpt-oss-120b"},
}

// Each "(hidden against width)" pair of the all-reduce bullet is the
// catalog's hidden size and attention width (heads × head dimension) of
// every model named before it.
func TestAllReduceWidthsAreTheModels(t *testing.T) {
	in, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(in)), " ")
	const lead = "which is not the attention width (heads × head dimension) for "
	i := strings.Index(text, lead)
	if i < 0 {
		t.Fatal("no all-reduce bullet")
	}
	bullet, _, _ := strings.Cut(text[i+len(lead):], " * ")
	cat := catalogtest.Embedded(t)
	pair := regexp.MustCompile(`\(([\d,]+) against ([\d,]+)\)`)
	from, pairs := 0, 0
	for _, m := range pair.FindAllStringSubmatchIndex(bullet, -1) {
		hidden, width := bullet[m[2]:m[3]], bullet[m[4]:m[5]]
		for _, name := range regexp.MustCompile(`,|;| and | or `).Split(bullet[from:m[0]], -1) {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			ids, ok := allReduceWidths[name]
			if !ok {
				t.Errorf("%q (%s against %s): not a model the test knows", name, hidden, width)
			}
			for _, id := range ids {
				md, _, found := cat.ResolveModel(id)
				if !found || md.HiddenSize == nil || md.AttentionHeads == nil || md.HeadDim == nil {
					t.Errorf("%s: not in the catalog with its widths", id)
					continue
				}
				h, w := catalog.GroupDigits(*md.HiddenSize), catalog.GroupDigits(*md.AttentionHeads**md.HeadDim)
				if h != hidden || w != width {
					t.Errorf("%q says %s against %s; %s has %s against %s", name, hidden, width, id, h, w)
				}
			}
		}
		from, pairs = m[1], pairs+1
	}
	if pairs == 0 {
		t.Error("the bullet gives no widths")
	}
}
