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
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// This file derives, without the engine, which hard constraint removes each
// size of a catalog for a request: the rejection counts a result must report
// for whatever catalog it ran on. Tests on the embedded catalog compare with
// it instead of pinning counts that every added size changes; tests on the
// fixture catalog pin the counts by hand as well, which checks this oracle.
//
// The oracle takes from the engine only the memory estimate's figures
// (Engine.EstimateMemory: the GiB of the weights, activations and KV cache,
// the KV cache per token, the context and the concurrency it used). How
// that memory splits over a size's GPUs, VMs and copies of the model is
// derived again here from the rules as rules.go, fit.go and the constraint
// table document them, with plain loops and no helper of fit.go, so that a
// change to the engine's layout that the rules do not describe shows up as
// a difference in the counts. So is the time a layout takes (the
// throughput model of throughput.go, with the constants of rules.go): the
// training FLOPs from the model's parameters and the token budget, the
// hours from the catalog's performance facts (SKU.Performance, read here
// directly), the VMs a deadline takes, and the copies tokens_per_second
// takes from the decode rate of one copy.

// oracleConstraints is the evaluation order, as documented on Constraints:
// what the size is (workload, specifications, GPU vendor and model, CUDA,
// compute capability, precision), whether it holds the job (GPU memory in
// total and per GPU, GPUs, cores, system memory, then in time: the deadline
// of a training job, the throughput of a service; VMs, InfiniBand), where
// it runs (region, availability, target), its lifecycle, price caps, then
// the rest.
var oracleConstraints = []string{
	"workload", "unknown_specs", "gpu_vendor", "gpu_models", "cuda_version", "min_compute_capability", "precision",
	"gpu_memory", "gpu_memory_per_gpu", "gpus", "cores", "system_memory", "deadline", "tokens_per_second", "nodes", "interconnect",
	"region", "availability", "target", "retired", "min_lifetime_months", "preview", "deployable",
	"max_price_per_hour", "max_total_price_per_hour", "confidential", "isolated",
	"min_vcpus", "min_memory_gib", "min_local_disk_gib", "scale_up",
}

// oracleFamilies is the family table of the Constraints documentation:
// which families serve a workload, and the catalog category it needs.
func oracleFamilies(req Request) (families []string, category string) {
	class := ClassGenerative
	if req.Model != nil && req.Model.Class != "" {
		class = req.Model.Class
	}
	switch w := req.Workload; {
	case (w == "training" || w == "fine_tuning") && class == ClassSmall:
		return []string{"E"}, "cpu"
	case w == "inference" && class == ClassSmall:
		return []string{"F"}, "cpu"
	case w == "training" || w == "fine_tuning":
		return []string{"ND", "NC"}, "gpu"
	case w == "inference":
		return []string{"NC", "ND", "NV", "NG"}, "gpu"
	case w == "hpc":
		return []string{"HB", "HX", "HC", "H"}, "hpc"
	case w == "htc":
		return []string{"F", "HB", "HX", "HC", "H", "E"}, "cpu"
	case w == "visualization":
		return []string{"NV", "NG", "NC"}, "gpu"
	case w == "data_processing":
		return []string{"NC", "ND", "NV"}, "gpu"
	}
	return nil, ""
}

// oracleVersion parses "major.minor"; ok is false for anything else.
func oracleVersion(s string) (major, minor int, ok bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) == 0 || len(parts) > 3 {
		return 0, 0, false
	}
	var err error
	if major, err = strconv.Atoi(parts[0]); err != nil {
		return 0, 0, false
	}
	if len(parts) > 1 {
		if minor, err = strconv.Atoi(parts[1]); err != nil {
			return 0, 0, false
		}
	}
	return major, minor, true
}

func versionBelow(aMaj, aMin, bMaj, bMin int) bool {
	return aMaj < bMaj || (aMaj == bMaj && aMin < bMin)
}

// oracleVMs is the fewest VMs holding need when each has per (the engine
// rounds up, forgiving floating-point noise, and needs at least one).
func oracleVMs(need, per float64) int64 {
	if per <= 0 {
		return math.MaxInt32
	}
	return max(int64(math.Ceil(need/per-1e-9)), 1)
}

// oracleEval is one size as the oracle sees it.
type oracleEval struct {
	sku   *catalog.SKU
	fails map[string]bool
	nodes int64
	// spans: one job (one copy of the model, for inference) spans VMs.
	spans bool
	// late: a training job that runs past the default deadline on the
	// layout (it never does past a stated one: that removes the size).
	late bool
}

// firstFailure is the first failed constraint in evaluation order, or "".
func (e oracleEval) firstFailure() string {
	for _, c := range oracleConstraints {
		if e.fails[c] {
			return c
		}
	}
	return ""
}

// How a job's GPU memory splits over the GPUs of a size (oracleJob.split).
const (
	// oracleTotal: a stated total (gpu_memory_gib) split evenly over every
	// GPU of the job.
	oracleTotal = iota
	// oracleSharded: training and fine-tuning of a language model, sharded
	// over every GPU (FSDP or ZeRO-3); LoRA and QLoRA keep their
	// checkpointed activations whole on every GPU.
	oracleSharded
	// oracleDataParallel: the encoder, vision, diffusion and speech kinds
	// (and a non-generative model of unknown kind) train with plain data
	// parallelism: one GPU holds the whole model, its states and its batch.
	oracleDataParallel
	// oracleServing: inference of a model: tensor parallel inside a VM,
	// pipeline stages across VMs, copies for concurrency.
	oracleServing
)

// oracleJob is what the oracle derives once per request.
type oracleJob struct {
	families []string
	category string

	est   *MemoryEstimate // nil without a model the job uses
	model *catalog.Model  // the model table's entry; nil without model.name
	kind  string

	// trainIn lists the precisions of which a GPU must run one natively to
	// train the model; nil when the precision constraint does not apply or
	// any GPU passes (fp32).
	trainIn []string

	gpuMem, sysMem float64 // GiB; 0 when the job states none
	split          int
	shard          float64 // GiB split over a copy's GPUs (serving, sharded) or held whole (data parallel)
	replicated     float64 // GiB every GPU of a sharded job keeps whole
	kvPerSeq       float64 // GiB of KV cache per sequence (serving a language model)
	seqs           int64   // sequences in flight
	kvHeads        int64   // the most GPUs that split the KV cache: KV heads, 1 for MLA, 0 unknown (any)
	heads          int64   // attention heads the tensor-parallel degree divides; 0 unknown (any)

	// Throughput. flops is the work of training or fine-tuning a language
	// model on a GPU size (0 otherwise), to finish within deadline hours
	// (deadlineStated: deadline_hours set; else the default, which never
	// removes a size). computePrec is the precision its arithmetic runs in
	// ("" for bf16 or fp16, whichever the GPU runs faster). tps is the
	// output tokens per second a served language model must sustain (0:
	// none); precision is the model's, params and active its parameters
	// and weights the GiB of its weights.
	flops          float64
	deadline       float64
	deadlineStated bool
	// gpusStated: gpus is set above 1, so the job uses every GPU it asked
	// for (gpus = 1 asks for no more than the one GPU a small job uses).
	gpusStated     bool
	computePrec    string
	tps            float64
	precision      string
	params, active float64
	weights        float64
}

// oracleKinds are the language-model kinds: KV cache for inference, sharded
// for training.
var oracleLanguageKinds = []string{catalog.ModelKindGenerative, catalog.ModelKindMoE}

// oracleJobOf derives the job of a valid request: its families, the model
// with its precision and method as the Request and rules.go document them,
// and the memory split.
func oracleJobOf(cat *catalog.Catalog, eng *Engine, req Request) *oracleJob {
	j := &oracleJob{deadline: DefaultDeadlineHours, gpusStated: req.GPUs != nil && *req.GPUs > 1}
	if req.DeadlineHours != nil {
		j.deadline, j.deadlineStated = *req.DeadlineHours, true
	}
	j.families, j.category = oracleFamilies(req)
	modelWorkload := req.Workload == "training" || req.Workload == "fine_tuning" || req.Workload == "inference"
	if req.Model != nil && modelWorkload {
		m := *req.Model
		if strings.TrimSpace(m.Name) != "" {
			j.model, _ = cat.Model(m.Name)
		}
		if m.ParametersBillion > 0 || j.model != nil {
			est, _, err := eng.EstimateMemory(MemoryRequest{Workload: req.Workload, Model: m, FineTuningMethod: req.FineTuningMethod,
				ContextTokens: req.ContextTokens, ConcurrentRequests: req.ConcurrentRequests, TrainingBatchSize: req.TrainingBatchSize})
			if err == nil {
				j.est = &est
			}
		}
	}
	if j.est == nil {
		if req.GPUMemoryGiB != nil {
			j.gpuMem, j.shard, j.split = *req.GPUMemoryGiB, *req.GPUMemoryGiB, oracleTotal
		}
		return j
	}
	m := req.Model
	tm := j.model
	// Kind: the table's; else a language model (mixture of experts when
	// fewer parameters are active) for the generative class; else a
	// non-generative model of unknown kind.
	class := m.Class
	if class == "" {
		class = ClassGenerative
		if tm != nil && !slices.Contains(oracleLanguageKinds, tm.Kind) {
			class = ClassNonGenerative
		}
	}
	params := m.ParametersBillion
	if params == 0 && tm != nil {
		params = tm.ParametersBillion
	}
	switch {
	case tm != nil:
		j.kind = tm.Kind
	case class == ClassGenerative && m.ActiveParametersBillion > 0 && m.ActiveParametersBillion < params:
		j.kind = catalog.ModelKindMoE
	case class == ClassGenerative:
		j.kind = catalog.ModelKindGenerative
	}
	language := slices.Contains(oracleLanguageKinds, j.kind)

	// Precision: the request's, else the table's published one (the 4-bit
	// block formats count as int4), else bf16. Method: full for training;
	// for fine-tuning the request's, else qlora for int4 and lora for int8.
	// Full training of a published int8 or int4 model trains in bf16.
	precision := m.Precision
	if precision == "" && tm != nil {
		switch p := strings.ToLower(tm.Precision); p {
		case "mxfp4", "nvfp4", "nf4":
			precision = "int4"
		default:
			if slices.Contains(Precisions(), p) {
				precision = p
			}
		}
	}
	if precision == "" {
		precision = "bf16"
	}
	method := ""
	switch req.Workload {
	case "training":
		method = "full"
	case "fine_tuning":
		method = req.FineTuningMethod
		if method == "" {
			method = map[string]string{"int4": "qlora", "int8": "lora"}[precision]
		}
		if method == "" {
			method = "full"
		}
	}
	if method == "full" && (precision == "int4" || precision == "int8") {
		precision = "bf16"
	}
	// The precision constraint: training and fine-tuning of a model on GPU
	// sizes. Full: the model's precision (fp32 runs everywhere). LoRA on a
	// bf16, fp16, fp32 or tf32 base: that precision. LoRA on an fp8, int8
	// or int4 base, and QLoRA: bf16 or fp16.
	if j.category == "gpu" && method != "" {
		switch {
		case method == "qlora" || (method == "lora" && (precision == "fp8" || precision == "int8" || precision == "int4")):
			j.trainIn = []string{"bf16", "fp16"}
		case precision != "fp32":
			j.trainIn = []string{precision}
		}
	}

	est := j.est
	if j.category == "gpu" {
		j.gpuMem = est.GiB
		if req.Workload == "inference" {
			j.sysMem = math.Round(est.WeightsGiB*InferenceSystemMemoryFactor*100) / 100
		}
	} else {
		// Small models run on the CPU: the estimate is system memory.
		j.sysMem = est.GiB
		if req.Workload == "inference" {
			j.sysMem = max(j.sysMem, math.Round(est.WeightsGiB*InferenceSystemMemoryFactor*100)/100)
		}
	}
	j.shard = j.gpuMem
	switch {
	case req.GPUMemoryGiB != nil:
		// gpu_memory_gib overrides the estimate: a stated total.
		j.gpuMem, j.shard, j.split = *req.GPUMemoryGiB, *req.GPUMemoryGiB, oracleTotal
	case req.Workload == "inference":
		j.split = oracleServing
		j.seqs = est.ConcurrentRequests
		if tm != nil && tm.AttentionHeads != nil {
			j.heads = *tm.AttentionHeads
		}
		if language {
			// The weights and workspace split over a copy's GPUs; the KV
			// cache of each sequence over those that hold distinct KV heads.
			j.shard = est.WeightsGiB + est.ActivationGiB
			j.kvPerSeq = est.KVBytesPerToken * float64(est.ContextTokens) / GiB
			if tm != nil && tm.Layers != nil {
				switch {
				case tm.AttentionKind == catalog.AttentionMLA && tm.KVLoRARank != nil && tm.QKRopeHeadDim != nil:
					j.kvHeads = 1 // every GPU keeps the whole latent
				case tm.KVHeads != nil && tm.HeadDim != nil:
					j.kvHeads = *tm.KVHeads
				}
			}
		}
	case !language:
		j.split = oracleDataParallel
	default:
		j.split = oracleSharded
		if method == "lora" || method == "qlora" {
			// Checkpointed activations: every layer's 16-bit input for the
			// micro-batch, kept whole by every GPU; without the
			// architecture, all of the activations.
			j.replicated = est.ActivationGiB
			if tm != nil && tm.Layers != nil && tm.HiddenSize != nil {
				context := int64(DefaultContextTokens)
				if req.ContextTokens != nil {
					context = *req.ContextTokens
				}
				if tm.MaxContextTokens != nil && context > *tm.MaxContextTokens {
					context = *tm.MaxContextTokens
				}
				batch := int64(1) // a language model's default micro-batch
				if req.TrainingBatchSize != nil {
					batch = *req.TrainingBatchSize
				}
				bytes := float64(*tm.Layers) * float64(context) * float64(batch) * float64(*tm.HiddenSize) * 2
				j.replicated = math.Round(bytes/GiB*100) / 100
			}
			j.replicated = min(j.replicated, j.gpuMem)
		}
	}

	// Throughput: the active parameters are the request's, else the
	// table's share of its parameters, at most all of them.
	j.params, j.active, j.precision, j.weights = params, params, precision, est.WeightsGiB
	switch {
	case m.ActiveParametersBillion > 0:
		j.active = min(m.ActiveParametersBillion, params)
	case tm != nil:
		j.active = min(tm.ActiveParametersBillion*params/tm.ParametersBillion, params)
	}
	if req.Workload == "inference" && req.TokensPerSecond != nil && j.kvPerSeq > 0 && req.GPUMemoryGiB == nil {
		j.tps = *req.TokensPerSecond
	}
	if j.category != "gpu" || !language || (req.Workload != "training" && req.Workload != "fine_tuning") {
		return j
	}
	// Training FLOPs: 6 per active parameter and token (4 for LoRA and
	// QLoRA, whose frozen weights need no weight gradients), plus the
	// attention term of the same factor × layers × context × attention
	// width (heads × head size, else the hidden size) where the table
	// gives the architecture; the tokens are tokens_billion, else 20 per
	// parameter for training (Chinchilla) and 0.1 billion for fine-tuning.
	factor := float64(TrainingFLOPsPerToken)
	if method == "lora" || method == "qlora" {
		factor = LoRAFLOPsPerToken
	}
	perToken := factor * j.active * 1e9
	if tm != nil && tm.Layers != nil {
		width := int64(0)
		switch {
		case tm.AttentionHeads != nil && tm.HeadDim != nil:
			width = *tm.AttentionHeads * *tm.HeadDim
		case tm.HiddenSize != nil:
			width = *tm.HiddenSize
		}
		context := int64(DefaultContextTokens)
		if req.ContextTokens != nil {
			context = *req.ContextTokens
		}
		if tm.MaxContextTokens != nil && context > *tm.MaxContextTokens {
			context = *tm.MaxContextTokens
		}
		perToken += factor * float64(*tm.Layers) * float64(context) * float64(width)
	}
	tokens := DefaultFineTuningTokensBillion
	switch {
	case req.TokensBillion != nil:
		tokens = *req.TokensBillion
	case req.Workload == "training":
		tokens = ChinchillaTokensPerParameter * params
	}
	j.flops = perToken * tokens * 1e9
	// The arithmetic runs at the precision trained; QLoRA, and LoRA on an
	// fp8, int8 or int4 base, compute the adapters in bf16 or fp16.
	j.computePrec = precision
	if method == "qlora" || (method == "lora" && (precision == "fp8" || precision == "int8" || precision == "int4")) {
		j.computePrec = ""
	}
	return j
}

// oraclePeakTFLOPS is one whole GPU's dense TFLOPS for arithmetic at
// precision p, from the size's performance facts: bf16 or fp16 (the
// larger) for "" and for int8 and int4 weights, which weight-only kernels
// dequantise; the precision's own figure where the GPU has one; else (a
// precision the GPU lacks) bf16 or fp16, except fp32, which has no other
// figure to fall back on. 0 where the catalog has none.
func oraclePeakTFLOPS(s *catalog.SKU, p string) float64 {
	g := s.Performance.GPU
	if g == nil {
		return 0
	}
	val := func(v *float64) float64 {
		if v == nil {
			return 0
		}
		return *v
	}
	half := max(val(g.BF16TFLOPS), val(g.FP16TFLOPS))
	if p == "" || p == "int8" || p == "int4" {
		return half
	}
	if v := val(g.DenseTFLOPS(p)); v > 0 {
		return v
	}
	if p == "fp32" {
		return 0
	}
	return half
}

// oracleDataCenterGPUs are the NVIDIA data-center GPUs training reaches
// 40% MFU on (rules.go, TrainingMFU); the others reach 30%.
var oracleDataCenterGPUs = []string{"v100-sxm2-32gb", "v100-pcie-16gb", "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-80gb",
	"h100-sxm-80gb", "h100-nvl-94gb", "h200-141gb", "gb200", "gb300"}

// oracleMFU is the model FLOPs utilization of training on nodes VMs of s
// using gpus GPUs of each: 40% on an NVIDIA data-center GPU, else 30%; ×
// 0.8 on a share of a GPU, × 0.8 when several GPUs of a VM train together
// without NVLink, × 0.5 across VMs over Ethernet.
func oracleMFU(s *catalog.SKU, nodes int64, gpus float64, ethernet bool) float64 {
	m := OtherTrainingMFU
	if slices.Contains(oracleDataCenterGPUs, s.GPU.ModelID) {
		m = TrainingMFU
	}
	if s.GPU.Count < 1 {
		m *= PartialGPUTrainingFactor
	}
	if gpus > 1 && (s.Performance.GPU == nil || s.Performance.GPU.NVLinkGBsPerGPU == nil) {
		m *= PCIeTrainingFactor
	}
	if nodes > 1 && ethernet {
		m *= EthernetTrainingFactor
	}
	return m
}

// trainingGPUs is the GPUs of each of nodes VMs the job uses: one when it
// runs on one VM, states no gpus above 1, its memory fits one GPU and one
// GPU finishes it by the deadline at the GPU's own MFU, with no PCIe
// all-reduce to pay (small jobs do not use larger sizes), else every GPU (a
// share of one on a partial GPU). On several VMs it uses every GPU of each.
func (j *oracleJob) trainingGPUs(s *catalog.SKU, nodes int64) float64 {
	g := s.GPU
	if g.Count > 1 && nodes == 1 && !j.gpusStated && j.gpuMem > 0 && j.gpuMem <= oracleUsableGiB(s) {
		if rate := oraclePeakTFLOPS(s, j.computePrec) * 1e12 * oracleMFU(s, 1, 1, false); rate > 0 && j.flops/rate/3600 <= j.deadline {
			return 1
		}
	}
	return g.Count
}

// trainingHours is the wall time of the job on nodes VMs of s: FLOPs ÷
// (VMs × GPUs × dense peak × MFU); 0 when the catalog has no figure.
func (j *oracleJob) trainingHours(s *catalog.SKU, nodes int64, ethernet bool) float64 {
	gpus := j.trainingGPUs(s, nodes)
	rate := float64(nodes) * gpus * oraclePeakTFLOPS(s, j.computePrec) * 1e12 * oracleMFU(s, nodes, gpus, ethernet)
	if rate <= 0 {
		return 0
	}
	return j.flops / rate / 3600
}

// decodeRate is the output tokens per second of one copy of a served
// language model split over tp × stages GPUs (a share of one on a partial
// GPU), decoding b sequences together: a step reads the weights (of a
// mixture of experts, the share b tokens' experts reach, at most all) and
// 87.5% of each sequence's KV cache at 60% of the GPUs' memory bandwidth,
// and computes each output token with its three prompt tokens' prefill (2
// FLOPs per active parameter and token) at 35% of their dense peak; the
// slower bounds the step. 0 where the catalog has no figure.
func (j *oracleJob) decodeRate(s *catalog.SKU, tp, stages, b int64) float64 {
	g := s.Performance.GPU
	if g == nil || g.MemoryBandwidthGBs == nil || b < 1 {
		return 0
	}
	gpus := float64(tp * stages)
	if s.GPU.Count < 1 {
		gpus *= s.GPU.Count
	}
	bandwidth := gpus * *g.MemoryBandwidthGBs * 1e9
	peak := gpus * oraclePeakTFLOPS(s, j.precision) * 1e12
	if bandwidth <= 0 || peak <= 0 {
		return 0
	}
	read := j.weights*GiB*min(1, j.active/j.params*float64(b)) + float64(b)*j.kvPerSeq*GiB*KVReadShare
	memory := read / (bandwidth * InferenceMBU)
	perToken := 2 * j.active * 1e9 / (1 - PromptShare) // an output token and its prompt's share of prefill
	compute := float64(b) * perToken / (peak * InferenceMFU)
	return float64(b) / max(memory, compute)
}

// oracleUsableGiB is the memory one GPU of a size exposes to a job: the
// catalog's usable figure where known (a partial GPU's share of it), else
// the nominal memory (a partial GPU's slice).
func oracleUsableGiB(s *catalog.SKU) float64 {
	g := s.GPU
	if p := s.Performance.GPU; p != nil && p.UsableMemoryGiB != nil {
		if g.Count < 1 {
			return *p.UsableMemoryGiB * g.Count
		}
		return *p.UsableMemoryGiB
	}
	return g.MemoryGiB
}

// oracleLayout is how a size holds a job's GPU memory: the VMs, the VMs one
// copy of the model spans (pipeline stages; 1 unless serving) and, for a
// served model, the tensor-parallel degree, the copies every concurrent
// sequence needs and the whole sequences one copy's KV cache holds.
type oracleLayout struct {
	nodes, stages       int64
	tp, copies, perCopy int64
}

// gpuLayout lays the job's GPU memory out on a GPU size with at most maxVMs
// VMs, exactly fixed VMs when fixed > 0, of which one job (one copy of the
// model, for inference) spans at most span. It returns the layout, or the
// constraint the size fails. A layout that needs more VMs than allowed
// fails gpu_memory ("the job does not fit on the VMs allowed", the
// constraint table's words), also when its copies or its replicated
// activations are what needs them, and so does a copy whose weights alone
// are more than span VMs hold. One GPU that cannot hold what the split
// leaves it at any VM count (the whole model of a data-parallel job, the
// replicated activations, a copy whose pipeline would need more VMs than
// it may span although they hold its weights) fails gpu_memory_per_gpu,
// unless the job's total is more than the VMs allowed hold (gpu_memory).
func (j *oracleJob) gpuLayout(s *catalog.SKU, maxVMs, span, fixed int64) (l oracleLayout, failed string) {
	g := s.GPU
	units := int64(1) // a partial GPU is one unit of its slice
	if g.Count >= 1 {
		units = int64(g.Count)
	}
	perGPU := oracleUsableGiB(s)
	if j.split == oracleServing {
		perGPU *= ServingMemoryShare
	}
	if perGPU <= 0 {
		return l, "gpu_memory"
	}
	span = min(span, maxVMs)
	room := span // the VMs that may hold the job's total
	if j.split == oracleServing && j.kvPerSeq > 0 {
		room = maxVMs // copies on separate VMs hold the KV cache
	}
	perGPUFails := "gpu_memory_per_gpu"
	if j.gpuMem > float64(room*units)*perGPU+1e-9 {
		perGPUFails = "gpu_memory"
	}
	switch j.split {
	case oracleDataParallel:
		if j.shard > perGPU+1e-9 {
			return l, perGPUFails
		}
		return oracleLayout{nodes: max(fixed, 1), stages: 1}, ""

	case oracleServing:
		// Tensor-parallel degrees: the divisors of the VM's GPUs that
		// divide the attention heads, smallest first.
		var degrees []int64
		for d := int64(1); d <= units; d++ {
			if units%d == 0 && (j.heads == 0 || j.heads%d == 0) {
				degrees = append(degrees, d)
			}
		}
		kvGPUs := func(tp int64) int64 { // the GPUs of a copy holding distinct KV
			if j.kvHeads > 0 && j.kvHeads < tp {
				return j.kvHeads
			}
			return tp
		}
		// The degree: the smallest whose share of the weights fits a GPU
		// and whose copies on one VM hold every sequence within 85% of the
		// VM's serving memory, else within all of it, else the largest.
		tp := degrees[len(degrees)-1]
	choose:
		for _, within := range []float64{0.85, 1} {
			for _, d := range degrees {
				copiesPerVM := float64(units / d)
				if j.shard/float64(d) < perGPU && copiesPerVM*j.shard+float64(j.seqs)*j.kvPerSeq*float64(d)/float64(kvGPUs(d)) <= within*float64(units)*perGPU+1e-9 {
					tp = d
					break choose
				}
			}
		}
		// Pipeline stages: the fewest VMs whose GPUs hold a copy with one
		// sequence; when that is more than one, the count that needs the
		// fewest VMs for every sequence (fewer stages on a tie).
		oneSequence := j.shard/float64(tp) + j.kvPerSeq/float64(kvGPUs(tp))
		stages := int64(1)
		for float64(stages) < oneSequence/perGPU-1e-9 {
			stages++
		}
		if stages > span {
			if j.shard > float64(span*units)*perGPU+1e-9 {
				return l, "gpu_memory"
			}
			return l, perGPUFails
		}
		perGroup := units / tp
		// copiesWith is the copies every sequence needs with st stages,
		// and the whole sequences one copy's KV room holds, at most the
		// 256 one copy decodes together (vLLM's max_num_seqs): more
		// concurrency takes more copies.
		copiesWith := func(st int64) (copies, perCopy int64) {
			if j.kvPerSeq <= 0 {
				return 1, 0
			}
			room := (perGPU - j.shard/float64(tp*st)) * float64(kvGPUs(tp)*st)
			perCopy = min(max(int64(math.Floor(room/j.kvPerSeq+1e-9)), 1), MaxBatchSequences)
			return (j.seqs + perCopy - 1) / perCopy, perCopy
		}
		vmsWith := func(st int64) int64 {
			copies, _ := copiesWith(st)
			return (copies + perGroup - 1) / perGroup * st
		}
		nodes := vmsWith(stages)
		if stages > 1 {
			for st := stages + 1; st <= span; st++ {
				if v := vmsWith(st); v < nodes {
					nodes, stages = v, st
				}
			}
		}
		if fixed > 0 && nodes <= fixed {
			nodes = fixed
		}
		if nodes > maxVMs {
			return l, "gpu_memory"
		}
		copies, perCopy := copiesWith(stages)
		return oracleLayout{nodes: nodes, stages: stages, tp: tp, copies: copies, perCopy: perCopy}, ""

	default: // oracleTotal, oracleSharded
		// Each GPU holds the replicated part whole and its share of the
		// rest; the fewest VMs whose GPUs hold it, within the VMs one job
		// may span.
		if j.replicated >= perGPU {
			return l, perGPUFails
		}
		k := max(int64(math.Ceil((j.shard-j.replicated)/(float64(units)*(perGPU-j.replicated))-1e-9)), 1)
		if k > span {
			return l, "gpu_memory"
		}
		return oracleLayout{nodes: max(k, fixed), stages: 1}, ""
	}
}

// oracleEvaluate checks one size against a valid request, the way the
// Constraints documentation describes each constraint.
func oracleEvaluate(cat *catalog.Catalog, req Request, j *oracleJob, s *catalog.SKU) oracleEval {
	e := oracleEval{sku: s, fails: map[string]bool{}, nodes: 1}
	fail := func(c string) { e.fails[c] = true }
	day := req.AsOf
	if day.IsZero() {
		day = cat.DataDate
	}
	y, m, d := day.UTC().Date()
	day = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	months := int64(DefaultMinLifetimeMonths)
	if req.MinLifetimeMonths != nil {
		months = *req.MinLifetimeMonths
	}
	if s.RetiredAt(day) {
		fail("retired")
	}
	if rt, ok := s.RetirementTime(); ok && rt.Before(day.AddDate(0, int(months), 0)) {
		fail("min_lifetime_months")
	}
	if s.Lifecycle.Status == catalog.StatusPreview && !req.IncludePreview {
		fail("preview")
	}
	// An availability file that lists a size shows it can be deployed.
	if !s.Deployable && len(s.Availability) == 0 {
		fail("deployable")
	}
	g := s.GPU
	known := s.VCPUs != nil && s.MemoryGiB != nil && (g == nil || g.Count > 0)
	if !known {
		fail("unknown_specs")
	}
	vendor := ""
	if g != nil {
		vendor = strings.ToLower(g.Vendor)
	}
	ccMaj, ccMin, ccOK := 0, 0, false
	if g != nil {
		ccMaj, ccMin, ccOK = oracleVersion(g.ComputeCapability)
		ccOK = ccOK && g.ComputeCapability != ""
	}
	if !slices.Contains(j.families, s.Family) || (g != nil) != (j.category == "gpu") {
		fail("workload")
	}
	if req.Workload == "data_processing" {
		minMaj, minMin, _ := oracleVersion(DataProcessingMinComputeCapability)
		if vendor != "nvidia" || !ccOK || versionBelow(ccMaj, ccMin, minMaj, minMin) {
			fail("workload")
		}
	}
	if s.Confidential != (req.Confidential != nil && *req.Confidential) {
		fail("confidential")
	}
	if req.Isolated != nil && s.Isolated != *req.Isolated {
		fail("isolated")
	}
	if v := strings.ToLower(req.GPUVendor); v != "" && v != "any" && vendor != v {
		fail("gpu_vendor")
	}
	if len(req.GPUModels) > 0 {
		ok := false
		for _, m := range req.GPUModels {
			m = strings.TrimSpace(m)
			if g != nil && (strings.EqualFold(m, g.ModelID) || strings.EqualFold(m, g.Model)) {
				ok = true
			}
		}
		if !ok {
			fail("gpu_models")
		}
	}
	if req.CUDAVersion != "" {
		maj, mnr, _ := oracleVersion(req.CUDAVersion)
		if vendor != "nvidia" || int64(maj) > g.MaxCUDAMajor {
			fail("cuda_version")
		} else if gMaj, gMin, ok := oracleVersion(g.MinCUDA); ok && g.MinCUDA != "" && versionBelow(maj, mnr, gMaj, gMin) {
			fail("cuda_version")
		}
	}
	if req.MinComputeCapability != "" {
		maj, mnr, _ := oracleVersion(req.MinComputeCapability)
		if !ccOK || versionBelow(ccMaj, ccMin, maj, mnr) {
			fail("min_compute_capability")
		}
	}
	// Training needs one of the precisions natively; a size without a GPU
	// passes (the workload constraint removes it).
	if g != nil && len(j.trainIn) > 0 {
		native := false
		for _, p := range g.Precisions {
			native = native || slices.Contains(j.trainIn, strings.ToLower(p))
		}
		if !native {
			fail("precision")
		}
	}
	if targetSupport(s, req.Target) == catalog.SupportUnsupported {
		fail("target")
	}

	// The price the caps compare: the region's (spot where asked and
	// known), or without a region the lowest over all regions.
	var price float64
	hasPrice := false
	if region := strings.ToLower(strings.TrimSpace(req.Region)); region != "" {
		p, priced := s.Prices[region]
		if priced {
			price, hasPrice = p.USDPerHour, true
			if req.Spot && p.SpotUSDPerHour != nil {
				price = *p.SpotUSDPerHour
			}
		}
		if s.HasAvailability() {
			if ra, listed := s.AvailabilityIn(region); !listed {
				fail("region")
			} else if ra.LocationRestriction() != nil {
				fail("availability")
			}
		} else if !priced {
			fail("region")
		}
	} else {
		lowest, lowestSpot := math.Inf(1), math.Inf(1)
		for _, p := range s.Prices {
			lowest = min(lowest, p.USDPerHour)
			if p.SpotUSDPerHour != nil {
				lowestSpot = min(lowestSpot, *p.SpotUSDPerHour)
			}
		}
		switch {
		case req.Spot && !math.IsInf(lowestSpot, 1):
			price, hasPrice = lowestSpot, true
		case !math.IsInf(lowest, 1):
			price, hasPrice = lowest, true
		}
	}

	var vcpus int64
	var mem, disk float64
	if s.VCPUs != nil {
		vcpus = *s.VCPUs
	}
	// Memory fit counts on the smaller of the documented and the allotted
	// memory.
	if s.MemoryGiB != nil {
		mem = *s.MemoryGiB
		if s.MemoryGiBAllotted != nil && *s.MemoryGiBAllotted < mem {
			mem = *s.MemoryGiBAllotted
		}
	}
	if s.TempDiskGiB != nil {
		disk += float64(*s.TempDiskGiB)
	}
	if s.LocalNVMeGiB != nil {
		disk += float64(*s.LocalNVMeGiB)
	}
	if req.MinVCPUs != nil && *req.MinVCPUs > 0 && vcpus < *req.MinVCPUs {
		fail("min_vcpus")
	}
	if req.MinMemoryGiB != nil && *req.MinMemoryGiB > 0 && mem < *req.MinMemoryGiB {
		fail("min_memory_gib")
	}
	if req.MinLocalDiskGiB != nil && *req.MinLocalDiskGiB > 0 && disk < *req.MinLocalDiskGiB {
		fail("min_local_disk_gib")
	}

	// InfiniBand for a layout: interconnect = "infiniband" always,
	// "any" never; "auto" for hpc, and for a job one copy of which spans
	// VMs (except htc's independent tasks).
	ibFor := func(spans bool) bool {
		switch req.Interconnect {
		case "infiniband":
			return true
		case "any":
			return false
		}
		return req.Workload == "hpc" || (spans && req.Workload != "htc")
	}
	var fixed int64
	if req.Nodes != nil {
		fixed = *req.Nodes
	}
	// Layout: the most VMs any need asks for, and the need that asks.
	nodes, driver := int64(1), ""
	need := func(k int64, c string) {
		if k > nodes {
			nodes, driver = k, c
		}
	}
	served, stages := false, int64(1) // the GPU memory is laid out as served copies
	var lay oracleLayout
	if known {
		if j.gpuMem > 0 {
			if g == nil || g.MemoryGiBTotal <= 0 {
				fail("gpu_memory")
			} else {
				// Copies on separate VMs need no InfiniBand, so a served
				// model may use every VM a scale set holds; a job that
				// spans VMs as one needs InfiniBand unless "any".
				// One job spans at most 100 VMs with InfiniBand, and one
				// VM on a size without it when it needs it.
				span := int64(MaxNodes)
				if ibFor(true) {
					span = MaxNodesRDMA
					if !s.Network.RDMA {
						span = 1
					}
				}
				maxVMs := span
				if j.split == oracleServing {
					maxVMs = MaxNodes
				}
				if fixed > 0 {
					maxVMs = min(fixed, maxVMs)
				}
				l, failed := j.gpuLayout(s, maxVMs, span, fixed)
				if failed != "" {
					fail(failed)
				} else {
					lay = l
					need(l.nodes, "gpu_memory")
					served, stages = j.split == oracleServing, l.stages
				}
			}
		}
		if req.GPUs != nil && *req.GPUs > 0 {
			if g == nil || g.Count < 1 {
				fail("gpus")
			} else {
				need(oracleVMs(float64(*req.GPUs), g.Count), "gpus")
			}
		}
		if req.Cores != nil && *req.Cores > 0 && (req.Workload == "hpc" || req.Workload == "htc") {
			need(oracleVMs(float64(*req.Cores), float64(vcpus)), "cores")
		}
		switch {
		case j.sysMem <= 0:
		case served:
			// Each VM holds its stage's share of a copy's weights.
			if j.sysMem/float64(stages) > mem+1e-9 {
				fail("system_memory")
			}
		default:
			need(oracleVMs(j.sysMem, mem), "system_memory")
		}
	}
	// Time: a training job scales out until it meets the deadline, within
	// the VMs one job may span (100: over InfiniBand, or over Ethernet with
	// interconnect "any"; one on a size without InfiniBand when the job
	// needs it). A stated deadline it cannot meet there removes the size;
	// the default one never does: the job runs longer on the most VMs it
	// may span. A size the catalog has no figure for is not timed.
	if j.flops > 0 && known && g != nil && !e.fails["gpu_memory"] && !e.fails["gpu_memory_per_gpu"] {
		ethernet := !ibFor(true)
		late := func(k int64) bool { return j.trainingHours(s, k, ethernet) > j.deadline }
		switch {
		case fixed > 0:
			if j.deadlineStated && late(fixed) {
				fail("deadline")
			}
		case late(nodes):
			span := int64(MaxNodesRDMA)
			if !ethernet && !s.Network.RDMA {
				span = 1
			}
			k := nodes
			for k < span && late(k) {
				k++
			}
			switch {
			case !late(k):
				need(k, "deadline")
			case j.deadlineStated:
				fail("deadline")
			default:
				need(span, "deadline")
			}
		}
	}
	// Throughput: a served language model gets the copies that sustain
	// tokens_per_second, each decoding the sequences its KV cache holds
	// (at most vLLM's 256) and at least its share of the concurrent ones;
	// they fill the VMs a copy spans, the VM's GPUs ÷ the tensor-parallel
	// degree copies to each group of them.
	// With concurrent_requests stated, the copies share them: the fewest
	// copies whose share reaches the rate, found by trying each count.
	if j.tps > 0 && served {
		units := max(int64(g.Count), 1)
		perGroup := units / lay.tp
		copies := int64(0)
		if req.ConcurrentRequests == nil {
			b := min(max((j.seqs+lay.copies-1)/lay.copies, lay.perCopy), MaxBatchSequences)
			if r := j.decodeRate(s, lay.tp, lay.stages, b); r > 0 {
				copies = int64(math.Ceil(j.tps/r - 1e-9))
			}
		} else if j.decodeRate(s, lay.tp, lay.stages, 1) > 0 {
			copies = MaxNodes*max(perGroup, 1) + 1
			// Every stated sequence decodes; more copies shrink the batch.
			for c := max(lay.copies, 1); c <= j.seqs; c++ {
				b := min((j.seqs+c-1)/c, MaxBatchSequences)
				if j.decodeRate(s, lay.tp, lay.stages, b)/float64(b)*float64(j.seqs) >= j.tps-1e-9 {
					copies = c
					break
				}
			}
		}
		if copies > lay.copies {
			need((copies+perGroup-1)/perGroup*lay.stages, "tokens_per_second")
		}
	}
	if fixed > 0 {
		if nodes > fixed {
			fail(driver)
		}
		nodes = fixed
	}
	e.nodes = nodes
	if j.flops > 0 && known && g != nil && !j.deadlineStated {
		e.late = j.trainingHours(s, nodes, !ibFor(true)) > j.deadline
	}
	// One job spans VMs: a served copy with pipeline stages; any other job
	// on more than one VM.
	e.spans = nodes > 1
	if served {
		e.spans = stages > 1
	}
	ib := ibFor(e.spans)
	limit := int64(MaxNodes)
	if ib {
		limit = MaxNodesRDMA
	}
	if nodes > limit {
		if fixed > 0 {
			fail("nodes")
		} else {
			fail(driver)
		}
	}
	if ib && !s.Network.RDMA {
		fail("interconnect")
	}
	if req.MaxPricePerHour != nil && *req.MaxPricePerHour > 0 && (!hasPrice || price > *req.MaxPricePerHour) {
		fail("max_price_per_hour")
	}
	if req.MaxTotalPricePerHour != nil && *req.MaxTotalPricePerHour > 0 && (!hasPrice || price*float64(nodes) > *req.MaxTotalPricePerHour) {
		fail("max_total_price_per_hour")
	}
	return e
}

// oracleEvaluateAll evaluates every size of cat, scale_up included: when
// some size holds the job (one copy of the model, for inference) on one VM,
// sizes that pass every other constraint with a job that spans VMs go,
// unless named in prefer (never for hpc, htc or a fixed nodes setting).
// Copies of a model on separate VMs (replicas) are not such a layout, and
// a size that holds a training job on one VM but runs it past the default
// deadline does not hold it: scaling up must not cost the time scaling
// out was for ("more VMs only when none does", in time as in memory).
func oracleEvaluateAll(cat *catalog.Catalog, req Request) []oracleEval {
	eng, err := NewEngine(cat)
	if err != nil {
		panic(err)
	}
	j := oracleJobOf(cat, eng, req)
	evals := make([]oracleEval, 0, len(cat.SKUs()))
	single := false
	for _, s := range cat.SKUs() {
		e := oracleEvaluate(cat, req, j, s)
		single = single || (len(e.fails) == 0 && !e.spans && !e.late)
		evals = append(evals, e)
	}
	named := map[*catalog.SKU]bool{}
	for _, p := range req.Prefer {
		if s, ok := cat.Lookup(p); ok {
			named[s] = true
		}
	}
	if single && req.Nodes == nil && req.Workload != "hpc" && req.Workload != "htc" {
		for i := range evals {
			if e := &evals[i]; len(e.fails) == 0 && e.spans && !named[e.sku] {
				e.fails["scale_up"] = true
			}
		}
	}
	return evals
}

// oracleRejections are the rejections a result for req on cat must report,
// without their reasons: per constraint in evaluation order, the number of
// sizes counted under it and the first three of them in catalog order.
func oracleRejections(cat *catalog.Catalog, req Request) []Rejection {
	byConstraint := map[string]*Rejection{}
	for _, e := range oracleEvaluateAll(cat, req) {
		c := e.firstFailure()
		if c == "" {
			continue
		}
		r := byConstraint[c]
		if r == nil {
			r = &Rejection{Constraint: c}
			byConstraint[c] = r
		}
		r.Count++
		if len(r.Examples) < 3 {
			r.Examples = append(r.Examples, e.sku.Name)
		}
	}
	var out []Rejection
	for _, c := range oracleConstraints {
		if r := byConstraint[c]; r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// rejectedBy names the constraint the oracle counts a size under for req,
// or "" when the size passes.
func rejectedBy(t *testing.T, cat *catalog.Catalog, req Request, name string) string {
	t.Helper()
	s, ok := cat.Lookup(name)
	if !ok {
		t.Fatalf("%s is not in the catalog", name)
	}
	for _, e := range oracleEvaluateAll(cat, req) {
		if e.sku == s {
			return e.firstFailure()
		}
	}
	return ""
}

// checkRejections compares a result's rejections, reasons aside, with the
// oracle's for the same catalog and request.
func checkRejections(t *testing.T, cat *catalog.Catalog, req Request, got []Rejection) {
	t.Helper()
	want := oracleRejections(cat, req)
	stripped := make([]Rejection, len(got))
	for i, r := range got {
		stripped[i] = Rejection{Constraint: r.Constraint, Count: r.Count, Examples: r.Examples}
	}
	if !reflect.DeepEqual(stripped, want) {
		t.Errorf("rejections differ from the oracle's:\n got  %s\n want %s", formatRejections(stripped), formatRejections(want))
	}
}

func formatRejections(rs []Rejection) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %d %v", r.Constraint, r.Count, r.Examples)
	}
	return strings.Join(parts, "; ")
}

// The oracle knows the same constraints, in the same order, as the engine.
func TestOracleConstraintOrder(t *testing.T) {
	if !reflect.DeepEqual(oracleConstraints, Constraints()) {
		t.Errorf("oracle order %v, engine %v", oracleConstraints, Constraints())
	}
}

// holds re-checks, from a recommendation's own layout (its VMs, copies,
// tensor-parallel degree and pipeline stages), that every GPU holds its
// share of the job and every VM its system memory, and that the size runs
// the training precision; it returns what does not hold, or "". It checks
// that the layout fits, not that it is the one the rules choose: the
// rejection counts (oracleRejections) pin the choice.
func (j *oracleJob) holds(r Recommendation) string {
	s := r.SKU
	g := s.GPU
	served := j.split == oracleServing && j.gpuMem > 0 && g != nil
	if !served && (r.Replicas != 1 || r.TensorParallel != 0 || r.PipelineStages != 0) {
		return fmt.Sprintf("replicas %d, tensor parallel %d, pipeline stages %d for a job that is not a served model", r.Replicas, r.TensorParallel, r.PipelineStages)
	}
	if g != nil && len(j.trainIn) > 0 {
		native := false
		for _, p := range g.Precisions {
			native = native || slices.Contains(j.trainIn, strings.ToLower(p))
		}
		if !native {
			return "precision: the GPU runs none of " + strings.Join(j.trainIn, ", ") + " natively"
		}
	}
	var mem float64
	if s.MemoryGiB != nil {
		mem = min(*s.MemoryGiB, memOr(s.MemoryGiBAllotted, *s.MemoryGiB))
	}
	if j.gpuMem <= 0 || g == nil {
		if j.sysMem > 0 && float64(r.Nodes)*mem+1e-9 < j.sysMem {
			return fmt.Sprintf("system memory: %d VMs of %v GiB for %v GiB", r.Nodes, mem, j.sysMem)
		}
		return ""
	}
	units := int64(1)
	if g.Count >= 1 {
		units = int64(g.Count)
	}
	usable := oracleUsableGiB(s)
	switch j.split {
	case oracleServing:
		tp, pp, copies := r.TensorParallel, r.PipelineStages, r.Replicas
		if tp < 1 || pp < 1 || copies < 1 {
			return fmt.Sprintf("served model with replicas %d, tensor parallel %d, pipeline stages %d", copies, tp, pp)
		}
		if units%tp != 0 || (j.heads > 0 && j.heads%tp != 0) {
			return fmt.Sprintf("tensor-parallel degree %d does not divide the %d GPUs and %d attention heads", tp, units, j.heads)
		}
		if pp > r.Nodes || copies > r.Nodes/pp*(units/tp) {
			return fmt.Sprintf("%d copies of %d stages and %d GPUs on %d VMs of %d GPUs", copies, pp, tp, r.Nodes, units)
		}
		perGPU := usable * ServingMemoryShare
		kvGPUs := tp
		if j.kvHeads > 0 && j.kvHeads < tp {
			kvGPUs = j.kvHeads
		}
		weights := j.shard / float64(tp*pp)
		if weights > perGPU+1e-9 {
			return fmt.Sprintf("each GPU holds %v GiB of weights, more than the %v GiB it may use", weights, perGPU)
		}
		if j.kvPerSeq > 0 {
			// Whole sequences: each copy holds those its GPUs' room
			// leaves after the weights, and decodes at most 256.
			perCopy := min(int64(math.Floor((perGPU-weights)*float64(kvGPUs*pp)/j.kvPerSeq+1e-9)), MaxBatchSequences)
			if perCopy < 1 || perCopy*copies < j.seqs {
				return fmt.Sprintf("%d copies holding %d sequences each cannot serve %d", copies, perCopy, j.seqs)
			}
		}
		// Each VM holds its stage's share of a copy's weights in system
		// memory.
		if j.sysMem/float64(pp) > mem+1e-9 {
			return fmt.Sprintf("system memory: %v GiB per VM for %v GiB over %d stages", mem, j.sysMem, pp)
		}
	case oracleDataParallel:
		if j.shard > usable+1e-9 {
			return fmt.Sprintf("one GPU holds the whole model (%v GiB), more than its %v GiB", j.shard, usable)
		}
	default:
		share := j.replicated + (j.shard-j.replicated)/float64(units*r.Nodes)
		if share > usable+1e-9 {
			return fmt.Sprintf("each of %d GPUs holds %v GiB, more than its %v GiB", units*r.Nodes, share, usable)
		}
		if j.sysMem > 0 && float64(r.Nodes)*mem+1e-9 < j.sysMem {
			return fmt.Sprintf("system memory: %d VMs of %v GiB for %v GiB", r.Nodes, mem, j.sysMem)
		}
	}
	return ""
}
