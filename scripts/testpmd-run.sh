#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# testpmd-run.sh [PLUGIN]   (default: build/librte_mempool_turbomem.so)
#
# Run the installed dpdk-testpmd with the turbomem plugin (-d) over two
# net_null ports (no NIC, --no-huge), io forwarding, once per mbuf memory
# path: the default one (--mp-alloc=native) and --mp-alloc=xmem (pool
# memory allocated outside DPDK's heap and given to the pool). Each run
# must select turbomem and forward packets; the driver statistics are read
# through telemetry while it runs. Prints one line per run.
#
# Environment: TM_TESTPMD_SECONDS (default 4), TESTPMD, DPDK_TELEMETRY.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
plugin=${1:-$top/build/librte_mempool_turbomem.so}
secs=${TM_TESTPMD_SECONDS:-4}
testpmd=${TESTPMD:-dpdk-testpmd}
telemetry=${DPDK_TELEMETRY:-dpdk-telemetry.py}
[ -f "$plugin" ] || { echo "testpmd-run: no plugin $plugin (build first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run NAME [testpmd options...]
	local name=$1 prefix=tm7-testpmd-$1-$$ log=$work/$1.log pid info pkts
	shift
	"$top/scripts/with-plugin.sh" "$plugin" "$testpmd" --no-huge -m 1024 \
		--no-pci -l 0-1 -d @PLUGIN@ --file-prefix="$prefix" \
		--mbuf-pool-ops-name=turbomem --vdev net_null0 --vdev net_null1 \
		-- --forward-mode=io --auto-start --stats-period 1 "$@" \
		</dev/zero >"$log" 2>&1 &
	pid=$!
	sleep "$secs"
	info=$(printf '/turbomem/info,mb_pool_0\n' |
		"$telemetry" -f "$prefix" 2>/dev/null | grep '{' || true)
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" || true
	grep -q 'preferred mempool ops selected: turbomem' "$log" || {
		tail -30 "$log"; echo "testpmd-run: FAIL $name: turbomem not selected"; return 1; }
	pkts=$(sed -n 's/.*RX-packets: *\([0-9]*\).*/\1/p' "$log" | sort -n | tail -1)
	[ -n "$pkts" ] && [ "$pkts" -gt 0 ] || {
		tail -30 "$log"; echo "testpmd-run: FAIL $name: no packets forwarded"; return 1; }
	printf 'testpmd-run: OK %-7s %s forwarded %s packets; %s\n' "$name" \
		"$*" "$pkts" "$(printf '%s' "$info" | python3 -c '
import json, sys
try:
    i = json.load(sys.stdin)["/turbomem/info"]
    print("driver: get_calls %d get_objs %d put_objs %d cas_retries %d" %
          (i["get_calls"], i["get_objs"], i["put_objs"], i["cas_retries"]))
except Exception as e:
    print("no telemetry (%s)" % e)')"
}

rc=0
run native --mp-alloc=native || rc=1
run xmem --mp-alloc=xmem || rc=1
run nocache --mp-alloc=native --mbcache=0 || rc=1
exit $rc
