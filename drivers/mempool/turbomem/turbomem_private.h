/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_PRIVATE_H
#define TURBOMEM_PRIVATE_H

#include <rte_log.h>
#include <rte_mempool.h>

#include "tm_lifo.h"
#include "turbomem_objmap.h"

extern int turbomem_logtype;

#define TM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, turbomem_logtype, \
		"turbomem: " fmt "\n", ## __VA_ARGS__)

/** Driver name, as given to rte_mempool_set_ops_byname(). */
#define TURBOMEM_OPS_NAME "turbomem"

/**
 * Per-pool driver data (mp->pool_data), in DPDK shared memory so that
 * secondary processes use the same pool. No function pointers, no
 * process-local pointers.
 */
struct turbomem_pool {
	struct tm_objmap map;	/**< object <-> index */
	struct tm_lifo *lifo;	/**< same allocation, after this struct */
};

#endif /* TURBOMEM_PRIVATE_H */
