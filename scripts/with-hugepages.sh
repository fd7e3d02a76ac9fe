#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# with-hugepages.sh N COMMAND [ARGS...]
#
# Run COMMAND once N free 2 MB hugepages are reserved (scripts/common.sh
# reserve_hugepages, which never lowers a reservation). Exits 77 (meson's
# "skipped") when they cannot be had: not root, no hugetlbfs, memory
# fragmented. COMMAND must limit EAL memory (-m / --socket-mem).
set -euo pipefail

n=$1
shift
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
if ! reserve_hugepages "$n" >/dev/null; then
	echo "with-hugepages.sh: SKIP: $n free 2 MB hugepages not available" >&2
	exit 77
fi
exec "$@"
