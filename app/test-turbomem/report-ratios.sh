#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# report-ratios.sh BENCH_REPORT.PY: the bench table's ratios are the median
# of the rounds' ratios, not the ratio of the handlers' medians. A grid row
# whose rounds slowed down halfway (as this guest does) gives different
# answers: ring_mp_mc 16 17 17 5 5 and turbomem 60 62 9 10 9 Mobj/s are
# 0.625x by their medians and 2x by their rounds (3.75 3.65 0.53 2 1.8).
# The chunks summary: many chunks / one chunk, per round, the same way.
report=$1
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
bad=0

cat >"$d/bench.json" <<'JSON'
{"scenarios": {
 "grid": {"figure": "mobj_per_s", "scale": 1000000.0, "unit": "Mobj/s",
  "higher_is_better": true, "stat": "median",
  "params": "bulk {bulk}, keep {keep}, cache {cache}", "charts": ""},
 "chunks": {"figure": "mobj_per_s", "scale": 1000000.0, "unit": "Mobj/s",
  "higher_is_better": true, "stat": "median",
  "params": "bulk {bulk}, keep {keep}, cache {cache}", "charts": ""}}}
JSON
h=run,scenario,handler,layout,bulk,keep,cache,mobj_per_s,stat,samples,status
{
	echo "$h"
	echo "g,grid,ring_mp_mc,2 pinned,1,32,0,16e6,median,16 17 17 5 5,ok"
	echo "g,grid,turbomem,2 pinned,1,32,0,10e6,median,60 62 9 10 9,ok"
	echo "g,grid,stack,2 pinned,1,32,0,8e6,best,8 8 8 8 8,ok"
	echo "c,chunks,turbomem,1 chunk,16,128,0,100e6,median,100 100 90,ok"
	echo "c,chunks,turbomem,1000 chunks,16,128,0,80e6,median,80 95 90,ok"
} >"$d/bench.csv"
out=$(python3 "$report" table "$d/bench.csv" 2>&1) || { echo "FAIL: table: $out"; exit 1; }

# expect PATTERN WHY
expect() {
	if ! printf '%s\n' "$out" | grep -q -- "$1"; then
		echo "FAIL: no line matching '$1' ($2):"
		printf '%s\n' "$out"
		bad=1
	fi
}
expect '^2 pinned .* 16  *2x  *0.5x$' "grid: the median of the rounds' ratios (stack: a best-of row, the ratio of its figures)"
expect 'turbomem bulk 16 keep 128: 1000 chunks / 1 chunk 1.053x (rounds 1.25 1.05 1.00)' "chunks: the median of the rounds' ratios of time per object"
[ $bad = 0 ] && echo "report ratios: ok"
exit $bad
