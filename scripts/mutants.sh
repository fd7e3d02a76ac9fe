#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Mutation check of the lock-free core: build deliberately broken variants
# of tm_lifo.h into the core stress harness and require that the harness
# catches every one. Exits 0 only if all mutants are killed.
#
#   NO_TAG      the ABA tag is not incremented     (caught by the ledger/census)
#   NO_RESERVE  a pop does not take its n objects  (caught by count/census)
#   RELAXED     push CAS release weakened to relaxed (caught by TSan: the
#               object payload written before a put races with the next get)
#
# Usage: scripts/mutants.sh [workdir]   (default: build-mutants)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$top/build-mutants}
cc=${CC:-cc}
core=$top/drivers/mempool/turbomem
harness=$top/app/test-turbomem/core/lifo_stress.c
mkdir -p "$work"

# shape: name|harness options (bounded: each run stops at the first errors)
shapes=(
	"mixed|-m mixed -t 6 -n 256 -b 32 -i 200000"
	"exhaustion|-m mixed -t 8 -n 64 -b 48 -i 200000"
	"pipeline|-m pipeline -t 6 -n 512 -b 16 -i 50000"
)

survivors=0
for m in NO_TAG NO_RESERVE RELAXED; do
	san=""
	[ "$m" = RELAXED ] && san="-fsanitize=thread"
	bin=$work/tm-lifo-stress-$m
	if ! $cc -O1 -g $san -mcx16 -DTM_MUTANT_$m -DTM_LIFO_TEST_HOOKS \
			-I"$core" "$harness" "$core/tm_lifo.c" -o "$bin" \
			-lpthread -latomic 2> "$work/$m.build.log"; then
		cat "$work/$m.build.log"
		echo "mutant $m: BUILD FAILED"
		survivors=$((survivors + 1))
		continue
	fi
	killed=""
	for s in "${shapes[@]}"; do
		name=${s%%|*}
		# shellcheck disable=SC2086
		TSAN_OPTIONS="halt_on_error=1 exitcode=66" timeout 120 \
			"$bin" ${s#*|} -s 1 > "$work/$m.$name.log" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			why=$(grep -m1 -E 'FAIL|ThreadSanitizer' "$work/$m.$name.log" || true)
			[ $rc -eq 124 ] && why="timeout (livelock)"
			killed="$name: rc $rc, ${why:-no message}"
			break
		fi
	done
	if [ -n "$killed" ]; then
		echo "mutant $m: killed by shape $killed"
	else
		echo "mutant $m: SURVIVED every shape"
		survivors=$((survivors + 1))
	fi
done
echo "mutants: $survivors survivor(s)"
[ $survivors -eq 0 ]
