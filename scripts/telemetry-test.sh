#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# telemetry-test.sh PLUGIN [FILE_PREFIX]
#
# Start Debian's dpdk-testpmd with PLUGIN (-d) over two net_null ports in
# --no-huge mode, forwarding with no mbuf cache (every alloc/free reaches
# the driver); query it twice with Debian's dpdk-telemetry.py and check the
# JSON: the mbuf pool is listed by /turbomem/list, /turbomem/info reports
# it with counters that rise between the two queries and a memory report
# that holds (thp, >= 95% in 2 MB pages where THP is on). Field-by-field
# values in a known state: turbomem_telemetry_autotest. Stops testpmd.
set -euo pipefail

plugin=$1
prefix=${2:-tm7-telemetry-$$}
testpmd=${TESTPMD:-dpdk-testpmd}
telemetry=${DPDK_TELEMETRY:-dpdk-telemetry.py}
work=$(mktemp -d)
pid=""

log() { printf 'telemetry-test: %s\n' "$*"; }
fail() { log "FAIL: $*"; [ -f "$work/testpmd.log" ] && tail -30 "$work/testpmd.log"; exit 1; }
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -INT "$pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# stdin from a FIFO that stays open: testpmd runs until SIGINT.
"$testpmd" --no-huge -m 256 --no-pci -l 0-1 -d "$plugin" \
	--file-prefix="$prefix" --mbuf-pool-ops-name=turbomem \
	--vdev net_null0 --vdev net_null1 -- \
	--forward-mode=io --auto-start --stats-period 1 --mbcache=0 \
	--total-num-mbufs=4096 </dev/zero >"$work/testpmd.log" 2>&1 &
pid=$!

query() { # query CMD...: JSON replies, one per line
	printf '%s\n' "$@" | "$telemetry" -f "$prefix" 2>&1
}

# Wait until the port is forwarding and the telemetry socket answers.
for _ in $(seq 100); do
	kill -0 "$pid" 2>/dev/null || fail "testpmd exited"
	if grep -q 'RX-packets: *[1-9]' "$work/testpmd.log" &&
		query /turbomem/list | grep -q turbomem; then
		break
	fi
	sleep 0.2
done
grep -q 'preferred mempool ops selected: turbomem' "$work/testpmd.log" ||
	fail "testpmd did not select turbomem"

query /turbomem/list > "$work/list.json"
pool=$(python3 - "$work/list.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith('{'):
        pools = json.loads(line)["/turbomem/list"]
        print(pools[0] if pools else "")
PY
)
[ -n "$pool" ] || fail "no pool in /turbomem/list: $(cat "$work/list.json")"
log "/turbomem/list: $(grep '{' "$work/list.json")"

query "/turbomem/info,$pool" > "$work/info1.json"
sleep 1
query "/turbomem/info,$pool" /turbomem/info,no_such_pool /turbomem/info \
	> "$work/info2.json"

python3 - "$work/info1.json" "$work/info2.json" "$pool" <<'PY'
import json, sys
def replies(path):
    return [json.loads(l) for l in open(path) if l.strip().startswith('{')]
pool = sys.argv[3]
a = replies(sys.argv[1])[0]["/turbomem/info"]
r2 = replies(sys.argv[2])
b = r2[0]["/turbomem/info"]
bad = r2[1]["/turbomem/info"]
print("telemetry-test: info:", json.dumps(b))
ok = True
def check(cond, what):
    global ok
    print("telemetry-test: %s: %s" % ("ok" if cond else "FAIL", what))
    ok = ok and cond
check(b["name"] == pool, "name %s" % b["name"])
check(0 < b["count"] <= b["size"], "count %d within size %d" % (b["count"], b["size"]))
for k in ("get_calls", "get_objs", "put_calls", "put_objs"):
    check(b[k] > a[k] > 0, "%s rose %d -> %d" % (k, a[k], b[k]))
check(b["get_objs"] >= b["get_calls"], "get_objs >= get_calls")
check("memory" in b, "memory report present (%r)" % b.get("memory_error"))
m = b.get("memory", {})
check(m.get("bytes", 0) > 0 and m.get("nb_chunks", 0) >= 1, "memory: %r" % m)
check(m.get("huge_bytes", 1) <= m.get("bytes", 0), "huge_bytes within bytes")
if "[never]" not in open("/sys/kernel/mm/transparent_hugepage/enabled").read():
    check(m.get("backing") == "thp" and m.get("page_size") == 2 << 20 and
          m.get("huge_bytes", 0) * 100 >= m.get("bytes", 1) * 95,
          "THP on: backing %s, %d of %d bytes in 2 MB pages" %
          (m.get("backing"), m.get("huge_bytes", 0), m.get("bytes", 0)))
# (counts are read one after the other while testpmd forwards: no order
# between them; exact values in a known state: turbomem_telemetry_autotest)
check(b["avail_count"] <= b["size"] == b["populated_size"],
      "avail %d <= size %d = populated %d" % (b["avail_count"], b["size"], b["populated_size"]))
check(bad is None, "unknown pool gives null (%r)" % bad)
check(r2[2]["/turbomem/info"] is None, "no pool name gives null (%r)" % r2[2])
sys.exit(0 if ok else 1)
PY
log "OK"
