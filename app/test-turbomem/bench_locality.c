/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * locality and hw: after a shuffled refill, which pages does a handler
 * hand out, and what does touching them cost? Runs on the main lcore.
 *
 * locality  pool of 65535 2048-byte objects drained and refilled in
 *           shuffled order (a drop storm), then steady state: allocate a
 *           bulk of 32, write the first cache line of each, queue them in a
 *           FIFO of N objects in flight, free the oldest 32.
 *             in flight {512} (--inflight, multiples of 32 up to 992;
 *             bench.sh: 32 and 512), cache {0, default}
 *           Figures: cycles per object; distinct 4 KB and 2 MB pages among
 *           the addresses of every 1000 consecutive allocations (mean).
 * hw        the locality workload (cache 0) under perf_event_open counters:
 *           dTLB load misses and CPU cycles per object; "n/a" when the
 *           machine has no PMU (--pmu off simulates that).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"
#include "bench_common.h"

#define LOC_N 65535
#define LOC_ELT_SIZE 2048
#define LOC_BURST BENCH_LOC_BURST
#define LOC_FIFO 1024 /* power of 2 >= BENCH_LOC_MAX_INFLIGHT + LOC_BURST */
#define LOC_WINDOW 1000u
#define LOC_WINDOWS 64u

struct loc_state {
	struct rte_mempool *mp;
	void *fifo[LOC_FIFO];
	unsigned int head, tail; /* FIFO: oldest at tail */
	uint64_t seq;
};

/* Allocate a burst, touch each object's first cache line, queue it. */
static __rte_always_inline int
loc_alloc(struct loc_state *s, uintptr_t *rec)
{
	void *b[LOC_BURST];
	unsigned int i;

	if (rte_mempool_get_bulk(s->mp, b, LOC_BURST) < 0)
		return -1;
	for (i = 0; i < LOC_BURST; i++) {
		uint64_t *obj = b[i];

		obj[0] = s->seq++;
		obj[7] = s->seq;
		if (rec != NULL)
			rec[i] = (uintptr_t)obj;
		s->fifo[s->head++ & (LOC_FIFO - 1)] = obj;
	}
	return 0;
}

static __rte_always_inline void
loc_free(struct loc_state *s)
{
	void *b[LOC_BURST];
	unsigned int i;

	for (i = 0; i < LOC_BURST; i++)
		b[i] = s->fifo[s->tail++ & (LOC_FIFO - 1)];
	rte_mempool_put_bulk(s->mp, b, LOC_BURST);
}

static int
cmp_uptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* Mean number of distinct pages (addr >> shift) per window. */
static double
distinct_pages(const uintptr_t *addr, unsigned int windows,
		unsigned int shift)
{
	uintptr_t p[LOC_WINDOW];
	unsigned int w, i, d, sum = 0;

	for (w = 0; w < windows; w++) {
		for (i = 0; i < LOC_WINDOW; i++)
			p[i] = addr[w * LOC_WINDOW + i] >> shift;
		qsort(p, LOC_WINDOW, sizeof(p[0]), cmp_uptr);
		for (i = 1, d = 1; i < LOC_WINDOW; i++)
			d += p[i] != p[i - 1];
		sum += d;
	}
	return (double)sum / windows;
}

int
bench_shuffled_refill(struct rte_mempool *mp, unsigned int n)
{
	void **all = malloc(sizeof(void *) * n);
	unsigned int i, k;

	if (all == NULL)
		return -1;
	for (i = 0; i < n; i += k) {
		k = RTE_MIN(LOC_BURST, n - i);
		if (rte_mempool_get_bulk(mp, &all[i], k) < 0) {
			printf("%s: drain stopped at %u of %u objects\n",
				mp->name, i, n);
			rte_mempool_put_bulk(mp, all, i);
			free(all);
			return -1;
		}
	}
	bench_shuffle(all, n, bench_opts.seed);
	/* One at a time, as packet drops return them. */
	for (i = 0; i < n; i++)
		rte_mempool_put(mp, all[i]);
	free(all);
	return 0;
}

/* One measurement. Sets the figures of r; -1 if the pool failed. */
static int
loc_measure(const char *handler, unsigned int cache, unsigned int inflight,
		struct bench_hw *hw, struct bench_row *r, double *cyc,
		double *dtlb)
{
	static struct loc_state s;
	uintptr_t *rec;
	uint64_t start, cycles, objs = 0;
	double hw_dtlb, hw_cycles;
	unsigned int i;
	int ret = -1;

	memset(&s, 0, sizeof(s));
	*cyc = *dtlb = NAN;
	rec = malloc(sizeof(*rec) * LOC_WINDOW * LOC_WINDOWS);
	s.mp = tm_test_pool("tm_bench_loc", LOC_N, LOC_ELT_SIZE, cache,
			handler, SOCKET_ID_ANY, true);
	if (s.mp == NULL || rec == NULL)
		goto out;
	if (isnan(r->huge_pct))
		bench_pool_backing(s.mp, r);
	if (bench_shuffled_refill(s.mp, LOC_N) < 0)
		goto out;
	while (s.head - s.tail < inflight)
		if (loc_alloc(&s, NULL) < 0)
			goto fail;
	/* Record the addresses handed out in steady state. */
	for (i = 0; i < LOC_WINDOW * LOC_WINDOWS; i += LOC_BURST) {
		uintptr_t tmp[LOC_BURST];

		loc_free(&s);
		if (loc_alloc(&s, tmp) < 0)
			goto fail;
		memcpy(&rec[i], tmp, sizeof(uintptr_t) *
			RTE_MIN(LOC_BURST, LOC_WINDOW * LOC_WINDOWS - i));
	}
	r->pages_4k = distinct_pages(rec, LOC_WINDOWS, 12);
	r->pages_2m = distinct_pages(rec, LOC_WINDOWS, 21);

	if (hw != NULL)
		bench_hw_start(hw);
	start = rte_rdtsc();
	do {
		for (i = 0; i < 64; i++) {
			loc_free(&s);
			if (loc_alloc(&s, NULL) < 0)
				goto fail;
		}
		objs += 64 * LOC_BURST;
		cycles = rte_rdtsc() - start;
	} while (cycles < bench_opts.seconds * rte_get_tsc_hz());
	if (hw != NULL) {
		bench_hw_stop(hw, &hw_dtlb, &hw_cycles);
		*dtlb = hw_dtlb / objs;
		r->hw_cycles_per_obj = hw_cycles / objs;
	}
	*cyc = (double)cycles / objs;
	ret = 0;
fail:
	if (ret < 0)
		printf("locality: %s: a get failed with %u objects in flight\n",
			handler, s.head - s.tail);
	while (s.head != s.tail)
		loc_free(&s);
out:
	rte_mempool_free(s.mp);
	free(rec);
	return ret;
}

struct loc_set {
	unsigned int cache, inflight;
	struct bench_hw *hw;   /* NULL: no counters */
};

static int
loc_set_measure(struct bench_set *set, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row,
		double fig[BENCH_NB_FIGS])
{
	struct loc_set *ls = set->ctx;

	loc_measure(bench_opts.handlers[h], ls->cache, ls->inflight, ls->hw,
		row, &fig[BENCH_FIG_CYCLES], &fig[BENCH_FIG_DTLB]);
	return 0;
}

static int
loc_scenario(const struct bench_scenario *sc, bool with_hw)
{
	const struct bench_opts *o = &bench_opts;
	unsigned int c, f, ncaches = with_hw ? 1 : o->nb_caches;
	static struct bench_set set;
	struct loc_set ls;
	struct bench_hw hw;
	bool hw_ok = false;
	int ret = TEST_SUCCESS;

	if (with_hw)
		hw_ok = bench_hw_open(&hw) == 0;
	for (f = 0; f < o->nb_inflights; f++)
	for (c = 0; c < ncaches; c++) {
		struct bench_row *p;

		ls.inflight = o->inflights[f];
		ls.cache = with_hw ? 0 : o->caches[c];
		ls.hw = hw_ok ? &hw : NULL;
		bench_progress("%s: cache %u, %u objects, %u in flight%s%s",
			sc->name, ls.cache, LOC_N, ls.inflight,
			with_hw ? ", counters " : "",
			with_hw ? (hw_ok ? "on" : hw.why) : "");
		p = bench_set_init(&set, sc);
		p->bulk = LOC_BURST;
		p->keep = ls.inflight;
		p->cache = ls.cache;
		p->pool_size = LOC_N;
		/* No counters: the row says why (its figure is n/a). */
		if (with_hw && !hw_ok)
			snprintf(p->status, sizeof(p->status), "%s", hw.why);
		set.elt_size = LOC_ELT_SIZE;
		set.measure = loc_set_measure;
		set.ctx = &ls;
		if (bench_run_set(&set) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	if (hw_ok)
		bench_hw_close(&hw);
	return ret;
}

static int
bench_locality(const struct bench_scenario *sc)
{
	return loc_scenario(sc, false);
}

static int
bench_hw(const struct bench_scenario *sc)
{
	return loc_scenario(sc, true);
}

static struct bench_scenario locality_scenario = {
	.name = "locality",
	.run = bench_locality,
	.figure = BENCH_FIG_CYCLES,
	.unit = "cycles/obj",
	.higher_is_better = false,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, {keep} in flight, cache {cache}",
	.charts = "pages",
};
BENCH_SCENARIO(locality_scenario);

static struct bench_scenario hw_scenario = {
	.name = "hw",
	.run = bench_hw,
	.figure = BENCH_FIG_DTLB,
	.unit = "dTLB miss/obj",
	.higher_is_better = false,
	.stat = BENCH_MEDIAN,
	.params = "bulk {bulk}, {keep} in flight, cache {cache}",
};
BENCH_SCENARIO(hw_scenario);
