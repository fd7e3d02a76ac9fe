/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Test-only plugin (never installed): registers dummy mempool ops
 * "tm_fill_0", "tm_fill_1", ... to fill the ops table the way a
 * distribution's plugin directory does (DPDK 26.07's own mempool drivers
 * register 16 ops, RTE_MEMPOOL_MAX_OPS_IDX).
 *
 * TM_FILL_OPS=N registers N of them (plugin-load.sh puts the
 * plugin into the plugin directory with N = 16 minus what the machine's
 * drivers register, so that the directory fills the table exactly); unset,
 * it registers until the table is full. A registration refused for want of
 * a slot is reported on stderr with the name that lost it, as DPDK's own
 * drivers would silently lose theirs.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>

static int
fill_alloc(struct rte_mempool *mp __rte_unused)
{
	return -ENOTSUP;
}

static void
fill_free(struct rte_mempool *mp __rte_unused)
{
}

static int
fill_enqueue(struct rte_mempool *mp __rte_unused,
		void * const *obj_table __rte_unused, unsigned int n __rte_unused)
{
	return -ENOTSUP;
}

static int
fill_dequeue(struct rte_mempool *mp __rte_unused,
		void **obj_table __rte_unused, unsigned int n __rte_unused)
{
	return -ENOTSUP;
}

static unsigned int
fill_get_count(const struct rte_mempool *mp __rte_unused)
{
	return 0;
}

RTE_INIT(tm_fill_register)
{
	const char *env = getenv("TM_FILL_OPS");
	unsigned int i, n = env != NULL ? (unsigned int)atoi(env) :
		RTE_MEMPOOL_MAX_OPS_IDX;
	struct rte_mempool_ops ops = {
		.alloc = fill_alloc,
		.free = fill_free,
		.enqueue = fill_enqueue,
		.dequeue = fill_dequeue,
		.get_count = fill_get_count,
	};

	for (i = 0; i < n; i++) {
		int ret;

		snprintf(ops.name, sizeof(ops.name), "tm_fill_%u", i);
		if (env == NULL &&
				rte_mempool_ops_table.num_ops == RTE_MEMPOOL_MAX_OPS_IDX)
			break;
		ret = rte_mempool_register_ops(&ops);
		if (ret < 0)
			fprintf(stderr, "tm_fill: ops \"%s\" not registered: %s\n",
				ops.name, strerror(-ret));
	}
}
