/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_PRIVATE_H
#define TURBOMEM_PRIVATE_H

#include <rte_log.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "tm_lifo.h"
#include "turbomem_objmap.h"

/*
 * Marks the definition of a public function of rte_pmd_turbomem.h.
 * The out-of-tree plugin is built with hidden visibility, so the symbol is
 * made visible here; in a DPDK tree, version.map (DPDK < 25.07) or the
 * RTE_EXPORT_EXPERIMENTAL_SYMBOL marker (DPDK >= 25.07, read by its build)
 * exports it.
 */
#if defined(__has_include) && __has_include(<eal_export.h>)
#include <eal_export.h>
#endif
#ifndef RTE_EXPORT_EXPERIMENTAL_SYMBOL
#define RTE_EXPORT_EXPERIMENTAL_SYMBOL(sym, ver)
#endif
#define TM_EXPORT(sym) \
	RTE_EXPORT_EXPERIMENTAL_SYMBOL(sym, 26.03) \
	__attribute__((visibility("default")))

extern int turbomem_logtype;

#define TM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, turbomem_logtype, \
		"turbomem: " fmt "\n", ## __VA_ARGS__)

/** Driver name, as given to rte_mempool_set_ops_byname(). */
#define TURBOMEM_OPS_NAME RTE_PMD_TURBOMEM_OPS_NAME

/**
 * Per-pool driver data (mp->pool_data), in DPDK shared memory so that
 * secondary processes use the same pool. No function pointers, no
 * process-local pointers.
 */
struct turbomem_pool {
	struct tm_objmap map;	/**< object <-> index */
	struct tm_lifo *lifo;	/**< same allocation, after this struct */
	/** Debug builds: a byte per object, see turbomem_debug.h. */
	uint8_t *debug_state;
};

#endif /* TURBOMEM_PRIVATE_H */
