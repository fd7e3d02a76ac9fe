/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_ops_table: print the mempool ops table (slot, name, the library
 * its functions live in) and check what a full table means for pools.
 *
 *   dpdk-test-turbomem <EAL args> -- turbomem_ops_table
 *           [--expect registered|absent] [--lost NAME]
 *
 * --expect registered: a turbomem pool is created, used and freed.
 * --expect absent: "turbomem" is not in the table and a pool set to it
 *           fails with -EINVAL (what an application then sees).
 * --lost NAME: NAME is not in the table (it lost its slot) and a pool set
 *           to it fails with -EINVAL.
 * plugin-load.sh drives it for every way of loading turbomem.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "test.h"

static bool
in_table(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return true;
	return false;
}

/*
 * A pool set to ops name: 0 and used, or -errno of the first step failing
 * (printed). rte_mempool_create_empty() itself sets "ring_mp_mc" first: it
 * fails when the ring driver lost that slot.
 */
static int
pool_on(const char *name)
{
	struct rte_mempool *mp;
	void *objs[32];
	int ret;

	mp = rte_mempool_create_empty("tm_ops_table", 1023, 64, 32, 0,
			SOCKET_ID_ANY, 0);
	if (mp == NULL) {
		printf("rte_mempool_create_empty: %s%s\n",
			rte_strerror(rte_errno), in_table("ring_mp_mc") ? "" :
			" (\"ring_mp_mc\", which it sets first, has no slot)");
		return -rte_errno;
	}
	ret = rte_mempool_set_ops_byname(mp, name, NULL);
	if (ret == 0) {
		ret = rte_mempool_populate_default(mp);
		ret = ret == 1023 ? 0 : (ret < 0 ? ret : -ENOMEM);
	}
	if (ret == 0) {
		ret = rte_mempool_get_bulk(mp, objs, RTE_DIM(objs));
		if (ret == 0)
			rte_mempool_put_bulk(mp, objs, RTE_DIM(objs));
	}
	rte_mempool_free(mp);
	return ret;
}

static int
test_ops_table(void)
{
	const char *expect = NULL, *lost = NULL;
	unsigned int i;
	int a, ret;

	for (a = 0; a + 1 < tm_test_argc; a += 2) {
		if (strcmp(tm_test_argv[a], "--expect") == 0)
			expect = tm_test_argv[a + 1];
		else if (strcmp(tm_test_argv[a], "--lost") == 0)
			lost = tm_test_argv[a + 1];
		else
			break;
	}
	TEST_ASSERT(a == tm_test_argc, "usage: turbomem_ops_table [--expect registered|absent] [--lost NAME]");

	printf("ops table: %u of RTE_MEMPOOL_MAX_OPS_IDX=%d\n",
		rte_mempool_ops_table.num_ops, RTE_MEMPOOL_MAX_OPS_IDX);
	/* The DPDK this program runs on (built against): its plugin directory. */
	printf("plugin directory: %s\n", RTE_EAL_PMD_PATH);
	for (i = 0; i < rte_mempool_ops_table.num_ops; i++) {
		const struct rte_mempool_ops *o = &rte_mempool_ops_table.ops[i];
		Dl_info info;
		const char *lib = "?";

		if (dladdr((const void *)(uintptr_t)o->enqueue, &info) != 0 &&
				info.dli_fname != NULL)
			lib = strrchr(info.dli_fname, '/') != NULL ?
				strrchr(info.dli_fname, '/') + 1 :
				info.dli_fname;
		printf("slot %2u: %-24s %s\n", i, o->name, lib);
	}

	if (expect != NULL && strcmp(expect, "registered") == 0) {
		TEST_ASSERT(in_table(TM_OPS), "\"%s\" not registered", TM_OPS);
		ret = pool_on(TM_OPS);
		TEST_ASSERT(ret == 0, "pool on %s: %s", TM_OPS, strerror(-ret));
		printf("a %s pool works\n", TM_OPS);
	} else if (expect != NULL && strcmp(expect, "absent") == 0) {
		TEST_ASSERT(!in_table(TM_OPS), "\"%s\" registered", TM_OPS);
		ret = pool_on(TM_OPS);
		TEST_ASSERT(ret == -EINVAL, "pool on unregistered %s: %d",
			TM_OPS, ret);
		printf("a %s pool fails: %s\n", TM_OPS, strerror(-ret));
	} else if (expect != NULL) {
		TEST_ASSERT(false, "--expect %s: registered or absent", expect);
	}
	if (lost != NULL) {
		TEST_ASSERT(!in_table(lost), "\"%s\" has a slot", lost);
		ret = pool_on(lost);
		TEST_ASSERT(ret == -EINVAL, "pool on lost %s: %d", lost, ret);
		printf("a %s pool fails: %s\n", lost, strerror(-ret));
	}
	return TEST_SUCCESS;
}

TM_TEST_REGISTER(turbomem_ops_table, test_ops_table);
