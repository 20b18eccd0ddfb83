// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds Recommend, which runs the engine's steps: requirements,
// evaluation, ranking and explanation.

// Recommend ranks the catalog's sizes for a request. It returns a
// *ValidationError when the request cannot be interpreted, and a *NoFitError
// when no size passes every hard constraint (never an empty success). Its
// steps hand values down: the requirements, each size's evaluation (layout,
// estimate figures, constraints), the ranking of the sizes that pass, and
// the explanation of the ranked ones.
func (e *Engine) Recommend(req Request) (*Result, error) {
	fatal, soft := validate(e.cat, req)
	if len(fatal) > 0 {
		return nil, &ValidationError{Errors: fatal}
	}
	n := deriveRequirements(e.cat, req)
	n.hpc.resolveReference(e.cat, e.prep, req.ReferenceRun)

	buf, ok := e.evals.Get().(*[]eval)
	if !ok {
		buf = new([]eval)
	}
	defer e.evals.Put(buf)
	if cap(*buf) < len(e.prep.sizes) {
		*buf = make([]eval, len(e.prep.sizes))
	}
	evals := (*buf)[:len(e.prep.sizes)]
	evaluateAll(n, e.cat, e.prep, evals)

	rejected := rejections(n, evals)
	r := rank(n, evals)
	if len(r.cands) == 0 {
		return nil, &NoFitError{Rejected: rejected, NearestMiss: nearestMiss(n, evals), checked: len(evals)}
	}
	res := explainRanking(n, r)
	if n.spotTraining() {
		// The advice belongs in state too, with the size a plan applies.
		top := &res.Recommendations[0]
		top.Warnings = append(top.Warnings, spotTrainingAdvice)
	}
	res.Rejected = rejected
	res.Warnings = append(res.Warnings, resultWarnings(n, e.cat, r, evals)...)
	res.Warnings = append(res.Warnings, quotaResultWarnings(n, r)...)
	res.Warnings = append(res.Warnings, ignoredInputs(soft)...)
	return res, nil
}
