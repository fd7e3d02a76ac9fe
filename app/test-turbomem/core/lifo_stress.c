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
 *             makes gets fail constantly (exhaustion).
 *   pipeline  half the threads only get, half only put; objects cross
 *             threads through per-pair hand-off slots.
 *   aba       like mixed on a tiny pool, with a yield between reading the
 *             head and committing (build with -DTM_LIFO_TEST_HOOKS).
 *   exact     one thread, deterministic (build with -DTM_LIFO_TEST_HOOKS):
 *             a hook plays another thread at a preemption point:
 *             - ABA: a pop of X (X -> Y) is preempted before its commit;
 *               the other pops X and Y, pushes W and X: the stale commit
 *               must fail (tag), the pop get X, the next pop W, not Y;
 *             - push retry: a push of X is preempted before its commit,
 *               the other pushes Y: X's retry must count Y below it;
 *             - failed get: a pop of 3 of 3 is preempted before its
 *               commit, the other takes 1: -ENOENT, table untouched,
 *               count 2;
 *             - failed top get: a pop of 2 from a group of 4 (the top
 *               group alone, tm_lifo_pop_near) is preempted before its
 *               commit, the other takes 3: -ENOENT, table untouched,
 *               count 1;
 *             - stale link: a pop of 2 reads the head {K} (K, A below),
 *               then the other pops K and A, pushes K alone and A on
 *               top: K's link now ends the list after 1, the head says 2
 *               are free; the pop must re-read the head and succeed, not
 *               fail;
 *             - hints: pushes record in each group the keys of the
 *               groups 2 to TM_LIFO_AHEAD below it, across the push's
 *               end into the list it links to (TM_LIFO_NIL past the
 *               list's end), and a pop over wrong hints takes what the
 *               links say;
 *             - copies: a copy of cnt group members (every cnt below G)
 *               copies those and writes nothing else;
 *             - put list: gets count and take both lists (a get of one
 *               more than they hold fails, the table untouched), a take
 *               links the put list's bottom to the head's top, and a get
 *               that finds a take under way waits for it (here the
 *               taker is this thread, at its splice: the get must wait
 *               its whole bound, then fail with -EBUSY).
 *   nofail    like mixed, but the pool holds at least threads x 2B
 *             objects, so at least n are free whenever a thread asks for
 *             n: every failed get is spurious and an error (exact
 *             failures, under oversubscription).
 *
 * In every shape, the threads of odd id put onto the put list
 * (tm_lifo_push_bulk_puts), so that gets take it while others get.
 *
 * Oracles, checked on every run:
 *   - ownership ledger: each object has an atomic owner; a get swaps
 *     FREE -> me (anything else is a duplicate hand-out), a put swaps
 *     me -> FREE first;
 *   - payload: the getter writes the object non-atomically and the next
 *     getter reads it, so a missing release/acquire is a data race that
 *     ThreadSanitizer reports;
 *   - exactness: a get returns 0 with every slot a valid object, or
 *     -ENOENT, or -EBUSY (a take of the put list preempted for the get's
 *     whole wait); in nofail, never -ENOENT, and -EBUSY in at most one
 *     get in NOFAIL_BUSY_RARE;
 *   - count bounds: 0 <= count <= capacity whenever sampled;
 *   - conservation: got - put == held, per thread and in total;
 *   - final census: count == capacity at rest, a drain one by one sees
 *     every object exactly once, and one more get fails.
 *
 * Usage: tm-lifo-stress [-m mixed|pipeline|aba|nofail|exact] [-t threads] [-n objects]
 *        [-b max_bulk] [-i iterations per thread] [-s seed]
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

#ifdef TM_LIFO_TEST_HOOKS
/*
 * Preemption points (single-threaded "exact" shape: a hook, run once, plays
 * another thread there; other shapes: a yield on roughly one commit in
 * eight, to let others slip in: ABA).
 */
typedef void (hook_fn_t)(void);
static hook_fn_t *hook_commit, *hook_read;
static _Thread_local uint32_t tm_yield_rng = 1;

static void
run_hook(hook_fn_t **h)
{
	hook_fn_t *f = *h;

	*h = NULL;
	f();
}

#define TM_LIFO_TEST_YIELD() do { \
	if (hook_commit != NULL) { \
		run_hook(&hook_commit); \
		break; \
	} \
	tm_yield_rng = tm_yield_rng * 1103515245u + 12345u; \
	if (((tm_yield_rng >> 16) & 7) == 0) \
		sched_yield(); \
} while (0)
#define TM_LIFO_TEST_YIELD_READ() do { \
	if (hook_read != NULL) \
		run_hook(&hook_read); \
} while (0)
/* The pauses of the backoffs of this thread (the backoff checks). */
static _Thread_local unsigned long pauses;
#define TM_LIFO_TEST_PAUSE() do { \
	pauses++; \
	tm_pause(); \
} while (0)
#endif

#include "tm_lifo.h"

#define OWNER_FREE 0

struct obj {
	_Atomic uint32_t owner;	/* OWNER_FREE or thread id + 1 */
	uint32_t payload;	/* plain: written by each owner */
	char pad[56];
};

enum shape { SHAPE_MIXED, SHAPE_PIPELINE, SHAPE_ABA, SHAPE_NOFAIL, SHAPE_EXACT };

static struct obj *objs;
static struct tm_lifo *lifo;
static uint32_t nb_objs;
static unsigned int max_bulk = 32;
static unsigned long iterations = 20000;
static enum shape shape = SHAPE_MIXED;
static _Atomic unsigned long errors;
static _Atomic uint64_t total_got, total_put, total_fail;
/* Failed gets that waited out a take of the put list (-EBUSY). */
static _Atomic uint64_t total_busy;
/*
 * nofail: at most one get in NOFAIL_BUSY_RARE may end so; a take whose
 * thread stays preempted for a get's whole wait is that rare, and more
 * would mean takes that never end.
 */
#define NOFAIL_BUSY_RARE 100000

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

static void *
to_obj(const void *ctx, uint32_t idx)
{
	(void)ctx;
	return &objs[idx];
}

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
get_bulk(struct obj **out, unsigned int n, uint32_t me)
{
	unsigned int i;
	uint32_t c;
	int ret;

	c = tm_lifo_count(lifo);
	if (c > nb_objs)
		FAIL("count %u above capacity %u", c, nb_objs);
	ret = tm_lifo_pop_bulk(lifo, (void **)out, n, to_obj, NULL);
	if (ret < 0) {
		if (ret != -ENOENT && ret != -EBUSY)
			FAIL("get of %u returned %d", n, ret);
		else if (ret == -ENOENT && shape == SHAPE_NOFAIL)
			FAIL("spurious failure: get of %u with at least %u free",
				n, n);
		atomic_fetch_add_explicit(&total_fail, 1,
				memory_order_relaxed);
		/*
		 * -EBUSY: too few objects apart from a take of the put list
		 * whose thread stayed preempted for the get's whole wait,
		 * which holds them (the contract's exception; counted, and
		 * bounded in nofail below).
		 */
		if (ret == -EBUSY)
			atomic_fetch_add_explicit(&total_busy, 1,
					memory_order_relaxed);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint32_t expect = OWNER_FREE;

		if (out[i] < objs || out[i] >= objs + nb_objs) {
			FAIL("get returned %p outside the pool", (void *)out[i]);
			return -1;
		}
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
put_bulk(struct obj **in, unsigned int n, uint32_t me)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t expect = me + 1;

		in[i]->payload = 0;
		if (!ledger_swap(&in[i]->owner, &expect, OWNER_FREE))
			FAIL("thread %u puts object %u owned by %u", me,
				to_idx(NULL, in[i]), expect);
	}
	/* Odd threads push onto the put list: gets take it (see "Put list"). */
	if (me % 2)
		tm_lifo_push_bulk_puts(lifo, (void * const *)in, n, to_idx,
				NULL);
	else
		tm_lifo_push_bulk(lifo, (void * const *)in, n, to_idx, NULL);
	atomic_fetch_add_explicit(&total_put, n, memory_order_relaxed);
}

struct worker {
	pthread_t tid;
	uint32_t id;
	uint64_t seed;
};

static void *
mixed_worker(void *arg)
{
	struct worker *w = arg;
	struct obj **held = calloc(2 * max_bulk, sizeof(*held));
	unsigned int nb_held = 0;
	unsigned long it;

	for (it = 0; it < iterations; it++) {
		unsigned int n = 1 + rng_next(&w->seed) % max_bulk;

		if (nb_held + n <= 2 * max_bulk &&
				(rng_next(&w->seed) & 1)) {
			if (get_bulk(held + nb_held, n, w->id) == 0)
				nb_held += n;
		} else if (nb_held > 0) {
			n = 1 + rng_next(&w->seed) % nb_held;
			nb_held -= n;
			put_bulk(held + nb_held, n, w->id);
		}
	}
	if (nb_held > 0)
		put_bulk(held, nb_held, w->id);
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

	/* The consumer (me + 1) owns it from the moment it is visible. */
	if (!atomic_compare_exchange_strong(&o->owner, &expect, me + 2))
		FAIL("lost ownership of object %u before hand-off",
			to_idx(NULL, o));
	for (k = 0; k < 64; k++) {
		struct obj *none = NULL;

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
	struct obj **buf = calloc(max_bulk, sizeof(*buf));
	unsigned long it;
	unsigned int i, n, got;

	if (w->id % 2 == 0) {
		for (it = 0; it < iterations; it++) {
			n = 1 + rng_next(&w->seed) % max_bulk;
			if (get_bulk(buf, n, w->id) != 0)
				continue;
			for (i = 0, got = 0; i < n; i++)
				if (!handoff_one(h, buf[i], w->id, &w->seed))
					buf[got++] = buf[i];
			if (got > 0)
				put_bulk(buf, got, w->id);
		}
		atomic_fetch_sub(&producers_left, 1);
	} else {
		for (;;) {
			bool last = atomic_load(&producers_left) == 0;

			for (i = 0, got = 0; i < 64; i++) {
				struct obj *o = atomic_exchange(&h->slot[i],
						NULL);

				if (o != NULL)
					buf[got++] = o;
				if (got == max_bulk) {
					put_bulk(buf, got, w->id);
					got = 0;
				}
			}
			if (got > 0)
				put_bulk(buf, got, w->id);
			/* One full sweep after the last producer ended. */
			if (last)
				break;
		}
	}
	free(buf);
	return NULL;
}

#ifdef TM_LIFO_TEST_HOOKS
/* --- exact: deterministic interleavings (see the file comment) --- */

static struct obj *ex_x, *ex_y, *ex_w;
static int ex_ret;

static void
push1(struct obj *o)
{
	tm_lifo_push_bulk(lifo, (void * const *)&o, 1, to_idx, NULL);
}

/* A group-sized table: gcc cannot bound the walk's copy for small n. */
static int
popn(struct obj **out, unsigned int n)
{
	return tm_lifo_pop_bulk(lifo, (void **)out, n, to_obj, NULL);
}

static void
aba_hook(void)
{
	struct obj *t[TM_LIFO_GROUP];

	ex_ret = popn(t, 1) < 0 || t[0] != ex_x;
	ex_ret |= popn(t, 1) < 0 || t[0] != ex_y;
	push1(ex_w);
	push1(ex_x);
}

static void
push_hook(void)
{
	push1(ex_y);
}

static void
take_hook(void)
{
	struct obj *t[TM_LIFO_GROUP] = { NULL };

	ex_ret = popn(t, 1);
	ex_y = t[0];
}

/* Take 3 of the 4 of the top group: 1 left, its key. */
static void
take3_hook(void)
{
	struct obj *t[TM_LIFO_GROUP];

	ex_ret = popn(t, 3);
}

/* ex_x = K on top of ex_w = A: pop both, push K alone, A on top. */
static void
stale_hook(void)
{
	struct obj *t[TM_LIFO_GROUP];

	ex_ret = popn(t, 2) < 0 || t[0] != ex_x || t[1] != ex_w;
	push1(ex_x);
	push1(ex_w);
}

/*
 * K (ex_x) on top of A (ex_w); a get of 2 read the head when stale_hook
 * pops both and pushes K alone, A on top: the links it then reads are a
 * later list's, and it must take A and K, not fail (walk: the walk alone,
 * whose re-read of the head catches it).
 */
static void
stale_link(const char *what, bool walk)
{
	struct obj *t[TM_LIFO_GROUP];
	int r;

	push1(ex_w);
	push1(ex_x);
	hook_read = stale_hook;
	r = walk ? tm_lifo_pop_walk(lifo, (void **)t, 2, to_obj, NULL) :
		popn(t, 2);
	if (hook_read != NULL || ex_ret != 0)
		FAIL("exact %s: the interference did not run as planned", what);
	if (r < 0)
		FAIL("exact %s: spurious failure %d with 2 objects free", what,
			r);
	else if (t[0] != ex_w || t[1] != ex_x)
		FAIL("exact %s: got %p %p, expected A %p, K %p", what,
			(void *)t[0], (void *)t[1], (void *)ex_w,
			(void *)ex_x);
}

/* backoff: before each of its first ex_left attempts, push a spare. */
static struct obj **ex_spare;
static unsigned int ex_left;

static void
fail_hook(void)
{
	push1(ex_spare[--ex_left]);
	if (ex_left > 0)
		hook_commit = fail_hook;
}

/* The pauses k failed CAS attempts in a row must cost. */
static unsigned long
backoff_pauses(unsigned int k)
{
	unsigned long sum = 0;
	unsigned int r;

#if TM_LIFO_BACKOFF_SHIFT >= 0
	for (r = 1; r <= k; r++)
		sum += 1ul << (r > TM_LIFO_BACKOFF_SHIFT ?
			TM_LIFO_BACKOFF_SHIFT : r);
#else
	(void)r;
	(void)k;
#endif
	return sum;
}

#define BACKOFF_FAILS 7

/*
 * A push or pop of n objects from all[first] whose CAS loses to a commit
 * BACKOFF_FAILS times in a row (the hook pushes one of the spares
 * all[spare...] before each attempt): it must succeed on the next
 * attempt, report the failures and have paused backoff_pauses() times.
 */
static void
backoff_case(const char *what, struct obj **all, bool push, unsigned int n,
		unsigned int first, unsigned int spare)
{
	struct obj *t[40];
	int r;

	ex_spare = &all[spare];
	ex_left = BACKOFF_FAILS;
	hook_commit = fail_hook;
	pauses = 0;
	if (push)
		r = (int)tm_lifo_push_bulk(lifo, (void * const *)&all[first],
				n, to_idx, NULL);
	else
		r = popn(t, n);
	if (hook_commit != NULL || ex_left != 0)
		FAIL("exact backoff, %s: the interfering pushes did not run", what);
	if (r != BACKOFF_FAILS)
		FAIL("exact backoff, %s: returned %d, expected %d failed attempts",
			what, r, BACKOFF_FAILS);
	if (pauses != backoff_pauses(BACKOFF_FAILS))
		FAIL("exact backoff, %s: %lu pauses after %d failures, expected %lu",
			what, pauses, BACKOFF_FAILS,
			backoff_pauses(BACKOFF_FAILS));
	if (!push && r >= 0 && t[0] != all[spare])
		FAIL("exact backoff, %s: the pop did not start at the last push",
			what);
}

/*
 * backoff: every kind of operation that commits with a CAS (one object,
 * one group, several groups; push and pop) backs off after each failed
 * attempt, 2^min(failures, TM_LIFO_BACKOFF_SHIFT) pauses, and does not
 * pause where nothing contends.
 */
static void
backoff(struct obj **all)
{
	struct obj *t[40];
	int r;

	if (nb_objs < 40 + 2 * BACKOFF_FAILS) {
		FAIL("exact backoff: needs at least %d objects",
			40 + 2 * BACKOFF_FAILS);
		return;
	}
	pauses = 0;
	push1(all[0]);
	if (popn(t, 1) < 0 || pauses != 0)
		FAIL("exact backoff: %lu pauses without contention", pauses);
	/* push_one, then pop_one: 1 + 7 objects, then 14 left */
	backoff_case("one-object push", all, true, 1, 0, 1);
	backoff_case("one-object pop", all, false, 1, 0, 8);
	r = popn(t, 14);
	if (r < 0)
		FAIL("exact backoff: drain of 14 returned %d", r);
	/* a push and a pop of 2 groups and 4 objects (push_bulk, the walk) */
	backoff_case("push of 36", all, true, 36, 0, 36);
	backoff_case("pop of 36", all, false, 36, 0, 36 + BACKOFF_FAILS);
	r = popn(t, 2 * BACKOFF_FAILS);
	if (r < 0 || tm_lifo_count(lifo) != 0)
		FAIL("exact backoff: drain returned %d, count %u", r,
			tm_lifo_count(lifo));
}

/* Groups of the pushes of the hints case: 4 (3 whole, half of one), 3. */
#define HINTS_A (3 * TM_LIFO_GROUP + TM_LIFO_GROUP / 2)
#define HINTS_B (2 * TM_LIFO_GROUP + TM_LIFO_GROUP / 4)
#define HINTS_N (HINTS_A + HINTS_B)

/*
 * Whether every group of the head's list names in its hints the groups 2
 * to TM_LIFO_AHEAD below it, and TM_LIFO_NIL past the list's end (the
 * list as it is at rest: keys walked along the links).
 */
static bool
hints_named(void)
{
	uint32_t keys[HINTS_N], ref;
	unsigned int g, d, nb = 0;

	ref = tm_lifo_top(atomic_load(&lifo->head));
	while (tm_lifo_ref_idx(ref) < nb_objs && nb < HINTS_N) {
		keys[nb++] = tm_lifo_ref_idx(ref);
		ref = atomic_load(&tm_lifo_slot(lifo,
				tm_lifo_ref_idx(ref))->link);
	}
	for (g = 0; g < nb; g++)
		for (d = 2; d <= TM_LIFO_AHEAD; d++)
			if (atomic_load(&tm_lifo_slot(lifo, keys[g])->hint[d - 2]) !=
					(g + d < nb ? keys[g + d] : TM_LIFO_NIL))
				return false;
	return nb > 0;
}

/*
 * hints: a push of 4 groups (3 whole, then half of one) onto an empty
 * list names in each group the groups 2 to TM_LIFO_AHEAD below it in the
 * push and TM_LIFO_NIL past its end; a push of 3 groups on top of it
 * names, in its last groups, the first push's groups at the same
 * distances (read from the top it links to); after a pop of both, a push
 * onto the empty list names TM_LIFO_NIL past its end, also where earlier
 * pushes had left hints (its groups are keyed by other objects); a walk
 * over hints that name the wrong groups (or none) takes what the links
 * say.
 */
static void
hints(struct obj **all)
{
	struct obj *t[HINTS_N], *o[HINTS_N];
	unsigned int i, j;
	int r;

	if (nb_objs < HINTS_N) {
		FAIL("exact hints: needs at least %u objects", HINTS_N);
		return;
	}
	tm_lifo_push_bulk(lifo, (void * const *)all, HINTS_A, to_idx, NULL);
	if (!hints_named())
		FAIL("exact hints: the groups of a push onto an empty list do not name the groups 2 to %u below (or none past the end)",
			TM_LIFO_AHEAD);
	tm_lifo_push_bulk(lifo, (void * const *)&all[HINTS_A], HINTS_B, to_idx,
		NULL);
	if (!hints_named())
		FAIL("exact hints: the last groups of a push onto %u objects do not name the groups below it",
			HINTS_A);
	if (popn(t, HINTS_N) < 0)
		FAIL("exact hints: pop of %u failed", HINTS_N);
	/*
	 * all rotated by 2G: keys of the earlier pushes' groups (which
	 * named groups below them) are keys of other positions here, or
	 * no keys.
	 */
	for (i = 0; i < HINTS_N; i++)
		o[i] = all[(i + 2 * TM_LIFO_GROUP) % HINTS_N];
	tm_lifo_push_bulk(lifo, (void * const *)o, HINTS_N, to_idx, NULL);
	if (!hints_named())
		FAIL("exact hints: the groups of a push onto the emptied list do not name the groups below them (or none past the end)");
	/* Every hint wrong, in range or not: the pop follows the links. */
	for (i = 0; i < nb_objs; i++)
		for (j = 0; j < TM_LIFO_AHEAD - 1; j++)
			atomic_store(&tm_lifo_slot(lifo, i)->hint[j],
				(i + j) % 3 == 0 ? UINT32_MAX - i :
				(i * 7 + j + 3) % nb_objs);
	r = popn(t, HINTS_N);
	if (r < 0)
		FAIL("exact hints: pop of %u with wrong hints returned %d",
			HINTS_N, r);
	else
		for (i = 0; i < HINTS_N; i++)
			if (t[i] != o[i]) {
				FAIL("exact hints: object %u of the pop is not the one pushed there",
					i);
				break;
			}
}

/*
 * copies: tm_lifo_store_members, tm_lifo_load_members and
 * tm_lifo_load_owned copy exactly cnt members, for every count below G,
 * and write nothing beyond them.
 */
static void
copies(void)
{
	tm_lifo_obj_t slot[TM_LIFO_GROUP + 1];
	void *src[TM_LIFO_GROUP + 1], *dst[TM_LIFO_GROUP + 1];
	void *own[TM_LIFO_GROUP + 1];
	void *fence = (void *)&fence;
	unsigned int cnt, k;

	for (cnt = 0; cnt < TM_LIFO_GROUP; cnt++) {
		for (k = 0; k <= TM_LIFO_GROUP; k++) {
			src[k] = (void *)(uintptr_t)(0x1000 + k * 8);
			dst[k] = fence;
			own[k] = fence;
			atomic_store(&slot[k], fence);
		}
		tm_lifo_store_members(slot, src, cnt);
		tm_lifo_load_members(dst, slot, cnt);
		tm_lifo_load_owned(own, slot, cnt);
		for (k = 0; k <= TM_LIFO_GROUP; k++) {
			if (atomic_load(&slot[k]) != (k < cnt ? src[k] : fence) ||
					dst[k] != (k < cnt ? src[k] : fence) ||
					own[k] != dst[k]) {
				FAIL("exact copies: a copy of %u members has %p (owned: %p) at %u, expected %p",
					cnt, dst[k], own[k], k,
					k < cnt ? src[k] : fence);
				break;
			}
		}
	}
}

/*
 * two groups (tm_lifo_pop_near): a get of n <= G that the top group A (3
 * objects) cannot serve takes A whole and the first objects of the next
 * group B, which stays on top with the rest (B in part), or whole, its
 * link becoming the top (B whole); where the top group serves n alone it
 * takes them from it alone; where the two hold fewer than n, it takes
 * nothing, leaves the table as it was, and the walk decides (it fails
 * exactly, with the table untouched).
 */
static void
two_groups(struct obj **all)
{
	struct obj *t[TM_LIFO_GROUP], *sentinel = (struct obj *)&t;
	struct obj **a = all, **b = all + 3, **c = all + 3 + TM_LIFO_GROUP;
	unsigned int i, n;
	int r;

	if (nb_objs < 3 + 2 * TM_LIFO_GROUP) {
		FAIL("exact two groups: needs at least %u objects",
			3 + 2 * TM_LIFO_GROUP);
		return;
	}
	/* C (G objects), B (G), A (3) on top. */
	tm_lifo_push_bulk(lifo, (void * const *)c, TM_LIFO_GROUP, to_idx,
		NULL);
	tm_lifo_push_bulk(lifo, (void * const *)b, TM_LIFO_GROUP, to_idx,
		NULL);
	tm_lifo_push_bulk(lifo, (void * const *)a, 3, to_idx, NULL);

	/* B in part: A and 5 of B; B stays on top with G - 5. */
	n = 3 + 5;
	r = tm_lifo_pop_near(lifo, (void **)t, n, to_obj, NULL);
	if (r < 0)
		FAIL("exact two groups: B in part: pop of %u returned %d", n, r);
	else
		for (i = 0; i < n; i++)
			if (t[i] != all[i]) {
				FAIL("exact two groups: B in part: object %u is not the one pushed there",
					i);
				break;
			}
	if (tm_lifo_count(lifo) != 2 * TM_LIFO_GROUP - 5)
		FAIL("exact two groups: B in part: count %u, expected %u",
			tm_lifo_count(lifo), 2 * TM_LIFO_GROUP - 5);

	/* B whole: A again on top of the rest of B, both taken. */
	tm_lifo_push_bulk(lifo, (void * const *)a, 3, to_idx, NULL);
	n = 3 + TM_LIFO_GROUP - 5;
	r = tm_lifo_pop_near(lifo, (void **)t, n, to_obj, NULL);
	if (r < 0)
		FAIL("exact two groups: B whole: pop of %u returned %d", n, r);
	else
		for (i = 0; i < n; i++)
			if (t[i] != (i < 3 ? a[i] : b[i - 3 + 5])) {
				FAIL("exact two groups: B whole: object %u is not the one pushed there",
					i);
				break;
			}
	if (tm_lifo_count(lifo) != TM_LIFO_GROUP)
		FAIL("exact two groups: B whole: count %u, expected %u (C)",
			tm_lifo_count(lifo), TM_LIFO_GROUP);

	/* C serves 4 alone: its first 4, C stays on top with the rest. */
	for (i = 0; i < TM_LIFO_GROUP; i++)
		t[i] = sentinel;
	r = tm_lifo_pop_near(lifo, (void **)t, 4, to_obj, NULL);
	if (r < 0 || t[0] != c[0] || t[3] != c[3] || t[4] != sentinel ||
			tm_lifo_count(lifo) != TM_LIFO_GROUP - 4)
		FAIL("exact two groups: a pop of 4 the top group serves returned %d, count %u",
			r, tm_lifo_count(lifo));
	r = popn(t, TM_LIFO_GROUP - 4);
	if (r < 0 || t[0] != c[4] || t[TM_LIFO_GROUP - 5] != c[TM_LIFO_GROUP - 1])
		FAIL("exact two groups: C: pop of %u returned %d",
			TM_LIFO_GROUP - 4, r);

	/* A (3) on B's first 2: 5 objects, a get of 6 fails. */
	tm_lifo_push_bulk(lifo, (void * const *)b, 2, to_idx, NULL);
	tm_lifo_push_bulk(lifo, (void * const *)a, 3, to_idx, NULL);
	for (i = 0; i < TM_LIFO_GROUP; i++)
		t[i] = sentinel;
	r = tm_lifo_pop_near(lifo, (void **)t, 6, to_obj, NULL);
	if (r != -EAGAIN || t[0] != sentinel)
		FAIL("exact two groups: two groups short of 6 returned %d", r);
	r = popn(t, 6);
	if (r != -ENOENT || t[0] != sentinel || tm_lifo_count(lifo) != 5)
		FAIL("exact two groups: pop of 6 of 5 returned %d, count %u", r,
			tm_lifo_count(lifo));
	r = popn(t, 5);
	if (r < 0 || t[2] != a[2] || t[3] != b[0] || t[4] != b[1])
		FAIL("exact two groups: pop of the 5 returned %d", r);
}

/* A get while a take of the put list is under way (its splice's hook). */
static unsigned long ex_pauses;

static void
transit_hook(void)
{
	struct obj *t[TM_LIFO_GROUP];
	unsigned long before = pauses;

	ex_ret = popn(t, 1);
	ex_pauses = pauses - before;
}

/* The put list (see the file comment, "exact"). */
static void
put_list(struct obj **all)
{
	/* 9 entries at least: the failed get of 9, whatever the group size */
	struct obj *t[TM_LIFO_GROUP + 9], *sentinel = (struct obj *)&t;
	unsigned int i, j;
	int r;

	/* 3 on the head (one group), 5 on the put list (pushes of 2 and 3) */
	tm_lifo_push_bulk(lifo, (void * const *)all, 3, to_idx, NULL);
	tm_lifo_push_bulk_puts(lifo, (void * const *)&all[3], 2, to_idx, NULL);
	tm_lifo_push_bulk_puts(lifo, (void * const *)&all[5], 3, to_idx, NULL);
	if (tm_lifo_count(lifo) != 8)
		FAIL("exact put list: count %u, expected 8 (3 + 5)",
			tm_lifo_count(lifo));
	for (i = 0; i < 9; i++)
		t[i] = sentinel;
	r = popn(t, 9);
	if (r != -ENOENT)
		FAIL("exact put list: get of 9 with 8 free returned %d", r);
	for (i = 0; i < 9; i++)
		if (t[i] != sentinel)
			FAIL("exact put list: failed get wrote entry %u", i);
	if (tm_lifo_count(lifo) != 8)
		FAIL("exact put list: count %u after the failed get, expected 8",
			tm_lifo_count(lifo));
	r = popn(t, 8);
	for (i = 0; r >= 0 && i < 8; i++) {
		for (j = 0; j < 8 && t[j] != all[i]; j++)
			;
		if (j == 8)
			FAIL("exact put list: object %u not got", i);
	}
	if (r < 0)
		FAIL("exact put list: get of the 8 returned %d", r);

	/* one object, empty head: the put list's */
	tm_lifo_push_bulk_puts(lifo, (void * const *)all, 1, to_idx, NULL);
	r = popn(t, 1);
	if (r < 0 || t[0] != all[0])
		FAIL("exact put list: get of 1 from the put list returned %d", r);

	/*
	 * Three pushes of one onto the put list (bottom all[2]) over two on
	 * the head: the take links the bottom to the head's top.
	 */
	tm_lifo_push_bulk(lifo, (void * const *)all, 2, to_idx, NULL);
	for (i = 2; i < 5; i++)
		tm_lifo_push_bulk_puts(lifo, (void * const *)&all[i], 1,
				to_idx, NULL);
	r = popn(t, 5);
	if (r < 0 || t[0] != all[4] || t[1] != all[3] || t[2] != all[2] ||
			t[3] != all[0] || t[4] != all[1])
		FAIL("exact put list: get of 5 over a take returned %d, not the put list then the head",
			r);

	/*
	 * A take preempted at its splice (the hook, at its CAS): a get of
	 * one on both lists empty must wait for it, here its whole bound,
	 * then fail with -EBUSY; the take then ends and the object is there.
	 */
	tm_lifo_push_bulk_puts(lifo, (void * const *)all, 1, to_idx, NULL);
	ex_ret = 0;
	ex_pauses = 0;
	hook_commit = transit_hook;
	r = popn(t, 1);
	if (hook_commit != NULL)
		FAIL("exact put list: the take did not reach its splice");
	if (ex_ret != -EBUSY ||
			ex_pauses != 64ul * TM_LIFO_TRANSIT_SPINS)
		FAIL("exact put list: a get during a take returned %d after %lu pauses, expected -EBUSY after %lu",
			ex_ret, ex_pauses, 64ul * TM_LIFO_TRANSIT_SPINS);
	if (r < 0 || t[0] != all[0])
		FAIL("exact put list: the taker's get returned %d", r);
	if (tm_lifo_count(lifo) != 0)
		FAIL("exact put list: count %u at the end, expected 0",
			tm_lifo_count(lifo));
}

static void
exact(void)
{
	struct obj **all = calloc(nb_objs, sizeof(*all));
	struct obj *t[TM_LIFO_GROUP], *sentinel = (struct obj *)&t;
	unsigned int i;
	int r;

	if (all == NULL || nb_objs < 6 || popn(all, nb_objs) < 0) {
		FAIL("exact: needs at least 6 objects, all free");
		free(all);
		return;
	}

	/* ABA */
	ex_x = all[0];
	ex_y = all[1];
	ex_w = all[2];
	push1(ex_y);
	push1(ex_x);
	hook_commit = aba_hook;
	r = popn(t, 1);
	if (hook_commit != NULL || ex_ret != 0)
		FAIL("exact aba: the interfering pops did not run as planned");
	if (r < 0 || t[0] != ex_x)
		FAIL("exact aba: pop returned %d, %p (X is %p)", r,
			(void *)t[0], (void *)ex_x);
	if (tm_lifo_count(lifo) != 1)
		FAIL("exact aba: count %u, expected 1 (W)",
			tm_lifo_count(lifo));
	r = popn(t, 1);
	if (r < 0 || t[0] != ex_w)
		FAIL("exact aba: stale commit: popped %p (Y, held, is %p), expected W %p",
			(void *)t[0], (void *)ex_y, (void *)ex_w);

	/* push retry: the list is empty */
	ex_x = all[0];
	ex_y = all[1];
	hook_commit = push_hook;
	push1(ex_x);
	if (hook_commit != NULL)
		FAIL("exact push retry: the interfering push did not run");
	if (tm_lifo_count(lifo) != 2)
		FAIL("exact push retry: count %u, expected 2",
			tm_lifo_count(lifo));
	r = popn(t, 2);
	if (r < 0 || t[0] != ex_x || t[1] != ex_y)
		FAIL("exact push retry: pop of 2 returned %d", r);

	/* failed get: 3 single-object groups */
	for (i = 0; i < 3; i++)
		push1(all[i]);
	for (i = 0; i < 3; i++)
		t[i] = sentinel;
	hook_commit = take_hook;
	r = popn(t, 3);
	if (hook_commit != NULL || ex_ret < 0)
		FAIL("exact failed get: the interfering pop did not run");
	if (r != -ENOENT)
		FAIL("exact failed get: pop of 3 with 2 left returned %d", r);
	for (i = 0; i < 3; i++)
		if (t[i] != sentinel)
			FAIL("exact failed get: entry %u written", i);
	if (tm_lifo_count(lifo) != 2)
		FAIL("exact failed get: count %u, expected 2",
			tm_lifo_count(lifo));
	r = popn(t, 2);
	if (r < 0)
		FAIL("exact failed get: pop of the 2 left returned %d", r);

	/*
	 * failed top get: a pop of 2 of a group of 4 (tm_lifo_pop_near, the
	 * group stays on top) is preempted before its commit, the other
	 * takes 3: -ENOENT from the walk, table untouched, count 1.
	 */
	tm_lifo_push_bulk(lifo, (void * const *)all, 4, to_idx, NULL);
	for (i = 0; i < 2; i++)
		t[i] = sentinel;
	hook_commit = take3_hook;
	r = popn(t, 2);
	if (hook_commit != NULL || ex_ret < 0)
		FAIL("exact failed top get: the interfering pop did not run");
	if (r != -ENOENT)
		FAIL("exact failed top get: pop of 2 with 1 left returned %d",
			r);
	for (i = 0; i < 2; i++)
		if (t[i] != sentinel)
			FAIL("exact failed top get: entry %u written", i);
	if (tm_lifo_count(lifo) != 1)
		FAIL("exact failed top get: count %u, expected 1",
			tm_lifo_count(lifo));
	r = popn(t, 1);
	if (r < 0 || t[0] != all[3])
		FAIL("exact failed top get: the key left is not the last object");

	/*
	 * stale link: through pop_bulk, which gives two single-object groups
	 * to tm_lifo_pop_near, and on the walk alone.
	 */
	ex_x = all[0];
	ex_w = all[1];
	stale_link("stale link", false);
	stale_link("stale link, walk", true);

	if (tm_lifo_count(lifo) != 0)
		FAIL("exact: count %u at the end, expected 0",
			tm_lifo_count(lifo));
	backoff(all);
	hints(all);
	two_groups(all);
	put_list(all);
	copies();
	tm_lifo_push_bulk(lifo, (void * const *)all, nb_objs, to_idx, NULL);
	printf("tm-lifo-stress: exact: ABA, push retry, failed get, failed top get, stale link, backoff, hints, two groups, put list, copies checked\n");
	free(all);
}
#endif

static void
census(void)
{
	uint8_t *seen = calloc(nb_objs, 1);
	struct obj *o, *ob[TM_LIFO_GROUP];
	uint32_t i, c, drained = 0;

	c = tm_lifo_count(lifo);
	if (c != nb_objs)
		FAIL("count at rest %u, expected %u", c, nb_objs);
	/* A group-sized table: gcc cannot bound the walk's copy for n = 1. */
	while (tm_lifo_pop_bulk(lifo, (void **)ob, 1, to_obj, NULL) >= 0) {
		o = ob[0];
		i = to_idx(NULL, o);
		if (i >= nb_objs) {
			FAIL("census: object outside the pool");
			break;
		}
		if (seen[i]++)
			FAIL("census: object %u seen twice", i);
		if (atomic_load(&o->owner) != OWNER_FREE)
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
	free(seen);
}

int
main(int argc, char **argv)
{
	unsigned int nb_threads = 6, t;
	uint64_t seed = (uint64_t)time(NULL);
	const char *scale = getenv("TM_STRESS_SCALE");
	struct worker *w;
	struct obj **all;
	uint32_t i;
	int opt;

	nb_objs = 1024;
	while ((opt = getopt(argc, argv, "m:t:n:b:i:s:")) != -1) {
		switch (opt) {
		case 'm':
			if (strcmp(optarg, "mixed") == 0)
				shape = SHAPE_MIXED;
			else if (strcmp(optarg, "pipeline") == 0)
				shape = SHAPE_PIPELINE;
			else if (strcmp(optarg, "aba") == 0)
				shape = SHAPE_ABA;
			else if (strcmp(optarg, "nofail") == 0)
				shape = SHAPE_NOFAIL;
#ifdef TM_LIFO_TEST_HOOKS
			else if (strcmp(optarg, "exact") == 0)
				shape = SHAPE_EXACT;
#endif
			else
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
		shape == SHAPE_MIXED ? "mixed" :
		shape == SHAPE_PIPELINE ? "pipeline" :
		shape == SHAPE_ABA ? "aba" :
		shape == SHAPE_NOFAIL ? "nofail" : "exact",
		nb_threads, nb_objs, max_bulk, iterations, seed);

	objs = aligned_alloc(64, sizeof(*objs) * nb_objs);
	lifo = aligned_alloc(64, (tm_lifo_size(nb_objs) + 63) & ~(size_t)63);
	all = calloc(nb_objs, sizeof(*all));
	handoffs = calloc(nb_threads, sizeof(*handoffs));
	w = calloc(nb_threads, sizeof(*w));
	if (!objs || !lifo || !all || !handoffs || !w) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	memset(objs, 0, sizeof(*objs) * nb_objs);
	if (tm_lifo_init(lifo, nb_objs) != 0) {
		fprintf(stderr, "tm_lifo_init(%u) failed\n", nb_objs);
		return 2;
	}
	/* Edge: an empty LIFO refuses, a full one refuses size + 1. */
	if (tm_lifo_pop_bulk(lifo, (void **)all, 1, to_obj, NULL) != -ENOENT)
		FAIL("get from empty LIFO succeeded");
	for (i = 0; i < nb_objs; i++)
		all[i] = &objs[i];
	tm_lifo_push_bulk(lifo, (void * const *)all, nb_objs, to_idx, NULL);
	if (tm_lifo_count(lifo) != nb_objs)
		FAIL("count %u after filling %u", tm_lifo_count(lifo), nb_objs);
	if (tm_lifo_pop_bulk(lifo, (void **)all, 0, to_obj, NULL) != 0)
		FAIL("get of 0 objects failed");
	{
		struct obj **more = calloc(nb_objs + 1, sizeof(*more));

		if (tm_lifo_pop_bulk(lifo, (void **)more, nb_objs + 1,
				to_obj, NULL) != -ENOENT)
			FAIL("get of size + 1 objects succeeded");
		if (tm_lifo_count(lifo) != nb_objs)
			FAIL("failed get changed the count to %u",
				tm_lifo_count(lifo));
		free(more);
	}

#ifdef TM_LIFO_TEST_HOOKS
	if (shape == SHAPE_EXACT) {
		exact();
		nb_threads = 0;
	}
#endif
	atomic_store(&producers_left, nb_threads / 2);
	for (t = 0; t < nb_threads; t++) {
		w[t].id = t;
		w[t].seed = seed * 2654435761u + t + 1;
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
	census();
	if (shape == SHAPE_NOFAIL && atomic_load(&total_busy) >
			atomic_load(&total_got) / NOFAIL_BUSY_RARE)
		FAIL("nofail: %" PRIu64 " gets waited out a take of the put list, more than 1 in %u",
			atomic_load(&total_busy), NOFAIL_BUSY_RARE);

	printf("tm-lifo-stress: got %" PRIu64 " put %" PRIu64 " failed gets %" PRIu64 " (%" PRIu64 " waited out a preempted take) errors %lu\n",
		atomic_load(&total_got), atomic_load(&total_put),
		atomic_load(&total_fail), atomic_load(&total_busy),
		atomic_load(&errors));
	free(w);
	free(handoffs);
	free(all);
	free(lifo);
	free(objs);
	return atomic_load(&errors) == 0 ? 0 : 1;

usage:
	fprintf(stderr, "usage: %s [-m mixed|pipeline|aba|nofail|exact] [-t threads] [-n objects] [-b max_bulk] [-i iterations] [-s seed]\n",
		argv[0]);
	return 2;
}
