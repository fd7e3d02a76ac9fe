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
	uint64_t get_one = rte_atomic_load_explicit(&b->get_one,
			rte_memory_order_relaxed);
	uint64_t put_one = rte_atomic_load_explicit(&b->put_one,
			rte_memory_order_relaxed);

	/* A one-object get or put is a call and an object (turbomem_stats.h). */
	sum->get_calls += get_one + rte_atomic_load_explicit(&b->get_calls,
			rte_memory_order_relaxed);
	sum->get_objs += get_one + rte_atomic_load_explicit(&b->get_objs,
			rte_memory_order_relaxed);
	sum->get_fails += rte_atomic_load_explicit(&b->get_fails,
			rte_memory_order_relaxed);
	sum->put_calls += put_one + rte_atomic_load_explicit(&b->put_calls,
			rte_memory_order_relaxed);
	sum->put_objs += put_one + rte_atomic_load_explicit(&b->put_objs,
			rte_memory_order_relaxed);
	sum->cas_retries += rte_atomic_load_explicit(&b->cas_retries,
			rte_memory_order_relaxed);
}

static void
turbomem_stats_clear(struct turbomem_stats_block *b)
{
	/* Relaxed stores: a concurrent owner may overwrite them (documented). */
	rte_atomic_store_explicit(&b->get_calls, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->get_objs, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->get_fails, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->put_calls, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->put_objs, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->cas_retries, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->get_one, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&b->put_one, 0, rte_memory_order_relaxed);
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
