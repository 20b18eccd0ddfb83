package catalog

import (
	"bytes"
	"embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed data/*.json data/*.csv
var embedded embed.FS

// embeddedDocuments are decoded in this order; later files may refer to
// entries of earlier ones.
var embeddedDocuments = []string{
	"data/catalog.json",
	"data/gpu_models.json",
	"data/images.json",
	"data/series.json",
	"data/skus.json",
	"data/performance.json",
	"data/models.json",
}

// DateLayout is the layout of every date in the catalog.
const DateLayout = "2006-01-02"

// Catalog is a decoded, validated and joined catalog. It is immutable once
// built and safe for concurrent use.
type Catalog struct {
	Version           string
	DataDate          time.Time
	PriceSnapshotDate string
	PriceSource       string
	SpotSource        string
	SpotCaveat        string
	Sources           []string
	Decisions         []DecisionDoc

	skus      []*SKU
	byName    map[string]*SKU
	gpuModels map[string]GPUModelDoc
	series    map[string]SeriesDoc
	regions   []string

	// What the catalog was built from, so that a catalog file can be
	// merged over it (WithOverlays).
	docs              []Document
	priceCSV, spotCSV []byte
	availability      *Availability

	perf   perfTables // performance facts (perf.go)
	models modelTable // open models (models.go)
}

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
	defaultErr  error
	decodeCount int
	decodeMu    sync.Mutex
)

// Default returns the embedded catalog, decoded and validated once per process.
func Default() (*Catalog, error) {
	defaultOnce.Do(func() {
		decodeMu.Lock()
		decodeCount++
		decodeMu.Unlock()
		defaultCat, defaultErr = loadEmbedded()
	})
	return defaultCat, defaultErr
}

// DecodeCount reports how many times the embedded catalog has been decoded in
// this process. It exists so tests can prove the catalog is decoded once.
func DecodeCount() int {
	decodeMu.Lock()
	defer decodeMu.Unlock()
	return decodeCount
}

func loadEmbedded() (*Catalog, error) { return loadFS(embedded, "data/") }

// LoadDir loads a catalog from a directory laid out like the embedded data
// (catalog.json, gpu_models.json, images.json, series.json, skus.json,
// performance.json, models.json, prices.csv and spot_prices.csv), for tools
// that edit the data files.
func LoadDir(dir string) (*Catalog, error) { return loadFS(os.DirFS(dir), "") }

func loadFS(fsys fs.FS, prefix string) (*Catalog, error) {
	docs := make([]Document, 0, len(embeddedDocuments))
	for _, name := range embeddedDocuments {
		name = prefix + strings.TrimPrefix(name, "data/")
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		doc, err := DecodeDocument(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		docs = append(docs, doc)
	}
	prices, err := fs.ReadFile(fsys, prefix+"prices.csv")
	if err != nil {
		return nil, err
	}
	spot, err := fs.ReadFile(fsys, prefix+"spot_prices.csv")
	if err != nil {
		return nil, err
	}
	return Build(docs, bytes.NewReader(prices), bytes.NewReader(spot))
}

// DecodeDocument decodes one catalog document strictly: unknown fields,
// wrong types and trailing data are errors.
func DecodeDocument(r io.Reader) (Document, error) {
	var doc Document
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return Document{}, describeJSONError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Document{}, errors.New("unexpected data after the JSON document")
	}
	return doc, nil
}

func describeJSONError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return fmt.Errorf("field %q: expected %s, got JSON %s (byte offset %d)", typeErr.Field, typeErr.Type, typeErr.Value, typeErr.Offset)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("invalid JSON at byte offset %d: %s", syntaxErr.Offset, syntaxErr.Error())
	}
	return err
}

// Build merges documents (later entries with the same key replace earlier
// ones), joins sizes with their series, GPU models, images and prices, and
// validates the result.
func Build(docs []Document, prices, spot io.Reader) (*Catalog, error) {
	c := &Catalog{
		byName:    map[string]*SKU{},
		gpuModels: map[string]GPUModelDoc{},
		series:    map[string]SeriesDoc{},
		docs:      docs,
	}
	var errs []error
	if prices != nil {
		b, err := io.ReadAll(prices)
		if err != nil {
			return nil, fmt.Errorf("prices.csv: %w", err)
		}
		c.priceCSV, prices = b, bytes.NewReader(b)
	}
	if spot != nil {
		b, err := io.ReadAll(spot)
		if err != nil {
			return nil, fmt.Errorf("spot_prices.csv: %w", err)
		}
		c.spotCSV, spot = b, bytes.NewReader(b)
	}
	images := map[string]ImageDoc{}
	var skuDocs []SKUDoc
	skuIndex := map[string]int{}
	for _, d := range docs {
		if d.Catalog != nil {
			m := d.Catalog
			c.Version, c.PriceSnapshotDate, c.PriceSource = m.Version, m.PriceSnapshotDate, m.PriceSource
			c.SpotSource, c.SpotCaveat, c.Sources = m.SpotSource, m.SpotCaveat, m.Sources
			t, err := time.Parse(DateLayout, m.DataDate)
			if err != nil {
				errs = append(errs, fmt.Errorf("catalog: data_date %q is not a YYYY-MM-DD date", m.DataDate))
			}
			c.DataDate = t
		}
		c.Decisions = append(c.Decisions, d.Decisions...)
		for _, g := range d.GPUModels {
			c.gpuModels[g.ID] = g
		}
		for _, im := range d.Images {
			images[im.ID] = im
		}
		for _, s := range d.Series {
			c.series[s.Name] = s
		}
		for _, s := range d.SKUs {
			key := strings.ToLower(s.Name)
			if i, ok := skuIndex[key]; ok {
				skuDocs[i] = s
				continue
			}
			skuIndex[key] = len(skuDocs)
			skuDocs = append(skuDocs, s)
		}
	}
	decisionIDs := map[string]bool{}
	for _, d := range c.Decisions {
		if decisionIDs[d.ID] {
			errs = append(errs, fmt.Errorf("decision %s: defined twice", d.ID))
		}
		decisionIDs[d.ID] = true
		if len(d.Sources) == 0 {
			errs = append(errs, fmt.Errorf("decision %s: no sources", d.ID))
		}
	}
	for _, sd := range skuDocs {
		s, err := c.join(sd, images, decisionIDs)
		if err != nil {
			errs = append(errs, fmt.Errorf("size %s: %w", sd.Name, err))
			continue
		}
		c.byName[strings.ToLower(s.Name)] = s
		c.skus = append(c.skus, s)
	}
	sort.Slice(c.skus, func(i, j int) bool { return c.skus[i].Name < c.skus[j].Name })
	if prices != nil {
		if err := c.loadPrices(prices, spot); err != nil {
			errs = append(errs, err)
		}
	}
	for _, s := range c.skus {
		s.AvailabilitySource = c.AvailabilitySource()
	}
	errs = append(errs, c.joinPerformance(docs, decisionIDs)...)
	errs = append(errs, c.joinModels(docs, decisionIDs)...)
	errs = append(errs, c.validate()...)
	errs = append(errs, c.validateDataFacts()...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

func (c *Catalog) join(d SKUDoc, images map[string]ImageDoc, decisions map[string]bool) (*SKU, error) {
	sr, ok := c.series[d.Series]
	if !ok {
		return nil, fmt.Errorf("series %q is not defined", d.Series)
	}
	s := &SKU{
		Name: d.Name, Series: d.Series, Family: sr.Family, Category: sr.Category, SeriesYear: sr.YearAvailable,
		VCPUs: d.VCPUs, MemoryGiB: d.MemoryGiB, TempDiskGiB: d.TempDiskGiB, LocalNVMeGiB: d.LocalNVMeGiB,
		CPUModel: d.CPUModel, Arch: d.Arch,
		HyperVGenerations: d.HyperVGenerations, Confidential: d.Confidential, Isolated: d.Isolated,
		PremiumStorage: d.PremiumStorage, MaxDataDisks: d.MaxDataDisks, MaxNICs: d.MaxNICs,
		Sources: d.Sources, Notes: d.Notes, Prices: map[string]Price{},
	}
	s.Decisions = dedupe(append(append([]string{}, sr.Decisions...), d.Decisions...))
	for _, id := range s.Decisions {
		if !decisions[id] {
			return nil, fmt.Errorf("decision %q is not defined", id)
		}
	}
	s.Network = Network{
		AcceleratedNetworking: d.Network.AcceleratedNetworking,
		RDMA:                  d.Network.RDMA,
		EthernetMbps:          d.Network.EthernetMbps,
	}
	if ib := d.Network.InfiniBand; ib != nil {
		s.Network.InfiniBand = ib.Generation
		s.Network.InfiniBandGbps = ib.GbpsPerPort * ib.Ports
		s.Network.InfiniBandPorts = ib.Ports
		s.Network.InfiniBandText = ib.Text
	}
	if g := d.GPU; g != nil {
		m, ok := c.gpuModels[g.Model]
		if !ok {
			return nil, fmt.Errorf("GPU model %q is not defined", g.Model)
		}
		gpu := &GPU{
			CountText: g.Count, ModelID: m.ID, Model: m.Name, Vendor: m.Vendor, Architecture: m.Architecture, ArchitectureYear: c.architectureYear(m),
			Interconnect: g.Interconnect, ComputeCapability: m.ComputeCapability, GfxTarget: m.GfxTarget,
			MinCUDA: m.MinCUDA, MaxCUDAMajor: m.MaxCUDAMajor, MinROCm: m.MinROCm,
			Precisions: m.Precisions, Sources: m.Sources, Notes: m.Notes,
		}
		if g.Count != "" {
			n, err := ParseCount(g.Count)
			if err != nil {
				return nil, fmt.Errorf("gpu.count: %w", err)
			}
			gpu.Count = n
		}
		if g.MemoryGiB != nil {
			gpu.MemoryGiB = *g.MemoryGiB
			// A partial GPU's memory is its slice: the total is the slice times
			// the number of whole GPUs, or the slice itself.
			gpu.MemoryGiBTotal = round2(*g.MemoryGiB * math.Max(gpu.Count, 1))
		}
		s.GPU = gpu
	}
	lc := sr.Lifecycle
	s.Lifecycle = Lifecycle{
		Status: lc.Status, AnnouncedDate: lc.AnnouncedDate, RetirementDate: lc.RetirementDate,
		ReplacementSeries: lc.ReplacementSeries, ReplacementSizes: lc.ReplacementSizes,
		Note: lc.Note, Sources: lc.Sources,
	}
	if o := d.Lifecycle; o != nil {
		if o.Status != "" {
			s.Lifecycle.Status = o.Status
		}
		if o.AnnouncedDate != "" {
			s.Lifecycle.AnnouncedDate = o.AnnouncedDate
		}
		if o.RetirementDate != "" {
			s.Lifecycle.RetirementDate = o.RetirementDate
		}
		if len(o.ReplacementSeries) > 0 {
			s.Lifecycle.ReplacementSeries = o.ReplacementSeries
		}
		if len(o.ReplacementSizes) > 0 {
			s.Lifecycle.ReplacementSizes = o.ReplacementSizes
		}
		if o.Note != "" {
			s.Lifecycle.Note = o.Note
		}
		if len(o.Sources) > 0 {
			s.Lifecycle.Sources = o.Sources
		}
	}
	s.Support = Support{
		AKS:        SupportEntry(sr.Support.AKS),
		AzureML:    SupportEntry(sr.Support.AzureML),
		CycleCloud: SupportEntry(sr.Support.CycleCloud),
		Batch:      SupportEntry(sr.Support.Batch),
		Sources:    sr.Support.Sources,
	}
	if sr.Image != "" {
		im, ok := images[sr.Image]
		if !ok {
			return nil, fmt.Errorf("image %q of series %s is not defined", sr.Image, sr.Name)
		}
		s.Image = &Image{URN: im.URN, OS: im.OS, CUDAToolkit: im.CUDAToolkit, Driver: im.Driver, ROCm: im.ROCm, Source: im.Source}
	}
	return s, nil
}

// dedupe drops repeated entries, keeping the first occurrence's position.
func dedupe(list []string) []string {
	seen := make(map[string]bool, len(list))
	out := list[:0]
	for _, v := range list {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// ParseCount parses a GPU count such as "8", "0.5" or "1/4".
func ParseCount(s string) (float64, error) {
	if num, den, ok := strings.Cut(s, "/"); ok {
		n, err1 := strconv.ParseFloat(strings.TrimSpace(num), 64)
		d, err2 := strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err1 != nil || err2 != nil || d == 0 {
			return 0, fmt.Errorf("%q is not a number or a fraction such as 1/4", s)
		}
		return n / d, nil
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number or a fraction such as 1/4", s)
	}
	return n, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// loadPrices reads region,vm_size,usd_per_hour rows and, optionally, the
// older spot table (region,vm_size,usd_per_hour,spot_usd_per_hour), whose
// spot-to-on-demand ratio is applied to the current on-demand price.
func (c *Catalog) loadPrices(prices, spot io.Reader) error {
	rows, err := readCSV(prices, []string{"region", "vm_size", "usd_per_hour"})
	if err != nil {
		return fmt.Errorf("prices.csv: %w", err)
	}
	ratios := map[[2]string]float64{}
	if spot != nil {
		srows, err := readCSV(spot, []string{"region", "vm_size", "usd_per_hour", "spot_usd_per_hour"})
		if err != nil {
			return fmt.Errorf("spot_prices.csv: %w", err)
		}
		for i, r := range srows {
			if r[2] == "" && r[3] == "" {
				continue // listed without prices: no ratio to learn
			}
			od, err1 := strconv.ParseFloat(r[2], 64)
			sp, err2 := strconv.ParseFloat(r[3], 64)
			if err1 != nil || err2 != nil || od <= 0 || sp <= 0 {
				return fmt.Errorf("spot_prices.csv line %d: prices must be positive numbers", i+2)
			}
			ratios[[2]string{r[0], strings.ToLower(r[1])}] = sp / od
		}
	}
	regions := map[string]bool{}
	for i, r := range rows {
		s, ok := c.byName[strings.ToLower(r[1])]
		if !ok {
			return fmt.Errorf("prices.csv line %d: size %q is not in the catalog", i+2, r[1])
		}
		p, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			return fmt.Errorf("prices.csv line %d: usd_per_hour %q is not a number", i+2, r[2])
		}
		if _, dup := s.Prices[r[0]]; dup {
			return fmt.Errorf("prices.csv line %d: %s in %s is priced twice", i+2, r[1], r[0])
		}
		price := Price{Region: r[0], USDPerHour: p, SnapshotDate: c.PriceSnapshotDate, Source: "embedded snapshot of " + c.PriceSnapshotDate}
		if ratio, ok := ratios[[2]string{r[0], strings.ToLower(r[1])}]; ok {
			sp := math.Round(p*ratio*1e6) / 1e6
			price.SpotUSDPerHour = &sp
			price.SpotSource = "estimate: on-demand price times the spot ratio of " + c.SpotSource
		}
		s.Prices[r[0]] = price
		regions[r[0]] = true
	}
	for r := range regions {
		c.regions = append(c.regions, r)
	}
	sort.Strings(c.regions)
	return nil
}

func readCSV(r io.Reader, header []string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	all, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(all) == 0 || strings.Join(all[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("the header must be %q", strings.Join(header, ","))
	}
	return all[1:], nil
}

var sizeNameRE = regexp.MustCompile(`^Standard_[A-Za-z0-9_-]+$`)

func validDate(s string) bool {
	_, err := time.Parse(DateLayout, s)
	return err == nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// validate checks the invariants every catalog must hold.
func (c *Catalog) validate() []error {
	var errs []error
	add := func(name, format string, a ...any) {
		errs = append(errs, fmt.Errorf("size %s: %s", name, fmt.Sprintf(format, a...)))
	}
	if c.Version == "" || c.DataDate.IsZero() {
		errs = append(errs, errors.New("catalog: version and data_date are required"))
	}
	for _, g := range c.gpuModels {
		if !contains(Vendors, g.Vendor) {
			errs = append(errs, fmt.Errorf("GPU model %s: vendor %q is not one of %s", g.ID, g.Vendor, strings.Join(Vendors, ", ")))
		}
		if g.Vendor == VendorNVIDIA && (g.ComputeCapability == "" || g.MinCUDA == "" || g.MaxCUDAMajor == 0) {
			errs = append(errs, fmt.Errorf("GPU model %s: NVIDIA models need compute_capability, min_cuda and max_cuda_major", g.ID))
		}
		if g.Vendor == VendorAMD && g.GfxTarget == "" {
			errs = append(errs, fmt.Errorf("GPU model %s: AMD models need gfx_target", g.ID))
		}
		if len(g.Sources) == 0 {
			errs = append(errs, fmt.Errorf("GPU model %s: no sources", g.ID))
		}
	}
	for _, sr := range c.series {
		if !contains(Categories, sr.Category) {
			errs = append(errs, fmt.Errorf("series %s: category %q is not one of %s", sr.Name, sr.Category, strings.Join(Categories, ", ")))
		}
		for _, e := range []SupportEntryDoc{sr.Support.AKS, sr.Support.AzureML, sr.Support.CycleCloud, sr.Support.Batch} {
			if !contains(SupportStatuses, e.Status) {
				errs = append(errs, fmt.Errorf("series %s: support status %q is not one of %s", sr.Name, e.Status, strings.Join(SupportStatuses, ", ")))
			}
		}
		if len(sr.Sources) == 0 {
			errs = append(errs, fmt.Errorf("series %s: no sources", sr.Name))
		}
	}
	for _, s := range c.skus {
		if !sizeNameRE.MatchString(s.Name) {
			add(s.Name, "the name must look like Standard_<size>")
		}
		if len(s.Sources) == 0 {
			add(s.Name, "no sources")
		}
		if s.Arch != "x86_64" && s.Arch != "arm64" {
			add(s.Name, "arch %q must be x86_64 or arm64", s.Arch)
		}
		if s.VCPUs != nil && *s.VCPUs <= 0 {
			add(s.Name, "vcpus must be positive")
		}
		if s.MemoryGiB != nil && *s.MemoryGiB <= 0 {
			add(s.Name, "memory_gib must be positive")
		}
		if (s.Category == CategoryGPU) != (s.GPU != nil) {
			add(s.Name, "category %q and GPU presence disagree", s.Category)
		}
		if s.GPU != nil && s.VCPUs != nil && s.GPU.Count <= 0 {
			add(s.Name, "a GPU size with known specs needs a positive GPU count")
		}
		if s.Network.RDMA && s.Network.InfiniBand == "" {
			add(s.Name, "RDMA sizes need an InfiniBand generation")
		}
		if !s.Network.RDMA && s.Network.InfiniBand != "" {
			add(s.Name, "InfiniBand %s is set but rdma is false", s.Network.InfiniBand)
		}
		if s.Network.InfiniBand != "" && !contains([]string{"FDR", "EDR", "HDR", "NDR", "XDR"}, s.Network.InfiniBand) {
			add(s.Name, "InfiniBand generation %q is not one of FDR, EDR, HDR, NDR, XDR", s.Network.InfiniBand)
		}
		for _, g := range s.HyperVGenerations {
			if g != "1" && g != "2" {
				add(s.Name, "Hyper-V generation %q must be 1 or 2", g)
			}
		}
		lc := s.Lifecycle
		if !contains(Statuses, lc.Status) {
			add(s.Name, "lifecycle status %q is not one of %s", lc.Status, strings.Join(Statuses, ", "))
		}
		for _, d := range []string{lc.AnnouncedDate, lc.RetirementDate} {
			if d != "" && !validDate(d) {
				add(s.Name, "date %q is not YYYY-MM-DD", d)
			}
		}
		if (lc.Status == StatusRetired || lc.Status == StatusRetiring) && lc.RetirementDate == "" {
			add(s.Name, "status %s needs a retirement date", lc.Status)
		}
		if lc.Status == StatusRetired {
			if t, err := time.Parse(DateLayout, lc.RetirementDate); err == nil && !t.Before(c.DataDate) {
				add(s.Name, "retired, but its retirement date %s is not before the data date", lc.RetirementDate)
			}
			if len(lc.ReplacementSizes) == 0 && len(lc.ReplacementSeries) == 0 {
				add(s.Name, "retired sizes need a replacement")
			}
		}
		for region, p := range s.Prices {
			if !(p.USDPerHour > 0) {
				add(s.Name, "price in %s must be positive", region)
			}
			if p.SpotUSDPerHour != nil && !(*p.SpotUSDPerHour > 0) {
				add(s.Name, "spot price in %s must be positive", region)
			}
		}
	}
	return errs
}
