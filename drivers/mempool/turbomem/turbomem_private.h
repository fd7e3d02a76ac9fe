/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_PRIVATE_H
#define TURBOMEM_PRIVATE_H

#include <stdbool.h>
#include <string.h>

#include <rte_log.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "tm_atomic.h"
#include "tm_lifo.h"
#include "turbomem_mem.h"
#include "turbomem_objmap.h"
#include "turbomem_stats.h"

extern int turbomem_logtype;
#define RTE_LOGTYPE_turbomem turbomem_logtype

/* One log line, "turbomem: " prefixed; fmt without the trailing newline. */
#define TM_LOG(level, ...) RTE_LOG_LINE(level, turbomem, __VA_ARGS__)

/** Driver name, as given to rte_mempool_set_ops_byname(). */
#define TURBOMEM_OPS_NAME RTE_PMD_TURBOMEM_OPS_NAME

/**
 * Per-pool driver data (mp->pool_data), in DPDK shared memory so that
 * secondary processes use the same pool. No function pointers, no
 * process-local pointers (except turbomem_mem.region, turbomem_mem.h).
 */
struct turbomem_pool {
	struct tm_objmap map;	/**< object <-> index */
	struct tm_lifo *lifo;	/**< same allocation, after this struct */
	struct turbomem_mem mem;
	/* driver statistics, turbomem_stats.h */
	struct turbomem_stats *stats; /**< same allocation, before lifo */
	/** Debug builds: a byte per object, see turbomem_debug.h. */
	RTE_ATOMIC(RTE_ATOMIC(uint8_t) *) debug_state;
	/** Held-object tracking (turbomem_track.h): epoch, 0 while off. */
	RTE_ATOMIC(uint32_t) track_epoch;
	RTE_ATOMIC(struct turbomem_track *) track; /**< rte_zmalloc'ed, or NULL */
	/**
	 * Bytes of the driver's own allocations for this pool (this struct
	 * with the statistics and LIFO, object map, tracking, debug state),
	 * as asked of rte_malloc, added where each is made and taken off
	 * where one is freed while the pool lives: /turbomem/info's
	 * driver_bytes. Not the pool's memory (the mempool's chunks, in
	 * turbomem's own heap or not).
	 */
	RTE_ATOMIC(uint64_t) drv_bytes;
};

/* An allocation of n bytes for tp made (n > 0) or freed (n < 0). */
static inline void
turbomem_bytes_add(struct turbomem_pool *tp, int64_t n)
{
	/* Relaxed: a figure for reports, ordered with nothing. */
	rte_atomic_fetch_add_explicit(&tp->drv_bytes, (uint64_t)n,
			rte_memory_order_relaxed);
}

/** Objects the driver holds: O(threads that used the pool), no walk. */
static inline uint32_t
turbomem_count(const struct turbomem_pool *tp)
{
	return turbomem_stats_avail(tp->stats, tp->map.nb_objs);
}

/**
 * Whether mp uses the turbomem ops. Checked by name: ops pointers differ
 * between processes.
 */
static inline bool
turbomem_is_pool(const struct rte_mempool *mp)
{
	if (mp == NULL || mp->ops_index < 0 ||
			(uint32_t)mp->ops_index >= rte_mempool_ops_table.num_ops)
		return false;
	return strcmp(rte_mempool_get_ops(mp->ops_index)->name,
			TURBOMEM_OPS_NAME) == 0;
}

/**
 * The driver data of mp, or NULL if mp is NULL, not a turbomem pool, or not
 * allocated yet.
 */
static inline struct turbomem_pool *
turbomem_pool_of(const struct rte_mempool *mp)
{
	return turbomem_is_pool(mp) ? mp->pool_data : NULL;
}

#endif /* TURBOMEM_PRIVATE_H */
