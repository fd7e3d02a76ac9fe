/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Pool memory tests: THP coverage, NUMA binding, the memory report, and
 * every fallback. Facts come from the kernel (/proc/self/smaps, maps,
 * statm, get_mempolicy), log lines from EAL's log stream.
 *
 * Matrix (commands, then options after the command; meson runs each case
 * in its own process, see meson.build). TURBOMEM_TEST_FAIL cases run on
 * the test-only faults build of the plugin (tm_test_faults.h); where THP
 * is not usable, the cases that need it skip (SKIP: line, listed by
 * scripts/test.sh):
 *   turbomem_mem_thp_autotest      --numa=bound|preferred|none|nolib|
 *                                  unavailable|mbind
 *       65535-mbuf pktmbuf pool, --no-huge: >= 95% in 2 MB pages by smaps,
 *       report agrees, socket id reads back, buf_iova == address, node;
 *       SOCKET_ID_ANY pool: unbound. The options name how NUMA must turn
 *       out (TURBOMEM_CONFIG=numa=preferred|none, plugin built without
 *       libnuma, TURBOMEM_TEST_FAIL=numa|mbind); the region's policy is
 *       read back with get_mempolicy(MPOL_F_ADDR).
 *   turbomem_mem_shapes_autotest   element sizes and flags: the pool's own
 *       region holds it in one chunk, all in 2 MB pages.
 *   turbomem_mem_cycles_autotest   100 create/free: RSS and maps flat.
 *   turbomem_mem_nothp_autotest    [--env-required] [--sysfs]
 *       prctl(PR_SET_THP_DISABLE): works, reports 0, one NOTICE; THP
 *       REQUIRED fails cleanly, name free. --env-required: the same through
 *       TURBOMEM_CONFIG=thp=required and rte_pktmbuf_pool_create_by_ops.
 *       --sysfs: THP "never" system-wide (TURBOMEM_TEST_FAIL=thp_never)
 *       instead of prctl.
 *   turbomem_mem_socket_autotest   [--env-bad | --mmap-fail]
 *       nonexistent socket and bad configuration: refused, nothing left,
 *       name free. --env-bad: TURBOMEM_CONFIG holds a bad entry.
 *       --mmap-fail: TURBOMEM_TEST_FAIL=mmap, the region cannot be mapped.
 *   turbomem_mem_appmem_autotest   [--collapse=fail | --nothp]
 *       rte_mempool_populate_virt on the application's own memory, partly
 *       written before: interior advised, written part collapsed (or one
 *       NOTICE with TURBOMEM_TEST_FAIL=collapse). --nothp: under
 *       prctl(PR_SET_THP_DISABLE), one NOTICE, nothing huge.
 *   turbomem_mem_xmem_autotest     pool on the application's external heap
 *       (testpmd --mp-alloc=xmem): no heap of turbomem's own, the written
 *       memory collapsed into 2 MB pages, socket id kept.
 *   turbomem_mem_heaps_autotest    malloc heaps run out: NOTICE, EAL memory.
 *   turbomem_mem_iova_autotest     [--expect=pa]
 *       run with --iova-mode=pa: EAL 22.11 selects VA without hugepages;
 *       --expect=pa (TURBOMEM_TEST_FAIL=iova_pa): the PA fallback.
 *   turbomem_mem_hugetlbfs_autotest  EAL on hugepages: hugetlbfs, 2 MB,
 *       never advised (skipped without hugepages).
 *   turbomem_mem_track_heap_autotest  testpmd's default pool, tracking
 *       off and on: one chunk in the pool's own heap, which holds nothing
 *       else.
 *   turbomem_mem_enomem_autotest  (faults build) every -ENOMEM of pool
 *       creation, the tracking switch and the reports: one ERR line
 *       naming the pool, the bytes and the heap or socket; nothing left.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "test.h"

#define HUGE_SZ (2u << 20)

/* --- the public API, from the plugin EAL loaded with -d ----------------- */

typedef int (mem_info_fn)(const struct rte_mempool *,
		struct rte_pmd_turbomem_mem_info *);
typedef const char *(backing_name_fn)(enum rte_pmd_turbomem_backing);

static mem_info_fn *mem_info;
static backing_name_fn *backing_name;

/* EAL dlopens -d plugins without RTLD_GLOBAL: look the symbols up there. */
static int
api_load(void)
{
	if (mem_info != NULL)
		return 0;
	mem_info = (mem_info_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_mem_info");
	backing_name = (backing_name_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_backing_name");
	return mem_info != NULL && backing_name != NULL ? 0 : -1;
}

/* --- options after the command ------------------------------------------ */

/* --- turbomem log lines, with their level ------------------------------- */

static char logbuf[16384];
static size_t loglen;
static FILE *old_stream;
static FILE *cap_stream;

static ssize_t
cap_write(void *c, const char *buf, size_t size)
{
	int level = rte_log_cur_msg_loglevel();

	RTE_SET_USED(c);
	fwrite(buf, 1, size, stderr); /* still visible in the test log */
	if (strncmp(buf, "turbomem: ", 10) == 0 &&
			loglen + size + 4 < sizeof(logbuf))
		loglen += snprintf(logbuf + loglen, sizeof(logbuf) - loglen,
				"%d %.*s", level, (int)size, buf);
	return size;
}

static void
cap_start(void)
{
	cookie_io_functions_t io = { .write = cap_write };

	loglen = 0;
	logbuf[0] = '\0';
	old_stream = rte_log_get_stream();
	cap_stream = fopencookie(NULL, "w", io);
	setvbuf(cap_stream, NULL, _IONBF, 0);
	rte_openlog_stream(cap_stream);
}

static void
cap_stop(void)
{
	rte_openlog_stream(old_stream == stderr ? NULL : old_stream);
	fclose(cap_stream);
}

/* Lines at exactly level containing text (NULL: any); total: all levels. */
static int
cap_count(int level, const char *text)
{
	const char *p = logbuf;
	int n = 0;

	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		int l = atoi(p);
		char line[1024];

		if (eol == NULL)
			eol = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		if ((level < 0 || l == level) &&
				(text == NULL || strstr(line, text) != NULL))
			n++;
		p = *eol ? eol + 1 : eol;
	}
	return n;
}

/* Lines at NOTICE or more urgent (what a default log level shows). */
static int
cap_visible(void)
{
	return cap_count(RTE_LOG_EMERG, NULL) + cap_count(RTE_LOG_ALERT, NULL) +
		cap_count(RTE_LOG_CRIT, NULL) + cap_count(RTE_LOG_ERR, NULL) +
		cap_count(RTE_LOG_WARNING, NULL) + cap_count(RTE_LOG_NOTICE, NULL);
}

/* --- kernel facts --------------------------------------------------------- */

static uint64_t
rss_bytes(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* NUMA node of the page at va (touched), -1 if unknown. */
static int
node_of(const void *va)
{
	int node = -1;

	/* MPOL_F_NODE | MPOL_F_ADDR */
	if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, va, 3UL) != 0)
		return -1;
	return node;
}

/*
 * The NUMA policy of the mapping holding va, read back from the kernel
 * (get_mempolicy(MPOL_F_ADDR)): mode (MPOL_DEFAULT 0, MPOL_PREFERRED 1,
 * MPOL_BIND 2) and the lowest node of its node mask (-1 if empty).
 */
static int
policy_of(const void *va, int *mode, int *node)
{
	unsigned long mask[16] = { 0 };
	const unsigned long bits = sizeof(mask) * 8;
	unsigned long i;

	*node = -1;
	/* MPOL_F_ADDR */
	if (syscall(SYS_get_mempolicy, mode, mask, bits, va, 2UL) != 0)
		return -1;
	*mode &= 0xff; /* without the mode flags */
	for (i = 0; i < bits; i++)
		if ((mask[i / (8 * sizeof(mask[0]))] >>
				(i % (8 * sizeof(mask[0])))) & 1) {
			*node = (int)i;
			break;
		}
	return 0;
}

static bool
thp_usable(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (f == NULL)
		return false;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[never]") == NULL && buf[0] != '\0' &&
		prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0;
}

/* The number after "key" in a /proc file of "key value" lines, -1 if none. */
static long long
proc_value(const char *path, const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	while (v < 0 && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 && (line[n] == ' ' || line[n] == ':'))
			v = strtoll(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/* thp_fault_fallback when the test began. */
static long long thp_fallback0 = -1;

static void
thp_fallback_mark(void)
{
	thp_fallback0 = proc_value("/proc/vmstat", "thp_fault_fallback");
}

/*
 * Pool memory short of 2 MB pages: say whether the kernel failed to find
 * free 2 MB pages meanwhile (it then faults 4 KB pages, the pool's code
 * cannot do otherwise), so that a failure under a machine short of memory
 * reads as such.
 */
static void
thp_short_note(void)
{
	long long now = proc_value("/proc/vmstat", "thp_fault_fallback");

	printf("kernel: %lld THP fault fallback(s) to 4 KB pages machine-wide since the test began (/proc/vmstat thp_fault_fallback %lld), MemAvailable %lld kB, MemFree %lld kB\n",
		now >= 0 && thp_fallback0 >= 0 ? now - thp_fallback0 : -1, now,
		proc_value("/proc/meminfo", "MemAvailable"),
		proc_value("/proc/meminfo", "MemFree"));
}

/* --- helpers -------------------------------------------------------------- */

static void
check_iova(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct rte_mbuf *m = obj;
	unsigned int *bad = arg;

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	if (m->buf_iova == RTE_BAD_IOVA ||
			(rte_eal_iova_mode() == RTE_IOVA_VA &&
			 m->buf_iova != (uintptr_t)m->buf_addr))
		(*bad)++;
}

/* Whether avail + in use == size, avail == want; else -1 (printed). */
static int
counts_check(struct rte_mempool *mp, unsigned int want, const char *when)
{
	unsigned int a = rte_mempool_avail_count(mp);
	unsigned int u = rte_mempool_in_use_count(mp);

	if (a == want && a + u == mp->size)
		return 0;
	printf("%s: avail %u + in use %u, want %u + %u\n", when, a, u, want,
		mp->size - want);
	return -1;
}

/*
 * Take every object out and put them back: the pool works, and its
 * counts add up to its size at rest, full and empty.
 */
static int
drain_refill(struct rte_mempool *mp)
{
	unsigned int n = mp->size, i;
	void **objs = calloc(n, sizeof(*objs));
	int ret = 0;

	if (objs == NULL)
		return -1;
	if (counts_check(mp, n, "before the drain") < 0) {
		free(objs);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (rte_mempool_get(mp, &objs[i]) != 0) {
			printf("get %u of %u failed\n", i, n);
			ret = -1;
			break;
		}
	if (ret == 0 && rte_mempool_get(mp, &objs[0]) == 0) {
		printf("pool of %u gave one more\n", n);
		rte_mempool_put(mp, objs[0]);
		ret = -1;
	}
	if (ret == 0)
		ret = counts_check(mp, 0, "drained");
	rte_mempool_put_bulk(mp, objs, i);
	free(objs);
	if (ret == 0)
		ret = counts_check(mp, n, "refilled");
	return ret;
}

static uintptr_t
first_chunk(struct rte_mempool *mp, size_t *len)
{
	struct rte_mempool_memhdr *h = STAILQ_FIRST(&mp->mem_list);

	*len = h != NULL ? h->len : 0;
	return h != NULL ? (uintptr_t)h->addr : 0;
}

static void
print_info(const char *what, const struct rte_pmd_turbomem_mem_info *i)
{
	printf("%s: %" PRIu64 " bytes, %" PRIu64 " in 2 MB pages (%.1f%%), backing %s, page %" PRIu64 ", node %d, %u chunk(s)%s%s\n",
		what, i->bytes, i->huge_bytes,
		i->bytes ? 100.0 * i->huge_bytes / i->bytes : 0.0,
		backing_name(i->backing), i->page_size, i->numa_node,
		i->nb_chunks, i->note[0] ? ", note: " : "", i->note);
}

/* --- THP coverage, socket, IOVA, NUMA ------------------------------------- */

static int
thp_pool_check(struct rte_mempool *mp, int socket, const char *numa)
{
	struct rte_pmd_turbomem_mem_info info;
	struct tm_smaps sm;
	unsigned int bad = 0;
	uintptr_t va;
	size_t len;
	int node, mode, pnode;

	TEST_ASSERT(mp->socket_id == socket, "socket id %d, asked for %d",
		mp->socket_id, socket);
	TEST_ASSERT(mem_info(mp, &info) == 0, "mem_info failed");
	print_info(mp->name, &info);
	TEST_ASSERT(info.backing == RTE_PMD_TURBOMEM_BACKING_THP,
		"backing %s", backing_name(info.backing));
	TEST_ASSERT(info.nb_chunks == 1, "%u chunks", info.nb_chunks);
	va = first_chunk(mp, &len);
	TEST_ASSERT(info.bytes == len, "report %" PRIu64 " bytes, chunk %zu",
		info.bytes, len);
	if (info.huge_bytes * 100 < info.bytes * 95)
		thp_short_note();
	TEST_ASSERT(info.huge_bytes * 100 >= info.bytes * 95,
		"%" PRIu64 " of %" PRIu64 " bytes in 2 MB pages",
		info.huge_bytes, info.bytes);
	TEST_ASSERT(info.page_size == HUGE_SZ, "page size %" PRIu64,
		info.page_size);

	/* The kernel's own figures for the pool's mapping. */
	TEST_ASSERT(tm_test_smaps(va, va + len, &sm) == 0, "smaps unreadable");
	printf("%s: smaps: mapping(s) of %" PRIu64 " bytes, AnonHugePages %" PRIu64 ", advised %d\n",
		mp->name, sm.vma_bytes, sm.anon_huge, sm.advised);
	TEST_ASSERT(sm.anon_huge * 100 >= (uint64_t)len * 95,
		"smaps: %" PRIu64 " of %zu bytes huge", sm.anon_huge, len);
	TEST_ASSERT(sm.advised, "mapping not advised MADV_HUGEPAGE");
	TEST_ASSERT(info.huge_bytes <= sm.anon_huge &&
		info.huge_bytes + (sm.vma_bytes - len) >= sm.anon_huge,
		"report %" PRIu64 " disagrees with smaps %" PRIu64 " (mapping %" PRIu64 ", pool %zu)",
		info.huge_bytes, sm.anon_huge, sm.vma_bytes, len);

	rte_mempool_obj_iter(mp, check_iova, &bad);
	TEST_ASSERT(bad == 0, "%u mbufs with buf_iova not their address", bad);

	/*
	 * The policy the kernel holds for the region, not the driver's report
	 * of itself: bind -> MPOL_BIND to the socket's node, preferred ->
	 * MPOL_PREFERRED, none, SOCKET_ID_ANY and every unbound case -> the
	 * default policy.
	 */
	TEST_ASSERT(policy_of((void *)va, &mode, &pnode) == 0,
		"get_mempolicy(MPOL_F_ADDR): %s", strerror(errno));
	node = node_of((void *)va);
	printf("%s: policy mode %d node %d, page on node %d (numa=%s)\n",
		mp->name, mode, pnode, node, numa);
	if (socket == SOCKET_ID_ANY) {
		TEST_ASSERT(info.numa_node == -1, "SOCKET_ID_ANY pool bound to %d",
			info.numa_node);
		TEST_ASSERT(mode == 0, "SOCKET_ID_ANY pool: policy mode %d", mode);
	} else if (strcmp(numa, "bound") == 0 || strcmp(numa, "preferred") == 0) {
		int want = strcmp(numa, "bound") == 0 ? 2 : 1;

		TEST_ASSERT(info.numa_node == socket, "node %d, socket %d",
			info.numa_node, socket);
		TEST_ASSERT(mode == want && pnode == socket,
			"policy mode %d node %d, want mode %d (%s) node %d",
			mode, pnode, want, want == 2 ? "MPOL_BIND" : "MPOL_PREFERRED",
			socket);
		TEST_ASSERT(node == socket, "page on node %d, socket %d",
			node, socket);
	} else if (strcmp(numa, "none") == 0) {
		TEST_ASSERT(info.numa_node == -1, "numa=none: node %d",
			info.numa_node);
		TEST_ASSERT(mode == 0, "numa=none: policy mode %d", mode);
	} else {
		TEST_ASSERT(info.numa_node == -1, "node %d, expected unbound (%s)",
			info.numa_node, numa);
		TEST_ASSERT(strstr(info.note, "unbound") != NULL,
			"note \"%s\" does not say unbound", info.note);
		TEST_ASSERT(mode == 0, "unbound (%s): policy mode %d", numa, mode);
	}
	return drain_refill(mp) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_mem_thp(void)
{
	const char *numa = tm_test_opt("--numa") ? tm_test_opt("--numa") : "bound";
	int socket = (int)rte_socket_id(), maps0, ret = TEST_SUCCESS;
	struct rte_mempool *mp = NULL;
	int lvl;
	const char *text;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE)");
	rte_log_set_level_pattern("pmd.mempool.turbomem", RTE_LOG_INFO);
	maps0 = tm_test_maps_count();
	thp_fallback_mark();

	cap_start();
	mp = rte_pktmbuf_pool_create_by_ops("tm_thp", 65535, 256, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, socket, TM_OPS);
	cap_stop();
	TEST_CHECK(mp != NULL, "pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(cap_count(RTE_LOG_INFO, "backing thp") == 1,
		"no single INFO summary line");
	if (strcmp(numa, "bound") == 0 || strcmp(numa, "preferred") == 0 ||
			strcmp(numa, "none") == 0) {
		lvl = -1;
		text = NULL;
	} else if (strcmp(numa, "mbind") == 0) {
		lvl = RTE_LOG_WARNING;
		text = "mbind";
	} else if (strcmp(numa, "nolib") == 0) {
		lvl = RTE_LOG_INFO;
		text = "without libnuma";
	} else {
		lvl = RTE_LOG_INFO;
		text = "numa_available";
	}
	if (text != NULL)
		TEST_CHECK(cap_count(lvl, text) == 1,
			"no single line at level %d with \"%s\"", lvl, text);
	TEST_CHECK(cap_visible() == (lvl == RTE_LOG_WARNING ? 1 : 0),
		"%d lines at NOTICE or above", cap_visible());
	TEST_CHECK(thp_pool_check(mp, socket, numa) == TEST_SUCCESS, "pool");
	rte_mempool_free(mp);

	mp = rte_pktmbuf_pool_create_by_ops("tm_thp_any", 4095, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, TM_OPS);
	TEST_CHECK(mp != NULL, "SOCKET_ID_ANY pool: %s",
		rte_strerror(rte_errno));
	TEST_CHECK(thp_pool_check(mp, SOCKET_ID_ANY, numa) == TEST_SUCCESS,
		"SOCKET_ID_ANY pool");
out:
	rte_mempool_free(mp);
	mp = NULL;
	if (ret == TEST_SUCCESS && tm_test_maps_left(maps0) != 0) {
		printf("%d mappings after free, %d before\n", tm_test_maps_count(), maps0);
		ret = TEST_FAILED;
	}
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_thp_autotest, test_mem_thp);

/* --- region sizing: every pool shape fits its heap in one chunk ---------- */

static int
test_mem_shapes(void)
{
	static const struct {
		unsigned int n, elt, flags;
	} shapes[] = {
		{ 1, 64, 0 },
		{ 127, 64, 0 },
		{ 10000, 2048, 0 },
		{ 10000, 2048, RTE_MEMPOOL_F_NO_IOVA_CONTIG },
		{ 5, (1u << 20) + 1, 0 },
		{ 3, 3u << 20, 0 },
		{ 3, 3u << 20, RTE_MEMPOOL_F_NO_IOVA_CONTIG },
		{ 4096, 512, RTE_MEMPOOL_F_NO_SPREAD },
	};
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp;
	unsigned int i;
	int ret;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE)");
	thp_fallback_mark();
	for (i = 0; i < RTE_DIM(shapes); i++) {
		mp = rte_mempool_create_empty("tm_shape", shapes[i].n,
				shapes[i].elt, 0, 0, 0, shapes[i].flags);
		TEST_ASSERT(mp != NULL, "shape %u", i);
		ret = rte_mempool_set_ops_byname(mp, TM_OPS, NULL);
		if (ret == 0)
			ret = rte_mempool_populate_default(mp);
		if (ret != (int)shapes[i].n || mem_info(mp, &info) != 0) {
			printf("shape %u (%u x %u, flags %#x): populate gave %d\n",
				i, shapes[i].n, shapes[i].elt, shapes[i].flags,
				ret);
			rte_mempool_free(mp);
			return TEST_FAILED;
		}
		print_info("tm_shape", &info);
		ret = info.backing == RTE_PMD_TURBOMEM_BACKING_THP &&
			info.nb_chunks == 1 && info.huge_bytes == info.bytes &&
			mp->socket_id == 0 && drain_refill(mp) == 0;
		if (info.huge_bytes != info.bytes)
			thp_short_note();
		rte_mempool_free(mp);
		TEST_ASSERT(ret, "shape %u (%u x %u, flags %#x)", i,
			shapes[i].n, shapes[i].elt, shapes[i].flags);
	}
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_mem_shapes_autotest, test_mem_shapes);

/* --- create/free cycles --------------------------------------------------- */

static int
test_mem_cycles(void)
{
	unsigned int i, n = 100;
	uint64_t rss0 = 0, rss1;
	int maps0 = 0, maps1;
	struct rte_mempool *mp;

	for (i = 0; i <= n; i++) {
		mp = rte_pktmbuf_pool_create_by_ops("tm_cycle", 8191, 0, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
		TEST_ASSERT(mp != NULL, "cycle %u: %s", i,
			rte_strerror(rte_errno));
		rte_mempool_free(mp);
		if (i == 0) { /* after one cycle: EAL's lazy state is set up */
			rss0 = rss_bytes();
			maps0 = tm_test_maps_count();
		}
	}
	rss1 = rss_bytes();
	maps1 = tm_test_maps_count();
	printf("%u cycles of a 8191-mbuf pool (~%u MB): RSS %" PRIu64 " -> %" PRIu64 " kB, mappings %d -> %d\n",
		n, 8191 * 2304 >> 20, rss0 >> 10, rss1 >> 10, maps0, maps1);
	TEST_ASSERT(tm_test_maps_left(maps0) == 0, "mappings grew from %d to %d",
		maps0, maps1);
	/* One leaked pool would be ~18 MB; allow allocator noise only. */
	TEST_ASSERT(rss1 < rss0 + (4u << 20), "RSS grew by %" PRIu64 " kB",
		(rss1 - rss0) >> 10);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_mem_cycles_autotest, test_mem_cycles);

/* --- THP disabled for the process ---------------------------------------- */

static struct rte_mempool *
cfg_pool(const char *name, unsigned int n, int socket,
		const struct rte_pmd_turbomem_config *cfg, int *err)
{
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty(name, n, 2048, 0, 0, socket, 0);
	if (mp == NULL) {
		*err = -rte_errno;
		return NULL;
	}
	*err = rte_mempool_set_ops_byname(mp, TM_OPS, (void *)(uintptr_t)cfg);
	if (*err == 0) {
		*err = rte_mempool_populate_default(mp);
		if (*err >= 0 && (unsigned int)*err == n)
			return mp;
	}
	rte_mempool_free(mp);
	return NULL;
}

static int
test_mem_nothp(void)
{
	struct rte_pmd_turbomem_config cfg = {
		.thp = RTE_PMD_TURBOMEM_THP_REQUIRED,
	};
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp = NULL;
	struct tm_smaps sm;
	int maps0, err = 0, ret = TEST_SUCCESS;
	bool env = tm_test_opt("--env-required") != NULL;
	/* THP off system-wide (TURBOMEM_TEST_FAIL=thp_never), else prctl. */
	bool sysfs = tm_test_opt("--sysfs") != NULL;
	const char *why = sysfs ? "enabled=never" : "PR_SET_THP_DISABLE";
	const char *note = sysfs ? "never" : "prctl";
	uintptr_t va;
	size_t len;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): no THP to fall back from");
	TEST_ASSERT(sysfs || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0,
		"prctl: %s", strerror(errno));
	maps0 = tm_test_maps_count();

	if (env) {
		/* TURBOMEM_CONFIG=thp=required, and no way to pass a config. */
		cap_start();
		mp = rte_pktmbuf_pool_create_by_ops("tm_nothp", 8191, 0, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
		cap_stop();
		err = -rte_errno;
	} else {
		cap_start();
		mp = cfg_pool("tm_nothp", 8191, 0, &cfg, &err);
		cap_stop();
	}
	TEST_CHECK(mp == NULL, "THP required, THP disabled: pool made");
	printf("THP required: %s\n", strerror(-err));
	TEST_CHECK(cap_count(RTE_LOG_ERR, why) == 1 &&
		cap_visible() == 1, "not one ERR line naming the reason");
	TEST_CHECK(rte_mempool_lookup("tm_nothp") == NULL, "name still taken");
	TEST_CHECK(tm_test_maps_left(maps0) == 0, "%d mappings, %d before",
		tm_test_maps_count(), maps0);

	if (env) {
		/* Required stays required in this process: enable THP. */
		TEST_CHECK(prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0, "prctl");
		mp = rte_pktmbuf_pool_create_by_ops("tm_nothp", 8191, 0, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
		TEST_CHECK(mp != NULL, "retry with THP: %s",
			rte_strerror(rte_errno));
		TEST_CHECK(mem_info(mp, &info) == 0 &&
			info.backing == RTE_PMD_TURBOMEM_BACKING_THP,
			"retry not THP-backed");
		goto out;
	}

	/* Same name, default configuration: works on 4 KB pages. */
	cap_start();
	mp = rte_pktmbuf_pool_create_by_ops("tm_nothp", 8191, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
	cap_stop();
	TEST_CHECK(mp != NULL, "pool without THP: %s", rte_strerror(rte_errno));
	TEST_CHECK(cap_count(RTE_LOG_NOTICE, why) == 1 &&
		cap_visible() == 1, "not one NOTICE line naming the reason");
	TEST_CHECK(drain_refill(mp) == 0, "pool does not work");
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	print_info(mp->name, &info);
	TEST_CHECK(info.huge_bytes == 0, "%" PRIu64 " bytes huge",
		info.huge_bytes);
	TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_4K &&
		info.page_size == 4096, "backing %s, page %" PRIu64,
		backing_name(info.backing), info.page_size);
	TEST_CHECK(strstr(info.note, note) != NULL, "note \"%s\"",
		info.note);
	va = first_chunk(mp, &len);
	TEST_CHECK(tm_test_smaps(va, va + len, &sm) == 0 && sm.anon_huge == 0,
		"smaps: %" PRIu64 " bytes huge", sm.anon_huge);
	TEST_CHECK(mp->socket_id == 0, "socket %d", mp->socket_id);
out:
	rte_mempool_free(mp);
	prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_nothp_autotest, test_mem_nothp);

/* --- refused sockets and configurations ----------------------------------- */

static int
test_mem_socket(void)
{
	struct rte_pmd_turbomem_config bad = { .thp = 9 };
	struct rte_mempool *mp = NULL;
	int maps0, err, ret = TEST_SUCCESS, socket = 0;
	unsigned int i;

	if (tm_test_opt("--mmap-fail") != NULL && !thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): no region of the driver's own to fail");
	for (i = 0; i < rte_socket_count(); i++)
		socket = RTE_MAX(socket, rte_socket_id_by_idx(i) + 1);
	maps0 = tm_test_maps_count();

	if (tm_test_opt("--mmap-fail") != NULL) {
		/* TURBOMEM_TEST_FAIL=mmap: the pool's own region cannot be had. */
		char heap[64];

		mp = rte_mempool_create_empty("tm_sock", 1023, 2048, 0, 0, 0, 0);
		TEST_CHECK(mp != NULL, "create_empty");
		TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0,
			"ops");
		cap_start();
		err = rte_mempool_populate_default(mp);
		cap_stop();
		TEST_CHECK(err == -ENOMEM, "populate gave %d", err);
		TEST_CHECK(cap_count(RTE_LOG_ERR, "cannot map") == 1 &&
			cap_visible() == 1, "not one ERR line");
		snprintf(heap, sizeof(heap), "turbomem-%p", (void *)mp);
		TEST_CHECK(rte_malloc_heap_get_socket(heap) < 0,
			"heap %s left behind", heap);
		TEST_CHECK(mp->socket_id == 0, "socket %d", mp->socket_id);
		rte_mempool_free(mp);
		mp = NULL;
		TEST_CHECK(tm_test_maps_left(maps0) == 0, "%d mappings, %d before",
			tm_test_maps_count(), maps0);
		/* Name free; THP off needs no region of its own. */
		mp = rte_mempool_create_empty("tm_sock", 1023, 2048, 0, 0, 0, 0);
		TEST_CHECK(mp != NULL, "create_empty again");
		goto out;
	}

	if (tm_test_opt("--env-bad") != NULL) {
		cap_start();
		mp = rte_pktmbuf_pool_create_by_ops("tm_sock", 1023, 0, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
		cap_stop();
		TEST_CHECK(mp == NULL && rte_errno == EINVAL,
			"bad TURBOMEM_CONFIG accepted");
		TEST_CHECK(cap_count(RTE_LOG_ERR, "TURBOMEM_CONFIG") == 1 &&
			cap_visible() == 1, "not one ERR line");
		goto out;
	}

	/* Through the public API: EAL or turbomem refuses, nothing left. */
	mp = rte_pktmbuf_pool_create_by_ops("tm_sock", 1023, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, socket, TM_OPS);
	TEST_CHECK(mp == NULL, "pool on socket %d that does not exist", socket);
	printf("socket %d: %s\n", socket, rte_strerror(rte_errno));

	/* The driver's own check: an existing pool pointed at that socket. */
	mp = rte_mempool_create_empty("tm_sock", 1023, 2048, 0, 0, 0, 0);
	TEST_CHECK(mp != NULL, "create_empty");
	TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0, "ops");
	mp->socket_id = socket;
	cap_start();
	err = rte_mempool_populate_default(mp);
	cap_stop();
	TEST_CHECK(err == -EINVAL, "populate on socket %d gave %d", socket, err);
	TEST_CHECK(cap_count(RTE_LOG_ERR, "does not exist") == 1 &&
		cap_visible() == 1, "not one ERR line");
	rte_mempool_free(mp);

	/* Bad configuration values. */
	cap_start();
	mp = cfg_pool("tm_sock", 1023, 0, &bad, &err);
	cap_stop();
	TEST_CHECK(mp == NULL && err == -EINVAL, "bad config gave %d", err);
	TEST_CHECK(cap_count(RTE_LOG_ERR, "thp=9") == 1 && cap_visible() == 1,
		"not one ERR line naming thp=9");

	TEST_CHECK(tm_test_maps_left(maps0) == 0, "%d mappings, %d before",
		tm_test_maps_count(), maps0);
	/* The name is free again. */
	mp = rte_pktmbuf_pool_create_by_ops("tm_sock", 1023, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
	TEST_CHECK(mp != NULL, "retry: %s", rte_strerror(rte_errno));
	TEST_CHECK(drain_refill(mp) == 0, "retry pool");
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_socket_autotest, test_mem_socket);

/* --- application memory --------------------------------------------------- */

static int
test_mem_appmem(void)
{
	const size_t map_len = 16u << 20, len = 12u << 20, pre = 4u << 20;
	bool fail = tm_test_opt("--collapse") != NULL;
	bool nothp = tm_test_opt("--nothp") != NULL;
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp = NULL;
	struct tm_smaps sm;
	uintptr_t base, a, s, e;
	char heap[64];
	int ret = TEST_SUCCESS, n;
	void *map;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE)");
	map = mmap(NULL, map_len + HUGE_SZ, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(map != MAP_FAILED, "mmap");
	/* Not 2 MB aligned: only the interior can be advised. */
	base = RTE_ALIGN_CEIL((uintptr_t)map, HUGE_SZ);
	a = base + (64u << 10);
	s = base + HUGE_SZ;
	e = RTE_ALIGN_FLOOR(a + len, HUGE_SZ);
	memset((void *)a, 1, pre); /* written before populate: 4 KB pages */

	mp = rte_mempool_create_empty("tm_app", 5000, 2048, 0, 0, 0,
			RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	TEST_CHECK(mp != NULL, "create_empty");
	TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, NULL) == 0, "ops");
	TEST_CHECK(!nothp || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0,
		"prctl");
	cap_start();
	n = rte_mempool_populate_virt(mp, (char *)a, len, 4096, NULL, NULL);
	cap_stop();
	TEST_CHECK(n == 5000, "populate_virt gave %d", n);
	TEST_CHECK(mp->socket_id == 0, "socket %d", mp->socket_id);
	snprintf(heap, sizeof(heap), "turbomem-%p", (void *)mp);
	TEST_CHECK(rte_malloc_heap_get_socket(heap) < 0,
		"unused heap %s left", heap);
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	print_info(mp->name, &info);
	TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_EXTERNAL,
		"backing %s", backing_name(info.backing));
	TEST_CHECK(tm_test_smaps(s, e, &sm) == 0, "smaps");
	printf("interior %zu MB: AnonHugePages %" PRIu64 " kB, advised %d\n",
		(size_t)(e - s) >> 20, sm.anon_huge >> 10, sm.advised);
	if (nothp) {
		/* alloc and populate both meet the reason: one line. */
		TEST_CHECK(cap_count(RTE_LOG_NOTICE, "PR_SET_THP_DISABLE") == 1 &&
			cap_visible() == 1, "not one NOTICE");
		TEST_CHECK(sm.anon_huge == 0 && info.huge_bytes == 0 &&
			strstr(info.note, "prctl") != NULL,
			"%" PRIu64 " kB huge, note \"%s\"", sm.anon_huge >> 10,
			info.note);
		TEST_CHECK(drain_refill(mp) == 0, "pool");
		goto out;
	}
	TEST_CHECK(sm.advised && sm.vma_bytes == e - s,
		"interior not advised as its own mapping (%" PRIu64 " bytes)",
		sm.vma_bytes);
	if (fail) {
		uint64_t lo = e - RTE_ALIGN_CEIL(a + pre, HUGE_SZ);

		/*
		 * The driver leaves the page written before populate in 4 KB
		 * pages; khugepaged may still collapse it (the interior is
		 * advised) at any time, so it may or may not be huge by now,
		 * and the report and smaps are read at different times.
		 */
		TEST_CHECK(cap_count(RTE_LOG_NOTICE, "MADV_COLLAPSE") == 1 &&
			cap_visible() == 1, "not one NOTICE about MADV_COLLAPSE");
		TEST_CHECK(sm.anon_huge >= lo && sm.anon_huge <= e - s,
			"%" PRIu64 " kB huge", sm.anon_huge >> 10);
		TEST_CHECK(info.huge_bytes >= lo && info.huge_bytes <= e - s,
			"report %" PRIu64 " kB huge", info.huge_bytes >> 10);
	} else {
		TEST_CHECK(cap_visible() == 0, "unexpected NOTICE");
		TEST_CHECK(sm.anon_huge == e - s, "%" PRIu64 " kB huge of %zu",
			sm.anon_huge >> 10, (size_t)(e - s) >> 10);
		TEST_CHECK(info.huge_bytes == sm.anon_huge,
			"report %" PRIu64 ", smaps %" PRIu64, info.huge_bytes,
			sm.anon_huge);
	}
	TEST_CHECK(drain_refill(mp) == 0, "pool");
out:
	if (nothp)
		prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
	rte_mempool_free(mp);
	munmap(map, map_len + HUGE_SZ);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_appmem_autotest, test_mem_appmem);

/* --- the application's external heap (testpmd --mp-alloc=xmem) ---------- */

static int
test_mem_xmem(void)
{
	const size_t len = 64u << 20;
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp = NULL;
	rte_iova_t iova[(64u << 20) / 4096];
	size_t pg = 4096, i;
	int ret = TEST_SUCCESS, socket, maps0;
	bool added = false;
	uintptr_t c;
	size_t clen;
	void *va;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE)");
	/* As testpmd does: 4 KB pages, each written to learn its IOVA. */
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(va != MAP_FAILED, "mmap");
	for (i = 0; i < len / pg; i++) {
		*(volatile char *)RTE_PTR_ADD(va, i * pg) = 0;
		iova[i] = (uintptr_t)va + i * pg;
	}
	TEST_CHECK(rte_malloc_heap_create("tm_xmem") == 0, "heap");
	TEST_CHECK(rte_malloc_heap_memory_add("tm_xmem", va, len, iova,
		len / pg, pg) == 0, "memory_add: %s", rte_strerror(rte_errno));
	added = true;
	socket = rte_malloc_heap_get_socket("tm_xmem");
	maps0 = tm_test_maps_count();

	cap_start();
	mp = rte_pktmbuf_pool_create_by_ops("tm_xmem", 8191, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, socket, TM_OPS);
	cap_stop();
	TEST_CHECK(mp != NULL, "pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(mp->socket_id == socket, "socket %d, asked %d",
		mp->socket_id, socket);
	TEST_CHECK(tm_test_maps_count() <= maps0 + 4, "%d mappings, %d before",
		tm_test_maps_count(), maps0);
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	print_info(mp->name, &info);
	TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_EXTERNAL,
		"backing %s", backing_name(info.backing));
	TEST_CHECK(info.numa_node == -1, "node %d", info.numa_node);
	/* All of the chunk's 2 MB-aligned interior, nothing else. */
	c = first_chunk(mp, &clen);
	TEST_CHECK(info.huge_bytes ==
		RTE_ALIGN_FLOOR(c + clen, HUGE_SZ) - RTE_ALIGN_CEIL(c, HUGE_SZ),
		"%" PRIu64 " of %" PRIu64 " bytes collapsed", info.huge_bytes,
		info.bytes);
	TEST_CHECK(cap_visible() == 0, "unexpected NOTICE");
	TEST_CHECK(drain_refill(mp) == 0, "pool");
out:
	rte_mempool_free(mp);
	if (added)
		rte_malloc_heap_memory_remove("tm_xmem", va, len);
	rte_malloc_heap_destroy("tm_xmem");
	munmap(va, len);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_xmem_autotest, test_mem_xmem);

/* --- malloc heaps run out ------------------------------------------------- */

static int
test_mem_heaps(void)
{
	struct rte_pmd_turbomem_config req = {
		.thp = RTE_PMD_TURBOMEM_THP_REQUIRED,
	};
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mps[RTE_MAX_HEAPS + 1] = { NULL }, *mp;
	unsigned int i, nb = 0, fell_back = 0;
	int ret = TEST_SUCCESS, maps0, err;
	char name[32];

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): the driver makes no heap");
	maps0 = tm_test_maps_count();
	for (i = 0; i < RTE_DIM(mps); i++) {
		snprintf(name, sizeof(name), "tm_heap%u", i);
		cap_start();
		mps[i] = tm_test_pool(name, 127, 64, 0, TM_OPS, 0, true);
		cap_stop();
		TEST_CHECK(mps[i] != NULL, "pool %u", i);
		nb++;
		TEST_CHECK(mem_info(mps[i], &info) == 0, "mem_info");
		if (info.backing == RTE_PMD_TURBOMEM_BACKING_THP)
			continue;
		TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_4K,
			"pool %u: backing %s", i, backing_name(info.backing));
		TEST_CHECK(cap_count(RTE_LOG_NOTICE, "heap") == 1 &&
			cap_visible() == 1, "no single NOTICE for pool %u", i);
		fell_back++;
		break;
	}
	printf("%u pools got their own heap, then EAL memory\n", nb - 1);
	TEST_CHECK(fell_back == 1, "heaps never ran out in %u pools", nb);
	/* Required THP cannot be had now. */
	mp = cfg_pool("tm_heapreq", 127, 0, &req, &err);
	TEST_CHECK(mp == NULL && err == -ENOSPC, "required gave %d", err);
	for (i = 0; i < nb; i++)
		TEST_CHECK(drain_refill(mps[i]) == 0, "pool %u", i);
	for (i = 0; i < nb; i++) {
		rte_mempool_free(mps[i]);
		mps[i] = NULL;
	}
	TEST_CHECK(tm_test_maps_left(maps0) == 0, "%d mappings, %d before",
		tm_test_maps_count(), maps0);
	mp = cfg_pool("tm_heapreq", 127, 0, &req, &err);
	TEST_CHECK(mp != NULL, "heaps not given back: %d", err);
	rte_mempool_free(mp);
out:
	for (i = 0; i < nb; i++)
		rte_mempool_free(mps[i]);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_heaps_autotest, test_mem_heaps);

/* --- IOVA as PA without hugepages ----------------------------------------- */

static int
test_mem_iova(void)
{
	bool pa = tm_test_opt("--expect") != NULL && strcmp(tm_test_opt("--expect"), "pa") == 0;
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp = NULL;
	unsigned int bad = 0;
	int ret = TEST_SUCCESS;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): no region of the driver's own");
	printf("EAL: hugepages %d, IOVA as %s\n", rte_eal_has_hugepages(),
		rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA");
	cap_start();
	mp = rte_pktmbuf_pool_create_by_ops("tm_iova", 4095, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
	cap_stop();
	TEST_CHECK(mp != NULL, "pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	print_info(mp->name, &info);
	rte_mempool_obj_iter(mp, check_iova, &bad);
	TEST_CHECK(bad == 0, "%u mbufs with a bad buf_iova", bad);
	if (pa || rte_eal_iova_mode() == RTE_IOVA_PA) {
		/* Defined fallback: EAL memory, one NOTICE. */
		TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_4K,
			"backing %s", backing_name(info.backing));
		TEST_CHECK(cap_count(RTE_LOG_NOTICE, "IOVA as PA") == 1 &&
			cap_visible() == 1, "not one NOTICE");
	} else {
		/* EAL without hugepages has no physical addresses: VA. */
		TEST_CHECK(!rte_eal_has_hugepages(), "run me with --no-huge");
		TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_THP ||
			!thp_usable(), "backing %s", backing_name(info.backing));
		TEST_CHECK(cap_visible() == 0, "unexpected NOTICE");
	}
	TEST_CHECK(drain_refill(mp) == 0, "pool");
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_iova_autotest, test_mem_iova);

/* --- EAL on hugetlbfs ----------------------------------------------------- */

static int
test_mem_hugetlbfs(void)
{
	struct rte_pmd_turbomem_mem_info info;
	struct rte_mempool *mp = NULL;
	struct tm_smaps sm;
	int ret = TEST_SUCCESS;
	uintptr_t va;
	size_t len;

	if (api_load() != 0)
		return TEST_FAILED;
	if (!rte_eal_has_hugepages())
		TEST_SKIP("EAL runs without hugepages");
	mp = rte_pktmbuf_pool_create_by_ops("tm_htlb", 8191, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, 0, TM_OPS);
	TEST_CHECK(mp != NULL, "pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	print_info(mp->name, &info);
	TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_HUGETLBFS,
		"backing %s", backing_name(info.backing));
	TEST_CHECK(info.page_size >= HUGE_SZ && info.huge_bytes == info.bytes,
		"page %" PRIu64 ", %" PRIu64 " of %" PRIu64 " huge",
		info.page_size, info.huge_bytes, info.bytes);
	TEST_CHECK(info.numa_node == 0, "node %d", info.numa_node);
	va = first_chunk(mp, &len);
	TEST_CHECK(tm_test_smaps(va, va + len, &sm) == 0, "smaps");
	TEST_CHECK(sm.kpage == info.page_size && !sm.advised,
		"smaps page %" PRIu64 ", advised %d", sm.kpage, sm.advised);
	TEST_CHECK(drain_refill(mp) == 0, "pool");
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_hugetlbfs_autotest, test_mem_hugetlbfs);

/* --- tracking records beside a pool that fills its heap ------------------- */

typedef int (held_get_fn)(const struct rte_mempool *, unsigned int,
		struct rte_pmd_turbomem_held *);
typedef int (track_set_fn)(struct rte_mempool *, int);
typedef int (threshold_set_fn)(struct rte_mempool *, unsigned int);

/*
 * testpmd's default pool (147456 mbufs of 2176 data bytes: 2368 bytes an
 * element with header) fills the last 2 MB page of its own heap but for
 * 0.8 MB, less than its 2.36 MB of tracking records. With tracking on it
 * must fit as it does off, in one chunk, and the heap must hold the
 * objects' memzone alone (issue 45: the records took its room).
 */
static int
test_mem_track_heap(void)
{
	static const enum rte_pmd_turbomem_track track[] = {
		RTE_PMD_TURBOMEM_TRACK_OFF, RTE_PMD_TURBOMEM_TRACK_ON };
	struct rte_pmd_turbomem_config cfg = { 0 };
	struct rte_pmd_turbomem_mem_info info;
	struct rte_malloc_socket_stats st;
	const struct rte_memzone *mz;
	struct rte_mempool *mp = NULL;
	char mz_name[RTE_MEMZONE_NAMESIZE];
	int ret = TEST_SUCCESS, err;
	track_set_fn *track_set;
	unsigned int i;

	track_set = (track_set_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_track_set");
	if (api_load() != 0 || track_set == NULL)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): no heap of the driver's own");
	for (i = 0; i < RTE_DIM(track); i++) {
		cfg.track = track[i];
		mp = rte_mempool_create_empty("tm_track_heap", 147456,
				sizeof(struct rte_mbuf) + 2176, 0, 0, 0, 0);
		TEST_CHECK(mp != NULL, "create_empty: %s",
			rte_strerror(rte_errno));
		TEST_CHECK(rte_mempool_set_ops_byname(mp, TM_OPS, &cfg) == 0,
			"ops");
		err = rte_mempool_populate_default(mp);
		TEST_CHECK(err == 147456, "track %s: populate gave %d (%s)",
			i ? "on" : "off", err, rte_strerror(err < 0 ? -err : 0));
		TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
		print_info(mp->name, &info);
		TEST_CHECK(info.backing == RTE_PMD_TURBOMEM_BACKING_THP &&
			info.nb_chunks == 1, "backing %s, %u chunks",
			backing_name(info.backing), info.nb_chunks);
		snprintf(mz_name, sizeof(mz_name), RTE_MEMPOOL_MZ_FORMAT "_0",
			mp->name);
		mz = rte_memzone_lookup(mz_name);
		TEST_CHECK(mz != NULL, "memzone %s", mz_name);
		TEST_CHECK(rte_malloc_get_socket_stats(mz->socket_id, &st) == 0,
			"heap stats of socket %d", mz->socket_id);
		printf("track %s: heap of socket %d: %zu bytes allocated, memzone %zu\n",
			i ? "on" : "off", mz->socket_id,
			st.heap_allocsz_bytes, mz->len);
		/* The memzone's element and its malloc header, nothing else. */
		TEST_CHECK(st.heap_allocsz_bytes < mz->len + 4096,
			"track %s: %zu bytes in the pool's heap beside its %zu-byte memzone",
			i ? "on" : "off", st.heap_allocsz_bytes - mz->len,
			mz->len);
		TEST_CHECK(mp->socket_id == 0, "socket %d", mp->socket_id);
		/*
		 * Off before the free: the library drains the pool one object
		 * at a time, and each tracked get counts the free list.
		 */
		TEST_CHECK(track_set(mp, 0) == 0, "tracking off");
		rte_mempool_free(mp);
		mp = NULL;
	}
out:
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_track_heap_autotest, test_mem_track_heap);

/* --- every -ENOMEM with one ERR line -------------------------------------- */

/*
 * err is -ENOMEM, and the turbomem lines captured hold one at ERR and
 * nothing else visible, naming the pool, a number of bytes and where
 * (the heap or socket). what: the case, for messages.
 */
static int
enomem_logged(const char *what, int err, const char *where)
{
	static const char pool[] = "pool tm_nomem";
	const char *p = logbuf, *b;
	char line[1024] = "";

	while (*p != '\0') {
		const char *eol = strchr(p, '\n');

		if (eol == NULL)
			eol = p + strlen(p);
		if (atoi(p) == RTE_LOG_ERR)
			snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		p = *eol ? eol + 1 : eol;
	}
	b = strstr(line, " bytes");
	if (err != -ENOMEM) {
		printf("%s: %d, want -ENOMEM\n", what, err);
		return -1;
	}
	if (cap_count(RTE_LOG_ERR, NULL) != 1 || cap_visible() != 1 ||
			strstr(line, pool) == NULL || b == NULL ||
			b == line || !isdigit((unsigned char)b[-1]) ||
			strstr(line, where) == NULL) {
		printf("%s: want one ERR line naming %s, bytes and %s; got:\n%s",
			what, pool, where, logbuf);
		return -1;
	}
	printf("%s: %s\n", what, line);
	return 0;
}

/*
 * Run on the faults build (tm_test_faults.h): each fault in turn, set in
 * TURBOMEM_TEST_FAIL around one operation, must give -ENOMEM with one ERR
 * line, leave nothing behind (the name free, no mapping left) and the
 * pool usable where it exists.
 */
static int
test_mem_enomem(void)
{
	/* Pool creation: alloc, the pool's own heap, populate, tracking. */
	static const struct {
		const char *fault, *where;
		bool track;
	} create[] = {
		{ "rte_malloc=turbomem_pool", "socket 0", false },
		{ "mmap", "heap turbomem-", false },
		{ "mprotect", "heap turbomem-", false },
		{ "malloc", "C heap", false },
		{ "heap_add", "heap turbomem-", false },
		{ "rte_realloc", "socket 0", false },
		{ "rte_malloc=turbomem_track", "socket 0", true },
	};
	struct rte_pmd_turbomem_config cfg = { 0 };
	struct rte_pmd_turbomem_held *held = NULL;
	struct rte_pmd_turbomem_mem_info info;
	threshold_set_fn *threshold_set;
	struct rte_mempool *mp = NULL;
	track_set_fn *track_set;
	held_get_fn *held_get;
	int maps0, err, ret = TEST_SUCCESS;
	unsigned int i;

	if (api_load() != 0)
		return TEST_FAILED;
	held_get = (held_get_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_held_get");
	track_set = (track_set_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_track_set");
	threshold_set = (threshold_set_fn *)(uintptr_t)tm_test_plugin_sym(
			"rte_pmd_turbomem_track_threshold_set");
	if (held_get == NULL || track_set == NULL || threshold_set == NULL)
		return TEST_FAILED;
	if (!thp_usable())
		TEST_SKIP("THP not usable (sysfs never, or PR_SET_THP_DISABLE): no heap of the driver's own to fail");
	held = malloc(sizeof(*held));
	TEST_CHECK(held != NULL, "malloc");
	maps0 = tm_test_maps_count();

	for (i = 0; i < RTE_DIM(create); i++) {
		cfg.track = create[i].track ? RTE_PMD_TURBOMEM_TRACK_ON :
			RTE_PMD_TURBOMEM_TRACK_OFF;
		setenv("TURBOMEM_TEST_FAIL", create[i].fault, 1);
		cap_start();
		mp = cfg_pool("tm_nomem", 4095, 0, &cfg, &err);
		cap_stop();
		unsetenv("TURBOMEM_TEST_FAIL");
		TEST_CHECK(mp == NULL, "%s: pool made", create[i].fault);
		TEST_CHECK(enomem_logged(create[i].fault, err,
			create[i].where) == 0, "%s", create[i].fault);
		TEST_CHECK(tm_test_maps_left(maps0) == 0,
			"%s: %d mappings, %d before", create[i].fault,
			tm_test_maps_count(), maps0);
	}

	/* The name is free, and a pool made now works. */
	cfg.track = RTE_PMD_TURBOMEM_TRACK_OFF;
	mp = cfg_pool("tm_nomem", 4095, 0, &cfg, &err);
	TEST_CHECK(mp != NULL, "pool after the faults: %d", err);

	/* The tracking switch and threshold, the reports. */
	setenv("TURBOMEM_TEST_FAIL", "rte_malloc=turbomem_track", 1);
	cap_start();
	err = track_set(mp, 1);
	cap_stop();
	TEST_CHECK(enomem_logged("track_set", err, "socket 0") == 0, "track_set");
	cap_start();
	err = threshold_set(mp, 10);
	cap_stop();
	TEST_CHECK(enomem_logged("threshold_set", err, "socket 0") == 0, "threshold_set");
	setenv("TURBOMEM_TEST_FAIL", "malloc", 1);
	cap_start();
	err = held_get(mp, 0, held);
	cap_stop();
	TEST_CHECK(enomem_logged("held_get", err, "C heap") == 0, "held_get");
	cap_start();
	err = mem_info(mp, &info);
	cap_stop();
	TEST_CHECK(enomem_logged("mem_info", err, "C heap") == 0, "mem_info");
	unsetenv("TURBOMEM_TEST_FAIL");

	/* Nothing switched on by the failures; all works once memory is. */
	TEST_CHECK(held_get(mp, 0, held) == 0 && !held->tracking,
		"tracking on after a failed switch");
	TEST_CHECK(track_set(mp, 1) == 0 && threshold_set(mp, 10) == 0,
		"tracking");
	TEST_CHECK(held_get(mp, 0, held) == 0 && held->tracking,
		"tracking off");
	TEST_CHECK(mem_info(mp, &info) == 0, "mem_info");
	TEST_CHECK(drain_refill(mp) == 0, "pool");
out:
	unsetenv("TURBOMEM_TEST_FAIL");
	rte_mempool_free(mp);
	free(held);
	return ret;
}
TM_TEST_REGISTER(turbomem_mem_enomem_autotest, test_mem_enomem);
