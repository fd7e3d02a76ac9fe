/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Public statistics API (rte_pmd_turbomem_stats_*): sums the per-lcore
 * and per-thread blocks that the fast path fills (turbomem_stats.h).
 */

#include <errno.h>
#include <string.h>

#include <eal_export.h>

#include "turbomem_private.h"

/* Plain loads of counters written plainly (turbomem_stats.h). */
static void
turbomem_stats_sum(struct rte_pmd_turbomem_stats *sum,
		const struct turbomem_stats_block *b)
{
	sum->get_calls += b->get_calls;
	sum->get_objs += b->get_objs;
	sum->get_fails += b->get_fails;
	sum->put_calls += b->put_calls;
	sum->put_objs += b->put_objs;
	sum->cas_retries += b->cas_retries;
}

/*
 * Plain stores: a concurrent owner may overwrite them (documented). The
 * lcore's "got" and stash and a thread block's owner are not statistics
 * and stay.
 */
static void
turbomem_stats_clear(struct turbomem_stats_block *b)
{
	b->get_calls = 0;
	b->get_objs = 0;
	b->get_fails = 0;
	b->put_calls = 0;
	b->put_objs = 0;
	b->cas_retries = 0;
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
	for (i = 0; i < TURBOMEM_STATS_THREADS; i++)
		turbomem_stats_sum(stats, &tp->stats->thread[i]);
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
	for (i = 0; i < TURBOMEM_STATS_THREADS; i++)
		turbomem_stats_clear(&tp->stats->thread[i]);
	turbomem_stats_clear(&tp->stats->any);
	return 0;
}
