// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command guidegen writes the parts of the ranking guide
// (templates/guides/ranking.md.tmpl) that come from the engine: the worked
// examples, run on the frozen fixture catalog of package catalogtest; the
// table of hard constraints, in the engine's order (recommend.Constraints);
// and the constants the guide quotes. Each generated part lies between
// `<!-- generated:NAME -->` and `<!-- end:NAME -->` lines; the prose around
// them is the template's own. `make generate` runs it before tfplugindocs,
// and TestTemplateIsUpToDate fails when the template differs from its
// output.
//
// Usage:
//
//	go run ./internal/recommend/internal/guidegen -template templates/guides/ranking.md.tmpl
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

func main() {
	path := flag.String("template", "templates/guides/ranking.md.tmpl", "the guide template to rewrite in place")
	flag.Parse()
	if err := rewrite(*path); err != nil {
		fmt.Fprintln(os.Stderr, "guidegen:", err)
		os.Exit(1)
	}
}

// rewrite renders the template at path and writes it back when it changed.
func rewrite(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := render(in)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(in, out) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

// render returns the template with every generated part written again.
func render(in []byte) ([]byte, error) {
	eng, err := fixtureEngine()
	if err != nil {
		return nil, err
	}
	out, err := replaceSections(string(in), sections(eng))
	if err != nil {
		return nil, err
	}
	out, err = quoteConstants(out)
	if err != nil {
		return nil, err
	}
	out, err = quoteSentences(eng, out)
	if err != nil {
		return nil, err
	}
	figs, err := figures(eng)
	if err != nil {
		return nil, err
	}
	out, err = quoteAll(out, figs)
	if err != nil {
		return nil, err
	}
	return []byte(out), nil
}

// fixtureEngine is the engine on the fixture catalog.
func fixtureEngine() (*recommend.Engine, error) {
	cat, err := catalogtest.Load()
	if err != nil {
		return nil, err
	}
	return recommend.NewEngine(cat)
}

// section writes one generated part from the text the template holds
// between its markers (which only the constraint table reads).
type section func(old string) (string, error)

var marker = regexp.MustCompile(`(?s)<!-- generated:([a-z0-9-]+) -->\n(.*?)<!-- end:([a-z0-9-]+) -->`)

// replaceSections rewrites every marked part with its section. A marker
// without a section, a section without a marker, a part marked twice and
// mismatched markers are errors.
func replaceSections(text string, secs map[string]section) (string, error) {
	var errs []string
	seen := map[string]bool{}
	out := marker.ReplaceAllStringFunc(text, func(m string) string {
		g := marker.FindStringSubmatch(m)
		name, old, end := g[1], g[2], g[3]
		switch {
		case name != end:
			errs = append(errs, fmt.Sprintf("generated:%s ends with end:%s", name, end))
			return m
		case seen[name]:
			errs = append(errs, fmt.Sprintf("generated:%s appears twice", name))
			return m
		case secs[name] == nil:
			errs = append(errs, fmt.Sprintf("generated:%s: no such section", name))
			return m
		}
		seen[name] = true
		body, err := secs[name](old)
		if err != nil {
			errs = append(errs, fmt.Sprintf("generated:%s: %v", name, err))
			return m
		}
		return "<!-- generated:" + name + " -->\n" + strings.TrimRight(body, "\n") + "\n<!-- end:" + name + " -->"
	})
	for name := range secs {
		if !seen[name] {
			errs = append(errs, fmt.Sprintf("section %s has no generated:%s marker", name, name))
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return "", fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}
