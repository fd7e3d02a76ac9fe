/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

#ifndef TM_BENCH_COMMON_H
#define TM_BENCH_COMMON_H

/*
 * turbomem_bench: mempool handlers side by side, same workload for every
 * handler, interleaved round by round in one process.
 *
 *   dpdk-test-turbomem <EAL args> -- turbomem_bench --scenario S [options]
 *
 * Scenarios and their full parameter matrix (defaults; every list can be
 * narrowed by the options below):
 *
 * grid      modelled on DPDK's mempool_perf_autotest. Every worker lcore
 *           (the main lcore only times) repeats: get "keep" objects in bulks
 *           of "bulk", put them back in bulks of "bulk". 2048-byte objects,
 *           pool of (workers + 1) * (512 + 512) - 1 objects as in
 *           mempool_perf_autotest.
 *             bulk  {1, 4, 16, 32, random}  random: each get/put takes a
 *                   size drawn in 1..32 from a per-worker sequence seeded
 *                   by --seed (the same sequence for every handler)
 *             keep  {32, 128, 512}
 *             cache {0, default}  default = RTE_MEMPOOL_CACHE_MAX_SIZE (512),
 *                   as mempool_perf_autotest
 *             lcore layout: the EAL one of the run (scripts/bench.sh runs
 *                   1 worker, 2 workers pinned to 2 CPUs, 6 workers floating
 *                   on 2 CPUs: oversubscribed), labelled by --layout
 *             --nonEAL N: N unregistered pthreads instead of the workers
 *                   (no mempool cache: cache column "none")
 *           Figures: objects got per second summed over workers (median
 *           round); cycles per object = elapsed TSC cycles x min(workers,
 *           CPUs) / objects, the CPU time the workers had per object.
 *           A run ends when the main lcore, asleep meanwhile, raises a stop
 *           flag checked at every get/put, so a collapsing handler
 *           (preempted ring producers) cannot stretch it.
 * pipeline  pairs of worker lcores: the first allocates in bulks of "bulk"
 *           and hands the objects through an rte_ring (1024 slots, SP/SC) to
 *           the second, which frees them; mempool caches cannot balance this.
 *             bulk {32} (--bulks), cache {0, default}; needs an even
 *             number of workers (bench.sh: 2 pinned)
 *           Figures: objects per second through all pairs, cycles per object.
 * locality  one lcore. Pool of 65535 2048-byte objects drained and refilled
 *           in shuffled order (a drop storm), then steady state: allocate a
 *           bulk of 32, write the first cache line of each, queue them in a
 *           FIFO of N objects in flight, free the oldest 32.
 *             in flight {512} (--inflight, multiples of 32 up to 992;
 *             bench.sh: 32 and 512), cache {0, default}
 *           Figures: cycles per object; distinct 4 KB and 2 MB pages among
 *           the addresses of every 1000 consecutive allocations (mean).
 * deep      "deep in-flight", one lcore: pktmbuf pool of 262143 mbufs
 *           (--deep-n), cache 250 (testpmd's default), drained and refilled
 *           in shuffled order once; then half the pool held in a FIFO while
 *           mbufs are allocated in bulks of 32, written (Ethernet/IPv4/UDP
 *           header and the first 64-byte payload line), queued, and the
 *           oldest 32 freed. Memory mode is the EAL one of the run (--no-huge
 *           or hugetlbfs); the row records the backing measured from
 *           /proc/self/smaps (and turbomem's own report when the plugin
 *           exports rte_pmd_turbomem_mem_info).
 *           Figures: cycles per mbuf, best of the rounds (and dTLB misses
 *           and CPU cycles per mbuf where the PMU exists).
 * chunks    the grid loop, 1 worker, cache 0, on a pool populated from one
 *           chunk and on one populated from 1000 separate chunks (4 KB
 *           apart, shuffled order: the shape IOVA as PA or
 *           populate_iova/populate_virt of scattered memory gives);
 *           bulks and keeps of the options. Figures as grid, plus each
 *           handler's ratio 1000 chunks / 1 chunk (time per object).
 * hw        the locality workload (cache 0) under perf_event_open counters:
 *           dTLB load misses and CPU cycles per object; "n/a" when the
 *           machine has no PMU (--pmu off simulates that).
 * frag      one lcore. 1000 cycles: create and populate a pool (size and
 *           element size drawn from {255, 1023, 4095, 16383} x {64, 256,
 *           1024, 2176} by --seed), free the oldest of 4 live ones; then
 *           free the rest. EAL's malloc heap of the lcore's socket
 *           (rte_malloc_get_socket_stats) before, at its most fragmented
 *           and after; rte_malloc of 4 KB aligned to 4 KB (1000 held,
 *           median call of 3 passes) before and after. Figures in the row's "extra"
 *           column; cycles per object = the rte_malloc cycles after.
 *           One handler per process for comparable figures.
 * pages     the deep workload (--deep-n mbufs, half held), fresh and after
 *           a shuffled refill: distinct 4 KB, 2 MB and 1 GB pages of the
 *           mbuf header and data addresses per 1000 packets (32 windows),
 *           and the data TLB sizes from cpuid ("extra" column): the input
 *           of the evidence page's TLB model. No timing beyond one pass.
 *
 * cache     shaper-like queues on one lcore with the per-lcore cache: driver
 *           get/put calls per object (a counting ops wrapper) and
 *           throughput, for the 22.11 and 26.07 mempool caches
 *           (bench_cache.c has the workload and its options).
 *
 * Options: --scenario grid|pipeline|locality|deep|hw|cache|frag|pages|chunks|all
 *          --handlers a,b,...   (default ring_mp_mc,ring_mt_rts,ring_mt_hts,
 *                                stack,lf_stack,bucket,turbomem; the first is
 *                                the baseline of the ratios)
 *          --bulks 1,4,16,32,random  --keeps 32,128,512  --caches 0,default
 *          --bulk N --keep N --cache N   (single values, turbomem_perf style)
 *          --seconds S (0.5) per measurement  --rounds N (3)
 *          --nonEAL N  --layout LABEL  --seed N (1)  --deep-n N (262143)
 *          --inflight 32,512 (locality, hw; default 512)
 *          --pmu on|off  --csv FILE  --json FILE (written at the end, with
 *          a run header: DPDK, kernel, CPU, THP mode, hugepages, seed...)
 * "turbomem_perf" is the same command with the former defaults: grid,
 * bulk 16, keep 32, cache 0, 1 s.
 *
 * Handlers that are not registered, or refuse the workload (bucket with
 * unregistered threads: it indexes per-lcore arrays with rte_lcore_id()),
 * give a row with status "skip: <reason>". No figure is ever made up: a
 * failed measurement has status "error: ..." and empty figures.
 * No timing assertions anywhere: these commands measure, they do not judge.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#define BENCH_MAX_HANDLERS 16
#define BENCH_MAX_ROUNDS 15
#define BENCH_MAX_LIST 8
/* A "bulk" value meaning: sizes drawn at random in 1..BENCH_RANDOM_MAX. */
#define BENCH_BULK_RANDOM 0
#define BENCH_RANDOM_MAX 32
#define BENCH_MAX_KEEP 512
/* "cache default" of grid and pipeline, as in mempool_perf_autotest. */
#define BENCH_CACHE_DEFAULT RTE_MEMPOOL_CACHE_MAX_SIZE
/* locality, hw: objects in flight are whole bursts of this many, up to max */
#define BENCH_LOC_BURST 32u
#define BENCH_LOC_MAX_INFLIGHT 992u

struct bench_opts {
	const char *handlers[BENCH_MAX_HANDLERS];
	unsigned int nb_handlers;
	unsigned int bulks[BENCH_MAX_LIST], nb_bulks;
	bool bulks_given;      /* --bulks on the command line */
	bool handlers_given, caches_given, inflights_given; /* same, cache */
	unsigned int keeps[BENCH_MAX_LIST], nb_keeps;
	unsigned int caches[BENCH_MAX_LIST], nb_caches;
	unsigned int inflights[BENCH_MAX_LIST], nb_inflights; /* locality, hw */
	double seconds;
	unsigned int rounds;
	unsigned int nonEAL;
	unsigned int deep_n;
	uint64_t seed;
	bool pmu;
	char layout[48];
	const char *csv, *json;
};

/* One result: one scenario x handler x parameter set. */
struct bench_row {
	char scenario[16];
	char handler[RTE_MEMPOOL_OPS_NAMESIZE];
	char layout[48];
	unsigned int workers;  /* lcores or threads running the workload */
	unsigned int cpus;     /* CPUs they may run on */
	char threads[8];       /* "eal" or "nonEAL" */
	int bulk;              /* -1: n/a; 0: random */
	int keep;              /* -1: n/a */
	int cache;             /* -1: none (unregistered threads) */
	unsigned int pool_size;
	char mem[16];          /* EAL memory: "nohuge" or "hugetlbfs" */
	char backing[16];      /* measured: "hugetlbfs", "thp", "4k", "mixed" */
	double huge_pct;       /* % of pool memory in >= 2 MB pages (smaps) */
	/* Figures; NAN when not measured ("" in CSV, null in JSON). */
	double mobj_s;
	double cycles_per_obj;
	double pages_4k;       /* distinct 4 KB pages per 1000 allocations */
	double pages_2m;       /* distinct 2 MB pages per 1000 allocations */
	double dtlb_per_obj;   /* dTLB load misses per object */
	double hw_cycles_per_obj;
	char stat[16];         /* how rounds combine: "median", "best" */
	unsigned int rounds;
	char samples[160];     /* every round's main figure */
	char status[96];       /* "ok", "skip: ...", "error: ...", "n/a: ..." */
	/* Figures of scenarios with their own (frag, pages): "key=value;..." */
	char extra[512];
};

/* The options of the current command (parsed once). */
extern struct bench_opts bench_opts;

/* A row with the common fields (scenario, handler, layout, lcores) set. */
void bench_row_init(struct bench_row *r, const char *scenario,
		const char *handler);
/* Record a finished row: kept for the table, CSV and JSON. */
void bench_row_add(const struct bench_row *r);
/*
 * Figures of a throughput row (grid, pipeline) from its rounds: median
 * objects/s and cycles per object, the samples, the status (skip reason or
 * error). Returns -1 if a round failed, else 0.
 */
int bench_row_rates(struct bench_row *r, const char *skip,
		const double *rate, const double *cyc, unsigned int rounds);

/*
 * NULL if handler can run the scenario, else the reason it is skipped.
 * nonEAL: the workload runs on unregistered threads; elt_size: object size.
 */
const char *bench_handler_skip(const char *handler, bool nonEAL,
		unsigned int elt_size);

/* Progress line on stderr (long runs). */
void bench_progress(const char *fmt, ...) __rte_format_printf(1, 2);

/* Per-round samples: combine and format. */
double bench_median(const double *v, unsigned int n);
double bench_best_min(const double *v, unsigned int n);
void bench_samples_str(char *buf, size_t len, const double *v,
		unsigned int n, double scale);

/* Worker lcores and the number of CPUs they may run on. */
unsigned int bench_worker_cpus(void);

/* Fisher-Yates shuffle with the run's seed (xorshift64*). */
uint64_t bench_rand(uint64_t *state);
void bench_shuffle(void **v, unsigned int n, uint64_t seed);

/*
 * Drain a full pool of n objects and refill it in shuffled order, one
 * object at a time, as packet drops leave a pool. 0, or -1 (printed).
 */
int bench_shuffled_refill(struct rte_mempool *mp, unsigned int n);

/*
 * Memory backing of a pool measured from /proc/self/smaps: sets
 * r->backing and r->huge_pct (and appends turbomem's own report to
 * r->status when the plugin exports it).
 */
void bench_pool_backing(const struct rte_mempool *mp, struct bench_row *r);

/* Hardware counters (perf_event_open): dTLB load misses and cycles. */
struct bench_hw {
	int fd_dtlb, fd_cycles;
	char why[64];          /* why unavailable, "" if available */
};
int bench_hw_open(struct bench_hw *hw);   /* 0, or -1 with hw->why set */
void bench_hw_start(struct bench_hw *hw);
/* Counts since start; NAN where the counter is unavailable. */
void bench_hw_stop(struct bench_hw *hw, double *dtlb, double *cycles);
void bench_hw_close(struct bench_hw *hw);

/* Scenarios: TEST_SUCCESS or TEST_FAILED (bad options, no worker...). */
int bench_grid(void);
int bench_pipeline(void);
int bench_locality(void);
int bench_deep(void);
int bench_hw(void);
int bench_cache(void);
int bench_frag(void);
int bench_pages(void);
int bench_chunks(void);

#endif /* TM_BENCH_COMMON_H */
