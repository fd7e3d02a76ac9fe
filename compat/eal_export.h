/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_COMPAT_EAL_EXPORT_H
#define TURBOMEM_COMPAT_EAL_EXPORT_H

/*
 * The repository's compatibility header: what the driver, written for a
 * DPDK 26.07 tree, uses of such a tree that other builds lack, but for
 * <rte_stdatomic.h> (stdatomic/, DPDK < 23.11). The DPDK patch series
 * leaves compat/ out (scripts/series.sh).
 *
 * Given with -I and -include to the out-of-tree build (meson.build) and
 * to the driver in DPDK 22.11's tree (scripts/dpdk.sh, with version.map):
 * - <eal_export.h> (the name of this file): DPDK's own is private to its
 *   build (>= 25.07); the files that export include it. Out of tree,
 *   meson.build defines RTE_EXPORT_* to make the marked functions
 *   visible; in 22.11's tree they are empty and version.map exports.
 * - RTE_LOG_LINE: DPDK >= 23.11 (rte_log.h). The fallback is 23.11's
 *   definition without its newline check.
 * - rte_tel_data_add_dict_uint: DPDK >= 23.03 (22.11 names it _u64).
 * This header comes before the first line of every file: _GNU_SOURCE
 * (which DPDK's build defines) before any system header.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <rte_log.h>
#include <rte_version.h>

#ifndef RTE_EXPORT_EXPERIMENTAL_SYMBOL
#define RTE_EXPORT_EXPERIMENTAL_SYMBOL(sym, ver)
#endif
#ifndef RTE_EXPORT_SYMBOL
#define RTE_EXPORT_SYMBOL(sym)
#endif

#ifndef RTE_LOG_LINE
#define RTE_LOG_LINE(l, t, ...) \
	RTE_LOG(l, t, RTE_FMT(RTE_FMT_HEAD(__VA_ARGS__ ,) "\n", \
		RTE_FMT_TAIL(__VA_ARGS__ ,)))
#endif

#if RTE_VERSION_NUM(23, 3, 0, 0) > RTE_VERSION
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#endif

#endif /* TURBOMEM_COMPAT_EAL_EXPORT_H */
