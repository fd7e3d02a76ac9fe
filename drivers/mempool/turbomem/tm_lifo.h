/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_LIFO_H
#define TM_LIFO_H

/**
 * @file
 * Lock-free LIFO of object groups: the core of the turbomem mempool driver.
 * It calls no EAL function (tm_atomic.h), so that the core harness builds
 * it alone, for ThreadSanitizer and mutants too. The design page explains
 * it; a summary:
 *
 * Each object has an index and a 16-byte node {link, block, obj}. Free
 * objects form a list of groups of up to G = 32, named by their key, the
 * object that leaves last: the key's node links to the next group and
 * names the group's member block (one per 16 objects), whose obj[32 - k]
 * .. obj[30] hold the other k - 1 members. A reference {key, pos} names a
 * group and its next member. The head is one word {top reference, tag}.
 *
 * A push takes a block a group from its caller's stash (one per lcore,
 * trading batches of TM_LIFO_BATCH blocks with a free list), or pushes
 * groups of one where none is left, onto the put list: it never waits or
 * fails. It links its groups privately and commits with one release CAS
 * of the head, tag kept. A pop walks from the head to the reference after its n-th object,
 * copying aside what it takes of a group that stays listed, and commits
 * {that reference, tag + 1} with one CAS; a failure walks again. Groups
 * taken whole are the caller's after the commit: it copies them then and
 * stashes their blocks. The tag, changed by every pop, fails a stale pop's
 * CAS (ABA); a push keeps it: linking to a top still the head is right.
 *
 * Put list: lcores that only put (a pipeline's TX side) push onto l->puts,
 * so that the head's line stays with the getters, and so does a push short
 * of blocks, so that its groups of one stay below the head's groups; a get
 * that finds the head short takes it whole. l->transit counts takes under way, which a
 * short get waits for (TM_LIFO_TRANSIT_SPINS rounds, then -EBUSY).
 * An op spins 2^min(r, 4) pauses after its r-th failed CAS, holding
 * nothing. Private writes are relaxed and published by a release CAS; a
 * walk's loads are relaxed, validated by its CAS. Each atomic names its
 * pair where it is used.
 *
 * Contracts (push, pop, count, stash give: any thread, own stash; not
 * concurrent with init):
 * - pop is all-or-nothing; -ENOENT only if, at an instant after its last
 *   head read, fewer than n objects were listed (-EFAULT: a corrupt list).
 * - push never fails while the caller pushes only objects it owns.
 * - count is exact at rest and never above capacity.
 * - A thread stopped anywhere holds only its objects and the blocks in its
 *   hands; some CAS always succeeds.
 * - All state is in struct tm_lifo and the stashes, so it may live in
 *   memory shared by processes that map it at one address.
 */

#include <errno.h>
#include <sched.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tm_atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Objects per group: a key and the 31 members of its block. */
#define TM_LIFO_GROUP 32
/** Bits of a reference that hold the position within a group. */
#define TM_LIFO_POS_BITS 5
/** Key of a reference (and block index) that ends a list. */
#define TM_LIFO_NIL ((UINT32_C(1) << (32 - TM_LIFO_POS_BITS)) - 1)
/** Largest capacity: every index must differ from TM_LIFO_NIL. */
#define TM_LIFO_MAX_CAPACITY TM_LIFO_NIL
/** Objects per block allocated: 32 bytes of core memory an object. */
#define TM_LIFO_OBJS_PER_BLOCK 16
/** Blocks a stash trades with the free list at a time. */
#define TM_LIFO_BATCH 16
/** Groups below its own whose key a block names for a walk to prefetch. */
#define TM_LIFO_HINT 8
/** An empty put list: no top, no bottom. */
#define TM_LIFO_PUTS_EMPTY \
	((uint64_t)TM_LIFO_NIL << 32 | TM_LIFO_NIL << TM_LIFO_POS_BITS)
/** Rounds of 64 pauses a short get waits for a take of the put list. */
#define TM_LIFO_TRANSIT_SPINS 4096

/* Atomic types as names (RTE_ATOMIC(t) may be plain t): a pointer, a word. */
typedef RTE_ATOMIC(void *) tm_lifo_obj_t;
typedef RTE_ATOMIC(uint64_t) tm_lifo_word_t;

/** One per object. Links and blocks are atomic: stale walks read them. */
struct tm_lifo_node {
	RTE_ATOMIC(uint32_t) link;	/**< reference of the next group */
	RTE_ATOMIC(uint32_t) block;	/**< the group's block, or NIL */
	void *obj;			/**< this object, set by its pushes */
};

/** The members of a group: one per TM_LIFO_OBJS_PER_BLOCK objects. */
struct tm_lifo_block {
	RTE_ATOMIC(uint32_t) next;	/**< blocks of its batch, if first */
	/** Next batch on the free list; in a group, a walk's hint. */
	RTE_ATOMIC(uint32_t) batch;
	tm_lifo_obj_t obj[TM_LIFO_GROUP - 1];
};

/** Blocks one thread holds; cnt < 2 * TM_LIFO_BATCH. Zero is empty. */
struct tm_lifo_stash {
	uint32_t cnt;
	uint32_t blk[2 * TM_LIFO_BATCH - 1];
};

struct tm_lifo {
	/** top reference | tag << 32; its own cache line. */
	alignas(64) RTE_ATOMIC(uint64_t) head;
	/** The put list: top reference | bottom key << 32. */
	alignas(64) RTE_ATOMIC(uint64_t) puts;
	/** Takes of the put list under way. */
	RTE_ATOMIC(uint32_t) transit;
	/** Free list of block batches: first block | tag << 32. */
	alignas(64) RTE_ATOMIC(uint64_t) free;
	/** Read-only after init, on a line no operation writes. */
	alignas(64) uint32_t capacity;
	uint32_t nb_blocks;
	uint64_t blocks_off;	/**< offset of the blocks from l */
	alignas(64) struct tm_lifo_node node[];
};

_Static_assert(sizeof(struct tm_lifo_node) == 16 || sizeof(void *) != 8,
	"a node is 16 bytes");
_Static_assert(sizeof(struct tm_lifo_block) == 256 || sizeof(void *) != 8,
	"a block is 256 bytes");
_Static_assert(sizeof(tm_lifo_obj_t) == sizeof(void *),
	"an atomic object pointer is a pointer in memory (memcpy of members)");
_Static_assert(TM_LIFO_BATCH * TM_LIFO_OBJS_PER_BLOCK >= TM_LIFO_GROUP,
	"a stash's batch serves a push of one group");

/** Convert the caller's object pointer to its index. */
typedef uint32_t (tm_lifo_to_idx_t)(const void *ctx, const void *obj);

static inline uint32_t
tm_lifo_nb_blocks(uint32_t capacity)
{
	return (capacity + TM_LIFO_OBJS_PER_BLOCK - 1) / TM_LIFO_OBJS_PER_BLOCK;
}

/* Offset of the blocks from the LIFO: after the nodes, cache aligned. */
static inline size_t
tm_lifo_blocks_off(uint32_t capacity)
{
	return (sizeof(struct tm_lifo) + (size_t)capacity *
		sizeof(struct tm_lifo_node) + 63) & ~(size_t)63;
}

/** Bytes of a LIFO of the given capacity: header, nodes and blocks. */
static inline size_t
tm_lifo_size(uint32_t capacity)
{
	return tm_lifo_blocks_off(capacity) + (size_t)tm_lifo_nb_blocks(capacity) *
		sizeof(struct tm_lifo_block);
}

int tm_lifo_init(struct tm_lifo *l, uint32_t capacity);

static inline struct tm_lifo_block *
tm_lifo_block(struct tm_lifo *l, uint32_t b)
{
	return (struct tm_lifo_block *)((char *)l + l->blocks_off) + b;
}

static inline uint32_t
tm_lifo_ref(uint32_t idx, uint32_t pos)
{
	return idx << TM_LIFO_POS_BITS | pos;
}

static inline uint32_t
tm_lifo_ref_idx(uint32_t ref)
{
	return ref >> TM_LIFO_POS_BITS;
}

static inline uint32_t
tm_lifo_ref_pos(uint32_t ref)
{
	return ref & (TM_LIFO_GROUP - 1);
}

static inline uint64_t
tm_lifo_pack(uint32_t low, uint32_t high)
{
	return (uint64_t)high << 32 | low;
}

static inline uint32_t
tm_lifo_low(uint64_t w)
{
	return (uint32_t)w;
}

static inline uint32_t
tm_lifo_high(uint64_t w)
{
	return (uint32_t)(w >> 32);
}

/* Spin after an operation's r-th failed CAS, holding nothing. */
static inline void
tm_lifo_backoff(unsigned int r)
{
	unsigned int k;

	for (k = 0; k < (1u << (r < 4 ? r : 4)); k++)
		rte_pause();
}

/*
 * Give blocks blk[0..cnt) to the free list as one batch (1 <= cnt <= 30):
 * their indices, two to a member word, in the first block (so that a taker
 * reads them without a chain of misses), its count in its next field.
 * The blocks are the caller's until the release CAS publishes them.
 */
static inline void
tm_lifo_batch_give(struct tm_lifo *l, const uint32_t *blk, unsigned int cnt)
{
	struct tm_lifo_block *first = tm_lifo_block(l, blk[0]);
	unsigned int i;
	uint64_t old;

	for (i = 0; i < cnt; i += 2)
		/* Relaxed: published by the CAS; atomic, as stale walks read. */
		rte_atomic_store_explicit(&first->obj[i / 2], (void *)(uintptr_t)
				tm_lifo_pack(blk[i], i + 1 < cnt ? blk[i + 1] : 0),
				rte_memory_order_relaxed);
	/* Relaxed: as above. */
	rte_atomic_store_explicit(&first->next, cnt, rte_memory_order_relaxed);
	/* Relaxed: the CAS below validates it. */
	old = rte_atomic_load_explicit(&l->free, rte_memory_order_relaxed);
	do {
		/* Relaxed: published by the CAS. */
		rte_atomic_store_explicit(&first->batch, tm_lifo_low(old),
				rte_memory_order_relaxed);
		/* Release: a taker's acquire sees the above. Tag kept (ABA). */
	} while (!rte_atomic_compare_exchange_weak_explicit(&l->free, &old,
			tm_lifo_pack(blk[0], tm_lifo_high(old)),
			rte_memory_order_release, rte_memory_order_relaxed));
}

/* Fill an empty stash with a batch of the free list; false if it is empty. */
static inline bool
tm_lifo_batch_take(struct tm_lifo *l, struct tm_lifo_stash *st)
{
	struct tm_lifo_block *first;
	uint32_t top, next, cnt, i;
	uint64_t old, w;

	/* Acquire: pairs with the give's release CAS. */
	old = rte_atomic_load_explicit(&l->free, rte_memory_order_acquire);
	do {
		top = tm_lifo_low(old);
		if (top >= l->nb_blocks)
			return false;
		/* Relaxed: a stale value makes the tagged CAS fail. */
		next = rte_atomic_load_explicit(&tm_lifo_block(l, top)->batch,
				rte_memory_order_relaxed);
		/* Acquire on failure too: the next top's field is read next. */
	} while (!rte_atomic_compare_exchange_weak_explicit(&l->free, &old,
			tm_lifo_pack(next, tm_lifo_high(old) + 1),
			rte_memory_order_acquire, rte_memory_order_acquire));
	/* Relaxed: ours now, ordered by the CAS's acquire. */
	first = tm_lifo_block(l, top);
	cnt = rte_atomic_load_explicit(&first->next, rte_memory_order_relaxed);
	if (cnt > 2 * TM_LIFO_BATCH - 2)
		cnt = 2 * TM_LIFO_BATCH - 2; /* corrupt: never given */
	for (i = 0; i < cnt; i += 2) {
		w = (uintptr_t)rte_atomic_load_explicit(&first->obj[i / 2],
				rte_memory_order_relaxed);
		st->blk[i] = tm_lifo_low(w);
		st->blk[i + 1] = tm_lifo_high(w);
	}
	/* As in tm_lifo_stash_put. */
	rte_compiler_barrier();
	st->cnt = cnt;
	return true;
}

/** A block of the stash, or TM_LIFO_NIL where none is left anywhere. */
static inline uint32_t
tm_lifo_stash_get(struct tm_lifo *l, struct tm_lifo_stash *st)
{
	if (st->cnt == 0 && !tm_lifo_batch_take(l, st))
		return TM_LIFO_NIL;
	return st->blk[--st->cnt];
}

/* Keep block b; a full stash gives a batch to the free list. */
static inline void
tm_lifo_stash_put(struct tm_lifo *l, struct tm_lifo_stash *st, uint32_t b)
{
	st->blk[st->cnt] = b;
	/* A process killed here leaves its successor no stale entry. */
	rte_compiler_barrier();
	st->cnt++;
	if (st->cnt == 2 * TM_LIFO_BATCH - 1) {
		st->cnt -= TM_LIFO_BATCH;
		tm_lifo_batch_give(l, &st->blk[st->cnt], TM_LIFO_BATCH);
	}
}

/** Give all of a stash's blocks to the free list (a thread's stash). */
static inline void
tm_lifo_stash_give(struct tm_lifo *l, struct tm_lifo_stash *st)
{
	if (st->cnt != 0)
		tm_lifo_batch_give(l, st->blk, st->cnt);
	st->cnt = 0;
}

/*
 * Commit a push's groups, top ref and bottom key, to the head (puts false)
 * or the put list: one CAS, a failure rewrites the bottom's link alone.
 */
static inline unsigned int
tm_lifo_push_commit(struct tm_lifo *l, uint32_t ref, uint32_t bottom,
		bool puts)
{
	tm_lifo_word_t *h = puts ? &l->puts : &l->head;
	unsigned int retries = 0;
	uint64_t old;

	/* Acquire: pairs with the release of the head's last writer. */
	old = rte_atomic_load_explicit(h, rte_memory_order_acquire);
	for (;;) {
		/* Relaxed: published by the CAS. */
		rte_atomic_store_explicit(&l->node[bottom].link,
				tm_lifo_low(old), rte_memory_order_relaxed);
		/*
		 * Release: publishes the groups. The high half is the tag,
		 * kept, or the put list's bottom key where it was empty.
		 */
		if (rte_atomic_compare_exchange_strong_explicit(h, &old,
				tm_lifo_pack(ref, puts && tm_lifo_ref_idx(
					tm_lifo_low(old)) == TM_LIFO_NIL ?
					bottom : tm_lifo_high(old)),
				rte_memory_order_release,
				rte_memory_order_acquire))
			return retries;
		tm_lifo_backoff(++retries);
	}
}

/*
 * Objects of the list from ref on, and in *blocks the groups with a block.
 * Relaxed: the caller's acquire load of the list's word orders them.
 */
static inline uint32_t
tm_lifo_count_list(struct tm_lifo *l, uint32_t ref, uint32_t *blocks)
{
	uint32_t n = 0, key, steps;

	for (steps = 0; steps < l->capacity &&
			(key = tm_lifo_ref_idx(ref)) < l->capacity; steps++) {
		n += TM_LIFO_GROUP - tm_lifo_ref_pos(ref);
		*blocks += rte_atomic_load_explicit(&l->node[key].block,
				rte_memory_order_relaxed) != TM_LIFO_NIL;
		ref = rte_atomic_load_explicit(&l->node[key].link,
				rte_memory_order_relaxed);
	}
	return n;
}

/** Objects in both lists: exact at rest, never above capacity. */
static inline uint32_t
tm_lifo_count(struct tm_lifo *l)
{
	uint32_t n, blocks = 0;

	/* Acquire: pairs with the commits' release (the links walked). */
	n = tm_lifo_count_list(l, tm_lifo_low(rte_atomic_load_explicit(
			&l->head, rte_memory_order_acquire)), &blocks);
	/* Acquire: as the head's. */
	n += tm_lifo_count_list(l, tm_lifo_low(rte_atomic_load_explicit(
			&l->puts, rte_memory_order_acquire)), &blocks);
	return n <= l->capacity ? n : l->capacity;
}

/*
 * A get found the list of the head it read (seen) short: it takes the put
 * list whole (one exchange) and commits it to the head as a push would.
 * 1: retry (objects moved, or the head changed); -ENOENT: fewer objects
 * than asked at that instant; -EBUSY: another take outlasted the wait.
 */
static inline int
tm_lifo_puts_short(struct tm_lifo *l, uint64_t seen)
{
	unsigned int spins, k;
	uint64_t p;

	/* Acquire: an emptied list makes its taker's transit visible. */
	if (tm_lifo_ref_idx(tm_lifo_low(rte_atomic_load_explicit(&l->puts,
			rte_memory_order_acquire))) != TM_LIFO_NIL) {
		/* Relaxed: published by the exchange's release. */
		rte_atomic_fetch_add_explicit(&l->transit, 1, rte_memory_order_relaxed);
		/* acq_rel: pairs with the pushes' release; publishes transit. */
		p = rte_atomic_exchange_explicit(&l->puts, TM_LIFO_PUTS_EMPTY,
				rte_memory_order_acq_rel);
		/* The taken groups are ours until the commit, as a push's. */
		if (tm_lifo_ref_idx(tm_lifo_low(p)) != TM_LIFO_NIL)
			tm_lifo_push_commit(l, tm_lifo_low(p), tm_lifo_high(p), false);
		/* Release: a get that sees transit at 0 (acquire) sees the head. */
		rte_atomic_fetch_sub_explicit(&l->transit, 1, rte_memory_order_release);
		if (tm_lifo_ref_idx(tm_lifo_low(p)) != TM_LIFO_NIL)
			return 1;
	}
	/* Acquire: pairs with a take's release decrement. */
	for (spins = 0; rte_atomic_load_explicit(&l->transit,
			rte_memory_order_acquire) != 0; spins++) {
		if (spins == TM_LIFO_TRANSIT_SPINS)
			return -EBUSY;
		for (k = 0; k < 64; k++)
			rte_pause();
		sched_yield();
	}
	if (spins != 0)
		return 1;
	/* Acquire: as a pop's head load. */
	return rte_atomic_load_explicit(&l->head,
			rte_memory_order_acquire) != seen ? 1 : -ENOENT;
}

/* Prefetch block b's lines, for writing or reading. */
static inline void
tm_lifo_prefetch_block(struct tm_lifo *l, uint32_t b, bool w)
{
	const char *p = (const char *)tm_lifo_block(l, b);
	unsigned int i;

	for (i = 0; i < sizeof(struct tm_lifo_block); i += 64)
		w ? tm_prefetch_w(p + i) : rte_prefetch0(p + i);
}

/* Copy cnt pointers in fixed pieces: a variable memcpy is a call or REP MOVSB. */
static inline void
tm_lifo_copy(void **d, void * const *s, unsigned int cnt)
{
	unsigned int i;

	if (cnt >= 4) {
		for (i = 0; i + 4 < cnt; i += 4)
			memcpy(&d[i], &s[i], 4 * sizeof(void *));
		memcpy(&d[cnt - 4], &s[cnt - 4], 4 * sizeof(void *));
	} else if (cnt >= 2) {
		memcpy(d, s, 2 * sizeof(void *));
		memcpy(&d[cnt - 2], &s[cnt - 2], 2 * sizeof(void *));
	} else if (cnt == 1) {
		d[0] = s[0];
	}
}

/* Four relaxed member stores of a push (published by its CAS). */
static inline void
tm_lifo_store4(tm_lifo_obj_t *d, void * const *s)
{
	rte_atomic_store_explicit(&d[0], s[0], rte_memory_order_relaxed);
	rte_atomic_store_explicit(&d[1], s[1], rte_memory_order_relaxed);
	rte_atomic_store_explicit(&d[2], s[2], rte_memory_order_relaxed);
	rte_atomic_store_explicit(&d[3], s[3], rte_memory_order_relaxed);
}

/*
 * Link one group {members objs[0..k-1), key objs[k-1]} of a push: fill
 * block b (NIL for a group of one) and the key's node, link it to link.
 * Returns the group's reference. All relaxed: published by the push's CAS.
 */
static inline uint32_t
tm_lifo_group_link(struct tm_lifo *l, void * const *objs, unsigned int k,
		uint32_t key, uint32_t b, uint32_t link)
{
	uint32_t pos = TM_LIFO_GROUP - k;
	struct tm_lifo_node *nd = &l->node[key];
	unsigned int i;

	/* Four a step: compilers keep loops of atomics rolled. */
	for (i = 0; i + 4 < k; i += 4)
		tm_lifo_store4(&tm_lifo_block(l, b)->obj[pos + i], &objs[i]);
	for (; i + 1 < k; i++)
		rte_atomic_store_explicit(&tm_lifo_block(l, b)->obj[pos + i],
				objs[i], rte_memory_order_relaxed);
	nd->obj = objs[k - 1];
	rte_atomic_store_explicit(&nd->block, b, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&nd->link, link, rte_memory_order_relaxed);
	return tm_lifo_ref(key, pos);
}

/*
 * A push of several groups, or of one without a stashed block: groups from
 * the end of the table, each linked to the one made before; the last made
 * is the top. Each group's lines are prefetched for writing ahead of it.
 */
static __rte_noinline unsigned int
tm_lifo_push_groups(struct tm_lifo *l, struct tm_lifo_stash *st,
		void * const *objs, unsigned int n, tm_lifo_to_idx_t *to_idx,
		const void *ctx, bool puts)
{
	uint32_t b, key, next, bottom, ref = TM_LIFO_NIL;
	uint32_t keys[TM_LIFO_HINT];
	unsigned int k, made = 0;
	bool blocks = true;

	key = bottom = to_idx(ctx, objs[n - 1]);
	while (n > 0) {
		k = n < TM_LIFO_GROUP ? n : TM_LIFO_GROUP;
		b = TM_LIFO_NIL;
		if (k > 1 && blocks) {
			b = tm_lifo_stash_get(l, st);
			blocks = b != TM_LIFO_NIL;
			/* The block after next. */
			if (st->cnt >= 2)
				tm_lifo_prefetch_block(l, st->blk[st->cnt - 2], true);
		}
		if (b == TM_LIFO_NIL)
			k = 1;
		else
			/* Relaxed: published by the CAS. A walk's hint. */
			rte_atomic_store_explicit(&tm_lifo_block(l, b)->batch,
					made >= TM_LIFO_HINT ?
					keys[made % TM_LIFO_HINT] : TM_LIFO_NIL,
					rte_memory_order_relaxed);
		next = TM_LIFO_NIL;
		if (n > k) {
			next = to_idx(ctx, objs[n - k - 1]);
			tm_prefetch_w(&l->node[next]);
		}
		ref = tm_lifo_group_link(l, &objs[n - k], k, key, b, ref);
		keys[made++ % TM_LIFO_HINT] = key;
		key = next;
		n -= k;
	}
	/*
	 * Groups of one made for want of a block go to the put list: gets
	 * then take the head's groups first and free their blocks, so that
	 * the next pushes group again (a pool never stays broken up).
	 */
	return tm_lifo_push_commit(l, ref, bottom, puts || !blocks);
}

/**
 * Push n objects the caller owns onto the head (puts false) or the
 * put list, in groups of up to G with blocks from st, then groups of one
 * where no block is left. One CAS. Returns the CAS retries.
 */
static inline unsigned int
tm_lifo_push(struct tm_lifo *l, struct tm_lifo_stash *st,
		void * const *objs, unsigned int n, tm_lifo_to_idx_t *to_idx,
		const void *ctx, bool puts)
{
	uint32_t key, b = TM_LIFO_NIL;

	if (n == 0)
		return 0;
	/* One group inline, others out of line: ab.sh 1 lcore bulk 16 1.48x. */
	if (n > TM_LIFO_GROUP || (n > 1 && st->cnt == 0))
		return tm_lifo_push_groups(l, st, objs, n, to_idx, ctx, puts);
	if (n > 1)
		b = st->blk[--st->cnt];
	key = to_idx(ctx, objs[n - 1]);
	return tm_lifo_push_commit(l, tm_lifo_group_link(l, objs, n, key, b,
			TM_LIFO_NIL), key, puts);
}

/**
 * Objects of the head's top group where it is not full, else 0 (a full
 * group, or an empty list): what populate takes back, so that its next
 * push groups them with the objects of the next chunk.
 */
static inline unsigned int
tm_lifo_top_part(struct tm_lifo *l)
{
	/* Relaxed: a hint; the pop that takes them validates it. */
	uint32_t ref = tm_lifo_low(rte_atomic_load_explicit(&l->head,
			rte_memory_order_relaxed));

	if (tm_lifo_ref_idx(ref) >= l->capacity || tm_lifo_ref_pos(ref) == 0)
		return 0;
	return TM_LIFO_GROUP - tm_lifo_ref_pos(ref);
}

/* A pop of several groups or of part of one, out of line (tm_lifo_pop). */
static __rte_noinline int
tm_lifo_pop_walk(struct tm_lifo *l, struct tm_lifo_stash *st, void **objs,
		unsigned int n)
{
	void *tail[TM_LIFO_GROUP];
	uint32_t ref, key, pos, b, pb, h, take, got, nb_tail;
	unsigned int i, retries = 0;
	uint64_t old, cur;
	int more;

	/* Acquire: pairs with the release of the head's last writer. */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (;;) {
		ref = tm_lifo_low(old);
		pb = TM_LIFO_NIL;
		for (got = 0, nb_tail = 0; got < n; got += take) {
			key = tm_lifo_ref_idx(ref);
			pos = tm_lifo_ref_pos(ref);
			if (key >= l->capacity)
				break;
			take = TM_LIFO_GROUP - pos;
			if (take <= n - got) {
				/* Relaxed: a stale link fails the CAS. */
				ref = rte_atomic_load_explicit(&l->node[key].link,
						rte_memory_order_relaxed);
				/*
				 * Relaxed: hints. Prefetch the block, which the copy
				 * reads, and the node the block before names.
				 */
				b = rte_atomic_load_explicit(&l->node[key].block,
						rte_memory_order_relaxed);
				if (pb < l->nb_blocks) {
					h = rte_atomic_load_explicit(
						&tm_lifo_block(l, pb)->batch,
						rte_memory_order_relaxed);
					if (h < l->capacity)
						rte_prefetch0(&l->node[h]);
				}
				pb = b;
				if (b < l->nb_blocks)
					tm_lifo_prefetch_block(l, b, false);
				continue;
			}
			/* Part of a group that stays shared: copy it now. */
			take = n - got;
			/* Relaxed: as the link. */
			b = rte_atomic_load_explicit(&l->node[key].block,
					rte_memory_order_relaxed);
			if (b >= l->nb_blocks)
				break;
			for (i = 0; i < take; i++)
				/* Relaxed: a stale member fails the CAS. */
				tail[i] = rte_atomic_load_explicit(
					&tm_lifo_block(l, b)->obj[pos + i],
					rte_memory_order_relaxed);
			nb_tail = take;
			ref = tm_lifo_ref(key, pos + take);
		}
		if (got < n) {
			/* Acquire: as above; an unchanged head makes it real. */
			cur = rte_atomic_load_explicit(&l->head,
					rte_memory_order_acquire);
			if (cur == old) {
				if (tm_lifo_ref_idx(ref) != TM_LIFO_NIL)
					return -EFAULT;
				more = tm_lifo_puts_short(l, old);
				if (more < 0)
					return more;
				/* Acquire: as above. */
				cur = rte_atomic_load_explicit(&l->head,
						rte_memory_order_acquire);
			}
			old = cur;
			continue;
		}
		/*
		 * acq_rel: release keeps the walk's reads before the commit
		 * (others may rewrite a shared group's block after it),
		 * acquire pairs with the push that published the head.
		 * Failure acquire: the head read back is walked next.
		 */
		if (rte_atomic_compare_exchange_strong_explicit(&l->head, &old,
				tm_lifo_pack(ref, tm_lifo_high(old) + 1),
				rte_memory_order_acq_rel,
				rte_memory_order_acquire))
			break;
		tm_lifo_backoff(++retries);
	}
	/* The groups taken whole are ours: their keys, nodes and blocks. */
	ref = tm_lifo_low(old);
	for (i = 0; i < n - nb_tail; ) {
		struct tm_lifo_node *nd = &l->node[tm_lifo_ref_idx(ref)];

		pos = tm_lifo_ref_pos(ref);
		/* Relaxed: ours, ordered by the commit's acquire. */
		b = rte_atomic_load_explicit(&nd->block,
				rte_memory_order_relaxed);
		if (b != TM_LIFO_NIL) {
			/* Plain: the pushes' stores happen-before our acquire. */
			tm_lifo_copy(&objs[i], (void * const *)(uintptr_t)
					&tm_lifo_block(l, b)->obj[pos],
					TM_LIFO_GROUP - 1 - pos);
			tm_lifo_stash_put(l, st, b);
		}
		i += TM_LIFO_GROUP - 1 - pos;
		objs[i++] = nd->obj;
		/* Relaxed: as above. */
		ref = rte_atomic_load_explicit(&nd->link,
				rte_memory_order_relaxed);
	}
	tm_lifo_copy(&objs[n - nb_tail], tail, nb_tail);
	return (int)retries;
}

/**
 * Pop exactly n objects into objs with one CAS, or none (objs untouched);
 * blocks of groups taken whole go to st. Returns the CAS retries (>= 0),
 * or -ENOENT, -EBUSY, -EFAULT (see the file comment).
 */
static inline int
tm_lifo_pop(struct tm_lifo *l, struct tm_lifo_stash *st, void **objs,
		unsigned int n)
{
	struct tm_lifo_node *nd;
	uint32_t ref, pos, b;
	uint64_t old;
	int ret;

	/* Acquire: pairs with the release of the head's last writer. */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	ref = tm_lifo_low(old);
	pos = tm_lifo_ref_pos(ref);
	/* A top group of exactly n inline: ab.sh 1 lcore bulk 16 1.48x. */
	if (tm_lifo_ref_idx(ref) >= l->capacity || TM_LIFO_GROUP - pos != n)
		return tm_lifo_pop_walk(l, st, objs, n);
	nd = &l->node[tm_lifo_ref_idx(ref)];
	/* Relaxed link: a stale one fails the CAS. Orders as the walk's. */
	if (!rte_atomic_compare_exchange_strong_explicit(&l->head, &old,
			tm_lifo_pack(rte_atomic_load_explicit(&nd->link,
					rte_memory_order_relaxed),
				tm_lifo_high(old) + 1),
			rte_memory_order_acq_rel, rte_memory_order_acquire)) {
		tm_lifo_backoff(1);
		ret = tm_lifo_pop_walk(l, st, objs, n);
		return ret < 0 ? ret : ret + 1;
	}
	/* Ours, as in the walk. A group taken down to its key has a block. */
	b = rte_atomic_load_explicit(&nd->block, rte_memory_order_relaxed);
	if (b != TM_LIFO_NIL) {
		tm_lifo_copy(objs, (void * const *)(uintptr_t)
				&tm_lifo_block(l, b)->obj[pos], n - 1);
		tm_lifo_stash_put(l, st, b);
	}
	objs[n - 1] = nd->obj;
	return 0;
}

/*
 * The census of blocks at rest: on the free list, and in the groups of both
 * lists; with the stashes' they add up to nb_blocks. Relaxed: at rest.
 */
static inline uint32_t
tm_lifo_blocks_free(struct tm_lifo *l)
{
	uint32_t batch, steps, n = 0;

	batch = tm_lifo_low(rte_atomic_load_explicit(&l->free,
			rte_memory_order_relaxed));
	for (steps = 0; batch < l->nb_blocks && steps < l->nb_blocks; steps++) {
		n += rte_atomic_load_explicit(&tm_lifo_block(l, batch)->next,
				rte_memory_order_relaxed);
		batch = rte_atomic_load_explicit(&tm_lifo_block(l, batch)->batch,
				rte_memory_order_relaxed);
	}
	return n;
}

static inline uint32_t
tm_lifo_blocks_grouped(struct tm_lifo *l)
{
	uint32_t blocks = 0;

	tm_lifo_count_list(l, tm_lifo_low(rte_atomic_load_explicit(&l->head,
			rte_memory_order_relaxed)), &blocks);
	tm_lifo_count_list(l, tm_lifo_low(rte_atomic_load_explicit(&l->puts,
			rte_memory_order_relaxed)), &blocks);
	return blocks;
}

#ifdef __cplusplus
}
#endif

#endif /* TM_LIFO_H */
