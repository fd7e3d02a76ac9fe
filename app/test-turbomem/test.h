/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_H
#define TM_TEST_H

/*
 * Autotest-style commands of dpdk-test-turbomem: each command is a
 * function returning TEST_SUCCESS, TEST_FAILED or TEST_SKIPPED, registered
 * by name, run as "dpdk-test-turbomem <EAL args> -- <command>..." or with
 * DPDK_TEST=<command> like DPDK's dpdk-test.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"

#define TEST_SUCCESS 0
#define TEST_FAILED -1
#define TEST_SKIPPED 77

typedef int (tm_test_fn)(void);

struct tm_test {
	const char *name;
	tm_test_fn *fn;
	struct tm_test *next;
};

void tm_test_register(struct tm_test *t);

#define TM_TEST_REGISTER(cmd, func) \
	static struct tm_test tm_test_ ## cmd = { #cmd, func, NULL }; \
	RTE_INIT(tm_test_init_ ## cmd) \
	{ \
		tm_test_register(&tm_test_ ## cmd); \
	}

#define TEST_ASSERT(cond, fmt, ...) do { \
	if (!(cond)) { \
		printf("%s:%d: assertion \"%s\" failed: " fmt "\n", \
			__func__, __LINE__, #cond, ## __VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

/* Like TEST_ASSERT, for tests that must release resources: ret, goto. */
#define TEST_CHECK(cond, fmt, ...) do { \
	if (!(cond)) { \
		printf("%s:%d: check \"%s\" failed: " fmt "\n", \
			__func__, __LINE__, #cond, ## __VA_ARGS__); \
		ret = TEST_FAILED; \
		goto out; \
	} \
} while (0)

/*
 * Skip, with the reason on one line that scripts/test.sh lists. TEST_SKIP:
 * the machine lacks something (THP, hugepages, root): on a machine that
 * has all of it, test.sh counts the skip as a failure. TEST_SKIP_BUILD: the
 * build under test does not have the feature (e.g. no debug checks).
 */
#define TEST_SKIP(fmt, ...) do { \
	printf("SKIP: " fmt "\n", ## __VA_ARGS__); \
	return TEST_SKIPPED; \
} while (0)
#define TEST_SKIP_BUILD(fmt, ...) do { \
	printf("SKIP(build): " fmt "\n", ## __VA_ARGS__); \
	return TEST_SKIPPED; \
} while (0)

/** Name of the driver under test. */
#define TM_OPS "turbomem"

/**
 * Pseudo-handler suffix: "turbomem+track" is turbomem with held-object
 * tracking on (rte_pmd_turbomem_config.track), so that the bench runs both
 * side by side.
 */
#define TM_TRACK_SUFFIX "+track"

/**
 * rte_mempool_set_ops_byname(mp, ops, NULL), except that "turbomem+track"
 * selects turbomem with tracking on.
 */
int tm_test_set_ops(struct rte_mempool *mp, const char *ops);

/**
 * Empty pool on the given ops, populated by rte_mempool_populate_default
 * unless populate is false. NULL (reason printed) on failure.
 */
struct rte_mempool *tm_test_pool(const char *name, unsigned int n,
		unsigned int elt_size, unsigned int cache, const char *ops,
		int socket, bool populate);

/**
 * Address of a symbol of the turbomem plugin EAL loaded with -d (which it
 * dlopens RTLD_LOCAL), or of a linked one; NULL if not found. The first
 * loaded object whose name holds "librte_mempool_turbomem" is searched,
 * so the test-only builds (yield, faults, nonuma) are found as well.
 */
void *tm_test_plugin_sym(const char *name);

/**
 * rte_pmd_turbomem_stats_get() of the loaded plugin; -ENOENT if the
 * plugin does not have it.
 */
int tm_test_stats(const struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *st);

/**
 * Blocks of a turbomem pool at rest (tm_lifo.h, "Blocks"): 0 if the lcore
 * stashes, the free list and the groups hold every block allocated, else
 * -1 with a line saying how many each holds. White-box: reads the pool's
 * private data, with the core's census built into this application.
 */
/*
 * Blocks of a turbomem pool at rest that are in no lcore stash, on no free
 * list and in no group: lost (negative: counted twice). Prints the census
 * where it is not 0. White-box (turbomem_private.h).
 */
int tm_test_blocks_missing(const struct rte_mempool *mp);
int tm_test_blocks_check(const struct rte_mempool *mp);

/** Path of the turbomem plugin this process loaded; 0 or -1. */
int tm_test_plugin_path(char *buf, size_t sz);

/**
 * Objects the driver holds, read raw through its get_count op: unlike
 * rte_mempool_avail_count() it is neither clamped to the pool size nor
 * mixed with the caches, so a count above the size shows.
 */
static inline unsigned int
tm_test_raw_count(const struct rte_mempool *mp)
{
	/* rte_mempool_ops_get_count() is not exported by every DPDK. */
	return rte_mempool_get_ops(mp->ops_index)->get_count(mp);
}

/** What /proc/self/smaps says of the mappings overlapping a range. */
struct tm_smaps {
	uint64_t vma_bytes;	/**< size of those mappings */
	uint64_t anon_huge;	/**< their AnonHugePages */
	uint64_t kpage;		/**< largest KernelPageSize */
	bool advised;		/**< one has VmFlags "hg" (MADV_HUGEPAGE) */
};

/** Read smaps for the mappings overlapping [s, e); 0 or -1. */
int tm_test_smaps(uintptr_t s, uintptr_t e, struct tm_smaps *sum);

/** Number of mappings of the process (/proc/self/maps lines), or -1. */
int tm_test_maps_count(void);

/**
 * Whether the mapping count follows what the test does: not under
 * valgrind (its malloc maps client heap blocks as the test runs) nor
 * AddressSanitizer (its allocator maps and unmaps its own regions
 * whenever a thread, DPDK's included, allocates: counts 2 below and 1
 * above the one before a pool were seen with the pool freed). The stages
 * built without them keep the exact checks.
 */
bool tm_test_maps_countable(void);

/**
 * Whether the test runs under valgrind (its preload library), which runs
 * one thread at a time and reports one CPU to affinity queries.
 */
bool tm_test_valgrind(void);

/**
 * Mappings the process holds beyond maps0 (a tm_test_maps_count() taken
 * before): what a test left behind; 0 where the count is not
 * countable (tm_test_maps_countable).
 */
int tm_test_maps_left(int maps0);

/**
 * pthread_create() of an unregistered thread that may run on every CPU:
 * a thread inherits the affinity of the thread that creates it, and an
 * EAL lcore's is its own CPUs (the main lcore's one CPU with "-l 0"), so
 * unregistered threads created by an lcore would all share its CPU, taking
 * turns and never running at once. 0 or an errno value, as pthread_create.
 */
int tm_test_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg);

/** Arguments after the command name (options of the perf commands). */
extern int tm_test_argc;
extern char **tm_test_argv;

/**
 * The value of option name (name=value) among the arguments after the
 * command, "" for a bare name, NULL if absent.
 */
const char *tm_test_opt(const char *name);

/**
 * One request over this process's telemetry socket; the reply in buf.
 * 0, or a negative errno value.
 */
int tm_test_tel_query(const char *cmd, char *buf, size_t sz);

/** Scale factor for iteration counts (TM_TEST_SCALE, default 1). */
unsigned int tm_test_scale(void);

/**
 * base scaled by TM_TEST_SCALE, which may also be a fraction (0.01 for
 * slow runs under valgrind); at least 1.
 */
unsigned long tm_test_iters(unsigned long base);

/**
 * Seed of a randomized test: TM_TEST_SEED, else from the clock. Printed so
 * that a failing run can be replayed; never 0 (a valid tm_test_rand state).
 */
uint64_t tm_test_seed(void);

/** xorshift64 step: the next pseudo-random number of state *s (not 0). */
static inline uint64_t
tm_test_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif /* TM_TEST_H */
