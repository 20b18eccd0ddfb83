// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

//go:build generate

// Package tools pins the Go tools used by `make generate` in a module of
// their own, so that they do not add to the provider's dependencies. The
// linters are pinned the same way, one module each, by the `tool` lines of
// golangci-lint/go.mod and actionlint/go.mod.
package tools

import (
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
)

// Format the Terraform code in the examples used by the documentation. This
// needs a `terraform` on PATH; `make generate` puts the one chosen by
// scripts/ensure-terraform.sh first.
//go:generate terraform fmt -recursive ../examples/

// Write the ranking guide's worked examples, its table of hard constraints
// and the constants it quotes from the engine, run on the fixture catalog
// (../internal/recommend/internal/guidegen), before the template is rendered.
//go:generate go -C .. run ./internal/recommend/internal/guidegen -template templates/guides/ranking.md.tmpl

// Generate the documentation in ../docs from the provider schema, the
// ../examples and the ../templates.
//go:generate go run github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs generate --provider-dir .. -provider-name hpcsku
