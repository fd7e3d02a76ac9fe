/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_OSDEP_H
#define TURBOMEM_OSDEP_H

/*
 * What the driver uses from DPDK >= 25.07 and older releases or an
 * out-of-tree build lack; the driver's code is written the upstream way.
 *
 * - RTE_EXPORT_*: in a DPDK >= 25.07 tree, eal_export.h (private to DPDK's
 *   build) defines them and buildtools/gen-version-map.py reads them, at
 *   the start of a line, to make the library's export map. Elsewhere they
 *   expand to nothing: version.map exports the API (22.11 tree, and the
 *   out-of-tree link).
 * - RTE_LOG_LINE: DPDK >= 23.11 (rte_log.h). The fallback is 23.11's
 *   definition without its newline check.
 * - rte_tel_data_add_dict_uint: DPDK >= 23.03 (22.11 names it _u64).
 * - RTE_LOG_REGISTER_DEFAULT needs RTE_LOG_DEFAULT_LOGTYPE, which DPDK's
 *   drivers/meson.build defines; the out-of-tree meson.build defines it too.
 *
 * The file name ends in osdep.h: DPDK's forbidden-token check gives such
 * headers leeway for RTE_LOG, which the fallback has to call.
 */

#include <rte_common.h>
#include <rte_log.h>
#include <rte_version.h>

#if defined(__has_include)
#if __has_include("eal_export.h")
#include <eal_export.h>
#endif
#endif

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

#endif /* TURBOMEM_OSDEP_H */
