// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

import (
	"os"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

// Fuzz targets for the availability_file and prices_file parsers. Seeds
// are the f.Add calls below plus testdata/fuzz/<FuzzName>/. `make fuzz`
// runs each for FUZZTIME. None may panic; a parser returns either a value
// the catalog can take or a *userfile.Error that explains itself.

// FuzzAvailabilityFile parses arbitrary bytes as an availability_file (the
// JSON of `az vm list-skus`) and lays it over the embedded catalog.
func FuzzAvailabilityFile(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"value":[]}`))
	f.Add([]byte(`[{"name":"Standard_ND96isr_H100_v5","resourceType":"virtualMachines","locations":["eastus"],` +
		`"locationInfo":[{"location":"eastus","zones":["1","2"]}],"capabilities":[{"name":"vCPUs","value":"96"},{"name":"GPUs","value":"8"}],` +
		`"restrictions":[{"type":"Location","reasonCode":"NotAvailableForSubscription","values":["eastus"],"restrictionInfo":{"locations":["eastus"]}}]}]`))
	f.Add([]byte(`[{"name":"Standard_Q9","resourceType":"virtualMachines","locations":["westus"],"capabilities":[{"name":"MemoryGB","value":"x"}]}]`))
	f.Add([]byte(`[{"name":"Standard_NC4as_T4_v3","resourceType":"disks"}]`))
	const file = "skus.json"
	base := embedded(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAvailability(file, data)
		if err != nil {
			_ = userfiletest.Require(t, err, file)
			return
		}
		for _, name := range a.Names() {
			s, ok := a.Lookup(name)
			if !ok {
				t.Fatalf("Names() lists %q but Lookup does not find it", name)
			}
			_ = s.Describe()
			_ = s.AvailableRegions()
			_ = s.InScope()
		}
		c, _, err := base.WithOverlays(catalog.Overlays{Availability: a.Overlay()})
		if err != nil {
			t.Fatalf("WithOverlays: %v", err)
		}
		// Every size is available where the file lists it unrestricted, and
		// every region the file lists is known.
		for _, s := range c.SKUs() {
			as, _ := a.Lookup(s.Name)
			for _, r := range s.AvailableRegions() {
				if as == nil || as.Regions[r] == nil || as.Regions[r].Restricted() || !c.HasRegion(r) {
					t.Fatalf("%s is available in %s, which the file does not offer", s.Name, r)
				}
			}
		}
		for _, r := range a.Regions {
			if !c.HasRegion(r) {
				t.Fatalf("region %s of the file is unknown", r)
			}
		}
	})
}

// FuzzPriceFile parses arbitrary bytes as a prices_file (Azure Retail Prices
// API JSON or a CSV of negotiated prices) and lays it over the embedded
// catalog: every price it applies must be positive.
func FuzzPriceFile(f *testing.F) {
	if b, err := os.ReadFile("testdata/prices_negotiated.csv"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,36.5\n"))
	f.Add([]byte("region,vm_size,usd_per_hour,spot_usd_per_hour\neastus,Standard_NC4as_T4_v3,0.526,0.1\neastus,Standard_NC4as_T4_v3,1,\n"))
	f.Add([]byte("region,vm_size,usd_per_hour\n\"eastus,Standard_X,-1\n"))
	f.Add([]byte(`{"Items":[{"currencyCode":"USD","retailPrice":63.5,"unitPrice":63.5,"armRegionName":"eastus","meterName":"ND96isr H100 v5",` +
		`"productName":"Virtual Machines NDsr H100 v5 Series","skuName":"ND96isr H100 v5","serviceName":"Virtual Machines","unitOfMeasure":"1 Hour",` +
		`"type":"Consumption","isPrimaryMeterRegion":true,"effectiveStartDate":"2024-05-01T00:00:00Z","armSkuName":"Standard_ND96isr_H100_v5"}]}`))
	f.Add([]byte(`{"Items":[{"retailPrice":"x"}],"NextPageLink":null}`))
	const file = "prices.csv"
	base := embedded(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePriceFile(file, data)
		if err != nil {
			_ = userfiletest.Require(t, err, file)
			return
		}
		_ = p.Describe()
		if p.Count() < 0 || len(p.Sizes()) > p.Count() {
			t.Fatalf("Count() = %d with %d sizes", p.Count(), len(p.Sizes()))
		}
		c, _, err := base.WithOverlays(catalog.Overlays{Prices: p.Overlay()})
		if err != nil {
			t.Fatalf("WithOverlays: %v", err)
		}
		for _, s := range c.SKUs() {
			for region, pr := range s.Prices {
				if !(pr.USDPerHour > 0) || (pr.SpotUSDPerHour != nil && !(*pr.SpotUSDPerHour > 0)) {
					t.Fatalf("%s in %s: price %v, spot %v after the prices file", s.Name, region, pr.USDPerHour, pr.SpotUSDPerHour)
				}
			}
		}
	})
}
