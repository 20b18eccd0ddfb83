// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"slices"
	"testing"
)

// The corrections of decisions D65 to D79: one test per fix, each naming
// the sizes and the field it pins.

// TestTempDiskIsTheTotalOfTheDisks pins D65: temp_disk_gib of the F v7 d
// sizes and FXmdsv2 is the disk count times the disk size of the size
// page's local storage table, not one disk's size.
func TestTempDiskIsTheTotalOfTheDisks(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		name       string
		disks, gib int64 // the size page's count and size
	}{
		{"Standard_F4ads_v7", 1, 440}, // one disk: unchanged
		{"Standard_F8ads_v7", 2, 440},
		{"Standard_F16ads_v7", 4, 440},
		{"Standard_F48alds_v7", 6, 880},
		{"Standard_F64amds_v7", 4, 1760},
		{"Standard_F80alds_v7", 4, 2200},
		{"Standard_FX8mds_v2", 1, 440},
		{"Standard_FX12mds_v2", 2, 440},
		{"Standard_FX24-6mds_v2", 3, 440}, // a constrained-core size keeps its parent's disks
		{"Standard_FX96mds_v2", 6, 880},
	} {
		s := mustLookup(t, c, tc.name)
		if want := tc.disks * tc.gib; s.TempDiskGiB == nil || *s.TempDiskGiB != want {
			t.Errorf("%s temp_disk_gib = %s, want %d (%d x %d GiB)", tc.name, show(s.TempDiskGiB), want, tc.disks, tc.gib)
		}
		if linked := slices.Contains(s.Decisions, "D65"); linked != (tc.disks > 1) {
			t.Errorf("%s: D65 linked %t, want %t", tc.name, linked, tc.disks > 1)
		}
	}
}
