// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// defaults lists every value the engine chose on the user's behalf, keyed
// by the input's name (model.precision, context_tokens): inputs left unset
// that the job uses, and a stated context above the model's maximum, which
// the estimate caps. Requirements.Defaults reports it. max_results, which
// shapes the list rather than the job, is the list's length.
func (n *requirements) defaults() map[string]string {
	d := map[string]string{}
	set := func(unset bool, name, value string) {
		if unset && value != "" {
			d[name] = value
		}
	}
	req := n.req
	set(req.Interconnect == "", "interconnect", n.interconnect)
	set(req.GPUVendor == "" && n.fit.category == catalog.CategoryGPU, "gpu_vendor", n.vendor)
	set(req.Target == "", "target", n.target)
	set(req.OptimizeFor == "", "optimize_for", n.optimize)
	set(req.MinLifetimeMonths == nil, "min_lifetime_months", itoa(n.lifetimeMonths))
	if n.hasModel {
		n.modelDefaults(set)
	}
	if n.workload == WorkloadHPC || n.workload == WorkloadHTC {
		set(req.HPCBound == "", "hpc_bound", n.hpc.Bound)
		// Without cores or nodes a job is one VM of each size.
		set(req.Cores == nil && req.Nodes == nil, "nodes", "1")
	}
	return d
}

// modelDefaults adds the model's and its job's defaults: the table's
// parameter count, the published or default precision and class, the
// fine-tuning method, the sequences, and the training work's budget and
// deadline.
func (n *requirements) modelDefaults(set func(unset bool, name, value string)) {
	req, m := n.req, n.req.Model
	set(m.ParametersBillion == 0, "model.parameters_billion", trimFloat(n.mi.Params))
	set(m.Precision == "", "model.precision", n.precision)
	set(m.Class == "", "model.class", n.class)
	set(req.FineTuningMethod == "" && n.workload == WorkloadFineTuning, "fine_tuning_method", n.mem.FineTuningMethod)
	if n.mem.ContextTokens > 0 {
		set(req.ContextTokens == nil || n.model.contextCapped, "context_tokens", itoa(n.mem.ContextTokens))
	}
	if n.mem.ConcurrentRequests > 0 && n.workload == WorkloadInference {
		set(req.ConcurrentRequests == nil, "concurrent_requests", itoa(n.mem.ConcurrentRequests))
	}
	if n.mem.TrainingBatchSize > 0 {
		set(req.TrainingBatchSize == nil, "training_batch_size", itoa(n.mem.TrainingBatchSize))
	}
	if n.train.FLOPs > 0 {
		set(n.train.budget != tokensStated, "tokens_billion", trimFloat(n.train.TokensB))
		set(!n.train.deadlineStated, "deadline_hours", trimFloat(n.train.Deadline))
	}
}
