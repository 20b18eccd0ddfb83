// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package recommend is the ranking engine behind the hpcsku_recommendation
// data source. It turns a workload description (training a 70B model in
// bf16, serving OPT-1.3B, MPI on 2,000 cores) into requirements, removes the
// catalog sizes that cannot meet them (hard constraints, each counted under
// its own name), ranks what is left with reasons and warnings, and adds
// deployment hints for the chosen target. When nothing fits it returns a
// *NoFitError that lists every constraint with its count and the nearest miss.
//
// The package has no Terraform framework types: the provider maps its schema
// to Request and Result. It holds the policy; the numbers it compares come
// from the performance models of internal/perfmodel (GPU memory and its
// per-GPU split, training time, the serving step model, the HPC per-VM
// model), and the deployment settings of a ranked layout from
// internal/deploy. Everything it decides is written down as documented
// constants and tables, which the ranking guide
// (templates/guides/ranking.md.tmpl) quotes: its worked examples,
// constraint table and quoted constants are written by internal/guidegen
// from the engine on the fixture catalog (make generate), and a test fails
// when they drift. rules.go holds the request's defaults and bounds,
// families, generations, score weights and penalties; constraints.go the
// hard constraints (constraint.go names them in order), each with the step
// that decides it, its check, its rejection sentence and how to relax it;
// ranges.go the allowed range of every number and its one message. The
// generation years are data: year_available of each series and
// architecture_year of each GPU model, in the catalog.
//
// # Files
//
// Each file uses only names of the files below it in this list (the
// references between files run one way; scripts/filerefs counts them):
//
//	recommend.go              Recommend: the four steps
//	engine.go                 Engine, Validate, ResolveMemory, TrainingRun
//	evaluate.go               step 2: each size's facts, constraints, scale up
//	explain.go                step 4: recommendations and result warnings
//	explain_requirements.go   step 4: the requirements' sentences and defaults
//	layout.go                 step 2: the VMs that hold the job, deadline, quota, region
//	nofit.go                  the *NoFitError and the nearest miss
//	rank.go                   step 3: scores and order
//	serving_layout.go         step 2: the layout search of a served model
//	validate.go               the request's checks
//	constraints.go            the hard constraints' table
//	deploy.go                 a ranked layout to internal/deploy
//	estimate.go               step 4: a layout's figures and Estimate
//	eval.go                   one size's evaluation (eval)
//	phrases.go                phrases the constraints and explanations share
//	quota.go                  a layout against the usage files
//	requirements.go           step 1: the requirements, as numbers
//	serving.go                a served model's demand and batch
//	problems.go               what validate collects
//	model.go                  the model resolved from the table and defaults
//	work.go                   training, hpc work and GPU layouts
//	ranges.go, prep.go, types.go, text.go, rules.go, regions.go, constraint.go
//
// # Steps
//
// Engine.Recommend runs four steps, each handing values down to the next;
// no step writes what an earlier one produced.
//
//  1. Requirements (requirements.go, model.go, work.go, serving.go):
//     numbers only. deriveRequirements turns the validated Request
//     (validate.go, its ranges in ranges.go) into a requirements value:
//     the settings (filters, region, target, dates, weights); the need
//     (category and families from the workload and model class,
//     familyRules, after "Compute for AI workloads on Azure
//     infrastructure"; the model, from the catalog's model table by name or
//     from its parameter count, resolveModel; the memory estimate,
//     perfmodel.EstimateMemory: full training and fine-tuning, LoRA and
//     QLoRA, the KV cache of the stated context and concurrency,
//     activations by model kind; GPU memory and how it splits over GPUs,
//     gpuJobOf; system memory for inference, 150% of the weights, after
//     "What are compute targets in Azure Machine Learning?"); and the work
//     the performance models time (training, serving, hpcWork).
//  2. Evaluation, per size (evaluate.go, layout.go, serving_layout.go,
//     constraints.go): an eval value. The price; the layout (the per-GPU
//     fit, perfmodel.GPUJob.Fit, with tensor parallelism inside a VM,
//     pipeline stages across VMs only when one VM cannot hold a copy,
//     replicas for concurrency or tokens_per_second, states sharded over
//     every GPU for training, the whole model on every GPU for
//     data-parallel kinds; whole GPUs, cores and system memory; scaling
//     out for a deadline; the nodes setting; whether the job needs
//     InfiniBand, after Bandwidth in "Compute for Machine Learning on HPC"
//     and the HPC landing zone accelerator); the speed, cost key and job
//     sizing; and the hard constraints. Each constraint is described by its
//     entry of constraintTable, in the order of the constraint enum
//     (Constraints), which says which step decides it: the per-size checks,
//     layout, or, once every size is evaluated, the comparison of sizes
//     ("scale_up": when some size holds the job, one copy of the model, on
//     one VM, layouts that span VMs are removed; "What are compute targets
//     in Azure Machine Learning?"). A removed size is counted under the
//     first constraint it fails, so the counts in Result.Rejected add up to
//     the sizes removed.
//  3. Ranking (rank.go): the sizes that pass every constraint become
//     candidates with a score: weighted components in [0, 1] (family fit,
//     cost, job sizing with its target band, generation or time to result,
//     scale; weightSets) minus penalties (unused InfiniBand, inference at a
//     non-native precision, tensor parallelism over PCIe, idle GPUs,
//     retirement, preview, unknown target support, no price), clamped to
//     0..100. They are sorted by quota (with usage files: sufficient,
//     unknown, insufficient; quota.go), with fallback families last, then
//     sizes the performance models cannot time, then layouts past the
//     default deadline, then by score, then price, then name; reading only
//     what evaluation produced and the scores. `prefer` pins its first
//     fitting size to rank 1; the ranking keeps the best size on score for
//     the warning about a better size.
//  4. Explanation (explain.go, explain_requirements.go, estimate.go,
//     deploy.go): every sentence, made from the values above: the
//     requirements' explanation and warnings; for the top max_results
//     sizes, the estimate's figures (figuresOf) turned into an Estimate
//     with its assumptions, reasons, warnings and deployment settings;
//     result-level warnings. The constraints' reasons and relaxations are
//     in their table entries.
//
// When nothing fits, the *NoFitError (nofit.go) lists every constraint with
// its count and names the nearest miss: the best size among those failing
// the fewest constraints a user can relax (those with a relax in
// constraintTable: not retired, deployable, unknown_specs, workload or
// scale_up), with what to change.
//
// # Determinism and stable sizes
//
// Engine.Recommend is a pure function of the catalog and the Request (including
// Request.AsOf): same inputs, identical output. It never reads the clock; a
// zero AsOf means the catalog's data date. Scores are rounded to one decimal
// before they are compared, and every tie is broken by price, then by name.
//
// A recommendation can still change when the inputs change: a provider
// upgrade brings a new catalog (new sizes, prices, retirement dates), and
// as_of moving past a retirement date (or within min_lifetime_months of
// it) removes a size. When vm_size feeds a VM or scale set, Terraform then
// plans to replace the running VMs. Two settings prevent that: the
// provider's as_of pins the date the lifecycle rules use, and prefer lists
// the size already deployed, which stays at rank 1 as long as it meets
// every requirement (with a warning when a clearly better size exists, or
// when it retires within 24 months).
//
// # Performance
//
// Per-size facts (parsed dates and versions, lowest prices, generation
// years) are computed once, by NewEngine; a call evaluates every size
// without allocating per size, checks each constraint the request sets in
// one loop over the sizes, and builds strings only for the returned
// recommendations. BenchmarkRecommend measures the full embedded catalog.
package recommend
