#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# no-leftovers.sh COMMAND [ARGS...]
#
# Run COMMAND, then fail, naming each, on every entry it left in EAL's
# runtime directory (/var/run/dpdk for root) or in a hugetlbfs mount: EAL
# removes neither its runtime directories nor its hugepage files, the
# scripts and the test wrapper must (eal_remove in scripts/common.sh).
# Where a mount namespace can be made (root), COMMAND runs in a private one
# in which those directories start empty (a tmpfs, new hugetlbfs instances
# of the same page sizes), so that other DPDK processes of the machine are
# not counted and nothing COMMAND leaves outlives the check; elsewhere the
# real directories are compared. Exit status: COMMAND's when it failed,
# else 1 when it left an entry, else 0.
set -uo pipefail

tm_name=no-leftovers.sh
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[ $# -gt 0 ] || die "usage: $0 COMMAND [ARGS...]"

# The hugetlbfs mount points, one a line (a mount over another: once).
huge_mounts() {
	awk '$3 == "hugetlbfs" && !seen[$2]++ { print $2 }' /proc/self/mounts
}

# The entries of the runtime directory and of every hugetlbfs mount.
entries() {
	local d base
	base=$(eal_runtime_base)
	for d in "$base" $(huge_mounts); do
		[ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 -printf '%p\n'
	done | sort -u
}

if [ "$1" = --private ]; then
	shift
	base=$(eal_runtime_base)
	mkdir -p "$base" && mount -t tmpfs -o mode=0700 tm-no-leftovers "$base" ||
		die "cannot mount a tmpfs on $base"
	while read -r _ mnt fs opts _; do
		[ "$fs" = hugetlbfs ] || continue
		size=$(printf '%s\n' "$opts" | tr , '\n' | sed -n 's/^pagesize=//p')
		mount -t hugetlbfs -o "pagesize=${size:-2M}" nodev "$mnt" ||
			die "cannot mount a hugetlbfs on $mnt"
	done < <(cat /proc/self/mounts)
elif unshare --mount true 2>/dev/null; then
	exec unshare --mount --propagation private bash "${BASH_SOURCE[0]}" --private "$@"
else
	log "no mount namespace here: comparing the real $(eal_runtime_base) and hugetlbfs mounts (other DPDK processes may add entries)"
fi

before=$(entries)
rc=0
"$@" || rc=$?
after=$(entries)
left=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed '/^$/d')
if [ -n "$left" ]; then
	printf '%s\n' "$left" | sed "s/^/[$tm_name] FAIL left behind: /" >&2
	[ $rc -ne 0 ] || rc=1
else
	log "nothing left in $(eal_runtime_base) or the hugetlbfs mounts ($(huge_mounts | paste -sd' ' -))"
fi
exit $rc
