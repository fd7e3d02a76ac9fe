#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# From a fresh machine to numbers: install the dependencies, build the
# plugin, run the benchmarks (main_job) and print their tables.
# At most 10 minutes on 2 vCPUs from a fresh clone (about 5 for the
# benchmarks, the rest package installation and the build):
#   - scripts/bench.sh quick: turbomem_bench's grid subset (1 lcore,
#     2 pinned, 6 lcores on 2 CPUs, unregistered threads), pipeline,
#     locality, hardware counters, deep in-flight (--no-huge and, when
#     2 MB pages can be reserved, hugetlbfs), every default handler;
#   - scripts/testpmd.py compare: testpmd io forwarding over two net_null
#     ports, turbomem and pile (where DPDK has it) vs ring_mp_mc,
#     --mbcache=0 and default.
# Results (CSV, JSON, PNG charts, logs) go to results/ (ignored by git).
#
# Environment:
#   TM_BUILD_DIR   build directory (default build)
#   TM_MESON_OPTS  extra "meson setup" options
#   TM_DEPS_SKIP=1 do not run scripts/deps.sh
#   MESON, NINJA   the meson/ninja to use (default: /usr/bin/meson and
#                  /usr/bin/ninja when present, not a pyenv/pip one)
#   TM_QUICK_BENCH=0 skip scripts/bench.sh; TM_QUICK_TESTPMD=0 skip testpmd
#   and the TM_BENCH_* knobs of scripts/bench.sh, the TM_CMP_* knobs of
#   scripts/testpmd.py compare

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

TM_BUILD_DIR=${TM_BUILD_DIR:-build}

tm_name=quickstart
# shellcheck source=scripts/common.sh
. scripts/common.sh

# The benchmarks. Add new ones here; each prints its own table.
main_job() {
	local plugin=$repo/$TM_BUILD_DIR/librte_mempool_turbomem.so
	if [ "${TM_QUICK_BENCH:-1}" != 0 ]; then
		TM_BUILD_DIR=$TM_BUILD_DIR TM_PLUGIN=$plugin TM_BENCH_PLOT=0 \
			bash scripts/bench.sh quick
	fi
	if [ "${TM_QUICK_TESTPMD:-1}" != 0 ]; then
		TM_PLUGIN=$plugin python3 scripts/testpmd.py compare |
			tee results/testpmd-table.txt
	fi
	# Charts of both, once testpmd's samples are there too.
	if [ -f results/bench.csv ]; then
		"$(pick_tool python3 /usr/bin/python3)" scripts/bench_report.py plot \
			results/bench.csv results results/testpmd.csv
	fi
}

t0=$SECONDS
if [ "${TM_DEPS_SKIP:-0}" != 1 ]; then
	bash scripts/deps.sh
fi
find_meson

mkdir -p results
build_log=results/quickstart-build.log
log "building in $TM_BUILD_DIR (log: $build_log)"
{ meson_configure "$TM_BUILD_DIR" && "$NINJA" -C "$TM_BUILD_DIR"; } >"$build_log" 2>&1 || {
	tail -40 "$build_log" >&2
	die "build failed; full log: $build_log"
}
log "built $TM_BUILD_DIR/librte_mempool_turbomem.so in $((SECONDS - t0))s"

main_job
if [ -f results/bench-table.txt ]; then
	echo
	echo "=== turbomem_bench (results/bench-table.txt) ==="
	cat results/bench-table.txt
fi
if [ -f results/testpmd-table.txt ]; then
	echo
	echo "=== testpmd (results/testpmd-table.txt) ==="
	cat results/testpmd-table.txt
fi
log "done in $((SECONDS - t0))s; results under results/: bench.csv bench.json testpmd.csv $(cd results && ls -- *.png 2>/dev/null | tr '\n' ' ')"
