/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Functional tests of the turbomem ops, single-threaded, cache 0 so every
 * call reaches the driver (and rte_mempool_avail_count() is the driver's
 * count).
 *
 * | command                      | what it asserts                          |
 * |------------------------------|------------------------------------------|
 * | turbomem_exact_autotest      | bulk sizes 0,1,2,16,31,512,size: exact n, |
 * |                              | distinct pool objects, exact counts       |
 * | turbomem_exhaustion_autotest | all-or-nothing: a get above the count     |
 * |                              | fails and takes nothing                   |
 * | turbomem_lifo_autotest       | the last objects put are the next got     |
 * | turbomem_create_free_autotest| 50 create/free cycles: memzones and heap  |
 * |                              | bytes back to the start, name reusable    |
 * | turbomem_chunks_autotest     | several chunks in unsorted address order, |
 * |                              | page-constrained and unaligned layouts,   |
 * |                              | chunks 4 GB apart, anonymous memory:      |
 * |                              | census over all objects                   |
 * | turbomem_pktmbuf_autotest    | rte_pktmbuf_pool_create_by_ops pool works |
 * | turbomem_badinput_autotest   | a socket that does not exist is refused,  |
 * |                              | free after failed alloc, name free again  |
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "test.h"
#include "test_ledger.h"

#define POOL_N 1000

/* Drain one by one: every object exactly once, then put back. */
static int
census_drain(struct rte_mempool *mp, unsigned int nb)
{
	struct tm_census c;

	return tm_census(mp, false, nb, &c);
}

static int
test_exact(void)
{
	static const unsigned int sizes[] = { 1, 2, 16, 31, 512, POOL_N };
	struct rte_mempool *mp;
	struct tm_objset c = { 0 };
	void **tab = NULL;
	unsigned int s, i;
	int ret = TEST_SUCCESS;

	mp = tm_test_pool("tm_exact", POOL_N, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(mp != NULL, "pool creation failed");
	tab = calloc(POOL_N + 1, sizeof(void *));
	TEST_CHECK(tab != NULL && tm_objset_init(&c, mp) == 0, "no memory");
	TEST_CHECK(c.nb == POOL_N, "obj_iter saw %u objects", c.nb);
	TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N, "count %u",
		rte_mempool_avail_count(mp));
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab, 0) == 0,
		"get of 0 objects failed");
	TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N,
		"get of 0 changed the count");

	for (s = 0; s < RTE_DIM(sizes); s++) {
		unsigned int n = sizes[s];

		memset(tab, 0, (POOL_N + 1) * sizeof(void *));
		TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab, n) == 0,
			"get of %u failed", n);
		TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N - n,
			"count %u after get of %u",
			rte_mempool_avail_count(mp), n);
		tm_objset_clear(&c);
		for (i = 0; i < n; i++)
			TEST_CHECK(tm_objset_mark(&c, tab[i]) == 0,
				"bad object at %u of %u", i, n);
		TEST_CHECK(tab[n] == NULL, "get of %u wrote past the end", n);
		TEST_CHECK(rte_mempool_ops_enqueue_bulk(mp, tab, n) == 0,
			"put of %u failed", n);
		TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N,
			"count %u after put of %u",
			rte_mempool_avail_count(mp), n);
	}
	/* The mempool API on top agrees (cache 0). */
	TEST_CHECK(rte_mempool_get_bulk(mp, tab, 100) == 0, "get_bulk");
	TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N - 100 &&
		rte_mempool_in_use_count(mp) == 100, "avail %u in use %u",
		rte_mempool_avail_count(mp), rte_mempool_in_use_count(mp));
	rte_mempool_put_bulk(mp, tab, 100);
	TEST_CHECK(rte_mempool_full(mp), "not full after put back");
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
out:
	tm_objset_fini(&c);
	free(tab);
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_exact_autotest, test_exact);

static int
test_exhaustion(void)
{
	struct rte_mempool *mp;
	struct tm_objset c = { 0 };
	void **tab = NULL;
	unsigned int held;
	int ret = TEST_SUCCESS, r;

	mp = tm_test_pool("tm_exhaust", POOL_N, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(mp != NULL, "pool creation failed");
	tab = calloc(POOL_N + 1, sizeof(void *));
	TEST_CHECK(tab != NULL && tm_objset_init(&c, mp) == 0, "no memory");

	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab, POOL_N + 1) < 0,
		"get of size + 1 succeeded");
	TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N,
		"failed get took objects: count %u",
		rte_mempool_avail_count(mp));

	held = POOL_N - 5;
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab, held) == 0,
		"get of %u failed", held);
	r = rte_mempool_ops_dequeue_bulk(mp, tab + held, 10);
	TEST_CHECK(r == -ENOENT, "get of 10 with 5 left returned %d", r);
	TEST_CHECK(rte_mempool_avail_count(mp) == 5,
		"count %u after failed get, expected 5",
		rte_mempool_avail_count(mp));
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab + held, 5) == 0,
		"get of the last 5 failed");
	held += 5;
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, tab + held, 1) == -ENOENT,
		"get from an empty pool succeeded");
	TEST_CHECK(rte_mempool_avail_count(mp) == 0, "count %u, expected 0",
		rte_mempool_avail_count(mp));
	TEST_CHECK(rte_mempool_get(mp, &tab[held]) < 0,
		"rte_mempool_get from an empty pool succeeded");

	/* Irregular put-backs. */
	rte_mempool_ops_enqueue_bulk(mp, tab, 1);
	rte_mempool_ops_enqueue_bulk(mp, tab + 1, 3);
	rte_mempool_ops_enqueue_bulk(mp, tab + 4, 333);
	rte_mempool_ops_enqueue_bulk(mp, tab + 337, POOL_N - 337);
	TEST_CHECK(rte_mempool_avail_count(mp) == POOL_N, "count %u",
		rte_mempool_avail_count(mp));
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
out:
	tm_objset_fini(&c);
	free(tab);
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_exhaustion_autotest, test_exhaustion);

static int
test_lifo(void)
{
	struct rte_mempool *mp;
	void *a[8], *b[8];
	unsigned int i;
	int ret = TEST_SUCCESS;

	mp = tm_test_pool("tm_lifo", 64, 64, 0, TM_OPS, SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "pool creation failed");
	/* Take 8 from the middle of the order, put them back: they come next. */
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, b, 8) == 0, "get");
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, a, 8) == 0, "get");
	rte_mempool_ops_enqueue_bulk(mp, b, 8);
	rte_mempool_ops_enqueue_bulk(mp, a, 8);
	TEST_CHECK(rte_mempool_ops_dequeue_bulk(mp, b, 8) == 0, "get");
	for (i = 0; i < 8; i++)
		TEST_CHECK(a[i] == b[i], "slot %u: got %p, last put %p", i,
			b[i], a[i]);
	rte_mempool_ops_enqueue_bulk(mp, b, 8);
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_lifo_autotest, test_lifo);

static void
count_mz(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static unsigned int
memzone_count(void)
{
	unsigned int n = 0;

	rte_memzone_walk(count_mz, &n);
	return n;
}

static size_t
heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t sum = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
				&st) == 0)
			sum += st.heap_allocsz_bytes;
	}
	return sum;
}

static int
test_create_free(void)
{
	unsigned int mz0, i, cycles = 50;
	struct rte_mempool *mp;
	size_t heap0;
	void *obj;

	/* Warm up once: the first pool creates library-wide state. */
	mp = tm_test_pool("tm_churn", 511, 128, 32, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(mp != NULL, "pool creation failed");
	rte_mempool_free(mp);
	mz0 = memzone_count();
	heap0 = heap_bytes();

	for (i = 0; i < cycles; i++) {
		/* Odd cycles without a cache: the driver's raw count. */
		mp = tm_test_pool("tm_churn", 511 + i, 128, i & 1 ? 0 : 32,
				TM_OPS, SOCKET_ID_ANY, true);
		TEST_ASSERT(mp != NULL, "cycle %u: creation failed", i);
		TEST_ASSERT(tm_test_raw_count(mp) == 511 + i,
			"cycle %u: count %u after populate", i,
			tm_test_raw_count(mp));
		TEST_ASSERT(rte_mempool_get(mp, &obj) == 0, "cycle %u: get", i);
		TEST_ASSERT((i & 1) == 0 || tm_test_raw_count(mp) == 510 + i,
			"cycle %u: count %u with one out", i,
			tm_test_raw_count(mp));
		rte_mempool_put(mp, obj);
		TEST_ASSERT(rte_mempool_avail_count(mp) == 511 + i,
			"cycle %u: avail %u", i, rte_mempool_avail_count(mp));
		TEST_ASSERT((i & 1) == 0 || tm_test_raw_count(mp) == 511 + i,
			"cycle %u: count %u", i, tm_test_raw_count(mp));
		rte_mempool_free(mp);
		TEST_ASSERT(rte_mempool_lookup("tm_churn") == NULL,
			"cycle %u: pool still registered", i);
	}
	TEST_ASSERT(memzone_count() == mz0, "memzones %u, expected %u",
		memzone_count(), mz0);
	TEST_ASSERT(heap_bytes() == heap0, "heap bytes %zu, expected %zu",
		heap_bytes(), heap0);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_create_free_autotest, test_create_free);

static void
free_mz_cb(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_memzone_free(opaque);
}

/*
 * One pool, several chunks: three memzones populated out of address
 * order, one of them starting off a page boundary, with an element size
 * that leaves a gap at the end of each 4 KB page when objects must not
 * cross pages (the --no-huge default).
 */
static int
test_chunks_one(const char *name, unsigned int elt_size, unsigned int flags)
{
	const struct rte_memzone *mz[3] = { NULL };
	static const unsigned int order[3] = { 2, 0, 1 };
	struct rte_mempool *mp;
	struct tm_objset c = { 0 };
	unsigned int i, n = 600, added = 0;
	void *all[600];
	char mzname[RTE_MEMZONE_NAMESIZE];
	size_t sz;
	int ret = TEST_SUCCESS, r;

	mp = rte_mempool_create_empty(name, n, elt_size, 0, 0, SOCKET_ID_ANY,
			flags);
	TEST_ASSERT(mp != NULL, "create_empty: %s", rte_strerror(rte_errno));
	TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0,
		"set_ops");
	/* At most n / 3 objects per chunk (fewer where pages leave gaps). */
	sz = (n / 3) * (mp->header_size + mp->elt_size + mp->trailer_size);
	for (i = 0; i < 3; i++) {
		snprintf(mzname, sizeof(mzname), "%s_%u", name, i);
		/* +64: the chunk starts one cache line into a page. */
		mz[i] = rte_memzone_reserve_aligned(mzname, sz + 64,
				SOCKET_ID_ANY, 0, 4096);
		TEST_CHECK(mz[i] != NULL, "memzone %u", i);
	}
	for (i = 0; i < 3; i++) {
		unsigned int k = order[i];
		char *va = (char *)mz[k]->addr + (k == 0 ? 64 : 0);

		r = rte_mempool_populate_iova(mp, va,
				mz[k]->iova == RTE_BAD_IOVA ? RTE_BAD_IOVA :
				mz[k]->iova + (va - (char *)mz[k]->addr),
				mz[k]->len - 64, free_mz_cb,
				(void *)(uintptr_t)mz[k]);
		TEST_CHECK(r > 0, "populate chunk %u: %d", k, r);
		printf("%s: chunk %u at %p: %d objects\n", name, k, va, r);
		mz[k] = NULL;	/* owned by the pool now */
		added += r;
	}
	TEST_CHECK(added == mp->populated_size, "populated %u (%u)", added,
		mp->populated_size);
	TEST_CHECK(tm_objset_init(&c, mp) == 0 && c.nb == added, "obj_iter %u",
		c.nb);
	TEST_CHECK(rte_mempool_avail_count(mp) == added, "count %u of %u",
		rte_mempool_avail_count(mp), added);
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
	/* Gets and puts of groups (the census moves one object at a time). */
	for (i = 0; i + 8 <= added; i += 8)
		TEST_CHECK(rte_mempool_get_bulk(mp, &all[i], 8) == 0,
			"get 8 at %u", i);
	for (i = 0; i + 8 <= added; i += 8)
		rte_mempool_put_bulk(mp, &all[i], 8);
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census after groups failed");
out:
	for (i = 0; i < 3; i++)
		rte_memzone_free(mz[i]);
	tm_objset_fini(&c);
	rte_mempool_free(mp);
	return ret;
}

/*
 * One chunk of objects above half a 4 KB page that must not cross pages:
 * one object per page, both directions of the map a shift
 * (turbomem_objmap.h one_per_page). The chunk starts off bytes into a
 * page: 64 leaves room for object 0 before the first boundary (k0 == 1),
 * 2048 does not (k0 == 0).
 */
static int
test_one_per_page(const char *name, size_t off)
{
	const struct rte_memzone *mz;
	struct rte_mempool *mp;
	struct tm_objset c = { 0 };
	unsigned int n = 100;
	size_t len;
	int ret = TEST_SUCCESS, r;

	mp = rte_mempool_create_empty(name, n, 3000, 0, 0, SOCKET_ID_ANY, 0);
	TEST_ASSERT(mp != NULL, "create_empty: %s", rte_strerror(rte_errno));
	len = (size_t)(n + 1) * 4096;
	mz = rte_memzone_reserve_aligned(name, len + off, SOCKET_ID_ANY, 0,
			4096);
	TEST_CHECK(mz != NULL, "memzone");
	TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0,
		"set_ops");
	r = rte_mempool_populate_iova(mp, (char *)mz->addr + off,
			mz->iova == RTE_BAD_IOVA ? RTE_BAD_IOVA : mz->iova + off,
			len, free_mz_cb, (void *)(uintptr_t)mz);
	TEST_CHECK(r == (int)n, "populate at page offset %zu: %d of %u", off,
		r, n);
	mz = NULL;	/* owned by the pool now */
	TEST_CHECK(tm_objset_init(&c, mp) == 0 && c.nb == n, "obj_iter %u",
		c.nb);
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
out:
	rte_memzone_free(mz);
	tm_objset_fini(&c);
	rte_mempool_free(mp);
	return ret;
}

/*
 * Two chunks of the application's memory 4 GB apart, objects that must
 * not cross 4 KB pages (3 a page): blocks as short as a page's objects
 * would need more than TM_OBJMAP_MAX_BLOCKS entries over that span, so
 * the map's table falls back to one entry range per chunk, without index
 * origins (turbomem_objmap.c, tm_objmap_build_blocks). Every object must
 * still map both ways.
 */
static int
test_chunks_far(void)
{
	const size_t gap = (size_t)4 << 30, len = 64u << 10;
	struct rte_mempool *mp = NULL;
	struct tm_objset c = { 0 };
	unsigned int n = 2 * (len / 4096) * 3;
	int ret = TEST_SUCCESS, r1, r2;
	char *map;

	/* Address space only: two 64 KB regions at its ends are used. */
	map = mmap(NULL, gap + len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	TEST_ASSERT(map != MAP_FAILED, "mmap of %zu bytes", gap + len);
	TEST_CHECK(mprotect(map, len, PROT_READ | PROT_WRITE) == 0 &&
		mprotect(map + gap, len, PROT_READ | PROT_WRITE) == 0,
		"mprotect");
	mp = rte_mempool_create_empty("tm_chunks_far", n, 1000, 0, 0,
			SOCKET_ID_ANY, 0);
	TEST_CHECK(mp != NULL, "create_empty: %s", rte_strerror(rte_errno));
	TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0,
		"set_ops");
	/* The upper chunk first: unsorted, as above. */
	r1 = rte_mempool_populate_virt(mp, map + gap, len, 4096, NULL, NULL);
	r2 = rte_mempool_populate_virt(mp, map, len, 4096, NULL, NULL);
	TEST_CHECK(r1 > 0 && r2 > 0 && (unsigned int)(r1 + r2) == n,
		"populate_virt gave %d and %d of %u", r1, r2, n);
	TEST_CHECK(tm_objset_init(&c, mp) == 0 && c.nb == n, "obj_iter %u",
		c.nb);
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
out:
	tm_objset_fini(&c);
	rte_mempool_free(mp);
	munmap(map, gap + len);
	return ret;
}

static int
test_chunks(void)
{
	struct rte_mempool *mp;
	struct tm_objset c = { 0 };
	int ret = TEST_SUCCESS;

	/* 1088-byte objects: 3 per 4 KB page when pages constrain. */
	if (test_chunks_one("tm_chunks", 1000, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Same, objects free to cross pages. */
	if (test_chunks_one("tm_chunks_nc", 1000,
			RTE_MEMPOOL_F_NO_IOVA_CONTIG) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Objects larger than a page. */
	if (test_chunks_one("tm_chunks_big", 5000, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Chunks too far apart for a table of pages' runs. */
	if (test_chunks_far() != TEST_SUCCESS)
		return TEST_FAILED;
	/* One chunk, one object per page, object 0 before the first page. */
	if (test_one_per_page("tm_opp_k1", 64) != TEST_SUCCESS ||
			test_one_per_page("tm_opp_k0", 2048) != TEST_SUCCESS)
		return TEST_FAILED;

	/* Anonymous memory, as testpmd --mp-alloc=anon would use. */
	mp = tm_test_pool("tm_anon", 777, 200, 0, TM_OPS, SOCKET_ID_ANY,
			false);
	TEST_ASSERT(mp != NULL, "pool creation failed");
	TEST_CHECK(rte_mempool_populate_anon(mp) == 777, "populate_anon");
	TEST_CHECK(tm_objset_init(&c, mp) == 0 && c.nb == 777, "obj_iter");
	TEST_CHECK(census_drain(mp, c.nb) == 0, "census failed");
out:
	tm_objset_fini(&c);
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_chunks_autotest, test_chunks);

static int
test_pktmbuf(void)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m[64];
	unsigned int i, round;
	int ret = TEST_SUCCESS;

	/* No cache: every alloc and free reaches the driver, counts exact. */
	mp = rte_pktmbuf_pool_create_by_ops("tm_mbuf", 4095, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, TM_OPS);
	TEST_ASSERT(mp != NULL, "pktmbuf pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(strcmp(rte_mempool_get_ops(mp->ops_index)->name,
		TM_OPS) == 0, "pool uses ops %s",
		rte_mempool_get_ops(mp->ops_index)->name);
	TEST_CHECK(rte_mempool_avail_count(mp) == 4095, "avail %u",
		rte_mempool_avail_count(mp));
	for (round = 0; round < 100; round++) {
		TEST_CHECK(rte_pktmbuf_alloc_bulk(mp, m, RTE_DIM(m)) == 0,
			"alloc_bulk, round %u", round);
		for (i = 0; i < RTE_DIM(m); i++) {
			TEST_CHECK(rte_mbuf_refcnt_read(m[i]) == 1 &&
				m[i]->nb_segs == 1 && m[i]->next == NULL &&
				m[i]->pool == mp &&
				rte_pktmbuf_data_len(m[i]) == 0,
				"mbuf %u not reset", i);
			TEST_CHECK(rte_pktmbuf_append(m[i], 64) != NULL,
				"append");
		}
		TEST_CHECK(tm_test_raw_count(mp) == 4095 - RTE_DIM(m),
			"round %u: count %u with %zu out", round,
			tm_test_raw_count(mp), RTE_DIM(m));
		rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	}
	TEST_CHECK(rte_mempool_avail_count(mp) == 4095, "avail %u",
		rte_mempool_avail_count(mp));
	TEST_CHECK(tm_test_raw_count(mp) == 4095, "count %u at rest",
		tm_test_raw_count(mp));
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_pktmbuf_autotest, test_pktmbuf);

static int
test_badinput(void)
{
	struct rte_mempool *mp;
	int r;

	/* A socket that does not exist: refused, nothing left behind. */
	mp = tm_test_pool("tm_bad", 128, 64, 0, TM_OPS, 7, false);
	TEST_ASSERT(mp != NULL, "create_empty failed");
	r = rte_mempool_populate_default(mp);
	TEST_ASSERT(r == -EINVAL, "populate on socket 7 returned %d", r);
	TEST_ASSERT(mp->pool_data == NULL, "pool data left behind");
	/* free after a failed alloc */
	rte_mempool_free(mp);
	TEST_ASSERT(rte_mempool_lookup("tm_bad") == NULL, "name still taken");

	mp = tm_test_pool("tm_bad", 128, 64, 0, TM_OPS, SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "retry with the same name failed");
	rte_mempool_free(mp);

	/* free of a pool whose alloc never ran */
	mp = tm_test_pool("tm_bad", 128, 64, 0, TM_OPS, SOCKET_ID_ANY, false);
	TEST_ASSERT(mp != NULL, "create_empty failed");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_badinput_autotest, test_badinput);
