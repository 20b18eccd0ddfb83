// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

//go:build !race

package azureexport

// raceEnabled reports a -race build (see race_test.go).
const raceEnabled = false
