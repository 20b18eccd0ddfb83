package recommend

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// Recommend ranks the catalog's sizes for a request. It returns a
// *ValidationError when the request cannot be interpreted, and a *NoFitError
// when no size passes every hard constraint (never an empty success).
func (e *Engine) Recommend(req Request) (*Result, error) {
	cat, p := e.cat, e.prep
	fatal, soft := validate(cat, req)
	if len(fatal) > 0 {
		return nil, &ValidationError{Errors: fatal}
	}
	n := normalize(cat, req)

	buf := e.evals.Get().(*[]eval)
	defer e.evals.Put(buf)
	if cap(*buf) < len(p.sizes) {
		*buf = make([]eval, len(p.sizes))
	}
	evals := (*buf)[:len(p.sizes)]
	for i := range p.sizes {
		n.evaluate(&p.sizes[i], &evals[i])
	}
	for rank, name := range req.Prefer {
		if s, ok := cat.Lookup(name); ok {
			for i := range evals {
				if evals[i].in.sku == s && evals[i].preferredRank < 0 {
					evals[i].preferredRank = rank
				}
			}
		}
	}

	// Scale up before scale out: when some size holds the job on one VM,
	// multi-VM layouts go (except sizes named in prefer).
	if n.scaleUpApplies() {
		single := false
		for i := range evals {
			if evals[i].fails == 0 && evals[i].nodes == 1 {
				single = true
				break
			}
		}
		if single {
			for i := range evals {
				if evals[i].fails == 0 && evals[i].nodes > 1 && evals[i].preferredRank < 0 {
					evals[i].fails |= 1 << cScaleUp
				}
			}
		}
	}

	cands := make([]*eval, 0, 32)
	for i := range evals {
		if evals[i].fails == 0 {
			cands = append(cands, &evals[i])
		}
	}
	rejected := n.rejections(evals)
	if len(cands) == 0 {
		return nil, &NoFitError{Rejected: rejected, NearestMiss: n.nearestMiss(evals), checked: len(evals)}
	}

	n.scoreAll(cands)
	slices.SortFunc(cands, compareEvals)
	top := cands[0]

	// prefer: the first named size that passed every constraint is rank 1.
	var preferred *eval
	for _, e := range cands {
		if e.preferredRank >= 0 && (preferred == nil || e.preferredRank < preferred.preferredRank) {
			preferred = e
		}
	}
	if preferred != nil && preferred != top {
		i := slices.Index(cands, preferred)
		copy(cands[1:i+1], cands[:i])
		cands[0] = preferred
	}

	res := &Result{Rejected: rejected}
	limit := min(n.maxResults, len(cands))
	res.Recommendations = make([]Recommendation, limit)
	for i := 0; i < limit; i++ {
		res.Recommendations[i] = n.recommendation(cands[i], int64(i+1), preferred == cands[i])
	}
	res.Requirements = n.requirements()
	first := cands[0]
	res.Requirements.Nodes = first.nodes
	if first.ibNeeded {
		res.Requirements.Interconnect = "infiniband"
	}
	res.Warnings = n.resultWarnings(cat, first, top, preferred, evals)
	res.Warnings = append(res.Warnings, ignoredInputs(soft)...)
	return res, nil
}

// ignoredInputs turns the validation problems Recommend works around
// (inputs it ignores) into warnings. Other soft problems (contradictions,
// unknown regions or GPU models) leave no size and end in a *NoFitError.
func ignoredInputs(soft []FieldError) []Warning {
	var out []Warning
	for _, fe := range soft {
		switch fe.Summary {
		case "Model Not Used", "Cores Not Used", "Unknown Preferred Size":
			out = append(out, Warning{Summary: fe.Summary, Detail: fe.Detail})
		}
	}
	return out
}

// compareEvals orders fallback families last, then by score (descending),
// then total price (ascending, unpriced last), then name.
func compareEvals(a, b *eval) int {
	if a.fallback != b.fallback {
		if b.fallback {
			return -1
		}
		return 1
	}
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if a.hasPrice != b.hasPrice {
		if a.hasPrice {
			return -1
		}
		return 1
	}
	if a.costKey != b.costKey {
		if a.costKey < b.costKey {
			return -1
		}
		return 1
	}
	return strings.Compare(a.in.sku.Name, b.in.sku.Name)
}

// scoreAll scores candidates; cost is relative to the cheapest of them.
func (n *norm) scoreAll(cands []*eval) {
	minCost := math.Inf(1)
	for _, e := range cands {
		if e.hasPrice && e.costKey > 0 && e.costKey < minCost {
			minCost = e.costKey
		}
	}
	minPrimary := math.Inf(1)
	for _, e := range cands {
		e.score = n.score(e, minCost)
		if !e.fallback {
			minPrimary = math.Min(minPrimary, e.score)
		}
	}
	for _, e := range cands {
		if e.fallback && e.score > minPrimary {
			e.score = minPrimary
		}
	}
}

// score is the weighted sum of the components (each in 0..1) minus the
// penalties, clamped to 0..100 and rounded to one decimal.
func (n *norm) score(e *eval, minCost float64) float64 {
	w := n.w
	cost := 0.0
	if e.hasPrice && e.costKey > 0 && !math.IsInf(minCost, 1) {
		cost = minCost / e.costKey
	}
	sizing := 0.5
	if e.sizing >= 0 {
		sizing = e.sizing
	}
	gen := float64(e.in.year-GenerationBaseYear) / GenerationSpanYears
	gen = math.Max(0, math.Min(1, gen))
	s := w.Family*e.fit + w.Cost*cost + w.Sizing*sizing + w.Generation*gen + w.Scale/float64(e.nodes)
	if e.unusedRDMA {
		s -= PenaltyUnusedRDMA
	}
	if !e.nativePrec {
		if n.workload == WorkloadInference {
			s -= PenaltyPrecisionInference
		} else {
			s -= PenaltyPrecision
		}
	}
	if e.retiringSoon {
		s -= PenaltyRetiring
	}
	if e.in.sku.Lifecycle.Status == catalog.StatusPreview {
		s -= PenaltyPreview
	}
	if e.support == catalog.SupportUnknown {
		s -= PenaltyUnknownSupport
	}
	if e.in.nPriced == 0 {
		s -= PenaltyNoPrice
	}
	s -= PenaltyIdleGPUs * e.idleGPUShare
	return round1(math.Max(0, math.Min(100, s)))
}

// rejections counts each removed size under its first failed constraint.
func (n *norm) rejections(evals []eval) []Rejection {
	var counts [numConstraints]int64
	var examples [numConstraints][]string
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 {
			continue
		}
		c := e.firstFail()
		counts[c]++
		if examples[c] == nil {
			examples[c] = make([]string, 0, 3)
		}
		if len(examples[c]) < 3 {
			examples[c] = append(examples[c], e.in.sku.Name)
		}
	}
	var out []Rejection
	for c := constraint(0); c < numConstraints; c++ {
		if counts[c] > 0 {
			reason := n.rejectionReason(c)
			if c == cAvailability {
				reason += " Reason codes: " + restrictionCodes(evals) + "."
			}
			out = append(out, Rejection{Constraint: c.String(), Count: counts[c], Examples: examples[c], Reason: reason})
		}
	}
	return out
}

// restrictionCodes lists the availability file's reason codes of the sizes
// counted under the availability constraint, each with its sizes.
func restrictionCodes(evals []eval) string {
	byCode := map[string][]string{}
	var codes []string
	for i := range evals {
		e := &evals[i]
		if e.fails == 0 || e.firstFail() != cAvailability {
			continue
		}
		code := e.restriction
		if code == "" {
			code = "no reason code"
		}
		if _, ok := byCode[code]; !ok {
			codes = append(codes, code)
		}
		byCode[code] = append(byCode[code], e.in.sku.Name)
	}
	slices.Sort(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		names := byCode[c]
		if len(names) > 3 {
			names = append(names[:3:3], "and "+itoa(int64(len(byCode[c])-3))+" more")
		}
		parts[i] = c + " (" + strings.Join(names, ", ") + ")"
	}
	return strings.Join(parts, "; ")
}

func ptr[T any](v T) *T { return &v }

func (n *norm) recommendation(e *eval, rank int64, preferred bool) Recommendation {
	in, s := e.in, e.in.sku
	r := Recommendation{
		Rank:        rank,
		Score:       e.score,
		VMSize:      s.Name,
		SKU:         s,
		Nodes:       e.nodes,
		GPUsPerNode: in.gpuCount,
		TotalGPUs:   round2(in.gpuCount * float64(e.nodes)),
		Preferred:   preferred,
	}
	r.TotalGPUMemoryGiB = round2(in.gpuMem * float64(e.nodes))
	if e.hasPrice {
		r.PricePerHour = ptr(e.price)
		r.TotalPricePerHour = ptr(round4(e.total))
		if in.gpuCount > 0 {
			r.PricePerGPUHour = ptr(round4(e.price / in.gpuCount))
		}
		r.PriceIsSpot = e.spot
		r.PriceRegion = e.priceRegion
		r.PriceSource = n.priceSource(e)
	} else if n.region == "" {
		r.PriceSource = "No list price in the catalog for this size in any region."
	}
	if n.region != "" {
		r.PriceRegion = n.region // also when the size is offered there unpriced (availability file)
	}
	r.Reasons = n.reasons(e, preferred)
	r.Warnings = n.warnings(e)
	r.Deployment = n.deployment(e)
	return r
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

func (n *norm) priceSource(e *eval) string {
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
	if n.region != "" {
		return upperFirst(kind) + " in " + e.priceRegion + "."
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

func plural(k int64, one, many string) string {
	if k == 1 {
		return "1 " + one
	}
	return itoa(k) + " " + many
}

// reasons are plain sentences on why the size is ranked where it is. They
// are built by concatenation rather than fmt: this runs for every returned
// recommendation and dominates Recommend's cost otherwise.
func (n *norm) reasons(e *eval, preferred bool) []string {
	in, s := e.in, e.in.sku
	out := make([]string, 0, 9)
	if preferred {
		out = append(out, "Ranked first because it is the first size in prefer that meets every requirement.")
	}
	switch {
	case e.fallback:
		out = append(out, "The "+s.Family+" family is a fallback for "+n.workloadLabel()+": listed after the "+strings.Join(n.fit.preferred, ", ")+" sizes.")
	case e.fit == 1:
		out = append(out, "The "+s.Family+" family is preferred for "+n.workloadLabel()+".")
	default:
		out = append(out, "The "+s.Family+" family works for "+n.workloadLabel()+", with fewer points than "+strings.Join(n.fit.preferred, " and ")+".")
	}
	vms := plural(e.nodes, "VM", "VMs")
	switch {
	case n.gpuMemNeed > 0 && in.isGPU:
		out = append(out, "Holds the "+trimFloat(n.gpuMemNeed)+" GiB the job needs on "+vms+" ("+trimFloat(in.gpuMem*float64(e.nodes))+" GiB of GPU memory, "+percent(e.sizing)+" used).")
	case n.gpus > 0:
		out = append(out, "Provides "+trimFloat(in.gpuCount*float64(e.nodes))+" GPUs on "+vms+" for the "+itoa(n.gpus)+" the job needs.")
	case n.cores > 0:
		out = append(out, "Runs "+itoa(n.cores)+" cores on "+vms+" of "+itoa(in.vcpus)+" vCPUs ("+percent(e.sizing)+" used).")
	case n.sysMemNeed > 0:
		out = append(out, "Holds the "+trimFloat(n.sysMemNeed)+" GiB of system memory the job needs on "+vms+" ("+trimFloat(in.memGiB)+" GiB each).")
	}
	if n.sysMemNeed > 0 && in.isGPU {
		out = append(out, "Has "+trimFloat(in.memGiB)+" GiB of system memory per VM, at least 150% of its share of the weights (Azure Machine Learning guidance).")
	}
	switch {
	case e.ibNeeded && s.Network.RDMA:
		out = append(out, "InfiniBand "+s.Network.InfiniBand+" ("+itoa(s.Network.InfiniBandGbps)+" Gb/s per VM), which the job needs ("+n.ibWhy()+").")
	case !s.Network.RDMA && n.interconnect == InterconnectAuto:
		out = append(out, "No InfiniBand, which this job does not need: no unused bandwidth to pay for (Azure HPC guidance: InfiniBand only where it is used).")
	}
	if e.hasPrice {
		unit := "per hour"
		if e.spot {
			unit = "per hour at spot prices"
		}
		if e.nodes > 1 {
			out = append(out, "Costs "+money(e.total)+" USD "+unit+" for "+itoa(e.nodes)+" VMs ("+money(e.price)+" each, "+e.priceRegion+").")
		} else {
			out = append(out, "Costs "+money(e.price)+" USD "+unit+" ("+e.priceRegion+").")
		}
		if (n.workload == WorkloadHTC || n.workload == WorkloadHPC) && in.vcpus > 0 {
			out = append(out, strconv.FormatFloat(e.price/float64(in.vcpus), 'f', 4, 64)+" USD per vCPU-hour.")
		}
	}
	gen := s.Series
	if in.isGPU {
		gen = s.GPU.Model + ", " + s.Series
	}
	out = append(out, "Generation: "+gen+" (about "+itoa(int64(in.year))+").")
	if n.hasModel && in.isGPU && e.nativePrec {
		out = append(out, "The GPU supports "+n.precision+" natively.")
	}
	return out
}

func (n *norm) warnings(e *eval) []string {
	s := e.in.sku
	var out []string
	if e.retiringSoon {
		out = append(out, fmt.Sprintf("Retires on %s, within %d months. %s", s.Lifecycle.RetirementDate, catalog.RetirementWarningMonths, s.ReplacementSentence(n.asOf)))
	}
	if s.Lifecycle.Status == catalog.StatusPreview {
		out = append(out, "In preview: capacity, pricing and support may change before general availability.")
	}
	if e.support == catalog.SupportUnknown {
		out = append(out, fmt.Sprintf("Support on target %q is not documented; test before relying on it.", n.target))
	}
	if !e.nativePrec {
		out = append(out, fmt.Sprintf("The %s has no native %s support; the model runs emulated or converted, slower.", s.GPU.Model, n.precision))
	}
	if n.region != "" && !e.hasPrice && e.in.nPriced > 0 {
		out = append(out, "No price is known for this size in "+n.region+", where the availability file offers it; set the provider's prices_file to price it.")
	}
	if n.spot && !e.spot && e.hasPrice {
		out = append(out, "No spot price is known for this size; the price shown is on-demand.")
	}
	if e.in.nPriced == 0 {
		out = append(out, "The catalog has no price for this size in any region, which usually means it is not offered yet; check the Azure pricing calculator and regional availability.")
	}
	if e.in.isGPU && e.sizing >= 0 && e.sizing < LowUtilizationWarning && n.gpuMemNeed > 0 {
		out = append(out, "The job uses only "+percent(e.sizing)+" of this size's GPU memory: use larger batches or more model replicas, or a smaller size if one fits (Azure HPC guidance on job sizing).")
	}
	if e.unusedRDMA {
		out = append(out, "Has InfiniBand this job does not use; the bandwidth is paid for and idle.")
	}
	if e.idleGPUShare > 0 {
		out = append(out, "The job fits in one of its "+trimFloat(e.in.gpuCount)+" GPUs; the others would sit idle (Azure HPC guidance on job sizing).")
	}
	return out
}

// resultWarnings are the Terraform warning diagnostics: about the rank-1
// size, the catalog's age, spot for training, and prefer.
func (n *norm) resultWarnings(cat *catalog.Catalog, first, top, preferred *eval, evals []eval) []Warning {
	var out []Warning
	s := first.in.sku
	if first.retiringSoon {
		out = append(out, Warning{"Recommended Size Retires Soon",
			fmt.Sprintf("%s retires on %s, within %d months of %s. %s To keep running VMs on it until then, list it in prefer and lower min_lifetime_months, or pin the provider's as_of.",
				s.Name, s.Lifecycle.RetirementDate, catalog.RetirementWarningMonths, n.asOfText, s.ReplacementSentence(n.asOf))})
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
			fmt.Sprintf("No spot price is known for %s%s; its price is on-demand.", s.Name, n.priceWhere())})
	}
	// prefer: skipped names, and a clearly better size.
	if len(n.req.Prefer) > 0 {
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
				fmt.Sprintf("%s, named in prefer, fails %s: %s", e.in.sku.Name, e.firstFail(), n.rejectionReason(e.firstFail()))})
		}
		if preferred == nil {
			out = append(out, Warning{"No Preferred Size Fits",
				fmt.Sprintf("None of the sizes in prefer meets every requirement; %s is ranked first on score. If VMs already run a preferred size, Terraform will plan to replace them.", s.Name)})
		} else if preferred != top && top.score-preferred.score >= ClearlyBetterScoreMargin {
			out = append(out, Warning{"A Better Size Exists",
				fmt.Sprintf("%s scores %s against %s for the preferred %s. Put it first in prefer to switch (this replaces running VMs).",
					top.in.sku.Name, trimFloat(top.score), trimFloat(preferred.score), preferred.in.sku.Name)})
		}
	}
	return out
}
