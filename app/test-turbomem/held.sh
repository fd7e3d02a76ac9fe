#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# held.sh PLUGIN TEST-BINARY FILE_PREFIX leak|noleak [TRANSCRIPT]
#
# "Who holds my mbufs", found over the telemetry socket: runs
# dpdk-test-turbomem turbomem_held_leak_autotest (an mbuf pool on turbomem
# with TURBOMEM_CONFIG=track=on; lcore 0 and lcore 1 allocate and free
# bursts, and with "leak" lcore 1 keeps 1 mbuf in 1000), queries
# /turbomem/held twice, 2 s apart (leak: and the threshold crossed), with dpdk-telemetry.py and checks:
# - leak: lcore 1 holds a growing set (count rises), ageing (its oldest
#   object is older), the oldest objects are lcore 1's, and the low-water
#   line was logged once, naming lcore 1;
# - noleak: what lcore 1 holds stays within one burst, nothing is logged;
# - bad input: an unknown pool, a bad N and no parameter get an error
#   naming them;
# - noleak: /turbomem/track switches tracking off and on again.
# Then stops the app, which checks its own report (the API twin).
# TRANSCRIPT: where to write the telemetry session (the guide's example).
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
exec 2>&1

plugin=$1 bin=$2 prefix=$3 mode=$4 transcript=${5:-}
telemetry=${DPDK_TELEMETRY:-dpdk-telemetry.py}
work=$(mktemp -d)
pid=""
pool=tm_held_mbufs

fail_log=$work/app.log
cleanup() {
	stop_process "$pid"
	eal_remove "$prefix"
	rm -rf "$work"
}
trap cleanup EXIT

case $mode in
leak) leakopt=--leak ;;
noleak) leakopt= ;;
*) fail "mode $mode: expected leak or noleak" ;;
esac

TURBOMEM_CONFIG=track=on "$bin" --no-huge -m 256 --no-pci -l 0-1 \
	-d "$plugin" --file-prefix="$prefix" \
	--log-level=pmd.mempool.turbomem:info -- \
	turbomem_held_leak_autotest $leakopt --stop "$work/stop" --seconds 60 \
	>"$work/app.log" 2>&1 &
pid=$!

query() { # query CMD...: JSON replies, one per line
	printf '%s\n' "$@" | "$telemetry" -f "$prefix" 2>&1
}

wait_for "$work/app.log" 'held: ready' 30 "$pid" ||
	fail "the app did not start (exited, or not ready in 30 s)"
sleep 1
query "/turbomem/held,$pool,3" > "$work/q1.json"
sleep 2
# The leak crosses the low-water threshold after ~100-300 leaks: give a
# slow (loaded) machine up to 30 s to get there.
[ "$mode" != leak ] || wait_for "$work/app.log" low-water 30 || true
query "/turbomem/held,$pool,3" /turbomem/held,no_such_pool \
	"/turbomem/held,$pool,x" "/turbomem/held,$pool,65" /turbomem/held \
	> "$work/q2.json"
# noleak: the switch over telemetry (off, seen off, bad value, on again).
if [ "$mode" = noleak ]; then
	query "/turbomem/track,$pool,off" "/turbomem/held,$pool" \
		"/turbomem/track,$pool,maybe" /turbomem/track,no_such_pool,on \
		"/turbomem/track,$pool,on" "/turbomem/held,$pool" \
		> "$work/q3.json"
fi
touch "$work/stop"
rc=0
wait "$pid" || rc=$?
pid=""
grep -v '^EAL' "$work/app.log" | grep -v '^TELEMETRY' || true

if [ -n "$transcript" ]; then
	{
		echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(uptime | sed 's/.*load/load/')"
		echo "\$ TURBOMEM_CONFIG=track=on dpdk-test-turbomem -l 0-1 ... -- turbomem_held_leak_autotest $leakopt ..."
		grep -e '^held: ready' "$work/app.log"
		echo "\$ dpdk-telemetry.py -f $prefix"
		echo "--> /turbomem/held,$pool,3"
		grep '{' "$work/q1.json" | python3 -m json.tool --indent 2
		echo "--> /turbomem/held,$pool,3   (2 s later)"
		grep '{' "$work/q2.json" | head -1 | python3 -m json.tool --indent 2
		echo "--> /turbomem/held,no_such_pool"
		grep '{' "$work/q2.json" | sed -n 2p
		echo "# the application's log:"
		grep -e 'low-water' -e '^held: stopped' "$work/app.log"
	} > "$transcript"
fi

python3 - "$work/q1.json" "$work/q2.json" "$mode" "$work/app.log" <<'PY'
import json, sys
def replies(path):
    return [json.loads(l) for l in open(path) if l.strip().startswith('{')]
a = replies(sys.argv[1])[0]["/turbomem/held"]
r2 = replies(sys.argv[2])
b = r2[0]["/turbomem/held"]
mode = sys.argv[3]
applog = open(sys.argv[4]).read()
ok = True
def check(cond, what):
    global ok
    print("held: %s: %s" % ("ok" if cond else "FAIL", what))
    ok = ok and cond
def holder(rep, name):
    for k, v in rep.items():
        if k.startswith("holder/") and v["holder"].startswith(name + " "):
            return v
    return {"count": 0, "age_max_us": 0}
print("held: first:", json.dumps(a))
print("held: second:", json.dumps(b))
check(a["tracking"] == 1 and b["tracking"] == 1, "tracking on")
h1, h2 = holder(a, "lcore 1"), holder(b, "lcore 1")
lines = [l for l in applog.splitlines() if "low-water" in l]
if mode == "leak":
    check(0 < h1["count"] < h2["count"],
          "lcore 1 holds a growing set: %d -> %d" % (h1["count"], h2["count"]))
    check(h2["age_max_us"] > h1["age_max_us"] + 1000000,
          "ageing: oldest %d us -> %d us" % (h1["age_max_us"], h2["age_max_us"]))
    check(b["holder/0"]["holder"].startswith("lcore 1 "),
          "lcore 1 is the top holder: %s" % b["holder/0"]["holder"])
    check(all(b["oldest/%d" % i]["holder"].startswith("lcore 1 ")
              for i in range(3)), "the 3 oldest are lcore 1's")
    check(b["low_water"] < b["threshold"], "low water %d below threshold %d"
          % (b["low_water"], b["threshold"]))
    check(len(lines) == 1 and "top holders: lcore 1 " in lines[0],
          "one low-water line naming lcore 1: %r" % lines)
else:
    check(h1["count"] <= 32 and h2["count"] <= 32,
          "lcore 1 holds at most a burst: %d, %d" % (h1["count"], h2["count"]))
    check(a["in_use"] <= 64 and b["in_use"] <= 64,
          "stable in use: %d, %d (two lcores, a burst each)"
          % (a["in_use"], b["in_use"]))
    check(b["low_water"] >= b["threshold"], "low water %d, threshold %d"
          % (b["low_water"], b["threshold"]))
    check(len(lines) == 0, "no low-water line: %r" % lines)
check(b["free"] + b["in_cache"] + b["in_use"] == b["size"],
      "free + in caches + in use = size (%d + %d + %d = %d)"
      % (b["free"], b["in_cache"], b["in_use"], b["size"]))
errs = [r2[i]["/turbomem/held"] for i in range(1, 5)]
check("no_such_pool" in errs[0].get("error", ""), "unknown pool: %r" % errs[0])
check('"x"' in errs[1].get("error", ""), "bad N: %r" % errs[1])
check('"65"' in errs[2].get("error", ""), "N too large: %r" % errs[2])
check("no pool name" in errs[3].get("error", ""), "no parameter: %r" % errs[3])
if mode == "noleak":
    r3 = replies(sys.argv[4].replace("app.log", "q3.json"))
    t = [list(r.values())[0] for r in r3]
    check(t[0] == {"name": b["name"], "tracking": 0}, "switched off: %r" % t[0])
    check(t[1]["tracking"] == 0, "held says off: tracking %r" % t[1]["tracking"])
    check('"maybe"' in t[2].get("error", ""), "bad switch: %r" % t[2])
    check("no_such_pool" in t[3].get("error", ""), "unknown pool: %r" % t[3])
    check(t[4]["tracking"] == 1 and t[5]["tracking"] == 1,
          "switched on again: %r, held says %r" % (t[4], t[5]["tracking"]))
sys.exit(0 if ok else 1)
PY
[ "$rc" = 0 ] || fail "the app's own check failed (rc $rc)"
log "OK ($mode)"
