/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include "tm_lifo.h"

int
tm_lifo_init(struct tm_lifo *l, uint32_t capacity)
{
	uint32_t i;

	if (!TM_CAS128_SUPPORTED)
		return -ENOTSUP;
	if (capacity == 0 || capacity > TM_LIFO_MAX_CAPACITY)
		return -EINVAL;

	l->capacity = capacity;
	l->reserved = 0;
	/*
	 * A slot is filled by the push that publishes it; the links are set
	 * so that a stale walk never reads an indeterminate value.
	 */
	for (i = 0; i < capacity; i++)
		atomic_init(&l->slot[i].link, tm_lifo_ref(TM_LIFO_NIL, 0));
	/* Not concurrent with anything: plain initialization. */
	l->head.top_count = tm_lifo_pack(tm_lifo_ref(TM_LIFO_NIL, 0), 0);
	l->head.tag = 0;
	return 0;
}
