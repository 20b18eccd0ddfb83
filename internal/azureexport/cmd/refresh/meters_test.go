// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// meterNames is a Retail Prices API export in which
// Standard_NG32adms_V620_v1 is priced under its meter's name,
// Standard_NG32adms_V620 (D34), and under its own name in one region.
const meterNames = "testdata/prices_meter_names.json"

func TestRefreshMapsMeterNames(t *testing.T) {
	dir := copyData(t)
	prices := saved(t, dir, "prices.csv")
	out, errOut, code := runRefresh(t, "-data", dir, "-prices", meterNames, "-date", "2026-12-01")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Meter names mapped to catalog sizes (D34): Standard_NG32adms_V620 -> Standard_NG32adms_V620_v1\n",
		// eastus2 changed; japaneast is priced under the catalog's own name
		// too (4.784, unchanged), which wins over the meter's 4.9.
		"Prices changed: 1 (1 up, 0 down); unchanged: 2\n",
		"  Standard_NG32adms_V620_v1 in eastus2: 3.302 -> 3.5 USD/h (+6.0%)\n",
		"Prices added (a catalog size in a region prices.csv did not have): 1: Standard_NG32adms_V620_v1 in westus2\n",
		"Sizes priced in the file but not in the catalog: 4 (ignored)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Standard_NG8ads_V620_v1 in") {
		t.Errorf("Standard_NG8ads_V620_v2 was taken for Standard_NG8ads_V620_v1:\n%s", out)
	}

	_, errOut, code = runRefresh(t, "-data", dir, "-prices", meterNames, "-date", "2026-12-01", "-write")
	if code != 0 {
		t.Fatalf("-write: exit %d: %s", code, errOut)
	}
	c, err := catalog.LoadDir(dir)
	if err != nil {
		t.Fatalf("the written catalog does not load: %v", err)
	}
	s, ok := c.Lookup("Standard_NG32adms_V620_v1")
	if !ok {
		t.Fatal("Standard_NG32adms_V620_v1 is gone")
	}
	for region, want := range map[string]float64{"eastus2": 3.5, "westus2": 3.302, "japaneast": 4.784, "centralus": 4.056} {
		if got := s.Prices[region].USDPerHour; got != want {
			t.Errorf("Standard_NG32adms_V620_v1 in %s: %v, want %v", region, got, want)
		}
	}
	if _, ok := c.Lookup("Standard_NG32adms_V620"); ok {
		t.Error("the meter's name became a size")
	}
	// One row changed (eastus2) and one added (westus2).
	assertDiffLinesAdded(t, prices, filepath.Join(dir, "prices.csv"), 1, 1)
}

// TestRefreshReportsMissingSizes: sizes the file prices and the catalog
// lacks are listed when they are of GPU or HPC families or of a series the
// catalog has; others are only counted.
func TestRefreshReportsMissingSizes(t *testing.T) {
	out, errOut, code := runRefresh(t, "-data", copyData(t), "-prices", meterNames)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "Sizes priced in the file but not in the catalog: 4 (ignored)\n" +
		"  of GPU and HPC families or of the catalog's series: 3, to add as in \"Adding a size\" (CONTRIBUTING.md):\n" +
		"    Standard_F1als_v6 (2 regions)\n" +
		"    Standard_F72als_v6 (1 region)\n" +
		"    Standard_NG8ads_V620_v2 (1 region)\n"
	if !strings.Contains(out, want) {
		t.Errorf("output does not contain\n%s\ngot:\n%s", want, out)
	}
	if strings.Contains(out, "Standard_D2s_v5") {
		t.Errorf("Standard_D2s_v5 (no catalog series) is listed:\n%s", out)
	}
}

func TestSizeShape(t *testing.T) {
	for name, want := range map[string]string{
		"Standard_E48ds_v5":                    "e|ds_v5",
		"standard_e2ds_v5":                     "e|ds_v5",
		"Standard_E2_v5":                       "e|_v5",
		"Standard_HB120-16rs_v3":               "hb|rs_v3",
		"Standard_FX48mds":                     "fx|mds",
		"Standard_NC24lds_xl_RTXPRO6000BSE_v6": "nc|lds_xl_rtxpro6000bse_v6",
		"Standard_ND96isr_H100_v5":             "nd|isr_h100_v5",
		"Standard_":                            "",
		"E48_v5":                               "",
		"Standard_Eds_v5":                      "",
	} {
		if got := sizeShape(name); got != want {
			t.Errorf("sizeShape(%q) = %q, want %q", name, got, want)
		}
	}
}
