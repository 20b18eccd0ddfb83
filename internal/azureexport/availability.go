// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package azureexport reads the files Azure's tools export, which the
// provider lays over its catalog: availability (the JSON of `az vm
// list-skus`) and prices (the JSON of the Azure Retail Prices API, or a CSV
// of negotiated prices). Each loader describes every problem with a
// *userfile.Error naming the file, the entry and the field, and hands the
// catalog what it needs as a catalog.AvailabilityOverlay or a
// catalog.PriceOverlay.
package azureexport

// This file reads what `az vm list-skus --resource-type virtualMachines
// --all -o json` prints: Azure's Resource SKUs, one entry per size and
// location, with the zones, the subscription's restrictions, the quota
// family and the capabilities. It handles the API's known quirks: MemoryGB
// is in GiB, constrained-core sizes report the parent's vCPUs (the real
// count is vCPUsAvailable), and GPUs is missing or rounded for fractional
// GPUs, MI300X and GB200/GB300 sizes, so the catalog's own facts win for
// every size it knows. The file wins for availability, zones and
// restrictions.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// Availability is a parsed availability file.
type Availability struct {
	File    string
	Sizes   map[string]*AvailableSize // by lower-case name
	Regions []string                  // every location the file lists, lower case, sorted
	Entries int                       // virtual machine entries read
	Skipped int                       // entries of other resource types (disks, availability sets)
}

// AvailableSize is one size as the availability file describes it.
type AvailableSize struct {
	Name   string
	Tier   string
	Size   string
	Family string // the quota family, for example standardNDSH100v5Family
	// Regions by lower-case location name.
	Regions map[string]*catalog.RegionAvailability
	// Capabilities of the first entry of the size, in file order.
	Capabilities []Capability
	// Specs are the capabilities read with the API's quirks in mind.
	Specs AvailableSpecs
	entry int // index of the first entry, for messages
}

// Capability is one name/value pair of an entry's capabilities.
type Capability struct {
	Name  string
	Value string
}

// AvailableSpecs are the facts the Resource SKUs API reports for a size.
// Nil means not reported.
type AvailableSpecs struct {
	// VCPUs is vCPUsAvailable when reported (constrained-core sizes report
	// the parent's count in vCPUs), else vCPUs.
	VCPUs *int64
	// ParentVCPUs is vCPUs when it differs from vCPUsAvailable.
	ParentVCPUs *int64
	MemoryGiB   *float64 // MemoryGB, which is in GiB
	// GPUs as reported: missing for MI300X and GB200/GB300 sizes, and 1 or
	// missing for fractional-GPU sizes.
	GPUs                  *int64
	RDMA                  *bool // RdmaEnabled
	AcceleratedNetworking *bool // AcceleratedNetworkingEnabled
	HyperVGenerations     []string
	TempDiskGiB           *int64 // MaxResourceVolumeMB / 1024
	MaxDataDisks          *int64 // MaxDataDiskCount
	MaxNICs               *int64 // MaxNetworkInterfaces
	PremiumStorage        *bool  // PremiumIO
	Arch                  string // x86_64 or arm64, from CpuArchitectureType
	RetirementDate        string // YYYY-MM-DD, from RetirementDateUtc
}

// Lookup finds a size by name, ignoring case.
func (a *Availability) Lookup(name string) (*AvailableSize, bool) {
	s, ok := a.Sizes[strings.ToLower(strings.TrimSpace(name))]
	return s, ok
}

// Names lists the sizes, sorted.
func (a *Availability) Names() []string {
	out := make([]string, 0, len(a.Sizes))
	for _, s := range a.Sizes {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// AvailableRegions lists the locations where the size is listed and not
// restricted by a Location restriction, sorted.
func (s *AvailableSize) AvailableRegions() []string {
	var out []string
	for r, ra := range s.Regions {
		if !ra.Restricted() {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// rawResourceSKU is one entry as the API prints it. Fields the provider
// does not use (apiVersions, costs, capacity, kind, zoneDetails) are
// ignored. Capabilities are kept raw and decoded for the first entry of
// each size only: a size repeats them in every location.
type rawResourceSKU struct {
	Name         string            `json:"name"`
	Tier         string            `json:"tier"`
	Size         string            `json:"size"`
	Family       string            `json:"family"`
	ResourceType string            `json:"resourceType"`
	Locations    []string          `json:"locations"`
	LocationInfo []rawLocationInfo `json:"locationInfo"`
	Restrictions []rawRestriction  `json:"restrictions"`
	Capabilities json.RawMessage   `json:"capabilities"`
}

type rawLocationInfo struct {
	Location string   `json:"location"`
	Zones    []string `json:"zones"`
}

type rawRestriction struct {
	Type            string   `json:"type"`
	Values          []string `json:"values"`
	ReasonCode      string   `json:"reasonCode"`
	RestrictionInfo struct {
		Locations []string `json:"locations"`
		Zones     []string `json:"zones"`
	} `json:"restrictionInfo"`
}

type rawCapability struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

const availabilityHint = "Export virtual machine sizes only (az vm list-skus --resource-type virtualMachines --all -o json), or only the regions you use (--location)."

// LoadAvailability reads and parses an availability file of at most
// userfile.DefaultLimits().AvailabilityFile bytes (or what
// userfile.MaxBytes sets).
func LoadAvailability(path string, opts ...userfile.Option) (*Availability, error) {
	kind := userfile.Kind{Name: "availability file", MaxBytes: userfile.DefaultLimits().AvailabilityFile, Hint: availabilityHint}
	return userfile.Load(path, kind, ParseAvailability, opts...)
}

// ParseAvailability parses the JSON of `az vm list-skus` (an array of
// entries) or of the Resource SKUs REST API (an object whose "value" is that
// array). file names the file in errors.
func ParseAvailability(file string, data []byte) (*Availability, error) {
	data = userfile.Text(data)
	entries, err := decodeAvailability(file, data)
	if err != nil {
		return nil, err
	}
	r := newAvailabilityReader(file)
	for i := range entries {
		if err := r.add(i, &entries[i]); err != nil {
			return nil, err
		}
	}
	if r.a.Entries == 0 {
		return nil, noSizes(file, r.a.Skipped)
	}
	return r.finish(), nil
}

// noSizes is the error about a file that lists no virtual machine size,
// which would remove every size; skipped counts its entries of other
// resource types.
func noSizes(file string, skipped int) error {
	why := "the export's filter matched nothing (a --location or --size that names none, or a subscription that sees none)"
	switch {
	case skipped == 1:
		why = "only 1 entry of another resource type: export with --resource-type virtualMachines"
	case skipped > 1:
		why = fmt.Sprintf("only %d entries of other resource types: export with --resource-type virtualMachines", skipped)
	}
	return userfile.ErrorsIn(file)("", "", "the file lists no virtual machine sizes: "+why+". Use the output of az vm list-skus --resource-type virtualMachines --all -o json.")
}

// decodeAvailability decodes the entries of an availability file, from a
// list or from the "value" list of an object.
func decodeAvailability(file string, data []byte) ([]rawResourceSKU, error) {
	ferr := userfile.ErrorsIn(file)
	locate := func(base int64, err error) error {
		return userfile.Entries[rawResourceSKU]{
			File: file, Data: data, Object: "an object describing one size",
			Name: func(i int, e *rawResourceSKU) string { return entryName(i, e.Name, e.Locations) },
		}.Locate(base, err)
	}
	return decodeEntries[rawResourceSKU](data, locate, exportProblems{
		envelope: func(err error, value json.RawMessage) error {
			switch {
			case err != nil:
				return locate(0, err)
			case len(value) == 0:
				return ferr("", "value", "the file is a JSON object without a \"value\" list. Use the output of az vm list-skus --resource-type virtualMachines --all -o json, which is a list of sizes.")
			case userfile.FirstByte(value) != '[':
				return ferr("", "value", "expected a list of sizes.")
			}
			return nil
		},
		empty:   ferr("", "", "the file is empty. Use the output of az vm list-skus --resource-type virtualMachines --all -o json."),
		notJSON: ferr("", "", "the file is not JSON: it must be the list of sizes that az vm list-skus --resource-type virtualMachines --all -o json prints."),
	})
}

// exportProblems are what decodeEntries reports about a file that is not a
// list of entries: envelope judges an object (err from decoding it, value
// its "value" member) and returns nil when value is the list.
type exportProblems struct {
	envelope       func(err error, value json.RawMessage) error
	empty, notJSON error
}

// decodeEntries decodes an Azure export: a JSON list of entries, as the
// Azure CLI prints them, or the list an object holds in "value", as the
// REST API returns it. Errors inside an entry are placed by locate, at the
// list's offset in data.
func decodeEntries[T any](data []byte, locate func(base int64, err error) error, problems exportProblems) ([]T, error) {
	var entries []T
	switch userfile.FirstByte(data) {
	case '[':
		if err := json.Unmarshal(data, &entries); err != nil {
			return nil, locate(0, err)
		}
	case '{':
		var wrapper struct {
			Value json.RawMessage `json:"value"`
		}
		if err := problems.envelope(json.Unmarshal(data, &wrapper), wrapper.Value); err != nil {
			return nil, err
		}
		base := int64(bytes.Index(data, wrapper.Value))
		if err := json.Unmarshal(wrapper.Value, &entries); err != nil {
			return nil, locate(base, err)
		}
	case 0:
		return nil, problems.empty
	default:
		return nil, problems.notJSON
	}
	return entries, nil
}

// availabilityReader builds an Availability from the decoded entries, one
// entry at a time.
type availabilityReader struct {
	a       *Availability
	ferr    func(entry, field, problem string) error
	regions map[string]bool
	seen    map[[2]string]int // entry index by lower-case size and location
}

// newAvailabilityReader starts an empty Availability for file.
func newAvailabilityReader(file string) *availabilityReader {
	return &availabilityReader{
		a:       &Availability{File: file, Sizes: map[string]*AvailableSize{}},
		ferr:    userfile.ErrorsIn(file),
		regions: map[string]bool{},
		seen:    map[[2]string]int{},
	}
}

// add reads entry i: it skips other resource types and records the size in
// each location the entry describes, with zones and restrictions.
func (r *availabilityReader) add(i int, e *rawResourceSKU) error {
	if e.ResourceType != "" && !strings.EqualFold(e.ResourceType, "virtualMachines") {
		r.a.Skipped++
		return nil
	}
	where := entryName(i, e.Name, e.Locations)
	name := strings.TrimSpace(e.Name)
	if name == "" {
		return r.ferr(where, "name", "missing: every entry needs the size name, for example \"Standard_ND96isr_H100_v5\".")
	}
	locs := entryLocations(e)
	if len(locs) == 0 {
		return r.ferr(where, "locations", "empty: every entry names the location it describes.")
	}
	r.a.Entries++
	s, err := r.size(i, e, name, where)
	if err != nil {
		return err
	}
	if err := r.addLocations(i, s, name, locs, where); err != nil {
		return err
	}
	offerZones(s, e.LocationInfo)
	if err := r.restrict(s, e, locs, where); err != nil {
		return err
	}
	settleZones(s, locs)
	return nil
}

// entryLocations collects the lower-case locations an entry names in
// locations and locationInfo.
func entryLocations(e *rawResourceSKU) map[string]bool {
	locs := map[string]bool{}
	for _, l := range e.Locations {
		if l = strings.ToLower(strings.TrimSpace(l)); l != "" {
			locs[l] = true
		}
	}
	for _, li := range e.LocationInfo {
		if l := strings.ToLower(strings.TrimSpace(li.Location)); l != "" {
			locs[l] = true
		}
	}
	return locs
}

// size returns the size entry i describes. The first entry of a size
// creates it and reads its capabilities; a later one only fills in a
// missing quota family.
func (r *availabilityReader) size(i int, e *rawResourceSKU, name, where string) (*AvailableSize, error) {
	key := strings.ToLower(name)
	if s, ok := r.a.Sizes[key]; ok {
		if s.Family == "" {
			s.Family = e.Family
		}
		return s, nil
	}
	s := &AvailableSize{Name: name, Tier: e.Tier, Size: e.Size, Family: e.Family, Regions: map[string]*catalog.RegionAvailability{}, entry: i}
	caps, err := decodeCapabilities(e.Capabilities)
	if err != nil {
		return nil, r.ferr(where, "capabilities", err.Error())
	}
	s.Capabilities = caps
	specs, field, err := readSpecs(caps)
	if err != nil {
		return nil, r.ferr(where, field, err.Error())
	}
	s.Specs = specs
	r.a.Sizes[key] = s
	return s, nil
}

// addLocations gives the size a region for each of the entry's locations,
// refusing a location an earlier entry already described for the size.
func (r *availabilityReader) addLocations(i int, s *AvailableSize, name string, locs map[string]bool, where string) error {
	key := strings.ToLower(name)
	for l := range locs {
		if first, dup := r.seen[[2]string{key, l}]; dup {
			return r.ferr(where, "name",
				fmt.Sprintf("duplicate: %s in %s is already described by entry %d. Each size is listed once per location; export the file again rather than joining exports.", name, l, first+1))
		}
		r.seen[[2]string{key, l}] = i
		r.regions[l] = true
		s.Regions[l] = &catalog.RegionAvailability{Region: l}
	}
	return nil
}

// offerZones records the zones the entry offers in each of its locations.
func offerZones(s *AvailableSize, infos []rawLocationInfo) {
	for _, li := range infos {
		l := strings.ToLower(strings.TrimSpace(li.Location))
		if ra := s.Regions[l]; ra != nil {
			ra.OfferedZones = uniqueSorted(append(ra.OfferedZones, li.Zones...))
		}
	}
}

// restrict records the entry's restrictions on the regions they name.
func (r *availabilityReader) restrict(s *AvailableSize, e *rawResourceSKU, locs map[string]bool, where string) error {
	for j, rr := range e.Restrictions {
		field := fmt.Sprintf("restrictions[%d]", j)
		if rr.Type == "" {
			return r.ferr(where, field+".type", "missing: a restriction's type is \"Location\" or \"Zone\".")
		}
		targets := restrictionTargets(rr, locs)
		typ := rr.Type
		switch {
		case strings.EqualFold(typ, catalog.RestrictionLocation):
			typ = catalog.RestrictionLocation
		case strings.EqualFold(typ, catalog.RestrictionZone):
			typ = catalog.RestrictionZone
			if len(rr.RestrictionInfo.Zones) == 0 {
				return r.ferr(where, field+".restrictionInfo.zones", "missing: a Zone restriction lists the restricted zones.")
			}
		}
		for _, l := range targets {
			ra := s.Regions[strings.ToLower(strings.TrimSpace(l))]
			if ra == nil {
				continue // a restriction for a location this entry does not describe
			}
			ra.Restrictions = append(ra.Restrictions, catalog.Restriction{Type: typ, ReasonCode: rr.ReasonCode, Zones: uniqueSorted(rr.RestrictionInfo.Zones)})
		}
	}
	return nil
}

// restrictionTargets lists the locations a restriction applies to: those
// of its restrictionInfo, else its values, else the entry's own.
func restrictionTargets(rr rawRestriction, locs map[string]bool) []string {
	targets := rr.RestrictionInfo.Locations
	if len(targets) == 0 {
		targets = rr.Values
	}
	if len(targets) == 0 {
		// A restriction that names no location applies to the entry's.
		for l := range locs {
			targets = append(targets, l)
		}
	}
	return targets
}

// settleZones sets the zones where the size is available in each of the
// entry's locations: those offered, less those a Zone restriction names.
func settleZones(s *AvailableSize, locs map[string]bool) {
	for l := range locs {
		ra := s.Regions[l]
		ra.Zones = ra.OfferedZones
		for _, r := range ra.Restrictions {
			if r.Type == catalog.RestrictionZone {
				ra.Zones = without(ra.Zones, r.Zones)
			}
		}
		if ra.Zones == nil {
			ra.Zones = []string{}
		}
	}
}

// finish lists the regions, sorted, and returns the Availability.
func (r *availabilityReader) finish() *Availability {
	for l := range r.regions {
		r.a.Regions = append(r.a.Regions, l)
	}
	sort.Strings(r.a.Regions)
	return r.a
}

// entryName names an entry in messages: its 1-based position, size and location.
func entryName(i int, name string, locations []string) string {
	s := fmt.Sprintf("entry %d", i+1)
	switch {
	case name != "" && len(locations) == 1:
		s += fmt.Sprintf(" (%s in %s)", name, locations[0])
	case name != "":
		s += " (" + name + ")"
	}
	return s
}

func decodeCapabilities(raw json.RawMessage) ([]Capability, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var rc []rawCapability
	if err := json.Unmarshal(raw, &rc); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field != "" {
				return nil, fmt.Errorf("%s: %s", te.Field, userfile.TypeProblem(te))
			}
			return nil, fmt.Errorf("expected a list of name/value objects, got %s.", userfile.ValueKind(te.Value))
		}
		return nil, err
	}
	out := make([]Capability, len(rc))
	for i, c := range rc {
		out[i] = Capability(c)
	}
	return out, nil
}

// readSpecs interprets the capabilities. It returns the offending field
// with the error.
func readSpecs(caps []Capability) (AvailableSpecs, string, error) {
	var sp AvailableSpecs
	var vcpus, avail *int64
	for i, c := range caps {
		var err error
		switch c.Name {
		case "vCPUs":
			vcpus, err = capabilityInt(c)
		case "vCPUsAvailable":
			avail, err = capabilityInt(c)
		default:
			err = sp.read(c)
		}
		if err != nil {
			return sp, fmt.Sprintf("capabilities[%d] (%s)", i, c.Name) + ".value", err
		}
	}
	sp.VCPUs = vcpus
	if avail != nil {
		sp.VCPUs = avail
		if vcpus != nil && *vcpus != *avail {
			sp.ParentVCPUs = vcpus
		}
	}
	return sp, "", nil
}

// read sets the spec a capability other than vCPUs and vCPUsAvailable
// reports. Capabilities the provider does not use are ignored.
func (sp *AvailableSpecs) read(c Capability) error {
	v := strings.TrimSpace(c.Value)
	var err error
	switch c.Name {
	case "MemoryGB":
		f, perr := strconv.ParseFloat(v, 64)
		if perr != nil || f < 0 {
			return fmt.Errorf("value %q is not a number of GiB.", c.Value)
		}
		sp.MemoryGiB = &f
	case "GPUs":
		sp.GPUs, err = capabilityInt(c)
	case "RdmaEnabled":
		sp.RDMA, err = capabilityBool(c)
	case "AcceleratedNetworkingEnabled":
		sp.AcceleratedNetworking, err = capabilityBool(c)
	case "PremiumIO":
		sp.PremiumStorage, err = capabilityBool(c)
	case "MaxDataDiskCount":
		sp.MaxDataDisks, err = capabilityInt(c)
	case "MaxNetworkInterfaces":
		sp.MaxNICs, err = capabilityInt(c)
	case "MaxResourceVolumeMB":
		var mb *int64
		if mb, err = capabilityInt(c); err == nil {
			gib := *mb / 1024
			sp.TempDiskGiB = &gib
		}
	case "HyperVGenerations":
		for _, g := range strings.Split(v, ",") {
			g = strings.TrimPrefix(strings.TrimSpace(strings.ToUpper(g)), "V")
			if g != "" {
				sp.HyperVGenerations = append(sp.HyperVGenerations, g)
			}
		}
	case "CpuArchitectureType":
		switch strings.ToLower(v) {
		case "x64":
			sp.Arch = "x86_64"
		case "arm64":
			sp.Arch = "arm64"
		}
	case "RetirementDateUtc":
		return sp.readRetirementDate(c)
	}
	return err
}

// readRetirementDate sets the retirement date from an RFC 3339 time or a
// value starting with a YYYY-MM-DD date.
func (sp *AvailableSpecs) readRetirementDate(c Capability) error {
	v := strings.TrimSpace(c.Value)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		sp.RetirementDate = t.UTC().Format(catalog.DateLayout)
	} else if t, err := time.Parse(catalog.DateLayout, v); err == nil {
		sp.RetirementDate = t.Format(catalog.DateLayout)
	} else if _, err := time.Parse(catalog.DateLayout, v[:min(10, len(v))]); err == nil {
		sp.RetirementDate = v[:10]
	} else {
		return fmt.Errorf("value %q is not a date.", c.Value)
	}
	return nil
}

// capabilityInt reads a capability's value as a whole number.
func capabilityInt(c Capability) (*int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(c.Value), 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("value %q is not a whole number.", c.Value)
	}
	return &n, nil
}

// capabilityBool reads a capability's value as True or False, in any case.
func capabilityBool(c Capability) (*bool, error) {
	switch strings.ToLower(strings.TrimSpace(c.Value)) {
	case "true":
		t := true
		return &t, nil
	case "false":
		f := false
		return &f, nil
	}
	return nil, fmt.Errorf("value %q is not True or False.", c.Value)
}

func uniqueSorted(list []string) []string {
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for _, v := range list {
		if v = strings.TrimSpace(v); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

func without(list, drop []string) []string {
	out := make([]string, 0, len(list))
	for _, v := range list {
		if !slices.Contains(drop, v) {
			out = append(out, v)
		}
	}
	return out
}

// InScope reports whether an unknown size belongs to what the catalog
// covers: the N (GPU) and H (HPC) families, or any size the file says has
// GPUs or RDMA. General-purpose sizes outside the catalog are not reported
// one by one.
func (s *AvailableSize) InScope() bool {
	if inScopeName(s.Name) {
		return true
	}
	if s.Specs.GPUs != nil && *s.Specs.GPUs > 0 {
		return true
	}
	return s.Specs.RDMA != nil && *s.Specs.RDMA
}

// Describe summarizes what the file reports about a size, with the API's
// quirks spelled out, for warnings and for the refresh command.
func (s *AvailableSize) Describe() string {
	sp := s.Specs
	var parts []string
	if sp.VCPUs != nil {
		v := fmt.Sprintf("%d vCPUs", *sp.VCPUs)
		if sp.ParentVCPUs != nil {
			v += fmt.Sprintf(" (vCPUsAvailable; the parent size has %d)", *sp.ParentVCPUs)
		}
		parts = append(parts, v)
	}
	if sp.MemoryGiB != nil {
		parts = append(parts, strconv.FormatFloat(*sp.MemoryGiB, 'f', -1, 64)+" GiB memory")
	}
	switch {
	case sp.GPUs != nil && *sp.GPUs == 1:
		parts = append(parts, "1 GPU reported (the API also reports 1 for a fraction of a GPU)")
	case sp.GPUs != nil:
		parts = append(parts, fmt.Sprintf("%d GPUs reported", *sp.GPUs))
	case strings.HasPrefix(strings.ToLower(strings.TrimPrefix(s.Name, "Standard_")), "n"):
		parts = append(parts, "no GPU count reported (the API omits it for some GPU sizes)")
	}
	if sp.RDMA != nil && *sp.RDMA {
		parts = append(parts, "RDMA")
	}
	if sp.AcceleratedNetworking != nil && *sp.AcceleratedNetworking {
		parts = append(parts, "accelerated networking")
	}
	if len(sp.HyperVGenerations) > 0 {
		parts = append(parts, "Hyper-V generations "+strings.Join(sp.HyperVGenerations, ", "))
	}
	if sp.RetirementDate != "" {
		parts = append(parts, "retiring "+sp.RetirementDate)
	}
	if s.Family != "" {
		parts = append(parts, "quota family "+s.Family)
	}
	if len(parts) == 0 {
		return "no capabilities reported"
	}
	return strings.Join(parts, ", ")
}
