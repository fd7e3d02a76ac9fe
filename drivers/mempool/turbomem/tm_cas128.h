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
 *   -march=corei7 and later): __sync_val_compare_and_swap, inlined as
 *   "lock cmpxchg16b", a full barrier (stronger than every ordering asked).
 * - aarch64 with LSE atomics: __atomic_compare_exchange_n, inlined as CASP
 *   with the orderings asked.
 * - ThreadSanitizer and mutation builds: __atomic_compare_exchange_n with
 *   the orderings asked, so the sanitizer checks them.
 * - Anything else: TM_CAS128_SUPPORTED is 0 and the driver refuses to
 *   create pools (-ENOTSUP) instead of falling back to a lock.
 */

#include <stdbool.h>

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
	tm_u128_t prev;

	(void)success;
	(void)failure;
	prev = __sync_val_compare_and_swap(dst, *expected, desired);
	if (prev == *expected)
		return true;
	*expected = prev;
	return false;
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
