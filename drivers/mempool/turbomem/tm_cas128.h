/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_CAS128_H
#define TM_CAS128_H

/**
 * @file
 * The one 16-byte compare-and-swap the core is built on, chosen here and
 * nowhere else.
 *
 * - x86-64 with cmpxchg16b (gcc/clang -mcx16, implied by DPDK's
 *   -march=corei7 and later): "lock cmpxchg16b" in inline assembly, a full
 *   barrier (stronger than every ordering asked).
 * - aarch64 with LSE atomics: __atomic_compare_exchange_n, inlined as CASP
 *   with the orderings asked.
 * - ThreadSanitizer and mutation builds: __atomic_compare_exchange_n with
 *   the orderings asked, so the sanitizer checks them.
 * - Anything else: TM_CAS128_SUPPORTED is 0 and the driver refuses to
 *   create pools (-ENOTSUP) instead of falling back to a lock.
 */

#include <stdbool.h>
#include <stdint.h>

typedef unsigned __int128 tm_u128_t;

/* Orderings of the two commits, overridable by mutation builds only. */
#ifdef TM_MUTANT_RELAXED
#define TM_MO_PUSH_SUCCESS __ATOMIC_RELAXED
#define TM_CAS128_USE_ATOMIC 1
#else
#define TM_MO_PUSH_SUCCESS __ATOMIC_RELEASE
#endif
#define TM_MO_POP_SUCCESS __ATOMIC_ACQ_REL

#if defined(__SANITIZE_THREAD__) || defined(TM_MUTANT_NO_TAG) || \
	defined(TM_MUTANT_NO_RESERVE)
#ifndef TM_CAS128_USE_ATOMIC
#define TM_CAS128_USE_ATOMIC 1
#endif
#endif

#if defined(TM_CAS128_USE_ATOMIC)
#define TM_CAS128_SUPPORTED 1
#elif defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
#define TM_CAS128_SUPPORTED 1
#define TM_CAS128_USE_SYNC 1
#elif defined(__aarch64__) && defined(__ARM_FEATURE_ATOMICS)
#define TM_CAS128_SUPPORTED 1
#define TM_CAS128_USE_ATOMIC 1
#else
#define TM_CAS128_SUPPORTED 0
#endif

/**
 * Compare *dst with *expected; if equal store desired and return true,
 * else load *dst into *expected and return false.
 */
static inline __attribute__((always_inline)) bool
tm_cas128(tm_u128_t *dst, tm_u128_t *expected, tm_u128_t desired,
		int success, int failure)
{
#if defined(TM_CAS128_USE_SYNC)
	uint64_t *e = (uint64_t *)expected;
	bool ok;

	(void)success;
	(void)failure;
	/*
	 * Same instruction as __sync_val_compare_and_swap, but the old value
	 * stays in rdx:rax and the result in ZF instead of going through the
	 * stack and a 16-byte compare (as DPDK's rte_atomic128_cmp_exchange).
	 */
	__asm__ __volatile__("lock cmpxchg16b %[dst]"
		: [dst] "+m" (*dst), "+a" (e[0]), "+d" (e[1]), "=@ccz" (ok)
		: "b" ((uint64_t)desired), "c" ((uint64_t)(desired >> 64))
		: "memory");
	return ok;
#elif defined(TM_CAS128_USE_ATOMIC)
	return __atomic_compare_exchange_n(dst, expected, desired, false,
			success, failure);
#else
	(void)dst;
	(void)expected;
	(void)desired;
	(void)success;
	(void)failure;
	return false;
#endif
}

#endif /* TM_CAS128_H */
