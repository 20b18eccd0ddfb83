// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

//go:build unix

package userfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadPipeOverLimit: a file whose size is not known in advance (a named
// pipe) is read up to the limit and refused past it.
func TestReadPipeOverLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		_, _ = w.Write([]byte(strings.Repeat("x", 2048)))
	}()
	if fe := readError(t, path, MaxBytes(1024)); fe.Problem != "the test file is 1.0 KiB, more than the 1.0 KiB limit. Make it smaller." {
		t.Errorf("problem %q", fe.Problem)
	}
}
