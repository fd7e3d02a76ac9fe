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

/* The blocks' sums, since the pool was made. */
static void
turbomem_stats_total(const struct turbomem_stats *s,
		struct rte_pmd_turbomem_stats *sum)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < RTE_MAX_LCORE; i++)
		turbomem_stats_sum(sum, &s->lcore[i]);
	for (i = 0; i < TURBOMEM_STATS_THREADS; i++)
		turbomem_stats_sum(sum, &s->thread[i]);
	turbomem_stats_sum(sum, &s->any);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_stats_get, 26.07)
int
rte_pmd_turbomem_stats_get(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *stats)
{
	const struct turbomem_pool *tp = turbomem_pool_of(mp);
	const struct turbomem_stats_block *b;

	if (tp == NULL || stats == NULL)
		return -EINVAL;
	turbomem_stats_total(tp->stats, stats);
	b = &tp->stats->base;
	stats->get_calls -= b->get_calls;
	stats->get_objs -= b->get_objs;
	stats->get_fails -= b->get_fails;
	stats->put_calls -= b->put_calls;
	stats->put_objs -= b->put_objs;
	stats->cas_retries -= b->cas_retries;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_stats_reset, 26.07)
int
rte_pmd_turbomem_stats_reset(struct rte_mempool *mp)
{
	struct turbomem_pool *tp = turbomem_pool_of(mp);
	struct turbomem_stats_block *b;
	struct rte_pmd_turbomem_stats t;

	if (tp == NULL)
		return -EINVAL;
	/*
	 * A baseline, not cleared blocks: the writers' lines stay theirs,
	 * and the object counts stay whole for the count of objects.
	 */
	turbomem_stats_total(tp->stats, &t);
	b = &tp->stats->base;
	b->get_calls = t.get_calls;
	b->get_objs = t.get_objs;
	b->get_fails = t.get_fails;
	b->put_calls = t.put_calls;
	b->put_objs = t.put_objs;
	b->cas_retries = t.cas_retries;
	return 0;
}
