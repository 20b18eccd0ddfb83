package catalog

import (
	"regexp"
	"sort"
	"strings"
	"time"
)

// SKUs returns every size, ordered by name. The slice is shared: do not modify it.
func (c *Catalog) SKUs() []*SKU { return c.skus }

// Lookup finds a size by name, ignoring case. The "Standard_" prefix may be
// left out.
func (c *Catalog) Lookup(name string) (*SKU, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	if s, ok := c.byName[key]; ok {
		return s, true
	}
	if !strings.HasPrefix(key, "standard_") {
		s, ok := c.byName["standard_"+key]
		return s, ok
	}
	return nil, false
}

// Regions lists every region that has at least one price, or that the
// availability file lists, sorted.
func (c *Catalog) Regions() []string { return c.regions }

// HasRegion reports whether the region is one of Regions.
// Region names are compared case-insensitively.
func (c *Catalog) HasRegion(region string) bool {
	region = strings.ToLower(region)
	i := sort.SearchStrings(c.regions, region)
	return i < len(c.regions) && c.regions[i] == region
}

// Families lists the distinct families, sorted.
func (c *Catalog) Families() []string {
	return c.distinct(func(s *SKU) []string { return []string{s.Family} })
}

// SeriesNames lists the distinct series, sorted.
func (c *Catalog) SeriesNames() []string {
	return c.distinct(func(s *SKU) []string { return []string{s.Series} })
}

// GPUModelIDs lists the GPU model identifiers used by sizes, sorted.
func (c *Catalog) GPUModelIDs() []string {
	return c.distinct(func(s *SKU) []string {
		if s.GPU == nil {
			return nil
		}
		return []string{s.GPU.ModelID}
	})
}

// GPUModel returns a GPU model by identifier.
func (c *Catalog) GPUModel(id string) (GPUModelDoc, bool) {
	g, ok := c.gpuModels[id]
	return g, ok
}

func (c *Catalog) distinct(f func(*SKU) []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.skus {
		for _, v := range f(s) {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}

// RetirementTime returns the retirement date, if one is announced.
func (s *SKU) RetirementTime() (time.Time, bool) {
	if s.Lifecycle.RetirementDate == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(DateLayout, s.Lifecycle.RetirementDate)
	return t, err == nil
}

// RetiredAt reports whether the size is retired on the given day: its status
// says so, or its announced retirement date has come.
func (s *SKU) RetiredAt(asOf time.Time) bool {
	if s.Lifecycle.Status == StatusRetired {
		return true
	}
	t, ok := s.RetirementTime()
	return ok && !truncateDay(asOf).Before(t)
}

// DaysUntilRetirement returns the whole days from asOf to the retirement date
// (negative once past), and false when no retirement is announced.
func (s *SKU) DaysUntilRetirement(asOf time.Time) (int64, bool) {
	t, ok := s.RetirementTime()
	if !ok {
		return 0, false
	}
	return int64(t.Sub(truncateDay(asOf)).Hours() / 24), true
}

// StatusAt is the lifecycle status on the given day: "retired" once the
// retirement date has come, the catalog's status otherwise.
func (s *SKU) StatusAt(asOf time.Time) string {
	if s.RetiredAt(asOf) {
		return StatusRetired
	}
	return s.Lifecycle.Status
}

func truncateDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Filter selects sizes. Zero values select everything; list filters match any
// of their entries, case-insensitively.
type Filter struct {
	Families        []string
	Series          []string
	Categories      []string
	GPUVendor       string
	GPUModels       []string // model identifiers or names
	RDMA            *bool
	MinGPUs         *float64
	MinGPUMemoryGiB *float64 // total GPU memory of the size
	Region          string   // only sizes available there (see SKU.AvailableIn)
	IncludeRetired  bool
	IncludePreview  bool
	NameRegex       *regexp.Regexp
	AsOf            time.Time
}

// Filter returns the sizes that pass every filter, ordered by name.
// A zero AsOf means the catalog's data date.
func (c *Catalog) Filter(f Filter) []*SKU {
	if f.AsOf.IsZero() {
		f.AsOf = c.DataDate
	}
	var out []*SKU
	for _, s := range c.skus {
		if f.Match(s) {
			out = append(out, s)
		}
	}
	return out
}

func anyFold(list []string, v ...string) bool {
	for _, x := range list {
		for _, y := range v {
			if strings.EqualFold(x, y) {
				return true
			}
		}
	}
	return false
}

// Match reports whether one size passes the filter.
func (f Filter) Match(s *SKU) bool {
	if len(f.Families) > 0 && !anyFold(f.Families, s.Family) {
		return false
	}
	if len(f.Series) > 0 && !anyFold(f.Series, s.Series) {
		return false
	}
	if len(f.Categories) > 0 && !anyFold(f.Categories, s.Category) {
		return false
	}
	if f.GPUVendor != "" && (s.GPU == nil || !strings.EqualFold(s.GPU.Vendor, f.GPUVendor)) {
		return false
	}
	if len(f.GPUModels) > 0 && (s.GPU == nil || !anyFold(f.GPUModels, s.GPU.ModelID, s.GPU.Model)) {
		return false
	}
	if f.RDMA != nil && s.Network.RDMA != *f.RDMA {
		return false
	}
	if f.MinGPUs != nil && (s.GPU == nil || s.GPU.Count < *f.MinGPUs) {
		return false
	}
	if f.MinGPUMemoryGiB != nil && (s.GPU == nil || s.GPU.MemoryGiBTotal < *f.MinGPUMemoryGiB) {
		return false
	}
	if f.Region != "" && !s.AvailableIn(f.Region) {
		return false
	}
	if !f.IncludeRetired && s.RetiredAt(f.AsOf) {
		return false
	}
	if !f.IncludePreview && s.Lifecycle.Status == StatusPreview {
		return false
	}
	if f.NameRegex != nil && !f.NameRegex.MatchString(s.Name) {
		return false
	}
	return true
}

// Suggest returns up to n size names closest to the given name, for "did you
// mean" messages. Names are compared case-insensitively with the "Standard_"
// prefix removed: names that contain the query come first (a fragment such
// as "h100" finds the H100 sizes), then the rest; within each group by edit
// distance, ties broken by name.
func (c *Catalog) Suggest(name string, n int) []string {
	q := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(name)), "standard_")
	type cand struct {
		name     string
		contains bool
		dist     int
	}
	cands := make([]cand, 0, len(c.skus))
	for _, s := range c.skus {
		k := strings.TrimPrefix(strings.ToLower(s.Name), "standard_")
		cands = append(cands, cand{s.Name, q != "" && strings.Contains(k, q), EditDistance(q, k)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].contains != cands[j].contains {
			return cands[i].contains
		}
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	out := []string{}
	for i := 0; i < len(cands) && i < n; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b in runes: the
// fewest insertions, deletions and substitutions that turn one into the
// other. Suggestions ("did you mean") rank candidates by it.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
