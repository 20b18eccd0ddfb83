package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// TestRecommendationOutputsMatchReflection checks that the hand-built output
// values (recommendation_object.go) equal the framework's reflection
// conversion of the same output models, for results that exercise every
// optional part: AKS and CycleCloud deployment settings, the memory
// estimate, prices with and without a region, spot prices and rejections.
func TestRecommendationOutputsMatchReflection(t *testing.T) {
	ctx := context.Background()
	data := testProviderData(t)
	i64 := func(v int64) *int64 { return &v }
	requests := map[string]recommend.Request{
		"aks fine-tuning":     {Workload: recommend.WorkloadFineTuning, Model: &recommend.Model{ParametersBillion: 7, Precision: "bf16"}, Target: recommend.TargetAKS, Region: "eastus"},
		"cyclecloud hpc":      {Workload: recommend.WorkloadHPC, Cores: i64(2000), Target: recommend.TargetCycleCloud},
		"spot inference":      {Workload: recommend.WorkloadInference, Model: &recommend.Model{ParametersBillion: 13}, Spot: true, Region: "westeurope", MaxResults: i64(10)},
		"small model on CPU":  {Workload: recommend.WorkloadInference, Model: &recommend.Model{ParametersBillion: 0.3, Class: "small"}},
		"visualization":       {Workload: recommend.WorkloadVisualization},
		"training with rules": {Workload: recommend.WorkloadTraining, Model: &recommend.Model{ParametersBillion: 70}, CUDAVersion: "13.0", GPUVendor: "nvidia"},
	}
	for name, req := range requests {
		t.Run(name, func(t *testing.T) {
			req.AsOf = data.AsOf
			result, err := data.Engine.Recommend(req)
			if err != nil {
				t.Fatal(err)
			}
			recs, ro, rej, diags := recommendationOutputs(ctx, result, data)
			if diags.HasError() {
				t.Fatal(diags)
			}
			tt := recommendationOutputTypes
			b := objectBuilder{}
			for _, r := range recs {
				want, d := types.ObjectValueFrom(ctx, tt.rec.AttrTypes, r)
				if d.HasError() {
					t.Fatal(d)
				}
				if got := b.recommendation(r); !got.Equal(want) {
					t.Errorf("recommendation %s: hand-built value differs from reflection:\n got %s\nwant %s", r.VMSize, got, want)
				}
			}
			want, d := types.ObjectValueFrom(ctx, tt.requirements.AttrTypes, ro)
			if d.HasError() {
				t.Fatal(d)
			}
			if got := b.requirements(ro); !got.Equal(want) {
				t.Errorf("requirements differ:\n got %s\nwant %s", got, want)
			}
			wantRej, d := types.ListValueFrom(ctx, tt.rejection, rej)
			if d.HasError() {
				t.Fatal(d)
			}
			elems := make([]attr.Value, len(rej))
			for i, x := range rej {
				elems[i] = b.rejection(x)
			}
			if got := b.list(tt.rejection, elems); !got.Equal(wantRej) {
				t.Errorf("rejected differs:\n got %s\nwant %s", got, wantRej)
			}
			if b.diags.HasError() {
				t.Fatal(b.diags)
			}
		})
	}
}

// recommendationConfig returns hpcsku_recommendation's schema and a
// configuration value of it with set given and every other attribute null.
func recommendationConfig(set map[string]tftypes.Value) tfsdk.Config {
	var sr datasource.SchemaResponse
	(&recommendationDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &sr)
	stateType := sr.Schema.Type().TerraformType(context.Background()).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for n, typ := range stateType.AttributeTypes {
		vals[n] = tftypes.NewValue(typ, nil)
	}
	for n, v := range set {
		vals[n] = v
	}
	return tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(stateType, vals)}
}

// TestRecommendationStateMatchesSet checks that the state Read builds
// directly (recommendationStateValue, with the memoized SKU objects) is the
// state resp.State.Set would build from the same model, for configurations
// that exercise every optional output and input kind.
func TestRecommendationStateMatchesSet(t *testing.T) {
	ctx := context.Background()
	data := testProviderData(t)
	modelType := recommendationConfig(nil).Raw.Type().(tftypes.Object).AttributeTypes["model"].(tftypes.Object)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	num := func(f float64) tftypes.Value { return tftypes.NewValue(tftypes.Number, big.NewFloat(f)) }
	model := func(params float64, precision string) tftypes.Value {
		return tftypes.NewValue(modelType, map[string]tftypes.Value{
			"parameters_billion": num(params),
			"precision":          str(precision),
			"class":              tftypes.NewValue(tftypes.String, nil),
		})
	}
	configs := map[string]map[string]tftypes.Value{
		"aks fine-tuning": {"workload": str("fine_tuning"), "model": model(7, "bf16"), "target": str("aks"), "region": str("eastus")},
		"cyclecloud hpc":  {"workload": str("hpc"), "cores": num(2000), "target": str("cyclecloud")},
		"spot inference": {"workload": str("inference"), "model": model(13, "fp8"), "spot": tftypes.NewValue(tftypes.Bool, true),
			"region": str("westeurope"), "max_results": num(10)},
		"training with lists": {"workload": str("training"), "model": model(70, "bf16"), "gpu_vendor": str("nvidia"),
			"prefer": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("Standard_ND96isr_H100_v5")})},
		"visualization": {"workload": str("visualization")},
	}
	// And every workload for every target, without a region and in two
	// regions, on demand and spot: what fits is compared, what does not is
	// counted.
	for _, w := range []string{"training", "fine_tuning", "inference", "hpc", "htc", "visualization", "data_processing"} {
		for _, target := range []string{"vm", "vmss", "aks", "cyclecloud", "azureml", "batch"} {
			for _, region := range []string{"", "eastus", "westeurope"} {
				for _, spot := range []bool{false, true} {
					set := map[string]tftypes.Value{"workload": str(w), "target": str(target), "spot": tftypes.NewValue(tftypes.Bool, spot)}
					switch w {
					case "training", "fine_tuning", "inference":
						set["model"] = model(7, "bf16")
					case "hpc", "htc":
						set["cores"] = num(512)
					}
					if region != "" {
						set["region"] = str(region)
					}
					configs[fmt.Sprintf("matrix/%s/%s/%s/spot=%t", w, target, region, spot)] = set
				}
			}
		}
	}
	compared, noFit := 0, 0
	for name, set := range configs {
		t.Run(name, func(t *testing.T) {
			config := recommendationConfig(set)
			var cfg recommendationDataSourceModel
			var diags diag.Diagnostics
			diags.Append(config.Get(ctx, &cfg)...)
			req := requestFromConfig(ctx, cfg, data, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			result, err := data.Engine.Recommend(req)
			var nf *recommend.NoFitError
			if errors.As(err, &nf) && strings.HasPrefix(name, "matrix/") {
				noFit++
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			skus, d := setRecommendationOutputs(ctx, &cfg, result, data)
			if d.HasError() {
				t.Fatal(d)
			}
			compared++
			got, d := recommendationStateValue(ctx, config.Raw, &cfg, skus)
			if d.HasError() {
				t.Fatal(d)
			}
			want := tfsdk.State{Schema: config.Schema}
			if d := want.Set(ctx, &cfg); d.HasError() {
				t.Fatal(d)
			}
			if !got.Equal(want.Raw) {
				diffs, _ := got.Diff(want.Raw)
				t.Fatalf("direct state differs from State.Set in %d places, first: %v", len(diffs), diffs[0])
			}
			// Reading the state back gives the model that was set.
			var back recommendationDataSourceModel
			if d := (tfsdk.State{Schema: config.Schema, Raw: got}).Get(ctx, &back); d.HasError() {
				t.Fatal(d)
			}
			if back.VMSize.ValueString() != result.Recommendations[0].VMSize || len(back.Recommendations.Elements()) != len(result.Recommendations) {
				t.Fatalf("state reads back vm_size %s with %d recommendations, want %s with %d",
					back.VMSize, len(back.Recommendations.Elements()), result.Recommendations[0].VMSize, len(result.Recommendations))
			}
		})
	}
	t.Logf("%d configurations compared, %d without a fitting size", compared, noFit)
	if compared < 200 {
		t.Errorf("only %d of %d configurations compared (%d without a fitting size); the matrix no longer exercises the conversion", compared, len(configs), noFit)
	}
}

// TestRecommendationStateValueErrors checks that a mismatch between the
// model and the SKU objects is a diagnostic, not a panic.
func TestRecommendationStateValueErrors(t *testing.T) {
	ctx := context.Background()
	data := testProviderData(t)
	raw := recommendationConfig(map[string]tftypes.Value{"workload": tftypes.NewValue(tftypes.String, "visualization")}).Raw
	result, err := data.Engine.Recommend(recommend.Request{Workload: recommend.WorkloadVisualization, AsOf: data.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	var cfg recommendationDataSourceModel
	skus, d := setRecommendationOutputs(ctx, &cfg, result, data)
	if d.HasError() {
		t.Fatal(d)
	}
	cases := map[string]struct {
		config tftypes.Value
		skus   []tftypes.Value
		want   string
	}{
		"fewer SKU objects": {raw, skus[1:], "5 recommendations but 4 SKU objects"},
		"SKU of another type": {raw, append([]tftypes.Value{tftypes.NewValue(tftypes.String, "x")}, skus[1:]...),
			`AttributeName("sku"): can't use tftypes.String as tftypes.Object`},
		"config not an object": {tftypes.NewValue(tftypes.String, "x"), skus, "can't unmarshal"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := recommendationStateValue(ctx, c.config, &cfg, c.skus)
			if !diags.HasError() {
				t.Fatal("no error")
			}
			if got := diags[0].Summary(); got != "State Conversion Failed" {
				t.Errorf("summary %q", got)
			}
			if !strings.Contains(diags[0].Detail(), c.want) {
				t.Errorf("detail %q does not contain %q", diags[0].Detail(), c.want)
			}
		})
	}
}
