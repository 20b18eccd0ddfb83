// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestLimitDiagnostics(t *testing.T) {
	t.Parallel()
	var in diag.Diagnostics
	// Appended directly: AddAttributeError looks for a duplicate in all the
	// diagnostics before it, 12.5 million comparisons for 5,000.
	for i := 0; i < 5000; i++ {
		in = append(in, diag.NewAttributeErrorDiagnostic(path.Root("families").AtListIndex(i), "Unknown Family", fmt.Sprintf("family %d", i)))
	}
	for i := 0; i < 7; i++ {
		in.AddWarning("Unknown Preferred Size", fmt.Sprintf("prefer %d", i))
	}
	in.AddAttributeError(path.Root("region"), "Unknown Region", "region")
	for i := 0; i < 3; i++ {
		in.AddAttributeError(path.Root("series").AtListIndex(i), "Unknown Series", "series")
	}

	out := limitDiagnostics(in)
	// 5 families + 5 prefer + region + 3 series, then one "more" each for
	// families and prefer.
	if len(out) != 5+5+1+3+2 {
		t.Fatalf("got %d diagnostics, want 16:\n%v", len(out), out)
	}
	for i := 0; i < 5; i++ {
		if out[i].Detail() != fmt.Sprintf("family %d", i) {
			t.Errorf("diagnostic %d: %q, want the first families in order", i, out[i].Detail())
		}
	}
	more := out[len(out)-2]
	dp, ok := more.(diag.DiagnosticWithPath)
	if !ok || !dp.Path().Equal(path.Root("families")) || more.Severity() != diag.SeverityError || more.Summary() != "Unknown Family" ||
		!strings.Contains(more.Detail(), "4995 more diagnostics") {
		t.Errorf("families summary: %#v", more)
	}
	last := out[len(out)-1]
	if last.Severity() != diag.SeverityWarning || !strings.Contains(last.Detail(), "2 more diagnostics") {
		t.Errorf("warning summary: %#v", last)
	}
	if got := limitDiagnostics(out[:14]); len(got) != 14 {
		t.Errorf("diagnostics under the limit changed: %d", len(got))
	}
}
