#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Mutation check: build deliberately broken variants of the lock-free core
# (macros in tm_lifo.h / tm_cas128.h) and require that the stress suite
# ("meson test --suite stress": driver stress commands on the mutant
# plugin, and the core harness shapes) fails on every one. Exits 0 only if
# all mutants are killed.
#
#   NO_TAG      the ABA tag is not incremented
#   NO_RESERVE  a pop does not take its n objects off the count
#   RELAXED     push CAS release weakened to relaxed; x86 CAS is a full
#               barrier anyway, so this one is built with ThreadSanitizer
#               (core harness only, like the tsan stage): the object
#               payload written before a put races with the next get
#
# Each mutant gets its own build directory; the suite stops at the first
# failing test (--maxfail 1), which is reported as the killer.
#
# Usage: scripts/mutants.sh [workdir]   (default: build-mutants)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$top/build-mutants}
mkdir -p "$work"
# shellcheck source=scripts/common.sh
. "$top/scripts/common.sh"
MESON=${MESON:-$(pick_tool meson /usr/bin/meson)} || { echo "no meson"; exit 1; }
NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)} || { echo "no ninja"; exit 1; }

survivors=0
for m in NO_TAG NO_RESERVE RELAXED; do
	dir=$work/$m
	opts=(-Dc_args=-DTM_MUTANT_$m -Dc_link_args=-latomic
		-Dbuildtype=debugoptimized)
	wrap=()
	if [ "$m" = RELAXED ]; then
		opts+=(-Db_sanitize=thread)
		bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)
		if [ "$bits" -gt 28 ] && setarch "$(uname -m)" -R true 2>/dev/null; then
			wrap=(--wrapper "setarch $(uname -m) -R")
		fi
	fi
	t0=$SECONDS
	if ! { [ -f "$dir/build.ninja" ] || "$MESON" setup "$dir" "$top" "${opts[@]}"; } \
			> "$work/$m.setup.log" 2>&1 ||
			! "$NINJA" -C "$dir" > "$work/$m.build.log" 2>&1; then
		tail -20 "$work/$m.setup.log" "$work/$m.build.log" 2>/dev/null
		echo "mutant $m: BUILD FAILED"
		survivors=$((survivors + 1))
		continue
	fi
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		"$MESON" test -C "$dir" --suite stress --maxfail 1 \
		--print-errorlogs "${wrap[@]}" > "$work/$m.test.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		killer=$(grep -m1 -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT) ' \
			"$work/$m.test.log" | sed 's/^ *[0-9]*\/[0-9]* //; s/  */ /g')
		why=$(grep -m1 -E 'FAIL:|check ".*" failed|assertion .* failed|ThreadSanitizer: [a-z]' \
			"$work/$m.test.log" || true)
		echo "mutant $m: killed in $((SECONDS - t0))s by ${killer:-?}"
		echo "    ${why:-no message}"
	else
		echo "mutant $m: SURVIVED the stress suite ($work/$m.test.log)"
		survivors=$((survivors + 1))
	fi
done
echo "mutants: $survivors survivor(s)"
[ $survivors -eq 0 ]
