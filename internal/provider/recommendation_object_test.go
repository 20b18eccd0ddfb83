package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"
)

// TestRecommendationOutputsMatchReflection checks that the hand-built output
// values (recommendation_object.go) equal the framework's reflection
// conversion of the same output models, for results that exercise every
// optional part: AKS and CycleCloud deployment settings, the memory
// estimate, prices with and without a region, spot prices and rejections.
func TestRecommendationOutputsMatchReflection(t *testing.T) {
	ctx := context.Background()
	data := &providerData{Catalog: testCatalog(t), AsOf: testAsOf}
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
			result, err := recommend.Recommend(data.Catalog, req)
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
