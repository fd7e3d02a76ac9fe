/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Multi-process: one turbomem pool in hugepage memory used at once by a
 * primary and several secondaries (same binary, same -d order, so the same
 * ops index). Driven by mp.sh, which also kills one secondary
 * (the "victim") with SIGKILL mid-run.
 *
 * | command                        | role                                  |
 * |--------------------------------|---------------------------------------|
 * | turbomem_mp_primary_autotest   | creates the pool and the shared state |
 * |                                | memzone, stresses the pool until the  |
 * |                                | secondaries are done and the victim   |
 * |                                | is dead, then takes the census        |
 * | turbomem_mp_secondary_autotest | TM_MP_ID (2..8): stresses the pool;   |
 * |                                | with TM_MP_VICTIM=1 it runs until     |
 * |                                | killed, else it also goes on until    |
 * |                                | TM_MP_VICTIM_ID is dead, and after    |
 *
 * Environment of the primary: TM_MP_SECONDARIES (secondaries that finish
 * normally), TM_MP_VICTIM_ID (id of the one that is killed, 0: none).
 *
 * Every process must make progress (gets > 0; a secondary also after the
 * victim died). At the end the secondaries and the primary exhaust the
 * pool together (each takes objects until a get fails; nobody puts): the
 * raw count is 0, a get fails, the ledger shows no free object and the
 * secondaries hold part of it. The driver's statistics, shared through
 * the pool's memory, must sum to the processes' own counts.
 *
 * Oracles: the ownership ledger word in every object (FREE or the id of
 * the process holding it) is in shared memory, so it survives the victim.
 * Each process also publishes, before every get and put, how many objects
 * are in flight (taken off the pool or off the ledger but not yet on the
 * other). At the end the primary requires: no ledger error anywhere;
 * got == put for every process that finished; a drain one by one sees
 * every object at most once, each FREE; no object is held by a process
 * that finished; and the objects missing from the pool are exactly those
 * the victim held: ledger(victim) <= lost <= ledger(victim) + in flight.
 * What a killed process held is gone (DPDK has no owner tracking for pool
 * objects); the structure itself is intact.
 *
 * Held-object tracking is on for the pool (turbomem_track.h, records in
 * shared memory): while the secondaries run, the primary's report must
 * show objects held by a secondary's pid; at the end, the victim's pid
 * must show as a dead process (kill(pid, 0) == ESRCH) holding what the
 * ledger says it held (up to its in-flight objects), and no finished
 * process may hold anything.
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "test.h"
#include "test_ledger.h"

#define MP_POOL "tm_mp_pool"
#define MP_STATE "tm_mp_state"
#define MP_SIZE 4096
#define MP_MAX_PROCS 9
#define MP_BULK 64
#define OWNER_FREE TM_OWNER_FREE

struct mp_proc {
	_Atomic int32_t pid;
	/* 1 once started, 3 hoarding, 4 hoarded, 2 when finished */
	_Atomic uint32_t running;
	_Atomic uint32_t hoard;		/* objects held when the pool ran dry */
	_Atomic uint32_t in_flight;
	_Atomic uint64_t got, put, gets, failed;
	_Atomic uint32_t errors;
};

struct mp_shared {
	_Atomic uint32_t ready;
	_Atomic uint32_t release;	/* primary: hoarders may give back */
	struct mp_proc proc[MP_MAX_PROCS];
};

static unsigned int
env_uint(const char *name, unsigned int def)
{
	const char *s = getenv(name);

	return s != NULL ? (unsigned int)strtoul(s, NULL, 0) : def;
}

static void
mp_error(struct mp_proc *p, const char *what, const struct tm_test_obj *o,
		uint32_t owner)
{
	if (atomic_fetch_add(&p->errors, 1) < 10)
		printf("FAIL: %s: object %u owned by %u\n", what, o->serial,
			owner);
}

/*
 * One round of random gets and puts; held/tab are the caller's. The
 * in-flight count is published before objects leave the pool or the
 * ledger, and cleared after they are accounted for on the other side.
 */
static void
mp_round(struct rte_mempool *mp, struct mp_proc *p, uint32_t me,
		struct tm_test_obj **tab, unsigned int *held, uint64_t *seed,
		unsigned int iterations)
{
	unsigned int it, n, i;

	for (it = 0; it < iterations; it++) {
		if (*held == 0 || (*held + MP_BULK <= 4 * MP_BULK &&
				(tm_test_rand(seed) & 1))) {
			n = 1 + tm_test_rand(seed) % MP_BULK;
			atomic_store(&p->in_flight, n);
			if (rte_mempool_get_bulk(mp, (void **)tab + *held,
					n) != 0) {
				atomic_store(&p->in_flight, 0);
				atomic_fetch_add(&p->failed, 1);
				continue;
			}
			for (i = *held; i < *held + n; i++) {
				uint32_t owner;

				if (!tm_ledger_move(tab[i], OWNER_FREE, me,
						&owner))
					mp_error(p, "got while owned", tab[i],
						owner);
			}
			*held += n;
			atomic_fetch_add(&p->got, n);
			atomic_fetch_add(&p->gets, 1);
			atomic_store(&p->in_flight, 0);
		} else {
			n = 1 + tm_test_rand(seed) % *held;
			*held -= n;
			atomic_store(&p->in_flight, n);
			for (i = *held; i < *held + n; i++) {
				uint32_t owner;

				if (!tm_ledger_move(tab[i], me, OWNER_FREE,
						&owner))
					mp_error(p, "put while owned", tab[i],
						owner);
			}
			rte_mempool_put_bulk(mp, (void **)tab + *held, n);
			atomic_fetch_add(&p->put, n);
			atomic_store(&p->in_flight, 0);
		}
	}
}

static void
mp_return_all(struct rte_mempool *mp, struct mp_proc *p, uint32_t me,
		struct tm_test_obj **tab, unsigned int held)
{
	unsigned int i;

	for (i = 0; i < held; i++) {
		uint32_t owner;

		if (!tm_ledger_move(tab[i], me, OWNER_FREE, &owner))
			mp_error(p, "returned while owned", tab[i], owner);
	}
	rte_mempool_put_bulk(mp, (void **)tab, held);
	atomic_fetch_add(&p->put, held);
}

struct owners {
	unsigned int by[MP_MAX_PROCS + 1];
	unsigned int bad;
};

static void
count_owner(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct owners *w = arg;
	uint32_t o = atomic_load(&((struct tm_test_obj *)obj)->owner);

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	if (o <= MP_MAX_PROCS)
		w->by[o]++;
	else
		w->bad++;
}

typedef int (held_get_t)(const struct rte_mempool *, unsigned int,
		struct rte_pmd_turbomem_held *);

/* The holder entry of process pid in r, or NULL. */
static const struct rte_pmd_turbomem_holder *
pid_holder(const struct rte_pmd_turbomem_held *r, int32_t pid)
{
	uint32_t i;

	for (i = 0; i < r->nb_holders; i++)
		if (r->holders[i].pid == pid &&
				(r->holders[i].kind ==
				RTE_PMD_TURBOMEM_HOLDER_LCORE ||
				r->holders[i].kind ==
				RTE_PMD_TURBOMEM_HOLDER_THREAD))
			return &r->holders[i];
	return NULL;
}

/* A turbomem pool of size objects with held-object tracking on. */
static struct rte_mempool *
mp_tracked_pool(void)
{
	static const struct rte_pmd_turbomem_config cfg = {
		.track = RTE_PMD_TURBOMEM_TRACK_ON,
	};
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(MP_POOL, MP_SIZE, sizeof(struct tm_test_obj),
			0, 0, SOCKET_ID_ANY, 0);
	if (mp == NULL)
		return NULL;
	ret = rte_mempool_set_ops_byname(mp, TM_OPS, (void *)(uintptr_t)&cfg);
	if (ret == 0)
		ret = rte_mempool_populate_default(mp);
	if (ret != MP_SIZE) {
		printf("mp: pool: %d\n", ret);
		rte_mempool_free(mp);
		return NULL;
	}
	return mp;
}

/*
 * Take objects one by one until the pool is empty (nobody puts any more
 * by then): the pool exhausted across processes. Returns how many.
 */
static unsigned int
mp_hoard(struct rte_mempool *mp, struct mp_proc *p, uint32_t me,
		struct tm_test_obj **tab, unsigned int held)
{
	unsigned int start = held;

	for (;;) {
		uint32_t owner;

		atomic_store(&p->in_flight, 1);
		if (rte_mempool_get_bulk(mp, (void **)tab + held, 1) != 0) {
			atomic_store(&p->in_flight, 0);
			atomic_fetch_add(&p->failed, 1);
			break;
		}
		if (!tm_ledger_move(tab[held], OWNER_FREE, me, &owner))
			mp_error(p, "hoarded while owned", tab[held], owner);
		held++;
		atomic_fetch_add(&p->got, 1);
		atomic_fetch_add(&p->gets, 1);
		atomic_store(&p->in_flight, 0);
	}
	atomic_store(&p->hoard, held - start);
	return held;
}

static bool
proc_dead(const struct mp_proc *p)
{
	int32_t pid = atomic_load(&p->pid);

	/* The script reaps the victim, so a dead one is ESRCH, no zombie. */
	return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH;
}

static int
test_mp_primary(void)
{
	unsigned int nb_sec = env_uint("TM_MP_SECONDARIES", 2);
	unsigned int victim = env_uint("TM_MP_VICTIM_ID", 0);
	const struct rte_memzone *mz;
	struct rte_mempool *mp = NULL;
	struct mp_shared *sh;
	struct tm_test_obj **tab = NULL, *o;
	struct tm_census c;
	struct owners w = { 0 };
	uint64_t seed, deadline;
	unsigned int held = 0, i, done, drained = 0, lost, rounds = 0;
	int missing;
	uint32_t in_flight = 0, vif, seen_sec = 0;
	uint64_t sum_gets = 0, sum_got = 0, sum_put = 0, sum_failed = 0;
	struct rte_pmd_turbomem_stats st;
	held_get_t *held_get = (held_get_t *)tm_test_plugin_sym(
			"rte_pmd_turbomem_held_get");
	struct rte_pmd_turbomem_held *rep = malloc(sizeof(*rep));
	const struct rte_pmd_turbomem_holder *vh;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(rte_eal_process_type() == RTE_PROC_PRIMARY,
		"must run as the primary");
	TEST_ASSERT(victim < MP_MAX_PROCS, "TM_MP_VICTIM_ID %u above %d",
		victim, MP_MAX_PROCS - 1);
	mz = rte_memzone_reserve(MP_STATE, sizeof(*sh), SOCKET_ID_ANY, 0);
	TEST_ASSERT(mz != NULL, "state memzone: %s", rte_strerror(rte_errno));
	sh = mz->addr;
	memset(sh, 0, sizeof(*sh));
	TEST_CHECK(held_get != NULL && rep != NULL,
		"rte_pmd_turbomem_held_get not found in the plugin");
	mp = mp_tracked_pool();
	TEST_CHECK(mp != NULL, "pool creation failed");
	rte_mempool_obj_iter(mp, tm_ledger_init, NULL);
	tab = calloc(MP_SIZE, sizeof(*tab));
	TEST_CHECK(tab != NULL, "no memory");
	seed = (uint64_t)time(NULL) | 1;
	printf("mp: seed %" PRIu64 "\n", seed);
	atomic_store(&sh->proc[1].pid, getpid());
	atomic_store(&sh->proc[1].running, 1);
	/* Release: pool and state complete before secondaries use them. */
	atomic_store_explicit(&sh->ready, 1, memory_order_release);
	printf("mp: primary ready: pool %s, %u objects, waiting for %u secondaries%s\n",
		MP_POOL, MP_SIZE, nb_sec, victim != 0 ? " and a victim" : "");
	fflush(stdout);

	/* Stress until every secondary hoards and the victim is dead. */
	deadline = rte_get_timer_cycles() + 120 * rte_get_timer_hz();
	for (;;) {
		mp_round(mp, &sh->proc[1], 1, tab, &held, &seed, 1000);
		/* The secondaries' holdings, seen from the primary. */
		if ((++rounds & 7) == 0 && held_get(mp, 0, rep) == 0)
			for (i = 2; i < MP_MAX_PROCS; i++) {
				int32_t pid = atomic_load(&sh->proc[i].pid);

				vh = pid > 0 && atomic_load(&sh->proc[i].running)
					== 1 ? pid_holder(rep, pid) : NULL;
				if (vh != NULL && vh->count > 0 && !vh->dead &&
						vh->id == i)
					seen_sec |= 1u << i;
			}
		for (i = 2, done = 0; i < MP_MAX_PROCS; i++) {
			done += atomic_load(&sh->proc[i].running) >= 3;
			/* A secondary that failed: no need to wait for it. */
			TEST_CHECK(i == victim || atomic_load(&sh->proc[i].running) == 0 ||
				atomic_load(&sh->proc[i].running) >= 3 ||
				!proc_dead(&sh->proc[i]),
				"secondary %u exited before the end", i);
		}
		if (done == nb_sec && (victim == 0 ||
				proc_dead(&sh->proc[victim])))
			break;
		TEST_CHECK(rte_get_timer_cycles() < deadline,
			"timeout: %u of %u secondaries hoarding, victim %s", done,
			nb_sec, victim == 0 ? "none" :
			proc_dead(&sh->proc[victim]) ? "dead" : "alive");
	}
	/* The pool exhausted across processes: nobody puts any more. */
	held = mp_hoard(mp, &sh->proc[1], 1, tab, held);
	for (;;) {
		for (i = 2, done = 0; i < MP_MAX_PROCS; i++)
			done += atomic_load(&sh->proc[i].running) == 4;
		if (done == nb_sec)
			break;
		TEST_CHECK(rte_get_timer_cycles() < deadline,
			"timeout: %u of %u secondaries hoarded", done, nb_sec);
		usleep(1000);
	}
	rte_mempool_obj_iter(mp, count_owner, &w);
	printf("mp: pool exhausted: count %u; held by process:", tm_test_raw_count(mp));
	for (i = 1; i < MP_MAX_PROCS; i++)
		if (w.by[i] != 0)
			printf(" %u: %u%s", i, w.by[i], i == victim ? " (killed)" : "");
	printf("\n");
	/*
	 * Free by the ledger but out of the pool, and counted but not
	 * there: only the victim's in flight (a get or put between its
	 * commit and its count).
	 */
	vif = victim != 0 ? atomic_load(&sh->proc[victim].in_flight) : 0;
	TEST_CHECK(tm_test_raw_count(mp) <= vif,
		"count %u with every process hoarding, the victim had %u in flight",
		tm_test_raw_count(mp), vif);
	TEST_CHECK(rte_mempool_get_bulk(mp, (void **)&o, 1) != 0,
		"a get succeeded from an exhausted pool");
	atomic_fetch_add(&sh->proc[1].failed, 1);
	TEST_CHECK(w.by[OWNER_FREE] <= vif && w.bad == 0,
		"%u objects free by the ledger in an empty pool (victim had %u in flight; %u corrupt)",
		w.by[OWNER_FREE], vif, w.bad);
	for (i = 2, lost = 0; i < MP_MAX_PROCS; i++)
		lost += i != victim ? w.by[i] : 0;
	TEST_CHECK(lost > 0, "the secondaries hold nothing of the exhausted pool");
	memset(&w, 0, sizeof(w));
	atomic_store(&sh->release, 1);
	for (;;) {
		for (i = 2, done = 0; i < MP_MAX_PROCS; i++)
			done += atomic_load(&sh->proc[i].running) == 2;
		if (done == nb_sec)
			break;
		TEST_CHECK(rte_get_timer_cycles() < deadline,
			"timeout: %u of %u secondaries done", done, nb_sec);
		usleep(1000);
	}
	mp_return_all(mp, &sh->proc[1], 1, tab, held);
	atomic_store(&sh->proc[1].running, 2);

	for (i = 1; i < MP_MAX_PROCS; i++) {
		struct mp_proc *p = &sh->proc[i];

		if (atomic_load(&p->running) == 0)
			continue;
		printf("mp: process %u (pid %d)%s: %" PRIu64 " gets, got %" PRIu64 " put %" PRIu64 ", %" PRIu64 " failed gets, %u ledger errors\n",
			i, atomic_load(&p->pid), i == victim ? " [killed]" : "",
			atomic_load(&p->gets), atomic_load(&p->got),
			atomic_load(&p->put), atomic_load(&p->failed),
			atomic_load(&p->errors));
		TEST_CHECK(atomic_load(&p->errors) == 0,
			"process %u: ledger errors", i);
		/* A process whose every get fails conserves trivially. */
		TEST_CHECK(atomic_load(&p->gets) > 0,
			"process %u made no get (%" PRIu64 " failed)", i,
			atomic_load(&p->failed));
		if (i != victim)
			TEST_CHECK(atomic_load(&p->got) ==
				atomic_load(&p->put),
				"process %u: conservation", i);
		sum_gets += atomic_load(&p->gets);
		sum_got += atomic_load(&p->got);
		sum_put += atomic_load(&p->put);
		sum_failed += atomic_load(&p->failed);
	}
	/*
	 * The driver's statistics are shared: their sums are the processes'
	 * own counts (the victim may have been killed between a get and its
	 * count: up to one call and its in-flight objects more).
	 */
	TEST_CHECK(tm_test_stats(mp, &st) == 0, "stats_get");
	printf("mp: driver statistics: gets %" PRIu64 "/%" PRIu64 " fails %" PRIu64 " puts %" PRIu64 "/%" PRIu64 "; processes: gets %" PRIu64 "/%" PRIu64 " fails %" PRIu64 " put %" PRIu64 "\n",
		st.get_calls, st.get_objs, st.get_fails, st.put_calls,
		st.put_objs, sum_gets, sum_got, sum_failed, sum_put);
	vif = victim != 0 ? atomic_load(&sh->proc[victim].in_flight) : 0;
	TEST_CHECK(st.get_calls >= sum_gets && st.get_calls <= sum_gets + (vif != 0),
		"get_calls %" PRIu64 ", processes made %" PRIu64, st.get_calls,
		sum_gets);
	TEST_CHECK(st.get_objs >= sum_got && st.get_objs <= sum_got + vif,
		"get_objs %" PRIu64 ", processes got %" PRIu64, st.get_objs,
		sum_got);
	TEST_CHECK(st.get_fails >= sum_failed && st.get_fails <= sum_failed + 1,
		"get_fails %" PRIu64 ", processes saw %" PRIu64, st.get_fails,
		sum_failed);
	TEST_CHECK(st.put_objs >= sum_put && st.put_objs <= sum_put + vif,
		"put_objs %" PRIu64 ", processes put %" PRIu64, st.put_objs,
		sum_put);
	if (victim != 0) {
		TEST_CHECK(atomic_load(&sh->proc[victim].running) != 0,
			"the victim never ran");
		in_flight = atomic_load(&sh->proc[victim].in_flight);
	}

	/* The tracking report against the ledger, before the census. */
	rte_mempool_obj_iter(mp, count_owner, &w);
	TEST_CHECK(held_get(mp, 0, rep) == 0, "held_get");
	printf("mp: report: %u in use, %u unknown; secondaries seen holding objects while running: mask 0x%x\n",
		rep->in_use, rep->unknown, seen_sec);
	TEST_CHECK(seen_sec != 0,
		"no secondary's holdings showed in the primary's report");
	for (i = 1; i < MP_MAX_PROCS; i++) {
		int32_t pid = atomic_load(&sh->proc[i].pid);

		if (i == victim || pid <= 0)
			continue;
		vh = pid_holder(rep, pid);
		TEST_CHECK(vh == NULL, "process %u (pid %d) finished but the report says it holds %u",
			i, pid, vh->count);
	}
	if (victim != 0) {
		int32_t pid = atomic_load(&sh->proc[victim].pid);
		unsigned int cnt;

		vh = pid_holder(rep, pid);
		cnt = vh != NULL ? vh->count : 0;
		printf("mp: report: the killed secondary (pid %d) holds %u by the report, %u by the ledger (+%u in flight)%s\n",
			pid, cnt, w.by[victim], in_flight,
			vh != NULL && vh->dead ? ", dead process" : "");
		TEST_CHECK(w.by[victim] <= cnt &&
			cnt <= w.by[victim] + in_flight,
			"report %u vs ledger %u (+%u)", cnt, w.by[victim],
			in_flight);
		TEST_CHECK(cnt == 0 || (vh->dead == 1 && vh->id == victim),
			"the victim's holder: dead %u, lcore %u",
			vh->dead, vh->id);
		TEST_CHECK(rep->unknown <= in_flight, "%u unknown, %u in flight",
			rep->unknown, in_flight);
	}
	memset(&w, 0, sizeof(w));

	/* Census: drain, every object at most once and free. */
	TEST_CHECK(tm_test_raw_count(mp) <= MP_SIZE, "count %u",
		tm_test_raw_count(mp));
	TEST_CHECK(tm_census(mp, true, 0, &c) == 0, "census: %u errors",
		c.errors);
	drained = c.drained;
	rte_mempool_obj_iter(mp, count_owner, &w);
	lost = MP_SIZE - drained;
	for (i = 1; i < MP_MAX_PROCS; i++)
		TEST_CHECK(i == victim || w.by[i] == 0,
			"process %u finished but holds %u objects", i,
			w.by[i]);
	TEST_CHECK(w.bad == 0, "%u objects with a corrupt owner", w.bad);
	printf("mp: census: %u of %u objects back, %u lost; the victim held %u by the ledger, %u in flight when killed\n",
		drained, MP_SIZE, lost, w.by[victim], in_flight);
	TEST_CHECK(w.by[victim] <= lost && lost <= w.by[victim] + in_flight,
		"lost %u, victim held %u (+%u in flight)", lost,
		w.by[victim], in_flight);
	TEST_CHECK(victim != 0 || lost == 0, "lost %u without a victim",
		lost);
	/* The count misses at most the victim's bulk (commit, then count). */
	TEST_CHECK(c.left <= in_flight && c.refilled + in_flight >= drained &&
		c.refilled <= drained + in_flight &&
		(victim != 0 || (c.left == 0 && c.refilled == drained)),
		"count %u once drained, %u once %u put back; the victim had %u in flight",
		c.left, c.refilled, drained, in_flight);

	/* What is left still works as a pool. */
	TEST_CHECK(drained == 0 || rte_mempool_get_bulk(mp, (void **)tab,
		drained) == 0, "get of all %u left failed", drained);
	rte_mempool_put_bulk(mp, (void **)tab, drained);
	/*
	 * Blocks: the victim's lcore stash stays in shared memory for the
	 * next process on its lcore id; only those in its hands (the groups
	 * a get took whole, between its commit and its stash) are lost.
	 */
	missing = tm_test_blocks_missing(mp);
	printf("mp: blocks: %d lost with the victim\n", missing);
	TEST_CHECK(missing >= 0 && missing <= (victim != 0 ? MP_BULK / 32 + 1 : 0),
		"%d blocks lost, at most %d in the victim's hands", missing,
		victim != 0 ? MP_BULK / 32 + 1 : 0);
	if (victim != 0)
		printf("mp: the killed secondary's %u objects are gone from the pool (the tracking report names their dead holder); the other %u are all accounted for\n",
			lost, drained);
out:
	/* Let the secondaries go whatever happened. */
	atomic_store(&sh->release, 1);
	free(rep);
	free(tab);
	rte_mempool_free(mp);
	rte_memzone_free(mz);
	return ret;
}
TM_TEST_REGISTER(turbomem_mp_primary_autotest, test_mp_primary);

static int
test_mp_secondary(void)
{
	unsigned int me = env_uint("TM_MP_ID", 0);
	bool victim = env_uint("TM_MP_VICTIM", 0) != 0;
	unsigned int other = victim ? 0 : env_uint("TM_MP_VICTIM_ID", 0);
	uint64_t after;
	unsigned int rounds = tm_test_iters(200), r, held = 0;
	const struct rte_memzone *mz = NULL;
	struct rte_mempool *mp;
	struct mp_shared *sh;
	struct tm_test_obj **tab;
	uint64_t seed = ((uint64_t)time(NULL) + me * 7919) | 1;
	uint64_t deadline = rte_get_timer_cycles() + 30 * rte_get_timer_hz();

	TEST_ASSERT(rte_eal_process_type() == RTE_PROC_SECONDARY,
		"must run as a secondary");
	TEST_ASSERT(me >= 2 && me < MP_MAX_PROCS, "TM_MP_ID %u outside [2, %d]",
		me, MP_MAX_PROCS - 1);
	TEST_ASSERT(other < MP_MAX_PROCS, "TM_MP_VICTIM_ID %u above %d",
		other, MP_MAX_PROCS - 1);
	while ((mz = rte_memzone_lookup(MP_STATE)) == NULL ||
			/* Acquire pairs with the primary's release of ready. */
			atomic_load_explicit(&((struct mp_shared *)
				mz->addr)->ready, memory_order_acquire) == 0) {
		TEST_ASSERT(rte_get_timer_cycles() < deadline,
			"no primary state after 30 s");
		usleep(1000);
	}
	sh = mz->addr;
	mp = rte_mempool_lookup(MP_POOL);
	TEST_ASSERT(mp != NULL, "pool %s not found", MP_POOL);
	TEST_ASSERT(strcmp(rte_mempool_get_ops(mp->ops_index)->name,
		TM_OPS) == 0, "ops index %d is %s here: -d order differs",
		mp->ops_index, rte_mempool_get_ops(mp->ops_index)->name);
	tab = calloc(MP_SIZE, sizeof(*tab));
	TEST_ASSERT(tab != NULL, "no memory");
	atomic_store(&sh->proc[me].pid, getpid());
	atomic_store(&sh->proc[me].running, 1);
	printf("mp: secondary %u (pid %d)%s running\n", me, getpid(),
		victim ? ", victim," : "");
	fflush(stdout);
	for (r = 0; victim || r < rounds; r++)
		mp_round(mp, &sh->proc[me], me, tab, &held, &seed, 100);
	/* Go on until the victim is dead, then as long again: after it. */
	deadline = rte_get_timer_cycles() + 60 * rte_get_timer_hz();
	while (other != 0 && !proc_dead(&sh->proc[other])) {
		mp_round(mp, &sh->proc[me], me, tab, &held, &seed, 100);
		TEST_ASSERT(rte_get_timer_cycles() < deadline,
			"victim %u still alive after 60 s", other);
	}
	after = atomic_load(&sh->proc[me].gets);
	for (r = 0; other != 0 && r < rounds; r++)
		mp_round(mp, &sh->proc[me], me, tab, &held, &seed, 100);
	TEST_ASSERT(other == 0 || atomic_load(&sh->proc[me].gets) > after,
		"secondary %u made no get after the victim died", me);
	/* Exhaust the pool with the others, hold it until released. */
	atomic_store(&sh->proc[me].running, 3);
	held = mp_hoard(mp, &sh->proc[me], me, tab, held);
	printf("mp: secondary %u holds %u objects of the exhausted pool\n", me,
		held);
	fflush(stdout);
	atomic_store(&sh->proc[me].running, 4);
	deadline = rte_get_timer_cycles() + 60 * rte_get_timer_hz();
	while (atomic_load(&sh->release) == 0) {
		TEST_ASSERT(rte_get_timer_cycles() < deadline,
			"not released after 60 s");
		usleep(1000);
	}
	mp_return_all(mp, &sh->proc[me], me, tab, held);
	printf("mp: secondary %u: %" PRIu64 " gets (%" PRIu64 " after the victim died), got %" PRIu64 " put %" PRIu64 "\n",
		me, atomic_load(&sh->proc[me].gets),
		atomic_load(&sh->proc[me].gets) - after,
		atomic_load(&sh->proc[me].got),
		atomic_load(&sh->proc[me].put));
	atomic_store(&sh->proc[me].running, 2);
	free(tab);
	return atomic_load(&sh->proc[me].errors) == 0 ? TEST_SUCCESS :
		TEST_FAILED;
}
TM_TEST_REGISTER(turbomem_mp_secondary_autotest, test_mp_secondary);
