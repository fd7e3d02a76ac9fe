#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""Send UDP/IPv4 frames on one interface per direction and count those that
come back routed (TTL decremented) on the other: the traffic generator of
l3fwd.sh, run inside its network namespace.

usage: l3fwd_pkts.py COUNT IFACE0 IFACE1
Frames from IFACE0 go to 198.18.1.x (l3fwd port 1), frames from IFACE1 to
198.18.0.x (port 0). Prints "sent N received M" per direction as JSON."""

import json
import select
import socket
import struct
import sys
import time

MARK = b"turbomem-l3fwd"


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def frame(src, dst, seq):
    payload = MARK + struct.pack("!I", seq) + bytes(32)
    udp = struct.pack("!HHHH", 4000, 5000, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xFFFF, 0,
                     64, 17, 0, socket.inet_aton(src), socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = b"\x02\x00\x00\x00\x00\x01" + b"\x02\x00\x00\x00\x00\x02" + b"\x08\x00"
    return eth + ip + udp


def main():
    count, if0, if1 = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    socks = {}
    for ifc in (if0, if1):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
        s.bind((ifc, 0))
        s.setblocking(False)
        socks[ifc] = s
    flows = [(if0, if1, "198.18.0.2", "198.18.1.2"),
             (if1, if0, "198.18.1.3", "198.18.0.3")]
    got = {if0: 0, if1: 0}

    def drain(timeout):
        end = time.time() + timeout
        while time.time() < end:
            r, _, _ = select.select(list(socks.values()), [], [], 0.1)
            for s in r:
                ifc = [k for k, v in socks.items() if v is s][0]
                while True:
                    try:
                        data, addr = s.recvfrom(2048)
                    except BlockingIOError:
                        break
                    # PACKET_OUTGOING: our own transmissions
                    if addr[2] == socket.PACKET_OUTGOING:
                        continue
                    if MARK in data and data[14 + 8] == 63:
                        got[ifc] += 1
            if got[if0] >= count and got[if1] >= count:
                return

    for i in range(count):
        for tx, _, src, dst in flows:
            socks[tx].send(frame(src, dst, i))
        if i % 64 == 63:
            drain(0.001)
    drain(3.0)
    res = {"%s->%s" % (tx, rx): {"sent": count, "received": got[rx]}
           for tx, rx, _, _ in flows}
    print(json.dumps(res))


if __name__ == "__main__":
    main()
