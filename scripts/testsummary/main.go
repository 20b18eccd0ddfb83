// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command testsummary reads `go test -json` on standard input and prints a
// short account of it as it goes: a line for each top-level test that fails
// or takes at least -slow, the output of every failed test, the package
// lines of go test itself ("ok", "FAIL", "?", build errors), and, after
// -quiet without any of those, a line saying how far the run is and which
// tests are running. It exits 1 when a test, a package or a build failed.
//
//	go test -json ./... | go run ./scripts/testsummary
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

func main() {
	slow := flag.Duration("slow", time.Second, "print a line for each passing top-level test that takes at least this long")
	quiet := flag.Duration("quiet", time.Minute, "print a progress line after this long without output")
	flag.Parse()
	if !run(os.Stdin, os.Stdout, *slow, *quiet) {
		os.Exit(1)
	}
}

// run summarises the events of r on w and reports whether everything
// passed.
func run(r io.Reader, w io.Writer, slow, quiet time.Duration) bool {
	s := newSummary(w, slow)
	events := make(chan event)
	go read(r, events)
	ticker := time.NewTicker(quiet / 4)
	defer ticker.Stop()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				s.finish()
				return !s.failed
			}
			s.handle(e)
		case now := <-ticker.C:
			if now.Sub(s.lastPrint) >= quiet {
				s.progress(now)
			}
		}
	}
}

// read decodes events until the end of r. A line that is not JSON (go test
// prints some build errors as plain text) becomes a package-level output.
func read(r io.Reader, events chan<- event) {
	defer close(events)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			e = event{Action: "output", Output: sc.Text() + "\n"}
		}
		events <- e
	}
	if err := sc.Err(); err != nil {
		events <- event{Action: "output", Output: "testsummary: " + err.Error() + "\n"}
	}
}

// key names one top-level test of one package.
type key struct{ pkg, test string }

type summary struct {
	w         io.Writer
	slow      time.Duration
	start     time.Time
	lastPrint time.Time
	output    map[key][]string           // output of running top-level tests, subtests included
	subtests  map[key]map[string]float64 // seconds each finished subtest of a running top-level test took
	running   map[key]time.Time          // top-level tests running (not paused), since they last started
	passed    int                        // top-level tests passed
	skipped   int                        // top-level tests skipped
	failures  []key                      // top-level tests failed
	failed    bool                       // a test, package or build failed
	packages  map[string]struct{}        // packages that printed their result
}

func newSummary(w io.Writer, slow time.Duration) *summary {
	now := time.Now()
	return &summary{w: w, slow: slow, start: now, lastPrint: now,
		output: map[key][]string{}, subtests: map[key]map[string]float64{}, running: map[key]time.Time{}, packages: map[string]struct{}{}}
}

func (s *summary) printf(format string, args ...any) {
	fmt.Fprintf(s.w, format, args...)
	s.lastPrint = time.Now()
}

func (s *summary) handle(e event) {
	switch {
	case e.Action == "build-output":
		s.printf("%s", e.Output)
	case e.Action == "build-fail":
		s.failed = true
	case e.Test == "":
		s.handlePackage(e)
	default:
		s.handleTest(e)
	}
}

// handlePackage prints what go test prints for a package ("ok", "FAIL",
// "?", panics outside a test) and notes a failed package.
func (s *summary) handlePackage(e event) {
	switch e.Action {
	case "output":
		if strings.TrimSpace(e.Output) != "PASS" {
			s.printf("%s", e.Output)
		}
	case "fail":
		s.failed = true
		s.packages[e.Package] = struct{}{}
	case "pass", "skip":
		s.packages[e.Package] = struct{}{}
	}
}

// handleTest collects a test's output under its top-level test and prints
// a line when a top-level test ends: always on failure, with the output,
// and when it took at least s.slow.
func (s *summary) handleTest(e event) {
	top, _, sub := strings.Cut(e.Test, "/")
	k := key{e.Package, top}
	switch e.Action {
	case "run", "cont":
		if !sub {
			s.running[k] = time.Now()
		}
	case "pause": // a parallel test waiting for its turn
		if !sub {
			delete(s.running, k)
		}
	case "output":
		s.output[k] = append(s.output[k], e.Output)
	case "fail":
		s.failed = true
	}
	if sub && (e.Action == "pass" || e.Action == "fail") {
		if s.subtests[k] == nil {
			s.subtests[k] = map[string]float64{}
		}
		s.subtests[k][e.Test] = e.Elapsed
	}
	if sub || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
		return
	}
	took := s.took(k, e.Elapsed)
	switch e.Action {
	case "fail":
		s.failures = append(s.failures, k)
		s.printf("%s", strings.Join(s.output[k], ""))
		s.printf("--- FAIL %s %s (%s)\n", shortPackage(e.Package), top, took)
	case "pass":
		s.passed++
		if max(e.Elapsed, s.leafTime(k)) >= s.slow.Seconds() {
			s.printf("--- PASS %s %s (%s)\n", shortPackage(e.Package), top, took)
		}
	case "skip":
		s.skipped++
	}
	delete(s.output, k)
	delete(s.running, k)
	delete(s.subtests, k)
}

// took is how long a top-level test took, as go test reports it, and the
// total of its subtests' times when it had any: the time go test gives a
// test whose subtests run in parallel leaves theirs out.
func (s *summary) took(k key, elapsed float64) string {
	d := func(sec float64) time.Duration {
		return time.Duration(sec * float64(time.Second)).Round(10 * time.Millisecond)
	}
	if len(s.subtests[k]) > 0 {
		return fmt.Sprintf("%s; subtests %s", d(elapsed), d(s.leafTime(k)))
	}
	return d(elapsed).String()
}

// leafTime is the total time of the subtests of k that have none of their
// own (a subtest's time includes its subtests').
func (s *summary) leafTime(k key) float64 {
	total := 0.0
	for name, sec := range s.subtests[k] {
		parent := false
		for other := range s.subtests[k] {
			if strings.HasPrefix(other, name+"/") {
				parent = true
				break
			}
		}
		if !parent {
			total += sec
		}
	}
	return total
}

// progress says how long the run has taken, how many tests have finished
// and which are running, longest first.
func (s *summary) progress(now time.Time) {
	running := make([]key, 0, len(s.running))
	for k := range s.running {
		running = append(running, k)
	}
	slices.SortFunc(running, func(a, b key) int { return s.running[a].Compare(s.running[b]) })
	names := make([]string, 0, 3)
	for _, k := range running[:min(3, len(running))] {
		names = append(names, fmt.Sprintf("%s %s (%s)", shortPackage(k.pkg), k.test, now.Sub(s.running[k]).Round(time.Second)))
	}
	if len(running) > len(names) {
		names = append(names, fmt.Sprintf("%d more", len(running)-len(names)))
	}
	state := "building or starting packages"
	if len(names) > 0 {
		state = "running " + strings.Join(names, ", ")
	}
	s.printf("... %s: %d tests passed, %d failed, %d skipped; %s\n",
		now.Sub(s.start).Round(time.Second), s.passed, len(s.failures), s.skipped, state)
}

// finish prints the totals and the failed tests again, so that they end the
// log.
func (s *summary) finish() {
	s.printf("%d tests passed, %d failed, %d skipped in %d packages (%s)\n",
		s.passed, len(s.failures), s.skipped, len(s.packages), time.Since(s.start).Round(time.Second))
	// Tests that never ended (a crash or a timeout of their package).
	for k, out := range s.output {
		s.printf("%s--- UNFINISHED %s %s\n", strings.Join(out, ""), shortPackage(k.pkg), k.test)
	}
	for _, k := range s.failures {
		s.printf("FAILED: %s %s\n", k.pkg, k.test)
	}
}

// shortPackage drops the module path from a package path.
func shortPackage(pkg string) string {
	const module = "github.com/hpcsku/terraform-provider-hpcsku/"
	return strings.TrimPrefix(pkg, module)
}
