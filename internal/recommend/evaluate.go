// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"math"
	"math/bits"
	"slices"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// eval is one size checked against one request.
type eval struct {
	in    *sizeInfo
	fails uint64 // bit set of failed constraints

	nodes      int64
	spans      bool // one job (one copy of the model, for inference) spans several VMs
	ibNeeded   bool
	sizing     float64 // share used, 0..1; -1 when unknown
	memBand    bool    // sizing is GPU memory use, scored on the target band
	pcieTP     bool    // a copy of the model is split over GPUs without NVLink
	timeDriven bool    // the deadline, not memory, set the VM count
	rackFill   int64   // VMs the layout added to fill its last rack; 0 when none
	gl         gpuLayout

	price, total float64
	hasPrice     bool
	spot         bool
	lacksSpot    bool // spot = true asked for, and the size has no spot price: listed after those with one
	spotDate     string
	priceRegion  string
	region       string     // the region the size is placed in (placeSize); "" when the request names none, or none of its regions offers the size
	quota        quotaCheck // the layout against the usage files (limitByQuota); zero without them
	costKey      float64    // what cost is compared on: the job's cost or the price of its work (a late service's, per output token); else total, or per core
	speed        float64    // the layout's speed: 1 / job hours, tokens per second, or HPC throughput; 0 unknown
	hasFacts     bool       // speed is known (the request defines work and the catalog has the size's figures)
	lacksFacts   bool       // the request defines work and speed is not known: ranked after the others
	lateDefault  bool       // runs past the default deadline: ranked after the layouts that meet it
	slowDefault  bool       // a service that misses the default latency targets: ranked after the layouts that meet them
	ttft, tpot   float64    // a timed service's mean time to first token and per output token, seconds; 0 otherwise
	serviceTPS   float64    // a timed service's output tokens per second over all its copies

	familyOK      bool    // the family serves the workload
	fit           float64 // family component: 1, 0.5, or 0 for fallback
	fallback      bool    // a fallback family: listed after the others
	support       string  // target support status
	retiringSoon  bool
	nativePrec    bool
	unusedRDMA    bool
	idleGPUShare  float64 // the job fits in one GPU: share of the size's GPUs left idle
	preferredRank int     // index in prefer, -1 when not named
}

// late reports whether the layout misses a default target (the deadline
// or the latency targets), which ranks it after those that meet theirs.
func (e *eval) late() bool { return e.lateDefault || e.slowDefault }

func (e *eval) failed(c constraint) bool { return e.fails&(1<<c) != 0 }

// fail records that the size fails c.
func (e *eval) fail(c constraint) { e.fails |= 1 << c }

// firstFail is the constraint a rejected size is counted under.
func (e *eval) firstFail() constraint { return constraint(bits.TrailingZeros64(e.fails)) }

// familyFit returns the family component and whether the family is a
// fallback; ok is false when the family does not serve the workload.
func (n *requirements) familyFit(fam string) (fit float64, fallback, ok bool) {
	if slices.Contains(n.fit.preferred, fam) {
		return 1, false, true
	}
	if slices.Contains(n.fit.acceptable, fam) {
		return 0.5, false, true
	}
	if slices.Contains(n.fit.fallback, fam) {
		return 0, true, true
	}
	return 0, false, false
}

func supportStatus(s *catalog.SKU, target string) string {
	switch target {
	case TargetAKS:
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

func ceilDiv(a, b float64) int64 {
	if b <= 0 {
		return math.MaxInt32
	}
	q := math.Ceil(a/b - 1e-9)
	if q > math.MaxInt32 {
		return math.MaxInt32
	}
	return max(int64(q), 1)
}

// evaluate derives one size's facts for the request: family fit, target
// support, price, layout (with the constraints layout finds) and job
// sizing. check then runs the other constraints over every size.
func evaluate(n *requirements, in *sizeInfo, e *eval) {
	*e = eval{in: in, preferredRank: -1, sizing: -1, nativePrec: true}
	s := in.sku

	e.retiringSoon = in.hasRetire && !in.retire.After(n.warnCutoff) // as SKU.RetiresWithin: the horizon day counts
	e.fit, e.fallback, e.familyOK = n.familyFit(s.Family)
	e.support = supportStatus(s, n.target)

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

// timeService times a served model's layout once (served): its latencies,
// its output tokens per second over all its copies, and whether it misses
// the default targets. Nothing when the request is no service or the
// catalog lacks the size's figures.
func timeService(n *requirements, e *eval) {
	if !e.in.known || !n.serviceTimed() {
		return
	}
	if c, copies := n.served(e); c.TPOT > 0 {
		e.ttft, e.tpot, e.serviceTPS = c.TTFT, c.TPOT, c.TPS*float64(copies)
		e.slowDefault = n.serve.missesDefaultTargets(c)
	}
}

// pricePerVM is the size's price: its region's (placeSize), or without
// region and regions the lowest over all regions; spot where known.
func pricePerVM(n *requirements, e *eval) {
	in, s := e.in, e.in.sku
	if n.regionScoped() {
		if p, priced := s.Prices[e.region]; priced && e.region != "" {
			e.price, e.hasPrice, e.priceRegion = p.USDPerHour, true, e.region
			if n.spot && p.SpotUSDPerHour != nil {
				e.price, e.spot = *p.SpotUSDPerHour, true
			}
		}
	} else if n.spot && in.minSpotRegion != "" {
		e.price, e.hasPrice, e.spot, e.priceRegion = in.minSpot, true, true, in.minSpotRegion
	} else if in.nPriced > 0 {
		e.price, e.hasPrice, e.priceRegion = in.minPrice, true, in.minPriceRegion
	}
	e.lacksSpot = n.spot && !e.spot
	if e.spot {
		e.spotDate = s.Prices[e.priceRegion].SpotDate
	}
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
			e.costKey = (e.total + n.hpc.licensePerHour(in, e.nodes)) / e.speed
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
	if n.train.FLOPs > 0 && in.IsGPU && e.speed > 0 {
		// A timed training job: what counts is the GPUs it keeps busy
		// (its job cost already prices the rest), not the share of their
		// memory it fills. A job on one GPU of a multi-GPU VM leaves the
		// others idle.
		e.sizing, e.memBand = n.train.GPUsUsed(&in.Hardware, e.nodes)/math.Max(in.GPUCount, 1), false
		if in.GPUCount < 1 {
			e.sizing = 1
		}
	}
	if in.known && in.IsGPU && in.GPUCount > 1 && e.nodes == 1 && n.gpus <= 1 &&
		n.gpuMemNeed > 0 && n.gpuMemNeed <= in.UnitMemGiB*n.job.Share && (n.train.FLOPs <= 0 || n.train.UsesOneGPU(&in.Hardware, 1)) {
		e.idleGPUShare = (in.GPUCount - 1) / in.GPUCount
	}
}

// layout finds the fewest VMs of the size that hold the job, and whether
// they need InfiniBand. A job that does not fit on the VMs allowed fails
// the constraint that set the VM count (gpu_memory or gpu_memory_per_gpu,
// gpus, cores, system_memory), or nodes when a fixed nodes setting is
// above what an InfiniBand job can use.
func layout(n *requirements, e *eval) {
	vc := vmCount{nodes: 1, driver: numConstraints}
	memLaid := false
	if e.in.known {
		memLaid = layOutGPUMemory(n, e, &vc)
		countVMs(n, e, &vc, memLaid)
		layOutCPUService(n, e, &vc)
	}
	least := vc.nodes // the smallest layout that holds the job
	scaleForDeadline(n, e, &vc)
	placeSize(n, e, quotaVMs(n, vc, least))
	limitByQuota(n, e, &vc, least)
	finishLayout(n, e, vc, memLaid)
}

// vmCount is the VMs a layout takes so far and the constraint that set the
// count (numConstraints: none).
type vmCount struct {
	nodes  int64
	driver constraint
}

func (v *vmCount) need(k int64, c constraint) {
	if k > v.nodes {
		v.nodes, v.driver = k, c
	}
}

// layOutGPUMemory lays the job's GPU memory out on the size (fitGPU), with
// the copies tokens_per_second needs, and reports whether it fits. The VM
// limits depend on InfiniBand: copies of a model on separate VMs
// (replicas) need none; a job that spans VMs needs it unless interconnect
// is "any", so a size without it holds such a job on one VM or not at all
// (counted under the memory constraints, not interconnect).
func layOutGPUMemory(n *requirements, e *eval, vc *vmCount) bool {
	in := e.in
	if n.gpuMemNeed <= 0 {
		return false
	}
	if !in.IsGPU || in.gpuMem <= 0 {
		e.fail(cGPUMemory)
		return false
	}
	limit, span := int64(MaxNodes), n.spanFor(in)
	if !n.job.TensorParallel {
		limit = span
	}
	gl := fitGPU(&n.job, in, limit, span, n.fixedNodes, 0)
	switch {
	case gl.TotalFail && !gl.OK:
		e.gl = gl
		e.fail(cGPUMemory)
		return false
	case !gl.OK:
		e.gl = gl
		e.fail(cGPUMemoryPerGPU)
		return false
	}
	memNodes := gl.Nodes
	if n.job.TensorParallel && n.job.KVPerSeq > 0 {
		gl = n.searchServing(in, gl, limit, span)
		memNodes = min(memNodes, gl.memNodes)
		if gl.missTTFT {
			e.fail(cMaxTimeToFirstToken)
		}
		if gl.missTPOT {
			e.fail(cMaxTimePerOutputToken)
		}
	}
	vc.need(memNodes, cGPUMemory)
	vc.need(gl.Nodes, cTokensPerSecond)
	e.gl = gl
	return true
}

// servingCopies is the layout gl with the copies a service needs for
// tokens_per_second: whole groups of copies, each copy running its batch
// (its weights and the batch's KV cache).
func servingCopies(n *requirements, in *sizeInfo, gl gpuLayout, want int64) gpuLayout {
	groups := (want + gl.PerGroup - 1) / gl.PerGroup
	gl.Copies, gl.Replicas, gl.Nodes = groups*gl.PerGroup, groups*gl.PerGroup, groups*gl.PP
	gl.Capacity = float64(gl.Nodes) * float64(in.GPUUnits) * in.UnitMemGiB * n.job.Share
	b := float64(n.serve.batch(&gl))
	gl.Used = float64(want) * (n.job.Shard + b*n.job.KVPerSeq*float64(gl.TP)/float64(n.job.KVDivisor(gl.TP)))
	return gl
}

// countVMs counts the VMs the gpus, cores and system memory settings need.
func countVMs(n *requirements, e *eval, vc *vmCount, memLaid bool) {
	in := e.in
	if n.gpus > 0 {
		if !in.IsGPU || in.GPUCount < 1 {
			e.fail(cGPUs)
		} else {
			vc.need(ceilDiv(float64(n.gpus), in.GPUCount), cGPUs)
		}
	}
	if n.cores > 0 {
		vc.need(ceilDiv(float64(n.cores), float64(in.VCPUs)), cCores)
	}
	if n.sysMemNeed > 0 {
		if in.IsGPU && memLaid && n.job.TensorParallel {
			// Per VM: its share of one copy of the weights.
			if n.sysMemNeed/float64(e.gl.PP) > in.memGiB+1e-9 {
				e.fail(cSystemMemory)
			}
		} else {
			vc.need(ceilDiv(n.sysMemNeed, in.memGiB), cSystemMemory)
		}
	}
}

// scaleForDeadline scales training out to meet the deadline, within the
// VMs one job may span; a stated deadline that cannot be met removes the
// size.
func scaleForDeadline(n *requirements, e *eval, vc *vmCount) {
	in := e.in
	if n.train.FLOPs <= 0 || !in.known || !in.IsGPU || e.fails&memoryConstraints != 0 {
		return
	}
	if n.fixedNodes > 0 {
		if h := n.train.Hours(&in.Hardware, n.fixedNodes); n.train.deadlineStated && h > n.train.Deadline {
			e.fail(cDeadline)
		}
		return
	}
	if k := n.train.DeadlineNodes(&in.Hardware, vc.nodes); k > vc.nodes {
		span := n.deadlineSpan(in)
		switch {
		case k <= span:
			vc.need(k, cDeadline)
		case n.train.deadlineStated:
			e.fail(cDeadline)
		default:
			vc.need(span, cDeadline) // runs longer, with a warning
		}
	}
}

// finishLayout settles the VM count (the nodes setting, when given, and
// the most VMs a job may use), the copies on VMs the gpus setting added,
// whether one job spans VMs and whether it needs InfiniBand.
func finishLayout(n *requirements, e *eval, vc vmCount, memLaid bool) {
	in := e.in
	e.timeDriven = vc.driver == cDeadline
	nodes := vc.nodes
	if n.fixedNodes > 0 {
		if nodes > n.fixedNodes {
			e.fail(vc.driver)
		}
		nodes = n.fixedNodes
	}
	e.spans = nodes > 1
	if memLaid && n.job.TensorParallel {
		e.spans = e.gl.PP > 1
	}
	if n.cpuServed(in) {
		e.spans = false // one copy of the small model on each VM
	}
	e.ibNeeded = n.ibNeeded(e.spans)
	if whole := wholeRacks(in, nodes); e.spans && e.ibNeeded && n.fixedNodes == 0 && whole > nodes {
		e.rackFill, nodes = whole-nodes, whole
	}
	e.nodes = nodes
	if memLaid && n.job.TensorParallel && nodes > e.gl.Nodes && e.gl.Replicas > 0 {
		// gpus or whole racks asked for more VMs than the memory did:
		// more copies, each on its pp VMs.
		switch {
		case e.gl.PP == 1:
			e.gl.Replicas = nodes * (in.GPUUnits / e.gl.TP)
		case e.rackFill > 0:
			e.gl.Replicas = nodes / e.gl.PP * e.gl.PerGroup
		}
		e.gl.Copies = e.gl.Replicas
	}
	e.pcieTP = memLaid && n.job.TensorParallel && e.gl.TP > 1 && !in.Linked
	limit := int64(MaxNodes)
	if e.ibNeeded {
		limit = MaxNodesRDMA
	}
	if nodes > limit {
		if n.fixedNodes > 0 {
			e.fail(cNodes)
		} else if vc.driver < numConstraints {
			e.fail(vc.driver)
		}
	}
}

// wholeRacks is nodes rounded up to the whole racks a size is allocated
// in (nodes itself for sizes placed one VM at a time).
func wholeRacks(in *sizeInfo, nodes int64) int64 {
	r := max(in.rackVMs, 1)
	return (nodes + r - 1) / r * r
}

// spanFor is the most VMs one job (one copy of the model, for inference)
// may span on a size: MaxNodes when it needs no InfiniBand, else
// MaxNodesRDMA on an RDMA size and one VM on the others.
func (n *requirements) spanFor(in *sizeInfo) int64 {
	switch {
	case !n.ibNeeded(true):
		return MaxNodes
	case in.sku.Network.RDMA:
		// Whole racks within the limit.
		return MaxNodesRDMA / max(in.rackVMs, 1) * max(in.rackVMs, 1)
	}
	return 1
}

// deadlineSpan is the most VMs a training job scales out to for its
// deadline on a size: the VMs one job may span, at most MaxNodesRDMA.
func (n *requirements) deadlineSpan(in *sizeInfo) int64 { return min(n.spanFor(in), MaxNodesRDMA) }

// deadlineVMs is the VMs a deadline is judged on for a size: the nodes
// setting, else the most the job may scale out to (deadlineSpan).
func (n *requirements) deadlineVMs(in *sizeInfo) int64 {
	if n.fixedNodes > 0 {
		return n.fixedNodes
	}
	return n.deadlineSpan(in)
}

// scaleUp removes layouts where one job (one copy of the model, for
// inference) spans several VMs when some size holds it on one VM (scale up
// before scale out), except sizes named in prefer. Copies of a model on
// separate VMs (replicas) are not such a layout.
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
		if evals[i].fails == 0 && evals[i].spans && evals[i].preferredRank < 0 {
			evals[i].fails |= 1 << cScaleUp
		}
	}
}
