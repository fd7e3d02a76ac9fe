/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_locality: distinct 4 KB pages touched per 1000 allocations after
 * a shuffled refill, handler by handler (memory locality, not speed).
 *
 * For each handler: create a pool (no cache), take every object out, return
 * them in a seeded random order (as drops and out-of-order frees leave a
 * pool), then count the distinct 4 KB pages of the objects handed out by
 * 1000 allocations in two shapes:
 *   loop  get "keep" objects in bulks of "bulk", put them back, repeat (a
 *         run-to-completion worker: objects are reused)
 *   held  1000 gets in bulks of "bulk" without a put (a deep queue)
 * A LIFO hands the loop back the same few objects; a FIFO ring walks the
 * whole shuffled pool. In the held shape every handler returns what it was
 * given, so the figures match. Measures only; asserts nothing about ratios.
 *
 * Options (after "-- turbomem_locality"): --handlers a,b (default
 * ring_mp_mc,lf_stack,turbomem) --objects N (8192) --elt B (2048)
 * --bulk N (16) --keep N (32) --seed S (1)
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mempool.h>

#include "test.h"

#define LOC_ALLOCS 1000
#define LOC_PAGE_SHIFT 12

static uint64_t
loc_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
cmp_uptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned int
loc_distinct_pages(uintptr_t *pages, unsigned int n)
{
	unsigned int i, d = 0;

	qsort(pages, n, sizeof(*pages), cmp_uptr);
	for (i = 0; i < n; i++)
		if (i == 0 || pages[i] != pages[i - 1])
			d++;
	return d;
}

/* Drain, shuffle, refill; then count pages in both shapes. */
static int
loc_measure(struct rte_mempool *mp, unsigned int nb, unsigned int bulk,
		unsigned int keep, uint64_t seed, unsigned int *loop,
		unsigned int *held)
{
	void **all = calloc(nb, sizeof(*all));
	uintptr_t pages[LOC_ALLOCS + 512];
	unsigned int i, j, n;
	int ret = -1;

	if (all == NULL)
		return -1;
	for (i = 0; i + bulk <= nb; i += bulk)
		if (rte_mempool_get_bulk(mp, &all[i], bulk) < 0)
			goto out;
	for (; i < nb; i++)
		if (rte_mempool_get(mp, &all[i]) < 0)
			goto out;
	for (i = nb - 1; i > 0; i--) {
		void *t;

		j = loc_rng(&seed) % (i + 1);
		t = all[i];
		all[i] = all[j];
		all[j] = t;
	}
	for (i = 0; i + bulk <= nb; i += bulk)
		rte_mempool_put_bulk(mp, &all[i], bulk);
	for (; i < nb; i++)
		rte_mempool_put(mp, all[i]);

	/* loop shape: objects go back after each round of "keep" */
	for (n = 0; n < LOC_ALLOCS; ) {
		for (i = 0; i < keep; i += bulk)
			if (rte_mempool_get_bulk(mp, &all[i], bulk) < 0)
				goto out;
		for (i = 0; i < keep && n < LOC_ALLOCS; i++)
			pages[n++] = (uintptr_t)all[i] >> LOC_PAGE_SHIFT;
		for (i = 0; i < keep; i += bulk)
			rte_mempool_put_bulk(mp, &all[i], bulk);
	}
	*loop = loc_distinct_pages(pages, n);

	/* held shape: 1000 allocations outstanding */
	for (n = 0; n < LOC_ALLOCS; n += bulk)
		if (rte_mempool_get_bulk(mp, &all[n], bulk) < 0)
			goto out;
	for (i = 0; i < LOC_ALLOCS; i++)
		pages[i] = (uintptr_t)all[i] >> LOC_PAGE_SHIFT;
	*held = loc_distinct_pages(pages, LOC_ALLOCS);
	for (i = 0; i < n; i += bulk)
		rte_mempool_put_bulk(mp, &all[i], bulk);
	ret = 0;
out:
	free(all);
	return ret;
}

static int
test_locality(void)
{
	static char defaults[] = "ring_mp_mc,lf_stack,turbomem";
	unsigned int nb = 8192, elt = 2048, bulk = 16, keep = 32;
	unsigned int loop, held, ref_loop = 0, ref_held = 0;
	char *list = defaults, *tok, *save = NULL;
	uint64_t seed = 1;
	int i, first = 1;

	for (i = 0; i + 1 < tm_test_argc; i += 2) {
		const char *k = tm_test_argv[i], *v = tm_test_argv[i + 1];

		if (strcmp(k, "--handlers") == 0)
			list = tm_test_argv[i + 1];
		else if (strcmp(k, "--objects") == 0)
			nb = atoi(v);
		else if (strcmp(k, "--elt") == 0)
			elt = atoi(v);
		else if (strcmp(k, "--bulk") == 0)
			bulk = atoi(v);
		else if (strcmp(k, "--keep") == 0)
			keep = atoi(v);
		else if (strcmp(k, "--seed") == 0)
			seed = strtoull(v, NULL, 0);
		else {
			printf("unknown option %s\n", k);
			return TEST_FAILED;
		}
	}
	if (bulk == 0 || keep == 0 || keep % bulk != 0 || keep > 512 ||
			bulk > 512 || nb < LOC_ALLOCS + keep || seed == 0) {
		printf("bad options: bulk %u keep %u (multiple of bulk, <= 512) objects %u (>= %u) seed %" PRIu64 " (not 0)\n",
			bulk, keep, nb, LOC_ALLOCS + keep, seed);
		return TEST_FAILED;
	}
	printf("turbomem_locality: %u objects of %u B, bulk %u, keep %u, seed %" PRIu64 ", %u allocations\n",
		nb, elt, bulk, keep, seed, LOC_ALLOCS);
	printf("%-14s %12s %12s %10s %10s\n", "handler", "loop pages",
		"held pages", "loop ratio", "held ratio");
	for (tok = strtok_r(list, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		struct rte_mempool *mp = tm_test_pool("tm_locality", nb, elt,
				0, tok, SOCKET_ID_ANY, true);

		if (mp == NULL)
			return TEST_FAILED;
		if (loc_measure(mp, nb, bulk, keep, seed, &loop, &held) < 0) {
			printf("%s: a get failed\n", tok);
			rte_mempool_free(mp);
			return TEST_FAILED;
		}
		rte_mempool_free(mp);
		if (first) {
			ref_loop = loop;
			ref_held = held;
			first = 0;
		}
		printf("%-14s %12u %12u %10.3f %10.3f\n", tok, loop, held,
			(double)loop / ref_loop, (double)held / ref_held);
	}
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_locality, test_locality);
