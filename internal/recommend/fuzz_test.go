package recommend

import (
	"errors"
	"testing"
	"time"
)

// FuzzRecommend feeds arbitrary inputs to Validate and Recommend: neither
// may panic, Recommend returns a result, a *ValidationError or a
// *NoFitError, and a result satisfies every invariant (checkInvariants).
// Numeric pointers are set when the fuzzed value is not zero.
func FuzzRecommend(f *testing.F) {
	type seed struct {
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
	}
	for _, s := range []seed{
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
	} {
		f.Add(s.workload, s.params, s.precision, s.class, s.gpuMem, s.gpus, s.nodes, s.cores, s.interconnect, s.vendor,
			s.cuda, s.cc, s.target, s.region, s.maxPrice, s.maxTotal, s.spot, s.lifetime, s.maxResults, s.asOfD, s.optimize, s.prefer, s.gpuModel)
	}
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, workload string, params float64, precision, class string, gpuMem float64, gpus, nodes, cores int64,
		interconnect, vendor, cuda, cc, target, region string, maxPrice, maxTotal float64, spot bool,
		lifetime, maxResults, asOfDays int64, optimize, prefer, gpuModel string) {
		req := Request{
			Workload: workload, Interconnect: interconnect, GPUVendor: vendor, CUDAVersion: cuda, MinComputeCapability: cc,
			Target: target, Region: region, Spot: spot, OptimizeFor: optimize,
			AsOf: asOf.AddDate(0, 0, int(asOfDays%100000)),
		}
		if params != 0 || precision != "" || class != "" {
			req.Model = &Model{ParametersBillion: params, Precision: precision, Class: class}
		}
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
		if lifetime != 0 {
			req.MinLifetimeMonths = &lifetime
		}
		if prefer != "" {
			req.Prefer = []string{prefer}
		}
		if gpuModel != "" {
			req.GPUModels = []string{gpuModel}
		}
		_ = Validate(cat, req)
		res, err := Recommend(cat, req)
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
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}
