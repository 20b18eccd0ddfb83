// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package userfiletest checks, in tests, the *userfile.Error a loader of a
// user file returns.
package userfiletest

import (
	"errors"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// Check requires err to be a *userfile.Error about file, with the entry and
// field given ("" when the problem concerns the whole file or entry) and a
// problem containing want, and its message to name the file, entry and field.
func Check(t testing.TB, err error, file, entry, field, want string) {
	t.Helper()
	fe := Require(t, err, file)
	if fe.Entry != entry || fe.Field != field || !strings.Contains(fe.Problem, want) {
		t.Errorf("got entry %q, field %q, problem %q\nwant entry %q, field %q, problem containing %q",
			fe.Entry, fe.Field, fe.Problem, entry, field, want)
	}
	msg := err.Error()
	for _, part := range []string{file, entry, field} {
		if !strings.Contains(msg, part) {
			t.Errorf("message %q does not name %q", msg, part)
		}
	}
}

// Require requires err to be a *userfile.Error about file, with a problem
// to show, and returns it.
func Require(t testing.TB, err error, file string) *userfile.Error {
	t.Helper()
	var fe *userfile.Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %T %v is not a *userfile.Error", err, err)
	}
	if fe.File != file || strings.TrimSpace(fe.Problem) == "" {
		t.Fatalf("error about file %q with problem %q; want file %q and a problem", fe.File, fe.Problem, file)
	}
	return fe
}
