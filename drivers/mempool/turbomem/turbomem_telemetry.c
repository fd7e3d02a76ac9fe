/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Telemetry commands (read with usertools/dpdk-telemetry.py):
 *   /turbomem/list         names of the turbomem pools of the process
 *   /turbomem/info,<pool>  size, counts, driver statistics, the driver's
 *                          own bytes, memory report
 *   /turbomem/held,<pool>[,N]  who holds the objects (turbomem_track.h):
 *                          holders with counts and ages, the N (default
 *                          10, at most RTE_PMD_TURBOMEM_HELD_MAX_OLDEST)
 *                          oldest objects held, free count and low water
 *   /turbomem/track,<pool>,on|off  switch held-object tracking (the one
 *                          command that changes state: a debugging switch
 *                          meant to be thrown on a running application)
 *
 * Handlers run in the telemetry thread (no lcore id).
 */

/* The handlers call the driver's own experimental API (as DPDK's drivers do). */
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API 1
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>
#include <rte_version.h>

#include "turbomem_private.h"
#include "turbomem_track.h"

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
	/*
	 * The driver's own memory for the pool, as recorded when allocated
	 * (turbomem_pool.drv_bytes), and per object rounded to a byte
	 * (telemetry has no fractions): what turbomem_bench's memory row
	 * measures from the heaps, less the heaps' element headers.
	 */
	drv = rte_atomic_load_explicit(&tp->drv_bytes, rte_memory_order_relaxed);
	tm_tel_add_u64(d, "driver_bytes", drv);
	tm_tel_add_u64(d, "driver_bytes_per_obj",
		(drv + mp->size / 2) / RTE_MAX(mp->size, 1u));
	turbomem_tel_mem(d, mp);
	return 0;
}

/* Default number of oldest objects listed by /turbomem/held. */
#define TM_TEL_HELD_OLDEST 10

/* A reply naming what was wrong with the request. */
static int __rte_format_printf(2, 3)
turbomem_tel_error(struct rte_tel_data *d, const char *fmt, ...)
{
	char msg[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

/* The pool named by the first len characters of params, or an error reply. */
static struct rte_mempool *
turbomem_tel_pool(struct rte_tel_data *d, const char *params, size_t len)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;

	if (len == 0) {
		turbomem_tel_error(d, "expected <pool>,...: no pool name");
		return NULL;
	}
	if (len >= sizeof(name)) {
		turbomem_tel_error(d, "unknown pool \"%.*s\": names have at most %zu characters",
			(int)RTE_MIN(len, (size_t)60), params,
			sizeof(name) - 1);
		return NULL;
	}
	memcpy(name, params, len);
	name[len] = '\0';
	mp = rte_mempool_lookup(name);
	if (mp == NULL)
		turbomem_tel_error(d, "unknown pool \"%s\"", name);
	else if (turbomem_pool_of(mp) == NULL)
		turbomem_tel_error(d, "pool \"%s\" is not a turbomem pool",
			name);
	return turbomem_pool_of(mp) != NULL ? mp : NULL;
}

static void
turbomem_tel_holder(struct rte_tel_data *d, unsigned int i,
		const struct rte_pmd_turbomem_holder *h)
{
	struct rte_tel_data *m = rte_tel_data_alloc();
	char name[RTE_TEL_MAX_STRING_LEN], key[32];

	if (m == NULL)
		return;
	rte_tel_data_start_dict(m);
	turbomem_track_holder_name(name, sizeof(name), h->kind, h->id, h->pid,
			h->dead);
	rte_tel_data_add_dict_string(m, "holder", name);
	tm_tel_add_u64(m, "count", h->count);
	if (h->kind == RTE_PMD_TURBOMEM_HOLDER_LCORE ||
			h->kind == RTE_PMD_TURBOMEM_HOLDER_THREAD) {
		rte_tel_data_add_dict_int(m, "pid", h->pid);
		rte_tel_data_add_dict_int(m, "dead", h->dead);
		tm_tel_add_u64(m, "age_p50_us", h->age_p50_us);
		tm_tel_add_u64(m, "age_p90_us", h->age_p90_us);
		tm_tel_add_u64(m, "age_max_us", h->age_max_us);
	}
	snprintf(key, sizeof(key), "holder/%u", i);
	/* keep = 0: telemetry frees m with d. */
	if (rte_tel_data_add_dict_container(d, key, m, 0) != 0)
		rte_tel_data_free(m);
}

static void
turbomem_tel_oldest(struct rte_tel_data *d, unsigned int i,
		const struct rte_pmd_turbomem_held_obj *o)
{
	struct rte_tel_data *m = rte_tel_data_alloc();
	char name[RTE_TEL_MAX_STRING_LEN], key[32];

	if (m == NULL)
		return;
	rte_tel_data_start_dict(m);
	snprintf(name, sizeof(name), "%p", o->obj);
	rte_tel_data_add_dict_string(m, "addr", name);
	tm_tel_add_u64(m, "index", o->index);
	turbomem_track_holder_name(name, sizeof(name), o->kind, o->id, o->pid,
			o->dead);
	rte_tel_data_add_dict_string(m, "holder", name);
	tm_tel_add_u64(m, "age_us", o->age_us);
	snprintf(key, sizeof(key), "oldest/%u", i);
	if (rte_tel_data_add_dict_container(d, key, m, 0) != 0)
		rte_tel_data_free(m);
}

static int
turbomem_tel_held(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct rte_pmd_turbomem_held *r;
	unsigned long nb = TM_TEL_HELD_OLDEST;
	const char *comma;
	struct rte_mempool *mp;
	unsigned int i;
	char *end;
	int ret;

	if (params == NULL || params[0] == '\0')
		return turbomem_tel_error(d, "expected <pool>[,N]: no pool name");
	comma = strchr(params, ',');
	if (comma != NULL) {
		errno = 0;
		nb = strtoul(comma + 1, &end, 10);
		if (comma[1] < '0' || comma[1] > '9' || *end != '\0' ||
				errno != 0 ||
				nb > RTE_PMD_TURBOMEM_HELD_MAX_OLDEST)
			return turbomem_tel_error(d,
				"bad N \"%.40s\": expected 0 to %u",
				comma + 1, RTE_PMD_TURBOMEM_HELD_MAX_OLDEST);
	}
	mp = turbomem_tel_pool(d, params, comma != NULL ?
			(size_t)(comma - params) : strlen(params));
	if (mp == NULL)
		return 0;
	r = malloc(sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	ret = rte_pmd_turbomem_held_get(mp, nb, r);
	if (ret < 0) {
		free(r);
		return ret;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mp->name);
	rte_tel_data_add_dict_int(d, "tracking", r->tracking);
	tm_tel_add_u64(d, "size", r->size);
	tm_tel_add_u64(d, "free", r->free_count);
	if (r->low_water != UINT32_MAX)
		tm_tel_add_u64(d, "low_water", r->low_water);
	tm_tel_add_u64(d, "threshold", r->threshold);
	tm_tel_add_u64(d, "in_cache", r->cache_count);
	tm_tel_add_u64(d, "in_use", r->in_use);
	tm_tel_add_u64(d, "unknown", r->unknown);
	tm_tel_add_u64(d, "tracking_us", r->tracking_us);
	tm_tel_add_u64(d, "holders", r->nb_holders_total);
	for (i = 0; i < r->nb_holders; i++)
		turbomem_tel_holder(d, i, &r->holders[i]);
	for (i = 0; i < r->nb_oldest; i++)
		turbomem_tel_oldest(d, i, &r->oldest[i]);
	free(r);
	return 0;
}

static int
turbomem_tel_track(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	const char *comma = params != NULL ? strchr(params, ',') : NULL;
	struct rte_mempool *mp;
	int on, ret;

	if (comma == NULL)
		return turbomem_tel_error(d, "expected <pool>,on|off");
	mp = turbomem_tel_pool(d, params, (size_t)(comma - params));
	if (mp == NULL)
		return 0;
	if (strcmp(comma + 1, "on") == 0)
		on = 1;
	else if (strcmp(comma + 1, "off") == 0)
		on = 0;
	else
		return turbomem_tel_error(d, "bad switch \"%.40s\": expected on or off",
			comma + 1);
	ret = rte_pmd_turbomem_track_set(mp, on);
	if (ret < 0)
		return turbomem_tel_error(d, "cannot switch tracking: %s",
			strerror(-ret));
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mp->name);
	rte_tel_data_add_dict_int(d, "tracking", on);
	return 0;
}

RTE_INIT(turbomem_telemetry_init)
{
	rte_telemetry_register_cmd("/turbomem/list", turbomem_tel_list,
			"Returns the names of the turbomem mempools. No parameters");
	rte_telemetry_register_cmd("/turbomem/info", turbomem_tel_info,
			"Returns size, counts, statistics and memory report of a turbomem mempool. Parameters: pool name");
	/* The help text is limited to RTE_TEL_MAX_STRING_LEN. */
	rte_telemetry_register_cmd("/turbomem/held", turbomem_tel_held,
			"Returns who holds a turbomem mempool's objects (needs tracking). Parameters: pool name[,N oldest]");
	rte_telemetry_register_cmd("/turbomem/track", turbomem_tel_track,
			"Switches held-object tracking of a turbomem mempool. Parameters: pool name,on|off");
}
