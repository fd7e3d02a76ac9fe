/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_TRACK_H
#define TURBOMEM_TRACK_H

/**
 * @file
 * Hooks of held-object tracking on the fast path, inert until tracking
 * is added: the epoch is always 0, so gets and puts never call them.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

#include "turbomem_private.h"

/** The current tracking epoch, 0 while tracking is off. */
static inline uint32_t
turbomem_track_epoch(struct turbomem_pool *tp)
{
	RTE_SET_USED(tp);
	return 0;
}

/** Record the holder of n objects just popped; returns 0, or ret if negative. */
static inline int
turbomem_track_get(struct turbomem_pool *tp, void * const *objs,
		unsigned int n, int ret)
{
	RTE_SET_USED(tp);
	RTE_SET_USED(objs);
	RTE_SET_USED(n);
	return ret < 0 ? ret : 0;
}

/** Clear the records of n objects about to be pushed. */
static inline void
turbomem_track_put(struct rte_mempool *mp, struct turbomem_pool *tp,
		void * const *objs, unsigned int n)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
	RTE_SET_USED(objs);
	RTE_SET_USED(n);
}

/** In alloc, after the configuration is resolved. */
static inline int
turbomem_track_init(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(tp);
	return 0;
}

/** In free. */
static inline void
turbomem_track_free(struct turbomem_pool *tp)
{
	RTE_SET_USED(tp);
}

#endif /* TURBOMEM_TRACK_H */
