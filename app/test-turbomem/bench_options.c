/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The turbomem authors
 */

/*
 * turbomem_bench options (listed in bench_common.h): defaults, parsing,
 * limits, the default layout label.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>

#include "test.h"
#include "bench_common.h"

static const char * const default_handlers[] = {
	"ring_mp_mc", "ring_mt_rts", "ring_mt_hts", "stack", "lf_stack",
	"pile", "bucket", "turbomem",
};

static int
parse_uint_list(const char *s, unsigned int *v, unsigned int *n, bool bulk)
{
	char buf[256], *tok, *save = NULL, *end;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (*n == BENCH_MAX_LIST) {
			printf("more than %d values in \"%s\"\n",
				BENCH_MAX_LIST, s);
			return -1;
		}
		if (bulk && strcmp(tok, "random") == 0) {
			v[(*n)++] = BENCH_BULK_RANDOM;
			continue;
		}
		if (!bulk && strcmp(tok, "default") == 0) {
			v[(*n)++] = BENCH_CACHE_DEFAULT;
			continue;
		}
		errno = 0;
		v[*n] = strtoul(tok, &end, 0);
		if (errno != 0 || *end != '\0' || end == tok) {
			printf("bad number \"%s\" in \"%s\"\n", tok, s);
			return -1;
		}
		(*n)++;
	}
	return *n > 0 ? 0 : -1;
}

int
bench_parse(struct bench_opts *o, const char **scenario)
{
	static char handlers_buf[512];
	char *tok, *save = NULL;
	unsigned int i;
	int a;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < RTE_DIM(default_handlers); i++)
		o->handlers[i] = default_handlers[i];
	o->nb_handlers = RTE_DIM(default_handlers);
	parse_uint_list("1,4,16,32,random", o->bulks, &o->nb_bulks, true);
	parse_uint_list("32,128,512", o->keeps, &o->nb_keeps, false);
	parse_uint_list("0,default", o->caches, &o->nb_caches, false);
	parse_uint_list("512", o->inflights, &o->nb_inflights, false);
	o->seconds = 0.5;
	o->rounds = 3;
	o->deep_n = 262143;
	o->kills = 200;
	o->stops = 10;
	o->chunks = 1000;
	o->seed = 1;
	o->pmu = true;
	*scenario = "grid";

	for (a = 0; a < tm_test_argc; a += 2) {
		const char *k = tm_test_argv[a];
		const char *v = a + 1 < tm_test_argc ? tm_test_argv[a + 1] : NULL;
		int ret = 0;

		if (v == NULL) {
			printf("option %s needs a value\n", k);
			return -1;
		}
		if (strcmp(k, "--scenario") == 0) {
			*scenario = v;
		} else if (strcmp(k, "--handlers") == 0) {
			if (strlen(v) >= sizeof(handlers_buf))
				return -1;
			strcpy(handlers_buf, v);
			o->nb_handlers = 0;
			for (tok = strtok_r(handlers_buf, ",", &save);
					tok != NULL; tok = strtok_r(NULL, ",", &save)) {
				if (o->nb_handlers == BENCH_MAX_HANDLERS) {
					printf("more than %d handlers\n",
						BENCH_MAX_HANDLERS);
					return -1;
				}
				o->handlers[o->nb_handlers++] = tok;
			}
			o->handlers_given = true;
		} else if (strcmp(k, "--bulks") == 0 ||
				strcmp(k, "--bulk") == 0) {
			ret = parse_uint_list(v, o->bulks, &o->nb_bulks, true);
			o->bulks_given = true;
		} else if (strcmp(k, "--keeps") == 0 ||
				strcmp(k, "--keep") == 0) {
			ret = parse_uint_list(v, o->keeps, &o->nb_keeps, false);
		} else if (strcmp(k, "--caches") == 0 ||
				strcmp(k, "--cache") == 0) {
			ret = parse_uint_list(v, o->caches, &o->nb_caches, false);
			o->caches_given = true;
		} else if (strcmp(k, "--inflight") == 0) {
			ret = parse_uint_list(v, o->inflights, &o->nb_inflights,
					false);
			o->inflights_given = true;
		} else if (strcmp(k, "--seconds") == 0) {
			o->seconds = atof(v);
		} else if (strcmp(k, "--rounds") == 0) {
			o->rounds = atoi(v);
		} else if (strcmp(k, "--nonEAL") == 0) {
			o->nonEAL = atoi(v);
		} else if (strcmp(k, "--deep-n") == 0) {
			o->deep_n = strtoul(v, NULL, 0);
		} else if (strcmp(k, "--kills") == 0) {
			o->kills = strtoul(v, NULL, 0);
		} else if (strcmp(k, "--chunks") == 0) {
			o->chunks = strtoul(v, NULL, 0);
		} else if (strcmp(k, "--pool-objs") == 0) {
			ret = parse_uint_list(v, o->pool_objs, &o->nb_pool_objs,
					true);
		} else if (strcmp(k, "--stops") == 0) {
			o->stops = strtoul(v, NULL, 0);
		} else if (strcmp(k, "--seed") == 0) {
			o->seed = strtoull(v, NULL, 0);
		} else if (strcmp(k, "--pmu") == 0) {
			o->pmu = strcmp(v, "off") != 0;
		} else if (strcmp(k, "--layout") == 0) {
			snprintf(o->layout, sizeof(o->layout), "%s", v);
		} else if (strcmp(k, "--csv") == 0) {
			o->csv = v;
		} else if (strcmp(k, "--json") == 0) {
			o->json = v;
		} else {
			printf("unknown option %s (see bench_common.h)\n", k);
			return -1;
		}
		if (ret < 0)
			return -1;
	}
	if (o->nb_handlers == 0 || o->rounds == 0 ||
			o->rounds > BENCH_MAX_ROUNDS || !(o->seconds > 0) ||
			o->seconds > 60 || o->nonEAL > 64 ||
			o->deep_n < 1024) {
		printf("bad options: handlers %u, rounds %u (1..%d), seconds %g (0..60], nonEAL %u (<= 64), deep-n %u (>= 1024)\n",
			o->nb_handlers, o->rounds, BENCH_MAX_ROUNDS, o->seconds,
			o->nonEAL, o->deep_n);
		return -1;
	}
	if (o->chunks < 2 || o->chunks > BENCH_MAX_CHUNKS) {
		printf("--chunks %u: must be in 2..%d\n", o->chunks,
			BENCH_MAX_CHUNKS);
		return -1;
	}
	if (o->kills == 0 || o->kills > BENCH_MAX_KILLS ||
			o->stops == 0 || o->stops > BENCH_MAX_KILLS) {
		printf("--kills %u, --stops %u: each must be in 1..%d\n",
			o->kills, o->stops, BENCH_MAX_KILLS);
		return -1;
	}
	for (i = 0; i < o->nb_bulks; i++)
		if (o->bulks[i] > BENCH_MAX_KEEP) {
			printf("bulk %u > %d\n", o->bulks[i], BENCH_MAX_KEEP);
			return -1;
		}
	for (i = 0; i < o->nb_keeps; i++)
		if (o->keeps[i] == 0 || o->keeps[i] > BENCH_MAX_KEEP) {
			printf("keep %u not in 1..%d\n", o->keeps[i],
				BENCH_MAX_KEEP);
			return -1;
		}
	for (i = 0; i < o->nb_inflights; i++)
		if (o->inflights[i] == 0 ||
				o->inflights[i] > BENCH_LOC_MAX_INFLIGHT ||
				o->inflights[i] % BENCH_LOC_BURST != 0) {
			printf("inflight %u not a multiple of %u in %u..%u\n",
				o->inflights[i], BENCH_LOC_BURST,
				BENCH_LOC_BURST, BENCH_LOC_MAX_INFLIGHT);
			return -1;
		}
	for (i = 0; i < o->nb_caches; i++)
		if (o->caches[i] > RTE_MEMPOOL_CACHE_MAX_SIZE) {
			printf("cache %u > %d\n", o->caches[i],
				RTE_MEMPOOL_CACHE_MAX_SIZE);
			return -1;
		}
	if (o->layout[0] == '\0') {
		unsigned int w = rte_lcore_count() - 1;

		if (o->nonEAL > 0)
			snprintf(o->layout, sizeof(o->layout), "%u nonEAL",
				o->nonEAL);
		else if (w == 0)
			snprintf(o->layout, sizeof(o->layout), "main lcore");
		else
			snprintf(o->layout, sizeof(o->layout), "%u on %u CPUs",
				w, bench_worker_cpus());
	}
	return 0;
}

