#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# testpmd-run.sh [PLUGIN]   (default: build/librte_mempool_turbomem.so)
#
# Run dpdk-testpmd ($TESTPMD, default the installed one) with the turbomem
# plugin (-d) over two net_null ports (no NIC, --no-huge), io forwarding,
# once per mbuf memory path: the default one (--mp-alloc=native),
# --mp-alloc=xmem (pool memory allocated outside DPDK's heap and given to
# the pool), and native with no mbuf cache. Each run must select turbomem
# and forward packets; telemetry, queried while it runs, must answer and
# report counts, statistics and memory that hold (backing thp, >= 95% in
# 2 MB pages where THP is on; external for xmem): scripts/testpmd.py's
# "memory" check.
#
# Environment: TM_TESTPMD_SECONDS (default 4), TESTPMD.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
plugin=${1:-$top/build/librte_mempool_turbomem.so}
secs=${TM_TESTPMD_SECONDS:-4}
[ -f "$plugin" ] || { echo "testpmd-run: no plugin $plugin (build first)" >&2; exit 1; }

run() { # run NAME [testpmd options...]
	local name=$1
	shift
	local backing=thp
	[ "$name" != xmem ] || backing=external
	python3 "$top/scripts/testpmd.py" --plugin "$plugin" --label "$name" \
		--prefix "tm-testpmd-$name-$$" --seconds "$secs" \
		--check memory --backing "$backing" -- -- "$@"
}

rc=0
run native --mp-alloc=native || rc=1
run xmem --mp-alloc=xmem || rc=1
run nocache --mp-alloc=native --mbcache=0 || rc=1
exit $rc
