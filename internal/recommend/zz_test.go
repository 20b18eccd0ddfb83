package recommend

import (
	"fmt"
	"testing"
)

func TestZZ(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, ContextTokens: i64(8192), ConcurrentRequests: i64(32), MaxResults: i64(MaxResultsLimit), AsOf: asOf}
	cat := fixture(t)
	for _, mod := range []func(){func() {}, func() { req.TokensPerSecond, req.ConcurrentRequests = f64p(5000), nil }} {
		mod()
		res := mustRecommendOn(t, cat, req)
		r := byName(res, "Standard_NC40ads_H100_v5")
		e := r.Estimate
		fmt.Println(r.Replicas, r.Nodes, *e.TokensPerSecond, *e.CostPerMillionTokens, *e.TimeToFirstTokenMs, *e.TimePerOutputTokenMs, e.Assumptions)
	}
}
