#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# bench-bad-input.sh BENCH.SH: scripts/bench.sh refuses what it cannot run
# with one line naming the value and its exit status, and leaves nothing
# behind: an unknown mode (status 2), a TM_DPDK_PREFIX without a DPDK
# (status 1, before anything is built: no results directory).
bench=$1
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
bad=0

# expect RC PATTERN [ENV=VALUE...] -- ARGS...
expect() {
	want=$1 pat=$2
	shift 2
	envs=
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	out=$(env TM_RESULTS_DIR="$d/results" $envs "$bench" "$@" 2>&1)
	rc=$?
	if [ $rc != "$want" ]; then
		echo "FAIL: bench.sh $*: exit status $rc, expected $want: $out"
		bad=1
	elif ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "FAIL: bench.sh $*: no line matching '$pat': $out"
		bad=1
	else
		echo "ok: bench.sh $* (exit $rc): $(printf '%s\n' "$out" | grep -- "$pat" | head -1)"
	fi
}

expect 2 "usage: .*bench.sh \[quick|full" -- nosuchmode
expect 1 "DPDK prefix $d/noprefix: no libdpdk.pc under it" \
	TM_DPDK_PREFIX="$d/noprefix" -- smoke
if [ -e "$d/results" ]; then
	echo "FAIL: a refused run created $d/results"
	bad=1
fi
exit $bad
