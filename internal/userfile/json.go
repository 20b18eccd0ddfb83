// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package userfile

// This file describes JSON decoding errors as sentences, and traces them to
// the entry of a list and the field they are about.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Entries describes a JSON list of entries of type T in a file, so that an
// error from decoding the whole list at once can be traced to the entry and
// field it is about. Errors are rare: the fast path decodes the list at
// once, and only a failure decodes it again one entry at a time.
type Entries[T any] struct {
	File string
	// Data is the whole file, for line and column numbers.
	Data []byte
	// Name names entry i in messages, from what could be decoded of it. e is
	// never nil; its fields are zero where nothing could be decoded.
	Name func(i int, e *T) string
	// Object says what every entry must be, for "expected <Object>, got a
	// number.". Whole says what the file must be, for a wrong type at the
	// top; "" names the JSON kind of the Go type.
	Object, Whole string
	// Strict makes unknown fields errors: "unknown field." and UnknownHint.
	Strict      bool
	UnknownHint string
}

// Locate describes err, which decoding the list that starts at offset base
// of Data returned (base is 0 when the list is the file).
func (l Entries[T]) Locate(base int64, err error) *Error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && afterDocument(se):
		return l.errorAt("", "", SyntaxProblem(l.Data, se, base))
	case errors.As(err, &se):
		// Syntax errors are found before decoding starts; name the entry
		// they are in when the list parses up to there.
		return l.errorAt(l.syntaxEntry(base, se.Offset), "", SyntaxProblem(l.Data, se, base))
	}
	if fe := l.Find(l.Data[min(base, int64(len(l.Data))):]); fe != nil {
		return fe
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field == "" && l.Whole != "":
		return l.errorAt("", "", fmt.Sprintf("expected %s, got %s.", l.Whole, ValueKind(te.Value)))
	case errors.As(err, &te):
		return l.errorAt("", te.Field, TypeProblem(te))
	}
	return l.errorAt("", "", err.Error()+".")
}

// Find decodes list, a JSON list, one entry at a time and describes the
// first entry that does not decode. It returns nil when every entry
// decodes, or when list is not a JSON list.
func (l Entries[T]) Find(list []byte) *Error {
	dec := json.NewDecoder(bytes.NewReader(list))
	if l.Strict {
		dec.DisallowUnknownFields()
	}
	tok, err := dec.Token()
	if err != nil {
		return nil //nolint:nilerr // Not a JSON list: there is no entry to describe.
	}
	if tok != json.Delim('[') {
		return nil
	}
	for i := 0; dec.More(); i++ {
		var e T
		err := dec.Decode(&e)
		if err == nil {
			continue
		}
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return l.errorAt(l.Name(i, new(T)), "", fmt.Sprintf("expected %s, got %s.", l.Object, ValueKind(te.Value)))
		case errors.As(err, &te):
			return l.errorAt(l.Name(i, &e), te.Field, TypeProblem(te))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return l.errorAt(l.Name(i, &e), f, strings.TrimSpace("unknown field. "+l.UnknownHint))
		}
		return l.errorAt(l.Name(i, &e), "", err.Error()+".")
	}
	return nil
}

func (l Entries[T]) errorAt(entry, field, problem string) *Error {
	return &Error{File: l.File, Entry: entry, Field: field, Problem: problem}
}

// syntaxEntry names the entry of the list at base that contains a syntax
// error at off (from base), by counting the entries that end before it; ""
// when there is no list at base.
func (l Entries[T]) syntaxEntry(base, off int64) string {
	if base < 0 || base > int64(len(l.Data)) {
		return ""
	}
	list := l.Data[base:]
	if FirstByte(list) != '[' {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(list[:max(0, min(off, int64(len(list))))]))
	if _, err := dec.Token(); err != nil {
		return ""
	}
	i := 0
	for dec.More() {
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			break
		}
		i++
	}
	return l.Name(i, new(T))
}

// TypeProblem describes an UnmarshalTypeError as a sentence.
func TypeProblem(e *json.UnmarshalTypeError) string {
	return fmt.Sprintf("expected %s, got %s.", jsonKind(e.Type), ValueKind(e.Value))
}

// SyntaxProblem describes a JSON syntax error with its line and column in
// data; base is the offset in data of what was being decoded. A second JSON
// document after the first is described as such (joinedProblem).
func SyntaxProblem(data []byte, e *json.SyntaxError, base int64) string {
	if afterDocument(e) {
		if p := joinedProblem(data); p != "" {
			return p
		}
	}
	line, col := lineCol(data, base+e.Offset)
	msg := strings.TrimPrefix(e.Error(), "invalid character ")
	if msg != e.Error() {
		msg = "unexpected character " + msg
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s.", line, col, msg)
}

// afterDocument reports whether a syntax error is about what follows a
// complete JSON document, which no entry holds.
func afterDocument(e *json.SyntaxError) bool {
	return strings.HasSuffix(e.Error(), " after top-level value")
}

// joinedProblem describes a file that holds a second JSON document (a list
// or an object) after its first, as cat writes two exports: where the
// second starts, and what to do. It returns "" when what follows the first
// document is not the start of another.
func joinedProblem(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	if dec.Decode(&first) != nil {
		return ""
	}
	off := dec.InputOffset()
	rest := data[off:]
	next := bytes.TrimLeft(rest, " \t\r\n")
	if len(next) == 0 || (next[0] != '[' && next[0] != '{') {
		return ""
	}
	line, col := lineCol(data, off+int64(len(rest)-len(next)))
	return fmt.Sprintf("the file holds more than one JSON document: another starts at line %d, column %d, as when exports are joined (cat a.json b.json). "+
		"Give the file the output of one export, exported again rather than joined.", line, col)
}

// ValueKind describes the JSON value an UnmarshalTypeError found: "a
// string", "the number 3", "a list".
func ValueKind(v string) string {
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
