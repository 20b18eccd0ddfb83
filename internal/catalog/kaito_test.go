// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strings"
	"testing"
)

// The embedded KAITO tables: the add-on's version, whole GPUs of its SKU
// table and no share of one, and the preset of a model of the table with
// what its inference needs.
func TestKAITOTables(t *testing.T) {
	k := mustDefault(t).KAITO()
	if k == nil || k.Version != "0.6.0" || !k.TakesInstanceType("Standard_NC24ads_A100_v4") || !k.TakesInstanceType("Standard_ND96isr_H200_v5") ||
		k.TakesInstanceType("Standard_NC24lds_xl_RTXPRO6000BSE_v6") || k.TakesInstanceType("Standard_NV6ads_A10_v5") {
		t.Fatalf("KAITO tables %+v", k)
	}
	if p, ok := k.Preset("llama-3.1-8b"); !ok || p.Name != "llama-3.1-8b-instruct" {
		t.Errorf("llama-3.1-8b preset %+v", p)
	}
	// KAITO's webhook checks a preset's requirements against instanceType
	// × count (presets/workspace/models/llama3/model.go at v0.6.0).
	if p, _ := k.Preset("llama-3.3-70b"); p.GPUCount != 4 || p.TotalGPUMemoryGiB != 320 || p.PerGPUMemoryGiB != 80 || !p.DistributedInference {
		t.Errorf("llama-3.3-70b-instruct requirements %+v, want 4 GPUs, 320 GiB, 80 GiB a GPU, distributed", p)
	}
	if _, ok := k.Preset("qwen3-8b"); ok {
		t.Error("qwen3-8b has no preset in KAITO 0.6.0")
	}
	// A preset of a model the table does not have, and an instance type
	// that is no size name, are refused.
	docs := testDocs()
	docs[0].KAITO = &KAITODoc{Version: "0.6.0", Sources: []string{testSource}, InstanceTypeSources: []string{testSource},
		InstanceTypes: []string{"NC24ads"}, Presets: []KAITOPresetDoc{
			{Name: "x-7b", Model: "x-7b", Source: testSource, GPUCount: 1, TotalGPUMemoryGiB: 16, RequirementSource: testSource},
			{Name: "m-7b", Model: "x-7b", Source: testSource},
		}}
	_, err := Build(docs, strings.NewReader(testPricesHeader), strings.NewReader(testSpotHeader))
	if err == nil || !strings.Contains(err.Error(), `instance type "NC24ads" is not an Azure size name`) || !strings.Contains(err.Error(), `preset "x-7b" of model "x-7b"`) ||
		!strings.Contains(err.Error(), `preset "m-7b": gpu_count (at least 1)`) {
		t.Errorf("Build error %v", err)
	}
}
