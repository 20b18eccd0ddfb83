// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"strconv"
	"strings"
)

// The number formatting every layer shares: the catalog's derived figures,
// the engine's sentences and the provider's outputs round and count alike.

// Round2 rounds to 0.01, as every GiB and price figure is rounded.
func Round2(f float64) float64 { return math.Round(f*100) / 100 }

// QuoteList writes values in double quotes, separated by commas, as error
// messages list the allowed values: "a", "b".
func QuoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// Plural counts k things: "1 core", "36 cores", "4,096 requests", "0.25
// GPUs". A whole k is written without decimals and with thousands
// separators, another as TrimFloat writes it.
func Plural[T ~int | ~int64 | ~float64](k T, one, many string) string {
	switch f := float64(k); {
	case f == 1:
		return "1 " + one
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return GroupDigits(int64(f)) + " " + many
	default:
		return TrimFloat(f) + " " + many
	}
}

// TrimFloat writes a number with up to two decimals and no trailing zeros:
// 0.5, 12, 1.33; one that would round to 0 but is not, with two
// significant digits (0.001, 0.0025), so that a small figure never reads
// as none.
func TrimFloat(f float64) string { return strconv.FormatFloat(RoundFigure(f), 'f', -1, 64) }

// RoundFigure rounds a reported figure to two decimals, or one that would
// round to 0 but is not to two significant digits (0.0017), so that a
// short job's hours or a small cost never reads as none. TrimFloat writes
// figures so rounded.
func RoundFigure(f float64) float64 {
	if a := math.Abs(f); a > 0 && a < 0.005 {
		p := math.Pow(10, -math.Floor(math.Log10(a))+1)
		return math.Round(f*p) / p
	}
	return Round2(f)
}

// GroupInt writes a number rounded to a whole one with thousands
// separators: 131,072.
func GroupInt(f float64) string { return GroupDigits(int64(math.Round(f))) }

// GroupDigits writes n with a comma between groups of three digits
// (1000000 as 1,000,000), as the engine's messages and the provider's
// descriptions write counts.
func GroupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n > -1000 && n < 1000 {
		return s // no separator: the one string FormatInt made
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
