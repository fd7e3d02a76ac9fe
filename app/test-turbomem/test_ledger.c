/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/* Object set, ownership ledger and census of the driver tests (test_ledger.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void
tm_objset_cb(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct tm_objset *s = arg;

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	s->objs[s->nb++] = obj;
}

static int
tm_cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

int
tm_objset_init(struct tm_objset *s, struct rte_mempool *mp)
{
	s->nb = 0;
	s->objs = calloc(mp->size, sizeof(void *));
	s->seen = calloc(mp->size, 1);
	if (s->objs == NULL || s->seen == NULL)
		return -1;
	rte_mempool_obj_iter(mp, tm_objset_cb, s);
	qsort(s->objs, s->nb, sizeof(void *), tm_cmp_ptr);
	return 0;
}

void
tm_objset_fini(struct tm_objset *s)
{
	free(s->objs);
	free(s->seen);
	s->objs = NULL;
	s->seen = NULL;
}

void
tm_objset_clear(struct tm_objset *s)
{
	memset(s->seen, 0, s->nb);
}

int
tm_objset_mark(struct tm_objset *s, const void *obj)
{
	void **p = bsearch(&obj, s->objs, s->nb, sizeof(void *), tm_cmp_ptr);

	if (p == NULL) {
		printf("object %p is not an object of the pool\n", obj);
		return -1;
	}
	if (s->seen[p - s->objs]++ != 0) {
		printf("object %p handed out twice\n", obj);
		return -1;
	}
	return 0;
}

#define CENSUS_FAIL(c, ...) do { \
	if ((c)->errors++ < 10) \
		printf("census: " __VA_ARGS__); \
} while (0)

int
tm_census(struct rte_mempool *mp, bool ledger, unsigned int want,
		struct tm_census *c)
{
	struct tm_objset set = { 0 };
	void **all = calloc(mp->size + 1, sizeof(void *));
	struct tm_test_obj *o;
	unsigned int i;

	c->drained = 0;
	c->errors = 0;
	c->left = 0;
	c->refilled = 0;
	if (all == NULL || tm_objset_init(&set, mp) < 0) {
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
		if (tm_objset_mark(&set, o) < 0) {
			CENSUS_FAIL(c, "object %p twice or foreign\n",
				(void *)o);
			continue;
		}
		if (ledger && atomic_load(&o->owner) != TM_OWNER_FREE)
			CENSUS_FAIL(c, "object %u in the pool but owned by %u\n",
				o->serial, atomic_load(&o->owner));
	}
	if (want != 0 && c->drained != want)
		CENSUS_FAIL(c, "drained %u of %u\n", c->drained, want);
	/* Where a process was killed, the caller bounds it (want 0). */
	c->left = tm_test_raw_count(mp);
	if (want != 0 && c->left != 0)
		CENSUS_FAIL(c, "count %u after draining\n", c->left);
	for (i = 0; i < c->drained; i++)
		rte_mempool_ops_enqueue_bulk(mp, &all[i], 1);
	c->refilled = tm_test_raw_count(mp);
	if (want != 0 && c->refilled != c->drained)
		CENSUS_FAIL(c, "count %u after the refill of %u\n",
			c->refilled, c->drained);
out:
	tm_objset_fini(&set);
	free(all);
	return c->errors == 0 ? 0 : -1;
}
