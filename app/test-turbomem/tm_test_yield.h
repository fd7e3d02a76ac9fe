/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_YIELD_H
#define TM_TEST_YIELD_H

/*
 * Forced into the test-only "yield" build of the plugin (-include): a
 * preemption point before every strong CAS of the driver, placed by
 * redefining rte_stdatomic.h's operation, the sources unchanged. On an
 * EAL thread's get or put without tracking, the first such CAS is the
 * LIFO's commit, after the head is read. By default it yields on about
 * one CAS in eight, so that the ABA stress shape sees other threads pop
 * and push the same top in between. A test may instead set
 * tm_test_yield_hook (found with dlsym) to run its own interfering
 * operations at that point, deterministically.
 */

#include <sched.h>
#include <stdint.h>

#include <rte_stdatomic.h>

typedef void (tm_test_yield_fn_t)(void);

/* Weak: one variable for every source file of the plugin. */
__attribute__((weak, visibility("default")))
tm_test_yield_fn_t *tm_test_yield_hook;

static __thread uint32_t tm_test_yield_rng __attribute__((unused)) = 1;

static __attribute__((unused)) void
tm_test_yield(void)
{
	tm_test_yield_fn_t *fn = tm_test_yield_hook;

	if (fn != NULL) {
		fn();
		return;
	}
	tm_test_yield_rng = tm_test_yield_rng * 1103515245u + 12345u;
	if (((tm_test_yield_rng >> 16) & 7) == 0)
		sched_yield();
}

/*
 * The operation itself by GCC's built-in, which takes plain and _Atomic
 * objects alike (rte_stdatomic.h's, with or without -Denable_stdatomic,
 * and compat/stdatomic's).
 */
#undef rte_atomic_compare_exchange_strong_explicit
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f) \
	(tm_test_yield(), \
	 __atomic_compare_exchange_n(ptr, exp, des, 0, mo_s, mo_f))

#endif /* TM_TEST_YIELD_H */
