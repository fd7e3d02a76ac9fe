/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TURBOMEM_OBJMAP_H
#define TURBOMEM_OBJMAP_H

/**
 * @file
 * Object pointer <-> index mapping of a turbomem pool (DPDK glue layer).
 *
 * The core links objects by 32-bit index. Objects sit in memory chunks
 * handed to the populate op. Within a chunk, placement follows the mempool
 * library's rule (rte_mempool_op_populate_helper without flags): objects at
 * a fixed stride, except that when objects must not cross page boundaries
 * (IOVA-contiguous objects, element not larger than the page), each page
 * holds floor(page / stride) objects from its start, and the first page
 * holds what fits after the chunk start. Both directions are therefore a
 * few multiplications (reciprocal division), no table per object.
 *
 * Chunks get consecutive index ranges in populate order. Only object to
 * index is on the fast path (a put names each group by its key's index);
 * the core keeps the pointers it hands out in its nodes, so index to
 * object is for reports only: the chunk of the index (a binary search
 * where there are several), then the placement arithmetic above.
 * With one chunk (the usual case: one memzone) object to index is
 * arithmetic only. With more (IOVA as PA gives one per hugepage;
 * populate_virt/populate_iova of scattered memory gives any number), it
 * stays O(1) whatever the chunk count: a table of address blocks of
 * 2^blk_shift bytes
 *   covering the span of the chunks' object addresses (each chunk moved
 *   up by header_size, so that the object pointer itself, not its
 *   element, indexes it), over runs of objects at one stride: each page's
 *   objects where pages constrain them (IOVA as PA merges physically
 *   contiguous hugepages into chunks of several pages), else each chunk.
 *   blk_shift = log2 of the shortest run rounded down, so that a block
 *   meets at most two runs (a third would have to fit inside it, shorter
 *   than the shortest): an entry holds the lower run's chunk, the upper
 *   one's, the object address where the upper starts and each run's
 *   index origin (see struct tm_objmap_blk). Where runs that short would
 *   exceed TM_OBJMAP_MAX_BLOCKS entries, the runs are the chunks, with
 *   origins only if every chunk lays its objects at one stride.
 *   The table is built at each populate; when the chunks are so scattered
 *   that it would exceed TM_OBJMAP_MAX_BLOCKS entries (or memory runs out)
 *   a binary search over the chunks sorted by address is used instead.
 *
 * Populate must finish before the pool is used concurrently: adding a
 * chunk may move the chunk table.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_reciprocal.h>

struct rte_mempool;

/** Unconstrained layout: a shift that makes every offset "page 0". */
#define TM_OBJMAP_NO_PAGE_SHIFT 63

struct tm_chunk {
	uintptr_t base;		/**< start of the chunk (placement offset 0) */
	uintptr_t end;		/**< base + len */
	uintptr_t page0;	/**< start of the page holding base */
	uint32_t first_idx;	/**< index of the first object */
	uint32_t nb_objs;	/**< objects in the chunk */
	uint32_t k0;		/**< objects before the first page boundary */
	uint32_t per_page;	/**< objects in each further page */
	uint64_t pg_mask;	/**< page size - 1 */
	uint32_t pg_shift;	/**< log2(page), TM_OBJMAP_NO_PAGE_SHIFT if none */
	struct rte_reciprocal rec_per_page;
};

/** Largest block table (32 bytes an entry). */
#define TM_OBJMAP_MAX_BLOCKS (UINT32_C(1) << 20)
#define TM_OBJMAP_NO_CHUNK UINT32_MAX

/**
 * An address block of object pointers: the lower run (of chunk lo) below
 * split, the upper (of chunk hi) from split on. With m->blk_stride, vlo
 * and vhi are the runs' index origins, the run's first object pointer
 * minus its index times total_sz, so that the index of an object obj of
 * this block is (obj - (obj < split ? vlo : vhi)) / total_sz: a
 * one-object put loads this entry and nothing else of the chunk (0 where
 * the block has no such run).
 */
struct tm_objmap_blk {
	uintptr_t split;
	uintptr_t vlo;
	uintptr_t vhi;
	uint32_t lo;
	uint32_t hi;
};

struct tm_objmap {
	uint32_t header_size;	/**< bytes from element start to object */
	uint32_t total_sz;	/**< header + element + trailer */
	/**
	 * ceil(2^64 / total_sz): x / total_sz is the high half of
	 * x * div_magic, exact for every x with x * total_sz < 2^64 (any
	 * offset inside a chunk, see tm_objmap_plan).
	 */
	uint64_t div_magic;
	/*
	 * One chunk (nb_chunks == 1), object to index from the object
	 * address, with d = obj - one_p0 and p = d >> one_shift (the page
	 * of d, 0 for every d where objects may cross pages):
	 * p * one_per_pg - one_bias + d & one_mask / total_sz from the second
	 * page on, (d - one_off0) / total_sz in the first.
	 */
	uintptr_t one_p0;	/**< page0 + header_size */
	uint64_t one_mask;	/**< pg_mask */
	uint32_t one_shift;	/**< pg_shift */
	uint32_t one_per_pg;	/**< per_page */
	uint32_t one_bias;	/**< per_page - k0 */
	uint32_t one_off0;	/**< base - page0 */
	uint32_t nb_objs;	/**< indices handed out so far */
	uint32_t nb_chunks;
	uint32_t cap_chunks;
	int socket_id;		/**< where the tables are allocated */
	struct tm_chunk c0;	/**< copy of chunks[0]: no pointer to chase */
	struct tm_chunk *chunks;	/**< populate order = index order */
	uint32_t *by_va;		/**< chunk numbers sorted by base */
	uint32_t capacity;		/**< objects the pool may hold */
	uint32_t blk_shift;		/**< log2 of a block of blk */
	/**
	 * With the block table, 1 where the entries' vlo and vhi are set:
	 * the table's runs are pages, or chunks that each lay their objects
	 * at one stride (tm_objmap_build_blocks); 0 otherwise.
	 */
	uint32_t blk_stride;
	/**
	 * blk minus the number of its first block, in entries: the entry of
	 * object pointer obj is at blk_at + (obj >> blk_shift) * entry size.
	 */
	uintptr_t blk_at;
	struct tm_objmap_blk *blk;	/**< address blocks, or NULL */
	size_t blk_bytes;		/**< blk's size (the pool's drv_bytes) */
};

/** Initialize for a pool's object geometry (no chunk yet). */
void tm_objmap_init(struct tm_objmap *m, const struct rte_mempool *mp);

/** Free the chunk tables. */
void tm_objmap_fini(struct tm_objmap *m);

/**
 * Describe the chunk [va, va + len) that will hold up to max_objs objects,
 * with page size pg_sz (0: objects may cross pages), as the library's
 * placement rule lays them out. The chunk is not added yet.
 *
 * @return number of objects that fit (0 if none).
 */
uint32_t tm_objmap_plan(const struct tm_objmap *m, struct tm_chunk *c,
		char *va, size_t len, size_t pg_sz, uint32_t max_objs);

/**
 * Add a planned chunk; 0 or -ENOMEM (the chunk tables could not grow to
 * tm_objmap_grown_cap() chunks).
 */
int tm_objmap_add(struct tm_objmap *m, const struct tm_chunk *c);

/** Chunks the tables hold once tm_objmap_add() has grown them. */
static inline uint32_t
tm_objmap_grown_cap(const struct tm_objmap *m)
{
	return m->cap_chunks != 0 ? m->cap_chunks * 2 : 4;
}

/** Bytes of the chunk tables (chunks, by_va) holding cap chunks. */
static inline size_t
tm_objmap_tables_bytes(uint32_t cap)
{
	return (size_t)cap * (sizeof(struct tm_chunk) + sizeof(uint32_t));
}

static inline void *
tm_chunk_obj(const struct tm_objmap *m, const struct tm_chunk *c, uint32_t i)
{
	uintptr_t elt;
	uint32_t j, p;

	if (i < c->k0) {
		elt = c->base + (uintptr_t)i * m->total_sz;
	} else {
		j = i - c->k0;
		p = rte_reciprocal_divide(j, c->rec_per_page);
		elt = c->page0 + ((uintptr_t)(p + 1) << c->pg_shift) +
			(uintptr_t)(j - p * c->per_page) * m->total_sz;
	}
	return (void *)(elt + m->header_size);
}

/*
 * x / total_sz with one 64 x 64 -> 128-bit multiplication (a single mul on
 * x86-64), where rte_reciprocal_divide_u64 emulates it in about 10
 * instructions. With m = ceil(2^64 / d) = (2^64 + e) / d, 0 <= e < d:
 * x * m / 2^64 = x / d + x * e / (d * 2^64), and x * e < x * d < 2^64
 * keeps the error below 1 / d, so the floor is exact.
 */
static inline uint32_t
tm_objmap_div(const struct tm_objmap *m, uint64_t x)
{
	return (uint32_t)(((__uint128_t)x * m->div_magic) >> 64);
}

static inline uint32_t
tm_chunk_idx(const struct tm_objmap *m, const struct tm_chunk *c,
		uintptr_t elt)
{
	uint64_t d = elt - c->page0;
	uint64_t p = d >> c->pg_shift;

	if (p == 0)
		return tm_objmap_div(m, elt - c->base);
	return c->k0 + (uint32_t)(p - 1) * c->per_page +
		tm_objmap_div(m, d & c->pg_mask);
}

const struct tm_chunk *tm_objmap_chunk_of_idx(const struct tm_objmap *m,
		uint32_t idx);
const struct tm_chunk *tm_objmap_chunk_of_elt(const struct tm_objmap *m,
		uintptr_t elt);

/* Object to index of a one-chunk map: arithmetic only. */
static inline uint32_t
tm_objmap_to_idx_one(const void *ctx, const void *obj)
{
	const struct tm_objmap *m = ctx;
	uint64_t d = (uintptr_t)obj - m->one_p0;
	uint64_t p = d >> m->one_shift;

	if (likely(p != 0))
		return (uint32_t)p * m->one_per_pg - m->one_bias +
			tm_objmap_div(m, d & m->one_mask);
	return tm_objmap_div(m, d - m->one_off0);
}

/* The block table's entry of object pointer o. */
static inline struct tm_objmap_blk const *
tm_objmap_blk_of(const struct tm_objmap *m, uintptr_t o)
{
	return (const struct tm_objmap_blk *)(m->blk_at +
		(o >> m->blk_shift) * sizeof(struct tm_objmap_blk));
}

/*
 * Object to index of a map of several chunks with its block table and
 * m->blk_stride set: one load on the object's path, the entry. Nothing
 * else of the map is inlined with it (the ops' put paths of several
 * chunks, which send other maps to the general path, save no register).
 */
static inline uint32_t
tm_objmap_to_idx_stride(const void *ctx, const void *obj)
{
	const struct tm_objmap *m = ctx;
	uintptr_t o = (uintptr_t)obj;
	const struct tm_objmap_blk *b = tm_objmap_blk_of(m, o);
	uintptr_t v = b->vhi;

	/*
	 * A branch, not a cmov: predicted, the origin's load and the
	 * subtraction need not wait for the split's compare (bulk 1 of the
	 * chunks row: 1.24x one chunk with a cmov, 1.05-1.08x with this).
	 */
	if (unlikely(o < b->split))
		v = b->vlo;
	return tm_objmap_div(m, o - v);
}

/* Object to index of a map of several chunks with its block table. */
static inline uint32_t
tm_objmap_to_idx_blk(const void *ctx, const void *obj)
{
	const struct tm_objmap *m = ctx;
	uintptr_t o = (uintptr_t)obj;
	const struct tm_objmap_blk *b;
	const struct tm_chunk *c;
	uint32_t k;

	if (likely(m->blk_stride))
		return tm_objmap_to_idx_stride(ctx, obj);
	b = tm_objmap_blk_of(m, o);
	k = o < b->split ? b->lo : b->hi;
	c = &m->chunks[k];
	return c->first_idx + tm_chunk_idx(m, c, o - m->header_size);
}

static inline uint32_t
tm_objmap_to_idx_direct(const void *ctx, const void *obj)
{
	const struct tm_objmap *m = ctx;

	if (likely(m->nb_chunks == 1))
		return tm_objmap_to_idx_one(ctx, obj);
	return tm_objmap_to_idx_blk(ctx, obj);
}

/**
 * Index to object pointer; idx must be below m->nb_objs. Control path only
 * (reports): the core keeps the pointers it hands out.
 */
static inline void *
tm_objmap_to_obj(const void *ctx, uint32_t idx)
{
	const struct tm_objmap *m = ctx;
	const struct tm_chunk *c = &m->c0;

	if (unlikely(m->nb_chunks != 1))
		c = tm_objmap_chunk_of_idx(m, idx);
	return tm_chunk_obj(m, c, idx - c->first_idx);
}

/** Object pointer to index; obj must come from this pool. */
static inline uint32_t
tm_objmap_to_idx(const void *ctx, const void *obj)
{
	const struct tm_objmap *m = ctx;
	uintptr_t elt = (uintptr_t)obj - m->header_size;
	const struct tm_chunk *c;

	if (likely(m->nb_chunks == 1 || m->blk != NULL))
		return tm_objmap_to_idx_direct(ctx, obj);
	c = tm_objmap_chunk_of_elt(m, elt);
	return c->first_idx + tm_chunk_idx(m, c, elt);
}

/**
 * Index of obj if it is an object of this pool (inside a chunk, on an
 * element boundary), else -1. Slow path: debug checks and tests.
 */
int64_t tm_objmap_lookup(const struct tm_objmap *m, const void *obj);

#endif /* TURBOMEM_OBJMAP_H */
