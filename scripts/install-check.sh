#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# install-check.sh [BUILD_DIR]   (default: build)
#
# Real "meson install" of BUILD_DIR into the system, then run Debian's
# dpdk-testpmd WITHOUT -d and check that it finds turbomem in DPDK's plugin
# directory, selects it and forwards packets; uninstalls on exit, whatever
# happens. Needs root.
#
# WARNING: while turbomem is installed, every DPDK process on the machine
# auto-loads it; one that also passes -d with another copy of the plugin
# loads the driver twice (the second copy logs "already registered" and
# stays unused).
# Do not run this while other turbomem tests are running.
set -euo pipefail

build=$(realpath "${1:-build}")
meson=${MESON:-/usr/bin/meson}
[ -x "$meson" ] || meson=meson
log() { printf 'install-check: %s\n' "$*"; }

uninstall() {
	log "uninstalling"
	ninja -C "$build" uninstall >/dev/null 2>&1 ||
		log "WARNING: 'ninja -C $build uninstall' failed; remove the files listed in $build/meson-logs/install-log.txt"
}
trap uninstall EXIT

"$meson" install -C "$build" --quiet
grep -E 'librte_mempool_turbomem.so|rte_pmd_turbomem.h|libdpdk-turbomem.pc' \
	"$build/meson-logs/install-log.txt" | sed 's/^/install-check: installed /'

out=$(mktemp)
timeout -s INT 6 dpdk-testpmd --no-huge -m 256 --no-pci -l 0-1 \
	--file-prefix=tm-install-check --mbuf-pool-ops-name=turbomem \
	--vdev net_null0 --vdev net_null1 -- --forward-mode=io --auto-start \
	--stats-period 2 --mbcache=0 < /dev/null > "$out" 2>&1 || true
grep -q 'preferred mempool ops selected: turbomem' "$out" || {
	cat "$out"; log "FAIL: testpmd without -d did not select turbomem"; exit 1; }
grep -qE 'cannot register mempool ops|already registered' "$out" && {
	cat "$out"; log "FAIL: turbomem registered twice"; exit 1; }
pkts=$(sed -n 's/.*RX-packets: *\([0-9]*\).*/\1/p' "$out" | sort -n | tail -1)
rm -f "$out"
[ -n "$pkts" ] && [ "$pkts" -gt 0 ] || { log "FAIL: no packets forwarded"; exit 1; }
log "OK: installed plugin loaded without -d, testpmd forwarded $pkts packets on turbomem"
