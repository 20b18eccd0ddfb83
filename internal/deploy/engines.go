// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package deploy

// This file holds the settings the engines take: the serving engines'
// arguments for the layout a served model's estimate used, and a training
// job's launcher settings.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The serving engines' versions whose flags the arguments use (argparse,
// so --flag=value is accepted):
//   - vLLM v0.16.0, vllm-project/vllm@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb:
//     vllm/engine/arg_utils.py (--tensor-parallel-size, --pipeline-parallel-size,
//     --data-parallel-size, --max-num-seqs, --max-model-len, --kv-cache-dtype,
//     --quantization, --gpu-memory-utilization, --distributed-executor-backend,
//     --nnodes, --node-rank, --master-addr, --hf-overrides), vllm/entrypoints/openai/cli_args.py
//     (--headless), docs/serving/parallelism_scaling.md (multi-node).
//   - SGLang v0.5.15.post1, sgl-project/sglang@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd:
//     python/sglang/srt/server_args.py (--tp-size, --pp-size, --dp-size,
//     --max-running-requests, --context-length, --kv-cache-dtype,
//     --quantization, --mem-fraction-static, --nnodes, --node-rank,
//     --dist-init-addr, --json-model-override-args),
//     docs/references/multi_node_deployment/multi_node.md.
//
// Flags at the engine's default are left out: pipeline and data-parallel
// sizes of 1, the KV cache's auto dtype, and vLLM's
// --gpu-memory-utilization of VLLMDefaultMemoryShare (vllm/config/cache.py).
const (
	VLLMVersion            = "v0.16.0"
	SGLangVersion          = "v0.5.15.post1"
	VLLMDefaultMemoryShare = 0.9
)

// VLLMROCmTargets are the AMD GPU architectures vLLM's ROCm build
// supports: its installation requirements list MI200s (gfx90a), MI300
// (gfx942), MI350 (gfx950), Radeon RX 7900 (gfx1100/1101), Radeon RX 9000
// (gfx1200/1201) and Ryzen AI MAX / AI 300 (gfx1151/1150)
// (vllm-project/vllm:docs/getting_started/installation/gpu.rocm.inc.md@b4ae92e37450502be9b09de59f56386c6a7519ed).
// vLLM arguments are given for no other AMD GPU.
var VLLMROCmTargets = []string{"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1200", "gfx1201", "gfx1150", "gfx1151"}

// SGLangROCmTargets are the AMD GPU architectures SGLang's ROCm build
// supports: its kernels build for MI300 (gfx942) and MI350 (gfx950) and
// stop on any other GPU they detect ("Expected 'gfx942' or 'gfx950'";
// another architecture named by hand is "untested upstream")
// (sgl-project/sglang:sgl-kernel/setup_rocm.py@01b582cb0e3bc89eef018e9a7c305fd3c694c04a).
// SGLang arguments are given for no other AMD GPU.
var SGLangROCmTargets = []string{"gfx942", "gfx950"}

// SGLangMinComputeCapability is the lowest NVIDIA compute capability × 10
// SGLang serves on: its model runner stops on an older GPU ("SGLang only
// supports sm75 and above.", ModelRunner.load_model,
// sgl-project/sglang:python/sglang/srt/model_executor/model_runner.py@0005834cdb2a5b7472789ccbf0d3361b5cf853b8).
// SGLang arguments are given for no older GPU (Volta's V100, 7.0).
const SGLangMinComputeCapability = 75

// Placeholders a copy that spans VMs takes for each VM's own values.
const (
	HeadAddressPlaceholder = "${HEAD_ADDRESS}"
	NodeRankPlaceholder    = "${NODE_RANK}"
	// SGLangInitPort is the port of SGLang's --dist-init-addr in its
	// multi-node documentation.
	SGLangInitPort = 20000
)

// ServedLayout is a served model's layout as its estimate used it.
type ServedLayout struct {
	// TP is the tensor-parallel degree of a copy (GPUs of one VM), PP its
	// pipeline stages (VMs), CopiesPerVM the copies each VM (group of PP
	// VMs) runs side by side, Copies the copies of the layout.
	TP, PP, CopiesPerVM, Copies int64
	// SeqsPerCopy is the most sequences one copy decodes together
	// (estimate.sequences_per_copy); Context the tokens of a sequence,
	// MeanContext whether it is the mean prompt plus the mean output (no
	// context_tokens stated), which longer requests exceed.
	SeqsPerCopy, Context int64
	MeanContext          bool
	// Precision is the precision the weights are served in; Checkpoint
	// the published precision of the named model's checkpoint ("" for a
	// model described by its size).
	Precision, Checkpoint string
	KVFP8                 bool    // the KV cache is stored in fp8
	MemoryShare           float64 // the share of each GPU's memory the engine takes
	// CC is the GPU's compute capability × 10 (0 for AMD); GfxTarget an
	// AMD GPU's architecture ("" for NVIDIA). NoVLLMINT8 marks an NVIDIA
	// GPU outside vLLM's INT8 W8A8 window (perfmodel.INT8W8A8, the window's
	// one home, which the engine reads), where vLLM serves no int8 model.
	CC         int
	GfxTarget  string
	NoVLLMINT8 bool
	// ConfigContext is the context the named model's checkpoint config
	// allows where it is below the model's maximum (0 otherwise), and YaRN
	// the RoPE scaling that reaches the maximum (nil otherwise).
	ConfigContext int64
	YaRN          *catalog.YaRNDoc
}

// needsYaRN reports whether the served context is above the checkpoint
// config's, which the engines refuse unless YaRN is turned on.
func (sv *ServedLayout) needsYaRN() bool {
	return sv.YaRN != nil && sv.ConfigContext > 0 && sv.Context > sv.ConfigContext
}

// servingFor is a served layout's engine arguments; nil for a CPU size or
// without a served layout.
func servingFor(l *Layout) *ServingDeployment {
	sv := l.Served
	if sv == nil || l.SKU.GPU == nil || sv.TP < 1 {
		return nil
	}
	quant, quantNote := quantization(sv)
	d := &ServingDeployment{VLLMArgs: vllm.args(sv, quant), SGLangArgs: sglang.args(sv, quant)}
	var notes []string
	if quantNote != "" {
		notes = append(notes, quantNote)
	}
	if note := rocmSupport(d, sv.GfxTarget); note != "" {
		notes = append(notes, note)
	}
	if note := sglangCUDASupport(d, sv); note != "" {
		notes = append(notes, note)
	}
	if sv.Precision == "int8" && sv.NoVLLMINT8 {
		d.VLLMArgs = nil
		notes = append(notes, "vLLM's INT8 W8A8 kernels do not run on compute capability "+ccText(sv.CC)+" (vLLM's INT8 W8A8 page): serve the int8 model with SGLang, or at fp8.")
	}
	if note := yarnSupport(d, sv); note != "" {
		notes = append(notes, note)
	}
	if sv.MeanContext {
		notes = append(notes, "--max-model-len and --context-length are the mean prompt plus the mean output ("+catalog.GroupDigits(sv.Context)+" tokens), and the engines refuse a longer request: set context_tokens to the longest request to serve, which the estimate then sizes the KV cache for.")
	}
	if sv.PP > 1 {
		notes = append(notes, "One copy spans "+strconv.FormatInt(sv.PP, 10)+" VMs: run the same arguments on each with "+NodeRankPlaceholder+" its rank (0 on the head) and "+HeadAddressPlaceholder+" the head VM's private address; vLLM's other VMs also take --headless.")
	}
	d.Note = strings.Join(notes, " ")
	return d
}

// ccText writes a compute capability × 10 as NVIDIA does: 100 is "10.0".
func ccText(cc int) string { return strconv.Itoa(cc/10) + "." + strconv.Itoa(cc%10) }

// rocmSupport drops the arguments of each engine whose ROCm build does not
// support an AMD GPU's architecture gfx (VLLMROCmTargets,
// SGLangROCmTargets), and returns the note that says which engine serves
// it: "" for an NVIDIA GPU (gfx "") and where both do.
func rocmSupport(d *ServingDeployment, gfx string) string {
	if gfx == "" {
		return ""
	}
	vllmOK, sglangOK := slices.Contains(VLLMROCmTargets, gfx), slices.Contains(SGLangROCmTargets, gfx)
	if !vllmOK {
		d.VLLMArgs = nil
	}
	if !sglangOK {
		d.SGLangArgs = nil
	}
	vllmList, sglangList := strings.Join(VLLMROCmTargets, ", "), strings.Join(SGLangROCmTargets, " and ")
	switch {
	case !vllmOK && !sglangOK:
		return "Neither vLLM nor SGLang serves this GPU's architecture (" + gfx + "; vLLM's ROCm build lists " + vllmList + ", SGLang's " + sglangList + "): serve the model with another engine."
	case !vllmOK:
		return "vLLM's ROCm build does not support this GPU's architecture (" + gfx + "; it lists " + vllmList + "): serve it with SGLang."
	case !sglangOK:
		return "SGLang's ROCm build does not support this GPU's architecture (" + gfx + "; it lists " + sglangList + "): serve it with vLLM."
	}
	return ""
}

// sglangCUDASupport drops SGLang's arguments on an NVIDIA GPU below
// SGLangMinComputeCapability, and returns the note that says to serve it
// with vLLM; "" where SGLang runs (and for an AMD GPU, CC 0).
func sglangCUDASupport(d *ServingDeployment, sv *ServedLayout) string {
	if sv.GfxTarget != "" || sv.CC <= 0 || sv.CC >= SGLangMinComputeCapability {
		return ""
	}
	d.SGLangArgs = nil
	return "SGLang runs on compute capability " + FormatComputeCapability(SGLangMinComputeCapability) + " and later, not this GPU's " + FormatComputeCapability(sv.CC) + ": serve the model with vLLM."
}

// SGLangLongerContextEnv is the environment setting SGLang needs to serve a
// context above the one it derives from the model's config: with YaRN given
// by --json-model-override-args and its original_max_position_embeddings,
// get_context_length keeps the config's max_position_embeddings, and
// ModelConfig._derive_context_length refuses a longer --context-length
// unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is set
// (sgl-project/sglang:python/sglang/srt/utils/hf_transformers/common.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd
// L380-397, python/sglang/srt/configs/model_config.py@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd
// L675-707; its Qwen3-Next cookbook sets both).
const SGLangLongerContextEnv = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"

// yarnSupport is the note for a served context above the checkpoint
// config's (ServedLayout.needsYaRN), whose YaRN override the arguments
// carry; "" otherwise. SGLang takes YaRN by flag but still refuses the
// context without SGLangLongerContextEnv, which flags cannot set: its
// arguments are dropped, and the note gives them with the setting.
func yarnSupport(d *ServingDeployment, sv *ServedLayout) string {
	if !sv.needsYaRN() {
		return ""
	}
	y := sv.YaRN
	note := "The context of " + catalog.GroupDigits(sv.Context) + " tokens is above the " + catalog.GroupDigits(sv.ConfigContext) +
		" the checkpoint's config.json allows, which the engines refuse without RoPE scaling, so YaRN is turned on as the model card gives it (factor " +
		formatFactor(y.Factor) + " over " + catalog.GroupDigits(y.OriginalMaxPositionEmbeddings) +
		" positions) only because the context needs it: its static scaling can slightly lower quality on short texts."
	if d.SGLangArgs != nil {
		note += " SGLang keeps the config's " + catalog.GroupDigits(sv.ConfigContext) + " tokens as its limit even with YaRN unless " +
			SGLangLongerContextEnv + " is in its environment, which no argument sets, so sglang_args is null: to serve with SGLang, set " +
			SGLangLongerContextEnv + " and run it with " + strings.Join(d.SGLangArgs, " ") + " (the JSON quoted for a shell)."
		d.SGLangArgs = nil
	}
	return note
}

// formatFactor writes a YaRN factor as the model cards do: 4 is "4.0".
func formatFactor(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// yarnOverride is the JSON an engine's override flag takes to turn on a
// served model's YaRN, under key: the scaling with the RoPE base, which
// replaces the config's RoPE parameters whole (vLLM v0.16.0 sets a dict
// override after it has standardised them, so the base must be restated;
// SGLang's Qwen2 reads rope_theta from the same dict under transformers v5).
func yarnOverride(key string, y *catalog.YaRNDoc) string {
	return `{"` + key + `":{"rope_type":"yarn","factor":` + formatFactor(y.Factor) +
		`,"original_max_position_embeddings":` + strconv.FormatInt(y.OriginalMaxPositionEmbeddings, 10) +
		`,"rope_theta":` + strconv.FormatFloat(y.RopeTheta, 'f', -1, 64) + `}}`
}

// FormatComputeCapability writes a compute capability × 10 as NVIDIA does: 75 is "7.5".
func FormatComputeCapability(cc int) string { return strconv.Itoa(cc/10) + "." + strconv.Itoa(cc%10) }

// quantization is the --quantization value both engines take for the
// served precision, "" where the checkpoint's own quantization_config
// decides or none applies, and what the team must supply instead.
func quantization(sv *ServedLayout) (method, note string) {
	quantised := sv.Checkpoint != "" && !unquantised(sv.Checkpoint) // the published checkpoint names a quantization
	switch {
	case unquantised(sv.Precision) && quantised:
		return "", "The published " + sv.Checkpoint + " checkpoint names its quantization, which the engines apply as they load it: serve a " + sv.Precision + " checkpoint of the model for the " + sv.Precision + " weights this layout is sized for."
	case unquantised(sv.Precision):
		return "", ""
	case quantised && publishedAs(sv.Checkpoint) == sv.Precision:
		return "", "The published " + sv.Checkpoint + " checkpoint names its quantization: the engines read it from its quantization_config."
	case quantised:
		// Both engines refuse --quantization that contradicts the
		// checkpoint's quantization_config (vLLM's
		// ModelConfig._verify_quantization).
		return "", "Serve " + quantizedCheckpoint(sv) + ": the published " + sv.Checkpoint + " checkpoint names its own quantization, which the engines refuse to override."
	case sv.Precision == "fp8":
		return "fp8", "--quantization=fp8 quantizes the 16-bit checkpoint's weights to fp8 as it loads."
	}
	return "", "Serve " + quantizedCheckpoint(sv) + ": the engines read its method from the checkpoint."
}

// checkpointFormats are the quantized checkpoint formats vLLM loads for
// weights at a precision, which a note names: NVFP4 (NVIDIA Model
// Optimizer's, vllm-project/vllm:docs/features/quantization/modelopt.md@0024350b5da3ad174435e62a15273c0d3caba57b)
// and MXFP4 (vllm/model_executor/layers/quantization/mxfp4.py@007d50058a06dec0f82472d63c819244d460c40d)
// for fp4; AWQ and GPTQ for int4 and W8A8 for int8
// (docs/features/quantization/README.md@0328802bed2bb6ca346ea10acb61221a0c607768).
var checkpointFormats = map[string]string{
	"fp4":  "NVFP4 or MXFP4",
	"int4": "AWQ or GPTQ",
	"int8": "W8A8",
}

// AWQMinComputeCapability is the lowest NVIDIA compute capability × 10 on
// which vLLM runs AWQ checkpoints: its quantization hardware table marks
// AWQ unsupported on Volta (7.0) and supported from Turing (7.5), GPTQ
// supported on both (vllm-project/vllm:docs/features/quantization/README.md@0328802bed2bb6ca346ea10acb61221a0c607768).
// Below it an int4 checkpoint is GPTQ alone.
const AWQMinComputeCapability = 75

// checkpointFormatsOn are the checkpointFormats at precision p that vLLM
// loads on a GPU of compute capability cc × 10 (0: AMD, whose formats the
// table does not narrow here).
func checkpointFormatsOn(p string, cc int) (string, bool) {
	if p == "int4" && cc > 0 && cc < AWQMinComputeCapability {
		return "GPTQ; vLLM runs no AWQ below compute capability " + FormatComputeCapability(AWQMinComputeCapability), true
	}
	f, ok := checkpointFormats[p]
	return f, ok
}

// quantizedCheckpoint names a checkpoint quantized to the served
// precision, with the formats the engines load at it on the layout's GPU
// (checkpointFormatsOn).
func quantizedCheckpoint(sv *ServedLayout) string {
	if f, ok := checkpointFormatsOn(sv.Precision, sv.CC); ok {
		return "a checkpoint quantized to " + sv.Precision + " (" + f + ")"
	}
	return "a checkpoint quantized to " + sv.Precision
}

// unquantised reports whether weights of a precision are served as they
// are stored, with no quantization method: 16- and 32-bit floats.
func unquantised(p string) bool {
	switch strings.ToLower(p) {
	case "bf16", "fp16", "fp32", "tf32":
		return true
	}
	return false
}

// publishedAs maps a published precision to the precision it is served
// in (MXFP4 and NVFP4 are fp4, NF4 is int4).
func publishedAs(p string) string {
	switch p = strings.ToLower(p); p {
	case "mxfp4", "nvfp4":
		return "fp4"
	case "nf4":
		return "int4"
	}
	return p
}

// argList builds --flag=value arguments in one buffer: the strings it
// returns share one allocation (a recommendation's lists are built for
// every ranked size).
type argList struct {
	b    []byte
	ends []int
}

func (a *argList) add(flag, value string) {
	a.b = append(append(append(a.b, flag...), '='), value...)
	a.ends = append(a.ends, len(a.b))
}

func (a *argList) addInt(flag string, v int64) {
	a.b = strconv.AppendInt(append(append(a.b, flag...), '='), v, 10)
	a.ends = append(a.ends, len(a.b))
}

func (a *argList) list() []string {
	s, out, start := string(a.b), make([]string, len(a.ends)), 0
	for i, e := range a.ends {
		out[i], start = s[start:e], e
	}
	return out
}

func (a *argList) addFloat(flag string, v float64) {
	a.b = strconv.AppendFloat(append(append(a.b, flag...), '='), v, 'f', -1, 64)
	a.ends = append(a.ends, len(a.b))
}

// engine is one serving engine's names for the layout's settings: its
// flags, the KV cache dtype it calls fp8, the memory share it takes by
// default (0: one it computes, so the share is always stated), for a
// copy over several VMs its executor backend ("" for none) and the flag
// and port of the head VM's address, and the flag and key that override
// the model config's RoPE scaling.
type engine struct {
	tp, pp, dp, seqs, context, memory string
	kvFP8                             string
	defaultMemoryShare                float64
	backend, headFlag, headPort       string
	ropeFlag, ropeKey                 string
}

var (
	vllm = engine{
		tp: "--tensor-parallel-size", pp: "--pipeline-parallel-size", dp: "--data-parallel-size",
		seqs: "--max-num-seqs", context: "--max-model-len", memory: "--gpu-memory-utilization",
		kvFP8: "fp8", defaultMemoryShare: VLLMDefaultMemoryShare,
		backend: "mp", headFlag: "--master-addr",
		// vLLM v0.16.0 (transformers v4) reads RoPE scaling from
		// rope_parameters alone: --hf-overrides sets a dict-valued key on
		// the config after patch_rope_parameters has copied rope_scaling
		// into rope_parameters, so a rope_scaling override would be
		// ignored, and _get_and_verify_max_len derives the limit from
		// rope_parameters' YaRN (original_max_position_embeddings ×
		// factor) (vllm-project/vllm@2d5be1dd5ce2e44dfea53ea03ff61143da5137eb:
		// vllm/config/model.py L443-457, L487-488, L1956-1979;
		// vllm/transformers_utils/config.py L310-359, L709-718;
		// examples/offline_inference/context_extension.py).
		ropeFlag: "--hf-overrides", ropeKey: "rope_parameters",
	}
	// SGLang has no bare fp8 KV cache dtype (fp8_e4m3 is the format vLLM's
	// fp8 means), and computes its default memory share from the GPU's
	// memory.
	sglang = engine{
		tp: "--tp-size", pp: "--pp-size", dp: "--dp-size",
		seqs: "--max-running-requests", context: "--context-length", memory: "--mem-fraction-static",
		kvFP8:    "fp8_e4m3",
		headFlag: "--dist-init-addr", headPort: ":" + strconv.Itoa(SGLangInitPort),
		// SGLang applies --json-model-override-args with config.update;
		// under its transformers v5 rope_scaling stands for
		// rope_parameters, which its Qwen models read
		// (sgl-project/sglang@0b3bb0cbe31873994c9f989fddfe2f87ca839fdd:
		// python/sglang/srt/utils/hf_transformers/config.py L233-234,
		// python/sglang/srt/layers/rotary_embedding/factory.py L34-51,
		// python/pyproject.toml transformers==5.12.1).
		ropeFlag: "--json-model-override-args", ropeKey: "rope_scaling",
	}
)

// args are the engine's arguments for the layout, flags at the engine's
// default left out: pipeline and data-parallel sizes of 1, the auto KV
// cache dtype, its own memory share.
func (e *engine) args(sv *ServedLayout, quant string) []string {
	a := argList{b: make([]byte, 0, 320), ends: make([]int, 0, 12)}
	a.addInt(e.tp, sv.TP)
	if sv.PP > 1 {
		a.addInt(e.pp, sv.PP)
	}
	if sv.CopiesPerVM > 1 {
		a.addInt(e.dp, sv.CopiesPerVM)
	}
	a.addInt(e.seqs, sv.SeqsPerCopy)
	a.addInt(e.context, sv.Context)
	if sv.KVFP8 {
		a.add("--kv-cache-dtype", e.kvFP8)
	}
	if sv.MemoryShare != e.defaultMemoryShare {
		a.addFloat(e.memory, sv.MemoryShare)
	}
	if quant != "" {
		a.add("--quantization", quant)
	}
	if sv.needsYaRN() {
		a.add(e.ropeFlag, yarnOverride(e.ropeKey, sv.YaRN))
	}
	if sv.PP > 1 {
		if e.backend != "" {
			a.add("--distributed-executor-backend", e.backend)
		}
		a.addInt("--nnodes", sv.PP)
		a.add("--node-rank", NodeRankPlaceholder)
		a.add(e.headFlag, HeadAddressPlaceholder+e.headPort)
	}
	return a.list()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// launchFor is a training job's launcher settings: torchrun's node and
// process counts and the NCCL environment of the size's series, where the
// job spans VMs or leaves GPUs of its VM idle; nil where it runs on one VM
// and uses all its GPUs, and for other jobs.
func launchFor(l *Layout) *LaunchDeployment {
	if l.TrainGPUsPerVM < 1 || (l.Nodes <= 1 && l.SKU.GPU != nil && float64(l.TrainGPUsPerVM) >= l.SKU.GPU.Count) {
		return nil
	}
	d := &LaunchDeployment{NNodes: l.Nodes, NProcPerNode: l.TrainGPUsPerVM}
	if l.Nodes > 1 && l.IBNeeded && len(l.SKU.NCCLEnv) > 0 {
		d.Env = l.SKU.NCCLEnv
	}
	return d
}

// sbatchArgs are the sbatch options of a job on a CycleCloud GPU
// partition: its VMs, the GPUs of each (Slurm's --gpus-per-node needs
// select/cons_tres and gres gpu, which Azure/cyclecloud-slurm@049346f6
// configures) and its tasks per VM. An MPI job (hpc) runs one task per
// rank, a GPU each. Any other job starts one launcher per VM, which
// starts a process per GPU itself: `srun torchrun --nproc_per_node=G`
// (launchFor) with G tasks per VM would start G × G processes per VM.
// torchtitan's Slurm script asks one task per node for its torchrun
// (pytorch/torchtitan:multinode_trainer.slurm@030cd95d0b846249eea2b43b26ba3740d6962d1e:
// --ntasks=4 --nodes=4 --gpus-per-task=8, srun torchrun --nnodes 4
// --nproc_per_node 8), as do vLLM and SGLang, one server per VM.
func sbatchArgs(l *Layout) []string {
	g := l.SKU.GPU
	if g == nil || g.Count < 1 {
		return nil
	}
	perVM := int64(g.Count)
	if l.TrainGPUsPerVM > 0 {
		perVM = l.TrainGPUsPerVM
	}
	tasks := int64(1)
	if l.MPI {
		tasks = perVM
	}
	return []string{"--nodes=" + itoa(l.Nodes), "--gpus-per-node=" + itoa(perVM), "--ntasks-per-node=" + itoa(tasks)}
}
