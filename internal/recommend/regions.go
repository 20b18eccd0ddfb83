// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file says where a size is offered: in a region by the availability
// file or the catalog's prices, with the Location restrictions of the file,
// how two regions compare for one size, and which is best.

import (
	"math"

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

// regionChoice is how good a region is for one size: deployable (the
// subscription can deploy it there, SKU.AvailableIn), the quota, whether
// Azure sells Spot VMs of it there when spot is asked, then the price.
type regionChoice struct {
	region     string
	restricted bool
	quota      int // quotaRank of the region's quota status; 0 without usage files
	spot       int // spotRank; 0 when spot is not asked
	price      float64
}

// The spot ranks of a region under spot = true: a spot price, then none
// known (Azure may sell Spot VMs there), then none sold (D75, Price.NoSpot:
// the size deploys on demand). A spot price and an on-demand one are not
// compared, as the ranking compares no size without a spot price with one
// that has it.
const (
	spotPriced = iota
	spotUnknown
	spotNotSold
)

// regionOrder says in a sentence how better orders regions, under spot
// when spot is asked.
func regionOrder(spot bool) string {
	if spot {
		return "deployable, then with quota, then with a spot price before none known before none sold, then cheapest"
	}
	return "deployable, then with quota, then cheapest"
}

// better reports whether c is a better region than o: deployable before
// restricted, quota that suffices before unknown before insufficient, the
// spot rank, then the lower price, then the name.
func (c regionChoice) better(o regionChoice) bool {
	switch {
	case c.restricted != o.restricted:
		return !c.restricted
	case c.quota != o.quota:
		return c.quota < o.quota
	case c.spot != o.spot:
		return c.spot < o.spot
	case c.price != o.price:
		return c.price < o.price
	}
	return c.region < o.region
}

// choiceIn is how good the region is for the size, its quota aside; spot
// says whether the size runs on Spot VMs (requirements.spotOn), priced at
// the region's spot price where it has one.
func choiceIn(s *catalog.SKU, region string, spot bool) regionChoice {
	c := regionChoice{region: region, restricted: !s.AvailableIn(region), price: math.Inf(1)}
	p, ok := s.Prices[region]
	if ok {
		c.price = p.USDPerHour
	}
	switch {
	case !spot:
	case p.SpotUSDPerHour != nil:
		c.price = *p.SpotUSDPerHour
	case p.NoSpot:
		c.spot = spotNotSold
	default:
		c.spot = spotUnknown
	}
	return c
}

// bestRegion is the best of the regions for the size
// (regionChoice.better), of those that offer it when offeredOnly; quota,
// when not nil, ranks each region's quota (quotaRank). "" when there is
// none.
func bestRegion(s *catalog.SKU, regions []string, spot, offeredOnly bool, quota func(region string) int) string {
	var best regionChoice
	found := false
	for _, r := range regions {
		if offeredOnly && !offeredIn(s, r) {
			continue
		}
		c := choiceIn(s, r, spot)
		if quota != nil {
			c.quota = quota(r)
		}
		if !found || c.better(best) {
			best, found = c, true
		}
	}
	return best.region
}

// placeIn is the best of the regions for vms VMs of the size (bestRegion,
// with the quota when usage files are given), of those that offer it when
// offeredOnly.
func (n *requirements) placeIn(in *sizeInfo, regions []string, vms int64, offeredOnly bool) string {
	var quota func(string) int
	if n.quotaActive() {
		quota = func(r string) int { return quotaRank(n.quotaIn(in, r, vms).status) }
	}
	return bestRegion(in.sku, regions, n.spotOn(in), offeredOnly, quota)
}

// anyRegion is the best of the regions that price the size, for vms VMs:
// without usage files, the one prepare found for every request.
func (n *requirements) anyRegion(in *sizeInfo, vms int64) string {
	switch {
	case n.quotaActive():
		return n.placeIn(in, in.regions, vms, false)
	case n.spotOn(in):
		return in.bestSpotRegion
	}
	return in.bestRegion
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
