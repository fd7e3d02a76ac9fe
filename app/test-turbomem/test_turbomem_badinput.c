/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Bad input: each case must give a clear error (the op's -errno surfacing
 * from populate, one turbomem log line naming the value and its limit),
 * leave nothing behind (memzones, heap bytes, /proc/self/maps lines) and
 * leave the pool name free for a retry that then succeeds.
 *
 * | command                        | cases                                    |
 * |--------------------------------|------------------------------------------|
 * | turbomem_badinput_all_autotest | size 0, size above the driver maximum,   |
 * |                                | size x element size beyond memory,       |
 * |                                | metadata larger than memory, pool memory |
 * |                                | larger than memory, socket that does not |
 * |                                | exist, free after a failed alloc         |
 * | turbomem_debug_death_autotest  | debug builds (-Ddebug_checks=true): a    |
 * |                                | child process puts a foreign pointer, an |
 * |                                | interior pointer, another pool's object, |
 * |                                | an object twice (cache 0 and through a   |
 * |                                | cache flush); each must die with SIGABRT |
 * |                                | and a message naming object and pool     |
 *
 * THP, mbind and libnuma failures are tested with the memory code
 * (test_turbomem_mem.c).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_pmd_turbomem.h>

#include "test.h"

static void
count_mz(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

/* What a failed creation could leave behind. */
struct footprint {
	unsigned int memzones;
	size_t heap_bytes;
	unsigned int maps;
};

static void
footprint_take(struct footprint *f)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;
	FILE *fp;
	int c;

	memset(f, 0, sizeof(*f));
	rte_memzone_walk(count_mz, &f->memzones);
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
				&st) == 0)
			f->heap_bytes += st.heap_allocsz_bytes;
	fp = fopen("/proc/self/maps", "r");
	if (fp == NULL)
		return;
	while ((c = fgetc(fp)) != EOF)
		f->maps += c == '\n';
	fclose(fp);
}

/*
 * Under valgrind, its malloc maps new client heap blocks as the test runs,
 * so the number of mappings says nothing about the driver there.
 */
static bool
maps_countable(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre == NULL || strstr(pre, "vgpreload") == NULL;
}

static int
footprint_same(const struct footprint *a, const char *what)
{
	struct footprint b;

	footprint_take(&b);
	if (a->memzones != b.memzones || a->heap_bytes != b.heap_bytes ||
			(a->maps != b.maps && maps_countable())) {
		printf("%s: left behind: memzones %u -> %u, heap bytes %zu -> %zu, mappings %u -> %u\n",
			what, a->memzones, b.memzones, a->heap_bytes,
			b.heap_bytes, a->maps, b.maps);
		return -1;
	}
	return 0;
}

/* Log capture: everything rte_log writes while a case runs. */
struct logcap {
	char *buf;
	size_t len;
	FILE *fp;
};

static int
logcap_start(struct logcap *lc)
{
	lc->buf = NULL;
	lc->len = 0;
	lc->fp = open_memstream(&lc->buf, &lc->len);
	if (lc->fp == NULL)
		return -1;
	rte_openlog_stream(lc->fp);
	return 0;
}

static void
logcap_stop(struct logcap *lc)
{
	rte_openlog_stream(NULL);
	fclose(lc->fp);
	printf("--- log ---\n%s--- end of log ---\n", lc->buf ? lc->buf : "");
}

/*
 * Number of turbomem lines in the log; *line gets the last one. Each must
 * contain every string of want (the value and the limit).
 */
static unsigned int
logcap_lines(const struct logcap *lc, const char * const *want,
		unsigned int nb_want, bool *all_found)
{
	const char *p = lc->buf;
	unsigned int n = 0, i;

	*all_found = true;
	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, '\n');
		size_t l = e != NULL ? (size_t)(e - p) : strlen(p);

		if (memmem(p, l, "turbomem:", 9) != NULL) {
			n++;
			for (i = 0; i < nb_want; i++)
				if (memmem(p, l, want[i],
						strlen(want[i])) == NULL) {
					printf("log line lacks \"%s\": %.*s\n",
						want[i], (int)l, p);
					*all_found = false;
				}
		}
		p = e != NULL ? e + 1 : NULL;
	}
	return n;
}

/* Configuration bad_case() passes to set_ops_byname (NULL: defaults). */
static struct rte_pmd_turbomem_config *bad_cfg;
/* Warm-up run of bad_case(): first-use allocations are not leaks. */
static bool bad_warmup;

/*
 * One failing creation: create_empty + set_ops + (size override) +
 * populate_default must fail with expect_err (0: any negative value), log
 * exactly one turbomem line holding the strings of want (NULL want: the
 * failure is the library's, no turbomem line required), leave nothing
 * behind after free, and the name must be free for a retry.
 */
static int
bad_case(const char *what, unsigned int n, unsigned int elt_size,
		int socket, int64_t size_override, int expect_err,
		const char * const *want, unsigned int nb_want)
{
	const char *name = "tm_badin";
	struct footprint before;
	struct rte_mempool *mp;
	struct logcap lc;
	unsigned int lines;
	bool found;
	int r;

	printf("case: %s\n", what);
	footprint_take(&before);
	mp = rte_mempool_create_empty(name, n, elt_size, 0, 0, socket, 0);
	TEST_ASSERT(mp != NULL, "%s: create_empty: %s", what,
		rte_strerror(rte_errno));
	TEST_ASSERT(rte_mempool_set_ops_byname(mp, TM_OPS, bad_cfg) == 0,
		"%s: set_ops", what);
	if (size_override >= 0)
		mp->size = (uint32_t)size_override;
	TEST_ASSERT(logcap_start(&lc) == 0, "no memory");
	r = rte_mempool_populate_default(mp);
	logcap_stop(&lc);
	mp->size = n;
	lines = logcap_lines(&lc, want, nb_want, &found);
	free(lc.buf);
	if (r >= 0) {
		rte_mempool_free(mp);
		TEST_ASSERT(0, "%s: populate succeeded (%d)", what, r);
	}
	/* free after a failed alloc/populate */
	rte_mempool_free(mp);
	printf("%s: populate returned %d (%s), %u turbomem log line(s)\n",
		what, r, strerror(-r), lines);
	TEST_ASSERT(expect_err == 0 || r == expect_err,
		"%s: populate returned %d, expected %d", what, r, expect_err);
	if (want != NULL) {
		TEST_ASSERT(lines == 1, "%s: %u turbomem log lines, expected 1",
			what, lines);
		TEST_ASSERT(found, "%s: log line does not name value and limit",
			what);
	}
	TEST_ASSERT(bad_warmup || footprint_same(&before, what) == 0,
		"%s: leak", what);
	TEST_ASSERT(rte_mempool_lookup(name) == NULL, "%s: name still taken",
		what);
	/* The name is free: a good pool of that name works. */
	mp = tm_test_pool(name, 64, 64, 0, TM_OPS, SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL, "%s: retry with the same name failed", what);
	rte_mempool_free(mp);
	TEST_ASSERT(bad_warmup || footprint_same(&before, what) == 0,
		"%s: leak after the retry", what);
	return TEST_SUCCESS;
}

#define WANT(...) (const char * const []){ __VA_ARGS__ }, \
	RTE_DIM(((const char * const []){ __VA_ARGS__ }))

static int
test_badinput_all(void)
{
	static struct rte_pmd_turbomem_config thp_off = {
		.thp = RTE_PMD_TURBOMEM_THP_OFF,
	};
	char sock[32], nsock[32], maxs[16], over[32];
	int missing, r;

	/*
	 * Warm up: the first pool makes library-wide state (the mempool
	 * list memzone) that is not a leak.
	 */
	struct rte_mempool *mp = tm_test_pool("tm_badin_warm", 64, 64, 0,
			TM_OPS, SOCKET_ID_ANY, true);

	TEST_ASSERT(mp != NULL, "warm-up pool");
	rte_mempool_free(mp);

	/*
	 * Size 0: the library refuses it in create_empty already; the
	 * driver's own check is reached by zeroing the size of a created
	 * pool before alloc (mp->size is read only by alloc here).
	 */
	mp = rte_mempool_create_empty("tm_badin", 0, 64, 0, 0,
			SOCKET_ID_ANY, 0);
	TEST_ASSERT(mp == NULL && rte_errno == EINVAL,
		"create_empty of 0 objects: %p, %s", (void *)mp,
		rte_strerror(rte_errno));
	snprintf(maxs, sizeof(maxs), "%u", RTE_PMD_TURBOMEM_MAX_OBJS);
	/*
	 * Once as warm-up: the log capture's first buffers (a new heap
	 * mapping under valgrind) are not a leak of the driver.
	 */
	bad_warmup = true;
	r = bad_case("size 0 (warm-up)", 64, 64, SOCKET_ID_ANY, 0,
			-EINVAL, WANT("size 0", maxs));
	bad_warmup = false;
	if (r != TEST_SUCCESS)
		return TEST_FAILED;
	if (bad_case("size 0", 64, 64, SOCKET_ID_ANY, 0,
			-EINVAL, WANT("size 0", maxs)) != TEST_SUCCESS)
		return TEST_FAILED;

	/* Above the driver's maximum (RTE_PMD_TURBOMEM_MAX_OBJS). */
	snprintf(over, sizeof(over), "size %u", RTE_PMD_TURBOMEM_MAX_OBJS + 1);
	if (bad_case("size above maximum", 64, 64, SOCKET_ID_ANY,
			RTE_PMD_TURBOMEM_MAX_OBJS + 1, -EINVAL,
			WANT(over, maxs)) != TEST_SUCCESS)
		return TEST_FAILED;

	/*
	 * Metadata (128 bytes per object) larger than the EAL memory (-m 512):
	 * the driver's allocation fails, the log names the bytes and socket.
	 */
	if (bad_case("metadata above memory", 200u << 20, 8, SOCKET_ID_ANY,
			-1, -ENOMEM, WANT("bytes", "socket")) != TEST_SUCCESS)
		return TEST_FAILED;

	/*
	 * Size x element size far beyond any memory (2^28 x 2^20 = 2^48
	 * bytes): the metadata alone (32 GB) cannot be had.
	 */
	if (bad_case("size x element size", RTE_PMD_TURBOMEM_MAX_OBJS, 1u << 20,
			SOCKET_ID_ANY, -1, -ENOMEM, WANT("bytes")) !=
			TEST_SUCCESS)
		return TEST_FAILED;

	/*
	 * Pool memory larger than the EAL memory while the metadata fits
	 * (1M x 2 KB = 2 GB, -m 512), with the pool in EAL memory (thp=off;
	 * turbomem's own THP memory is outside EAL's -m): alloc succeeds, the
	 * library's memzone reservation fails; free must still release the
	 * driver's data. turbomem_mem_mmap_fail covers its own memory.
	 */
	bad_cfg = &thp_off;
	r = bad_case("not enough memory", 1u << 20, 2048, SOCKET_ID_ANY, -1,
			-ENOMEM, NULL, 0);
	bad_cfg = NULL;
	if (r != TEST_SUCCESS)
		return TEST_FAILED;

	/* Sockets that do not exist: refused, no fallback to another one. */
	missing = rte_socket_id_by_idx(rte_socket_count() - 1) + 1;
	snprintf(sock, sizeof(sock), "socket %d", missing);
	snprintf(nsock, sizeof(nsock), "%u sockets", rte_socket_count());
	if (bad_case("socket one past the last", 64, 64, missing, -1, -EINVAL,
			WANT(sock, nsock)) != TEST_SUCCESS)
		return TEST_FAILED;
	if (bad_case("socket 7", 64, 64, 7, -1, -EINVAL,
			WANT("socket 7", nsock)) != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_badinput_all_autotest, test_badinput_all);

#ifdef TM_DEBUG_CHECKS

/*
 * Run bad() in a child process; the parent requires it to die by SIGABRT
 * with a message holding every string of want. The child's stdout and
 * stderr (where EAL logs and rte_panic write) go to a pipe.
 */
typedef void (bad_fn)(struct rte_mempool *mp, void *arg);

static int
death_case(const char *what, bad_fn *bad,
		struct rte_mempool *mp, void *arg, const char * const *want,
		unsigned int nb_want)
{
	char buf[8192];
	size_t len = 0;
	ssize_t r;
	int fds[2], status;
	unsigned int i;
	pid_t pid;

	printf("death case: %s\n", what);
	fflush(stdout);
	fflush(stderr);
	TEST_ASSERT(pipe(fds) == 0, "pipe: %s", strerror(errno));
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		rte_openlog_stream(stderr);
		bad(mp, arg);
		printf("survived the bad put\n");
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	while (len < sizeof(buf) - 1 &&
			(r = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	buf[len] = '\0';
	close(fds[0]);
	TEST_ASSERT(waitpid(pid, &status, 0) == pid, "waitpid");
	printf("--- child output ---\n%s--- end ---\n", buf);
	TEST_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		"%s: child was not stopped by abort (status 0x%x)", what,
		status);
	for (i = 0; i < nb_want; i++)
		TEST_ASSERT(strstr(buf, want[i]) != NULL,
			"%s: message lacks \"%s\"", what, want[i]);
	return TEST_SUCCESS;
}

static void
put_one(struct rte_mempool *mp, void *obj)
{
	rte_mempool_put(mp, obj);
}

/*
 * Get an object and put it twice through a user cache: both copies reach
 * the driver when the cache flushes. The child's get changes the shared
 * pool, so this runs on a throwaway pool.
 */
static void
get_put_twice_cached(struct rte_mempool *mp, void *arg)
{
	struct rte_mempool_cache *c = rte_mempool_cache_create(32,
			SOCKET_ID_ANY);
	void *obj;

	RTE_SET_USED(arg);
	if (c == NULL || rte_mempool_get(mp, &obj) != 0)
		return;
	printf("child: putting %p twice through a cache\n", obj);
	rte_mempool_generic_put(mp, &obj, 1, c);
	rte_mempool_generic_put(mp, &obj, 1, c);
	rte_mempool_cache_flush(c, mp);
}

static int
test_debug_death(void)
{
	struct rte_mempool *mp, *other, *thrown;
	char s_obj[32], s_int[32], s_oth[32];
	static uint64_t foreign[16];
	void *obj, *oobj, *in_pool;
	int ret = TEST_SUCCESS;

	mp = tm_test_pool("tm_death", 128, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	other = tm_test_pool("tm_death_other", 128, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	thrown = tm_test_pool("tm_death_cache", 128, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_CHECK(mp != NULL && other != NULL && thrown != NULL,
		"pool creation failed");
	TEST_CHECK(rte_mempool_get(mp, &obj) == 0, "get");
	/* An object that is in the pool: putting it is a double put. */
	TEST_CHECK(rte_mempool_get(mp, &in_pool) == 0, "get");
	rte_mempool_put(mp, in_pool);
	TEST_CHECK(rte_mempool_get(other, &oobj) == 0, "get");

	snprintf(s_obj, sizeof(s_obj), "%p", (void *)&foreign[8]);
	TEST_CHECK(death_case("foreign pointer", put_one, mp, &foreign[8],
		WANT("tm_death", s_obj, "not from this pool")) == 0,
		"foreign pointer");
	snprintf(s_int, sizeof(s_int), "%p", RTE_PTR_ADD(obj, 8));
	TEST_CHECK(death_case("interior pointer", put_one, mp,
		RTE_PTR_ADD(obj, 8),
		WANT("tm_death", s_int, "not from this pool")) == 0,
		"interior pointer");
	snprintf(s_oth, sizeof(s_oth), "%p", oobj);
	TEST_CHECK(death_case("object of another pool", put_one, mp, oobj,
		WANT("tm_death", s_oth, "not from this pool")) == 0,
		"object of another pool");
	snprintf(s_obj, sizeof(s_obj), "%p", in_pool);
	TEST_CHECK(death_case("double put", put_one, mp, in_pool,
		WANT("tm_death", s_obj, "double put")) == 0, "double put");
	TEST_CHECK(death_case("double put through a cache",
		get_put_twice_cached, thrown, NULL,
		WANT("tm_death_cache", "double put")) == 0,
		"double put through a cache");

	/* The parent's pools are intact: the checks ran before the push. */
	rte_mempool_put(mp, obj);
	rte_mempool_put(other, oobj);
	TEST_CHECK(rte_mempool_avail_count(mp) == 128 &&
		rte_mempool_avail_count(other) == 128, "counts %u %u",
		rte_mempool_avail_count(mp), rte_mempool_avail_count(other));
out:
	rte_mempool_free(mp);
	rte_mempool_free(other);
	rte_mempool_free(thrown);
	return ret;
}

#else

static int
test_debug_death(void)
{
	TEST_SKIP_BUILD("built without -Ddebug_checks=true: nothing to check");
}

#endif /* TM_DEBUG_CHECKS */
TM_TEST_REGISTER(turbomem_debug_death_autotest, test_debug_death);
