// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds one size's evaluation for a request (eval), which the
// layout, the constraints, the ranking and the explanation read.

import "math/bits"

// eval is one size checked against one request.
type eval struct {
	in    *sizeInfo
	fails uint64 // bit set of failed constraints

	nodes       int64
	spans       bool // one job (one copy of the model, for inference) spans several VMs
	ibNeeded    bool
	sizing      float64 // share used, 0..1; -1 when unknown
	memBand     bool    // sizing is GPU memory use, scored on the target band
	pcieTP      bool    // a copy of the model is split over GPUs without NVLink
	timeDriven  bool    // the deadline, not memory, set the VM count
	forDeadline bool    // the job fits on one VM and a stated deadline added the others (scaleUp keeps it)
	budgetVMs   int64   // the VMs the default deadline takes where max_total_price_per_hour pays for fewer; 0 otherwise
	rackFill    int64   // VMs the layout added to fill its last rack; 0 when none
	gl          gpuLayout

	price, total float64
	hasPrice     bool
	spot         bool
	lacksSpot    bool // spot = true asked for, and the size has no spot price: listed after those with one
	noSpot       bool // spot = true asked for, and Azure sells no Spot VMs of the size in its price region: deployed on demand
	spotDate     string
	priceRegion  string
	region       string       // the region the size is placed in (placeSize); "" when the request names none, or none of its regions offers the size
	anyRegion    string       // without region and regions, the region of its price and quota chosen among those that price it (placeSize); "" when none does
	quota        quotaCheck   // the layout against the usage files (limitByQuota); zero without them
	costKey      float64      // what cost is compared on: the job's cost or the price of its work (a late service's, per output token); else total, or per core
	licShare     float64      // a timed hpc or htc layout's licences' share of its price per hour with them (license_cost_per_core_hour); 0 without
	speed        float64      // the layout's speed: 1 / job hours, tokens per second, or HPC throughput; 0 unknown
	hasFacts     bool         // speed is known (the request defines work and the catalog has the size's figures)
	lacksFacts   bool         // the request defines work and speed is not known: ranked after the others
	lateDefault  bool         // runs past the default deadline: ranked after the layouts that meet it
	slowDefault  bool         // a service that misses the default latency targets: ranked after the layouts that meet them
	ttft, tpot   float64      // a timed service's mean time to first token and per output token at its load, seconds; 0 otherwise
	serviceTPS   float64      // a timed service's output tokens per second over all its copies, at their capacity
	pt           servicePoint // a timed service's operating point (servicePointOf)
	ptCopies     int64        // the copies pt is of

	familyOK      bool    // the family serves the workload
	fit           float64 // family component: 1, 0.5, or 0 for fallback
	fallback      bool    // a fallback family: listed after the others
	support       string  // target support status
	retiringSoon  bool
	nativePrec    bool
	unusedRDMA    bool
	idleGPUShare  float64 // the job fits in one GPU: share of the size's GPUs left idle
	gpusNeeded    float64 // then the GPUs its demand needs at one copy per GPU (1 but for a service)
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

// memShare is the share of the GPU memory the job may use that it fills:
// the sizing share where sizing is on memory, else the memory layout's.
func (e *eval) memShare() float64 {
	if e.memBand || e.gl.Capacity <= 0 {
		return e.sizing
	}
	return e.gl.Used / e.gl.Capacity
}

// quotaOrder is the size's place in the ranking by quota: sufficient and
// unknown together (an unknown quota costs QuotaUnknownPenalty points
// instead), then insufficient; 0 for every size without usage files.
func (e *eval) quotaOrder() int {
	if e.quota.status == QuotaInsufficient {
		return 1
	}
	return 0
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
