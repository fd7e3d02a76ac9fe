/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_DEBUG_H
#define TURBOMEM_DEBUG_H

/**
 * @file
 * Debug checks of the put/get contract (DPDK glue layer): assertions of
 * the caller's side, compiled in where DPDK's are (RTE_ENABLE_ASSERT; out
 * of tree, meson -Ddebug_checks=true), empty otherwise.
 *
 * The put path cannot return an error (the library ignores it), and a bad
 * put corrupts the free list silently, so a debug build stops loudly at the
 * put itself (a CRIT log line naming the object and the pool, then
 * abort()):
 * - a pointer that is not an object of this pool (tm_objmap_lookup);
 * - a double put: one state byte per object index, 1 while the object is
 *   out of the driver (set by get, cleared by put). Populate leaves every
 *   object in the driver, which is the all-zero state, so the array can be
 *   made lazily on first use.
 * A get of an object already out is a driver bug and stops too.
 *
 * The state lives in DPDK shared memory (rte_zmalloc) so that secondary
 * processes check against the same bytes. Objects parked in a mempool
 * cache are "out" for the driver: a double put through a cache is caught
 * when the cache flushes both copies.
 */

#ifdef RTE_ENABLE_ASSERT

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rte_malloc.h>
#include <rte_mempool.h>

#include "turbomem_private.h"

/* One state byte per object (a typedef: RTE_ATOMIC() then a pointer). */
typedef RTE_ATOMIC(uint8_t) tm_debug_byte;

/* debug_state when its allocation failed: checks off for this pool. */
#define TM_DEBUG_NO_STATE ((tm_debug_byte *)(uintptr_t)1)

static inline tm_debug_byte *
tm_debug_state(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	tm_debug_byte *s, *expect = NULL;

	/* Acquire pairs with the release of the winning CAS below. */
	s = rte_atomic_load_explicit(&tp->debug_state,
			rte_memory_order_acquire);
	if (likely(s != NULL))
		return s;
	/*
	 * Memory may be exhausted (the library drains a pool whose populate
	 * failed): warn once and check nothing rather than stop a program
	 * that did nothing wrong.
	 */
	s = rte_zmalloc_socket("turbomem_debug", mp->size, 0,
			SOCKET_ID_ANY);
	/*
	 * Release: the zeroed bytes are visible to whoever loads s (the
	 * acquire load above). Acquire on failure pairs with the winner's
	 * release, for the same reason.
	 */
	if (!rte_atomic_compare_exchange_strong_explicit(&tp->debug_state,
			&expect, s != NULL ? s : TM_DEBUG_NO_STATE,
			rte_memory_order_release, rte_memory_order_acquire)) {
		rte_free(s);
		return expect;
	}
	if (s == NULL) {
		TM_LOG(WARNING, "pool %s: no memory for %u debug state bytes: put/get checks off for this pool",
			mp->name, mp->size);
		return TM_DEBUG_NO_STATE;
	}
	turbomem_bytes_add(tp, mp->size);
	return s;
}

static inline void
tm_debug_check(struct rte_mempool *mp, void * const *objs, unsigned int n,
		bool put)
{
	struct turbomem_pool *tp = mp->pool_data;
	tm_debug_byte *state = tm_debug_state(mp, tp);
	unsigned int i;
	int64_t idx;
	uint8_t was;

	if (state == TM_DEBUG_NO_STATE)
		return;

	for (i = 0; i < n; i++) {
		idx = tm_objmap_lookup(&tp->map, objs[i]);
		if (idx < 0) {
			TM_LOG(CRIT, "pool %s: %s of object %p that is not from this pool (%u objects)",
				mp->name, put ? "put" : "get", objs[i],
				tp->map.nb_objs);
			abort();
		}
		/*
		 * Relaxed: the byte only has to change exactly once per
		 * transition; the LIFO's own release/acquire orders the rest.
		 */
		was = rte_atomic_exchange_explicit(&state[idx], put ? 0 : 1,
				rte_memory_order_relaxed);
		if (put && was == 0) {
			TM_LOG(CRIT, "pool %s: double put of object %p (index %" PRId64 "): it is already in the pool",
				mp->name, objs[i], idx);
			abort();
		}
		if (!put && was == 1) {
			TM_LOG(CRIT, "pool %s: object %p (index %" PRId64 ") handed out twice",
				mp->name, objs[i], idx);
			abort();
		}
	}
}

/* Before the push: a bad put must not reach the free list. */
#define TM_DEBUG_PUT(mp, objs, n) tm_debug_check(mp, objs, n, true)
/* After a pop that returned ret (>= 0: success). */
#define TM_DEBUG_GET(mp, objs, n, ret) do { \
	if ((ret) >= 0) \
		tm_debug_check(mp, objs, n, false); \
} while (0)
/* Relaxed: free runs after every user of the pool has stopped. */
#define TM_DEBUG_FREE(tp) do { \
	tm_debug_byte *s_ = rte_atomic_load_explicit(&(tp)->debug_state, \
			rte_memory_order_relaxed); \
	if (s_ != TM_DEBUG_NO_STATE) \
		rte_free((void *)(uintptr_t)s_); \
} while (0)

#else

#define TM_DEBUG_PUT(mp, objs, n) do { } while (0)
#define TM_DEBUG_GET(mp, objs, n, ret) do { } while (0)
#define TM_DEBUG_FREE(tp) do { } while (0)

#endif /* RTE_ENABLE_ASSERT */

#endif /* TURBOMEM_DEBUG_H */
