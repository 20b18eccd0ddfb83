#!/usr/bin/env bash
# Copyright (c) The terraform-provider-hpcsku Authors
# SPDX-License-Identifier: MPL-2.0

# Licence headers on every .go, .sh and .tf file of the repository: the files
# git tracks plus new ones it does not ignore, less the header_ignore globs of
# .copywrite.hcl (where `*` also matches `/`).
#
#   bash scripts/headers.sh           adds the header to each file lacking it
#   bash scripts/headers.sh --check   lists the files lacking it; exits 1 if any
#   bash scripts/headers.sh [--check] FILE...
#                                     the same, for the named files among them
#
# The header is two comment lines, `//` in Go and `#` in shell and Terraform:
#   Copyright (c) <copyright_holder>
#   SPDX-License-Identifier: <license>
# with holder and licence read from .copywrite.hcl. A file has it when the
# SPDX line is among its first five lines. It goes first in a file, after the
# `#!` line in a script, and is followed by a blank line: before a Go file's
# `//go:build` line, which may follow other comments.
#
# hashicorp/copywrite reads the same .copywrite.hcl, but writes the year into
# every header and rewrites it from the git history, so it is not used here.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${repo_root}"

mode=add
if [[ "${1:-}" == --check ]]; then
	mode=check
	shift
fi
for arg in "$@"; do
	if [[ "${arg}" == -* ]]; then
		echo "usage: bash scripts/headers.sh [--check] [FILE...]" >&2
		exit 2
	fi
done

config=.copywrite.hcl
# hcl_string <key>: the quoted value of `key = "..."` in the config.
hcl_string() {
	sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\\([^\"]*\\)\".*/\\1/p" "${config}" | sed -n 1p
}
holder="$(hcl_string copyright_holder)"
license="$(hcl_string license)"
if [[ -z "${holder}" || -z "${license}" ]]; then
	echo "headers: ${config} must set project.copyright_holder and project.license" >&2
	exit 1
fi

# The quoted strings between `header_ignore = [` and `]`, comments skipped.
ignore=()
while IFS= read -r pattern; do
	ignore+=("${pattern}")
done < <(sed -n '/^[[:space:]]*header_ignore[[:space:]]*=[[:space:]]*\[/,/\]/p' "${config}" |
	sed -e 's/#.*//' | sed -n 's/^[[:space:]]*"\([^"]*\)".*/\1/p')

ignored() {
	local pattern
	for pattern in "${ignore[@]}"; do
		# shellcheck disable=SC2053 # the pattern is a glob on purpose
		[[ "$1" == ${pattern} ]] && return 0
	done
	return 1
}

missing=()
checked=0
while IFS= read -r -d '' file; do
	[[ -f "${file}" ]] || continue # deleted but not yet staged
	ignored "${file}" && continue
	checked=$((checked + 1))
	case "${file}" in
	*.go) prefix="//" ;;
	*) prefix="#" ;;
	esac
	spdx="${prefix} SPDX-License-Identifier: ${license}"
	if sed -n 1,5p "${file}" | grep -qxF -- "${spdx}"; then
		continue
	fi
	missing+=("${file}")
	[[ "${mode}" == add ]] || continue

	header="${prefix} Copyright (c) ${holder}"$'\n'"${spdx}"$'\n'
	tmp="$(mktemp "${file}.headers.XXXXXX")"
	{
		first=""
		IFS= read -r first <"${file}" || true
		if [[ "${first}" == '#!'* ]]; then
			printf '%s\n%s\n' "${first}" "${header}"
			sed 1d "${file}"
		else
			printf '%s\n' "${header}"
			cat "${file}"
		fi
	} >"${tmp}"
	chmod --reference="${file}" "${tmp}"
	mv -f "${tmp}" "${file}"
	echo "headers: added to ${file}"
done < <(git ls-files -z --cached --others --exclude-standard -- '*.go' '*.sh' '*.tf' |
	if [[ $# -eq 0 ]]; then cat; else grep -zxF -f <(printf '%s\n' "$@"); fi)

if [[ "${mode}" == check && ${#missing[@]} -gt 0 ]]; then
	echo "headers: ${#missing[@]} file(s) lack the line \"SPDX-License-Identifier: ${license}\" in their first five lines:" >&2
	printf '  %s\n' "${missing[@]}" >&2
	echo "Run 'make headers' and commit." >&2
	exit 1
fi
if [[ "${mode}" == check ]]; then
	echo "headers: all ${checked} .go, .sh and .tf files checked carry SPDX-License-Identifier: ${license}"
fi
