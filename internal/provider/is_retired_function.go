package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var _ function.Function = (*isRetiredFunction)(nil)

// isRetiredFunction is provider::hpcsku::is_retired(name).
type isRetiredFunction struct {
	provider *hpcskuProvider
}

func newIsRetiredFunction(p *hpcskuProvider) function.Function {
	return &isRetiredFunction{provider: p}
}

func (f *isRetiredFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "is_retired"
}

func (f *isRetiredFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Whether an Azure VM size is retired today.",
		MarkdownDescription: "Returns `true` when the size named `name` is retired at today's date in UTC: " +
			"the catalog records it as retired, or its announced retirement date is today or earlier. " +
			"Returns `false` for sizes in general availability or preview and for retiring sizes whose date is still ahead. " +
			"An unknown name fails the call with the closest names (\"did you mean\"). " +
			"It agrees with `hpcsku_sku.retired` when the provider's `as_of` is today.\n\n" +
			"Use it in a `precondition`, `check` block or `variable` validation to reject a retired size at plan time.\n\n" +
			functionSettingsNote,
		Parameters: []function.Parameter{
			sizeNameParameter("Standard_NC24rs_v3"),
		},
		Return: function.BoolReturn{},
	}
}

func (f *isRetiredFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
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
	resp.Error = resp.Result.Set(ctx, s.RetiredAt(f.provider.functionToday()))
}
