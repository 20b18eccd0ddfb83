// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend/internal/samplebench"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend/internal/servingbench"
)

// asOf is the provider date of every worked example.
var asOf = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

// example is one worked example: the request and how many ranks the table
// shows (every rank when 0).
type example struct {
	req   recommend.Request
	ranks int
}

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }

// examples are the worked examples, by section name.
func examples() map[string]example {
	model := func(m recommend.Model) *recommend.Model { return &m }
	return map[string]example{
		"example-fine-tuning-7b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadFineTuning, Model: model(recommend.Model{ParametersBillion: 7}), Target: recommend.TargetAKS},
		},
		"example-training-70b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadTraining, Model: model(recommend.Model{ParametersBillion: 70})},
		},
		"example-opt-inference": {
			ranks: 0,
			req:   recommend.Request{Workload: recommend.WorkloadInference, Model: model(recommend.Model{ParametersBillion: 1.3})},
		},
		"example-qlora-70b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodQLoRA, Model: model(recommend.Model{Name: "llama-3.1-70b"})},
		},
		"example-serve-8b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadInference, Model: model(recommend.Model{Name: "llama-3.1-8b"}), ContextTokens: i64(8192), ConcurrentRequests: i64(32)},
		},
		"example-serve-70b-long": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadInference, Model: model(recommend.Model{Name: "llama-3.1-70b"}), ContextTokens: i64(32768), ConcurrentRequests: i64(8)},
		},
		"example-serve-8b-many": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadInference, Model: model(recommend.Model{Name: "llama-3.1-8b"}), ContextTokens: i64(8192), ConcurrentRequests: i64(2000)},
		},
		"example-serve-by-throughput": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadInference, Model: model(recommend.Model{Name: "llama-3.1-8b"}), ContextTokens: i64(8192), TokensPerSecond: f64(5000)},
		},
		"example-pretraining-deadline": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadTraining, Model: model(recommend.Model{ParametersBillion: 7}), TokensBillion: f64(2000), DeadlineHours: f64(2000)},
		},
		"example-vision-training": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadTraining, Model: model(recommend.Model{Name: "vit-large", Precision: "bf16"}), TrainingBatchSize: i64(256), SamplesMillion: f64(115)},
		},
		"example-vision-untimed": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadTraining, Model: model(recommend.Model{ParametersBillion: 0.3, Precision: "bf16", Class: recommend.ClassNonGenerative})},
		},
		"example-training-7b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadTraining, Model: model(recommend.Model{ParametersBillion: 7})},
		},
		"example-lora-8b": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodLoRA, Model: model(recommend.Model{Name: "llama-3.1-8b"})},
		},
		"example-qlora-performance": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodQLoRA, Model: model(recommend.Model{Name: "llama-3.1-70b"}), OptimizeFor: recommend.OptimizePerformance},
		},
		"example-rapids": {
			ranks: 3,
			req:   recommend.Request{Workload: recommend.WorkloadDataProcessing, CUDAVersion: "12.0"},
		},
		"example-hpc-cores": {
			ranks: 5,
			req:   recommend.Request{Workload: recommend.WorkloadHPC, Cores: i64(2000)},
		},
	}
}

// noFitExamples are worked examples in which no size fits: the section is
// the error's nearest miss.
func noFitExamples() map[string]recommend.Request {
	return map[string]recommend.Request{
		"nearest-miss-deadline": {Workload: recommend.WorkloadTraining, Model: &recommend.Model{ParametersBillion: 7},
			TokensBillion: f64(2000), DeadlineHours: f64(10), GPUModels: []string{"a100-sxm-40gb"}},
		"nearest-miss-precision": {Workload: recommend.WorkloadFineTuning, FineTuningMethod: recommend.MethodLoRA,
			Model: &recommend.Model{ParametersBillion: 1.24, Precision: recommend.PrecisionBF16}, GPUModels: []string{"t4"}, MaxPricePerHour: f64(1)},
	}
}

// sections are the generated parts of the guide, by marker name.
func sections(eng *recommend.Engine) map[string]section {
	out := map[string]section{
		"constraints": constraintTable,
		"fixture":     func(string) (string, error) { return fixtureLine(eng), nil },
		"memory-training": func(string) (string, error) {
			return memoryTable(eng, trainingMemory, trainingRows)
		},
		"memory-inference": func(string) (string, error) {
			return memoryTable(eng, inferenceMemory, inferenceRows)
		},
	}
	for name, ex := range examples() {
		out[name] = func(string) (string, error) { return ex.render(eng) }
	}
	out["warning-past-deadline"] = func(string) (string, error) {
		return warningQuote(eng, examples()["example-training-70b"].req, "The job runs about ")
	}
	for name, req := range noFitExamples() {
		out[name] = func(string) (string, error) { return nearestMiss(eng, req) }
	}
	out["serving-calibration"] = func(string) (string, error) { return servingCalibration() }
	out["sample-calibration"] = func(string) (string, error) { return sampleCalibration() }
	return out
}

// servingCalibration is the table of the published serving measurements
// against the step model's predictions, on the embedded catalog (the
// fixture has few of the rows' sizes), as servingbench's test checks them.
func servingCalibration() (string, error) {
	cat, err := catalog.Default()
	if err != nil {
		return "", err
	}
	eng, err := recommend.NewEngine(cat)
	if err != nil {
		return "", err
	}
	preds, sweep, skipped, err := servingbench.PredictAll(eng)
	if err != nil {
		return "", err
	}
	return servingbench.Table(preds, sweep, skipped), nil
}

// sampleCalibration is the table of the published vision and diffusion
// training runs against the samples model's predictions, on the embedded
// catalog, as samplebench's test checks them.
func sampleCalibration() (string, error) {
	cat, err := catalog.Default()
	if err != nil {
		return "", err
	}
	rows, err := samplebench.Rows()
	if err != nil {
		return "", err
	}
	preds, err := samplebench.Predict(cat, rows)
	if err != nil {
		return "", err
	}
	return samplebench.Table(preds), nil
}

// fixtureLine says which catalog and date the examples use.
func fixtureLine(eng *recommend.Engine) string {
	cat := eng.Catalog()
	return fmt.Sprintf("The worked examples on this page are generated by the engine (`make generate`) on a small frozen catalog of %d sizes (version `%s`, data date %s), copied from the embedded catalog of that date for the engine's tests, in `eastus` with `as_of = \"%s\"`: the embedded catalog has more sizes and newer prices, so its answers can differ. Run the data source for the current figures.",
		len(cat.SKUs()), cat.Version, cat.DataDate.Format(time.DateOnly), asOf.Format(time.DateOnly))
}

// recommendAll ranks every candidate of req in eastus at asOf.
func recommendAll(eng *recommend.Engine, req recommend.Request) (*recommend.Result, error) {
	req.Region, req.AsOf, req.MaxResults = "eastus", asOf, i64(recommend.MaxResultsLimit)
	return eng.Recommend(req)
}

// render writes the example's table: the request, what it needs, the
// ranked sizes and the sizes removed.
func (ex example) render(eng *recommend.Engine) (string, error) {
	res, err := recommendAll(eng, ex.req)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s. %s.\n\n", arguments(ex.req), needs(res.Requirements))
	b.WriteString("| Rank | Size | Score | VMs | Layout | Estimate | Price per hour |\n|---|---|---|---|---|---|---|\n")
	for _, r := range res.Recommendations {
		if ex.ranks > 0 && int(r.Rank) > ex.ranks {
			continue
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %d | %s | %s | %s |\n", r.Rank, r.VMSize, fixed(r.Score, 1), r.Nodes, layout(r), estimate(r), price(r))
	}
	b.WriteString("\n")
	if more := len(res.Recommendations) - ex.ranks; ex.ranks > 0 && more > 0 {
		fmt.Fprintf(&b, "%s below these. ", catalog.Plural(more, "more size ranks", "more sizes rank"))
	}
	if len(res.Rejected) > 0 {
		fmt.Fprintf(&b, "Removed: %s.", rejected(res.Rejected))
	}
	return strings.TrimSpace(b.String()), nil
}

// needs states what the engine derived from the request.
func needs(rq recommend.Requirements) string {
	var parts []string
	if rq.GPUMemoryGiB != nil {
		parts = append(parts, trim(*rq.GPUMemoryGiB)+" GiB of GPU memory")
	}
	switch {
	case rq.TrainingFLOPs > 0 && rq.TrainingSamplesMillion > 0:
		parts = append(parts, fmt.Sprintf("%s FLOPs (%s million samples) within %s hours", strings.Replace(fmt.Sprintf("%.3g", rq.TrainingFLOPs), "e+", "e", 1), trim(rq.TrainingSamplesMillion), n(rq.DeadlineHours)))
	case rq.TrainingFLOPs > 0:
		parts = append(parts, fmt.Sprintf("%s FLOPs (%s billion tokens) within %s hours", strings.Replace(fmt.Sprintf("%.3g", rq.TrainingFLOPs), "e+", "e", 1), trim(rq.TrainingTokensBillion), n(rq.DeadlineHours)))
	}
	if rq.TokensPerSecond > 0 {
		parts = append(parts, n(rq.TokensPerSecond)+" output tokens per second")
	}
	if rq.Cores != nil {
		parts = append(parts, n(float64(*rq.Cores))+" cores")
	}
	if len(parts) == 0 {
		return "The job states no size"
	}
	return "The job needs " + strings.Join(parts, ", ")
}

// layout describes how the job lies on the size: its GPUs and their
// memory, and for a served model the copies and the GPUs of each; else its
// vCPUs.
func layout(r recommend.Recommendation) string {
	switch {
	case r.TotalGPUs > 0 && r.TensorParallel > 0 && isServed(r):
		return fmt.Sprintf("%s, %s GiB; %s of %s", catalog.Plural(r.TotalGPUs, "GPU", "GPUs"), trim(r.TotalGPUMemoryGiB), catalog.Plural(r.Replicas, "copy", "copies"), copyGPUs(r))
	case r.TotalGPUs > 0:
		return fmt.Sprintf("%s, %s GiB", catalog.Plural(r.TotalGPUs, "GPU", "GPUs"), trim(r.TotalGPUMemoryGiB))
	case r.SKU.VCPUs != nil:
		return fmt.Sprintf("%s vCPUs", n(float64(r.Nodes**r.SKU.VCPUs)))
	}
	return ""
}

// isServed is a served model's layout: copies of the model on GPUs.
func isServed(r recommend.Recommendation) bool {
	return r.Estimate != nil && r.Estimate.JobHours == nil && r.Estimate.RelativeThroughput == nil
}

// copyGPUs is the GPUs one copy spans: a VM's, or several VMs' (pipeline
// stages).
func copyGPUs(r recommend.Recommendation) string {
	s := catalog.Plural(r.TensorParallel, "GPU", "GPUs")
	if r.PipelineStages > 1 {
		s += fmt.Sprintf(" on each of %d VMs", r.PipelineStages)
	}
	return s
}

// count writes a quantity with its unit, singular for 1 and below.

// estimate is the estimate's main figures.
func estimate(r recommend.Recommendation) string {
	e := r.Estimate
	switch {
	case e == nil:
		return ""
	case e.JobHours != nil && e.JobCostUSD != nil:
		return fmt.Sprintf("%s hours, %s USD", fixed(*e.JobHours, 2), fixed(*e.JobCostUSD, 2))
	case e.JobHours != nil:
		return fmt.Sprintf("%s hours", fixed(*e.JobHours, 2))
	case e.TokensPerSecond != nil && e.CostPerMillionTokens != nil:
		return fmt.Sprintf("%s tokens per second, %s USD per million", n(*e.TokensPerSecond), fixed(*e.CostPerMillionTokens, 2))
	case e.TokensPerSecond != nil:
		return fmt.Sprintf("%s tokens per second", n(*e.TokensPerSecond))
	case e.RelativeThroughput != nil:
		return fmt.Sprintf("relative throughput %s", g(*e.RelativeThroughput))
	}
	return "no figures"
}

// price is the price of every VM of the layout.
func price(r recommend.Recommendation) string {
	if r.TotalPricePerHour == nil {
		return "none"
	}
	return fixed(*r.TotalPricePerHour, 3) + " USD"
}

// rejected lists the removed sizes by constraint, in the engine's order.
func rejected(rs []recommend.Rejection) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		ex := make([]string, len(r.Examples))
		for j, e := range r.Examples {
			ex[j] = "`" + e + "`"
		}
		more := ""
		if int(r.Count) > len(ex) {
			more = ", …"
		}
		parts[i] = fmt.Sprintf("%d under `%s` (%s%s)", r.Count, r.Constraint, strings.Join(ex, ", "), more)
	}
	return strings.Join(parts, ", ")
}

// nearestMiss is the no-fit error's nearest miss, as the error states it.
func nearestMiss(eng *recommend.Engine, req recommend.Request) (string, error) {
	res, err := recommendAll(eng, req)
	var nf *recommend.NoFitError
	if !errors.As(err, &nf) {
		return "", fmt.Errorf("want no size to fit, got %v and %v", res, err)
	}
	m := nf.NearestMiss
	if m == nil {
		return "", errors.New("no nearest miss")
	}
	fails := "fails only " + m.FailedConstraint
	if len(m.FailedConstraints) > 1 {
		fails = "fails " + strings.Join(m.FailedConstraints, " and ")
	}
	return fmt.Sprintf("`%s %s. To use it, %s`", m.VMSize, fails, m.Relax), nil
}

// constraintTable writes the table of hard constraints in the engine's
// order, each row as the template words it. A row names one constraint, or
// several that follow each other in the order; a constraint without a row,
// or a row naming an unknown constraint, is an error.
func constraintTable(old string) (string, error) {
	const head = "| Constraint | Removes a size when |\n|---|---|\n"
	body, ok := strings.CutPrefix(old, head)
	if !ok {
		return "", errors.New("the table does not start with its header")
	}
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, name := range strings.Split(first, ", ") {
			rows[strings.Trim(name, "`")] = line
		}
	}
	var b strings.Builder
	b.WriteString(head)
	order := recommend.Constraints()
	written := map[string]bool{}
	for i, c := range order {
		row, ok := rows[c]
		if !ok {
			return "", fmt.Errorf("no row for the constraint %s", c)
		}
		delete(rows, c)
		if written[row] {
			if !strings.Contains(row, "`"+order[i-1]+"`") {
				return "", fmt.Errorf("the row of %s names constraints that do not follow each other", c)
			}
			continue
		}
		written[row] = true
		b.WriteString(row + "\n")
	}
	if len(rows) > 0 {
		return "", fmt.Errorf("rows for constraints the engine does not have: %v", slices.Sorted(maps.Keys(rows)))
	}
	return b.String(), nil
}

// arguments states a request in the data source's arguments.
func arguments(req recommend.Request) string {
	var a []string
	add := func(name, value string) { a = append(a, "`"+name+" = "+value+"`") }
	str := func(v string) string { return fmt.Sprintf("%q", v) }
	add("workload", str(req.Workload))
	if m := req.Model; m != nil {
		var parts []string
		if m.Name != "" {
			parts = append(parts, "name = "+str(m.Name))
		}
		if m.ParametersBillion > 0 {
			parts = append(parts, "parameters_billion = "+g(m.ParametersBillion))
		}
		if m.Precision != "" {
			parts = append(parts, "precision = "+str(m.Precision))
		}
		if m.Class != "" {
			parts = append(parts, "class = "+str(m.Class))
		}
		add("model", "{ "+strings.Join(parts, ", ")+" }")
	}
	if req.FineTuningMethod != "" {
		add("fine_tuning_method", str(req.FineTuningMethod))
	}
	for _, v := range []struct {
		name string
		p    *int64
	}{{"context_tokens", req.ContextTokens}, {"concurrent_requests", req.ConcurrentRequests}, {"training_batch_size", req.TrainingBatchSize}, {"cores", req.Cores}} {
		if v.p != nil {
			add(v.name, g(float64(*v.p)))
		}
	}
	for _, v := range []struct {
		name string
		p    *float64
	}{{"tokens_billion", req.TokensBillion}, {"samples_million", req.SamplesMillion}, {"deadline_hours", req.DeadlineHours}, {"tokens_per_second", req.TokensPerSecond}, {"max_price_per_hour", req.MaxPricePerHour}} {
		if v.p != nil {
			add(v.name, g(*v.p))
		}
	}
	if len(req.GPUModels) > 0 {
		quoted := make([]string, len(req.GPUModels))
		for i, m := range req.GPUModels {
			quoted[i] = str(m)
		}
		add("gpu_models", "["+strings.Join(quoted, ", ")+"]")
	}
	if req.CUDAVersion != "" {
		add("cuda_version", str(req.CUDAVersion))
	}
	if req.Target != "" {
		add("target", str(req.Target))
	}
	if req.OptimizeFor != "" {
		add("optimize_for", str(req.OptimizeFor))
	}
	return strings.Join(a, ", ")
}

// warningQuote quotes the first warning of a ranked size that starts with
// prefix, as a block quote.
func warningQuote(eng *recommend.Engine, req recommend.Request, prefix string) (string, error) {
	res, err := recommendAll(eng, req)
	if err != nil {
		return "", err
	}
	for _, r := range res.Recommendations {
		for _, w := range r.Warnings {
			if strings.HasPrefix(w, prefix) {
				return fmt.Sprintf("  > %s (`%s`)", w, r.VMSize), nil
			}
		}
	}
	return "", fmt.Errorf("no ranked size has a warning %q…", prefix)
}

// sentence is a sentence of the engine's that the guide's prose quotes:
// the template's quotation it replaces (a regular expression over the
// quoted text, line breaks included), and where the engine says it: a
// ranked size of an example, and the start of one of its reasons or
// warnings (from that start to the end of the reason, or to the first
// endsAt).
type sentence struct {
	quoted   string
	example  string
	size     string
	startsAt string
	endsAt   string
}

var sentences = []sentence{
	{`Each copy of the model is split over [^"]*`, "example-serve-70b-long", "Standard_ND96asr_v4", "Each copy of the model is split over", ")."},
	{`The states are sharded over [^"]*`, "example-fine-tuning-7b", "Standard_ND96asr_v4", "The states are sharded over", ""},
	{`Holds the [^"]*the deadline takes[^"]*`, "example-pretraining-deadline", "Standard_ND96asr_v4", "Holds the", ""},
	{`Holds the [^"]*target band\)\.`, "example-serve-8b", "Standard_NC24ads_A100_v4", "Holds the", ""},
	{`KV cache room left: [^"]*`, "example-serve-8b", "Standard_NC24ads_A100_v4", "KV cache room left: ", ""},
	{`Estimated [^"]*MFU\.`, "example-fine-tuning-7b", "Standard_ND96asr_v4", "Estimated ", ""},
	{`The job runs about [^"]*`, "example-training-70b", "Standard_ND96asr_v4", "The job runs about ", ""},
}

// quoteSentences writes into text each sentence of the engine's that the
// prose quotes. A quotation the template no longer has, or a sentence the
// engine no longer says, is an error.
func quoteSentences(eng *recommend.Engine, text string) (string, error) {
	exs := examples()
	for _, s := range sentences {
		res, err := recommendAll(eng, exs[s.example].req)
		if err != nil {
			return "", err
		}
		r := findRanked(res, s.size)
		if r == nil {
			return "", fmt.Errorf("%s: %s is not ranked", s.example, s.size)
		}
		said := ""
		for _, line := range append(slices.Clone(r.Reasons), r.Warnings...) {
			if i := strings.Index(line, s.startsAt); i >= 0 && said == "" {
				said = line[i:]
				if j := strings.Index(said, s.endsAt); s.endsAt != "" && j >= 0 {
					said = said[:j+len(s.endsAt)]
				}
			}
		}
		if said == "" {
			return "", fmt.Errorf("%s: %s says nothing starting %q", s.example, s.size, s.startsAt)
		}
		re := regexp.MustCompile(`"` + strings.ReplaceAll(s.quoted, " ", `\s+`) + `"`)
		if !re.MatchString(text) {
			return "", fmt.Errorf("the guide no longer quotes %q", s.quoted)
		}
		text = re.ReplaceAllLiteralString(text, `"`+said+`"`)
	}
	return text, nil
}

// figures are the engine's figures the prose quotes in its worked
// arithmetic: the output rate of one H100 NVL serving Llama 3.1 8B to 32
// sequences of 8,192 tokens, and its price per million tokens.
func figures(eng *recommend.Engine) ([]quote, error) {
	res, err := recommendAll(eng, examples()["example-serve-8b"].req)
	if err != nil {
		return nil, err
	}
	r := findRanked(res, "Standard_NC40ads_H100_v5")
	if r == nil || r.Estimate == nil || r.Estimate.TokensPerSecond == nil || r.Estimate.CostPerMillionTokens == nil {
		return nil, errors.New("example-serve-8b: Standard_NC40ads_H100_v5 has no decode estimate")
	}
	return []quote{
		{"prefills, 25.96 s: %v output tokens per second, ", n(*r.Estimate.TokensPerSecond)},
		{"output tokens per second, %v USD per million at", fixed(*r.Estimate.CostPerMillionTokens, 2)},
	}, nil
}

// findRanked is the named size's recommendation, or nil.
func findRanked(res *recommend.Result, name string) *recommend.Recommendation {
	for i := range res.Recommendations {
		if res.Recommendations[i].VMSize == name {
			return &res.Recommendations[i]
		}
	}
	return nil
}
