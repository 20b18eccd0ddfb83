package recommend

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// NoFitError is returned when no size passes every hard constraint.
type NoFitError struct {
	Rejected    []Rejection
	NearestMiss *NearestMiss // nil when every size fails a constraint that cannot be relaxed
	checked     int
}

// Error lists each constraint with its count, then the nearest miss and what
// to relax, one item per line.
func (e *NoFitError) Error() string {
	var b strings.Builder
	total := e.checked
	if total == 0 {
		for _, r := range e.Rejected {
			total += int(r.Count)
		}
	}
	fmt.Fprintf(&b, "No VM size meets every requirement: all %d sizes of the catalog were removed.\n", total)
	b.WriteString("Sizes removed, by the first constraint each failed:")
	for _, r := range e.Rejected {
		fmt.Fprintf(&b, "\n  - %s: %d (%s). %s", r.Constraint, r.Count, strings.Join(r.Examples, ", "), r.Reason)
	}
	if m := e.NearestMiss; m != nil {
		if len(m.FailedConstraints) == 1 {
			fmt.Fprintf(&b, "\nNearest miss: %s fails only %s. To use it, %s", m.VMSize, m.FailedConstraint, m.Relax)
		} else {
			fmt.Fprintf(&b, "\nNearest miss: %s fails %s. To use it, %s", m.VMSize, strings.Join(m.FailedConstraints, " and "), m.Relax)
		}
	} else {
		b.WriteString("\nNo size is within reach by relaxing settings: every size is retired, cannot be deployed, lacks specifications, or does not serve this workload.")
	}
	return b.String()
}

// nearestMiss is the best size among those that fail the fewest
// constraints, all of them relaxable: scored like candidates (cost relative
// to the others in that group), ties by price, then name.
func (n *norm) nearestMiss(evals []eval) *NearestMiss {
	best := math.MaxInt
	var group []*eval
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.fails&notRelaxable != 0 {
			continue
		}
		k := bits.OnesCount32(e.fails)
		if k < best {
			best, group = k, group[:0]
		}
		if k == best {
			group = append(group, e)
		}
	}
	if len(group) == 0 {
		return nil
	}
	n.scoreAll(group)
	m := group[0]
	for _, e := range group[1:] {
		if compareEvals(e, m) < 0 {
			m = e
		}
	}
	nm := &NearestMiss{VMSize: m.in.sku.Name}
	var relax []string
	for c := constraint(0); c < numConstraints; c++ {
		if m.failed(c) {
			nm.FailedConstraints = append(nm.FailedConstraints, c.String())
			relax = append(relax, n.relax(c, m))
		}
	}
	nm.FailedConstraint = nm.FailedConstraints[0]
	nm.Relax = strings.Join(relax, "; and ") + "."
	return nm
}

// relax says what to change so that the size passes one constraint.
func (n *norm) relax(c constraint, e *eval) string {
	in, s := e.in, e.in.sku
	switch c {
	case cLifetime:
		days, _ := s.DaysUntilRetirement(n.asOf)
		return fmt.Sprintf("lower min_lifetime_months to %d or less (it retires on %s)", max(days/31, 0), s.Lifecycle.RetirementDate)
	case cPreview:
		return "set include_preview = true"
	case cConfidential:
		if s.Confidential {
			return "set confidential = true"
		}
		return "remove confidential = true"
	case cIsolated:
		return fmt.Sprintf("set isolated = %t or remove it", s.Isolated)
	case cGPUVendor:
		if !in.isGPU {
			return "remove gpu_vendor (this size has no GPU)"
		}
		return fmt.Sprintf("set gpu_vendor to %q or \"any\"", in.vendor)
	case cGPUModels:
		if in.isGPU {
			return fmt.Sprintf("add %q to gpu_models", s.GPU.ModelID)
		}
		return "remove gpu_models"
	case cCUDA:
		switch {
		case !in.isGPU:
			return "remove cuda_version (this size has no GPU)"
		case in.vendor != catalog.VendorNVIDIA:
			return "remove cuda_version (AMD GPUs run ROCm, not CUDA) or set gpu_vendor to \"nvidia\""
		case int64(n.cuda.major) > in.maxCUDA:
			return fmt.Sprintf("use a CUDA %d.x toolkit or older (the %s is supported up to CUDA %d)", in.maxCUDA, s.GPU.Model, in.maxCUDA)
		default:
			return fmt.Sprintf("use cuda_version %s or newer (the %s needs it)", s.GPU.MinCUDA, s.GPU.Model)
		}
	case cComputeCap:
		if in.cc.ok {
			return fmt.Sprintf("lower min_compute_capability to %s", s.GPU.ComputeCapability)
		}
		return "remove min_compute_capability (it applies to NVIDIA GPUs only)"
	case cTarget:
		return fmt.Sprintf("choose another target (%s is not supported on %s)", s.Name, n.target)
	case cRegion, cAvailability:
		if s.HasAvailability() {
			if regions := s.AvailableRegions(); len(regions) > 0 {
				return fmt.Sprintf("choose a region where the availability file offers it to this subscription, such as %s", strings.Join(firstN(regions, 3), ", "))
			}
			if c == cAvailability && s.QuotaFamily != "" {
				return fmt.Sprintf("ask Azure support to lift the restriction (quota family %s), or choose another region", s.QuotaFamily)
			}
			return "choose another region, or ask Azure support for access"
		}
		return fmt.Sprintf("choose a region where it is priced, such as %s", strings.Join(firstN(in.regions, 3), ", "))
	case cMinVCPUs:
		return fmt.Sprintf("lower min_vcpus to %d", in.vcpus)
	case cMinMemory:
		return fmt.Sprintf("lower min_memory_gib to %s", trimFloat(in.memGiB))
	case cMinLocalDisk:
		return fmt.Sprintf("lower min_local_disk_gib to %s", trimFloat(in.localDisk))
	case cGPUMemory:
		if !in.isGPU || in.gpuMem <= 0 {
			return "remove gpu_memory_gib (this size has no GPU)"
		}
		if n.fixedNodes > 0 {
			return fmt.Sprintf("raise nodes to %d, or lower the GPU memory need to %s GiB", ceilDiv(n.gpuMemNeed, in.gpuMem), trimFloat(in.gpuMem*float64(n.fixedNodes)))
		}
		return fmt.Sprintf("lower the GPU memory need to what %d VMs hold (%s GiB)", n.nodeLimit(e), trimFloat(in.gpuMem*float64(n.nodeLimit(e))))
	case cGPUs:
		if !in.isGPU {
			return "remove gpus (this size has no GPU)"
		}
		if in.gpuCount < 1 {
			return "remove gpus (this size has a partial GPU)"
		}
		if n.fixedNodes > 0 {
			return fmt.Sprintf("raise nodes to %d, or lower gpus to %s", ceilDiv(float64(n.gpus), in.gpuCount), trimFloat(in.gpuCount*float64(n.fixedNodes)))
		}
		return fmt.Sprintf("lower gpus to %s", trimFloat(in.gpuCount*float64(n.nodeLimit(e))))
	case cCores:
		if n.fixedNodes > 0 {
			return fmt.Sprintf("raise nodes to %d, or lower cores to %d", ceilDiv(float64(n.cores), float64(in.vcpus)), in.vcpus*n.fixedNodes)
		}
		return fmt.Sprintf("lower cores to %d", in.vcpus*n.nodeLimit(e))
	case cSystemMemory:
		if n.fixedNodes > 0 {
			return fmt.Sprintf("raise nodes to %d", ceilDiv(n.sysMemNeed, in.memGiB))
		}
		return "serve a smaller model"
	case cNodes:
		return fmt.Sprintf("lower nodes to %d or set interconnect = \"any\"", MaxNodesRDMA)
	case cInterconnect:
		return "set interconnect = \"any\" (the VMs then talk over Ethernet)"
	case cMaxPrice:
		if !e.hasPrice {
			return "remove max_price_per_hour (the catalog has no price for it)"
		}
		return fmt.Sprintf("raise max_price_per_hour to at least %s (%s USD per hour in %s)", money(math.Ceil(e.price*100)/100), trimPrice(e.price), e.priceRegion)
	case cMaxTotalPrice:
		if !e.hasPrice {
			return "remove max_total_price_per_hour (the catalog has no price for it)"
		}
		return fmt.Sprintf("raise max_total_price_per_hour to at least %s (%d VMs at %s USD per hour in %s)", money(math.Ceil(e.total*100)/100), e.nodes, trimPrice(e.price), e.priceRegion)
	}
	return "relax " + c.String()
}

func (n *norm) nodeLimit(e *eval) int64 {
	if n.ibNeeded(2) {
		return MaxNodesRDMA
	}
	return MaxNodes
}

func trimPrice(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}

func firstN(s []string, k int) []string {
	if len(s) > k {
		return s[:k]
	}
	return s
}
