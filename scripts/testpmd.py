#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""The one testpmd harness of turbomem's scripts.

Starts dpdk-testpmd on two net_null ports (no NIC, --no-huge, io
forwarding), waits until it forwards, queries its telemetry socket
directly (no dpdk-telemetry.py), samples rates, checks, stops it with
SIGINT (SIGKILL after a grace period). Exit status 0 when every check
passed, 1 when one failed, 2 on a usage or start-up error.

Usage:
  testpmd.py [options] [-- EAL args [-- testpmd args]]
  testpmd.py compare        (handlers side by side; see "Compare" below)
  testpmd.py version [TESTPMD]
                            the DPDK version TESTPMD (default $TESTPMD or
                            dpdk-testpmd) was built from, and the file
                            that says it

The EAL and testpmd arguments given after "--" are added to the defaults:
  EAL:     --no-huge -m MEM (or --mem-opts) --no-pci -l LCORES --vdev net_null0
           --vdev net_null1 --file-prefix PREFIX [-d PLUGIN]
           [--mbuf-pool-ops-name OPS]
  testpmd: --forward-mode=io --auto-start --stats-period 1

Checks (--check, repeatable; "forward" always runs):
  forward    the log says "preferred mempool ops selected: OPS" (with
             --ops), some port received packets (RX-packets > 0), no
             "cannot register mempool ops" / "already registered" line,
             and testpmd ended cleanly on SIGINT
  list       /turbomem/list is exactly [POOL] (--pool, default mb_pool_0)
  info       /turbomem/info,POOL: name is POOL, 0 < count <= size,
             get_objs and put_objs > 0, get_objs >= get_calls (less one
             per lcore, which may be between its two adds), and a
             memory report (or its error) is present
  memory     /turbomem/info must answer; gets and puts counted, size
             populated, counts within size, a memory report whose backing
             is --backing (thp: >= 95% in 2 MB pages unless THP is [never])
  rise       info twice, 1 s apart: get_calls, get_objs, put_calls and
             put_objs all rise; /turbomem/info of an unknown pool and with
             no pool name both give null
  held       /turbomem/held,POOL: tracking is on (TURBOMEM_CONFIG=track=on)
             and the report covers the whole pool; it stays on through
             testpmd's exit, which drains the pool one tracked mbuf per
             get (the time of the stop is printed)
Without --check info/list/rise the telemetry is still read once (as
/turbomem/info,POOL) and printed when it answers, unless --no-telemetry.

--samples FILE writes one line per stats period: "<index> <sum of the
Rx-pps of all ports>". --json FILE writes the result (packets, telemetry
replies, samples, checks).

Compare (testpmd.py compare): mempool handlers under testpmd, io
forwarding between two net_null vdevs (no NIC, no hugepages: --no-huge
-m 1024), one forwarding lcore, for every handler x mbuf cache size. The
mempool is the only thing that changes between runs, and with --mbcache=0
every mbuf allocation and free reaches the handler. Each run lasts
TM_CMP_SECONDS with --stats-period 1 and is then stopped with SIGINT. A
sample is the sum of the "Rx-pps" (Throughput since last show) of both
ports; the first TM_CMP_SKIP samples are warm-up and dropped, the last
TM_CMP_LAST of the rest are kept. Handlers are interleaved (ring,
turbomem, ring, turbomem, ...) over TM_CMP_ROUNDS rounds, because the
machine is noisy; a configuration's Mpps is the median of all its kept
samples over all rounds; its ratio to the baseline (and to the baseline's
handler on the same memory, for HANDLER@MEM) is the median, and the range,
of the per-round ratios: each round's median over the baseline's median
of the same round, the runs next to each other. Every run is checked as
above (handler selected, packets forwarded, clean stop). A handler that
DPDK only has from some release on (pile: 26.11) and testpmd's DPDK does
not register ("error setting mempool handler") is skipped, with that
reason in the table and in RESULTS/testpmd-skipped.txt ("HANDLER<tab>
reason"); any other failed run fails the comparison.
Output: a table on stdout; every sample in RESULTS/testpmd.csv; every
testpmd log in RESULTS/testpmd-logs/. Environment:
  TESTPMD            testpmd binary (default dpdk-testpmd)
  TM_PLUGIN          the turbomem plugin
                     (default build/librte_mempool_turbomem.so)
  TM_CMP_HANDLERS    handlers, the baseline first (default "ring_mp_mc pile
                     turbomem");
                     HANDLER@MEM runs that handler on the memory MEM instead
                     of TM_CMP_MEM_OPTS, so that handlers on different memory
                     are interleaved in one run: MEM is "nohuge"
                     ("--no-huge -m 1024"), "huge" ("-m 1024 --huge-dir
                     TM_CMP_HUGE_DIR --huge-unlink", hugepages reserved
                     beforehand), or any NAME with its options in the
                     environment variable TM_CMP_MEM_NAME. For example
                     "ring_mp_mc@huge turbomem@nohuge turbomem@huge"
  TM_CMP_HUGE_DIR    hugetlbfs mount of "@huge" (default /dev/hugepages)
  TM_CMP_PLUGIN_HANDLERS  handlers that need "-d TM_PLUGIN" (default turbomem)
  TM_CMP_CACHES      --mbcache values; "default" passes none, i.e. 250
                     (default "0 default")
  TM_CMP_ROUNDS      rounds (default 2)
  TM_CMP_SECONDS     seconds per run (default 7)
  TM_CMP_SKIP        warm-up samples dropped per run (default 2)
  TM_CMP_LAST        at most this many last samples kept per run (default 5)
  TM_CMP_LCORES      EAL -l list: main lcore + 1 forwarding lcore (default 0-1)
  TM_CMP_EAL_OPTS    extra EAL options
  TM_CMP_MEM_OPTS    EAL memory options (default "--no-huge -m 1024"; e.g.
                     "-m 1024 --huge-dir DIR --huge-unlink" for hugetlbfs)
  TM_CMP_PMD_OPTS    extra testpmd options
  TM_RESULTS_DIR     RESULTS, where results go (default results)
Relative paths are relative to the repository root.
"""

import argparse
import glob
import io
import json
import os
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Set on SIGTERM (a timeout): testpmd is then killed, not asked to stop,
# as meson kills what is left of the test 0.5 s later.
terminating = False
# Where the messages of a run go (compare keeps them until a run fails).
OUT = sys.stdout
# Mempool handlers of DPDK's own that older releases lack: the release
# that added each (compare skips them where testpmd's DPDK has none).
SINCE = {"pile": "26.11"}


def log(msg):
    print("testpmd.py: %s" % msg, file=OUT, flush=True)


def runtime_dir(prefix):
    """EAL's runtime directory for a file prefix (eal_get_runtime_dir)."""
    if os.geteuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def eal_remove(prefix):
    """Remove what EAL leaves of an ended run with --file-prefix prefix:
    its runtime directory and hugepage files (common.sh's eal_remove)."""
    subprocess.run(["bash", "-c", '. "$0" && eal_remove "$1"',
                    os.path.join(HERE, "common.sh"), prefix], check=False)


class Telemetry:
    """Client of EAL's telemetry socket (protocol v2, SOCK_SEQPACKET)."""

    def __init__(self, prefix):
        self.path = os.path.join(runtime_dir(prefix), "dpdk_telemetry.v2")
        self.sock = None
        self.maxlen = 16384

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            s.settimeout(5)
            s.connect(self.path)
            hello = json.loads(s.recv(1024).decode())
            self.maxlen = int(hello.get("max_output_len", self.maxlen))
        except (OSError, ValueError):
            s.close()
            raise
        self.sock = s

    def query(self, cmd):
        if self.sock is None:
            self.connect()
        self.sock.send(cmd.encode())
        return json.loads(self.sock.recv(self.maxlen + 1024).decode())

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class Testpmd:
    def __init__(self, cmd, logpath, prefix):
        self.cmd = cmd
        self.logpath = logpath
        self.prefix = prefix
        self.proc = None
        self.logf = None

    def start(self):
        self.logf = open(self.logpath, "w")
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                     stdout=self.logf,
                                     stderr=subprocess.STDOUT)

    def text(self):
        with open(self.logpath, errors="replace") as f:
            return f.read()

    def running(self):
        return self.proc.poll() is None

    def stop(self, grace=10):
        if self.proc is None:
            return None
        try:
            if self.proc.poll() is None and not terminating:
                self.proc.send_signal(signal.SIGINT)
                try:
                    self.proc.wait(grace)
                except subprocess.TimeoutExpired:
                    log("testpmd did not stop %d s after SIGINT: killed" %
                        grace)
        finally:
            # Also when SIGTERM cuts the wait short: testpmd killed, then
            # its EAL files removed.
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.logf.close()
            eal_remove(self.prefix)
        return self.proc.returncode


def rx_packets(text):
    v = [int(x) for x in re.findall(r"RX-packets: *([0-9]+)", text)]
    return max(v) if v else 0


def rx_pps_samples(text):
    """Per stats period, the sum of Rx-pps over the ports."""
    per_port = {}
    order = []
    port = None
    for line in text.splitlines():
        m = re.search(r"NIC statistics for port ([0-9]+)", line)
        if m:
            port = m.group(1)
            if port not in per_port:
                per_port[port] = []
                order.append(port)
            continue
        m = re.search(r"Rx-pps: *([0-9]+)", line)
        if m and port is not None:
            per_port[port].append(int(m.group(1)))
            port = None
    if not order:
        return []
    n = min(len(per_port[p]) for p in order)
    return [sum(per_port[p][k] for p in order) for k in range(n)]


def plugin_path(plugin):
    """A path to plugin that EAL accepts for -d, and the hash of its tree
    for --file-prefix (scripts/with-plugin.sh)."""
    out = subprocess.run([os.path.join(HERE, "with-plugin.sh"), plugin,
                          "echo", "@PLUGIN@", "@TREE@"], check=True,
                         stdout=subprocess.PIPE, text=True)
    path, tree = out.stdout.strip().rsplit(" ", 1)
    return path, tree


def split_args(rest):
    if rest and rest[0] == "--":
        rest = rest[1:]
    if "--" in rest:
        i = rest.index("--")
        return rest[:i], rest[i + 1:]
    return rest, []



def nb_lcores(lcores):
    """How many lcores an EAL -l list ("0-1", "0,2-3") names."""
    n = 0
    for part in lcores.split(","):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


def counted(check, i, what, writers):
    """what_calls > 0 and what_objs >= what_calls, read while testpmd
    forwards: each writer may be between its two adds (calls first), so
    a read may find calls up to one ahead per writer."""
    calls, objs = i[what + "_calls"], i[what + "_objs"]
    check(calls > 0 and objs + writers >= calls, what + "s",
          "%s_calls %d %s_objs %d, %d writers" %
          (what, calls, what, objs, writers))


def check_memory(check, i, backing, writers):
    """The "memory" check on a /turbomem/info reply: statistics, counts
    and the memory report hold (no telemetry is a failure)."""
    if i is None:
        check(False, "memory", "no telemetry: /turbomem/info is null")
        return
    m = i.get("memory")
    if m is None:
        check(False, "memory", "no memory report: %r" % i.get("memory_error"))
        return
    counted(check, i, "get", writers)
    counted(check, i, "put", writers)
    check(i["size"] == i["populated_size"] > 0, "size",
          "size %d populated %d" % (i["size"], i["populated_size"]))
    # Counts read one after the other while testpmd forwards: no order
    # between them (exact values: turbomem_telemetry_autotest).
    check(i["count"] <= i["size"] and i["avail_count"] <= i["size"],
          "counts", "count %d avail %d size %d" %
          (i["count"], i["avail_count"], i["size"]))
    check(m["bytes"] > 0 and m["nb_chunks"] >= 1, "memory bytes",
          "bytes %d chunks %d" % (m["bytes"], m["nb_chunks"]))
    check(m["huge_bytes"] <= m["bytes"], "huge_bytes",
          "%d within %d" % (m["huge_bytes"], m["bytes"]))
    if backing == "external":
        check(m["backing"] == "external", "backing",
              "%s, want external" % m["backing"])
        return
    with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
        thp_never = "[never]" in f.read()
    if not thp_never:
        check(m["backing"] == "thp" and m["page_size"] == 2 << 20 and
              m["huge_bytes"] * 100 >= m["bytes"] * 95, "backing",
              "%s, %d of %d bytes huge, page %d; want thp, >= 95%%, 2 MB" %
              (m["backing"], m["huge_bytes"], m["bytes"], m["page_size"]))

def parser():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__[__doc__.index("Usage:"):])
    ap.add_argument("--testpmd",
                    default=os.environ.get("TESTPMD", "dpdk-testpmd"))
    ap.add_argument("--plugin", help="the turbomem plugin, given with -d")
    ap.add_argument("--ops", default="turbomem",
                    help="--mbuf-pool-ops-name, and the ops the log must "
                    "name (default turbomem; '' for neither)")
    ap.add_argument("--lcores", default="0-1", help="EAL -l (default 0-1)")
    ap.add_argument("-m", dest="mem", default="1024",
                    help="EAL -m, MB of --no-huge memory (default 1024)")
    ap.add_argument("--mem-opts",
                    help="EAL memory options replacing \"--no-huge -m MEM\" "
                    "(e.g. \"--huge-dir /mnt/huge -m 1024\")")
    ap.add_argument("--pool", default="mb_pool_0")
    ap.add_argument("--prefix", help="EAL --file-prefix (default: "
                    "tm-<hash of the plugin or testpmd path>-<pid>)")
    ap.add_argument("--seconds", type=float, default=0,
                    help="run this long after forwarding starts "
                    "(default 0: stop once the checks are done)")
    ap.add_argument("--wait", type=float, default=60,
                    help="how long to wait for forwarding (default 60 s)")
    ap.add_argument("--check", action="append", default=[],
                    choices=["forward", "list", "info", "rise", "memory",
                             "held"])
    ap.add_argument("--backing", default="thp", choices=["thp", "external"],
                    help="memory check: the backing expected (default thp, "
                    "where THP is not [never]; external for --mp-alloc=xmem)")
    ap.add_argument("--no-telemetry", action="store_true",
                    help="pass --no-telemetry to EAL; no queries")
    ap.add_argument("--no-defaults", action="store_true",
                    help="no default EAL/testpmd arguments except "
                    "--file-prefix, -d and the ops name")
    ap.add_argument("--label", default="", help="name of the run in messages")
    ap.add_argument("--log", help="keep testpmd's output here")
    ap.add_argument("--samples", help="write the Rx-pps samples here")
    ap.add_argument("--json", help="write the result here")
    ap.add_argument("--print-command", action="store_true")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    return ap


def run(a):
    """One testpmd run with its checks: 0 passed, 1 failed, 2 no start.
    The result (see --json) is in a.result."""
    eal_extra, pmd_extra = split_args(a.rest)
    what = a.label + ": " if a.label else ""

    plugin, tree = plugin_path(a.plugin) if a.plugin else (None, "testpmd")
    prefix = a.prefix or "tm-%s-%d" % (tree, os.getpid())

    mem = (shlex.split(a.mem_opts) if a.mem_opts is not None
           else ["--no-huge", "-m", a.mem])
    eal = [] if a.no_defaults else mem + [
        "--no-pci", "-l", a.lcores,
        "--vdev", "net_null0", "--vdev", "net_null1"]
    eal += ["--file-prefix=" + prefix]
    if plugin:
        eal += ["-d", plugin]
    if a.ops:
        eal += ["--mbuf-pool-ops-name=" + a.ops]
    if a.no_telemetry:
        eal += ["--no-telemetry"]
    pmd = [] if a.no_defaults else [
        "--forward-mode=io", "--auto-start", "--stats-period", "1"]
    cmd = [a.testpmd] + eal + eal_extra + ["--"] + pmd + pmd_extra
    if a.print_command:
        log("command: " + " ".join(cmd))

    logpath = a.log or "/tmp/tm-testpmd-%d.log" % os.getpid()
    if a.log:
        os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)
    tp = Testpmd(cmd, logpath, prefix)
    tel = Telemetry(prefix)
    result = {"command": cmd, "checks": {}, "telemetry": {}}
    a.result = result
    ok = True

    def check(cond, name, detail):
        nonlocal ok
        result["checks"][name] = bool(cond)
        log("%s%s: %s (%s)" % (what, "ok" if cond else "FAIL", name, detail))
        ok = ok and bool(cond)

    def query(cmd_):
        r = tel.query(cmd_)
        result["telemetry"][cmd_] = r
        return r

    try:
        tp.start()
    except OSError as e:
        log("%scannot start %s: %s" % (what, a.testpmd, e))
        return 2
    try:
        # Forwarding: a stats period showed received packets, and the
        # telemetry socket answers (unless disabled).
        deadline = time.monotonic() + a.wait
        forwarding = False
        while time.monotonic() < deadline and tp.running():
            if rx_packets(tp.text()) > 0:
                if a.no_telemetry:
                    forwarding = True
                    break
                try:
                    tel.connect()
                    forwarding = True
                    break
                except (OSError, ValueError):
                    pass
            time.sleep(0.2)
        if not forwarding:
            log("%sFAIL: testpmd %s within %.0f s" % (
                what, "exited" if not tp.running() else
                "did not forward (or its telemetry did not answer)", a.wait))
            ok = False
        else:
            t_fwd = time.monotonic()
            info = None
            if "list" in a.check:
                lst = query("/turbomem/list")["/turbomem/list"]
                check(lst == [a.pool], "list", "/turbomem/list %s" % lst)
            if not a.no_telemetry:
                info = query("/turbomem/info," + a.pool)["/turbomem/info"]
            if "info" in a.check or "rise" in a.check:
                b = info
                if "rise" in a.check:
                    time.sleep(1)
                    b = query("/turbomem/info," + a.pool)["/turbomem/info"]
                log("%sinfo: %s" % (what, json.dumps(b)))
                if b is None:
                    check(False, "info", "/turbomem/info,%s is null" % a.pool)
                else:
                    check(b["name"] == a.pool, "name", b["name"])
                    check(0 < b["count"] <= b["size"], "count",
                          "count %d within size %d" % (b["count"], b["size"]))
                    check(b["get_objs"] > 0 and b["put_objs"] > 0, "objs",
                          "get_objs %d put_objs %d" % (b["get_objs"],
                                                       b["put_objs"]))
                    counted(check, b, "get", nb_lcores(a.lcores))
                    check("memory" in b or "memory_error" in b, "memory",
                          "memory report or its error present: %s" %
                          json.dumps(b.get("memory", b.get("memory_error"))))
                if "rise" in a.check and info is not None and b is not None:
                    for k in ("get_calls", "get_objs", "put_calls",
                              "put_objs"):
                        check(b[k] > info[k] > 0, k + " rose",
                              "%d -> %d" % (info[k], b[k]))
                    bad = query("/turbomem/info,no_such_pool")["/turbomem/info"]
                    check(bad is None, "unknown pool", "null: %r" % bad)
                    none = query("/turbomem/info")["/turbomem/info"]
                    check(none is None, "no pool name", "null: %r" % none)
            elif info is not None:
                log("%sdriver: get_calls %d get_objs %d put_objs %d "
                    "cas_retries %d" % (what, info["get_calls"],
                                        info["get_objs"], info["put_objs"],
                                        info.get("cas_retries", 0)))
            if "memory" in a.check:
                check_memory(check, info, a.backing, nb_lcores(a.lcores))
            if "held" in a.check:
                h = query("/turbomem/held," + a.pool)["/turbomem/held"]
                check(h is not None and h["tracking"] == 1 and info and
                      h["size"] == info["size"], "held",
                      "/turbomem/held: %s" % json.dumps(h)[:300])
            left = a.seconds - (time.monotonic() - t_fwd)
            if left > 0:
                time.sleep(left)
    finally:
        tel.close()
        t_stop = time.monotonic()
        rc = tp.stop()
        result["stop_s"] = time.monotonic() - t_stop
    log("%sstopped in %.2f s" % (what, result["stop_s"]))
    text = tp.text()
    result["rc"] = rc
    pkts = rx_packets(text)
    result["rx_packets"] = pkts
    samples = rx_pps_samples(text)
    result["rx_pps"] = samples
    if a.ops:
        check(re.search(r"preferred mempool ops selected: %s$" %
                        re.escape(a.ops), text, re.M) is not None,
              "ops", "testpmd selected %s" % a.ops)
    reg = re.search(r".*(cannot register mempool ops|already registered).*",
                    text)
    check(reg is None, "registered once",
          reg.group(0).strip() if reg else "no registration error")
    check(pkts > 0, "forwarded", "RX-packets %d" % pkts)
    # testpmd ends on SIGINT with 0 (newer releases) or by the signal it
    # re-raises (22.11); anything else is a crash or a hang (killed).
    check(rc in (0, -signal.SIGINT, 128 + signal.SIGINT), "stopped",
          "exit status %s after SIGINT" % rc)
    if a.samples:
        with open(a.samples, "w") as f:
            for k, v in enumerate(samples, 1):
                f.write("%d %d\n" % (k, v))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if not ok:
        tail = text.splitlines()[-30:]
        log("%stestpmd output (last %d lines of %s):" % (what, len(tail),
                                                         logpath))
        for line in tail:
            print("  " + line, file=OUT)
    if not a.log:
        os.unlink(logpath)
    return 0 if ok else 1


def dpdk_version(testpmd):
    """The DPDK version testpmd was built from, and where it was read.

    The libdpdk.pc of testpmd's own build or install prefix (an installed
    bin/dpdk-testpmd or a build tree's app/dpdk-testpmd), else pkg-config's
    libdpdk: the system DPDK, which need not be testpmd's.
    """
    path = shutil.which(testpmd)
    if path:
        top = os.path.dirname(os.path.dirname(os.path.realpath(path)))
        for pc in sorted(glob.glob(os.path.join(
                top, "lib*", "*pkgconfig", "libdpdk.pc")) + glob.glob(
                os.path.join(top, "lib*", "*", "pkgconfig", "libdpdk.pc"))) + \
                [os.path.join(top, "meson-private", "libdpdk.pc")]:
            try:
                with open(pc) as f:
                    for line in f:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip(), pc
            except OSError:
                continue
    ver = subprocess.run(["pkg-config", "--modversion", "libdpdk"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout.strip()
    return ver or "(version unknown)", "pkg-config libdpdk"


def median(v):
    return statistics.median(v) if v else float("nan")


def compare():
    """testpmd.py compare (see the head of this file)."""
    global OUT
    env = os.environ.get
    repo = os.path.dirname(HERE)
    os.chdir(repo)

    def die(msg):
        print("[testpmd.py compare] error: %s" % msg, file=sys.stderr)
        sys.exit(1)

    def say(msg):
        print("[testpmd.py compare] %s" % msg, file=sys.stderr, flush=True)

    testpmd = env("TESTPMD", "dpdk-testpmd")
    plugin = env("TM_PLUGIN", "build/librte_mempool_turbomem.so")
    handlers = env("TM_CMP_HANDLERS", "ring_mp_mc pile turbomem").split()
    with_plugin = env("TM_CMP_PLUGIN_HANDLERS", "turbomem").split()
    caches = env("TM_CMP_CACHES", "0 default").split()
    rounds = int(env("TM_CMP_ROUNDS", "2"))
    seconds = env("TM_CMP_SECONDS", "7")
    skip = int(env("TM_CMP_SKIP", "2"))
    last = int(env("TM_CMP_LAST", "5"))
    mem_opts = env("TM_CMP_MEM_OPTS", "--no-huge -m 1024")
    results = env("TM_RESULTS_DIR", "results")
    baseline = handlers[0]
    mem_named = {
        "nohuge": "--no-huge -m 1024",
        "huge": "-m 1024 --huge-dir %s --huge-unlink" %
                env("TM_CMP_HUGE_DIR", "/dev/hugepages"),
    }

    def ops_of(h):  # "turbomem@nohuge" -> "turbomem"
        return h.split("@", 1)[0]

    def mem_of(h):  # the EAL memory options of a handler entry
        if "@" not in h:
            return mem_opts
        name = h.split("@", 1)[1]
        o = env("TM_CMP_MEM_" + name, mem_named.get(name))
        if o is None:
            die("%s: no memory %s (nohuge, huge, or set TM_CMP_MEM_%s)" %
                (h, name, name))
        return o

    for h in handlers:
        mem_of(h)

    def label(c):  # testpmd's DEF_MBUF_CACHE when none is given
        return "250" if c == "default" else c

    if shutil.which(testpmd) is None:
        die("%s not found (Debian: apt-get install dpdk; or run "
            "scripts/deps.sh)" % testpmd)
    if set(map(ops_of, handlers)) & set(with_plugin) and \
            not os.path.isfile(plugin):
        die("plugin %s not found: build it first (meson setup build && "
            "ninja -C build)" % plugin)
    os.makedirs(os.path.join(results, "testpmd-logs"), exist_ok=True)
    csv = os.path.join(results, "testpmd.csv")

    def args(h, c, lg):
        # An own --file-prefix (--in-memory does not combine with
        # --no-huge), so runs never collide with another DPDK process.
        v = ["--testpmd", testpmd, "--prefix", "tm-cmp-%d" % os.getpid(),
             "--ops", ops_of(h), "--no-telemetry", "--mem-opts=" + mem_of(h),
             "--seconds", seconds, "--log", lg,
             "--lcores", env("TM_CMP_LCORES", "0-1")]
        if ops_of(h) in with_plugin:
            v += ["--plugin", plugin]
        v += ["--"] + shlex.split(env("TM_CMP_EAL_OPTS", ""))
        v += ["--", "--nb-cores=1", "--txq=1", "--rxq=1"]
        if c != "default":
            v += ["--mbcache=" + c]
        return parser().parse_args(v + shlex.split(env("TM_CMP_PMD_OPTS", "")))

    ver, pc = dpdk_version(testpmd)
    say("DPDK %s (%s), testpmd %s, %d CPUs" % (
        ver, pc, shutil.which(testpmd), os.cpu_count()))
    load1 = os.getloadavg()[0]
    if load1 > 0.5:
        say("warning: load average is %.2f before starting: other work on "
            "this machine will make the figures noisy" % load1)

    rows = []  # (round, handler, cache label, sample, pps, kept)
    skipped = {}  # handler: why
    nruns = rounds * len(caches) * len(handlers)
    n = 0
    for r in range(1, rounds + 1):
        for c in caches:
            for h in handlers:
                n += 1
                cl = label(c)
                if h in skipped:
                    continue
                lg = os.path.join(results, "testpmd-logs",
                                  "r%d-%s-cache%s.log" %
                                  (r, h.replace("@", "-"), cl))
                a = args(h, c, lg)
                if n == 1:
                    a.print_command = True
                OUT = io.StringIO()
                rc = run(a)
                msgs, OUT = OUT.getvalue(), sys.stdout
                if rc != 0 and ops_of(h) in SINCE and h != baseline and \
                        "error setting mempool handler" in open(
                            lg, errors="replace").read():
                    skipped[h] = "%s: not registered by this DPDK (%s or " \
                        "newer)" % (ops_of(h), SINCE[ops_of(h)])
                    say("run %2d/%d round %d %-12s skip: %s" % (
                        n, nruns, r, h, skipped[h]))
                    continue
                if rc != 0:
                    sys.stderr.write(msgs)
                    die("testpmd run failed for %s cache %s; log: %s" %
                        (h, cl, lg))
                if n == 1:
                    say("example command: " +
                        msgs.splitlines()[0].split("command: ", 1)[1])
                samples = a.result["rx_pps"]
                kept = min(len(samples) - skip, last)
                if kept < 1:
                    die("only %d stats samples for %s cache %s (need more "
                        "than %d); log: %s" % (len(samples), h, cl, skip, lg))
                first = len(samples) - kept + 1
                for k, pps in enumerate(samples, 1):
                    rows.append((r, h, cl, k, pps, int(k >= first)))
                say("run %2d/%d round %d %-12s cache %-3s %7.2f Mpps "
                    "(median of %d samples)" % (
                        n, nruns, r, h, cl,
                        median(samples[first - 1:]) / 1e6, kept))
    with open(csv, "w") as f:
        f.write("round,handler,mbcache,sample,rx_pps,kept\n")
        for row in rows:
            f.write("%d,%s,%s,%d,%d,%d\n" % row)
    with open(os.path.join(results, "testpmd-skipped.txt"), "w") as f:
        for h, why in skipped.items():
            f.write("%s\t%s\n" % (h, why))

    def kept(h, cl, r=None):
        return [x[4] for x in rows if x[1] == h and x[2] == cl and x[5] and
                (r is None or x[0] == r)]

    print()
    print("testpmd io forwarding, 2 x net_null, %s, 1 forwarding lcore "
          "(%d rounds x %ss, median of kept 1 s samples)" %
          (mem_opts if not any("@" in h for h in handlers) else
           "; ".join("%s: %s" % (h, mem_of(h)) for h in handlers),
           rounds, seconds))
    w = max(12, max(len(h) for h in handlers))

    def ratios(h, b, cl):
        # Each round's median over b's of the same round: the runs next
        # to each other, paired, so that a slow round weighs on both.
        rr = []
        for r in range(1, rounds + 1):
            bm = median(kept(b, cl, r))
            if bm > 0:
                rr.append(median(kept(h, cl, r)) / bm)
        return rr

    def fmt(rr):
        return "%.2fx %.2f-%.2f" % (median(rr), min(rr), max(rr)) \
            if rr else "-"

    base_ops = ops_of(baseline)
    print("%-*s %6s %9s %-16s %-16s %s" % (
        w, "handler", "cache", "Mpps", "vs " + baseline, "vs " + base_ops +
        " same mem", "per-round Mpps"))
    print("%-*s %6s %9s %-16s %-16s" % (
        w, "", "", "", "(median, range of", "round ratios)"))
    for c in caches:
        cl = label(c)
        for h in handlers:
            if h in skipped:
                print("%-*s %6s skip: %s" % (w, h, cl, skipped[h]))
                continue
            same = "%s@%s" % (base_ops, h.split("@", 1)[1]) if "@" in h \
                else baseline
            print("%-*s %6s %9.2f %-16s %-16s %s" % (
                w, h, cl, median(kept(h, cl)) / 1e6,
                fmt(ratios(h, baseline, cl)),
                fmt(ratios(h, same, cl)) if same in handlers else "-",
                " / ".join("%.2f" % (median(kept(h, cl, r)) / 1e6)
                           for r in range(1, rounds + 1))))
    print("samples: %s" % os.path.abspath(csv))
    return 0


def main():
    if sys.argv[1:2] == ["compare"]:
        return compare()
    if sys.argv[1:2] == ["version"] and len(sys.argv) <= 3:
        ver, pc = dpdk_version(sys.argv[2] if len(sys.argv) == 3 else
                               os.environ.get("TESTPMD", "dpdk-testpmd"))
        print("%s %s" % (ver, pc))
        return 0
    ap = parser()
    a = ap.parse_args()
    if a.no_telemetry and set(a.check) & {"list", "info", "rise", "memory"}:
        ap.error("--no-telemetry with a telemetry check")
    return run(a)


def on_sigterm(*_):
    """A timeout or an interrupted run: testpmd killed and its EAL files
    removed on the way out (the finally of run())."""
    global terminating
    terminating = True
    sys.exit(143)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_sigterm)
    sys.exit(main())
