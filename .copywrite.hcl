# Licence headers, in the format of hashicorp/copywrite
# (https://github.com/hashicorp/copywrite), as HashiCorp's providers keep it.
#
# `make headers` (scripts/headers.sh) reads copyright_holder, license and
# header_ignore from this file and adds
#   // Copyright (c) The terraform-provider-hpcsku Authors
#   // SPDX-License-Identifier: MPL-2.0
# (with `#` in shell scripts and Terraform files) to every tracked or new .go,
# .sh and .tf file lacking it; `scripts/headers.sh --check`, run by .ci/run,
# fails when one is missing. In header_ignore, `*` also matches `/`.
schema_version = 1

project {
  license          = "MPL-2.0"
  copyright_holder = "The terraform-provider-hpcsku Authors"
  copyright_year   = 2026

  header_ignore = [
    # Examples used within the documentation: tfplugindocs copies them into
    # docs/ verbatim, so a header would open every code block there.
    "examples/**",

    # golangci-lint tooling configuration
    ".golangci.yml",

    # GoReleaser tooling configuration
    ".goreleaser.yml",
  ]
}
