// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package azureexport

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile/userfiletest"
)

const availabilityFixture = "testdata/availability.json"

func mustLoadAvailability(t testing.TB) *Availability {
	t.Helper()
	a, err := LoadAvailability(availabilityFixture)
	if err != nil {
		t.Fatalf("LoadAvailability: %v", err)
	}
	return a
}

func TestLoadAvailabilityFixture(t *testing.T) {
	a := mustLoadAvailability(t)
	if a.Entries != 19 || len(a.Sizes) != 16 || a.Skipped != 0 {
		t.Errorf("%d entries, %d sizes, %d skipped; want 19, 16, 0", a.Entries, len(a.Sizes), a.Skipped)
	}
	if !slices.Equal(a.Regions, []string{"eastus", "eastus2", "westus2", "westus3"}) {
		t.Errorf("regions %v", a.Regions)
	}
	h100, ok := a.Lookup("standard_nd96isr_h100_v5")
	if !ok {
		t.Fatal("Standard_ND96isr_H100_v5 missing")
	}
	if h100.Family != "standardNDSH100v5Family" {
		t.Errorf("quota family %q", h100.Family)
	}
	// Restricted for the subscription in eastus (a Location restriction).
	east := h100.Regions["eastus"]
	if east == nil || !east.Restricted() || east.LocationRestriction().ReasonCode != catalog.ReasonNotAvailableForSubscription {
		t.Errorf("eastus: %+v", east)
	}
	if !slices.Equal(east.OfferedZones, []string{"1", "2", "3"}) {
		t.Errorf("eastus offered zones %v", east.OfferedZones)
	}
	// Zone 2 restricted in eastus2: still available, in zones 1 and 3.
	east2 := h100.Regions["eastus2"]
	if east2 == nil || east2.Restricted() || !slices.Equal(east2.Zones, []string{"1", "3"}) ||
		len(east2.Restrictions) != 1 || east2.Restrictions[0].Type != catalog.RestrictionZone || !slices.Equal(east2.Restrictions[0].Zones, []string{"2"}) {
		t.Errorf("eastus2: %+v", east2)
	}
	if w := h100.Regions["westus3"]; w == nil || w.Restricted() || !slices.Equal(w.Zones, []string{"1", "2", "3"}) {
		t.Errorf("westus3: %+v", w)
	}
	if got := h100.AvailableRegions(); !slices.Equal(got, []string{"eastus2", "westus3"}) {
		t.Errorf("available regions %v", got)
	}
	// QuotaId restriction.
	a100, _ := a.Lookup("Standard_ND96amsr_A100_v4")
	if r := a100.Regions["westus2"].LocationRestriction(); r == nil || r.ReasonCode != catalog.ReasonQuotaID {
		t.Errorf("westus2 A100: %+v", a100.Regions["westus2"])
	}
	// A location without zones.
	if nd40, _ := a.Lookup("Standard_ND40rs_v2"); nd40.Regions["eastus"].Zones == nil || len(nd40.Regions["eastus"].Zones) != 0 {
		t.Errorf("ND40rs_v2 zones %#v, want empty", nd40.Regions["eastus"].Zones)
	}
}

// TestAvailabilityQuirks reads the capabilities the way the reference's
// "Quirks of Azure's Resource SKUs API" describes them.
func TestAvailabilityQuirks(t *testing.T) {
	a := mustLoadAvailability(t)
	get := func(name string) AvailableSpecs {
		s, ok := a.Lookup(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		return s.Specs
	}
	// Constrained cores: vCPUs is the parent's count, vCPUsAvailable the real one.
	hb := get("Standard_HB120-32rs_v3")
	if hb.VCPUs == nil || *hb.VCPUs != 32 || hb.ParentVCPUs == nil || *hb.ParentVCPUs != 120 {
		t.Errorf("HB120-32rs_v3 vCPUs %s (parent %s), want 32 (120)", show(hb.VCPUs), show(hb.ParentVCPUs))
	}
	// MemoryGB is GiB.
	if hb.MemoryGiB == nil || *hb.MemoryGiB != 448 {
		t.Errorf("HB120-32rs_v3 memory %s", show(hb.MemoryGiB))
	}
	// MI300X and GB200 omit GPUs; fractional sizes report 1.
	if g := get("Standard_ND96isr_MI300X_v5").GPUs; g != nil {
		t.Errorf("MI300X GPUs %d, want not reported", *g)
	}
	if g := get("Standard_ND128isr_NDR_GB200_v6").GPUs; g != nil {
		t.Errorf("GB200 GPUs %d, want not reported", *g)
	}
	if g := get("Standard_NV6ads_A10_v5").GPUs; g == nil || *g != 1 {
		t.Errorf("NV6ads_A10_v5 GPUs %s, want 1 as the API reports it", show(g))
	}
	// RDMA true and false, accelerated networking, Hyper-V generations,
	// architecture, temporary disk, retirement date.
	h100 := get("Standard_ND96isr_H100_v5")
	if h100.RDMA == nil || !*h100.RDMA || h100.AcceleratedNetworking == nil || !*h100.AcceleratedNetworking || !slices.Equal(h100.HyperVGenerations, []string{"2"}) {
		t.Errorf("H100 specs %+v", h100)
	}
	nc := get("Standard_NC40ads_H100_v5")
	if nc.RDMA == nil || *nc.RDMA {
		t.Errorf("NC40ads_H100_v5 RDMA %s, want false", show(nc.RDMA))
	}
	if nv := get("Standard_NV6ads_A10_v5"); !slices.Equal(nv.HyperVGenerations, []string{"1", "2"}) || nv.TempDiskGiB == nil || *nv.TempDiskGiB != 180 {
		t.Errorf("NV6ads_A10_v5 specs %+v", nv)
	}
	if gb := get("Standard_ND128isr_NDR_GB200_v6"); gb.Arch != "arm64" {
		t.Errorf("GB200 arch %q", gb.Arch)
	}
	if nc6 := get("Standard_NC6"); nc6.RetirementDate != "2023-09-06" {
		t.Errorf("NC6 retirement %q", nc6.RetirementDate)
	}
	np, _ := a.Lookup("Standard_NP10s")
	if !np.InScope() {
		t.Error("Standard_NP10s (N family) is out of scope")
	}
	if d, _ := a.Lookup("Standard_D4s_v5"); d.InScope() {
		t.Error("Standard_D4s_v5 is in scope")
	}
	if got := np.Describe(); !strings.Contains(got, "10 vCPUs") || !strings.Contains(got, "168 GiB memory") || !strings.Contains(got, "quota family standardNPSFamily") {
		t.Errorf("Describe = %q", got)
	}
	if got, _ := a.Lookup("Standard_HB120-32rs_v3"); !strings.Contains(got.Describe(), "32 vCPUs (vCPUsAvailable; the parent size has 120)") {
		t.Errorf("Describe = %q", got.Describe())
	}
	if got, _ := a.Lookup("Standard_NV6ads_A10_v5"); !strings.Contains(got.Describe(), "1 GPU reported (the API also reports 1 for a fraction of a GPU)") {
		t.Errorf("Describe = %q", got.Describe())
	}
}

func TestParseAvailabilityForms(t *testing.T) {
	entry := `{"name": "Standard_ND96isr_H100_v5", "family": "standardNDSH100v5Family", "locations": ["EastUS"],
		"locationInfo": [{"location": "EastUS", "zones": ["3", "1"]}], "restrictions": [], "capabilities": [{"name": "vCPUs", "value": "96"}]}`
	for name, in := range map[string]string{
		"az list":           "[" + entry + "]",
		"REST API response": `{"value": [` + entry + `], "nextLink": null}`,
		"byte order mark":   "\xef\xbb\xbf[" + entry + "]",
		"other resource types": `[{"name": "Premium_LRS", "resourceType": "disks", "locations": ["eastus"]},
			{"name": "Aligned", "resourceType": "availabilitySets", "locations": ["eastus"], "capabilities": "ignored"}, ` + entry + `]`,
	} {
		t.Run(name, func(t *testing.T) {
			a, err := ParseAvailability("x.json", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			s, ok := a.Lookup("Standard_ND96isr_H100_v5")
			if !ok || !slices.Equal(s.Regions["eastus"].Zones, []string{"1", "3"}) || *s.Specs.VCPUs != 96 {
				t.Errorf("sizes %+v", a.Sizes)
			}
		})
	}
}

// fileErrorCase is a broken file and the parts its error must name.
type fileErrorCase struct{ name, in, entry, field, want string }

// show prints a value that may be missing.
func show[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func TestParseAvailabilityErrors(t *testing.T) {
	const ok = `{"name": "Standard_NC40ads_H100_v5", "locations": ["eastus"], "capabilities": [{"name": "vCPUs", "value": "40"}]}`
	for _, tc := range []fileErrorCase{
		{"empty", "  \n", "", "", "the file is empty"},
		{"not JSON", "name,location\n", "", "", "the file is not JSON"},
		{"syntax error in an entry", "[\n" + ok + ",\n" + `{"name": "Standard_X", "locations": ["eastus"],}` + "\n]", "entry 2", "",
			"invalid JSON at line 3, column 49: unexpected character '}' looking for beginning of object key string"},
		{"truncated", "[\n" + ok + ",\n" + `{"name": "Standard_X"`, "entry 2", "", "invalid JSON at line 3"},
		{"top level is a string", `"skus"`, "", "", "the file is not JSON"},
		{"top level is a number list", `[1]`, "entry 1", "", "expected an object describing one size, got a number"},
		{"locations as a string", "[" + ok + `, {"name": "Standard_ND96isr_H100_v5", "locations": "eastus"}]`,
			"entry 2 (Standard_ND96isr_H100_v5)", "locations", "expected a list of strings, got a string"},
		{"zones as numbers", `[{"name": "Standard_ND96isr_H100_v5", "locations": ["eastus"], "locationInfo": [{"location": "eastus", "zones": [1, 2]}]}]`,
			"entry 1 (Standard_ND96isr_H100_v5 in eastus)", "locationInfo.zones", "expected a string, got a number"},
		{"reason code as a number", `[{"name": "Standard_ND96isr_H100_v5", "locations": ["eastus"], "restrictions": [{"type": "Location", "reasonCode": 3}]}]`,
			"entry 1 (Standard_ND96isr_H100_v5 in eastus)", "restrictions.reasonCode", "expected a string, got a number"},
		{"name as a number", `[{"name": 7, "locations": ["eastus"]}]`, "entry 1", "name", "expected a string, got a number"},
		{"capability value as a number", `[{"name": "Standard_X1", "locations": ["eastus"], "capabilities": [{"name": "vCPUs", "value": 8}]}]`,
			"entry 1 (Standard_X1 in eastus)", "capabilities", "value: expected a string, got a number"},
		{"vCPUs not a number", `[{"name": "Standard_X1", "locations": ["eastus"], "capabilities": [{"name": "MemoryGB", "value": "8"}, {"name": "vCPUs", "value": "eight"}]}]`,
			"entry 1 (Standard_X1 in eastus)", "capabilities[1] (vCPUs).value", `"eight" is not a whole number`},
		{"RDMA not a boolean", `[{"name": "Standard_X1", "locations": ["eastus"], "capabilities": [{"name": "RdmaEnabled", "value": "yes"}]}]`,
			"entry 1 (Standard_X1 in eastus)", "capabilities[0] (RdmaEnabled).value", `"yes" is not True or False`},
		{"missing name", `[{"locations": ["eastus"]}]`, "entry 1", "name", "missing"},
		{"no location", `[{"name": "Standard_X1", "locations": []}]`, "entry 1 (Standard_X1)", "locations", "empty"},
		{"restriction without type", `[{"name": "Standard_X1", "locations": ["eastus"], "restrictions": [{"reasonCode": "QuotaId"}]}]`,
			"entry 1 (Standard_X1 in eastus)", "restrictions[0].type", "missing"},
		{"zone restriction without zones", `[{"name": "Standard_X1", "locations": ["eastus"], "restrictions": [{"type": "Zone", "values": ["eastus"]}]}]`,
			"entry 1 (Standard_X1 in eastus)", "restrictions[0].restrictionInfo.zones", "missing"},
		{"duplicate entry", "[" + ok + ", " + ok + "]", "entry 2 (Standard_NC40ads_H100_v5 in eastus)", "name",
			"duplicate: Standard_NC40ads_H100_v5 in eastus is already described by entry 1"},
		{"duplicate entry, other case", "[" + ok + ", " + strings.Replace(ok, `"eastus"`, `"EastUS"`, 1) + "]",
			"entry 2 (Standard_NC40ads_H100_v5 in EastUS)", "name", "already described by entry 1"},
		// A file that lists no size would remove every size: an export whose
		// filter matched nothing is an error, as an empty usage file is.
		{"empty list", "[]", "", "", "the file lists no virtual machine sizes: the export's filter matched nothing"},
		{"REST response with an empty list", `{"value": []}`, "", "", "the file lists no virtual machine sizes"},
		{"other resource types only", `[{"name": "Premium_LRS", "resourceType": "disks", "locations": ["eastus"]}]`, "", "",
			"the file lists no virtual machine sizes: only 1 entry of another resource type: export with --resource-type virtualMachines"},
		{"REST response without value", `{"nextLink": null}`, "", "value", "without a \"value\" list"},
		{"REST value not a list", `{"value": {"name": "x"}}`, "", "value", "expected a list of sizes"},
		{"REST wrong type inside value", `{"value": [{"name": "Standard_X1", "locations": "eastus"}]}`,
			"entry 1 (Standard_X1)", "locations", "expected a list of strings, got a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseAvailability("skus.json", []byte(tc.in))
			userfiletest.Check(t, err, "skus.json", tc.entry, tc.field, tc.want)
		})
	}
}

func TestLoadAvailabilityFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	_, err := LoadAvailability(missing)
	userfiletest.Check(t, err, missing, "", "", "the availability file does not exist")
	if fe := (*userfile.Error)(nil); !errors.As(err, &fe) || !fe.Unreadable {
		t.Errorf("missing file not marked unreadable: %v", err)
	}

	_, err = LoadAvailability(dir)
	userfiletest.Check(t, err, dir, "", "", "is a directory")

	// Over the limit: a sparse file of 64 MiB and one byte, refused before
	// anything is read.
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(userfile.DefaultLimits().AvailabilityFile + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = LoadAvailability(big)
	userfiletest.Check(t, err, big, "", "", "the availability file is 64.0 MiB, more than the 64 MiB limit. Export virtual machine sizes only")

	// A lowered limit.
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadAvailability(small, userfile.MaxBytes(1))
	userfiletest.Check(t, err, small, "", "", "the availability file is 2 bytes, more than the 1 bytes limit")
}

// TestAvailabilityFastAndSlowPathsAgree: the whole-list decode and the
// entry-at-a-time decode used to locate errors read the same entries.
func TestAvailabilityFastAndSlowPathsAgree(t *testing.T) {
	b, err := os.ReadFile(availabilityFixture)
	if err != nil {
		t.Fatal(err)
	}
	// Break the last entry's type: the message must name the last entry.
	i := bytes.LastIndex(b, []byte(`"locations": [`))
	broken := append(append(append([]byte{}, b[:i]...), []byte(`"locations": "eastus", "x": [`)...), b[i+len(`"locations": [`):]...)
	_, err = ParseAvailability("f.json", broken)
	userfiletest.Check(t, err, "f.json", "entry 19 (Standard_D4s_v5)", "locations", "expected a list of strings, got a string")
}

// generateAvailability writes an az vm list-skus --all style export of
// about size bytes: every size in every region, pretty-printed as az does,
// with the capabilities of a real entry.
func generateAvailability(tb testing.TB, size int) []byte {
	tb.Helper()
	var b bytes.Buffer
	b.WriteString("[\n")
	caps := []string{"MaxResourceVolumeMB", "OSVhdSizeMB", "vCPUs", "MemoryPreservingMaintenanceSupported", "HyperVGenerations",
		"MemoryGB", "MaxDataDiskCount", "CpuArchitectureType", "LowPriorityCapable", "PremiumIO", "VMDeploymentTypes",
		"vCPUsAvailable", "ACUs", "vCPUsPerCore", "CombinedTempDiskAndCachedIOPS", "CombinedTempDiskAndCachedReadBytesPerSecond",
		"CombinedTempDiskAndCachedWriteBytesPerSecond", "CachedDiskBytes", "UncachedDiskIOPS", "UncachedDiskBytesPerSecond",
		"EphemeralOSDiskSupported", "EncryptionAtHostSupported", "CapacityReservationSupported", "AcceleratedNetworkingEnabled",
		"RdmaEnabled", "MaxNetworkInterfaces"}
	regions := []string{"eastus", "eastus2", "westus", "westus2", "westus3", "centralus", "northeurope", "westeurope", "uksouth",
		"swedencentral", "japaneast", "australiaeast", "southeastasia", "canadacentral", "francecentral", "germanywestcentral"}
	for n := 0; b.Len() < size; n++ {
		region := regions[n%len(regions)]
		name := fmt.Sprintf("Standard_D%d_v%d", n/len(regions), 5+n%3)
		if n > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  {\n    \"apiVersions\": null,\n    \"capabilities\": [\n")
		for i, c := range caps {
			if i > 0 {
				b.WriteString(",\n")
			}
			v := "16"
			switch c {
			case "HyperVGenerations":
				v = "V1,V2"
			case "RdmaEnabled", "LowPriorityCapable":
				v = "False"
			case "PremiumIO", "EphemeralOSDiskSupported", "EncryptionAtHostSupported", "AcceleratedNetworkingEnabled":
				v = "True"
			case "CpuArchitectureType":
				v = "x64"
			}
			fmt.Fprintf(&b, "      {\n        \"name\": %q,\n        \"value\": %q\n      }", c, v)
		}
		fmt.Fprintf(&b, "\n    ],\n    \"capacity\": null,\n    \"costs\": null,\n    \"family\": \"standardDSv5Family\",\n    \"kind\": null,\n"+
			"    \"locationInfo\": [\n      {\n        \"extendedLocations\": null,\n        \"location\": %q,\n        \"type\": null,\n"+
			"        \"zoneDetails\": [],\n        \"zones\": [\n          \"1\",\n          \"2\",\n          \"3\"\n        ]\n      }\n    ],\n"+
			"    \"locations\": [\n      %q\n    ],\n    \"name\": %q,\n    \"resourceType\": \"virtualMachines\",\n", region, region, name)
		if n%7 == 0 {
			fmt.Fprintf(&b, "    \"restrictions\": [\n      {\n        \"reasonCode\": \"NotAvailableForSubscription\",\n        \"restrictionInfo\": {\n"+
				"          \"locations\": [\n            %q\n          ],\n          \"zones\": [\n            \"2\"\n          ]\n        },\n"+
				"        \"type\": \"Zone\",\n        \"values\": [\n          %q\n        ]\n      }\n    ],\n", region, region)
		} else {
			b.WriteString("    \"restrictions\": [],\n")
		}
		fmt.Fprintf(&b, "    \"size\": %q,\n    \"tier\": \"Standard\"\n  }", strings.TrimPrefix(name, "Standard_"))
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

// BenchmarkLoadAvailability reads a generated 25 MB export from disk, the
// size of a full `az vm list-skus --resource-type virtualMachines --all`.
func BenchmarkLoadAvailability(b *testing.B) {
	path := filepath.Join(b.TempDir(), "skus.json")
	data := generateAvailability(b, 25<<20)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := LoadAvailability(path)
		if err != nil || len(a.Sizes) == 0 {
			b.Fatalf("LoadAvailability: %v", err)
		}
	}
}

// TestLoadAvailabilityLargeExport loads a 25 MB export whole: every entry
// and region is read. How fast is BenchmarkLoadAvailability's to say, not
// a test's.
func TestLoadAvailabilityLargeExport(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 25 MB file")
	}
	path := filepath.Join(t.TempDir(), "skus.json")
	data := generateAvailability(t, 25<<20)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAvailability(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Entries < 5000 || len(a.Regions) != 16 {
		t.Errorf("%d entries in %d regions", a.Entries, len(a.Regions))
	}
}
