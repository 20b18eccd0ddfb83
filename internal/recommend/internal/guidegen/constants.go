// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"fmt"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"math"
	"regexp"
	"strconv"
	"strings"

	r "github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// quote is one place where the guide quotes an exported constant: the text
// around the figure, with %v where the figure stands, and the figure as
// the guide writes it.
type quote struct {
	around, value string
}

// quotes are the constants the guide's prose and tables quote. Each must
// occur in the template at least once; the figure in each occurrence is
// written from the constant.
func quotes() []quote {
	return append(servingQuotes(), []quote{
		{"`MinGradientBytesPerParameter = %v`", g(perfmodel.MinGradientBytesPerParameter)},
		{"`MasterWeightBytesPerParameter = %v`", g(perfmodel.MasterWeightBytesPerParameter)},
		{"`AdamStateBytesPerParameter = %v`", g(perfmodel.AdamStateBytesPerParameter)},
		{"`LoRAAdapterShare = %v`", g(perfmodel.LoRAAdapterShare)},
		{"`LoRAAdapterBytesPerParameter = %v`", g(perfmodel.LoRAAdapterBytesPerParameter)},
		{"`QLoRAAdapterBytesPerParameter = %v`", g(perfmodel.QLoRAAdapterBytesPerParameter)},
		{"`QLoRABaseBytesPerParameter = %v / 8`", g(perfmodel.QLoRABaseBytesPerParameter * 8)},
		{"`CheckpointedActivationBytes = %v`", g(perfmodel.CheckpointedActivationBytes)},
		{"`RecomputedLayerActivationBytes = %v`", g(perfmodel.RecomputedLayerActivationBytes)},
		{"`LogitBytes = %v`", g(perfmodel.LogitBytes)},
		{"%v bytes per parameter per 4,096 tokens (`LoRAActivationBytesPerParameter`)", g(perfmodel.LoRAActivationBytesPerParameter)},
		{"`InferenceWorkspaceFraction = %v`", f2(perfmodel.InferenceWorkspaceFraction)},
		{"`InferenceHeadroom = %v`", f2(perfmodel.InferenceHeadroom)},
		{"`GPUMemoryShare = %v`", g(perfmodel.GPUMemoryShare)},
		{"`ApproxKVBytesPerToken = %v`", g(perfmodel.ApproxKVBytesPerToken)},
		{"`ApproxKVExponent = %v`", g(perfmodel.ApproxKVExponent)},
		{"%v (`KVBytesPerElement`", g(perfmodel.KVBytesPerElement)},
		{"%v for an fp8 model (`KVBytesPerElementFP8`)", g(perfmodel.KVBytesPerElementFP8)},
		{"hidden × %v bytes (`SampleActivationBytes`", g(perfmodel.SampleActivationBytes)},
		{"`InferenceSystemMemoryFactor = %v`", g(r.InferenceSystemMemoryFactor)},
		{"%v (`DefaultContextTokens`)", n(r.DefaultContextTokens)},
		{"%v (`DefaultConcurrentRequests`)", n(r.DefaultConcurrentRequests)},
		{"%v (`MaxContextTokens`)", n(r.MaxContextTokens)},
		{"%v (`MaxConcurrentRequests`)", n(r.MaxConcurrentRequests)},
		{"%v (`MaxTrainingBatchSize`)", n(r.MaxTrainingBatchSize)},
		{"`SizingBandLow = %v`", f2(r.SizingBandLow)},
		{"`SizingBandHigh = %v`", f2(r.SizingBandHigh)},
		{"`SizingFullScore = %v`", g(r.SizingFullScore)},
		{"at most %v VMs (`MaxNodes`", n(r.MaxNodes)},
		{"states one, %v VMs (`MaxNodesRDMA`)", n(r.MaxNodesRDMA)},
		{"| Unused InfiniBand | %v |", g(r.PenaltyUnusedRDMA)},
		{"| Tensor parallelism over PCIe | %v |", g(r.PenaltyTensorParallelPCIe)},
		{"costs %v points (`PenaltyTensorParallelPCIe`)", g(r.PenaltyTensorParallelPCIe)},
		{"| Idle GPUs | %v × (GPUs − 1) ÷ GPUs;", g(r.PenaltyIdleGPUs)},
		{"a service, %v × (GPUs − k) ÷ GPUs |", g(r.PenaltyIdleGPUs)},
		{"loses %v × (GPUs − k) ÷ GPUs", g(r.PenaltyIdleGPUs)},
		{"| Retiring | %v |", g(r.PenaltyRetiring)},
		{"| Preview | %v |", g(r.PenaltyPreview)},
		{"| Unknown target support | %v |", g(r.PenaltyUnknownSupport)},
		{"| Unknown quota | %v |", g(r.QuotaUnknownPenalty)},
		{"| No price | %v |", g(r.PenaltyNoPrice)},
		{"`ChinchillaTokensPerParameter = %v`", g(r.ChinchillaTokensPerParameter)},
		{"`DefaultFineTuningTokensBillion = %v`", g(r.DefaultFineTuningTokensBillion)},
		{"%v (`MaxTokensBillion`)", n(r.MaxTokensBillion)},
		{"%v (`DefaultDeadlineHours`)", n(r.DefaultDeadlineHours)},
		{"%v (`MaxDeadlineHours`, 10 years)", n(r.MaxDeadlineHours)},
		{"%v (`MaxTokensPerSecond`)", n(r.MaxTokensPerSecond)},
		{"| %v (`TrainingFLOPsPerToken`) |", g(perfmodel.TrainingFLOPsPerToken)},
		{"| %v (`LoRAFLOPsPerToken`) |", g(perfmodel.LoRAFLOPsPerToken)},
		{"| %v | `TrainingMFU`:", f2(perfmodel.TrainingMFU)},
		{"| %v | `OtherTrainingMFU`:", f2(perfmodel.OtherTrainingMFU)},
		{"| × %v | `PCIeTrainingFactor` |", g(perfmodel.PCIeTrainingFactor)},
		{"| × %v | `PartialGPUTrainingFactor` |", g(perfmodel.PartialGPUTrainingFactor)},
		{"| × %v | `EthernetTrainingFactor` |", g(perfmodel.EthernetTrainingFactor)},
		{"at %v% (`CPUStreamEfficiency`", n(100 * perfmodel.CPUStreamEfficiency)},
		{"at %v% (`CPUComputeEfficiency`", n(100 * perfmodel.CPUComputeEfficiency)},
		{"FP32 rate, %v (`CPUFP32PerFP64`", n(perfmodel.CPUFP32PerFP64)},
		{"%v GB/s per GHz of its all-core clock (`HPCCoreGBsPerGHz`)", g(perfmodel.HPCCoreGBsPerGHz)},
		{"`HPCScalingLoss` = %v", g(perfmodel.HPCScalingLoss)},
		{"`HPCBandwidthSharpness` = %v", g(perfmodel.HPCBandwidthSharpness)},
		{"`InferenceMBU`, %v", g(perfmodel.InferenceMBU)},
		{"(default `%v`, at most", n(r.DefaultMaxResults)},
		{"at most `%v`) are returned", n(r.MaxResultsLimit)},
		{"(default `%v`) of `as_of`", n(r.DefaultMinLifetimeMonths)},
		{"more than %v days before `as_of`", n(r.CatalogStaleDays)},
		{"by %v points or more", n(r.ClearlyBetterScoreMargin)},
		{"less than %v% of what it may use", n(100 * r.LowUtilizationWarning)},
	}...)
}

// servingQuotes are the step model's constants the guide quotes.
func servingQuotes() []quote {
	return []quote{
		{"| `InferenceMBU` | %v |", f2(perfmodel.InferenceMBU)},
		{"| `DecodeMFU` | %v |", f2(perfmodel.DecodeMFU)},
		{"| `PrefillMFU` | %v |", f2(perfmodel.PrefillMFU)},
		{"| `AllReduceSeconds` | %v µs |", n(1e6 * perfmodel.AllReduceSeconds)},
		{"each log2(tp) × %v µs plus its activations", n(1e6 * perfmodel.AllReduceSeconds)},
		{"| `ExpertLayerSeconds` | %v µs |", n(1e6 * perfmodel.ExpertLayerSeconds)},
		{"its routing (a mixture of experts): %v µs in each layer", n(1e6 * perfmodel.ExpertLayerSeconds)},
		{"| `FirstTokenSeconds` | %v ms |", n(1000 * perfmodel.FirstTokenSeconds)},
		{"within %v% of their capacity (`MaxUtilization`)", n(100 * perfmodel.MaxUtilization)},
		{"at no more than %v% of their capacity (`MaxUtilization`", n(100 * perfmodel.MaxUtilization)},
		{"`FirstTokenSeconds`, %v ms", n(1000 * perfmodel.FirstTokenSeconds)},
		{"| `DefaultOutputShare` | %v |", g(r.DefaultOutputShare)},
		{"| `MaxBatchSequences` | %v |", n(perfmodel.MaxBatchSequences)},
	}
}

// number is a figure as the guide writes it: digits with thousands
// separators and a decimal part.
const number = `([0-9][0-9,]*(?:\.[0-9]+)?)`

// quoteConstants writes every quoted constant's figure into text.
func quoteConstants(text string) (string, error) { return quoteAll(text, quotes()) }

// quoteAll writes the figure of each quote into text.
func quoteAll(text string, qs []quote) (string, error) {
	var missing []string
	for _, q := range qs {
		before, after, ok := strings.Cut(q.around, "%v")
		if !ok {
			return "", fmt.Errorf("quote %q has no %%v", q.around)
		}
		re := regexp.MustCompile("(" + spaced(before) + ")" + number + "(" + spaced(after) + ")")
		if !re.MatchString(text) {
			missing = append(missing, strings.ReplaceAll(q.around, "%v", q.value))
			continue
		}
		text = re.ReplaceAllString(text, "${1}"+q.value+"${3}")
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("the guide no longer quotes %q", missing)
	}
	return text, nil
}

// spaced matches s literally, but with any run of white space (a line
// break in the guide's prose) where s has a space.
func spaced(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(words, `\s+`)
}

// g writes a figure with as many decimals as it has.
func g(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// f2 writes a figure with two decimals.
func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// n writes a whole number with thousands separators.
func n(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fixed writes a figure with d decimals and thousands separators.
func fixed(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	whole, frac, hasFrac := strings.Cut(s, ".")
	whole = n(mustFloat(whole))
	if hasFrac {
		return whole + "." + frac
	}
	return whole
}

// trim writes a figure with at most two decimals, without trailing zeros,
// and thousands separators.
func trim(v float64) string {
	s := fixed(v, 2)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
