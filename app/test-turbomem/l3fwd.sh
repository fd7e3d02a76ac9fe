#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# l3fwd.sh [PLUGIN [WORKDIR]]
#   (defaults: build/librte_mempool_turbomem.so, build-intree)
#
# DPDK's l3fwd example, built with pkg-config against the installed DPDK
# from Debian's source package of the same version, forwarding real packets
# on turbomem mbufs without a NIC. l3fwd runs inside a network namespace
# that the script creates, on two net_tap ports; the kernel side of each
# tap is the "wire":
#
#   netns tm-l3fwd-<tag>
#     l3fwd port 0 = net_tap0 <-fd-> kernel iface t0 <- AF_PACKET sender/receiver
#     l3fwd port 1 = net_tap1 <-fd-> kernel iface t1 <- AF_PACKET sender/receiver
#
# (net_af_packet cannot be used: Debian 22.11's l3fwd asks for Rx checksum
# offload, which af_packet lacks and tap provides in software; net_ring
# would need a second DPDK process as packet source.)
#
# l3fwd (LPM mode, default routes: 198.18.<port>.0/24 -> port) runs with
# --mbuf-pool-ops-name=turbomem; l3fwd_pkts.py (beside this script) sends UDP frames
# into t0 for 198.18.1.x and into t1 for 198.18.0.x and counts those that
# come back on the other tap with the TTL decremented (routed by l3fwd).
# The namespace has IPv6 off and no forwarding: the kernel adds no traffic.
# Checked: every frame routed, l3fwd's port counters (telemetry
# /ethdev/stats) and turbomem's driver counters (/turbomem/info) show the
# traffic. Needs root (netns, tun).
#
# Environment: TM_L3FWD_PKTS (frames per direction, default 2000).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/dpdk.sh
. "$here/../../scripts/dpdk.sh"
exec 2>&1
plugin=$(realpath "${1:-$tm_top/build/librte_mempool_turbomem.so}")
work=$(realpath -m "${2:-$tm_top/build-intree}")
count=${TM_L3FWD_PKTS:-2000}
tag=$(path_tag "$plugin")
tag=${tag:0:6}
ns=tm-l3fwd-$tag
prefix=tm-l3fwd-$tag
t0=tm${tag}t0 t1=tm${tag}t1
pid=""

fail_log=$work/l3fwd.log
cleanup() {
	stop_process "$pid"
	eal_remove "$prefix"
	ip netns del "$ns" 2>/dev/null || true
}
trap cleanup EXIT

# Capabilities of the machine, not of turbomem: skip (77) without them.
[ "$(id -u)" -eq 0 ] || { log "SKIP: needs root (network namespace, tap)"; exit 77; }
[ -c /dev/net/tun ] || { log "SKIP: no /dev/net/tun (net_tap)"; exit 77; }
ip netns add "$ns-probe" 2>/dev/null || { log "SKIP: cannot create a network namespace"; exit 77; }
ip netns del "$ns-probe"
[ -f "$plugin" ] || fail "no plugin $plugin"

src=$(dpdk_source "$work")
# A clean copy (with examples/common, which l3fwd includes as ../common).
rm -rf "$work/examples"
mkdir -p "$work/examples"
cp -a "$src/examples/l3fwd" "$src/examples/common" "$work/examples/"
rm -rf "$work/examples/l3fwd/build"
l3dir=$work/examples/l3fwd
log "building l3fwd from $src/examples/l3fwd with pkg-config libdpdk $(pkg-config --modversion libdpdk)"
make -C "$l3dir" -j2 shared > "$work/l3fwd-build.log" 2>&1 ||
	{ tail -20 "$work/l3fwd-build.log"; fail "l3fwd build failed"; }
l3fwd=$l3dir/build/l3fwd-shared

cleanup
ip netns add "$ns"
ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=0

# EAL refuses -d under world-writable directories: with-plugin.sh stages it
# (l3fwd runs here, not under it: stop_process signals l3fwd itself).
staged=$("$tm_top/scripts/with-plugin.sh" "$plugin" echo @PLUGIN@)
ip netns exec "$ns" "$l3fwd" -l 1 --no-huge -m 512 \
	--no-pci -d "$staged" --file-prefix="$prefix" \
	--mbuf-pool-ops-name=turbomem \
	--vdev "net_tap0,iface=$t0" --vdev "net_tap1,iface=$t1" \
	-- -p 0x3 -P --parse-ptype --config="(0,0,1),(1,0,1)" \
	< /dev/null > "$work/l3fwd.log" 2>&1 &
pid=$!

query() { printf '%s\n' "$@" | dpdk-telemetry.py -f "$prefix" 2>/dev/null | grep '{' || true; }
wait_for "$work/l3fwd.log" 'entering main loop on lcore' 30 "$pid" ||
	fail "l3fwd did not start forwarding (exited, or not in 30 s)"
pool=$(query /turbomem/list | python3 -c 'import json,sys; print(json.load(sys.stdin)["/turbomem/list"][0])') ||
	fail "no turbomem pool in l3fwd (telemetry /turbomem/list)"
log "l3fwd forwarding; its mbuf pool $pool is on turbomem"
before=$(query "/turbomem/info,$pool")

res=$(ip netns exec "$ns" python3 "$here/l3fwd_pkts.py" "$count" "$t0" "$t1")
log "traffic: $res"
after=$(query "/turbomem/info,$pool" /ethdev/stats,0 /ethdev/stats,1)

python3 - "$res" "$before" "$after" "$count" <<'PY'
import json, sys
res = json.loads(sys.argv[1])
before = json.loads(sys.argv[2])["/turbomem/info"]
after = [json.loads(l) for l in sys.argv[3].splitlines()]
info = after[0]["/turbomem/info"]
p0, p1 = after[1]["/ethdev/stats"], after[2]["/ethdev/stats"]
count = int(sys.argv[4])
ok = True
def check(cond, what):
    global ok
    print("l3fwd: %s: %s" % ("ok" if cond else "FAIL", what))
    ok = ok and cond
for flow, r in res.items():
    check(r["received"] == r["sent"], "%s: %d of %d frames routed back" % (flow, r["received"], r["sent"]))
check(p0["ipackets"] >= count and p1["ipackets"] >= count,
      "l3fwd ports received %d / %d frames" % (p0["ipackets"], p1["ipackets"]))
check(p0["opackets"] >= count and p1["opackets"] >= count,
      "l3fwd ports sent %d / %d frames" % (p0["opackets"], p1["opackets"]))
got = info["get_objs"] - before["get_objs"]
put = info["put_objs"] - before["put_objs"]
print("l3fwd: turbomem %s: get_objs +%d put_objs +%d (calls +%d/+%d), cas_retries %d, count %d of %d" %
      (info["name"], got, put, info["get_calls"] - before["get_calls"],
       info["put_calls"] - before["put_calls"], info["cas_retries"], info["count"], info["size"]))
# l3fwd's 256-mbuf lcore cache absorbs most of the traffic; the driver
# served the Rx rings and the cache refills.
check(info["get_objs"] > 0 and info["get_fails"] == 0,
      "turbomem served %d mbufs, no failed get" % info["get_objs"])
check(0 < info["count"] <= info["size"], "driver count within the pool size")
sys.exit(0 if ok else 1)
PY
log "OK"
