// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Problem is the kind of a FieldError. It sets the error's summary, so
// callers tell problems apart by kind, never by their text.
type Problem int

// The kinds of problems with a filter's fields.
const (
	UnknownSize     Problem = iota + 1 // a size name the catalog does not know
	UnknownRegion                      // a region the catalog does not know
	UnknownFamily                      // a family the catalog does not know
	UnknownSeries                      // a series the catalog does not know
	UnknownGPUModel                    // a GPU model the catalog does not know
	UnknownModel                       // an open model the catalog does not know
	InvalidValue                       // a value outside a fixed set (a category, a vendor, a model kind)
	InvalidNumber                      // a number out of range
	InvalidPattern                     // a regular expression that does not compile
	MissingName                        // an empty or blank name where one is required
)

// Summary is the short Title Case heading of the problem.
func (p Problem) Summary() string {
	switch p {
	case UnknownSize:
		return "Unknown VM Size"
	case UnknownRegion:
		return "Unknown Region"
	case UnknownFamily:
		return "Unknown Family"
	case UnknownSeries:
		return "Unknown Series"
	case UnknownGPUModel:
		return "Unknown GPU Model"
	case UnknownModel:
		return "Unknown Model"
	case InvalidNumber:
		return "Value Out Of Range"
	case InvalidPattern:
		return "Invalid Regular Expression"
	case MissingName:
		return "Missing Name"
	}
	return "Invalid Value"
}

// FieldError is one problem with one field of a filter.
type FieldError struct {
	// Path names the field, e.g. {"families", "1"}: an element made of
	// digits is a list index.
	Path []string
	// Kind is what is wrong; it sets Summary.
	Kind Problem
	// Detail is full sentences naming the allowed values or the fix.
	Detail string
}

// Summary is the heading of the error's kind.
func (e FieldError) Summary() string { return e.Kind.Summary() }

func (e FieldError) Error() string {
	return strings.Join(e.Path, ".") + ": " + e.Summary() + ": " + e.Detail
}

// FilterInput is a Filter as a configuration gives it: its names as
// written, not yet checked against the catalog, and the name pattern as
// text (Filter.NameRegex is not read).
type FilterInput struct {
	Filter
	NameRegex string // RE2; "" for none
}

// ValidateFilter checks a filter's fields against the catalog and returns
// the Filter to run, with the catalog's spelling of every name, or the
// problems, each on its field (list entries by index). The paths are the
// hpcsku_catalog attribute names.
func ValidateFilter(c *Catalog, in FilterInput) (Filter, []FieldError) {
	var errs []FieldError
	f := in.Filter
	names := func(field string, k NameKind, values []string) []string {
		var out []string
		for i, v := range values {
			if name, ok := c.Canonical(k, v); ok {
				out = append(out, name)
			} else {
				errs = append(errs, c.UnknownNameError(k, v, field, strconv.Itoa(i)))
			}
		}
		return out
	}
	f.Families = names("families", FamilyName, in.Families)
	f.Series = names("series", SeriesName, in.Series)
	f.GPUModels = names("gpu_models", GPUModelName, in.GPUModels)
	f.Categories = oneOf(&errs, "categories", "category", in.Categories, Categories())
	if in.GPUVendor != "" {
		if !anyFold(Vendors(), strings.TrimSpace(in.GPUVendor)) {
			errs = append(errs, FieldError{Path: []string{"gpu_vendor"}, Kind: InvalidValue, Detail: notOneOf("GPU vendor", in.GPUVendor, Vendors())})
		}
		f.GPUVendor = strings.ToLower(strings.TrimSpace(in.GPUVendor))
	}
	if in.Region != "" {
		var ok bool
		if f.Region, ok = c.Canonical(RegionName, in.Region); !ok {
			errs = append(errs, c.UnknownNameError(RegionName, in.Region, "region"))
		}
	}
	for _, n := range []struct {
		field string
		v     *float64
	}{{"min_gpus", in.MinGPUs}, {"min_gpu_memory_gib", in.MinGPUMemoryGiB}} {
		if n.v != nil && (math.IsNaN(*n.v) || math.IsInf(*n.v, 0) || *n.v < 0) {
			errs = append(errs, FieldError{Path: []string{n.field}, Kind: InvalidNumber,
				Detail: fmt.Sprintf("%s must be zero or more; got %v.", n.field, *n.v)})
		}
	}
	f.NameRegex = compilePattern(&errs, "name_regex", in.NameRegex)
	if len(errs) > 0 {
		return Filter{}, errs
	}
	return f, nil
}

// oneOf checks the entries of a list field against a fixed set,
// case-insensitively, and returns them in lower case.
func oneOf(errs *[]FieldError, field, what string, values, allowed []string) []string {
	var out []string
	for i, v := range values {
		if !anyFold(allowed, strings.TrimSpace(v)) {
			*errs = append(*errs, FieldError{Path: []string{field, strconv.Itoa(i)}, Kind: InvalidValue, Detail: notOneOf(what, v, allowed)})
			continue
		}
		out = append(out, strings.ToLower(strings.TrimSpace(v)))
	}
	return out
}

// notOneOf says that a value is not one of a fixed set.
func notOneOf(what, v string, allowed []string) string {
	return fmt.Sprintf("The %s %q is not one of: %s.", what, v, strings.Join(allowed, ", "))
}

// CompilePattern compiles a name pattern (RE2), as the filters' name_regex.
// A pattern that does not compile gives an InvalidPattern FieldError with no
// path.
func CompilePattern(pattern string) (*regexp.Regexp, *FieldError) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, &FieldError{Kind: InvalidPattern,
			Detail: fmt.Sprintf("The value %q is not a valid RE2 regular expression: %s.", pattern, err)}
	}
	return re, nil
}

// compilePattern compiles the pattern given in a field, adding an error when
// it does not compile; "" is no pattern.
func compilePattern(errs *[]FieldError, field, pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	re, fe := CompilePattern(pattern)
	if fe != nil {
		fe.Path = []string{field}
		*errs = append(*errs, *fe)
	}
	return re
}

// ModelFilter selects open models. Zero values select every model.
type ModelFilter struct {
	Kinds     []string
	NameRegex *regexp.Regexp // matched against the identifier and the name
}

// ModelFilterInput is a ModelFilter as a configuration gives it.
type ModelFilterInput struct {
	Kinds     []string
	NameRegex string // RE2; "" for none
}

// ValidateModelFilter checks a model filter's fields and returns the
// ModelFilter to run, or the problems, each on its field (the hpcsku_models
// attribute names).
func ValidateModelFilter(in ModelFilterInput) (ModelFilter, []FieldError) {
	var errs []FieldError
	var f ModelFilter
	f.Kinds = oneOf(&errs, "kinds", "model kind", in.Kinds, ModelKinds())
	f.NameRegex = compilePattern(&errs, "name_regex", in.NameRegex)
	if len(errs) > 0 {
		return ModelFilter{}, errs
	}
	return f, nil
}

// FilterModels returns the models that pass the filter, ordered by id.
func (c *Catalog) FilterModels(f ModelFilter) []*Model {
	var out []*Model
	for _, m := range c.models.list {
		if len(f.Kinds) > 0 && !anyFold(f.Kinds, m.Kind) {
			continue
		}
		if f.NameRegex != nil && !f.NameRegex.MatchString(m.ID) && !f.NameRegex.MatchString(m.Name) {
			continue
		}
		out = append(out, m)
	}
	return out
}
