/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_OSMEM_H
#define TURBOMEM_OSMEM_H

/**
 * @file
 * OS memory layer of turbomem: every mmap, madvise, mbind and
 * /proc/self/smaps read of the driver goes through here. No DPDK
 * dependency and no logging: functions return -errno and fill a reason
 * string, the pool-memory glue (turbomem_mem*.c) decides what to log.
 *
 * Failures a test cannot provoke for real are injected at the libc calls
 * made here by a test-only build of the plugin
 * (app/test-turbomem/tm_test_faults.h); this file holds no test hook.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Size of a PMD-mapped transparent huge page on x86-64 and arm64 (4K). */
#define TM_OS_HUGE_SZ ((size_t)2 << 20)

/**
 * Whether madvise(MADV_HUGEPAGE) can give huge pages to this process.
 *
 * @param note
 *   Filled with a short reason when not (fits the memory report).
 * @param hint
 *   Filled with how to enable THP when not.
 * @return true if usable.
 */
bool tm_os_thp_usable(char *note, size_t note_sz, char *hint, size_t hint_sz);

/**
 * Reserve len bytes (a multiple of TM_OS_HUGE_SZ) of private anonymous
 * memory aligned to TM_OS_HUGE_SZ, inaccessible and not faulted: advise
 * and bind it, then tm_os_commit() it.
 *
 * @return the address, or NULL with errno set.
 */
void *tm_os_map(size_t len);

/**
 * Make a tm_os_map() region readable and writable. Where the process
 * locks its future mappings (mlockall(MCL_FUTURE)), this faults it in,
 * with the advice and NUMA policy already set. 0 or -errno.
 */
int tm_os_commit(void *va, size_t len);

/** Unmap what tm_os_map() returned. */
void tm_os_unmap(void *va, size_t len);

/** madvise(MADV_HUGEPAGE) on [va, va + len), page aligned; 0 or -errno. */
int tm_os_advise_huge(void *va, size_t len);

/**
 * MADV_COLLAPSE each TM_OS_HUGE_SZ page of [va, va + len) (aligned) that
 * already has a resident page: turns memory written before the advice
 * into huge pages, in place (same virtual addresses).
 *
 * @param collapsed
 *   Bytes collapsed.
 * @return 0, or the first -errno (-EINVAL: kernel without MADV_COLLAPSE).
 */
int tm_os_collapse_resident(void *va, size_t len, size_t *collapsed);

/**
 * NUMA support for binding: 0 if usable, -ENOTSUP if built without
 * libnuma, -ENODEV if numa_available() < 0.
 */
int tm_os_numa_state(void);

/**
 * Set the NUMA policy of [va, va + len) (page aligned) before first touch:
 * bind to node if strict, else prefer it. 0 or -errno.
 */
int tm_os_bind(void *va, size_t len, int node, bool strict);

/**
 * Prefer node for the pages holding [va, va + len), memory already in
 * use, and move those already faulted there (with the other data of the
 * pages at the ends; pages the kernel cannot move, pinned ones, stay);
 * node -1 gives the pages back the default policy, where they stay.
 * 0 or -errno.
 */
int tm_os_place(const void *va, size_t len, int node);

/** NUMA node of the page holding va (faulted), or -1. */
int tm_os_node_of(const void *va);

/** A byte range of pool memory. */
struct tm_os_range {
	uintptr_t start;
	uintptr_t end;
};

/**
 * Bytes of the ranges that sit in pages of TM_OS_HUGE_SZ or more, from
 * /proc/self/smaps: whole overlap for hugetlbfs mappings (KernelPageSize),
 * else the mapping's AnonHugePages less the part of the mapping outside
 * the ranges (a lower bound, exact when the mapping holds only pool memory
 * or all of it is in huge pages).
 *
 * @param max_page
 *   Largest page size of the mappings overlapping the ranges (a mapping
 *   with AnonHugePages counts as TM_OS_HUGE_SZ).
 * @return 0 or -errno (smaps unreadable).
 */
int tm_os_huge_bytes(const struct tm_os_range *r, unsigned int n,
		uint64_t *huge, uint64_t *max_page);

/** KernelPageSize of the mapping holding va, or 0 if none. */
uint64_t tm_os_page_size(const void *va);

/**
 * Whether this process has a VFIO or iommufd device open, i.e. may have
 * DMA-mapped memory (true when that cannot be read).
 */
bool tm_os_vfio_open(void);

#endif /* TURBOMEM_OSMEM_H */
