/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_TEST_LEDGER_H
#define TM_TEST_LEDGER_H

/*
 * The oracles of the stress tests (threads, stress, multi-process), in one
 * place: the ownership ledger (a word in every object: FREE or the id of
 * its holder; on get swap FREE -> me, anything else is a duplicate
 * hand-out; before put swap me -> FREE) and the final census (everything
 * back, drained one by one through the driver, every object of the pool
 * exactly once, each FREE, the raw count exact).
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

/** Census result: objects drained and the first errors, printed. */
struct tm_census {
	unsigned int drained;
	unsigned int errors;
};

/**
 * With every object back in the driver (caches flushed first here):
 * drain the pool one object at a time through its ops, check each is an
 * object of the pool (by_serial, if not NULL, holds its address) seen once
 * and FREE by the ledger, then put everything back. Fills c; returns 0 if
 * no error and want objects (0: do not check the number) were drained.
 */
int tm_census(struct rte_mempool *mp, struct tm_test_obj * const *by_serial,
		unsigned int want, struct tm_census *c);

#endif /* TM_TEST_LEDGER_H */
