/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Pool memory, the pool's heap: which memory a pool gets (its own THP
 * heap in --no-huge mode, else EAL's or the application's, advised), the
 * steering of mp->socket_id while the pool is populated, and the ops'
 * entry points (turbomem_mem.h). The policy is described once, in the
 * driver guide: doc/guides/mempool/turbomem.rst, "Pool Memory".
 */

#include <errno.h>
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

/*
 * mp->socket_id, the one place it is steered: the pool's own heap while
 * the pool has one and is not full, so that rte_mempool_populate_default()
 * reserves the pool's memzone there; else the socket id the application
 * asked for (once the pool is full, on every failure path, and in free).
 */
static void
tm_socket_steer(struct rte_mempool *mp, const struct turbomem_pool *tp)
{
	const struct turbomem_mem *mem = &tp->mem;

	if (mem->region != NULL && tp->map.nb_objs < mp->size)
		mp->socket_id = rte_malloc_heap_get_socket(mem->heap);
	else
		mp->socket_id = mem->req_socket;
}

/* Add one reason to the pool's note (the report's), "; "-separated. */
static void
tm_note_add(struct turbomem_mem *mem, const char *reason)
{
	size_t n = strlen(mem->note);

	snprintf(mem->note + n, sizeof(mem->note) - n, "%s%s",
		n != 0 ? "; " : "", reason);
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
	mem->note[0] = '\0';
	tm_note_add(mem, note);
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
		tm_note_add(mem, "unbound: no libnuma");
		TM_LOG(INFO, "pool %s: driver built without libnuma, pool memory not bound to node %d",
			mp->name, node);
		return;
	}
	if (ret < 0) {
		tm_note_add(mem, "unbound: no NUMA");
		TM_LOG(INFO, "pool %s: NUMA not available (numa_available() < 0), pool memory not bound to node %d",
			mp->name, node);
		return;
	}
	ret = tm_os_bind(mem->region, mem->region_len, node,
			mem->cfg.numa == RTE_PMD_TURBOMEM_NUMA_BIND);
	if (ret < 0) {
		tm_note_add(mem, "unbound: mbind failed");
		TM_LOG(WARNING, "pool %s: mbind of %zu bytes to node %d failed: %s; pool memory unbound",
			mp->name, mem->region_len, node, strerror(-ret));
		return;
	}
	mem->node = node;
}

/* Give the region back to the OS and the pool its requested socket. */
static void
tm_region_release(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_mem *mem = &tp->mem;
	void *va = mem->region;

	if (va == NULL)
		return;
	mem->region = NULL;
	tm_socket_steer(mp, tp);
	if (rte_malloc_heap_memory_remove(mem->heap, va,
			mem->region_len) != 0) {
		/* Something still lives there: unmapping would corrupt it. */
		TM_LOG(WARNING, "pool %s: cannot remove %zu bytes from heap %s: %s; leaving them mapped",
			mp->name, mem->region_len, mem->heap,
			rte_strerror(rte_errno));
		return;
	}
	if (rte_malloc_heap_destroy(mem->heap) != 0)
		TM_LOG(WARNING, "pool %s: cannot destroy heap %s: %s",
			mp->name, mem->heap, rte_strerror(rte_errno));
	tm_os_unmap(va, mem->region_len);
	mem->node = -1;
	mem->note[0] = '\0';
}

/*
 * Map, advise, bind and add to a new heap the memory of the whole pool.
 * One heap per pool, not one shared heap: with a shared heap two pools
 * created at once could place their memzones in each other's regions, and
 * a region could not be removed while another pool used it.
 */
static int
tm_region_create(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_mem *mem = &tp->mem;
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
		TM_LOG(ERR, "pool %s: cannot map %zu bytes of anonymous memory for heap %s: %s",
			mp->name, len, mem->heap, strerror(errno));
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
		TM_LOG(ERR, "pool %s: cannot make %zu bytes at %p writable for heap %s: %s",
			mp->name, len, va, mem->heap, strerror(-ret));
		goto unmap;
	}

	/* IOVA as VA: a page's IOVA is its address, as EAL gives mbufs. */
	n = len / TM_OS_HUGE_SZ;
	iova = malloc(n * sizeof(*iova));
	if (iova == NULL) {
		ret = -ENOMEM;
		TM_LOG(ERR, "pool %s: cannot allocate %zu bytes from the C heap for the IOVA table of heap %s (%zu pages)",
			mp->name, n * sizeof(*iova), mem->heap, n);
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
	tm_socket_steer(mp, tp);
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
	ret = turbomem_mem_conf_resolve(mp, &mem->cfg);
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
	return tm_region_create(mp, tp);
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
		tm_region_release(mp, tp);

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

int
turbomem_mem_driver_socket(const struct turbomem_pool *tp)
{
	int socket = tp->mem.req_socket;

	return rte_malloc_heap_socket_is_external(socket) == 1 ?
		SOCKET_ID_ANY : socket;
}

/*
 * The driver's own memory (pool data: statistics and slots; object map;
 * tracking records) is EAL's, which --no-huge mode places by first touch,
 * not by socket:
 * where the pool's region is bound, prefer its node for the pages of that
 * memory too (preferred, not bind: they are EAL's, and the pages at the
 * ends hold other data) and move them there. Undone at free.
 */
static void
tm_meta_place(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_mem *mem = &tp->mem;
	/* Relaxed: the pool is being populated, no get or put runs yet. */
	const void *p[RTE_DIM(mem->meta)] = { tp, tp->map.chunks, tp->map.by_va, tp->map.blk,
		rte_atomic_load_explicit(&tp->track,
			rte_memory_order_relaxed) };
	unsigned int i;
	size_t sz;
	int ret;

	if (mem->region == NULL || mem->node < 0)
		return;
	for (i = 0; i < RTE_DIM(p); i++) {
		if (p[i] == NULL || rte_malloc_validate(p[i], &sz) != 0)
			continue;
		ret = tm_os_place(p[i], sz, mem->node);
		if (ret < 0) {
			TM_LOG(WARNING, "pool %s: cannot move %zu bytes of driver memory to node %d: %s",
				mp->name, sz, mem->node, strerror(-ret));
			continue;
		}
		mem->meta[i].va = p[i];
		mem->meta[i].len = sz;
	}
}

void
turbomem_mem_populated(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	if (tp->map.nb_objs < mp->size)
		return;
	tm_meta_place(mp, tp);
	tm_socket_steer(mp, tp);
	turbomem_mem_report_log(mp);
}

void
turbomem_mem_free(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_mem *mem = &tp->mem;
	unsigned int i;

	for (i = 0; i < RTE_DIM(mem->meta); i++)
		if (mem->meta[i].va != NULL)
			tm_os_place(mem->meta[i].va, mem->meta[i].len, -1);
	memset(mem->meta, 0, sizeof(mem->meta));
	tm_region_release(mp, tp);
}
