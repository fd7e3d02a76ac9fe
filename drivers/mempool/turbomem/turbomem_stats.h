/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_STATS_H
#define TURBOMEM_STATS_H

/*
 * Per-pool driver statistics, kept cheap for the enqueue/dequeue fast path.
 *
 * Each lcore owns one cache-line-aligned block and is its only writer: it
 * adds with a plain load and a relaxed store (no locked instruction, no
 * cache line shared with another writer); relaxed stores only keep readers
 * from seeing torn 64-bit values. Threads without an lcore id
 * (LCORE_ID_ANY) share one block and add with relaxed atomic RMWs.
 *
 * The blocks live in the pool's rte_malloc'ed data, so secondary processes
 * count into the same blocks. Like the mempool's per-lcore caches, this
 * assumes that processes use distinct lcore ids; two processes running the
 * same lcore id may lose counts (never corrupt the pool).
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>

struct turbomem_stats_block {
	uint64_t get_calls;
	uint64_t get_objs;
	uint64_t get_fails;
	uint64_t put_calls;
	uint64_t put_objs;
	uint64_t cas_retries;
} __rte_cache_aligned;

struct turbomem_stats {
	struct turbomem_stats_block lcore[RTE_MAX_LCORE];
	struct turbomem_stats_block any; /**< LCORE_ID_ANY threads */
};

/* Single writer: relaxed load and store, readers never see a torn value. */
static __rte_always_inline void
turbomem_stats_add_own(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + v,
			__ATOMIC_RELAXED);
}

/* Shared block: relaxed RMW, counters order nothing else. */
static __rte_always_inline void
turbomem_stats_add_shared(uint64_t *c, uint64_t v)
{
	__atomic_fetch_add(c, v, __ATOMIC_RELAXED);
}

/** Count one enqueue of n objects that took retries failed CAS. */
static __rte_always_inline void
turbomem_stats_count_put(struct turbomem_stats *s, unsigned int n,
		unsigned int retries)
{
	unsigned int lc = rte_lcore_id();
	struct turbomem_stats_block *b;

	if (likely(lc < RTE_MAX_LCORE)) {
		b = &s->lcore[lc];
		turbomem_stats_add_own(&b->put_calls, 1);
		turbomem_stats_add_own(&b->put_objs, n);
		if (retries != 0)
			turbomem_stats_add_own(&b->cas_retries, retries);
	} else {
		b = &s->any;
		turbomem_stats_add_shared(&b->put_calls, 1);
		turbomem_stats_add_shared(&b->put_objs, n);
		if (retries != 0)
			turbomem_stats_add_shared(&b->cas_retries, retries);
	}
}

/**
 * Count one dequeue of n objects; ret is tm_lifo_pop_bulk()'s result:
 * failed CAS attempts (>= 0) or a negative errno (nothing taken).
 */
static __rte_always_inline void
turbomem_stats_count_get(struct turbomem_stats *s, unsigned int n, int ret)
{
	unsigned int lc = rte_lcore_id();
	struct turbomem_stats_block *b;

	if (likely(lc < RTE_MAX_LCORE)) {
		b = &s->lcore[lc];
		if (unlikely(ret < 0)) {
			turbomem_stats_add_own(&b->get_fails, 1);
			return;
		}
		turbomem_stats_add_own(&b->get_calls, 1);
		turbomem_stats_add_own(&b->get_objs, n);
		if (ret != 0)
			turbomem_stats_add_own(&b->cas_retries, ret);
	} else {
		b = &s->any;
		if (unlikely(ret < 0)) {
			turbomem_stats_add_shared(&b->get_fails, 1);
			return;
		}
		turbomem_stats_add_shared(&b->get_calls, 1);
		turbomem_stats_add_shared(&b->get_objs, n);
		if (ret != 0)
			turbomem_stats_add_shared(&b->cas_retries, ret);
	}
}

#endif /* TURBOMEM_STATS_H */
