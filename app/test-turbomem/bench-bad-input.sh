#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# bench-bad-input.sh BENCH.SH: scripts/bench.sh refuses what it cannot run
# with one line naming the value and its exit status, and leaves nothing
# behind: an unknown mode (status 2), a TM_DPDK_PREFIX without a DPDK, a
# DPDK cache below a world-writable directory, an empty TM_RESULTS_ACCEPT
# (status 1, before anything is built or run: no results or cache
# directory).
script=$1
name=bench.sh
. "$(dirname "$0")/bad-input.sh"

expect 2 "usage: .*bench.sh \[quick|full" -- nosuchmode
expect 1 "DPDK prefix $d/noprefix: no libdpdk.pc under it" \
	TM_DPDK_PREFIX="$d/noprefix" -- smoke
# A DPDK cache below a world-writable directory ($d is under /tmp): refused
# before anything is unpacked.
expect 1 "cache directory $d/cache is below a world-writable directory" \
	TM_CACHE_DIR="$d/cache" TM_BENCH_DPDK=26.07 -- smoke
# A reason that says nothing, refused before the runs (the app named is
# missing: were it not refused, the run would stop there).
expect 1 "TM_RESULTS_ACCEPT is empty" \
	TM_RESULTS_ACCEPT= TM_BENCH_APP="$d/noapp" -- results
if [ -e "$d/cache" ]; then
	echo "FAIL: a refused cache directory was created: $d/cache"
	bad=1
fi
if [ -e "$d/results" ]; then
	echo "FAIL: a refused run created $d/results"
	bad=1
fi
exit $bad
