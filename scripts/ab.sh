#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# ab.sh VARIANT...: the driver of this tree and the same driver changed by
# each VARIANT, side by side, before a change to the core is made for
# good. A VARIANT is a patch file (applied with patch -p1 -F0: one that
# does not apply exactly is refused) or a C define, -DNAME=VALUE (a
# constant of the core given another value; the build passes it in
# c_args). A change of the core changes speed in ways no single run shows
# on a shared machine, so the variants run interleaved: each round runs
# every variant once, in turn, each in its own EAL run beside ring_mp_mc.
#
# Each EAL run (turbomem_bench, handlers ring_mp_mc and turbomem):
#   pipeline  2 pinned ('0@0,1@0,2@1'), bulk 32, caches 0, 250 and 512
#   grid      1 lcore ('0@0,1@1') and 2 pinned, bulks 1, 4, 16, 32 and
#             random at keep 128, bulks 32 and random at keep 512 (a
#             deeper stack), cache 0
#   grid6     6 lcores on 2 CPUs ('0@0,(1-6)@(0,1)': oversubscribed),
#             bulk 16, keep 32, caches 0 and 256
#   memory    first round only (the figure does not vary): turbomem's
#             bytes per object, pools of 65535 objects of 64 and 2176 bytes
# all --no-huge. The table (scripts/bench_report.py ab) gives, per row and
# variant, the median over the rounds of turbomem / ring_mp_mc of the same
# EAL run, every round's ratio, the driver's failed CAS attempts per
# call where the row reports them, and for several workers the rounds
# where one was starved and the slowest one's share of the objects; for
# memory, turbomem's bytes per object (ring_mp_mc's beside it). The
# header names the CPU. A round takes about 50 s per variant at
# TM_AB_SECONDS=0.3: 114 measurements of that length and some 15 s of EAL
# runs and pools (21 s at TM_AB_SECONDS=0.05).
#
# For a patch, the tree is copied as it is (uncommitted changes included)
# to $TM_RESULTS_DIR/ab/src-<variant> and the patch applied there; a define
# builds the tree itself in $TM_RESULTS_DIR/ab/build-<variant>. Only the
# plugin is built ($MESON setup --buildtype=release, then the plugin target);
# the bench app and the tree's plugin are this tree's ($TM_BUILD_DIR,
# or $TM_PLUGIN).
#
# Environment: TM_BUILD_DIR (build), TM_PLUGIN (the tree's plugin; default
# built in $TM_BUILD_DIR), TM_RESULTS_DIR (results),
# TM_AB_ROUNDS (5), TM_AB_SECONDS (0.3, per measurement; 3 measurements
# per EAL run); TM_BENCH_DPDK=VERSION or TM_DPDK_PREFIX=DIR: on that DPDK
# instead of the system's, the bench app, the tree's plugin and every
# variant built out of tree against it (scripts/dpdk.sh, dpdk_measure)
#
# Exit: 0 with the table, 1 when a patch does not apply (nothing of it left
# behind), a build or a run fails, or a row is missing; 2 on a usage error
# (one line naming the argument; nothing created).
#
# Example: scripts/ab.sh my-change.patch other-change.patch

set -euo pipefail
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
tm_name=ab.sh
# shellcheck source=scripts/common.sh
. scripts/common.sh
# shellcheck source=scripts/dpdk.sh
. scripts/dpdk.sh

usage() {
	echo "usage: $0 VARIANT... (a patch file or -DNAME=VALUE; see the head of scripts/ab.sh)" >&2
	exit 2
}
[ $# -ge 1 ] || usage
for p in "$@"; do
	case "$p" in
	-D[A-Za-z_]*=*) continue ;;
	-*) log "error: '$p': ab.sh takes patch files and -DNAME=VALUE defines, no option"; exit 2 ;;
	esac
	[ -f "$p" ] || { log "error: $p: no such patch file"; exit 2; }
done

TM_BUILD_DIR=${TM_BUILD_DIR:-build}
TM_AB_ROUNDS=${TM_AB_ROUNDS:-5}
TM_AB_SECONDS=${TM_AB_SECONDS:-0.3}
case "$TM_AB_ROUNDS" in '' | *[!0-9]* | 0)
	log "error: TM_AB_ROUNDS=$TM_AB_ROUNDS: a round count from 1 is needed"; exit 2 ;;
esac
dpdk_measure
out=${TM_RESULTS_DIR:-results}/ab
app=$TM_BUILD_DIR/app/test-turbomem/dpdk-test-turbomem
[ -x "$app" ] || die "$app not built (meson setup $TM_BUILD_DIR && ninja -C $TM_BUILD_DIR)"
find_meson
PYTHON=${PYTHON:-python3}

rm -rf "$out"
mkdir -p "$out/parts" "$out/logs"
names=(tree)
srcs=(.)
defines=(-)
for p in "$@"; do
	case "$p" in
	-D*) n=$(printf '%s' "${p#-D}" | tr 'A-Z=' 'a-z-' | tr -c 'a-z0-9_.-' _) ;;
	*) n=$(basename "$p" .patch) ;;
	esac
	case " ${names[*]} " in *" $n "*) die "two variants named $n" ;; esac
	if [ "${p#-D}" != "$p" ]; then
		names+=("$n")
		srcs+=(.)
		defines+=("$p")
		continue
	fi
	src=$out/src-$n
	mkdir -p "$src"
	# The tree as it is, without build and result directories.
	tar -C . --exclude=./build\* --exclude=./results --exclude=./.git -cf - . |
		tar -C "$src" -xf -
	(cd "$src" && patch -p1 -F0 -s --dry-run --no-backup-if-mismatch -r - <"$(realpath "$p")") \
		>"$out/logs/apply-$n.log" 2>&1 || {
		rm -rf "$src"
		die "$p does not apply to this tree: $(head -1 "$out/logs/apply-$n.log")"
	}
	(cd "$src" && patch -p1 -F0 -s --no-backup-if-mismatch -r - <"$(realpath "$p")")
	names+=("$n")
	srcs+=("$src")
	defines+=(-)
done

# The plugins, each in a directory EAL accepts for -d.
plugins=()
for i in "${!names[@]}"; do
	n=${names[$i]}
	if [ "$n" = tree ]; then
		if [ -n "${TM_PLUGIN:-}" ]; then
			built=$TM_PLUGIN
		else
			"$NINJA" -C "$TM_BUILD_DIR" librte_mempool_turbomem.so >"$out/logs/build-$n.log" 2>&1 ||
				die "building the tree's plugin failed: $out/logs/build-$n.log"
			built=$TM_BUILD_DIR/librte_mempool_turbomem.so
		fi
	elif [ "${defines[$i]}" != - ]; then
		ninja_dir=$out/build-$n
		{ "$MESON" setup --buildtype=release "-Dc_args=${defines[$i]}" "$ninja_dir" . &&
			"$NINJA" -C "$ninja_dir" librte_mempool_turbomem.so; } >"$out/logs/build-$n.log" 2>&1 ||
			die "building variant $n failed: $out/logs/build-$n.log"
		built=$ninja_dir/librte_mempool_turbomem.so
	else
		ninja_dir=${srcs[$i]}/build
		{ "$MESON" setup --buildtype=release "$ninja_dir" "${srcs[$i]}" &&
			"$NINJA" -C "$ninja_dir" librte_mempool_turbomem.so; } >"$out/logs/build-$n.log" 2>&1 ||
			die "building variant $n failed: $out/logs/build-$n.log"
		built=$ninja_dir/librte_mempool_turbomem.so
	fi
	mkdir -p "$out/plugin-$n"
	chmod 0755 "$out/plugin-$n"
	cp -f "$built" "$out/plugin-$n/"
	plugins+=("$(scripts/with-plugin.sh "$out/plugin-$n/librte_mempool_turbomem.so" echo @PLUGIN@)")
done

# run_one PART LCORES BENCH-ARGS...: one EAL run of plugin $plugin.
run_one() {
	local part=$1 lcores=$2
	shift 2
	"$app" --no-huge -m 512 --lcores "$lcores" --no-pci -d "$plugin" \
		--file-prefix="$prefix" --no-telemetry --log-level=lib.eal:error \
		-- turbomem_bench "$@" --handlers ring_mp_mc,turbomem \
		--rounds 3 --seconds "$TM_AB_SECONDS" \
		--csv "$part.csv" >"$part.log" 2>&1 ||
		{ tail -20 "$part.log" >&2; die "run failed: $part.log"; }
}

prefix=tm-ab-$(path_tag "$(pwd)")
trap 'eal_remove "$prefix"' EXIT
grid=(--scenario grid --bulks 1,4,16,32,random --keeps 128 --caches 0)
grid512=(--scenario grid --bulks 32,random --keeps 512 --caches 0)
for ((r = 1; r <= TM_AB_ROUNDS; r++)); do
	for i in "${!names[@]}"; do
		n=${names[$i]}
		plugin=${plugins[$i]}
		log "round $r/$TM_AB_ROUNDS: $n"
		run_one "$out/parts/$r-$n-pipeline" 0@0,1@0,2@1 --scenario pipeline \
			--layout "2 pinned" --bulks 32 --caches 0,250,512
		run_one "$out/parts/$r-$n-grid1" 0@0,1@1 "${grid[@]}" --layout "1 lcore"
		run_one "$out/parts/$r-$n-grid2" 0@0,1@0,2@1 "${grid[@]}" --layout "2 pinned"
		run_one "$out/parts/$r-$n-grid1k512" 0@0,1@1 "${grid512[@]}" --layout "1 lcore"
		run_one "$out/parts/$r-$n-grid2k512" 0@0,1@0,2@1 "${grid512[@]}" --layout "2 pinned"
		run_one "$out/parts/$r-$n-grid6" '0@0,(1-6)@(0,1)' --scenario grid \
			--bulks 16 --keeps 32 --caches 0,256 --layout "6 on 2 CPUs"
		# Pools of 64 K objects: -m 512 holds the 2176-byte one in 4 KB pages.
		[ "$r" -gt 1 ] || run_one "$out/parts/$r-$n-memory" 0@0 --scenario memory \
			--deep-n 65535
	done
done
"$PYTHON" scripts/bench_report.py ab "$out/parts" "${names[@]}" | tee "$out/ab-table.txt"
log "table: $out/ab-table.txt"
