// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command floor is the smallest useful terraform-plugin-framework provider:
// one data source, floor_echo, that copies its input to its output. bench/run.sh
// plans N of its data sources next to N hpcsku_recommendation data sources,
// so the difference is what hpcsku itself costs above the floor every
// framework provider pays (process start, the gRPC handshake, GetProviderSchema,
// ValidateDataResourceConfig and ReadDataSource round trips).
//
// It is served at registry.terraform.io/hpcsku/floor and is only ever run
// through dev_overrides; it is not released.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	provschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ provider.Provider     = (*floorProvider)(nil)
	_ datasource.DataSource = (*echoDataSource)(nil)
)

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &floorProvider{} }, providerserver.ServeOpts{
		Address: "registry.terraform.io/hpcsku/floor",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}

type floorProvider struct{}

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "floor"
	resp.Version = "bench"
}

func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = provschema.Schema{MarkdownDescription: "A provider that does nothing but echo, for benchmarks."}
}

func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *floorProvider) Resources(context.Context) []func() resource.Resource { return nil }

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &echoDataSource{} }}
}

func (p *floorProvider) Functions(context.Context) []func() function.Function { return nil }

type echoDataSource struct{}

type echoModel struct {
	Input  types.String `tfsdk:"input"`
	Output types.String `tfsdk:"output"`
}

func (d *echoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_echo"
}

func (d *echoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Copies `input` to `output`.",
		Attributes: map[string]schema.Attribute{
			"input":  schema.StringAttribute{Required: true, MarkdownDescription: "Any string."},
			"output": schema.StringAttribute{Computed: true, MarkdownDescription: "The same string."},
		},
	}
}

func (d *echoDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m echoModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Output = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
