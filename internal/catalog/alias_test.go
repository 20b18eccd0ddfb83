// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strings"
	"testing"
)

// The Azure ML support key is "azureml"; files written before the rename
// use "azure_ml", which still decodes to the same verdict. Giving both, or
// an unknown field inside the support object, is an error.
func TestSupportAzureMLAlias(t *testing.T) {
	const series = `{"series":[{"name":"NP","family":"NP","category":"cpu","lifecycle":{"status":"ga"},"support":{"aks":{"status":"unknown"},%s,"cyclecloud":{"status":"unknown"},"batch":{"status":"unknown"}}}]}`
	for _, key := range []string{"azureml", "azure_ml"} {
		doc, err := DecodeDocument(strings.NewReader(strings.Replace(series, "%s", `"`+key+`":{"status":"supported","note":"n"}`, 1)))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if got := doc.Series[0].Support.AzureML; got.Status != "supported" || got.Note != "n" {
			t.Errorf("%s: Azure ML support %+v, want supported with its note", key, got)
		}
	}
	for name, body := range map[string]string{
		"both":    `"azureml":{"status":"supported"},"azure_ml":{"status":"supported"}`,
		"unknown": `"azureml":{"status":"supported"},"azure_mlx":{"status":"supported"}`,
	} {
		if _, err := DecodeDocument(strings.NewReader(strings.Replace(series, "%s", body, 1))); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	const override = `{"skus":[{"name":"Standard_X","series":"NP","support":{"%s":{"status":"unsupported"}},"sources":[]}]}`
	for _, key := range []string{"azureml", "azure_ml"} {
		doc, err := DecodeDocument(strings.NewReader(strings.Replace(override, "%s", key, 1)))
		if err != nil {
			t.Fatalf("override %s: %v", key, err)
		}
		if o := doc.SKUs[0].Support; o == nil || o.AzureML == nil || o.AzureML.Status != "unsupported" {
			t.Errorf("override %s: %+v", key, o)
		}
	}
}
