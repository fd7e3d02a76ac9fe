/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_SHIM_RTE_PREFETCH_H
#define LIFO_SHIM_RTE_PREFETCH_H

/* The core harness's stand-in for EAL's <rte_prefetch.h> (see rte_pause.h). */

static inline void
rte_prefetch0(const volatile void *p)
{
	(void)p;
}

#endif /* LIFO_SHIM_RTE_PREFETCH_H */
