#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""Merge, tabulate and check turbomem_bench results (scripts/bench.sh).

  bench_report.py merge OUTDIR PART.csv...   -> OUTDIR/bench.csv, bench.json
  bench_report.py table BENCH.csv            -> the human table on stdout
  bench_report.py check MANIFEST             -> exit 1 unless every expected
                                                row was produced

Every part CSV starts with "# key: value" header lines (DPDK version,
kernel, CPU, THP mode, hugepages, lcores, seed, ...) of its EAL run; the
merged CSV keeps them, prefixed with the part's name, and adds a "run"
column naming the part each row comes from. Standard library only.
"""

import csv
import io
import json
import os
import sys

BASELINE = "ring_mp_mc"


def read_part(path):
    header, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# "):
                k, _, v = line[2:].rstrip("\n").partition(": ")
                header[k] = v
            else:
                lines.append(line)
    return header, list(csv.DictReader(io.StringIO("".join(lines))))


def read_merged(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def merge(outdir, parts):
    runs, rows, cols = [], [], None
    for p in parts:
        name = os.path.splitext(os.path.basename(p))[0]
        header, prow = read_part(p)
        runs.append({"run": name, "header": header})
        for r in prow:
            cols = cols or ["run"] + list(r.keys())
            rows.append(dict(run=name, **r))
    if not rows:
        sys.exit("merge: no rows in " + " ".join(parts))
    with open(os.path.join(outdir, "bench.csv"), "w", newline="") as f:
        for run in runs:
            for k, v in run["header"].items():
                f.write("# %s %s: %s\n" % (run["run"], k, v))
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    # The JSON the app wrote per run, rows tagged with their run.
    jrows = []
    for p in parts:
        name = os.path.splitext(os.path.basename(p))[0]
        jp = os.path.splitext(p)[0] + ".json"
        if os.path.exists(jp):
            with open(jp) as f:
                for r in json.load(f)["rows"]:
                    jrows.append(dict(run=name, **r))
    with open(os.path.join(outdir, "bench.json"), "w") as f:
        json.dump({"runs": runs, "rows": jrows}, f, indent=1)
    print("merged %d rows of %d runs into %s/bench.csv and bench.json"
          % (len(rows), len(runs), outdir), file=sys.stderr)


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def figure(r):
    """(value, unit, higher_is_better) of a row's main figure."""
    s = r["scenario"]
    if s in ("grid", "pipeline"):
        v = num(r["mobj_per_s"])
        return (v / 1e6 if v is not None else None), "Mobj/s", True
    if s == "hw":
        return num(r["dtlb_misses_per_obj"]), "dTLB miss/obj", False
    return num(r["cycles_per_obj"]), \
        "cycles/mbuf" if s == "deep" else "cycles/obj", False


def params(r):
    p = []
    if r["bulk"]:
        p.append("bulk " + r["bulk"])
    if r["scenario"] == "grid":
        p.append("keep " + r["keep"])
    elif r["scenario"] in ("locality", "hw"):
        p.append("%s in flight" % r["keep"])
    elif r["scenario"] == "deep":
        p.append("%s/%s held" % (r["keep"], r["pool_size"]))
    p.append("cache " + r["cache"])
    if r["scenario"] == "deep":
        p.append(r["mem"])
    return ", ".join(p)


def table(path):
    rows = read_merged(path)
    handlers = []
    for r in rows:
        if r["handler"] not in handlers:
            handlers.append(r["handler"])
    groups = {}
    for r in rows:
        key = (r["scenario"], r["layout"], params(r))
        groups.setdefault(key, {})[r["handler"]] = r
    w = max(9, max(len(h) for h in handlers))
    print("turbomem_bench: each handler's figure as a ratio to %s's "
          "(%s column: absolute). Throughput: higher is better; cycles "
          "and misses: lower is better. '-': skipped (reason in the CSV)."
          % (BASELINE, BASELINE))
    last = None
    for key, g in groups.items():
        sc, layout, par = key
        base = g.get(BASELINE)
        bv, unit, _ = figure(base) if base else (None, figure(next(iter(g.values())))[1], True)
        if sc != last:
            print("\n== %s (%s) ==" % (sc, unit))
            print("%-13s %-48s %12s " % ("layout", "parameters", BASELINE) +
                  " ".join("%*s" % (w, h) for h in handlers if h != BASELINE))
            last = sc
        cells = []
        for h in handlers:
            if h == BASELINE:
                continue
            r = g.get(h)
            v = figure(r)[0] if r else None
            if r is None:
                cells.append("%*s" % (w, ""))
            elif v is None:
                st = r["status"]
                cells.append("%*s" % (w, "n/a" if st.startswith("n/a") else "-"))
            elif bv:
                cells.append("%*s" % (w, "%.3gx" % (v / bv)))
            else:
                cells.append("%*s" % (w, "%.3g" % v))
        if bv is None:
            btxt = "n/a" if base and base["status"].startswith("n/a") else "-"
        else:
            btxt = "%.4g" % bv
        print("%-13s %-48s %12s " % (layout[:13], par[:48], btxt) + " ".join(cells))
    deep_summary(rows)
    backing = sorted({(r["handler"], r["mem"], r["backing"], r["huge_pct"])
                      for r in rows if r["scenario"] == "deep"})
    if backing:
        print("\ndeep pool memory measured (smaps): " + "; ".join(
            "%s %s: %s %s%% huge" % (h, m, b, p or "?") for h, m, b, p in backing))
    notes = {r["status"] for r in rows if r["status"] not in ("ok", "")}
    if notes:
        print("\nnotes: " + "\n       ".join(sorted(notes)))


def deep_summary(rows):
    d = {(r["handler"], r["mem"]): num(r["cycles_per_obj"])
         for r in rows if r["scenario"] == "deep"}
    t = d.get(("turbomem", "nohuge"))
    rn = d.get((BASELINE, "nohuge"))
    rh = d.get((BASELINE, "hugetlbfs"))
    if t is None:
        return
    print("\ndeep in-flight, cycles per mbuf (best of rounds): turbomem "
          "--no-huge %.1f" % t)
    if rn:
        print("  vs %s --no-huge    %.1f: %.2fx (target <= 0.60x)" % (BASELINE, rn, t / rn))
    if rh:
        print("  vs %s hugetlbfs    %.1f: %.2fx (target <= 1.15x)" % (BASELINE, rh, t / rh))
    elif rn:
        print("  vs %s hugetlbfs: not measured (no hugepages reserved)" % BASELINE)


def expand(lst, kind):
    out = []
    for v in lst.split(","):
        if kind == "cache" and v == "default":
            v = "512"
        out.append(v)
    return out


def check(manifest):
    """Every run of the manifest produced each expected row, none failed."""
    default_handlers = "ring_mp_mc,ring_mt_rts,ring_mt_hts,stack,lf_stack,bucket,turbomem"
    bad = 0
    for line in open(manifest):
        words = line.split()
        if not words:
            continue
        path, args = words[0], words[1:]
        # args: "--key value" pairs, the layout label may hold spaces
        opts, k = {}, None
        for a in args:
            if a.startswith("--"):
                k = a[2:]
                opts[k] = ""
            elif k is not None:
                opts[k] = (opts[k] + " " + a).strip()
        sc = opts["scenario"]
        hs = opts.get("handlers", default_handlers).split(",")
        nonEAL = int(opts.get("nonEAL", "0")) > 0
        if sc == "grid":
            combos = [(b, kp, "none" if nonEAL else c)
                      for b in expand(opts.get("bulks", "1,4,16,32,random"), "bulk")
                      for kp in expand(opts.get("keeps", "32,128,512"), "keep")
                      for c in (["none"] if nonEAL else
                                expand(opts.get("caches", "0,default"), "cache"))]
        elif sc == "pipeline":
            combos = [(b, "", c)
                      for b in expand(opts.get("bulks", "32"), "bulk")
                      for c in expand(opts.get("caches", "0,default"), "cache")]
        elif sc == "locality":
            combos = [("32", f, c)
                      for f in opts.get("inflight", "512").split(",")
                      for c in expand(opts.get("caches", "0,default"), "cache")]
        elif sc == "hw":
            combos = [("32", f, "0")
                      for f in opts.get("inflight", "512").split(",")]
        else:
            combos = [None]
        _, rows = read_part(path)
        have = {}
        for r in rows:
            have[(r["handler"], (r["bulk"], r["keep"], r["cache"]))] = r
        n_ok = 0
        for h in hs:
            for c in combos:
                r = None
                for (rh, rp), row in have.items():
                    if rh == h and (c is None or rp == c):
                        r = row
                        break
                if r is None:
                    print("check: %s: no row for %s %s" % (path, h, c))
                    bad += 1
                    continue
                st = r["status"]
                v = figure(r)[0]
                if st.startswith("error"):
                    print("check: %s: %s %s failed: %s" % (path, h, c, st))
                    bad += 1
                elif st.startswith("skip:"):
                    pass
                elif st.startswith("n/a"):
                    if r["dtlb_misses_per_obj"] != "n/a":
                        print("check: %s: %s n/a row has a figure" % (path, h))
                        bad += 1
                elif v is None:
                    print("check: %s: %s %s: status %s but no figure" % (path, h, c, st))
                    bad += 1
                n_ok += 1
        if "pmu" in opts and opts["pmu"] == "off":
            if any(not r["status"].startswith(("n/a", "skip")) for r in rows):
                print("check: %s: --pmu off but a row has counters" % path)
                bad += 1
        print("check: %-40s %-8s %3d rows expected, %3d present" %
              (os.path.basename(path), sc, len(hs) * len(combos), n_ok))
    if bad:
        sys.exit("check: %d problem(s)" % bad)
    print("check: every expected row present")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "merge":
        merge(sys.argv[2], sys.argv[3:])
    elif cmd == "table":
        table(sys.argv[2])
    elif cmd == "check":
        check(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
