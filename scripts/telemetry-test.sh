#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# telemetry-test.sh PLUGIN [FILE_PREFIX]
#
# Start dpdk-testpmd ($TESTPMD, default Debian's) with PLUGIN (-d) over two
# net_null ports in --no-huge mode, forwarding with no mbuf cache (every
# alloc/free reaches the driver); query its telemetry socket twice, 1 s
# apart, and check the JSON: the mbuf pool is listed by /turbomem/list,
# /turbomem/info reports it with counters that rise between the two
# queries, an unknown pool and no pool name give null. Stops testpmd.
# scripts/testpmd.py does the work (its "list", "info" and "rise" checks).
set -euo pipefail

exec python3 "$(dirname "$0")/testpmd.py" --plugin "$1" \
	--prefix "${2:-tm-telemetry-$$}" --label telemetry-test \
	--check list --check info --check rise --check memory -m 256 \
	-- -- --mbcache=0 --total-num-mbufs=4096
