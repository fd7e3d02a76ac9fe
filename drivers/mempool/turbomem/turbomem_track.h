/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_TRACK_H
#define TURBOMEM_TRACK_H

/**
 * @file
 * Held-object tracking (DPDK glue layer): who holds each object the driver
 * handed out, and since when. Off by default; switched per pool
 * (rte_pmd_turbomem_config.track, rte_pmd_turbomem_track_set()) or for the
 * process (TURBOMEM_CONFIG=track=on).
 *
 * One record per object index, in the pool's shared memory (rte_zmalloc),
 * so that the gets of secondary processes show in the primary's report:
 * - dequeue, after the pop: tsc of the get and a tag naming the holder
 *   (lcore id, or OS thread id for unregistered threads; the pid) and the
 *   tracking epoch;
 * - enqueue, before the push: tag cleared. Clearing before the push and
 *   writing after the pop means that the LIFO's release/acquire orders a
 *   put's clear before the next get's write of the same record.
 *
 * Epochs make switching safe while the pool is in use. Every switch-on
 * starts a new epoch (tp->track_epoch, 0 while off); only records of the
 * current epoch count. A record left by an earlier epoch (an object got,
 * or put, while tracking was off) is ignored: such objects are reported as
 * "holder unknown, since before tracking". Tracking never touches the free
 * list, so switching can neither lose nor duplicate an object; a get or
 * put racing with a switch at worst leaves its object "unknown".
 *
 * Objects in a mempool cache are out of the driver: the report walks
 * mp->local_cache[] and counts the objects found there as held by the
 * cache of that lcore, whatever their record says. With a cache, the get
 * time of an object is when it left the driver into that lcore's cache.
 *
 * Records are written with relaxed stores and read without locks: a
 * report taken while the pool is in use is a snapshot that may mix
 * records of a moment apart (a torn tsc/tag pair only misdates an age).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "turbomem_private.h"

/** One object's record: 16 bytes per object of the pool. */
struct turbomem_track_rec {
	RTE_ATOMIC(uint64_t) tsc;	/**< TSC of the get */
	RTE_ATOMIC(uint64_t) tag;	/**< TM_TRACK_TAG_*, 0: not held */
};

/** Per-pool tracking state, allocated at the first switch-on. */
struct turbomem_track {
	RTE_ATOMIC(uint32_t) gen;	/**< last epoch handed out */
	RTE_ATOMIC(uint32_t) low_water;	/**< lowest driver count while on */
	RTE_ATOMIC(uint32_t) threshold;	/**< log below this; 0: none */
	RTE_ATOMIC(uint32_t) below;	/**< 1: this crossing was logged */
	RTE_ATOMIC(uint64_t) on_tsc;	/**< TSC of the last switch-on */
	struct rte_mempool *mp;		/**< the pool (shared memory) */
	struct turbomem_track_rec rec[];
};

/*
 * Tag layout: holder id (lcore id, or OS thread id with the THREAD bit),
 * pid, epoch. Linux pids and thread ids are below 2^22 (PID_MAX_LIMIT).
 */
#define TM_TRACK_ID_BITS 22
#define TM_TRACK_THREAD (UINT64_C(1) << TM_TRACK_ID_BITS)
#define TM_TRACK_PID_SHIFT 23
#define TM_TRACK_EPOCH_SHIFT 45
#define TM_TRACK_EPOCH_MASK ((UINT32_C(1) << (64 - TM_TRACK_EPOCH_SHIFT)) - 1)

/**
 * The current epoch, 0 while tracking is off: the one branch that each
 * fast-path call takes. Acquire pairs with the release store of the epoch
 * in turbomem_track_switch(): the records are allocated and zeroed before
 * any get or put sees the epoch (a plain load on x86 and a one-word load
 * on every architecture).
 */
static inline uint32_t
turbomem_track_epoch(struct turbomem_pool *tp)
{
	return rte_atomic_load_explicit(&tp->track_epoch,
			rte_memory_order_acquire);
}

/**
 * Record the holder of n objects just popped; ret: the pop's result.
 * Returns what dequeue returns (0, or ret if negative), so that dequeue
 * can end with a tail call and keep nothing alive across the pop.
 */
int turbomem_track_get(struct turbomem_pool *tp, void * const *objs,
		unsigned int n, int ret);

/** Clear the records of n objects about to be pushed. */
void turbomem_track_put(struct rte_mempool *mp, struct turbomem_pool *tp,
		void * const *objs, unsigned int n);

/** In alloc, after the configuration is resolved: on if configured. */
int turbomem_track_init(struct rte_mempool *mp, struct turbomem_pool *tp);

/** In free. */
void turbomem_track_free(struct turbomem_pool *tp);

/** Switch tracking of a pool on (new epoch) or off; 0 or -ENOMEM. */
int turbomem_track_switch(struct rte_mempool *mp, struct turbomem_pool *tp,
		bool on);

/** Fill a report (rte_pmd_turbomem_held_get()). */
int turbomem_track_report(const struct rte_mempool *mp,
		unsigned int nb_oldest, struct rte_pmd_turbomem_held *r);

/** A holder as text: "lcore 3 (pid 42)", "cache of lcore 0", ... */
int turbomem_track_holder_name(char *buf, size_t len,
		enum rte_pmd_turbomem_holder_kind kind, uint32_t id,
		int32_t pid, uint32_t dead);

#endif /* TURBOMEM_TRACK_H */
