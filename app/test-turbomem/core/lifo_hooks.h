/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_HOOKS_H
#define LIFO_HOOKS_H

/*
 * Forced into the harness's hooked build (-include, core/meson.build)
 * before any other header: the preemption points of the core, placed by
 * redefining three of the atomics (compat/stdatomic's rte_stdatomic.h, as
 * the harness builds the core with; GCC's built-ins take its _Atomic
 * objects). The core is unchanged: a hook runs before every strong CAS
 * (the core's only ones are the commits to the head and to the put list)
 * and store to the head (none after init, but a mutant may commit so),
 * one after a strong CAS that succeeded, and one after an acquire load
 * of the head (the read a pop or a walk starts from).
 */

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_stdatomic.h>

/*
 * In exact, a hook run once plays another thread there; elsewhere a
 * yield on about one commit in eight lets others slip in.
 */
typedef void (hook_fn_t)(void);
static hook_fn_t *hook_commit __attribute__((unused));
static hook_fn_t *hook_committed __attribute__((unused));
static hook_fn_t *hook_read __attribute__((unused));
/* The address of the harness's LIFO head (lifo_stress.c sets it). */
static uintptr_t hook_head __attribute__((unused));
static _Thread_local uint32_t hook_rng __attribute__((unused)) = 1;

static __attribute__((unused)) void
run_hook(hook_fn_t **h)
{
	hook_fn_t *f = *h;

	*h = NULL;
	f();
}

static __attribute__((unused)) void
hook_before_commit(void)
{
	if (hook_commit != NULL) {
		run_hook(&hook_commit);
		return;
	}
	hook_rng = hook_rng * 1103515245u + 12345u;
	if (((hook_rng >> 16) & 7) == 0)
		sched_yield();
}

static __attribute__((unused)) bool
hook_after_commit(bool done)
{
	if (done && hook_committed != NULL)
		run_hook(&hook_committed);
	return done;
}

static __attribute__((unused)) void
hook_after_read(uintptr_t p, int mo)
{
	if (p == hook_head && mo == __ATOMIC_ACQUIRE && hook_read != NULL)
		run_hook(&hook_read);
}

#undef rte_atomic_compare_exchange_strong_explicit
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f) \
	(hook_before_commit(), hook_after_commit( \
	 __atomic_compare_exchange_n(ptr, exp, des, 0, mo_s, mo_f)))
#undef rte_atomic_store_explicit
#define rte_atomic_store_explicit(ptr, val, mo) do { \
	if ((uintptr_t)(ptr) == hook_head) \
		hook_before_commit(); \
	__atomic_store_n(ptr, val, mo); \
} while (0)
#undef rte_atomic_load_explicit
#define rte_atomic_load_explicit(ptr, mo) __extension__ ({ \
	__typeof__(__atomic_load_n(ptr, mo)) hook_v_ = __atomic_load_n(ptr, mo); \
	hook_after_read((uintptr_t)(ptr), mo); \
	hook_v_; })

#endif /* LIFO_HOOKS_H */
