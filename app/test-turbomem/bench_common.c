/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench: options, handler checks, result rows (table, CSV, JSON),
 * run header, memory backing (smaps) and hardware counters. The scenarios
 * and their matrix are described in bench_common.h.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <math.h>
#include <stdarg.h>
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

struct bench_opts bench_opts;

#define BENCH_MAX_ROWS 2048
static struct bench_row *rows;
static unsigned int nb_rows;

static const char * const default_handlers[] = {
	"ring_mp_mc", "ring_mt_rts", "ring_mt_hts", "stack", "lf_stack",
	"bucket", "turbomem",
};

/* --- options ----------------------------------------------------------- */

static int
parse_uint_list(const char *s, unsigned int *v, unsigned int *n, bool bulk)
{
	char buf[256], *tok, *save = NULL, *end;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (*n == BENCH_MAX_LIST) {
			printf("more than %d values in \"%s\"\n",
				BENCH_MAX_LIST, s);
			return -1;
		}
		if (bulk && strcmp(tok, "random") == 0) {
			v[(*n)++] = BENCH_BULK_RANDOM;
			continue;
		}
		if (!bulk && strcmp(tok, "default") == 0) {
			v[(*n)++] = BENCH_CACHE_DEFAULT;
			continue;
		}
		errno = 0;
		v[*n] = strtoul(tok, &end, 0);
		if (errno != 0 || *end != '\0' || end == tok) {
			printf("bad number \"%s\" in \"%s\"\n", tok, s);
			return -1;
		}
		(*n)++;
	}
	return *n > 0 ? 0 : -1;
}

/* turbomem_perf (the former command): its defaults, grid only. */
static bool perf_compat;

static int
bench_parse(struct bench_opts *o, const char **scenario)
{
	static char handlers_buf[512];
	char *tok, *save = NULL;
	unsigned int i;
	int a;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < RTE_DIM(default_handlers); i++)
		o->handlers[i] = default_handlers[i];
	o->nb_handlers = RTE_DIM(default_handlers);
	parse_uint_list("1,4,16,32,random", o->bulks, &o->nb_bulks, true);
	parse_uint_list("32,128,512", o->keeps, &o->nb_keeps, false);
	parse_uint_list("0,default", o->caches, &o->nb_caches, false);
	parse_uint_list("512", o->inflights, &o->nb_inflights, false);
	o->seconds = 0.5;
	o->rounds = 3;
	o->deep_n = 262143;
	o->seed = 1;
	o->pmu = true;
	*scenario = "grid";
	if (perf_compat) {
		parse_uint_list("16", o->bulks, &o->nb_bulks, true);
		parse_uint_list("32", o->keeps, &o->nb_keeps, false);
		parse_uint_list("0", o->caches, &o->nb_caches, false);
		o->seconds = 1.0;
	}

	for (a = 0; a < tm_test_argc; a += 2) {
		const char *k = tm_test_argv[a];
		const char *v = a + 1 < tm_test_argc ? tm_test_argv[a + 1] : NULL;
		int ret = 0;

		if (v == NULL) {
			printf("option %s needs a value\n", k);
			return -1;
		}
		if (strcmp(k, "--scenario") == 0) {
			*scenario = v;
		} else if (strcmp(k, "--handlers") == 0) {
			if (strlen(v) >= sizeof(handlers_buf))
				return -1;
			strcpy(handlers_buf, v);
			o->nb_handlers = 0;
			for (tok = strtok_r(handlers_buf, ",", &save);
					tok != NULL; tok = strtok_r(NULL, ",", &save)) {
				if (o->nb_handlers == BENCH_MAX_HANDLERS) {
					printf("more than %d handlers\n",
						BENCH_MAX_HANDLERS);
					return -1;
				}
				o->handlers[o->nb_handlers++] = tok;
			}
			o->handlers_given = true;
		} else if (strcmp(k, "--bulks") == 0 ||
				strcmp(k, "--bulk") == 0) {
			ret = parse_uint_list(v, o->bulks, &o->nb_bulks, true);
			o->bulks_given = true;
		} else if (strcmp(k, "--keeps") == 0 ||
				strcmp(k, "--keep") == 0) {
			ret = parse_uint_list(v, o->keeps, &o->nb_keeps, false);
		} else if (strcmp(k, "--caches") == 0 ||
				strcmp(k, "--cache") == 0) {
			ret = parse_uint_list(v, o->caches, &o->nb_caches, false);
			o->caches_given = true;
		} else if (strcmp(k, "--inflight") == 0) {
			ret = parse_uint_list(v, o->inflights, &o->nb_inflights,
					false);
			o->inflights_given = true;
		} else if (strcmp(k, "--seconds") == 0) {
			o->seconds = atof(v);
		} else if (strcmp(k, "--rounds") == 0) {
			o->rounds = atoi(v);
		} else if (strcmp(k, "--nonEAL") == 0) {
			o->nonEAL = atoi(v);
		} else if (strcmp(k, "--deep-n") == 0) {
			o->deep_n = strtoul(v, NULL, 0);
		} else if (strcmp(k, "--seed") == 0) {
			o->seed = strtoull(v, NULL, 0);
		} else if (strcmp(k, "--pmu") == 0) {
			o->pmu = strcmp(v, "off") != 0;
		} else if (strcmp(k, "--layout") == 0) {
			snprintf(o->layout, sizeof(o->layout), "%s", v);
		} else if (strcmp(k, "--csv") == 0) {
			o->csv = v;
		} else if (strcmp(k, "--json") == 0) {
			o->json = v;
		} else {
			printf("unknown option %s (see bench_common.h)\n", k);
			return -1;
		}
		if (ret < 0)
			return -1;
	}
	if (o->nb_handlers == 0 || o->rounds == 0 ||
			o->rounds > BENCH_MAX_ROUNDS || !(o->seconds > 0) ||
			o->seconds > 60 || o->nonEAL > 64 ||
			o->deep_n < 1024) {
		printf("bad options: handlers %u, rounds %u (1..%d), seconds %g (0..60], nonEAL %u (<= 64), deep-n %u (>= 1024)\n",
			o->nb_handlers, o->rounds, BENCH_MAX_ROUNDS, o->seconds,
			o->nonEAL, o->deep_n);
		return -1;
	}
	for (i = 0; i < o->nb_bulks; i++)
		if (o->bulks[i] > BENCH_MAX_KEEP) {
			printf("bulk %u > %d\n", o->bulks[i], BENCH_MAX_KEEP);
			return -1;
		}
	for (i = 0; i < o->nb_keeps; i++)
		if (o->keeps[i] == 0 || o->keeps[i] > BENCH_MAX_KEEP) {
			printf("keep %u not in 1..%d\n", o->keeps[i],
				BENCH_MAX_KEEP);
			return -1;
		}
	for (i = 0; i < o->nb_inflights; i++)
		if (o->inflights[i] == 0 ||
				o->inflights[i] > BENCH_LOC_MAX_INFLIGHT ||
				o->inflights[i] % BENCH_LOC_BURST != 0) {
			printf("inflight %u not a multiple of %u in %u..%u\n",
				o->inflights[i], BENCH_LOC_BURST,
				BENCH_LOC_BURST, BENCH_LOC_MAX_INFLIGHT);
			return -1;
		}
	for (i = 0; i < o->nb_caches; i++)
		if (o->caches[i] > RTE_MEMPOOL_CACHE_MAX_SIZE) {
			printf("cache %u > %d\n", o->caches[i],
				RTE_MEMPOOL_CACHE_MAX_SIZE);
			return -1;
		}
	if (o->layout[0] == '\0') {
		unsigned int w = rte_lcore_count() - 1;

		if (o->nonEAL > 0)
			snprintf(o->layout, sizeof(o->layout), "%u nonEAL",
				o->nonEAL);
		else if (w == 0)
			snprintf(o->layout, sizeof(o->layout), "main lcore");
		else
			snprintf(o->layout, sizeof(o->layout), "%u on %u CPUs",
				w, bench_worker_cpus());
	}
	return 0;
}

/* --- helpers ----------------------------------------------------------- */

void
bench_progress(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "[bench] ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
bench_median(const double *v, unsigned int n)
{
	double s[BENCH_MAX_ROUNDS];
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	if (k == 0)
		return NAN;
	qsort(s, k, sizeof(double), cmp_double);
	return k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}

double
bench_best_min(const double *v, unsigned int n)
{
	double best = NAN;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(best) || v[i] < best))
			best = v[i];
	return best;
}

void
bench_samples_str(char *buf, size_t len, const double *v, unsigned int n,
		double scale)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%.4g",
			i ? " " : "", v[i] / scale);
}

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

uint64_t
bench_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void
bench_shuffle(void **v, unsigned int n, uint64_t seed)
{
	uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 1;
	unsigned int i;

	for (i = n - 1; i > 0; i--) {
		unsigned int j = bench_rand(&st) % (i + 1);
		void *t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static bool
ops_registered(const char *name)
{
	size_t n = strlen(name), k = strlen(TM_TRACK_SUFFIX);
	unsigned int i;

	/* "turbomem+track": turbomem with tracking on (tm_test_set_ops). */
	if (n > k && strcmp(name + n - k, TM_TRACK_SUFFIX) == 0)
		n -= k;
	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strncmp(rte_mempool_ops_table.ops[i].name, name, n) == 0 &&
				rte_mempool_ops_table.ops[i].name[n] == '\0')
			return true;
	return false;
}

const char *
bench_handler_skip(const char *handler, bool nonEAL, unsigned int elt_size)
{
	if (!ops_registered(handler))
		return "not registered (plugin not loaded?)";
	if (strcmp(handler, "bucket") == 0) {
		/* Its bucket is min(page size, 64 KB) with a 64-byte header. */
		size_t bucket = rte_eal_has_hugepages() ? 64 * 1024 :
			(size_t)sysconf(_SC_PAGESIZE);

		if (nonEAL)
			return "bucket indexes per-lcore arrays by rte_lcore_id(), out of bounds on unregistered threads";
		if (elt_size + 2 * RTE_CACHE_LINE_SIZE > bucket)
			return "objects do not fit in its page-sized bucket";
	}
	return NULL;
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

/*
 * The app is not linked against the plugin: look its report up in the
 * copy EAL loaded with -d, if it exports it.
 */
static void
turbomem_report(const struct rte_mempool *mp, struct bench_row *r)
{
	struct rte_pmd_turbomem_mem_info info;
	void *handle = NULL;
	mem_info_fn *fn;
	backing_name_fn *name;
	size_t off;

	if (strcmp(mp->ops_index < (int32_t)rte_mempool_ops_table.num_ops ?
			rte_mempool_get_ops(mp->ops_index)->name : "",
			"turbomem") != 0)
		return;
	dl_iterate_phdr(find_turbomem, &handle);
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

/* --- rows and output --------------------------------------------------- */

void
bench_row_init(struct bench_row *r, const char *scenario, const char *handler)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->scenario, sizeof(r->scenario), "%s", scenario);
	snprintf(r->handler, sizeof(r->handler), "%s", handler);
	snprintf(r->layout, sizeof(r->layout), "%s", bench_opts.layout);
	snprintf(r->threads, sizeof(r->threads), "eal");
	snprintf(r->mem, sizeof(r->mem), "%s",
		rte_eal_has_hugepages() ? "hugetlbfs" : "nohuge");
	r->workers = 1;
	r->cpus = 1;
	r->bulk = r->keep = r->cache = -1;
	r->huge_pct = NAN;
	r->mobj_s = r->cycles_per_obj = r->pages_4k = r->pages_2m = NAN;
	r->dtlb_per_obj = r->hw_cycles_per_obj = NAN;
	snprintf(r->status, sizeof(r->status), "ok");
}

int
bench_row_rates(struct bench_row *r, const char *skip, const double *rate,
		const double *cyc, unsigned int rounds)
{
	r->rounds = rounds;
	snprintf(r->stat, sizeof(r->stat), "median");
	snprintf(r->backing, sizeof(r->backing), "-");
	if (skip != NULL) {
		snprintf(r->status, sizeof(r->status), "skip: %s", skip);
		return 0;
	}
	r->mobj_s = bench_median(rate, rounds);
	r->cycles_per_obj = bench_median(cyc, rounds);
	bench_samples_str(r->samples, sizeof(r->samples), rate, rounds, 1e6);
	if (isnan(r->mobj_s)) {
		snprintf(r->status, sizeof(r->status),
			"error: pool creation or run failed");
		return -1;
	}
	return 0;
}

void
bench_row_add(const struct bench_row *r)
{
	if (rows == NULL)
		rows = calloc(BENCH_MAX_ROWS, sizeof(*rows));
	if (rows == NULL || nb_rows == BENCH_MAX_ROWS) {
		printf("result table full (%d rows): row %s/%s dropped\n",
			BENCH_MAX_ROWS, r->scenario, r->handler);
		return;
	}
	rows[nb_rows++] = *r;
}

static void
str_int(char *buf, size_t len, int v, bool bulk)
{
	if (v < 0)
		snprintf(buf, len, bulk ? "" : "none");
	else if (bulk && v == BENCH_BULK_RANDOM)
		snprintf(buf, len, "random");
	else
		snprintf(buf, len, "%d", v);
}

static void
fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.6g", v);
}

/* The figure the table shows for a row, and whether higher is better. */
static double
main_figure(const struct bench_row *r, const char **unit)
{
	if (strcmp(r->scenario, "grid") == 0 ||
			strcmp(r->scenario, "pipeline") == 0 ||
			strcmp(r->scenario, "cache") == 0) {
		*unit = "Mobj/s";
		return r->mobj_s / 1e6;
	}
	if (strcmp(r->scenario, "hw") == 0) {
		*unit = "dTLB miss/obj";
		return r->dtlb_per_obj;
	}
	*unit = strcmp(r->scenario, "deep") == 0 ? "cycles/mbuf" :
		"cycles/obj";
	return r->cycles_per_obj;
}

static bool
same_params(const struct bench_row *a, const struct bench_row *b)
{
	return strcmp(a->scenario, b->scenario) == 0 &&
		strcmp(a->layout, b->layout) == 0 &&
		strcmp(a->threads, b->threads) == 0 &&
		strcmp(a->mem, b->mem) == 0 &&
		a->bulk == b->bulk && a->keep == b->keep &&
		a->cache == b->cache;
}

static void
print_table(void)
{
	char bulk[16], keep[16], cache[16];
	unsigned int i, j;
	bool *done = calloc(nb_rows, sizeof(bool));

	if (done == NULL)
		return;
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *base = &rows[i];
		const char *unit;
		double b;

		if (done[i])
			continue;
		str_int(bulk, sizeof(bulk), base->bulk, true);
		str_int(keep, sizeof(keep), base->keep, false);
		str_int(cache, sizeof(cache), base->cache, false);
		b = main_figure(base, &unit);
		printf("\n%s | %s (%s, %u workers on %u CPUs) | bulk %s keep %s cache %s | mem %s\n",
			base->scenario, base->layout, base->threads,
			base->workers, base->cpus, bulk[0] ? bulk : "-",
			base->keep < 0 ? "-" : keep, cache, base->mem);
		printf("  %-12s %14s %8s  %-9s %s\n", "handler", unit,
			"ratio", "backing", "rounds / status");
		for (j = i; j < nb_rows; j++) {
			const struct bench_row *r = &rows[j];
			double v;

			if (done[j] || !same_params(base, r))
				continue;
			done[j] = true;
			v = main_figure(r, &unit);
			if (isnan(v)) {
				printf("  %-12s %14s %8s  %-9s %s\n", r->handler,
					"n/a", "", r->backing, r->status);
				continue;
			}
			printf("  %-12s %14.4g %7.3gx  %-9s %s [%s]%s%s\n",
				r->handler, v, b > 0 ? v / b : NAN,
				r->backing, r->stat, r->samples,
				strcmp(r->status, "ok") ? " " : "",
				strcmp(r->status, "ok") ? r->status : "");
		}
	}
	free(done);
	printf("\nratio: each handler's figure / %s's (grid, pipeline: higher is better; cycles, misses: lower is better)\n",
		rows[0].handler);
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

#define HDR_N 12
static void
run_header(char keys[HDR_N][32], char vals[HDR_N][160])
{
	struct utsname u;
	char tmp[160], tmp2[160];
	time_t now = time(NULL);
	unsigned int k = 0;

#define HDR(key, ...) do { \
	snprintf(keys[k], 32, "%s", key); \
	snprintf(vals[k], 160, __VA_ARGS__); \
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

static const char *
csv_cols =
	"scenario,handler,layout,threads,workers,cpus,bulk,keep,cache,pool_size,mem,backing,huge_pct,mobj_per_s,cycles_per_obj,pages_4k_per_1000,pages_2m_per_1000,dtlb_misses_per_obj,hw_cycles_per_obj,stat,rounds,samples,status,extra";

static void
csv_str(FILE *f, const char *s, bool last)
{
	/* Quote always: layouts and statuses hold commas and spaces. */
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputs(last ? "\"\n" : "\",", f);
}

static int
write_csv(const char *path, char keys[HDR_N][32], char vals[HDR_N][160])
{
	char b[8][32];
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < HDR_N; i++)
		fprintf(f, "# %s: %s\n", keys[i], vals[i]);
	fprintf(f, "%s\n", csv_cols);
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *r = &rows[i];

		csv_str(f, r->scenario, false);
		csv_str(f, r->handler, false);
		csv_str(f, r->layout, false);
		csv_str(f, r->threads, false);
		fprintf(f, "%u,%u,", r->workers, r->cpus);
		str_int(b[0], 32, r->bulk, true);
		str_int(b[1], 32, r->keep, true);
		str_int(b[2], 32, r->cache, false);
		fprintf(f, "%s,%s,%s,%u,", b[0], b[1], b[2], r->pool_size);
		csv_str(f, r->mem, false);
		csv_str(f, r->backing, false);
		fmt_num(b[0], 32, r->huge_pct);
		fmt_num(b[1], 32, r->mobj_s);
		fmt_num(b[2], 32, r->cycles_per_obj);
		fmt_num(b[3], 32, r->pages_4k);
		fmt_num(b[4], 32, r->pages_2m);
		fmt_num(b[5], 32, r->dtlb_per_obj);
		fmt_num(b[6], 32, r->hw_cycles_per_obj);
		fprintf(f, "%s,%s,%s,%s,%s,", b[0], b[1], b[2], b[3], b[4]);
		/* The counters' absence is said, not left blank. */
		fprintf(f, "%s,%s,", b[5][0] ? b[5] : "n/a",
			b[6][0] ? b[6] : "n/a");
		csv_str(f, r->stat, false);
		fprintf(f, "%u,", r->rounds);
		csv_str(f, r->samples, false);
		csv_str(f, r->status, false);
		csv_str(f, r->extra, true);
	}
	fclose(f);
	return 0;
}

static void
json_str(FILE *f, const char *k, const char *s, bool comma)
{
	fprintf(f, "\"%s\": \"", k);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fprintf(f, "\"%s", comma ? ", " : "");
}

static void
json_num(FILE *f, const char *k, double v)
{
	if (isnan(v))
		fprintf(f, "\"%s\": null, ", k);
	else
		fprintf(f, "\"%s\": %.6g, ", k, v);
}

static int
write_json(const char *path, char keys[HDR_N][32], char vals[HDR_N][160])
{
	char b[32];
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\"header\": {");
	for (i = 0; i < HDR_N; i++)
		json_str(f, keys[i], vals[i], i + 1 < HDR_N);
	fprintf(f, "},\n\"rows\": [\n");
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *r = &rows[i];

		fprintf(f, "{");
		json_str(f, "scenario", r->scenario, true);
		json_str(f, "handler", r->handler, true);
		json_str(f, "layout", r->layout, true);
		json_str(f, "threads", r->threads, true);
		fprintf(f, "\"workers\": %u, \"cpus\": %u, ", r->workers,
			r->cpus);
		str_int(b, sizeof(b), r->bulk, true);
		json_str(f, "bulk", b, true);
		fprintf(f, "\"keep\": %d, \"cache\": %d, \"pool_size\": %u, ",
			r->keep, r->cache, r->pool_size);
		json_str(f, "mem", r->mem, true);
		json_str(f, "backing", r->backing, true);
		json_num(f, "huge_pct", r->huge_pct);
		json_num(f, "mobj_per_s", r->mobj_s);
		json_num(f, "cycles_per_obj", r->cycles_per_obj);
		json_num(f, "pages_4k_per_1000", r->pages_4k);
		json_num(f, "pages_2m_per_1000", r->pages_2m);
		json_num(f, "dtlb_misses_per_obj", r->dtlb_per_obj);
		json_num(f, "hw_cycles_per_obj", r->hw_cycles_per_obj);
		json_str(f, "stat", r->stat, true);
		fprintf(f, "\"rounds\": %u, ", r->rounds);
		json_str(f, "samples", r->samples, true);
		json_str(f, "status", r->status, true);
		json_str(f, "extra", r->extra, false);
		fprintf(f, "}%s\n", i + 1 < nb_rows ? "," : "");
	}
	fprintf(f, "]}\n");
	fclose(f);
	return 0;
}

/* --- the command ------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(void);
} scenarios[] = {
	{ "grid", bench_grid },
	{ "pipeline", bench_pipeline },
	{ "locality", bench_locality },
	{ "deep", bench_deep },
	{ "hw", bench_hw },
	{ "cache", bench_cache },
	{ "frag", bench_frag },
	{ "pages", bench_pages },
	{ "chunks", bench_chunks },
};

static int
test_bench(void)
{
	char keys[HDR_N][32], vals[HDR_N][160];
	const char *scenario;
	unsigned int i, ran = 0;
	int ret = TEST_SUCCESS;

	if (bench_parse(&bench_opts, &scenario) < 0)
		return TEST_FAILED;
	nb_rows = 0;
	run_header(keys, vals);
	for (i = 0; i < HDR_N; i++)
		printf("# %s: %s\n", keys[i], vals[i]);
	for (i = 0; i < RTE_DIM(scenarios); i++) {
		if (strcmp(scenario, "all") != 0 &&
				strcmp(scenario, scenarios[i].name) != 0)
			continue;
		ran++;
		if (scenarios[i].fn() != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	if (ran == 0) {
		printf("unknown scenario \"%s\" (grid, pipeline, locality, deep, hw, cache, frag, pages, chunks, all)\n",
			scenario);
		return TEST_FAILED;
	}
	if (nb_rows > 0)
		print_table();
	if (bench_opts.csv != NULL && write_csv(bench_opts.csv, keys, vals) < 0)
		ret = TEST_FAILED;
	if (bench_opts.json != NULL &&
			write_json(bench_opts.json, keys, vals) < 0)
		ret = TEST_FAILED;
	return ret;
}
TM_TEST_REGISTER(turbomem_bench, test_bench);

/* The former turbomem_perf command: the grid, bulk 16 keep 32 cache 0. */
static int
test_perf_compat(void)
{
	perf_compat = true;
	return test_bench();
}
TM_TEST_REGISTER(turbomem_perf, test_perf_compat);
