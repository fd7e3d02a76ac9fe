/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_ATOMIC_H
#define TM_ATOMIC_H

/*
 * What the LIFO core takes from EAL: header-only primitives, no EAL call,
 * so that the core harness builds it without DPDK against stand-ins
 * (app/test-turbomem/core/shim). The atomics are rte_stdatomic.h's.
 */

#include <rte_atomic.h>
#include <rte_common.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#include <rte_stdatomic.h>

/*
 * A prefetch for writing: PREFETCHW on x86-64, where DPDK's
 * rte_prefetch0_write is a read prefetch unless the target has PRFCHW
 * (corei7 has not).
 */
#if defined(RTE_ARCH_X86_64)
static inline void
tm_prefetch_w(const volatile void *p)
{
	__asm__ volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
}
#else
#define tm_prefetch_w(p) rte_prefetch0(p)
#endif

#endif /* TM_ATOMIC_H */
