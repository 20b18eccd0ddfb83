// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"fmt"
	"testing"
	"time"
)

// RetiresWithin's calendar arithmetic.
func TestRetiresWithin(t *testing.T) {
	sku := func(status, date string) *SKU {
		return &SKU{Name: "Standard_X", Lifecycle: Lifecycle{Status: status, RetirementDate: date}}
	}
	cases := []struct {
		status, date, asOf string
		months             int
		want               bool
	}{
		{"retiring", "2027-05-31", "2026-11-22", 6, false},
		{"retiring", "2027-05-31", "2026-11-22", 7, true},
		// Inclusive: the horizon day itself counts.
		{"retiring", "2027-05-31", "2026-12-31", 5, true},
		{"retiring", "2027-06-01", "2026-12-31", 5, false},
		// 31 August + 1 month is 1 October (time.AddDate normalizes 31 September).
		{"retiring", "2026-10-01", "2026-08-31", 1, true},
		{"retiring", "2026-10-02", "2026-08-31", 1, false},
		// 29 February + 12 months is 1 March.
		{"retiring", "2029-03-01", "2028-02-29", 12, true},
		// months = 0 is RetiredAt: the retirement date counts from that day.
		{"retiring", "2026-11-22", "2026-11-22", 0, true},
		{"retiring", "2026-11-23", "2026-11-22", 0, false},
		// Already retired, with or without a date.
		{"retiring", "2025-09-30", "2026-11-22", 0, true},
		{"retired", "", "2026-11-22", 0, true},
		// No retirement announced.
		{"ga", "", "2026-11-22", 1200, false},
		{"preview", "", "2026-11-22", 1200, false},
		// The warning horizon, 24 months: 2028-11-22 is 731 days after
		// 2026-11-22 (2028 is a leap year), and still within it.
		{"retiring", "2028-11-22", "2026-11-22", RetirementWarningMonths, true},
		{"retiring", "2028-11-23", "2026-11-22", RetirementWarningMonths, false},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s %s from %s + %d", c.status, c.date, c.asOf, c.months)
		if got := sku(c.status, c.date).RetiresWithin(date(t, c.asOf), c.months); got != c.want {
			t.Errorf("%s: got %v, want %v", name, got, c.want)
		}
	}
}

// MonthsBeforeRetirement is the most months RetiresWithin says no to: the
// relax of min_lifetime_months names it. 1 July + 2 months is 1 September
// (62 days, two 31-day months), so a retirement on 1 September allows 1.
func TestMonthsBeforeRetirement(t *testing.T) {
	for _, c := range []struct {
		date, asOf string
		want       int
	}{
		{"2026-09-01", "2026-07-01", 1},
		{"2026-09-02", "2026-07-01", 2},
		{"2027-05-31", "2026-05-31", 11},
		{"2027-05-31", "2026-05-30", 12},
		{"2026-11-23", "2026-11-22", 0},
	} {
		s := &SKU{Lifecycle: Lifecycle{Status: StatusRetiring, RetirementDate: c.date}}
		asOf := date(t, c.asOf)
		m := s.MonthsBeforeRetirement(asOf)
		if m != c.want || s.RetiresWithin(asOf, m) || !s.RetiresWithin(asOf, m+1) {
			t.Errorf("retiring %s, as of %s: %d months, want %d, the most RetiresWithin says no to", c.date, c.asOf, m, c.want)
		}
	}
	if m := (&SKU{Lifecycle: Lifecycle{Status: StatusRetiring, RetirementDate: "2026-11-22"}}).MonthsBeforeRetirement(date(t, "2026-11-22")); m != -1 {
		t.Errorf("retired on the day: %d months, want -1", m)
	}
}

// A size with a retirement date is retired from that day on, whatever its
// catalog status: the catalog records status retired for sizes whose date
// had passed by its data date (D83), so an as_of before the date finds them
// running, and retiring. On every dated size of the embedded catalog, the
// day before its date it is not retired and the day of it it is.
func TestRetiredAtJudgesByTheDate(t *testing.T) {
	dated := 0
	for _, s := range mustDefault(t).SKUs() {
		day, ok := s.RetirementTime()
		if !ok {
			continue
		}
		dated++
		before := day.AddDate(0, 0, -1)
		if s.RetiredAt(before) || !s.RetiredAt(day) {
			t.Errorf("%s (status %s, retiring %s): retired the day before %v, on the day %v", s.Name, s.Lifecycle.Status, s.Lifecycle.RetirementDate, s.RetiredAt(before), s.RetiredAt(day))
		}
		if got := s.StatusAt(before); got == StatusRetired || (s.Lifecycle.Status == StatusRetired && got != StatusRetiring) {
			t.Errorf("%s (status %s): status %q the day before its retirement %s", s.Name, s.Lifecycle.Status, got, s.Lifecycle.RetirementDate)
		}
	}
	if dated == 0 {
		t.Fatal("no size with a retirement date")
	}
	// A retired status without a date: retired on every day.
	undated := &SKU{Lifecycle: Lifecycle{Status: StatusRetired}}
	if !undated.RetiredAt(date(t, "2000-01-01")) || undated.StatusAt(date(t, "2000-01-01")) != StatusRetired {
		t.Error("a retired size without a date should be retired on every day")
	}
}

func TestUTCDayAndHorizon(t *testing.T) {
	// 01:00 at +05:00 is still 29 September in UTC.
	at := time.Date(2026, 9, 30, 1, 0, 0, 0, time.FixedZone("", 5*3600))
	if got := UTCDay(at); !got.Equal(date(t, "2026-09-29")) || got.Location() != time.UTC {
		t.Errorf("UTCDay(%v) = %v", at, got)
	}
	if got := RetirementHorizon(time.Date(2026, 8, 31, 23, 0, 0, 0, time.UTC), 1); !got.Equal(date(t, "2026-10-01")) {
		t.Errorf("RetirementHorizon(2026-08-31T23:00, 1) = %v, want 2026-10-01", got)
	}
	if got := RetirementHorizon(date(t, "2026-11-22"), 0); !got.Equal(date(t, "2026-11-22")) {
		t.Errorf("RetirementHorizon(2026-11-22, 0) = %v", got)
	}
}

func TestReplacementSentence(t *testing.T) {
	c := mustDefault(t)
	asOf := date(t, "2026-11-22")
	for _, tc := range []struct {
		sku  *SKU
		want string
	}{
		// Retired, with a replacement size.
		{mustLookup(t, c, "Standard_NC24rs_v3"), "Move to Standard_NC80adis_H100_v5."},
		// Retiring, its date past at asOf.
		{mustLookup(t, c, "Standard_NV12s_v3"), "Move to Standard_NV12ads_A10_v5."},
		{&SKU{Lifecycle: Lifecycle{Status: StatusRetiring, RetirementDate: "2027-05-31", ReplacementSizes: []string{"Standard_A", "Standard_B"}}},
			"Plan the move to Standard_A or Standard_B."},
		{&SKU{Lifecycle: Lifecycle{Status: StatusRetiring, RetirementDate: "2027-05-31", ReplacementSeries: []string{"HBv4", "HX"}}},
			"Plan the move to the HBv4 or HX series."},
		{&SKU{Lifecycle: Lifecycle{Status: StatusRetired}}, "Move to a newer size."},
	} {
		if got := tc.sku.ReplacementSentence(asOf); got != tc.want {
			t.Errorf("%s: ReplacementSentence = %q, want %q", tc.sku.Name, got, tc.want)
		}
	}
}
