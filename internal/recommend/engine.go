// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"sync"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Engine ranks the sizes of one catalog. NewEngine derives the per-size
// facts the ranking compares once (parsed CUDA and compute capability
// versions, the lowest price and its region, the generation year), so that
// Recommend does no parsing and no map iteration per call. The provider
// builds one Engine per configured catalog and holds it for the life of
// the configuration. What an Engine ranks with never changes after
// NewEngine (only its pool of scratch buffers does), and it is safe for
// concurrent use.
type Engine struct {
	cat  *catalog.Catalog
	prep *prepared
	// evals recycles the per-size evaluation buffer (one eval per catalog
	// size) between calls; nothing in a Result points into it.
	evals sync.Pool
}

// NewEngine prepares an engine for cat, which must not change afterwards
// (catalogs are immutable once loaded).
func NewEngine(cat *catalog.Catalog) (*Engine, error) {
	if cat == nil {
		return nil, errors.New("recommend: no catalog")
	}
	e := &Engine{cat: cat, prep: prepare(cat)}
	e.evals.New = func() any { return new([]eval) }
	return e, nil
}

// Catalog returns the catalog the engine ranks.
func (e *Engine) Catalog() *catalog.Catalog { return e.cat }

// Validate checks a request against the allowed values and the catalog:
// enum values, ranges, version formats, names that are not in the catalog
// (with suggestions), and contradictions such as gpu_vendor = "amd" with
// cuda_version. It returns nil when the request is valid. The provider
// calls it at plan time to report attribute errors.
func (e *Engine) Validate(req Request) []FieldError {
	fatal, soft := validate(e.cat, req)
	return append(fatal, soft...)
}

// MemoryRequest is the input of EstimateMemory: a model job as Request
// describes it.
type MemoryRequest struct {
	Workload           string // training, fine_tuning or inference
	Model              Model
	FineTuningMethod   string
	ContextTokens      *int64
	ConcurrentRequests *int64
	TrainingBatchSize  *int64
}

// EstimateMemory estimates the GPU memory of a model job as Recommend
// does, with the catalog's model table for Model.Name. It returns a
// *ValidationError for a request Recommend would refuse, and the warnings
// Recommend would give about the model (a count or precision that differs
// from the table).
func (e *Engine) EstimateMemory(r MemoryRequest) (MemoryEstimate, []Warning, error) {
	if !isModelWorkload(r.Workload) {
		return MemoryEstimate{}, nil, &ValidationError{Errors: []FieldError{fe("Invalid Workload",
			fmt.Sprintf("The memory estimate covers the workloads %s; got %q.", quoteList([]string{WorkloadTraining, WorkloadFineTuning, WorkloadInference}), r.Workload), "workload")}}
	}
	m := r.Model
	req := Request{Workload: r.Workload, Model: &m, FineTuningMethod: r.FineTuningMethod,
		ContextTokens: r.ContextTokens, ConcurrentRequests: r.ConcurrentRequests, TrainingBatchSize: r.TrainingBatchSize}
	if fatal, _ := validate(e.cat, req); len(fatal) > 0 {
		return MemoryEstimate{}, nil, &ValidationError{Errors: fatal}
	}
	rm, ok := resolveModel(e.cat, req)
	if !ok {
		return MemoryEstimate{}, nil, &ValidationError{Errors: []FieldError{fe("Missing Model Size",
			"Set model.name or model.parameters_billion.", "model")}}
	}
	return estimateMemory(&rm.mi), rm.warnings, nil
}
