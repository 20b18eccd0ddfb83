// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"strings"
	"testing"
	"time"
)

// events writes `go test -json` lines for a package: each argument is
// action, test and elapsed seconds, or "output", test and text.
func events(pkg string, lines ...[3]string) string {
	var b strings.Builder
	for _, l := range lines {
		switch l[0] {
		case "output":
			b.WriteString(`{"Action":"output","Package":"` + pkg + `","Test":"` + l[1] + `","Output":"` + l[2] + `\n"}` + "\n")
		default:
			b.WriteString(`{"Action":"` + l[0] + `","Package":"` + pkg + `","Test":"` + l[1] + `","Elapsed":` + l[2] + `}` + "\n")
		}
	}
	return b.String()
}

func TestRun(t *testing.T) {
	const pkg = "github.com/hpcsku/terraform-provider-hpcsku/internal/x"
	cases := map[string]struct {
		in        string
		ok        bool
		want      []string // in the output
		wantLacks []string
	}{
		"passing, one slow test": {
			in: events(pkg,
				[3]string{"run", "TestFast", "0"}, [3]string{"output", "TestFast", "fast log"}, [3]string{"pass", "TestFast", "0.1"},
				[3]string{"run", "TestSlow", "0"}, [3]string{"pass", "TestSlow", "2.5"},
				[3]string{"output", "", "ok  \t" + pkg + "\t2.6s"}, [3]string{"pass", "", "2.6"}),
			ok:        true,
			want:      []string{"--- PASS internal/x TestSlow (2.5s)", "ok  \t" + pkg, "2 tests passed, 0 failed, 0 skipped in 1 packages"},
			wantLacks: []string{"TestFast", "fast log"},
		},
		"a failing subtest": {
			in: events(pkg,
				[3]string{"run", "TestBad", "0"}, [3]string{"run", "TestBad/case", "0"},
				[3]string{"output", "TestBad/case", "    x_test.go:9: boom"}, [3]string{"fail", "TestBad/case", "0.2"},
				[3]string{"fail", "TestBad", "0.2"},
				[3]string{"output", "", "FAIL\t" + pkg + "\t0.3s"}, [3]string{"fail", "", "0.3"}),
			want: []string{"x_test.go:9: boom", "--- FAIL internal/x TestBad (200ms; subtests 200ms)", "FAIL\t" + pkg, "FAILED: " + pkg + " TestBad"},
		},
		"a package that fails outside its tests": {
			in:   events(pkg, [3]string{"output", "", "panic: init"}, [3]string{"fail", "", "0"}),
			want: []string{"panic: init"},
		},
		"a build failure": {
			in:   `{"ImportPath":"` + pkg + ` [` + pkg + `.test]","Action":"build-output","Output":"x.go:1: syntax error\n"}` + "\n" + `{"ImportPath":"` + pkg + `","Action":"build-fail"}` + "\n",
			want: []string{"x.go:1: syntax error"},
		},
		"plain text": {
			in:   "go: cannot find main module\n",
			ok:   true,
			want: []string{"go: cannot find main module"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			if ok := run(strings.NewReader(c.in), &out, time.Second, time.Minute); ok != c.ok {
				t.Errorf("run reported success %t, want %t", ok, c.ok)
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range c.wantLacks {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out.String())
				}
			}
		})
	}
}
