/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef LIFO_SHIM_RTE_PAUSE_H
#define LIFO_SHIM_RTE_PAUSE_H

/*
 * The core harness builds the LIFO core without DPDK (core/meson.build):
 * these headers stand in for the EAL ones it includes, with what a
 * DPDK-free build needs and measures no speed with. The atomics are
 * compat/stdatomic's, as against DPDK 22.11.
 *
 * A pause is counted (the exact shape checks the backoff by it); each
 * thread counts its own.
 */

extern _Thread_local unsigned long lifo_pauses;

static inline void
rte_pause(void)
{
	lifo_pauses++;
}

#endif /* LIFO_SHIM_RTE_PAUSE_H */
