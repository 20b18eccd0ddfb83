// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Plural(1, "core", "cores"), "1 core"},
		{Plural(int64(36), "core", "cores"), "36 cores"},
		{Plural(0, "size", "sizes"), "0 sizes"},
		{Plural(0.25, "GPU", "GPUs"), "0.25 GPUs"},
		{Plural(1.0/3, "GPU", "GPUs"), "0.33 GPUs"},
		{Plural(2.0, "copy", "copies"), "2 copies"},
		{Plural(0.001, "request", "requests"), "0.001 requests"},
		{Plural(int64(4096), "request", "requests"), "4,096 requests"},
		{TrimFloat(0.0012345), "0.0012"},
		{TrimFloat(-0.004), "-0.004"},
		{TrimFloat(0.005), "0.01"},
		{TrimFloat(12.345), "12.35"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestRound2(t *testing.T) {
	if got := Round2(104.3125); got != 104.31 {
		t.Errorf("Round2(104.3125) = %v", got)
	}
}
