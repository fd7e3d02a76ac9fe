/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Force-included (-include) into the test-only "nonuma" build of the
 * driver: the driver as a DPDK built without libnuma compiles it. DPDK's
 * rte_config.h, included first by the libdpdk flags, defined
 * RTE_HAS_LIBNUMA; rte_build_config.h is included once, so it stays off.
 */

#include <rte_config.h>

#undef RTE_HAS_LIBNUMA
