#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# crash.sh PLUGIN TEST-BINARY [TREE-TAG]: the short mode of turbomem_bench's
# crash scenario (bench_crash.c), judged:
# - turbomem, caches 0 and 256, bulks 1, 32 and random, 20 kills each (120
#   kills of a secondary): never wedged, every kill's loss within the
#   victim's in-flight bound, and each pool's census intact (drained one by
#   one: no object twice, as many as rte_mempool_avail_count() said, so
#   avail + lost == size);
# - ring_mp_mc, cache 0, bulk 32, 10 kills: wedged at least once (the
#   check can fail: a kill inside its critical window is detected);
# - SIGTERM in the middle of a run, a handler that does not exist, and
#   --kills 0: a non-zero exit (the refusals with one line naming the
#   value) and, after each run, no process and no EAL file (runtime
#   directory, hugepage file) of its pools left.
# Exits 77 (skipped) when 32 free 2 MB hugepages cannot be had.
# (run through with-plugin.sh so that PLUGIN is a path EAL accepts for -d)
set -uo pipefail

plugin=$1 bin=$2 tag=${3:-$$}
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
exec 2>&1

mnt=$(reserve_hugepages 32) || { log "SKIP: 32 free 2 MB hugepages not available"; exit 77; }
if [ "$(id -u)" -eq 0 ]; then rundir=/var/run/dpdk; else rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk; fi
prefix=tm-crash-bench-$tag
d=$(mktemp -d "${TMPDIR:-/tmp}/tm-crash.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$d" "$rundir/$prefix"' EXIT
bad=0

# bench NAME ARGS...: the bench in the background ($pid), output in $d/NAME.
bench() {
	local name=$1
	shift
	"$bin" --no-huge -m 64 --no-pci -d "$plugin" -l 0 --file-prefix="$prefix" \
		--no-telemetry --log-level=lib.eal:error -- turbomem_bench \
		--scenario crash "$@" >"$d/$name.log" 2>&1 &
	pid=$!
}

# finish NAME SECONDS: wait for the bench (killed after SECONDS); its exit
# status in rc. Then nothing of its pools may be left.
finish() {
	local name=$1 i left
	rc=
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		log "FAIL: $name: still running after $2 s"
		kill -9 "$pid"
		bad=1
	fi
	wait "$pid"
	rc=$?
	left=$(pgrep -f -- "--file-prefix=tm-crash-$pid-" || true)
	[ -z "$left" ] || { log "FAIL: $name: processes left: $left"; bad=1; }
	left=$(ls -d "$rundir/tm-crash-$pid-"* "$mnt/tm-crash-$pid-"* 2>/dev/null)
	[ -z "$left" ] || { log "FAIL: $name: EAL files left: $left"; bad=1; }
	pid=
}

# refused NAME PATTERN ARGS...: exit status not 0, a line matching PATTERN.
refused() {
	local name=$1 pat=$2
	shift 2
	bench "$name" "$@"
	finish "$name" 30
	if [ "$rc" = 0 ] || ! grep -q -- "$pat" "$d/$name.log"; then
		log "FAIL: $name: exit status $rc, expected non-zero and a line matching '$pat':"
		cat "$d/$name.log"
		bad=1
	else
		log "ok: $name (exit $rc): $(grep -- "$pat" "$d/$name.log" | head -1)"
	fi
}

# judge CSV PYTHON-CONDITION...: every row of the CSV must satisfy each
# condition (a Python expression over e: the row's extra as numbers, and r:
# the row).
judge() {
	python3 - "$@" <<'EOF'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
bad = 0
if not rows:
    print("FAIL: no rows in", sys.argv[1]); sys.exit(1)
for r in rows:
    e = {}
    for kv in r["extra"].split(";"):
        k, _, v = kv.partition("=")
        try:
            e[k] = float(v)
        except ValueError:
            e[k] = v
    what = "%s cache %s bulk %s" % (r["handler"], r["cache"], r["bulk"] or "random")
    if not r["status"].startswith(("ok", "n/a: every kill wedged")):
        print("FAIL: %s: status %s" % (what, r["status"])); bad = 1
        continue
    for cond in sys.argv[2:]:
        if not eval(cond):
            print("FAIL: %s: %s: %s" % (what, cond, r["extra"])); bad = 1
    print("%s: kills %d, wedged %d, lost per kill %.1f (max %d, bound max %d), "
          "recovery %.0f us median, %.0f us max (%.0f us not waiting for a CPU), census %s"
          % (what, e["kills"], e["wedged"], e["lost_per_kill_mean"],
             e["lost_per_kill_max"], e["bound_max"], e["recovery_us_median"],
             e["recovery_us_max"], e["recovery_run_us_max"], e["census"]))
sys.exit(bad)
EOF
}

t0=$SECONDS
bench turbomem --handlers turbomem --caches 0,256 --bulks 1,32,random --kills 20 \
	--csv "$d/turbomem.csv"
finish turbomem 120
[ "$rc" = 0 ] || { log "FAIL: turbomem run: exit status $rc"; tail -20 "$d/turbomem.log"; bad=1; }
judge "$d/turbomem.csv" 'e["kills"] == 20' 'e["wedged"] == 0' \
	'e["kills_over_bound"] == 0' 'e["census"] == "ok"' 'e["census_bad"] == 0' \
	'e["census_drained"] + e["census_lost"] == int(r["pool_size"])' || bad=1

bench ring --handlers ring_mp_mc --caches 0 --bulks 32 --kills 10 \
	--csv "$d/ring.csv"
finish ring 120
[ "$rc" = 0 ] || { log "FAIL: ring_mp_mc run: exit status $rc"; tail -20 "$d/ring.log"; bad=1; }
judge "$d/ring.csv" 'e["wedged"] >= 1' || bad=1

# SIGTERM while ring_mp_mc's pools wedge and restart.
bench sigterm --handlers ring_mp_mc --caches 0 --bulks 32 --kills 1000
sleep 3
kill -TERM "$pid"
finish sigterm 15
if [ "$rc" = 0 ]; then
	log "FAIL: SIGTERM: exit status 0"
	bad=1
else
	log "ok: SIGTERM (exit $rc): $(grep 'stopped by signal' "$d/sigterm.log" | head -1)"
fi

refused nosuch 'crash: handler "nosuch" is not a registered mempool ops' \
	--handlers turbomem,nosuch
refused kills0 '--kills 0, --stops 10: each must be in 1..' --kills 0

log "$((SECONDS - t0)) s"
exit $bad
