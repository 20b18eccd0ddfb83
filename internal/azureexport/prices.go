// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

// This file reads a prices file: either the JSON of the Azure Retail Prices
// API (https://prices.azure.com/api/retail/prices) or a CSV of negotiated
// prices with the header region,vm_size,usd_per_hour[,spot_usd_per_hour].
// The format is told from the content.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// Price file formats.
const (
	PriceFormatRetail = "Azure Retail Prices API JSON"
	PriceFormatCSV    = "CSV"
)

// PriceFile is a parsed prices file.
type PriceFile struct {
	File   string
	Format string // PriceFormatRetail or PriceFormatCSV
	// SnapshotDate is the file's modification date (YYYY-MM-DD), or "".
	SnapshotDate string
	// Prices by lower-case size name, then lower-case region.
	Prices map[string]map[string]*FilePrice
	// Used counts the rows that gave a price; Skipped the rows left out
	// (Windows, Dev/Test, reservations, low priority, other units or
	// services, free meters).
	Used, Skipped int
}

// FilePrice is a size's price in one region from a prices file. Either
// price may be missing (a Retail Prices export filtered to spot meters has
// no on-demand price).
type FilePrice struct {
	Region         string
	Size           string // as the file spells it
	USDPerHour     *float64
	SpotUSDPerHour *float64
	Entry          string // where the on-demand price is, for messages
	SpotEntry      string

	// Retail rows compete: the primary meter region wins, then the newest
	// effective date.
	primary, spotPrimary bool
	date, spotDate       string
}

// Sizes lists the priced sizes (as the file spells them), sorted.
func (p *PriceFile) Sizes() []string {
	var out []string
	for _, regions := range p.Prices {
		for _, fp := range regions {
			out = append(out, fp.Size)
			break
		}
	}
	sort.Strings(out)
	return out
}

// Count is the number of size-region prices.
func (p *PriceFile) Count() int {
	n := 0
	for _, regions := range p.Prices {
		n += len(regions)
	}
	return n
}

// Describe names the file and its format, for price sources.
func (p *PriceFile) Describe() string {
	return fmt.Sprintf("prices file %s (%s)", p.File, p.Format)
}

const pricesHint = "Keep only the rows you need: for the Azure Retail Prices API, filter on serviceName eq 'Virtual Machines' and the regions you use."

// LoadPriceFile reads and parses a prices file of at most
// userfile.DefaultLimits().PricesFile bytes (or what userfile.MaxBytes
// sets). Its modification date is the prices' snapshot date.
func LoadPriceFile(path string, opts ...userfile.Option) (*PriceFile, error) {
	kind := userfile.Kind{Name: "prices file", MaxBytes: userfile.DefaultLimits().PricesFile, Hint: pricesHint}
	b, mod, err := userfile.Read(path, kind, opts...)
	if err != nil {
		return nil, err
	}
	p, err := ParsePriceFile(path, b)
	if err != nil {
		return nil, err
	}
	if !mod.IsZero() {
		p.SnapshotDate = mod.UTC().Format(catalog.DateLayout)
	}
	return p, nil
}

// ParsePriceFile parses a prices file, telling the format from the content:
// JSON (an object with Items, or a list of items) is the Azure Retail
// Prices API's; anything else is read as CSV.
func ParsePriceFile(file string, data []byte) (*PriceFile, error) {
	data = userfile.Text(data)
	p := &PriceFile{File: file, Prices: map[string]map[string]*FilePrice{}}
	switch userfile.FirstByte(data) {
	case '{', '[':
		p.Format = PriceFormatRetail
		return p, p.parseRetail(data)
	case 0:
		return nil, &userfile.Error{File: file, Problem: "the file is empty. Use the JSON of the Azure Retail Prices API, or a CSV with the header region,vm_size,usd_per_hour[,spot_usd_per_hour]."}
	}
	p.Format = PriceFormatCSV
	return p, p.parseCSV(data)
}

func (p *PriceFile) entry(size, region string) *FilePrice {
	key := strings.ToLower(size)
	regions := p.Prices[key]
	if regions == nil {
		regions = map[string]*FilePrice{}
		p.Prices[key] = regions
	}
	fp := regions[region]
	if fp == nil {
		fp = &FilePrice{Region: region, Size: size}
		regions[region] = fp
	}
	return fp
}

// retailItem is one item of the Retail Prices API.
type retailItem struct {
	CurrencyCode         string  `json:"currencyCode"`
	RetailPrice          float64 `json:"retailPrice"`
	ArmRegionName        string  `json:"armRegionName"`
	ArmSkuName           string  `json:"armSkuName"`
	EffectiveStartDate   string  `json:"effectiveStartDate"`
	MeterName            string  `json:"meterName"`
	ProductName          string  `json:"productName"`
	SkuName              string  `json:"skuName"`
	ServiceName          string  `json:"serviceName"`
	UnitOfMeasure        string  `json:"unitOfMeasure"`
	Type                 string  `json:"type"`
	IsPrimaryMeterRegion *bool   `json:"isPrimaryMeterRegion"`
}

func retailEntryName(i int, it *retailItem) string {
	s := fmt.Sprintf("Items[%d]", i)
	switch {
	case it.ArmSkuName != "" && it.ArmRegionName != "":
		s += fmt.Sprintf(" (%s in %s)", it.ArmSkuName, it.ArmRegionName)
	case it.ArmSkuName != "":
		s += " (" + it.ArmSkuName + ")"
	}
	return s
}

// parseRetail reads the JSON of the Azure Retail Prices API.
func (p *PriceFile) parseRetail(data []byte) error {
	items, err := p.decodeRetail(data)
	if err != nil {
		return err
	}
	for i := range items {
		if err := p.addRetail(retailEntryName(i, &items[i]), &items[i]); err != nil {
			return err
		}
	}
	return nil
}

// decodeRetail decodes the items of a Retail Prices API page (an object
// with an Items list) or a list of its items.
func (p *PriceFile) decodeRetail(data []byte) ([]retailItem, error) {
	var items []retailItem
	var err error
	base := int64(0)
	if userfile.FirstByte(data) == '{' {
		var page struct {
			Items json.RawMessage `json:"Items"`
		}
		if err := json.Unmarshal(data, &page); err != nil {
			return nil, p.locateRetailError(data, 0, err)
		}
		if len(page.Items) == 0 || userfile.FirstByte(page.Items) != '[' {
			return nil, userfile.ErrorsIn(p.File)("", "Items", "missing or not a list. Use the JSON the Azure Retail Prices API returns (an object with an Items list), or a list of its items.")
		}
		base = int64(bytes.Index(data, page.Items))
		err = json.Unmarshal(page.Items, &items)
	} else {
		err = json.Unmarshal(data, &items)
	}
	if err != nil {
		return nil, p.locateRetailError(data, base, err)
	}
	return items, nil
}

// addRetail records an item's price if it is a Linux pay-as-you-go or spot
// price of a virtual machine size, and counts it as used or skipped.
func (p *PriceFile) addRetail(where string, it *retailItem) error {
	spot, ok, err := p.retailKind(where, it)
	if err != nil {
		return err
	}
	if !ok {
		p.Skipped++
		return nil
	}
	fp := p.entry(it.ArmSkuName, strings.ToLower(it.ArmRegionName))
	primary := it.IsPrimaryMeterRegion == nil || *it.IsPrimaryMeterRegion
	price := it.RetailPrice
	if spot {
		if fp.SpotUSDPerHour != nil {
			if err := p.compete(where, fp.SpotEntry, *fp.SpotUSDPerHour, price, fp.spotPrimary, primary, fp.spotDate, it.EffectiveStartDate, "spot "); err != nil {
				return err
			} else if !wins(fp.spotPrimary, primary, fp.spotDate, it.EffectiveStartDate) {
				p.Skipped++ // superseded
				return nil
			}
		}
		fp.SpotUSDPerHour, fp.SpotEntry, fp.spotPrimary, fp.spotDate = &price, where, primary, it.EffectiveStartDate
	} else {
		if fp.USDPerHour != nil {
			if err := p.compete(where, fp.Entry, *fp.USDPerHour, price, fp.primary, primary, fp.date, it.EffectiveStartDate, ""); err != nil {
				return err
			} else if !wins(fp.primary, primary, fp.date, it.EffectiveStartDate) {
				p.Skipped++ // superseded
				return nil
			}
		}
		fp.USDPerHour, fp.Entry, fp.primary, fp.date = &price, where, primary, it.EffectiveStartDate
	}
	p.Used++
	return nil
}

// retailKind tells whether an item gives a price the provider uses (ok)
// and whether it is a spot price. Items of other services, Windows,
// Dev/Test, reservations, low priority, other units, legacy meters with no
// size or region, free meters and names that are not sizes are not used; a
// currency other than US dollars or a negative price is an error.
func (p *PriceFile) retailKind(where string, it *retailItem) (spot, ok bool, err error) {
	ferr := userfile.ErrorsIn(p.File)
	if it.ServiceName != "" && it.ServiceName != "Virtual Machines" {
		return false, false, nil
	}
	if it.Type != "Consumption" || it.UnitOfMeasure != "1 Hour" || strings.Contains(it.ProductName, "Windows") {
		return false, false, nil // Dev/Test, reservations, Windows, other units
	}
	meter := it.MeterName
	if meter == "" {
		meter = it.SkuName
	}
	if strings.HasSuffix(meter, " Low Priority") {
		return false, false, nil
	}
	spot = strings.HasSuffix(meter, " Spot")
	if it.CurrencyCode != "" && !strings.EqualFold(it.CurrencyCode, "USD") {
		return false, false, ferr(where, "currencyCode", fmt.Sprintf("%q: prices are in US dollars; query the API with currencyCode='USD', or convert the prices and write them as CSV.", it.CurrencyCode))
	}
	if it.ArmSkuName == "" || it.ArmRegionName == "" {
		return false, false, nil // legacy meters with no size or region
	}
	if problem := regionProblem(it.ArmRegionName); problem != "" {
		return false, false, ferr(where, "armRegionName", problem)
	}
	if it.RetailPrice < 0 {
		return false, false, ferr(where, "retailPrice", fmt.Sprintf("%v is negative.", it.RetailPrice))
	}
	if it.RetailPrice == 0 {
		return false, false, nil // free meters
	}
	if !fileSizeNameRE.MatchString(it.ArmSkuName) {
		return false, false, nil // not a virtual machine size name
	}
	return spot, true, nil
}

// wins reports whether a new row replaces an earlier one for the same size,
// region and kind: a primary meter region beats a secondary one, then the
// newer effective date wins.
func wins(oldPrimary, newPrimary bool, oldDate, newDate string) bool {
	if oldPrimary != newPrimary {
		return newPrimary
	}
	return newDate > oldDate
}

// compete fails when two rows for the same size, region and kind disagree
// and neither is preferred (both primary or both not, same effective date).
func (p *PriceFile) compete(where, earlier string, oldPrice, newPrice float64, oldPrimary, newPrimary bool, oldDate, newDate, kind string) error {
	if oldPrice == newPrice || oldPrimary != newPrimary || oldDate != newDate {
		return nil
	}
	return &userfile.Error{File: p.File, Entry: where, Field: "retailPrice",
		Problem: fmt.Sprintf("duplicate: %s also gives a Linux %spay-as-you-go price for this size and region (%v, here %v), with the same effective date. Remove one of them.", earlier, kind, oldPrice, newPrice)}
}

// locateRetailError names the item a decoding error is in. base is the
// offset of the list of items in data.
func (p *PriceFile) locateRetailError(data []byte, base int64, err error) error {
	return userfile.Entries[retailItem]{
		File: p.File, Data: data, Name: retailEntryName, Object: "an object",
		Whole: "the JSON of the Azure Retail Prices API (an object with an Items list)",
	}.Locate(base, err)
}

// regionProblem says what is wrong with a region a prices file names, or
// "" for a short name (eastus) in any case. A display name ("East US", "US
// East") is not a region of its own: the message names the short name it
// stands for when it is a region of the embedded catalog.
func regionProblem(region string) string {
	if catalog.IsRegionShortName(region) {
		return ""
	}
	region = strings.TrimSpace(region)
	if c, err := catalog.Default(); err == nil {
		if short, ok := c.RegionForDisplayName(region); ok {
			what := "a display name"
			if !strings.Contains(region, " ") {
				what = "not a short name" // east-us, East_US
			}
			return fmt.Sprintf("%q is %s: use the region's short name, %s.", region, what, short)
		}
	}
	return fmt.Sprintf("%q is not an Azure region's short name: use the Name column of az account list-locations -o table, such as eastus.", region)
}

// fileSizeNameRE matches size names in prices files, in any case.
var fileSizeNameRE = regexp.MustCompile(`(?i)^standard_[a-z0-9_-]+$`)

// The headers a CSV prices file may have.
const (
	csvHeader     = "region,vm_size,usd_per_hour"
	csvSpotHeader = "region,vm_size,usd_per_hour,spot_usd_per_hour"
)

func (p *PriceFile) parseCSV(data []byte) error {
	ferr := userfile.ErrorsIn(p.File)
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return ferr("line 1", "", "the header cannot be read: "+csvProblem(err))
	}
	for i := range header {
		header[i] = strings.ToLower(strings.TrimSpace(header[i]))
	}
	joined := strings.Join(header, ",")
	if joined != csvHeader && joined != csvSpotHeader {
		return ferr("line 1", "", fmt.Sprintf("the header is %q; it must be region,vm_size,usd_per_hour or region,vm_size,usd_per_hour,spot_usd_per_hour. (A file that is not JSON is read as CSV.)", joined))
	}
	seen := map[[2]string]string{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// No record, so no FieldPos (it panics without one): the
			// parse error has the line.
			where := ""
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				where = fmt.Sprintf("line %d", pe.Line)
			}
			return ferr(where, "", csvProblem(err))
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(header) {
			return ferr(fmt.Sprintf("line %d", line), "", fmt.Sprintf("%d fields; the header has %d (%s).", len(rec), len(header), joined))
		}
		if err := p.addCSVRecord(rec, line, seen, ferr); err != nil {
			return err
		}
	}
	if p.Used == 0 {
		return ferr("", "", "the file has a header but no prices.")
	}
	return nil
}

// addCSVRecord adds one record of a CSV price file, read at line: a size
// and region not priced before (seen), its price and, with a fourth field,
// its spot price.
func (p *PriceFile) addCSVRecord(rec []string, line int, seen map[[2]string]string, ferr func(entry, field, problem string) error) error {
	where := fmt.Sprintf("line %d", line)
	region := strings.ToLower(strings.TrimSpace(rec[0]))
	size := strings.TrimSpace(rec[1])
	if size != "" && region != "" {
		where += fmt.Sprintf(" (%s in %s)", size, region)
	}
	if region == "" {
		return ferr(where, "region", "empty: give an Azure region name such as eastus.")
	}
	if problem := regionProblem(rec[0]); problem != "" {
		return ferr(where, "region", problem)
	}
	if !fileSizeNameRE.MatchString(size) {
		return ferr(where, "vm_size", fmt.Sprintf("%q is not a VM size name such as Standard_ND96isr_H100_v5.", size))
	}
	key := [2]string{region, strings.ToLower(size)}
	if first, dup := seen[key]; dup {
		return ferr(where, "vm_size", fmt.Sprintf("duplicate: %s in %s is already priced on %s.", size, region, first))
	}
	seen[key] = fmt.Sprintf("line %d", line)
	price, err := positive(rec[2])
	if err != nil {
		return ferr(where, "usd_per_hour", err.Error())
	}
	fp := p.entry(size, region)
	fp.USDPerHour, fp.Entry = &price, where
	if len(rec) == 4 && strings.TrimSpace(rec[3]) != "" {
		sp, err := positive(rec[3])
		if err != nil {
			return ferr(where, "spot_usd_per_hour", err.Error())
		}
		fp.SpotUSDPerHour, fp.SpotEntry = &sp, where
	}
	p.Used++
	return nil
}

func positive(s string) (float64, error) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of US dollars per hour.", s)
	}
	if !(f > 0) {
		return 0, fmt.Errorf("%s must be greater than 0 (US dollars per hour for one VM).", s)
	}
	if f > 100000 {
		return 0, fmt.Errorf("%s is more than 100,000 US dollars per hour for one VM; check the unit (prices are per hour, not per month).", s)
	}
	return f, nil
}

func csvProblem(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("invalid CSV at column %d: %v.", pe.Column, pe.Err)
	}
	return err.Error() + "."
}
