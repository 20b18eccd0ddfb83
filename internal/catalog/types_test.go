// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import "testing"

// TestAllowedValues: the lists of allowed values are fixed, and a caller
// that changes the slice it was given does not change the next caller's.
func TestAllowedValues(t *testing.T) {
	for name, tc := range map[string]struct {
		list func() []string
		want []string
	}{
		"Categories":      {Categories, []string{"cpu", "gpu", "hpc"}},
		"Statuses":        {Statuses, []string{"ga", "preview", "retiring", "retired"}},
		"SupportStatuses": {SupportStatuses, []string{"supported", "unsupported", "unknown"}},
		"Vendors":         {Vendors, []string{"amd", "nvidia"}},
	} {
		got := tc.list()
		if !equalStrings(got, tc.want) {
			t.Errorf("%s() = %v, want %v", name, got, tc.want)
		}
		got[0] = "changed"
		if again := tc.list(); !equalStrings(again, tc.want) {
			t.Errorf("%s() = %v after a caller changed its copy", name, again)
		}
	}
}
