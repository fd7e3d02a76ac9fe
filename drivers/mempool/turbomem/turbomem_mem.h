/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_MEM_H
#define TURBOMEM_MEM_H

/*
 * Pool memory: the DPDK glue over the OS memory layer (turbomem_osmem.h),
 * one file per job:
 *  - turbomem_mem_conf.c: the pool's configuration (its own, else the
 *    environment's);
 *  - turbomem_mem.c: the pool's heap (THP in --no-huge mode), advice for
 *    application memory, and the steering of mp->socket_id;
 *  - turbomem_mem_report.c: the memory report and its log line.
 * Which memory a pool gets is described in the driver guide,
 * doc/guides/mempool/turbomem.rst, section "Pool Memory".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_pmd_turbomem.h"

struct turbomem_pool;

/**
 * Pool memory state. The region pointer is process-local: turbomem maps
 * its own memory only in --no-huge mode, which has no secondary processes.
 */
struct turbomem_mem {
	struct rte_pmd_turbomem_config cfg; /**< resolved: no DEFAULT left */
	int req_socket;		/**< socket id the application asked for */
	void *region;		/**< turbomem's own mapping, or NULL */
	size_t region_len;
	int node;		/**< node the region is bound to, or -1 */
	bool thp;		/**< region advised MADV_HUGEPAGE */
	bool thp_logged;	/**< why THP is off was logged */
	uint32_t kinds;		/**< 1 << backing, for each chunk populated */
	char heap[32];		/**< malloc heap holding the region */
	char note[64];		/**< why THP or binding is off */
	/**
	 * Driver memory moved to node (pool data, object map, tracking
	 * records), to undo.
	 */
	struct {
		const void *va;
		size_t len;
	} meta[5];
};

/*
 * Called from the ops (turbomem_mem.c): alloc resolves the configuration
 * and may give the pool its own heap; chunk runs in populate before the
 * objects are written; populated after them; free last.
 */
int turbomem_mem_alloc(struct rte_mempool *mp, struct turbomem_pool *tp);
void turbomem_mem_chunk(struct rte_mempool *mp, struct turbomem_pool *tp,
		void *va, size_t len);
void turbomem_mem_populated(struct rte_mempool *mp, struct turbomem_pool *tp);
void turbomem_mem_free(struct rte_mempool *mp, struct turbomem_pool *tp);

/*
 * The socket of driver memory sized per object that may be allocated
 * before the objects (the tracking records): EAL memory of the socket
 * the application asked for, SOCKET_ID_ANY for an external heap. Never
 * the heap the objects are reserved from: turbomem's own heap is sized
 * for the objects alone, and an application sizes its external heap for
 * what it knows of; records there would take the objects' room.
 */
int turbomem_mem_driver_socket(const struct turbomem_pool *tp);

/*
 * The configuration of mp (turbomem_mem_conf.c): its own, else the
 * environment's (RTE_PMD_TURBOMEM_ENV), else THP ON, NUMA BIND, TRACK OFF.
 * 0, or -EINVAL with one error line.
 */
int turbomem_mem_conf_resolve(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_config *cfg);

/* Log the memory report of a full pool at INFO (turbomem_mem_report.c). */
void turbomem_mem_report_log(const struct rte_mempool *mp);

#endif /* TURBOMEM_MEM_H */
