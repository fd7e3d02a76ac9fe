#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# dup-plugin-test.sh PLUGIN TEST_APP FILE_PREFIX
#
# The driver loaded twice, as when it is installed in DPDK's plugin
# directory and also given with -d: two copies of PLUGIN at different paths,
# both with -d. The second copy must log "already registered" and register
# nothing (one "turbomem" slot), and pools must still work.
set -euo pipefail

plugin=$(realpath "$1")
app=$2
prefix=$3
stage=${TM_PLUGIN_STAGE:-${HOME:-/root}/.cache/turbomem-plugins}/dup-$$
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/a" "$stage/b"
chmod 0755 "$stage" "$stage/a" "$stage/b"
cp "$plugin" "$stage/a/"
cp "$plugin" "$stage/b/"
name=$(basename "$plugin")

out=$("$app" --no-huge -m 256 --no-pci -l 0 --file-prefix="$prefix" \
	-d "$stage/a/$name" -d "$stage/b/$name" \
	-- turbomem_pktmbuf_autotest turbomem_ops_slots_autotest 2>&1) || {
	printf '%s\n' "$out"; echo "dup-plugin-test: FAIL: tests failed"; exit 1; }
printf '%s\n' "$out" | grep 'already registered' || {
	printf '%s\n' "$out"; echo "dup-plugin-test: FAIL: no warning for the second copy"; exit 1; }
echo "dup-plugin-test: OK"
