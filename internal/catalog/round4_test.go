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

// TestIsolatedSizesFromTheIsolationPage pins D66: isolated is true for the
// sizes Microsoft's isolation page lists, and false for the constrained-core
// sizes and the GB300 G5 size it does not name.
func TestIsolatedSizesFromTheIsolationPage(t *testing.T) {
	c := mustDefault(t)
	for name, want := range map[string]bool{
		// Listed on the page's versions of 2025-12-09 and 2026-04-28.
		"Standard_ND96isr_H100_v5":       true,
		"Standard_ND96isr_H200_v5":       true,
		"Standard_NC80adis_H100_v5":      true,
		"Standard_ND96isr_MI300X_v5":     true,
		"Standard_ND128isr_NDR_GB200_v6": true,
		"Standard_ND128isr_GB300_v6":     true, // the page spells it Standard_ND128isr_NDR_GB300_v6
		// Added by the version of 2026-04-28.
		"Standard_HB120rs_v3":       true,
		"Standard_HB176rs_v4":       true,
		"Standard_HB368rs_v5":       true,
		"Standard_HX176rs":          true,
		"Standard_NC64as_T4_v3":     true,
		"Standard_NC96ads_A100_v4":  true,
		"Standard_NG32ads_V620_v1":  true,
		"Standard_NG32adms_V620_v1": true,
		"Standard_NV72ads_A10_v5":   true,
		"Standard_E104ids_v5":       true,
		// Not named on the page.
		"Standard_HB120-16rs_v3":       false,
		"Standard_HX176-144rs":         false,
		"Standard_ND128isrG5_GB300_v6": false,
		"Standard_ND96is_H100_v5":      false,
		"Standard_NC40ads_H100_v5":     false,
	} {
		s := mustLookup(t, c, name)
		if s.Isolated != want {
			t.Errorf("%s isolated = %t, want %t", name, s.Isolated, want)
		}
		if want && name != "Standard_E104ids_v5" && !slices.Contains(s.Decisions, "D66") {
			t.Errorf("%s: isolated without D66", name)
		}
	}
}
