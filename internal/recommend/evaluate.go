// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the evaluation step: each size's facts for the request
// (family fit, support, price, layout, speed, cost and job sizing), every
// constraint it fails, and scale up before scale out.

import (
	"math"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
)

func supportStatus(s *catalog.SKU, target string, kaito *catalog.KAITO) string {
	if deploy.Unsupported(s, target) != "" {
		return catalog.SupportUnsupported
	}
	switch target {
	case TargetAKS:
		return s.Support.AKS.Status
	case TargetKAITO:
		// KAITO's SKU table, on AKS; the AKS add-on takes no AMD GPU size
		// (decision D78).
		if !kaito.TakesInstanceType(s.Name) || s.GPU == nil || strings.EqualFold(s.GPU.Vendor, catalog.VendorAMD) {
			return catalog.SupportUnsupported
		}
		return s.Support.AKS.Status
	case TargetCycleCloud:
		return s.Support.CycleCloud.Status
	case TargetAzureML:
		return s.Support.AzureML.Status
	case TargetBatch:
		return s.Support.Batch.Status
	}
	return catalog.SupportSupported
}

// evaluate derives one size's facts for the request: family fit, target
// support, price, layout (with the constraints layout finds) and job
// sizing. check then runs the other constraints over every size.
func evaluate(n *requirements, in *sizeInfo, e *eval) {
	*e = eval{in: in, preferredRank: -1, sizing: -1, nativePrec: true}
	s := in.sku

	e.retiringSoon = in.hasRetire && !in.retire.After(n.warnCutoff) // as SKU.RetiresWithin: the horizon day counts
	e.fit, e.fallback, e.familyOK = n.familyFit(s.Family)
	e.support = supportStatus(s, n.target, n.kaito)

	layout(n, e)
	pricePerVM(n, e)
	e.unusedRDMA = !e.ibNeeded && s.Network.RDMA && n.interconnect == InterconnectAuto
	timeService(n, e)
	e.speed = speedOf(n, e)
	e.hasFacts = e.speed > 0
	e.lacksFacts = n.workDefined() && !e.hasFacts
	e.lateDefault = e.hasFacts && n.train.FLOPs > 0 && !n.train.deadlineStated && 1/e.speed > n.train.Deadline
	costOf(n, e)
	sizingOf(n, e)
	if n.hasModel && in.IsGPU {
		if n.workload == WorkloadInference {
			e.nativePrec = in.NativePrecision(n.precision)
		} else {
			e.nativePrec = in.RunsTraining(n.train.ComputePrec)
		}
	}
}

// timeService times a served model's layout once (servicePointOf): its
// latencies at the load, its output tokens per second over all its copies,
// and whether it misses the default targets. Nothing when the request is
// no service or the catalog lacks the size's figures.
func timeService(n *requirements, e *eval) {
	if !e.in.known || !n.serviceTimed() {
		return
	}
	pt, copies := n.servicePointOf(e)
	if c := pt.atLoad; c.TPOT > 0 && !math.IsInf(c.TTFT, 0) {
		e.pt, e.ptCopies = pt, copies
		e.ttft, e.tpot, e.serviceTPS = c.TTFT, c.TPOT, pt.capacity.TPS*float64(copies)
		e.slowDefault = n.serve.missesDefaultTargets(c)
	}
}

// pricePerVM is the size's price in the region it is placed in
// (placedIn); spot where known.
func pricePerVM(n *requirements, e *eval) {
	spot := n.spotOn(e.in)
	e.lacksSpot = n.spot
	region := placedIn(n, e)
	p, priced := e.in.price(region)
	if !priced {
		return
	}
	e.price, e.hasPrice, e.priceRegion = p.USDPerHour, true, region
	if spot && p.SpotUSDPerHour != nil {
		e.price, e.spot, e.spotDate = *p.SpotUSDPerHour, true, p.SpotDate
	}
	e.lacksSpot = n.spot && !e.spot
	e.noSpot = spot && !e.spot && p.NoSpot
}

// costOf is what the layout costs per hour, and what cost is compared on.
func costOf(n *requirements, e *eval) {
	in := e.in
	if e.hasPrice {
		e.total = e.price * float64(e.nodes)
		e.costKey = e.total
		switch {
		case e.hasFacts && n.serviceTimed() && e.slowDefault:
			// A service that misses its default latency targets serves its
			// requests slower than asked: as a training job past the default
			// deadline, it is compared on the price of its work, per output
			// token.
			e.costKey = e.total / e.serviceTPS
		case e.hasFacts && n.serviceTimed():
			// A service: the price of the layout sized for its demand.
		case e.hasFacts:
			// The job's cost (training: price × hours), or the price of
			// its work (per unit of HPC throughput, with its licences).
			lic := n.hpc.licensePerHour(in, e.nodes)
			e.costKey = (e.total + lic) / e.speed
			if lic > 0 {
				e.licShare = lic / (e.total + lic)
			}
		case n.train.proxy && in.IsGPU:
			// Training not timed (no work per sample or no samples): the
			// price of the FLOP/s the training model gives the layout, so
			// that price alone never decides.
			if r := n.train.ProxyRate(&in.Hardware, e.nodes); r > 0 {
				e.costKey = e.total / r
			}
		case (n.workload == WorkloadHTC || n.workload == WorkloadHPC) && n.cores == 0 && n.fixedNodes == 0 && in.VCPUs > 0:
			e.costKey = e.price / float64(in.VCPUs)
		}
	}
}

// sizingOf is the job sizing: the share of what the VMs provide that the
// job uses, and the GPUs a job on one GPU leaves idle.
func sizingOf(n *requirements, e *eval) {
	in := e.in
	fn := float64(e.nodes)
	switch {
	case !in.known:
	case n.gpuMemNeed > 0 && in.gpuMem > 0 && e.gl.Capacity > 0:
		e.sizing = e.gl.Used / e.gl.Capacity
		e.memBand = true
	case n.gpus > 0 && in.GPUCount > 0:
		e.sizing = float64(n.gpus) / (fn * in.GPUCount)
	case n.cores > 0 && in.VCPUs > 0:
		e.sizing = float64(n.cores) / (fn * float64(in.VCPUs))
	case n.sysMemNeed > 0 && in.memGiB > 0:
		e.sizing = n.sysMemNeed / (fn * in.memGiB)
	}
	if e.sizing > 1 {
		e.sizing = 1
	}
	if in.IsGPU && ((n.train.FLOPs > 0 && e.speed > 0) || n.train.proxy) {
		// A timed training job (or one ranked by its rate per USD): what
		// counts is the GPUs it keeps busy (its cost already prices the
		// rest), not the share of their memory it fills. A job on one GPU
		// of a multi-GPU VM leaves the others idle.
		e.sizing, e.memBand = n.train.GPUsUsed(&in.Hardware, e.nodes)/math.Max(in.GPUCount, 1), false
		if in.GPUCount < 1 {
			e.sizing = 1
		}
	}
	if in.known && in.IsGPU && in.GPUCount > 1 && e.nodes == 1 && n.gpus <= 1 &&
		n.gpuMemNeed > 0 && n.gpuMemNeed <= in.UnitMemGiB*n.job.Share && (n.train.FLOPs <= 0 || n.train.OneGPUSuffices(&in.Hardware, 1)) {
		e.gpusNeeded = 1
		if n.serviceTimed() && n.job.KVPerSeq > 0 {
			// A served model: the GPUs that copies of one GPU each need
			// for the demand; none idle when only a split serves it.
			e.gpusNeeded = float64(e.gl.oneGPUCopies)
			if e.gpusNeeded == 0 {
				e.gpusNeeded = in.GPUCount
			}
		}
		e.idleGPUShare = math.Max(0, in.GPUCount-e.gpusNeeded) / in.GPUCount
	}
}

// scaleUp removes layouts where one job (one copy of the model, for
// inference) spans several VMs when some size holds it on one VM (scale up
// before scale out), except sizes named in prefer and layouts whose job
// fits on one VM of the size but a stated deadline scaled out
// (forDeadline): a later deadline would otherwise remove a size that
// meets it on fewer VMs. Copies of a model on separate VMs (replicas) are
// not such a layout.
func scaleUp(n *requirements, evals []eval) {
	if !n.scaleUpApplies() {
		return
	}
	// A size that holds the job on one VM but runs past the default
	// deadline does not count: scaling out is then what meets it.
	if !slices.ContainsFunc(evals, func(e eval) bool { return e.fails == 0 && !e.spans && !e.lateDefault }) {
		return
	}
	for i := range evals {
		if evals[i].fails == 0 && evals[i].spans && evals[i].preferredRank < 0 && !evals[i].forDeadline {
			evals[i].fails |= 1 << cScaleUp
		}
	}
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
			if h, ok := n.train.Hours(&in.Hardware, e.nodes); ok {
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
		// With a reference run, the job's hours (for memory_capacity,
		// whose throughput counts only the VMs, the hours its memory
		// bandwidth gives), so that cost and time compare whole jobs.
		if h := n.hpc.jobHours(in, e.nodes); h > 0 {
			return 1 / h
		}
		r, _ := n.hpc.Rate(&in.Hardware, e.nodes)
		return r
	}
	return 0
}

// evaluateAll evaluates every size for the request: its facts and layout,
// every constraint it fails, whether prefer names it, and scale up before
// scale out, which compares the sizes.
func evaluateAll(n *requirements, cat *catalog.Catalog, p *prepared, evals []eval) {
	for i := range p.sizes {
		evaluate(n, &p.sizes[i], &evals[i])
	}
	for rank, name := range n.req.Prefer {
		if s, ok := cat.Lookup(name); ok {
			for i := range evals {
				if evals[i].in.sku == s && evals[i].preferredRank < 0 {
					evals[i].preferredRank = rank
				}
			}
		}
	}
	check(n, evals) // every constraint, on every size, for the nearest miss
	scaleUp(n, evals)
}
