/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * The counts of threads without an lcore id, out of line: each claims a
 * per-thread block of the pool's statistics (turbomem_stats.h), or counts
 * into the shared block when none is free. turbomem_stats_report.c sums
 * the blocks.
 */

#include <errno.h>
#include <signal.h>
#include <stddef.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_per_lcore.h>

#include "turbomem_private.h"

/* Pools whose thread block a thread keeps at hand (see below). */
#define TURBOMEM_STATS_TLS_WAYS 4

/*
 * What a thread without an lcore id knows of the pools it counts into:
 * for each of its last TURBOMEM_STATS_TLS_WAYS pools, the block it
 * claimed there, or NULL (none was free: the shared block).
 */
struct turbomem_stats_tls {
	struct turbomem_stats *s[TURBOMEM_STATS_TLS_WAYS];
	struct turbomem_stats_block *b[TURBOMEM_STATS_TLS_WAYS];
	unsigned int next; /**< way replaced next */
};

/*
 * 72 bytes of the static TLS block (the driver is built with
 * -ftls-model=initial-exec, meson.build; a -d plugin's static TLS comes
 * from the surplus that glibc keeps for such libraries).
 */
static RTE_DEFINE_PER_LCORE(struct turbomem_stats_tls, turbomem_stats_tls);

/*
 * Whether thread id tid is gone: its block may be claimed again. kill()
 * with signal 0 checks only that the id exists (a thread id names its
 * thread group); any other answer than ESRCH (EPERM: another user's)
 * keeps the block its owner's.
 */
static bool
turbomem_stats_tid_gone(uint32_t tid)
{
	return kill((pid_t)tid, 0) < 0 && errno == ESRCH;
}

/*
 * The block of s that thread tid writes: the one it claimed before
 * (tid is its owner), else a free one, else one whose owner is gone;
 * NULL when every block belongs to a live thread. Claims are CASes of
 * the owner from what was read (acquire: the counts the previous owner
 * added, which the reader sums, come before this thread's adds; the
 * block's counters are never reset by a claim, so none is lost).
 */
static struct turbomem_stats_block *
turbomem_stats_claim(struct turbomem_stats *s, uint32_t tid)
{
	struct turbomem_stats_block *b;
	uint32_t owner;
	unsigned int i, pass;

	for (i = 0; i < TURBOMEM_STATS_THREADS; i++)
		/* Relaxed: a block this thread claimed earlier is its own. */
		if (rte_atomic_load_explicit(&s->thread[i].owner,
				rte_memory_order_relaxed) == tid)
			return &s->thread[i];
	/* Pass 0: free blocks; pass 1: blocks of threads gone. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < TURBOMEM_STATS_THREADS; i++) {
			b = &s->thread[i];
			owner = rte_atomic_load_explicit(&b->owner,
					rte_memory_order_relaxed);
			if ((pass == 0) != (owner == 0))
				continue;
			if (pass == 1 && !turbomem_stats_tid_gone(owner))
				continue;
			/* Acquire / relaxed: see above. */
			if (rte_atomic_compare_exchange_strong_explicit(
					&b->owner, &owner, tid,
					rte_memory_order_acquire,
					rte_memory_order_relaxed)) {
				if (b->listed == 0)
					turbomem_stats_enlist(s, RTE_MAX_LCORE + i);
				return b;
			}
		}
	}
	return NULL;
}

/*
 * The block that this thread, without an lcore id, counts into in s: the
 * one it claimed there, claimed on its first count into s; NULL where
 * every block belongs to another live thread (the shared block, then).
 */
static struct turbomem_stats_block *
turbomem_stats_thread_block(struct turbomem_stats *s, uint32_t tid)
{
	struct turbomem_stats_tls *t = &RTE_PER_LCORE(turbomem_stats_tls);
	struct turbomem_stats_block *b;
	unsigned int w;

	for (w = 0; w < TURBOMEM_STATS_TLS_WAYS; w++)
		if (t->s[w] == s)
			break;
	if (w == TURBOMEM_STATS_TLS_WAYS) {
		w = t->next++ % TURBOMEM_STATS_TLS_WAYS;
		t->s[w] = s;
		t->b[w] = turbomem_stats_claim(s, tid);
		return t->b[w];
	}
	b = t->b[w];
	/*
	 * Relaxed owner: still this thread's unless the pool was freed and
	 * another made at the same address (its blocks unclaimed): claim.
	 */
	if (b != NULL && unlikely(rte_atomic_load_explicit(&b->owner,
			rte_memory_order_relaxed) != tid))
		b = t->b[w] = turbomem_stats_claim(s, tid);
	return b;
}

/*
 * Add v to the counter at offset off of the shared block: a relaxed RMW
 * (the counter viewed as atomic, as DPDK drivers do for counters shared
 * this way); it orders nothing.
 */
static void
turbomem_stats_any_add(struct turbomem_stats *s, size_t off, uint64_t v)
{
	rte_atomic_fetch_add_explicit(
			(RTE_ATOMIC(uint64_t) *)RTE_PTR_ADD(&s->any, off), v,
			rte_memory_order_relaxed);
}

#define TURBOMEM_STATS_ANY_ADD(s, c, v) \
	turbomem_stats_any_add(s, offsetof(struct turbomem_stats_block, c), v)

/* turbomem_stats_count_put of a thread without an lcore id. */
int
turbomem_stats_thread_put(struct turbomem_stats *s, unsigned int n,
		unsigned int retries)
{
	struct turbomem_stats_block *b;

	b = turbomem_stats_thread_block(s, (uint32_t)rte_gettid());
	/* Its only writer: plain adds, as an lcore's. */
	if (likely(b != NULL))
		return turbomem_stats_block_put(b, n, retries);
	TURBOMEM_STATS_ANY_ADD(s, put_calls, 1);
	TURBOMEM_STATS_ANY_ADD(s, put_objs, n);
	if (retries != 0)
		TURBOMEM_STATS_ANY_ADD(s, cas_retries, retries);
	return 0;
}

/* turbomem_stats_count_get of a thread without an lcore id. */
int
turbomem_stats_thread_get(struct turbomem_stats *s, unsigned int n, int ret)
{
	struct turbomem_stats_block *b;

	b = turbomem_stats_thread_block(s, (uint32_t)rte_gettid());
	/* Its only writer: plain adds, as an lcore's. */
	if (likely(b != NULL))
		return turbomem_stats_block_get(b, n, ret);
	if (ret < 0) {
		TURBOMEM_STATS_ANY_ADD(s, get_fails, 1);
		return ret;
	}
	TURBOMEM_STATS_ANY_ADD(s, get_calls, 1);
	TURBOMEM_STATS_ANY_ADD(s, get_objs, n);
	if (ret != 0)
		TURBOMEM_STATS_ANY_ADD(s, cas_retries, (unsigned int)ret);
	return 0;
}

void
turbomem_stats_enlist(struct turbomem_stats *s, unsigned int i)
{
	struct turbomem_stats_block *b = i < RTE_MAX_LCORE ? &s->lcore[i] :
		&s->thread[i - RTE_MAX_LCORE];

	/*
	 * Relaxed: a count that misses a block enlisted meanwhile is a
	 * snapshot of an instant before; at rest every bit and count shows.
	 */
	rte_atomic_fetch_or_explicit(&s->used[i / 64], UINT64_C(1) << (i % 64),
			rte_memory_order_relaxed);
	b->listed = 1;
}

/* Block number i of the used mask. */
static inline const struct turbomem_stats_block *
turbomem_stats_block_of(const struct turbomem_stats *s, unsigned int i)
{
	return i < RTE_MAX_LCORE ? &s->lcore[i] : &s->thread[i - RTE_MAX_LCORE];
}

/* The sum of one counter (gets: true; puts: false) over the used blocks. */
static uint64_t
turbomem_stats_objs(const struct turbomem_stats *s,
		const uint64_t used[TURBOMEM_STATS_USED_WORDS], bool gets)
{
	uint64_t n = 0, bits;
	unsigned int w, i;

	for (w = 0; w < TURBOMEM_STATS_USED_WORDS; w++) {
		for (bits = used[w]; bits != 0; bits &= bits - 1) {
			i = w * 64 + rte_bsf64(bits);
			/* Plain loads of counters written plainly (stats.h). */
			n += gets ? turbomem_stats_block_of(s, i)->get_objs :
				turbomem_stats_block_of(s, i)->put_objs;
		}
	}
	return n;
}

/*
 * Every get first, then every put: a get and the put of its objects that
 * both fall between the two passes count only the put, so that the sum is
 * at least the objects held when the gets were read (less the puts
 * committed but not counted yet) and at most that plus the gets of the
 * read; never the far too low sum of a reader preempted between a block's
 * get count and a put count read before it.
 */
uint32_t
turbomem_stats_avail(const struct turbomem_stats *s, uint32_t populated)
{
	uint64_t used[TURBOMEM_STATS_USED_WORDS], got, put;
	unsigned int w;
	int64_t n;

	for (w = 0; w < TURBOMEM_STATS_USED_WORDS; w++)
		/* Relaxed: see turbomem_stats_enlist. */
		used[w] = rte_atomic_load_explicit(&s->used[w],
				rte_memory_order_relaxed);
	got = s->any.get_objs + turbomem_stats_objs(s, used, true);
	/* Acquire: the gets' loads come before the puts' loads. */
	rte_atomic_thread_fence(rte_memory_order_acquire);
	put = s->any.put_objs + turbomem_stats_objs(s, used, false);
	n = (int64_t)populated + (int64_t)(put - got);
	/* Above populated: gets read while their objects came back. */
	return n < 0 ? 0 : n > populated ? populated : (uint32_t)n;
}
