// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"regexp"
	"sort"
	"strings"
	"time"
)

// SKUs returns every size, ordered by name. The slice is shared: do not modify it.
func (c *Catalog) SKUs() []*SKU { return c.skus }

// Lookup finds a size by name, ignoring case. The "Standard_" prefix may be
// left out.
func (c *Catalog) Lookup(name string) (*SKU, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	if s, ok := c.byName[key]; ok {
		return s, true
	}
	if !strings.HasPrefix(key, "standard_") {
		s, ok := c.byName["standard_"+key]
		return s, ok
	}
	return nil, false
}

// Regions lists every region that has at least one price, or that the
// availability file lists, sorted.
func (c *Catalog) Regions() []string { return c.regions }

// HasRegion reports whether the region is one of Regions.
// Region names are compared case-insensitively.
func (c *Catalog) HasRegion(region string) bool {
	region = strings.ToLower(region)
	i := sort.SearchStrings(c.regions, region)
	return i < len(c.regions) && c.regions[i] == region
}

// Families lists the distinct families, sorted.
func (c *Catalog) Families() []string {
	return c.distinct(func(s *SKU) []string { return []string{s.Family} })
}

// SeriesNames lists the distinct series, sorted.
func (c *Catalog) SeriesNames() []string {
	return c.distinct(func(s *SKU) []string { return []string{s.Series} })
}

// GPUModelIDs lists the GPU model identifiers used by sizes, sorted.
func (c *Catalog) GPUModelIDs() []string {
	return c.distinct(func(s *SKU) []string {
		if s.GPU == nil {
			return nil
		}
		return []string{s.GPU.ModelID}
	})
}

// GPUModel returns a GPU model by identifier.
func (c *Catalog) GPUModel(id string) (GPUModelDoc, bool) {
	g, ok := c.gpuModels[id]
	return g, ok
}

func (c *Catalog) distinct(f func(*SKU) []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.skus {
		for _, v := range f(s) {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Filter selects sizes. Zero values select everything; list filters match any
// of their entries, case-insensitively.
type Filter struct {
	Families        []string
	Series          []string
	Categories      []string
	GPUVendor       string
	GPUModels       []string // model identifiers or names
	RDMA            *bool
	MinGPUs         *float64
	MinGPUMemoryGiB *float64 // total GPU memory of the size
	Region          string   // only sizes available there (see SKU.AvailableIn)
	IncludeRetired  bool
	IncludePreview  bool
	NameRegex       *regexp.Regexp
	AsOf            time.Time
}

// Filter returns the sizes that pass every filter, ordered by name.
// A zero AsOf means the catalog's data date.
func (c *Catalog) Filter(f Filter) []*SKU {
	if f.AsOf.IsZero() {
		f.AsOf = c.DataDate
	}
	var out []*SKU
	for _, s := range c.skus {
		if f.Match(s) {
			out = append(out, s)
		}
	}
	return out
}

func anyFold(list []string, v ...string) bool {
	for _, x := range list {
		for _, y := range v {
			if strings.EqualFold(x, y) {
				return true
			}
		}
	}
	return false
}

// Match reports whether one size passes the filter.
func (f Filter) Match(s *SKU) bool {
	if len(f.Families) > 0 && !anyFold(f.Families, s.Family) {
		return false
	}
	if len(f.Series) > 0 && !anyFold(f.Series, s.Series) {
		return false
	}
	if len(f.Categories) > 0 && !anyFold(f.Categories, s.Category) {
		return false
	}
	if f.GPUVendor != "" && (s.GPU == nil || !strings.EqualFold(s.GPU.Vendor, f.GPUVendor)) {
		return false
	}
	if len(f.GPUModels) > 0 && (s.GPU == nil || !anyFold(f.GPUModels, s.GPU.ModelID, s.GPU.Model)) {
		return false
	}
	if f.RDMA != nil && s.Network.RDMA != *f.RDMA {
		return false
	}
	if f.MinGPUs != nil && (s.GPU == nil || s.GPU.Count < *f.MinGPUs) {
		return false
	}
	if f.MinGPUMemoryGiB != nil && (s.GPU == nil || s.GPU.MemoryGiBTotal < *f.MinGPUMemoryGiB) {
		return false
	}
	if f.Region != "" && !s.AvailableIn(f.Region) {
		return false
	}
	if !f.IncludeRetired && s.RetiredAt(f.AsOf) {
		return false
	}
	if !f.IncludePreview && s.Lifecycle.Status == StatusPreview {
		return false
	}
	if f.NameRegex != nil && !f.NameRegex.MatchString(s.Name) {
		return false
	}
	return true
}
