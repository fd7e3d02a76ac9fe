/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_STATS_H
#define TURBOMEM_STATS_H

/*
 * Per-pool driver statistics, kept cheap for the enqueue/dequeue fast path.
 *
 * Each lcore owns one cache-line-aligned block and is its only writer: it
 * adds with a plain "+=" (one add to memory; no locked instruction, no
 * cache line shared with another writer), as DPDK's own mempool
 * statistics do (RTE_MEMPOOL_STAT_ADD). Readers (turbomem_stats.c) load
 * the 64-bit counters plainly too: aligned, so never torn on the 64-bit
 * targets the driver builds for, and a sum is a snapshot anyway.
 * Threads without an lcore id (LCORE_ID_ANY) share one block and add with
 * relaxed atomic RMWs on it.
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

#include "tm_atomic.h"

/*
 * A one-object get or put is one call and one object: it adds 1 to
 * get_one or put_one alone, one counter update instead of two (about 4
 * instructions of a 35-instruction path), and the reader adds get_one to
 * get_calls and get_objs (put_one to put_calls and put_objs).
 */
/*
 * No two counters that one path adds to are adjacent (calls and objects
 * apart): the compiler would add the pair with SSE (a vector load, add
 * and store, and two instructions to build the addend: 6 instructions of
 * a put of 4 instead of 2, callgrind).
 */
struct turbomem_stats_block {
	uint64_t get_calls;	/**< gets of other sizes */
	uint64_t get_fails;
	uint64_t get_objs;	/**< objects of get_calls */
	uint64_t put_calls;	/**< puts of other sizes */
	uint64_t cas_retries;
	uint64_t put_objs;	/**< objects of put_calls */
	uint64_t get_one;	/**< one-object gets */
	uint64_t put_one;	/**< one-object puts */
	/**
	 * Not a statistic: nonzero once this lcore got objects from the
	 * pool (turbomem_ops.c, turbomem_puts_only). In this block because
	 * each get writes this line anyway; never reset.
	 */
	uint64_t got;
} __rte_cache_aligned;

struct turbomem_stats {
	struct turbomem_stats_block lcore[RTE_MAX_LCORE];
	struct turbomem_stats_block any; /**< LCORE_ID_ANY threads */
};

/*
 * Add v to counter c of this thread's block; lc is its rte_lcore_id(),
 * read by the caller once for all it needs it for (a thread-local read:
 * the driver is built with -ftls-model=initial-exec, meson.build, so
 * that it is one load from %fs even in the -d plugin, instead of a
 * __tls_get_addr call per update; measured: 2 calls and ~45 instructions
 * of a 1-object get with the default model).
 * An lcore's own block: its only writer, a plain add (see above).
 * The shared block: a relaxed RMW (the counter viewed as atomic, as DPDK
 * drivers do for counters shared this way); counters order nothing else.
 */
#define TURBOMEM_STATS_ADD(s, lc, c, v) do { \
	if (likely((lc) < RTE_MAX_LCORE)) \
		(s)->lcore[lc].c += (v); \
	else \
		rte_atomic_fetch_add_explicit( \
			(RTE_ATOMIC(uint64_t) *)&(s)->any.c, (v), \
			rte_memory_order_relaxed); \
} while (0)

/** Count one enqueue of n objects that took retries failed CAS, lcore lc. */
static inline void
turbomem_stats_count_put(struct turbomem_stats *s, unsigned int lc,
		unsigned int n, unsigned int retries)
{
	TURBOMEM_STATS_ADD(s, lc, put_calls, 1);
	TURBOMEM_STATS_ADD(s, lc, put_objs, n);
	if (unlikely(retries != 0))
		TURBOMEM_STATS_ADD(s, lc, cas_retries, retries);
}

/**
 * Count one dequeue of n objects; ret is tm_lifo_pop_bulk()'s result:
 * failed CAS attempts (>= 0) or a negative errno (nothing taken).
 */
static inline void
turbomem_stats_count_get(struct turbomem_stats *s, unsigned int lc,
		unsigned int n, int ret)
{
	if (unlikely(ret < 0)) {
		TURBOMEM_STATS_ADD(s, lc, get_fails, 1);
		return;
	}
	TURBOMEM_STATS_ADD(s, lc, get_calls, 1);
	TURBOMEM_STATS_ADD(s, lc, get_objs, n);
	if (unlikely(ret != 0))
		TURBOMEM_STATS_ADD(s, lc, cas_retries, (unsigned int)ret);
}

/** turbomem_stats_count_put of one object. */
static inline void
turbomem_stats_count_put_one(struct turbomem_stats *s, unsigned int lc,
		unsigned int retries)
{
	TURBOMEM_STATS_ADD(s, lc, put_one, 1);
	if (unlikely(retries != 0))
		TURBOMEM_STATS_ADD(s, lc, cas_retries, retries);
}

/** turbomem_stats_count_get of one object. */
static inline void
turbomem_stats_count_get_one(struct turbomem_stats *s, unsigned int lc,
		int ret)
{
	if (unlikely(ret < 0)) {
		TURBOMEM_STATS_ADD(s, lc, get_fails, 1);
		return;
	}
	TURBOMEM_STATS_ADD(s, lc, get_one, 1);
	if (unlikely(ret != 0))
		TURBOMEM_STATS_ADD(s, lc, cas_retries, (unsigned int)ret);
}

#endif /* TURBOMEM_STATS_H */
