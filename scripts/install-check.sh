#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# install-check.sh [--private] [BUILD_DIR]   (default: build)
#
# Real "meson install" of BUILD_DIR into the system, then run Debian's
# dpdk-testpmd WITHOUT -d and check that it finds turbomem in DPDK's plugin
# directory, selects it and forwards packets; uninstalls on exit, whatever
# happens. Needs root.
#
# --private: the same in a private mount namespace where DPDK's plugin
# directory and the install prefix are overlays (writes go to a temporary
# directory): the same paths and the same install, invisible to every
# other process, and gone afterwards. Exit 77 (skip) where mount namespaces
# or overlayfs are not available.
#
# WARNING: while turbomem is installed, every DPDK process on the machine
# auto-loads it; one that also passes -d with another copy of the plugin
# loads the driver twice (the second copy logs "already registered" and
# stays unused).
# Do not run this while other turbomem tests are running.
set -euo pipefail

if [ "${1:-}" = --private ]; then
	shift
	build=$(realpath "${1:-build}")
	pmd_dir=$(printf '#include <rte_build_config.h>\nRTE_EAL_PMD_PATH\n' |
		cc -E -P $(pkg-config --cflags libdpdk) - | tail -1 | tr -d '"')
	prefix=$(sed -n 's/^prefix=//p' "$build/meson-private/libdpdk-turbomem.pc")
	[ -d "$pmd_dir" ] && [ -d "$prefix" ] ||
		{ echo "install-check: no plugin directory '$pmd_dir' or prefix '$prefix'"; exit 1; }
	unshare --mount true 2>/dev/null ||
		{ echo "install-check: SKIP: cannot create a mount namespace"; exit 77; }
	ovl=$(mktemp -d "${TMPDIR:-/tmp}/tm-install-ovl.XXXXXX")
	trap 'rm -rf "$ovl"' EXIT
	mkdir -p "$ovl/pu" "$ovl/pw" "$ovl/lu" "$ovl/lw"
	rc=0
	# shellcheck disable=SC2016
	unshare --mount --propagation private bash -c '
		mount -t overlay overlay -o "lowerdir=$1,upperdir=$3/pu,workdir=$3/pw" "$1" &&
		mount -t overlay overlay -o "lowerdir=$2,upperdir=$3/lu,workdir=$3/lw" "$2" ||
			{ echo "install-check: SKIP: cannot mount overlays"; exit 77; }
		exec "$4" "$5"' _ "$pmd_dir" "$prefix" "$ovl" "$0" "$build" || rc=$?
	exit $rc
fi

build=$(realpath "${1:-build}")
meson=${MESON:-/usr/bin/meson}
[ -x "$meson" ] || meson=meson
log() { printf 'install-check: %s\n' "$*"; }

uninstall() {
	log "uninstalling"
	ninja -C "$build" uninstall >/dev/null 2>&1 ||
		log "WARNING: 'ninja -C $build uninstall' failed; remove the files listed in $build/meson-logs/install-log.txt"
}
trap uninstall EXIT

"$meson" install -C "$build" --quiet
grep -E 'librte_mempool_turbomem.so|rte_pmd_turbomem.h|libdpdk-turbomem.pc' \
	"$build/meson-logs/install-log.txt" | sed 's/^/install-check: installed /'

# testpmd.py checks that turbomem is selected, registered once (no
# "already registered"), and forwards packets.
python3 "$(dirname "$0")/testpmd.py" --label install-check \
	--prefix tm-install-check --seconds 2 -- -- --mbcache=0 ||
	{ log "FAIL: testpmd without -d on the installed plugin"; exit 1; }
log "OK: installed plugin loaded without -d, testpmd forwarded packets on turbomem"
