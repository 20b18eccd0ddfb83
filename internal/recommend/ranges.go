// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the allowed range of every numeric input, and the one
// message a value outside its range gets. validate checks requests
// against them; the provider's schema and functions build their
// validators from them, so a range and its wording have one home.

import (
	"math"
	"strconv"
	"strings"
)

// NumberRange is the allowed range of a numeric input: greater than Min
// (at least Min when MinInclusive) and, when HasMax, at most Max. A value
// that is not finite is always out of range.
type NumberRange struct {
	Name         string // the input as hpcsku_recommendation names it
	Summary      string // the Title Case heading of the error
	Min, Max     float64
	MinInclusive bool
	HasMax       bool
}

// The numeric inputs' ranges, from the engine's constants.
var (
	RangeParametersBillion       = NumberRange{Name: "parameters_billion", Summary: "Invalid Parameter Count", Max: MaxParametersBillion, HasMax: true}
	RangeActiveParametersBillion = NumberRange{Name: "active_parameters_billion", Summary: "Invalid Active Parameter Count"}
	// RangeActiveParametersTraining is a training estimate's active
	// parameters, which no total bounds.
	RangeActiveParametersTraining = NumberRange{Name: "active_parameters_billion", Summary: "Invalid Parameter Count", Max: MaxParametersBillion, HasMax: true}
	RangeTokensBillion            = NumberRange{Name: "tokens_billion", Summary: "Invalid Token Count", Max: MaxTokensBillion, HasMax: true}
	RangeSamplesMillion           = NumberRange{Name: "samples_million", Summary: "Invalid Sample Count", Max: MaxSamplesMillion, HasMax: true}
	RangeForwardGFLOPs            = NumberRange{Name: "forward_gflops", Summary: "Invalid Forward FLOPs", Max: MaxForwardGFLOPs, HasMax: true}
	RangeDeadlineHours            = NumberRange{Name: "deadline_hours", Summary: "Invalid Deadline", Max: MaxDeadlineHours, HasMax: true}
	RangeTokensPerSecond          = NumberRange{Name: "tokens_per_second", Summary: "Invalid Throughput", Max: MaxTokensPerSecond, HasMax: true}
	RangeRequestsPerSecond        = NumberRange{Name: "requests_per_second", Summary: "Invalid Request Rate", Max: MaxRequestsPerSecond, HasMax: true}
	RangeMinReplicas              = wholeRange("min_replicas", "Invalid Minimum Replicas", 1, MaxNodes)
	RangeMaxTimeToFirstToken      = NumberRange{Name: "max_time_to_first_token_ms", Summary: "Invalid Latency Target", Max: MaxLatencyTargetMs, HasMax: true}
	RangeMaxTimePerOutputToken    = NumberRange{Name: "max_time_per_output_token_ms", Summary: "Invalid Latency Target", Max: MaxLatencyTargetMs, HasMax: true}
	RangeGPUMemoryGiB             = NumberRange{Name: "gpu_memory_gib", Summary: "Invalid GPU Memory"}
	RangeGPUs                     = wholeRange("gpus", "Invalid GPU Count", 1, MaxGPUs)
	RangeNodes                    = wholeRange("nodes", "Invalid Node Count", 1, MaxNodes)
	RangeMaxNodes                 = wholeRange("max_nodes", "Invalid VM Cap", 1, MaxNodes)
	RangeCores                    = wholeRange("cores", "Invalid Core Count", 1, MaxCores)
	RangeMinVCPUs                 = wholeRange("min_vcpus", "Invalid Minimum vCPUs", 1, MaxMinVCPUs)
	RangeContextTokens            = wholeRange("context_tokens", "Invalid Context Length", 1, MaxContextTokens)
	RangeConcurrentRequests       = wholeRange("concurrent_requests", "Invalid Concurrent Requests", 1, MaxConcurrentRequests)
	RangePromptTokens             = wholeRange("prompt_tokens", "Invalid Prompt Length", 1, MaxContextTokens)
	RangeOutputTokens             = wholeRange("output_tokens", "Invalid Output Length", 1, MaxContextTokens)
	RangeTrainingBatchSize        = wholeRange("training_batch_size", "Invalid Training Batch Size", 1, MaxTrainingBatchSize)
	RangeMinMemoryGiB             = NumberRange{Name: "min_memory_gib", Summary: "Invalid Minimum Memory"}
	RangeTotalMemoryGiB           = NumberRange{Name: "total_memory_gib", Summary: "Invalid Total Memory", Max: MaxTotalMemoryGiB, HasMax: true}
	RangeMinLocalDiskGiB          = NumberRange{Name: "min_local_disk_gib", Summary: "Invalid Minimum Local Disk"}
	RangeMaxPricePerHour          = NumberRange{Name: "max_price_per_hour", Summary: "Invalid Maximum Price"}
	RangeMaxTotalPricePerHour     = NumberRange{Name: "max_total_price_per_hour", Summary: "Invalid Maximum Total Price"}
	RangeMinLifetimeMonths        = wholeRange("min_lifetime_months", "Invalid Minimum Lifetime", 0, MaxMinLifetimeMonths)
	RangeMaxResults               = wholeRange("max_results", "Invalid Maximum Results", 1, MaxResultsLimit)
	RangeParallelEfficiency       = NumberRange{Name: "parallel_efficiency", Summary: "Invalid Parallel Efficiency", Max: MaxParallelEfficiency, HasMax: true}
)

func wholeRange(name, summary string, lowest, highest int64) NumberRange {
	return NumberRange{Name: name, Summary: summary, Min: float64(lowest), MinInclusive: true, Max: float64(highest), HasMax: true}
}

// Contains reports whether v is within the range.
func (r NumberRange) Contains(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < r.Min || (v == r.Min && !r.MinInclusive) {
		return false
	}
	return !r.HasMax || v <= r.Max
}

// Bounds describes the range: "greater than 0 and at most 1,000,000".
func (r NumberRange) Bounds() string {
	s := "greater than " + formatBound(r.Min)
	if r.MinInclusive {
		s = "at least " + formatBound(r.Min)
	}
	if r.HasMax {
		s += " and at most " + formatBound(r.Max)
	}
	return s
}

// Message is the one wording of a value out of range, such as
// "tokens_billion must be greater than 0 and at most 1,000,000; got -1.".
func (r NumberRange) Message(got string) string {
	return r.Name + " must be " + r.Bounds() + "; got " + got + "."
}

// At is the range of the input at an attribute path: its messages name the
// whole path ("model.parameters_billion must be ..."), so that an error on
// a nested attribute says which one it is.
func (r NumberRange) At(path ...string) NumberRange {
	if len(path) > 0 {
		r.Name = strings.Join(path, ".")
	}
	return r
}

// Check returns the error for v, or nil when it is within the range; its
// message names the path.
func (r NumberRange) Check(v float64, path ...string) *FieldError {
	if r.Contains(v) {
		return nil
	}
	f := fe(r.Summary, r.At(path...).Message(strconv.FormatFloat(v, 'f', -1, 64)), path...)
	return &f
}

// CheckInt is Check for a whole number.
func (r NumberRange) CheckInt(v int64, path ...string) *FieldError {
	if r.Contains(float64(v)) {
		return nil
	}
	f := fe(r.Summary, r.At(path...).Message(strconv.FormatInt(v, 10)), path...)
	return &f
}

// formatBound writes a bound with thousands separators (1,000,000).
func formatBound(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return groupInt(f)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

var (
	RangeLicenseCostPerCoreHour = NumberRange{Name: "license_cost_per_core_hour", Summary: "Invalid License Cost", Min: 0, MinInclusive: true, Max: MaxLicenseCostPerCoreHour, HasMax: true}
	RangeReferenceNodes         = wholeRange("reference_run.nodes", "Invalid Reference Run", 1, MaxNodes)
	RangeReferenceHours         = NumberRange{Name: "reference_run.hours", Summary: "Invalid Reference Run", Max: MaxDeadlineHours, HasMax: true}
	RangeReferenceCores         = wholeRange("reference_run.cores", "Invalid Reference Run", 1, MaxCores)
)
