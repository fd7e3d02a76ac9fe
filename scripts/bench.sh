#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# bench.sh [quick|full|smoke]: run dpdk-test-turbomem's turbomem_bench
# scenarios (matrix in app/test-turbomem/bench_common.h) over the EAL
# invocations they need, merge their rows into one CSV and JSON, print the
# table (each handler's ratio to ring_mp_mc) and draw the charts.
#
# One EAL run per lcore layout and memory mode; inside a run every handler
# is measured round by round, interleaved, on the same lcores:
#   grid      1 lcore ('0@0,1@1'), 2 pinned ('0@0,1@0,2@1'),
#             6 on 2 CPUs ('0@0,(1-6)@(0,1)': oversubscribed),
#             unregistered threads (2 and, in full, 6)
#   pipeline  2 pinned
#   locality, hw   main lcore
#   deep      --no-huge (4 KB EAL memory; turbomem's own THP memory where
#             the driver provides it), then hugetlbfs on 2 MB pages reserved
#             with reserve_hugepages (scripts/common.sh); skipped, and said
#             so, when the kernel cannot give them
# Modes: quick (default, ~3 minutes: grid bulk 16 and random, keep 128,
# cache 0 and default), full (the whole matrix: about 25 minutes per
# --seconds 0.5), smoke (a seconds-long slice of every scenario, then a
# check that every expected row is there; what meson's perf suite runs),
# evidence and evidence-short (the runs of the evidence page, which they
# generate: scripts/bench-evidence.sh).
#
# Output in TM_RESULTS_DIR (default results/): bench.csv, bench.json,
# bench-table.txt, bench-*.png, parts/ (one CSV/JSON per EAL run), logs/.
#
# Environment:
#   TM_BUILD_DIR        build directory (default build)
#   TM_BENCH_APP        dpdk-test-turbomem (default $TM_BUILD_DIR/app/...)
#   TM_PLUGIN           the plugin (default $TM_BUILD_DIR/librte_mempool_turbomem.so)
#   TM_BENCH_HANDLERS   comma list (default: the app's: ring_mp_mc,
#                       ring_mt_rts,ring_mt_hts,stack,lf_stack,bucket,turbomem)
#   TM_BENCH_DEEP_HANDLERS  handlers of deep (default ring_mp_mc,turbomem)
#   TM_BENCH_SECONDS, TM_BENCH_ROUNDS   per measurement / rounds
#   TM_BENCH_DEEP_N     mbufs of deep (default 262143; smoke 8191)
#   TM_BENCH_HUGE       deep on hugetlbfs: auto (default: when pages can be
#                       reserved), 0 (never), 1 (required)
#   TM_BENCH_PLOT=0     no charts
#   TM_BENCH_SEED       random seed (default 1)
#   TM_RESULTS_DIR      output directory (default results)
#   TM_BENCH_PREFIX     EAL --file-prefix base (default tm-bench-<hash of
#                       the plugin path>)

set -euo pipefail
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
# shellcheck source=scripts/common.sh
. scripts/common.sh

mode=${1:-quick}
case "$mode" in
quick | full | smoke | evidence | evidence-short) ;;
*) echo "usage: $0 [quick|full|smoke|evidence|evidence-short]" >&2; exit 2 ;;
esac

log() { printf '[bench.sh] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

TM_BUILD_DIR=${TM_BUILD_DIR:-build}
TM_BENCH_APP=${TM_BENCH_APP:-$TM_BUILD_DIR/app/test-turbomem/dpdk-test-turbomem}
TM_PLUGIN=${TM_PLUGIN:-$TM_BUILD_DIR/librte_mempool_turbomem.so}
case "$mode" in evidence*) TM_RESULTS_DIR=${TM_RESULTS_DIR:-$repo/results/evidence} ;; esac
TM_RESULTS_DIR=${TM_RESULTS_DIR:-$repo/results}
TM_BENCH_HUGE=${TM_BENCH_HUGE:-auto}
TM_BENCH_SEED=${TM_BENCH_SEED:-1}
PYTHON=$(pick_tool python3 /usr/bin/python3) || die "python3 not found"

[ -x "$TM_BENCH_APP" ] || die "$TM_BENCH_APP not found: build first (meson setup build && ninja -C build)"
[ -f "$TM_PLUGIN" ] || die "$TM_PLUGIN not found: build first"
# EAL refuses -d under world-writable directories: with-plugin.sh gives a
# path it accepts, and @TREE@ a hash of the plugin path for the prefix.
plugin=$(scripts/with-plugin.sh "$TM_PLUGIN" echo @PLUGIN@)
tree=$(scripts/with-plugin.sh "$TM_PLUGIN" echo @TREE@)
prefix=${TM_BENCH_PREFIX:-tm-bench-$tree}

case "$mode" in
quick)
	secs=${TM_BENCH_SECONDS:-0.25}; rounds=${TM_BENCH_ROUNDS:-3}
	grid_m=(--bulks 16,random --keeps 128 --caches 0,default)
	nonEAL=(2); deep_n=${TM_BENCH_DEEP_N:-262143}; deep_secs=0.5 ;;
full)
	secs=${TM_BENCH_SECONDS:-0.5}; rounds=${TM_BENCH_ROUNDS:-3}
	grid_m=(--bulks 1,4,16,32,random --keeps 32,128,512 --caches 0,default)
	nonEAL=(2 6); deep_n=${TM_BENCH_DEEP_N:-262143}; deep_secs=1 ;;
smoke)
	secs=${TM_BENCH_SECONDS:-0.02}; rounds=${TM_BENCH_ROUNDS:-1}
	grid_m=(--bulks 1,random --keeps 32 --caches 0,default)
	nonEAL=(2); deep_n=${TM_BENCH_DEEP_N:-8191}; deep_secs=0.05 ;;
evidence) # scripts/bench-evidence.sh: the claims of the evidence page
	secs=${TM_BENCH_SECONDS:-0.5}; rounds=${TM_BENCH_ROUNDS:-5}
	deep_n=${TM_BENCH_DEEP_N:-262143}; deep_secs=1 ;;
evidence-short) # the same set in seconds, for CI
	secs=${TM_BENCH_SECONDS:-0.02}; rounds=${TM_BENCH_ROUNDS:-1}
	deep_n=${TM_BENCH_DEEP_N:-8191}; deep_secs=0.05 ;;
esac
handlers=()
[ -n "${TM_BENCH_HANDLERS:-}" ] && handlers=(--handlers "$TM_BENCH_HANDLERS")
deep_handlers=${TM_BENCH_DEEP_HANDLERS:-ring_mp_mc,turbomem}
common=(--seconds "$secs" --rounds "$rounds" --seed "$TM_BENCH_SEED" "${handlers[@]}")

out=$TM_RESULTS_DIR
rm -rf "$out/parts" "$out/logs"
mkdir -p "$out/parts" "$out/logs"
manifest=$out/parts/manifest.txt
: >"$manifest"

# EAL runtime directories of our prefixes, removed on exit.
if [ "$(id -u)" -eq 0 ]; then rundir=/var/run/dpdk; else rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk; fi
trap 'rm -rf "$rundir/$prefix"-*' EXIT

nrun=0
# run NAME "EAL args" turbomem_bench-args...: one EAL invocation.
run() {
	local name=$1 eal=$2
	shift 2
	nrun=$((nrun + 1))
	local part=$out/parts/$(printf '%02d' $nrun)-$name lg
	lg=$out/logs/$(printf '%02d' $nrun)-$name.log
	local -a eal_args
	read -r -a eal_args <<<"$eal"
	log "run $nrun: $name: EAL ${eal_args[*]}"
	local rc=0
	"$TM_BENCH_APP" "${eal_args[@]}" --no-pci -d "$plugin" \
		--file-prefix="$prefix-$nrun" --no-telemetry \
		-- turbomem_bench "${common[@]}" "$@" \
		--csv "$part.csv" --json "$part.json" >"$lg" 2>"$lg.stderr" &
	local pid=$!
	# Progress lines on the terminal as they come, EAL's chatter in the log.
	tail -s 0.2 -n +1 -f --pid=$pid "$lg.stderr" 2>/dev/null | grep --line-buffered '^\[bench\]' >&2 || true
	wait $pid || rc=$?
	if [ $rc -ne 0 ] || [ ! -f "$part.csv" ]; then
		tail -n 20 "$lg" "$lg.stderr" >&2
		die "$name failed (rc $rc); log: $lg"
	fi
	# For the check: what this run was asked for.
	echo "$part.csv ${common[*]} $*" >>"$manifest"
}

nohuge=(--no-huge -m 512)
t0=$SECONDS
case "$mode" in
# Its own runs, page and exit (scripts/bench-evidence.sh).
evidence*) . scripts/bench-evidence.sh ;;
esac
run grid-1lcore "${nohuge[*]} --lcores 0@0,1@1" --scenario grid --layout "1 lcore" "${grid_m[@]}"
run grid-2pinned "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario grid --layout "2 pinned" "${grid_m[@]}"
run grid-6on2 "${nohuge[*]} --lcores 0@0,(1-6)@(0,1)" --scenario grid --layout "6 on 2 CPUs" "${grid_m[@]}"
for n in "${nonEAL[@]}"; do
	run "grid-${n}nonEAL" "${nohuge[*]} -l 0" --scenario grid --nonEAL "$n" --layout "$n nonEAL" "${grid_m[@]}"
done
run pipeline "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario pipeline --layout "2 pinned" --bulks 32 --caches 0,default
run locality "${nohuge[*]} -l 0" --scenario locality --layout "main lcore" --caches 0,default --inflight 32,512
if [ "$mode" = smoke ]; then
	# The no-PMU path, whatever this machine has.
	run hw-off "${nohuge[*]} -l 0" --scenario hw --layout "main lcore" --pmu off
fi
run hw "${nohuge[*]} -l 0" --scenario hw --layout "main lcore"

# deep: pool memory in 4 KB pages takes a page per mbuf in --no-huge
# (objects do not cross pages): size -m for it.
deep=(--scenario deep --layout "main lcore" --deep-n "$deep_n" --handlers "$deep_handlers" --seconds "$deep_secs")
mb_nohuge=$(( (deep_n * 4096 >> 20) + 256 ))
run deep-nohuge "--no-huge -m $mb_nohuge -l 0" "${deep[@]}"
if [ "$TM_BENCH_HUGE" != 0 ]; then
	# 2432 bytes per packed mbuf, plus room for rings and maps.
	pages=$(( deep_n * 2432 / 2097152 * 5 / 4 + 64 ))
	if mnt=$(reserve_hugepages "$pages"); then
		run deep-hugetlbfs "-m $((pages * 2)) --huge-dir $mnt -l 0" "${deep[@]}"
	elif [ "$TM_BENCH_HUGE" = 1 ]; then
		die "deep on hugetlbfs: cannot reserve $pages 2 MB pages"
	else
		log "deep on hugetlbfs skipped: cannot reserve $pages 2 MB pages (see above)"
		echo "deep-hugetlbfs skipped: cannot reserve $pages 2 MB hugepages" >"$out/parts/skipped.txt"
	fi
fi
log "$nrun EAL runs in $((SECONDS - t0))s"

"$PYTHON" scripts/bench_report.py merge "$out" "$out/parts"/[0-9]*.csv
"$PYTHON" scripts/bench_report.py table "$out/bench.csv" | tee "$out/bench-table.txt"
if [ "$mode" = smoke ]; then
	"$PYTHON" scripts/bench_report.py check "$manifest"
fi
if [ "${TM_BENCH_PLOT:-1}" != 0 ]; then
	if "$PYTHON" -c 'import matplotlib' 2>/dev/null; then
		"$PYTHON" scripts/plot.py "$out/bench.csv" "$out"
	else
		log "matplotlib missing (python3-matplotlib): no charts"
		[ "$mode" = smoke ] || exit 1
	fi
fi
log "results: $out/bench.csv $out/bench.json $out/bench-table.txt"
