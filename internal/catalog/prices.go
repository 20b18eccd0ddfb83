// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file reads the embedded price tables: prices.csv and spot_prices.csv.

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// spotHeader and spotHeaderDated are the headers spot_prices.csv may have:
// without date and source its rows take the catalog's spot_source,
// undated.
var (
	spotHeader      = []string{"region", "vm_size", "usd_per_hour", "spot_usd_per_hour"}
	spotHeaderDated = append(append([]string{}, spotHeader...), "date", "source")
)

// spotRatio is a spot-to-on-demand ratio and where it comes from; none
// is a row listed without prices: Azure sells no Spot VMs of the size in
// the region (D75).
type spotRatio struct {
	ratio        float64
	date, source string // date "" when the source gives none
	none         bool
	// onDemand is the row's on-demand price, written to places decimals.
	onDemand float64
	places   int
}

// joins is whether the row's on-demand price is p, as rounded to the
// decimals the row writes: a row that prints another price was taken for
// another size or another price, and its ratio is not this price's (D80).
func (sr spotRatio) joins(p float64) bool {
	return math.Abs(sr.onDemand-p) <= 0.5*math.Pow(10, -float64(sr.places))+1e-9
}

// decimals is the count of digits after the point of the number s.
func decimals(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// loadPrices reads region,vm_size,usd_per_hour rows and, optionally, the
// spot table (region,vm_size,usd_per_hour,spot_usd_per_hour[,date,source]),
// whose spot-to-on-demand ratio is applied to the on-demand price where the
// row's on-demand figure is that price (D80).
func (c *Catalog) loadPrices(prices, spot io.Reader) error {
	rows, err := readCSV(prices, []string{"region", "vm_size", "usd_per_hour"})
	if err != nil {
		return fmt.Errorf("prices.csv: %w", err)
	}
	ratios := map[[2]string]spotRatio{}
	if spot != nil {
		if ratios, err = c.readSpotRatios(spot); err != nil {
			return fmt.Errorf("spot_prices.csv: %w", err)
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
		switch sr, ok := ratios[[2]string{r[0], strings.ToLower(r[1])}]; {
		case ok && sr.none:
			price.NoSpot, price.SpotDate, price.SpotSource = true, sr.date, sr.source
		case ok && sr.joins(p):
			sp := math.Round(p*sr.ratio*1e6) / 1e6
			price.SpotUSDPerHour, price.SpotDate = &sp, sr.date
			price.SpotSource = "estimate: on-demand price times the spot-to-on-demand ratio of " + sr.source + spotWhen(sr)
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

// readSpotRatios reads the spot table's ratios by region and lower-case
// size; a row without a discount gives none (D33), and a row without
// prices says Azure sells no Spot VMs there (D75).
func (c *Catalog) readSpotRatios(spot io.Reader) (map[[2]string]spotRatio, error) {
	srows, dated, err := readCSVEither(spot, spotHeader, spotHeaderDated)
	if err != nil {
		return nil, err
	}
	ratios := map[[2]string]spotRatio{}
	for i, r := range srows {
		if r[2] == "" && r[3] == "" {
			sr := spotRatio{none: true, source: c.SpotSource}
			if dated {
				sr.date, sr.source = r[4], cmpOr(r[5], c.SpotSource)
			}
			ratios[[2]string{r[0], strings.ToLower(r[1])}] = sr
			continue
		}
		od, err1 := strconv.ParseFloat(r[2], 64)
		sp, err2 := strconv.ParseFloat(r[3], 64)
		if err1 != nil || err2 != nil || od <= 0 || sp <= 0 {
			return nil, fmt.Errorf("line %d: prices must be positive numbers", i+2)
		}
		sr := spotRatio{ratio: sp / od, source: c.SpotSource, onDemand: od, places: decimals(r[2])}
		if dated {
			if r[4] != "" && !dateRE.MatchString(r[4]) {
				return nil, fmt.Errorf("line %d: date %q is not YYYY-MM-DD", i+2, r[4])
			}
			sr.date, sr.source = r[4], cmpOr(r[5], c.SpotSource)
		}
		if sp >= od {
			continue // no discount listed: not a spot price (D33)
		}
		ratios[[2]string{r[0], strings.ToLower(r[1])}] = sr
	}
	return ratios, nil
}

// spotWhen is the date a spot ratio is of, as the spot source ends it:
// " (YYYY-MM-DD)", or " (undated)" unless its source says so already.
func spotWhen(sr spotRatio) string {
	switch {
	case sr.date != "":
		return " (" + sr.date + ")"
	case strings.Contains(sr.source, "undated"):
		return ""
	}
	return " (undated)"
}

// dateRE is a YYYY-MM-DD date.
var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readCSVEither reads a CSV file with either header; dated is whether it
// has the second.
func readCSVEither(r io.Reader, header, dated []string) (rows [][]string, isDated bool, err error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	all, err := cr.ReadAll()
	if err != nil {
		return nil, false, err
	}
	if len(all) > 0 {
		switch strings.Join(all[0], ",") {
		case strings.Join(header, ","):
			return checkFields(all[1:], len(header))
		case strings.Join(dated, ","):
			rows, _, err := checkFields(all[1:], len(dated))
			return rows, true, err
		}
	}
	return nil, false, fmt.Errorf("the header must be %q or %q", strings.Join(header, ","), strings.Join(dated, ","))
}

// checkFields checks every row has n fields.
func checkFields(rows [][]string, n int) ([][]string, bool, error) {
	for i, r := range rows {
		if len(r) != n {
			return nil, false, fmt.Errorf("line %d: %d fields, want %d", i+2, len(r), n)
		}
	}
	return rows, false, nil
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
