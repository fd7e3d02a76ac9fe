/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Telemetry commands (read with usertools/dpdk-telemetry.py):
 *   /turbomem/list         names of the turbomem pools of the process
 *   /turbomem/info,<pool>  size, counts, driver statistics, the driver's
 *                          own bytes, memory report
 *   /turbomem/held, /turbomem/track: turbomem_track_telemetry.c
 *
 * Handlers run in the telemetry thread (no lcore id).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "turbomem_private.h"

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
	rte_tel_data_add_dict_uint(m, "bytes", mi.bytes);
	rte_tel_data_add_dict_uint(m, "huge_bytes", mi.huge_bytes);
	rte_tel_data_add_dict_uint(m, "page_size", mi.page_size);
	rte_tel_data_add_dict_string(m, "backing",
			rte_pmd_turbomem_backing_name(mi.backing));
	rte_tel_data_add_dict_int(m, "numa_node", mi.numa_node);
	rte_tel_data_add_dict_uint(m, "nb_chunks", mi.nb_chunks);
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
	uint64_t drv;

	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	mp = rte_mempool_lookup(params);
	tp = turbomem_pool_of(mp);
	if (tp == NULL || rte_pmd_turbomem_stats_get(mp, &st) != 0)
		return -EINVAL;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mp->name);
	rte_tel_data_add_dict_int(d, "socket_id", mp->socket_id);
	rte_tel_data_add_dict_uint(d, "size", mp->size);
	rte_tel_data_add_dict_uint(d, "populated_size", mp->populated_size);
	rte_tel_data_add_dict_uint(d, "elt_size", mp->elt_size);
	rte_tel_data_add_dict_uint(d, "cache_size", mp->cache_size);
	/* Objects held by the driver, then by the driver and the caches. */
	rte_tel_data_add_dict_uint(d, "count", turbomem_count(tp));
	rte_tel_data_add_dict_uint(d, "avail_count", rte_mempool_avail_count(mp));
	rte_tel_data_add_dict_uint(d, "in_use_count", rte_mempool_in_use_count(mp));
	rte_tel_data_add_dict_uint(d, "get_calls", st.get_calls);
	rte_tel_data_add_dict_uint(d, "get_objs", st.get_objs);
	rte_tel_data_add_dict_uint(d, "get_fails", st.get_fails);
	rte_tel_data_add_dict_uint(d, "put_calls", st.put_calls);
	rte_tel_data_add_dict_uint(d, "put_objs", st.put_objs);
	rte_tel_data_add_dict_uint(d, "cas_retries", st.cas_retries);
	/*
	 * Member blocks (tm_lifo.h, "Blocks"): where they are. The three
	 * add up to "blocks" at rest; under traffic they are a snapshot.
	 */
	rte_tel_data_add_dict_uint(d, "blocks", tp->lifo->nb_blocks);
	/*
	 * The objects on the lists, walked: count less listed is what
	 * processes killed between a commit and its count left uncounted.
	 */
	rte_tel_data_add_dict_uint(d, "listed", tm_lifo_count(tp->lifo));
	rte_tel_data_add_dict_uint(d, "blocks_free", tm_lifo_blocks_free(tp->lifo));
	rte_tel_data_add_dict_uint(d, "blocks_stashed", turbomem_stats_stashed(tp->stats));
	rte_tel_data_add_dict_uint(d, "blocks_grouped", tm_lifo_blocks_grouped(tp->lifo));
	/*
	 * The driver's own memory for the pool, as recorded when allocated
	 * (turbomem_pool.drv_bytes), and per object rounded to a byte
	 * (telemetry has no fractions): what turbomem_bench's memory row
	 * measures from the heaps, less the heaps' element headers.
	 */
	drv = rte_atomic_load_explicit(&tp->drv_bytes, rte_memory_order_relaxed);
	rte_tel_data_add_dict_uint(d, "driver_bytes", drv);
	rte_tel_data_add_dict_uint(d, "driver_bytes_per_obj",
		(drv + mp->size / 2) / RTE_MAX(mp->size, 1u));
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
