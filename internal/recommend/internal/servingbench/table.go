// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package servingbench

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Outliers are the throughput rows the step model misses by more than 2×,
// each with its reason; the test fails when a row outside 2× is not listed
// or a listed row is within it.
var Outliers = map[string]string{
	"l2-h200cts-nv-off-1gpu":     "one H200 measured at 1,000 W with 850 requests in flight; asked with 256 requests, the engine spreads them over the 8 GPUs of an ND H200 v5, whose 700 W parts give about 10% less (the source's note)",
	"trt-h100-l8-tp1-1k1k":       "one GPU measured with every request on it; asked with 256 requests, the engine spreads them over the VM's 8 GPUs, an eighth of the run's batch per GPU",
	"trt-h200-l70-tp1-1k1k":      "one GPU measured with every request on it; asked with 256 requests, the engine spreads them over the VM's 8 GPUs, an eighth of the run's batch per GPU",
	"trt-h200-l33-70-tp1-1k1k":   "one GPU measured with every request on it; asked with 256 requests, the engine spreads them over the VM's 8 GPUs, an eighth of the run's batch per GPU",
	"trt-rtxpro-l33-70-tp1-1k1k": "one RTX PRO 6000 measured with every request on it; asked with 256, the engine holds their KV cache on two 2-GPU VMs, 64 requests per GPU",
	"l2-rtxpro6000-hpe-off":      "8 PCIe GPUs measured with the requests queued; asked to hold the KV cache of all 2,048 requests, the engine splits each copy over two GPUs across PCIe (no NVLink), whose all-reduces at that batch take most of each step",
	"az-ndmi300x-l70-tp8-1k1k":   "vLLM at TP8 with default settings (the source notes that TP8 wastes the MI300X's memory); the engine runs four two-GPU copies, and the MLPerf rows of the same GPU and model are within 25%",
	"az-ndh100-l70-tp8-bs64-old": "the 2024 static-batch method with 8 output tokens per request: prefill-dominated and, as the source says, not comparable with serving rows",
}

// Table is the calibration in Markdown: the throughput rows (per-GPU
// output tokens per second, published and predicted), the rate rows (time
// per output token and to the first token at the published load), the
// sweep points (per-GPU throughput and time per output token), each with
// its medians, then the rows without an Azure size and the constants.
func Table(preds, points []Prediction, skipped []Row) string {
	var b strings.Builder
	through := Of(preds, Throughput)
	b.WriteString("Throughput rows, asked with 256 concurrent requests per GPU of the row:\n\n")
	b.WriteString("| Row | Model | GPU (Azure size) | Precision | Published | Predicted | Error |\n|---|---|---|---|---|---|---|\n")
	for _, p := range through {
		fmt.Fprintf(&b, "| `%s` | %s | %s (`%s`) | %s | %s | %s | %s |\n",
			p.ID, p.Model, p.GPU, p.Size(), p.Precision, catalog.GroupInt(p.Published), catalog.GroupInt(p.Predicted), percent(p.RelativeError()))
	}
	fmt.Fprintf(&b, "\n%d rows; median absolute error %.1f%%, %.0f%% within 1.5×.\n\n", len(through), MedianAbsError(preds)*100, Within(through, 1.5)*100)
	b.WriteString(splitLine(through))
	b.WriteString(outlierList(through))
	b.WriteString(rateTable(Of(preds, Rate)))
	b.WriteString(sweepTable(points))
	if len(skipped) > 0 {
		ids := make([]string, len(skipped))
		for i, r := range skipped {
			ids[i] = fmt.Sprintf("`%s` (%s)", r.ID, r.GPU)
		}
		fmt.Fprintf(&b, "Rows on a GPU no Azure size has, not predicted: %s.\n\n", strings.Join(ids, ", "))
	}
	consts := make([]string, 0, len(Constants()))
	for _, c := range Constants() {
		consts = append(consts, fmt.Sprintf("`%s` = %s", c.Name, strconv.FormatFloat(c.Value, 'g', 4, 64)))
	}
	fmt.Fprintf(&b, "The constants: %s.\n", strings.Join(consts, ", "))
	return b.String()
}

// splitLine gives the throughput measures of the rows measured on at least
// one VM's GPUs and of those measured on fewer, apart.
func splitLine(through []Prediction) string {
	whole, fewer := Split(through)
	return fmt.Sprintf("Of these, the %d rows measured on at least one VM's GPUs of their Azure size: median absolute error %.1f%%, %.0f%% within 1.5×; "+
		"the %d rows measured on fewer GPUs, whose requests the engine spreads over all the VM's GPUs: %.1f%%, %.0f%% within 1.5×.\n\n",
		len(whole), Median(whole, AbsError)*100, Within(whole, 1.5)*100, len(fewer), Median(fewer, AbsError)*100, Within(fewer, 1.5)*100)
}

// rateTable lists the rate rows: the published rate, and the time to the
// first token and per output token, published and predicted at the load.
func rateTable(preds []Prediction) string {
	var b strings.Builder
	b.WriteString("Rate rows, asked with `requests_per_second` = the published rate × the Azure size's GPUs ÷ the row's:\n\n")
	b.WriteString("| Row | Model | GPU (Azure size) | Requests/s | TTFT ms, published | predicted | TPOT ms, published | predicted | TPOT error |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range preds {
		fmt.Fprintf(&b, "| `%s` | %s | %s (`%s`) | %s | %s | %s | %s | %s | %s |\n",
			p.ID, p.Model, p.GPU, p.Size(), strconv.FormatFloat(p.Rate, 'f', -1, 64), catalog.GroupInt(p.TTFT), catalog.GroupInt(p.PredTTFT), oneDecimal(p.TPOT), oneDecimal(p.PredTPOT), percent(p.TPOTError()))
	}
	fmt.Fprintf(&b, "\n%d rows; median absolute error of the time per output token %.1f%%; median of max(predicted ÷ published, published ÷ predicted) of the time to first token %.2f.\n\n",
		len(preds), Median(preds, AbsTPOTError)*100, Median(preds, TTFTRatio))
	return b.String()
}

// sweepTable lists the sweep points: per-GPU throughput and time per
// output token, published and predicted.
func sweepTable(points []Prediction) string {
	var b strings.Builder
	b.WriteString("Sweep points, asked with `concurrent_requests` = the requests in flight per GPU × the Azure size's GPUs:\n\n")
	b.WriteString("| Point | In flight | GPU (Azure size) | Per GPU, published | predicted | Error | TPOT ms, published | predicted | Error |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range points {
		fmt.Fprintf(&b, "| `%s` | %s on %d | %s (`%s`) | %s | %s | %s | %s | %s | %s |\n",
			p.ID, strconv.FormatFloat(p.InFlight, 'f', -1, 64), p.GPUs, p.GPU, p.Size(), catalog.GroupInt(p.Published), catalog.GroupInt(p.Predicted), percent(p.RelativeError()),
			oneDecimal(p.TPOT), oneDecimal(p.PredTPOT), percent(p.TPOTError()))
	}
	fmt.Fprintf(&b, "\n%d points; median absolute error of the per-GPU throughput %.1f%%, of the time per output token %.1f%%.\n\n",
		len(points), Median(points, AbsError)*100, Median(points, AbsTPOTError)*100)
	return b.String()
}

// outlierList names the predicted rows listed as outliers, with their
// reasons, in the table's order.
func outlierList(preds []Prediction) string {
	var b strings.Builder
	n := 0
	for _, p := range preds {
		if why, ok := Outliers[p.ID]; ok {
			fmt.Fprintf(&b, "* `%s` (%s): %s.\n", p.ID, percent(p.RelativeError()), why)
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d rows are outside 2× of their published figure, each for a reason:\n\n%s\n", n, b.String())
}

// percent writes a relative error as a whole signed percentage, with the
// guide's minus sign.
func percent(e float64) string {
	v := math.Round(e * 100)
	switch {
	case v > 0:
		return fmt.Sprintf("+%.0f%%", v)
	case v < 0:
		return fmt.Sprintf("−%.0f%%", -v)
	}
	return "0%"
}

func oneDecimal(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
