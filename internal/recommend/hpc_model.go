// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file says how the per-VM model of hpc and htc jobs
// (perfmodel.HPCJob) compared the layouts: its bound, its parallel
// efficiency and each layout's throughput, in sentences.

import (
	"fmt"
	"strconv"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

const (
	// MaxParallelEfficiency bounds parallel_efficiency: 1.5, above the
	// superlinear 1.2 to 1.3 of the published runs whose cells per core
	// stay high as VMs are added.
	MaxParallelEfficiency = 1.5

	// MaxTotalMemoryGiB bounds total_memory_gib: 10 PiB, far beyond any
	// job the VMs one job may span can hold.
	MaxTotalMemoryGiB = 10 * 1024 * 1024
)

// hpcEfficiencyExplanation says where the parallel efficiency comes from
// when the team measured it.
func hpcEfficiencyExplanation(h *hpcWork) []string {
	switch {
	case h.Measured <= 0:
		return nil
	case h.MeasuredAt > 1:
		return []string{fmt.Sprintf("Parallel efficiency: %s%% measured on %d VMs (parallel_efficiency); the efficiency curve is scaled to pass through it.", trimFloat(h.Measured*100), h.MeasuredAt)}
	}
	return []string{fmt.Sprintf("Parallel efficiency: %s%% (parallel_efficiency) on every layout of more than one VM.", trimFloat(h.Measured*100))}
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

// hpcBoundExplanation is the requirements' sentence on the bound.
func hpcBoundExplanation(h *hpcWork) string {
	if h.Bound == BoundMemoryCapacity {
		return "Bound: " + h.Bound + " (hpc_bound): the job runs once its memory fits, which never adds up across VMs; the layout that holds it on the fewest VMs wins."
	}
	return "Bound: " + h.Bound + " (hpc_bound): throughput is compared as the VMs' " + h.Unit() + ", times the parallel efficiency."
}
