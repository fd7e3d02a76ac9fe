#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""Reports of turbomem_bench results (scripts/bench.sh runs them).

  bench_report.py merge OUTDIR PART.csv...    -> OUTDIR/bench.csv, bench.json
  bench_report.py table BENCH.csv             -> the human table on stdout
  bench_report.py check BENCH.json [RUNS]     -> exit 1 unless every expected
                                                 row was produced (of the
                                                 runs listed in RUNS)
  bench_report.py plot BENCH.csv OUTDIR [TESTPMD.csv]
                                              -> OUTDIR/bench-*.png
  bench_report.py evidence RESULTS_DIR PAGE.rst
                                              -> the evidence page
  bench_report.py results RESULTS_DIR PAGE.rst [--readme README.rst]
                  [--accept REASON]           -> the results page (the
                                                 table of bench.sh full and
                                                 testpmd's); with --readme,
                                                 a few key cells into the
                                                 README's block between
                                                 ".. results-begin ..." and
                                                 ".. results-end"; nothing
                                                 written where a turbomem
                                                 ratio fell below GUARD of
                                                 PAGE's, unless accepted
                                                 for REASON (on the page)
  bench_report.py crash RESULTS_DIR PAGE.rst [--readme README.rst]
                                              -> the results page's section
                                                 of the crash and stop
                                                 scenarios (between its
                                                 ".. crash-begin ..." and
                                                 ".. crash-end" lines) and
                                                 the README's row, from
                                                 bench.sh crash's results
  bench_report.py vs-dpdk AUTOTEST.log SPEEDUP GRID.csv... [--csv F]
                                              -> mempool_perf_autotest's
                                                 figures beside the grid's,
                                                 and its ratios to
                                                 ring_mp_mc (F: the rows,
                                                 for the results page)
  bench_report.py gate PARTS_DIR             -> exit 1 where a ratio of
                                                 turbomem to itself (GATES)
                                                 is below its floor
  bench_report.py ab PARTS_DIR VARIANT...     -> scripts/ab.sh's table: per
                                                 row, each variant's median
                                                 turbomem / ring_mp_mc

Every part CSV starts with "# key: value" header lines (DPDK version,
kernel, CPU, THP mode, hugepages, lcores, seed, ...) of its EAL run; the
merged CSV keeps them, prefixed with the part's name, and adds a "run"
column naming the part each row comes from.

The app writes into its JSON what a report needs to know of a scenario
("scenarios": the main figure, its unit and direction, how the table names
a row's parameters, the charts its rows feed) and the rows the run was
expected to give ("expected"): nothing here names a scenario, but the
evidence page, whose claims name the parts of "scripts/bench.sh evidence",
and the README's few key cells of the results page (README_CELLS).
Standard library only, but plot (matplotlib, Debian: python3-matplotlib).
"""

import csv
import io
import json
import os
import re
import shlex
import statistics
import sys

BASELINE = "ring_mp_mc"


def num(v):
    """float of a figure, None when absent, empty or NaN."""
    try:
        f = float(v)
        return None if f != f else f
    except (TypeError, ValueError):
        return None


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


def read_json(path):
    """The JSON beside a CSV (bench.csv -> bench.json), {} if absent."""
    jp = os.path.splitext(path)[0] + ".json"
    if not os.path.exists(jp):
        return {}
    with open(jp) as f:
        return json.load(f)


def scenarios_of(path):
    """{scenario: its description} from the JSON beside path."""
    return read_json(path).get("scenarios", {})


def figure(r, scen):
    """(value, unit, higher_is_better) of a row's main figure."""
    s = scen.get(r["scenario"])
    if s is None:
        return None, "?", True
    v = num(r.get(s["figure"]))
    return (v / s["scale"] if v is not None else None), s["unit"], \
        s["higher_is_better"]


def round_ratios(row, base):
    """Each round's ratio of row's figure to base's, from the rows' samples
    (the rounds' figures, in order; both rows of one EAL run, whose
    handlers take turns round by round): [] where the rows do not have
    the same rounds of medians."""
    if row.get("stat") != "median" or base.get("stat") != "median":
        return []
    a = [num(x) for x in row.get("samples", "").split()]
    b = [num(x) for x in base.get("samples", "").split()]
    if len(a) != len(b) or not a or None in a or None in b or 0 in b:
        return []
    return [x / y for x, y in zip(a, b)]


def charts_rows(rows, scen, chart):
    """Rows of the scenarios that feed chart."""
    names = {n for n, s in scen.items()
             if chart in s.get("charts", "").split(",")}
    return [r for r in rows if r["scenario"] in names]


# --- merge --------------------------------------------------------------------

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
    jrows, expected, scen = [], [], {}
    for p in parts:
        name = os.path.splitext(os.path.basename(p))[0]
        j = read_json(p)
        scen.update(j.get("scenarios", {}))
        for key, out in (("rows", jrows), ("expected", expected)):
            for r in j.get(key, []):
                out.append(dict(run=name, **r))
    with open(os.path.join(outdir, "bench.json"), "w") as f:
        json.dump({"runs": runs, "scenarios": scen, "expected": expected,
                   "rows": jrows}, f, indent=1)
    print("merged %d rows of %d runs into %s/bench.csv and bench.json"
          % (len(rows), len(runs), outdir), file=sys.stderr)


# --- table --------------------------------------------------------------------

def params(r, scen):
    """The row's parameters as its scenario names them."""
    s = scen.get(r["scenario"], {})
    out = []
    for piece in s.get("params", "").split(", "):
        fields = re.findall(r"{(\w+)}", piece)
        if piece and all(r.get(f) not in (None, "") for f in fields):
            out.append(re.sub(r"{(\w+)}", lambda m: r[m.group(1)], piece))
    return ", ".join(out)


def param_cols(r, scen):
    """The row's parameters as columns, [(name, value)], one a piece of its
    scenario's "params": "bulk {bulk}" gives ("bulk", "16"), "{keep}/{pool_size}
    held" ("held", "131071/262143"), "{mem}" ("mem", "nohuge")."""
    out = []
    for piece in scen.get(r["scenario"], {}).get("params", "").split(", "):
        m = re.search(r"{\w+}(.*{\w+})?", piece)
        if not m:
            continue
        name = (piece[:m.start()] + piece[m.end():]).strip() or \
            " ".join(re.findall(r"{(\w+)}", piece))
        out.append((name, re.sub(r"{(\w+)}", lambda x: r.get(x.group(1)) or "",
                                 m.group(0))))
    return out


def ratio_cell(r, base, scen):
    """A handler's cell of the table: its figure as a ratio to base's (the
    median of the rounds' ratios, or of the figures for rows without
    rounds), its absolute figure where base has none, "n/a" (no counters)
    or "-" (skipped)."""
    v = figure(r, scen)[0]
    bv = figure(base, scen)[0] if base else None
    if v is None:
        return "n/a" if r["status"].startswith("n/a") else "-"
    if bv:
        rr = round_ratios(r, base)
        return "%.3gx" % (statistics.median(rr) if rr else v / bv)
    return "%.3g" % v


def table_rows(rows, scen):
    """The table, one entry per (scenario, layout, parameters) in the CSV's
    order: dicts of scenario, unit, higher (is better), layout, params (and
    as param_cols: pcols), base (the baseline's absolute figure) and cells
    ({handler: ratio_cell, "" where the handler has no row}); and the
    handlers."""
    handlers = list(dict.fromkeys(r["handler"] for r in rows))
    groups = {}
    for r in rows:
        key = (r["scenario"], r["layout"], params(r, scen))
        groups.setdefault(key, {})[r["handler"]] = r
    out = []
    for (sc, layout, par), g in groups.items():
        base = g.get(BASELINE)
        bv, unit, hib = figure(base or next(iter(g.values())), scen)
        if base is None:
            bv = None
        if bv is None:
            btxt = "n/a" if base and base["status"].startswith("n/a") else "-"
        else:
            btxt = "%.4g" % bv
        out.append(dict(scenario=sc, unit=unit, higher=hib, layout=layout,
                        params=par, pcols=param_cols(next(iter(g.values())), scen),
                        base=btxt, cells={
                            h: ratio_cell(g[h], base, scen) if h in g else ""
                            for h in handlers if h != BASELINE}))
    return out, handlers


def table(path):
    rows = read_merged(path)
    scen = scenarios_of(path)
    trows, handlers = table_rows(rows, scen)
    w = max(9, max(len(h) for h in handlers))
    print("turbomem_bench: each handler's figure as a ratio to %s's "
          "(%s column: absolute, the median of the rounds), the median of "
          "the rounds' ratios (the handlers take turns in every round). "
          "Throughput: higher is better; cycles, misses and bytes: lower "
          "is better. '-': skipped (reason in the CSV)."
          % (BASELINE, BASELINE))
    last = None
    for t in trows:
        if t["scenario"] != last:
            print("\n== %s (%s) ==" % (t["scenario"], t["unit"]))
            print("%-13s %-48s %12s " % ("layout", "parameters", BASELINE) +
                  " ".join("%*s" % (w, h) for h in handlers if h != BASELINE))
            last = t["scenario"]
        print("%-13s %-48s %12s " % (t["layout"][:13], t["params"][:48], t["base"]) +
              " ".join("%*s" % (w, c) for c in t["cells"].values()))
    memory_summary(rows, scen)
    chunks_summary(rows)
    bytes_summary(rows, scen)
    contract_summary(rows)
    notes = {r["status"] for r in rows if r["status"] not in ("ok", "")}
    if notes:
        print("\nnotes: " + "\n       ".join(sorted(notes)))


def memory_summary(rows, scen):
    """Rows of the memory chart: each handler on each EAL memory as a ratio
    to the baseline on each, and the backing measured (smaps)."""
    mrows = charts_rows(rows, scen, "memory")
    for sc in dict.fromkeys(r["scenario"] for r in mrows):
        d = {(r["handler"], r["mem"]): figure(r, scen)[0]
             for r in mrows if r["scenario"] == sc}
        mems = list(dict.fromkeys(m for _, m in d))
        print("\n%s, %s (%s of rounds):" % (sc, scen[sc]["unit"], scen[sc]["stat"]))
        for (h, m), v in d.items():
            if h == BASELINE or v is None:
                continue
            print("  %s %s %.1f: %s" % (h, m, v, ", ".join(
                "%.2fx %s %s" % (v / d[(BASELINE, bm)], BASELINE, bm)
                for bm in mems if d.get((BASELINE, bm)))))
        print("%s pool memory measured (smaps): %s" % (sc, "; ".join(
            "%s %s: %s %s%% huge" % (h, m, b, p or "?")
            for h, m, b, p in sorted({(r["handler"], r["mem"], r["backing"],
                                       r["huge_pct"]) for r in mrows
                                      if r["scenario"] == sc}))))


def chunks_summary(rows):
    """The chunks scenario: each handler's time per object on the pool of
    many chunks over the pool of one chunk, the median of the rounds'
    ratios (both pools are measured in every round, interleaved)."""
    d = {}
    for r in rows:
        if r["scenario"] == "chunks" and num(r["mobj_per_s"]) is not None:
            d.setdefault((r["handler"], r["bulk"], r["keep"]), {})[
                r["layout"]] = r
    if not d:
        return
    print("\nchunks, time per object, many chunks / one chunk "
          "(median of the rounds' ratios):")
    for (h, b, k), v in d.items():
        one = v.get("1 chunk")
        many = [(l, x) for l, x in v.items() if l != "1 chunk"]
        if one is None or not many:
            continue
        layout, m = many[0]
        ratios = round_ratios(one, m)
        if not ratios:
            continue
        print("  %s bulk %s keep %s: %s / 1 chunk %.3fx (rounds %s)" % (
            h, b, k, layout, statistics.median(ratios),
            " ".join("%.2f" % x for x in ratios)))


def bytes_summary(rows, scen):
    """Scenarios whose figure is bytes per object (memory): each handler's
    absolute figure and its whole pool in MB (the row's extra pool_mb)."""
    brows = [r for r in rows if scen.get(r["scenario"], {}).get("figure")
             == "bytes_per_obj" and num(r.get("bytes_per_obj")) is not None]
    last = None
    for r in brows:
        if (r["scenario"], r["layout"]) != last:
            last = (r["scenario"], r["layout"])
            print("\n%s, %s, %s objects, %s: handler bytes per object "
                  "(whole pool MB)" % (r["scenario"], r["layout"],
                                      r["pool_size"], r["mem"]))
        print("  %-12s %9.2f (%s MB)" % (r["handler"], num(r["bytes_per_obj"]),
                                         extra(r).get("pool_mb", "?")))


def contract_summary(rows):
    """What users rely on, side by side (bench_contract.c; the crash
    scenario's put refusals, losses and capacity after its kills)."""
    last = None
    for r in rows:
        if r["scenario"] != "contract" or not r["status"].startswith("ok"):
            continue
        e = extra(r)
        if r["layout"] != last:
            last = r["layout"]
            print("\ncontract, %s, cache 0: count at rest / size (rounds exact), "
                  "most seen under load / size (samples above), avail_count "
                  "cycles per call (%s objects), all-or-nothing violations "
                  "(duplicates, foreign, lost), spurious failed gets at rest, "
                  "refused puts, threads wedged in a get or put"
                  % (last, r["pool_size"]))
        print("  %-12s %s-%s/%s (%s of %s) %s/%s (%s of %s) %9.4g  %s (%s, %s, %s)  "
              "%s of %s  %s of %s  %s" % (
                  r["handler"], e.get("count_rest_min"), e.get("count_rest_max"),
                  e.get("aon_size"), e.get("rest_exact"), r["rounds"],
                  e.get("count_max"), e.get("aon_size"), e.get("samples_above"),
                  e.get("samples"), num(r["cycles_per_obj"]) or 0,
                  e.get("violations"), e.get("dups"), e.get("foreign"),
                  e.get("lost"), e.get("spurious"), e.get("trials"),
                  e.get("puts_failed"), e.get("puts"), e.get("wedged")))
    cr = [r for r in rows if r["scenario"] == "crash" and
          "capacity_whole" in extra(r)]
    if cr:
        print("\ncrash: kills, check puts refused (after kill), objects lost "
              "(census), capacity at the end whole (capacity + lost == size)")
    for r in cr:
        e = extra(r)
        print("  %-12s bulk %-3s cache %-3s %4s kills, %s refused (%s), "
              "%s lost, whole: %s" % (
                  r["handler"], r["bulk"], r["cache"], e.get("kills"),
                  e.get("puts_failed"), e.get("first_put_fail_kill"),
                  e.get("census_lost"), e.get("capacity_whole")))


# --- check --------------------------------------------------------------------

KEY = ("run", "scenario", "handler", "layout", "bulk", "keep", "cache")


def check(path, runs_file=None):
    """Every row the app expected is there, measured or skipped, never
    failed; a row expected "n/a" (no counters) has no main figure. With
    runs_file, only its runs (one a line: those that succeeded)."""
    with open(path) as f:
        j = json.load(f)
    runs = {r["run"] for r in j.get("runs", [])}
    if runs_file:
        runs = {l.strip() for l in open(runs_file) if l.strip()}
    scen, rows = j.get("scenarios", {}), j.get("rows", [])
    have = {tuple(r.get(k) for k in KEY): r for r in rows}
    bad, counts = 0, {}
    for e in j.get("expected", []):
        if e["run"] not in runs:
            continue
        k = tuple(e.get(x) for x in KEY)
        n = counts.setdefault((e["run"], e["scenario"]), [0, 0])
        n[0] += 1
        r = have.get(k)
        if r is None:
            print("check: %s: no row for %s" % (e["run"], k[1:]))
            bad += 1
            continue
        n[1] += 1
        st = r["status"]
        s = scen.get(r["scenario"], {})
        v = num(r.get(s.get("figure")))
        if st.startswith("error"):
            print("check: %s: %s failed: %s" % (e["run"], k[1:], st))
            bad += 1
        elif st.startswith("skip:"):
            pass
        elif e["status"].startswith("n/a") or st.startswith("n/a"):
            if not st.startswith("n/a") or v is not None:
                print("check: %s: %s expected n/a (%s), got status %s, figure %s"
                      % (e["run"], k[1:], e["status"], st, v))
                bad += 1
        elif v is None:
            print("check: %s: %s: status %s but no figure" % (e["run"], k[1:], st))
            bad += 1
    for run in sorted(runs - {run for run, _ in counts}):
        print("check: %s: the run expected no row" % run)
        bad += 1
    for (run, sc), (want, got) in sorted(counts.items()):
        print("check: %-40s %-8s %3d rows expected, %3d present" % (run, sc, want, got))
    if bad:
        sys.exit("check: %d problem(s)" % bad)
    print("check: every expected row present")


# --- vs-dpdk ------------------------------------------------------------------

VS_DPDK_FIELDS = ["handler", "cores", "cache", "bulk", "keep", "autotest_mobj_s",
                  "autotest_ratio", "autotest_ratios", "grid_mobj_s", "grid_at"]


def vs_dpdk_autotest(ref, speed):
    """mempool_perf_autotest's log: {(handler, cores, cache, bulk, keep):
    [(round, objects/s)]} of the cases with equal get and put bulks,
    variable n, and {run: {key: objects/s}} of ring_mp_mc's pools, each
    run (one handler, bench.sh's marker line) separately."""
    speed = float(speed)
    theirs, ring = {}, {}
    run, rnd, handler = 0, {}, None
    for line in open(ref):
        # bench.sh's marker, after dpdk-test's last prompt where it has one
        if "[bench.sh vs-dpdk] " in line:
            line = line[line.index("[bench.sh vs-dpdk] "):]
            run += 1
            h = line.split("=")[-1].strip()
            rnd[h] = rnd.get(h, 0) + 1
            ring[run] = {}
        if "start performance test" in line:
            # "(using ring_mp_mc, ...)": the library's pools; "for X": the
            # default pool of --mbuf-pool-ops-name; a user-owned cache is
            # neither's figure.
            if "user-owned" in line:
                handler = None
            elif " for " in line:
                handler = line.split(" for ")[1].split()[0]
            else:
                handler = BASELINE
        # 22.11 and 26.07 print the fields in different orders and widths.
        f = dict(re.findall(r"(\w+)=\s*(\d+)", line))
        if handler is None or not line.startswith("mempool_autotest") or \
                f.get("constant_n") != "0" or "rate_persec" not in f or \
                f.get("n_get_bulk") != f.get("n_put_bulk"):
            continue
        k = (handler, f["cores"], f["cache"], f["n_get_bulk"], f["n_keep"])
        v = int(f["rate_persec"]) * speed
        if handler == BASELINE:
            ring.setdefault(run, {})[k] = v
        else:
            theirs.setdefault(k, []).append((run, v))
    return theirs, ring


def vs_dpdk(a):
    """DPDK's mempool_perf_autotest log (its rates sped up by speed) beside
    the grid's CSVs of the same cases: best of the rounds each, and each
    handler's ratio to ring_mp_mc in the same autotest run (the median of
    the rounds'). With --csv FILE, the rows for the results page."""
    out_csv = pop_opt(a, "--csv")
    ref, speed, grids = a[0], a[1], a[2:]
    theirs, ring = vs_dpdk_autotest(ref, speed)
    best = {}
    for k, vs in theirs.items():
        best[k] = max(v for _, v in vs)
    for run, ks in ring.items():
        for k, v in ks.items():
            best[k] = max(best.get(k, 0), v)
    ratios = {}
    for k, vs in theirs.items():
        rk = (BASELINE,) + k[1:]
        ratios[k] = [v / ring[r][rk] for r, v in vs if ring.get(r, {}).get(rk)]
    ours = {}
    for g in grids:
        for r in read_merged(g):
            if r["mobj_per_s"]:
                k = (r["handler"], r["workers"], r["cache"], r["bulk"], r["keep"])
                ours[k] = max(ours.get(k, 0), float(r["mobj_per_s"]))
    keys = sorted(set(best) | set(ours), key=lambda k: (
        int(k[1]), int(k[2]), int(k[3]), int(k[4]), k[0] != BASELINE, k[0]))
    keys = [k for k in keys if k in ours or not ours]
    rows = []
    for k in keys:
        t, g, rr = best.get(k), ours.get(k), ratios.get(k, [])
        rows.append(dict(zip(VS_DPDK_FIELDS, list(k) + [
            "%.1f" % (t / 1e6) if t else "",
            "%.3f" % statistics.median(rr) if rr else "",
            " ".join("%.2f" % x for x in rr),
            "%.1f" % (g / 1e6) if g else "",
            "%.2f" % (g / t) if t and g else ""])))
    print("mempool_perf_autotest against turbomem_bench's grid, best of %d interleaved "
          "rounds each; ratio: to ring_mp_mc in the same autotest run" % max(
              [1] + [len(v) for v in theirs.values()]))
    print("%-11s %5s %5s %5s %5s %16s %8s %12s %7s" % (
        "handler", "cores", "cache", "bulk", "keep", "autotest Mobj/s", "ratio",
        "grid Mobj/s", "grid/at"))
    for r in rows:
        print("%-11s %5s %5s %5s %5s %16s %8s %12s %7s" % (
            r["handler"], r["cores"], r["cache"], r["bulk"], r["keep"],
            r["autotest_mobj_s"] or "-", r["autotest_ratio"] or "-",
            r["grid_mobj_s"] or "-", r["grid_at"] or "-"))
    if out_csv:
        with open(out_csv, "w", newline="") as fp:
            w = csv.DictWriter(fp, VS_DPDK_FIELDS)
            w.writeheader()
            w.writerows(rows)


# --- plot ---------------------------------------------------------------------

def handlers_of(rows):
    hs = []
    for r in rows:
        if r["handler"] not in hs:
            hs.append(r["handler"])
    return hs


def bars(ax, groups, series, value, log=False, fmt="%.3g"):
    """Grouped bars: x = groups, one bar per series; value(g, s) or None."""
    n = max(1, len(series))
    width = 0.8 / n
    for i, s in enumerate(series):
        xs, ys = [], []
        for j, g in enumerate(groups):
            v = value(g, s)
            if v is not None and v > 0:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(v)
        b = ax.bar(xs, ys, width, label=s)
        if len(groups) * n <= 24:
            ax.bar_label(b, labels=[fmt % y for y in ys], fontsize=6,
                         rotation=90, padding=2)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    if log:
        ax.set_yscale("log")
    ax.grid(axis="y", alpha=0.3)


def save(fig, out, name, rect=None):
    """Lay the chart out, write OUTDIR/name, return its path."""
    if rect:
        fig.tight_layout(rect=rect)
    else:
        fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def legend_below(fig, ax):
    h, l = ax.get_legend_handles_labels()
    fig.legend(h, l, loc="lower center", ncol=len(l), fontsize=8,
               frameon=False)


def pick_grid_params(rows):
    """The (bulk, keep) shown: bulk 16 keep 128 when measured, else the first."""
    grid = [r for r in rows if num(r["mobj_per_s"])]
    for r in grid:
        if r["bulk"] == "16" and r["keep"] == "128":
            return "16", "128"
    return (grid[0]["bulk"], grid[0]["keep"]) if grid else (None, None)


def chart_lcores(rows, hs, out):
    bulk, keep = pick_grid_params(rows)
    if bulk is None:
        return None
    layouts = [l for l in ("1 lcore", "2 pinned", "6 on 2 CPUs")
               if any(r["layout"] == l for r in rows)]
    caches = sorted({r["cache"] for r in rows if r["threads"] == "eal"},
                    key=lambda c: int(c))
    fig, axes = plt.subplots(1, len(caches), figsize=(6 * len(caches), 4.5),
                             squeeze=False)
    for ax, c in zip(axes[0], caches):
        def val(layout, h, c=c):
            for r in rows:
                if (r["layout"] == layout and
                        r["handler"] == h and r["cache"] == c and
                        r["bulk"] == bulk and r["keep"] == keep):
                    v = num(r["mobj_per_s"])
                    return v / 1e6 if v else None
            return None
        bars(ax, layouts, hs, val, log=True, fmt="%.0f")
        ax.set_title("cache %s" % c, fontsize=10)
        ax.set_ylabel("Mobj/s summed over workers (log)")
    legend_below(fig, axes[0][0])
    fig.suptitle("%s: get/put throughput vs lcore layout "
                 "(bulk %s, keep %s, 2048 B objects)"
                 % (rows[0]["scenario"], bulk, keep))
    return save(fig, out, "bench-lcores.png", rect=(0, 0.07, 1, 1))


def chart_oversub(rows, lcores_rows, hs, out):
    """Rows of the oversub chart but the 1 lcore layout; those with a keep
    at the (bulk, keep) of the lcores chart."""
    bulk, keep = pick_grid_params(lcores_rows)

    def shown(r):
        return r["layout"] != "1 lcore" and \
            (r["keep"] == "" or (r["bulk"] == bulk and r["keep"] == keep))
    seen, groups = set(), []
    for r in rows:
        g = ("%s %s\ncache %s" % (r["scenario"], r["layout"], r["cache"]),
             r["layout"], r["cache"], r["scenario"])
        if shown(r) and g[0] not in seen:
            seen.add(g[0])
            groups.append(g)
    if not groups:
        return None

    def raw(g, h):
        _, layout, cache, sc = g
        for r in rows:
            if (r["scenario"] == sc and r["layout"] == layout and
                    r["cache"] == cache and r["handler"] == h and shown(r)):
                return num(r["mobj_per_s"])
        return None

    def val(label, h):
        g = next(x for x in groups if x[0] == label)
        v, b = raw(g, h), raw(g, BASELINE)
        return v / b if v and b else None

    fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(groups)), 5))
    bars(ax, [g[0] for g in groups], hs, val, log=True, fmt="%.2f")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_ylabel("throughput / %s's (log; > 1 is faster)" % BASELINE)
    for j, g in enumerate(groups):
        b = raw(g, BASELINE)
        if b:
            ax.text(j, ax.get_ylim()[0], "%s\n%.3g M/s" % (BASELINE, b / 1e6),
                    ha="center", va="bottom", fontsize=6)
    legend_below(fig, ax)
    ax.set_title("Oversubscription, unregistered threads, pipeline "
                 "(%s bulk %s keep %s)" % (
                     lcores_rows[0]["scenario"] if lcores_rows else "", bulk, keep))
    return save(fig, out, "bench-oversub.png", rect=(0, 0.07, 1, 1))


def chart_deep(rows, out):
    deep = [r for r in rows if num(r["cycles_per_obj"])]
    if not deep:
        return None
    hs = handlers_of(deep)
    mems = [m for m in ("nohuge", "hugetlbfs") if any(r["mem"] == m for r in deep)]
    fig, ax = plt.subplots(figsize=(7, 4.5))

    def val(h, m):
        for r in deep:
            if r["handler"] == h and r["mem"] == m:
                return num(r["cycles_per_obj"])
        return None
    labels = {m: "%s EAL memory" % ("--no-huge" if m == "nohuge" else m)
              for m in mems}
    n = len(mems)
    width = 0.8 / n
    for i, m in enumerate(mems):
        xs, ys, notes = [], [], []
        for j, h in enumerate(hs):
            v = val(h, m)
            if v:
                r = next(r for r in deep if r["handler"] == h and r["mem"] == m)
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(v)
                notes.append("%.0f\n%s %s%%" % (v, r["backing"],
                                                "%.0f" % num(r["huge_pct"])
                                                if num(r["huge_pct"]) is not None else "?"))
        b = ax.bar(xs, ys, width, label=labels[m])
        ax.bar_label(b, labels=notes, fontsize=7, padding=2)
    ax.set_xticks(range(len(hs)))
    ax.set_xticklabels(hs)
    ax.set_ylabel("cycles per mbuf (best of rounds; lower is better)")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.2)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("%s: %s mbufs, half held in a FIFO\n"
                 "(bar label: cycles, measured backing, %% in 2 MB pages)"
                 % (deep[0]["scenario"], deep[0]["pool_size"]), fontsize=10)
    return save(fig, out, "bench-deep.png")


def chart_pages(rows, out):
    loc = [r for r in rows if num(r["pages_4k_per_1000"])]
    if not loc:
        return None
    hs = handlers_of(loc)
    groups = sorted({(int(r["keep"]), int(r["cache"])) for r in loc})
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, col, title in zip(axes, ("pages_4k_per_1000", "pages_2m_per_1000",
                                     "cycles_per_obj"),
                              ("distinct 4 KB pages per 1000 allocations",
                               "distinct 2 MB pages per 1000 allocations",
                               "cycles per object")):
        def val(h, g, col=col):
            for r in loc:
                if (r["handler"] == h and
                        (int(r["keep"]), int(r["cache"])) == g):
                    return num(r[col])
            return None
        labels = {"%d in flight, cache %d" % g: g for g in groups}
        bars(ax, hs, list(labels),
             lambda h, s: val(h, labels[s]), fmt="%.0f")
        ax.set_title(title, fontsize=10)
        ax.tick_params(axis="x", labelrotation=30)
    axes[0].legend(fontsize=8)
    fig.suptitle("%s after a shuffled refill: %s objects, bursts of %s "
                 "(lower is better)" % (loc[0]["scenario"], loc[0]["pool_size"],
                                        loc[0]["bulk"]))
    return save(fig, out, "bench-pages.png")


def chart_testpmd(path, out):
    if not path or not os.path.exists(path):
        return None
    with open(path) as f:
        samples = [r for r in csv.DictReader(f) if r["kept"] == "1"]
    if not samples:
        return None
    hs = handlers_of(samples)
    caches = sorted({r["mbcache"] for r in samples}, key=int)

    def val(c, h):
        v = sorted(float(r["rx_pps"]) for r in samples
                   if r["handler"] == h and r["mbcache"] == c)
        return v[len(v) // 2] / 1e6 if v else None
    fig, ax = plt.subplots(figsize=(6, 4.5))
    bars(ax, ["mbuf cache %s" % c for c in caches], hs,
         lambda g, h: val(g.split()[-1], h), fmt="%.1f")
    ax.set_ylabel("Mpps, median of kept 1 s samples")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)
    ax.legend(fontsize=8)
    ax.set_title("testpmd io forwarding, 2 x net_null, --no-huge", fontsize=10)
    return save(fig, out, "bench-testpmd.png")


def plot(args):
    """Charts of the scenarios' rows by the charts each feeds (the JSON's
    "charts"), and of testpmd's samples."""
    global plt
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows, out = read_merged(args[0]), args[1]
    scen = scenarios_of(args[0])
    os.makedirs(out, exist_ok=True)

    def of(chart):
        return charts_rows(rows, scen, chart)
    lc, ov = of("lcores"), of("oversub")
    # Handlers with a bar: not those skipped in every row (pile where the
    # DPDK measured has none).
    hs = handlers_of([r for r in lc + ov if num(r["mobj_per_s"])])
    made = [p for p in (chart_lcores(lc, hs, out),
                        chart_oversub(ov, lc, hs, out),
                        chart_deep(of("memory"), out),
                        chart_pages(of("pages"), out),
                        chart_testpmd(args[2] if len(args) > 2 else None, out))
            if p]
    for p in made:
        print("chart: " + p)
    if not made:
        sys.exit("bench_report.py plot: no measured rows to draw")


# --- evidence -----------------------------------------------------------------

PAGE = "turbomem_evidence"
TOL_GAIN = 0.95    # a claimed gain is reproduced at >= 95% of its ratio
TOL_FIGURE = 0.20  # a quoted ratio is reproduced within +-20%, and "about the same"
FASTER = 1.05      # "faster" than ring_mp_mc: by 5% or more, beyond a run's noise


def read_kv(path, sep):
    """{key: value} of the "key<sep>value" lines of path ({} if absent)."""
    out = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.rstrip("\n").partition(sep)
            out[k] = v
    return out


class Results:
    def __init__(self, d):
        self.d = d
        p = os.path.join(d, "bench.csv")
        self.rows = read_merged(p) if os.path.exists(p) else []
        self.headers = {}
        p = os.path.join(d, "bench.json")
        if os.path.exists(p):
            with open(p) as f:
                for r in json.load(f)["runs"]:
                    self.headers[self.part(r["run"])] = r["header"]
        self.machine = read_kv(os.path.join(d, "machine.txt"), ": ")
        self.nt = read_kv(os.path.join(d, "not-testable.txt"), "\t")
        self.cmds = read_kv(os.path.join(d, "commands.tsv"), "\t")
        self.failed = read_kv(os.path.join(d, "failed.txt"), "\t")
        self.testpmd = {}  # (memory, handler, cache) -> [pps of kept samples]
        # (memory, handler, cache) -> {round: [pps]}; a round is one
        # testpmd.py compare round of one MEMORY-rN directory, in which
        # the handlers ran next to each other
        self.testpmd_rounds = {}
        # handler -> why testpmd.py compare skipped it (its DPDK lacks it)
        self.testpmd_skipped = {}
        tdir = os.path.join(d, "testpmd")
        if os.path.isdir(tdir):
            for sub in sorted(os.listdir(tdir)):
                mem = sub.rsplit("-r", 1)[0]
                self.testpmd_skipped.update(read_kv(os.path.join(
                    tdir, sub, "testpmd-skipped.txt"), "\t"))
                p = os.path.join(tdir, sub, "testpmd.csv")
                if not os.path.exists(p):
                    continue
                with open(p) as f:
                    for r in csv.DictReader(f):
                        if r["kept"] == "1":
                            key = (mem, r["handler"], r["mbcache"])
                            pps = float(r["rx_pps"])
                            self.testpmd.setdefault(key, []).append(pps)
                            self.testpmd_rounds.setdefault(key, {}).setdefault(
                                (sub, r["round"]), []).append(pps)

    @staticmethod
    def part(run):
        return run.split("-", 1)[1] if re.match(r"^\d+-", run) else run

    def find(self, part, handler, **kv):
        """The row of handler in part, or in its first round (part-rK)."""
        for r in self.rows:
            if self.part(r["run"]) != part or r["handler"] != handler:
                continue
            if all(r.get(k) == str(v) for k, v in kv.items()):
                return r
        rounds = self.rounds(part, handler, **kv)
        return rounds[min(rounds)] if rounds else None

    def rounds(self, part, handler, **kv):
        """{K: row} of handler in the parts part-rK (rounds interleaved
        with other parts' rounds)."""
        out = {}
        for r in self.rows:
            m = re.match(re.escape(part) + r"-r(\d+)$", self.part(r["run"]))
            if m and r["handler"] == handler and \
                    all(r.get(k) == str(v) for k, v in kv.items()):
                out[int(m.group(1))] = r
        return out

    def machine_of(self, part):
        h = self.headers.get(part) or self.headers.get(part + "-r1")
        if h:
            return "%s; Linux %s; DPDK %s" % (
                h.get("cpu", "?"), h.get("kernel", "?").split()[0],
                h.get("dpdk", "?").replace("DPDK ", ""))
        m = self.machine
        if m:
            return "%s; %s; DPDK %s" % (m.get("cpu", "?"), m.get("kernel", "?"),
                                        m.get("dpdk", "?"))
        return "?"

    def tpmd(self, mem, handler, cache):
        v = sorted(self.testpmd.get((mem, handler, cache), []))
        if not v:
            return None
        n = len(v)
        return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) / 1e6

    def tpmd_ratios(self, mem, handler, cache, base=BASELINE):
        """Each round's median of handler over base's on the same memory
        (testpmd.py compare's ratios), in the order run."""
        h = self.testpmd_rounds.get((mem, handler, cache), {})
        b = self.testpmd_rounds.get((mem, base, cache), {})
        return [statistics.median(h[k]) / statistics.median(b[k])
                for k in h if b.get(k) and statistics.median(b[k]) > 0]


def extra(r):
    if r is None:
        return {}
    out = {}
    for kv in (r.get("extra") or "").split(";"):
        k, _, v = kv.partition("=")
        if k:
            out[k] = v
    return out


class Claim:
    """One row: who claimed what, the command, the figure, the verdict."""

    def __init__(self, cid, who, text):
        self.cid, self.who, self.text = cid, who, text
        self.parts, self.figure, self.verdict, self.why = [], "", "", ""
        self.machine = ""


def memname(m):
    return {"nohuge": "--no-huge", "nohuge-thpoff": "--no-huge, thp=off",
            "2m": "2 MB hugetlbfs", "1g": "1 GB hugetlbfs"}.get(m, m)


def missing(c, res, parts, key=None):
    """Set the verdict of a claim whose inputs are absent."""
    for k in ([key] if key else []) + ["1g", "2m", "testpmd", "cache"]:
        if k in res.nt and any(k in p for p in parts):
            c.verdict = "not testable here"
            c.why = res.nt[k]
            return
    c.verdict = "missing"
    fails = ["%s: %s" % (k, v) for k, v in res.failed.items()
             if any(k.startswith(p.rstrip("*")) for p in parts)]
    if fails:
        c.why = "the run failed: " + "; ".join(fails)
    else:
        c.why = "no result for %s in the results directory" % ", ".join(parts)


def ratio_verdict(c, ratio, claimed, kind):
    if kind == "gain":
        ok = ratio >= claimed * TOL_GAIN
        c.why = "measured %.2fx, claimed %.2fx (reproduced at >= %.2fx)" % (
            ratio, claimed, claimed * TOL_GAIN)
    else:
        ok = abs(ratio / claimed - 1) <= TOL_FIGURE
        c.why = "measured %.2fx, quoted %.2fx (reproduced within +-%d%%)" % (
            ratio, claimed, TOL_FIGURE * 100)
    c.verdict = "reproduced" if ok else "refuted"


def word_verdict(c, ratio, word):
    """The verdict of a comparative word against ring_mp_mc."""
    if word == "faster":
        ok = ratio >= FASTER
        c.why = "measured %.2fx ring_mp_mc; faster from %.2fx" % (ratio, FASTER)
    elif word == "about the same or slower":
        ok = ratio <= 1 + TOL_FIGURE
        c.why = "measured %.2fx ring_mp_mc; about the same or slower up to %.2fx" % (
            ratio, 1 + TOL_FIGURE)
    elif word == "about the same or faster":
        ok = ratio >= 1 - TOL_FIGURE
        c.why = "measured %.2fx ring_mp_mc; about the same or faster from %.2fx" % (
            ratio, 1 - TOL_FIGURE)
    else:
        ok = abs(ratio - 1) <= TOL_FIGURE
        c.why = "measured %.2fx ring_mp_mc; about the same within +-%d%%" % (
            ratio, TOL_FIGURE * 100)
    c.verdict = "reproduced" if ok else "refuted"


def claims(res):
    out = []
    tp_machine = res.machine_of("testpmd")

    # --- seed 000: the TurboMem paper --------------------------------------
    for cache, label in (("250", "default mbuf cache (250), as the paper's "
                          "baseline with bulk caching"),
                         ("0", "--mbcache=0: every mbuf reaches the handler")):
        c = Claim("P1" if cache == "250" else "P1b",
                  "TurboMem paper (seed 000)",
                  "+28%% packets per second (140 -> 180 Mpps, 64 B) against a "
                  "standard mempool (ring_mp_mc) on explicit 1 GB pages. "
                  "Here: testpmd io forwarding, turbomem --no-huge (THP) vs "
                  "ring_mp_mc on 1 GB pages, %s." % label)
        c.parts = ["testpmd-1g", "testpmd-nohuge"]
        c.machine = tp_machine
        t, b = res.tpmd("nohuge", "turbomem", cache), res.tpmd("1g", "ring_mp_mc", cache)
        if t is None or b is None:
            missing(c, res, ["testpmd-1g", "testpmd-nohuge"], "1g")
        else:
            c.figure = "turbomem THP %.2f Mpps, ring_mp_mc 1 GB %.2f Mpps: %+.0f%%" % (
                t, b, (t / b - 1) * 100)
            ratio_verdict(c, t / b, 1.28, "gain")
        out.append(c)

    c = Claim("P2", "TurboMem paper (seed 000)",
              "Absolute rates: 140 Mpps (baseline) and 180 Mpps (TurboMem) "
              "at 64 B on a 100 Gbps NIC, 4 worker lcores.")
    c.parts = ["testpmd-nohuge"]
    c.machine = tp_machine
    t = res.tpmd("nohuge", "turbomem", "250")
    c.figure = ("net_null, 1 forwarding lcore: turbomem %.2f Mpps" % t) if t else "missing"
    c.verdict = "not testable here"
    c.why = ("no NIC and no traffic generator; %s CPUs, of which one forwards: "
             "net_null rates measure the mempool and ethdev path, not a "
             "100 Gbps port" % res.machine.get("cpus", "?"))
    out.append(c)

    c = Claim("P3", "TurboMem paper (seed 000)",
              "-41% dTLB misses against ring_mp_mc on explicit 1 GB pages.")
    c.parts = ["hw", "deep-1g", "deep-nohuge"]
    hw = res.find("hw", "turbomem")
    c.machine = res.machine_of("hw")
    dt = num((res.find("deep-nohuge", "turbomem") or {}).get("dtlb_misses_per_obj"))
    db = num((res.find("deep-1g", "ring_mp_mc") or {}).get("dtlb_misses_per_obj"))
    if hw is None:
        missing(c, res, ["hw"])
    elif hw["status"].startswith("n/a"):
        c.figure = "hw scenario: %s" % hw["status"]
        c.verdict = "not testable here"
        c.why = "no PMU in this machine (perf_event_open of dTLB-load-misses fails; " \
                "perf stat -e dTLB-load-misses: <not supported>)"
    elif dt is None or db is None:
        missing(c, res, ["deep-1g", "deep-nohuge"], "1g")
    else:
        c.figure = "deep: turbomem THP %.4f, ring_mp_mc 1 GB %.4f dTLB misses/mbuf: %+.0f%%" % (
            dt, db, (dt / db - 1) * 100)
        c.verdict = "reproduced" if dt <= db * 0.59 / TOL_GAIN else "refuted"
        c.why = "reproduced at <= %.2fx" % (0.59 / TOL_GAIN)
    out.append(c)

    # (memory, handler) -> (median cycles/mbuf, first row, {round: cycles})
    deep = {}
    for m in ("nohuge", "nohuge-thpoff", "2m", "1g"):
        for h in ("ring_mp_mc", "turbomem"):
            rs = res.rounds("deep-" + m, h) or {1: res.find("deep-" + m, h)}
            cyc = {k: num(r["cycles_per_obj"]) for k, r in rs.items()
                   if r is not None and num(r["cycles_per_obj"]) is not None}
            if cyc:
                deep[(m, h)] = (statistics.median(cyc.values()),
                                rs[min(cyc)], cyc)

    def deep_ratio(a, b):
        """Median of a's cycles over b's, round by round, and its text."""
        v = sorted(a[2][k] / b[2][k] for k in a[2] if b[2].get(k))
        med = statistics.median(v)
        return med, "%.2fx" % med + (" (%.2f-%.2f)" % (v[0], v[-1])
                                     if len(v) > 1 else "")

    def deep_rounds(a):
        n = len(a[2])
        return "1 round" if n == 1 else "medians of %d interleaved rounds" % n

    c = Claim("P4", "TurboMem paper (seed 000)",
              "THP auto-merging matches or beats manually reserved huge pages. "
              "Here: deep in-flight, turbomem on its own THP memory vs "
              "turbomem on 2 MB and 1 GB hugetlbfs pages (same handler, "
              "memory alone changes).")
    c.parts = ["deep-nohuge", "deep-2m", "deep-1g"]
    c.machine = res.machine_of("deep-nohuge")
    thp = deep.get(("nohuge", "turbomem"))
    refs = [(m, deep[(m, "turbomem")][0]) for m in ("2m", "1g") if (m, "turbomem") in deep]
    if thp is None or not refs:
        missing(c, res, ["deep-nohuge", "deep-2m", "deep-1g"], "1g")
    else:
        rat = [(m, deep_ratio(thp, deep[(m, "turbomem")])) for m, _ in refs]
        c.figure = "cycles/mbuf, %s: THP %.1f (%s, %s%% huge); %s; " \
                   "THP / hugetlbfs by round: %s" % (
                       deep_rounds(thp), thp[0], thp[1]["backing"],
                       thp[1]["huge_pct"] or "?",
                       "; ".join("%s %.1f" % (memname(m), v) for m, v in refs),
                       ", ".join("%s %s" % (memname(m), r[1]) for m, r in rat))
        worst = max(r[0] for _, r in rat)
        c.verdict = "reproduced" if worst <= 1.05 else "refuted"
        c.why = "THP / hugetlbfs up to %.2fx, median of the rounds' " \
                "ratios (matches at <= 1.05x)" % worst
    out.append(c)

    c = Claim("P4b", "TurboMem paper (seed 000)",
              "TurboMem on THP beats a standard mempool on explicit 1 GB "
              "pages. Here: deep in-flight, turbomem --no-huge (THP) vs "
              "ring_mp_mc on 1 GB pages.")
    c.parts = ["deep-nohuge", "deep-1g"]
    c.machine = res.machine_of("deep-nohuge")
    b = deep.get(("1g", "ring_mp_mc"))
    if thp is None or b is None:
        missing(c, res, ["deep-nohuge", "deep-1g"], "1g")
    else:
        r = deep_ratio(thp, b)
        c.figure = "cycles/mbuf, %s: turbomem THP %.1f, ring_mp_mc 1 GB " \
                   "%.1f; by round %s" % (deep_rounds(thp), thp[0], b[0], r[1])
        c.verdict = "reproduced" if r[0] <= 1.05 else "refuted"
        c.why = "matches or beats at <= 1.05x the cycles (median of the " \
                "rounds' ratios)"
    out.append(c)

    for cache in ("250", "0"):
        c = Claim("P5" if cache == "250" else "P5b", "TurboMem paper (seed 000)",
                  "The gain comes from the lock-free pool (\"avoids lock "
                  "contention and false sharing\"). Here: testpmd, both on "
                  "1 GB pages, mbuf cache %s: the handler alone changes." % cache)
        c.parts = ["testpmd-1g"]
        c.machine = tp_machine
        t, b = res.tpmd("1g", "turbomem", cache), res.tpmd("1g", "ring_mp_mc", cache)
        if t is None or b is None:
            missing(c, res, ["testpmd-1g"], "1g")
        else:
            c.figure = "turbomem %.2f Mpps, ring_mp_mc %.2f Mpps: %+.0f%%" % (
                t, b, (t / b - 1) * 100)
            ratio_verdict(c, t / b, 1.28, "gain")
        out.append(c)

    # --- seed 003: TLB designs ------------------------------------------------
    for h, small, big in (("ring_mp_mc", "nohuge", "2m"),
                          ("turbomem", "nohuge-thpoff", "nohuge")):
        c = Claim("T1" if h == "ring_mp_mc" else "T1b",
                  "TLB-designs paper (seed 003)",
                  "THP (huge pages) reduces dTLB miss overhead by 27-58%%. "
                  "Here: deep in-flight, %s on 4 KB pages vs %s, and 1 GB "
                  "pages." % (h, "2 MB hugetlbfs" if big == "2m" else "its THP memory"))
        c.parts = ["deep-" + small, "deep-" + big, "deep-1g"]
        c.machine = res.machine_of("deep-" + small)
        s, g, o = deep.get((small, h)), deep.get((big, h)), deep.get(("1g", h))
        if s is None or g is None:
            missing(c, res, c.parts, "2m")
        else:
            c.figure = "cycles/mbuf: 4 KB %.1f, 2 MB %.1f (%+.0f%%)" % (
                s[0], g[0], (g[0] / s[0] - 1) * 100)
            if o:
                c.figure += ", 1 GB %.1f (%+.0f%%)" % (o[0], (o[0] / s[0] - 1) * 100)
            ds, dg = num(s[1]["dtlb_misses_per_obj"]), num(g[1]["dtlb_misses_per_obj"])
            if ds and dg is not None:
                red = 1 - dg / ds
                c.figure += "; dTLB misses/mbuf %.3f -> %.3f" % (ds, dg)
                c.verdict = "reproduced" if red >= 0.27 else "refuted"
                c.why = "dTLB misses %.0f%% fewer (27-58%% claimed)" % (red * 100)
            else:
                c.verdict = "not testable here"
                c.why = ("no PMU: the miss overhead cannot be separated; the "
                         "cycle change is what page size does to the whole "
                         "workload here (TLB misses and page walks included), "
                         "an upper bound of the TLB share")
        out.append(c)

    # --- seed 002: mempool cache patch ---------------------------------------
    c = Claim("C1", "mempool cache patch v5 (seed 002)",
              "Mempool cache miss rate 1/20 -> 1/48 objects (DPDK 26.07 "
              "cache refill/flush by half). Here: the cache scenario of "
              "``app/test-turbomem/bench_cache.c``, whose head says how to read "
              "its figures.")
    crow = [r for r in res.rows if res.part(r["run"]) == "cache"]
    c.parts = ["cache"]
    c.machine = res.machine_of("cache")
    if not crow:
        c.verdict = "missing"
        c.why = "no rows of the cache scenario in the results: %s" % res.nt.get(
            "cache", "not run")
    else:
        figs = []
        for r in crow[:6]:
            f = [r["handler"]]
            for k in ("mobj_per_s", "cycles_per_obj"):
                if num(r.get(k)) is not None:
                    f.append("%s %.4g" % (k, num(r[k])))
            if r.get("extra"):
                f.append(r["extra"])
            figs.append(" ".join(f))
        c.figure = "; ".join(figs)
        dv = res.headers.get("cache", {}).get("dpdk", "")
        m = re.search(r"(\d+)\.(\d+)", dv)
        if m and (int(m.group(1)), int(m.group(2))) >= (26, 7):
            c.verdict = "see figures"
            c.why = "the cache scenario's rows; bench_cache.c's head gives their reading"
        else:
            c.verdict = "not testable here"
            c.why = "%s predates the patch (DPDK 26.07): the figures are this " \
                    "DPDK's cache, not the patched one" % (dv or "this DPDK")
    out.append(c)

    # --- seed 001: heap fragmentation -----------------------------------------
    for mem in ("nohuge", "2m"):
        r = res.find("frag-%s-ring_mp_mc" % mem, "ring_mp_mc")
        c = Claim("F1" if mem == "nohuge" else "F1b", "ByteDance article (seed 001)",
                  "rte_malloc slows down as the heap fragments. Here: 1000 "
                  "create/free cycles of mixed-size ring_mp_mc pools (4 live), "
                  "then 1000 rte_malloc of 4 KB aligned to 4 KB, %s." % memname(mem))
        c.parts = ["frag-%s-ring_mp_mc" % mem]
        c.machine = res.machine_of(c.parts[0])
        e = extra(r)
        if r is None or "malloc_cycles_after" not in e:
            missing(c, res, c.parts, "2m")
        else:
            a, b = float(e["malloc_cycles_before"]), float(e["malloc_cycles_after"])
            c.figure = ("rte_malloc %.0f -> %.0f TSC cycles; free elements %s -> "
                        "peak %s -> %s; largest free block %.1f -> %.1f MB" % (
                            a, b, e["free_elems_before"], e["free_elems_peak"],
                            e["free_elems_after"],
                            int(e["largest_free_before"]) / 2**20,
                            int(e["largest_free_after"]) / 2**20))
            c.verdict = "reproduced" if b > a * 1.2 else "refuted"
            c.why = "after/before %.2fx (a slowdown counts from 1.2x); the heap " \
                    "has %s free element(s) after the cycles, %s before: freed " \
                    "elements merged back; the article says its fix was merged " \
                    "upstream in February 2023" % (
                        b / a, e["free_elems_after"], e["free_elems_before"])
        out.append(c)

    for mem in ("nohuge", "2m"):
        t = res.find("frag-%s-turbomem" % mem, "turbomem")
        b = res.find("frag-%s-ring_mp_mc" % mem, "ring_mp_mc")
        c = Claim("F2" if mem == "nohuge" else "F2b",
                  "driver guide (Pool Memory); design page (Pool Memory)",
                  "In --no-huge mode each pool gets a malloc heap of its own, outside "
                  "EAL's memory, and freeing the pool returns its memory; with EAL "
                  "hugepages the memory is left as EAL gives it. Here: the same 1000 "
                  "cycles, turbomem vs ring_mp_mc, %s." % memname(mem))
        c.parts = ["frag-%s-turbomem" % mem, "frag-%s-ring_mp_mc" % mem]
        c.machine = res.machine_of(c.parts[0])
        et, eb = extra(t), extra(b)
        if "free_elems_after" not in et or "free_elems_after" not in eb:
            missing(c, res, c.parts, "2m")
        else:
            c.figure = ("peak free elements: turbomem %s, ring_mp_mc %s; smallest "
                        "largest-free-block during the cycles: %.0f MB vs %.0f MB "
                        "(heap %.0f MB); after: %s and %s free elements" % (
                            et["free_elems_peak"], eb["free_elems_peak"],
                            int(et["largest_free_min"]) / 2**20,
                            int(eb["largest_free_min"]) / 2**20,
                            int(et["heap_bytes"]) / 2**20,
                            et["free_elems_after"], eb["free_elems_after"]))
            back = (et["free_elems_after"] == et["free_elems_before"] and
                    et["largest_free_after"] == et["largest_free_before"])
            if mem == "nohuge":
                less = int(et["free_elems_peak"]) <= int(eb["free_elems_peak"])
                c.verdict = "reproduced" if back and less else "refuted"
                c.why = "heap back to its start after the cycles: %s; peak " \
                        "fragmentation <= ring_mp_mc's: %s" % (back, less)
            else:
                c.verdict = "reproduced" if back else "refuted"
                c.why = "on hugetlbfs turbomem uses EAL memory like ring_mp_mc " \
                        "(no own heap); heap back to its start: %s" % back
        out.append(c)

    # --- seed 004 and the driver guide's LIFO reuse: pages ----------------------
    for mem in ("2m", "nohuge"):
        c = Claim("D1" if mem == "2m" else "D1b", "CodiLime case study (seed 004)",
                  "After drops, mbufs scatter over many more pages, which costs "
                  "TLB (IOTLB) misses. Here: pages scenario (deep workload, half "
                  "the pool in flight), 4 KB pages per 1000 packets fresh and "
                  "after a shuffled refill, %s; cost from deep." % memname(mem))
        c.parts = ["pages-" + mem, "deep-" + mem]
        c.machine = res.machine_of("pages-" + mem)
        figs, scatter = [], []
        for h in ("ring_mp_mc", "turbomem"):
            r = res.find("pages-" + mem, h)
            e = extra(r)
            if r is None or num(r["pages_4k_per_1000"]) is None:
                continue
            figs.append("%s %s -> %.0f" % (h, e.get("fresh_4k", "?"),
                                            num(r["pages_4k_per_1000"])))
            scatter.append(num(r["pages_4k_per_1000"]) /
                           max(float(e.get("fresh_4k", "nan")), 1))
        if not figs:
            missing(c, res, c.parts, "2m")
        else:
            c.figure = "4 KB pages per 1000 packets, fresh -> after drops: " + "; ".join(figs)
            s4, s2 = deep.get(("nohuge", "ring_mp_mc")), deep.get(("2m", "ring_mp_mc"))
            if s4 and s2:
                c.figure += "; ring_mp_mc deep %.1f cycles/mbuf on 4 KB pages, %.1f on 2 MB" % (
                    s4[0], s2[0])
            if mem == "2m":
                c.verdict = "reproduced" if scatter and scatter[0] >= 1.3 else "refuted"
                c.why = "ring_mp_mc touches %.2fx the pages after drops (reproduced " \
                        "from 1.3x)" % scatter[0] if scatter else "no ring_mp_mc row"
            else:
                c.verdict = "not testable here"
                c.why = "--no-huge EAL memory puts each ring_mp_mc mbuf on its own " \
                        "4 KB page: the pool starts as scattered as drops can make it " \
                        "(the 2 MB hugetlbfs row, D1, shows the effect)"
        out.append(c)

    for inflight in ("32", "512"):
        c = Claim("L1" if inflight == "32" else "L1b",
                  "driver guide (opening; When to Use It)",
                  "The objects freed last are handed out first, still warm; where few "
                  "objects are in flight from a large pool, LIFO reuse touches fewer "
                  "pages. Here: locality scenario, %s objects in flight, no cache (every "
                  "get and put reaches the handler), after a shuffled refill." % inflight)
        c.parts = ["locality"]
        c.machine = res.machine_of("locality")
        t = res.find("locality", "turbomem", keep=inflight, cache="0")
        b = res.find("locality", "ring_mp_mc", keep=inflight, cache="0")
        if t is None or b is None or num(t["pages_4k_per_1000"]) is None:
            missing(c, res, c.parts)
        else:
            tv, bv = num(t["pages_4k_per_1000"]), num(b["pages_4k_per_1000"])
            c.figure = "pool of %s, %s in flight: turbomem %.0f, ring_mp_mc %.0f 4 KB " \
                       "pages per 1000 allocations (%.2fx)" % (
                           t["pool_size"], inflight, tv, bv, tv / bv)
            c.verdict = "reproduced" if tv < bv else "refuted"
            c.why = "measured %.2fx ring_mp_mc's pages; fewer: below 1x" % (tv / bv)
        out.append(c)

    # --- README and driver guide ----------------------------------------------
    c = Claim("R1", "README; driver guide (Pool Memory); design page (Pool Memory)",
              "--no-huge pools get transparent huge pages: each pool's memory is "
              "advised MADV_HUGEPAGE, and the memory report reads what backs it "
              "from /proc/self/smaps.")
    c.parts = ["deep-nohuge", "pages-nohuge"]
    c.machine = res.machine_of("deep-nohuge")
    r = res.find("deep-nohuge", "turbomem")
    if r is None:
        missing(c, res, c.parts)
    else:
        hp = num(r["huge_pct"])
        c.figure = "deep pool (%s mbufs): backing %s, %s%% in 2 MB pages (smaps); " \
                   "THP %s" % (r["pool_size"], r["backing"],
                               "?" if hp is None else "%.0f" % hp,
                               res.machine.get("thp", "?"))
        c.verdict = "reproduced" if r["backing"] == "thp" and (hp or 0) >= 90 else "refuted"
        c.why = "reproduced at backing thp, >= 90% huge"
    out.append(c)

    c = Claim("R2", "README (Loading); driver guide (Loading the Driver)",
              "Selected by its ops name, ``turbomem``: the EAL option "
              "--mbuf-pool-ops-name selects it for the mbuf pools of an unmodified "
              "application; selecting it by name needs no header and no link.")
    c.parts = ["testpmd-*"]
    c.machine = tp_machine
    mems = sorted({k[0] for k in res.testpmd} |
                  {k.split("-")[1] for k in res.failed if k.startswith("testpmd-")})
    got = {m: res.tpmd(m, "turbomem", "250") for m in mems}
    have = {m: v for m, v in got.items() if v is not None}
    if not have:
        missing(c, res, ["testpmd"], "testpmd")
    else:
        c.figure = "unmodified dpdk-testpmd forwarded on turbomem with " + ", ".join(
            "%s %.2f Mpps" % (memname(m), v) for m, v in have.items())
        c.verdict = "reproduced" if all(v > 0 for v in have.values()) else "refuted"
        c.why = "turbomem selected and packets forwarded (testpmd.py compare " \
                "checks the selection)"
        lost = [m for m in got if got[m] is None]
        if lost:
            c.why += "; no result for %s: %s" % (", ".join(memname(m) for m in lost), "; ".join(
                v for k, v in res.failed.items() if any("-%s-" % m in k for m in lost)))
    out.append(c)

    # The rows of the driver guide's "When to Use It" table that this set
    # measures, each against ring_mp_mc as the table compares: grid and
    # pipeline at bulk 16, keep 32, and testpmd on --no-huge.
    g = {}
    for part in ("grid-1lcore", "grid-2pinned", "grid-6on2", "pipeline"):
        for h in (BASELINE, "turbomem"):
            for cache in ("0", "256"):
                r = res.find(part, h, cache=cache)
                if r is not None and num(r["mobj_per_s"]) is not None:
                    g[(part, h, cache)] = (num(r["mobj_per_s"]) / 1e6, r)
    guide = "driver guide (When to Use It)"
    for cid, part, cache, who, text, word in (
            ("G1", "grid-1lcore", "0", guide + "; README",
             "One lcore alone on a pool without a mempool cache: about the same or slower, "
             "ring_mp_mc's uncontended get and put being shorter. "
             "Here: grid, bulk 16, keep 32, 1 lcore, no cache.", "about the same or slower"),
            ("G2", "grid-2pinned", "0", guide + "; design page (Backoff After a Failed CAS)",
             "lcores or unregistered threads sharing a pool without a cache: faster, "
             "less fair (a CAS that loses backs off and the winner serves itself first). "
             "Here: grid, bulk 16, keep 32, 2 lcores pinned to 2 CPUs, no cache.", "faster"),
            ("G3", "grid-6on2", "0", guide + "; README",
             "More threads than cores: faster, as no get or put waits for a preempted "
             "thread. Here: grid, bulk 16, keep 32, 6 lcores floating on 2 CPUs, "
             "no cache.", "faster"),
            ("G3b", "grid-6on2", "256", guide + "; README",
             "More threads than cores: faster, as no get or put waits for a preempted "
             "thread. Here: grid, bulk 16, keep 32, 6 lcores floating on 2 CPUs, "
             "mempool cache 256.", "faster"),
            ("G4", "pipeline", "0", guide + "; design page (Put List)",
             "Pipelines, allocation on one lcore and free on another: about the same or "
             "faster, as the puts of an lcore that only frees go to a list of their own. "
             "Here: pipeline, bulk 16, 2 lcores pinned, no cache.", "about the same or faster"),
            ("G5", "grid-2pinned", "256", guide + "; README",
             "Run-to-completion with the mempool cache, one thread per core: about the "
             "same (README: it matches ring_mp_mc). Here: grid, bulk 16, keep 32, "
             "2 lcores pinned to 2 CPUs, mempool cache 256.", "about the same")):
        c = Claim(cid, who, text)
        c.parts = [part]
        c.machine = res.machine_of(part)
        t, b = g.get((part, "turbomem", cache)), g.get((part, BASELINE, cache))
        if t is None or b is None:
            missing(c, res, c.parts)
            out.append(c)
            continue
        c.figure = "turbomem %.1f, ring_mp_mc %.1f Mobj/s" % (t[0], b[0])
        if part == "grid-6on2":
            p2 = (g.get(("grid-2pinned", "turbomem", cache)),
                  g.get(("grid-2pinned", BASELINE, cache)))
            if p2[0] and p2[1]:
                c.figure += "; of their 2 pinned rates: %.2fx and %.2fx" % (
                    t[0] / p2[0][0], b[0] / p2[1][0])
        word_verdict(c, t[0] / b[0], word)
        if cid == "G2":
            sp = [worker_spread(x[1]["status"]) for x in (t, b)]
            c.figure += "; worker spread (most objects of one worker over another's in " \
                        "a round, 0 when within 2x): turbomem %.1fx, ring_mp_mc %.1fx" % (
                            sp[0], sp[1])
            c.why += "; \"less fair\" is shown (worker spread), not judged: it is one " \
                     "round's extreme"
        out.append(c)

    for cid, cache in (("G6", "0"), ("G6b", "250")):
        c = Claim(cid, guide + "; README",
                  "--no-huge: faster where TLB reach matters, the pool being in 2 MB "
                  "transparent huge pages and ring_mp_mc's in EAL's 4 KB pages. Here: "
                  "testpmd io, 2 x net_null, --no-huge, mbuf cache %s." % cache)
        c.parts = ["testpmd-nohuge"]
        c.machine = tp_machine
        t, b = res.tpmd("nohuge", "turbomem", cache), res.tpmd("nohuge", "ring_mp_mc", cache)
        if t is None or b is None:
            missing(c, res, ["testpmd-nohuge"], "testpmd")
        else:
            c.figure = "turbomem %.2f, ring_mp_mc %.2f Mpps" % (t, b)
            word_verdict(c, t / b, "faster")
        out.append(c)

    # --- a killed process (bench_crash.c) ---------------------------------------
    c = Claim("K1", "driver guide (Multi-process)",
              "A killed process does not wedge the pool: a secondary killed with SIGKILL "
              "inside its get/put loses at most what it had in flight (and, with a mempool "
              "cache, what its lcore cache held), and the primary and a fresh secondary go "
              "on. Here: the crash scenario (bench_crash.c), turbomem and ring_mp_mc, caches "
              "0 and 256, bulks 1, 32 and random; the stress suite's bench_crash runs its "
              "short mode.")
    c.parts = ["crash"]
    c.machine = res.machine_of("crash")
    tm = [r for r in res.rows if res.part(r["run"]) == "crash" and
          r["handler"] == "turbomem"]
    if not tm:
        missing(c, res, ["crash"], "2m")
    else:
        bad = [r for r in tm if not r["status"].startswith("ok")]
        e = [extra(r) for r in tm if r["status"].startswith("ok")]
        kills = sum(int(num(x.get("kills")) or 0) for x in e)
        wedged = sum(int(num(x.get("wedged")) or 0) for x in e)
        over = sum(int(num(x.get("kills_over_bound")) or 0) for x in e)
        census = [x.get("census") for x in e]
        w = crash_wedged(res)
        c.figure = ("turbomem: %d wedged in %d kills over %d shapes, %d kills over the "
                    "in-flight bound (lost per kill up to %s, bound up to %s), census %s" % (
                        wedged, kills, len(e), over,
                        max((x.get("lost_per_kill_max", "?") for x in e), key=num),
                        max((x.get("bound_max", "?") for x in e), key=num),
                        "ok in every shape" if census and all(x == "ok" for x in census)
                        else ", ".join(map(str, census))))
        if BASELINE in w:
            c.figure += "; %s: %d wedged in %d kills" % ((BASELINE,) + w[BASELINE])
        ok = not bad and kills > 0 and wedged == 0 and over == 0 and \
            all(x == "ok" for x in census)
        c.verdict = "reproduced" if ok else "refuted"
        c.why = ("no wedge, every loss within the bound, every census intact"
                 if ok else "; ".join(r["status"] for r in bad) or
                 "a wedge, a loss over the bound or a census error in a shape")
    out.append(c)
    out += pile_claims(res)
    return out


def pile_claims(res):
    """What the driver guide's "Turbomem or pile" and the README say of
    DPDK's own lock-free pool (26.11), each against pile's rows of the
    same run; those that go against turbomem included."""
    out = []
    who = "driver guide (Turbomem or pile); README"
    absent = next((r["status"] for r in res.rows if r["handler"] == "pile" and
                   r["status"].startswith("skip")), None)

    def no_pile(c):
        if absent:
            c.verdict = "not testable here"
            c.why = absent + " (TM_BENCH_DPDK=26.07-pile measures it)"
        else:
            missing(c, res, c.parts)

    def row(part, h, **kv):
        r = res.find(part, h, **kv)
        return r if r is not None and r["status"].startswith("ok") else None

    for cid, part, cache, text, word in (
            ("X1", "grid-1lcore", "0", "Without a mempool cache, turbomem is faster than pile. "
             "Here: grid, bulk 16, keep 32, 1 lcore, no cache.", "faster"),
            ("X2", "grid-2pinned", "0", "Lcores sharing a pool without a cache: turbomem is "
             "faster than pile. Here: grid, bulk 16, keep 32, 2 lcores pinned to 2 CPUs, "
             "no cache.", "faster"),
            ("X3", "grid-6on2", "0", "More threads than cores: turbomem is faster than pile. "
             "Here: grid, bulk 16, keep 32, 6 lcores floating on 2 CPUs, no cache.", "faster"),
            ("X4", "pipeline", "0", "Pipelines without a cache: turbomem is faster than pile. "
             "Here: pipeline, bulk 16, 2 lcores pinned, no cache.", "faster"),
            ("X5", "grid-2pinned", "256", "With a mempool cache on every lcore, pile is "
             "enough: about the same speed as turbomem. Here: grid, bulk 16, keep 32, "
             "2 lcores pinned to 2 CPUs, mempool cache 256.", "about the same")):
        c = Claim(cid, who, text)
        c.parts = [part]
        c.machine = res.machine_of(part)
        t, p = row(part, "turbomem", cache=cache), row(part, "pile", cache=cache)
        if t is None or p is None:
            no_pile(c)
            out.append(c)
            continue
        t, p = num(t["mobj_per_s"]) / 1e6, num(p["mobj_per_s"]) / 1e6
        c.figure = "turbomem %.1f, pile %.1f Mobj/s" % (t, p)
        word_verdict(c, t / p, word)
        c.why = c.why.replace(BASELINE, "pile")
        out.append(c)

    c = Claim("X6", who, "pile takes less memory per object than turbomem (against "
              "turbomem). Here: memory, 262143 objects of 64 bytes, handler and mempool "
              "bytes in the heaps.")
    c.parts = ["memory"]
    c.machine = res.machine_of("memory")
    t, p = row("memory", "turbomem", layout="64 B objs"), row("memory", "pile",
                                                             layout="64 B objs")
    if t is None or p is None:
        no_pile(c)
    else:
        t, p = num(t["bytes_per_obj"]), num(p["bytes_per_obj"])
        c.figure = "turbomem %.1f, pile %.1f bytes per object" % (t, p)
        c.verdict = "reproduced" if p < t else "refuted"
        c.why = "pile %.2fx turbomem's bytes" % (p / t)
    out.append(c)

    c = Claim("X7", who, "turbomem's count is exact at rest and never above the pool's "
              "size, its gets all-or-nothing, and no thread stays stuck in a get or put; "
              "pile's count is a lower bound and may exceed the size. Here: contract, "
              "2 lcores pinned, no cache.")
    c.parts = ["contract"]
    c.machine = res.machine_of("contract")
    t, p = row("contract", "turbomem"), row("contract", "pile")
    if t is None or p is None:
        no_pile(c)
    else:
        def says(r):
            e = extra(r)
            # UINT32_MAX: no round came to rest (every one wedged)
            rest = ("count at rest %s-%s of %s" % (
                e.get("count_rest_min"), e.get("count_rest_max"), e.get("aon_size"))
                if e.get("count_rest_min") != "4294967295" else "no round at rest")
            return ("%s (exact in %s of %s rounds), most seen %s of %s, "
                    "%s all-or-nothing violations, %s threads wedged" % (
                        rest, e.get("rest_exact"), r["rounds"], e.get("count_max"),
                        e.get("aon_size"), e.get("violations"), e.get("wedged")))
        te = extra(t)
        c.figure = "turbomem: %s; pile: %s" % (says(t), says(p))
        ok = te.get("rest_exact") == t["rounds"] and te.get("violations") == "0" and \
            te.get("wedged") == "0" and num(te.get("count_max")) is not None and \
            num(te["count_max"]) <= num(te.get("aon_size"))
        c.verdict = "reproduced" if ok else "refuted"
        c.why = "turbomem's figures; pile's beside them, not judged"
    out.append(c)
    return out


def model_rows(res):
    """(handler, memory, 4K/2M/1G fresh, after drops, TLB) of pages parts."""
    rows = []
    for m in ("nohuge", "nohuge-thpoff", "2m", "1g"):
        for h in ("ring_mp_mc", "turbomem"):
            r = res.find("pages-" + m, h)
            if r is None:
                continue
            e = extra(r)
            rows.append((h, m, r, e))
    return rows


def seed003_reading(res, cl, mr, tlb):
    """Seed 003's question answered from the T1 rows and the model rows."""
    L = ["Reading of seed 003: which part of its 27-58% is visible here?", ""]
    items = []
    by = {c.cid: c for c in cl}
    for cid in ("T1", "T1b"):
        c = by.get(cid)
        if c is not None:
            items += ["%s (%s): %s; %s." % (cid, c.text.split(". Here: ")[-1].rstrip("."),
                                            rst_escape(c.figure or "missing"),
                                            c.verdict)]
    need = {}
    for _, _, r, e in mr:
        for k, v in (("4 KB", num(r["pages_4k_per_1000"])),
                     ("2 MB", num(r["pages_2m_per_1000"])),
                     ("1 GB", num(e.get("pages_1g")))):
            if v is not None:
                lo, hi = need.get(k, (v, v))
                need[k] = (min(lo, v), max(hi, v))
    if need:
        items += ["Model, after drops: a window of 1000 packets needs %s." % "; ".join(
            "%.0f-%.0f %s entries" % (lo, hi, k) if lo != hi else "%.0f %s entries" % (lo, k)
            for k, (lo, hi) in need.items())]
    if tlb.get("tlb_src", "").startswith("cpuid"):
        items += ["This CPU's data TLB: L1 %s and L2 %s entries for 4 KB pages, L1 %s and "
                  "L2 %s for 2 MB pages." % (tlb.get("l1d_4k"), tlb.get("l2d_4k"),
                                             tlb.get("l1d_2m"), tlb.get("l2d_2m"))]
    L += bullets(items) if items else []
    L += prose("What is visible is the whole change of cycles per mbuf with the page size, "
               "with the model's entry counts beside the TLB sizes; the share of it that "
               "is dTLB misses needs the PMU counters (hw scenario), which this machine "
               "%s." % ("lacks" if "n/a" in (res.find("hw", "turbomem") or {}).get(
                   "status", "n/a") else "has: see P3 and T1")) + [""]
    return L


# DPDK's documentation conventions (doc/guides/contributing/documentation.rst):
# each sentence on a line of its own, lines under 100 characters wrapped at
# punctuation, "*" bullets a blank line apart, tables with a caption.
RST_WIDTH = 99
SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=\S)")
WRAP_AT = re.compile(r"[,;:] ")
WRAP_BEFORE = re.compile(r" (?=(and|but|or|against|vs|with|by|on|where|which) )")


# What a wrapped line does not start with: reST could read it as a list,
# a table rule or a directive.
BAD_START = re.compile(r"([-*+|]|\d+[.)]|#\.|\.\.)(\s|$)|[-=~^]{3,}")


def wrap_sentence(s, width):
    """Lines of one sentence, each within width: broken after a comma,
    semicolon or colon outside ``literals`` and brackets where one fits,
    else before a conjunction or preposition past the middle, else after
    such punctuation in brackets, else at the last space that fits
    (inside a literal only as a last resort: reST reads the break there
    as a space)."""
    out = []
    while len(s) > width:
        def lit(i):
            return s.count("``", 0, i) % 2 == 1

        def free(i):
            return not lit(i) and s.count("(", 0, i) == s.count(")", 0, i)

        def ok(c):
            # a cut before index c leaves a line of c - 1 columns
            return c - 1 <= width and not BAD_START.match(s[c:])
        tiers = (
            [m.end() for m in WRAP_AT.finditer(s) if free(m.start())],
            [m.start() + 1 for m in WRAP_BEFORE.finditer(s, width // 2, width + 1)
             if free(m.start())],
            [m.end() for m in WRAP_AT.finditer(s) if not lit(m.start())],
            [m.end() for m in re.finditer(" ", s) if not lit(m.start())],
            [m.end() for m in re.finditer(" ", s)])
        cut = next((max(t) for t in ([c for c in t if ok(c)] for t in tiers) if t), None)
        if cut is None:
            # one word longer than width: left whole
            cut = next((m.end() for m in re.finditer(" ", s) if m.end() - 1 > width), None)
            if cut is None:
                break
        out.append(s[:cut].rstrip())
        s = s[cut:]
    return out + [s]


def prose(text, indent=0):
    """One sentence per line, each wrapped at punctuation."""
    out = []
    for sent in SENTENCE_END.split(text.strip()):
        out += wrap_sentence(sent, RST_WIDTH - indent)
    return out


def bullets(items):
    """A "*" bullet list, items a blank line apart, a blank line after."""
    out = []
    for item in items:
        lines = prose(item, 2)
        out += ["* " + lines[0]] + ["  " + l for l in lines[1:]] + [""]
    return out


def simple_table(caption, header, rows, widths=None):
    """A ".. table::" simple table with its caption; a list-table, whose
    cells wrap, where the simple one would be wider than RST_WIDTH
    (widths: the list-table's relative column widths)."""
    cols = list(zip(header, *rows))
    cw = [max(len(c) for c in col) for col in cols]
    rule = "   " + " ".join("=" * w for w in cw)
    if len(rule) > RST_WIDTH:
        return list_table(caption, header, rows, widths)

    def line(cells):
        return "   " + " ".join(c.ljust(w) for c, w in zip(cells, cw)).rstrip()
    return [".. table:: " + caption, "", rule, line(header), rule] + \
        [line(r) for r in rows] + [rule, ""]


def list_table(caption, header, rows, widths=None):
    """A ".. list-table::" of one header row, its cells wrapped."""
    L = [".. list-table:: " + caption, "   :header-rows: 1"]
    if widths:
        L.append("   :widths: " + " ".join(str(w) for w in widths))
    L.append("")
    for r in [header] + list(rows):
        for i, cell in enumerate(r):
            L += rst_cell(cell_prose(cell), i == 0)
    return L + [""]


def rst_cell(lines, first):
    out = []
    lead = "   * - " if first else "     - "
    lines = lines if isinstance(lines, list) else [lines]
    lines = [l for l in lines if l != ""] or ["-"]
    # a cell starting "-" (a lone one, --no-huge) would be a list or an
    # option list: escaped
    head = "\\" + lines[0] if lines[0].startswith("-") or BAD_START.match(lines[0]) \
        else lines[0]
    out.append(lead + head)
    for l in lines[1:]:
        out.append("       " + l)
    return out


def cell_prose(*texts):
    """Lines of a list-table cell: each text one sentence per line."""
    out = []
    for t in texts:
        out += prose(t, 7)
    return out


def rst_escape(s):
    return s.replace("*", r"\*").replace("|", r"\|").replace("_ ", r"\_ ")


def cmd_label(part):
    """The reST label of a part's command on the evidence page."""
    return "turbomem_evidence_cmd_" + re.sub(r"[^a-z0-9]+", "_", part.lower())


def shorten(cmd):
    """The words of a command, quoted for the shell, with the repo's paths
    made relative and the bench app as $B."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    argv = [a.replace(repo + "/", "") for a in cmd.split("\x1f") if a != ""]
    return ["$B" if a == "build/app/test-turbomem/dpdk-test-turbomem" else shlex.quote(a)
            for a in argv]


def shell_lines(words, width):
    """A command as lines of at most width columns, continued with " \\":
    an option stays beside its value, "--" (EAL's end) starts a line,
    continuation lines are indented by 4. A word too long for a line is
    cut and requoted, its pieces on lines of their own, unindented (an
    indent would split the word)."""
    units, i = [], 0
    while i < len(words):
        w = words[i]
        if (w.startswith("-") and w != "--" and i + 1 < len(words) and
                not words[i + 1].startswith("-")) or \
                (w == "--" and i + 1 < len(words)):
            units.append(w + " " + words[i + 1])
            i += 2
        else:
            units.append(w)
            i += 1
    room = width - 2  # for " \\"
    out, line = [], ""
    for u in units:
        if line and not u.startswith("-- ") and len(line) + 1 + len(u) <= room:
            line += " " + u
            continue
        if line:
            out.append(line + " \\")
        line = ("    " if out or line else "") + u
        if len(line) > room:
            # an option and its value: each alone
            if " " in u and not u.startswith(("'", '"')):
                a, b = u.split(" ", 1)
                line = "    " + a if out else a
                out.append(line + " \\")
                line = "    " + b
            if len(line) > room:
                raw, pieces = shlex.split(line)[0], [""]
                for ch in raw:
                    if len(shlex.quote(pieces[-1] + ch)) > room:
                        pieces.append("")
                    pieces[-1] += ch
                pieces = [shlex.quote(p) for p in pieces]
                out += [p + "\\" for p in pieces[:-1]]
                line = pieces[-1]
    out.append(line)
    return out


def write_page(res, cl, path):
    m = res.machine
    L = []
    L += [".. SPDX-License-Identifier: BSD-3-Clause",
          "   Copyright(c) 2026 The turbomem authors",
          "",
          ".. This page is generated by scripts/bench_report.py evidence from the results",
          "   of scripts/bench.sh evidence: do not edit it by hand.",
          "",
          ".. _turbomem_evidence:",
          "",
          "Turbomem Evidence",
          "=================",
          ""]
    L += prose("The claims made about turbomem by the papers and articles it started from "
               "(the seeds) and by this project's README, driver guide (:doc:`turbomem`) "
               "and design page (:doc:`turbomem_design`), each with the section it comes "
               "from, the command that tests it here, the figure it gave and a verdict. "
               "The page is generated from the results of one command, "
               "``scripts/bench.sh evidence`` (about 10 minutes on 2 vCPUs), by "
               "``scripts/bench_report.py evidence``; nothing on it is typed by hand. "
               "A refuted claim stays here as refuted: that is a result.")
    L += ["",
          "Machine and run",
          "---------------",
          ""]
    L += bullets([
        "CPU: %s%s (%s CPUs%s)" % (
            m.get("cpu", "?"), ", " + m["cpu_id"] if m.get("cpu_id") else "",
            m.get("cpus", "?"),
            ", %s guest" % m["hypervisor"] if m.get("hypervisor") else ""),
        "Kernel: %s; THP: ``%s``" % (m.get("kernel", "?"), m.get("thp", "?")),
        "DPDK: %s (installed; testpmd and the bench build against it)" % m.get("dpdk", "?"),
        "Run: ``%s`` of commit %s, %s to %s" % (
            "scripts/bench.sh " + m.get("mode", "?"), m.get("commit", "?"),
            m.get("when_start", "?"), m.get("when_end", "?")),
        "Load average (1, 5, 15 min) at start: %s; at end: %s" % (
            m.get("load_start", "?"), m.get("load_end", "?")),
        "Huge pages: %s" % m.get("hugepages", "?")])
    if m.get("mode") == "evidence-short":
        L += prose("This page comes from ``evidence-short``: seconds-long measurements "
                   "with small pools, a check that every row can be produced; its "
                   "figures are not evidence.") + [""]
    try:
        load = float(m.get("load_start", "0").split()[0])
    except ValueError:
        load = 0
    if load > 0.5 * float(m.get("cpus", "2") or 2):
        L += prose("The machine was shared while this ran (load above). "
                   "Ratios within one run, handlers interleaved round by round, are what "
                   "the figures can support; absolute rates are low and noisy.") + [""]
    L += prose("Verdicts: a claimed gain is reproduced when the measured ratio reaches "
               "%d%% of the claimed one; a comparative word when the condition given in its "
               "row holds (\"faster\": %.2fx ring_mp_mc or more; \"about the same\": "
               "within +-%d%% of it, \"or slower\" / \"or faster\" opening one side). " % (
                   TOL_GAIN * 100, FASTER, TOL_FIGURE * 100) +
               "\"not testable here\" says why; \"missing\" means the results directory "
               "has no result for the row. "
               "Each row names the parts of the run it reads; their commands are under "
               "`Commands of this run`_.")
    L += ["",
          "Claims",
          "------",
          "",
          ".. list-table:: Claims, figures and verdicts",
          "   :header-rows: 1",
          "   :widths: 5 32 13 28 22",
          ""]
    L += rst_cell("#", True) + rst_cell("Claim (who)", False) + \
        rst_cell("Parts run", False) + rst_cell("Figure (machine)", False) + \
        rst_cell("Verdict", False)
    for c in cl:
        cmds = []
        for p in c.parts:
            keys = [k for k in res.cmds if k == p or
                    (p.endswith("*") and k.startswith(p[:-1])) or
                    re.match(re.escape(p) + r"-r\d+$", k)]
            for k in keys[:1]:
                cmds.append(":ref:`%s <%s>`," % (k, cmd_label(k)))
        if cmds:
            cmds[-1] = cmds[-1].rstrip(",")
        if not cmds:
            cmds = ["(none in this set)" if not c.parts else
                    "(no command recorded: %s)" % ", ".join(c.parts)]
        L += rst_cell("%s" % c.cid, True)
        L += rst_cell(cell_prose(rst_escape(c.text), "*%s*" % c.who), False)
        L += rst_cell(cmds, False)
        fig = rst_escape(c.figure) if c.figure else "missing"
        L += rst_cell(cell_prose(fig, "(%s)" % rst_escape(c.machine or "?")), False)
        L += rst_cell(cell_prose("**%s**" % c.verdict, rst_escape(c.why)), False)
    L += [""]

    # The model.
    L += ["MODEL: TLB entries a packet stream needs",
          "----------------------------------------",
          ""]
    L += prose("This section is a model, not a measurement of TLB misses (this machine "
               "%s). " % ("has no PMU" if "n/a" in (res.find("hw", "turbomem") or {}).get(
                   "status", "n/a") else "has a PMU: see P3 and T1 for measured misses") +
               "The pages scenario records, for each window of 1000 packets of the deep "
               "workload (half the pool in flight), the mbuf header and data line "
               "addresses, and counts the distinct pages among them at 4 KB, 2 MB and 1 GB "
               "granularity: the TLB entries that window needs were the pool mapped with "
               "pages of that size. "
               "A window needing more entries than the data TLB holds misses on most "
               "packets; the row's memory is what the pool was really mapped with.")
    L += [""]
    mr = model_rows(res)
    tlb = next((e for _, _, _, e in mr if e.get("tlb_src")), {})
    if tlb.get("tlb_src", "").startswith("cpuid"):
        L += prose("Data TLB of this CPU (%s): L1 %s / %s / %s entries, L2 %s / %s / %s "
                   "entries for 4 KB / 2 MB / 1 GB pages (0: none reported; a hypervisor "
                   "may hide them)." % (tlb["tlb_src"], tlb.get("l1d_4k"), tlb.get("l1d_2m"),
                                        tlb.get("l1d_1g"), tlb.get("l2d_4k"), tlb.get("l2d_2m"),
                                        tlb.get("l2d_1g"))) + [""]
    else:
        L += prose("Data TLB sizes: not read (%s)." % rst_escape(
            tlb.get("tlb_src", "no pages results"))) + [""]
    if not mr:
        L += ["Model inputs: missing (no pages results).", ""]
    else:
        rows = []
        for h, mem, r, e in mr:
            def f(k):
                try:
                    return "%.0f" % float(e.get(k))
                except (TypeError, ValueError):
                    return "?"
            after = {"4k": num(r["pages_4k_per_1000"]), "2m": num(r["pages_2m_per_1000"]),
                     "1g": num(e.get("pages_1g"))}
            size = {"thp": "2m", "hugetlbfs": "2m" if mem == "2m" else "1g",
                    "4k": "4k"}.get(r["backing"], "4k")
            fits = "?"
            try:
                l1, l2 = int(tlb["l1d_" + size]), int(tlb["l2d_" + size])
                need = after[size]
                def fit(n):
                    return "?" if not n else ("yes" if need <= n else "no")
                fits = "%.0f x %s: %s / %s" % (
                    need, size.upper().replace("K", " KB").replace("M", " MB").replace(
                        "G", " GB"), fit(l1), fit(l2))
            except (KeyError, ValueError, TypeError):
                pass
            rows.append([h, "%s (%s)" % (memname(mem), r["backing"])] + [
                "%s -> %s" % (f("fresh_" + k),
                              "%.0f" % after[k] if after[k] is not None else "?")
                for k in ("4k", "2m", "1g")] + [fits])
        L += simple_table(
            "MODEL: distinct pages per 1000 packets (fresh pool -> after drops)",
            ["Handler", "Memory (backing)", "4 KB pages", "2 MB pages",
             "1 GB pages", "Fit L1 / L2 dTLB"], rows, (12, 26, 14, 12, 12, 24))
        L += prose("Fit: the entries a window needs after drops at the page size the "
                   "pool got, and whether the L1 and the L2 data TLB hold that many "
                   "(?: size not reported).") + [""]
    L += seed003_reading(res, cl, mr, tlb)

    # Every command, each under the label the claims link to.
    L += ["Commands of this run",
          "--------------------",
          ""]
    L += prose("In the order run (``scripts/bench.sh evidence`` runs them all, reserving "
               "and releasing the huge pages; ``/tmp/tm-evidence-1g.*`` is its private "
               "1 GB hugetlbfs mount). "
               "``$B`` is ``build/app/test-turbomem/dpdk-test-turbomem``; "
               "the bench commands write their rows with ``--csv`` and ``--json``, "
               "testpmd's go to ``TM_RESULTS_DIR``.") + [""]
    if res.cmds:
        for k, v in res.cmds.items():
            # Rounds of one part run one command: written once, under the first.
            m = re.match(r"(.*)-r\d+$", k)
            same = [j for j in res.cmds if m and res.cmds[j] == v and
                    re.fullmatch(re.escape(m.group(1)) + r"-r\d+", j)]
            if same and same[0] != k:
                continue
            n = len(same)
            L += [".. _%s:" % cmd_label(k), "",
                  "``%s``%s:" % (k, "" if n <= 1 else " (round 2 too)" if n == 2
                                 else " (rounds 2 to %d too)" % n),
                  "", ".. code-block:: none", ""]
            L += ["   " + l for l in shell_lines(shorten(v), RST_WIDTH - 3)] + [""]
    else:
        L += ["(none recorded)", ""]
    if res.failed:
        L += ["Failed in this run (their rows show as missing):", ""]
        L += bullets("%s: %s" % (k, rst_escape(v)) for k, v in res.failed.items())
    if res.nt:
        L += ["Not testable on this machine:", ""]
        L += bullets("%s: %s" % (k, rst_escape(v)) for k, v in res.nt.items())
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(L))
    print("bench_report.py evidence: %d claims -> %s" % (len(cl), path), file=sys.stderr)
    # DPDK's documentation rule, which scripts/check-style.sh enforces
    long = ["%s:%d: %d columns" % (path, i + 1, len(l))
            for i, l in enumerate("\n".join(L).split("\n")) if len(l) > RST_WIDTH + 1]
    if long:
        sys.exit("bench_report.py evidence: lines over %d columns:\n  %s"
                 % (RST_WIDTH + 1, "\n  ".join(long)))


def worker_spread(status):
    """The spread a grid row of several workers reports in its status (the
    largest ratio of one worker's objects to another's in a round, above
    GRID_SPREAD_NOTE: bench_grid.c), 0 where it reports none (all within
    it), inf where a worker got no object."""
    if "a worker got no object" in status:
        return float("inf")
    m = re.search(r"a worker got ([0-9.]+)x the objects of another", status)
    return float(m.group(1)) if m else 0.0


def ab(parts_dir, variants):
    """scripts/ab.sh's parts ROUND-VARIANT-RUN.csv: for each row (scenario,
    layout, bulk, keep, cache), each variant's median over the rounds of
    turbomem's figure / ring_mp_mc's in the same EAL run, every round's
    ratio, the median failed CAS attempts per call (pipeline rows) and, for
    rows of several workers, the rounds in which one worker got more than
    GRID_SPREAD_NOTE times the objects of another (bench_grid.c's status),
    turbomem's and ring_mp_mc's. Rows of a bytes-per-object figure
    (memory): each variant's turbomem bytes per object, ring_mp_mc's
    beside it."""
    pat = re.compile(r"^(\d+)-(%s)-[a-z0-9]+\.csv$"
                     % "|".join(re.escape(v) for v in variants))
    ratios, retries, order, header = {}, {}, [], {}
    starved = {}  # (key, variant, handler): one spread a round, 0 if none
    slowest = {}  # (key, variant, handler): the slowest worker's %, a round
    mem, morder = {}, []  # (key, variant): [turbomem B/obj, ring B/obj]
    names = sorted(os.listdir(parts_dir)) if os.path.isdir(parts_dir) else []
    for name in names:
        m = pat.match(name)
        if not m:
            continue
        h, rows = read_part(os.path.join(parts_dir, name))
        header = header or h
        base = {}
        for r in rows:
            key = (r["scenario"], r["layout"], r["bulk"], r["keep"], r["cache"])
            if r["handler"] == BASELINE:
                base[key] = num(r["mobj_per_s"])
            if (r["scenario"] == "grid" and num(r["workers"]) > 1 and
                    r["handler"] in ("turbomem", BASELINE)):
                sp = worker_spread(r["status"])
                starved.setdefault((key, m.group(2), r["handler"]), []).append(sp)
                sh = re.search(r"slowest worker ([0-9.]+)% of the objects",
                               r["status"])
                if sh:
                    slowest.setdefault((key, m.group(2), r["handler"]),
                                       []).append(float(sh.group(1)))
        for r in rows:
            key = (r["scenario"], r["layout"], r["bulk"], r["keep"], r["cache"])
            b = num(r.get("bytes_per_obj"))
            if b is not None and r["handler"] in ("turbomem", BASELINE):
                if key not in morder:
                    morder.append(key)
                mem.setdefault((key, m.group(2)), [None, None])[
                    r["handler"] == BASELINE] = b
                continue
            tm, ring = num(r["mobj_per_s"]), base.get(key)
            if r["handler"] != "turbomem" or not tm or not ring:
                continue
            if key not in order:
                order.append(key)
            ratios.setdefault((key, m.group(2)), []).append(tm / ring)
            c = re.search(r"([0-9.]+) CAS retries per call", r["status"])
            if c:
                retries.setdefault((key, m.group(2)), []).append(float(c.group(1)))
    if not order:
        sys.exit("bench_report.py ab: no turbomem and %s rows of %s in %s"
                 % (BASELINE, ", ".join(variants), parts_dir))
    print("# cpu: %s; dpdk: %s; kernel: %s" % (header.get("cpu", "?"),
          header.get("dpdk", "?"), header.get("kernel", "?")))
    print("# turbomem / %s in the same EAL run: median over the rounds "
          "[each round]; CAS: failed CAS attempts per driver call (median); "
          "starved: rounds where a worker got over 2x the objects of another "
          "(the largest such ratio), turbomem's then %s's; slowest: the "
          "slowest worker's share of the objects (median of the rounds), "
          "turbomem's then %s's" % (BASELINE, BASELINE, BASELINE))
    missing = 0
    for key in order:
        sc, layout, bulk, keep, cache = key
        print("%s, %s, bulk %s%s, cache %s" % (
            sc, layout, bulk, "" if keep in ("", "-") else ", keep " + keep,
            cache))
        for v in variants:
            rs = ratios.get((key, v))
            if not rs:
                print("  %-16s missing" % v)
                missing += 1
                continue
            cas = retries.get((key, v))
            st = ""
            sp = [starved.get((key, v, h)) for h in ("turbomem", BASELINE)]
            if sp[0] is not None or sp[1] is not None:
                st = "  starved " + ", ".join(
                    "%d/%d%s" % (sum(x > 0 for x in q), len(q),
                                 " (%.1fx)" % max(q) if max(q) > 0 else "")
                    for q in (x or [0] * len(rs) for x in sp))
            sl = [slowest.get((key, v, h)) for h in ("turbomem", BASELINE)]
            if sl[0] and sl[1]:
                st += "  slowest %.1f%%, %.1f%%" % (
                    statistics.median(sl[0]), statistics.median(sl[1]))
            print("  %-16s %6.3fx [%s]%s%s" % (
                v, statistics.median(rs), " ".join("%.3f" % x for x in rs),
                "  CAS %.3f" % statistics.median(cas) if cas else "", st))
    for key in morder:
        print("%s, %s: turbomem bytes per object (%s's)" % (
            key[0], key[1], BASELINE))
        for v in variants:
            tb, rb = mem.get((key, v), [None, None])
            if tb is None:
                print("  %-16s missing" % v)
                missing += 1
                continue
            print("  %-16s %8.2f (%s)" % (v, tb, "%.2f" % rb if rb else "-"))
    if missing:
        sys.exit("bench_report.py ab: %d rows missing (above)" % missing)


def evidence(a):
    if len(a) != 2:
        sys.exit(__doc__)
    res = Results(a[0])
    cl = claims(res)
    write_page(res, cl, a[1])


# --- results ------------------------------------------------------------------

RESULTS_MARK = "generated by scripts/bench_report.py results: do not edit"
README_BEGIN = ".. results-begin (%s)" % RESULTS_MARK
README_END = ".. results-end"
# How a page of results-short says so, at the start of a line.
SHORT_PAGE = "This version comes from ``scripts/bench.sh results-short``"
# The guard: a turbomem ratio below GUARD of the same cell's on the page
# being replaced (above 1 / GUARD of it where lower is better) stops the
# page from being written, unless accepted with a reason.
GUARD = 0.8
# testpmd memories (bench.sh's testpmd_compare names), in the page's order
TP_MEMS = {"nohuge": "``--no-huge``", "2m-pa": "2 MB hugetlbfs, IOVA as PA",
           "2m-va": "2 MB hugetlbfs, IOVA as VA", "2m": "2 MB hugetlbfs",
           "1g": "1 GB hugetlbfs"}
# The README's few cells: (label, scenario, layout, fields of the row) of
# turbomem_bench, (label, "testpmd", memory, mbcache) of testpmd.
README_CELLS = (
    ("get/put, 1 lcore, bulk 16, keep 32, no cache", "grid", "1 lcore",
     {"bulk": "16", "keep": "32", "cache": "0"}),
    ("get/put, 1 lcore, bulk 16, keep 32, cache 512", "grid", "1 lcore",
     {"bulk": "16", "keep": "32", "cache": "512"}),
    ("get/put, 6 lcores on 2 CPUs, bulk 16, keep 32, no cache", "grid", "6 on 2 CPUs",
     {"bulk": "16", "keep": "32", "cache": "0"}),
    ("get/put, 2 pinned lcores, bulk 16, keep 32, cache 512", "grid", "2 pinned",
     {"bulk": "16", "keep": "32", "cache": "512"}),
    ("pipeline, 2 pinned lcores, bulk 32, no cache", "pipeline", "2 pinned",
     {"bulk": "32", "cache": "0"}),
    ("pipeline, 2 pinned lcores, bulk 32, cache 512", "pipeline", "2 pinned",
     {"bulk": "32", "cache": "512"}),
    ("deep, half the pool in flight, ``--no-huge``", "deep", "main lcore",
     {"mem": "nohuge"}),
    ("testpmd, ``--no-huge``, mbcache 0", "testpmd", "nohuge", "0"),
    ("testpmd, 2 MB hugetlbfs IOVA as PA, mbcache 0", "testpmd", "2m-pa", "0"),
    ("testpmd, ``--no-huge``, mbcache 250", "testpmd", "nohuge", "250"),
    ("rte_mempool_avail_count(), 262143 objects", "contract", "2 pinned", {}),
    ("memory, 262143 objects of 64 bytes", "memory", "64 B objs", {}),
)
# The handlers the README's block gives beside the baseline, where measured.
README_HANDLERS = ("turbomem", "pile")


def rst_text(c):
    """A table cell: escaped, "-" (a bullet list on its own) as text."""
    c = rst_escape(c)
    return "\\-" if c == "-" else c


def rst_table(caption, header, rows):
    """A simple table where it fits in the page's width, else a
    list-table (one cell a line)."""
    header = [rst_text(c) for c in header]
    rows = [[rst_text(c) for c in r] for r in rows]
    widths = [max(len(c) for c in col) for col in zip(header, *rows)]
    if 3 + sum(widths) + len(widths) - 1 <= RST_WIDTH + 1 and \
            all(r[0] for r in rows):
        return simple_table(caption, header, rows)
    L = [".. list-table:: " + caption, "   :header-rows: 1", ""]
    for r in [header] + rows:
        for i, c in enumerate(r):
            L.append(("   * -" if i == 0 else "     -") + (" " + c if c else ""))
    return L + [""]


def drivers_at(d):
    """machine.txt's "driver" (the last commit of drivers/, "-dirty" with
    local changes there) in words."""
    if not d or d == "unknown":
        return ""
    if d.endswith("-dirty"):
        return "drivers/ last changed in %s, and changed locally" % d[:-6]
    return "drivers/ last changed in %s" % d


def run_facts(res):
    """{cpu, cpus, guest, dpdk, testpmd_dpdk, commit, when, command, load,
    short} of a results directory: machine.txt (bench.sh), else the parts'
    headers."""
    m = res.machine
    h = next(iter(res.headers.values()), {})
    dpdk = h.get("dpdk", "").replace("DPDK ", "") or m.get("dpdk", "?")
    return {
        "cpu": m.get("cpu") or h.get("cpu", "?"),
        "cpus": m.get("cpus") or h.get("cpus_online", "?"),
        "guest": ", %s guest" % m["hypervisor"] if m.get("hypervisor") else "",
        "kernel": m.get("kernel") or h.get("kernel", "?"),
        "dpdk": dpdk,
        "testpmd_dpdk": m.get("testpmd_dpdk", ""),
        "commit": m.get("commit", "?"),
        "driver": drivers_at(m.get("driver", "")),
        "when": "%s to %s" % (m.get("when_start", h.get("date", "?")),
                              m.get("when_end", "?")),
        "command": m.get("command", "scripts/bench.sh " + m.get("mode", "results")),
        "load": "%s at start, %s at end" % (m.get("load_start", "?"),
                                            m.get("load_end", "?")),
        "short": m.get("mode", "").endswith("-short"),
    }


def tp_cell(res, mem, cache, handler):
    """(Mpps, ratios to the baseline per round) of a testpmd cell."""
    return res.tpmd(mem, handler, cache), res.tpmd_ratios(mem, handler, cache)


def tp_mems(res):
    have = {k[0] for k in res.testpmd}
    return [m for m in TP_MEMS if m in have] + sorted(have - set(TP_MEMS))


def results_page(res, accepted=None):
    """The page's lines and a line saying what it holds; accepted: (reason,
    regressions) of a page written with turbomem ratios below GUARD of the
    page it replaces."""
    f = run_facts(res)
    scen = scenarios_of(os.path.join(res.d, "bench.csv"))
    L = [".. SPDX-License-Identifier: BSD-3-Clause",
         "   Copyright(c) 2026 The turbomem authors",
         "",
         ".. %s" % RESULTS_MARK,
         "   (from the results of scripts/bench.sh results)",
         "",
         ".. _turbomem_results:",
         "",
         "Turbomem Results",
         "================",
         ""]
    L += prose("turbomem against DPDK's default mempool handler, ``%s``, and the other "
               "handlers of DPDK, on one machine: the ``turbomem_bench`` scenarios of "
               "``scripts/bench.sh full``, then testpmd forwarding on each memory. "
               "Each figure is a ratio to ``%s`` measured in the same run, the handlers "
               "taking turns round by round, since the speed of a shared machine drifts; "
               "``%s``'s own figure is absolute. "
               "``scripts/bench.sh results`` (about 75 minutes on 2 vCPUs) measures it all "
               "and generates this page "
               "with ``scripts/bench_report.py results``: run it again rather than edit "
               "the page." % (BASELINE, BASELINE, BASELINE))
    L += [""]
    if f["short"]:
        L += prose(SHORT_PAGE + ": "
                   "seconds-long measurements with small pools, which check that every "
                   "cell can be produced; its figures are not evidence.") + [""]
    L += ["Run", "---", ""]
    L += bullets([
        "CPU: %s (%s CPUs%s); kernel: %s" % (f["cpu"], f["cpus"], f["guest"],
                                           f["kernel"]),
        "DPDK: %s%s" % (f["dpdk"], "; testpmd: %s" % f["testpmd_dpdk"]
                        if f["testpmd_dpdk"] and f["testpmd_dpdk"] != f["dpdk"] else ""),
        "Commit: %s%s" % (f["commit"], "; %s" % f["driver"] if f["driver"] else ""),
        "Date: %s; load average (1, 5, 15 min): %s" % (f["when"], f["load"]),
        "Command, from the top of the tree:"])
    L[-1:] = [""]
    # one setting a line: the command stays within the page's width
    words = shlex.split(f["command"])
    env = 0
    while env < len(words) and re.match(r"^\w+=", words[env]):
        env += 1
    L += ["  .. code-block:: console", ""]
    L += ["     %s \\" % shlex.quote(w) for w in words[:env]]
    L += ["     " + " ".join(shlex.quote(w) for w in words[env:]), ""]
    if accepted:
        L += accepted_block(*accepted)

    # turbomem_bench
    L += ["turbomem_bench", "--------------", ""]
    L += prose("The scenarios and parameters of ``scripts/bench.sh full``, "
               "each described in ``app/test-turbomem/bench_<scenario>.c``. "
               "Each cell: the handler's figure over ``%s``'s, the median of the rounds' "
               "ratios; ``%s``'s column: its own figure, the median of the rounds. "
               "\"-\": skipped; \"n/a\": no hardware counters." % (BASELINE, BASELINE))
    L += [""]
    ratio_rows = [r for r in res.rows if r["scenario"] not in CRASH_SCENARIOS]
    trows, handlers = table_rows(ratio_rows, scen) if ratio_rows else ([], [])
    if not trows:
        L += ["No turbomem_bench results.", ""]
    for sc in dict.fromkeys(t["scenario"] for t in trows):
        ts = [t for t in trows if t["scenario"] == sc]
        title = "%s (%s, %s is better)" % (sc, ts[0]["unit"],
                                          "higher" if ts[0]["higher"] else "lower")
        L += [title, "~" * len(title), ""]
        for layout in dict.fromkeys(t["layout"] for t in ts):
            tl = [t for t in ts if t["layout"] == layout]
            hs = [h for h in handlers if h != BASELINE and
                  any(t["cells"].get(h) for t in tl)]
            # the parameters a column each where the rows name the same
            pn = [n for n, _ in tl[0]["pcols"]]
            if pn and all([n for n, _ in t["pcols"]] == pn for t in tl):
                head, pv = pn, [[v or "-" for _, v in t["pcols"]] for t in tl]
            else:
                head, pv = ["parameters"], [[t["params"] or "-"] for t in tl]
            L += rst_table("%s, %s" % (sc, layout), head + [BASELINE] + hs,
                           [p + [t["base"]] + [t["cells"].get(h, "") for h in hs]
                            for p, t in zip(pv, tl)])
    notes = sorted({r["status"].split(";")[0] for r in ratio_rows
                    if r["status"].split(";")[0] not in ("ok", "")})
    if notes:
        L += ["Rows not measured, and why:", ""]
        L += bullets(rst_escape(n) for n in notes)

    L += crash_block(res)

    # testpmd
    L += ["testpmd", "-------", ""]
    L += prose("testpmd io forwarding between two ``net_null`` ports, one forwarding lcore, "
               "run by ``scripts/testpmd.py compare``: every mempool handler, mbuf cache size "
               "and memory, the memories taking turns round by round. "
               "Mpps: the median of the kept 1 s samples of all rounds; ratio: the median, "
               "and the range, of each round's ratio to ``%s`` on the same memory." % BASELINE)
    L += [""]
    mems = tp_mems(res)
    if not mems:
        L += ["No testpmd results.", ""]
    else:
        ths = list(dict.fromkeys([k[1] for k in res.testpmd] +
                                 list(res.testpmd_skipped)))
        ths = [h for h in ths if h == BASELINE] + [h for h in ths if h != BASELINE]
        caches = sorted({k[2] for k in res.testpmd}, key=lambda c: int(c) if c.isdigit() else 0)
        rows = []
        for mem in mems:
            for c in caches:
                row = [TP_MEMS.get(mem, mem), c]
                for h in ths:
                    mpps, rr = tp_cell(res, mem, c, h)
                    row.append("%.2f" % mpps if mpps is not None else "-")
                    if h != BASELINE:
                        row.append("%.2fx (%.2f-%.2f)" % (statistics.median(rr), min(rr),
                                                          max(rr)) if rr else "-")
                rows.append(row)
        header = ["memory", "mbcache"]
        for h in ths:
            header.append("%s Mpps" % h)
            if h != BASELINE:
                header.append("%s / %s" % (h, BASELINE))
        L += rst_table("testpmd io forwarding, 2 x net_null", header, rows)
        if res.testpmd_skipped:
            L += ["Handlers not measured (\"-\"), and why:", ""]
            L += bullets(rst_escape(w) for w in res.testpmd_skipped.values())
        opts = {}
        for k, v in res.cmds.items():
            m = re.match(r"testpmd-(.*)-r\d+$", k)
            for a in v.split("\x1f"):
                if m and a.startswith("TM_CMP_MEM_OPTS="):
                    opts.setdefault(m.group(1), a.split("=", 1)[1])
        if opts:
            L += ["EAL memory options:", ""]
            L += bullets("%s: ``%s``" % (TP_MEMS.get(m, m), o) for m, o in opts.items())
    L += vs_dpdk_section(res)
    gone = ["%s: %s" % (k, v) for k, v in list(res.failed.items()) + list(res.nt.items())]
    if gone:
        L += ["Not measured in this run:", ""]
        L += bullets(rst_escape(g) for g in gone)
    while L and L[-1] == "":
        L.pop()
    return L, "%d turbomem_bench rows, testpmd on %d memories" % (len(trows), len(mems))


def vs_dpdk_section(res):
    """The results page's section of DPDK's mempool_perf_autotest
    (bench.sh vs-dpdk's vs-dpdk.csv in the results), or nothing."""
    path = os.path.join(res.d, "vs-dpdk.csv")
    if not os.path.exists(path):
        return []
    rows = read_merged(path)
    hs = list(dict.fromkeys(r["handler"] for r in rows if r["handler"] != BASELINE))
    by = {(r["handler"], r["cores"], r["cache"], r["bulk"], r["keep"]): r for r in rows}
    cells = list(dict.fromkeys((r["cores"], r["cache"], r["bulk"], r["keep"]) for r in rows))
    L = ["DPDK's mempool_perf_autotest", "----------------------------", ""]
    L += prose("DPDK's own benchmark (``dpdk-test``'s ``mempool_perf_autotest`` of the DPDK "
               "measured, %s) on each handler as its default pool (``--mbuf-pool-ops-name``), "
               "run by ``scripts/bench.sh vs-dpdk``: its cases of equal get and put bulks "
               "1, 4 and 32, keeps 32, 128 and 512, 1 and 2 cores, without a cache and with "
               "its cache of 512. Mobj/s: the best of the rounds; ratio: the median of the "
               "rounds' ratios to ``%s`` in the same autotest run; grid / autotest: "
               "turbomem_bench's grid on the same case, which the tables above use." % (
                   res.machine.get("dpdk", "?"), BASELINE))
    L += [""]
    cmd = os.path.join(res.d, "vs-dpdk.cmd")
    if os.path.exists(cmd):
        with open(cmd) as fp:
            L += ["The command, on %s::" % res.machine.get("cpu", "?"), ""]
            L += ["   " + x for x in fp.read().strip().split("\n")] + [""]
    table = []
    for c in cells:
        b = by.get((BASELINE,) + c, {})
        row = list(c) + [b.get("autotest_mobj_s") or "-"]
        for h in hs:
            e = by.get((h,) + c, {})
            row += [e.get("autotest_mobj_s") or "-",
                    "%.2fx" % float(e["autotest_ratio"]) if e.get("autotest_ratio") else "-"]
        table.append(row)
    header = ["cores", "cache", "bulk", "keep", "%s Mobj/s" % BASELINE]
    for h in hs:
        header += ["%s Mobj/s" % h, "%s / %s" % (h, BASELINE)]
    L += rst_table("mempool_perf_autotest, no cache and cache 512", header, table)
    agree = [float(r["grid_at"]) for r in rows if r.get("grid_at")]
    if agree:
        L += prose("grid / autotest over these cases and handlers: median %.2f, %.2f to %.2f." % (
            statistics.median(agree), min(agree), max(agree)))
        L += [""]
    missing = [h for h in hs if not any(by.get((h,) + c, {}).get("autotest_mobj_s")
                                        for c in cells)]
    if missing:
        L += prose("No autotest figures for %s: the autotest could not use it as its "
                   "default pool on this DPDK (its log: ``vs-dpdk-mempool_perf.log``)." %
                   ", ".join("``%s``" % h for h in missing))
        L += [""]
    return L


def readme_block(res):
    """The README's table of a few key cells and its line."""
    f = run_facts(res)
    scen = scenarios_of(os.path.join(res.d, "bench.csv"))
    hs = [h for h in README_HANDLERS if h == "turbomem" or any(
        r["handler"] == h and r.get("status") == "ok" for r in res.rows)]
    rows = []
    for label, sc, where, sel in README_CELLS:
        if sc == "testpmd":
            b = res.tpmd(where, BASELINE, sel)
            row = [label, "%.2f Mpps" % b if b is not None else "missing"]
            for h in hs:
                rr = tp_cell(res, where, sel, h)[1]
                row.append("%.2fx" % statistics.median(rr) if rr else "missing")
            rows.append(row)
            continue
        pick = [r for r in res.rows if r["scenario"] == sc and r["layout"] == where and
                all(r.get(k) == v for k, v in sel.items())]
        if not pick:
            continue
        base = next((r for r in pick if r["handler"] == BASELINE), None)
        bv, unit, hib = figure(base, scen) if base else (None, "", True)
        if not hib:
            label += " (%s: lower is better)" % unit.split("/")[0]
        row = [label, "%.4g %s" % (bv, unit) if bv is not None else "missing"]
        for h in hs:
            r = next((r for r in pick if r["handler"] == h), None)
            row.append(ratio_cell(r, base, scen) if r else "missing")
        rows.append(row)
    cr = crash_readme_row(res, hs)
    if cr:
        rows.append(cr)
    B = [README_BEGIN, ""]
    B += rst_table("turbomem's figure over %s's, measured in the same run%s" % (
                   BASELINE, ", and pile's" if "pile" in hs else ""),
                   ["Measurement", BASELINE] + hs, rows)
    B += prose("%s on %s (%s CPUs), DPDK %s, commit %s%s; every cell and the command: "
               "`Turbomem Results <doc/guides/mempool/turbomem_results.rst>`__." % (
                   "A seconds-long check, not evidence," if f["short"] else "Measured",
                   f["cpu"], f["cpus"], f["dpdk"], f["commit"],
                   " (%s)" % f["driver"] if f["driver"] else ""))
    return B + ["", README_END]


README_BLOCK = re.compile(r"^%s\n.*?^%s$" % (re.escape(README_BEGIN), re.escape(README_END)),
                          re.S | re.M)


def readme_text(path):
    """The README's text; exits unless it has the block."""
    with open(path) as fp:
        s = fp.read()
    if not README_BLOCK.search(s):
        sys.exit("bench_report.py results: %s has no block between the lines\n  %s\n"
                 "and\n  %s" % (path, README_BEGIN, README_END))
    return s


def update_readme(res, path):
    s = README_BLOCK.sub(lambda _: "\n".join(readme_block(res)), readme_text(path), count=1)
    with open(path, "w") as fp:
        fp.write(s)
    print("bench_report.py results: key cells -> %s" % path, file=sys.stderr)


def pop_opt(a, opt):
    """The value of "OPT VALUE" in a (taken out of it), or None."""
    if opt not in a:
        return None
    i = a.index(opt)
    if i + 1 >= len(a):
        sys.exit(__doc__)
    v = a[i + 1]
    del a[i:i + 2]
    return v


def pop_readme(a):
    """The README of "--readme README" in a (taken out of it), or None;
    exits unless two arguments are left."""
    readme = pop_opt(a, "--readme")
    if len(a) != 2:
        sys.exit(__doc__)
    return readme


# --- the guard: a results page that got worse ---------------------------------

def unescape(c):
    """A cell's text as rst_text wrote it, back."""
    return re.sub(r"\\(.)", r"\1", c)


def page_tables(text):
    """(caption, header, rows, higher) of each table of a page that
    rst_table wrote (a simple table or a list-table of one line a cell);
    higher: False under a "(..., lower is better)" title."""
    lines = text.split("\n")
    out, higher = [], True
    for i, l in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"~{3,}", lines[i + 1]):
            higher = not l.endswith("lower is better)")
        m = re.match(r"\.\. (list-)?table:: (.*)", l)
        if not m:
            continue
        if m.group(1):
            rows = []
            for x in lines[i + 1:]:
                if x.startswith("   * -"):
                    rows.append([x[6:].strip()])
                elif x.startswith("     -") and rows:
                    rows[-1].append(x[6:].strip())
                elif x.startswith("       ") and rows:
                    rows[-1][-1] += " " + x.strip()
                elif x and not x.startswith("   :"):
                    break
        else:
            rules = [j for j in range(i + 1, len(lines))
                     if re.fullmatch(r" *=+( +=+)*", lines[j])][:3]
            if len(rules) < 3:
                continue
            starts = [c.start() for c in re.finditer(r"=+", lines[rules[0]])]
            ends = starts[1:] + [None]
            rows = [[x[a:b].strip() for a, b in zip(starts, ends)]
                    for x in [lines[rules[0] + 1]] + lines[rules[1] + 1:rules[2]]]
        if rows:
            rows = [[unescape(c) for c in r] for r in rows]
            out.append((m.group(2), rows[0], rows[1:], higher))
    return out


def page_ratios(text):
    """{(scenario, cell): (ratio, as shown less its "x", higher is better)}
    of turbomem's ratios to BASELINE on a results page, a cell named by the
    table's layout and the row's parameters ("1000 chunks, bulk 16, keep
    128, cache 0"); testpmd's by memory and mbcache. Cells without a ratio
    ("-", "n/a", absolute figures) are left out."""
    out = {}
    for cap, head, rows, higher in page_tables(text):
        if "turbomem" in head and BASELINE in head:
            sc, _, layout = cap.partition(", ")
            col, npar = head.index("turbomem"), head.index(BASELINE)
            names = head[:npar]
        elif "turbomem / " + BASELINE in head:
            sc, layout, higher = "testpmd", "", True
            col, npar = head.index("turbomem / " + BASELINE), 2
            names = head[:npar]
        else:
            continue
        for r in rows:
            if names == ["parameters"]:
                par = r[:1]
            else:
                par = ["%s %s" % nv for nv in zip(names, r[:npar])]
            if sc == "testpmd":
                par[0] = r[0]
            cell = ", ".join(p for p in [layout] + par if p).replace("``", "")
            m = re.fullmatch(r"(\d[\d.e+-]*)x", (r[col].split() or [""])[0])
            if m and num(m.group(1)) is not None:
                out[(sc, cell)] = (num(m.group(1)), m.group(1), higher)
    return out


def regressions(old, new):
    """[(scenario, cell, old, new)] of the cells of both page_ratios where
    new keeps less than GUARD of old (its inverse where lower is better)."""
    out = []
    for k, (nv, nt, higher) in new.items():
        if k not in old or old[k][0] <= 0:
            continue
        ov, ot = old[k][:2]
        kept = nv / ov if higher else (ov / nv if nv > 0 else float("inf"))
        if kept < GUARD:
            out.append(k + (ot, nt))
    return out


def guard(res, lines, path):
    """The regressions of the page of lines against the page at path, the
    one it replaces; says what it compared. Nothing is compared where
    either page is of results-short (its figures are not evidence)."""
    def say(s):
        print("bench_report.py results: " + s, file=sys.stderr)
    if run_facts(res)["short"]:
        say("a page of results-short: its figures are not compared with %s's" % path)
        return []
    if not os.path.exists(path):
        say("no page at %s: nothing to compare against" % path)
        return []
    with open(path) as fp:
        text = fp.read()
    if any(l.startswith(SHORT_PAGE) for l in text.split("\n")):
        say("%s is a page of results-short: nothing to compare against" % path)
        return []
    old, new = page_ratios(text), page_ratios("\n".join(lines))
    worse = regressions(old, new)
    say("%d turbomem ratios compared with %s's, %d below %gx of theirs" % (
        len(old.keys() & new.keys()), path, len(worse), GUARD))
    return worse


def accepted_block(reason, worse):
    """The page's section of the regressions accepted, and why."""
    L = ["Accepted Regressions", "--------------------", ""]
    L += prose("turbomem's ratio to ``%s`` in these cells fell below %gx of the one "
               "on the page this one replaced (above %.3gx where lower is better), "
               "and the page was written anyway (``TM_RESULTS_ACCEPT``)." % (
                   BASELINE, GUARD, 1 / GUARD))
    L += [""] + prose("Reason: " + rst_escape(reason).replace("`", "\\`")) + [""]
    return L + bullets(rst_escape("%s, %s: %sx, was %sx" % (sc, cell, n, o))
                       for sc, cell, o, n in worse)


def results(a):
    accept = pop_opt(a, "--accept")
    readme = pop_readme(a)
    if accept is not None and not accept.strip():
        sys.exit("bench_report.py results: --accept needs a reason")
    res = Results(a[0])
    if not res.rows and not res.testpmd:
        sys.exit("bench_report.py results: no results in %s (bench.csv, testpmd/)" % a[0])
    if readme:
        readme_text(readme)  # before the page: nothing half-done
    L, what = results_page(res)
    worse = guard(res, L, a[1])
    if worse and accept is None:
        for w in worse:
            print("REGRESSION %s %s %s -> %s" % w)
        sys.exit("bench_report.py results: %d turbomem ratios below %gx of %s's: nothing "
                 "written. To write it anyway, give the reason, which goes on the page:\n"
                 "  scripts/bench_report.py results %s %s%s --accept REASON\n"
                 "(or TM_RESULTS_ACCEPT=REASON scripts/bench.sh results, which measures "
                 "again)" % (len(worse), GUARD, a[1], shlex.quote(a[0]), shlex.quote(a[1]),
                             " --readme " + shlex.quote(readme) if readme else ""))
    if worse:
        L, what = results_page(res, (accept, worse))
        print("bench_report.py results: %d regressions accepted: %s" % (len(worse), accept),
              file=sys.stderr)
    elif accept is not None:
        print("bench_report.py results: no regression: nothing to accept", file=sys.stderr)
    os.makedirs(os.path.dirname(os.path.abspath(a[1])), exist_ok=True)
    with open(a[1], "w") as fp:
        fp.write("\n".join(L) + "\n")
    print("bench_report.py results: %s -> %s" % (what, a[1]), file=sys.stderr)
    if readme:
        update_readme(res, readme)


# --- crash and stop (bench_crash.c) --------------------------------------------

CRASH_SCENARIOS = ("crash", "stop")
CRASH_BEGIN = ".. crash-begin (generated by scripts/bench_report.py crash or results: do not edit)"
CRASH_END = ".. crash-end"
CRASH_BLOCK = re.compile(r"^%s\n.*?^%s$" % (re.escape(CRASH_BEGIN), re.escape(CRASH_END)),
                         re.S | re.M)
CRASH_README = "a secondary killed at random, every shape: pools wedged"


def crash_rows(res, sc):
    return [r for r in res.rows if r["scenario"] == sc]


def measured(r):
    """A crash or stop row with figures ("n/a": every kill wedged)."""
    return r["status"].startswith("ok") or r["status"].startswith("n/a")


def shape(r):
    return [r["cache"], r["bulk"] or "random"]


def fnum(e, k, fmt):
    v = num(e.get(k))
    return fmt % v if v is not None else "-"


def wilson(w, n):
    """The 95% Wilson score interval of w in n, in percent."""
    if n == 0:
        return "-"
    z, p = 1.96, w / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return "%.1f-%.1f%%" % (max(0, c - h) * 100, min(1, c + h) * 100)


def crash_wedged(res):
    """{handler: (wedged, kills)} over every measured crash row."""
    out = {}
    for r in crash_rows(res, "crash"):
        e = extra(r)
        if not measured(r) or num(e.get("kills")) is None:
            continue
        w, k = out.get(r["handler"], (0, 0))
        out[r["handler"]] = (w + int(num(e["wedged"])), k + int(num(e["kills"])))
    return out


def crash_readme_row(res, handlers=("turbomem",)):
    """The README's row: pools wedged per kills, ring_mp_mc and handlers
    ("-" for one not measured)."""
    w = crash_wedged(res)
    if BASELINE not in w or "turbomem" not in w:
        return None
    part = next((res.part(r["run"]) for r in crash_rows(res, "crash")), "crash")
    cpu = res.machine_of(part).split(";")[0]
    return ["%s (%s)" % (CRASH_README, cpu)] + [
        "%d of %d kills" % w[h] if h in w else "-" for h in (BASELINE,) + tuple(handlers)]


def crash_block(res):
    """The results page's section of the crash and stop scenarios, between
    its marker lines; only the markers where there are no rows."""
    cr, st = crash_rows(res, "crash"), crash_rows(res, "stop")
    L = [CRASH_BEGIN, ""]
    if not cr and not st:
        return L + [CRASH_END, ""]
    part = res.part((cr or st)[0]["run"])
    L += ["A Killed or Stopped Process", "---------------------------", ""]
    L += prose("A primary and a secondary process share one pool of %s objects in 2 MB "
               "hugepages, each on its own CPU, both in tight get/put loops of the row's "
               "bulk (random: 1 to 32) and mempool cache; with a cache, the secondary gets "
               "bulks until it holds twice the cache size, then puts them all back, so that "
               "its cache refills and flushes reach the handler (``--scenario crash`` and "
               "``stop`` of ``app/test-turbomem/bench_crash.c``, whose head describes them)."
               % (cr or st)[0]["pool_size"])
    L += [""]
    L += prose("crash: the secondary is killed with SIGKILL at a random moment (1 to 10 ms "
               "after it attached), again and again. The pool is wedged when the primary cannot complete, within 1 s, a get "
               "and a put that started after the kill (one of them bypassing its cache), or a "
               "fresh secondary cannot; its processes are then killed and a new pool takes the "
               "remaining kills. Lost: objects missing after a kill, against the victim's "
               "bound (the objects it had in flight, plus, with a cache, what its lcore cache "
               "can hold: the bench empties a dead lcore's cache, since a kill inside a cache "
               "update leaves it torn). Recovery: from the kill to the end of the primary's "
               "first get/put started after it; on CPU: less the time the primary waited for "
               "its CPU (``/proc/<pid>/schedstat``), the machine being shared. Census: after "
               "the last kill the pool is drained one object at a time; ok when no object "
               "came out twice and as many came out as ``rte_mempool_avail_count()`` said.")
    L += [""]
    L += prose("stop: the secondary is stopped with SIGSTOP for 100 ms to 1 s, then "
               "continued. Stall: the primary's longest get/put while the peer is stopped "
               "(on CPU: less the time it waited for its CPU); throughput: the primary's, "
               "stopped against running (the 50 ms before each stop).")
    L += [""]
    facts = [res.machine_of(part)]
    m = res.machine
    if m.get("mode", "").startswith("crash"):
        facts.append("load average %s at start, %s at end; %s to %s" % (
            m.get("load_start", "?"), m.get("load_end", "?"),
            m.get("when_start", "?"), m.get("when_end", "?")))
        facts.append("command: ``%s``" % m.get("command", "scripts/bench.sh crash"))
        facts.append("commit %s%s" % (m.get("commit", "?"), "; %s" % drivers_at(
            m.get("driver", "")) if m.get("driver") else ""))
    L += bullets(rst_escape(f) if not f.startswith("command") else f for f in facts)
    if cr:
        rows = []
        for r in cr:
            e = extra(r)
            if not measured(r):
                rows.append([r["handler"]] + shape(r) + [r["status"]] + [""] * 4)
                continue
            rows.append([r["handler"]] + shape(r) + [
                "%s / %s (%s)" % (fnum(e, "wedged", "%d"), fnum(e, "kills", "%d"),
                                  wilson(num(e.get("wedged")) or 0, num(e.get("kills")) or 0)),
                "%s (%s)" % (fnum(e, "lost_per_kill_mean", "%.1f"),
                             fnum(e, "lost_per_kill_max", "%d")),
                "%s (%s)" % (fnum(e, "bound_max", "%d"), fnum(e, "kills_over_bound", "%d")),
                "%s / %s (%s)" % (fnum(e, "recovery_us_median", "%.0f"),
                                  fnum(e, "recovery_us_max", "%.0f"),
                                  fnum(e, "recovery_run_us_max", "%.0f")),
                e.get("census", "-")])
        L += rst_table("crash: SIGKILL of the secondary at a random moment",
                       ["handler", "cache", "bulk", "wedged / kills (95% interval)",
                        "lost per kill (max)", "bound (kills over it)",
                        "recovery us median / max (on CPU)",
                        "census"], rows)
        w = crash_wedged(res)
        L += prose("Wedged pools per kill, every shape of the table (rate, its 95%% "
                   "Wilson interval): %s." % "; ".join(
                       "%s %d of %d (%s)" % (h, v[0], v[1], wilson(*v)) for h, v in w.items()))
        L += [""]
    if st:
        rows = []
        for r in st:
            e = extra(r)
            if not measured(r):
                rows.append([r["handler"]] + shape(r) + [r["status"]] + [""] * 3)
                continue
            rows.append([r["handler"]] + shape(r) + [
                "%s (%s ms)" % (fnum(e, "stops", "%d"), fnum(e, "stopped_ms", "%.0f")),
                fnum(e, "wedged", "%d"),
                "%s (%s)" % (fnum(e, "stall_us_max", "%.0f"),
                             fnum(e, "stall_run_us_max", "%.0f")),
                "%s / %s" % (fnum(e, "mobj_s_stopped_median", "%.1f"),
                             fnum(e, "mobj_s_running_median", "%.1f"))])
        L += rst_table("stop: SIGSTOP of the secondary for 100 ms to 1 s",
                       ["handler", "cache", "bulk", "stops (stopped)", "wedged",
                        "longest stall us (on CPU)", "primary Mobj/s stopped / running"],
                       rows)
    return L + [CRASH_END, ""]


def crash_cmd(a):
    """Replace the page's crash block (insert it before its testpmd
    section where it has none) and the README's crash row."""
    readme = pop_readme(a)
    res = Results(a[0])
    if not any(r["scenario"] in CRASH_SCENARIOS for r in res.rows):
        sys.exit("bench_report.py crash: no crash or stop rows in %s" % a[0])
    row = crash_readme_row(res)
    if readme:
        text = readme_text(readme)
        # The README table's handler columns (ring_mp_mc's, then turbomem
        # and the others the results run measured): the row has each.
        blk = README_BLOCK.search(text).group(0).split("\n")
        h0 = next((i for i, x in enumerate(blk) if x.startswith("   * - ")), len(blk))
        cols = []
        for x in blk[h0 + 1:]:
            if not x.startswith("     - "):
                break
            cols.append(x[7:].strip())
        row = crash_readme_row(res, tuple(cols[1:]) or ("turbomem",))
        if row is None:
            sys.exit("bench_report.py crash: no crash rows of %s and turbomem for %s" % (
                BASELINE, readme))
    with open(a[1]) as fp:
        page = fp.read()
    block = "\n".join(crash_block(res)).rstrip("\n")
    if CRASH_BLOCK.search(page):
        page = CRASH_BLOCK.sub(lambda _: block, page, count=1)
    elif "\ntestpmd\n-------\n" in page:
        page = page.replace("\ntestpmd\n-------\n", "\n%s\n\ntestpmd\n-------\n" % block, 1)
    else:
        page = page.rstrip("\n") + "\n\n" + block + "\n"
    with open(a[1], "w") as fp:
        fp.write(page)
    print("bench_report.py crash: section -> %s" % a[1], file=sys.stderr)
    if readme:
        # The row in the README's table: replaced, or added as its last.
        cells = ["   * - " + row[0]] + ["     - " + c for c in row[1:]]
        m = README_BLOCK.search(text)
        blk = m.group(0).split("\n")
        start = next((i for i, x in enumerate(blk) if x.startswith("   * - " + CRASH_README)),
                     None)
        if start is not None:
            blk[start:start + len(cells)] = cells
        else:
            last = max(i for i, x in enumerate(blk) if x.startswith("     - "))
            blk[last + 1:last + 1] = cells
        text = text[:m.start()] + "\n".join(blk) + text[m.end():]
        with open(readme, "w") as fp:
            fp.write(text)
        print("bench_report.py crash: row -> %s" % readme, file=sys.stderr)


# The ratios of turbomem to itself that bench.sh gate checks, each with
# its floor (the testing guide lists them): (name, part, scenario, what is
# compared, the row measured, the row it is compared with, floor). The
# figure is speed (Mobj/s) or, for deep, cycles per mbuf inverted. Rows
# are picked by their fields; a row of another run is matched by its
# fields too, and the ratio is then of the medians.
GATES = [
    ("chunks, bulk 16", "gate-chunks", dict(layout="1000 chunks", bulk="16"),
     dict(layout="1 chunk", bulk="16"), 0.9),
    ("chunks, bulk 32", "gate-chunks", dict(layout="1000 chunks", bulk="32"),
     dict(layout="1 chunk", bulk="32"), 0.9),
    ("chunks, random bulks", "gate-chunks", dict(layout="1000 chunks", bulk="random"),
     dict(layout="1 chunk", bulk="random"), 0.9),
    ("broken up, bulk 16", "gate-chunks", dict(layout="broken up", bulk="16"),
     dict(layout="1 chunk", bulk="16"), 0.9),
    ("tracked gets, 65535 objects / 2047", "gate-track",
     dict(handler="turbomem+track", pool_size="65535"),
     dict(handler="turbomem+track", pool_size="2047"), 0.2),
    ("--no-huge / hugetlbfs (deep)", "gate-deep", dict(mem="nohuge"),
     dict(mem="hugetlbfs"), 0.75),
]


def gate(parts_dir):
    """Each GATES ratio from bench.sh gate's parts: where both rows are
    of one run, the median of the rounds' ratios, and of several runs
    (PART-pK) the median of theirs; else the ratio of the medians."""
    rows = {}
    for f in sorted(os.listdir(parts_dir)):
        if f.endswith(".csv"):
            name = re.sub(r"^\d+-", "", os.path.splitext(f)[0])
            name = re.sub(r"-(nohuge|hugetlbfs|p\d+)$", "", name)
            for r in read_part(os.path.join(parts_dir, f))[1]:
                r["run"] = f
                rows.setdefault(name, []).append(r)
    failed = 0
    for name, part, want, base, floor in GATES:
        def pick(sel):
            sel = dict(dict(handler="turbomem"), **sel)
            return [r for r in rows.get(part, []) if all(
                r.get(k) == v for k, v in sel.items())]
        a, b = pick(want), pick(base)
        if not a or not b:
            print("GATE %s: no rows (%s) SKIP" % (name, part))
            continue
        fig = "mobj_per_s" if num(a[0].get("mobj_per_s")) is not None \
            else "cycles_per_obj"
        inv = (lambda x: 1 / x) if fig == "cycles_per_obj" else (lambda x: x)
        runs = []  # (the run's ratio, its rounds' ratios)
        for x in a:
            y = next((y for y in b if y["run"] == x["run"]), None)
            rr = [inv(v) for v in round_ratios(x, y)] if y else []
            if rr:
                runs.append((statistics.median(rr), rr))
        if runs:
            r = statistics.median(v for v, _ in runs)
            how = "; rounds " + " ".join("%.2f" % v for v in runs[0][1]) \
                if len(runs) == 1 else "; runs " + " ".join(
                    "%.2f" % v for v, _ in runs) + " (medians of their rounds)"
        else:
            r, how = inv(num(a[0][fig]) / num(b[0][fig])), ""
        ok = r >= floor
        failed += not ok
        print("%sGATE %s: %.3f (floor %.2f%s) %s" % (
            "" if ok else "FAIL: ", name, r, floor, how,
            "ok" if ok else "below the floor"))
    sys.exit(1 if failed else 0)


def main():
    a = sys.argv[1:]
    if len(a) < 2:
        sys.exit(__doc__)
    cmd, args = a[0], a[1:]
    if cmd == "merge":
        merge(args[0], args[1:])
    elif cmd == "table" and len(args) == 1:
        table(args[0])
    elif cmd == "check" and len(args) in (1, 2):
        check(*args)
    elif cmd == "plot" and len(args) in (2, 3):
        plot(args)
    elif cmd == "evidence":
        evidence(args)
    elif cmd == "results":
        results(args)
    elif cmd == "crash":
        crash_cmd(args)
    elif cmd == "gate" and len(args) == 1:
        gate(args[0])
    elif cmd == "ab" and len(args) >= 2:
        ab(args[0], args[1:])
    elif cmd == "vs-dpdk" and len(args) >= 3:
        vs_dpdk(args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
