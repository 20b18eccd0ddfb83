// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the per-VM model of hpc and htc jobs on CPU sizes: the
// cores a job uses on each VM times a per-core rate, against the VM's
// STREAM and FP64 bounds, and the parallel efficiency over VMs. Its
// constants are fitted to Microsoft's published application runs on HBv3
// and HBv4 (the Azure Architecture Center HPC guides); the engine's
// evidence test (internal/recommend/hpc_evidence_test.go) predicts every
// one of those runs and prints the error.

import "math"

// HPC bounds: what limits the speed of an hpc or htc job.
const (
	// BoundMemoryBandwidth: the solver streams memory (most CFD, weather
	// and sparse solvers): throughput scales with STREAM bandwidth.
	BoundMemoryBandwidth = "memory_bandwidth"
	// BoundCompute: dense arithmetic (HPL-like kernels, many independent
	// compute tasks): throughput scales with FP64 peak.
	BoundCompute = "compute"
	// BoundMemoryCapacity: the problem size is set by memory: throughput
	// scales with memory per VM.
	BoundMemoryCapacity = "memory_capacity"
)

const (
	// HPCCoreGBsPerGHz is the memory traffic one core keeps moving per GHz
	// of its all-core clock when the VM's STREAM bandwidth does not bound
	// it: 3.0 GB/s, fitted with HPCBandwidthSharpness to the medians of 30
	// single-VM sweeps over the HBv3 constrained-core sizes (per-VM
	// throughput of HB120-16rs_v3, -32, -64 and -96 relative to
	// HB120rs_v3: 0.40, 0.62, 0.89, 0.99; the model gives 0.40, 0.67,
	// 0.90, 0.97). A memory-bound VM's rate joins its cores' rate
	// (cores × HPCCoreGBsPerGHz × clock) and its STREAM bandwidth, so few
	// cores reach a fraction of STREAM and each core of a constrained-core
	// size does more than a core of the full size.
	HPCCoreGBsPerGHz = 3.0

	// HPCBandwidthSharpness is how sharply a VM's rate turns from its
	// cores' rate to its STREAM bandwidth: rate = (a^-p + STREAM^-p)^(-1/p)
	// with a = cores × HPCCoreGBsPerGHz × clock and p = 2. Fitted with
	// HPCCoreGBsPerGHz: over every published single-VM sweep (HBv3 and
	// HBv4) p = 2 gives a median error of 11.5%, p = 1 (the harmonic sum)
	// 14.4%, p = 3 12.5%.
	HPCBandwidthSharpness = 2.0

	// HPCScalingLoss is the parallel-efficiency curve of a tightly coupled
	// job over n VMs: efficiency = 1 / (1 + HPCScalingLoss × (n - 1)),
	// 0.98 at 2 VMs, 0.94 at 4, 0.88 at 8 and 0.77 at 16. Fitted by least
	// squares to the median speed-up per VM of the published multi-VM
	// series (0.98 at 2 VMs, 0.97 at 4, 0.81 at 8 and 16). A team's own
	// parallel_efficiency scales the curve.
	HPCScalingLoss = 0.02
)

// HPCJob is an hpc or htc job as the per-VM model compares it.
type HPCJob struct {
	Bound   string // BoundMemoryBandwidth, BoundCompute or BoundMemoryCapacity
	Coupled bool   // hpc: tightly coupled, parallel efficiency across VMs
	Cores   int64  // the cores setting; 0: every core of each VM
	// Measured is a parallel efficiency the team measured (0: none),
	// MeasuredAt the VMs it was measured on (0: any VM count above 1).
	Measured   float64
	MeasuredAt int64
}

// CoresPerVM is the cores a job uses on each of nodes VMs of the size, on
// average: with cores, its ranks spread evenly over the VMs, at most the
// VM's; else every core of the VM.
func CoresPerVM(h *Hardware, cores, nodes int64) float64 {
	vm := float64(h.PhysCores)
	if vm <= 0 {
		vm = float64(h.VCPUs)
	}
	if cores <= 0 || nodes <= 0 {
		return vm
	}
	return math.Min(vm, float64(cores)/float64(nodes))
}

// SlotsPerVM is the ranks (hpc) or tasks (htc) a VM of the size runs at
// most: one per vCPU, a hyper-threaded size's vCPUs being its hardware
// threads (the layout counts a VM's cores by its vCPUs). The throughput
// counts the physical cores alone (CoresPerVM): hyper-threads add no FP64
// or memory bandwidth.
func SlotsPerVM(h *Hardware) int64 { return max(h.VCPUs, h.PhysCores) }

// TasksPerVM is the ranks or tasks the job runs at once on each of nodes
// VMs of the size: with cores, spread evenly over the VMs (the most any
// VM takes), at most SlotsPerVM; else one on each of its vCPUs.
func TasksPerVM(h *Hardware, cores, nodes int64) int64 {
	slots := SlotsPerVM(h)
	if cores <= 0 || nodes <= 0 {
		return slots
	}
	return min(slots, (cores+nodes-1)/nodes)
}

// VMRate is the throughput of one VM of the size running k cores of a
// job by the bound: for memory_bandwidth, the cores' rate (k ×
// HPCCoreGBsPerGHz × all-core clock) joined to the VM's STREAM bandwidth
// (HPCBandwidthSharpness); for compute, k × the FP64 rate of one core
// (cores × FP64 clock × FP64 FLOPs per cycle, never above the VM's). 0
// when the catalog lacks the figure.
func VMRate(h *Hardware, bound string, k float64) float64 {
	switch bound {
	case BoundMemoryBandwidth:
		if h.StreamGBs <= 0 || h.CoreGHz <= 0 || k <= 0 {
			return 0
		}
		p := HPCBandwidthSharpness
		return math.Pow(math.Pow(k*HPCCoreGBsPerGHz*h.CoreGHz, -p)+math.Pow(h.StreamGBs, -p), -1/p)
	case BoundCompute:
		return k * h.CoreFP64
	}
	return 0
}

// memoryCapacityRate is the throughput of a memory_capacity layout: the
// job runs once it fits, and the fewest VMs that hold it win (memory never
// adds up across VMs), so it counts one job over the VMs: 1 / nodes.
func memoryCapacityRate(nodes int64) float64 {
	return 1 / float64(max(nodes, 1))
}

// ScalingEfficiency is the parallel efficiency of a tightly coupled job
// on nodes VMs: the fitted curve, 1 on one VM.
func ScalingEfficiency(nodes int64) float64 {
	if nodes <= 1 {
		return 1
	}
	return 1 / (1 + HPCScalingLoss*float64(nodes-1))
}

// Rate is the throughput of a layout by the bound: the VMs times one VM's
// rate on the cores the job uses on it, times the parallel efficiency,
// which it returns too. 0 when the catalog has no figure.
func (j *HPCJob) Rate(h *Hardware, nodes int64) (rate, eff float64) {
	if j.Bound == BoundMemoryCapacity {
		return memoryCapacityRate(nodes), 1
	}
	per := VMRate(h, j.Bound, CoresPerVM(h, j.Cores, nodes))
	eff = j.Efficiency(nodes)
	return per * float64(nodes) * eff, eff
}

// Efficiency is the parallel efficiency of the job on nodes VMs: 1 on one
// VM; above, the fitted curve for hpc (1 for htc's independent tasks),
// scaled to pass through the measured efficiency at the VMs it was
// measured on, or the measured efficiency itself where no VM count was
// given.
func (j *HPCJob) Efficiency(nodes int64) float64 {
	if nodes <= 1 {
		return 1
	}
	curve := func(n int64) float64 {
		if j.Coupled {
			return ScalingEfficiency(n)
		}
		return 1
	}
	switch {
	case j.Measured <= 0:
		return curve(nodes)
	case j.MeasuredAt > 1:
		return curve(nodes) * j.Measured / curve(j.MeasuredAt)
	}
	return j.Measured
}

// TimeBound is the bound job time follows: memory_capacity jobs, once
// their memory fits, run at their memory bandwidth.
func (j *HPCJob) TimeBound() string {
	if j.Bound == BoundMemoryCapacity {
		return BoundMemoryBandwidth
	}
	return j.Bound
}

// TimedRate is the throughput of cores ranks spread over nodes VMs of the
// size by the time bound, with the parallel efficiency on nodes VMs.
func (j *HPCJob) TimedRate(h *Hardware, cores, nodes int64) float64 {
	return float64(nodes) * VMRate(h, j.TimeBound(), CoresPerVM(h, cores, nodes)) * j.Efficiency(nodes)
}

// CoresUsed is the cores the job runs on nodes VMs of the size, which a
// per-core licence counts: its ranks or tasks, one per vCPU (SlotsPerVM,
// as TasksPerVM places them): with cores, the cores; else every vCPU of
// the VMs. On a hyper-threaded size that is twice its physical cores,
// which alone give throughput (CoresPerVM).
func (j *HPCJob) CoresUsed(h *Hardware, nodes int64) float64 {
	all := float64(nodes * SlotsPerVM(h))
	if j.Cores > 0 {
		return math.Min(float64(j.Cores), all)
	}
	return all
}

// Unit names the bound's throughput unit.
func (j *HPCJob) Unit() string {
	switch j.Bound {
	case BoundMemoryBandwidth:
		return "GB/s of memory bandwidth"
	case BoundCompute:
		return "GFLOPS of FP64"
	}
	return "jobs per VM"
}
