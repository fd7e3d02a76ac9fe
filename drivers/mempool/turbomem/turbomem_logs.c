/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include <rte_log.h>

/* The driver's dynamic log type, pmd.mempool.turbomem (TM_LOG). */
RTE_LOG_REGISTER_DEFAULT(turbomem_logtype, NOTICE);
