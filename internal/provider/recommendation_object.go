package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
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
