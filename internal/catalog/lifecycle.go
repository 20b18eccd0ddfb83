// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"strings"
	"time"
)

// RetirementWarningMonths is the retirement warning horizon: a size whose
// announced retirement date is within this many calendar months of the
// as-of date (see RetiresWithin) is reported as retiring, by hpcsku_sku's
// warning and by the ranking's warnings and score penalty.
const RetirementWarningMonths = 24

// UTCDay is midnight UTC of t's date in UTC: the day every lifecycle
// judgement is made on.
func UTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// RetirementHorizon is the last day that is within months calendar months
// of asOf: asOf's day (UTCDay) plus months by time.AddDate, which keeps the
// day of the month and rolls a day the target month lacks over into the
// next month (31 August plus 1 month is 1 October). A retirement date on or
// before it is within the horizon.
func RetirementHorizon(asOf time.Time, months int) time.Time {
	return UTCDay(asOf).AddDate(0, months, 0)
}

// RetirementTime returns the retirement date, if one is announced.
func (s *SKU) RetirementTime() (time.Time, bool) {
	if s.Lifecycle.RetirementDate == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(DateLayout, s.Lifecycle.RetirementDate)
	return t, err == nil
}

// RetiredAt reports whether the size is retired on the given day: its
// announced retirement date has come. The date decides, not the catalog's
// status: the catalog records status retired for sizes whose date had
// passed by its data date, none retired ahead of its date (decision D83),
// so on a day before the date the size still runs. (Validation refuses
// status retired without a date, in the embedded catalog and a
// catalog_file alike, so every retired size has one.)
func (s *SKU) RetiredAt(asOf time.Time) bool {
	t, ok := s.RetirementTime()
	return s.RetiredOn(t, ok, asOf)
}

// RetiredOn is RetiredAt with the retirement date already parsed
// (RetirementTime's retire and dated), for callers that parse it once.
func (s *SKU) RetiredOn(retire time.Time, dated bool, asOf time.Time) bool {
	if !dated {
		return s.Lifecycle.Status == StatusRetired
	}
	return !UTCDay(asOf).Before(retire)
}

// RetiresWithin reports whether the size is retired at asOf or its announced
// retirement date is on or before RetirementHorizon(asOf, months). With
// months = 0 it is RetiredAt.
func (s *SKU) RetiresWithin(asOf time.Time, months int) bool {
	if s.RetiredAt(asOf) {
		return true
	}
	t, ok := s.RetirementTime()
	return ok && !t.After(RetirementHorizon(asOf, months))
}

// MonthsBeforeRetirement is the most whole calendar months after asOf
// within which the size does not retire: the largest m for which
// RetiresWithin(asOf, m) is false; -1 when it is retired at asOf, and
// MaxInt when no retirement is announced.
func (s *SKU) MonthsBeforeRetirement(asOf time.Time) int {
	t, ok := s.RetirementTime()
	switch {
	case !ok:
		return math.MaxInt
	case s.RetiredAt(asOf):
		return -1
	}
	m := 0
	for RetirementHorizon(asOf, m+1).Before(t) {
		m++
	}
	return m
}

// DaysUntilRetirement returns the whole days from asOf to the retirement date
// (negative once past), and false when no retirement is announced.
func (s *SKU) DaysUntilRetirement(asOf time.Time) (int64, bool) {
	t, ok := s.RetirementTime()
	if !ok {
		return 0, false
	}
	return int64(t.Sub(UTCDay(asOf)).Hours() / 24), true
}

// DeployableIn reports whether VMs of the size can be created in region on
// the day asOf: the region offers it (AvailableIn) and it is not retired
// (RetiredAt), since Azure creates no VMs of a retired size.
func (s *SKU) DeployableIn(region string, asOf time.Time) bool {
	return !s.RetiredAt(asOf) && s.AvailableIn(region)
}

// DeployableRegions lists the regions where VMs of the size can be created
// on the day asOf (see DeployableIn), sorted: none once it is retired.
func (s *SKU) DeployableRegions(asOf time.Time) []string {
	if s.RetiredAt(asOf) {
		return nil
	}
	return s.AvailableRegions()
}

// StatusAt is the lifecycle status on the given day: "retired" once the
// size is retired (RetiredAt), "retiring" before the date of a size the
// catalog records as retired, the catalog's status otherwise.
func (s *SKU) StatusAt(asOf time.Time) string {
	switch {
	case s.RetiredAt(asOf):
		return StatusRetired
	case s.Lifecycle.Status == StatusRetired:
		return StatusRetiring
	}
	return s.Lifecycle.Status
}

// Replacement names what to move the size to, for sentences such as "Plan
// the move to ...": its replacement sizes ("Standard_A or Standard_B"),
// else its replacement series ("the A or B series"), else "a newer size".
func (s *SKU) Replacement() string {
	switch {
	case len(s.Lifecycle.ReplacementSizes) > 0:
		return strings.Join(s.Lifecycle.ReplacementSizes, " or ")
	case len(s.Lifecycle.ReplacementSeries) > 0:
		return "the " + strings.Join(s.Lifecycle.ReplacementSeries, " or ") + " series"
	}
	return "a newer size"
}

// ReplacementSentence is the sentence that tells to move off the size at
// asOf: "Move to ..." once it is retired, "Plan the move to ..." before.
func (s *SKU) ReplacementSentence(asOf time.Time) string {
	if s.RetiredAt(asOf) {
		return "Move to " + s.Replacement() + "."
	}
	return "Plan the move to " + s.Replacement() + "."
}
