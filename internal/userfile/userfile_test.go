// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testKind = Kind{Name: "test file", MaxBytes: 8, Hint: "Make it smaller."}

// readError reads path and returns the *Error it must fail with.
func readError(t *testing.T, path string, opts ...Option) *Error {
	t.Helper()
	_, _, err := Read(path, testKind, opts...)
	var fe *Error
	if !errors.As(err, &fe) || fe.File != path || !fe.Unreadable {
		t.Fatalf("Read(%s) = %v, want an unreadable *Error about the file", path, err)
	}
	return fe
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("12345678"), 0o600); err != nil {
		t.Fatal(err)
	}
	mod := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
	b, got, err := Read(path, testKind)
	if err != nil || string(b) != "12345678" || !got.Equal(mod) {
		t.Errorf("Read = %q, %v, %v", b, got, err)
	}

	for _, tc := range []struct {
		name, path string
		opts       []Option
		want       string
	}{
		{"over the limit set", path, []Option{MaxBytes(7)}, "the test file is 8 bytes, more than the 7 bytes limit. Make it smaller."},
		{"missing", filepath.Join(dir, "nope"), nil, "the test file does not exist. Relative paths are resolved against the directory Terraform runs in"},
		{"directory", dir, nil, "the test file is a directory; give the path of a file."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if fe := readError(t, tc.path, tc.opts...); fe.Problem != tc.want && !strings.HasPrefix(fe.Problem, tc.want) {
				t.Errorf("problem %q, want %q", fe.Problem, tc.want)
			}
		})
	}
	// The last option wins.
	if _, _, err := Read(path, testKind, MaxBytes(1), MaxBytes(8)); err != nil {
		t.Errorf("Read with MaxBytes(1), MaxBytes(8): %v", err)
	}
}

// TestReadSparseOverDefault: the size is checked before reading, so a file
// of 64 MiB and one byte is refused without reading it.
func TestReadSparseOverDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	limit := DefaultLimits().AvailabilityFile
	if err := os.Truncate(path, limit+1); err != nil {
		t.Fatal(err)
	}
	k := Kind{Name: "availability file", MaxBytes: limit}
	_, _, err := Read(path, k)
	if err == nil || !strings.Contains(err.Error(), "the availability file is 64.0 MiB, more than the 64 MiB limit.") {
		t.Errorf("Read = %v", err)
	}
}

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f.json", Problem: "the file is empty."}, "f.json: the file is empty."},
		{Error{File: "f.json", Entry: "entry 2", Problem: "p."}, "f.json, entry 2: p."},
		{Error{File: "f.json", Entry: "line 4", Field: "usd_per_hour", Problem: "p."}, "f.json, line 4, field usd_per_hour: p."},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestMiB(t *testing.T) {
	for n, want := range map[int64]string{812: "812 bytes", 1536: "1.5 KiB", 64 << 20: "64 MiB", 70<<20 + 1<<19: "70.5 MiB"} {
		if got := mib(n); got != want {
			t.Errorf("mib(%d) = %q, want %q", n, got, want)
		}
	}
}

// Text reads the encodings Windows tools write: UTF-8 with a byte order
// mark, and UTF-16 in either byte order with one (Windows PowerShell 5.1's
// redirection); anything else is left as it is.
func TestTextAndFirstByte(t *testing.T) {
	for in, want := range map[string]string{
		"\xef\xbb\xbf[1]":            "[1]",
		"\xff\xfe[\x00\xe9\x00]\x00": "[é]",
		"\xfe\xff\x00[\x00\xe9\x00]": "[é]",
		"\xff\xfe=\xd8\x00\xde":      "\U0001f600", // a surrogate pair
		"\xff\xfe[\x00]":             "[\ufffd",    // an odd last byte
		"\xff\xfe\x00\xd8[\x00":      "\ufffd[",    // an unpaired surrogate
		"[1]":                        "[1]",
		"":                           "",
	} {
		if got := string(Text([]byte(in))); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]byte{" \r\n\t{": '{', "": 0, " \n": 0, "x": 'x'} {
		if got := FirstByte([]byte(in)); got != want {
			t.Errorf("FirstByte(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadAndErrorsIn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("[1]"), 0o600); err != nil {
		t.Fatal(err)
	}
	parse := func(file string, data []byte) (string, error) {
		if string(data) != "[1]" {
			return "", ErrorsIn(file)("entry 1", "x", "wrong.")
		}
		return file + " " + string(data), nil
	}
	if got, err := Load(path, testKind, parse); err != nil || got != path+" [1]" {
		t.Errorf("Load = %q, %v", got, err)
	}
	// An unreadable file is not parsed.
	_, err := Load(path, testKind, func(string, []byte) (string, error) {
		t.Error("parsed a file over the limit")
		return "", nil
	}, MaxBytes(2))
	var fe *Error
	if !errors.As(err, &fe) || !fe.Unreadable {
		t.Errorf("Load over the limit: %v", err)
	}
	err = ErrorsIn("g.json")("entry 3", "name", "missing.")
	if !errors.As(err, &fe) || *fe != (Error{File: "g.json", Entry: "entry 3", Field: "name", Problem: "missing."}) {
		t.Errorf("ErrorsIn: %#v", err)
	}
}
