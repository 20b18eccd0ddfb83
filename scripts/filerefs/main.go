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
	left := map[string]bool{}
	for _, f := range files {
		left[f] = true
	}
	out := func(f string) (n int) { // files f uses
		for e := range edges {
			if e.from == f && left[e.to] {
				n++
			}
		}
		return n
	}
	in := func(f string) (n int) { // files that use f
		for e := range edges {
			if e.to == f && left[e.from] {
				n++
			}
		}
		return n
	}
	var top, bottom []string
	for len(left) > 0 {
		names := make([]string, 0, len(left))
		for f := range left {
			names = append(names, f)
		}
		sort.Strings(names)
		took := false
		for _, f := range names {
			if out(f) == 0 {
				bottom = append(bottom, f)
				delete(left, f)
				took = true
			}
		}
		for _, f := range names {
			if left[f] && in(f) == 0 {
				top = append(top, f)
				delete(left, f)
				took = true
			}
		}
		if took || len(left) == 0 {
			continue
		}
		best, bestD := "", 0
		for _, f := range names {
			if d := out(f) - in(f); best == "" || d > bestD {
				best, bestD = f, d
			}
		}
		top = append(top, best)
		delete(left, best)
	}
	slices.Reverse(bottom)
	return append(top, bottom...)
}
