// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the explanation step: each ranked size's recommendation
// (reasons, warnings, estimate, quota and deployment settings) and the
// result's warnings.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// ignoredInputs turns the validation problems Recommend works around
// (KindIgnored) into warnings. The other soft problems (KindNoMatch) leave
// no size when they matter, and end in a *NoFitError.
func ignoredInputs(soft []FieldError) []Warning {
	var out []Warning
	for _, fe := range soft {
		if fe.Kind == KindIgnored {
			out = append(out, Warning{Summary: fe.Summary, Detail: fe.Detail})
		}
	}
	return out
}

// priceSource says where the price comes from; "" for a size offered in
// the region without a price.
func priceSource(n *requirements, e *eval) string {
	switch {
	case !e.hasPrice && !n.regionScoped():
		return "No list price in the catalog for this size in any region."
	case !e.hasPrice:
		return ""
	}
	kind := "Linux pay-as-you-go list price"
	if e.spot {
		kind = "spot estimate (on-demand price times an older spot-to-on-demand ratio)"
	}
	p := e.in.sku.Prices[e.priceRegion]
	file := p.File
	if e.spot {
		file = p.SpotFile
	}
	if file != "" {
		kind = "price from the prices file " + file
		if e.spot {
			kind = "spot price from the prices file " + file
		}
	}
	switch {
	case n.region != "":
		return upperFirst(kind) + " in " + e.priceRegion + "."
	case n.regionScoped():
		return upperFirst(kind) + " in " + e.priceRegion + ", the region of regions chosen for it (offered, " + regionOrder(n.spotOn(e.in)) + ")."
	}
	return upperFirst(kind) + " in " + e.priceRegion + ", the region chosen for it of the " + itoa(int64(e.in.nPriced)) + " that price it (" + regionOrder(n.spotOn(e.in)) + "); set region for a regional price."
}

// reasons are plain sentences on why the size is ranked where it is. They
// are built by concatenation rather than fmt: this runs for every returned
// recommendation and dominates Recommend's cost otherwise.
func reasons(n *requirements, e *eval, preferred bool) []string {
	out := make([]string, 0, 9)
	if preferred {
		out = append(out, "Ranked first because it is the first size in prefer that meets every requirement.")
	}
	out = append(out, familyReason(n, e))
	out = holdsReasons(out, n, e)
	out = placementReasons(out, n, e)
	out = priceReasons(out, n, e)
	return generationReasons(out, n, e)
}

// familyReason says how the size's family suits the job.
func familyReason(n *requirements, e *eval) string {
	fam := e.in.sku.Family
	switch {
	case e.fallback:
		return "The " + fam + " family is a fallback for " + jobLabel(n) + ": listed after the " + strings.Join(n.fit.preferred, ", ") + " sizes."
	case e.fit == 1:
		return "The " + fam + " family is preferred for " + jobLabel(n) + "."
	}
	return "The " + fam + " family works for " + jobLabel(n) + ", with fewer points than " + strings.Join(n.fit.preferred, " and ") + "."
}

// holdsReasons add how the VMs hold what the job needs: its GPU memory and
// layout, its GPUs, cores or system memory.
func holdsReasons(out []string, n *requirements, e *eval) []string {
	in := e.in
	vms := catalog.Plural(e.nodes, "VM", "VMs")
	switch {
	case n.gpuMemNeed > 0 && in.IsGPU:
		out = append(out, gpuMemoryReason(n, e), layoutReason(n, e))
	case n.gpus > 0:
		out = append(out, "Provides "+trimFloat(in.GPUCount*float64(e.nodes))+" GPUs on "+vms+" for the "+itoa(n.gpus)+" the job needs.")
	case n.cores > 0:
		out = append(out, "Runs "+itoa(n.cores)+" cores on "+vms+" of "+itoa(in.VCPUs)+" vCPUs ("+percent(e.sizing)+" used).")
	case n.sysMemNeed > 0:
		out = append(out, "Holds the "+trimFloat(n.sysMemNeed)+" GiB of system memory the job needs on "+vms+" ("+trimFloat(in.memGiB)+" GiB each).")
	}
	if n.sysMemNeed > 0 && in.IsGPU {
		out = append(out, "Has "+trimFloat(in.memGiB)+" GiB of system memory per VM, at least 150% of its share of the weights (Azure Machine Learning guidance).")
	}
	return out
}

// gpuMemoryReason says how the VMs hold the job's GPU memory: a timed
// training job scaled out for its deadline, one sized on the GPUs it keeps
// busy, or any other job on the share of the memory it uses.
func gpuMemoryReason(n *requirements, e *eval) string {
	in := e.in
	vms := catalog.Plural(e.nodes, "VM", "VMs")
	if memVMs := e.gl.Nodes; e.gl.OK && memVMs > 0 && memVMs < e.nodes && n.train.FLOPs > 0 {
		share := 0.0
		if e.gl.Capacity > 0 {
			share = e.gl.Used / e.gl.Capacity
		}
		return "Holds the " + trimFloat(n.gpuMemNeed) + " GiB the job needs on " + catalog.Plural(memVMs, "VM", "VMs") + " (" + trimFloat(in.gpuMem*float64(memVMs)) + " GiB of GPU memory, " + percent(share) + " used); the deadline takes " + catalog.Plural(e.nodes-e.rackFill, "VM", "VMs") + ", every GPU computing."
	}
	if !e.memBand && n.train.FLOPs > 0 {
		// Timed training: sized on the GPUs it keeps busy.
		return "Holds the " + trimFloat(n.gpuMemNeed) + " GiB the job needs on " + vms + " (" + trimFloat(in.gpuMem*float64(e.nodes)) + " GiB of GPU memory, " + percent(e.memShare()) + " used); " + catalog.Plural(n.train.GPUsUsed(&in.Hardware, e.nodes)*float64(e.nodes), "GPU", "GPUs") + " computing."
	}
	if !e.memBand {
		// Training ranked by its rate per USD: sized on its GPUs, so the
		// memory share is said, not placed in the band.
		return "Holds the " + trimFloat(n.gpuMemNeed) + " GiB the job needs on " + vms + " (" + trimFloat(in.gpuMem*float64(e.nodes)) + " GiB of GPU memory, " + percent(e.memShare()) + " used)."
	}
	return "Holds the " + trimFloat(n.gpuMemNeed) + " GiB the job needs on " + vms + " (" + trimFloat(in.gpuMem*float64(e.nodes)) + " GiB of GPU memory; " + bandPercent(e.sizing) + " of what the job may use" + bandWords(e.sizing) + ")."
}

// placementReasons add how Azure places the VMs (whole racks) and whether
// the job uses the size's InfiniBand.
func placementReasons(out []string, n *requirements, e *eval) []string {
	in, s := e.in, e.in.sku
	if e.rackFill > 0 {
		out = append(out, "Azure allocates these VMs by racks of "+itoa(in.rackVMs)+" when a job spans them: the layout takes "+catalog.Plural(e.nodes/in.rackVMs, "whole rack", "whole racks")+" ("+catalog.Plural(e.nodes, "VM", "VMs")+", "+itoa(e.rackFill)+" more than the job needs), and every VM paid for runs the job, in the estimate too.")
	}
	switch {
	case e.ibNeeded && s.Network.RDMA:
		out = append(out, "InfiniBand "+s.Network.InfiniBand+" ("+itoa(s.Network.InfiniBandGbps)+" Gb/s per VM), which the job needs ("+ibWhy(n)+").")
	case !s.Network.RDMA && n.interconnect == InterconnectAuto:
		out = append(out, "No InfiniBand, which this job does not need.")
	}
	return out
}

// priceReasons add the layout's price, and per vCPU for hpc and htc.
func priceReasons(out []string, n *requirements, e *eval) []string {
	if !e.hasPrice {
		return out
	}
	unit := "per hour"
	if e.spot {
		unit = "per hour at spot prices (an estimate from an undated spot-to-on-demand ratio)"
		if e.spotDate != "" {
			unit = "per hour at spot prices (an estimate from the spot prices of " + e.spotDate + ")"
		}
	}
	if e.nodes > 1 {
		out = append(out, "Costs "+money(e.total)+" USD "+unit+" for "+itoa(e.nodes)+" VMs ("+money(e.price)+" each, "+e.priceRegion+").")
	} else {
		out = append(out, "Costs "+money(e.price)+" USD "+unit+" ("+e.priceRegion+").")
	}
	if (n.workload == WorkloadHTC || n.workload == WorkloadHPC) && e.in.VCPUs > 0 {
		out = append(out, strconv.FormatFloat(e.price/float64(e.in.VCPUs), 'f', 4, 64)+" USD per vCPU-hour.")
	}
	return out
}

// generationReasons add the size's generation and, for a model on GPUs,
// the precision the GPU runs natively.
func generationReasons(out []string, n *requirements, e *eval) []string {
	in, s := e.in, e.in.sku
	gen := s.Series
	if in.IsGPU {
		gen = s.GPU.Model + ", " + s.Series
	}
	out = append(out, "Generation: "+gen+" (about "+itoa(int64(in.year))+").")
	if n.hasModel && in.IsGPU && e.nativePrec {
		switch {
		case n.workload == WorkloadInference && in.WeightOnly(n.precision, n.mi.Checkpoint):
			out = append(out, "The GPU runs "+n.precision+" weights through the serving engines' weight-only kernels, computing in bf16 or fp16.")
		case n.workload == WorkloadInference || n.train.ComputePrec == n.precision:
			out = append(out, "The GPU supports "+n.precision+" natively.")
		case n.train.ComputePrec == "":
			out = append(out, "The GPU computes the adapters in bf16 or fp16 natively.")
		default:
			out = append(out, "The GPU supports "+n.train.ComputePrec+" natively.")
		}
	}
	return out
}

func warnings(n *requirements, e *eval) []string {
	s := e.in.sku
	var out []string
	if n.spotDeployed(e) && e.spans && e.ibNeeded {
		out = append(out, fmt.Sprintf("Spot VMs for one job across %d VMs over InfiniBand: an eviction of any one of them stops the whole job (its ranks cannot continue without it), and the more VMs, the likelier one is evicted; checkpoint often, or run it on demand.", e.nodes))
	}
	if e.retiringSoon {
		out = append(out, fmt.Sprintf("Retires on %s, within %d months. %s", s.Lifecycle.RetirementDate, catalog.RetirementWarningMonths, s.ReplacementSentence(n.asOf)))
	}
	if d := s.Lifecycle.CapacityRestrictedDate; d != "" && d <= n.asOf.Format(catalog.DateLayout) {
		out = append(out, "Azure has restricted capacity growth for the "+s.Series+" series since "+d+": new VMs may not be allocated, Spot VMs least of all. "+s.ReplacementSentence(n.asOf))
	}
	switch {
	case s.OnRequest:
		out = append(out, "Offered on request: no public list of the Resource SKUs API names this size, and Microsoft publishes no size page for it (its facts come from AKS's GPU registry, the retail price data and a sibling size); check az vm list-skus for your subscription and region before you deploy it.")
	case s.NoSizePage:
		out = append(out, "Microsoft publishes no size page for this size: its facts come from the Resource SKUs API, AKS's GPU registry or the retail price data and a sibling size.")
	}
	if e.in.vendor == catalog.VendorAMD {
		out = append(out, "AMD GPU: CUDA software does not run here; GPU compute needs ROCm (HIP) builds of the frameworks and libraries.")
	}
	if s.Lifecycle.Status == catalog.StatusPreview {
		out = append(out, "In preview: capacity, pricing and support may change before general availability.")
	}
	if e.support == catalog.SupportUnknown {
		out = append(out, fmt.Sprintf("Support on target %q is not documented; test before relying on it.", n.target))
	}
	if w := precisionWarning(n, e); w != "" {
		out = append(out, w)
	}
	if e.region != "" && !e.hasPrice && e.in.nPriced > 0 {
		out = append(out, "No price is known for this size in "+e.region+", where the availability file offers it; set the provider's prices_file to price it.")
	}
	switch {
	case e.noSpot:
		out = append(out, noSpotWords(e, "this size")+": the price shown and the deployment settings are on-demand"+listedAfterSpot(n))
	case n.spot && !n.spotOn(e.in) && e.hasPrice:
		out = append(out, "CycleCloud Workspace for Slurm runs this size in its "+deploy.CycleCloudPartition(&deploy.Layout{SKU: s, MPI: n.workload == WorkloadHPC})+" partition on demand (Spot is the htc partition's alone): the price shown is on-demand"+listedAfterSpot(n))
	case n.spot && !e.spot && e.hasPrice:
		out = append(out, "No spot price is known for this size; the price shown is on-demand"+listedAfterSpot(n))
	}
	if e.in.nPriced == 0 {
		out = append(out, "The catalog has no price for this size in any region, which usually means it is not offered yet; check the Azure pricing calculator and regional availability.")
	}
	if w := lowUseWarning(n, e); w != "" {
		out = append(out, w)
	}
	if n.fixedNodes > 1 && e.spans && e.ibNeeded && wholeRacks(e.in, e.nodes) > e.nodes {
		out = append(out, "Azure allocates these VMs by racks of "+itoa(e.in.rackVMs)+" when a job spans them: nodes = "+itoa(e.nodes)+" leaves "+itoa(wholeRacks(e.in, e.nodes)-e.nodes)+" VMs of the last rack unused; "+itoa(wholeRacks(e.in, e.nodes))+" VMs fill it.")
	}
	if s.Confidential && s.Image != nil && s.Image.URN != "" && !deploy.ImageFits(s) {
		out = append(out, "The catalog's image for this size ("+s.Image.URN+") does not boot as a confidential VM, so no image is given: use a confidential-VM image (securityType ConfidentialVM).")
	}
	if e.unusedRDMA {
		out = append(out, "Has InfiniBand this job does not use; the bandwidth is paid for and idle.")
	}
	if e.pcieTP {
		out = append(out, "Each copy of the model is split over "+itoa(e.gl.TP)+" GPUs without NVLink: every layer's all-reduce crosses PCIe, which slows generation; a size whose single GPU holds the model, or with NVLink, serves faster.")
	}
	if e.idleGPUShare > 0 {
		switch {
		case n.job.TensorParallel && e.gl.TP > 1:
			out = append(out, fitsWords(n, e)+"; the layout splits each copy over "+itoa(e.gl.TP)+" of them, which speeds each sequence, but "+smallerSize(e)+" serves it for less (Azure HPC guidance on job sizing).")
		case n.job.TensorParallel && e.gl.Replicas > 1:
			out = append(out, fitsWords(n, e)+"; the others would hold copies (replicas) that "+demandWords(n)+" does not need (Azure HPC guidance on job sizing).")
		case n.workload == WorkloadTraining || n.workload == WorkloadFineTuning:
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the others help only through data parallelism, which small jobs rarely use well (Azure HPC guidance on job sizing).")
		default:
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the others would sit idle (Azure HPC guidance on job sizing).")
		}
	}
	return out
}

// bandPercent writes a GPU memory use as a whole percent, or with the
// decimals that keep it off an edge of the target band the use is outside
// of (85.3%, above the band, not 85%; "just over 85%" past two decimals).
func bandPercent(u float64) string {
	crosses := func(v float64) bool {
		return (u > SizingBandHigh && v <= SizingBandHigh*100) || (u < SizingBandLow && v >= SizingBandLow*100)
	}
	if !crosses(math.Round(u * 100)) {
		return percent(u)
	}
	for d := 1; d <= 2; d++ {
		scale := math.Pow(10, float64(d))
		if v := math.Round(u*100*scale) / scale; !crosses(v) {
			return strconv.FormatFloat(v, 'f', d, 64) + "%"
		}
	}
	if u > SizingBandHigh {
		return "just over " + percent(SizingBandHigh)
	}
	return "just under " + percent(SizingBandLow)
}

// bandWords places a GPU memory use against the target band.
func bandWords(u float64) string {
	switch {
	case u < SizingBandLow:
		return ", below the " + percent(SizingBandLow) + "-" + percent(SizingBandHigh) + " target band"
	case u <= SizingBandHigh:
		return ", inside the " + percent(SizingBandLow) + "-" + percent(SizingBandHigh) + " target band"
	}
	return ", above the " + percent(SizingBandLow) + "-" + percent(SizingBandHigh) + " target band: little room to spare"
}

// layoutReason says how the job splits over the size's GPUs, and for a
// served language model how much KV cache room is left.
func layoutReason(n *requirements, e *eval) string {
	gl := &e.gl
	j := &n.job
	switch {
	case j.DataParallel:
		return "Each GPU holds the whole model with its states and batch (" + trimFloat(gl.PerGPU) + " GiB of " + trimFloat(e.in.UnitMemGiB*j.Share) + " GiB usable)."
	case j.TensorParallel:
		var b strings.Builder
		switch share := perfmodel.CopyGPUs(&e.in.Hardware, gl.TP, 1); {
		case share < 1:
			b.WriteString("Each copy of the model runs on " + trimFloat(share) + " of a GPU")
		case j.Placed() && gl.TP == 1:
			b.WriteString("Each copy of the model runs on 1 GPU")
		case j.Placed():
			b.WriteString("Each copy of the model is placed over " + itoa(gl.TP) + " GPUs that run its components or layers in turn")
		default:
			b.WriteString("Each copy of the model is split over " + catalog.Plural(gl.TP, "GPU", "GPUs"))
		}
		if gl.PP > 1 {
			b.WriteString(" per VM and " + itoa(gl.PP) + " VMs (pipeline stages)")
		}
		b.WriteString(" (" + trimFloat(gl.PerGPU) + " GiB per GPU of " + trimFloat(e.in.UnitMemGiB*j.Share) + " GiB it may use)")
		if gl.Replicas > 1 {
			b.WriteString("; " + itoa(gl.Replicas) + " copies (replicas) " + replicasServe(n, e))
		}
		b.WriteString(".")
		if j.Placed() && j.KVPerSeq > 0 {
			b.WriteString(" Cache room left: " + trimFloat(gl.KVRoom) + " GiB, about " + catalog.Plural(int64(math.Floor(gl.KVRoom/j.KVPerSeq+1e-9)), "more request", "more requests") + ".")
		}
		if j.KVPerSeq > 0 && n.mem != nil && n.mem.KVBytesPerToken > 0 {
			tokens := gl.KVRoom * perfmodel.GiB / n.mem.KVBytesPerToken
			more := int64(math.Floor(tokens / float64(n.mi.Context)))
			b.WriteString(" KV cache room left: " + trimFloat(gl.KVRoom) + " GiB, about " + groupInt(tokens) + " more tokens (" + catalog.Plural(more, "more sequence", "more sequences") + " of " + groupInt(float64(n.mi.Context)) + " tokens).")
		}
		return b.String()
	}
	w := wordsOf(n.workload)
	if n.train.UsesOneGPU(&e.in.Hardware, e.nodes) {
		// A job one GPU holds and finishes in time runs there alone.
		return "The " + w.parts + " are held on 1 GPU (" + trimFloat(n.gpuMemNeed) + " GiB of " + trimFloat(e.in.UnitMemGiB*j.Share) + " GiB usable)."
	}
	// The share of the VMs the layout runs on, a deadline's scale-out
	// included, not of the fewest that hold it.
	perGPU := catalog.Round2(j.ShardedPerGPU(e.in.GPUUnits, e.nodes))
	parts, own := w.parts, ""
	if j.Replicated > 0 {
		// Each GPU keeps its own micro-batch's activations whole.
		parts, own = "states", ", with its own activations,"
	}
	return "The " + parts + " " + w.spread + " over " + catalog.Plural(e.in.GPUUnits*e.nodes, "GPU", "GPUs") + " (" + trimFloat(perGPU) + " GiB per GPU" + own + " of " + trimFloat(e.in.UnitMemGiB*j.Share) + " GiB usable)."
}

// replicasServe says what a served layout's copies serve: at a load, the
// requests in the service there (Little's law, the point timeService
// kept); a model the step model does not time, the GPUs they fill and the
// VMs min_replicas asks for; else the concurrent requests.
func replicasServe(n *requirements, e *eval) string {
	if n.job.Placed() {
		s := "fill the GPUs of " + catalog.Plural(e.nodes, "VM", "VMs")
		if n.job.KVPerSeq > 0 {
			s += " and hold the caches of the " + catalog.Plural(n.job.Seqs, "concurrent request", "concurrent requests")
		}
		if n.serve.minReplicas > 1 {
			s += " (min_replicas = " + itoa(n.serve.minReplicas) + ": copies on separate VMs)"
		}
		return s
	}
	if n.serve.loadTPS > 0 {
		if e.ptCopies > 0 && e.pt.loaded {
			return "carry the load, " + aboutRequests(e.pt.inFlight, "", "") + " in the service"
		}
		return "carry the load"
	}
	return "serve the " + catalog.Plural(n.job.Seqs, "concurrent request", "concurrent requests")
}

// fitsWords opens the warning on a size whose GPUs the job leaves idle:
// the job fits one of them, or a service's demand needs only some at one
// copy per GPU.
func fitsWords(n *requirements, e *eval) string {
	if e.gpusNeeded <= 1 {
		return "The job fits in one of its " + trimFloat(e.in.GPUCount) + " GPUs"
	}
	return "Copies of one GPU each serve " + demandWords(n) + " on " + trimFloat(e.gpusNeeded) + " of its " + trimFloat(e.in.GPUCount) + " GPUs"
}

// smallerSize names the size that would serve a job without e's idle GPUs.
func smallerSize(e *eval) string {
	if e.gpusNeeded <= 1 {
		return "a one-GPU size"
	}
	return "a size with fewer GPUs"
}

// demandWords names what a served job's copies are sized for: its load, its
// stated concurrent requests, or the default ones; for a model the step
// model does not time, the request (min_replicas at most).
func demandWords(n *requirements) string {
	switch {
	case n.job.Placed() && n.job.KVPerSeq > 0:
		return "the concurrent requests"
	case n.job.Placed():
		return "the request"
	case n.serve.loadTPS > 0:
		return "the load"
	case n.serve.concurrencyStated:
		return "the stated concurrency"
	}
	return "the default concurrency"
}

// precisionWarning says how a GPU without the model's precision runs it:
// a served model's weight-only weights compute in bf16 or fp16; other jobs
// at the next precision the GPU supports; "" where it is native.
func precisionWarning(n *requirements, e *eval) string {
	gpu := e.in.sku.GPU
	switch {
	case e.nativePrec || gpu == nil:
		return ""
	case n.workload == WorkloadInference && e.in.WeightOnly(n.precision, n.mi.Checkpoint):
		return fmt.Sprintf("The %s does not compute %s: the serving engines dequantise the %s weights in weight-only kernels and compute in bf16 or fp16, so the weights save memory and bandwidth, not arithmetic time.", gpu.Model, n.precision, n.precision)
	}
	return fmt.Sprintf("The %s has no native %s support: the weights are stored in %s and the arithmetic runs at the next precision it supports (%s), slower and with small numeric differences.", gpu.Model, n.precision, n.precision, e.in.ClosestPrecision(n.precision))
}

// lowUseWarning flags a GPU layout that uses less than
// LowUtilizationWarning of what it may use: a service at a load, whose
// batches the load and targets set, says so; other jobs are pointed to
// larger batches, replicas or a smaller size.
func lowUseWarning(n *requirements, e *eval) string {
	switch u := e.memShare(); {
	case !e.in.IsGPU || u < 0 || u >= LowUtilizationWarning || n.gpuMemNeed <= 0:
		return ""
	case n.serve.loadTPS > 0 && n.job.KVPerSeq > 0:
		return "The service uses only " + percent(u) + " of this size's GPU memory at its load: its batches are what the load and the latency targets need, and the rest is KV cache room for more load (Azure HPC guidance on job sizing)."
	default:
		return "The job uses only " + percent(u) + " of this size's GPU memory: use larger batches or replicas, or a smaller size (Azure HPC guidance on job sizing)."
	}
}

// untimedWords says what a size without throughput figures cannot be shown
// to do: serve the stated load within the stated latency targets, finish
// by the stated deadline, or else run the job in any particular time.
func untimedWords(n *requirements) string {
	var parts []string
	if n.serve.loadTPS > 0 {
		parts = append(parts, "serves "+loadWords(&n.serve))
	}
	if n.serve.maxTTFT > 0 {
		parts = append(parts, "brings the first token within "+trimFloat(n.serve.maxTTFT*1000)+" ms")
	}
	if n.serve.maxTPOT > 0 {
		parts = append(parts, "generates a token every "+trimFloat(n.serve.maxTPOT*1000)+" ms")
	}
	if n.train.deadlineStated {
		parts = append(parts, "finishes within deadline_hours = "+trimFloat(n.train.Deadline))
	}
	if len(parts) == 0 {
		return "runs the job in any particular time or cost"
	}
	return strings.Join(parts, " and ")
}

// resultWarnings are the Terraform warning diagnostics: about the rank-1
// size, the catalog's age, spot for training, and prefer.
func resultWarnings(n *requirements, cat *catalog.Catalog, r ranking, evals []eval) []Warning {
	var out []Warning
	first := r.cands[0]
	s := first.in.sku
	if first.retiringSoon {
		out = append(out, Warning{"Recommended Size Retires Soon",
			fmt.Sprintf("%s retires on %s, within %d months of %s. %s To keep running VMs on it until then, list it in prefer and lower min_lifetime_months, or pin the provider's as_of.",
				s.Name, s.Lifecycle.RetirementDate, catalog.RetirementWarningMonths, n.asOf.Format(catalog.DateLayout), s.ReplacementSentence(n.asOf))})
	}
	if s.Lifecycle.Status == catalog.StatusPreview {
		out = append(out, Warning{"Recommended Size Is In Preview",
			fmt.Sprintf("%s is in preview: capacity, pricing and support may change before general availability.", s.Name)})
	}
	if first.lacksFacts {
		out = append(out, Warning{"Recommended Size Not Timed",
			fmt.Sprintf("%s has no throughput figures in the catalog, so whether it %s is not known: every size the performance models can time was removed (see rejected). Test it before relying on it, or relax the request so that a timed size fits.", s.Name, untimedWords(n))})
	}
	if first.support == catalog.SupportUnknown {
		out = append(out, Warning{"Target Support Unknown",
			fmt.Sprintf("Whether target %q supports %s is not documented. Test it before relying on it, or add it to a prefer list only after it works.", n.target, s.Name)})
	}
	if !cat.DataDate.IsZero() {
		age := int(n.asOf.Sub(cat.DataDate).Hours() / 24)
		if age > CatalogStaleDays {
			out = append(out, Warning{"Catalog Data Is Old",
				fmt.Sprintf("The catalog's data date is %s, %d days before %s (more than %d). Sizes, prices and retirements may have changed; upgrade the provider for a newer catalog.",
					cat.DataDate.Format(catalog.DateLayout), age, n.asOf.Format(catalog.DateLayout), CatalogStaleDays)})
		}
	}
	if n.spotTraining() {
		out = append(out, Warning{"Spot VMs For Training", spotTrainingAdvice})
	}
	switch {
	case n.spot && !n.spotOn(first.in):
		out = append(out, Warning{"No Spot On This Partition",
			fmt.Sprintf("CycleCloud Workspace for Slurm offers Spot VMs for its htc partition only: %s runs in the %s partition on demand, priced so.", s.Name, deploy.CycleCloudPartition(&deploy.Layout{SKU: s, MPI: n.workload == WorkloadHPC}))})
	case first.noSpot:
		out = append(out, Warning{"No Spot VMs Of This Size",
			noSpotWords(first.eval, s.Name) + ": its price and deployment settings are on-demand."})
	case n.spot && !n.spotPriced:
		where := ""
		if n.region != "" {
			where = " in " + n.region
		}
		out = append(out, Warning{"No Spot Prices",
			"No ranked size has a spot price" + where + ": every price shown is on-demand, and the ranking compares them so. The deployment settings still ask for Spot VMs, billed at the Spot price when they run. A prices_file with the Retail Prices API's Spot meters prices them."})
	case n.spot && !first.spot:
		out = append(out, Warning{"No Spot Price",
			fmt.Sprintf("No spot price is known for %s%s; its price is on-demand.", s.Name, priceWhere(n))})
	}
	if n.spot && first.spot && first.spotDate == "" {
		out = append(out, Warning{"Spot Estimate Undated",
			fmt.Sprintf("The spot price of %s is an estimate: its on-demand price times a spot-to-on-demand ratio whose source gives no date (the price's spot_source names it). Spot prices change; check the current price, or set the provider's prices_file to an export of the Retail Prices API's Spot meters.", s.Name)})
	}
	if w, ok := spotOrderWarning(n, r); ok {
		out = append(out, w)
	}
	if len(n.req.Prefer) > 0 {
		out = append(out, preferWarnings(n, r, evals)...)
	}
	return out
}

// spotOrderWarning counts, with spot = true, the ranked sizes without a
// spot price, which are listed after the sizes with one.
func spotOrderWarning(n *requirements, r ranking) (Warning, bool) {
	if !n.spot {
		return Warning{}, false
	}
	without := 0
	for _, c := range r.cands {
		if c.lacksSpot {
			without++
		}
	}
	with := len(r.cands) - without
	if without == 0 || with == 0 {
		return Warning{}, false
	}
	where, verb := "", "are"
	if n.region != "" {
		where = " in " + n.region
	}
	if without == 1 {
		verb = "is"
	}
	return Warning{"Sizes Without A Spot Price Listed Last",
		fmt.Sprintf("%s%s and %s listed after the %d with one: their prices are on-demand, which cannot be compared with spot prices, and a size without a spot estimate may have no Spot offer there. A prices_file with the Retail Prices API's Spot meters prices them.",
			catalog.Plural(without, "ranked size has no spot price", "ranked sizes have no spot price"), where, verb, with)}, true
}

// listedAfterSpot ends a size's warning on its on-demand price: where some
// ranked size has a spot price, it is listed after them.
func listedAfterSpot(n *requirements) string {
	if n.spotPriced {
		return ", so it is listed after the sizes with a spot price."
	}
	return "."
}

// noSpotWords says that Azure sells no Spot VMs of the size (named as
// size) in its price region, and since when the catalog knows it.
func noSpotWords(e *eval, size string) string {
	w := "Azure sells no Spot VMs of " + size + " in " + e.priceRegion + " (the Resource SKUs API marks it not low-priority capable there"
	if d := e.in.sku.Prices[e.priceRegion].SpotDate; d != "" {
		w += " on " + d
	}
	return w + ")"
}

// preferWarnings name the sizes in prefer that were skipped, and a size
// clearly better than the preferred one.
func preferWarnings(n *requirements, r ranking, evals []eval) []Warning {
	var out []Warning
	var preferred *candidate
	if r.preferred {
		preferred = &r.cands[0]
	}
	var skipped []*eval
	for i := range evals {
		e := &evals[i]
		if e.preferredRank >= 0 && e.fails != 0 && (preferred == nil || e.preferredRank < preferred.preferredRank) {
			skipped = append(skipped, e)
		}
	}
	slices.SortFunc(skipped, func(a, b *eval) int { return a.preferredRank - b.preferredRank })
	for _, e := range skipped {
		out = append(out, Warning{"Preferred Size Skipped",
			fmt.Sprintf("%s, named in prefer, fails %s: %s", e.in.sku.Name, e.firstFail(), rejectionReason(n, e.firstFail(), []eval{*e}))})
	}
	top := r.top
	switch {
	case preferred == nil:
		out = append(out, Warning{"No Preferred Size Fits",
			fmt.Sprintf("None of the sizes in prefer meets every requirement; %s is ranked first on score. If VMs already run a preferred size, Terraform will plan to replace them.", r.cands[0].in.sku.Name)})
	case preferred.eval != top.eval && top.score-preferred.score >= ClearlyBetterScoreMargin:
		out = append(out, Warning{"A Better Size Exists",
			fmt.Sprintf("%s scores %s against %s for the preferred %s. Put it first in prefer to switch (this replaces running VMs).",
				top.in.sku.Name, trimFloat(top.score), trimFloat(preferred.score), preferred.in.sku.Name)})
	}
	return out
}

// explainRanking turns the ranked sizes into the result: the top
// max_results recommendations with their reasons, warnings, estimates and
// deployment settings, and the requirements with what the rank-1 layout
// decided.
func explainRanking(n *requirements, r ranking) *Result {
	res := &Result{}
	limit := min(n.maxResults, len(r.cands))
	bestHPC := 0.0
	if n.hpc.Bound != "" {
		for _, c := range r.cands {
			rate, _ := n.hpc.Rate(&c.in.Hardware, c.nodes)
			bestHPC = math.Max(bestHPC, rate)
		}
	}
	// The training work's derivation, said once for every estimate.
	work := ""
	if n.train.FLOPs > 0 {
		work = flopsHow(&n.train)
	}
	n.spotPriced = n.spot && slices.ContainsFunc(r.cands, func(c candidate) bool { return c.spot })
	res.Recommendations = make([]Recommendation, limit)
	for i := 0; i < limit; i++ {
		res.Recommendations[i] = recommendation(n, r.cands[i], int64(i+1), r.preferred && i == 0, bestHPC, work)
	}
	fillRankedLists(res.Recommendations)
	res.Requirements = n.summary(work)
	if est := res.Recommendations[0].Estimate; est != nil {
		res.Requirements.Efficiency = est.Efficiency
		if n.serve.derived() && est.ConcurrentRequests != nil {
			// The requests in flight the rank-1 layout carries the load with.
			res.Requirements.ConcurrentRequests = *est.ConcurrentRequests
			res.Requirements.Defaults["concurrent_requests"] = itoa(*est.ConcurrentRequests) + " (derived from the load)"
		}
	}
	first := r.cands[0]
	res.Requirements.Nodes = first.nodes
	if first.ibNeeded {
		res.Requirements.Interconnect = "infiniband"
	}
	res.Warnings = requirementWarnings(n)
	return res
}

// recommendation is a ranked size's result; work is the training work's
// derivation (flopsHow), "" when there is none.
func recommendation(n *requirements, c candidate, rank int64, preferred bool, bestHPC float64, work string) Recommendation {
	e := c.eval
	in, s := e.in, e.in.sku
	r := Recommendation{
		Rank:        rank,
		Score:       c.score,
		VMSize:      s.Name,
		SKU:         s,
		Nodes:       e.nodes,
		Replicas:    1,
		GPUsPerNode: in.GPUCount,
		TotalGPUs:   catalog.Round2(in.GPUCount * float64(e.nodes)),
		Preferred:   preferred,
	}
	r.TotalGPUMemoryGiB = catalog.Round2(in.gpuMem * float64(e.nodes))
	switch {
	case n.job.TensorParallel && e.gl.OK:
		r.Replicas, r.TensorParallel, r.PipelineStages = e.gl.Replicas, e.gl.TP, e.gl.PP
	case n.cpuCopies(in):
		r.Replicas, r.PipelineStages = e.nodes, 1 // one copy on each VM
	}
	if e.hasPrice {
		r.PricePerHour = ptr(e.price)
		r.TotalPricePerHour = ptr(round4(e.total))
		if in.GPUCount > 0 {
			r.PricePerGPUHour = ptr(round4(e.price / in.GPUCount))
		}
		r.PriceIsSpot = e.spot
		r.PriceRegion = e.priceRegion
	}
	r.PriceSource = priceSource(n, e)
	if n.regionScoped() {
		r.PriceRegion = e.region // also when the size is offered there unpriced (availability file)
	}
	r.Estimate = estimateFrom(n, e, figuresOf(n, e, bestHPC), work)
	r.Reasons = reasons(n, e, preferred)
	r.Reasons = append(r.Reasons, estimateReasons(n, e, r.Estimate)...)
	r.Warnings = warnings(n, e)
	r.Warnings = append(r.Warnings, quotaWarnings(n, e)...)
	r.Quota = quotaOf(n, e)
	r.Warnings = append(r.Warnings, estimateWarnings(n, e, r.Estimate)...)
	r.Deployment = deployment(n, e)
	return r
}

// quotaOf is a recommendation's Quota; nil without usage files.
func quotaOf(n *requirements, e *eval) *Quota {
	if !n.quotaActive() {
		return nil
	}
	q := &e.quota
	out := &Quota{Family: q.family, VCPUsNeeded: e.nodes * q.perVM, Status: q.status}
	if q.hasFam {
		out.FamilyVCPUsAvailable = ptr(q.fam.Free())
	}
	if q.hasReg {
		out.RegionalVCPUsAvailable = ptr(q.reg.Free())
	}
	return out
}

// quotaWarnings say what the quota means for a recommendation: the
// increase to request when it does not hold the layout (or held a default
// deadline's scale-out back), or why it is unknown.
func quotaWarnings(n *requirements, e *eval) []string {
	if !n.quotaActive() {
		return nil
	}
	q := &e.quota
	switch {
	case q.status == QuotaUnknown:
		return []string{"Quota: " + q.unknownWhy() + ", so whether the subscription can start this layout is unknown."}
	case q.status == QuotaInsufficient:
		return []string{fmt.Sprintf("Quota: %s needs %s vCPUs (%s × %d), but %s. %s",
			q.where(), groupInt(float64(q.needed())), catalog.Plural(q.vms, "VM", "VMs"), q.perVM, q.leaves(), q.increase(q.needed()))}
	case q.deadlineVMs > 0:
		return []string{fmt.Sprintf("Quota: meeting the %d-hour default deadline takes %s, but %s leaves room for %s, which run the job longer. %s",
			DefaultDeadlineHours, catalog.Plural(q.deadlineVMs, "VM", "VMs"), q.where(), catalog.Plural(e.nodes, "VM", "VMs"), q.increase(q.deadlineVMs*q.perVM))}
	}
	return nil
}

// quotaResultWarnings warn when the quota holds no ranked size, naming the
// increase the rank-1 size needs. Rank 1 alone does not tell: prefer pins
// its size there, and with spot the sizes without a spot price rank after
// the others whatever their quota.
func quotaResultWarnings(n *requirements, r ranking) []Warning {
	held := func(c candidate) bool { return c.quota.status != QuotaInsufficient }
	if !n.quotaActive() || len(r.cands) == 0 || slices.ContainsFunc(r.cands, held) {
		return nil
	}
	e := r.cands[0].eval
	return []Warning{{"Quota Holds No Ranked Size",
		fmt.Sprintf("The usage files leave too few vCPUs for every ranked size, so deployments would fail with a quota error. For the rank-1 size, %s: %s",
			e.in.sku.Name, e.quota.increase(e.quota.needed()))}}
}
