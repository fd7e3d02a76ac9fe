/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench system information: the run header (DPDK, kernel, CPU,
 * THP, hugepages, lcores), the worker CPUs, a pool's memory backing from
 * /proc/self/smaps (and turbomem's own report, looked up with dlopen in
 * the plugin EAL loaded), hardware counters through perf_event_open.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_memory.h>
#include <rte_version.h>

#include "rte_pmd_turbomem.h"
#include "test.h"
#include "bench_common.h"

/* --- run header -------------------------------------------------------- */

unsigned int
bench_worker_cpus(void)
{
	rte_cpuset_t all;
	unsigned int lcore;

	CPU_ZERO(&all);
	RTE_LCORE_FOREACH_WORKER(lcore) {
		rte_cpuset_t s = rte_lcore_cpuset(lcore);

		CPU_OR(&all, &all, &s);
	}
	return CPU_COUNT(&all);
}


static void
header_str(char *buf, size_t len, const char *key)
{
	FILE *f;
	char line[256];

	buf[0] = '\0';
	if (strcmp(key, "cpu") == 0) {
		f = fopen("/proc/cpuinfo", "r");
		while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
			char *p = strchr(line, ':');

			if (strncmp(line, "model name", 10) == 0 && p != NULL) {
				snprintf(buf, len, "%.*s", (int)len - 1, p + 2);
				break;
			}
		}
	} else {
		f = fopen(key, "r");
		if (f != NULL && fgets(line, sizeof(line), f) != NULL)
			snprintf(buf, len, "%.*s", (int)len - 1, line);
	}
	if (f != NULL)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

void
bench_run_header(char keys[BENCH_HDR_N][BENCH_HDR_KEY],
		char vals[BENCH_HDR_N][BENCH_HDR_VAL])
{
	struct utsname u;
	char tmp[160], tmp2[160];
	time_t now = time(NULL);
	unsigned int k = 0;

#define HDR(key, ...) do { \
	snprintf(keys[k], BENCH_HDR_KEY, "%s", key); \
	snprintf(vals[k], BENCH_HDR_VAL, __VA_ARGS__); \
	k++; \
} while (0)
	HDR("dpdk", "%s", rte_version());
	uname(&u);
	HDR("kernel", "%s %s", u.release, u.machine);
	header_str(tmp, sizeof(tmp), "cpu");
	HDR("cpu", "%s", tmp);
	HDR("cpus_online", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	header_str(tmp, sizeof(tmp),
		"/sys/kernel/mm/transparent_hugepage/enabled");
	header_str(tmp2, sizeof(tmp2),
		"/sys/kernel/mm/transparent_hugepage/defrag");
	HDR("thp", "enabled %.60s; defrag %.60s", tmp, tmp2);
	header_str(tmp, sizeof(tmp),
		"/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
	header_str(tmp2, sizeof(tmp2),
		"/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");
	HDR("hugepages", "2MB total %.20s free %.20s; EAL %s", tmp, tmp2,
		rte_eal_has_hugepages() ? "uses hugetlbfs" : "--no-huge");
	HDR("lcores", "%u (main + %u workers on %u CPUs)", rte_lcore_count(),
		rte_lcore_count() - 1, bench_worker_cpus());
	HDR("seed", "%" PRIu64, bench_opts.seed);
	HDR("seconds_per_measurement", "%g", bench_opts.seconds);
	HDR("rounds", "%u", bench_opts.rounds);
	HDR("tsc_hz", "%" PRIu64, rte_get_tsc_hz());
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	HDR("date", "%s", tmp);
#undef HDR
}


/* --- memory backing ---------------------------------------------------- */

struct chunk_list {
	uintptr_t *start, *end;
	unsigned int n, more;
};

static void
chunk_cb(struct rte_mempool *mp, void *arg,
		struct rte_mempool_memhdr *memhdr, unsigned int idx __rte_unused)
{
	struct chunk_list *c = arg;

	/* Without IOVA-contiguous memory a pool has a chunk per page. */
	if (c->n == mp->nb_mem_chunks) {
		c->more++;
		return;
	}
	c->start[c->n] = (uintptr_t)memhdr->addr;
	c->end[c->n] = (uintptr_t)memhdr->addr + memhdr->len;
	c->n++;
}

/* Bytes of [s, e) overlapping the pool chunks. */
static uint64_t
chunk_overlap(const struct chunk_list *c, uintptr_t s, uintptr_t e)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		uintptr_t a = RTE_MAX(s, c->start[i]), b = RTE_MIN(e, c->end[i]);

		if (b > a)
			sum += b - a;
	}
	return sum;
}

typedef int (mem_info_fn)(const struct rte_mempool *,
		struct rte_pmd_turbomem_mem_info *);
typedef const char *(backing_name_fn)(enum rte_pmd_turbomem_backing);

static int
find_turbomem(struct dl_phdr_info *info, size_t size __rte_unused,
		void *arg)
{
	void **handle = arg;

	if (info->dlpi_name != NULL &&
			strstr(info->dlpi_name, "librte_mempool_turbomem") != NULL) {
		/* NOLOAD: a handle on the plugin EAL loaded, never a new load. */
		*handle = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
		return 1;
	}
	return 0;
}

void *
bench_plugin_open(void)
{
	void *handle = NULL;

	dl_iterate_phdr(find_turbomem, &handle);
	return handle;
}

typedef int (stats_get_fn)(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *st);
typedef int (stats_reset_fn)(struct rte_mempool *mp);

int
bench_turbomem_stats(struct rte_mempool *mp, struct rte_pmd_turbomem_stats *st)
{
	void *h = bench_plugin_open();
	stats_get_fn *get;
	stats_reset_fn *rst;
	int ret = -1;

	if (h == NULL)
		return -1;
	get = (stats_get_fn *)(uintptr_t)dlsym(h, "rte_pmd_turbomem_stats_get");
	rst = (stats_reset_fn *)(uintptr_t)dlsym(h,
			"rte_pmd_turbomem_stats_reset");
	if (st == NULL && rst != NULL)
		ret = rst(mp) == 0 ? 0 : -1;
	else if (st != NULL && get != NULL)
		ret = get(mp, st) == 0 ? 0 : -1;
	dlclose(h);
	return ret;
}

int64_t
bench_turbomem_calls(struct rte_mempool *mp)
{
	struct rte_pmd_turbomem_stats st;

	if (bench_turbomem_stats(mp, &st) != 0)
		return -1;
	return (int64_t)(st.get_calls + st.get_fails + st.put_calls);
}

/*
 * The app is not linked against the plugin: look its report up in the
 * copy EAL loaded with -d, if it exports it.
 */
static void
turbomem_report(const struct rte_mempool *mp, struct bench_row *r)
{
	struct rte_pmd_turbomem_mem_info info;
	void *handle;
	mem_info_fn *fn;
	backing_name_fn *name;
	size_t off;

	if (strcmp(mp->ops_index < (int32_t)rte_mempool_ops_table.num_ops ?
			rte_mempool_get_ops(mp->ops_index)->name : "",
			"turbomem") != 0)
		return;
	handle = bench_plugin_open();
	if (handle == NULL)
		return;
	fn = (mem_info_fn *)(uintptr_t)dlsym(handle, "rte_pmd_turbomem_mem_info");
	name = (backing_name_fn *)(uintptr_t)dlsym(handle,
			"rte_pmd_turbomem_backing_name");
	off = strlen(r->status);
	if (fn == NULL)
		snprintf(r->status + off, sizeof(r->status) - off,
			"; plugin has no rte_pmd_turbomem_mem_info");
	else if (fn(mp, &info) == 0)
		snprintf(r->status + off, sizeof(r->status) - off,
			"; turbomem report: %s, %.1f%% huge",
			name != NULL ? name(info.backing) : "?",
			info.bytes ? 100.0 * info.huge_bytes / info.bytes : 0.0);
	dlclose(handle);
}

void
bench_pool_backing(const struct rte_mempool *mp, struct bench_row *r)
{
	struct chunk_list c = { .n = 0, .more = 0 };
	uint64_t total = 0, huge = 0, hugetlb = 0, map_len = 0, overlap = 0;
	unsigned long s, e;
	char line[256];
	FILE *f;
	unsigned int i;

	snprintf(r->backing, sizeof(r->backing), "unknown");
	r->huge_pct = NAN;
	c.start = calloc(mp->nb_mem_chunks + 1, sizeof(uintptr_t));
	c.end = calloc(mp->nb_mem_chunks + 1, sizeof(uintptr_t));
	if (c.start == NULL || c.end == NULL)
		goto out;
	rte_mempool_mem_iter((struct rte_mempool *)(uintptr_t)mp, chunk_cb, &c);
	for (i = 0; i < c.n; i++)
		total += c.end[i] - c.start[i];
	f = fopen("/proc/self/smaps", "r");
	if (f == NULL || total == 0 || c.more > 0) {
		if (f != NULL)
			fclose(f);
		goto out;
	}
	/*
	 * smaps gives AnonHugePages per mapping: a mapping partly covered by
	 * the pool counts pro rata (exact when the pool fills it, as
	 * turbomem's own mappings and large pools do).
	 */
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long kb;

		/* Mapping lines start with the address, fields with a name. */
		if (!(line[0] >= 'A' && line[0] <= 'Z') &&
				sscanf(line, "%lx-%lx ", &s, &e) == 2) {
			map_len = e - s;
			overlap = chunk_overlap(&c, s, e);
			continue;
		}
		if (overlap == 0)
			continue;
		if (sscanf(line, "KernelPageSize: %lu kB", &kb) == 1 &&
				kb >= 2048)
			hugetlb += overlap;
		else if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			huge += (uint64_t)((double)kb * 1024 * overlap / map_len);
	}
	fclose(f);
	huge = RTE_MIN(huge + hugetlb, total);
	r->huge_pct = 100.0 * huge / total;
	if (hugetlb == total)
		snprintf(r->backing, sizeof(r->backing), "hugetlbfs");
	else if (hugetlb > 0)
		snprintf(r->backing, sizeof(r->backing), "mixed");
	else if (r->huge_pct >= 50)
		snprintf(r->backing, sizeof(r->backing), "thp");
	else
		snprintf(r->backing, sizeof(r->backing), "4k");
	turbomem_report(mp, r);
out:
	free(c.start);
	free(c.end);
}

/* --- hardware counters ------------------------------------------------- */

static int
perf_open(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

int
bench_hw_open(struct bench_hw *hw)
{
	hw->why[0] = '\0';
	hw->fd_dtlb = hw->fd_cycles = -1;
	if (!bench_opts.pmu) {
		snprintf(hw->why, sizeof(hw->why), "n/a: --pmu off");
		return -1;
	}
	hw->fd_dtlb = perf_open(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB |
			(PERF_COUNT_HW_CACHE_OP_READ << 8) |
			(PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	if (hw->fd_dtlb < 0) {
		snprintf(hw->why, sizeof(hw->why), "n/a: no PMU (%s)",
			strerror(errno));
		return -1;
	}
	hw->fd_cycles = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (hw->fd_cycles < 0) {
		snprintf(hw->why, sizeof(hw->why), "n/a: no cycles counter (%s)",
			strerror(errno));
		close(hw->fd_dtlb);
		hw->fd_dtlb = -1;
		return -1;
	}
	return 0;
}

void
bench_hw_start(struct bench_hw *hw)
{
	int fds[2] = { hw->fd_dtlb, hw->fd_cycles };
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (fds[i] >= 0) {
			ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
			ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
		}
}

static double
hw_read(int fd)
{
	uint64_t v;

	if (fd < 0)
		return NAN;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return NAN;
	return (double)v;
}

void
bench_hw_stop(struct bench_hw *hw, double *dtlb, double *cycles)
{
	*dtlb = hw_read(hw->fd_dtlb);
	*cycles = hw_read(hw->fd_cycles);
}

void
bench_hw_close(struct bench_hw *hw)
{
	if (hw->fd_dtlb >= 0)
		close(hw->fd_dtlb);
	if (hw->fd_cycles >= 0)
		close(hw->fd_cycles);
	hw->fd_dtlb = hw->fd_cycles = -1;
}

