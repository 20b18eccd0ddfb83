// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Every entry of a `sources` list (and an image's `source`) names where a
// fact comes from, in one of three forms, optionally followed by a note in
// parentheses:
//
//	owner/repo:path@commit     a file of a public repository at a commit of
//	                           7 to 40 lower-case hex digits
//	https://host/path          a web page
//	Title (YYYY-MM-DD)         a titled document and its own date (published
//	                           or last updated; YYYY-MM or YYYY when the
//	                           document gives no day)
//
// for example
//
//	MicrosoftDocs/azure-compute-docs:articles/virtual-machines/sizes/gpu-accelerated/ndh100v5-series.md@02773904e1bc237bc0c6251323af05c0dc7f5c3b
//	https://developer.nvidia.com/cuda-gpus (compute capabilities)
//	Microsoft Tech Community blog post 4503578 (2026-03-18) (GA size table)
//
// SourcePattern is the grammar as a regular expression (RE2 and ECMA-262
// alike), used by the data files' JSON Schemas; ParseSource also checks
// that a URL has a host and a date is a real date.
const SourcePattern = `^(?:[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*:[^\s@]+@[0-9a-f]{7,40}|https://[^\s/]\S*|\S.*? \(\d{4}(?:-\d{2}(?:-\d{2})?)?\))(?: \(.+\))?$`

// SourceGrammar describes the forms in error messages.
const SourceGrammar = `owner/repo:path@commit (a repository file at a 7-40 hex digit commit), an https:// URL, or "Title (YYYY-MM-DD)" (a titled document and its date), each optionally followed by " (note)"`

var (
	repoFileRE  = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*):([^\s@]+)@([0-9a-f]{7,40})$`)
	documentRE  = regexp.MustCompile(`^(\S.*?) \((\d{4}(?:-\d{2}(?:-\d{2})?)?)\)$`)
	dateLayouts = map[int]string{len("2006"): "2006", len("2006-01"): "2006-01", len(DateLayout): DateLayout}
)

// Source is one parsed entry of a sources list: exactly one of Repository
// (with Path and Commit), URL, or Title (with Date) is set.
type Source struct {
	Repository, Path, Commit string
	URL                      string
	Title, Date              string
	Note                     string
}

// ParseSource parses a source entry in the grammar above.
func ParseSource(s string) (Source, error) {
	if src, ok := parseLocator(s); ok {
		return src, nil
	}
	// The note is the text from one of the " (" to the closing parenthesis
	// at the end; the locator before it must parse. A document's date is in
	// parentheses too, so try each opening from the left.
	if strings.HasSuffix(s, ")") {
		for i := 0; ; {
			j := strings.Index(s[i:], " (")
			if j < 0 {
				break
			}
			i += j
			if note := s[i+2 : len(s)-1]; note != "" {
				if src, ok := parseLocator(s[:i]); ok {
					src.Note = note
					return src, nil
				}
			}
			i += 2
		}
	}
	return Source{}, fmt.Errorf("%q is not a source: write %s", s, SourceGrammar)
}

// Locator is a source without its note: where the fact is documented. A
// string that is no source is returned as it is.
func Locator(s string) string {
	if src, err := ParseSource(s); err == nil && src.Note != "" {
		return strings.TrimSuffix(s, " ("+src.Note+")")
	}
	return s
}

func parseLocator(s string) (Source, bool) {
	if m := repoFileRE.FindStringSubmatch(s); m != nil {
		return Source{Repository: m[1], Path: m[2], Commit: m[3]}, true
	}
	if strings.HasPrefix(s, "https://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || strings.ContainsAny(s, " \t\n") {
			return Source{}, false
		}
		return Source{URL: s}, true
	}
	if m := documentRE.FindStringSubmatch(s); m != nil {
		if _, err := time.Parse(dateLayouts[len(m[2])], m[2]); err != nil {
			return Source{}, false
		}
		return Source{Title: m[1], Date: m[2]}, true
	}
	return Source{}, false
}

// validateDataFacts checks what the data files state beyond the joined
// sizes: every source entry against the grammar, and the generation years
// (years.go).
func (c *Catalog) validateDataFacts() []error {
	var errs []error
	check := func(entry, field string, list []string) {
		for i, s := range list {
			if _, err := ParseSource(s); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s[%d] %w", entry, field, i, err))
			}
		}
	}
	checkOne := func(entry, field, s string) {
		if _, err := ParseSource(s); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s %w", entry, field, err))
		}
	}
	check("catalog", "sources", c.Sources)
	for _, d := range c.Decisions {
		check("decision "+d.ID, "sources", d.Sources)
	}
	for _, id := range sortedKeys(c.gpuModels) {
		check("GPU model "+id, "sources", c.gpuModels[id].Sources)
	}
	for _, name := range sortedKeys(c.series) {
		sr := c.series[name]
		check("series "+name, "sources", sr.Sources)
		check("series "+name, "lifecycle.sources", sr.Lifecycle.Sources)
		check("series "+name, "support.sources", sr.Support.Sources)
		if sr.Placement != nil {
			check("series "+name, "placement.sources", sr.Placement.Sources)
		}
		check("series "+name, "node_auto_provisioning_sources", sr.NodeAutoProvisioningSources)
		check("series "+name, "nccl_env_sources", sr.NCCLEnvSources)
		check("series "+name, "max_mpi_job_vms_sources", sr.MaxMPIJobVMsSources)
	}
	// Images and size overrides as stored (a later document replaces an
	// earlier entry with the same key); sizes that did not join are
	// reported by Build already.
	images := map[string]ImageDoc{}
	sizes := map[string]SKUDoc{}
	for _, d := range c.docs {
		for _, im := range d.Images {
			images[im.ID] = im
		}
		for _, s := range d.SKUs {
			sizes[strings.ToLower(s.Name)] = s
		}
	}
	for _, id := range sortedKeys(images) {
		checkOne("image "+id, "source", images[id].Source)
		if u := images[id].URNSource; u != "" {
			checkOne("image "+id, "urn_source", u)
		}
	}
	for _, s := range c.skus {
		d := sizes[strings.ToLower(s.Name)]
		check("size "+s.Name, "sources", d.Sources)
		if d.Lifecycle != nil {
			check("size "+s.Name, "lifecycle.sources", d.Lifecycle.Sources)
		}
		if d.Support != nil {
			check("size "+s.Name, "support.sources", d.Support.Sources)
		}
	}
	return append(errs, c.validateYears()...)
}

// sortedKeys returns the keys of m in order, so that errors come out in a
// stable order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkSourceList checks that every entry of a list of sources parses
// (ParseSource), naming the list's field in the error.
func checkSourceList(field string, sources []string) error {
	for _, src := range sources {
		if _, err := ParseSource(src); err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
	}
	return nil
}
