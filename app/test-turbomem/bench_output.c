/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench output: the rows of the run and the rows it is expected
 * to give, the human table, the CSV and the JSON (with each scenario's
 * unit, direction and charts, so that the report needs no knowledge of
 * scenarios).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "test.h"
#include "bench_common.h"

#define BENCH_MAX_ROWS 2048
static struct bench_row *rows;
static unsigned int nb_rows;
static struct bench_row *expected;
static unsigned int nb_expected;
static char hdr_keys[BENCH_HDR_N][BENCH_HDR_KEY];
static char hdr_vals[BENCH_HDR_N][BENCH_HDR_VAL];

void
bench_output_begin(void)
{
	unsigned int i;

	nb_rows = nb_expected = 0;
	bench_run_header(hdr_keys, hdr_vals);
	for (i = 0; i < BENCH_HDR_N; i++)
		printf("# %s: %s\n", hdr_keys[i], hdr_vals[i]);
}

void
bench_row_init(struct bench_row *r, const char *scenario, const char *handler)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->scenario, sizeof(r->scenario), "%s", scenario);
	snprintf(r->handler, sizeof(r->handler), "%s", handler);
	snprintf(r->layout, sizeof(r->layout), "%s", bench_opts.layout);
	snprintf(r->threads, sizeof(r->threads), "eal");
	snprintf(r->mem, sizeof(r->mem), "%s",
		rte_eal_has_hugepages() ? "hugetlbfs" : "nohuge");
	r->workers = 1;
	r->cpus = 1;
	r->bulk = r->keep = r->cache = -1;
	r->huge_pct = NAN;
	r->mobj_s = r->cycles_per_obj = r->pages_4k = r->pages_2m = NAN;
	r->dtlb_per_obj = r->hw_cycles_per_obj = r->bytes_per_obj = NAN;
	snprintf(r->status, sizeof(r->status), "ok");
}


static void
row_store(struct bench_row **tab, unsigned int *n, const struct bench_row *r,
		const char *what)
{
	if (*tab == NULL)
		*tab = calloc(BENCH_MAX_ROWS, sizeof(**tab));
	if (*tab == NULL || *n == BENCH_MAX_ROWS) {
		printf("%s table full (%d rows): row %s/%s dropped\n",
			what, BENCH_MAX_ROWS, r->scenario, r->handler);
		return;
	}
	(*tab)[(*n)++] = *r;
}

void
bench_row_add(const struct bench_row *r)
{
	row_store(&rows, &nb_rows, r, "result");
}

void
bench_expect(const struct bench_row *r)
{
	row_store(&expected, &nb_expected, r, "expected rows");
}

static void
str_int(char *buf, size_t len, int v, bool bulk)
{
	if (v < 0)
		snprintf(buf, len, bulk ? "" : "none");
	else if (bulk && v == BENCH_BULK_RANDOM)
		snprintf(buf, len, "random");
	else
		snprintf(buf, len, "%d", v);
}

static void
fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.6g", v);
}

/* The figure the table shows for a row, in its scenario's unit. */
static double
main_figure(const struct bench_row *r, const char **unit)
{
	const struct bench_scenario *sc = bench_scenario_find(r->scenario);

	*unit = sc != NULL ? sc->unit : "?";
	switch (sc != NULL ? sc->figure : BENCH_NB_FIGS) {
	case BENCH_FIG_MOBJ_S:
		return r->mobj_s / 1e6;
	case BENCH_FIG_CYCLES:
		return r->cycles_per_obj;
	case BENCH_FIG_DTLB:
		return r->dtlb_per_obj;
	case BENCH_FIG_BYTES:
		return r->bytes_per_obj;
	default:
		return NAN;
	}
}

static bool
same_params(const struct bench_row *a, const struct bench_row *b)
{
	return strcmp(a->scenario, b->scenario) == 0 &&
		strcmp(a->layout, b->layout) == 0 &&
		strcmp(a->threads, b->threads) == 0 &&
		strcmp(a->mem, b->mem) == 0 &&
		a->bulk == b->bulk && a->keep == b->keep &&
		a->cache == b->cache;
}

void
bench_print_table(void)
{
	char bulk[16], keep[16], cache[16];
	unsigned int i, j;
	bool *done = calloc(nb_rows, sizeof(bool));

	if (done == NULL || nb_rows == 0) {
		free(done);
		return;
	}
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *base = &rows[i];
		const char *unit;
		double b;

		if (done[i])
			continue;
		str_int(bulk, sizeof(bulk), base->bulk, true);
		str_int(keep, sizeof(keep), base->keep, false);
		str_int(cache, sizeof(cache), base->cache, false);
		b = main_figure(base, &unit);
		printf("\n%s | %s (%s, %u workers on %u CPUs) | bulk %s keep %s cache %s | mem %s\n",
			base->scenario, base->layout, base->threads,
			base->workers, base->cpus, bulk[0] ? bulk : "-",
			base->keep < 0 ? "-" : keep, cache, base->mem);
		printf("  %-12s %14s %8s  %-9s %s\n", "handler", unit,
			"ratio", "backing", "rounds / status");
		for (j = i; j < nb_rows; j++) {
			const struct bench_row *r = &rows[j];
			double v;

			if (done[j] || !same_params(base, r))
				continue;
			done[j] = true;
			v = main_figure(r, &unit);
			if (isnan(v)) {
				printf("  %-12s %14s %8s  %-9s %s\n", r->handler,
					"n/a", "", r->backing, r->status);
				continue;
			}
			printf("  %-12s %14.4g %7.3gx  %-9s %s [%s]%s%s\n",
				r->handler, v, b > 0 ? v / b : NAN,
				r->backing, r->stat, r->samples,
				strcmp(r->status, "ok") ? " " : "",
				strcmp(r->status, "ok") ? r->status : "");
		}
	}
	free(done);
	printf("\nratio: each handler's figure / %s's (throughput: higher is better; cycles, misses, bytes: lower is better)\n",
		rows[0].handler);
}

static const char *
csv_cols =
	"scenario,handler,layout,threads,workers,cpus,bulk,keep,cache,pool_size,mem,backing,huge_pct,mobj_per_s,cycles_per_obj,pages_4k_per_1000,pages_2m_per_1000,dtlb_misses_per_obj,hw_cycles_per_obj,bytes_per_obj,stat,rounds,samples,status,extra";

static void
csv_str(FILE *f, const char *s, bool last)
{
	/* Quote always: layouts and statuses hold commas and spaces. */
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputs(last ? "\"\n" : "\",", f);
}

int
bench_write_csv(const char *path)
{
	char b[9][32];
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < BENCH_HDR_N; i++)
		fprintf(f, "# %s: %s\n", hdr_keys[i], hdr_vals[i]);
	fprintf(f, "%s\n", csv_cols);
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *r = &rows[i];

		csv_str(f, r->scenario, false);
		csv_str(f, r->handler, false);
		csv_str(f, r->layout, false);
		csv_str(f, r->threads, false);
		fprintf(f, "%u,%u,", r->workers, r->cpus);
		str_int(b[0], 32, r->bulk, true);
		str_int(b[1], 32, r->keep, true);
		str_int(b[2], 32, r->cache, false);
		fprintf(f, "%s,%s,%s,%u,", b[0], b[1], b[2], r->pool_size);
		csv_str(f, r->mem, false);
		csv_str(f, r->backing, false);
		fmt_num(b[0], 32, r->huge_pct);
		fmt_num(b[1], 32, r->mobj_s);
		fmt_num(b[2], 32, r->cycles_per_obj);
		fmt_num(b[3], 32, r->pages_4k);
		fmt_num(b[4], 32, r->pages_2m);
		fmt_num(b[5], 32, r->dtlb_per_obj);
		fmt_num(b[6], 32, r->hw_cycles_per_obj);
		fprintf(f, "%s,%s,%s,%s,%s,", b[0], b[1], b[2], b[3], b[4]);
		/* The counters' absence is said, not left blank. */
		fprintf(f, "%s,%s,", b[5][0] ? b[5] : "n/a",
			b[6][0] ? b[6] : "n/a");
		fmt_num(b[7], 32, r->bytes_per_obj);
		fprintf(f, "%s,", b[7]);
		csv_str(f, r->stat, false);
		fprintf(f, "%u,", r->rounds);
		csv_str(f, r->samples, false);
		csv_str(f, r->status, false);
		csv_str(f, r->extra, true);
	}
	fclose(f);
	return 0;
}

static void
json_str(FILE *f, const char *k, const char *s, bool comma)
{
	fprintf(f, "\"%s\": \"", k);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fprintf(f, "\"%s", comma ? ", " : "");
}

static void
json_num(FILE *f, const char *k, double v)
{
	if (isnan(v))
		fprintf(f, "\"%s\": null, ", k);
	else
		fprintf(f, "\"%s\": %.6g, ", k, v);
}

/* The fields that name a row: scenario, handler and parameters. */
static void
json_row_key(FILE *f, const struct bench_row *r)
{
	char b[32];

	json_str(f, "scenario", r->scenario, true);
	json_str(f, "handler", r->handler, true);
	json_str(f, "layout", r->layout, true);
	json_str(f, "threads", r->threads, true);
	fprintf(f, "\"workers\": %u, \"cpus\": %u, ", r->workers, r->cpus);
	str_int(b, sizeof(b), r->bulk, true);
	json_str(f, "bulk", b, true);
	fprintf(f, "\"keep\": %d, \"cache\": %d, \"pool_size\": %u, ",
		r->keep, r->cache, r->pool_size);
	json_str(f, "mem", r->mem, true);
}

/* Each registered scenario: the unit, direction and charts of its rows. */
static void
json_scenarios(FILE *f)
{
	const struct bench_scenario *sc;
	static const char * const stat[] = {
		[BENCH_MEDIAN] = "median", [BENCH_BEST] = "best",
		[BENCH_ONCE] = "mean",
	};

	fprintf(f, "\"scenarios\": {");
	for (sc = bench_scenario_find(NULL); sc != NULL; sc = sc->next) {
		fprintf(f, "\n\"%s\": {", sc->name);
		json_str(f, "figure", bench_fig_name(sc->figure), true);
		fprintf(f, "\"scale\": %g, ",
			sc->figure == BENCH_FIG_MOBJ_S ? 1e6 : 1.0);
		json_str(f, "unit", sc->unit, true);
		fprintf(f, "\"higher_is_better\": %s, ",
			sc->higher_is_better ? "true" : "false");
		json_str(f, "stat", stat[sc->stat], true);
		json_str(f, "params", sc->params, true);
		json_str(f, "charts", sc->charts != NULL ? sc->charts : "",
			false);
		fprintf(f, "}%s", sc->next != NULL ? "," : "");
	}
	fprintf(f, "},\n");
}

int
bench_write_json(const char *path)
{
	unsigned int i;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\"header\": {");
	for (i = 0; i < BENCH_HDR_N; i++)
		json_str(f, hdr_keys[i], hdr_vals[i], i + 1 < BENCH_HDR_N);
	fprintf(f, "},\n");
	json_scenarios(f);
	/* What the run was asked for: a row each, status "ok" or "n/a: ...". */
	fprintf(f, "\"expected\": [\n");
	for (i = 0; i < nb_expected; i++) {
		fprintf(f, "{");
		json_row_key(f, &expected[i]);
		json_str(f, "status", expected[i].status, false);
		fprintf(f, "}%s\n", i + 1 < nb_expected ? "," : "");
	}
	fprintf(f, "],\n\"rows\": [\n");
	for (i = 0; i < nb_rows; i++) {
		const struct bench_row *r = &rows[i];

		fprintf(f, "{");
		json_row_key(f, r);
		json_str(f, "backing", r->backing, true);
		json_num(f, "huge_pct", r->huge_pct);
		json_num(f, bench_fig_name(BENCH_FIG_MOBJ_S), r->mobj_s);
		json_num(f, bench_fig_name(BENCH_FIG_CYCLES), r->cycles_per_obj);
		json_num(f, "pages_4k_per_1000", r->pages_4k);
		json_num(f, "pages_2m_per_1000", r->pages_2m);
		json_num(f, bench_fig_name(BENCH_FIG_DTLB), r->dtlb_per_obj);
		json_num(f, "hw_cycles_per_obj", r->hw_cycles_per_obj);
		json_num(f, bench_fig_name(BENCH_FIG_BYTES), r->bytes_per_obj);
		json_str(f, "stat", r->stat, true);
		fprintf(f, "\"rounds\": %u, ", r->rounds);
		json_str(f, "samples", r->samples, true);
		json_str(f, "status", r->status, true);
		json_str(f, "extra", r->extra, false);
		fprintf(f, "}%s\n", i + 1 < nb_rows ? "," : "");
	}
	fprintf(f, "]}\n");
	fclose(f);
	return 0;
}
