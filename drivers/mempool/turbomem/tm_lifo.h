/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_LIFO_H
#define TM_LIFO_H

/**
 * @file
 * Lock-free LIFO of object indices: the core of the turbomem mempool driver.
 *
 * Freestanding: no DPDK include, so plain-pthread harnesses, ThreadSanitizer
 * and mutation builds use it directly.
 *
 * Structure. Every object of a pool has a fixed index in [0, capacity) and
 * one link word, next[index], in an array that lives beside the head for the
 * whole life of the pool. The free objects form a singly linked list through
 * those links. The head is one 16-byte word: {top index, count, tag}.
 *
 * - push_bulk links the caller's n objects privately, points the last one at
 *   the current top and commits {first, count + n, tag + 1} with one 16-byte
 *   compare-and-swap. A failed CAS only rewrites the last link.
 * - pop_bulk reads the head, fails at once if count < n, otherwise walks n
 *   links from the top (bounded by n, never by the list length) and commits
 *   {n-th successor, count - n, tag + 1} with one CAS. The walk is
 *   speculative: a concurrent pop/push makes the CAS fail (the tag changed)
 *   and the walk restarts from the fresh head.
 *
 * Synchronization (which operations may run concurrently with which):
 *
 * | operation        | concurrent with push/pop/count | concurrent with init |
 * |------------------|--------------------------------|----------------------|
 * | tm_lifo_push_bulk| yes, any thread                | no                   |
 * | tm_lifo_pop_bulk | yes, any thread                | no                   |
 * | tm_lifo_count    | yes (a snapshot)               | no                   |
 * | tm_lifo_init     | no                             | -                    |
 *
 * Contracts:
 * - pop_bulk is all-or-nothing: >= 0 with exactly n objects, or -ENOENT
 *   with nothing taken. The decision is made on one atomic snapshot of count.
 * - push_bulk never fails while the caller only pushes objects it owns
 *   (taken by pop_bulk or never pushed): count then never exceeds capacity.
 * - count is exact at rest and never above capacity.
 * - Lock-free: a thread preempted anywhere holds nothing that others wait
 *   for; some CAS always succeeds. No per-thread state, so any thread (EAL
 *   lcore, registered or unregistered non-EAL thread) may call it.
 * - All state is inside struct tm_lifo (no pointers), so it may live in
 *   memory shared between processes.
 *
 * ABA: a pop that read {top, count, tag} and was preempted may see the same
 * top again after other threads popped and pushed it back, with a different
 * chain below. The 64-bit tag, incremented by every successful CAS, makes
 * that stale CAS fail; it would need 2^64 commits to wrap.
 */

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tm_cas128.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Link value that ends the list. */
#define TM_LIFO_NIL UINT32_MAX
/** Largest capacity: every index must differ from TM_LIFO_NIL. */
#define TM_LIFO_MAX_CAPACITY (UINT32_MAX - 1)

/*
 * Test-only preemption point between reading the head and committing.
 * The ABA stress build defines it as a yield to widen the race window.
 */
#ifndef TM_LIFO_TEST_YIELD
#define TM_LIFO_TEST_YIELD() do { } while (0)
#endif

/** Head word: top and count share the low 64 bits, the tag the high. */
union tm_lifo_head {
	tm_u128_t whole;
	struct {
		uint64_t top_count; /**< top index | count << 32 */
		uint64_t tag;
	};
};

struct tm_lifo {
	union tm_lifo_head head __attribute__((aligned(16)));
	uint32_t capacity;
	uint32_t reserved;
	/** One link per object. _Atomic: stale readers race with owners. */
	_Atomic uint32_t next[];
} __attribute__((aligned(64)));

/** Convert an index to the caller's object pointer. */
typedef void *(tm_lifo_to_obj_t)(const void *ctx, uint32_t idx);
/** Convert the caller's object pointer to its index. */
typedef uint32_t (tm_lifo_to_idx_t)(const void *ctx, const void *obj);

/** Bytes needed for a LIFO of the given capacity. */
static inline size_t
tm_lifo_size(uint32_t capacity)
{
	return sizeof(struct tm_lifo) + (size_t)capacity * sizeof(uint32_t);
}

/**
 * Make an empty LIFO; not concurrent with anything.
 * @return 0, -EINVAL (capacity 0 or above TM_LIFO_MAX_CAPACITY) or -ENOTSUP
 *   (no lock-free 16-byte CAS on this target).
 */
int tm_lifo_init(struct tm_lifo *l, uint32_t capacity);

static inline uint64_t
tm_lifo_pack(uint32_t top, uint32_t count)
{
	return (uint64_t)top | ((uint64_t)count << 32);
}

static inline uint32_t
tm_lifo_top(uint64_t top_count)
{
	return (uint32_t)top_count;
}

static inline uint32_t
tm_lifo_cnt(uint64_t top_count)
{
	return (uint32_t)(top_count >> 32);
}

/*
 * Read the head as two 8-byte loads. A torn pair (top/count from one commit,
 * tag from another) is harmless: the CAS that follows compares all 16 bytes
 * and fails. top and count are one load, so they are always consistent.
 */
static inline union tm_lifo_head
tm_lifo_load_head(struct tm_lifo *l)
{
	union tm_lifo_head h;

	/* Relaxed: the tag only has to be compared by the CAS. */
	h.tag = __atomic_load_n(&l->head.tag, __ATOMIC_RELAXED);
	/*
	 * Acquire pairs with the release of the CAS in tm_lifo_push_bulk: the
	 * links (and the object contents) written before that push are
	 * visible before we walk them.
	 */
	h.top_count = __atomic_load_n(&l->head.top_count, __ATOMIC_ACQUIRE);
	return h;
}

/**
 * Number of objects in the LIFO: exact at rest, a snapshot otherwise.
 */
static inline uint32_t
tm_lifo_count(struct tm_lifo *l)
{
	/* Relaxed: a statistic; top and count come from one commit. */
	uint32_t n = tm_lifo_cnt(__atomic_load_n(&l->head.top_count,
			__ATOMIC_RELAXED));

	/* Only an owner contract violation (double put) could exceed it. */
	return n <= l->capacity ? n : l->capacity;
}

/** Follow one link (used by the walk and by census code at rest). */
static inline uint32_t
tm_lifo_next(struct tm_lifo *l, uint32_t idx)
{
	/*
	 * Relaxed: in a walk, a stale link is harmless because the CAS fails
	 * (tag changed); the head acquire ordered our reads after the writes
	 * of every committed push.
	 */
	return atomic_load_explicit(&l->next[idx], memory_order_relaxed);
}

static inline void
tm_lifo_set_next(struct tm_lifo *l, uint32_t idx, uint32_t next)
{
	/*
	 * Relaxed: the caller owns idx; the release CAS of the push publishes
	 * it. Stale poppers may read it concurrently, hence the atomic.
	 */
	atomic_store_explicit(&l->next[idx], next, memory_order_relaxed);
}

/**
 * Push n objects owned by the caller, committed with one CAS. Never fails.
 * n == 0 is a no-op. The first object of objs ends on top.
 *
 * @return the number of failed CAS attempts (contention), for statistics.
 */
static inline __attribute__((always_inline)) unsigned int
tm_lifo_push_bulk(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx)
{
	union tm_lifo_head old, new;
	uint32_t first, last, cur;
	unsigned int i, retries = 0;

	if (n == 0)
		return 0;

	first = to_idx(ctx, objs[0]);
	last = first;
	for (i = 1; i < n; i++) {
		cur = to_idx(ctx, objs[i]);
		tm_lifo_set_next(l, last, cur);
		last = cur;
	}

	old = tm_lifo_load_head(l);
	for (;;) {
		tm_lifo_set_next(l, last, tm_lifo_top(old.top_count));
		new.top_count = tm_lifo_pack(first,
				tm_lifo_cnt(old.top_count) + n);
#ifndef TM_MUTANT_NO_TAG
		new.tag = old.tag + 1;
#else
		new.tag = old.tag;
#endif
		TM_LIFO_TEST_YIELD();
		/*
		 * Release on success: our link writes (and the caller's writes
		 * to the objects) happen-before any pop that acquires this
		 * head. Relaxed on failure: the value read back only feeds the
		 * next attempt's last link, which the next CAS publishes.
		 */
		if (tm_cas128(&l->head.whole, &old.whole, new.whole,
				TM_MO_PUSH_SUCCESS, __ATOMIC_RELAXED))
			return retries;
		retries++;
	}
}

/**
 * Pop exactly n objects into objs, committed with one CAS, or none.
 *
 * @return the number of failed CAS attempts (>= 0, for statistics) with
 *   objs[0..n-1] filled, -ENOENT (fewer than n objects; nothing taken, objs
 *   untouched), or -EFAULT (the list is shorter than its count:
 *   corrupted by a contract violation such as a double put; nothing taken).
 */
static inline __attribute__((always_inline)) int
tm_lifo_pop_bulk(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	union tm_lifo_head old, new;
	uint32_t idx;
	unsigned int i;
	int retries = 0;

	if (n == 0)
		return 0;

	old = tm_lifo_load_head(l);
	for (;;) {
		if (tm_lifo_cnt(old.top_count) < n)
			return -ENOENT;

		/*
		 * Find the n-th successor without writing objs: a pop that
		 * fails must leave the caller's table as it was (the mempool
		 * cache refills into its own array and keeps using it after
		 * a failed dequeue).
		 */
		idx = tm_lifo_top(old.top_count);
		for (i = 0; i < n; i++) {
			/* Only a stale snapshot can end early: retry. */
			if (idx >= l->capacity)
				break;
			idx = tm_lifo_next(l, idx);
		}
		if (i < n) {
			union tm_lifo_head cur = tm_lifo_load_head(l);

			/*
			 * A chain shorter than its count under an unchanged
			 * head is not a stale read: the list is corrupt
			 * (e.g. an object put twice). Fail rather than spin.
			 */
			if (cur.top_count == old.top_count &&
					cur.tag == old.tag)
				return -EFAULT;
			old = cur;
			retries++;
			continue;
		}

#ifndef TM_MUTANT_NO_RESERVE
		new.top_count = tm_lifo_pack(idx,
				tm_lifo_cnt(old.top_count) - n);
#else
		new.top_count = tm_lifo_pack(idx, tm_lifo_cnt(old.top_count));
#endif
#ifndef TM_MUTANT_NO_TAG
		new.tag = old.tag + 1;
#else
		new.tag = old.tag;
#endif
		TM_LIFO_TEST_YIELD();
		/*
		 * Success is acq_rel: release keeps the link reads of the walk
		 * before the commit (once committed, the new owner may re-link
		 * these objects); acquire pairs with the push that published
		 * the head we replace. Failure is acquire: the head read back
		 * is walked next, like the one from tm_lifo_load_head.
		 */
		if (tm_cas128(&l->head.whole, &old.whole, new.whole,
				TM_MO_POP_SUCCESS, __ATOMIC_ACQUIRE))
			break;
		retries++;
	}
	/*
	 * The n objects are ours now: only an owner writes an object's link,
	 * so this second walk reads the same chain as the first.
	 */
	idx = tm_lifo_top(old.top_count);
	for (i = 0; i < n; i++) {
		objs[i] = to_obj(ctx, idx);
		idx = tm_lifo_next(l, idx);
	}
	return retries;
}

#ifdef __cplusplus
}
#endif

#endif /* TM_LIFO_H */
