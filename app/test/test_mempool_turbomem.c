/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * The turbomem mempool driver in DPDK's fast-tests suite (a copy in
 * DPDK's app/test; the driver's own suites are in app/test-turbomem):
 * gets are all-or-nothing, the counts are exact, the statistics and the
 * held-object report count what the test did, and the API refuses a pool
 * of another driver. No mempool cache, so every get and put reaches the
 * driver.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pmd_turbomem.h>

#include "test.h"

#define TM_TEST_OBJS 1023
#define TM_TEST_HELD 10

static void *objs[TM_TEST_OBJS + 1];

static struct rte_mempool *
tm_test_pool(const char *name, const char *ops)
{
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty(name, TM_TEST_OBJS, 64, 0, 0,
			SOCKET_ID_ANY, 0);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, ops, NULL) != 0 ||
			rte_mempool_populate_default(mp) != TM_TEST_OBJS) {
		rte_mempool_free(mp);
		return NULL;
	}
	return mp;
}

static int
tm_test_gets(struct rte_mempool *mp)
{
	struct rte_pmd_turbomem_stats st;

	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), TM_TEST_OBJS,
			"a new pool holds every object");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, TM_TEST_OBJS),
			"get of the whole pool");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 0, "pool empty");
	TEST_ASSERT_EQUAL(rte_mempool_get_bulk(mp, &objs[TM_TEST_OBJS], 1), -ENOENT,
			"get from an empty pool");
	rte_mempool_put_bulk(mp, objs, TM_TEST_OBJS / 2);
	/* More than the pool holds: refused, and nothing taken. */
	TEST_ASSERT_EQUAL(rte_mempool_get_bulk(mp, &objs[TM_TEST_OBJS / 2],
			TM_TEST_OBJS / 2 + 1), -ENOENT, "get of more than the pool holds");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), TM_TEST_OBJS / 2,
			"a refused get takes nothing");
	rte_mempool_put_bulk(mp, &objs[TM_TEST_OBJS / 2],
			TM_TEST_OBJS - TM_TEST_OBJS / 2);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), TM_TEST_OBJS,
			"every object back");

	TEST_ASSERT_SUCCESS(rte_pmd_turbomem_stats_get(mp, &st), "statistics");
	TEST_ASSERT_EQUAL(st.get_calls, 1, "one get succeeded");
	TEST_ASSERT_EQUAL(st.get_objs, TM_TEST_OBJS, "objects got");
	TEST_ASSERT_EQUAL(st.get_fails, 2, "two gets refused");
	TEST_ASSERT_EQUAL(st.put_objs, TM_TEST_OBJS, "objects put");
	TEST_ASSERT_SUCCESS(rte_pmd_turbomem_stats_reset(mp), "statistics reset");
	TEST_ASSERT_SUCCESS(rte_pmd_turbomem_stats_get(mp, &st), "statistics");
	TEST_ASSERT_EQUAL(st.get_calls + st.get_objs + st.put_objs, 0,
			"statistics after reset");
	return TEST_SUCCESS;
}

static int
tm_test_held(struct rte_mempool *mp)
{
	struct rte_pmd_turbomem_held *r;
	int ret = TEST_FAILED;

	r = malloc(sizeof(*r));
	TEST_ASSERT_NOT_NULL(r, "report memory");
	if (rte_pmd_turbomem_track_set(mp, 1) != 0 ||
			rte_mempool_get_bulk(mp, objs, TM_TEST_HELD) != 0)
		goto out;
	if (rte_pmd_turbomem_held_get(mp, TM_TEST_HELD, r) != 0)
		goto put;
	printf("held: tracking %u in_use %u holders %u (lcore %u: %u) oldest %u\n",
			r->tracking, r->in_use, r->nb_holders, r->holders[0].id,
			r->holders[0].count, r->nb_oldest);
	if (r->tracking == 1 && r->in_use == TM_TEST_HELD && r->nb_holders == 1 &&
			r->holders[0].kind == RTE_PMD_TURBOMEM_HOLDER_LCORE &&
			r->holders[0].id == rte_lcore_id() &&
			r->holders[0].count == TM_TEST_HELD &&
			r->nb_oldest == TM_TEST_HELD)
		ret = TEST_SUCCESS;
put:
	rte_mempool_put_bulk(mp, objs, TM_TEST_HELD);
	if (rte_pmd_turbomem_track_set(mp, 0) != 0)
		ret = TEST_FAILED;
out:
	free(r);
	return ret;
}

static int
tm_test_other_driver(void)
{
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool *mp;
	int ret = TEST_SUCCESS;

	mp = tm_test_pool("test_turbomem_ring", "ring_mp_mc");
	TEST_ASSERT_NOT_NULL(mp, "ring pool");
	if (rte_pmd_turbomem_stats_get(mp, &st) != -EINVAL ||
			rte_pmd_turbomem_mem_info(mp, &mi) != -EINVAL ||
			rte_pmd_turbomem_track_set(mp, 1) != -EINVAL ||
			rte_pmd_turbomem_stats_get(NULL, &st) != -EINVAL)
		ret = TEST_FAILED;
	rte_mempool_free(mp);
	return ret;
}

static int
test_mempool_turbomem(void)
{
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_mempool *mp;
	int ret;

	mp = tm_test_pool("test_turbomem", RTE_PMD_TURBOMEM_OPS_NAME);
	TEST_ASSERT_NOT_NULL(mp, "turbomem pool of %u objects", TM_TEST_OBJS);
	ret = tm_test_gets(mp);
	if (ret == TEST_SUCCESS)
		ret = tm_test_held(mp);
	if (ret == TEST_SUCCESS && (rte_pmd_turbomem_mem_info(mp, &mi) != 0 ||
			mi.bytes == 0))
		ret = TEST_FAILED;
	rte_mempool_free(mp);
	if (ret == TEST_SUCCESS)
		ret = tm_test_other_driver();
	return ret;
}

REGISTER_FAST_TEST(turbomem_autotest, NOHUGE_OK, ASAN_OK, test_mempool_turbomem);
