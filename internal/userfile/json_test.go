// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package userfile

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type item struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Tags  []string `json:"tags"`
}

func items(data []byte, strict bool) Entries[item] {
	return Entries[item]{
		File: "f.json", Data: data, Object: "an item", Whole: "a list of items",
		Name: func(i int, e *item) string {
			if e.Name != "" {
				return fmt.Sprintf("item %d (%s)", i+1, e.Name)
			}
			return fmt.Sprintf("item %d", i+1)
		},
		Strict: strict, UnknownHint: "Check the spelling.",
	}
}

// locate decodes data, a list of items or an object whose "items" is one,
// the way the loaders do, and describes the error.
func locate(t *testing.T, data string, strict bool) *Error {
	t.Helper()
	b := []byte(data)
	var list []item
	var err error
	base := int64(0)
	if FirstByte(b) == '{' {
		var page struct {
			Items json.RawMessage `json:"items"`
		}
		if err = json.Unmarshal(b, &page); err == nil {
			base = int64(len(b) - len(page.Items) - 1)
			err = json.Unmarshal(page.Items, &list)
		}
	} else {
		err = json.Unmarshal(b, &list)
	}
	if err == nil && strict {
		fe := items(b, strict).Find(b)
		if fe == nil {
			t.Fatalf("no error in %s", data)
		}
		return fe
	}
	if err == nil {
		t.Fatalf("no error in %s", data)
	}
	return items(b, strict).Locate(base, err)
}

// wantJoined is the problem of a file that holds two JSON documents, the
// second at the start of line 2.
const wantJoined = "the file holds more than one JSON document: another starts at line 2, column 1, as when exports are joined (cat a.json b.json). " +
	"Give the file the output of one export, exported again rather than joined."

// TestEntriesLocate: columns count from 1 and point just past the
// character the decoder stopped at.
func TestEntriesLocate(t *testing.T) {
	const ok = `{"name": "a", "count": 1}`
	for _, tc := range []struct {
		name, in             string
		strict               bool
		entry, field, reason string
	}{
		{"syntax error in the second item", "[\n" + ok + ",\n" + `{"name": "b",}` + "\n]", false,
			"item 2", "", "invalid JSON at line 3, column 15: unexpected character '}' looking for beginning of object key string."},
		{"truncated", "[" + ok + `, {"name": "b"`, false, "item 2", "", "invalid JSON at line 1, column 41: unexpected end of JSON input."},
		{"wrong type, named after the field", "[" + ok + `, {"count": "2", "name": "b"}]`, false, "item 2 (b)", "count", "expected a whole number, got a string."},
		{"wrong type deep", "[" + ok + `, {"name": "c", "tags": [1]}]`, false, "item 2 (c)", "tags", "expected a string, got a number."},
		{"an item that is not an object", "[" + ok + `, true]`, false, "item 2", "", "expected an item, got true or false."},
		{"the file is not a list", `"a"`, false, "", "", "expected a list of items, got a string."},
		{"inside a page", `{"items": [` + ok + `, {"name": "d", "count": 1.5}]}`, false, "item 2 (d)", "count", "expected a whole number, got the number 1.5."},
		{"unknown field", "[" + ok + `, {"name": "e", "cuont": 1}]`, true, "item 2 (e)", "cuont", "unknown field. Check the spelling."},
		// Exports joined with cat: the file, not an entry, is wrong, and the
		// second document is placed where it starts.
		{"two lists joined", "[" + ok + "]\n[" + ok + "]\n", false, "", "", wantJoined},
		{"two pages joined", `{"items": [` + ok + "]}\n" + `  {"items": []}`, false, "", "", strings.Replace(wantJoined, "column 1", "column 3", 1)},
		{"text after the list", "[" + ok + "]\nx", false, "", "", "invalid JSON at line 2, column 2: unexpected character 'x' after top-level value."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fe := locate(t, tc.in, tc.strict)
			if fe.File != "f.json" || fe.Entry != tc.entry || fe.Field != tc.field || fe.Problem != tc.reason || fe.Unreadable {
				t.Errorf("got %#v\nwant entry %q, field %q, problem %q", fe, tc.entry, tc.field, tc.reason)
			}
		})
	}
}

func TestEntriesFindNothing(t *testing.T) {
	for _, in := range []string{`[]`, `[{"name": "a"}]`, `{"name": "a"}`, `"x"`, ``} {
		if fe := items([]byte(in), true).Find([]byte(in)); fe != nil {
			t.Errorf("Find(%s) = %v, want nil", in, fe)
		}
	}
}

func TestValueKind(t *testing.T) {
	for in, want := range map[string]string{
		"string": "a string", "bool": "true or false", "array": "a list", "object": "an object", "null": "null",
		"number": "a number", "number -3": "the number -3", "other": "other",
	} {
		if got := ValueKind(in); got != want {
			t.Errorf("ValueKind(%q) = %q, want %q", in, got, want)
		}
	}
}
