/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifdef RTE_HAS_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

#include <rte_string_fns.h>

#include "turbomem_osmem.h"

/* Tries of MADV_COLLAPSE on one 2 MB range that fails with EAGAIN. */
#define TM_OS_COLLAPSE_TRIES 4

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25	/* Linux >= 6.1; older libcs lack the name */
#endif
#ifndef PR_GET_THP_DISABLE
#define PR_GET_THP_DISABLE 42
#endif
/* Linux >= 6.18: THP stays on for madvised memory despite the disable. */
#define TM_PR_THP_DISABLE_EXCEPT_ADVISED (1 << 1)

#define TM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TM_MAX(a, b) ((a) > (b) ? (a) : (b))

#define TM_THP_SYSFS "/sys/kernel/mm/transparent_hugepage"

/* The bracketed word of a sysfs THP mode file, "" if unreadable. */
static void
tm_thp_mode(const char *path, char *mode, size_t sz)
{
	char buf[128], *l, *r;
	FILE *f = fopen(path, "r");

	mode[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, sizeof(buf), f) != NULL) {
		l = strchr(buf, '[');
		r = l != NULL ? strchr(l, ']') : NULL;
		if (r != NULL) {
			*r = '\0';
			strlcpy(mode, l + 1, sz);
		}
	}
	fclose(f);
}

bool
tm_os_thp_usable(char *note, size_t note_sz, char *hint, size_t hint_sz)
{
	char mode[32], pmd[32];
	int ret;

	ret = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
	if (ret > 0 && !(ret & TM_PR_THP_DISABLE_EXCEPT_ADVISED)) {
		snprintf(note, note_sz, "THP disabled by prctl(PR_SET_THP_DISABLE)");
		snprintf(hint, hint_sz, "start the process without PR_SET_THP_DISABLE (it is inherited from the parent)");
		return false;
	}
	tm_thp_mode(TM_THP_SYSFS "/enabled", mode, sizeof(mode));
	if (mode[0] == '\0') {
		snprintf(note, note_sz, "kernel without THP");
		snprintf(hint, hint_sz, "use a kernel built with CONFIG_TRANSPARENT_HUGEPAGE, or reserve hugepages for EAL");
		return false;
	}
	/* Linux >= 6.8: per-size control; "inherit" follows the top level. */
	tm_thp_mode(TM_THP_SYSFS "/hugepages-2048kB/enabled", pmd, sizeof(pmd));
	if (strcmp(mode, "never") == 0 &&
			(pmd[0] == '\0' || strcmp(pmd, "inherit") == 0)) {
		snprintf(note, note_sz, "THP disabled system-wide (sysfs enabled=never)");
		snprintf(hint, hint_sz, "echo madvise > " TM_THP_SYSFS "/enabled");
		return false;
	}
	if (strcmp(pmd, "never") == 0) {
		snprintf(note, note_sz, "2 MB THP disabled (sysfs hugepages-2048kB=never)");
		snprintf(hint, hint_sz, "echo inherit > " TM_THP_SYSFS "/hugepages-2048kB/enabled");
		return false;
	}
	note[0] = '\0';
	hint[0] = '\0';
	return true;
}

void *
tm_os_map(size_t len)
{
	size_t over = len + TM_OS_HUGE_SZ;
	uintptr_t base, start;
	void *va;

	/*
	 * Over-map, then trim to a huge page boundary on both sides.
	 * PROT_NONE: under mlockall(MCL_FUTURE) (testpmd) an accessible
	 * mapping is faulted in 4 KB pages at once, before advice and policy.
	 */
	va = mmap(NULL, over, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (va == MAP_FAILED)
		return NULL;
	base = (uintptr_t)va;
	start = (base + TM_OS_HUGE_SZ - 1) & ~(uintptr_t)(TM_OS_HUGE_SZ - 1);
	if (start > base)
		munmap(va, start - base);
	if (base + over > start + len)
		munmap((void *)(start + len), base + over - (start + len));
	return (void *)start;
}

int
tm_os_commit(void *va, size_t len)
{
	/* A locked mapping is populated here, with advice and policy set. */
	return mprotect(va, len, PROT_READ | PROT_WRITE) == 0 ? 0 : -errno;
}

void
tm_os_unmap(void *va, size_t len)
{
	if (va != NULL)
		munmap(va, len);
}

int
tm_os_advise_huge(void *va, size_t len)
{
	return madvise(va, len, MADV_HUGEPAGE) == 0 ? 0 : -errno;
}

int
tm_os_collapse_resident(void *va, size_t len, size_t *collapsed)
{
	unsigned char vec[TM_OS_HUGE_SZ / 4096];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t npg = TM_OS_HUGE_SZ / pg, off, i;
	int first = 0, ret = 0;
	unsigned int tries;

	*collapsed = 0;
	if (npg > sizeof(vec))
		return -ENOTSUP;
	for (off = 0; off + TM_OS_HUGE_SZ <= len; off += TM_OS_HUGE_SZ) {
		char *p = (char *)va + off;
		bool resident = false;

		if (mincore(p, TM_OS_HUGE_SZ, vec) != 0)
			continue;
		for (i = 0; i < npg && !resident; i++)
			resident = vec[i] & 1;
		if (!resident)
			continue; /* faulted later, after the advice */
		/*
		 * EAGAIN is transient (a page locked or off the LRU for a
		 * moment, as when other processes fault or collapse at the
		 * same time): a few more tries, then reported as a failure.
		 */
		for (tries = 0; tries < TM_OS_COLLAPSE_TRIES; tries++) {
			ret = madvise(p, TM_OS_HUGE_SZ, MADV_COLLAPSE);
			if (ret == 0 || errno != EAGAIN)
				break;
			sched_yield();
		}
		if (ret == 0) {
			*collapsed += TM_OS_HUGE_SZ;
			continue;
		}
		if (first == 0)
			first = -errno;
		if (errno == EINVAL)
			break; /* not supported: the rest would fail alike */
	}
	return first;
}

int
tm_os_numa_state(void)
{
#ifdef RTE_HAS_LIBNUMA
	if (numa_available() < 0)
		return -ENODEV;
	return 0;
#else
	return -ENOTSUP;
#endif
}

#ifdef RTE_HAS_LIBNUMA
/* mbind(2) of [va, va + len) with policy mode and a mask of node alone. */
static int
tm_os_mbind(void *va, size_t len, int node, int mode, unsigned int flags)
{
	unsigned long mask[16] = { 0 };
	const unsigned int bits = sizeof(mask) * 8;

	if (node < 0 || (unsigned int)node >= bits)
		return -EINVAL;
	mask[node / (8 * sizeof(mask[0]))] |= 1UL << (node % (8 * sizeof(mask[0])));
	/* The kernel reads maxnode - 1 bits. */
	if (mbind(va, len, mode, mask, bits + 1, flags) != 0)
		return -errno;
	return 0;
}
#endif

int
tm_os_bind(void *va, size_t len, int node, bool strict)
{
#ifdef RTE_HAS_LIBNUMA
	return tm_os_mbind(va, len, node, strict ? MPOL_BIND : MPOL_PREFERRED,
			0);
#else
	(void)va;
	(void)len;
	(void)node;
	(void)strict;
	return -ENOTSUP;
#endif
}

int
tm_os_place(const void *va, size_t len, int node)
{
#ifdef RTE_HAS_LIBNUMA
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t s = (uintptr_t)va & ~(pg - 1);
	uintptr_t e = ((uintptr_t)va + len + pg - 1) & ~(pg - 1);

	if (node < 0)
		return mbind((void *)s, e - s, MPOL_DEFAULT, NULL, 0, 0) == 0 ?
			0 : -errno;
	return tm_os_mbind((void *)s, e - s, node, MPOL_PREFERRED,
			MPOL_MF_MOVE);
#else
	(void)va;
	(void)len;
	(void)node;
	return -ENOTSUP;
#endif
}

int
tm_os_node_of(const void *va)
{
#ifdef RTE_HAS_LIBNUMA
	int node = -1;

	if (get_mempolicy(&node, NULL, 0, (void *)(uintptr_t)va,
			MPOL_F_NODE | MPOL_F_ADDR) != 0)
		return -1;
	return node;
#else
	(void)va;
	return -1;
#endif
}

/* One mapping of /proc/self/smaps, the fields turbomem needs. */
struct tm_smaps_vma {
	uintptr_t start, end;
	uint64_t kpage;		/* KernelPageSize, bytes */
	uint64_t anon_huge;	/* AnonHugePages, bytes */
};

/*
 * Calls fn for each mapping of /proc/self/smaps; stops when fn returns
 * non-zero. 0 or -errno.
 */
static int
tm_smaps_walk(int (*fn)(const struct tm_smaps_vma *v, void *arg), void *arg)
{
	struct tm_smaps_vma v = { 0 };
	bool have = false;
	char *line = NULL;
	size_t cap = 0;
	uint64_t kb;
	int stop = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (f == NULL)
		return -errno;
	while (stop == 0 && getline(&line, &cap, f) > 0) {
		uintptr_t s, e;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &s, &e) == 2) {
			if (have)
				stop = fn(&v, arg);
			memset(&v, 0, sizeof(v));
			v.start = s;
			v.end = e;
			have = true;
		} else if (sscanf(line, "KernelPageSize: %" SCNu64 " kB", &kb) == 1) {
			v.kpage = kb << 10;
		} else if (sscanf(line, "AnonHugePages: %" SCNu64 " kB", &kb) == 1) {
			v.anon_huge = kb << 10;
		}
	}
	if (have && stop == 0)
		fn(&v, arg);
	free(line);
	fclose(f);
	return 0;
}

struct tm_huge_walk {
	const struct tm_os_range *r;
	unsigned int n;
	uint64_t huge;
	uint64_t max_page;
};

static int
tm_huge_vma(const struct tm_smaps_vma *v, void *arg)
{
	struct tm_huge_walk *w = arg;
	uint64_t inside = 0, outside, page;
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		uintptr_t s = TM_MAX(v->start, w->r[i].start);
		uintptr_t e = TM_MIN(v->end, w->r[i].end);

		if (e > s)
			inside += e - s;
	}
	if (inside == 0)
		return 0;
	page = v->kpage;
	if (v->anon_huge > 0 && page < TM_OS_HUGE_SZ)
		page = TM_OS_HUGE_SZ;
	if (page > w->max_page)
		w->max_page = page;
	if (v->kpage >= TM_OS_HUGE_SZ) {
		w->huge += inside;
	} else {
		outside = (v->end - v->start) - inside;
		if (v->anon_huge > outside)
			w->huge += TM_MIN(v->anon_huge - outside, inside);
	}
	return 0;
}

int
tm_os_huge_bytes(const struct tm_os_range *r, unsigned int n,
		uint64_t *huge, uint64_t *max_page)
{
	struct tm_huge_walk w = { .r = r, .n = n };
	int ret;

	ret = tm_smaps_walk(tm_huge_vma, &w);
	*huge = w.huge;
	*max_page = w.max_page;
	return ret;
}

struct tm_page_walk {
	uintptr_t va;
	uint64_t kpage;
};

static int
tm_page_vma(const struct tm_smaps_vma *v, void *arg)
{
	struct tm_page_walk *w = arg;

	if (w->va < v->start || w->va >= v->end)
		return 0;
	w->kpage = v->kpage;
	return 1;
}

uint64_t
tm_os_page_size(const void *va)
{
	struct tm_page_walk w = { .va = (uintptr_t)va };

	if (tm_smaps_walk(tm_page_vma, &w) < 0)
		return 0;
	return w.kpage;
}

bool
tm_os_vfio_open(void)
{
	char target[64];
	struct dirent *d;
	bool found = false;
	ssize_t n;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (dir == NULL)
		return true; /* unknown: assume DMA mappings may exist */
	while (!found && (d = readdir(dir)) != NULL) {
		n = readlinkat(dirfd(dir), d->d_name, target,
				sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = strncmp(target, "/dev/vfio/", 10) == 0 ||
			strncmp(target, "/dev/iommu", 10) == 0;
	}
	closedir(dir);
	return found;
}
