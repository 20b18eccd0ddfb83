// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds a team's own measurements of an hpc or htc job: a
// reference run, from which every layout gets job hours and cost through
// the per-VM model's ratio, and a per-core licence, which every layout
// pays on the cores it runs.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

const (
	// MaxLicenseCostPerCoreHour bounds license_cost_per_core_hour: 1,000
	// USD per core per hour, far above any commercial solver's.
	MaxLicenseCostPerCoreHour = 1000
)

var (
	RangeLicenseCostPerCoreHour = NumberRange{Name: "license_cost_per_core_hour", Summary: "Invalid License Cost", Min: 0, MinInclusive: true, Max: MaxLicenseCostPerCoreHour, HasMax: true}
	RangeReferenceNodes         = wholeRange("reference_run.nodes", "Invalid Reference Run", 1, MaxNodes)
	RangeReferenceHours         = NumberRange{Name: "reference_run.hours", Summary: "Invalid Reference Run", Max: MaxDeadlineHours, HasMax: true}
	RangeReferenceCores         = wholeRange("reference_run.cores", "Invalid Reference Run", 1, MaxCores)
)

// hpcReference is a reference run resolved against the catalog: its size,
// VMs, hours, ranks per VM and the model's throughput for it.
type hpcReference struct {
	in          *sizeInfo
	nodes       int64
	hours       float64
	coresPerVM  float64
	rate        float64 // by the time bound; 0 when the catalog lacks the figure
	cores, name string  // as the explanation says them
}

// resolveReference finds the reference run's size among the prepared
// sizes and its throughput; the request has passed validate.
func (h *hpcWork) resolveReference(cat *catalog.Catalog, p *prepared, rr *ReferenceRun) {
	if rr == nil || h.Bound == "" {
		return
	}
	s, ok := cat.Lookup(rr.VMSize)
	if !ok {
		return
	}
	i := slices.IndexFunc(p.sizes, func(in sizeInfo) bool { return in.sku == s })
	if i < 0 {
		return
	}
	ref := &hpcReference{in: &p.sizes[i], nodes: rr.Nodes, hours: rr.Hours, name: s.Name}
	cores := valueOr(rr.Cores, 0)
	ref.coresPerVM = perfmodel.CoresPerVM(&ref.in.Hardware, cores, rr.Nodes)
	ref.rate = h.TimedRate(&ref.in.Hardware, cores, rr.Nodes)
	ref.cores = groupInt(ref.coresPerVM * float64(rr.Nodes))
	h.ref = ref
}

// jobHours is the wall time of the job on nodes VMs of the size: the
// reference run's hours × its throughput ÷ the layout's; 0 without a
// reference run or a figure.
func (h *hpcWork) jobHours(in *sizeInfo, nodes int64) float64 {
	if h.ref == nil || h.ref.rate <= 0 {
		return 0
	}
	r := h.TimedRate(&in.Hardware, h.Cores, nodes)
	if r <= 0 {
		return 0
	}
	return h.ref.hours * h.ref.rate / r
}

// licensePerHour is the per-core licence cost of a layout per hour: the
// cores it runs × license_cost_per_core_hour; 0 without a licence.
func (h *hpcWork) licensePerHour(in *sizeInfo, nodes int64) float64 {
	if h.license <= 0 {
		return 0
	}
	return h.license * h.CoresUsed(&in.Hardware, nodes)
}

// hpcEstimate fills an hpc or htc estimate's hours, cost and licences.
func hpcEstimate(n *requirements, e *eval, f figures, est *Estimate) {
	lic := n.hpc.licensePerHour(e.in, e.nodes)
	if f.hpcHours > 0 {
		est.JobHours = ptr(catalog.Round2(f.hpcHours))
		if n.hpc.hasLicense {
			est.LicenseCostUSD = ptr(catalog.Round2(f.hpcHours * lic))
		}
		if e.hasPrice {
			est.JobCostUSD = ptr(catalog.Round2(f.hpcHours * (e.total + lic)))
		}
		return
	}
	if n.hpc.hasLicense {
		est.LicenseCostPerHour = ptr(round4(lic))
	}
}

// hpcEstimateReasons puts an hpc or htc estimate's hours, cost and
// licences in sentences.
func hpcEstimateReasons(n *requirements, e *eval, est *Estimate) []string {
	if est.JobHours == nil && est.LicenseCostPerHour == nil {
		return nil
	}
	var out []string
	cores := groupInt(n.hpc.CoresUsed(&e.in.Hardware, e.nodes))
	if est.JobHours != nil {
		s := fmt.Sprintf("Estimated %s hours for the job on %s (%s cores), from the reference run's %s hours", trimFloat(*est.JobHours), catalog.Plural(e.nodes, "VM", "VMs"), cores, trimFloat(n.hpc.ref.hours))
		if est.JobCostUSD != nil {
			s += ", " + money(*est.JobCostUSD) + " USD in all"
		}
		if est.LicenseCostUSD != nil {
			s += ", " + money(*est.LicenseCostUSD) + " USD of it licences"
		}
		out = append(out, s+".")
	}
	if est.LicenseCostPerHour != nil {
		out = append(out, fmt.Sprintf("Licences: %s cores × %s USD per core-hour = %s USD per hour, added to the price per unit of throughput the ranking compares.", cores, trimFloat(n.hpc.license), money(*est.LicenseCostPerHour)))
	}
	return out
}

// hpcReferenceExplanation says what the reference run and the licence
// cost give the estimates.
func hpcReferenceExplanation(h *hpcWork) []string {
	var out []string
	if r := h.ref; r != nil {
		s := fmt.Sprintf("Reference run: %s hours on %s of %s (%s cores); a layout's job hours are those hours × the run's throughput ÷ the layout's, by %s.",
			trimFloat(r.hours), catalog.Plural(r.nodes, "VM", "VMs"), r.name, r.cores, h.TimeBound())
		if r.rate <= 0 {
			s = fmt.Sprintf("Reference run on %s: the catalog has no %s figure for it, so no job hours.", r.name, h.TimeBound())
		}
		out = append(out, s)
	}
	if h.hasLicense {
		out = append(out, fmt.Sprintf("Licences: %s USD per core-hour (license_cost_per_core_hour) on the cores each layout runs; faster cores need fewer core-hours.", trimFloat(h.license)))
	}
	return out
}

// validateHPCInputs checks the reference run and the licence cost: their
// ranges, their workload, and the reference size, which must be an HPC or
// CPU size of the catalog whose cores hold the run.
func validateHPCInputs(p *problems, cat *catalog.Catalog, req Request) {
	p.rangeF(RangeLicenseCostPerCoreHour, req.LicenseCostPerCoreHour)
	hpc := req.Workload == WorkloadHPC || req.Workload == WorkloadHTC
	if req.Workload != "" && slices.Contains(workloads, req.Workload) && !hpc {
		for _, f := range []struct {
			set  bool
			name string
		}{{req.ReferenceRun != nil, "reference_run"}, {req.LicenseCostPerCoreHour != nil, "license_cost_per_core_hour"}} {
			if f.set {
				p.invalid(fe("Argument Not Used By Workload",
					fmt.Sprintf("%s applies to the hpc and htc workloads, not to workload %q. Remove %s, or set workload to %s.", f.name, req.Workload, f.name, catalog.QuoteList([]string{WorkloadHPC, WorkloadHTC})), f.name))
			}
		}
		return
	}
	rr := req.ReferenceRun
	if rr == nil {
		return
	}
	p.add(RangeReferenceNodes.CheckInt(rr.Nodes, "reference_run", "nodes"))
	p.add(RangeReferenceHours.Check(rr.Hours, "reference_run", "hours"))
	if rr.Cores != nil {
		p.add(RangeReferenceCores.CheckInt(*rr.Cores, "reference_run", "cores"))
	}
	if cat == nil {
		return
	}
	s, ok := cat.Lookup(strings.TrimSpace(rr.VMSize))
	switch {
	case !ok:
		p.invalid(fe("Unknown VM Size", cat.UnknownName(catalog.SizeName, rr.VMSize)+" reference_run.vm_size names the size the run was measured on: any HPC or CPU size of the catalog.", "reference_run", "vm_size"))
		return
	case s.Category == catalog.CategoryGPU:
		p.invalid(fe("Reference Run Not On An HPC Or CPU Size",
			fmt.Sprintf("reference_run.vm_size must be an HPC or CPU size, whose cores the model compares; %s is a GPU size.", s.Name), "reference_run", "vm_size"))
		return
	}
	// Ranks per VM: at most its vCPUs, as cores counts them for a request
	// (with hyper-threading, the ranks beyond its physical cores add no
	// throughput).
	vmCores := int64(0)
	if s.VCPUs != nil {
		vmCores = *s.VCPUs
	}
	if rr.Cores != nil && *rr.Cores >= 1 && rr.Nodes >= 1 && vmCores > 0 && (*rr.Cores < rr.Nodes || *rr.Cores > rr.Nodes*vmCores) {
		p.invalid(fe("Reference Run Cores Do Not Fit",
			fmt.Sprintf("reference_run.cores (%d) must be between reference_run.nodes (%d) and the vCPUs of those VMs (%d × %d = %d): each VM runs at least one rank and at most one per vCPU.",
				*rr.Cores, rr.Nodes, rr.Nodes, vmCores, rr.Nodes*vmCores), "reference_run", "cores"))
	}
}
