// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// fuzzSeed is one seed input of FuzzRecommend, a field per argument of
// its fuzz function.
type fuzzSeed struct {
	workload                    string
	params                      float64
	precision, class            string
	gpuMem                      float64
	gpus, nodes, cores          int64
	interconnect, vendor        string
	cuda, cc, target, region    string
	maxPrice, maxTotal          float64
	spot                        bool
	lifetime, maxResults, asOfD int64
	optimize, prefer, gpuModel  string
	minVCPUs                    int64
	minMem, minDisk             float64
	flags                       uint8
	modelName                   string
	active                      float64
	method                      string
	context, concurrency, batch int64
	tokens, deadline, tps       float64
	bound                       string
}

// fuzzSeeds are the seed inputs of FuzzRecommend.
var fuzzSeeds = []fuzzSeed{
	{workload: "inference", params: 1.3, precision: "bf16"},
	{workload: "training", params: 70, precision: "bf16"},
	{workload: "data_processing", cuda: "12.0"},
	{workload: "visualization"},
	{workload: "training", params: 0.1, class: "small"},
	{workload: "inference", target: "aks", vendor: "amd"},
	{workload: "hpc", cores: 2000},
	{workload: "visualization", lifetime: 12, asOfD: -304},
	{workload: "training", cuda: "13.0"},
	{workload: "inference", params: 7, region: "eastus", maxPrice: 2},
	{workload: "inference", vendor: "amd", cuda: "12.0"},
	{workload: "fine_tuning", params: 13, nodes: 4, interconnect: "infiniband", spot: true, optimize: "performance", prefer: "Standard_ND96asr_v4"},
	{workload: "htc", cores: 100000, maxTotal: 10, maxResults: 50, gpuModel: "t4"},
	{workload: "inference", params: -1, precision: "fp64", gpus: -3, cc: "x.y", maxResults: 99},
	{workload: "", params: 1e300, gpuMem: 1e300, nodes: 1 << 40, cores: 1 << 60},
	{workload: "hpc", cores: 512, minVCPUs: 96, minMem: 400, minDisk: 1000, flags: 1 | 2<<1 | 1<<3},
	{workload: "inference", params: 7, minMem: 1e9, minDisk: -5, flags: 3 << 1},
	{workload: "training", params: 70, region: "eastus", flags: 1 << 5},
	{workload: "inference", params: 13, region: "westus3", spot: true, prefer: "Standard_ND96isr_H100_v5,Standard_ND96amsr_A100_v4", flags: 1<<5 | 1},
	{workload: "fine_tuning", params: 7, gpuModel: "a100-sxm-80gb,NVIDIA H100 80GB SXM,,h100", flags: 2 << 3},
	{workload: "inference", modelName: "Llama 3.1 70B", context: 32768, concurrency: 64},
	{workload: "inference", modelName: "gpt-oss-120b", concurrency: 1000, interconnect: "any"},
	{workload: "inference", modelName: "deepseek-v3", nodes: 3},
	{workload: "fine_tuning", modelName: "llama-3.1-8b", precision: "int4", method: "qlora", batch: 8, context: 8192},
	{workload: "fine_tuning", modelName: "llama-3.1-70b", method: "lora", gpuModel: "t4,v100-sxm2-32gb"},
	{workload: "training", params: 47, active: 13, precision: "fp8", batch: 2},
	{workload: "training", modelName: "vit-large", batch: 512},
	{workload: "inference", params: 13, concurrency: 16, gpus: 16},
	{workload: "training", params: 7, precision: "int8"},
	{workload: "inference", modelName: "no-such-model", method: "full", batch: 4},
	// The throughput model: token budgets and deadlines that scale a
	// job out (or cannot be met), services sized for a throughput,
	// the HPC bounds, and the inputs on workloads that do not use them.
	{workload: "training", params: 7, gpuModel: "a100-sxm-40gb", region: "eastus", tokens: 2000, deadline: 2000},
	{workload: "training", params: 7, gpuModel: "a100-sxm-40gb", tokens: 2000, deadline: 10},
	{workload: "training", params: 70, tokens: 100, deadline: 100, nodes: 4},
	{workload: "training", params: 70, interconnect: "any", deadline: 1000},
	{workload: "training", params: 405, tokens: 15000, deadline: 2160, vendor: "nvidia"},
	{workload: "fine_tuning", modelName: "llama-3.1-8b", method: "lora", tokens: 0.5, deadline: 0.5},
	{workload: "fine_tuning", modelName: "mixtral-8x7b", precision: "int4", deadline: 1, gpus: 8},
	{workload: "training", modelName: "vit-large", deadline: 1, tokens: 5},
	{workload: "inference", modelName: "llama-3.1-8b", tps: 50000},
	{workload: "inference", modelName: "llama-3.1-70b", tps: 1e6, concurrency: 1000},
	{workload: "inference", params: 7, tps: 20000, nodes: 2},
	{workload: "inference", modelName: "deepseek-v3", tps: 5000, interconnect: "infiniband"},
	{workload: "inference", params: 0.1, class: "small", tps: 1000},
	{workload: "inference", params: 7, gpuMem: 20, tps: 1e5},
	{workload: "hpc", cores: 2000, bound: "compute"},
	{workload: "hpc", bound: "memory_capacity", nodes: 4},
	{workload: "htc", cores: 10000, bound: "memory_bandwidth", region: "eastus"},
	{workload: "htc", bound: "latency"},
	{workload: "inference", params: 7, deadline: 5, bound: "compute"},
	{workload: "training", params: 7, tokens: -1, deadline: 1e9, tps: 10},
	{workload: "training", tokens: 100, deadline: 24},
}

// FuzzRecommend feeds arbitrary inputs to Validate and Recommend: neither
// may panic, Recommend returns a result, a *ValidationError or a
// *NoFitError, and a result satisfies every invariant (checkInvariants).
// Every field of Request is fuzzed. Numeric pointers are set when the fuzzed
// value is not zero; prefer and gpuModel are split on commas into lists;
// flags holds the booleans: bit 0 include_preview, bits 1-2 confidential and
// bits 3-4 isolated (0 null, 1 false, 2 or 3 true), bit 5 ranks over the
// catalog with the availability and retail price fixtures laid over it.
// modelName, active, method, context, concurrency and batch are the model's
// name and active parameters, fine_tuning_method, context_tokens,
// concurrent_requests and training_batch_size; tokens, deadline, tps and
// bound are tokens_billion, deadline_hours, tokens_per_second and
// hpc_bound.
func FuzzRecommend(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.workload, s.params, s.precision, s.class, s.gpuMem, s.gpus, s.nodes, s.cores, s.interconnect, s.vendor,
			s.cuda, s.cc, s.target, s.region, s.maxPrice, s.maxTotal, s.spot, s.lifetime, s.maxResults, s.asOfD, s.optimize, s.prefer, s.gpuModel,
			s.minVCPUs, s.minMem, s.minDisk, s.flags, s.modelName, s.active, s.method, s.context, s.concurrency, s.batch,
			s.tokens, s.deadline, s.tps, s.bound)
	}
	engines := []*Engine{testEngine(f), newTestEngine(f, fuzzOverlaidCatalog(f))}
	f.Fuzz(func(t *testing.T, workload string, params float64, precision, class string, gpuMem float64, gpus, nodes, cores int64,
		interconnect, vendor, cuda, cc, target, region string, maxPrice, maxTotal float64, spot bool,
		lifetime, maxResults, asOfDays int64, optimize, prefer, gpuModel string,
		minVCPUs int64, minMem, minDisk float64, flags uint8,
		modelName string, active float64, method string, context, concurrency, batch int64,
		tokens, deadline, tps float64, bound string) {
		eng := engines[flags>>5&1]
		cat := eng.Catalog()
		req := Request{
			Workload: workload, Interconnect: interconnect, GPUVendor: vendor, CUDAVersion: cuda, MinComputeCapability: cc,
			Target: target, Region: region, Spot: spot, OptimizeFor: optimize,
			AsOf: asOf.AddDate(0, 0, int(asOfDays%100000)),
		}
		if params != 0 || precision != "" || class != "" || modelName != "" || active != 0 {
			req.Model = &Model{Name: modelName, ParametersBillion: params, ActiveParametersBillion: active, Precision: precision, Class: class}
		}
		req.FineTuningMethod = method
		fp := func(v float64) *float64 {
			if v == 0 {
				return nil
			}
			return &v
		}
		ip := func(v int64) *int64 {
			if v == 0 {
				return nil
			}
			return &v
		}
		req.GPUMemoryGiB, req.MaxPricePerHour, req.MaxTotalPricePerHour = fp(gpuMem), fp(maxPrice), fp(maxTotal)
		req.GPUs, req.Nodes, req.Cores, req.MaxResults = ip(gpus), ip(nodes), ip(cores), ip(maxResults)
		req.MinVCPUs, req.MinMemoryGiB, req.MinLocalDiskGiB = ip(minVCPUs), fp(minMem), fp(minDisk)
		req.ContextTokens, req.ConcurrentRequests, req.TrainingBatchSize = ip(context), ip(concurrency), ip(batch)
		req.TokensBillion, req.DeadlineHours, req.TokensPerSecond, req.HPCBound = fp(tokens), fp(deadline), fp(tps), bound
		req.IncludePreview = flags&1 != 0
		tri := func(v uint8) *bool {
			if v == 0 {
				return nil
			}
			b := v >= 2
			return &b
		}
		req.Confidential, req.Isolated = tri(flags>>1&3), tri(flags>>3&3)
		if lifetime != 0 {
			req.MinLifetimeMonths = &lifetime
		}
		if prefer != "" {
			req.Prefer = strings.Split(prefer, ",")
		}
		if gpuModel != "" {
			req.GPUModels = strings.Split(gpuModel, ",")
		}
		_ = eng.Validate(req)
		res, err := eng.Recommend(req)
		checkFuzzOutcome(t, cat, req, res, err)
	})
}

// checkFuzzOutcome: Recommend returned a result that satisfies every
// invariant, a *ValidationError with errors or a *NoFitError with its
// text and rejections.
func checkFuzzOutcome(t *testing.T, cat *catalog.Catalog, req Request, res *Result, err error) {
	t.Helper()
	var ve *ValidationError
	var nf *NoFitError
	switch {
	case err == nil:
		if req.AsOf.Before(time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)) {
			return // zero-ish dates: the invariant checker uses the catalog date
		}
		checkInvariants(t, cat, req, res)
	case errors.As(err, &ve):
		if len(ve.Errors) == 0 || ve.Error() == "" {
			t.Fatalf("empty validation error")
		}
	case errors.As(err, &nf):
		if nf.Error() == "" {
			t.Fatal("empty no-fit error")
		}
		if !req.AsOf.Before(time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)) {
			checkRejections(t, cat, req, nf.Rejected)
		}
	default:
		t.Fatalf("unexpected error %v", err)
	}
}

// fuzzOverlaidCatalog is the embedded catalog with the availability and
// retail price fixtures laid over it, so the fuzzer reaches the availability
// constraint and file prices.
func fuzzOverlaidCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	a, err := azureexport.LoadAvailability(availabilityFixture)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := azureexport.LoadPriceFile(retailPricesFixture)
	if err != nil {
		tb.Fatal(err)
	}
	c, _, err := testCatalog(tb).WithOverlays(catalog.Overlays{Availability: a.Overlay(), Prices: p.Overlay()})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
