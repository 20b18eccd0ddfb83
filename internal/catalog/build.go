// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

// This file joins the decoded documents into flat SKU values: documents are
// merged in order (a later entry with the same key replaces an earlier one),
// then each size is joined with its series, GPU model and image.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

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
	prices, spot, err := c.keepPriceFiles(prices, spot)
	if err != nil {
		return nil, err
	}
	images, skuDocs, errs := c.mergeDocuments(docs)
	decisionIDs, decisionErrs := c.decisionIDs()
	errs = append(errs, decisionErrs...)
	errs = append(errs, c.joinSizes(skuDocs, images, decisionIDs)...)
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
	errs = append(errs, c.joinKAITO(docs)...)
	errs = append(errs, c.validate()...)
	errs = append(errs, c.validateDataFacts()...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// keepPriceFiles reads the price and spot price files, where given, keeps
// their bytes on the catalog and returns readers over those bytes.
func (c *Catalog) keepPriceFiles(prices, spot io.Reader) (io.Reader, io.Reader, error) {
	if prices != nil {
		b, err := io.ReadAll(prices)
		if err != nil {
			return nil, nil, fmt.Errorf("prices.csv: %w", err)
		}
		c.priceCSV, prices = b, bytes.NewReader(b)
	}
	if spot != nil {
		b, err := io.ReadAll(spot)
		if err != nil {
			return nil, nil, fmt.Errorf("spot_prices.csv: %w", err)
		}
		c.spotCSV, spot = b, bytes.NewReader(b)
	}
	return prices, spot, nil
}

// mergeDocuments merges the documents in order into the catalog's metadata,
// decisions, GPU models and series, and returns the merged images and size
// entries (sizes keep the position of their first entry, compared
// case-insensitively) with any metadata errors.
func (c *Catalog) mergeDocuments(docs []Document) (map[string]ImageDoc, []SKUDoc, []error) {
	var errs []error
	images := map[string]ImageDoc{}
	var skuDocs []SKUDoc
	skuIndex := map[string]int{}
	for _, d := range docs {
		if d.Catalog != nil {
			if err := c.setMeta(d.Catalog); err != nil {
				errs = append(errs, err)
			}
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
	return images, skuDocs, errs
}

// setMeta copies a document's catalog metadata onto the catalog. A data
// date that does not parse leaves DataDate zero and is reported.
func (c *Catalog) setMeta(m *MetaDoc) error {
	c.Version, c.PriceSnapshotDate, c.PriceSource = m.Version, m.PriceSnapshotDate, m.PriceSource
	c.SpotSource, c.SpotCaveat, c.Sources = m.SpotSource, m.SpotCaveat, m.Sources
	t, err := time.Parse(DateLayout, m.DataDate)
	c.DataDate = t
	if err != nil {
		return fmt.Errorf("catalog: data_date %q is not a YYYY-MM-DD date", m.DataDate)
	}
	return nil
}

// decisionIDs collects the ids of the merged decisions, reporting an id
// defined twice and a decision without sources.
func (c *Catalog) decisionIDs() (map[string]bool, []error) {
	var errs []error
	ids := map[string]bool{}
	for _, d := range c.Decisions {
		if ids[d.ID] {
			errs = append(errs, fmt.Errorf("decision %s: defined twice", d.ID))
		}
		ids[d.ID] = true
		if len(d.Sources) == 0 {
			errs = append(errs, fmt.Errorf("decision %s: no sources", d.ID))
		}
	}
	return ids, errs
}

// joinSizes joins every merged size entry, indexes the sizes that join and
// orders them by name; an entry that does not join is reported with its
// name.
func (c *Catalog) joinSizes(skuDocs []SKUDoc, images map[string]ImageDoc, decisions map[string]bool) []error {
	var errs []error
	for _, sd := range skuDocs {
		s, err := c.join(sd, images, decisions)
		if err != nil {
			errs = append(errs, fmt.Errorf("size %s: %w", sd.Name, err))
			continue
		}
		c.byName[strings.ToLower(s.Name)] = s
		c.skus = append(c.skus, s)
	}
	sort.Slice(c.skus, func(i, j int) bool { return c.skus[i].Name < c.skus[j].Name })
	return errs
}

// join joins one size with its series, GPU model and image: the steps run in
// a fixed order, and the first one that fails decides the error.
func (c *Catalog) join(d SKUDoc, images map[string]ImageDoc, decisions map[string]bool) (*SKU, error) {
	sr, ok := c.series[d.Series]
	if !ok {
		return nil, fmt.Errorf("series %q is not defined", d.Series)
	}
	if err := checkOnRequest(d); err != nil {
		return nil, err
	}
	s := newSKU(d, sr)
	s.Decisions = dedupe(append(append([]string{}, sr.Decisions...), d.Decisions...))
	if err := checkDecisions(s.Decisions, decisions); err != nil {
		return nil, err
	}
	s.Network = joinNetwork(d.Network)
	if d.GPU != nil {
		gpu, err := c.joinGPU(d.GPU)
		if err != nil {
			return nil, err
		}
		s.GPU = gpu
	}
	s.Lifecycle = joinLifecycle(sr.Lifecycle, d.Lifecycle)
	support, err := joinSupport(sr.Support, d.Support)
	if err != nil {
		return nil, err
	}
	s.Support = support
	if sr.Image != "" {
		im, err := joinImage(sr, images, s.Arch)
		if err != nil {
			return nil, err
		}
		s.Image = im
	}
	if p := sr.Placement; p != nil {
		s.Placement = &Placement{RackVMs: int64(p.RackVMs), SinglePlacementGroup: p.SinglePlacementGroup,
			HighSpeedInterconnectPlacement: p.HighSpeedInterconnectPlacement, APIVersion: p.APIVersion, MaxJobVMs: int64(p.MaxJobVMs), Sources: p.Sources, Notes: p.Notes}
	}
	return s, nil
}

// checkOnRequest checks that an on-request size names the API lists that
// do not name it, each a source, and that only such a size names them.
func checkOnRequest(d SKUDoc) error {
	switch {
	case d.OnRequest && len(d.OnRequestSources) == 0:
		return errors.New("on_request needs on_request_sources: the dated Resource SKUs API lists that do not name the size")
	case !d.OnRequest && len(d.OnRequestSources) > 0:
		return errors.New("on_request_sources without on_request = true")
	}
	return checkSourceList("on_request_sources", d.OnRequestSources)
}

// newSKU copies a size's own figures and its series' shared ones into a new
// SKU; the second figures are kept only where they differ from the first.
func newSKU(d SKUDoc, sr SeriesDoc) *SKU {
	s := &SKU{
		Name: d.Name, Series: d.Series, Family: sr.Family, Category: sr.Category, SeriesYear: sr.YearAvailable,
		VCPUs: d.VCPUs, MemoryGiB: d.MemoryGiB, TempDiskGiB: d.TempDiskGiB, LocalNVMeGiB: d.LocalNVMeGiB,
		CPUModel: d.CPUModel, Arch: d.Arch,
		HyperVGenerations: d.HyperVGenerations, Confidential: d.Confidential, Isolated: d.Isolated,
		PremiumStorage: d.PremiumStorage, MaxDataDisks: d.MaxDataDisks, MaxNICs: d.MaxNICs,
		Deployable: d.Deployable == nil || *d.Deployable, NoSizePage: d.SizePage != nil && !*d.SizePage,
		OnRequest: d.OnRequest, OnRequestSources: d.OnRequestSources,
		Sources: d.Sources, Notes: d.Notes, Prices: map[string]Price{},
	}
	s.QuotaFamily = sr.QuotaFamily
	s.NoNodeAutoProvisioning = sr.NoNodeAutoProvisioning
	s.NCCLEnv = sr.NCCLEnv
	s.MaxMPIJobVMs = int64(sr.MaxMPIJobVMs)
	if d.QuotaFamily != "" {
		s.QuotaFamily = d.QuotaFamily
	}
	if d.QuotaVCPUs != nil && (d.VCPUs == nil || *d.QuotaVCPUs != *d.VCPUs) {
		s.QuotaVCPUs = d.QuotaVCPUs
	}
	if d.MemoryGiBAllotted != nil && (d.MemoryGiB == nil || *d.MemoryGiBAllotted != *d.MemoryGiB) {
		s.MemoryGiBAllotted = d.MemoryGiBAllotted
	}
	return s
}

// joinNetwork flattens a size's networking, totalling its InfiniBand
// bandwidth over the ports.
func joinNetwork(d NetworkDoc) Network {
	n := Network{
		AcceleratedNetworking: d.AcceleratedNetworking,
		RDMA:                  d.RDMA,
		EthernetMbps:          d.EthernetMbps,
	}
	if ib := d.InfiniBand; ib != nil {
		n.InfiniBand = ib.Generation
		n.InfiniBandGbps = ib.GbpsPerPort * ib.Ports
		n.InfiniBandPorts = ib.Ports
		n.InfiniBandText = ib.Text
	}
	return n
}

// joinGPU joins a size's GPU share with its GPU model and parses the count.
func (c *Catalog) joinGPU(g *SKUGPUDoc) (*GPU, error) {
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
		gpu.MemoryGiBTotal = Round2(*g.MemoryGiB * math.Max(gpu.Count, 1))
	}
	return gpu, nil
}

// joinLifecycle starts from the series' lifecycle and replaces each field
// the size's override gives.
func joinLifecycle(series LifecycleDoc, o *LifecycleDoc) Lifecycle {
	lc := Lifecycle(series)
	if o == nil {
		return lc
	}
	if o.Status != "" {
		lc.Status = o.Status
	}
	if o.AnnouncedDate != "" {
		lc.AnnouncedDate = o.AnnouncedDate
	}
	if o.RetirementDate != "" {
		lc.RetirementDate = o.RetirementDate
	}
	if len(o.ReplacementSeries) > 0 {
		lc.ReplacementSeries = o.ReplacementSeries
	}
	if len(o.ReplacementSizes) > 0 {
		lc.ReplacementSizes = o.ReplacementSizes
	}
	if o.CapacityRestrictedDate != "" {
		lc.CapacityRestrictedDate = o.CapacityRestrictedDate
	}
	if o.Note != "" {
		lc.Note = o.Note
	}
	if len(o.Sources) > 0 {
		lc.Sources = o.Sources
	}
	return lc
}

// joinSupport starts from the series' support verdicts, replaces each one
// the size's override gives after checking its status, and adds the
// override's sources to the series' ones.
func joinSupport(series SupportDoc, o *SupportOverrideDoc) (Support, error) {
	sup := Support{
		AKS:        SupportEntry(series.AKS),
		AzureML:    SupportEntry(series.AzureML),
		CycleCloud: SupportEntry(series.CycleCloud),
		Batch:      SupportEntry(series.Batch),
		Sources:    series.Sources,
	}
	if o == nil {
		return sup, nil
	}
	for _, e := range []struct {
		field string
		from  *SupportEntryDoc
		to    *SupportEntry
	}{{"aks", o.AKS, &sup.AKS}, {"azureml", o.AzureML, &sup.AzureML}, {"cyclecloud", o.CycleCloud, &sup.CycleCloud}, {"batch", o.Batch, &sup.Batch}} {
		if e.from == nil {
			continue
		}
		if !slices.Contains(SupportStatuses(), e.from.Status) {
			return Support{}, fmt.Errorf("support.%s: status %q is not one of %s", e.field, e.from.Status, strings.Join(SupportStatuses(), ", "))
		}
		*e.to = SupportEntry(*e.from)
	}
	sup.Sources = dedupe(append(append([]string{}, series.Sources...), o.Sources...))
	return sup, nil
}

// joinImage finds the series' image and checks it suits a size of the
// given CPU architecture.
func joinImage(sr SeriesDoc, images map[string]ImageDoc, arch string) (*Image, error) {
	im, ok := images[sr.Image]
	if !ok {
		return nil, fmt.Errorf("image %q of series %s is not defined", sr.Image, sr.Name)
	}
	if err := checkImage(im, arch); err != nil {
		return nil, fmt.Errorf("image %q of series %s: %w", sr.Image, sr.Name, err)
	}
	urnSource := im.URNSource
	if urnSource == "" && im.URN != "" {
		urnSource = im.Source
	}
	return &Image{ID: im.ID, URN: im.URN, Arch: im.Arch, BatchNodeAgentSKUID: im.BatchNodeAgentSKUID, OS: im.OS, CUDAToolkit: im.CUDAToolkit, Driver: im.Driver, ROCm: im.ROCm, Source: im.Source, ConfidentialVM: im.ConfidentialVM, URNSource: urnSource, URNLocator: Locator(urnSource)}, nil
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

// checkImage rejects an image a deployment could not use as given: a URN
// that is not publisher:offer:sku:version, a Batch node agent without a
// URN, or an image built for another CPU architecture than the size's.
func checkImage(im ImageDoc, arch string) error {
	if im.URN != "" {
		parts := strings.Split(im.URN, ":")
		if len(parts) != 4 || slices.Contains(parts, "") {
			return fmt.Errorf("urn %q is not publisher:offer:sku:version", im.URN)
		}
	}
	if im.BatchNodeAgentSKUID != "" && im.URN == "" {
		return errors.New("a Batch node agent needs the image's urn")
	}
	if im.URNSource != "" && im.URN == "" {
		return errors.New("urn_source names where a urn is documented, and the image has none")
	}
	known := func(a string) bool { return a == "x86_64" || a == "arm64" } // others fail validation with their own error
	if known(arch) && known(im.Arch) && arch != im.Arch {
		return fmt.Errorf("the image is %s, the size %s", im.Arch, arch)
	}
	return nil
}
