/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Public statistics API (rte_pmd_turbomem_stats_*): sums the per-lcore
 * blocks that the fast path fills (turbomem_stats.h).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>

#include "turbomem_private.h"

static void
turbomem_stats_sum(struct rte_pmd_turbomem_stats *sum,
		const struct turbomem_stats_block *b)
{
	/* Relaxed loads pair with the relaxed stores of the owners: no tearing. */
	sum->get_calls += __atomic_load_n(&b->get_calls, __ATOMIC_RELAXED);
	sum->get_objs += __atomic_load_n(&b->get_objs, __ATOMIC_RELAXED);
	sum->get_fails += __atomic_load_n(&b->get_fails, __ATOMIC_RELAXED);
	sum->put_calls += __atomic_load_n(&b->put_calls, __ATOMIC_RELAXED);
	sum->put_objs += __atomic_load_n(&b->put_objs, __ATOMIC_RELAXED);
	sum->cas_retries += __atomic_load_n(&b->cas_retries, __ATOMIC_RELAXED);
}

static void
turbomem_stats_clear(struct turbomem_stats_block *b)
{
	/* Relaxed stores: a concurrent owner may overwrite them (documented). */
	__atomic_store_n(&b->get_calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->get_objs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->get_fails, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->put_calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->put_objs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&b->cas_retries, 0, __ATOMIC_RELAXED);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_stats_get, 26.07)
int
rte_pmd_turbomem_stats_get(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *stats)
{
	const struct turbomem_pool *tp = turbomem_pool_of(mp);
	unsigned int i;

	if (tp == NULL || stats == NULL)
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	for (i = 0; i < RTE_MAX_LCORE; i++)
		turbomem_stats_sum(stats, &tp->stats->lcore[i]);
	turbomem_stats_sum(stats, &tp->stats->any);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_stats_reset, 26.07)
int
rte_pmd_turbomem_stats_reset(struct rte_mempool *mp)
{
	struct turbomem_pool *tp = turbomem_pool_of(mp);
	unsigned int i;

	if (tp == NULL)
		return -EINVAL;
	for (i = 0; i < RTE_MAX_LCORE; i++)
		turbomem_stats_clear(&tp->stats->lcore[i]);
	turbomem_stats_clear(&tp->stats->any);
	return 0;
}
