// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// The CLI's output (currentValue and limit as strings, localName added)
// and the REST API's (numbers, in a "value" list) read the same counters;
// families match whatever their spacing and case.
func TestLoadUsage(t *testing.T) {
	u, err := LoadUsage("EastUS", "testdata/usage_eastus.json")
	if err != nil {
		t.Fatal(err)
	}
	if u.Region != "eastus" || u.File != "testdata/usage_eastus.json" {
		t.Errorf("region %q, file %q", u.Region, u.File)
	}
	for name, want := range map[string][2]int64{
		catalog.UsageRegionalVCPUs:    {136, 350},
		catalog.UsageLowPriorityVCPUs: {0, 100},
		"standardNDSH100v5Family":     {0, 0},
		"Standard NDASv4_A100 Family": {96, 192}, // the Resource SKUs API's spelling
		"StandardNCADSA100v4Family":   {24, 48},
	} {
		c, ok := u.Count(name)
		if !ok || c.Current != want[0] || c.Limit != want[1] {
			t.Errorf("%s: %+v, %v; want %v", name, c, ok, want)
		}
	}
	if _, ok := u.Count("standardHBv4Family"); ok {
		t.Error("a family the file does not list is found")
	}
	if c, _ := u.Count("standardNDASv4_A100Family"); c.Free() != 96 {
		t.Errorf("free %d, want 96", c.Free())
	}
	if free := (catalog.UsageCount{Current: 10, Limit: -1}).Free(); free != math.MaxInt64 {
		t.Errorf("no limit: free %d", free)
	}
	if free := (catalog.UsageCount{Current: 10, Limit: 4}).Free(); free != 0 {
		t.Errorf("over the limit: free %d", free)
	}
	api, err := LoadUsage("westus3", "testdata/usage_westus3_api.json")
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := api.Count("standardNDSH100v5Family"); !ok || c.Limit != 1200 {
		t.Errorf("REST API file: %+v %v", c, ok)
	}
}

// A file that is not list-usage output is an error that names the file
// and, where it can, the entry and the field.
func TestParseUsageErrors(t *testing.T) {
	for name, tt := range map[string]struct {
		data, entry, field, problem string
	}{
		"not JSON":          {"cores,96,350", "", "", "the file is not JSON: it must be the list of usage counters that az vm list-usage --location REGION -o json prints."},
		"empty":             {"  ", "", "", "the file is empty."},
		"empty list":        {"[]", "", "", "the file lists no usage counters."},
		"an object":         {`{"cores": 96}`, "", "", "the file is a JSON object, not the list of usage counters"},
		"list-skus output":  {`[{"name": "Standard_ND96isr_H100_v5", "family": "standardNDSH100v5Family", "locations": ["eastus"]}]`, "entry 1", "name", "expected an object, got a string."},
		"no name":           {`[{"currentValue": 1, "limit": 2}]`, "entry 1", "name.value", "missing: every usage counter names"},
		"no limit":          {`[{"currentValue": "1", "name": {"value": "cores"}}]`, "entry 1 (cores)", "limit", "missing: every usage counter has currentValue and limit"},
		"limit not a count": {`[{"currentValue": "1", "limit": "lots", "name": {"value": "cores"}}]`, "entry 1 (cores)", "limit", `expected a whole number of vCPUs, got "lots".`},
		"negative in use":   {`[{"currentValue": -4, "limit": 8, "name": {"value": "cores"}}]`, "entry 1 (cores)", "currentValue", "-4 vCPUs in use cannot be negative."},
		"syntax":            {`[{"currentValue": 1,, }]`, "entry 1", "", "invalid JSON at line 1"},
		// The REST API's shape: a syntax error is located, not taken for a
		// file of the wrong shape.
		// Two regions' exports joined: by jq -s add into one list, whose
		// counters repeat, or by cat into two documents.
		"a counter twice": {`[{"currentValue": "1", "limit": "8", "name": {"value": "cores"}}, {"currentValue": "0", "limit": "4", "name": {"value": "lowPriorityCores"}},` +
			`{"currentValue": "2", "limit": "16", "name": {"value": "Cores"}}]`, "entry 3 (Cores)", "name.value",
			"duplicate: entry 1 (cores) already counts this quota. A usage file holds one region's counters, each once: export the region again rather than joining exports, and give each region its own file in usage_files."},
		"two exports joined": {`[{"currentValue": "1", "limit": "8", "name": {"value": "cores"}}]` + "\n" + `[{"currentValue": "2", "limit": "16", "name": {"value": "cores"}}]`,
			"", "", "the file holds more than one JSON document: another starts at line 2, column 1"},
		"syntax in the REST shape": {"{\"value\": [\n  {\"currentValue\": 1,\n   \"limit\": 2,, }]}", "", "", "invalid JSON at line 3, column 16: unexpected character ','"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseUsage("eastus", "usage.json", []byte(tt.data))
			var ue *userfile.Error
			if !errors.As(err, &ue) || ue.File != "usage.json" || ue.Entry != tt.entry || ue.Field != tt.field || !strings.Contains(ue.Problem, tt.problem) {
				t.Errorf("got %#v\nwant entry %q field %q problem containing %q", err, tt.entry, tt.field, tt.problem)
			}
		})
	}
}
