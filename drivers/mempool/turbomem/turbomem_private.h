/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_PRIVATE_H
#define TURBOMEM_PRIVATE_H

#include <string.h>

#include <rte_log.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "tm_lifo.h"
#include "turbomem_objmap.h"
#include "turbomem_stats.h"

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
	/* driver statistics, turbomem_stats.h */
	struct turbomem_stats *stats; /**< same allocation, before lifo */
};

/**
 * The driver data of mp, or NULL if mp is NULL, not a turbomem pool, or not
 * allocated yet. Checked by name: ops pointers differ between processes.
 */
static inline struct turbomem_pool *
turbomem_pool_of(const struct rte_mempool *mp)
{
	if (mp == NULL || mp->ops_index < 0 ||
			(uint32_t)mp->ops_index >= rte_mempool_ops_table.num_ops)
		return NULL;
	if (strcmp(rte_mempool_get_ops(mp->ops_index)->name,
			TURBOMEM_OPS_NAME) != 0)
		return NULL;
	return mp->pool_data;
}

#endif /* TURBOMEM_PRIVATE_H */
