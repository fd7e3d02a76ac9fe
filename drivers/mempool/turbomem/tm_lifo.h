/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_LIFO_H
#define TM_LIFO_H

/**
 * @file
 * Lock-free LIFO of object groups: the core of the turbomem mempool driver.
 *
 * Freestanding: no DPDK include (atomics come from tm_atomic.h, which falls
 * back to C11 <stdatomic.h> without DPDK), so plain-pthread harnesses,
 * ThreadSanitizer and mutation builds use it directly.
 *
 * Structure. Every object of a pool has a fixed index in [0, capacity) and
 * one slot, tm_lifo_slot(index) (264 bytes with the default TM_LIFO_GROUP
 * of 32), in an array that lives beside the head for the whole life of the
 * pool. The
 * free objects form a list of groups of up to G = TM_LIFO_GROUP objects. A
 * group is named by its key, the object taken last from it; the key's slot
 * holds the other members' pointers, the link to the next group and the
 * group's hint (see "Hints"). Objects
 * leave a group in slot order (obj[pos], ..., obj[G - 2], then the key),
 * so a group's slot stays intact while any of its members is free: its key
 * is free too, and nobody else writes a free object's slot. A reference
 * {key, pos} names a group and the position of its next object (the group
 * holds G - pos objects); the head is one 8-byte word {top reference, tag}.
 * No count is kept: a pop finds out by its walk whether n objects are
 * there, and tm_lifo_count walks the whole list.
 *
 * - push_bulk cuts the caller's n objects into groups of up to G, fills
 *   their slots privately (the caller owns those objects, hence the slots;
 *   with several groups, each slot prefetched for writing
 *   TM_LIFO_PUSH_AHEAD groups ahead of its stores), reads the head,
 *   points the last group at the top and commits {first group, same
 *   tag} with one 8-byte compare-and-swap. A failed CAS
 *   rewrites only the last link: between its head read and its CAS a push
 *   reads nothing and writes one word.
 * - pop_bulk reads the head and walks the top groups to the reference
 *   after the n-th object (one link per group: ceil(n / G) + 1 slots at
 *   most, bounded by n, never by the list length) and commits {that
 *   reference, tag + 1} with one 8-byte CAS. A partly taken group stays on
 *   top with a larger pos. A walk that reaches the end of the list first
 *   re-reads the head and fails only if it did not move (see "Exact
 *   failures"). The walk is speculative: a concurrent pop/push makes the
 *   CAS fail (the head changed) and the walk restarts from the fresh head.
 *   The pointers are copied to the caller's table only after the commit.
 * - pop_near, for n <= G, serves a pop from the top group alone when it
 *   holds n objects (pos + n <= G), else from the rest of the top group
 *   and the first objects of the next one when the two hold n: the walk
 *   of at most two groups without its loop and second head read (random
 *   bulks), no count, the same one CAS; otherwise it takes nothing and the
 *   walk decides (pop_bulk calls it first for such n, then
 *   tm_lifo_pop_walk, the walk alone). pop_top_whole is its case of a top
 *   group of exactly n, for callers that keep that case inline.
 *
 * Hints. A pop of many groups follows one link per group, each to a slot
 * that another core may just have written (the pipeline: gets on one
 * core, puts on another): dependent misses, one after the other. So a
 * push of more than one group also records, in each of its groups' slots
 * beside the link, the keys of the groups 2 to TM_LIFO_AHEAD below
 * (hint[d - 2]: d below), and a walk prefetches whole the slots they name:
 * at its first group those 2 to TM_LIFO_AHEAD - 1 below, at every group
 * the one TM_LIFO_AHEAD below (where the walk goes that far), so that
 * from its second miss on up to TM_LIFO_AHEAD misses overlap, the
 * members' lines included (the copy after the commit reads them). The
 * last groups of a push have groups below them in the list it links to:
 * their hints name those, read from the slot of the top it links to (its
 * link and hints: the groups 1 to TM_LIFO_AHEAD - 1 below that top), so
 * that a walk crossing from one push's groups to an older push's (the
 * put list of a pipeline: one push per cache flush) keeps its misses
 * overlapped; TM_LIFO_NIL where the list ends. Hints are never followed:
 * a stale one (its group since taken and pushed again, or read from a
 * top being taken) costs a useless prefetch and nothing else; links alone
 * decide what a pop takes.
 *
 * Put list. Where one thread gets and another puts (a pipeline's RX and
 * TX cores), both CAS the head: each commit moves its line to the other
 * core and can make the other's CAS fail. So a second list, the put
 * list, takes the pushes that ask for it (tm_lifo_push_bulk_puts; the
 * driver sends there the puts of an lcore that has never got objects
 * from the pool: one that only frees).
 * Its word, l->puts, on the next cache line, is {top reference, key of
 * its bottom group}: no tag, since nothing is popped from it. A push
 * links its last group to the top it read and CASes {its first group,
 * the bottom} (its own last key where the list was empty). A get that
 * finds the head's list short (the walk reaches the end of the list, or
 * one object's head is empty) takes the whole put list with one
 * exchange, links its bottom group to the head's top and CASes the head
 * to its top (the tag kept, as a push's), then reads the head again:
 * one exchange and one CAS whatever the put list's length
 * (tm_lifo_take_puts). Between the exchange and that CAS the taken
 * objects are on neither list; l->transit counts the takes under way,
 * so that failures stay exact: a get fails only when, after its head
 * read, the put list was empty, no take was under way and the head had
 * not changed (tm_lifo_puts_short). A get that finds a take under way
 * waits for it, up to TM_LIFO_TRANSIT_SPINS rounds of 64 pauses and a
 * yield of the CPU, and fails after that only as if the taker, preempted
 * there, held those objects, with -EBUSY instead of -ENOENT, so that a
 * caller (and the tests) can tell the two apart. tm_lifo_count walks
 * both lists.
 *
 * Backoff. A CAS fails only because another thread's CAS on the head
 * committed since this one read it. Where two or more running threads
 * contend, retrying at once takes the head's line back before its new
 * owner's next operation and makes that one fail in turn: the line can
 * move between the cores on every attempt. So after its
 * r-th failed CAS an operation spins 2^min(r, TM_LIFO_BACKOFF_SHIFT)
 * pauses (tm_lifo_backoff) before its next attempt (from the head its
 * failed CAS read back), and the thread that committed goes on with the
 * line in its cache. Nothing is held while it spins (it has not
 * committed), so a pausing thread delays only itself: the core stays
 * lock-free. What it gains and costs, measured: TM_LIFO_BACKOFF_SHIFT.
 * Fairer backoffs (a thread that keeps losing wins sooner) starve less and
 * give back most of the gain (design page, "Alternatives Tried").
 *
 * One CAS per bulk operation, whatever n: the head is the only shared word
 * written, and a list (not an array) lets a push or pop of any size commit
 * in one step with nothing reserved beforehand, so a preempted thread holds
 * nothing that others wait for. Groups make the walk cheap: a pop copies
 * pointers from one slot per G objects instead of following one dependent
 * link per object. The 8-byte head needs no cmpxchg16b (slower than an
 * 8-byte lock cmpxchg on the CPUs measured) and no 16-byte atomics at all,
 * so the core is plain C11 atomics on every 64-bit target.
 *
 * Synchronization (which operations may run concurrently with which):
 *
 * | operation             | concurrent with push/pop/count | concurrent with init |
 * |-----------------------|--------------------------------|----------------------|
 * | tm_lifo_push_*        | yes, any thread                | no                   |
 * | tm_lifo_pop_bulk      | yes, any thread                | no                   |
 * | tm_lifo_pop_near      | yes, any thread                | no                   |
 * | tm_lifo_pop_top_whole | yes, any thread                | no                   |
 * | tm_lifo_pop_walk      | yes, any thread                | no                   |
 * | tm_lifo_count         | yes (a snapshot)               | no                   |
 * | tm_lifo_init          | no                             | -                    |
 *
 * Orderings (each atomic names its pair at its use):
 * - push: slot members, links and hints relaxed, the hints of the top it
 *   links to relaxed (only prefetched), head (or put list) CAS release;
 * - pop: head load acquire, members, links and hints relaxed, head CAS
 *   acq_rel (acquire on failure);
 * - take of the put list: transit increment relaxed, exchange acq_rel,
 *   bottom link relaxed, head CAS release, transit decrement release;
 *   a short get's put list and transit loads acquire.
 *
 * Contracts:
 * - pop_bulk is all-or-nothing: >= 0 with exactly n objects, or -ENOENT
 *   or -EBUSY with nothing taken and the caller's table untouched.
 * - Exact failures: pop_bulk returns -ENOENT only if, at one instant
 *   (after the head read its last walk started from), fewer than n
 *   objects were in the LIFO, both lists. Objects held by a preempted
 *   thread between its pop and its push are not in it. -EBUSY: fewer
 *   than n in it apart from those of a take of the put list whose
 *   thread was preempted for longer than a get waits for it (see "Put
 *   list").
 * - push_bulk never fails while the caller only pushes objects it owns
 *   (taken by pop_bulk or never pushed): count then never exceeds capacity.
 * - pop_bulk returns the pointers that were pushed; to_obj(to_idx(p)) must
 *   be p for every object p.
 * - count is exact at rest and never above capacity.
 * - Lock-free: a thread preempted anywhere holds nothing that others wait
 *   for; some CAS always succeeds. No per-thread state, so any thread (EAL
 *   lcore, registered or unregistered non-EAL thread) may call it.
 * - All state is inside struct tm_lifo, so it may live in memory shared
 *   between processes; the object pointers it stores must then be valid in
 *   every process (DPDK shared memory is mapped at the same address).
 *
 * ABA: a pop that read {top, tag} and was preempted may see the same top
 * again after other threads popped and pushed it back, with different
 * groups below. The 32-bit tag, incremented by every successful pop, makes
 * that stale CAS fail unless exactly a multiple of 2^32 pops committed
 * while it was preempted (Boost.Lockfree's fixed_sized stack takes the same
 * bet with 16 bits). Pushes keep the tag: a push reads nothing of the list
 * but the head, and linking to a top that is still the head (whatever
 * happened in between) is right.
 *
 * Exact failures, why: a walk reads the head (acquire), then links of free
 * groups, which only the pushes that published them wrote (before their
 * release CAS). If the head is the same at the walk's end, no push and no
 * pop committed in between (a push changes the top; a pop changes the
 * tag): the links read were those of the list of that head, and a walk
 * that reached its end before n objects counted it exactly. If a link was
 * rewritten by a later owner of its key, that owner's pop committed
 * first, and the re-read sees a new head: the walk restarts instead of
 * failing.
 */

#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tm_atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Objects per group: a key and the GROUP - 1 pointers its slot holds; a
 * slot is 8 * GROUP + 8 bytes (struct tm_lifo_slot). 32 (264 bytes per
 * object): a get or put of up to 32 objects (DPDK's usual bursts) touches
 * one slot and needs no walk, and a long get follows half the links of
 * groups of 16, each a dependent miss where another core freed the
 * objects (the pipeline). Measured against 16: design page, "Alternatives
 * Tried". A build may say -DTM_LIFO_GROUP=16 (136 bytes) or 8
 * (72 bytes) for less metadata.
 */
#ifndef TM_LIFO_GROUP
#define TM_LIFO_GROUP 32
#endif
/** Bits of a reference holding the position within a group. */
#if TM_LIFO_GROUP == 8
#define TM_LIFO_POS_BITS 3
#elif TM_LIFO_GROUP == 16
#define TM_LIFO_POS_BITS 4
#elif TM_LIFO_GROUP == 32
#define TM_LIFO_POS_BITS 5
#else
#error "TM_LIFO_GROUP must be 8, 16 or 32"
#endif
#define TM_LIFO_IDX_BITS (32 - TM_LIFO_POS_BITS)
/*
 * Groups a walk sees ahead: a push records in each group the keys of the
 * groups 2 to TM_LIFO_AHEAD below it, which a long walk prefetches (see
 * "Hints" in the file comment). Even, so that the members stay 8-byte
 * aligned behind the link and TM_LIFO_AHEAD - 1 hints. 4: the slot is
 * 8 * G + 8 bytes, and 8 gained at cache 250 what it lost at cache 512
 * (design page, "Alternatives Tried").
 */
#ifndef TM_LIFO_AHEAD
#define TM_LIFO_AHEAD 4
#endif
/*
 * Groups a push of several groups asks ahead for, for writing: before it
 * stores a group's members it prefetches the slot lines of the group
 * TM_LIFO_PUSH_AHEAD further on, so that fetching the lines a getting
 * core read last (a pipeline's freeing lcore: every slot it writes was
 * read by the allocating one) overlaps instead of stalling the stores
 * one line after the other, and the CAS after them waits for less. A
 * power of two. 8: a flush of 256 objects (DPDK 26.07's mempool cache of
 * 512) asks for all its groups at once; 2 and 4 measured the same within
 * the rounds' spread (design page, "Alternatives Tried").
 */
#ifndef TM_LIFO_PUSH_AHEAD
#define TM_LIFO_PUSH_AHEAD 8
#endif
#if TM_LIFO_AHEAD < 4 || TM_LIFO_AHEAD > 16 || TM_LIFO_AHEAD % 2 != 0
#error "TM_LIFO_AHEAD must be even, 4 to 16"
#endif
/*
 * Largest backoff after a failed CAS: 2^TM_LIFO_BACKOFF_SHIFT pauses (16;
 * see "Backoff" in the file comment). 0 keeps one pause per failure, -1
 * none.
 * Measured (design page, "Alternatives Tried"): on 2 pinned lcores that
 * both get and put, 3 gave 1.4x to 4x ring_mp_mc (no backoff: 0.6x to
 * 1.2x) and 5 gave 2x to 5x, but in the pipeline (one lcore gets, the
 * other puts) 5 cost 30% of the speed without a backoff, so 3 was kept.
 * Since the put list the pipeline's two lcores no longer CAS one word,
 * and 4 and 5 cost it nothing beyond the noise; 4 gains on 2 pinned
 * lcores at every bulk (5 loses at bulks 4 and 16), and most where
 * moving a line between the CPUs is slow (design page, "Alternatives
 * Tried"). The price of any backoff: while two lcores
 * contend, the one that keeps committing serves itself first (bench.sh
 * full: in 11 of 30 rows one worker got 2 to 4.4 times the objects of
 * the other in a round; ring_mp_mc in 2), which -1 avoids.
 */
#ifndef TM_LIFO_BACKOFF_SHIFT
#define TM_LIFO_BACKOFF_SHIFT 4
#endif
#if TM_LIFO_BACKOFF_SHIFT < -1 || TM_LIFO_BACKOFF_SHIFT > 10
#error "TM_LIFO_BACKOFF_SHIFT must be in [-1, 10]"
#endif
/*
 * A get that would fail while a take of the put list is under way waits
 * for it (see "Put list"): up to TM_LIFO_TRANSIT_SPINS rounds of 64
 * pauses and a yield of the CPU (a taker preempted on it runs), then
 * fails as if those objects were held by a preempted thread.
 */
#ifndef TM_LIFO_TRANSIT_SPINS
#define TM_LIFO_TRANSIT_SPINS 4096
#endif
/** Key of a reference that ends the list. */
#define TM_LIFO_NIL ((UINT32_C(1) << TM_LIFO_IDX_BITS) - 1)
/** Largest capacity: every index must differ from TM_LIFO_NIL. */
#define TM_LIFO_MAX_CAPACITY TM_LIFO_NIL
/*
 * Entries of a pop's table of members copied aside before its commit (at
 * most G - 1, from a group that stays shared); one more, so that a
 * compiler that inlines the copies' longer runs (unreachable there) finds
 * them in bounds (-Warray-bounds, groups of 8).
 */
#define TM_LIFO_TAIL TM_LIFO_GROUP

/*
 * Test-only preemption point between reading the head and committing.
 * The ABA stress builds define it (tm_test_yield.h, -include) to widen the
 * race window or run interfering operations there.
 */
#ifndef TM_LIFO_TEST_YIELD
#define TM_LIFO_TEST_YIELD() do { } while (0)
#endif
/* Test-only point of a pop between reading the head and walking from it. */
#ifndef TM_LIFO_TEST_YIELD_READ
#define TM_LIFO_TEST_YIELD_READ() do { } while (0)
#endif
/* One pause of a backoff; the core's deterministic tests count them. */
#ifndef TM_LIFO_TEST_PAUSE
#define TM_LIFO_TEST_PAUSE() tm_pause()
#endif

/*
 * An atomic object pointer, as a type: "const RTE_ATOMIC(void *) *" would
 * put the const on the pointee where RTE_ATOMIC(t) is plain t (DPDK built
 * without enable_stdatomic).
 */
typedef RTE_ATOMIC(void *) tm_lifo_obj_t;
/* An atomic list word (the head, the put list), as a type. */
typedef RTE_ATOMIC(uint64_t) tm_lifo_word_t;

/**
 * The slot of a group's key: the group's other members, its link and its
 * hints. 8 * G + 8 bytes with TM_LIFO_AHEAD 4, not a power of two: slots
 * of indices a power of two apart (the keys of bursts cut from objects in
 * populate order: keys G apart) would share their L1 cache sets, and the
 * slots of single-object groups, whose link alone is read, would fill
 * only a quarter of the sets (design page, "Alternatives
 * Tried").
 */
struct tm_lifo_slot {
	/** Reference of the next group. Atomic: stale readers race. */
	RTE_ATOMIC(uint32_t) link;
	/**
	 * hint[d - 2]: key of the group d below (2 <= d <= TM_LIFO_AHEAD),
	 * TM_LIFO_NIL where the list ended (see "Hints"). Atomic: stale
	 * readers race.
	 */
	RTE_ATOMIC(uint32_t) hint[TM_LIFO_AHEAD - 1];
	/** Members taken before the key, used from obj[pos] on. */
	tm_lifo_obj_t obj[TM_LIFO_GROUP - 1];
};

_Static_assert(sizeof(void *) != 8 ||
	sizeof(struct tm_lifo_slot) == 8 * TM_LIFO_GROUP + 4 * TM_LIFO_AHEAD - 8,
	"a slot is the link, the hints and GROUP - 1 pointers");
_Static_assert((sizeof(struct tm_lifo_slot) &
	(sizeof(struct tm_lifo_slot) - 1)) != 0,
	"a slot's size is no power of two (see above)");
_Static_assert(sizeof(tm_lifo_obj_t) == sizeof(void *),
	"an atomic object pointer is a pointer in memory (tm_lifo_load_owned)");
_Static_assert((1 << TM_LIFO_POS_BITS) == TM_LIFO_GROUP,
	"a position addresses every member of a group");

struct tm_lifo {
	/** top reference | tag << 32; its own cache line. */
	alignas(64) RTE_ATOMIC(uint64_t) head;
	/**
	 * The put list (see "Put list"): top reference | key of its bottom
	 * group << 32, no tag (nothing is popped from it); the next cache
	 * line, apart from the head's.
	 */
	alignas(64) RTE_ATOMIC(uint64_t) puts;
	/** Takes of the put list under way (see "Put list"). */
	RTE_ATOMIC(uint32_t) transit;
	/**
	 * Objects the LIFO can hold; set by tm_lifo_init, then only read,
	 * by every operation. On a line that no operation writes: beside
	 * the head, a put onto the put list (which reads it to check the
	 * keys it follows) took the head's line from the core that gets,
	 * whose next CAS then had to fetch it back (design page,
	 * "Alternatives Tried").
	 */
	alignas(64) uint32_t capacity;
	uint32_t reserved;
	/**
	 * One slot per object, read only when the object is a group key;
	 * from the next cache line on, so that no slot shares the lines
	 * above.
	 */
	alignas(64) struct tm_lifo_slot slot[];
};

_Static_assert(offsetof(struct tm_lifo, capacity) / 64 !=
	offsetof(struct tm_lifo, head) / 64 &&
	offsetof(struct tm_lifo, capacity) / 64 !=
	offsetof(struct tm_lifo, puts) / 64,
	"the capacity shares no line that an operation writes (see above)");
_Static_assert((TM_LIFO_PUSH_AHEAD & (TM_LIFO_PUSH_AHEAD - 1)) == 0,
	"TM_LIFO_PUSH_AHEAD is a power of two");

/** Convert an index to the caller's object pointer. */
typedef void *(tm_lifo_to_obj_t)(const void *ctx, uint32_t idx);
/** Convert the caller's object pointer to its index. */
typedef uint32_t (tm_lifo_to_idx_t)(const void *ctx, const void *obj);

/** Bytes needed for a LIFO of the given capacity: head and slots. */
static inline size_t
tm_lifo_size(uint32_t capacity)
{
	return sizeof(struct tm_lifo) +
		(size_t)capacity * sizeof(struct tm_lifo_slot);
}

/** The slot of index idx. */
static inline struct tm_lifo_slot *
tm_lifo_slot(struct tm_lifo *l, uint32_t idx)
{
	return &l->slot[idx];
}

/*
 * Prefetch every line of the slot of idx, if idx names one: its link and
 * hints for a walk, its members for the copy after the commit (see
 * "Hints"). A stale idx prefetches another slot, and nothing else.
 */
static inline void
tm_lifo_prefetch_slot(const struct tm_lifo *l, uint32_t idx)
{
	const char *p;
	size_t off;

	if (idx >= l->capacity)
		return;
	p = (const char *)&l->slot[idx];
	for (off = 0; off < sizeof(struct tm_lifo_slot); off += 64)
		tm_prefetch(p + off);
	/* The line of the last byte, where the slot straddles one more. */
	tm_prefetch(p + sizeof(struct tm_lifo_slot) - 1);
}

/*
 * Prefetch every line of the slot of idx for writing: the pusher owns it
 * (see push_bulk), so another core holds at most copies it read.
 */
static inline void
tm_lifo_prefetch_slot_w(struct tm_lifo *l, uint32_t idx)
{
	const char *p = (const char *)&l->slot[idx];
	size_t off;

	for (off = 0; off < sizeof(struct tm_lifo_slot); off += 64)
		tm_prefetch_w(p + off);
	tm_prefetch_w(p + sizeof(struct tm_lifo_slot) - 1);
}

/**
 * Make an empty LIFO; not concurrent with anything.
 * @return 0 or -EINVAL (capacity 0 or above TM_LIFO_MAX_CAPACITY).
 */
int tm_lifo_init(struct tm_lifo *l, uint32_t capacity);

/** Reference to the group keyed by idx, next object at position pos. */
static inline uint32_t
tm_lifo_ref(uint32_t idx, uint32_t pos)
{
	return idx | pos << TM_LIFO_IDX_BITS;
}

static inline uint32_t
tm_lifo_ref_idx(uint32_t ref)
{
	return ref & TM_LIFO_NIL;
}

static inline uint32_t
tm_lifo_ref_pos(uint32_t ref)
{
	return ref >> TM_LIFO_IDX_BITS;
}

static inline uint64_t
tm_lifo_pack(uint32_t top, uint32_t tag)
{
	return (uint64_t)top | ((uint64_t)tag << 32);
}

static inline uint32_t
tm_lifo_top(uint64_t head)
{
	return (uint32_t)head;
}

static inline uint32_t
tm_lifo_tag(uint64_t head)
{
	return (uint32_t)(head >> 32);
}

/**
 * Spin after the failures-th failed CAS (failures >= 1) of one operation:
 * 2^min(failures, TM_LIFO_BACKOFF_SHIFT) pauses (see "Backoff" in the file
 * comment). Touches no shared memory.
 */
static inline void
tm_lifo_backoff(unsigned int failures)
{
#if TM_LIFO_BACKOFF_SHIFT >= 0
	unsigned int k, n;

	n = 1u << (failures > TM_LIFO_BACKOFF_SHIFT ?
		TM_LIFO_BACKOFF_SHIFT : failures);
	for (k = 0; k < n; k++)
		TM_LIFO_TEST_PAUSE();
#else
	(void)failures;
#endif
}

/*
 * Objects in the list from reference ref on (at most capacity groups;
 * relaxed links: the callers' acquire loads of the head words order them).
 */
static inline uint32_t
tm_lifo_count_list(struct tm_lifo *l, uint32_t ref)
{
	uint32_t n = 0, key, steps;

	for (steps = 0; steps < l->capacity; steps++) {
		key = tm_lifo_ref_idx(ref);
		if (key >= l->capacity)
			break;
		n += TM_LIFO_GROUP - tm_lifo_ref_pos(ref);
		ref = rte_atomic_load_explicit(&tm_lifo_slot(l, key)->link,
				rte_memory_order_relaxed);
	}
	return n;
}

/**
 * Number of objects in the LIFO: a walk of the whole list (at most
 * capacity groups) under an unchanged head; exact at rest, an estimate
 * under churn (the walk may cross a moving list), never above capacity.
 */
static inline uint32_t
tm_lifo_count(struct tm_lifo *l)
{
	uint64_t h, h2;
	uint32_t n = 0;
	int tries;

	h = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (tries = 0; ; tries++) {
		n = tm_lifo_count_list(l, tm_lifo_top(h));
		h2 = rte_atomic_load_explicit(&l->head,
				rte_memory_order_acquire);
		if (h2 == h || tries == 8)
			break;
		h = h2;
	}
	/* Acquire: as the head's, for the put list's groups. */
	n += tm_lifo_count_list(l, tm_lifo_top(rte_atomic_load_explicit(
			&l->puts, rte_memory_order_acquire)));
	return n <= l->capacity ? n : l->capacity;
}

/*
 * Copy cnt (< G) group members between a slot and a table, relaxed (the
 * callers say what orders them), in runs of 2 and 4 spelled out:
 * compilers keep loops of atomics rolled (about 7 instructions an element
 * instead of 2), and a jump table on random counts mispredicts (measured:
 * 25% slower gets and puts of random bulks with a fall-through switch).
 */
static inline void
tm_lifo_load2(void **dst, const tm_lifo_obj_t *src)
{
	dst[0] = rte_atomic_load_explicit(&src[0], rte_memory_order_relaxed);
	dst[1] = rte_atomic_load_explicit(&src[1], rte_memory_order_relaxed);
}

static inline void
tm_lifo_load4(void **dst, const tm_lifo_obj_t *src)
{
	tm_lifo_load2(dst, src);
	tm_lifo_load2(&dst[2], &src[2]);
}

static inline void
tm_lifo_store2(tm_lifo_obj_t *dst, void * const *src)
{
	rte_atomic_store_explicit(&dst[0], src[0], rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dst[1], src[1], rte_memory_order_relaxed);
}

static inline void
tm_lifo_store4(tm_lifo_obj_t *dst, void * const *src)
{
	tm_lifo_store2(dst, src);
	tm_lifo_store2(&dst[2], &src[2]);
}

static inline void
tm_lifo_load_run(void **dst, const tm_lifo_obj_t *src, unsigned int cnt)
{
	void **last;

	/*
	 * Runs of 8 from the start, then one run of 8 (4, 2) ending at cnt,
	 * which may overlap the run before it (an element copied twice is the
	 * same value): no loop of single elements, and a fixed count takes
	 * the same branches every time.
	 */
	if (cnt >= 8) {
		last = dst + cnt - 8;
		for (; dst < last; dst += 8, src += 8) {
			tm_lifo_load4(dst, src);
			tm_lifo_load4(dst + 4, src + 4);
		}
		src -= dst - last;
		tm_lifo_load4(last, src);
		tm_lifo_load4(last + 4, src + 4);
	} else if (cnt >= 4) {
		tm_lifo_load4(dst, src);
		tm_lifo_load4(dst + cnt - 4, src + cnt - 4);
	} else if (cnt >= 2) {
		tm_lifo_load2(dst, src);
		tm_lifo_load2(dst + cnt - 2, src + cnt - 2);
	} else if (cnt == 1) {
		dst[0] = rte_atomic_load_explicit(src, rte_memory_order_relaxed);
	}
}

static inline void
tm_lifo_store_run(tm_lifo_obj_t *dst, void * const *src, unsigned int cnt)
{
	tm_lifo_obj_t *last;

	/* As in tm_lifo_load_run. */
	if (cnt >= 8) {
		last = dst + cnt - 8;
		for (; dst < last; dst += 8, src += 8) {
			tm_lifo_store4(dst, src);
			tm_lifo_store4(dst + 4, src + 4);
		}
		src -= dst - last;
		tm_lifo_store4(last, src);
		tm_lifo_store4(last + 4, src + 4);
	} else if (cnt >= 4) {
		tm_lifo_store4(dst, src);
		tm_lifo_store4(dst + cnt - 4, src + cnt - 4);
	} else if (cnt >= 2) {
		tm_lifo_store2(dst, src);
		tm_lifo_store2(dst + cnt - 2, src + cnt - 2);
	} else if (cnt == 1) {
		rte_atomic_store_explicit(dst, src[0], rte_memory_order_relaxed);
	}
}

/*
 * A whole group's members, and half a group's (bulks of G and G / 2),
 * copied with constant counts: straight-line code, no address arithmetic.
 */
static inline void
tm_lifo_load_members(void **dst, const tm_lifo_obj_t *src, unsigned int cnt)
{
	if (cnt == TM_LIFO_GROUP - 1)
		tm_lifo_load_run(dst, src, TM_LIFO_GROUP - 1);
	else if (cnt == TM_LIFO_GROUP / 2 - 1)
		tm_lifo_load_run(dst, src, TM_LIFO_GROUP / 2 - 1);
	else
		tm_lifo_load_run(dst, src, cnt);
}

static inline void
tm_lifo_store_members(tm_lifo_obj_t *dst, void * const *src, unsigned int cnt)
{
	if (cnt == TM_LIFO_GROUP - 1)
		tm_lifo_store_run(dst, src, TM_LIFO_GROUP - 1);
	else if (cnt == TM_LIFO_GROUP / 2 - 1)
		tm_lifo_store_run(dst, src, TM_LIFO_GROUP / 2 - 1);
	else
		tm_lifo_store_run(dst, src, cnt);
}

/*
 * tm_lifo_load_members of members the caller owns: groups taken whole by
 * its commit (their keys are its own, and only an object's owner writes
 * its slot). No write can race the copy (stale walks only read), and the
 * pushes' stores happen-before it (their release CAS, the caller's
 * acquire), so a whole group's and half a group's members are copied as
 * plain memory: vector moves, where the atomics' copy is one load and one
 * store an element (measured: bulk 32 on 1 lcore 9% faster; design page,
 * "Alternatives Tried"). Other counts as tm_lifo_load_members.
 * Never for members of a group that stays shared (a partly taken one,
 * or before the commit): an owner may rewrite them meanwhile.
 */
static inline void
tm_lifo_load_owned(void **dst, const tm_lifo_obj_t *src, unsigned int cnt)
{
	/* The integer step drops the atomic qualifier of the element type. */
	const void *from = (const void *)(uintptr_t)src;

	if (cnt == TM_LIFO_GROUP - 1)
		memcpy(dst, from, (TM_LIFO_GROUP - 1) * sizeof(void *));
	else if (cnt == TM_LIFO_GROUP / 2 - 1)
		memcpy(dst, from, (TM_LIFO_GROUP / 2 - 1) * sizeof(void *));
	else
		tm_lifo_load_run(dst, src, cnt);
}

/*
 * Copy the members obj[pos..G-2] of a group the caller owns (taken whole
 * by its commit) to dst (room entries at least); returns how many.
 * Ordered by the caller's commit (see pop_bulk, tm_lifo_load_owned).
 */
static inline unsigned int
tm_lifo_copy_members(void **dst, const struct tm_lifo_slot *s, uint32_t pos,
		unsigned int room)
{
	unsigned int cnt = TM_LIFO_GROUP - 1 - pos;

	/* Never true (room >= G - pos); lets the compiler bound dst. */
	if (cnt > room)
		cnt = room;
	tm_lifo_load_owned(dst, &s->obj[pos], cnt);
	return cnt;
}

/** An empty put list. */
static inline uint64_t
tm_lifo_puts_empty(void)
{
	return tm_lifo_pack(tm_lifo_ref(TM_LIFO_NIL, 0), TM_LIFO_NIL);
}

/*
 * Move the whole put list onto the head (see "Put list"): one exchange
 * takes it, one CAS links its bottom group to the head's top and makes
 * its top the head's. true if it moved objects.
 */
static inline bool
tm_lifo_take_puts(struct tm_lifo *l)
{
	uint64_t p, old;
	uint32_t bottom;
	unsigned int retries = 0;

	/*
	 * Acquire: an empty list written by a take's exchange (release) makes
	 * that take's transit increment visible to tm_lifo_puts_short.
	 */
	if (tm_lifo_ref_idx(tm_lifo_top(rte_atomic_load_explicit(&l->puts,
			rte_memory_order_acquire))) == TM_LIFO_NIL)
		return false;
	/*
	 * Relaxed increment, made visible by the exchange's release: a get
	 * that reads the emptied list (acquire) sees it (tm_lifo_puts_short).
	 */
	rte_atomic_fetch_add_explicit(&l->transit, 1,
			rte_memory_order_relaxed);
	/*
	 * acq_rel: acquire pairs with the pushes' release (their slots), and
	 * release publishes the transit increment with the empty list.
	 */
	p = rte_atomic_exchange_explicit(&l->puts, tm_lifo_puts_empty(),
			rte_memory_order_acq_rel);
	if (tm_lifo_ref_idx(tm_lifo_top(p)) != TM_LIFO_NIL) {
		bottom = tm_lifo_tag(p);
		/* Acquire: as a push's head load. */
		old = rte_atomic_load_explicit(&l->head,
				rte_memory_order_acquire);
		for (;;) {
			/* Relaxed: the taken groups are ours; the CAS publishes. */
			rte_atomic_store_explicit(
					&tm_lifo_slot(l, bottom)->link,
					tm_lifo_top(old), rte_memory_order_relaxed);
			TM_LIFO_TEST_YIELD();
			/* Release / acquire: as a push's (tag kept, as a push's). */
			if (rte_atomic_compare_exchange_strong_explicit(
					&l->head, &old,
					tm_lifo_pack(tm_lifo_top(p),
						tm_lifo_tag(old)),
					rte_memory_order_release,
					rte_memory_order_acquire))
				break;
			tm_lifo_backoff(++retries);
		}
	}
	/*
	 * Release: a get that sees transit back at 0 (acquire) sees the
	 * head that the CAS above wrote.
	 */
	rte_atomic_fetch_sub_explicit(&l->transit, 1,
			rte_memory_order_release);
	return tm_lifo_ref_idx(tm_lifo_top(p)) != TM_LIFO_NIL;
}

/**
 * A get found the list of the head it read (seen) short: take the put
 * list onto the head, or wait for a take under way, which leaves objects
 * on neither list until it ends.
 *
 * @return 1: retry from the head, re-read (objects moved, or the head
 *   changed); -ENOENT: the put list was empty, no take under way and the
 *   head still seen: fewer objects than the get asked for at that
 *   instant (exact failures, see "Put list"); -EBUSY: a take under way
 *   did not end within TM_LIFO_TRANSIT_SPINS rounds (its thread
 *   preempted: its objects count as held by it).
 */
static inline int
tm_lifo_puts_short(struct tm_lifo *l, uint64_t seen)
{
	unsigned int spins, k;

	if (tm_lifo_take_puts(l))
		return 1;
	/*
	 * Acquire: pairs with a take's release decrement, so that the head
	 * it wrote is what the load below compares.
	 */
	if (rte_atomic_load_explicit(&l->transit,
			rte_memory_order_acquire) != 0) {
		for (spins = 0; spins < TM_LIFO_TRANSIT_SPINS; spins++) {
			for (k = 0; k < 64; k++)
				TM_LIFO_TEST_PAUSE();
			/* Acquire: as above. */
			if (rte_atomic_load_explicit(&l->transit,
					rte_memory_order_acquire) == 0)
				return 1;
			tm_yield();
		}
		/* A taker preempted for that long: as if it held them. */
		return -EBUSY;
	}
	/* Acquire: as a pop's head load. */
	return rte_atomic_load_explicit(&l->head,
			rte_memory_order_acquire) != seen ? 1 : -ENOENT;
}

/**
 * tm_lifo_pop_bulk of one object into *obj, with the same contracts and
 * orderings; pop_bulk calls it for n == 1, and a caller that knows
 * n == 1 may call it directly.
 *
 * One object needs no walk: a top group that exists holds at least its
 * key (its pos is at most G - 1), so only an empty head (nil top) fails,
 * at the instant it was read (exact failures). The next object is the top
 * group's member at pos, or its key when pos is G - 1 (the group leaves
 * the list and its link becomes the top).
 *
 * @return as tm_lifo_pop_bulk with n == 1; *obj is written only on
 *   success.
 */
static inline int
tm_lifo_pop_one_head(struct tm_lifo *l, void **obj, tm_lifo_to_obj_t *to_obj,
		const void *ctx, uint64_t *seen)
{
	const struct tm_lifo_slot *s;
	uint32_t ref, key, pos;
	uint64_t old, cur, new;
	void *o;
	int retries = 0;

	/* Acquire: as in pop_bulk, the slot of the head's top is read next. */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (;;) {
		TM_LIFO_TEST_YIELD_READ();
		ref = tm_lifo_top(old);
		key = tm_lifo_ref_idx(ref);
		pos = tm_lifo_ref_pos(ref);
		if (key >= l->capacity) {
			/* The head just read was empty: its caller decides. */
			if (key == TM_LIFO_NIL) {
				*seen = old;
				return -ENOENT;
			}
			/*
			 * Acquire: as above. A top beyond the capacity under
			 * an unchanged head is corrupt (as pop_bulk's short
			 * chain), not stale.
			 */
			cur = rte_atomic_load_explicit(&l->head,
					rte_memory_order_acquire);
			if (cur == old)
				return -EFAULT;
			old = cur;
			retries++;
			continue;
		}
		s = tm_lifo_slot(l, key);
		/*
		 * Relaxed loads: a stale member or link makes the CAS fail
		 * (head changed), as in pop_bulk's walk. Each case commits
		 * on its own, so that none is tested again after the CAS.
		 */
		if (pos == TM_LIFO_GROUP - 1) {
			new = tm_lifo_pack(rte_atomic_load_explicit(&s->link,
					rte_memory_order_relaxed),
				tm_lifo_tag(old) + 1);
			TM_LIFO_TEST_YIELD();
			/* acq_rel / acquire: as pop_bulk's commit. */
			if (rte_atomic_compare_exchange_strong_explicit(
					&l->head, &old, new,
					rte_memory_order_acq_rel,
					rte_memory_order_acquire)) {
				/* The key is ours, and the index to name it. */
				*obj = to_obj(ctx, key);
				return retries;
			}
		} else {
			o = rte_atomic_load_explicit(&s->obj[pos],
					rte_memory_order_relaxed);
			new = tm_lifo_pack(tm_lifo_ref(key, pos + 1),
				tm_lifo_tag(old) + 1);
			TM_LIFO_TEST_YIELD();
			/*
			 * acq_rel / acquire: as pop_bulk's commit (release
			 * keeps the member load before it: the group stays
			 * shared).
			 */
			if (rte_atomic_compare_exchange_strong_explicit(
					&l->head, &old, new,
					rte_memory_order_acq_rel,
					rte_memory_order_acquire)) {
				*obj = o;
				return retries;
			}
		}
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}
}

/**
 * tm_lifo_pop_bulk of one object into *obj, with the same contracts and
 * orderings; pop_bulk calls it for n == 1, and a caller that knows
 * n == 1 may call it directly. The head's list first
 * (tm_lifo_pop_one_head), then, where it is empty, the put list's
 * objects (tm_lifo_puts_short).
 *
 * @return as tm_lifo_pop_bulk with n == 1; *obj is written only on
 *   success.
 */
static inline int
tm_lifo_pop_one(struct tm_lifo *l, void **obj, tm_lifo_to_obj_t *to_obj,
		const void *ctx)
{
	uint64_t seen;
	int ret, more;

	for (;;) {
		ret = tm_lifo_pop_one_head(l, obj, to_obj, ctx, &seen);
		if (ret != -ENOENT)
			return ret;
		more = tm_lifo_puts_short(l, seen);
		if (more < 0)
			return more;
	}
}

/*
 * The high half of a push's new head word: the head's tag, kept (see ABA
 * in the file comment), or the put list's bottom key: the key of the
 * push's last group (last) when the list was empty, else unchanged.
 */
static inline uint32_t
tm_lifo_push_high(uint64_t old, uint32_t last, bool puts)
{
	if (puts && tm_lifo_ref_idx(tm_lifo_top(old)) == TM_LIFO_NIL)
		return last;
	return tm_lifo_tag(old);
}

/*
 * tm_lifo_push_group, and push_bulk_to's one group: a push of 1 <= n <= G
 * objects onto the head (puts false) or the put list.
 */
static inline unsigned int
tm_lifo_push_group_to(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx, bool puts)
{
	uint32_t key = to_idx(ctx, objs[n - 1]), pos = TM_LIFO_GROUP - n;
	struct tm_lifo_slot *s = tm_lifo_slot(l, key);
	tm_lifo_word_t *h = puts ? &l->puts : &l->head;
	unsigned int retries = 0;
	uint64_t old;

	/* Relaxed: published by the release CAS (see push_bulk). */
	tm_lifo_store_members(&s->obj[pos], objs, n - 1);
	/* Acquire: as in push_bulk. */
	old = rte_atomic_load_explicit(h, rte_memory_order_acquire);
	for (;;) {
		/* Relaxed: published by the CAS. */
		rte_atomic_store_explicit(&s->link, tm_lifo_top(old),
				rte_memory_order_relaxed);
		TM_LIFO_TEST_YIELD();
		/* Release / acquire: as in push_bulk. */
		if (rte_atomic_compare_exchange_strong_explicit(h, &old,
				tm_lifo_pack(tm_lifo_ref(key, pos),
					tm_lifo_push_high(old, key, puts)),
				rte_memory_order_release,
				rte_memory_order_acquire))
			return retries;
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}
}

/*
 * tm_lifo_push_bulk for 1 <= n <= G: one group, no loop over groups. Same
 * steps and orderings as the general case below.
 */
static inline unsigned int
tm_lifo_push_group(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx)
{
	return tm_lifo_push_group_to(l, objs, n, to_idx, ctx, false);
}

/**
 * tm_lifo_push_bulk of one object, which becomes a group of its own: no
 * member to store, no loop (push_group with n == 1, folded by the
 * compiler). push_bulk calls it for n == 1, and a caller that knows
 * n == 1 may call it directly.
 *
 * @return the number of failed CAS attempts (contention), for statistics.
 */
static inline unsigned int
tm_lifo_push_one(struct tm_lifo *l, void *obj, tm_lifo_to_idx_t *to_idx,
		const void *ctx)
{
	return tm_lifo_push_group(l, &obj, 1, to_idx, ctx);
}

/*
 * The hints of a push's last groups that name groups under it (see
 * "Hints"): ahead holds the keys of its last min(g, TM_LIFO_AHEAD) groups
 * (group i's at ahead[i % TM_LIFO_AHEAD]), g the push's groups, top the
 * reference its last group links to. With under[j] the list's group j
 * below that top (under[0] the top), group e above the push's last one
 * (e = 0: the last) has under[d - 1 - e] as its group d below, for
 * d > e; the top's slot names under[1] to under[TM_LIFO_AHEAD - 1] (its
 * link and hints).
 */
static inline void
tm_lifo_hint_below(struct tm_lifo *l, const uint32_t *ahead, unsigned int g,
		uint32_t top)
{
	/* under[j]: key of the list's group j below its top (0: the top). */
	uint32_t under[TM_LIFO_AHEAD];
	const struct tm_lifo_slot *ts;
	struct tm_lifo_slot *s;
	unsigned int j, e, d;

	under[0] = tm_lifo_ref_idx(top);
	for (j = 1; j < TM_LIFO_AHEAD; j++)
		under[j] = TM_LIFO_NIL;
	if (under[0] < l->capacity) {
		ts = tm_lifo_slot(l, under[0]);
		/*
		 * Relaxed: the top's group is not ours (a pop may take it
		 * meanwhile, stale readers race); these keys are only
		 * prefetched.
		 */
		under[1] = tm_lifo_ref_idx(rte_atomic_load_explicit(&ts->link,
				rte_memory_order_relaxed));
		for (j = 2; j < TM_LIFO_AHEAD; j++)
			under[j] = rte_atomic_load_explicit(&ts->hint[j - 2],
					rte_memory_order_relaxed);
	}
	for (e = 0; e < TM_LIFO_AHEAD && e < g; e++) {
		s = tm_lifo_slot(l, ahead[(g - 1 - e) % TM_LIFO_AHEAD]);
		/* d > e: the group d below lies under the push. */
		for (d = e < 2 ? 2 : e + 1; d <= TM_LIFO_AHEAD; d++)
			/* Relaxed: our group; published by the CAS. */
			rte_atomic_store_explicit(&s->hint[d - 2],
					under[d - 1 - e],
					rte_memory_order_relaxed);
	}
}

/*
 * The key of group j of a push of n objects: its last object (groups are
 * full from the first on; see push_bulk), whose slot is prefetched for
 * writing.
 */
static inline uint32_t
tm_lifo_push_key(struct tm_lifo *l, void * const *objs, unsigned int n,
		unsigned int j, tm_lifo_to_idx_t *to_idx, const void *ctx)
{
	unsigned int end = (j + 1) * TM_LIFO_GROUP;
	uint32_t key = to_idx(ctx, objs[(end < n ? end : n) - 1]);

	tm_lifo_prefetch_slot_w(l, key);
	return key;
}

/*
 * tm_lifo_push_bulk and tm_lifo_push_bulk_puts: onto the head (puts
 * false) or the put list.
 */
static inline unsigned int
tm_lifo_push_bulk_to(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx, bool puts)
{
	struct tm_lifo_slot *s, *last = NULL;
	tm_lifo_word_t *h = puts ? &l->puts : &l->head;
	uint32_t ahead[TM_LIFO_AHEAD];
	/* keys[j % TM_LIFO_PUSH_AHEAD]: group j's, from its prefetch on. */
	uint32_t keys[TM_LIFO_PUSH_AHEAD];
	uint64_t old, new;
	unsigned int i, g, d, len, pos, groups, retries = 0;
	uint32_t first = 0, key = 0, ref;

	if (n <= TM_LIFO_GROUP)
		return n == 0 ? 0 :
			tm_lifo_push_group_to(l, objs, n, to_idx, ctx, puts);

	groups = (n + TM_LIFO_GROUP - 1) / TM_LIFO_GROUP;
	for (g = 0; g < groups && g < TM_LIFO_PUSH_AHEAD; g++)
		keys[g] = tm_lifo_push_key(l, objs, n, g, to_idx, ctx);
	/* Full groups first: the top group is the one a pop reads whole. */
	for (i = 0, g = 0; i < n; i += len, g++) {
		len = n - i < TM_LIFO_GROUP ? n - i : TM_LIFO_GROUP;
		pos = TM_LIFO_GROUP - len;
		key = keys[g % TM_LIFO_PUSH_AHEAD];
		if (g + TM_LIFO_PUSH_AHEAD < groups)
			keys[g % TM_LIFO_PUSH_AHEAD] = tm_lifo_push_key(l,
					objs, n, g + TM_LIFO_PUSH_AHEAD,
					to_idx, ctx);
		s = tm_lifo_slot(l, key);
		/*
		 * This group is d below the groups d above it in this push
		 * (relaxed: a hint is only prefetched, stale readers race;
		 * those groups are ours, so are their hints).
		 */
		for (d = 2; d <= TM_LIFO_AHEAD && d <= g; d++)
			rte_atomic_store_explicit(&tm_lifo_slot(l,
					ahead[(g - d) % TM_LIFO_AHEAD])->hint[d - 2],
					key, rte_memory_order_relaxed);
		ahead[g % TM_LIFO_AHEAD] = key;
		/*
		 * Relaxed: the caller owns the key, so the slot; the release
		 * CAS below publishes it. Stale poppers may read it
		 * concurrently, hence the atomics.
		 */
		tm_lifo_store_members(&s->obj[pos], &objs[i], len - 1);
		ref = tm_lifo_ref(key, pos);
		if (last == NULL)
			first = ref;
		else
			rte_atomic_store_explicit(&last->link, ref,
					rte_memory_order_relaxed);
		last = s;
	}

	/*
	 * Acquire, though the top is only linked to (relaxed would do: our
	 * CAS, a read-modify-write of the head, continues the release
	 * sequence that published it); a plain load on x86, as on failure.
	 */
	old = rte_atomic_load_explicit(h, rte_memory_order_acquire);
	for (;;) {
		/* Relaxed: published by the CAS, as above. */
		rte_atomic_store_explicit(&last->link, tm_lifo_top(old),
				rte_memory_order_relaxed);
		/* The last groups' hints name the groups of that top on. */
		tm_lifo_hint_below(l, ahead, g, tm_lifo_top(old));
		/* key: the last group's. */
		new = tm_lifo_pack(first, tm_lifo_push_high(old, key, puts));
		TM_LIFO_TEST_YIELD();
		/*
		 * The tag is kept: a push is right whenever the head is still
		 * what it linked to (see ABA in the file comment).
		 * Release on success: our slot writes (and the caller's writes
		 * to the objects) happen-before any pop that acquires this
		 * head. Acquire on failure: the head read back is the next
		 * attempt's top, as the load above.
		 */
		if (rte_atomic_compare_exchange_strong_explicit(h, &old,
				new, rte_memory_order_release,
				rte_memory_order_acquire))
			return retries;
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}
}

/**
 * Push n objects owned by the caller, committed with one CAS. Never fails.
 * n == 0 is a no-op. The first object of objs ends on top.
 *
 * @return the number of failed CAS attempts (contention), for statistics.
 */
static inline unsigned int
tm_lifo_push_bulk(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx)
{
	return tm_lifo_push_bulk_to(l, objs, n, to_idx, ctx, false);
}

/**
 * tm_lifo_push_bulk onto the put list (see "Put list"), for a thread that
 * puts and does not get: gets take these objects when the head's list is
 * short. Same contracts.
 *
 * @return the number of failed CAS attempts (contention), for statistics.
 */
static inline unsigned int
tm_lifo_push_bulk_puts(struct tm_lifo *l, void * const *objs, unsigned int n,
		tm_lifo_to_idx_t *to_idx, const void *ctx)
{
	return tm_lifo_push_bulk_to(l, objs, n, to_idx, ctx, true);
}

/*
 * Pop 2 <= n <= G objects when the top group holds exactly n (pos + n ==
 * G), with pop_bulk's orderings: tm_lifo_pop_near's first case alone,
 * for a caller that keeps it inline (the DPDK driver: a get of what one
 * put of n left on top). The link is read before the commit, the members
 * after (the group is then ours).
 *
 * @return the number of failed CAS attempts (>= 0) with objs[0..n-1]
 *   filled, or -EAGAIN (the top group, as last read, holds another count,
 *   or there is no top; nothing taken, objs untouched): tm_lifo_pop_near
 *   or the walk decides.
 */
static inline int
tm_lifo_pop_top_whole(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	const struct tm_lifo_slot *s;
	uint32_t ref, key, pos;
	uint64_t old;
	int retries = 0;

	/* Acquire: as in pop_bulk, the slot of the head's top is read next. */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (;;) {
		ref = tm_lifo_top(old);
		key = tm_lifo_ref_idx(ref);
		pos = tm_lifo_ref_pos(ref);
		/* An empty or stale head names no slot: the walk decides. */
		if (key >= l->capacity || pos + n != TM_LIFO_GROUP)
			return -EAGAIN;
		s = tm_lifo_slot(l, key);
		/*
		 * Relaxed link: a stale one makes the CAS fail (head
		 * changed), as in pop_bulk's walk.
		 */
		ref = rte_atomic_load_explicit(&s->link,
				rte_memory_order_relaxed);
		TM_LIFO_TEST_YIELD();
		/* acq_rel / acquire: as pop_bulk's commit. */
		if (rte_atomic_compare_exchange_strong_explicit(&l->head, &old,
				tm_lifo_pack(ref, tm_lifo_tag(old) + 1),
				rte_memory_order_acq_rel,
				rte_memory_order_acquire)) {
			/* Ours now: ordered after the commit. */
			tm_lifo_load_owned(objs, &s->obj[pos], n - 1);
			objs[n - 1] = to_obj(ctx, key);
			return retries;
		}
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}
}

/**
 * Pop 2 <= n <= G objects from the top group alone (the rest of it,
 * pos + n == G, or members only, pos + n < G) or, when it holds fewer
 * (pos + n > G), from the rest of the top group and the first objects of
 * the next one, with pop_bulk's orderings: one head read and one CAS
 * whichever of the three it is. pop_bulk calls it for such n; a caller
 * that knows n <= G may call it directly (after tm_lifo_pop_top_whole,
 * inline), then tm_lifo_pop_walk if it returns -EAGAIN.
 *
 * The walk of at most two groups without its loop and second head read
 * (random bulks). A group taken whole has its link read before the
 * commit, its members and key after (it is then ours); a group taken in
 * part, which stays on top, has its members copied aside before the
 * commit (it stays shared) and to objs after it. No count is read: a
 * top that does not hold n objects with the next group (or no top) is
 * not a failure of the get: with -EAGAIN the walk, whose count and
 * re-read of the head decide exactly (exact failures), serves it or
 * fails it.
 *
 * @return the number of failed CAS attempts (>= 0) with objs[0..n-1]
 *   filled, or -EAGAIN (the top group, as last read, names no slot, or it
 *   and the next group hold fewer than n; nothing taken, objs untouched,
 *   failed CAS attempts not counted).
 */
static inline int
tm_lifo_pop_near(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	void *tail[TM_LIFO_TAIL];
	const struct tm_lifo_slot *s, *s2;
	uint32_t ref, key, pos, key2, pos2, end;
	unsigned int i, first;
	uint64_t old;
	int retries = 0;

	/* Acquire: as in pop_bulk, the slots of the walk are read next. */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (;;) {
		TM_LIFO_TEST_YIELD_READ();
		ref = tm_lifo_top(old);
		key = tm_lifo_ref_idx(ref);
		pos = tm_lifo_ref_pos(ref);
		/* An empty or stale head names no slot: the walk decides. */
		if (key >= l->capacity)
			return -EAGAIN;
		s = tm_lifo_slot(l, key);
		s2 = s;
		key2 = key;
		pos2 = pos;
		/*
		 * Relaxed links and members: a stale one makes the CAS fail
		 * (head changed), as in pop_bulk's walk.
		 */
		if (pos + n < TM_LIFO_GROUP) {
			/* Members of the top group, which stays on top. */
			first = 0;
			end = pos + n;
		} else {
			/* The top group whole, then n - first below. */
			first = TM_LIFO_GROUP - pos;
			end = TM_LIFO_GROUP;
			ref = rte_atomic_load_explicit(&s->link,
					rte_memory_order_relaxed);
			if (first != n) {
				key2 = tm_lifo_ref_idx(ref);
				pos2 = tm_lifo_ref_pos(ref);
				end = pos2 + (n - first);
				if (key2 >= l->capacity || end > TM_LIFO_GROUP)
					return -EAGAIN;
				s2 = tm_lifo_slot(l, key2);
				if (end == TM_LIFO_GROUP)
					ref = rte_atomic_load_explicit(
							&s2->link,
							rte_memory_order_relaxed);
			}
		}
		if (end != TM_LIFO_GROUP) {
			/* The group at s2 stays on top, key included. */
			tm_lifo_load_members(tail, &s2->obj[pos2], n - first);
			ref = tm_lifo_ref(key2, end);
		}
		TM_LIFO_TEST_YIELD();
		/*
		 * acq_rel / acquire: as pop_bulk's commit (release keeps the
		 * reads above before it: a group taken in part stays shared).
		 */
		if (rte_atomic_compare_exchange_strong_explicit(&l->head,
				&old, tm_lifo_pack(ref, tm_lifo_tag(old) + 1),
				rte_memory_order_acq_rel,
				rte_memory_order_acquire))
			break;
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}

	/* Groups taken whole are ours, as in pop_bulk (tm_lifo_load_owned). */
	if (first != 0) {
		tm_lifo_load_owned(objs, &s->obj[pos], first - 1);
		objs[first - 1] = to_obj(ctx, key);
		if (first != n && end == TM_LIFO_GROUP) {
			tm_lifo_load_owned(&objs[first], &s2->obj[pos2],
					n - first - 1);
			objs[n - 1] = to_obj(ctx, key2);
		}
	}
	if (end != TM_LIFO_GROUP)
		for (i = first; i < n; i++)
			objs[i] = tail[i - first];
	return retries;
}

/**
 * tm_lifo_pop_bulk without its dispatch to pop_one and pop_near: the
 * general walk, for any n, with the same contracts and orderings. A
 * caller whose pop_near returned -EAGAIN may call it directly.
 *
 * @return as tm_lifo_pop_bulk.
 */
static inline int
tm_lifo_pop_walk(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	void *tail[TM_LIFO_TAIL];
	const struct tm_lifo_slot *s;
	unsigned int i, j, nb_tail;
	uint32_t ref, key, pos, end, d;
	uint64_t old, cur;
	int retries = 0, more;

	if (n == 0)
		return 0;

	/*
	 * objs is written only after the commit: a pop that fails must leave
	 * the caller's table as it was (DPDK 22.11's cache refill dequeues
	 * into the cache's own array and keeps using it after a failure).
	 * The walk only finds the reference after the n-th object, and copies
	 * the members of a group it takes only in part (the group stays
	 * shared, so its slot may be rewritten once the commit lets others
	 * take its key).
	 *
	 * Acquire pairs with the head CAS of push (release) and pop
	 * (acq_rel): the slots written before that commit are visible.
	 */
	old = rte_atomic_load_explicit(&l->head, rte_memory_order_acquire);
	for (;;) {
		TM_LIFO_TEST_YIELD_READ();
		ref = tm_lifo_top(old);
		nb_tail = 0;
		for (i = 0; i < n; ) {
			key = tm_lifo_ref_idx(ref);
			/*
			 * The end of the list (fewer than n objects) or,
			 * from a stale snapshot, of another: decided below.
			 */
			if (key >= l->capacity)
				break;
			s = tm_lifo_slot(l, key);
			pos = tm_lifo_ref_pos(ref);
			end = pos + (n - i);
			/*
			 * Start the misses of the groups ahead that the walk
			 * reaches (more than d groups to go for the group d
			 * below): at the first group those 2 to
			 * TM_LIFO_AHEAD - 1 below, at every group the one
			 * TM_LIFO_AHEAD below (relaxed: a stale hint only
			 * prefetches the wrong slot).
			 */
			if (i == 0)
				for (d = 2; d < TM_LIFO_AHEAD &&
						end > d * TM_LIFO_GROUP; d++)
					tm_lifo_prefetch_slot(l,
						rte_atomic_load_explicit(
							&s->hint[d - 2],
							rte_memory_order_relaxed));
			if (end > TM_LIFO_AHEAD * TM_LIFO_GROUP)
				tm_lifo_prefetch_slot(l, rte_atomic_load_explicit(
						&s->hint[TM_LIFO_AHEAD - 2],
						rte_memory_order_relaxed));
			/*
			 * Relaxed loads: a stale pointer or link is harmless
			 * because the CAS fails (head changed); the head
			 * acquire ordered our reads after the writes of every
			 * committed push.
			 */
			if (end < TM_LIFO_GROUP) {
				/* The group stays on top, key included. */
				nb_tail = end - pos;
				tm_lifo_load_members(tail, &s->obj[pos],
						nb_tail);
				ref = tm_lifo_ref(key, end);
				i = n;
				break;
			}
			i += TM_LIFO_GROUP - pos;
			ref = rte_atomic_load_explicit(&s->link,
					rte_memory_order_relaxed);
		}
		if (i < n) {
			/*
			 * The list ended: the put list's objects, or an exact
			 * failure (see "Put list").
			 */
			if (tm_lifo_ref_idx(ref) == TM_LIFO_NIL) {
				more = tm_lifo_puts_short(l, old);
				if (more < 0)
					return more;
				/* Acquire: walked next, as above. */
				old = rte_atomic_load_explicit(&l->head,
						rte_memory_order_acquire);
				retries++;
				continue;
			}
			/* Acquire: walked next, as above. */
			cur = rte_atomic_load_explicit(&l->head,
					rte_memory_order_acquire);
			/*
			 * A link names no slot. Unchanged, the head vouches
			 * for the walk: the list is corrupt (a contract
			 * violation, e.g. a double put). Fail rather than
			 * spin.
			 */
			if (cur == old)
				return -EFAULT;
			old = cur;
			retries++;
			continue;
		}

		TM_LIFO_TEST_YIELD();
		/*
		 * Success is acq_rel: release keeps the slot reads of the walk
		 * before the commit (once committed, others may take and
		 * rewrite the slot of the partly taken group's key); acquire
		 * pairs with the push that published the head we replace.
		 * Failure is acquire: the head read back is walked next, like
		 * the one loaded above.
		 */
		if (rte_atomic_compare_exchange_strong_explicit(&l->head, &old,
				tm_lifo_pack(ref, tm_lifo_tag(old) + 1),
				rte_memory_order_acq_rel,
				rte_memory_order_acquire))
			break;
		/* Lost to a commit: back off (see "Backoff"), then retry. */
		retries++;
		tm_lifo_backoff((unsigned int)retries);
	}

	/*
	 * The groups taken whole are ours now: their keys are ours, and only
	 * an object's owner writes its slot, so this walk reads what the
	 * first one did (links relaxed, members plain: tm_lifo_load_owned;
	 * ordered after the commit's acquire).
	 */
	ref = tm_lifo_top(old);
	for (i = 0; i < n - nb_tail; ) {
		key = tm_lifo_ref_idx(ref);
		s = tm_lifo_slot(l, key);
		i += tm_lifo_copy_members(&objs[i], s, tm_lifo_ref_pos(ref),
				n - nb_tail - i);
		objs[i++] = to_obj(ctx, key);
		ref = rte_atomic_load_explicit(&s->link,
				rte_memory_order_relaxed);
	}
	for (j = 0; j < nb_tail; j++)
		objs[i + j] = tail[j];
	return retries;
}

/**
 * Pop exactly n objects into objs, committed with one CAS, or none.
 *
 * @return the number of failed CAS attempts (>= 0, for statistics) with
 *   objs[0..n-1] filled, -ENOENT (fewer than n objects; nothing taken, objs
 *   untouched), -EBUSY (fewer than n apart from a take of the put list
 *   whose thread is preempted; nothing taken, objs untouched), or -EFAULT
 *   (a link names no slot: the list is corrupted by a contract violation;
 *   nothing taken, objs untouched).
 */
static inline int
tm_lifo_pop_bulk(struct tm_lifo *l, void **objs, unsigned int n,
		tm_lifo_to_obj_t *to_obj, const void *ctx)
{
	int ret;

	if (n == 1)
		return tm_lifo_pop_one(l, objs, to_obj, ctx);
	if (n != 0 && n <= TM_LIFO_GROUP) {
		ret = tm_lifo_pop_near(l, objs, n, to_obj, ctx);
		if (ret != -EAGAIN)
			return ret;
	}
	return tm_lifo_pop_walk(l, objs, n, to_obj, ctx);
}

#ifdef __cplusplus
}
#endif

#endif /* TM_LIFO_H */
