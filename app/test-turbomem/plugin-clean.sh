#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The turbomem authors
#
# plugin-clean.sh PLUGIN: the production plugin holds no test scaffolding.
# It exports only the public API (rte_pmd_turbomem_*), and neither its
# symbols nor its strings name a test hook (TURBOMEM_TEST_FAIL, the
# tm_test_faults.h / tm_test_yield.h wrappers, TM_MUTANT_* branches).
set -euo pipefail
lib=$1
# (type A: the version nodes of the version script, not symbols)
bad=$(nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}' |
	grep -v '^rte_pmd_turbomem_' | grep -v '^_' || true)
if [ -n "$bad" ]; then
	echo "$lib exports more than the public API:"
	echo "$bad"
	exit 1
fi
hooks=$( { nm "$lib" 2>/dev/null; strings -a "$lib"; } |
	grep -E 'TURBOMEM_TEST_FAIL|tm_fault|tm_test_|TM_MUTANT' || true)
if [ -n "$hooks" ]; then
	echo "$lib holds test hooks:"
	echo "$hooks"
	exit 1
fi
echo "$lib: exports $(nm -D --defined-only "$lib" | grep -c ' T rte_pmd_turbomem_') public functions, no test hook"
