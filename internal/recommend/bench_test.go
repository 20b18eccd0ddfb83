// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"testing"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// BenchmarkRecommend measures one recommendation over the full embedded
// catalog: a 70B training job, which evaluates every size,
// scores the candidates and builds five recommendations with reasons.
func BenchmarkRecommend(b *testing.B) {
	cat, err := catalog.Default()
	if err != nil {
		b.Fatal(err)
	}
	eng, err := NewEngine(cat)
	if err != nil {
		b.Fatal(err)
	}
	reqs := map[string]Request{
		"training70B":  {Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		"inference1B":  {Workload: WorkloadInference, Model: &Model{ParametersBillion: 1.3}, Region: "eastus", AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		"hpc2000cores": {Workload: WorkloadHPC, Cores: ptr(int64(2000)), Target: TargetCycleCloud, AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
	}
	for name, req := range reqs {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eng.Recommend(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
