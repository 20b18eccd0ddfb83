package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Hand-built values of hpcsku_recommendation's computed outputs. They are
// what types.ListValueFrom and types.ObjectValueFrom make of the *Out structs
// (TestRecommendationOutputsMatchReflection checks it) without the
// framework's reflection, which cost more than the ranking itself: a read of
// five recommendations spent most of its time converting structs.

// recommendationOutputTypes are the attribute types of the computed outputs,
// built once from the schema.
var recommendationOutputTypes = func() struct {
	rec, deployment, aks, cycleCloud, requirements, memory, rejection basetypes.ObjectType
} {
	attrs := recommendationOutputAttributes()
	rec := attrs["recommendations"].GetType().(basetypes.ListType).ElemType.(basetypes.ObjectType)
	dep := rec.AttrTypes["deployment"].(basetypes.ObjectType)
	req := attrs["requirements"].GetType().(basetypes.ObjectType)
	return struct {
		rec, deployment, aks, cycleCloud, requirements, memory, rejection basetypes.ObjectType
	}{
		rec:          rec,
		deployment:   dep,
		aks:          dep.AttrTypes["aks"].(basetypes.ObjectType),
		cycleCloud:   dep.AttrTypes["cyclecloud"].(basetypes.ObjectType),
		requirements: req,
		memory:       req.AttrTypes["memory"].(basetypes.ObjectType),
		rejection:    attrs["rejected"].GetType().(basetypes.ListType).ElemType.(basetypes.ObjectType),
	}
}()

// objectBuilder builds objects of known types, collecting diagnostics.
type objectBuilder struct{ diags diag.Diagnostics }

func (b *objectBuilder) object(t basetypes.ObjectType, attrs map[string]attr.Value) types.Object {
	v, d := types.ObjectValue(t.AttrTypes, attrs)
	b.diags.Append(d...)
	return v
}

func (b *objectBuilder) list(elem attr.Type, elems []attr.Value) types.List {
	v, d := types.ListValue(elem, elems)
	b.diags.Append(d...)
	return v
}

func (b *objectBuilder) recommendation(r recommendationOut) types.Object {
	t := recommendationOutputTypes
	return b.object(t.rec, map[string]attr.Value{
		"rank":                 types.Int64Value(r.Rank),
		"score":                types.Float64Value(r.Score),
		"vm_size":              types.StringValue(r.VMSize),
		"nodes":                types.Int64Value(r.Nodes),
		"gpus_per_node":        types.Float64Value(r.GPUsPerNode),
		"total_gpus":           types.Float64Value(r.TotalGPUs),
		"total_gpu_memory_gib": types.Float64Value(r.TotalGPUMemoryGiB),
		"price_per_hour":       types.Float64PointerValue(r.PricePerHour),
		"total_price_per_hour": types.Float64PointerValue(r.TotalPricePerHour),
		"price_per_gpu_hour":   types.Float64PointerValue(r.PricePerGPUHour),
		"price_is_spot":        types.BoolValue(r.PriceIsSpot),
		"price_source":         types.StringPointerValue(r.PriceSource),
		"reasons":              stringListValue(r.Reasons),
		"warnings":             stringListValue(r.Warnings),
		"deployment":           b.deployment(r.Deployment),
		"sku":                  r.SKU,
	})
}

func (b *objectBuilder) deployment(d deploymentOut) types.Object {
	t := recommendationOutputTypes
	aks := types.ObjectNull(t.aks.AttrTypes)
	if a := d.AKS; a != nil {
		labels := make(map[string]attr.Value, len(a.NodeLabels))
		for k, v := range a.NodeLabels {
			labels[k] = types.StringValue(v)
		}
		m, diags := types.MapValue(types.StringType, labels)
		b.diags.Append(diags...)
		aks = b.object(t.aks, map[string]attr.Value{
			"node_taints": stringListValue(a.NodeTaints),
			"node_labels": m,
			"gpu_driver":  types.StringValue(a.GPUDriver),
			"note":        types.StringPointerValue(a.Note),
		})
	}
	cc := types.ObjectNull(t.cycleCloud.AttrTypes)
	if c := d.CycleCloud; c != nil {
		cc = b.object(t.cycleCloud, map[string]attr.Value{
			"partition":    types.StringValue(c.Partition),
			"slurm_hpc":    types.BoolValue(c.SlurmHPC),
			"machine_type": types.StringValue(c.MachineType),
		})
	}
	return b.object(t.deployment, map[string]attr.Value{
		"image_urn":              types.StringPointerValue(d.ImageURN),
		"accelerated_networking": types.BoolValue(d.AcceleratedNetworking),
		"rdma":                   types.BoolValue(d.RDMA),
		"placement_group":        types.BoolValue(d.PlacementGroup),
		"single_placement_group": types.BoolValue(d.SinglePlacementGroup),
		"aks":                    aks,
		"cyclecloud":             cc,
	})
}

func (b *objectBuilder) requirements(r requirementsOut) types.Object {
	t := recommendationOutputTypes
	mem := types.ObjectNull(t.memory.AttrTypes)
	if m := r.Memory; m != nil {
		mem = b.object(t.memory, map[string]attr.Value{
			"gib":                 types.Float64Value(m.GiB),
			"bytes_per_parameter": types.Float64Value(m.BytesPerParameter),
			"formula":             types.StringValue(m.Formula),
		})
	}
	return b.object(t.requirements, map[string]attr.Value{
		"category":           types.StringValue(r.Category),
		"preferred_families": stringListValue(r.PreferredFamilies),
		"gpu_memory_gib":     types.Float64PointerValue(r.GPUMemoryGiB),
		"memory":             mem,
		"system_memory_gib":  types.Float64PointerValue(r.SystemMemoryGiB),
		"nodes":              types.Int64Value(r.Nodes),
		"interconnect":       types.StringValue(r.Interconnect),
		"min_gpus_per_job":   types.Float64PointerValue(r.MinGPUsPerJob),
		"explanation":        stringListValue(r.Explanation),
	})
}

func (b *objectBuilder) rejection(r rejectionOut) types.Object {
	return b.object(recommendationOutputTypes.rejection, map[string]attr.Value{
		"constraint": types.StringValue(r.Constraint),
		"count":      types.Int64Value(r.Count),
		"examples":   stringListValue(r.Examples),
		"reason":     types.StringValue(r.Reason),
	})
}

// recommendationTerraformTypes are the state's and a recommendation's types
// as terraform-plugin-go types, built once: converting the schema's types
// walks every nested attribute, and the SKU object has many.
var recommendationTerraformTypes = sync.OnceValue(func() struct{ state, rec tftypes.Type } {
	ctx := context.Background()
	var resp datasource.SchemaResponse
	(&recommendationDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &resp)
	return struct{ state, rec tftypes.Type }{
		state: resp.Schema.Type().TerraformType(ctx),
		rec:   recommendationOutputTypes.rec.TerraformType(ctx),
	}
})

// recommendationStateValue builds hpcsku_recommendation's state: the
// configuration's values with the computed outputs of cfg, each
// recommendation's `sku` taken from skus (the memoized SKU objects). It is
// what resp.State.Set(ctx, cfg) produces (TestRecommendationStateMatchesSet)
// without its reflection over the model and its extra walk over every value,
// which cost more than everything else in a read.
func recommendationStateValue(ctx context.Context, config tftypes.Value, cfg *recommendationDataSourceModel, skus []tftypes.Value) (state tftypes.Value, diags diag.Diagnostics) {
	fail := func(err error) {
		diags.AddError("State Conversion Failed", "The recommendation could not be converted into Terraform state. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
	}
	// tftypes.NewValue panics on a value that does not match its type; a
	// mistake here must be a diagnostic, never a crashed plan.
	defer func() {
		if r := recover(); r != nil {
			fail(fmt.Errorf("%v", r))
		}
	}()
	tt := recommendationTerraformTypes()
	vals := map[string]tftypes.Value{}
	if err := config.As(&vals); err != nil {
		fail(err)
		return state, diags
	}
	outputs := map[string]attr.Value{
		"vm_size":         cfg.VMSize,
		"vm_sizes":        cfg.VMSizes,
		"requirements":    cfg.Requirements,
		"rejected":        cfg.Rejected,
		"as_of":           cfg.AsOf,
		"catalog_version": cfg.CatalogVersion,
	}
	for name, v := range outputs {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
			return state, diags
		}
		vals[name] = tv
	}
	recs := cfg.Recommendations.Elements()
	if len(recs) != len(skus) {
		fail(fmt.Errorf("%d recommendations but %d SKU objects", len(recs), len(skus)))
		return state, diags
	}
	elems := make([]tftypes.Value, len(recs))
	for i, rec := range recs {
		obj, ok := rec.(basetypes.ObjectValue)
		if !ok {
			fail(fmt.Errorf("recommendation %d is a %T, not an object", i, rec))
			return state, diags
		}
		attrs := obj.Attributes()
		m := make(map[string]tftypes.Value, len(attrs))
		for name, v := range attrs {
			if name == "sku" {
				m[name] = skus[i]
				continue
			}
			tv, err := v.ToTerraformValue(ctx)
			if err != nil {
				fail(fmt.Errorf("recommendations[%d].%s: %w", i, name, err))
				return state, diags
			}
			m[name] = tv
		}
		elems[i] = tftypes.NewValue(tt.rec, m)
	}
	vals["recommendations"] = tftypes.NewValue(tftypes.List{ElementType: tt.rec}, elems)
	return tftypes.NewValue(tt.state, vals), diags
}
