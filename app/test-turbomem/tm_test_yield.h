/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_YIELD_H
#define TM_TEST_YIELD_H

/*
 * Forced into the test-only "yield" build of the plugin (-include): a
 * preemption point between reading the LIFO head and committing it. By
 * default it yields on about one commit in eight, so that the ABA stress
 * shape sees other threads pop and push the same top in between. A test
 * may instead set tm_test_yield_hook (found with dlsym) to run its own
 * interfering operations at that point, deterministically. Never in a
 * real build.
 */

#include <sched.h>
#include <stdint.h>

typedef void (tm_test_yield_fn_t)(void);

/* Weak: one variable for every source file of the plugin. */
__attribute__((weak, visibility("default")))
tm_test_yield_fn_t *tm_test_yield_hook;

static __thread uint32_t tm_test_yield_rng __attribute__((unused)) = 1;

#define TM_LIFO_TEST_YIELD() do { \
	tm_test_yield_fn_t *tm_test_fn = tm_test_yield_hook; \
	if (tm_test_fn != NULL) { \
		tm_test_fn(); \
		break; \
	} \
	tm_test_yield_rng = tm_test_yield_rng * 1103515245u + 12345u; \
	if (((tm_test_yield_rng >> 16) & 7) == 0) \
		sched_yield(); \
} while (0)

#endif /* TM_TEST_YIELD_H */
