/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * contract: what users rely on, handler by handler (issue 52: where pile,
 * "not strictly bounded by its size", answers differently). No cache
 * anywhere (cache 0), so rte_mempool_avail_count() is the handler's own
 * count, unclamped, and every get and put reaches the handler.
 *
 * Per measurement (--rounds x handlers, interleaved):
 * - all-or-nothing: a thread per worker lcore, on that lcore's CPUs and
 *   registered as an lcore (bench.sh: 2 pinned, and 6 on 2 CPUs), gets
 *   bulks of 1..CT_BULK_MAX objects from a pool of CT_SIZE, holding up to
 *   CT_HOLD each, and puts back random parts of what it holds, for
 *   --seconds: demand above the pool, so gets fail often. A
 *   get returns all n or nothing: every object a get returns goes FREE ->
 *   worker in the ownership ledger (test_ledger.h), anything else is a
 *   duplicate; an entry that is no object of the pool is foreign. Puts go
 *   through rte_mempool_ops_enqueue_bulk() to see a refusal (pile: -ENOBUFS,
 *   which rte_mempool_put() drops silently); a refused put keeps its
 *   objects. Meanwhile the main lcore samples rte_mempool_avail_count()
 *   (bursts of CT_SAMPLE_BURST, then it yields its CPU): the most seen,
 *   and how many samples were above the size. A thread still in a get or
 *   put CT_ANSWER_S after the stop is cancelled (threads, not lcores, so
 *   that it can be) and counted as wedged; the checks at rest are then
 *   skipped for that pool;
 * - at rest, everything back: the count (exact: count == size), then
 *   CT_TRIALS gets of n <= the count (or puts of part of what is held),
 *   one lcore: a get that fails though the count said n were free is a
 *   spurious failure; then the census (tm_census: drained one by one,
 *   each object once and FREE): objects missing are lost, by a get that
 *   failed but took objects, or a put that dropped them;
 * - the count's cost: a pool of CT_COUNT_SIZE objects of 64 bytes, a
 *   third taken in bulks of 32, every other bulk put back; 20 blocks of
 *   10 rte_mempool_avail_count() calls timed with the TSC: the median
 *   block's cycles per call, the row's figure.
 * Row: cycles per avail_count call (median of the rounds); "extra": the
 * rest, summed (violations, failures) or extreme (counts) over the rounds.
 * Violations are results (status "ok"); "error" only where a pool could
 * not be made.
 */

/* pthread_attr_setaffinity_np */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"
#include "test_ledger.h"
#include "bench_common.h"

#define CT_SIZE 255
#define CT_ELT 64
#define CT_BULK_MAX 96		/* above pile's 32: bulk and solo elements */
#define CT_HOLD (CT_SIZE * 3 / 4)
#define CT_TRIALS 1000
#define CT_SAMPLE_BURST 64	/* count samples between two yields */
#define CT_ANSWER_S 5		/* after the stop, threads must return */
#define CT_COUNT_SIZE 262143
#define CT_COUNT_BULK 32
#define CT_COUNT_BLOCKS 20
#define CT_COUNT_CALLS 10

struct ct_worker {
	pthread_t tid;
	unsigned int idx;
	_Atomic bool done;
	uint64_t gets, gets_failed, puts, puts_failed;
	uint64_t dups, foreign, refused_end;
} __rte_cache_aligned;

/* One handler's figures over the rounds. */
struct ct_acc {
	uint64_t gets, gets_failed, puts, puts_failed;
	uint64_t dups, foreign, refused_end, lost, census_errors;
	uint64_t samples, above, spurious, trials, wedged;
	unsigned int count_max, rest_min, rest_max, rest_exact;
};

static struct {
	struct rte_mempool *mp;
	struct tm_objset set;
	_Atomic bool stop;
	struct ct_worker w[RTE_MAX_LCORE];
	struct ct_acc acc[BENCH_MAX_HANDLERS];
} ct;

static int
ct_cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

static int
ct_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static bool
ct_member(const void *obj)
{
	return obj != NULL && bsearch(&obj, ct.set.objs, ct.set.nb,
		sizeof(void *), ct_cmp_ptr) != NULL;
}

/*
 * Put tab[0..n) back, ledger me -> FREE first; refused: the objects stay
 * the worker's (ledger back to me). 0 or -1 (refused).
 */
static int
ct_put(struct ct_worker *w, uint32_t me, void **tab, unsigned int n)
{
	uint32_t found;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!tm_ledger_move(tab[i], me, TM_OWNER_FREE, &found))
			w->dups++;
	w->puts++;
	if (rte_mempool_ops_enqueue_bulk(ct.mp, tab, n) == 0)
		return 0;
	w->puts_failed++;
	/* Not in the pool: nobody may have got them meanwhile. */
	for (i = 0; i < n; i++)
		if (!tm_ledger_move(tab[i], TM_OWNER_FREE, me, &found))
			w->dups++;
	return -1;
}

static void *
ct_thread(void *arg)
{
	struct ct_worker *w = arg;
	uint64_t rng = (bench_opts.seed + w->idx * 7919) | 1;
	uint32_t me = w->idx + 1, found;	/* not TM_OWNER_FREE */
	void *tab[CT_HOLD + CT_BULK_MAX];
	unsigned int held = 0, n, i, k;

	/* A get that never returns is cancelled where it spins. */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	if (rte_thread_register() < 0) {
		atomic_store(&w->done, true);
		return NULL;
	}
	/* relaxed: a signal; the results are read after the EAL wait */
	while (!atomic_load_explicit(&ct.stop, memory_order_relaxed)) {
		uint64_t v = bench_rand(&rng);

		if (held == 0 || (held < CT_HOLD && (v & 1))) {
			n = 1 + (v >> 8) % CT_BULK_MAX;
			for (i = 0; i < n; i++)
				tab[held + i] = NULL;
			w->gets++;
			if (rte_mempool_get_bulk(ct.mp, &tab[held], n) < 0) {
				w->gets_failed++;
				continue;
			}
			/* Keep only the objects of the pool this lcore owns. */
			for (i = k = 0; i < n; i++) {
				void *o = tab[held + i];

				if (!ct_member(o))
					w->foreign++;
				else if (!tm_ledger_move(o, TM_OWNER_FREE, me,
						&found))
					w->dups++;
				else
					tab[held + k++] = o;
			}
			held += k;
		} else {
			n = 1 + (v >> 8) % held;
			if (ct_put(w, me, &tab[held - n], n) == 0)
				held -= n;
		}
	}
	/* Everything back: as one bulk, else one by one. */
	if (held > 0 && ct_put(w, me, tab, held) < 0)
		for (i = 0; i < held; i++)
			if (ct_put(w, me, &tab[i], 1) < 0)
				w->refused_end++;
	rte_thread_unregister();
	/* release: the counters before done; pairs with ct_join's acquire */
	atomic_store_explicit(&w->done, true, memory_order_release);
	return NULL;
}

/*
 * One thread per worker lcore, on its CPUs (the lcore idles meanwhile):
 * unlike an lcore, a thread stuck in the handler can be cancelled.
 */
static unsigned int
ct_start(void)
{
	unsigned int lcore, n = 0;
	pthread_attr_t attr;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		rte_cpuset_t cpus = rte_lcore_cpuset(lcore);
		struct ct_worker *w = &ct.w[n];

		memset(w, 0, sizeof(*w));
		w->idx = n;
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
		if (pthread_create(&w->tid, &attr, ct_thread, w) != 0)
			atomic_store(&w->done, true);	/* nothing to join */
		else
			n++;
		pthread_attr_destroy(&attr);
	}
	return n;
}

/* Wait CT_ANSWER_S for the threads; cancel the rest. Those cancelled. */
static unsigned int
ct_join(unsigned int n)
{
	uint64_t end = rte_rdtsc() + CT_ANSWER_S * rte_get_tsc_hz();
	unsigned int i, done, wedged = 0;

	do {
		for (i = done = 0; i < n; i++)
			done += atomic_load_explicit(&ct.w[i].done,
				memory_order_acquire);
		if (done < n)
			rte_delay_us_sleep(1000);
	} while (done < n && rte_rdtsc() < end);
	for (i = 0; i < n; i++) {
		if (!atomic_load_explicit(&ct.w[i].done, memory_order_acquire)) {
			pthread_cancel(ct.w[i].tid);
			wedged++;
		}
		pthread_join(ct.w[i].tid, NULL);
	}
	return wedged;
}

/*
 * Gets of n <= the count at rest, one lcore; spurious failures. Returns
 * the objects the pool refused to take back at the end.
 */
static unsigned int
ct_trials(struct ct_acc *a, uint64_t seed)
{
	static void *tab[CT_SIZE];
	unsigned int held = 0, avail, n, t;
	uint64_t rng = seed | 1;

	for (t = 0; t < CT_TRIALS; t++) {
		uint64_t v = bench_rand(&rng);

		avail = rte_mempool_avail_count(ct.mp);
		if (held > 0 && ((v & 1) || avail == 0)) {
			n = 1 + (v >> 8) % held;
			a->puts++;
			if (rte_mempool_ops_enqueue_bulk(ct.mp, &tab[held - n],
					n) == 0)
				held -= n;
			else
				a->puts_failed++;
		} else if (avail > 0 && held < CT_SIZE) {
			n = 1 + (v >> 8) % RTE_MIN(avail, CT_SIZE - held);
			a->trials++;
			if (rte_mempool_get_bulk(ct.mp, &tab[held], n) == 0)
				held += n;
			else
				a->spurious++;
		}
	}
	if (held > 0 && rte_mempool_ops_enqueue_bulk(ct.mp, tab, held) < 0) {
		a->puts_failed++;
		return held;
	}
	return 0;
}

/* Cycles per rte_mempool_avail_count() call, see the head; NAN if none. */
static double
ct_count_cycles(const char *handler)
{
	static void *objs[CT_COUNT_SIZE];
	double block[CT_COUNT_BLOCKS];
	struct rte_mempool *mp;
	unsigned int i, b, taken = 0;
	volatile unsigned int sink;
	uint64_t t0;

	mp = tm_test_pool("tm_bench_ctcount", CT_COUNT_SIZE, CT_ELT, 0,
			handler, SOCKET_ID_ANY, true);
	if (mp == NULL)
		return NAN;
	while (taken + CT_COUNT_BULK <= CT_COUNT_SIZE / 3 &&
			rte_mempool_get_bulk(mp, &objs[taken],
				CT_COUNT_BULK) == 0)
		taken += CT_COUNT_BULK;
	for (i = 0; i < taken; i += 2 * CT_COUNT_BULK)
		rte_mempool_put_bulk(mp, &objs[i], CT_COUNT_BULK);
	for (b = 0; b < CT_COUNT_BLOCKS; b++) {
		t0 = rte_rdtsc_precise();
		for (i = 0; i < CT_COUNT_CALLS; i++)
			sink = rte_mempool_avail_count(mp);
		block[b] = (double)(rte_rdtsc_precise() - t0) / CT_COUNT_CALLS;
	}
	RTE_SET_USED(sink);
	for (i = CT_COUNT_BULK; i < taken; i += 2 * CT_COUNT_BULK)
		rte_mempool_put_bulk(mp, &objs[i], CT_COUNT_BULK);
	rte_mempool_free(mp);
	/* The median block: a preempted block costs a time slice. */
	qsort(block, CT_COUNT_BLOCKS, sizeof(block[0]), ct_cmp_double);
	return (block[CT_COUNT_BLOCKS / 2 - 1] + block[CT_COUNT_BLOCKS / 2]) / 2;
}

static int
ct_measure(struct bench_set *set, unsigned int h, unsigned int v __rte_unused,
		struct bench_row *row, double fig[BENCH_NB_FIGS])
{
	const char *handler = bench_opts.handlers[h];
	struct ct_acc *a = &ct.acc[h];
	uint64_t t_end;
	unsigned int c, i, n, wedged, refused = 0;
	struct tm_census census;

	if (set->round == 0) {
		memset(a, 0, sizeof(*a));
		a->rest_min = UINT32_MAX;
	}
	bench_progress("contract: %s, round %u", handler, set->round + 1);
	ct.mp = tm_test_pool("tm_bench_contract", CT_SIZE, CT_ELT, 0, handler,
			SOCKET_ID_ANY, true);
	if (ct.mp == NULL || tm_objset_init(&ct.set, ct.mp) < 0) {
		snprintf(row->status, sizeof(row->status),
			"error: pool of %u objects not created", CT_SIZE);
		tm_objset_fini(&ct.set);
		rte_mempool_free(ct.mp);
		return -1;
	}
	rte_mempool_obj_iter(ct.mp, tm_ledger_init, NULL);
	/* relaxed: the EAL launch orders it */
	atomic_store_explicit(&ct.stop, false, memory_order_relaxed);
	n = ct_start();
	t_end = rte_rdtsc() + bench_opts.seconds * rte_get_tsc_hz();
	while (rte_rdtsc() < t_end) {
		for (i = 0; i < CT_SAMPLE_BURST; i++) {
			c = rte_mempool_avail_count(ct.mp);
			a->count_max = RTE_MAX(a->count_max, c);
			a->above += c > CT_SIZE;
		}
		a->samples += CT_SAMPLE_BURST;
		/* The main lcore may share its CPU with a worker. */
		sched_yield();
	}
	atomic_store_explicit(&ct.stop, true, memory_order_relaxed);
	wedged = ct_join(n);
	for (i = 0; i < n; i++) {
		struct ct_worker *w = &ct.w[i];

		a->gets += w->gets;
		a->gets_failed += w->gets_failed;
		a->puts += w->puts;
		a->puts_failed += w->puts_failed;
		a->dups += w->dups;
		a->foreign += w->foreign;
		refused += w->refused_end;
	}
	if (wedged > 0) {
		/* The pool as the cancelled threads left it: not counted. */
		printf("contract: %s: %u of %u threads still in a get or put %d s after the stop: cancelled\n",
			handler, wedged, n, CT_ANSWER_S);
		a->wedged += wedged;
		goto out;
	}
	c = rte_mempool_avail_count(ct.mp);
	a->rest_min = RTE_MIN(a->rest_min, c);
	a->rest_max = RTE_MAX(a->rest_max, c);
	a->rest_exact += c == CT_SIZE;
	refused += ct_trials(a, bench_opts.seed + set->round);
	a->refused_end += refused;
	tm_census(ct.mp, true, 0, &census);
	a->census_errors += census.errors;
	if (census.drained + refused < CT_SIZE)
		a->lost += CT_SIZE - census.drained - refused;
out:
	tm_objset_fini(&ct.set);
	rte_mempool_free(ct.mp);
	ct.mp = NULL;
	fig[BENCH_FIG_CYCLES] = ct_count_cycles(handler);
	if (isnan(fig[BENCH_FIG_CYCLES])) {
		snprintf(row->status, sizeof(row->status),
			"error: pool of %u objects not created", CT_COUNT_SIZE);
		return -1;
	}
	return 0;
}

static void
ct_finish(struct bench_set *set __rte_unused, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row)
{
	const struct ct_acc *a = &ct.acc[h];

	snprintf(row->extra, sizeof(row->extra),
		"aon_size=%u;count_rest_min=%u;count_rest_max=%u;rest_exact=%u;"
		"count_max=%u;samples=%" PRIu64 ";samples_above=%" PRIu64 ";"
		"violations=%" PRIu64 ";dups=%" PRIu64 ";foreign=%" PRIu64 ";"
		"lost=%" PRIu64 ";census_errors=%" PRIu64 ";gets=%" PRIu64 ";"
		"gets_failed=%" PRIu64 ";puts=%" PRIu64 ";puts_failed=%" PRIu64 ";"
		"refused_end=%" PRIu64 ";trials=%" PRIu64 ";spurious=%" PRIu64 ";"
		"wedged=%" PRIu64,
		CT_SIZE, a->rest_min, a->rest_max, a->rest_exact, a->count_max,
		a->samples, a->above,
		a->dups + a->foreign + a->lost + a->census_errors, a->dups,
		a->foreign, a->lost, a->census_errors, a->gets, a->gets_failed,
		a->puts, a->puts_failed, a->refused_end, a->trials,
		a->spurious, a->wedged);
	printf("contract: %s %s: %.1f cycles/avail_count; %s\n", row->layout,
		row->handler, row->cycles_per_obj, row->extra);
}

static const char *
ct_skip(const char *handler)
{
	if (strcmp(handler, "bucket") == 0)
		return "bucket keeps objects in per-lcore stacks that go when a registered thread exits (its objects lost; a run crashed)";
	return NULL;
}

static int
bench_contract(const struct bench_scenario *sc)
{
	static struct bench_set set;
	struct bench_row *p = bench_set_init(&set, sc);

	if (rte_lcore_count() < 2) {
		printf("contract needs at least one worker lcore\n");
		return TEST_FAILED;
	}
	p->workers = rte_lcore_count() - 1;
	p->cpus = bench_worker_cpus();
	p->bulk = BENCH_BULK_RANDOM;
	p->cache = 0;
	p->pool_size = CT_COUNT_SIZE;
	snprintf(p->backing, sizeof(p->backing), "-");
	set.elt_size = CT_ELT;
	set.measure = ct_measure;
	set.finish = ct_finish;
	set.skip = ct_skip;
	return bench_run_set(&set);
}

static struct bench_scenario contract_scenario = {
	.name = "contract",
	.run = bench_contract,
	.figure = BENCH_FIG_CYCLES,
	.unit = "avail_count cycles/call",
	.higher_is_better = false,
	.stat = BENCH_MEDIAN,
	.params = "cache {cache}, {pool_size} objects",
};
BENCH_SCENARIO(contract_scenario);
