/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * pages: which pages does the deep in-flight workload touch, at 4 KB, 2 MB
 * and 1 GB granularity, with the pool fresh and after drops (a shuffled
 * refill)? The input of the TLB model of the evidence page
 * (scripts/bench_report.py evidence), with the TLB sizes of this CPU read
 * from cpuid. Runs on the main lcore.
 *
 * The deep workload: pktmbuf pool of --deep-n mbufs, cache 250, half of
 * it held in a FIFO while bursts of 32 are allocated, written and the
 * oldest 32 freed. Every packet touches its mbuf header and its data
 * line; each window of 1000 packets counts the distinct pages of those
 * two addresses. Page numbers are virtual addresses shifted by 12, 21 and
 * 30: the number of TLB entries the window needs where the pool is mapped
 * with pages of that size (a model: the pool's real page size is the
 * row's backing).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#ifdef RTE_ARCH_X86
#include <cpuid.h>
#endif

#include "test.h"
#include "bench_common.h"

#define PG_BURST 32
#define PG_CACHE 250
#define PG_WINDOW 1000u
#define PG_WINDOWS 32u
#define PG_ADDRS (2 * PG_WINDOW) /* header and data line per packet */

struct pg_state {
	struct rte_mempool *mp;
	struct rte_mbuf **fifo;
	unsigned int mask, head, tail;
};

static int
pg_alloc(struct pg_state *s, uintptr_t *rec)
{
	struct rte_mbuf *b[PG_BURST];
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(s->mp, b, PG_BURST) != 0)
		return -1;
	for (i = 0; i < PG_BURST; i++) {
		char *p = rte_pktmbuf_append(b[i], 64);

		memset(p, (int)i, 64);
		if (rec != NULL) {
			rec[2 * i] = (uintptr_t)b[i];
			rec[2 * i + 1] = (uintptr_t)p;
		}
		s->fifo[s->head++ & s->mask] = b[i];
	}
	return 0;
}

static void
pg_free(struct pg_state *s)
{
	struct rte_mbuf *b[PG_BURST];
	unsigned int i;

	for (i = 0; i < PG_BURST; i++)
		b[i] = s->fifo[s->tail++ & s->mask];
	rte_pktmbuf_free_bulk(b, PG_BURST);
}

static int
cmp_uptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Steady state over PG_WINDOWS windows of PG_WINDOW packets; mean distinct
 * pages per window for shifts 12, 21, 30 into pages[3]. 0 or -1.
 */
static int
pg_windows(struct pg_state *s, double pages[3])
{
	static const unsigned int shift[3] = { 12, 21, 30 };
	uintptr_t *rec = malloc(sizeof(*rec) * (PG_ADDRS + 2 * PG_BURST));
	uintptr_t *p = malloc(sizeof(*p) * PG_ADDRS);
	unsigned int w, k, i, d, got;
	double sum[3] = { 0, 0, 0 };
	int ret = -1;

	if (rec == NULL || p == NULL)
		goto out;
	for (w = 0; w < PG_WINDOWS; w++) {
		for (got = 0; got < PG_WINDOW; got += PG_BURST) {
			pg_free(s);
			if (pg_alloc(s, &rec[2 * got]) < 0)
				goto out;
		}
		for (k = 0; k < 3; k++) {
			for (i = 0; i < PG_ADDRS; i++)
				p[i] = rec[i] >> shift[k];
			qsort(p, PG_ADDRS, sizeof(p[0]), cmp_uptr);
			for (i = 1, d = 1; i < PG_ADDRS; i++)
				d += p[i] != p[i - 1];
			sum[k] += d;
		}
	}
	for (k = 0; k < 3; k++)
		pages[k] = sum[k] / PG_WINDOWS;
	ret = 0;
out:
	free(rec);
	free(p);
	return ret;
}

/* "key=value;" of the data TLBs cpuid describes, or why not. */
static void
pg_tlb_cpuid(char *buf, size_t len)
{
#ifdef RTE_ARCH_X86
	unsigned int a, b, c, d, max, i, n = 0, e[2][3] = { { 0 } };

	buf[0] = '\0';
	if (__get_cpuid(0x80000000, &max, &b, &c, &d) && max >= 0x80000006 &&
			__get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541) {
		/* AMD: 0x80000005 L1, 0x80000006 L2, 0x80000019 1 GB. */
		__get_cpuid(0x80000005, &a, &b, &c, &d);
		e[0][0] = (b >> 16) & 0xff;
		e[0][1] = (a >> 16) & 0xff;
		__get_cpuid(0x80000006, &a, &b, &c, &d);
		e[1][0] = (b >> 16) & 0xfff;
		e[1][1] = (a >> 16) & 0xfff;
		if (max >= 0x80000019) {
			__get_cpuid(0x80000019, &a, &b, &c, &d);
			e[0][2] = (a >> 16) & 0xfff;
			e[1][2] = (b >> 16) & 0xfff;
		}
		n = snprintf(buf, len, "tlb_src=cpuid 0x80000005/6/19;");
	} else if (__get_cpuid(0, &max, &b, &c, &d) && max >= 0x18) {
		/* Intel: deterministic address translation parameters. */
		__get_cpuid_count(0x18, 0, &max, &b, &c, &d);
		for (i = 0; i <= max && i < 64; i++) {
			unsigned int type, level, ent, k;

			__get_cpuid_count(0x18, i, &a, &b, &c, &d);
			type = d & 0x1f;
			level = (d >> 5) & 0x7;
			/* data, unified or load-only TLBs of levels 1 and 2 */
			if ((type != 1 && type != 3 && type != 4) ||
					level < 1 || level > 2)
				continue;
			ent = ((b >> 16) & 0xffff) * c;
			for (k = 0; k < 3; k++)
				if (b & (1u << (k == 2 ? 3 : k)))
					e[level - 1][k] += ent;
		}
		n = snprintf(buf, len, "tlb_src=cpuid 0x18;");
	} else {
		snprintf(buf, len, "tlb_src=none: cpuid has no TLB leaf "
			"decoded here (Intel leaf 0x2 descriptors are not);");
		return;
	}
	if (n < len)
		snprintf(buf + n, len - n,
			"l1d_4k=%u;l1d_2m=%u;l1d_1g=%u;l2d_4k=%u;l2d_2m=%u;l2d_1g=%u;",
			e[0][0], e[0][1], e[0][2], e[1][0], e[1][1], e[1][2]);
#else
	snprintf(buf, len, "tlb_src=none: not x86;");
#endif
}

/* One handler: fresh, then after a shuffled refill. 0 or -1. */
static int
pg_measure(const char *handler, struct bench_row *r, double fresh[3],
		double shuffled[3])
{
	struct pg_state s;
	unsigned int n = bench_opts.deep_n, hold = n / 2;
	uint64_t t0;
	int ret = -1;

	memset(&s, 0, sizeof(s));
	s.mask = rte_align32pow2(hold + 2 * PG_BURST) - 1;
	s.fifo = malloc(sizeof(*s.fifo) * (s.mask + 1));
	s.mp = rte_pktmbuf_pool_create_by_ops("tm_bench_pages", n, PG_CACHE,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, handler);
	if (s.mp == NULL || s.fifo == NULL) {
		snprintf(r->status, sizeof(r->status),
			"error: pool of %u mbufs not created", n);
		goto out;
	}
	bench_pool_backing(s.mp, r);
	/* Fresh pool: no drops yet, the handler's initial order. */
	while (s.head - s.tail < hold)
		if (pg_alloc(&s, NULL) < 0)
			goto fail;
	if (pg_windows(&s, fresh) < 0)
		goto fail;
	while (s.head != s.tail)
		pg_free(&s);
	if (bench_shuffled_refill(s.mp, n) < 0)
		goto fail;
	while (s.head - s.tail < hold)
		if (pg_alloc(&s, NULL) < 0)
			goto fail;
	t0 = rte_rdtsc();
	if (pg_windows(&s, shuffled) < 0)
		goto fail;
	r->cycles_per_obj = (double)(rte_rdtsc() - t0) /
		(PG_WINDOW * PG_WINDOWS);
	ret = 0;
fail:
	if (ret < 0)
		snprintf(r->status, sizeof(r->status),
			"error: allocation failed with %u mbufs held",
			s.head - s.tail);
	while (s.head - s.tail >= PG_BURST)
		pg_free(&s);
out:
	rte_mempool_free(s.mp);
	free(s.fifo);
	return ret;
}

static int
pg_set_measure(struct bench_set *set, unsigned int h,
		unsigned int v __rte_unused, struct bench_row *row,
		double fig[BENCH_NB_FIGS])
{
	double fresh[3] = { NAN, NAN, NAN }, shuf[3] = { NAN, NAN, NAN };
	const char *tlb = set->ctx;
	int ret;

	bench_progress("pages: %s, %u mbufs, %s", bench_opts.handlers[h],
		bench_opts.deep_n, row->mem);
	ret = pg_measure(bench_opts.handlers[h], row, fresh, shuf);
	fig[BENCH_FIG_CYCLES] = row->cycles_per_obj;
	row->pages_4k = shuf[0];
	row->pages_2m = shuf[1];
	snprintf(row->extra, sizeof(row->extra),
		"window=%u;pages_1g=%.1f;fresh_4k=%.1f;fresh_2m=%.1f;"
		"fresh_1g=%.1f;%s",
		PG_WINDOW, shuf[2], fresh[0], fresh[1], fresh[2], tlb);
	return ret;
}

static int
bench_pages(const struct bench_scenario *sc)
{
	static struct bench_set set;
	static char tlb[160];
	struct bench_row *p = bench_set_init(&set, sc);

	pg_tlb_cpuid(tlb, sizeof(tlb));
	p->bulk = PG_BURST;
	p->keep = bench_opts.deep_n / 2;
	p->cache = PG_CACHE;
	p->pool_size = bench_opts.deep_n;
	set.elt_size = RTE_MBUF_DEFAULT_BUF_SIZE + sizeof(struct rte_mbuf);
	set.measure = pg_set_measure;
	set.ctx = tlb;
	return bench_run_set(&set);
}

static struct bench_scenario pages_scenario = {
	.name = "pages",
	.run = bench_pages,
	.figure = BENCH_FIG_CYCLES,
	.unit = "cycles/obj",
	.higher_is_better = false,
	.stat = BENCH_ONCE,
	.params = "bulk {bulk}, cache {cache}",
};
BENCH_SCENARIO(pages_scenario);
