// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"testing"
)

// Each finding has the kind that says what Recommend does with it: refuse
// the request, go on (ending in a *NoFitError when nothing fits), or go on
// with a result warning. The warnings are exactly the KindIgnored findings.
func TestFieldErrorKinds(t *testing.T) {
	eng := testEngine(t)
	model := &Model{ParametersBillion: 7}
	tests := []struct {
		name string
		req  Request
		kind FieldErrorKind
		fits bool // Recommend returns a result
	}{
		{"unknown precision", Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7, Precision: "fp64"}}, KindInvalid, false},
		{"max results over the limit", Request{Workload: WorkloadHPC, MaxResults: i64(MaxResultsLimit + 1)}, KindInvalid, false},
		{"min vcpus over the limit", Request{Workload: WorkloadHPC, MinVCPUs: i64(MaxMinVCPUs + 1)}, KindInvalid, false},
		{"cuda with amd", Request{Workload: WorkloadInference, GPUVendor: GPUVendorAMD, CUDAVersion: "12.0"}, KindNoMatch, false},
		{"unknown region", Request{Workload: WorkloadTraining, Region: "eastus9"}, KindInvalid, false},
		{"unknown gpu model", Request{Workload: WorkloadTraining, GPUModels: []string{"h1000"}}, KindInvalid, false},
		{"gpus on hpc", Request{Workload: WorkloadHPC, GPUs: i64(8)}, KindNoMatch, false},
		// A misspelled entry would narrow the ranking to the others silently.
		{"one unknown gpu model of two", Request{Workload: WorkloadTraining, Model: model, GPUModels: []string{"h100-sxm-80gb", "h1000"}}, KindInvalid, false},
		{"one gpu model of another vendor", Request{Workload: WorkloadTraining, Model: model, GPUVendor: GPUVendorNVIDIA, GPUModels: []string{"h100-sxm-80gb", "MI300X"}}, KindNoMatch, true},
		{"model on hpc", Request{Workload: WorkloadHPC, Model: model}, KindIgnored, true},
		{"cores on training", Request{Workload: WorkloadTraining, Model: model, Cores: i64(64)}, KindIgnored, true},
		{"unknown prefer", Request{Workload: WorkloadTraining, Model: model, Prefer: []string{"Standard_NC4as_T4"}}, KindIgnored, true},
		{"unknown model name", Request{Workload: WorkloadInference, Model: &Model{Name: "llama-9"}}, KindInvalid, false},
		{"int4 training", Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7, Precision: PrecisionINT4}}, KindInvalid, false},
		{"concurrency on fine-tuning", Request{Workload: WorkloadFineTuning, Model: model, ConcurrentRequests: i64(8)}, KindInvalid, false},
		{"require_quota without usage files", Request{Workload: WorkloadHPC, RequireQuota: true}, KindIgnored, true},
		{"method without a model", Request{Workload: WorkloadFineTuning, FineTuningMethod: MethodLoRA}, KindIgnored, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkFieldErrorKind(t, eng, tt.req, tt.kind, tt.fits) })
	}
}

// checkFieldErrorKind: req has exactly one finding, of the kind given, soft
// unless invalid; Recommend refuses an invalid request, ends in a
// *NoFitError when nothing fits, and otherwise returns a result that warns
// of the finding exactly when it is ignored.
func checkFieldErrorKind(t *testing.T, eng *Engine, req Request, kind FieldErrorKind, fits bool) {
	t.Helper()
	errs := eng.Validate(req)
	if len(errs) != 1 {
		t.Fatalf("want one finding, got %+v", errs)
	}
	fe := errs[0]
	if fe.Kind != kind {
		t.Errorf("%s: kind %d, want %d", fe.Summary, fe.Kind, kind)
	}
	if fe.Soft != (kind != KindInvalid) {
		t.Errorf("%s: Soft = %v for kind %d", fe.Summary, fe.Soft, fe.Kind)
	}
	res, err := eng.Recommend(req)
	var ve *ValidationError
	var nf *NoFitError
	switch {
	case kind == KindInvalid:
		if !errors.As(err, &ve) {
			t.Errorf("Recommend: %v, want a *ValidationError", err)
		}
		return
	case !fits:
		if !errors.As(err, &nf) {
			t.Errorf("Recommend: %v, want a *NoFitError", err)
		}
		return
	case err != nil:
		t.Fatalf("Recommend: %v", err)
	}
	var warned bool
	for _, w := range res.Warnings {
		if w.Summary == fe.Summary && w.Detail == fe.Detail {
			warned = true
		}
	}
	if warned != (kind == KindIgnored) {
		t.Errorf("%s (kind %d): result warning %v, want %v", fe.Summary, fe.Kind, warned, kind == KindIgnored)
	}
}
