/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * NUMA placement seen from the kernel, on a machine of two nodes or more
 * (run by app/test-turbomem/numa-guest.sh inside a two-node guest; a
 * machine of one node skips). Where a page lives is read with
 * move_pages(2) page by page and /proc/self/numa_maps mapping by mapping,
 * never from the driver's own report, which is compared with them.
 *
 * | command                          | what it asserts                      |
 * |----------------------------------|--------------------------------------|
 * | turbomem_numa_place_autotest     | a pool for socket 1 made on the main |
 * |   (hugetlbfs or --no-huge EAL,   | lcore (node 0), used and its driver  |
 * |   lcores on nodes 0 and 1)       | memory written from there: every     |
 * |                                  | object page and every page of the    |
 * |                                  | driver's memory (pool data: slots    |
 * |                                  | and statistics; object map) on node  |
 * |                                  | 1, numa_maps agreeing, the memory    |
 * |                                  | report and /turbomem/info naming     |
 * |                                  | node 1; SOCKET_ID_ANY from an lcore  |
 * |                                  | on node 1: the same, on node 1       |
 * |                                  | (hugetlbfs: --nomem=0, socket 0 with |
 * |                                  | too little memory: NULL, one driver  |
 * |                                  | error line naming socket 0, no       |
 * |                                  | memzone or heap byte left)           |
 * | turbomem_numa_attach_autotest    | a secondary process: the pool named  |
 * |   --pool=NAME --expect=N         | by --pool has its objects and driver |
 * |                                  | memory on node N, and the report and |
 * |                                  | /turbomem/info say N                 |
 *
 * The place command runs the shell command TM_NUMA_SECONDARY, if set, with
 * the socket 1 pool made (hugetlbfs): the attach command as a secondary.
 * Options of the place command: --xfail-any-nohuge: in --no-huge mode the
 * SOCKET_ID_ANY pool's placement is reported (XFAIL) instead of failing:
 * its memory is placed by first touch, which the kernel may serve from
 * another node (a THP fault does when the local node has no free 2 MB
 * block; seen in the guest), and its driver memory is EAL's, which
 * EAL's malloc may give pages a pool freed before had placed elsewhere.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "test.h"
#include "turbomem_private.h"

#define NUMA_MAX_NODES 8
#define NUMA_PG 4096u
#define NUMA_POOL_N 4095
/* Driver memory (32 bytes an object: 8 MB) beyond node 0's 4 MB of hugepages. */
#define NUMA_NOMEM_N 262143

typedef int (mem_info_t)(const struct rte_mempool *,
		struct rte_pmd_turbomem_mem_info *);

static int
nodes_online(void)
{
	char path[64];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK) != 0)
			return n;
		n++;
	}
}

/* --- where pages are ----------------------------------------------------- */

/* Pages per node of a set of ranges; [NUMA_MAX_NODES]: not placed. */
struct numa_count {
	uint64_t node[NUMA_MAX_NODES + 1];
	uint64_t pages;
};

/* move_pages(2) without moving: the node of each 4 KB page of [s, e). */
static int
count_pages(uintptr_t s, uintptr_t e, struct numa_count *c)
{
	enum { BATCH = 512 };
	void *pages[BATCH];
	int status[BATCH];
	uintptr_t a = RTE_ALIGN_FLOOR(s, NUMA_PG);
	unsigned int n, i;

	while (a < e) {
		for (n = 0; n < BATCH && a < e; n++, a += NUMA_PG)
			pages[n] = (void *)a;
		if (syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL,
				status, 0) != 0) {
			printf("move_pages: %s\n", strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++) {
			int nd = status[i];

			c->node[nd >= 0 && nd < NUMA_MAX_NODES ? nd :
				NUMA_MAX_NODES]++;
			c->pages++;
		}
	}
	return 0;
}

static void
count_print(const char *what, const struct numa_count *c)
{
	int i;

	printf("  %s: %" PRIu64 " pages of 4 KB:", what, c->pages);
	for (i = 0; i < NUMA_MAX_NODES; i++)
		if (c->node[i] != 0)
			printf(" node%d=%" PRIu64, i, c->node[i]);
	if (c->node[NUMA_MAX_NODES] != 0)
		printf(" not-present=%" PRIu64, c->node[NUMA_MAX_NODES]);
	printf("\n");
}

static bool
count_all_on(const struct numa_count *c, int node)
{
	return c->pages > 0 && c->node[node] == c->pages;
}

/*
 * Nodes of the mappings overlapping [s, e) as /proc/self/numa_maps gives
 * them (its N<node>=pages fields, pages of the mapping's own size): which
 * nodes hold any page of those mappings (bit mask), and the policy of the
 * first. Mappings shared with memory that is not the pool's (EAL's
 * --no-huge memfd) are skipped when whole is true and they reach past
 * [s, e) by more than a 2 MB page.
 */
struct numa_maps_sum {
	unsigned int mask;	/* nodes with pages */
	unsigned int vmas;
	unsigned int skipped;
	char policy[32];
};

static int
numa_maps_of(uintptr_t s, uintptr_t e, bool whole, struct numa_maps_sum *sum)
{
	FILE *m = fopen("/proc/self/maps", "r");
	FILE *nm = fopen("/proc/self/numa_maps", "r");
	char ml[512], nl[1024];
	int ret = 0;

	if (m == NULL || nm == NULL) {
		printf("cannot open /proc/self/maps or numa_maps\n");
		ret = -1;
		goto out;
	}
	/* One line each per mapping, in the same order. */
	while (fgets(ml, sizeof(ml), m) != NULL &&
			fgets(nl, sizeof(nl), nm) != NULL) {
		unsigned long a, b, na;
		char *tok, *save = NULL;

		if (sscanf(ml, "%lx-%lx", &a, &b) != 2 ||
				sscanf(nl, "%lx", &na) != 1 || na != a) {
			printf("maps and numa_maps out of step\n");
			ret = -1;
			goto out;
		}
		if (b <= s || a >= e)
			continue;
		if (whole && (a + (2u << 20) < s || b > e + (2u << 20))) {
			sum->skipped++;
			continue;
		}
		sum->vmas++;
		tok = strtok_r(nl, " \n", &save); /* address */
		tok = strtok_r(NULL, " \n", &save);
		if (sum->vmas == 1 && tok != NULL)
			snprintf(sum->policy, sizeof(sum->policy), "%s", tok);
		while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
			int node;
			unsigned long pages;

			if (sscanf(tok, "N%d=%lu", &node, &pages) == 2 &&
					node >= 0 && node < 32 && pages > 0)
				sum->mask |= 1u << node;
		}
	}
out:
	if (m != NULL)
		fclose(m);
	if (nm != NULL)
		fclose(nm);
	return ret;
}

/* --- the pool's memory --------------------------------------------------- */

struct numa_obj_walk {
	struct numa_count c;
	uintptr_t lo, hi;
	int err;
};

static void
obj_pages(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	struct numa_obj_walk *w = arg;
	uintptr_t s = (uintptr_t)obj - mp->header_size;
	uintptr_t e = (uintptr_t)obj + mp->elt_size + mp->trailer_size;

	RTE_SET_USED(idx);
	if (w->lo == 0 || s < w->lo)
		w->lo = s;
	if (e > w->hi)
		w->hi = e;
	if (w->err == 0)
		w->err = count_pages(s, e, &w->c);
}

/* One rte_malloc allocation of the driver: start and size, if any. */
struct numa_range {
	const char *what;
	uintptr_t s, e;
};

static unsigned int
driver_ranges(const struct rte_mempool *mp, struct numa_range *r)
{
	const struct turbomem_pool *tp = mp->pool_data;
	const void *p[] = { tp, tp->map.chunks, tp->map.by_va, tp->map.blk };
	const char *what[] = { "pool data (statistics, nodes, blocks)",
		"object map chunks", "object map order", "object map blocks" };
	unsigned int i, n = 0;
	size_t sz;

	for (i = 0; i < RTE_DIM(p); i++) {
		if (p[i] == NULL || rte_malloc_validate(p[i], &sz) != 0)
			continue;
		r[n].what = what[i];
		r[n].s = (uintptr_t)p[i];
		r[n].e = (uintptr_t)p[i] + sz;
		n++;
	}
	return n;
}

/*
 * Write-fault every page of the driver's memory from this thread without
 * changing a byte: a page not yet placed is placed now, by the policy of
 * its memory or else next to this thread.
 */
static void
touch(uintptr_t s, uintptr_t e)
{
	uintptr_t a;

	for (a = s; a < e; a = RTE_ALIGN_FLOOR(a, NUMA_PG) + NUMA_PG)
		__atomic_fetch_or((uint8_t *)a, 0, __ATOMIC_RELAXED);
}

/* Every object out and back in, from this thread: the pool in use. */
static int
use_pool(struct rte_mempool *mp)
{
	void **objs = calloc(mp->size, sizeof(void *));
	unsigned int i, got = 0;

	if (objs == NULL)
		return -1;
	while (got < mp->size && rte_mempool_get(mp, &objs[got]) == 0)
		got++;
	for (i = 0; i < got; i++)
		rte_mempool_put(mp, objs[i]);
	free(objs);
	return got == mp->size ? 0 : -1;
}

/* memory.numa_node of /turbomem/info,<pool>; -2 if absent. */
static int
tel_node(const char *pool)
{
	char cmd[96], buf[8192];
	const char *v;

	snprintf(cmd, sizeof(cmd), "/turbomem/info,%s", pool);
	if (tm_test_tel_query(cmd, buf, sizeof(buf)) != 0)
		return -2;
	v = strstr(buf, "\"numa_node\":");
	if (v == NULL) {
		printf("  /turbomem/info,%s: no numa_node: %.200s\n", pool, buf);
		return -2;
	}
	return atoi(v + strlen("\"numa_node\":"));
}

/*
 * The placement checks of one pool, expected on node want. strict false:
 * where objects or driver memory are elsewhere, that is reported (XFAIL)
 * instead of failing.
 */
static int
check_pool(struct rte_mempool *mp, int want, bool strict)
{
	mem_info_t *mem_info = (mem_info_t *)(uintptr_t)
		tm_test_plugin_sym("rte_pmd_turbomem_mem_info");
	struct rte_pmd_turbomem_mem_info info;
	struct numa_obj_walk w = { 0 };
	struct numa_range r[8];
	struct numa_count dc = { 0 };
	struct numa_maps_sum om = { 0 }, dm = { 0 };
	unsigned int i, n;
	int tnode;
	bool ok = true;

	printf("pool %s (socket %d, %u objects), expected on node %d:\n",
		mp->name, mp->socket_id, mp->size, want);
	rte_mempool_obj_iter(mp, obj_pages, &w);
	TEST_ASSERT(w.err == 0, "move_pages failed");
	count_print("objects", &w.c);
	TEST_ASSERT(numa_maps_of(w.lo, w.hi, false, &om) == 0, "numa_maps");
	printf("  objects' mappings in numa_maps: %u, nodes mask 0x%x, policy %s\n",
		om.vmas, om.mask, om.policy);
	if (!count_all_on(&w.c, want) && !strict) {
		printf("  XFAIL: objects not all on node %d (SOCKET_ID_ANY without hugepages: first touch, which the kernel may serve from another node, as THP faults do when the local node has no free 2 MB block)\n",
			want);
	} else if (!count_all_on(&w.c, want)) {
		printf("  FAIL: objects not all on node %d\n", want);
		ok = false;
	} else if (om.mask != 1u << want) {
		printf("  FAIL: numa_maps puts the objects' mappings on nodes 0x%x\n",
			om.mask);
		ok = false;
	}

	n = driver_ranges(mp, r);
	for (i = 0; i < n; i++) {
		struct numa_count c = { 0 };
		struct numa_maps_sum s = { 0 };

		TEST_ASSERT(count_pages(r[i].s, r[i].e, &c) == 0, "move_pages");
		count_print(r[i].what, &c);
		for (int k = 0; k <= NUMA_MAX_NODES; k++)
			dc.node[k] += c.node[k];
		dc.pages += c.pages;
		TEST_ASSERT(numa_maps_of(r[i].s, r[i].e, true, &s) == 0,
			"numa_maps");
		dm.mask |= s.mask;
		dm.vmas += s.vmas;
		dm.skipped += s.skipped;
	}
	printf("  driver memory's own mappings in numa_maps: %u (%u shared with other memory, not counted), nodes mask 0x%x\n",
		dm.vmas, dm.skipped, dm.mask);
	if (n == 0 || !count_all_on(&dc, want) ||
			(dm.vmas > 0 && dm.mask != 1u << want)) {
		if (strict) {
			printf("  FAIL: driver memory not all on node %d\n", want);
			ok = false;
		} else {
			printf("  XFAIL: driver memory not all on node %d (SOCKET_ID_ANY: EAL's --no-huge memory, placed by first touch)\n",
				want);
		}
	} else if (!strict) {
		printf("  driver memory on node %d (not required here)\n", want);
	}

	TEST_ASSERT(mem_info != NULL, "no rte_pmd_turbomem_mem_info");
	TEST_ASSERT(mem_info(mp, &info) == 0, "mem_info");
	printf("  report: node %d, %s\n", info.numa_node,
		info.note[0] ? info.note : "(no note)");
	if (info.numa_node != -1 && info.numa_node != want) {
		printf("  FAIL: the report names node %d\n", info.numa_node);
		ok = false;
	}
	if (info.numa_node == -1 && mp->socket_id != SOCKET_ID_ANY) {
		printf("  FAIL: the report names no node for socket %d\n",
			mp->socket_id);
		ok = false;
	}
	tnode = tel_node(mp->name);
	printf("  /turbomem/info memory.numa_node: %d\n", tnode);
	if (tnode != info.numa_node) {
		printf("  FAIL: telemetry says node %d, the report %d\n", tnode,
			info.numa_node);
		ok = false;
	}
	if (tnode >= 0 && om.mask != 1u << tnode) {
		printf("  FAIL: telemetry names node %d, numa_maps 0x%x\n",
			tnode, om.mask);
		ok = false;
	}
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/* --- pools made on a chosen lcore ---------------------------------------- */

struct numa_make {
	const char *name;
	int socket;
	unsigned int n, elt;
	struct rte_mempool *mp;
	int used;
};

static int
make_pool(void *arg)
{
	struct numa_make *m = arg;
	struct numa_range r[8];
	unsigned int i, n;

	m->mp = tm_test_pool(m->name, m->n, m->elt, 0, TM_OPS, m->socket, true);
	if (m->mp == NULL)
		return 0;
	/* Used and written from here, as an lcore of this node would. */
	m->used = use_pool(m->mp);
	n = driver_ranges(m->mp, r);
	for (i = 0; i < n; i++)
		touch(r[i].s, r[i].e);
	return 0;
}

/* Make a pool for socket on lcore lc (the main lcore or a worker). */
static struct rte_mempool *
pool_on(unsigned int lc, const char *name, int socket, unsigned int n,
		unsigned int elt)
{
	struct numa_make m = { .name = name, .socket = socket, .n = n,
		.elt = elt };

	if (lc == rte_get_main_lcore()) {
		make_pool(&m);
	} else {
		if (rte_eal_remote_launch(make_pool, &m, lc) != 0)
			return NULL;
		rte_eal_wait_lcore(lc);
	}
	if (m.mp != NULL && m.used != 0) {
		printf("pool %s: not every object could be got back\n", name);
		rte_mempool_free(m.mp);
		return NULL;
	}
	return m.mp;
}

/* The lcore whose CPU is on node, RTE_MAX_LCORE if none. */
static unsigned int
lcore_of_node(int node)
{
	unsigned int lc;

	RTE_LCORE_FOREACH(lc)
		if ((int)rte_lcore_to_socket_id(lc) == node)
			return lc;
	return RTE_MAX_LCORE;
}

static void
mz_count_cb(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static unsigned int
mz_count(void)
{
	unsigned int n = 0;

	rte_memzone_walk(mz_count_cb, &n);
	return n;
}

static size_t
heap_used(void)
{
	struct rte_malloc_socket_stats st;
	size_t sum = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

/*
 * A pool on a socket without memory enough for it: NULL, exactly one
 * driver error line, naming the socket, and nothing left behind.
 */
static int
check_nomem(int socket)
{
	char *buf = NULL, needle[32];
	size_t len = 0;
	unsigned int mz0 = mz_count(), lines = 0, naming = 0;
	size_t heap0 = heap_used();
	struct rte_mempool *mp;
	FILE *f;
	char *l, *save = NULL;

	printf("pool on socket %d, which has too little memory:\n", socket);
	f = open_memstream(&buf, &len);
	TEST_ASSERT(f != NULL, "open_memstream");
	rte_openlog_stream(f);
	mp = pool_on(rte_get_main_lcore(), "numa_nomem", socket,
		NUMA_NOMEM_N, 64);
	rte_openlog_stream(NULL);
	fclose(f);
	snprintf(needle, sizeof(needle), "socket %d", socket);
	for (l = strtok_r(buf, "\n", &save); l != NULL;
			l = strtok_r(NULL, "\n", &save)) {
		printf("  log: %s\n", l);
		if (strncasecmp(l, "turbomem", 8) != 0)
			continue;
		lines++;
		naming += strstr(l, needle) != NULL;
	}
	free(buf);
	if (mp != NULL)
		rte_mempool_free(mp);
	TEST_ASSERT(mp == NULL, "the pool was created on socket %d", socket);
	TEST_ASSERT(lines == 1 && naming == 1,
		"%u driver log lines, %u naming \"%s\" (want one)", lines, naming,
		needle);
	TEST_ASSERT(mz_count() == mz0, "memzones %u, before %u", mz_count(), mz0);
	TEST_ASSERT(heap_used() == heap0, "heap bytes %zu, before %zu",
		heap_used(), heap0);
	TEST_ASSERT(rte_mempool_lookup("numa_nomem") == NULL, "pool left");
	printf("  refused with one line naming socket %d, nothing left\n",
		socket);
	return TEST_SUCCESS;
}

static int
test_numa_place(void)
{
	unsigned int lc0 = lcore_of_node(0), lc1 = lcore_of_node(1);
	bool strict = !(tm_test_opt("--xfail-any-nohuge") && !rte_eal_has_hugepages());
	struct rte_mempool *mp;
	int ret = TEST_SUCCESS, r;

	if (nodes_online() < 2)
		TEST_SKIP("one NUMA node: run in a two-node guest (numa stage)");
	TEST_ASSERT(lc0 == rte_get_main_lcore() && lc1 < RTE_MAX_LCORE,
		"want the main lcore on node 0 and a worker on node 1");
	printf("EAL memory: %s; main lcore %u on node 0, lcore %u on node 1\n",
		rte_eal_has_hugepages() ? "hugetlbfs" : "--no-huge", lc0, lc1);

	/* Socket 1 from node 0. */
	mp = pool_on(lc0, "numa_s1", 1, NUMA_POOL_N, 2048);
	TEST_ASSERT(mp != NULL, "no pool for socket 1");
	r = check_pool(mp, 1, true);
	/* A secondary process checks the same pool (hugetlbfs only). */
	if (getenv("TM_NUMA_SECONDARY") != NULL && rte_eal_has_hugepages()) {
		int st = system(getenv("TM_NUMA_SECONDARY"));

		printf("secondary process: %s (status %d)\n",
			st == 0 ? "same placement" : "FAIL", st);
		if (st != 0)
			r = TEST_FAILED;
	}
	rte_mempool_free(mp);
	if (r != TEST_SUCCESS)
		ret = r;

	/* SOCKET_ID_ANY from node 1. */
	mp = pool_on(lc1, "numa_any", SOCKET_ID_ANY, NUMA_POOL_N, 2048);
	TEST_ASSERT(mp != NULL, "no pool for SOCKET_ID_ANY");
	r = check_pool(mp, 1, strict);
	rte_mempool_free(mp);
	if (r != TEST_SUCCESS)
		ret = r;

	if (tm_test_opt("--nomem") != NULL) {
		r = check_nomem(atoi(tm_test_opt("--nomem")));
		if (r != TEST_SUCCESS)
			ret = r;
	}
	return ret;
}
TM_TEST_REGISTER(turbomem_numa_place_autotest, test_numa_place);

static int
test_numa_attach(void)
{
	const char *name = tm_test_opt("--pool"), *want = tm_test_opt("--expect");
	struct rte_mempool *mp;

	if (nodes_online() < 2)
		TEST_SKIP("one NUMA node: run in a two-node guest (numa stage)");
	TEST_ASSERT(name != NULL && want != NULL, "--pool=NAME --expect=NODE");
	TEST_ASSERT(rte_eal_process_type() == RTE_PROC_SECONDARY,
		"run as a secondary process");
	mp = rte_mempool_lookup(name);
	TEST_ASSERT(mp != NULL, "no pool %s", name);
	TEST_ASSERT(turbomem_is_pool(mp), "pool %s is not on turbomem", name);
	return check_pool(mp, atoi(want), true);
}
TM_TEST_REGISTER(turbomem_numa_attach_autotest, test_numa_attach);
