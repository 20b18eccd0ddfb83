// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package provider implements the hpcsku Terraform provider: its
// configuration, data sources and functions. Domain logic lives in
// internal/catalog and internal/recommend.
package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

var (
	_ provider.Provider              = (*hpcskuProvider)(nil)
	_ provider.ProviderWithFunctions = (*hpcskuProvider)(nil)
	_ function.Function              = (*sizeFunction)(nil)
)

// hpcskuProvider is the provider implementation. The catalog and clock are
// injected so tests can pin them.
type hpcskuProvider struct {
	version string
	catalog func() (*catalog.Catalog, error)
	now     func() time.Time
	// functionData is what provider-defined functions read, built on the
	// first function call and kept for the life of the provider instance
	// (see Functions).
	functionData func() (*functionData, error)
	// configured is what the last Configure built, for the reads the
	// provider's server makes without the framework (server.go).
	configured atomic.Pointer[providerData]
}

// newProvider is the provider with the given catalog loader and clock.
func newProvider(version string, cat func() (*catalog.Catalog, error), now func() time.Time) *hpcskuProvider {
	p := &hpcskuProvider{version: version, catalog: cat, now: now}
	p.functionData = sync.OnceValues(func() (*functionData, error) {
		c, err := p.catalog()
		if err != nil {
			return nil, err
		}
		return &functionData{Catalog: c, engine: sync.OnceValues(func() (*recommend.Engine, error) {
			return recommend.NewEngine(c)
		})}, nil
	})
	return p
}

// providerData is what Configure hands to every data source: the
// configured catalog (the embedded one with the provider's files applied),
// the ranking engine prepared for it, the as_of date and the memo of SKU
// objects. It lives as long as the provider configuration; only the memo
// fills up.
type providerData struct {
	Catalog *catalog.Catalog
	Engine  *recommend.Engine
	AsOf    time.Time
	// Usage is the vCPU usage per lower-case region from usage_files; nil
	// without them.
	Usage map[string]*catalog.Usage
	// skus memoizes the SKU objects the data sources return.
	skus skuObjects
}

// newProviderData prepares the engine for cat.
func newProviderData(cat *catalog.Catalog, asOf time.Time) (*providerData, error) {
	eng, err := recommend.NewEngine(cat)
	if err != nil {
		return nil, err
	}
	return &providerData{Catalog: cat, Engine: eng, AsOf: asOf}, nil
}

// functionData is what provider-defined functions read. Terraform calls
// functions on a provider that was never configured, so they see the
// catalog without the provider's files.
type functionData struct {
	Catalog *catalog.Catalog
	// skus memoizes the SKU objects provider::hpcsku::sku returns.
	skus skuObjects
	// engine prepares the ranking engine for Catalog on its first call
	// (provider::hpcsku::gpu_memory_gib and estimate_training_hours
	// estimate through it), so that the functions that only look sizes up
	// never pay for it.
	engine func() (*recommend.Engine, error)
}

type providerModel struct {
	AsOf             types.String `tfsdk:"as_of"`
	CatalogFile      types.String `tfsdk:"catalog_file"`
	AvailabilityFile types.String `tfsdk:"availability_file"`
	PricesFile       types.String `tfsdk:"prices_file"`
	UsageFiles       types.Map    `tfsdk:"usage_files"`
}

// New returns a factory for the provider with the embedded catalog and the
// real clock.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return newProvider(version, catalog.Default, time.Now)
	}
}

// NewTestProvider returns a factory for a provider with an injected catalog
// and clock, so tests are deterministic.
func NewTestProvider(cat *catalog.Catalog, now func() time.Time) func() provider.Provider {
	return func() provider.Provider {
		return newProvider("test", func() (*catalog.Catalog, error) { return cat, nil }, now)
	}
}

func (p *hpcskuProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "hpcsku"
	resp.Version = p.version
}

func (p *hpcskuProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The `hpcsku` provider picks Azure virtual machine sizes for HPC and AI work. " +
			"It describes every Azure GPU (N-series) and HPC (H-series) size, retired ones included, with typed GPU, " +
			"CUDA, RDMA/InfiniBand, price, support and retirement facts, each with its sources. " +
			"It works offline: the catalog is embedded in the provider, and it needs no Azure credentials and no network. " +
			"Files you export with the tools you already have can add your subscription's availability, your prices and sizes of your own (`availability_file`, `prices_file`, `catalog_file`); the provider reads them from disk and never calls Azure.",
		Attributes: map[string]schema.Attribute{
			"as_of": schema.StringAttribute{
				MarkdownDescription: "The date every lifecycle judgement uses (whether a size is retired, days until retirement), " +
					"as an RFC 3339 date (`2026-01-01`) or date-time (`2026-01-01T00:00:00Z`). " +
					"Defaults to today in UTC. Pin it in CI so that plans do not change as the calendar moves. " +
					"Provider-defined functions (`provider::hpcsku::is_retired` and the others) do not see this setting: " +
					"Terraform calls functions without configuring the provider, so they judge at today's date in UTC.",
				Optional:   true,
				Validators: []validator.String{rfc3339DateValidator()},
			},
		},
	}
	for _, f := range overlayFiles() {
		resp.Schema.Attributes[string(f)] = f.attribute()
	}
	resp.Schema.Attributes[usageFilesSetting] = usageFilesAttribute()
}

func (p *hpcskuProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	asOf := p.now().UTC()
	if !cfg.AsOf.IsNull() && !cfg.AsOf.IsUnknown() {
		t, err := parseRFC3339Date(cfg.AsOf.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("as_of"), "Invalid Date", invalidDateDetail(cfg.AsOf.ValueString()))
			return
		}
		asOf = t
	}
	asOf = catalog.UTCDay(asOf)

	cat, err := p.catalog()
	if err != nil {
		tflog.Error(ctx, "catalog failed to load", map[string]any{"error": err.Error()})
		resp.Diagnostics.AddError("Catalog Failed To Load",
			"The embedded catalog could not be loaded. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return
	}
	cat, diags := loadOverlays(ctx, cat, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	usage := loadUsageFiles(ctx, cat, cfg.UsageFiles, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	data, err := newProviderData(cat, asOf)
	if err != nil {
		tflog.Error(ctx, "ranking engine failed to start", map[string]any{"error": err.Error()})
		resp.Diagnostics.AddError("Catalog Failed To Load",
			"The ranking engine could not be prepared for the catalog. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return
	}
	data.Usage = usage
	resp.DataSourceData = data
	resp.ResourceData = data
	p.configured.Store(data)
	tflog.Debug(ctx, "configured hpcsku provider", map[string]any{"as_of": asOf.Format(catalog.DateLayout), "catalog_version": cat.Version})
}

func (p *hpcskuProvider) Resources(context.Context) []func() resource.Resource { return nil }

func (p *hpcskuProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewCatalogDataSource,
		NewSKUDataSource,
		NewRecommendationDataSource,
		NewModelsDataSource,
	}
}

// Functions returns the provider-defined functions. Terraform calls functions
// on an unconfigured provider instance, so Configure's providerData never
// reaches them: each function holds the provider itself and takes the
// catalog (functionData, built on the first call) and the clock from it
// (see functionLookup).
func (p *hpcskuProvider) Functions(context.Context) []func() function.Function {
	constructors := []func(*hpcskuProvider) function.Function{
		newSKUFunction,
		newIsRetiredFunction,
		newRetiresWithinFunction,
		newGPUMemoryGiBFunction,
		newEstimateTrainingHoursFunction,
	}
	factories := make([]func() function.Function, len(constructors))
	for i, c := range constructors {
		factories[i] = func() function.Function { return c(p) }
	}
	return factories
}

// functionSettingsNote is the call-out that ends the description of every
// function that reads the catalog.
const functionSettingsNote = "~> **Note** Functions do not see the provider's settings: Terraform calls provider-defined functions without configuring the provider, " +
	"so no `provider \"hpcsku\"` block reaches them. They judge retirement at today's date in UTC, not at `as_of`, " +
	"and read the embedded catalog, without `catalog_file`, `availability_file` or `prices_file`. " +
	"Use the `hpcsku_sku` data source where the date must be pinned or those files must apply. " +
	"Because the date moves, a saved plan applied on a later day can fail with \"provider function returned an inconsistent result\" " +
	"when an answer changed overnight; plan again in that case."

// functionToday is the date functions judge lifecycles at: the provider's
// clock (time.Now, or the injected test clock) truncated to the day in UTC.
func (p *hpcskuProvider) functionToday() time.Time {
	return catalog.UTCDay(p.now())
}

// functionState returns the functions' data, loading the catalog on the
// first call.
func (p *hpcskuProvider) functionState(ctx context.Context) (*functionData, *function.FuncError) {
	data, err := p.functionData()
	if err != nil {
		tflog.Error(ctx, "catalog failed to load", map[string]any{"error": err.Error()})
		return nil, function.NewFuncError("Catalog Failed To Load: The embedded catalog could not be loaded. " +
			"This is a bug in the provider; please report it with this message: " + err.Error())
	}
	return data, nil
}

// functionEngine returns the ranking engine for the functions' catalog,
// loading the catalog and preparing the engine on the first call.
func (p *hpcskuProvider) functionEngine(ctx context.Context) (*recommend.Engine, *function.FuncError) {
	data, funcErr := p.functionState(ctx)
	if funcErr != nil {
		return nil, funcErr
	}
	eng, err := data.engine()
	if err != nil {
		tflog.Error(ctx, "ranking engine failed to start", map[string]any{"error": err.Error()})
		return nil, function.NewFuncError("Catalog Failed To Load: The ranking engine could not be prepared for the embedded catalog. " +
			"This is a bug in the provider; please report it with this message: " + err.Error())
	}
	return eng, nil
}

// sizeNameParameter is the `name` parameter of the functions that look up a
// size, with example as the name the description shows.
func sizeNameParameter(example string) function.StringParameter {
	return function.StringParameter{
		Name: "name",
		MarkdownDescription: "The size name, for example `" + example + "`. " +
			"Case-insensitive; the `Standard_` prefix may be left out.",
		AllowNullValue:     false,
		AllowUnknownValues: false,
		// No length validator: an empty or blank name reaches the lookup,
		// whose error says a name is required and what one looks like.
	}
}

// sizeFunction is a provider-defined function whose first parameter names
// a size (sizeNameParameter). Run looks the size up, so that an unknown name
// fails every such function the same way (functionLookup), and returns what
// result makes of the size and the other arguments.
type sizeFunction struct {
	provider   *hpcskuProvider
	name       string
	definition function.Definition
	result     func(ctx context.Context, s *catalog.SKU, args function.ArgumentsData) (any, *function.FuncError)
}

func (f *sizeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *sizeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.definition
}

func (f *sizeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var name string
	if resp.Error = req.Arguments.GetArgument(ctx, 0, &name); resp.Error != nil {
		return
	}
	s, funcErr := f.provider.functionLookup(ctx, name)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	v, funcErr := f.result(ctx, s, req.Arguments)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	resp.Error = resp.Result.Set(ctx, v)
}

// functionLookup finds the size named by a function's first argument
// (sizeNameParameter). An unknown name is an argument error that suggests
// the closest names.
func (p *hpcskuProvider) functionLookup(ctx context.Context, name string) (*catalog.SKU, *function.FuncError) {
	data, funcErr := p.functionState(ctx)
	if funcErr != nil {
		return nil, funcErr
	}
	cat := data.Catalog
	s, ok := cat.Lookup(name)
	if !ok {
		// Terraform ends a function error with a period of its own.
		e := cat.UnknownNameError(catalog.SizeName, name)
		return nil, function.NewArgumentFuncError(0, e.Summary()+": "+strings.TrimSuffix(e.Detail, "."))
	}
	return s, nil
}

// parseRFC3339Date accepts an RFC 3339 full-date or date-time and returns it in UTC.
func parseRFC3339Date(s string) (time.Time, error) {
	if t, err := time.Parse(catalog.DateLayout, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// configureData extracts providerData in a data source's Configure.
func configureData(raw any, diags interface {
	AddError(string, string)
}) *providerData {
	if raw == nil {
		return nil
	}
	d, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return d
}
