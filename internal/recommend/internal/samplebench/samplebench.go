// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package samplebench holds the published training runs of vision and
// diffusion models that the samples model (perfmodel.SampleWork with the
// catalog's training_mfu_by_kind) is checked against, and predicts each on
// the Azure size with the run's GPU: sample_training_runs.csv, listed with
// the rows the constants are fitted to before any was fitted (README.md).
//
// It writes the calibration table the ranking guide shows; the package's
// test judges the same predictions and refits the constants from the
// fitted rows.
package samplebench

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

//go:embed sample_training_runs.csv
var runs []byte

// Sizes is the Azure size with each row's GPU: the size a team would
// train on, with NVLink between its GPUs where the GPU has it.
var Sizes = map[string]string{
	"v100-sxm2-32gb": "Standard_ND40rs_v2",
	"a100-sxm-80gb":  "Standard_ND96amsr_A100_v4",
	"a100-pcie-80gb": "Standard_NC96ads_A100_v4",
	"h100-sxm-80gb":  "Standard_ND96isr_H100_v5",
	"h200-141gb":     "Standard_ND96isr_H200_v5",
}

// Row is one published run.
type Row struct {
	ID, Model, Kind, GPU string
	GPUs                 int64
	Precision            string
	// Forward and Frozen are one sample's GFLOPs: the trained network's
	// forward pass and the frozen encoders' the run computes online.
	Forward, Frozen float64
	Published       float64 // samples per second of all the run's GPUs
	Fit             bool    // a row the constants are fitted to
	Source, Note    string
}

// Rows reads sample_training_runs.csv.
func Rows() ([]Row, error) {
	recs, err := csv.NewReader(bytes.NewReader(runs)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("sample_training_runs.csv has no rows")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	out := make([]Row, 0, len(recs)-1)
	for _, r := range recs[1:] {
		num := func(name string) float64 {
			v, perr := strconv.ParseFloat(r[col[name]], 64)
			if perr != nil && err == nil {
				err = fmt.Errorf("%s: %s %q: %w", r[col["id"]], name, r[col[name]], perr)
			}
			return v
		}
		out = append(out, Row{
			ID: r[col["id"]], Model: r[col["model"]], Kind: r[col["kind"]], GPU: r[col["gpu"]],
			GPUs: int64(num("gpus")), Precision: r[col["precision"]],
			Forward: num("forward_gflops"), Frozen: num("frozen_gflops"), Published: num("samples_per_second"),
			Fit: r[col["fit"]] == "yes", Source: r[col["source"]], Note: r[col["note"]],
		})
	}
	return out, err
}

// Prediction is a row on its Azure size: the samples per second the
// model predicts for the run's GPUs, its ratio to the published figure,
// and the MFU the published figure implies.
type Prediction struct {
	Row
	Size                  string
	Predicted, Ratio, MFU float64
	Architecture          string // the GPU's, which groups the fitted figures
}

// Predict times every row with the training model on its Azure size: the
// rate of the VMs the run's GPUs fill, per GPU, times the run's GPUs.
func Predict(cat *catalog.Catalog, rows []Row) ([]Prediction, error) {
	out := make([]Prediction, 0, len(rows))
	for _, r := range rows {
		s, ok := cat.Lookup(Sizes[r.GPU])
		if !ok {
			return nil, fmt.Errorf("%s: no Azure size for GPU %s", r.ID, r.GPU)
		}
		h := perfmodel.HardwareOf(s)
		peak := h.PeakTFLOPS(r.Precision)
		if peak <= 0 || h.GPUCount < 1 {
			return nil, fmt.Errorf("%s: %s has no %s figure", r.ID, s.Name, r.Precision)
		}
		w := perfmodel.SampleWork(r.Kind, perfmodel.MethodFull, r.Forward, r.Frozen, 1)
		w.ComputePrec = r.Precision
		vms := int64(math.Ceil(float64(r.GPUs) / h.GPUCount))
		perGPU := w.Rate(&h, vms) / (float64(vms) * h.GPUCount)
		p := Prediction{Row: r, Size: s.Name, Architecture: s.GPU.Architecture}
		p.Predicted = perGPU * float64(r.GPUs) / (w.PerSample * 1e9)
		p.Ratio = p.Predicted / r.Published
		p.MFU = r.Published * w.PerSample * 1e9 / (float64(r.GPUs) * peak * 1e12)
		out = append(out, p)
	}
	return out, nil
}

// Fitted is the median MFU of the fitted rows per kind and GPU
// architecture ("vision/Ampere"), and per kind ("vision"), each rounded to
// two places: the catalog's training_mfu_by_kind and SampleKindMFU.
func Fitted(preds []Prediction) map[string]float64 {
	groups := map[string][]float64{}
	for _, p := range preds {
		if p.Fit {
			groups[p.Kind+"/"+p.Architecture] = append(groups[p.Kind+"/"+p.Architecture], p.MFU)
			groups[p.Kind] = append(groups[p.Kind], p.MFU)
		}
	}
	out := map[string]float64{}
	for k, v := range groups {
		out[k] = math.Round(median(v)*100) / 100
	}
	return out
}

// MedianError is the median of |predicted ÷ published − 1| over preds.
func MedianError(preds []Prediction) float64 {
	errs := make([]float64, 0, len(preds))
	for _, p := range preds {
		errs = append(errs, math.Abs(p.Ratio-1))
	}
	return median(errs)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Table is the guide's calibration table: every row with its prediction,
// then the median errors.
func Table(preds []Prediction) string {
	var b strings.Builder
	b.WriteString("| Run | Model | GPUs | Precision | Published samples/s | Predicted | Ratio | Implied MFU | |\n|---|---|---|---|---|---|---|---|---|\n")
	var fit, held []Prediction
	for _, p := range preds {
		use := "predicted"
		if p.Fit {
			use, fit = "fitted", append(fit, p)
		} else {
			held = append(held, p)
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %d × %s (`%s`) | %s | %s | %s | %.2f | %.0f%% | %s |\n",
			p.ID, p.Model, p.GPUs, p.GPU, p.Size, p.Precision, catalog.GroupInt(p.Published),
			catalog.GroupInt(p.Predicted), p.Ratio, p.MFU*100, use)
	}
	fmt.Fprintf(&b, "\nMedian absolute error: %.0f%% over all %d rows, %.0f%% over the %d fitted, %.0f%% over the %d predicted.",
		MedianError(preds)*100, len(preds), MedianError(fit)*100, len(fit), MedianError(held)*100, len(held))
	return b.String()
}
