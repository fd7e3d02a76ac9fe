/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * deep, "deep in-flight": half of a large pktmbuf pool held in a FIFO
 * while mbufs are allocated, written and freed oldest first, after a
 * shuffled refill. Runs on the main lcore.
 *
 * pktmbuf pool of 262143 mbufs (--deep-n), cache 250 (testpmd's default),
 * drained and refilled in shuffled order once; then half the pool held in
 * a FIFO while mbufs are allocated in bulks of 32, written (Ethernet/IPv4/
 * UDP header and the first 64-byte payload line), queued, and the oldest
 * 32 freed. What it measures is mostly memory: TLB reach and page walks
 * over the pool's pages. Memory mode is the EAL one of the run (--no-huge
 * or hugetlbfs); the row records the backing measured from
 * /proc/self/smaps (and turbomem's own report when the plugin exports
 * rte_pmd_turbomem_mem_info).
 * Figures: cycles per mbuf, best of the rounds (and dTLB misses and CPU
 * cycles per mbuf where the PMU exists).
 *
 * With the cache on, frees and allocations of 32 alternate: the mempool
 * cache serves them all and the handler is not called in the timed loop.
 * For turbomem the row's status says so, from the driver's own counters
 * ("N driver calls in M timed mbufs"): the figure is then the memory of
 * the mbufs (backing, placement) and the order the handler gave them out
 * in while the FIFO filled, not the handler's get and put.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "test.h"
#include "bench_common.h"
#include "rte_pmd_turbomem.h"

#define DEEP_BURST 32
#define DEEP_CACHE 250 /* testpmd's default mbuf cache */
#define DEEP_PAYLOAD 64 /* the payload line written */

struct deep_state {
	struct rte_mempool *mp;
	struct rte_mbuf **fifo;
	unsigned int mask, head, tail;
	uint8_t hdr[sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) +
		sizeof(struct rte_udp_hdr)];
	uint64_t seq;
};

static void
deep_template(struct deep_state *s)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)s->hdr;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(s->hdr, 0, sizeof(s->hdr));
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*udp) +
			DEEP_PAYLOAD);
	udp->src_port = rte_cpu_to_be_16(1024);
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + DEEP_PAYLOAD);
}

static __rte_always_inline int
deep_alloc(struct deep_state *s)
{
	struct rte_mbuf *b[DEEP_BURST];
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(s->mp, b, DEEP_BURST) != 0)
		return -1;
	for (i = 0; i < DEEP_BURST; i++) {
		char *p = rte_pktmbuf_append(b[i], sizeof(s->hdr) +
				DEEP_PAYLOAD);

		memcpy(p, s->hdr, sizeof(s->hdr));
		memset(p + sizeof(s->hdr), (int)(s->seq++ & 0xff),
			DEEP_PAYLOAD);
		s->fifo[s->head++ & s->mask] = b[i];
	}
	return 0;
}

static __rte_always_inline void
deep_free(struct deep_state *s)
{
	struct rte_mbuf *b[DEEP_BURST];
	unsigned int i;

	for (i = 0; i < DEEP_BURST; i++)
		b[i] = s->fifo[s->tail++ & s->mask];
	rte_pktmbuf_free_bulk(b, DEEP_BURST);
}

/* Cycles per mbuf of one measurement, NAN on failure. */
static double
deep_measure(const char *handler, struct bench_row *r, struct bench_hw *hw,
		double *dtlb)
{
	static struct deep_state s;
	unsigned int n = bench_opts.deep_n, hold = n / 2, i;
	uint64_t start, cycles, objs = 0;
	int64_t calls0, calls;
	double res = NAN, hw_dtlb, hw_cycles;

	memset(&s, 0, sizeof(s));
	*dtlb = NAN;
	deep_template(&s);
	s.mask = rte_align32pow2(hold + DEEP_BURST) - 1;
	s.fifo = malloc(sizeof(*s.fifo) * (s.mask + 1));
	s.mp = rte_pktmbuf_pool_create_by_ops("tm_bench_deep", n, DEEP_CACHE,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, handler);
	if (s.mp == NULL || s.fifo == NULL) {
		printf("deep: %s: pool of %u mbufs not created: %s\n", handler,
			n, rte_strerror(rte_errno));
		goto out;
	}
	if (isnan(r->huge_pct))
		bench_pool_backing(s.mp, r);
	if (bench_shuffled_refill(s.mp, n) < 0)
		goto out;
	while (s.head - s.tail < hold)
		if (deep_alloc(&s) < 0)
			goto fail;
	/* Warm up: one full turn of the FIFO. */
	for (i = 0; i < hold; i += DEEP_BURST) {
		deep_free(&s);
		if (deep_alloc(&s) < 0)
			goto fail;
	}
	calls0 = bench_turbomem_calls(s.mp);
	if (hw != NULL)
		bench_hw_start(hw);
	start = rte_rdtsc();
	do {
		for (i = 0; i < 32; i++) {
			deep_free(&s);
			if (deep_alloc(&s) < 0)
				goto fail;
		}
		objs += 32 * DEEP_BURST;
		cycles = rte_rdtsc() - start;
	} while (cycles < bench_opts.seconds * rte_get_tsc_hz());
	if (hw != NULL) {
		bench_hw_stop(hw, &hw_dtlb, &hw_cycles);
		*dtlb = hw_dtlb / objs;
		r->hw_cycles_per_obj = hw_cycles / objs;
	}
	res = (double)cycles / objs;
	calls = bench_turbomem_calls(s.mp);
	if (calls >= 0 && calls0 >= 0 && strstr(r->status, "driver") == NULL) {
		size_t off = strlen(r->status);

		snprintf(r->status + off, sizeof(r->status) - off,
			"; %" PRId64 " driver calls in %" PRIu64 " timed mbufs",
			calls - calls0, objs);
	}
fail:
	if (isnan(res))
		printf("deep: %s: allocation failed with %u mbufs held\n",
			handler, s.head - s.tail);
	while (s.head - s.tail >= DEEP_BURST)
		deep_free(&s);
out:
	rte_mempool_free(s.mp);
	free(s.fifo);
	return res;
}

static int
deep_set_measure(struct bench_set *set, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row,
		double fig[BENCH_NB_FIGS])
{
	const struct bench_opts *o = &bench_opts;

	bench_progress("deep: round %u/%u %s, %u mbufs, %s",
		set->round + 1, o->rounds, o->handlers[h], o->deep_n, row->mem);
	fig[BENCH_FIG_CYCLES] = deep_measure(o->handlers[h], row, set->ctx,
			&fig[BENCH_FIG_DTLB]);
	return 0;
}

static int
bench_deep(const struct bench_scenario *sc)
{
	const struct bench_opts *o = &bench_opts;
	static struct bench_set set;
	struct bench_row *p;
	struct bench_hw hw;
	bool hw_ok = bench_hw_open(&hw) == 0;
	int ret;

	p = bench_set_init(&set, sc);
	p->bulk = DEEP_BURST;
	p->keep = o->deep_n / 2;
	p->cache = DEEP_CACHE;
	p->pool_size = o->deep_n;
	set.elt_size = RTE_MBUF_DEFAULT_BUF_SIZE + sizeof(struct rte_mbuf);
	set.measure = deep_set_measure;
	set.ctx = hw_ok ? &hw : NULL;
	ret = bench_run_set(&set);
	if (hw_ok)
		bench_hw_close(&hw);
	return ret;
}

static struct bench_scenario deep_scenario = {
	.name = "deep",
	.run = bench_deep,
	.figure = BENCH_FIG_CYCLES,
	.unit = "cycles/mbuf",
	.higher_is_better = false,
	.stat = BENCH_BEST,
	.params = "bulk {bulk}, {keep}/{pool_size} held, cache {cache}, {mem}",
	.charts = "memory",
};
BENCH_SCENARIO(deep_scenario);
