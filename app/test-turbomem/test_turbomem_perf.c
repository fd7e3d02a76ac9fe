/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_perf: get/put throughput of mempool handlers side by side,
 * modelled on DPDK's mempool_perf_autotest.
 *
 * Every worker lcore (the main lcore only times the run) repeats: get
 * "keep" objects in bulks of "bulk", then put them back in bulks of "bulk".
 * Figures are objects got per second summed over workers. Handlers are
 * interleaved round by round on the same lcores and the median round is
 * reported with its ratio to the first handler.
 *
 * Options (after "-- turbomem_perf"):
 *   --handlers a,b,...  (default ring_mp_mc,ring_mt_rts,ring_mt_hts,stack,
 *                        lf_stack,turbomem)
 *   --bulk N (16)  --keep N (32)  --cache N (0)  --seconds S (1)
 *   --rounds N (3)
 *   --pipeline 1   workers in pairs: the first of a pair only gets (bulk by
 *                  bulk) and hands the objects over an SP/SC ring, the
 *                  second only puts them back (alloc on one lcore, free on
 *                  another); figures are objects put per second
 *   --iterations N (0: timed) get/put cycles per worker and round instead
 *                  of --seconds; fixed work for valgrind --tool=callgrind
 * Run the layouts with EAL --lcores, e.g. 1 lcore: '0@0,1@1';
 * 2 pinned: '0@0,1@0,2@1'; 6 floating on 2 CPUs: '0@0,(1-6)@(0,1)'.
 * No timing assertions: this command measures, it does not judge.
 */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_pause.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "test.h"

#define PERF_MAX_HANDLERS 16
#define PERF_MAX_ROUNDS 15
/*
 * Hand-off ring of a pipeline pair: deep enough that either side runs on
 * alone for a while when the other is preempted (2 vCPUs shared with other
 * jobs), so the figure reflects the handler more than the scheduler.
 */
#define PERF_PIPE_RING 16384

struct perf_cfg {
	unsigned int bulk, keep, cache, rounds, pipeline;
	uint64_t iterations;
	double seconds;
	char *handlers[PERF_MAX_HANDLERS];
	unsigned int nb_handlers;
};

struct perf_run {
	struct rte_mempool *mp;
	const struct perf_cfg *cfg;
	uint64_t deadline;
	_Atomic uint64_t objs;
	_Atomic unsigned int errors;
	struct rte_ring *pipe[RTE_MAX_LCORE / 2];
};

/* Index of this worker among the workers, in lcore order. */
static unsigned int
perf_worker_rank(void)
{
	unsigned int lc, rank = 0;

	RTE_LCORE_FOREACH_WORKER(lc) {
		if (lc == rte_lcore_id())
			return rank;
		rank++;
	}
	return rank;
}

/* Pipeline: even ranks allocate and hand over, odd ranks free. */
static int
perf_pipe_worker(void *arg)
{
	struct perf_run *r = arg;
	unsigned int bulk = r->cfg->bulk, rank = perf_worker_rank();
	struct rte_mempool_cache *cache =
		rte_mempool_default_cache(r->mp, rte_lcore_id());
	struct rte_ring *pipe = r->pipe[rank / 2];
	void *tab[512];
	uint64_t n = 0;
	unsigned int got;

	if (rank % 2 == 0) {
		while (rte_rdtsc() < r->deadline) {
			if (rte_mempool_generic_get(r->mp, tab, bulk,
					cache) < 0)
				continue;
			/* Ring full: wait for the freeing side. */
			while (rte_ring_sp_enqueue_bulk(pipe, tab, bulk,
					NULL) == 0) {
				if (rte_rdtsc() >= r->deadline) {
					rte_mempool_generic_put(r->mp, tab,
						bulk, cache);
					return 0;
				}
				rte_pause();
			}
		}
		return 0;
	}
	while (rte_rdtsc() < r->deadline) {
		got = rte_ring_sc_dequeue_burst(pipe, tab, bulk, NULL);
		if (got == 0)
			continue;
		rte_mempool_generic_put(r->mp, tab, got, cache);
		n += got;
	}
	atomic_fetch_add(&r->objs, n);
	return 0;
}

static int
perf_worker(void *arg)
{
	struct perf_run *r = arg;
	unsigned int bulk = r->cfg->bulk, keep = r->cfg->keep, i;
	uint64_t iters = r->cfg->iterations;
	void *tab[512];
	uint64_t n = 0, loops = 0;

	while (iters != 0 ? loops++ < iters : rte_rdtsc() < r->deadline) {
		for (i = 0; i < keep; i += bulk)
			if (rte_mempool_generic_get(r->mp, &tab[i], bulk,
				rte_mempool_default_cache(r->mp,
					rte_lcore_id())) < 0)
				break;
		/* A failed get (pool too small) ends the round's count. */
		if (i < keep)
			atomic_fetch_add(&r->errors, 1);
		n += i;
		while (i > 0) {
			i -= bulk;
			rte_mempool_generic_put(r->mp, &tab[i], bulk,
				rte_mempool_default_cache(r->mp,
					rte_lcore_id()));
		}
	}
	atomic_fetch_add(&r->objs, n);
	return 0;
}

static int
perf_parse(struct perf_cfg *c)
{
	static char defaults[] =
		"ring_mp_mc,ring_mt_rts,ring_mt_hts,stack,lf_stack,turbomem";
	char *list = defaults, *tok, *save = NULL;
	int i;

	c->bulk = 16;
	c->keep = 32;
	c->cache = 0;
	c->rounds = 3;
	c->seconds = 1.0;
	for (i = 0; i + 1 < tm_test_argc; i += 2) {
		const char *k = tm_test_argv[i], *v = tm_test_argv[i + 1];

		if (strcmp(k, "--handlers") == 0)
			list = tm_test_argv[i + 1];
		else if (strcmp(k, "--bulk") == 0)
			c->bulk = atoi(v);
		else if (strcmp(k, "--keep") == 0)
			c->keep = atoi(v);
		else if (strcmp(k, "--cache") == 0)
			c->cache = atoi(v);
		else if (strcmp(k, "--seconds") == 0)
			c->seconds = atof(v);
		else if (strcmp(k, "--rounds") == 0)
			c->rounds = atoi(v);
		else if (strcmp(k, "--pipeline") == 0)
			c->pipeline = atoi(v);
		else if (strcmp(k, "--iterations") == 0)
			c->iterations = strtoull(v, NULL, 0);
		else {
			printf("unknown option %s\n", k);
			return -1;
		}
	}
	if (c->bulk == 0 || c->keep == 0 || c->keep > 512 ||
			c->keep % c->bulk != 0 || c->rounds == 0 ||
			c->rounds > PERF_MAX_ROUNDS || c->seconds <= 0 ||
			(c->pipeline && c->iterations)) {
		printf("bad options: bulk %u keep %u (<= 512, multiple of bulk) rounds %u (1..%d) seconds %g (--pipeline is timed only)\n",
			c->bulk, c->keep, c->rounds, PERF_MAX_ROUNDS,
			c->seconds);
		return -1;
	}
	for (tok = strtok_r(list, ",", &save); tok != NULL &&
			c->nb_handlers < PERF_MAX_HANDLERS;
			tok = strtok_r(NULL, ",", &save))
		c->handlers[c->nb_handlers++] = tok;
	return c->nb_handlers > 0 ? 0 : -1;
}

/* Objects still in flight go back to the pool before it is freed. */
static void
perf_pipe_teardown(struct perf_run *r, unsigned int workers)
{
	void *tab[64];
	unsigned int p, n;

	for (p = 0; p < workers / 2; p++) {
		if (r->pipe[p] == NULL)
			continue;
		while ((n = rte_ring_sc_dequeue_burst(r->pipe[p], tab,
				RTE_DIM(tab), NULL)) != 0)
			rte_mempool_put_bulk(r->mp, tab, n);
		rte_ring_free(r->pipe[p]);
		r->pipe[p] = NULL;
	}
}

static int
perf_pipe_setup(struct perf_run *r, unsigned int workers)
{
	char name[RTE_RING_NAMESIZE];
	unsigned int p;

	if (workers < 2 || workers % 2 != 0) {
		printf("--pipeline needs an even number of workers, not %u\n",
			workers);
		return -1;
	}
	for (p = 0; p < workers / 2; p++) {
		snprintf(name, sizeof(name), "tm_perf_pipe%u", p);
		r->pipe[p] = rte_ring_create(name, PERF_PIPE_RING,
				SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (r->pipe[p] == NULL) {
			printf("cannot create ring %s\n", name);
			perf_pipe_teardown(r, workers);
			return -1;
		}
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
test_perf(void)
{
	double rate[PERF_MAX_HANDLERS][PERF_MAX_ROUNDS], med[PERF_MAX_HANDLERS];
	unsigned int workers = rte_lcore_count() - 1, h, round, size;
	struct perf_cfg cfg = { 0 };
	struct perf_run r;
	uint64_t start;

	if (perf_parse(&cfg) < 0)
		return TEST_FAILED;
	if (workers == 0) {
		printf("turbomem_perf needs at least one worker lcore\n");
		return TEST_FAILED;
	}
	size = rte_lcore_count() * (cfg.keep + 2 * RTE_MEMPOOL_CACHE_MAX_SIZE);
	if (cfg.pipeline)
		size += workers / 2 * PERF_PIPE_RING;
	printf("turbomem_perf: %u worker lcores, bulk %u, keep %u, cache %u, %g s x %u rounds, pool %u x 2048 B\n",
		workers, cfg.bulk, cfg.keep, cfg.cache, cfg.seconds,
		cfg.rounds, size);

	for (round = 0; round < cfg.rounds; round++) {
		for (h = 0; h < cfg.nb_handlers; h++) {
			memset(&r, 0, sizeof(r));
			r.cfg = &cfg;
			r.mp = tm_test_pool("tm_perf", size, 2048, cfg.cache,
					cfg.handlers[h], SOCKET_ID_ANY, true);
			if (r.mp == NULL) {
				rate[h][round] = 0;
				continue;
			}
			r.deadline = rte_rdtsc() +
				(uint64_t)(cfg.seconds * rte_get_tsc_hz());
			if (cfg.pipeline && perf_pipe_setup(&r, workers) < 0) {
				rte_mempool_free(r.mp);
				return TEST_FAILED;
			}
			start = rte_rdtsc();
			rte_eal_mp_remote_launch(cfg.pipeline ? perf_pipe_worker :
					perf_worker, &r, SKIP_MAIN);
			/* Sleep, do not spin: the main lcore may share a CPU. */
			if (cfg.iterations == 0)
				usleep((useconds_t)(cfg.seconds * 1e6));
			rte_eal_mp_wait_lcore();
			rate[h][round] = atomic_load(&r.objs) /
				((double)(rte_rdtsc() - start) / rte_get_tsc_hz());
			if (atomic_load(&r.errors) != 0)
				printf("%s: %u failed gets (pool too small?)\n",
					cfg.handlers[h],
					atomic_load(&r.errors));
			perf_pipe_teardown(&r, workers);
			rte_mempool_free(r.mp);
		}
	}

	printf("%-14s %14s %8s   rounds (Mobj/s)\n", "handler", "median Mobj/s",
		"ratio");
	for (h = 0; h < cfg.nb_handlers; h++) {
		double sorted[PERF_MAX_ROUNDS];

		memcpy(sorted, rate[h], sizeof(double) * cfg.rounds);
		qsort(sorted, cfg.rounds, sizeof(double), cmp_double);
		med[h] = sorted[cfg.rounds / 2];
	}
	for (h = 0; h < cfg.nb_handlers; h++) {
		printf("%-14s %14.1f %8.2f  ", cfg.handlers[h], med[h] / 1e6,
			med[0] > 0 ? med[h] / med[0] : 0);
		for (round = 0; round < cfg.rounds; round++)
			printf(" %.1f", rate[h][round] / 1e6);
		printf("\n");
	}
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_perf, test_perf);
