/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * A corrupted free list in a build without debug checks: the pop whose
 * walk meets a link that names no node must fail with -EFAULT (nothing
 * taken, the caller's table untouched) instead of spinning or handing out
 * garbage, and be counted as a failed get.
 *
 * | command                   | what it asserts                            |
 * |---------------------------|--------------------------------------------|
 * | turbomem_corrupt_autotest | top group's link set to a key beyond the   |
 * |                           | capacity (not the end of the list): a get  |
 * |                           | of everything -EFAULT, table untouched;    |
 * |                           | the link restored, the pool whole again    |
 *
 * The corruption is made on purpose by writing the top group's link
 * (turbomem_private.h, tm_lifo.h): a white-box test, to be adapted when
 * the core's head layout changes.
 */

#include <errno.h>
#include <inttypes.h>

#include <rte_mempool.h>

#include "turbomem_private.h"
#include "test.h"

#define CORRUPT_N 64

/* Set the link of the list's top group to link; returns the old one. */
static uint32_t
top_link_set(struct rte_mempool *mp, uint32_t link)
{
	struct turbomem_pool *tp = mp->pool_data;
	uint64_t head = rte_atomic_load_explicit(&tp->lifo->head,
			rte_memory_order_relaxed);
	struct tm_lifo_node *nd =
		&tp->lifo->node[tm_lifo_ref_idx(tm_lifo_low(head))];

	/* Relaxed: single-threaded white-box write, nothing to order. */
	return rte_atomic_exchange_explicit(&nd->link, link,
			rte_memory_order_relaxed);
}

static int
test_corrupt(void)
{
	void *objs[CORRUPT_N + 1], *sentinel = (void *)(uintptr_t)0x5e5e5e5e;
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool *mp;
	unsigned int i;
	uint32_t link;
	int ret = TEST_SUCCESS, r;

	mp = tm_test_pool("tm_corrupt", CORRUPT_N, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "pool");
	TEST_CHECK(strcmp(rte_mempool_get_ops(mp->ops_index)->name, TM_OPS) == 0,
		"not a turbomem pool");
	/* The top group links to a key that names no node. */
	link = top_link_set(mp, tm_lifo_ref(CORRUPT_N + 1, 0));
	for (i = 0; i < RTE_DIM(objs); i++)
		objs[i] = sentinel;
	r = rte_mempool_get_bulk(mp, objs, CORRUPT_N);
	TEST_CHECK(r == -EFAULT, "get of %u over a bad link returned %d, want -EFAULT",
		CORRUPT_N, r);
	for (i = 0; i < RTE_DIM(objs); i++)
		TEST_CHECK(objs[i] == sentinel, "the failed get wrote slot %u", i);
	TEST_CHECK(tm_test_stats(mp, &st) == 0 && st.get_fails == 1 &&
		st.get_calls == 0, "stats: %" PRIu64 " fails (want 1), %" PRIu64 " gets (want 0)",
		st.get_fails, st.get_calls);
	/* The link restored, nothing was lost. */
	top_link_set(mp, link);
	TEST_CHECK(tm_test_raw_count(mp) == CORRUPT_N, "count %u after the repair",
		tm_test_raw_count(mp));
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, CORRUPT_N) == 0,
		"get of all after the repair");
	TEST_CHECK(tm_test_raw_count(mp) == 0, "count %u of the emptied list",
		tm_test_raw_count(mp));
	r = rte_mempool_get_bulk(mp, objs + CORRUPT_N, 1);
	TEST_CHECK(r == -ENOENT, "get of 1 from an empty list returned %d", r);
	rte_mempool_put_bulk(mp, objs, CORRUPT_N);
	TEST_CHECK(tm_test_raw_count(mp) == CORRUPT_N, "count %u after the puts",
		tm_test_raw_count(mp));
	printf("corrupt: a link that names no node fails a get with -EFAULT, nothing taken\n");
out:
	rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_corrupt_autotest, test_corrupt);
