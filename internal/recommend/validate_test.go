// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestValidateAcceptsValidRequests(t *testing.T) {
	eng := testEngine(t)
	for _, req := range []Request{
		{Workload: "training"},
		{Workload: "inference", Model: &Model{ParametersBillion: 7, Precision: "int4", Class: "generative"}, Region: "EastUS", Target: "aks",
			Interconnect: "auto", GPUVendor: "nvidia", GPUModels: []string{"H100-SXM-80GB", "NVIDIA A100 80GB PCIe"}, CUDAVersion: "12.4",
			MinComputeCapability: "8.0", OptimizeFor: "cost", MaxResults: i64(50), Prefer: []string{"nc24ads_a100_v4"}, MinLifetimeMonths: i64(0)},
		{Workload: "hpc", Cores: i64(2000), Nodes: i64(20), Interconnect: "infiniband", Target: "cyclecloud"},
		{Workload: "htc", Cores: i64(10000), GPUVendor: "any"},
		{Workload: "inference", Model: &Model{ParametersBillion: 0.1, Class: "small"}, MinVCPUs: i64(4), MinMemoryGiB: f64(8)},
		{Workload: "visualization", Spot: true, MaxPricePerHour: f64(1), MaxTotalPricePerHour: f64(2), MinLocalDiskGiB: f64(100)},
		{Workload: "inference", Model: &Model{Name: "Llama 3.1 70B"}, ContextTokens: i64(32768), ConcurrentRequests: i64(64)},
		{Workload: "fine_tuning", Model: &Model{Name: " LLAMA-3.1-8B ", Precision: "int4"}, FineTuningMethod: "qlora", TrainingBatchSize: i64(4), ContextTokens: i64(2048)},
		{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7, Precision: "int8"}},
		{Workload: "training", Model: &Model{ParametersBillion: 47, ActiveParametersBillion: 13, Precision: "fp8"}, TrainingBatchSize: i64(2)},
		// The throughput inputs, up to their limits.
		{Workload: "training", Model: &Model{ParametersBillion: 7}, TokensBillion: f64(2000), DeadlineHours: f64(2000)},
		{Workload: "fine_tuning", Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: f64(MaxTokensBillion), DeadlineHours: f64(MaxDeadlineHours)},
		{Workload: "fine_tuning", Model: &Model{Name: "llama-3.1-8b"}, TokensBillion: f64(1e-6), DeadlineHours: f64(0.01)},
		{Workload: "inference", Model: &Model{Name: "llama-3.1-8b"}, TokensPerSecond: f64(MaxTokensPerSecond)},
		{Workload: "inference", Model: &Model{ParametersBillion: 7}, TokensPerSecond: f64(0.5), ConcurrentRequests: i64(1)},
		{Workload: "hpc", HPCBound: "memory_bandwidth"},
		{Workload: "hpc", HPCBound: "compute", Cores: i64(512)},
		{Workload: "htc", HPCBound: "memory_capacity"},
		{Workload: "hpc", ParallelEfficiency: f64(MaxParallelEfficiency), Nodes: i64(8)},
		{Workload: "htc", ParallelEfficiency: f64(0.05)},
	} {
		if errs := eng.Validate(req); errs != nil {
			t.Errorf("%+v: %+v", req, errs)
		}
	}
}

// One bad input, one error: its path, summary and a detail naming the fix.
func TestValidateErrors(t *testing.T) {
	eng := testEngine(t)
	for _, tt := range validateErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			errs := eng.Validate(tt.req)
			if len(errs) != 1 {
				t.Fatalf("want one error, got %+v", errs)
			}
			e := errs[0]
			if strings.Join(e.Path, ".") != tt.path || e.Summary != tt.summary || !strings.Contains(e.Detail, tt.detail) {
				t.Errorf("got %q %q %q\nwant %q %q containing %q", strings.Join(e.Path, "."), e.Summary, e.Detail, tt.path, tt.summary, tt.detail)
			}
			if e.Soft == tt.fatal {
				t.Errorf("Soft = %v for a fatal = %v error", e.Soft, tt.fatal)
			}
			if !titleCaseSummary.MatchString(e.Summary) {
				t.Errorf("summary %q is not Title Case", e.Summary)
			}
			if !strings.HasSuffix(e.Detail, ".") && !strings.HasSuffix(e.Detail, "?") {
				t.Errorf("detail %q is not a full sentence", e.Detail)
			}
			_, err := eng.Recommend(tt.req)
			var ve *ValidationError
			if isFatal := errors.As(err, &ve); isFatal != tt.fatal {
				t.Errorf("Recommend error %v; fatal %v, want %v", err, isFatal, tt.fatal)
			} else if isFatal && !reflect.DeepEqual(ve.Errors, []FieldError{e}) {
				t.Errorf("Recommend's validation errors %+v", ve.Errors)
			}
		})
	}
}

// validateErrorCases are the cases of TestValidateErrors, each a request
// with one bad input and the error it gets.
var validateErrorCases = []struct {
	name    string
	req     Request
	path    string
	summary string
	detail  string
	fatal   bool // Recommend refuses it with a *ValidationError
}{
	{"missing workload", Request{}, "workload", "Missing Workload", `Use one of "training", "fine_tuning", "inference", "hpc", "htc", "visualization", "data_processing".`, true},
	{"precision in upper case", Request{Workload: "training", Model: &Model{ParametersBillion: 7, Precision: "BF16"}}, "model.precision", "Invalid Precision", `model.precision must be one of "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8", "int4"; got "BF16". Did you mean "bf16"? Values are case-sensitive.`, true},
	{"target near miss", Request{Workload: "training", Target: "vmms"}, "target", "Invalid Target", `got "vmms". Did you mean "vmss"?`, true},
	{"model name near an alias", Request{Workload: "inference", Model: &Model{Name: "meta-llama/Llama-3.1-71B-Instruct"}}, "model.name", "Unknown Model", "Did you mean one of:", true},
	{"unknown workload", Request{Workload: "train"}, "workload", "Invalid Workload", `workload must be one of "training", "fine_tuning", "inference", "hpc", "htc", "visualization", "data_processing"; got "train".`, true},
	{"precision", Request{Workload: "training", Model: &Model{ParametersBillion: 7, Precision: "fp64"}}, "model.precision", "Invalid Precision", `"fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8", "int4"; got "fp64"`, true},
	{"class", Request{Workload: "training", Model: &Model{ParametersBillion: 7, Class: "huge"}}, "model.class", "Invalid Model Class", `"generative", "nongenerative", "small"`, true},
	{"negative parameters", Request{Workload: "training", Model: &Model{ParametersBillion: -7}}, "model.parameters_billion", "Invalid Parameter Count", "model.parameters_billion must be greater than 0", true},
	{"NaN parameters", Request{Workload: "training", Model: &Model{ParametersBillion: math.NaN()}}, "model.parameters_billion", "Invalid Parameter Count", "model.parameters_billion must be greater than 0", true},
	{"huge parameters", Request{Workload: "training", Model: &Model{ParametersBillion: 7e9}}, "model.parameters_billion", "Invalid Parameter Count", "greater than 0 and at most 100,000; got 7000000000.", true},
	{"gpu memory", Request{Workload: "training", GPUMemoryGiB: f64(0)}, "gpu_memory_gib", "Invalid GPU Memory", "greater than 0; got 0.", true},
	{"gpu memory inf", Request{Workload: "training", GPUMemoryGiB: f64(math.Inf(1))}, "gpu_memory_gib", "Invalid GPU Memory", "greater than 0", true},
	{"gpus", Request{Workload: "training", GPUs: i64(0)}, "gpus", "Invalid GPU Count", "gpus must be at least 1 and at most 100,000; got 0.", true},
	{"nodes", Request{Workload: "training", Nodes: i64(1001)}, "nodes", "Invalid Node Count", "at most 1,000; got 1001.", true},
	{"cores", Request{Workload: "hpc", Cores: i64(-4)}, "cores", "Invalid Core Count", "at least 1 and at most 10,000,000; got -4.", true},
	{"min vcpus", Request{Workload: "hpc", MinVCPUs: i64(0)}, "min_vcpus", "Invalid Minimum vCPUs", "at least 1", true},
	{"min memory", Request{Workload: "hpc", MinMemoryGiB: f64(-1)}, "min_memory_gib", "Invalid Minimum Memory", "greater than 0", true},
	{"min disk", Request{Workload: "hpc", MinLocalDiskGiB: f64(0)}, "min_local_disk_gib", "Invalid Minimum Local Disk", "greater than 0", true},
	{"max price", Request{Workload: "hpc", MaxPricePerHour: f64(0)}, "max_price_per_hour", "Invalid Maximum Price", "greater than 0", true},
	{"max total", Request{Workload: "hpc", MaxTotalPricePerHour: f64(-3)}, "max_total_price_per_hour", "Invalid Maximum Total Price", "greater than 0", true},
	{"lifetime", Request{Workload: "hpc", MinLifetimeMonths: i64(-1)}, "min_lifetime_months", "Invalid Minimum Lifetime", "at least 0 and at most 240; got -1.", true},
	{"max results 0", Request{Workload: "hpc", MaxResults: i64(0)}, "max_results", "Invalid Maximum Results", "at least 1 and at most 50; got 0.", true},
	{"max results 51", Request{Workload: "hpc", MaxResults: i64(51)}, "max_results", "Invalid Maximum Results", "at least 1 and at most 50; got 51.", true},
	{"parallel efficiency 0", Request{Workload: "hpc", ParallelEfficiency: f64(0)}, "parallel_efficiency", "Invalid Parallel Efficiency", "parallel_efficiency must be greater than 0 and at most 1.5; got 0.", true},
	{"parallel efficiency above 1.5", Request{Workload: "hpc", ParallelEfficiency: f64(1.6)}, "parallel_efficiency", "Invalid Parallel Efficiency", "at most 1.5; got 1.6.", true},
	{"parallel efficiency NaN", Request{Workload: "htc", ParallelEfficiency: f64(math.NaN())}, "parallel_efficiency", "Invalid Parallel Efficiency", "greater than 0", true},
	{"parallel efficiency on a GPU workload", Request{Workload: "training", ParallelEfficiency: f64(0.8)}, "parallel_efficiency", "Argument Not Used By Workload", `parallel_efficiency applies to the hpc and htc workloads, not to workload "training".`, true},
	{"interconnect", Request{Workload: "hpc", Interconnect: "ib"}, "interconnect", "Invalid Interconnect", `"auto", "infiniband", "any"; got "ib"`, true},
	{"vendor", Request{Workload: "training", GPUVendor: "intel"}, "gpu_vendor", "Invalid GPU Vendor", `"any", "nvidia", "amd"; got "intel"`, true},
	{"target", Request{Workload: "training", Target: "k8s"}, "target", "Invalid Target", `"vm", "vmss", "aks", "kaito", "cyclecloud", "azureml", "batch"; got "k8s"`, true},
	{"optimize", Request{Workload: "training", OptimizeFor: "speed"}, "optimize_for", "Invalid Optimization Goal", `"balanced", "cost", "performance"; got "speed"`, true},
	{"cuda", Request{Workload: "training", CUDAVersion: "twelve"}, "cuda_version", "Invalid CUDA Version", `such as "12.0" or "13.0"; got "twelve"`, true},
	{"cuda major 0", Request{Workload: "training", CUDAVersion: "0.9"}, "cuda_version", "Invalid CUDA Version", "major version 0", true},
	{"compute capability", Request{Workload: "training", MinComputeCapability: "8.0.1"}, "min_compute_capability", "Invalid Compute Capability", `such as "7.0" (Volta)`, true},
	{"empty gpu model", Request{Workload: "training", GPUModels: []string{" "}}, "gpu_models.0", "Empty GPU Model", "must not be empty", true},
	{"empty prefer", Request{Workload: "training", Prefer: []string{"Standard_NC4as_T4_v3", ""}}, "prefer.1", "Empty Preferred Size", "got a blank entry", true},
	// Soft: Recommend proceeds (and finds no fit, or warns).
	{"cores on training", Request{Workload: "training", Cores: i64(64)}, "cores", "Cores Not Used", "applies to the hpc and htc workloads", false},
	{"model on hpc", Request{Workload: "hpc", Model: &Model{ParametersBillion: 7}}, "model", "Model Not Used", `not to "hpc"`, false},
	{"gpus on hpc", Request{Workload: "hpc", GPUs: i64(8)}, "gpus", "GPU Setting On A CPU Workload", `workload "hpc" runs on CPU sizes`, false},
	{"cuda on small", Request{Workload: "inference", Model: &Model{ParametersBillion: 0.1, Class: "small"}, CUDAVersion: "12.0"}, "cuda_version", "GPU Setting On A CPU Workload", "a small model", false},
	{"amd and compute capability", Request{Workload: "inference", GPUVendor: "amd", MinComputeCapability: "8.0"}, "min_compute_capability", "Compute Capability With AMD GPUs", "NVIDIA rating", false},
	{"amd data processing", Request{Workload: "data_processing", GPUVendor: "amd"}, "gpu_vendor", "AMD GPUs For Data Processing", "RAPIDS runs on CUDA", false},
	{"nodes over cores", Request{Workload: "hpc", Cores: i64(10), Nodes: i64(20)}, "nodes", "More Nodes Than Cores", "nodes (20) is larger than cores (10)", false},
	{"unknown region", Request{Workload: "training", Region: "eastus9"}, "region", "Unknown Region", `Did you mean one of: eastus, eastus2, eastasia?`, true},
	{"unknown gpu model", Request{Workload: "training", GPUModels: []string{"a100-sxm-80gb", "h1000"}}, "gpu_models.1", "Unknown GPU Model", `Did you mean one of: h100-sxm-80gb, h100-nvl-94gb, p100? Use a model identifier (one of: a10, a100-pcie-80gb, a100-sxm-40gb, a100-sxm-80gb,`, true},
	{"gpu model of another vendor", Request{Workload: "training", GPUVendor: "nvidia", GPUModels: []string{"MI300X"}}, "gpu_models.0", "GPU Model Of Another Vendor", "is an AMD GPU", false},
	{"unknown prefer", Request{Workload: "training", Prefer: []string{"Standard_NC4as_T4"}}, "prefer.0", "Unknown Preferred Size", `Did you mean one of: Standard_NC4as_T4_v3,`, false},
	// The model and the inputs that shape its memory.
	{"unknown model", Request{Workload: "inference", Model: &Model{Name: "llama-3.1-8"}}, "model.name", "Unknown Model", "Did you mean one of: llama-3.1-8b", true},
	{"model without size", Request{Workload: "inference", Model: &Model{Precision: "bf16"}}, "model", "Missing Model Size", "model needs name", true},
	{"active above total", Request{Workload: "inference", Model: &Model{ParametersBillion: 47, ActiveParametersBillion: 50}}, "model.active_parameters_billion", "Active Parameters Above Total", "model.active_parameters_billion (50) must be at most model.parameters_billion (47)", true},
	{"negative active", Request{Workload: "inference", Model: &Model{ParametersBillion: 47, ActiveParametersBillion: -1}}, "model.active_parameters_billion", "Invalid Active Parameter Count", "greater than 0", true},
	{"method", Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7}, FineTuningMethod: "dora"}, "fine_tuning_method", "Invalid Fine-Tuning Method", `"full", "lora", "qlora"; got "dora"`, true},
	{"method on inference", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, FineTuningMethod: "lora"}, "fine_tuning_method", "Argument Not Used By Workload", `not to workload "inference"`, true},
	{"concurrency on training", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, ConcurrentRequests: i64(8)}, "concurrent_requests", "Argument Not Used By Workload", `not to workload "training"`, true},
	{"batch on inference", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, TrainingBatchSize: i64(8)}, "training_batch_size", "Argument Not Used By Workload", `not to workload "inference"`, true},
	{"context on hpc", Request{Workload: "hpc", ContextTokens: i64(4096)}, "context_tokens", "Argument Not Used By Workload", `not to workload "hpc"`, true},
	{"context 0", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, ContextTokens: i64(0)}, "context_tokens", "Invalid Context Length", "at least 1 and at most 10,485,760; got 0.", true},
	{"concurrency over the limit", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, ConcurrentRequests: i64(MaxConcurrentRequests + 1)}, "concurrent_requests", "Invalid Concurrent Requests", "at most 100,000", true},
	{"batch 0", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, TrainingBatchSize: i64(0)}, "training_batch_size", "Invalid Training Batch Size", "at least 1", true},
	{"int4 training", Request{Workload: "training", Model: &Model{ParametersBillion: 7, Precision: "int4"}}, "model.precision", "Precision Cannot Train", `workload "fine_tuning" with fine_tuning_method "lora" or "qlora"`, true},
	{"int8 full fine-tuning", Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7, Precision: "int8"}, FineTuningMethod: "full"}, "fine_tuning_method", "Precision Cannot Train", `Use fine_tuning_method "lora" or "qlora"`, true},
	{"method without model", Request{Workload: "fine_tuning", FineTuningMethod: "lora"}, "fine_tuning_method", "Argument Needs A Model", "model is not set", false},
	// The throughput inputs: ranges, the enum, the workloads that use
	// them, and a model to use them with.
	{"tokens 0", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, TokensBillion: f64(0)}, "tokens_billion", "Invalid Token Count", "tokens_billion must be greater than 0 and at most 1,000,000; got 0.", true},
	{"tokens NaN", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, TokensBillion: f64(math.NaN())}, "tokens_billion", "Invalid Token Count", "greater than 0 and at most 1,000,000; got NaN.", true},
	{"tokens over the limit", Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7}, TokensBillion: f64(MaxTokensBillion * 1.5)}, "tokens_billion", "Invalid Token Count", "at most 1,000,000; got 1500000.", true},
	{"deadline negative", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, DeadlineHours: f64(-1)}, "deadline_hours", "Invalid Deadline", "greater than 0 and at most 87,600; got -1.", true},
	{"deadline inf", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, DeadlineHours: f64(math.Inf(1))}, "deadline_hours", "Invalid Deadline", "greater than 0 and at most 87,600; got +Inf.", true},
	{"deadline over the limit", Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7}, DeadlineHours: f64(MaxDeadlineHours + 1)}, "deadline_hours", "Invalid Deadline", "at most 87,600; got 87601.", true},
	{"throughput 0", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, TokensPerSecond: f64(0)}, "tokens_per_second", "Invalid Throughput", "greater than 0 and at most 1,000,000,000; got 0.", true},
	{"throughput over the limit", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, TokensPerSecond: f64(2e9)}, "tokens_per_second", "Invalid Throughput", "at most 1,000,000,000; got 2000000000.", true},
	{"hpc bound", Request{Workload: "hpc", HPCBound: "latency"}, "hpc_bound", "Invalid HPC Bound", `"memory_bandwidth", "compute", "memory_capacity"; got "latency"`, true},
	{"tokens on inference", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, TokensBillion: f64(1)}, "tokens_billion", "Argument Not Used By Workload", `not to workload "inference"`, true},
	{"deadline on hpc", Request{Workload: "hpc", DeadlineHours: f64(24)}, "deadline_hours", "Argument Not Used By Workload", `not to workload "hpc"`, true},
	{"throughput on training", Request{Workload: "training", Model: &Model{ParametersBillion: 7}, TokensPerSecond: f64(100)}, "tokens_per_second", "Argument Not Used By Workload", `not to workload "training"`, true},
	{"hpc bound on inference", Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, HPCBound: "compute"}, "hpc_bound", "Argument Not Used By Workload", `not to workload "inference"`, true},
	{"hpc bound on visualization", Request{Workload: "visualization", HPCBound: "memory_capacity"}, "hpc_bound", "Argument Not Used By Workload", `Remove hpc_bound, or set workload to "hpc", "htc".`, true},
	{"tokens without model", Request{Workload: "training", TokensBillion: f64(100)}, "tokens_billion", "Argument Needs A Model", "model is not set", false},
	{"deadline without model", Request{Workload: "fine_tuning", DeadlineHours: f64(24)}, "deadline_hours", "Argument Needs A Model", "model is not set", false},
	{"throughput without model", Request{Workload: "inference", TokensPerSecond: f64(1000)}, "tokens_per_second", "Argument Needs A Model", "model is not set", false},
	// A stated context above a named model's maximum is refused, as a
	// prompt plus output above it is: the engines refuse a longer context.
	{"context above DeepSeek-R1's maximum", Request{Workload: "inference", Model: &Model{Name: "deepseek-r1"}, ContextTokens: i64(200000), RequestsPerSecond: f64(0.5)}, "context_tokens", "Context Longer Than Model Context", "Set context_tokens to at most 131,072", true},
	{"context above gpt-oss-20b's maximum", Request{Workload: "inference", Model: &Model{Name: "gpt-oss-20b"}, ContextTokens: i64(200000)}, "context_tokens", "Context Longer Than Model Context", "gpt-oss-20b's maximum context of 131,072 tokens", true},
}

// titleCaseSummary matches a summary in Title Case: each word capitalised,
// or one of the spellings that keep their case.
var titleCaseSummary = regexp.MustCompile(`^([A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)?|vCPUs|GPU|CUDA|AMD)( ([A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)?|vCPUs|GPU|CUDA|AMD))*$`)

func TestValidationErrorMessage(t *testing.T) {
	_, err := testEngine(t).Recommend(Request{Workload: "training", Model: &Model{ParametersBillion: 7, Precision: "fp64"}, MaxResults: i64(99)})
	want := "invalid recommendation request:\n  - model.precision: Invalid Precision: model.precision must be one of \"fp32\", \"tf32\", \"bf16\", \"fp16\", \"fp8\", \"fp4\", \"int8\", \"int4\"; got \"fp64\".\n  - max_results: Invalid Maximum Results: max_results must be at least 1 and at most 50; got 99."
	if err == nil || err.Error() != want {
		t.Errorf("error\n got  %v\n want %s", err, want)
	}
	if e, err := NewEngine(nil); err == nil || e != nil {
		t.Error("an engine without a catalog must be an error")
	}
}

func TestAllowedValueLists(t *testing.T) {
	for name, got := range map[string][]string{
		"Workloads": Workloads(), "FineTuningMethods": FineTuningMethods(), "Precisions": Precisions(), "ModelClasses": ModelClasses(), "Interconnects": Interconnects(),
		"GPUVendors": GPUVendors(), "Targets": Targets(), "OptimizeFors": OptimizeFors(), "Constraints": Constraints(), "HPCBounds": HPCBounds(),
	} {
		seen := map[string]bool{}
		for _, v := range got {
			if v == "" || v != strings.ToLower(v) || seen[v] {
				t.Errorf("%s: bad or repeated value %q", name, v)
			}
			seen[v] = true
		}
	}
	for _, w := range Workloads() {
		key := w
		if w == WorkloadTraining || w == WorkloadFineTuning || w == WorkloadInference {
			key = w + "/gpu"
			if _, ok := familyRules[w+"/cpu"]; !ok {
				t.Errorf("no CPU family rule for %s", w)
			}
		}
		if _, ok := familyRules[key]; !ok {
			t.Errorf("no family rule for %s", key)
		}
	}
	for _, o := range OptimizeFors() {
		w := weightSets[o]
		if sum := w.Family + w.Cost + w.Sizing + w.Generation + w.Scale; sum != 100 {
			t.Errorf("weights for %s add up to %v", o, sum)
		}
	}
	for c := constraint(0); c < numConstraints; c++ {
		if c.String() == "" {
			t.Errorf("constraint %d has no name", c)
		}
	}
}

// The allowed-value lists are copies: a caller that changes one changes
// neither what the engine accepts nor what the next caller gets.
func TestAllowedValueListsAreCopies(t *testing.T) {
	w := Workloads()
	w[0] = "mining"
	if got := Workloads()[0]; got != WorkloadTraining {
		t.Errorf("Workloads()[0] = %q after a caller changed its copy", got)
	}
	if errs := testEngine(t).Validate(Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}}); errs != nil {
		t.Errorf("training is no longer accepted after a caller changed its copy: %v", errs)
	}
	c := Constraints()
	c[0] = "changed"
	if got := Constraints()[0]; got != "workload" || cWorkload.String() != "workload" {
		t.Errorf("Constraints()[0] = %q, cWorkload = %q after a caller changed its copy", got, cWorkload.String())
	}
	m := FineTuningMethods()
	m[0] = "changed"
	if got := FineTuningMethods()[0]; got != MethodFull {
		t.Errorf("FineTuningMethods()[0] = %q after a caller changed its copy", got)
	}
	b := HPCBounds()
	b[0] = "changed"
	if got := HPCBounds(); !reflect.DeepEqual(got, []string{BoundMemoryBandwidth, BoundCompute, BoundMemoryCapacity}) {
		t.Errorf("HPCBounds() = %q after a caller changed its copy", got)
	}
	if errs := testEngine(t).Validate(Request{Workload: WorkloadHPC, HPCBound: BoundMemoryBandwidth}); errs != nil {
		t.Errorf("hpc_bound memory_bandwidth is no longer accepted after a caller changed its copy: %v", errs)
	}
}

// An input the throughput model cannot use says so rather than change
// nothing in silence. Without a model, the warning says what it would
// shape: the time and throughput of the job, not its memory.
func TestThroughputInputsWithoutAModel(t *testing.T) {
	eng := testEngine(t)
	for _, req := range []Request{
		{Workload: WorkloadTraining, TokensBillion: f64(100)},
		{Workload: WorkloadFineTuning, DeadlineHours: f64(24)},
		{Workload: WorkloadInference, TokensPerSecond: f64(1000)},
	} {
		errs := eng.Validate(req)
		if len(errs) != 1 || !errs[0].Soft || errs[0].Summary != "Argument Needs A Model" {
			t.Fatalf("%+v: %+v", req, errs)
		}
		if d := errs[0].Detail; strings.Contains(d, "memory estimate") {
			t.Errorf("%s: detail %q says it shapes the memory estimate; it sets the work or the throughput the throughput model times", strings.Join(errs[0].Path, "."), d)
		}
	}
}

// With a model, the throughput inputs apply to language models on GPUs:
// training FLOPs and the deadline are those of a model whose work is known
// (tokens, or samples with the FLOPs of one), the decode rate that of a
// model with a KV cache (or a small model served on CPUs,
// TestSmallModelSizedForItsDemandOnCPU). The deadline_hours of a diffusion
// model without samples_million, a vision model's tokens_billion (it is
// timed by samples), an encoder's tokens_per_second (no KV cache, no decode) and
// tokens_per_second with gpu_memory_gib (no per-copy memory to size copies
// from) change nothing, and a warning says so, as it does for
// context_tokens on a model without a token context.
func TestThroughputInputsTheModelDoesNotUse(t *testing.T) {
	for _, tc := range []struct {
		req  Request
		name string
	}{
		{Request{Workload: WorkloadTraining, Model: &Model{Name: "stable-diffusion-xl"}, DeadlineHours: f64(1)}, "deadline_hours"},
		{Request{Workload: WorkloadTraining, Model: &Model{Name: "vit-large"}, TokensBillion: f64(5)}, "tokens_billion"},
		{Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 7}, GPUMemoryGiB: f64(20), TokensPerSecond: f64(100000)}, "tokens_per_second"},
		{Request{Workload: WorkloadInference, Model: &Model{Name: "bert-large"}, TokensPerSecond: f64(100000)}, "tokens_per_second"},
		{Request{Workload: WorkloadInference, Model: &Model{Name: "stable-diffusion-xl"}, RequestsPerSecond: f64(2), Region: "eastus"}, "requests_per_second"},
	} {
		tc.req.AsOf = asOf
		res := mustRecommend(t, tc.req)
		warned := false
		for _, w := range res.Warnings {
			warned = warned || strings.Contains(w.Detail, tc.name)
			// The warning names the argument the user set, not its sibling.
			for _, load := range []string{"tokens_per_second", "requests_per_second"} {
				if load != tc.name && strings.Contains(w.Detail, load+" is not used") {
					t.Errorf("%+v with %s: the warning names %s, which the request does not set: %q", tc.req.Model, tc.name, load, w.Detail)
				}
			}
		}
		if !warned {
			t.Errorf("%+v with %s: no warning that it is not used (warnings %+v)", tc.req.Model, tc.name, res.Warnings)
		}
		load := tc.name == "tokens_per_second" || tc.name == "requests_per_second"
		if load && (res.Requirements.TokensPerSecond != 0 || res.Requirements.RequestsPerSecond != 0) {
			t.Errorf("%+v: requirements report %v tokens and %v requests per second, which no layout was sized for", tc.req.Model, res.Requirements.TokensPerSecond, res.Requirements.RequestsPerSecond)
		}
		// Dropped: the same ranking as without it.
		without := tc.req
		without.TokensPerSecond, without.RequestsPerSecond = nil, nil
		if load && !reflect.DeepEqual(names(mustRecommend(t, without)), names(res)) {
			t.Errorf("%+v: %s changed the ranking although it is not used", tc.req.Model, tc.name)
		}
	}
}

// A model's kind takes its article where a sentence names it: "an
// encoder model", never "a encoder model".
func TestKindTakesItsArticle(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "bert-large"}, ConcurrentRequests: i64(4), AsOf: asOf})
	texts := []string{}
	for _, w := range res.Warnings {
		texts = append(texts, w.Detail)
	}
	for _, e := range testEngine(t).Validate(Request{Workload: WorkloadTraining, Model: &Model{Name: "bert-large"}, SamplesMillion: f64(4), AsOf: asOf}) {
		texts = append(texts, e.Detail)
	}
	found := 0
	for _, s := range texts {
		if strings.Contains(s, "a encoder") {
			t.Errorf("%q", s)
		}
		if strings.Contains(s, "an encoder model") {
			found++
		}
	}
	if found < 2 {
		t.Errorf("the concurrent_requests warning and the samples_million error should both name an encoder model: %q", texts)
	}
}
