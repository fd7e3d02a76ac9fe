/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "rte_pmd_turbomem.h"
#include "turbomem_private.h"
#include "test.h"

static struct tm_test *tests;
int tm_test_argc;
char **tm_test_argv;

void
tm_test_register(struct tm_test *t)
{
	t->next = tests;
	tests = t;
}

const char *
tm_test_opt(const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < tm_test_argc; i++)
		if (strncmp(tm_test_argv[i], name, n) == 0) {
			if (tm_test_argv[i][n] == '=')
				return tm_test_argv[i] + n + 1;
			if (tm_test_argv[i][n] == '\0')
				return "";
		}
	return NULL;
}

int
tm_test_tel_query(const char *cmd, char *buf, size_t sz)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		n = -errno;
		printf("telemetry socket %s: %s\n", sun.sun_path,
			strerror(errno));
		close(fd);
		return (int)n;
	}
	/* The greeting (version, pid, max_output_len), then the reply. */
	n = recv(fd, buf, sz - 1, 0);
	if (n > 0 && send(fd, cmd, strlen(cmd), 0) == (ssize_t)strlen(cmd))
		n = recv(fd, buf, sz - 1, 0);
	else
		n = -1;
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

unsigned int
tm_test_scale(void)
{
	const char *s = getenv("TM_TEST_SCALE");
	unsigned long v = s != NULL ? strtoul(s, NULL, 0) : 1;

	return v == 0 ? 1 : (unsigned int)v;
}

unsigned long
tm_test_iters(unsigned long base)
{
	const char *s = getenv("TM_TEST_SCALE");
	double v = s != NULL ? strtod(s, NULL) : 1.0;
	double n = v > 0 ? (double)base * v : (double)base;

	return n < 1 ? 1 : (unsigned long)n;
}

uint64_t
tm_test_seed(void)
{
	const char *s = getenv("TM_TEST_SEED");
	uint64_t seed = s != NULL ? strtoull(s, NULL, 0) :
		(uint64_t)time(NULL) ^ rte_rdtsc();

	printf("seed %" PRIu64 " (TM_TEST_SEED to replay)\n", seed);
	return seed | 1;
}

int
tm_test_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	pthread_attr_t attr;
	cpu_set_t set;
	long c;
	int ret;

	/* The kernel keeps the CPUs of the mask the process may use. */
	CPU_ZERO(&set);
	for (c = 0; c < cpus && c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	ret = pthread_attr_init(&attr);
	if (ret != 0)
		return ret;
	ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (ret == 0)
		ret = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

static int
find_plugin(struct dl_phdr_info *info, size_t size, void *arg)
{
	char **name = arg;

	RTE_SET_USED(size);
	if (strstr(info->dlpi_name, "librte_mempool_turbomem") == NULL)
		return 0;
	*name = strdup(info->dlpi_name);
	return 1;
}

int
tm_test_stats(const struct rte_mempool *mp, struct rte_pmd_turbomem_stats *st)
{
	typedef int (stats_get_t)(const struct rte_mempool *,
			struct rte_pmd_turbomem_stats *);
	stats_get_t *f = (stats_get_t *)(uintptr_t)
		tm_test_plugin_sym("rte_pmd_turbomem_stats_get");

	return f != NULL ? f(mp, st) : -ENOENT;
}

int
tm_test_blocks_missing(const struct rte_mempool *mp)
{
	const struct turbomem_pool *tp = mp->pool_data;
	uint32_t stashed, nb_free, grouped;

	stashed = turbomem_stats_stashed(tp->stats);
	nb_free = tm_lifo_blocks_free(tp->lifo);
	grouped = tm_lifo_blocks_grouped(tp->lifo);
	if (stashed + nb_free + grouped != tp->lifo->nb_blocks)
		printf("blocks: %u in lcore stashes + %u free + %u in groups, not the %u allocated\n",
			stashed, nb_free, grouped, tp->lifo->nb_blocks);
	return (int)tp->lifo->nb_blocks - (int)(stashed + nb_free + grouped);
}

int
tm_test_blocks_check(const struct rte_mempool *mp)
{
	return tm_test_blocks_missing(mp) == 0 ? 0 : -1;
}

int
tm_test_plugin_path(char *buf, size_t sz)
{
	char *name = NULL;

	dl_iterate_phdr(find_plugin, &name);
	if (name == NULL)
		return -1;
	snprintf(buf, sz, "%s", name);
	free(name);
	return 0;
}

void *
tm_test_plugin_sym(const char *sym)
{
	char *name = NULL;
	void *h, *p;

	p = dlsym(RTLD_DEFAULT, sym);
	if (p != NULL)
		return p;
	dl_iterate_phdr(find_plugin, &name);
	if (name == NULL) {
		printf("the turbomem plugin is not loaded (-d)\n");
		return NULL;
	}
	h = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
	free(name);
	if (h == NULL)
		return NULL;
	p = dlsym(h, sym);
	/* EAL keeps its own reference: the plugin stays loaded. */
	dlclose(h);
	return p;
}

int
tm_test_smaps(uintptr_t s, uintptr_t e, struct tm_smaps *sum)
{
	char line[512];
	bool in = false;
	unsigned long a, b;
	uint64_t kb;
	FILE *f = fopen("/proc/self/smaps", "r");

	memset(sum, 0, sizeof(*sum));
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			in = a < e && b > s;
			if (in)
				sum->vma_bytes += b - a;
		} else if (!in) {
			continue;
		} else if (sscanf(line, "AnonHugePages: %" SCNu64, &kb) == 1) {
			sum->anon_huge += kb << 10;
		} else if (sscanf(line, "KernelPageSize: %" SCNu64, &kb) == 1) {
			if ((kb << 10) > sum->kpage)
				sum->kpage = kb << 10;
		} else if (strncmp(line, "VmFlags:", 8) == 0) {
			if (strstr(line, " hg") != NULL)
				sum->advised = true;
		}
	}
	fclose(f);
	return 0;
}

int
tm_test_maps_count(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int c, n = 0;

	if (f == NULL)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

bool
tm_test_maps_countable(void)
{
#ifdef __SANITIZE_ADDRESS__
	return false;
#else
	return !tm_test_valgrind();
#endif
}

bool
tm_test_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre != NULL && strstr(pre, "vgpreload") != NULL;
}

int
tm_test_maps_left(int maps0)
{
	return tm_test_maps_countable() ? tm_test_maps_count() - maps0 : 0;
}

int
tm_test_set_ops(struct rte_mempool *mp, const char *ops)
{
	static const struct rte_pmd_turbomem_config track = {
		.track = RTE_PMD_TURBOMEM_TRACK_ON,
	};
	size_t n = strlen(ops), k = strlen(TM_TRACK_SUFFIX);

	if (n > k && strcmp(ops + n - k, TM_TRACK_SUFFIX) == 0 &&
			strncmp(ops, TM_OPS, n - k) == 0 && n - k == strlen(TM_OPS))
		return rte_mempool_set_ops_byname(mp, TM_OPS,
				(void *)(uintptr_t)&track);
	return rte_mempool_set_ops_byname(mp, ops, NULL);
}

struct rte_mempool *
tm_test_pool(const char *name, unsigned int n, unsigned int elt_size,
		unsigned int cache, const char *ops, int socket, bool populate)
{
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(name, n, elt_size, cache, 0, socket, 0);
	if (mp == NULL) {
		printf("create_empty(%s, %u) failed: %s\n", name, n,
			rte_strerror(rte_errno));
		return NULL;
	}
	ret = tm_test_set_ops(mp, ops);
	if (ret != 0) {
		printf("set_ops_byname(%s) failed: %s\n", ops, strerror(-ret));
		rte_mempool_free(mp);
		return NULL;
	}
	if (populate) {
		ret = rte_mempool_populate_default(mp);
		if (ret < 0 || (unsigned int)ret != n) {
			printf("populate_default(%s) gave %d of %u\n", name,
				ret, n);
			rte_mempool_free(mp);
			return NULL;
		}
	}
	return mp;
}

static int
run_one(const char *name)
{
	struct tm_test *t;
	int ret;

	for (t = tests; t != NULL; t = t->next) {
		if (strcmp(t->name, name) != 0)
			continue;
		printf("RTE>>%s\n", name);
		fflush(stdout);
		ret = t->fn();
		if (ret == TEST_SUCCESS)
			printf("Test OK\n");
		else if (ret == TEST_SKIPPED)
			printf("Test Skipped\n");
		else
			printf("Test Failed\n");
		fflush(stdout);
		return ret;
	}
	printf("unknown command \"%s\"; \"list\" prints the commands\n", name);
	return TEST_FAILED;
}

int
main(int argc, char **argv)
{
	const char *env = getenv("DPDK_TEST");
	int ret, i, failed = 0, skipped = 0, ran = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		/*
		 * Newer EALs (26.07) refuse --iova-mode=pa where there are no
		 * physical addresses (--no-huge) instead of selecting VA as
		 * 22.11 does: the case cannot be made here, skip.
		 */
		for (i = 1; i < argc; i++)
			if (strcmp(argv[i], "--iova-mode=pa") == 0 &&
					rte_errno == EINVAL) {
				printf("SKIP: EAL refuses IOVA as PA here\n");
				return 77;
			}
		return 1;
	}
	argc -= ret;
	argv += ret;

	if (argc > 1 && strcmp(argv[1], "list") == 0) {
		struct tm_test *t;

		for (t = tests; t != NULL; t = t->next)
			printf("%s\n", t->name);
		rte_eal_cleanup();
		return 0;
	}

	/* "-- name --opt ...": options after a single command belong to it. */
	if (argc > 2 && argv[2][0] == '-') {
		tm_test_argc = argc - 2;
		tm_test_argv = argv + 2;
		argc = 2;
	}
	for (i = 1; i < argc; i++) {
		ret = run_one(argv[i]);
		ran++;
		failed += ret != TEST_SUCCESS && ret != TEST_SKIPPED;
		skipped += ret == TEST_SKIPPED;
	}
	if (ran == 0 && env != NULL && env[0] != '\0') {
		ret = run_one(env);
		ran++;
		failed += ret != TEST_SUCCESS && ret != TEST_SKIPPED;
		skipped += ret == TEST_SKIPPED;
	}
	if (ran == 0)
		printf("no command given: pass names after \"--\" or DPDK_TEST\n");

	rte_eal_cleanup();
	if (ran == 0 || failed > 0)
		return 1;
	/* Meson's "skipped" exit code, when everything asked was skipped. */
	return skipped == ran ? 77 : 0;
}
