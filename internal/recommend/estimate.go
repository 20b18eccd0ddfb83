// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds a recommendation's estimate: the layout's figures from the
// performance models, the Estimate with its assumptions, and the reasons and
// warnings the estimate gives.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// figures is a layout's time, cost and throughput as the performance
// models estimate them; work is workNone when the request defines no work
// the models time for the size.
type figures struct {
	work  workKind
	known bool // the catalog has the figures the estimate needs
	// Training: wall hours, MFU, FLOP/s, GPUs computing per VM, one GPU's
	// dense TFLOPS, and whether the job uses one GPU of the VM.
	hours, mfu, rate, gpusUsed, peak float64
	oneGPU                           bool
	// Serving: the layout's operating point (servicePointOf), one copy's
	// output tokens per second at its capacity, and the service's.
	pt           servicePoint
	copies       int64
	perCopy, tps float64
	cpu          bool // a small model on a CPU size (Service.CPUSpeed)
	// HPC: the layout's throughput, its parallel efficiency, its share of
	// the best layout's, and the job's hours from a reference run.
	hpcRate, eff, relative, hpcHours float64
}

// workKind is what the performance models time.
type workKind uint8

const (
	workNone workKind = iota
	workTraining
	workServing
	workHPC
)

// figuresOf estimates a layout; bestHPC is the best hpc or htc throughput
// among the ranked layouts.
func figuresOf(n *requirements, e *eval, bestHPC float64) figures {
	in := e.in
	hw := &in.Hardware
	var f figures
	switch {
	case n.train.FLOPs > 0 && in.IsGPU:
		f.work = workTraining
		if f.hours, f.known = n.train.Hours(hw, e.nodes); f.known {
			f.mfu = n.train.MFU(hw, e.nodes, !e.ibNeeded)
			f.rate, f.gpusUsed = n.train.Rate(hw, e.nodes), n.train.GPUsUsed(hw, e.nodes)
			f.peak, f.oneGPU = in.TrainingTFLOPS(n.train.ComputePrec), n.train.UsesOneGPU(hw, e.nodes)
		}
	case e.gl.OK && n.servedLM() && in.IsGPU:
		f.work, f.pt, f.copies = workServing, e.pt, e.ptCopies
		f.perCopy = f.pt.capacity.TPS
		f.known, f.tps = e.tpot > 0, f.perCopy*float64(f.copies)
	case n.cpuServed(in):
		// A small model on a CPU size: one copy on each VM; without the
		// catalog's STREAM and FP64 figures, no estimate.
		if e.tpot > 0 {
			f.work, f.known, f.cpu, f.pt, f.copies = workServing, true, true, e.pt, e.ptCopies
			f.perCopy = f.pt.capacity.TPS
			f.tps = f.perCopy * float64(f.copies)
		}
	case (n.workload == WorkloadHPC || n.workload == WorkloadHTC) && bestHPC > 0:
		f.work = workHPC
		f.hpcRate, f.eff = n.hpc.Rate(hw, e.nodes)
		f.known, f.relative = f.hpcRate > 0, f.hpcRate/bestHPC
		f.hpcHours = n.hpc.jobHours(in, e.nodes)
	}
	return f
}

// estimateFrom is a recommendation's estimate from its figures, with the
// assumptions behind them (work: the training work's derivation); nil when
// the request defines no work.
func estimateFrom(n *requirements, e *eval, f figures, work string) *Estimate {
	if f.work == workNone {
		return nil
	}
	est := &Estimate{Assumptions: assumptions(n, e, f, work)}
	if !f.known {
		return est
	}
	switch f.work {
	case workTraining:
		est.JobHours, est.Efficiency = ptr(catalog.RoundFigure(f.hours)), round4(f.mfu)
		if n.train.SamplesM > 0 {
			est.SamplesPerSecond = ptr(catalog.RoundFigure(n.train.SamplesM * 1e6 / (f.hours * 3600)))
		} else {
			est.TokensPerSecond = ptr(math.Round(n.train.TokensB * 1e9 / (f.hours * 3600)))
		}
		if e.hasPrice {
			cost := f.hours * e.total
			est.JobCostUSD = ptr(catalog.RoundFigure(cost))
			if n.train.TokensB > 0 {
				est.CostPerMillionTokens = ptr(round4(cost / (n.train.TokensB * 1e3)))
			}
		}
	case workServing:
		servingEstimate(n, e, f, est)
	case workHPC:
		est.RelativeThroughput, est.Efficiency = ptr(round4(f.relative)), round4(f.eff)
		hpcEstimate(n, e, f, est)
	}
	return est
}

// servingEstimate fills a served layout's estimate: its capacity, its
// latencies at the load (idle without one), the batch each copy runs at
// most and the requests in the service, and the price of an output token
// (of the load's tokens where one is stated).
func servingEstimate(n *requirements, e *eval, f figures, est *Estimate) {
	sv := &n.serve
	est.TokensPerSecond, est.Efficiency = ptr(math.Round(f.tps)), perfmodel.InferenceMBU
	if f.cpu {
		est.Efficiency = perfmodel.CPUStreamEfficiency
	}
	est.TimeToFirstTokenMs = ptr(round1(f.pt.atLoad.TTFT * 1000))
	est.TimePerOutputTokenMs = ptr(round1(f.pt.atLoad.TPOT * 1000))
	est.RequestsPerSecond = ptr(round4(f.tps / sv.Output))
	// At least the one sequence whose KV cache each copy holds, however
	// light the load.
	est.SequencesPerCopy, est.ConcurrentRequests = ptr(f.pt.maxBatch), ptr(max(1, int64(math.Round(f.pt.inFlight))))
	if e.hasPrice {
		served := f.tps
		if sv.loadTPS > 0 {
			served = sv.loadTPS
		}
		est.CostPerMillionTokens = ptr(round4(e.total / (served * 3600) * 1e6))
	}
}

// assumptions says how a layout's figures were estimated, or that the
// catalog lacks the figures to estimate it. Built by concatenation where
// it can be: this runs for every returned recommendation.
func assumptions(n *requirements, e *eval, f figures, work string) []string {
	in := e.in
	switch {
	case f.work == workTraining && !f.known:
		return []string{"The catalog has no throughput figure for the " + in.sku.GPU.Model + " at this precision: no time or cost estimate."}
	case f.work == workTraining:
		return []string{
			"Training FLOPs: " + work + ".",
			"Rate: " + catalog.Plural(e.nodes, "VM", "VMs") + " × " + catalog.Plural(f.gpusUsed, "GPU", "GPUs") + " × " + trimFloat(f.peak) + " dense TFLOPS (" + computeLabel(n, in) + ") × " + trimFloat(f.mfu*100) + "% MFU = " + sci(f.rate) + " FLOP/s" + oneGPUWhy(f.oneGPU) + ".",
			"MFU: " + mfuWhy(n, in, e) + ".",
			"Time: FLOPs ÷ rate = " + trimFloat(f.hours) + " hours; cost: hours × " + money(e.total) + " USD per hour for all VMs.",
		}
	case f.work == workServing && !f.known:
		return []string{"The catalog has no bandwidth or throughput figure for the " + in.sku.GPU.Model + ": no throughput estimate."}
	case f.work == workServing:
		return servingAssumptions(n, e, f)
	case f.work == workHPC && !f.known:
		return []string{"The catalog has no " + n.hpc.Bound + " figure for this size: no throughput estimate."}
	}
	return hpcAssumptions(n, e, f)
}

// mfuWhy says how a layout's MFU was derived.
func mfuWhy(n *requirements, in *sizeInfo, e *eval) string {
	s := trimFloat(in.MFUFor(n.train.Kind)*100) + "% for the " + in.sku.GPU.Model
	if n.train.Kind != "" {
		s += " training " + perfmodel.KindWithArticle(n.train.Kind)
	}
	if in.GPUCount < 1 {
		s += ", × " + trimFloat(perfmodel.PartialGPUTrainingFactor) + " for a share of a GPU"
	}
	if in.GPUUnits > 1 && !in.Linked && !n.train.UsesOneGPU(&in.Hardware, e.nodes) {
		s += ", × " + trimFloat(perfmodel.PCIeTrainingFactor) + " for GPUs without NVLink"
	}
	if e.nodes > 1 && !e.ibNeeded {
		s += ", × " + trimFloat(perfmodel.EthernetTrainingFactor) + " across VMs without InfiniBand"
	}
	return s
}

func oneGPUWhy(one bool) string {
	if one {
		return " (the job fits one GPU and finishes within the deadline there: the VM's other GPUs sit idle)"
	}
	return ""
}

// servingAssumptions says how the step model timed a served layout: a
// copy at the batch it runs at most (its capacity), and the service at
// its load.
func servingAssumptions(n *requirements, e *eval, f figures) []string {
	if f.cpu {
		return cpuServingAssumptions(n, e, f)
	}
	in, sv, c, b := e.in, &n.serve, f.pt.capacity, f.pt.maxBatch
	scale := in.TrainMFU / perfmodel.TrainingMFU
	peak, attn := in.GEMMTFLOPS(sv.Precision, sv.Format), in.AttentionTFLOPS(sv.Precision, sv.Format)
	fixed := "" // the step's routing and all-reduces
	if c.Routing > 0 {
		fixed += fmt.Sprintf(", routes its tokens to experts in %s layers at %s µs each (%s ms)", trimFloat(sv.Depth), trimFloat(perfmodel.ExpertLayerSeconds*1e6), trimFloat(c.Routing*1000))
	}
	if c.AllReduce > 0 {
		r := sv.OneAllReduce(&in.Hardware, e.gl.TP, float64(b))
		fixed += fmt.Sprintf(", and waits %s ms for its all-reduces (2 per layer × %s layers × %s µs: %s of %s µs over %d GPUs, and %s µs moving %d tokens' activations)",
			trimFloat(c.AllReduce*1000), trimFloat(sv.Depth), trimFloat((r.Latency+r.Move)*1e6), catalog.Plural(r.Steps, "step", "steps"), trimFloat(perfmodel.AllReduceSeconds*1e6), e.gl.TP, trimFloat(r.Move*1e6), b)
	}
	out := []string{
		fmt.Sprintf("Decode step: %s of %s, at most %s each; a step reads %s GiB of weights%s and the sequences' KV cache at %s%% of %s GB/s per GPU (%s ms), computes %s at %s%% of %s dense TFLOPS per GPU%s (%s ms)%s.",
			catalog.Plural(f.copies, "copy", "copies"), catalog.Plural(perfmodel.CopyGPUs(&in.Hardware, e.gl.TP, e.gl.PP), "GPU", "GPUs"), catalog.Plural(b, "sequence", "sequences"), trimFloat(sv.TouchedWeights(float64(b))), stagesWords(e.gl.PP),
			trimFloat(perfmodel.InferenceMBU*100), trimFloat(in.HBMGBs), trimFloat(c.Memory*1000), catalog.Plural(b, "token", "tokens"), trimFloat(perfmodel.DecodeMFU*scale*100), trimFloat(peak), attentionPeak(peak, attn, in.AttentionPrecision(sv.Precision, sv.Format)), trimFloat(c.Compute*1000), fixed),
		fmt.Sprintf("Prefill: %s prompt tokens × 2 × %sB active parameters plus attention over the prompt, at %s%% of the peak%s: %s ms per request; with continuous batching a copy runs %s per %s decode steps.",
			groupInt(sv.Prompt), trimFloat(sv.Active), trimFloat(perfmodel.PrefillMFU*scale*100), prefillMove(c), trimFloat(c.Prefill*1000), catalog.Plural(b, "prefill", "prefills"), groupInt(sv.Output)),
	}
	out = append(out, servingThroughputSentences(n, f)...)
	if c.WeightOnly {
		out = append(out, fmt.Sprintf("Weight-only: the %s computes %s weights in bf16 or fp16 (%s dense TFLOPS); they save memory and bandwidth, not arithmetic time.",
			in.sku.GPU.Model, sv.Precision, trimFloat(peak)))
	}
	return out
}

// attentionPeak is the decode sentence's clause for attention computed at
// another peak than the weights' matrix products, at precision prec
// (perfmodel's AttentionPrecision: "" is 16 bits, beside fp8, fp4 or int8
// weights); "" when they share it (fp32 or tf32 weights, whose attention
// runs at their own precision, and 16-bit ones).
func attentionPeak(peak, attn float64, prec string) string {
	if attn == peak {
		return ""
	}
	bits := "16 bits"
	if prec != "" {
		bits = prec
	}
	return fmt.Sprintf(" for the weights' matrix products and %s for attention, which runs in %s", trimFloat(attn), bits)
}

// stagesWords is the decode sentence's clause for a copy over pipeline
// stages, whose weights take one stage's bandwidth; "" for one stage.
func stagesWords(pp int64) string {
	if pp < 2 {
		return ""
	}
	return fmt.Sprintf(" (each of its %d pipeline stages reads its share once for each of %d micro-batches)", pp, pp)
}

// prefillMove is the prefill sentence's clause for a split copy moving the
// prompt's activations through its all-reduces; "" on one GPU.
func prefillMove(c perfmodel.CopySpeed) string {
	if c.PrefillMove <= 0 {
		return ""
	}
	return fmt.Sprintf(", plus %s ms moving its activations through the all-reduces", trimFloat(c.PrefillMove*1000))
}

// cpuServingAssumptions says how the step model timed a small model on a
// CPU size (Service.CPUSpeed).
func cpuServingAssumptions(n *requirements, e *eval, f figures) []string {
	in, sv, c, b := e.in, &n.serve, f.pt.capacity, f.pt.maxBatch
	fp32 := perfmodel.CPUFP32(&in.Hardware) / 1e9
	out := []string{
		fmt.Sprintf("Decode step: %s, one per VM, at most %s each; a step reads %s GiB of weights at %s%% of the VM's %s GB/s STREAM bandwidth (%s ms), and takes no less than computing %s at %s%% of its %s GFLOPS FP32 (%s × %s cores × %s GFLOPS FP64 per core; %s ms).",
			catalog.Plural(f.copies, "copy", "copies"), catalog.Plural(b, "sequence", "sequences"), trimFloat(sv.TouchedWeights(float64(b))), trimFloat(perfmodel.CPUStreamEfficiency*100),
			trimFloat(in.StreamGBs), trimFloat(c.Memory*1000), catalog.Plural(b, "token", "tokens"), trimFloat(perfmodel.CPUComputeEfficiency*100), groupInt(fp32),
			trimFloat(perfmodel.CPUFP32PerFP64), groupInt(float64(in.PhysCores)), trimFloat(in.CoreFP64), trimFloat(c.Compute*1000)),
		fmt.Sprintf("Prefill: %s prompt tokens × 2 × %sB active parameters at %s%% of the FP32 rate: %s ms per request; with continuous batching a copy runs %s per %s decode steps.",
			groupInt(sv.Prompt), trimFloat(sv.Active), trimFloat(perfmodel.CPUComputeEfficiency*100), trimFloat(c.Prefill*1000), catalog.Plural(b, "prefill", "prefills"), groupInt(sv.Output)),
	}
	return append(out, servingThroughputSentences(n, f)...)
}

// servingThroughputSentences give a timed service's capacity, and its
// latencies at the load (idle without one).
func servingThroughputSentences(n *requirements, f figures) []string {
	pt, sv := &f.pt, &n.serve
	out := []string{fmt.Sprintf("Capacity: %s output tokens per second per copy at %s, %s for the service.",
		groupInt(f.perCopy), catalog.Plural(pt.maxBatch, "sequence", "sequences"), groupInt(f.tps))}
	if !pt.loaded {
		return append(out, fmt.Sprintf("Latency without a load (no requests_per_second or tokens_per_second stated), each copy decoding its share of the concurrent requests and no request waiting for a copy: a request's first token after %s ms, then one every %s ms.",
			trimFloat(pt.atLoad.TTFT*1000), trimFloat(pt.atLoad.TPOT*1000)))
	}
	return append(out, fmt.Sprintf("At the load, %s per second (%s output tokens per second, %s of the capacity): each copy decodes about %s sequences together (Little's law), a request waits about %s ms for a copy (the Allen-Cunneen approximation of a queue with %s), its first token comes after %s ms and then one every %s ms; %s in the service.",
		catalog.Plural(sv.load, "request", "requests"), loadFigure(sv.loadTPS), percent(pt.util), trimFloat(pt.batch), trimFloat(pt.wait*1000), catalog.Plural(f.copies, "copy", "copies"),
		trimFloat(pt.atLoad.TTFT*1000), trimFloat(pt.atLoad.TPOT*1000), aboutRequests(pt.inFlight, "is", "are")))
}

// aboutRequests counts the requests in a service at its load as
// loadFigure writes them ("about 0.2 requests", "about 1 request", "about
// 1,234 requests"), with the verb's singular or plural form when one is
// given.
func aboutRequests(f float64, one, many string) string {
	s, verb := "about "+loadFigure(f)+" requests", many
	if loadFigure(f) == "1" {
		s, verb = "about 1 request", one
	}
	if verb != "" {
		s += " " + verb
	}
	return s
}

// estimateReasons puts the estimate next to the hourly price.
func estimateReasons(n *requirements, e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	var out []string
	switch {
	case est.JobHours != nil && est.RelativeThroughput == nil:
		s := "Estimated " + trimFloat(*est.JobHours) + " hours for the job on " + catalog.Plural(e.nodes, "VM", "VMs")
		switch {
		case est.CostPerMillionTokens != nil:
			s += ", " + money(*est.JobCostUSD) + " USD in all (" + money(*est.CostPerMillionTokens) + " USD per million tokens)"
		case est.JobCostUSD != nil:
			s += ", " + money(*est.JobCostUSD) + " USD in all (" + trimFloat(*est.SamplesPerSecond) + " samples per second)"
		}
		out = append(out, s+", at "+trimFloat(est.Efficiency*100)+"% MFU.")
	case est.TokensPerSecond != nil:
		s := "Estimated " + groupInt(*est.TokensPerSecond) + " output tokens per second for the service"
		switch {
		case est.CostPerMillionTokens != nil && n.serve.loadTPS > 0:
			s += " (its capacity); at the load of " + loadFigure(n.serve.loadTPS) + ", " + money(*est.CostPerMillionTokens) + " USD per million output tokens"
		case est.CostPerMillionTokens != nil:
			s += ", " + money(*est.CostPerMillionTokens) + " USD per million output tokens"
		}
		out = append(out, s+".")
	case est.RelativeThroughput != nil:
		out = append(out, "Throughput by "+n.hpc.Bound+": "+percent(*est.RelativeThroughput)+" of the best layout for this request.")
		out = append(out, hpcEstimateReasons(n, e, est)...)
	}
	return out
}

// estimateWarnings flags a default deadline the layout cannot meet and a
// size without the facts to estimate.
func estimateWarnings(n *requirements, e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	if est.JobHours == nil && est.TokensPerSecond == nil && est.RelativeThroughput == nil {
		return []string{"The catalog has no throughput figures for this size, so its time and cost per job are not estimated; compare it on price per hour only."}
	}
	if est.TimeToFirstTokenMs != nil && e.slowDefault {
		return []string{slowDefaultWarning(n, est)}
	}
	if est.JobHours != nil && est.RelativeThroughput == nil && !n.train.deadlineStated && *est.JobHours > n.train.Deadline {
		return []string{"The job runs about " + trimFloat(*est.JobHours) + " hours on " + catalog.Plural(e.nodes, "VM", "VMs") + ", beyond the " + itoa(DefaultDeadlineHours) + "-hour default, " + lateWhy(n, e) + "; set deadline_hours to accept it, or choose a size with InfiniBand or faster GPUs."}
	}
	return nil
}

// lateWhy says what keeps a job past the default deadline on its VMs: the
// nodes setting, max_total_price_per_hour, the quota (which may hold not
// even the smallest layout), or the most VMs one job may span.
func lateWhy(n *requirements, e *eval) string {
	switch {
	case n.fixedNodes > 0:
		return "on the VMs the nodes setting fixes"
	case e.budgetVMs > 0:
		return "the most VMs max_total_price_per_hour pays for (meeting it takes " + catalog.Plural(e.budgetVMs, "VM", "VMs") + ")"
	case e.quota.deadlineVMs > 0 && e.quota.status == QuotaInsufficient:
		return "on the fewest VMs that hold the job, more than the quota leaves room for"
	case e.quota.deadlineVMs > 0:
		return "the most VMs the quota leaves room for"
	}
	return "even on the most VMs one job may span here"
}

// slowDefaultWarning says that a served layout misses the default latency
// targets (both, where the request states neither; else the one it does
// not state), with its figures, and the settings that accept it or require
// a faster layout.
func slowDefaultWarning(n *requirements, est *Estimate) string {
	first, per := *est.TimeToFirstTokenMs, *est.TimePerOutputTokenMs
	times := fmt.Sprintf("A request's first token comes after about %s ms and then one every %s ms", groupInt(first), trimFloat(per))
	switch {
	case n.serve.maxTTFT <= 0 && n.serve.maxTPOT <= 0:
		return fmt.Sprintf("%s, beyond the default targets of %s ms and %s ms (MLPerf Inference's server latency limits); set max_time_to_first_token_ms and max_time_per_output_token_ms to accept it, or to require a faster layout.",
			times, groupInt(DefaultTimeToFirstTokenMs), groupInt(DefaultTimePerOutputTokenMs))
	case n.serve.maxTTFT <= 0:
		return fmt.Sprintf("%s: the first token is beyond the default target of %s ms (MLPerf Inference's server latency limit), which applies where max_time_to_first_token_ms is not set; set it to accept this, or to require a faster layout.",
			times, groupInt(DefaultTimeToFirstTokenMs))
	}
	return fmt.Sprintf("%s: each token is beyond the default target of %s ms (MLPerf Inference's server latency limit), which applies where max_time_per_output_token_ms is not set; set it to accept this, or to require a faster layout.",
		times, groupInt(DefaultTimePerOutputTokenMs))
}

// hpcAssumptions says how a layout's hpc or htc throughput was derived.
func hpcAssumptions(n *requirements, e *eval, f figures) []string {
	if n.hpc.Bound == BoundMemoryCapacity {
		return []string{fmt.Sprintf("Bound: %s (hpc_bound); the job's memory fits on %s, and the fewest VMs that hold it win: 1 / %d = %s, relative to the best layout of the request.",
			n.hpc.Bound, catalog.Plural(e.nodes, "VM", "VMs"), e.nodes, strconv.FormatFloat(round4(f.hpcRate), 'f', -1, 64))}
	}
	return []string{fmt.Sprintf("Bound: %s (hpc_bound); %d VMs × %s %s per VM × %s%% parallel efficiency = %s, relative to the best layout of the request.",
		n.hpc.Bound, e.nodes, trimFloat(f.hpcRate/float64(e.nodes)/f.eff), n.hpc.Unit(), trimFloat(f.eff*100), trimFloat(f.hpcRate))}
}

// hpcEstimate fills an hpc or htc estimate's hours, cost and licences.
// The hours are reported to HPCJobHoursDigits significant digits, and
// the costs are those hours × the hourly prices, so that the documented
// formulas (job_hours × (total_price_per_hour + licences per hour))
// reproduce the reported costs to the cent.
func hpcEstimate(n *requirements, e *eval, f figures, est *Estimate) {
	lic := n.hpc.licensePerHour(e.in, e.nodes)
	if f.hpcHours > 0 {
		hours := roundSignificant(f.hpcHours, HPCJobHoursDigits)
		est.JobHours = ptr(hours)
		if n.hpc.hasLicense {
			est.LicenseCostUSD = ptr(catalog.RoundFigure(hours * lic))
		}
		if e.hasPrice {
			est.JobCostUSD = ptr(catalog.RoundFigure(hours * (e.total + lic)))
		}
		return
	}
	if n.hpc.hasLicense {
		est.LicenseCostPerHour = ptr(round4(lic))
	}
}

// hpcEstimateReasons puts an hpc or htc estimate's hours, cost and
// licences in sentences.
func hpcEstimateReasons(n *requirements, e *eval, est *Estimate) []string {
	if est.JobHours == nil && est.LicenseCostPerHour == nil {
		return nil
	}
	var out []string
	cores := groupInt(n.hpc.CoresUsed(&e.in.Hardware, e.nodes))
	if est.JobHours != nil {
		s := fmt.Sprintf("Estimated %s hours for the job on %s (%s cores), from the reference run's %s hours", strconv.FormatFloat(*est.JobHours, 'f', -1, 64), catalog.Plural(e.nodes, "VM", "VMs"), cores, trimFloat(n.hpc.ref.hours))
		if est.JobCostUSD != nil {
			s += ", " + money(*est.JobCostUSD) + " USD in all"
		}
		if est.LicenseCostUSD != nil {
			s += ", " + money(*est.LicenseCostUSD) + " USD of it licences"
		}
		out = append(out, s+".")
	}
	if est.LicenseCostPerHour != nil {
		out = append(out, fmt.Sprintf("Licences: %s cores × %s USD per core-hour = %s USD per hour, added to the price per unit of throughput the ranking compares.", cores, trimFloat(n.hpc.license), money(*est.LicenseCostPerHour)))
	}
	return out
}
