// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"strings"
)

// Usage is a subscription's vCPU usage and limits in one region, as `az vm
// list-usage --location REGION` reports them: one counter per quota family
// (standardNDSH100v5Family), the regional total ("cores") and the regional
// low-priority total that Spot VMs count against ("lowPriorityCores").
// The provider's usage_files give one per region; the ranking reads it to
// judge whether a layout's vCPUs fit the quota.
type Usage struct {
	Region string // lower case
	File   string // the path as configured, for messages
	counts map[string]UsageCount
}

// UsageCount is one counter of a Usage.
type UsageCount struct {
	Name    string // as the file gives it, for example standardNDSH100v5Family
	Current int64  // vCPUs in use
	Limit   int64  // vCPUs allowed; negative means no limit
}

// The names of the regional counters of `az vm list-usage`.
const (
	UsageRegionalVCPUs    = "cores"
	UsageLowPriorityVCPUs = "lowPriorityCores"
)

// QuotaKey is how a quota family or counter name is compared: the Resource
// SKUs API and the usage API spell some families with spaces or another
// case ("Standard NCASv3_T4 Family", "standardNCASv3_T4Family").
func QuotaKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, " ", ""))
}

// NewUsage makes the Usage of a region from its counters, whose names
// (compared as QuotaKey does) are unique: the usage file reader refuses a
// file that repeats one.
func NewUsage(region, file string, counts []UsageCount) *Usage {
	u := &Usage{Region: strings.ToLower(strings.TrimSpace(region)), File: file, counts: make(map[string]UsageCount, len(counts))}
	for _, c := range counts {
		u.counts[QuotaKey(c.Name)] = c
	}
	return u
}

// Count returns the counter of a family or regional name, and whether the
// file has it.
func (u *Usage) Count(name string) (UsageCount, bool) {
	if u == nil || name == "" {
		return UsageCount{}, false
	}
	c, ok := u.counts[QuotaKey(name)]
	return c, ok
}

// Free is the vCPUs the counter leaves: the limit minus what is in use, at
// least 0; math.MaxInt64 without a limit.
func (c UsageCount) Free() int64 {
	if c.Limit < 0 {
		return math.MaxInt64
	}
	return max(c.Limit-c.Current, 0)
}
