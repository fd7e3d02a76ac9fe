/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * The driver's count (get_count, rte_mempool_avail_count()), summed from
 * the statistics blocks (turbomem_stats.h): cache 0, so that every call
 * reaches the driver, read raw (tm_test_raw_count: not clamped by the
 * library).
 *
 * | command                | what it asserts                               |
 * |------------------------|-----------------------------------------------|
 * | turbomem_count_autotest| - pipeline: lcore 0 gets, lcore 1 only puts:  |
 * |                        |   exact at rest, avail + in use == size       |
 * |                        | - lcore 0 gets, an unregistered thread puts:  |
 * |                        |   exact at rest                               |
 * |                        | - failed gets (exhaustion) count nothing      |
 * |                        | - sampled while 2 unregistered threads and an |
 * |                        |   lcore get and put: never above the size,    |
 * |                        |   never below it by more than they can hold   |
 * |                        |   (an instant's snapshot, not a walk's sum)   |
 * |                        | - exact at rest after them                    |
 *
 * Needs two lcores (-l 0-1).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"

#define COUNT_N 4096
#define COUNT_BULK 32
#define COUNT_THREADS 2
/* Objects one worker holds at most: a bulk in flight and a bulk kept. */
#define COUNT_HELD (2 * COUNT_BULK)

static struct rte_mempool *count_mp;
static void *count_objs[COUNT_N];
static atomic_bool count_stop;

/* Lcore 1: puts what lcore 0 got, never a get of its own. */
static int
count_put_all(void *arg __rte_unused)
{
	unsigned int i;

	for (i = 0; i < COUNT_N; i += COUNT_BULK)
		rte_mempool_put_bulk(count_mp, &count_objs[i], COUNT_BULK);
	return 0;
}

/* A thread without an lcore id: puts what lcore 0 got. */
static void *
count_thread_put_half(void *arg __rte_unused)
{
	unsigned int i;

	for (i = 0; i < COUNT_N / 2; i += COUNT_BULK)
		rte_mempool_put_bulk(count_mp, &count_objs[i], COUNT_BULK);
	return NULL;
}

/* A worker: gets and puts bulks of 1..COUNT_BULK, holding at most two. */
static void *
count_worker(void *arg)
{
	void *a[COUNT_BULK], *b[COUNT_BULK];
	unsigned int seed = (unsigned int)(uintptr_t)arg, na, nb;

	while (!atomic_load_explicit(&count_stop, memory_order_relaxed)) {
		seed = seed * 1103515245 + 12345;
		na = 1 + (seed >> 16) % COUNT_BULK;
		nb = 1 + (seed >> 8) % COUNT_BULK;
		if (rte_mempool_get_bulk(count_mp, a, na) != 0)
			continue;
		if (rte_mempool_get_bulk(count_mp, b, nb) == 0)
			rte_mempool_put_bulk(count_mp, b, nb);
		rte_mempool_put_bulk(count_mp, a, na);
	}
	return NULL;
}

static int
count_lcore_worker(void *arg)
{
	count_worker(arg);
	return 0;
}

static int
test_count(void)
{
	unsigned int i, c, lo = COUNT_N, hi = 0, samples = 0;
	pthread_t tid[COUNT_THREADS];
	unsigned int started = 0;
	int ret = TEST_SUCCESS;
	bool launched = false;
	void *extra;

	if (rte_lcore_count() < 2)
		TEST_SKIP_BUILD("needs two lcores (-l 0-1)");
	count_mp = tm_test_pool("tm_count", COUNT_N, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_ASSERT(count_mp != NULL, "pool");

	/* Pipeline: lcore 0 gets all, lcore 1 only puts them back. */
	for (i = 0; i < COUNT_N; i += COUNT_BULK)
		TEST_CHECK(rte_mempool_get_bulk(count_mp, &count_objs[i],
				COUNT_BULK) == 0, "get %u", i);
	TEST_CHECK(tm_test_raw_count(count_mp) == 0, "count %u, all taken",
		tm_test_raw_count(count_mp));
	TEST_CHECK(rte_mempool_get_bulk(count_mp, &extra, 1) == -ENOENT,
		"a get of an empty pool");
	TEST_CHECK(rte_eal_remote_launch(count_put_all, NULL,
			rte_get_next_lcore(-1, 1, 0)) == 0, "launch");
	rte_eal_mp_wait_lcore();
	TEST_CHECK(tm_test_raw_count(count_mp) == COUNT_N,
		"count %u after an lcore that only puts, want %u",
		tm_test_raw_count(count_mp), COUNT_N);
	TEST_CHECK(rte_mempool_avail_count(count_mp) +
		rte_mempool_in_use_count(count_mp) == COUNT_N,
		"avail %u + in use %u", rte_mempool_avail_count(count_mp),
		rte_mempool_in_use_count(count_mp));

	/* Lcore 0 gets half, a thread without an lcore id puts it back. */
	TEST_CHECK(rte_mempool_get_bulk(count_mp, count_objs, COUNT_N / 2) == 0,
		"get half");
	TEST_CHECK(tm_test_thread_create(&tid[0], count_thread_put_half,
			NULL) == 0, "pthread_create");
	pthread_join(tid[0], NULL);
	TEST_CHECK(tm_test_raw_count(count_mp) == COUNT_N,
		"count %u after a thread without an lcore id put back half, want %u",
		tm_test_raw_count(count_mp), COUNT_N);

	/* Sampled under load: threads without an lcore id and lcore 1. */
	atomic_store(&count_stop, false);
	for (started = 0; started < COUNT_THREADS; started++)
		TEST_CHECK(tm_test_thread_create(&tid[started], count_worker,
			(void *)(uintptr_t)(started + 1)) == 0, "pthread_create");
	TEST_CHECK(rte_eal_remote_launch(count_lcore_worker, (void *)7,
			rte_get_next_lcore(-1, 1, 0)) == 0, "launch");
	launched = true;
	for (i = 0; i < 2000000; i++) {
		c = tm_test_raw_count(count_mp);
		lo = RTE_MIN(lo, c);
		hi = RTE_MAX(hi, c);
		samples++;
	}
out:
	atomic_store(&count_stop, true);
	while (started > 0)
		pthread_join(tid[--started], NULL);
	if (launched)
		rte_eal_mp_wait_lcore();
	if (ret == TEST_SUCCESS) {
		if (hi > COUNT_N || lo < COUNT_N - (COUNT_THREADS + 1) * COUNT_HELD) {
			printf("FAIL: count sampled in [%u, %u], want within [%u, %u]\n",
				lo, hi, COUNT_N - (COUNT_THREADS + 1) * COUNT_HELD,
				COUNT_N);
			ret = TEST_FAILED;
		} else if (tm_test_raw_count(count_mp) != COUNT_N) {
			printf("FAIL: count %u at rest after the threads, want %u\n",
				tm_test_raw_count(count_mp), COUNT_N);
			ret = TEST_FAILED;
		} else {
			printf("count: exact at rest; %u samples under load in [%u, %u] of %u\n",
				samples, lo, hi, COUNT_N);
		}
	}
	if (count_mp != NULL)
		rte_mempool_free(count_mp);
	count_mp = NULL;
	return ret;
}

TM_TEST_REGISTER(turbomem_count_autotest, test_count);
