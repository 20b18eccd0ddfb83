// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

// Proofs that the provider never opens a network connection and reads no
// overlay file unless one is configured.
//
// 1. TestProviderCodeCannotReachTheNetwork (static, always runs): every
//    package the provider's schema, Configure and data sources can execute
//    is in the import closure of internal/provider. In Go a socket can only
//    be opened through package net (and its users: net/http, crypto/tls, ...)
//    or a raw system call (syscall, golang.org/x/sys/unix), and a helper
//    program through os/exec. The test asserts that no package in the
//    closure imports net, none is os/exec, and that the only non-standard packages making
//    raw system calls are the exact, reviewed set below. Adding an HTTP call
//    anywhere in the provider's code, or a dependency that can make one,
//    changes the closure and fails the test. Only main.go's plugin server
//    (go-plugin and gRPC over a Unix socket that Terraform opens) imports
//    net, and that is outside the closure.
//
// 2. TestProviderOpensNoSocketUnderStrace (runtime, needs strace): runs the
//    overlay acceptance tests, which read every data source with every
//    overlay file through Terraform, under `strace -f`, and asserts that no
//    process of the tree (the provider in the test binary, and Terraform)
//    creates or connects a socket of any family but AF_UNIX. It also runs a
//    configuration without overlay settings and asserts that no file under
//    testdata is opened, with positive controls for both checks (a test that
//    dials 127.0.0.1 must be caught; configured files must show up).

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// rawSyscallPackages are the non-standard packages in the provider's import
// closure that make system calls directly, reviewed: x/sys/unix itself,
// go-isatty (an ioctl to tell whether stderr is a terminal, for hclog's
// colours) and terraform-plugin-log's tfsdklog (syscall.Getpid-style
// process facts for log sinks). None of them opens a socket.
var rawSyscallPackages = []string{
	"github.com/hashicorp/terraform-plugin-log/tfsdklog",
	"github.com/mattn/go-isatty",
	"golang.org/x/sys/unix",
}

func TestProviderCodeCannotReachTheNetwork(t *testing.T) {
	t.Parallel()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	const pkg = "github.com/hpcsku/terraform-provider-hpcsku/internal/provider"
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}\t{{join .Imports \" \"}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var closure, forbidden, raw []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("go list line %q", line)
		}
		path, standard, imports := parts[0], parts[1] == "true", strings.Fields(parts[2])
		closure = append(closure, path)
		// Every socket API of the standard library is in package net
		// (net/http, crypto/tls and net/rpc import it); net/url and
		// net/netip only parse. os/exec could run curl, plugin load code.
		if path == "os/exec" || path == "plugin" {
			forbidden = append(forbidden, path)
		}
		if slices.Contains(imports, "net") {
			forbidden = append(forbidden, path+" (imports net)")
		}
		if !standard && (slices.Contains(imports, "syscall") || slices.Contains(imports, "golang.org/x/sys/unix") || slices.Contains(imports, "golang.org/x/sys/windows")) {
			raw = append(raw, path)
		}
	}
	for _, must := range []string{pkg, "github.com/hpcsku/terraform-provider-hpcsku/internal/catalog", "github.com/hpcsku/terraform-provider-hpcsku/internal/recommend"} {
		if !slices.Contains(closure, must) {
			t.Fatalf("%s is not in the closure of %d packages", must, len(closure))
		}
	}
	if len(forbidden) > 0 {
		t.Errorf("the provider's code can reach the network or run programs through: %s. "+
			"The provider must stay offline; read files the user names instead.", strings.Join(forbidden, ", "))
	}
	sort.Strings(raw)
	if !slices.Equal(raw, rawSyscallPackages) {
		t.Errorf("non-standard packages making raw system calls changed:\n got  %v\n want %v\n"+
			"Review the new ones for sockets before updating rawSyscallPackages.", raw, rawSyscallPackages)
	}
	// The control: the provider binary as a whole does import net, through
	// the plugin server in main.go, so the check above is not vacuous.
	out, err = exec.Command(gobin, "list", "-deps", "github.com/hpcsku/terraform-provider-hpcsku").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !slices.Contains(strings.Fields(string(out)), "net") {
		t.Error("the provider binary does not import net: the control of this test is broken")
	}
}

// TestOverlay_NoFilesConfigured reads every data source with no overlay
// setting. Under strace (below) it must open no file under testdata.
func TestOverlay_NoFilesConfigured(t *testing.T) {
	t.Parallel()
	snapshot := testCatalog(t).PriceSnapshotDate
	unitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: providerBlock(nil) + training70BConfig + `
data "hpcsku_catalog" "east" {
  families = ["ND"]
  region   = "eastus"
}

data "hpcsku_sku" "h100" {
  name   = "Standard_ND96isr_H100_v5"
  region = "eastus"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("availability").AtMapKey("source"),
					knownvalue.StringExact("embedded price snapshot of "+snapshot)),
				statecheck.ExpectKnownValue("data.hpcsku_sku.h100", tfjsonpath.New("sku").AtMapKey("price").AtMapKey("source"),
					knownvalue.StringExact("embedded snapshot of "+snapshot)),
			},
		}},
	})
}

// networkProbeEnv turns on TestNetworkProbeControl in the strace child.
const networkProbeEnv = "HPCSKU_NETWORK_PROBE"

// TestNetworkProbeControl opens a TCP connection attempt when asked to, so
// that TestProviderOpensNoSocketUnderStrace can check it would see one.
func TestNetworkProbeControl(t *testing.T) {
	t.Parallel()
	if os.Getenv(networkProbeEnv) == "" {
		t.Skip("only run by TestProviderOpensNoSocketUnderStrace")
	}
	if c, err := net.Dial("tcp", "127.0.0.1:9"); err == nil {
		c.Close()
	}
}

var (
	nonUnixSocketRE = regexp.MustCompile(`socket\((AF_[A-Z0-9_]+)|sa_family=(AF_[A-Z0-9_]+)`)
	openatRE        = regexp.MustCompile(`openat\([^,]+, "([^"]+)"`)
)

// straceAttempts bounds the runs repeated after strace loses its tracee.
const straceAttempts = 3

// straceLostTrace reports whether strace printed one of its own ptrace
// failures: the trace may then be missing calls and proves nothing.
func straceLostTrace(output []byte) bool {
	return regexp.MustCompile(`(?m)strace: ptrace\(`).Match(output)
}

type straceResult struct {
	sockets []string // lines creating or connecting a socket that is not AF_UNIX
	unix    int      // AF_UNIX socket calls
	opened  []string // files opened under testdata
}

func TestProviderOpensNoSocketUnderStrace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs acceptance tests under strace")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed; TestProviderCodeCannotReachTheNetwork is the proof that runs everywhere")
	}
	if err := exec.Command(strace, "-f", "-qq", "-e", "trace=none", "true").Run(); err != nil {
		t.Skipf("strace cannot trace here (ptrace not permitted?): %v", err)
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		if _, err := exec.LookPath("terraform"); err != nil {
			t.Skip("no Terraform CLI: set TF_ACC_TERRAFORM_PATH")
		}
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("control: a TCP dial is seen", func(t *testing.T) {
		t.Parallel()
		r := straceRun(t, strace, testdata, "^TestNetworkProbeControl$", networkProbeEnv+"=1")
		if len(r.sockets) == 0 {
			t.Fatal("strace did not show the probe's AF_INET socket: the check below would not see one either")
		}
	})
	t.Run("overlay files, every data source", func(t *testing.T) {
		t.Parallel()
		r := straceRun(t, strace, testdata, "^TestOverlay_(AvailabilityFileRestrictsH100|PricesFileReranks|CatalogAndSKUHonourFiles)$")
		if len(r.sockets) > 0 {
			t.Errorf("non-Unix sockets:\n%s", strings.Join(r.sockets, "\n"))
		}
		if r.unix == 0 {
			t.Error("no AF_UNIX socket seen: the provider was not served over go-plugin, so the trace proves nothing")
		}
		for _, f := range []string{"availability.json", "catalog_file.json", "prices_negotiated.csv", "prices_retail.json"} {
			if !slices.Contains(r.opened, filepath.Join(testdata, f)) {
				t.Errorf("control: the configured file %s was not seen opened (%v)", f, r.opened)
			}
		}
	})
	t.Run("no overlay setting", func(t *testing.T) {
		t.Parallel()
		r := straceRun(t, strace, testdata, "^TestOverlay_NoFilesConfigured$")
		if len(r.sockets) > 0 {
			t.Errorf("non-Unix sockets:\n%s", strings.Join(r.sockets, "\n"))
		}
		if len(r.opened) > 0 {
			t.Errorf("files read without being configured: %v", r.opened)
		}
	})
}

// straceRun runs the tests of this binary that match pattern under `strace
// -f`, with env added to their environment, and returns what the trace
// shows: the sockets the process tree created or connected and the files
// under testdata it opened. It fails t unless the tests ran and passed.
func straceRun(t *testing.T, strace, testdata, pattern string, env ...string) straceResult {
	t.Helper()
	out := filepath.Join(t.TempDir(), "trace")
	// strace itself can lose a race with a traced process that stops
	// as it exits ("strace: ptrace(PTRACE_LISTEN,...): Input/output
	// error"); that is the tracer failing, not the provider, so such a
	// run is repeated (at most straceAttempts times in all).
	var b []byte
	var err error
	for attempt := 1; attempt <= straceAttempts; attempt++ {
		cmd := exec.Command(strace, "-f", "-qq", "-e", "trace=socket,connect,bind,openat", "-o", out,
			os.Args[0], "-test.run", pattern, "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), append(env, "CHECKPOINT_DISABLE=1")...)
		b, err = cmd.CombinedOutput()
		if !straceLostTrace(b) {
			break
		}
		t.Logf("attempt %d: strace lost its tracee, running again", attempt)
	}
	if err != nil || straceLostTrace(b) {
		t.Fatalf("%s under strace: %v\n%s", pattern, err, b)
	} else if !strings.Contains(string(b), "--- PASS") {
		t.Fatalf("%s did not run:\n%s", pattern, b)
	}
	trace, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return parseStrace(string(trace), testdata)
}

// parseStrace reads a trace of socket, connect, bind and openat calls: the
// lines that create or connect a socket other than AF_UNIX, the number of
// AF_UNIX ones, and the files under testdata that were opened (not those
// that did not exist).
func parseStrace(trace, testdata string) straceResult {
	var r straceResult
	for _, line := range strings.Split(trace, "\n") {
		for _, m := range nonUnixSocketRE.FindAllStringSubmatch(line, -1) {
			if fam := m[1] + m[2]; fam == "AF_UNIX" {
				r.unix++
			} else {
				r.sockets = append(r.sockets, line)
			}
		}
		if m := openatRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[1], testdata+string(filepath.Separator)) && !strings.Contains(line, "ENOENT") {
			r.opened = append(r.opened, m[1])
		}
	}
	return r
}
