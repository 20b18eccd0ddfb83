// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package servingbench

import (
	"flag"
	"fmt"
	"testing"
)

var calibrate = flag.Bool("calibrate", false, "print every calibration measure on one line")

// TestCalibrationReport prints the measures the step model's constants
// are fitted to, on one line, with -calibrate.
func TestCalibrationReport(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	preds, points, _ := predictions(t)
	through, rates := Of(preds, Throughput), Of(preds, Rate)
	fmt.Printf("CAL through=%.3f within=%.2f rateTPOT=%.3f rateTTFT=%.2f sweepTPS=%.3f sweepTPOT=%.3f\n",
		MedianAbsError(preds), Within(through, 1.5), Median(rates, AbsTPOTError), Median(rates, TTFTRatio), Median(points, AbsError), Median(points, AbsTPOTError))
}

var rows = flag.Bool("rows", false, "print the reference table")

// TestCalibrationRows prints every row's prediction and error, with -rows.
func TestCalibrationRows(t *testing.T) {
	if !*rows {
		t.Skip("run with -rows")
	}
	preds, points, skipped := predictions(t)
	fmt.Println(Table(preds, points, skipped))
}
