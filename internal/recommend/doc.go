// Package recommend is the ranking engine behind the hpcsku_recommendation
// data source. It turns a workload description (training a 70B model in
// bf16, serving OPT-1.3B, MPI on 2,000 cores) into requirements, removes the
// catalog sizes that cannot meet them (hard constraints, each counted under
// its own name), ranks what is left with reasons and warnings, and adds
// deployment hints for the chosen target. When nothing fits it returns a
// *NoFitError that lists every constraint with its count and the nearest miss.
//
// The package has no Terraform framework types: the provider maps its schema
// to Request and Result. Everything it decides is written down as documented
// constants and tables in rules.go, so that the guide page can be generated
// from the comments.
//
// # Pipeline
//
//  1. Requirements (requirements.go): category and family preference from
//     the workload and model class (seed 002's table), the memory estimate
//     (memory.go), system memory headroom for inference (seed 004).
//  2. Layout, per size: the number of VMs the job needs on that size (scale
//     up before scale out: seeds 003 and 004), and whether the job then needs
//     InfiniBand (seeds 000 and 001, "Bandwidth").
//  3. Hard constraints (constraints.go), evaluated in the order of
//     Constraints. A removed size is counted under the first constraint it
//     fails, so the counts in Result.Rejected add up to the sizes removed.
//  4. Score (score.go): weighted components in [0, 1] (family fit, cost,
//     job sizing, generation, scale) minus penalties, 0 to 100. Sorted by
//     score, then price, then name; `prefer` can pin a size to rank 1.
//  5. Result: reasons, warnings and deployment hints (deploy.go) for the top
//     MaxResults sizes.
//
// # Determinism
//
// Recommend is a pure function of the catalog and the Request (including
// Request.AsOf): same inputs, identical output. It never reads the clock; a
// zero AsOf means the catalog's data date. Scores are rounded to one decimal
// before they are compared, and every tie is broken by price, then by name.
package recommend
