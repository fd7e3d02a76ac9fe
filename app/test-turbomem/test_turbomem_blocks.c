/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Member blocks parked where no operation runs: every block of a pool in
 * the stashes of idle lcores (tm_lifo.h, "Blocks"), none on the free
 * list, none in this lcore's stash. Puts must then push groups of one
 * and never fail, gets must take them all, and the blocks must add up.
 *
 * | command                         | what it asserts                      |
 * |---------------------------------|--------------------------------------|
 * | turbomem_blocks_parked_autotest | all blocks parked on other lcores:   |
 * |                                 | puts of every object succeed, as     |
 * |                                 | groups of one (no block in a group), |
 * |                                 | count exact, a get of all succeeds   |
 * |                                 | with each object once; stashes +     |
 * |                                 | free list + groups = blocks, before  |
 * |                                 | and after                            |
 * | turbomem_blocks_chunks_autotest | a pool populated from 1000 chunks of |
 * |                                 | 2 objects holds full groups, as one  |
 * |                                 | of a single chunk: as many groups    |
 * |                                 | with a block, half the blocks free   |
 *
 * White-box (turbomem_private.h): the blocks are moved between stashes
 * with the core's own stash calls, as idle lcores would have left them.
 */

#include <errno.h>
#include <inttypes.h>

#include <rte_lcore.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "turbomem_private.h"
#include "test.h"

#define PARKED_N 1024
#define PARKED_BULK 32

static int
test_blocks_parked(void)
{
	static void *objs[PARKED_N], *back[PARKED_N];
	unsigned int i, j, me = rte_lcore_id(), lc = 0;
	struct tm_lifo_stash *mine, *other;
	struct turbomem_pool *tp;
	struct rte_mempool *mp;
	int ret = TEST_SUCCESS;
	uint32_t b;

	mp = tm_test_pool("tm_parked", PARKED_N, 64, 0, TM_OPS, SOCKET_ID_ANY,
			true);
	TEST_ASSERT(mp != NULL, "pool");
	tp = mp->pool_data;
	mine = &tp->stats->lcore[me].stash;
	TEST_CHECK(rte_mempool_get_bulk(mp, objs, PARKED_N) == 0, "get all");
	TEST_CHECK(tm_test_blocks_check(mp) == 0, "blocks lost after the get");
	/* Park every block: this lcore's and the free list's, elsewhere. */
	for (;;) {
		b = tm_lifo_stash_get(tp->lifo, mine);
		if (b == TM_LIFO_NIL)
			break;
		do {
			lc = (lc + 1) % RTE_MAX_LCORE;
		} while (lc == me);
		other = &tp->stats->lcore[lc].stash;
		TEST_CHECK(other->cnt < TM_LIFO_BATCH, "lcore %u's stash full", lc);
		other->blk[other->cnt++] = b;
	}
	TEST_CHECK(mine->cnt == 0 && tm_lifo_blocks_free(tp->lifo) == 0,
		"%u blocks left here, %u free", mine->cnt,
		tm_lifo_blocks_free(tp->lifo));
	TEST_CHECK(tm_test_blocks_check(mp) == 0, "blocks lost while parking");
	for (i = 0; i < PARKED_N; i += PARKED_BULK)
		rte_mempool_put_bulk(mp, &objs[i], PARKED_BULK);
	TEST_CHECK(tm_test_raw_count(mp) == PARKED_N, "count %u, want %u",
		tm_test_raw_count(mp), PARKED_N);
	TEST_CHECK(tm_lifo_blocks_grouped(tp->lifo) == 0,
		"%u groups have a block", tm_lifo_blocks_grouped(tp->lifo));
	TEST_CHECK(rte_mempool_get_bulk(mp, back, PARKED_N) == 0,
		"get of all %u groups of one", PARKED_N);
	for (i = 0; i < PARKED_N; i++) {
		for (j = 0; j < PARKED_N && back[j] != objs[i]; j++)
			;
		TEST_CHECK(j < PARKED_N, "object %u not got back", i);
	}
	TEST_CHECK(rte_mempool_get_bulk(mp, back, 1) == -ENOENT, "a get beyond all");
	rte_mempool_put_bulk(mp, back, PARKED_N);
	TEST_CHECK(tm_test_blocks_check(mp) == 0, "blocks lost after the round");
	printf("parked: %u blocks on idle lcores, %u objects put and got as groups of one\n",
		tp->lifo->nb_blocks, PARKED_N);
out:
	if (mp != NULL)
		rte_mempool_free(mp);
	return ret;
}

TM_TEST_REGISTER(turbomem_blocks_parked_autotest, test_blocks_parked);

#define CHUNKS_N 2047
#define CHUNKS_NB 1000

/*
 * A pool of CHUNKS_N objects populated from nb_chunks pieces of one
 * memzone, 4 KB apart, and the groups with a block it holds at rest.
 */
static int
chunks_groups(unsigned int nb_chunks, unsigned int *grouped,
		unsigned int *nb_free)
{
	const struct rte_memzone *mz = NULL;
	struct rte_mempool *mp;
	unsigned int i, per;
	size_t elt, piece;
	int ret = TEST_SUCCESS;

	mp = tm_test_pool("tm_chunks_groups", CHUNKS_N, 64, 0, TM_OPS,
			SOCKET_ID_ANY, false);
	TEST_ASSERT(mp != NULL, "pool");
	elt = mp->header_size + mp->elt_size + mp->trailer_size;
	per = (CHUNKS_N + nb_chunks - 1) / nb_chunks;
	/* Room for what objects that must not cross pages leave unused. */
	piece = nb_chunks == 1 ? 2 * per * elt : per * elt + 4096;
	mz = rte_memzone_reserve_aligned("tm_chunks_groups", piece * nb_chunks,
			SOCKET_ID_ANY, 0, 4096);
	TEST_CHECK(mz != NULL, "memzone of %zu bytes", piece * nb_chunks);
	for (i = 0; i < nb_chunks && mp->populated_size < CHUNKS_N; i++)
		TEST_CHECK(rte_mempool_populate_iova(mp,
			(char *)mz->addr + i * piece, RTE_BAD_IOVA,
			nb_chunks == 1 ? piece : per * elt, NULL, NULL) > 0,
			"populate chunk %u", i);
	TEST_CHECK(mp->populated_size == CHUNKS_N &&
		tm_test_raw_count(mp) == CHUNKS_N,
		"populated %u, count %u, want %u", mp->populated_size,
		tm_test_raw_count(mp), CHUNKS_N);
	TEST_CHECK(tm_test_blocks_check(mp) == 0, "blocks lost by populate");
	*grouped = tm_lifo_blocks_grouped(((struct turbomem_pool *)
			mp->pool_data)->lifo);
	*nb_free = tm_lifo_blocks_free(((struct turbomem_pool *)
			mp->pool_data)->lifo);
out:
	rte_mempool_free(mp);
	rte_memzone_free(mz);
	return ret;
}

static int
test_blocks_chunks(void)
{
	unsigned int g1, f1, gn, fn;
	/* Full groups: a block for each group but a key alone. */
	const unsigned int want = (CHUNKS_N + TM_LIFO_GROUP - 1) / TM_LIFO_GROUP;

	TEST_ASSERT(chunks_groups(1, &g1, &f1) == TEST_SUCCESS, "1 chunk");
	TEST_ASSERT(chunks_groups(CHUNKS_NB, &gn, &fn) == TEST_SUCCESS,
		"%u chunks", CHUNKS_NB);
	printf("chunks: groups with a block %u (1 chunk) and %u (%u chunks), free blocks %u and %u, want %u groups\n",
		g1, gn, CHUNKS_NB, f1, fn, want);
	TEST_ASSERT(g1 == want && gn == want,
		"groups with a block: %u (1 chunk), %u (%u chunks), want %u",
		g1, gn, CHUNKS_NB, want);
	TEST_ASSERT(fn == f1, "free blocks: %u (%u chunks), %u (1 chunk)", fn,
		CHUNKS_NB, f1);
	return TEST_SUCCESS;
}

TM_TEST_REGISTER(turbomem_blocks_chunks_autotest, test_blocks_chunks);
