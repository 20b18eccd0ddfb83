// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package servingbench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// ratios are pairs of rows measured the same way on two GPUs (same
// engine, round and recipe); the step model reproduces their ratio within
// 20%.
var ratios = [][2]string{
	{"l2-h200-nv-off-v41", "l2-h100-dgx-off"},            // H200 / H100, MLPerf v4.1 Offline
	{"trt-h200-mx-tp2-1k1k", "trt-h100-mx-tp2-1k1k"},     // H200 / H100, TensorRT-LLM v0.17
	{"trt-h200-l405-tp8-1k1k", "trt-h100-l405-tp8-1k1k"}, // H200 / H100, TensorRT-LLM v1.0
	{"az-ndh200-l70-tp8-1k1k", "az-ndh100-l70-tp8-1k1k"}, // H200 / H100, Azure's guide
	{"l2-mi300x-amd-off-v41", "l2-h100-dgx-off"},         // MI300X / H100, MLPerf v4.1 Offline
}

// predictions are the engine's answers for every row on the embedded
// catalog, as the guide's table shows them.
func predictions(t *testing.T) ([]Row, []Prediction, []Row) {
	t.Helper()
	eng, err := recommend.NewEngine(catalogtest.Embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows()
	if err != nil {
		t.Fatal(err)
	}
	preds, skipped, err := Predict(eng, rows)
	if err != nil {
		t.Fatal(err)
	}
	return rows, preds, skipped
}

// The step model predicts the published serving measurements: each row
// asked for as a user would (the row's model by name and precision, its
// prompt and output tokens, 256 concurrent requests per GPU for offline
// and fixed-length runs and, for server runs, the requests in flight by
// Little's law, the Azure size with the row's GPU in prefer), per-GPU
// throughput = tokens_per_second ÷ total_gpus. Median absolute error at
// most 25%, every row within 2× but the listed outliers, and the ratios
// of rows measured alike on two GPUs within 20%.
func TestServingPublishedMeasurements(t *testing.T) {
	rows, preds, skipped := predictions(t)
	byID := map[string]Prediction{}
	for _, p := range preds {
		byID[p.ID] = p
		within := p.Predicted <= 2*p.Published && p.Predicted >= p.Published/2
		t.Logf("%-28s %-16s predicted %8.0f published %8.0f error %+5.0f%%  TTFT %7.1f/%-7s TPOT %6.1f/%-6s (%d × %s, %d VMs, tp %d)",
			p.ID, p.GPU, p.Predicted, p.Published, p.RelativeError()*100, p.PredTTFT, msOrDash(p.TTFT), p.PredTPOT, msOrDash(p.TPOT), p.Replicas, p.Size(), p.Nodes, p.TensorParallel)
		why, listed := Outliers[p.ID]
		switch {
		case !within && !listed:
			t.Errorf("%s: predicted %.0f tokens/s per GPU against %.0f published, outside 2× and not listed", p.ID, p.Predicted, p.Published)
		case within && listed:
			t.Errorf("%s: listed as an outlier (%s) but within 2×: predicted %.0f against %.0f", p.ID, why, p.Predicted, p.Published)
		}
	}
	median := MedianAbsError(preds)
	t.Logf("%d rows predicted, %d without an Azure size; median absolute error %.1f%%", len(preds), len(skipped), median*100)
	if median > 0.25 {
		t.Errorf("median absolute error %.1f%%, want at most 25%%", median*100)
	}
	if len(preds) < len(rows)*3/4 {
		t.Errorf("%d of %d rows predicted", len(preds), len(rows))
	}
	for _, pair := range ratios {
		a, okA := byID[pair[0]]
		b, okB := byID[pair[1]]
		if !okA || !okB {
			t.Fatalf("ratio %s / %s: a row is missing", pair[0], pair[1])
		}
		pred, pub := a.Predicted/b.Predicted, a.Published/b.Published
		t.Logf("%s / %s: predicted %.2f, published %.2f", pair[0], pair[1], pred, pub)
		if r := pred / pub; r < 0.8 || r > 1.2 {
			t.Errorf("%s / %s: predicted ratio %.2f against %.2f published", pair[0], pair[1], pred, pub)
		}
	}
}

func msOrDash(v float64) string {
	if v == 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func TestServingRowsRead(t *testing.T) {
	rows, err := Rows()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 69 {
		t.Errorf("%d rows, want the 69 of serving_benchmarks.csv", len(rows))
	}
	for _, r := range rows {
		if r.Published <= 0 || r.Request.ConcurrentRequests == nil || *r.Request.ConcurrentRequests < 1 {
			t.Errorf("%s: published %v tokens/s per GPU, concurrent requests %v", r.ID, r.Published, r.Request.ConcurrentRequests)
		}
	}
}

// A number that does not parse is an error naming the row and the column,
// not a silent zero; an unknown model is an error too.
func TestReadRowRejectsBadInput(t *testing.T) {
	col := map[string]int{"id": 0, "model": 1, "gpu": 2, "precision": 3, "gpus": 4, "output_tokens_per_s_per_gpu": 5,
		"ttft_ms": 6, "tpot_ms": 7, "input_tokens": 8, "output_tokens": 9, "output_tokens_per_s_total": 10, "scenario": 11}
	for _, tc := range []struct {
		rec  []string
		want string
	}{
		{[]string{"r1", "Llama-3.1-8B", "h100-sxm-80gb", "fp8", "1", "12x", "", "", "1024", "1024", "100", "offline"}, "r1: output_tokens_per_s_per_gpu not a number"},
		{[]string{"r2", "Llama-9-1T", "h100-sxm-80gb", "fp8", "1", "100", "", "", "1024", "1024", "100", "offline"}, `r2: no model id for "Llama-9-1T"`},
	} {
		_, err := readRow(tc.rec, col)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.rec, err, tc.want)
		}
	}
}

// Every row the table shows is a prediction of the test above, and the
// table states its median: the guide's figures are the test's.
func TestTableShowsEveryPrediction(t *testing.T) {
	_, preds, skipped := predictions(t)
	table := Table(preds, skipped)
	for _, p := range preds {
		if !strings.Contains(table, "| `"+p.ID+"` |") {
			t.Errorf("the table has no row %s", p.ID)
		}
	}
	for _, c := range Constants() {
		if !strings.Contains(table, "`"+c.Name+"` = ") {
			t.Errorf("the table does not name %s", c.Name)
		}
	}
	if want := strconv.FormatFloat(MedianAbsError(preds)*100, 'f', 1, 64) + "%"; !strings.Contains(table, want) {
		t.Errorf("the table does not state the median absolute error %s", want)
	}
}
