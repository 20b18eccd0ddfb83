// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

// This file reads what `az vm list-usage --location REGION -o json` prints:
// the subscription's compute usage counters in one region, each a list
// entry of the Compute Usage API's Usage model,
//
//	{"currentValue": 96, "limit": 192, "name": {"localizedValue": "Standard NDSH100v5 Family vCPUs", "value": "standardNDSH100v5Family"}, "unit": "Count"}
//
// to which the CLI adds "localName" (the localized name) and writes
// currentValue and limit as strings ("96"). Both spellings are read, and
// the REST API's {"value": [...]} wrapper too. The region is the one the
// provider's usage_files map names; the file does not say it.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// usageCommand is the command whose output a usage file holds, for messages.
const usageCommand = "az vm list-usage --location REGION -o json"

// usageMaxBytes limits a usage file: a region's counters are a few hundred
// entries, about 100 KB.
const usageMaxBytes = 4 << 20

// rawUsage is one entry of a usage file.
type rawUsage struct {
	CurrentValue json.RawMessage `json:"currentValue"`
	Limit        json.RawMessage `json:"limit"`
	LocalName    string          `json:"localName"`
	Name         *struct {
		LocalizedValue string `json:"localizedValue"`
		Value          string `json:"value"`
	} `json:"name"`
	Unit string `json:"unit"`
}

// LoadUsage reads and parses the usage file of a region (at most 4 MiB, or
// what userfile.MaxBytes sets).
func LoadUsage(region, path string, opts ...userfile.Option) (*catalog.Usage, error) {
	kind := userfile.Kind{Name: "usage file", MaxBytes: usageMaxBytes, Hint: "Export one region's usage: " + usageCommand + "."}
	return userfile.Load(path, kind, func(file string, data []byte) (*catalog.Usage, error) {
		return ParseUsage(region, file, data)
	}, opts...)
}

// ParseUsage parses the JSON of `az vm list-usage` (a list of counters) or
// of the Compute Usage REST API (an object whose "value" is that list), for
// region. file names the file in errors. A file that is not such a list,
// or whose entries are not usage counters, is an error naming the file.
func ParseUsage(region, file string, data []byte) (*catalog.Usage, error) {
	data = userfile.Text(data)
	ferr := userfile.ErrorsIn(file)
	entries, err := decodeUsage(file, data)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, ferr("", "", "the file lists no usage counters. Use the output of "+usageCommand+".")
	}
	counts := make([]catalog.UsageCount, 0, len(entries))
	first := map[string]int{} // entry index by catalog.QuotaKey
	for i := range entries {
		c, err := usageCount(ferr, i, &entries[i])
		if err != nil {
			return nil, err
		}
		key := catalog.QuotaKey(c.Name)
		if j, dup := first[key]; dup {
			return nil, ferr(usageEntryName(i, &entries[i]), "name.value", fmt.Sprintf("duplicate: %s already counts this quota. "+
				"A usage file holds one region's counters, each once: export the region again rather than joining exports, and give each region its own file in usage_files.",
				usageEntryName(j, &entries[j])))
		}
		first[key] = i
		counts = append(counts, c)
	}
	return catalog.NewUsage(region, file, counts), nil
}

// decodeUsage decodes the entries of a usage file, from a list or from the
// "value" list of an object.
func decodeUsage(file string, data []byte) ([]rawUsage, error) {
	ferr := userfile.ErrorsIn(file)
	locate := func(base int64, err error) error {
		return userfile.Entries[rawUsage]{
			File: file, Data: data, Object: "an object describing one usage counter",
			Whole: "a list of usage counters (the output of " + usageCommand + ")",
			Name:  func(i int, e *rawUsage) string { return usageEntryName(i, e) },
		}.Locate(base, err)
	}
	return decodeEntries[rawUsage](data, locate, exportProblems{
		envelope: func(err error, value json.RawMessage) error {
			switch {
			case err != nil:
				return locate(0, err)
			case userfile.FirstByte(value) != '[':
				return ferr("", "", "the file is a JSON object, not the list of usage counters that "+usageCommand+" prints.")
			}
			return nil
		},
		empty:   ferr("", "", "the file is empty. Use the output of "+usageCommand+"."),
		notJSON: ferr("", "", "the file is not JSON: it must be the list of usage counters that "+usageCommand+" prints."),
	})
}

// usageCount reads one counter: its name (name.value) and its current
// value and limit, whole numbers written as numbers or as strings.
func usageCount(ferr func(entry, field, problem string) error, i int, e *rawUsage) (catalog.UsageCount, error) {
	entry := usageEntryName(i, e)
	if e.Name == nil || strings.TrimSpace(e.Name.Value) == "" {
		return catalog.UsageCount{}, ferr(entry, "name.value", "missing: every usage counter names its quota family or counter in name.value (for example standardNDSH100v5Family or cores); this is not the output of "+usageCommand+".")
	}
	current, err := usageNumber(e.CurrentValue)
	if err != "" {
		return catalog.UsageCount{}, ferr(entry, "currentValue", err)
	}
	limit, err := usageNumber(e.Limit)
	if err != "" {
		return catalog.UsageCount{}, ferr(entry, "limit", err)
	}
	if current < 0 {
		return catalog.UsageCount{}, ferr(entry, "currentValue", fmt.Sprintf("%d vCPUs in use cannot be negative.", current))
	}
	return catalog.UsageCount{Name: strings.TrimSpace(e.Name.Value), Current: current, Limit: limit}, nil
}

// usageNumber reads a whole number written as a JSON number or as a string
// of one (the CLI's spelling); the problem is "" when it reads.
func usageNumber(raw json.RawMessage) (int64, string) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return 0, "missing: every usage counter has currentValue and limit; this is not the output of " + usageCommand + "."
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(unq)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Sprintf("expected a whole number of vCPUs, got %s.", string(raw))
	}
	return n, ""
}

// usageEntryName names entry i of a usage file: "entry 3
// (standardNDSH100v5Family)".
func usageEntryName(i int, e *rawUsage) string {
	if e.Name != nil && e.Name.Value != "" {
		return fmt.Sprintf("entry %d (%s)", i+1, e.Name.Value)
	}
	return fmt.Sprintf("entry %d", i+1)
}
