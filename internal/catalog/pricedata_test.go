// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// unpricedDecisions are the decisions that say why a GA size of a current
// series has no on-demand price in any region. A size without a price must
// link one of them.
var unpricedDecisions = []string{"D35"}

// TestGASizesOfCurrentSeriesArePriced: every GA size of a series that is
// neither retired nor in preview has an on-demand price in at least one
// region, or links a decision that says why not. A size that links such a
// decision and has a price is an exception that no longer applies.
func TestGASizesOfCurrentSeriesArePriced(t *testing.T) {
	c := mustDefault(t)
	defined := map[string]bool{}
	for _, d := range c.Decisions {
		defined[d.ID] = true
	}
	for _, id := range unpricedDecisions {
		if !defined[id] {
			t.Errorf("decision %s is not recorded in catalog.json", id)
		}
	}
	used := map[string]int{}
	checked := 0
	for _, s := range c.SKUs() {
		sr, ok := c.series[s.Series]
		if !ok {
			t.Fatalf("%s: series %q not found", s.Name, s.Series)
		}
		var why []string
		for _, d := range s.Decisions {
			if slices.Contains(unpricedDecisions, d) {
				why = append(why, d)
				used[d]++
			}
		}
		current := sr.Lifecycle.Status != StatusRetired && sr.Lifecycle.Status != StatusPreview
		if !current || s.Lifecycle.Status != StatusGA {
			if len(why) > 0 {
				t.Errorf("%s (series %s, status %s) links %v, which only GA sizes of current series need", s.Name, s.Series, s.Lifecycle.Status, why)
			}
			continue
		}
		checked++
		switch {
		case len(s.Prices) == 0 && len(why) == 0:
			t.Errorf("%s is GA in the current series %s but priced in no region, and links none of the decisions %v that say why", s.Name, s.Series, unpricedDecisions)
		case len(s.Prices) > 0 && len(why) > 0:
			t.Errorf("%s is priced in %d regions but links %v, which says why it is not", s.Name, len(s.Prices), why)
		}
	}
	for _, id := range unpricedDecisions {
		if used[id] == 0 {
			t.Errorf("no size links %s: drop it from unpricedDecisions", id)
		}
	}
	if checked < 70 { // 79 at the 2026-11-01 data date
		t.Errorf("only %d GA sizes of current series checked", checked)
	}
}

// TestGANCRTXPRO6000Priced: the nine GA NC RTX PRO 6000 BSE v6 sizes are
// priced in eastus and 13 other regions, at the reference snapshot's prices
// (prices_additions.csv) until a refresh, with no spot estimate.
func TestGANCRTXPRO6000Priced(t *testing.T) {
	c := mustDefault(t)
	want := map[string]float64{
		"NC24lds": 1.13, "NC36ds": 1.442, "NC36lds": 1.243, "NC72ds": 2.83, "NC72lds": 2.44,
		"NC144ds": 5.5, "NC144lds": 5.5, "NC288ds": 11, "NC288lds": 11,
	}
	for short, usd := range want {
		name := "Standard_" + short + "_xl_RTXPRO6000BSE_v6"
		s := mustLookup(t, c, name)
		if s.Lifecycle.Status != StatusGA {
			t.Errorf("%s: status %s, want ga", name, s.Lifecycle.Status)
		}
		if len(s.Prices) < 14 {
			t.Errorf("%s: priced in %d regions, want 14", name, len(s.Prices))
		}
		p, ok := s.Prices["eastus"]
		if !ok || (atReferenceSnapshot(c) && p.USDPerHour != usd) {
			t.Errorf("%s in eastus: %v (priced: %t), want %v", name, p.USDPerHour, ok, usd)
		}
		if p.SpotUSDPerHour != nil {
			t.Errorf("%s in eastus: spot %v without a spot ratio", name, *p.SpotUSDPerHour)
		}
	}
}

// TestNG32admsV620Priced: the retail meter names the size without its _v1
// suffix (D34); prices.csv carries it under the catalog's name.
func TestNG32admsV620Priced(t *testing.T) {
	c := mustDefault(t)
	s := mustLookup(t, c, "Standard_NG32adms_V620_v1")
	if !slices.Contains(s.Decisions, "D34") {
		t.Errorf("decisions %v do not link D34", s.Decisions)
	}
	// The reference snapshot's prices; a refresh may change them and add
	// regions.
	want := map[string]float64{"centralus": 4.056, "eastus2": 3.302, "japaneast": 4.784, "swedencentral": 4.293, "uksouth": 4.134, "westeurope": 4.293, "westus3": 3.302}
	if len(s.Prices) < len(want) {
		t.Errorf("priced in %d regions, want %d", len(s.Prices), len(want))
	}
	for region, usd := range want {
		p, ok := s.Prices[region]
		if !ok || (atReferenceSnapshot(c) && p.USDPerHour != usd) {
			t.Errorf("%s: %v (priced: %t), want %v", region, p.USDPerHour, ok, usd)
		}
		// spot_prices.csv has no ratio for this size.
		if p.SpotUSDPerHour != nil {
			t.Errorf("%s: spot %v", region, *p.SpotUSDPerHour)
		}
	}
}

// TestSpotFollowsD19AndD23 pins the spot estimates of spot_prices.csv rows:
// the four whose on-demand figure is not today's price (another size's, or
// another time's) give no estimate (D80), nor do the H100 rows, whose
// ratio is 1 (D33). The prices are the reference snapshot's.
func TestSpotFollowsD19AndD23(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		name, region string
		price        float64 // the reference snapshot's
		// spot_prices.csv's on-demand and spot figures; 0 and 0 where
		// the row gives no estimate (D33, D80).
		rowUSD, rowSpot float64
	}{
		// Today 8.82, the row's on-demand figure 6.98, the price of
		// Standard_NC40ads_H100_v5 (D80).
		{"Standard_NCC40ads_H100_v5", "eastus2", 8.82, 0, 0},
		// Today 0.635, 1.27 and 2.54, the rows' 0.908, 1.815 and 3.63.
		{"Standard_NG8ads_V620_v1", "eastus2", 0.635, 0, 0},
		{"Standard_NG16ads_V620_v1", "eastus2", 1.27, 0, 0},
		{"Standard_NG32ads_V620_v1", "eastus2", 2.54, 0, 0},
		// Spot equal to on-demand in spot_prices.csv (D33).
		{"Standard_NC40ads_H100_v5", "southcentralus", 8.38, 0, 0},
		{"Standard_NC80adis_H100_v5", "westus3", 13.96, 0, 0},
		{"Standard_ND96isr_H100_v5", "westus", 127.816, 0, 0},
		// The eastus row of the 2026-09-28 snapshot (D70): 0.526 x 0.2836.
		{"Standard_NC4as_T4_v3", "eastus", 0.526, 0.526, 0.1491736},
	} {
		s := mustLookup(t, c, tc.name)
		p, ok := s.Prices[tc.region]
		if !ok || (atReferenceSnapshot(c) && p.USDPerHour != tc.price) {
			t.Errorf("%s in %s: %v (priced: %t), want %v", tc.name, tc.region, p.USDPerHour, ok, tc.price)
			continue
		}
		switch want := p.USDPerHour * tc.rowSpot / tc.rowUSD; {
		case tc.rowUSD == 0 && p.SpotUSDPerHour != nil:
			t.Errorf("%s in %s: spot %v, want none", tc.name, tc.region, *p.SpotUSDPerHour)
		case tc.rowUSD != 0 && (p.SpotUSDPerHour == nil || math.Abs(*p.SpotUSDPerHour-want) > 1e-6):
			t.Errorf("%s in %s: spot %s, want %v", tc.name, tc.region, show(p.SpotUSDPerHour), want)
		}
	}
}

// TestNoSpotFromAMisjoinedRow: no spot price comes from a spot_prices.csv
// row whose on-demand price disagrees with the catalog's on-demand price
// for that size and region (by more than half a percent, well beyond the
// rounding of either file): such a row was taken for another size or
// another price, and its ratio is not this price's (D80).
func TestNoSpotFromAMisjoinedRow(t *testing.T) {
	c := mustDefault(t)
	misjoined := 0
	for i, r := range embeddedRecords(t, "data/spot_prices.csv", 6) {
		s, ok := c.Lookup(r[1])
		if r[2] == "" || !ok {
			continue
		}
		od, err := strconv.ParseFloat(r[2], 64)
		p, priced := s.Prices[r[0]]
		if err != nil || !priced || math.Abs(od-p.USDPerHour) <= 0.005*p.USDPerHour {
			continue
		}
		misjoined++
		if p.SpotUSDPerHour != nil {
			t.Errorf("spot_prices.csv line %d: %s in %s prints on-demand %s against the catalog's %v, yet gives spot %v", i+2, r[1], r[0], r[2], p.USDPerHour, *p.SpotUSDPerHour)
		}
	}
	if atReferenceSnapshot(c) && misjoined != 4 {
		t.Errorf("%d rows disagree with the catalog's on-demand price, want the 4 D80 counts", misjoined)
	}
}

// TestSpotPricesFileRows: every row of the embedded spot_prices.csv carries
// both prices, for a size and region prices.csv prices (D33), and its
// source, with its date where the source gives one; a row the Resource
// SKUs API marks not low-priority capable carries none, dated (D75).
func TestSpotPricesFileRows(t *testing.T) {
	priced := map[[2]string]bool{}
	for _, r := range embeddedRecords(t, "data/prices.csv", 3) {
		priced[[2]string{r[0], r[1]}] = true
	}
	rows := embeddedRecords(t, "data/spot_prices.csv", 6)
	for i, r := range rows {
		if _, err := ParseSource(r[5]); err != nil || (r[4] != "" && !dateRE.MatchString(r[4])) {
			t.Errorf("spot_prices.csv line %d: date %q, source %q: %v", i+2, r[4], r[5], err)
		}
		if r[2] == "" && r[3] == "" && r[4] != "" && strings.Contains(r[5], "LowPriorityCapable=False") {
			continue
		}
		od, err1 := strconv.ParseFloat(r[2], 64)
		sp, err2 := strconv.ParseFloat(r[3], 64)
		if err1 != nil || err2 != nil || !(od > 0) || !(sp > 0) {
			t.Errorf("spot_prices.csv line %d (%s in %s): %q, %q: both prices are needed", i+2, r[1], r[0], r[2], r[3])
		}
		if !priced[[2]string{r[0], r[1]}] {
			t.Errorf("spot_prices.csv line %d: %s in %s has no prices.csv row", i+2, r[1], r[0])
		}
	}
	if len(rows) < 396 {
		t.Errorf("spot_prices.csv has %d rows, want at least 396 (415 in the reference less 19 without a ratio or an on-demand price)", len(rows))
	}
}

func embeddedRecords(t *testing.T, name string, fields int) [][]string {
	t.Helper()
	b, err := embedded.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = fields
	all, err := r.ReadAll()
	if err != nil || len(all) < 2 {
		t.Fatalf("%s: %v", name, err)
	}
	return all[1:]
}

// TestBuildSpotRatioOfOneGivesNoSpot: a spot_prices.csv row whose spot
// price is not below its on-demand price gives no estimate (D33), nor does
// a row whose on-demand price is not the size's price, to the decimals it
// is written with (D80).
func TestBuildSpotRatioOfOneGivesNoSpot(t *testing.T) {
	for _, tc := range []struct {
		row  string
		spot *float64
	}{
		{"eastus,Standard_NX8_v1,1.25,0.3125", f64(0.3125)},
		{"eastus,Standard_NX8_v1,1.3,0.325", f64(0.3125)}, // 1.25 written to one decimal
		{"eastus,Standard_NX8_v1,1.25,1.25", nil},
		{"eastus,Standard_NX8_v1,1.25,1.5", nil},
		{"eastus,Standard_NX8_v1,,", nil},
		{"eastus,Standard_NX8_v1,2.0,0.5", nil},
		{"eastus,Standard_NX8_v1,1.26,0.315", nil},
	} {
		c, err := Build(testDocs(), strings.NewReader(testPricesHeader+"eastus,Standard_NX8_v1,1.25\n"), strings.NewReader(testSpotHeader+tc.row+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.row, err)
		}
		p := mustLookup(t, c, "Standard_NX8_v1").Prices["eastus"]
		if !samePtr(p.SpotUSDPerHour, tc.spot) || (p.SpotSource == "") != (tc.spot == nil) {
			t.Errorf("%s: spot %s (source %q), want %s", tc.row, show(p.SpotUSDPerHour), p.SpotSource, show(tc.spot))
		}
	}
}

// TestSpotFigureCarriesDateAndSource: a spot estimate names the source of
// its ratio and its date, "undated" where the table gives none; a row with
// a date that is not YYYY-MM-DD is rejected.
func TestSpotFigureCarriesDateAndSource(t *testing.T) {
	const dated = "region,vm_size,usd_per_hour,spot_usd_per_hour,date,source\n"
	for _, tc := range []struct {
		header, row, date, source string
	}{
		{testSpotHeader, "eastus,Standard_NX8_v1,1.25,0.5", "", "(undated)"},
		{dated, "eastus,Standard_NX8_v1,1.25,0.5,,", "", "(undated)"},
		{dated, "eastus,Standard_NX8_v1,1.25,0.5,2026-11-20,Azure Retail Prices API (2026-11-20)", "2026-11-20", "Azure Retail Prices API (2026-11-20) (2026-11-20)"},
	} {
		c, err := Build(testDocs(), strings.NewReader(testPricesHeader+"eastus,Standard_NX8_v1,1.25\n"), strings.NewReader(tc.header+tc.row+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.row, err)
		}
		p := mustLookup(t, c, "Standard_NX8_v1").Prices["eastus"]
		if p.SpotUSDPerHour == nil || p.SpotDate != tc.date || !strings.HasSuffix(p.SpotSource, tc.source) {
			t.Errorf("%s: spot %s, date %q, source %q; want date %q, source ending %q", tc.row, show(p.SpotUSDPerHour), p.SpotDate, p.SpotSource, tc.date, tc.source)
		}
	}
	if _, err := Build(testDocs(), strings.NewReader(testPricesHeader+"eastus,Standard_NX8_v1,1.25\n"), strings.NewReader(dated+"eastus,Standard_NX8_v1,2.0,0.5,20.11.2026,x\n")); err == nil || !strings.Contains(err.Error(), "not YYYY-MM-DD") {
		t.Errorf("a date that is not YYYY-MM-DD: %v", err)
	}
}

// TestReferencePriceAdditions: every prices_additions.csv row for a size
// the catalog has is in the catalog with its price, found both by its
// catalog name and by its retail meter's name (D34); the other rows name
// sizes the catalog does not have yet.
func TestReferencePriceAdditions(t *testing.T) {
	rows := referenceCSV(t, "prices_additions.csv")
	c := mustDefault(t)
	matched, meters, dropped := 0, 0, 0
	for _, r := range rows {
		s, ok := c.Lookup(r["vm_size"])
		if !ok {
			if _, _, ok := c.MeterSize(r["retail_meter_name"]); ok {
				t.Errorf("%s: not in the catalog, but its meter %s is taken for a catalog size", r["vm_size"], r["retail_meter_name"])
			}
			continue
		}
		matched++
		if droppedPriceRows[r["region"]+","+r["vm_size"]] {
			if _, ok := s.Prices[r["region"]]; ok || !slices.Contains(s.Decisions, "D47") {
				t.Errorf("%s in %s: priced, or links no D47, though D47 leaves the row out", s.Name, r["region"])
			}
			dropped++
			continue
		}
		ms, mapped, ok := c.MeterSize(r["retail_meter_name"])
		if !ok || ms != s || mapped != (r["retail_meter_name"] != s.Name) {
			t.Errorf("MeterSize(%q) = %v, %t, %t; want %s", r["retail_meter_name"], ms, mapped, ok, s.Name)
		}
		if mapped {
			meters++
		}
		p, ok := s.Prices[r["region"]]
		if !ok {
			t.Errorf("%s in %s: no price, prices_additions.csv says %s", s.Name, r["region"], r["usd_per_hour"])
			continue
		}
		if want := *refFloat(t, r["usd_per_hour"]); atReferenceSnapshot(c) && p.USDPerHour != want {
			t.Errorf("%s in %s: %v, prices_additions.csv says %v", s.Name, r["region"], p.USDPerHour, want)
		}
	}
	if matched == 0 {
		t.Error("no prices_additions.csv row names a catalog size")
	}
	if meters != 7 {
		t.Errorf("%d rows priced under a meter name that differs from the size's, want 7 (Standard_NG32adms_V620)", meters)
	}
	if dropped != len(droppedPriceRows) {
		t.Errorf("%d rows left out, want the %d D47 names", dropped, len(droppedPriceRows))
	}
}

// droppedPriceRows are the snapshot's rows D47 leaves out of prices.csv:
// the Famsv6 prices in newzealandnorth, a tenth of the series' level.
var droppedPriceRows = map[string]bool{
	"newzealandnorth,Standard_F2ams_v6": true, "newzealandnorth,Standard_F4ams_v6": true, "newzealandnorth,Standard_F8ams_v6": true,
	"newzealandnorth,Standard_F16ams_v6": true, "newzealandnorth,Standard_F32ams_v6": true, "newzealandnorth,Standard_F48ams_v6": true,
	"newzealandnorth,Standard_F64ams_v6": true,
}

// TestPricesConsistentAcrossRegions: a price is the size's median over the
// regions times the region's level (the median of that ratio over the
// region's sizes); no row of prices.csv departs from that by more than a
// factor of two (D47 removed the rows that did).
func TestPricesConsistentAcrossRegions(t *testing.T) {
	c := mustDefault(t)
	median := func(v []float64) float64 {
		sort.Float64s(v)
		n := len(v)
		if n%2 == 1 {
			return v[n/2]
		}
		return (v[n/2-1] + v[n/2]) / 2
	}
	sizeMedian := map[string]float64{}
	for _, s := range c.SKUs() {
		var v []float64
		for _, p := range s.Prices {
			v = append(v, p.USDPerHour)
		}
		if len(v) > 0 {
			sizeMedian[s.Name] = median(v)
		}
	}
	level := map[string][]float64{}
	for _, s := range c.SKUs() {
		for r, p := range s.Prices {
			level[r] = append(level[r], p.USDPerHour/sizeMedian[s.Name])
		}
	}
	regionLevel := map[string]float64{}
	for r, v := range level {
		regionLevel[r] = median(v)
	}
	n := 0
	for _, s := range c.SKUs() {
		for r, p := range s.Prices {
			n++
			if q := p.USDPerHour / sizeMedian[s.Name] / regionLevel[r]; q < 0.5 || q > 2 {
				t.Errorf("%s in %s: %v USD/h is %.2f times the size's median at the region's level", s.Name, r, p.USDPerHour, q)
			}
		}
	}
	if n < 4000 {
		t.Errorf("only %d prices checked", n)
	}
}

func TestMeterSize(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		name, want string
		mapped     bool
	}{
		{"Standard_NG32adms_V620", "Standard_NG32adms_V620_v1", true},
		{"standard_ng32adms_v620", "Standard_NG32adms_V620_v1", true},
		{"Standard_NG32adms_V620_v1", "Standard_NG32adms_V620_v1", false},
		{"Standard_NC6", "Standard_NC6", false},
		{"Standard_ND96isr_H100_v5", "Standard_ND96isr_H100_v5", false},
		// No size is found by dropping or changing a suffix.
		{"Standard_NG32adms_V620_v2", "", false},
		{"Standard_NG32adms", "", false},
		{"Standard_ND96isr_H100", "", false},
		{"NG32adms_V620", "", false},
		{"Standard_NG32adms V620", "", false},
		{"", "", false},
	} {
		s, mapped, ok := c.MeterSize(tc.name)
		got := ""
		if ok {
			got = s.Name
		}
		if got != tc.want || mapped != tc.mapped || ok != (tc.want != "") {
			t.Errorf("MeterSize(%q) = %q, mapped %t, ok %t; want %q, mapped %t", tc.name, got, mapped, ok, tc.want, tc.mapped)
		}
	}
}

// The 28 sizes the catalog lacked before D36-D41: retired and documented
// (the Promo twins, the NC RTX PRO 6000 preview sizes superseded at GA) and
// listed by the Resource SKUs API without a size page.
var addedSizes = map[string][]string{
	StatusRetired: {
		"Standard_H8_Promo", "Standard_H8m_Promo", "Standard_H16_Promo", "Standard_H16m_Promo", "Standard_H16r_Promo",
		"Standard_H16mr_Promo", "Standard_NC6_Promo", "Standard_NC12_Promo", "Standard_NC24_Promo", "Standard_NC24r_Promo",
		"Standard_NV6_Promo", "Standard_NV12_Promo", "Standard_NV24_Promo",
		"Standard_NC16lds_xl_RTXPRO6000BSE_v6", "Standard_NC32ds_xl_RTXPRO6000BSE_v6", "Standard_NC32lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC32mds_xl_RTXPRO6000BSE_v6", "Standard_NC64ds_xl_RTXPRO6000BSE_v6", "Standard_NC64lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC64mds_xl_RTXPRO6000BSE_v6", "Standard_NC128mds_xl_RTXPRO6000BSE_v6",
	},
	StatusGA: {
		"Standard_NC8ads_A10_v4", "Standard_NC16ads_A10_v4", "Standard_NC32ads_A10_v4", "Standard_ND96is_MI300X_v5",
		"Standard_NV6s_v2", "Standard_NV12s_v2", "Standard_NV24s_v2",
	},
}

// TestAddedSizesListedWithRetired: the 28 sizes are in the catalog with the
// status each has at the data date; the retired ones appear only when a
// filter includes retired sizes, and each retired one names a replacement.
func TestAddedSizesListedWithRetired(t *testing.T) {
	c := mustDefault(t)
	all := map[string]bool{}
	for _, s := range c.Filter(Filter{IncludeRetired: true}) {
		all[s.Name] = true
	}
	current := map[string]bool{}
	for _, s := range c.Filter(Filter{}) {
		current[s.Name] = true
	}
	n := 0
	for status, names := range addedSizes {
		for _, name := range names {
			n++
			s := mustLookup(t, c, name)
			if !all[name] {
				t.Errorf("%s: not listed with include_retired", name)
			}
			if got := s.StatusAt(c.DataDate); got != status {
				t.Errorf("%s: status %s at the data date, want %s", name, got, status)
			}
			if current[name] != (status != StatusRetired) {
				t.Errorf("%s (%s): listed without include_retired = %t", name, status, current[name])
			}
			if status == StatusRetired && len(s.Lifecycle.ReplacementSizes) == 0 {
				t.Errorf("%s: retired without a replacement size", name)
			}
		}
	}
	if n != 28 {
		t.Errorf("%d sizes in the list, want 28", n)
	}
	checkPromoTwins(t, c)
}

// checkPromoTwins checks that a Promo size of addedSizes is its twin's facts
// under another name (D36).
func checkPromoTwins(t *testing.T, c *Catalog) {
	t.Helper()
	for _, names := range addedSizes {
		for _, name := range names {
			twin, ok := strings.CutSuffix(name, "_Promo")
			if !ok {
				continue
			}
			p, w := mustLookup(t, c, name), mustLookup(t, c, twin)
			if !samePtr(p.VCPUs, w.VCPUs) || !samePtr(p.MemoryGiB, w.MemoryGiB) || !samePtr(p.TempDiskGiB, w.TempDiskGiB) ||
				p.Network.RDMA != w.Network.RDMA || p.Lifecycle.RetirementDate != w.Lifecycle.RetirementDate ||
				!equalStrings(p.Lifecycle.ReplacementSizes, w.Lifecycle.ReplacementSizes) || !slices.Contains(p.Decisions, "D36") ||
				(p.GPU == nil) != (w.GPU == nil) || (p.GPU != nil && (p.GPU.Count != w.GPU.Count || p.GPU.ModelID != w.GPU.ModelID)) {
				t.Errorf("%s differs from its twin %s", name, twin)
			}
		}
	}
}

// TestEastUSListsTheGARTXPRO6000Sizes: with region eastus the catalog lists
// the nine GA NC RTX PRO 6000 BSE v6 sizes, priced there; none of the
// retired preview sizes.
func TestEastUSListsTheGARTXPRO6000Sizes(t *testing.T) {
	c := mustDefault(t)
	var got []string
	for _, s := range c.Filter(Filter{Region: "eastus", Series: []string{"NC_RTXPRO6000BSE_v6"}}) {
		if _, ok := s.Prices["eastus"]; !ok {
			t.Errorf("%s listed in eastus without a price there", s.Name)
		}
		got = append(got, s.Name)
	}
	want := []string{"NC144ds", "NC144lds", "NC24lds", "NC288ds", "NC288lds", "NC36ds", "NC36lds", "NC72ds", "NC72lds"}
	for i, w := range want {
		want[i] = "Standard_" + w + "_xl_RTXPRO6000BSE_v6"
	}
	if !equalStrings(got, want) {
		t.Errorf("eastus NC RTX PRO 6000 sizes = %v, want %v", got, want)
	}
}

// TestFsv2ReplacementInCatalog: Fsv2's replacement series Falsv6 and every
// replacement size its sizes name are in the catalog, GA and priced (D37).
func TestFsv2ReplacementInCatalog(t *testing.T) {
	c := mustDefault(t)
	fsv2 := c.series["Fsv2"]
	if !slices.Contains(fsv2.Lifecycle.ReplacementSeries, "Falsv6") {
		t.Errorf("Fsv2 replacement series %q do not name Falsv6 as an entry of its own", fsv2.Lifecycle.ReplacementSeries)
	}
	if _, ok := c.series["Falsv6"]; !ok {
		t.Fatal("series Falsv6 is not in the catalog")
	}
	n := 0
	for _, s := range c.Filter(Filter{Series: []string{"Fsv2"}}) {
		for _, r := range s.Lifecycle.ReplacementSizes {
			rs := mustLookup(t, c, r)
			if rs.Series != "Falsv6" || rs.Lifecycle.Status != StatusGA || len(rs.Prices) == 0 || *rs.VCPUs > *s.VCPUs {
				t.Errorf("%s: replacement %s is series %s, %s, priced in %d regions, %s vCPUs", s.Name, r, rs.Series, rs.Lifecycle.Status, len(rs.Prices), show(rs.VCPUs))
			}
			n++
		}
	}
	if n != 8 {
		t.Errorf("%d Fsv2 replacement sizes, want one per Fsv2 size (8)", n)
	}
	if r := mustLookup(t, c, "Standard_F2s_v2").Lifecycle.ReplacementSizes; !equalStrings(r, []string{"Standard_F2als_v6"}) {
		t.Errorf("Standard_F2s_v2 replacement %v, want Standard_F2als_v6", r)
	}
}
