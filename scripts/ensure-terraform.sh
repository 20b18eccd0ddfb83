#!/usr/bin/env bash
# Prints the absolute path of a usable Terraform CLI on stdout, and nothing else.
#
# The acceptance tests (terraform-plugin-testing) and the docs generator
# (tfplugindocs) both download a Terraform release when they find none, and
# that fails offline. This script makes sure they never have to:
#
#   1. TF_ACC_TERRAFORM_PATH, if it is set and names an executable file;
#   2. otherwise the `terraform` on PATH (`command -v terraform`);
#   3. otherwise Terraform built from source through the Go module proxy,
#      cached in <repo>/.cache/terraform/bin/terraform:
#        GOBIN=<repo>/.cache/terraform/bin go install github.com/hashicorp/terraform@v1.8.5
#
# v1.8.5 is the default because provider-defined functions need Terraform 1.8:
# with an older CLI the function tests skip (tfversion.SkipBelow(1.8.0)) and
# tfplugindocs leaves the function pages out of docs/, so `make docs-check`
# fails. Its go.mod has no replace directives, which `go install pkg@version`
# requires (v1.11.4's has, so it cannot be built this way). Built like this it
# calls itself "Terraform v1.8.5-dev"; terraform-plugin-testing compares the
# core version (1.8.5) and runs the function tests, and `make generate` gives
# the same docs/ as a release CLI. No GOFLAGS are needed (-mod=mod works too;
# -mod=vendor breaks it and is dropped below). Like every release after
# v1.5.7, v1.8.5 is under the Business Source License 1.1 (see its LICENSE in
# the module cache); v1.5.7 is the last MPL-2.0 release. Override the version
# with HPCSKU_TERRAFORM_VERSION, for example v1.5.7, which skips everything that
# needs 1.8. A cached binary of another version is rebuilt.
#
# Timing of step 3 for v1.8.5 on this 2-core machine (go1.26.8, CGO_ENABLED=0),
# measured while other jobs kept the load average at 7-11, so an idle machine
# is faster; the CPU time is the steadier figure:
#   5m42s  with an empty Go module cache and an empty build cache (214 modules
#          downloaded), i.e. a fresh CI machine; 3m37s user + 41s system CPU;
#   6m14s  with the modules already in the Go module cache but an empty build
#          cache; 3m29s user + 41s system CPU;
#     25s  with both caches warm (a fresh clone on a used machine);
#   0.05s  once the binary is cached (it is 124 MB).
#
# Progress and errors go to stderr, so `tf="$(scripts/ensure-terraform.sh)"`
# captures only the path.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
version="${HPCSKU_TERRAFORM_VERSION:-v1.8.5}"
cache_bin_dir="${repo_root}/.cache/terraform/bin"
cached="${cache_bin_dir}/terraform"

log() { printf 'ensure-terraform: %s\n' "$*" >&2; }

abs_path() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(cd "$(dirname "$1")" && pwd -P)" "$(basename "$1")" ;;
	esac
}

# 1. An explicit choice.
if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && -x "${TF_ACC_TERRAFORM_PATH}" && ! -d "${TF_ACC_TERRAFORM_PATH}" ]]; then
	abs_path "${TF_ACC_TERRAFORM_PATH}"
	exit 0
fi

# 2. The terraform on PATH.
if on_path="$(command -v terraform 2>/dev/null)" && [[ -n "${on_path}" && -x "${on_path}" ]]; then
	abs_path "${on_path}"
	exit 0
fi

# 3. The cached build, if it is the wanted version.
if [[ -x "${cached}" ]]; then
	cached_version="$(CHECKPOINT_DISABLE=1 "${cached}" version 2>/dev/null || true)"
	cached_version="${cached_version%%$'\n'*}"
	if [[ "${cached_version}" == "Terraform ${version}" || "${cached_version}" == "Terraform ${version}-dev" ]]; then
		printf '%s\n' "${cached}"
		exit 0
	fi
	log "cached ${cached} is '${cached_version}', not Terraform ${version}; rebuilding it"
fi

if ! command -v go >/dev/null 2>&1; then
	log "no terraform on PATH and no go to build one; install Terraform or Go"
	exit 1
fi

log "no terraform on PATH; building Terraform ${version} from the Go module proxy into ${cache_bin_dir} (a few minutes, once)"

# `go install pkg@version` refuses -mod=vendor ("cannot query module due to
# -mod=vendor"), so drop any -mod flag the caller's GOFLAGS may carry. Build in
# a private directory and move the binary into place, so that two concurrent
# runs never see a half-written file. CGO_ENABLED=0 gives a static binary and
# needs no C compiler.
goflags=""
for flag in ${GOFLAGS:-}; do
	case "${flag}" in
	-mod=*) ;;
	*) goflags="${goflags:+${goflags} }${flag}" ;;
	esac
done

mkdir -p "${cache_bin_dir}"
tmp_bin="$(mktemp -d "${repo_root}/.cache/terraform/install.XXXXXX")"
trap 'rm -rf "${tmp_bin}"' EXIT

start=${SECONDS}
# Run outside the repository so that its go.mod plays no part.
if ! (cd "${tmp_bin}" && GOFLAGS="${goflags}" GOBIN="${tmp_bin}" CGO_ENABLED=0 \
	go install "github.com/hashicorp/terraform@${version}") >&2; then
	log "go install github.com/hashicorp/terraform@${version} failed"
	exit 1
fi
mv -f "${tmp_bin}/terraform" "${cached}"
log "built ${cached} in $((SECONDS - start))s"

if ! CHECKPOINT_DISABLE=1 "${cached}" version >/dev/null 2>&1; then
	log "${cached} does not run"
	exit 1
fi
printf '%s\n' "${cached}"
