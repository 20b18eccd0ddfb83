// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file lays the user's overlay files over a catalog: a catalog file in
// the catalog's own format (new sizes, corrections), availability and
// prices. Package azureexport reads availability and prices from the files
// Azure's tools export and hands them over as an AvailabilityOverlay and a
// PriceOverlay. The result is a new Catalog; the one it was made from is
// not changed.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// CatalogFile is a user-supplied document in the catalog's own format.
type CatalogFile struct {
	File     string
	Document Document
}

const catalogFileHint = "A catalog file holds the sizes, series, GPU models, images, performance facts, models and decisions to add or correct, not a copy of the whole catalog."

// CatalogFileSections names the sections a catalog file may have, for messages.
const CatalogFileSections = "skus, series, gpu_models, gpu_performance, series_performance, images, models or decisions"

// LoadCatalogFile reads a catalog file of at most
// userfile.DefaultLimits().CatalogFile bytes (or what userfile.MaxBytes
// sets) and decodes it strictly: unknown fields, wrong types, trailing
// data, a "catalog" section and entries defined twice are errors, each a
// *userfile.Error.
func LoadCatalogFile(path string, opts ...userfile.Option) (*CatalogFile, error) {
	kind := userfile.Kind{Name: "catalog file", MaxBytes: userfile.DefaultLimits().CatalogFile, Hint: catalogFileHint}
	return userfile.Load(path, kind, ParseCatalogFile, opts...)
}

// ParseCatalogFile decodes a catalog file from memory; file names it in errors.
func ParseCatalogFile(file string, data []byte) (*CatalogFile, error) {
	data = userfile.Text(data)
	ferr := userfile.ErrorsIn(file)
	if userfile.FirstByte(data) == 0 {
		return nil, ferr("", "", "the file is empty. A catalog file is a JSON object with "+CatalogFileSections+" lists.")
	}
	doc, err := DecodeDocument(bytes.NewReader(data))
	if err != nil {
		return nil, locateDocumentError(file, data, err)
	}
	if doc.Catalog != nil {
		return nil, ferr("", "catalog", "not allowed in a catalog file: the version and dates belong to the embedded catalog. Remove the \"catalog\" section.")
	}
	if len(doc.SKUs)+len(doc.Series)+len(doc.GPUModels)+len(doc.Images)+len(doc.Decisions)+
		len(doc.GPUPerformance)+len(doc.SeriesPerformance)+len(doc.Models) == 0 {
		return nil, ferr("", "", "the file has no entries: give "+CatalogFileSections+".")
	}
	type keyed struct {
		section string
		keys    []string
		field   string
	}
	lists := []keyed{
		{"skus", keysOf(doc.SKUs, func(d SKUDoc) string { return d.Name }), "name"},
		{"series", keysOf(doc.Series, func(d SeriesDoc) string { return d.Name }), "name"},
		{"gpu_models", keysOf(doc.GPUModels, func(d GPUModelDoc) string { return d.ID }), "id"},
		{"images", keysOf(doc.Images, func(d ImageDoc) string { return d.ID }), "id"},
		{"decisions", keysOf(doc.Decisions, func(d DecisionDoc) string { return d.ID }), "id"},
		{"gpu_performance", keysOf(doc.GPUPerformance, func(d GPUPerformanceDoc) string { return d.GPUModel }), "gpu_model"},
		{"series_performance", keysOf(doc.SeriesPerformance, func(d SeriesPerformanceDoc) string { return d.Series }), "series"},
		{"models", keysOf(doc.Models, func(d ModelDoc) string { return d.ID }), "id"},
	}
	for _, l := range lists {
		seen := map[string]int{}
		for i, k := range l.keys {
			entry := fmt.Sprintf("%s[%d] (%s)", l.section, i, k)
			if strings.TrimSpace(k) == "" {
				return nil, ferr(fmt.Sprintf("%s[%d]", l.section, i), l.field, "missing: every entry needs one.")
			}
			lk := strings.ToLower(k)
			if first, dup := seen[lk]; dup {
				return nil, ferr(entry, l.field, fmt.Sprintf("duplicate: %s[%d] has the same %s. Each entry appears once in a catalog file.", l.section, first, l.field))
			}
			seen[lk] = i
		}
	}
	return &CatalogFile{File: file, Document: doc}, nil
}

// locateDocumentError finds the entry and field a strict decoding error is
// about, by decoding the document again one entry at a time.
func locateDocumentError(file string, data []byte, err error) error {
	ferr := userfile.ErrorsIn(file)
	var top map[string]json.RawMessage
	if uerr := json.Unmarshal(data, &top); uerr != nil {
		var se *json.SyntaxError
		if errors.As(uerr, &se) {
			return ferr("", "", userfile.SyntaxProblem(data, se, 0))
		}
		var te *json.UnmarshalTypeError
		if errors.As(uerr, &te) {
			return ferr("", "", fmt.Sprintf("expected a JSON object with %s lists, got %s.", CatalogFileSections, userfile.ValueKind(te.Value)))
		}
		return ferr("", "", uerr.Error()+".")
	}
	if err.Error() == "unexpected data after the JSON document" {
		return ferr("", "", "unexpected data after the JSON document.")
	}
	sections := map[string]func(file, section string, list []byte) *userfile.Error{
		"skus":       findEntry(func(d *SKUDoc) string { return d.Name }),
		"series":     findEntry(func(d *SeriesDoc) string { return d.Name }),
		"gpu_models": findEntry(func(d *GPUModelDoc) string { return d.ID }),
		"images":     findEntry(func(d *ImageDoc) string { return d.ID }),
		"decisions":  findEntry(func(d *DecisionDoc) string { return d.ID }),
		"catalog":    nil,

		"gpu_performance":    findEntry(func(d *GPUPerformanceDoc) string { return d.GPUModel }),
		"series_performance": findEntry(func(d *SeriesPerformanceDoc) string { return d.Series }),
		"models":             findEntry(func(d *ModelDoc) string { return d.ID }),
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		find, known := sections[k]
		if !known {
			return ferr("", k, "unknown section: a catalog file may have "+strings.Replace(CatalogFileSections, " or ", " and ", 1)+".")
		}
		if find == nil {
			continue
		}
		var items []json.RawMessage
		if uerr := json.Unmarshal(top[k], &items); uerr != nil {
			var te *json.UnmarshalTypeError
			if errors.As(uerr, &te) {
				return ferr("", k, fmt.Sprintf("expected a list of objects, got %s.", userfile.ValueKind(te.Value)))
			}
			return ferr("", k, uerr.Error()+".")
		}
		if fe := find(file, k, top[k]); fe != nil {
			return fe
		}
	}
	return ferr("", "", err.Error()+".")
}

// findEntry returns a function that finds the first entry of a section's
// list that does not decode strictly as a T, and names it "skus[3]
// (Standard_X)"; key is the entry's name or id.
func findEntry[T any](key func(*T) string) func(file, section string, list []byte) *userfile.Error {
	return func(file, section string, list []byte) *userfile.Error {
		fe := userfile.Entries[T]{
			File: file,
			Name: func(i int, e *T) string {
				if k := key(e); k != "" {
					return fmt.Sprintf("%s[%d] (%s)", section, i, k)
				}
				return fmt.Sprintf("%s[%d]", section, i)
			},
			Object:      "an object",
			Strict:      true,
			UnknownHint: unknownFieldHint,
		}.Find(list)
		if fe != nil && fe.Problem == "unknown field. "+unknownFieldHint {
			fe.Problem = "unknown field. " + didYouMean(closeFieldNames(reflect.TypeFor[T](), fe.Field)) + unknownFieldHint
		}
		return fe
	}
}

const unknownFieldHint = "Check the spelling against the catalog's own data files (internal/catalog/data)."

// closeFieldNames returns the field names of an entry of type t, at any
// depth, that an unknown field name is a likely misspelling of: within two
// edits, and fewer than half its length ("azure_ml" for "azureml").
func closeFieldNames(t reflect.Type, field string) []string {
	q := strings.ToLower(field)
	limit := min(2, (len([]rune(q))-1)/2)
	var out []string
	for _, name := range jsonFieldNames(t) {
		if EditDistance(q, name) <= limit {
			out = append(out, name)
		}
	}
	return out
}

// didYouMean is the sentence that offers names, with a trailing space, or "".
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "Did you mean " + strconv.Quote(names[0]) + "? "
	}
	return "Did you mean one of: " + QuoteList(names) + "? "
}

// jsonFieldNames lists the JSON field names of a document type and of the
// types it holds (through pointers, lists and maps), sorted.
func jsonFieldNames(t reflect.Type) []string {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			names[name] = true
			walk(f.Type)
		}
	}
	walk(t)
	return sortedKeys(names)
}

// Overlays are the user's files laid over a catalog. Each is optional.
type Overlays struct {
	Catalog      *CatalogFile
	Availability *AvailabilityOverlay
	Prices       *PriceOverlay
}

// AvailabilityOverlay says where sizes are offered to a subscription, read
// from a file the user exported (package azureexport reads the output of
// `az vm list-skus`).
type AvailabilityOverlay struct {
	File    string                      // the path as configured
	Regions []string                    // every region the file lists, lower case, sorted
	Sizes   map[string]SizeAvailability // by lower-case size name
}

// SizeAvailability is one size of an AvailabilityOverlay.
type SizeAvailability struct {
	QuotaFamily string                         // for example standardNDSH100v5Family
	Regions     map[string]*RegionAvailability // by lower-case region
}

// Restriction types and reason codes of the Resource SKUs API.
const (
	RestrictionLocation = "Location"
	RestrictionZone     = "Zone"

	ReasonNotAvailableForSubscription = "NotAvailableForSubscription"
	ReasonQuotaID                     = "QuotaId"
)

// RegionAvailability is a size in one location.
type RegionAvailability struct {
	Region string
	// Zones the size can be deployed to: the location's zones minus the
	// restricted ones, sorted. Empty in a location without zones.
	Zones []string
	// OfferedZones are the location's zones before restrictions.
	OfferedZones []string
	Restrictions []Restriction
}

// Restriction is one restriction the subscription has on a size in a location.
type Restriction struct {
	Type       string   // Location or Zone
	ReasonCode string   // NotAvailableForSubscription or QuotaId
	Zones      []string // the restricted zones, for Zone restrictions
}

// Restricted reports whether a Location restriction keeps the subscription
// from deploying the size in the location at all.
func (r *RegionAvailability) Restricted() bool { return r.LocationRestriction() != nil }

// LocationRestriction is the first Location restriction, or nil.
func (r *RegionAvailability) LocationRestriction() *Restriction {
	for i := range r.Restrictions {
		if r.Restrictions[i].Type == RestrictionLocation {
			return &r.Restrictions[i]
		}
	}
	return nil
}

// PriceOverlay is prices read from a file the user names (package
// azureexport reads the Azure Retail Prices API's JSON and CSV). They
// replace the catalog's for the sizes and regions they give.
type PriceOverlay struct {
	File string // the path as configured
	// Source says where the prices come from, for Price.Source: "prices
	// file prices.json (Azure Retail Prices API JSON)".
	Source       string
	SnapshotDate string // YYYY-MM-DD, or "" when unknown
	// Prices by lower-case size name, then lower-case region.
	Prices map[string]map[string]OverlayPrice
}

// OverlayPrice is a size's price in one region from a PriceOverlay. Either
// price may be nil (a file of spot meters gives no on-demand price).
type OverlayPrice struct {
	USDPerHour     *float64
	SpotUSDPerHour *float64
}

// OverlayReport says what the overlays did, for warnings.
type OverlayReport struct {
	// SizesAdded are sizes the catalog file added; SizesReplaced those it corrected.
	SizesAdded, SizesReplaced []string
	// PricesApplied counts size-region prices taken from the prices file.
	PricesApplied int
}

// WithOverlays returns a new catalog with the overlays applied: the catalog
// file's entries merged over the catalog's documents (later entries replace
// earlier ones), then the prices file's prices replacing the catalog's for
// the sizes and regions it gives, then the availability file's regions,
// zones, restrictions and quota families. The catalog's facts about a size
// are never taken from the availability file.
func (c *Catalog) WithOverlays(o Overlays) (*Catalog, *OverlayReport, error) {
	rep := &OverlayReport{}
	var nc *Catalog
	if o.Catalog != nil {
		docs := append(append([]Document{}, c.docs...), o.Catalog.Document)
		built, err := Build(docs, optReader(c.priceCSV), optReader(c.spotCSV))
		if err != nil {
			return nil, nil, buildFileError(o.Catalog.File, err)
		}
		nc = built
		nc.docs = c.docs // the overlay is not part of the base documents
		for _, s := range o.Catalog.Document.SKUs {
			if _, ok := c.Lookup(s.Name); ok {
				rep.SizesReplaced = append(rep.SizesReplaced, s.Name)
			} else {
				rep.SizesAdded = append(rep.SizesAdded, s.Name)
			}
		}
	} else {
		nc = c.clone()
	}
	if p := o.Prices; p != nil {
		nc.applyPrices(p, rep)
	}
	if a := o.Availability; a != nil {
		nc.applyAvailability(a)
	}
	nc.collectRegions()
	return nc, rep, nil
}

func optReader(b []byte) *bytes.Reader {
	if b == nil {
		return nil
	}
	return bytes.NewReader(b)
}

// buildFileError turns the errors of Build over a catalog file into one
// *userfile.Error. Build's messages start with the entry ("size Standard_X: ...").
func buildFileError(file string, err error) error {
	lines := strings.Split(err.Error(), "\n")
	if len(lines) == 1 {
		entry, problem, ok := strings.Cut(lines[0], ": ")
		if ok {
			return &userfile.Error{File: file, Entry: entry, Problem: problem + "."}
		}
	}
	return &userfile.Error{File: file, Problem: "the catalog with this file's entries is invalid:\n  - " + strings.Join(lines, "\n  - ")}
}

// clone copies the catalog and its sizes, so overlays can change them.
func (c *Catalog) clone() *Catalog {
	nc := *c
	nc.skus = make([]*SKU, len(c.skus))
	nc.byName = make(map[string]*SKU, len(c.byName))
	for i, s := range c.skus {
		cp := *s
		cp.Prices = make(map[string]Price, len(s.Prices))
		for r, p := range s.Prices {
			cp.Prices[r] = p
		}
		nc.skus[i] = &cp
		nc.byName[strings.ToLower(cp.Name)] = &cp
	}
	nc.regions = append([]string(nil), c.regions...)
	return &nc
}

func (c *Catalog) applyPrices(p *PriceOverlay, rep *OverlayReport) {
	for key, regions := range p.Prices {
		s, ok := c.byName[key]
		if !ok {
			continue // the file prices a size the catalog does not have
		}
		for region, fp := range regions {
			cur, had := s.Prices[region]
			np := cur
			np.Region = region
			if fp.USDPerHour != nil {
				np.USDPerHour = *fp.USDPerHour
				np.SnapshotDate = cur.SnapshotDate
				if p.SnapshotDate != "" {
					np.SnapshotDate = p.SnapshotDate
				}
				np.Source = p.Source
				np.File = p.File
			} else if !had {
				continue // a spot price without an on-demand price to go with it
			}
			if fp.SpotUSDPerHour != nil {
				sp := *fp.SpotUSDPerHour
				np.SpotUSDPerHour, np.NoSpot = &sp, false
				np.SpotSource = p.Source + ", spot meter"
				np.SpotFile, np.SpotDate = p.File, p.SnapshotDate
			}
			s.Prices[region] = np
			rep.PricesApplied++
		}
	}
}

func (c *Catalog) applyAvailability(a *AvailabilityOverlay) {
	c.availability = a
	for _, s := range c.skus {
		s.Availability = map[string]*RegionAvailability{}
		s.AvailabilitySource = c.AvailabilitySource()
		if as, ok := a.Sizes[strings.ToLower(s.Name)]; ok {
			for r, ra := range as.Regions {
				s.Availability[r] = ra
			}
			if as.QuotaFamily != "" {
				s.QuotaFamily = as.QuotaFamily // the file's family wins over the catalog's
			}
		}
	}
}

// collectRegions lists the priced regions and, with an availability file,
// the regions it lists.
func (c *Catalog) collectRegions() {
	set := map[string]bool{}
	for _, s := range c.skus {
		for r := range s.Prices {
			set[r] = true
		}
	}
	if c.availability != nil {
		for _, r := range c.availability.Regions {
			set[r] = true
		}
	}
	c.regions = c.regions[:0:0]
	for r := range set {
		c.regions = append(c.regions, r)
	}
	sort.Strings(c.regions)
}

// Availability returns the availability laid over the catalog, or nil.
func (c *Catalog) Availability() *AvailabilityOverlay { return c.availability }

// AvailabilitySource says where availability comes from: the availability
// file, or the embedded price snapshot (a size priced in a region is taken
// to be offered there).
func (c *Catalog) AvailabilitySource() string {
	if c.availability != nil {
		return "availability file " + c.availability.File
	}
	return "embedded price snapshot of " + c.PriceSnapshotDate
}

// AvailabilityIn returns the size's availability in a region from the
// availability file; listed is false when the file does not list the size
// there, or when there is no availability file (see HasAvailability).
func (s *SKU) AvailabilityIn(region string) (ra *RegionAvailability, listed bool) {
	ra, listed = s.Availability[strings.ToLower(region)]
	return ra, listed
}

// HasAvailability reports whether an availability file was laid over the
// size's catalog.
func (s *SKU) HasAvailability() bool { return s.Availability != nil }

// AvailableIn reports whether the size can be deployed in a region. With
// an availability file: the file lists it there, without a Location
// restriction. Without one: the catalog has a price there.
func (s *SKU) AvailableIn(region string) bool {
	region = strings.ToLower(region)
	if s.Availability != nil {
		ra, ok := s.Availability[region]
		return ok && !ra.Restricted()
	}
	_, ok := s.Prices[region]
	return ok
}

// AvailableRegions lists the regions where the size can be deployed (see
// AvailableIn), sorted.
func (s *SKU) AvailableRegions() []string {
	var out []string
	if s.Availability != nil {
		for r, ra := range s.Availability {
			if !ra.Restricted() {
				out = append(out, r)
			}
		}
	} else {
		for r := range s.Prices {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// keysOf lists the key of every entry of a document section.
func keysOf[T any](entries []T, key func(T) string) []string {
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = key(e)
	}
	return keys
}
