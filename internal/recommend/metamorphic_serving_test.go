// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file change one input of a service stated the way
// serving engineers state one (a load and latency targets, no
// concurrent_requests) and check that the answer moves the way an
// architect expects, on random services over the fixture catalog.

// servingRuns is the random services each test draws.
const servingRuns = 150

// randomService is a service by load: a model of the table at its
// published precision or fp8, prompt and output tokens or the default
// split (within the model's context), a load in output tokens or requests per second, often a target
// on the first token or on each token, sometimes min_replicas.
func randomService(r *rand.Rand) Request {
	models := []string{"llama-3.1-8b", "llama-3.1-70b", "gpt-oss-120b", "opt-1.3b"}
	req := Request{Workload: WorkloadInference, Model: &Model{Name: models[r.IntN(len(models))]}, AsOf: asOf}
	if r.IntN(3) == 0 {
		req.Model.Precision = PrecisionFP8
	}
	if r.IntN(2) == 0 {
		req.PromptTokens, req.OutputTokens = i64(int64(100+r.IntN(4000))), i64(int64(20+r.IntN(1000)))
		if req.Model.Name == "opt-1.3b" { // within its 2,048-token context
			req.PromptTokens, req.OutputTokens = i64(*req.PromptTokens/3), i64(*req.OutputTokens/3)
		}
	}
	if r.IntN(2) == 0 {
		req.TokensPerSecond = f64(float64(50 + r.IntN(30000)))
	} else {
		req.RequestsPerSecond = f64(0.05 + 50*r.Float64())
	}
	if r.IntN(2) == 0 {
		req.MaxTimeToFirstTokenMs = f64(float64(100 + r.IntN(3000)))
	}
	if r.IntN(2) == 0 {
		req.MaxTimePerOutputTokenMs = f64(float64(5 + r.IntN(100)))
	}
	if r.IntN(4) == 0 {
		req.MinReplicas = i64(int64(1 + r.IntN(3)))
	}
	return req
}

// eachService calls check for servingRuns random services, in a fixed
// sequence.
func eachService(seed uint64, check func(req Request)) {
	r := rand.New(rand.NewPCG(seed, 9))
	for range servingRuns {
		check(randomService(r))
	}
}

func describe(req Request) string {
	return fmt.Sprintf("%s %q prompt %v output %v tok/s %v req/s %v ttft %v tpot %v replicas %v", req.Model.Name, req.Model.Precision,
		deref(req.PromptTokens), deref(req.OutputTokens), derefF(req.TokensPerSecond), derefF(req.RequestsPerSecond),
		derefF(req.MaxTimeToFirstTokenMs), derefF(req.MaxTimePerOutputTokenMs), deref(req.MinReplicas))
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func derefF(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// keepsOnNoMoreVMs checks that a change (what) keeps every size of before
// and puts none of them on more VMs.
func keepsOnNoMoreVMs(t *testing.T, what string, req Request, before, after map[string]Recommendation) {
	t.Helper()
	keeps(t, what, req, before, after)
	for name, b := range before {
		if a, ok := after[name]; ok && a.Nodes > b.Nodes {
			t.Errorf("%s puts %s on %d VMs, from %d", what, name, a.Nodes, b.Nodes)
		}
	}
}

// Looser latency targets never remove a size nor put one on more VMs: a
// layout that meets the stricter targets meets the looser ones.
func TestLooserLatencyTargetsNeverRemoveASize(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachService(21, func(req Request) {
		if req.MaxTimeToFirstTokenMs == nil && req.MaxTimePerOutputTokenMs == nil {
			req.MaxTimePerOutputTokenMs = f64(20)
		}
		before, ok := passing(t, eng, req)
		if !ok {
			return
		}
		looser := req
		looser.MaxTimeToFirstTokenMs, looser.MaxTimePerOutputTokenMs = scaled(req.MaxTimeToFirstTokenMs, 2), scaled(req.MaxTimePerOutputTokenMs, 2)
		after, _ := passing(t, eng, looser)
		keepsOnNoMoreVMs(t, "doubling the latency targets of "+describe(req), req, before, after)
		tried += len(before)
	})
	if tried == 0 {
		t.Fatal("no service had a size to keep")
	}
}

// A lighter load never removes a size, nor puts one on more VMs.
func TestLighterLoadNeverRemovesASizeOrAddsVMs(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachService(22, func(req Request) {
		before, ok := passing(t, eng, req)
		if !ok {
			return
		}
		lighter := req
		lighter.TokensPerSecond, lighter.RequestsPerSecond = scaled(req.TokensPerSecond, 0.5), scaled(req.RequestsPerSecond, 0.5)
		after, _ := passing(t, eng, lighter)
		keepsOnNoMoreVMs(t, "halving the load of "+describe(req), req, before, after)
		tried += len(before)
	})
	if tried == 0 {
		t.Fatal("no service had a size to keep")
	}
}

// missAlone is the nearest miss of a request no size serves, where it fails
// one constraint and its relax matches relax, with the relax's submatches;
// nil otherwise.
func missAlone(eng *Engine, req Request, relax *regexp.Regexp) (*NearestMiss, []string) {
	_, err := eng.Recommend(req)
	var nf *NoFitError
	if !errors.As(err, &nf) || nf.NearestMiss == nil || len(nf.NearestMiss.FailedConstraints) != 1 {
		return nil, nil
	}
	m := relax.FindStringSubmatch(nf.NearestMiss.Relax)
	if m == nil {
		return nil, nil
	}
	return nf.NearestMiss, m
}

// relaxedTarget matches a nearest miss's change to a latency target.
var relaxedTarget = regexp.MustCompile(`^raise (max_time_to_first_token_ms|max_time_per_output_token_ms) to ([\d.]+) \(`)

// raisedTarget is req with the latency target relaxedTarget's match m
// names raised to its figure, and the figure.
func raisedTarget(req Request, m []string) (Request, float64) {
	ms, _ := strconv.ParseFloat(m[2], 64)
	if m[1] == "max_time_to_first_token_ms" {
		req.MaxTimeToFirstTokenMs = &ms
	} else {
		req.MaxTimePerOutputTokenMs = &ms
	}
	return req, ms
}

// A service no size serves within tight targets: where the nearest miss
// fails only a latency target, raising the target as its relax says lets
// that size serve, and the figure is above the target asked.
func TestNearestMissOfATargetServesWhenRaised(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := map[string]int{}
	eachService(23, func(req Request) {
		req.MaxTimeToFirstTokenMs, req.MaxTimePerOutputTokenMs = nil, f64(2)
		if deref(req.PromptTokens)%2 == 1 {
			req.MaxTimeToFirstTokenMs, req.MaxTimePerOutputTokenMs = f64(20), nil
		}
		miss, m := missAlone(eng, req, relaxedTarget)
		if miss == nil {
			return
		}
		raised, ms := raisedTarget(req, m)
		after, _ := passing(t, eng, raised)
		if _, ok := after[miss.VMSize]; !ok || ms <= 20 && m[1] == "max_time_to_first_token_ms" || ms <= 2 && m[1] == "max_time_per_output_token_ms" {
			t.Errorf("%s: %q; raised to %v, it lists %v", describe(req), miss.Relax, ms, mapKeys(after))
		}
		tried[m[1]]++
	})
	if tried["max_time_to_first_token_ms"] < 10 || tried["max_time_per_output_token_ms"] < 10 {
		t.Fatalf("services that missed one target alone: %v", tried)
	}
}

func mapKeys(m map[string]Recommendation) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The same load stated two ways, with a latency target (so both services
// are interactive): requests_per_second R and tokens_per_second R ×
// output_tokens list the same sizes on the same VMs at the same price per
// output token.
func TestLoadInRequestsOrTokensIsTheSameService(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachService(24, func(req Request) {
		if req.OutputTokens == nil {
			req.PromptTokens, req.OutputTokens = i64(1000), i64(200)
		}
		if req.MaxTimeToFirstTokenMs == nil && req.MaxTimePerOutputTokenMs == nil {
			req.MaxTimeToFirstTokenMs = f64(2000)
		}
		rate := req.RequestsPerSecond
		if rate == nil {
			rate = f64(*req.TokensPerSecond / float64(*req.OutputTokens))
		}
		byRate, byTokens := req, req
		byRate.TokensPerSecond, byRate.RequestsPerSecond = nil, rate
		byTokens.TokensPerSecond, byTokens.RequestsPerSecond = f64(*rate*float64(*req.OutputTokens)), nil
		a, okA := passing(t, eng, byRate)
		b, okB := passing(t, eng, byTokens)
		if !okA || !okB || len(a) != len(b) {
			t.Fatalf("%s: %d sizes by requests, %d by tokens", describe(byRate), len(a), len(b))
		}
		for name, ra := range a {
			rb, ok := b[name]
			if !ok || ra.Nodes != rb.Nodes || ra.Replicas != rb.Replicas || derefF(ra.Estimate.CostPerMillionTokens) != derefF(rb.Estimate.CostPerMillionTokens) {
				t.Errorf("%s: %s on %d VMs (%d copies) by requests, %+v by tokens", describe(byRate), name, ra.Nodes, ra.Replicas, rb)
			}
		}
		tried += len(a)
	})
	if tried == 0 {
		t.Fatal("no service had a size")
	}
}

// relaxedMaxNodes matches a nearest miss's change to max_nodes.
var relaxedMaxNodes = regexp.MustCompile(`^raise max_nodes to (\d+)\.$`)

// A service whose load or min_replicas needs more VMs than max_nodes:
// where the nearest miss fails only max_nodes, raising it to the figure its
// relax names lets that size serve on that many VMs.
func TestNearestMissOfMaxNodesServesWhenRaised(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachService(25, func(req Request) {
		req.MaxNodes, req.MinReplicas = i64(1+deref(req.PromptTokens)%2), i64(1+int64(derefF(req.RequestsPerSecond))%5)
		miss, m := missAlone(eng, req, relaxedMaxNodes)
		if miss == nil {
			return
		}
		k, _ := strconv.ParseInt(m[1], 10, 64)
		raised := req
		raised.MaxNodes = &k
		after, _ := passing(t, eng, raised)
		if r, ok := after[miss.VMSize]; !ok || r.Nodes != k {
			t.Errorf("%s, max_nodes %d: %q; raised, it lists %v", describe(req), *req.MaxNodes, miss.Relax, mapKeys(after))
		}
		tried++
	})
	if tried < 10 {
		t.Fatalf("%d services missed max_nodes alone", tried)
	}
}

// familyRank orders a recommendation's family reason: preferred, works
// for, fallback.
func familyRank(r Recommendation) int {
	for _, s := range r.Reasons {
		switch {
		case strings.Contains(s, " family is preferred for "):
			return 2
		case strings.Contains(s, " family works for "):
			return 1
		}
	}
	return 0
}

// unpenalised is whether nothing but its memory use below the band is
// said against a recommendation: no warning but the low-use one, and no
// use above the band.
func unpenalised(r Recommendation) bool {
	for _, w := range r.Warnings {
		if !strings.HasPrefix(w, "The service uses only ") {
			return false
		}
	}
	for _, s := range r.Reasons {
		if strings.Contains(s, "above the ") && strings.Contains(s, "target band") {
			return false
		}
	}
	return true
}

// servesNoWorse is whether a serves the service no worse than b on every
// count an architect reads: the price for all VMs, the capacity, both
// latencies at the load, the VMs, the family, and nothing said against it.
func servesNoWorse(a, b Recommendation) bool {
	ea, eb := a.Estimate, b.Estimate
	if ea == nil || eb == nil || ea.TokensPerSecond == nil || eb.TokensPerSecond == nil || ea.TimeToFirstTokenMs == nil ||
		eb.TimeToFirstTokenMs == nil || a.TotalPricePerHour == nil || b.TotalPricePerHour == nil {
		return false
	}
	return unpenalised(a) && familyRank(a) >= familyRank(b) && a.Nodes <= b.Nodes &&
		*a.TotalPricePerHour <= *b.TotalPricePerHour && *ea.TokensPerSecond >= *eb.TokensPerSecond &&
		*ea.TimeToFirstTokenMs <= *eb.TimeToFirstTokenMs && *ea.TimePerOutputTokenMs <= *eb.TimePerOutputTokenMs
}

// A service at a load whose size is cheaper, faster and no worse on any
// other count never scores below the size it beats: the memory a light
// load leaves idle is in the price already, and a slower size whose extra
// copies fill more of their memory is not better sized for it.
func TestDominatingSizeNeverScoresLower(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t, fixture(t))
	pairs := 0
	eachService(17, func(req Request) {
		res, err := eng.Recommend(req)
		if err != nil {
			return
		}
		for _, a := range res.Recommendations {
			for _, b := range res.Recommendations {
				if a.VMSize == b.VMSize || !servesNoWorse(a, b) {
					continue
				}
				pairs++
				if a.Score < b.Score {
					t.Errorf("%s: %s (%v USD/h, %v tok/s) scores %v, below %s (%v USD/h, %v tok/s) at %v", describe(req), a.VMSize,
						*a.TotalPricePerHour, *a.Estimate.TokensPerSecond, a.Score, b.VMSize, *b.TotalPricePerHour, *b.Estimate.TokensPerSecond, b.Score)
				}
			}
		}
	})
	if pairs < 20 {
		t.Fatalf("only %d dominating pairs: the random services no longer test the property", pairs)
	}
}

// An interactive service's default latency targets lay out every size as
// the same targets stated would, with a load or without one: a size both
// answers keep runs the same layout, and stating them only removes the
// sizes that miss them. Leaving a target unset never buys a slower,
// costlier layout than stating its default.
func TestDefaultTargetsLayOutAsStatedOnes(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	compared := 0
	eachService(29, func(req Request) {
		if req.TokensPerSecond != nil && req.MaxTimeToFirstTokenMs == nil && req.MaxTimePerOutputTokenMs == nil {
			req.TokensPerSecond, req.RequestsPerSecond = nil, f64(*req.TokensPerSecond/500) // interactive
		}
		compared += statedDefaultsKeepLayouts(t, eng, req)
		idle := req
		idle.TokensPerSecond, idle.RequestsPerSecond, idle.ConcurrentRequests = nil, nil, i64(int64(1+len(describe(req))*7))
		compared += statedDefaultsKeepLayouts(t, eng, idle)
	})
	if compared < 200 {
		t.Fatalf("only %d sizes compared", compared)
	}
}

// withUnsetTargets is the sizes req keeps (passing) and those it keeps
// with each latency target it leaves unset stated, ttft and tpot ms; ok is
// false where req is invalid.
func withUnsetTargets(t *testing.T, eng *Engine, req Request, ttft, tpot float64) (unset, stated map[string]Recommendation, ok bool) {
	t.Helper()
	if unset, ok = passing(t, eng, req); !ok {
		return nil, nil, false
	}
	if req.MaxTimeToFirstTokenMs == nil {
		req.MaxTimeToFirstTokenMs = f64(ttft)
	}
	if req.MaxTimePerOutputTokenMs == nil {
		req.MaxTimePerOutputTokenMs = f64(tpot)
	}
	stated, _ = passing(t, eng, req)
	return unset, stated, true
}

// statedDefaultsKeepLayouts checks that stating req's unset latency
// targets at their defaults keeps the layout of every size it keeps and
// adds none; it returns the sizes compared.
func statedDefaultsKeepLayouts(t *testing.T, eng *Engine, req Request) int {
	t.Helper()
	unset, after, ok := withUnsetTargets(t, eng, req, DefaultTimeToFirstTokenMs, DefaultTimePerOutputTokenMs)
	if !ok {
		return 0
	}
	compared := 0
	for name, s := range after {
		u, ok := unset[name]
		switch {
		case !ok:
			t.Errorf("%s: stating the default targets adds %s", describe(req), name)
		case u.Nodes != s.Nodes || u.Replicas != s.Replicas || u.TensorParallel != s.TensorParallel || u.PipelineStages != s.PipelineStages:
			t.Errorf("%s, %d requests: %s runs %d VMs, %d copies of TP%d with the default targets unset, %d VMs, %d copies of TP%d with them stated",
				describe(req), deref(req.ConcurrentRequests), name, u.Nodes, u.Replicas, u.TensorParallel, s.Nodes, s.Replicas, s.TensorParallel)
		default:
			compared++
		}
	}
	return compared
}

// relaxedLoad matches a nearest miss's change to a load.
var relaxedLoad = regexp.MustCompile(`^lower (tokens_per_second|requests_per_second) to ([\d,.]+) \(the most it serves`)

// A load no size carries within the most VMs a job may take: the nearest
// miss is the size that carries the most there, and lowering the load to
// the figure its relax names lets that size serve it.
func TestNearestMissOfALoadServesWhenLowered(t *testing.T) {
	eng := newTestEngine(t, fixture(t))
	tried := 0
	eachService(31, func(req Request) {
		req.MaxTimeToFirstTokenMs, req.MaxTimePerOutputTokenMs, req.MinReplicas = nil, nil, nil
		if req.TokensPerSecond != nil {
			req.TokensPerSecond = f64(*req.TokensPerSecond * 1000)
		} else {
			req.RequestsPerSecond = f64(*req.RequestsPerSecond * 10000)
		}
		miss, m := missAlone(eng, req, relaxedLoad)
		if miss == nil {
			return
		}
		v, _ := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		lowered := req
		if m[1] == "tokens_per_second" {
			lowered.TokensPerSecond = &v
		} else {
			lowered.RequestsPerSecond = &v
		}
		after, _ := passing(t, eng, lowered)
		if _, ok := after[miss.VMSize]; !ok {
			t.Errorf("%s: %q; lowered to %v, it lists %v", describe(req), miss.Relax, v, mapKeys(after))
		}
		tried++
	})
	if tried < 10 {
		t.Fatalf("only %d loads missed by the load alone", tried)
	}
}

// The default latency targets never remove a size: a service with
// max_nodes that states no target keeps every size the same service keeps
// with loose stated targets (ten times the defaults), as a layout that
// misses a default ranks after those that meet it rather than go. Services
// on one GPU model each, where a split that misses the defaults on fewer
// VMs competes with one that meets them on more.
func TestDefaultTargetsNeverRemoveASize(t *testing.T) {
	eng := testEngine(t)
	kept := 0
	for _, m := range []Model{{Name: "llama-3.1-70b", Precision: PrecisionFP8}, {Name: "llama-3.1-8b"}, {Name: "gpt-oss-120b"}} {
		for _, gpu := range []string{"h100-nvl-94gb", "a100-pcie-80gb", "mi300x", "gb200"} {
			for _, rps := range []float64{0.5, 2, 8} {
				for vms := int64(1); vms <= 3; vms++ {
					req := Request{Workload: WorkloadInference, Model: &m, RequestsPerSecond: f64(rps), GPUModels: []string{gpu}, MaxNodes: i64(vms), AsOf: asOf}
					kept += defaultsKeep(t, eng, req)
				}
			}
		}
	}
	if kept < 50 {
		t.Fatalf("only %d sizes kept", kept)
	}
}

// defaultsKeep checks that req, which states no latency target, keeps
// every size it keeps with loose stated targets; it returns those kept.
func defaultsKeep(t *testing.T, eng *Engine, req Request) int {
	t.Helper()
	unset, after, ok := withUnsetTargets(t, eng, req, 10*DefaultTimeToFirstTokenMs, 10*DefaultTimePerOutputTokenMs)
	if !ok {
		return 0
	}
	for name := range after {
		if _, ok := unset[name]; !ok {
			t.Errorf("%s, max_nodes %d, %v: %s serves with loose targets stated, not with none", describe(req), *req.MaxNodes, req.GPUModels, name)
		}
	}
	return len(after)
}

// Both latency targets tight: a size that misses both fails both, so a
// nearest miss that fails one alone serves once that one is raised as its
// relax says.
func TestNearestMissOfTwoTargetsServesWhenRaised(t *testing.T) {
	eng := testEngine(t)
	tried := 0
	eachService(41, func(req Request) {
		req.MaxTimeToFirstTokenMs = f64(float64(50 + deref(req.OutputTokens)%250))
		req.MaxTimePerOutputTokenMs = f64(float64(3 + deref(req.PromptTokens)%8))
		miss, m := missAlone(eng, req, relaxedTarget)
		if miss == nil {
			return
		}
		raised, ms := raisedTarget(req, m)
		if after, _ := passing(t, eng, raised); after[miss.VMSize].VMSize == "" {
			t.Errorf("%s: %q; raised to %v, it lists %v", describe(req), miss.Relax, ms, mapKeys(after))
		}
		tried++
	})
	if tried < 10 {
		t.Fatalf("only %d services missed one target alone", tried)
	}
}

// Where every size within reach fails max_nodes alone, the nearest miss is
// the one that needs the fewest VMs, so its raise is the smallest that
// serves: OPT-1.3B at 13,116 output tokens per second, three copies on
// separate VMs, max_nodes = 1: three A100s, not the eight VMs of the
// best-scored size.
func TestNearestMissOfMaxNodesNeedsTheFewestVMs(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "opt-1.3b"}, PromptTokens: i64(557), OutputTokens: i64(304), TokensPerSecond: f64(13116),
		MaxTimePerOutputTokenMs: f64(65), MinReplicas: i64(3), MaxNodes: i64(1), AsOf: asOf}
	nf := mustNoFit(t, req)
	if nf.NearestMiss == nil || nf.NearestMiss.Relax != "raise max_nodes to 3." {
		t.Fatalf("nearest miss %+v", nf.NearestMiss)
	}
	req.MaxNodes = i64(3)
	if r := byName(mustRecommend(t, req), nf.NearestMiss.VMSize); r == nil || r.Nodes != 3 {
		t.Errorf("%s with max_nodes = 3: %+v", nf.NearestMiss.VMSize, r)
	}
}

// adviceStep matches one change a nearest miss's relax names: raise or
// lower an input to a figure, or add a GPU model.
var adviceStep = regexp.MustCompile(`^(raise|lower) (max_time_to_first_token_ms|max_time_per_output_token_ms|max_nodes|nodes and max_nodes|nodes|requests_per_second|tokens_per_second|min_replicas|concurrent_requests) to ([\d,.]+)\b|^add "([^"]+)" to gpu_models`)

// followed is req changed as relax says, each change it names taken
// literally (the first of alternatives joined by ", or"); why says what
// cannot be followed: a change it cannot read, or a figure the request
// already allows (a raise to no more, a lower to no less).
func followed(req Request, relax string) (out Request, why string) {
	for _, step := range strings.Split(strings.TrimSuffix(relax, "."), "; and ") {
		m := adviceStep.FindStringSubmatch(step)
		if m == nil {
			return req, "cannot follow " + strconv.Quote(step)
		}
		if m[4] != "" {
			req.GPUModels = append(slices.Clone(req.GPUModels), m[4])
			continue
		}
		v, _ := strconv.ParseFloat(strings.ReplaceAll(m[3], ",", ""), 64)
		was, set := adviceInput(&req, m[2])
		if m[1] == "raise" && v <= was || m[1] == "lower" && v >= was {
			return req, fmt.Sprintf("%q names a figure the request already allows (%v)", step, was)
		}
		set(v)
	}
	return req, ""
}

// adviceInput is an input's value in req (its default where unset) and a
// setter.
func adviceInput(req *Request, name string) (float64, func(v float64)) {
	f := func(p **float64) (float64, func(v float64)) {
		was := 0.0
		if *p != nil {
			was = **p
		}
		return was, func(v float64) { *p = &v }
	}
	i := func(p **int64, def int64) (float64, func(v float64)) {
		was := def
		if *p != nil {
			was = **p
		}
		return float64(was), func(v float64) { k := int64(v); *p = &k }
	}
	switch name {
	case "max_time_to_first_token_ms":
		return f(&req.MaxTimeToFirstTokenMs)
	case "max_time_per_output_token_ms":
		return f(&req.MaxTimePerOutputTokenMs)
	case "requests_per_second":
		return f(&req.RequestsPerSecond)
	case "tokens_per_second":
		return f(&req.TokensPerSecond)
	case "max_nodes":
		return i(&req.MaxNodes, MaxNodes)
	case "nodes":
		return i(&req.Nodes, 0)
	case "nodes and max_nodes":
		was, set := i(&req.Nodes, 0)
		return was, func(v float64) { set(v); req.MaxNodes = req.Nodes }
	case "min_replicas":
		return i(&req.MinReplicas, 1)
	}
	return i(&req.ConcurrentRequests, 0)
}

// A service no size serves within the VMs it may take: the nearest
// miss's advice on tokens_per_second never names a load the request
// already allows, nor a load when min_replicas or nodes is what the VMs
// cannot hold, and followed literally it lets that size serve. Llama 3.1
// 405B on GB200 (whole racks, each copy over 2 VMs) beyond 990 VMs, 70B
// on one VM (nodes = 1) at 20 requests per second, with and without
// max_nodes = 4 (fewer VMs than carry the load: raising nodes alone would
// be an error), and 405B with 600 copies of 2 VMs each (min_replicas),
// with and without a load.
func TestNearestMissOfALoadNamesWhatItNeeds(t *testing.T) {
	eng := testEngine(t)
	base := func(model string, rps float64, gpu string) Request {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: model}, PromptTokens: i64(2000), OutputTokens: i64(250),
			GPUModels: []string{gpu}, Region: "eastus", AsOf: asOf}
		if rps > 0 {
			req.RequestsPerSecond = f64p(rps)
		}
		return req
	}
	gb200 := base("llama-3.1-405b", 60, "gb200")
	gb200.MaxTimeToFirstTokenMs, gb200.MaxTimePerOutputTokenMs = f64p(307), f64p(41)
	oneVM := base("llama-3.1-70b", 20, "h100-nvl-94gb")
	oneVM.Nodes = i64(1)
	capped := oneVM
	capped.MaxNodes = i64(4)
	copies, idle := base("llama-3.1-405b", 1, "h100-sxm-80gb"), base("llama-3.1-405b", 0, "h100-sxm-80gb")
	copies.MinReplicas, idle.MinReplicas = i64(600), i64(600)
	for _, req := range []Request{gb200, oneVM, capped, copies, idle} {
		nf := mustNoFit(t, req)
		m := nf.NearestMiss
		if m == nil || len(m.FailedConstraints) != 1 || m.FailedConstraint != "tokens_per_second" {
			t.Errorf("%s: nearest miss %+v, want one that fails tokens_per_second alone", describe(req), m)
			continue
		}
		after, why := followed(req, m.Relax)
		if why != "" {
			t.Errorf("%s: %s", describe(req), why)
			continue
		}
		if served, _ := passing(t, eng, after); served[m.VMSize].VMSize == "" {
			t.Errorf("%s: %q followed, %s is not listed", describe(req), m.Relax, m.VMSize)
		}
	}
}
