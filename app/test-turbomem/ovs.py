#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""Open vSwitch with DPDK on turbomem, unchanged (Debian's
openvswitch-switch-dpdk: OVS 3.1 on DPDK 22.11).

Runs a private ovsdb-server and ovs-vswitchd-dpdk: a run directory of its
own under $TM_OVS_WORK (default $HOME/.cache/turbomem-ovs), its own
database, no system service. turbomem comes in as an operator adds it:
"-d PLUGIN --mbuf-pool-ops-name=turbomem" in other_config:dpdk-extra.
Every exit path stops both daemons, deletes the namespaces and veths it
made and the EAL runtime directory; a run killed outright leaves them,
and the next run removes what a dead run left (named after its pid).

Usage: ovs.py [--plugin PLUGIN] MODE
  test     (hugepages: --socket-mem 1024 --socket-limit 1024)
           1. shared memory (OVS's default), TURBOMEM_CONFIG=track=on:
              - forwarding: a netdev bridge, two net_null ports, flow
                p0 -> p1: packets move (rate from the ports' counters);
                /turbomem/list holds every OVS pool of /mempool/list and
                /turbomem/info answers for each;
              - diagnostics: /turbomem/held on the pool names the PMD
                thread's lcore, its cache and ovs-vswitchd's main thread,
                holding the Rx rings of a net_tap port (allocated when it
                set the queues up); the counts add up to the pool size;
              - real packets: a second bridge, two net_af_packet ports on
                veth pairs into two network namespaces, MTU 800 (OVS's
                pool for MTUs up to 998, 16384 mbufs); ping between the
                namespaces: no loss, the ports counted them, and the pool
                at rest has all its mbufs;
              - under traffic, each 3 times: MTU 1500 -> 800 -> 1500 on p0
                (a second shared pool; 9000 would make OVS request 262144
                9 KB mbufs), then p1's MTU 1400 and back (OVS frees the
                unused pool), n_rxq 1 -> 2 -> 1, p1 deleted and added
                again (real packets above run after these steps);
           2. per-port-memory=true (OVS reads it at start: restarted),
              the same steps with MTU 9000;
           3. per-port-memory=false again: forwarding on one shared pool;
           4. bad input: a plugin path that does not exist (ovs-vswitchd
              stops with DPDK's error, nothing left running); an ops name
              no driver registered (the port is refused with OVS's error,
              no pool left).
           After every step: ovs-vswitchd alive, the change applied,
           traffic flowing, no ERR/EMER line in its log; a pool no port
           uses (OVS frees it at its next pool request) is at rest with
           every mbuf free (/turbomem/held, avail_count) and at most one
           such pool; no memzone of a freed pool left. Where a step
           returns to a set of pools seen before (a pool freed, a round
           repeated), the heap statistics are those seen then: no more
           allocations, the bytes within alignment padding (the driver's
           memory included). At the end of each phase all
           ports are deleted (every pool at rest, full) and added again:
           OVS frees the pools no port uses; pools and memzones are those
           before the steps.
  nohuge   hugepage-free OVS. First "--no-huge -m 1024": OVS appends
           --in-memory and DPDK 22.11 refuses (the error is checked);
           then "--no-huge --legacy-mem -m 1024" (OVS then adds no
           --in-memory): forwarding on turbomem pools in transparent huge
           pages (/turbomem/info "memory"), MTU 9000 and back twice with
           per-port-memory, the end-of-phase checks as above.
  bench    OVS forwarding rate (p0 -> p1, net_null, 1 PMD thread) on
           ring_mp_mc and on turbomem, the same hugepage memory,
           interleaved rounds, medians and the ratio, with the CPU named.
           Then the same with the PMD thread and ovs-vswitchd's main
           (non-PMD) thread pinned to one CPU, the main thread copying
           packets from the bridge's internal port to p1 (allocating from
           and freeing to p1's pool, without a mempool cache). Options
           --rounds (5), --seconds (5). Not a test: no timing assertion.

Exit status: 0 pass, 1 a check failed, 77 skipped (prints "SKIP: why":
not root, OVS not installed, no hugepages), 2 usage.
"""

import argparse
import ctypes
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
from testpmd import Telemetry, eal_remove, runtime_dir, plugin_path  # noqa: E402

VSWITCHD = os.environ.get(
    "TM_OVS_VSWITCHD", "/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk")
SCHEMA = os.environ.get("TM_OVS_SCHEMA",
                        "/usr/share/openvswitch/vswitch.ovsschema")
TOOLS = ["ovsdb-tool", "ovsdb-server", "ovs-vsctl", "ovs-appctl",
         "ovs-ofctl", "ip"]
TAG = "tmo%d" % os.getpid()     # names of bridges, veths, namespaces
HUGE_MEM = "--socket-mem 1024 --socket-limit 1024"
NOHUGE_MEM = "--no-huge --legacy-mem -m 1024"
# ERR lines of net_tap that do not concern pools: a kernel without
# sch_multiq (it then runs without rte_flow, unused here), and its request
# to secondary processes when a tap port is added again, which fails as
# OVS disables multi-process (rte_mp_disable).
ERR_ALLOWED = re.compile(r"tap_nl_dump_ext_ack|qdisc_create_multiq|"
                         r"failed to create multiq qdisc|"
                         r"Disabling rte flow support|"
                         r"tap_mp_req_on_rxtx\(\): Failed to send start req")
libc = ctypes.CDLL(None, use_errno=True)


def log(msg):
    print("ovs.py: %s" % msg, flush=True)


class Failed(Exception):
    pass


class Skip(Exception):
    pass


def check(cond, what):
    log("%s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        raise Failed(what)


def run(cmd, check_rc=True, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, **kw)
    if check_rc and p.returncode != 0:
        raise Failed("%s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                          p.stdout.strip()[-600:]))
    return p.stdout


def child_setup():
    # A daemon outlives no killed harness (PR_SET_PDEATHSIG) and dumps no
    # core into the run directory when DPDK's init aborts it.
    libc.prctl(1, signal.SIGTERM)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- leftovers of killed runs, and this run's own ---------------------

def sweep_leftovers(base):
    """Namespaces, links, run directories and EAL files named after a pid
    that no longer runs (a run killed outright)."""
    out = run(["ip", "netns", "list"], check_rc=False)
    for name in re.findall(r"^(tmo\d+\w*)", out, re.M):
        m = re.match(r"tmo(\d+)", name)
        if m and not pid_alive(int(m.group(1))):
            run(["ip", "netns", "del", name], check_rc=False)
    out = run(["ip", "-o", "link", "show"], check_rc=False)
    for name in re.findall(r"^\d+: (tmo\d+\w*)[@:]", out, re.M):
        m = re.match(r"tmo(\d+)", name)
        if m and not pid_alive(int(m.group(1))):
            run(["ip", "link", "del", name], check_rc=False)
    for d in ([os.path.join(base, x) for x in os.listdir(base)]
              if os.path.isdir(base) else []):
        m = re.match(r"(\d+)$", os.path.basename(d))
        if m and not pid_alive(int(m.group(1))):
            shutil.rmtree(d, ignore_errors=True)
    rd = os.path.dirname(runtime_dir("x"))
    if os.path.isdir(rd):
        for x in os.listdir(rd):
            m = re.match(r"tm-ovs-\w+-(\d+)$", x)
            if m and not pid_alive(int(m.group(1))):
                eal_remove(x)


class Netns:
    """Two namespaces, each with one end of a veth pair; the other ends
    stay here for net_af_packet."""

    def __init__(self):
        self.ns = []
        self.links = []

    def up(self):
        for i, ip in enumerate(["10.231.0.1", "10.231.0.2"]):
            ns, host, peer = "%sn%d" % (TAG, i), "%sh%d" % (TAG, i), \
                "%sp%d" % (TAG, i)
            run(["ip", "netns", "add", ns])
            self.ns.append(ns)
            run(["ip", "link", "add", host, "type", "veth", "peer", "name",
                 peer])
            self.links.append(host)
            run(["ip", "link", "set", peer, "netns", ns])
            run(["ip", "-n", ns, "addr", "add", ip + "/24", "dev", peer])
            run(["ip", "-n", ns, "link", "set", peer, "up"])
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
            run(["ip", "link", "set", host, "up"])
        return self.links

    def down(self):
        for ns in self.ns:
            run(["ip", "netns", "del", ns], check_rc=False)
        for link in self.links:
            run(["ip", "link", "del", link], check_rc=False)
        self.ns, self.links = [], []


# --- the daemons --------------------------------------------------------

class Ovs:
    def __init__(self, work, prefix):
        self.dir = work
        self.prefix = prefix
        self.db = None
        self.sw = None
        self.sw_log = None
        self.n_start = 0
        self.log_mark = 0
        self.tel = None

    # -- commands
    def vsctl(self, *args, wait=True, timeout=60, check_rc=True):
        cmd = ["ovs-vsctl", "--db=unix:%s/db.sock" % self.dir,
               "--timeout=%d" % timeout]
        if not wait:
            cmd.append("--no-wait")
        return run(cmd + list(args), check_rc=check_rc)

    def appctl(self, *args, target="ovs-vswitchd", check_rc=True):
        return run(["ovs-appctl", "-t", "%s/%s.ctl" % (self.dir, target)] +
                   list(args), check_rc=check_rc)

    def ofctl(self, cmd, bridge, *args):
        return run(["ovs-ofctl", cmd, "unix:%s/%s.mgmt" % (self.dir, bridge)] +
                   list(args))

    def env(self, extra=None):
        e = dict(os.environ, OVS_RUNDIR=self.dir, OVS_LOGDIR=self.dir,
                 OVS_DBDIR=self.dir, OVS_SYSCONFDIR=self.dir)
        e.update(extra or {})
        return e

    # -- ovsdb-server
    def start_db(self):
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        db = os.path.join(self.dir, "conf.db")
        run(["ovsdb-tool", "create", db, SCHEMA])
        self.db = subprocess.Popen(
            ["ovsdb-server", db, "--remote=punix:%s/db.sock" % self.dir,
             "--pidfile=%s/ovsdb-server.pid" % self.dir,
             "--unixctl=%s/ovsdb-server.ctl" % self.dir,
             "--log-file=%s/ovsdb-server.log" % self.dir],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.dir, "ovsdb-server.err"), "w"),
            env=self.env(), preexec_fn=child_setup)
        for _ in range(100):
            if os.path.exists(os.path.join(self.dir, "db.sock")):
                break
            if self.db.poll() is not None:
                raise Failed("ovsdb-server exited (%d)" % self.db.returncode)
            time.sleep(0.05)
        self.vsctl("init", wait=False)

    # -- ovs-vswitchd
    def configure(self, extra, other=None):
        """other_config for the next start (dpdk-extra and the rest)."""
        kv = {"dpdk-init": "true", "dpdk-extra": extra,
              "pmd-cpu-mask": hex(1 << max(os.sched_getaffinity(0)))}
        kv.update(other or {})
        self.vsctl("set", "Open_vSwitch", ".",
                   *["other_config:%s=%s" % (k, json.dumps(v))
                     for k, v in kv.items()], wait=False)

    def start_switch(self, env=None, expect_fail=False, cpus=None):
        self.n_start += 1
        self.sw_log = os.path.join(self.dir, "ovs-vswitchd-%d.log" %
                                   self.n_start)
        cmd = [VSWITCHD, "unix:%s/db.sock" % self.dir,
               "--pidfile=%s/ovs-vswitchd.pid" % self.dir,
               "--unixctl=%s/ovs-vswitchd.ctl" % self.dir,
               "--log-file=%s" % self.sw_log, "-vconsole:off"]
        if cpus is not None:
            cmd = ["taskset", "-c", cpus] + cmd
        self.sw = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.sw_log + ".err", "w"), cwd=self.dir,
            env=self.env(env), preexec_fn=child_setup)
        self.log_mark = 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < 120:
            if self.sw.poll() is not None:
                if expect_fail:
                    return self.sw.returncode
                raise Failed("ovs-vswitchd exited (%d) at start:\n%s" %
                             (self.sw.returncode, self.log_tail()))
            if "DPDK Enabled - initialized" in self.log_text():
                break
            time.sleep(0.1)
        else:
            raise Failed("ovs-vswitchd not initialized in 120 s:\n" +
                         self.log_tail())
        if expect_fail:
            raise Failed("ovs-vswitchd started, expected it to fail")
        self.tel = Telemetry(self.prefix)
        # ovs-vsctl waits for ovs-vswitchd to apply the database.
        self.vsctl("set", "Open_vSwitch", ".", "external_ids:tm=%d" %
                   self.n_start)
        return 0

    def stop_switch(self, must_be_clean=True):
        if self.sw is None:
            return
        if self.tel is not None:
            self.tel.close()
            self.tel = None
        rc = None
        if self.sw.poll() is None:
            self.appctl("exit", "--cleanup", check_rc=False)
            try:
                rc = self.sw.wait(30)
            except subprocess.TimeoutExpired:
                self.sw.kill()
                self.sw.wait()
                if must_be_clean:
                    self.sw = None
                    raise Failed("ovs-vswitchd did not exit in 30 s on "
                                 "'exit --cleanup': killed")
        else:
            rc = self.sw.returncode
        self.sw = None
        eal_remove(self.prefix)
        if must_be_clean:
            check(rc == 0, "ovs-vswitchd exited cleanly (status %s)" % rc)

    def stop_db(self):
        if self.db is None:
            return
        if self.db.poll() is None:
            self.appctl("exit", target="ovsdb-server", check_rc=False)
            try:
                self.db.wait(10)
            except subprocess.TimeoutExpired:
                self.db.kill()
                self.db.wait()
        self.db = None

    def close(self):
        try:
            self.stop_switch(must_be_clean=False)
        finally:
            self.stop_db()

    def alive(self):
        return self.sw is not None and self.sw.poll() is None

    # -- log
    def log_text(self):
        try:
            with open(self.sw_log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log_tail(self, n=40):
        return "\n".join(self.log_text().splitlines()[-n:])

    def new_errors(self):
        """ERR and EMER lines since the last call."""
        lines = self.log_text().splitlines()
        new = lines[self.log_mark:]
        self.log_mark = len(lines)
        return [x for x in new if re.search(r"\|(ERR|EMER)\|", x) and
                not ERR_ALLOWED.search(x)]

    # -- telemetry
    def q(self, cmd):
        for attempt in range(3):
            try:
                return self.tel.query(cmd)
            except (OSError, ValueError):
                self.tel.close()
                if attempt == 2:
                    raise
                time.sleep(0.2)

    def pools(self):
        return sorted(x for x in self.q("/mempool/list")["/mempool/list"]
                      if x.startswith("ovs"))

    def held(self, pool, n=3):
        return self.q("/turbomem/held,%s,%d" % (pool, n))["/turbomem/held"]

    def info(self, pool):
        return self.q("/turbomem/info,%s" % pool)["/turbomem/info"]

    def memzones(self):
        ids = self.q("/eal/memzone_list")["/eal/memzone_list"]
        return sorted(self.q("/eal/memzone_info,%d" % i)
                      ["/eal/memzone_info"]["Name"] for i in ids)

    def heaps(self):
        """{heap: (bytes allocated, allocations)}; the heaps turbomem makes
        for its pools without hugepages (named after an address) summed."""
        out, ext = {}, []
        for h in self.q("/eal/heap_list")["/eal/heap_list"]:
            i = self.q("/eal/heap_info,%d" % h)["/eal/heap_info"]
            v = (i["Alloc_size"], i["Alloc_count"])
            if i["Name"].startswith("turbomem-"):
                ext.append(v)
            else:
                out[i["Name"]] = v
        if ext:
            out["turbomem heaps: %d" % len(ext)] = (sum(v[0] for v in ext),
                                                    sum(v[1] for v in ext))
        return out

    def port_pool(self, port):
        out = self.appctl("netdev-dpdk/get-mempool-info", port)
        m = re.search(r"mempool <(\S+)>@", out)
        return m.group(1) if m else None

    def port_stats(self, bridge):
        """{ofport: {"rx": n, "tx": n, "rx_drop": n, "tx_drop": n}}"""
        out = self.ofctl("dump-ports", bridge)
        st = {}
        for m in re.finditer(r"port +(\w+): rx pkts=(\d+), bytes=\S+, "
                             r"drop=(\d+|\?).*?\n +tx pkts=(\d+), "
                             r"bytes=\S+, drop=(\d+|\?)", out):
            num = lambda s: int(s) if s.isdigit() else 0  # noqa: E731
            st[m.group(1)] = {"rx": int(m.group(2)),
                              "rx_drop": num(m.group(3)),
                              "tx": int(m.group(4)),
                              "tx_drop": num(m.group(5))}
        return st


# --- the test -----------------------------------------------------------

class Switch:
    """The test topology on one running ovs-vswitchd."""

    def __init__(self, ovs):
        self.ovs = ovs
        self.br = TAG + "a"
        self.ports = {}
        self.pmd_lcore = None

    def add_ports(self, names):
        spec = {"p0": ("net_null0", 1, []),
                "p1": ("net_null1,no-rx=1", 2, []),
                # net_tap needs as many Rx as Tx queues (OVS: PMD
                # threads + 1).
                "t0": ("net_tap0,iface=%st" % TAG, 3, ["options:n_rxq=2"])}
        cmd = []
        for n in names:
            dev, ofp, more = spec[n]
            cmd += ["--", "add-port", self.br, n, "--", "set", "Interface",
                    n, "type=dpdk", "options:dpdk-devargs=" + dev,
                    "ofport_request=%d" % ofp] + more
        self.ovs.vsctl(*cmd)
        for n in names:
            err = self.ovs.vsctl("get", "Interface", n, "error").strip()
            check(err in ("[]", '""'), "port %s added (error %s)" % (n, err))

    def setup(self, ports=("p0", "p1", "t0")):
        # A bridge of the database from the last start goes first.
        self.ovs.vsctl("--if-exists", "del-br", self.br, "--", "add-br",
                       self.br, "--", "set", "bridge", self.br,
                       "datapath_type=netdev")
        self.add_ports(list(ports))
        self.ovs.ofctl("del-flows", self.br)
        self.ovs.ofctl("add-flow", self.br, "in_port=1,actions=output:2")
        m = re.findall(r"PMD thread uses DPDK lcore (\d+)",
                       self.ovs.log_text())
        self.pmd_lcore = int(m[-1]) if m else None

    def rate(self, seconds=0.5):
        """Packets per second p1 sent (p0 -> p1), from its counters."""
        a = self.ovs.port_stats(self.br)["2"]["tx"]
        t0 = time.monotonic()
        time.sleep(seconds)
        b = self.ovs.port_stats(self.br)["2"]["tx"]
        return (b - a) / (time.monotonic() - t0)

    def used_pools(self):
        ports = [p for p in ("p0", "p1", "t0")
                 if self.ovs.vsctl("--if-exists", "get", "Interface", p,
                                   "ofport").strip() not in ("", "-1")]
        return {p: self.ovs.port_pool(p) for p in ports}


def check_rest(ovs, pool, what):
    """pool is at rest: every mbuf free (in the driver or a cache)."""
    for _ in range(20):
        i, h = ovs.info(pool), ovs.held(pool)
        if (i is not None and h is not None and
                i["avail_count"] == i["size"] and h["in_use"] == 0):
            break
        time.sleep(0.1)
    check(i is not None and i["avail_count"] == i["size"],
          "%s: pool %s at rest, avail_count %s of %s" %
          (what, pool, i and i["avail_count"], i and i["size"]))
    check(h["free"] + h["in_cache"] == h["size"] and h["in_use"] == 0,
          "%s: /turbomem/held: free %d + in caches %d = size %d, in use %d" %
          (what, h["free"], h["in_cache"], h["size"], h["in_use"]))


def after_step(sw, what, want_mtu=None, want_rxq=None):
    ovs = sw.ovs
    check(ovs.alive(), "%s: ovs-vswitchd alive" % what)
    if want_mtu is not None:
        mtu = ovs.vsctl("get", "Interface", "p0", "mtu").strip()
        check(mtu == str(want_mtu), "%s: p0 MTU %s" % (what, mtu))
    if want_rxq is not None:
        rxq = len(re.findall(r"port: +p0 +queue-id: +\d+",
                             ovs.appctl("dpif-netdev/pmd-rxq-show")))
        check(rxq == want_rxq, "%s: p0 polled on %d Rx queues" % (what, rxq))
    r = sw.rate()
    check(r > 0, "%s: forwarding p0 -> p1 at %.2f Mpps" % (what, r / 1e6))
    pools = ovs.pools()
    tm = ovs.q("/turbomem/list")["/turbomem/list"]
    check(set(pools) <= set(tm), "%s: every OVS pool is a turbomem pool "
          "(%s)" % (what, ", ".join(pools)))
    used = set(sw.used_pools().values())
    idle = [p for p in pools if p not in used]
    check(len(idle) <= 1, "%s: pools no port uses (OVS frees them at its "
          "next pool change): %s" % (what, idle or "none"))
    for p in idle:
        check_rest(ovs, p, what)
    mz = [z for z in ovs.memzones() if z.startswith("MP_")]
    alive = ovs.q("/mempool/list")["/mempool/list"]
    orphans = [z for z in mz if re.sub(r"^MP_|_\d+$", "", z) not in alive]
    check(not orphans, "%s: no memzone of a freed pool (%d pool memzones)" %
          (what, len(mz)))
    errs = ovs.new_errors()
    check(not errs, "%s: no error in ovs-vswitchd's log%s" %
          (what, "".join("\n  " + e for e in errs)))


def snapshot(ovs):
    return {"pools": ovs.pools(), "memzones": ovs.memzones(),
            "heaps": ovs.heaps()}


def phase_end(sw, base, what):
    """Delete every port: all pools at rest and full. Add them again: OVS
    frees the pools no port uses (at its first pool request), and memory
    is back where it was."""
    ovs = sw.ovs
    pools = ovs.pools()
    ovs.vsctl(*sum([["--", "del-port", sw.br, p] for p in
                    ("p0", "p1", "t0")], []))
    check(ovs.alive(), "%s: ports deleted, ovs-vswitchd alive" % what)
    for p in pools:
        check_rest(ovs, p, what + ", no port")
    sw.add_ports(["p0", "p1", "t0"])
    sw.ovs.ofctl("add-flow", sw.br, "in_port=1,actions=output:2")
    check(sw.rate() > 0, "%s: ports added again, forwarding" % what)
    now = snapshot(ovs)
    log("%s: heap statistics %s, before the steps %s (port deletions "
        "keep a few bytes in OVS or DPDK, as on ring_mp_mc)" %
        (what, now["heaps"], base["heaps"]))
    for k in ("pools", "memzones"):
        check(now[k] == base[k], "%s: %s as before the steps: %s%s" %
              (what, k, now[k] if k != "memzones" else
               "%d memzones" % len(now[k]),
               "" if now[k] == base[k] else " (before: %s)" % base[k]))
    errs = ovs.new_errors()
    check(not errs, "%s: no error in ovs-vswitchd's log%s" %
          (what, "".join("\n  " + e for e in errs)))


def heap_same(ovs, marks, key, what):
    """The heap statistics at key are those first seen there: every pool
    freed since gave all its memory back, the driver's included. No more
    allocations than then; the bytes may differ by the alignment padding
    of elements placed elsewhere (under 64 KB, where the driver's memory
    of the smallest pool here is 4 MB). OVS and DPDK also hold an
    allocation of their own now and then, for seconds: a difference is
    read again for up to 5 s; fewer allocations than then, or one more
    of under 4 KB, with the bytes within the padding, is no leak (a
    freed pool leaking would repeat each round, and holds far more)."""
    h = ovs.heaps()
    if key not in marks:
        marks[key] = (h, what)
        return
    m = marks[key][0]

    def cmp(h):
        if h.keys() != m.keys() or any(abs(h[k][0] - m[k][0]) >= 65536
                                       for k in h):
            return None
        return max(h[k][1] - m[k][1] for k in h)

    for _ in range(10):
        d = cmp(h)
        if d == 0:
            break
        time.sleep(0.5)
        h = ovs.heaps()
    d = cmp(h)
    if d is not None and d < 0:
        log("%s: heap statistics %s, %d allocation(s) fewer than at %s "
            "(then: %s): no leak" % (what, h, -d, marks[key][1], m))
    if d == 1 and all(h[k][0] - m[k][0] < 4096 for k in h):
        log("%s: heap statistics %s, one allocation of under 4 KB more "
            "than at %s (then: %s): no leak" % (what, h, marks[key][1], m))
        d = 0
    check(d is not None and d <= 0,
          "%s: heap statistics (bytes, allocations) %s, as at %s%s" %
          (what, h, marks[key][1], "" if h == m else " (then: %s)" % m))


def steps(sw, alt_mtu, cycles, per_port):
    """MTU, n_rxq and port changes under traffic. No port is deleted
    before the MTU and n_rxq rounds end: OVS (or DPDK) keeps 3 small
    allocations (576 bytes) per port deleted and added again, on
    ring_mp_mc as on turbomem, so the heap is compared around the rest."""
    ovs = sw.ovs
    marks = {}
    for c in range(1, cycles + 1):
        w = "MTU round %d" % c
        if not per_port:
            heap_same(ovs, marks, "mtu-%d" % c, w + ", before")
        ovs.vsctl("set", "Interface", "p0", "mtu_request=%d" % alt_mtu)
        after_step(sw, "%s, p0 MTU %d" % (w, alt_mtu), want_mtu=alt_mtu)
        if per_port:
            heap_same(ovs, marks, "mtu-alt", "%s, p0 MTU %d" % (w, alt_mtu))
        ovs.vsctl("set", "Interface", "p0", "mtu_request=1500")
        after_step(sw, "%s, p0 MTU 1500" % w, want_mtu=1500)
        if per_port:
            heap_same(ovs, marks, "mtu-1500", w + ", p0 MTU 1500")
        else:
            # OVS frees an unused pool at the next pool request: p1's.
            ovs.vsctl("set", "Interface", "p1", "mtu_request=1400")
            after_step(sw, "%s, p1 MTU 1400" % w)
            check(len(ovs.pools()) == 1, "%s: the MTU %d pool freed" %
                  (w, alt_mtu))
            heap_same(ovs, marks, "mtu-%d" % c, "%s, pool freed" % w)
            ovs.vsctl("set", "Interface", "p1", "mtu_request=1500")
            after_step(sw, "%s, p1 MTU 1500" % w)
    for c in range(1, cycles + 1):
        w = "n_rxq round %d" % c
        ovs.vsctl("set", "Interface", "p0", "options:n_rxq=2")
        after_step(sw, w + ", 2 queues", want_rxq=2)
        heap_same(ovs, marks, "rxq2", w + ", 2 queues")
        ovs.vsctl("set", "Interface", "p0", "options:n_rxq=1")
        after_step(sw, w + ", 1 queue", want_rxq=1)
        heap_same(ovs, marks, "rxq1", w + ", 1 queue")
    for c in range(1, cycles + 1):
        w = "port round %d" % c
        ovs.vsctl("del-port", sw.br, "p1")
        check(ovs.alive(), w + ", p1 deleted: ovs-vswitchd alive")
        sw.add_ports(["p1"])
        after_step(sw, w + ", p1 added again")


def forwarding(sw, what):
    ovs = sw.ovs
    r = sw.rate(1.0)
    st = ovs.port_stats(sw.br)
    check(r > 0 and st["1"]["rx"] > 0,
          "%s: p0 received %d, p1 sent at %.2f Mpps (1 PMD thread)" %
          (what, st["1"]["rx"], r / 1e6))
    pools = ovs.pools()
    tm = ovs.q("/turbomem/list")["/turbomem/list"]
    check(pools and set(pools) <= set(tm),
          "%s: /turbomem/list %s holds every OVS pool of /mempool/list %s" %
          (what, tm, pools))
    rx_pool = sw.used_pools()["p0"]
    for p in pools:
        i = ovs.info(p)
        mi = ovs.q("/mempool/info,%s" % p)["/mempool/info"]
        check(i is not None and i["size"] == mi["size"] and
              (p != rx_pool or i["get_objs"] > 0),
              "%s: /turbomem/info,%s: size %d (/mempool/info: %d), %d "
              "gets reached the driver" % (what, p, i and i["size"],
                                           mi["size"], i and i["get_objs"]))
    return pools


def diagnostics(sw):
    ovs = sw.ovs
    pool = sw.used_pools()["t0"]
    h = ovs.held(pool, 3)
    log("/turbomem/held,%s: %s" % (pool, json.dumps(h)))
    hs = {v["holder"]: v["count"] for k, v in h.items()
          if k.startswith("holder/")}
    check(h["tracking"] == 1, "track=on from TURBOMEM_CONFIG: tracking")
    pid = ovs.sw.pid
    pmd = [k for k in hs if k.startswith("lcore %d " % sw.pmd_lcore)]
    cache = [k for k in hs if k == "cache of lcore %d" % sw.pmd_lcore]
    main = [k for k in hs if k.startswith("thread %d " % pid)]
    check(bool(pmd) or bool(cache), "the PMD thread (lcore %s) holds "
          "mbufs: %s" % (sw.pmd_lcore, pmd + cache))
    check(main and hs[main[0]] >= 1000, "ovs-vswitchd's main thread "
          "(thread %d) holds the net_tap port's Rx rings: %s mbufs" %
          (pid, hs.get(main[0]) if main else 0))
    check(h["free"] + h["in_cache"] + h["in_use"] == h["size"],
          "free %d + in caches %d + in use %d = pool size %d" %
          (h["free"], h["in_cache"], h["in_use"], h["size"]))
    check(sum(hs.values()) == h["in_cache"] + h["in_use"],
          "holders' counts add up to in caches + in use (%d)" %
          sum(hs.values()))


def real_packets(ovs, n=300):
    nets = Netns()
    br = TAG + "k"
    try:
        hosts = nets.up()
        cmd = ["add-br", br, "--", "set", "bridge", br,
               "datapath_type=netdev"]
        for i, h in enumerate(hosts):
            cmd += ["--", "add-port", br, "k%d" % i, "--", "set",
                    "Interface", "k%d" % i, "type=dpdk",
                    # frames that fit the 1 KB mbufs of MTU 800
                    "options:dpdk-devargs=net_af_packet%d,iface=%s,"
                    "framesz=1024" % (i, h), "mtu_request=800"]
        ovs.vsctl(*cmd)
        for k in ("k0", "k1"):
            err = ovs.vsctl("get", "Interface", k, "error").strip()
            check(err in ("[]", '""'), "port %s added (error %s)" % (k, err))
        pool = ovs.port_pool("k0")
        out = run(["ip", "netns", "exec", nets.ns[0], "ping", "-q", "-c",
                   str(n), "-i", "0.002", "-W", "2", "10.231.0.2"],
                  check_rc=False)
        m = re.search(r"(\d+) packets transmitted, (\d+) received", out)
        check(m and int(m.group(1)) == n and int(m.group(2)) == n,
              "real packets: %s" % (m.group(0) if m else out.strip()))
        st = ovs.port_stats(br)
        k0, k1 = st["1"], st["2"]
        check(k0["rx"] >= n and k1["tx"] >= n and k1["rx"] >= n and
              k0["tx"] >= n, "net_af_packet ports counted them: k0 rx %d tx "
              "%d, k1 rx %d tx %d" % (k0["rx"], k0["tx"], k1["rx"], k1["tx"]))
        check(all(v["rx_drop"] == 0 and v["tx_drop"] == 0
                  for v in (k0, k1)), "no drops on k0 and k1")
        check(pool in ovs.q("/turbomem/list")["/turbomem/list"],
              "their MTU 800 pool %s is a turbomem pool" % pool)
        check_rest(ovs, pool, "after the ping")
        ovs.vsctl("del-br", br)
    finally:
        nets.down()


def phase(ovs, plugin, mem, per_port, alt_mtu, cycles, real, diag):
    what = "per-port memory" if per_port else "shared memory"
    log("=== %s, %s ===" % (what, "hugepages" if mem == HUGE_MEM else
                           "no hugepages"))
    ovs.configure("%s --no-pci --file-prefix %s -d %s "
                  "--mbuf-pool-ops-name=turbomem" % (mem, ovs.prefix, plugin),
                  {"per-port-memory": "true" if per_port else "false"})
    ovs.start_switch({"TURBOMEM_CONFIG": "track=on"})
    sw = Switch(ovs)
    sw.setup()
    pools = forwarding(sw, what)
    if per_port:
        check(len(set(sw.used_pools().values())) == 3,
              "per-port memory: one pool per port")
    else:
        check(len(pools) == 1, "shared memory: one pool for the 3 ports")
    if mem == NOHUGE_MEM:
        for p in pools:
            m = ovs.info(p)["memory"]
            check(m["backing"] == "thp" and m["huge_bytes"] == m["bytes"],
                  "no hugepages: pool %s in transparent huge pages (%s)" %
                  (p, m))
    if diag:
        diagnostics(sw)
    ovs.new_errors()
    base = snapshot(ovs)
    steps(sw, alt_mtu, cycles, per_port)
    if real:
        real_packets(ovs)
    phase_end(sw, base, what)
    ovs.stop_switch()
    errs = ovs.new_errors()
    check(not errs, "%s: no error in ovs-vswitchd's log at exit%s" %
          (what, "".join("\n  " + e for e in errs)))


def bad_input(ovs, plugin):
    log("=== bad input ===")
    missing = "/nonexistent/librte_mempool_turbomem.so"
    ovs.configure("%s --no-pci --file-prefix %s -d %s "
                  "--mbuf-pool-ops-name=turbomem" % (HUGE_MEM, ovs.prefix,
                                                      missing))
    rc = ovs.start_switch(expect_fail=True)
    text = ovs.log_text()
    check(rc != 0 and missing in text and
          "Unable to initialize DPDK" in text,
          "a plugin path that does not exist: ovs-vswitchd stopped (status "
          "%d) with \"%s\"" % (rc, "; ".join(
              re.findall(r"\|(?:ERR|EMER)\|(.*)", text))[:300]))
    ovs.sw = None
    left = run(["pgrep", "-f", "--", "--log-file=%s" % ovs.sw_log],
               check_rc=False).split()
    check(not left and not os.path.exists(runtime_dir(ovs.prefix) +
                                          "/dpdk_telemetry.v2"),
          "nothing left running")
    eal_remove(ovs.prefix)
    ovs.configure("%s --no-pci --file-prefix %s -d %s "
                  "--mbuf-pool-ops-name=turbomemx" % (HUGE_MEM, ovs.prefix,
                                                       plugin))
    ovs.start_switch()
    br = TAG + "a"
    ovs.vsctl("add-br", br, "--", "set", "bridge", br,
              "datapath_type=netdev", "--", "add-port", br, "p0", "--", "set",
              "Interface", "p0", "type=dpdk",
              "options:dpdk-devargs=net_null0", check_rc=False)
    err = ovs.vsctl("get", "Interface", "p0", "error").strip()
    lines = ovs.new_errors()
    check(any("Failed to create memory pool for netdev p0" in x and
              "Invalid argument" in x for x in lines) and err not in
          ("[]", '""'), "an unknown ops name: the port is refused: %s; "
          "log: %s" % (err, lines[-1] if lines else "none"))
    # OVS retries with smaller pools after a refusal; each lives a moment.
    deadline = time.time() + 10
    while ovs.pools() and time.time() < deadline:
        time.sleep(0.2)
    check(ovs.pools() == [], "no pool left")
    ovs.stop_switch()


def nohuge(ovs, plugin):
    log("=== --no-huge as DPDK's guide writes it ===")
    ovs.configure("--no-huge -m 1024 --no-pci --file-prefix %s -d %s "
                  "--mbuf-pool-ops-name=turbomem" % (ovs.prefix, plugin))
    rc = ovs.start_switch(expect_fail=True)
    text = ovs.log_text()
    want = "Option --legacy-mem is not compatible with --in-memory"
    check(rc != 0 and want in text, "OVS appends --in-memory and DPDK "
          "22.11 refuses --no-huge: \"%s\" (status %d)" % (want, rc))
    ovs.sw = None
    eal_remove(ovs.prefix)
    phase(ovs, plugin, NOHUGE_MEM, True, 9000, 2, False, False)


# --- bench --------------------------------------------------------------

def cpu_name():
    with open("/proc/cpuinfo") as f:
        m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
    return m.group(1).strip() if m else "unknown CPU"


def blast(ifname, seconds):
    """Send frames into the bridge's internal port from the kernel side
    (a child process on another CPU)."""
    code = ("import socket,time,sys\n"
            "s=socket.socket(socket.AF_PACKET,socket.SOCK_RAW)\n"
            "s.bind((sys.argv[1],0))\n"
            "f=bytes.fromhex('02000000000102000000000208004500002e0000'"
            "'000040110000c0a80001c0a8000204d204d2001a0000')+bytes(18)\n"
            "end=time.monotonic()+float(sys.argv[2])\n"
            "n=0\n"
            "while time.monotonic()<end:\n"
            "    for _ in range(1000):\n"
            "        try: s.send(f)\n"
            "        except OSError: pass\n"
            "    n+=1000\n"
            "print(n)\n")
    cpus = sorted(os.sched_getaffinity(0))
    return subprocess.Popen(["taskset", "-c", str(cpus[-1]), sys.executable,
                             "-c", code, ifname, str(seconds)],
                            stdout=subprocess.PIPE, text=True)


def bench_one(ovs, plugin, handler, shared_core, seconds):
    ops = ("-d %s --mbuf-pool-ops-name=turbomem" % plugin
           if handler == "turbomem" else "--mbuf-pool-ops-name=%s" % handler)
    cpus = sorted(os.sched_getaffinity(0))
    other = {}
    if shared_core:
        other["pmd-cpu-mask"] = hex(1 << cpus[0])
    ovs.configure("%s --no-pci --file-prefix %s %s" % (HUGE_MEM, ovs.prefix,
                                                     ops), other)
    ovs.start_switch(cpus=str(cpus[0]) if shared_core else None)
    try:
        sw = Switch(ovs)
        sw.setup(("p0", "p1"))
        if shared_core:
            ovs.ofctl("add-flow", sw.br, "in_port=LOCAL,actions=output:2")
            run(["ip", "link", "set", sw.br, "up"])
            b = blast(sw.br, seconds + 2)
        time.sleep(1)
        st0 = ovs.port_stats(sw.br)
        t0 = time.monotonic()
        time.sleep(seconds)
        st1 = ovs.port_stats(sw.br)
        dt = time.monotonic() - t0
        fwd = (st1["2"]["tx"] - st0["2"]["tx"]) / dt
        local = (st1["LOCAL"]["rx"] - st0["LOCAL"]["rx"]) / dt \
            if shared_core else 0
        if shared_core:
            b.wait()
        errs = ovs.new_errors()
        if errs:
            raise Failed("errors in ovs-vswitchd's log: %s" % errs)
    finally:
        ovs.stop_switch()
    return fwd, local


def bench(ovs, plugin, rounds, seconds):
    handlers = ["ring_mp_mc", "turbomem"]
    table = []
    for shared_core in (False, True):
        res = {h: [] for h in handlers}
        for r in range(rounds):
            order = handlers if r % 2 == 0 else handlers[::-1]
            for h in order:
                fwd, local = bench_one(ovs, plugin, h, shared_core, seconds)
                res[h].append(fwd)
                log("round %d/%d %s%s: %.3f Mpps p0 -> p1%s" % (
                    r + 1, rounds, h, ", PMD + main thread on one CPU"
                    if shared_core else "", fwd / 1e6,
                    ", main thread: %.0f kpps internal port -> p1" %
                    (local / 1e3) if shared_core else ""))
        ratios = [t / b for t, b in zip(res["turbomem"], res["ring_mp_mc"])
                  if b > 0]
        table.append(("PMD + main thread on 1 CPU" if shared_core else
                      "1 PMD thread", statistics.median(res["ring_mp_mc"]),
                      statistics.median(res["turbomem"]),
                      statistics.median(ratios), min(ratios), max(ratios)))
    print()
    print("OVS %s forwarding, net_null p0 -> p1, hugepages (%s), "
          "%d rounds x %g s, interleaved; CPU: %s, %d CPUs" % (
              run([VSWITCHD, "--version"]).split("\n")[0].split()[-1],
              HUGE_MEM, rounds, seconds, cpu_name(), os.cpu_count()))
    print("%-28s %12s %12s %8s %15s" % ("layout", "ring_mp_mc", "turbomem",
                                        "ratio", "round ratios"))
    for name, rb, rt, med, lo, hi in table:
        print("%-28s %7.3f Mpps %7.3f Mpps %7.2fx %7.2f-%.2fx" % (
            name, rb / 1e6, rt / 1e6, med, lo, hi))
    return 0


# --- main ---------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="Open vSwitch on turbomem")
    ap.add_argument("mode", choices=["test", "nohuge", "bench"])
    ap.add_argument("--plugin", default=os.path.join(
        TOP, "build", "librte_mempool_turbomem.so"))
    ap.add_argument("--prefix", default=None,
                    help="EAL --file-prefix (default tm-ovs-MODE-PID)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=5)
    a = ap.parse_args()

    base = os.environ.get("TM_OVS_WORK", os.path.join(
        os.environ.get("HOME", "/root"), ".cache", "turbomem-ovs"))
    ovs = None
    try:
        if os.geteuid() != 0:
            raise Skip("not root (OVS with DPDK, namespaces, veths)")
        missing = [t for t in TOOLS if shutil.which(t) is None]
        if not os.access(VSWITCHD, os.X_OK) or missing:
            raise Skip("openvswitch-switch-dpdk not installed (%s; "
                       "scripts/deps.sh installs it)" %
                       ", ".join(missing + ([VSWITCHD] if not
                                            os.access(VSWITCHD, os.X_OK)
                                            else [])))
        plugin, _ = plugin_path(a.plugin)
        sweep_leftovers(base)
        prefix = a.prefix or "tm-ovs-%s-%d" % (a.mode, os.getpid())
        ovs = Ovs(os.path.join(base, str(os.getpid())), prefix)
        ovs.start_db()
        if a.mode == "test":
            phase(ovs, plugin, HUGE_MEM, False, 800, 3, True, True)
            phase(ovs, plugin, HUGE_MEM, True, 9000, 3, True, False)
            ovs.configure("%s --no-pci --file-prefix %s -d %s "
                          "--mbuf-pool-ops-name=turbomem" %
                          (HUGE_MEM, ovs.prefix, plugin),
                          {"per-port-memory": "false"})
            ovs.start_switch()
            sw = Switch(ovs)
            sw.setup()
            pools = forwarding(sw, "shared memory again")
            check(len(pools) == 1, "shared memory again: one pool")
            ovs.stop_switch()
            bad_input(ovs, plugin)
        elif a.mode == "nohuge":
            nohuge(ovs, plugin)
        else:
            bench(ovs, plugin, a.rounds, a.seconds)
        rc = 0
    except Skip as e:
        print("SKIP: %s" % e, flush=True)
        rc = 77
    except Failed as e:
        log("FAIL: %s" % e)
        if ovs is not None and ovs.sw_log:
            log("end of %s:\n%s" % (ovs.sw_log, ovs.log_tail()))
        rc = 1
    finally:
        if ovs is not None:
            ovs.close()
            shutil.rmtree(ovs.dir, ignore_errors=True)
            eal_remove(ovs.prefix)
    if ovs is not None and rc != 77:
        # Nothing left behind: processes, links, namespaces, hugepage files.
        left = []
        if run(["pgrep", "-f", ovs.dir], check_rc=False).strip():
            left.append("processes")
        if re.search(r"^\d+: %s" % TAG, run(["ip", "-o", "link", "show"]),
                     re.M):
            left.append("links")
        if TAG in run(["ip", "netns", "list"], check_rc=False):
            left.append("namespaces")
        if os.path.isdir("/dev/hugepages") and any(
                ovs.prefix in x for x in os.listdir("/dev/hugepages")):
            left.append("hugepage files")
        if os.path.exists(ovs.dir) or os.path.exists(runtime_dir(ovs.prefix)):
            left.append("directories")
        if left:
            log("FAIL: left behind: %s" % ", ".join(left))
            rc = 1
        else:
            log("ok: nothing left behind (processes, links, namespaces, "
                "hugepage files, directories)")
    return rc


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
