// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the work a request defines, as the performance models
// (internal/perfmodel) time it: training and fine-tuning work with its token
// budget, an hpc or htc job with the team's reference run and licence, and a
// size's GPU layout.

import (
	"slices"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// training is the work of a training or fine-tuning job as the training
// model times it, with where its tokens came from and whether the
// deadline was stated.
type training struct {
	perfmodel.TrainingWork
	budget         tokenSource
	deadlineStated bool
	// untimed says why a training job of a vision, diffusion or speech
	// model on GPUs has no work: what to set to time it (""). Its sizes
	// then rank by the rate the training model gives them per USD (proxy).
	untimed string
	proxy   bool
}

// tokenSource is where a training job's token budget comes from.
type tokenSource uint8

const (
	tokensNone       tokenSource = iota // no work the model times
	tokensStated                        // tokens_billion
	tokensChinchilla                    // ChinchillaTokensPerParameter per parameter
	tokensFineTuning                    // DefaultFineTuningTokensBillion
	samplesStated                       // samples_million
	samplesVision                       // DefaultVisionSamplesMillion
)

// hpcWork is an hpc or htc job as the per-VM model compares it, with the
// team's own measurements: a per-core licence and a reference run.
type hpcWork struct {
	perfmodel.HPCJob
	// license is license_cost_per_core_hour (hasLicense: it was set), ref
	// the reference run (nil: none; set by resolveReference).
	license    float64
	hasLicense bool
	ref        *hpcReference
}

// hpcReference is a reference run resolved against the catalog: its size,
// VMs, hours, ranks per VM and the model's throughput for it.
type hpcReference struct {
	in          *sizeInfo
	nodes       int64
	hours       float64
	coresPerVM  float64
	rate        float64 // by the time bound; 0 when the catalog lacks the figure
	cores, name string  // as the explanation says them
}

// resolveReference finds the reference run's size among the prepared
// sizes and its throughput; the request has passed validate.
func (h *hpcWork) resolveReference(cat *catalog.Catalog, p *prepared, rr *ReferenceRun) {
	if rr == nil || h.Bound == "" {
		return
	}
	s, ok := cat.Lookup(rr.VMSize)
	if !ok {
		return
	}
	i := slices.IndexFunc(p.sizes, func(in sizeInfo) bool { return in.sku == s })
	if i < 0 {
		return
	}
	ref := &hpcReference{in: &p.sizes[i], nodes: rr.Nodes, hours: rr.Hours, name: s.Name}
	cores := valueOr(rr.Cores, 0)
	ref.coresPerVM = perfmodel.CoresPerVM(&ref.in.Hardware, cores, rr.Nodes)
	ref.rate = h.TimedRate(&ref.in.Hardware, cores, rr.Nodes)
	ref.cores = groupInt(ref.coresPerVM * float64(rr.Nodes))
	h.ref = ref
}

// jobHours is the wall time of the job on nodes VMs of the size: the
// reference run's hours × its throughput ÷ the layout's; 0 without a
// reference run or a figure.
func (h *hpcWork) jobHours(in *sizeInfo, nodes int64) float64 {
	if h.ref == nil || h.ref.rate <= 0 {
		return 0
	}
	r := h.TimedRate(&in.Hardware, h.Cores, nodes)
	if r <= 0 {
		return 0
	}
	return h.ref.hours * h.ref.rate / r
}

// licensePerHour is the per-core licence cost of a layout per hour: the
// cores it runs × license_cost_per_core_hour; 0 without a licence.
func (h *hpcWork) licensePerHour(in *sizeInfo, nodes int64) float64 {
	if h.license <= 0 {
		return 0
	}
	return h.license * h.CoresUsed(&in.Hardware, nodes)
}

// gpuLayout is how a size holds the job's GPU memory (the per-GPU split's
// layout), with what the serving layout search found.
type gpuLayout struct {
	perfmodel.Layout
	memNodes int64 // the VMs memory alone takes (serving: before tokens_per_second's copies)
	// Serving with latency targets: which targets the layout misses, and
	// the time (seconds) the size's closest layout reaches for each (at
	// the stated load, or at one sequence per copy without one), which the
	// nearest miss quotes.
	missTTFT, missTPOT   bool
	reachTTFT, reachTPOT float64
	reachAtLoad          bool  // the reach is at the stated load
	reachBatch           int64 // without a load, the sequences per copy at the reach, above 1 where max_nodes holds too few copies for one each
	// pt is a served layout's operating point as the search sized it.
	pt servicePoint
	// oneGPUCopies is the copies a served layout of one GPU per copy
	// needs on the size for the demand and targets; 0 when no such layout
	// serves them (the model needs a split, or misses a target without one).
	oneGPUCopies int64
}

// fitGPU lays the job out on a size with at most limit VMs in all (fixed
// VMs when fixed > 0), of which one job (one copy of the model, for
// inference) spans at most span; a served copy over tp GPUs of a VM (0:
// the split's choice).
func fitGPU(j *perfmodel.GPUJob, in *sizeInfo, limit, span, fixed, tp int64) gpuLayout {
	return gpuLayout{Layout: j.Fit(&in.Hardware, limit, span, fixed, tp)}
}
