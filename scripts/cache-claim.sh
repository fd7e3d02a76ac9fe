#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# cache-claim.sh: the mempool cache claim of DPDK 26.07 (commit f5e1310f16:
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
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/common.sh
. scripts/common.sh
MESON=${MESON:-$(pick_tool meson /usr/bin/meson)}
NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)}
rounds=${TM_CACHE_ROUNDS:-7}
secs=${TM_CACHE_SECONDS:-0.5}
mkdir -p results

run() { # BUILD_DIR LABEL [env...]
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
run "$b" "$(pkg-config --modversion libdpdk)"

if [ -n "${TM_DPDK_PREFIX:-}" ]; then
	pc=$(dirname "$(find "$TM_DPDK_PREFIX" -name libdpdk.pc -path '*pkgconfig*' | head -1)")
	ver=$(PKG_CONFIG_PATH=$pc pkg-config --modversion libdpdk)
	b2=build-dpdk-$ver
	[ -f "$b2/build.ninja" ] || PKG_CONFIG_PATH=$pc "$MESON" setup "$b2" >/dev/null
	"$NINJA" -C "$b2" >/dev/null
	libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir libdpdk)
	run "$b2" "$ver" LD_LIBRARY_PATH="$libdir"
fi
