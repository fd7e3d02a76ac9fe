/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Pool memory, configuration: a pool's own rte_pmd_turbomem_config, else
 * the process defaults of RTE_PMD_TURBOMEM_ENV, read once. What the
 * settings do: doc/guides/mempool/turbomem.rst, "Pool Configuration" and
 * "Pool Memory".
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "turbomem_private.h"

/* Process-wide defaults from RTE_PMD_TURBOMEM_ENV, read once. */
static struct rte_pmd_turbomem_config tm_env_cfg = {
	.thp = RTE_PMD_TURBOMEM_THP_ON,
	.numa = RTE_PMD_TURBOMEM_NUMA_BIND,
	.track = RTE_PMD_TURBOMEM_TRACK_OFF,
};
static char tm_env_bad[64];
static pthread_once_t tm_env_once = PTHREAD_ONCE_INIT;

static const char * const tm_thp_names[] = {
	[RTE_PMD_TURBOMEM_THP_OFF] = "off",
	[RTE_PMD_TURBOMEM_THP_ON] = "on",
	[RTE_PMD_TURBOMEM_THP_REQUIRED] = "required",
};
static const char * const tm_track_names[] = {
	[RTE_PMD_TURBOMEM_TRACK_OFF] = "off",
	[RTE_PMD_TURBOMEM_TRACK_ON] = "on",
};
static const char * const tm_numa_names[] = {
	[RTE_PMD_TURBOMEM_NUMA_NONE] = "none",
	[RTE_PMD_TURBOMEM_NUMA_PREFERRED] = "preferred",
	[RTE_PMD_TURBOMEM_NUMA_BIND] = "bind",
};

/* Index of val in names[1..n), or -1. */
static int
tm_name_idx(const char * const *names, int n, const char *val)
{
	int i;

	for (i = 1; i < n; i++)
		if (strcmp(names[i], val) == 0)
			return i;
	return -1;
}

static void
tm_env_read(void)
{
	const char *s = getenv(RTE_PMD_TURBOMEM_ENV);
	char buf[128], *tok, *save = NULL, *val;
	int v;

	if (s == NULL)
		return;
	strlcpy(buf, s, sizeof(buf));
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		val = strchr(tok, '=');
		v = -1;
		if (val != NULL) {
			*val++ = '\0';
			if (strcmp(tok, "thp") == 0) {
				v = tm_name_idx(tm_thp_names,
						RTE_DIM(tm_thp_names), val);
				if (v > 0)
					tm_env_cfg.thp = v;
			} else if (strcmp(tok, "numa") == 0) {
				v = tm_name_idx(tm_numa_names,
						RTE_DIM(tm_numa_names), val);
				if (v > 0)
					tm_env_cfg.numa = v;
			} else if (strcmp(tok, "track") == 0) {
				v = tm_name_idx(tm_track_names,
						RTE_DIM(tm_track_names), val);
				if (v > 0)
					tm_env_cfg.track = v;
			}
		}
		if (v < 0) {
			snprintf(tm_env_bad, sizeof(tm_env_bad), "%s%s%s", tok,
				val != NULL ? "=" : "", val != NULL ? val : "");
			return;
		}
	}
}

int
turbomem_mem_conf_resolve(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_config *cfg)
{
	const struct rte_pmd_turbomem_config *user = mp->pool_config;

	pthread_once(&tm_env_once, tm_env_read);
	if (tm_env_bad[0] != '\0') {
		TM_LOG(ERR, "pool %s: bad %s entry \"%s\" (expected thp=off|on|required,numa=none|preferred|bind,track=off|on)",
			mp->name, RTE_PMD_TURBOMEM_ENV, tm_env_bad);
		return -EINVAL;
	}
	*cfg = tm_env_cfg;
	if (user == NULL)
		return 0;
	if ((unsigned int)user->thp > RTE_PMD_TURBOMEM_THP_REQUIRED ||
			(unsigned int)user->numa > RTE_PMD_TURBOMEM_NUMA_BIND ||
			(unsigned int)user->track > RTE_PMD_TURBOMEM_TRACK_ON) {
		TM_LOG(ERR, "pool %s: bad configuration thp=%d (max %d), numa=%d (max %d), track=%d (max %d)",
			mp->name, (int)user->thp, RTE_PMD_TURBOMEM_THP_REQUIRED,
			(int)user->numa, RTE_PMD_TURBOMEM_NUMA_BIND,
			(int)user->track, RTE_PMD_TURBOMEM_TRACK_ON);
		return -EINVAL;
	}
	if (user->thp != RTE_PMD_TURBOMEM_THP_DEFAULT)
		cfg->thp = user->thp;
	if (user->numa != RTE_PMD_TURBOMEM_NUMA_DEFAULT)
		cfg->numa = user->numa;
	if (user->track != RTE_PMD_TURBOMEM_TRACK_DEFAULT)
		cfg->track = user->track;
	return 0;
}
