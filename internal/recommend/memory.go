// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// EstimateGPUMemoryGiB estimates the accelerator memory a model needs for a
// workload (training, fine_tuning or inference). precision "" means bf16.
//
// Training and full fine-tuning hold, per parameter: the weights at the
// precision, gradients at that precision but at least 16 bits, an fp32 master
// copy when the weights are narrower than 32 bits, and Adam's two fp32
// moments; plus activation headroom (TrainingActivationHeadroom,
// FineTuningActivationHeadroom). Inference holds the weights plus
// InferenceKVCacheHeadroom.
func EstimateGPUMemoryGiB(parametersBillion float64, precision, workload string) (MemoryEstimate, error) {
	if math.IsNaN(parametersBillion) || math.IsInf(parametersBillion, 0) || parametersBillion <= 0 {
		return MemoryEstimate{}, fmt.Errorf("parameters_billion must be a number greater than 0, got %v", parametersBillion)
	}
	if parametersBillion > MaxParametersBillion {
		return MemoryEstimate{}, fmt.Errorf("parameters_billion must be at most %d, got %v", MaxParametersBillion, parametersBillion)
	}
	if precision == "" {
		precision = DefaultPrecision
	}
	bpp, ok := bytesPerParameter[precision]
	if !ok {
		return MemoryEstimate{}, fmt.Errorf("precision %q is not one of %s", precision, strings.Join(precisions, ", "))
	}
	params := parametersBillion * 1e9
	gib := func(bytesPerParam float64) float64 { return params * bytesPerParam / GiB }
	e := MemoryEstimate{ParametersBillion: parametersBillion, Precision: precision, Workload: workload, BytesPerParameter: bpp}
	pb := trimFloat(parametersBillion)
	switch workload {
	case WorkloadTraining, WorkloadFineTuning:
		grad := math.Max(bpp, MinGradientBytesPerParameter)
		master := 0.0
		if bpp < 4 {
			master = MasterWeightBytesPerParameter
		}
		state := bpp + grad + master + AdamStateBytesPerParameter
		headroom := TrainingActivationHeadroom
		if workload == WorkloadFineTuning {
			headroom = FineTuningActivationHeadroom
		}
		states := gib(state)
		e.StateBytesPerParameter = state
		e.WeightsGiB = round2(gib(bpp))
		e.GradientsGiB = round2(gib(grad))
		e.MasterWeightsGiB = round2(gib(master))
		e.OptimizerGiB = round2(gib(AdamStateBytesPerParameter))
		e.ActivationGiB = round2(states * headroom)
		e.HeadroomFraction = headroom
		e.GiB = round2(states * (1 + headroom))
		parts := fmt.Sprintf("%s weights %s + gradients %s", precision, trimFloat(bpp), trimFloat(grad))
		if master > 0 {
			parts += " + fp32 master weights " + trimFloat(master)
		}
		parts += " + Adam moments " + trimFloat(AdamStateBytesPerParameter)
		e.Formula = fmt.Sprintf("%sB parameters × %s bytes (%s) = %s GiB of model states, + %s%% activation headroom = %s GiB",
			pb, trimFloat(state), parts, trimFloat(round2(states)), trimFloat(headroom*100), trimFloat(e.GiB))
	case WorkloadInference:
		w := gib(bpp)
		e.StateBytesPerParameter = bpp
		e.WeightsGiB = round2(w)
		e.KVCacheGiB = round2(w * InferenceKVCacheHeadroom)
		e.HeadroomFraction = InferenceKVCacheHeadroom
		e.GiB = round2(w * (1 + InferenceKVCacheHeadroom))
		e.Formula = fmt.Sprintf("%sB parameters × %s bytes (%s weights) = %s GiB of weights, + %s%% KV-cache and activation headroom = %s GiB",
			pb, trimFloat(bpp), precision, trimFloat(e.WeightsGiB), trimFloat(InferenceKVCacheHeadroom*100), trimFloat(e.GiB))
	default:
		return MemoryEstimate{}, fmt.Errorf("the memory model covers the training, fine_tuning and inference workloads, not %q", workload)
	}
	return e, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// trimFloat formats a number with up to two decimals and no trailing zeros.
func trimFloat(f float64) string {
	return strconv.FormatFloat(round2(f), 'f', -1, 64)
}
