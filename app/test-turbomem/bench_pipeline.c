/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * pipeline: pairs of worker lcores: the first allocates in bulks of "bulk"
 * and hands the objects through an rte_ring (1024 slots, SP/SC) to the
 * second, which frees them. The allocating lcore's cache only ever
 * empties and the freeing lcore's only fills, so every cache refill and
 * flush reaches the handler: mempool caches cannot balance this.
 *   bulk {32} (--bulks), cache {0, default}; needs an even number of
 *   workers (bench.sh: 2 pinned)
 * Figures: objects per second through all pairs, cycles per object.
 * For turbomem the row's status gives the driver's own counters of the
 * first round: objects per get and per put call (what the cache hands
 * the handler), failed CAS attempts per call (gets and puts racing on
 * the head) and refused gets per get (the allocating lcore waiting for
 * the freeing one: the pool was empty).
 */

#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include "test.h"
#include "bench_common.h"
#include "rte_pmd_turbomem.h"

#define PIPE_ELT_SIZE 2048
#define PIPE_RING 1024
#define PIPE_MAX_PAIRS (RTE_MAX_LCORE / 2)

struct pipe_pair {
	struct rte_ring *ring;
	_Atomic bool producer_done;
	uint64_t freed;
	uint64_t cycles;
} __rte_cache_aligned;

struct pipe_run {
	struct rte_mempool *mp;
	unsigned int bulk;
	_Atomic bool stop;
	struct pipe_pair pairs[PIPE_MAX_PAIRS];
};

static struct pipe_run pipe_run;

static int
pipe_producer(struct pipe_run *r, struct pipe_pair *p)
{
	struct rte_mempool_cache *cache = rte_mempool_default_cache(r->mp,
			rte_lcore_id());
	void *tab[BENCH_MAX_KEEP];
	unsigned int n = r->bulk;

	/* relaxed: a signal only; the figures come from the consumer's TSC */
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		if (rte_mempool_generic_get(r->mp, tab, n, cache) < 0) {
			/* All objects in flight: wait for the consumer. */
			rte_pause();
			continue;
		}
		while (rte_ring_enqueue_bulk(p->ring, tab, n, NULL) == 0)
			rte_pause();
	}
	/* release: the consumer's acquire load sees every enqueue before it */
	atomic_store_explicit(&p->producer_done, true, memory_order_release);
	return 0;
}

static int
pipe_consumer(struct pipe_run *r, struct pipe_pair *p)
{
	struct rte_mempool_cache *cache = rte_mempool_default_cache(r->mp,
			rte_lcore_id());
	uint64_t start = rte_rdtsc(), freed = 0;
	void *tab[BENCH_MAX_KEEP];
	unsigned int n;

	for (;;) {
		/* acquire: pairs with the producer's release of done */
		bool done = atomic_load_explicit(&p->producer_done,
				memory_order_acquire);

		n = rte_ring_dequeue_burst(p->ring, tab, r->bulk, NULL);
		if (n > 0) {
			rte_mempool_generic_put(r->mp, tab, n, cache);
			freed += n;
		} else if (done) {
			break;
		} else {
			rte_pause();
		}
	}
	p->freed = freed;
	p->cycles = rte_rdtsc() - start;
	return 0;
}

static int
pipe_lcore(void *arg)
{
	struct pipe_run *r = arg;
	unsigned int idx = rte_lcore_index(rte_lcore_id()) - 1;

	if (idx % 2 == 0)
		return pipe_producer(r, &r->pairs[idx / 2]);
	return pipe_consumer(r, &r->pairs[idx / 2]);
}

struct pipe_set {
	unsigned int workers, pairs, size, cache;
};

/* Append turbomem's counters of the run to the row's status, once. */
static void
pipe_driver_counters(struct rte_mempool *mp, struct bench_row *row)
{
	struct rte_pmd_turbomem_stats st;
	size_t off = strlen(row->status);
	uint64_t calls;

	if (strstr(row->status, "per get") != NULL ||
			bench_turbomem_stats(mp, &st) != 0 ||
			st.get_calls == 0 || st.put_calls == 0)
		return;
	calls = st.get_calls + st.get_fails + st.put_calls;
	snprintf(row->status + off, sizeof(row->status) - off,
		"; %" PRIu64 " per get, %" PRIu64 " per put, %.3f CAS retries per call, %.3f refused gets per get",
		st.get_objs / st.get_calls, st.put_objs / st.put_calls,
		(double)st.cas_retries / calls,
		(double)st.get_fails / st.get_calls);
}

static int
pipe_measure(struct bench_set *set, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row,
		double fig[BENCH_NB_FIGS])
{
	const struct bench_opts *o = &bench_opts;
	struct pipe_set *ps = set->ctx;
	struct pipe_run *r = &pipe_run;
	unsigned int i, pairs = ps->pairs, size = ps->size;
	uint64_t freed = 0, cycles = 0;
	double rate = 0;

	r->mp = tm_test_pool("tm_bench_pipe", size, PIPE_ELT_SIZE, ps->cache,
			o->handlers[h], SOCKET_ID_ANY, true);
	if (r->mp == NULL)
		return 0;
	/* relaxed: the EAL launch below orders these stores */
	for (i = 0; i < pairs; i++) {
		atomic_store_explicit(&r->pairs[i].producer_done, false,
			memory_order_relaxed);
		r->pairs[i].freed = r->pairs[i].cycles = 0;
	}
	atomic_store_explicit(&r->stop, false, memory_order_relaxed);
	/* The counters from here on: not the puts that filled the pool. */
	bench_turbomem_stats(r->mp, NULL);
	rte_eal_mp_remote_launch(pipe_lcore, r, SKIP_MAIN);
	/* Sleep: the main lcore may share a CPU with a worker. */
	usleep((useconds_t)(o->seconds * 1e6));
	/* relaxed: a signal; results read after the wait */
	atomic_store_explicit(&r->stop, true, memory_order_relaxed);
	rte_eal_mp_wait_lcore();
	for (i = 0; i < pairs; i++) {
		freed += r->pairs[i].freed;
		cycles += r->pairs[i].cycles;
		if (r->pairs[i].cycles > 0)
			rate += (double)r->pairs[i].freed * rte_get_tsc_hz() /
				r->pairs[i].cycles;
	}
	if (freed > 0) {
		fig[BENCH_FIG_MOBJ_S] = rate;
		/* CPU time the workers had per object */
		fig[BENCH_FIG_CYCLES] = (double)cycles / pairs *
			RTE_MIN(ps->workers, bench_worker_cpus()) / freed;
	}
	pipe_driver_counters(r->mp, row);
	if (rte_mempool_avail_count(r->mp) != size)
		printf("pipeline: %s lost objects: %u of %u back\n",
			o->handlers[h], rte_mempool_avail_count(r->mp), size);
	rte_mempool_free(r->mp);
	return 0;
}

static int
bench_pipeline(const struct bench_scenario *sc)
{
	const struct bench_opts *o = &bench_opts;
	unsigned int workers = rte_lcore_count() - 1, pairs = workers / 2;
	unsigned int b, c, i;
	struct pipe_run *r = &pipe_run;
	static struct bench_set set;
	struct pipe_set ps = { .workers = workers, .pairs = pairs };
	int ret = TEST_SUCCESS;
	char name[RTE_RING_NAMESIZE];

	if (pairs == 0) {
		printf("pipeline needs at least two worker lcores\n");
		return TEST_FAILED;
	}
	memset(r, 0, sizeof(*r));
	for (i = 0; i < pairs; i++) {
		snprintf(name, sizeof(name), "tm_bench_pipe%u", i);
		r->pairs[i].ring = rte_ring_create(name, PIPE_RING,
				SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (r->pairs[i].ring == NULL) {
			printf("cannot create ring %s\n", name);
			ret = TEST_FAILED;
			goto out;
		}
	}

	for (b = 0; b < (o->bulks_given ? o->nb_bulks : 1); b++)
	for (c = 0; c < o->nb_caches; c++) {
		unsigned int bulk = o->bulks_given ? o->bulks[b] : 32;
		unsigned int cache = o->caches[c];
		struct bench_row *p;

		/* random bulks are a grid matter; here 32 stands for them */
		if (bulk == BENCH_BULK_RANDOM)
			bulk = BENCH_RANDOM_MAX;
		/* Ring, both caches at their flush threshold, in-flight bulks. */
		ps.size = pairs * (PIPE_RING + 2 * bulk) +
			workers * (cache * 3 / 2 + bulk) + 64;
		ps.cache = cache;
		bench_progress("pipeline: %u pairs, bulk %u cache %u",
			pairs, bulk, cache);
		r->bulk = bulk;
		p = bench_set_init(&set, sc);
		snprintf(p->backing, sizeof(p->backing), "-");
		p->workers = pairs * 2;
		p->cpus = bench_worker_cpus();
		p->bulk = bulk;
		p->cache = cache;
		p->pool_size = ps.size;
		set.elt_size = PIPE_ELT_SIZE;
		set.measure = pipe_measure;
		set.ctx = &ps;
		if (bench_run_set(&set) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
out:
	for (i = 0; i < pairs; i++)
		rte_ring_free(r->pairs[i].ring);
	return ret;
}

static struct bench_scenario pipeline_scenario = {
	.name = "pipeline",
	.run = bench_pipeline,
	.figure = BENCH_FIG_MOBJ_S,
	.unit = "Mobj/s",
	.higher_is_better = true,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, cache {cache}",
	.charts = "oversub",
};
BENCH_SCENARIO(pipeline_scenario);
