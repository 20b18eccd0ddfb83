package recommend

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// constraint identifies a hard constraint; the order is the evaluation
// order, and a removed size is counted under the first one it fails.
type constraint uint8

const (
	cRetired constraint = iota
	cLifetime
	cPreview
	cUnknownSpecs
	cWorkload
	cConfidential
	cIsolated
	cGPUVendor
	cGPUModels
	cCUDA
	cComputeCap
	cTarget
	cRegion
	cAvailability
	cMinVCPUs
	cMinMemory
	cMinLocalDisk
	cGPUMemory
	cGPUs
	cCores
	cSystemMemory
	cNodes
	cInterconnect
	cMaxPrice
	cMaxTotalPrice
	cScaleUp
	numConstraints
)

// constraintNames names the hard constraints in evaluation order, as they
// appear in Rejection.Constraint (Constraints returns a copy):
//
//   - retired: retired at the provider's date (always enforced).
//   - min_lifetime_months: retires within min_lifetime_months (default 12)
//     of the provider's date.
//   - preview: in preview, unless include_preview.
//   - unknown_specs: vCPUs or memory unknown (sizes listed only on
//     retirement pages).
//   - workload: the family or category does not serve the workload
//     (familyRules); for data_processing also non-NVIDIA GPUs and compute
//     capability below 7.0.
//   - confidential: a confidential size without confidential = true, or
//     not confidential with it.
//   - isolated: isolation differs from isolated when it is set.
//   - gpu_vendor, gpu_models: the GPU is not of the vendor or models asked.
//   - cuda_version: the toolkit cannot run on the GPU: AMD GPUs (no CUDA),
//     GPUs the toolkit's major version no longer supports (GPU.MaxCUDAMajor
//     below it, e.g. V100 with CUDA 13), or GPUs newer than the toolkit
//     (GPU.MinCUDA above it, e.g. Blackwell with CUDA 12.0).
//   - min_compute_capability: below it, or not an NVIDIA GPU.
//   - target: the target (aks, cyclecloud, azureml, batch) does not support
//     the size; "unknown" support is allowed with a warning.
//   - region: not offered in the region. Without an availability file: no
//     price there (a missing price usually means the size is not offered).
//     With one: the file does not list the size in the region (a listed
//     size without a price is kept, unpriced).
//   - availability: the availability file lists the size in the region
//     with a Location restriction for the subscription
//     (NotAvailableForSubscription, QuotaId).
//   - min_vcpus, min_memory_gib, min_local_disk_gib: per VM; local disk is
//     the temporary disk plus local NVMe.
//   - gpu_memory, gpus, cores, system_memory: the job does not fit on the
//     VMs allowed (nodes when set, otherwise up to 100 VMs with InfiniBand
//     and 1,000 without); gpus counts whole GPUs, so partial-GPU sizes fail
//     it; system_memory is 150% of the weights for inference.
//   - nodes: nodes is set above the 100 VMs an InfiniBand job can use.
//   - interconnect: the job needs InfiniBand and the size has none.
//   - max_price_per_hour, max_total_price_per_hour: over the cap, or no
//     price known.
//   - scale_up: needs several VMs while another size holds the job on one
//     (not for hpc, htc or a fixed nodes setting; never removes a size
//     named in prefer).
var constraintNames = [numConstraints]string{
	"retired", "min_lifetime_months", "preview", "unknown_specs", "workload", "confidential", "isolated",
	"gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "target", "region",
	"availability", "min_vcpus", "min_memory_gib", "min_local_disk_gib", "gpu_memory", "gpus", "cores", "system_memory",
	"nodes", "interconnect", "max_price_per_hour", "max_total_price_per_hour", "scale_up",
}

// Constraints returns the names of the hard constraints in evaluation order.
func Constraints() []string { return slices.Clone(constraintNames[:]) }

func (c constraint) String() string { return constraintNames[c] }

// notRelaxable are constraints a nearest miss may not fail: the user cannot
// relax them (or relaxing means describing another job).
const notRelaxable = 1<<cRetired | 1<<cUnknownSpecs | 1<<cWorkload | 1<<cScaleUp

// eval is one size checked against one request.
type eval struct {
	in    *sizeInfo
	fails uint32 // bit set of failed constraints

	nodes    int64
	ibNeeded bool
	sizing   float64 // share used, 0..1; -1 when unknown

	price, total float64
	hasPrice     bool
	spot         bool
	priceRegion  string
	costKey      float64 // what cost is compared on (total, or per core)

	fit           float64 // family component: 1, 0.5, or 0 for fallback
	fallback      bool    // a fallback family: listed after the others
	support       string  // target support status
	retiringSoon  bool
	nativePrec    bool
	unusedRDMA    bool
	idleGPUShare  float64 // the job fits in one GPU: share of the size's GPUs left idle
	score         float64
	preferredRank int    // index in prefer, -1 when not named
	restriction   string // the availability file's reason code when it restricts the size in the region
}

func (e *eval) failed(c constraint) bool { return e.fails&(1<<c) != 0 }

// firstFail is the constraint a rejected size is counted under.
func (e *eval) firstFail() constraint { return constraint(bits.TrailingZeros32(e.fails)) }

// familyFit returns the family component and whether the family is a
// fallback; ok is false when the family does not serve the workload.
func (n *norm) familyFit(fam string) (fit float64, fallback, ok bool) {
	if contains(n.fit.preferred, fam) {
		return 1, false, true
	}
	if contains(n.fit.acceptable, fam) {
		return 0.5, false, true
	}
	if contains(n.fit.fallback, fam) {
		return 0, true, true
	}
	return 0, false, false
}

func supportStatus(s *catalog.SKU, target string) string {
	switch target {
	case TargetAKS:
		return s.Support.AKS.Status
	case TargetCycleCloud:
		return s.Support.CycleCloud.Status
	case TargetAzureML:
		return s.Support.AzureML.Status
	case TargetBatch:
		return s.Support.Batch.Status
	}
	return catalog.SupportSupported
}

func ceilDiv(a, b float64) int64 {
	if b <= 0 {
		return math.MaxInt32
	}
	q := math.Ceil(a/b - 1e-9)
	if q > math.MaxInt32 {
		return math.MaxInt32
	}
	return max(int64(q), 1)
}

// evaluate checks every constraint (all of them, for the nearest miss) and
// computes the layout and price of one size.
func (n *norm) evaluate(in *sizeInfo, e *eval) {
	*e = eval{in: in, preferredRank: -1, sizing: -1, nativePrec: true}
	s := in.sku
	fail := func(c constraint) { e.fails |= 1 << c }

	// As SKU.RetiredAt, with the date parsed once per catalog.
	if s.Lifecycle.Status == catalog.StatusRetired || (in.hasRetire && !n.asOf.Before(in.retire)) {
		fail(cRetired)
	}
	if in.hasRetire && in.retire.Before(n.lifetimeCutoff) {
		fail(cLifetime)
	}
	// As SKU.RetiresWithin(asOf, catalog.RetirementWarningMonths); retired
	// sizes fail above.
	if in.hasRetire && !in.retire.After(n.warnCutoff) {
		e.retiringSoon = true
	}
	if s.Lifecycle.Status == catalog.StatusPreview && !n.includePreview {
		fail(cPreview)
	}
	if !in.known {
		fail(cUnknownSpecs)
	}
	fitOK := false
	e.fit, e.fallback, fitOK = n.familyFit(s.Family)
	if !fitOK || in.isGPU != (n.fit.category == catalog.CategoryGPU) {
		fail(cWorkload)
	}
	if n.dataProcessingCC.ok && (in.vendor != catalog.VendorNVIDIA || !in.cc.ok || in.cc.less(n.dataProcessingCC)) {
		fail(cWorkload)
	}
	if s.Confidential != n.confidential {
		fail(cConfidential)
	}
	if n.isolated != nil && s.Isolated != *n.isolated {
		fail(cIsolated)
	}
	if n.vendor != GPUVendorAny && in.vendor != n.vendor {
		fail(cGPUVendor)
	}
	if len(n.gpuModels) > 0 {
		ok := false
		if in.isGPU {
			for _, g := range n.gpuModels {
				if g == in.modelID || g == in.modelName {
					ok = true
					break
				}
			}
		}
		if !ok {
			fail(cGPUModels)
		}
	}
	if n.cuda.ok {
		if in.vendor != catalog.VendorNVIDIA || int64(n.cuda.major) > in.maxCUDA || (in.minCUDA.ok && n.cuda.less(in.minCUDA)) {
			fail(cCUDA)
		}
	}
	if n.minCC.ok && (!in.cc.ok || in.cc.less(n.minCC)) {
		fail(cComputeCap)
	}
	e.support = supportStatus(s, n.target)
	if e.support == catalog.SupportUnsupported {
		fail(cTarget)
	}

	// Price: the region's, or the lowest over all regions; spot where known.
	// With an availability file, the file says whether the size is offered
	// in the region; without one, a price there does.
	if n.region != "" {
		p, priced := s.Prices[n.region]
		if priced {
			e.price, e.hasPrice, e.priceRegion = p.USDPerHour, true, n.region
			if n.spot && p.SpotUSDPerHour != nil {
				e.price, e.spot = *p.SpotUSDPerHour, true
			}
		}
		if s.HasAvailability() {
			if ra, listed := s.AvailabilityIn(n.region); !listed {
				fail(cRegion)
			} else if r := ra.LocationRestriction(); r != nil {
				fail(cAvailability)
				e.restriction = r.ReasonCode
			}
		} else if !priced {
			fail(cRegion)
		}
	} else if n.spot && in.minSpotRegion != "" {
		e.price, e.hasPrice, e.spot, e.priceRegion = in.minSpot, true, true, in.minSpotRegion
	} else if in.nPriced > 0 {
		e.price, e.hasPrice, e.priceRegion = in.minPrice, true, in.minPriceRegion
	}

	if n.minVCPUs > 0 && in.vcpus < n.minVCPUs {
		fail(cMinVCPUs)
	}
	if n.minMem > 0 && in.memGiB < n.minMem {
		fail(cMinMemory)
	}
	if n.minDisk > 0 && in.localDisk < n.minDisk {
		fail(cMinLocalDisk)
	}

	// Layout: the fewest VMs of this size that hold the job.
	nodes := int64(1)
	driver := constraint(numConstraints)
	need := func(k int64, c constraint) {
		if k > nodes {
			nodes, driver = k, c
		}
	}
	if in.known {
		if n.gpuMemNeed > 0 {
			if !in.isGPU || in.gpuMem <= 0 {
				fail(cGPUMemory)
			} else {
				need(ceilDiv(n.gpuMemNeed, in.gpuMem), cGPUMemory)
			}
		}
		if n.gpus > 0 {
			if !in.isGPU || in.gpuCount < 1 {
				fail(cGPUs)
			} else {
				need(ceilDiv(float64(n.gpus), in.gpuCount), cGPUs)
			}
		}
		if n.cores > 0 {
			need(ceilDiv(float64(n.cores), float64(in.vcpus)), cCores)
		}
		if n.sysMemNeed > 0 {
			need(ceilDiv(n.sysMemNeed, in.memGiB), cSystemMemory)
		}
	}
	if n.fixedNodes > 0 {
		if nodes > n.fixedNodes {
			fail(driver)
		}
		nodes = n.fixedNodes
	}
	e.nodes = nodes
	e.ibNeeded = n.ibNeeded(nodes)
	limit := int64(MaxNodes)
	if e.ibNeeded {
		limit = MaxNodesRDMA
	}
	if nodes > limit {
		if n.fixedNodes > 0 {
			fail(cNodes)
		} else {
			fail(driver)
		}
	}
	if e.ibNeeded && !s.Network.RDMA {
		fail(cInterconnect)
	}
	e.unusedRDMA = !e.ibNeeded && s.Network.RDMA && n.interconnect == InterconnectAuto

	if e.hasPrice {
		e.total = e.price * float64(nodes)
		e.costKey = e.total
		if (n.workload == WorkloadHTC || n.workload == WorkloadHPC) && n.cores == 0 && n.fixedNodes == 0 && in.vcpus > 0 {
			e.costKey = e.price / float64(in.vcpus)
		}
	}
	if n.maxPrice > 0 && (!e.hasPrice || e.price > n.maxPrice) {
		fail(cMaxPrice)
	}
	if n.maxTotal > 0 && (!e.hasPrice || e.total > n.maxTotal) {
		fail(cMaxTotalPrice)
	}

	// Job sizing: the share of what the VMs provide that the job uses.
	fn := float64(nodes)
	switch {
	case !in.known:
	case n.gpuMemNeed > 0 && in.gpuMem > 0:
		e.sizing = n.gpuMemNeed / (fn * in.gpuMem)
	case n.gpus > 0 && in.gpuCount > 0:
		e.sizing = float64(n.gpus) / (fn * in.gpuCount)
	case n.cores > 0 && in.vcpus > 0:
		e.sizing = float64(n.cores) / (fn * float64(in.vcpus))
	case n.sysMemNeed > 0 && in.memGiB > 0:
		e.sizing = n.sysMemNeed / (fn * in.memGiB)
	}
	if e.sizing > 1 {
		e.sizing = 1
	}
	if in.known && in.isGPU && in.gpuCount > 1 && nodes == 1 && n.gpus <= 1 &&
		n.gpuMemNeed > 0 && n.gpuMemNeed <= in.gpuMem/in.gpuCount {
		e.idleGPUShare = (in.gpuCount - 1) / in.gpuCount
	}
	if n.hasModel && in.isGPU {
		e.nativePrec = in.nativePrecision(n.precision)
	}
}

// rejectionReason explains a constraint for this request.
func (n *norm) rejectionReason(c constraint) string {
	date := n.asOfText
	switch c {
	case cRetired:
		return fmt.Sprintf("Retired on or before %s (the provider's date); retired sizes are always excluded.", date)
	case cLifetime:
		return fmt.Sprintf("Retires within %d months of %s (before %s); lower min_lifetime_months to allow it.", n.lifetimeMonths, date, n.lifetimeCutoff.Format(catalog.DateLayout))
	case cPreview:
		return "In preview; set include_preview = true to consider preview sizes."
	case cUnknownSpecs:
		return "The catalog does not know its vCPUs or memory (listed only on retirement pages)."
	case cWorkload:
		r := fmt.Sprintf("Not a size for %s: %s", n.workloadLabel(), n.fit.explain)
		return r
	case cConfidential:
		if n.confidential {
			return "Not a confidential-computing size (confidential = true)."
		}
		return "A confidential-computing size, which needs confidential VM images and attestation; set confidential = true to consider these."
	case cIsolated:
		if *n.isolated {
			return "Not an isolated size (isolated = true)."
		}
		return "An isolated size (isolated = false)."
	case cGPUVendor:
		return fmt.Sprintf("Has no %s GPU (gpu_vendor = %q).", strings.ToUpper(n.vendor), n.vendor)
	case cGPUModels:
		return fmt.Sprintf("Its GPU is not one of gpu_models (%s).", strings.Join(n.req.GPUModels, ", "))
	case cCUDA:
		return fmt.Sprintf("Cannot run CUDA %s: AMD GPUs run ROCm, not CUDA, and each CUDA release supports a range of NVIDIA GPUs (CUDA 13 dropped Volta and older; Blackwell needs CUDA 12.8 or newer).", n.req.CUDAVersion)
	case cComputeCap:
		return fmt.Sprintf("Compute capability below %s, or not an NVIDIA GPU.", n.req.MinComputeCapability)
	case cTarget:
		return fmt.Sprintf("Not supported on target %q.", n.target)
	case cRegion:
		if n.availFile != "" {
			return fmt.Sprintf("Not offered in region %q to this subscription: the availability file %s does not list it there.", n.region, n.availFile)
		}
		return fmt.Sprintf("No price in region %q, which usually means the size is not offered there.", n.region)
	case cAvailability:
		return fmt.Sprintf("Restricted for this subscription in region %q by the availability file %s (a Location restriction: the subscription cannot deploy it there).", n.region, n.availFile)
	case cMinVCPUs:
		return fmt.Sprintf("Fewer than %d vCPUs (min_vcpus).", n.minVCPUs)
	case cMinMemory:
		return fmt.Sprintf("Less than %s GiB of memory (min_memory_gib).", trimFloat(n.minMem))
	case cMinLocalDisk:
		return fmt.Sprintf("Less than %s GiB of temporary disk plus local NVMe (min_local_disk_gib).", trimFloat(n.minDisk))
	case cGPUMemory:
		return fmt.Sprintf("Cannot hold the %s GiB of GPU memory the job needs %s.", trimFloat(n.gpuMemNeed), n.nodesClause())
	case cGPUs:
		return fmt.Sprintf("Cannot provide %d whole GPUs %s (a partial GPU does not count).", n.gpus, n.nodesClause())
	case cCores:
		return fmt.Sprintf("Cannot provide %d cores %s.", n.cores, n.nodesClause())
	case cSystemMemory:
		return fmt.Sprintf("Cannot provide %s GiB of system memory %s (inference needs 150%% of the model weights; Azure Machine Learning guidance).", trimFloat(n.sysMemNeed), n.nodesClause())
	case cNodes:
		return fmt.Sprintf("nodes = %d is more than the %d VMs an InfiniBand job can use (one placement group).", n.fixedNodes, MaxNodesRDMA)
	case cInterconnect:
		if why := n.ibWhy(); why != "the job spans several VMs" {
			return "Has no InfiniBand, which the job needs (" + why + ")."
		}
		return "Too small to hold the job on one VM, and has no InfiniBand for a job that spans several VMs."
	case cMaxPrice:
		return fmt.Sprintf("Costs more than %s USD per hour per VM%s, or has no known price.", trimFloat(n.maxPrice), n.priceWhere())
	case cMaxTotalPrice:
		return fmt.Sprintf("Costs more than %s USD per hour for all VMs of the job%s, or has no known price.", trimFloat(n.maxTotal), n.priceWhere())
	case cScaleUp:
		return "Needs several VMs while another size holds the job on one VM (scale up before scale out, Azure Machine Learning guidance)."
	}
	return ""
}

func (n *norm) workloadLabel() string { return n.label }

func (n *norm) nodesClause() string {
	if n.fixedNodes > 0 {
		return fmt.Sprintf("on %d VMs (nodes)", n.fixedNodes)
	}
	return fmt.Sprintf("within %d VMs with InfiniBand or %d without", MaxNodesRDMA, MaxNodes)
}

func (n *norm) ibWhy() string {
	switch {
	case n.interconnect == InterconnectInfiniBand:
		return "interconnect = \"infiniband\""
	case n.workload == WorkloadHPC:
		return "tightly coupled MPI"
	}
	return "the job spans several VMs"
}

func (n *norm) priceWhere() string {
	s := ""
	if n.region != "" {
		s = " in " + n.region
	}
	if n.spot {
		s += " (spot where known)"
	}
	return s
}
