// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file names the hard constraints, in evaluation order; their table
// (what each checks, says and relaxes) is in constraints.go.

// constraint identifies a hard constraint; the order is the evaluation
// order, and a removed size is counted under the first one it fails. It is
// the order a reader expects: what the size is (workload, category, GPU
// vendor and model, CUDA, precision), whether it holds the job (memory in
// total and per GPU, GPUs, cores, layout and InfiniBand), where it runs
// (region, availability, not retired, target: a retired size runs on no
// target, and is reported as retired whatever the target), its lifecycle,
// the price caps, then the rest.
type constraint uint8

const (
	cWorkload constraint = iota
	cUnknownSpecs
	cGPUVendor
	cGPUModels
	cCUDA
	cComputeCap
	cPrecision
	cGPUMemory
	cGPUMemoryPerGPU
	cGPUs
	cCores
	cSystemMemory
	cDeadline
	cTokensPerSecond
	cMaxTimeToFirstToken
	cMaxTimePerOutputToken
	cNodes
	cMaxNodes
	cInterconnect
	cRegion
	cAvailability
	cQuota
	cRetired
	cTarget
	cLifetime
	cPreview
	cOnRequest
	cDeployable
	cMaxPrice
	cMaxTotalPrice
	cConfidential
	cIsolated
	cMinVCPUs
	cMinMemory
	cMinLocalDisk
	cScaleUp
	numConstraints
)

// A size's failed constraints are the bits of a uint64: this fails to
// compile when the table outgrows it.
var _ [64 - numConstraints]struct{}

// memoryConstraints are the constraints of a size that cannot hold the job.
const memoryConstraints = 1<<cGPUMemory | 1<<cGPUMemoryPerGPU
