#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# ab-bad-input.sh AB.SH: scripts/ab.sh refuses what it cannot run with one
# line naming the argument and its exit status, and leaves nothing behind:
# no argument, an option, a define without a value, a missing patch file, TM_AB_ROUNDS=0 (status 2,
# results directory not created), a TM_DPDK_PREFIX without a DPDK (status
# 1, nothing created), a patch that does not apply (status 1, no copy of
# the tree left).
script=$1
name=ab.sh
. "$(dirname "$0")/bad-input.sh"

expect 2 "usage: .*ab.sh VARIANT" -- 
expect 2 "'--rounds': ab.sh takes patch files and -DNAME=VALUE defines, no option" -- --rounds 3
expect 2 "'-DTM_LIFO_AHEAD': ab.sh takes patch files and -DNAME=VALUE defines" -- -DTM_LIFO_AHEAD
expect 2 "$d/none.patch: no such patch file" -- "$d/none.patch"
printf 'diff --git a/x b/x\n' >"$d/empty.patch"
expect 2 "TM_AB_ROUNDS=0: a round count from 1 is needed" TM_AB_ROUNDS=0 -- "$d/empty.patch"
# A DPDK prefix without a DPDK: status 1 (die), before anything is built.
expect 1 "DPDK prefix $d/noprefix: no libdpdk.pc under it" \
	TM_DPDK_PREFIX="$d/noprefix" -- "$d/empty.patch"
if [ -e "$d/results" ]; then
	echo "FAIL: a usage error created $d/results"
	bad=1
fi
cat >"$d/stale.patch" <<'PATCH'
A patch of a line the core does not have.
--- a/drivers/mempool/turbomem/tm_lifo.c
+++ b/drivers/mempool/turbomem/tm_lifo.c
@@ -1,1 +1,1 @@
-no such line in tm_lifo.c
+nor this one
PATCH
expect 1 "stale.patch does not apply to this tree" -- "$d/stale.patch"
if [ -n "$(find "$d/results" -name 'src-*' 2>/dev/null)" ]; then
	echo "FAIL: a patch that does not apply left its copy of the tree: $(find "$d/results" -name 'src-*')"
	bad=1
fi
exit $bad
