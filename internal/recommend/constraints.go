// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// constraintDef describes one hard constraint: everything the engine says
// and checks about it lives in its entry of constraintTable.
type constraintDef struct {
	// name is the constraint as Rejection.Constraint and Constraints give it.
	name string
	// active reports whether the request sets the constraint at all; nil
	// means always. An inactive constraint is not checked.
	active func(n *requirements) bool
	// fails marks (with mark) the sizes that fail the constraint, from
	// their facts and layout (evaluate derives both first). It runs once
	// per request over every size, so that the check is a direct call in a
	// loop rather than a call through the table per size. Nil for the
	// constraints another step decides (decidedBy).
	fails func(n *requirements, evals []eval, bit uint64)
	// decidedBy names the step that decides a constraint without fails:
	// stageLayout (the VM count: the job does not fit the VMs allowed, in
	// memory, GPUs, cores, time or throughput) or stageCompare (once every
	// size is evaluated).
	decidedBy stage
	// reason says why sizes are removed, for this request (Rejection.Reason
	// and the Preferred Size Skipped warning).
	reason func(n *requirements) string
	// detail, when set, adds to the reason in Result.Rejected what the sizes
	// counted under the constraint have in common.
	detail func(n *requirements, evals []eval) string
	// relax says what to change so that the size passes (the nearest miss);
	// nil when users cannot relax the constraint, or relaxing it means
	// describing another job: a nearest miss never fails such a constraint.
	relax func(n *requirements, e *eval) string
}

// stage is the step of the evaluation that decides a constraint.
type stage uint8

const (
	stageCheck   stage = iota // the per-size checks (fails), after layout
	stageLayout               // layout, while it counts the VMs (see layout)
	stageCompare              // once every size is evaluated (see scaleUp)
)

func (s stage) String() string {
	return [...]string{"check", "layout", "compare"}[s]
}

// constraintTable holds the hard constraints, in evaluation order.
var constraintTable = [numConstraints]constraintDef{
	// Retired at the provider's date (always enforced).
	cRetired: {
		name: "retired",
		// SKU.RetiredOn, with the date prepare parsed once per catalog.
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				return e.in.sku.RetiredOn(e.in.retire, e.in.hasRetire, n.asOf)
			})
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Retired on or before %s (the provider's date); retired sizes are always excluded.", n.asOf.Format(catalog.DateLayout))
		},
	},
	// Retires within min_lifetime_months (default
	// DefaultMinLifetimeMonths) of the provider's date. Under the default,
	// a size prefer names stays (with its retirement warning): prefer
	// keeps a running size's name stable as its retirement date nears.
	cLifetime: {
		name: "min_lifetime_months",
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				// As SKU.RetiresWithin: the horizon's last day counts.
				return e.in.hasRetire && !e.in.retire.After(n.lifetimeCutoff) && (n.req.MinLifetimeMonths != nil || e.preferredRank < 0)
			})
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Retires within %d months of %s (on or before %s); lower min_lifetime_months to allow it.", n.lifetimeMonths, n.asOf.Format(catalog.DateLayout), n.lifetimeCutoff.Format(catalog.DateLayout))
		},
		relax: func(n *requirements, e *eval) string {
			s := e.in.sku
			return fmt.Sprintf("lower min_lifetime_months to %d or less (it retires on %s)", max(s.MonthsBeforeRetirement(n.asOf), 0), s.Lifecycle.RetirementDate)
		},
	},
	// In preview, unless include_preview.
	cPreview: {
		name:   "preview",
		active: func(n *requirements) bool { return !n.includePreview },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.in.sku.Lifecycle.Status == catalog.StatusPreview })
		},
		reason: func(*requirements) string { return "In preview; set include_preview = true to consider preview sizes." },
		relax:  func(*requirements, *eval) string { return "set include_preview = true" },
	},
	// Offered on request (catalog decision D73), unless include_on_request,
	// prefer names it, or the availability file lists it in its region
	// without a Location restriction: the subscription has it.
	cOnRequest: {
		name:   "on_request",
		active: func(n *requirements) bool { return !n.req.IncludeOnRequest },
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				s := e.in.sku
				return s.OnRequest && e.preferredRank < 0 && (!s.HasAvailability() || !s.AvailableIn(e.region))
			})
		},
		reason: func(*requirements) string {
			return "Offered on request: no public list of the Resource SKUs API names it, so a subscription has it only once Azure grants it. Set include_on_request = true, name it in prefer, or pass an availability_file that lists it."
		},
		relax: func(*requirements, *eval) string { return "set include_on_request = true (once Azure has granted it)" },
	},
	// No list of deployable sizes names it (catalog decision D44), unless
	// an availability file lists it: that shows the subscription can deploy
	// it, whatever the catalog's lists say.
	cDeployable: {
		name: "deployable",
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return !e.in.sku.Deployable && len(e.in.sku.Availability) == 0 })
		},
		reason: func(*requirements) string {
			return "No list of deployable sizes names it (the Resource SKUs API, AKS's GPU registry, the retail price data): it cannot be deployed. An availability file that lists it lets it through."
		},
	},
	// vCPUs or memory unknown (sizes listed only on retirement pages).
	cUnknownSpecs: {
		name: "unknown_specs",
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return !e.in.known })
		},
		reason: func(*requirements) string {
			return "The catalog does not know its vCPUs or memory (listed only on retirement pages)."
		},
	},
	// The family or category does not serve the workload (familyRules);
	// for data_processing also non-NVIDIA GPUs and compute capability below
	// DataProcessingMinComputeCapability.
	cWorkload: {
		name: "workload",
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				in := e.in
				return !e.familyOK || in.IsGPU != (n.fit.category == catalog.CategoryGPU) ||
					(n.dataProcessingCC.ok && (in.vendor != catalog.VendorNVIDIA || !in.cc.ok || in.cc.less(n.dataProcessingCC)))
			})
		},
		reason: func(n *requirements) string { return "Not a size for " + jobLabel(n) + ": " + n.fit.explain },
	},
	// A confidential size without confidential = true, or not confidential
	// with it.
	cConfidential: {
		name: "confidential",
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.in.sku.Confidential != n.confidential })
		},
		reason: func(n *requirements) string {
			if n.confidential {
				return "Not a confidential-computing size (confidential = true)."
			}
			return "A confidential-computing size, which needs confidential VM images and attestation; set confidential = true to consider these."
		},
		relax: func(_ *requirements, e *eval) string {
			if e.in.sku.Confidential {
				return "set confidential = true"
			}
			return "remove confidential = true"
		},
	},
	// Isolation differs from isolated when it is set.
	cIsolated: {
		name:   "isolated",
		active: func(n *requirements) bool { return n.isolated != nil },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.in.sku.Isolated != *n.isolated })
		},
		reason: func(n *requirements) string {
			if *n.isolated {
				return "Not an isolated size (isolated = true)."
			}
			return "An isolated size (isolated = false)."
		},
		relax: func(_ *requirements, e *eval) string {
			return fmt.Sprintf("set isolated = %t or remove it", e.in.sku.Isolated)
		},
	},
	// The GPU is not of the vendor asked.
	cGPUVendor: {
		name:   "gpu_vendor",
		active: func(n *requirements) bool { return n.vendor != GPUVendorAny },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.in.vendor != n.vendor })
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Has no %s GPU (gpu_vendor = %q).", strings.ToUpper(n.vendor), n.vendor)
		},
		relax: func(_ *requirements, e *eval) string {
			if !e.in.IsGPU {
				return "remove gpu_vendor (this size has no GPU)"
			}
			return fmt.Sprintf("set gpu_vendor to %q or \"any\"", e.in.vendor)
		},
	},
	// The GPU is not one of the models asked.
	cGPUModels: {
		name:   "gpu_models",
		active: func(n *requirements) bool { return len(n.gpuModels) > 0 },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				if e.in.IsGPU {
					for _, g := range n.gpuModels {
						if g == e.in.modelID || g == e.in.modelName {
							return false
						}
					}
				}
				return true
			})
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Its GPU is not one of gpu_models (%s).", strings.Join(n.req.GPUModels, ", "))
		},
		relax: func(_ *requirements, e *eval) string {
			if e.in.IsGPU {
				return fmt.Sprintf("add %q to gpu_models", e.in.sku.GPU.ModelID)
			}
			return "remove gpu_models"
		},
	},
	// The toolkit cannot run on the GPU: AMD GPUs (no CUDA), GPUs the
	// toolkit's major version no longer supports (GPU.MaxCUDAMajor below
	// it, e.g. V100 with CUDA 13), or GPUs newer than the toolkit
	// (GPU.MinCUDA above it, e.g. Blackwell with CUDA 12.0).
	cCUDA: {
		name:   "cuda_version",
		active: func(n *requirements) bool { return n.cuda.ok },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				in := e.in
				return in.vendor != catalog.VendorNVIDIA || int64(n.cuda.major) > in.maxCUDA || (in.minCUDA.ok && n.cuda.less(in.minCUDA))
			})
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Cannot run CUDA %s: AMD GPUs run ROCm, not CUDA, and each CUDA release supports a range of NVIDIA GPUs (CUDA 13 dropped Volta and older; Blackwell needs CUDA 12.8 or newer).", n.req.CUDAVersion)
		},
		relax: func(n *requirements, e *eval) string {
			in, s := e.in, e.in.sku
			switch {
			case !in.IsGPU:
				return "remove cuda_version (this size has no GPU)"
			case in.vendor != catalog.VendorNVIDIA:
				return "remove cuda_version (AMD GPUs run ROCm, not CUDA)"
			case int64(n.cuda.major) > in.maxCUDA:
				return fmt.Sprintf("use a CUDA %d.x toolkit or older (the %s is supported up to CUDA %d)", in.maxCUDA, s.GPU.Model, in.maxCUDA)
			default:
				return fmt.Sprintf("use cuda_version %s or newer (the %s needs it)", s.GPU.MinCUDA, s.GPU.Model)
			}
		},
	},
	// Below min_compute_capability, or not an NVIDIA GPU.
	cComputeCap: {
		name:   "min_compute_capability",
		active: func(n *requirements) bool { return n.minCC.ok },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return !e.in.cc.ok || e.in.cc.less(n.minCC) })
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Compute capability below %s, or not an NVIDIA GPU.", n.req.MinComputeCapability)
		},
		relax: func(_ *requirements, e *eval) string {
			if e.in.cc.ok {
				return fmt.Sprintf("lower min_compute_capability to %s", e.in.sku.GPU.ComputeCapability)
			}
			return "remove min_compute_capability (it applies to NVIDIA GPUs only)"
		},
	},
	// The target (aks, cyclecloud, azureml, batch) does not support the
	// size; "unknown" support is allowed with a warning.
	cTarget: {
		name: "target",
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.support == catalog.SupportUnsupported })
		},
		reason: func(n *requirements) string {
			if n.target == TargetKAITO {
				return fmt.Sprintf("Not supported on target %q: KAITO %s's SKU table does not list it (it lists whole NVIDIA and AMD GPUs of the V100 to H200 generations, no share of a GPU), or it has AMD GPUs, which the AKS add-on does not take, or AKS does not support it.", n.target, n.kaito.Version)
			}
			if n.target == TargetBatch {
				return fmt.Sprintf("Not supported on target %q: its support record says so, or, for a confidential size, azurerm_batch_pool cannot create confidential-VM pools (the OS disk security encryption type they need is not an argument of it; hashicorp/terraform-provider-azurerm#31422).", n.target)
			}
			return fmt.Sprintf("Not supported on target %q.", n.target)
		},
		relax: func(n *requirements, e *eval) string {
			return fmt.Sprintf("choose another target (%s is not supported on %s)", e.in.sku.Name, n.target)
		},
	},
	// Not offered in the region. Without an availability file: no price
	// there (a missing price usually means the size is not offered). With
	// one: the file does not list the size in the region (a listed size
	// without a price is kept, unpriced).
	cRegion: {
		name:   "region",
		active: func(n *requirements) bool { return n.regionScoped() },
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool {
				if e.region == "" {
					return true // no allowed region offers it
				}
				return !offeredIn(e.in.sku, e.region)
			})
		},
		reason: func(n *requirements) string {
			if n.availFile != "" {
				return fmt.Sprintf("Not offered in %s to this subscription: the availability file %s does not list it there.", n.regionWords(), n.availFile)
			}
			return fmt.Sprintf("No price in %s, which usually means the size is not offered there.", n.regionWords())
		},
		relax: relaxRegion,
	},
	// The availability file lists the size in the region with a Location
	// restriction for the subscription (NotAvailableForSubscription,
	// QuotaId); among regions, in every allowed region that lists it.
	cAvailability: {
		name:   "availability",
		active: func(n *requirements) bool { return n.regionScoped() },
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return locationRestriction(e.in.sku, e.region) != nil })
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Restricted for this subscription in %s by the availability file %s (a Location restriction: the subscription cannot deploy it there).", n.regionWords(), n.availFile)
		},
		detail: restrictionCodes,
		relax:  relaxRegion,
	},
	// require_quota: the usage file of the size's region leaves too few
	// vCPUs for the smallest layout that holds the job (quota.go). An
	// unknown quota passes, with a warning.
	cQuota: {
		name:   "quota",
		active: func(n *requirements) bool { return n.req.RequireQuota && n.quotaActive() },
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.quota.status == QuotaInsufficient })
		},
		reason: func(*requirements) string {
			return "The vCPU quota in the usage file of the region does not hold the smallest layout that runs the job (require_quota)."
		},
		relax: func(_ *requirements, e *eval) string {
			if inc := e.quota.increase(e.quota.needed()); inc != "" {
				return "r" + inc[1:len(inc)-1] + ", or set require_quota = false"
			}
			return "set require_quota = false"
		},
	},
	// Per VM; local disk is the temporary disk plus local NVMe.
	cMinVCPUs:     perVMMinimum("min_vcpus", "Fewer than %s vCPUs (min_vcpus).", func(n *requirements) float64 { return float64(n.minVCPUs) }, func(in *sizeInfo) float64 { return float64(in.VCPUs) }),
	cMinMemory:    perVMMinimum("min_memory_gib", "Less than %s GiB of memory (min_memory_gib).", func(n *requirements) float64 { return n.minMem }, func(in *sizeInfo) float64 { return in.memGiB }),
	cMinLocalDisk: perVMMinimum("min_local_disk_gib", "Less than %s GiB of temporary disk plus local NVMe (min_local_disk_gib).", func(n *requirements) float64 { return n.minDisk }, func(in *sizeInfo) float64 { return in.localDisk }),
	// Training or fine-tuning at a precision the GPU does not run natively
	// (bf16 on a T4 or V100, fp8 before Hopper, tf32 before Ampere). LoRA
	// on a quantised base and QLoRA compute in bf16 or fp16, either of
	// which will do. Inference at such a precision stays allowed, with a
	// warning and the step model's weight-only throughput.
	cPrecision: {
		name:   "precision",
		active: func(n *requirements) bool { return n.precisionActive() },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return !n.runsPrecision(e.in) })
		},
		reason: func(n *requirements) string {
			if n.workload == WorkloadInference {
				return fmt.Sprintf("The serving engines run no kernel for %s weights on its GPU: neither the GPU computes %s nor do their weight-only kernels support it (vLLM's quantization kernels: fp8 and fp4 from compute capability 8.0, int8 from 7.5, int4 from 7.0; on AMD GPUs fp8 and fp4 where the GPU computes fp8).", n.precision, n.precision)
			}
			p := n.train.ComputePrec
			if p == "" {
				p = "bf16 or fp16"
			}
			return fmt.Sprintf("Its GPU does not run %s natively, which %s needs (%s); training at a precision the GPU lacks runs emulated, many times slower, or fails.", p, n.workload, precisionWhat(n))
		},
		relax: func(n *requirements, e *eval) string {
			switch {
			case !e.in.IsGPU:
				return "choose a GPU size"
			case n.workload == WorkloadInference:
				return fmt.Sprintf("set model.precision = %q, the nearest precision the serving engines run on the %s", e.in.ClosestServing(n.precision), e.in.sku.GPU.Model)
			}
			return fmt.Sprintf("set model.precision = %q, the closest precision the %s runs natively", e.in.ClosestPrecision(n.train.ComputePrec), e.in.sku.GPU.Model)
		},
	},
	// gpu_memory, gpus, cores, system_memory (found by layout): the job does
	// not fit on the VMs allowed (nodes when set, otherwise the size's
	// InfiniBand span with InfiniBand, spanFor, and MaxNodes without;
	// spanDetail gives the spans of the sizes counted). gpus counts
	// whole GPUs, so partial-GPU sizes fail it; system_memory is
	// InferenceSystemMemoryFactor times the weights for inference.
	cGPUMemory: {
		name:      "gpu_memory",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("Cannot hold the %s GiB of GPU memory the job needs %s.", trimFloat(n.gpuMemNeed), memClause(n))
		},
		detail: spanDetail(cGPUMemory),
		relax: func(n *requirements, e *eval) string {
			in := e.in
			if !in.IsGPU || in.gpuMem <= 0 {
				return "remove gpu_memory_gib (this size has no GPU)"
			}
			vm := float64(in.GPUUnits) * in.UnitMemGiB * n.job.Share
			if n.fixedNodes > 0 {
				return fmt.Sprintf("raise nodes to %d, or lower the GPU memory need to %s GiB", ceilDiv(n.gpuMemNeed, vm), trimFloat(vm*float64(n.fixedNodes)))
			}
			if n.ibNeeded(true) && !in.sku.Network.RDMA {
				return fmt.Sprintf("lower the GPU memory need to what one VM holds (%s GiB), or set interconnect = \"any\" to span VMs over Ethernet", trimFloat(vm))
			}
			span := n.spanFor(in)
			return fmt.Sprintf("lower the GPU memory need to what %s hold (%s GiB)", catalog.Plural(span, "VM", "VMs"), trimFloat(vm*float64(span)))
		},
	},
	// The job's total fits the VMs allowed, but one GPU cannot hold its
	// share (found by layout): the model is split by tensor parallelism
	// inside a VM and pipeline stages across VMs (inference), or held whole
	// by every GPU (data-parallel kinds); each GPU's usable memory (times
	// GPUMemoryShare for a model's estimate) must hold its shard and its share
	// of the KV cache. A partial GPU is one unit of its slice.
	cGPUMemoryPerGPU: {
		name:      "gpu_memory_per_gpu",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return "One GPU cannot hold its share of the job: " + shareWhat(n) + "."
		},
		detail: perGPUDetail,
		relax: func(n *requirements, e *eval) string {
			usable := e.in.UnitMemGiB * n.job.Share
			what := lowerWhat(n)
			if activationsFill(n, usable) {
				what = contextTooLong(n)
			}
			return fmt.Sprintf("lower the need per GPU to %s GiB (it needs %s): %s", trimFloat(usable), trimFloat(e.gl.PerGPU), what)
		},
	},
	cGPUs: {
		name:      "gpus",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("Cannot provide %d whole GPUs %s (a partial GPU does not count).", n.gpus, nodesClause(n))
		},
		detail: spanDetail(cGPUs),
		relax: func(n *requirements, e *eval) string {
			in := e.in
			if !in.IsGPU {
				return "remove gpus (this size has no GPU)"
			}
			if in.GPUCount < 1 {
				return "remove gpus (this size has a partial GPU)"
			}
			if n.fixedNodes > 0 {
				return fmt.Sprintf("raise nodes to %d, or lower gpus to %s", ceilDiv(float64(n.gpus), in.GPUCount), trimFloat(in.GPUCount*float64(n.fixedNodes)))
			}
			return fmt.Sprintf("lower gpus to %s", trimFloat(in.GPUCount*float64(n.spanFor(in))))
		},
	},
	cCores: {
		name:      "cores",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("Cannot provide %d cores %s.", n.cores, nodesClause(n))
		},
		detail: spanDetail(cCores),
		relax: func(n *requirements, e *eval) string {
			in := e.in
			if n.fixedNodes > 0 {
				return fmt.Sprintf("raise nodes to %d, or lower cores to %d", ceilDiv(float64(n.cores), float64(in.VCPUs)), in.VCPUs*n.fixedNodes)
			}
			return fmt.Sprintf("lower cores to %d", in.VCPUs*n.spanFor(in))
		},
	},
	cSystemMemory: {
		name:      "system_memory",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			if n.fit.category == catalog.CategoryGPU && n.job.TensorParallel {
				return fmt.Sprintf("Has less system memory per VM than its share of %s GiB, 150%% of the model's weights (Azure Machine Learning guidance: start with a machine that has 150%% of the RAM your model requires).", trimFloat(n.sysMemNeed))
			}
			if n.workload == WorkloadHPC || n.workload == WorkloadHTC {
				return fmt.Sprintf("Cannot provide the job's %s GiB of memory (total_memory_gib) %s.", trimFloat(n.sysMemNeed), nodesClause(n))
			}
			return fmt.Sprintf("Cannot provide %s GiB of system memory %s (inference needs 150%% of the model weights; Azure Machine Learning guidance).", trimFloat(n.sysMemNeed), nodesClause(n))
		},
		detail: spanDetail(cSystemMemory),
		relax: func(n *requirements, e *eval) string {
			if n.fixedNodes > 0 && (n.fit.category != catalog.CategoryGPU || !n.job.TensorParallel) {
				return fmt.Sprintf("raise nodes to %d", ceilDiv(n.sysMemNeed, e.in.memGiB))
			}
			if n.workload == WorkloadHPC || n.workload == WorkloadHTC {
				return "lower total_memory_gib, or allow more VMs"
			}
			return "serve a smaller model, or a lower precision"
		},
	},
	// A training or fine-tuning job cannot finish within deadline_hours on
	// the VMs one job may span (found by layout; a default deadline never
	// removes a size).
	cDeadline: {
		name:      "deadline",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			where := "up to the size's InfiniBand span, one without"
			if !n.ibNeeded(true) {
				where = fmt.Sprintf("over Ethernet (interconnect = \"any\"), up to the size's InfiniBand span or %d, the more", MaxNodesRDMA)
			}
			if n.fixedNodes > 0 {
				where = fmt.Sprintf("%d, the nodes setting", n.fixedNodes)
			}
			return fmt.Sprintf("Cannot finish the job (%s FLOPs) within deadline_hours = %s on the VMs one job may span (%s%s), at the throughput the throughput model estimates.", sci(n.train.FLOPs), trimFloat(n.train.Deadline), where, poolClause(n))
		},
		detail: spanDetail(cDeadline),
		relax:  relaxDeadline,
	},
	// An inference service cannot sustain tokens_per_second within the
	// VMs allowed (found by layout).
	cTokensPerSecond: {
		name:      "tokens_per_second",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			sv, within := &n.serve, fmt.Sprintf("within %d VMs", n.serviceLimit())
			if n.fixedNodes > 0 {
				within = "on " + catalog.Plural(n.fixedNodes, "VM", "VMs") + " (nodes)"
			}
			if l := n.batchPoolVMs(true); l > 0 {
				_, what := n.poolVMs(nil)
				within += fmt.Sprintf(" (at most %d where a copy spans VMs, the nodes of the one pool target batch deploys, %s)", l, what)
			}
			if sv.minReplicas > 1 {
				within = fmt.Sprintf("on at least %d copies (min_replicas) %s", sv.minReplicas, within)
			}
			if sv.loadTPS <= 0 {
				return fmt.Sprintf("Cannot run its copies %s.", within)
			}
			return fmt.Sprintf("Cannot serve %s %s at no more than %s of their capacity, at the throughput the step model estimates.", loadWords(sv), within, percent(perfmodel.MaxUtilization))
		},
		relax: relaxLoad,
	},
	// No layout of a service meets a stated latency target (found by the
	// layout search).
	cMaxTimeToFirstToken: {
		name:      "max_time_to_first_token_ms",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("No layout brings a request's first token within %s ms (max_time_to_first_token_ms), at the step model's prefill and decode times.", trimFloat(n.serve.maxTTFT*1000))
		},
		relax: func(n *requirements, e *eval) string {
			return n.serve.raiseTarget("max_time_to_first_token_ms", n.serve.maxTTFT, e.gl.reachTTFT, &e.gl) + ", or shorten prompt_tokens"
		},
	},
	cMaxTimePerOutputToken: {
		name:      "max_time_per_output_token_ms",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("No layout generates a token every %s ms (max_time_per_output_token_ms), even one sequence per copy, at the step model's decode times.", trimFloat(n.serve.maxTPOT*1000))
		},
		relax: func(n *requirements, e *eval) string {
			return n.serve.raiseTarget("max_time_per_output_token_ms", n.serve.maxTPOT, e.gl.reachTPOT, &e.gl)
		},
	},
	// nodes is set above the VMs an InfiniBand job of the size can span
	// (found by layout).
	cNodes: {
		name:      "nodes",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			return fmt.Sprintf("nodes = %d is more than the VMs an InfiniBand job of the size can span: %s%s.", n.fixedNodes, spanWhat(), poolClause(n))
		},
		detail: spanDetail(cNodes),
		relax: func(n *requirements, e *eval) string {
			if n.workload == WorkloadHPC {
				// A tightly coupled MPI job over Ethernet: the HPC model
				// has no figure for that, so it is not offered.
				return fmt.Sprintf("lower nodes to %d", n.ibSpan(e.in))
			}
			return fmt.Sprintf("lower nodes to %d or set interconnect = \"any\"", n.ibSpan(e.in))
		},
	},
	// The smallest layout that holds the job takes more VMs than max_nodes
	// (found by layout).
	cMaxNodes: {
		name:      "max_nodes",
		decidedBy: stageLayout,
		reason: func(n *requirements) string {
			what := "holds the job"
			if n.serve.loadTPS > 0 {
				what += ", carries its load"
			}
			if n.serve.minReplicas > 1 {
				what += fmt.Sprintf(" and runs its %d copies (min_replicas) on separate VMs", n.serve.minReplicas)
			}
			return fmt.Sprintf("Its smallest layout that %s takes more VMs than max_nodes = %d.", what, n.maxNodes)
		},
		relax: func(_ *requirements, e *eval) string {
			return fmt.Sprintf("raise max_nodes to %d", e.nodes)
		},
	},
	// The job needs InfiniBand and the size has none.
	cInterconnect: {
		name: "interconnect",
		fails: func(_ *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return e.ibNeeded && !e.in.sku.Network.RDMA })
		},
		reason: func(n *requirements) string {
			if why := ibWhy(n); why != ibWhyMultiVM {
				return "Has no InfiniBand, which the job needs (" + why + ")."
			}
			return "Too small to hold the job on one VM, and has no InfiniBand for a job that spans several VMs."
		},
		relax: func(*requirements, *eval) string {
			return "set interconnect = \"any\" (the VMs then talk over Ethernet)"
		},
	},
	// Over the cap, or no price known.
	cMaxPrice: priceCap("max_price_per_hour", "per VM", func(n *requirements) float64 { return n.maxPrice },
		func(e *eval) float64 { return e.price },
		func(e *eval) string { return fmt.Sprintf("%s USD per hour in %s", trimPrice(e.price), e.priceRegion) }),
	cMaxTotalPrice: priceCap("max_total_price_per_hour", "for all VMs of the job", func(n *requirements) float64 { return n.maxTotal },
		func(e *eval) float64 { return e.total },
		func(e *eval) string {
			return fmt.Sprintf("%s at %s USD per hour in %s", catalog.Plural(e.nodes, "VM", "VMs"), trimPrice(e.price), e.priceRegion)
		}),
	// Needs several VMs while another size holds the job on one (not for
	// hpc, htc or a fixed nodes setting; never removes a size named in
	// prefer, nor a layout a stated deadline scaled out from one VM).
	// Found once every size is evaluated (scaleUp).
	cScaleUp: {
		name:      "scale_up",
		decidedBy: stageCompare,
		reason: func(*requirements) string {
			return "Needs several VMs while another size holds the job on one VM (scale up before scale out, Azure Machine Learning guidance)."
		},
	},
}

// perVMMinimum describes a per-VM minimum the request sets (min_vcpus,
// min_memory_gib, min_local_disk_gib); reasonFormat takes the minimum.
func perVMMinimum(name, reasonFormat string, minimum func(*requirements) float64, has func(*sizeInfo) float64) constraintDef {
	return constraintDef{
		name:   name,
		active: func(n *requirements) bool { return minimum(n) > 0 },
		fails: func(n *requirements, evals []eval, bit uint64) {
			mark(evals, bit, func(e *eval) bool { return has(e.in) < minimum(n) })
		},
		reason: func(n *requirements) string { return fmt.Sprintf(reasonFormat, trimFloat(minimum(n))) },
		relax:  func(_ *requirements, e *eval) string { return "lower " + name + " to " + trimFloat(has(e.in)) },
	}
}

// priceCap describes a price cap (max_price_per_hour per VM,
// max_total_price_per_hour for the job): over it, or no price known.
func priceCap(name, what string, limit func(*requirements) float64, price func(*eval) float64, priced func(*eval) string) constraintDef {
	return constraintDef{
		name:   name,
		active: func(n *requirements) bool { return limit(n) > 0 },
		fails: func(n *requirements, evals []eval, bit uint64) {
			// Within a millionth of a dollar: 6 × 19.8 is 118.80, which a cap
			// of 118.80 allows.
			mark(evals, bit, func(e *eval) bool { return !e.hasPrice || price(e) > limit(n)+1e-6 })
		},
		reason: func(n *requirements) string {
			return fmt.Sprintf("Costs more than %s USD per hour %s%s, or has no known price.", trimFloat(limit(n)), what, priceWhere(n))
		},
		relax: func(_ *requirements, e *eval) string {
			if !e.hasPrice {
				return "remove " + name + " (the catalog has no price for it)"
			}
			// Up to the cent, past the float error of a product such as 6 ×
			// 19.8 (118.80000000000001 is 118.80, not 118.81), as fails
			// compares.
			return fmt.Sprintf("raise %s to at least %s (%s)", name, money(math.Ceil(price(e)*100-1e-6)/100), priced(e))
		},
	}
}

// relaxDeadline is the deadline's advice on a size: the later
// deadline_hours the job meets on the VMs it may span, where deadline_hours
// may be that late (MaxDeadlineHours), with one rack where max_nodes below
// it keeps the job on one VM; else more VMs (moreVMsForDeadline).
func relaxDeadline(n *requirements, e *eval) string {
	in := e.in
	k := n.deadlineVMs(in)
	h, _ := n.train.Hours(&in.Hardware, k) // the deadline failed: timed
	if math.Ceil(h) > MaxDeadlineHours {
		return n.moreVMsForDeadline(in, k)
	}
	longer := fmt.Sprintf("raise deadline_hours to at least %s (the job takes that long on %s of it)", trimFloat(math.Ceil(h)), catalog.Plural(k, "VM", "VMs"))
	if r := in.rackVMs; n.fixedNodes == 0 && r > 1 && n.maxNodes < r && n.ibNeeded(true) && in.maxJobVMs >= r && n.train.MeetsDeadline(&in.Hardware, r) {
		// max_nodes below one rack keeps the job on one VM.
		return fmt.Sprintf("raise max_nodes to %d (Azure allocates these VMs by racks of %d when a job spans them), or %s", r, r, longer)
	}
	return longer
}

// moreVMsForDeadline is the deadline's advice on a size whose job takes
// longer on the k VMs it may span than deadline_hours may be: the
// fewest VMs of it one job may span with max_nodes (or nodes) raised that
// finish within deadline_hours, else within MaxDeadlineHours, with the
// deadline that takes; else that no layout the bounds allow finishes it.
func (n *requirements) moreVMsForDeadline(in *sizeInfo, k int64) string {
	setting := "max_nodes"
	if n.fixedNodes > 0 {
		setting = "nodes"
	}
	span := n.deadlineSpanWithin(in, MaxNodes)
	for _, d := range []float64{n.train.Deadline, MaxDeadlineHours} {
		t := n.train.TrainingWork
		t.Deadline = d
		v := t.DeadlineNodes(&in.Hardware, k)
		step := int64(1)
		if n.byRacks(v > 1) {
			v, step = wholeRacks(in, v), max(in.rackVMs, 1)
		}
		for v <= span && !t.MeetsDeadline(&in.Hardware, v) {
			v += step
		}
		if v > span {
			continue
		}
		hv, _ := t.Hours(&in.Hardware, v)
		if d == n.train.Deadline {
			return fmt.Sprintf("raise %s to %d (the job takes %s hours on %d VMs of it)", setting, v, trimFloat(math.Ceil(hv)), v)
		}
		return fmt.Sprintf("raise %s to %d and deadline_hours to at least %s (the job takes that long on %d VMs of it)", setting, v, trimFloat(math.Ceil(hv)), v)
	}
	most, _ := n.train.Hours(&in.Hardware, span)
	return fmt.Sprintf("none within the bounds: the job takes %s hours on %s of it, the most one job may span, and deadline_hours is at most %s; train on fewer tokens (tokens_billion) or a smaller model",
		trimFloat(math.Ceil(max(most, 0))), catalog.Plural(span, "VM", "VMs"), trimFloat(MaxDeadlineHours))
}

// relaxLoad says what lets a size that fails tokens_per_second serve, as
// its layout failed it on the VMs a service may take (serviceLimit): the
// copies min_replicas asks for when those VMs cannot hold them; else the
// most load they carry, where it is below the stated one (never a value
// the request already allows), with the nodes that carry the stated load
// where nodes is set; else the concurrent requests their KV cache holds.
func relaxLoad(n *requirements, e *eval) string {
	sv, gl := &n.serve, &e.gl
	vms := n.serviceVMs(e.in, gl, n.serviceLimit())
	on := catalog.Plural(vms, "VM", "VMs")
	if groups := vms / max(gl.PP, 1); sv.minReplicas > groups && n.fixedNodes == 0 {
		return fmt.Sprintf("lower min_replicas to %d (the copies %s hold)", groups, on)
	}
	most, name, per := n.mostLoad(e), "tokens_per_second", 1.0
	if sv.rateStated {
		name, per = "requests_per_second", sv.Output
	}
	if most > 0 && most < sv.loadTPS {
		lower := fmt.Sprintf("lower %s to %s (the most it serves on %s at %s of their capacity)", name, loadFigure(floorFigure(most/per)), on, percent(perfmodel.MaxUtilization))
		if k := sv.copiesForLoad(gl.pt.capacity.TPS); n.fixedNodes > 0 && k > 0 {
			if raise := n.raiseNodes(e.in, gl, k); raise != "" {
				return raise + ", or " + lower
			}
		}
		return lower
	}
	if copies, seqs := copiesOn(gl, vms), roomOf(e.in, gl); sv.concurrencyStated && copies*seqs < sv.seqs {
		return fmt.Sprintf("lower concurrent_requests to %d (the sequences the KV cache of the copies on %s holds)", copies*seqs, on)
	}
	if sv.loadTPS <= 0 {
		return "lower min_replicas"
	}
	return "lower " + name
}

// raiseNodes says what nodes setting holds k copies of a layout (whole
// groups of a VM's copies, each on its pipeline stages' VMs): nodes alone
// within the VMs a service may take under max_nodes (serviceVMs, which
// also holds copies spanning VMs to one Batch pool), nodes and max_nodes
// where only a higher max_nodes allows them, "" where none does. Followed
// literally, it never gives a nodes above max_nodes.
func (n *requirements) raiseNodes(in *sizeInfo, gl *gpuLayout, k int64) string {
	group := max(gl.PerGroup, 1)
	need := (k + group - 1) / group * max(gl.PP, 1)
	switch {
	case need <= n.serviceVMs(in, gl, n.maxNodes):
		return fmt.Sprintf("raise nodes to %d", need)
	case need <= n.serviceVMs(in, gl, MaxNodes):
		return fmt.Sprintf("raise nodes and max_nodes to %d", need)
	}
	return ""
}

// relaxRegion says where a size failing region or availability is offered.
func relaxRegion(_ *requirements, e *eval) string {
	in, s := e.in, e.in.sku
	if s.HasAvailability() {
		if regions := s.AvailableRegions(); len(regions) > 0 {
			return fmt.Sprintf("choose a region where the availability file offers it to this subscription, such as %s", strings.Join(firstN(regions, 3), ", "))
		}
		if e.failed(cAvailability) && s.QuotaFamily != "" {
			return fmt.Sprintf("ask Azure support to lift the restriction (quota family %s), or choose another region", s.QuotaFamily)
		}
		return "choose another region, or ask Azure support for access"
	}
	cheapest := slices.Clone(in.regions)
	slices.SortStableFunc(cheapest, func(a, b string) int { return cmp.Compare(s.Prices[a].USDPerHour, s.Prices[b].USDPerHour) })
	return fmt.Sprintf("choose a region where it is priced, such as %s (the cheapest first)", strings.Join(firstN(cheapest, 3), ", "))
}

// Constraints returns the names of the hard constraints in evaluation order.
func Constraints() []string {
	out := make([]string, numConstraints)
	for c := range constraintTable {
		out[c] = constraintTable[c].name
	}
	return out
}

func (c constraint) String() string { return constraintTable[c].name }

// notRelaxable are the constraints a nearest miss may not fail: those
// without a relax.
var notRelaxable = func() (mask uint64) {
	for c := range constraintTable {
		if constraintTable[c].relax == nil {
			mask |= 1 << c
		}
	}
	return mask
}()

// mark sets bit on the sizes for which fails is true.
func mark(evals []eval, bit uint64, fails func(e *eval) bool) {
	for i := range evals {
		if fails(&evals[i]) {
			evals[i].fails |= bit
		}
	}
}

// check runs the request's active checks over every size.
func check(n *requirements, evals []eval) {
	for m := activeChecks(n); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		constraintTable[c].fails(n, evals, 1<<c)
	}
}

// activeChecks is the bit set of the constraints the request sets that
// evaluate checks (not those found by layout or scaleUp).
func activeChecks(n *requirements) (mask uint64) {
	for c := range constraintTable {
		d := &constraintTable[c]
		if d.decidedBy == stageCheck && (d.active == nil || d.active(n)) {
			mask |= 1 << c
		}
	}
	return mask
}

// rejectionReason explains a constraint for this request, with its
// detail on the sizes of evals counted under it.
func rejectionReason(n *requirements, c constraint, evals []eval) string {
	reason := constraintTable[c].reason(n)
	if d := constraintTable[c].detail; d != nil {
		if s := d(n, evals); s != "" {
			reason += " " + s
		}
	}
	return reason
}

// relax says what to change so that the size passes one constraint.
func relax(n *requirements, c constraint, e *eval) string {
	if r := constraintTable[c].relax; r != nil {
		return r(n, e)
	}
	return "relax " + c.String()
}

// rejections counts each removed size under its first failed constraint.
func rejections(n *requirements, evals []eval) []Rejection {
	var counts [numConstraints]int64
	var examples [numConstraints][]string
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 {
			continue
		}
		c := e.firstFail()
		counts[c]++
		if examples[c] == nil {
			examples[c] = make([]string, 0, 3)
		}
		if len(examples[c]) < 3 {
			examples[c] = append(examples[c], e.in.sku.Name)
		}
	}
	var out []Rejection
	for c := constraint(0); c < numConstraints; c++ {
		if counts[c] > 0 {
			out = append(out, Rejection{Constraint: c.String(), Count: counts[c], Examples: examples[c], Reason: rejectionReason(n, c, evals)})
		}
	}
	return out
}

// restrictionCodes lists the availability file's reason codes of the sizes
// counted under the availability constraint, each with its sizes.
func restrictionCodes(n *requirements, evals []eval) string {
	byCode := map[string][]string{}
	var codes []string
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.firstFail() != cAvailability {
			continue
		}
		code := "no reason code"
		if r := locationRestriction(e.in.sku, e.region); r != nil && r.ReasonCode != "" {
			code = r.ReasonCode
		}
		if _, ok := byCode[code]; !ok {
			codes = append(codes, code)
		}
		byCode[code] = append(byCode[code], e.in.sku.Name)
	}
	slices.Sort(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = c + " (" + someNames(byCode[c]) + ")"
	}
	return "Reason codes: " + strings.Join(parts, "; ") + "."
}

// spanDetail returns constraint c's detail: the VMs one job may span on
// each size counted under it (spanOf), largest first, with up to three
// sizes named for each figure. Empty where the reason names the VMs
// itself (nodes set, no InfiniBand needed, a GPU model's memory per VM),
// and silent on the sizes without InfiniBand a job that needs it holds on
// one VM, which the reason names.
func spanDetail(c constraint) func(n *requirements, evals []eval) string {
	return func(n *requirements, evals []eval) string {
		if !spansMatter(n, c) {
			return ""
		}
		oneVM := n.ibNeeded(true) && c != cNodes
		bySpan := map[int64][]string{}
		var spans []int64
		for i := range evals {
			e := &evals[i]
			if e.fails == 0 || e.firstFail() != c || oneVM && !e.in.sku.Network.RDMA {
				continue
			}
			k := n.spanOf(c, e.in)
			if _, ok := bySpan[k]; !ok {
				spans = append(spans, k)
			}
			bySpan[k] = append(bySpan[k], e.in.sku.Name)
		}
		if len(spans) == 0 {
			return ""
		}
		slices.Sort(spans)
		slices.Reverse(spans)
		parts := make([]string, len(spans))
		for i, k := range spans {
			parts[i] = catalog.Plural(k, "VM", "VMs") + " on " + someNames(bySpan[k])
		}
		return "One job may span " + strings.Join(parts, "; ") + "."
	}
}

// spansMatter reports whether constraint c's reason leaves each size's
// span to spanDetail.
func spansMatter(n *requirements, c constraint) bool {
	switch {
	case c == cNodes || c == cDeadline && n.fixedNodes == 0:
		return true
	case n.fixedNodes > 0 || !n.ibNeeded(true):
		return false
	}
	return c != cSystemMemory || n.fit.category != catalog.CategoryGPU || !n.job.TensorParallel
}

// someNames joins up to three names and counts the others.
func someNames(names []string) string {
	if len(names) > 3 {
		names = append(names[:3:3], "and "+itoa(int64(len(names)-3))+" more")
	}
	return strings.Join(names, ", ")
}

// perGPUDetail gives the numbers of the first size counted under
// gpu_memory_per_gpu.
func perGPUDetail(n *requirements, evals []eval) string {
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.firstFail() != cGPUMemoryPerGPU {
			continue
		}
		in := e.in
		usable := trimFloat(in.UnitMemGiB)
		if n.job.Share < 1 {
			usable = fmt.Sprintf("%s GiB × %s%% = %s", trimFloat(in.UnitMemGiB), trimFloat(n.job.Share*100), trimFloat(in.UnitMemGiB*n.job.Share))
		}
		out := fmt.Sprintf("For example %s needs %s GiB on each GPU against %s GiB it can use", in.sku.Name, trimFloat(e.gl.PerGPU), usable)
		if activationsFill(n, in.UnitMemGiB*n.job.Share) {
			out += ": " + contextTooLong(n)
		}
		return out + "."
	}
	return ""
}
