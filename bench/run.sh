#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Plan-time cost of the hpcsku provider against two floors. See bench/README.md.
#
# For each N in BENCH_N (default "1 10 100") it writes four configurations into
# a temporary directory:
#   hpcsku  N data "hpcsku_recommendation" with varied, valid workloads
#   sku     N data "hpcsku_sku", sizes looked up by name (the guardrail path)
#   floor   N data "floor_echo" of bench/floor, a framework provider that only
#           echoes its input (the cost of any framework provider)
#   tfdata  N resource "terraform_data" (built into Terraform, no plugin)
# and, at the largest N only, four more of hpcsku_recommendation, timed in the
# same rounds:
#   models  N data sources cycling training, inference and fine_tuning of 1B to
#           100B generative models, without a region
#   max1, max5, max20
#           the hpcsku configuration with max_results = 1, 5 and 20 on every
#           data source: the plan time per recommendation returned
# builds both providers from source, points dev_overrides at them (no
# `terraform init`, nothing downloaded), runs `terraform plan` BENCH_RUNS times
# (default 7) per configuration, alternating hpcsku, sku, floor, tfdata within each
# round, and prints the median wall times and the ratios hpcsku/floor and
# hpcsku/tfdata.
#
# A second, untimed pass measures the hpcsku provider process's peak RSS and
# splits each plan's CPU time between Terraform and the provider: dev_overrides
# then points at wrappers named terraform-provider-hpcsku and
# terraform-provider-floor that run the real binaries under GNU time (same
# stdin, stdout and stderr, so the go-plugin handshake is untouched), which
# appends "%M %U %S" (peak RSS in KiB, user and system seconds) for every
# provider process Terraform starts; Terraform itself runs under GNU time too.
# The wrappers cost a fork and an exec, so they are kept out of the timed runs.
# Then the state one data source writes: `terraform apply` of the quickstart's
# recommendation (7B fine-tuning on AKS in eastus) and of hpcsku_catalog with
# no filter, each into a state file of its own, measured as the length of
# Python's json.dumps of the data source's attributes (python3 is needed for
# this step only; without it the step is skipped).
# Last, µs per recommendation from `go test -bench BenchmarkRecommend`.
#
# Needs bash 5, Go, GNU time (/usr/bin/time; `apt-get install time`) and a
# Terraform CLI (scripts/ensure-terraform.sh: the one on PATH, or one built
# from the Go module proxy). Exits 1 when a target is missed at the largest N
# (hpcsku/floor or models/floor > 3.0, or peak RSS > 60 MiB); BENCH_NO_FAIL=1
# only reports.
#
#   BENCH_N="1 10 100"  BENCH_RUNS=7  BENCH_KEEP=1 (keep the temporary directory)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${repo_root}"

read -r -a ns <<<"${BENCH_N:-1 10 100}"
runs="${BENCH_RUNS:-7}"
max_ratio="3.0"
max_rss_mib="60"
gnu_time=/usr/bin/time

if ! "${gnu_time}" -f %M true >/dev/null 2>&1; then
	echo "bench: GNU time is needed at ${gnu_time} (Debian/Ubuntu: apt-get install time)" >&2
	exit 2
fi
tf="$(bash scripts/ensure-terraform.sh)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/hpcsku-bench.XXXXXX")"
if [[ -z "${BENCH_KEEP:-}" ]]; then
	trap 'rm -rf "${tmp}"' EXIT
else
	echo "bench: keeping ${tmp}" >&2
fi

log() { printf '%s\n' "$*" >&2; }

export TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
unset TF_PLUGIN_CACHE_DIR TF_CLI_ARGS TF_CLI_ARGS_plan TF_WORKSPACE TF_LOG TF_LOG_PROVIDER TF_LOG_CORE TF_LOG_PATH

# --- providers ---------------------------------------------------------------
bin="${tmp}/bin"
wrap_bin="${tmp}/wrap-bin"
mkdir -p "${bin}" "${wrap_bin}"
log "bench: building terraform-provider-hpcsku and bench/floor"
go build -o "${bin}/terraform-provider-hpcsku" .
go build -o "${bin}/terraform-provider-floor" ./bench/floor

for p in hpcsku floor; do
	cat >"${wrap_bin}/terraform-provider-${p}" <<EOF
#!/bin/sh
exec ${gnu_time} -f '%M %U %S' -a -o '${tmp}/usage-${p}.txt' '${bin}/terraform-provider-${p}' "\$@"
EOF
	chmod +x "${wrap_bin}/terraform-provider-${p}"
done

terraformrc() { # $1: directory with both providers
	cat <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hpcsku/hpcsku" = "$1"
    "registry.terraform.io/hpcsku/floor"  = "$1"
  }
  direct {}
}
EOF
}
terraformrc "${bin}" >"${tmp}/terraformrc"
terraformrc "${wrap_bin}" >"${tmp}/terraformrc-wrap"

# --- configurations ----------------------------------------------------------
# Ten workloads, each valid on its own; i varies model sizes, cores and regions
# so that no two data sources of a configuration are the same.
recommendation() { # $1: index
	local i=$1 p regions=(eastus westeurope southcentralus westus2 northeurope)
	local region=${regions[$((i % 5))]}
	case $((i % 10)) in
	0) p="workload = \"inference\"
  model    = { parameters_billion = $((1 + i % 13)), precision = \"bf16\" }
  region   = \"${region}\"" ;;
	1) p="workload = \"training\"
  model    = { parameters_billion = $((7 + i % 64)) }" ;;
	2) p="workload = \"fine_tuning\"
  model    = { parameters_billion = $((7 + i % 7)), precision = \"bf16\" }
  target   = \"aks\"" ;;
	3) p="workload = \"hpc\"
  cores    = $((128 * (1 + i % 16)))
  target   = \"cyclecloud\"" ;;
	4) p="workload = \"htc\"
  cores    = $((64 * (1 + i % 8)))" ;;
	5) p="workload = \"visualization\"
  region   = \"${region}\"" ;;
	6) p="workload = \"data_processing\"
  gpu_memory_gib = $((16 + i % 48))" ;;
	7) p="workload = \"inference\"
  model    = { parameters_billion = 0.$((1 + i % 9)), class = \"small\" }" ;;
	8) p="workload     = \"training\"
  model        = { parameters_billion = $((13 + i % 20)) }
  gpu_vendor   = \"nvidia\"
  cuda_version = \"12.4\"" ;;
	9) p="workload    = \"inference\"
  model       = { parameters_billion = $((3 + i % 30)), precision = \"fp8\" }
  spot        = true
  region      = \"${region}\"
  max_results = 10" ;;
	esac
	printf 'data "hpcsku_recommendation" "r%d" {\n  %s\n}\n\n' "${i}" "${p}"
}

# One of the `models` configuration: training, inference and fine_tuning in
# turn, of generative models from 1B to 100B parameters, without a region.
model_job() { # $1: index
	local i=$1 workloads=(training inference fine_tuning) sizes=(1 3 7 8 13 34 70 100)
	printf 'data "hpcsku_recommendation" "m%d" {\n  workload = "%s"\n  model    = { parameters_billion = %d }\n}\n\n' \
		"${i}" "${workloads[$((i % 3))]}" "${sizes[$(((i / 3) % 8))]}"
}

# The hpcsku configuration with max_results = MAX_RESULTS on every data source.
recommendation_max() { # $1: index
	recommendation "$1" | sed -e '/max_results/d' -e "s/^}\$/  max_results = ${MAX_RESULTS}\n}/"
}

# The guardrail path: one size looked up by name, as a landing zone checks the
# sizes its modules name; every third one priced in a region.
lookup() { # $1: index
	local i=$1 names=(Standard_ND96isr_H100_v5 nc24ads_a100_v4 Standard_HB120rs_v3 Standard_NC4as_T4_v3
		Standard_HX176rs Standard_NV36ads_A10_v5 Standard_F72s_v2 Standard_NC24rs_v3 Standard_ND96amsr_A100_v4 Standard_HB176rs_v4)
	local region=""
	if ((i % 3 == 0)); then region=$'\n  region = "eastus"'; fi
	printf 'data "hpcsku_sku" "s%d" {\n  name = "%s"%s\n}\n\n' "${i}" "${names[$((i % 10))]}" "${region}"
}

# hpcsku_config N FUNCTION: an hpcsku configuration of FUNCTION 0 .. N-1.
hpcsku_config() {
	local n=$1 each=$2 i
	printf 'terraform {\n  required_providers {\n    hpcsku = { source = "hpcsku/hpcsku" }\n  }\n}\n\n'
	printf 'provider "hpcsku" {\n  as_of = "2026-11-01"\n}\n\n'
	for ((i = 0; i < n; i++)); do "${each}" "${i}"; done
}

write_configs() { # $1: N
	local n=$1 d i m
	mkdir -p "${tmp}/hpcsku-${n}" "${tmp}/sku-${n}" "${tmp}/models-${n}"
	hpcsku_config "${n}" recommendation >"${tmp}/hpcsku-${n}/main.tf"
	hpcsku_config "${n}" lookup >"${tmp}/sku-${n}/main.tf"
	hpcsku_config "${n}" model_job >"${tmp}/models-${n}/main.tf"
	for m in 1 5 20; do
		mkdir -p "${tmp}/max${m}-${n}"
		MAX_RESULTS=${m} hpcsku_config "${n}" recommendation_max >"${tmp}/max${m}-${n}/main.tf"
	done
	d="${tmp}/floor-${n}"
	mkdir -p "${d}"
	{
		printf 'terraform {\n  required_providers {\n    floor = { source = "hpcsku/floor" }\n  }\n}\n\n'
		for ((i = 0; i < n; i++)); do printf 'data "floor_echo" "e%d" {\n  input = "workload-%d"\n}\n\n' "${i}" "${i}"; done
	} >"${d}/main.tf"
	d="${tmp}/tfdata-${n}"
	mkdir -p "${d}"
	{
		for ((i = 0; i < n; i++)); do printf 'resource "terraform_data" "d%d" {\n  input = "workload-%d"\n}\n\n' "${i}" "${i}"; done
	} >"${d}/main.tf"
}

# plan DIR RC [PREFIX...]: one `terraform plan`, output in DIR/plan.log.
plan() {
	local dir=$1 rc=$2
	shift 2
	if ! TF_CLI_CONFIG_FILE="${rc}" TF_DATA_DIR="${dir}/.terraform" "$@" "${tf}" -chdir="${dir}" plan -input=false -lock=false -no-color \
		>"${dir}/plan.log" 2>&1; then
		log "bench: terraform plan failed in ${dir}:"
		tail -n 40 "${dir}/plan.log" >&2
		exit 1
	fi
}

# elapsed DIR: microseconds one plan takes, from bash's clock.
elapsed() {
	local t0 t1
	t0=${EPOCHREALTIME/./}
	plan "$1" "${tmp}/terraformrc"
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}

median() { # numbers on stdin, one per line; $1: divisor, $2: printf format
	sort -g | awk -v div="$1" -v fmt="$2" '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf fmt, m / div}'
}

kinds=(hpcsku sku floor tfdata)
extra_kinds=(models max1 max5 max20) # timed at the largest N only
last_n=${ns[${#ns[@]}-1]}
log "bench: $(TF_CLI_CONFIG_FILE=/dev/null "${tf}" version | sed -n 1p) (${tf}); $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${ns[@]}"; do
	write_configs "${n}"
	timed=("${kinds[@]}")
	if [[ ${n} == "${last_n}" ]]; then timed+=("${extra_kinds[@]}"); fi
	# One untimed plan each: checks the configuration and warms the page cache.
	for k in "${timed[@]}"; do plan "${tmp}/${k}-${n}" "${tmp}/terraformrc"; done
	for ((r = 0; r < runs; r++)); do
		for k in "${timed[@]}"; do elapsed "${tmp}/${k}-${n}" >>"${tmp}/times-${k}-${n}"; done
	done
	log "bench: N=${n} timed"
done

# --- peak RSS and CPU split --------------------------------------------------
# Per plan: the CPU seconds of the terraform process and of the provider
# processes it started (GNU time's figure for terraform includes them, as they
# are its children), and the largest provider RSS.
declare -A rss launches
for n in "${ns[@]}"; do
	for ((r = 0; r < 3; r++)); do
		for k in "${kinds[@]}"; do
			rm -f "${tmp}/usage-hpcsku.txt" "${tmp}/usage-floor.txt"
			plan "${tmp}/${k}-${n}" "${tmp}/terraformrc-wrap" "${gnu_time}" -f '%U %S' -o "${tmp}/usage-terraform.txt"
			awk '{s += $1 + $2} END {print s + 0}' "${tmp}/usage-terraform.txt" >>"${tmp}/cpu-total-${k}-${n}"
			pf="${tmp}/usage-${k}.txt"
			if [[ ${k} == sku ]]; then pf="${tmp}/usage-hpcsku.txt"; fi
			if [[ ${k} == tfdata ]]; then
				echo 0 >>"${tmp}/cpu-provider-${k}-${n}"
				continue
			fi
			if [[ ! -s ${pf} ]]; then
				log "bench: the ${k} wrapper recorded nothing (was the provider killed before it exited?)"
				exit 1
			fi
			awk '{s += $2 + $3} END {print s}' "${pf}" >>"${tmp}/cpu-provider-${k}-${n}"
			if [[ ${k} != floor ]]; then
				sort -n "${pf}" | tail -n 1 | cut -d' ' -f1 >>"${tmp}/rss-${n}"
			fi
			if [[ ${k} == hpcsku ]]; then
				launches[${n}]=$(wc -l <"${pf}")
			fi
		done
	done
	rss[${n}]=$(sort -n "${tmp}/rss-${n}" | tail -n 1)
	log "bench: N=${n} RSS and CPU measured"
done

# --- state of one data source ------------------------------------------------
# state_bytes NAME BODY: applies one data source into a state file of its own
# and prints the length of json.dumps of its attributes.
state_bytes() {
	local d="${tmp}/state-$1"
	mkdir -p "${d}"
	printf 'terraform {\n  required_providers {\n    hpcsku = { source = "hpcsku/hpcsku" }\n  }\n}\n\nprovider "hpcsku" {\n  as_of = "2026-11-22"\n}\n\n%s\n' "$2" >"${d}/main.tf"
	if ! TF_CLI_CONFIG_FILE="${tmp}/terraformrc" TF_DATA_DIR="${d}/.terraform" "${tf}" -chdir="${d}" apply -auto-approve -input=false -lock=false -no-color \
		>"${d}/apply.log" 2>&1; then
		log "bench: terraform apply failed in ${d}:"
		tail -n 40 "${d}/apply.log" >&2
		exit 1
	fi
	python3 -c 'import json, sys; print(len(json.dumps(json.load(open(sys.argv[1]))["resources"][0]["instances"][0]["attributes"])))' "${d}/terraform.tfstate"
}
state_quickstart="" state_catalog=""
if command -v python3 >/dev/null; then
	state_quickstart=$(state_bytes quickstart 'data "hpcsku_recommendation" "fine_tune" {
  workload = "fine_tuning"
  model    = { parameters_billion = 7, precision = "bf16" }
  target   = "aks"
  region   = "eastus"
}')
	state_catalog=$(state_bytes catalog 'data "hpcsku_catalog" "all" {}')
	log "bench: state measured"
else
	log "bench: no python3, state not measured"
fi

# --- engine cost -------------------------------------------------------------
log "bench: go test -bench BenchmarkRecommend ./internal/recommend"
bench_out="$(go test -run '^$' -bench '^BenchmarkRecommend$' -benchmem -count=1 ./internal/recommend)"
us_per_rec="$(awk '/^BenchmarkRecommend\// {sum += $3; n++} END {if (n) printf "%.1f", sum / n / 1000}' <<<"${bench_out}")"

# --- report ------------------------------------------------------------------
printf '\nterraform plan, median wall time of %d runs (seconds), alternating hpcsku, sku, floor, terraform_data\n\n' "${runs}"
printf '%6s  %8s  %8s  %8s  %14s  %12s  %21s  %9s  %14s\n' N hpcsku sku floor terraform_data hpcsku/floor hpcsku/terraform_data sku/floor "hpcsku RSS MiB"
for n in "${ns[@]}"; do
	h=$(median 1e6 %.3f <"${tmp}/times-hpcsku-${n}")
	u=$(median 1e6 %.3f <"${tmp}/times-sku-${n}")
	f=$(median 1e6 %.3f <"${tmp}/times-floor-${n}")
	d=$(median 1e6 %.3f <"${tmp}/times-tfdata-${n}")
	rf=$(awk -v a="${h}" -v b="${f}" 'BEGIN {printf "%.2f", a / b}')
	rd=$(awk -v a="${h}" -v b="${d}" 'BEGIN {printf "%.2f", a / b}')
	ru=$(awk -v a="${u}" -v b="${f}" 'BEGIN {printf "%.2f", a / b}')
	mib=$(awk -v k="${rss[${n}]}" 'BEGIN {printf "%.1f", k / 1024}')
	printf '%6s  %8s  %8s  %8s  %14s  %12s  %21s  %9s  %14s\n' "${n}" "${h}" "${u}" "${f}" "${d}" "${rf}" "${rd}" "${ru}" "${mib}"
	last_rf=${rf} last_mib=${mib}
done

printf '\nCPU seconds per plan (user + system, median of 3), whole plan / of it in the provider processes\n\n'
printf '%6s  %19s  %19s  %19s  %14s  %16s\n' N hpcsku sku floor terraform_data "hpcsku launches"
for n in "${ns[@]}"; do
	cells=()
	for k in "${kinds[@]}"; do
		t=$(median 1 %.2f <"${tmp}/cpu-total-${k}-${n}")
		p=$(median 1 %.2f <"${tmp}/cpu-provider-${k}-${n}")
		cells+=("${t} / ${p}")
	done
	printf '%6s  %19s  %19s  %19s  %14s  %16s\n' "${n}" "${cells[0]}" "${cells[1]}" "${cells[2]}" "${cells[3]% / *}" "${launches[${n}]}"
done

f_last=$(median 1e6 %.3f <"${tmp}/times-floor-${last_n}")
models=$(median 1e6 %.3f <"${tmp}/times-models-${last_n}")
models_rf=$(awk -v a="${models}" -v b="${f_last}" 'BEGIN {printf "%.2f", a / b}')
printf '\nAt N=%s: models (training, inference, fine_tuning of 1B-100B models, no region) %s s, models/floor %s\n' "${last_n}" "${models}" "${models_rf}"
printf '\nPlan time per recommendation at N=%s: (plan - floor plan) / (N x max_results)\n\n' "${last_n}"
printf '%12s  %8s  %16s  %20s\n' max_results "plan s" "ms per data source" "ms per recommendation"
for m in 1 5 20; do
	t=$(median 1e6 %.3f <"${tmp}/times-max${m}-${last_n}")
	awk -v t="${t}" -v f="${f_last}" -v n="${last_n}" -v m="${m}" 'BEGIN {x = (t - f) * 1000 / n; printf "%12d  %8.3f  %16.2f  %20.2f\n", m, t, x, x / m}'
done
if [[ -n "${state_quickstart}" ]]; then
	printf '\nState (json.dumps of the attributes): the quickstart recommendation %s bytes, hpcsku_catalog without filter %s bytes\n' "${state_quickstart}" "${state_catalog}"
fi

printf '\nBenchmarkRecommend (go test -bench, the embedded catalog):\n%s\n' "$(grep '^BenchmarkRecommend/' <<<"${bench_out}")"
printf 'mean: %s µs per recommendation\n' "${us_per_rec}"
printf '\n"hpcsku" is N hpcsku_recommendation data sources, "sku" N hpcsku_sku lookups (the guardrail path).\n'
printf '"launches" is how many provider processes Terraform started for one plan; the RSS is the largest of them.\n\n'

status=0
if awk -v r="${models_rf}" -v m="${max_ratio}" 'BEGIN {exit !(r > m)}'; then
	printf 'MISSED: models/floor at N=%s is %s, above %s\n' "${last_n}" "${models_rf}" "${max_ratio}"
	status=1
fi
if awk -v r="${last_rf}" -v m="${max_ratio}" 'BEGIN {exit !(r > m)}'; then
	printf 'MISSED: hpcsku/floor at N=%s is %s, above %s\n' "${last_n}" "${last_rf}" "${max_ratio}"
	status=1
fi
if awk -v r="${last_mib}" -v m="${max_rss_mib}" 'BEGIN {exit !(r > m)}'; then
	printf 'MISSED: hpcsku peak RSS at N=%s is %s MiB, above %s MiB\n' "${last_n}" "${last_mib}" "${max_rss_mib}"
	status=1
fi
if [[ ${status} -eq 0 ]]; then
	printf 'Targets met at N=%s: hpcsku/floor %s and models/floor %s <= %s, peak RSS %s MiB <= %s MiB\n' "${last_n}" "${last_rf}" "${models_rf}" "${max_ratio}" "${last_mib}" "${max_rss_mib}"
fi
if [[ -n "${BENCH_NO_FAIL:-}" ]]; then
	exit 0
fi
exit "${status}"
