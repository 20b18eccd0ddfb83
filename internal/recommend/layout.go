// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the layout step of the evaluation: the fewest VMs of a size
// that hold the job (GPU memory, GPUs, cores, system memory, a service's
// copies), scaled for the deadline and held to the quota, placed in a region,
// and whether they need InfiniBand.

import "math"

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
	placeSize(n, e, rackNodes(n, e, quotaVMs(n, vc, least), memLaid))
	deadlineVMs := limitByQuota(n, e, &vc, least, memLaid)
	limitByBudget(n, e, &vc, least, memLaid)
	// The job fits on one VM; a stated deadline asked for the others.
	e.forDeadline = least == 1 && vc.nodes > 1 && vc.driver == cDeadline && n.train.deadlineStated
	finishLayout(n, e, vc, memLaid)
	judgeQuota(n, e, deadlineVMs)
}

// layOutGPUMemory lays the job's GPU memory out on the size (fitGPU), with
// the copies tokens_per_second and min_replicas need, and reports whether it fits. The VM
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
	limit, span := n.maxNodes, n.spanFor(in)
	switch {
	case !n.job.TensorParallel:
		limit = span
	case n.job.Placed():
		span = 1 // a copy's placement over GPUs holds within one VM
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
	switch {
	case n.servedLM():
		gl = n.searchServing(in, gl, limit, span)
		memNodes = min(memNodes, gl.memNodes)
		if gl.missTTFT {
			e.fail(cMaxTimeToFirstToken)
		}
		if gl.missTPOT {
			e.fail(cMaxTimePerOutputToken)
		}
	case n.job.TensorParallel:
		// A served model the step model does not time: its copies (those
		// an encoder-decoder's caches of the concurrent requests need,
		// fitCopies) on min_replicas VMs all the same.
		gl = n.withMinReplicas(in, gl)
	}
	vc.need(memNodes, cGPUMemory)
	vc.need(gl.Nodes, cTokensPerSecond)
	e.gl = gl
	return true
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
		if h, ok := n.train.Hours(&in.Hardware, n.fixedNodes); ok && n.train.deadlineStated && h > n.train.Deadline {
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
	e.spans = spansVMs(n, e, nodes, memLaid)
	e.ibNeeded = n.ibNeeded(e.spans)
	if whole := rackNodes(n, e, nodes, memLaid); whole > nodes {
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
	e.pcieTP = memLaid && n.job.TensorParallel && !n.job.Placed() && e.gl.TP > 1 && !in.Linked
	switch {
	case nodes <= vmLimit(n, e, memLaid):
	case n.fixedNodes > 0:
		e.fail(cNodes)
	case nodes > n.maxNodes && n.maxNodes < MaxNodes && nodes <= MaxNodes:
		// Raising max_nodes lets the job fit only up to MaxNodes; beyond
		// them the constraint that asked for the VMs fails.
		e.fail(cMaxNodes)
	case vc.driver < numConstraints:
		e.fail(vc.driver)
	}
}

// vmLimit is the most VMs a layout of the size may take: max_nodes
// (MaxNodes without it); where one job spans VMs over InfiniBand, at most
// the size's InfiniBand span and what its target's group of VMs holds
// (poolLimit). A served model's job is one copy, which the layout search
// holds within the span: its copies together are held to max_nodes
// (serviceVMs, whole racks on a rack-allocated size, one pool on Batch).
func vmLimit(n *requirements, e *eval, memLaid bool) int64 {
	in := e.in
	if memLaid && n.job.TensorParallel {
		return n.serviceVMs(in, &e.gl, n.maxNodes)
	}
	limit := n.maxNodes
	if e.ibNeeded {
		limit = min(limit, in.maxJobVMs)
	}
	if e.spans {
		limit = n.poolLimit(in, limit)
	}
	return limit
}

// spansVMs reports whether one job spans VMs on nodes VMs: a served
// model's copy when its pipeline stages are on separate VMs; never a small
// model served on CPU VMs, one copy on each.
func spansVMs(n *requirements, e *eval, nodes int64, memLaid bool) bool {
	switch {
	case n.cpuCopies(e.in):
		return false
	case memLaid && n.job.TensorParallel:
		return e.gl.PP > 1
	}
	return nodes > 1
}

// rackNodes is the VMs a layout of nodes VMs takes: whole racks of a
// rack-allocated size when one job spans them over InfiniBand and no nodes
// setting fixes the count, else nodes.
func rackNodes(n *requirements, e *eval, nodes int64, memLaid bool) int64 {
	if n.byRacks(spansVMs(n, e, nodes, memLaid)) {
		return wholeRacks(e.in, nodes)
	}
	return nodes
}

// byRacks reports whether a layout of a rack-allocated size takes whole
// racks: one job spans its VMs (spans) over InfiniBand, and no nodes
// setting fixes the count.
func (n *requirements) byRacks(spans bool) bool {
	return n.fixedNodes == 0 && spans && n.ibNeeded(true)
}

// racksWithin is the most VMs a layout takes within most VMs: most, or
// where a layout of most VMs would be rounded up to whole racks, the whole
// racks most holds (perhaps none).
func racksWithin(n *requirements, e *eval, most int64, memLaid bool) int64 {
	if rackNodes(n, e, most, memLaid) > most {
		r := max(e.in.rackVMs, 1)
		return most / r * r
	}
	return most
}

// wholeRacks is nodes rounded up to the whole racks a size is allocated
// in (nodes itself for sizes placed one VM at a time).
func wholeRacks(in *sizeInfo, nodes int64) int64 {
	r := max(in.rackVMs, 1)
	return (nodes + r - 1) / r * r
}

// placeSize sets the region a size is placed in: the requested region; or
// among regions, the best that offers it (placeIn, the quota judged on vms
// VMs), "" when none does (the region constraint removes it); or, without
// either, the best of the regions that price it (anyRegion).
func placeSize(n *requirements, e *eval, vms int64) {
	switch {
	case n.region != "":
		e.region = n.region
	case len(n.regions) > 0:
		e.region = n.placeIn(e.in, n.regions, vms, true)
	default:
		e.anyRegion = n.anyRegion(e.in, vms)
	}
}

// placedIn is the region whose price and quota a size uses: its region,
// or without region and regions the one placeSize chose among all.
func placedIn(n *requirements, e *eval) string {
	if n.regionScoped() {
		return e.region
	}
	return e.anyRegion
}

// quotaVMs is the VMs a region's quota is compared on when the size is
// placed, before the layout is settled: the stated nodes, the smallest
// layout that holds the job when only the default deadline scaled it out
// (limitByQuota holds it to the quota), else the layout's.
func quotaVMs(n *requirements, vc vmCount, least int64) int64 {
	switch {
	case n.fixedNodes > 0:
		return n.fixedNodes
	case defaultScaleOut(n, vc):
		return least
	}
	return vc.nodes
}

// defaultScaleOut reports whether only the default deadline scaled the
// layout out: no stated deadline and no nodes setting.
func defaultScaleOut(n *requirements, vc vmCount) bool {
	return vc.driver == cDeadline && !n.train.deadlineStated && n.fixedNodes == 0
}

// limitByQuota holds a layout the default deadline scaled out to the VMs
// the quota of its region leaves free, in whole racks for a rack-allocated
// size, never fewer than hold the job (the smallest layout, when the quota
// holds not even that, and is insufficient): the job then runs longer, with a warning naming
// the increase that would meet the deadline. It returns the VMs that meet
// the deadline when it held the layout to fewer, else 0.
func limitByQuota(n *requirements, e *eval, vc *vmCount, least int64, memLaid bool) int64 {
	if !n.quotaActive() || !defaultScaleOut(n, *vc) {
		return 0
	}
	q := n.quotaIn(e.in, placedIn(n, e), least)
	if q.status == QuotaUnknown {
		return 0
	}
	most := racksWithin(n, e, q.free()/q.perVM, memLaid)
	if most >= vc.nodes {
		return 0
	}
	deadlineVMs := rackNodes(n, e, vc.nodes, memLaid)
	vc.nodes = max(most, least)
	return deadlineVMs
}

// judgeQuota judges the settled layout, e.nodes VMs, against the quota of
// its region; deadlineVMs is what limitByQuota returned.
func judgeQuota(n *requirements, e *eval, deadlineVMs int64) {
	if !n.quotaActive() {
		return
	}
	e.quota = n.quotaIn(e.in, placedIn(n, e), e.nodes)
	e.quota.deadlineVMs = deadlineVMs
}

// limitByBudget keeps a job scaled out for the default deadline within
// max_total_price_per_hour, as limitByQuota keeps it within the quota: the
// most VMs the cap pays for (whole racks of a rack-allocated size), at
// least those that hold the job, which then runs past the default deadline
// with a warning; the default deadline never removes a size.
func limitByBudget(n *requirements, e *eval, vc *vmCount, least int64, memLaid bool) {
	if n.maxTotal <= 0 || !defaultScaleOut(n, *vc) {
		return
	}
	pricePerVM(n, e)
	if !e.hasPrice || !(e.price > 0) {
		return
	}
	if most := racksWithin(n, e, int64(math.Floor(n.maxTotal/e.price+1e-9)), memLaid); most < vc.nodes {
		e.budgetVMs = rackNodes(n, e, vc.nodes, memLaid)
		vc.nodes = max(most, least)
	}
}
