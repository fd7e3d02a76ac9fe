#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# The plugin loaded in every way users load it: twice, into a full ops
# table, linked in.
#
# plugin-load.sh dup PLUGIN TEST_APP FILE_PREFIX
#  The driver loaded twice, as when it is installed in DPDK's plugin
#  directory and also given with -d: two copies of PLUGIN at different
#  paths, both with -d. The second copy must log "already registered" and
#  register nothing (one "turbomem" slot), and pools must still work.
#
# plugin-load.sh ops-table PLUGIN FILL_PLUGIN TEST_APP FILE_PREFIX
#  The mempool ops table full (RTE_MEMPOOL_MAX_OPS_IDX = 16 slots, all
#  taken by DPDK 26.07's own mempool drivers). FILL_PLUGIN
#  (ops_fill_plugin.c) registers dummy ops "tm_fill_N" to fill the table.
#  1. -d FILL -d turbomem: the table is full when turbomem loads; it is not
#     registered, logs one error line with the value, the limit and the fix
#     (-d first), and a pool on "turbomem" fails with -EINVAL.
#  2. -d turbomem -d FILL, FILL registering 16 minus what the plugin
#     directory registers (the table of a distribution build of 26.07 plus
#     turbomem): turbomem registers (EAL loads -d plugins first), pools on
#     it work, and the op the plugin directory registers last loses its
#     slot: a pool on it fails with -EINVAL.
#  3. (root: a private mount namespace with DPDK's plugin directory as an
#     overlay, as install.sh private does; skipped otherwise)
#     FILL is put into the plugin directory with N = 16 minus what the
#     machine's drivers register, so the directory fills the table exactly,
#     as a distribution build of 26.07 does. Then:
#     b. turbomem installed into the plugin directory, no -d: the directory
#        order (readdir) decides; if turbomem is refused, its error line names
#        the fix "load it with -d <its path in the plugin directory>".
#     c. installed and also given with -d <its path in the plugin
#        directory> (the fix the message names): registered.
#  Case 3 overlays the plugin directory of the DPDK TEST_APP runs on, as
#  TEST_APP reports it (RTE_EAL_PMD_PATH of the headers it was built with),
#  never one found through the environment: pkg-config at test time may
#  name another DPDK (scripts/dpdk.sh matrix tests a 26.07 build with
#  Debian's 22.11 libdpdk.pc on the default pkg-config path).
#
# plugin-load.sh ops-table-linked TEST_APP FILE_PREFIX
#  TEST_APP has the driver and the fill plugin linked in, the fill plugin's
#  constructor first (a DPDK tree's static applications with more mempool
#  drivers than slots): turbomem is refused and its error line says to
#  build DPDK without a mempool driver.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
exec 2>&1

# run NAME [env...] -- app args: output in $out, exit status in $rc
run() {
	local name=$1
	shift
	rc=0
	out=$(env "$@" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed -n "s/^/  [$name] /;/slot\|table\|turbomem: \|tm_fill\|MEMPOOL\|mempool ops\|pool works\|pool fails\|Test /p"
}

names() { printf '%s\n' "$out" | sed -n 's/^slot *[0-9]*: \([^ ]*\) .*/\1/p'; }
full_re='mempool ops table full \(16 of RTE_MEMPOOL_MAX_OPS_IDX=16\)'

mode=${1:-}
shift || true
eal_of() { prefix=$1 eal=(--no-huge -m 256 --no-pci -l 0 --file-prefix="$1"); }
# What EAL leaves of the prefix, and the dup case's copies: removed on exit.
prefix="" stage=""
trap 'eal_remove ${prefix:+"$prefix"}; [ -z "$stage" ] || rm -rf "$stage"' EXIT

case $mode in
dup)
	plugin=$(realpath "$1") app=$2
	eal_of "$3"
	stage=${TM_PLUGIN_STAGE:-${HOME:-/root}/.cache/turbomem-plugins}/dup-$$
	mkdir -p "$stage/a" "$stage/b"
	chmod 0755 "$stage" "$stage/a" "$stage/b"
	cp "$plugin" "$stage/a/"
	cp "$plugin" "$stage/b/"
	name=$(basename "$plugin")
	run dup "$app" "${eal[@]}" -d "$stage/a/$name" -d "$stage/b/$name" \
		-- turbomem_pktmbuf_autotest turbomem_ops_slots_autotest
	[ "$rc" -eq 0 ] || { printf '%s\n' "$out"; fail "tests failed"; }
	printf '%s\n' "$out" | grep 'already registered' ||
		{ printf '%s\n' "$out"; fail "no warning for the second copy"; }
	log "OK"
	exit 0 ;;
ops-table-linked)
	app=$1
	eal_of "$2"
	log "driver linked into the application after a linked-in driver filling the table"
	run linked TM_FILL_OPS=16 "$app" "${eal[@]}" -- turbomem_ops_table --expect absent
	[ "$rc" -eq 0 ] || fail "linked: turbomem_ops_table failed"
	printf '%s\n' "$out" | grep -E "$full_re.*build DPDK without a mempool driver you do not use \(meson -Ddisable_drivers=mempool/<name>, e.g. the one registering ops \"tm_fill_15\"\)" >/dev/null ||
		fail "linked: no error line naming -Ddisable_drivers"
	log "OK"
	exit 0 ;;
ops-table|ops-table-inside) ;;
*) die "usage: see the head of $0" ;;
esac

plugin=$1 fill=$2 app=$3 prefix=$4
eal_of "$prefix"

if [ "$mode" = ops-table ]; then
	# EAL refuses -d from under a world-writable directory (a build in
	# /tmp): with-plugin.sh stages the fill plugin as it stages turbomem.
	fill=$("$tm_top/scripts/with-plugin.sh" "$fill" echo @PLUGIN@)
	log "1. -d fill plugin, then -d turbomem"
	run 1 "$app" "${eal[@]}" -d "$fill" -d "$plugin" -- turbomem_ops_table --expect absent
	[ "$rc" -eq 0 ] || fail "case 1: turbomem_ops_table failed"
	printf '%s\n' "$out" | grep -E "$full_re.*give -d $plugin before the other -d plugins" >/dev/null ||
		fail "case 1: no error line with the value, the limit and the fix"

	run 2-none "$app" "${eal[@]}" -- turbomem_ops_table
	[ "$rc" -eq 0 ] || fail "turbomem_ops_table failed"
	have=$(names | wc -l)
	last=$(names | tail -1)
	pmd_dir=$(printf '%s\n' "$out" | sed -n 's/^plugin directory: //p')
	log "2. -d turbomem, then -d fill plugin with $((16 - have)) ops: with the $have ops of the plugin directory, one more than the table holds"
	run 2 TM_FILL_OPS=$((16 - have)) "$app" "${eal[@]}" -d "$plugin" -d "$fill" -- \
		turbomem_ops_table --expect registered --lost "$last"
	[ "$rc" -eq 0 ] || fail "case 2: turbomem not registered, or \"$last\" kept its slot"
	log "   turbomem registered; \"$last\", registered last from the plugin directory, lost its slot"

	if [ "$(id -u)" -ne 0 ] || [ ! -d "$pmd_dir" ] || ! unshare --mount true 2>/dev/null; then
		log "SKIP case 3: needs root, a mount namespace and the plugin directory '$pmd_dir'"
		log "OK (cases 1-2)"
		exit 0
	fi
	rc=0
	in_private_mounts "$pmd_dir" -- bash "$0" ops-table-inside "$plugin" \
		"$fill" "$app" "$prefix" "$pmd_dir" || rc=$?
	[ "$rc" -eq 77 ] && { log "OK (cases 1-2; case 3 skipped)"; exit 0; }
	exit $rc
fi

# --- case 3, inside the private mount namespace ----------------------------
pmd_dir=$5

run 3-dir "$app" "${eal[@]}" -- turbomem_ops_table
[ "$rc" -eq 0 ] || fail "case 3: turbomem_ops_table failed"
have=$(names | wc -l)
n=$((16 - have))
log "3. the plugin directory $pmd_dir registers $have ops; the fill plugin adds $n"
if [ "$n" -gt 0 ]; then
	cp "$fill" "$pmd_dir/librte_mempool_tm_fill.so"
	export TM_FILL_OPS=$n
fi
run 3-full "$app" "${eal[@]}" -- turbomem_ops_table
[ "$rc" -eq 0 ] || fail "case 3: turbomem_ops_table failed"
printf '%s\n' "$out" | grep -q 'ops table: 16 of' || fail "case 3: plugin directory does not fill the table"
last=$(names | tail -1)
full_names=$(names)
log "   without turbomem the table is full; the directory registers \"$last\" last"

log "3b. turbomem installed into the plugin directory, no -d"
inst=$pmd_dir/$(basename "$plugin")
cp "$plugin" "$inst"
run 3b "$app" "${eal[@]}" -- turbomem_ops_table
[ "$rc" -eq 0 ] || fail "case 3b: turbomem_ops_table failed"
if names | grep -qx turbomem; then
	lost=$(comm -23 <(printf '%s\n' "$full_names" | sort) <(names | sort) | paste -sd' ')
	log "   the directory order loaded turbomem early: registered; \"$lost\" lost its slot"
else
	printf '%s\n' "$out" | grep -E "$full_re.*load it with -d $inst " >/dev/null ||
		fail "case 3b: turbomem refused without the error line naming -d $inst"
	log "   turbomem refused, with the error line naming the fix (-d $inst)"
fi

log "3c. installed, and given with -d $inst (the fix)"
run 3c "$app" "${eal[@]}" -d "$inst" -- turbomem_ops_table --expect registered
[ "$rc" -eq 0 ] || fail "case 3c: turbomem not registered with -d $inst"
log "OK"
