/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench --scenario cache: how often a shaper-like workload gets
 * past the per-lcore mempool cache to the driver, and its throughput.
 *
 * DPDK 26.07 (commit f5e1310f16) changed the cache: it flushes and refills
 * by half its size, and its capacity is cache_size (22.11: 1.5 x
 * cache_size, the "flush threshold"). The patch reports the miss rate of a
 * WAN optimizer with shaper queues falling from about 1/20 to about 1/48
 * objects at an effective cache of 384 objects.
 *
 * Workload (one lcore, the default per-lcore cache, deterministic for a
 * seed): every poll receives a burst of 0..burst objects (uniform;
 * rte_mempool_get_bulk) into a FIFO shaper queue of at most "hold"
 * objects (excess objects are tail-dropped: put back at once), and
 * transmits min(queue length, rate) objects from its head
 * (rte_mempool_put_bulk), where the shaper rate is redrawn uniform in
 * 0..burst every 256 polls. The queue thus swings between empty and full
 * as the rate drifts below and above the mean arrival of burst / 2. The
 * first cache line of every object got is written, as a received packet.
 *
 * Figures per handler and cache size:
 * - driver calls: a counted run of a fixed number of polls on a pool
 *   whose ops are "tm_count", a counting wrapper registered by this
 *   scenario on first use (it takes one ops table slot, after EAL loaded
 *   every plugin) that forwards to the named handler's functions from
 *   rte_mempool_ops_table. Get calls per object the application got, put
 *   calls per object it freed, and objects moved by the driver per object
 *   got. The cache logic does not depend on the handler: every handler
 *   must give the same counts, and the scenario checks that.
 * - turbomem's own counters (rte_pmd_turbomem_stats_get) over the same
 *   counted run on a plain turbomem pool: they must equal the wrapper's.
 * - throughput: objects got per second on a plain pool of the handler (no
 *   wrapper), --rounds rounds of --seconds interleaved between handlers,
 *   median; the first handler is the baseline of the ratios.
 *
 * Options: --handlers (default ring_mp_mc,turbomem), --caches (default
 * 256,384: 256 is an effective 384 on 22.11, 384 is 384 on 26.07), --bulk
 * (burst, default 32), --inflight (queue limits; default 512 and 4096,
 * the option takes multiples of 32 up to 992), --seed, --seconds,
 * --rounds. --keep is not used.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"

#include "bench_common.h"
#include "test.h"

#define CACHE_OPS "tm_count"
#define CACHE_ELT 2048
#define CACHE_PHASE 256
#define CACHE_POLLS (1u << 20)
#define CACHE_HOLD_MAX 65536u
#define CACHE_BURST_MAX 256u

/* --- the counting wrapper ---------------------------------------------- */

/* Driver calls seen by the wrapper; one lcore runs the workload. */
struct cache_counts {
	uint64_t get_calls, get_objs, get_fails;
	uint64_t put_calls, put_objs;
};

static struct cache_counts cnt;
static const struct rte_mempool_ops *cnt_target;

static int
cnt_alloc(struct rte_mempool *mp)
{
	return cnt_target->alloc(mp);
}

static void
cnt_free(struct rte_mempool *mp)
{
	cnt_target->free(mp);
}

static int
cnt_enqueue(struct rte_mempool *mp, void * const *obj_table, unsigned int n)
{
	cnt.put_calls++;
	cnt.put_objs += n;
	return cnt_target->enqueue(mp, obj_table, n);
}

static int
cnt_dequeue(struct rte_mempool *mp, void **obj_table, unsigned int n)
{
	int ret = cnt_target->dequeue(mp, obj_table, n);

	if (ret == 0) {
		cnt.get_calls++;
		cnt.get_objs += n;
	} else {
		cnt.get_fails++;
	}
	return ret;
}

static unsigned int
cnt_get_count(const struct rte_mempool *mp)
{
	return cnt_target->get_count(mp);
}

static ssize_t
cnt_calc_mem_size(const struct rte_mempool *mp, uint32_t obj_num,
		uint32_t pg_shift, size_t *min_chunk_size, size_t *align)
{
	if (cnt_target->calc_mem_size == NULL)
		return rte_mempool_op_calc_mem_size_default(mp, obj_num,
				pg_shift, min_chunk_size, align);
	return cnt_target->calc_mem_size(mp, obj_num, pg_shift,
			min_chunk_size, align);
}

static int
cnt_populate(struct rte_mempool *mp, unsigned int max_objs, void *vaddr,
		rte_iova_t iova, size_t len, rte_mempool_populate_obj_cb_t *cb,
		void *cb_arg)
{
	if (cnt_target->populate == NULL)
		return rte_mempool_op_populate_default(mp, max_objs, vaddr,
				iova, len, cb, cb_arg);
	return cnt_target->populate(mp, max_objs, vaddr, iova, len, cb,
			cb_arg);
}

static const struct rte_mempool_ops cnt_ops = {
	.name = CACHE_OPS,
	.alloc = cnt_alloc,
	.free = cnt_free,
	.enqueue = cnt_enqueue,
	.dequeue = cnt_dequeue,
	.get_count = cnt_get_count,
	.calc_mem_size = cnt_calc_mem_size,
	.populate = cnt_populate,
};

static int
ops_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The wrapper's slot, registered on first use; -errno if the table is full. */
static int
cnt_register(void)
{
	int idx = ops_index(CACHE_OPS);

	if (idx >= 0)
		return idx;
	idx = rte_mempool_register_ops(&cnt_ops);
	if (idx < 0)
		printf("cache: cannot register the counting ops \"%s\": %s (%u of %d ops table slots used)\n",
			CACHE_OPS, strerror(-idx),
			rte_mempool_ops_table.num_ops, RTE_MEMPOOL_MAX_OPS_IDX);
	return idx;
}

/* --- turbomem's own counters --------------------------------------------- */

static int
turbomem_counts(struct rte_mempool *mp, bool reset, struct cache_counts *c)
{
	struct rte_pmd_turbomem_stats st;

	if (reset)
		return bench_turbomem_stats(mp, NULL);
	if (bench_turbomem_stats(mp, &st) != 0)
		return -1;
	c->get_calls = st.get_calls;
	c->get_objs = st.get_objs;
	c->get_fails = st.get_fails;
	c->put_calls = st.put_calls;
	c->put_objs = st.put_objs;
	return 0;
}

/* --- the workload -------------------------------------------------------- */

struct shaper {
	void **q;              /* FIFO of held objects, hold + burst slots */
	unsigned int size, head, len;
	unsigned int hold, burst;
	uint64_t rng;
	unsigned int rate;
	uint64_t polls;
	uint64_t got, put;     /* objects the application got and freed */
};

static unsigned int
uniform(struct shaper *s, unsigned int max)
{
	return (unsigned int)(bench_rand(&s->rng) % (max + 1));
}

/* One poll; -1 if a get failed (the pool is sized so that it cannot). */
static int
shaper_poll(struct rte_mempool *mp, struct shaper *s)
{
	void *objs[CACHE_BURST_MAX];
	unsigned int rx, keep, tx, i, tail;

	if (s->polls++ % CACHE_PHASE == 0)
		s->rate = uniform(s, s->burst);
	rx = uniform(s, s->burst);
	if (rx > 0) {
		if (rte_mempool_get_bulk(mp, objs, rx) != 0)
			return -1;
		s->got += rx;
		for (i = 0; i < rx; i++)
			*(volatile uint64_t *)objs[i] = s->polls;
		keep = RTE_MIN(rx, s->hold - s->len);
		tail = (s->head + s->len) % s->size;
		for (i = 0; i < keep; i++)
			s->q[(tail + i) % s->size] = objs[i];
		s->len += keep;
		if (keep < rx) {
			/* tail drop */
			rte_mempool_put_bulk(mp, &objs[keep], rx - keep);
			s->put += rx - keep;
		}
	}
	tx = RTE_MIN(s->len, s->rate);
	if (tx > 0) {
		for (i = 0; i < tx; i++)
			objs[i] = s->q[(s->head + i) % s->size];
		s->head = (s->head + tx) % s->size;
		s->len -= tx;
		rte_mempool_put_bulk(mp, objs, tx);
		s->put += tx;
	}
	return 0;
}

static void
shaper_start(struct shaper *s, uint64_t seed)
{
	s->head = s->len = 0;
	s->rng = seed | 1;
	s->polls = 0;
	s->got = s->put = 0;
}

/* Free what the queue holds (end of a run). */
static void
shaper_drain(struct rte_mempool *mp, struct shaper *s)
{
	while (s->len > 0) {
		rte_mempool_put(mp, s->q[s->head]);
		s->head = (s->head + 1) % s->size;
		s->len--;
	}
}

/* --- pools --------------------------------------------------------------- */

static unsigned int
cache_pool_size(unsigned int hold, unsigned int burst)
{
	/* held + a full cache (1.5 x 512 on 22.11) + one burst in hand */
	return hold + RTE_MEMPOOL_CACHE_MAX_SIZE * 3 / 2 + burst;
}

static struct rte_mempool *
cache_pool(const char *handler, bool counted, unsigned int cache,
		unsigned int n)
{
	static unsigned int seq;
	struct rte_mempool *mp;
	char name[RTE_MEMPOOL_NAMESIZE];
	int ret;

	snprintf(name, sizeof(name), "tm_cache_%u", seq++);
	mp = rte_mempool_create_empty(name, n, CACHE_ELT, cache, 0,
			SOCKET_ID_ANY, 0);
	if (mp == NULL) {
		printf("cache: create_empty(%u, cache %u): %s\n", n, cache,
			rte_strerror(rte_errno));
		return NULL;
	}
	if (counted)
		cnt_target = &rte_mempool_ops_table.ops[ops_index(handler)];
	ret = rte_mempool_set_ops_byname(mp, counted ? CACHE_OPS : handler,
			NULL);
	if (ret == 0) {
		ret = rte_mempool_populate_default(mp);
		ret = ret == (int)n ? 0 : (ret < 0 ? ret : -ENOMEM);
	}
	if (ret != 0) {
		printf("cache: pool on %s%s: %s\n", counted ? "counted " : "",
			handler, strerror(-ret));
		rte_mempool_free(mp);
		return NULL;
	}
	return mp;
}

/* Capacity of the lcore's cache: 1.5 x cache_size on 22.11, cache_size on 26.07. */
static unsigned int
effective_cache(struct rte_mempool *mp)
{
	struct rte_mempool_cache *c = rte_mempool_default_cache(mp,
			rte_lcore_id());

	return c != NULL ? c->flushthresh : 0;
}

/* A counted run of CACHE_POLLS polls; -1 on failure. */
static int
counted_run(struct rte_mempool *mp, struct shaper *s, uint64_t seed)
{
	uint64_t i;

	shaper_start(s, seed);
	for (i = 0; i < CACHE_POLLS; i++)
		if (shaper_poll(mp, s) < 0)
			return -1;
	return 0;
}

/* A timed run: objects got per second and TSC cycles per object. */
static int
timed_run(struct rte_mempool *mp, struct shaper *s, uint64_t seed,
		double seconds, double *rate, double *cyc)
{
	uint64_t hz = rte_get_tsc_hz(), t0, t1, stop;

	shaper_start(s, seed);
	t0 = rte_rdtsc();
	stop = t0 + (uint64_t)(seconds * (double)hz);
	do {
		unsigned int k;

		for (k = 0; k < 64; k++)
			if (shaper_poll(mp, s) < 0)
				return -1;
		t1 = rte_rdtsc();
	} while (t1 < stop);
	shaper_drain(mp, s);
	*rate = (double)s->got * (double)hz / (double)(t1 - t0);
	*cyc = (double)(t1 - t0) / (double)s->got;
	return 0;
}

static double
per(uint64_t num, uint64_t den)
{
	return num == 0 ? NAN : (double)den / (double)num;
}

struct cache_result {
	struct cache_counts c;
	uint64_t got, put;
	unsigned int eff;
	char own[48];          /* turbomem's counters vs the wrapper's */
	double rate[BENCH_MAX_ROUNDS], cyc[BENCH_MAX_ROUNDS];
	const char *skip;
	bool failed;
};

static const char *
default_handlers[] = { "ring_mp_mc", "turbomem" };

/* The row of a handler and cache size at one queue limit. */
static void
cache_row(struct bench_row *row, const char *handler, unsigned int burst,
		unsigned int hold, unsigned int cache, unsigned int n)
{
	bench_row_init(row, "cache", handler);
	row->bulk = (int)burst;
	row->keep = (int)hold;
	row->cache = (int)cache;
	row->pool_size = n;
}

static int cache_one(const char *const *handlers, unsigned int nh,
		const unsigned int *caches, unsigned int nc, unsigned int burst,
		unsigned int hold);

static int
bench_cache(const struct bench_scenario *sc __rte_unused)
{
	const struct bench_opts *o = &bench_opts;
	static const unsigned int default_caches[] = { 256, 384 };
	const char *const *handlers = o->handlers_given ? o->handlers :
		default_handlers;
	unsigned int nh = o->handlers_given ? o->nb_handlers :
		RTE_DIM(default_handlers);
	const unsigned int *caches = o->caches_given ? o->caches :
		default_caches;
	unsigned int nc = o->caches_given ? o->nb_caches :
		RTE_DIM(default_caches);
	static const unsigned int default_holds[] = { 512, 4096 };
	const unsigned int *holds = o->inflights_given ? o->inflights :
		default_holds;
	unsigned int nq = o->inflights_given ? o->nb_inflights :
		RTE_DIM(default_holds);
	unsigned int burst = o->bulks_given ? o->bulks[0] : 32;
	unsigned int qi;
	int ret = TEST_SUCCESS;

	if (burst == 0 || burst > CACHE_BURST_MAX) {
		printf("cache: burst %u not in 1..%u\n", burst,
			CACHE_BURST_MAX);
		return TEST_FAILED;
	}
	if (rte_lcore_id() == LCORE_ID_ANY) {
		printf("cache: needs an EAL lcore (a per-lcore cache)\n");
		return TEST_FAILED;
	}
	for (qi = 0; qi < nq; qi++)
		if (cache_one(handlers, nh, caches, nc, burst, holds[qi]) !=
				TEST_SUCCESS)
			ret = TEST_FAILED;
	printf("cache: ops table %u of RTE_MEMPOOL_MAX_OPS_IDX=%d slots used, %s\n",
		rte_mempool_ops_table.num_ops, RTE_MEMPOOL_MAX_OPS_IDX,
		ops_index(CACHE_OPS) >= 0 ?
		"one by the counting ops \"" CACHE_OPS "\"" :
		"none by the counting ops (not registered)");
	return ret;
}

/* Every handler and cache size at one queue limit. */
static int
cache_one(const char *const *handlers, unsigned int nh,
		const unsigned int *caches, unsigned int nc, unsigned int burst,
		unsigned int hold)
{
	const struct bench_opts *o = &bench_opts;
	struct cache_result res[BENCH_MAX_HANDLERS];
	struct shaper s;
	unsigned int ci, h, r, n;
	int ret = TEST_SUCCESS;

	if (hold == 0 || hold > CACHE_HOLD_MAX) {
		printf("cache: queue %u not in 1..%u\n", hold, CACHE_HOLD_MAX);
		return TEST_FAILED;
	}
	memset(&s, 0, sizeof(s));
	s.hold = hold;
	s.burst = burst;
	s.size = hold + burst;
	s.q = calloc(s.size, sizeof(void *));
	if (s.q == NULL)
		return TEST_FAILED;
	n = cache_pool_size(hold, burst);
	printf("cache: shaper workload, burst 0..%u, queue <= %u, rate redrawn every %u polls, %u polls counted, pool %u x %u B\n",
		burst, hold, CACHE_PHASE, CACHE_POLLS, n, CACHE_ELT);

	for (ci = 0; ci < nc; ci++) {
		struct rte_mempool *pools[BENCH_MAX_HANDLERS] = { NULL };

		memset(res, 0, sizeof(res));
		for (h = 0; h < nh; h++) {
			struct bench_row row;

			cache_row(&row, handlers[h], burst, hold, caches[ci], n);
			bench_expect(&row);
		}
		for (h = 0; h < nh; h++) {
			struct cache_result *x = &res[h];
			struct rte_mempool *mp;

			x->skip = bench_handler_skip(handlers[h], false,
					CACHE_ELT);
			if (x->skip == NULL && cnt_register() < 0)
				x->skip = "ops table full: no slot for the counting ops";
			if (x->skip != NULL)
				continue;
			/* Counted run through the wrapper. */
			mp = cache_pool(handlers[h], true, caches[ci], n);
			if (mp == NULL) {
				x->failed = true;
				continue;
			}
			x->eff = effective_cache(mp);
			memset(&cnt, 0, sizeof(cnt));
			if (counted_run(mp, &s, o->seed) < 0)
				x->failed = true;
			x->c = cnt;
			x->got = s.got;
			x->put = s.put;
			shaper_drain(mp, &s);
			rte_mempool_free(mp);
			/* The plain pool of the timed runs. */
			pools[h] = cache_pool(handlers[h], false, caches[ci], n);
			if (pools[h] == NULL) {
				x->failed = true;
				continue;
			}
			snprintf(x->own, sizeof(x->own), "-");
			if (strcmp(handlers[h], "turbomem") == 0) {
				struct cache_counts own;

				if (turbomem_counts(pools[h], true, NULL) != 0 ||
						counted_run(pools[h], &s, o->seed) < 0 ||
						turbomem_counts(pools[h], false, &own) != 0) {
					snprintf(x->own, sizeof(x->own),
						"unavailable");
				} else {
					bool same = own.get_calls == x->c.get_calls &&
						own.put_calls == x->c.put_calls &&
						own.get_objs == x->c.get_objs &&
						own.put_objs == x->c.put_objs;

					snprintf(x->own, sizeof(x->own),
						"%s (%" PRIu64 "/%" PRIu64 ")",
						same ? "same" : "DIFFER",
						own.get_calls, own.put_calls);
					if (!same)
						x->failed = true;
				}
				shaper_drain(pools[h], &s);
			}
		}
		for (r = 0; r < o->rounds; r++)
			for (h = 0; h < nh; h++) {
				if (pools[h] == NULL)
					continue;
				if (timed_run(pools[h], &s, o->seed + r,
						o->seconds, &res[h].rate[r],
						&res[h].cyc[r]) < 0) {
					res[h].rate[r] = res[h].cyc[r] = NAN;
					res[h].failed = true;
				}
			}
		for (h = 0; h < nh; h++) {
			struct cache_result *x = &res[h], *b = &res[0];
			struct bench_row row;

			rte_mempool_free(pools[h]);
			cache_row(&row, handlers[h], burst, hold, caches[ci], n);
			if (bench_row_rates(&row, x->skip, x->rate, x->cyc,
					o->rounds) < 0 || x->failed)
				ret = TEST_FAILED;
			if (x->skip == NULL && b->skip == NULL &&
					(x->c.get_calls != b->c.get_calls ||
					 x->c.put_calls != b->c.put_calls)) {
				/* The cache, not the handler, decides. */
				x->failed = true;
				ret = TEST_FAILED;
			}
			if (x->skip == NULL)
				snprintf(row.status, sizeof(row.status),
					"%s; eff cache %u; get 1/%.1f put 1/%.1f obj; driver objs/obj %.4f",
					x->failed ? "error: counts" : "ok",
					x->eff, per(x->c.get_calls, x->got),
					per(x->c.put_calls, x->put),
					(double)x->c.get_objs / (double)x->got);
			bench_row_add(&row);
			printf("cache: %-11s queue <= %4u cache %3u (effective %3u): get calls 1/%.1f objects, put calls 1/%.1f objects, driver objects per object got %.4f, failed gets %" PRIu64 ", turbomem counters %s, %.1f Mobj/s (x%.2f of %s)%s\n",
				handlers[h], hold, caches[ci], x->eff,
				per(x->c.get_calls, x->got),
				per(x->c.put_calls, x->put),
				x->got ? (double)x->c.get_objs / (double)x->got : NAN,
				x->c.get_fails, x->own, row.mobj_s / 1e6,
				row.mobj_s / bench_median(b->rate, o->rounds),
				handlers[0],
				x->skip ? " (skipped)" : x->failed ? " FAILED" : "");
		}
	}
	free(s.q);
	return ret;
}

static struct bench_scenario cache_scenario = {
	.name = "cache",
	.run = bench_cache,
	.figure = BENCH_FIG_MOBJ_S,
	.unit = "Mobj/s",
	.higher_is_better = true,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, queue {keep}, cache {cache}",
};
BENCH_SCENARIO(cache_scenario);
