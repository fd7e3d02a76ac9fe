/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Held-object tracking (turbomem_track.h) through its public API.
 *
 * | command                        | what it asserts                        |
 * |--------------------------------|----------------------------------------|
 * | turbomem_track_autotest        | off by default; per pool config; exact |
 * |                                | holders: lcore 0, lcores 1-2, an       |
 * |                                | unregistered thread (its tid); objects |
 * |                                | got before the switch are "unknown";   |
 * |                                | a switch makes every holder unknown;   |
 * |                                | oldest list points at held objects;    |
 * |                                | cache contents are cache-held, not in  |
 * |                                | use; the low-water log line comes once |
 * |                                | per crossing naming the holder; bad    |
 * |                                | input -EINVAL (needs lcores 0-2)       |
 * | turbomem_track_env_autotest    | TURBOMEM_CONFIG=track=on (--expect=on) |
 * |                                | or a bad track value (--expect=bad)    |
 * | turbomem_track_toggle_autotest | lcores 1-3 and an unregistered thread  |
 * |                                | get/put under an ownership ledger      |
 * |                                | while lcore 0 switches tracking on and |
 * |                                | off and takes reports: no ledger error,|
 * |                                | every object back exactly once, then   |
 * |                                | exact holders once quiesced            |
 * | turbomem_held_leak_autotest    | the leak scenario of held.sh:          |
 * |                                | [--leak] [--stop FILE] [--seconds S]   |
 *
 * The plugin is loaded with -d: the public functions are looked up in it.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_pmd_turbomem.h"
#include "test.h"

typedef int (held_get_t)(const struct rte_mempool *, unsigned int,
		struct rte_pmd_turbomem_held *);
typedef int (track_set_t)(struct rte_mempool *, int);
typedef int (threshold_set_t)(struct rte_mempool *, unsigned int);

static held_get_t *held_get;
static track_set_t *track_set;
static threshold_set_t *threshold_set;

/* The tracking API of the plugin EAL loaded (-d). */
static int
track_api(void)
{
	held_get = (held_get_t *)tm_test_plugin_sym("rte_pmd_turbomem_held_get");
	track_set = (track_set_t *)tm_test_plugin_sym("rte_pmd_turbomem_track_set");
	threshold_set = (threshold_set_t *)tm_test_plugin_sym(
			"rte_pmd_turbomem_track_threshold_set");
	return held_get != NULL && track_set != NULL &&
		threshold_set != NULL ? 0 : -1;
}

/* A populated turbomem pool made with cfg (NULL: defaults). */
static struct rte_mempool *
track_pool(const char *name, unsigned int n, unsigned int elt,
		unsigned int cache, const struct rte_pmd_turbomem_config *cfg)
{
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(name, n, elt, cache, 0, SOCKET_ID_ANY,
			0);
	if (mp == NULL)
		return NULL;
	ret = rte_mempool_set_ops_byname(mp, TM_OPS, (void *)(uintptr_t)cfg);
	if (ret == 0)
		ret = rte_mempool_populate_default(mp);
	if (ret < 0 || (ret >= 0 && (unsigned int)ret != n)) {
		printf("pool %s: populate gave %d\n", name, ret);
		rte_mempool_free(mp);
		return NULL;
	}
	return mp;
}

/* The holder of kind/id in r (pid: this process), or NULL. */
static const struct rte_pmd_turbomem_holder *
holder(const struct rte_pmd_turbomem_held *r,
		enum rte_pmd_turbomem_holder_kind kind, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < r->nb_holders; i++)
		if (r->holders[i].kind == kind &&
				(kind == RTE_PMD_TURBOMEM_HOLDER_UNKNOWN ||
				r->holders[i].id == id))
			return &r->holders[i];
	return NULL;
}

static unsigned int
held_by(const struct rte_pmd_turbomem_held *r,
		enum rte_pmd_turbomem_holder_kind kind, uint32_t id)
{
	const struct rte_pmd_turbomem_holder *h = holder(r, kind, id);

	return h != NULL ? h->count : 0;
}

/* --- turbomem_track_autotest ------------------------------------------ */

struct holder_job {
	struct rte_mempool *mp;
	unsigned int n;
	void *objs[64];
	int tid;
	atomic_int phase;	/* 1: get, 2: got, 3: put, 4: done */
};

static void
job_run(struct holder_job *j)
{
	j->tid = (int)gettid();
	while (atomic_load(&j->phase) != 1)
		rte_pause();
	if (rte_mempool_get_bulk(j->mp, j->objs, j->n) != 0)
		j->n = 0;
	atomic_store(&j->phase, 2);
	while (atomic_load(&j->phase) != 3)
		rte_pause();
	rte_mempool_put_bulk(j->mp, j->objs, j->n);
	atomic_store(&j->phase, 4);
}

static int
job_lcore(void *arg)
{
	job_run(arg);
	return 0;
}

static void *
job_thread(void *arg)
{
	job_run(arg);
	return NULL;
}

static void
jobs_wait(struct holder_job *j, unsigned int nb, int phase)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		while (atomic_load(&j[i].phase) != phase)
			rte_pause();
}

static void
jobs_set(struct holder_job *j, unsigned int nb, int phase)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		atomic_store(&j[i].phase, phase);
}

static int
test_track_bad_input(struct rte_mempool *mp, struct rte_pmd_turbomem_held *r)
{
	struct rte_pmd_turbomem_config bad = { .track = 7 };
	struct rte_mempool *ring, *badmp = NULL;
	int ret = TEST_SUCCESS;

	ring = rte_mempool_create("tm_trk_ring", 63, 64, 0, 0, NULL, NULL,
			NULL, NULL, SOCKET_ID_ANY, 0);
	TEST_ASSERT(ring != NULL, "ring pool");
	TEST_CHECK(held_get(NULL, 0, r) == -EINVAL, "NULL pool");
	TEST_CHECK(held_get(ring, 0, r) == -EINVAL, "ring pool");
	TEST_CHECK(held_get(mp, 0, NULL) == -EINVAL, "NULL report");
	TEST_CHECK(held_get(mp, RTE_PMD_TURBOMEM_HELD_MAX_OLDEST + 1, r) ==
		-EINVAL, "nb_oldest above the maximum");
	TEST_CHECK(track_set(NULL, 1) == -EINVAL, "track_set NULL");
	TEST_CHECK(track_set(ring, 1) == -EINVAL, "track_set ring pool");
	TEST_CHECK(track_set(mp, 2) == -EINVAL, "track_set 2");
	TEST_CHECK(track_set(mp, -1) == -EINVAL, "track_set -1");
	TEST_CHECK(threshold_set(ring, 1) == -EINVAL, "threshold ring pool");
	TEST_CHECK(threshold_set(mp, mp->size + 1) == -EINVAL,
		"threshold above the size");
	/* A bad track value in the configuration fails the pool. */
	badmp = track_pool("tm_trk_bad", 63, 64, 0, &bad);
	TEST_CHECK(badmp == NULL, "track=7 accepted");
out:
	rte_mempool_free(badmp);
	rte_mempool_free(ring);
	return ret;
}

static int
test_track(void)
{
	struct rte_pmd_turbomem_config on = { .track = RTE_PMD_TURBOMEM_TRACK_ON };
	struct rte_pmd_turbomem_held *r = malloc(sizeof(*r));
	struct holder_job *jobs = calloc(3, sizeof(*jobs));
	struct rte_mempool *mp = NULL, *mpc = NULL, *mpon = NULL;
	const struct rte_pmd_turbomem_holder *h;
	void *before[10], *mine[5], *objs[200], *one;
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf = NULL;
	pthread_t tid;
	bool started = false;
	unsigned int i, j, lc[2], n;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(r != NULL && jobs != NULL, "no memory");
	TEST_CHECK(track_api() == 0, "tracking API not found in the plugin");
	TEST_CHECK(rte_lcore_count() >= 3, "needs lcores 0-2");
	mp = track_pool("tm_trk", 1023, 64, 0, NULL);
	TEST_CHECK(mp != NULL, "pool");
	TEST_CHECK(test_track_bad_input(mp, r) == TEST_SUCCESS, "bad input");

	/* Off by default: nothing known, everything out is unknown. */
	TEST_CHECK(rte_mempool_get_bulk(mp, before, 10) == 0, "get 10");
	TEST_CHECK(held_get(mp, 0, r) == 0, "held_get");
	TEST_CHECK(r->tracking == 0 && r->size == 1023 && r->in_use == 10 &&
		r->unknown == 10 && r->free_count == 1013 &&
		r->low_water == UINT32_MAX,
		"off: tracking %u size %u in_use %u unknown %u free %u lw %u",
		r->tracking, r->size, r->in_use, r->unknown, r->free_count,
		r->low_water);

	/* On while 10 are out: those stay unknown, new gets are known. */
	TEST_CHECK(track_set(mp, 1) == 0, "track on");
	TEST_CHECK(rte_mempool_get_bulk(mp, mine, 5) == 0, "get 5");
	jobs[0].mp = jobs[1].mp = jobs[2].mp = mp;
	jobs[0].n = 4;
	jobs[1].n = 6;
	jobs[2].n = 7;
	i = 0;
	RTE_LCORE_FOREACH_WORKER(j) {
		if (i == 2)
			break;
		lc[i] = j;
		TEST_CHECK(rte_eal_remote_launch(job_lcore, &jobs[i], j) == 0,
			"launch on lcore %u", j);
		i++;
	}
	TEST_CHECK(pthread_create(&tid, NULL, job_thread, &jobs[2]) == 0,
		"pthread_create");
	started = true;
	jobs_set(jobs, 3, 1);
	jobs_wait(jobs, 3, 2);
	rte_delay_us_block(2000);
	TEST_CHECK(held_get(mp, 8, r) == 0, "held_get");
	TEST_CHECK(r->tracking == 1 && r->in_use == 32 && r->unknown == 10 &&
		r->cache_count == 0,
		"on: tracking %u in_use %u (want 32) unknown %u (want 10) cache %u",
		r->tracking, r->in_use, r->unknown, r->cache_count);
	TEST_CHECK(held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE,
		rte_lcore_id()) == 5, "lcore 0 holds %u, want 5",
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, rte_lcore_id()));
	TEST_CHECK(held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc[0]) == 4 &&
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc[1]) == 6,
		"lcores %u/%u hold %u/%u, want 4/6", lc[0], lc[1],
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc[0]),
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc[1]));
	h = holder(r, RTE_PMD_TURBOMEM_HOLDER_THREAD, (uint32_t)jobs[2].tid);
	TEST_CHECK(h != NULL && h->count == 7 && h->pid == getpid() &&
		h->dead == 0, "thread %d: holder %s count %u pid %d",
		jobs[2].tid, h != NULL ? "found" : "missing",
		h != NULL ? h->count : 0, h != NULL ? h->pid : 0);
	h = holder(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc[1]);
	TEST_CHECK(r->holders[0].kind == RTE_PMD_TURBOMEM_HOLDER_UNKNOWN &&
		r->holders[0].count == 10 && r->nb_holders == 5 &&
		r->nb_holders_total == 5,
		"holders: first kind %d count %u, %u of %u",
		r->holders[0].kind, r->holders[0].count, r->nb_holders,
		r->nb_holders_total);
	TEST_CHECK(h->age_p50_us <= h->age_p90_us &&
		h->age_p90_us <= h->age_max_us && h->age_max_us >= 2000 &&
		h->age_max_us < 60 * 1000000ULL,
		"ages p50 %" PRIu64 " p90 %" PRIu64 " max %" PRIu64 " us",
		h->age_p50_us, h->age_p90_us, h->age_max_us);
	/* The oldest: 8 objects held by someone, ages not increasing. */
	TEST_CHECK(r->nb_oldest == 8, "nb_oldest %u", r->nb_oldest);
	for (i = 0; i < r->nb_oldest; i++) {
		const struct rte_pmd_turbomem_held_obj *o = &r->oldest[i];
		bool found = false;

		for (j = 0; j < 5; j++)
			found |= mine[j] == o->obj;
		for (j = 0; j < 3; j++)
			for (n = 0; n < jobs[j].n; n++)
				found |= jobs[j].objs[n] == o->obj;
		TEST_CHECK(found, "oldest %u: %p (index %u) is not held", i,
			o->obj, o->index);
		TEST_CHECK(i == 0 || o->age_us <= r->oldest[i - 1].age_us,
			"oldest not sorted at %u", i);
	}
	/* The first gets were lcore 0's: the oldest is one of them. */
	TEST_CHECK(r->oldest[0].kind == RTE_PMD_TURBOMEM_HOLDER_LCORE &&
		r->oldest[0].id == rte_lcore_id(), "oldest held by %d/%u",
		r->oldest[0].kind, r->oldest[0].id);

	/* A new epoch: everything out becomes unknown, nothing is lost. */
	TEST_CHECK(track_set(mp, 0) == 0 && track_set(mp, 1) == 0, "switch");
	TEST_CHECK(held_get(mp, 0, r) == 0, "held_get");
	TEST_CHECK(r->in_use == 32 && r->unknown == 32 && r->nb_holders == 1,
		"after a switch: in_use %u unknown %u holders %u", r->in_use,
		r->unknown, r->nb_holders);
	jobs_set(jobs, 3, 3);
	jobs_wait(jobs, 3, 4);
	rte_mempool_put_bulk(mp, mine, 5);
	rte_mempool_put_bulk(mp, before, 10);
	TEST_CHECK(held_get(mp, 4, r) == 0, "held_get");
	TEST_CHECK(r->in_use == 0 && r->unknown == 0 && r->nb_holders == 0 &&
		r->nb_oldest == 0 && r->free_count == 1023,
		"all back: in_use %u unknown %u holders %u oldest %u free %u",
		r->in_use, r->unknown, r->nb_holders, r->nb_oldest,
		r->free_count);

	/* Low water and the threshold log: once per crossing. */
	logf = open_memstream(&logbuf, &loglen);
	TEST_CHECK(logf != NULL, "open_memstream");
	TEST_CHECK(threshold_set(mp, 1000) == 0, "threshold");
	rte_openlog_stream(logf);
	for (i = 0; i < 3; i++) {
		/* 30 out: crosses 1000 once (1023 - 30 < 1000). */
		TEST_CHECK(rte_mempool_get_bulk(mp, objs, 10) == 0 &&
			rte_mempool_get_bulk(mp, objs + 10, 10) == 0 &&
			rte_mempool_get_bulk(mp, objs + 20, 10) == 0, "get 30");
		rte_mempool_put_bulk(mp, objs, 30);
	}
	rte_openlog_stream(NULL);
	fclose(logf);
	logf = NULL;
	printf("log: %s", logbuf);
	for (n = 0, one = logbuf; (one = strstr(one, "low-water")) != NULL;
			one = (char *)one + 1)
		n++;
	TEST_CHECK(n == 3, "%u low-water lines for 3 crossings", n);
	TEST_CHECK(strstr(logbuf, "top holders: lcore 0") != NULL,
		"the log line does not name lcore 0");
	TEST_CHECK(held_get(mp, 0, r) == 0 && r->low_water == 1023 - 32 &&
		r->threshold == 1000, "low water %u, want %u; threshold %u",
		r->low_water, 1023 - 32, r->threshold);
	/* Objects got and put back while tracking is on leave no record. */
	TEST_CHECK(r->in_use == 0 && r->nb_holders == 0 && r->nb_oldest == 0,
		"all put back: in_use %u, %u holders (first: kind %d count %u)",
		r->in_use, r->nb_holders, r->holders[0].kind,
		r->holders[0].count);

	/* A cache: its objects are cache-held, not in use. */
	mpc = track_pool("tm_trk_cache", 1023, 64, 32, &on);
	TEST_CHECK(mpc != NULL, "cache pool");
	TEST_CHECK(rte_mempool_get(mpc, &one) == 0, "get 1");
	rte_mempool_put(mpc, one);
	TEST_CHECK(rte_mempool_get_bulk(mpc, objs, 3) == 0, "get 3");
	TEST_CHECK(held_get(mpc, 0, r) == 0, "held_get");
	n = rte_mempool_default_cache(mpc, rte_lcore_id())->len;
	TEST_CHECK(r->tracking == 1 && r->cache_count == n && n > 0 &&
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_CACHE, rte_lcore_id()) == n &&
		r->in_use == 3 && r->unknown == 0 &&
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, rte_lcore_id()) == 3,
		"cache %u (len %u) in_use %u unknown %u lcore %u",
		r->cache_count, n, r->in_use, r->unknown,
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, rte_lcore_id()));
	rte_mempool_put_bulk(mpc, objs, 3);
	rte_mempool_cache_flush(NULL, mpc);
	TEST_CHECK(held_get(mpc, 0, r) == 0 && r->in_use == 0 &&
		r->cache_count == 0 && r->free_count == 1023 &&
		r->nb_holders == 0,
		"after a flush: in_use %u cache %u free %u holders %u",
		r->in_use, r->cache_count, r->free_count, r->nb_holders);

	/* Configured on: on from the first get, off by default elsewhere. */
	mpon = track_pool("tm_trk_on", 63, 64, 0, &on);
	TEST_CHECK(mpon != NULL && held_get(mpon, 0, r) == 0 &&
		r->tracking == 1, "config track=on: tracking %u",
		r->tracking);
out:
	if (logf != NULL) {
		rte_openlog_stream(NULL);
		fclose(logf);
	}
	if (started) {
		jobs_set(jobs, 3, 3);
		rte_eal_mp_wait_lcore();
		pthread_join(tid, NULL);
	}
	free(logbuf);
	rte_mempool_free(mpon);
	rte_mempool_free(mpc);
	rte_mempool_free(mp);
	free(jobs);
	free(r);
	return ret;
}
TM_TEST_REGISTER(turbomem_track_autotest, test_track);

/* --- turbomem_track_env_autotest --------------------------------------- */

static int
test_track_env(void)
{
	struct rte_pmd_turbomem_config off = { .track = RTE_PMD_TURBOMEM_TRACK_OFF };
	const char *expect = tm_test_argc > 0 ? tm_test_argv[0] : "";
	struct rte_pmd_turbomem_held r;
	struct rte_mempool *mp = NULL, *mpoff = NULL;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(track_api() == 0, "tracking API not found in the plugin");
	mp = track_pool("tm_trk_env", 63, 64, 0, NULL);
	if (strcmp(expect, "--expect=bad") == 0) {
		TEST_CHECK(mp == NULL, "a bad TURBOMEM_CONFIG was accepted");
		goto out;
	}
	TEST_CHECK(strcmp(expect, "--expect=on") == 0, "usage: --expect=on|bad");
	TEST_CHECK(mp != NULL && held_get(mp, 0, &r) == 0 && r.tracking == 1,
		"TURBOMEM_CONFIG=track=on: tracking %u", r.tracking);
	/* The pool's own configuration wins. */
	mpoff = track_pool("tm_trk_env_off", 63, 64, 0, &off);
	TEST_CHECK(mpoff != NULL && held_get(mpoff, 0, &r) == 0 &&
		r.tracking == 0, "config track=off: tracking %u", r.tracking);
out:
	rte_mempool_free(mpoff);
	rte_mempool_free(mp);
	return ret;
}
TM_TEST_REGISTER(turbomem_track_env_autotest, test_track_env);

/* --- turbomem_track_toggle_autotest ------------------------------------ */

#define TOG_SIZE 2047
#define TOG_HOLD 64
#define TOG_QUIET_K 5
#define TOG_MAX_WORKERS 8

struct tog_obj {
	_Atomic uint32_t owner;	/* 0: in the pool; else worker id */
	uint32_t serial;
};

struct tog_worker {
	struct rte_mempool *mp;
	uint32_t me;
	uint64_t seed;
	atomic_int *stop;
	atomic_int quiet;	/* 1: hold K and wait; 2: held; 3: go on */
	int tid;
	uint64_t got, put;
	unsigned int errors;
	struct tog_obj *held[TOG_HOLD];
};

static void
tog_error(struct tog_worker *w, const char *what, struct tog_obj *o,
		uint32_t owner)
{
	if (w->errors++ < 5)
		printf("FAIL: worker %u: %s object %u (owner %u)\n", w->me,
			what, o->serial, owner);
}

static void
tog_put(struct tog_worker *w, unsigned int *held, unsigned int n)
{
	unsigned int i;

	*held -= n;
	for (i = *held; i < *held + n; i++) {
		uint32_t owner = w->me;

		if (!atomic_compare_exchange_strong(&w->held[i]->owner, &owner,
				0))
			tog_error(w, "put of", w->held[i], owner);
	}
	rte_mempool_put_bulk(w->mp, (void **)w->held + *held, n);
	w->put += n;
}

static int
tog_get(struct tog_worker *w, unsigned int *held, unsigned int n)
{
	unsigned int i;

	if (rte_mempool_get_bulk(w->mp, (void **)w->held + *held, n) != 0)
		return -1;
	for (i = *held; i < *held + n; i++) {
		uint32_t owner = 0;

		if (!atomic_compare_exchange_strong(&w->held[i]->owner, &owner,
				w->me))
			tog_error(w, "got", w->held[i], owner);
	}
	*held += n;
	w->got += n;
	return 0;
}

static void
tog_run(struct tog_worker *w)
{
	unsigned int held = 0, n;

	w->tid = (int)gettid();
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		if (atomic_load(&w->quiet) == 1) {
			/* Empty the cache: the held ones then came from a get now. */
			if (held != 0)
				tog_put(w, &held, held);
			rte_mempool_cache_flush(NULL, w->mp);
			while (tog_get(w, &held, TOG_QUIET_K) != 0)
				rte_pause();
			atomic_store(&w->quiet, 2);
			while (atomic_load(&w->quiet) == 2)
				rte_pause();
		}
		n = 1 + tm_test_rand(&w->seed) % 16;
		if (held + n <= TOG_HOLD && (held == 0 ||
				(tm_test_rand(&w->seed) & 1))) {
			if (tog_get(w, &held, n) != 0)
				rte_pause();
		} else if (held != 0) {
			tog_put(w, &held, 1 + tm_test_rand(&w->seed) % held);
		}
	}
	if (held != 0)
		tog_put(w, &held, held);
}

static int
tog_lcore(void *arg)
{
	tog_run(arg);
	return 0;
}

static void *
tog_thread(void *arg)
{
	tog_run(arg);
	return NULL;
}

static void
tog_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct tog_obj *o = obj;

	RTE_SET_USED(mp);
	RTE_SET_USED(arg);
	atomic_init(&o->owner, 0);
	o->serial = i;
}

static int
test_track_toggle(void)
{
	struct rte_pmd_turbomem_held *r = malloc(sizeof(*r));
	struct tog_worker *w = calloc(TOG_MAX_WORKERS, sizeof(*w));
	uint8_t *seen = calloc(TOG_SIZE, 1);
	struct rte_mempool *mp = NULL;
	atomic_int stop = 0;
	uint64_t seed = tm_test_seed(), end, switches = 0, reports = 0;
	unsigned int nb = 0, i, lc, drained = 0, cached;
	struct tog_obj *o;
	pthread_t tid;
	bool thread = false;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(r != NULL && w != NULL && seen != NULL, "no memory");
	TEST_CHECK(track_api() == 0, "tracking API not found in the plugin");
	mp = track_pool("tm_trk_toggle", TOG_SIZE, sizeof(struct tog_obj), 16,
			NULL);
	TEST_CHECK(mp != NULL, "pool");
	rte_mempool_obj_iter(mp, tog_init, NULL);
	RTE_LCORE_FOREACH_WORKER(lc) {
		if (nb == TOG_MAX_WORKERS - 1)
			break;
		w[nb] = (struct tog_worker){ .mp = mp, .me = nb + 1,
			.seed = seed + 7919 * (nb + 1), .stop = &stop };
		TEST_CHECK(rte_eal_remote_launch(tog_lcore, &w[nb], lc) == 0,
			"launch");
		nb++;
	}
	w[nb] = (struct tog_worker){ .mp = mp, .me = nb + 1,
		.seed = seed + 7919 * (nb + 1), .stop = &stop };
	TEST_CHECK(pthread_create(&tid, NULL, tog_thread, &w[nb]) == 0,
		"pthread_create");
	thread = true;
	nb++;

	end = rte_get_timer_cycles() + rte_get_timer_hz() *
		tm_test_iters(2);
	while (rte_get_timer_cycles() < end) {
		TEST_CHECK(track_set(mp, (int)(switches & 1) ^ 1) == 0,
			"switch");
		switches++;
		if ((switches & 15) == 0) {
			TEST_CHECK(held_get(mp, 4, r) == 0, "held_get");
			/*
			 * Cache and free counts are read a moment apart while
			 * objects move (rte_pmd_turbomem_held): each is within
			 * the pool, their sum need not be.
			 */
			TEST_CHECK(r->free_count <= TOG_SIZE &&
				r->cache_count <= TOG_SIZE &&
				r->in_use <= TOG_SIZE && r->unknown <= r->in_use,
				"report: in_use %u cache %u free %u unknown %u",
				r->in_use, r->cache_count, r->free_count,
				r->unknown);
			reports++;
		}
		rte_delay_us_block(50);
	}

	/* Quiesce, tracking on: each worker holds exactly K, got now. */
	TEST_CHECK(track_set(mp, 1) == 0, "track on");
	for (i = 0; i < nb; i++)
		atomic_store(&w[i].quiet, 1);
	for (i = 0; i < nb; i++)
		while (atomic_load(&w[i].quiet) != 2)
			rte_pause();
	TEST_CHECK(held_get(mp, 0, r) == 0, "held_get");
	for (i = 0, cached = 0; i < RTE_MAX_LCORE; i++)
		cached += held_by(r, RTE_PMD_TURBOMEM_HOLDER_CACHE, i);
	printf("toggle: %" PRIu64 " switches, %" PRIu64 " reports; quiesced: in_use %u unknown %u cache %u\n",
		switches, reports, r->in_use, r->unknown, r->cache_count);
	TEST_CHECK(r->in_use == nb * TOG_QUIET_K && r->unknown == 0 &&
		cached == r->cache_count,
		"quiesced: in_use %u (want %u) unknown %u", r->in_use,
		nb * TOG_QUIET_K, r->unknown);
	i = 0;
	RTE_LCORE_FOREACH_WORKER(lc) {
		if (i == nb - 1)
			break;
		TEST_CHECK(held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc) ==
			TOG_QUIET_K, "lcore %u holds %u, want %u", lc,
			held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, lc),
			TOG_QUIET_K);
		i++;
	}
	TEST_CHECK(held_by(r, RTE_PMD_TURBOMEM_HOLDER_THREAD,
		(uint32_t)w[nb - 1].tid) == TOG_QUIET_K,
		"thread %d holds %u, want %u", w[nb - 1].tid,
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_THREAD,
			(uint32_t)w[nb - 1].tid), TOG_QUIET_K);
	for (i = 0; i < nb; i++)
		atomic_store(&w[i].quiet, 3);

	atomic_store(&stop, 1);
	rte_eal_mp_wait_lcore();
	pthread_join(tid, NULL);
	thread = false;
	for (i = 0; i < nb; i++) {
		TEST_CHECK(w[i].errors == 0 && w[i].got == w[i].put,
			"worker %u: %u ledger errors, got %" PRIu64 " put %" PRIu64,
			w[i].me, w[i].errors, w[i].got, w[i].put);
	}
	/* Census: every object back exactly once, none owned. */
	rte_mempool_cache_flush(NULL, mp);
	for (lc = 0; lc < RTE_MAX_LCORE; lc++)
		rte_mempool_cache_flush(rte_mempool_default_cache(mp, lc), mp);
	while (rte_mempool_ops_dequeue_bulk(mp, (void **)&o, 1) == 0) {
		TEST_CHECK(o->serial < TOG_SIZE && !seen[o->serial]++,
			"object %u twice or foreign", o->serial);
		TEST_CHECK(atomic_load(&o->owner) == 0,
			"object %u in the pool but owned by %u", o->serial,
			atomic_load(&o->owner));
		drained++;
	}
	TEST_CHECK(drained == TOG_SIZE, "%u of %u objects back", drained,
		TOG_SIZE);
out:
	atomic_store(&stop, 1);
	for (i = 0; i < nb; i++)
		atomic_store(&w[i].quiet, 3);
	rte_eal_mp_wait_lcore();
	if (thread)
		pthread_join(tid, NULL);
	rte_mempool_free(mp);
	free(seen);
	free(w);
	free(r);
	return ret;
}
TM_TEST_REGISTER(turbomem_track_toggle_autotest, test_track_toggle);

/* --- turbomem_held_leak_autotest --------------------------------------- */

/*
 * The leak scenario of held.sh: an mbuf pool (cache 64) on
 * turbomem with tracking on (TURBOMEM_CONFIG=track=on); lcore 0 and the
 * first worker lcore allocate and free bursts of 32 mbufs. With --leak the
 * worker keeps 1 mbuf in 1000. It runs until --stop FILE exists (or
 * --seconds, default 60), then checks its own report: the worker holds
 * exactly what it leaked, nobody else holds anything; the low-water
 * threshold was crossed only with the leak.
 */
#define LEAK_POOL "tm_held_mbufs"
#define LEAK_SIZE 8191
#define LEAK_CACHE 64
#define LEAK_BURST 32
#define LEAK_EVERY 1000
#define LEAK_MAX 3000
/*
 * Below what 2 lcores take without a leak: a cache holds at most 1.5 x 64
 * once a put has flushed it, plus a burst in hand each.
 */
#define LEAK_THRESHOLD (LEAK_SIZE - 320)

struct leak_lcore {
	struct rte_mempool *mp;
	bool leak;
	atomic_int *stop;
	uint64_t allocs;
	unsigned int leaked;
	struct rte_mbuf *kept[LEAK_MAX];
};

static int
leak_run(void *arg)
{
	struct leak_lcore *l = arg;
	struct rte_mbuf *m[LEAK_BURST];
	unsigned int i;

	while (!atomic_load_explicit(l->stop, memory_order_relaxed)) {
		if (rte_pktmbuf_alloc_bulk(l->mp, m, LEAK_BURST) != 0) {
			rte_delay_us_block(100);
			continue;
		}
		for (i = 0; i < LEAK_BURST; i++) {
			if (l->leak && ++l->allocs % LEAK_EVERY == 0 &&
					l->leaked < LEAK_MAX)
				l->kept[l->leaked++] = m[i];
			else
				rte_pktmbuf_free(m[i]);
		}
		rte_delay_us_block(100);
	}
	return 0;
}

static const char *
leak_opt(const char *name)
{
	int i;

	for (i = 0; i < tm_test_argc; i++)
		if (strcmp(tm_test_argv[i], name) == 0)
			return i + 1 < tm_test_argc ? tm_test_argv[i + 1] : "";
	return NULL;
}

static int
test_held_leak(void)
{
	const char *stop_file = leak_opt("--stop");
	const char *secs = leak_opt("--seconds");
	bool leak = leak_opt("--leak") != NULL;
	struct rte_pmd_turbomem_held *r = malloc(sizeof(*r));
	struct leak_lcore *w = calloc(1, sizeof(*w));
	struct rte_mempool *mp = NULL;
	uint64_t end, next_check;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), i, others = 0;
	struct stat st;
	atomic_int stop = 0;
	bool launched = false;
	int ret = TEST_SUCCESS;

	TEST_ASSERT(r != NULL && w != NULL, "no memory");
	TEST_CHECK(track_api() == 0, "tracking API not found in the plugin");
	TEST_CHECK(worker < RTE_MAX_LCORE, "needs a worker lcore (-l 0-1)");
	mp = rte_pktmbuf_pool_create_by_ops(LEAK_POOL, LEAK_SIZE, LEAK_CACHE,
			0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY, TM_OPS);
	TEST_CHECK(mp != NULL, "mbuf pool: %s", rte_strerror(rte_errno));
	TEST_CHECK(held_get(mp, 0, r) == 0 && r->tracking == 1,
		"tracking is off: run with TURBOMEM_CONFIG=track=on");
	TEST_CHECK(threshold_set(mp, LEAK_THRESHOLD) == 0, "threshold");
	*w = (struct leak_lcore){ .mp = mp, .leak = leak, .stop = &stop };
	TEST_CHECK(rte_eal_remote_launch(leak_run, w, worker) == 0, "launch");
	launched = true;
	printf("held: ready: pool %s, %u mbufs, cache %u, lcore %u %s\n",
		LEAK_POOL, LEAK_SIZE, LEAK_CACHE, worker,
		leak ? "leaks 1 mbuf in 1000" : "frees every mbuf");
	fflush(stdout);

	/* lcore 0: the same traffic, no leak, watching for the stop file. */
	{
		struct leak_lcore self = { .mp = mp, .stop = &stop };
		struct rte_mbuf *m[LEAK_BURST];
		uint64_t hz = rte_get_timer_hz();

		end = rte_get_timer_cycles() + hz * (secs != NULL ?
			strtoul(secs, NULL, 0) : 60);
		next_check = 0;
		while (rte_get_timer_cycles() < end) {
			if (rte_get_timer_cycles() >= next_check) {
				if (stop_file != NULL &&
						stat(stop_file, &st) == 0)
					break;
				next_check = rte_get_timer_cycles() + hz / 20;
			}
			if (rte_pktmbuf_alloc_bulk(self.mp, m, LEAK_BURST) == 0)
				for (i = 0; i < LEAK_BURST; i++)
					rte_pktmbuf_free(m[i]);
			rte_delay_us_block(100);
		}
	}
	atomic_store(&stop, 1);
	rte_eal_mp_wait_lcore();
	launched = false;

	TEST_CHECK(held_get(mp, 5, r) == 0, "held_get");
	for (i = 0; i < r->nb_holders; i++)
		if (r->holders[i].kind != RTE_PMD_TURBOMEM_HOLDER_CACHE &&
				!(r->holders[i].kind ==
				RTE_PMD_TURBOMEM_HOLDER_LCORE &&
				r->holders[i].id == worker))
			others += r->holders[i].count;
	printf("held: stopped: lcore %u leaked %u; report: in_use %u, lcore %u holds %u, others %u, unknown %u, in caches %u, free %u, low water %u (threshold %u)\n",
		worker, w->leaked, r->in_use, worker,
		held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, worker), others,
		r->unknown, r->cache_count, r->free_count, r->low_water,
		r->threshold);
	TEST_CHECK(held_by(r, RTE_PMD_TURBOMEM_HOLDER_LCORE, worker) ==
		w->leaked && r->in_use == w->leaked && others == 0 &&
		r->unknown == 0, "the report does not match the leak");
	TEST_CHECK(leak ? w->leaked > 0 && r->low_water < LEAK_THRESHOLD :
		r->low_water >= LEAK_THRESHOLD,
		"leak %d: leaked %u, low water %u, threshold %u", leak,
		w->leaked, r->low_water, LEAK_THRESHOLD);
	for (i = 0; i < r->nb_oldest; i++)
		TEST_CHECK(r->oldest[i].kind == RTE_PMD_TURBOMEM_HOLDER_LCORE &&
			r->oldest[i].id == worker, "oldest %u held by %u", i,
			r->oldest[i].id);
out:
	atomic_store(&stop, 1);
	if (launched)
		rte_eal_mp_wait_lcore();
	if (w != NULL)
		for (i = 0; i < w->leaked; i++)
			rte_pktmbuf_free(w->kept[i]);
	rte_mempool_free(mp);
	free(w);
	free(r);
	return ret;
}
TM_TEST_REGISTER(turbomem_held_leak_autotest, test_held_leak);
