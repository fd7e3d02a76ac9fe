/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Stress suite (meson test --suite stress): the shapes of the reliability
 * notes, bounded for CI; TM_TEST_SCALE multiplies the iterations into a
 * soak. The seed is printed; TM_TEST_SEED replays it.
 *
 * | command                          | threads                  | cache   | bulk sizes          |
 * |----------------------------------|--------------------------|---------|---------------------|
 * | turbomem_stress_cache0_autotest  | every lcore (12 on 2     | 0       | 0, 1..512, size-1,  |
 * |                                  | CPUs via --lcores)       |         | size, size+1        |
 * | turbomem_stress_cachedef_autotest| same                     | 64      | same                |
 * | turbomem_stress_usercache_autotest| same                    | user    | same (generic get/  |
 * |                                  |                          | cache   | put, own cache)     |
 * | turbomem_stress_noneal_autotest  | 180 pthreads: 1 in 5     | 64 (reg.| 0, 1..64, size-1,   |
 * |                                  | unregistered, the others | threads)| size, size+1        |
 * |                                  | rte_thread_register()ed  |         |                     |
 * |                                  | until RTE_MAX_LCORE runs |         |                     |
 * |                                  | out (then unregistered)  |         |                     |
 * | turbomem_stress_aba_autotest     | every lcore, pool of 4,  | 0       | 1..2                |
 * |                                  | run on the "yield" plugin|         |                     |
 * |                                  | (preemption between head |         |                     |
 * |                                  | read and CAS); each holds|         |                     |
 * |                                  | at most 2                |         |                     |
 * | turbomem_aba_exact_autotest      | one thread, yield plugin:| 0       | 1                   |
 * |                                  | the hook pops X and Y,   |         |                     |
 * |                                  | pushes W and X between a |         |                     |
 * |                                  | pop's read and its CAS;  |         |                     |
 * |                                  | the stale CAS must fail  |         |                     |
 * | turbomem_fail_untouched_autotest | one thread, yield plugin:| 0       | 3 of 3              |
 * |                                  | the hook takes 1 object  |         |                     |
 * |                                  | before the CAS; the pop  |         |                     |
 * |                                  | fails and must not have  |         |                     |
 * |                                  | written the caller's table|        |                     |
 * | turbomem_stress_pipeline_autotest| half the lcores only get,| 0       | 1..32               |
 * |                                  | half only put, via a ring|         |                     |
 * | turbomem_stress_churn_autotest   | every lcore; 40 rounds of| 0, 32 or| 0, 1..64, size-1,   |
 * |                                  | create (random size),    | user    | size, size+1        |
 * |                                  | stress, census, free     |         |                     |
 *
 * Demand is above the pool size in every shape (each thread may hold up
 * to the whole pool), so gets fail constantly: exhaustion.
 *
 * Oracles, on every run: ownership ledger (atomic owner word per object,
 * FREE -> me on get, me -> FREE before put), exactness (a successful get
 * returns n objects of the pool on element boundaries; a get of 0 succeeds
 * and a get of size + 1 fails), count bounds (driver count <= size when
 * sampled), conservation (got == put at the end) and final census (caches
 * flushed, count == size, a drain one by one sees every object once, FREE).
 */

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "rte_pmd_turbomem.h"
#include "test.h"
#include "test_ledger.h"


enum cache_mode { CACHE_NONE, CACHE_POOL, CACHE_USER };

struct sstress {
	const char *shape;
	struct rte_mempool *mp;
	struct tm_test_obj **by_serial;	/* obj_iter order: address of each */
	enum cache_mode cache;
	unsigned int max_bulk;
	bool edges;		/* also 0, size - 1, size, size + 1 */
	unsigned int hold_max;	/* most objects a thread holds */
	unsigned long iterations;
	uint64_t seed;
	struct rte_ring *pipe;	/* pipeline hand-off */
	_Atomic unsigned int producers_left;
	_Atomic unsigned long errors;
	_Atomic uint64_t got, put, gets, puts, failed, zero_gets;
	_Atomic uint64_t size_ok, size_fail, size1_fail, count_samples;
	_Atomic uint64_t registered, register_failed, unregistered;
	_Atomic uint32_t next_id;
	_Atomic uint32_t max_count;
	pthread_barrier_t all_registered;
};

#define SFAIL(st, ...) do { \
	if (atomic_fetch_add(&(st)->errors, 1) < 10) \
		printf("FAIL: " __VA_ARGS__); \
} while (0)

#define RELAXED_ADD(var, v) \
	atomic_fetch_add_explicit(&(var), (v), memory_order_relaxed)

static void
sample_count(struct sstress *st)
{
	unsigned int c = tm_test_raw_count(st->mp);
	uint32_t m = atomic_load_explicit(&st->max_count,
			memory_order_relaxed);

	RELAXED_ADD(st->count_samples, 1);
	if (c > st->mp->size)
		SFAIL(st, "driver count %u above size %u\n", c, st->mp->size);
	while (c > m && !atomic_compare_exchange_weak_explicit(&st->max_count,
			&m, c, memory_order_relaxed, memory_order_relaxed))
		;
}

/* Exactness and ledger of a successful get of n objects. */
static void
take(struct sstress *st, struct tm_test_obj **tab, unsigned int n, uint32_t me)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct tm_test_obj *o = tab[i];
		uint32_t free_owner;

		if (o == NULL || o->serial >= st->mp->size ||
				st->by_serial[o->serial] != o) {
			SFAIL(st, "get returned %p, not an object of %s\n",
				(void *)o, st->mp->name);
			continue;
		}
		if (!tm_ledger_move(o, TM_OWNER_FREE, me, &free_owner))
			SFAIL(st, "object %u given to %u while owned by %u\n",
				o->serial, me, free_owner);
		o->payload++;
	}
	RELAXED_ADD(st->got, n);
	RELAXED_ADD(st->gets, 1);
}

/* Ledger of a put of n objects (from owner me, or any owner if 0). */
static void
give(struct sstress *st, struct tm_test_obj **tab, unsigned int n, uint32_t me)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t owner = me != 0 ? me :
			atomic_load(&tab[i]->owner);

		if (owner == TM_OWNER_FREE ||
				!tm_ledger_move(tab[i], owner, TM_OWNER_FREE,
					&owner))
			SFAIL(st, "object %u put by %u but owned by %u\n",
				tab[i]->serial, me, owner);
	}
	RELAXED_ADD(st->put, n);
	RELAXED_ADD(st->puts, 1);
}

static int
do_get(struct sstress *st, struct rte_mempool_cache *uc, struct tm_test_obj **tab,
		unsigned int n)
{
	if (st->cache == CACHE_USER)
		return rte_mempool_generic_get(st->mp, (void **)tab, n, uc);
	return rte_mempool_get_bulk(st->mp, (void **)tab, n);
}

static void
do_put(struct sstress *st, struct rte_mempool_cache *uc, struct tm_test_obj **tab,
		unsigned int n)
{
	if (st->cache == CACHE_USER)
		rte_mempool_generic_put(st->mp, (void **)tab, n, uc);
	else
		rte_mempool_put_bulk(st->mp, (void **)tab, n);
}

/* Bulk size: mostly 1..max_bulk, sometimes an edge. */
static unsigned int
pick_n(struct sstress *st, uint64_t *seed)
{
	unsigned int size = st->mp->size, r;

	if (st->edges) {
		r = tm_test_rand(seed) % 200;
		if (r < 4)
			return 0;
		if (r == 4)
			return size - 1;
		if (r == 5)
			return size;
		if (r == 6)
			return size + 1;
	}
	return 1 + tm_test_rand(seed) % RTE_MIN(st->max_bulk, size);
}

static void
mixed_loop(struct sstress *st, uint32_t me)
{
	struct rte_mempool *mp = st->mp;
	unsigned int size = mp->size, held = 0, n;
	uint64_t seed = st->seed + me * 0x9e3779b97f4a7c15ull;
	struct rte_mempool_cache *uc = NULL;
	struct tm_test_obj **tab;
	unsigned long it;
	int r;

	tab = calloc(size + 2, sizeof(*tab));
	if (st->cache == CACHE_USER)
		uc = rte_mempool_cache_create(RTE_MIN(64u, size),
				SOCKET_ID_ANY);
	if (tab == NULL || (st->cache == CACHE_USER && uc == NULL)) {
		SFAIL(st, "no memory for thread %u\n", me);
		free(tab);
		return;
	}
	for (it = 0; it < st->iterations; it++) {
		if ((it & 15) == 0)
			sample_count(st);
		if (held == 0 || (tm_test_rand(&seed) & 1)) {
			n = pick_n(st, &seed);
			if (held + n > st->hold_max)
				continue;
			r = do_get(st, uc, tab + held, n);
			if (n == 0) {
				if (r != 0)
					SFAIL(st, "get of 0 returned %d\n", r);
				RELAXED_ADD(st->zero_gets, 1);
				continue;
			}
			if (n == size + 1) {
				if (r == 0) {
					SFAIL(st, "get of size + 1 succeeded\n");
					take(st, tab + held, n, me);
					held += n;
				} else {
					RELAXED_ADD(st->size1_fail, 1);
				}
				continue;
			}
			if (r != 0) {
				if (r > 0)
					SFAIL(st, "get of %u returned %d\n", n,
						r);
				if (n == size)
					RELAXED_ADD(st->size_fail, 1);
				RELAXED_ADD(st->failed, 1);
				continue;
			}
			if (n == size)
				RELAXED_ADD(st->size_ok, 1);
			take(st, tab + held, n, me);
			held += n;
		} else {
			n = 1 + tm_test_rand(&seed) % held;
			held -= n;
			give(st, tab + held, n, me);
			do_put(st, uc, tab + held, n);
		}
	}
	give(st, tab, held, me);
	do_put(st, uc, tab, held);
	if (uc != NULL) {
		rte_mempool_cache_flush(uc, mp);
		rte_mempool_cache_free(uc);
	}
	free(tab);
}

/* Pipeline: producers get and pass on, consumers take over and put. */
static void
pipeline_loop(struct sstress *st, uint32_t me, bool producer)
{
	uint64_t seed = st->seed + me * 0x9e3779b97f4a7c15ull;
	struct tm_test_obj *tab[32];
	unsigned long it;
	unsigned int n, k;

	if (producer) {
		uint64_t hz = rte_get_timer_hz(), last = rte_get_timer_cycles();

		/* iterations counts hand-offs: wait for consumers. */
		for (it = 0; it < st->iterations; ) {
			if ((it & 15) == 0)
				sample_count(st);
			n = 1 + tm_test_rand(&seed) % RTE_DIM(tab);
			if (rte_mempool_get_bulk(st->mp, (void **)tab,
					n) != 0) {
				RELAXED_ADD(st->failed, 1);
				/* Exhausted: let a consumer have the CPU. */
				sched_yield();
				/* No hand-off for 30 s: objects are lost. */
				if (rte_get_timer_cycles() - last > 30 * hz) {
					SFAIL(st, "producer %u: no object for 30 s: driver count %u, ring %u, got %" PRIu64 " put %" PRIu64 "\n",
						me, tm_test_raw_count(st->mp),
						rte_ring_count(st->pipe),
						atomic_load(&st->got),
						atomic_load(&st->put));
					break;
				}
				continue;
			}
			last = rte_get_timer_cycles();
			it++;
			take(st, tab, n, me);
			k = 0;
			while (k < n)
				k += rte_ring_enqueue_burst(st->pipe,
						(void **)tab + k, n - k, NULL);
		}
		/* Release: consumers that see 0 also see our last items. */
		atomic_fetch_sub_explicit(&st->producers_left, 1,
				memory_order_release);
		return;
	}
	for (;;) {
		/* Acquire pairs with the producers' release above. */
		bool last = atomic_load_explicit(&st->producers_left,
				memory_order_acquire) == 0;

		n = rte_ring_dequeue_burst(st->pipe, (void **)tab,
				RTE_DIM(tab), NULL);
		if (n == 0) {
			if (last)
				return;
			rte_pause();
			continue;
		}
		give(st, tab, n, 0);
		rte_mempool_put_bulk(st->mp, (void **)tab, n);
	}
}

static int
lcore_mixed(void *arg)
{
	mixed_loop(arg, rte_lcore_id() + 1);
	return 0;
}

static int
lcore_pipeline(void *arg)
{
	struct sstress *st = arg;
	unsigned int idx = rte_lcore_index(rte_lcore_id());

	pipeline_loop(st, rte_lcore_id() + 1, (idx & 1) == 0);
	return 0;
}

static void *
pthread_mixed(void *arg)
{
	struct sstress *st = arg;
	uint32_t me = atomic_fetch_add(&st->next_id, 1) + 1000;
	bool reg = false;

	/* One thread in five stays unregistered on purpose. */
	if (me % 5 != 0) {
		if (rte_thread_register() == 0) {
			reg = true;
			RELAXED_ADD(st->registered, 1);
		} else {
			/* No lcore id left (RTE_MAX_LCORE): go on without. */
			RELAXED_ADD(st->register_failed, 1);
		}
	}
	if (!reg)
		RELAXED_ADD(st->unregistered, 1);
	/* Every thread holds its lcore id at once: more than there are. */
	pthread_barrier_wait(&st->all_registered);
	mixed_loop(st, me);
	if (reg)
		rte_thread_unregister();
	return NULL;
}

static int
stress_setup(struct sstress *st, const char *shape, const char *name,
		unsigned int n, unsigned int cache_size, enum cache_mode cache)
{
	memset(st, 0, sizeof(*st));
	st->shape = shape;
	st->cache = cache;
	st->hold_max = n + 1;
	st->by_serial = calloc(n, sizeof(*st->by_serial));
	if (st->by_serial == NULL)
		return -1;
	st->mp = tm_test_pool(name, n, sizeof(struct tm_test_obj), cache_size,
			TM_OPS, SOCKET_ID_ANY, true);
	if (st->mp == NULL) {
		free(st->by_serial);
		return -1;
	}
	rte_mempool_obj_iter(st->mp, tm_ledger_init, st->by_serial);
	return 0;
}

/* Everything back, every object once, count exact; frees the pool. */
static int
stress_finish(struct sstress *st)
{
	struct rte_mempool *mp = st->mp;
	int ret = TEST_SUCCESS;
	struct tm_census c;

	TEST_CHECK(atomic_load(&st->errors) == 0, "%lu oracle errors",
		atomic_load(&st->errors));
	TEST_CHECK(atomic_load(&st->got) == atomic_load(&st->put),
		"conservation: got %" PRIu64 " put %" PRIu64,
		atomic_load(&st->got), atomic_load(&st->put));
	TEST_CHECK(tm_census(mp, true, mp->size, &c) == 0,
		"census: %u errors", c.errors);
	printf("%s: pool %u objects: %" PRIu64 " gets (%" PRIu64 " objects), %" PRIu64 " puts (%" PRIu64 " objects), %" PRIu64 " failed gets, %" PRIu64 " gets of 0, size gets %" PRIu64 " ok / %" PRIu64 " failed, %" PRIu64 " gets of size+1 (all failed), %" PRIu64 " count samples (max %u); census %u objects, each once\n",
		st->shape, mp->size, atomic_load(&st->gets),
		atomic_load(&st->got), atomic_load(&st->puts),
		atomic_load(&st->put), atomic_load(&st->failed),
		atomic_load(&st->zero_gets), atomic_load(&st->size_ok),
		atomic_load(&st->size_fail), atomic_load(&st->size1_fail),
		atomic_load(&st->count_samples), atomic_load(&st->max_count),
		c.drained);
out:
	free(st->by_serial);
	rte_mempool_free(mp);
	return ret;
}

static int
stress_lcores(const char *shape, unsigned int n, unsigned int cache_size,
		enum cache_mode cache, unsigned int max_bulk, bool edges,
		unsigned long iterations, unsigned int hold_max)
{
	struct sstress st;

	TEST_ASSERT(stress_setup(&st, shape, "tm_stress", n, cache_size,
		cache) == 0, "pool creation failed");
	if (hold_max != 0)
		st.hold_max = hold_max;
	st.max_bulk = max_bulk;
	st.edges = edges;
	st.iterations = tm_test_iters(iterations);
	st.seed = tm_test_seed();
	printf("%s: %u lcores, pool %u, cache %u%s, bulk 1..%u%s, %lu iterations each\n",
		shape, rte_lcore_count(), n, cache_size,
		cache == CACHE_USER ? " (user-owned)" : "", max_bulk,
		edges ? " + 0, size-1, size, size+1" : "", st.iterations);
	rte_eal_mp_remote_launch(lcore_mixed, &st, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	return stress_finish(&st);
}

static int
test_stress_cache0(void)
{
	return stress_lcores("cache0", 1024, 0, CACHE_NONE, 512, true, 20000, 0);
}
TM_TEST_REGISTER(turbomem_stress_cache0_autotest, test_stress_cache0);

static int
test_stress_cachedef(void)
{
	return stress_lcores("cachedef", 1024, 64, CACHE_POOL, 512, true,
			20000, 0);
}
TM_TEST_REGISTER(turbomem_stress_cachedef_autotest, test_stress_cachedef);

static int
test_stress_usercache(void)
{
	return stress_lcores("usercache", 1024, 0, CACHE_USER, 512, true,
			20000, 0);
}
TM_TEST_REGISTER(turbomem_stress_usercache_autotest, test_stress_usercache);

static int
test_stress_aba(void)
{
	/* Each thread holds at most 2 of the 4: the pool never stays empty. */
	return stress_lcores("aba", 4, 0, CACHE_NONE, 2, false, 100000, 2);
}
TM_TEST_REGISTER(turbomem_stress_aba_autotest, test_stress_aba);

static int
test_stress_noneal(void)
{
	static const unsigned int nb = 180;
	struct sstress st;
	pthread_t *tid;
	unsigned int i;

	TEST_ASSERT(stress_setup(&st, "noneal", "tm_stress_ne", 2048, 64,
		CACHE_POOL) == 0, "pool creation failed");
	st.max_bulk = 64;
	st.edges = true;
	st.iterations = tm_test_iters(2000ul);
	st.seed = tm_test_seed();
	tid = calloc(nb, sizeof(*tid));
	TEST_ASSERT(tid != NULL, "no memory");
	TEST_ASSERT(pthread_barrier_init(&st.all_registered, NULL, nb) == 0,
		"barrier");
	for (i = 0; i < nb; i++)
		TEST_ASSERT(tm_test_thread_create(&tid[i], pthread_mixed,
			&st) == 0, "pthread_create %u", i);
	for (i = 0; i < nb; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	pthread_barrier_destroy(&st.all_registered);
	printf("noneal: %u pthreads (RTE_MAX_LCORE %d, %u EAL lcores): %" PRIu64 " registered, %" PRIu64 " refused an lcore id, %" PRIu64 " ran unregistered\n",
		nb, RTE_MAX_LCORE, rte_lcore_count(),
		atomic_load(&st.registered), atomic_load(&st.register_failed),
		atomic_load(&st.unregistered));
	/* 4 in 5 tried to register, all at once: more than the ids left. */
	if (nb * 4 / 5 > RTE_MAX_LCORE - rte_lcore_count() &&
			atomic_load(&st.register_failed) == 0) {
		stress_finish(&st);
		TEST_ASSERT(0, "no thread went beyond RTE_MAX_LCORE");
	}
	return stress_finish(&st);
}
TM_TEST_REGISTER(turbomem_stress_noneal_autotest, test_stress_noneal);

static int
test_stress_pipeline(void)
{
	struct sstress st;
	int ret;

	TEST_ASSERT(rte_lcore_count() >= 2, "needs 2 lcores or more");
	TEST_ASSERT(stress_setup(&st, "pipeline", "tm_stress_pipe", 1024, 0,
		CACHE_NONE) == 0, "pool creation failed");
	/*
	 * RTS ring: a classic MP/MC ring makes every enqueuer wait for a
	 * preempted one, which on 6 lcores over 2 CPUs stalls for whole
	 * time slices; the pipe must not be the bottleneck.
	 */
	st.pipe = rte_ring_create("tm_stress_pipe", 2048, SOCKET_ID_ANY,
			RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ);
	if (st.pipe == NULL) {
		stress_finish(&st);
		TEST_ASSERT(0, "ring: %s", rte_strerror(rte_errno));
	}
	st.max_bulk = 32;
	st.iterations = tm_test_iters(10000ul);
	st.seed = tm_test_seed();
	atomic_store(&st.producers_left, (rte_lcore_count() + 1) / 2);
	printf("pipeline: %u producers, %u consumers, %lu bulks per producer\n",
		(rte_lcore_count() + 1) / 2, rte_lcore_count() / 2,
		st.iterations);
	rte_eal_mp_remote_launch(lcore_pipeline, &st, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	ret = rte_ring_count(st.pipe) == 0 ? TEST_SUCCESS : TEST_FAILED;
	if (ret != TEST_SUCCESS)
		printf("pipeline: %u objects left in the ring\n",
			rte_ring_count(st.pipe));
	rte_ring_free(st.pipe);
	if (stress_finish(&st) != TEST_SUCCESS)
		return TEST_FAILED;
	return ret;
}
TM_TEST_REGISTER(turbomem_stress_pipeline_autotest, test_stress_pipeline);

static void
count_mz(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static size_t
heap_allocated(void)
{
	struct rte_malloc_socket_stats s;
	size_t sum = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
				&s) == 0)
			sum += s.heap_allocsz_bytes;
	return sum;
}

static int
test_stress_churn(void)
{
	static const unsigned int rounds = 40;
	static const enum cache_mode modes[] = {
		CACHE_NONE, CACHE_POOL, CACHE_USER };
	unsigned int mz0 = 0, mz1 = 0, r, n;
	uint64_t seed = tm_test_seed(), gets = 0, got = 0;
	struct sstress st;
	size_t heap0;

	/* Library-wide state made by the first pool is not a leak. */
	TEST_ASSERT(stress_setup(&st, "churn", "tm_churn", 64, 0,
		CACHE_NONE) == 0, "pool creation failed");
	st.iterations = 0;
	TEST_ASSERT(stress_finish(&st) == TEST_SUCCESS, "warm-up");
	rte_memzone_walk(count_mz, &mz0);
	heap0 = heap_allocated();

	for (r = 0; r < rounds; r++) {
		enum cache_mode m = modes[tm_test_rand(&seed) % RTE_DIM(modes)];

		n = 2 + tm_test_rand(&seed) % 4095;
		/* The library wants 1.5 x cache <= size. */
		if (m == CACHE_POOL && n < 48)
			m = CACHE_NONE;
		/* The same name every round: it must be free again. */
		TEST_ASSERT(stress_setup(&st, "churn", "tm_churn", n,
			m == CACHE_POOL ? 32 : 0, m) == 0,
			"round %u: creation of %u objects failed", r, n);
		st.max_bulk = 64;
		st.edges = true;
		st.iterations = tm_test_iters(1000ul);
		st.seed = tm_test_rand(&seed) | 1;
		rte_eal_mp_remote_launch(lcore_mixed, &st, CALL_MAIN);
		rte_eal_mp_wait_lcore();
		gets += atomic_load(&st.gets);
		got += atomic_load(&st.got);
		TEST_ASSERT(stress_finish(&st) == TEST_SUCCESS,
			"round %u (%u objects, cache mode %d)", r, n, m);
		TEST_ASSERT(rte_mempool_lookup("tm_churn") == NULL,
			"round %u: name still taken", r);
	}
	rte_memzone_walk(count_mz, &mz1);
	TEST_ASSERT(mz1 == mz0, "memzones %u, expected %u", mz1, mz0);
	TEST_ASSERT(heap_allocated() == heap0, "heap bytes %zu, expected %zu",
		heap_allocated(), heap0);
	printf("churn: %u rounds of create/stress/free, %" PRIu64 " gets (%" PRIu64 " objects); memzones and heap back to the start\n",
		rounds, gets, got);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_stress_churn_autotest, test_stress_churn);

/*
 * ABA, deterministically (yield plugin only): a pop reads head {X, 2}
 * with X -> Y and walks to Y; at the preemption point another "thread"
 * pops X and Y, pushes W and X back: head {X, 2} again, now X -> W. The
 * stale commit must fail (the tag changed) and the pop retry; without
 * the tag it would succeed and make Y, which the other holds, the top.
 */
typedef void (yield_fn_t)(void);

static struct {
	struct rte_mempool *mp;
	yield_fn_t **hook;
	void *x, *y, *w;
	void *took[2];
	int ret;
} aba;

static void
aba_interfere(void)
{
	*aba.hook = NULL;	/* once, and not inside our own operations */
	aba.ret = rte_mempool_ops_dequeue_bulk(aba.mp, &aba.took[0], 1);
	aba.ret |= rte_mempool_ops_dequeue_bulk(aba.mp, &aba.took[1], 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &aba.w, 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &aba.x, 1);
}

static int
test_aba_exact(void)
{
	void *a[4], *o1 = NULL, *o2 = NULL;
	int ret = TEST_SUCCESS;
	struct rte_pmd_turbomem_stats st;

	aba.hook = tm_test_plugin_sym("tm_test_yield_hook");
	if (aba.hook == NULL) {
		TEST_SKIP_BUILD("not the yield build of the plugin: nothing to check");
	}
	aba.mp = tm_test_pool("tm_aba", 4, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(aba.mp != NULL, "pool creation failed");
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(aba.mp, a, 4) == 0, "get 4");
	aba.x = a[0];
	aba.y = a[1];
	aba.w = a[2];
	/* Free list X -> Y; W and a[3] held. */
	rte_mempool_ops_enqueue_bulk(aba.mp, &aba.y, 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &aba.x, 1);
	*aba.hook = aba_interfere;
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(aba.mp, &o1, 1) == 0,
		"pop under interference failed");
	TEST_CHECK(*aba.hook == NULL, "the hook did not run");
	TEST_CHECK(aba.ret == 0 && aba.took[0] == aba.x &&
		aba.took[1] == aba.y, "interference: %d %p %p", aba.ret,
		aba.took[0], aba.took[1]);
	/* Now X (ours), Y (the other's), W must be the only one left. */
	TEST_CHECK(o1 == aba.x, "popped %p, expected X %p", o1, aba.x);
	TEST_CHECK(rte_mempool_avail_count(aba.mp) == 1,
		"count %u after the pop, expected 1",
		rte_mempool_avail_count(aba.mp));
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(aba.mp, &o2, 1) == 0,
		"last pop failed");
	TEST_CHECK(o2 == aba.w, "stale commit: popped %p (Y is %p, held by the other), expected W %p",
		o2, aba.y, aba.w);
	/* Exactly one failed CAS: the stale commit. */
	TEST_CHECK(tm_test_stats(aba.mp, &st) == 0,
		"rte_pmd_turbomem_stats_get");
	TEST_CHECK(st.cas_retries == 1 && st.get_calls == 5 && st.get_objs == 8 &&
		st.put_calls == 4 && st.put_objs == 4 && st.get_fails == 0,
		"stats: retries %" PRIu64 " (want 1), gets %" PRIu64 "/%" PRIu64 " (5/8), puts %" PRIu64 "/%" PRIu64 " (4/4), fails %" PRIu64 " (0)",
		st.cas_retries, st.get_calls, st.get_objs, st.put_calls,
		st.put_objs, st.get_fails);
	printf("aba: stale commit refused, pop retried once: got X then W\n");
	rte_mempool_ops_enqueue_bulk(aba.mp, &o1, 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &o2, 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &aba.y, 1);
	rte_mempool_ops_enqueue_bulk(aba.mp, &a[3], 1);
out:
	*aba.hook = NULL;
	rte_mempool_free(aba.mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_aba_exact_autotest, test_aba_exact);

/*
 * A pop that fails must leave the caller's table untouched (DPDK's cache
 * refill dequeues into the cache's own array and keeps using it after a
 * failure). Yield plugin only: a pop of 3 from a pool holding 3 walks the
 * chain, then, at the preemption point, another "thread" takes one object;
 * the stale CAS fails, the retry finds 2 < 3 and returns -ENOENT.
 */
static struct {
	struct rte_mempool *mp;
	yield_fn_t **hook;
	void *took;
	int ret;
} untouched;

static void
untouched_interfere(void)
{
	*untouched.hook = NULL;
	untouched.ret = rte_mempool_ops_dequeue_bulk(untouched.mp,
			&untouched.took, 1);
}

static int
test_fail_untouched(void)
{
	void *tab[3], *sentinel = (void *)(uintptr_t)0x5e5e5e5e;
	unsigned int i;
	int ret = TEST_SUCCESS, r;

	untouched.hook = tm_test_plugin_sym("tm_test_yield_hook");
	if (untouched.hook == NULL) {
		TEST_SKIP_BUILD("not the yield build of the plugin: nothing to check");
	}
	untouched.mp = tm_test_pool("tm_untouched", 3, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_ASSERT(untouched.mp != NULL, "pool creation failed");
	for (i = 0; i < RTE_DIM(tab); i++)
		tab[i] = sentinel;
	*untouched.hook = untouched_interfere;
	r = rte_mempool_ops_dequeue_bulk(untouched.mp, tab, 3);
	TEST_CHECK(*untouched.hook == NULL && untouched.ret == 0,
		"the interfering pop did not run (%d)", untouched.ret);
	TEST_CHECK(r == -ENOENT, "pop of 3 with 2 left returned %d", r);
	for (i = 0; i < RTE_DIM(tab); i++)
		TEST_CHECK(tab[i] == sentinel,
			"failed pop wrote %p into slot %u", tab[i], i);
	TEST_CHECK(rte_mempool_avail_count(untouched.mp) == 2,
		"count %u, expected 2", rte_mempool_avail_count(untouched.mp));
	rte_mempool_ops_enqueue_bulk(untouched.mp, &untouched.took, 1);
	printf("untouched: a pop that lost its race and then failed left the table as it was\n");
out:
	*untouched.hook = NULL;
	rte_mempool_free(untouched.mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_fail_untouched_autotest, test_fail_untouched);
