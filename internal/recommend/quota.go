// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file judges a size's layout against the subscription's vCPU quota,
// from the usage files (Request.Usage, what `az vm list-usage` exports per
// region): the size's quota family and the regional total, or for Spot the
// regional low-priority total, and the increase that would hold it.

import (
	"fmt"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

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

// quotaIn judges vms VMs of the size in the region against its usage file:
// Spot VMs against the region's low-priority vCPUs, except where Azure
// sells no Spot VMs of the size there (D75), which deploy on demand.
func (n *requirements) quotaIn(in *sizeInfo, region string, vms int64) quotaCheck {
	spot := n.spot && !in.sku.Prices[region].NoSpot
	q := quotaCheck{region: region, family: in.sku.QuotaFamily, perVM: quotaVCPUs(in.sku), vms: vms, spot: spot, status: QuotaUnknown}
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
