// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file reads the embedded price tables: prices.csv and spot_prices.csv.

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// loadPrices reads region,vm_size,usd_per_hour rows and, optionally, the
// older spot table (region,vm_size,usd_per_hour,spot_usd_per_hour), whose
// spot-to-on-demand ratio is applied to the current on-demand price.
func (c *Catalog) loadPrices(prices, spot io.Reader) error {
	rows, err := readCSV(prices, []string{"region", "vm_size", "usd_per_hour"})
	if err != nil {
		return fmt.Errorf("prices.csv: %w", err)
	}
	ratios := map[[2]string]float64{}
	if spot != nil {
		srows, err := readCSV(spot, []string{"region", "vm_size", "usd_per_hour", "spot_usd_per_hour"})
		if err != nil {
			return fmt.Errorf("spot_prices.csv: %w", err)
		}
		for i, r := range srows {
			if r[2] == "" && r[3] == "" {
				continue // listed without prices: no ratio to learn
			}
			od, err1 := strconv.ParseFloat(r[2], 64)
			sp, err2 := strconv.ParseFloat(r[3], 64)
			if err1 != nil || err2 != nil || od <= 0 || sp <= 0 {
				return fmt.Errorf("spot_prices.csv line %d: prices must be positive numbers", i+2)
			}
			if sp >= od {
				continue // no discount listed: not a spot price (D33)
			}
			ratios[[2]string{r[0], strings.ToLower(r[1])}] = sp / od
		}
	}
	regions := map[string]bool{}
	for i, r := range rows {
		s, ok := c.byName[strings.ToLower(r[1])]
		if !ok {
			return fmt.Errorf("prices.csv line %d: size %q is not in the catalog", i+2, r[1])
		}
		p, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			return fmt.Errorf("prices.csv line %d: usd_per_hour %q is not a number", i+2, r[2])
		}
		if _, dup := s.Prices[r[0]]; dup {
			return fmt.Errorf("prices.csv line %d: %s in %s is priced twice", i+2, r[1], r[0])
		}
		price := Price{Region: r[0], USDPerHour: p, SnapshotDate: c.PriceSnapshotDate, Source: "embedded snapshot of " + c.PriceSnapshotDate}
		if ratio, ok := ratios[[2]string{r[0], strings.ToLower(r[1])}]; ok {
			sp := math.Round(p*ratio*1e6) / 1e6
			price.SpotUSDPerHour = &sp
			price.SpotSource = "estimate: on-demand price times the spot ratio of " + c.SpotSource
		}
		s.Prices[r[0]] = price
		regions[r[0]] = true
	}
	for r := range regions {
		c.regions = append(c.regions, r)
	}
	sort.Strings(c.regions)
	return nil
}

func readCSV(r io.Reader, header []string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	all, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(all) == 0 || strings.Join(all[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("the header must be %q", strings.Join(header, ","))
	}
	return all[1:], nil
}
