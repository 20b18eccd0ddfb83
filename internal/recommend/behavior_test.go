package recommend

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

func warningSummaries(ws []Warning) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, w.Summary)
	}
	return out
}

// prefer pins the first fitting size to rank 1; sizes named before it that
// fail are reported; the rest of the list keeps its order.
func TestPrefer(t *testing.T) {
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf,
		Prefer: []string{"Standard_NV12s_v3", "standard_nc24ads_a100_v4", "Standard_NC8as_T4_v3"}}
	res := mustRecommend(t, req)
	assertNames(t, names(res), "Standard_NC24ads_A100_v4", "Standard_NC24lds_xl_RTXPRO6000BSE_v6", "Standard_NC36lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC36ds_xl_RTXPRO6000BSE_v6", "Standard_NC4as_T4_v3")
	top := res.Recommendations[0]
	if !top.Preferred || top.Reasons[0] != "Ranked first because it is the first size in prefer that meets every requirement." || res.Recommendations[1].Preferred {
		t.Errorf("top %+v", top)
	}
	// NC24lds_xl_RTXPRO6000BSE_v6 scores 64.8 against 52.0 (scenario 1):
	// more than 10 points better, so a warning names it.
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Preferred Size Skipped", "A Better Size Exists"}) {
		t.Errorf("warnings %v", got)
	}
	if d := res.Warnings[0].Detail; !strings.HasPrefix(d, "Standard_NV12s_v3, named in prefer, fails retired:") {
		t.Errorf("detail %q", d)
	}
	if d := res.Warnings[len(res.Warnings)-1].Detail; !strings.HasPrefix(d, "Standard_NC24lds_xl_RTXPRO6000BSE_v6 scores 64.8 against 52 for the preferred Standard_NC24ads_A100_v4.") {
		t.Errorf("detail %q", d)
	}
	// Within 10 points no warning: the same request preferring the T4.
	res = mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf, Prefer: []string{"Standard_NC4as_T4_v3"}})
	if got := warningSummaries(res.Warnings); len(got) != 0 || res.Recommendations[0].VMSize != "Standard_NC4as_T4_v3" {
		t.Errorf("sizes %v, warnings %v", names(res), got)
	}

	// A preferred 8-GPU ND size for a 1.3B model: kept, with a warning
	// naming the clearly better size.
	res = mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf, Prefer: []string{"Standard_ND96isr_H100_v5"}})
	if res.Recommendations[0].VMSize != "Standard_ND96isr_H100_v5" || res.Recommendations[1].VMSize != "Standard_NC24lds_xl_RTXPRO6000BSE_v6" {
		t.Errorf("sizes %v", names(res))
	}
	want := Warning{"A Better Size Exists", "Standard_NC24lds_xl_RTXPRO6000BSE_v6 scores 64.8 against 27.6 for the preferred Standard_ND96isr_H100_v5. Put it first in prefer to switch (this replaces running VMs)."}
	if !reflect.DeepEqual(res.Warnings, []Warning{want}) {
		t.Errorf("warnings %+v", res.Warnings)
	}

	// No preferred size fits.
	res = mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf, Prefer: []string{"Standard_HB120rs_v3"}})
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Preferred Size Skipped", "No Preferred Size Fits"}) || res.Recommendations[0].Preferred {
		t.Errorf("warnings %v", got)
	}
}

// Training a 13B model: 13e9 × 16 × 1.5 = 290.57 GiB. ND96asr_v4 (320 GiB)
// holds it on one VM, so ND40rs_v2 (256 GiB, 2 VMs) is dropped by scale_up;
// named in prefer, it stays, on 2 VMs with InfiniBand. Every NC size but
// NC96ads_A100_v4 (320 GiB) would need several VMs without InfiniBand:
// interconnect 17 (T4 4, A100 2, H100 2, RTX PRO 6000 9). ND96is_MI300X_v5
// (1,536 GiB, no InfiniBand) holds it on one VM; ND128isrG5_GB300_v6 fails
// deployable.
func TestScaleUpBeforeScaleOut(t *testing.T) {
	req := Request{Workload: "training", Model: &Model{ParametersBillion: 13}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	for _, r := range res.Recommendations {
		if r.Nodes != 1 {
			t.Errorf("%s on %d VMs", r.VMSize, r.Nodes)
		}
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "interconnect": 17, "scale_up": 1,
		"deployable": 1, "unknown_specs": 3})
	for _, r := range res.Rejected {
		if r.Constraint == "scale_up" && r.Examples[0] != "Standard_ND40rs_v2" {
			t.Errorf("scale_up examples %v", r.Examples)
		}
	}
	req.Prefer = []string{"Standard_ND40rs_v2"}
	res = mustRecommend(t, req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_ND40rs_v2" || top.Nodes != 2 || !top.Deployment.RDMA || !top.Deployment.PlacementGroup {
		t.Errorf("top %s on %d VMs, deployment %+v", top.VMSize, top.Nodes, top.Deployment)
	}
	if _, ok := rejectedCounts(res.Rejected)["scale_up"]; ok {
		t.Errorf("a preferred size is not removed by scale_up")
	}
	// V100 has no bf16: a training warning.
	if !strings.Contains(strings.Join(top.Warnings, " "), "no native bf16 support") {
		t.Errorf("warnings %q", top.Warnings)
	}
}

func TestSpotPrices(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, Spot: true, Region: "westus2", AsOf: asOf, MaxResults: i64(50)})
	top := res.Recommendations[0]
	sp := top.SKU.Prices["westus2"].SpotUSDPerHour
	if top.VMSize != "Standard_NC4as_T4_v3" || !top.PriceIsSpot || sp == nil || *top.PricePerHour != *sp || !strings.HasPrefix(top.PriceSource, "Spot estimate") {
		t.Errorf("top %s spot %v price %v source %q", top.VMSize, top.PriceIsSpot, *top.PricePerHour, top.PriceSource)
	}
	sawOnDemand := false
	for _, r := range res.Recommendations {
		p := r.SKU.Prices["westus2"]
		if r.PriceIsSpot != (p.SpotUSDPerHour != nil) {
			t.Errorf("%s: PriceIsSpot %v", r.VMSize, r.PriceIsSpot)
		}
		if !r.PriceIsSpot {
			sawOnDemand = true
			if *r.PricePerHour != p.USDPerHour || !strings.Contains(strings.Join(r.Warnings, " "), "No spot price is known") {
				t.Errorf("%s: on-demand fallback %v %q", r.VMSize, *r.PricePerHour, r.Warnings)
			}
		}
	}
	if !sawOnDemand {
		t.Error("expected sizes without a spot price (the NV V710 sizes)")
	}
	if len(res.Warnings) != 0 {
		t.Errorf("inference on spot: no warning, got %+v", res.Warnings)
	}

	tr := mustRecommend(t, Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 7}, Spot: true, AsOf: asOf})
	if got := warningSummaries(tr.Warnings); !reflect.DeepEqual(got, []string{"Spot VMs For Training"}) || !strings.Contains(tr.Warnings[0].Detail, "checkpoint regularly") {
		t.Errorf("warnings %+v", tr.Warnings)
	}
	if !tr.Recommendations[0].PriceIsSpot {
		t.Errorf("top not priced at spot")
	}
}

func TestResultWarnings(t *testing.T) {
	// The catalog's data date is 2026-11-01: 180 days later is 2027-04-30.
	for _, tt := range []struct {
		day  time.Time
		want bool
	}{{time.Date(2027, 4, 30, 0, 0, 0, 0, time.UTC), false}, {time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC), true}} {
		res := mustRecommend(t, Request{Workload: "hpc", AsOf: tt.day, MinLifetimeMonths: i64(0)})
		got := warningSummaries(res.Warnings)
		if has := reflect.DeepEqual(got, []string{"Catalog Data Is Old"}); has != tt.want {
			t.Errorf("%s: warnings %v", tt.day.Format("2006-01-02"), got)
		}
	}
	old := mustRecommend(t, Request{Workload: "hpc", AsOf: time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0)})
	if d := old.Warnings[0].Detail; !strings.Contains(d, "2026-11-01, 181 days before 2027-05-01") {
		t.Errorf("detail %q", d)
	}

	// A retiring size pinned with prefer: HBv2 retires 2027-05-31, within
	// 24 months of 2026-01-01.
	res := mustRecommend(t, Request{Workload: "hpc", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0), Prefer: []string{"Standard_HB120rs_v2"}})
	top := res.Recommendations[0]
	if top.VMSize != "Standard_HB120rs_v2" || !reflect.DeepEqual(warningSummaries(res.Warnings), []string{"Recommended Size Retires Soon"}) {
		t.Errorf("top %s, warnings %+v", top.VMSize, res.Warnings)
	}
	if !strings.Contains(res.Warnings[0].Detail, "retires on 2027-05-31") || !strings.HasPrefix(top.Warnings[0], "Retires on 2027-05-31, within 24 months") {
		t.Errorf("detail %q, size warnings %q", res.Warnings[0].Detail, top.Warnings)
	}
	// Without prefer, HBv3 (same price per core, not retiring) leads.
	res = mustRecommend(t, Request{Workload: "hpc", AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), MinLifetimeMonths: i64(0)})
	if res.Recommendations[0].VMSize != "Standard_HB120rs_v3" || len(res.Warnings) != 0 {
		t.Errorf("top %s, warnings %+v", res.Recommendations[0].VMSize, res.Warnings)
	}

	// Azure ML's SKU list names NC A100 v4 (catalog decision D43): no
	// support warning on the 70B model's top size.
	res = mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 70}, Target: "azureml", AsOf: asOf})
	if top := res.Recommendations[0]; top.VMSize != "Standard_NC48ads_A100_v4" || top.SKU.Support.AzureML.Status != "supported" || len(res.Warnings) != 0 {
		t.Errorf("top %s, warnings %+v", top.VMSize, res.Warnings)
	}
	// Unknown support on the target: allowed, with a warning (NV V710 on
	// Azure ML, which no Azure ML list names).
	res = mustRecommend(t, Request{Workload: "visualization", Target: "azureml", AsOf: asOf})
	if top := res.Recommendations[0]; top.VMSize != "Standard_NV4ads_V710_v5" || top.SKU.Support.AzureML.Status != "unknown" {
		t.Errorf("top %s", top.VMSize)
	}
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Target Support Unknown"}) {
		t.Errorf("warnings %v", got)
	}

	// Inputs Recommend ignores are reported.
	res = mustRecommend(t, Request{Workload: "training", Cores: i64(64), Prefer: []string{"Standard_NC4as_T4"}, AsOf: asOf})
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"No Preferred Size Fits", "Cores Not Used", "Unknown Preferred Size"}) {
		t.Errorf("warnings %v", got)
	}
	// A GPU setting on a CPU workload leaves nothing: every HPC size fails
	// gpu_memory, and the nearest miss says to remove it.
	nf := mustNoFit(t, Request{Workload: "hpc", GPUMemoryGiB: f64(80), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 100, "gpu_memory": 23, "deployable": 1, "unknown_specs": 3})
	if m := nf.NearestMiss; m == nil || m.VMSize != "Standard_HB120rs_v3" || m.Relax != "remove gpu_memory_gib (this size has no GPU)." {
		t.Errorf("nearest miss %+v", m)
	}
}

// previewCatalog is the embedded catalog with the NCasT4_v3 and
// NC_RTXPRO6000BSE_v6 series marked preview (the six retired RTX PRO 6000
// preview sizes keep their own retired status), read from the data files
// and built with the catalog's loader.
func previewCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	var docs []catalog.Document
	for _, name := range []string{"catalog", "gpu_models", "images", "series", "skus"} {
		f, err := os.Open("../catalog/data/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		doc, err := catalog.DecodeDocument(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, doc)
	}
	var preview []catalog.SeriesDoc
	for _, d := range docs {
		for _, s := range d.Series {
			if s.Name == "NCasT4_v3" || s.Name == "NC_RTXPRO6000BSE_v6" {
				s.Lifecycle.Status = catalog.StatusPreview
				preview = append(preview, s)
			}
		}
	}
	if len(preview) != 2 {
		t.Fatalf("%d series marked preview, want 2", len(preview))
	}
	docs = append(docs, catalog.Document{Series: preview})
	prices, err := os.Open("../catalog/data/prices.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer prices.Close()
	spot, err := os.Open("../catalog/data/spot_prices.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer spot.Close()
	cat, err := catalog.Build(docs, prices, spot)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func TestPreview(t *testing.T) {
	cat := previewCatalog(t)
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, AsOf: asOf}
	res, err := newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, cat, req, res)
	// preview 13: the 4 T4 sizes and the 9 GA RTX PRO 6000 sizes.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "preview": 13, "workload": 77, "confidential": 1, "deployable": 1, "unknown_specs": 3})
	if res.Recommendations[0].VMSize != "Standard_NC40ads_H100_v5" {
		t.Errorf("top %s", res.Recommendations[0].VMSize)
	}
	// Included: the quarter RTX PRO 6000 slice (64.8 − 5 for preview, see
	// scenario 1) leads the T4 (60.5 − 5), with warnings.
	req.IncludePreview = true
	res, err = newTestEngine(t, cat).Recommend(req)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, cat, req, res)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_NC24lds_xl_RTXPRO6000BSE_v6" || top.Score != 59.8 {
		t.Errorf("top %s %v", top.VMSize, top.Score)
	}
	if got := warningSummaries(res.Warnings); !reflect.DeepEqual(got, []string{"Recommended Size Is In Preview"}) || !strings.HasPrefix(top.Warnings[0], "In preview") {
		t.Errorf("warnings %v, size warnings %q", got, top.Warnings)
	}
}

func TestDeploymentHints(t *testing.T) {
	// AKS with NVIDIA: the T4 node pool.
	res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, Target: "aks", AsOf: asOf})
	d := res.Recommendations[0].Deployment
	want := Deployment{
		AcceleratedNetworking: true,
		AKS: &AKSDeployment{
			NodeTaints: []string{"sku=gpu:NoSchedule"},
			NodeLabels: map[string]string{"hpcsku.io/vm-size": "Standard_NC4as_T4_v3", "hpcsku.io/gpu-model": "t4", "accelerator": "nvidia"},
			GPUDriver:  "Install",
			Note:       "AKS installs the NVIDIA driver (gpu_driver = \"Install\"); deploy the NVIDIA device plugin or GPU Operator to schedule nvidia.com/gpu. Pods need a toleration for sku=gpu:NoSchedule.",
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("deployment\n got  %+v %+v\n want %+v %+v", d, d.AKS, want, want.AKS)
	}
	// AKS node auto-provisioning supports the RTX PRO 6000 and V710 sizes
	// (catalog decision D42): only NG V620 fails target (4). interconnect
	// 7: the slices under 15.65 GiB (NV6/12/18ads_A10_v5, NV4/8/12ads_V710_v5
	// and NV6s_v2) would need several VMs.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "target": 4, "interconnect": 7,
		"deployable": 1, "unknown_specs": 3})

	// AKS, CPU: no taint, no driver.
	res = mustRecommend(t, Request{Workload: "hpc", Target: "aks", AsOf: asOf})
	a := res.Recommendations[0].Deployment.AKS
	if a.GPUDriver != "" || len(a.NodeTaints) != 0 || !reflect.DeepEqual(a.NodeLabels, map[string]string{"hpcsku.io/vm-size": "Standard_HB120rs_v3"}) {
		t.Errorf("AKS %+v", a)
	}

	// CycleCloud: GPU partition; slurm.hpc only for a multi-VM InfiniBand job.
	res = mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, GPUVendor: "nvidia", Target: "cyclecloud", AsOf: asOf})
	top := res.Recommendations[0]
	if cc := top.Deployment.CycleCloud; top.VMSize != "Standard_ND96amsr_A100_v4" || top.Nodes != 3 || !reflect.DeepEqual(cc, &CycleCloudDeployment{Partition: "gpu", SlurmHPC: true, MachineType: "Standard_ND96amsr_A100_v4"}) {
		t.Errorf("top %s %d %+v", top.VMSize, top.Nodes, cc)
	}
	if top.Deployment.ImageURN != "microsoft-dsvm:ubuntu-hpc:2404:latest" || top.Deployment.AKS != nil {
		t.Errorf("deployment %+v", top.Deployment)
	}
	res = mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 7}, Target: "cyclecloud", AsOf: asOf})
	if cc := res.Recommendations[0].Deployment.CycleCloud; !reflect.DeepEqual(cc, &CycleCloudDeployment{Partition: "gpu", MachineType: "Standard_NC4as_T4_v3"}) {
		t.Errorf("cyclecloud %+v", cc)
	}
	// htc on 2,000 cores: Falsv6 leads (full cores at 0.039 USD per core
	// and hour in centralindia, a 2024 series, no InfiniBand to pay for);
	// HBv3, cheaper per core (0.03), keeps its InfiniBand unused: no RDMA,
	// no placement group, htc partition.
	res = mustRecommend(t, Request{Workload: "htc", Cores: i64(2000), Target: "cyclecloud", AsOf: asOf, MaxResults: i64(50)})
	if top = res.Recommendations[0]; top.VMSize != "Standard_F16als_v6" || top.Nodes != 125 || top.Deployment.RDMA ||
		!reflect.DeepEqual(top.Deployment.CycleCloud, &CycleCloudDeployment{Partition: "htc", MachineType: "Standard_F16als_v6"}) {
		t.Errorf("top %s %d %+v %+v", top.VMSize, top.Nodes, top.Deployment, top.Deployment.CycleCloud)
	}
	top = Recommendation{}
	for _, r := range res.Recommendations {
		if r.VMSize == "Standard_HB120rs_v3" {
			top = r
		}
	}
	if top.VMSize != "Standard_HB120rs_v3" || top.Nodes != 17 || top.Deployment.RDMA || top.Deployment.PlacementGroup ||
		!reflect.DeepEqual(top.Deployment.CycleCloud, &CycleCloudDeployment{Partition: "htc", MachineType: "Standard_HB120rs_v3"}) {
		t.Errorf("top %s %d %+v %+v", top.VMSize, top.Nodes, top.Deployment, top.Deployment.CycleCloud)
	}
	if !strings.Contains(strings.Join(top.Warnings, " "), "InfiniBand this job does not use") {
		t.Errorf("warnings %q", top.Warnings)
	}
	if res.Requirements.Interconnect != "any" {
		t.Errorf("htc needs no InfiniBand")
	}
}

func TestNodesAndGPUs(t *testing.T) {
	// Fine-tuning 13B (242.14 GiB) on exactly 4 VMs.
	res := mustRecommend(t, Request{Workload: "fine_tuning", Model: &Model{ParametersBillion: 13}, Nodes: i64(4), AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.Nodes != 4 || !r.Deployment.RDMA {
			t.Errorf("%s: %d nodes, RDMA %v", r.VMSize, r.Nodes, r.Deployment.RDMA)
		}
	}
	// gpu_memory 8: sizes under 60.5 GiB per VM (T4 16, 64; RTX PRO 24, 48).
	// interconnect 11: ND96is_MI300X_v5 has no InfiniBand for the 4 VMs.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "gpu_memory": 8, "interconnect": 11,
		"deployable": 1, "unknown_specs": 3})
	if res.Recommendations[0].VMSize != "Standard_ND96asr_v4" {
		t.Errorf("top %s", res.Recommendations[0].VMSize)
	}

	// 16 GPUs: two 8-GPU ND VMs; partial GPUs fail gpus.
	res = mustRecommend(t, Request{Workload: "training", GPUs: i64(16), AsOf: asOf})
	top := res.Recommendations[0]
	if top.VMSize != "Standard_ND40rs_v2" || top.Nodes != 2 || top.TotalGPUs != 16 || *top.TotalPricePerHour != 44.064 {
		t.Errorf("top %s %d %v %v", top.VMSize, top.Nodes, top.TotalGPUs, *top.TotalPricePerHour)
	}
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "gpus": 5, "interconnect": 14,
		"deployable": 1, "unknown_specs": 3})

	// Too many nodes for an InfiniBand job.
	nf := mustNoFit(t, Request{Workload: "hpc", Nodes: i64(101), AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 100, "nodes": 23, "deployable": 1, "unknown_specs": 3})
	if m := nf.NearestMiss; m == nil || m.FailedConstraint != "nodes" || m.Relax != "lower nodes to 100 or set interconnect = \"any\"." {
		t.Errorf("nearest miss %+v", m)
	}
}

func TestInterconnectModes(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, Interconnect: "infiniband", AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if !r.SKU.Network.RDMA || !r.Deployment.RDMA || r.Deployment.PlacementGroup {
			t.Errorf("%s: rdma %v, deployment %+v", r.VMSize, r.SKU.Network.RDMA, r.Deployment)
		}
	}
	// interconnect 37: every size without InfiniBand, NVv2 and
	// ND96is_MI300X_v5 among them.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1, "interconnect": 37,
		"deployable": 1, "unknown_specs": 3})

	// interconnect = "any": NC over Ethernet on 5 VMs is allowed.
	res = mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, Interconnect: "any", AsOf: asOf, MaxResults: i64(50)})
	found := false
	for _, r := range res.Recommendations {
		if r.VMSize == "Standard_NC96ads_A100_v4" {
			found = true
			if r.Nodes != 5 || r.Deployment.RDMA || r.Deployment.PlacementGroup {
				t.Errorf("%s: %d nodes, %+v", r.VMSize, r.Nodes, r.Deployment)
			}
		}
		if r.SKU.Network.RDMA && r.Deployment.RDMA {
			t.Errorf("%s: interconnect any uses no RDMA", r.VMSize)
		}
	}
	if !found || res.Requirements.Interconnect != "any" {
		t.Errorf("NC96ads_A100_v4 missing: %v", names(res))
	}
	if _, ok := rejectedCounts(res.Rejected)["interconnect"]; ok {
		t.Error("no interconnect rejections with interconnect = any")
	}
}

func TestOptimizeFor(t *testing.T) {
	base := Request{Workload: "training", Model: &Model{ParametersBillion: 70}, AsOf: asOf}
	perf := base
	perf.OptimizeFor = "performance"
	assertNames(t, names(mustRecommend(t, perf))[:3], "Standard_ND96isr_MI300X_v5", "Standard_ND96isr_H200_v5", "Standard_ND128isr_NDR_GB200_v6")

	// 13B inference (29.06 GiB): the half RTX PRO 6000 slices (48 GiB, 2.44
	// and 2.83 USD/h) lead either way; cost moves the 4-GPU T4 size (4.352
	// USD/h) ahead of the H100 (6.98 USD/h).
	inf := Request{Workload: "inference", Model: &Model{ParametersBillion: 13}, AsOf: asOf, MaxResults: i64(7)}
	assertNames(t, names(mustRecommend(t, inf))[:7], "Standard_NC72lds_xl_RTXPRO6000BSE_v6", "Standard_NC72ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC24ads_A100_v4", "Standard_NC144ds_xl_RTXPRO6000BSE_v6", "Standard_NC144lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC40ads_H100_v5", "Standard_NC64as_T4_v3")
	inf.OptimizeFor = "cost"
	assertNames(t, names(mustRecommend(t, inf))[:7], "Standard_NC72lds_xl_RTXPRO6000BSE_v6", "Standard_NC72ds_xl_RTXPRO6000BSE_v6",
		"Standard_NC24ads_A100_v4", "Standard_NC144ds_xl_RTXPRO6000BSE_v6", "Standard_NC144lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC64as_T4_v3", "Standard_NC40ads_H100_v5")
}

func TestPerVMMinimums(t *testing.T) {
	// NC144ds_xl_RTXPRO6000BSE_v6 (144 vCPUs, 516 GiB, 1,024 GiB temporary
	// disk and 6,400 GiB NVMe, 5.5 USD/h) leads NC80adis_H100_v5 (13.96).
	res := mustRecommend(t, Request{Workload: "inference", MinVCPUs: i64(48), MinMemoryGiB: f64(400), MinLocalDiskGiB: f64(3000), AsOf: asOf})
	if res.Recommendations[0].VMSize != "Standard_NC144ds_xl_RTXPRO6000BSE_v6" || res.Recommendations[1].VMSize != "Standard_NC288ds_xl_RTXPRO6000BSE_v6" {
		t.Errorf("sizes %v", names(res))
	}
	// min_vcpus 26: the three NVv2 sizes (6 to 24 vCPUs) among them.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 1,
		"min_vcpus": 26, "min_memory_gib": 3, "min_local_disk_gib": 3, "deployable": 1, "unknown_specs": 3})
}

func TestConfidentialAndIsolated(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "inference", Confidential: boolp(true), AsOf: asOf})
	assertNames(t, names(res), "Standard_NCC40ads_H100_v5")
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 77, "confidential": 45, "deployable": 1, "unknown_specs": 3})

	res = mustRecommend(t, Request{Workload: "htc", Isolated: boolp(true), AsOf: asOf})
	assertNames(t, names(res), "Standard_F72s_v2", "Standard_E104i_v5", "Standard_E104ids_v5")
	// isolated 74: the 33 F v6 and small E sizes are not isolated either.
	assertRejected(t, res.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 46, "isolated": 74, "deployable": 1, "unknown_specs": 3})

	res = mustRecommend(t, Request{Workload: "htc", Isolated: boolp(false), AsOf: asOf, MaxResults: i64(50)})
	for _, r := range res.Recommendations {
		if r.SKU.Isolated {
			t.Errorf("%s is isolated", r.VMSize)
		}
	}
}

// A 10-trillion-parameter model does not fit on 100 InfiniBand VMs of any
// size: 10000e9 × 24 bytes (16 × 1.5) = 223517.42 GiB.
func TestTooLargeForAnySize(t *testing.T) {
	nf := mustNoFit(t, Request{Workload: "training", Model: &Model{ParametersBillion: 10000}, AsOf: asOf})
	assertRejected(t, nf.Rejected, map[string]int64{"retired": 70, "min_lifetime_months": 8, "workload": 95, "confidential": 1, "gpu_memory": 27, "deployable": 1, "unknown_specs": 3})
	want := &NearestMiss{VMSize: "Standard_ND96isr_MI300X_v5", FailedConstraint: "gpu_memory", FailedConstraints: []string{"gpu_memory"},
		Relax: "lower the GPU memory need to what 100 VMs hold (153600 GiB)."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
}

func TestNoFitErrorText(t *testing.T) {
	e := &NoFitError{Rejected: []Rejection{{Constraint: "retired", Count: 2, Examples: []string{"A", "B"}, Reason: "Retired."}}}
	want := "No VM size meets every requirement: all 2 sizes of the catalog were removed.\nSizes removed, by the first constraint each failed:\n  - retired: 2 (A, B). Retired.\nNo size is within reach by relaxing settings: every size is retired, cannot be deployed, lacks specifications, or does not serve this workload."
	if e.Error() != want {
		t.Errorf("error\n got  %q\n want %q", e.Error(), want)
	}
	e.NearestMiss = &NearestMiss{VMSize: "A", FailedConstraint: "region", FailedConstraints: []string{"region", "max_price_per_hour"}, Relax: "x; and y."}
	if !strings.HasSuffix(e.Error(), "\nNearest miss: A fails region and max_price_per_hour. To use it, x; and y.") {
		t.Errorf("error %q", e.Error())
	}
}

func TestRequirements(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, AsOf: asOf})
	rq := res.Requirements
	want := []string{
		"Training prefers the ND family (InfiniBand, NVLink); NC with Ethernet is the alternative for single-VM jobs (Microsoft's AI compute guidance).",
		"Memory estimate: 70B parameters × 16 bytes (bf16 weights 2 + gradients 2 + fp32 master weights 4 + Adam moments 8) = 1043.08 GiB of model states, + 50% activation headroom = 1564.62 GiB.",
		"GPU memory: 1564.62 GiB in total, from the model estimate.",
		"Scale up before scale out: one VM when any size holds the job, more VMs only when none does (Azure Machine Learning guidance).",
		"Interconnect: InfiniBand only when the job spans several VMs; otherwise RDMA sizes are penalized because unused bandwidth costs money (Azure HPC guidance: InfiniBand only where it is used).",
	}
	if !reflect.DeepEqual(rq.Explanation, want) {
		t.Errorf("explanation\n got  %q\n want %q", rq.Explanation, want)
	}
	if rq.Workload != "training" || rq.Category != "gpu" || !reflect.DeepEqual(rq.PreferredFamilies, []string{"ND"}) ||
		!reflect.DeepEqual(rq.AcceptableFamilies, []string{"NC"}) || rq.Precision != "bf16" || rq.ModelClass != "generative" ||
		rq.OptimizeFor != "balanced" || rq.Target != "vm" || !rq.AsOf.Equal(asOf) || rq.SystemMemoryGiB != nil {
		t.Errorf("requirements %+v", rq)
	}
	// gpu_memory_gib overrides the estimate, which stays visible.
	res = mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, GPUMemoryGiB: f64(100), AsOf: asOf})
	if *res.Requirements.GPUMemoryGiB != 100 || res.Requirements.Memory.GiB != 1564.62 || res.Recommendations[0].Nodes != 1 {
		t.Errorf("requirements %+v", res.Requirements)
	}
	// A zero AsOf is the catalog's data date.
	res = mustRecommend(t, Request{Workload: "visualization"})
	if !res.Requirements.AsOf.Equal(asOf) {
		t.Errorf("as of %v", res.Requirements.AsOf)
	}
}
