// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"slices"
	"testing"
)

// With an availability file, deployment.zones are the zones of the
// recommendation's region the subscription can deploy the size to: the
// H100 size in eastus2, where the file restricts zone 2, gets 1 and 3;
// without the file there are none to give.
func TestDeploymentZonesFromTheAvailabilityFile(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, Regions: []string{"eastus2"}, GPUModels: []string{"h100-sxm-80gb"}, AsOf: asOf}
	res, err := newTestEngine(t, withAvailability(t)).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	h := byName(res, h100)
	if h == nil || h.PriceRegion != "eastus2" || !slices.Equal(h.Deployment.Zones, []string{"1", "3"}) {
		t.Fatalf("H100 in eastus2: %+v", h)
	}
	for _, r := range mustRecommend(t, req).Recommendations {
		if r.Deployment.Zones != nil {
			t.Errorf("%s: zones %v without an availability file", r.VMSize, r.Deployment.Zones)
		}
	}
}
