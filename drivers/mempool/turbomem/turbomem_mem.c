/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Pool memory (DPDK glue over turbomem_osmem.h): configuration, the
 * pool's own THP-backed heap in --no-huge mode, advice for application
 * memory, and the memory report.
 *
 * Where a pool's objects live:
 *  - EAL has hugepages: EAL memory, left as it is (hugetlbfs).
 *  - --no-huge, IOVA as VA, THP not OFF: the pool gets its own external
 *    malloc heap holding one private anonymous mapping, 2 MB aligned,
 *    advised MADV_HUGEPAGE and bound to the requested socket's node before
 *    anything touches it. alloc points mp->socket_id at that heap so that
 *    rte_mempool_populate_default() reserves the pool's memzone there; the
 *    requested socket id is put back once the pool is full (and on every
 *    failure path and in free). EAL's own --no-huge memory is a shared
 *    memfd, where MADV_HUGEPAGE gives nothing (shmem THP is off by default).
 *  - --no-huge with IOVA as PA (EAL 22.11 forces VA without hugepages, so
 *    only a future EAL can get here): private memory has no stable
 *    physical address, so EAL memory, one NOTICE.
 *  - Memory the application passes to populate, or its own external heap
 *    (testpmd --mp-alloc=xmem, which writes every page first): the 2 MB-
 *    aligned interior is advised before the objects are written; what is
 *    already resident is collapsed (MADV_COLLAPSE) only in IOVA-as-VA
 *    mode, and for memory registered with EAL only while no VFIO/iommufd
 *    device is open (VFIO maps external heap memory when it is added).
 *
 * One heap per pool, not one shared heap: with a shared heap two pools
 * created at once could place their memzones in each other's regions, and
 * a region could not be removed while another pool used it. Heaps are
 * limited (RTE_MAX_HEAPS, 32 with the sockets' own); when none is left the
 * pool falls back to EAL memory with one NOTICE (THP REQUIRED fails).
 *
 * SOCKET_ID_ANY: the region is not bound (first touch places it, i.e. on
 * the node of the thread that populates the pool); the report says -1.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "turbomem_osmem.h"
#include "turbomem_private.h"

/* Room for the malloc element headers around the pool's memzone. */
#define TM_HEAP_SLACK (4 * RTE_CACHE_LINE_SIZE)

/* Process-wide defaults from RTE_PMD_TURBOMEM_ENV, read once. */
static struct rte_pmd_turbomem_config tm_env_cfg = {
	.thp = RTE_PMD_TURBOMEM_THP_ON,
	.numa = RTE_PMD_TURBOMEM_NUMA_BIND,
	.track = RTE_PMD_TURBOMEM_TRACK_OFF,
};
static char tm_env_bad[64];
static pthread_once_t tm_env_once = PTHREAD_ONCE_INIT;

static const char * const tm_thp_names[] = {
	[RTE_PMD_TURBOMEM_THP_OFF] = "off",
	[RTE_PMD_TURBOMEM_THP_ON] = "on",
	[RTE_PMD_TURBOMEM_THP_REQUIRED] = "required",
};
static const char * const tm_track_names[] = {
	[RTE_PMD_TURBOMEM_TRACK_OFF] = "off",
	[RTE_PMD_TURBOMEM_TRACK_ON] = "on",
};
static const char * const tm_numa_names[] = {
	[RTE_PMD_TURBOMEM_NUMA_NONE] = "none",
	[RTE_PMD_TURBOMEM_NUMA_PREFERRED] = "preferred",
	[RTE_PMD_TURBOMEM_NUMA_BIND] = "bind",
};

/* Index of val in names[1..n), or -1. */
static int
tm_name_idx(const char * const *names, int n, const char *val)
{
	int i;

	for (i = 1; i < n; i++)
		if (strcmp(names[i], val) == 0)
			return i;
	return -1;
}

static void
tm_env_read(void)
{
	const char *s = getenv(RTE_PMD_TURBOMEM_ENV);
	char buf[128], *tok, *save = NULL, *val;
	int v;

	if (s == NULL)
		return;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		val = strchr(tok, '=');
		v = -1;
		if (val != NULL) {
			*val++ = '\0';
			if (strcmp(tok, "thp") == 0) {
				v = tm_name_idx(tm_thp_names,
						RTE_DIM(tm_thp_names), val);
				if (v > 0)
					tm_env_cfg.thp = v;
			} else if (strcmp(tok, "numa") == 0) {
				v = tm_name_idx(tm_numa_names,
						RTE_DIM(tm_numa_names), val);
				if (v > 0)
					tm_env_cfg.numa = v;
			} else if (strcmp(tok, "track") == 0) {
				v = tm_name_idx(tm_track_names,
						RTE_DIM(tm_track_names), val);
				if (v > 0)
					tm_env_cfg.track = v;
			}
		}
		if (v < 0) {
			snprintf(tm_env_bad, sizeof(tm_env_bad), "%s%s%s", tok,
				val != NULL ? "=" : "", val != NULL ? val : "");
			return;
		}
	}
}

/* The pool's configuration: its own, else the environment's, else ON/BIND. */
static int
tm_config_resolve(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_config *cfg)
{
	const struct rte_pmd_turbomem_config *user = mp->pool_config;

	pthread_once(&tm_env_once, tm_env_read);
	if (tm_env_bad[0] != '\0') {
		TM_LOG(ERR, "pool %s: bad %s entry \"%s\" (expected thp=off|on|required,numa=none|preferred|bind,track=off|on)",
			mp->name, RTE_PMD_TURBOMEM_ENV, tm_env_bad);
		return -EINVAL;
	}
	*cfg = tm_env_cfg;
	if (user == NULL)
		return 0;
	if ((unsigned int)user->thp > RTE_PMD_TURBOMEM_THP_REQUIRED ||
			(unsigned int)user->numa > RTE_PMD_TURBOMEM_NUMA_BIND ||
			(unsigned int)user->track > RTE_PMD_TURBOMEM_TRACK_ON) {
		TM_LOG(ERR, "pool %s: bad configuration thp=%d (max %d), numa=%d (max %d), track=%d (max %d)",
			mp->name, (int)user->thp, RTE_PMD_TURBOMEM_THP_REQUIRED,
			(int)user->numa, RTE_PMD_TURBOMEM_NUMA_BIND,
			(int)user->track, RTE_PMD_TURBOMEM_TRACK_ON);
		return -EINVAL;
	}
	if (user->thp != RTE_PMD_TURBOMEM_THP_DEFAULT)
		cfg->thp = user->thp;
	if (user->numa != RTE_PMD_TURBOMEM_NUMA_DEFAULT)
		cfg->numa = user->numa;
	if (user->track != RTE_PMD_TURBOMEM_TRACK_DEFAULT)
		cfg->track = user->track;
	return 0;
}

/*
 * THP cannot be had for this pool: fail with err if required (err 0: the
 * memory is the application's, nothing to fail), else note why (one
 * NOTICE) and go on without.
 */
static int
tm_no_thp(struct rte_mempool *mp, struct turbomem_mem *mem, int err,
		const char *note, const char *what, const char *hint)
{
	snprintf(mem->note, sizeof(mem->note), "%s", note);
	if (err != 0 && mem->cfg.thp == RTE_PMD_TURBOMEM_THP_REQUIRED) {
		TM_LOG(ERR, "pool %s: THP required but %s; %s",
			mp->name, note, hint);
		return err;
	}
	/* Once per pool: populate may meet the reason alloc already met. */
	if (!mem->thp_logged)
		TM_LOG(NOTICE, "pool %s: %s, %s; %s", mp->name, note, what,
			hint);
	mem->thp_logged = true;
	return 0;
}

/* Bind the region to the requested socket's node, as configured. */
static void
tm_region_bind(struct rte_mempool *mp, struct turbomem_mem *mem)
{
	int node = mem->req_socket, ret;

	if (node == SOCKET_ID_ANY || node >= RTE_MAX_NUMA_NODES ||
			mem->cfg.numa == RTE_PMD_TURBOMEM_NUMA_NONE)
		return;
	ret = tm_os_numa_state();
	if (ret == -ENOTSUP) {
		snprintf(mem->note + strlen(mem->note),
			sizeof(mem->note) - strlen(mem->note),
			"%sunbound: no libnuma", mem->note[0] ? "; " : "");
		TM_LOG(INFO, "pool %s: driver built without libnuma, pool memory not bound to node %d",
			mp->name, node);
		return;
	}
	if (ret < 0) {
		snprintf(mem->note + strlen(mem->note),
			sizeof(mem->note) - strlen(mem->note),
			"%sunbound: no NUMA", mem->note[0] ? "; " : "");
		TM_LOG(INFO, "pool %s: NUMA not available (numa_available() < 0), pool memory not bound to node %d",
			mp->name, node);
		return;
	}
	ret = tm_os_bind(mem->region, mem->region_len, node,
			mem->cfg.numa == RTE_PMD_TURBOMEM_NUMA_BIND);
	if (ret < 0) {
		snprintf(mem->note + strlen(mem->note),
			sizeof(mem->note) - strlen(mem->note),
			"%sunbound: mbind failed", mem->note[0] ? "; " : "");
		TM_LOG(WARNING, "pool %s: mbind of %zu bytes to node %d failed: %s; pool memory unbound",
			mp->name, mem->region_len, node, strerror(-ret));
		return;
	}
	mem->node = node;
}

/* Give the region back to the OS and the pool its requested socket. */
static void
tm_region_release(struct rte_mempool *mp, struct turbomem_mem *mem)
{
	if (mem->region == NULL)
		return;
	mp->socket_id = mem->req_socket;
	if (rte_malloc_heap_memory_remove(mem->heap, mem->region,
			mem->region_len) != 0) {
		/* Something still lives there: unmapping would corrupt it. */
		TM_LOG(WARNING, "pool %s: cannot remove %zu bytes from heap %s: %s; leaving them mapped",
			mp->name, mem->region_len, mem->heap,
			rte_strerror(rte_errno));
		mem->region = NULL;
		return;
	}
	if (rte_malloc_heap_destroy(mem->heap) != 0)
		TM_LOG(WARNING, "pool %s: cannot destroy heap %s: %s",
			mp->name, mem->heap, rte_strerror(rte_errno));
	tm_os_unmap(mem->region, mem->region_len);
	mem->region = NULL;
	mem->node = -1;
	mem->note[0] = '\0';
}

/* Map, advise, bind and add to a new heap the memory of the whole pool. */
static int
tm_region_create(struct rte_mempool *mp, struct turbomem_mem *mem)
{
	size_t min_chunk, align, len, i, n;
	uint32_t pg_shift;
	rte_iova_t *iova;
	ssize_t size;
	void *va;
	int ret;

	/* The same sizing rte_mempool_populate_default() will ask for. */
	pg_shift = (mp->flags & RTE_MEMPOOL_F_NO_IOVA_CONTIG) ? 0 :
		rte_bsf64(TM_OS_HUGE_SZ);
	size = rte_mempool_op_calc_mem_size_default(mp, mp->size, pg_shift,
			&min_chunk, &align);
	if (size < 0)
		return (int)size;
	len = RTE_ALIGN_CEIL(RTE_ALIGN_CEIL((size_t)size, RTE_CACHE_LINE_SIZE) +
			TM_HEAP_SLACK, TM_OS_HUGE_SZ);

	snprintf(mem->heap, sizeof(mem->heap), "turbomem-%p", (void *)mp);
	if (rte_malloc_heap_create(mem->heap) != 0) {
		if (rte_errno == ENOSPC)
			return tm_no_thp(mp, mem, -ENOSPC,
				"no free malloc heap", "pool in EAL memory (4 KB pages)",
				"free other pools or reserve hugepages (RTE_MAX_HEAPS heaps in all)");
		TM_LOG(ERR, "pool %s: cannot create malloc heap %s: %s",
			mp->name, mem->heap, rte_strerror(rte_errno));
		return -rte_errno;
	}

	va = tm_os_map(len);
	if (va == NULL) {
		ret = -errno;
		TM_LOG(ERR, "pool %s: cannot map %zu bytes: %s",
			mp->name, len, strerror(errno));
		goto destroy;
	}
	mem->region = va;
	mem->region_len = len;

	/* Advice and policy apply to pages faulted later: before any touch. */
	if (mem->thp) {
		ret = tm_os_advise_huge(va, len);
		if (ret < 0) {
			mem->thp = false;
			ret = tm_no_thp(mp, mem, ret, "madvise(MADV_HUGEPAGE) failed",
				"pool memory in 4 KB pages", "use a kernel with THP or reserve hugepages");
			if (ret < 0)
				goto unmap;
		}
	}
	tm_region_bind(mp, mem);
	ret = tm_os_commit(va, len);
	if (ret < 0) {
		TM_LOG(ERR, "pool %s: cannot make %zu bytes at %p writable: %s",
			mp->name, len, va, strerror(-ret));
		goto unmap;
	}

	/* IOVA as VA: a page's IOVA is its address, as EAL gives mbufs. */
	n = len / TM_OS_HUGE_SZ;
	iova = malloc(n * sizeof(*iova));
	if (iova == NULL) {
		ret = -ENOMEM;
		TM_LOG(ERR, "pool %s: cannot allocate an IOVA table of %zu pages",
			mp->name, n);
		goto unmap;
	}
	for (i = 0; i < n; i++)
		iova[i] = (uintptr_t)va + i * TM_OS_HUGE_SZ;
	ret = rte_malloc_heap_memory_add(mem->heap, va, len, iova,
			(unsigned int)n, TM_OS_HUGE_SZ);
	free(iova);
	if (ret != 0) {
		ret = -rte_errno;
		TM_LOG(ERR, "pool %s: cannot add %zu bytes to heap %s: %s",
			mp->name, len, mem->heap, rte_strerror(rte_errno));
		goto unmap;
	}
	mp->socket_id = rte_malloc_heap_get_socket(mem->heap);
	return 0;

unmap:
	tm_os_unmap(va, len);
	mem->region = NULL;
destroy:
	rte_malloc_heap_destroy(mem->heap);
	return ret;
}

int
turbomem_mem_alloc(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_mem *mem = &tp->mem;
	char note[64], hint[160];
	int ret;

	memset(mem, 0, sizeof(*mem));
	mem->req_socket = mp->socket_id;
	mem->node = -1;
	ret = tm_config_resolve(mp, &mem->cfg);
	if (ret < 0)
		return ret;
	/* The application's own heap (testpmd --mp-alloc=xmem): its memory. */
	if (rte_eal_has_hugepages() ||
			mem->cfg.thp == RTE_PMD_TURBOMEM_THP_OFF ||
			rte_malloc_heap_socket_is_external(mp->socket_id) == 1)
		return 0;
	if (rte_eal_iova_mode() != RTE_IOVA_VA)
		return tm_no_thp(mp, mem, -ENOTSUP, "IOVA as PA without hugepages",
			"pool in EAL memory (4 KB pages)",
			"private memory has no fixed physical address; use --iova-mode=va or reserve hugepages");
	mem->thp = tm_os_thp_usable(note, sizeof(note), hint, sizeof(hint));
	if (!mem->thp) {
		ret = tm_no_thp(mp, mem, -ENOTSUP, note, "pool memory in 4 KB pages",
				hint);
		if (ret < 0)
			return ret;
	}
	return tm_region_create(mp, mem);
}

/* Advise (and collapse where safe) application memory before it is written. */
static void
tm_app_chunk(struct rte_mempool *mp, struct turbomem_mem *mem,
		const struct rte_memseg_list *msl, void *va, size_t len)
{
	uintptr_t s = RTE_ALIGN_CEIL((uintptr_t)va, TM_OS_HUGE_SZ);
	uintptr_t e = RTE_ALIGN_FLOOR((uintptr_t)va + len, TM_OS_HUGE_SZ);
	char note[64], hint[160];
	size_t done;
	int ret;

	if (mem->cfg.thp == RTE_PMD_TURBOMEM_THP_OFF || e <= s ||
			tm_os_page_size(va) >= TM_OS_HUGE_SZ)
		return; /* off, no whole huge page, or hugetlbfs already */
	if (!tm_os_thp_usable(note, sizeof(note), hint, sizeof(hint))) {
		tm_no_thp(mp, mem, 0, note, "application memory not advised",
			hint);
		return;
	}
	ret = tm_os_advise_huge((void *)s, e - s);
	if (ret < 0) {
		tm_no_thp(mp, mem, 0, "madvise(MADV_HUGEPAGE) failed",
			"application memory in 4 KB pages", "use a kernel with THP");
		return;
	}
	/*
	 * Collapsing moves the data to new physical pages: only where the
	 * IOVA is the address, and not where VFIO may have DMA-mapped the
	 * memory when the application added it to an EAL heap (rte_vfio.h's
	 * check is internal in newer DPDK: look for open VFIO files; the kernel
	 * also refuses to move pinned pages, but a failed collapse would
	 * only leave 4 KB pages behind).
	 */
	if (rte_eal_iova_mode() != RTE_IOVA_VA)
		return;
	if (msl != NULL && tm_os_vfio_open()) {
		tm_no_thp(mp, mem, 0, "not collapsed: VFIO may have mapped it",
			"memory written before populate stays in 4 KB pages",
			"give the pool memory not written yet");
		return;
	}
	ret = tm_os_collapse_resident((void *)s, e - s, &done);
	if (ret == -EINVAL)
		tm_no_thp(mp, mem, 0, "no MADV_COLLAPSE (Linux < 6.1)",
			"memory written before populate stays in 4 KB pages",
			"use Linux >= 6.1 or populate with memory not written yet");
	else if (ret < 0)
		tm_no_thp(mp, mem, 0, "MADV_COLLAPSE failed",
			"memory written before populate stays partly in 4 KB pages",
			strerror(-ret));
}

void
turbomem_mem_chunk(struct rte_mempool *mp, struct turbomem_pool *tp,
		void *va, size_t len)
{
	struct turbomem_mem *mem = &tp->mem;
	const struct rte_memseg_list *msl;
	uintptr_t a = (uintptr_t)va;
	int kind;

	if (mem->region != NULL && a >= (uintptr_t)mem->region &&
			a + len <= (uintptr_t)mem->region + mem->region_len) {
		kind = mem->thp ? RTE_PMD_TURBOMEM_BACKING_THP :
			RTE_PMD_TURBOMEM_BACKING_4K;
		mem->kinds |= 1u << kind;
		return;
	}
	/* The application populates from its own memory: region unused. */
	if (mem->region != NULL && tp->map.nb_chunks == 0)
		tm_region_release(mp, mem);

	msl = rte_mem_virt2memseg_list(va);
	if (msl != NULL && !msl->external) {
		kind = msl->page_sz >= TM_OS_HUGE_SZ ?
			RTE_PMD_TURBOMEM_BACKING_HUGETLBFS :
			RTE_PMD_TURBOMEM_BACKING_4K;
	} else {
		kind = RTE_PMD_TURBOMEM_BACKING_EXTERNAL;
		tm_app_chunk(mp, mem, msl, va, len);
	}
	mem->kinds |= 1u << kind;
}

static int tm_mem_info(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_mem_info *info);
static const char *tm_backing_name(enum rte_pmd_turbomem_backing b);

void
turbomem_mem_populated(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct rte_pmd_turbomem_mem_info info;

	if (tp->map.nb_objs < mp->size)
		return;
	mp->socket_id = tp->mem.req_socket;
	if (rte_log_can_log(turbomem_logtype, RTE_LOG_INFO) &&
			tm_mem_info(mp, &info) == 0)
		TM_LOG(INFO, "pool %s: %" PRIu64 " kB, %" PRIu64 " kB (%" PRIu64 "%%) in 2 MB pages per smaps, backing %s, page %" PRIu64 " kB, node %d%s%s",
			mp->name, info.bytes >> 10, info.huge_bytes >> 10,
			info.bytes ? info.huge_bytes * 100 / info.bytes : 0,
			tm_backing_name(info.backing),
			info.page_size >> 10, info.numa_node,
			info.note[0] ? ", " : "", info.note);
}

void
turbomem_mem_free(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	tm_region_release(mp, &tp->mem);
}

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
	snprintf(info->note, sizeof(info->note), "%s", tp->mem.note);
	kinds = tp->mem.kinds;
	if (kinds != 0)
		info->backing = (kinds & (kinds - 1)) != 0 ?
			RTE_PMD_TURBOMEM_BACKING_MIXED :
			(enum rte_pmd_turbomem_backing)rte_bsf32(kinds);
	if (n == 0)
		return 0;

	r = malloc(n * sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r[i].start = tp->map.chunks[i].base;
		r[i].end = tp->map.chunks[i].end;
		info->bytes += r[i].end - r[i].start;
	}
	if (tm_os_huge_bytes(r, n, &info->huge_bytes, &info->page_size) < 0)
		snprintf(info->note, sizeof(info->note), "/proc/self/smaps unreadable");
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
