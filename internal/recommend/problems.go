// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds how validate collects what it finds: the
// *ValidationError Recommend returns, and the fatal and soft problems with
// their checks of enums and ranges.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// ValidationError is returned by Recommend when the request cannot be
// interpreted (an unknown enum value, a number out of range, a malformed
// version). Contradictions between valid inputs are not validation errors
// for Recommend: they leave no size, and Recommend returns a *NoFitError.
type ValidationError struct {
	Errors []FieldError
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid recommendation request:")
	for _, fe := range e.Errors {
		b.WriteString("\n  - ")
		b.WriteString(strings.Join(fe.Path, "."))
		b.WriteString(": ")
		b.WriteString(fe.Summary)
		b.WriteString(": ")
		b.WriteString(fe.Detail)
	}
	return b.String()
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// problems collects what validate finds: fatal problems (Recommend cannot
// interpret the request) and soft ones, KindNoMatch (noMatch) or
// KindIgnored (ignore).
type problems struct{ fatal, soft []FieldError }

func (p *problems) invalid(f FieldError) { p.fatal = append(p.fatal, f) }

func (p *problems) noMatch(f FieldError) { p.soft = append(p.soft, f) }

// ignore adds a soft problem Recommend works around.
func (p *problems) ignore(f FieldError) {
	f.Kind = KindIgnored
	p.soft = append(p.soft, f)
}

// enum checks v against the allowed values ("" is unset), suggesting the
// value a wrong case or a near miss meant.
func (p *problems) enum(v string, allowed []string, summary string, path ...string) {
	if v != "" && !slices.Contains(allowed, v) {
		p.invalid(fe(summary, fmt.Sprintf("%s must be one of %s; got %q.%s", strings.Join(path, "."), catalog.QuoteList(allowed), v, catalog.DidYouMean(v, allowed)), path...))
	}
}

// add adds a range error, when there is one.
func (p *problems) add(f *FieldError) {
	if f != nil {
		p.invalid(*f)
	}
}

// rangeF and rangeI check a number that is set against its range.
func (p *problems) rangeF(r NumberRange, v *float64) {
	if v != nil {
		p.add(r.Check(*v, r.Name))
	}
}

func (p *problems) rangeI(r NumberRange, v *int64) {
	if v != nil {
		p.add(r.CheckInt(*v, r.Name))
	}
}

// markSoft marks the soft problems: KindNoMatch unless ignore made them
// KindIgnored.
func markSoft(fs []FieldError) []FieldError {
	for i := range fs {
		fs[i].Soft = true
		if fs[i].Kind == KindInvalid {
			fs[i].Kind = KindNoMatch
		}
	}
	return fs
}
