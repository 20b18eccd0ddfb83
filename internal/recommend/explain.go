// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

// This file holds the engine's explanation text: the reasons and warnings
// of each recommendation, the result's warnings, and the phrases they and
// the constraints' sentences share.

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
		return upperFirst(kind) + " in " + e.priceRegion + ", the region of regions chosen for it (offered, deployable, then cheapest)."
	}
	return "Lowest " + kind + " among the " + itoa(int64(e.in.nPriced)) + " regions that price this size (" + e.priceRegion + "); set region for a regional price."
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func money(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func percent(f float64) string {
	if f > 0 && f < 0.005 {
		return "less than 1%"
	}
	return itoa(int64(math.Round(f*100))) + "%"
}

// reasons are plain sentences on why the size is ranked where it is. They
// are built by concatenation rather than fmt: this runs for every returned
// recommendation and dominates Recommend's cost otherwise.
func reasons(n *requirements, e *eval, preferred bool) []string {
	in, s := e.in, e.in.sku
	out := make([]string, 0, 9)
	if preferred {
		out = append(out, "Ranked first because it is the first size in prefer that meets every requirement.")
	}
	switch {
	case e.fallback:
		out = append(out, "The "+s.Family+" family is a fallback for "+jobLabel(n)+": listed after the "+strings.Join(n.fit.preferred, ", ")+" sizes.")
	case e.fit == 1:
		out = append(out, "The "+s.Family+" family is preferred for "+jobLabel(n)+".")
	default:
		out = append(out, "The "+s.Family+" family works for "+jobLabel(n)+", with fewer points than "+strings.Join(n.fit.preferred, " and ")+".")
	}
	vms := catalog.Plural(e.nodes, "VM", "VMs")
	switch {
	case n.gpuMemNeed > 0 && in.IsGPU:
		if memVMs := e.gl.Nodes; e.gl.OK && memVMs > 0 && memVMs < e.nodes && n.train.FLOPs > 0 {
			share := 0.0
			if e.gl.Capacity > 0 {
				share = e.gl.Used / e.gl.Capacity
			}
			out = append(out, "Holds the "+trimFloat(n.gpuMemNeed)+" GiB the job needs on "+catalog.Plural(memVMs, "VM", "VMs")+" ("+trimFloat(in.gpuMem*float64(memVMs))+" GiB of GPU memory, "+percent(share)+" used); the deadline takes "+catalog.Plural(e.nodes-e.rackFill, "VM", "VMs")+", every GPU computing.")
		} else if !e.memBand && n.train.FLOPs > 0 {
			// Timed training: sized on the GPUs it keeps busy.
			out = append(out, "Holds the "+trimFloat(n.gpuMemNeed)+" GiB the job needs on "+vms+" ("+trimFloat(in.gpuMem*float64(e.nodes))+" GiB of GPU memory, "+percent(e.memShare())+" used); "+catalog.Plural(n.train.GPUsUsed(&in.Hardware, e.nodes)*float64(e.nodes), "GPU", "GPUs")+" computing.")
		} else {
			out = append(out, "Holds the "+trimFloat(n.gpuMemNeed)+" GiB the job needs on "+vms+" ("+trimFloat(in.gpuMem*float64(e.nodes))+" GiB of GPU memory; "+percent(e.sizing)+" of what the job may use"+bandWords(e.sizing)+").")
		}
		out = append(out, layoutReason(n, e))
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
	if e.rackFill > 0 {
		out = append(out, "Azure allocates these VMs by racks of "+itoa(in.rackVMs)+" when a job spans them: the layout takes "+catalog.Plural(e.nodes/in.rackVMs, "whole rack", "whole racks")+" ("+catalog.Plural(e.nodes, "VM", "VMs")+", "+itoa(e.rackFill)+" more than the job needs), and every VM paid for runs the job, in the estimate too.")
	}
	switch {
	case e.ibNeeded && s.Network.RDMA:
		out = append(out, "InfiniBand "+s.Network.InfiniBand+" ("+itoa(s.Network.InfiniBandGbps)+" Gb/s per VM), which the job needs ("+ibWhy(n)+").")
	case !s.Network.RDMA && n.interconnect == InterconnectAuto:
		out = append(out, "No InfiniBand, which this job does not need: no unused bandwidth to pay for (Azure HPC guidance: InfiniBand only where it is used).")
	}
	if e.hasPrice {
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
		if (n.workload == WorkloadHTC || n.workload == WorkloadHPC) && in.VCPUs > 0 {
			out = append(out, strconv.FormatFloat(e.price/float64(in.VCPUs), 'f', 4, 64)+" USD per vCPU-hour.")
		}
	}
	gen := s.Series
	if in.IsGPU {
		gen = s.GPU.Model + ", " + s.Series
	}
	out = append(out, "Generation: "+gen+" (about "+itoa(int64(in.year))+").")
	if n.hasModel && in.IsGPU && e.nativePrec {
		switch {
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
	if e.retiringSoon {
		out = append(out, fmt.Sprintf("Retires on %s, within %d months. %s", s.Lifecycle.RetirementDate, catalog.RetirementWarningMonths, s.ReplacementSentence(n.asOf)))
	}
	if d := s.Lifecycle.CapacityRestrictedDate; d != "" && d <= n.asOf.Format(catalog.DateLayout) {
		out = append(out, "Azure has restricted capacity growth for the "+s.Series+" series since "+d+": new VMs may not be allocated, Spot VMs least of all. "+s.ReplacementSentence(n.asOf))
	}
	if s.NoSizePage {
		out = append(out, "Microsoft publishes no size page for this size: its facts come from the Resource SKUs API, AKS's GPU registry or the retail price data and a sibling size, and it may be offered only on request; check az vm list-skus for your subscription and region.")
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
	if !e.nativePrec {
		out = append(out, fmt.Sprintf("The %s has no native %s support: the weights are stored in %s and the arithmetic runs at the next precision it supports (%s), slower and with small numeric differences.", s.GPU.Model, n.precision, n.precision, e.in.ClosestPrecision(n.precision)))
	}
	if e.region != "" && !e.hasPrice && e.in.nPriced > 0 {
		out = append(out, "No price is known for this size in "+e.region+", where the availability file offers it; set the provider's prices_file to price it.")
	}
	if n.spot && !e.spot && e.hasPrice {
		out = append(out, "No spot price is known for this size; the price shown is on-demand, so it is listed after the sizes with a spot price.")
	}
	if e.in.nPriced == 0 {
		out = append(out, "The catalog has no price for this size in any region, which usually means it is not offered yet; check the Azure pricing calculator and regional availability.")
	}
	if e.in.IsGPU && e.memShare() >= 0 && e.memShare() < LowUtilizationWarning && n.gpuMemNeed > 0 {
		out = append(out, "The job uses only "+percent(e.memShare())+" of this size's GPU memory: use larger batches or more model replicas, or a smaller size if one fits (Azure HPC guidance on job sizing).")
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
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the layout splits each copy over "+itoa(e.gl.TP)+" of them, which speeds each sequence, but a one-GPU size serves it for less (Azure HPC guidance on job sizing).")
		case n.job.TensorParallel && e.gl.Replicas > 1:
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the others would hold copies (replicas) that the stated concurrency does not need (Azure HPC guidance on job sizing).")
		case n.workload == WorkloadTraining || n.workload == WorkloadFineTuning:
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the others help only through data parallelism, which small jobs rarely use well (Azure HPC guidance on job sizing).")
		default:
			out = append(out, "The job fits in one of its "+trimFloat(e.in.GPUCount)+" GPUs; the others would sit idle (Azure HPC guidance on job sizing).")
		}
	}
	return out
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
		return "Each GPU holds the whole model with its states and batch (" + trimFloat(gl.PerGPU) + " GiB of " + trimFloat(e.in.UnitMemGiB) + " GiB usable)."
	case j.TensorParallel:
		var b strings.Builder
		b.WriteString("Each copy of the model is split over ")
		b.WriteString(catalog.Plural(gl.TP, "GPU", "GPUs"))
		if gl.PP > 1 {
			b.WriteString(" per VM and " + itoa(gl.PP) + " VMs (pipeline stages)")
		}
		b.WriteString(" (" + trimFloat(gl.PerGPU) + " GiB per GPU of " + trimFloat(e.in.UnitMemGiB*j.Share) + " GiB it may use)")
		if gl.Replicas > 1 {
			b.WriteString("; " + itoa(gl.Replicas) + " copies (replicas) serve the " + itoa(j.Seqs) + " concurrent requests")
		}
		b.WriteString(".")
		if j.KVPerSeq > 0 && n.mem != nil && n.mem.KVBytesPerToken > 0 {
			tokens := gl.KVRoom * perfmodel.GiB / n.mem.KVBytesPerToken
			more := int64(math.Floor(tokens / float64(n.mi.Context)))
			b.WriteString(" KV cache room left: " + trimFloat(gl.KVRoom) + " GiB, about " + groupInt(tokens) + " more tokens (" + catalog.Plural(more, "more sequence", "more sequences") + " of " + groupInt(float64(n.mi.Context)) + " tokens).")
		}
		return b.String()
	}
	w := wordsOf(n.workload)
	return "The " + w.parts + " " + w.spread + " over " + catalog.Plural(e.in.GPUUnits*e.nodes, "GPU", "GPUs") + " (" + trimFloat(gl.PerGPU) + " GiB per GPU of " + trimFloat(e.in.UnitMemGiB) + " GiB usable)."
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
	if n.spot && (n.workload == WorkloadTraining || n.workload == WorkloadFineTuning) {
		out = append(out, Warning{"Spot VMs For Training",
			"Spot capacity can be reclaimed at any time. Microsoft recommends spot for interruptible work such as inference (Microsoft's AI compute guidance); for training and fine-tuning, checkpoint regularly so an eviction loses little work."})
	}
	if n.spot && !first.spot {
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
			fmt.Sprintf("%s, named in prefer, fails %s: %s", e.in.sku.Name, e.firstFail(), rejectionReason(n, e.firstFail()))})
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

// interconnectExplanation is the requirements' sentence on InfiniBand.
func interconnectExplanation(n *requirements) string {
	switch {
	case n.interconnect == InterconnectInfiniBand:
		return "Interconnect: InfiniBand required by the interconnect setting."
	case n.interconnect == InterconnectAny:
		return "Interconnect: not required (interconnect = \"any\"); multi-VM jobs run over Ethernet."
	case n.workload == WorkloadHPC:
		return "Interconnect: InfiniBand, as tightly coupled MPI needs it (Azure HPC guidance: InfiniBand only where it is used)."
	case n.workload == WorkloadHTC:
		return "Interconnect: not needed for independent tasks; an RDMA size's InfiniBand is in its price per unit of work, which the ranking compares, and costs no further points."
	}
	return "Interconnect: InfiniBand only when the job spans several VMs; otherwise RDMA sizes are penalized because unused bandwidth costs money (Azure HPC guidance: InfiniBand only where it is used)."
}

// memClause says on how many VMs the GPU memory must fit.
func memClause(n *requirements) string {
	switch {
	case n.fixedNodes > 0:
		return fmt.Sprintf("on %d VMs (nodes)", n.fixedNodes)
	case n.ibNeeded(true):
		what := "the job"
		if n.job.TensorParallel && n.job.KVPerSeq > 0 {
			what = "one copy of the model"
		}
		return fmt.Sprintf("within the memory its GPUs may use: %s must fit one VM, or up to %d VMs with InfiniBand (sizes without it cannot span VMs)", what, MaxNodesRDMA)
	}
	return fmt.Sprintf("within %d VMs, in the memory its GPUs may use", MaxNodes)
}

func nodesClause(n *requirements) string {
	if n.fixedNodes > 0 {
		return fmt.Sprintf("on %d VMs (nodes)", n.fixedNodes)
	}
	return fmt.Sprintf("within %d VMs with InfiniBand or %d without", MaxNodesRDMA, MaxNodes)
}

// ibWhyMultiVM is ibWhy's answer when only the VM count asks for InfiniBand.
const ibWhyMultiVM = "the job spans several VMs"

// ibWhy says why the job needs InfiniBand.
func ibWhy(n *requirements) string {
	switch {
	case n.interconnect == InterconnectInfiniBand:
		return "interconnect = \"infiniband\""
	case n.workload == WorkloadHPC:
		return "tightly coupled MPI"
	}
	return ibWhyMultiVM
}

func priceWhere(n *requirements) string {
	s := ""
	switch {
	case n.region != "":
		s = " in " + n.region
	case n.regionScoped():
		s = " in its region of " + catalog.QuoteList(n.regions)
	}
	if n.spot {
		s += " (spot where known)"
	}
	return s
}

func trimPrice(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", f), "0"), ".")
}

func firstN(s []string, k int) []string {
	if len(s) > k {
		return s[:k]
	}
	return s
}

// memShare is the share of the GPU memory the job may use that it fills:
// the sizing share where sizing is on memory, else the memory layout's.
func (e *eval) memShare() float64 {
	if e.memBand || e.gl.Capacity <= 0 {
		return e.sizing
	}
	return e.gl.Used / e.gl.Capacity
}

// jobLabel names the job as the reasons do: "training (small model)".
func jobLabel(n *requirements) string {
	if n.fitKey != n.workload {
		return wordsOf(n.workload).label + " (" + n.class + " model)"
	}
	return wordsOf(n.workload).label
}

// words are what sentences call a workload and the GPU memory a job
// spreads over its GPUs when no model's layout says how (the sharded
// layout; gpu_memory_gib): its label, what the memory holds (parts, short;
// whole, in full, as a sentence's subject), how it spreads and by what.
type words struct{ label, parts, whole, spread, how string }

// workloadWords holds each workload's words; workloads not listed are
// named as given, and their memory is a model's sharded states
// (defaultWords).
var workloadWords = map[string]words{
	WorkloadVisualization: {label: "visualization", parts: "scenes and frame buffers",
		whole: "scenes, textures and frame buffers", spread: "are spread"},
	WorkloadDataProcessing: {label: "data processing", parts: "data", whole: "the data",
		spread: "is partitioned", how: " (one RAPIDS worker per GPU)"},
}

var defaultWords = words{parts: "states and activations", whole: "weights, gradients, optimizer states and activations",
	spread: "are sharded", how: " (FSDP or ZeRO-3)"}

// wordsOf is a workload's words.
func wordsOf(workload string) words {
	if w, ok := workloadWords[workload]; ok {
		return w
	}
	w := defaultWords
	w.label = workload
	return w
}

// explainRequirements says how the requirements were derived, in the order
// they were: the families, the model and its memory, the GPU and system
// memory, the work and its deadline, the counts, the scaling rule and the
// interconnect.
func explainRequirements(n *requirements, work string) []string {
	ex := []string{n.fit.explain}
	ex = append(ex, explainModel(n)...)
	ex = append(ex, explainMemory(n, work)...)
	if n.serve.tps > 0 {
		ex = append(ex, fmt.Sprintf("Throughput: %s output tokens per second across the service (tokens_per_second); each size gets the copies it needs.", trimFloat(n.serve.tps)))
	}
	if n.gpus > 0 {
		ex = append(ex, fmt.Sprintf("GPUs: at least %d whole GPUs per job.", n.gpus))
	}
	if n.hpc.Bound != "" {
		ex = append(ex, hpcBoundExplanation(&n.hpc))
		ex = append(ex, hpcEfficiencyExplanation(&n.hpc)...)
		ex = append(ex, hpcReferenceExplanation(&n.hpc)...)
	}
	if n.cores > 0 {
		ex = append(ex, fmt.Sprintf("Cores: %d per job; VMs = ceil(cores / vCPUs per VM). HPC sizes run with SMT off, so their vCPUs are physical cores.", n.cores))
	}
	switch {
	case n.fixedNodes > 0:
		ex = append(ex, fmt.Sprintf("Nodes: fixed at %d by the nodes setting.", n.fixedNodes))
	case n.cpuService():
		ex = append(ex, "One copy of the small model on each VM; VMs are added for min_replicas, tokens_per_second and the stated latency targets (each VM then decodes a smaller share of the concurrent requests).")
	case n.workload == WorkloadInference && n.job.KVPerSeq > 0:
		ex = append(ex, "Scale up, then out: each copy of the model gets the VM's GPUs (tensor parallel), and spans several VMs only when no size holds it on one; copies (replicas) are added when one VM cannot hold the KV cache of every concurrent request (Azure Machine Learning guidance: start with a machine that holds the model, then add machines for concurrency).")
	case n.workload != WorkloadHPC && n.workload != WorkloadHTC:
		ex = append(ex, "Scale up before scale out: one VM when any size holds the job, more VMs only when none does (Azure Machine Learning guidance).")
	}
	return append(ex, interconnectExplanation(n))
}

// explainModel says which model the estimate used and how much memory it
// needs.
func explainModel(n *requirements) []string {
	if n.mem == nil {
		return nil
	}
	var ex []string
	if n.mem.Model != "" {
		ex = append(ex, "Model: "+n.mi.Model.Name+" ("+n.mi.Kind+", "+trimFloat(n.mi.Params)+"B parameters) from the catalog's model table.")
	}
	ex = append(ex, modelNotes(&n.mi, &n.model)...)
	if n.mi.Method != "" && n.workload == WorkloadFineTuning {
		ex = append(ex, "Fine-tuning method: "+n.mi.Method+methodWhy(n.req.FineTuningMethod, n.precision)+".")
	}
	return append(ex, "Memory estimate: "+n.mem.Formula+".")
}

// explainMemory says what GPU and system memory the job needs, how the
// GPU memory splits, and the training work (work: its derivation,
// flopsHow) and deadline.
func explainMemory(n *requirements, work string) []string {
	var ex []string
	if n.fit.category != catalog.CategoryGPU {
		if n.mem != nil {
			ex = append(ex, fmt.Sprintf("System memory: at least %s GiB, the model runs on the CPU.", trimFloat(n.sysMemNeed)))
		}
		return ex
	}
	switch {
	case n.req.GPUMemoryGiB != nil:
		ex = append(ex, fmt.Sprintf("GPU memory: %s GiB, as given by gpu_memory_gib (it overrides the model estimate).", trimFloat(n.gpuMemNeed)))
	case n.mem != nil:
		ex = append(ex, fmt.Sprintf("GPU memory: %s GiB in total, from the model estimate.", trimFloat(n.gpuMemNeed)))
	}
	if n.mem != nil && n.workload == WorkloadInference {
		ex = append(ex, fmt.Sprintf("System memory: at least %s GiB per copy of the model, 150%% of the %s GiB of weights (Azure Machine Learning guidance); a copy split over several VMs needs its share on each.", trimFloat(n.sysMemNeed), trimFloat(n.mem.WeightsGiB)))
	}
	if n.gpuMemNeed > 0 {
		ex = append(ex, explainSplit(n))
	}
	if t := &n.train; t.FLOPs > 0 {
		ex = append(ex, "Training work: "+work+"; tokens: "+tokenBudget(t)+".")
		if t.deadlineStated {
			ex = append(ex, fmt.Sprintf("Deadline: %s hours (deadline_hours); each size scales out to meet it within the VMs one job may span, and sizes that cannot are removed (deadline).", trimFloat(t.Deadline)))
		} else {
			ex = append(ex, fmt.Sprintf("Deadline: %d hours by default; each size scales out to meet it within the VMs one job may span, and a size that cannot runs longer, with a warning.", DefaultDeadlineHours))
		}
	}
	return ex
}

// requirementWarnings are the warnings about the request's model inputs:
// the model's own, then the throughput settings the model does not use.
func requirementWarnings(n *requirements) []Warning {
	out := modelWarnings(&n.mi, &n.model)
	if n.workUnused {
		out = append(out, Warning{"Argument Not Used By The Model",
			"tokens_billion and deadline_hours are not used: the throughput model times the training of language models (6 × parameters × tokens), and this is a " + perfmodel.KindLabel(n.mi.Kind) + ". Remove them, or describe a language model."})
	}
	if n.tpsUnused {
		out = append(out, Warning{"Argument Not Used By The Model",
			"tokens_per_second is not used: the throughput model times serving a language model whose memory the engine estimates (not a stated gpu_memory_gib, a model on CPU sizes, or a model without a KV cache). Remove it, or describe the served language model."})
	}
	return out
}

// tokenBudget says where a training job's tokens come from.
func tokenBudget(t *training) string {
	switch t.budget {
	case tokensChinchilla:
		return fmt.Sprintf("%d tokens per parameter, compute-optimal (Hoffmann et al. 2022); set tokens_billion for the real budget", ChinchillaTokensPerParameter)
	case tokensFineTuning:
		return fmt.Sprintf("%s billion tokens, a typical fine-tuning set (a judgement); set tokens_billion for the real budget", trimFloat(DefaultFineTuningTokensBillion))
	case tokensStated:
		return "tokens_billion"
	}
	return ""
}

// flopsHow derives a training job's FLOPs.
func flopsHow(t *training) string {
	how := fmt.Sprintf("%s × %sB active parameters", trimFloat(t.Factor), trimFloat(t.Active))
	if t.Width > 0 {
		how += fmt.Sprintf(" + %s × %d layers × %s tokens of context × %d attention width", trimFloat(t.Factor), t.Layers, groupInt(float64(t.Context)), t.Width)
	}
	return fmt.Sprintf("(%s) per token × %s billion tokens = %s FLOPs", how, trimFloat(t.TokensB), sci(t.FLOPs))
}

// explainSplit is the requirements' sentence on how the GPU memory splits.
func explainSplit(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return "Per-GPU fit: every GPU holds the whole model, its states and its batch (data parallel), so one GPU must hold all of it."
	case j.KVPerSeq > 0:
		return fmt.Sprintf("Per-GPU fit: a copy of the model is split over a VM's GPUs by tensor parallelism (a degree that divides the attention heads) and over VMs by pipeline stages only when one VM cannot hold it; each GPU holds its share of the weights and of the KV cache within %s%% of its usable memory (vLLM's gpu_memory_utilization). More copies serve more concurrent requests.", trimFloat(j.Share*100))
	case j.TensorParallel:
		return fmt.Sprintf("Per-GPU fit: the model is split over a VM's GPUs by tensor parallelism and over VMs by pipeline stages; each GPU holds its share within %s%% of its usable memory.", trimFloat(j.Share*100))
	}
	w := wordsOf(n.workload)
	return "Per-GPU fit: " + w.whole + " " + w.spread + " over every GPU of the job" + w.how + "; each GPU's share must fit the memory it exposes."
}

// shareWhat says what one GPU must hold.
func shareWhat(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return fmt.Sprintf("every GPU holds the whole model, its states and its batch (%s GiB, data parallel)", trimFloat(j.Shard))
	case j.KVPerSeq > 0:
		return fmt.Sprintf("each GPU holds its tensor-parallel share of the weights and of the KV cache within %s%% of its usable memory, and the attention heads (and KV heads, which GPUs beyond their number hold copies of) limit how far the model splits", trimFloat(j.Share*100))
	case j.TensorParallel:
		return fmt.Sprintf("each GPU holds its tensor-parallel share within %s%% of its usable memory", trimFloat(j.Share*100))
	}
	return "each GPU holds its share of the " + wordsOf(n.workload).parts + " within the memory it exposes"
}

// lowerWhat says how to lower the need per GPU.
func lowerWhat(n *requirements) string {
	j := &n.job
	switch {
	case j.DataParallel:
		return "lower training_batch_size, or choose a size with larger GPUs"
	case j.KVPerSeq > 0:
		return "lower concurrent_requests or context_tokens, or choose a size with larger GPUs"
	case n.workload == WorkloadFineTuning && n.mi.Method == MethodFull:
		return "use fine_tuning_method = \"lora\" or \"qlora\", or choose a size with larger GPUs"
	case j.Replicated > 0:
		return "lower context_tokens or training_batch_size (the activations every GPU keeps whole), or choose a size with larger GPUs"
	}
	return "choose a size with larger GPUs"
}

// perGPUDetail gives the numbers of the first size counted under
// gpu_memory_per_gpu.
func perGPUDetail(n *requirements, evals []eval) string {
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.firstFail() != cGPUMemoryPerGPU {
			continue
		}
		in := e.in
		usable := trimFloat(in.UnitMemGiB)
		if n.job.Share < 1 {
			usable = fmt.Sprintf("%s GiB × %s%% = %s", trimFloat(in.UnitMemGiB), trimFloat(n.job.Share*100), trimFloat(in.UnitMemGiB*n.job.Share))
		}
		return fmt.Sprintf("For example %s needs %s GiB on each GPU against %s GiB it can use.", in.sku.Name, trimFloat(e.gl.PerGPU), usable)
	}
	return ""
}

// assumptions says how a layout's figures were estimated, or that the
// catalog lacks the figures to estimate it. Built by concatenation where
// it can be: this runs for every returned recommendation.
func assumptions(n *requirements, e *eval, f figures, work string) []string {
	in := e.in
	switch {
	case f.work == workTraining && !f.known:
		return []string{"The catalog has no throughput figure for the " + in.sku.GPU.Model + " at this precision: no time or cost estimate."}
	case f.work == workTraining:
		return []string{
			"Training FLOPs: " + work + ".",
			"Rate: " + catalog.Plural(e.nodes, "VM", "VMs") + " × " + catalog.Plural(f.gpusUsed, "GPU", "GPUs") + " × " + trimFloat(f.peak) + " dense TFLOPS (" + computeLabel(n) + ") × " + trimFloat(f.mfu*100) + "% MFU = " + sci(f.rate) + " FLOP/s" + oneGPUWhy(f.oneGPU) + ".",
			"MFU: " + mfuWhy(n, in, e) + ".",
			"Time: FLOPs ÷ rate = " + trimFloat(f.hours) + " hours; cost: hours × " + money(e.total) + " USD per hour for all VMs.",
		}
	case f.work == workServing && !f.known:
		return []string{"The catalog has no bandwidth or throughput figure for the " + in.sku.GPU.Model + ": no throughput estimate."}
	case f.work == workServing:
		return servingAssumptions(n, e, f)
	case f.work == workHPC && !f.known:
		return []string{"The catalog has no " + n.hpc.Bound + " figure for this size: no throughput estimate."}
	}
	return hpcAssumptions(n, e, f)
}

// computeLabel names the precision training computes in.
func computeLabel(n *requirements) string {
	if n.train.ComputePrec == "" {
		return "bf16 or fp16"
	}
	return n.train.ComputePrec
}

// mfuWhy says how a layout's MFU was derived.
func mfuWhy(n *requirements, in *sizeInfo, e *eval) string {
	s := trimFloat(in.TrainMFU*100) + "% for the " + in.sku.GPU.Model
	if in.GPUCount < 1 {
		s += ", × " + trimFloat(perfmodel.PartialGPUTrainingFactor) + " for a share of a GPU"
	}
	if in.GPUUnits > 1 && !in.Linked && !n.train.UsesOneGPU(&in.Hardware, e.nodes) {
		s += ", × " + trimFloat(perfmodel.PCIeTrainingFactor) + " for GPUs without NVLink"
	}
	if e.nodes > 1 && !e.ibNeeded {
		s += ", × " + trimFloat(perfmodel.EthernetTrainingFactor) + " across VMs without InfiniBand"
	}
	return s
}

// sci formats a large number as 1.23e22.
func sci(f float64) string { return strconv.FormatFloat(f, 'e', 3, 64) }

// estimateReasons puts the estimate next to the hourly price.
func estimateReasons(n *requirements, e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	var out []string
	switch {
	case est.JobHours != nil && est.RelativeThroughput == nil:
		s := "Estimated " + trimFloat(*est.JobHours) + " hours for the job on " + catalog.Plural(e.nodes, "VM", "VMs")
		if est.JobCostUSD != nil {
			s += ", " + money(*est.JobCostUSD) + " USD in all (" + money(*est.CostPerMillionTokens) + " USD per million tokens)"
		}
		out = append(out, s+", at "+trimFloat(est.Efficiency*100)+"% MFU.")
	case est.TokensPerSecond != nil:
		s := "Estimated " + groupInt(*est.TokensPerSecond) + " output tokens per second for the service"
		if est.CostPerMillionTokens != nil {
			s += ", " + money(*est.CostPerMillionTokens) + " USD per million output tokens"
		}
		out = append(out, s+".")
	case est.RelativeThroughput != nil:
		out = append(out, "Throughput by "+n.hpc.Bound+": "+percent(*est.RelativeThroughput)+" of the best layout for this request.")
		out = append(out, hpcEstimateReasons(n, e, est)...)
	}
	return out
}

// estimateWarnings flags a default deadline the layout cannot meet and a
// size without the facts to estimate.
func estimateWarnings(n *requirements, e *eval, est *Estimate) []string {
	if est == nil {
		return nil
	}
	if est.JobHours == nil && est.TokensPerSecond == nil && est.RelativeThroughput == nil {
		return []string{"The catalog has no throughput figures for this size, so its time and cost per job are not estimated; compare it on price per hour only."}
	}
	if est.TimeToFirstTokenMs != nil && e.slowDefault {
		return []string{fmt.Sprintf("A request's first token comes after about %s ms and then one every %s ms, beyond the default targets of %s ms and %s ms (MLPerf Inference's server latency limits); set max_time_to_first_token_ms and max_time_per_output_token_ms to accept it, or to require a faster layout.",
			groupInt(*est.TimeToFirstTokenMs), trimFloat(*est.TimePerOutputTokenMs), groupInt(DefaultTimeToFirstTokenMs), groupInt(DefaultTimePerOutputTokenMs))}
	}
	if est.JobHours != nil && est.RelativeThroughput == nil && !n.train.deadlineStated && *est.JobHours > n.train.Deadline {
		return []string{"The job runs about " + trimFloat(*est.JobHours) + " hours on " + catalog.Plural(e.nodes, "VM", "VMs") + ", beyond the " + itoa(DefaultDeadlineHours) + "-hour default, even on the most VMs one job may span here; set deadline_hours to accept it, or choose a size with InfiniBand or faster GPUs."}
	}
	return nil
}

func oneGPUWhy(one bool) string {
	if one {
		return " (the job fits one GPU and finishes within the deadline there: the VM's other GPUs sit idle)"
	}
	return ""
}

// methodWhy says where the fine-tuning method came from.
func methodWhy(given, precision string) string {
	switch {
	case given != "":
		return " (fine_tuning_method)"
	case precision == PrecisionINT4:
		return " (the default for an int4 model: a 4-bit base with trainable adapters)"
	case precision == PrecisionINT8:
		return " (the default for an int8 model: adapters on a frozen 8-bit base)"
	case precision == PrecisionFP4:
		return " (the default for an fp4 model: adapters on a frozen 4-bit base)"
	}
	return " (the default)"
}

// precisionWhat says which precision the job computes in, and why.
func precisionWhat(n *requirements) string {
	switch {
	case n.mi.Method == MethodQLoRA:
		return "QLoRA computes in bf16 or fp16"
	case n.mi.Method == MethodLoRA && n.train.ComputePrec == "":
		return "adapters on a quantised base compute in bf16 or fp16"
	case n.mi.Method == MethodLoRA:
		return "LoRA computes in the base model's " + n.precision
	}
	return "full training computes in " + n.precision
}

// modelWarnings say where the request departs from the model table, and
// which inputs the model does not use.
func modelWarnings(mi *perfmodel.MemoryInput, found *modelFacts) []Warning {
	var out []Warning
	tm := mi.Model
	if found.aliasOf != "" {
		out = append(out, Warning{"Model Name Resolved To Its Architecture",
			fmt.Sprintf("model.name %q is not an id of the catalog's model table; it is estimated as %s (%s), whose architecture it shares: an instruct or chat tuning or a Hugging Face id has its base model's parameters and layers. Set model.name = %q to remove this warning.",
				found.aliasOf, tm.ID, tm.Name, tm.ID)})
	}
	if found.paramsDiffer {
		out = append(out, Warning{"Parameter Count Differs From The Model Table",
			fmt.Sprintf("model.parameters_billion is %s, but the catalog's model table gives %s for %s; the estimate uses %s. Remove parameters_billion to use the table's count.",
				trimFloat(mi.Params), trimFloat(tm.ParametersBillion), tm.Name, trimFloat(mi.Params))})
	}
	if found.precisionDiffer {
		out = append(out, Warning{"Precision Differs From The Model Table",
			fmt.Sprintf("model.precision is %q, but %s is published in %s; the estimate stores the weights in %s. Remove precision to use the published one.",
				mi.Precision, tm.Name, tm.Precision, mi.Precision)})
	}
	unused := func(set bool, name, why string) {
		if set {
			out = append(out, Warning{"Argument Not Used By The Model", name + " is not used: " + why + " Remove it, or describe the model that needs it."})
		}
	}
	what := perfmodel.KindLabel(mi.Kind)
	unused(found.unusedContext, "context_tokens", "a "+what+" has no token context the estimate depends on; its sequence is the model's own input size.")
	unused(found.unusedConcurrency, "concurrent_requests", "a "+what+" keeps no KV cache per request, so concurrency does not change its memory.")
	unused(found.unusedBatch, "training_batch_size", "full training of a language model sizes activations as a share of the model states (TrainingActivationHeadroom, FineTuningActivationHeadroom), not from the batch.")
	return out
}

// modelNotes say what resolving the model assumed: a published precision
// handled as another, full training in bf16, a capped context.
func modelNotes(mi *perfmodel.MemoryInput, found *modelFacts) []string {
	var out []string
	tm := mi.Model
	if found.handledAs != "" {
		out = append(out, fmt.Sprintf("Precision: %s as published (%s bits per weight), handled as %s.", tm.Precision, trimFloat(tm.PrecisionBits), found.handledAs))
	}
	if found.trainsInBF16 != "" {
		out = append(out, fmt.Sprintf("Precision: %s trains every weight in bf16, not in its published %s.", mi.Workload, found.trainsInBF16))
	}
	if found.contextCapped {
		out = append(out, fmt.Sprintf("Context: %s tokens, capped at %s's maximum context.", groupInt(float64(*tm.MaxContextTokens)), tm.Name))
	}
	return out
}

// servingAssumptions says how the step model timed a served layout.
func servingAssumptions(n *requirements, e *eval, f figures) []string {
	if f.cpu {
		return cpuServingAssumptions(n, e, f)
	}
	in, sv, c := e.in, &n.serve, f.copy
	scale := in.TrainMFU / perfmodel.TrainingMFU
	peak := in.PeakTFLOPS(sv.Precision)
	allReduce := ""
	if c.AllReduce > 0 {
		allReduce = fmt.Sprintf(", and waits %s ms for its all-reduces (2 × %s layers × %s µs)", trimFloat(c.AllReduce*1000), trimFloat(sv.Depth), trimFloat(perfmodel.AllReduceSeconds*1e6))
	}
	out := []string{
		fmt.Sprintf("Decode step: %s of %s, %d sequences each; a step reads %s GiB of weights and the sequences' KV cache at %s%% of %s GB/s per GPU (%s ms), computes %d tokens at %s%% of %s dense TFLOPS per GPU (%s ms)%s.",
			catalog.Plural(e.gl.Copies, "copy", "copies"), catalog.Plural(perfmodel.CopyGPUs(&in.Hardware, e.gl.TP, e.gl.PP), "GPU", "GPUs"), f.batch, trimFloat(sv.TouchedWeights(f.batch)),
			trimFloat(perfmodel.InferenceMBU*100), trimFloat(in.HBMGBs), trimFloat(c.Memory*1000), f.batch, trimFloat(perfmodel.DecodeMFU*scale*100), trimFloat(peak), trimFloat(c.Compute*1000), allReduce),
		fmt.Sprintf("Prefill: %s prompt tokens × 2 × %sB active parameters plus attention over the prompt, at %s%% of the peak: %s ms per request; with continuous batching a copy runs %d prefills per %s decode steps.",
			groupInt(sv.Prompt), trimFloat(sv.Active), trimFloat(perfmodel.PrefillMFU*scale*100), trimFloat(c.Prefill*1000), f.batch, groupInt(sv.Output)),
		servingThroughputSentence(f),
	}
	if c.WeightOnly {
		out = append(out, fmt.Sprintf("Weight-only: the %s computes %s weights in bf16 or fp16 (%s dense TFLOPS); they save memory and bandwidth, not arithmetic time.",
			in.sku.GPU.Model, sv.Precision, trimFloat(peak)))
	}
	return out
}

// cpuServingAssumptions says how the step model timed a small model on a
// CPU size (cpuSpeed).
func cpuServingAssumptions(n *requirements, e *eval, f figures) []string {
	in, sv, c := e.in, &n.serve, f.copy
	fp32 := perfmodel.CPUFP32(&in.Hardware) / 1e9
	return []string{
		fmt.Sprintf("Decode step: %s, one per VM, %s each; a step reads %s GiB of weights at %s%% of the VM's %s GB/s STREAM bandwidth (%s ms), and takes no less than computing %s at %s%% of its %s GFLOPS FP32 (%s × %s cores × %s GFLOPS FP64 per core; %s ms).",
			catalog.Plural(e.nodes, "copy", "copies"), catalog.Plural(f.batch, "sequence", "sequences"), trimFloat(sv.TouchedWeights(f.batch)), trimFloat(perfmodel.CPUStreamEfficiency*100),
			trimFloat(in.StreamGBs), trimFloat(c.Memory*1000), catalog.Plural(f.batch, "token", "tokens"), trimFloat(perfmodel.CPUComputeEfficiency*100), groupInt(fp32),
			trimFloat(perfmodel.CPUFP32PerFP64), groupInt(float64(in.PhysCores)), trimFloat(in.CoreFP64), trimFloat(c.Compute*1000)),
		fmt.Sprintf("Prefill: %s prompt tokens × 2 × %sB active parameters at %s%% of the FP32 rate: %s ms per request; with continuous batching a copy runs %s per %s decode steps.",
			groupInt(sv.Prompt), trimFloat(sv.Active), trimFloat(perfmodel.CPUComputeEfficiency*100), trimFloat(c.Prefill*1000), catalog.Plural(f.batch, "prefill", "prefills"), groupInt(sv.Output)),
		servingThroughputSentence(f),
	}
}

// servingThroughputSentence gives a timed service's throughput and
// latency.
func servingThroughputSentence(f figures) string {
	return fmt.Sprintf("Throughput: %s output tokens per second per copy, %s for the service; a request's first token after %s ms, then one every %s ms.",
		groupInt(f.perCopy), groupInt(f.tps), trimFloat(f.copy.TTFT*1000), trimFloat(f.copy.TPOT*1000))
}
