/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * frag: does creating and freeing pools fragment EAL's malloc heap, and
 * does rte_malloc slow down after it (the ByteDance article, seed 001)?
 * Runs on the main lcore.
 *
 * FRAG_CYCLES cycles: create a pool of a size and element size drawn from
 * a seeded sequence (the same for every handler), populate it, and free
 * the oldest of FRAG_LIVE live pools, so lifetimes overlap as in an
 * application that reconfigures ports. Then free the rest. The heap of the
 * main lcore's socket is read with rte_malloc_get_socket_stats() before,
 * at the peak (most free elements seen after a cycle) and after; rte_malloc
 * latency is timed before and after with FRAG_ALLOCS allocations of 4 KB
 * aligned to 4 KB held at once, the article's pattern (median of the calls
 * of 3 passes). Figures in the row's "extra" column; cycles per object =
 * the rte_malloc cycles after.
 *
 * The heap a handler leaves behind is the next one's starting point:
 * compare handlers run in separate processes (scripts/bench.sh evidence
 * does).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "test.h"
#include "bench_common.h"

#define FRAG_CYCLES 1000
#define FRAG_LIVE 4
#define FRAG_ALLOCS 1000

static const unsigned int frag_sizes[] = { 255, 1023, 4095, 16383 };
static const unsigned int frag_elts[] = { 64, 256, 1024, 2176 };

#define FRAG_PASSES 3

/*
 * One pass: FRAG_ALLOCS rte_malloc(4 KB, align 4 KB) held at once, each
 * call's TSC cycles into lat[]. 0, or -1 if an allocation failed.
 */
static int
frag_malloc_pass(int socket, double *lat)
{
	static void *p[FRAG_ALLOCS];
	uint64_t t0;
	unsigned int i, n = 0;

	for (i = 0; i < FRAG_ALLOCS; i++) {
		t0 = rte_rdtsc_precise();
		p[i] = rte_malloc_socket("tm_bench_frag", 4096, 4096, socket);
		if (lat != NULL)
			lat[i] = (double)(rte_rdtsc_precise() - t0);
		if (p[i] == NULL)
			break;
		n++;
	}
	for (i = 0; i < n; i++)
		rte_free(p[i]);
	return n == FRAG_ALLOCS ? 0 : -1;
}

static int
frag_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median cycles of one rte_malloc over FRAG_PASSES passes, after an untimed
 * one that faults the heap's pages in. The median, not the mean: on a
 * shared machine a preempted call costs a time slice.
 */
static double
frag_malloc_cycles(int socket)
{
	static double lat[FRAG_PASSES * FRAG_ALLOCS];
	unsigned int i;

	if (frag_malloc_pass(socket, NULL) < 0)
		return NAN;
	for (i = 0; i < FRAG_PASSES; i++)
		if (frag_malloc_pass(socket, &lat[i * FRAG_ALLOCS]) < 0)
			return NAN;
	qsort(lat, RTE_DIM(lat), sizeof(lat[0]), frag_cmp);
	return (lat[RTE_DIM(lat) / 2 - 1] + lat[RTE_DIM(lat) / 2]) / 2;
}

static void
frag_stats(int socket, struct rte_malloc_socket_stats *st)
{
	memset(st, 0, sizeof(*st));
	rte_malloc_get_socket_stats(socket, st);
}

/* One handler's cycles. 0, or -1 with the reason in r->status. */
static int
frag_measure(const char *handler, struct bench_row *r)
{
	struct rte_mempool *live[FRAG_LIVE] = { NULL };
	struct rte_malloc_socket_stats before, after, st;
	int socket = (int)rte_socket_id();
	uint64_t seed = bench_opts.seed, t0, tcyc = 0;
	unsigned int i, peak_free = 0, created = 0;
	double lat_before, lat_after;
	size_t peak_largest = SIZE_MAX;
	char name[RTE_MEMPOOL_NAMESIZE];
	int ret = -1;

	lat_before = frag_malloc_cycles(socket);
	frag_stats(socket, &before);
	for (i = 0; i < FRAG_CYCLES; i++) {
		unsigned int slot = i % FRAG_LIVE;
		uint64_t v = bench_rand(&seed);
		unsigned int n = frag_sizes[v % RTE_DIM(frag_sizes)];
		unsigned int elt = frag_elts[(v >> 8) % RTE_DIM(frag_elts)];

		t0 = rte_rdtsc();
		rte_mempool_free(live[slot]);
		live[slot] = NULL;
		snprintf(name, sizeof(name), "tm_frag_%u", i);
		live[slot] = tm_test_pool(name, n, elt, 0, handler,
				socket, true);
		tcyc += rte_rdtsc() - t0;
		if (live[slot] == NULL) {
			snprintf(r->status, sizeof(r->status),
				"error: pool %u (%u x %u B) not created", i,
				n, elt);
			goto out;
		}
		created++;
		frag_stats(socket, &st);
		if (st.free_count > peak_free)
			peak_free = st.free_count;
		if (st.greatest_free_size < peak_largest)
			peak_largest = st.greatest_free_size;
	}
	ret = 0;
out:
	for (i = 0; i < FRAG_LIVE; i++)
		rte_mempool_free(live[i]);
	frag_stats(socket, &after);
	lat_after = frag_malloc_cycles(socket);
	r->cycles_per_obj = lat_after;
	r->pool_size = created;
	snprintf(r->extra, sizeof(r->extra),
		"cycles=%u;socket=%d;heap_bytes=%zu;"
		"free_elems_before=%u;free_elems_peak=%u;free_elems_after=%u;"
		"largest_free_before=%zu;largest_free_min=%zu;"
		"largest_free_after=%zu;free_bytes_before=%zu;"
		"free_bytes_after=%zu;malloc_cycles_before=%.1f;"
		"malloc_cycles_after=%.1f;create_free_cycles=%.0f",
		created, socket, after.heap_totalsz_bytes,
		before.free_count, peak_free, after.free_count,
		before.greatest_free_size,
		peak_largest == SIZE_MAX ? 0 : peak_largest,
		after.greatest_free_size, before.heap_freesz_bytes,
		after.heap_freesz_bytes, lat_before, lat_after,
		created ? (double)tcyc / created : NAN);
	if (ret == 0 && isnan(lat_after)) {
		snprintf(r->status, sizeof(r->status),
			"error: rte_malloc of 4 KB failed after the cycles");
		ret = -1;
	}
	return ret;
}

static int
frag_set_measure(struct bench_set *set __rte_unused, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row,
		double fig[BENCH_NB_FIGS])
{
	int ret;

	bench_progress("frag: %s, %u create/free cycles, %u live",
		bench_opts.handlers[h], FRAG_CYCLES, FRAG_LIVE);
	ret = frag_measure(bench_opts.handlers[h], row);
	fig[BENCH_FIG_CYCLES] = row->cycles_per_obj;
	return ret;
}

static int
bench_frag(const struct bench_scenario *sc)
{
	static struct bench_set set;
	struct bench_row *p = bench_set_init(&set, sc);

	p->keep = FRAG_LIVE;
	p->cache = 0;
	snprintf(p->backing, sizeof(p->backing), "-");
	set.elt_size = 2176;
	set.measure = frag_set_measure;
	return bench_run_set(&set);
}

static struct bench_scenario frag_scenario = {
	.name = "frag",
	.run = bench_frag,
	.figure = BENCH_FIG_CYCLES,
	.unit = "cycles/obj",
	.higher_is_better = false,
	.stat = BENCH_ONCE,
	.params = "bulk {bulk}, cache {cache}",
};
BENCH_SCENARIO(frag_scenario);
