// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// zonesOf lists the availability zones of the recommendation's region
// where the subscription can deploy the size: the availability file's zones
// of the region minus those with a Zone restriction, sorted; empty where
// the region has no zones or the file does not list the size there; nil
// without an availability file.
func zonesOf(n *requirements, e *eval) []string {
	s := e.in.sku
	if !s.HasAvailability() {
		return nil
	}
	region := e.priceRegion
	if n.regionScoped() {
		region = e.region
	}
	ra, listed := s.AvailabilityIn(region)
	if !listed || ra.LocationRestriction() != nil {
		return []string{}
	}
	return append([]string{}, ra.Zones...)
}
