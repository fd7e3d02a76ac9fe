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
 * Threads without an lcore id (LCORE_ID_ANY) claim a block each, by
 * their thread id, and add plainly too; where all such blocks are taken,
 * they share one more block and add with relaxed atomic RMWs on it (a
 * locked instruction per counter: measured, twice the cost of a get or
 * put of such threads; design page, "Statistics").
 *
 * The blocks live in the pool's rte_malloc'ed data, so secondary processes
 * count into the same blocks. Like the mempool's per-lcore caches, this
 * assumes that processes use distinct lcore ids; two processes running the
 * same lcore id may lose counts (never corrupt the pool). Thread blocks
 * are claimed by thread id, unique among the processes of one PID
 * namespace: processes of different namespaces sharing a pool may lose
 * counts of their unregistered threads the same way.
 */

#include <stdalign.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "tm_lifo.h"

/*
 * No two counters that one path adds to are adjacent (calls and objects
 * apart): the compiler would add the pair with SSE (a vector load, add
 * and store, and two instructions to build the addend).
 */
struct __rte_cache_aligned turbomem_stats_block {
	uint64_t get_calls;
	uint64_t get_fails;
	uint64_t get_objs;
	uint64_t put_calls;
	uint64_t cas_retries;
	uint64_t put_objs;
	/**
	 * Not a statistic: nonzero once this lcore got objects from the
	 * pool (turbomem_ops.c, turbomem_puts_only). In this block because
	 * each get writes this line anyway; never reset.
	 */
	uint64_t got;
	/**
	 * Not a statistic: the thread id of the thread that writes this
	 * block, 0 while none does (thread blocks only, turbomem_stats.c).
	 */
	RTE_ATOMIC(uint32_t) owner;
	/**
	 * Not a statistic: nonzero once this block is in the pool's used
	 * mask (turbomem_stats_enlist); never reset.
	 */
	uint32_t listed;
	/**
	 * Not a statistic: the lcore's blocks (tm_lifo.h, "Blocks"), on the
	 * lines its ops write anyway; never reset. Unused in thread blocks.
	 */
	struct tm_lifo_stash stash;
};

/*
 * Blocks for threads without an lcore id (unregistered non-EAL threads):
 * each is written by one such thread at a time, which claims it on its
 * first count into the pool (turbomem_stats.c), so that their
 * counts are plain adds as an lcore's. Threads beyond these count into
 * the shared block with atomic RMWs.
 */
#define TURBOMEM_STATS_THREADS 64

/* Words of the used mask: a bit per lcore block, then per thread block. */
#define TURBOMEM_STATS_USED_WORDS \
	((RTE_MAX_LCORE + TURBOMEM_STATS_THREADS + 63) / 64)

struct turbomem_stats {
	struct turbomem_stats_block lcore[RTE_MAX_LCORE];
	/** LCORE_ID_ANY threads, one each (see TURBOMEM_STATS_THREADS) */
	struct turbomem_stats_block thread[TURBOMEM_STATS_THREADS];
	struct turbomem_stats_block any; /**< LCORE_ID_ANY threads beyond */
	/**
	 * The blocks that ever counted, so that the count of objects
	 * (turbomem_stats_avail) sums a few lines, not every block. Set
	 * once per block, read by every count; its own line.
	 */
	alignas(RTE_CACHE_LINE_SIZE)
	RTE_ATOMIC(uint64_t) used[TURBOMEM_STATS_USED_WORDS];
	/**
	 * What rte_pmd_turbomem_stats_reset() read, in a block's counters:
	 * the statistics report the blocks' sums minus these, so that the
	 * blocks' object counts, which the count of objects needs, are
	 * never reset.
	 */
	struct turbomem_stats_block base;
};

/* Block number i (lcores first, then threads) into the used mask. */
void turbomem_stats_enlist(struct turbomem_stats *s, unsigned int i);

/**
 * Objects the pool holds, from the blocks' counts: populated plus the
 * objects put minus those got, over the used blocks. O(used blocks), no
 * walk: exact at rest, never above populated, and off by at most the bulk
 * of each thread between its commit and its count (one killed there).
 */
uint32_t turbomem_stats_avail(const struct turbomem_stats *s,
		uint32_t populated);

/*
 * The counts of the fast path. lc is the thread's rte_lcore_id(), read
 * by the caller once for all it needs it for (a thread-local read: the
 * driver is built with -ftls-model=initial-exec, meson.build, so that it
 * is one load from %fs even in the -d plugin, instead of a __tls_get_addr
 * call per update; measured: 2 calls and ~45 instructions of a 1-object
 * get with the default model). An lcore adds to its own block plainly
 * (its only writer, see above). A thread without an lcore id goes out of
 * line (turbomem_stats_thread_put, turbomem_stats_thread_get), as a tail
 * call: each returns what the operation returns, so that a caller's
 * count is its last step and no register is kept across a call on the
 * lcores' path.
 */
int turbomem_stats_thread_put(struct turbomem_stats *s, unsigned int n,
		unsigned int retries);
int turbomem_stats_thread_get(struct turbomem_stats *s, unsigned int n,
		int ret);

/*
 * The counts of a put of n objects that took retries failed CAS, and of
 * a get whose pop returned ret, into block b by its only writer (an
 * lcore, or the thread that claimed it): plain adds.
 */
static inline int
turbomem_stats_block_put(struct turbomem_stats_block *b, unsigned int n,
		unsigned int retries)
{
	b->put_calls += 1;
	b->put_objs += n;
	if (unlikely(retries != 0))
		b->cas_retries += retries;
	return 0;
}

static inline int
turbomem_stats_block_get(struct turbomem_stats_block *b, unsigned int n,
		int ret)
{
	if (unlikely(ret < 0)) {
		b->get_fails += 1;
		return ret;
	}
	b->get_calls += 1;
	b->get_objs += n;
	if (unlikely(ret != 0))
		b->cas_retries += (unsigned int)ret;
	return 0;
}

/**
 * Count one enqueue of n objects that took retries failed CAS, lcore lc.
 * @return 0, the enqueue's result.
 */
static inline int
turbomem_stats_count_put(struct turbomem_stats *s, unsigned int lc,
		unsigned int n, unsigned int retries)
{
	if (unlikely(lc >= RTE_MAX_LCORE))
		return turbomem_stats_thread_put(s, n, retries);
	return turbomem_stats_block_put(&s->lcore[lc], n, retries);
}

/**
 * Count one dequeue of n objects; ret is tm_lifo_pop_bulk()'s result:
 * failed CAS attempts (>= 0) or a negative errno (nothing taken).
 * @return the dequeue's result: 0, or ret where negative.
 */
static inline int
turbomem_stats_count_get(struct turbomem_stats *s, unsigned int lc,
		unsigned int n, int ret)
{
	if (unlikely(lc >= RTE_MAX_LCORE))
		return turbomem_stats_thread_get(s, n, ret);
	return turbomem_stats_block_get(&s->lcore[lc], n, ret);
}

/** Blocks in the lcores' stashes (a snapshot under traffic). */
static inline uint64_t
turbomem_stats_stashed(const struct turbomem_stats *s)
{
	uint64_t n = 0;
	unsigned int i;

	/* Plain loads: each lcore writes its own, a sum is a snapshot. */
	for (i = 0; i < RTE_MAX_LCORE; i++)
		n += s->lcore[i].stash.cnt;
	return n;
}

#endif /* TURBOMEM_STATS_H */
