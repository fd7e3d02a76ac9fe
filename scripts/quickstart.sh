#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# From a fresh machine to numbers: install the dependencies, build the
# plugin, run the benchmarks (main_job) and print their tables.
# Takes a few minutes (about 1 for the benchmarks, plus package
# installation on a fresh machine).
#
# Environment:
#   TM_BUILD_DIR   build directory (default build)
#   TM_MESON_OPTS  extra "meson setup" options
#   TM_DEPS_SKIP=1 do not run scripts/deps.sh
#   MESON, NINJA   the meson/ninja to use (default: /usr/bin/meson and
#                  /usr/bin/ninja when present, not a pyenv/pip one)
#   and the TM_CMP_* knobs of scripts/testpmd-compare.sh

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

TM_BUILD_DIR=${TM_BUILD_DIR:-build}

log() { printf '[quickstart] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=scripts/common.sh
. scripts/common.sh

build() {
	local opts
	read -r -a opts <<<"${TM_MESON_OPTS:-}"
	if [ -f "$TM_BUILD_DIR/meson-private/coredata.dat" ]; then
		"$MESON" setup --reconfigure "$TM_BUILD_DIR" "${opts[@]}" ||
			"$MESON" setup --wipe "$TM_BUILD_DIR" "${opts[@]}" || return
	else
		rm -rf "$TM_BUILD_DIR"
		"$MESON" setup "$TM_BUILD_DIR" "${opts[@]}" || return
	fi
	"$NINJA" -C "$TM_BUILD_DIR"
}

# The benchmarks. Add new ones here; each prints its own table.
main_job() {
	TM_PLUGIN=$repo/$TM_BUILD_DIR/librte_mempool_turbomem.so \
		bash scripts/testpmd-compare.sh
}

t0=$SECONDS
if [ "${TM_DEPS_SKIP:-0}" != 1 ]; then
	bash scripts/deps.sh
fi
MESON=${MESON:-$(pick_tool meson /usr/bin/meson)} || die "meson not found (run scripts/deps.sh)"
NINJA=${NINJA:-$(pick_tool ninja /usr/bin/ninja)} || die "ninja not found (run scripts/deps.sh)"

mkdir -p results
build_log=results/quickstart-build.log
log "building in $TM_BUILD_DIR (log: $build_log)"
build >"$build_log" 2>&1 || {
	tail -40 "$build_log" >&2
	die "build failed; full log: $build_log"
}
log "built $TM_BUILD_DIR/librte_mempool_turbomem.so in $((SECONDS - t0))s"

main_job
log "done in $((SECONDS - t0))s; raw results under results/"
