/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench: the scenario registry, the interleaved runner, the
 * command, and the helpers the scenarios share (statistics, seeded
 * shuffle, handler checks). Options, output and system information have
 * their own files (bench_common.h lists them).
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "rte_pmd_turbomem.h"
#include "test.h"
#include "bench_common.h"

struct bench_opts bench_opts;

/* --- registry ---------------------------------------------------------- */

static struct bench_scenario *scenarios;

/* In registration order: the order of meson.build's file list. */
void
bench_scenario_register(struct bench_scenario *sc)
{
	struct bench_scenario **p = &scenarios;

	while (*p != NULL)
		p = &(*p)->next;
	sc->next = NULL;
	*p = sc;
}

const struct bench_scenario *
bench_scenario_find(const char *name)
{
	const struct bench_scenario *sc;

	if (name == NULL)
		return scenarios;
	for (sc = scenarios; sc != NULL; sc = sc->next)
		if (strcmp(sc->name, name) == 0)
			return sc;
	return NULL;
}

const char *
bench_fig_name(enum bench_fig f)
{
	static const char * const names[BENCH_NB_FIGS] = {
		[BENCH_FIG_MOBJ_S] = "mobj_per_s",
		[BENCH_FIG_CYCLES] = "cycles_per_obj",
		[BENCH_FIG_DTLB] = "dtlb_misses_per_obj",
		[BENCH_FIG_BYTES] = "bytes_per_obj",
	};

	return f < BENCH_NB_FIGS ? names[f] : "?";
}

/* --- helpers ---------------------------------------------------------- */

void
bench_progress(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "[bench] ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
bench_median(const double *v, unsigned int n)
{
	double s[BENCH_MAX_ROUNDS];
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	if (k == 0)
		return NAN;
	qsort(s, k, sizeof(double), cmp_double);
	return k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}

double
bench_best_min(const double *v, unsigned int n)
{
	double best = NAN;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(best) || v[i] < best))
			best = v[i];
	return best;
}

void
bench_samples_str(char *buf, size_t len, const double *v, unsigned int n,
		double scale)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%.4g",
			i ? " " : "", v[i] / scale);
}

uint64_t
bench_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void
bench_shuffle(void **v, unsigned int n, uint64_t seed)
{
	uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 1;
	unsigned int i;

	for (i = n - 1; i > 0; i--) {
		unsigned int j = bench_rand(&st) % (i + 1);
		void *t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static bool
ops_registered(const char *name)
{
	size_t n = strlen(name), k = strlen(TM_TRACK_SUFFIX);
	unsigned int i;

	/* "turbomem+track": turbomem with tracking on (tm_test_set_ops). */
	if (n > k && strcmp(name + n - k, TM_TRACK_SUFFIX) == 0)
		n -= k;
	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strncmp(rte_mempool_ops_table.ops[i].name, name, n) == 0 &&
				rte_mempool_ops_table.ops[i].name[n] == '\0')
			return true;
	return false;
}

const char *
bench_handler_skip(const char *handler, bool nonEAL, unsigned int elt_size)
{
	/* pile is DPDK's own from 26.11 on: before, a skip, not a fault. */
	if (!ops_registered(handler))
		return strcmp(handler, "pile") == 0 ?
			"pile: not registered by this DPDK (26.11 or newer)" :
			"not registered (plugin not loaded?)";
	if (strcmp(handler, "bucket") == 0) {
		/* Its bucket is min(page size, 64 KB) with a 64-byte header. */
		size_t bucket = rte_eal_has_hugepages() ? 64 * 1024 :
			(size_t)sysconf(_SC_PAGESIZE);

		if (nonEAL)
			return "bucket indexes per-lcore arrays by rte_lcore_id(), out of bounds on unregistered threads";
		if (elt_size + 2 * RTE_CACHE_LINE_SIZE > bucket)
			return "objects do not fit in its page-sized bucket";
	}
	return NULL;
}


/* --- rows ------------------------------------------------------------- */

int
bench_row_rates(struct bench_row *r, const char *skip, const double *rate,
		const double *cyc, unsigned int rounds)
{
	r->rounds = rounds;
	snprintf(r->stat, sizeof(r->stat), "median");
	snprintf(r->backing, sizeof(r->backing), "-");
	if (skip != NULL) {
		snprintf(r->status, sizeof(r->status), "skip: %s", skip);
		return 0;
	}
	r->mobj_s = bench_median(rate, rounds);
	r->cycles_per_obj = bench_median(cyc, rounds);
	bench_samples_str(r->samples, sizeof(r->samples), rate, rounds, 1e6);
	if (isnan(r->mobj_s)) {
		snprintf(r->status, sizeof(r->status),
			"error: pool creation or run failed");
		return -1;
	}
	return 0;
}

/* --- the interleaved runner -------------------------------------------- */

struct bench_row *
bench_set_init(struct bench_set *set, const struct bench_scenario *sc)
{
	memset(set, 0, sizeof(*set));
	set->sc = sc;
	set->nb_variants = 1;
	bench_row_init(&set->proto[0], sc->name, "");
	return &set->proto[0];
}

static double *
fig_field(struct bench_row *r, enum bench_fig f)
{
	switch (f) {
	case BENCH_FIG_MOBJ_S:
		return &r->mobj_s;
	case BENCH_FIG_CYCLES:
		return &r->cycles_per_obj;
	case BENCH_FIG_BYTES:
		return &r->bytes_per_obj;
	default:
		return &r->dtlb_per_obj;
	}
}

/* A measured row's figures from its rounds; -1 if none was measured. */
static int
set_figures(const struct bench_set *set, struct bench_row *row,
		double fig[BENCH_NB_FIGS][BENCH_MAX_ROUNDS], unsigned int rounds)
{
	const struct bench_scenario *sc = set->sc;
	enum bench_fig main = sc->figure, f;

	for (f = 0; f < BENCH_NB_FIGS; f++)
		*fig_field(row, f) = sc->stat == BENCH_BEST ?
			bench_best_min(fig[f], rounds) :
			bench_median(fig[f], rounds);
	if (sc->stat != BENCH_ONCE) {
		/* The main figure's rounds; the cycles' where it is n/a. */
		if (isnan(*fig_field(row, main)))
			main = BENCH_FIG_CYCLES;
		bench_samples_str(row->samples, sizeof(row->samples), fig[main],
			rounds, main == BENCH_FIG_MOBJ_S ? 1e6 : 1);
	}
	return isnan(row->mobj_s) && isnan(row->cycles_per_obj) &&
		isnan(row->bytes_per_obj) ? -1 : 0;
}

int
bench_run_set(struct bench_set *set)
{
	const struct bench_opts *o = &bench_opts;
	const struct bench_scenario *sc = set->sc;
	unsigned int nv = RTE_MAX(set->nb_variants, 1u);
	unsigned int rounds = sc->stat == BENCH_ONCE ? 1 : o->rounds;
	static double fig[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS]
		[BENCH_NB_FIGS][BENCH_MAX_ROUNDS];
	bool failed[BENCH_MAX_HANDLERS * BENCH_MAX_VARIANTS] = { false };
	const char *skip[BENCH_MAX_HANDLERS];
	unsigned int h, v, round, f, i;
	int ret = TEST_SUCCESS;

	for (h = 0; h < o->nb_handlers; h++) {
		skip[h] = bench_handler_skip(o->handlers[h], set->nonEAL,
				set->elt_size);
		if (skip[h] == NULL && set->skip != NULL)
			skip[h] = set->skip(o->handlers[h]);
		for (v = 0; v < nv; v++) {
			struct bench_row *row = &set->rows[h * nv + v];

			*row = set->proto[v];
			snprintf(row->handler, sizeof(row->handler), "%s",
				o->handlers[h]);
			row->rounds = rounds;
			snprintf(row->stat, sizeof(row->stat), "%s",
				sc->stat == BENCH_MEDIAN ? "median" :
				sc->stat == BENCH_BEST ? "best" : "mean");
			bench_expect(row);
			for (f = 0; f < BENCH_NB_FIGS; f++)
				for (round = 0; round < rounds; round++)
					fig[h * nv + v][f][round] = NAN;
		}
	}
	for (round = 0; round < rounds; round++)
	for (h = 0; h < o->nb_handlers; h++)
	for (v = 0; v < nv; v++) {
		double one[BENCH_NB_FIGS];

		for (f = 0; f < BENCH_NB_FIGS; f++)
			one[f] = NAN;
		i = h * nv + v;
		if (skip[h] != NULL)
			continue;
		set->round = round;
		if (set->measure(set, h, v, &set->rows[i], one) < 0)
			failed[i] = true;
		for (f = 0; f < BENCH_NB_FIGS; f++)
			fig[i][f][round] = one[f];
	}
	for (i = 0; i < o->nb_handlers * nv; i++) {
		struct bench_row *row = &set->rows[i];

		if (skip[i / nv] != NULL) {
			snprintf(row->status, sizeof(row->status), "skip: %s",
				skip[i / nv]);
		} else if (set_figures(set, row, fig[i], rounds) < 0 ||
				failed[i]) {
			if (strncmp(row->status, "error", 5) != 0)
				snprintf(row->status, sizeof(row->status),
					"error: pool creation or run failed");
			ret = TEST_FAILED;
		} else if (set->finish != NULL) {
			set->finish(set, i / nv, i % nv, row);
		}
		bench_row_add(row);
	}
	return ret;
}

/* --- the command ------------------------------------------------------- */

static int
test_bench(void)
{
	const struct bench_scenario *sc;
	const char *scenario;
	unsigned int ran = 0;
	int ret = TEST_SUCCESS;

	if (bench_parse(&bench_opts, &scenario) < 0)
		return TEST_FAILED;
	if (strcmp(scenario, "list") == 0) {
		for (sc = scenarios; sc != NULL; sc = sc->next)
			printf("scenario: %-9s %s (%s is better)\n", sc->name,
				sc->unit, sc->higher_is_better ? "higher" : "lower");
		return TEST_SUCCESS;
	}
	bench_output_begin();
	for (sc = scenarios; sc != NULL; sc = sc->next) {
		if (strcmp(scenario, "all") != 0 &&
				strcmp(scenario, sc->name) != 0)
			continue;
		ran++;
		if (sc->run(sc) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	if (ran == 0) {
		printf("unknown scenario \"%s\" (list: --scenario list)\n",
			scenario);
		return TEST_FAILED;
	}
	bench_print_table();
	if (bench_opts.csv != NULL && bench_write_csv(bench_opts.csv) < 0)
		ret = TEST_FAILED;
	if (bench_opts.json != NULL && bench_write_json(bench_opts.json) < 0)
		ret = TEST_FAILED;
	return ret;
}
TM_TEST_REGISTER(turbomem_bench, test_bench);
