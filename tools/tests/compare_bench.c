// SPDX-License-Identifier: GPL-2.0
/*
 * compare_bench.c - how long the bootstrap of clkstat-report --compare
 * (tools/lib/bootstrap.c) takes: two variants of RUNS runs each (default
 * 300), every run SAMPLES lognormal samples (default 40000, median about
 * 20 us, sigma 0.6, a run-level random effect of sd 0.1 on the log scale,
 * the variant 5% slower) in frac_bits 5 histograms, which gives about 200
 * non-empty slots per run (280 in the union of a variant's runs); B
 * resamples (default 10000) with the run unit, then with the sample unit,
 * single-threaded, timed around cr_boot_compare() alone (the histograms
 * are built before).  Prints the shape of the data, the time of each, and
 * the peak resident memory of the whole process.
 *
 *   compare_bench [RUNS [SAMPLES [B]]]
 *
 * Build: make tools/tests/compare_bench (with build/tools/libclkstat.a).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "../lib/bootstrap.h"

#define K	5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One run: n samples of lognormal(mu, sigma) into a sparse histogram. */
static void make_run(gsl_rng *rng, struct cr_hist *h, unsigned long n,
		     double mu, double sigma, struct clkstat_slot *dense)
{
	unsigned int nslots = CLKSTAT_NSLOTS(K), s, i, j;
	unsigned long k;
	uint64_t v;

	memset(dense, 0, nslots * sizeof(*dense));
	*h = (struct cr_hist){ .cpu = UINT32_MAX, .min = UINT64_MAX };
	for (k = 0; k < n; k++) {
		v = (uint64_t)gsl_ran_lognormal(rng, mu, sigma);
		s = clkstat_value_to_slot(v, K);
		dense[s].count++;
		dense[s].sum += v >> clkstat_slot_sum_shift(s, K);
		if (v < h->min)
			h->min = v;
		if (v > h->max)
			h->max = v;
	}
	for (i = 0; i < nslots; i++)
		h->nslots += dense[i].count != 0;
	h->slots = calloc(h->nslots, sizeof(*h->slots));
	if (!h->slots)
		abort();
	for (i = 0, j = 0; i < nslots; i++)
		if (dense[i].count)
			h->slots[j++] = (struct cr_slot){
				.slot = i, .count = dense[i].count,
				.sum = dense[i].sum,
			};
}

int main(int argc, char **argv)
{
	size_t runs = argc > 1 ? strtoul(argv[1], NULL, 10) : 300;
	unsigned long samples = argc > 2 ? strtoul(argv[2], NULL, 10) : 40000;
	unsigned int B = argc > 3 ? strtoul(argv[3], NULL, 10) : 10000;
	struct clkstat_slot *dense = calloc(CLKSTAT_NSLOTS(K), sizeof(*dense));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = { .resamples = B, .level = 0.95, .seed = 1 };
	struct cr_boot_result *res = malloc(sizeof(*res));
	const struct cr_hist **ptr[2];
	struct cr_hist *h[2];
	double t0, t1, slots = 0;
	unsigned char *used = calloc(CLKSTAT_NSLOTS(K), 1);
	size_t un[2] = { 0, 0 }, i, j;
	struct rusage ru;
	size_t s, r;
	int unit;

	if (!dense || !rng || !res || !used || !runs || !B)
		return 2;
	for (s = 0; s < 2; s++) {
		h[s] = calloc(runs, sizeof(*h[s]));
		ptr[s] = calloc(runs, sizeof(*ptr[s]));
		if (!h[s] || !ptr[s])
			return 2;
		for (r = 0; r < runs; r++) {
			double effect = gsl_ran_gaussian(rng, 0.1);

			make_run(rng, &h[s][r], samples,
				 log(20000.0) + (s ? log(1.05) : 0) + effect,
				 0.6, dense);
			ptr[s][r] = &h[s][r];
			slots += h[s][r].nslots;
		}
		memset(used, 0, CLKSTAT_NSLOTS(K));
		for (r = 0; r < runs; r++)
			for (j = 0; j < h[s][r].nslots; j++)
				used[h[s][r].slots[j].slot] = 1;
		for (i = 0; i < CLKSTAT_NSLOTS(K); i++)
			un[s] += used[i];
		in[s] = (struct cr_boot_stratum_in){
			.frac_bits = K, .nruns = runs, .runs = ptr[s],
		};
	}
	printf("data: 2 variants x %zu runs x %lu samples, frac_bits %d, %.1f non-empty slots per run on average, %zu and %zu in the union of each variant's runs\n",
	       runs, samples, K, slots / (2.0 * runs), un[0], un[1]);
	for (unit = 0; unit < 2; unit++) {
		p.unit_sample = unit;
		t0 = now();
		if (cr_boot_compare(&in[0], &in[1], &p, res))
			return 1;
		t1 = now();
		printf("unit %-6s: %u resamples in %.3f s (%.1f us per resample of both variants); median %.0f -> %.0f ns, delta [%.0f, %.0f], p %g%s\n",
		       unit ? "sample" : "run", B, t1 - t0, (t1 - t0) / B * 1e6,
		       res->s[0].stat[CR_BOOT_MEDIAN].value,
		       res->s[1].stat[CR_BOOT_MEDIAN].value,
		       res->diff[CR_BOOT_D_MEDIAN].lo,
		       res->diff[CR_BOOT_D_MEDIAN].hi, res->p_median,
		       res->p_floor ? " (< 1/B)" : "");
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident memory: %ld KiB\n", ru.ru_maxrss);
	for (s = 0; s < 2; s++) {
		for (r = 0; r < runs; r++)
			free(h[s][r].slots);
		free(h[s]);
		free(ptr[s]);
	}
	free(res);
	free(used);
	free(dense);
	gsl_rng_free(rng);
	return 0;
}
