/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * DPDK mempool ops glue: maps the mempool driver contract onto the
 * lock-free LIFO (tm_lifo.h) and the object index map (turbomem_objmap.h).
 *
 * Contract reminders (rte_mempool.h): dequeue is all-or-nothing, enqueue
 * must not fail, get_count counts only what the driver holds, free runs even
 * when alloc failed or never ran.
 */

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_build_config.h>
#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "turbomem_private.h"
#include "turbomem_debug.h"
#include "turbomem_track.h"

/* The public limit holds for either group size of the core. */
_Static_assert(RTE_PMD_TURBOMEM_MAX_OBJS <= TM_LIFO_MAX_CAPACITY,
	"the core cannot index that many objects");

/* Objects pushed per CAS while populating (stack buffer). */
#define TM_POPULATE_BATCH 256

/* An existing NUMA socket, an external heap's socket, or SOCKET_ID_ANY. */
static bool
turbomem_socket_valid(int socket_id)
{
	unsigned int i;

	if (socket_id == SOCKET_ID_ANY)
		return true;
	if (rte_malloc_heap_socket_is_external(socket_id) == 1)
		return true;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket_id)
			return true;
	return false;
}

static int
turbomem_alloc(struct rte_mempool *mp)
{
	struct turbomem_pool *tp;
	size_t hdr, size;
	int ret;

	if (mp->size == 0 || mp->size > RTE_PMD_TURBOMEM_MAX_OBJS) {
		TM_LOG(ERR, "pool %s: size %u outside [1, %u]",
			mp->name, mp->size, RTE_PMD_TURBOMEM_MAX_OBJS);
		return -EINVAL;
	}

	/* No silent fallback to another socket when one was asked for. */
	if (!turbomem_socket_valid(mp->socket_id)) {
		TM_LOG(ERR, "pool %s: socket %d does not exist (%u sockets, or SOCKET_ID_ANY)",
			mp->name, mp->socket_id, rte_socket_count());
		return -EINVAL;
	}

	hdr = RTE_ALIGN_CEIL(sizeof(*tp), RTE_CACHE_LINE_SIZE);
	size = hdr + sizeof(struct turbomem_stats) + tm_lifo_size(mp->size);
	tp = rte_zmalloc_socket("turbomem_pool", size, RTE_CACHE_LINE_SIZE,
			mp->socket_id);
	if (tp == NULL) {
		TM_LOG(ERR, "pool %s: cannot allocate %zu bytes of metadata on socket %d",
			mp->name, size, mp->socket_id);
		return -ENOMEM;
	}
	turbomem_bytes_add(tp, (int64_t)size);
	tp->stats = RTE_PTR_ADD(tp, hdr);
	tp->lifo = RTE_PTR_ADD(tp->stats, sizeof(struct turbomem_stats));
	tm_objmap_init(&tp->map, mp);
	tm_lifo_init(tp->lifo, mp->size);
	ret = turbomem_mem_alloc(mp, tp);
	if (ret < 0) {
		rte_free(tp);
		return ret;
	}
	ret = turbomem_track_init(mp, tp);
	if (ret < 0) {
		turbomem_mem_free(mp, tp);
		rte_free(tp);
		return ret;
	}
	mp->pool_data = tp;
	return 0;
}

static void
turbomem_free(struct rte_mempool *mp)
{
	struct turbomem_pool *tp = mp->pool_data;

	if (tp == NULL)
		return;
	tm_objmap_fini(&tp->map);
	turbomem_track_free(tp);
	turbomem_mem_free(mp, tp);
	TM_DEBUG_FREE(tp);
	rte_free(tp);
	mp->pool_data = NULL;
}

/*
 * Whether this lcore's puts go to the core's put list (tm_lifo.h, "Put
 * list"): an lcore that has got nothing from the pool, as the TX core of
 * a pipeline, which frees what another lcore allocates. Its puts then
 * leave the head's line to the lcores that get, which take the put list
 * when the head's runs short. An lcore that gets too pushes onto the
 * head, where its gets find what it just freed (locality); so does a
 * thread without an lcore id.
 */
static inline bool
turbomem_puts_only(struct turbomem_pool *tp, unsigned int lc)
{
	struct turbomem_stats_block *b;

	/* Plain loads: this lcore's own line, written by it alone. */
	if (lc >= RTE_MAX_LCORE)
		return false;
	b = &tp->stats->lcore[lc];
	if (likely(b->got != 0))
		return false;
	/* Its counts join the count of objects (turbomem_stats_avail). */
	if (unlikely(b->listed == 0))
		turbomem_stats_enlist(tp->stats, lc);
	return true;
}

/*
 * Lcore lc got objects from the pool (see turbomem_puts_only), on its
 * own statistics line, which the get writes anyway; its first get also
 * puts its block into the count of objects.
 */
static inline void
turbomem_got(struct turbomem_pool *tp, unsigned int lc)
{
	if (likely(lc < RTE_MAX_LCORE) &&
			unlikely(tp->stats->lcore[lc].got == 0)) {
		tp->stats->lcore[lc].got = 1;
		if (tp->stats->lcore[lc].listed == 0)
			turbomem_stats_enlist(tp->stats, lc);
	}
}

/*
 * A put and a get with block stash st (tm_lifo.h, "Blocks"): an lcore's,
 * beside the statistics it writes anyway, or for a thread without an
 * lcore id (lc LCORE_ID_ANY) one on its stack, given back after the op.
 */
static inline int
turbomem_put(struct turbomem_pool *tp, void * const *obj_table,
		unsigned int n, unsigned int lc, struct tm_lifo_stash *st)
{
	return turbomem_stats_count_put(tp->stats, lc, n, tm_lifo_push(tp->lifo,
			st, obj_table, n, tm_objmap_to_idx, &tp->map,
			turbomem_puts_only(tp, lc)));
}

static inline int
turbomem_get(struct rte_mempool *mp, void **obj_table, unsigned int n,
		unsigned int lc, struct tm_lifo_stash *st)
{
	struct turbomem_pool *tp = mp->pool_data;
	int ret = tm_lifo_pop(tp->lifo, st, obj_table, n);

	/* A take of the put list preempted: to DPDK, too few objects. */
	if (unlikely(ret == -EBUSY))
		ret = -ENOENT;
	TM_DEBUG_GET(mp, obj_table, n, ret);
	turbomem_got(tp, lc);
	ret = turbomem_stats_count_get(tp->stats, lc, n, ret);
	if (unlikely(turbomem_track_epoch(tp) != 0))
		return turbomem_track_get(tp, obj_table, n, ret);
	return ret;
}

static __rte_noinline int
turbomem_enqueue_thread(struct turbomem_pool *tp, void * const *obj_table, unsigned int n)
{
	struct tm_lifo_stash st = { .cnt = 0 };
	int ret = turbomem_put(tp, obj_table, n, LCORE_ID_ANY, &st);

	tm_lifo_stash_give(tp->lifo, &st);
	return ret;
}

static int
turbomem_enqueue(struct rte_mempool *mp, void * const *obj_table, unsigned int n)
{
	struct turbomem_pool *tp = mp->pool_data;
	unsigned int lc = rte_lcore_id();

	TM_DEBUG_PUT(mp, obj_table, n);
	if (unlikely(turbomem_track_epoch(tp) != 0))
		turbomem_track_put(mp, tp, obj_table, n);
	if (unlikely(lc >= RTE_MAX_LCORE))
		return turbomem_enqueue_thread(tp, obj_table, n);
	/* One object apart, without the group loop: bulk 1 gains (ab.sh). */
	if (n == 1)
		return turbomem_put(tp, obj_table, 1, lc, &tp->stats->lcore[lc].stash);
	return turbomem_put(tp, obj_table, n, lc, &tp->stats->lcore[lc].stash);
}

static __rte_noinline int
turbomem_dequeue_thread(struct rte_mempool *mp, void **obj_table, unsigned int n)
{
	struct tm_lifo_stash st = { .cnt = 0 };
	int ret = turbomem_get(mp, obj_table, n, LCORE_ID_ANY, &st);

	tm_lifo_stash_give(((struct turbomem_pool *)mp->pool_data)->lifo, &st);
	return ret;
}

static int
turbomem_dequeue(struct rte_mempool *mp, void **obj_table, unsigned int n)
{
	struct turbomem_pool *tp = mp->pool_data;
	unsigned int lc = rte_lcore_id();

	if (unlikely(lc >= RTE_MAX_LCORE))
		return turbomem_dequeue_thread(mp, obj_table, n);
	/* One object apart, without the walk's loop: bulk 1 gains (ab.sh). */
	if (n == 1)
		return turbomem_get(mp, obj_table, 1, lc, &tp->stats->lcore[lc].stash);
	return turbomem_get(mp, obj_table, n, lc, &tp->stats->lcore[lc].stash);
}

static unsigned int
turbomem_get_count(const struct rte_mempool *mp)
{
	return turbomem_count(mp->pool_data);
}

/*
 * Place objects exactly as rte_mempool_op_populate_helper() would (so the
 * default calc_mem_size stays right), record the chunk so that indices map
 * back to these addresses, and push them in batches. The first batch
 * takes back the part group that the previous chunk left on top, so that
 * a pool of many small chunks holds full groups as a pool of one does,
 * and half of its blocks stay free, not one block per chunk.
 */
static int
turbomem_populate(struct rte_mempool *mp, unsigned int max_objs, void *vaddr,
		rte_iova_t iova, size_t len, rte_mempool_populate_obj_cb_t *obj_cb,
		void *obj_cb_arg)
{
	struct turbomem_pool *tp = mp->pool_data;
	void *batch[TM_POPULATE_BATCH];
	struct tm_lifo_stash st = { .cnt = 0 };
	struct tm_chunk chunk;
	uint32_t room, n, i, nb;
	size_t pg_sz;
	int ret;

	turbomem_mem_chunk(mp, tp, vaddr, len);
	ret = rte_mempool_get_page_size(mp, &pg_sz);
	if (ret < 0)
		return ret;

	room = tp->lifo->capacity - tp->map.nb_objs;
	n = tm_objmap_plan(&tp->map, &chunk, vaddr, len, pg_sz,
			RTE_MIN(max_objs, room));
	if (n == 0)
		return 0;

	/* The index map must invert the placement; check both ends. */
	for (i = 0; i < n; i += n - 1) {
		void *obj = tm_chunk_obj(&tp->map, &chunk, i);
		uintptr_t elt = (uintptr_t)obj - tp->map.header_size;

		if (tm_chunk_idx(&tp->map, &chunk, elt) != i ||
				elt + tp->map.total_sz > chunk.end) {
			TM_LOG(ERR, "pool %s: object %u of chunk %p+%zu does not map back (element size %u, page %zu)",
				mp->name, i, vaddr, len, tp->map.total_sz,
				pg_sz);
			return -EINVAL;
		}
		if (n == 1)
			break;
	}

	ret = tm_objmap_add(&tp->map, &chunk);
	if (ret < 0) {
		TM_LOG(ERR, "pool %s: cannot grow the chunk tables to %u chunks (%zu bytes) on socket %d",
			mp->name, tm_objmap_grown_cap(&tp->map),
			tm_objmap_tables_bytes(tm_objmap_grown_cap(&tp->map)),
			tp->map.socket_id);
		return ret;
	}

	nb = tm_lifo_top_part(tp->lifo);
	if (nb != 0 && tm_lifo_pop(tp->lifo, &st, batch, nb) < 0)
		nb = 0; /* taken meanwhile: the pool is in use */
	for (i = 0; i < n; i++) {
		void *obj = tm_chunk_obj(&tp->map, &chunk, i);
		size_t off = RTE_PTR_DIFF(obj, vaddr);

		obj_cb(mp, obj_cb_arg, obj,
			iova == RTE_BAD_IOVA ? RTE_BAD_IOVA : iova + off);
		batch[nb++] = obj;
		if (nb == TM_POPULATE_BATCH || i == n - 1) {
			tm_lifo_push(tp->lifo, &st, batch, nb,
					tm_objmap_to_idx, &tp->map, false);
			nb = 0;
		}
	}
	tm_lifo_stash_give(tp->lifo, &st);
	turbomem_mem_populated(mp, tp);
	return n;
}

static const struct rte_mempool_ops turbomem_ops = {
	.name = TURBOMEM_OPS_NAME,
	.alloc = turbomem_alloc,
	.free = turbomem_free,
	.enqueue = turbomem_enqueue,
	.dequeue = turbomem_dequeue,
	.get_count = turbomem_get_count,
	.populate = turbomem_populate,
};

/*
 * Where the code at addr was loaded from (a -d plugin, a plugin of the
 * plugin directory, or the application itself), into buf; "" if unknown.
 */
static const char *
turbomem_lib_of(const void *addr, char *buf, size_t len)
{
	Dl_info info;

	if (dladdr(addr, &info) == 0 || info.dli_fname == NULL)
		buf[0] = '\0';
	else
		strlcpy(buf, info.dli_fname, len);
	return buf;
}

static const char *
turbomem_basename(const char *path)
{
	const char *b = strrchr(path, '/');

	return b != NULL ? b + 1 : path;
}

/* True if path is a file of the plugin directory EAL reads by itself. */
static bool
turbomem_in_plugin_dir(const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	size_t n = strlen(RTE_EAL_PMD_PATH);

	if (n == 0)
		return false;
	if (strncmp(path, RTE_EAL_PMD_PATH, n) == 0 && path[n] == '/')
		return true;
	/* in-tree shared builds: the plugin directory holds symlinks */
	if (realpath(RTE_EAL_PMD_PATH, dir) == NULL ||
			realpath(path, real) == NULL)
		return false;
	n = strlen(dir);
	return strncmp(real, dir, n) == 0 && real[n] == '/' &&
		strchr(real + n + 1, '/') == NULL;
}

/*
 * The table is full: one error line with the fix that works where this
 * copy of the driver was loaded from. A mempool driver to remove is
 * suggested: the last one registered that is not DPDK's software
 * default (ring, stack), named by the library its ops live in.
 */
static void
turbomem_table_full(void)
{
	char self[PATH_MAX], lib[PATH_MAX], victim[PATH_MAX + 64] = "";
	const char *victim_op = "bucket";
	unsigned int i, n = rte_mempool_ops_table.num_ops;

	turbomem_lib_of((const void *)(uintptr_t)turbomem_enqueue, self,
			sizeof(self));
	for (i = n; i-- > 0;) {
		const struct rte_mempool_ops *o = &rte_mempool_ops_table.ops[i];
		const char *b;

		if (strncmp(o->name, "ring_", 5) == 0 ||
				strcmp(o->name, "stack") == 0 ||
				strcmp(o->name, "lf_stack") == 0)
			continue;
		b = turbomem_basename(turbomem_lib_of(
				(const void *)(uintptr_t)o->enqueue, lib,
				sizeof(lib)));
		snprintf(victim, sizeof(victim), "%s (ops \"%s\")",
			b[0] != '\0' ? b : "its library", o->name);
		victim_op = o->name;
		break;
	}
	if (strstr(turbomem_basename(self), ".so") == NULL)
		/* linked into the application: DPDK built with it in-tree */
		TM_LOG(ERR, "mempool ops table full (%u of RTE_MEMPOOL_MAX_OPS_IDX=%d): \"%s\" not registered; build DPDK without a mempool driver you do not use (meson -Ddisable_drivers=mempool/<name>, e.g. the one registering ops \"%s\")",
			n, RTE_MEMPOOL_MAX_OPS_IDX, TURBOMEM_OPS_NAME, victim_op);
	else if (turbomem_in_plugin_dir(self))
		TM_LOG(ERR, "mempool ops table full (%u of RTE_MEMPOOL_MAX_OPS_IDX=%d): \"%s\" not registered; load it with -d %s (EAL loads -d plugins before its plugin directory %s, whose last mempool driver then goes without a slot) or remove a mempool driver you do not use from %s%s%s",
			n, RTE_MEMPOOL_MAX_OPS_IDX, TURBOMEM_OPS_NAME, self,
			RTE_EAL_PMD_PATH, RTE_EAL_PMD_PATH,
			victim[0] != '\0' ? ", e.g. " : "", victim);
	else
		TM_LOG(ERR, "mempool ops table full (%u of RTE_MEMPOOL_MAX_OPS_IDX=%d): \"%s\" not registered; give -d %s before the other -d plugins (EAL loads them in command-line order, then its plugin directory %s) or remove a mempool driver you do not use%s%s",
			n, RTE_MEMPOOL_MAX_OPS_IDX, TURBOMEM_OPS_NAME, self,
			RTE_EAL_PMD_PATH,
			victim[0] != '\0' ? ", e.g. " : "", victim);
}

/*
 * RTE_MEMPOOL_REGISTER_OPS() ignores the result; the ops table has only
 * RTE_MEMPOOL_MAX_OPS_IDX slots and a full table must not go unnoticed.
 */
RTE_INIT(turbomem_register)
{
	unsigned int i;
	int ret;

	/*
	 * DPDK does not refuse a name registered twice: a second copy of the
	 * plugin (installed in the plugin directory and given with -d) would
	 * take another of the 16 slots and never be used.
	 */
	for (i = 0; i < rte_mempool_ops_table.num_ops; i++) {
		if (strcmp(rte_mempool_ops_table.ops[i].name,
				TURBOMEM_OPS_NAME) == 0) {
			TM_LOG(WARNING, "mempool ops \"%s\" already registered (slot %u of %u): this copy of the driver is loaded twice (installed in the plugin directory and given with -d?) and is not used",
				TURBOMEM_OPS_NAME, i,
				rte_mempool_ops_table.num_ops);
			return;
		}
	}
	ret = rte_mempool_register_ops(&turbomem_ops);
	if (ret == -ENOSPC)
		turbomem_table_full();
	else if (ret < 0)
		TM_LOG(ERR, "cannot register mempool ops \"%s\": %s",
			TURBOMEM_OPS_NAME, strerror(-ret));
}
