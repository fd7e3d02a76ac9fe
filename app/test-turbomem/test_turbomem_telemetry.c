/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Telemetry values in a known state, field by field.
 *
 * | command                     | what it asserts                          |
 * |-----------------------------|------------------------------------------|
 * | turbomem_telemetry_autotest | a cache-0 pool with k objects taken and  |
 * |                             | known gets/puts/fails: /turbomem/info,   |
 * |                             | queried over this process's own          |
 * |                             | telemetry socket, reports each count and |
 * |                             | statistic exactly (the raw get_count,    |
 * |                             | the API), the driver's bytes as the      |
 * |                             | heaps measure them (bench_mem_use, the   |
 * |                             | turbomem_bench memory row's measure),    |
 * |                             | the memory report as the API gives it    |
 * |                             | and as smaps shows it;                   |
 * |                             | /turbomem/list names the pool; unknown   |
 * |                             | pool and no pool answer null             |
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "test.h"
#include "bench_common.h"

#define TEL_N 1000
#define TEL_K 37
/*
 * The heaps' element headers (64 bytes or so per allocation: the pool's
 * few, and the mempool's tailq entry) are in the heaps' figure, not in
 * the driver's.
 */
#define TEL_HDR_SLACK 2048

typedef int (mem_info_t)(const struct rte_mempool *,
		struct rte_pmd_turbomem_mem_info *);
typedef const char *(backing_name_t)(enum rte_pmd_turbomem_backing);

/* The value after "key": in a flat JSON text; NULL if absent. */
static const char *
json_val(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	return p != NULL ? p + strlen(pat) : NULL;
}

/* A number field; false (and a message) if absent or not the value. */
static bool
json_is(const char *json, const char *key, int64_t want)
{
	const char *v = json_val(json, key);
	char *end;
	long long got;

	if (v == NULL) {
		printf("telemetry: no field \"%s\"\n", key);
		return false;
	}
	got = strtoll(v, &end, 10);
	if (end == v || got != want) {
		printf("telemetry: %s = %.20s, want %" PRId64 "\n", key, v, want);
		return false;
	}
	return true;
}

static bool
json_str_is(const char *json, const char *key, const char *want)
{
	const char *v = json_val(json, key);
	size_t n = strlen(want);

	if (v == NULL || v[0] != '"' || strncmp(v + 1, want, n) != 0 ||
			v[n + 1] != '"') {
		printf("telemetry: %s = %.30s, want \"%s\"\n", key,
			v != NULL ? v : "(absent)", want);
		return false;
	}
	return true;
}

static int
test_telemetry(void)
{
	mem_info_t *mem_info = (mem_info_t *)(uintptr_t)
		tm_test_plugin_sym("rte_pmd_turbomem_mem_info");
	backing_name_t *backing_name = (backing_name_t *)(uintptr_t)
		tm_test_plugin_sym("rte_pmd_turbomem_backing_name");
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_pmd_turbomem_stats st;
	struct rte_mempool_memhdr *h;
	static char buf[16384];
	void *objs[TEL_N + 1];
	struct rte_mempool *mp;
	char cmd[64];
	const char *mem;
	struct tm_smaps sm;
	struct bench_mem_snap before, after;
	struct bench_mem_use use;
	const char *v;
	uint64_t smaps, drv;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(mem_info != NULL && backing_name != NULL,
		"the plugin's API not found");
	bench_mem_snapshot(&before);
	mp = tm_test_pool("tm_tel", TEL_N, 128, 0, TM_OPS,
			(int)rte_socket_id(), true);
	TEST_ASSERT(mp != NULL, "pool");
	bench_mem_snapshot(&after);
	bench_mem_use(mp, &before, &after, &use);

	/* Known state: 3 gets (TEL_K + 3 objects), 1 put of 3, 2 refused. */
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, TEL_K - 7) == 0, "get");
	TEST_CHECK(rte_mempool_get_bulk(mp, objs + TEL_K - 7, 7) == 0, "get");
	TEST_CHECK(rte_mempool_get_bulk(mp, objs + TEL_K, 3) == 0, "get");
	rte_mempool_put_bulk(mp, objs + TEL_K, 3);
	TEST_CHECK(rte_mempool_get_bulk(mp, objs + TEL_K, TEL_N) != 0,
		"get of more than the pool holds");
	TEST_CHECK(rte_mempool_get_bulk(mp, objs + TEL_K, TEL_N - TEL_K + 1) != 0,
		"get of one more than the pool holds");
	TEST_CHECK(tm_test_raw_count(mp) == TEL_N - TEL_K, "raw count %u, want %u",
		tm_test_raw_count(mp), TEL_N - TEL_K);
	TEST_CHECK(tm_test_stats(mp, &st) == 0 && mem_info(mp, &mi) == 0, "API");

	snprintf(cmd, sizeof(cmd), "/turbomem/info,%s", mp->name);
	TEST_CHECK(tm_test_tel_query(cmd, buf, sizeof(buf)) == 0, "query %s", cmd);
	printf("%s: %s\n", cmd, buf);
	TEST_CHECK(json_str_is(buf, "name", mp->name), "name");
	TEST_CHECK(json_is(buf, "socket_id", mp->socket_id), "socket_id");
	TEST_CHECK(json_is(buf, "size", TEL_N), "size");
	TEST_CHECK(json_is(buf, "populated_size", TEL_N), "populated_size");
	TEST_CHECK(json_is(buf, "elt_size", mp->elt_size), "elt_size");
	TEST_CHECK(json_is(buf, "cache_size", 0), "cache_size");
	TEST_CHECK(json_is(buf, "count", TEL_N - TEL_K), "count");
	TEST_CHECK(json_is(buf, "avail_count", TEL_N - TEL_K), "avail_count");
	TEST_CHECK(json_is(buf, "in_use_count", TEL_K), "in_use_count");
	TEST_CHECK(json_is(buf, "get_calls", 3) && st.get_calls == 3, "get_calls");
	TEST_CHECK(json_is(buf, "get_objs", TEL_K + 3) && st.get_objs == TEL_K + 3,
		"get_objs");
	TEST_CHECK(json_is(buf, "get_fails", 2) && st.get_fails == 2, "get_fails");
	TEST_CHECK(json_is(buf, "put_calls", 1) && st.put_calls == 1, "put_calls");
	TEST_CHECK(json_is(buf, "put_objs", 3) && st.put_objs == 3, "put_objs");
	TEST_CHECK(json_is(buf, "cas_retries", 0) && st.cas_retries == 0,
		"cas_retries");

	/* The driver's bytes: what the heaps gave the pool, less the mempool's. */
	v = json_val(buf, "driver_bytes");
	TEST_CHECK(v != NULL, "no driver_bytes");
	drv = strtoull(v, NULL, 10);
	printf("driver_bytes %" PRIu64 ", measured in the heaps %" PRId64
		" (mempool's %" PRIu64 ")\n", drv, use.handler_bytes,
		use.mempool_bytes);
	TEST_CHECK(drv > (uint64_t)TEL_N * sizeof(void *) &&
		use.handler_bytes >= (int64_t)drv &&
		use.handler_bytes - (int64_t)drv <= TEL_HDR_SLACK,
		"driver_bytes %" PRIu64 ", heaps %" PRId64 " (at most %d more)",
		drv, use.handler_bytes, TEL_HDR_SLACK);
	TEST_CHECK(json_is(buf, "driver_bytes_per_obj",
		(int64_t)((drv + TEL_N / 2) / TEL_N)), "driver_bytes_per_obj");

	/* The memory report: as the API gives it, and as smaps shows it. */
	mem = json_val(buf, "memory");
	TEST_CHECK(mem != NULL, "no memory report");
	TEST_CHECK(json_is(mem, "bytes", (int64_t)mi.bytes) && mi.bytes > 0,
		"bytes");
	TEST_CHECK(json_is(mem, "huge_bytes", (int64_t)mi.huge_bytes),
		"huge_bytes");
	TEST_CHECK(json_is(mem, "page_size", (int64_t)mi.page_size), "page_size");
	TEST_CHECK(json_str_is(mem, "backing", backing_name(mi.backing)),
		"backing");
	TEST_CHECK(json_is(mem, "numa_node", mi.numa_node), "numa_node");
	TEST_CHECK(json_is(mem, "nb_chunks", mi.nb_chunks) && mi.nb_chunks == 1,
		"nb_chunks");
	h = STAILQ_FIRST(&mp->mem_list);
	TEST_CHECK(h != NULL && mi.bytes == h->len, "bytes %" PRIu64 ", chunk %zu",
		mi.bytes, h != NULL ? h->len : 0);
	TEST_CHECK(tm_test_smaps((uintptr_t)h->addr, (uintptr_t)h->addr + h->len,
		&sm) == 0, "smaps unreadable");
	smaps = sm.anon_huge;
	printf("smaps: %" PRIu64 " bytes in huge pages around the pool\n", smaps);
	TEST_CHECK(mi.huge_bytes <= smaps, "report %" PRIu64 " above smaps %" PRIu64,
		mi.huge_bytes, smaps);
	if (mi.backing == RTE_PMD_TURBOMEM_BACKING_THP) {
		TEST_CHECK(mi.huge_bytes == mi.bytes && mi.page_size == 2u << 20,
			"THP pool: %" PRIu64 " of %" PRIu64 " bytes huge, page %" PRIu64,
			mi.huge_bytes, mi.bytes, mi.page_size);
	} else {
		/* Only where the machine cannot give THP (reported as a skip). */
		TEST_CHECK(mi.note[0] != '\0', "backing %s without a note",
			backing_name(mi.backing));
	}

	TEST_CHECK(tm_test_tel_query("/turbomem/list", buf, sizeof(buf)) == 0, "list");
	TEST_CHECK(strstr(buf, "\"tm_tel\"") != NULL, "list: %s", buf);
	TEST_CHECK(tm_test_tel_query("/turbomem/info,no_such_pool", buf, sizeof(buf)) == 0 &&
		strstr(buf, "null") != NULL, "unknown pool: %s", buf);
	TEST_CHECK(tm_test_tel_query("/turbomem/info", buf, sizeof(buf)) == 0 &&
		strstr(buf, "null") != NULL, "no pool name: %s", buf);
	rte_mempool_put_bulk(mp, objs, TEL_K);
	TEST_CHECK(tm_test_tel_query(cmd, buf, sizeof(buf)) == 0, "query");
	TEST_CHECK(json_is(buf, "count", TEL_N) && json_is(buf, "in_use_count", 0),
		"after the puts: %s", buf);
	if (mi.backing != RTE_PMD_TURBOMEM_BACKING_THP) {
		printf("SKIP: THP not usable (%s): the huge page report not checked\n",
			mi.note);
		/* Everything else was checked: a partial skip. */
		ret = TEST_SKIPPED;
	}
out:
	rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_telemetry_autotest, test_telemetry);
