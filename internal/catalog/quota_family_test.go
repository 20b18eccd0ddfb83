// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog_test

import (
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog/catalogtest"
)

// Every size a subscription can still deploy has the quota family its VMs
// count against, so usage files work without an availability file; an
// isolated size has a family of its own, and families look like the
// Resource SKUs API's.
func TestQuotaFamilies(t *testing.T) {
	cat := catalogtest.Embedded(t)
	asOf := catalogtest.Day(t, "2026-11-22")
	for _, s := range cat.SKUs() {
		switch {
		case s.QuotaFamily == "" && s.Deployable && !s.RetiredAt(asOf):
			t.Errorf("%s (%s) has no quota family", s.Name, s.Series)
		case s.QuotaFamily != "" && !strings.HasSuffix(strings.ToLower(s.QuotaFamily), "family"):
			t.Errorf("%s: quota family %q does not look like the API's", s.Name, s.QuotaFamily)
		}
	}
	for name, want := range map[string]string{
		"Standard_ND96isr_H100_v5": "standardNDSH100v5Family",
		"Standard_NC24ads_A100_v4": "StandardNCADSA100v4Family",
		"Standard_HB176rs_v4":      "standardHBv4Family",
		"Standard_E104ids_v5":      "standardEIDSv5Family", // isolated: not the series' standardEDSv5Family
		"Standard_E96ds_v5":        "standardEDSv5Family",
	} {
		if s := catalogtest.Lookup(t, cat, name); s.QuotaFamily != want {
			t.Errorf("%s: quota family %q, want %q", name, s.QuotaFamily, want)
		}
	}
}
