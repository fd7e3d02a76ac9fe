/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * Held-object tracking (turbomem_track.h): the records the fast path
 * writes, the switch, the low-water threshold and the report behind
 * rte_pmd_turbomem_held_get() and /turbomem/held.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eal_export.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_string_fns.h>

#include "turbomem_track.h"

/* getpid() is a system call since glibc 2.25: read once per process. */
static uint32_t tm_track_pid;

RTE_INIT(turbomem_track_pid_init)
{
	tm_track_pid = (uint32_t)getpid();
}

/* The objmap index of an object the driver handed out or takes back. */
static inline uint32_t
tm_track_idx(const struct turbomem_pool *tp, const void *obj)
{
	return tm_objmap_to_idx(&tp->map, obj);
}

/* The calling thread's tag for epoch (holder id, pid, epoch). */
static inline uint64_t
tm_track_tag(uint32_t epoch)
{
	unsigned int lc = rte_lcore_id();
	uint64_t id = lc < RTE_MAX_LCORE ? lc :
		(((uint64_t)rte_gettid() & (TM_TRACK_THREAD - 1)) |
		 TM_TRACK_THREAD);

	return id | (uint64_t)tm_track_pid << TM_TRACK_PID_SHIFT |
		(uint64_t)epoch << TM_TRACK_EPOCH_SHIFT;
}

static inline uint32_t
tm_tag_epoch(uint64_t tag)
{
	return (uint32_t)(tag >> TM_TRACK_EPOCH_SHIFT);
}

/* The holder part of a tag (no epoch): equal for the same holder. */
static inline uint64_t
tm_tag_holder(uint64_t tag)
{
	return tag & ((UINT64_C(1) << TM_TRACK_EPOCH_SHIFT) - 1);
}

static void
tm_holder_of(uint64_t key, enum rte_pmd_turbomem_holder_kind *kind,
		uint32_t *id, int32_t *pid, uint32_t *dead)
{
	*kind = (key & TM_TRACK_THREAD) ? RTE_PMD_TURBOMEM_HOLDER_THREAD :
		RTE_PMD_TURBOMEM_HOLDER_LCORE;
	*id = (uint32_t)(key & (TM_TRACK_THREAD - 1));
	*pid = (int32_t)((key >> TM_TRACK_PID_SHIFT) &
			((UINT64_C(1) << TM_TRACK_ID_BITS) - 1));
	*dead = *pid > 0 && kill(*pid, 0) != 0 && errno == ESRCH;
}

static void tm_track_log_crossing(struct rte_mempool *mp,
		struct turbomem_pool *tp, uint32_t count, uint32_t threshold);

int
turbomem_track_get(struct turbomem_pool *tp, void * const *objs,
		unsigned int n, int ret)
{
	uint32_t epoch = turbomem_track_epoch(tp);
	/* Relaxed: the epoch's acquire ordered the allocation before. */
	struct turbomem_track *t = rte_atomic_load_explicit(&tp->track,
			rte_memory_order_relaxed);
	uint32_t count, lw, thr;
	uint64_t tag, now;
	unsigned int i;

	/* A refused get took nothing; a switch-off raced with this call. */
	if (ret < 0)
		return ret;
	if (epoch == 0)
		return 0;
	tag = tm_track_tag(epoch);
	now = rte_rdtsc();
	for (i = 0; i < n; i++) {
		struct turbomem_track_rec *r = &t->rec[tm_track_idx(tp, objs[i])];

		/*
		 * Relaxed: the LIFO pop (acquire) ordered the previous put's
		 * clear before these stores; readers tolerate a torn pair.
		 */
		rte_atomic_store_explicit(&r->tsc, now,
				rte_memory_order_relaxed);
		rte_atomic_store_explicit(&r->tag, tag,
				rte_memory_order_relaxed);
	}

	count = turbomem_count(tp);
	/* Relaxed: statistics, ordering nothing else; a lost race retries. */
	lw = rte_atomic_load_explicit(&t->low_water, rte_memory_order_relaxed);
	while (count < lw && !rte_atomic_compare_exchange_weak_explicit(
			&t->low_water, &lw, count, rte_memory_order_relaxed,
			rte_memory_order_relaxed))
		;
	thr = rte_atomic_load_explicit(&t->threshold,
			rte_memory_order_relaxed);
	if (unlikely(count < thr)) {
		uint32_t was = 0;

		/* Relaxed: one logger per crossing is all this decides. */
		if (rte_atomic_load_explicit(&t->below,
				rte_memory_order_relaxed) == 0 &&
				rte_atomic_compare_exchange_strong_explicit(
				&t->below, &was, 1, rte_memory_order_relaxed,
				rte_memory_order_relaxed))
			tm_track_log_crossing(t->mp, tp, count, thr);
	}
	return 0;
}

void
turbomem_track_put(struct rte_mempool *mp, struct turbomem_pool *tp,
		void * const *objs, unsigned int n)
{
	/* Relaxed: the epoch's acquire (the caller's) ordered the allocation. */
	struct turbomem_track *t = rte_atomic_load_explicit(&tp->track,
			rte_memory_order_relaxed);
	uint32_t thr;
	unsigned int i;

	RTE_SET_USED(mp);
	for (i = 0; i < n; i++)
		/*
		 * Relaxed: the push that follows (release) publishes the clear
		 * to the next getter, whose record write comes after its pop.
		 */
		rte_atomic_store_explicit(
			&t->rec[tm_track_idx(tp, objs[i])].tag, 0,
			rte_memory_order_relaxed);

	/* Re-arm the threshold log once the count is back at it. */
	thr = rte_atomic_load_explicit(&t->threshold,
			rte_memory_order_relaxed);
	if (unlikely(thr != 0) && rte_atomic_load_explicit(&t->below,
			rte_memory_order_relaxed) != 0 &&
			turbomem_count(tp) + n >= thr)
		/* Relaxed: see turbomem_track_get(). */
		rte_atomic_store_explicit(&t->below, 0,
				rte_memory_order_relaxed);
}

/* Allocate the records (once per pool); 0 or -ENOMEM. */
static int
tm_track_alloc(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	struct turbomem_track *t, *expect = NULL;
	size_t size = sizeof(*t) + (size_t)mp->size * sizeof(t->rec[0]);
	int socket = turbomem_mem_driver_socket(tp);

	/* Acquire pairs with the release of the winning CAS below. */
	if (rte_atomic_load_explicit(&tp->track,
			rte_memory_order_acquire) != NULL)
		return 0;
	/* Not mp->socket_id: it names the pool's own heap while populating. */
	t = rte_zmalloc_socket("turbomem_track", size, RTE_CACHE_LINE_SIZE,
			socket);
	/* Records on another node only make tracking slower. */
	if (t == NULL && socket != SOCKET_ID_ANY)
		t = rte_zmalloc_socket("turbomem_track", size,
				RTE_CACHE_LINE_SIZE, SOCKET_ID_ANY);
	if (t == NULL) {
		TM_LOG(ERR, "pool %s: cannot allocate %zu bytes of tracking records (%zu per object, %u objects) from EAL memory, socket %d or any",
			mp->name, size, sizeof(t->rec[0]), mp->size, socket);
		return -ENOMEM;
	}
	t->mp = mp;
	/* Relaxed: published by the release CAS below. */
	rte_atomic_store_explicit(&t->low_water, UINT32_MAX,
			rte_memory_order_relaxed);
	/* Release: the zeroed records are visible to whoever loads t. */
	if (!rte_atomic_compare_exchange_strong_explicit(&tp->track, &expect, t,
			rte_memory_order_release, rte_memory_order_acquire))
		rte_free(t);
	else
		turbomem_bytes_add(tp, (int64_t)size);
	return 0;
}

int
turbomem_track_switch(struct rte_mempool *mp, struct turbomem_pool *tp,
		bool on)
{
	struct turbomem_track *t;
	uint32_t epoch;
	int ret;

	if (!on) {
		/* Release: pairs with nothing; gets simply stop recording. */
		rte_atomic_store_explicit(&tp->track_epoch, 0,
				rte_memory_order_release);
		return 0;
	}
	ret = tm_track_alloc(mp, tp);
	if (ret < 0)
		return ret;
	/* Acquire: pairs with the release CAS of tm_track_alloc(). */
	t = rte_atomic_load_explicit(&tp->track, rte_memory_order_acquire);
	/* Relaxed: epochs only need to differ; 0 means off. */
	do {
		epoch = (rte_atomic_fetch_add_explicit(&t->gen, 1,
				rte_memory_order_relaxed) + 1) &
				TM_TRACK_EPOCH_MASK;
	} while (epoch == 0);
	rte_atomic_store_explicit(&t->on_tsc, rte_get_tsc_cycles(),
			rte_memory_order_relaxed);
	/*
	 * Release pairs with the acquire in turbomem_track_epoch(): the
	 * records are allocated and zeroed before a get or put uses them.
	 */
	rte_atomic_store_explicit(&tp->track_epoch, epoch,
			rte_memory_order_release);
	return 0;
}

int
turbomem_track_init(struct rte_mempool *mp, struct turbomem_pool *tp)
{
	if (tp->mem.cfg.track != RTE_PMD_TURBOMEM_TRACK_ON)
		return 0;
	return turbomem_track_switch(mp, tp, true);
}

void
turbomem_track_free(struct turbomem_pool *tp)
{
	/* Relaxed: free runs when nothing else uses the pool. */
	struct turbomem_track *t = rte_atomic_load_explicit(&tp->track,
			rte_memory_order_relaxed);

	if (t != NULL)
		turbomem_bytes_add(tp, -(int64_t)(sizeof(*t) +
			(size_t)tp->map.capacity * sizeof(t->rec[0])));
	rte_free(t);
	rte_atomic_store_explicit(&tp->track, NULL, rte_memory_order_relaxed);
}

/* --- report -------------------------------------------------------- */

struct tm_held_ent {
	uint64_t key;	/* holder (tag without epoch) */
	uint64_t age;	/* TSC cycles since the get */
	uint32_t idx;
};

static int
tm_ent_by_holder(const void *a, const void *b)
{
	const struct tm_held_ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->age < y->age ? -1 : x->age > y->age;
}

static int
tm_ent_by_age_desc(const void *a, const void *b)
{
	const struct tm_held_ent *x = a, *y = b;

	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
tm_holder_by_count(const void *a, const void *b)
{
	const struct rte_pmd_turbomem_holder *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t
tm_us(uint64_t cycles, uint64_t hz)
{
	return hz == 0 ? 0 : (uint64_t)((double)cycles * 1e6 / (double)hz);
}

/* Add a holder; beyond the table, only counted in nb_holders_total. */
static struct rte_pmd_turbomem_holder *
tm_holder_add(struct rte_pmd_turbomem_holder *h, uint32_t *nb, uint32_t cap)
{
	if (*nb == cap)
		return NULL;
	memset(&h[*nb], 0, sizeof(h[0]));
	return &h[(*nb)++];
}

int
turbomem_track_report(const struct rte_mempool *mp, unsigned int nb_oldest,
		struct rte_pmd_turbomem_held *r)
{
	struct turbomem_pool *tp = mp->pool_data;
	/* Acquire: pairs with the release CAS of tm_track_alloc(). */
	struct turbomem_track *t = rte_atomic_load_explicit(&tp->track,
			rte_memory_order_acquire);
	/* All holders found, before keeping the largest. */
	struct rte_pmd_turbomem_holder *all = NULL, *h;
	uint32_t nb_all = 0, cap_all, nb_objs = tp->map.nb_objs;
	uint32_t epoch, nb_ent = 0, i, j, known = 0, out;
	uint16_t *cache_of = NULL;
	struct tm_held_ent *ent = NULL;
	uint64_t now, hz = rte_get_tsc_hz();
	unsigned int lc;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	epoch = turbomem_track_epoch(tp);
	r->tracking = epoch != 0;
	r->size = nb_objs;
	r->low_water = t != NULL ? rte_atomic_load_explicit(&t->low_water,
			rte_memory_order_relaxed) : UINT32_MAX;
	r->threshold = t != NULL ? rte_atomic_load_explicit(&t->threshold,
			rte_memory_order_relaxed) : 0;
	now = rte_get_tsc_cycles();
	if (epoch != 0)
		r->tracking_us = tm_us(now - rte_atomic_load_explicit(
				&t->on_tsc, rte_memory_order_relaxed), hz);

	cap_all = 2 * RTE_MAX_LCORE + 64;
	cache_of = malloc(sizeof(*cache_of) * RTE_MAX(nb_objs, 1u));
	ent = malloc(sizeof(*ent) * RTE_MAX(nb_objs, 1u));
	all = malloc(sizeof(*all) * cap_all);
	if (cache_of == NULL || ent == NULL || all == NULL) {
		TM_LOG(ERR, "pool %s: cannot allocate %zu bytes from the C heap for the held report of %u objects",
			mp->name, (sizeof(*cache_of) + sizeof(*ent)) *
			RTE_MAX(nb_objs, 1u) + sizeof(*all) * cap_all, nb_objs);
		goto out;
	}
	memset(cache_of, 0xff, sizeof(*cache_of) * nb_objs);

	/*
	 * Objects in the lcores' caches. The caches belong to running lcores:
	 * len and the pointers are read racily (bounded, and each pointer is
	 * checked to be an object of this pool before it counts).
	 */
	for (lc = 0; mp->cache_size != 0 && mp->local_cache != NULL &&
			lc < RTE_MAX_LCORE; lc++) {
		const struct rte_mempool_cache *c = &mp->local_cache[lc];
		uint32_t len = *(const volatile uint32_t *)&c->len, n = 0;

		len = RTE_MIN(len, (uint32_t)RTE_DIM(c->objs));
		for (j = 0; j < len; j++) {
			void *obj = ((void * const volatile *)c->objs)[j];
			int64_t idx = tm_objmap_lookup(&tp->map, obj);

			if (idx < 0 || cache_of[idx] != UINT16_MAX)
				continue;
			cache_of[idx] = (uint16_t)lc;
			n++;
		}
		if (n == 0)
			continue;
		r->cache_count += n;
		h = tm_holder_add(all, &nb_all, cap_all);
		h->kind = RTE_PMD_TURBOMEM_HOLDER_CACHE;
		h->id = lc;
		h->count = n;
	}

	/* Records of the current epoch outside the caches: known holders. */
	for (i = 0; epoch != 0 && i < nb_objs; i++) {
		uint64_t tag, tsc;

		if (cache_of[i] != UINT16_MAX)
			continue;
		/* Relaxed: a snapshot, see the header. */
		tag = rte_atomic_load_explicit(&t->rec[i].tag,
				rte_memory_order_relaxed);
		if (tag == 0 || tm_tag_epoch(tag) != epoch)
			continue;
		tsc = rte_atomic_load_explicit(&t->rec[i].tsc,
				rte_memory_order_relaxed);
		ent[nb_ent].key = tm_tag_holder(tag);
		ent[nb_ent].age = now > tsc ? now - tsc : 0;
		ent[nb_ent].idx = i;
		nb_ent++;
	}

	qsort(ent, nb_ent, sizeof(*ent), tm_ent_by_holder);
	for (i = 0; i < nb_ent; i = j) {
		uint32_t cnt;

		for (j = i; j < nb_ent && ent[j].key == ent[i].key; j++)
			;
		cnt = j - i;
		known += cnt;
		h = tm_holder_add(all, &nb_all, cap_all);
		if (h == NULL) {
			/* More holders than the table: keep counting. */
			r->nb_holders_total++;
			continue;
		}
		tm_holder_of(ent[i].key, &h->kind, &h->id, &h->pid, &h->dead);
		h->count = cnt;
		/* Nearest rank on the ages sorted ascending. */
		h->age_p50_us = tm_us(ent[i + (cnt - 1) * 50 / 100].age, hz);
		h->age_p90_us = tm_us(ent[i + (cnt - 1) * 90 / 100].age, hz);
		h->age_max_us = tm_us(ent[j - 1].age, hz);
	}

	r->free_count = turbomem_count(tp);
	out = r->free_count + r->cache_count;
	r->in_use = nb_objs > out ? nb_objs - out : 0;
	/* Snapshots a moment apart: never report a negative unknown. */
	r->unknown = r->in_use > known ? r->in_use - known : 0;
	if (r->unknown != 0) {
		h = tm_holder_add(all, &nb_all, cap_all);
		if (h != NULL) {
			h->kind = RTE_PMD_TURBOMEM_HOLDER_UNKNOWN;
			h->count = r->unknown;
		} else {
			r->nb_holders_total++;
		}
	}

	qsort(all, nb_all, sizeof(*all), tm_holder_by_count);
	r->nb_holders_total += nb_all;
	r->nb_holders = RTE_MIN(nb_all,
			(uint32_t)RTE_PMD_TURBOMEM_HELD_MAX_HOLDERS);
	memcpy(r->holders, all, sizeof(*all) * r->nb_holders);

	/* The oldest: the head of the entries sorted by age. */
	qsort(ent, nb_ent, sizeof(*ent), tm_ent_by_age_desc);
	r->nb_oldest = RTE_MIN(nb_ent, nb_oldest);
	for (i = 0; i < r->nb_oldest; i++) {
		struct rte_pmd_turbomem_held_obj *o = &r->oldest[i];

		o->obj = tm_objmap_to_obj(&tp->map, ent[i].idx);
		o->index = ent[i].idx;
		tm_holder_of(ent[i].key, &o->kind, &o->id, &o->pid, &o->dead);
		o->age_us = tm_us(ent[i].age, hz);
	}
	ret = 0;
out:
	free(cache_of);
	free(ent);
	free(all);
	return ret;
}

/* "lcore 3", "thread 1234", "cache of lcore 0", "unknown" (+ pid). */
int
turbomem_track_holder_name(char *buf, size_t len,
		enum rte_pmd_turbomem_holder_kind kind, uint32_t id,
		int32_t pid, uint32_t dead)
{
	switch (kind) {
	case RTE_PMD_TURBOMEM_HOLDER_LCORE:
		return snprintf(buf, len, "lcore %u (pid %d%s)", id, pid,
			dead ? ", dead" : "");
	case RTE_PMD_TURBOMEM_HOLDER_THREAD:
		return snprintf(buf, len, "thread %u (pid %d%s)", id, pid,
			dead ? ", dead" : "");
	case RTE_PMD_TURBOMEM_HOLDER_CACHE:
		return snprintf(buf, len, "cache of lcore %u", id);
	default:
		return snprintf(buf, len, "unknown (since before tracking)");
	}
}

/* Once per crossing, from the get that crossed: name the top holders. */
static void
tm_track_log_crossing(struct rte_mempool *mp, struct turbomem_pool *tp,
		uint32_t count, uint32_t threshold)
{
	struct rte_pmd_turbomem_held *r = malloc(sizeof(*r));
	char line[512];
	size_t off = 0;
	uint32_t i;

	RTE_SET_USED(tp);
	/*
	 * rte_mempool_free() drains the pool through dequeue after taking it
	 * off the list: a pool that is not found by name is being freed.
	 */
	if (rte_mempool_lookup(mp->name) != mp) {
		free(r);
		return;
	}
	if (r == NULL || turbomem_track_report(mp, 0, r) != 0) {
		TM_LOG(WARNING, "pool %s: %u objects free, below the low-water threshold %u (no memory for the holders report)",
			mp->name, count, threshold);
		free(r);
		return;
	}
	line[0] = '\0';
	for (i = 0; i < r->nb_holders && i < 4 && off < sizeof(line); i++) {
		const struct rte_pmd_turbomem_holder *h = &r->holders[i];

		off += strlcpy(line + off, i == 0 ? "" : "; ",
				sizeof(line) - off);
		if (off >= sizeof(line))
			break;
		off += turbomem_track_holder_name(line + off,
			sizeof(line) - off, h->kind, h->id, h->pid, h->dead);
		if (off >= sizeof(line))
			break;
		off += snprintf(line + off, sizeof(line) - off,
			h->age_max_us != 0 ? ": %u objects, oldest %.1f ms" :
			": %u objects", h->count, h->age_max_us / 1e3);
	}
	TM_LOG(WARNING, "pool %s: %u objects free, below the low-water threshold %u; top holders: %s",
		mp->name, count, threshold, line[0] != '\0' ? line : "none");
	free(r);
}

/* --- public API ---------------------------------------------------- */

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_held_get, 26.07)
int
rte_pmd_turbomem_held_get(const struct rte_mempool *mp,
		unsigned int nb_oldest, struct rte_pmd_turbomem_held *report)
{
	if (turbomem_pool_of(mp) == NULL || report == NULL)
		return -EINVAL;
	if (nb_oldest > RTE_PMD_TURBOMEM_HELD_MAX_OLDEST) {
		TM_LOG(ERR, "pool %s: %u oldest objects asked, at most %u",
			mp->name, nb_oldest, RTE_PMD_TURBOMEM_HELD_MAX_OLDEST);
		return -EINVAL;
	}
	return turbomem_track_report(mp, nb_oldest, report);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_track_set, 26.07)
int
rte_pmd_turbomem_track_set(struct rte_mempool *mp, int on)
{
	struct turbomem_pool *tp = turbomem_pool_of(mp);

	if (tp == NULL)
		return -EINVAL;
	if (on != 0 && on != 1) {
		TM_LOG(ERR, "pool %s: tracking switch %d: expected 0 (off) or 1 (on)",
			mp->name, on);
		return -EINVAL;
	}
	return turbomem_track_switch(mp, tp, on == 1);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_turbomem_track_threshold_set, 26.07)
int
rte_pmd_turbomem_track_threshold_set(struct rte_mempool *mp,
		unsigned int free_objs)
{
	struct turbomem_pool *tp = turbomem_pool_of(mp);
	struct turbomem_track *t;
	int ret;

	if (tp == NULL)
		return -EINVAL;
	if (free_objs > mp->size) {
		TM_LOG(ERR, "pool %s: low-water threshold %u above the pool size %u",
			mp->name, free_objs, mp->size);
		return -EINVAL;
	}
	ret = tm_track_alloc(mp, tp);
	if (ret < 0)
		return ret;
	/* Acquire: pairs with the release CAS of tm_track_alloc(). */
	t = rte_atomic_load_explicit(&tp->track, rte_memory_order_acquire);
	/* Relaxed: read by the fast path as a plain setting. */
	rte_atomic_store_explicit(&t->below, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&t->threshold, free_objs,
			rte_memory_order_relaxed);
	return 0;
}
