/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_SHIM_RTE_COMMON_H
#define LIFO_SHIM_RTE_COMMON_H

/* The core harness's stand-in for EAL's <rte_common.h> (see rte_pause.h). */

#define __rte_noinline __attribute__((noinline))

#endif /* LIFO_SHIM_RTE_COMMON_H */
