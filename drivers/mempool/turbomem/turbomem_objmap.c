/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "turbomem_objmap.h"

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
	rte_free(m->chunks);
	rte_free(m->by_va);
	rte_free(m->obj_of);
	rte_free(m->blk);
	m->obj_of = NULL;
	m->blk = NULL;
	m->blk_stride = 0;
	m->chunks = NULL;
	m->by_va = NULL;
	m->nb_chunks = 0;
	m->cap_chunks = 0;
	m->one_per_page = 0;
	m->direct = 0;
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
 * Whether the entries may carry index origins (m->blk_stride): every chunk
 * lays its objects at one stride from its base (no page boundary inside:
 * no page constraint, or all objects before the first boundary) and
 * (obj - origin) / total_sz, below nb_objs * total_sz, stays exact
 * (tm_objmap_div).
 */
static uint32_t
tm_objmap_stride(const struct tm_objmap *m)
{
	uint32_t i;

	if ((uint64_t)m->nb_objs * m->total_sz >= UINT64_MAX / m->total_sz)
		return 0;
	for (i = 0; i < m->nb_chunks; i++) {
		const struct tm_chunk *c = &m->chunks[i];

		if (c->pg_shift != TM_OBJMAP_NO_PAGE_SHIFT &&
				c->k0 < c->nb_objs)
			return 0;
	}
	return 1;
}

/*
 * Rebuild the block table over every chunk (see the header); without it
 * (too sparse, or no memory) lookups fall back to a binary search. The
 * blocks cover object addresses, each chunk moved up by header_size.
 */
static void
tm_objmap_build_blocks(struct tm_objmap *m)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, min_len = UINTPTR_MAX, b, nb;
	uintptr_t hdr = m->header_size;
	struct tm_objmap_blk *blk;
	uint32_t i, k, shift, stride;

	rte_free(m->blk);
	m->blk = NULL;
	m->blk_stride = 0;
	for (i = 0; i < m->nb_chunks; i++) {
		const struct tm_chunk *c = &m->chunks[i];

		lo = RTE_MIN(lo, c->base + hdr);
		hi = RTE_MAX(hi, c->end + hdr);
		min_len = RTE_MIN(min_len, c->end - c->base);
	}
	shift = rte_fls_u64(min_len) - 1; /* min_len >= one element */
	nb = ((hi - 1) >> shift) - (lo >> shift) + 1;
	if (nb > TM_OBJMAP_MAX_BLOCKS)
		return;
	blk = rte_malloc_socket("turbomem_objmap", nb * sizeof(*blk),
			RTE_CACHE_LINE_SIZE, m->socket_id);
	if (blk == NULL)
		return;
	for (b = 0; b < nb; b++)
		blk[b] = (struct tm_objmap_blk){ 0, 0, 0, TM_OBJMAP_NO_CHUNK,
			TM_OBJMAP_NO_CHUNK };
	stride = tm_objmap_stride(m);
	/* In address order: a block's second chunk is its upper one. */
	for (k = 0; k < m->nb_chunks; k++) {
		const struct tm_chunk *c = &m->chunks[m->by_va[k]];
		uintptr_t v = stride ? c->base + hdr -
			(uintptr_t)c->first_idx * m->total_sz : 0;

		for (b = (c->base + hdr) >> shift;
				b <= (c->end + hdr - 1) >> shift; b++) {
			struct tm_objmap_blk *e = &blk[b - (lo >> shift)];

			if (e->lo == TM_OBJMAP_NO_CHUNK) {
				e->lo = m->by_va[k];
				e->vlo = v;
			} else {
				e->split = c->base + hdr;
			}
			e->hi = m->by_va[k];
			e->vhi = v;
		}
	}
	m->blk_shift = shift;
	m->blk_at = (uintptr_t)blk - (lo >> shift) * sizeof(*blk);
	m->blk_stride = stride;
	m->blk = blk;
}

int
tm_objmap_add(struct tm_objmap *m, const struct tm_chunk *c)
{
	uint32_t i, k, pos;

	if (m->nb_chunks == m->cap_chunks) {
		uint32_t cap = m->cap_chunks ? m->cap_chunks * 2 : 4;
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
	m->one_per_page = m->nb_chunks == 1 && c->per_page == 1 &&
		c->pg_shift != TM_OBJMAP_NO_PAGE_SHIFT;
	m->one_p0 = m->c0.page0 + m->header_size;
	m->one_mask = m->c0.pg_mask;
	m->one_shift = m->c0.pg_shift;
	m->one_per_pg = m->c0.per_page;
	m->one_bias = m->c0.per_page - m->c0.k0;
	m->one_off0 = (uint32_t)(m->c0.base - m->c0.page0);
	/* Used with one_per_page only (k0 is then 0 or 1). */
	m->one_objp = m->c0.page0 + m->header_size +
		((uintptr_t)(1 - m->c0.k0) << m->c0.pg_shift);
	m->one_obj0 = m->c0.base + m->header_size;
	/* No table (no memory): the arithmetic and binary search instead. */
	if (m->obj_of == NULL && m->nb_chunks == 1)
		m->obj_of = rte_malloc_socket("turbomem_objmap",
				(size_t)m->capacity * sizeof(void *),
				RTE_CACHE_LINE_SIZE, m->socket_id);
	if (m->obj_of != NULL) {
		k = m->nb_chunks - 1;
		for (i = 0; i < m->chunks[k].nb_objs; i++)
			m->obj_of[m->chunks[k].first_idx + i] =
				tm_chunk_obj(m, &m->chunks[k], i);
	}
	if (m->nb_chunks > 1)
		tm_objmap_build_blocks(m);
	m->direct = (m->nb_chunks == 1 || m->blk != NULL) &&
		(m->one_per_page || m->obj_of != NULL);
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
