#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# "meson install" of a build directory, checked.
#
# install.sh staged BUILD_DIR [STAGE_DIR]
#  Into a DESTDIR stage (nothing outside the stage is touched), then check
#  what landed where: the plugin in DPDK's plugin directory
#  (RTE_EAL_PMD_PATH), the public header, and the libdpdk-turbomem
#  pkg-config file; and build and run an application of the public API
#  (public_api.c) against the staged pkg-config file, with no -d.
#
# install.sh warn BUILD_DIR FILL_PLUGIN
#  Into a DESTDIR stage, which must warn when the target plugin directory
#  already fills the mempool ops table (scripts/plugin-dir-check.py, the
#  install script): once with the staged plugin directory holding only
#  turbomem (no warning, "0 mempool ops"), once with FILL_PLUGIN
#  (ops_fill_plugin.c, 16 dummy ops) there first (the warning, with the
#  value, the limit and the -d route).
#
# install.sh private BUILD_DIR
#  The real install ("system" below) in a private mount namespace where
#  DPDK's plugin directory and the install prefix are overlays (writes go
#  to a temporary directory): the same paths and the same install,
#  invisible to every other process, and gone afterwards. Exit 77 (skip)
#  where mount namespaces or overlayfs are not available.
#
# install.sh system BUILD_DIR   (needs root)
#  Real install into the system, then Debian's dpdk-testpmd WITHOUT -d
#  must find turbomem in DPDK's plugin directory, select it and forward
#  packets (scripts/testpmd.py); uninstalls on exit, whatever happens.
#  WARNING: while turbomem is installed, every DPDK process on the machine
#  auto-loads it; one that also passes -d with another copy of the plugin
#  loads the driver twice (the second copy logs "already registered" and
#  stays unused). Do not run this while other turbomem tests are running.
set -euo pipefail

# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../../scripts/common.sh"
exec 2>&1
MESON=${MESON:-/usr/bin/meson}
[ -x "$MESON" ] || MESON=meson

mode=${1:-}
build=$(realpath "${2:-build}")

staged() {
	local stage=${1:-$build/install-stage} pmd_dir plugin pc header app out
	rm -rf "$stage"
	DESTDIR=$stage "$MESON" install -C "$build" --no-rebuild --quiet

	pmd_dir=$(pmd_path)
	[ -n "$pmd_dir" ] || fail "cannot read RTE_EAL_PMD_PATH"
	plugin=$stage$pmd_dir/librte_mempool_turbomem.so
	pc=$(find "$stage" -name libdpdk-turbomem.pc)
	header=$(find "$stage" -name rte_pmd_turbomem.h)
	[ -f "$plugin" ] || fail "plugin not in the plugin directory $pmd_dir"
	[ -n "$pc" ] || fail "no libdpdk-turbomem.pc"
	[ -n "$header" ] || fail "no rte_pmd_turbomem.h"
	log "plugin: ${plugin#"$stage"}"
	log "header: ${header#"$stage"}"
	log "pkg-config: ${pc#"$stage"}"
	case "${pc#"$stage"}" in
	*/pkgconfig/libdpdk-turbomem.pc) ;;
	*) fail "pkg-config file outside a pkgconfig directory" ;;
	esac
	nm -D --defined-only "$plugin" | grep -q ' rte_pmd_turbomem_stats_get@@EXPERIMENTAL$' ||
		fail "plugin does not export rte_pmd_turbomem_stats_get"

	# The .pc names absolute install paths; point them into the stage.
	app=$stage/app
	mkdir -p "$app"
	sed -e "s|^prefix=|prefix=$stage|" -e "s|-L/|-L$stage/|" \
		-e "s|rpath,/|rpath,$stage/|" "$pc" > "$app/libdpdk-turbomem.pc"
	# shellcheck disable=SC2046
	PKG_CONFIG_PATH=$app cc -Wall -Werror -DALLOW_EXPERIMENTAL_API \
		-o "$app/app" "$(dirname "$0")/public_api.c" \
		$(PKG_CONFIG_PATH=$app pkg-config --cflags --libs libdpdk-turbomem)
	ldd "$app/app" | grep -q "$stage.*librte_mempool_turbomem.so" ||
		fail "app does not link the staged plugin"
	eal_prefix=tm-install-$(path_tag "$build")
	trap 'eal_remove "$eal_prefix"' EXIT
	out=$("$app/app" --no-huge -m 128 --no-pci -l 0 \
		--file-prefix="$eal_prefix" 2>&1) ||
		{ printf '%s\n' "$out"; fail "app failed"; }
	printf '%s\n' "$out" | grep '^api:'
	log "OK"
}

warn() {
	local fill pmd_dir san out
	fill=$(realpath "$1")
	stage=$build/install-warn-stage
	trap 'rm -rf "$stage"' EXIT
	# where "meson install" puts the plugin (-Dplugin_dir, else
	# RTE_EAL_PMD_PATH)
	pmd_dir=$("$MESON" introspect "$build" --installed | python3 -c '
import json, os, sys
d = json.load(sys.stdin)
print("".join(os.path.dirname(v) for k, v in d.items()
              if k.endswith("/librte_mempool_turbomem.so")))')
	[ -n "$pmd_dir" ] || fail "no plugin among the installed files"

	# The install script dlopen()s the fill plugin into python: not
	# possible when the build is instrumented (the sanitizer runtime must
	# come first).
	san=$("$MESON" introspect "$build" --buildoptions | python3 -c '
import json, sys
print("".join(str(o["value"]) for o in json.load(sys.stdin) if o["name"] == "b_sanitize"))')
	if [ -n "$san" ] && [ "$san" != none ]; then
		# (at the start of the line: scripts/test.sh reads "SKIP(build)" there)
		echo "SKIP(build): built with -Db_sanitize=$san (the install script loads the plugin into Python)"
		exit 77
	fi

	rm -rf "$stage"
	mkdir -p "$stage$pmd_dir"
	out=$(DESTDIR=$stage "$MESON" install -C "$build" --no-rebuild 2>&1)
	printf '%s\n' "$out"
	[ -f "$stage$pmd_dir/librte_mempool_turbomem.so" ] || fail "plugin not installed into $pmd_dir"
	! grep -q 'WARNING: the plugin directory' <<<"$out" ||
		fail "warning for a directory with no other mempool driver"
	grep -q "turbomem: $pmd_dir: its other plugins register 0 mempool ops" <<<"$out" ||
		fail "no count for the empty plugin directory"

	rm -rf "$stage"
	mkdir -p "$stage$pmd_dir"
	cp "$fill" "$stage$pmd_dir/librte_mempool_tm_fill.so"
	out=$(DESTDIR=$stage "$MESON" install -C "$build" --no-rebuild 2>&1)
	printf '%s\n' "$out"
	grep -qE "WARNING: the plugin directory $pmd_dir already fills the mempool ops table \(16 of RTE_MEMPOOL_MAX_OPS_IDX=16: .*Load it with -d $pmd_dir/librte_mempool_turbomem.so" <<<"$out" ||
		fail "no warning for a plugin directory that fills the table"
	log "OK"
}

install_system() {
	trap 'log "uninstalling"
		ninja -C "$build" uninstall >/dev/null 2>&1 ||
			log "WARNING: ninja -C $build uninstall failed; remove the files listed in $build/meson-logs/install-log.txt"' EXIT
	"$MESON" install -C "$build" --quiet
	grep -E 'librte_mempool_turbomem.so|rte_pmd_turbomem.h|libdpdk-turbomem.pc' \
		"$build/meson-logs/install-log.txt" | sed 's/^/installed /'
	# testpmd.py checks that turbomem is selected, registered once (no
	# "already registered"), and forwards packets.
	python3 "$tm_top/scripts/testpmd.py" --label install-check \
		--prefix "tm-install-check-$(path_tag "$build")" --seconds 2 \
		-- -- --mbcache=0 ||
		fail "testpmd without -d on the installed plugin"
	log "OK: installed plugin loaded without -d, testpmd forwarded packets on turbomem"
}

case $mode in
staged) staged "${3:-}" ;;
warn) warn "$3" ;;
system) install_system ;;
private)
	pmd_dir=$(pmd_path)
	prefix=$(sed -n 's/^prefix=//p' "$build/meson-private/libdpdk-turbomem.pc")
	[ -d "$pmd_dir" ] && [ -d "$prefix" ] ||
		fail "no plugin directory '$pmd_dir' or prefix '$prefix'"
	in_private_mounts "$pmd_dir" "$prefix" -- bash "$0" system "$build" ;;
*) die "usage: see the head of $0" ;;
esac
