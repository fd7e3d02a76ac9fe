#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Issue 45: testpmd's default pool (147456 mbufs of 2176 bytes) with
# TURBOMEM_CONFIG=track=on under --no-huge, as a user starts it, through
# scripts/testpmd.py: the pool is made, forwards, is tracked (/turbomem/held)
# and, where the driver gave it its own heap, sits in 2 MB pages.
#
# track-testpmd.sh TESTPMD_PY PLUGIN va|pa|pa-path
#   va       --iova-mode=va
#   pa       --iova-mode=pa; EAL gives IOVA as PA only with hugepages (it
#            selects VA, or refuses), so this skips with EAL's words
#            (SKIP(build): no EAL build has it)
#   pa-path  the driver's IOVA-as-PA path under --no-huge (pool in EAL
#            memory): PLUGIN is the faults build, TURBOMEM_TEST_FAIL=iova_pa
# Exit status: 0 passed, 1 failed, 77 skipped.
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 TESTPMD_PY PLUGIN va|pa|pa-path" >&2; exit 2; }
py=$1 plugin=$2 mode=$3
case $mode in
va | pa) iova=$mode checks=(--check held --check memory) ;;
pa-path) iova=va checks=(--check held)
	export TURBOMEM_TEST_FAIL=iova_pa ;;
*) echo "$0: mode '$mode': expected va, pa or pa-path" >&2; exit 2 ;;
esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT

TURBOMEM_CONFIG=track=on "$py" --plugin "$plugin" --label "track-$mode" \
	--log "$log" "${checks[@]}" -m 1024 -- --iova-mode=$iova \
	--log-level=pmd.mempool.turbomem:info -- \
	--mbcache=0 --total-num-mbufs=147456
rc=$?

selected=$(sed -n "s/.*Selected IOVA mode '\([A-Z]*\)'.*/\1/p" "$log" | head -1)
if [ "$mode" = pa ] && [ "$selected" != PA ]; then
	why=$(grep -m1 -E "Physical addresses are unavailable|Cannot use IOVA as 'PA'" "$log")
	echo "SKIP(build): IOVA as PA under --no-huge: EAL selected '${selected:-none}'" \
		"(${why:-no reason logged})"
	exit 77
fi
if [ "$selected" != VA ]; then
	echo "FAIL: EAL selected IOVA mode '${selected:-none}', want VA"
	exit 1
fi
if ! grep -q 'create a new mbuf pool <mb_pool_0>: n=147456, size=2176' "$log"; then
	echo "FAIL: testpmd did not ask for its default pool (n=147456, size=2176)"
	grep -m3 'mbuf pool\|Cause' "$log"
	exit 1
fi
if [ "$mode" = pa-path ] && ! grep -q 'turbomem: pool mb_pool_0: IOVA as PA without hugepages' "$log"; then
	echo "FAIL: the driver did not take its IOVA-as-PA path (no NOTICE)"
	exit 1
fi
[ $rc -eq 0 ] && echo "ok: track=on, IOVA mode $mode, 147456 mbufs"
exit $rc
