// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// This file judges each layout against the subscription's vCPU quota, from
// the usage files (Request.Usage, what `az vm list-usage` exports per
// region): the size's quota family and the regional total, or for Spot the
// regional low-priority total. A layout scaled out only to meet the default
// deadline uses at most the VMs the quota leaves free and runs longer, as it
// does within the placement limits.

// The quota statuses, best first: the order of the ranking.
const (
	QuotaSufficient   = "sufficient"
	QuotaUnknown      = "unknown"
	QuotaInsufficient = "insufficient"
)

// Quota is a recommendation's vCPU quota in its region.
type Quota struct {
	// Family is the size's quota family; "" when neither the catalog nor
	// the availability file knows it.
	Family string
	// VCPUsNeeded is the layout's VMs times the size's quota vCPUs.
	VCPUsNeeded int64
	// FamilyVCPUsAvailable is the family's limit minus its usage; nil for
	// Spot (which counts against the low-priority total only) or where the
	// usage file does not list the family. RegionalVCPUsAvailable is the
	// regional total's (low-priority total's, for Spot); nil where the
	// region has no usage file.
	FamilyVCPUsAvailable, RegionalVCPUsAvailable *int64
	// Status is QuotaSufficient, QuotaUnknown (no usage file for the
	// region, or the family is not in it) or QuotaInsufficient (even the
	// smallest layout that holds the job, or the stated nodes or deadline,
	// exceeds the quota).
	Status string
}

// quotaCheck is one size's quota in one region for some VMs.
type quotaCheck struct {
	region, family string
	file           string // the region's usage file; "" without one
	perVM          int64  // quota vCPUs of one VM; 0 unknown
	vms            int64  // the VMs the status is judged on
	spot           bool
	fam, reg       catalog.UsageCount
	hasFam, hasReg bool
	status         string
	// deadlineVMs is the VMs that meet the default deadline when the quota
	// held the layout to fewer; 0 otherwise.
	deadlineVMs int64
}

// quotaActive reports whether the request has usage files.
func (n *requirements) quotaActive() bool { return len(n.req.Usage) > 0 }

// quotaVCPUs is what quota counts for one VM of the size: the parent's
// vCPUs of a constrained-core size; 0 when unknown.
func quotaVCPUs(s *catalog.SKU) int64 {
	switch {
	case s.QuotaVCPUs != nil:
		return *s.QuotaVCPUs
	case s.VCPUs != nil:
		return *s.VCPUs
	}
	return 0
}

// quotaIn judges vms VMs of the size in the region against its usage file.
func (n *requirements) quotaIn(in *sizeInfo, region string, vms int64) quotaCheck {
	q := quotaCheck{region: region, family: in.sku.QuotaFamily, perVM: quotaVCPUs(in.sku), vms: vms, spot: n.spot, status: QuotaUnknown}
	u := n.req.Usage[region]
	if u == nil {
		return q
	}
	q.file = u.File
	if q.spot {
		q.reg, q.hasReg = u.Count(catalog.UsageLowPriorityVCPUs)
	} else {
		q.reg, q.hasReg = u.Count(catalog.UsageRegionalVCPUs)
		q.fam, q.hasFam = u.Count(q.family)
	}
	switch {
	case q.perVM == 0 || !q.hasReg || (!q.spot && !q.hasFam):
	case q.needed() > q.free():
		q.status = QuotaInsufficient
	default:
		q.status = QuotaSufficient
	}
	return q
}

func (q *quotaCheck) needed() int64 { return q.vms * q.perVM }

// free is the vCPUs the quota leaves for the size: the family's and the
// region's, or for Spot the region's low-priority vCPUs.
func (q *quotaCheck) free() int64 {
	if q.spot {
		return q.reg.Free()
	}
	return min(q.fam.Free(), q.reg.Free())
}

// quotaRank orders the statuses as the ranking does.
func quotaRank(status string) int {
	switch status {
	case QuotaSufficient:
		return 0
	case QuotaInsufficient:
		return 2
	}
	return 1
}

// quotaOrder is the size's place in the ranking by quota: sufficient,
// unknown, insufficient; 0 for every size without usage files.
func (e *eval) quotaOrder() int {
	if e.quota.status == "" {
		return 0
	}
	return quotaRank(e.quota.status)
}

// quotaRegion is the region whose quota a size uses: its region (placeSize),
// or without region and regions the region of its price (pricePerVM).
func quotaRegion(n *requirements, e *eval) string {
	switch {
	case n.regionScoped():
		return e.region
	case n.spot && e.in.minSpotRegion != "":
		return e.in.minSpotRegion
	}
	return e.in.minPriceRegion
}

// quotaVMs is the VMs the quota must hold for the status: the stated nodes,
// the smallest layout that holds the job when only the default deadline
// scaled it out, else the layout's.
func quotaVMs(n *requirements, vc vmCount, least int64) int64 {
	switch {
	case n.fixedNodes > 0:
		return n.fixedNodes
	case vc.driver == cDeadline && !n.train.deadlineStated:
		return least
	}
	return vc.nodes
}

// limitByQuota judges the layout against the quota of its region and holds
// a layout the default deadline scaled out to the VMs the quota leaves
// free (never fewer than hold the job): the job then runs longer, with a
// warning naming the increase that would meet the deadline.
func limitByQuota(n *requirements, e *eval, vc *vmCount, least int64) {
	if !n.quotaActive() {
		return
	}
	q := n.quotaIn(e.in, quotaRegion(n, e), quotaVMs(n, *vc, least))
	if q.status == QuotaSufficient && vc.driver == cDeadline && !n.train.deadlineStated && n.fixedNodes == 0 {
		if most := q.free() / q.perVM; most < vc.nodes {
			q.deadlineVMs = vc.nodes
			vc.nodes = max(most, least)
		}
	}
	e.quota = q
}

// quotaOf is a recommendation's Quota; nil without usage files.
func quotaOf(n *requirements, e *eval) *Quota {
	if !n.quotaActive() {
		return nil
	}
	q := &e.quota
	out := &Quota{Family: q.family, VCPUsNeeded: e.nodes * q.perVM, Status: q.status}
	if q.hasFam {
		out.FamilyVCPUsAvailable = ptr(q.fam.Free())
	}
	if q.hasReg {
		out.RegionalVCPUsAvailable = ptr(q.reg.Free())
	}
	return out
}

// quotaWarnings say what the quota means for a recommendation: the
// increase to request when it does not hold the layout (or held a default
// deadline's scale-out back), or why it is unknown.
func quotaWarnings(n *requirements, e *eval) []string {
	if !n.quotaActive() {
		return nil
	}
	q := &e.quota
	switch {
	case q.status == QuotaUnknown:
		return []string{"Quota: " + q.unknownWhy() + ", so whether the subscription can start this layout is unknown."}
	case q.status == QuotaInsufficient:
		return []string{fmt.Sprintf("Quota: %s needs %s vCPUs (%s × %d), but %s. %s",
			q.where(), groupInt(float64(q.needed())), catalog.Plural(q.vms, "VM", "VMs"), q.perVM, q.leaves(), q.increase(q.needed()))}
	case q.deadlineVMs > 0:
		return []string{fmt.Sprintf("Quota: meeting the %d-hour default deadline takes %s, but %s leaves room for %s, which run the job longer. %s",
			DefaultDeadlineHours, catalog.Plural(q.deadlineVMs, "VM", "VMs"), q.where(), catalog.Plural(e.nodes, "VM", "VMs"), q.increase(q.deadlineVMs*q.perVM))}
	}
	return nil
}

// where names the quota: "standardNDSH100v5Family in eastus", or for Spot
// "the low-priority vCPUs of eastus".
func (q *quotaCheck) where() string {
	if q.spot {
		return "the low-priority vCPUs of " + q.region
	}
	return q.family + " in " + q.region
}

// leaves says what the usage file leaves free.
func (q *quotaCheck) leaves() string {
	if q.spot {
		return fmt.Sprintf("the usage file %s leaves %s of the region's %s low-priority vCPUs free", q.file, groupInt(float64(q.reg.Free())), groupInt(float64(q.reg.Limit)))
	}
	return fmt.Sprintf("the usage file %s leaves %s of the family's %s vCPUs and %s of the region's %s free",
		q.file, groupInt(float64(q.fam.Free())), groupInt(float64(q.fam.Limit)), groupInt(float64(q.reg.Free())), groupInt(float64(q.reg.Limit)))
}

// increase names the quota increases that would let need vCPUs run: each
// limit raised to what is in use plus need.
func (q *quotaCheck) increase(need int64) string {
	var parts []string
	raise := func(c catalog.UsageCount, what string) {
		if c.Limit >= 0 && c.Current+need > c.Limit {
			parts = append(parts, fmt.Sprintf("%s from %s to at least %s vCPUs", what, groupInt(float64(c.Limit)), groupInt(float64(c.Current+need))))
		}
	}
	if q.spot {
		raise(q.reg, "the Total Regional Low-priority vCPUs of "+q.region)
	} else {
		raise(q.fam, q.family+" in "+q.region)
		raise(q.reg, "the Total Regional vCPUs of "+q.region)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Request a quota increase of " + joinAnd(parts) + "."
}

// unknownWhy says why a quota is unknown.
func (q *quotaCheck) unknownWhy() string {
	switch {
	case q.file == "":
		return "usage_files has no file for " + q.region
	case q.perVM == 0:
		return "the catalog does not know the size's vCPUs"
	case q.spot:
		return "the usage file " + q.file + " has no lowPriorityCores counter"
	case q.family == "":
		return "the catalog does not know the size's quota family (an availability_file gives it)"
	case !q.hasFam:
		return "the usage file " + q.file + " does not list the family " + q.family
	}
	return "the usage file " + q.file + " has no cores counter"
}

// joinAnd joins phrases with commas and "and".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out += ", " + p
	}
	return out + " and " + parts[len(parts)-1]
}

// validateQuota finds require_quota without usage files, which can remove
// nothing.
func validateQuota(p *problems, req Request) {
	if req.RequireQuota && len(req.Usage) == 0 {
		p.ignore(fe("Argument Not Used",
			"require_quota removes the sizes whose vCPU quota is insufficient, which the provider's usage_files say; without them every quota is unknown and it removes nothing. Set usage_files, or remove require_quota.", "require_quota"))
	}
}

// quotaResultWarnings warn when the quota holds no ranked size: the sizes
// it holds rank first, so then rank 1 does not fit either.
func quotaResultWarnings(n *requirements, r ranking) []Warning {
	if !n.quotaActive() || len(r.cands) == 0 || r.cands[0].quota.status != QuotaInsufficient {
		return nil
	}
	e := r.cands[0].eval
	return []Warning{{"Quota Holds No Ranked Size",
		fmt.Sprintf("The usage files leave too few vCPUs for every ranked size, so deployments would fail with a quota error. For the rank-1 size, %s: %s",
			e.in.sku.Name, e.quota.increase(e.quota.needed()))}}
}
