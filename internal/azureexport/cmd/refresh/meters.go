// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"regexp"
	"sort"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// meterMatch is one size of a prices file matched to a catalog size.
type meterMatch struct {
	file    string // the size as the file spells it
	size    *catalog.SKU
	mapped  bool // the file's name differs from the catalog's (D34)
	regions map[string]*azureexport.FilePrice
}

// meterMatches is how the sizes of a prices file map onto the catalog.
type meterMatches struct {
	// sizes are the matched sizes, those priced under the catalog's own
	// name first, each group sorted by the file's name.
	sizes []meterMatch
	// exact holds region and lower-case catalog name where the file gives
	// an on-demand price under the catalog's own name; such a price wins
	// over one for a mapped meter name.
	exact map[[2]string]bool
	// renamed lists "file name -> catalog name" for mapped names.
	renamed []string
	// unknown lists the file's sizes the catalog does not have, sorted.
	unknown []string
}

// matchMeters maps every size of a prices file to a catalog size with
// Catalog.MeterSize, so that a meter named without the catalog's version
// suffix (Standard_NG32adms_V620) prices the catalog's size
// (Standard_NG32adms_V620_v1).
func matchMeters(cat *catalog.Catalog, pf *azureexport.PriceFile) meterMatches {
	m := meterMatches{exact: map[[2]string]bool{}}
	var exact, mapped []meterMatch
	for _, regions := range pf.Prices {
		name := ""
		for _, fp := range regions {
			name = fp.Size
			break
		}
		s, isMapped, ok := cat.MeterSize(name)
		if !ok {
			m.unknown = append(m.unknown, name)
			continue
		}
		mm := meterMatch{file: name, size: s, mapped: isMapped, regions: regions}
		if !isMapped {
			exact = append(exact, mm)
			for region, fp := range regions {
				if fp.USDPerHour != nil {
					m.exact[[2]string{region, strings.ToLower(s.Name)}] = true
				}
			}
			continue
		}
		mapped = append(mapped, mm)
		m.renamed = append(m.renamed, name+" -> "+s.Name)
	}
	byFile := func(list []meterMatch) {
		sort.Slice(list, func(i, j int) bool { return list[i].file < list[j].file })
	}
	byFile(exact)
	byFile(mapped)
	m.sizes = append(exact, mapped...)
	sort.Strings(m.renamed)
	sort.Strings(m.unknown)
	return m
}

// sizeShapeRE splits a size name into its family letters, its vCPU count
// (with a constrained-core count) and the rest: Standard_E48ds_v5 is E,
// 48 and ds_v5; Standard_HB120-16rs_v3 is HB, 120-16 and rs_v3.
var sizeShapeRE = regexp.MustCompile(`^standard_([a-z]+)(\d+)(?:-\d+)?(.*)$`)

// sizeShape is a size's family and name pattern without its vCPU count, so
// that sizes of one series share it: Standard_E2_v5 and Standard_E96_v5
// are both "e|_v5".
func sizeShape(name string) string {
	m := sizeShapeRE.FindStringSubmatch(strings.ToLower(name))
	if m == nil {
		return ""
	}
	return m[1] + "|" + m[3]
}

// inScopeUnknown returns the sizes of the file that the catalog lacks and
// that belong to what the catalog covers: GPU and HPC families (names
// starting with N or H), and sizes shaped like a catalog size, that is other
// sizes of a series the catalog has (Standard_F1als_v6 beside
// Standard_F2als_v6).
func inScopeUnknown(cat *catalog.Catalog, unknown []string) []string {
	shapes := map[string]bool{}
	for _, s := range cat.SKUs() {
		if sh := sizeShape(s.Name); sh != "" {
			shapes[sh] = true
		}
	}
	var out []string
	for _, name := range unknown {
		rest := strings.TrimPrefix(strings.ToLower(name), "standard_")
		if strings.HasPrefix(rest, "n") || strings.HasPrefix(rest, "h") || shapes[sizeShape(name)] {
			out = append(out, name)
		}
	}
	return out
}
