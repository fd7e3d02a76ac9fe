#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
"""Charts of turbomem_bench results: plot.py BENCH.csv OUTDIR [TESTPMD.csv]

Writes PNG files (matplotlib, Debian: python3-matplotlib):
  bench-lcores.png     grid throughput vs lcore layout (1 lcore, 2 pinned,
                       6 on 2 CPUs), one panel per cache setting
  bench-oversub.png    throughput when threads outnumber CPUs or have no
                       cache: 6 lcores on 2 CPUs, unregistered threads,
                       and the pipeline, relative to ring_mp_mc
  bench-deep.png       deep in-flight cycles per mbuf by memory mode
                       (--no-huge 4 KB / THP, hugetlbfs), backing measured
  bench-pages.png      locality: distinct 4 KB and 2 MB pages touched per
                       1000 allocations, and cycles per object
  bench-testpmd.png    testpmd io forwarding Mpps per handler and mbuf
                       cache (scripts/testpmd.py compare's samples), when
                       TESTPMD.csv is given and exists
Only measured rows are drawn; skipped ones are named in the legend/title.
"""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BASELINE = "ring_mp_mc"


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


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


def legend_below(fig, ax):
    h, l = ax.get_legend_handles_labels()
    fig.legend(h, l, loc="lower center", ncol=len(l), fontsize=8,
               frameon=False)


def pick_grid_params(rows):
    """The (bulk, keep) shown: bulk 16 keep 128 when measured, else the first."""
    grid = [r for r in rows if r["scenario"] == "grid" and num(r["mobj_per_s"])]
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
    caches = sorted({r["cache"] for r in rows if r["scenario"] == "grid"
                     and r["threads"] == "eal"}, key=lambda c: int(c))
    fig, axes = plt.subplots(1, len(caches), figsize=(6 * len(caches), 4.5),
                             squeeze=False)
    for ax, c in zip(axes[0], caches):
        def val(layout, h, c=c):
            for r in rows:
                if (r["scenario"] == "grid" and r["layout"] == layout and
                        r["handler"] == h and r["cache"] == c and
                        r["bulk"] == bulk and r["keep"] == keep):
                    v = num(r["mobj_per_s"])
                    return v / 1e6 if v else None
            return None
        bars(ax, layouts, hs, val, log=True, fmt="%.0f")
        ax.set_title("cache %s" % c, fontsize=10)
        ax.set_ylabel("Mobj/s summed over workers (log)")
    legend_below(fig, axes[0][0])
    fig.suptitle("grid: get/put throughput vs lcore layout "
                 "(bulk %s, keep %s, 2048 B objects)" % (bulk, keep))
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    path = os.path.join(out, "bench-lcores.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def chart_oversub(rows, hs, out):
    bulk, keep = pick_grid_params(rows)
    cases = []
    for r in rows:
        if r["scenario"] == "grid" and r["bulk"] == bulk and r["keep"] == keep \
                and (r["layout"] in ("6 on 2 CPUs", "2 pinned") or
                     r["threads"] == "nonEAL"):
            cases.append(("grid %s\ncache %s" % (r["layout"], r["cache"]),
                          r["layout"], r["cache"], "grid"))
        elif r["scenario"] == "pipeline":
            cases.append(("pipeline %s\ncache %s" % (r["layout"], r["cache"]),
                          r["layout"], r["cache"], "pipeline"))
    seen, groups = set(), []
    for c in cases:
        if c[0] not in seen:
            seen.add(c[0])
            groups.append(c)
    if not groups:
        return None

    def raw(g, h):
        _, layout, cache, sc = g
        for r in rows:
            if (r["scenario"] == sc and r["layout"] == layout and
                    r["cache"] == cache and r["handler"] == h and
                    (sc != "grid" or (r["bulk"] == bulk and r["keep"] == keep))):
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
                 "(grid bulk %s keep %s)" % (bulk, keep))
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    path = os.path.join(out, "bench-oversub.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def chart_deep(rows, out):
    deep = [r for r in rows if r["scenario"] == "deep" and num(r["cycles_per_obj"])]
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
    ax.set_title("deep in-flight: %s mbufs, half held in a FIFO\n"
                 "(bar label: cycles, measured backing, %% in 2 MB pages)"
                 % deep[0]["pool_size"], fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, "bench-deep.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def chart_pages(rows, out):
    loc = [r for r in rows if r["scenario"] == "locality" and num(r["pages_4k_per_1000"])]
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
    fig.suptitle("locality after a shuffled refill: %s objects, bursts of %s "
                 "(lower is better)" % (loc[0]["pool_size"], loc[0]["bulk"]))
    fig.tight_layout()
    path = os.path.join(out, "bench-pages.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


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
    fig.tight_layout()
    path = os.path.join(out, "bench-testpmd.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    rows = rows_of(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    grid_hs = handlers_of([r for r in rows if r["scenario"] in ("grid", "pipeline")])
    made = [p for p in (chart_lcores(rows, grid_hs, out),
                        chart_oversub(rows, grid_hs, out),
                        chart_deep(rows, out),
                        chart_pages(rows, out),
                        chart_testpmd(sys.argv[3] if len(sys.argv) > 3
                                      else None, out)) if p]
    for p in made:
        print("chart: " + p)
    if not made:
        sys.exit("plot.py: no measured rows to draw")


if __name__ == "__main__":
    main()
