/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * memory: the bytes of handler memory per object of a pool, measured
 * around its creation, not computed from a handler's layout. Runs on the
 * main lcore, once per handler (no rounds: the figure does not vary).
 *
 * Per element size (64 bytes, and 2176, an mbuf's), one pool of
 * --deep-n objects (262143 by default), no cache: the bytes allocated
 * from every DPDK malloc heap (rte_malloc_get_socket_stats, the NUMA
 * sockets and the external heaps holding a memzone) before
 * rte_mempool_create_empty() and after rte_mempool_populate_default(),
 * less the mempool's own memzones (rte_memzone_walk: its header "MP_<name>"
 * and its chunks "MP_<name>_<n>", whose length holds the objects with
 * their header and trailer and the page padding) and chunk headers. What
 * is left is the handler's: ring_mp_mc's ring (8 bytes a slot), stack's
 * (8) and lf_stack's (16) arrays, turbomem's LIFO, object map and
 * statistics (/turbomem/info's driver_bytes), plus the heaps' element
 * headers (64 bytes or so an allocation, nothing per object).
 *
 * In --no-huge mode turbomem gives the pool a heap of its own in 2 MB
 * THP (rte_malloc_heap_create: an external heap, found through its
 * memzone, so the stats see it); the pool's memzone is allocated there
 * and subtracted like any pool's. The rest of that heap, the region's
 * rounding up to 2 MB pages, is no allocation: it is in the whole-pool
 * figure (a new heap counts whole) and in extra as own_heap_unused, not
 * in bytes per object, a per-pool constant under 2 MB, not per object.
 *
 * Row: bytes_per_obj (the main figure); extra: elt_size, objs, pool_mb
 * (every heap byte the pool took: mempool, handler, new heaps whole),
 * handler_bytes, mempool_bytes, own_heap_unused.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "test.h"
#include "bench_common.h"

static const unsigned int mem_elts[] = { 64, 2176 };

static int
mem_heap_find(const struct bench_mem_snap *s, int socket)
{
	unsigned int i;

	for (i = 0; i < s->nb_heaps; i++)
		if (s->socket[i] == socket)
			return (int)i;
	return -1;
}

static void
mem_heap_add(struct bench_mem_snap *s, int socket)
{
	struct rte_malloc_socket_stats st;
	unsigned int i = s->nb_heaps;

	if (socket < 0 || i == BENCH_MEM_MAX_HEAPS ||
			mem_heap_find(s, socket) >= 0)
		return;
	memset(&st, 0, sizeof(st));
	if (rte_malloc_get_socket_stats(socket, &st) != 0)
		return;
	s->socket[i] = socket;
	s->alloc[i] = st.heap_allocsz_bytes;
	s->total[i] = st.heap_totalsz_bytes;
	s->nb_heaps++;
}

static void
mem_mz_heap(const struct rte_memzone *mz, void *arg)
{
	mem_heap_add(arg, mz->socket_id);
}

void
bench_mem_snapshot(struct bench_mem_snap *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < rte_socket_count(); i++)
		mem_heap_add(s, rte_socket_id_by_idx(i));
	/* External heaps (turbomem's own in --no-huge) hold a memzone. */
	rte_memzone_walk(mem_mz_heap, s);
}

struct mem_mz_own {
	char name[RTE_MEMZONE_NAMESIZE];
	size_t len, n;
	uint64_t bytes;
};

/* The mempool's memzones: "MP_<name>" and its chunks "MP_<name>_<n>". */
static void
mem_mz_own(const struct rte_memzone *mz, void *arg)
{
	struct mem_mz_own *o = arg;

	if (strncmp(mz->name, o->name, o->len) != 0)
		return;
	if (mz->name[o->len] == '\0' || (mz->name[o->len] == '_' &&
			strspn(mz->name + o->len + 1, "0123456789") ==
			strlen(mz->name + o->len + 1))) {
		o->bytes += mz->len;
		o->n++;
	}
}

void
bench_mem_use(const struct rte_mempool *mp, const struct bench_mem_snap *before,
		const struct bench_mem_snap *after, struct bench_mem_use *u)
{
	struct mem_mz_own o;
	unsigned int i;
	int b;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < after->nb_heaps; i++) {
		b = mem_heap_find(before, after->socket[i]);
		if (b >= 0) {
			u->heap_delta += (int64_t)(after->alloc[i] -
				before->alloc[b]);
		} else {
			/* A heap made for the pool: all of it is the pool's. */
			u->heap_delta += (int64_t)after->alloc[i];
			u->new_heaps += after->total[i];
			u->own_heap_unused += after->total[i] -
				after->alloc[i];
		}
	}
	memset(&o, 0, sizeof(o));
	snprintf(o.name, sizeof(o.name), "%s%s", RTE_MEMPOOL_MZ_PREFIX,
		mp->name);
	o.len = strlen(o.name);
	rte_memzone_walk(mem_mz_own, &o);
	u->mempool_bytes = o.bytes + (uint64_t)mp->nb_mem_chunks *
		sizeof(struct rte_mempool_memhdr);
	u->handler_bytes = u->heap_delta - (int64_t)u->mempool_bytes;
	u->pool_bytes = u->heap_delta + (int64_t)u->own_heap_unused;
}

struct mem_ctx {
	unsigned int elt;
};

static int
mem_measure(struct bench_set *set, unsigned int h, unsigned int v __rte_unused,
		struct bench_row *row, double fig[BENCH_NB_FIGS])
{
	const struct mem_ctx *c = set->ctx;
	const char *handler = bench_opts.handlers[h];
	unsigned int n = bench_opts.deep_n;
	struct bench_mem_snap before, after;
	struct bench_mem_use u;
	struct rte_mempool *mp;
	char name[RTE_MEMPOOL_NAMESIZE];

	bench_progress("memory: %s, %u objects of %u bytes", handler, n,
		c->elt);
	snprintf(name, sizeof(name), "tm_mem_%u_%u", h, c->elt);
	bench_mem_snapshot(&before);
	mp = tm_test_pool(name, n, c->elt, 0, handler,
			(int)rte_socket_id(), true);
	if (mp == NULL) {
		snprintf(row->status, sizeof(row->status),
			"error: pool of %u x %u B not created", n, c->elt);
		return -1;
	}
	bench_mem_snapshot(&after);
	bench_mem_use(mp, &before, &after, &u);
	fig[BENCH_FIG_BYTES] = (double)u.handler_bytes / n;
	snprintf(row->extra, sizeof(row->extra),
		"elt_size=%u;objs=%u;pool_mb=%.2f;handler_bytes=%" PRId64
		";mempool_bytes=%" PRIu64 ";own_heap_unused=%" PRIu64,
		c->elt, n, (double)u.pool_bytes / (1 << 20), u.handler_bytes,
		u.mempool_bytes, u.own_heap_unused);
	bench_pool_backing(mp, row);
	rte_mempool_free(mp);
	return 0;
}

static int
bench_memory(const struct bench_scenario *sc)
{
	static struct bench_set set;
	static struct mem_ctx ctx;
	unsigned int i;
	int ret = TEST_SUCCESS;

	for (i = 0; i < RTE_DIM(mem_elts); i++) {
		struct bench_row *p = bench_set_init(&set, sc);

		ctx.elt = mem_elts[i];
		/* The object size tells the rows apart (as chunks' layout). */
		snprintf(p->layout, sizeof(p->layout), "%u B objs",
			mem_elts[i]);
		p->cache = 0;
		p->pool_size = bench_opts.deep_n;
		set.elt_size = mem_elts[i];
		set.measure = mem_measure;
		set.ctx = &ctx;
		if (bench_run_set(&set) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	return ret;
}

static struct bench_scenario memory_scenario = {
	.name = "memory",
	.run = bench_memory,
	.figure = BENCH_FIG_BYTES,
	.unit = "B/obj",
	.higher_is_better = false,
	.stat = BENCH_ONCE,
	.params = "{pool_size} objects, {mem}",
};
BENCH_SCENARIO(memory_scenario);
