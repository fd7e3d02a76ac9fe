/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_ATOMIC_H
#define TM_ATOMIC_H

/*
 * The one atomics vocabulary of turbomem: DPDK's rte_stdatomic.h names.
 * Against DPDK 23.11 and newer they are DPDK's own (-Denable_stdatomic
 * chooses, as for the rest of DPDK). Against DPDK 22.11, or without DPDK
 * (TM_FREESTANDING: core harness, ThreadSanitizer, mutants), those the
 * project uses are defined here over C11 <stdatomic.h>.
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

#define rte_atomic_load_explicit(ptr, mo) atomic_load_explicit(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) atomic_store_explicit(ptr, val, mo)
#define rte_atomic_exchange_explicit(ptr, val, mo) atomic_exchange_explicit(ptr, val, mo)
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f) \
	atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_s, mo_f)
#define rte_atomic_compare_exchange_weak_explicit(ptr, exp, des, mo_s, mo_f) \
	atomic_compare_exchange_weak_explicit(ptr, exp, des, mo_s, mo_f)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) atomic_fetch_add_explicit(ptr, val, mo)
#define rte_atomic_fetch_sub_explicit(ptr, val, mo) atomic_fetch_sub_explicit(ptr, val, mo)

#endif /* !TM_ATOMIC_RTE */

/*
 * The other names the core takes from DPDK: tm_pause (rte_pause),
 * tm_prefetch, tm_prefetch_w (PREFETCHW on x86-64: DPDK's write prefetch
 * is a read prefetch unless the target has PRFCHW, as corei7 has not),
 * tm_noinline, and tm_compiler_barrier, which keeps a stash's entry before
 * its count for a process that takes over from one that died (no fence).
 * Freestanding builds measure no speed: no pause, prefetch or noinline.
 */
#include <sched.h>
#define tm_yield() ((void)sched_yield())
#ifdef TM_FREESTANDING
#define tm_noinline
#define tm_pause() do { } while (0)
#define tm_prefetch(p) ((void)(p))
#define tm_prefetch_w(p) ((void)(p))
#define tm_compiler_barrier() atomic_signal_fence(memory_order_seq_cst)
#else
#include <rte_atomic.h>
#include <rte_common.h>
#include <rte_pause.h>
#include <rte_prefetch.h>
#define tm_noinline __rte_noinline
#define tm_compiler_barrier() rte_compiler_barrier()
#define tm_pause() rte_pause()
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
#endif

#endif /* TM_ATOMIC_H */
