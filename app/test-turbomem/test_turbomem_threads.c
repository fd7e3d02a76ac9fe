/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Multi-thread tests of a turbomem pool through the mempool API.
 *
 * | command                     | threads                     | cache      |
 * |-----------------------------|-----------------------------|------------|
 * | turbomem_nonEAL_autotest    | 4 unregistered pthreads     | 32 (unused |
 * |                             | (LCORE_ID_ANY) + 2          | by the     |
 * |                             | rte_thread_register()ed     | unregist.) |
 * | turbomem_stress_autotest    | every lcore (oversubscribe  | 0          |
 * |                             | with --lcores), random bulk |            |
 * |                             | 1..64, demand above size    |            |
 *
 * Oracles (see reliability notes): an ownership ledger in each object
 * (atomic owner swapped FREE -> me on get, me -> FREE before put), exact
 * bulk results, 0 <= count <= size whenever sampled, conservation
 * (got == put at the end) and a final census (every object exactly once);
 * nonEAL: every block at rest in an lcore stash, the free list or a group.
 * Iterations scale with TM_TEST_SCALE; the seed is printed for replay
 * (TM_TEST_SEED sets it).
 */

#define _GNU_SOURCE /* pthread_getaffinity_np */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"
#include "test_ledger.h"


struct stress {
	struct rte_mempool *mp;
	unsigned int max_bulk;
	unsigned long iterations;
	uint64_t seed;
	_Atomic unsigned long errors;
	_Atomic uint64_t got, put, failed;
	_Atomic uint32_t next_id;
	bool register_thread;
};

#define STRESS_FAIL(st, ...) do { \
	if (atomic_fetch_add(&(st)->errors, 1) < 10) \
		printf("FAIL: " __VA_ARGS__); \
} while (0)

static void
stress_loop(struct stress *st, uint32_t me)
{
	struct rte_mempool *mp = st->mp;
	unsigned int cap = 2 * st->max_bulk, held = 0, n, i;
	uint64_t seed = st->seed + me * 0x9e3779b97f4a7c15ull;
	struct tm_test_obj **tab = calloc(cap, sizeof(*tab));
	unsigned long it;

	if (tab == NULL) {
		STRESS_FAIL(st, "no memory\n");
		return;
	}
	for (it = 0; it < st->iterations; it++) {
		/* Raw: rte_mempool_avail_count() clamps to the size. */
		unsigned int c = tm_test_raw_count(mp);

		if (c > mp->size)
			STRESS_FAIL(st, "count %u above size %u\n", c,
				mp->size);
		n = 1 + tm_test_rand(&seed) % st->max_bulk;
		if (held + n <= cap && (tm_test_rand(&seed) & 1)) {
			if (rte_mempool_get_bulk(mp, (void **)tab + held,
					n) != 0) {
				atomic_fetch_add_explicit(&st->failed, 1,
					memory_order_relaxed);
				continue;
			}
			for (i = held; i < held + n; i++) {
				uint32_t free_owner;

				if (!tm_ledger_move(tab[i], TM_OWNER_FREE, me,
						&free_owner))
					STRESS_FAIL(st, "object %u given to %u while owned by %u\n",
						tab[i]->serial, me,
						free_owner);
				tab[i]->payload++;
			}
			held += n;
			atomic_fetch_add_explicit(&st->got, n,
				memory_order_relaxed);
		} else if (held > 0) {
			n = 1 + tm_test_rand(&seed) % held;
			held -= n;
			for (i = held; i < held + n; i++) {
				uint32_t mine;

				if (!tm_ledger_move(tab[i], me, TM_OWNER_FREE,
						&mine))
					STRESS_FAIL(st, "object %u put by %u but owned by %u\n",
						tab[i]->serial, me, mine);
			}
			rte_mempool_put_bulk(mp, (void **)tab + held, n);
			atomic_fetch_add_explicit(&st->put, n,
				memory_order_relaxed);
		}
	}
	for (i = 0; i < held; i++) {
		uint32_t mine;

		if (!tm_ledger_move(tab[i], me, TM_OWNER_FREE, &mine))
			STRESS_FAIL(st, "object %u owned by %u at the end\n",
				tab[i]->serial, mine);
	}
	rte_mempool_put_bulk(mp, (void **)tab, held);
	atomic_fetch_add_explicit(&st->put, held, memory_order_relaxed);
	free(tab);
}

/* Everything back, every object once, count exact. */
static int
stress_census(struct stress *st)
{
	struct rte_mempool *mp = st->mp;
	struct tm_census c;

	TEST_ASSERT(atomic_load(&st->errors) == 0, "%lu ledger errors",
		atomic_load(&st->errors));
	TEST_ASSERT(atomic_load(&st->got) == atomic_load(&st->put),
		"conservation: got %" PRIu64 " put %" PRIu64,
		atomic_load(&st->got), atomic_load(&st->put));
	TEST_ASSERT(tm_census(mp, true, mp->size, &c) == 0,
		"census: %u errors", c.errors);
	printf("census: %u objects, each once; got %" PRIu64 " put %" PRIu64 " failed gets %" PRIu64 "\n",
		c.drained, atomic_load(&st->got), atomic_load(&st->put),
		atomic_load(&st->failed));
	return TEST_SUCCESS;
}

static void *
pthread_worker(void *arg)
{
	struct stress *st = arg;
	uint32_t me = atomic_fetch_add(&st->next_id, 1) + 1;
	bool reg = st->register_thread && (me % 3) == 0;

	if (reg && rte_thread_register() != 0) {
		STRESS_FAIL(st, "rte_thread_register failed\n");
		return NULL;
	}
	stress_loop(st, me);
	if (reg)
		rte_thread_unregister();
	return NULL;
}

static int
test_non_eal(void)
{
	struct stress st = { 0 };
	pthread_t tid[6];
	cpu_set_t cpus;
	unsigned int i;
	long online;
	int ret, blocks;

	st.mp = tm_test_pool("tm_noneal", 512, sizeof(struct tm_test_obj), 32,
			TM_OPS, SOCKET_ID_ANY, false);
	TEST_ASSERT(st.mp != NULL, "pool creation failed");
	if (rte_mempool_populate_default(st.mp) != 512) {
		rte_mempool_free(st.mp);
		TEST_ASSERT(0, "populate failed");
	}
	rte_mempool_obj_iter(st.mp, tm_ledger_init, NULL);
	st.max_bulk = 32;
	st.iterations = tm_test_iters(200000ul);
	st.seed = tm_test_seed();
	st.register_thread = true;
	for (i = 0; i < RTE_DIM(tid); i++)
		TEST_ASSERT(tm_test_thread_create(&tid[i], pthread_worker,
			&st) == 0, "pthread_create");
	/* The threads may run at once: on every CPU, not the main's alone. */
	if (pthread_getaffinity_np(tid[0], sizeof(cpus), &cpus) != 0)
		CPU_ZERO(&cpus);
	for (i = 0; i < RTE_DIM(tid); i++)
		pthread_join(tid[i], NULL);
	/* Unregistered threads gave back the blocks their ops stashed. */
	blocks = tm_test_blocks_check(st.mp);
	ret = stress_census(&st);
	rte_mempool_free(st.mp);
	TEST_ASSERT(blocks == 0, "blocks lost or given twice");
	/* Valgrind runs one thread at a time and reports one CPU. */
	online = tm_test_valgrind() ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
	TEST_ASSERT(CPU_COUNT(&cpus) >= RTE_MIN(online, 2),
		"an unregistered thread may run on %d CPUs of %ld online",
		CPU_COUNT(&cpus), online);
	return ret;
}
TM_TEST_REGISTER(turbomem_noneal_autotest, test_non_eal);

static int
lcore_worker(void *arg)
{
	struct stress *st = arg;

	stress_loop(st, rte_lcore_id() + 1);
	return 0;
}

static int
test_stress(void)
{
	struct stress st = { 0 };
	int ret;

	/* 256 objects, up to 64 per bulk and 128 held per lcore: exhaustion. */
	st.mp = tm_test_pool("tm_stress", 256, sizeof(struct tm_test_obj), 0,
			TM_OPS, SOCKET_ID_ANY, true);
	TEST_ASSERT(st.mp != NULL, "pool creation failed");
	rte_mempool_obj_iter(st.mp, tm_ledger_init, NULL);
	st.max_bulk = 64;
	st.iterations = tm_test_iters(500000ul);
	st.seed = tm_test_seed();
	printf("stress: %u lcores, bulk 1..%u, %lu iterations each\n",
		rte_lcore_count(), st.max_bulk, st.iterations);
	rte_eal_mp_remote_launch(lcore_worker, &st, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	ret = stress_census(&st);
	rte_mempool_free(st.mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_stress_autotest, test_stress);
