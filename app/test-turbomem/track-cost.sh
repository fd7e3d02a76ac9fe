#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The cost of held-object tracking, measured two ways. BASE_BUILD and
# BUILD are meson build directories of this project (e.g. main without
# tracking, and the tree under test).
#
# track-cost.sh BASE_BUILD BUILD [BULKS]
#  Instructions, counted with callgrind (not timed: valid on a loaded
#  machine). For each bulk size (default "1 32"), runs turbomem_bench grid
#  (1 worker, cache 0, so every get and put reaches the driver) under
#  valgrind --tool=callgrind and prints the instructions per object of
#  turbomem_dequeue + turbomem_enqueue, inclusive:
#    base      BASE_BUILD's plugin
#    off       BUILD's plugin, handler turbomem (tracking compiled in, off)
#    on        BUILD's plugin, handler turbomem+track (tracking on)
#
# track-cost.sh --timing BASE_BUILD BUILD [PAIRS] [GRID OPTIONS...]
#  Time on the turbomem_bench grid, made for a noisy shared machine:
#  - off: BASE_BUILD's plugin (no tracking code) against BUILD's (tracking
#    compiled in, off). Two plugins cannot share a process, so the runs
#    alternate base, build, base, build... PAIRS times (default 5) and the
#    script prints, per grid cell, the median over pairs of build/base.
#  - on: in each of BUILD's runs, turbomem and turbomem+track run side by
#    side, interleaved round by round by the bench itself; the script
#    prints the median of their ratio and the extra nanoseconds per object.
#  Grid options default to 1 worker, bulks 1 and 32, keep 32, caches 0 and
#  default. The load (uptime) is printed with the figures.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"

# bench BUILD OUT ARGS...: turbomem_bench on BUILD's plugin, output in
# OUT, under the command in the array "wrap" when the caller has one.
bench() {
	local b=$1 out=$2
	shift 2
	"${wrap[@]}" "$b/app/test-turbomem/dpdk-test-turbomem" --no-huge -m 512 --no-pci \
		-d "$b/librte_mempool_turbomem.so" -l 0-1 \
		--file-prefix="tm-trackcost-$$" -- turbomem_bench --scenario grid \
		"$@" >"$out" 2>&1
}

wrap=(env)
work=$(mktemp -d)
trap 'rm -rf "$work"; eal_remove "tm-trackcost-$$"' EXIT

# --- instructions (callgrind), the default ---------------------------------
if [ "${1:-}" != --timing ]; then
base=$1 build=$2 bulks=${3:-1 32}

# ir_per_obj OUT BULK: inclusive Ir of dequeue + enqueue per object.
ir_per_obj() {
	callgrind_annotate --inclusive=yes --tree=caller "$1" 2>/dev/null |
	python3 -c '
import re, sys
bulk = int(sys.argv[1])
ir, calls, pending = {}, {}, 0
# --tree=caller: the callers ("<" lines, with call counts) come before
# the function ("*" line, inclusive cost).
for line in sys.stdin:
    m = re.match(r"\s*[\d,]+ \([^)]*\)\s+<\s+\S*:grid_loop \(([\d,]+)x\)", line)
    if m:
        pending += int(m.group(1).replace(",", ""))
        continue
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+\*\s+\S*:(\S+) ", line)
    if m:
        if m.group(2) in ("turbomem_dequeue", "turbomem_enqueue"):
            ir[m.group(2)] = int(m.group(1).replace(",", ""))
            calls[m.group(2)] = pending
        pending = 0
tot = sum(ir[f] / calls[f] for f in ir if calls.get(f))
print("%.1f" % (tot / bulk))
' "$2"
}

callgrind() { # callgrind NAME BUILD HANDLER BULK
	local wrap=(valgrind --tool=callgrind --callgrind-out-file="$work/$1-$4.out")
	bench "$2" "$work/$1-$4.log" --handlers "$3" --bulks "$4" \
		--keeps 32 --caches 0 --seconds 0.3 --rounds 1
	ir_per_obj "$work/$1-$4.out" "$4"
}

echo "# callgrind instructions per object (get + put, cache 0, 1 worker); $(uptime | sed 's/.*load/load/')"
echo "bulk,base,off,on"
for b in $bulks; do
	echo "$b,$(callgrind base "$base" turbomem "$b"),$(callgrind off "$build" turbomem "$b"),$(callgrind on "$build" turbomem+track "$b")"
done
exit 0
fi

# --- --timing ----------------------------------------------------------------
shift
base=$1 build=$2 pairs=${3:-5}
shift 3 2>/dev/null || shift $#
opts=("$@")
# shellcheck disable=SC2054 # (commas: the bench's list syntax)
[ ${#opts[@]} -gt 0 ] || opts=(--bulks 1,32 --keeps 32 --caches 0,default
	--seconds 0.3 --rounds 3)
run() { # run BUILD HANDLERS CSV
	bench "$1" "$3.log" --handlers "$2" "${opts[@]}" --csv "$3" ||
		{ tail -5 "$3.log"; exit 1; }
}

echo "# $(uptime | sed 's/.*load/load/'); $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
for ((i = 0; i < pairs; i++)); do
	run "$base" turbomem "$work/base-$i.csv"
	run "$build" turbomem,turbomem+track "$work/build-$i.csv"
done
echo "# after: $(uptime | sed 's/.*load/load/')"

python3 - "$work" "$pairs" <<'PY'
import csv, statistics, sys
work, pairs = sys.argv[1], int(sys.argv[2])
def rows(path):
    out = {}
    for r in csv.DictReader(l for l in open(path) if not l.startswith("#")):
        if r["scenario"] != "grid" or r["mobj_per_s"] in ("", "nan"):
            continue
        key = "bulk %s keep %s cache %s" % (r["bulk"], r["keep"], r["cache"])
        out[(key, r["handler"])] = float(r["mobj_per_s"])
    return out
off, on, ns = {}, {}, {}
for i in range(pairs):
    b = rows("%s/base-%d.csv" % (work, i))
    m = rows("%s/build-%d.csv" % (work, i))
    for (key, h), v in m.items():
        if h == "turbomem" and (key, "turbomem") in b:
            off.setdefault(key, []).append(v / b[(key, "turbomem")])
        if h == "turbomem+track" and (key, "turbomem") in m:
            t = m[(key, "turbomem")]
            on.setdefault(key, []).append(v / t)
            ns.setdefault(key, []).append(1e9 / v - 1e9 / t)  # obj/s
print("cell,off_vs_base_median,off_min,off_max,on_vs_off_median,on_extra_ns_per_obj_median")
for key in sorted(off):
    print("%s,%.3f,%.3f,%.3f,%.3f,%.1f" % (key, statistics.median(off[key]),
        min(off[key]), max(off[key]), statistics.median(on.get(key, [0])),
        statistics.median(ns.get(key, [0]))))
PY
