/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/* Ownership ledger and census of the stress tests (test_ledger.h). */

#include <stdio.h>
#include <stdlib.h>

#include <rte_lcore.h>

#include "test.h"
#include "test_ledger.h"

void
tm_ledger_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct tm_test_obj **by_serial = arg, *o = obj;

	RTE_SET_USED(mp);
	atomic_init(&o->owner, TM_OWNER_FREE);
	o->serial = i;
	o->payload = 0;
	if (by_serial != NULL)
		by_serial[i] = o;
}

#define CENSUS_FAIL(c, ...) do { \
	if ((c)->errors++ < 10) \
		printf("census: " __VA_ARGS__); \
} while (0)

int
tm_census(struct rte_mempool *mp, struct tm_test_obj * const *by_serial,
		unsigned int want, struct tm_census *c)
{
	uint8_t *seen = calloc(mp->size, 1);
	void **all = calloc(mp->size + 1, sizeof(void *));
	struct tm_test_obj *o;
	unsigned int i;

	c->drained = 0;
	c->errors = 0;
	if (seen == NULL || all == NULL) {
		CENSUS_FAIL(c, "no memory\n");
		goto out;
	}
	for (i = 0; i < RTE_MAX_LCORE && mp->cache_size != 0; i++)
		rte_mempool_cache_flush(rte_mempool_default_cache(mp, i), mp);
	/* The raw count, not rte_mempool_avail_count(), which clamps. */
	if (want != 0 && tm_test_raw_count(mp) != want)
		CENSUS_FAIL(c, "driver count %u at rest, want %u\n",
			tm_test_raw_count(mp), want);
	while (c->drained <= mp->size &&
			rte_mempool_ops_dequeue_bulk(mp, (void **)&o, 1) == 0) {
		all[c->drained++] = o;
		if (o->serial >= mp->size || seen[o->serial]++ ||
				(by_serial != NULL && by_serial[o->serial] != o)) {
			CENSUS_FAIL(c, "object %p (%u) twice or foreign\n",
				(void *)o, o->serial);
			continue;
		}
		if (atomic_load(&o->owner) != TM_OWNER_FREE)
			CENSUS_FAIL(c, "object %u in the pool but owned by %u\n",
				o->serial, atomic_load(&o->owner));
	}
	if (want != 0 && c->drained != want)
		CENSUS_FAIL(c, "drained %u of %u\n", c->drained, want);
	if (tm_test_raw_count(mp) != 0)
		CENSUS_FAIL(c, "count %u after draining\n",
			tm_test_raw_count(mp));
	for (i = 0; i < c->drained; i++)
		rte_mempool_ops_enqueue_bulk(mp, &all[i], 1);
	if (tm_test_raw_count(mp) != c->drained)
		CENSUS_FAIL(c, "count %u after the refill of %u\n",
			tm_test_raw_count(mp), c->drained);
out:
	free(seen);
	free(all);
	return c->errors == 0 ? 0 : -1;
}
