#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# track-cost.sh BASE_BUILD BUILD [BULKS]
#
# Instruction cost of held-object tracking, counted with callgrind (not
# timed: valid on a loaded machine). For each bulk size (default "1 32"),
# runs turbomem_bench grid (1 worker, cache 0, so every get and put reaches
# the driver) under valgrind --tool=callgrind and prints the instructions
# per object of turbomem_dequeue + turbomem_enqueue, inclusive:
#   base      BASE_BUILD's plugin (e.g. main without tracking)
#   off       BUILD's plugin, handler turbomem (tracking compiled in, off)
#   on        BUILD's plugin, handler turbomem+track (tracking on)
# BASE_BUILD and BUILD are meson build directories of this project.
set -euo pipefail

base=$1 build=$2 bulks=${3:-1 32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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

run() { # run NAME BUILD HANDLER BULK
	valgrind --tool=callgrind --callgrind-out-file="$work/$1-$4.out" \
		"$2/app/test-turbomem/dpdk-test-turbomem" --no-huge -m 512 \
		--no-pci -d "$2/librte_mempool_turbomem.so" -l 0-1 \
		--file-prefix="tm-trackcost-$$" -- turbomem_bench --scenario grid \
		--handlers "$3" --bulks "$4" --keeps 32 --caches 0 \
		--seconds 0.3 --rounds 1 >"$work/$1-$4.log" 2>&1
	ir_per_obj "$work/$1-$4.out" "$4"
}

echo "# callgrind instructions per object (get + put, cache 0, 1 worker); $(uptime | sed 's/.*load/load/')"
echo "bulk,base,off,on"
for b in $bulks; do
	echo "$b,$(run base "$base" turbomem "$b"),$(run off "$build" turbomem "$b"),$(run on "$build" turbomem+track "$b")"
done
