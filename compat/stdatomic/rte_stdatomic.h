/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_COMPAT_RTE_STDATOMIC_H
#define TURBOMEM_COMPAT_RTE_STDATOMIC_H

/*
 * DPDK's <rte_stdatomic.h> (DPDK >= 23.11): the names turbomem uses,
 * over C11 <stdatomic.h> as DPDK defines them with -Denable_stdatomic.
 * On the include path only where DPDK lacks the header (22.11:
 * meson.build, scripts/dpdk.sh) and for the DPDK-free core harness
 * (app/test-turbomem/core). The DPDK patch series leaves compat/ out.
 */

#include <stdatomic.h>

#define RTE_ATOMIC(type) _Atomic(type)

#define rte_memory_order_relaxed memory_order_relaxed
#define rte_memory_order_acquire memory_order_acquire
#define rte_memory_order_release memory_order_release
#define rte_memory_order_acq_rel memory_order_acq_rel
#define rte_memory_order_seq_cst memory_order_seq_cst

#define rte_atomic_load_explicit(ptr, mo) atomic_load_explicit(ptr, mo)
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

#endif /* TURBOMEM_COMPAT_RTE_STDATOMIC_H */
