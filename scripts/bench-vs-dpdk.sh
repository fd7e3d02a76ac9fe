#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Cross-check turbomem_bench's grid against DPDK's own mempool_perf_autotest
# (Debian's dpdk-test) for ring_mp_mc and lf_stack, same parameters: no
# cache, one lcore on CPU 1, get and put bulk {1, 4, 32}, keep {32, 128,
# 512}, 2048-byte objects.
#
# mempool_perf_autotest times each case for 5 s and runs hundreds of them.
# To keep this short, a preloaded shim makes rte_get_tsc_hz() report
# 1/TM_REF_SPEEDUP of the real frequency: each case then lasts
# 5 / TM_REF_SPEEDUP s, and its printed rate_persec (objects / 5 s) is
# multiplied back by TM_REF_SPEEDUP. The test's own loop, pools and
# counting are untouched. Its ring_mp_mc figures are the "without cache"
# pool of 1 core; its lf_stack figures the default_pool (it takes
# --mbuf-pool-ops-name) of 1 core. The run is stopped once those are out.
#
# The grid runs the same cases for the same time per case (--lcores
# 0@0,1@1: its worker on CPU 1, main lcore asleep on CPU 0). Both run
# TM_REF_ROUNDS times, alternately; each case keeps its best round (on a
# shared machine, the least disturbed one). Printed side by side with
# their ratio, also in results/vs-dpdk.txt.
#
# Environment: TM_BUILD_DIR (build), TM_REF_SPEEDUP (50), TM_REF_ROUNDS (3),
# DPDK_TEST (dpdk-test), TM_RESULTS_DIR (results)

set -euo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/common.sh

TM_BUILD_DIR=${TM_BUILD_DIR:-build}
TM_REF_SPEEDUP=${TM_REF_SPEEDUP:-50}
TM_REF_ROUNDS=${TM_REF_ROUNDS:-3}
DPDK_TEST=${DPDK_TEST:-dpdk-test}
out=${TM_RESULTS_DIR:-results}
app=$TM_BUILD_DIR/app/test-turbomem/dpdk-test-turbomem
plugin=$(scripts/with-plugin.sh "$TM_BUILD_DIR/librte_mempool_turbomem.so" echo @PLUGIN@)
command -v "$DPDK_TEST" >/dev/null || { echo "$DPDK_TEST not found (apt-get install dpdk)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/shim.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <dlfcn.h>
uint64_t rte_get_tsc_hz(void);
uint64_t
rte_get_tsc_hz(void)
{
	static uint64_t (*real)(void);
	const char *s = getenv("TM_REF_SPEEDUP");

	if (real == NULL)
		real = (uint64_t (*)(void))dlsym(RTLD_NEXT, "rte_get_tsc_hz");
	return real() / (s != NULL ? strtoull(s, NULL, 0) : 1);
}
EOF
cc -O2 -shared -fPIC -o "$work/shim.so" "$work/shim.c" -ldl

# Interleaved: the machine is shared, so each side runs TM_REF_ROUNDS times
# alternately and each case keeps its best round (least disturbed).
ref=$out/vs-dpdk-mempool_perf.log
: >"$ref"
: >"$out/vs-dpdk-grid.log"
rm -f "$out"/vs-dpdk-grid-*.csv
for ((r = 1; r <= TM_REF_ROUNDS; r++)); do
	echo "[bench-vs-dpdk] round $r/$TM_REF_ROUNDS: mempool_perf_autotest, speed-up $TM_REF_SPEEDUP (log: $ref)" >&2
	# Stop at the first line of the cache tests: the no-cache ones are done.
	( TM_REF_SPEEDUP=$TM_REF_SPEEDUP LD_PRELOAD=$work/shim.so DPDK_TEST=mempool_perf_autotest \
		timeout -s INT 900 "$DPDK_TEST" --no-huge -m 512 --no-pci -l 1 \
		--file-prefix=tm4-vsdpdk-$$ --mbuf-pool-ops-name=lf_stack 2>&1 |
		awk '{ print; fflush() } /cache=512/ { exit }' ) >>"$ref" || true
	echo "[bench-vs-dpdk] round $r/$TM_REF_ROUNDS: turbomem_bench grid, same cases" >&2
	"$app" --no-huge -m 512 --no-pci -d "$plugin" --lcores '0@0,1@1' \
		--file-prefix=tm4-vsgrid-$$ -- turbomem_bench --scenario grid \
		--handlers ring_mp_mc,lf_stack --bulks 1,4,32 --keeps 32,128,512 \
		--caches 0 --seconds "$(awk -v s="$TM_REF_SPEEDUP" 'BEGIN { print 5 / s }')" \
		--rounds 1 --layout "1 lcore" --seed "$r" \
		--csv "$out/vs-dpdk-grid-$r.csv" >>"$out/vs-dpdk-grid.log" 2>&1
done

"$(pick_tool python3 /usr/bin/python3)" - "$ref" "$TM_REF_SPEEDUP" "$out"/vs-dpdk-grid-*.csv <<'EOF' | tee "$out/vs-dpdk.txt"
import csv, re, sys
ref, speed, grids = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
theirs, ours, handler = {}, {}, "ring_mp_mc"
for line in open(ref):
    if "start performance test" in line:
        handler = line.split("for ")[1].split()[0] if " for " in line else "ring_mp_mc"
    m = re.search(r"cache=0 cores=1 n_get_bulk=(\d+) n_put_bulk=(\d+) "
                  r"n_keep=(\d+) constant_n=0 rate_persec=(\d+)", line)
    if m and m.group(1) == m.group(2):
        k = (handler, m.group(1), m.group(3))
        theirs[k] = max(theirs.get(k, 0), int(m.group(4)) * speed)
for g in grids:
    for r in csv.DictReader(l for l in open(g) if not l.startswith("#")):
        if r["mobj_per_s"]:
            k = (r["handler"], r["bulk"], r["keep"])
            ours[k] = max(ours.get(k, 0), float(r["mobj_per_s"]))
print("no cache, 1 lcore, best of %d interleaved rounds each" % len(grids))
print("%-11s %5s %5s %16s %16s %7s" % ("handler", "bulk", "keep",
      "autotest Mobj/s", "grid Mobj/s", "grid/at"))
for k in sorted(ours, key=lambda k: (k[0], int(k[1]), int(k[2]))):
    t, g = theirs.get(k), ours[k]
    print("%-11s %5s %5s %16s %16.1f %7s" % (k[0], k[1], k[2],
          "%.1f" % (t / 1e6) if t else "-", g / 1e6,
          "%.2f" % (g / t) if t else "-"))
EOF
