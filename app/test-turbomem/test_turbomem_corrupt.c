/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * A corrupted free list in a build without debug checks: the pop that
 * finds the list shorter than its count must fail with -EFAULT (nothing
 * taken, the caller's table untouched, the count unchanged) instead of
 * spinning or handing out garbage, and be counted as a failed get.
 *
 * | command                   | what it asserts                            |
 * |---------------------------|--------------------------------------------|
 * | turbomem_corrupt_autotest | top group's depth raised by one above the  |
 * |                           | chain (what a lost or double put leaves):  |
 * |                           | a get of everything -EFAULT, table         |
 * |                           | untouched; the chain itself still served;  |
 * |                           | puts rewrite the depths, pool whole again  |
 *
 * The corruption is made on purpose by writing the top group's depth
 * (turbomem_private.h, tm_lifo.h): a white-box test, to be adapted when
 * the core's head layout changes.
 */

#include <errno.h>
#include <inttypes.h>

#include <rte_mempool.h>

#include "turbomem_private.h"
#include "test.h"

#define CORRUPT_N 64

/*
 * Add delta to the count the list claims: the depth of its top group
 * (count = depth(top) - pos, tm_lifo.h), the chain left as it is.
 */
static void
top_depth_add(struct rte_mempool *mp, int delta)
{
	struct turbomem_pool *tp = mp->pool_data;
	uint64_t head = rte_atomic_load_explicit(&tp->lifo->head,
			rte_memory_order_relaxed);
	struct tm_lifo_slot *s =
		&tp->lifo->slot[tm_lifo_ref_idx(tm_lifo_top(head))];

	/* Relaxed: single-threaded white-box write, nothing to order. */
	rte_atomic_store_explicit(&s->depth, rte_atomic_load_explicit(
			&s->depth, rte_memory_order_relaxed) + delta,
			rte_memory_order_relaxed);
}

static int
test_corrupt(void)
{
	void *objs[CORRUPT_N + 1], *sentinel = (void *)(uintptr_t)0x5e5e5e5e;
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool *mp;
	unsigned int i;
	int ret = TEST_SUCCESS, r;

	mp = tm_test_pool("tm_corrupt", CORRUPT_N, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "pool");
	TEST_CHECK(strcmp(rte_mempool_get_ops(mp->ops_index)->name, TM_OPS) == 0,
		"not a turbomem pool");
	/* The count says one object more than the chain holds. */
	top_depth_add(mp, 1);
	/* tm_lifo_count() clamps to the capacity: the size, not size + 1. */
	TEST_CHECK(tm_test_raw_count(mp) == CORRUPT_N, "count %u",
		tm_test_raw_count(mp));
	for (i = 0; i < RTE_DIM(objs); i++)
		objs[i] = sentinel;
	r = rte_mempool_get_bulk(mp, objs, CORRUPT_N + 1);
	TEST_CHECK(r == -EFAULT, "get of %u from a chain of %u returned %d, want -EFAULT",
		CORRUPT_N + 1, CORRUPT_N, r);
	for (i = 0; i < RTE_DIM(objs); i++)
		TEST_CHECK(objs[i] == sentinel, "the failed get wrote slot %u", i);
	TEST_CHECK(tm_test_raw_count(mp) == CORRUPT_N,
		"count %u after the failed get", tm_test_raw_count(mp));
	/* What the chain holds is still served. */
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, CORRUPT_N) == 0,
		"get of the %u objects of the chain", CORRUPT_N);
	/*
	 * The false count lived in the top group's depth, which left with
	 * the group: the empty list counts 0 and refuses a get plainly.
	 */
	TEST_CHECK(tm_test_raw_count(mp) == 0, "count %u of the emptied list",
		tm_test_raw_count(mp));
	r = rte_mempool_get_bulk(mp, objs + CORRUPT_N, 1);
	TEST_CHECK(r == -ENOENT, "get of 1 from an empty list returned %d", r);
	TEST_CHECK(tm_test_stats(mp, &st) == 0 && st.get_fails == 2 &&
		st.get_calls == 1, "stats: %" PRIu64 " fails (want 2), %" PRIu64 " gets (want 1)",
		st.get_fails, st.get_calls);
	/* The puts write every depth afresh: the pool is whole again. */
	rte_mempool_put_bulk(mp, objs, CORRUPT_N);
	TEST_CHECK(tm_test_raw_count(mp) == CORRUPT_N, "count %u after the puts",
		tm_test_raw_count(mp));
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, CORRUPT_N) == 0,
		"get of all after the puts");
	rte_mempool_put_bulk(mp, objs, CORRUPT_N);
	printf("corrupt: a list shorter than its count fails with -EFAULT, nothing taken\n");
out:
	rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_corrupt_autotest, test_corrupt);
