package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = (*skuFunction)(nil)

// skuFunction is provider::hpcsku::sku(name): the SKU object of one size.
type skuFunction struct {
	provider *hpcskuProvider
}

func newSKUFunction(p *hpcskuProvider) function.Function { return &skuFunction{provider: p} }

func (f *skuFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "sku"
}

func (f *skuFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Look up one Azure VM size and return every fact the catalog has about it.",
		MarkdownDescription: "Returns the size named `name` as an object with the same attributes as `hpcsku_sku.sku` and each entry of `hpcsku_catalog.skus`: " +
			"GPU, CUDA, RDMA/InfiniBand, support, image and lifecycle facts, with their sources. " +
			"A function takes no region, so `price`, `availability.region` and `availability.available` are always null; " +
			"`priced_regions` and `availability.regions` list where the size is offered. " +
			"`lifecycle.status` is judged at today's date in UTC. " +
			"An unknown name fails the call with the closest names (\"did you mean\").\n\n" +
			"Use it where a data source cannot go, such as a `variable` validation or a `check` block, for example " +
			"`provider::hpcsku::sku(var.size).network.rdma`.\n\n" + functionSettingsNote,
		Parameters: []function.Parameter{
			sizeNameParameter("Standard_ND96isr_H100_v5"),
		},
		Return: function.ObjectReturn{AttributeTypes: skuObjectType().AttrTypes},
	}
}

func (f *skuFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var name string
	resp.Error = req.Arguments.Get(ctx, &name)
	if resp.Error != nil {
		return
	}
	s, funcErr := f.provider.functionLookup(ctx, name)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	data, funcErr := f.provider.functionState(ctx)
	if funcErr != nil {
		resp.Error = funcErr
		return
	}
	obj, diags := data.skus.object(ctx, s, "", f.provider.functionToday())
	if diags.HasError() {
		resp.Error = function.FuncErrorFromDiags(ctx, diags)
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
