/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_ATOMIC_H
#define TM_ATOMIC_H

/*
 * The one atomics vocabulary of turbomem, core and DPDK glue alike:
 * DPDK's rte_stdatomic.h names (RTE_ATOMIC(type), rte_atomic_*_explicit,
 * rte_memory_order_*).
 *
 * - Built against a DPDK that has rte_stdatomic.h (23.11 and newer), the
 *   names are DPDK's own, so -Denable_stdatomic=true/false picks C11
 *   atomics or the GCC builtins as it does for the rest of DPDK.
 * - Built against DPDK 22.11 (no rte_stdatomic.h), or without DPDK at all
 *   (TM_FREESTANDING: the core harness, ThreadSanitizer and mutant
 *   builds), the same names are defined here over C11 <stdatomic.h>.
 *
 * Only the names the project uses are defined in the fallback; add one
 * here, in rte_stdatomic.h's spelling, when a new one is needed.
 */

#if !defined(TM_FREESTANDING) && defined(__has_include)
#if __has_include("rte_stdatomic.h")
#include <rte_stdatomic.h>
#define TM_ATOMIC_RTE 1
#endif
#endif

#ifndef TM_ATOMIC_RTE

#include <stdatomic.h>

#define RTE_ATOMIC(type) _Atomic(type)

#define rte_memory_order_relaxed memory_order_relaxed
#define rte_memory_order_acquire memory_order_acquire
#define rte_memory_order_release memory_order_release
#define rte_memory_order_acq_rel memory_order_acq_rel
#define rte_memory_order_seq_cst memory_order_seq_cst

#define rte_atomic_load_explicit(ptr, mo) \
	atomic_load_explicit(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) \
	atomic_store_explicit(ptr, val, mo)
#define rte_atomic_exchange_explicit(ptr, val, mo) \
	atomic_exchange_explicit(ptr, val, mo)
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f) \
	atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f)
#define rte_atomic_compare_exchange_weak_explicit(ptr, exp, des, mo_s, mo_f) \
	atomic_compare_exchange_weak_explicit(ptr, exp, des, mo_s, mo_f)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) \
	atomic_fetch_add_explicit(ptr, val, mo)
#define rte_atomic_fetch_sub_explicit(ptr, val, mo) \
	atomic_fetch_sub_explicit(ptr, val, mo)
#define rte_atomic_fetch_or_explicit(ptr, val, mo) \
	atomic_fetch_or_explicit(ptr, val, mo)
#define rte_atomic_fetch_and_explicit(ptr, val, mo) \
	atomic_fetch_and_explicit(ptr, val, mo)
#define rte_atomic_thread_fence(mo) \
	atomic_thread_fence(mo)

#endif /* !TM_ATOMIC_RTE */

/*
 * The other names the core takes from DPDK:
 * - tm_prefetch, a prefetch hint (see "Hints" in tm_lifo.h): DPDK's
 *   rte_prefetch0() in the driver;
 * - tm_pause, a spin-wait hint (see "Backoff" in tm_lifo.h): DPDK's
 *   rte_pause() in the driver;
 * - tm_prefetch_w, a prefetch for writing (see TM_LIFO_PUSH_AHEAD):
 *   PREFETCHW on x86-64; DPDK's rte_prefetch0_write (experimental)
 *   compiles to a prefetch for reading unless the target has PRFCHW
 *   (DPDK's default machine, corei7, has not), and a line another core
 *   read would then still need a second transfer to be written;
 *   rte_prefetch0 elsewhere (not measured there).
 * Freestanding builds, which measure no speed, define all three as
 * nothing.
 * tm_yield gives the CPU to another thread (see "Put list" in tm_lifo.h).
 */
#include <sched.h>
#define tm_yield() ((void)sched_yield())
#ifdef TM_FREESTANDING
#define tm_prefetch(p) ((void)(p))
#define tm_prefetch_w(p) ((void)(p))
#define tm_pause() do { } while (0)
#else
#include <rte_pause.h>
#include <rte_prefetch.h>
#define tm_prefetch(p) rte_prefetch0(p)
#if defined(RTE_ARCH_X86_64)
static inline void
tm_prefetch_w(const volatile void *p)
{
	__asm__ volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
}
#else
#define tm_prefetch_w(p) rte_prefetch0(p)
#endif
#define tm_pause() rte_pause()
#endif

#endif /* TM_ATOMIC_H */
