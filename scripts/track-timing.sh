#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# track-timing.sh BASE_BUILD BUILD [PAIRS] [GRID OPTIONS...]
#
# Timed cost of held-object tracking on the turbomem_bench grid, made for
# a noisy shared machine:
# - off: BASE_BUILD's plugin (no tracking code) against BUILD's (tracking
#   compiled in, off). Two plugins cannot share a process, so the runs
#   alternate base, build, base, build... PAIRS times (default 5) and the
#   script prints, per grid cell, the median over pairs of build/base.
# - on: in each of BUILD's runs, turbomem and turbomem+track run side by
#   side, interleaved round by round by the bench itself; the script prints
#   the median of their ratio and the extra nanoseconds per object.
# Grid options default to 1 worker, bulks 1 and 32, keep 32, caches 0 and
# default. The load (uptime) is printed with the figures.
set -euo pipefail

base=$1 build=$2 pairs=${3:-5}
shift 3 2>/dev/null || shift $#
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--bulks 1,32 --keeps 32 --caches 0,default
	--seconds 0.3 --rounds 3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run BUILD HANDLERS CSV
	"$1/app/test-turbomem/dpdk-test-turbomem" --no-huge -m 512 --no-pci \
		-d "$1/librte_mempool_turbomem.so" -l 0-1 \
		--file-prefix="tm-tracktiming-$$" -- turbomem_bench \
		--scenario grid --handlers "$2" "${opts[@]}" --csv "$3" \
		>"$3.log" 2>&1 || { tail -5 "$3.log"; exit 1; }
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
