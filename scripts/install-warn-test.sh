#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# install-warn-test.sh BUILD_DIR FILL_PLUGIN
#
# "meson install" into a DESTDIR stage must warn when the target plugin
# directory already fills the mempool ops table (scripts/plugin-dir-check.py,
# the install script): once with the staged plugin directory holding only
# turbomem (no warning, "0 mempool ops"), once with FILL_PLUGIN
# (app/test-turbomem/ops_fill_plugin.c, 16 dummy ops) there first (the
# warning, with the value, the limit and the -d route).
set -euo pipefail

build=$(realpath "$1")
fill=$(realpath "$2")
stage=$build/install-warn-stage
meson=${MESON:-/usr/bin/meson}
[ -x "$meson" ] || meson=meson
log() { printf 'install-warn-test: %s\n' "$*"; }
fail() { log "FAIL: $*"; printf '%s\n' "$out"; exit 1; }
trap 'rm -rf "$stage"' EXIT

# where "meson install" puts the plugin (-Dplugin_dir, else RTE_EAL_PMD_PATH)
pmd_dir=$("$meson" introspect "$build" --installed | python3 -c '
import json, os, sys
d = json.load(sys.stdin)
print("".join(os.path.dirname(v) for k, v in d.items()
              if k.endswith("/librte_mempool_turbomem.so")))')
[ -n "$pmd_dir" ] || { out=""; fail "no plugin among the installed files"; }

# The install script dlopen()s the fill plugin into python: not possible
# when the build is instrumented (the sanitizer runtime must come first).
san=$("$meson" introspect "$build" --buildoptions | python3 -c '
import json, sys
print("".join(str(o["value"]) for o in json.load(sys.stdin) if o["name"] == "b_sanitize"))')
if [ -n "$san" ] && [ "$san" != none ]; then
	# (at the start of the line: scripts/test.sh reads "SKIP(build)" there)
	echo "SKIP(build): built with -Db_sanitize=$san (the install script loads the plugin into Python)"
	exit 77
fi

rm -rf "$stage"
mkdir -p "$stage$pmd_dir"
out=$(DESTDIR=$stage "$meson" install -C "$build" --no-rebuild 2>&1)
[ -f "$stage$pmd_dir/librte_mempool_turbomem.so" ] || fail "plugin not installed into $pmd_dir"
printf '%s\n' "$out" | grep -q 'WARNING: the plugin directory' && fail "warning for a directory with no other mempool driver"
printf '%s\n' "$out" | grep "turbomem: $pmd_dir: its other plugins register 0 mempool ops" ||
	fail "no count for the empty plugin directory"

rm -rf "$stage"
mkdir -p "$stage$pmd_dir"
cp "$fill" "$stage$pmd_dir/librte_mempool_tm_fill.so"
out=$(DESTDIR=$stage "$meson" install -C "$build" --no-rebuild 2>&1)
printf '%s\n' "$out" | grep -E "WARNING: the plugin directory $pmd_dir already fills the mempool ops table \(16 of RTE_MEMPOOL_MAX_OPS_IDX=16: .*Load it with -d $pmd_dir/librte_mempool_turbomem.so" ||
	fail "no warning for a plugin directory that fills the table"
log "OK"
