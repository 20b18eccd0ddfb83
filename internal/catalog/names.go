// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// NameKind is a kind of name a configuration gives the catalog. Every check
// of such a name (Canonical) and every "did you mean" (Suggest,
// UnknownName) goes through it, so that a name is accepted, and an unknown
// one explained, the same way wherever it is given.
type NameKind int

// The kinds of names.
const (
	SizeName     NameKind = iota + 1 // a VM size, "Standard_ND96isr_H100_v5"
	RegionName                       // an Azure region, "eastus"
	FamilyName                       // a size family, "ND"
	SeriesName                       // a size series, "ND-H100-v5"
	GPUModelName                     // a GPU model identifier or name, "h100-sxm-80gb"
	ModelName                        // an open model identifier or name, "llama-3.1-8b"
)

// SuggestionCount is how many names a "did you mean" offers.
const SuggestionCount = 3

// String is the noun messages use for the kind: "size", "GPU model".
func (k NameKind) String() string {
	switch k {
	case SizeName:
		return "size"
	case RegionName:
		return "region"
	case FamilyName:
		return "family"
	case SeriesName:
		return "series"
	case GPUModelName:
		return "GPU model"
	case ModelName:
		return "model"
	}
	return "name"
}

// Unknown is the problem of a name of the kind that the catalog does not
// know.
func (k NameKind) Unknown() Problem {
	switch k {
	case SizeName:
		return UnknownSize
	case RegionName:
		return UnknownRegion
	case FamilyName:
		return UnknownFamily
	case SeriesName:
		return UnknownSeries
	case GPUModelName:
		return UnknownGPUModel
	case ModelName:
		return UnknownModel
	}
	return InvalidValue
}

// nameCandidate is one name of a kind: the catalog's spelling, and the
// forms a query is compared with (an identifier and a display name).
type nameCandidate struct {
	name  string
	forms []string
}

// candidates lists the names of a kind in the catalog.
func (c *Catalog) candidates(k NameKind) []nameCandidate {
	var out []nameCandidate
	add := func(name string, forms ...string) {
		out = append(out, nameCandidate{name: name, forms: forms})
	}
	switch k {
	case SizeName:
		for _, s := range c.skus {
			add(s.Name, s.Name)
		}
	case RegionName:
		for _, r := range c.regions {
			add(r, r)
		}
	case FamilyName:
		for _, f := range c.Families() {
			add(f, f)
		}
	case SeriesName:
		for _, s := range c.SeriesNames() {
			add(s, s)
		}
	case GPUModelName:
		for _, id := range c.GPUModelIDs() {
			g, _ := c.GPUModel(id)
			add(id, id, g.Name)
		}
	case ModelName:
		for _, m := range c.models.list {
			add(m.ID, m.ID, m.Name)
		}
	}
	return out
}

// foldName is the form names of a kind are compared in: lower case without
// surrounding spaces, sizes without their "standard_" prefix, regions
// without spaces, hyphens and underscores (so "East US" is near "eastus").
func foldName(k NameKind, s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch k {
	case SizeName:
		s = strings.TrimPrefix(s, "standard_")
	case RegionName:
		s = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(s)
	}
	return s
}

// Canonical returns the catalog's spelling of a name of the kind and true,
// or "" and false when the catalog does not know it. Names are compared
// case-insensitively, without surrounding spaces; a size may leave out its
// "Standard_" prefix (see Lookup); a GPU model or an open model may be
// given by identifier or by name, and its identifier is returned.
func (c *Catalog) Canonical(k NameKind, name string) (string, bool) {
	switch k {
	case SizeName:
		if s, ok := c.Lookup(name); ok {
			return s.Name, true
		}
		return "", false
	case ModelName:
		if m, ok := c.Model(name); ok {
			return m.ID, true
		}
		return "", false
	}
	name = strings.TrimSpace(name)
	for _, cand := range c.candidates(k) {
		for _, f := range cand.forms {
			if strings.EqualFold(f, name) {
				return cand.name, true
			}
		}
	}
	return "", false
}

// Suggest returns the SuggestionCount names of the kind closest to name,
// for "did you mean" (see suggest).
func (c *Catalog) Suggest(k NameKind, name string) []string {
	return c.suggest(k, name, SuggestionCount)
}

// suggest returns up to n names of the kind closest to name. Names are
// compared in foldName's form, with each of their forms (identifier and
// display name): names one of whose forms contains the query come first,
// the shortest first (a fragment such as "h100" finds the H100 sizes); then
// the others by the edit distance from the query to the beginning of a form
// as long as the query (so "llama-3.1-8" is near "llama-3.1-405b", and a
// short name is not near everything), then to the whole form; ties broken
// by name.
func (c *Catalog) suggest(k NameKind, name string, n int) []string {
	q := foldName(k, name)
	qLen := len([]rune(q))
	type ranked struct {
		name          string
		contains      bool
		prefix, whole int
	}
	cands := c.candidates(k)
	rs := make([]ranked, len(cands))
	for i, cand := range cands {
		r := ranked{name: cand.name, prefix: math.MaxInt, whole: math.MaxInt}
		for _, f := range cand.forms {
			f = foldName(k, f)
			r.contains = r.contains || (q != "" && strings.Contains(f, q))
			r.prefix = min(r.prefix, EditDistance(q, runePrefix(f, qLen)))
			r.whole = min(r.whole, EditDistance(q, f))
		}
		rs[i] = r
	}
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.contains != b.contains {
			return a.contains
		}
		if !a.contains && a.prefix != b.prefix {
			return a.prefix < b.prefix
		}
		if a.whole != b.whole {
			return a.whole < b.whole
		}
		return a.name < b.name
	})
	out := []string{}
	for i := 0; i < len(rs) && i < n; i++ {
		out = append(out, rs[i].name)
	}
	return out
}

// UnknownName explains a name of the kind that the catalog does not know,
// in one form for every kind and every place a name is given: what is
// unknown, the SuggestionCount closest names, then what names of the kind
// look like:
//
//	The region "moon-1" is not in the catalog (version 2026.06.18). Did you mean one of: ...? Use an Azure region name ...
//
// An empty or blank name is missing rather than unknown: it is told that a
// name is required, with what names look like, and no suggestions.
func (c *Catalog) UnknownName(k NameKind, name string) string {
	if blankName(name) {
		return "A " + k.String() + " name is required, not an empty or blank string (got " + strconv.Quote(name) + "). " + c.nameHint(k)
	}
	var b strings.Builder
	b.WriteString("The " + k.String() + " " + strconv.Quote(name) + " is not in the catalog (version " + c.Version + ").")
	if s := c.Suggest(k, name); len(s) > 0 {
		b.WriteString(" Did you mean one of: " + strings.Join(s, ", ") + "?")
	}
	if h := c.nameHint(k); h != "" {
		b.WriteString(" " + h)
	}
	return b.String()
}

// UnknownNameError is the FieldError of a name of the kind that the catalog
// does not know, on the field path names.
func (c *Catalog) UnknownNameError(k NameKind, name string, path ...string) FieldError {
	kind := k.Unknown()
	if blankName(name) {
		kind = MissingName
	}
	return FieldError{Path: path, Kind: kind, Detail: c.UnknownName(k, name)}
}

// blankName reports whether a name is empty or only white space.
func blankName(name string) bool { return strings.TrimSpace(name) == "" }

// nameHint says what names of the kind look like; for the kinds with a few
// dozen names at most, it lists them.
func (c *Catalog) nameHint(k NameKind) string {
	switch k {
	case SizeName:
		return "Names look like Standard_ND96isr_H100_v5."
	case RegionName:
		return "Use an Azure region name in lower case without spaces, one of: " + strings.Join(c.Regions(), ", ") + "."
	case FamilyName:
		return "Use one of: " + strings.Join(c.Families(), ", ") + "."
	case SeriesName:
		return "Use one of: " + strings.Join(c.SeriesNames(), ", ") + "."
	case GPUModelName:
		return "Use a model identifier (one of: " + strings.Join(c.GPUModelIDs(), ", ") + ") or its full name, in any case."
	case ModelName:
		return "Use a model identifier such as llama-3.1-8b or its full name, in any case."
	}
	return ""
}

// runePrefix returns the first n runes of s, or s.
func runePrefix(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// EditDistance is the Levenshtein distance between a and b in runes: the
// fewest insertions, deletions and substitutions that turn one into the
// other. Suggestions ("did you mean") rank candidates by it.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
