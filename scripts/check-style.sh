#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# check-style.sh: the style rules DPDK applies to a contribution, run on
# this repository (the "style" stage of scripts/test.sh):
#   doc   no line of a tracked .rst file is longer than 100 columns
#         (DPDK's contributing/documentation.rst)
#   log   DPDK 26.07's own devtools/check-git-log.sh, taken from the
#         release tarball (scripts/dpdk.sh dpdk_tarball), over the commits
#         since the one that added this script (older subjects predate the
#         rule). Its .mailmap is the release's plus this repository's, as a
#         first patch to DPDK adds its author there. Its findings on
#         subjects and tags fail the check; those on the sign-off (a
#         missing one, or its line over 75 columns: the workplace's
#         committer address alone is 54 characters) and on names are
#         printed as warnings.
# Exits 1 naming every finding, 0 when there is none.

set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tm_name=check-style.sh
# shellcheck source=scripts/dpdk.sh
. scripts/dpdk.sh

failed=0

long=$(git ls-files -z '*.rst' | xargs -0 awk 'length > 100 {
	printf "%s:%d: %d columns\n", FILENAME, FNR, length }')
if [ -n "$long" ]; then
	echo "doc: lines over 100 columns:"
	echo "$long" | sed 's/^/  /'
	failed=1
else
	echo "doc: $(git ls-files '*.rst' | wc -l) .rst files, no line over 100 columns"
fi

base=$(git log --format=%H --diff-filter=A -- scripts/check-style.sh | tail -1)
if [ -z "$base" ]; then
	echo "log: scripts/check-style.sh is not committed yet: no range to check"
elif [ "$(git rev-parse --is-shallow-repository)" = true ]; then
	echo "log: SKIP: a shallow clone lacks the history from $base on"
else
	t=$(dpdk_tarball 26.07) || exit 1
	d=$(mktemp -d)
	trap 'rm -rf "$d"' EXIT
	tar -xf "$t" -C "$d" --strip-components=1 --wildcards '*/devtools/*' '*/.mailmap' ||
		{ echo "log: cannot unpack devtools from $t"; exit 1; }
	[ ! -f .mailmap ] || cat .mailmap >> "$d/.mailmap"
	range=$base~1..HEAD
	[ -n "$(git rev-parse -q --verify "$base~1")" ] || range=HEAD
	echo "log: $d/devtools/check-git-log.sh -r $range ($(git rev-list --count "$range") commits)"
	sh "$d/devtools/check-git-log.sh" -r "$range" > "$d/log.txt" 2>&1
	cat "$d/log.txt"
	# Sections are a title line ("Headline too long:") and tab-indented
	# findings.
	awk '
		/^[^\t].*:[[:space:]]*$/ { sec = $0; next }
		/^\t/ && sec != "" {
			if (sec ~ /^Line too long/ && $0 ~ /^\t[A-Za-z-]+-by: /) { warn++; next }
			if (sec ~ /^(Line too long|Missing .Signed-off-by|Contributor name)/) {
				warn++; next
			}
			bad++; print "log: finding: " sec " " $0
		}
		END {
			if (warn) printf "log: %d warning(s) on sign-offs and names (see above)\n", warn
			exit bad > 0
		}' "$d/log.txt" || failed=1
fi
exit $failed
