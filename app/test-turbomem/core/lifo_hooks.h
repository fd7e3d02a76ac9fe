/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_HOOKS_H
#define LIFO_HOOKS_H

/*
 * Forced into the harness's hooked build (-include, core/meson.build)
 * before tm_lifo.h: the core's preemption points, never in a real build.
 */

#include <sched.h>
#include <stdint.h>

#include "tm_atomic.h"

/*
 * Preemption points: in exact, a hook run once plays another thread there;
 * elsewhere a yield on about one commit in eight lets others slip in.
 */
typedef void (hook_fn_t)(void);
static hook_fn_t *hook_commit __attribute__((unused));
static hook_fn_t *hook_read __attribute__((unused));
static _Thread_local uint32_t tm_yield_rng __attribute__((unused)) = 1;
/* The pauses of this thread (the backoff checks). */
static _Thread_local unsigned long pauses __attribute__((unused));

static __attribute__((unused)) void
run_hook(hook_fn_t **h)
{
	hook_fn_t *f = *h;

	*h = NULL;
	f();
}

#define TM_LIFO_TEST_YIELD() do { \
	if (hook_commit != NULL) { \
		run_hook(&hook_commit); \
		break; \
	} \
	tm_yield_rng = tm_yield_rng * 1103515245u + 12345u; \
	if (((tm_yield_rng >> 16) & 7) == 0) \
		sched_yield(); \
} while (0)
#define TM_LIFO_TEST_YIELD_READ() do { \
	if (hook_read != NULL) \
		run_hook(&hook_read); \
} while (0)
#define TM_LIFO_TEST_PAUSE() do { \
	pauses++; \
	tm_pause(); \
} while (0)

#endif /* LIFO_HOOKS_H */
