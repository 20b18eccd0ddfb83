// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The domain validators (catalog.ValidateFilter, recommend.Engine.Validate)
// report problems as field errors: a path of attribute names and list
// indexes, a summary and a detail. The data sources only map them to
// attribute diagnostics, here.

// fieldPath turns a field error's path into an attribute path: an element
// made of digits is a list index.
func fieldPath(parts []string) path.Path {
	if len(parts) == 0 {
		return path.Empty()
	}
	p := path.Root(parts[0])
	for _, s := range parts[1:] {
		if i, err := strconv.Atoi(s); err == nil {
			p = p.AtListIndex(i)
			continue
		}
		p = p.AtName(s)
	}
	return p
}

// addFieldError adds one field error as an error on its attribute.
func addFieldError(diags *diag.Diagnostics, p []string, summary, detail string) {
	diags.AddAttributeError(fieldPath(p), summary, detail)
}

// addCatalogErrors adds the catalog's field errors, each on its attribute,
// with the summary of its kind.
func addCatalogErrors(diags *diag.Diagnostics, errs ...catalog.FieldError) {
	for _, e := range errs {
		addFieldError(diags, e.Path, e.Summary(), e.Detail)
	}
}

// maxDiagnosticsPerProblem bounds the diagnostics one attribute gets for one
// kind of problem. A list of 5,000 unknown names gave 5,000 errors (about
// 6 MB of plan output); now it gives this many and one that counts the rest.
const maxDiagnosticsPerProblem = 5

// limitDiagnostics keeps at most maxDiagnosticsPerProblem diagnostics of each
// severity, summary and attribute (list indexes and nested steps ignored), in
// their order, and ends each group it cut short with one diagnostic of the
// same severity and summary on the attribute that counts what was left out.
func limitDiagnostics(diags diag.Diagnostics) diag.Diagnostics {
	type group struct {
		severity diag.Severity
		summary  string
		attr     string
		path     path.Path
		dropped  int
	}
	var (
		groups []*group
		byKey  = map[string]*group{}
		count  = map[string]int{}
		out    = make(diag.Diagnostics, 0, len(diags))
	)
	for _, d := range diags {
		attr, p := "", path.Empty()
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			if steps := dp.Path().Steps(); len(steps) > 0 {
				if name, ok := steps[0].(path.PathStepAttributeName); ok {
					attr, p = string(name), path.Root(string(name))
				}
			}
		}
		key := fmt.Sprintf("%d\x00%s\x00%s", d.Severity(), d.Summary(), attr)
		count[key]++
		if count[key] <= maxDiagnosticsPerProblem {
			out = append(out, d)
			continue
		}
		g, ok := byKey[key]
		if !ok {
			g = &group{severity: d.Severity(), summary: d.Summary(), attr: attr, path: p}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.dropped++
	}
	for _, g := range groups {
		where := ""
		if g.attr != "" {
			where = " for " + g.attr
		}
		detail := fmt.Sprintf("%d more diagnostics like the %d above (%q)%s were left out. Fix the ones shown and plan again to see the rest.",
			g.dropped, maxDiagnosticsPerProblem, g.summary, where)
		switch {
		case g.attr != "" && g.severity == diag.SeverityError:
			out.AddAttributeError(g.path, g.summary, detail)
		case g.attr != "":
			out.AddAttributeWarning(g.path, g.summary, detail)
		case g.severity == diag.SeverityError:
			out.AddError(g.summary, detail)
		default:
			out.AddWarning(g.summary, detail)
		}
	}
	return out
}
