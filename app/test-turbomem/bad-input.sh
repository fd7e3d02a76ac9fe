# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Sourced by ab-bad-input.sh and bench-bad-input.sh: a scratch directory $d
# (removed on exit), bad=0, and expect RC PATTERN [ENV=VALUE...] -- ARGS...,
# which runs "$script ARGS" (TM_RESULTS_DIR=$d/results and the ENV values
# set) and sets bad=1 unless it exits with RC and prints a line matching
# PATTERN. The caller sets script (the path) and name (for the messages).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
bad=0

expect() {
	want=$1 pat=$2
	shift 2
	envs=
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	out=$(env TM_RESULTS_DIR="$d/results" $envs "$script" "$@" 2>&1)
	rc=$?
	if [ $rc != "$want" ]; then
		echo "FAIL: $name $*: exit status $rc, expected $want: $out"
		bad=1
	elif ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "FAIL: $name $*: no line matching '$pat': $out"
		bad=1
	else
		echo "ok: $name $* (exit $rc): $(printf '%s\n' "$out" | grep -- "$pat" | head -1)"
	fi
}
