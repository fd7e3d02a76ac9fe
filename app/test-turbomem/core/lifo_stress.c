/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Plain-pthread stress of the lock-free core (tm_lifo.h), without EAL: the
 * target of ThreadSanitizer and of the mutation builds.
 *
 * Matrix (one shape per run, chosen with -m):
 *   mixed     T threads each get a random bulk (1..B) and put back what it
 *             holds, keeping up to 2B objects; demand above the pool size
 *             makes gets fail constantly (exhaustion), and few blocks for
 *             many threads make pushes fall back to groups of one.
 *   pipeline  half the threads only get, half only put; objects cross
 *             threads through per-pair hand-off slots.
 *   aba       like mixed on a tiny pool, with a yield between reading the
 *             head and committing (build with -DTM_LIFO_TEST_HOOKS).
 *   nofail    like mixed, but the pool holds at least threads x 2B
 *             objects, so at least n are free whenever a thread asks for
 *             n: every -ENOENT is spurious (exact failures).
 *   exact     one thread, deterministic (-DTM_LIFO_TEST_HOOKS): a hook at
 *             a preemption point plays another thread, with its own stash:
 *             - ABA: a pop of X (X -> Y) preempted before its commit; the
 *               other pops X and Y, pushes W and X: the stale commit fails
 *               by its tag, the pop gets X, the next pop W, not Y;
 *             - ABA on a walk: a pop of 2 of X -> Y -> Z (groups of one)
 *               preempted before its commit; the other pops X and Y,
 *               pushes X back: the stale commit (head Z) fails by its tag,
 *               the pop gets X and Z;
 *             - link: a push of X over Y commits, the other at once pops
 *               2: X and Y, not what X's link named before;
 *             - push retry: the other pushes Y under a push of X: X's
 *               retry links X over Y;
 *             - failed get: a pop of 3 of 3 loses 1 to the other: -ENOENT,
 *               table untouched, count 2; the same for a pop of 2 of a
 *               group of 4 that loses 3 (part of the top group);
 *             - stale link: the walk of a pop of 2 reads the head {K}
 *               (K, A below), the other pops both, pushes K alone and A
 *               on top: the pop must re-read the head and take A and K,
 *               not fail;
 *             - backoff: an operation whose CAS loses 7 times returns 7
 *               retries and paused 2^min(r, 4) times after the r-th;
 *             - put list: gets count and take both lists, a take links
 *               the put list's bottom to the head's top, and a get that
 *               finds a take under way waits its whole bound, then fails
 *               with -EBUSY;
 *             - blocks: a get that takes a group whole stashes its block,
 *               a partly taken group keeps it; with every block parked in
 *               other stashes, a push makes groups of one and never
 *               fails; a stash that reaches 2 * TM_LIFO_BATCH - 1 blocks
 *               gives TM_LIFO_BATCH to the free list;
 *               tm_lifo_stash_give returns all of a stash.
 *
 * Threads of odd id push onto the put list (puts true); every thread has
 * its own stash.
 *
 * Oracles, checked on every run:
 *   - ownership ledger: each object has an atomic owner; a get swaps
 *     FREE -> me (anything else is a duplicate hand-out), a put swaps
 *     me -> FREE first;
 *   - payload: the getter writes the object non-atomically and the next
 *     getter reads it, so a missing release/acquire is a data race that
 *     ThreadSanitizer reports;
 *   - exactness: a get returns >= 0 with every entry a valid object, or
 *     -ENOENT, or -EBUSY (a take of the put list preempted for the get's
 *     whole wait); in nofail, never -ENOENT, and -EBUSY in at most one
 *     get in NOFAIL_BUSY_RARE;
 *   - count bounds: 0 <= count <= capacity whenever sampled;
 *   - conservation: objects got == put; blocks at rest: the stashes' +
 *     tm_lifo_blocks_free + tm_lifo_blocks_grouped == nb_blocks, no block
 *     in two stashes (at the end, and after each exact scenario);
 *   - final census: count == capacity at rest, a drain one by one sees
 *     every object exactly once, and one more get fails.
 *
 * Usage: tm-lifo-stress [-m mixed|pipeline|aba|nofail|exact] [-t threads]
 *        [-n objects] [-b max_bulk] [-i iterations per thread] [-s seed]
 * TM_STRESS_SCALE multiplies the iterations (soak runs).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "tm_lifo.h"

#define OWNER_FREE 0
/* nofail: at most one get in this many may wait out a preempted take. */
#define NOFAIL_BUSY_RARE 100000

struct obj {
	_Atomic uint32_t owner;	/* OWNER_FREE or thread id + 1 */
	uint32_t payload;	/* plain: written by each owner */
	char pad[56];
};

enum shape { SHAPE_MIXED, SHAPE_PIPELINE, SHAPE_ABA, SHAPE_NOFAIL, SHAPE_EXACT };
static const char * const shape_names[] = {
	"mixed", "pipeline", "aba", "nofail", "exact",
};

/* This thread's rte_pause calls (core/shim/rte_pause.h). */
_Thread_local unsigned long lifo_pauses;

static struct obj *objs;
static struct tm_lifo *lifo;
static uint32_t nb_objs;
static unsigned int max_bulk = 32;
static unsigned long iterations = 20000;
static enum shape shape = SHAPE_MIXED;
static _Atomic unsigned long errors;
static _Atomic uint64_t total_got, total_put, total_fail, total_busy;
/*
 * Every stash, for the block census: [0] the main thread's, [1] the
 * exact hooks' (another thread), [2, 2 + threads) the workers', then
 * spares where exact parks blocks.
 */
static struct tm_lifo_stash *stashes;
static unsigned int nb_stashes;

/* Pipeline hand-off: producer i passes objects to consumer i. */
struct handoff {
	_Atomic(struct obj *) slot[64];
};
static struct handoff *handoffs;

/* Report, and stop after enough evidence (a broken LIFO floods). */
#define FAIL(...) do { \
	fprintf(stderr, "FAIL: " __VA_ARGS__); \
	fputc('\n', stderr); \
	if (atomic_fetch_add(&errors, 1) >= 20) { \
		fprintf(stderr, "tm-lifo-stress: too many errors, stopping\n"); \
		_exit(1); \
	} \
} while (0)

static uint32_t
to_idx(const void *ctx, const void *o)
{
	(void)ctx;
	return (uint32_t)((const struct obj *)o - objs);
}

static uint32_t
rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

static void
push(struct tm_lifo_stash *st, struct obj **o, unsigned int n, bool puts)
{
	tm_lifo_push(lifo, st, (void * const *)o, n, to_idx, NULL, puts);
}

static int
pop(struct tm_lifo_stash *st, struct obj **o, unsigned int n)
{
	return tm_lifo_pop(lifo, st, (void **)o, n);
}

/*
 * Blocks at rest: the stashes', the free list's and the groups' add up
 * to nb_blocks, and no block is in two stashes.
 */
static void
blocks_check(const char *what)
{
	uint32_t f = tm_lifo_blocks_free(lifo), g = tm_lifo_blocks_grouped(lifo);
	uint8_t *seen = calloc(lifo->nb_blocks, 1);
	uint32_t s = 0, i, k, b;

	for (i = 0; i < nb_stashes; i++) {
		if (stashes[i].cnt >= 2 * TM_LIFO_BATCH - 1)
			FAIL("%s: stash %u holds %u blocks", what, i,
				stashes[i].cnt);
		for (k = 0; k < stashes[i].cnt && k < 2 * TM_LIFO_BATCH - 1; k++) {
			b = stashes[i].blk[k];
			if (b >= lifo->nb_blocks || seen[b]++)
				FAIL("%s: block %u of stash %u out of range or twice",
					what, b, i);
		}
		s += stashes[i].cnt;
	}
	if (s + f + g != lifo->nb_blocks)
		FAIL("%s: blocks: %u in stashes + %u free + %u in groups != %u",
			what, s, f, g, lifo->nb_blocks);
	free(seen);
}

/*
 * Relaxed: the ledger must not synchronize threads itself, or it would
 * hide a missing release/acquire in the LIFO from ThreadSanitizer.
 */
static bool
ledger_swap(_Atomic uint32_t *owner, uint32_t *expect, uint32_t desired)
{
	return atomic_compare_exchange_strong_explicit(owner, expect, desired,
			memory_order_relaxed, memory_order_relaxed);
}

static int
get_bulk(struct tm_lifo_stash *st, struct obj **out, unsigned int n,
		uint32_t me)
{
	uint32_t c = tm_lifo_count(lifo), expect;
	unsigned int i;
	int ret;

	if (c > nb_objs)
		FAIL("count %u above capacity %u", c, nb_objs);
	ret = pop(st, out, n);
	if (ret < 0) {
		if (ret != -ENOENT && ret != -EBUSY)
			FAIL("get of %u returned %d", n, ret);
		else if (ret == -ENOENT && shape == SHAPE_NOFAIL)
			FAIL("spurious failure: get of %u with at least %u free",
				n, n);
		atomic_fetch_add_explicit(&total_fail, 1, memory_order_relaxed);
		if (ret == -EBUSY)
			atomic_fetch_add_explicit(&total_busy, 1,
					memory_order_relaxed);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (out[i] < objs || out[i] >= objs + nb_objs) {
			FAIL("get returned %p outside the pool", (void *)out[i]);
			return -1;
		}
		expect = OWNER_FREE;
		if (!ledger_swap(&out[i]->owner, &expect, me + 1))
			FAIL("object %u handed to thread %u while owned by %u",
				to_idx(NULL, out[i]), me, expect);
		/* Read the previous owner's plain write, then ours. */
		if (out[i]->payload > 1000000)
			FAIL("payload garbage");
		out[i]->payload = me + 1;
	}
	atomic_fetch_add_explicit(&total_got, n, memory_order_relaxed);
	return 0;
}

static void
put_bulk(struct tm_lifo_stash *st, struct obj **in, unsigned int n,
		uint32_t me)
{
	unsigned int i;
	uint32_t expect;

	for (i = 0; i < n; i++) {
		expect = me + 1;
		in[i]->payload = 0;
		if (!ledger_swap(&in[i]->owner, &expect, OWNER_FREE))
			FAIL("thread %u puts object %u owned by %u", me,
				to_idx(NULL, in[i]), expect);
	}
	push(st, in, n, me % 2 != 0);
	atomic_fetch_add_explicit(&total_put, n, memory_order_relaxed);
}

struct worker {
	pthread_t tid;
	uint32_t id;
	uint64_t seed;
	struct tm_lifo_stash *st;
};

static void *
mixed_worker(void *arg)
{
	struct worker *w = arg;
	struct obj **held = calloc(2 * max_bulk, sizeof(*held));
	unsigned int nb_held = 0, n;
	unsigned long it;

	for (it = 0; it < iterations; it++) {
		n = 1 + rng_next(&w->seed) % max_bulk;
		if (nb_held + n <= 2 * max_bulk && (rng_next(&w->seed) & 1)) {
			if (get_bulk(w->st, held + nb_held, n, w->id) == 0)
				nb_held += n;
		} else if (nb_held > 0) {
			n = 1 + rng_next(&w->seed) % nb_held;
			nb_held -= n;
			put_bulk(w->st, held + nb_held, n, w->id);
		}
	}
	if (nb_held > 0)
		put_bulk(w->st, held, nb_held, w->id);
	free(held);
	return NULL;
}

static _Atomic unsigned int producers_left;

/* Give o to the consumer through a free slot; false if all are taken. */
static bool
handoff_one(struct handoff *h, struct obj *o, uint32_t me, uint64_t *seed)
{
	unsigned int s0 = rng_next(seed) % 64, k;
	uint32_t expect = me + 1;
	struct obj *none;

	/* The consumer (me + 1) owns it from the moment it is visible. */
	if (!atomic_compare_exchange_strong(&o->owner, &expect, me + 2))
		FAIL("lost ownership of object %u before hand-off",
			to_idx(NULL, o));
	for (k = 0; k < 64; k++) {
		none = NULL;
		if (atomic_compare_exchange_strong(&h->slot[(s0 + k) % 64],
				&none, o))
			return true;
	}
	expect = me + 2;
	atomic_compare_exchange_strong(&o->owner, &expect, me + 1);
	return false;
}

static void *
pipeline_worker(void *arg)
{
	struct worker *w = arg;
	struct handoff *h = &handoffs[w->id / 2];
	struct obj **buf = calloc(max_bulk, sizeof(*buf)), *o;
	unsigned int i, n, got;
	unsigned long it;
	bool last;

	if (w->id % 2 == 0) {
		for (it = 0; it < iterations; it++) {
			n = 1 + rng_next(&w->seed) % max_bulk;
			if (get_bulk(w->st, buf, n, w->id) != 0)
				continue;
			for (i = 0, got = 0; i < n; i++)
				if (!handoff_one(h, buf[i], w->id, &w->seed))
					buf[got++] = buf[i];
			if (got > 0)
				put_bulk(w->st, buf, got, w->id);
		}
		atomic_fetch_sub(&producers_left, 1);
	} else {
		do {
			last = atomic_load(&producers_left) == 0;
			for (i = 0, got = 0; i < 64; i++) {
				o = atomic_exchange(&h->slot[i], NULL);
				if (o != NULL)
					buf[got++] = o;
				if (got == max_bulk) {
					put_bulk(w->st, buf, got, w->id);
					got = 0;
				}
			}
			if (got > 0)
				put_bulk(w->st, buf, got, w->id);
			/* One full sweep after the last producer ended. */
		} while (!last);
	}
	free(buf);
	return NULL;
}

#ifdef TM_LIFO_TEST_HOOKS
/* --- exact: deterministic interleavings (see the file comment) --- */

/* This thread's stash, the hooks' (another thread's), the objects. */
static struct tm_lifo_stash *s0, *s1;
static struct obj **all, *ex_x, *ex_y, *ex_w;
static int ex_ret;
static unsigned long ex_pauses;
/* The table of the exact pops: gcc cannot bound a walk's copy for small n. */
static struct obj **t;

static void
push1(struct tm_lifo_stash *st, struct obj *o)
{
	push(st, &o, 1, false);
}

/* The scenario's end: count, and blocks conserved. */
static void
rest(const char *what, uint32_t count)
{
	if (tm_lifo_count(lifo) != count)
		FAIL("exact %s: count %u, expected %u", what,
			tm_lifo_count(lifo), count);
	blocks_check(what);
}

/* Whether t[0..n) are o[0..n). */
static bool
same(struct obj **o, unsigned int n)
{
	return memcmp(t, o, n * sizeof(*o)) == 0;
}

/* Fill t[0..n) with a sentinel, or check that it is still there. */
static bool
sentinel(unsigned int n, bool check)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (check && t[i] != (struct obj *)&t)
			return false;
		t[i] = (struct obj *)&t;
	}
	return true;
}

static void
aba_hook(void)
{
	struct obj *o[2];

	ex_ret = pop(s1, o, 1) < 0 || o[0] != ex_x;
	ex_ret |= pop(s1, o + 1, 1) < 0 || o[1] != ex_y;
	push1(s1, ex_w);
	push1(s1, ex_x);
}

/* X over Y over Z, groups of one: a walk takes X and Y, X goes back alone. */
static void
aba_walk_hook(void)
{
	struct obj *o[2];

	ex_ret = pop(s1, o, 2) < 0 || o[0] != ex_x || o[1] != ex_y;
	push1(s1, ex_x);
}

static void
push_hook(void)
{
	push1(s1, ex_y);
}

/* Take ex_ret objects from the top. */
static void
take_hook(void)
{
	struct obj *o[TM_LIFO_GROUP];

	ex_ret = pop(s1, o, (unsigned int)ex_ret);
}

/* ex_x = K on top of ex_w = A: pop both, push K alone, A on top. */
static void
stale_hook(void)
{
	struct obj *o[2];

	ex_ret = pop(s1, o, 2) < 0 || o[0] != ex_x || o[1] != ex_w;
	push1(s1, ex_x);
	push1(s1, ex_w);
}

/* Right after the push of X over Y committed: take 2 from the top. */
static void
link_hook(void)
{
	struct obj *o[2];

	ex_ret = pop(s1, o, 2) < 0 || o[0] != ex_x || o[1] != ex_y;
}

/* Arms stale_hook for the next read: the walk's, after tm_lifo_pop's. */
static void
stale_arm_hook(void)
{
	hook_read = stale_hook;
}

/* backoff: before each of its first ex_left attempts, push a spare. */
static struct obj **ex_spare;
static unsigned int ex_left;

static void
fail_hook(void)
{
	push1(s1, ex_spare[--ex_left]);
	if (ex_left > 0)
		hook_commit = fail_hook;
}

/* A get during a take of the put list (the take's hook, at its CAS). */
static void
transit_hook(void)
{
	unsigned long before = lifo_pauses;

	ex_ret = pop(s1, t + 1, 1);
	ex_pauses = lifo_pauses - before;
}

#define BACKOFF_FAILS 7

/*
 * A push or pop of n objects whose CAS loses BACKOFF_FAILS times (the
 * hook pushes a spare before each attempt) returns that many retries
 * and paused 2^min(r, 4) times after the r-th.
 */
static void
backoff_case(const char *what, bool is_push, unsigned int n,
		struct obj **spare)
{
	unsigned long want = 0;
	unsigned int r;
	int ret;

	for (r = 1; r <= BACKOFF_FAILS; r++)
		want += 1ul << (r < 4 ? r : 4);
	ex_spare = spare;
	ex_left = BACKOFF_FAILS;
	hook_commit = fail_hook;
	lifo_pauses = 0;
	if (is_push)
		ret = (int)tm_lifo_push(lifo, s0, (void * const *)all, n,
				to_idx, NULL, false);
	else
		ret = pop(s0, t, n);
	if (hook_commit != NULL || ex_left != 0)
		FAIL("exact backoff, %s: the interfering pushes did not run", what);
	if (ret != BACKOFF_FAILS || lifo_pauses != want)
		FAIL("exact backoff, %s: returned %d after %lu pauses, expected %d after %lu",
			what, ret, lifo_pauses, BACKOFF_FAILS, want);
	if (!is_push && t[0] != spare[0])
		FAIL("exact backoff, %s: the pop did not start at the last push",
			what);
}

static void
exact_races(void)
{
	int r;

	/* ABA */
	ex_x = all[0];
	ex_y = all[1];
	ex_w = all[2];
	push1(s0, ex_y);
	push1(s0, ex_x);
	hook_commit = aba_hook;
	r = pop(s0, t, 1);
	if (hook_commit != NULL || ex_ret != 0)
		FAIL("exact aba: the interfering pops did not run as planned");
	if (r < 0 || t[0] != ex_x)
		FAIL("exact aba: pop returned %d, %p (X is %p)", r,
			(void *)t[0], (void *)ex_x);
	rest("aba", 1);
	if (pop(s0, t, 1) < 0 || t[0] != ex_w)
		FAIL("exact aba: stale commit: popped %p (Y, held, is %p), expected W %p",
			(void *)t[0], (void *)ex_y, (void *)ex_w);

	/*
	 * ABA on a walk (a pop of 2 groups): its commit must fail on the tag,
	 * or it sets the head to Z, which the stale walk read under Y.
	 */
	push1(s0, all[3]);
	push1(s0, ex_y);
	push1(s0, ex_x);
	hook_commit = aba_walk_hook;
	r = pop(s0, t, 2);
	if (hook_commit != NULL || ex_ret != 0)
		FAIL("exact aba walk: the interfering pop did not run as planned");
	if (r < 0 || t[0] != ex_x || t[1] != all[3])
		FAIL("exact aba walk: pop returned %d, %p %p (X %p, Z %p)", r,
			(void *)t[0], (void *)t[1], (void *)ex_x,
			(void *)all[3]);
	rest("aba walk", 0);

	/*
	 * Link before commit: X's link names W (an old push), then a push of
	 * X over Y commits and at once the other takes 2: X and Y, not W.
	 */
	push1(s0, ex_w);
	push1(s0, ex_x);
	if (pop(s0, t, 2) < 0)
		FAIL("exact link: the pop of X and W failed");
	push1(s0, ex_y);
	hook_committed = link_hook;
	push1(s0, ex_x);
	if (hook_committed != NULL || ex_ret != 0)
		FAIL("exact link: a pop of 2 right after the push of X over Y did not get X then Y");
	rest("link", 0);

	/* push retry, on an empty list */
	hook_commit = push_hook;
	push1(s0, ex_x);
	if (hook_commit != NULL)
		FAIL("exact push retry: the interfering push did not run");
	rest("push retry", 2);
	if (pop(s0, t, 2) < 0 || t[0] != ex_x || t[1] != ex_y)
		FAIL("exact push retry: the pop of 2 did not get X over Y");

	/* failed get: 3 groups of one, the other takes 1 */
	push1(s0, all[2]);
	push1(s0, all[1]);
	push1(s0, all[0]);
	sentinel(3, false);
	ex_ret = 1;
	hook_commit = take_hook;
	r = pop(s0, t, 3);
	if (hook_commit != NULL || ex_ret < 0)
		FAIL("exact failed get: the interfering pop did not run");
	if (r != -ENOENT || !sentinel(3, true))
		FAIL("exact failed get: pop of 3 with 2 left returned %d, or wrote its table",
			r);
	rest("failed get", 2);
	if (pop(s0, t, 2) < 0 || t[0] != all[1] || t[1] != all[2])
		FAIL("exact failed get: the 2 left are not the pushed ones");

	/* failed get of part of the top group: 2 of 4, the other takes 3 */
	push(s0, all, 4, false);
	sentinel(2, false);
	ex_ret = 3;
	hook_commit = take_hook;
	r = pop(s0, t, 2);
	if (hook_commit != NULL || ex_ret < 0)
		FAIL("exact failed top get: the interfering pop did not run");
	if (r != -ENOENT || !sentinel(2, true))
		FAIL("exact failed top get: pop of 2 with 1 left returned %d, or wrote its table",
			r);
	rest("failed top get", 1);
	if (pop(s0, t, 1) < 0 || t[0] != all[3])
		FAIL("exact failed top get: the key left is not the last object");

	/* stale link: K (ex_x) on A (ex_w), a pop of 2, stale_hook in its walk */
	ex_x = all[0];
	ex_w = all[1];
	push1(s0, ex_w);
	push1(s0, ex_x);
	hook_read = stale_arm_hook;
	r = pop(s0, t, 2);
	if (hook_read != NULL || ex_ret != 0)
		FAIL("exact stale link: the interference did not run as planned");
	if (r < 0 || t[0] != ex_w || t[1] != ex_x)
		FAIL("exact stale link: returned %d with 2 objects free, or not A then K",
			r);
	rest("stale link", 0);

	/* backoff: none alone; a push and a pop of 2 groups and 4 objects */
	lifo_pauses = 0;
	push(s0, all, 1, false);
	if (pop(s0, t, 1) != 0 || lifo_pauses != 0)
		FAIL("exact backoff: %lu pauses without contention", lifo_pauses);
	backoff_case("push", true, TM_LIFO_GROUP + 4, &all[TM_LIFO_GROUP + 4]);
	backoff_case("pop", false, TM_LIFO_GROUP + 4,
			&all[TM_LIFO_GROUP + 4 + BACKOFF_FAILS]);
	if (pop(s0, t, 2 * BACKOFF_FAILS) < 0)
		FAIL("exact backoff: the spares are not there");
	rest("backoff", 0);
}

static void
exact_put_list(void)
{
	int r;

	/* 3 on the head (one group), 5 on the put list (pushes of 2 and 3) */
	push(s0, all, 3, false);
	push(s0, &all[3], 2, true);
	push(s0, &all[5], 3, true);
	rest("put list", 8);
	sentinel(9, false);
	r = pop(s0, t, 9);
	if (r != -ENOENT || !sentinel(9, true))
		FAIL("exact put list: get of 9 with 8 free returned %d, or wrote its table",
			r);
	rest("put list, failed get", 8);
	/* the take put all[5..8) (then all[3..5)) on the head's all[0..3) */
	r = pop(s0, t, 8);
	if (r < 0 || !same(&all[5], 3) || t[3] != all[3] || t[4] != all[4] ||
			t[5] != all[0] || t[7] != all[2])
		FAIL("exact put list: get of the 8 returned %d, not the put list over the head",
			r);

	/* three pushes of one onto the put list (bottom all[2]), two on the head */
	push(s0, all, 2, false);
	for (r = 2; r < 5; r++)
		push(s0, &all[r], 1, true);
	r = pop(s0, t, 5);
	if (r < 0 || t[0] != all[4] || t[1] != all[3] || t[2] != all[2] ||
			t[3] != all[0] || t[4] != all[1])
		FAIL("exact put list: get of 5 over a take returned %d, not the put list then the head",
			r);

	/*
	 * A take preempted at its splice (the hook, at its CAS): a get of one
	 * with both lists empty waits for it its whole bound, then fails with
	 * -EBUSY; the take then ends and the taker gets the object.
	 */
	push(s0, all, 1, true);
	ex_ret = 0;
	ex_pauses = 0;
	hook_commit = transit_hook;
	r = pop(s0, t, 1);
	if (hook_commit != NULL)
		FAIL("exact put list: the take did not reach its splice");
	if (ex_ret != -EBUSY || ex_pauses != 64ul * TM_LIFO_TRANSIT_SPINS)
		FAIL("exact put list: a get during a take returned %d after %lu pauses, expected -EBUSY after %lu",
			ex_ret, ex_pauses, 64ul * TM_LIFO_TRANSIT_SPINS);
	if (r < 0 || t[0] != all[0])
		FAIL("exact put list: the taker's get returned %d", r);
	rest("put list", 0);
}

/* Give every stash back: all blocks on the free list. */
static void
give_all(void)
{
	unsigned int i;

	for (i = 0; i < nb_stashes; i++)
		tm_lifo_stash_give(lifo, &stashes[i]);
	if (tm_lifo_blocks_free(lifo) != lifo->nb_blocks - tm_lifo_blocks_grouped(lifo))
		FAIL("exact blocks: %u free after giving every stash",
			tm_lifo_blocks_free(lifo));
}

static void
exact_blocks(void)
{
	const unsigned int b = TM_LIFO_BATCH, nb = lifo->nb_blocks;
	uint32_t blk;
	unsigned int i, p;
	int r;

	/* A group taken whole: its block to the getter's stash. */
	give_all();
	push(s0, all, 4, false);
	blk = s0->blk[s0->cnt];
	if (pop(s1, t, 4) < 0 || !same(all, 4) || s1->cnt != 1 ||
			s1->blk[0] != blk)
		FAIL("exact blocks: the get of a whole group did not stash its block %u",
			blk);
	rest("blocks, whole group", 0);

	/* A group taken in part keeps its block. */
	give_all();
	push(s0, all, 4, false);
	if (pop(s1, t, 2) < 0 || !same(all, 2) || s1->cnt != 0 ||
			tm_lifo_blocks_grouped(lifo) != 1)
		FAIL("exact blocks: a group taken in part gave up its block");
	rest("blocks, part of a group", 2);
	if (pop(s1, t, 2) < 0 || !same(&all[2], 2) || s1->cnt != 1)
		FAIL("exact blocks: the rest of the group, block stashed");
	rest("blocks, rest of a group", 0);

	/*
	 * Every block parked in other stashes: a push with none makes groups
	 * of one; with one, a group of G and groups of one.
	 */
	give_all();
	for (p = 2; p < nb_stashes && tm_lifo_batch_take(lifo, &stashes[p]); p++)
		;
	if (tm_lifo_blocks_free(lifo) != 0 || s0->cnt != 0)
		FAIL("exact blocks: blocks left to park (%u stashes)", nb_stashes);
	for (i = 0; i < 2; i++) {
		if (i == 1) /* one block, from a parked stash */
			s0->blk[s0->cnt++] = stashes[2].blk[--stashes[2].cnt];
		push(s0, all, TM_LIFO_GROUP + 8, false);
		if (tm_lifo_blocks_grouped(lifo) != i ||
				tm_lifo_count(lifo) != TM_LIFO_GROUP + 8)
			FAIL("exact blocks: a push with %u blocks made %u groups with one, count %u",
				i, tm_lifo_blocks_grouped(lifo),
				tm_lifo_count(lifo));
		if (pop(s1, t, TM_LIFO_GROUP + 8) < 0 ||
				!same(all, TM_LIFO_GROUP + 8) || s1->cnt != i)
			FAIL("exact blocks: the get of the groups with %u blocks", i);
		rest("blocks, parked", 0);
	}

	/*
	 * Every block in a group of 2; a get of all but one group stashes
	 * up to 2B - 2 of them, one more gives B to the free list.
	 */
	give_all();
	if (nb < 2 * b - 1 || nb_objs < 2 * nb) {
		FAIL("exact blocks: needs %u blocks", 2 * b - 1);
		return;
	}
	for (i = 0; i < nb; i++)
		push(s0, &all[2 * (nb - 1 - i)], 2, false);
	if (tm_lifo_blocks_grouped(lifo) != nb || s0->cnt != 0)
		FAIL("exact blocks: %u groups of 2 hold %u blocks",
			nb, tm_lifo_blocks_grouped(lifo));
	r = pop(s1, t, 2 * (2 * b - 2));
	if (r < 0 || s1->cnt != 2 * b - 2 || tm_lifo_blocks_free(lifo) != 0)
		FAIL("exact blocks: %u whole groups got (%d): %u stashed, %u free",
			2 * b - 2, r, s1->cnt, tm_lifo_blocks_free(lifo));
	r = pop(s1, t, 2);
	if (r < 0 || s1->cnt != b - 1 || tm_lifo_blocks_free(lifo) != b)
		FAIL("exact blocks: a stash of %u blocks (%d): %u stashed, %u free, expected %u and %u",
			2 * b - 1, r, s1->cnt, tm_lifo_blocks_free(lifo),
			b - 1, b);
	tm_lifo_stash_give(lifo, s1);
	if (s1->cnt != 0 || tm_lifo_blocks_free(lifo) != 2 * b - 1)
		FAIL("exact blocks: tm_lifo_stash_give left %u, %u free",
			s1->cnt, tm_lifo_blocks_free(lifo));
	rest("blocks, batches", 2 * (nb - 2 * b + 1));
	if (pop(s0, t, 2 * (nb - 2 * b + 1)) < 0)
		FAIL("exact blocks: the get of the groups left");
	rest("blocks", 0);
}

static void
exact(void)
{
	all = calloc(nb_objs, sizeof(*all));
	t = calloc(nb_objs + TM_LIFO_GROUP, sizeof(*t));
	s0 = &stashes[0];
	s1 = &stashes[1];
	if (all == NULL || t == NULL || nb_objs < 2 * TM_LIFO_GROUP +
			8 + 2 * BACKOFF_FAILS || pop(s0, all, nb_objs) < 0) {
		FAIL("exact: needs at least %u objects, all free",
			2 * TM_LIFO_GROUP + 8 + 2 * BACKOFF_FAILS);
		return;
	}
	rest("start", 0);
	exact_races();
	exact_put_list();
	exact_blocks();
	push(s0, all, nb_objs, false);
	printf("tm-lifo-stress: exact: ABA, ABA on a walk, link, push retry, failed gets, stale link, backoff, put list, blocks checked\n");
	free(t);
	free(all);
}
#endif

static void
census(void)
{
	uint8_t *seen = calloc(nb_objs, 1);
	struct obj *ob[TM_LIFO_GROUP];
	uint32_t i, c, drained = 0;

	c = tm_lifo_count(lifo);
	if (c != nb_objs)
		FAIL("count at rest %u, expected %u", c, nb_objs);
	while (pop(&stashes[0], ob, 1) >= 0) {
		i = to_idx(NULL, ob[0]);
		if (i >= nb_objs) {
			FAIL("census: object outside the pool");
			break;
		}
		if (seen[i]++)
			FAIL("census: object %u seen twice", i);
		if (atomic_load(&ob[0]->owner) != OWNER_FREE)
			FAIL("census: object %u still owned", i);
		if (++drained > nb_objs) {
			FAIL("census: more objects than the pool holds");
			break;
		}
	}
	for (i = 0; i < nb_objs; i++)
		if (!seen[i])
			FAIL("census: object %u missing", i);
	if (tm_lifo_count(lifo) != 0)
		FAIL("count %u after drain", tm_lifo_count(lifo));
	blocks_check("census");
	free(seen);
}

int
main(int argc, char **argv)
{
	unsigned int nb_threads = 6, t;
	uint64_t seed = (uint64_t)time(NULL);
	const char *scale = getenv("TM_STRESS_SCALE");
	struct worker *w;
	struct obj **tab;
	uint32_t i;
	int opt;

	nb_objs = 1024;
	while ((opt = getopt(argc, argv, "m:t:n:b:i:s:")) != -1) {
		switch (opt) {
		case 'm':
			for (i = 0; i < 5 && strcmp(optarg, shape_names[i]); i++)
				;
			shape = (enum shape)i;
#ifndef TM_LIFO_TEST_HOOKS
			if (shape == SHAPE_EXACT)
				goto usage;
#endif
			if (i == 5)
				goto usage;
			break;
		case 't': nb_threads = strtoul(optarg, NULL, 0); break;
		case 'n': nb_objs = strtoul(optarg, NULL, 0); break;
		case 'b': max_bulk = strtoul(optarg, NULL, 0); break;
		case 'i': iterations = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			goto usage;
		}
	}
	if (nb_threads == 0 || nb_objs == 0 || max_bulk == 0 ||
			(shape == SHAPE_PIPELINE && nb_threads % 2 != 0))
		goto usage;
	if (shape == SHAPE_NOFAIL && nb_objs < nb_threads * 2 * max_bulk) {
		fprintf(stderr, "nofail needs at least threads x 2 x bulk = %u objects\n",
			nb_threads * 2 * max_bulk);
		return 2;
	}
	if (scale != NULL)
		iterations *= strtoul(scale, NULL, 0);

	printf("tm-lifo-stress: shape %s threads %u objects %u bulk 1..%u iterations %lu seed %" PRIu64 "\n",
		shape_names[shape], nb_threads, nb_objs, max_bulk, iterations,
		seed);

	objs = aligned_alloc(64, sizeof(*objs) * nb_objs);
	lifo = aligned_alloc(64, (tm_lifo_size(nb_objs) + 63) & ~(size_t)63);
	tab = calloc(nb_objs + 1, sizeof(*tab));
	handoffs = calloc(nb_threads, sizeof(*handoffs));
	w = calloc(nb_threads, sizeof(*w));
	nb_stashes = 2 + nb_threads + tm_lifo_nb_blocks(nb_objs);
	stashes = calloc(nb_stashes, sizeof(*stashes));
	if (!objs || !lifo || !tab || !handoffs || !w || !stashes) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	memset(objs, 0, sizeof(*objs) * nb_objs);
	if (tm_lifo_init(lifo, nb_objs) != 0) {
		fprintf(stderr, "tm_lifo_init(%u) failed\n", nb_objs);
		return 2;
	}
	/* Edge: an empty LIFO refuses, a full one refuses size + 1. */
	if (pop(&stashes[0], tab, 1) != -ENOENT)
		FAIL("get from empty LIFO succeeded");
	blocks_check("init");
	for (i = 0; i < nb_objs; i++)
		tab[i] = &objs[i];
	push(&stashes[0], tab, nb_objs, false);
	if (tm_lifo_count(lifo) != nb_objs)
		FAIL("count %u after filling %u", tm_lifo_count(lifo), nb_objs);
	if (pop(&stashes[0], tab, nb_objs + 1) != -ENOENT ||
			tm_lifo_count(lifo) != nb_objs)
		FAIL("get of size + 1 objects succeeded or changed the count to %u",
			tm_lifo_count(lifo));
	blocks_check("filled");

#ifdef TM_LIFO_TEST_HOOKS
	hook_head = (uintptr_t)&lifo->head;
	if (shape == SHAPE_EXACT) {
		exact();
		nb_threads = 0;
	}
#endif
	atomic_store(&producers_left, nb_threads / 2);
	for (t = 0; t < nb_threads; t++) {
		w[t].id = t;
		w[t].seed = seed * 2654435761u + t + 1;
		w[t].st = &stashes[2 + t];
		if (pthread_create(&w[t].tid, NULL,
				shape == SHAPE_PIPELINE ? pipeline_worker :
				mixed_worker, &w[t]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	}
	for (t = 0; t < nb_threads; t++)
		pthread_join(w[t].tid, NULL);

	if (atomic_load(&total_got) != atomic_load(&total_put))
		FAIL("conservation: got %" PRIu64 " put %" PRIu64,
			atomic_load(&total_got), atomic_load(&total_put));
	blocks_check("at rest");
	census();
	if (shape == SHAPE_NOFAIL && atomic_load(&total_busy) >
			atomic_load(&total_got) / NOFAIL_BUSY_RARE)
		FAIL("nofail: %" PRIu64 " gets waited out a take of the put list, more than 1 in %u",
			atomic_load(&total_busy), NOFAIL_BUSY_RARE);

	printf("tm-lifo-stress: got %" PRIu64 " put %" PRIu64 " failed gets %" PRIu64 " (%" PRIu64 " waited out a preempted take) errors %lu\n",
		atomic_load(&total_got), atomic_load(&total_put),
		atomic_load(&total_fail), atomic_load(&total_busy),
		atomic_load(&errors));
	free(stashes);
	free(w);
	free(handoffs);
	free(tab);
	free(lifo);
	free(objs);
	return atomic_load(&errors) == 0 ? 0 : 1;

usage:
	fprintf(stderr, "usage: %s [-m mixed|pipeline|aba|nofail|exact] [-t threads] [-n objects] [-b max_bulk] [-i iterations] [-s seed]\n",
		argv[0]);
	return 2;
}
