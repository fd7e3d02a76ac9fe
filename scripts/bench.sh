#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# bench.sh [MODE]: run dpdk-test-turbomem's turbomem_bench scenarios (one
# app/test-turbomem/bench_*.c each, its matrix at its head) over the EAL
# invocations they need, merge their rows into one CSV and JSON, print the
# table (each handler's ratio to ring_mp_mc) and draw the charts.
#
# One EAL run per lcore layout and memory mode; inside a run every handler
# is measured round by round, interleaved, on the same lcores:
#   grid      1 lcore ('0@0,1@1'), 2 pinned ('0@0,1@0,2@1'),
#             6 on 2 CPUs ('0@0,(1-6)@(0,1)': oversubscribed),
#             unregistered threads (2 and, in full, 6) on every CPU
#   pipeline  2 pinned
#   contract  2 pinned and 6 on 2 CPUs: the count exact at rest and never
#             above the size under load, its cost, all-or-nothing gets
#             under contention, no cache (bench_contract.c)
#   locality, hw   main lcore
#   deep      --no-huge (4 KB EAL memory; turbomem's own THP memory where
#             the driver provides it), then hugetlbfs on 2 MB pages reserved
#             with reserve_hugepages (scripts/common.sh); skipped, and said
#             so, when the kernel cannot give them
#   chunks    full only, 1 lcore: a pool of 1000 chunks against one of a
#             single chunk, bulks 1, 16, 32 and random, keep 128
#   memory    --no-huge, main lcore: each handler's bytes per object, measured
#             in the heaps, pools of deep's size of 64 and 2176-byte objects
#   crash, stop  full (and the crash modes): a secondary sharing a pool in
#             2 MB hugepages killed 200 times, stopped 10 times, per
#             handler and shape (bench_crash.c); 32 pages reserved; smoke:
#             twice and once, bulk 32
#   others    smoke and results-short only: every other registered scenario
#             ("--scenario list"), on 1 lcore ('0@0,1@1'); so is hw with
#             --pmu off
# Modes: quick (default, ~3 minutes: grid bulk 16 and random, keep 128,
# cache 0 and default), full (the whole matrix: about 25 minutes per
# --seconds 0.5, and 40 of crash and stop), smoke (a seconds-long slice
# of every scenario, then a check that every row the app expected is
# there: a minute's check while changing the app), evidence and evidence-short (the runs of the evidence page, which
# they generate), results (what full runs, then testpmd on three memories,
# and the results page generated from both, the project's one place for
# figures: about 75 minutes), results-short (the same in seconds, with
# smoke's every scenario, and the check of every row: meson's perf suite),
# vs-dpdk (the grid against DPDK's mempool_perf_autotest), cache-claim (the
# cache scenario on the system DPDK and a second one), ovs (Open vSwitch
# forwarding on ring_mp_mc and turbomem), crash and crash-short (the crash
# and stop scenarios alone, and the results page's section and README row
# made from them); each is described at its function below.
# Reports, tables and charts: scripts/bench_report.py.
#
# Output in TM_RESULTS_DIR (default results/): bench.csv, bench.json,
# bench-table.txt, bench-*.png, parts/ (one CSV/JSON per EAL run), logs/;
# the results modes add machine.txt, commands.tsv and testpmd/
# (results_testpmd below).
#
# Environment:
#   TM_BUILD_DIR        build directory (default build)
#   TM_BENCH_APP        dpdk-test-turbomem (default $TM_BUILD_DIR/app/...)
#   TM_PLUGIN           the plugin (default $TM_BUILD_DIR/librte_mempool_turbomem.so)
#   TM_BENCH_HANDLERS   comma list (default: the app's, bench_common.h)
#   TM_BENCH_DEEP_HANDLERS  handlers of deep (default ring_mp_mc,pile,turbomem)
#   TM_BENCH_SECONDS, TM_BENCH_ROUNDS   per measurement / rounds
#   TM_BENCH_DEEP_N     mbufs of deep (default 262143; smoke 8191)
#   TM_BENCH_HUGE       deep on hugetlbfs: auto (default: when pages can be
#                       reserved), 0 (never), 1 (required)
#   TM_BENCH_PLOT=0     no charts
#   TM_BENCH_SEED       random seed (default 1)
#   TM_RESULTS_DIR      output directory (default results)
#   TM_BENCH_PREFIX     EAL --file-prefix base (default tm-bench-<hash of
#                       the plugin path>)
#   TM_DPDK_PREFIX      measure on the DPDK installed in this prefix instead
#                       of the system's: the project is built out of tree
#                       against it (build-dpdk-<version>, the -d plugin of
#                       that DPDK) and run with its libraries and handlers
#   TM_BENCH_DPDK       a DPDK release to measure on (e.g. 26.07): built
#                       with turbomem in tree and installed in a private
#                       prefix by scripts/dpdk.sh (dpdk_build, cached by
#                       checksum; the source as dpdk_tarball finds it), then
#                       as TM_DPDK_PREFIX
#   TM_RESULTS_PAGE     results: the page to write (default
#                       doc/guides/mempool/turbomem_results.rst;
#                       results-short: in a copy of doc/ in TM_RESULTS_DIR,
#                       built with sphinx-build -W)
#   TM_RESULTS_README   results: the README whose block between the lines
#                       ".. results-begin (...)" and ".. results-end" gets
#                       the key cells (default README.rst; results-short,
#                       or "": none)
#   TM_RESULTS_TP_ROUNDS  results: testpmd rounds (default 3; short 1)
#   TM_RESULTS_ACCEPT   results: the reason (written on the page) to replace
#                       a page although turbomem ratios fell below 0.8x of its
#                       (turbomem_testing.rst, "Results Page Guard")

set -euo pipefail
export LC_ALL=C
# The command as given, with the TM_* settings it ran under, for the pages.
cmdline=$(for v in ${!TM_@} TESTPMD; do
	[ -z "${!v+set}" ] || printf '%s=%q ' "$v" "${!v}"
done)"scripts/bench.sh $*"

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
# shellcheck source=scripts/common.sh
. scripts/common.sh
# shellcheck source=scripts/dpdk.sh
. scripts/dpdk.sh

mode=${1:-quick}
case "$mode" in
quick | full | smoke | evidence | evidence-short | results | results-short | vs-dpdk | cache-claim | ovs | crash | crash-short | gate) ;;
*) echo "usage: $0 [quick|full|smoke|evidence|evidence-short|results|results-short|vs-dpdk|cache-claim|ovs|crash|crash-short|gate]" >&2
	exit 2 ;;
esac
# A reason that says nothing is refused now, not after the runs.
if [ "$mode" = results ] && [ -n "${TM_RESULTS_ACCEPT+set}" ] &&
	[ -z "${TM_RESULTS_ACCEPT//[[:space:]]/}" ]; then
	die "TM_RESULTS_ACCEPT is empty: give the reason for accepting regressions"
fi

# vs-dpdk: DPDK's own benchmark, mempool_perf_autotest (dpdk-test), on
# ring_mp_mc and each of TM_REF_HANDLERS (default pile and turbomem) as
# its default pool (--mbuf-pool-ops-name; turbomem's plugin
# with -d), beside turbomem_bench's grid on the same cases: get and put
# bulk {1, 4, 32}, keep {32, 128, 512}, 1 and 2 cores (-l 0-1; the grid's
# "1 lcore" and "2 pinned"), no cache and a cache of 512, 2048-byte
# objects. On the DPDK of TM_BENCH_DPDK or TM_DPDK_PREFIX, its own
# dpdk-test (pile: TM_BENCH_DPDK=26.07-pile); else the system's (Debian's
# 22.11, where pile's rows are "-"). "bench.sh results" runs it last and
# its page has the figures.
#
# mempool_perf_autotest times each of its thousands of cases for 1 s
# (22.11: 5 s). A preloaded shim makes rte_get_tsc_hz() report
# 1/TM_REF_SPEEDUP of the real frequency: each case then lasts a
# TM_REF_SPEEDUP-th of that, or one pass of its loop where that is longer
# (about 6 minutes a handler on 26.07, 2 vCPUs), and its printed
# rate_persec is multiplied back by TM_REF_SPEEDUP. The test's own loop,
# pools and counting are untouched (2 GB of --no-huge memory: its four
# pools of 67583 objects). Its ring_mp_mc figures are the library's pools
# ("using ring_mp_mc") of every run: each handler's ratio is to those of
# its own run.
#
# The grid runs the same cases, 5 / TM_REF_SPEEDUP s each. Both run
# TM_REF_ROUNDS times, alternately; each case keeps its best round (on a
# shared machine, the least disturbed one). Printed side by side with
# their ratio, in OUT/vs-dpdk.txt, the rows in OUT/vs-dpdk.csv.
#
# Environment: TM_BUILD_DIR (build; or TM_BENCH_APP and TM_PLUGIN),
# TM_REF_SPEEDUP (1000), TM_REF_ROUNDS (1), TM_REF_HANDLERS (pile
# turbomem), DPDK_TEST (the measured DPDK's, else dpdk-test),
# TM_RESULTS_DIR (results)
vs_dpdk() {
	local vs_out=${1:-${TM_RESULTS_DIR:-results}} speed=${TM_REF_SPEEDUP:-1000}
	local rounds=${TM_REF_ROUNDS:-1} hs=${TM_REF_HANDLERS:-pile turbomem}
	local vs_build=${TM_BUILD_DIR:-build} test=${DPDK_TEST:-} work ref r h lay secs
	local -a d
	if [ -z "$test" ] && [ -n "${TM_DPDK_PREFIX:-}" ]; then
		test=$TM_DPDK_PREFIX/bin/dpdk-test
	fi
	test=${test:-dpdk-test}
	command -v "$test" >/dev/null || { echo "$test not found (apt-get install dpdk)" >&2; return 1; }
	local app=${TM_BENCH_APP:-$vs_build/app/test-turbomem/dpdk-test-turbomem}
	local vs_plugin
	vs_plugin=$(scripts/with-plugin.sh "${TM_PLUGIN:-$vs_build/librte_mempool_turbomem.so}" echo @PLUGIN@)
	mkdir -p "$vs_out"
	work=$(mktemp -d)
	cat >"$work/shim.c" <<-'EOF'
	#include <stdint.h>
	#include <stdlib.h>
	#include <dlfcn.h>
	uint64_t rte_get_tsc_hz(void);
	uint64_t
	rte_get_tsc_hz(void)
	{
		static uint64_t (*real)(void);
		const char *s = getenv("TM_REF_SPEEDUP");

		if (real == NULL)
			real = (uint64_t (*)(void))dlsym(RTLD_NEXT, "rte_get_tsc_hz");
		return real() / (s != NULL ? strtoull(s, NULL, 0) : 1);
	}
	EOF
	cc -O2 -shared -fPIC -o "$work/shim.so" "$work/shim.c" -ldl || { rm -rf "$work"; return 1; }
	secs=$(awk -v s="$speed" 'BEGIN { print 5 / s }')

	ref=$vs_out/vs-dpdk-mempool_perf.log
	# The command that gives these figures (the results page shows it).
	printf '%s \\\n' ${TM_BENCH_DPDK:+"TM_BENCH_DPDK=$TM_BENCH_DPDK"} \
		"TM_REF_SPEEDUP=$speed" "TM_REF_ROUNDS=$rounds" "TM_REF_HANDLERS=\"$hs\"" \
		>"$vs_out/vs-dpdk.cmd"
	echo "scripts/bench.sh vs-dpdk" >>"$vs_out/vs-dpdk.cmd"
	: >"$ref"
	: >"$vs_out/vs-dpdk-grid.log"
	rm -f "$vs_out"/vs-dpdk-grid-*.csv
	for ((r = 1; r <= rounds; r++)); do
		for h in $hs; do
			d=()
			[ "$h" = turbomem ] && d=(-d "$vs_plugin")
			log "vs-dpdk round $r/$rounds: mempool_perf_autotest on $h, speed-up $speed (log: $ref)"
			echo "[bench.sh vs-dpdk] mempool_perf_autotest --mbuf-pool-ops-name=$h" >>"$ref"
			TM_REF_SPEEDUP=$speed LD_PRELOAD=$work/shim.so DPDK_TEST=mempool_perf_autotest \
				timeout -s INT 1800 "$test" --no-huge -m 2048 --no-pci -l 0-1 "${d[@]}" \
				--file-prefix="tm-vsdpdk-$$" --mbuf-pool-ops-name="$h" >>"$ref" 2>&1 || true
		done
		for lay in "1 lcore|0@0,1@1" "2 pinned|0@0,1@0,2@1"; do
			log "vs-dpdk round $r/$rounds: turbomem_bench grid, same cases, ${lay%%|*}"
			"$app" --no-huge -m 512 --no-pci -d "$vs_plugin" --lcores "${lay#*|}" \
				--file-prefix="tm-vsgrid-$$" -- turbomem_bench --scenario grid \
				--handlers "ring_mp_mc,${hs// /,}" --bulks 1,4,32 --keeps 32,128,512 \
				--caches 0,default --seconds "$secs" --rounds 1 --layout "${lay%%|*}" \
				--seed "$r" --csv "$vs_out/vs-dpdk-grid-$r-${lay%% *}.csv" \
				>>"$vs_out/vs-dpdk-grid.log" 2>&1 || log "vs-dpdk: grid failed (log: $vs_out/vs-dpdk-grid.log)"
		done
	done
	rm -rf "$work"
	eal_remove "tm-vsdpdk-$$" "tm-vsgrid-$$"
	"$(pick_tool python3 /usr/bin/python3)" scripts/bench_report.py vs-dpdk "$ref" \
		"$speed" "$vs_out"/vs-dpdk-grid-*.csv --csv "$vs_out/vs-dpdk.csv" | tee "$vs_out/vs-dpdk.txt"
}

# cache-claim: the mempool cache claim of DPDK 26.07 (commit f5e1310f16:
# cache miss rate of shaper queues from ~1/20 to ~1/48 objects at an
# effective cache of 384) measured with turbomem_bench --scenario cache
# (app/test-turbomem/bench_cache.c) for ring_mp_mc and turbomem, on the
# system's DPDK (Debian 12: 22.11) and on a second DPDK installed in a
# prefix, against which the project is built out of tree.
#
# Environment:
#   TM_DPDK_PREFIX   install prefix of the second DPDK (its libdpdk.pc in
#                    lib/pkgconfig or lib/<triplet>/pkgconfig); unset: the
#                    system DPDK only
#   TM_CACHE_ROUNDS  rounds (default 7), TM_CACHE_SECONDS per round (0.5)
#   TM_BUILD_DIR     build of the system DPDK (default build)
#   TM_CACHE_HUGE=1  EAL memory on 2 MB hugetlbfs pages (reserved with
#                    scripts/with-plugin.sh --hugepages) instead of --no-huge, where
#                    turbomem's pools get THP and ring_mp_mc's 4 KB pages:
#                    both handlers then have the same page size
# Output: one "cache:" line per DPDK x handler x cache size, with the
# CPU and the load (uptime) before each run; results/cache-<version>.csv.
cache_claim() {
	MESON=${MESON:-$(pick_tool meson /usr/bin/meson)}
	NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)}
	rounds=${TM_CACHE_ROUNDS:-7}
	secs=${TM_CACHE_SECONDS:-0.5}
	mkdir -p results

	cc_run() { # BUILD_DIR LABEL [env...]
		local b=$1 label=$2
		shift 2
		echo "== $label: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs; load:$(uptime | sed 's/.*load average//')"
		local mem=(--no-huge -m 512) huge=()
		if [ "${TM_CACHE_HUGE:-0}" = 1 ]; then
			mem=(-m 128 --huge-unlink)
			huge=(--hugepages 64)
		fi
		env "$@" scripts/with-plugin.sh "${huge[@]}" "$b/librte_mempool_turbomem.so" \
			"$b/app/test-turbomem/dpdk-test-turbomem" "${mem[@]}" \
			--no-pci -l 0 -d @PLUGIN@ --file-prefix="tm-cache-claim-@TREE@" \
			--log-level=lib.eal:error -- turbomem_bench --scenario cache \
			--rounds "$rounds" --seconds "$secs" \
			--csv "results/cache-$label${TM_CACHE_HUGE:+-huge}.csv" |
			grep -E '^(# (dpdk|hugepages)|cache:)'
	}

	b=${TM_BUILD_DIR:-build}
	[ -f "$b/build.ninja" ] || "$MESON" setup "$b" >/dev/null
	"$NINJA" -C "$b" >/dev/null
	cc_run "$b" "$(pkg-config --modversion libdpdk)"

	if [ -n "${TM_DPDK_PREFIX:-}" ]; then
		oot_build "$TM_DPDK_PREFIX"
		cc_run "$oot_dir" "$oot_version" LD_LIBRARY_PATH="$oot_libdir"
	fi
}

# ovs: Open vSwitch with DPDK (Debian's openvswitch-switch-dpdk, a private
# instance) forwarding net_null p0 -> p1 on one PMD thread, ring_mp_mc
# against turbomem on the same hugepage memory, rounds interleaved, the
# medians and their ratio with the CPU named; then with the PMD thread and
# ovs-vswitchd's main thread sharing one CPU, the main thread copying
# packets sent into the bridge's internal port out to p1 (mbufs from p1's
# pool, no mempool cache). app/test-turbomem/ovs.py bench does the work.
# Needs root, OVS (scripts/deps.sh) and 520 free 2 MB hugepages (reserved
# here).
#
# Environment: TM_BUILD_DIR (build), TM_PLUGIN, TM_OVS_ROUNDS (5),
# TM_OVS_SECONDS (5), TM_RESULTS_DIR (results; the table in ovs.txt)
ovs_bench() {
	local b=${TM_BUILD_DIR:-build} out=${TM_RESULTS_DIR:-results}
	local plugin=${TM_PLUGIN:-$b/librte_mempool_turbomem.so}
	[ -f "$plugin" ] || die "$plugin not found: build first"
	mkdir -p "$out"
	scripts/with-plugin.sh --hugepages 520 "$plugin" \
		"$(pick_tool python3 /usr/bin/python3)" app/test-turbomem/ovs.py bench \
		--plugin @PLUGIN@ --rounds "${TM_OVS_ROUNDS:-5}" \
		--seconds "${TM_OVS_SECONDS:-5}" | tee "$out/ovs.txt"
}

case "$mode" in
cache-claim) cache_claim; exit 0 ;;
ovs) ovs_bench; exit ;;
esac

# The DPDK to measure on (TM_BENCH_DPDK, TM_DPDK_PREFIX): see dpdk_measure.
dpdk_measure
# testpmd of the DPDK measured on, where it has one: the plugin, built
# for that DPDK, cannot load into another's testpmd.
if [ -z "${TESTPMD:-}" ] && [ -n "${TM_DPDK_PREFIX:-}" ] &&
	[ -x "$TM_DPDK_PREFIX/bin/dpdk-testpmd" ]; then
	export TESTPMD=$TM_DPDK_PREFIX/bin/dpdk-testpmd
fi
[ "$mode" != vs-dpdk ] || { vs_dpdk; exit 0; }
TM_BUILD_DIR=${TM_BUILD_DIR:-build}
TM_BENCH_APP=${TM_BENCH_APP:-$TM_BUILD_DIR/app/test-turbomem/dpdk-test-turbomem}
TM_PLUGIN=${TM_PLUGIN:-$TM_BUILD_DIR/librte_mempool_turbomem.so}
case "$mode" in
evidence*) TM_RESULTS_DIR=${TM_RESULTS_DIR:-$repo/results/evidence} ;;
crash*) TM_RESULTS_DIR=${TM_RESULTS_DIR:-$repo/results/crash} ;;
esac
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
full | results) # results: full's runs, then testpmd
	secs=${TM_BENCH_SECONDS:-0.5}; rounds=${TM_BENCH_ROUNDS:-3}
	grid_m=(--bulks 1,4,16,32,random --keeps 32,128,512 --caches 0,default)
	nonEAL=(2 6); deep_n=${TM_BENCH_DEEP_N:-262143}; deep_secs=1 ;;
results-short) # full's matrix in seconds, for CI
	secs=${TM_BENCH_SECONDS:-0.02}; rounds=${TM_BENCH_ROUNDS:-1}
	grid_m=(--bulks 1,4,16,32,random --keeps 32,128,512 --caches 0,default)
	nonEAL=(2 6); deep_n=${TM_BENCH_DEEP_N:-8191}; deep_secs=0.05 ;;
smoke)
	secs=${TM_BENCH_SECONDS:-0.02}; rounds=${TM_BENCH_ROUNDS:-1}
	grid_m=(--bulks 1,random --keeps 32 --caches 0,default)
	nonEAL=(2); deep_n=${TM_BENCH_DEEP_N:-8191}; deep_secs=0.05 ;;
crash | crash-short) # the crash and stop scenarios alone
	secs=${TM_BENCH_SECONDS:-0.5}; rounds=${TM_BENCH_ROUNDS:-1} ;;
gate) # turbomem against itself (gate below)
	secs=${TM_BENCH_SECONDS:-0.2}; rounds=${TM_BENCH_ROUNDS:-7}
	deep_n=${TM_BENCH_DEEP_N:-16383}; deep_secs=0.2 ;;
evidence) # the claims of the evidence page (evidence() below)
	secs=${TM_BENCH_SECONDS:-0.5}; rounds=${TM_BENCH_ROUNDS:-5}
	deep_n=${TM_BENCH_DEEP_N:-262143}; deep_secs=1 ;;
evidence-short) # the same set in seconds, for CI
	secs=${TM_BENCH_SECONDS:-0.02}; rounds=${TM_BENCH_ROUNDS:-1}
	deep_n=${TM_BENCH_DEEP_N:-8191}; deep_secs=0.05 ;;
esac
# crash, stop: kills and stops per handler and shape
case "$mode" in
full | results | crash) crash_n=(--kills "${TM_BENCH_KILLS:-200}" --stops "${TM_BENCH_STOPS:-10}") ;;
evidence) crash_n=(--kills "${TM_BENCH_KILLS:-20}" --stops "${TM_BENCH_STOPS:-3}") ;;
*) crash_n=(--kills "${TM_BENCH_KILLS:-2}" --stops "${TM_BENCH_STOPS:-1}") ;;
esac
handlers=()
[ -n "${TM_BENCH_HANDLERS:-}" ] && handlers=(--handlers "$TM_BENCH_HANDLERS")
deep_handlers=${TM_BENCH_DEEP_HANDLERS:-ring_mp_mc,pile,turbomem}
common=(--seconds "$secs" --rounds "$rounds" --seed "$TM_BENCH_SEED" "${handlers[@]}")

out=$TM_RESULTS_DIR
rm -rf "$out/parts" "$out/logs"
mkdir -p "$out/parts" "$out/logs"
# The runs that succeeded: the ones whose rows the check reads.
manifest=$out/parts/manifest.txt
: >"$manifest"

# What EAL leaves of the runs' prefixes ($prefix-N for run N, one more
# for a run cut short, and $prefix-list), removed on exit.
bench_eal_remove() {
	local i p=("$prefix-list")
	for ((i = 1; i <= ${nrun:-0} + 1; i++)); do
		p+=("$prefix-$i")
	done
	eal_remove "${p[@]}"
}
trap bench_eal_remove EXIT

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
	basename "$part" >>"$manifest"
	ran+=("$*")
}
ran=()

# --- shared by evidence and results -----------------------------------------

# not_testable KEY REASON: what the kernel or machine refused; the page
# says "not testable here" with the reason.
not_testable() {
	printf '%s\t%s\n' "$1" "$2" >>"$out/not-testable.txt"
	log "not testable here: $1: $2"
}

# part_failed KEY REASON: a part that failed; its rows show as missing with
# the reason, and the rest of the set still runs.
part_failed() {
	printf '%s\t%s\n' "$1" "$2" >>"$out/failed.txt"
	log "failed: $1: $2"
}

# argv_rec ARG...: a command for commands.tsv, its arguments separated by
# \x1f (bench_report.py quotes them).
argv_rec() {
	printf '%s\x1f' "$@"
}

# results_init: empty what a page reads of a previous run in $out.
results_init() {
	: >"$out/not-testable.txt"
	: >"$out/failed.txt"
	: >"$out/commands.tsv"
	rm -rf "$out/testpmd"
}

# machine_txt: $out/machine.txt, what a page says of the machine and the
# run; machine_when KEY adds the time and load at KEY (start, end).
machine_when() {
	{
		echo "when_$1: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "load_$1: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "uptime_$1: $(uptime)"
	} >>"$out/machine.txt"
}
machine_txt() {
	local drv
	# The driver's sources: their last commit, "-dirty" with local changes.
	drv=$(git -C "$repo" log -1 --format=%h -- drivers 2>/dev/null || true)
	[ -n "$(git -C "$repo" status --porcelain -- drivers 2>/dev/null)" ] && drv=$drv-dirty
	{
		echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
		echo "cpu_id: $(awk -F': ' '/^cpu family/ { f = $2 } /^model\t/ { m = $2 }
			/^stepping/ { s = $2; exit } END { printf "family %s model %s stepping %s", f, m, s }' /proc/cpuinfo)"
		echo "cpus: $(nproc)"
		echo "hypervisor: $(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor:[[:space:]]*//p')"
		echo "kernel: $(uname -sr)"
		echo "dpdk: $(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)"
		echo "testpmd_dpdk: $("$PYTHON" scripts/testpmd.py version 2>/dev/null | cut -d' ' -f1)"
		echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
		echo "mode: $mode"
		echo "command: $cmdline"
		echo "commit: $(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
		echo "driver: ${drv:-unknown}"
	} >"$out/machine.txt"
	machine_when start
	top -b -n 1 2>/dev/null | head -20 >"$out/logs/top-start.txt" || true
}

# 2 MB huge pages. hp2m_reserve N: N free pages with reserve_hugepages
# (scripts/common.sh) and hugetlbfs mounted at hp_mnt2m ("" and said not
# testable where the kernel refuses), adding to hp_added_2m what this run
# adds. hp2m_top_up: as many free again as the largest N asked, before
# every 2 MB part (other processes share the pool and take free pages
# between parts). hp2m_release, on exit: nr_hugepages lowered by what this
# run added, nothing more.
hp2m=/sys/kernel/mm/hugepages/hugepages-2048kB
hp_added_2m=0
hp_mnt2m=
hp_pages2m=0
hp2m_top_up() {
	local before added
	[ -n "$hp_mnt2m" ] || return 0
	before=$(cat "$hp2m/nr_hugepages")
	reserve_hugepages "$hp_pages2m" >/dev/null 2>>"$out/logs/hugepages-2m.txt" || true
	added=$(( $(cat "$hp2m/nr_hugepages") - before ))
	[ $added -gt 0 ] && hp_added_2m=$((hp_added_2m + added))
	return 0
}
hp2m_reserve() {
	local before added
	[ "$1" -gt "$hp_pages2m" ] && hp_pages2m=$1
	if [ ! -d "$hp2m" ]; then
		not_testable 2m "no 2 MB hugepage support in this kernel ($hp2m missing)"
		return 0
	fi
	before=$(cat "$hp2m/nr_hugepages")
	if ! hp_mnt2m=$(reserve_hugepages "$hp_pages2m" 2>>"$out/logs/hugepages-2m.txt"); then
		hp_mnt2m=
		not_testable 2m "$(tail -1 "$out/logs/hugepages-2m.txt")"
	fi
	added=$(( $(cat "$hp2m/nr_hugepages") - before ))
	[ $added -gt 0 ] && hp_added_2m=$((hp_added_2m + added))
	return 0
}
hp2m_release() {
	local cur
	bench_eal_remove
	if [ "$hp_added_2m" -gt 0 ]; then
		cur=$(cat "$hp2m/nr_hugepages")
		echo $((cur > hp_added_2m ? cur - hp_added_2m : 0)) >"$hp2m/nr_hugepages" || true
		log "released $hp_added_2m 2 MB hugepages (nr_hugepages now $(cat "$hp2m/nr_hugepages"))"
	fi
}

# testpmd_compare ROUNDS MEMORY...: scripts/testpmd.py compare (settings in
# the caller's tp_env, its pool's -m in tp_mb) once per round and memory,
# the memories taking turns within each round, so that a slow spell of a
# shared machine weighs on all of them. Memories: nohuge, 2m (hugetlbfs,
# IOVA as EAL picks), 2m-pa and 2m-va (IOVA as PA, as VA), 1g (evidence's
# mount). Samples in $out/testpmd/MEMORY-rROUND/, each command in
# commands.tsv; a failed run is recorded (part_failed) and the rest runs.
testpmd_compare() {
	local rounds=$1 r m mem d
	shift
	if ! command -v "${TESTPMD:-dpdk-testpmd}" >/dev/null 2>&1; then
		not_testable testpmd "${TESTPMD:-dpdk-testpmd} not found"
		return 0
	fi
	for ((r = 1; r <= rounds; r++)); do
		for m in "$@"; do
			case $m in
			nohuge) mem="--no-huge -m $tp_mb" ;;
			2m) mem="-m $tp_mb --huge-dir $hp_mnt2m --huge-unlink" ;;
			2m-pa | 2m-va) mem="-m $tp_mb --huge-dir $hp_mnt2m --huge-unlink --iova-mode=${m#2m-}" ;;
			1g) mem="-m 1024 --huge-dir $ev_mnt1g --huge-unlink" ;;
			*) die "testpmd_compare: no memory $m" ;;
			esac
			d=$out/testpmd/$m-r$r
			mkdir -p "$d"
			case $m in 2m*) hp2m_top_up ;; esac
			printf '%s\t%s\n' "testpmd-$m-r$r" "$(argv_rec env "${tp_env[@]}" \
				"TM_CMP_MEM_OPTS=$mem" "TM_PLUGIN=$TM_PLUGIN" scripts/testpmd.py compare)" >>"$out/commands.tsv"
			log "testpmd round $r/$rounds, memory $m"
			env "${tp_env[@]}" "TM_CMP_MEM_OPTS=$mem" "TM_PLUGIN=$TM_PLUGIN" \
				"TM_RESULTS_DIR=$d" scripts/testpmd.py compare >"$d/table.txt" 2>"$d/stderr.txt" ||
				part_failed "testpmd-$m-r$r" "$(grep -m1 'error:' "$d/stderr.txt" || echo "testpmd.py compare failed (log: $d)") $(grep -h -m1 'Not enough memory\|Cause:' "$d"/testpmd-logs/*.log 2>/dev/null | head -1)"
		done
	done
}

# doc_copy: a copy of doc/ in $out/doc for a short mode's page;
# doc_build PAGE: build that copy with sphinx-build -W.
doc_copy() {
	rm -rf "$out/doc" "$out/html"
	cp -r doc "$out/doc"
}
doc_build() {
	local sphinx
	if sphinx=$(pick_tool sphinx-build /usr/bin/sphinx-build); then
		"$sphinx" -W -q -E -b html -c doc "$out/doc" "$out/html" ||
			die "sphinx-build -W failed on the generated page"
		log "page built: $out/html/guides/mempool/$1.html"
	else
		log "sphinx-build not found (python3-sphinx): page not built"
	fi
}

# evidence, evidence-short: the evidence set.
#
#   scripts/bench.sh evidence         (about 16 minutes on 2 vCPUs)
#   scripts/bench.sh evidence-short   (about a minute: CI, meson test
#                                      evidence_short of the perf suite)
#
# It uses run() (one EAL invocation of turbomem_bench per part) and exits
# at its end. It runs every measurement a claim of the evidence page needs, with the
# memory each claim names, then generates the page from the results with
# "scripts/bench_report.py evidence"; nothing on the page is typed by hand.
#
#   grid            bulk 16, keep 32: 1 lcore, 2 lcores pinned to 2 CPUs
#                   and 6 floating on 2 CPUs, no cache; the last two also
#                   with cache 256 (the driver guide's When to Use It rows)
#   pipeline        bulk 16, no cache, 2 lcores pinned: one gets, one puts
#   locality, hw    after a shuffled refill; hw probes the PMU
#   deep, pages     per memory: --no-huge (DPDK's handlers on 4 KB pages,
#                   turbomem on its own THP memory), --no-huge with
#                   TURBOMEM_CONFIG=thp=off (turbomem on 4 KB pages),
#                   hugetlbfs 2 MB pages, hugetlbfs 1 GB pages; deep in
#                   5 rounds (short: 1) interleaved across the memories
#   frag            one process per handler and memory (the heap a handler
#                   leaves is the next one's start)
#   cache           the cache scenario (bench_cache.c: seed 002's claim)
#   crash           a secondary killed 20 times (short: 2) per shape,
#                   ring_mp_mc, pile and turbomem (bench_crash.c)
#   memory, contract  bytes per object; the count and all-or-nothing gets
#   testpmd         scripts/testpmd.py compare per memory (1 GB, 2 MB,
#                   --no-huge), rounds interleaved across memories
#
# Every part but grid and pipeline (all handlers) and thp=off (turbomem
# alone) runs ring_mp_mc, pile (where the DPDK has it) and turbomem.
#
# Huge pages: 2 MB pages with reserve_hugepages (scripts/common.sh), 1 GB
# pages by raising nr_hugepages and mounting hugetlbfs with pagesize=1G in
# a private directory. On exit it unmounts that directory and lowers each
# nr_hugepages by what it raised, nothing more (other processes share
# them). What the kernel refuses is written to not-testable.txt and the
# page says "not testable here" with the reason.
#
# Output in $out (default results/evidence): bench.csv/json (merged),
# testpmd/<memory>-r<round>/testpmd.csv, commands.tsv (the command of
# each part), machine.txt (CPU, kernel, DPDK, load before and after),
# not-testable.txt, logs/. The page: doc/guides/mempool/turbomem_evidence.rst
# (evidence), or a copy of doc/ under $out/doc built with sphinx-build -W
# (evidence-short). The README's figures come from the results page
# (results below), not from here.
#
# Environment (besides bench.sh's):
#   TM_EVIDENCE_PAGE    page to write (default: see above)
#   TM_EVIDENCE_1G=0    skip the 1 GB page runs (said so on the page)
evidence() {
	ev_short=0
	[ "$mode" = evidence-short ] && ev_short=1
	ev_hp1g=/sys/kernel/mm/hugepages/hugepages-1048576kB
	ev_added_1g=0
	ev_mnt1g=
	results_init

	ev_release() {
		local cur
		if [ -n "$ev_mnt1g" ]; then
			umount "$ev_mnt1g" && rmdir "$ev_mnt1g"
		fi
		if [ "$ev_added_1g" -gt 0 ]; then
			cur=$(cat "$ev_hp1g/nr_hugepages")
			echo $((cur > ev_added_1g ? cur - ev_added_1g : 0)) >"$ev_hp1g/nr_hugepages" || true
			log "released $ev_added_1g 1 GB hugepages (nr_hugepages now $(cat "$ev_hp1g/nr_hugepages"))"
		fi
		hp2m_release
	}
	trap ev_release EXIT

	# erun NAME "EAL args" bench-args...: run() with the command recorded; a
	# failing part is recorded (part_failed) and the set goes on.
	erun() {
		local -a eal
		read -r -a eal <<<"$2"
		printf '%s\t%s\n' "$1" "$(argv_rec "$TM_BENCH_APP" "${eal[@]}" --no-pci \
			-d "$TM_PLUGIN" -- turbomem_bench "${common[@]}" "${@:3}")" >>"$out/commands.tsv"
		local n=$nrun
		(run "$@") || part_failed "$1" "turbomem_bench failed (log: $out/logs/$(printf '%02d' $((n + 1)))-$1.log)"
		nrun=$((n + 1))
	}

	machine_txt

	# --- huge pages -------------------------------------------------------------

	# deep and pages on 2 MB pages: 2432 bytes per mbuf, 5/4 for rings and maps;
	# testpmd: -m of its pool of 147456 mbufs (full) or 8192 (short).
	ev_pages2m=$(( deep_n * 2432 / 2097152 * 5 / 4 + 64 ))
	if [ $ev_short = 1 ]; then tp_mb=256; else tp_mb=1024; fi
	[ $((tp_mb / 2 + 16)) -gt "$ev_pages2m" ] && ev_pages2m=$((tp_mb / 2 + 16))
	hp2m_reserve "$ev_pages2m"

	# 1 GB pages: deep/pages need 2 (the pool is 600+ MB), testpmd 1.
	ev_want1g=2
	if [ "${TM_EVIDENCE_1G:-1}" = 0 ]; then
		not_testable 1g "skipped (TM_EVIDENCE_1G=0)"
	elif [ ! -d "$ev_hp1g" ]; then
		not_testable 1g "no 1 GB hugepage support (CPU flag pdpe1gb or kernel: $ev_hp1g missing)"
	elif [ "$(id -u)" -ne 0 ]; then
		not_testable 1g "not root: cannot raise nr_hugepages"
	else
		ev_total=$(cat "$ev_hp1g/nr_hugepages")
		ev_free=$(cat "$ev_hp1g/free_hugepages")
		if [ "$ev_free" -lt $ev_want1g ]; then
			echo $((ev_total + ev_want1g - ev_free)) >"$ev_hp1g/nr_hugepages" 2>/dev/null || true
			ev_added_1g=$(( $(cat "$ev_hp1g/nr_hugepages") - ev_total ))
			[ $ev_added_1g -lt 0 ] && ev_added_1g=0
			ev_free=$(cat "$ev_hp1g/free_hugepages")
		fi
		if [ "$ev_free" -lt $ev_want1g ]; then
			not_testable 1g "the kernel gave $ev_free free 1 GB pages of $ev_want1g asked (echo N > $ev_hp1g/nr_hugepages: memory fragmented or too small)"
		else
			ev_mnt1g=$(mktemp -d /tmp/tm-evidence-1g.XXXXXX)
			if ! mount -t hugetlbfs -o pagesize=1G nodev "$ev_mnt1g"; then
				rmdir "$ev_mnt1g"
				ev_mnt1g=
				not_testable 1g "cannot mount hugetlbfs with pagesize=1G"
			fi
		fi
	fi
	echo "hugepages: 2MB reserved by this run $hp_added_2m (mount ${hp_mnt2m:-none}); 1GB reserved by this run $ev_added_1g (mount ${ev_mnt1g:-none})" >>"$out/machine.txt"

	# --- turbomem_bench parts ----------------------------------------------------

	ev_all=ring_mp_mc,ring_mt_rts,ring_mt_hts,stack,lf_stack,pile,turbomem
	# ring_mp_mc and turbomem, which the claims compare, and DPDK's own
	# lock-free pool beside them (skipped before 26.11).
	ev_cmp=ring_mp_mc,pile,turbomem
	# The grid at bulk 16, keep 32: no cache everywhere (every call reaches
	# the handler); cache 256 where lcores share CPUs or each has its own
	# (run-to-completion).
	ev_grid=(--scenario grid --handlers "$ev_all" --bulks 16 --keeps 32)
	erun grid-1lcore "${nohuge[*]} --lcores 0@0,1@1" "${ev_grid[@]}" --caches 0 --layout "1 lcore"
	erun grid-2pinned "${nohuge[*]} --lcores 0@0,1@0,2@1" "${ev_grid[@]}" --caches 0,256 --layout "2 pinned"
	erun grid-6on2 "${nohuge[*]} --lcores 0@0,(1-6)@(0,1)" "${ev_grid[@]}" --caches 0,256 --layout "6 on 2 CPUs"
	erun pipeline "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario pipeline --handlers "$ev_all" --bulks 16 --caches 0 --layout "2 pinned"
	erun locality "${nohuge[*]} -l 0" --scenario locality --handlers "$ev_cmp" --caches 0,default --inflight 32,512 --layout "main lcore"
	erun hw "${nohuge[*]} -l 0" --scenario hw --handlers "$ev_cmp" --inflight 32,512 --layout "main lcore"

	ev_mb_nohuge=$(( (deep_n * 4096 >> 20) + 256 ))
	ev_deep=(--scenario deep --layout "main lcore" --deep-n "$deep_n" --seconds "$deep_secs" --rounds 1)
	ev_pages=(--scenario pages --layout "main lcore" --deep-n "$deep_n")
	# ev_mem PART "EAL memory args" HANDLERS MEMORY: deep or pages
	# (PART's first word) on one memory.
	ev_mem() {
		[ "$4" = 2m ] && hp2m_top_up
		local -n args=ev_${1%%-*}
		erun "$1" "$2 -l 0" "${args[@]}" --handlers "$3"
	}
	# ev_mems PART: PART on every memory (PART-MEMORY[-rK]).
	ev_mems() {
		ev_mem "${1/@/nohuge}" "--no-huge -m $ev_mb_nohuge" "$ev_cmp" nohuge
		TURBOMEM_CONFIG=thp=off ev_mem "${1/@/nohuge-thpoff}" "--no-huge -m $ev_mb_nohuge" turbomem nohuge
		if [ -n "$hp_mnt2m" ]; then
			ev_mem "${1/@/2m}" "-m $((ev_pages2m * 2)) --huge-dir $hp_mnt2m --huge-unlink" "$ev_cmp" 2m
		fi
		if [ -n "$ev_mnt1g" ]; then
			ev_mem "${1/@/1g}" "-m 2048 --huge-dir $ev_mnt1g --huge-unlink" "$ev_cmp" 1g
		fi
	}
	# deep compares memories, one process each: round k of every memory
	# runs before round k+1 of any, so that a slow spell of the host (the
	# rounds of one process differ up to 3x here) falls on all of them;
	# the page takes the median of each round's ratio.
	for k in $(seq 1 $((ev_short ? 1 : 5))); do
		ev_mems "deep-@-r$k"
	done
	ev_mems "pages-@"

	for h in ${ev_cmp//,/ }; do
		erun "frag-nohuge-$h" "${nohuge[*]} -l 0" --scenario frag --handlers "$h" --layout "main lcore"
		if [ -n "$hp_mnt2m" ]; then
			hp2m_top_up
			erun "frag-2m-$h" "-m 256 --huge-dir $hp_mnt2m --huge-unlink -l 0" --scenario frag --handlers "$h" --layout "main lcore"
		fi
	done

	# The cache scenario; a failure leaves its rows missing, said so on the
	# page, and does not stop the set.
	erun cache "${nohuge[*]} --lcores 0@0,1@1" --scenario cache --handlers "$ev_cmp" --layout "1 lcore"

	# A killed secondary: turbomem, ring_mp_mc and pile on every shape
	# (the claim "a killed process does not wedge the pool").
	hp2m_top_up
	erun crash "${nohuge[*]} -l 0" --scenario crash --handlers "$ev_cmp" --layout "2 processes" "${crash_n[@]}"

	# Bytes per object, and the count and gets of contract: where pile
	# answers differently.
	erun memory "--no-huge -m $ev_mb_nohuge -l 0" --scenario memory --handlers "$ev_cmp" \
		--layout "main lcore" --deep-n "$deep_n"
	erun contract "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario contract --handlers "$ev_cmp" \
		--layout "2 pinned"

	# --- testpmd -------------------------------------------------------------------

	ev_tp_mems=(nohuge)
	[ -n "$hp_mnt2m" ] && ev_tp_mems+=(2m)
	[ -n "$ev_mnt1g" ] && ev_tp_mems+=(1g)
	# The two handlers the page's claims compare.
	if [ $ev_short = 1 ]; then
		tp_env=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=5 TM_CMP_SKIP=1 TM_CMP_LAST=2
			TM_CMP_CACHES=default "TM_CMP_PMD_OPTS=--total-num-mbufs=8192"
			"TM_CMP_HANDLERS=${ev_cmp//,/ }")
		testpmd_compare 1 "${ev_tp_mems[@]}"
	else
		# 12 s: under load, testpmd takes seconds to populate its pool.
		tp_env=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=12 "TM_CMP_HANDLERS=${ev_cmp//,/ }")
		testpmd_compare 2 "${ev_tp_mems[@]}"
	fi

	machine_when end
	top -b -n 1 2>/dev/null | head -20 >"$out/logs/top-end.txt" || true
	log "evidence set: $nrun EAL runs and testpmd in $((SECONDS - t0))s"

	"$PYTHON" scripts/bench_report.py merge "$out" "$out/parts"/[0-9]*.csv
	"$PYTHON" scripts/bench_report.py table "$out/bench.csv" >"$out/bench-table.txt"
	[ $ev_short = 1 ] && "$PYTHON" scripts/bench_report.py check "$out/bench.json" "$manifest"

	if [ $ev_short = 1 ]; then
		doc_copy
		ev_page=${TM_EVIDENCE_PAGE:-$out/doc/guides/mempool/turbomem_evidence.rst}
	else
		ev_page=${TM_EVIDENCE_PAGE:-doc/guides/mempool/turbomem_evidence.rst}
	fi
	"$PYTHON" scripts/bench_report.py evidence "$out" "$ev_page"
	[ $ev_short = 1 ] && doc_build turbomem_evidence
	log "evidence page: $ev_page"
	exit 0
}

# results, results-short: the results page, where the project's figures
# are kept (the README's few come from it).
#
#   scripts/bench.sh results         (about 75 minutes on 2 vCPUs: full's
#                                     65, then 54 testpmd runs of ~15 s)
#   scripts/bench.sh results-short   (about 3 minutes: CI)
#
# The runs of full (below), then results_testpmd, then
# "scripts/bench_report.py results": doc/guides/mempool/turbomem_results.rst
# (every cell of full as each handler's figure over ring_mp_mc's, and
# testpmd's) and the key cells in README.rst's block (TM_RESULTS_README).
# results-short runs full's matrix in seconds and testpmd for 5 s (IOVA as
# PA only on hugetlbfs), and
# writes the page, which says its figures are not evidence, into a copy of
# doc/ built with sphinx-build -W.
#
# results_testpmd: scripts/testpmd.py compare (testpmd_compare above) of
# ring_mp_mc, pile (skipped where testpmd's DPDK lacks it) and turbomem,
# mbuf caches 0 and 250, on --no-huge and on 2 MB hugetlbfs with IOVA as PA
# and as VA, the memories taking turns in each of TM_RESULTS_TP_ROUNDS
# rounds. On exit, the 2 MB pages it reserved are
# released (hp2m_release).
results_testpmd() {
	local mems=(nohuge) rounds
	if [ "$mode" = results-short ]; then
		tp_mb=256
		rounds=${TM_RESULTS_TP_ROUNDS:-1}
		tp_env=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=5 TM_CMP_SKIP=1 TM_CMP_LAST=2
			"TM_CMP_PMD_OPTS=--total-num-mbufs=8192")
	else
		tp_mb=1024
		rounds=${TM_RESULTS_TP_ROUNDS:-3}
		# 12 s: under load, testpmd takes seconds to populate its pool.
		tp_env=(TM_CMP_ROUNDS=1 TM_CMP_SECONDS=12)
	fi
	tp_env+=("TM_CMP_HANDLERS=ring_mp_mc pile turbomem" "TM_CMP_CACHES=0 default")
	hp2m_reserve $((tp_mb / 2 + 16))
	# results-short checks the page with one memory of each kind.
	if [ -n "$hp_mnt2m" ]; then
		mems+=(2m-pa)
		[ "$mode" = results-short ] || mems+=(2m-va)
	fi
	testpmd_compare "$rounds" "${mems[@]}"
}

# crash_runs [ARGS]: the crash and stop scenarios (bench_crash.c), every
# handler, caches 0 and 256, bulks 1, 32 and random (or as ARGS say),
# kills and stops per mode (crash_n); their pools on 32 reserved 2 MB
# pages (counted, released on exit by the caller's hp2m_release), the
# bench itself --no-huge.
crash_runs() {
	hp2m_reserve 32
	run crash "${nohuge[*]} -l 0" --scenario crash --layout "2 processes" "${crash_n[@]}" "$@"
	hp2m_top_up
	run stop "${nohuge[*]} -l 0" --scenario stop --layout "2 processes" "${crash_n[@]}" "$@"
}

# crash, crash-short: crash_runs alone, then the results page's section
# "A Killed or Stopped Process" and the README's row made from them
# (scripts/bench_report.py crash), as results makes them from its own runs.
#
#   scripts/bench.sh crash         (200 kills and 10 stops per handler and
#                                   shape: about 30 minutes on 2 vCPUs)
#   scripts/bench.sh crash-short   (2 kills, 1 stop: about a minute; the
#                                   section into a copy of doc/, built with
#                                   sphinx-build -W, the README untouched)
crash_set() {
	local page readme=
	results_init
	machine_txt
	trap hp2m_release EXIT
	crash_runs
	machine_when end
	"$PYTHON" scripts/bench_report.py merge "$out" "$out/parts"/[0-9]*.csv
	"$PYTHON" scripts/bench_report.py table "$out/bench.csv" | tee "$out/bench-table.txt"
	if [ "$mode" = crash-short ]; then
		"$PYTHON" scripts/bench_report.py check "$out/bench.json" "$manifest"
		doc_copy
		page=$out/doc/guides/mempool/turbomem_results.rst
	else
		page=${TM_RESULTS_PAGE:-doc/guides/mempool/turbomem_results.rst}
		readme=${TM_RESULTS_README-README.rst}
	fi
	"$PYTHON" scripts/bench_report.py crash "$out" "$page" ${readme:+--readme "$readme"}
	[ "$mode" = crash-short ] && doc_build turbomem_results
	log "results page: $page"
	exit 0
}

# gate: the ratios of turbomem to itself in one run (or, for memory
# modes, two runs of one build), which a shared machine's noise cannot
# fake, each against its floor (bench_report.py GATES, the testing
# guide): 1000 chunks and a broken-up pool against one chunk, tracked
# gets in a pool 32 times the default against the default, deep's
# --no-huge (turbomem's THP memory) against hugetlbfs. Exits 1 below a floor. CI's perf suite runs it (perf_gate).
gate() {
	local pages mnt k
	# A pool's speed depends on where its memory falls, up to +-12% from
	# one EAL run to the next whatever its chunks: the chunks ratios are
	# the median of 5 runs' of 3 rounds (bench_report.py gate).
	for k in 1 2 3 4 5; do
		run "gate-chunks-p$k" "${nohuge[*]} --lcores 0@0,1@1" --scenario chunks --layout "1 lcore" \
			--handlers turbomem --bulks 16,32,random --keeps 128 --rounds 3
	done
	run gate-track "${nohuge[*]} --lcores 0@0,1@1" --scenario grid --layout "1 lcore" \
		--handlers turbomem+track --bulks 32 --keeps 32 --caches 0 --pool-objs 2047,65535
	run gate-deep-nohuge "--no-huge -m $(( (deep_n * 4096 >> 20) + 256 )) -l 0" \
		--scenario deep --layout "main lcore" --deep-n "$deep_n" --handlers turbomem \
		--seconds "$deep_secs"
	pages=$(( deep_n * 2432 / 2097152 * 5 / 4 + 64 ))
	if mnt=$(reserve_hugepages "$pages") && [ -n "$mnt" ]; then
		run gate-deep-hugetlbfs "-m $((pages * 2)) --huge-dir $mnt -l 0" \
			--scenario deep --layout "main lcore" --deep-n "$deep_n" \
			--handlers turbomem --seconds "$deep_secs"
	else
		log "gate: no hugetlbfs run: cannot reserve $pages 2 MB pages"
	fi
	"$PYTHON" scripts/bench_report.py gate "$out/parts"
}

nohuge=(--no-huge -m 512)
t0=$SECONDS
case "$mode" in
# Its own runs, page and exit.
gate) gate; exit ;;
evidence*) evidence ;;
crash*) crash_set ;;
results)
	rs_page=${TM_RESULTS_PAGE:-doc/guides/mempool/turbomem_results.rst}
	rs_readme=${TM_RESULTS_README-README.rst} ;;
results-short)
	rs_page=${TM_RESULTS_PAGE:-$out/doc/guides/mempool/turbomem_results.rst}
	rs_readme=${TM_RESULTS_README-} ;;
esac
case "$mode" in
results*)
	# The README's block is looked for now, not after the runs.
	if [ -n "$rs_readme" ] && ! { grep -q '^\.\. results-begin ' "$rs_readme" &&
		grep -qx '\.\. results-end' "$rs_readme"; }; then
		die "$rs_readme has no '.. results-begin (...)' and '.. results-end' lines (TM_RESULTS_README=\"\" to leave it)"
	fi
	results_init
	machine_txt
	trap hp2m_release EXIT ;;
esac
run grid-1lcore "${nohuge[*]} --lcores 0@0,1@1" --scenario grid --layout "1 lcore" "${grid_m[@]}"
run grid-2pinned "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario grid --layout "2 pinned" "${grid_m[@]}"
# results-short: one keep oversubscribed (its 240 pools took a minute).
grid_6on2=("${grid_m[@]}")
[ "$mode" = results-short ] && grid_6on2+=(--keeps 32)
run grid-6on2 "${nohuge[*]} --lcores 0@0,(1-6)@(0,1)" --scenario grid --layout "6 on 2 CPUs" "${grid_6on2[@]}"
for n in "${nonEAL[@]}"; do
	run "grid-${n}nonEAL" "${nohuge[*]} -l 0" --scenario grid --nonEAL "$n" --layout "$n nonEAL" "${grid_m[@]}"
done
run pipeline "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario pipeline --layout "2 pinned" --bulks 32 --caches 0,default
run contract-2pinned "${nohuge[*]} --lcores 0@0,1@0,2@1" --scenario contract --layout "2 pinned"
run contract-6on2 "${nohuge[*]} --lcores 0@0,(1-6)@(0,1)" --scenario contract --layout "6 on 2 CPUs"
run locality "${nohuge[*]} -l 0" --scenario locality --layout "main lcore" --caches 0,default --inflight 32,512
if [ "$mode" = smoke ] || [ "$mode" = results-short ]; then
	# The no-PMU path, whatever this machine has.
	run hw-off "${nohuge[*]} -l 0" --scenario hw --layout "main lcore" --pmu off
fi
run hw "${nohuge[*]} -l 0" --scenario hw --layout "main lcore"
case "$mode" in full | results*)
	run chunks "${nohuge[*]} --lcores 0@0,1@1" --scenario chunks --layout "1 lcore" \
		--bulks 1,16,32,random --keeps 128
	[ "$mode" = full ] && trap hp2m_release EXIT
	# results-short: one bulk, as smoke (ring_mp_mc's wedges take a
	# second each).
	if [ "$mode" = results-short ]; then crash_runs --bulks 32; else crash_runs; fi ;;
esac

# deep: pool memory in 4 KB pages takes a page per mbuf in --no-huge
# (objects do not cross pages): size -m for it.
deep=(--scenario deep --layout "main lcore" --deep-n "$deep_n" --handlers "$deep_handlers" --seconds "$deep_secs")
mb_nohuge=$(( (deep_n * 4096 >> 20) + 256 ))
run deep-nohuge "--no-huge -m $mb_nohuge -l 0" "${deep[@]}"
# memory: pools of deep's size, one at a time, sized as deep's.
run memory "--no-huge -m $mb_nohuge -l 0" --scenario memory --layout "main lcore" \
	--deep-n "$deep_n"
if [ "$TM_BENCH_HUGE" != 0 ]; then
	# 2432 bytes per packed mbuf, plus room for rings and maps.
	pages=$(( deep_n * 2432 / 2097152 * 5 / 4 + 64 ))
	case "$mode" in
	results*) # counted, released on exit
		hp2m_reserve "$pages"
		mnt=$hp_mnt2m ;;
	*) mnt=$(reserve_hugepages "$pages") || mnt= ;;
	esac
	if [ -n "$mnt" ]; then
		run deep-hugetlbfs "-m $((pages * 2)) --huge-dir $mnt -l 0" "${deep[@]}"
	elif [ "$TM_BENCH_HUGE" = 1 ]; then
		die "deep on hugetlbfs: cannot reserve $pages 2 MB pages"
	else
		log "deep on hugetlbfs skipped: cannot reserve $pages 2 MB pages (see above)"
		echo "deep-hugetlbfs skipped: cannot reserve $pages 2 MB hugepages" >"$out/parts/skipped.txt"
	fi
fi
if [ "$mode" = smoke ]; then
	# One bulk: ring_mp_mc's wedges take a second each.
	trap hp2m_release EXIT
	crash_runs --bulks 32
fi
case "$mode" in smoke | results-short)
	# Every registered scenario the runs above did not name, once, on one
	# worker lcore: a new scenario is smoke-tested without a line here.
	scs=$("$TM_BENCH_APP" "${nohuge[@]}" --no-pci -d "$plugin" -l 0 \
		--file-prefix="$prefix-list" --no-telemetry --log-level=lib.eal:error \
		-- turbomem_bench --scenario list 2>/dev/null |
		sed -n 's/^scenario: \([a-z0-9_]*\).*/\1/p')
	[ -n "$scs" ] || die "turbomem_bench --scenario list named no scenario"
	for sc in $scs; do
		case " ${ran[*]} " in *"--scenario $sc "*) continue ;; esac
		run "$sc" "${nohuge[*]} --lcores 0@0,1@1" --scenario "$sc" --layout "1 lcore" \
			--deep-n "$deep_n" --bulks 16 --keeps 32
	done ;;
esac
log "$nrun EAL runs in $((SECONDS - t0))s"
case "$mode" in
results*)
	results_testpmd
	# DPDK's own benchmark, last: minutes a handler whatever the speed-up
	# (its thousands of cases), so not in results-short.
	if [ "$mode" = results ]; then
		vs_dpdk "$out" >/dev/null ||
			not_testable vs-dpdk "mempool_perf_autotest: no dpdk-test of this DPDK"
	fi
	machine_when end
	log "$nrun EAL runs, testpmd and mempool_perf_autotest in $((SECONDS - t0))s" ;;
esac

"$PYTHON" scripts/bench_report.py merge "$out" "$out/parts"/[0-9]*.csv
"$PYTHON" scripts/bench_report.py table "$out/bench.csv" | tee "$out/bench-table.txt"
case "$mode" in smoke | results-short)
	"$PYTHON" scripts/bench_report.py check "$out/bench.json" "$manifest" ;;
esac
case "$mode" in
results)
	# Nothing written where turbomem got worse than on the page replaced,
	# unless TM_RESULTS_ACCEPT gives the reason.
	"$PYTHON" scripts/bench_report.py results "$out" "$rs_page" ${rs_readme:+--readme "$rs_readme"} \
		${TM_RESULTS_ACCEPT:+--accept "$TM_RESULTS_ACCEPT"}
	log "results page: $rs_page" ;;
results-short)
	doc_copy
	"$PYTHON" scripts/bench_report.py results "$out" "$rs_page" ${rs_readme:+--readme "$rs_readme"}
	# A page written elsewhere is built in the copy too.
	[ "$rs_page" -ef "$out/doc/guides/mempool/turbomem_results.rst" ] ||
		cp "$rs_page" "$out/doc/guides/mempool/turbomem_results.rst"
	doc_build turbomem_results
	log "results page: $rs_page" ;;
esac
if [ "${TM_BENCH_PLOT:-1}" != 0 ]; then
	if "$PYTHON" -c 'import matplotlib' 2>/dev/null; then
		"$PYTHON" scripts/bench_report.py plot "$out/bench.csv" "$out"
	else
		log "matplotlib missing (python3-matplotlib): no charts"
		# smoke and results-short check rows, results has its page
		case "$mode" in quick | full) exit 1 ;; esac
	fi
fi
log "results: $out/bench.csv $out/bench.json $out/bench-table.txt"
