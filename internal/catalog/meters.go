// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"regexp"
	"strings"
)

// meterNameRE matches the size names of the retail price data, in any case.
var meterNameRE = regexp.MustCompile(`^standard_[a-z0-9_-]+$`)

// MeterSize finds the catalog size that a size name from the Azure retail
// price data stands for. The price data spells most sizes as the catalog
// and the Resource SKUs API do, but some meters leave out the version
// suffix of a first-version size: the meter Standard_NG32adms_V620 bills
// Standard_NG32adms_V620_v1 (decision D34). A name the catalog does not
// have is looked up again with "_v1" appended; a size is never matched by
// dropping or changing a suffix. mapped reports that the name differs from
// the size's.
func (c *Catalog) MeterSize(name string) (s *SKU, mapped, ok bool) {
	if s, ok = c.Lookup(name); ok {
		return s, false, true
	}
	key := strings.ToLower(strings.TrimSpace(name))
	if strings.HasSuffix(key, "_v1") || !meterNameRE.MatchString(key) {
		return nil, false, false
	}
	if s, ok = c.Lookup(key + "_v1"); ok {
		return s, true, true
	}
	return nil, false, false
}
