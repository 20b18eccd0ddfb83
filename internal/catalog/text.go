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

// Plural counts k things: "1 core", "36 cores", "0.25 GPUs". A whole k is
// written without decimals, another rounded to 0.01.
func Plural[T ~int | ~int64 | ~float64](k T, one, many string) string {
	switch f := float64(k); {
	case f == 1:
		return "1 " + one
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatInt(int64(f), 10) + " " + many
	default:
		return strconv.FormatFloat(Round2(f), 'f', -1, 64) + " " + many
	}
}
