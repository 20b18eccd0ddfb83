// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file asks the performance models (internal/perfmodel) how fast a
// layout trains, serves or solves, and so what the job costs: the work
// each request defines, and a layout's figures as the ranking compares
// and the estimate reports them.

import (
	"math"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// training is the work of a training or fine-tuning job as the training
// model times it, with where its tokens came from and whether the
// deadline was stated.
type training struct {
	perfmodel.TrainingWork
	budget         tokenSource
	deadlineStated bool
}

// tokenSource is where a training job's token budget comes from.
type tokenSource uint8

const (
	tokensNone       tokenSource = iota // no work the model times
	tokensStated                        // tokens_billion
	tokensChinchilla                    // ChinchillaTokensPerParameter per parameter
	tokensFineTuning                    // DefaultFineTuningTokensBillion
)

// trainingOf derives the work of a training or fine-tuning job of a
// language model on GPUs; ethernet is whether one job's VMs talk without
// InfiniBand.
func trainingOf(n *need, req Request, ethernet bool) training {
	t := training{deadlineStated: req.DeadlineHours != nil}
	if n.hasModel && n.fit.category == catalog.CategoryGPU && (n.workload == WorkloadTraining || n.workload == WorkloadFineTuning) && n.mi.Generative() {
		var tokensB float64
		tokensB, t.budget = tokenBudgetOf(n, req)
		t.TrainingWork = perfmodel.LanguageModelWork(&n.mi, tokensB)
	}
	if n.hasModel {
		t.ComputePrec = perfmodel.ComputePrecision(n.precision, n.mi.Method)
	}
	t.Deadline, t.GPUs, t.GPUMemNeed, t.Ethernet = valueOr(req.DeadlineHours, DefaultDeadlineHours), n.gpus, n.gpuMemNeed, ethernet
	return t
}

// tokenBudgetOf is the tokens a training or fine-tuning job processes, in
// billions, and where they come from: tokens_billion, else the default
// budget of the workload.
func tokenBudgetOf(n *need, req Request) (float64, tokenSource) {
	switch {
	case req.TokensBillion != nil:
		return *req.TokensBillion, tokensStated
	case n.workload == WorkloadTraining:
		return ChinchillaTokensPerParameter * n.mi.Params, tokensChinchilla
	}
	return DefaultFineTuningTokensBillion, tokensFineTuning
}

// hpcWork is an hpc or htc job as the per-VM model compares it, with the
// team's own measurements: a per-core licence and a reference run.
type hpcWork struct {
	perfmodel.HPCJob
	// license is license_cost_per_core_hour (hasLicense: it was set), ref
	// the reference run (nil: none; set by resolveReference).
	license    float64
	hasLicense bool
	ref        *hpcReference
}

func hpcWorkOf(req Request) hpcWork {
	h := hpcWork{}
	switch req.Workload {
	case WorkloadHPC:
		h.HPCJob = perfmodel.HPCJob{Bound: orDefault(req.HPCBound, BoundMemoryBandwidth), Coupled: true}
	case WorkloadHTC:
		h.HPCJob = perfmodel.HPCJob{Bound: orDefault(req.HPCBound, BoundCompute)}
	default:
		return h
	}
	h.Cores = valueOr(req.Cores, 0)
	h.Measured, h.MeasuredAt = valueOr(req.ParallelEfficiency, 0), valueOr(req.Nodes, 0)
	h.license, h.hasLicense = valueOr(req.LicenseCostPerCoreHour, 0), req.LicenseCostPerCoreHour != nil
	return h
}

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
	// Serving: the sequences one copy decodes together, its step model,
	// its output tokens per second, and the service's.
	batch        int64
	copy         perfmodel.CopySpeed
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
		f.work, f.hours = workTraining, n.train.Hours(hw, e.nodes)
		if f.known = f.hours > 0; f.known {
			f.mfu = n.train.MFU(hw, e.nodes, !e.ibNeeded)
			f.rate, f.gpusUsed = n.train.Rate(hw, e.nodes), n.train.GPUsUsed(hw, e.nodes)
			f.peak, f.oneGPU = in.PeakTFLOPS(n.train.ComputePrec), n.train.UsesOneGPU(hw, e.nodes)
		}
	case e.gl.OK && n.job.KVPerSeq > 0 && in.IsGPU:
		f.work, f.batch = workServing, n.serve.batch(&e.gl)
		f.copy = n.serve.Speed(hw, e.gl.TP, e.gl.PP, f.batch)
		f.perCopy = f.copy.TPS
		f.known, f.tps = f.perCopy > 0, f.perCopy*float64(e.gl.Copies)
	case n.cpuServed(in):
		// A small model on a CPU size: one copy on each VM; without the
		// catalog's STREAM and FP64 figures, no estimate.
		f.batch = n.cpuBatch(e.nodes)
		f.copy = n.serve.CPUSpeed(hw, f.batch)
		if f.perCopy = f.copy.TPS; f.perCopy > 0 {
			f.work, f.known, f.cpu, f.tps = workServing, true, true, f.perCopy*float64(e.nodes)
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
		est.JobHours, est.Efficiency = ptr(catalog.Round2(f.hours)), f.mfu
		est.TokensPerSecond = ptr(math.Round(n.train.TokensB * 1e9 / (f.hours * 3600)))
		if e.hasPrice {
			cost := f.hours * e.total
			est.JobCostUSD = ptr(catalog.Round2(cost))
			est.CostPerMillionTokens = ptr(round4(cost / (n.train.TokensB * 1e3)))
		}
	case workServing:
		est.TokensPerSecond, est.Efficiency = ptr(math.Round(f.tps)), perfmodel.InferenceMBU
		if f.cpu {
			est.Efficiency = perfmodel.CPUStreamEfficiency
		}
		est.TimeToFirstTokenMs = ptr(round1(f.copy.TTFT * 1000))
		est.TimePerOutputTokenMs = ptr(round1(f.copy.TPOT * 1000))
		est.RequestsPerSecond = ptr(round4(f.tps / n.serve.Output))
		if e.hasPrice {
			est.CostPerMillionTokens = ptr(round4(e.total / (f.tps * 3600) * 1e6))
		}
	case workHPC:
		est.RelativeThroughput, est.Efficiency = ptr(round4(f.relative)), f.eff
		hpcEstimate(n, e, f, est)
	}
	return est
}

// workDefined reports whether the request defines work the performance
// models can time: training or fine-tuning FLOPs, a served language model,
// or an HPC bound.
func (n *requirements) workDefined() bool {
	return n.train.FLOPs > 0 || n.serviceTimed() || n.hpc.Bound != ""
}

// speedOf is a layout's speed, what the time component compares: 1 / job
// hours (training, fine-tuning), output tokens per second each sequence
// sees at the stated concurrency (inference), or the bound's throughput
// (hpc, htc). 0 when the request defines no work or the catalog has no
// figure for the size.
func speedOf(n *requirements, e *eval) float64 {
	in := e.in
	switch {
	case !in.known:
	case n.train.FLOPs > 0:
		if in.IsGPU {
			if h := n.train.Hours(&in.Hardware, e.nodes); h > 0 {
				return 1 / h
			}
		}
	case n.serviceTimed():
		// A service runs whether or not it is busy: its cost is the price
		// of the layout sized for the stated concurrency and
		// tokens_per_second, and its speed what each conversation sees,
		// output tokens per second per sequence (1 ÷ its time per output
		// token; the score compares its latency, latencyScore).
		if e.tpot > 0 {
			return 1 / e.tpot // timed once, by timeService
		}
	case n.hpc.Bound != "":
		r, _ := n.hpc.Rate(&in.Hardware, e.nodes)
		return r
	}
	return 0
}
