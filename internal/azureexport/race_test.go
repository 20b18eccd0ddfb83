// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

//go:build race

package azureexport

// raceEnabled reports a -race build, which runs code several times slower:
// timing bounds are not checked under it.
const raceEnabled = true
