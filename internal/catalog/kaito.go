// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file holds KAITO's tables: the Azure instance types the version of
// KAITO (the AKS AI toolchain operator add-on) takes as a Workspace's
// resource.instanceType, and its preset models.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// KAITODoc is KAITO's tables at the version the AKS add-on ships, as
// stored: its SKU table and its presets, with their sources.
type KAITODoc struct {
	// Version is the KAITO version the AKS add-on ships; Sources give it.
	Version string   `json:"version"`
	Sources []string `json:"sources"`
	// InstanceTypes are the Azure sizes of KAITO's SKU table at Version;
	// InstanceTypeSources give the table.
	InstanceTypes       []string `json:"instance_types"`
	InstanceTypeSources []string `json:"instance_type_sources"`
	// Presets are KAITO's preset models at Version that a model of the
	// catalog's table is.
	Presets []KAITOPresetDoc `json:"presets"`
	Notes   string           `json:"notes,omitempty"`
}

// KAITOPresetDoc is one KAITO preset: its name (inference.preset.name),
// the model of the catalog's table it serves, the Hugging Face model it
// downloads, and what its inference needs.
type KAITOPresetDoc struct {
	Name          string `json:"name"`
	Model         string `json:"model"`
	HuggingFaceID string `json:"hugging_face_id"`
	Source        string `json:"source"`
	// GPUCount, TotalGPUMemoryGiB and PerGPUMemoryGiB are the preset's
	// GPUCountRequirement, TotalGPUMemoryRequirement and
	// PerGPUMemoryRequirement: KAITO's webhook refuses a Workspace whose
	// instanceType × count has fewer GPUs, less GPU memory or smaller GPUs,
	// and KAITO serves the preset on the fewest of count VMs that hold
	// TotalGPUMemoryGiB. DistributedInference is whether it serves a copy
	// over several VMs (SupportDistributedInference). RequirementSource
	// gives them.
	GPUCount             int     `json:"gpu_count"`
	TotalGPUMemoryGiB    float64 `json:"total_gpu_memory_gib"`
	PerGPUMemoryGiB      float64 `json:"per_gpu_memory_gib"`
	DistributedInference bool    `json:"distributed_inference"`
	RequirementSource    string  `json:"requirement_source"`
	Note                 string  `json:"note,omitempty"`
}

// KAITO is KAITO's tables, joined: the instance types by name and the
// preset of each model id.
type KAITO struct {
	Version       string
	Sources       []string
	instanceTypes map[string]bool
	presets       map[string]KAITOPresetDoc // by model id
}

// TakesInstanceType reports whether KAITO's SKU table lists the size.
func (k *KAITO) TakesInstanceType(name string) bool { return k != nil && k.instanceTypes[name] }

// Preset is KAITO's preset for a model of the catalog's table.
func (k *KAITO) Preset(modelID string) (KAITOPresetDoc, bool) {
	if k == nil {
		return KAITOPresetDoc{}, false
	}
	p, ok := k.presets[modelID]
	return p, ok
}

// KAITO returns KAITO's tables; nil when the catalog has none.
func (c *Catalog) KAITO() *KAITO { return c.kaito }

// kaitoPresetRE is the form of a preset name.
var kaitoPresetRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// joinKAITO validates the last document's KAITO tables against the
// catalog's sizes and models.
func (c *Catalog) joinKAITO(docs []Document) []error {
	var d *KAITODoc
	for i := range docs {
		if docs[i].KAITO != nil {
			d = docs[i].KAITO
		}
	}
	if d == nil {
		return nil
	}
	var errs []error
	if strings.TrimSpace(d.Version) == "" || len(d.Sources) == 0 || len(d.InstanceTypeSources) == 0 {
		errs = append(errs, errors.New("kaito: version, sources and instance_type_sources are required"))
	}
	for _, src := range append(append(append([]string(nil), d.Sources...), d.InstanceTypeSources...), presetSources(d.Presets)...) {
		if _, err := ParseSource(src); err != nil {
			errs = append(errs, fmt.Errorf("kaito: %w", err))
		}
	}
	k := &KAITO{Version: d.Version, Sources: d.Sources, instanceTypes: map[string]bool{}, presets: map[string]KAITOPresetDoc{}}
	for _, name := range d.InstanceTypes {
		if !sizeNameRE.MatchString(name) {
			errs = append(errs, fmt.Errorf("kaito: instance type %q is not an Azure size name", name))
		}
		k.instanceTypes[name] = true
	}
	for _, p := range d.Presets {
		if p.GPUCount < 1 || p.TotalGPUMemoryGiB <= 0 || p.PerGPUMemoryGiB < 0 || p.RequirementSource == "" {
			errs = append(errs, fmt.Errorf("kaito: preset %q: gpu_count (at least 1), total_gpu_memory_gib (above 0), per_gpu_memory_gib (0 or more) and requirement_source are required", p.Name))
			continue
		}
		if _, ok := c.Model(p.Model); !ok || !kaitoPresetRE.MatchString(p.Name) || p.Source == "" {
			errs = append(errs, fmt.Errorf("kaito: preset %q of model %q: a preset name, a model of the table and a source are required", p.Name, p.Model))
			continue
		}
		k.presets[p.Model] = p
	}
	c.kaito = k
	return errs
}

func presetSources(ps []KAITOPresetDoc) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		for _, src := range []string{p.Source, p.RequirementSource} {
			if src != "" {
				out = append(out, src)
			}
		}
	}
	return out
}
