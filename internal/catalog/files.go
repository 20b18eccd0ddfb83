package catalog

// This file reads the user-supplied overlay files (a catalog file, an
// availability file and a prices file) within size limits, and describes
// every problem with a *FileError that names the file, the entry and the
// field.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"time"
)

// Size limits of the overlay files. A full `az vm list-skus --all` export of
// virtual machine sizes is 20 to 30 MB; the Azure Retail Prices API's virtual
// machine meters for every region are about 60 MB. They are variables so that
// tests can lower them.
var (
	MaxCatalogFileBytes      int64 = 16 << 20
	MaxAvailabilityFileBytes int64 = 64 << 20
	MaxPricesFileBytes       int64 = 128 << 20
)

// FileError is a problem with one overlay file. Entry and Field are empty
// when the problem concerns the whole file.
type FileError struct {
	File    string // the path as configured
	Entry   string // which entry, for example `entry 12 (Standard_ND96isr_H100_v5 in eastus)` or `line 4`
	Field   string // which field of the entry, for example `restrictions[0].reasonCode`
	Problem string // what is wrong, as a sentence
	// Unreadable is true when the file could not be read at all (missing,
	// not a regular file, over the size limit), rather than read and found
	// wrong.
	Unreadable bool
}

func (e *FileError) Error() string {
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

// readLimited reads a whole file that may be at most limit bytes. what
// names the kind of file in messages ("availability file"); hint says how
// to make a smaller one.
func readLimited(path string, limit int64, what, hint string) ([]byte, time.Time, error) {
	unreadable := func(problem string) error {
		return &FileError{File: path, Problem: problem, Unreadable: true}
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
		return unreadable(fmt.Sprintf("the %s is %s, more than the %s limit. %s", what, mib(size), mib(limit), hint))
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

// trimBOM drops a UTF-8 byte order mark, which some Windows tools write.
func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// firstByte is the first byte that is not white space, or 0.
func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	if off < 0 {
		off = 0
	}
	before := b[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonKind describes a Go type in JSON terms, for messages.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		switch t.Elem().Kind() {
		case reflect.String:
			return "a list of strings"
		case reflect.Struct, reflect.Map:
			return "a list of objects"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// jsonValueKind describes the JSON value an UnmarshalTypeError found.
func jsonValueKind(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "null":
		return "null"
	case strings.HasPrefix(v, "number"):
		if n := strings.TrimSpace(strings.TrimPrefix(v, "number")); n != "" {
			return "the number " + n
		}
		return "a number"
	}
	return v
}

// typeProblem describes an UnmarshalTypeError as a sentence.
func typeProblem(e *json.UnmarshalTypeError) string {
	return fmt.Sprintf("expected %s, got %s.", jsonKind(e.Type), jsonValueKind(e.Value))
}

// syntaxProblem describes a JSON syntax error with its line and column.
func syntaxProblem(data []byte, e *json.SyntaxError, base int64) string {
	line, col := lineCol(data, base+e.Offset)
	msg := strings.TrimPrefix(e.Error(), "invalid character ")
	if msg != e.Error() {
		msg = "unexpected character " + msg
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s.", line, col, msg)
}
