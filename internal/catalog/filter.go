package catalog

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
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

// FilterInput is a Filter as a configuration gives it: names not yet
// checked against the catalog, the name pattern not yet compiled.
type FilterInput struct {
	Families        []string
	Series          []string
	Categories      []string
	GPUVendor       string
	GPUModels       []string // model identifiers or names
	RDMA            *bool
	MinGPUs         *float64
	MinGPUMemoryGiB *float64
	Region          string
	IncludeRetired  bool
	IncludePreview  bool
	NameRegex       string // RE2; "" for none
	AsOf            time.Time
}

// ValidateFilter checks a filter's fields against the catalog and returns
// the Filter to run, with the catalog's spelling of every name, or the
// problems, each on its field (list entries by index). The paths are the
// hpcsku_catalog attribute names.
func ValidateFilter(c *Catalog, in FilterInput) (Filter, []FieldError) {
	var errs []FieldError
	f := Filter{
		GPUVendor:      strings.ToLower(strings.TrimSpace(in.GPUVendor)),
		RDMA:           in.RDMA,
		IncludeRetired: in.IncludeRetired,
		IncludePreview: in.IncludePreview,
		AsOf:           in.AsOf,
	}
	names := func(field string, k NameKind, values []string) []string {
		var out []string
		for i, v := range values {
			if name, ok := c.Canonical(k, v); ok {
				out = append(out, name)
				continue
			}
			errs = append(errs, c.UnknownNameError(k, v, field, strconv.Itoa(i)))
		}
		return out
	}
	f.Families = names("families", FamilyName, in.Families)
	f.Series = names("series", SeriesName, in.Series)
	f.GPUModels = names("gpu_models", GPUModelName, in.GPUModels)
	for i, v := range in.Categories {
		if err := oneOf([]string{"categories", strconv.Itoa(i)}, "category", v, Categories()); err != nil {
			errs = append(errs, *err)
			continue
		}
		f.Categories = append(f.Categories, strings.ToLower(strings.TrimSpace(v)))
	}
	if in.GPUVendor != "" {
		if err := oneOf([]string{"gpu_vendor"}, "GPU vendor", in.GPUVendor, Vendors()); err != nil {
			errs = append(errs, *err)
		}
	}
	if in.Region != "" {
		if r, ok := c.Canonical(RegionName, in.Region); ok {
			f.Region = r
		} else {
			errs = append(errs, c.UnknownNameError(RegionName, in.Region, "region"))
		}
	}
	for _, n := range []struct {
		field string
		in    *float64
		out   **float64
	}{{"min_gpus", in.MinGPUs, &f.MinGPUs}, {"min_gpu_memory_gib", in.MinGPUMemoryGiB, &f.MinGPUMemoryGiB}} {
		if n.in != nil && (math.IsNaN(*n.in) || math.IsInf(*n.in, 0) || *n.in < 0) {
			errs = append(errs, FieldError{Path: []string{n.field}, Kind: InvalidNumber,
				Detail: fmt.Sprintf("%s must be zero or more; got %v.", n.field, *n.in)})
			continue
		}
		*n.out = n.in
	}
	re, err := compilePattern("name_regex", in.NameRegex)
	if err != nil {
		errs = append(errs, *err)
	}
	f.NameRegex = re
	if len(errs) > 0 {
		return Filter{}, errs
	}
	return f, nil
}

// oneOf checks a value against a fixed set, case-insensitively.
func oneOf(path []string, what, v string, allowed []string) *FieldError {
	if anyFold(allowed, strings.TrimSpace(v)) {
		return nil
	}
	return &FieldError{Path: path, Kind: InvalidValue,
		Detail: fmt.Sprintf("The %s %q is not one of: %s.", what, v, strings.Join(allowed, ", "))}
}

// compilePattern compiles an RE2 pattern given in a field; "" is no pattern.
func compilePattern(field, pattern string) (*regexp.Regexp, *FieldError) {
	if pattern == "" {
		return nil, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, &FieldError{Path: []string{field}, Kind: InvalidPattern,
			Detail: fmt.Sprintf("The value %q is not a valid RE2 regular expression: %s.", pattern, err)}
	}
	return re, nil
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
	for i, k := range in.Kinds {
		if err := oneOf([]string{"kinds", strconv.Itoa(i)}, "model kind", k, ModelKinds()); err != nil {
			errs = append(errs, *err)
			continue
		}
		f.Kinds = append(f.Kinds, strings.ToLower(strings.TrimSpace(k)))
	}
	re, err := compilePattern("name_regex", in.NameRegex)
	if err != nil {
		errs = append(errs, *err)
	}
	f.NameRegex = re
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
