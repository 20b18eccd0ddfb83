// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package userfile reads the files a user names in the provider's settings
// (catalog_file, availability_file, prices_file) within size limits, and
// describes every problem with an *Error that names the file, the entry and
// the field. It knows no file format: the catalog and azureexport packages
// parse what it reads, and use Entries to trace a JSON decoding error to
// the entry it is in.
package userfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits are the size limits of the user's files, in bytes.
type Limits struct {
	CatalogFile      int64
	AvailabilityFile int64
	PricesFile       int64
}

// DefaultLimits are the limits the loaders apply unless told otherwise
// (MaxBytes). A full `az vm list-skus --all` export of virtual machine sizes
// is 20 to 30 MB; the Azure Retail Prices API's virtual machine meters for
// every region are about 60 MB.
func DefaultLimits() Limits {
	return Limits{CatalogFile: 16 << 20, AvailabilityFile: 64 << 20, PricesFile: 128 << 20}
}

// Kind is a kind of user file: its name in messages, its default size limit
// and how to make a smaller one.
type Kind struct {
	Name     string // for example "availability file"
	MaxBytes int64
	Hint     string // a sentence, for the message about a file over the limit
}

// An Option changes how Read reads a file.
type Option func(*Kind)

// MaxBytes sets the size limit, instead of the kind's.
func MaxBytes(n int64) Option { return func(k *Kind) { k.MaxBytes = n } }

// Error is a problem with one user file. Entry and Field are empty when the
// problem concerns the whole file.
type Error struct {
	File    string // the path as configured
	Entry   string // which entry, for example `entry 12 (Standard_ND96isr_H100_v5 in eastus)` or `line 4`
	Field   string // which field of the entry, for example `restrictions[0].reasonCode`
	Problem string // what is wrong, as a sentence
	// Unreadable is true when the file could not be read at all (missing,
	// not a regular file, over the size limit), rather than read and found
	// wrong.
	Unreadable bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Entry != "" {
		b.WriteString(", ")
		b.WriteString(e.Entry)
	}
	if e.Field != "" {
		b.WriteString(", field ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Problem)
	return b.String()
}

// ErrorsIn returns a function that makes the *Error about one entry and
// field of file (either may be ""), as an error.
func ErrorsIn(file string) func(entry, field, problem string) error {
	return func(entry, field, problem string) error {
		return &Error{File: file, Entry: entry, Field: field, Problem: problem}
	}
}

// Load reads the file at path as Read does and parses what it read; parse
// gets the path, to name the file in errors.
func Load[T any](path string, k Kind, parse func(file string, data []byte) (T, error), opts ...Option) (T, error) {
	b, _, err := Read(path, k, opts...)
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(path, b)
}

// Read reads the whole file at path, which may have at most k.MaxBytes
// bytes (or what MaxBytes sets), and returns it with its modification time.
func Read(path string, k Kind, opts ...Option) ([]byte, time.Time, error) {
	for _, o := range opts {
		o(&k)
	}
	what, limit := k.Name, k.MaxBytes
	unreadable := func(problem string) error {
		return &Error{File: path, Problem: problem, Unreadable: true}
	}
	f, err := os.Open(path)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, time.Time{}, unreadable(fmt.Sprintf("the %s does not exist. Relative paths are resolved against the directory Terraform runs in; use an absolute path or \"${path.module}/...\".", what))
		case errors.Is(err, fs.ErrPermission):
			return nil, time.Time{}, unreadable(fmt.Sprintf("the %s cannot be read: permission denied.", what))
		}
		return nil, time.Time{}, unreadable(fmt.Sprintf("the %s cannot be opened: %v.", what, unwrapPathError(err)))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, unreadable(fmt.Sprintf("the %s cannot be read: %v.", what, unwrapPathError(err)))
	}
	if info.IsDir() {
		return nil, time.Time{}, unreadable(fmt.Sprintf("the %s is a directory; give the path of a file.", what))
	}
	tooLarge := func(size int64) error {
		return unreadable(fmt.Sprintf("the %s is %s, more than the %s limit. %s", what, mib(size), mib(limit), k.Hint))
	}
	if info.Mode().IsRegular() && info.Size() > limit {
		return nil, time.Time{}, tooLarge(info.Size())
	}
	// The limit applies to what is read too: the file may grow, or not be a
	// regular file (a named pipe).
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, time.Time{}, unreadable(fmt.Sprintf("the %s cannot be read: %v.", what, unwrapPathError(err)))
	}
	if int64(len(b)) > limit {
		return nil, time.Time{}, tooLarge(int64(len(b)))
	}
	return b, info.ModTime(), nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// mib formats a byte count: "64 MiB", "70.5 MiB", "812 bytes".
func mib(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Text returns a file's text in UTF-8, without a byte order mark: a file
// that starts with a UTF-16 byte order mark (Windows PowerShell 5.1 writes
// `az ... -o json > file.json` in UTF-16LE) is decoded, a UTF-8 one is
// trimmed, and any other is returned as it is. An unpaired surrogate or an
// odd last byte becomes U+FFFD, which the parsers then report where it is.
func Text(b []byte) []byte {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		return b[3:]
	case bytes.HasPrefix(b, []byte("\xff\xfe")):
		order = binary.LittleEndian
	case bytes.HasPrefix(b, []byte("\xfe\xff")):
		order = binary.BigEndian
	default:
		return b
	}
	b = b[2:]
	units := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		units = append(units, order.Uint16(b[i:]))
	}
	out := make([]byte, 0, len(b)/2)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	if len(b)%2 == 1 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// FirstByte is the first byte that is not white space, or 0.
func FirstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
