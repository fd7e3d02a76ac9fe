/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_SHIM_RTE_ATOMIC_H
#define LIFO_SHIM_RTE_ATOMIC_H

/* The core harness's stand-in for EAL's <rte_atomic.h> (see rte_pause.h). */

#define rte_compiler_barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

#endif /* LIFO_SHIM_RTE_ATOMIC_H */
