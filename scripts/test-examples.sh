#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Validates every example module under examples/ against the real
# terraform-provider-azurerm, terraform-provider-kubernetes (the KAITO example)
# and this checkout's terraform-provider-hpcsku,
# offline, and runs their `terraform test` suites. `make test-examples` runs it.
#
#   1. terraform-provider-azurerm is built from the Go module proxy at a pinned
#      version into .cache/azurerm/<version>/ (ignored by git), once; later runs
#      reuse the binary.
#   2. terraform-provider-hpcsku is built from this checkout.
#   3. Both binaries go into a provider mirror in a temporary directory, and a
#      Terraform CLI configuration whose only installation method is that
#      mirror: `provider_installation { filesystem_mirror { ... } }`.
#   4. Every directory directly under examples/ that holds .tf files is copied
#      into the temporary directory and gets `terraform init -backend=false`,
#      `terraform validate` and, when it has tests/*.tftest.hcl,
#      `terraform test`. Nothing is written into the repository.
#   5. Negative tests: a copy of an example with an argument azurerm does not
#      have, and one with a value azurerm rejects, must fail `terraform
#      validate` with azurerm's own error. The script fails if either passes.
#
# Why a filesystem mirror and not dev_overrides: with dev_overrides Terraform
# skips the providers' `version` constraints altogether, and `terraform init`
# (needed for modules and, offline, for anything not overridden) still asks the
# registry for the overridden providers and fails without network; Terraform
# itself says to skip init under dev_overrides. A mirror holding the freshly
# built binaries, under the versions they implement, lets the ordinary
# `terraform init` run offline and check the examples' constraints
# (`azurerm ~> 5.2`, `hpcsku ~> 0.1`) against what was built. (`terraform
# validate` alone does work without init when every provider is overridden;
# scripts/quickstart.sh uses that.)
#
# Which azurerm. The Go module proxy cannot serve azurerm's release tags:
# v4.x.y and v5.x.y tags have no /v4 or /v5 module path, so the only versions
# it knows are commit pseudo-versions (named after the last compatible tag,
# v1.44.0). The proxy this project's CI uses serves exactly one, listed by
# `go list -m -versions github.com/hashicorp/terraform-provider-azurerm`:
#     v1.44.1-0.20260824201233-fae580791926
# That is main on 2026-08-24, four days after the v5.2.0 tag (8d8282ef5b,
# 2026-08-20); CHANGELOG.md at that commit still tops out at "5.2.0 (August
# 20, 2026)". Compared with v5.2.0, internal/services/compute and
# internal/services/containers (scale sets, VMs, proximity placement groups,
# AKS node pools) are unchanged, so its schema for every resource the
# examples use is v5.2.0's. It is mirrored as version 5.2.0. No 4.x build is
# available from the proxy; the examples require `~> 5.2`. To move to another
# commit: `go list -m github.com/hashicorp/terraform-provider-azurerm@<commit>`
# gives its pseudo-version; set AZURERM_VERSION and AZURERM_VERSION_LABEL.
#
# Which kubernetes provider. As for azurerm, the proxy serves no release tag
# (v2.x and v3.x have no /v2 or /v3 module path) but one pseudo-version,
#     v1.13.4-0.20260821094251-3a33fb6cc605
# commit 3a33fb6cc605 on main (2026-08-21), two commits after v3.2.1
# (`git describe`: v3.2.1-2-g3a33fb6cc; CHANGELOG.md tops out at "3.2.1 (Jun
# 30, 2026)"). It is mirrored as version 3.2.1; the KAITO example requires
# `>= 2.8` (kubernetes_manifest). KUBERNETES_VERSION and
# KUBERNETES_VERSION_LABEL move it.
#
# Cost, measured on a 2-core, 24 GiB machine (go1.26.8, CGO_ENABLED=0,
# -ldflags "-s -w", default -p 2), with other jobs running:
#   cold  (empty Go module and build caches, as on a fresh CI machine):
#         7m29s wall, 2 GB of modules downloaded, 5.5 GB of build cache;
#   fresh clone with a warm Go build cache (binary not yet in .cache/): 11s,
#         the link only;
#   cached binary: the build is skipped; the whole script then takes ~25s.
# Peak memory is the link, 3.3 GB resident with -s -w (4.6 GB without); two
# parallel compiles stay below that. Set GOFLAGS=-p=1 to compile one package at
# a time on a smaller machine. The binary is 225 MB.
#
# Needs Terraform >= 1.8 (`terraform test` with mock_provider and provider
# functions). It uses the Terraform from scripts/ensure-terraform.sh when that
# is new enough, otherwise `scripts/ensure-terraform.sh 1.8.5`, which builds
# Terraform 1.8.5 from the Go module proxy into .cache/terraform/1.8.5/ (a few
# minutes, once).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${repo_root}"

azurerm_module="github.com/hashicorp/terraform-provider-azurerm"
azurerm_version="${AZURERM_VERSION:-v1.44.1-0.20260824201233-fae580791926}"
azurerm_label="${AZURERM_VERSION_LABEL:-5.2.0}"
azurerm_dir="${repo_root}/.cache/azurerm/${azurerm_version}"
azurerm_bin="${azurerm_dir}/terraform-provider-azurerm"
kubernetes_module="github.com/hashicorp/terraform-provider-kubernetes"
kubernetes_version="${KUBERNETES_VERSION:-v1.13.4-0.20260821094251-3a33fb6cc605}"
kubernetes_label="${KUBERNETES_VERSION_LABEL:-3.2.1}"
kubernetes_dir="${repo_root}/.cache/kubernetes/${kubernetes_version}"
kubernetes_bin="${kubernetes_dir}/terraform-provider-kubernetes"

min_terraform="1.8.0"
fallback_terraform="1.8.5"

section() { printf '\n==> %s\n' "$*"; }
log() { printf 'test-examples: %s\n' "$*" >&2; }

# `go install pkg@version` refuses -mod flags; keep the caller's other GOFLAGS (-p=1).
goflags=""
for flag in ${GOFLAGS:-}; do
	case "${flag}" in
	-mod=*) ;;
	*) goflags="${goflags:+${goflags} }${flag}" ;;
	esac
done

# go_install <module@version> <destination dir> [go flags...]: builds outside the
# repository (its go.mod plays no part) into a private directory, then moves the
# binary into place, so that concurrent runs never see a half-written file.
go_install() {
	local target="$1" dest="$2"
	shift 2
	mkdir -p "${dest}"
	local staging
	staging="$(mktemp -d "${dest}/install.XXXXXX")"
	if ! (cd "${staging}" && GOFLAGS="${goflags}" GOBIN="${staging}" CGO_ENABLED=0 go install "$@" "${target}") >&2; then
		rm -rf "${staging}"
		log "go install ${target} failed"
		return 1
	fi
	mv -f "${staging}"/* "${dest}/"
	rmdir "${staging}"
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/hpcsku-examples.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
unset TF_PLUGIN_CACHE_DIR TF_CLI_ARGS TF_CLI_ARGS_init TF_CLI_ARGS_validate TF_CLI_ARGS_test TF_WORKSPACE TF_DATA_DIR

start=${SECONDS}

section "Terraform CLI"
tf="$(bash scripts/ensure-terraform.sh)"
tf_version() { TF_CLI_CONFIG_FILE=/dev/null "$1" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p'; }
version_at_least() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | sed -n 1p)" == "$2" ]]; }
version="$(tf_version "${tf}")"
if ! version_at_least "${version%%-*}" "${min_terraform}"; then
	log "Terraform ${version} is older than ${min_terraform}; using Terraform ${fallback_terraform}"
	tf="$(bash scripts/ensure-terraform.sh "${fallback_terraform}")"
	version="$(tf_version "${tf}")"
fi
echo "Terraform ${version} (${tf})"

# provider_binary <module> <version> <label> <binary> <build note>: builds a
# provider from the Go module proxy into the binary's directory, once; a cached
# binary is reused.
provider_binary() {
	local module="$1" version="$2" label="$3" bin="$4" note="$5"
	section "$(basename "${module}") ${version} (${label})"
	if [[ -x "${bin}" ]]; then
		echo "cached: ${bin}"
		return
	fi
	log "building ${module}@${version} into $(dirname "${bin}")${note}"
	local build_start=${SECONDS}
	go_install "${module}@${version}" "$(dirname "${bin}")" -ldflags "-s -w"
	echo "built ${bin} in $((SECONDS - build_start))s"
}

provider_binary "${azurerm_module}" "${azurerm_version}" "${azurerm_label}" "${azurerm_bin}" "; cold, this takes about 8 minutes and 3-4 GB of memory"
provider_binary "${kubernetes_module}" "${kubernetes_version}" "${kubernetes_label}" "${kubernetes_bin}" ""

section "terraform-provider-hpcsku (this checkout)"
hpcsku_label="$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' CHANGELOG.md | sed -n 1p)"
hpcsku_label="${hpcsku_label:-0.0.0}"
platform="$(go env GOOS)_$(go env GOARCH)"
mirror="${tmp}/mirror"
hpcsku_dir="${mirror}/registry.terraform.io/hpcsku/hpcsku/${hpcsku_label}/${platform}"
azurerm_mirror_dir="${mirror}/registry.terraform.io/hashicorp/azurerm/${azurerm_label}/${platform}"
kubernetes_mirror_dir="${mirror}/registry.terraform.io/hashicorp/kubernetes/${kubernetes_label}/${platform}"
mkdir -p "${hpcsku_dir}" "${azurerm_mirror_dir}" "${kubernetes_mirror_dir}"
go build -o "${hpcsku_dir}/terraform-provider-hpcsku_v${hpcsku_label}" .
ln -s "${azurerm_bin}" "${azurerm_mirror_dir}/terraform-provider-azurerm_v${azurerm_label}"
ln -s "${kubernetes_bin}" "${kubernetes_mirror_dir}/terraform-provider-kubernetes_v${kubernetes_label}"
echo "hpcsku ${hpcsku_label}, azurerm ${azurerm_label} and kubernetes ${kubernetes_label} in the mirror ${mirror}"

cat >"${tmp}/terraformrc" <<EOF
provider_installation {
  filesystem_mirror {
    path    = "${mirror}"
    include = ["registry.terraform.io/hpcsku/hpcsku", "registry.terraform.io/hashicorp/azurerm", "registry.terraform.io/hashicorp/kubernetes"]
  }
}
EOF
export TF_CLI_CONFIG_FILE="${tmp}/terraformrc"

color=()
if [[ ! -t 1 ]]; then
	color=(-no-color)
fi

# prepare <example dir> <copy name>: copies the example and runs terraform init
# in the copy, with its own data directory. Prints the copy's path.
prepare() {
	local src="$1" name="$2"
	local dir="${tmp}/work/${name}"
	mkdir -p "${tmp}/work"
	cp -R "${src}" "${dir}"
	rm -rf "${dir}/.terraform" "${dir}/.terraform.lock.hcl"
	if ! TF_DATA_DIR="${tmp}/data/${name}" "${tf}" -chdir="${dir}" init -backend=false -input=false ${color[@]+"${color[@]}"} >"${tmp}/init-${name}.log" 2>&1; then
		cat "${tmp}/init-${name}.log" >&2
		log "terraform init failed in ${src}"
		return 1
	fi
	printf '%s\n' "${dir}"
}

# EXAMPLES (space-separated names under examples/) limits the run to those
# modules and skips the negative tests; unset, every module runs.
examples=()
for dir in examples/*/; do
	dir="${dir%/}"
	if [[ -n "${EXAMPLES:-}" && " ${EXAMPLES} " != *" $(basename "${dir}") "* ]]; then
		continue
	fi
	compgen -G "${dir}/*.tf" >/dev/null && examples+=("${dir}")
done

failed=()
for example in "${examples[@]}"; do
	name="$(basename "${example}")"
	section "${example}"
	example_start=${SECONDS}
	if ! dir="$(prepare "${example}" "${name}")"; then
		failed+=("${example} (init)")
		continue
	fi
	if ! TF_DATA_DIR="${tmp}/data/${name}" "${tf}" -chdir="${dir}" validate ${color[@]+"${color[@]}"}; then
		failed+=("${example} (validate)")
		continue
	fi
	if compgen -G "${dir}/tests/*.tftest.hcl" >/dev/null; then
		if ! TF_DATA_DIR="${tmp}/data/${name}" "${tf}" -chdir="${dir}" test ${color[@]+"${color[@]}"}; then
			failed+=("${example} (test)")
			continue
		fi
	fi
	echo "${example}: passed in $((SECONDS - example_start))s"
done

# negative <name> <example> <file> <resource line regex> <injected line> <expected error regex>:
# injects a line as the first argument of a resource in a copy of an example and
# requires terraform validate to fail with the expected error.
negative() {
	local name="$1" example="$2" file="$3" resource="$4" line="$5" expected="$6"
	section "negative: ${name}"
	local dir
	dir="$(prepare "${example}" "negative-${name}")" || return 1
	if ! grep -Eq "${resource}" "${dir}/${file}"; then
		log "no line matching ${resource} in ${example}/${file}"
		return 1
	fi
	awk -v re="${resource}" -v add="${line}" '{ print } !done && $0 ~ re { print "  " add; done = 1 }' \
		"${dir}/${file}" >"${dir}/${file}.new"
	mv "${dir}/${file}.new" "${dir}/${file}"
	echo "injected into ${example}/${file}: ${line}"
	local out="${tmp}/negative-${name}.log" rc=0
	TF_DATA_DIR="${tmp}/data/negative-${name}" "${tf}" -chdir="${dir}" validate -no-color >"${out}" 2>&1 || rc=$?
	if [[ ${rc} -eq 0 ]]; then
		cat "${out}"
		log "terraform validate passed, but ${example} now has: ${line}"
		return 1
	fi
	if ! grep -Eq "${expected}" "${out}"; then
		cat "${out}"
		log "terraform validate failed, but not with the expected error /${expected}/"
		return 1
	fi
	grep -E -B4 -A3 "${expected}" "${out}" | sed 's/^/    /'
	echo "terraform validate failed as it should"
}

if [[ -z "${EXAMPLES:-}" ]]; then
negative unknown-argument examples/training-cluster main.tf \
	'^resource "azurerm_linux_virtual_machine_scale_set"' \
	'not_an_azurerm_argument = true' \
	'An argument named "not_an_azurerm_argument" is not expected here' ||
	failed+=("negative test: unknown argument")

negative invalid-value examples/aks-gpu-node-pool main.tf \
	'^resource "azurerm_kubernetes_cluster_node_pool"' \
	'gpu_instance = "MIG9g"' \
	'expected gpu_instance to be one of' ||
	failed+=("negative test: invalid value")
fi

section "Summary"
if [[ ${#failed[@]} -gt 0 ]]; then
	printf 'FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
negatives="2 negative tests passed"
[[ -n "${EXAMPLES:-}" ]] && negatives="negative tests skipped (EXAMPLES set)"
echo "${#examples[@]} examples validated (${examples[*]}) and ${negatives} in $((SECONDS - start))s"
