// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the layout search of a served language model on one size:
// the tensor-parallel degrees, the copies the concurrency, tokens_per_second,
// min_replicas and the stated latency targets need, and a small model's VMs on
// a CPU size.

import (
	"math"
	"sort"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// searchServing is the layout search of a served model on a size, from
// the layout fitGPU found (def): every tensor-parallel degree that divides
// the VM's GPUs and the attention heads, each copy on one VM (pipeline
// stages across VMs only at the degree of a whole VM, where no narrower
// split fits), with the copies the concurrent requests, tokens_per_second
// and the stated latency targets need. It keeps the layout on the fewest
// VMs, ties to the most output tokens per second (at one price, the lowest
// cost per million output tokens); def when no degree does better. When
// no layout meets a stated target, the result says which it misses.
func (n *requirements) searchServing(in *sizeInfo, def gpuLayout, limit, span int64) gpuLayout {
	var best, miss gpuLayout
	bestTPS, found := 0.0, false
	fastTTFT, fastTPOT := math.Inf(1), math.Inf(1)
	consider := func(gl gpuLayout) {
		one := n.serve.speed(in, &gl, 1)
		fastTTFT, fastTPOT = math.Min(fastTTFT, one.TTFT), math.Min(fastTPOT, one.TPOT)
		gl, ok := n.withTargets(in, n.withDemand(in, gl))
		if !ok {
			miss = gl
			return
		}
		if r := n.serviceRate(in, &gl); !found || gl.Nodes < best.Nodes || (gl.Nodes == best.Nodes && r > bestTPS) {
			best, bestTPS, found = gl, r, true
		}
	}
	consider(def)
	for d := int64(1); d <= in.GPUUnits; d++ {
		if in.GPUUnits%d != 0 || (n.job.Heads != 0 && n.job.Heads%d != 0) || d == def.TP {
			continue
		}
		if gl := fitGPU(&n.job, in, limit, span, n.fixedNodes, d); gl.OK && (gl.PP == 1 || d == in.GPUUnits) {
			consider(gl)
		}
	}
	if !found {
		best = miss
		best.missTTFT = n.serve.maxTTFT > 0 && fastTTFT > n.serve.maxTTFT
		best.missTPOT = !best.missTTFT
	}
	best.bestTTFT, best.bestTPOT = fastTTFT, fastTPOT
	return best
}

// withTargets adds to a layout the copies the stated latency targets
// need: the fewest whose share of the requests each copy decodes within
// them, within MaxNodes VMs. ok is false when no number of copies does.
func (n *requirements) withTargets(in *sizeInfo, gl gpuLayout) (gpuLayout, bool) {
	sv := &n.serve
	if sv.maxTTFT <= 0 && sv.maxTPOT <= 0 {
		return gl, true
	}
	meets := func(g *gpuLayout) bool {
		c := sv.speed(in, g, sv.batch(g))
		return c.TPS > 0 && (sv.maxTTFT <= 0 || c.TTFT <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.TPOT <= sv.maxTPOT)
	}
	if meets(&gl) {
		return gl, true
	}
	most := min(sv.seqs, MaxNodes/max(gl.PP, 1)*max(gl.PerGroup, 1))
	if most <= gl.Copies || !meets(ptr(servingCopies(n, in, gl, most))) {
		return gl, false
	}
	lo, hi := gl.Copies, most // lo misses, hi meets
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if meets(ptr(servingCopies(n, in, gl, mid))) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return servingCopies(n, in, gl, hi), true
}

// withDemand adds to a layout the copies tokens_per_second needs, and the
// VMs min_replicas does: one copy on each of min_replicas groups of
// pipeline stages at least.
func (n *requirements) withDemand(in *sizeInfo, gl gpuLayout) gpuLayout {
	gl.memNodes = gl.Nodes
	if groups := gl.Nodes / max(gl.PP, 1); n.serve.minReplicas > groups && n.fixedNodes == 0 {
		gl = servingCopies(n, in, gl, max(gl.Copies, n.serve.minReplicas*max(gl.PerGroup, 1)))
	}
	if n.serve.tps > 0 {
		if want := n.serve.copiesFor(in, &gl); want > gl.Copies {
			gl = servingCopies(n, in, gl, want)
		}
	}
	return gl
}

// serviceRate is the output tokens per second of a layout's copies at
// their batch; 0 when the catalog has no figures for the GPU.
func (n *requirements) serviceRate(in *sizeInfo, gl *gpuLayout) float64 {
	return n.serve.decodeRate(in, gl, n.serve.batch(gl)) * float64(gl.Copies)
}

// served times the layout of a served model: its copies' step model on
// the GPUs (each copy at its batch), or a small model on a CPU size, one
// copy on each VM; copies is the copies the layout runs, 0 when it is not
// timed.
func (n *requirements) served(e *eval) (c perfmodel.CopySpeed, copies int64) {
	switch {
	case e.gl.OK && e.in.IsGPU:
		return n.serve.speed(e.in, &e.gl, n.serve.batch(&e.gl)), e.gl.Copies
	case n.cpuServed(e.in):
		return n.serve.CPUSpeed(&e.in.Hardware, n.cpuBatch(e.nodes)), e.nodes
	}
	return perfmodel.CopySpeed{}, 0
}

// layOutCPUService sizes a small model served on a CPU size, one copy on
// each VM: the fewest VMs that run min_replicas copies, sustain
// tokens_per_second and meet the stated latency targets (more VMs decode
// smaller batches, each faster). A stated target the size misses even at
// one sequence per VM removes it; without the catalog's figures the size
// keeps the VMs its memory needs.
func layOutCPUService(n *requirements, e *eval, vc *vmCount) {
	sv, in := &n.serve, e.in
	if !n.cpuServed(in) {
		return
	}
	one := sv.CPUSpeed(&in.Hardware, 1)
	if one.TPS <= 0 {
		return
	}
	e.gl.bestTTFT, e.gl.bestTPOT = one.TTFT, one.TPOT
	switch {
	case sv.maxTTFT > 0 && one.TTFT > sv.maxTTFT:
		e.fail(cMaxTimeToFirstToken)
		return
	case sv.maxTPOT > 0 && one.TPOT > sv.maxTPOT:
		e.fail(cMaxTimePerOutputToken)
		return
	}
	meets := func(k int64) bool {
		c := sv.CPUSpeed(&in.Hardware, n.cpuBatch(k))
		return c.TPS*float64(k) >= sv.tps-1e-9 && (sv.maxTTFT <= 0 || c.TTFT <= sv.maxTTFT) && (sv.maxTPOT <= 0 || c.TPOT <= sv.maxTPOT)
	}
	lo := max(vc.nodes, sv.minReplicas, 1)
	k := lo
	if lo <= MaxNodes && !meets(lo) {
		// The rate of k VMs grows with k: search for the fewest.
		k = lo + int64(sort.Search(int(MaxNodes-lo+1), func(i int) bool { return meets(lo + int64(i)) }))
	}
	driver := cTokensPerSecond
	if k > MaxNodes && sv.tps <= 0 {
		driver = cMaxTimePerOutputToken
	}
	vc.need(k, driver)
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
