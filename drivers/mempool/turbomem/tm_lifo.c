/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include "tm_lifo.h"

int
tm_lifo_init(struct tm_lifo *l, uint32_t capacity)
{
	uint32_t i, j;

	if (capacity == 0 || capacity > TM_LIFO_MAX_CAPACITY)
		return -EINVAL;

	l->capacity = capacity;
	l->reserved = 0;
	/*
	 * A slot is filled by the push that publishes it; links and hints
	 * are set so that a stale walk never reads an indeterminate value.
	 * Not concurrent with anything: relaxed stores.
	 */
	for (i = 0; i < capacity; i++) {
		rte_atomic_store_explicit(&l->slot[i].link,
				tm_lifo_ref(TM_LIFO_NIL, 0),
				rte_memory_order_relaxed);
		for (j = 0; j < TM_LIFO_AHEAD - 1; j++)
			rte_atomic_store_explicit(&l->slot[i].hint[j],
					TM_LIFO_NIL, rte_memory_order_relaxed);
	}
	rte_atomic_store_explicit(&l->head,
			tm_lifo_pack(tm_lifo_ref(TM_LIFO_NIL, 0), 0),
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&l->puts, tm_lifo_puts_empty(),
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&l->transit, 0, rte_memory_order_relaxed);
	return 0;
}
