// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package servingbench holds the published serving measurements the step
// model is checked against, and asks the engine for each as a user would:
//
//   - serving_benchmarks.csv: MLPerf Inference v4.0 to v6.0 (Azure's
//     submissions among them), TensorRT-LLM's performance tables, vLLM,
//     AMD and GPUStack results and Azure's benchmarking guide, each row
//     with its source and the token lengths of its dataset. Offline and
//     fixed rows (throughput rows) are asked with 256 concurrent requests
//     per GPU of the row; server and interactive rows (rate rows) with
//     requests_per_second, the published rate scaled to the Azure size's
//     GPUs.
//   - serving_curves.csv: points of published concurrency sweeps
//     (InferenceMAX), asked with the requests in flight per GPU of the
//     point times the Azure size's GPUs.
//
// It writes the calibration tables the ranking guide shows; the package's
// test judges the same predictions.
package servingbench

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

//go:embed serving_benchmarks.csv
var benchmarks []byte

//go:embed serving_curves.csv
var curves []byte

// AsOf is the provider date every row is asked at.
var AsOf = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// sizes is the Azure size a user would ask for a row's GPU.
var sizes = map[string]string{
	"gb200":            "Standard_ND128isr_NDR_GB200_v6",
	"gb300":            "Standard_ND128isr_GB300_v6",
	"h200-sxm-141gb":   "Standard_ND96isr_H200_v5",
	"h100-sxm-80gb":    "Standard_ND96isr_H100_v5",
	"h100-nvl-94gb":    "Standard_NC80adis_H100_v5",
	"mi300x":           "Standard_ND96isr_MI300X_v5",
	"a100-sxm-80gb":    "Standard_ND96amsr_A100_v4",
	"rtx-pro-6000-bse": "Standard_NC288ds_xl_RTXPRO6000BSE_v6",
}

// models is the model table id of each published model name.
var models = map[string]string{
	"Llama-2-70B-chat":           "llama-2-70b",
	"Llama-3.1-405B-Instruct":    "llama-3.1-405b",
	"Llama-3.1-405B":             "llama-3.1-405b",
	"Llama-3.1-8B-Instruct":      "llama-3.1-8b",
	"Llama-3.1-8B":               "llama-3.1-8b",
	"Llama-3.1-70B":              "llama-3.1-70b",
	"Llama-3-70B":                "llama-3.1-70b", // the same architecture
	"Llama-3.3-70B":              "llama-3.3-70b",
	"Mixtral-8x7B-Instruct-v0.1": "mixtral-8x7b",
	"Mixtral-8x7B":               "mixtral-8x7b",
	"DeepSeek-R1":                "deepseek-r1",
	"DeepSeek-R1-0528":           "deepseek-r1",
	"gpt-oss-120b":               "gpt-oss-120b",
}

// curveGPUs is the source's GPU id of each GPU named in the sweeps.
var curveGPUs = map[string]string{
	"H100 SXM 80GB":  "h100-sxm-80gb",
	"H200 SXM 141GB": "h200-sxm-141gb",
}

// tokens fills the token lengths a row leaves out from its dataset's
// published reference: the Llama 2 70B rack-scale rows report no output
// length; FP4 runs of the same benchmark generate about 273.
var tokens = map[string][2]float64{
	"l2-gb200-azure-rack-blog": {222.3, 273.3},
	"l2-gb300-azure-rack-blog": {222.3, 273.3},
}

// Kind is how a measurement is asked for and judged.
type Kind uint8

const (
	// Throughput rows (offline, fixed): every request queued at once;
	// judged on output tokens per second per GPU.
	Throughput Kind = iota
	// Rate rows (server, interactive): Poisson arrivals at a rate; judged
	// on the time per output token and to the first token at that load.
	Rate
	// Sweep points: a fixed number of requests in flight; judged on the
	// output tokens per second per GPU and the time per output token.
	Sweep
)

// Row is one published measurement.
type Row struct {
	ID        string
	Kind      Kind
	Model     string // the published model name
	GPU       string // the source's GPU id
	Precision string // as published
	GPUs      int64
	Published float64 // output tokens per second per GPU
	TTFT      float64 // published mean (median for sweeps) time to first token, ms; 0 when not published
	TPOT      float64 // published mean (median for sweeps) time per output token, ms; 0 when not published
	Rate      float64 // requests per second (rate rows)
	InFlight  float64 // requests in flight (sweep points)
	Prompt    float64 // mean prompt tokens; 0 when not published
	Output    float64 // mean output tokens; 0 when not published
}

// Size is the Azure size with the row's GPU, or "" when no size has it.
func (r Row) Size() string { return sizes[r.GPU] }

// Request is the request a user makes for the row on a size of vmGPUs
// GPUs: the row's model by name and precision, its prompt and output
// tokens, and its demand: 256 concurrent requests per GPU of the row
// (throughput rows), the rate scaled to the size's GPUs (rate rows), or
// the requests in flight per GPU scaled to them (sweep points).
func (r Row) Request(vmGPUs float64) recommend.Request {
	precision := strings.ToLower(r.Precision)
	switch {
	case strings.Contains(precision, "fp4"):
		precision = recommend.PrecisionFP4
	case strings.HasPrefix(precision, "fp8"):
		precision = recommend.PrecisionFP8
	}
	req := recommend.Request{Workload: recommend.WorkloadInference, Model: &recommend.Model{Name: models[r.Model], Precision: precision}}
	if r.Prompt > 0 {
		req.PromptTokens = i64(int64(math.Round(r.Prompt)))
	}
	if r.Output > 0 {
		req.OutputTokens = i64(int64(math.Round(r.Output)))
	}
	switch r.Kind {
	case Rate:
		v := r.Rate * vmGPUs / float64(r.GPUs)
		req.RequestsPerSecond = &v
	case Sweep:
		req.ConcurrentRequests = i64(max(int64(math.Round(r.InFlight/float64(r.GPUs)*vmGPUs)), 1))
	default:
		req.ConcurrentRequests = i64(256 * r.GPUs)
	}
	return req
}

// Rows reads every published row of serving_benchmarks.csv.
func Rows() ([]Row, error) { return readAll(benchmarks, "serving_benchmarks.csv", readRow) }

// Points reads every point of serving_curves.csv.
func Points() ([]Row, error) { return readAll(curves, "serving_curves.csv", readPoint) }

// readAll reads every record of the CSV file name (data) with read.
func readAll(data []byte, name string, read func(rec []string, col map[string]int) (Row, error)) ([]Row, error) {
	recs, col, err := records(data, name)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(recs))
	for _, rec := range recs {
		row, err := read(rec, col)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// records reads a CSV file into its records and its columns by name.
func records(data []byte, name string) ([][]string, map[string]int, error) {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) < 2 {
		return nil, nil, fmt.Errorf("%s has no rows", name)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	return recs[1:], col, nil
}

// parser reads numbers from one record: a number that does not parse is
// an error naming its column, an empty field zero.
type parser struct {
	rec []string
	col map[string]int
	bad []string
}

func (p *parser) num(name string) float64 {
	s := p.rec[p.col[name]]
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.bad = append(p.bad, name)
	}
	return v
}

func (p *parser) err(id string) error {
	if len(p.bad) > 0 {
		return fmt.Errorf("%s: %s not a number", id, strings.Join(p.bad, ", "))
	}
	return nil
}

// readRow reads one record of serving_benchmarks.csv.
func readRow(rec []string, col map[string]int) (Row, error) {
	p := parser{rec: rec, col: col}
	row := Row{ID: rec[col["id"]], Model: rec[col["model"]], GPU: rec[col["gpu"]], Precision: rec[col["precision"]],
		GPUs: int64(p.num("gpus")), Published: p.num("output_tokens_per_s_per_gpu"), TTFT: p.num("ttft_ms"), TPOT: p.num("tpot_ms"),
		Prompt: p.num("input_tokens"), Output: p.num("output_tokens")}
	if err := p.err(row.ID); err != nil {
		return row, err
	}
	if _, ok := models[row.Model]; !ok {
		return row, fmt.Errorf("%s: no model id for %q", row.ID, row.Model)
	}
	if fill, ok := tokens[row.ID]; ok {
		row.Prompt, row.Output = fill[0], fill[1]
	}
	if s := rec[col["scenario"]]; s == "server" || s == "interactive" {
		if rate := requestRate(rec[col["concurrency_or_batch"]]); rate > 0 && row.TPOT > 0 && row.TTFT > 0 {
			row.Kind, row.Rate = Rate, rate
		}
	}
	return row, nil
}

var (
	achievedRE = regexp.MustCompile(`([0-9.]+) req/s achieved`)
	rateRE     = regexp.MustCompile(`([0-9.]+) (?:req/s|QPS)`)
)

// requestRate is the requests per second a rate row ran at: the achieved
// rate where the source gives one, else the rate it states; 0 when none.
func requestRate(s string) float64 {
	for _, re := range []*regexp.Regexp{achievedRE, rateRE} {
		if m := re.FindStringSubmatch(s); m != nil {
			v, err := strconv.ParseFloat(m[1], 64)
			if err == nil {
				return v
			}
		}
	}
	return 0
}

// readPoint reads one point of serving_curves.csv: its GPUs are the
// server's tensor-parallel GPUs (the published per-GPU figures divide by
// them), its requests in flight the sweep's concurrency.
func readPoint(rec []string, col map[string]int) (Row, error) {
	p := parser{rec: rec, col: col}
	row := Row{ID: rec[col["id"]], Kind: Sweep, Model: rec[col["model"]], GPU: curveGPUs[rec[col["gpu_model"]]], Precision: rec[col["precision"]],
		GPUs: int64(p.num("gpus_in_system")), Published: p.num("output_tok_s_per_gpu"), TTFT: p.num("ttft_ms"), TPOT: p.num("tpot_ms"),
		Prompt: p.num("input_tokens"), Output: p.num("output_tokens")}
	if err := p.err(row.ID); err != nil {
		return row, err
	}
	conc := strings.TrimPrefix(rec[col["concurrency_or_request_rate"]], "conc=")
	v, err := strconv.ParseFloat(conc, 64)
	if err != nil || v <= 0 {
		return row, fmt.Errorf("%s: concurrency %q not a number", row.ID, conc)
	}
	row.InFlight = v
	if _, ok := models[row.Model]; !ok || row.GPU == "" {
		return row, fmt.Errorf("%s: no model id for %q or size for %q", row.ID, row.Model, rec[col["gpu_model"]])
	}
	return row, nil
}

func i64(v int64) *int64 { return &v }

func deref(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// Prediction is the engine's answer for a row, on the row's Azure size.
type Prediction struct {
	Row
	Predicted      float64 // output tokens per second per GPU
	PredTTFT       float64 // ms
	PredTPOT       float64 // ms
	Replicas       int64
	Nodes          int64
	TensorParallel int64
	VMGPUs         float64 // the GPUs of one VM of the Azure size
	// Capacity is the layout's output tokens per second per GPU at the
	// batch each copy runs at most (SeqsPerCopy); InFlight the requests in
	// the service.
	Capacity                  float64
	SeqsPerCopy, PredInFlight int64
}

// WholeVM reports whether the row was measured on at least the GPUs of
// one VM of its Azure size; a row measured on fewer, asked with 256
// requests per GPU of the row, has them spread over all the VM's GPUs.
func (p Prediction) WholeVM() bool { return float64(p.GPUs) >= p.VMGPUs }

// Split is the predictions measured on at least one VM's GPUs, then those
// measured on fewer (WholeVM).
func Split(preds []Prediction) (whole, fewer []Prediction) {
	for _, p := range preds {
		if p.WholeVM() {
			whole = append(whole, p)
		} else {
			fewer = append(fewer, p)
		}
	}
	return whole, fewer
}

// RelativeError is the relative error of the per-GPU throughput:
// predicted ÷ published − 1.
func (p Prediction) RelativeError() float64 { return p.Predicted/p.Published - 1 }

// TPOTError is the relative error of the time per output token.
func (p Prediction) TPOTError() float64 { return p.PredTPOT/p.TPOT - 1 }

// TTFTRatio is how many times off the time to first token is, either way:
// max(predicted ÷ published, published ÷ predicted).
func (p Prediction) TTFTRatio() float64 {
	return math.Max(p.PredTTFT/p.TTFT, p.TTFT/p.PredTTFT)
}

// Predict asks eng for each row with an Azure size, that size in prefer,
// at AsOf; per-GPU throughput = tokens_per_second ÷ total_gpus. It returns
// the predictions and the rows no Azure size has the GPU of.
func Predict(eng *recommend.Engine, rows []Row) ([]Prediction, []Row, error) {
	var preds []Prediction
	var skipped []Row
	for _, row := range rows {
		size := row.Size()
		if size == "" {
			skipped = append(skipped, row)
			continue
		}
		p, err := predict(eng, row, size)
		if err != nil {
			return nil, nil, err
		}
		preds = append(preds, p)
	}
	return preds, skipped, nil
}

// PredictAll asks eng for every published row and sweep point, as the
// guide's tables show them: the rows' predictions, the points', and the
// rows no Azure size has the GPU of.
func PredictAll(eng *recommend.Engine) (preds, points []Prediction, skipped []Row, err error) {
	rows, err := Rows()
	if err != nil {
		return nil, nil, nil, err
	}
	if preds, skipped, err = Predict(eng, rows); err != nil {
		return nil, nil, nil, err
	}
	pts, err := Points()
	if err != nil {
		return nil, nil, nil, err
	}
	if points, _, err = Predict(eng, pts); err != nil {
		return nil, nil, nil, err
	}
	return preds, points, skipped, nil
}

func predict(eng *recommend.Engine, row Row, size string) (Prediction, error) {
	s, ok := eng.Catalog().Lookup(size)
	if !ok || s.GPU == nil {
		return Prediction{}, fmt.Errorf("%s: no GPU size %s", row.ID, size)
	}
	req := row.Request(s.GPU.Count)
	req.Prefer, req.AsOf = []string{size}, AsOf
	res, err := eng.Recommend(req)
	if err != nil {
		return Prediction{}, fmt.Errorf("%s: %w", row.ID, err)
	}
	r := res.Recommendations[0]
	est := r.Estimate
	if r.VMSize != size || est == nil || est.TokensPerSecond == nil || est.TimeToFirstTokenMs == nil || est.TimePerOutputTokenMs == nil || r.TotalGPUs <= 0 {
		return Prediction{}, fmt.Errorf("%s: %s first, without a serving estimate on %s", row.ID, r.VMSize, size)
	}
	predicted := *est.TokensPerSecond / r.TotalGPUs
	if row.Kind == Rate {
		// At a stated load the service serves the load.
		predicted = res.Requirements.TokensPerSecond / r.TotalGPUs
	}
	return Prediction{Row: row, Predicted: predicted,
		PredTTFT: *est.TimeToFirstTokenMs, PredTPOT: *est.TimePerOutputTokenMs,
		Replicas: r.Replicas, Nodes: r.Nodes, TensorParallel: r.TensorParallel, VMGPUs: s.GPU.Count,
		Capacity: *est.TokensPerSecond / r.TotalGPUs, SeqsPerCopy: deref(est.SequencesPerCopy), PredInFlight: deref(est.ConcurrentRequests)}, nil
}

// Of is the predictions of one kind.
func Of(preds []Prediction, k Kind) []Prediction {
	var out []Prediction
	for _, p := range preds {
		if p.Kind == k {
			out = append(out, p)
		}
	}
	return out
}

// Median is the median of f over the predictions (0 without any).
func Median(preds []Prediction, f func(Prediction) float64) float64 {
	if len(preds) == 0 {
		return 0
	}
	v := make([]float64, len(preds))
	for i, p := range preds {
		v[i] = f(p)
	}
	slices.Sort(v)
	return (v[(len(v)-1)/2] + v[len(v)/2]) / 2
}

// AbsError, AbsTPOTError and TTFTRatio are the measures the medians take.
func AbsError(p Prediction) float64     { return math.Abs(p.RelativeError()) }
func AbsTPOTError(p Prediction) float64 { return math.Abs(p.TPOTError()) }
func TTFTRatio(p Prediction) float64    { return p.TTFTRatio() }

// MedianAbsError is the median of the throughput rows' absolute relative
// errors (0 without predictions).
func MedianAbsError(preds []Prediction) float64 { return Median(Of(preds, Throughput), AbsError) }

// Within is the share of the predictions within factor of their
// published throughput.
func Within(preds []Prediction, factor float64) float64 {
	if len(preds) == 0 {
		return 0
	}
	n := 0
	for _, p := range preds {
		if r := p.Predicted / p.Published; r <= factor && r >= 1/factor {
			n++
		}
	}
	return float64(n) / float64(len(preds))
}

// Constant is a fitted constant of the step model, by name.
type Constant struct {
	Name  string
	Value float64
}

// Constants are the step model's constants the rows calibrate.
func Constants() []Constant {
	return []Constant{
		{"InferenceMBU", perfmodel.InferenceMBU},
		{"DecodeMFU", perfmodel.DecodeMFU},
		{"PrefillMFU", perfmodel.PrefillMFU},
		{"AllReduceSeconds", perfmodel.AllReduceSeconds},
		{"ExpertLayerSeconds", perfmodel.ExpertLayerSeconds},
		{"LinkEfficiency", perfmodel.LinkEfficiency},
		{"FirstTokenSeconds", perfmodel.FirstTokenSeconds},
		{"ServiceCV2", perfmodel.ServiceCV2},
	}
}
