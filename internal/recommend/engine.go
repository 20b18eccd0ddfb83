// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
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

// MemoryRequest is the input of ResolveMemory: a model job as Request
// describes it.
type MemoryRequest struct {
	Workload           string // training, fine_tuning or inference
	Model              Model
	FineTuningMethod   string
	ContextTokens      *int64
	ConcurrentRequests *int64
	TrainingBatchSize  *int64
}

// ResolveMemory resolves a model job as Recommend does, with the catalog's
// model table for Model.Name and the defaults of every input not given,
// into the memory model's input: perfmodel.EstimateMemory estimates it. It
// returns a *ValidationError for a request Recommend would refuse, and the
// warnings Recommend would give about the model (a count or precision that
// differs from the table).
func (e *Engine) ResolveMemory(r MemoryRequest) (perfmodel.MemoryInput, []Warning, error) {
	if !isModelWorkload(r.Workload) {
		return perfmodel.MemoryInput{}, nil, &ValidationError{Errors: []FieldError{fe("Invalid Workload",
			fmt.Sprintf("The memory estimate covers the workloads %s; got %q.", catalog.QuoteList([]string{WorkloadTraining, WorkloadFineTuning, WorkloadInference}), r.Workload), "workload")}}
	}
	m := r.Model
	req := Request{Workload: r.Workload, Model: &m, FineTuningMethod: r.FineTuningMethod,
		ContextTokens: r.ContextTokens, ConcurrentRequests: r.ConcurrentRequests, TrainingBatchSize: r.TrainingBatchSize}
	if fatal, _ := validate(e.cat, req); len(fatal) > 0 {
		return perfmodel.MemoryInput{}, nil, &ValidationError{Errors: fatal}
	}
	rm, ok := resolveModel(e.cat, req)
	if !ok {
		return perfmodel.MemoryInput{}, nil, &ValidationError{Errors: []FieldError{fe("Missing Model Size",
			"Set model.name or model.parameters_billion.", "model")}}
	}
	return rm.mi, modelWarnings(&rm.mi, &rm.found), nil
}

// TrainingRun is a full training run of a model on VMs of one size, as
// the training model takes it (perfmodel.TimeTraining).
type TrainingRun struct {
	Hardware                         perfmodel.Hardware
	ActiveParametersB, TokensBillion float64
	Nodes                            int64
	Precision                        string // the precision the run computes in
	// Ethernet: the VMs talk without InfiniBand (the size has none).
	Ethernet bool
}

// Time is the run as the training model times it, and whether the model
// times it: ResolveTrainingRun resolves only runs it does.
func (r *TrainingRun) Time() (perfmodel.TrainingRun, bool) {
	return perfmodel.TimeTraining(&r.Hardware, r.ActiveParametersB, r.TokensBillion, r.Nodes, r.Precision, r.Ethernet)
}

// ResolveTrainingRun checks a full training run of a model with
// activeParametersBillion active parameters on tokensBillion tokens, on
// nodes VMs of vmSize, at precision ("" means bf16), as Recommend would:
// a *ValidationError for values it would refuse, and one on vm_size for a
// size without a GPU, on precision for a GPU without a throughput figure
// at the precision. The VMs talk over InfiniBand when the size has it,
// else over Ethernet.
func (e *Engine) ResolveTrainingRun(activeParametersBillion, tokensBillion float64, vmSize string, nodes int64, precision string) (TrainingRun, error) {
	var errs []FieldError
	for _, f := range []*FieldError{
		RangeActiveParametersTraining.Check(activeParametersBillion, "active_parameters_billion"),
		RangeTokensBillion.Check(tokensBillion, "tokens_billion"),
		RangeNodes.CheckInt(nodes, "nodes"),
	} {
		if f != nil {
			errs = append(errs, *f)
		}
	}
	precision = orDefault(precision, DefaultPrecision)
	switch {
	case !slices.Contains(precisions, precision):
		errs = append(errs, fe("Invalid Precision", fmt.Sprintf("precision must be one of %s; got %q.", catalog.QuoteList(precisions), precision), "precision"))
	case perfmodel.Quantised(precision):
		errs = append(errs, fe("Precision Cannot Train", fmt.Sprintf("Training runs in bf16, fp16, fp8, tf32 or fp32, not %s.", precision), "precision"))
	}
	in, sizeErr := e.gpuSize(vmSize)
	if sizeErr != nil {
		errs = append(errs, *sizeErr)
	}
	if len(errs) > 0 {
		return TrainingRun{}, &ValidationError{Errors: errs}
	}
	if !in.RunsTraining(precision) || in.PeakTFLOPS(precision) <= 0 {
		return TrainingRun{}, &ValidationError{Errors: []FieldError{fe("No Throughput Figure",
			fmt.Sprintf("The catalog has no native %s throughput for the %s of %s; choose a precision it runs (%s) or another size.", precision, in.sku.GPU.Model, in.sku.Name, in.ClosestPrecision(precision)), "precision")}}
	}
	return TrainingRun{Hardware: in.Hardware, ActiveParametersB: activeParametersBillion, TokensBillion: tokensBillion,
		Nodes: nodes, Precision: precision, Ethernet: !in.sku.Network.RDMA}, nil
}

// gpuSize is the prepared size named vmSize, which must have a GPU whose
// count the catalog gives: the training model multiplies by it.
func (e *Engine) gpuSize(vmSize string) (*sizeInfo, *FieldError) {
	s, ok := e.cat.Lookup(vmSize)
	if !ok {
		ce := e.cat.UnknownNameError(catalog.SizeName, vmSize)
		f := fe(ce.Summary(), ce.Detail, "vm_size")
		return nil, &f
	}
	for i := range e.prep.sizes {
		in := &e.prep.sizes[i]
		switch {
		case in.sku != s || !in.IsGPU:
			continue
		case in.GPUCount <= 0:
			f := fe("Unknown GPU Count", fmt.Sprintf("The catalog does not know the GPU count of %s (its sources do not give one), so the training model cannot time a run on it; use %s, or another GPU size whose GPU count the catalog gives.", s.Name, s.Replacement()), "vm_size")
			return nil, &f
		}
		return in, nil
	}
	f := fe("Not A GPU Size", s.Name+" has no GPU; the training estimate is for GPU sizes.", "vm_size")
	return nil, &f
}
