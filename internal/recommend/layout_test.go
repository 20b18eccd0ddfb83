// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file check the per-GPU fit and the training precision
// on the fixture catalog (see behavior_test.go for its sizes): the
// precision constraint, gpu_memory_per_gpu, copies of a served model on
// separate VMs (replicas), pipeline stages, and a tensor-parallel layout
// checked GPU by GPU. Their figures are derived in the comments from the
// rules (rules.go, fit.go), not read off the engine.

// Training at a precision the GPU does not run natively is a hard
// constraint: the T4 has fp16 but no bf16, the V100 no tf32.
func TestPrecisionConstraint(t *testing.T) {
	cat := fixture(t)
	// Fine-tuning 0.5B in bf16 (full: 0.5e9 × 16 × 1.25 = 9.31 GiB, one
	// T4 of 15 GiB usable) on T4s only, under 0.6 USD/h: the T4 fails only
	// precision; the other GPU sizes fail gpu_models and the price cap,
	// the NV and CPU sizes workload.
	req := Request{Workload: WorkloadFineTuning, Model: &Model{ParametersBillion: 0.5}, GPUModels: []string{"t4"}, MaxPricePerHour: f64(0.6), AsOf: asOf}
	nf := mustNoFitOn(t, cat, req)
	assertRejected(t, nf.Rejected, map[string]int64{"workload": 9, "gpu_models": 9, "precision": 1})
	want := &NearestMiss{VMSize: "Standard_NC4as_T4_v3", FailedConstraint: "precision", FailedConstraints: []string{"precision"},
		Relax: `set model.precision = "fp16", the closest precision the NVIDIA Tesla T4 runs natively.`}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	if r := rejection(nf.Rejected, "precision"); r == nil || !strings.HasPrefix(r.Reason, "Its GPU does not run bf16 natively, which fine_tuning needs (full training computes in bf16)") {
		t.Errorf("precision rejection %+v", r)
	}

	// What the relax says works: fp16 runs on the T4. So does fp32 (every
	// GPU computes in fp32); 0.5B in fp32 needs the same 16 bytes per
	// parameter.
	for _, p := range []string{PrecisionFP16, PrecisionFP32} {
		req.Model.Precision = p
		if res := mustRecommendOn(t, cat, req); res.Recommendations[0].VMSize != "Standard_NC4as_T4_v3" {
			t.Errorf("%s: %v", p, names(res))
		}
	}

	// LoRA computes in the base's precision: a bf16 base fails on the T4.
	// LoRA on an 8-bit base and QLoRA compute their adapters in bf16 or
	// fp16, which the T4 has.
	req.Model.Precision = PrecisionBF16
	req.FineTuningMethod = MethodLoRA
	if nf := mustNoFitOn(t, cat, req); nf.NearestMiss == nil || nf.NearestMiss.FailedConstraint != "precision" {
		t.Errorf("LoRA on a bf16 base: nearest miss %+v", nf.NearestMiss)
	} else if r := rejection(nf.Rejected, "precision"); r == nil || !strings.Contains(r.Reason, "(LoRA computes in the base model's bf16)") {
		t.Errorf("precision rejection %+v", r)
	}
	for _, tt := range []struct{ precision, method string }{{PrecisionINT8, MethodLoRA}, {PrecisionINT4, MethodQLoRA}, {PrecisionBF16, MethodQLoRA}, {PrecisionINT4, ""}} {
		req.Model.Precision, req.FineTuningMethod = tt.precision, tt.method
		res := mustRecommendOn(t, cat, req)
		if res.Recommendations[0].VMSize != "Standard_NC4as_T4_v3" {
			t.Errorf("%s %q: %v", tt.precision, tt.method, names(res))
		}
	}

	// Inference of a bf16 model on the T4 stays allowed, with a warning
	// and no score penalty: the step model times its fp16 arithmetic.
	res := mustRecommendOn(t, cat, Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 0.5}, GPUModels: []string{"t4"}, AsOf: asOf})
	if top := res.Recommendations[0]; top.VMSize != "Standard_NC4as_T4_v3" || !strings.Contains(strings.Join(top.Warnings, " "), "has no native bf16 support") {
		t.Errorf("top %s, warnings %q", top.VMSize, top.Warnings)
	}

	// tf32 on the V100: the closest precision it runs is fp32.
	n := deriveRequirements(cat, Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 0.5, Precision: PrecisionTF32}, AsOf: asOf})
	sizes := prepare(cat).sizes
	i := slices.IndexFunc(sizes, func(in sizeInfo) bool { return in.sku.Name == "Standard_ND40rs_v2" })
	if i < 0 {
		t.Fatal("Standard_ND40rs_v2 is not in the fixture")
	}
	var e eval
	evaluate(n, &sizes[i], &e)
	if got, want := relax(n, cPrecision, &e), `set model.precision = "fp32", the closest precision the NVIDIA Tesla V100 32GB SXM2 runs natively`; got != want {
		t.Errorf("relax %q, want %q", got, want)
	}
	if rejectedBy(t, cat, Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 0.5, Precision: PrecisionTF32}, AsOf: asOf}, "Standard_ND40rs_v2") != "precision" {
		t.Error("the V100 size trains in tf32")
	}
}

// A data-parallel job (a non-generative model: every GPU holds the whole
// model, its states and its batch) whose total fits the VMs but whose
// share does not fit one GPU fails gpu_memory_per_gpu, and its reason
// gives the numbers of the first size counted there.
func TestGPUMemoryPerGPU(t *testing.T) {
	cat := fixture(t)
	// 1B parameters: 1e9 × 16 bytes = 14.9 GiB of states, + 32 samples ×
	// 1 byte per parameter (a non-generative model of unknown kind) = 29.8
	// GiB of activations: 44.7 GiB on every GPU, within 90% of each GPU's
	// usable memory (GPUMemoryShare). The A100 40 GB (40 × 0.9 = 36 GiB
	// per GPU, 288 per VM) cannot hold it on one GPU (gpu_memory_per_gpu);
	// the quarter RTX PRO 6000 (24 GiB, no InfiniBand, so one VM) cannot
	// hold it at all (gpu_memory); the A100 80 GB, the H100 sizes and the
	// MI300X can.
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 1, Class: ClassNonGenerative}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommendOn(t, cat, req)
	assertRejected(t, res.Rejected, map[string]int64{"workload": 9, "precision": 3, "gpu_memory": 1, "gpu_memory_per_gpu": 1, "confidential": 1})
	r := rejection(res.Rejected, "gpu_memory_per_gpu")
	if want := "One GPU cannot hold its share of the job: every GPU holds the whole model, its states and its batch (44.7 GiB, data parallel) within 90% of its usable memory. For example Standard_ND96asr_v4 needs 44.7 GiB on each GPU against 40 GiB × 90% = 36 GiB it can use."; r == nil || r.Reason != want ||
		!reflect.DeepEqual(r.Examples, []string{"Standard_ND96asr_v4"}) {
		t.Errorf("rejection %+v\nwant reason %q", r, want)
	}
	if m := res.Requirements.Memory; m == nil || m.GiB != 44.7 || !m.DataParallel || m.TrainingBatchSize != 32 {
		t.Errorf("memory %+v", m)
	}
	i := slices.IndexFunc(res.Recommendations, func(r Recommendation) bool { return r.VMSize == "Standard_NC24ads_A100_v4" })
	if i < 0 || !slices.Contains(res.Recommendations[i].Reasons, "Each GPU holds the whole model with its states and batch (44.7 GiB of 72 GiB usable).") {
		t.Errorf("Standard_NC24ads_A100_v4 at %d, recommendations %+v", i, res.Recommendations)
	}

	// On the A100 40 GB only, with 96 vCPUs under 30 USD/h (so that every
	// other GPU size fails two constraints): the nearest miss says by how
	// much, and what lowers it.
	req.GPUModels, req.MinVCPUs, req.MaxPricePerHour = []string{"a100-sxm-40gb"}, i64(96), f64(30)
	nf := mustNoFitOn(t, cat, req)
	want := &NearestMiss{VMSize: "Standard_ND96asr_v4", FailedConstraint: "gpu_memory_per_gpu", FailedConstraints: []string{"gpu_memory_per_gpu"},
		Relax: "lower the need per GPU to 36 GiB (it needs 44.7): lower training_batch_size, or choose a size with larger GPUs."}
	if !reflect.DeepEqual(nf.NearestMiss, want) {
		t.Errorf("nearest miss %+v", nf.NearestMiss)
	}
	// Half the batch: 14.9 + 14.9 = 29.8 GiB per GPU fits.
	req.TrainingBatchSize = i64(16)
	if res := mustRecommendOn(t, cat, req); res.Recommendations[0].VMSize != "Standard_ND96asr_v4" || res.Requirements.GPUMemoryGiB == nil || *res.Requirements.GPUMemoryGiB != 29.8 {
		t.Errorf("batch 16: %v, need %v", names(res), res.Requirements.GPUMemoryGiB)
	}
}

// Copies of a served model on separate VMs (replicas) need no InfiniBand
// and are not removed by scale_up: only a copy that spans VMs is.
func TestReplicasNeedNoInfiniBand(t *testing.T) {
	cat := fixture(t)
	// 1.3B serving 100 sequences of 4,096 tokens: 2.42 GiB of weights +
	// 0.12 of workspace per copy, 0.2331 GiB of KV cache per sequence
	// (61,104 bytes per token), 23.31 GiB for 100: 25.85 GiB. A T4 (13.5
	// GiB for serving) holds a copy and floor((13.5 − 2.54) / 0.2331) =
	// 47 sequences: 3 copies on 3 VMs. The quarter RTX PRO 6000 (21.6
	// GiB) holds 81: 2 copies on 2 VMs. The A100 80 GB (72) holds all on
	// one.
	res := mustRecommendOn(t, cat, Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 1.3}, ConcurrentRequests: i64(100), AsOf: asOf, MaxResults: i64(3)})
	type layout struct {
		name                       string
		nodes, replicas, tp, pp    int64
		rdma, placement, preferred bool
	}
	var got []layout
	for _, r := range res.Recommendations {
		got = append(got, layout{r.VMSize, r.Nodes, r.Replicas, r.TensorParallel, r.PipelineStages, r.Deployment.RDMA, r.Deployment.RDMAPlacement != "", r.Preferred})
	}
	// Cheapest total: 3 T4s at 1.578 USD/h. Every layout meets the
	// default latency targets (the T4 copies of 34 sequences: 540 ms to
	// the first token, 94.1 ms per output token), so the time component
	// is 15 for each and the price decides. The T4: 25 + 25 + 20 (76% of
	// its memory, in the band) + 15 + 15 / 3 = 90.0; the quarter RTX PRO
	// 6000: 25 + 25 × 1.578 / 2.26 + 20 (66%) + 15 + 15 / 2 = 85.0; the
	// A100 80 GB, all 100 on one: 25 + 25 × 1.578 / 3.673 + 20 × 0.359 /
	// 0.5 + 15 + 15 = 80.1.
	want := []layout{
		{"Standard_NC4as_T4_v3", 3, 3, 1, 1, false, false, false},
		{"Standard_NC24lds_xl_RTXPRO6000BSE_v6", 2, 2, 1, 1, false, false, false},
		{"Standard_NC24ads_A100_v4", 1, 1, 1, 1, false, false, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("layouts\n got  %+v\n want %+v", got, want)
	}
	if s := []float64{res.Recommendations[0].Score, res.Recommendations[1].Score, res.Recommendations[2].Score}; !reflect.DeepEqual(s, []float64{90, 85, 80.1}) {
		t.Errorf("scores %v", s)
	}
	if _, ok := rejectedCounts(res.Rejected)["scale_up"]; ok {
		t.Errorf("scale_up removed copies on separate VMs: %+v", res.Rejected)
	}
	if rq := res.Requirements; rq.Nodes != 3 || rq.Interconnect != "any" || rq.ConcurrentRequests != 100 || rq.KVCacheGiB != 23.31 {
		t.Errorf("requirements: %d VMs, interconnect %q, %d requests, KV cache %v GiB", rq.Nodes, rq.Interconnect, rq.ConcurrentRequests, rq.KVCacheGiB)
	}
	if want := "Each copy of the model is split over 1 GPU (10.31 GiB per GPU of 13.5 GiB it may use); 3 copies (replicas) serve the 100 concurrent requests."; !strings.Contains(strings.Join(res.Recommendations[0].Reasons, " "), want) {
		t.Errorf("T4 reasons %q, want %q", res.Recommendations[0].Reasons, want)
	}
}

// A copy of a served model spans VMs (pipeline stages) only when no VM of
// the size holds it; that needs InfiniBand, and scale_up removes it when
// another size holds a copy on one VM.
func TestPipelineStages(t *testing.T) {
	cat := fixture(t)
	// Llama 3.1 70B: 131.41 GiB of weights + 6.57 of workspace = 137.98
	// GiB per copy, and 327,680 bytes of KV cache per token (2 × 80 layers
	// × 8 KV heads × 128 × 2 bytes), 1.25 GiB per sequence of 4,096
	// tokens, 10 GiB for 8. One A100 80 GB (72 GiB for serving) cannot
	// hold a copy: it would need 2 stages on 2 VMs, and without InfiniBand
	// a copy may span only one VM, so the NC sizes cannot hold it
	// (gpu_memory). The 8-GPU ND sizes hold it on one VM.
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommendOn(t, cat, req)
	assertRejectedBy(t, cat, req, res.Rejected, "gpu_memory", "Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5", "Standard_NV6ads_A10_v5")
	if r := rejection(res.Rejected, "gpu_memory"); r == nil || !strings.Contains(r.Reason, "one copy of the model must fit one VM, or up to its InfiniBand span") {
		t.Errorf("gpu_memory rejection %+v", r)
	}
	// interconnect = "any": the stages may talk over Ethernet, but the ND
	// sizes hold a copy on one VM: scale_up.
	req.Interconnect = InterconnectAny
	res = mustRecommendOn(t, cat, req)
	assertRejectedBy(t, cat, req, res.Rejected, "scale_up", "Standard_NC24ads_A100_v4", "Standard_NC40ads_H100_v5")
	// Named in prefer, it stays. Each GPU of a 2-stage copy holds 137.98 /
	// 2 = 68.99 GiB of weights: 3.01 GiB of room each, 6.02 per copy, 4
	// sequences of 1.25 GiB, so 2 copies on 4 VMs. Three stages leave 72 −
	// 45.99 = 26.01 GiB per GPU, 78.02 per copy: 62 sequences, all 8 on 3
	// VMs, the fewest.
	req.Prefer = []string{"Standard_NC24ads_A100_v4"}
	res = mustRecommendOn(t, cat, req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_NC24ads_A100_v4" || top.PipelineStages != 3 || top.Nodes != 3 || top.Replicas != 1 || top.TensorParallel != 1 ||
		top.Deployment.RDMA || res.Requirements.Interconnect != "any" {
		t.Errorf("top %s: %d VMs, %d copies of %d stages, tp %d, RDMA %v, interconnect %q", top.VMSize, top.Nodes, top.Replicas, top.PipelineStages, top.TensorParallel, top.Deployment.RDMA, res.Requirements.Interconnect)
	}
}

// Tensor parallelism inside an 8-GPU VM: each GPU holds an eighth of the
// weights and, with 8 KV heads over 8 GPUs, an eighth of the KV cache.
func TestTensorParallelPerGPU(t *testing.T) {
	cat := fixture(t)
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "Llama 3.1 70B"}, GPUModels: []string{"a100-sxm-40gb"}, AsOf: asOf}
	res := mustRecommendOn(t, cat, req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_ND96asr_v4" || top.Nodes != 1 || top.Replicas != 1 || top.TensorParallel != 8 || top.PipelineStages != 1 {
		t.Fatalf("top %s: %d VMs, %d copies, tp %d, pp %d", top.VMSize, top.Nodes, top.Replicas, top.TensorParallel, top.PipelineStages)
	}
	// Per GPU: 137.98 / 8 = 17.25 GiB of weights and workspace + 10 / 8 =
	// 1.25 GiB of KV cache = 18.5 GiB of 40 × 0.9 = 36. KV room left: (36 −
	// 17.2475) × 8 − 10 = 140.02 GiB, 458,818 tokens of 327,680 bytes, 112
	// sequences of 4,096.
	want := "Each copy of the model is split over 8 GPUs (18.5 GiB per GPU of 36 GiB it may use). KV cache room left: 140.02 GiB, about 458,818 more tokens (112 more sequences of 4,096 tokens)."
	if !slices.Contains(top.Reasons, want) {
		t.Errorf("reasons %q\nwant %q", top.Reasons, want)
	}
	rq := res.Requirements
	if rq.Model != "llama-3.1-70b" || rq.Precision != "bf16" || rq.ContextTokens != 4096 || rq.ConcurrentRequests != 8 || rq.KVBytesPerToken != 327680 || rq.KVCacheGiB != 10 ||
		rq.GPUMemoryGiB == nil || *rq.GPUMemoryGiB != 147.98 || rq.SystemMemoryGiB == nil || *rq.SystemMemoryGiB != 197.12 {
		t.Errorf("requirements %+v", rq)
	}
	// 64 attention heads: 32,768 tokens of context make 10 GiB per
	// sequence, 80 for 8; still one VM, 17.25 + 10 = 27.25 GiB per GPU.
	req.ContextTokens = i64(32768)
	res = mustRecommendOn(t, cat, req)
	if want := "Each copy of the model is split over 8 GPUs (27.25 GiB per GPU of 36 GiB it may use)."; !strings.Contains(strings.Join(res.Recommendations[0].Reasons, " "), want) {
		t.Errorf("reasons %q\nwant %q", res.Recommendations[0].Reasons, want)
	}
	// The MI300X holds a copy and its 8 sequences on one GPU (137.98 + 10
	// of 172.8 GiB), but the VM costs the same however the copy is split:
	// the layout search splits it over several of the 8 GPUs, which read
	// the weights once per step for the copy's sequences (8 one-GPU copies
	// would each read them all), and runs as many copies as the VM holds.
	// The job still fits in one GPU, and the idle-GPU penalty and warning
	// say so.
	res = mustRecommendOn(t, cat, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, GPUModels: []string{"mi300x"}, AsOf: asOf})
	mi := res.Recommendations[0]
	if mi.TensorParallel < 2 || mi.TensorParallel*mi.Replicas != 8 || mi.Nodes != 1 {
		t.Fatalf("MI300X: tp %d, %d copies on %d VMs", mi.TensorParallel, mi.Replicas, mi.Nodes)
	}
	if want := fmt.Sprintf("the layout splits each copy over %d of them, which speeds each sequence, but a one-GPU size serves it for less", mi.TensorParallel); !strings.Contains(strings.Join(mi.Warnings, " "), want) {
		t.Errorf("MI300X warnings %q", mi.Warnings)
	}
}

// On GPUs without NVLink a served copy is split only as far as it must be
// and more copies serve the rest, but never on more VMs than a wider split
// needs: 13B for 8 sequences (30.33 GiB) fits one VM of 4 T4s (54 GiB for
// serving) split 4 ways, with room for 46 sequences. The fixture has no
// current multi-GPU size without NVLink; this uses the embedded catalog.
func TestPCIeSplitUsesFewestVMs(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{ParametersBillion: 13}, GPUModels: []string{"t4"}, AsOf: asOf})
	r := byName(res, "Standard_NC64as_T4_v3")
	if r == nil {
		t.Fatalf("Standard_NC64as_T4_v3 not ranked: %v", names(res))
	}
	if r.Nodes != 1 || r.TensorParallel != 4 {
		t.Errorf("a copy split over %d GPUs serves 8 sequences with %d copies on %d VMs, where a split over the VM's 4 GPUs holds them on 1 VM", r.TensorParallel, r.Replicas, r.Nodes)
	}
}

// The GPU memory use a reason writes agrees with the band it places it
// in: a use above the 50%-85% band never reads as 85%, one below it never
// as 50%.
func TestBandPercentAgreesWithTheBand(t *testing.T) {
	for u := 0.40; u <= 0.95; u += 0.00007 {
		s := bandPercent(u)
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.NewReplacer("just over ", "", "just under ", "").Replace(s), "%"), 64)
		if strings.HasPrefix(s, "just over ") {
			v += 0.001
		} else if strings.HasPrefix(s, "just under ") {
			v -= 0.001
		}
		words := bandWords(u)
		switch {
		case err != nil:
			t.Fatalf("%v: %q", u, s)
		case strings.Contains(words, "above") && v <= SizingBandHigh*100,
			strings.Contains(words, "below") && v >= SizingBandLow*100,
			strings.Contains(words, "inside") && (v < SizingBandLow*100 || v > SizingBandHigh*100):
			t.Errorf("%v: %s%s", u, s, words)
		}
	}
}

// The per-GPU figure of a training layout a deadline scaled out is that of
// the VMs it runs on: 7B pretrained on 1,000B tokens within 720 hours said
// "sharded over 48 GPUs (19.56 GiB per GPU …)" on ND96isr_H100_v5, the
// share of the one VM memory took, where 48 GPUs hold 104.31 GiB of states
// at 2.17 each beside one sequence's 1.63 GiB of activations.
func TestScaledOutLayoutSaysItsOwnShare(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 7}, TokensBillion: f64(1000), DeadlineHours: f64(720), Region: "eastus", AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommend(t, req)
	m := res.Requirements.Memory
	checked := 0
	for _, r := range res.Recommendations {
		if r.Nodes < 2 {
			continue
		}
		gpus := int64(r.TotalGPUs)
		want := fmt.Sprintf("The states are sharded over %d GPUs (%s GiB per GPU, with its own activations, of ", gpus, trimFloat(math.Round((m.ActivationGiB+(m.GiB-m.ActivationGiB)/float64(gpus))*100)/100))
		if !slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("%s on %d VMs: reasons %q, want %q", r.VMSize, r.Nodes, r.Reasons, want)
		}
		checked++
	}
	if checked == 0 {
		t.Errorf("no layout scaled out: %v", names(res))
	}
}
