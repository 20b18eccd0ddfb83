// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the per-VM model of hpc and htc jobs on CPU sizes: the
// cores a job uses on each VM times a per-core rate, against the VM's
// STREAM and FP64 bounds, and the parallel efficiency over VMs. Its
// constants are fitted to Microsoft's published application runs on HBv3
// and HBv4 (the Azure Architecture Center HPC guides); the evidence test
// (hpc_evidence_test.go) predicts every one of those runs and prints the
// error.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
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

	// MaxParallelEfficiency bounds parallel_efficiency: 1.5, above the
	// superlinear 1.2 to 1.3 of the published runs whose cells per core
	// stay high as VMs are added.
	MaxParallelEfficiency = 1.5

	// MaxTotalMemoryGiB bounds total_memory_gib: 10 PiB, far beyond any
	// job the VMs one job may span can hold.
	MaxTotalMemoryGiB = 10 * 1024 * 1024
)

// hpcCoresPerVM is the cores a job uses on each of nodes VMs of the size,
// on average: with cores, its ranks spread evenly over the VMs, at most
// the VM's; else every core of the VM.
func hpcCoresPerVM(in *sizeInfo, cores, nodes int64) float64 {
	vm := float64(in.physCores)
	if vm <= 0 {
		vm = float64(in.vcpus)
	}
	if cores <= 0 || nodes <= 0 {
		return vm
	}
	return math.Min(vm, float64(cores)/float64(nodes))
}

// hpcVMRate is the throughput of one VM of the size running k cores of a
// job by the bound: for memory_bandwidth, the cores' rate (k ×
// HPCCoreGBsPerGHz × all-core clock) joined to the VM's STREAM bandwidth
// (HPCBandwidthSharpness); for compute, k × the FP64 rate of one core (cores × FP64
// clock × FP64 FLOPs per cycle, never above the VM's). 0 when the catalog
// lacks the figure.
func hpcVMRate(in *sizeInfo, bound string, k float64) float64 {
	switch bound {
	case BoundMemoryBandwidth:
		if in.streamGBs <= 0 || in.coreGHz <= 0 || k <= 0 {
			return 0
		}
		p := HPCBandwidthSharpness
		return math.Pow(math.Pow(k*HPCCoreGBsPerGHz*in.coreGHz, -p)+math.Pow(in.streamGBs, -p), -1/p)
	case BoundCompute:
		return k * in.coreFP64
	}
	return 0
}

// memoryCapacityRate is the throughput of a memory_capacity layout: the
// job runs once it fits, and the fewest VMs that hold it win (memory never
// adds up across VMs: min_memory_gib is per VM, total_memory_gib spread
// over the VMs), so it counts one job over the VMs: 1 / nodes.
func memoryCapacityRate(nodes int64) float64 {
	return 1 / float64(max(nodes, 1))
}

// hpcEfficiency is the parallel efficiency of a tightly coupled job on
// nodes VMs: the fitted curve, 1 on one VM.
func hpcEfficiency(nodes int64) float64 {
	if nodes <= 1 {
		return 1
	}
	return 1 / (1 + HPCScalingLoss*float64(nodes-1))
}

// efficiency is the parallel efficiency of the job on nodes VMs: 1 on one
// VM; above, the fitted curve for hpc (1 for htc's independent tasks),
// scaled to pass through parallel_efficiency at the VMs it was measured
// on, or parallel_efficiency itself where no VM count was given.
func (h *hpcWork) efficiency(nodes int64) float64 {
	if nodes <= 1 {
		return 1
	}
	curve := func(n int64) float64 {
		if h.coupled {
			return hpcEfficiency(n)
		}
		return 1
	}
	switch {
	case h.measured <= 0:
		return curve(nodes)
	case h.measuredAt > 1:
		return curve(nodes) * h.measured / curve(h.measuredAt)
	}
	return h.measured
}

// hpcEfficiencyExplanation says where the parallel efficiency comes from
// when the team measured it.
func hpcEfficiencyExplanation(h *hpcWork) []string {
	switch {
	case h.measured <= 0:
		return nil
	case h.measuredAt > 1:
		return []string{fmt.Sprintf("Parallel efficiency: %s%% measured on %d VMs (parallel_efficiency); the efficiency curve is scaled to pass through it.", trimFloat(h.measured*100), h.measuredAt)}
	}
	return []string{fmt.Sprintf("Parallel efficiency: %s%% (parallel_efficiency) on every layout of more than one VM.", trimFloat(h.measured*100))}
}

// hpcAssumptions says how a layout's hpc or htc throughput was derived.
func hpcAssumptions(n *requirements, e *eval, f figures) []string {
	if n.hpc.bound == BoundMemoryCapacity {
		return []string{fmt.Sprintf("Bound: %s (hpc_bound); the job's memory fits on %s, and the fewest VMs that hold it win: 1 / %d = %s, relative to the best layout of the request.",
			n.hpc.bound, catalog.Plural(e.nodes, "VM", "VMs"), e.nodes, strconv.FormatFloat(round4(f.hpcRate), 'f', -1, 64))}
	}
	return []string{fmt.Sprintf("Bound: %s (hpc_bound); %d VMs × %s %s per VM × %s%% parallel efficiency = %s, relative to the best layout of the request.",
		n.hpc.bound, e.nodes, trimFloat(f.hpcRate/float64(e.nodes)/f.eff), n.hpc.unit(), trimFloat(f.eff*100), trimFloat(f.hpcRate))}
}

// hpcBoundExplanation is the requirements' sentence on the bound.
func hpcBoundExplanation(h *hpcWork) string {
	if h.bound == BoundMemoryCapacity {
		return "Bound: " + h.bound + " (hpc_bound): the job runs once its memory fits, which never adds up across VMs; the layout that holds it on the fewest VMs wins."
	}
	return "Bound: " + h.bound + " (hpc_bound): throughput is compared as the VMs' " + h.unit() + ", times the parallel efficiency."
}
