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

/** Most objects in one turbomem pool (2^28 - 1). */
#define RTE_PMD_TURBOMEM_MAX_OBJS 268435455u

/**
 * Environment variable read once per process (at the first turbomem pool)
 * for the defaults of pools made without a configuration, e.g. through
 * rte_pktmbuf_pool_create_by_ops() or --mbuf-pool-ops-name:
 * comma-separated key=value pairs, "thp=off|on|required,numa=none|preferred|bind".
 * A configuration passed to rte_mempool_set_ops_byname() overrides it
 * field by field. A bad entry makes every turbomem pool creation fail with
 * -EINVAL and one error line naming it.
 */
#define RTE_PMD_TURBOMEM_ENV "TURBOMEM_CONFIG"

/**
 * Transparent Huge Pages for pool memory when EAL has no hugepages
 * (--no-huge). turbomem then gives each pool its own malloc heap of
 * private, 2 MB-aligned anonymous memory, advised MADV_HUGEPAGE before
 * first touch (one heap per pool; when RTE_MAX_HEAPS heaps are in use the
 * pool falls back to EAL memory with a NOTICE). With EAL hugepages the
 * memory is left as it is, whatever the setting. Application memory given
 * to rte_mempool_populate_virt()/_iova() is advised on its 2 MB-aligned
 * interior; pages already written are collapsed (MADV_COLLAPSE, Linux >=
 * 6.1) only with IOVA as VA and when EAL does not know the memory.
 * IOVA as PA without hugepages (EAL 22.11 never selects it): EAL memory
 * with one NOTICE.
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
 * NUMA placement of memory turbomem maps itself, on the node of the pool's
 * socket id. SOCKET_ID_ANY is never bound: first touch places the memory,
 * on the node of the thread that populates the pool. Without libnuma at
 * build time or with numa_available() < 0 the memory is unbound (one INFO
 * line); a failing mbind() leaves it unbound (one WARNING). The memory
 * report says which.
 */
enum rte_pmd_turbomem_numa {
	RTE_PMD_TURBOMEM_NUMA_DEFAULT = 0, /**< process default (BIND unless set) */
	RTE_PMD_TURBOMEM_NUMA_NONE,      /**< no policy: first-touch placement */
	RTE_PMD_TURBOMEM_NUMA_PREFERRED, /**< prefer the pool's node */
	RTE_PMD_TURBOMEM_NUMA_BIND,      /**< only the pool's node */
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
 * Reset the statistics of a turbomem pool (not atomic with respect to
 * concurrent gets and puts: counts made meanwhile may be lost).
 *
 * @return 0, or -EINVAL if mp is NULL or not a turbomem pool.
 */
__rte_experimental
int rte_pmd_turbomem_stats_reset(struct rte_mempool *mp);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_TURBOMEM_H */
