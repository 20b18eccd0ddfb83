// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file tells an Azure region's short name (eastus, the Name column of
// `az account list-locations -o table`) from its display names: "East US"
// (the DisplayName column) and "US East" (the location of the Azure Retail
// Prices API). The catalog, the files and the configuration name regions
// by their short names only.

import (
	"regexp"
	"strings"
	"unicode"
)

// regionShortNameRE is the form of a region's short name: lower-case
// letters and digits, starting with a letter.
var regionShortNameRE = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// IsRegionShortName reports whether name, in any case and without
// surrounding spaces, has the form of a region's short name (eastus,
// westus3), not of a display name ("East US").
func IsRegionShortName(name string) bool {
	return regionShortNameRE.MatchString(strings.ToLower(strings.TrimSpace(name)))
}

// RegionForDisplayName returns the region of the catalog a display name
// stands for, and true: "East US" (the words joined) and "US East 2" (the
// Retail Prices API's geography first, moved after the directions and
// before the number) are eastus and eastus2. It returns "" and false when
// neither form is a region of the catalog ("EU West" is westeurope, which
// no rule of words gives).
func (c *Catalog) RegionForDisplayName(name string) (string, bool) {
	for _, form := range displayNameForms(name) {
		if c.HasRegion(form) {
			return form, true
		}
	}
	return "", false
}

// displayNameForms are the short names a display name may stand for: its
// words joined, and, with more than one word, its first word moved before
// the trailing number ("us west 3" -> "westus3").
func displayNameForms(name string) []string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 {
		return nil
	}
	forms := []string{strings.Join(words, "")}
	if len(words) < 2 {
		return forms
	}
	end := len(words)
	for end > 1 && strings.Trim(words[end-1], "0123456789") == "" {
		end--
	}
	rotated := append(append(append([]string{}, words[1:end]...), words[0]), words[end:]...)
	return append(forms, strings.Join(rotated, ""))
}
