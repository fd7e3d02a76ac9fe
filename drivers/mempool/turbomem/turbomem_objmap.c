/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_malloc.h>

#include "turbomem_private.h"

/* The map's allocations count as its pool's (turbomem_pool.drv_bytes). */
static void
tm_objmap_bytes(struct tm_objmap *m, int64_t n)
{
	turbomem_bytes_add(container_of(m, struct turbomem_pool, map), n);
}

void
tm_objmap_init(struct tm_objmap *m, const struct rte_mempool *mp)
{
	memset(m, 0, sizeof(*m));
	m->header_size = mp->header_size;
	m->total_sz = mp->header_size + mp->elt_size + mp->trailer_size;
	m->div_magic = UINT64_MAX / m->total_sz + 1;
	m->socket_id = mp->socket_id;
	m->capacity = mp->size;
}

void
tm_objmap_fini(struct tm_objmap *m)
{
	tm_objmap_bytes(m, -(int64_t)(tm_objmap_tables_bytes(m->cap_chunks) +
		m->blk_bytes));
	m->blk_bytes = 0;
	rte_free(m->chunks);
	rte_free(m->by_va);
	rte_free(m->blk);
	m->blk = NULL;
	m->blk_stride = 0;
	m->chunks = NULL;
	m->by_va = NULL;
	m->nb_chunks = 0;
	m->cap_chunks = 0;
}

uint32_t
tm_objmap_plan(const struct tm_objmap *m, struct tm_chunk *c, char *va,
		size_t len, size_t pg_sz, uint32_t max_objs)
{
	uint64_t total = m->total_sz;
	uint64_t n, in_first;

	memset(c, 0, sizeof(*c));
	/* tm_objmap_div() is exact for offsets below 2^64 / total. */
	if (len >= UINT64_MAX / total)
		return 0;
	c->base = (uintptr_t)va;
	c->end = c->base + len;
	c->first_idx = m->nb_objs;

	if (pg_sz == 0 || total > pg_sz) {
		/* Objects may cross pages: one stride. */
		c->page0 = c->base;
		c->pg_shift = TM_OBJMAP_NO_PAGE_SHIFT;
		c->pg_mask = UINT64_MAX;
		c->k0 = UINT32_MAX;
		c->per_page = 1;
		n = len / total;
	} else {
		/* No object crosses a page; each page starts afresh. */
		c->pg_shift = rte_bsf64(pg_sz);
		c->pg_mask = pg_sz - 1;
		c->page0 = c->base & ~(uintptr_t)c->pg_mask;
		c->per_page = pg_sz / total;
		in_first = (c->page0 + pg_sz - c->base) / total;
		if (c->base + len <= c->page0 + pg_sz) {
			n = len / total;
		} else {
			uint64_t rest = c->base + len - (c->page0 + pg_sz);

			n = in_first + (rest >> c->pg_shift) * c->per_page +
				(rest & c->pg_mask) / total;
		}
		c->k0 = in_first;
	}
	c->rec_per_page = rte_reciprocal_value(c->per_page);
	if (n > max_objs)
		n = max_objs;
	c->nb_objs = n;
	return n;
}

/*
 * Whether (obj - origin) / total_sz stays exact (tm_objmap_div) for every
 * object of the pool: offsets below nb_objs * total_sz.
 */
static bool
tm_objmap_div_exact(const struct tm_objmap *m)
{
	return (uint64_t)m->nb_objs * m->total_sz < UINT64_MAX / m->total_sz;
}

/*
 * Whether every chunk lays its objects at one stride from its base (no
 * page boundary inside: no page constraint, or all objects before the
 * first boundary), so that one index origin per chunk serves all of its
 * objects.
 */
static bool
tm_objmap_stride(const struct tm_objmap *m)
{
	uint32_t i;

	for (i = 0; i < m->nb_chunks; i++) {
		const struct tm_chunk *c = &m->chunks[i];

		if (c->pg_shift != TM_OBJMAP_NO_PAGE_SHIFT &&
				c->k0 < c->nb_objs)
			return false;
	}
	return true;
}

/*
 * A run of a chunk's objects at one stride: object pointers [lo, hi),
 * index origin v (struct tm_objmap_blk).
 */
struct tm_objmap_run {
	uintptr_t lo;
	uintptr_t hi;
	uintptr_t v;
};

/*
 * Runs of chunk c: with by_page, one per page holding objects where
 * pages constrain them (the first page's run, then one per further page:
 * each page starts afresh, so each has its own origin); otherwise, and
 * for a chunk without a page boundary among its objects, the whole chunk.
 */
static uint32_t
tm_chunk_nb_runs(const struct tm_chunk *c, bool by_page)
{
	if (!by_page || c->pg_shift == TM_OBJMAP_NO_PAGE_SHIFT ||
			c->k0 >= c->nb_objs)
		return 1;
	return 1 + (c->nb_objs - c->k0 + c->per_page - 1) / c->per_page;
}

/*
 * Run r of chunk c (tm_chunk_nb_runs); lo == hi where it holds none (a
 * first page too short for an object). Chunks hold objects (populate adds
 * no empty one).
 */
static struct tm_objmap_run
tm_chunk_run(const struct tm_objmap *m, const struct tm_chunk *c, uint32_t r,
		bool by_page)
{
	bool paged = tm_chunk_nb_runs(c, by_page) > 1;
	struct tm_objmap_run run;
	uint32_t first = 0, nb = c->k0;

	if (paged && r > 0) {
		first = c->k0 + (r - 1) * c->per_page;
		nb = RTE_MIN(c->per_page, c->nb_objs - first);
	}
	/* Where the library's placement puts the run's first object. */
	run.lo = (uintptr_t)tm_chunk_obj(m, c, first);
	/* A page's objects end at its last; a whole chunk's at its end. */
	run.hi = paged ? run.lo + (uintptr_t)nb * m->total_sz :
		c->end + m->header_size;
	run.v = run.lo - (uintptr_t)(c->first_idx + first) * m->total_sz;
	return run;
}

/*
 * Build the block table over the chunks' runs (see the header), with the
 * runs' index origins if stride; false where it would exceed
 * TM_OBJMAP_MAX_BLOCKS entries or memory runs out. Blocks of the largest
 * power of two not above the shortest run: a block meets at most two
 * runs (a third would have to fit inside it).
 */
static bool
tm_objmap_fill_blocks(struct tm_objmap *m, bool by_page, bool stride)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, min_len = UINTPTR_MAX, b, nb;
	struct tm_objmap_blk *blk;
	struct tm_objmap_run run;
	uint32_t i, k, r, shift;

	for (i = 0; i < m->nb_chunks; i++) {
		const struct tm_chunk *c = &m->chunks[i];

		for (r = 0; r < tm_chunk_nb_runs(c, by_page); r++) {
			run = tm_chunk_run(m, c, r, by_page);
			if (run.lo == run.hi)
				continue;
			lo = RTE_MIN(lo, run.lo);
			hi = RTE_MAX(hi, run.hi);
			min_len = RTE_MIN(min_len, run.hi - run.lo);
		}
	}
	if (hi == 0)
		return false;
	shift = rte_fls_u64(min_len) - 1;
	nb = ((hi - 1) >> shift) - (lo >> shift) + 1;
	if (nb > TM_OBJMAP_MAX_BLOCKS)
		return false;
	blk = rte_malloc_socket("turbomem_objmap", nb * sizeof(*blk),
			RTE_CACHE_LINE_SIZE, m->socket_id);
	if (blk == NULL)
		return false;
	m->blk_bytes = nb * sizeof(*blk);
	tm_objmap_bytes(m, (int64_t)m->blk_bytes);
	for (b = 0; b < nb; b++)
		blk[b] = (struct tm_objmap_blk){ 0, 0, 0, TM_OBJMAP_NO_CHUNK,
			TM_OBJMAP_NO_CHUNK };
	/* In address order: a block's second run is its upper one. */
	for (k = 0; k < m->nb_chunks; k++) {
		const struct tm_chunk *c = &m->chunks[m->by_va[k]];

		for (r = 0; r < tm_chunk_nb_runs(c, by_page); r++) {
			run = tm_chunk_run(m, c, r, by_page);
			if (run.lo == run.hi)
				continue;
			if (!stride)
				run.v = 0;
			for (b = run.lo >> shift; b <= (run.hi - 1) >> shift;
					b++) {
				struct tm_objmap_blk *e =
					&blk[b - (lo >> shift)];

				if (e->lo == TM_OBJMAP_NO_CHUNK) {
					e->lo = m->by_va[k];
					e->vlo = run.v;
				} else {
					e->split = run.lo;
				}
				e->hi = m->by_va[k];
				e->vhi = run.v;
			}
		}
	}
	m->blk_shift = shift;
	m->blk_at = (uintptr_t)blk - (lo >> shift) * sizeof(*blk);
	m->blk_stride = stride;
	m->blk = blk;
	return true;
}

/*
 * Rebuild the block table (see the header); without it (too sparse, or
 * no memory) lookups fall back to a binary search. Index origins per run
 * (a page's objects where pages constrain them, IOVA as PA's chunks of
 * several hugepages), so that a put loads one entry whatever the layout;
 * where runs that short would make the table too large, one entry range
 * per chunk, with origins only if every chunk is one run.
 */
static void
tm_objmap_build_blocks(struct tm_objmap *m)
{
	tm_objmap_bytes(m, -(int64_t)m->blk_bytes);
	m->blk_bytes = 0;
	rte_free(m->blk);
	m->blk = NULL;
	m->blk_stride = 0;
	if (tm_objmap_div_exact(m) && tm_objmap_fill_blocks(m, true, true))
		return;
	tm_objmap_fill_blocks(m, false,
		tm_objmap_div_exact(m) && tm_objmap_stride(m));
}

int
tm_objmap_add(struct tm_objmap *m, const struct tm_chunk *c)
{
	uint32_t i, pos;

	if (m->nb_chunks == m->cap_chunks) {
		uint32_t cap = tm_objmap_grown_cap(m);
		struct tm_chunk *chunks;
		uint32_t *by_va;

		chunks = rte_realloc_socket(m->chunks, cap * sizeof(*chunks),
				RTE_CACHE_LINE_SIZE, m->socket_id);
		if (chunks == NULL)
			return -ENOMEM;
		m->chunks = chunks;
		by_va = rte_realloc_socket(m->by_va, cap * sizeof(*by_va),
				RTE_CACHE_LINE_SIZE, m->socket_id);
		if (by_va == NULL)
			return -ENOMEM;
		m->by_va = by_va;
		tm_objmap_bytes(m, (int64_t)(tm_objmap_tables_bytes(cap) -
			tm_objmap_tables_bytes(m->cap_chunks)));
		m->cap_chunks = cap;
	}

	m->chunks[m->nb_chunks] = *c;
	/* Insertion into the address-sorted permutation. */
	for (pos = m->nb_chunks; pos > 0; pos--) {
		if (m->chunks[m->by_va[pos - 1]].base < c->base)
			break;
	}
	for (i = m->nb_chunks; i > pos; i--)
		m->by_va[i] = m->by_va[i - 1];
	m->by_va[pos] = m->nb_chunks;
	m->nb_objs += c->nb_objs;
	m->nb_chunks++;
	m->c0 = m->chunks[0];
	m->one_p0 = m->c0.page0 + m->header_size;
	m->one_mask = m->c0.pg_mask;
	m->one_shift = m->c0.pg_shift;
	m->one_per_pg = m->c0.per_page;
	m->one_bias = m->c0.per_page - m->c0.k0;
	m->one_off0 = (uint32_t)(m->c0.base - m->c0.page0);
	if (m->nb_chunks > 1)
		tm_objmap_build_blocks(m);
	return 0;
}

const struct tm_chunk *
tm_objmap_chunk_of_idx(const struct tm_objmap *m, uint32_t idx)
{
	uint32_t lo = 0, hi = m->nb_chunks;

	/* Last chunk whose first index is <= idx. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->chunks[mid].first_idx <= idx)
			lo = mid;
		else
			hi = mid;
	}
	return &m->chunks[lo];
}

const struct tm_chunk *
tm_objmap_chunk_of_elt(const struct tm_objmap *m, uintptr_t elt)
{
	uint32_t lo = 0, hi = m->nb_chunks;

	/* Last chunk (by address) whose base is <= elt. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->chunks[m->by_va[mid]].base <= elt)
			lo = mid;
		else
			hi = mid;
	}
	return &m->chunks[m->by_va[lo]];
}

int64_t
tm_objmap_lookup(const struct tm_objmap *m, const void *obj)
{
	uintptr_t elt = (uintptr_t)obj - m->header_size;
	const struct tm_chunk *c;
	uint32_t i;

	if (m->nb_chunks == 0 || (uintptr_t)obj < m->header_size)
		return -1;
	c = tm_objmap_chunk_of_elt(m, elt);
	if (elt < c->base || elt >= c->end)
		return -1;
	i = tm_chunk_idx(m, c, elt);
	if (i >= c->nb_objs || tm_chunk_obj(m, c, i) != obj)
		return -1;
	return (int64_t)c->first_idx + i;
}
