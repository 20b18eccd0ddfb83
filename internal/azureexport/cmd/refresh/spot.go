// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
)

// spotHeader is the header spot_prices.csv is written with: each row's
// spot price with the on-demand price of the same source and date, which
// the catalog turns into a spot-to-on-demand ratio.
var spotHeader = []string{"region", "vm_size", "usd_per_hour", "spot_usd_per_hour", "date", "source"}

// spotSource names where the file's spot prices come from, in the catalog's
// source grammar (Title (YYYY-MM-DD)).
func spotSource(pf *azureexport.PriceFile, date string) string {
	if pf.Format == azureexport.PriceFormatRetail {
		return "Azure Retail Prices API, Linux Spot meters (" + date + ")"
	}
	return "Prices file " + filepath.Base(pf.File) + ", spot_usd_per_hour column (" + date + ")"
}

// readSpotRows reads spot_prices.csv by region and lower-case size, each
// row with the six fields of spotHeader (an undated four-field row gets
// an empty date and the given source).
func readSpotRows(b []byte, undatedSource string) (map[[2]string][]string, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("spot_prices.csv: %v", err)
	}
	rows := map[[2]string][]string{}
	for i, rec := range recs[1:] {
		switch len(rec) {
		case 4:
			rec = append(rec, "", undatedSource)
		case 6:
		default:
			return nil, fmt.Errorf("spot_prices.csv line %d: %d fields", i+2, len(rec))
		}
		rows[[2]string{rec[0], strings.ToLower(rec[1])}] = rec
	}
	return rows, nil
}

// mergeSpot lays the file's spot prices of the catalog's sizes over the
// rows of spot_prices.csv, each with the on-demand price the file gives
// for the size and region (else the prices.csv row), the date and the
// source; it returns how many rows it changed or added.
func mergeSpot(matched meterMatches, rows map[[2]string][]string, prices map[[2]string]*priceRow, date, source string) int {
	n := 0
	for _, mm := range matched.sizes {
		s := mm.size
		for region, fp := range mm.regions {
			k := [2]string{region, strings.ToLower(s.Name)}
			if fp.SpotUSDPerHour == nil || (mm.mapped && matched.exact[k]) {
				continue
			}
			od := ""
			switch {
			case fp.USDPerHour != nil:
				od = strconv.FormatFloat(*fp.USDPerHour, 'f', 6, 64)
			case prices[k] != nil:
				od = prices[k].raw
			default:
				continue // no on-demand price to set the spot price against
			}
			row := []string{region, s.Name, od, strconv.FormatFloat(*fp.SpotUSDPerHour, 'f', 6, 64), date, source}
			if old, ok := rows[k]; !ok || strings.Join(old, ",") != strings.Join(row, ",") {
				rows[k] = row
				n++
			}
		}
	}
	return n
}

// writeSpotRows writes spot_prices.csv with spotHeader, the rows sorted by
// region and size.
func writeSpotRows(rows map[[2]string][]string, crlf bool) ([]byte, error) {
	keys := make([][2]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return rows[keys[i]][1] < rows[keys[j]][1]
	})
	var out bytes.Buffer
	cw := csv.NewWriter(&out)
	cw.UseCRLF = crlf
	_ = cw.Write(spotHeader)
	for _, k := range keys {
		_ = cw.Write(rows[k])
	}
	cw.Flush()
	return out.Bytes(), cw.Error()
}
