/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Telemetry commands of held-object tracking (turbomem_track.h):
 *   /turbomem/held,<pool>[,N]  who holds the objects: holders with counts
 *                          and ages, the N (default 10, at most
 *                          RTE_PMD_TURBOMEM_HELD_MAX_OLDEST) oldest objects
 *                          held, free count and low water
 *   /turbomem/track,<pool>,on|off  switch held-object tracking (the one
 *                          command that changes state: a debugging switch
 *                          meant to be thrown on a running application)
 *
 * Handlers run in the telemetry thread (no lcore id).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "turbomem_private.h"
#include "turbomem_track.h"

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
	rte_tel_data_add_dict_uint(m, "count", h->count);
	if (h->kind == RTE_PMD_TURBOMEM_HOLDER_LCORE ||
			h->kind == RTE_PMD_TURBOMEM_HOLDER_THREAD) {
		rte_tel_data_add_dict_int(m, "pid", h->pid);
		rte_tel_data_add_dict_int(m, "dead", h->dead);
		rte_tel_data_add_dict_uint(m, "age_p50_us", h->age_p50_us);
		rte_tel_data_add_dict_uint(m, "age_p90_us", h->age_p90_us);
		rte_tel_data_add_dict_uint(m, "age_max_us", h->age_max_us);
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
	rte_tel_data_add_dict_uint(m, "index", o->index);
	turbomem_track_holder_name(name, sizeof(name), o->kind, o->id, o->pid,
			o->dead);
	rte_tel_data_add_dict_string(m, "holder", name);
	rte_tel_data_add_dict_uint(m, "age_us", o->age_us);
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
	rte_tel_data_add_dict_uint(d, "size", r->size);
	rte_tel_data_add_dict_uint(d, "free", r->free_count);
	if (r->low_water != UINT32_MAX)
		rte_tel_data_add_dict_uint(d, "low_water", r->low_water);
	rte_tel_data_add_dict_uint(d, "threshold", r->threshold);
	rte_tel_data_add_dict_uint(d, "in_cache", r->cache_count);
	rte_tel_data_add_dict_uint(d, "in_use", r->in_use);
	rte_tel_data_add_dict_uint(d, "unknown", r->unknown);
	rte_tel_data_add_dict_uint(d, "tracking_us", r->tracking_us);
	rte_tel_data_add_dict_uint(d, "holders", r->nb_holders_total);
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

RTE_INIT(turbomem_track_telemetry_init)
{
	/* The help text is limited to RTE_TEL_MAX_STRING_LEN. */
	rte_telemetry_register_cmd("/turbomem/held", turbomem_tel_held,
			"Returns who holds a turbomem mempool's objects (needs tracking). Parameters: pool name[,N oldest]");
	rte_telemetry_register_cmd("/turbomem/track", turbomem_tel_track,
			"Switches held-object tracking of a turbomem mempool. Parameters: pool name,on|off");
}
