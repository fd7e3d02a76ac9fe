/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench --scenario crash and --scenario stop: does a killed or
 * stopped process wedge a pool shared by several processes?
 *
 * Processes, per handler and shape (a shape is one --caches value by one
 * --bulks value; default caches 0 and 256, bulks 1, 32 and random):
 * - the bench process is the supervisor: it never touches the pool, so a
 *   wedged pool cannot stall it. It starts the others (fork + exec of this
 *   binary, EAL on 2 MB hugepages, --file-prefix of its own per pool) and
 *   shares a small state with them in a memfd they inherit;
 * - a primary (lcore 0) creates the pool (262143 objects of 64 bytes,
 *   through the public mempool API only) and runs get/put of the shape in
 *   a loop, publishing when each operation starts and ends;
 * - a secondary (lcore 1, CPU 1) attaches and runs tight bulk get/put of
 *   the shape, publishing before each get how many objects it may hold
 *   (its "in flight", lowered once they are back). Without a cache it puts
 *   back each bulk it got; with one, it gets bulks until it holds twice
 *   the cache size, then puts them all back, so that every cycle reaches
 *   the handler through the cache's refill and flush (a get/put pair
 *   never would).
 *
 * crash: --kills K times (default 200): the secondary runs 1 to 10 ms
 * (seeded), is killed with SIGKILL and reaped; the primary must then
 * complete, within 1 s, a get and a put of the shape that started after
 * the kill plus one of the same size that bypasses its cache (so that a
 * cache cannot hide a wedged handler). The time from the kill to the end
 * of that operation is the recovery time. The primary then empties the
 * dead lcore's cache (the library's cache code is not crash-safe: a kill
 * inside a cache update tears it; what it held counts as lost) and reads
 * rte_mempool_avail_count(): what is missing since the last kill is the
 * loss of this kill, against the victim's bound (its in-flight objects at
 * death, plus, with a cache, what the lcore cache can hold: its flush
 * threshold or size plus a bulk, whichever is more). A fresh secondary
 * must attach (30 s) and complete a get/put within 1 s. The primary's
 * put of that check goes through rte_mempool_ops_enqueue_bulk(), so a
 * refusal shows (pile: -ENOBUFS once its free elements are gone, which
 * rte_mempool_put() would drop silently): puts_failed, and the kill after
 * which the first came. A primary or
 * secondary that does not answer in time is a wedged pool: every process
 * of the pool is killed, its files are removed, and a new pool goes on
 * with the remaining kills. After the last kill the last secondary stops
 * cleanly and the primary takes a census: its cache flushed, the pool
 * drained one object at a time without cache, every object must come out
 * at most once and as many as rte_mempool_avail_count() said, give or take
 * the victims' in-flight objects (a count kept per thread may miss each
 * victim's bulk between its commit and its count); what does
 * not is lost (census_lost, over the pools). The drained objects are then
 * put back in bulks of 32 through rte_mempool_ops_enqueue_bulk() (one by
 * one where a bulk is refused): what the pool takes is its capacity at
 * the end, whole where it takes them all (capacity + lost == size).
 *
 * stop: --stops S times (default 10): the secondary runs 1 to 10 ms, is
 * stopped with SIGSTOP for 100 ms to 1 s (seeded), then continued. The
 * primary's longest operation while the peer is stopped (stall) and its
 * throughput then are reported against its throughput over 50 ms before
 * the stop; a primary still stuck 1 s after SIGCONT is a wedged pool.
 *
 * Rows: status "ok" whatever the handler did (a wedge is a result), the
 * figures in "extra"; "error: ..." only where the bench itself could not
 * run (a process did not start). Every wait is bounded; on every exit
 * path, SIGTERM and SIGINT included, the supervisor kills every process
 * it started (they also get SIGKILL if it dies: PR_SET_PDEATHSIG) and
 * removes their EAL runtime directory and hugepage files by exact prefix.
 * Hugepages are not reserved here: without 32 free 2 MB pages and a
 * hugetlbfs mount the rows say "skip" (scripts/bench.sh reserves them).
 */

/* memfd_create, environ */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "test.h"
#include "bench_common.h"

#define CR_POOL "tm_crash_pool"
#define CR_SIZE 262143
#define CR_ELT 64
#define CR_MEM_MB 64		/* the primary's -m */
#define CR_PAGES (CR_MEM_MB / 2)
#define CR_SEC_LCORE 1
#define CR_ATTACH_S 30		/* EAL start of a process, under load */
#define CR_ANSWER_MS 1000	/* the pool must answer within this */

/* State shared by the supervisor and a pool's processes (memfd). */
struct cr_proc {
	_Atomic int32_t pid;
	_Atomic uint32_t state;		/* CR_* below */
	_Atomic uint64_t objs;		/* objects got and put back */
	_Atomic uint32_t in_flight;	/* secondary: objects it may hold */
};

enum { CR_NONE, CR_UP, CR_FAILED, CR_DONE };

struct cr_shared {
	/* Set by the supervisor before a pool's processes start. */
	char handler[RTE_MEMPOOL_OPS_NAMESIZE];
	uint32_t cache, bulk;
	uint64_t seed;
	struct cr_proc prim, sec;
	_Atomic uint32_t sec_quit;	/* the secondary stops cleanly */
	/* The primary's operations. */
	_Atomic uint64_t op_start;	/* TSC at the start of the current one */
	_Atomic uint64_t max_op;	/* longest, in TSC cycles, since reset */
	/* Kill check: supervisor posts kill_tsc then kill_seq. */
	_Atomic uint64_t kill_tsc;
	_Atomic uint32_t kill_seq, kill_ack;
	_Atomic uint64_t recovery;	/* cycles, kill to end of first op */
	/* Census after a kill: empty the dead lcore's cache, count. */
	_Atomic uint32_t count_seq, count_ack;
	_Atomic uint32_t avail, victim_cache;
	/* The final census. */
	_Atomic uint32_t quit;
	_Atomic int32_t census_avail, census_drained, census_dups;
	_Atomic int32_t census_capacity;	/* drained objects taken back */
	_Atomic uint32_t put_fails;	/* check puts the handler refused */
	uint64_t tsc_hz;
	char error[96];
};

/* --- the pool's processes ------------------------------------------------ */

static struct cr_shared *
cr_map_env(void)
{
	const char *s = getenv("TM_CRASH_FD");
	void *p;

	if (s == NULL)
		return NULL;
	p = mmap(NULL, sizeof(struct cr_shared), PROT_READ | PROT_WRITE,
		MAP_SHARED, atoi(s), 0);
	return p == MAP_FAILED ? NULL : p;
}

static unsigned int
cr_bulk(struct cr_shared *sh, uint64_t *rng)
{
	return sh->bulk != BENCH_BULK_RANDOM ? sh->bulk :
		1 + bench_rand(rng) % BENCH_RANDOM_MAX;
}

static void
cr_fail(struct cr_shared *sh, struct cr_proc *me, const char *what)
{
	snprintf(sh->error, sizeof(sh->error), "%s", what);
	atomic_store(&me->state, CR_FAILED);
}

static void
cr_set_index(struct rte_mempool *mp __rte_unused, void *arg __rte_unused,
		void *obj, unsigned int i)
{
	*(uint32_t *)obj = i;
}

/* Between operations, holding nothing: flush, drain, check, refill. */
static void
cr_census(struct cr_shared *sh, struct rte_mempool *mp)
{
	static uint8_t seen[CR_SIZE];
	static void *objs[CR_SIZE];
	int32_t n = 0, dups = 0, cap = 0, j, m;
	uint32_t i;

	if (mp->cache_size != 0)
		rte_mempool_cache_flush(rte_mempool_default_cache(mp,
			rte_lcore_id()), mp);
	atomic_store(&sh->census_avail, rte_mempool_avail_count(mp));
	memset(seen, 0, sizeof(seen));
	while (n < CR_SIZE &&
			rte_mempool_generic_get(mp, &objs[n], 1, NULL) == 0) {
		i = *(uint32_t *)objs[n];
		if (i >= CR_SIZE || seen[i]++ != 0)
			dups++;
		n++;
	}
	for (j = 0; j < n; j += m) {
		m = RTE_MIN(BENCH_RANDOM_MAX, n - j);
		if (rte_mempool_ops_enqueue_bulk(mp, &objs[j], m) == 0)
			cap += m;
		else
			for (i = j; i < (uint32_t)(j + m); i++)
				cap += rte_mempool_ops_enqueue_bulk(mp,
					&objs[i], 1) == 0;
	}
	atomic_store(&sh->census_capacity, cap);
	atomic_store(&sh->census_dups, dups);
	atomic_store(&sh->census_drained, n);
}

static int
test_crash_primary(void)
{
	struct cr_shared *sh = cr_map_env();
	struct rte_mempool *mp;
	void *objs[BENCH_RANDOM_MAX];
	uint64_t rng, t0, t1, cur, kill_tsc = 0;
	uint32_t seq, acked = 0, counted = 0;
	unsigned int n;

	if (sh == NULL)
		return TEST_FAILED;
	rng = sh->seed | 1;
	mp = tm_test_pool(CR_POOL, CR_SIZE, CR_ELT, sh->cache, sh->handler,
			SOCKET_ID_ANY, true);
	if (mp == NULL) {
		cr_fail(sh, &sh->prim, "pool creation failed");
		return TEST_FAILED;
	}
	rte_mempool_obj_iter(mp, cr_set_index, NULL);
	sh->tsc_hz = rte_get_tsc_hz();
	atomic_store(&sh->prim.pid, getpid());
	/* Release: the pool is complete before the supervisor starts a peer. */
	atomic_store_explicit(&sh->prim.state, CR_UP, memory_order_release);
	while (atomic_load_explicit(&sh->quit, memory_order_relaxed) == 0) {
		/* Acquire pairs with the supervisor's release of kill_seq. */
		seq = atomic_load_explicit(&sh->kill_seq, memory_order_acquire);
		if (seq != acked)
			kill_tsc = atomic_load(&sh->kill_tsc);
		n = cr_bulk(sh, &rng);
		t0 = rte_rdtsc();
		atomic_store_explicit(&sh->op_start, t0, memory_order_relaxed);
		if (rte_mempool_get_bulk(mp, objs, n) == 0)
			rte_mempool_put_bulk(mp, objs, n);
		/* The check after a kill also reaches the handler itself. */
		if (seq != acked && t0 > kill_tsc &&
				rte_mempool_generic_get(mp, objs, n, NULL) == 0 &&
				rte_mempool_ops_enqueue_bulk(mp, objs, n) < 0)
			atomic_fetch_add(&sh->put_fails, 1);
		t1 = rte_rdtsc();
		atomic_store_explicit(&sh->op_start, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&sh->prim.objs, n,
			memory_order_relaxed);
		/* The supervisor resets max_op with an exchange: CAS, not store. */
		cur = atomic_load_explicit(&sh->max_op, memory_order_relaxed);
		while (t1 - t0 > cur && !atomic_compare_exchange_weak(
				&sh->max_op, &cur, t1 - t0))
			;
		if (seq != acked && t0 > kill_tsc) {
			atomic_store(&sh->recovery, t1 - kill_tsc);
			acked = seq;
			atomic_store(&sh->kill_ack, seq);
		}
		seq = atomic_load(&sh->count_seq);
		if (seq != counted) {
			struct rte_mempool_cache *c = mp->cache_size == 0 ?
				NULL : rte_mempool_default_cache(mp,
					CR_SEC_LCORE);

			/* The victim is reaped: nobody else uses its cache. */
			atomic_store(&sh->victim_cache, c != NULL ? c->len : 0);
			if (c != NULL)
				c->len = 0;
			atomic_store(&sh->avail, rte_mempool_avail_count(mp));
			counted = seq;
			atomic_store(&sh->count_ack, seq);
		}
	}
	cr_census(sh, mp);
	atomic_store(&sh->prim.state, CR_DONE);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_crash_primary, test_crash_primary);

static int
test_crash_secondary(void)
{
	/* With a cache: a fill and drain cycle through its refill and flush. */
	static void *tab[2 * RTE_MEMPOOL_CACHE_MAX_SIZE + BENCH_RANDOM_MAX];
	struct cr_shared *sh = cr_map_env();
	struct rte_mempool *mp;
	unsigned int n, m, held = 0, hold;
	bool filling = true;
	uint64_t rng;

	if (sh == NULL)
		return TEST_FAILED;
	rng = (sh->seed + (uint64_t)getpid() * 7919) | 1;
	hold = RTE_MIN(2 * sh->cache, 2u * RTE_MEMPOOL_CACHE_MAX_SIZE);
	mp = rte_mempool_lookup(CR_POOL);
	if (mp == NULL || strcmp(rte_mempool_get_ops(mp->ops_index)->name,
			sh->handler) != 0) {
		cr_fail(sh, &sh->sec, mp == NULL ? "pool not found" :
			"ops index differs between processes");
		return TEST_FAILED;
	}
	atomic_store(&sh->sec.pid, getpid());
	atomic_store(&sh->sec.state, CR_UP);
	/* First a get/put that reaches the handler, then the shape. */
	n = cr_bulk(sh, &rng);
	atomic_store(&sh->sec.in_flight, n);
	if (rte_mempool_generic_get(mp, tab, n, NULL) == 0)
		rte_mempool_generic_put(mp, tab, n, NULL);
	atomic_store(&sh->sec.in_flight, 0);
	atomic_fetch_add(&sh->sec.objs, n);
	while (atomic_load_explicit(&sh->sec_quit, memory_order_relaxed) == 0) {
		n = cr_bulk(sh, &rng);
		if (hold == 0) {
			/* Published before the objects leave the pool. */
			atomic_store(&sh->sec.in_flight, n);
			if (rte_mempool_get_bulk(mp, tab, n) == 0)
				rte_mempool_put_bulk(mp, tab, n);
			atomic_store(&sh->sec.in_flight, 0);
		} else if (filling && held + n <= hold) {
			atomic_store(&sh->sec.in_flight, held + n);
			if (rte_mempool_get_bulk(mp, tab + held, n) == 0)
				held += n;
			else
				filling = false;
			atomic_store(&sh->sec.in_flight, held);
		} else {
			m = RTE_MIN(n, held);
			held -= m;
			rte_mempool_put_bulk(mp, tab + held, m);
			atomic_store(&sh->sec.in_flight, held);
			filling = held == 0;
		}
		atomic_fetch_add_explicit(&sh->sec.objs, n,
			memory_order_relaxed);
	}
	rte_mempool_put_bulk(mp, tab, held);
	atomic_store(&sh->sec.in_flight, 0);
	if (mp->cache_size != 0)
		rte_mempool_cache_flush(rte_mempool_default_cache(mp,
			rte_lcore_id()), mp);
	atomic_store(&sh->sec.state, CR_DONE);
	return TEST_SUCCESS;
}
TM_TEST_REGISTER(turbomem_crash_secondary, test_crash_secondary);

/* --- the supervisor ------------------------------------------------------ */

struct cr_pool {
	char prefix[64];
	int fd;
	struct cr_shared *sh;
	pid_t prim, sec;
	int status;		/* wait status of the last process reaped */
	/*
	 * The victims' in-flight objects, summed over the pool's kills: a
	 * count kept per thread (turbomem's) may miss each victim's last
	 * bulk, between its commit and its count.
	 */
	int64_t count_slack;
};

static volatile sig_atomic_t cr_signal;
static struct cr_pool *cr_live;		/* for the signal path */
static char cr_exe[PATH_MAX], cr_plugin[PATH_MAX], cr_mnt[PATH_MAX];
static char cr_rundir[PATH_MAX];
static uint64_t cr_rng;

static void
cr_on_signal(int sig)
{
	cr_signal = sig;
}

static double
cr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
cr_sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	nanosleep(&ts, NULL);
}

/*
 * Nanoseconds the main thread of pid has waited for a CPU (runnable, not
 * running: /proc/<pid>/task/<pid>/schedstat), 0 if unknown. On a shared
 * machine it tells a stall of the pool from one of the scheduler.
 */
static uint64_t
cr_rq_wait_ns(pid_t pid)
{
	unsigned long long run, wait = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid,
		(int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	fclose(f);
	return wait;
}

/* A 2 MB hugetlbfs mount and enough free pages, or why not. */
static const char *
cr_hugepages(void)
{
	static char why[160];
	char line[512], dev[64], dir[PATH_MAX], type[32], opts[256];
	unsigned int free_pages = 0;
	FILE *f;

	f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages",
		"r");
	if (f == NULL || fscanf(f, "%u", &free_pages) != 1)
		free_pages = 0;
	if (f != NULL)
		fclose(f);
	if (free_pages < CR_PAGES) {
		snprintf(why, sizeof(why),
			"%u free 2 MB hugepages, %d needed (scripts/common.sh reserve_hugepages)",
			free_pages, CR_PAGES);
		return why;
	}
	cr_mnt[0] = '\0';
	f = fopen("/proc/mounts", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%63s %4095s %31s %255s", dev, dir, type,
				opts) == 4 && strcmp(type, "hugetlbfs") == 0 &&
				(strstr(opts, "pagesize=2M") != NULL ||
				strstr(opts, "pagesize=") == NULL)) {
			snprintf(cr_mnt, sizeof(cr_mnt), "%s", dir);
			break;
		}
	if (f != NULL)
		fclose(f);
	if (cr_mnt[0] == '\0')
		return "no hugetlbfs mount of 2 MB pages";
	return NULL;
}

/* Remove the pool's EAL files: runtime directory, hugepage files. */
static void
cr_remove_files(const char *prefix)
{
	char path[PATH_MAX + 128];
	size_t n = strlen(prefix);
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", cr_rundir, prefix);
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char f[PATH_MAX + 512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof(f), "%s/%s", path, e->d_name);
		unlink(f);
	}
	if (d != NULL)
		closedir(d);
	rmdir(path);
	/* Hugepage files are named <prefix>map_<n>. */
	d = opendir(cr_mnt);
	while (d != NULL && (e = readdir(d)) != NULL) {
		char f[PATH_MAX + 512];

		if (strncmp(e->d_name, prefix, n) != 0 ||
				strncmp(e->d_name + n, "map_", 4) != 0)
			continue;
		snprintf(f, sizeof(f), "%s/%s", cr_mnt, e->d_name);
		unlink(f);
	}
	if (d != NULL)
		closedir(d);
}

/* Wait up to ms for pid to exit (reaped); true if it did. */
static bool
cr_reap(pid_t pid, double ms, int *status)
{
	double end = cr_now_ms() + ms;
	int st = 0;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD)) {
			if (status != NULL)
				*status = st;
			return true;
		}
		if (cr_now_ms() > end)
			return false;
		cr_sleep_us(200);
	}
}

static void
cr_kill_reap(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	kill(*pid, SIGCONT);
	cr_reap(*pid, 10000, NULL);
	*pid = 0;
}

/* Every process of the pool killed, its files and state gone. */
static void
cr_pool_end(struct cr_pool *p)
{
	cr_kill_reap(&p->sec);
	cr_kill_reap(&p->prim);
	cr_remove_files(p->prefix);
	if (p->sh != NULL)
		munmap(p->sh, sizeof(*p->sh));
	if (p->fd >= 0)
		close(p->fd);
	p->sh = NULL;
	p->fd = -1;
	cr_live = NULL;
}

static pid_t
cr_spawn(struct cr_pool *p, bool primary)
{
	char fdenv[32], pfx[96], **env;
	const char *argv[24];
	unsigned int a = 0, i, ne;
	pid_t pid;

	snprintf(fdenv, sizeof(fdenv), "TM_CRASH_FD=%d", p->fd);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", p->prefix);
	argv[a++] = cr_exe;
	argv[a++] = "--lcores";
	argv[a++] = primary ? "0@0" : "1@1";
	argv[a++] = primary ? "--proc-type=primary" : "--proc-type=secondary";
	argv[a++] = pfx;
	argv[a++] = "--huge-dir";
	argv[a++] = cr_mnt;
	if (primary) {
		argv[a++] = "-m";
		argv[a++] = RTE_STR(CR_MEM_MB);
	}
	argv[a++] = "--no-pci";
	argv[a++] = "--no-telemetry";
	argv[a++] = "--log-level=lib.eal:error";
	argv[a++] = "-d";
	argv[a++] = cr_plugin;
	argv[a++] = "--";
	argv[a++] = primary ? "turbomem_crash_primary" :
		"turbomem_crash_secondary";
	argv[a] = NULL;
	/* Built before fork: the child only makes system calls. */
	for (ne = 0; environ[ne] != NULL; ne++)
		;
	env = calloc(ne + 2, sizeof(*env));
	if (env == NULL)
		return -1;
	for (i = 0; i < ne; i++)
		env[i] = environ[i];
	env[ne] = fdenv;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execve(cr_exe, (char * const *)(uintptr_t)argv, env);
		_exit(127);
	}
	free(env);
	return pid;
}

/* Wait until cond(p) or ms pass, the process exits, or a signal. */
static bool
cr_wait(struct cr_pool *p, pid_t pid, double ms,
		bool (*cond)(const struct cr_shared *sh))
{
	double end = cr_now_ms() + ms;

	while (!cond(p->sh)) {
		if (cr_signal != 0 || cr_now_ms() > end ||
				(pid > 0 && waitpid(pid, &p->status, WNOHANG) == pid))
			return cond(p->sh);
		cr_sleep_us(100);
	}
	return true;
}

static bool cr_prim_up(const struct cr_shared *sh)
{
	return atomic_load(&sh->prim.state) == CR_UP;
}
static bool cr_sec_up(const struct cr_shared *sh)
{
	return atomic_load(&sh->sec.state) == CR_UP;
}
static bool cr_sec_ran(const struct cr_shared *sh)
{
	return atomic_load(&sh->sec.objs) > 0;
}
static bool cr_sec_done(const struct cr_shared *sh)
{
	return atomic_load(&sh->sec.state) == CR_DONE;
}
static bool cr_recovered(const struct cr_shared *sh)
{
	return atomic_load(&sh->kill_ack) == atomic_load(&sh->kill_seq);
}
static bool cr_counted(const struct cr_shared *sh)
{
	return atomic_load(&sh->count_ack) == atomic_load(&sh->count_seq);
}
static bool cr_prim_done(const struct cr_shared *sh)
{
	return atomic_load(&sh->prim.state) == CR_DONE;
}

/* A new pool and its primary; 0, or -1 with why set. */
static int
cr_pool_start(struct cr_pool *p, const char *handler, int cache, int bulk,
		unsigned int serial, char *why, size_t wlen)
{
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	snprintf(p->prefix, sizeof(p->prefix), "tm-crash-%d-%u", getpid(),
		serial);
	p->fd = memfd_create("tm-crash", 0);
	if (p->fd < 0 || ftruncate(p->fd, sizeof(*p->sh)) != 0) {
		snprintf(why, wlen, "memfd: %s", strerror(errno));
		return -1;
	}
	p->sh = mmap(NULL, sizeof(*p->sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		p->fd, 0);
	if (p->sh == MAP_FAILED) {
		p->sh = NULL;
		snprintf(why, wlen, "mmap: %s", strerror(errno));
		return -1;
	}
	snprintf(p->sh->handler, sizeof(p->sh->handler), "%s", handler);
	p->sh->cache = cache;
	p->sh->bulk = bulk;
	p->sh->seed = bench_rand(&cr_rng);
	cr_live = p;
	p->prim = cr_spawn(p, true);
	if (p->prim < 0 || !cr_wait(p, p->prim, CR_ATTACH_S * 1e3,
			cr_prim_up)) {
		snprintf(why, wlen, "primary did not start in %d s%s%.64s",
			CR_ATTACH_S, p->sh->error[0] ? ": " : "",
			p->sh->error);
		return -1;
	}
	return 0;
}

/*
 * A fresh secondary: attach (bounded by CR_ATTACH_S), then a get/put
 * within CR_ANSWER_MS. 1 ok, 0 wedged (attached, did not run), -1 it did
 * not attach (why set).
 */
static int
cr_sec_start(struct cr_pool *p, double *attach_ms, char *why, size_t wlen)
{
	double t0 = cr_now_ms();

	atomic_store(&p->sh->sec.state, CR_NONE);
	atomic_store(&p->sh->sec.objs, 0);
	atomic_store(&p->sh->sec.in_flight, 0);
	atomic_store(&p->sh->sec_quit, 0);
	p->sec = cr_spawn(p, false);
	if (p->sec < 0 || !cr_wait(p, p->sec, CR_ATTACH_S * 1e3, cr_sec_up)) {
		snprintf(why, wlen, "secondary did not attach in %d s%s%.64s",
			CR_ATTACH_S, p->sh->error[0] ? ": " : "",
			p->sh->error);
		return -1;
	}
	*attach_ms = cr_now_ms() - t0;
	p->status = -1;
	if (cr_wait(p, p->sec, CR_ANSWER_MS, cr_sec_ran))
		return 1;
	if (p->status == -1)
		snprintf(why, wlen, "a secondary made no get/put in %d ms",
			CR_ANSWER_MS);
	else if (WIFSIGNALED(p->status))
		snprintf(why, wlen, "a secondary died of signal %d in its first get/put",
			WTERMSIG(p->status));
	else
		snprintf(why, wlen, "a secondary exited (status %d) in its first get/put",
			WEXITSTATUS(p->status));
	return 0;
}

/* The secondary stops cleanly; the primary takes its census. */
static int
cr_pool_finish(struct cr_pool *p, char *census, size_t clen)
{
	int32_t avail, drained, dups;

	atomic_store(&p->sh->sec_quit, 1);
	if (p->sec > 0 && !cr_wait(p, p->sec, CR_ANSWER_MS, cr_sec_done))
		return -1;
	cr_reap(p->sec, CR_ANSWER_MS, NULL);
	p->sec = 0;
	atomic_store(&p->sh->quit, 1);
	if (!cr_wait(p, p->prim, 10 * CR_ANSWER_MS, cr_prim_done))
		return -1;
	avail = atomic_load(&p->sh->census_avail);
	drained = atomic_load(&p->sh->census_drained);
	dups = atomic_load(&p->sh->census_dups);
	snprintf(census, clen, "%s;census_avail=%d;census_drained=%d;census_dups=%d",
		dups == 0 && RTE_MAX(avail, drained) - RTE_MIN(avail, drained) <=
		p->count_slack ? "ok" : "bad", avail, drained, dups);
	cr_reap(p->prim, 10 * CR_ANSWER_MS, NULL);
	p->prim = 0;
	return drained;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
cr_pct(double *v, unsigned int n, double q)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_dbl);
	return v[(unsigned int)((n - 1) * q + 0.5)];
}

/* What the victim's lcore cache can hold (cache shapes), see the head. */
static unsigned int
cr_cache_bound(int cache)
{
	unsigned int thresh = cache * 3 / 2;	/* 22.11's flush threshold */

	return cache == 0 ? 0 :
		RTE_MAX(thresh, (unsigned int)cache + BENCH_RANDOM_MAX);
}

struct cr_stats {
	unsigned int kills, wedged, pools, attach_fail;
	unsigned int lost_over;		/* kills losing more than the bound */
	int64_t lost_sum, lost_max, bound_sum, bound_max;
	unsigned int census_bad, censused;
	int64_t census_lost;		/* from the censuses */
	int64_t capacity;		/* their capacity at the end */
	unsigned int put_fails, first_put_fail;	/* kill number, 0: none */
	double *rec_us, *rec_run_us, *attach_ms;
	unsigned int nb_rec, nb_attach;
	char census[160];
	char why[128];
};

/*
 * One pool's life through kills; returns how many kills it took, and
 * sets *wedged when the pool wedged (processes killed already).
 */
static int
cr_crash_pool(struct cr_pool *p, unsigned int kills, struct cr_stats *s,
		int cache, bool *wedged)
{
	unsigned int k, avail_prev = CR_SIZE, pf, pf_prev = 0;
	double ms;
	int r;

	*wedged = false;
	/* A secondary that cannot use a fresh pool: not a kill's doing. */
	if (cr_sec_start(p, &ms, s->why, sizeof(s->why)) <= 0)
		return -1;
	for (k = 0; k < kills && cr_signal == 0; k++) {
		uint32_t seq, vif;
		uint64_t t, w0;
		int64_t lost, bound;
		double rec;

		cr_sleep_us(1000 + bench_rand(&cr_rng) % 9000);
		w0 = cr_rq_wait_ns(p->prim);
		t = rte_rdtsc();
		kill(p->sec, SIGKILL);
		seq = atomic_load(&p->sh->kill_seq) + 1;
		atomic_store(&p->sh->kill_tsc, t);
		/* Release pairs with the primary's acquire of kill_seq. */
		atomic_store_explicit(&p->sh->kill_seq, seq,
			memory_order_release);
		if (!cr_reap(p->sec, 10 * CR_ANSWER_MS, NULL)) {
			snprintf(s->why, sizeof(s->why),
				"secondary %d not gone 10 s after SIGKILL",
				(int)p->sec);
			return -1;
		}
		p->sec = 0;
		s->kills++;
		if (!cr_wait(p, p->prim, CR_ANSWER_MS, cr_recovered)) {
			*wedged = true;
			return k + 1;
		}
		rec = atomic_load(&p->sh->recovery) * 1e6 / p->sh->tsc_hz;
		s->rec_us[s->nb_rec] = rec;
		/* Less the time the primary waited for its CPU meanwhile. */
		s->rec_run_us[s->nb_rec++] = RTE_MAX(0.0, rec -
			(cr_rq_wait_ns(p->prim) - w0) / 1e3);
		atomic_fetch_add(&p->sh->count_seq, 1);
		if (!cr_wait(p, p->prim, CR_ANSWER_MS, cr_counted)) {
			*wedged = true;
			return k + 1;
		}
		pf = atomic_load(&p->sh->put_fails);
		s->put_fails += pf - pf_prev;
		if (pf > pf_prev && s->first_put_fail == 0)
			s->first_put_fail = s->kills;
		pf_prev = pf;
		vif = atomic_load(&p->sh->sec.in_flight);
		p->count_slack += vif;
		lost = (int64_t)avail_prev - atomic_load(&p->sh->avail);
		avail_prev = atomic_load(&p->sh->avail);
		bound = vif + cr_cache_bound(cache);
		s->lost_sum += lost;
		s->lost_max = RTE_MAX(s->lost_max, lost);
		s->bound_sum += bound;
		s->bound_max = RTE_MAX(s->bound_max, bound);
		if (lost > bound)
			s->lost_over++;
		r = cr_sec_start(p, &ms, s->why, sizeof(s->why));
		if (r < 0)
			return -1;
		s->attach_ms[s->nb_attach++] = ms;
		if (r == 0) {
			*wedged = true;
			return k + 1;
		}
	}
	return k;
}

static void
cr_crash_row(const char *handler, int cache, int bulk, struct bench_row *row)
{
	unsigned int kills = bench_opts.kills, done = 0, serial = 0;
	struct cr_stats s;
	struct cr_pool p;
	bool wedged;
	int n;

	memset(&s, 0, sizeof(s));
	s.rec_us = calloc(kills, sizeof(double));
	s.rec_run_us = calloc(kills, sizeof(double));
	s.attach_ms = calloc(kills, sizeof(double));
	snprintf(s.census, sizeof(s.census), "none");
	while (done < kills && cr_signal == 0 && s.rec_us != NULL &&
			s.rec_run_us != NULL && s.attach_ms != NULL) {
		bench_progress("crash: %s, cache %d, bulk %d: kill %u of %u, %u wedged",
			handler, cache, bulk, done + 1, kills, s.wedged);
		if (cr_pool_start(&p, handler, cache, bulk, serial++, s.why,
				sizeof(s.why)) < 0) {
			cr_pool_end(&p);
			break;
		}
		s.pools++;
		n = cr_crash_pool(&p, kills - done, &s, cache, &wedged);
		if (n < 0) {
			cr_pool_end(&p);
			break;
		}
		done += n;
		if (wedged || cr_signal != 0) {
			s.wedged += wedged;
			cr_pool_end(&p);
			continue;
		}
		n = cr_pool_finish(&p, s.census, sizeof(s.census));
		if (n < 0) {
			/* The census itself did not answer: wedged too. */
			s.wedged++;
		} else {
			s.census_lost += CR_SIZE - n;
			s.capacity += atomic_load(&p.sh->census_capacity);
			s.censused++;
			if (strncmp(s.census, "ok", 2) != 0)
				s.census_bad++;
		}
		cr_pool_end(&p);
	}
	row->pool_size = CR_SIZE;
	row->cycles_per_obj = NAN;
	if (s.nb_rec > 0)
		row->cycles_per_obj = cr_pct(s.rec_us, s.nb_rec, 1.0);
	snprintf(row->extra, sizeof(row->extra),
		"kills=%u;wedged=%u;pools=%u;lost_per_kill_mean=%.2f;lost_per_kill_max=%" PRId64 ";"
		"bound_mean=%.2f;bound_max=%" PRId64 ";kills_over_bound=%u;"
		"recovery_us_median=%.2f;recovery_us_p99=%.2f;recovery_us_max=%.2f;"
		"recovery_run_us_max=%.2f;"
		"attach_ms_median=%.1f;census_bad=%u;census_lost=%" PRId64 ";"
		"puts_failed=%u;first_put_fail_kill=%u;capacity_end=%" PRId64 ";"
		"capacity_whole=%s;census=%s",
		s.kills, s.wedged, s.pools,
		s.kills ? (double)s.lost_sum / s.kills : 0.0, s.lost_max,
		s.kills ? (double)s.bound_sum / s.kills : 0.0, s.bound_max,
		s.lost_over, cr_pct(s.rec_us, s.nb_rec, 0.5),
		cr_pct(s.rec_us, s.nb_rec, 0.99),
		cr_pct(s.rec_us, s.nb_rec, 1.0),
		cr_pct(s.rec_run_us, s.nb_rec, 1.0),
		cr_pct(s.attach_ms, s.nb_attach, 0.5), s.census_bad,
		s.census_lost, s.put_fails, s.first_put_fail, s.capacity,
		s.censused == 0 ? "n/a" : s.capacity + s.census_lost ==
			(int64_t)s.censused * CR_SIZE ? "yes" : "no",
		s.census);
	if (cr_signal != 0)
		snprintf(row->status, sizeof(row->status),
			"error: stopped by signal %d", (int)cr_signal);
	else if (done < kills && s.kills == 0 && s.why[0] == 'a')
		snprintf(row->status, sizeof(row->status),
			"skip: no secondary runs on it here (%.90s)", s.why);
	else if (done < kills)
		snprintf(row->status, sizeof(row->status), "error: %s", s.why);
	else if (s.nb_rec == 0)
		snprintf(row->status, sizeof(row->status),
			"n/a: every kill wedged the pool (no recovery to time)");
	printf("crash: %s cache %d bulk %d: %s [%s]\n", handler, cache, bulk,
		row->extra, row->status);
	free(s.rec_us);
	free(s.rec_run_us);
	free(s.attach_ms);
}

/* The primary's throughput (objects/s) and longest operation over ms. */
static void
cr_window(struct cr_pool *p, double ms, double *mobj_s, double *stall_us)
{
	uint64_t o0, o1, start, cur;
	double t0 = cr_now_ms(), t1;

	atomic_exchange(&p->sh->max_op, 0);
	o0 = atomic_load(&p->sh->prim.objs);
	cr_sleep_us(ms * 1e3);
	o1 = atomic_load(&p->sh->prim.objs);
	t1 = cr_now_ms();
	cur = atomic_exchange(&p->sh->max_op, 0);
	/* An operation still running counts as long as it has lasted. */
	start = atomic_load(&p->sh->op_start);
	if (start != 0 && rte_rdtsc() > start)
		cur = RTE_MAX(cur, rte_rdtsc() - start);
	*mobj_s = (o1 - o0) / (t1 - t0) * 1e3 / 1e6;
	*stall_us = cur * 1e6 / p->sh->tsc_hz;
}

static void
cr_stop_row(const char *handler, int cache, int bulk, struct bench_row *row)
{
	unsigned int stops = bench_opts.stops, k, wedged = 0;
	double *stall = calloc(stops, sizeof(double));
	double *tput = calloc(stops, sizeof(double));
	double *base = calloc(stops, sizeof(double));
	double *run = calloc(stops, sizeof(double));
	double stall_max = 0, ms, b_stall, stopped_ms = 0;
	uint64_t w0;
	char why[128] = "";
	struct cr_pool p = { .fd = -1 };
	int r = -1;

	if (stall == NULL || tput == NULL || base == NULL || run == NULL ||
			cr_pool_start(&p, handler, cache, bulk, 0, why,
				sizeof(why)) < 0 ||
			(r = cr_sec_start(&p, &ms, why, sizeof(why))) < 0)
		goto out;
	if (r == 0) {
		snprintf(row->status, sizeof(row->status),
			"skip: no secondary runs on it here (%.90s)", why);
		why[0] = '\0';
		goto out;
	}
	for (k = 0; k < stops && cr_signal == 0; k++) {
		double d = 100 + bench_rand(&cr_rng) % 901;

		bench_progress("stop: %s, cache %d, bulk %d: stop %u of %u (%.0f ms)",
			handler, cache, bulk, k + 1, stops, d);
		cr_window(&p, 50, &base[k], &b_stall);
		cr_sleep_us(1000 + bench_rand(&cr_rng) % 9000);
		kill(p.sec, SIGSTOP);
		w0 = cr_rq_wait_ns(p.prim);
		cr_window(&p, d, &tput[k], &stall[k]);
		/* The stall less the time the primary waited for its CPU. */
		run[k] = RTE_MAX(0.0, stall[k] -
			(cr_rq_wait_ns(p.prim) - w0) / 1e3);
		kill(p.sec, SIGCONT);
		stopped_ms += d;
		stall_max = RTE_MAX(stall_max, stall[k]);
		/* Wedged: no operation ends within 1 s after SIGCONT. */
		atomic_store(&p.sh->kill_tsc, rte_rdtsc());
		atomic_store_explicit(&p.sh->kill_seq,
			atomic_load(&p.sh->kill_seq) + 1, memory_order_release);
		if (!cr_wait(&p, p.prim, CR_ANSWER_MS, cr_recovered)) {
			wedged++;
			k++;
			break;
		}
	}
	if (wedged == 0 && cr_signal == 0) {
		char census[160];

		if (cr_pool_finish(&p, census, sizeof(census)) < 0)
			wedged++;
	}
	row->pool_size = CR_SIZE;
	row->mobj_s = cr_pct(tput, k, 0.5) * 1e6;
	row->cycles_per_obj = stall_max;
	snprintf(row->extra, sizeof(row->extra),
		"stops=%u;stopped_ms=%.0f;wedged=%u;stall_us_max=%.1f;stall_us_median=%.1f;"
		"stall_run_us_max=%.1f;mobj_s_stopped_median=%.2f;mobj_s_stopped_min=%.2f;mobj_s_running_median=%.2f",
		k, stopped_ms, wedged, stall_max, cr_pct(stall, k, 0.5),
		cr_pct(run, k, 1.0), cr_pct(tput, k, 0.5), cr_pct(tput, k, 0.0),
		cr_pct(base, k, 0.5));
	printf("stop: %s cache %d bulk %d: %s\n", handler, cache, bulk,
		row->extra);
out:
	if (why[0] != '\0')
		snprintf(row->status, sizeof(row->status), "error: %s", why);
	else if (cr_signal != 0)
		snprintf(row->status, sizeof(row->status),
			"error: stopped by signal %d", (int)cr_signal);
	cr_pool_end(&p);
	free(stall);
	free(tput);
	free(base);
	free(run);
}

/* Refuse a handler that does not exist before starting anything. */
static int
cr_check_handlers(const char *sc)
{
	unsigned int h;

	for (h = 0; h < bench_opts.nb_handlers; h++) {
		const char *why = bench_handler_skip(bench_opts.handlers[h],
				false, CR_ELT);

		if (why != NULL && strncmp(why, "not registered", 14) == 0) {
			printf("%s: handler \"%s\" is not a registered mempool ops (%s)\n",
				sc, bench_opts.handlers[h], why);
			return -1;
		}
	}
	return 0;
}

typedef void (cr_row_fn)(const char *handler, int cache, int bulk,
		struct bench_row *row);

static int
cr_run(const struct bench_scenario *sc, cr_row_fn *fn)
{
	static const unsigned int def_bulks[] = { 1, 32, BENCH_BULK_RANDOM };
	static const unsigned int def_caches[] = { 0, 256 };
	const struct bench_opts *o = &bench_opts;
	const unsigned int *bulks = o->bulks_given ? o->bulks : def_bulks;
	const unsigned int *caches = o->caches_given ? o->caches : def_caches;
	unsigned int nb = o->bulks_given ? o->nb_bulks : RTE_DIM(def_bulks);
	unsigned int nc = o->caches_given ? o->nb_caches : RTE_DIM(def_caches);
	struct sigaction sa, old_term, old_int;
	cpu_set_t cpus, old_cpus;
	const char *skip;
	unsigned int c, b, h;
	char rundir[PATH_MAX], *slash;
	int ret = TEST_SUCCESS;

	if (cr_check_handlers(sc->name) < 0)
		return TEST_FAILED;
	for (b = 0; b < nb; b++)
		if (bulks[b] > BENCH_RANDOM_MAX) {
			printf("%s: bulk %u above %d\n", sc->name, bulks[b],
				BENCH_RANDOM_MAX);
			return TEST_FAILED;
		}
	cr_rng = o->seed | 1;
	skip = cr_hugepages();
	if (skip == NULL && (readlink("/proc/self/exe", cr_exe,
			sizeof(cr_exe) - 1) <= 0 ||
			tm_test_plugin_path(cr_plugin, sizeof(cr_plugin)) < 0))
		skip = "this binary or the turbomem plugin (-d) not found";
	/* EAL's runtime directories: the parent of this process's own. */
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	slash = strrchr(rundir, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(cr_rundir, sizeof(cr_rundir), "%s", rundir);

	/*
	 * The supervisor on the secondary's CPU: a kill then frees the CPU it
	 * runs on, and the primary's CPU stays the primary's.
	 */
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	sched_getaffinity(0, sizeof(old_cpus), &old_cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cr_on_signal;
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);
	for (c = 0; c < nc; c++)
	for (b = 0; b < nb; b++)
	for (h = 0; h < o->nb_handlers; h++) {
		struct bench_row row;
		const char *hs = bench_handler_skip(o->handlers[h], false,
				CR_ELT);

		bench_row_init(&row, sc->name, o->handlers[h]);
		row.cache = caches[c];
		row.bulk = bulks[b];
		row.workers = 2;
		row.cpus = 2;
		snprintf(row.mem, sizeof(row.mem), "hugetlbfs");
		snprintf(row.backing, sizeof(row.backing), "-");
		snprintf(row.stat, sizeof(row.stat), "mean");
		row.rounds = 1;
		bench_expect(&row);
		if (skip != NULL || hs != NULL)
			snprintf(row.status, sizeof(row.status), "skip: %.140s",
				skip != NULL ? skip : hs);
		else if (cr_signal == 0)
			fn(o->handlers[h], row.cache, row.bulk, &row);
		if (strncmp(row.status, "error", 5) == 0)
			ret = TEST_FAILED;
		bench_row_add(&row);
	}
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
	if (cr_signal != 0) {
		/* Every process and file is gone (cr_pool_end): die of it. */
		printf("%s: stopped by signal %d, every process it started killed\n",
			sc->name, (int)cr_signal);
		fflush(stdout);
		raise(cr_signal);
	}
	return ret;
}

static int
bench_crash(const struct bench_scenario *sc)
{
	return cr_run(sc, cr_crash_row);
}

static int
bench_stop(const struct bench_scenario *sc)
{
	return cr_run(sc, cr_stop_row);
}

static struct bench_scenario crash_scenario = {
	.name = "crash",
	.run = bench_crash,
	.figure = BENCH_FIG_CYCLES,
	.unit = "recovery us",
	.higher_is_better = false,
	.stat = BENCH_ONCE,
	.params = "bulk {bulk}, cache {cache}",
};
BENCH_SCENARIO(crash_scenario);

static struct bench_scenario stop_scenario = {
	.name = "stop",
	.run = bench_stop,
	.figure = BENCH_FIG_CYCLES,
	.unit = "stall us",
	.higher_is_better = false,
	.stat = BENCH_ONCE,
	.params = "bulk {bulk}, cache {cache}",
};
BENCH_SCENARIO(stop_scenario);
