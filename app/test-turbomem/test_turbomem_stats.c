/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Statistics API (rte_pmd_turbomem_stats_get/reset), cache 0 so every call
 * reaches the driver.
 *
 * | command                  | what it asserts                              |
 * |--------------------------|----------------------------------------------|
 * | turbomem_stats_autotest  | exact calls/objects of known gets and puts,   |
 * |                          | one-object ones included (counters of their   |
 * |                          | own), a refused get (of 1 object too) counts  |
 * |                          | as a failure only,                            |
 * |                          | populate counts nothing; the same exact on a  |
 * |                          | non-EAL thread (its own block), refused get   |
 * |                          | included; an EAL lcore and two non-EAL threads|
 * |                          | at once on a pool too small for all of them   |
 * |                          | lose no count (failed gets > 0 and exact);    |
 * |                          | 64 + 8 non-EAL threads alive at once: exact,  |
 * |                          | the 8 in the shared block; 8 later ones claim |
 * |                          | the blocks of threads gone; one thread over 6 |
 * |                          | pools exact in each; reset zeroes own, thread |
 * |                          | and shared blocks; -EINVAL for NULL and ring  |
 * |                          | pools                                         |
 *
 * The plugin is loaded with -d (no link-time dependency), so the public
 * functions are looked up in the loaded plugin.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "turbomem_private.h"
#include "test.h"

#define STATS_N 1023
#define STATS_ROUNDS 50000
/* The concurrent part: 6 + 5 + 4 objects wanted from a pool of 12. */
#define STATS_SMALL 12
/* A thread whose gets fail this long in a row: the pool lost objects. */
#define STATS_STUCK_S 10
/* Unregistered threads beyond the pool's thread blocks (turbomem_stats.h). */
#define STATS_EXTRA 8
/* Pools one unregistered thread counts into, in turn: more than it keeps. */
#define STATS_POOLS 6

typedef int (stats_get_t)(const struct rte_mempool *,
		struct rte_pmd_turbomem_stats *);
typedef int (stats_reset_t)(struct rte_mempool *);

static stats_get_t *stats_get;
static stats_reset_t *stats_reset;
static int start; /* threads spin until it is set, to overlap */

/* The public API of the driver, from the plugin EAL loaded. */
static int
stats_api(void)
{
	stats_get = (stats_get_t *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_stats_get");
	stats_reset = (stats_reset_t *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_stats_reset");
	return stats_get != NULL && stats_reset != NULL ? 0 : -1;
}

struct pinger {
	struct rte_mempool *mp;
	unsigned int rounds;
	unsigned int bulk;
	uint64_t ret;
	bool stuck;
};

/*
 * get + put of bulk objects, rounds times; a failed get is retried, but
 * not forever: p->stuck is set (and the thread gives up) after
 * STATS_STUCK_S seconds of failures in a row, so a driver that leaks
 * objects fails the test instead of running into the timeout.
 */
static void *
pinger_run(void *arg)
{
	struct pinger *p = arg;
	void *objs[RTE_MEMPOOL_CACHE_MAX_SIZE];
	unsigned int i;

	p->ret = 0;
	if (rte_lcore_id() == LCORE_ID_ANY) {
		/* Not on the EAL lcore's CPU only: the threads must overlap. */
		rte_cpuset_t all;
		long c, nb = sysconf(_SC_NPROCESSORS_ONLN);

		CPU_ZERO(&all);
		for (c = 0; c < nb && c < CPU_SETSIZE; c++)
			CPU_SET(c, &all);
		pthread_setaffinity_np(pthread_self(), sizeof(all), &all);
	}
	/* Acquire pairs with the release store in test_stats(). */
	while (!__atomic_load_n(&start, __ATOMIC_ACQUIRE))
		;
	/* One refused get each, whatever the schedule (valgrind runs one
	 * thread at a time: then the others never fail). */
	if (rte_mempool_get_bulk(p->mp, objs, p->mp->size + 1) == 0)
		p->stuck = true;
	else
		p->ret++;
	for (i = 0; i < p->rounds; i++) {
		uint64_t t0 = 0;
		unsigned int run;

		while (rte_mempool_get_bulk(p->mp, objs, p->bulk) != 0) {
			p->ret++;
			if (t0 == 0)
				t0 = rte_get_timer_cycles();
			else if ((p->ret & 1023) == 0 && rte_get_timer_cycles() - t0 >
					STATS_STUCK_S * rte_get_timer_hz()) {
				p->stuck = true;
				return NULL;
			}
		}
		/* Hold them a moment: the others' gets must fail at times. */
		for (run = 0; run < 64; run++)
			rte_pause();
		rte_mempool_put_bulk(p->mp, objs, p->bulk);
	}
	return NULL;
}

static int noneal_ret;
static const char *noneal_err = "";

/*
 * On a thread without an lcore id: get 10, get 3, get 1, a refused get,
 * the rest of the pool, a refused one-object get, 4 puts (the one-object
 * calls have their own counters: turbomem_stats.h).
 */
static void *
noneal_known(void *arg)
{
	struct rte_mempool *mp = arg;
	/* Room for the refused get too, were it served. */
	void *objs[14 + STATS_N], *one;

	noneal_ret = -1;
	if (rte_lcore_id() != LCORE_ID_ANY) {
		noneal_err = "the thread has an lcore id";
		return NULL;
	}
	if (rte_mempool_get_bulk(mp, objs, 10) != 0 ||
			rte_mempool_get_bulk(mp, objs + 10, 3) != 0 ||
			rte_mempool_get(mp, &objs[13]) != 0) {
		noneal_err = "get failed";
		return NULL;
	}
	if (rte_mempool_get_bulk(mp, objs + 14, STATS_N) == 0) {
		noneal_err = "get of more than the pool holds succeeded";
		return NULL;
	}
	if (rte_mempool_get_bulk(mp, objs + 14, STATS_N - 14) != 0) {
		noneal_err = "get of the rest failed";
		return NULL;
	}
	if (rte_mempool_get(mp, &one) == 0) {
		noneal_err = "one-object get from an empty pool succeeded";
		return NULL;
	}
	rte_mempool_put_bulk(mp, objs, 6);
	rte_mempool_put_bulk(mp, objs + 6, 7);
	rte_mempool_put(mp, objs[13]);
	rte_mempool_put_bulk(mp, objs + 14, STATS_N - 14);
	noneal_ret = 0;
	return NULL;
}

/* A thread of stats_threads(): known gets and puts, then a wait. */
struct stats_thread {
	struct rte_mempool *mp[STATS_POOLS];
	unsigned int nb_pools;
	bool wait; /**< wait for stats_release before exiting */
	int ret; /**< -1 until done; 0: counted; -2: a get failed */
};

/* Threads of a batch that have counted; set to release them. */
static unsigned int stats_counted;
static int stats_release;

/*
 * On a thread without an lcore id, for each pool in turn, twice: a get
 * and a put of 3 objects and of one (2 calls, 4 objects each way and
 * pool and turn); then, if asked, wait until released (once every
 * thread of its batch has counted), so that all are alive while they
 * claim blocks.
 */
static void *
stats_thread_run(void *arg)
{
	struct stats_thread *t = arg;
	void *objs[3];
	unsigned int turn, i;

	if (rte_lcore_id() != LCORE_ID_ANY)
		goto fail;
	for (turn = 0; turn < 2; turn++)
		for (i = 0; i < t->nb_pools; i++) {
			if (rte_mempool_get_bulk(t->mp[i], objs, 3) != 0)
				goto fail;
			rte_mempool_put_bulk(t->mp[i], objs, 3);
			if (rte_mempool_get(t->mp[i], &objs[0]) != 0)
				goto fail;
			rte_mempool_put(t->mp[i], objs[0]);
		}
	__atomic_store_n(&t->ret, 0, __ATOMIC_RELAXED);
	/* Release / acquire: pair with stats_threads(). */
	__atomic_fetch_add(&stats_counted, 1, __ATOMIC_RELEASE);
	while (t->wait && !__atomic_load_n(&stats_release, __ATOMIC_ACQUIRE))
		sched_yield();
	return NULL;
fail:
	/* Release: stats_thread_failed() reads it. */
	__atomic_store_n(&t->ret, -2, __ATOMIC_RELEASE);
	return NULL;
}

/* Whether one of the n threads gave up (a get failed, or an lcore id). */
static bool
stats_thread_failed(const struct stats_thread *th, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&th[i].ret, __ATOMIC_ACQUIRE) == -2)
			return true;
	return false;
}

/* Calls (gets and puts) counted in mp's shared block alone. */
static uint64_t
stats_any_calls(const struct rte_mempool *mp)
{
	const struct turbomem_stats_block *b =
		&((const struct turbomem_pool *)mp->pool_data)->stats->any;

	return b->get_calls + b->put_calls;
}

/*
 * Unregistered threads count into blocks of their own (plain adds, one
 * writer each), claimed on their first count (turbomem_stats.c):
 * - TURBOMEM_STATS_THREADS + STATS_EXTRA threads alive at once: the
 *   first TURBOMEM_STATS_THREADS claim one each, the others share the
 *   shared block (exactly STATS_EXTRA threads' counts there), and no
 *   count is lost;
 * - STATS_EXTRA more threads, one after the other, once those are gone:
 *   they claim the blocks of threads gone (nothing more in the shared
 *   block);
 * - one thread counting into STATS_POOLS pools in turn (more than it
 *   keeps at hand): exact in each, nothing in their shared blocks.
 */
static int
stats_threads(void)
{
	enum { NB = TURBOMEM_STATS_THREADS + STATS_EXTRA };
	static struct stats_thread th[NB];
	static pthread_t tid[NB];
	struct rte_mempool *mp[STATS_POOLS] = { NULL };
	struct rte_pmd_turbomem_stats st;
	unsigned int i, k, started = 0;
	uint64_t calls;
	int ret = TEST_SUCCESS;

	for (i = 0; i < STATS_POOLS; i++) {
		char name[RTE_MEMPOOL_NAMESIZE];

		snprintf(name, sizeof(name), "tm_stats_thr%u", i);
		mp[i] = tm_test_pool(name, 511, 64, 0, TM_OPS, SOCKET_ID_ANY,
				true);
		TEST_CHECK(mp[i] != NULL, "pool %u", i);
	}
	__atomic_store_n(&stats_counted, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats_release, 0, __ATOMIC_RELAXED);
	for (i = 0; i < NB; i++) {
		th[i] = (struct stats_thread){ { mp[0] }, 1, true, -1 };
		if (tm_test_thread_create(&tid[i], stats_thread_run, &th[i]) != 0)
			break;
		started++;
	}
	/* Every thread started has counted (or failed): release them all. */
	while (__atomic_load_n(&stats_counted, __ATOMIC_ACQUIRE) < started &&
			!stats_thread_failed(th, started))
		sched_yield();
	__atomic_store_n(&stats_release, 1, __ATOMIC_RELEASE);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	TEST_CHECK(started == NB, "%u of %u threads started", started, NB);
	for (i = 0; i < NB; i++)
		TEST_CHECK(th[i].ret == 0, "thread %u: a get failed, or it has an lcore id", i);
	TEST_CHECK(stats_get(mp[0], &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 4ULL * NB && st.get_objs == 8ULL * NB &&
		st.put_calls == 4ULL * NB && st.put_objs == 8ULL * NB &&
		st.get_fails == 0,
		"%u threads: gets %" PRIu64 "/%" PRIu64 " puts %" PRIu64 "/%" PRIu64 ", want %u/%u each",
		NB, st.get_calls, st.get_objs, st.put_calls, st.put_objs,
		4 * NB, 8 * NB);
	calls = stats_any_calls(mp[0]);
	TEST_CHECK(calls == 8ULL * STATS_EXTRA,
		"%u threads alive: %" PRIu64 " calls in the shared block, want those of the %u beyond the %u thread blocks (%u)",
		NB, calls, STATS_EXTRA, TURBOMEM_STATS_THREADS,
		8 * STATS_EXTRA);

	for (i = 0; i < STATS_EXTRA; i++) {
		th[i] = (struct stats_thread){ { mp[0] }, 1, false, -1 };
		TEST_CHECK(tm_test_thread_create(&tid[i], stats_thread_run,
			&th[i]) == 0, "pthread_create");
		pthread_join(tid[i], NULL);
		TEST_CHECK(th[i].ret == 0, "late thread %u: a get failed", i);
	}
	TEST_CHECK(stats_get(mp[0], &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 4ULL * (NB + STATS_EXTRA) &&
		st.put_objs == 8ULL * (NB + STATS_EXTRA),
		"late threads: gets %" PRIu64 " put objects %" PRIu64 ", want %u/%u",
		st.get_calls, st.put_objs, 4 * (NB + STATS_EXTRA),
		8 * (NB + STATS_EXTRA));
	TEST_CHECK(stats_any_calls(mp[0]) == calls,
		"threads that came after the others were gone: %" PRIu64 " calls in the shared block, want %" PRIu64 " (blocks of threads gone are claimed again)",
		stats_any_calls(mp[0]), calls);

	th[0] = (struct stats_thread){ { NULL }, STATS_POOLS, false, -1 };
	for (i = 0; i < STATS_POOLS; i++)
		th[0].mp[i] = mp[i];
	TEST_CHECK(tm_test_thread_create(&tid[0], stats_thread_run, &th[0]) == 0,
		"pthread_create");
	pthread_join(tid[0], NULL);
	TEST_CHECK(th[0].ret == 0, "thread of %u pools: a get failed",
		STATS_POOLS);
	for (k = 1; k < STATS_POOLS; k++) {
		TEST_CHECK(stats_get(mp[k], &st) == 0, "stats_get");
		TEST_CHECK(st.get_calls == 4 && st.put_objs == 8 &&
			stats_any_calls(mp[k]) == 0,
			"pool %u of %u in turn: gets %" PRIu64 " put objects %" PRIu64 " shared %" PRIu64 ", want 4, 8, 0",
			k, STATS_POOLS, st.get_calls, st.put_objs,
			stats_any_calls(mp[k]));
	}
	/*
	 * A reset zeroes what the thread blocks and the shared block report;
	 * the blocks keep their object counts, which the pool's count sums.
	 */
	TEST_CHECK(stats_reset(mp[0]) == 0, "reset");
	TEST_CHECK(stats_get(mp[0], &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 0 && st.get_objs == 0 && st.put_calls == 0 &&
		st.put_objs == 0 && stats_any_calls(mp[0]) != 0,
		"reset left gets %" PRIu64 "/%" PRIu64 " puts %" PRIu64 "/%" PRIu64 ", shared %" PRIu64,
		st.get_calls, st.get_objs, st.put_calls, st.put_objs,
		stats_any_calls(mp[0]));
	TEST_CHECK(tm_test_raw_count(mp[0]) == mp[0]->size,
		"count %u after the reset, want %u", tm_test_raw_count(mp[0]),
		mp[0]->size);
out:
	for (i = 0; i < STATS_POOLS; i++)
		rte_mempool_free(mp[i]);
	return ret;
}

static int
test_stats(void)
{
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool *mp, *ring = NULL, *small = NULL;
	struct pinger eal, any, any2;
	void *objs[STATS_N + 1];
	uint64_t fails;
	pthread_t tid, tid2;
	unsigned int i;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(stats_api() == 0, "rte_pmd_turbomem_stats_* not found in the loaded plugin");
	mp = tm_test_pool("tm_stats", STATS_N, 64, 0, TM_OPS, SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "pool");

	TEST_CHECK(stats_get(mp, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 0 && st.put_calls == 0 && st.put_objs == 0 &&
		st.get_objs == 0 && st.get_fails == 0 && st.cas_retries == 0,
		"populate counted: get %" PRIu64 " put %" PRIu64 " objs %" PRIu64,
		st.get_calls, st.put_calls, st.put_objs);

	TEST_CHECK(rte_mempool_get_bulk(mp, objs, 10) == 0, "get 10");
	TEST_CHECK(rte_mempool_get_bulk(mp, objs + 10, 3) == 0, "get 3");
	TEST_CHECK(tm_test_raw_count(mp) == STATS_N - 13, "count %u, want %u",
		tm_test_raw_count(mp), STATS_N - 13);
	rte_mempool_put_bulk(mp, objs, 12);
	rte_mempool_put(mp, objs[12]);
	TEST_CHECK(tm_test_raw_count(mp) == STATS_N, "count %u at rest, want %u",
		tm_test_raw_count(mp), STATS_N);
	/*
	 * The top group holds objs[12] alone, the next the 12 put before it:
	 * a get of 16 needs a third group, so the walk (two groups are
	 * served without it).
	 */
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, 16) == 0, "get 16");
	rte_mempool_put_bulk(mp, objs, 16);
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, STATS_N + 1) != 0,
		"get of size + 1 objects succeeded");
	/* One-object calls, counted apart and summed by stats_get. */
	TEST_CHECK(rte_mempool_get(mp, &objs[0]) == 0, "get 1");
	rte_mempool_put(mp, objs[0]);
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, STATS_N) == 0, "get all");
	TEST_CHECK(rte_mempool_get(mp, &objs[STATS_N]) != 0,
		"one-object get from an empty pool succeeded");
	rte_mempool_put_bulk(mp, objs, STATS_N);
	TEST_CHECK(stats_get(mp, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 5 && st.get_objs == 30 + STATS_N,
		"gets %" PRIu64 "/%" PRIu64 ", want 5/%u",
		st.get_calls, st.get_objs, 30 + STATS_N);
	TEST_CHECK(st.put_calls == 5 && st.put_objs == 30 + STATS_N,
		"puts %" PRIu64 "/%" PRIu64 ", want 5/%u",
		st.put_calls, st.put_objs, 30 + STATS_N);
	TEST_CHECK(st.get_fails == 2, "get_fails %" PRIu64 ", want 2", st.get_fails);
	/* One thread alone: every CAS succeeds the first time. */
	TEST_CHECK(st.cas_retries == 0, "cas_retries %" PRIu64 " without contention", st.cas_retries);

	/*
	 * A reset leaves this lcore's mark of having got from the pool
	 * (turbomem_puts_only): its puts still go onto the head, where its
	 * next get finds the last 8 put, not onto the put list behind the
	 * head's list.
	 */
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, objs, 16) == 0, "get 16");
	TEST_CHECK(stats_reset(mp) == 0, "reset");
	rte_mempool_ops_enqueue_bulk(mp, objs, 8);
	rte_mempool_ops_enqueue_bulk(mp, &objs[8], 8);
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, &objs[16], 8) == 0, "get 8");
	rte_mempool_ops_enqueue_bulk(mp, &objs[16], 8);
	for (i = 0; i < 8; i++)
		TEST_CHECK(objs[16 + i] == objs[8 + i],
			"after a reset, get %u: %p, last put %p", i,
			objs[16 + i], objs[8 + i]);

	TEST_CHECK(stats_reset(mp) == 0, "reset");
	TEST_CHECK(stats_get(mp, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 0 && st.get_objs == 0 && st.get_fails == 0 &&
		st.put_calls == 0 && st.put_objs == 0 && st.cas_retries == 0,
		"reset left get %" PRIu64 " put %" PRIu64, st.get_calls, st.put_calls);

	/* A non-EAL thread's known gets and puts (the block it claims). */
	TEST_CHECK(pthread_create(&tid, NULL, noneal_known, mp) == 0,
		"pthread_create");
	pthread_join(tid, NULL);
	TEST_CHECK(noneal_ret == 0, "non-EAL thread: %s", noneal_err);
	TEST_CHECK(stats_get(mp, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 4 && st.get_objs == STATS_N &&
		st.get_fails == 2 && st.put_calls == 4 &&
		st.put_objs == STATS_N && st.cas_retries == 0,
		"non-EAL: gets %" PRIu64 "/%" PRIu64 " fails %" PRIu64 " puts %" PRIu64 "/%" PRIu64 " retries %" PRIu64 ", want 4/%u 2 4/%u 0",
		st.get_calls, st.get_objs, st.get_fails, st.put_calls,
		st.put_objs, st.cas_retries, STATS_N, STATS_N);
	/* Reset after non-EAL traffic: the shared block is zeroed too. */
	TEST_CHECK(stats_reset(mp) == 0, "reset");
	TEST_CHECK(stats_get(mp, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 0 && st.get_objs == 0 && st.get_fails == 0 &&
		st.put_calls == 0 && st.put_objs == 0 && st.cas_retries == 0,
		"reset after non-EAL traffic left get %" PRIu64 "/%" PRIu64 " fails %" PRIu64 " put %" PRIu64 "/%" PRIu64,
		st.get_calls, st.get_objs, st.get_fails, st.put_calls,
		st.put_objs);

	/*
	 * This lcore and two non-EAL threads (shared block) at once, on a
	 * pool smaller than what they want together: gets fail, and every
	 * failure must be counted.
	 */
	small = tm_test_pool("tm_stats_small", STATS_SMALL, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_CHECK(small != NULL, "small pool");
	eal = (struct pinger){ small, tm_test_iters(STATS_ROUNDS), 6, 0, false };
	any = (struct pinger){ small, eal.rounds, 5, 0, false };
	any2 = (struct pinger){ small, eal.rounds, 4, 0, false };
	TEST_CHECK(pthread_create(&tid, NULL, pinger_run, &any) == 0, "pthread_create");
	if (pthread_create(&tid2, NULL, pinger_run, &any2) != 0) {
		pthread_join(tid, NULL);
		TEST_CHECK(false, "pthread_create");
	}
	__atomic_store_n(&start, 1, __ATOMIC_RELEASE);
	pinger_run(&eal);
	pthread_join(tid, NULL);
	pthread_join(tid2, NULL);
	TEST_CHECK(!eal.stuck && !any.stuck && !any2.stuck,
		"gets failed for %d s in a row, or a get of size + 1 succeeded (lcore %d, non-EAL %d %d)",
		STATS_STUCK_S, eal.stuck, any.stuck, any2.stuck);
	TEST_CHECK(tm_test_raw_count(small) == STATS_SMALL,
		"count %u at rest, pool of %u", tm_test_raw_count(small),
		STATS_SMALL);
	fails = eal.ret + any.ret + any2.ret;
	TEST_CHECK(stats_get(small, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 3ULL * eal.rounds && st.put_calls == 3ULL * eal.rounds,
		"calls get %" PRIu64 " put %" PRIu64 ", want %u each",
		st.get_calls, st.put_calls, 3 * eal.rounds);
	TEST_CHECK(st.get_objs == 15ULL * eal.rounds && st.put_objs == 15ULL * eal.rounds,
		"objects get %" PRIu64 " put %" PRIu64 ", want %u each",
		st.get_objs, st.put_objs, 15 * eal.rounds);
	TEST_CHECK(eal.ret > 0 && any.ret > 0 && any2.ret > 0,
		"a thread saw no failed get (lcore %" PRIu64 ", non-EAL %" PRIu64 " + %" PRIu64 "): the check below is void",
		eal.ret, any.ret, any2.ret);
	TEST_CHECK(st.get_fails == fails, "get_fails %" PRIu64 ", threads saw %" PRIu64,
		st.get_fails, fails);
	printf("three threads: %" PRIu64 " failed gets, %" PRIu64 " CAS retries over %" PRIu64 " calls\n",
		st.get_fails, st.cas_retries, st.get_calls + st.put_calls);
	TEST_CHECK(stats_reset(small) == 0, "reset");
	TEST_CHECK(stats_get(small, &st) == 0, "stats_get");
	TEST_CHECK(st.get_calls == 0 && st.get_objs == 0 && st.get_fails == 0 &&
		st.put_calls == 0 && st.put_objs == 0 && st.cas_retries == 0,
		"reset after concurrent traffic left get %" PRIu64 " fails %" PRIu64 " put %" PRIu64 " retries %" PRIu64,
		st.get_calls, st.get_fails, st.put_calls, st.cas_retries);

	TEST_CHECK(stats_threads() == TEST_SUCCESS, "unregistered threads' blocks");

	TEST_CHECK(stats_get(NULL, &st) == -EINVAL, "NULL pool accepted");
	TEST_CHECK(stats_get(mp, NULL) == -EINVAL, "NULL stats accepted");
	TEST_CHECK(stats_reset(NULL) == -EINVAL, "reset of NULL accepted");
	ring = tm_test_pool("tm_stats_ring", 63, 64, 0, "ring_mp_mc",
			SOCKET_ID_ANY, true);
	TEST_CHECK(ring != NULL, "ring pool");
	TEST_CHECK(stats_get(ring, &st) == -EINVAL, "stats of a ring pool");
	TEST_CHECK(stats_reset(ring) == -EINVAL, "reset of a ring pool");
out:
	rte_mempool_free(ring);
	rte_mempool_free(small);
	rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_stats_autotest, test_stats);

/* Exactly one "turbomem" entry in the ops table, however often loaded. */
static int
test_ops_slots(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, TM_OPS) == 0)
			n++;
	TEST_ASSERT(n == 1, "%u \"%s\" entries in the ops table (%u used)",
		n, TM_OPS, rte_mempool_ops_table.num_ops);
	return TEST_SUCCESS;
}

TM_TEST_REGISTER(turbomem_ops_slots_autotest, test_ops_slots);
