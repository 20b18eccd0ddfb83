// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file says where a size is offered: in a region by the availability
// file or the catalog's prices, with the Location restrictions of the file,
// and how two regions compare for one size.

import (
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

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

// locationRestriction is the availability file's Location restriction of
// the size in the region, or nil (also when the file does not list it).
func locationRestriction(s *catalog.SKU, region string) *catalog.Restriction {
	if !s.HasAvailability() {
		return nil
	}
	if ra, listed := s.AvailabilityIn(region); listed {
		return ra.LocationRestriction()
	}
	return nil
}
