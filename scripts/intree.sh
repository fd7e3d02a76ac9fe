#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Build turbomem inside a DPDK source tree, as a DPDK driver: take Debian's
# source of the installed DPDK, copy drivers/mempool/turbomem into it, add it
# to drivers/mempool/meson.build, build a minimal DPDK (mempool ring, stack,
# turbomem, net/null, app test-pmd) and run that tree's own testpmd on
# turbomem with no -d, checking that packets are forwarded and that the
# driver's telemetry commands answer (dpdk-telemetry.py).
#
# Usage: scripts/intree.sh [workdir]   (default: build-intree)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$top/build-intree}
log() { printf 'intree: %s\n' "$*"; }

# shellcheck source=scripts/dpdk-source.sh
. "$top/scripts/dpdk-source.sh"
src=$(dpdk_source "$work")
upstream=${src##*/dpdk-}

rm -rf "$src/drivers/mempool/turbomem"
cp -a "$top/drivers/mempool/turbomem" "$src/drivers/mempool/"
if ! grep -q "'turbomem'" "$src/drivers/mempool/meson.build"; then
	sed -i "/^drivers = \[/a\        'turbomem'," "$src/drivers/mempool/meson.build"
fi

# pmdinfogen needs pyelftools in the python that runs meson: Debian's.
rm -rf "$work/b"
log "configuring a minimal DPDK $upstream with turbomem"
/usr/bin/python3 /usr/bin/meson setup "$work/b" "$src" \
	-Denable_drivers=mempool/ring,mempool/stack,mempool/turbomem,net/null \
	-Denable_apps=test-pmd -Dtests=false -Ddisable_libs='*' \
	> "$work/setup.log" 2>&1 || { tail -20 "$work/setup.log"; exit 1; }
grep -q 'turbomem' "$work/setup.log" || { log "turbomem not enabled"; exit 1; }
log "building"
ninja -C "$work/b" > "$work/build.log" 2>&1 || { grep -E 'error|warning' "$work/build.log" | head -20; exit 1; }
if grep -q 'turbomem.*warning' "$work/build.log"; then
	grep 'warning' "$work/build.log"; exit 1
fi

log "running the tree's testpmd on turbomem (no -d)"
out=$work/testpmd.log
prefix=tm-intree-$(printf '%s' "$work" | cksum | cut -d' ' -f1)
timeout -s INT 8 "$work/b/app/dpdk-testpmd" --no-huge -m 1024 --no-pci \
	--vdev net_null0 --vdev net_null1 -l 0-1 --file-prefix="$prefix" \
	--mbuf-pool-ops-name=turbomem -- --forward-mode=io --auto-start \
	--stats-period 2 --mbcache=0 < /dev/null > "$out" 2>&1 &
tpid=$!
# The driver's telemetry, built into the static testpmd, while it forwards.
sleep 5
tel=$(printf '/turbomem/list\n/turbomem/info,mb_pool_0\n' |
	dpdk-telemetry.py -f "$prefix" 2>&1 | grep '{' || true)
wait "$tpid" || true
grep -q 'preferred mempool ops selected: turbomem' "$out" || {
	cat "$out"; log "FAIL: testpmd did not select turbomem"; exit 1; }
pkts=$(sed -n 's/.*RX-packets: *\([0-9]*\).*/\1/p' "$out" | sort -n | tail -1)
if [ -z "$pkts" ] || [ "$pkts" -eq 0 ]; then
	cat "$out"; log "FAIL: no packets forwarded"; exit 1
fi
printf '%s\n' "$tel" | python3 -c '
import json, sys
r = [json.loads(l) for l in sys.stdin if l.strip()]
assert r[0]["/turbomem/list"] == ["mb_pool_0"], r
i = r[1]["/turbomem/info"]
assert i["get_objs"] > 0 and i["put_objs"] > 0, i
print("intree: telemetry: /turbomem/list %s, get_objs %d put_objs %d" %
      (r[0]["/turbomem/list"], i["get_objs"], i["put_objs"]))' || {
	log "FAIL: telemetry of the in-tree testpmd: $tel"; exit 1; }
log "OK: in-tree testpmd forwarded $pkts packets on turbomem"
