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
# must select turbomem and forward packets; telemetry, queried while it
# runs, must answer and report counts, statistics and the memory (backing
# thp, >= 95% in 2 MB pages where THP is on; external for xmem) that hold.
# Prints one line per run.
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
	# Query once it forwards (start-up may take longer on a busy machine).
	local w
	for w in $(seq 60); do
		grep -q 'RX-packets: *[1-9]' "$log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	# Every turbomem pool testpmd made; the one forwarding is checked.
	# (retried: on 2 busy CPUs the telemetry thread may answer late).
	local pools="" try
	for try in 1 2 3 4 5; do
		pools=$(printf '/turbomem/list\n' | "$telemetry" -f "$prefix" 2>/dev/null |
			grep '{' | python3 -c 'import json, sys
print(" ".join(json.load(sys.stdin)["/turbomem/list"] or []))' 2>/dev/null || true)
		[ -z "$pools" ] || break
		sleep 1
	done
	info=$(for p in $pools; do printf '/turbomem/info,%s\n' "$p"; done |
		"$telemetry" -f "$prefix" 2>/dev/null | grep '{' || true)
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" || true
	grep -q 'preferred mempool ops selected: turbomem' "$log" || {
		tail -30 "$log"; echo "testpmd-run: FAIL $name: turbomem not selected"; return 1; }
	pkts=$(sed -n 's/.*RX-packets: *\([0-9]*\).*/\1/p' "$log" | sort -n | tail -1)
	[ -n "$pkts" ] && [ "$pkts" -gt 0 ] || {
		tail -30 "$log"; echo "testpmd-run: FAIL $name: no packets forwarded"; return 1; }
	# Telemetry must answer, and what it says must hold.
	local verdict
	verdict=$(printf '%s' "$info" | TM_RUN="$name" python3 -c '
import json, os, sys
try:
    pools = [json.loads(l)["/turbomem/info"] for l in sys.stdin if l.strip()]
    i = max(pools, key=lambda p: p["get_objs"])
    m = i["memory"]
except Exception as e:
    print("FAIL no telemetry (%s)" % e)
    sys.exit(0)
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
want(i["get_calls"] > 0 and i["get_objs"] >= i["get_calls"], "get_calls %d get_objs %d" % (i["get_calls"], i["get_objs"]))
want(i["put_calls"] > 0 and i["put_objs"] >= i["put_calls"], "put_calls %d put_objs %d" % (i["put_calls"], i["put_objs"]))
want(i["size"] == i["populated_size"] > 0, "size %d populated %d" % (i["size"], i["populated_size"]))
want(i["count"] <= i["size"] and i["avail_count"] <= i["size"], "count %d avail %d size %d" % (i["count"], i["avail_count"], i["size"]))
want(m["bytes"] > 0 and m["nb_chunks"] >= 1, "memory bytes %d chunks %d" % (m["bytes"], m["nb_chunks"]))
want(m["huge_bytes"] <= m["bytes"], "huge_bytes %d above bytes %d" % (m["huge_bytes"], m["bytes"]))
thp = open("/sys/kernel/mm/transparent_hugepage/enabled").read()
if os.environ["TM_RUN"] == "xmem":
    want(m["backing"] == "external", "backing %s, want external" % m["backing"])
elif "[never]" not in thp:
    want(m["backing"] == "thp" and m["huge_bytes"] * 100 >= m["bytes"] * 95 and m["page_size"] == 2 << 20,
         "backing %s, %d of %d bytes huge, page %d; want thp, >= 95%%, 2 MB" % (m["backing"], m["huge_bytes"], m["bytes"], m["page_size"]))
print(("FAIL " + "; ".join(bad)) if bad else
      "driver: get_calls %d get_objs %d put_objs %d cas_retries %d; memory %s %d/%d bytes huge" %
      (i["get_calls"], i["get_objs"], i["put_objs"], i["cas_retries"], m["backing"], m["huge_bytes"], m["bytes"]))')
	case "$verdict" in
	FAIL*)
		tail -30 "$log"
		echo "testpmd-run: FAIL $name: telemetry: ${verdict#FAIL }"
		return 1 ;;
	esac
	printf 'testpmd-run: OK %-7s %s forwarded %s packets; %s\n' "$name" \
		"$*" "$pkts" "$verdict"
}

rc=0
run native --mp-alloc=native || rc=1
run xmem --mp-alloc=xmem || rc=1
run nocache --mp-alloc=native --mbcache=0 || rc=1
exit $rc
