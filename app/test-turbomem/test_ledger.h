/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_LEDGER_H
#define TM_TEST_LEDGER_H

/*
 * The oracles of the driver tests, in one place: the set of a pool's
 * objects (which addresses belong to the pool, which were seen), the
 * ownership ledger of the stress tests (a word in every object: FREE or
 * the id of its holder; on get swap FREE -> me, anything else is a
 * duplicate hand-out; before put swap me -> FREE) and the final census
 * (everything back, drained one by one through the driver, every object
 * of the pool exactly once, each FREE by the ledger where there is one,
 * the raw count exact).
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#define TM_OWNER_FREE 0u

/** The element of the pools the oracles check. */
struct tm_test_obj {
	_Atomic uint32_t owner;
	uint32_t serial;	/**< index in rte_mempool_obj_iter() order */
	uint64_t payload;	/**< written by holders (races show) */
};

/**
 * rte_mempool_obj_iter() callback: FREE, serial i, payload 0; arg, if not
 * NULL, is a table of mp->size pointers filled by serial.
 */
void tm_ledger_init(struct rte_mempool *mp, void *arg, void *obj,
		unsigned int i);

/**
 * Move o from owner from to owner to (compare-and-swap); false if it was
 * not from's, with the owner found in *found.
 */
static inline bool
tm_ledger_move(struct tm_test_obj *o, uint32_t from, uint32_t to,
		uint32_t *found)
{
	*found = from;
	return atomic_compare_exchange_strong(&o->owner, found, to);
}

/**
 * Every object of a pool, as rte_mempool_obj_iter() lists them, sorted by
 * address: which objects belong to the pool and which were seen.
 */
struct tm_objset {
	void **objs;
	uint8_t *seen;		/**< per object of objs */
	unsigned int nb;
};

/** Fill s with the objects of mp; 0, or -1 without memory. */
int tm_objset_init(struct tm_objset *s, struct rte_mempool *mp);

/** Free what tm_objset_init() allocated (s zeroed: nothing). */
void tm_objset_fini(struct tm_objset *s);

/** Forget the objects seen. */
void tm_objset_clear(struct tm_objset *s);

/**
 * Mark obj seen: 0, or -1 (with one line printed) if it is not an object
 * of the pool or was seen before.
 */
int tm_objset_mark(struct tm_objset *s, const void *obj);

/** Census result: objects drained and the first errors, printed. */
struct tm_census {
	unsigned int drained;
	unsigned int errors;
	/** The driver's count once drained, then once refilled: 0 and drained
	 * unless a killed process left it off. */
	unsigned int left, refilled;
};

/**
 * With every object back in the driver (caches flushed first here):
 * drain the pool one object at a time through its ops, check each is an
 * object of the pool seen once and, with ledger (the elements are struct
 * tm_test_obj), FREE by the ledger; then put everything back. Fills c;
 * returns 0 if no error and want objects (0: do not check the number,
 * nor the count once drained and refilled: c->left, c->refilled) were
 * drained.
 */
int tm_census(struct rte_mempool *mp, bool ledger, unsigned int want,
		struct tm_census *c);

#endif /* TM_TEST_LEDGER_H */
