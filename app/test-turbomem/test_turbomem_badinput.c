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
 * | turbomem_debug_death_autotest  | debug plugin (-Ddebug_checks=true, or    |
 * |                                | --debug-plugin): a fresh EAL process of  |
 * |                                | its own puts a foreign pointer, an       |
 * |                                | interior pointer, another pool's object, |
 * |                                | an object twice (cache 0 and through a   |
 * |                                | cache flush); each must die with SIGABRT |
 * |                                | and a message naming the pool            |
 *
 * THP, mbind and libnuma failures are tested with the memory code
 * (test_turbomem_mem.c).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
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
	int n;

	memset(f, 0, sizeof(*f));
	rte_memzone_walk(count_mz, &f->memzones);
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
				&st) == 0)
			f->heap_bytes += st.heap_allocsz_bytes;
	n = tm_test_maps_count();
	if (n > 0)
		f->maps = n;
}

static int
footprint_same(const struct footprint *a, const char *what)
{
	struct footprint b;

	footprint_take(&b);
	if (a->memzones != b.memzones || a->heap_bytes != b.heap_bytes ||
			(a->maps != b.maps && tm_test_maps_countable())) {
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
 * Another status the case may end with, where DPDK decides between two
 * (0: none): see "not enough memory".
 */
static int bad_also;

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
	TEST_ASSERT(expect_err == 0 || r == expect_err ||
		(bad_also != 0 && r == bad_also),
		"%s: populate returned %d, expected %d%s", what, r, expect_err,
		bad_also != 0 ? " (or the case's other status)" : "");
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
	 * Metadata (32 bytes per object: 3.2 GB) larger than the EAL memory
	 * (-m 512): the driver's allocation fails, the log names the bytes
	 * and socket.
	 */
	if (bad_case("metadata above memory", 100u << 20, 8, SOCKET_ID_ANY,
			-1, -ENOMEM, WANT("bytes", "socket")) != TEST_SUCCESS)
		return TEST_FAILED;

	/*
	 * Size x element size far beyond any memory (2^27 x 2^20 = 2^47
	 * bytes): the metadata alone (4.3 GB) cannot be had.
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
	 * rte_mempool_populate_default, refused its whole size, populates
	 * the largest free zones one after the other: it ends with -ENOMEM
	 * where none is left, and with -ENOBUFS ("should not happen") where
	 * the last one, a fragment of the heap, holds no object; which one
	 * depends on the heap's layout, the driver's own allocation included.
	 */
	bad_cfg = &thp_off;
	bad_also = -ENOBUFS;
	r = bad_case("not enough memory", 1u << 20, 2048, SOCKET_ID_ANY, -1,
			-ENOMEM, NULL, 0);
	bad_also = 0;
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

/*
 * Death tests. Each case runs in a fresh EAL process (fork + exec of this
 * program, "turbomem_death_child_autotest --case=NAME", with its own
 * --file-prefix and --no-huge memory): its pools are its own, so a check
 * that does not fire corrupts nothing of the parent's. The child must die
 * by SIGABRT with a message holding every string the case wants.
 *
 * They need a plugin with the debug checks: the -Ddebug_checks=true build,
 * or, in the default build, the test-only debug plugin
 * (librte_mempool_turbomem_debug.so, option --debug-plugin).
 */

/* The child: make a pool of its own, break the contract as told. */
static int
test_death_child(void)
{
	const char *c = NULL;
	struct rte_mempool *mp, *other;
	struct rte_mempool_cache *cache;
	static uint64_t foreign[16];
	void *obj, *oobj;
	int i;

	for (i = 0; i < tm_test_argc; i++)
		if (strncmp(tm_test_argv[i], "--case=", 7) == 0)
			c = tm_test_argv[i] + 7;
	TEST_ASSERT(c != NULL, "no --case=");
	mp = tm_test_pool("tm_death", 128, 64, 0, TM_OPS, SOCKET_ID_ANY, true);
	other = tm_test_pool("tm_death_other", 128, 64, 0, TM_OPS,
			SOCKET_ID_ANY, true);
	TEST_ASSERT(mp != NULL && other != NULL, "pools");
	TEST_ASSERT(rte_mempool_get(mp, &obj) == 0 &&
		rte_mempool_get(other, &oobj) == 0, "get");
	printf("child: case %s, object %p, other's %p, foreign %p\n", c, obj,
		oobj, (void *)&foreign[8]);
	fflush(stdout);
	if (strcmp(c, "foreign") == 0) {
		rte_mempool_put(mp, &foreign[8]);
	} else if (strcmp(c, "interior") == 0) {
		rte_mempool_put(mp, RTE_PTR_ADD(obj, 8));
	} else if (strcmp(c, "other") == 0) {
		rte_mempool_put(mp, oobj);
	} else if (strcmp(c, "double") == 0) {
		rte_mempool_put(mp, obj);
		rte_mempool_put(mp, obj);
	} else if (strcmp(c, "double_cached") == 0) {
		/* Both copies reach the driver when the cache flushes. */
		cache = rte_mempool_cache_create(32, SOCKET_ID_ANY);
		TEST_ASSERT(cache != NULL, "cache");
		rte_mempool_generic_put(mp, &obj, 1, cache);
		rte_mempool_generic_put(mp, &obj, 1, cache);
		rte_mempool_cache_flush(cache, mp);
	} else {
		TEST_ASSERT(false, "unknown case %s", c);
	}
	printf("child: survived the bad put (%s)\n", c);
	return TEST_FAILED;
}
TM_TEST_REGISTER(turbomem_death_child_autotest, test_death_child);

/*
 * Run case in a fresh process of this program; require that it dies by
 * SIGABRT with a message holding every string of want ("%p" of the
 * object is checked by the word "object"; the child prints its pointers).
 */
static int
death_case(const char *c, const char *plugin, int n, char which,
		const char * const *want, unsigned int nb_want)
{
	void *obj = NULL, *oobj = NULL, *foreign = NULL, *bad = NULL;
	char ptr[32];
	const char *line;
	char buf[16384], prefix[96], opt_case[64], dir[PATH_MAX], exe[PATH_MAX];
	const char *rt = rte_eal_get_runtime_dir(), *me;
	size_t len = 0;
	ssize_t r;
	int fds[2], status;
	unsigned int i;
	pid_t pid;

	me = strrchr(rt, '/');
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s-death%d",
		me != NULL ? me + 1 : "tm", n);
	snprintf(opt_case, sizeof(opt_case), "--case=%s", c);
	/* This program's path (valgrind answers with its client's). */
	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	TEST_ASSERT(r > 0, "readlink /proc/self/exe: %s", strerror(errno));
	exe[r] = '\0';
	printf("death case %s: %s\n", c, prefix);
	fflush(stdout);
	TEST_ASSERT(pipe(fds) == 0, "pipe: %s", strerror(errno));
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		char *argv[] = { (char *)(uintptr_t)"dpdk-test-turbomem",
			(char *)(uintptr_t)"--no-huge", (char *)(uintptr_t)"-m",
			(char *)(uintptr_t)"64", (char *)(uintptr_t)"--no-pci",
			(char *)(uintptr_t)"--no-telemetry",
			(char *)(uintptr_t)"-l", (char *)(uintptr_t)"0",
			(char *)(uintptr_t)"-d", (char *)(uintptr_t)plugin,
			prefix, (char *)(uintptr_t)"--",
			(char *)(uintptr_t)"turbomem_death_child_autotest",
			opt_case, NULL };

		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	close(fds[1]);
	while (len < sizeof(buf) - 1 &&
			(r = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	buf[len] = '\0';
	close(fds[0]);
	TEST_ASSERT(waitpid(pid, &status, 0) == pid, "waitpid");
	/* The child's runtime directory: it died without cleaning up. */
	snprintf(dir, sizeof(dir), "%.*s/%s-death%d", (int)(me != NULL ? me - rt : 0),
		rt, me != NULL ? me + 1 : "tm", n);
	if (strstr(dir, "-death") != NULL && fork() == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(127);
	}
	wait(NULL);
	printf("--- child output ---\n%s--- end ---\n", buf);
	TEST_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		"%s: child was not stopped by abort (status 0x%x)", c, status);
	for (i = 0; i < nb_want; i++)
		TEST_ASSERT(strstr(buf, want[i]) != NULL,
			"%s: message lacks \"%s\"", c, want[i]);
	/* The message names the object put: o(bject), i(nterior), ... */
	line = strstr(buf, "child: case ");
	TEST_ASSERT(line != NULL && sscanf(line, "child: case %*s object %p, other's %p, foreign %p",
		&obj, &oobj, &foreign) == 3, "%s: no pointers from the child", c);
	bad = which == 'o' ? obj : which == 'i' ? RTE_PTR_ADD(obj, 8) :
		which == 'O' ? oobj : foreign;
	snprintf(ptr, sizeof(ptr), "%p", bad);
	TEST_ASSERT(strstr(strstr(buf, "PANIC") != NULL ? strstr(buf, "PANIC") : buf,
		ptr) != NULL, "%s: the message does not name %s", c, ptr);
	return TEST_SUCCESS;
}

static int
test_debug_death(void)
{
	bool debug_plugin = false;
	struct rte_mempool *mp;
	char plugin[PATH_MAX];
	void *objs[128];
	int i, ret = TEST_SUCCESS;

	for (i = 0; i < tm_test_argc; i++)
		debug_plugin |= strcmp(tm_test_argv[i], "--debug-plugin") == 0;
#ifdef RTE_ENABLE_ASSERT
	debug_plugin = true;
#endif
	if (!debug_plugin)
		TEST_SKIP_BUILD("built without -Ddebug_checks=true and no --debug-plugin: nothing to check");
	TEST_ASSERT(tm_test_plugin_path(plugin, sizeof(plugin)) == 0,
		"the plugin's path");

	TEST_ASSERT(death_case("foreign", plugin, 0, 'f',
		WANT("tm_death", "not from this pool")) == 0, "foreign pointer");
	TEST_ASSERT(death_case("interior", plugin, 1, 'i',
		WANT("tm_death", "not from this pool")) == 0, "interior pointer");
	TEST_ASSERT(death_case("other", plugin, 2, 'O',
		WANT("tm_death", "not from this pool")) == 0,
		"object of another pool");
	TEST_ASSERT(death_case("double", plugin, 3, 'o',
		WANT("tm_death", "double put")) == 0, "double put");
	TEST_ASSERT(death_case("double_cached", plugin, 4, 'o',
		WANT("tm_death", "double put")) == 0,
		"double put through a cache");

	/* The parent made no pool for the children: its own one works. */
	mp = tm_test_pool("tm_death_parent", 128, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(mp != NULL, "pool");
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, 128) == 0, "get all");
	rte_mempool_put_bulk(mp, objs, 128);
	TEST_CHECK(tm_test_raw_count(mp) == 128, "count %u",
		tm_test_raw_count(mp));
out:
	rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_debug_death_autotest, test_debug_death);
