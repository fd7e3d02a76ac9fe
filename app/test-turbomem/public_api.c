/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * An application of the public API only (rte_pmd_turbomem.h), built
 * against an installed turbomem by the scripts that check installs:
 * app/test-turbomem/install.sh staged (a DESTDIR stage, pkg-config
 * libdpdk-turbomem) and scripts/dpdk.sh matrix (an installed DPDK prefix
 * with turbomem built in tree). Exit status 0 when every call did what
 * its contract says.
 */
#include <inttypes.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pmd_turbomem.h>

int
main(int argc, char **argv)
{
	struct rte_pmd_turbomem_stats st;
	struct rte_pmd_turbomem_mem_info mi;
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	int ret = 0;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create_by_ops("api", 511, 0, 0, 2048,
			SOCKET_ID_ANY, RTE_PMD_TURBOMEM_OPS_NAME);
	if (mp == NULL)
		return 2;
	m = rte_pktmbuf_alloc(mp);
	rte_pktmbuf_free(m);
	if (rte_pmd_turbomem_stats_get(mp, &st) != 0 || st.get_calls != 1 ||
			st.put_calls != 1)
		ret = 3;
	printf("api: pool on %s: get_calls %" PRIu64 " put_calls %" PRIu64 "\n",
		rte_mempool_get_ops(mp->ops_index)->name, st.get_calls,
		st.put_calls);
	if (rte_pmd_turbomem_stats_reset(mp) != 0 ||
			rte_pmd_turbomem_stats_get(mp, &st) != 0 ||
			st.get_calls != 0)
		ret = 4;
	if (rte_pmd_turbomem_mem_info(mp, &mi) != 0)
		ret = 5;
	else
		printf("api: memory %" PRIu64 " bytes, backing %s\n",
			(uint64_t)mi.bytes, rte_pmd_turbomem_backing_name(mi.backing));
	rte_mempool_free(mp);
	rte_eal_cleanup();
	printf("api: %s\n", ret == 0 ? "OK" : "FAIL");
	return ret;
}
