/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_MEM_H
#define TURBOMEM_MEM_H

/**
 * @file
 * Hooks of pool memory, inert until transparent huge pages and NUMA
 * binding are added: a pool's objects are in the memory the mempool
 * library reserves, as with any other driver.
 */

#include <stddef.h>

#include <rte_common.h>
#include <rte_mempool.h>

struct turbomem_pool;

/** Pool memory state: none until pool memory is added. */
struct turbomem_mem {
	int unused;
};

/** In alloc: the pool's own heap, none here. */
static inline int
turbomem_mem_alloc(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
	return 0;
}

/** In populate, before the objects of a chunk are written. */
static inline void
turbomem_mem_chunk(struct rte_mempool *mp, struct turbomem_pool *tp,
		void *va, size_t len)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
	RTE_SET_USED(va);
	RTE_SET_USED(len);
}

/** In populate, after them. */
static inline void
turbomem_mem_populated(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
}

/** In free. */
static inline void
turbomem_mem_free(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
}

#endif /* TURBOMEM_MEM_H */
