// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

var (
	_ datasource.DataSource              = (*modelsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*modelsDataSource)(nil)
)

// NewModelsDataSource returns the hpcsku_models data source.
func NewModelsDataSource() datasource.DataSource { return &modelsDataSource{} }

type modelsDataSource struct {
	data *providerData
}

type modelsDataSourceModel struct {
	Kinds          types.List   `tfsdk:"kinds"`
	NameRegex      types.String `tfsdk:"name_regex"`
	CatalogVersion types.String `tfsdk:"catalog_version"`
	Models         []modelModel `tfsdk:"models"`
}

// modelModel is one model of the output; nullable facts use types.* so
// that an unknown or inapplicable fact is null.
type modelModel struct {
	ID                      types.String  `tfsdk:"id"`
	Name                    types.String  `tfsdk:"name"`
	Family                  types.String  `tfsdk:"family"`
	Kind                    types.String  `tfsdk:"kind"`
	ParametersBillion       types.Float64 `tfsdk:"parameters_billion"`
	ActiveParametersBillion types.Float64 `tfsdk:"active_parameters_billion"`
	Layers                  types.Int64   `tfsdk:"layers"`
	HiddenSize              types.Int64   `tfsdk:"hidden_size"`
	AttentionHeads          types.Int64   `tfsdk:"attention_heads"`
	KVHeads                 types.Int64   `tfsdk:"kv_heads"`
	HeadDim                 types.Int64   `tfsdk:"head_dim"`
	IntermediateSize        types.Int64   `tfsdk:"intermediate_size"`
	VocabSize               types.Int64   `tfsdk:"vocab_size"`
	TiedEmbeddings          types.Bool    `tfsdk:"tied_embeddings"`
	MaxContextTokens        types.Int64   `tfsdk:"max_context_tokens"`
	Experts                 types.Int64   `tfsdk:"experts"`
	ActiveExperts           types.Int64   `tfsdk:"active_experts"`
	SharedExperts           types.Int64   `tfsdk:"shared_experts"`
	Precision               types.String  `tfsdk:"precision"`
	PrecisionBits           types.Float64 `tfsdk:"precision_bits"`
	AttentionKind           types.String  `tfsdk:"attention_kind"`
	KVLoRARank              types.Int64   `tfsdk:"kv_lora_rank"`
	QKRopeHeadDim           types.Int64   `tfsdk:"qk_rope_head_dim"`
	SlidingWindow           types.Int64   `tfsdk:"sliding_window"`
	SlidingWindowLayers     types.Int64   `tfsdk:"sliding_window_layers"`
	ForwardGFLOPs           types.Float64 `tfsdk:"forward_gflops"`
	FrozenGFLOPs            types.Float64 `tfsdk:"frozen_gflops"`
	FrozenParametersBillion types.Float64 `tfsdk:"frozen_parameters_billion"`
	ReferenceInput          types.String  `tfsdk:"reference_input"`
	License                 types.String  `tfsdk:"license"`
	Sources                 []string      `tfsdk:"sources"`
	Decisions               []string      `tfsdk:"decisions"`
	Notes                   types.String  `tfsdk:"notes"`
}

func (d *modelsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_models"
}

// modelKindsMarkdown lists the model kinds for descriptions: `a`, `b` ...
func modelKindsMarkdown() string {
	return "`" + strings.Join(catalog.ModelKinds(), "`, `") + "`"
}

func (d *modelsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	intAttr := func(description string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the open models of the embedded catalog's model table, ordered by id: parameters, architecture " +
			"(layers, hidden size, attention and KV heads, head dimension, context, experts) and the published weight precision, " +
			"each model with its sources. These are the facts memory and throughput estimates are computed from. " +
			"Add or correct models with the provider's `catalog_file` (a `models` list in the catalog's own format).",
		Attributes: map[string]schema.Attribute{
			"kinds": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only models of these kinds: " + modelKindsMarkdown() + ". `generative` is a dense language model, `moe` a mixture-of-experts one.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(oneOf(catalog.ModelKinds()...)),
				},
			},
			"name_regex": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only models whose id or display name matches this RE2 regular expression, for example `^llama-3` or `(?i)qwen`.",
				Validators:          []validator.String{regexValidator()},
			},
			"catalog_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Version of the embedded catalog.",
			},
			"models": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching models, ordered by id. Facts that do not apply to a model or that no source gives are null.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                 schema.StringAttribute{Computed: true, MarkdownDescription: "Model identifier, for example `llama-3.1-8b`."},
					"name":               schema.StringAttribute{Computed: true, MarkdownDescription: "Display name, for example `Llama 3.1 8B`."},
					"family":             schema.StringAttribute{Computed: true, MarkdownDescription: "Model family, for example `llama`."},
					"kind":               schema.StringAttribute{Computed: true, MarkdownDescription: "One of " + modelKindsMarkdown() + "."},
					"parameters_billion": schema.Float64Attribute{Computed: true, MarkdownDescription: "Every weight of the model, in billions; it sets the memory the weights take."},
					"active_parameters_billion": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "Parameters one token uses, in billions; it sets the compute per token. Equal to `parameters_billion` except for `moe` models."},
					"layers":            intAttr("Transformer layers (decoder layers; for an encoder-decoder model, the layers of each)."),
					"hidden_size":       intAttr("Hidden (model) dimension."),
					"attention_heads":   intAttr("Query attention heads per layer."),
					"kv_heads":          intAttr("Key and value heads per layer (fewer than `attention_heads` with grouped-query attention); null with multi-head latent attention."),
					"head_dim":          intAttr("Dimension of one attention head, as the config gives it (not always `hidden_size / attention_heads`)."),
					"intermediate_size": intAttr("Feed-forward width; for `moe` models the width of one expert."),
					"vocab_size":        intAttr("Vocabulary size of the config (padding rows included)."),
					"tied_embeddings": schema.BoolAttribute{Computed: true,
						MarkdownDescription: "Whether the output layer is the input embedding, one `vocab_size` × `hidden_size` matrix counted once in `parameters_billion` (Gemma, Llama 3.2 1B and 3B, OPT); QLoRA keeps it, or both matrices where they are not tied, at 16 bits. Null where `vocab_size` is."},
					"max_context_tokens": intAttr("Longest context the model documents, in tokens."),
					"experts":            intAttr("Routed experts per MoE layer; null for dense models."),
					"active_experts":     intAttr("Routed experts each token uses; null for dense models."),
					"shared_experts":     intAttr("Always-active shared experts per MoE layer, where the model has them."),
					"precision": schema.StringAttribute{Computed: true,
						MarkdownDescription: "Precision of the published weights, as published: `bf16`, `fp16`, `fp32`, `fp8`, `mxfp4` and so on."},
					"precision_bits": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "Storage bits per parameter of `precision`, block scales included (`mxfp4` is 4.25)."},
					"attention_kind": schema.StringAttribute{Computed: true,
						MarkdownDescription: "`mha` (multi-head), `gqa` (grouped-query), `mqa` (multi-query) or `mla` (multi-head latent attention); null for models without attention heads."},
					"kv_lora_rank":          intAttr("With `mla`: width of the compressed key-value latent cached per token and layer."),
					"qk_rope_head_dim":      intAttr("With `mla`: width of the decoupled rotary key cached beside the latent."),
					"sliding_window":        intAttr("Tokens a windowed (local or chunked attention) layer attends to; null when every layer attends to the whole context."),
					"sliding_window_layers": intAttr("How many layers use `sliding_window`."),
					"forward_gflops": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "`vision`, `diffusion` and `speech` models: the forward pass of the trained network on one sample of `reference_input`, in GFLOPs (a multiply-add is 2 FLOPs), which times their training with `samples_million`; null for the others."},
					"frozen_gflops": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "The forward pass of the frozen encoders a training step runs on one sample (a diffusion model's text encoders and VAE encoder), in GFLOPs; null where there are none."},
					"frozen_parameters_billion": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "The part of `parameters_billion` in frozen encoders (a diffusion model's text encoders), which training holds as weights alone and serving loads with the rest; null where there are none."},
					"reference_input": schema.StringAttribute{Computed: true,
						MarkdownDescription: "The sample `forward_gflops` is counted on, for example `224x224 image` or `30 s audio segment`; null where `forward_gflops` is."},
					"license": schema.StringAttribute{Computed: true, MarkdownDescription: "Licence of the published weights."},
					"sources": schema.ListAttribute{Computed: true, ElementType: types.StringType,
						MarkdownDescription: "Where the facts come from: `repository:path@commit` or URLs."},
					"decisions": schema.ListAttribute{Computed: true, ElementType: types.StringType,
						MarkdownDescription: "Catalog decisions (`D1`...) that settled disagreements between the sources."},
					"notes": schema.StringAttribute{Computed: true, MarkdownDescription: "Caveats, for example which weights a block-scaled precision covers."},
				}},
			},
		},
	}
}

func (d *modelsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := configureData(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

func (d *modelsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg modelsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The hpcsku provider was not configured before reading hpcsku_models. This is a bug in the provider; please report it.")
		return
	}
	in := catalog.ModelFilterInput{
		Kinds:     listStrings(ctx, cfg.Kinds, &resp.Diagnostics),
		NameRegex: cfg.NameRegex.ValueString(),
	}
	if resp.Diagnostics.HasError() {
		return
	}
	f, errs := catalog.ValidateModelFilter(in)
	addCatalogErrors(&resp.Diagnostics, errs...)
	if resp.Diagnostics.HasError() {
		return
	}
	cat := d.data.Catalog
	cfg.Models = []modelModel{}
	for _, m := range cat.FilterModels(f) {
		cfg.Models = append(cfg.Models, newModelModel(m))
	}
	if len(cfg.Models) == 0 {
		resp.Diagnostics.AddWarning("No Models Match",
			fmt.Sprintf("No model of the catalog's %d passes every filter of this hpcsku_models data source, so models is empty. Loosen kinds or name_regex.", len(cat.Models())))
	}
	cfg.CatalogVersion = types.StringValue(cat.Version)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

func modelInt64(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

// modelTied is whether the model ties its embeddings; null where the table
// gives no vocabulary.
func modelTied(m *catalog.Model) types.Bool {
	if m.VocabSize == nil {
		return types.BoolNull()
	}
	return types.BoolValue(m.TiedEmbeddings)
}

func modelString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func newModelModel(m *catalog.Model) modelModel {
	return modelModel{
		ID:                      types.StringValue(m.ID),
		Name:                    types.StringValue(m.Name),
		Family:                  modelString(m.Family),
		Kind:                    types.StringValue(m.Kind),
		ParametersBillion:       types.Float64Value(m.ParametersBillion),
		ActiveParametersBillion: types.Float64Value(m.ActiveParametersBillion),
		Layers:                  modelInt64(m.Layers),
		HiddenSize:              modelInt64(m.HiddenSize),
		AttentionHeads:          modelInt64(m.AttentionHeads),
		KVHeads:                 modelInt64(m.KVHeads),
		HeadDim:                 modelInt64(m.HeadDim),
		IntermediateSize:        modelInt64(m.IntermediateSize),
		VocabSize:               modelInt64(m.VocabSize),
		TiedEmbeddings:          modelTied(m),
		MaxContextTokens:        modelInt64(m.MaxContextTokens),
		Experts:                 modelInt64(m.Experts),
		ActiveExperts:           modelInt64(m.ActiveExperts),
		SharedExperts:           modelInt64(m.SharedExperts),
		Precision:               types.StringValue(m.Precision),
		PrecisionBits:           types.Float64Value(m.PrecisionBits),
		AttentionKind:           modelString(m.AttentionKind),
		KVLoRARank:              modelInt64(m.KVLoRARank),
		QKRopeHeadDim:           modelInt64(m.QKRopeHeadDim),
		SlidingWindow:           modelInt64(m.SlidingWindow),
		SlidingWindowLayers:     modelInt64(m.SlidingWindowLayers),
		ForwardGFLOPs:           types.Float64PointerValue(m.ForwardGFLOPs),
		FrozenGFLOPs:            types.Float64PointerValue(m.FrozenGFLOPs),
		FrozenParametersBillion: types.Float64PointerValue(optPositive(m.FrozenParametersBillion)),
		ReferenceInput:          modelString(m.ReferenceInput),
		License:                 types.StringValue(m.License),
		Sources:                 append(append([]string{}, m.Sources...), m.WorkSources...),
		Decisions:               append([]string{}, m.Decisions...),
		Notes:                   modelString(m.Notes),
	}
}
