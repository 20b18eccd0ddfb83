// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// This file places each size in a region: the requested region, or the
// best of the allowed regions (regions), or, with neither, the region of
// its lowest price (pricePerVM).

// regionScoped reports whether the request says where sizes may run:
// region or regions.
func (s *settings) regionScoped() bool { return s.region != "" || len(s.regions) > 0 }

// regionWords names the allowed regions in a sentence: `region "eastus"`,
// or `regions "eastus", "westus2"`.
func (s *settings) regionWords() string {
	if s.region != "" {
		return "region " + quote(s.region)
	}
	return "regions " + catalog.QuoteList(s.regions)
}

func quote(s string) string { return `"` + s + `"` }

// normalRegions is the list of regions in the catalog's lower case,
// without surrounding spaces.
func normalRegions(rs []string) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, strings.ToLower(strings.TrimSpace(r)))
	}
	return out
}

// offeredIn reports whether the size is offered in the region: with an
// availability file, the file lists it there (perhaps restricted);
// without, the catalog prices it there.
func offeredIn(s *catalog.SKU, region string) bool {
	if s.HasAvailability() {
		_, listed := s.AvailabilityIn(region)
		return listed
	}
	_, priced := s.Prices[region]
	return priced
}

// regionChoice is how good a region is for one size that is offered
// there: deployable (no Location restriction), the quota, then the price.
type regionChoice struct {
	region     string
	restricted bool
	quota      int // quotaRank of the region's quota status; 0 without usage files
	price      float64
}

// better reports whether c is a better region than o: deployable before
// restricted, quota that suffices before unknown before insufficient, then
// the lower price, then the name.
func (c regionChoice) better(o regionChoice) bool {
	switch {
	case c.restricted != o.restricted:
		return !c.restricted
	case c.quota != o.quota:
		return c.quota < o.quota
	case c.price != o.price:
		return c.price < o.price
	}
	return c.region < o.region
}

// placeSize sets the size's region: the requested region; or among
// regions, the best that offers it (regionChoice.better, the quota judged
// on vms VMs); or "" when no allowed region offers it (the region
// constraint removes it) or the request names no region.
func placeSize(n *requirements, e *eval, vms int64) {
	switch {
	case n.region != "":
		e.region = n.region
		return
	case len(n.regions) == 0:
		return
	}
	s := e.in.sku
	var best *regionChoice
	for _, r := range n.regions {
		if !offeredIn(s, r) {
			continue
		}
		c := regionChoice{region: r, restricted: locationRestriction(s, r) != nil, price: math.Inf(1)}
		if p, ok := s.Prices[r]; ok {
			c.price = p.USDPerHour
			if n.spot && p.SpotUSDPerHour != nil {
				c.price = *p.SpotUSDPerHour
			}
		}
		if n.quotaActive() {
			c.quota = quotaRank(n.quotaIn(e.in, r, vms).status)
		}
		if best == nil || c.better(*best) {
			best = &c
		}
	}
	if best != nil {
		e.region = best.region
	}
}

// validateRegions checks every entry of regions against the catalog's
// region names, as region is checked: an empty or unknown one is refused
// before any ranking.
func validateRegions(p *problems, cat *catalog.Catalog, regions []string) {
	for i, r := range regions {
		path := []string{"regions", strconv.Itoa(i)}
		switch {
		case strings.TrimSpace(r) == "":
			p.invalid(fe("Empty Region", "regions entries must be Azure region names such as \"eastus\"; got an empty string.", path...))
		default:
			if _, ok := cat.Canonical(catalog.RegionName, r); !ok {
				p.invalid(fe("Unknown Region", cat.UnknownName(catalog.RegionName, r), path...))
			}
		}
	}
}
