#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# results-guard.sh BENCH_REPORT.PY README.RST: the results page's guard
# (bench_report.py results, as scripts/bench.sh results runs it) on
# results directories made up here, shaped as bench.sh writes them (a
# grid, chunks and locality row, testpmd on --no-huge), each against the
# page the one before wrote:
#   first    no page yet: written, nothing to compare
#   worse    turbomem's ratio below 0.8x of the page's in grid (0.9x to
#            0.71x), chunks (0.91x to 0.17x), locality (lower is better:
#            0.2x to 1x) and testpmd (2x to 1x): exit 1, a REGRESSION line
#            each and no other, the page and the README byte-identical;
#            not counted: a cell the old page had as "-", one only in the
#            new page, one only in the old
#   accepted the same with a reason: written, the reason and the cells in
#            its "Accepted Regressions" section; an empty reason refused
#   same     the accepted page replaced by the same figures: no regression
#   within   every ratio at 0.8x of the old or better (grid 0.9x to 0.73x):
#            written, four cells compared, nothing accepted
#   short    a results-short run, worse: written, not compared
report=$1
readme=$2
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
bad=0
page=$d/doc/turbomem_results.rst
mkdir -p "$d/doc"
{
	echo "The README"
	echo
	sed -n '/^\.\. results-begin /,/^\.\. results-end$/p' "$readme"
} >"$d/README.rst"
grep -q '^\.\. results-end$' "$d/README.rst" || { echo "FAIL: no results block in $readme"; exit 1; }

# results NAME MODE GRID16 GRID32 CHUNKS16 CHUNKS32 LOCALITY TESTPMD PINNED:
# $d/NAME, turbomem's figures against ring_mp_mc's 100 and 500 Mobj/s
# (grid, chunks), 40 cycles/obj (locality), 10 Mpps (testpmd); "" leaves
# a row out, "skip" gives a skipped one.
results() {
	r=$d/$1
	mkdir -p "$r/testpmd/nohuge-r1"
	printf 'cpu: made up\nmode: %s\n' "$2" >"$r/machine.txt"
	cat >"$r/bench.json" <<'JSON'
{"runs": [], "expected": [], "rows": [], "scenarios": {
 "grid": {"figure": "mobj_per_s", "scale": 1000000.0, "unit": "Mobj/s",
  "higher_is_better": true, "stat": "median",
  "params": "bulk {bulk}, keep {keep}, cache {cache}", "charts": ""},
 "chunks": {"figure": "mobj_per_s", "scale": 1000000.0, "unit": "Mobj/s",
  "higher_is_better": true, "stat": "median",
  "params": "bulk {bulk}, keep {keep}, cache {cache}", "charts": ""},
 "locality": {"figure": "cycles_per_obj", "scale": 1.0, "unit": "cycles/obj",
  "higher_is_better": false, "stat": "median",
  "params": "bulk {bulk}, {keep} in flight, cache {cache}", "charts": ""}}}
JSON
	{
		echo "run,scenario,handler,layout,bulk,keep,cache,mobj_per_s,cycles_per_obj,stat,samples,status"
		row() { # SCENARIO LAYOUT BULK BASE TURBOMEM [FIGURE COLUMN]
			[ -n "$5" ] || return 0
			for h in ring_mp_mc turbomem; do
				v=$4 st=ok
				[ $h = turbomem ] && v=$5
				[ "$v" = skip ] && v= st="skip: made up"
				if [ "${6:-}" = cycles ]; then
					echo "01-$1,$1,$h,$2,$3,32,0,,$v,median,,$st"
				else
					echo "01-$1,$1,$h,$2,$3,128,0,${v:+${v}e6},,median,,$st"
				fi
			done
		}
		row grid "1 lcore" 16 100 "$3"
		row grid "1 lcore" 32 100 "$4"
		row grid "2 pinned" 16 100 "$9"
		row chunks "1000 chunks" 16 500 "$5"
		row chunks "1000 chunks" 32 500 "$6"
		row locality "main lcore" 32 40 "$7" cycles
	} >"$r/bench.csv"
	{
		echo "handler,mbcache,round,rx_pps,kept"
		echo "ring_mp_mc,0,1,10e6,1"
		echo "turbomem,0,1,${8}e6,1"
	} >"$r/testpmd/nohuge-r1/testpmd.csv"
}

results first results 90 95 455 skip 8 20 ""
results worse results 71 "" 85 50 40 10 10
results within results 73 "" 425 50 9.6 17 ""
results short results-short 10 "" 85 50 40 10 ""

# generate NAME [OPTIONS]: the page of $d/NAME into $page (and the README)
generate() {
	r=$1
	shift
	out=$(python3 "$report" results "$d/$r" "$page" --readme "$d/README.rst" "$@" 2>&1)
}

generate first
expect $? 0 "no page at $page: nothing to compare against" "first: no page before it"
grep -q '^   16   128  0     100        0.9x$' "$page" ||
	{ echo "FAIL: first: no grid row of 0.9x in the page:"; cat "$page"; bad=1; }
cp "$page" "$d/first.rst"
cp "$d/README.rst" "$d/README.first"

generate worse
expect $? 1 "^REGRESSION chunks 1000 chunks, bulk 16, keep 128, cache 0 0.91 -> 0.17$" \
	"worse: chunks below 0.8x"
for l in "grid 1 lcore, bulk 16, keep 128, cache 0 0.9 -> 0.71" \
	"locality main lcore, bulk 32, in flight 32, cache 0 0.2 -> 1" \
	"testpmd --no-huge, mbcache 0 2.00 -> 1.00"; do
	printf '%s\n' "$out" | grep -qx "REGRESSION $l" ||
		{ echo "FAIL: worse: no line 'REGRESSION $l'"; bad=1; }
done
n=$(printf '%s\n' "$out" | grep -c '^REGRESSION ')
[ "$n" = 4 ] || { echo "FAIL: worse: $n REGRESSION lines, not 4:"; printf '%s\n' "$out"; bad=1; }
cmp -s "$page" "$d/first.rst" || { echo "FAIL: worse: the page was written"; bad=1; }
cmp -s "$d/README.rst" "$d/README.first" || { echo "FAIL: worse: the README was written"; bad=1; }

generate worse --accept ""
expect $? 1 "accept needs a reason" "worse: an empty reason"
cmp -s "$page" "$d/first.rst" || { echo "FAIL: empty reason: the page was written"; bad=1; }

# What bench.sh passes of TM_RESULTS_ACCEPT.
TM_RESULTS_ACCEPT="chunks: the member-block core, to be fixed"
generate worse --accept "$TM_RESULTS_ACCEPT"
expect $? 0 "4 regressions accepted: $TM_RESULTS_ACCEPT" "accepted: written"
for l in "Accepted Regressions" "Reason: $TM_RESULTS_ACCEPT" \
	"\* chunks, 1000 chunks, bulk 16, keep 128, cache 0: 0.17x, was 0.91x" \
	"\* testpmd, --no-huge, mbcache 0: 1.00x, was 2.00x" \
	"   16   128  0     500        0.17x" "   16   128  0     100        0.1x"; do
	grep -q "^$l" "$page" || { echo "FAIL: accepted: no line '$l' on the page"; bad=1; }
done
cmp -s "$d/README.rst" "$d/README.first" && { echo "FAIL: accepted: README not written"; bad=1; }

generate worse
expect $? 0 "6 turbomem ratios compared with $page's, 0 below 0.8x" "same: the accepted page"
grep -q "Accepted Regressions" "$page" && { echo "FAIL: same: a section of regressions"; bad=1; }

cp "$d/first.rst" "$page"
generate within
expect $? 0 "4 turbomem ratios compared with $page's, 0 below 0.8x" "within: 0.8x or better"
grep -q '^   16   128  0     100        0.73x$' "$page" ||
	{ echo "FAIL: within: the page was not written"; bad=1; }
grep -q "Accepted Regressions" "$page" && { echo "FAIL: within: a section of regressions"; bad=1; }

cp "$d/first.rst" "$page"
generate short
expect $? 0 "a page of results-short: its figures are not compared" "short: not compared"
grep -q '^   16   128  0     100        0.1x$' "$page" ||
	{ echo "FAIL: short: the page was not written"; bad=1; }
exit $bad
