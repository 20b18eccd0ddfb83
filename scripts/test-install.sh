#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Installs the provider the two ways a user gets a released one, and plans a
# configuration outside the repository with each, offline and without
# dev_overrides:
#
#   1. `make install` with HOME set to a temporary directory, which puts the
#      binary into $HOME/.terraform.d/plugins/registry.terraform.io/hpcsku/hpcsku/
#      <version>/<os>_<arch>/, one of Terraform's implied local mirror
#      directories. The version is `make version` (CHANGELOG.md's first heading)
#      and the binary must report it (`-version`, set by -X main.version).
#   2. A configuration in a temporary directory requiring
#        hpcsku = { source = "hpcsku/hpcsku", version = "<version>" }
#      with no CLI configuration at all: `terraform init`, then `terraform plan`.
#   3. The same binary packed as a release is, with the names .goreleaser.yml
#      gives (project_name, builds' binary, archives', checksum's and the
#      manifest's name_template): <project>_<version>_<os>_<arch>.zip holding
#      <project>_v<version>, <project>_<version>_SHA256SUMS and
#      <project>_<version>_manifest.json (terraform-registry-manifest.json);
#      the zip holds nothing else, as archives' `files: [none*]` says.
#   4. A CLI configuration whose provider_installation has only a
#      filesystem_mirror holding that zip in the packed layout
#      (registry.terraform.io/hpcsku/hpcsku/<zip>), HOME an empty directory:
#      `terraform init` and `terraform plan` of the same configuration.
#
# Each init must install hpcsku/hpcsku <version> and record it in the lock
# file, each plan must show the provider's answer, and no output may carry
# Terraform's dev_overrides warning. Both lock files must record the same
# package hash (h1:), which covers file names and contents: the archive holds
# what `make install` installs. README.md's Install section must require the
# same version. Terraform runs with HTTPS_PROXY and HTTP_PROXY at a closed
# local port, so any attempt to reach a registry fails the script even on a
# machine with network access.
#
# Writes only into one temporary directory, removed on exit, and the Go build
# and module caches (the caller's, whatever HOME is). Uses the Terraform from
# scripts/ensure-terraform.sh; needs make, zip and sha256sum (or shasum).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${repo_root}"
exec </dev/null

provider_address="registry.terraform.io/hpcsku/hpcsku"
overrides_warning="Provider development overrides are in effect"

section() { printf '\n==> %s\n' "$*"; }
fail() {
	printf 'test-install: FAIL: %s\n' "$*" >&2
	exit 1
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/hpcsku-install.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

tf="$(bash scripts/ensure-terraform.sh)"
version="$(make --no-print-directory -s version)"
[[ "${version}" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "make version printed '${version}', not a version"
goos="$(go env GOOS)"
goarch="$(go env GOARCH)"
goexe="$(go env GOEXE)"
target="${goos}_${goarch}"
grep -qE "^ *version *= *\"${version//./\\.}\"\$" README.md ||
	fail "README.md's Install section does not require version = \"${version}\""
echo "Provider ${provider_address} ${version} for ${target}; Terraform ${tf}"

# The Go settings and caches stay the caller's when HOME moves.
for var in GOENV GOCACHE GOMODCACHE GOPATH; do
	export "${var}=$(go env "${var}")"
done

# Terraform sees no CLI configuration, plugin cache or arguments from the caller.
unset TF_CLI_CONFIG_FILE TF_PLUGIN_CACHE_DIR TF_DATA_DIR TF_WORKSPACE TF_CLI_ARGS \
	TF_CLI_ARGS_init TF_CLI_ARGS_plan XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0

# tf_offline <home> <cli config or ""> <args>...: runs Terraform with that HOME,
# and no network: a proxy on a port nothing listens on.
tf_offline() {
	local home="$1" config="$2"
	shift 2
	env HOME="${home}" ${config:+TF_CLI_CONFIG_FILE="${config}"} \
		HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
		http_proxy=http://127.0.0.1:9 NO_PROXY= no_proxy= "${tf}" "$@"
}

# write_config <dir>: a configuration requiring hpcsku/hpcsku at the version.
write_config() {
	mkdir -p "$1"
	cat >"$1/main.tf" <<EOF
terraform {
  required_providers {
    hpcsku = {
      source  = "hpcsku/hpcsku"
      version = "${version}"
    }
  }
}

data "hpcsku_sku" "h100" {
  name = "Standard_ND96isr_H100_v5"
}

output "h100_gpu_count" {
  value = data.hpcsku_sku.h100.sku.gpu.count
}
EOF
}

# check_output <log> <what>: fails on the dev_overrides warning.
check_output() {
	if grep -qF "${overrides_warning}" "$1"; then
		cat "$1" >&2
		fail "$2 printed the dev_overrides warning"
	fi
}

# init_and_plan <label> <home> <cli config or ""> <dir>
init_and_plan() {
	local label="$1" home="$2" config="$3" dir="$4" log
	log="${tmp}/${label}"
	section "${label}: terraform init (${dir})"
	if ! tf_offline "${home}" "${config}" -chdir="${dir}" init -input=false -no-color >"${log}.init" 2>&1; then
		cat "${log}.init" >&2
		fail "${label}: terraform init failed"
	fi
	cat "${log}.init"
	check_output "${log}.init" "${label}: terraform init"
	grep -qF "Installed hpcsku/hpcsku v${version}" "${log}.init" ||
		fail "${label}: terraform init did not install hpcsku/hpcsku v${version}"
	grep -qF "provider \"${provider_address}\"" "${dir}/.terraform.lock.hcl" &&
		grep -qE "^ *version *= *\"${version//./\\.}\"\$" "${dir}/.terraform.lock.hcl" ||
		fail "${label}: the lock file does not record ${provider_address} ${version}"

	section "${label}: terraform plan"
	if ! tf_offline "${home}" "${config}" -chdir="${dir}" plan -input=false -lock=false -no-color >"${log}.plan" 2>&1; then
		cat "${log}.plan" >&2
		fail "${label}: terraform plan failed"
	fi
	cat "${log}.plan"
	check_output "${log}.plan" "${label}: terraform plan"
	grep -qE '^ *\+ h100_gpu_count *= *8$' "${log}.plan" ||
		fail "${label}: the plan does not show the provider's answer (h100_gpu_count = 8)"
}

section "make install, HOME=${tmp}/home"
mkdir -p "${tmp}/home"
HOME="${tmp}/home" make --no-print-directory install
binary="${tmp}/home/.terraform.d/plugins/${provider_address}/${version}/${target}/terraform-provider-hpcsku_v${version}${goexe}"
[[ -x "${binary}" ]] || fail "make install did not write ${binary}"
reported="$("${binary}" -version)"
[[ "${reported}" == "${version}" ]] || fail "${binary} -version printed '${reported}', not ${version}"

write_config "${tmp}/implied"
init_and_plan "implied-mirror" "${tmp}/home" "" "${tmp}/implied"

section "Release archive layout, with the names of .goreleaser.yml"
# goreleaser <key> [<section>]: the value of the first `key:` in the file, or
# in that top-level section of it, unquoted.
goreleaser() {
	awk -v key="$1" -v want="${2:-}" '
		/^[a-z_]+:/ { section = $1; sub(/:$/, "", section) }
		want != "" && section != want { next }
		$1 == key ":" {
			sub(/^[^:]*:[ \t]*/, ""); gsub(/^"|"$/, ""); print; exit
		}' .goreleaser.yml
}
# render <template>: a GoReleaser name template for this build.
render() {
	local out
	out="$(printf '%s\n' "$1" | sed \
		-e "s/{{ *\.ProjectName *}}/${project}/g" -e "s/{{ *\.Version *}}/${version}/g" \
		-e "s/{{ *\.Os *}}/${goos}/g" -e "s/{{ *\.Arch *}}/${goarch}/g")"
	[[ -n "${out}" && "${out}" != *"{{"* ]] || fail ".goreleaser.yml: cannot render the name template '$1'"
	printf '%s\n' "${out}"
}
project="$(goreleaser project_name)"
[[ -n "${project}" ]] || fail ".goreleaser.yml names no project_name; archives would take the clone's directory name"
archive="$(render "$(goreleaser name_template archives)").zip"
packed_binary="$(render "$(goreleaser binary builds)")${goexe}"
sums="$(render "$(awk '/^checksum:/ { in_checksum = 1; next } /^[a-z_]+:/ { in_checksum = 0 }
	in_checksum && /^  name_template:/ { sub(/^[^:]*:[ \t]*/, ""); gsub(/^"|"$/, ""); print; exit }' .goreleaser.yml)")"
manifest="$(render "$(goreleaser name_template release)")"
# The files the archive holds besides the binary: none (see lock_hashes below).
extra_files="$(awk '/^[a-z_]+:/ { section = $1 }
	section == "archives:" && /^ *files:/ { in_files = 1; next }
	in_files && /^ *- / { sub(/^ *- */, ""); gsub(/"/, ""); print; next }
	in_files { exit }' .goreleaser.yml)"
[[ "${extra_files}" == "none*" ]] ||
	fail ".goreleaser.yml's archives add ${extra_files:-the default README, LICENSE and CHANGELOG} to the binary (want files: [none*])"
echo "archive ${archive} holding ${packed_binary}; ${sums}; ${manifest}"

dist="${tmp}/dist"
mkdir -p "${dist}/pack"
cp "${binary}" "${dist}/pack/${packed_binary}"
(cd "${dist}/pack" && zip -q -X "${dist}/${archive}" "${packed_binary}")
cp terraform-registry-manifest.json "${dist}/${manifest}"
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$@"; }
else
	sha256() { shasum -a 256 "$@"; }
fi
(cd "${dist}" && sha256 "${archive}" "${manifest}" >"${sums}")
cat "${dist}/${sums}"
(cd "${dist}" && sha256 -c "${sums}" >/dev/null) || fail "${sums} does not match the files it lists"

mirror="${tmp}/mirror"
mkdir -p "${mirror}/${provider_address}"
cp "${dist}/${archive}" "${mirror}/${provider_address}/"
cat >"${tmp}/mirror.tfrc" <<EOF
provider_installation {
  filesystem_mirror {
    path    = "${mirror}"
    include = ["${provider_address}"]
  }
}
EOF
mkdir -p "${tmp}/empty-home"
write_config "${tmp}/packed"
init_and_plan "filesystem-mirror" "${tmp}/empty-home" "${tmp}/mirror.tfrc" "${tmp}/packed"
# Terraform's h1: hash covers the package's file names and contents: the
# archive must hold what `make install` installs, under the same name and
# nothing else (.goreleaser.yml's `files: [none*]`), so that one lock file
# serves both.
lock_hashes() { grep -o '"h1:[^"]*"' "$1/.terraform.lock.hcl" | sort; }
[[ -n "$(lock_hashes "${tmp}/implied")" ]] || fail "the lock file records no h1: hash"
[[ "$(lock_hashes "${tmp}/packed")" == "$(lock_hashes "${tmp}/implied")" ]] ||
	fail "the archive's package hash differs from that of the make install directory: $(lock_hashes "${tmp}/packed") vs $(lock_hashes "${tmp}/implied")"

section "test-install: passed (hpcsku/hpcsku ${version}, ${target})"
