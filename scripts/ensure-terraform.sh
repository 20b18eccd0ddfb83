#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Prints the absolute path of a usable Terraform CLI on stdout, and nothing else.
#
#   bash scripts/ensure-terraform.sh            the default Terraform (below)
#   bash scripts/ensure-terraform.sh 1.8.5      Terraform 1.8.5 exactly ("v1.8.5" works too)
#   bash scripts/ensure-terraform.sh current    a current Terraform 1.x
#
# The acceptance tests (terraform-plugin-testing) and the docs generator
# (tfplugindocs) both download a Terraform release when they find none, and
# that fails offline. This script makes sure they never have to. Nothing is
# downloaded but Go modules, from the Go module proxy.
#
# Without an argument:
#   1. TF_ACC_TERRAFORM_PATH, if it is set and names an executable file;
#   2. otherwise the `terraform` on PATH (`command -v terraform`);
#   3. otherwise Terraform ${HPCSKU_TERRAFORM_VERSION:-1.8.5}, as for a version.
# With a version: TF_ACC_TERRAFORM_PATH or the `terraform` on PATH if it is that
#   version, otherwise <repo>/.cache/terraform/<version>/terraform, built from
#   the Go module proxy on first use (see "Building" below).
# With `current`: the `terraform` on PATH if it is a 1.x no older than 1.8.0,
#   otherwise Terraform ${HPCSKU_TERRAFORM_CURRENT:-1.11.4} as for a version.
#
# 1.8.5 is the default because provider-defined functions need Terraform 1.8:
# with an older CLI the function tests skip (tfversion.SkipBelow(1.8.0)) and
# tfplugindocs leaves the function pages out of docs/, so `make docs-check`
# fails. 1.11.4 is the newest 1.x that builds from the Go module proxy this
# project's CI uses (see "Building"). Like every release after v1.5.7, both are
# under the Business Source License 1.1 (see LICENSE in the module cache);
# v1.5.7 is the last MPL-2.0 release. Built from source, Terraform calls itself
# "Terraform v1.8.5-dev"; terraform-plugin-testing compares the core version
# (1.8.5) and runs the function tests, and `make generate` gives the same
# docs/ as a release CLI.
#
# Building. A release whose go.mod has no replace directives (1.8.5 and older)
# is built with
#   GOBIN=<dir> CGO_ENABLED=0 go install github.com/hashicorp/terraform@v<version>
# Since 1.9 Terraform keeps a few packages (internal/legacy and the remote-state
# backends) in nested modules, which its go.mod replaces with local directories
# and which the release's module zip leaves out, so `go install pkg@version`
# refuses it. Those nested modules are served by the Go module proxy at
# pseudo-versions of the release commit; the script then builds
# github.com/hashicorp/terraform from a temporary module that requires the
# release and replaces each nested module with that pseudo-version. The commit
# comes from the proxy's Origin record when it has one, otherwise from the
# table `release_commits` below. The proxy used here serves the nested modules
# only at the commits of v1.9.5 and v1.11.4 (for example, those of v1.14.8,
# v1.15.8 and v1.16.0 are refused), hence 1.11.4 as `current`.
#
# Timing on this 2-core machine (go1.26.8, CGO_ENABLED=0), with other jobs
# running, so an idle machine is faster; CPU time is the steadier figure:
#   1.8.5, empty Go module and build caches: 5m42s (3m37s user + 41s system CPU);
#          modules cached, empty build cache: 6m14s; both caches warm: 25s;
#   1.11.4, empty caches: see README.md ("Continuous integration");
#   a cached binary: 0.05s (the binaries are 120-130 MB).
#
# Progress and errors go to stderr, so `tf="$(scripts/ensure-terraform.sh)"`
# captures only the path.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
default_version="${HPCSKU_TERRAFORM_VERSION:-1.8.5}"
current_version="${HPCSKU_TERRAFORM_CURRENT:-1.11.4}"
oldest_current="1.8.0"
module="github.com/hashicorp/terraform"

# Commits of releases whose nested modules must be replaced, for a proxy that
# does not say which commit a release is (the 12-hex-digit prefix is enough).
# From https://github.com/hashicorp/terraform/releases/tag/v<version>.
declare -A release_commits=(
	[1.9.5]=2770cb376c53
	[1.11.4]=35645b8fca68
)

log() { printf 'ensure-terraform: %s\n' "$*" >&2; }

usage() {
	echo "usage: bash scripts/ensure-terraform.sh [<version> | current]" >&2
	exit 2
}

abs_path() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(cd "$(dirname "$1")" && pwd -P)" "$(basename "$1")" ;;
	esac
}

# tf_version <binary>: its core version ("1.8.5" for "1.8.5-dev"), or nothing.
tf_version() {
	local out
	out="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "$1" version -json 2>/dev/null || true)"
	out="$(printf '%s\n' "${out}" | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p')"
	printf '%s\n' "${out%%-*}"
}

# version_at_least <a> <b>: a >= b, both x.y.z.
version_at_least() { [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | sed -n 1p)" == "$2" ]]; }

# on_path: the terraform on PATH, or nothing.
on_path() {
	local found
	if found="$(command -v terraform 2>/dev/null)" && [[ -n "${found}" && -x "${found}" && ! -d "${found}" ]]; then
		abs_path "${found}"
	fi
}

# explicit: TF_ACC_TERRAFORM_PATH, if it names an executable file.
explicit() {
	if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && -x "${TF_ACC_TERRAFORM_PATH}" && ! -d "${TF_ACC_TERRAFORM_PATH}" ]]; then
		abs_path "${TF_ACC_TERRAFORM_PATH}"
	fi
}

# go_flags: the caller's GOFLAGS without -mod flags, which `go install
# pkg@version` refuses ("cannot query module due to -mod=vendor").
go_flags() {
	local flag out=""
	for flag in ${GOFLAGS:-}; do
		case "${flag}" in
		-mod=*) ;;
		*) out="${out:+${out} }${flag}" ;;
		esac
	done
	printf '%s\n' "${out}"
}

# json_field <name> <file>: the first string field <name> in a JSON file
# written by the go command (one field a line) or the proxy (one line).
json_field() { sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$2" | sed -n 1p; }

# build <version> <staging dir>: writes <staging dir>/terraform.
build() {
	local version="$1" staging="$2" goflags info gomod go_directive commit time stamp pseudo nested
	goflags="$(go_flags)"
	info="${staging}/download.json"
	# Outside the repository, so that its go.mod plays no part.
	if ! (cd "${staging}" && GOFLAGS="${goflags}" GOWORK=off go mod download -json "${module}@v${version}") >"${info}"; then
		log "go mod download ${module}@v${version} failed:"
		cat "${info}" >&2
		return 1
	fi
	gomod="$(json_field GoMod "${info}")"
	if ! grep -Eq '=>[[:space:]]*\.\.?/' "${gomod}"; then
		(cd "${staging}" && GOFLAGS="${goflags}" GOWORK=off GOBIN="${staging}" CGO_ENABLED=0 \
			go install "${module}@v${version}") >&2
		return
	fi

	commit="$(json_field Hash "${info}")"
	commit="${commit:0:12}"
	if [[ -z "${commit}" ]]; then
		commit="${release_commits[${version}]:-}"
	fi
	if [[ -z "${commit}" ]]; then
		log "${module}@v${version} keeps nested modules, and neither the proxy nor this script knows its commit; add it to release_commits"
		return 1
	fi
	time="$(json_field Time "$(json_field Info "${info}")")"
	stamp="$(date -u -d "${time}" +%Y%m%d%H%M%S)"
	pseudo="v0.0.0-${stamp}-${commit}"
	go_directive="$(sed -n 's/^go \([0-9.]*\).*/\1/p' "${gomod}")"
	{
		printf 'module hpcsku.invalid/terraform-build\n\ngo %s\n\nrequire %s v%s\n\n' "${go_directive}" "${module}" "${version}"
		while IFS= read -r nested; do
			printf 'replace %s => %s %s\n' "${nested}" "${nested}" "${pseudo}"
		done < <(sed -n "s#^[[:space:]]*\\(replace[[:space:]]\\+\\)\\?\\(${module}/[^[:space:]]*\\)[[:space:]]*=>[[:space:]]*\\.\\.\\?/.*#\\2#p" "${gomod}")
	} >"${staging}/go.mod"
	log "${module}@v${version} keeps nested modules; building it with them at ${pseudo}"
	(cd "${staging}" && GOFLAGS="${goflags:+${goflags} }-mod=mod" GOWORK=off CGO_ENABLED=0 \
		go build -o "${staging}/terraform" "${module}") >&2
}

# ensure_version <version>: prints a Terraform of that version.
ensure_version() {
	local version="${1#v}" candidate cache_dir cached tmp start
	if [[ ! "${version}" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
		log "not a Terraform version: $1"
		usage
	fi
	for candidate in "$(explicit)" "$(on_path)"; do
		if [[ -n "${candidate}" && "$(tf_version "${candidate}")" == "${version}" ]]; then
			printf '%s\n' "${candidate}"
			return
		fi
	done

	cache_dir="${repo_root}/.cache/terraform/${version}"
	cached="${cache_dir}/terraform"
	if [[ -x "${cached}" ]]; then
		if [[ "$(tf_version "${cached}")" == "${version}" ]]; then
			printf '%s\n' "${cached}"
			return
		fi
		log "${cached} does not report Terraform ${version}; rebuilding it"
	fi
	if ! command -v go >/dev/null 2>&1; then
		log "Terraform ${version} is not on PATH and there is no go to build it; install either"
		exit 1
	fi

	log "building Terraform ${version} from the Go module proxy into ${cache_dir} (a few minutes, once)"
	mkdir -p "${cache_dir}"
	# A private directory, then a rename: concurrent runs never see a half-written binary.
	tmp="$(mktemp -d "${cache_dir}/build.XXXXXX")"
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '${tmp}'" EXIT
	start=${SECONDS}
	if ! build "${version}" "${tmp}"; then
		log "building Terraform ${version} failed"
		exit 1
	fi
	mv -f "${tmp}/terraform" "${cached}"
	log "built ${cached} in $((SECONDS - start))s"
	if [[ "$(tf_version "${cached}")" != "${version}" ]]; then
		log "${cached} does not run or does not report Terraform ${version}"
		exit 1
	fi
	printf '%s\n' "${cached}"
}

case "$#:${1:-}" in
0:)
	found="$(explicit)"
	[[ -n "${found}" ]] || found="$(on_path)"
	if [[ -n "${found}" ]]; then
		printf '%s\n' "${found}"
	else
		ensure_version "${default_version}"
	fi
	;;
1:current)
	found="$(on_path)"
	if [[ -n "${found}" ]]; then
		found_version="$(tf_version "${found}")"
		if [[ "${found_version}" == 1.* ]] && version_at_least "${found_version}" "${oldest_current}"; then
			printf '%s\n' "${found}"
			exit 0
		fi
		log "the terraform on PATH (${found}) is ${found_version:-of unknown version}, not a 1.x from ${oldest_current} on; using Terraform ${current_version}"
	fi
	ensure_version "${current_version}"
	;;
1:-h | 1:--help) usage ;;
1:*) ensure_version "$1" ;;
*) usage ;;
esac
