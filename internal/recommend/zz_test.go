package recommend

import (
	"fmt"
	"testing"
)

func TestZZ(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "phi-3-mini"}, AsOf: asOf, Region: "eastus", MaxResults: i64(10)})
	for _, r := range res.Recommendations {
		fmt.Println(r.Rank, r.Score, r.VMSize, r.Replicas, r.TensorParallel, *r.TotalPricePerHour, *r.Estimate.CostPerMillionTokens, r.Reasons[1])
	}
}
