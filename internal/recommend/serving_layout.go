// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the layout search of a served language model on one size:
// the tensor-parallel degrees, the batch each copy runs, the copies the load,
// the concurrency, min_replicas and the stated latency targets need, and a
// small model's VMs on a CPU size.

import (
	"math"
	"sort"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// searchServing is the layout search of a served model on a size, from
// the layout fitGPU found (def): every tensor-parallel degree that divides
// the VM's GPUs and that the engines load the model with (TensorSplits),
// each copy on one VM (pipeline stages across VMs only at the degree of a
// whole VM, where no narrower split fits), each with the batch per copy
// its targets allow and the copies the demand needs (sizeService). It
// keeps a layout within max_nodes, then within the default latency targets
// of an interactive service, then on the fewest VMs (at one price, the
// lowest price per output token), then with the most output tokens per
// second (servesBetter); def when no degree does better. When no layout
// meets a stated target, the result says which it misses. The result
// records the copies a layout of one GPU per copy needs (oneGPUCopies),
// which tells a split the demand needs from one it does not.
func (n *requirements) searchServing(in *sizeInfo, def gpuLayout, limit, span int64) gpuLayout {
	var best, miss gpuLayout
	found, missed := false, false
	var oneGPU int64
	consider := func(gl gpuLayout) {
		laid := gl
		gl, ok := n.sizeService(in, gl)
		if ok && gl.TP == 1 && gl.PP <= 1 {
			oneGPU = n.oneGPUDemand(in, laid)
		}
		switch {
		case !ok:
			if !missed || n.serve.missRatio(&gl) < n.serve.missRatio(&miss) {
				miss, missed = gl, true
			}
		case !found || n.servesBetter(&gl, &best):
			best, found = gl, true
		}
	}
	consider(def)
	for d := int64(1); d <= in.GPUUnits; d++ {
		if !n.job.TensorSplits(in.GPUUnits, d) || d == def.TP {
			continue
		}
		if gl := fitGPU(&n.job, in, limit, span, n.fixedNodes, d); gl.OK && (gl.PP == 1 || d == in.GPUUnits) {
			consider(gl)
		}
	}
	if !found {
		return miss
	}
	best.oneGPUCopies = oneGPU
	return best
}

// servesBetter reports whether layout a serves the demand better than b:
// within max_nodes where b is not (only a stated constraint removes a
// size), then within the default latency targets where b misses them (an
// interactive service's, as if stated), then on fewer VMs, then with more
// output tokens per second.
func (n *requirements) servesBetter(a, b *gpuLayout) bool {
	if wa, wb := a.Nodes <= n.maxNodes, b.Nodes <= n.maxNodes; wa != wb {
		return wa
	}
	if la, lb := n.serve.missesDefaultTargets(a.pt.atLoad), n.serve.missesDefaultTargets(b.pt.atLoad); la != lb {
		return lb
	}
	return a.Nodes < b.Nodes || (a.Nodes == b.Nodes && a.capacity() > b.capacity())
}

// oneGPUDemand is the copies of one GPU each (layout gl, before
// sizeService) that the demand needs on the size, sized as sizeService
// sizes a layout (min_replicas, the load within MaxUtilization, the copies
// a time to first token, stated or default, adds; without a load, the
// concurrency within the targets) but without filling a VM's GPUs with
// copies: each copy on its own, as a one-GPU size lays them out. 0 when
// such copies miss a stated target.
func (n *requirements) oneGPUDemand(in *sizeInfo, gl gpuLayout) int64 {
	gl.PerGroup, gl.Copies, gl.Replicas, gl.Nodes = 1, 1, 1, 1
	if one, ok := n.sizeService(in, gl); ok {
		return one.Copies
	}
	return 0
}

// loadCopies is the copies a load needs, each of capacity output tokens
// per second and with KV cache room for most sequences: those that carry
// it within MaxUtilization (copiesForLoad) and, with concurrent_requests,
// those whose KV cache holds them.
func (s *serving) loadCopies(capacity float64, most int64) int64 {
	k := s.copiesForLoad(capacity)
	if s.concurrencyStated {
		k = max(k, (s.seqs+most-1)/most)
	}
	return k
}

// missRatio is how far a layout that misses stated targets is from them:
// the largest time it reaches over its target.
func (s *serving) missRatio(gl *gpuLayout) float64 {
	return max(s.ttftRatio(gl), s.tpotRatio(gl))
}

// ttftRatio and tpotRatio are how far a layout is from the stated target
// on the first token and on each token: the time it reaches over the
// target, 0 where it meets it.
func (s *serving) ttftRatio(gl *gpuLayout) float64 {
	if !gl.missTTFT {
		return 0
	}
	return gl.reachTTFT / s.maxTTFT
}

func (s *serving) tpotRatio(gl *gpuLayout) float64 {
	if !gl.missTPOT {
		return 0
	}
	return gl.reachTPOT / s.maxTPOT
}

// missed marks a layout as missing each stated target c (at its load, or
// at the batch it decodes) misses, with the time it reaches; it reports
// whether the layout misses one.
func (s *serving) missed(gl *gpuLayout, c perfmodel.CopySpeed) bool {
	if s.maxTTFT > 0 && c.TTFT > s.maxTTFT {
		gl.missTTFT, gl.reachTTFT = true, c.TTFT
	}
	if s.maxTPOT > 0 && c.TPOT > s.maxTPOT {
		gl.missTPOT, gl.reachTPOT = true, c.TPOT
	}
	return gl.missTTFT || gl.missTPOT
}

// capacity is the output tokens per second of a layout's copies at the
// batch each runs at most.
func (gl *gpuLayout) capacity() float64 { return gl.pt.capacity.TPS * float64(gl.Copies) }

// sizeService adds to a layout the copies min_replicas needs, then those
// its demand needs: a load's, or the stated or default concurrency's.
// ok is false when no number of copies meets a stated target.
func (n *requirements) sizeService(in *sizeInfo, gl gpuLayout) (gpuLayout, bool) {
	gl.memNodes = gl.Nodes
	gl = n.withMinReplicas(in, gl)
	if n.serve.loadTPS > 0 {
		return n.sizeForLoad(in, gl)
	}
	return n.sizeForConcurrency(in, gl)
}

// withMinReplicas is the layout gl with the copies min_replicas needs, an
// availability requirement that needs no timing: min_replicas groups of
// pp VMs, each with the copies its GPUs hold (a stated nodes setting
// keeps its VMs).
func (n *requirements) withMinReplicas(in *sizeInfo, gl gpuLayout) gpuLayout {
	if groups := gl.Nodes / max(gl.PP, 1); n.serve.minReplicas > groups && n.fixedNodes == 0 {
		gl = servingCopies(n, in, gl, max(gl.Copies, n.serve.minReplicas*max(gl.PerGroup, 1)), 0)
	}
	return gl
}

// sizeForConcurrency lays out a service without a load: the concurrent
// requests are shared by the copies, and a stated latency target takes
// the fewest copies whose share each copy decodes within it, within
// max_nodes VMs; so do the default targets where some number of copies
// meets them (else the layout keeps its copies and ranks after those that
// meet them).
func (n *requirements) sizeForConcurrency(in *sizeInfo, gl gpuLayout) (gpuLayout, bool) {
	sv := &n.serve
	batch := func(copies int64) int64 { return sv.share(copies, maxBatch(in)) }
	within := func(ttft, tpot float64) func(copies int64) bool {
		return func(copies int64) bool { return meets(sv.speed(in, &gl, float64(batch(copies))), ttft, tpot) }
	}
	all, stated := within(sv.withDefaults()), within(sv.maxTTFT, sv.maxTPOT)
	most := min(sv.seqs, n.mostCopies(in, &gl))
	ok := true
	if !all(gl.Copies) {
		if g, met := n.fewestCopies(in, gl, most, 0, all); met {
			gl = g
		} else if (sv.maxTTFT > 0 || sv.maxTPOT > 0) && !stated(gl.Copies) {
			if gl, ok = n.fewestCopies(in, gl, most, 0, stated); !ok {
				// The closest it comes: the most copies, one sequence
				// each where max_nodes holds that many.
				g := servingCopies(n, in, gl, max(most, gl.Copies), 0)
				gl.reachBatch = batch(g.Copies)
				sv.missed(&gl, sv.speed(in, &g, float64(gl.reachBatch)))
			}
		}
	}
	gl.pt = sv.idlePoint(func(b float64) perfmodel.CopySpeed { return sv.speed(in, &gl, b) }, batch(gl.Copies), gl.Copies)
	return gl, ok
}

// sizeForLoad lays out a service with a load: each copy runs at most the
// largest batch its KV cache holds within the targets (stated, or an
// interactive service's defaults where some batch meets them), the copies
// carry the load within MaxUtilization of their capacity (and, with
// concurrent_requests, hold its KV cache), and a stated time to first
// token adds the copies that keep the wait for a copy within it.
func (n *requirements) sizeForLoad(in *sizeInfo, gl gpuLayout) (gpuLayout, bool) {
	sv := &n.serve
	speed := func(b float64) perfmodel.CopySpeed { return sv.speed(in, &gl, b) }
	most := roomOf(in, &gl)
	b := sv.loadBatch(speed, most)
	if b == 0 {
		return n.beyondReach(in, gl, speed(1))
	}
	k := max(gl.Copies, sv.loadCopies(speed(float64(b)).TPS, most))
	if most := n.serviceCopies(in, &gl, n.serviceLimit()); k > most {
		// More VMs than the service may take: the layout fails
		// tokens_per_second, one group of copies past the most VMs (the
		// queue of so many copies is never timed).
		gl = servingCopies(n, in, gl, most+max(gl.PerGroup, 1), b)
		gl.pt = servicePoint{maxBatch: b, capacity: speed(float64(b))}
		return gl, true
	}
	gl = servingCopies(n, in, gl, k, b)
	ok := true
	ttft, _ := sv.withDefaults()
	met := func(copies int64) bool { return sv.loadPoint(speed, b, copies).atLoad.TTFT <= ttft }
	switch {
	case ttft <= 0 || met(gl.Copies):
	case sv.maxTTFT > 0:
		// The copies that bring the first token within the target, on
		// any number of VMs: beyond max_nodes, the size fails max_nodes on
		// the VMs it needs; else the closest it comes within max_nodes.
		if gl, ok = n.fewestCopies(in, gl, n.serviceCopies(in, &gl, n.serviceLimit()), b, met); !ok {
			gl.reachAtLoad = sv.missed(&gl, sv.loadPoint(speed, b, max(n.mostCopies(in, &gl), gl.Copies)).atLoad)
		}
	default:
		// An interactive service's default: the copies that meet it
		// within max_nodes, as a stated target of the same value would
		// take; where none do, the layout stays and ranks after those
		// that meet it.
		if g, within := n.fewestCopies(in, gl, n.mostCopies(in, &gl), b, met); within {
			gl = g
		}
	}
	gl.pt = sv.loadPoint(speed, b, gl.Copies)
	// The memory the service uses: each copy's weights and the KV cache
	// of the sequences it decodes at the load (at least its share of
	// stated concurrent requests), not of its largest batch.
	held := gl.pt.batch
	if sv.concurrencyStated {
		held = math.Max(held, float64(sv.share(gl.Copies, b)))
	}
	n.job.Hold(&gl.Layout, &in.Hardware, gl.Copies, held)
	return gl, ok
}

// beyondReach lays out a service with a load where no batch meets a
// stated target, not even one sequence per copy (one): as the request
// that raises each target it misses would have it, so that the reach the
// nearest miss names is taken at the stated load within max_nodes. The
// targets are raised together, each from what one sequence per copy
// reaches, to the least that lays the load out within max_nodes; where
// none does, to what one sequence per copy reaches, and the layout keeps
// the VMs the load then needs (beyond max_nodes, the size fails max_nodes
// too). ok is false: the layout misses the stated targets.
func (n *requirements) beyondReach(in *sizeInfo, gl gpuLayout, one perfmodel.CopySpeed) (gpuLayout, bool) {
	sv := &n.serve
	var probe gpuLayout
	if !sv.missed(&probe, one) {
		return gl, false // untimed: no batch runs
	}
	raised := func(scale float64) (gpuLayout, *requirements) {
		r := *n
		if probe.missTTFT {
			r.serve.maxTTFT = math.Ceil(one.TTFT*scale*1000) / 1000
		}
		if probe.missTPOT {
			r.serve.maxTPOT = math.Ceil(one.TPOT*scale*1000) / 1000
		}
		g, ok := r.sizeForLoad(in, gl)
		if !ok || g.Nodes > n.maxNodes {
			return g, nil
		}
		return g, &r
	}
	const hi = 64 // at most 64 times what one sequence per copy reaches
	if _, r := raised(hi); r == nil {
		g, r := raised(1)
		if r != nil || !g.missTTFT && !g.missTPOT {
			g.missTTFT, g.missTPOT, g.reachTTFT, g.reachTPOT = probe.missTTFT, probe.missTPOT, probe.reachTTFT, probe.reachTPOT
		}
		return g, false
	}
	lo, up := 1.0, float64(hi) // lo does not fit (or is the reach), up does
	for up/lo > 1.001 {
		if mid := math.Sqrt(lo * up); func() bool { _, r := raised(mid); return r != nil }() {
			up = mid
		} else {
			lo = mid
		}
	}
	g, r := raised(up)
	g.missTTFT, g.missTPOT, g.reachAtLoad = probe.missTTFT, probe.missTPOT, true
	g.reachTTFT, g.reachTPOT = r.serve.maxTTFT, r.serve.maxTPOT
	return g, false
}

// roomOf is the most sequences one copy of a GPU layout decodes together
// with the KV cache its memory holds (at most maxBatch): the batch a
// latency target may cap further.
func roomOf(in *sizeInfo, gl *gpuLayout) int64 { return min(max(gl.PerCopy, 1), maxBatch(in)) }

// mostLoad is the most output tokens per second a size's layout carries
// on the VMs a service may take (serviceLimit, as sizeForLoad and
// finishLayout hold it) at no more than MaxUtilization of its copies'
// capacity, at the batch each runs, and with a stated time to first token
// within it at the load (the wait for a copy grows with the load); 0 when
// the layout is not timed.
func (n *requirements) mostLoad(e *eval) float64 {
	gl := &e.gl
	copies := n.serviceCopies(e.in, gl, n.serviceLimit())
	most := float64(copies) * gl.pt.capacity.TPS * perfmodel.MaxUtilization
	sv := n.serve
	if sv.maxTTFT <= 0 || !(most > 0) || sv.Output <= 0 {
		return most
	}
	speed := func(b float64) perfmodel.CopySpeed { return sv.speed(e.in, gl, b) }
	met := func(tps float64) bool {
		at := sv
		at.loadTPS, at.load = tps, tps/sv.Output
		return at.loadPoint(speed, gl.pt.maxBatch, copies).atLoad.TTFT <= sv.maxTTFT
	}
	if met(most) {
		return most
	}
	lo, hi := 0.0, most // lo meets (or is 0), hi does not
	for range 40 {
		if mid := (lo + hi) / 2; met(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// serviceLimit is the most VMs a service may take for its demand before
// it fails tokens_per_second: the nodes setting, else MaxNodes (in whole
// racks where serviceVMs says so). sizeForLoad holds a load's copies to
// it, and the constraint's reason and relax name it.
func (n *requirements) serviceLimit() int64 {
	if n.fixedNodes > 0 {
		return n.fixedNodes
	}
	return MaxNodes
}

// mostCopies is the most copies of the layout max_nodes VMs hold
// (MaxNodes without it; the nodes setting's VMs with it), as
// serviceCopies counts them.
func (n *requirements) mostCopies(in *sizeInfo, gl *gpuLayout) int64 {
	return n.serviceCopies(in, gl, min(n.maxNodes, n.serviceLimit()))
}

// serviceCopies is the most copies of a size's layout a service runs on
// at most vms VMs: those serviceVMs holds.
func (n *requirements) serviceCopies(in *sizeInfo, gl *gpuLayout, vms int64) int64 {
	return copiesOn(gl, n.serviceVMs(in, gl, vms))
}

// serviceVMs is the most VMs a served model's copies take on a size
// within vms (max_nodes, or MaxNodes): vms, in whole racks where each copy
// spans VMs of a size Azure allocates by racks (rackNodes). Each copy is
// one job, which the layout search holds within the size's InfiniBand span
// (spanFor); the copies together need no InfiniBand between them, so the
// span never limits them. On target batch, copies that span VMs are held
// to one pool with inter-node communication (batchPoolVMs): the target
// deploys the service as one azurerm_batch_pool, whose nodes the pool
// limit counts, not its copies. The one place the service's limit is set:
// sizeForLoad, finishLayout and tokens_per_second's relax read it.
func (n *requirements) serviceVMs(in *sizeInfo, gl *gpuLayout, vms int64) int64 {
	if l := n.batchPoolVMs(gl.PP > 1); l > 0 {
		vms = min(vms, l)
	}
	if n.byRacks(gl.PP > 1) {
		r := max(in.rackVMs, 1)
		return vms / r * r
	}
	return vms
}

// batchPoolVMs is the most nodes of the one Batch pool a served model's
// copies go in when each spans VMs (spans: its pool has inter-node
// communication, poolVMs); 0 on other targets and for copies of one VM
// each.
func (n *requirements) batchPoolVMs(spans bool) int64 {
	if n.target != TargetBatch || !spans {
		return 0
	}
	l, _ := n.poolVMs(nil)
	return l
}

// copiesOn is the most copies of the layout vms VMs hold.
func copiesOn(gl *gpuLayout, vms int64) int64 {
	return vms / max(gl.PP, 1) * max(gl.PerGroup, 1)
}

// fewestCopies is the layout with the fewest copies, from gl's up to
// most, that met accepts (more copies never make it worse; met takes the
// copies, whole groups of a VM's), each holding the KV cache of batch
// sequences (0: its share of the concurrency); ok is false when not even
// most does.
func (n *requirements) fewestCopies(in *sizeInfo, gl gpuLayout, most, b int64, met func(copies int64) bool) (gpuLayout, bool) {
	group := max(gl.PerGroup, 1)
	whole := func(k int64) int64 { return (k + group - 1) / group * group }
	if most <= gl.Copies || !met(whole(most)) {
		return gl, false
	}
	lo, hi := gl.Copies, most // lo misses, hi meets
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if met(whole(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return servingCopies(n, in, gl, hi, b), true
}

// servicePointOf is the operating point of a timed service layout as
// finished (copies the gpus setting or whole racks added share the load),
// and its copies: its copies on the GPUs, or a small model on a CPU size,
// one copy on each VM; copies is 0 when it is not timed.
func (n *requirements) servicePointOf(e *eval) (servicePoint, int64) {
	sv := &n.serve
	var speed func(b float64) perfmodel.CopySpeed
	var copies, most int64
	switch {
	case e.gl.OK && e.in.IsGPU:
		speed = func(b float64) perfmodel.CopySpeed { return sv.speed(e.in, &e.gl, b) }
		copies, most = e.gl.Copies, maxBatch(e.in)
	case n.cpuServed(e.in):
		speed = func(b float64) perfmodel.CopySpeed { return sv.CPUSpeed(&e.in.Hardware, b) }
		copies, most = e.nodes, perfmodel.MaxBatchSequences
	default:
		return servicePoint{}, 0
	}
	if sv.loadTPS > 0 {
		return sv.loadPoint(speed, e.gl.pt.maxBatch, copies), copies
	}
	return sv.idlePoint(speed, sv.share(copies, most), copies), copies
}

// layOutCPUService sizes a small model served on a CPU size, one copy on
// each VM: the fewest VMs that run min_replicas copies, carry the load
// (or meet the stated latency targets at the concurrency's share each).
// A stated target the size misses even at one sequence per VM removes it;
// without the catalog's figures the size keeps the VMs its memory needs.
func layOutCPUService(n *requirements, e *eval, vc *vmCount) {
	sv, in := &n.serve, e.in
	if !n.cpuServed(in) {
		if n.cpuCopies(in) {
			// A small model the step model does not time (an encoder,
			// a speech model): its copies on min_replicas VMs all the same.
			vc.need(max(sv.minReplicas, 1), cMaxNodes)
		}
		return
	}
	speed := func(b float64) perfmodel.CopySpeed { return sv.CPUSpeed(&in.Hardware, b) }
	one := speed(1)
	if one.TPS <= 0 {
		// Untimed: one copy on each VM, min_replicas of them.
		vc.need(max(sv.minReplicas, 1), cMaxNodes)
		return
	}
	if sv.missed(&e.gl, one) {
		if e.gl.missTTFT {
			e.fail(cMaxTimeToFirstToken)
		}
		if e.gl.missTPOT {
			e.fail(cMaxTimePerOutputToken)
		}
		return
	}
	lo := max(vc.nodes, sv.minReplicas, 1)
	k, pt := cpuLayout(sv, speed, lo, n.maxNodes)
	driver := cTokensPerSecond
	if k > n.maxNodes && sv.loadTPS <= 0 {
		driver = cMaxTimePerOutputToken
	}
	e.gl.pt = pt
	vc.need(k, driver)
}

// cpuLayout is the fewest VMs of a CPU size, at least lo and at most most,
// that serve the demand, and the point they run at (most + 1 when none
// does).
func cpuLayout(sv *serving, speed func(b float64) perfmodel.CopySpeed, lo, most int64) (int64, servicePoint) {
	if sv.loadTPS > 0 {
		b := sv.loadBatch(speed, perfmodel.MaxBatchSequences)
		k := max(lo, sv.copiesForLoad(speed(float64(b)).TPS))
		if k > most {
			return most + 1, servicePoint{maxBatch: b}
		}
		met := func(k int64) bool { return sv.maxTTFT <= 0 || sv.loadPoint(speed, b, k).atLoad.TTFT <= sv.maxTTFT }
		if !met(k) {
			k += int64(sort.Search(int(most-k+1), func(i int) bool { return met(k + int64(i)) }))
		}
		return k, sv.loadPoint(speed, b, k)
	}
	met := func(k int64) bool {
		return meets(speed(float64(sv.share(k, perfmodel.MaxBatchSequences))), sv.maxTTFT, sv.maxTPOT)
	}
	k := lo
	if lo <= most && !met(lo) {
		// The speed of each VM grows as k shrinks its share: search for the fewest.
		k = lo + int64(sort.Search(int(most-lo+1), func(i int) bool { return met(lo + int64(i)) }))
	}
	return k, sv.idlePoint(speed, sv.share(k, perfmodel.MaxBatchSequences), k)
}

// servingCopies is the layout gl with want copies, in whole groups, each
// holding its weights and the KV cache of batch sequences (0: its share
// of the concurrent requests).
func servingCopies(n *requirements, in *sizeInfo, gl gpuLayout, want, batch int64) gpuLayout {
	groups := (want + gl.PerGroup - 1) / gl.PerGroup
	gl.Copies, gl.Replicas, gl.Nodes = groups*gl.PerGroup, groups*gl.PerGroup, groups*gl.PP
	gl.Capacity = float64(gl.Nodes) * float64(in.GPUUnits) * in.UnitMemGiB * n.job.Share
	if batch == 0 {
		batch = n.serve.share(gl.Copies, maxBatch(in))
	}
	n.job.Hold(&gl.Layout, &in.Hardware, want, float64(batch))
	return gl
}
