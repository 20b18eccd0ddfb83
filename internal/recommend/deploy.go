// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file hands a ranked layout to the deployment settings
// (internal/deploy): the size, its VMs, whether the job spans them over
// InfiniBand, the target, and the zones of its region.

import "github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"

// deployment is the target-ready settings of a ranked layout.
func deployment(n *requirements, e *eval) deploy.Deployment {
	return deploy.For(&deploy.Layout{
		SKU: e.in.sku, Target: n.target, Nodes: e.nodes, Spans: e.spans, IBNeeded: e.ibNeeded,
		MPI: n.workload == WorkloadHPC, IndependentTasks: n.independentTasks(), Spot: n.spot,
		Zones: zonesOf(n, e), PlacementGroupVMs: e.in.maxJobVMs,
	})
}

// fillRankedLists sets the settings that name the other ranked sizes
// (deploy.FillRankedLists).
func fillRankedLists(recs []Recommendation) {
	sizes := make([]string, len(recs))
	ds := make([]*deploy.Deployment, len(recs))
	for i := range recs {
		sizes[i], ds[i] = recs[i].VMSize, &recs[i].Deployment
	}
	deploy.FillRankedLists(sizes, ds)
}

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
