// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestValidateFilter(t *testing.T) {
	c := mustDefault(t)
	rdma := true
	gpus, neg, nan := 8.0, -1.0, math.NaN()
	asOf := date(t, "2026-11-22")

	// Names are given back in the catalog's spelling; the pattern compiled.
	f, errs := ValidateFilter(c, FilterInput{Filter: Filter{
		Families: []string{" nd", "NC"}, Series: []string{"nd-h100-v5"}, Categories: []string{"GPU"}, GPUVendor: "NVIDIA",
		GPUModels: []string{"NVIDIA H100 80GB SXM"}, RDMA: &rdma, MinGPUs: &gpus, Region: "EastUS",
		IncludePreview: true, AsOf: asOf,
	}, NameRegex: "_v5$"})
	if len(errs) != 0 {
		t.Fatalf("ValidateFilter: %v", errs)
	}
	if !reflect.DeepEqual(f.Families, []string{"ND", "NC"}) || !reflect.DeepEqual(f.Series, []string{"ND-H100-v5"}) ||
		!reflect.DeepEqual(f.Categories, []string{"gpu"}) || f.GPUVendor != "nvidia" || !reflect.DeepEqual(f.GPUModels, []string{"h100-sxm-80gb"}) ||
		f.Region != "eastus" || f.RDMA != &rdma || f.MinGPUs != &gpus || f.MinGPUMemoryGiB != nil || f.NameRegex.String() != "_v5$" ||
		!f.IncludePreview || f.IncludeRetired || !f.AsOf.Equal(asOf) {
		t.Errorf("ValidateFilter = %+v", f)
	}
	if got := skuNames(c.Filter(f)); !equalStrings(got, []string{"Standard_ND96isr_H100_v5"}) {
		t.Errorf("Filter = %v", got)
	}

	// Every problem on its field, list entries by index, with its kind.
	_, errs = ValidateFilter(c, FilterInput{Filter: Filter{
		Families: []string{"ND", "NZ"}, Series: []string{"ND-H900-v9"}, Categories: []string{"gpu", "tpu"}, GPUVendor: "intel",
		GPUModels: []string{"B100"}, MinGPUs: &neg, MinGPUMemoryGiB: &nan, Region: "moon-1",
	}, NameRegex: "("})
	type got struct {
		path   string
		kind   Problem
		detail string
	}
	want := []got{
		{"families.1", UnknownFamily, c.UnknownName(FamilyName, "NZ")},
		{"series.0", UnknownSeries, c.UnknownName(SeriesName, "ND-H900-v9")},
		{"gpu_models.0", UnknownGPUModel, c.UnknownName(GPUModelName, "B100")},
		{"categories.1", InvalidValue, `The category "tpu" is not one of: cpu, gpu, hpc.`},
		{"gpu_vendor", InvalidValue, `The GPU vendor "intel" is not one of: amd, nvidia.`},
		{"region", UnknownRegion, c.UnknownName(RegionName, "moon-1")},
		{"min_gpus", InvalidNumber, "min_gpus must be zero or more; got -1."},
		{"min_gpu_memory_gib", InvalidNumber, "min_gpu_memory_gib must be zero or more; got NaN."},
		{"name_regex", InvalidPattern, "The value \"(\" is not a valid RE2 regular expression: error parsing regexp: missing closing ): `(`."},
	}
	var have []got
	for _, e := range errs {
		have = append(have, got{strings.Join(e.Path, "."), e.Kind, e.Detail})
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("ValidateFilter errors:\n got %q\nwant %q", have, want)
	}
	if s := errs[0].Summary(); s != "Unknown Family" || !strings.HasPrefix(errs[0].Error(), "families.1: Unknown Family: The family \"NZ\"") {
		t.Errorf("summary %q, error %q", s, errs[0].Error())
	}
	for p, s := range map[Problem]string{InvalidValue: "Invalid Value", InvalidNumber: "Value Out Of Range", InvalidPattern: "Invalid Regular Expression", UnknownSize: "Unknown VM Size"} {
		if p.Summary() != s {
			t.Errorf("%d.Summary() = %q, want %q", p, p.Summary(), s)
		}
	}
}

func TestValidateModelFilter(t *testing.T) {
	c := mustDefault(t)
	f, errs := ValidateModelFilter(ModelFilterInput{Kinds: []string{"MoE"}, NameRegex: "^qwen"})
	if len(errs) != 0 {
		t.Fatalf("ValidateModelFilter: %v", errs)
	}
	var ids []string
	for _, m := range c.FilterModels(f) {
		if m.Kind != ModelKindMoE || !strings.HasPrefix(m.ID, "qwen") {
			t.Errorf("FilterModels returned %s (%s)", m.ID, m.Kind)
		}
		ids = append(ids, m.ID)
	}
	if len(ids) == 0 {
		t.Errorf("FilterModels(moe, ^qwen) returned nothing")
	}
	if got := len(c.FilterModels(ModelFilter{})); got != len(c.Models()) {
		t.Errorf("FilterModels with no filter = %d models, want %d", got, len(c.Models()))
	}
	_, errs = ValidateModelFilter(ModelFilterInput{Kinds: []string{"moe", "llm"}, NameRegex: "[a-"})
	if len(errs) != 2 || strings.Join(errs[0].Path, ".") != "kinds.1" || errs[0].Kind != InvalidValue ||
		errs[0].Detail != `The model kind "llm" is not one of: diffusion, encoder, generative, moe, speech, vision.` ||
		errs[1].Kind != InvalidPattern || strings.Join(errs[1].Path, ".") != "name_regex" {
		t.Errorf("ValidateModelFilter errors: %+v", errs)
	}
}

func TestCompilePattern(t *testing.T) {
	if re, fe := CompilePattern("^Standard_ND"); fe != nil || !re.MatchString("Standard_ND96isr_H100_v5") || re.MatchString("Standard_NC6") {
		t.Errorf("CompilePattern(^Standard_ND) = %v, %v", re, fe)
	}
	re, fe := CompilePattern("Standard_(ND")
	if re != nil || fe == nil || fe.Kind != InvalidPattern || fe.Path != nil ||
		fe.Detail != "The value \"Standard_(ND\" is not a valid RE2 regular expression: error parsing regexp: missing closing ): `Standard_(ND`." {
		t.Errorf("CompilePattern(Standard_(ND) = %v, %+v", re, fe)
	}
}

// DeepSeek-R1 is a row of its own (MIT weights), so a filter on its name
// finds it and its distillation, not DeepSeek-V3, whose row names V3 and
// V3's licence alone.
func TestModelFilterDeepSeekR1IsNotV3(t *testing.T) {
	c := mustDefault(t)
	f, errs := ValidateModelFilter(ModelFilterInput{NameRegex: "DeepSeek-R1"})
	if len(errs) != 0 {
		t.Fatalf("ValidateModelFilter: %v", errs)
	}
	var ids []string
	for _, m := range c.FilterModels(f) {
		ids = append(ids, m.ID)
	}
	if want := []string{"deepseek-r1", "deepseek-r1-distill-llama-70b"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("FilterModels(name_regex DeepSeek-R1) = %v, want %v", ids, want)
	}
	if v, _ := c.Model("deepseek-v3"); strings.Contains(v.Name, "R1") || strings.Contains(v.License, "R1") {
		t.Errorf("deepseek-v3 is named %q, licensed %q; want V3 alone", v.Name, v.License)
	}
}
