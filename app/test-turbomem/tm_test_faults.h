/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_FAULTS_H
#define TM_TEST_FAULTS_H

/*
 * Forced into the test-only "faults" build of the plugin (-include), never
 * into a real one: failures a test cannot provoke for real, injected at
 * the calls the OS memory layer (turbomem_osmem.c) and the pool memory
 * glue (turbomem_mem.c) make. The environment variable TURBOMEM_TEST_FAIL
 * holds a comma-separated list of
 *   mmap      mmap() fails with ENOMEM
 *   numa      numa_available() reports no NUMA support
 *   mbind     mbind() fails with EIO
 *   collapse  madvise(MADV_COLLAPSE) fails with EINVAL (kernel < 6.1)
 *   collapse_busy  every other madvise(MADV_COLLAPSE) fails with EAGAIN
 *             (a transient failure, retried)
 *   thp_never sysfs transparent_hugepage/enabled reads "never" (a real
 *             change would affect every process on the machine)
 *   iova_pa   rte_eal_iova_mode() says PA, which EAL never selects
 *             without hugepages
 *   mprotect  mprotect() fails with ENOMEM
 *   heap_add  rte_malloc_heap_memory_add() fails with ENOMEM
 *   rte_malloc=TYPE  rte_zmalloc_socket() of that type fails (ENOMEM)
 *   rte_realloc  rte_realloc_socket() fails
 *   malloc    the C library's malloc() fails with ENOMEM: the faults
 *             build links with -Wl,--wrap=malloc (a macro would also
 *             rename DPDK's __rte_dealloc attribute, malloc(f, n))
 * A test may change TURBOMEM_TEST_FAIL at run time: it is read at every
 * call. The wrappers are static inline: each source file gets its own
 * copy, the library exports nothing more.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Before rte_eal.h pulls in the trace headers (telemetry.c needs it). */
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API 1
#endif
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#ifdef RTE_HAS_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* Whether what is listed in TURBOMEM_TEST_FAIL. */
static inline bool
tm_fault(const char *what)
{
	const char *s = getenv("TURBOMEM_TEST_FAIL");
	size_t n = strlen(what);

	while (s != NULL && *s != '\0') {
		if (strncmp(s, what, n) == 0 && (s[n] == ',' || s[n] == '\0'))
			return true;
		s = strchr(s, ',');
		if (s != NULL)
			s++;
	}
	return false;
}

static inline void *
tm_fault_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (tm_fault("mmap")) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return mmap(addr, len, prot, flags, fd, off);
}

static inline int
tm_fault_madvise(void *addr, size_t len, int advice)
{
	static unsigned int busy;

	if (advice == MADV_COLLAPSE && tm_fault("collapse")) {
		errno = EINVAL;
		return -1;
	}
	if (advice == MADV_COLLAPSE && tm_fault("collapse_busy") &&
			busy++ % 2 == 0) {
		errno = EAGAIN;
		return -1;
	}
	return madvise(addr, len, advice);
}

/* The THP mode files read "never" / "inherit" under thp_never. */
static inline FILE *
tm_fault_fopen(const char *path, const char *mode)
{
	static const char never[] = "always madvise [never]\n";
	static const char inherit[] = "always [inherit] madvise never\n";

	if (tm_fault("thp_never") &&
			strstr(path, "transparent_hugepage") != NULL) {
		if (strstr(path, "/hugepages-") != NULL)
			return fmemopen((void *)(uintptr_t)inherit,
					sizeof(inherit) - 1, "r");
		if (strstr(path, "/enabled") != NULL)
			return fmemopen((void *)(uintptr_t)never,
					sizeof(never) - 1, "r");
	}
	return fopen(path, mode);
}

static inline int
tm_fault_mprotect(void *addr, size_t len, int prot)
{
	if (tm_fault("mprotect")) {
		errno = ENOMEM;
		return -1;
	}
	return mprotect(addr, len, prot);
}

static inline int
tm_fault_heap_add(const char *heap, void *va, size_t len,
		rte_iova_t iova[], unsigned int n, size_t pg_sz)
{
	if (tm_fault("heap_add")) {
		rte_errno = ENOMEM;
		return -1;
	}
	return rte_malloc_heap_memory_add(heap, va, len, iova, n, pg_sz);
}

static inline void *
tm_fault_zmalloc_socket(const char *type, size_t size, unsigned int align,
		int socket)
{
	char what[64];

	snprintf(what, sizeof(what), "rte_malloc=%s", type);
	if (tm_fault(what)) {
		rte_errno = ENOMEM;
		return NULL;
	}
	return rte_zmalloc_socket(type, size, align, socket);
}

static inline void *
tm_fault_realloc_socket(void *ptr, size_t size, unsigned int align,
		int socket)
{
	if (tm_fault("rte_realloc")) {
		rte_errno = ENOMEM;
		return NULL;
	}
	return rte_realloc_socket(ptr, size, align, socket);
}

/* -Wl,--wrap=malloc: one definition for the whole plugin (weak). */
void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

__attribute__((weak)) void *
__wrap_malloc(size_t size)
{
	if (tm_fault("malloc")) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(size);
}

static inline enum rte_iova_mode
tm_fault_iova_mode(void)
{
	return tm_fault("iova_pa") ? RTE_IOVA_PA : rte_eal_iova_mode();
}

#ifdef RTE_HAS_LIBNUMA
static inline int
tm_fault_numa_available(void)
{
	return tm_fault("numa") ? -1 : numa_available();
}

static inline long
tm_fault_mbind(void *addr, unsigned long len, int mode,
		const unsigned long *mask, unsigned long maxnode,
		unsigned int flags)
{
	if (tm_fault("mbind")) {
		errno = EIO;
		return -1;
	}
	return mbind(addr, len, mode, mask, maxnode, flags);
}

#define numa_available() tm_fault_numa_available()
#define mbind(a, l, m, k, n, f) tm_fault_mbind(a, l, m, k, n, f)
#endif

#define mmap(a, l, p, f, d, o) tm_fault_mmap(a, l, p, f, d, o)
#define madvise(a, l, v) tm_fault_madvise(a, l, v)
#define fopen(p, m) tm_fault_fopen(p, m)
#define rte_eal_iova_mode() tm_fault_iova_mode()
#define mprotect(a, l, p) tm_fault_mprotect(a, l, p)
#define rte_malloc_heap_memory_add(h, v, l, i, n, p) \
	tm_fault_heap_add(h, v, l, i, n, p)
#define rte_zmalloc_socket(t, s, a, k) tm_fault_zmalloc_socket(t, s, a, k)
#define rte_realloc_socket(p, s, a, k) tm_fault_realloc_socket(p, s, a, k)

#endif /* TM_TEST_FAULTS_H */
