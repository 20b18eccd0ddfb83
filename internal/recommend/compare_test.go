// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// The comparison harness guards a refactoring that must not change
// behaviour. Run it on the old code with -compare.write DIR: it draws
// -compare.n random requests (on the embedded and the fixture catalog),
// writes them to DIR/requests.jsonl and a digest of each outcome to
// DIR/digests.txt. Run it on the new code with -compare.check DIR: it reads
// the same requests back and fails on the first outcome whose digest
// differs, printing the outcome as JSON. A valid request's digest covers the
// whole result (ranks, numbers, sentences, warnings; each size by name); an
// invalid request's covers the attribute path and kind of each error, not
// its wording.
//
//	go test ./internal/recommend -run TestCompareEngines -compare.write /tmp/cmp
//	go test ./internal/recommend -run TestCompareEngines -compare.check /tmp/cmp
var (
	compareWrite = flag.String("compare.write", "", "write random requests and their outcomes' digests to this folder")
	compareCheck = flag.String("compare.check", "", "check the outcomes of the requests in this folder against their digests")
	compareN     = flag.Int("compare.n", 100000, "requests to draw with -compare.write")
)

// comparedRequest is one request of the harness and the catalog it ranks.
type comparedRequest struct {
	Fixture bool    `json:"fixture,omitempty"`
	Request Request `json:"request"`
}

func TestCompareEngines(t *testing.T) {
	switch {
	case *compareWrite != "":
		writeComparison(t, *compareWrite, *compareN)
	case *compareCheck != "":
		checkComparison(t, *compareCheck)
	default:
		t.Skip("run with -compare.write DIR or -compare.check DIR")
	}
}

func compareEngines(t *testing.T) (embedded, fix *Engine) {
	return testEngine(t), newTestEngine(t, fixture(t))
}

func writeComparison(t *testing.T, dir string, n int) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	embedded, fix := compareEngines(t)
	reqs, err := os.Create(filepath.Join(dir, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer reqs.Close()
	digests, err := os.Create(filepath.Join(dir, "digests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer digests.Close()
	rw, dw := bufio.NewWriter(reqs), bufio.NewWriter(digests)
	r := rand.New(rand.NewPCG(20, 100000))
	counts := map[string]int{}
	for i := 0; i < n; {
		cr := comparedRequest{Fixture: i%5 == 4}
		eng := embedded
		if cr.Fixture {
			eng = fix
		}
		cr.Request = randomRequest(r, eng.Catalog())
		if i%2 == 0 {
			cr.Request = likelyToFit(r, cr.Request)
		}
		if i%3 == 0 {
			cr.Request = withRareInputs(r, eng.Catalog(), cr.Request)
		}
		line, err := json.Marshal(cr)
		if err != nil {
			continue // an infinity, which JSON cannot hold: draw again
		}
		i++
		if _, err := rw.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
		kind, out := outcome(eng, cr.Request)
		counts[kind]++
		fmt.Fprintln(dw, digest(out))
	}
	if err := rw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := dw.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d requests: %v", n, counts)
}

func checkComparison(t *testing.T, dir string) {
	embedded, fix := compareEngines(t)
	reqs, err := os.Open(filepath.Join(dir, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer reqs.Close()
	want, err := os.ReadFile(filepath.Join(dir, "digests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	digests := strings.Fields(string(want))
	sc := bufio.NewScanner(reqs)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	counts := map[string]int{}
	i := 0
	for ; sc.Scan(); i++ {
		var cr comparedRequest
		if err := json.Unmarshal(sc.Bytes(), &cr); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		eng := embedded
		if cr.Fixture {
			eng = fix
		}
		kind, out := outcome(eng, cr.Request)
		counts[kind]++
		if i >= len(digests) || digest(out) != digests[i] {
			t.Fatalf("request %d differs: %s\noutcome now: %s", i, sc.Bytes(), out)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(digests) {
		t.Fatalf("%d requests, %d digests", i, len(digests))
	}
	t.Logf("%d requests identical: %v", i, counts)
}

// outcome is the JSON of what Recommend returns for req, with each size
// record replaced by its name, and its kind (ok, nofit or invalid).
func outcome(eng *Engine, req Request) (string, []byte) {
	res, err := eng.Recommend(req)
	var ve *ValidationError
	var nf *NoFitError
	var v any
	kind := "ok"
	switch {
	case errors.As(err, &ve):
		kind = "invalid"
		type fieldError struct {
			Path []string
			Kind FieldErrorKind
		}
		var fes []fieldError
		for _, e := range ve.Errors {
			fes = append(fes, fieldError{e.Path, e.Kind})
		}
		v = fes
	case errors.As(err, &nf):
		kind = "nofit"
		v = struct {
			Rejected    []Rejection
			NearestMiss *NearestMiss
			Text        string
		}{nf.Rejected, nf.NearestMiss, nf.Error()}
	case err != nil:
		kind = "error"
		v = err.Error()
	default:
		for i := range res.Recommendations {
			r := &res.Recommendations[i]
			r.SKU = &catalog.SKU{Name: r.SKU.Name}
		}
		v = res
	}
	out, err := json.Marshal(v)
	if err != nil {
		out = []byte("unencodable: " + err.Error())
	}
	return kind, out
}

// likelyToFit drops, most of the time, the inputs that most often leave no
// size, so that half the harness's requests reach the ranking.
func likelyToFit(r *rand.Rand, req Request) Request {
	drop := func() bool { return r.IntN(5) > 0 }
	if drop() {
		req.MaxPricePerHour, req.MaxTotalPricePerHour = nil, nil
	}
	if drop() {
		req.MinLocalDiskGiB, req.MinMemoryGiB, req.MinVCPUs = nil, nil, nil
	}
	if drop() {
		req.GPUModels, req.CUDAVersion, req.MinComputeCapability = nil, "", ""
	}
	if drop() {
		req.Confidential, req.Isolated = nil, nil
	}
	if drop() {
		req.Nodes, req.GPUs, req.GPUMemoryGiB = nil, nil, nil
	}
	if drop() {
		req.Cores, req.DeadlineHours, req.TokensPerSecond = nil, nil, nil
	}
	if drop() {
		req.Interconnect, req.GPUVendor, req.Target = "", "", ""
	}
	if drop() && req.Workload == "train" || req.Workload == "" {
		req.Workload = WorkloadInference
	}
	return req
}

// withRareInputs adds the inputs randomRequest leaves out, on the
// workloads that use them (and now and then on others): a service's token
// split, latency targets and replicas; an hpc or htc job's reference run,
// licence, parallel efficiency and total memory; the regions a job may run
// in. The harness then covers the serving layout search and the per-VM
// HPC model as well as the ranking.
func withRareInputs(r *rand.Rand, cat *catalog.Catalog, req Request) Request {
	maybeF := func(vs ...float64) *float64 {
		if r.IntN(2) > 0 {
			return nil
		}
		return f64(vs[r.IntN(len(vs))])
	}
	maybeI := func(vs ...int64) *int64 {
		if r.IntN(2) > 0 {
			return nil
		}
		return i64(vs[r.IntN(len(vs))])
	}
	serving := req.Workload == WorkloadInference || r.IntN(20) == 0
	if serving {
		req.PromptTokens, req.OutputTokens = maybeI(64, 1000, 3584, 30000), maybeI(16, 200, 512, 4000)
		req.MaxTimeToFirstTokenMs = maybeF(50, 500, 2000, 20000)
		req.MaxTimePerOutputTokenMs = maybeF(2, 10, 30, 200)
		req.MinReplicas = maybeI(1, 2, 3, 12)
	}
	hpc := req.Workload == WorkloadHPC || req.Workload == WorkloadHTC || r.IntN(20) == 0
	if hpc {
		if r.IntN(2) == 0 {
			sizes := []string{"Standard_HB120rs_v3", "Standard_HB176rs_v4", "Standard_HC44rs", "Standard_F72s_v2", "Standard_HB120-32rs_v3"}
			rr := &ReferenceRun{VMSize: sizes[r.IntN(len(sizes))], Nodes: []int64{1, 2, 8}[r.IntN(3)], Hours: []float64{0.5, 10, 200}[r.IntN(3)]}
			if r.IntN(3) == 0 {
				rr.Cores = i64(rr.Nodes * []int64{1, 16, 32}[r.IntN(3)])
			}
			req.ReferenceRun = rr
		}
		req.LicenseCostPerCoreHour = maybeF(0, 0.05, 2)
		req.ParallelEfficiency = maybeF(0.5, 0.9, 1.2)
		req.TotalMemoryGiB = maybeF(100, 2000, 50000)
	}
	if r.IntN(6) == 0 {
		regions := cat.Regions()
		req.Region = ""
		req.Regions = []string{regions[r.IntN(len(regions))], regions[r.IntN(len(regions))]}
	}
	return req
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
