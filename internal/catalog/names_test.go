// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"strconv"
	"strings"
	"testing"
)

var allNameKinds = []NameKind{SizeName, RegionName, FamilyName, SeriesName, GPUModelName, ModelName}

func TestCanonical(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		kind     NameKind
		in, want string // want "" means unknown
	}{
		{SizeName, " nd96isr_h100_v5 ", "Standard_ND96isr_H100_v5"},
		{SizeName, "Standard_ND96isr_H100", ""},
		{RegionName, "EastUS", "eastus"},
		{RegionName, " westeurope ", "westeurope"},
		// Separators are not dropped: "East US" is suggested, not accepted.
		{RegionName, "East US", ""},
		{RegionName, "moon-1", ""},
		{FamilyName, "nd", "ND"},
		{FamilyName, "NZ", ""},
		{SeriesName, " nd-h100-v5", "ND-H100-v5"},
		{SeriesName, "ND-H900-v9", ""},
		{GPUModelName, "H100-SXM-80GB", "h100-sxm-80gb"},
		{GPUModelName, "nvidia h100 80gb sxm", "h100-sxm-80gb"},
		{GPUModelName, "B100", ""},
		{ModelName, "Llama-3.1-8B", "llama-3.1-8b"},
		{ModelName, "gpt-5", ""},
		{RegionName, "", ""},
		{NameKind(0), "eastus", ""},
	} {
		got, ok := c.Canonical(tc.kind, tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Canonical(%v, %q) = %q, %v; want %q", tc.kind, tc.in, got, ok, tc.want)
		}
	}
}

// Every kind ranks by the same rule (see suggest); the sizes and the models
// have their own cases in TestSuggest and TestModels.
func TestSuggestEveryKind(t *testing.T) {
	c := mustDefault(t)
	for _, tc := range []struct {
		kind NameKind
		in   string
		want []string
	}{
		// Spaces, hyphens and underscores do not count in region names.
		{RegionName, "East US", []string{"eastus", "eastus2", "eastasia"}},
		{RegionName, "eastus9", []string{"eastus", "eastus2", "eastasia"}},
		{FamilyName, "NZ", []string{"NC", "ND", "NG"}},
		{SeriesName, "ND-H900-v9", []string{"ND-H100-v5", "ND-H200-v5", "ND-GB200-v6"}},
		// By the beginning of the identifier: "h100-" is 1 edit from "h1000".
		{GPUModelName, "h1000", []string{"h100-sxm-80gb", "h100-nvl-94gb", "p100"}},
		// By display name: only the MI300X's name contains "instinct mi3".
		{GPUModelName, "Instinct MI3", []string{"mi300x", "a10", "m60"}},
		{NameKind(0), "x", []string{}},
	} {
		got := c.Suggest(tc.kind, tc.in)
		if got == nil || !equalStrings(got, tc.want) {
			t.Errorf("Suggest(%v, %q) = %#v, want %#v", tc.kind, tc.in, got, tc.want)
		}
	}
}

// UnknownName has one form for every kind: what is unknown, the
// SuggestionCount closest names, then what the kind's names look like.
// A blank name is a missing name, not a misspelt one: for every kind, an
// empty or blank name is told that a name is required, with what names
// look like, and no "did you mean" (the nearest names to nothing are
// arbitrary: is_retired("  ") had suggested Standard_H8, H16 and H8m).
func TestBlankNameIsRequired(t *testing.T) {
	c := mustDefault(t)
	for _, k := range allNameKinds {
		for _, q := range []string{"", "  ", "\t"} {
			got := c.UnknownName(k, q)
			if !strings.HasPrefix(got, "A "+k.String()+" name is required") || strings.Contains(got, "Did you mean") || !strings.HasSuffix(got, c.nameHint(k)) {
				t.Errorf("UnknownName(%v, %q) = %q, want a required name, what names look like, no suggestions", k, q, got)
			}
			if e := c.UnknownNameError(k, q, "name"); e.Kind != MissingName || e.Summary() != "Missing Name" {
				t.Errorf("UnknownNameError(%v, %q) kind %v (%s), want MissingName", k, q, e.Kind, e.Summary())
			}
		}
	}
	if got := c.UnknownName(SizeName, " "); !strings.Contains(got, "Standard_ND96isr_H100_v5") {
		t.Errorf("UnknownName(size, blank) = %q names no example", got)
	}
}

func TestUnknownNameForm(t *testing.T) {
	c := mustDefault(t)
	hints := map[NameKind]string{
		SizeName:     "Names look like Standard_ND96isr_H100_v5.",
		RegionName:   "Use an Azure region name in lower case without spaces, one of: australiacentral, ",
		FamilyName:   "Use one of: E, F, H, HB, HC, HX, NC, ND, NG, NV.",
		SeriesName:   "Use one of: ",
		GPUModelName: "Use a model identifier (one of: a10, a100-pcie-80gb, ",
		ModelName:    "Use a model identifier such as llama-3.1-8b or its full name, in any case.",
	}
	for _, k := range allNameKinds {
		const q = "Nope-9"
		s := c.Suggest(k, q)
		if len(s) != SuggestionCount {
			t.Fatalf("Suggest(%v) = %v, want %d names", k, s, SuggestionCount)
		}
		want := "The " + k.String() + " " + strconv.Quote(q) + " is not in the catalog (version " + c.Version + "). " +
			"Did you mean one of: " + strings.Join(s, ", ") + "? " + hints[k]
		if got := c.UnknownName(k, q); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ".") {
			t.Errorf("UnknownName(%v) = %q, want it to start with %q", k, got, want)
		}
		if e := c.UnknownNameError(k, q, "prefer", "1"); strings.Join(e.Path, ".") != "prefer.1" || e.Kind != k.Unknown() || e.Detail != c.UnknownName(k, q) {
			t.Errorf("UnknownNameError(%v) = %+v", k, e)
		}
		if k.Unknown().Summary() != "Unknown "+map[NameKind]string{SizeName: "VM Size", RegionName: "Region", FamilyName: "Family",
			SeriesName: "Series", GPUModelName: "GPU Model", ModelName: "Model"}[k] {
			t.Errorf("%v: summary %q", k, k.Unknown().Summary())
		}
	}
	if got := NameKind(0).Unknown(); got != InvalidValue {
		t.Errorf("NameKind(0).Unknown() = %v", got)
	}
}

// A display name stands for the region whose short name its words make,
// in the order az account list-locations writes them ("East US") or the
// Retail Prices API does ("US East"); one no rule of words maps is not
// guessed.
func TestRegionForDisplayName(t *testing.T) {
	c := mustDefault(t)
	for in, want := range map[string]string{
		"East US":          "eastus",
		"US East":          "eastus",
		"US East 2":        "eastus2",
		"US North Central": "northcentralus",
		"West Europe":      "westeurope",
		"EU West":          "",
		"Narnia":           "",
		"  ":               "",
	} {
		got, ok := c.RegionForDisplayName(in)
		if got != want || ok != (want != "") {
			t.Errorf("RegionForDisplayName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for in, want := range map[string]bool{"eastus": true, " WestUS3 ": true, "East US": false, "east-us": false, "3east": false, "": false} {
		if got := IsRegionShortName(in); got != want {
			t.Errorf("IsRegionShortName(%q) = %v, want %v", in, got, want)
		}
	}
}
