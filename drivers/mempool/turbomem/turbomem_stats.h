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

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>

#include "tm_atomic.h"

/*
 * A one-object get or put is one call and one object: it adds 1 to
 * get_one or put_one alone, one counter update instead of two (about 4
 * instructions of a 35-instruction path), and the reader adds get_one to
 * get_calls and get_objs (put_one to put_calls and put_objs).
 */
struct turbomem_stats_block {
	RTE_ATOMIC(uint64_t) get_calls;	/**< gets of other sizes */
	RTE_ATOMIC(uint64_t) get_objs;	/**< their objects */
	RTE_ATOMIC(uint64_t) get_fails;
	RTE_ATOMIC(uint64_t) put_calls;	/**< puts of other sizes */
	RTE_ATOMIC(uint64_t) put_objs;	/**< their objects */
	RTE_ATOMIC(uint64_t) cas_retries;
	RTE_ATOMIC(uint64_t) get_one;	/**< one-object gets */
	RTE_ATOMIC(uint64_t) put_one;	/**< one-object puts */
} __rte_cache_aligned;


struct turbomem_stats {
	struct turbomem_stats_block lcore[RTE_MAX_LCORE];
	struct turbomem_stats_block any; /**< LCORE_ID_ANY threads */
};

/*
 * Add v to counter c of block b: b is this lcore's own block (own) or the
 * block shared by unregistered threads.
 * Own: single writer, a relaxed load and store (no locked instruction);
 * relaxed only so that readers never see a torn value.
 * Shared: a relaxed RMW; counters order nothing else.
 */
#define TURBOMEM_STATS_ADD(own, b, c, v) do { \
	if (likely(own)) \
		rte_atomic_store_explicit(&(b)->c, \
			rte_atomic_load_explicit(&(b)->c, \
				rte_memory_order_relaxed) + (v), \
			rte_memory_order_relaxed); \
	else \
		rte_atomic_fetch_add_explicit(&(b)->c, (v), \
			rte_memory_order_relaxed); \
} while (0)

/*
 * This thread's block; lc is its rte_lcore_id(), read by the caller once
 * for this and what else it needs it for. rte_lcore_id() is a
 * thread-local read; the driver
 * is built with -ftls-model=initial-exec (meson.build), so that read is
 * one load from %fs even in the -d plugin, instead of a __tls_get_addr
 * call per statistics update (measured: 2 calls and ~45 instructions of a
 * 1-object get with the default model).
 */
static inline struct turbomem_stats_block *
turbomem_stats_block(struct turbomem_stats *s, unsigned int lc, bool *own)
{
	*own = lc < RTE_MAX_LCORE;
	return likely(*own) ? &s->lcore[lc] : &s->any;
}

/** Count one enqueue of n objects that took retries failed CAS, lcore lc. */
static inline void
turbomem_stats_count_put(struct turbomem_stats *s, unsigned int lc, unsigned int n,
		unsigned int retries)
{
	bool own;
	struct turbomem_stats_block *b = turbomem_stats_block(s, lc, &own);

	TURBOMEM_STATS_ADD(own, b, put_calls, 1);
	TURBOMEM_STATS_ADD(own, b, put_objs, n);
	if (unlikely(retries != 0))
		TURBOMEM_STATS_ADD(own, b, cas_retries, retries);
}

/**
 * Count one dequeue of n objects; ret is tm_lifo_pop_bulk()'s result:
 * failed CAS attempts (>= 0) or a negative errno (nothing taken).
 */
static inline void
turbomem_stats_count_get(struct turbomem_stats *s, unsigned int lc, unsigned int n, int ret)
{
	bool own;
	struct turbomem_stats_block *b = turbomem_stats_block(s, lc, &own);

	if (unlikely(ret < 0)) {
		TURBOMEM_STATS_ADD(own, b, get_fails, 1);
		return;
	}
	TURBOMEM_STATS_ADD(own, b, get_calls, 1);
	TURBOMEM_STATS_ADD(own, b, get_objs, n);
	if (unlikely(ret != 0))
		TURBOMEM_STATS_ADD(own, b, cas_retries, (unsigned int)ret);
}

/** turbomem_stats_count_put of one object. */
static inline void
turbomem_stats_count_put_one(struct turbomem_stats *s, unsigned int lc, unsigned int retries)
{
	bool own;
	struct turbomem_stats_block *b = turbomem_stats_block(s, lc, &own);

	TURBOMEM_STATS_ADD(own, b, put_one, 1);
	if (unlikely(retries != 0))
		TURBOMEM_STATS_ADD(own, b, cas_retries, retries);
}

/** turbomem_stats_count_get of one object. */
static inline void
turbomem_stats_count_get_one(struct turbomem_stats *s, unsigned int lc, int ret)
{
	bool own;
	struct turbomem_stats_block *b = turbomem_stats_block(s, lc, &own);

	if (unlikely(ret < 0)) {
		TURBOMEM_STATS_ADD(own, b, get_fails, 1);
		return;
	}
	TURBOMEM_STATS_ADD(own, b, get_one, 1);
	if (unlikely(ret != 0))
		TURBOMEM_STATS_ADD(own, b, cas_retries, (unsigned int)ret);
}

#endif /* TURBOMEM_STATS_H */
