// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command filerefs counts the references between the files of one Go
// package (its non-test files): a reference is an ordered pair of files
// (A, B) where A uses a package-level name declared in B, or a method or
// field of a type declared in B. It orders the files so that as few
// references as possible run against the order (the greedy heuristic of
// Eades, Lin and Smyth, 1993, for a minimum feedback arc set; ties by
// name), and counts the references that still do: those running from a
// lower file up to a higher one, which no order of the files avoids
// without moving code.
//
//	go run ./scripts/filerefs ./internal/recommend
//	go run ./scripts/filerefs -v ./internal/recommend   # also every upward pair
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list every upward reference and the order of the files")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: filerefs [-v] DIR")
		os.Exit(2)
	}
	edges, files, err := references(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	order := feedbackOrder(files, edges)
	pos := map[string]int{}
	for i, f := range order {
		pos[f] = i
	}
	var up []edge
	for e := range edges {
		if pos[e.from] > pos[e.to] {
			up = append(up, e)
		}
	}
	sort.Slice(up, func(i, j int) bool {
		return up[i].from+up[i].to < up[j].from+up[j].to
	})
	fmt.Printf("%s: %d files, %d references between files, %d running up\n", flag.Arg(0), len(files), len(edges), len(up))
	if *verbose {
		fmt.Println("order, top to bottom:", strings.Join(order, " "))
		for _, e := range up {
			fmt.Printf("  %s -> %s (%s)\n", e.from, e.to, strings.Join(edges[e], ", "))
		}
	}
}

// edge is file from using a name declared in file to.
type edge struct{ from, to string }

// references type-checks the package in dir and returns every file pair
// with the names one uses of the other, and the files.
func references(dir string) (map[edge][]string, []string, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var parsed []*ast.File
	var files []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		parsed = append(parsed, f)
		files = append(files, n)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check(dir, fset, parsed, info)
	if err != nil {
		return nil, nil, err
	}
	fileOf := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	edges := map[edge][]string{}
	add := func(at token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !declaredAtTop(obj) {
			return
		}
		from, to := fileOf(at), fileOf(obj.Pos())
		if from == to {
			return
		}
		e := edge{from, to}
		if !slices.Contains(edges[e], obj.Name()) {
			edges[e] = append(edges[e], obj.Name())
		}
	}
	for id, obj := range info.Uses {
		add(id.Pos(), obj)
	}
	for sel, s := range info.Selections {
		add(sel.Sel.Pos(), s.Obj())
	}
	return edges, files, nil
}

// declaredAtTop reports whether obj is a package-level name, or a method
// or field (whose declaring file is its type's for a field).
func declaredAtTop(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.Var:
		if o.IsField() {
			return true
		}
	}
	return obj.Parent() == obj.Pkg().Scope()
}

// feedbackOrder orders the files so that few references run from a lower
// file to a higher one: Eades, Lin and Smyth's greedy heuristic, which
// repeatedly takes the files nothing left uses as the top, the files that
// use nothing left as the bottom, and otherwise the file with the most
// uses over used; the used files end up below their users.
func feedbackOrder(files []string, edges map[edge][]string) []string {
	g := graph{edges: edges, left: map[string]bool{}}
	for _, f := range files {
		g.left[f] = true
	}
	var top, bottom []string
	for len(g.left) > 0 {
		names := g.remaining()
		sinks := g.take(names, func(f string) bool { return g.degree(f, true) == 0 })
		sources := g.take(names, func(f string) bool { return g.degree(f, false) == 0 })
		bottom, top = append(bottom, sinks...), append(top, sources...)
		if len(sinks) == 0 && len(sources) == 0 {
			best := g.mostUsing(names)
			top = append(top, best)
			delete(g.left, best)
		}
	}
	slices.Reverse(bottom)
	return append(top, bottom...)
}

// graph is the references between the files not yet ordered (left).
type graph struct {
	edges map[edge][]string
	left  map[string]bool
}

// remaining is the files not yet ordered, by name.
func (g *graph) remaining() []string {
	names := make([]string, 0, len(g.left))
	for f := range g.left {
		names = append(names, f)
	}
	sort.Strings(names)
	return names
}

// degree counts the files left that f uses (out) or that use f.
func (g *graph) degree(f string, out bool) (n int) {
	for e := range g.edges {
		from, to := e.from, e.to
		if !out {
			from, to = to, from
		}
		if from == f && g.left[to] {
			n++
		}
	}
	return n
}

// take orders the files of names still left for which ok holds, in name
// order.
func (g *graph) take(names []string, ok func(string) bool) []string {
	var out []string
	for _, f := range names {
		if g.left[f] && ok(f) {
			out = append(out, f)
			delete(g.left, f)
		}
	}
	return out
}

// mostUsing is the file of names that uses the most files left over the
// files that use it.
func (g *graph) mostUsing(names []string) string {
	best, bestD := "", 0
	for _, f := range names {
		if d := g.degree(f, true) - g.degree(f, false); best == "" || d > bestD {
			best, bestD = f, d
		}
	}
	return best
}
