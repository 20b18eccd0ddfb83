package catalog

// This file lays the user's overlay files over a catalog: a catalog file in
// the catalog's own format (new sizes, corrections), an availability file
// and a prices file. The result is a new Catalog; the one it was made from
// is not changed.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// CatalogFile is a user-supplied document in the catalog's own format.
type CatalogFile struct {
	File     string
	Document Document
}

const catalogFileHint = "A catalog file holds the sizes, series, GPU models, images, performance facts, models and decisions to add or correct, not a copy of the whole catalog."

// CatalogFileSections names the sections a catalog file may have, for messages.
const CatalogFileSections = "skus, series, gpu_models, gpu_performance, series_performance, images, models or decisions"

// LoadCatalogFile reads a catalog file and decodes it strictly: unknown
// fields, wrong types, trailing data, a "catalog" section and entries
// defined twice are errors.
func LoadCatalogFile(path string) (*CatalogFile, error) {
	b, _, err := readLimited(path, MaxCatalogFileBytes, "catalog file", catalogFileHint)
	if err != nil {
		return nil, err
	}
	return ParseCatalogFile(path, b)
}

// ParseCatalogFile decodes a catalog file from memory; file names it in errors.
func ParseCatalogFile(file string, data []byte) (*CatalogFile, error) {
	data = trimBOM(data)
	ferr := func(entry, field, problem string) error {
		return &FileError{File: file, Entry: entry, Field: field, Problem: problem}
	}
	if firstByte(data) == 0 {
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
		{"skus", nil, "name"}, {"series", nil, "name"}, {"gpu_models", nil, "id"}, {"images", nil, "id"}, {"decisions", nil, "id"},
		{"gpu_performance", nil, "gpu_model"}, {"series_performance", nil, "series"}, {"models", nil, "id"},
	}
	for _, s := range doc.SKUs {
		lists[0].keys = append(lists[0].keys, s.Name)
	}
	for _, s := range doc.Series {
		lists[1].keys = append(lists[1].keys, s.Name)
	}
	for _, g := range doc.GPUModels {
		lists[2].keys = append(lists[2].keys, g.ID)
	}
	for _, im := range doc.Images {
		lists[3].keys = append(lists[3].keys, im.ID)
	}
	for _, d := range doc.Decisions {
		lists[4].keys = append(lists[4].keys, d.ID)
	}
	for _, g := range doc.GPUPerformance {
		lists[5].keys = append(lists[5].keys, g.GPUModel)
	}
	for _, s := range doc.SeriesPerformance {
		lists[6].keys = append(lists[6].keys, s.Series)
	}
	for _, m := range doc.Models {
		lists[7].keys = append(lists[7].keys, m.ID)
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
	ferr := func(entry, field, problem string) error {
		return &FileError{File: file, Entry: entry, Field: field, Problem: problem}
	}
	var top map[string]json.RawMessage
	if uerr := json.Unmarshal(data, &top); uerr != nil {
		var se *json.SyntaxError
		if errors.As(uerr, &se) {
			return ferr("", "", syntaxProblem(data, se, 0))
		}
		var te *json.UnmarshalTypeError
		if errors.As(uerr, &te) {
			return ferr("", "", fmt.Sprintf("expected a JSON object with %s lists, got %s.", CatalogFileSections, jsonValueKind(te.Value)))
		}
		return ferr("", "", uerr.Error()+".")
	}
	if err.Error() == "unexpected data after the JSON document" {
		return ferr("", "", "unexpected data after the JSON document.")
	}
	sections := map[string]func() any{
		"skus":       func() any { return new(SKUDoc) },
		"series":     func() any { return new(SeriesDoc) },
		"gpu_models": func() any { return new(GPUModelDoc) },
		"images":     func() any { return new(ImageDoc) },
		"decisions":  func() any { return new(DecisionDoc) },
		"catalog":    nil,

		"gpu_performance":    func() any { return new(GPUPerformanceDoc) },
		"series_performance": func() any { return new(SeriesPerformanceDoc) },
		"models":             func() any { return new(ModelDoc) },
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		mk, known := sections[k]
		if !known {
			return ferr("", k, "unknown section: a catalog file may have "+strings.Replace(CatalogFileSections, " or ", " and ", 1)+".")
		}
		if mk == nil {
			continue
		}
		var items []json.RawMessage
		if uerr := json.Unmarshal(top[k], &items); uerr != nil {
			var te *json.UnmarshalTypeError
			if errors.As(uerr, &te) {
				return ferr("", k, fmt.Sprintf("expected a list of objects, got %s.", jsonValueKind(te.Value)))
			}
			return ferr("", k, uerr.Error()+".")
		}
		for i, raw := range items {
			var label struct {
				Name     string `json:"name"`
				ID       string `json:"id"`
				GPUModel string `json:"gpu_model"`
				Series   string `json:"series"`
			}
			_ = json.Unmarshal(raw, &label)
			entry := fmt.Sprintf("%s[%d]", k, i)
			n := label.Name + label.ID
			switch k {
			case "gpu_performance":
				n = label.GPUModel
			case "series_performance":
				n = label.Series
			case "models":
				n = label.ID
			}
			if n != "" {
				entry += " (" + n + ")"
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(mk()); derr != nil {
				var te *json.UnmarshalTypeError
				switch {
				case errors.As(derr, &te):
					return ferr(entry, te.Field, typeProblem(te))
				case strings.HasPrefix(derr.Error(), "json: unknown field "):
					f := strings.Trim(strings.TrimPrefix(derr.Error(), "json: unknown field "), `"`)
					return ferr(entry, f, "unknown field. Check the spelling against the catalog's own data files (internal/catalog/data).")
				}
				return ferr(entry, "", derr.Error()+".")
			}
		}
	}
	return ferr("", "", err.Error()+".")
}

// Overlays are the user's files laid over a catalog. Each is optional.
type Overlays struct {
	Catalog      *CatalogFile
	Availability *Availability
	Prices       *PriceFile
}

// OverlayReport says what the overlays did, for warnings.
type OverlayReport struct {
	// SizesAdded are sizes the catalog file added; SizesReplaced those it corrected.
	SizesAdded, SizesReplaced []string
	// UnknownSizes are sizes in the availability file, of the families the
	// catalog covers (N and H, or with GPUs or RDMA), that the catalog does
	// not have. OtherUnknown counts the rest (general-purpose sizes).
	UnknownSizes []*AvailableSize
	OtherUnknown int
	// PricesApplied counts size-region prices taken from the prices file;
	// UnpricedSizes are sizes it prices that the catalog does not have
	// (names as spelled in the file, of the families the catalog covers);
	// OtherUnpriced counts the rest.
	PricesApplied int
	UnpricedSizes []string
	OtherUnpriced int
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
		nc.applyAvailability(a, rep)
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
// FileError. Build's messages start with the entry ("size Standard_X: ...").
func buildFileError(file string, err error) error {
	lines := strings.Split(err.Error(), "\n")
	if len(lines) == 1 {
		entry, problem, ok := strings.Cut(lines[0], ": ")
		if ok {
			return &FileError{File: file, Entry: entry, Problem: problem + "."}
		}
	}
	return &FileError{File: file, Problem: "the catalog with this file's entries is invalid:\n  - " + strings.Join(lines, "\n  - ")}
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

func (c *Catalog) applyPrices(p *PriceFile, rep *OverlayReport) {
	src := p.Describe()
	date := p.SnapshotDate
	for key, regions := range p.Prices {
		s, ok := c.byName[key]
		if !ok {
			name := ""
			for _, fp := range regions {
				name = fp.Size
				break
			}
			if inScopeName(name) {
				rep.UnpricedSizes = append(rep.UnpricedSizes, name)
			} else {
				rep.OtherUnpriced++
			}
			continue
		}
		for region, fp := range regions {
			cur, had := s.Prices[region]
			np := cur
			np.Region = region
			if fp.USDPerHour != nil {
				np.USDPerHour = *fp.USDPerHour
				np.SnapshotDate = orDefault(date, cur.SnapshotDate)
				np.Source = src
				np.File = p.File
			} else if !had {
				continue // a spot price without an on-demand price to go with it
			}
			if fp.SpotUSDPerHour != nil {
				sp := *fp.SpotUSDPerHour
				np.SpotUSDPerHour = &sp
				np.SpotSource = src + ", spot meter"
				np.SpotFile = p.File
			}
			s.Prices[region] = np
			rep.PricesApplied++
		}
	}
	sort.Strings(rep.UnpricedSizes)
}

func (c *Catalog) applyAvailability(a *Availability, rep *OverlayReport) {
	c.availability = a
	for _, s := range c.skus {
		s.Availability = map[string]*RegionAvailability{}
		s.AvailabilitySource = c.AvailabilitySource()
		s.QuotaFamily = ""
		if as, ok := a.Lookup(s.Name); ok {
			for r, ra := range as.Regions {
				s.Availability[r] = ra
			}
			s.QuotaFamily = as.Family
		}
	}
	for key, as := range a.Sizes {
		if _, ok := c.byName[key]; ok {
			continue
		}
		if as.InScope() {
			rep.UnknownSizes = append(rep.UnknownSizes, as)
		} else {
			rep.OtherUnknown++
		}
	}
	sort.Slice(rep.UnknownSizes, func(i, j int) bool { return rep.UnknownSizes[i].Name < rep.UnknownSizes[j].Name })
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

// inScopeName reports whether a size name is of the N or H families.
func inScopeName(name string) bool {
	rest := strings.TrimPrefix(strings.ToLower(name), "standard_")
	return strings.HasPrefix(rest, "n") || strings.HasPrefix(rest, "h")
}

// Availability returns the availability file laid over the catalog, or nil.
func (c *Catalog) Availability() *Availability { return c.availability }

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
