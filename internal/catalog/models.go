// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file holds the open-model table: architecture facts of published
// models (parameters, layers, attention and KV heads, context, experts,
// published precision) that memory and throughput estimates are computed
// from. It merges like every other section, so a catalog file can add or
// correct models.

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Model kinds, separate from the recommendation's model class.
const (
	ModelKindGenerative = "generative" // dense decoder language model
	ModelKindMoE        = "moe"        // mixture-of-experts language model
	ModelKindEncoder    = "encoder"
	ModelKindVision     = "vision"
	ModelKindDiffusion  = "diffusion"
	ModelKindSpeech     = "speech"
)

// ModelKinds lists the allowed model kinds, sorted.
func ModelKinds() []string {
	return []string{ModelKindDiffusion, ModelKindEncoder, ModelKindGenerative, ModelKindMoE, ModelKindSpeech, ModelKindVision}
}

// Attention kinds.
const (
	AttentionMHA = "mha" // multi-head: one KV head per attention head
	AttentionGQA = "gqa" // grouped-query: fewer KV heads, each shared by a group
	AttentionMQA = "mqa" // multi-query: one KV head
	AttentionMLA = "mla" // multi-head latent attention: a compressed latent is cached
)

// AttentionKinds lists the allowed attention kinds, sorted.
func AttentionKinds() []string {
	return []string{AttentionGQA, AttentionMHA, AttentionMLA, AttentionMQA}
}

// precisionBits maps a published weight precision to its storage bits per
// parameter, for sizing: block-scaled formats count their scales (MXFP4: one
// 8-bit scale per 32 four-bit values; NVFP4: one 8-bit scale per 16; NF4
// with double quantisation: 0.127 bits of constants per parameter). int4
// counts the values only; group scales add a few percent.
var precisionBits = map[string]float64{
	"fp32":  32,
	"bf16":  16,
	"fp16":  16,
	"fp8":   8,
	"int8":  8,
	"mxfp4": 4.25,
	"nvfp4": 4.5,
	"nf4":   4.127,
	"int4":  4,
}

// ModelPrecisions lists the published precisions whose storage bits the
// catalog knows, sorted.
func ModelPrecisions() []string { return sortedKeys(precisionBits) }

// ModelDoc is one open model as stored. Architecture fields are null where
// they do not apply (a diffusion UNet has no layer count in this sense) or
// no source gives them.
type ModelDoc struct {
	ID                      string   `json:"id"`
	Name                    string   `json:"name"`
	Family                  string   `json:"family"`
	Kind                    string   `json:"kind"`
	ParametersBillion       float64  `json:"parameters_billion"`
	ActiveParametersBillion *float64 `json:"active_parameters_billion"`
	Layers                  *int64   `json:"layers"`
	HiddenSize              *int64   `json:"hidden_size"`
	AttentionHeads          *int64   `json:"attention_heads"`
	KVHeads                 *int64   `json:"kv_heads"`
	HeadDim                 *int64   `json:"head_dim"`
	IntermediateSize        *int64   `json:"intermediate_size"`
	VocabSize               *int64   `json:"vocab_size"`
	// TiedEmbeddings is true where the output layer is the input embedding
	// (one vocab_size × hidden_size matrix, counted once in
	// parameters_billion), as Gemma's and Llama 3.2 1B's are.
	TiedEmbeddings   bool   `json:"tied_embeddings,omitempty"`
	MaxContextTokens *int64 `json:"max_context_tokens"`
	// ConfigContextTokens is the context the published checkpoint's
	// config.json allows (max_position_embeddings with no RoPE scaling),
	// given only where it is below max_context_tokens, which YaRN reaches:
	// the serving engines refuse a longer context unless YaRN is turned
	// on. ContextSources give it and YaRN.
	ConfigContextTokens *int64   `json:"config_context_tokens,omitempty"`
	YaRN                *YaRNDoc `json:"yarn,omitempty"`
	ContextSources      []string `json:"context_sources,omitempty"`
	// EncoderDecoder is a speech model's decoder as its served copies
	// cache it per request (Whisper's); nil for other models.
	EncoderDecoder *EncoderDecoderDoc `json:"encoder_decoder,omitempty"`
	Experts        *int64             `json:"experts"`
	ActiveExperts  *int64             `json:"active_experts"`
	SharedExperts  *int64             `json:"shared_experts,omitempty"`
	Precision      string             `json:"precision"`
	// CheckpointGiB is the published checkpoint's size, GiB, keyed by its
	// published precision: what the weights hold in memory, embeddings,
	// norms and quantisation scales included, where parameters × bytes
	// counts too few. CheckpointSources give the figures.
	CheckpointGiB     map[string]float64 `json:"checkpoint_gib,omitempty"`
	CheckpointSources []string           `json:"checkpoint_sources,omitempty"`
	// ForwardGFLOPs is the forward pass of the trained network on one
	// sample of ReferenceInput (an image, a denoising step, a 30 s audio
	// segment), GFLOPs, one multiply-add counted as 2 FLOPs; FrozenGFLOPs
	// the forward pass of the frozen encoders a training step runs on
	// the sample (a diffusion model's text encoders and VAE encoder).
	// Only for vision, diffusion and speech models, whose training is
	// timed by samples; WorkSources give the figures.
	ForwardGFLOPs *float64 `json:"forward_gflops,omitempty"`
	FrozenGFLOPs  *float64 `json:"frozen_gflops,omitempty"`
	// FrozenParametersBillion is the part of parameters_billion in frozen
	// encoders (a diffusion model's text encoders): serving loads them
	// with the rest, training runs them but keeps their weights alone,
	// without gradients or optimizer state.
	FrozenParametersBillion *float64      `json:"frozen_parameters_billion,omitempty"`
	ReferenceInput          string        `json:"reference_input,omitempty"`
	WorkSources             []string      `json:"work_sources,omitempty"`
	Attention               *AttentionDoc `json:"attention,omitempty"`
	License                 string        `json:"license"`
	Sources                 []string      `json:"sources"`
	Decisions               []string      `json:"decisions,omitempty"`
	Notes                   string        `json:"notes,omitempty"`
}

// YaRNDoc is the YaRN RoPE scaling a model's card gives for contexts above
// its config's: the scaling factor, the positions it scales from
// (original_max_position_embeddings) and the RoPE base (rope_theta), which
// an engine's override restates.
type YaRNDoc struct {
	Factor                        float64 `json:"factor"`
	OriginalMaxPositionEmbeddings int64   `json:"original_max_position_embeddings"`
	RopeTheta                     float64 `json:"rope_theta"`
}

// EncoderDecoderDoc is the decoder of an encoder-decoder speech model
// (Whisper) as a serving engine caches it for each request: every decoder
// layer keeps the keys and values of its self-attention over the request's
// decoder tokens, at most max_context_tokens (the config's
// max_target_positions), and of its cross-attention over the encoder's
// EncoderPositions outputs (max_source_positions), kv_heads × head_dim
// values each (vLLM's WhisperCrossAttention computes the encoder's keys and
// values once and keeps them in the KV cache). Sources give the figures.
type EncoderDecoderDoc struct {
	// DecoderLayers is the decoder's layers (the config's decoder_layers).
	DecoderLayers int64 `json:"decoder_layers"`
	// EncoderPositions is the encoder outputs each decoder layer's
	// cross-attention reads (the config's max_source_positions).
	EncoderPositions int64    `json:"encoder_positions"`
	Sources          []string `json:"sources"`
}

// AttentionDoc describes a model's attention where the head counts alone do
// not: multi-head latent attention, and layers that attend only to a
// sliding window of recent tokens.
type AttentionDoc struct {
	Kind string `json:"kind,omitempty"`
	// MLA: the cached latent's width and the decoupled RoPE key's width.
	KVLoRARank    *int64 `json:"kv_lora_rank,omitempty"`
	QKRopeHeadDim *int64 `json:"qk_rope_head_dim,omitempty"`
	// SlidingWindowLayers layers attend to the last SlidingWindow tokens
	// only (chunked attention counts as a window of the chunk size).
	SlidingWindow       *int64 `json:"sliding_window,omitempty"`
	SlidingWindowLayers *int64 `json:"sliding_window_layers,omitempty"`
}

// Model is one open model of the catalog's model table. Pointer fields are
// nil where they do not apply or are unknown.
type Model struct {
	ID     string
	Name   string
	Family string
	Kind   string
	// ParametersBillion is every weight; ActiveParametersBillion those one
	// token uses (equal for dense models).
	ParametersBillion       float64
	ActiveParametersBillion float64
	Layers                  *int64
	HiddenSize              *int64
	AttentionHeads          *int64
	KVHeads                 *int64
	HeadDim                 *int64
	IntermediateSize        *int64
	VocabSize               *int64
	// TiedEmbeddings: the output layer is the input embedding, one
	// VocabSize × HiddenSize matrix.
	TiedEmbeddings   bool
	MaxContextTokens *int64
	// ConfigContextTokens is the context the checkpoint's config.json
	// allows where it is below MaxContextTokens (0 otherwise), and YaRN
	// the RoPE scaling that reaches MaxContextTokens (nil otherwise).
	ConfigContextTokens int64
	YaRN                *YaRNDoc
	ContextSources      []string
	// EncoderDecoder is an encoder-decoder speech model's cached decoder;
	// nil for other models.
	EncoderDecoder *EncoderDecoderDoc
	Experts        *int64
	ActiveExperts  *int64
	SharedExperts  *int64
	// Precision is the published weight precision as published ("bf16",
	// "mxfp4"); PrecisionBits its storage bits per parameter.
	Precision     string
	PrecisionBits float64
	// CheckpointGiB is the published checkpoint's size per published
	// precision, GiB; nil where no source gives it.
	CheckpointGiB     map[string]float64
	CheckpointSources []string
	// ForwardGFLOPs and FrozenGFLOPs are one sample's forward pass of
	// the trained network and of the frozen encoders, GFLOPs, at
	// ReferenceInput; nil where the model is not timed by samples.
	ForwardGFLOPs, FrozenGFLOPs *float64
	ReferenceInput              string
	// FrozenParametersBillion is the part of ParametersBillion in frozen
	// encoders, which training does not update; 0 when none.
	FrozenParametersBillion float64
	WorkSources             []string
	// AttentionKind is the stored kind, or else mha, gqa or mqa from the
	// head counts; empty when the model has no attention heads.
	AttentionKind       string
	KVLoRARank          *int64
	QKRopeHeadDim       *int64
	SlidingWindow       *int64
	SlidingWindowLayers *int64
	License             string
	Sources             []string
	Decisions           []string
	Notes               string
}

// modelTable is the merged model table.
type modelTable struct {
	list  []*Model          // ordered by id
	byKey map[string]*Model // lower-case id and name
}

// Models returns every model, ordered by id. The slice is shared: do not
// modify it.
func (c *Catalog) Models() []*Model { return c.models.list }

// Model finds a model by id or display name, ignoring case and surrounding
// spaces.
func (c *Catalog) Model(idOrName string) (*Model, bool) {
	m, ok := c.models.byKey[strings.ToLower(strings.TrimSpace(idOrName))]
	return m, ok
}

// joinModels merges the model entries of the documents (a later entry with
// the same id, compared case-insensitively, replaces an earlier one) and
// validates them.
func (c *Catalog) joinModels(docs []Document, decisions map[string]bool) []error {
	var errs []error
	merged := map[string]ModelDoc{}
	for _, d := range docs {
		for _, m := range d.Models {
			merged[strings.ToLower(strings.TrimSpace(m.ID))] = m
		}
	}
	c.models = modelTable{byKey: map[string]*Model{}}
	owner := map[string]string{} // lower-case id or name -> id
	for _, key := range sortedKeys(merged) {
		d := merged[key]
		m, err := newModel(d, decisions)
		if err != nil {
			errs = append(errs, fmt.Errorf("model %s: %w", d.ID, err))
			continue
		}
		for _, k := range []string{strings.ToLower(m.ID), strings.ToLower(m.Name)} {
			if other, taken := owner[k]; taken && other != m.ID {
				errs = append(errs, fmt.Errorf("model %s: %q is already the id or name of model %s", m.ID, k, other))
				continue
			}
			owner[k] = m.ID
			c.models.byKey[k] = m
		}
		c.models.list = append(c.models.list, m)
	}
	return errs
}

// modelIDRE is the form of a model id: lower case, as Hugging Face repository
// names are usually written, for example "llama-3.1-8b".
var modelIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// newModel validates one model entry and resolves its derived fields. The
// checks run in a fixed order and the first that fails decides the error.
func newModel(d ModelDoc, decisions map[string]bool) (*Model, error) {
	if err := checkModelIdentity(d); err != nil {
		return nil, err
	}
	active, err := activeParameters(d)
	if err != nil {
		return nil, err
	}
	if err := checkModelDimensions(d); err != nil {
		return nil, err
	}
	if err := checkModelExperts(d, active); err != nil {
		return nil, err
	}
	bits, ok := precisionBits[d.Precision]
	if !ok {
		return nil, fmt.Errorf("precision %q is not one of %s", d.Precision, strings.Join(ModelPrecisions(), ", "))
	}
	if err := checkModelProvenance(d, decisions); err != nil {
		return nil, err
	}
	if err := checkCheckpoints(d); err != nil {
		return nil, err
	}
	if err := checkSampleWork(d); err != nil {
		return nil, err
	}
	if err := checkTiedEmbeddings(d); err != nil {
		return nil, err
	}
	if err := checkConfigContext(d); err != nil {
		return nil, err
	}
	if err := checkEncoderDecoder(d); err != nil {
		return nil, err
	}
	m := &Model{
		ID: d.ID, Name: strings.TrimSpace(d.Name), Family: d.Family, Kind: d.Kind,
		ParametersBillion: d.ParametersBillion, ActiveParametersBillion: active,
		Layers: d.Layers, HiddenSize: d.HiddenSize, AttentionHeads: d.AttentionHeads, KVHeads: d.KVHeads,
		HeadDim: d.HeadDim, IntermediateSize: d.IntermediateSize, VocabSize: d.VocabSize, TiedEmbeddings: d.TiedEmbeddings,
		MaxContextTokens: d.MaxContextTokens, Experts: d.Experts, ActiveExperts: d.ActiveExperts, SharedExperts: d.SharedExperts,
		Precision: d.Precision, PrecisionBits: bits,
		CheckpointGiB: d.CheckpointGiB, CheckpointSources: d.CheckpointSources,
		ForwardGFLOPs: d.ForwardGFLOPs, FrozenGFLOPs: d.FrozenGFLOPs, ReferenceInput: strings.TrimSpace(d.ReferenceInput), WorkSources: d.WorkSources,
		FrozenParametersBillion: valueOrZero(d.FrozenParametersBillion),
		YaRN:                    d.YaRN, ContextSources: d.ContextSources, EncoderDecoder: d.EncoderDecoder,
		License: d.License, Sources: d.Sources, Decisions: d.Decisions, Notes: d.Notes,
	}
	if d.ConfigContextTokens != nil {
		m.ConfigContextTokens = *d.ConfigContextTokens
	}
	if err := m.resolveAttention(d.Attention); err != nil {
		return nil, err
	}
	return m, nil
}

// checkConfigContext checks a model's config context and YaRN scaling:
// given together, with sources, the config's context positive and below
// max_context_tokens, and YaRN's factor above 1 and reaching
// max_context_tokens from its original positions.
func checkConfigContext(d ModelDoc) error {
	y, cc := d.YaRN, d.ConfigContextTokens
	switch {
	case cc == nil && y == nil && len(d.ContextSources) == 0:
		return nil
	case cc == nil || y == nil:
		return errors.New("config_context_tokens and yarn go together")
	case len(d.ContextSources) == 0:
		return errors.New("config_context_tokens needs context_sources")
	case d.MaxContextTokens == nil || *cc <= 0 || *cc >= *d.MaxContextTokens:
		return fmt.Errorf("config_context_tokens = %d must be positive and below max_context_tokens (%s)", *cc, showInt(d.MaxContextTokens))
	case !(y.Factor > 1) || math.IsInf(y.Factor, 0) || y.OriginalMaxPositionEmbeddings <= 0 || !(y.RopeTheta > 0) || math.IsInf(y.RopeTheta, 0):
		return errors.New("yarn needs a factor above 1 and positive original_max_position_embeddings and rope_theta")
	case y.Factor*float64(y.OriginalMaxPositionEmbeddings) < float64(*d.MaxContextTokens):
		return fmt.Errorf("yarn reaches %v tokens (factor × original_max_position_embeddings), below max_context_tokens (%d)", y.Factor*float64(y.OriginalMaxPositionEmbeddings), *d.MaxContextTokens)
	}
	return checkSourceList("context_sources", d.ContextSources)
}

// checkEncoderDecoder checks a speech model's cached decoder: a speech
// model's, with positive decoder layers and encoder positions, the head
// counts and the decoder's maximum tokens its cache is sized from, and
// sources.
func checkEncoderDecoder(d ModelDoc) error {
	ed := d.EncoderDecoder
	switch {
	case ed == nil:
		return nil
	case d.Kind != ModelKindSpeech:
		return fmt.Errorf("encoder_decoder is for a speech model, not kind %q", d.Kind)
	case ed.DecoderLayers <= 0 || ed.EncoderPositions <= 0:
		return errors.New("encoder_decoder needs positive decoder_layers and encoder_positions")
	case d.KVHeads == nil || d.HeadDim == nil || d.MaxContextTokens == nil:
		return errors.New("encoder_decoder needs kv_heads, head_dim and max_context_tokens (the decoder's tokens)")
	case len(ed.Sources) == 0:
		return errors.New("encoder_decoder needs sources")
	}
	return checkSourceList("encoder_decoder.sources", ed.Sources)
}

// showInt writes *p, or "null".
func showInt(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// Checkpoint sizes are checked against parameters × bits: a published
// checkpoint holds at least CheckpointLeast and at most CheckpointMost
// of it (bf16 embeddings and norms, scales, and a multi-token prediction
// module add to it; a checkpoint far outside is a typo or another model).
const (
	CheckpointLeast = 0.95
	CheckpointMost  = 1.5
)

// checkCheckpoints checks a model's checkpoint sizes: each keyed by a
// precision the catalog knows, within CheckpointLeast to CheckpointMost of
// parameters × its bits, and sourced.
func checkCheckpoints(d ModelDoc) error {
	if len(d.CheckpointGiB) > 0 && len(d.CheckpointSources) == 0 {
		return errors.New("checkpoint_gib needs checkpoint_sources")
	}
	if len(d.CheckpointGiB) == 0 && len(d.CheckpointSources) > 0 {
		return errors.New("checkpoint_sources without checkpoint_gib")
	}
	for _, p := range sortedKeys(d.CheckpointGiB) {
		bits, ok := precisionBits[p]
		if !ok {
			return fmt.Errorf("checkpoint_gib: precision %q is not one of %s", p, strings.Join(ModelPrecisions(), ", "))
		}
		gib := d.ParametersBillion * 1e9 * bits / 8 / (1 << 30)
		if v := d.CheckpointGiB[p]; !(v >= CheckpointLeast*gib && v <= CheckpointMost*gib) {
			return fmt.Errorf("checkpoint_gib[%s] = %v is outside %v to %v times parameters × bits (%.1f GiB)", p, v, CheckpointLeast, CheckpointMost, gib)
		}
	}
	return checkSourceList("checkpoint_sources", d.CheckpointSources)
}

// checkTiedEmbeddings checks that a tied embedding has its vocabulary and
// hidden size, and that its one matrix is part of the parameters.
func checkTiedEmbeddings(d ModelDoc) error {
	switch {
	case !d.TiedEmbeddings:
		return nil
	case d.VocabSize == nil || d.HiddenSize == nil:
		return errors.New("tied_embeddings needs vocab_size and hidden_size")
	case float64(*d.VocabSize)*float64(*d.HiddenSize) >= d.ParametersBillion*1e9:
		return fmt.Errorf("tied_embeddings: vocab_size × hidden_size (%v) is not less than parameters_billion (%v)", float64(*d.VocabSize)*float64(*d.HiddenSize), d.ParametersBillion*1e9)
	}
	return nil
}

// SampleKinds are the model kinds whose training is timed by samples
// (forward_gflops); language models and encoders are timed by tokens.
func SampleKinds() []string {
	return []string{ModelKindDiffusion, ModelKindSpeech, ModelKindVision}
}

// checkSampleWork checks a model's work per sample: only for the kinds
// timed by samples; a forward pass of at least 2 FLOPs per parameter
// (every weight multiplies at least once per sample); the frozen
// encoders' only beside it; a reference input and sources with it.
func checkSampleWork(d ModelDoc) error {
	f := d.ForwardGFLOPs
	frozen := valueOrZero(d.FrozenParametersBillion)
	switch {
	case d.FrozenParametersBillion != nil && !(frozen > 0 && frozen < d.ParametersBillion):
		return fmt.Errorf("frozen_parameters_billion = %v must be greater than 0 and less than parameters_billion (%v)", frozen, d.ParametersBillion)
	case f == nil && (d.FrozenGFLOPs != nil || d.ReferenceInput != "" || len(d.WorkSources) > 0):
		return errors.New("frozen_gflops, reference_input and work_sources need forward_gflops")
	case f == nil:
		return nil
	case !slices.Contains(SampleKinds(), d.Kind):
		return fmt.Errorf("forward_gflops is for the kinds timed by samples (%s), not %s: language models and encoders are timed by tokens", strings.Join(SampleKinds(), ", "), d.Kind)
	case !(*f >= 2*(d.ParametersBillion-frozen)) || math.IsInf(*f, 0):
		return fmt.Errorf("forward_gflops = %v is below 2 FLOPs per trained parameter (%v GFLOPs)", *f, 2*(d.ParametersBillion-frozen))
	case d.FrozenGFLOPs != nil && !(*d.FrozenGFLOPs > 0 && !math.IsInf(*d.FrozenGFLOPs, 0)):
		return fmt.Errorf("frozen_gflops = %v must be greater than 0", *d.FrozenGFLOPs)
	case strings.TrimSpace(d.ReferenceInput) == "":
		return errors.New("forward_gflops needs reference_input, the sample it is counted on (\"224x224 image\")")
	case len(d.WorkSources) == 0:
		return errors.New("forward_gflops needs work_sources")
	}
	return checkSourceList("work_sources", d.WorkSources)
}

// checkModelIdentity checks a model's id, name, kind and parameter count.
func checkModelIdentity(d ModelDoc) error {
	if !modelIDRE.MatchString(d.ID) {
		return fmt.Errorf("id %q must be lower-case letters, digits, '.', '-' and '_', starting with a letter or digit", d.ID)
	}
	if strings.TrimSpace(d.Name) == "" {
		return errors.New("name is required")
	}
	if !slices.Contains(ModelKinds(), d.Kind) {
		return fmt.Errorf("kind %q is not one of %s", d.Kind, strings.Join(ModelKinds(), ", "))
	}
	if !(d.ParametersBillion > 0) || math.IsInf(d.ParametersBillion, 0) {
		return fmt.Errorf("parameters_billion must be a positive number, got %v", d.ParametersBillion)
	}
	return nil
}

// activeParameters returns the parameters one token uses: the stored active
// count, which must be positive and at most the total, or else the total.
func activeParameters(d ModelDoc) (float64, error) {
	if d.ActiveParametersBillion == nil {
		return d.ParametersBillion, nil
	}
	active := *d.ActiveParametersBillion
	if !(active > 0) || active > d.ParametersBillion {
		return 0, fmt.Errorf("active_parameters_billion %v must be positive and at most parameters_billion %v", active, d.ParametersBillion)
	}
	return active, nil
}

// checkModelDimensions checks that every architecture figure given is
// positive (shared experts may be zero) and that the attention heads are a
// whole multiple of the KV heads.
func checkModelDimensions(d ModelDoc) error {
	for _, f := range []struct {
		name string
		v    *int64
	}{
		{"layers", d.Layers}, {"hidden_size", d.HiddenSize}, {"attention_heads", d.AttentionHeads}, {"kv_heads", d.KVHeads},
		{"head_dim", d.HeadDim}, {"intermediate_size", d.IntermediateSize}, {"vocab_size", d.VocabSize},
		{"max_context_tokens", d.MaxContextTokens}, {"experts", d.Experts}, {"active_experts", d.ActiveExperts},
	} {
		if f.v != nil && *f.v <= 0 {
			return fmt.Errorf("%s must be positive, got %d", f.name, *f.v)
		}
	}
	if d.SharedExperts != nil && *d.SharedExperts < 0 {
		return fmt.Errorf("shared_experts must be zero or more, got %d", *d.SharedExperts)
	}
	if d.KVHeads != nil && d.AttentionHeads == nil {
		return errors.New("kv_heads is given without attention_heads")
	}
	if d.KVHeads != nil && (*d.KVHeads > *d.AttentionHeads || *d.AttentionHeads%*d.KVHeads != 0) {
		return fmt.Errorf("attention_heads %d must be a multiple of kv_heads %d", *d.AttentionHeads, *d.KVHeads)
	}
	return nil
}

// checkModelExperts checks that a mixture-of-experts model gives its experts
// and uses fewer parameters per token than it has, and that a dense model
// gives no experts and uses all of its parameters.
func checkModelExperts(d ModelDoc, active float64) error {
	switch {
	case d.Kind == ModelKindMoE:
		if d.Experts == nil || d.ActiveExperts == nil {
			return errors.New("a moe model needs experts and active_experts")
		}
		if *d.ActiveExperts > *d.Experts {
			return fmt.Errorf("active_experts %d is more than experts %d", *d.ActiveExperts, *d.Experts)
		}
		if !(active < d.ParametersBillion) {
			return errors.New("a moe model's active_parameters_billion must be below parameters_billion")
		}
	case d.Experts != nil || d.ActiveExperts != nil || d.SharedExperts != nil:
		return fmt.Errorf("experts are given, but kind is %q, not %q", d.Kind, ModelKindMoE)
	case active != d.ParametersBillion:
		return fmt.Errorf("a dense (%s) model's active_parameters_billion must equal parameters_billion", d.Kind)
	}
	return nil
}

// checkModelProvenance checks that a model names its license and non-empty
// sources, and that every decision it cites is defined.
func checkModelProvenance(d ModelDoc, decisions map[string]bool) error {
	if strings.TrimSpace(d.License) == "" {
		return errors.New("license is required")
	}
	if len(d.Sources) == 0 {
		return errors.New("no sources")
	}
	for _, s := range d.Sources {
		if strings.TrimSpace(s) == "" {
			return errors.New("sources: an empty source")
		}
	}
	return checkDecisions(d.Decisions, decisions)
}

// resolveAttention checks the attention facts against the head counts and
// sets AttentionKind.
func (m *Model) resolveAttention(a *AttentionDoc) error {
	if m.AttentionHeads != nil && m.KVHeads != nil {
		switch *m.KVHeads {
		case *m.AttentionHeads:
			m.AttentionKind = AttentionMHA
		case 1:
			m.AttentionKind = AttentionMQA
		default:
			m.AttentionKind = AttentionGQA
		}
	}
	if a == nil {
		if m.AttentionHeads != nil && m.KVHeads == nil {
			return errors.New("attention_heads without kv_heads needs attention.kind (mla), or give kv_heads")
		}
		return nil
	}
	if a.Kind != "" {
		if !slices.Contains(AttentionKinds(), a.Kind) {
			return fmt.Errorf("attention.kind %q is not one of %s", a.Kind, strings.Join(AttentionKinds(), ", "))
		}
		if a.Kind != AttentionMLA && m.AttentionKind != "" && a.Kind != m.AttentionKind {
			return fmt.Errorf("attention.kind %q disagrees with %d attention heads and %d KV heads (%s)", a.Kind, *m.AttentionHeads, *m.KVHeads, m.AttentionKind)
		}
		m.AttentionKind = a.Kind
	}
	if m.AttentionHeads != nil && m.KVHeads == nil && m.AttentionKind != AttentionMLA {
		return errors.New("attention_heads without kv_heads needs attention.kind (mla), or give kv_heads")
	}
	mla := m.AttentionKind == AttentionMLA
	if mla != (a.KVLoRARank != nil) || mla != (a.QKRopeHeadDim != nil) {
		return errors.New("attention.kv_lora_rank and attention.qk_rope_head_dim are given exactly for kind mla")
	}
	if mla && (*a.KVLoRARank <= 0 || *a.QKRopeHeadDim <= 0) {
		return errors.New("attention.kv_lora_rank and attention.qk_rope_head_dim must be positive")
	}
	if (a.SlidingWindow != nil) != (a.SlidingWindowLayers != nil) {
		return errors.New("attention.sliding_window and attention.sliding_window_layers go together")
	}
	if a.SlidingWindow != nil {
		if *a.SlidingWindow <= 0 || *a.SlidingWindowLayers <= 0 {
			return errors.New("attention.sliding_window and attention.sliding_window_layers must be positive")
		}
		if m.Layers == nil || *a.SlidingWindowLayers > *m.Layers {
			return fmt.Errorf("attention.sliding_window_layers %d must be at most layers", *a.SlidingWindowLayers)
		}
	}
	m.KVLoRARank, m.QKRopeHeadDim = a.KVLoRARank, a.QKRopeHeadDim
	m.SlidingWindow, m.SlidingWindowLayers = a.SlidingWindow, a.SlidingWindowLayers
	return nil
}

// valueOrZero is *p, or 0 for nil.
func valueOrZero(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
