/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * grid: get/put loops modelled on DPDK's mempool_perf_autotest, on the EAL
 * worker lcores or on unregistered threads, every handler interleaved
 * round by round. Every worker lcore (the main lcore only times) repeats:
 * get "keep" objects in bulks of "bulk", put them back in bulks of "bulk".
 * 2048-byte objects, pool of (workers + 1) * (512 + 512) - 1 objects as in
 * mempool_perf_autotest, or --pool-objs (more: bench.sh gate's tracked
 * gets in a pool 32 times larger).
 *   bulk  {1, 4, 16, 32, random}  random: each get/put takes a size drawn
 *         in 1..32 from a per-worker sequence seeded by --seed (the same
 *         sequence for every handler)
 *   keep  {32, 128, 512}
 *   cache {0, default}  default = RTE_MEMPOOL_CACHE_MAX_SIZE (512), as
 *         mempool_perf_autotest
 *   lcore layout: the EAL one of the run (scripts/bench.sh runs 1 worker,
 *         2 workers pinned to 2 CPUs, 6 workers floating on 2 CPUs:
 *         oversubscribed), labelled by --layout
 *   --nonEAL N: N unregistered pthreads instead of the workers (no mempool
 *         cache: cache column "none"), each free to run on every CPU
 *         (tm_test_thread_create), not on the main lcore's alone
 * Figures: objects got per second summed over workers (median round);
 * cycles per object = elapsed TSC cycles x min(workers, CPUs) / objects,
 * the CPU time the workers had per object. A run ends when the main lcore,
 * asleep meanwhile, raises a stop flag checked at every get/put, so a
 * collapsing handler (preempted ring producers) cannot stretch it.
 * Status: gets that found the pool empty, the driver's calls where a
 * mempool cache served nearly everything (turbomem), and, with several
 * workers, a round where one worker got more than GRID_SPREAD_NOTE times
 * the objects of another (or none): a handler that starves some threads,
 * and the smallest share of the objects one worker got in a round.
 *
 * chunks (below): the grid loop, 1 worker, cache 0, on a pool populated
 * from one chunk and on one populated from 1000 separate chunks.
 */

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"
#include "bench_common.h"

#define GRID_ELT_SIZE 2048
#define GRID_SEQ 4096 /* random bulk sizes per worker, a power of 2 */
#define GRID_MAX_WORKERS RTE_MAX_LCORE

struct grid_worker {
	uint64_t objs;
	uint64_t cycles;
	unsigned int errors;
	uint8_t seq[GRID_SEQ];
} __rte_cache_aligned;

struct grid_run {
	struct rte_mempool *mp;
	unsigned int bulk, keep;
	_Atomic bool stop;
	bool use_cache;
	_Atomic unsigned int next_thread;
	struct grid_worker *w;
};

static __rte_always_inline bool
grid_stopped(struct grid_run *r)
{
	/* relaxed: a signal only; the figures come from each worker's TSC */
	return atomic_load_explicit(&r->stop, memory_order_relaxed);
}

static __rte_always_inline unsigned int
next_bulk(struct grid_worker *w, unsigned int bulk, unsigned int *pos,
		unsigned int left)
{
	unsigned int n = bulk;

	if (bulk == BENCH_BULK_RANDOM)
		n = w->seq[(*pos)++ & (GRID_SEQ - 1)];
	return RTE_MIN(n, left);
}

/*
 * Runs until the main lcore raises "stop", checked at every operation (an
 * L1-resident load until it changes, so it costs every handler the same
 * cycle): preempted threads of a collapsing handler cannot stretch a run.
 * Objects got when stop comes are not put back: the pool is freed whole.
 */
static void
grid_loop(struct grid_run *r, struct grid_worker *w,
		struct rte_mempool_cache *cache)
{
	void *tab[BENCH_MAX_KEEP] __rte_cache_aligned;
	unsigned int keep = r->keep, bulk = r->bulk, i, n, got, pos = 0;
	uint64_t start = rte_rdtsc(), objs = 0;

	while (!grid_stopped(r)) {
		for (got = 0; got < keep; got += n) {
			n = next_bulk(w, bulk, &pos, keep - got);
			if (unlikely(rte_mempool_generic_get(r->mp, &tab[got],
					n, cache) < 0)) {
				w->errors++;
				break;
			}
			if (unlikely(grid_stopped(r))) {
				got += n;
				break;
			}
		}
		objs += got;
		for (i = 0; i < got; i += n) {
			n = next_bulk(w, bulk, &pos, got - i);
			rte_mempool_generic_put(r->mp, &tab[i], n, cache);
			if (unlikely(grid_stopped(r)))
				break;
		}
	}
	w->objs = objs;
	w->cycles = rte_rdtsc() - start;
}

static int
grid_lcore(void *arg)
{
	struct grid_run *r = arg;
	unsigned int idx = rte_lcore_index(rte_lcore_id()) - 1;

	grid_loop(r, &r->w[idx], r->use_cache ?
		rte_mempool_default_cache(r->mp, rte_lcore_id()) : NULL);
	return 0;
}

static void *
grid_thread(void *arg)
{
	struct grid_run *r = arg;
	/* relaxed: only hands out distinct indices, ordered by pthread_create */
	unsigned int idx = atomic_fetch_add_explicit(&r->next_thread, 1,
			memory_order_relaxed);

	/* Unregistered: rte_lcore_id() is LCORE_ID_ANY, no mempool cache. */
	grid_loop(r, &r->w[idx], NULL);
	return NULL;
}

static void
grid_seq(struct grid_worker *w, unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		uint64_t st = (bench_opts.seed + 1) * 0x9E3779B97F4A7C15ULL + i;

		for (k = 0; k < GRID_SEQ; k++)
			w[i].seq[k] = 1 + bench_rand(&st) % BENCH_RANDOM_MAX;
	}
}

/* One measurement: objects per second summed over workers, NAN if failed. */
static double
grid_measure(struct grid_run *r, unsigned int nworkers, bool nonEAL,
		double seconds, double *cyc_per_obj, unsigned int *errors)
{
	pthread_t tid[64];
	uint64_t objs = 0, cycles = 0;
	unsigned int i, cpus;
	double secs;

	for (i = 0; i < nworkers; i++) {
		r->w[i].objs = r->w[i].cycles = 0;
		r->w[i].errors = 0;
	}
	/* relaxed: launching the workers (pthread_create, EAL launch) orders it */
	atomic_store_explicit(&r->stop, false, memory_order_relaxed);
	if (nonEAL) {
		/* relaxed: before pthread_create, which orders it */
		atomic_store_explicit(&r->next_thread, 0, memory_order_relaxed);
		for (i = 0; i < nworkers; i++)
			if (tm_test_thread_create(&tid[i], grid_thread, r) != 0)
				break;
		nworkers = i;
		usleep((useconds_t)(seconds * 1e6));
		/* relaxed: a signal; results are read after pthread_join */
		atomic_store_explicit(&r->stop, true, memory_order_relaxed);
		for (i = 0; i < nworkers; i++)
			pthread_join(tid[i], NULL);
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
	} else {
		rte_eal_mp_remote_launch(grid_lcore, r, SKIP_MAIN);
		usleep((useconds_t)(seconds * 1e6));
		/* relaxed: a signal; results are read after the lcores' wait */
		atomic_store_explicit(&r->stop, true, memory_order_relaxed);
		rte_eal_mp_wait_lcore();
		cpus = bench_worker_cpus();
	}
	*errors = 0;
	secs = 0;
	for (i = 0; i < nworkers; i++) {
		objs += r->w[i].objs;
		cycles += r->w[i].cycles;
		*errors += r->w[i].errors;
		if (r->w[i].cycles > 0)
			secs += (double)r->w[i].objs / r->w[i].cycles;
	}
	if (objs == 0 || nworkers == 0)
		return NAN;
	*cyc_per_obj = (double)cycles / nworkers *
		RTE_MIN(nworkers, cpus) / objs;
	/* Each worker's own rate, summed: what mempool_perf_autotest reports. */
	return secs * rte_get_tsc_hz();
}

/*
 * The first few hundred milliseconds of a process run slower (measured:
 * the first 0.1 s round of ring_mp_mc 15-20% below the next ones; idle
 * vCPUs waking up, first faults): 0.3 s of the first set, unrecorded, so
 * that this is no handler's measurement.
 */
static void
grid_warm_up(struct grid_run *r, unsigned int nworkers, bool nonEAL,
		unsigned int size)
{
	const struct bench_opts *o = &bench_opts;
	unsigned int h, e;
	double c;

	for (h = 0; h < o->nb_handlers; h++)
		if (bench_handler_skip(o->handlers[h], nonEAL,
				GRID_ELT_SIZE) == NULL)
			break;
	if (h == o->nb_handlers)
		return;
	r->bulk = o->bulks[0];
	r->keep = o->keeps[0];
	r->use_cache = false;
	r->mp = tm_test_pool("tm_bench_grid", size, GRID_ELT_SIZE, 0,
			o->handlers[h], SOCKET_ID_ANY, true);
	if (r->mp == NULL)
		return;
	grid_measure(r, nworkers, nonEAL, 0.3, &c, &e);
	rte_mempool_free(r->mp);
}

/* A set of grid or chunks: the run, its pool, the failed gets per row. */
struct grid_set {
	struct grid_run r;
	unsigned int nworkers, size, cache;
	/* grid: a variant (row) per pool size (--pool-objs) */
	unsigned int sizes[BENCH_MAX_VARIANTS], nb_sizes;
	bool nonEAL;
	/* Each by row, [handler * variants + variant]: */
	unsigned int errs[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
	/* turbomem's driver calls and the objects got, over the rounds */
	int64_t calls[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
	uint64_t objs[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
	/*
	 * Several workers: the largest ratio over the rounds of the most
	 * objects one worker got to the fewest (INFINITY: one got none).
	 */
	double spread[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
	/* Several workers: the smallest share of the objects one worker got. */
	double share[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
};

/* A spread above this is reported in the row's status: starved workers. */
#define GRID_SPREAD_NOTE 2.0

static int
grid_set_measure(struct bench_set *set, unsigned int h,
		unsigned int v, struct bench_row *row __rte_unused,
		double fig[BENCH_NB_FIGS])
{
	struct grid_set *g = set->ctx;
	unsigned int e = 0, i, hv = h * RTE_MAX(set->nb_variants, 1u) + v;
	int64_t calls;

	g->r.mp = tm_test_pool("tm_bench_grid", g->sizes[v], GRID_ELT_SIZE,
			g->cache, bench_opts.handlers[h], SOCKET_ID_ANY, true);
	if (g->r.mp == NULL)
		return 0;
	/* From here on: not the puts that filled the pool (-1: no turbomem). */
	bench_turbomem_stats(g->r.mp, NULL);
	fig[BENCH_FIG_MOBJ_S] = grid_measure(&g->r, g->nworkers, g->nonEAL,
			bench_opts.seconds, &fig[BENCH_FIG_CYCLES], &e);
	g->errs[hv] += e;
	if (g->nworkers > 1) {
		uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
		double sp;

		for (i = 0; i < g->nworkers; i++) {
			lo = RTE_MIN(lo, g->r.w[i].objs);
			hi = RTE_MAX(hi, g->r.w[i].objs);
			sum += g->r.w[i].objs;
		}
		sp = lo == 0 ? INFINITY : (double)hi / lo;
		g->spread[hv] = RTE_MAX(g->spread[hv], sp);
		if (sum > 0)
			g->share[hv] = RTE_MIN(g->share[hv], (double)lo / sum);
	}
	calls = bench_turbomem_calls(g->r.mp);
	if (calls >= 0 && g->calls[hv] >= 0) {
		g->calls[hv] += calls;
		for (i = 0; i < g->nworkers; i++)
			g->objs[hv] += g->r.w[i].objs;
	} else {
		g->calls[hv] = -1;
	}
	rte_mempool_free(g->r.mp);
	return 0;
}

static void
grid_set_finish(struct bench_set *set, unsigned int h, unsigned int v,
		struct bench_row *row)
{
	struct grid_set *g = set->ctx;
	unsigned int hv = h * RTE_MAX(set->nb_variants, 1u) + v;
	unsigned int e = g->errs[hv];
	size_t off;

	if (e > 0)
		snprintf(row->status, sizeof(row->status),
			"ok; %u gets found the pool empty", e);
	/*
	 * A mempool cache that serves nearly everything: the row measures
	 * the cache, not the handler (fewer than 1 driver call in 1000
	 * objects, read from turbomem's own counters).
	 */
	if (g->calls[hv] >= 0 && g->objs[hv] > 0 &&
			(uint64_t)g->calls[hv] * 1000 < g->objs[hv]) {
		off = strlen(row->status);
		snprintf(row->status + off, sizeof(row->status) - off,
			"; %" PRId64 " driver calls in %" PRIu64 " objects",
			g->calls[hv], g->objs[hv]);
	}
	/* Fairness: one worker served far less than another in some round. */
	if (g->spread[hv] > GRID_SPREAD_NOTE) {
		off = strlen(row->status);
		if (isinf(g->spread[hv]))
			snprintf(row->status + off, sizeof(row->status) - off,
				"; a worker got no object in a round");
		else
			snprintf(row->status + off, sizeof(row->status) - off,
				"; a worker got %.1fx the objects of another in a round",
				g->spread[hv]);
	}
	/*
	 * Fairness: the slowest worker's share, against 1 / workers; last,
	 * so that a full status cuts it and not the spread above.
	 */
	if (g->nworkers > 1 && g->share[hv] <= 1.0) {
		off = strlen(row->status);
		snprintf(row->status + off, sizeof(row->status) - off,
			"; slowest worker %.1f%% of the objects", 100 * g->share[hv]);
	}
}

static int
bench_grid(const struct bench_scenario *sc)
{
	const struct bench_opts *o = &bench_opts;
	bool nonEAL = o->nonEAL > 0;
	unsigned int nworkers = nonEAL ? o->nonEAL : rte_lcore_count() - 1;
	unsigned int cpus = nonEAL ? (unsigned int)sysconf(_SC_NPROCESSORS_ONLN) :
		bench_worker_cpus();
	unsigned int b, k, c, i, set_nb = 0, nsets;
	static struct bench_set set;
	static struct grid_set g;
	int ret = TEST_SUCCESS;

	if (nworkers == 0) {
		printf("grid needs at least one worker lcore (or --nonEAL N)\n");
		return TEST_FAILED;
	}
	memset(&g, 0, sizeof(g));
	g.r.w = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*g.r.w) * nworkers);
	if (g.r.w == NULL)
		return TEST_FAILED;
	grid_seq(g.r.w, nworkers);
	g.nworkers = nworkers;
	g.nonEAL = nonEAL;
	/*
	 * mempool_perf_autotest's size, counting every thread as an lcore:
	 * the least that never runs dry, so the least --pool-objs takes.
	 */
	g.size = (rte_lcore_count() + (nonEAL ? nworkers : 0)) *
		(BENCH_MAX_KEEP + RTE_MEMPOOL_CACHE_MAX_SIZE) - 1;
	g.nb_sizes = RTE_MAX(o->nb_pool_objs, 1u);
	if (g.nb_sizes > BENCH_MAX_VARIANTS) {
		printf("--pool-objs: %u sizes, at most %d\n", g.nb_sizes,
			BENCH_MAX_VARIANTS);
		free(g.r.w);
		return TEST_FAILED;
	}
	for (i = 0; i < o->nb_pool_objs; i++)
		if (o->pool_objs[i] < g.size ||
				o->pool_objs[i] > BENCH_MAX_POOL_OBJS) {
			printf("--pool-objs %u: must be in %u..%u for this layout\n",
				o->pool_objs[i], g.size, BENCH_MAX_POOL_OBJS);
			free(g.r.w);
			return TEST_FAILED;
		}
	for (i = 0; i < g.nb_sizes; i++)
		g.sizes[i] = o->nb_pool_objs > 0 ? o->pool_objs[i] : g.size;
	nsets = o->nb_bulks * o->nb_keeps * (nonEAL ? 1 : o->nb_caches);
	grid_warm_up(&g.r, nworkers, nonEAL, g.size);

	for (b = 0; b < o->nb_bulks; b++)
	for (k = 0; k < o->nb_keeps; k++)
	for (c = 0; c < (nonEAL ? 1 : o->nb_caches); c++) {
		unsigned int bulk = o->bulks[b], keep = o->keeps[k];
		unsigned int cache = nonEAL ? 0 : o->caches[c];
		struct bench_row *p;
		char bulk_s[16];

		set_nb++;
		bench_progress("grid %u/%u: %s, bulk %s keep %u cache %u",
			set_nb, nsets, o->layout,
			bulk == BENCH_BULK_RANDOM ? "random" :
			(snprintf(bulk_s, sizeof(bulk_s), "%u", bulk), bulk_s),
			keep, cache);
		if (bulk != BENCH_BULK_RANDOM && keep % bulk != 0) {
			printf("grid: keep %u not a multiple of bulk %u: set skipped\n",
				keep, bulk);
			continue;
		}
		p = bench_set_init(&set, sc);
		snprintf(p->threads, sizeof(p->threads), "%s",
			nonEAL ? "nonEAL" : "eal");
		snprintf(p->backing, sizeof(p->backing), "-");
		p->workers = nworkers;
		p->cpus = cpus;
		p->bulk = bulk;
		p->keep = keep;
		p->cache = nonEAL ? -1 : (int)cache;
		p->pool_size = g.sizes[0];
		for (i = 1; i < g.nb_sizes; i++) {
			set.proto[i] = *p;
			set.proto[i].pool_size = g.sizes[i];
		}
		set.nb_variants = g.nb_sizes;
		set.elt_size = GRID_ELT_SIZE;
		set.nonEAL = nonEAL;
		set.measure = grid_set_measure;
		set.finish = grid_set_finish;
		set.ctx = &g;
		g.r.bulk = bulk;
		g.r.keep = keep;
		g.r.use_cache = cache > 0;
		g.cache = cache;
		memset(g.errs, 0, sizeof(g.errs));
		memset(g.calls, 0, sizeof(g.calls));
		memset(g.objs, 0, sizeof(g.objs));
		memset(g.spread, 0, sizeof(g.spread));
		for (i = 0; i < RTE_DIM(g.share); i++)
			g.share[i] = 2.0; /* none measured */
		if (bench_run_set(&set) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	free(g.r.w);
	return ret;
}

static struct bench_scenario grid_scenario = {
	.name = "grid",
	.run = bench_grid,
	.figure = BENCH_FIG_MOBJ_S,
	.unit = "Mobj/s",
	.higher_is_better = true,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, keep {keep}, cache {cache}",
	.charts = "lcores,oversub",
};
BENCH_SCENARIO(grid_scenario);

/*
 * chunks: the grid loop on 1 worker (bulks and keeps of the options, cache
 * 0) over three pools of the same objects: one populated from a single
 * chunk, one from --chunks separate chunks (1000 by default) (a few objects each, 4 KB
 * apart, populated in shuffled address order), the shape of a pool that
 * IOVA as PA (one chunk per hugepage) or populate_virt/populate_iova of
 * scattered memory builds, and "broken up": one chunk, emptied and put
 * back in bulks of 2 before the loop, which a driver that groups objects
 * may hold as small groups and groups of one. Figures as grid; the row's
 * layout says which pool, and a summary line gives each handler's ratio
 * of the others to one chunk.
 */
#define BENCH_CHUNK_GAP 4096

/* Empty mp, then put everything back in bulks of 2; 0 or -1. */
static int
chunks_break(struct rte_mempool *mp)
{
	void **all = malloc(sizeof(void *) * mp->size);
	unsigned int i;

	if (all == NULL || rte_mempool_get_bulk(mp, all, mp->size) != 0) {
		free(all);
		return -1;
	}
	for (i = 0; i + 1 < mp->size; i += 2)
		rte_mempool_put_bulk(mp, &all[i], 2);
	if (i < mp->size)
		rte_mempool_put(mp, all[i]);
	free(all);
	return 0;
}

static struct rte_mempool *
chunks_pool(const char *ops, unsigned int size, unsigned int nb_chunks,
		bool broken, const struct rte_memzone **mzp)
{
	struct rte_mempool *mp;
	const struct rte_memzone *mz;
	unsigned int per, i, k, *order = NULL;
	size_t elt, piece, len;
	uint64_t st = bench_opts.seed + 7;
	int r;

	*mzp = NULL;
	mp = rte_mempool_create_empty("tm_bench_chunks", size, GRID_ELT_SIZE,
			0, 0, SOCKET_ID_ANY, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, ops, NULL) != 0)
		goto fail;
	elt = mp->header_size + mp->elt_size + mp->trailer_size;
	per = (size + nb_chunks - 1) / nb_chunks;
	piece = per * elt + (nb_chunks > 1 ? BENCH_CHUNK_GAP : 0);
	len = piece * nb_chunks;
	mz = rte_memzone_reserve_aligned("tm_bench_chunks", len,
			SOCKET_ID_ANY, 0, 4096);
	if (mz == NULL)
		goto fail;
	*mzp = mz;
	order = malloc(sizeof(*order) * nb_chunks);
	if (order == NULL)
		goto fail;
	for (i = 0; i < nb_chunks; i++)
		order[i] = i;
	for (i = nb_chunks - 1; i > 0; i--) {
		k = bench_rand(&st) % (i + 1);
		RTE_SWAP(order[i], order[k]);
	}
	for (i = 0; i < nb_chunks && mp->populated_size < size; i++) {
		r = rte_mempool_populate_iova(mp,
				(char *)mz->addr + (size_t)order[i] * piece,
				RTE_BAD_IOVA, per * elt, NULL, NULL);
		if (r <= 0)
			goto fail;
	}
	free(order);
	if (mp->populated_size != size)
		goto fail_pool;
	if (broken && chunks_break(mp) < 0)
		goto fail_pool;
	return mp;
fail:
	free(order);
fail_pool:
	rte_mempool_free(mp);
	rte_memzone_free(*mzp);
	*mzp = NULL;
	return NULL;
}

static int
chunks_set_measure(struct bench_set *set, unsigned int h, unsigned int v,
		struct bench_row *row __rte_unused, double fig[BENCH_NB_FIGS])
{
	const unsigned int nb_chunks[3] = { 1, bench_opts.chunks, 1 };
	struct grid_set *g = set->ctx;
	const struct rte_memzone *mz;
	unsigned int e = 0;

	g->r.mp = chunks_pool(bench_opts.handlers[h], g->size, nb_chunks[v],
			v == 2, &mz);
	if (g->r.mp == NULL)
		return 0;
	fig[BENCH_FIG_MOBJ_S] = grid_measure(&g->r, 1, false,
			bench_opts.seconds, &fig[BENCH_FIG_CYCLES], &e);
	g->errs[h * set->nb_variants + v] += e;
	rte_mempool_free(g->r.mp);
	rte_memzone_free(mz);
	return 0;
}

static const char *
chunks_skip(const char *handler)
{
	if (strcmp(handler, "bucket") == 0)
		return "bucket populates only from memory it sized (calc_mem_size: bucket headers and alignment); chunks of exactly the objects cannot fill it";
	return NULL;
}

static int
bench_chunks(const struct bench_scenario *sc)
{
	const struct bench_opts *o = &bench_opts;
	unsigned int nworkers = rte_lcore_count() - 1;
	unsigned int b, k, h, v;
	static struct bench_set set;
	static struct grid_set g;
	int ret = TEST_SUCCESS;

	if (nworkers != 1) {
		printf("chunks needs exactly one worker lcore\n");
		return TEST_FAILED;
	}
	memset(&g, 0, sizeof(g));
	g.r.w = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*g.r.w));
	if (g.r.w == NULL)
		return TEST_FAILED;
	grid_seq(g.r.w, 1);
	g.nworkers = 1;
	g.size = 2 * (BENCH_MAX_KEEP + RTE_MEMPOOL_CACHE_MAX_SIZE) - 1;
	grid_warm_up(&g.r, 1, false, g.size);

	for (b = 0; b < o->nb_bulks; b++)
	for (k = 0; k < o->nb_keeps; k++) {
		unsigned int bulk = o->bulks[b], keep = o->keeps[k];
		char bulk_s[16];

		if (bulk == BENCH_BULK_RANDOM)
			snprintf(bulk_s, sizeof(bulk_s), "random");
		else
			snprintf(bulk_s, sizeof(bulk_s), "%u", bulk);
		bench_progress("chunks: bulk %s keep %u cache 0", bulk_s, keep);
		if (bulk != BENCH_BULK_RANDOM && keep % bulk != 0)
			continue;
		bench_set_init(&set, sc);
		set.nb_variants = 3;
		for (v = 0; v < 3; v++) {
			struct bench_row *p = &set.proto[v];

			if (v > 0)
				*p = set.proto[0];
			if (v == 1)
				snprintf(p->layout, sizeof(p->layout), "%u chunks",
					o->chunks);
			else
				snprintf(p->layout, sizeof(p->layout), "%s",
					v == 0 ? "1 chunk" : "broken up");
			snprintf(p->backing, sizeof(p->backing), "-");
			p->workers = 1;
			p->cpus = bench_worker_cpus();
			p->bulk = bulk;
			p->keep = keep;
			p->cache = 0;
			p->pool_size = g.size;
		}
		set.elt_size = GRID_ELT_SIZE;
		set.measure = chunks_set_measure;
		set.skip = chunks_skip;
		set.finish = grid_set_finish;
		set.ctx = &g;
		g.r.bulk = bulk;
		g.r.keep = keep;
		g.r.use_cache = false;
		memset(g.errs, 0, sizeof(g.errs));
		if (bench_run_set(&set) != TEST_SUCCESS)
			ret = TEST_FAILED;
		for (h = 0; h < o->nb_handlers; h++) {
			const struct bench_row *rw = &set.rows[h * 3];

			if (strncmp(rw->status, "skip", 4) != 0)
				printf("chunks: %s bulk %s keep %u, time per object over 1 chunk: %u chunks %.3fx, broken up %.3fx\n",
					o->handlers[h], bulk_s, keep,
					o->chunks, rw[0].mobj_s / rw[1].mobj_s,
					rw[0].mobj_s / rw[2].mobj_s);
		}
	}
	free(g.r.w);
	return ret;
}

static struct bench_scenario chunks_scenario = {
	.name = "chunks",
	.run = bench_chunks,
	.figure = BENCH_FIG_MOBJ_S,
	.unit = "Mobj/s",
	.higher_is_better = true,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, keep {keep}, cache {cache}",
};
BENCH_SCENARIO(chunks_scenario);
