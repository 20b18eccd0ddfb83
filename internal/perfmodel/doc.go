// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package perfmodel holds the performance models the ranking engine
// (internal/recommend) compares sizes with, apart from its policy: each is
// a function of model facts, hardware facts (Hardware, read from a catalog
// size) and a layout, and returns numbers. It imports the catalog and
// nothing of the ranking, after the serving and training simulators that
// keep the cost model apart from the search (Vidur, llm-analysis).
//
//   - precision.go: precisions, bytes per weight, what a GPU runs natively.
//   - hardware.go: Hardware, a size's GPU and CPU facts; PeakTFLOPS.
//   - memory.go: the memory model (EstimateMemory): weights, training
//     states, LoRA and QLoRA adapters, activations, the KV cache (KVCacheOf).
//   - fit.go: the per-GPU split (GPUJob.Fit): tensor parallelism inside a
//     VM, pipeline stages across VMs, copies for concurrent sequences,
//     sharded states, data parallelism.
//   - training.go: training FLOPs (LanguageModelWork) and how fast a
//     layout computes them (TrainingWork: MFU, rate, hours, the VMs a
//     deadline takes; TimeTraining).
//   - serving.go: the step model of a served language model
//     (Service.Speed on GPUs, Service.CPUSpeed on a CPU VM): prefill,
//     decode step, all-reduces, throughput and latency of one copy.
//   - hpc.go: the per-VM model of hpc and htc jobs (HPCJob): cores × a
//     per-core rate against STREAM and FP64, and the parallel efficiency.
//
// Every constant is named with its source or the fit that set it; the
// ranking guide (docs/guides/ranking.md) quotes them. The engine decides
// what to ask (the request's defaults, the layouts to search, the
// targets) and what the numbers mean for the ranking.
package perfmodel
