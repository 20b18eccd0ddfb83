// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestDecodeDocumentRejectsUnknownFields(t *testing.T) {
	for _, tc := range []struct{ name, in, field string }{
		{"top level", `{"skus": [], "extra": 1}`, "extra"},
		{"in a size", `{"skus": [{"name": "Standard_X1", "vcpu": 4}]}`, "vcpu"},
		{"in a GPU share", `{"skus": [{"name": "Standard_X1", "gpu": {"count": "1", "modle": "t4"}}]}`, "modle"}, //nolint:misspell // The misspelt field is what the case tests.
		{"in InfiniBand", `{"skus": [{"network": {"infiniband": {"generation": "NDR", "speed": 400}}}]}`, "speed"},
		{"in the metadata", `{"catalog": {"version": "1", "date": "2026-11-01"}}`, "date"},
		{"in a decision", `{"decisions": [{"id": "D1", "why": "x"}]}`, "why"},
		{"in a series' support", `{"series": [{"name": "S", "support": {"slurm": {"status": "supported"}}}]}`, "slurm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeDocument(strings.NewReader(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if want := `unknown field "` + tc.field + `"`; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		})
	}
}

func TestDecodeDocumentRejectsWrongTypes(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"vcpus as string", `{"skus": [{"name": "Standard_X1", "vcpus": "eight"}]}`,
			`field "skus.vcpus": expected int64, got JSON string`},
		{"memory as bool", `{"skus": [{"memory_gib": true}]}`,
			`field "skus.memory_gib": expected float64, got JSON bool`},
		{"rdma as string", `{"skus": [{"network": {"rdma": "yes"}}]}`,
			`field "skus.network.rdma": expected bool, got JSON string`},
		{"GPU count as number", `{"skus": [{"gpu": {"count": 8}}]}`,
			`field "skus.gpu.count": expected string, got JSON number`},
		{"Hyper-V generations as string", `{"skus": [{"hyperv_generations": "1,2"}]}`,
			`field "skus.hyperv_generations": expected []string, got JSON string`},
		{"InfiniBand ports as float", `{"skus": [{"network": {"infiniband": {"ports": 1.5}}}]}`,
			`field "skus.network.infiniband.ports": expected int64, got JSON number`},
		{"version as number", `{"catalog": {"version": 3}}`,
			`field "catalog.version": expected string, got JSON number`},
		{"max CUDA major as string", `{"gpu_models": [{"id": "x", "max_cuda_major": "13"}]}`,
			`field "gpu_models.max_cuda_major": expected int64, got JSON string`},
		{"sizes as object", `{"skus": {"name": "Standard_X1"}}`,
			`field "skus": expected []catalog.SKUDoc, got JSON object`},
		{"document as array", `[]`,
			`expected catalog.Document, got JSON array`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeDocument(strings.NewReader(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestDecodeDocumentRejectsTrailingData(t *testing.T) {
	for _, in := range []string{
		`{} {}`,
		`{"skus": []}` + "\n" + `{"skus": []}`,
		`{}x`,
		`{} 1`,
		`{}}`,
		`{}]`,
		`{"skus": []}]`,
	} {
		_, err := DecodeDocument(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "unexpected data after the JSON document") {
			t.Errorf("DecodeDocument(%q) error = %v, want unexpected data after the JSON document", in, err)
		}
	}
	for _, in := range []string{`{}`, "{}\n", " {\"skus\": []}\r\n\t "} {
		if _, err := DecodeDocument(strings.NewReader(in)); err != nil {
			t.Errorf("DecodeDocument(%q): %v", in, err)
		}
	}
}

func TestDecodeDocumentSyntaxAndEmpty(t *testing.T) {
	_, err := DecodeDocument(strings.NewReader(`{"skus": [}`))
	if err == nil || !strings.Contains(err.Error(), "invalid JSON at byte offset 11: invalid character '}' looking for beginning of value") {
		t.Errorf("syntax error = %v, want the offset and the character", err)
	}
	if _, err := DecodeDocument(strings.NewReader("")); err == nil {
		t.Error("empty input decoded without error")
	}
}

// embeddedDocs decodes the embedded data files the way Default does.
func embeddedDocs(tb testing.TB) []Document {
	tb.Helper()
	var docs []Document
	for _, name := range embeddedDocuments {
		b, err := embedded.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		d, err := DecodeDocument(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, d)
	}
	return docs
}

func embeddedCSV(tb testing.TB, name string) *bytes.Reader {
	tb.Helper()
	b, err := embedded.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return bytes.NewReader(b)
}

func TestEmbeddedDocumentsDecode(t *testing.T) {
	// How many entries each file holds is in the golden summary.
	docs := embeddedDocs(t)
	if len(docs) != len(embeddedDocuments) {
		t.Fatalf("%d documents", len(docs))
	}
	if docs[0].Catalog == nil || len(docs[0].Decisions) == 0 {
		t.Errorf("catalog.json: metadata %v, %d decisions", docs[0].Catalog, len(docs[0].Decisions))
	}
	if len(docs[1].GPUModels) == 0 || len(docs[2].Images) == 0 || len(docs[3].Series) == 0 || len(docs[4].SKUs) == 0 {
		t.Errorf("gpu_models.json, images.json, series.json, skus.json: %d, %d, %d, %d entries",
			len(docs[1].GPUModels), len(docs[2].Images), len(docs[3].Series), len(docs[4].SKUs))
	}
	if len(docs[5].GPUPerformance) == 0 || len(docs[5].SeriesPerformance) == 0 || len(docs[6].Models) == 0 {
		t.Errorf("performance.json, models.json: %d GPU models, %d series, %d models",
			len(docs[5].GPUPerformance), len(docs[5].SeriesPerformance), len(docs[6].Models))
	}
}

// A small valid catalog: one GPU model, one series, one size.

// testSource is a source in the grammar (a titled, dated document).
const testSource = "Test fixture (2026-01-01)"

const testPricesHeader = "region,vm_size,usd_per_hour\n"
const testSpotHeader = "region,vm_size,usd_per_hour,spot_usd_per_hour\n"

func testDocs() []Document {
	sup := SupportEntryDoc{Status: SupportUnknown}
	return []Document{
		{
			Catalog: &MetaDoc{Version: "test-1", DataDate: "2026-11-01", PriceSnapshotDate: "2026-06-18"},
			Decisions: []DecisionDoc{
				{ID: "D1", Topic: "t", Decision: "d", Sources: []string{testSource}},
			},
		},
		{GPUModels: []GPUModelDoc{{
			ID: "g1", Name: "Test GPU", Vendor: VendorNVIDIA, Architecture: "Hopper",
			ComputeCapability: "9.0", MinCUDA: "11.8", MaxCUDAMajor: 13, MemoryGiB: 80, Sources: []string{testSource},
		}}},
		{Images: []ImageDoc{{ID: "img", URN: "p:o:s:latest", OS: "Linux", Arch: "x86_64", CUDAToolkit: "13.0", Source: testSource}}},
		{Series: []SeriesDoc{{
			Name: "NX_v1", Family: "NX", Category: CategoryGPU,
			Lifecycle: LifecycleDoc{Status: StatusGA, Sources: []string{testSource}},
			Support:   SupportDoc{AKS: SupportEntryDoc{Status: SupportSupported}, AzureML: sup, CycleCloud: sup, Batch: sup},
			Image:     "img",
			Sources:   []string{testSource},
		}}},
		{SKUs: []SKUDoc{testSKU("Standard_NX8_v1")}},
	}
}

func testSKU(name string) SKUDoc {
	return SKUDoc{
		Name: name, Series: "NX_v1", VCPUs: i64(8), MemoryGiB: f64(64), TempDiskGiB: i64(100), Arch: "x86_64",
		GPU:               &SKUGPUDoc{Count: "2", Model: "g1", MemoryGiB: f64(80), Interconnect: "PCIe"},
		Network:           NetworkDoc{EthernetMbps: i64(10000)},
		HyperVGenerations: []string{"2"},
		Sources:           []string{testSource},
	}
}

// lastSKU returns the size of the last document, for mutation.
func lastSKU(docs []Document) *SKUDoc { return &docs[len(docs)-1].SKUs[0] }

func TestBuildValidTestCatalog(t *testing.T) {
	c, err := Build(testDocs(), strings.NewReader(testPricesHeader+"eastus,Standard_NX8_v1,1.25\n"),
		strings.NewReader(testSpotHeader+"eastus,Standard_NX8_v1,1.25,0.3125\nwestus,Standard_NX8_v1,,\n"))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	s := mustLookup(t, c, "nx8_v1")
	if s.Family != "NX" || s.Category != CategoryGPU || s.GPU == nil || s.GPU.Count != 2 || s.GPU.MemoryGiBTotal != 160 ||
		s.GPU.ComputeCapability != "9.0" || s.Image == nil || s.Image.URN != "p:o:s:latest" || s.Support.AKS.Status != SupportSupported {
		t.Errorf("joined size = %+v, GPU %+v", s, s.GPU)
	}
	p := s.Prices["eastus"]
	if p.USDPerHour != 1.25 || p.SpotUSDPerHour == nil || *p.SpotUSDPerHour != 0.3125 || p.SnapshotDate != "2026-06-18" {
		t.Errorf("price = %+v, spot %s; want 1.25 and 1.25*0.3125/1.25 = 0.3125", p, show(p.SpotUSDPerHour))
	}
	if !equalStrings(c.Regions(), []string{"eastus"}) || c.Version != "test-1" {
		t.Errorf("regions %v, version %q", c.Regions(), c.Version)
	}
}

// TestBuildSecondFigures: the quota vCPUs, allotted memory, deployable flag
// and support override of a size record reach the joined size; a second
// figure equal to the first is dropped, and memory fit takes the smaller
// memory figure.
func TestBuildSecondFigures(t *testing.T) {
	docs := testDocs()
	a := testSKU("Standard_NX8-4_v1")
	a.VCPUs, a.QuotaVCPUs, a.MemoryGiBAllotted = i64(4), i64(8), f64(60)
	a.Deployable = new(bool)
	a.Support = &SupportOverrideDoc{AKS: &SupportEntryDoc{Status: SupportUnknown, Note: "not in the registry"}, Sources: []string{"Other fixture (2026-02-01)"}}
	b := testSKU("Standard_NX16_v1")
	b.VCPUs, b.QuotaVCPUs, b.MemoryGiB, b.MemoryGiBAllotted = i64(16), i64(16), f64(128), f64(128)
	c := testSKU("Standard_NX32_v1")
	c.VCPUs, c.MemoryGiB, c.MemoryGiBAllotted = i64(32), f64(250), f64(256)
	docs = append(docs, Document{SKUs: []SKUDoc{a, b, c}})
	cat, err := Build(docs, nil, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	s := mustLookup(t, cat, a.Name)
	if s.QuotaVCPUs == nil || *s.QuotaVCPUs != 8 || *s.QuotaVCPUCount() != 8 || *s.VCPUs != 4 {
		t.Errorf("%s: vcpus %s, quota %s", s.Name, show(s.VCPUs), show(s.QuotaVCPUs))
	}
	if s.MemoryGiBAllotted == nil || *s.FitMemoryGiB() != 60 || *s.MemoryGiB != 64 {
		t.Errorf("%s: memory %s, allotted %s, fit %s; want 64, 60, 60", s.Name, show(s.MemoryGiB), show(s.MemoryGiBAllotted), show(s.FitMemoryGiB()))
	}
	if s.Deployable {
		t.Errorf("%s: deployable, the record says false", s.Name)
	}
	if s.Support.AKS != (SupportEntry{Status: SupportUnknown, Note: "not in the registry"}) || s.Support.AzureML.Status != SupportUnknown ||
		!equalStrings(s.Support.Sources, []string{"Other fixture (2026-02-01)"}) {
		t.Errorf("%s: support %+v", s.Name, s.Support)
	}
	s = mustLookup(t, cat, b.Name)
	if s.QuotaVCPUs != nil || s.MemoryGiBAllotted != nil || *s.QuotaVCPUCount() != 16 || *s.FitMemoryGiB() != 128 || !s.Deployable {
		t.Errorf("%s: quota %s, allotted %s, deployable %t; equal second figures are dropped", s.Name, show(s.QuotaVCPUs), show(s.MemoryGiBAllotted), s.Deployable)
	}
	if s.Support.AKS.Status != SupportSupported {
		t.Errorf("%s: AKS %q, the series says supported", s.Name, s.Support.AKS.Status)
	}
	// A larger allotted figure does not raise the memory used for fit.
	if s = mustLookup(t, cat, c.Name); *s.FitMemoryGiB() != 250 || *s.MemoryGiBAllotted != 256 {
		t.Errorf("%s: fit %s, allotted %s; want 250 and 256", s.Name, show(s.FitMemoryGiB()), show(s.MemoryGiBAllotted))
	}
	// Unknown memory: the allotted figure stands alone; neither: nil.
	s = &SKU{MemoryGiBAllotted: f64(12)}
	if *s.FitMemoryGiB() != 12 || (&SKU{}).FitMemoryGiB() != nil || (&SKU{}).QuotaVCPUCount() != nil {
		t.Error("FitMemoryGiB or QuotaVCPUCount with missing figures")
	}
}

// buildRejectCase is a mistake in the test documents, prices or spot prices
// Build must reject: mutate changes the good documents (nil keeps them),
// prices replaces the good prices ("" keeps them), spot adds spot prices,
// and every string of want must be in the error.
type buildRejectCase struct {
	name         string
	mutate       func(docs []Document) []Document
	prices, spot string
	want         []string
}

// buildRejectCases are the mistakes TestBuildRejects feeds Build.
var buildRejectCases = []buildRejectCase{
	{
		name:   "a size with an undefined series",
		mutate: func(d []Document) []Document { lastSKU(d).Series = "Nope"; return d },
		want:   []string{`size Standard_NX8_v1: series "Nope" is not defined`},
	},
	{
		name:   "a size with an undefined GPU model",
		mutate: func(d []Document) []Document { lastSKU(d).GPU.Model = "h999"; return d },
		want:   []string{`size Standard_NX8_v1: GPU model "h999" is not defined`},
	},
	{
		name:   "on request without the API lists checked",
		mutate: func(d []Document) []Document { lastSKU(d).OnRequest = true; return d },
		want:   []string{"size Standard_NX8_v1: on_request needs on_request_sources"},
	},
	{
		name: "API lists without on request",
		mutate: func(d []Document) []Document {
			lastSKU(d).OnRequestSources = []string{"https://example.org/skus"}
			return d
		},
		want: []string{"size Standard_NX8_v1: on_request_sources without on_request = true"},
	},
	{
		name:   "RDMA without InfiniBand",
		mutate: func(d []Document) []Document { lastSKU(d).Network.RDMA = true; return d },
		want:   []string{"size Standard_NX8_v1: RDMA sizes need an InfiniBand generation"},
	},
	{
		name: "InfiniBand without RDMA",
		mutate: func(d []Document) []Document {
			lastSKU(d).Network.InfiniBand = &InfiniBandDoc{Generation: "NDR", GbpsPerPort: 400, Ports: 1, Text: "NDR"}
			return d
		},
		want: []string{"size Standard_NX8_v1: InfiniBand NDR is set but rdma is false"},
	},
	{
		name: "an unknown InfiniBand generation",
		mutate: func(d []Document) []Document {
			lastSKU(d).Network.RDMA = true
			lastSKU(d).Network.InfiniBand = &InfiniBandDoc{Generation: "QDR", GbpsPerPort: 40, Ports: 1}
			return d
		},
		want: []string{`InfiniBand generation "QDR" is not one of FDR, EDR, HDR, NDR, XDR`},
	},
	{
		name: "a retired size whose date is after the data date",
		mutate: func(d []Document) []Document {
			lastSKU(d).Lifecycle = &LifecycleDoc{Status: StatusRetired, RetirementDate: "2026-12-01", ReplacementSizes: []string{"Standard_NX16_v1"}}
			return d
		},
		want: []string{"size Standard_NX8_v1: retired, but its retirement date 2026-12-01 is not before the data date"},
	},
	{
		name: "a retired size whose date is the data date",
		mutate: func(d []Document) []Document {
			lastSKU(d).Lifecycle = &LifecycleDoc{Status: StatusRetired, RetirementDate: "2026-11-01", ReplacementSizes: []string{"Standard_NX16_v1"}}
			return d
		},
		want: []string{"retired, but its retirement date 2026-11-01 is not before the data date"},
	},
	{
		name: "a retired size without a date or replacement",
		mutate: func(d []Document) []Document {
			lastSKU(d).Lifecycle = &LifecycleDoc{Status: StatusRetired}
			return d
		},
		want: []string{"status retired needs a retirement date", "retired sizes need a replacement"},
	},
	{
		name: "a malformed retirement date",
		mutate: func(d []Document) []Document {
			lastSKU(d).Lifecycle = &LifecycleDoc{Status: StatusRetiring, RetirementDate: "2027-02-30"}
			return d
		},
		want: []string{`date "2027-02-30" is not YYYY-MM-DD`},
	},
	{
		name:   "quota vCPUs below the active vCPUs",
		mutate: func(d []Document) []Document { lastSKU(d).QuotaVCPUs = i64(4); return d },
		want:   []string{"size Standard_NX8_v1: quota_vcpus must be positive and at least vcpus"},
	},
	{
		name:   "allotted memory that is not positive",
		mutate: func(d []Document) []Document { lastSKU(d).MemoryGiBAllotted = f64(0); return d },
		want:   []string{"size Standard_NX8_v1: memory_gib_allotted must be positive"},
	},
	{
		name: "a size support override with an unknown status",
		mutate: func(d []Document) []Document {
			lastSKU(d).Support = &SupportOverrideDoc{AKS: &SupportEntryDoc{Status: "maybe"}}
			return d
		},
		want: []string{`size Standard_NX8_v1: support.aks: status "maybe" is not one of supported, unsupported, unknown`},
	},
	{
		name:   "an unknown lifecycle status",
		mutate: func(d []Document) []Document { lastSKU(d).Lifecycle = &LifecycleDoc{Status: "beta"}; return d },
		want:   []string{`lifecycle status "beta" is not one of ga, preview, retiring, retired`},
	},
	{
		name: "duplicate decision IDs",
		mutate: func(d []Document) []Document {
			return append(d, Document{Decisions: []DecisionDoc{{ID: "D1", Topic: "again", Decision: "x", Sources: []string{testSource}}}})
		},
		want: []string{"decision D1: defined twice"},
	},
	{
		name: "a decision without sources",
		mutate: func(d []Document) []Document {
			return append(d, Document{Decisions: []DecisionDoc{{ID: "D2", Topic: "t", Decision: "x"}}})
		},
		want: []string{"decision D2: no sources"},
	},
	{
		name:   "a link to an undefined decision",
		mutate: func(d []Document) []Document { lastSKU(d).Decisions = []string{"D99"}; return d },
		want:   []string{`size Standard_NX8_v1: decision "D99" is not defined`},
	},
	{
		name:   "a negative price",
		prices: testPricesHeader + "eastus,Standard_NX8_v1,-1.5\n",
		want:   []string{"size Standard_NX8_v1: price in eastus must be positive"},
	},
	{
		name:   "a zero price",
		prices: testPricesHeader + "westus,Standard_NX8_v1,0\n",
		want:   []string{"size Standard_NX8_v1: price in westus must be positive"},
	},
	{
		name:   "a price that is not a number",
		prices: testPricesHeader + "eastus,Standard_NX8_v1,abc\n",
		want:   []string{`prices.csv line 2: usd_per_hour "abc" is not a number`},
	},
	{
		name:   "a price for a size not in the catalog",
		prices: testPricesHeader + "eastus,Standard_NX8_v1,1\neastus,Standard_Nope,1\n",
		want:   []string{`prices.csv line 3: size "Standard_Nope" is not in the catalog`},
	},
	{
		name:   "a size priced twice in a region",
		prices: testPricesHeader + "eastus,Standard_NX8_v1,1\neastus,standard_nx8_v1,2\n",
		want:   []string{"prices.csv line 3: standard_nx8_v1 in eastus is priced twice"},
	},
	{
		name:   "a wrong prices header",
		prices: "region,size,price\neastus,Standard_NX8_v1,1\n",
		want:   []string{`prices.csv: the header must be "region,vm_size,usd_per_hour"`},
	},
	{
		name: "a negative spot price",
		spot: testSpotHeader + "eastus,Standard_NX8_v1,1.0,-0.1\n",
		want: []string{"spot_prices.csv: line 2: prices must be positive numbers"},
	},
	{
		name:   "a GPU count that is not a number",
		mutate: func(d []Document) []Document { lastSKU(d).GPU.Count = "two"; return d },
		want:   []string{`size Standard_NX8_v1: gpu.count: "two" is not a number or a fraction such as 1/4`},
	},
	{
		name:   "a GPU series size without a GPU",
		mutate: func(d []Document) []Document { lastSKU(d).GPU = nil; return d },
		want:   []string{`size Standard_NX8_v1: category "gpu" and GPU presence disagree`},
	},
	{
		name:   "a malformed data date",
		mutate: func(d []Document) []Document { d[0].Catalog.DataDate = "2026-13-01"; return d },
		want:   []string{`catalog: data_date "2026-13-01" is not a YYYY-MM-DD date`},
	},
	{
		name:   "no catalog metadata",
		mutate: func(d []Document) []Document { d[0].Catalog = nil; return d },
		want:   []string{"catalog: version and data_date are required"},
	},
	{
		name:   "an NVIDIA model without compute capability",
		mutate: func(d []Document) []Document { d[1].GPUModels[0].ComputeCapability = ""; return d },
		want:   []string{"GPU model g1: NVIDIA models need compute_capability, min_cuda and max_cuda_major"},
	},
	{
		name: "an AMD model without gfx target",
		mutate: func(d []Document) []Document {
			d[1].GPUModels[0].Vendor = VendorAMD
			d[1].GPUModels[0].GfxTarget = ""
			return d
		},
		want: []string{"GPU model g1: AMD models need gfx_target"},
	},
	{
		name:   "a GPU model of an unknown vendor",
		mutate: func(d []Document) []Document { d[1].GPUModels[0].Vendor = "intel"; return d },
		want:   []string{`GPU model g1: vendor "intel" is not one of amd, nvidia`},
	},
	{
		name:   "a series with an undefined image",
		mutate: func(d []Document) []Document { d[3].Series[0].Image = "nope"; return d },
		want:   []string{`image "nope" of series NX_v1 is not defined`},
	},
	{
		name:   "an image URN without four parts",
		mutate: func(d []Document) []Document { d[2].Images[0].URN = "p:o:s"; return d },
		want:   []string{`image "img" of series NX_v1: urn "p:o:s" is not publisher:offer:sku:version`},
	},
	{
		name: "a Batch node agent without a URN",
		mutate: func(d []Document) []Document {
			d[2].Images[0].URN, d[2].Images[0].BatchNodeAgentSKUID = "", "batch.node.ubuntu 24.04"
			return d
		},
		want: []string{`image "img" of series NX_v1: a Batch node agent needs the image's urn`},
	},
	{
		name:   "an arm64 image on an x86_64 size",
		mutate: func(d []Document) []Document { d[2].Images[0].Arch = "arm64"; return d },
		want:   []string{`image "img" of series NX_v1: the image is arm64, the size x86_64`},
	},
	{
		name:   "a series with an unknown support status",
		mutate: func(d []Document) []Document { d[3].Series[0].Support.Batch.Status = "maybe"; return d },
		want:   []string{`series NX_v1: support status "maybe" is not one of supported, unsupported, unknown`},
	},
	{
		name:   "a series without sources",
		mutate: func(d []Document) []Document { d[3].Series[0].Sources = nil; return d },
		want:   []string{"series NX_v1: no sources"},
	},
	{
		name:   "a size without sources",
		mutate: func(d []Document) []Document { lastSKU(d).Sources = nil; return d },
		want:   []string{"size Standard_NX8_v1: no sources"},
	},
	{
		name:   "a size name without the Standard_ prefix",
		mutate: func(d []Document) []Document { lastSKU(d).Name = "NX8_v1"; return d },
		prices: testPricesHeader,
		want:   []string{"size NX8_v1: the name must look like Standard_<size>"},
	},
	{
		name:   "a Hyper-V generation 3",
		mutate: func(d []Document) []Document { lastSKU(d).HyperVGenerations = []string{"3"}; return d },
		want:   []string{`Hyper-V generation "3" must be 1 or 2`},
	},
	{
		name:   "an unknown architecture",
		mutate: func(d []Document) []Document { lastSKU(d).Arch = "riscv64"; return d },
		want:   []string{`arch "riscv64" must be x86_64 or arm64`},
	},
	{
		name:   "zero vCPUs",
		mutate: func(d []Document) []Document { lastSKU(d).VCPUs = i64(0); return d },
		want:   []string{"vcpus must be positive"},
	},
	{
		name: "several mistakes at once, all reported",
		mutate: func(d []Document) []Document {
			lastSKU(d).Network.RDMA = true
			d[1].GPUModels[0].MinCUDA = ""
			return append(d, Document{Decisions: []DecisionDoc{{ID: "D1", Sources: []string{testSource}}}})
		},
		want: []string{"RDMA sizes need an InfiniBand generation", "NVIDIA models need", "decision D1: defined twice"},
	},
}

func TestBuildRejects(t *testing.T) {
	goodPrices := testPricesHeader + "eastus,Standard_NX8_v1,1.25\n"
	for _, tc := range buildRejectCases {
		t.Run(tc.name, func(t *testing.T) {
			docs := testDocs()
			if tc.mutate != nil {
				docs = tc.mutate(docs)
			}
			prices := tc.prices
			if prices == "" {
				prices = goodPrices
			}
			var spot *strings.Reader
			if tc.spot != "" {
				spot = strings.NewReader(tc.spot)
			}
			var err error
			var c *Catalog
			if spot != nil {
				c, err = Build(docs, strings.NewReader(prices), spot)
			} else {
				c, err = Build(docs, strings.NewReader(prices), nil)
			}
			if err == nil {
				t.Fatalf("Build succeeded (%d sizes), want an error", len(c.SKUs()))
			}
			if c != nil {
				t.Error("Build returned a catalog with its error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// A later document replaces an earlier size with the same name, ignoring
// case; sizes are not merged field by field.
func TestBuildLaterDocumentReplacesSize(t *testing.T) {
	docs := testDocs()
	override := testSKU("Standard_nx8_V1")
	override.VCPUs = i64(16)
	override.MemoryGiB = f64(128)
	docs = append(docs, Document{SKUs: []SKUDoc{override}})
	c, err := Build(docs, strings.NewReader(testPricesHeader+"eastus,Standard_NX8_v1,1.25\n"), nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if len(c.SKUs()) != 1 {
		t.Fatalf("%d sizes, want 1: %v", len(c.SKUs()), skuNames(c.SKUs()))
	}
	s := mustLookup(t, c, "Standard_NX8_v1")
	if *s.VCPUs != 16 || *s.MemoryGiB != 128 || s.Name != "Standard_nx8_V1" {
		t.Errorf("size = %s with %d vCPUs, %v GiB; want the later document's Standard_nx8_V1, 16, 128", s.Name, *s.VCPUs, *s.MemoryGiB)
	}
	if p, ok := s.Prices["eastus"]; !ok || p.USDPerHour != 1.25 {
		t.Errorf("price not joined to the replaced size: %+v", s.Prices)
	}

	// A later GPU model with the same ID replaces the earlier one too.
	docs = append(testDocs(), Document{GPUModels: []GPUModelDoc{{
		ID: "g1", Name: "Corrected GPU", Vendor: VendorNVIDIA, Architecture: "Hopper",
		ComputeCapability: "9.0", MinCUDA: "12.0", MaxCUDAMajor: 13, MemoryGiB: 94, Sources: []string{testSource},
	}}})
	c, err = Build(docs, nil, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if g := mustLookup(t, c, "Standard_NX8_v1").GPU; g.Model != "Corrected GPU" || g.MinCUDA != "12.0" {
		t.Errorf("GPU model not replaced: %+v", g)
	}
}

// TestDataOnlyCorrection corrects one field of an embedded size with a
// user-supplied document (as JSON, decoded strictly) and checks that only
// that field changes and that the embedded catalog is left alone.
func TestDataOnlyCorrection(t *testing.T) {
	docs := embeddedDocs(t)
	var orig *SKUDoc
	for i := range docs[4].SKUs {
		if docs[4].SKUs[i].Name == "Standard_NC4as_T4_v3" {
			orig = &docs[4].SKUs[i]
		}
	}
	if orig == nil {
		t.Fatal("Standard_NC4as_T4_v3 not in skus.json")
	}
	fix := *orig
	fix.MaxDataDisks = i64(12)
	fix.Notes = "corrected by a user document"
	b, err := json.Marshal(Document{SKUs: []SKUDoc{fix}})
	if err != nil {
		t.Fatal(err)
	}
	user, err := DecodeDocument(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the format's own output does not decode strictly: %v", err)
	}
	c, err := Build(append(docs, user), embeddedCSV(t, "data/prices.csv"), embeddedCSV(t, "data/spot_prices.csv"))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if want := len(mustDefault(t).SKUs()); len(c.SKUs()) != want {
		t.Errorf("%d sizes after the correction, want %d", len(c.SKUs()), want)
	}
	got := mustLookup(t, c, "Standard_NC4as_T4_v3")
	if *got.MaxDataDisks != 12 || got.Notes != "corrected by a user document" {
		t.Errorf("correction not applied: max data disks %d, notes %q", *got.MaxDataDisks, got.Notes)
	}
	// Everything else is the reference's: 4 vCPUs, 28 GiB, 176 GiB temp,
	// one T4, 2 NICs, AKS supported; and the embedded prices, whichever a
	// refresh gave.
	if *got.VCPUs != 4 || *got.MemoryGiB != 28 || *got.TempDiskGiB != 176 || *got.MaxNICs != 2 ||
		got.GPU == nil || got.GPU.ModelID != "t4" || got.GPU.Count != 1 || got.Series != "NCasT4_v3" ||
		got.Support.AKS.Status != SupportSupported || len(got.Prices) == 0 ||
		!reflect.DeepEqual(got.Prices, mustLookup(t, mustDefault(t), "Standard_NC4as_T4_v3").Prices) {
		t.Errorf("other fields changed: %+v", got)
	}
	if def := mustLookup(t, mustDefault(t), "Standard_NC4as_T4_v3"); *def.MaxDataDisks != 8 || def == got {
		t.Errorf("the embedded catalog changed: max data disks %d", *def.MaxDataDisks)
	}
}

func TestDefaultDecodesOnce(t *testing.T) {
	first := mustDefault(t)
	for i := 0; i < 100; i++ {
		if c := mustDefault(t); c != first {
			t.Fatal("Default() returned a different catalog")
		}
	}
	var wg sync.WaitGroup
	got := make([]*Catalog, 32)
	errs := make([]error, 32)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				got[g], errs[g] = Default()
			}
		}(g)
	}
	wg.Wait()
	for g := range got {
		if errs[g] != nil || got[g] != first {
			t.Errorf("goroutine %d: catalog %p, error %v", g, got[g], errs[g])
		}
	}
	// The same pointer means one decode: decoding again gives another catalog.
	again, err := loadEmbedded()
	if err != nil || again == first || len(again.SKUs()) != len(first.SKUs()) {
		t.Errorf("a second decode: catalog %p (Default %p), error %v", again, first, err)
	}
}

// A series' NCCL environment comes with its sources and names only NCCL
// and UCX variables; its sizes carry it.
func TestSeriesNCCLEnv(t *testing.T) {
	build := func(env map[string]string, sources []string) (*Catalog, error) {
		docs := testDocs()
		sr := &docs[3].Series[0]
		sr.NCCLEnv, sr.NCCLEnvSources = env, sources
		return Build(docs, strings.NewReader(testPricesHeader), strings.NewReader(testSpotHeader))
	}
	c, err := build(map[string]string{"NCCL_TOPO_FILE": "/opt/microsoft/ndv5/topo.xml"}, []string{testSource})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Lookup("Standard_NX8_v1"); s.NCCLEnv["NCCL_TOPO_FILE"] != "/opt/microsoft/ndv5/topo.xml" {
		t.Errorf("size env %v", s.NCCLEnv)
	}
	for _, tc := range []struct {
		env     map[string]string
		sources []string
		want    string
	}{
		{map[string]string{"NCCL_DEBUG": "INFO"}, nil, "nccl_env and nccl_env_sources go together"},
		{map[string]string{"PATH": "/bin"}, []string{testSource}, `nccl_env key "PATH" is not an NCCL_ or UCX_ environment variable`},
	} {
		if _, err := build(tc.env, tc.sources); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("env %v: error %v, want %q", tc.env, err, tc.want)
		}
	}
}

// A series' stated MPI job size comes with its sources, is at least one VM
// and is the series' one span: not beside a placement record's.
func TestSeriesMaxMPIJobVMs(t *testing.T) {
	build := func(vms int, sources []string, placement *PlacementDoc) (*Catalog, error) {
		docs := testDocs()
		sr := &docs[3].Series[0]
		sr.MaxMPIJobVMs, sr.MaxMPIJobVMsSources, sr.Placement = vms, sources, placement
		return Build(docs, strings.NewReader(testPricesHeader), strings.NewReader(testSpotHeader))
	}
	c, err := build(300, []string{testSource}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Lookup("Standard_NX8_v1"); s.MaxJobVMs() != 300 {
		t.Errorf("size span %d, want the series' 300", s.MaxJobVMs())
	}
	racks := &PlacementDoc{RackVMs: 18, HighSpeedInterconnectPlacement: "Trunk", APIVersion: "2026-03-01", MaxJobVMs: 504, Sources: []string{testSource}}
	for _, tc := range []struct {
		vms       int
		sources   []string
		placement *PlacementDoc
		want      string
	}{
		{300, nil, nil, "max_mpi_job_vms and max_mpi_job_vms_sources go together"},
		{0, []string{testSource}, nil, "max_mpi_job_vms and max_mpi_job_vms_sources go together"},
		{-1, []string{testSource}, nil, "max_mpi_job_vms -1 must be at least 1 VM"},
		{300, []string{"a page"}, nil, `max_mpi_job_vms_sources[0] "a page" is not a source`},
		{300, []string{testSource}, racks, "max_mpi_job_vms and placement.max_job_vms both give the series' InfiniBand span"},
	} {
		if _, err := build(tc.vms, tc.sources, tc.placement); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("max_mpi_job_vms %d, sources %v: error %v, want %q", tc.vms, tc.sources, err, tc.want)
		}
	}
}
