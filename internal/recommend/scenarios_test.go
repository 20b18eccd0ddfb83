package recommend

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The worked scenarios, against the real embedded catalog at its data
// date (2026-11-01). Expected values are derived from the catalog data in
// the comments; the base rejections common to most GPU scenarios are:
//   - retired 49: H 6, HB 4, NC 4, NCv2 4, NCv3 4 (retired 2025-09-30),
//     ND 4, NV 3, the 6 preview NC RTX PRO 6000 sizes, and NVv3 6 and NVv4 8
//     (retired 2026-09-30);
//   - min_lifetime_months 8: HBv2 5 and HC 3 retire 2027-05-31, within 12
//     months of 2026-11-01;
//   - confidential 1: Standard_NCC40ads_H100_v5.

// Scenario 1: inference of OPT-1.3B in bf16. 1.3e9 × 2 bytes = 2.42 GiB of
// weights, + 20% = 2.91 GiB. Every GPU size holds it on one VM, so the score
// decides. The cheapest candidate is the NV4ads_V710_v5 fallback at 0.333
// USD/h. The quarter RTX PRO 6000 slice NC24lds_xl_RTXPRO6000BSE_v6 (24 GiB,
// 1.13 USD/h in eastus, 2026) leads: family 25 + cost 25 × 0.333/1.13 +
// sizing 20 × 2.91/24 + generation 15 × 1 + scale 15 = 64.79 → 64.8; the
// other quarter slices follow (NC36lds 1.243 USD/h: 64.1; NC36ds 1.442:
// 63.2). The 16 GiB T4 at 0.526 USD/h, the cheapest NC size, has no bf16, a
// 5 point inference penalty: 25 + 25 × 0.333/0.526 + 20 × 2.91/16 + 15 × 0.4
// (2020) + 15 − 5 = 60.47 → 60.5, fourth. NV and NG sizes are a fallback
// for inference and come after all 27 NC and ND sizes.
func TestScenario01InferenceOPT13B(t *testing.T) {
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3, Precision: "bf16"}, AsOf: asOf}
	res := mustRecommend(t, req)
	assertNames(t, names(res), "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC36lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC36ds_xl_RTXPRO6000BSE_v6", "Standard_NC4as_T4_v3", "Standard_NC72lds_xl_RTXPRO6000BSE_v6")
	top := res.Recommendations[0]
	if top.Score != 64.8 || top.Nodes != 1 || top.GPUsPerNode != 0.25 || top.TotalGPUMemoryGiB != 24 {
		t.Errorf("top: score %v nodes %d gpus %v mem %v", top.Score, top.Nodes, top.GPUsPerNode, top.TotalGPUMemoryGiB)
	}
	if top.SKU.Network.RDMA || top.Deployment.RDMA || top.Deployment.PlacementGroup {
		t.Errorf("a 1.3B inference job needs no InfiniBand")
	}
	if *top.PricePerHour != 1.13 || top.PriceRegion != "eastus" || top.PriceIsSpot {
		t.Errorf("price %v in %q (spot %v)", *top.PricePerHour, top.PriceRegion, top.PriceIsSpot)
	}
	rq := res.Requirements
	if *rq.GPUMemoryGiB != 2.91 || *rq.SystemMemoryGiB != 3.63 || rq.Nodes != 1 || rq.Interconnect != "any" || rq.Category != "gpu" {
		t.Errorf("requirements %+v", rq)
	}
	if t4 := res.Recommendations[3]; t4.Score != 60.5 || !strings.Contains(strings.Join(t4.Warnings, " "), "no native bf16") {
		t.Errorf("the T4 (score %v) lacks bf16: %q", t4.Score, t4.Warnings)
	}
	if strings.Contains(strings.Join(top.Warnings, " "), "no native bf16") {
		t.Errorf("the RTX PRO 6000 runs bf16: %q", top.Warnings)
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "deployable": 1, "unknown_specs": 3})

	// All 45 candidates: 27 NC and ND first (ND96is_MI300X_v5 in, the
	// undeployable ND128isrG5_GB300_v6 out), then the 18 NV and NG sizes
	// (NVv2's three among them).
	req.MaxResults = i64(50)
	all := mustRecommend(t, req)
	if len(all.Recommendations) != 45 {
		t.Fatalf("%d candidates, want 45", len(all.Recommendations))
	}
	for i, r := range all.Recommendations {
		fam := r.SKU.Family
		if (i < 27) != (fam == "NC" || fam == "ND") {
			t.Errorf("rank %d is %s (%s): NC and ND must fill ranks 1-27", r.Rank, r.VMSize, fam)
		}
	}
	// Job sizing ("Compute for Machine Learning on HPC"): the 16 NC sizes of
	// one or two GPUs fill ranks 1-16 and every 8-GPU ND size comes after them.
	for _, r := range all.Recommendations {
		if r.SKU.Family == "ND" && r.Rank <= 16 {
			t.Errorf("%s at rank %d for a 1.3B model", r.VMSize, r.Rank)
		}
		if r.SKU.Family == "NC" && r.SKU.GPU.Count <= 2 && r.Rank > 16 {
			t.Errorf("%s (%v GPUs) at rank %d, after an 8-GPU size", r.VMSize, r.SKU.GPU.Count, r.Rank)
		}
	}
}

// Scenario 2: training a 70B model in bf16: 70e9 × 16 bytes = 1043.08 GiB
// of model states, + 50% activations = 1564.62 GiB. No size holds it on one
// VM (the largest, MI300X, has 1536 GiB), so every layout spans VMs and
// needs InfiniBand: the 18 NC sizes fail interconnect, the 9 ND sizes remain.
// MI300X needs ceil(1564.62/1536) = 2 VMs at 48 USD/h each, the cheapest
// total; H200 2 VMs (1128 GiB each), H100 and NDm A100 3 (640), ND A100 v4 5
// (320), NDv2 7 (256).
func TestScenario02Training70B(t *testing.T) {
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 70, Precision: "bf16"}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	// ND128isrG5_GB300_v6 is not deployable (catalog decision D44).
	assertNames(t, names(res), "Standard_ND96isr_MI300X_v5", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4",
		"Standard_ND96isr_H200_v5", "Standard_ND96isr_H100_v5", "Standard_ND128isr_NDR_GB200_v6", "Standard_ND40rs_v2",
		"Standard_ND128isr_GB300_v6")
	wantNodes := map[string]int64{
		"Standard_ND96isr_MI300X_v5": 2, "Standard_ND96amsr_A100_v4": 3, "Standard_ND96asr_v4": 5, "Standard_ND96isr_H200_v5": 2,
		"Standard_ND96isr_H100_v5": 3, "Standard_ND128isr_NDR_GB200_v6": 3, "Standard_ND40rs_v2": 7,
		"Standard_ND128isr_GB300_v6": 2,
	}
	for _, r := range res.Recommendations {
		if r.SKU.Family != "ND" || !r.SKU.Network.RDMA || r.SKU.Network.InfiniBand == "" {
			t.Errorf("%s: want ND with InfiniBand", r.VMSize)
		}
		if r.Nodes != wantNodes[r.VMSize] || r.Nodes < 2 {
			t.Errorf("%s: %d nodes, want %d", r.VMSize, r.Nodes, wantNodes[r.VMSize])
		}
		d := r.Deployment
		if !d.RDMA || !d.PlacementGroup || !d.SinglePlacementGroup {
			t.Errorf("%s: deployment %+v, want RDMA in one placement group", r.VMSize, d)
		}
	}
	top := res.Recommendations[0]
	if *top.TotalPricePerHour != 96 || *top.PricePerHour != 48 || *top.PricePerGPUHour != 6 || top.TotalGPUs != 16 || top.TotalGPUMemoryGiB != 3072 {
		t.Errorf("top: total %v price %v per GPU %v gpus %v mem %v", *top.TotalPricePerHour, *top.PricePerHour, *top.PricePerGPUHour, top.TotalGPUs, top.TotalGPUMemoryGiB)
	}
	rq := res.Requirements
	if *rq.GPUMemoryGiB != 1564.62 || rq.Nodes != 2 || rq.Interconnect != "infiniband" || rq.Memory.StateBytesPerParameter != 16 {
		t.Errorf("requirements %+v", rq)
	}
	// interconnect 19: ND96is_MI300X_v5 has no InfiniBand.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "interconnect": 19,
		"deployable": 1, "unknown_specs": 3})

	// NVIDIA only: the same order without the MI300X.
	req.GPUVendor = "nvidia"
	nv := mustRecommend(t, req)
	if got := names(nv); got[0] != "Standard_ND96amsr_A100_v4" || len(got) != 7 {
		t.Errorf("nvidia only: %v", got)
	}
}

// Scenario 3: data_processing with CUDA 12.0: NVIDIA GPUs of compute
// capability 7.0 or newer that CUDA 12.0 can target. The AMD sizes (NG 4,
// NV V710 5, MI300X) fail workload with the CPU sizes (44): 54. CUDA 12.0
// predates Blackwell (it needs 12.8, GB300 12.9): the 9 RTX PRO 6000 GA
// sizes, GB200 and the 2 GB300 sizes fail cuda_version: 12. 20 remain.
func TestScenario03DataProcessingCUDA12(t *testing.T) {
	req := Request{Workload: "data_processing", CUDAVersion: "12.0", AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	if len(res.Recommendations) != 20 {
		t.Errorf("%d recommendations, want 20: %v", len(res.Recommendations), names(res))
	}
	for _, r := range res.Recommendations {
		g := r.SKU.GPU
		if g == nil || g.Vendor != "nvidia" || g.ComputeCapability < "7.0" || r.SKU.RetiredAt(asOf) || g.MaxCUDAMajor < 12 {
			t.Errorf("%s: %+v", r.VMSize, g)
		}
	}
	if res.Recommendations[0].VMSize != "Standard_NC4as_T4_v3" {
		t.Errorf("top %s", res.Recommendations[0].VMSize)
	}
	// workload 91: also NVv2 (M60, compute capability 5.2) and
	// ND96is_MI300X_v5 (AMD); cuda_version 11: ND128isrG5_GB300_v6 fails
	// deployable first.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 91, "confidential": 1, "cuda_version": 11,
		"deployable": 1, "unknown_specs": 3})
	// NV (partial GPUs) is the fallback: the 6 NVads A10 v5 sizes come last.
	for _, r := range res.Recommendations[14:] {
		if r.SKU.Series != "NVadsA10_v5" {
			t.Errorf("rank %d: %s, want the NV fallback", r.Rank, r.VMSize)
		}
	}
}

// Scenario 4: visualization: NV on top, newest generation first. The
// NVads V710 v5 (2024) sixth of a GPU at 0.333 USD/h leads; its score is
// family 25 + cost 25 + sizing 10 (no size given: neutral) + generation 12
// + scale 15 = 87.
func TestScenario04Visualization(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "visualization", AsOf: asOf})
	assertNames(t, names(res), "Standard_NV4ads_V710_v5", "Standard_NV6ads_A10_v5", "Standard_NV8ads_V710_v5",
		"Standard_NV12ads_V710_v5", "Standard_NV12ads_A10_v5")
	if s := res.Recommendations[0].Score; s != 87 {
		t.Errorf("top score %v, want 87", s)
	}
	// With NVv3 (M60, 2018) still available (as of 2026-01-01, lifetime 0),
	// the newer NV generations rank above it.
	old := mustRecommend(t, Request{Workload: "visualization", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0), MaxResults: i64(50)})
	rank := map[string]int64{}
	for _, r := range old.Recommendations {
		rank[r.VMSize] = r.Rank
	}
	if rank["Standard_NV12s_v3"] == 0 || rank["Standard_NV12s_v3"] < rank["Standard_NV36ads_A10_v5"] || rank["Standard_NV12s_v3"] < rank["Standard_NV24ads_V710_v5"] {
		t.Errorf("NVv3 must rank below the A10 and V710 sizes: %v", rank)
	}
	if old.Recommendations[0].SKU.Family != "NV" {
		t.Errorf("top %s", old.Recommendations[0].VMSize)
	}
}

// Scenario 5: small models run on CPU: training on memory-optimized E
// sizes (the smallest, E2_v5 with 16 GiB for 2.24 GiB, first), inference on
// compute-optimized F sizes (F2als_v6, Fsv2's replacement: 4 GiB holds 150%
// of 0.19 GiB of weights, at 0.078 USD/h).
func TestScenario05SmallModels(t *testing.T) {
	train := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 0.1, Class: "small"}, AsOf: asOf, MaxResults: i64(50)})
	assertNames(t, names(train)[:3], "Standard_E2_v5", "Standard_E2ds_v5", "Standard_E4_v5")
	if len(train.Recommendations) != 20 || train.Requirements.Category != "cpu" || !reflect.DeepEqual(train.Requirements.PreferredFamilies, []string{"E"}) {
		t.Errorf("training: %v, requirements %+v", names(train), train.Requirements)
	}
	for _, r := range train.Recommendations {
		if r.SKU.Family != "E" || r.SKU.GPU != nil {
			t.Errorf("training: %s", r.VMSize)
		}
	}
	if *train.Requirements.SystemMemoryGiB != 2.24 {
		t.Errorf("system memory %v, want 2.24 (0.1B × 16 bytes × 1.5)", *train.Requirements.SystemMemoryGiB)
	}
	assertRejected(t, train.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 103, "deployable": 1, "unknown_specs": 3})

	inf := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 0.1, Class: "small"}, AsOf: asOf, MaxResults: i64(50)})
	if len(inf.Recommendations) != 34 || inf.Recommendations[0].VMSize != "Standard_F2als_v6" {
		t.Errorf("inference: %v", names(inf))
	}
	for _, r := range inf.Recommendations {
		if r.SKU.Family != "F" {
			t.Errorf("inference: %s", r.VMSize)
		}
	}
	// Fsv2 retires 2028-11-15, more than 24 months after 2026-11-01: no
	// retirement warning yet.
	if len(inf.Warnings) != 0 {
		t.Errorf("warnings %+v", inf.Warnings)
	}
}

// Scenario 6: AKS with AMD GPUs: AKS supports the MI300X sizes and,
// through node auto-provisioning, the NV V710 ones (catalog decision D42);
// NG V620 (4) is unsupported. ND96is_MI300X_v5 leads its isr twin, whose
// InfiniBand this job would not use.
func TestScenario06AKSAMD(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "inference", Target: "aks", GPUVendor: "amd", AsOf: asOf})
	assertNames(t, names(res), "Standard_ND96is_MI300X_v5", "Standard_ND96isr_MI300X_v5", "Standard_NV4ads_V710_v5",
		"Standard_NV8ads_V710_v5", "Standard_NV12ads_V710_v5")
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "gpu_vendor": 34, "target": 4,
		"deployable": 1, "unknown_specs": 3})
	a := res.Recommendations[0].Deployment.AKS
	if a == nil {
		t.Fatal("no AKS deployment")
	}
	want := &AKSDeployment{
		NodeTaints: []string{"sku=gpu:NoSchedule"},
		NodeLabels: map[string]string{"hpcsku.io/vm-size": "Standard_ND96is_MI300X_v5", "hpcsku.io/gpu-model": "mi300x", "accelerator": "amd"},
		GPUDriver:  "None",
		Note:       a.Note,
	}
	if !reflect.DeepEqual(a, want) || !strings.Contains(a.Note, "AMD GPU operator") {
		t.Errorf("AKS %+v", a)
	}
	if d := res.Recommendations[0].Deployment; d.ImageURN != "microsoft-dsvm:ubuntu-hpc:2404-rocm:latest" || d.RDMA || d.CycleCloud != nil {
		t.Errorf("deployment %+v", d)
	}
}

// Scenario 7: MPI on 2,000 cores: HB and HX sizes with InfiniBand, nodes =
// ceil(2000 / vCPUs). HBv3 (120 cores, 3.60 USD/h) needs 17 VMs, 61.20 USD/h,
// the cheapest. HB120-16rs_v3 would need 125 VMs, more than one InfiniBand
// placement group holds (100): cores 1.
func TestScenario07HPCCores(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "hpc", Cores: i64(2000), Target: "cyclecloud", AsOf: asOf, MaxResults: i64(50)})
	if len(res.Recommendations) != 22 {
		t.Errorf("%d recommendations, want 22", len(res.Recommendations))
	}
	assertNames(t, names(res)[:3], "Standard_HB120rs_v3", "Standard_HB368-336rs_v5", "Standard_HB176rs_v4")
	for _, r := range res.Recommendations {
		fam := r.SKU.Family
		want := int64(math.Ceil(2000 / float64(*r.SKU.VCPUs)))
		if (fam != "HB" && fam != "HX") || !r.SKU.Network.RDMA || r.Nodes != want {
			t.Errorf("%s: family %s, rdma %v, %d nodes (want %d)", r.VMSize, fam, r.SKU.Network.RDMA, r.Nodes, want)
		}
		cc := r.Deployment.CycleCloud
		if cc == nil || cc.Partition != "hpc" || !cc.SlurmHPC || cc.MachineType != r.VMSize || !r.Deployment.PlacementGroup {
			t.Errorf("%s: deployment %+v %+v", r.VMSize, r.Deployment, cc)
		}
	}
	top := res.Recommendations[0]
	if top.Nodes != 17 || *top.TotalPricePerHour != 61.2 {
		t.Errorf("top: %d nodes, %v USD/h", top.Nodes, *top.TotalPricePerHour)
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 100, "cores": 1, "deployable": 1, "unknown_specs": 3})
	if rq := res.Requirements; rq.Interconnect != "infiniband" || rq.Nodes != 17 || *rq.Cores != 2000 || rq.Category != "hpc" {
		t.Errorf("requirements %+v", rq)
	}
}

// Scenario 8: as of 2026-01-01 with 12 months of lifetime, NVv3 and NVv4
// (retiring 2026-09-30) are excluded: 6 NVv3 + 8 NVv4 sizes = 14; the
// retired count drops from 70 to 56.
func TestScenario08Lifetime(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "visualization", MinLifetimeMonths: i64(12), AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.SKU.Series == "NVv3" || r.SKU.Series == "NVv4" {
			t.Errorf("%s retires within 12 months", r.VMSize)
		}
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 56, "min_lifetime_months": 14, "workload": 94, "confidential": 1, "deployable": 1, "unknown_specs": 3})
	// 36: NVv2 (3) and ND96is_MI300X_v5 in, ND128isrG5_GB300_v6 out.
	if len(res.Recommendations) != 36 {
		t.Errorf("%d recommendations, want 36", len(res.Recommendations))
	}
}

// Scenario 9: CUDA 13.0 drops Volta and older: the V100 sizes go. NDv2
// (the only V100 size not retired) and the two MI300X sizes fail
// cuda_version.
func TestScenario09CUDA13(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "training", CUDAVersion: "13.0", AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if strings.Contains(r.SKU.GPU.ModelID, "v100") || r.SKU.GPU.MaxCUDAMajor < 13 {
			t.Errorf("%s has a GPU CUDA 13 does not support", r.VMSize)
		}
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "cuda_version": 3,
		"deployable": 1, "unknown_specs": 3})
	for _, r := range res.Rejected {
		if r.Constraint == "cuda_version" && !reflect.DeepEqual(r.Examples, []string{"Standard_ND40rs_v2", "Standard_ND96is_MI300X_v5", "Standard_ND96isr_MI300X_v5"}) {
			t.Errorf("cuda_version examples %v", r.Examples)
		}
	}
	// 24: ND128isrG5_GB300_v6 is not deployable.
	if len(res.Recommendations) != 24 {
		t.Errorf("%d recommendations, want 24", len(res.Recommendations))
	}
}

// Scenario 10: a 7B model (15.65 GiB) in eastus at most 2 USD/h per VM.
// region 11 (ND128isr_GB300_v6 is priced nowhere; H200, the 2 MI300X, the
// 4 NG and the 3 NVv2 sizes not in eastus); interconnect 6 (the NV sizes under 15.65 GiB would
// need several VMs); max_price_per_hour 21. Left: the three T4 sizes and
// the three quarter RTX PRO 6000 slices (24 GiB; 1.13, 1.243 and 1.442
// USD/h) under 2 USD/h, and NV24ads_V710_v5 at exactly 2.
func TestScenario10RegionAndPrice(t *testing.T) {
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, Region: "eastus", MaxPricePerHour: f64(2), AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	assertNames(t, names(res), "Standard_NC4as_T4_v3", "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC36lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC8as_T4_v3", "Standard_NC36ds_xl_RTXPRO6000BSE_v6", "Standard_NC16as_T4_v3", "Standard_NV24ads_V710_v5")
	for _, r := range res.Recommendations {
		p, ok := r.SKU.Prices["eastus"]
		if !ok || r.PricePerHour == nil || *r.PricePerHour != p.USDPerHour || *r.PricePerHour > 2 || r.PriceRegion != "eastus" {
			t.Errorf("%s: price %v", r.VMSize, r.PricePerHour)
		}
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "region": 11, "interconnect": 6, "max_price_per_hour": 21,
		"deployable": 1, "unknown_specs": 3})
	// None over the cap anywhere in the result: every size of the catalog
	// priced in eastus under 2 USD/h that serves the job is listed.
	cat := testCatalog(t)
	listed := map[string]bool{}
	for _, n := range names(res) {
		listed[n] = true
	}
	for _, s := range cat.SKUs() {
		if p, ok := s.Prices["eastus"]; ok && p.USDPerHour <= 2 && s.GPU != nil && s.GPU.MemoryGiBTotal >= 15.65 && !s.RetiredAt(asOf) && !s.Confidential && !listed[s.Name] {
			t.Errorf("%s fits and is not listed", s.Name)
		}
	}
}

// Scenario 11a: gpu_vendor amd with cuda_version: a contradiction. Validate
// reports it; Recommend returns the no-fit error with every count and the
// nearest miss. Both the AMD sizes (failing only cuda_version) and the
// NVIDIA ones (failing only gpu_vendor) are one step away; the best scored
// of them is the T4, which would rank first without gpu_vendor.
func TestScenario11Contradiction(t *testing.T) {
	req := Request{Workload: "inference", GPUVendor: "amd", CUDAVersion: "12.0", AsOf: asOf}
	errs := testEngine(t).Validate(req)
	if len(errs) != 1 || !reflect.DeepEqual(errs[0].Path, []string{"cuda_version"}) || errs[0].Summary != "CUDA Version With AMD GPUs" {
		t.Errorf("Validate: %+v", errs)
	}
	nf := mustNoFit(t, req)
	assertRejected(t, nf.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "gpu_vendor": 34, "cuda_version": 11,
		"deployable": 1, "unknown_specs": 3})
	want := &NearestMiss{VMSize: "Standard_NC4as_T4_v3", FailedConstraint: "gpu_vendor", FailedConstraints: []string{"gpu_vendor"},
		Relax: "set gpu_vendor to \"nvidia\" or \"any\"."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	msg := nf.Error()
	for _, s := range []string{"all 205 sizes", "\n  - gpu_vendor: 34 (", "\n  - cuda_version: 11 (Standard_ND96is_MI300X_v5, ", "Nearest miss: Standard_NC4as_T4_v3 fails only gpu_vendor. To use it, set gpu_vendor"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error lacks %q:\n%s", s, msg)
		}
	}
}

// Scenario 11b: an impossible budget. At 0.05 USD/h in eastus nothing
// serves a 7B model; the nearest miss is the cheapest size that passes
// everything else, the T4 at 0.526 USD/h.
func TestScenario11Budget(t *testing.T) {
	nf := mustNoFit(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, Region: "eastus", MaxPricePerHour: f64(0.05), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "region": 11, "interconnect": 6, "max_price_per_hour": 28,
		"deployable": 1, "unknown_specs": 3})
	want := &NearestMiss{VMSize: "Standard_NC4as_T4_v3", FailedConstraint: "max_price_per_hour", FailedConstraints: []string{"max_price_per_hour"},
		Relax: "raise max_price_per_hour to at least 0.53 (0.526 USD per hour in eastus)."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	if !strings.Contains(nf.Error(), "\n  - max_price_per_hour: 28 (") {
		t.Errorf("error:\n%s", nf.Error())
	}

	// A total budget across nodes: 70B training needs 2 MI300X VMs (96 USD/h).
	nf = mustNoFit(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, MaxTotalPricePerHour: f64(50), AsOf: asOf})
	if nf.NearestMiss == nil || nf.NearestMiss.VMSize != "Standard_ND96isr_MI300X_v5" ||
		nf.NearestMiss.Relax != "raise max_total_price_per_hour to at least 96.00 (2 VMs at 48 USD per hour in eastus2)." {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
}
