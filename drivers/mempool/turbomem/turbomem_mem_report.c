/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Pool memory, the report: what backs a pool's memory and how much of it
 * is in huge pages, read from /proc/self/smaps (turbomem_osmem.h), never
 * inferred from the advice given. What the driver gives a pool:
 * doc/guides/mempool/turbomem.rst, "Pool Memory".
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <eal_export.h>
#include <rte_memory.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "turbomem_osmem.h"
#include "turbomem_private.h"

static int
tm_mem_info(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_mem_info *info)
{
	const struct turbomem_pool *tp;
	const struct rte_memseg_list *msl;
	struct tm_os_range *r;
	unsigned int i, n, kinds;

	if (mp == NULL || info == NULL || !turbomem_is_pool(mp))
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->numa_node = -1;
	tp = mp->pool_data;
	if (tp == NULL)
		return 0;

	n = tp->map.nb_chunks;
	info->nb_chunks = n;
	info->numa_node = tp->mem.node;
	strlcpy(info->note, tp->mem.note, sizeof(info->note));
	kinds = tp->mem.kinds;
	if (kinds != 0)
		info->backing = (kinds & (kinds - 1)) != 0 ?
			RTE_PMD_TURBOMEM_BACKING_MIXED :
			(enum rte_pmd_turbomem_backing)rte_bsf32(kinds);
	if (n == 0)
		return 0;

	r = malloc(n * sizeof(*r));
	if (r == NULL) {
		TM_LOG(ERR, "pool %s: cannot allocate %zu bytes from the C heap for the memory report of %u chunks",
			mp->name, n * sizeof(*r), n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		r[i].start = tp->map.chunks[i].base;
		r[i].end = tp->map.chunks[i].end;
		info->bytes += r[i].end - r[i].start;
	}
	if (tm_os_huge_bytes(r, n, &info->huge_bytes, &info->page_size) < 0)
		strlcpy(info->note, "/proc/self/smaps unreadable",
			sizeof(info->note));
	/* EAL places hugepages on their socket's node. */
	if (info->backing == RTE_PMD_TURBOMEM_BACKING_HUGETLBFS) {
		msl = rte_mem_virt2memseg_list((void *)r[0].start);
		if (msl != NULL)
			info->numa_node = msl->socket_id;
	}
	free(r);
	return 0;
}

static const char *
tm_backing_name(enum rte_pmd_turbomem_backing b)
{
	switch (b) {
	case RTE_PMD_TURBOMEM_BACKING_NONE:
		return "none";
	case RTE_PMD_TURBOMEM_BACKING_HUGETLBFS:
		return "hugetlbfs";
	case RTE_PMD_TURBOMEM_BACKING_THP:
		return "thp";
	case RTE_PMD_TURBOMEM_BACKING_4K:
		return "4k";
	case RTE_PMD_TURBOMEM_BACKING_EXTERNAL:
		return "external";
	case RTE_PMD_TURBOMEM_BACKING_MIXED:
		return "mixed";
	}
	return "unknown";
}

void
turbomem_mem_report_log(const struct rte_mempool *mp)
{
	struct rte_pmd_turbomem_mem_info info;

	if (rte_log_can_log(turbomem_logtype, RTE_LOG_INFO) &&
			tm_mem_info(mp, &info) == 0)
		TM_LOG(INFO, "pool %s: %" PRIu64 " kB, %" PRIu64 " kB (%" PRIu64
			"%%) in 2 MB pages per smaps, backing %s, page %" PRIu64
			" kB, node %d%s%s",
			mp->name, info.bytes >> 10, info.huge_bytes >> 10,
			info.bytes ? info.huge_bytes * 100 / info.bytes : 0,
			tm_backing_name(info.backing),
			info.page_size >> 10, info.numa_node,
			info.note[0] ? ", " : "", info.note);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_mem_info, 26.07)
int
rte_pmd_turbomem_mem_info(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_mem_info *info)
{
	return tm_mem_info(mp, info);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_backing_name, 26.07)
const char *
rte_pmd_turbomem_backing_name(enum rte_pmd_turbomem_backing b)
{
	return tm_backing_name(b);
}
