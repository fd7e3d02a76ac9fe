#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Multi-process test of a turbomem pool (test_turbomem_mp.c): a primary and
# three secondaries use one pool in hugepage memory at once; one secondary
# (the victim) is killed with SIGKILL mid-run; the primary then takes the
# census. Exits 77 (skipped) when hugepages cannot be had.
#
# Usage: mp.sh PLUGIN TEST-BINARY [TREE-TAG]
# (run through with-plugin.sh so that PLUGIN is a path EAL accepts for -d)
set -uo pipefail

plugin=$1 bin=$2 tag=${3:-$$}
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
exec 2>&1

prefix=tm-mp-$tag
logs=$(mktemp -d "${TMPDIR:-/tmp}/tm-mp.XXXXXX")
mnt=$(reserve_hugepages 32) || { log "SKIP: 32 free 2 MB hugepages not available"; exit 77; }
eal=(-d "$plugin" --file-prefix="$prefix" --no-pci --huge-dir "$mnt"
	--log-level=pmd.mempool.turbomem:info)
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	eal_remove "$prefix"
	rm -rf "$logs"
}
trap cleanup EXIT

show() {
	local f
	for f in "$logs"/*.log; do
		echo "--- $(basename "$f") ---"
		grep -v '^EAL: \(Detected\|Multi-process\|Selected\|Probing\|No \|Restoring\|VFIO\|Trying\|Cannot\)' "$f"
	done
}

TM_MP_SECONDARIES=2 TM_MP_VICTIM_ID=3 "$bin" -l 0 -m 32 "${eal[@]}" \
	--proc-type=primary -- turbomem_mp_primary_autotest \
	> "$logs/1-primary.log" 2>&1 &
primary=$!
pids+=("$primary")
if ! wait_for "$logs/1-primary.log" "primary ready" 60; then
	show
	log "the primary did not come up"
	exit 1
fi

sec=()
for id in 2 3 4; do
	victim=0
	[ "$id" = 3 ] && victim=1
	TM_MP_ID=$id TM_MP_VICTIM=$victim TM_MP_VICTIM_ID=3 "$bin" --lcores "$id@$((id % 2))" \
		"${eal[@]}" --proc-type=secondary -- \
		turbomem_mp_secondary_autotest > "$logs/$id-secondary.log" 2>&1 &
	sec[id]=$!
	pids+=("${sec[id]}")
done

rc=0
if wait_for "$logs/3-secondary.log" "victim, running" 60; then
	sleep 0.5
	kill -9 "${sec[3]}"
	wait "${sec[3]}" 2>/dev/null
	log "killed secondary 3 (pid ${sec[3]}) with SIGKILL"
else
	log "the victim did not start"
	rc=1
fi
for id in 2 4; do
	wait "${sec[id]}" || { log "secondary $id failed (rc $?)"; rc=1; }
done
wait "$primary" || { log "primary failed (rc $?)"; rc=1; }
pids=()
show
exit $rc
