// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the number and text helpers every sentence of the engine
// uses: rounding, grouped digits, money, percentages and lists.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// trimFloat formats a number with up to two decimals and no trailing zeros.
func trimFloat(f float64) string { return catalog.TrimFloat(f) }

// groupInt formats a number rounded to a whole one with thousands
// separators: 131,072.
func groupInt(f float64) string { return catalog.GroupInt(f) }

// loadFigure writes a figure of a load (output tokens per second, the
// requests in a service): whole with thousands separators from 10 on, a
// smaller one with its decimals (0.2, 5.25), so that a light load never
// reads as none.
func loadFigure(f float64) string {
	if f >= 10 {
		return groupInt(f)
	}
	return trimFloat(f)
}

// floorFigure rounds a figure down to what loadFigure writes of it, so
// that a limit it names is never above the figure: whole from 10 on, else
// to 0.01.
func floorFigure(f float64) float64 {
	if f >= 10 {
		return math.Floor(f)
	}
	return math.Floor(f*100) / 100
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// money writes USD with two decimals, or a positive sum below half a cent
// with two significant digits (0.0018), so that it never reads as none.
func money(f float64) string {
	if f > 0 && f < 0.005 {
		return trimFloat(f)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

func percent(f float64) string {
	if f > 0 && f < 0.005 {
		return "less than 1%"
	}
	return itoa(int64(math.Round(f*100))) + "%"
}

func trimPrice(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}

func firstN(s []string, k int) []string {
	if len(s) > k {
		return s[:k]
	}
	return s
}

// sci formats a large number as 1.23e22.
func sci(f float64) string { return strconv.FormatFloat(f, 'e', 3, 64) }

func ptr[T any](v T) *T { return &v }

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// roundSignificant rounds f to digits significant digits (0.1761,
// 12.35, 1,235).
func roundSignificant(f float64, digits int) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(f))))
	return math.Round(f*p) / p
}

// falseFirst orders false before true.
func falseFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func quote(s string) string { return `"` + s + `"` }

// joinAnd joins phrases with commas and "and".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out += ", " + p
	}
	return out + " and " + parts[len(parts)-1]
}

// valueOr is *p, or d when p is nil.
func valueOr[T any](p *T, d T) T {
	if p == nil {
		return d
	}
	return *p
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func ceilDiv(a, b float64) int64 {
	if b <= 0 {
		return math.MaxInt32
	}
	q := math.Ceil(a/b - 1e-9)
	if q > math.MaxInt32 {
		return math.MaxInt32
	}
	return max(int64(q), 1)
}
