// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file loads the catalog: the embedded data files, decoded strictly
// once per process (Default), or a directory laid out like them (LoadDir).

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed data/*.json data/*.csv
var embedded embed.FS

// embeddedDocuments are decoded in this order; later files may refer to
// entries of earlier ones.
var embeddedDocuments = []string{
	"data/catalog.json",
	"data/gpu_models.json",
	"data/images.json",
	"data/series.json",
	"data/skus.json",
	"data/performance.json",
	"data/models.json",
}

// DateLayout is the layout of every date in the catalog.
const DateLayout = "2006-01-02"

// Catalog is a decoded, validated and joined catalog. It is immutable once
// built and safe for concurrent use.
type Catalog struct {
	Version           string
	DataDate          time.Time
	PriceSnapshotDate string
	PriceSource       string
	SpotSource        string
	SpotCaveat        string
	Sources           []string
	Decisions         []DecisionDoc

	skus      []*SKU
	byName    map[string]*SKU
	gpuModels map[string]GPUModelDoc
	series    map[string]SeriesDoc
	regions   []string
	kaito     *KAITO

	// What the catalog was built from, so that a catalog file can be
	// merged over it (WithOverlays).
	docs              []Document
	priceCSV, spotCSV []byte
	availability      *AvailabilityOverlay

	perf   perfTables // performance facts (perf.go)
	models modelTable // open models (models.go)
}

// defaultCatalog decodes the embedded catalog on its first call and returns
// the same catalog, or error, on every later one.
var defaultCatalog = sync.OnceValues(loadEmbedded)

// Default returns the embedded catalog, decoded and validated once per
// process: every call returns the same *Catalog.
func Default() (*Catalog, error) { return defaultCatalog() }

func loadEmbedded() (*Catalog, error) { return loadFS(embedded, "data/") }

// LoadDir loads a catalog from a directory laid out like the embedded data
// (catalog.json, gpu_models.json, images.json, series.json, skus.json,
// performance.json, models.json, prices.csv and spot_prices.csv), for tools
// that edit the data files.
func LoadDir(dir string) (*Catalog, error) { return loadFS(os.DirFS(dir), "") }

func loadFS(fsys fs.FS, prefix string) (*Catalog, error) {
	docs := make([]Document, 0, len(embeddedDocuments))
	for _, name := range embeddedDocuments {
		name = prefix + strings.TrimPrefix(name, "data/")
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		doc, err := DecodeDocument(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		docs = append(docs, doc)
	}
	prices, err := fs.ReadFile(fsys, prefix+"prices.csv")
	if err != nil {
		return nil, err
	}
	spot, err := fs.ReadFile(fsys, prefix+"spot_prices.csv")
	if err != nil {
		return nil, err
	}
	return Build(docs, bytes.NewReader(prices), bytes.NewReader(spot))
}

// DecodeDocument decodes one catalog document strictly: unknown fields,
// wrong types and trailing data are errors.
func DecodeDocument(r io.Reader) (Document, error) {
	var doc Document
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return Document{}, describeJSONError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Document{}, errors.New("unexpected data after the JSON document")
	}
	return doc, nil
}

func describeJSONError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return fmt.Errorf("field %q: expected %s, got JSON %s (byte offset %d)", typeErr.Field, typeErr.Type, typeErr.Value, typeErr.Offset)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("invalid JSON at byte offset %d: %s", syntaxErr.Offset, syntaxErr.Error())
	}
	return err
}

// EmbeddedModelIDs lists the ids of the embedded model table, sorted as Models is,
// decoding models.json alone: the provider's schema documents them, and
// Terraform asks every provider process for the schema, most of which never
// need the whole catalog. A test checks them against Default's table.
func EmbeddedModelIDs() ([]string, error) {
	b, err := embedded.ReadFile("data/models.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Models []struct {
			ID string `json:"id"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("models.json: %w", err)
	}
	ids := make([]string, len(doc.Models))
	for i, m := range doc.Models {
		ids[i] = m.ID
	}
	slices.Sort(ids)
	return ids, nil
}
