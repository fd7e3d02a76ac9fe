/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Telemetry commands (read with usertools/dpdk-telemetry.py):
 *   /turbomem/list         names of the turbomem pools of the process
 *   /turbomem/info,<pool>  size, counts, driver statistics, memory report
 *
 * Handlers run in the telemetry thread (no lcore id): they only read.
 */

/* The handlers call the driver's own experimental API (as DPDK's drivers do). */
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API 1
#endif

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>
#include <rte_version.h>

#include "turbomem_private.h"

/* DPDK 23.03 renamed the u64 helpers to uint and deprecated the old name. */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
#define tm_tel_add_u64 rte_tel_data_add_dict_uint
#else
#define tm_tel_add_u64 rte_tel_data_add_dict_u64
#endif

static void
turbomem_tel_list_one(struct rte_mempool *mp, void *arg)
{
	if (turbomem_pool_of(mp) != NULL)
		rte_tel_data_add_array_string(arg, mp->name);
}

static int
turbomem_tel_list(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	rte_mempool_walk(turbomem_tel_list_one, d);
	return 0;
}

static void
turbomem_tel_mem(struct rte_tel_data *d, const struct rte_mempool *mp)
{
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_tel_data *m;
	int ret;

	ret = rte_pmd_turbomem_mem_info(mp, &mi);
	if (ret < 0) {
		rte_tel_data_add_dict_string(d, "memory_error", strerror(-ret));
		return;
	}
	m = rte_tel_data_alloc();
	if (m == NULL)
		return;
	rte_tel_data_start_dict(m);
	tm_tel_add_u64(m, "bytes", mi.bytes);
	tm_tel_add_u64(m, "huge_bytes", mi.huge_bytes);
	tm_tel_add_u64(m, "page_size", mi.page_size);
	rte_tel_data_add_dict_string(m, "backing",
			rte_pmd_turbomem_backing_name(mi.backing));
	rte_tel_data_add_dict_int(m, "numa_node", mi.numa_node);
	tm_tel_add_u64(m, "nb_chunks", mi.nb_chunks);
	rte_tel_data_add_dict_string(m, "note", mi.note);
	/* keep = 0: telemetry frees m with d. */
	if (rte_tel_data_add_dict_container(d, "memory", m, 0) != 0)
		rte_tel_data_free(m);
}

static int
turbomem_tel_info(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct rte_pmd_turbomem_stats st;
	struct turbomem_pool *tp;
	struct rte_mempool *mp;

	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	mp = rte_mempool_lookup(params);
	tp = turbomem_pool_of(mp);
	if (tp == NULL || rte_pmd_turbomem_stats_get(mp, &st) != 0)
		return -EINVAL;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mp->name);
	rte_tel_data_add_dict_int(d, "socket_id", mp->socket_id);
	tm_tel_add_u64(d, "size", mp->size);
	tm_tel_add_u64(d, "populated_size", mp->populated_size);
	tm_tel_add_u64(d, "elt_size", mp->elt_size);
	tm_tel_add_u64(d, "cache_size", mp->cache_size);
	/* Objects held by the driver, then by the driver and the caches. */
	tm_tel_add_u64(d, "count", tm_lifo_count(tp->lifo));
	tm_tel_add_u64(d, "avail_count", rte_mempool_avail_count(mp));
	tm_tel_add_u64(d, "in_use_count", rte_mempool_in_use_count(mp));
	tm_tel_add_u64(d, "get_calls", st.get_calls);
	tm_tel_add_u64(d, "get_objs", st.get_objs);
	tm_tel_add_u64(d, "get_fails", st.get_fails);
	tm_tel_add_u64(d, "put_calls", st.put_calls);
	tm_tel_add_u64(d, "put_objs", st.put_objs);
	tm_tel_add_u64(d, "cas_retries", st.cas_retries);
	turbomem_tel_mem(d, mp);
	return 0;
}

RTE_INIT(turbomem_telemetry_init)
{
	rte_telemetry_register_cmd("/turbomem/list", turbomem_tel_list,
			"Returns the names of the turbomem mempools. No parameters");
	rte_telemetry_register_cmd("/turbomem/info", turbomem_tel_info,
			"Returns size, counts, statistics and memory report of a turbomem mempool. Parameters: pool name");
}
