// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"strings"
	"testing"
)

// Expected figures: parameters × bytes / 2^30, rounded to 0.01 GiB.
func TestEstimateGPUMemoryGiB(t *testing.T) {
	tests := []struct {
		name                      string
		params                    float64
		precision, workload       string
		gib, bpp, state           float64
		weights, grads, master    float64
		optimizer, act, kv, extra float64
	}{
		// 70e9 × (2 + 2 + 4 + 8) = 1043.08 GiB of states, + 50%.
		{"training 70B bf16", 70, "bf16", "training", 1564.62, 2, 16, 130.39, 130.39, 260.77, 521.54, 521.54, 0, 0.5},
		// Full fine-tuning: the same states, + 25%.
		{"fine_tuning 70B default precision", 70, "", "fine_tuning", 1303.85, 2, 16, 130.39, 130.39, 260.77, 521.54, 260.77, 0, 0.25},
		// fp32: no master copy, 4 + 4 + 8 = 16.
		{"training 7B fp32", 7, "fp32", "training", 156.46, 4, 16, 26.08, 26.08, 0, 52.15, 52.15, 0, 0.5},
		{"training 7B tf32", 7, "tf32", "training", 156.46, 4, 16, 26.08, 26.08, 0, 52.15, 52.15, 0, 0.5},
		// fp8: bf16 gradients, 1 + 2 + 4 + 8 = 15.
		{"training 7B fp8", 7, "fp8", "training", 146.68, 1, 15, 6.52, 13.04, 26.08, 52.15, 48.89, 0, 0.5},
		// int4: 0.5 + 2 + 4 + 8 = 14.5.
		{"training 7B int4", 7, "int4", "training", 141.79, 0.5, 14.5, 3.26, 13.04, 26.08, 52.15, 47.26, 0, 0.5},
		// Inference: weights + 20%.
		{"inference 1.3B bf16", 1.3, "bf16", "inference", 2.91, 2, 2, 2.42, 0, 0, 0, 0, 0.48, 0.2},
		{"inference 70B fp16", 70, "fp16", "inference", 156.46, 2, 2, 130.39, 0, 0, 0, 0, 26.08, 0.2},
		{"inference 7B int4", 7, "int4", "inference", 3.91, 0.5, 0.5, 3.26, 0, 0, 0, 0, 0.65, 0.2},
		{"inference 7B int8", 7, "int8", "inference", 7.82, 1, 1, 6.52, 0, 0, 0, 0, 1.3, 0.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := EstimateGPUMemoryGiB(tt.params, tt.precision, tt.workload)
			if err != nil {
				t.Fatal(err)
			}
			got := []float64{e.GiB, e.BytesPerParameter, e.StateBytesPerParameter, e.WeightsGiB, e.GradientsGiB, e.MasterWeightsGiB, e.OptimizerGiB, e.ActivationGiB, e.KVCacheGiB, e.HeadroomFraction}
			want := []float64{tt.gib, tt.bpp, tt.state, tt.weights, tt.grads, tt.master, tt.optimizer, tt.act, tt.kv, tt.extra}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("field %d: got %v, want %v (%+v)", i, got[i], want[i], e)
				}
			}
			if e.Formula == "" || !strings.Contains(e.Formula, trimFloat(tt.gib)+" GiB") {
				t.Errorf("formula %q does not end with the total", e.Formula)
			}
		})
	}
}

func TestEstimateFormula(t *testing.T) {
	e, _ := EstimateGPUMemoryGiB(70, "bf16", "training")
	want := "70B parameters × 16 bytes (bf16 weights 2 + gradients 2 + fp32 master weights 4 + Adam moments 8) = 1043.08 GiB of model states, + 50% activation headroom = 1564.62 GiB"
	if e.Formula != want {
		t.Errorf("formula\n got  %q\n want %q", e.Formula, want)
	}
	e, _ = EstimateGPUMemoryGiB(1.3, "bf16", "inference")
	want = "1.3B parameters × 2 bytes (bf16 weights) = 2.42 GiB of weights, + 20% KV-cache and activation headroom = 2.91 GiB"
	if e.Formula != want {
		t.Errorf("formula\n got  %q\n want %q", e.Formula, want)
	}
}

func TestEstimateErrors(t *testing.T) {
	for _, tt := range []struct {
		params              float64
		precision, workload string
		msg                 string
	}{
		{0, "bf16", "training", "greater than 0"},
		{-1, "bf16", "training", "greater than 0"},
		{math.NaN(), "bf16", "training", "greater than 0"},
		{math.Inf(1), "bf16", "training", "greater than 0"},
		{100001, "bf16", "training", "at most 100000"},
		{7, "fp64", "training", `precision "fp64" is not one of fp32, tf32, bf16, fp16, fp8, int8, int4`},
		{7, "bf16", "hpc", `covers the training, fine_tuning and inference workloads, not "hpc"`},
		{7, "bf16", "", `not ""`},
	} {
		_, err := EstimateGPUMemoryGiB(tt.params, tt.precision, tt.workload)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("(%v, %q, %q): error %v, want %q", tt.params, tt.precision, tt.workload, err, tt.msg)
		}
	}
}

// Every precision has a byte size, and training never needs less than
// inference.
func TestMemoryModelTables(t *testing.T) {
	for _, p := range Precisions() {
		if _, ok := bytesPerParameter[p]; !ok {
			t.Errorf("no bytes per parameter for %s", p)
		}
		tr, _ := EstimateGPUMemoryGiB(13, p, WorkloadTraining)
		ft, _ := EstimateGPUMemoryGiB(13, p, WorkloadFineTuning)
		inf, _ := EstimateGPUMemoryGiB(13, p, WorkloadInference)
		if !(tr.GiB > ft.GiB && ft.GiB > inf.GiB) {
			t.Errorf("%s: training %v, fine-tuning %v, inference %v", p, tr.GiB, ft.GiB, inf.GiB)
		}
	}
	if len(bytesPerParameter) != len(precisions) {
		t.Errorf("bytesPerParameter has %d entries, Precisions %d", len(bytesPerParameter), len(precisions))
	}
}
