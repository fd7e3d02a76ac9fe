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
 * |                          | non-EAL thread (shared block), refused get    |
 * |                          | included; an EAL lcore and two non-EAL threads|
 * |                          | at once on a pool too small for all of them   |
 * |                          | lose no count (failed gets > 0 and exact);    |
 * |                          | reset zeroes own and shared blocks; -EINVAL   |
 * |                          | for NULL and ring pools                       |
 *
 * The plugin is loaded with -d (no link-time dependency), so the public
 * functions are looked up in the loaded plugin.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "test.h"

#define STATS_N 1023
#define STATS_ROUNDS 50000
/* The concurrent part: 6 + 5 + 4 objects wanted from a pool of 12. */
#define STATS_SMALL 12
/* A thread whose gets fail this long in a row: the pool lost objects. */
#define STATS_STUCK_S 10

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

	/* The shared block alone: a non-EAL thread's known gets and puts. */
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
