#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# Build turbomem inside a DPDK source tree, as a DPDK driver, and run that
# DPDK's own testpmd on DPDK's build of the driver: packets must be
# forwarded on turbomem and the driver's telemetry must answer
# (/turbomem/list, /turbomem/info count and memory fields).
#
# The tree (scripts/dpdk-source.sh, dpdk_build): Debian's source of the
# installed DPDK (apt-get source), or with TM_INTREE_DPDK=VERSION a release
# tarball (TM_DPDK_TARBALL, ../shared/dpdk/, fast.dpdk.org). Built once
# into ~/.cache/turbomem (TM_CACHE_DIR); later runs recompile only turbomem.
#
# Usage: scripts/intree.sh [workdir]   (unused: the build is cached)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log() { printf 'intree: %s\n' "$*"; }

# shellcheck source=scripts/dpdk-source.sh
. "$top/scripts/dpdk-source.sh"
case ${TM_INTREE_DPDK:-debian} in
debian) tarball=$(dpdk_debian_tarball) ;;
*) tarball=$(dpdk_tarball "$TM_INTREE_DPDK") ;;
esac
t0=$SECONDS
prefix=$(dpdk_build "$tarball")
log "DPDK with turbomem in tree: $prefix ($((SECONDS - t0)) s)"
plugin=$(dpdk_intree_plugin "$prefix")

log "running the tree's testpmd on its build of turbomem"
LD_LIBRARY_PATH=$(dpdk_libdir "$prefix")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
	python3 "$top/scripts/testpmd.py" --testpmd "$prefix/bin/dpdk-testpmd" \
	--plugin "$plugin" --label intree --check list --check info \
	--seconds 2 -- -- --mbcache=0 ||
	{ log "FAIL: in-tree testpmd on turbomem"; exit 1; }
log "OK: in-tree build of $(basename "$(dirname "$tarball")")/$(basename "$tarball") forwarded on turbomem"
