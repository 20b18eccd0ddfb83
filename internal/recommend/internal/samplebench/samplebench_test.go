// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package samplebench

import (
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

func predictions(t *testing.T) (*catalog.Catalog, []Prediction) {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows()
	if err != nil {
		t.Fatal(err)
	}
	preds, err := Predict(cat, rows)
	if err != nil {
		t.Fatal(err)
	}
	return cat, preds
}

// The samples model predicts the published runs with a median error of at
// most 30% over every row, at most half of which the constants were fitted
// to, over two model kinds and at least two GPU models; the rows the fit
// never saw are judged on their own too.
func TestPublishedSampleRuns(t *testing.T) {
	_, preds := predictions(t)
	var held []Prediction
	kinds, gpus := map[string]bool{}, map[string]bool{}
	for _, p := range preds {
		kinds[p.Kind], gpus[p.GPU] = true, true
		if !p.Fit {
			held = append(held, p)
		}
		t.Logf("%-40s %-15s %5.2f MFU %4.0f%%", p.ID, p.GPU, p.Ratio, p.MFU*100)
	}
	if len(preds) < 5 || len(kinds) < 2 || len(gpus) < 2 {
		t.Errorf("%d rows, %d kinds, %d GPU models: want at least 5, 2 and 2", len(preds), len(kinds), len(gpus))
	}
	if fitted := len(preds) - len(held); 2*fitted > len(preds) {
		t.Errorf("%d of %d rows are fitted: at most half may be", fitted, len(preds))
	}
	if e := MedianError(preds); e > 0.30 {
		t.Errorf("median absolute error %.0f%% over all rows, want at most 30%%", e*100)
	}
	if e := MedianError(held); e > 0.30 {
		t.Errorf("median absolute error %.0f%% over the rows the fit never saw, want at most 30%%", e*100)
	}
}

// The catalog's figures are what the fitted rows give: each GPU's
// training_mfu_by_kind is the median of its architecture's fitted rows of
// the kind, and SampleKindMFU the median of the kind's fitted rows. A
// figure changed by hand, or a row moved into the fit, fails here.
func TestFiguresComeFromTheFittedRows(t *testing.T) {
	cat, preds := predictions(t)
	fit := Fitted(preds)
	for _, kind := range []string{catalog.ModelKindVision, catalog.ModelKindDiffusion} {
		if got, want := perfmodel.SampleKindMFU[kind], fit[kind]; got != want {
			t.Errorf("SampleKindMFU[%s] = %v, the fitted rows give %v", kind, got, want)
		}
	}
	checked := 0
	for _, id := range cat.GPUModelIDs() {
		g, _ := cat.GPUModel(id)
		p, ok := cat.GPUPerformance(id)
		if !ok {
			continue
		}
		for kind, v := range p.TrainingMFUByKind {
			want, ok := fit[kind+"/"+g.Architecture]
			if !ok {
				t.Errorf("%s: training_mfu_by_kind[%s] = %v, but no fitted row of %s %s", g.ID, kind, v, g.Architecture, kind)
				continue
			}
			if v != want {
				t.Errorf("%s: training_mfu_by_kind[%s] = %v, the fitted %s rows give %v", g.ID, kind, v, g.Architecture, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no GPU has a training_mfu_by_kind figure")
	}
}

// A row of a model in the catalog's table uses the table's forward FLOPs.
func TestRowsUseTheModelTable(t *testing.T) {
	cat, preds := predictions(t)
	for _, p := range preds {
		m, ok := cat.Model(p.Model)
		if !ok {
			continue
		}
		if m.ForwardGFLOPs == nil || *m.ForwardGFLOPs != p.Forward || m.Kind != p.Kind {
			t.Errorf("%s: forward %v GFLOPs of a %s model, the table's %s %v", p.ID, p.Forward, p.Kind, m.Kind, m.ForwardGFLOPs)
		}
	}
}
