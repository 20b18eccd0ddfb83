// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import "fmt"

// Generation years order sizes from older to newer: a series' year_available
// (the year it became generally available on Azure) and a GPU model's
// architecture_year (the year its architecture launched), the fallback for a
// series without a year.

// minYear and maxYear bound year_available and architecture_year.
const (
	minYear = 2000
	maxYear = 2100
)

// architectureYear is m's architecture_year, or that of another model of
// the same architecture when m has none (a GPU model added by a catalog
// file, say); 0 when no model of the architecture has one.
func (c *Catalog) architectureYear(m GPUModelDoc) int {
	if m.ArchitectureYear != 0 {
		return m.ArchitectureYear
	}
	for _, id := range sortedKeys(c.gpuModels) {
		if o := c.gpuModels[id]; o.Architecture == m.Architecture && o.ArchitectureYear != 0 {
			return o.ArchitectureYear
		}
	}
	return 0
}

func (c *Catalog) validateYears() []error {
	var errs []error
	inRange := func(y int) bool { return y == 0 || (y >= minYear && y <= maxYear) }
	for _, name := range sortedKeys(c.series) {
		if y := c.series[name].YearAvailable; !inRange(y) {
			errs = append(errs, fmt.Errorf("series %s: year_available %d is not a year from %d to %d", name, y, minYear, maxYear))
		}
	}
	first := map[string]GPUModelDoc{} // architecture -> first model (by id) with a year
	for _, id := range sortedKeys(c.gpuModels) {
		g := c.gpuModels[id]
		if g.ArchitectureYear == 0 {
			continue
		}
		if !inRange(g.ArchitectureYear) {
			errs = append(errs, fmt.Errorf("GPU model %s: architecture_year %d is not a year from %d to %d", id, g.ArchitectureYear, minYear, maxYear))
			continue
		}
		if f, ok := first[g.Architecture]; ok && f.ArchitectureYear != g.ArchitectureYear {
			errs = append(errs, fmt.Errorf("GPU model %s: architecture_year %d, but GPU model %s of the same architecture %q says %d", id, g.ArchitectureYear, f.ID, g.Architecture, f.ArchitectureYear))
		} else if !ok {
			first[g.Architecture] = g
		}
	}
	return errs
}
