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
 * A scenario is one bench_*.c file holding a struct bench_scenario (name,
 * run function, unit and direction of its main figure, the charts its rows
 * feed) registered with BENCH_SCENARIO(); adding one means that file and
 * its line in meson.build. Each file's head describes its workload and
 * parameter matrix; "--scenario list" prints the registered ones.
 * Most scenarios hand their parameter sets to bench_run_set(), the one
 * interleaved runner: skip check, rounds x handlers, rows.
 *
 * Options: --scenario NAME|all|list
 *          --handlers a,b,...   (default ring_mp_mc,ring_mt_rts,ring_mt_hts,
 *                                stack,lf_stack,pile,bucket,turbomem; the
 *                                first is the baseline of the ratios)
 *          --bulks 1,4,16,32,random  --keeps 32,128,512  --caches 0,default
 *          --bulk N --keep N --cache N   (the same, one value)
 *          --seconds S (0.5) per measurement  --rounds N (3)
 *          --nonEAL N  --layout LABEL  --seed N (1)  --deep-n N (262143)
 *          --inflight 32,512 (locality, hw; default 512)
 *          --kills K (crash, default 200)  --stops S (stop, default 10)
 *          --chunks N (chunks: the pool of many chunks, default 1000)
 *          --pool-objs N,... (grid: the pool's objects, one row each;
 *                        default and least mempool_perf_autotest's size)
 *          --pmu on|off  --csv FILE  --json FILE (written at the end, with
 *          a run header: DPDK, kernel, CPU, THP mode, hugepages, seed...;
 *          the JSON also holds each scenario's unit, direction and charts,
 *          and the rows the run was expected to produce)
 *
 * Handlers that are not registered (pile before DPDK 26.11), or refuse
 * the workload (bucket with unregistered threads: it indexes per-lcore
 * arrays with rte_lcore_id()), give a row with status "skip: <reason>". No figure is ever made up: a
 * failed measurement has status "error: ..." and empty figures.
 * No timing assertions anywhere: these commands measure, they do not judge.
 *
 * Files: bench_common.c (registry, runner, command), bench_options.c,
 * bench_output.c (rows: table, CSV, JSON), bench_sysinfo.c (CPU, smaps,
 * the plugin's report through dlopen, perf_event counters).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>

#define BENCH_MAX_HANDLERS 16
#define BENCH_MAX_ROUNDS 15
#define BENCH_MAX_LIST 8
/* A "bulk" value meaning: sizes drawn at random in 1..BENCH_RANDOM_MAX. */
#define BENCH_BULK_RANDOM 0
#define BENCH_RANDOM_MAX 32
#define BENCH_MAX_KEEP 512
/* chunks: most pieces of its pool (of 2047 objects: one at least each) */
#define BENCH_MAX_CHUNKS 2047
/* grid --pool-objs: most objects (of 2 KB: 2 GB of pool) */
#define BENCH_MAX_POOL_OBJS (1u << 20)
/* crash, stop: most kills or stops per row */
#define BENCH_MAX_KILLS 100000
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
	unsigned int kills, stops;     /* crash, stop */
	unsigned int chunks;           /* chunks: pieces of the many-chunk pool */
	/* grid: the pools' sizes, none: the default one */
	unsigned int pool_objs[BENCH_MAX_LIST], nb_pool_objs;
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
	double bytes_per_obj;  /* memory: the handler's bytes per object */
	char stat[16];         /* how rounds combine: "median", "best" */
	unsigned int rounds;
	char samples[160];     /* every round's main figure */
	char status[160];      /* "ok", "skip: ...", "error: ...", "n/a: ..." */
	/* Figures of scenarios with their own (frag, pages): "key=value;..." */
	char extra[512];
};

/* The options of the current command (parsed once). */
extern struct bench_opts bench_opts;

/* Parse the command's options (bench_options.c). 0 or -1 (printed). */
int bench_parse(struct bench_opts *o, const char **scenario);

/* Output (bench_output.c): the run header, printed, and the rows. */
void bench_output_begin(void);
void bench_print_table(void);
int bench_write_csv(const char *path);
int bench_write_json(const char *path);

/* The run header (bench_sysinfo.c): DPDK, kernel, CPU, THP, ... */
#define BENCH_HDR_N 12
#define BENCH_HDR_KEY 32
#define BENCH_HDR_VAL 160
void bench_run_header(char keys[BENCH_HDR_N][BENCH_HDR_KEY],
		char vals[BENCH_HDR_N][BENCH_HDR_VAL]);

/* A row with the common fields (scenario, handler, layout, lcores) set. */
void bench_row_init(struct bench_row *r, const char *scenario,
		const char *handler);
/* Record a finished row: kept for the table, CSV and JSON. */
void bench_row_add(const struct bench_row *r);
/*
 * Figures of a throughput row from its rounds, for a scenario with a loop
 * of its own (cache): median objects/s and cycles per object, the samples,
 * the status (skip reason or error). Returns -1 if a round failed, else 0.
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
 * A handle on the turbomem plugin EAL loaded (dlopen RTLD_NOLOAD: the app
 * is not linked against it), or NULL. dlclose() it after use.
 */
void *bench_plugin_open(void);

struct rte_pmd_turbomem_stats;
/*
 * turbomem's driver statistics of mp (rte_pmd_turbomem_stats_get, or
 * _reset when st is NULL) through the plugin EAL loaded: 0, or -1 when
 * the plugin or the function is missing or mp is no turbomem pool.
 */
int bench_turbomem_stats(struct rte_mempool *mp,
		struct rte_pmd_turbomem_stats *st);
/*
 * Calls that reached turbomem's driver (gets, refused gets, puts) since
 * the pool was made or its statistics reset; -1 where mp is no turbomem
 * pool (or the plugin exports no statistics).
 */
int64_t bench_turbomem_calls(struct rte_mempool *mp);

/*
 * Memory backing of a pool measured from /proc/self/smaps: sets
 * r->backing and r->huge_pct (and appends turbomem's own report to
 * r->status when the plugin exports it).
 */
void bench_pool_backing(const struct rte_mempool *mp, struct bench_row *r);

/*
 * Memory of a pool, measured (bench_memory.c, the memory scenario; the
 * telemetry test): a snapshot of the bytes allocated in every DPDK malloc
 * heap (the NUMA sockets', and the external heaps holding a memzone)
 * before creating a pool and one after, and what the pool took.
 */
#define BENCH_MEM_MAX_HEAPS 64
struct bench_mem_snap {
	unsigned int nb_heaps;
	int socket[BENCH_MEM_MAX_HEAPS];
	uint64_t alloc[BENCH_MEM_MAX_HEAPS];   /* heap_allocsz_bytes */
	uint64_t total[BENCH_MEM_MAX_HEAPS];   /* heap_totalsz_bytes */
};
struct bench_mem_use {
	int64_t heap_delta;        /* bytes allocated in the heaps since */
	uint64_t mempool_bytes;    /* the mempool's memzones, chunk headers */
	int64_t handler_bytes;     /* heap_delta - mempool_bytes */
	uint64_t new_heaps;        /* size of the heaps made since */
	uint64_t own_heap_unused;  /* their bytes not allocated */
	int64_t pool_bytes;        /* heap_delta + own_heap_unused */
};
void bench_mem_snapshot(struct bench_mem_snap *s);
/* What mp took between the snapshots before and after (mp alive). */
void bench_mem_use(const struct rte_mempool *mp,
		const struct bench_mem_snap *before,
		const struct bench_mem_snap *after, struct bench_mem_use *u);

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

/* --- scenarios ------------------------------------------------------- */

/* The figures a measurement gives (row fields mobj_s, cycles_per_obj,
 * dtlb_per_obj, bytes_per_obj; CSV/JSON columns as bench_fig_name). */
enum bench_fig {
	BENCH_FIG_MOBJ_S,      /* objects per second */
	BENCH_FIG_CYCLES,      /* TSC cycles per object */
	BENCH_FIG_DTLB,        /* dTLB load misses per object */
	BENCH_FIG_BYTES,       /* bytes of handler memory per object */
	BENCH_NB_FIGS
};

/* How a row's figures combine its rounds. */
enum bench_stat {
	BENCH_MEDIAN,
	BENCH_BEST,            /* the least of the rounds */
	BENCH_ONCE,            /* one pass per handler, no rounds ("mean") */
};

struct bench_scenario;
typedef int (bench_run_fn)(const struct bench_scenario *sc);

struct bench_scenario {
	const char *name;
	bench_run_fn *run;     /* TEST_SUCCESS or TEST_FAILED */
	/* The main figure: the table, its ratios, the charts, the check. */
	enum bench_fig figure;
	const char *unit;      /* as the table prints it: "Mobj/s", ... */
	bool higher_is_better;
	enum bench_stat stat;
	/*
	 * How the report names a row's parameters: ", "-separated pieces with
	 * {bulk} {keep} {cache} {pool_size} {mem}; a piece whose field is empty
	 * is left out.
	 */
	const char *params;
	/* Charts its rows feed (scripts/bench_report.py plot), comma list. */
	const char *charts;
	struct bench_scenario *next;
};

void bench_scenario_register(struct bench_scenario *sc);
/* The registered scenario of that name, or NULL; name NULL: the first
 * registered (the others follow by ->next). */
const struct bench_scenario *bench_scenario_find(const char *name);

#define BENCH_SCENARIO(var) \
	RTE_INIT(bench_scenario_init_ ## var) \
	{ \
		bench_scenario_register(&var); \
	}

/* CSV/JSON column of a figure. */
const char *bench_fig_name(enum bench_fig f);

/* --- the interleaved runner -------------------------------------------- */

#define BENCH_MAX_VARIANTS 3

struct bench_set;
/*
 * One measurement of handler h (index in bench_opts.handlers) on variant v:
 * figures into fig[] (NAN where not measured); row is the handler's row,
 * kept across rounds, for the figures a scenario sets itself (pages,
 * backing, extra). Returns 0, or -1 with an "error: ..." status in row.
 */
typedef int (bench_measure_fn)(struct bench_set *set, unsigned int h,
		unsigned int v, struct bench_row *row,
		double fig[BENCH_NB_FIGS]);
/* After the rounds, on a row that was measured and did not fail. */
typedef void (bench_finish_fn)(struct bench_set *set, unsigned int h,
		unsigned int v, struct bench_row *row);

/*
 * One parameter set: every handler of the options, on every variant (a
 * row prototype each: layout, bulk, keep, cache, pool size...), rounds x
 * handlers x variants interleaved.
 */
struct bench_set {
	const struct bench_scenario *sc;
	struct bench_row proto[BENCH_MAX_VARIANTS];
	unsigned int nb_variants;      /* 0 means 1 */
	unsigned int elt_size;         /* for bench_handler_skip() */
	bool nonEAL;
	bench_measure_fn *measure;
	bench_finish_fn *finish;       /* optional */
	/* Optional: why the scenario itself refuses a handler, or NULL. */
	const char *(*skip)(const char *handler);
	void *ctx;                     /* the scenario's */
	unsigned int round;            /* the round being run, from 0 */
	/* Out: rows [h * nb_variants + v], already recorded. */
	struct bench_row rows[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS];
};

/* A row prototype of set: scenario and common fields, variant 0. */
struct bench_row *bench_set_init(struct bench_set *set,
		const struct bench_scenario *sc);
/*
 * Run the set and record its rows (and, first, the rows it is expected to
 * give). TEST_SUCCESS, or TEST_FAILED if a measured row failed.
 */
int bench_run_set(struct bench_set *set);

/* Record a row this run is expected to give (the runner does, per set). */
void bench_expect(const struct bench_row *r);

#endif /* TM_BENCH_COMMON_H */