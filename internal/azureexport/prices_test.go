// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

func TestLoadPriceFileRetail(t *testing.T) {
	p, err := LoadPriceFile("testdata/prices_retail.json")
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != PriceFormatRetail || p.SnapshotDate == "" {
		t.Errorf("format %q, snapshot date %q", p.Format, p.SnapshotDate)
	}
	// 16 items: the Windows, Dev/Test, reservation and low-priority rows
	// are skipped, and so is the secondary meter region row, which loses to
	// the primary one.
	if p.Used != 11 || p.Skipped != 5 {
		t.Errorf("used %d, skipped %d; want 11 and 5", p.Used, p.Skipped)
	}
	h := p.Prices["standard_nd96isr_h100_v5"]["eastus"]
	if h == nil || h.USDPerHour == nil || *h.USDPerHour != 63.5 || h.SpotUSDPerHour == nil || *h.SpotUSDPerHour != 25.4 {
		t.Fatalf("H100 eastus = %+v", h)
	}
	if h.Entry != "Items[0] (Standard_ND96isr_H100_v5 in eastus)" || h.SpotEntry != "Items[1] (Standard_ND96isr_H100_v5 in eastus)" {
		t.Errorf("entries %q, %q", h.Entry, h.SpotEntry)
	}
	if w := p.Prices["standard_nd96isr_h100_v5"]["westus3"]; w == nil || *w.USDPerHour != 98.32 || w.SpotUSDPerHour != nil {
		t.Errorf("H100 westus3 = %+v", w)
	}
	if p.Count() != 8 || !slices.Equal(p.Sizes(), []string{"Standard_D4s_v5", "Standard_NC40ads_H100_v5", "Standard_ND96amsr_A100_v4",
		"Standard_ND96asr_v4", "Standard_ND96isr_H100_v5", "Standard_NP10s", "Standard_NV6ads_A10_v5"}) {
		t.Errorf("%d prices for %v", p.Count(), p.Sizes())
	}
}

func TestLoadPriceFileCSV(t *testing.T) {
	p, err := LoadPriceFile("testdata/prices_negotiated.csv")
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != PriceFormatCSV || p.Used != 5 {
		t.Errorf("format %q, %d rows", p.Format, p.Used)
	}
	h := p.Prices["standard_nd96isr_h100_v5"]
	if *h["eastus"].USDPerHour != 36 || h["eastus"].SpotUSDPerHour != nil || *h["westus3"].SpotUSDPerHour != 24.8 {
		t.Errorf("H100 = %+v %+v", h["eastus"], h["westus3"])
	}
	if e := h["eastus"].Entry; e != "line 4 (Standard_ND96isr_H100_v5 in eastus)" {
		t.Errorf("entry %q", e)
	}
	// Without the spot column, with spaces and upper-case regions.
	p, err = ParsePriceFile("p.csv", []byte("region, vm_size, usd_per_hour\nEastUS, Standard_NC40ads_H100_v5, 5.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fp := p.Prices["standard_nc40ads_h100_v5"]["eastus"]; fp == nil || *fp.USDPerHour != 5.5 {
		t.Errorf("prices %+v", p.Prices)
	}
}

func TestRetailPriceRules(t *testing.T) {
	item := func(fields string) string {
		return `{"currencyCode": "USD", "armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "unitOfMeasure": "1 Hour",
			"type": "Consumption", "productName": "Virtual Machines NDsr H100 v5 Series", "serviceName": "Virtual Machines", ` + fields + `}`
	}
	for _, tc := range []struct {
		name      string
		items     []string
		want      float64 // 0: no on-demand price
		wantSpot  float64
		wantError string
	}{
		{"one row", []string{item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32`)}, 98.32, 0, ""},
		{"spot meter", []string{item(`"meterName": "ND96isr H100 v5 Spot", "retailPrice": 30`)}, 0, 30, ""},
		{"low priority skipped", []string{item(`"meterName": "ND96isr H100 v5 Low Priority", "retailPrice": 20`)}, 0, 0, ""},
		{"skuName when meterName is missing", []string{item(`"skuName": "ND96isr H100 v5 Spot", "retailPrice": 31`)}, 0, 31, ""},
		{"primary meter region wins", []string{
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 90, "isPrimaryMeterRegion": false`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32, "isPrimaryMeterRegion": true`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 80, "isPrimaryMeterRegion": false`),
		}, 98.32, 0, ""},
		{"newer effective date wins", []string{
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 100, "effectiveStartDate": "2024-01-01T00:00:00Z"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32, "effectiveStartDate": "2025-01-01T00:00:00Z"`),
		}, 98.32, 0, ""},
		{"identical duplicates", []string{
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32`),
		}, 98.32, 0, ""},
		{"Windows, Dev/Test, reservation, other unit and service skipped", []string{
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 107, "productName": "Virtual Machines NDsr H100 v5 Series Windows"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 50, "type": "DevTestConsumption"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 500000, "type": "Reservation", "unitOfMeasure": "1 Year"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 1, "unitOfMeasure": "1/Month"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 1, "serviceName": "Virtual Machines Licenses"`),
			item(`"meterName": "ND96isr H100 v5", "retailPrice": 0`),
		}, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePriceFile("p.json", []byte(`{"Items": [`+strings.Join(tc.items, ",")+`]}`))
			if err != nil {
				t.Fatal(err)
			}
			fp := p.Prices["standard_nd96isr_h100_v5"]["eastus"]
			var got, gotSpot float64
			if fp != nil && fp.USDPerHour != nil {
				got = *fp.USDPerHour
			}
			if fp != nil && fp.SpotUSDPerHour != nil {
				gotSpot = *fp.SpotUSDPerHour
			}
			if got != tc.want || gotSpot != tc.wantSpot {
				t.Errorf("price %v, spot %v; want %v, %v", got, gotSpot, tc.want, tc.wantSpot)
			}
		})
	}
	// A list of items, without the page around it.
	p, err := ParsePriceFile("p.json", []byte(`[`+item(`"meterName": "ND96isr H100 v5", "retailPrice": 98.32`)+`]`))
	if err != nil || p.Count() != 1 {
		t.Errorf("list of items: %v, %d prices", err, p.Count())
	}
}

func TestParsePriceFileErrors(t *testing.T) {
	item := func(fields string) string {
		return `{"currencyCode": "USD", "armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus", "unitOfMeasure": "1 Hour",
			"type": "Consumption", "productName": "Virtual Machines NDsr H100 v5 Series", "meterName": "ND96isr H100 v5", ` + fields + `}`
	}
	page := func(items ...string) string {
		return `{"BillingCurrency": "USD", "Items": [` + strings.Join(items, ",\n") + `]}`
	}
	for _, tc := range []fileErrorCase{
		{"empty", "", "", "", "the file is empty"},
		{"JSON syntax", page(item(`"retailPrice": 1,`)), "", "", "invalid JSON at line 2"},
		{"JSON syntax in a list of items", "[" + item(`"retailPrice": 1`) + ",\n" + item(`"retailPrice": 1,`) + "]", "Items[1]", "", "invalid JSON at line 4"},
		{"retail price as a string", page(item(`"retailPrice": 1`), item(`"retailPrice": "98.32"`)),
			"Items[1] (Standard_ND96isr_H100_v5 in eastus)", "retailPrice", "expected a number, got a string"},
		{"primary flag as a string", page(item(`"retailPrice": 1, "isPrimaryMeterRegion": "yes"`)),
			"Items[0] (Standard_ND96isr_H100_v5 in eastus)", "isPrimaryMeterRegion", "expected true or false, got a string"},
		{"Items not a list", `{"Items": {"armSkuName": "x"}}`, "", "Items", "missing or not a list"},
		{"no Items", `{"Count": 0}`, "", "Items", "missing or not a list"},
		{"item not an object", `{"Items": [1]}`, "Items[0]", "", "expected an object, got a number"},
		{"top level a string list", `["a"]`, "Items[0]", "", "expected an object, got a string"},
		{"negative price", page(item(`"retailPrice": -1`)), "Items[0] (Standard_ND96isr_H100_v5 in eastus)", "retailPrice", "-1 is negative"},
		{"other currency", page(item(`"retailPrice": 1, "currencyCode": "EUR"`)),
			"Items[0] (Standard_ND96isr_H100_v5 in eastus)", "currencyCode", `"EUR": prices are in US dollars`},
		{"disagreeing duplicates", page(item(`"retailPrice": 98.32`), item(`"retailPrice": 90`)),
			"Items[1] (Standard_ND96isr_H100_v5 in eastus)", "retailPrice", "duplicate: Items[0] (Standard_ND96isr_H100_v5 in eastus) also gives a Linux pay-as-you-go price"},
		{"disagreeing spot duplicates", page(item(`"retailPrice": 30, "meterName": "ND96isr H100 v5 Spot"`), item(`"retailPrice": 31, "meterName": "ND96isr H100 v5 Spot"`)),
			"Items[1] (Standard_ND96isr_H100_v5 in eastus)", "retailPrice", "also gives a Linux spot pay-as-you-go price"},

		{"CSV header", "size,price\nStandard_X1,1\n", "line 1", "", `the header is "size,price"`},
		{"CSV header only", "region,vm_size,usd_per_hour\n", "", "", "a header but no prices"},
		{"CSV price not a number", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,1.0\neastus,Standard_NC40ads_H100_v5,cheap\n",
			"line 3 (Standard_NC40ads_H100_v5 in eastus)", "usd_per_hour", `"cheap" is not a number`},
		{"CSV zero price", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,0\n",
			"line 2 (Standard_ND96isr_H100_v5 in eastus)", "usd_per_hour", "must be greater than 0"},
		{"CSV monthly price", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,717736\n",
			"line 2 (Standard_ND96isr_H100_v5 in eastus)", "usd_per_hour", "per hour, not per month"},
		{"CSV spot not a number", "region,vm_size,usd_per_hour,spot_usd_per_hour\neastus,Standard_ND96isr_H100_v5,98.32,n/a\n",
			"line 2 (Standard_ND96isr_H100_v5 in eastus)", "spot_usd_per_hour", `"n/a" is not a number`},
		{"CSV size name", "region,vm_size,usd_per_hour\neastus,ND96isr H100 v5,98.32\n",
			"line 2 (ND96isr H100 v5 in eastus)", "vm_size", "is not a VM size name"},
		{"CSV empty region", "region,vm_size,usd_per_hour\n,Standard_ND96isr_H100_v5,98.32\n",
			"line 2", "region", "empty"},
		{"CSV field count", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5\n", "line 2", "", "2 fields; the header has 3"},
		{"CSV quoting", "region,vm_size,usd_per_hour\neastus,\"Standard_ND96isr_H100_v5,98.32\n", "line 2", "", "invalid CSV"},
		{"CSV duplicate", "region,vm_size,usd_per_hour\neastus,Standard_ND96isr_H100_v5,98.32\n# comment\nEastUS,standard_nd96isr_h100_v5,90\n",
			"line 4 (standard_nd96isr_h100_v5 in eastus)", "vm_size", "duplicate: standard_nd96isr_h100_v5 in eastus is already priced on line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePriceFile("prices.json", []byte(tc.in))
			userfiletest.Check(t, err, "prices.json", tc.entry, tc.field, tc.want)
		})
	}
}

func TestLoadPriceFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "prices.csv")
	_, err := LoadPriceFile(missing)
	userfiletest.Check(t, err, missing, "", "", "the prices file does not exist")

	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"Items": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadPriceFile(big, userfile.MaxBytes(10))
	userfiletest.Check(t, err, big, "", "", "the prices file is 13 bytes, more than the 10 bytes limit. Keep only the rows you need")
}

// A region written as Azure's display name ("East US", or the Retail Prices
// API's location "US East") is not a region of its own: it is an error
// naming the line or item and the value, which says to use the short name
// and, where the display name stands for a region the catalog knows, which.
func TestPriceFileRegionsAreShortNames(t *testing.T) {
	csv := func(region string) string {
		return "region,vm_size,usd_per_hour\neastus,Standard_NC40ads_H100_v5,5.5\n" + region + ",Standard_ND96isr_H100_v5,36\n"
	}
	retail := func(region string) string {
		return `{"Items": [{"currencyCode": "USD", "armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "` + region + `", "unitOfMeasure": "1 Hour",
			"type": "Consumption", "productName": "Virtual Machines NDsr H100 v5 Series", "meterName": "ND96isr H100 v5", "retailPrice": 36}]}`
	}
	for _, tc := range []fileErrorCase{
		{"CSV display name", csv("East US"), "line 3 (Standard_ND96isr_H100_v5 in east us)", "region", `"East US" is a display name: use the region's short name, eastus.`},
		{"CSV Retail Prices location", csv("US East"), "line 3 (Standard_ND96isr_H100_v5 in us east)", "region", `"US East" is a display name: use the region's short name, eastus.`},
		{"CSV hyphenated short name", csv("east-us"), "line 3 (Standard_ND96isr_H100_v5 in east-us)", "region", `"east-us" is not a short name: use the region's short name, eastus.`},
		{"CSV numbered location", csv("US West 3"), "line 3 (Standard_ND96isr_H100_v5 in us west 3)", "region", "use the region's short name, westus3."},
		{"CSV unmapped name", csv("Narnia North"), "line 3 (Standard_ND96isr_H100_v5 in narnia north)", "region",
			`"Narnia North" is not an Azure region's short name: use the Name column of az account list-locations -o table, such as eastus.`},
		{"retail display name", retail("US East 2"), "Items[0] (Standard_ND96isr_H100_v5 in US East 2)", "armRegionName", "use the region's short name, eastus2."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePriceFile("prices.csv", []byte(tc.in))
			userfiletest.Check(t, err, "prices.csv", tc.entry, tc.field, tc.want)
		})
	}
	// A short name in any case is the region.
	p, err := ParsePriceFile("prices.csv", []byte(csv("WestUS3")))
	if err != nil || p.Prices["standard_nd96isr_h100_v5"]["westus3"] == nil {
		t.Errorf("WestUS3: %v, %v", err, p)
	}
}
