#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Runs one fuzz target for a duration: scripts/fuzz-one.sh PACKAGE TARGET FUZZTIME
# (make fuzz runs it for every target). Go's fuzzing coordinator can end a run
# with a bare "context deadline exceeded" when -fuzztime expires while a worker
# is inside an input on a loaded machine (golang/go#51484), writing no failing
# input. Such a run is tried once more; a failing input, a panic or any other
# failure fails at once, and so does a second deadline.
set -euo pipefail

pkg=$1 target=$2 fuzztime=$3

run() {
	echo "==> $target ($pkg), $fuzztime"
	go test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" "$pkg" 2>&1 |
		awk '/^fuzz: elapsed/ { last = $0; next } { print } END { if (last != "") print last }'
}

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if run | tee "$log"; then
	exit 0
fi
if grep -q 'context deadline exceeded' "$log" && ! grep -q -e 'Failing input written' -e 'panic:' "$log"; then
	echo "fuzz: $target stopped at the -fuzztime boundary without a failing input (golang/go#51484); running it once more" >&2
	run
	exit
fi
exit 1
