/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include "tm_lifo.h"

int
tm_lifo_init(struct tm_lifo *l, uint32_t capacity)
{
	uint32_t i, first, nb;

	if (capacity == 0 || capacity > TM_LIFO_MAX_CAPACITY)
		return -EINVAL;
	l->capacity = capacity;
	l->nb_blocks = tm_lifo_nb_blocks(capacity);
	l->blocks_off = tm_lifo_blocks_off(capacity);
	/* A stale walk reads no indeterminate link or block. Relaxed: alone. */
	for (i = 0; i < capacity; i++) {
		rte_atomic_store_explicit(&l->node[i].link,
				tm_lifo_ref(TM_LIFO_NIL, 0), rte_memory_order_relaxed);
		rte_atomic_store_explicit(&l->node[i].block, TM_LIFO_NIL,
				rte_memory_order_relaxed);
		l->node[i].obj = NULL;
	}
	/* Every block on the free list, in batches of TM_LIFO_BATCH. */
	rte_atomic_store_explicit(&l->free, tm_lifo_pack(TM_LIFO_NIL, 0), rte_memory_order_relaxed);
	for (first = 0; first < l->nb_blocks; first += nb) {
		uint32_t blk[TM_LIFO_BATCH] = { 0 };

		nb = l->nb_blocks - first < TM_LIFO_BATCH ? l->nb_blocks - first : TM_LIFO_BATCH;
		for (i = 0; i < nb; i++)
			blk[i] = first + i;
		tm_lifo_batch_give(l, blk, nb);
	}
	rte_atomic_store_explicit(&l->head, tm_lifo_pack(tm_lifo_ref(TM_LIFO_NIL, 0), 0),
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&l->puts, TM_LIFO_PUTS_EMPTY,
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&l->transit, 0, rte_memory_order_relaxed);
	return 0;
}
