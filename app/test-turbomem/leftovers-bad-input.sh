#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# leftovers-bad-input.sh TOP: TOP/scripts/no-leftovers.sh fails, naming
# the entry, on a command that leaves a directory in EAL's runtime
# directory, and on one that leaves a file in a hugetlbfs mount (where one
# is mounted); it passes on a command that removes what it made with
# eal_remove. What the failing commands leave is removed here.
top=$1
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
check=$top/scripts/no-leftovers.sh
name=tm-leftover-check-$$
base=$(bash -c '. "$1/scripts/common.sh" && eal_runtime_base' _ "$top") || exit 1
mnt=$(awk '$3 == "hugetlbfs" { print $2; exit }' /proc/mounts)
trap 'rm -rf "$base/$name"; [ -z "$mnt" ] || rm -f "$mnt/${name}map_0"' EXIT
bad=0

run() { # WANT-RC PATTERN WHAT COMMAND
	out=$(bash "$check" bash -c "$4" _ "$top" "$base/$name" "$mnt" "$name" 2>&1)
	expect $? "$1" "$2" "$3"
}

run 1 "FAIL left behind: $base/$name\$" "a runtime directory left" \
	'mkdir -p "$2" && touch "$2/config"'
if [ -n "$mnt" ]; then
	run 1 "FAIL left behind: $mnt/${name}map_0\$" "a hugepage file left" \
		'touch "$3/${4}map_0"'
else
	echo "ok: no hugetlbfs mount: the hugepage file case is not run"
fi
run 0 "nothing left in $base" "both made, then removed by eal_remove" \
	'. "$1/scripts/common.sh" && mkdir -p "$2" && touch "$2/config" &&
	{ [ -z "$3" ] || touch "$3/${4}map_0"; } && eal_remove "$4"'
exit $bad
