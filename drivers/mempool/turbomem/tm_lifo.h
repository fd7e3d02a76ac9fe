/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_LIFO_H
#define TM_LIFO_H

/**
 * @file
 * Lock-free LIFO of object groups: the core of the turbomem mempool driver.
 *
 * Freestanding: no DPDK include, so plain-pthread harnesses, ThreadSanitizer
 * and mutation builds use it directly.
 *
 * Structure. Every object of a pool has a fixed index in [0, capacity) and
 * one slot, slot[index] (128 bytes with the default TM_LIFO_GROUP of 16), in
 * an array that lives beside the head for the whole life of the pool. The
 * free objects form a list of groups of up to G = TM_LIFO_GROUP objects. A
 * group is named by its key, the object taken last from it; the key's slot
 * holds the other members' pointers and the link to the next group. Objects
 * leave a group in slot order (obj[pos], ..., obj[G - 2], then the key),
 * so a group's slot stays intact while any of its members is free: its key
 * is free too, and nobody else writes a free object's slot. A reference
 * {key, pos} names a group and the position of its next object; the head
 * is one 16-byte word {top reference, count, tag}.
 *
 * - push_bulk cuts the caller's n objects into groups of up to G, fills
 *   their slots privately (the caller owns those objects, hence the slots),
 *   points the last group at the current top and commits
 *   {first group, count + n} with one 8-byte compare-and-swap of the low
 *   half of the head (the tag is left alone, see ABA below). A failed CAS
 *   only rewrites the last link.
 * - pop_bulk reads the head, fails at once if count < n, otherwise walks
 *   the top groups to the reference after the n-th object (one link per
 *   group: ceil(n / G) + 1 slots at most, bounded by n, never by the list
 *   length) and commits {that reference, count - n, tag + 1} with one
 *   16-byte CAS. A partly taken group stays on top with a larger pos. The
 *   walk is speculative: a concurrent pop/push makes the CAS fail (the
 *   head changed) and the walk restarts from the fresh head. The pointers
 *   are copied to the caller's table only after the commit.
 *
 * One CAS per bulk operation, whatever n: the head is the only shared word
 * written, and a list (not an array) lets a push or pop of any size commit
 * in one step with nothing reserved beforehand, so a preempted thread holds
 * nothing that others wait for. Groups make the walk cheap: a pop copies
 * pointers from one slot per G objects instead of following one
 * dependent link per object.
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
 *   with nothing taken and the caller's table untouched. The decision is
 *   made on one atomic snapshot of count.
 * - push_bulk never fails while the caller only pushes objects it owns
 *   (taken by pop_bulk or never pushed): count then never exceeds capacity.
 * - pop_bulk returns the pointers that were pushed; to_obj(to_idx(p)) must
 *   be p for every object p.
 * - count is exact at rest and never above capacity.
 * - Lock-free: a thread preempted anywhere holds nothing that others wait
 *   for; some CAS always succeeds. No per-thread state, so any thread (EAL
 *   lcore, registered or unregistered non-EAL thread) may call it.
 * - All state is inside struct tm_lifo, so it may live in memory shared
 *   between processes; the object pointers it stores must then be valid in
 *   every process (DPDK shared memory is mapped at the same address).
 *
 * ABA: a pop that read {top, count, tag} and was preempted may see the same
 * top again after other threads popped and pushed it back, with different
 * groups below. The 64-bit tag, incremented by every successful pop, makes
 * that stale CAS fail; it would need 2^64 pops to wrap. Pushes need no tag:
 * pushes alone only raise count, so {top, count} can only come back after a
 * pop, which changed the tag; and a push is right whenever {top, count} is
 * still what it linked its last group to, whatever happened before. So a
 * push compares and swaps only those 8 bytes (lock cmpxchg: a push of one
 * object costs about 20% less than with cmpxchg16b). Both CAS act on the
 * same aligned 16-byte word, which x86-64 and aarch64 keep single-copy
 * atomic for either size.
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

/*
 * Objects per group: a key and the GROUP - 1 pointers its slot holds; a
 * slot is 8 * GROUP bytes. 16 (128 bytes, two cache lines per object): a
 * get of 16 reads one slot, not two dependent ones, measured about 8%
 * faster for 1 lcore, bulk 16, no cache, and one dependent (possibly
 * remote) miss fewer where another core freed the objects. A build may say
 * -DTM_LIFO_GROUP=8 to halve the metadata (64 bytes per object).
 */
#ifndef TM_LIFO_GROUP
#define TM_LIFO_GROUP 16
#endif
/** Bits of a reference holding the position within a group. */
#if TM_LIFO_GROUP == 8
#define TM_LIFO_POS_BITS 3
#elif TM_LIFO_GROUP == 16
#define TM_LIFO_POS_BITS 4
#else
#error "TM_LIFO_GROUP must be 8 or 16"
#endif
#define TM_LIFO_IDX_BITS (32 - TM_LIFO_POS_BITS)
/** Key of a reference that ends the list. */
#define TM_LIFO_NIL ((UINT32_C(1) << TM_LIFO_IDX_BITS) - 1)
/** Largest capacity: every index must differ from TM_LIFO_NIL. */
#define TM_LIFO_MAX_CAPACITY TM_LIFO_NIL

/*
 * Test-only preemption point between reading the head and committing.
 * The ABA stress build defines it as a yield to widen the race window.
 */
#ifndef TM_LIFO_TEST_YIELD
#define TM_LIFO_TEST_YIELD() do { } while (0)
#endif

/** Head word: top reference and count share the low 64 bits, tag the high. */
union tm_lifo_head {
	tm_u128_t whole;
	struct {
		uint64_t top_count; /**< top reference | count << 32 */
		uint64_t tag;
	};
};

/** The slot of a group's key: the group's other members and its link. */
struct tm_lifo_slot {
	/** Reference of the next group. _Atomic: stale readers race. */
	_Atomic uint32_t link;
	uint32_t reserved;
	/** Members taken before the key, used from obj[pos] on. */
	_Atomic(void *) obj[TM_LIFO_GROUP - 1];
} __attribute__((aligned(64)));

_Static_assert(sizeof(void *) != 8 ||
	sizeof(struct tm_lifo_slot) == 8 * TM_LIFO_GROUP,
	"a slot is the link word and GROUP - 1 pointers, nothing more");
_Static_assert((1 << TM_LIFO_POS_BITS) == TM_LIFO_GROUP,
	"a position addresses every member of a group");

struct tm_lifo {
	union tm_lifo_head head __attribute__((aligned(16)));
	uint32_t capacity;
	uint32_t reserved;
	/** One slot per object, read only when the object is a group key. */
	struct tm_lifo_slot slot[] __attribute__((aligned(64)));
} __attribute__((aligned(64)));

/** Convert an index to the caller's object pointer. */
typedef void *(tm_lifo_to_obj_t)(const void *ctx, uint32_t idx);
/** Convert the caller's object pointer to its index. */
typedef uint32_t (tm_lifo_to_idx_t)(const void *ctx, const void *obj);

/** Bytes needed for a LIFO of the given capacity. */
static inline size_t
tm_lifo_size(uint32_t capacity)
{
	return sizeof(struct tm_lifo) +
		(size_t)capacity * sizeof(struct tm_lifo_slot);
}

/**
 * Make an empty LIFO; not concurrent with anything.
 * @return 0, -EINVAL (capacity 0 or above TM_LIFO_MAX_CAPACITY) or -ENOTSUP
 *   (no lock-free 16-byte CAS on this target).
 */
int tm_lifo_init(struct tm_lifo *l, uint32_t capacity);

/** Reference to the group keyed by idx, next object at position pos. */
static inline uint32_t
tm_lifo_ref(uint32_t idx, uint32_t pos)
{
	return idx | pos << TM_LIFO_IDX_BITS;
}

static inline uint32_t
tm_lifo_ref_idx(uint32_t ref)
{
	return ref & TM_LIFO_NIL;
}

static inline uint32_t
tm_lifo_ref_pos(uint32_t ref)
{
	return ref >> TM_LIFO_IDX_BITS;
}

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
	 * slots (and the object contents) written before that push are
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
	struct tm_lifo_slot *s, *last = NULL;
	uint64_t old_tc, new_tc;
	unsigned int i, j, len, pos, retries = 0;
	uint32_t first = 0, key, ref;

	if (n == 0)
		return 0;

	/* Full groups first: the top group is the one a pop reads whole. */
	for (i = 0; i < n; i += len) {
		len = n - i < TM_LIFO_GROUP ? n - i : TM_LIFO_GROUP;
		pos = TM_LIFO_GROUP - len;
		key = to_idx(ctx, objs[i + len - 1]);
		s = &l->slot[key];
		/*
		 * Relaxed: the caller owns the key, so the slot; the release
		 * CAS below publishes it. Stale poppers may read it
		 * concurrently, hence the atomics.
		 */
		if (len == TM_LIFO_GROUP) {
			/* Unrolled: gcc keeps loops of atomics rolled. */
#pragma GCC unroll 16
			for (j = 0; j < TM_LIFO_GROUP - 1; j++)
				atomic_store_explicit(&s->obj[j], objs[i + j],
						memory_order_relaxed);
		} else {
			for (j = 0; j < len - 1; j++)
				atomic_store_explicit(&s->obj[pos + j],
						objs[i + j],
						memory_order_relaxed);
		}
		ref = tm_lifo_ref(key, pos);
		if (last == NULL)
			first = ref;
		else
			atomic_store_explicit(&last->link, ref,
					memory_order_relaxed);
		last = s;
	}

	/*
	 * Relaxed: the value only feeds the last link, which the CAS
	 * publishes; the CAS checks it.
	 */
	old_tc = __atomic_load_n(&l->head.top_count, __ATOMIC_RELAXED);
	for (;;) {
		/* Relaxed: published by the CAS, as above. */
		atomic_store_explicit(&last->link, tm_lifo_top(old_tc),
				memory_order_relaxed);
		new_tc = tm_lifo_pack(first, tm_lifo_cnt(old_tc) + n);
		TM_LIFO_TEST_YIELD();
		/*
		 * An 8-byte CAS of {top, count}, the tag untouched: a push is
		 * right whenever top and count are still what it linked to,
		 * whatever happened in between (see ABA in the file comment).
		 * Release on success: our slot writes (and the caller's writes
		 * to the objects) happen-before any pop that acquires this
		 * head. Relaxed on failure: the value read back only feeds the
		 * next attempt's last link, which the next CAS publishes.
		 */
		if (__atomic_compare_exchange_n(&l->head.top_count, &old_tc,
				new_tc, false, TM_MO_PUSH_SUCCESS,
				__ATOMIC_RELAXED))
			return retries;
		retries++;
	}
}

/**
 * Pop exactly n objects into objs, committed with one CAS, or none.
 *
 * @return the number of failed CAS attempts (>= 0, for statistics) with
 *   objs[0..n-1] filled, -ENOENT (fewer than n objects; nothing taken, objs
 *   untouched), or -EFAULT (the list is shorter than its count: corrupted
 *   by a contract violation such as a double put; nothing taken, objs
 *   untouched).
 */
static inline __attribute__((always_inline)) int
tm_lifo_pop_bulk(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	void *tail[TM_LIFO_GROUP - 1];
	union tm_lifo_head old, new;
	const struct tm_lifo_slot *s;
	unsigned int i, j, nb_tail;
	uint32_t ref, key, pos, end;
	int retries = 0;

	if (n == 0)
		return 0;

	/*
	 * objs is written only after the commit: a pop that fails must leave
	 * the caller's table as it was (DPDK 22.11's cache refill dequeues
	 * into the cache's own array and keeps using it after a failure).
	 * The walk only finds the reference after the n-th object, and copies
	 * the members of a group it takes only in part (the group stays
	 * shared, so its slot may be rewritten once the commit lets others
	 * take its key).
	 */
	old = tm_lifo_load_head(l);
	for (;;) {
		if (tm_lifo_cnt(old.top_count) < n)
			return -ENOENT;

		nb_tail = 0;
		ref = tm_lifo_top(old.top_count);
		for (i = 0; i < n; ) {
			key = tm_lifo_ref_idx(ref);
			/* Only a stale snapshot can end early: retry. */
			if (key >= l->capacity)
				break;
			s = &l->slot[key];
			pos = tm_lifo_ref_pos(ref);
			end = pos + (n - i);
			/*
			 * Relaxed loads: a stale pointer or link is harmless
			 * because the CAS fails (head changed); the head
			 * acquire ordered our reads after the writes of every
			 * committed push.
			 */
			if (end < TM_LIFO_GROUP) {
				/* The group stays on top, key included. */
				while (pos < end)
					tail[nb_tail++] = atomic_load_explicit(
						&s->obj[pos++],
						memory_order_relaxed);
				ref = tm_lifo_ref(key, pos);
				i = n;
				break;
			}
			i += TM_LIFO_GROUP - pos;
			ref = atomic_load_explicit(&s->link,
					memory_order_relaxed);
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
		new.top_count = tm_lifo_pack(ref,
				tm_lifo_cnt(old.top_count) - n);
#else
		new.top_count = tm_lifo_pack(ref, tm_lifo_cnt(old.top_count));
#endif
#ifndef TM_MUTANT_NO_TAG
		new.tag = old.tag + 1;
#else
		new.tag = old.tag;
#endif
		TM_LIFO_TEST_YIELD();
		/*
		 * Success is acq_rel: release keeps the slot reads of the walk
		 * before the commit (once committed, others may take and
		 * rewrite the slot of the partly taken group's key); acquire
		 * pairs with the push that published the head we replace.
		 * Failure is acquire: the head read back is walked next, like
		 * the one from tm_lifo_load_head.
		 */
		if (tm_cas128(&l->head.whole, &old.whole, new.whole,
				TM_MO_POP_SUCCESS, __ATOMIC_ACQUIRE))
			break;
		retries++;
	}

	/*
	 * The groups taken whole are ours now: their keys are ours, and only
	 * an object's owner writes its slot, so this walk reads what the
	 * first one did (relaxed: ordered after the commit's acquire).
	 */
	ref = tm_lifo_top(old.top_count);
	for (i = 0; i < n - nb_tail; ) {
		key = tm_lifo_ref_idx(ref);
		s = &l->slot[key];
		pos = tm_lifo_ref_pos(ref);
		if (pos == 0) {
			/* A whole group, unrolled. */
#pragma GCC unroll 16
			for (j = 0; j < TM_LIFO_GROUP - 1; j++)
				objs[i + j] = atomic_load_explicit(&s->obj[j],
						memory_order_relaxed);
			i += TM_LIFO_GROUP - 1;
		} else {
			while (pos < TM_LIFO_GROUP - 1)
				objs[i++] = atomic_load_explicit(
					&s->obj[pos++], memory_order_relaxed);
		}
		objs[i++] = to_obj(ctx, key);
		ref = atomic_load_explicit(&s->link, memory_order_relaxed);
	}
	for (j = 0; j < nb_tail; j++)
		objs[i + j] = tail[j];
	return retries;
}

#ifdef __cplusplus
}
#endif

#endif /* TM_LIFO_H */
