#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# bench-bad-input.sh BENCH.SH: scripts/bench.sh refuses what it cannot run
# with one line naming the value and its exit status, and leaves nothing
# behind: an unknown mode (status 2), a TM_DPDK_PREFIX without a DPDK
# (status 1, before anything is built: no results directory).
script=$1
name=bench.sh
. "$(dirname "$0")/bad-input.sh"

expect 2 "usage: .*bench.sh \[quick|full" -- nosuchmode
expect 1 "DPDK prefix $d/noprefix: no libdpdk.pc under it" \
	TM_DPDK_PREFIX="$d/noprefix" -- smoke
if [ -e "$d/results" ]; then
	echo "FAIL: a refused run created $d/results"
	bad=1
fi
exit $bad
