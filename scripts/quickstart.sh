#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Builds the provider from source and runs examples/quickstart with it, offline.
#
#   1. go build -o .cache/bin/terraform-provider-hpcsku .
#   2. A Terraform CLI configuration in a temporary directory, with
#        provider_installation { dev_overrides { "registry.terraform.io/hpcsku/hpcsku" = "<repo>/.cache/bin" } direct {} }
#      exported as TF_CLI_CONFIG_FILE. With every provider of the configuration
#      overridden, `terraform init` is not needed, and nothing is downloaded.
#   3. terraform -chdir=examples/quickstart plan, then apply into a state file in
#      the temporary directory, then terraform output.
#
# Leaves nothing in the repository but .cache/ (ignored by git): plan writes no
# state; apply writes its state, and Terraform its TF_DATA_DIR, into the
# temporary directory, which is removed on exit; no lock file is written
# because init never runs.
#
# Uses the Terraform from scripts/ensure-terraform.sh. Set QUICKSTART_DIR to run
# another configuration (a path relative to the repository root, or absolute).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${repo_root}"

example_dir="${QUICKSTART_DIR:-examples/quickstart}"
bin_dir="${repo_root}/.cache/bin"

section() { printf '\n==> %s\n' "$*"; }

if [[ ! -f "${example_dir}/main.tf" ]]; then
	echo "quickstart: ${example_dir}/main.tf not found" >&2
	exit 1
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/hpcsku-quickstart.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

section "Terraform CLI"
tf="$(bash scripts/ensure-terraform.sh)"
CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "${tf}" version | head -n 1 || true
echo "(${tf})"

section "Building terraform-provider-hpcsku into ${bin_dir}"
mkdir -p "${bin_dir}"
go build -o "${bin_dir}/terraform-provider-hpcsku" .

cat >"${tmp}/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hpcsku/hpcsku" = "${bin_dir}"
  }
  direct {}
}
EOF

export TF_CLI_CONFIG_FILE="${tmp}/terraformrc"
export TF_DATA_DIR="${tmp}/data"
export TF_IN_AUTOMATION=1
export TF_INPUT=0
export CHECKPOINT_DISABLE=1
# No plugin cache or other settings from the caller's environment.
unset TF_PLUGIN_CACHE_DIR TF_CLI_ARGS TF_CLI_ARGS_plan TF_CLI_ARGS_apply TF_CLI_ARGS_output TF_WORKSPACE

color=()
if [[ ! -t 1 ]]; then
	color=(-no-color)
fi

state="${tmp}/terraform.tfstate"

section "terraform plan (${example_dir})"
"${tf}" -chdir="${example_dir}" plan -input=false -lock=false -compact-warnings ${color[@]+"${color[@]}"}

section "terraform apply (state in a temporary directory, removed afterwards)"
if ! "${tf}" -chdir="${example_dir}" apply -input=false -lock=false -auto-approve -compact-warnings \
	-state="${state}" ${color[@]+"${color[@]}"} >"${tmp}/apply.log" 2>&1; then
	cat "${tmp}/apply.log" >&2
	exit 1
fi
grep -E '^Apply complete' "${tmp}/apply.log" || true

section "Outputs"
"${tf}" -chdir="${example_dir}" output -state="${state}" ${color[@]+"${color[@]}"}
