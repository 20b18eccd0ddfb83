// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

// This file hands what the files say to the catalog, and reports the sizes
// they name that the catalog does not have.

import (
	"sort"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Overlay is the availability the file gives, for catalog.Overlays. It
// shares the file's region availability, which neither changes.
func (a *Availability) Overlay() *catalog.AvailabilityOverlay {
	o := &catalog.AvailabilityOverlay{File: a.File, Regions: a.Regions, Sizes: make(map[string]catalog.SizeAvailability, len(a.Sizes))}
	for key, s := range a.Sizes {
		o.Sizes[key] = catalog.SizeAvailability{QuotaFamily: s.Family, Regions: s.Regions}
	}
	return o
}

// Overlay is the prices the file gives, for catalog.Overlays.
func (p *PriceFile) Overlay() *catalog.PriceOverlay {
	o := &catalog.PriceOverlay{File: p.File, Source: p.Describe(), SnapshotDate: p.SnapshotDate,
		Prices: make(map[string]map[string]catalog.OverlayPrice, len(p.Prices))}
	for key, regions := range p.Prices {
		m := make(map[string]catalog.OverlayPrice, len(regions))
		for region, fp := range regions {
			m[region] = catalog.OverlayPrice{USDPerHour: fp.USDPerHour, SpotUSDPerHour: fp.SpotUSDPerHour}
		}
		o.Prices[key] = m
	}
	return o
}

// NotInCatalog lists the sizes the file describes that c does not have and
// that belong to what the catalog covers (InScope), sorted by name, and
// counts the others (general-purpose sizes).
func (a *Availability) NotInCatalog(c *catalog.Catalog) (covered []*AvailableSize, others int) {
	for _, name := range a.Names() {
		if inCatalog(c, name) {
			continue
		}
		if s, _ := a.Lookup(name); s.InScope() {
			covered = append(covered, s)
		} else {
			others++
		}
	}
	return covered, others
}

// NotInCatalog lists the sizes the file prices that c does not have, of the
// N and H families, as the file spells them and sorted, and counts the
// others.
func (p *PriceFile) NotInCatalog(c *catalog.Catalog) (covered []string, others int) {
	for _, name := range p.Sizes() {
		if inCatalog(c, name) {
			continue
		}
		if inScopeName(name) {
			covered = append(covered, name)
		} else {
			others++
		}
	}
	sort.Strings(covered)
	return covered, others
}

// inCatalog reports whether c has the size the file names, matched the way
// the catalog matches overlays: by name, ignoring case.
func inCatalog(c *catalog.Catalog, name string) bool {
	s, ok := c.Lookup(name)
	return ok && strings.EqualFold(s.Name, name)
}

// inScopeName reports whether a size name is of the N (GPU) or H (HPC)
// families, which the catalog covers.
func inScopeName(name string) bool {
	rest := strings.TrimPrefix(strings.ToLower(name), "standard_")
	return strings.HasPrefix(rest, "n") || strings.HasPrefix(rest, "h")
}
