// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// EstimateGPUMemoryGiB estimates the accelerator memory a language model of
// the given size needs for a workload (training, fine_tuning or inference),
// without architecture facts and with the defaults of every other input:
// the fine-tuning method follows the precision (qlora for int4, lora for
// int8, else full), inference serves DefaultConcurrentRequests sequences of
// DefaultContextTokens tokens. precision "" means bf16. Engine.EstimateMemory
// takes a model name and the other inputs.
func EstimateGPUMemoryGiB(parametersBillion float64, precision, workload string) (MemoryEstimate, error) {
	if f := RangeParametersBillion.Check(parametersBillion, "parameters_billion"); f != nil {
		return MemoryEstimate{}, errors.New(f.Detail)
	}
	if precision == "" {
		precision = DefaultPrecision
	}
	bpp, ok := perfmodel.BytesPerParameter(precision)
	if !ok {
		return MemoryEstimate{}, fmt.Errorf("precision %q is not one of %s", precision, strings.Join(precisions, ", "))
	}
	mi := perfmodel.MemoryInput{Params: parametersBillion, Active: parametersBillion, Precision: precision, BPP: bpp, Workload: workload, Kind: catalog.ModelKindGenerative}
	switch workload {
	case WorkloadTraining:
		if perfmodel.Quantised(precision) {
			return MemoryEstimate{}, fmt.Errorf("training updates every weight and cannot run in %s; use bf16, fp16, fp8, tf32 or fp32, or fine_tuning (LoRA or QLoRA on the quantised model)", precision)
		}
		mi.Method = MethodFull
	case WorkloadFineTuning:
		mi.Method = defaultMethod(precision)
	case WorkloadInference:
	default:
		return MemoryEstimate{}, fmt.Errorf("the memory model covers the training, fine_tuning and inference workloads, not %q", workload)
	}
	mi.Context, mi.Seqs, mi.Batch = DefaultContextTokens, DefaultConcurrentRequests, defaultTrainingBatchSize[mi.Kind]
	return perfmodel.EstimateMemory(&mi), nil
}

// defaultMethod is the fine-tuning method of a precision: qlora for int4,
// lora (on a frozen 8-bit or fp4 base) for int8 and fp4, full otherwise.
func defaultMethod(precision string) string {
	switch precision {
	case PrecisionINT4:
		return MethodQLoRA
	case PrecisionINT8, PrecisionFP4:
		return MethodLoRA
	}
	return MethodFull
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// trimFloat formats a number with up to two decimals and no trailing zeros.
func trimFloat(f float64) string { return catalog.TrimFloat(f) }

// groupInt formats a number rounded to a whole one with thousands
// separators: 131,072.
func groupInt(f float64) string { return catalog.GroupInt(f) }
