/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef RTE_PMD_TURBOMEM_H
#define RTE_PMD_TURBOMEM_H

/**
 * @file
 * Public API of the turbomem mempool driver.
 *
 * Applications need none of this to use turbomem: select it by name
 * ("turbomem") with rte_pktmbuf_pool_create_by_ops(),
 * rte_mempool_set_ops_byname() or --mbuf-pool-ops-name. This header adds
 * per-pool configuration, statistics and the memory report.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_mempool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the mempool ops registered by the driver. */
#define RTE_PMD_TURBOMEM_OPS_NAME "turbomem"

/** Most objects in one turbomem pool (2^27 - 1). */
#define RTE_PMD_TURBOMEM_MAX_OBJS 134217727u

/**
 * Environment variable read once per process (at the first turbomem pool)
 * for the defaults of pools made without a configuration, e.g. through
 * rte_pktmbuf_pool_create_by_ops() or --mbuf-pool-ops-name:
 * comma-separated key=value pairs,
 * "thp=off|on|required,numa=none|preferred|bind,track=off|on".
 * A configuration passed to rte_mempool_set_ops_byname() overrides it
 * field by field. A bad entry makes every turbomem pool creation fail with
 * -EINVAL and one error line naming it.
 */
#define RTE_PMD_TURBOMEM_ENV "TURBOMEM_CONFIG"

/**
 * Transparent Huge Pages for pool memory when EAL has no hugepages
 * (--no-huge); with EAL hugepages the memory is left as it is. Which
 * memory a pool gets is described in the driver guide,
 * doc/guides/mempool/turbomem.rst, section "Pool Memory".
 */
enum rte_pmd_turbomem_thp {
	RTE_PMD_TURBOMEM_THP_DEFAULT = 0, /**< process default (ON unless set) */
	RTE_PMD_TURBOMEM_THP_OFF,      /**< leave pool memory to EAL */
	/** Use THP where the kernel allows; else 4 KB pages and one NOTICE. */
	RTE_PMD_TURBOMEM_THP_ON,
	/** Fail pool creation (-ENOTSUP, -ENOSPC) where THP cannot be had. */
	RTE_PMD_TURBOMEM_THP_REQUIRED,
};

/**
 * NUMA placement of the memory turbomem maps itself, on the node of the
 * pool's socket id; SOCKET_ID_ANY is never bound. The memory report says
 * when the memory is left unbound, and why. See the driver guide,
 * doc/guides/mempool/turbomem.rst, section "Pool Memory".
 */
enum rte_pmd_turbomem_numa {
	RTE_PMD_TURBOMEM_NUMA_DEFAULT = 0, /**< process default (BIND unless set) */
	RTE_PMD_TURBOMEM_NUMA_NONE,      /**< no policy: first-touch placement */
	RTE_PMD_TURBOMEM_NUMA_PREFERRED, /**< prefer the pool's node */
	RTE_PMD_TURBOMEM_NUMA_BIND,      /**< only the pool's node */
};

/**
 * Held-object tracking (see rte_pmd_turbomem_held_get()): when on, the
 * driver records for every object it hands out the holder and the time of
 * the get, and clears the record on put (about two stores per object got,
 * one per object put; when off, one predicted branch per get or put call).
 */
enum rte_pmd_turbomem_track {
	RTE_PMD_TURBOMEM_TRACK_DEFAULT = 0, /**< process default (OFF unless set) */
	RTE_PMD_TURBOMEM_TRACK_OFF,
	RTE_PMD_TURBOMEM_TRACK_ON,
};

/**
 * Per-pool configuration: pass a pointer as the third argument of
 * rte_mempool_set_ops_byname(mp, RTE_PMD_TURBOMEM_OPS_NAME, &cfg) before
 * the pool is populated. The driver copies it when the first populate call
 * runs, so it must stay valid until then; NULL means the defaults. Values
 * out of range fail pool creation with -EINVAL.
 */
struct rte_pmd_turbomem_config {
	enum rte_pmd_turbomem_thp thp;
	enum rte_pmd_turbomem_numa numa;
	enum rte_pmd_turbomem_track track; /**< held-object tracking */
};

/** What backs a pool's memory. */
enum rte_pmd_turbomem_backing {
	RTE_PMD_TURBOMEM_BACKING_NONE = 0, /**< not populated yet */
	RTE_PMD_TURBOMEM_BACKING_HUGETLBFS, /**< EAL hugepages, left as they are */
	RTE_PMD_TURBOMEM_BACKING_THP,      /**< turbomem's THP-advised memory */
	/** 4 KB pages: EAL's --no-huge memory, or turbomem's own without THP */
	RTE_PMD_TURBOMEM_BACKING_4K,
	RTE_PMD_TURBOMEM_BACKING_EXTERNAL, /**< memory given by the application */
	RTE_PMD_TURBOMEM_BACKING_MIXED,    /**< chunks of different kinds */
};

/**
 * Memory report of one pool. Sizes are bytes; huge_bytes is read from
 * /proc/self/smaps at the time of the call, never inferred from madvise():
 * hugetlbfs mappings count whole; for others, a mapping's AnonHugePages
 * less the part of the mapping outside the pool (a lower bound, exact for
 * turbomem's own memory). Flat fields, so that telemetry can expose them
 * as they are. rte_pmd_turbomem_mem_info() reads smaps: not for fast paths.
 */
struct rte_pmd_turbomem_mem_info {
	uint64_t bytes;       /**< pool memory: sum of the chunk lengths */
	uint64_t huge_bytes;  /**< of which in pages of 2 MB or more */
	uint64_t page_size;   /**< largest page size seen in the pool memory */
	enum rte_pmd_turbomem_backing backing;
	/** node the memory is bound to (hugetlbfs: its socket), -1 if unbound */
	int32_t numa_node;
	uint32_t nb_chunks;   /**< memory chunks populated */
	char note[64];        /**< why THP/binding is off, or "" */
};

/**
 * Fill the memory report of a turbomem pool.
 *
 * @return 0, or -EINVAL if mp is NULL or not a turbomem pool.
 */
__rte_experimental
int rte_pmd_turbomem_mem_info(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_mem_info *info);

/** Backing kind as a short string ("thp", "hugetlbfs", "4k", ...). */
__rte_experimental
const char *rte_pmd_turbomem_backing_name(enum rte_pmd_turbomem_backing b);

/**
 * Driver statistics of one pool, summed over all lcores and threads. The
 * mempool cache absorbs most traffic of EAL lcores; these count only what
 * reaches the driver.
 */
struct rte_pmd_turbomem_stats {
	uint64_t get_calls;   /**< dequeue calls that succeeded */
	uint64_t get_objs;    /**< objects they returned */
	uint64_t get_fails;   /**< dequeue calls refused (not enough objects) */
	uint64_t put_calls;   /**< enqueue calls */
	uint64_t put_objs;    /**< objects they returned to the pool */
	uint64_t cas_retries; /**< failed compare-and-swap attempts */
};

/**
 * Read the statistics of a turbomem pool.
 *
 * @return 0, or -EINVAL if mp is NULL or not a turbomem pool.
 */
__rte_experimental
int rte_pmd_turbomem_stats_get(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *stats);

/**
 * Reset the statistics of a turbomem pool: later reads count from the
 * sums read now (a get or put that runs meanwhile may fall on either
 * side). The pool's count of objects does not change.
 *
 * @return 0, or -EINVAL if mp is NULL or not a turbomem pool.
 */
__rte_experimental
int rte_pmd_turbomem_stats_reset(struct rte_mempool *mp);

/** Who holds objects of a pool, as reported by rte_pmd_turbomem_held_get(). */
enum rte_pmd_turbomem_holder_kind {
	RTE_PMD_TURBOMEM_HOLDER_LCORE = 0, /**< id: EAL lcore id (of process pid) */
	/** id: OS thread id of a thread without an lcore id */
	RTE_PMD_TURBOMEM_HOLDER_THREAD,
	/** id: lcore whose mempool cache holds the objects (pid 0: unknown) */
	RTE_PMD_TURBOMEM_HOLDER_CACHE,
	/** got while tracking was off: "holder unknown, since before tracking" */
	RTE_PMD_TURBOMEM_HOLDER_UNKNOWN,
};

/** One holder: the objects it holds and how long it has held them. */
struct rte_pmd_turbomem_holder {
	enum rte_pmd_turbomem_holder_kind kind;
	uint32_t id;          /**< lcore id or thread id, see kind */
	int32_t pid;          /**< process of the holder, 0 if not known */
	uint32_t dead;        /**< 1: pid no longer exists (kill(pid, 0) is ESRCH) */
	uint32_t count;       /**< objects held */
	/** Ages since the get, in microseconds (0 for CACHE and UNKNOWN). */
	uint64_t age_p50_us;
	uint64_t age_p90_us;
	uint64_t age_max_us;
};

/** One object out of the pool, for the list of the oldest. */
struct rte_pmd_turbomem_held_obj {
	void *obj;            /**< the object (address in the pool) */
	uint32_t index;       /**< its index in the driver */
	enum rte_pmd_turbomem_holder_kind kind; /**< LCORE or THREAD */
	uint32_t id;
	int32_t pid;
	uint32_t dead;
	uint64_t age_us;      /**< since the get */
};

/** Most holders and oldest objects in one report. */
#define RTE_PMD_TURBOMEM_HELD_MAX_HOLDERS 32
#define RTE_PMD_TURBOMEM_HELD_MAX_OLDEST 64

/**
 * Who holds the objects of a pool. Objects out of the pool are
 * in_use + cache_count; in_use = populated - free_count - cache_count.
 * Holders are sorted by count, largest first; the last ones are dropped
 * beyond RTE_PMD_TURBOMEM_HELD_MAX_HOLDERS (nb_holders_total says how many
 * there were). Taken while the pool is in use, the report is a snapshot
 * of records and caches read a moment apart: counts may be off by the
 * objects moving meanwhile, never by more.
 */
struct rte_pmd_turbomem_held {
	uint32_t tracking;    /**< 1 if tracking is on */
	uint32_t size;        /**< objects in the pool (populated) */
	uint32_t free_count;  /**< objects in the driver (not in caches) */
	uint32_t cache_count; /**< objects found in the lcores' mempool caches */
	uint32_t in_use;      /**< out of the driver and of the caches */
	uint32_t unknown;     /**< in use, got while tracking was off */
	/**
	 * Lowest free_count seen by a get while tracking was on since the pool
	 * was created; UINT32_MAX if never.
	 */
	uint32_t low_water;
	uint32_t threshold;   /**< see rte_pmd_turbomem_track_threshold_set() */
	uint64_t tracking_us; /**< time since tracking was last switched on */
	uint32_t nb_holders;
	uint32_t nb_holders_total;
	struct rte_pmd_turbomem_holder holders[RTE_PMD_TURBOMEM_HELD_MAX_HOLDERS];
	uint32_t nb_oldest;
	struct rte_pmd_turbomem_held_obj oldest[RTE_PMD_TURBOMEM_HELD_MAX_OLDEST];
};

/**
 * Report who holds the objects of a turbomem pool: holders with counts
 * and age percentiles, the nb_oldest oldest objects held. Reads every
 * record and cache (O(pool size), allocates a temporary table): not for
 * fast paths. May run in any process of the pool and any thread.
 *
 * @return 0; -EINVAL if mp is NULL or not a turbomem pool, report is NULL
 *   or nb_oldest is above RTE_PMD_TURBOMEM_HELD_MAX_OLDEST; -ENOMEM.
 */
__rte_experimental
int rte_pmd_turbomem_held_get(const struct rte_mempool *mp,
		unsigned int nb_oldest, struct rte_pmd_turbomem_held *report);

/**
 * Switch held-object tracking of a pool on or off while it is in use.
 * Switching on starts a new epoch: objects got before it are reported as
 * UNKNOWN until put. No object is lost or duplicated by a switch.
 *
 * @return 0; -EINVAL if mp is not a turbomem pool or on is not 0 or 1;
 *   -ENOMEM if the records (16 bytes per object) cannot be allocated.
 */
__rte_experimental
int rte_pmd_turbomem_track_set(struct rte_mempool *mp, int on);

/**
 * Log one WARNING line, naming the top holders, each time the objects in
 * the driver fall below free_objs while tracking is on (once per crossing:
 * armed again when a put sees free_objs or more). 0 disables.
 *
 * @return 0, or -EINVAL if mp is not a turbomem pool or free_objs is
 *   above its size.
 */
__rte_experimental
int rte_pmd_turbomem_track_threshold_set(struct rte_mempool *mp,
		unsigned int free_objs);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_TURBOMEM_H */
