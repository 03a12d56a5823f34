// SPDX-License-Identifier: GPL-2.0
/*
 * compare_test.c - cmocka tests of clkstat-report --compare: the bootstrap
 * engine (bootstrap.c) on made-up histograms with known answers, the selection
 * of strata and its errors (compare.c), and the outputs
 * (compare_render.c).
 *
 * Known answers: point estimates equal to cr_summarize() of the pooled
 * runs and to clkstat_hist_quantile() of the pooled dense slots; MAD,
 * outlier shares and risk on histograms computed by hand (see each test);
 * identical strata give an interval of the median's difference holding 0
 * and p near 1; strongly shifted ones an interval excluding 0 and
 * p < 1/B; runs shifted by a random effect give a wider run-unit interval
 * than the naive sample-unit one; one run collapses the interval to a
 * point, with the warning.  The run unit is redone independently from its
 * description (the same draws, pooling, quantiles, intervals, p-value and
 * RR on the log scale) and must agree to 1e-9; the sample unit's interval
 * of the mean matches the textbook standard error; binomial draws above
 * UINT_MAX have the binomial's moments.  Edge cases: empty histograms,
 * one slot, counts near 2^40 (both units), counts too large to pool,
 * frac_bits that differ, a missing variant, no base, nonsense parameters.
 * Determinism: the same seed gives the same bytes, another seed other
 * intervals.  The host unit: one run per host is the run unit
 * bit for bit; redone from its description, paired, unpaired, partly
 * paired and host-fixed, with hosts of one to four runs; pairing
 * (identical sides give Δ = 0 in every resample, also with the variant's
 * hosts listed in the reverse order, and partly paired); one host, few
 * hosts; host-fixed (one host: the run unit; narrower than the host unit
 * where hosts differ; warnings); which host a run is from (a tag wins
 * over meta host); its outputs.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>
#include <gsl/gsl_rng.h>
#include <json.h>

#include "../../kmod/shared/clkstat_hist_math.h"
#include "../lib/bootstrap.h"
#include "../lib/compare.h"
#include "../lib/compare_render.h"
#include "../lib/snapshot.h"
#include "../lib/stats.h"
#include "../lib/status.h"
#include "hist_build.h"

/* ---- helpers ---- */

static struct cr_run *add_run(struct cr_snapshot *s, const char *variant)
{
	struct cr_run *r = cr_snapshot_add_run(s);

	if (!r)
		abort();
	snprintf(r->variant, sizeof(r->variant), "%s", variant);
	return r;
}

/* Metric name of run r (of r's variant), frac_bits k. */
static struct cr_metric *add_metric(struct cr_run *r, const char *name,
				    unsigned int k)
{
	return hb_metric(r, name, r->variant, k);
}

/* A standard normal (Box-Muller) from hb_rand(). */
static double normal(uint64_t *st)
{
	double u = ((hb_rand(st) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((hb_rand(st) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * nruns runs of variant, metric name (frac_bits 3): each n samples
 * exp(mu + effect_sd * E + sd * e) ns, E one normal per run, e per sample.
 */
static void add_runs(struct cr_snapshot *s, const char *variant,
		     const char *name, size_t nruns, size_t n, double mu,
		     double effect_sd, double sd, uint64_t *rng)
{
	struct cr_metric *m;
	double e;
	size_t i, j;

	for (i = 0; i < nruns; i++) {
		m = add_metric(add_run(s, variant), name, 3);
		e = effect_sd * normal(rng);
		for (j = 0; j < n; j++)
			hb_sample(m, (uint32_t)(j % 4),
				  (uint64_t)exp(mu + e + sd * normal(rng)));
	}
}

static struct cr_compare_opts opts(const char *variant, const char *format)
{
	return (struct cr_compare_opts){
		.variant = variant, .level = 0.95, .resamples = 1000,
		.seed = 1, .format = format,
	};
}

static char *read_all(FILE *f)
{
	long n;
	char *b;

	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	b = malloc(n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, n, f), (size_t)n);
	b[n] = '\0';
	return b;
}

/* cr_compare(): *out its output, *err its stderr (free both). */
static int compare(const struct cr_snapshot *s, const struct cr_compare_opts *o,
		   char **out, char **err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *t = tmpfile();
	int saved, st;

	assert_non_null(f);
	assert_non_null(t);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(t), 2) >= 0);
	st = cr_compare(f, s, o);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	assert_int_equal(fclose(f), 0);
	*out = buf;
	*err = read_all(t);
	fclose(t);
	return st;
}

/* The histograms of metric name in the runs of variant v. */
static struct cr_boot_stratum_in stratum(const struct cr_snapshot *s,
					 const char *v, const char *name,
					 const struct cr_hist **h)
{
	struct cr_boot_stratum_in in = { 0 };
	struct cr_metric *m;
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		if (strcmp(s->runs[i].variant, v))
			continue;
		m = cr_run_find(&s->runs[i], name, v);
		if (!m)
			continue;
		in.frac_bits = m->frac_bits;
		h[in.nruns++] = &m->total;
	}
	in.runs = h;
	return in;
}

static struct cr_boot_params params(unsigned int b, int unit_sample)
{
	return (struct cr_boot_params){
		.resamples = b, .level = 0.95, .seed = 1,
		.unit_sample = unit_sample,
	};
}

/* Engine on variants "a" (base) and "b" of metric "lat". */
static int boot(const struct cr_snapshot *s, const struct cr_boot_params *p,
		struct cr_boot_result *r)
{
	const struct cr_hist *ha[64], *hb[64];
	struct cr_boot_stratum_in a = stratum(s, "a", "lat", ha);
	struct cr_boot_stratum_in b = stratum(s, "b", "lat", hb);

	return cr_boot_compare(&a, &b, p, r);
}

/* The pooled histogram of metric name over the runs of variant v. */
static void pool(const struct cr_snapshot *s, const char *v, const char *name,
		 struct cr_metric *out)
{
	size_t i;
	struct cr_metric *m;

	memset(out, 0, sizeof(*out));
	out->total.min = UINT64_MAX;
	for (i = 0; i < s->nruns; i++) {
		m = cr_run_find(&s->runs[i], name, v);
		if (m && !strcmp(s->runs[i].variant, v)) {
			out->frac_bits = m->frac_bits;
			assert_int_equal(cr_metric_add(out, m), 0);
		}
	}
}

static int contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* The snapshot most tests use: 8 runs of a, 9 of b, b 10% slower. */
static void study(struct cr_snapshot *s, double shift)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;

	add_runs(s, "a", "lat", 8, 400, log(20000), 0.05, 0.5, &rng);
	add_runs(s, "b", "lat", 9, 400, log(20000) + shift, 0.05, 0.5, &rng);
}

/* ---- the engine ---- */

/*
 * Point estimates are the summary's of the pooled runs (cr_summarize()),
 * the quantiles clkstat_hist_quantile() of the pooled dense slots.
 */
static void test_point_is_summary(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_boot_params p = params(200, 0);
	struct cr_boot_result r;
	struct cr_metric pm;
	struct cr_summary sum;
	struct clkstat_slot *d;
	const char *v[2] = { "a", "b" };
	uint64_t p25, p75, w;
	uint32_t slot;
	int i;

	(void)state;
	study(&s, 0.1);

	assert_int_equal(boot(&s, &p, &r), 0);
	for (i = 0; i < 2; i++) {
		const struct cr_boot_stratum_out *o = &r.s[i];

		pool(&s, v[i], "lat", &pm);
		assert_int_equal(cr_summarize(&pm.total, 3, &sum), 0);
		assert_int_equal(o->nsamples, sum.count);
		assert_int_equal(o->nruns, i ? 9 : 8);
		assert_true(o->stat[CR_BOOT_MEDIAN].value == (double)sum.p50);
		assert_true(o->stat[CR_BOOT_P90].value == (double)sum.p90);
		assert_true(o->stat[CR_BOOT_P99].value == (double)sum.p99);
		assert_true(o->stat[CR_BOOT_MEAN].value == sum.mean);
		assert_true(o->stat[CR_BOOT_SD].value == sum.stddev);
		d = cr_hist_dense(&pm.total, 3);
		assert_non_null(d);
		p25 = clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3), 3, sum.count,
					    sum.min, sum.max, 25, 100);
		p75 = clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3), 3, sum.count,
					    sum.min, sum.max, 75, 100);
		assert_true(o->stat[CR_BOOT_IQR].value == (double)(p75 - p25));
		assert_true(o->stat[CR_BOOT_MEDIAN].value ==
			    (double)clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3),
					3, sum.count, sum.min, sum.max, 50, 100));
		free(d);
		slot = clkstat_value_to_slot(sum.p50, 3);
		w = clkstat_slot_upper(slot, 3) - clkstat_slot_lower(slot, 3) + 1;
		assert_int_equal(o->stat[CR_BOOT_MEDIAN].resolution, w);
		/* Every interval holds its point estimate here. */
		assert_true(o->stat[CR_BOOT_MEDIAN].lo <=
			    o->stat[CR_BOOT_MEDIAN].value);
		assert_true(o->stat[CR_BOOT_MEDIAN].hi >=
			    o->stat[CR_BOOT_MEDIAN].value);
		assert_true(o->stat[CR_BOOT_MEAN].lo < o->stat[CR_BOOT_MEAN].hi);
		if (!i) {
			/* The default threshold: the base's p90. */
			assert_int_equal(r.threshold, sum.p90);
			assert_true(r.threshold_defined);
			assert_false(r.threshold_given);
		}
		cr_metric_free(&pm);
	}
	assert_true(r.diff[CR_BOOT_D_MEDIAN].value ==
		    r.s[1].stat[CR_BOOT_MEDIAN].value -
		    r.s[0].stat[CR_BOOT_MEDIAN].value);
	cr_snapshot_free(&s);
}

/* The same runs in both strata: the difference's interval holds 0, p ~ 1. */
static void test_identical_strata(void **state)
{
	struct cr_snapshot s = { 0 };
	uint64_t rng = 42;
	struct cr_boot_result r;
	size_t i;
	struct cr_boot_params p = params(2000, 0);

	(void)state;
	add_runs(&s, "a", "lat", 12, 300, log(5000), 0.1, 0.4, &rng);
	/* b's runs are a's, sample for sample. */
	for (i = 0; i < 12; i++) {
		struct cr_metric *m = add_metric(add_run(&s, "b"), "lat", 3);

		assert_int_equal(cr_metric_add(m, &s.runs[i].metrics[0]), 0);
	}
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.diff[CR_BOOT_D_MEDIAN].value == 0);
	assert_true(r.diff[CR_BOOT_D_MEDIAN].lo <= 0);
	assert_true(r.diff[CR_BOOT_D_MEDIAN].hi >= 0);
	assert_true(r.p_median > 0.7);
	assert_false(r.p_floor);
	assert_true(r.diff[CR_BOOT_D_SD].lo <= 0 && r.diff[CR_BOOT_D_SD].hi >= 0);
	assert_true(r.diff[CR_BOOT_D_IQR].lo <= 0 &&
		    r.diff[CR_BOOT_D_IQR].hi >= 0);
	assert_true(r.diff[CR_BOOT_D_RD].lo <= 0 && r.diff[CR_BOOT_D_RD].hi >= 0);
	assert_true(r.diff[CR_BOOT_D_RR].value == 1);
	assert_true(r.diff[CR_BOOT_D_RR].lo <= 1 && r.diff[CR_BOOT_D_RR].hi >= 1);
	cr_snapshot_free(&s);
}

/* Strongly shifted strata: the interval excludes 0, p < 1/B, printed so. */
static void test_shifted_strata(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	struct cr_boot_result r;
	struct cr_boot_params p = params(1000, 0);
	char *out, *err;

	(void)state;
	study(&s, log(3.0));	/* b three times slower */
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.diff[CR_BOOT_D_MEDIAN].lo > 0);
	assert_true(r.p_floor);
	assert_true(r.p_median == 1.0 / 1000);
	/* Nearly all of b is above a's p90: RR about 9, its interval too. */
	assert_true(r.diff[CR_BOOT_D_RR].value > 5);
	assert_true(r.diff[CR_BOOT_D_RR].lo > 1);
	assert_true(r.diff[CR_BOOT_D_RR].lo <= r.diff[CR_BOOT_D_RR].value);
	assert_true(r.diff[CR_BOOT_D_RR].hi >= r.diff[CR_BOOT_D_RR].value);
	assert_int_equal(r.diff[CR_BOOT_D_RR].undefined, 0);
	assert_true(r.diff[CR_BOOT_D_RD].lo > 0.5);

	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(contains(out, "< 1/B (< 0.001)"));
	assert_true(contains(out, "two-sided, bootstrap, inverted percentile interval"));
	assert_true(contains(out, "unit: run"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/*
 * Runs shifted by a random effect (samples correlated within a run): the
 * run-unit interval of the median is much wider than the naive one.
 */
static void test_run_vs_sample_unit(void **state)
{
	struct cr_snapshot s = { 0 };
	uint64_t rng = 7;
	struct cr_boot_result rr, rs;
	struct cr_boot_params p = params(400, 0);
	double wr, ws;

	(void)state;
	add_runs(&s, "a", "lat", 20, 500, log(10000), 0.3, 0.2, &rng);
	add_runs(&s, "b", "lat", 20, 500, log(10000), 0.3, 0.2, &rng);
	assert_int_equal(boot(&s, &p, &rr), 0);
	p.unit_sample = 1;
	assert_int_equal(boot(&s, &p, &rs), 0);
	assert_true(rs.unit_sample && !rr.unit_sample);
	/* The same data, the same point estimates. */
	assert_true(rr.s[0].stat[CR_BOOT_MEDIAN].value ==
		    rs.s[0].stat[CR_BOOT_MEDIAN].value);
	wr = rr.diff[CR_BOOT_D_MEDIAN].hi - rr.diff[CR_BOOT_D_MEDIAN].lo;
	ws = rs.diff[CR_BOOT_D_MEDIAN].hi - rs.diff[CR_BOOT_D_MEDIAN].lo;
	print_message("width of the median difference's interval: run %g ns, sample %g ns\n",
		      wr, ws);
	assert_true(ws > 0);
	assert_true(wr > 3 * ws);
	wr = rr.s[0].stat[CR_BOOT_MEAN].hi - rr.s[0].stat[CR_BOOT_MEAN].lo;
	ws = rs.s[0].stat[CR_BOOT_MEAN].hi - rs.s[0].stat[CR_BOOT_MEAN].lo;
	assert_true(wr > 3 * ws);
	cr_snapshot_free(&s);
}

/* One run (unit run): every resample is the run, the interval a point. */
static void test_one_run(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	uint64_t rng = 3;
	struct cr_boot_result r;
	struct cr_boot_params p = params(300, 0);
	struct json_object *j, *st, *w;
	char *out, *err;
	unsigned int i;

	(void)state;
	add_runs(&s, "a", "lat", 1, 500, log(3000), 0, 0.5, &rng);
	add_runs(&s, "b", "lat", 5, 500, log(3000), 0.1, 0.5, &rng);
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.s[0].warnings & CR_BOOT_W_ONE_RUN);
	assert_false(r.s[1].warnings & CR_BOOT_W_ONE_RUN);
	assert_true(r.s[1].warnings & CR_BOOT_W_FEW_RUNS);
	for (i = 0; i < CR_BOOT_NSTATS; i++) {
		assert_true(r.s[0].stat[i].lo == r.s[0].stat[i].value);
		assert_true(r.s[0].stat[i].hi == r.s[0].stat[i].value);
	}
	assert_true(r.s[1].stat[CR_BOOT_MEDIAN].lo <
		    r.s[1].stat[CR_BOOT_MEDIAN].hi);
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "warning: 1 run: no run-to-run spread, interval not meaningful"));
	assert_true(contains(out, "5 runs: too few"));
	free(out);
	free(err);
	o.format = "json";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	st = json_object_array_get_idx(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(j, "metrics"),
					  0), "strata"), 0);
	assert_true(json_object_object_get_ex(st, "warning", &w));
	assert_string_equal(json_object_get_string(w),
			    "1 run: no run-to-run spread, interval not meaningful");
	json_object_put(j);
	free(out);
	free(err);
	/* The sample unit does resample one run. */
	p.unit_sample = 1;
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_int_equal(r.s[0].warnings, 0);
	assert_true(r.s[0].stat[CR_BOOT_MEAN].lo < r.s[0].stat[CR_BOOT_MEAN].hi);
	cr_snapshot_free(&s);
}

/* Histograms without samples: n/a everywhere, no crash, null in JSON. */
static void test_empty(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	uint64_t rng = 5;
	struct cr_boot_result r;
	struct cr_boot_params p = params(200, 0);
	struct json_object *j, *m, *st, *med, *v;
	char *out, *err;
	int i, unit;

	(void)state;
	for (i = 0; i < 3; i++)
		add_metric(add_run(&s, "a"), "lat", 3);	/* no samples */
	add_runs(&s, "b", "lat", 4, 200, log(3000), 0.1, 0.5, &rng);
	for (unit = 0; unit < 2; unit++) {
		p.unit_sample = unit;
		assert_int_equal(boot(&s, &p, &r), 0);
		assert_int_equal(r.s[0].nsamples, 0);
		assert_int_equal(r.s[0].nruns, 3);
		assert_true(r.s[0].warnings & CR_BOOT_W_EMPTY);
		for (i = 0; i < CR_BOOT_NSTATS; i++) {
			assert_true(isnan(r.s[0].stat[i].value));
			assert_true(isnan(r.s[0].stat[i].lo));
		}
		assert_true(isnan(r.s[0].mad) && isnan(r.s[0].out_2sigma));
		assert_false(r.threshold_defined);
		assert_true(isnan(r.s[1].stat[CR_BOOT_RISK].value));
		assert_false(isnan(r.s[1].stat[CR_BOOT_MEDIAN].value));
		assert_true(isnan(r.diff[CR_BOOT_D_MEDIAN].value));
		assert_true(isnan(r.p_median));
	}
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "no samples: statistics n/a"));
	assert_true(contains(out, "threshold T = n/a (base p90; the base has no sample)"));
	assert_true(contains(out, "\n    warning: no samples: statistics n/a\n"));
	assert_true(contains(out, "\n    risk ratio       n/a          n/a\n"));
	assert_true(contains(out, "\n    p (Δ median)     n/a          two-sided"));
	free(out);
	free(err);
	o.format = "json";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	assert_true(json_object_object_get_ex(m, "threshold_ns", &v));
	assert_null(v);
	st = json_object_array_get_idx(json_object_object_get(m, "strata"), 0);
	med = json_object_object_get(st, "median");
	assert_true(json_object_object_get_ex(med, "value", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(med, "resolution", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(json_object_object_get(m, "diff"),
					      "p_value_median", &v));
	assert_null(v);
	json_object_put(j);
	free(out);
	free(err);
	o.format = "csv";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\nlat,a,median,,,,\n"));
	free(out);
	free(err);
	/* With --threshold the variant's risk is defined, the base's not. */
	p.have_threshold = 1;
	p.threshold = 3000;
	p.unit_sample = 0;
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.threshold_defined && r.threshold_given);
	assert_false(isnan(r.s[1].stat[CR_BOOT_RISK].value));
	assert_true(isnan(r.diff[CR_BOOT_D_RD].value));
	cr_snapshot_free(&s);
}

/*
 * A stratum of one empty and one non-empty run: a quarter of the resamples
 * draw the empty run twice and have no sample; the intervals are then not
 * given, and the warning says how many.
 */
static void test_some_empty_runs(void **state)
{
	struct cr_snapshot s = { 0 };
	uint64_t rng = 11;
	struct cr_boot_result r;
	struct cr_boot_params p = params(400, 0);
	char w[512];

	(void)state;
	add_runs(&s, "a", "lat", 3, 200, log(3000), 0.1, 0.5, &rng);
	add_metric(add_run(&s, "b"), "lat", 3);
	add_runs(&s, "b", "lat", 1, 200, log(3000), 0.1, 0.5, &rng);
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.s[1].warnings & CR_BOOT_W_UNDEFINED);
	assert_true(r.s[1].undefined > 50 && r.s[1].undefined < 150);
	assert_false(isnan(r.s[1].stat[CR_BOOT_MEDIAN].value));
	assert_true(isnan(r.s[1].stat[CR_BOOT_MEDIAN].lo));
	assert_int_equal(r.s[1].stat[CR_BOOT_MEDIAN].undefined, r.s[1].undefined);
	assert_true(isnan(r.diff[CR_BOOT_D_MEDIAN].lo));
	assert_true(isnan(r.p_median));
	cr_compare_warning(w, sizeof(w), &r.s[1], 400);
	assert_true(contains(w, "drew only runs without samples: intervals n/a"));
	cr_snapshot_free(&s);
}

/*
 * Every sample in one slot (1500 ns, frac_bits 3): the quantiles are the
 * recorded value, the spread 0, T = 1500 has nothing above it, so the
 * risk ratio is undefined in every resample.
 */
static void test_one_slot(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	struct cr_boot_result r;
	struct cr_boot_params p = params(300, 0);
	char *out, *err;
	int i, k;

	(void)state;
	for (i = 0; i < 6; i++) {
		struct cr_metric *m = add_metric(add_run(&s, i < 3 ? "a" : "b"),
						 "lat", 3);

		for (k = 0; k < 100; k++)
			hb_sample(m, 0, 1500);
	}
	assert_int_equal(boot(&s, &p, &r), 0);
	for (i = 0; i < 2; i++) {
		assert_true(r.s[i].stat[CR_BOOT_MEDIAN].value == 1500);
		assert_true(r.s[i].stat[CR_BOOT_P99].value == 1500);
		assert_true(r.s[i].stat[CR_BOOT_MEDIAN].lo == 1500);
		assert_true(r.s[i].stat[CR_BOOT_MEDIAN].hi == 1500);
		assert_true(r.s[i].stat[CR_BOOT_MEAN].value == 1500);
		assert_true(r.s[i].stat[CR_BOOT_SD].value == 0);
		assert_true(r.s[i].stat[CR_BOOT_IQR].value == 0);
		assert_true(r.s[i].mad == 0);
		assert_true(r.s[i].out_2sigma == 0);
		assert_true(r.s[i].out_3mad == 0);
		assert_true(r.s[i].stat[CR_BOOT_RISK].value == 0);
	}
	assert_int_equal(r.threshold, 1500);
	assert_true(isnan(r.diff[CR_BOOT_D_RR].value));
	assert_int_equal(r.diff[CR_BOOT_D_RR].undefined, 300);
	assert_true(r.diff[CR_BOOT_D_RD].value == 0);
	assert_true(r.p_median == 1);
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\n    risk ratio       undefined    interval undefined: 1000 of 1000 resamples had a base risk of 0\n"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/*
 * Counts near 2^40 per slot: exact totals and mean in both units, and
 * sample-unit resamples of about 10^13 samples drawn in chunks.
 */
static void test_counts_2_40(void **state)
{
	struct cr_snapshot s = { 0 };
	const uint64_t big = (1ULL << 40) + 12345;
	unsigned __int128 ns = 0;
	uint64_t n = 0;
	struct cr_boot_result r;
	struct cr_boot_params p = params(100, 0);
	int i, unit;

	(void)state;
	for (i = 0; i < 6; i++) {
		struct cr_metric *m = add_metric(add_run(&s, i < 3 ? "a" : "b"),
						 "lat", 3);
		uint64_t f = i < 3 ? 1 : 2;

		hb_hist_add_n(&m->total, 3, 1000 * f, big + i);
		hb_hist_add_n(&m->total, 3, 2000 * f, big);
		hb_hist_add_n(&m->total, 3, 4000 * f, big / 2);
		if (i < 3) {
			n += 2 * big + i + big / 2;
			ns += (unsigned __int128)(big + i) * 1000 +
			      (unsigned __int128)big * 2000 +
			      (unsigned __int128)(big / 2) * 4000;
		}
	}
	for (unit = 0; unit < 2; unit++) {
		p.unit_sample = unit;
		p.resamples = unit ? 10 : 100;
		assert_int_equal(boot(&s, &p, &r), 0);
		assert_int_equal(r.s[0].nsamples, n);
		assert_true(r.s[0].stat[CR_BOOT_MEAN].value ==
			    (double)((long double)ns / n));
		assert_true(r.s[0].stat[CR_BOOT_MEDIAN].value >= 1000 &&
			    r.s[0].stat[CR_BOOT_MEDIAN].value < 2048);
		for (i = 0; i < CR_BOOT_NSTATS; i++) {
			assert_true(isfinite(r.s[0].stat[i].lo));
			assert_true(isfinite(r.s[1].stat[i].hi));
			assert_true(r.s[0].stat[i].lo <= r.s[0].stat[i].hi);
		}
		/* The intervals hold the exact mean (narrow as they are). */
		assert_true(r.s[0].stat[CR_BOOT_MEAN].lo <=
			    r.s[0].stat[CR_BOOT_MEAN].value);
		assert_true(r.s[0].stat[CR_BOOT_MEAN].hi >=
			    r.s[0].stat[CR_BOOT_MEAN].value);
		/* Twice as slow, everywhere. */
		assert_true(r.diff[CR_BOOT_D_MEDIAN].lo > 0);
		assert_true(r.s[1].stat[CR_BOOT_MEAN].lo >
			    1.9 * r.s[0].stat[CR_BOOT_MEAN].hi);
	}
	/* The sample unit, 10^13 samples: the interval is very narrow. */
	assert_true(r.s[0].stat[CR_BOOT_MEAN].hi - r.s[0].stat[CR_BOOT_MEAN].lo <
		    0.01);
	cr_snapshot_free(&s);
}

/* Counts whose pooling could overflow: refused, not wrapped. */
static void test_overflow(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	struct cr_boot_result r;
	struct cr_boot_params p = params(10, 0);
	char *out, *err;
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct cr_metric *m = add_metric(add_run(&s, i < 2 ? "a" : "b"),
						 "lat", 3);

		hb_hist_add_n(&m->total, 3, 1, 1ULL << 61);	/* 2 x 2^61 = 2^62 */
	}
	assert_int_equal(boot(&s, &p, &r), -EOVERFLOW);
	assert_int_equal(compare(&s, &o, &out, &err), CR_ERR);
	assert_string_equal(out, "");
	assert_true(contains(err, "metric lat: sample counts too large"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/* ---- an independent run-unit bootstrap ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile q of sorted x[0..n-1], linear between order statistics. */
static double quantile(const double *x, size_t n, double q)
{
	double idx = q * (n - 1);
	size_t lo = (size_t)idx;

	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (idx - lo) * (x[lo + 1] - x[lo]);
}

/* Share above t, each slot's samples spread evenly over its values. */
static double ref_risk(const struct clkstat_slot *d, unsigned int k,
		       uint64_t n, uint64_t min, uint64_t max, uint64_t t)
{
	unsigned int i, first = UINT32_MAX, last = 0;
	long double above = 0;
	uint64_t lo, hi;

	for (i = 0; i < CLKSTAT_NSLOTS(k); i++) {
		if (!d[i].count)
			continue;
		if (first == UINT32_MAX)
			first = i;
		last = i;
	}
	for (i = first; i <= last; i++) {
		if (!d[i].count)
			continue;
		lo = i == first ? min : clkstat_slot_lower(i, k);
		hi = i == last ? max : clkstat_slot_upper(i, k);
		if (lo > t)
			above += d[i].count;
		else if (hi > t)
			above += (long double)d[i].count * (hi - t) /
				 ((long double)(hi - lo) + 1);
	}
	return (double)(above / n);
}

struct ref_stats {
	double median, mean, risk;
	uint64_t p90;
};

/* Statistics of the runs h[] taken w[] times. */
static void ref_pool(const struct cr_hist *const *h, const unsigned int *w,
		     size_t n, int have_t, uint64_t t, struct ref_stats *o)
{
	struct clkstat_slot *d = calloc(CLKSTAT_NSLOTS(3), sizeof(*d));
	unsigned __int128 ns = 0;
	uint64_t cnt = 0, min = UINT64_MAX, max = 0;
	long double mean;
	size_t r, j;
	unsigned int k;

	assert_non_null(d);
	for (r = 0; r < n; r++) {
		for (k = 0; k < w[r]; k++) {
			for (j = 0; j < h[r]->nslots; j++) {
				const struct cr_slot *sl = &h[r]->slots[j];

				d[sl->slot].count += sl->count;
				d[sl->slot].sum += sl->sum;
				cnt += sl->count;
				ns += (unsigned __int128)sl->sum <<
				      clkstat_slot_sum_shift(sl->slot, 3);
			}
			if (h[r]->min < min)
				min = h[r]->min;
			if (h[r]->max > max)
				max = h[r]->max;
		}
	}
	o->median = (double)clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3), 3, cnt,
						  min, max, 50, 100);
	o->p90 = clkstat_hist_quantile(d, CLKSTAT_NSLOTS(3), 3, cnt, min, max,
				       90, 100);
	mean = (long double)ns / cnt;
	o->mean = (double)(mean < min ? min : mean > max ? max : mean);
	o->risk = have_t ? ref_risk(d, 3, cnt, min, max, t) : NAN;
	free(d);
}

static void near(double a, double b)
{
	if (!(fabs(a - b) <= 1e-9 * fabs(b) + 1e-12))
		fail_msg("%.17g != %.17g", a, b);
}

/*
 * The run unit, done again here from its description: B resamples of the
 * base then B of the variant, each n calls of gsl_rng_uniform_int() on one
 * mt19937 seeded with the seed; each resample pooled slot by slot, its
 * median clkstat_hist_quantile(), its mean the exact sums', its risk above
 * the base's p90; percentile intervals by sorting; the p-value of the
 * median's difference by counting; RR on the log scale.
 */
static void reference(size_t na, size_t nb, double level, unsigned long seed)
{
	enum { B = 400 };
	const double qlo = (1 - level) / 2, qhi = (1 + level) / 2;
	struct cr_snapshot s = { 0 };
	const struct cr_hist *h[2][64];
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = params(B, 0);
	struct cr_boot_result r;
	struct ref_stats pt[2], rs;
	static double med[2][B], mean[2][B], risk[2][B], d[B];
	unsigned int w[64], all[64];
	uint64_t rng = 17, t;
	gsl_rng *g;
	size_t i, b, k, le = 0, ge = 0;
	double x;

	add_runs(&s, "a", "lat", na, 300, log(8000), 0.2, 0.4, &rng);
	add_runs(&s, "b", "lat", nb, 300, log(9000), 0.2, 0.4, &rng);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	p.level = level;
	p.seed = seed;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);

	for (k = 0; k < 64; k++)
		all[k] = 1;
	ref_pool(h[0], all, in[0].nruns, 0, 0, &pt[0]);
	t = pt[0].p90;
	assert_int_equal(r.threshold, t);
	for (i = 0; i < 2; i++) {
		ref_pool(h[i], all, in[i].nruns, 1, t, &pt[i]);
		assert_true(r.s[i].stat[CR_BOOT_MEDIAN].value == pt[i].median);
		near(r.s[i].stat[CR_BOOT_MEAN].value, pt[i].mean);
		near(r.s[i].stat[CR_BOOT_RISK].value, pt[i].risk);
	}

	g = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(g);
	gsl_rng_set(g, seed);
	for (i = 0; i < 2; i++) {
		for (b = 0; b < B; b++) {
			memset(w, 0, sizeof(w));
			for (k = 0; k < in[i].nruns; k++)
				w[gsl_rng_uniform_int(g, in[i].nruns)]++;
			ref_pool(h[i], w, in[i].nruns, 1, t, &rs);
			med[i][b] = rs.median;
			mean[i][b] = rs.mean;
			risk[i][b] = rs.risk;
		}
	}
	gsl_rng_free(g);
	for (b = 0; b < B; b++) {
		d[b] = med[1][b] - med[0][b];
		le += d[b] <= 0;
		ge += d[b] >= 0;
	}
	qsort(d, B, sizeof(*d), cmp_double);
	near(r.diff[CR_BOOT_D_MEDIAN].lo, quantile(d, B, qlo));
	near(r.diff[CR_BOOT_D_MEDIAN].hi, quantile(d, B, qhi));
	k = le < ge ? le : ge;
	if (k)
		near(r.p_median, 2.0 * k / B > 1 ? 1 : 2.0 * k / B);
	else
		assert_true(r.p_floor && r.p_median == 1.0 / B);
	for (b = 0; b < B; b++)
		d[b] = log(risk[1][b] / risk[0][b]);
	qsort(d, B, sizeof(*d), cmp_double);
	near(r.diff[CR_BOOT_D_RR].lo, exp(quantile(d, B, qlo)));
	near(r.diff[CR_BOOT_D_RR].hi, exp(quantile(d, B, qhi)));
	near(r.diff[CR_BOOT_D_RR].value, pt[1].risk / pt[0].risk);
	for (b = 0; b < B; b++)
		d[b] = risk[1][b] - risk[0][b];
	qsort(d, B, sizeof(*d), cmp_double);
	near(r.diff[CR_BOOT_D_RD].lo, quantile(d, B, qlo));
	near(r.diff[CR_BOOT_D_RD].hi, quantile(d, B, qhi));
	for (i = 0; i < 2; i++) {
		qsort(med[i], B, sizeof(double), cmp_double);
		qsort(mean[i], B, sizeof(double), cmp_double);
		near(r.s[i].stat[CR_BOOT_MEDIAN].lo, quantile(med[i], B, qlo));
		near(r.s[i].stat[CR_BOOT_MEDIAN].hi, quantile(med[i], B, qhi));
		near(r.s[i].stat[CR_BOOT_MEAN].lo, quantile(mean[i], B, qlo));
		near(r.s[i].stat[CR_BOOT_MEAN].hi, quantile(mean[i], B, qhi));
	}
	x = r.s[0].stat[CR_BOOT_MEAN].hi - r.s[0].stat[CR_BOOT_MEAN].lo;
	assert_true(x > 0);
	cr_snapshot_free(&s);
}

static void test_reference_bootstrap(void **state)
{
	(void)state;
	reference(6, 7, 0.9, 12345);
	reference(3, 2, 0.8, 7);	/* most resamples repeat a run */
	reference(40, 25, 0.95, 1);
}

/*
 * The sample unit on one run of independent samples: the interval of the
 * mean is about 2 z sd / sqrt(N) wide (z = 1.645 at 90%), the textbook
 * standard error, within 10% (the width's own Monte Carlo error with
 * B = 2000 is about 3%).
 */
static void test_sample_unit_width(void **state)
{
	struct cr_snapshot s = { 0 };
	uint64_t rng = 23;
	struct cr_boot_result r;
	struct cr_boot_params p = params(2000, 1);
	double want, got;

	(void)state;
	add_runs(&s, "a", "lat", 1, 5000, log(10000), 0, 0.5, &rng);
	add_runs(&s, "b", "lat", 1, 5000, log(10000), 0, 0.5, &rng);
	p.level = 0.9;
	assert_int_equal(boot(&s, &p, &r), 0);
	want = 2 * 1.6448536 * r.s[0].stat[CR_BOOT_SD].value / sqrt(5000);
	got = r.s[0].stat[CR_BOOT_MEAN].hi - r.s[0].stat[CR_BOOT_MEAN].lo;
	print_message("sample unit, mean: interval width %g ns, 2 z sd / sqrt(N) %g ns\n",
		      got, want);
	assert_true(got > 0.9 * want && got < 1.1 * want);
	cr_snapshot_free(&s);
}

/*
 * The sample unit's min and max: one run of two samples, 100 (slot
 * [96, 103]) and 5000 (slot [4608, 5119]).  The median (rank 1: the min)
 * of a resample is 100 when it drew the 100, else the lower bound of the
 * slot of 5000, 4608 (the real min is not in the resample); p99 (rank 2:
 * the max) is 5000, or 103 when only the 100 was drawn.
 */
static void test_sample_unit_minmax(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_boot_result r;
	struct cr_boot_params p = params(400, 1);
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct cr_metric *m = add_metric(add_run(&s, i ? "b" : "a"),
						 "lat", 3);

		hb_sample(m, 0, 100);
		hb_sample(m, 0, 5000);
	}
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.s[0].stat[CR_BOOT_MEDIAN].value == 100);
	assert_true(r.s[0].stat[CR_BOOT_MEDIAN].lo == 100);
	assert_true(r.s[0].stat[CR_BOOT_MEDIAN].hi == 4608);
	assert_true(r.s[0].stat[CR_BOOT_P99].value == 5000);
	assert_true(r.s[0].stat[CR_BOOT_P99].lo == 103);
	assert_true(r.s[0].stat[CR_BOOT_P99].hi == 5000);
	cr_snapshot_free(&s);
}

/*
 * Binomial draws above UINT_MAX (the sample unit's, for counts near 2^40
 * and beyond): over 4000 draws the mean within 4 standard errors of np,
 * the variance within 15% of np(1 - p) (its standard error is 2.2%), and
 * 68.3% +- 3 standard errors of the draws within one sd of np.
 */
static void test_binomial64(void **state)
{
	static const struct { uint64_t n; double p; } c[] = {
		{ (1ULL << 40) + 12345, 0.3 },
		{ 1ULL << 62, 0.5 },
		{ 1ULL << 40, 1e-9 },
		{ 5000000000ULL, 0.999 },
	};
	enum { N = 4000 };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	long double sum, ss, d;
	double mu, var, within;
	unsigned int i, k, in;
	static uint64_t x[N];

	(void)state;
	assert_non_null(g);
	gsl_rng_set(g, 5);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		mu = c[i].n * c[i].p;
		var = mu * (1 - c[i].p);
		sum = 0;
		for (k = 0; k < N; k++) {
			x[k] = cr_boot_binomial(g, c[i].p, c[i].n);
			assert_true(x[k] <= c[i].n);
			sum += x[k];
		}
		sum /= N;
		ss = 0;
		in = 0;
		for (k = 0; k < N; k++) {
			d = x[k] - sum;
			ss += d * d;
			in += fabsl(x[k] - (long double)mu) <= sqrtl(var);
		}
		ss /= N - 1;
		within = (double)in / N;
		print_message("n %llu p %g: mean %.6Lg (np %.6g), variance ratio %.4Lg, within 1 sd %.4f\n",
			      (unsigned long long)c[i].n, c[i].p, sum, mu,
			      ss / var, within);
		assert_true(fabsl(sum - mu) < 4 * sqrt(var / N));
		assert_true(ss / var > 0.85 && ss / var < 1.15);
		assert_true(fabs(within - 0.6827) < 3 * sqrt(0.68 * 0.32 / N) + 0.01);
	}
	assert_int_equal(cr_boot_binomial(g, 0, 1ULL << 50), 0);
	assert_int_equal(cr_boot_binomial(g, 1, 1ULL << 50), 1ULL << 50);
	gsl_rng_free(g);
}

/* ---- the distribution: MAD, outliers, risk by hand ---- */

static struct cr_boot_hist bh(unsigned int k, unsigned int n,
			      const uint32_t *slot,
			      const struct clkstat_slot *c, uint64_t min,
			      uint64_t max)
{
	struct cr_boot_hist h = {
		.frac_bits = k, .n = n, .slot = slot, .s = c,
		.min = min, .max = max,
	};
	unsigned int i;

	for (i = 0; i < n; i++)
		h.total += c[i].count;
	return h;
}

/*
 * frac_bits 0: slot 11 is [1024, 2047], slot 12 [2048, 4095].
 *  - 100 samples in slot 11: median 1024 + floor(1024 * 99 / 200) = 1530;
 *    (2d + 1) * 100 / 1024 >= 50 first for d = 256: MAD 256.
 *  - 50 in each: median 1024 + floor(1024 * 99 / 100) = 2037; within d:
 *    50 + 50 (3d - 2036) / 2048 >= 50 first for d = 679; above
 *    2037 + 3 * 679 = 4074: 50 * 21 / 2048 of 100.
 *  - {1, 2, 3} in exact slots (frac_bits 3): MAD 1, as the samples'.
 */
static void test_mad(void **state)
{
	const uint32_t s1[] = { 11 }, s2[] = { 11, 12 }, s3[] = { 1, 2, 3 };
	const struct clkstat_slot c1[] = { { 100, 0 } };
	const struct clkstat_slot c2[] = { { 50, 0 }, { 50, 0 } };
	const struct clkstat_slot c3[] = { { 1, 1 }, { 1, 2 }, { 1, 3 } };
	const uint32_t s4[] = { 2, 3, 10, 11 };
	const struct clkstat_slot c4[] = { { 1, 2 }, { 1, 3 }, { 1, 10 },
					   { 1, 11 } };
	struct cr_boot_hist h;

	(void)state;
	h = bh(0, 1, s1, c1, 1024, 2047);
	assert_int_equal(cr_boot_mad(&h, 1530), 256);
	h = bh(0, 2, s2, c2, 1024, 4095);
	assert_int_equal(cr_boot_mad(&h, 2037), 679);
	assert_true(fabs(cr_boot_share_above(&h, 2037 + 3 * 679) -
			 50.0 * 21 / 2048 / 100) < 1e-12);
	h = bh(3, 3, s3, c3, 1, 3);
	assert_int_equal(cr_boot_mad(&h, 2), 1);
	/*
	 * {2, 3, 10, 11}: median (rank 2) 3, deviations 1 0 7 8: the second
	 * smallest, 1, holds exactly half.
	 */
	h = bh(3, 4, s4, c4, 2, 11);
	assert_int_equal(cr_boot_mad(&h, 3), 1);
	/* min and max narrow the end slots: all at 1500 is no spread. */
	h = bh(0, 1, s1, c1, 1500, 1500);
	assert_int_equal(cr_boot_mad(&h, 1500), 0);
	assert_true(cr_boot_cdf(&h, 1499) == 0 && cr_boot_cdf(&h, 1500) == 100);
}

/*
 * Through the engine, one run per stratum (exact slots, frac_bits 3):
 * 0 once, 5 eight times, 10 once: mean 5, sd sqrt(50 / 9) = 2.357, so
 * 0 and 10 are beyond mean +- 2 sd: 20%; the median is 5, the MAD 0, so
 * above 5 + 0: 10%.
 */
static void test_outliers(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_boot_result r;
	struct cr_boot_params p = params(50, 0);
	int i, k;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct cr_metric *m = add_metric(add_run(&s, i ? "b" : "a"),
						 "lat", 3);

		hb_sample(m, 0, 0);
		for (k = 0; k < 8; k++)
			hb_sample(m, 0, 5);
		hb_sample(m, 0, 10);
	}
	assert_int_equal(boot(&s, &p, &r), 0);
	assert_true(r.s[0].stat[CR_BOOT_MEAN].value == 5);
	assert_true(fabs(r.s[0].stat[CR_BOOT_SD].value - sqrt(50.0 / 9)) < 1e-12);
	assert_true(fabs(r.s[0].out_2sigma - 0.2) < 1e-12);
	assert_true(r.s[0].mad == 0);
	assert_true(fabs(r.s[0].out_3mad - 0.1) < 1e-12);
	cr_snapshot_free(&s);
}

/*
 * Risk, frac_bits 0: 30 samples in [1024, 2047], 70 in [2048, 4095].  A
 * threshold on the boundary (2047) counts exactly the 70; 2048 leaves out
 * 1/2048 of the upper slot; through --threshold 2047 against a variant
 * with 35 of 100 above: RD -0.35, RR 0.5.
 */
static void test_risk(void **state)
{
	const uint32_t sl[] = { 11, 12 };
	const struct clkstat_slot c[] = { { 30, 0 }, { 70, 0 } };
	struct cr_boot_hist h = bh(0, 2, sl, c, 1024, 4095);
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "json");
	struct json_object *j, *m, *v;
	char *out, *err;
	int i;

	(void)state;
	assert_true(cr_boot_share_above(&h, 2047) == 0.7);
	assert_true(fabs(cr_boot_share_above(&h, 2048) - 0.7 * 2047 / 2048) <
		    1e-15);
	assert_true(cr_boot_share_above(&h, 1023) == 1);
	assert_true(cr_boot_share_above(&h, 4095) == 0);
	assert_true(cr_boot_share_above(&h, 1024) == 1 - 0.3 / 1024);
	/* a: 30 of 100 at 1500, 70 at 3000; b: 65 at 1500, 35 at 3000. */
	for (i = 0; i < 4; i++) {
		struct cr_metric *mm = add_metric(add_run(&s, i < 2 ? "a" : "b"),
						  "lat", 0);

		hb_hist_add_n(&mm->total, 0, 1500, i < 2 ? 15 : 30 + 5 * (i == 3));
		hb_hist_add_n(&mm->total, 0, 3000, i < 2 ? 35 : 20 - 5 * (i == 3));
	}
	o.have_threshold = 1;
	o.threshold = 2047;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	assert_int_equal(json_object_get_uint64(json_object_object_get(m,
			 "threshold_ns")), 2047);
	assert_string_equal(json_object_get_string(json_object_object_get(m,
			    "threshold_source")), "--threshold");
	v = json_object_object_get(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(m, "strata"),
					  0), "risk"), "value");
	assert_true(json_object_get_double(v) == 0.7);
	v = json_object_object_get(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(m, "strata"),
					  1), "risk"), "value");
	assert_true(json_object_get_double(v) == 0.35);
	v = json_object_object_get(json_object_object_get(
		json_object_object_get(m, "diff"), "risk_difference"), "value");
	assert_true(fabs(json_object_get_double(v) + 0.35) < 1e-15);
	v = json_object_object_get(json_object_object_get(
		json_object_object_get(m, "diff"), "risk_ratio"), "value");
	assert_true(fabs(json_object_get_double(v) - 0.5) < 1e-15);
	json_object_put(j);
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/* ---- selection and errors (compare.c) ---- */

static void test_frac_bits_mismatch(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	char *out, *err;

	(void)state;
	hb_sample(add_metric(add_run(&s, "a"), "lat", 3), 0, 100);
	hb_sample(add_metric(add_run(&s, "a"), "lat", 5), 0, 100);
	hb_sample(add_metric(add_run(&s, "b"), "lat", 3), 0, 100);
	assert_int_equal(compare(&s, &o, &out, &err), CR_ERR);
	assert_string_equal(out, "");
	assert_string_equal(err, "clkstat-report: --compare: metric lat has frac_bits 3 in run 0 (variant a) and 5 in run 1 (variant a): histograms of different bucket layouts cannot be pooled\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
	/* Between the variants too. */
	memset(&s, 0, sizeof(s));
	hb_sample(add_metric(add_run(&s, "a"), "lat", 3), 0, 100);
	hb_sample(add_metric(add_run(&s, "b"), "lat", 4), 0, 100);
	assert_int_equal(compare(&s, &o, &out, &err), CR_ERR);
	assert_true(contains(err, "metric lat has frac_bits 3 in run 0 (variant a) and 4 in run 1 (variant b)"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

static void test_variants(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("c", "text");
	char *out, *err;

	(void)state;
	hb_sample(add_metric(add_run(&s, "a"), "lat", 3), 0, 100);
	hb_sample(add_metric(add_run(&s, "b"), "lat", 3), 0, 200);
	/* Not in the input. */
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare c: no run of variant c in the input (variants: a, b)\n");
	assert_string_equal(out, "");
	free(out);
	free(err);
	/* The one other variant is the base. */
	o.variant = "a";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "a against base b"));
	free(out);
	free(err);
	/* Three variants: --base needed. */
	hb_sample(add_metric(add_run(&s, "c"), "lat", 3), 0, 300);
	o.variant = "c";
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare c: the input has 2 other variants, choose the base with --base (variants: a, b, c)\n");
	free(out);
	free(err);
	o.base = "b";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "c against base b"));
	free(out);
	free(err);
	o.base = "x";
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --base x: no run of variant x in the input (variants: a, b, c)\n");
	free(out);
	free(err);
	o.base = "c";
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "cannot be compared with itself"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
	/* One variant only. */
	memset(&s, 0, sizeof(s));
	hb_sample(add_metric(add_run(&s, "a"), "lat", 3), 0, 100);
	o = opts("a", "text");
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare a: the input has no other variant to compare it with (variants: a)\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/* Metrics: those of both variants; --metric; none in common. */
static void test_metrics(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "json");
	uint64_t rng = 9;
	struct json_object *full, *one;
	char *out, *err, *out1;
	const char *a, *b;

	(void)state;
	study(&s, 0.1);
	add_runs(&s, "a", "other", 4, 100, log(900), 0.1, 0.3, &rng);
	add_runs(&s, "b", "other", 4, 100, log(800), 0.1, 0.3, &rng);
	add_runs(&s, "a", "only_a", 2, 100, log(800), 0.1, 0.3, &rng);
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	free(err);
	full = json_tokener_parse(out);
	assert_non_null(full);
	assert_int_equal(json_object_array_length(json_object_object_get(full,
			 "metrics")), 2);
	/* --metric other: the same numbers as in the full output. */
	o.metric = "other";
	assert_int_equal(compare(&s, &o, &out1, &err), CR_OK);
	free(err);
	one = json_tokener_parse(out1);
	assert_non_null(one);
	assert_int_equal(json_object_array_length(json_object_object_get(one,
			 "metrics")), 1);
	a = json_object_to_json_string(json_object_array_get_idx(
		json_object_object_get(full, "metrics"), 1));
	b = json_object_to_json_string(json_object_array_get_idx(
		json_object_object_get(one, "metrics"), 0));
	assert_string_equal(a, b);
	json_object_put(full);
	json_object_put(one);
	free(out);
	free(out1);
	o.metric = "only_a";
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare: --metric only_a: not a metric of both a and b (metrics of both: lat, other)\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
	memset(&s, 0, sizeof(s));
	hb_sample(add_metric(add_run(&s, "a"), "x", 3), 0, 100);
	hb_sample(add_metric(add_run(&s, "b"), "y", 3), 0, 100);
	o.metric = NULL;
	assert_int_equal(compare(&s, &o, &out, &err), CR_ERR);
	assert_string_equal(err, "clkstat-report: --compare: no metric is in runs of both a and b\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/*
 * User-defined probes' metrics (their spec, ':' and '-', up to 63 bytes)
 * in variants with '-': compared by variant:X and X, chosen by --metric,
 * named whole in JSON and text.
 */
static void test_trace_names(void **state)
{
	static const char *const names[] = {
		"func:clkstat_tt_delay",
		"sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu",
	};
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("variant:kprobe-int3", "json");
	struct json_object *j, *ms, *n;
	char *out, *err;
	size_t i, k;

	(void)state;
	assert_int_equal(strlen(names[1]), CR_NAME_MAX - 1);
	for (i = 0; i < 6; i++) {
		struct cr_run *r = add_run(&s, i % 2 ? "kprobe-int3" : "kprobe");

		for (k = 0; k < 2; k++)
			hb_sample(add_metric(r, names[k], 3), 0,
				  20000 + 1000 * (i % 2) + i);
	}
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	ms = json_object_object_get(j, "metrics");
	assert_int_equal(json_object_array_length(ms), 2);
	for (k = 0; k < 2; k++) {
		assert_true(json_object_object_get_ex(json_object_array_get_idx(ms, k),
						      "metric", &n));
		assert_string_equal(json_object_get_string(n), names[k]);
	}
	json_object_put(j);
	free(out);
	free(err);
	o = opts("kprobe-int3", "text");
	o.metric = names[1];
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "kprobe-int3 against base kprobe"));
	assert_true(contains(out, names[1]));
	assert_false(contains(out, names[0]));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/* The engine refuses nonsense; so does cr_compare(). */
static void test_nonsense(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	struct cr_boot_result r;
	struct cr_boot_params p = params(10, 0);
	const struct cr_hist *ha[64], *hb[64];
	struct cr_boot_stratum_in a, b;
	char *out, *err;

	(void)state;
	study(&s, 0.1);
	a = stratum(&s, "a", "lat", ha);
	b = stratum(&s, "b", "lat", hb);
	p.resamples = 0;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	p = params(10, 0);
	p.level = 0;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	p.level = 1;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	p.level = NAN;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	p = params(10, 0);
	b.frac_bits = 4;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	b.frac_bits = 3;
	b.nruns = 0;
	assert_int_equal(cr_boot_compare(&a, &b, &p, &r), -EINVAL);
	o.resamples = 0;
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "--resamples"));
	free(out);
	free(err);
	o = opts("b", "yaml");
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/* ---- outputs ---- */

/* The same seed, the same bytes; another seed, other intervals. */
static void test_determinism(void **state)
{
	static const char *const fmt[] = { "text", "json", "csv" };
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o;
	struct cr_boot_result r1, r2;
	struct cr_boot_params p = params(500, 0);
	char *out1, *out2, *err;
	int i, unit;

	(void)state;
	study(&s, 0.1);
	for (unit = 0; unit < 2; unit++) {
		for (i = 0; i < 3; i++) {
			o = opts("b", fmt[i]);
			o.resamples = 300;
			o.unit_sample = unit;
			assert_int_equal(compare(&s, &o, &out1, &err), CR_OK);
			free(err);
			assert_int_equal(compare(&s, &o, &out2, &err), CR_OK);
			free(err);
			assert_string_equal(out1, out2);
			free(out2);
			o.seed = 2;
			assert_int_equal(compare(&s, &o, &out2, &err), CR_OK);
			free(err);
			assert_string_not_equal(out1, out2);
			free(out1);
			free(out2);
		}
		p.unit_sample = unit;
		p.seed = 1;
		assert_int_equal(boot(&s, &p, &r1), 0);
		p.seed = 2;
		assert_int_equal(boot(&s, &p, &r2), 0);
		assert_true(r1.s[0].stat[CR_BOOT_MEAN].lo !=
			    r2.s[0].stat[CR_BOOT_MEAN].lo);
		assert_true(r1.diff[CR_BOOT_D_SD].hi != r2.diff[CR_BOOT_D_SD].hi);
		/* Point estimates do not depend on the seed. */
		assert_true(r1.s[0].stat[CR_BOOT_MEAN].value ==
			    r2.s[0].stat[CR_BOOT_MEAN].value);
	}
	cr_snapshot_free(&s);
}

static void expect_keys(struct json_object *o, const char *const *keys)
{
	size_t n = 0;

	assert_true(json_object_is_type(o, json_type_object));
	for (; keys[n]; n++)
		assert_true(json_object_object_get_ex(o, keys[n], NULL));
	assert_int_equal(json_object_object_length(o), n);
}

/* JSON: exactly the documented members, of their types. */
static void test_json_schema(void **state)
{
	static const char *const top[] = { "unit", "resamples", "seed",
		"level", "base", "variant", "metrics", NULL };
	static const char *const metric[] = { "metric", "threshold_ns",
		"threshold_source", "hosts_paired", "hosts_shared", "strata",
		"diff", NULL };
	static const char *const stratum_k[] = { "variant", "runs", "hosts",
		"samples",
		"warning", "median", "p90", "p99", "mean", "stddev", "iqr",
		"risk", "outliers_2sigma", "outliers_3mad", "mad", NULL };
	static const char *const pct[] = { "value", "lo", "hi", "resolution",
		NULL };
	static const char *const ci[] = { "value", "lo", "hi", NULL };
	static const char *const rr[] = { "value", "lo", "hi",
		"undefined_resamples", NULL };
	static const char *const dmed[] = { "value", "lo", "hi", "warning",
		NULL };
	static const char *const diff[] = { "median", "p90", "p99", "stddev", "iqr",
		"risk_difference", "risk_ratio", "p_value_median",
		"p_value_method", "p_value_warning", NULL };
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "json");
	struct json_object *j, *m, *st, *d;
	char *out, *err;
	int i;

	(void)state;
	study(&s, 0.1);
	o.resamples = 200;
	o.seed = 77;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	expect_keys(j, top);
	assert_string_equal(json_object_get_string(json_object_object_get(j, "unit")), "run");
	assert_int_equal(json_object_get_int(json_object_object_get(j, "resamples")), 200);
	assert_int_equal(json_object_get_int(json_object_object_get(j, "seed")), 77);
	assert_true(json_object_get_double(json_object_object_get(j, "level")) == 0.95);
	assert_true(contains(out, "\"level\":0.95,"));	/* not 0.9499999... */
	assert_string_equal(json_object_get_string(json_object_object_get(j, "base")), "a");
	assert_string_equal(json_object_get_string(json_object_object_get(j, "variant")), "b");
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	expect_keys(m, metric);
	assert_string_equal(json_object_get_string(json_object_object_get(m, "threshold_source")), "base p90");
	assert_true(json_object_is_type(json_object_object_get(m, "threshold_ns"), json_type_int));
	assert_null(json_object_object_get(m, "hosts_paired"));	/* unit run */
	assert_null(json_object_object_get(m, "hosts_shared"));
	assert_int_equal(json_object_array_length(json_object_object_get(m, "strata")), 2);
	for (i = 0; i < 2; i++) {
		st = json_object_array_get_idx(json_object_object_get(m, "strata"), i);
		expect_keys(st, stratum_k);
		assert_string_equal(json_object_get_string(json_object_object_get(st, "variant")), i ? "b" : "a");
		assert_int_equal(json_object_get_int(json_object_object_get(st, "runs")), i ? 9 : 8);
		assert_int_equal(json_object_get_int(json_object_object_get(st, "hosts")), 1);
		assert_int_equal(json_object_get_int(json_object_object_get(st, "samples")), i ? 3600 : 3200);
		expect_keys(json_object_object_get(st, "median"), pct);
		expect_keys(json_object_object_get(st, "p90"), pct);
		expect_keys(json_object_object_get(st, "p99"), pct);
		expect_keys(json_object_object_get(st, "mean"), ci);
		expect_keys(json_object_object_get(st, "stddev"), ci);
		expect_keys(json_object_object_get(st, "iqr"), ci);
		expect_keys(json_object_object_get(st, "risk"), ci);
		assert_true(json_object_is_type(json_object_object_get(json_object_object_get(st, "median"), "lo"), json_type_double));
		assert_true(json_object_is_type(json_object_object_get(json_object_object_get(st, "median"), "resolution"), json_type_int));
		assert_true(json_object_is_type(json_object_object_get(st, "outliers_2sigma"), json_type_double));
		assert_true(json_object_is_type(json_object_object_get(st, "mad"), json_type_double));
		assert_true(json_object_get_double(json_object_object_get(st, "mad")) > 0);
		assert_true(json_object_is_type(json_object_object_get(st, "warning"), json_type_string));	/* 8 and 9 runs: few */
	}
	d = json_object_object_get(m, "diff");
	expect_keys(d, diff);
	expect_keys(json_object_object_get(d, "median"), dmed);
	expect_keys(json_object_object_get(d, "p90"), ci);
	expect_keys(json_object_object_get(d, "p99"), ci);
	expect_keys(json_object_object_get(d, "risk_ratio"), rr);
	assert_string_equal(json_object_get_string(json_object_object_get(d, "p_value_method")),
			    "bootstrap, inverted percentile interval");
	assert_true(json_object_is_type(json_object_object_get(d, "p_value_median"), json_type_double));
	assert_null(json_object_object_get(d, "p_value_warning"));	/* 8, 9 runs */
	json_object_put(j);
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_csv(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "csv");
	char *out, *err;

	(void)state;
	study(&s, 0.1);
	o.resamples = 200;
	o.unit_sample = 1;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(!strncmp(out, "metric,group,statistic,value,lo,hi,resolution\nlat,settings,unit,sample,,,\nlat,settings,resamples,200,,,\nlat,settings,seed,1,,,\nlat,settings,level,0.95,,,\nlat,settings,threshold_ns,", 176));
	assert_true(contains(out, "\nlat,settings,threshold_source,base p90,,,\n"));
	assert_true(contains(out, "\nlat,a,runs,8,,,\nlat,a,hosts,1,,,\nlat,a,samples,3200,,,\nlat,a,median,"));
	assert_true(contains(out, "\nlat,b,runs,9,,,\n"));
	assert_true(contains(out, "\nlat,diff,p_value_method,\"bootstrap, inverted percentile interval\",,,\n"));
	/* header, 6 settings, 2 x (3 + 7 + 3) stratum rows, 10 diff rows */
	assert_int_equal(count_lines(out), 1 + 6 + 2 * 13 + 10);
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

static void test_text(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	char *out, *err;

	(void)state;
	study(&s, 0.1);
	o.resamples = 200;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(!strncmp(out, "clkstat-report --compare: b against base a\nunit: run (whole runs resampled with replacement within each variant)\nresamples: 200  seed: 1  level: 0.95 (percentile bootstrap intervals)\n\nsummary, b - a, 95% intervals (each metric in full below):\n  metric  runs     Δ median                      risk ratio                p       warnings\n  lat     9/8      ", 347));
	assert_true(contains(out, "\n\nmetric lat (frac_bits 3)  threshold T = "));
	assert_true(contains(out, "(base p90)\n  a (base): 8 runs on 1 host, 3200 samples\n"));
	assert_true(contains(out, "\n  b: 9 runs on 1 host, 3600 samples\n"));
	assert_true(contains(out, "\n  b - a:\n    Δ median         "));
	assert_true(contains(out, "    statistic        value        95% interval                resolution\n    median           "));
	free(out);
	free(err);
	o.unit_sample = 1;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "unit: sample (naive bootstrap"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/*
 * --compare's output warnings.  2 runs against 2: 3 x 3 = 9 distinct
 * resamples, so the p line says p is not meaningful (text, JSON, CSV);
 * 5 against 5 (126 x 126 >= 10000) does not.  Medians near 3000 and 3100 ns
 * (84 ns apart) read from frac_bits 0 slots (2048 ns wide): Δ median and its interval
 * are narrower than the slots, and say so.  A metric with no sample on
 * either side is one line.  JSON's MAD is the engine's.
 */
static void add_const_runs(struct cr_snapshot *s, const char *v,
			   const char *name, unsigned int k, size_t nruns,
			   uint64_t base)
{
	struct cr_metric *m;
	size_t i, j;

	for (i = 0; i < nruns; i++) {
		m = add_metric(add_run(s, v), name, k);
		for (j = 0; j < 100; j++)
			hb_sample(m, 0, base + 10 * i + j % 7);
	}
}

/* The summary: the headline metric first, whatever the order of the runs'. */
static void test_summary_headline(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	char *out, *err, *a, *t;
	size_t i;

	(void)state;
	add_const_runs(&s, "a", "lat", 0, 3, 3000);
	add_const_runs(&s, "b", "lat", 0, 3, 3100);
	for (i = 0; i < 6; i++) {
		struct cr_metric *m = add_metric(&s.runs[i], "ttwu_tkread", 3);

		hb_sample(m, 0, i < 3 ? 40000 : 50000);
	}
	o.resamples = 200;
	o.summary_only = 1;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	t = strstr(out, "\n  ttwu_tkread ");
	a = strstr(out, "\n  lat ");
	assert_non_null(t);
	assert_non_null(a);
	assert_true(t < a);
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

static void test_output_warnings(void **state)
{
	struct cr_snapshot s = { 0 }, t = { 0 };
	struct cr_compare_opts o = opts("b", "text");
	struct cr_boot_result r;
	struct cr_boot_params p = params(1000, 0);
	struct json_object *j, *m, *st, *d;
	char *out, *err;
	size_t i;

	(void)state;
	add_const_runs(&s, "a", "lat", 0, 2, 3000);
	add_const_runs(&s, "b", "lat", 0, 2, 3100);
	for (i = 0; i < 4; i++)		/* a metric without samples */
		add_metric(&s.runs[i], "tk", 3);
	o.resamples = 1000;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(contains(out, "two-sided, bootstrap, inverted percentile interval; warning: 2 and 2 runs: 9 distinct resamples, fewer than B = 1000: p cannot resolve 1/B and is not meaningful\n"));
	assert_true(contains(out, "\n    Δ median         84ns         "));
	assert_true(contains(out, "warning: narrower than the medians' slots (±2048ns, ±2048ns)\n"));
	assert_true(contains(out, "±2048ns  warning: interval narrower than the slot\n"));
	assert_true(contains(out, "\nmetric tk (frac_bits 3)  no samples (a: 2 runs, b: 2 runs)\n"));
	/* The summary: a line each, warnings short. */
	assert_true(contains(out, "\n  lat     2/2      84ns ["));
	assert_true(contains(out, "Δ median within a slot; p coarse\n"));
	assert_true(contains(out, "\n  tk      2/2      no samples on either side\n"));
	free(out);
	free(err);
	/* --summary: the table alone. */
	o.summary_only = 1;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\nsummary, b - a, 95% intervals:\n"));
	assert_false(contains(out, "\nmetric "));
	assert_int_equal(count_lines(out), 3 + 1 + 2 + 2);
	o.summary_only = 0;
	free(out);
	free(err);
	o.format = "json";
	o.metric = "lat";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	j = json_tokener_parse(out);
	assert_non_null(j);
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	d = json_object_object_get(m, "diff");
	assert_true(contains(json_object_get_string(json_object_object_get(d, "p_value_warning")),
			     "9 distinct resamples"));
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(d, "median"), "warning")),
			    "narrower than the medians' slots (2048ns, 2048ns)");
	p.resamples = 1000;
	assert_int_equal(boot(&s, &p, &r), 0);
	for (i = 0; i < 2; i++) {
		st = json_object_array_get_idx(json_object_object_get(m, "strata"), i);
		assert_true(json_object_get_double(json_object_object_get(st, "mad")) == r.s[i].mad);
	}
	json_object_put(j);
	free(out);
	free(err);
	o.format = "csv";
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\nlat,diff,p_value_warning,\"2 and 2 runs: 9 distinct resamples"));
	free(out);
	free(err);

	/* 5 and 5 runs, 2^-4-wide slots: no warning on the p line. */
	add_const_runs(&t, "a", "lat", 4, 5, 3000);
	add_const_runs(&t, "b", "lat", 4, 5, 9000);
	o = opts("b", "text");
	o.resamples = 10000;
	assert_int_equal(compare(&t, &o, &out, &err), CR_OK);
	assert_true(contains(out, "two-sided, bootstrap, inverted percentile interval\n"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
	cr_snapshot_free(&t);
}

/* ---- factors ---- */

/* diff.median's value, lo, hi and p of a JSON output, and runs of each. */
static void json_diff(const char *out, double v[6])
{
	struct json_object *j = json_tokener_parse(out), *m, *d, *med;

	assert_non_null(j);
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	d = json_object_object_get(m, "diff");
	med = json_object_object_get(d, "median");
	v[0] = json_object_get_double(json_object_object_get(med, "value"));
	v[1] = json_object_get_double(json_object_object_get(med, "lo"));
	v[2] = json_object_get_double(json_object_object_get(med, "hi"));
	v[3] = json_object_get_double(json_object_object_get(d, "p_value_median"));
	v[4] = json_object_get_int(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(m, "strata"), 0), "runs"));
	v[5] = json_object_get_int(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(m, "strata"), 1), "runs"));
	json_object_put(j);
}

/*
 * --compare tag:K=V on runs' own tags (record --cstates): one file whose
 * meta says cstate=free, its first 6 runs tagged cstate=qos0 on their
 * own: the run's tag wins, the 7 others fall back to the file's; the
 * numbers are the hand-renamed variants' (qos0 against free).
 */
static void test_factor_run_tag(void **state)
{
	struct cr_snapshot s = { 0 }, hand = { 0 };
	struct cr_compare_opts o = opts("tag:cstate=qos0", "json");
	uint64_t rng = 11, rng2 = 11;
	double a[6], b[6];
	char *out, *err;
	size_t i;

	(void)state;
	add_runs(&s, "d", "lat", 6, 300, log(20000), 0.1, 0.5, &rng);
	add_runs(&s, "d", "lat", 7, 300, log(23000), 0.1, 0.5, &rng);
	for (i = 0; i < 6; i++)
		assert_int_equal(cr_run_add_tag(&s.runs[i], "cstate", "qos0"), 0);
	assert_int_equal(cr_meta_add_tag(&s.meta, "cstate", "free"), 0);
	add_runs(&hand, "c1", "lat", 6, 300, log(20000), 0.1, 0.5, &rng2);
	add_runs(&hand, "cf", "lat", 7, 300, log(23000), 0.1, 0.5, &rng2);

	o.resamples = 500;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(contains(out, "\"base\":\"tag:cstate=free\""));
	json_diff(out, a);
	free(out);
	free(err);
	o = opts("c1", "json");
	o.resamples = 500;
	assert_int_equal(compare(&hand, &o, &out, &err), CR_OK);
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);
	assert_true(a[4] == 7 && a[5] == 6);
	/* The factors listed: the runs' tag values and the file's. */
	o = opts("foo:x", "text");
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "tag:cstate=qos0, free;"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
	cr_snapshot_free(&hand);
}

/*
 * record --governors: a file whose meta says the machine's governor
 * (schedutil), its runs tagged governor=performance and powersave.
 * meta:cpufreq_governor takes the run's tag first: the same groups and
 * numbers as tag:governor, and schedutil is no value of either.
 */
static void test_factor_governor(void **state)
{
	struct cr_snapshot s = { 0 };
	struct cr_compare_opts o = opts("tag:governor=performance", "json");
	uint64_t rng = 5;
	double a[6], b[6];
	char *out, *err;
	size_t i;

	(void)state;
	add_runs(&s, "d", "lat", 6, 300, log(20000), 0.1, 0.5, &rng);
	add_runs(&s, "d", "lat", 7, 300, log(26000), 0.1, 0.5, &rng);
	for (i = 0; i < s.nruns; i++)
		assert_int_equal(cr_run_add_tag(&s.runs[i], "governor",
						i < 6 ? "performance" :
						"powersave"), 0);
	s.meta.cpufreq_recorded = 1;
	s.meta.cpufreq_governor = strdup("schedutil");
	assert_non_null(s.meta.cpufreq_governor);
	o.base = "tag:governor=powersave";
	o.resamples = 500;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	json_diff(out, a);
	free(out);
	free(err);
	o = opts("meta:cpufreq_governor=performance", "json");
	o.base = "meta:cpufreq_governor=powersave";
	o.resamples = 500;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);
	assert_true(a[4] == 7 && a[5] == 6);
	o.variant = "meta:cpufreq_governor=schedutil";
	o.base = NULL;
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare meta:cpufreq_governor=schedutil: no run with meta cpufreq_governor=schedutil (values: performance, powersave)\n");
	free(out);
	free(err);
	cr_snapshot_free(&s);
}

/*
 * --compare tag:K=V: two files of variant d, tagged cstate=1 and
 * cstate=free, give the numbers the hand-edited workaround gave (the
 * same runs renamed to variants c1 and cf); meta:FIELD=V the same; the
 * metric is NAME.VARIANT.  variant:X is X.  Unknown factors and values
 * list what exists.
 */
static void test_factor_tag(void **state)
{
	struct cr_snapshot f1 = { 0 }, f2 = { 0 }, all = { 0 }, hand = { 0 };
	struct cr_compare_opts o = opts("tag:cstate=1", "json");
	uint64_t rng = 11, rng2 = 11;
	double a[6], b[6];
	char *out, *err, *out2, *err2;
	size_t i;

	(void)state;
	add_runs(&f1, "d", "lat", 6, 300, log(20000), 0.1, 0.5, &rng);
	add_runs(&f2, "d", "lat", 7, 300, log(23000), 0.1, 0.5, &rng);
	for (i = 0; i < f2.nruns; i++)
		f2.runs[i].start_ns = 1000 + i;	/* not f1's runs */
	assert_int_equal(cr_meta_add_tag(&f1.meta, "cstate", "1"), 0);
	assert_int_equal(cr_meta_add_tag(&f2.meta, "cstate", "free"), 0);
	f1.meta.machine = strdup("vm");
	f2.meta.machine = strdup("bare-metal");
	assert_int_equal(cr_snapshot_merge(&all, &f1, "c1.json"), CR_OK);
	assert_int_equal(cr_snapshot_merge(&all, &f2, "cf.json"), CR_OK);
	add_runs(&hand, "c1", "lat", 6, 300, log(20000), 0.1, 0.5, &rng2);
	add_runs(&hand, "cf", "lat", 7, 300, log(23000), 0.1, 0.5, &rng2);

	o.resamples = 500;
	assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(contains(out, "\"base\":\"tag:cstate=free\""));
	assert_true(contains(out, "\"variant\":\"tag:cstate=1\""));
	assert_true(contains(out, "\"metric\":\"lat.d\""));
	json_diff(out, a);
	free(out);
	free(err);
	o = opts("c1", "json");
	o.resamples = 500;
	assert_int_equal(compare(&hand, &o, &out, &err), CR_OK);
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);
	assert_true(a[4] == 7 && a[5] == 6);

	/* meta:machine=vm is the same grouping here; --base explicit. */
	o = opts("meta:machine=vm", "json");
	o.base = "meta:machine=bare-metal";
	o.resamples = 500;
	assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);

	/* variant:X is X, byte for byte. */
	o = opts("variant:c1", "text");
	assert_int_equal(compare(&hand, &o, &out, &err), CR_OK);
	o.variant = "c1";
	assert_int_equal(compare(&hand, &o, &out2, &err2), CR_OK);
	assert_string_equal(out, out2);
	free(out);
	free(err);
	free(out2);
	free(err2);

	/* Errors. */
	o = opts("foo:x", "text");
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "clkstat-report: --compare foo:x: no such factor (factors: variant: d; tag:cstate=1, free; "));
	assert_true(contains(err, "meta:machine=vm, bare-metal;"));
	assert_string_equal(strchr(err, '\n'), "\n");
	free(out);
	free(err);
	o.variant = "tag:cstate=2";
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare tag:cstate=2: no run with tag cstate=2 (values: 1, free)\n");
	free(out);
	free(err);
	o.variant = "tag:gov=menu";
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "clkstat-report: --compare tag:gov=menu: no run has tag gov (factors: variant: d; "));
	free(out);
	free(err);
	o.variant = "meta:colour=red";
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "no such factor"));
	free(out);
	free(err);
	o.variant = "tag:cstate=1";
	o.base = "meta:machine=vm";
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare tag:cstate=1 --base meta:machine=vm: the base must be tag:cstate=VALUE\n");
	free(out);
	free(err);
	o.variant = "migrated";
	o.base = NULL;
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "no metric NAME_migrated beside a NAME_local"));
	free(out);
	free(err);
	cr_snapshot_free(&all);
	cr_snapshot_free(&hand);
}

/*
 * meta:FIELD=V of a number (nr_cpus, frac_bits, duration_s): the base is
 * the one other value, as for text fields; a value no run has is refused
 * with the values; the factor list names every value.  (These values are
 * formatted into a reused buffer: before the fix the other value was
 * never found, a missing one not refused, and the list had run 0's.)
 */
static void test_factor_meta_number(void **state)
{
	struct cr_snapshot f1 = { 0 }, f2 = { 0 }, all = { 0 }, hand = { 0 };
	struct cr_compare_opts o = opts("meta:nr_cpus=2", "json");
	uint64_t rng = 13, rng2 = 13;
	double a[6], b[6];
	char *out, *err;
	size_t i;

	(void)state;
	add_runs(&f1, "d", "lat", 6, 300, log(20000), 0.1, 0.5, &rng);
	add_runs(&f2, "d", "lat", 7, 300, log(23000), 0.1, 0.5, &rng);
	for (i = 0; i < f2.nruns; i++)
		f2.runs[i].start_ns = 1000 + i;	/* not f1's runs */
	f1.meta.nr_cpus = 2;
	f2.meta.nr_cpus = 4;
	assert_int_equal(cr_snapshot_merge(&all, &f1, "n2.json"), CR_OK);
	assert_int_equal(cr_snapshot_merge(&all, &f2, "n4.json"), CR_OK);
	add_runs(&hand, "c1", "lat", 6, 300, log(20000), 0.1, 0.5, &rng2);
	add_runs(&hand, "cf", "lat", 7, 300, log(23000), 0.1, 0.5, &rng2);

	o.resamples = 500;
	assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\"base\":\"meta:nr_cpus=4\""));
	assert_true(contains(out, "\"variant\":\"meta:nr_cpus=2\""));
	json_diff(out, a);
	free(out);
	free(err);
	o = opts("c1", "json");
	o.resamples = 500;
	assert_int_equal(compare(&hand, &o, &out, &err), CR_OK);
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);

	o = opts("meta:nr_cpus=8", "text");
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --compare meta:nr_cpus=8: no run with meta nr_cpus=8 (values: 2, 4)\n");
	free(out);
	free(err);
	o.variant = "meta:nr_cpus=4";
	o.base = "meta:nr_cpus=9";
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_string_equal(err, "clkstat-report: --base meta:nr_cpus=9: no run with meta nr_cpus=9 (values: 2, 4)\n");
	free(out);
	free(err);
	o.variant = "foo:x";
	o.base = NULL;
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "; meta:nr_cpus=2, 4;"));
	free(out);
	free(err);
	cr_snapshot_free(&all);
	cr_snapshot_free(&hand);
}

/*
 * --compare migrated: the *_migrated metrics of every run against their
 * *_local ones, the same runs: the numbers of the same histograms put in
 * runs of two variants M and L.
 */
static void test_factor_migrated(void **state)
{
	struct cr_snapshot s = { 0 }, hand = { 0 };
	struct cr_compare_opts o = opts("migrated", "json");
	struct cr_metric *ml, *mm, *hl, *hm;
	struct cr_run *r;
	uint64_t rng = 5;
	double a[6], b[6];
	char *out, *err;
	size_t i, j;

	(void)state;
	for (i = 0; i < 8; i++) {
		r = add_run(&s, "direct");
		hb_metric(r, "ttwu_local", "direct", 3);
		hb_metric(r, "ttwu_migrated", "direct", 3);
		hb_metric(r, "tkread", "direct", 3);
		ml = &r->metrics[0];	/* after the reallocs */
		mm = &r->metrics[1];
		hl = add_metric(add_run(&hand, "L"), "ttwu", 3);
		hm = add_metric(add_run(&hand, "M"), "ttwu", 3);
		for (j = 0; j < 200; j++) {
			uint64_t x = (uint64_t)exp(log(8000) + 0.5 * normal(&rng));
			uint64_t y = (uint64_t)exp(log(12000) + 0.5 * normal(&rng));

			hb_sample(ml, 0, x);
			hb_sample(hl, 0, x);
			hb_sample(mm, 1, y);
			hb_sample(hm, 1, y);
		}
	}
	o.resamples = 500;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_string_equal(err, "");
	assert_true(contains(out, "\"base\":\"local\""));
	assert_true(contains(out, "\"variant\":\"migrated\""));
	assert_true(contains(out, "\"metric\":\"ttwu.direct\""));
	assert_false(contains(out, "tkread"));
	json_diff(out, a);
	free(out);
	free(err);
	o = opts("M", "json");
	o.base = "L";
	o.resamples = 500;
	assert_int_equal(compare(&hand, &o, &out, &err), CR_OK);
	json_diff(out, b);
	free(out);
	free(err);
	for (i = 0; i < 6; i++)
		assert_true(a[i] == b[i]);
	assert_true(a[0] > 2000);	/* migrated slower by about 4 us */
	/* --base local explicit, and the other way round. */
	o = opts("local", "text");
	o.base = "migrated";
	o.resamples = 500;
	assert_int_equal(compare(&s, &o, &out, &err), CR_OK);
	assert_true(contains(out, "clkstat-report --compare: local against base migrated\nunit: run (whole runs resampled with replacement within each group)\n"));
	free(out);
	free(err);
	o.base = "local";
	assert_int_equal(compare(&s, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "migrated is compared with local"));
	free(out);
	free(err);
	cr_snapshot_free(&s);
	cr_snapshot_free(&hand);
}

/* ---- the host unit ---- */

/* Runs of variant v, metric "lat", frac_bits 3: nruns on each host. */
static void add_host_runs(struct cr_snapshot *s, const char *v,
			  const size_t *nruns, size_t nhosts, double mu,
			  double host_sd, uint64_t *rng, double *offsets)
{
	size_t h;

	for (h = 0; h < nhosts; h++) {
		double off = offsets ? offsets[h] : host_sd * normal(rng);

		if (offsets == NULL && host_sd == 0)
			off = 0;
		add_runs(s, v, "lat", nruns[h], 200, mu + off, 0.1, 0.4, rng);
	}
}

/* Host numbers of the runs of stratum() of v: base + host of each. */
static void host_ids(const size_t *nruns, size_t nhosts, unsigned int base,
		     unsigned int *ids)
{
	size_t h, i, n = 0;

	for (h = 0; h < nhosts; h++)
		for (i = 0; i < nruns[h]; i++)
			ids[n++] = base + h;
}

static void same_result(const struct cr_boot_result *a,
			const struct cr_boot_result *b)
{
	unsigned int s, i;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < CR_BOOT_NSTATS; i++) {
			assert_true(a->s[s].stat[i].value == b->s[s].stat[i].value);
			assert_true(a->s[s].stat[i].lo == b->s[s].stat[i].lo);
			assert_true(a->s[s].stat[i].hi == b->s[s].stat[i].hi);
		}
	}
	for (i = 0; i < CR_BOOT_NDIFFS; i++) {
		assert_true(a->diff[i].lo == b->diff[i].lo);
		assert_true(a->diff[i].hi == b->diff[i].hi);
	}
	assert_true(a->p_median == b->p_median);
}

/*
 * Hosts of one run each, not shared between the strata: the host unit
 * draws exactly as the run unit (a host of one run takes no random number
 * for its run), so the result is the run unit's, bit for bit.
 */
static void test_host_single_runs(void **state)
{
	static const size_t one[12] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct cr_snapshot s = { 0 };
	const struct cr_hist *h[2][64];
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = params(500, 0);
	struct cr_boot_result rr, rh;
	unsigned int ids[2][64];
	uint64_t rng = 5;

	(void)state;
	add_host_runs(&s, "a", one, 12, log(9000), 0.3, &rng, NULL);
	add_host_runs(&s, "b", one, 10, log(9500), 0.3, &rng, NULL);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	host_ids(one, 12, 0, ids[0]);
	host_ids(one, 10, 100, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rr), 0);
	p.unit_host = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rh), 0);
	assert_true(rh.unit_host && !rh.paired);
	assert_int_equal(rh.s[0].nhosts, 12);
	assert_int_equal(rh.s[1].nhosts, 10);
	assert_true(rh.s[0].single_run_hosts);
	same_result(&rr, &rh);
	/* Nonsense: the host unit without hosts, or with the sample unit. */
	in[1].host = NULL;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rh), -EINVAL);
	in[1].host = ids[1];
	p.unit_sample = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rh), -EINVAL);
	cr_snapshot_free(&s);
}

/* Host numbers of the runs of stratum() of v: hid[h] for host h's. */
static void host_ids_of(const size_t *nruns, size_t nhosts,
			const unsigned int *hid, unsigned int *ids)
{
	size_t h, i, n = 0;

	for (h = 0; h < nhosts; h++)
		for (i = 0; i < nruns[h]; i++)
			ids[n++] = hid[h];
}

enum { HR_UNPAIRED, HR_PAIRED, HR_PARTLY, HR_FIXED };

/*
 * The host unit done again from its description (bootstrap.c), with a
 * table where the engine replays: one mt19937 seeded with the seed; the
 * B x S draws of the S shared hosts (those both strata have, in the
 * base's order of first appearance) first, into a table; then the B
 * resamples of the base, then those of the variant: each draws its S
 * shared hosts by the table, taken as its own number of that machine,
 * then its own hosts (those the other has no run on) each with
 * gsl_rng_uniform_int(own); each drawn host's n runs right after it,
 * from its own with gsl_rng_uniform_int(n) (none for n = 1).  Host-fixed:
 * every host once, in order, its runs so.  Pooled, medians and means as
 * the run unit's reference, percentile intervals.  Hosts of 1 to 4 runs;
 * unpaired, paired, partly paired with the variant's hosts in another
 * order than the base's, host-fixed.
 */
static void host_reference(int mode, unsigned long seed)
{
	enum { B = 300 };
	static const size_t na[] = { 3, 1, 4, 2, 3, 2 };
	static const size_t nb_p[] = { 2, 2, 3, 1, 4, 2 };
	static const size_t nb_u[] = { 2, 4, 1, 3, 2 };
	static const unsigned int ida[] = { 0, 1, 2, 3, 4, 5 };
	static const unsigned int idb[][6] = {
		[HR_UNPAIRED] = { 10, 11, 12, 13, 14 },
		[HR_PAIRED] = { 0, 1, 2, 3, 4, 5 },
		/* shared: the base's 0, 2, 4, 5; its own 1, 3; ours 12, 13 */
		[HR_PARTLY] = { 4, 0, 12, 2, 13, 5 },
		[HR_FIXED] = { 3, 1, 2, 0, 4, 5 },
	};
	const size_t *nb = mode == HR_UNPAIRED ? nb_u : nb_p;
	const size_t nh[2] = { 6, mode == HR_UNPAIRED ? 5 : 6 };
	const unsigned int *id[2] = { ida, idb[mode] };
	const double level = 0.9, qlo = (1 - level) / 2, qhi = (1 + level) / 2;
	struct cr_snapshot s = { 0 };
	const struct cr_hist *h[2][64];
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = params(B, 0);
	struct cr_boot_result r;
	struct ref_stats rs;
	static double med[2][B], mean[2][B], d[B];
	static uint32_t tab[B][8];
	unsigned int ids[2][64], w[64], t, want;
	size_t first[2][8], sh[2][8], own[2][8], nown[2] = { 0, 0 }, nsh = 0;
	size_t i, b, k, j, x, n;
	uint64_t rng = 29;
	gsl_rng *g;

	add_host_runs(&s, "a", na, nh[0], log(8000), 0.3, &rng, NULL);
	add_host_runs(&s, "b", nb, nh[1], log(8500), 0.3, &rng, NULL);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	host_ids_of(na, nh[0], id[0], ids[0]);
	host_ids_of(nb, nh[1], id[1], ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	p.unit_host = 1;
	p.host_fixed = mode == HR_FIXED;
	p.level = level;
	p.seed = seed;
	for (k = 0; k < nh[0]; k++) {
		for (x = 0; x < nh[1] && id[1][x] != id[0][k]; x++)
			;
		if (x < nh[1] && mode != HR_FIXED) {
			sh[0][nsh] = k;
			sh[1][nsh++] = x;
		} else {
			own[0][nown[0]++] = k;
		}
	}
	for (x = 0; x < nh[1]; x++) {
		for (k = 0; k < nh[0] && id[0][k] != id[1][x]; k++)
			;
		if (k == nh[0] || mode == HR_FIXED)
			own[1][nown[1]++] = x;
	}
	assert_int_equal(nsh, mode == HR_PAIRED ? 6 : mode == HR_PARTLY ? 4 : 0);
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_int_equal(r.paired, mode == HR_PAIRED);
	assert_int_equal(r.shared_hosts, nsh);
	for (i = 0; i < 2; i++) {
		assert_int_equal(r.s[i].nhosts, nh[i]);
		assert_int_equal(r.s[i].own_hosts,
				 mode == HR_UNPAIRED ? nh[i] :
				 mode == HR_PARTLY ? 2 : 0);
		assert_true(mode == HR_FIXED || r.s[i].own_hosts == nown[i]);
		want = mode == HR_FIXED ? CR_BOOT_W_FIXED_FEW_RUNS :
		       CR_BOOT_W_FEW_HOSTS |
		       (mode == HR_PARTLY ? CR_BOOT_W_OWN_HOSTS : 0);
		assert_int_equal(r.s[i].warnings, want);
		for (k = 0, n = 0; k < nh[i]; k++) {
			first[i][k] = n;
			n += i ? nb[k] : na[k];
		}
	}

	g = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(g);
	gsl_rng_set(g, seed);
	for (b = 0; b < B; b++)
		for (k = 0; k < nsh; k++)
			tab[b][k] = gsl_rng_uniform_int(g, nsh);
	for (i = 0; i < 2; i++) {
		for (b = 0; b < B; b++) {
			memset(w, 0, sizeof(w));
			for (k = 0; k < nsh + nown[i]; k++) {
				if (mode == HR_FIXED)
					x = own[i][k];
				else if (k < nsh)
					x = sh[i][tab[b][k]];
				else
					x = own[i][gsl_rng_uniform_int(g,
								nown[i])];
				n = i ? nb[x] : na[x];
				for (j = 0; j < n; j++) {
					t = n == 1 ? 0 : gsl_rng_uniform_int(g, n);
					w[first[i][x] + t]++;
				}
			}
			ref_pool(h[i], w, in[i].nruns, 0, 0, &rs);
			med[i][b] = rs.median;
			mean[i][b] = rs.mean;
		}
	}
	gsl_rng_free(g);
	for (b = 0; b < B; b++)
		d[b] = med[1][b] - med[0][b];
	qsort(d, B, sizeof(*d), cmp_double);
	near(r.diff[CR_BOOT_D_MEDIAN].lo, quantile(d, B, qlo));
	near(r.diff[CR_BOOT_D_MEDIAN].hi, quantile(d, B, qhi));
	for (i = 0; i < 2; i++) {
		qsort(med[i], B, sizeof(double), cmp_double);
		qsort(mean[i], B, sizeof(double), cmp_double);
		near(r.s[i].stat[CR_BOOT_MEDIAN].lo, quantile(med[i], B, qlo));
		near(r.s[i].stat[CR_BOOT_MEDIAN].hi, quantile(med[i], B, qhi));
		near(r.s[i].stat[CR_BOOT_MEAN].lo, quantile(mean[i], B, qlo));
		near(r.s[i].stat[CR_BOOT_MEAN].hi, quantile(mean[i], B, qhi));
	}
	cr_snapshot_free(&s);
}

static void test_host_reference(void **state)
{
	(void)state;
	host_reference(HR_PAIRED, 3);
	host_reference(HR_UNPAIRED, 3);
	host_reference(HR_PAIRED, 987654);
	host_reference(HR_PARTLY, 3);
	host_reference(HR_PARTLY, 987654);
	host_reference(HR_FIXED, 5);
}

/*
 * Every difference's interval is [0, 0] (the risk ratio's [1, 1]) at
 * level 0.999 with B = 400: its ends interpolate between the two smallest
 * and the two largest of the 400 resampled differences (positions 0.2
 * and 398.8), so both are 0 only when the smallest and the largest are:
 * Δ = 0 in every resample.
 */
static void zero_in_every_resample(const struct cr_boot_result *r)
{
	unsigned int i;

	assert_int_equal(r->resamples, 400);
	for (i = 0; i < CR_BOOT_NDIFFS; i++) {
		double z = i == CR_BOOT_D_RR ? 1 : 0;

		if (r->diff[i].lo != z || r->diff[i].hi != z)
			fail_msg("diff %u: [%.17g, %.17g], not [%g, %g] in every resample",
				 i, r->diff[i].lo, r->diff[i].hi, z, z);
	}
	assert_true(r->p_median == 1);
}

/*
 * Pairing: every host ran both variants with the same histograms, one
 * run each.  Paired, each resample draws the same hosts for both: every
 * Δ is 0 in every resample, and p = 1.  Again with the variant's hosts,
 * and their histograms, listed in the reverse order: the variant must
 * take each drawn machine as its own number of it (bootstrap.c's
 * st[1].shared, what was hmap), for a draw of
 * the base's host k is the variant's host 14 - k; were the draw taken as
 * the variant's own number k it would pool another machine's run and Δ
 * would not be 0 (checked: it fails so).  The same data on hosts that
 * differ by name (unpaired) resample the two sides apart: a wide
 * interval.  One host renamed on the variant's side: partly paired, the
 * 14 others still drawn once for both, and the renamed one, each side's
 * own (1 host each, with the same data), drawn by each every time: Δ
 * still 0 in every resample (before the partial pairing any host on one
 * side only made the whole comparison unpaired: a wide interval).
 */
static void test_host_pairing(void **state)
{
	static const size_t one[15] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					1, 1, 1 };
	struct cr_snapshot s = { 0 };
	const struct cr_hist *h[2][64], *rev[64];
	struct cr_boot_stratum_in in[2], rin;
	struct cr_boot_params p = params(400, 0);
	struct cr_boot_result r;
	unsigned int ids[2][64], rids[64], i;
	uint64_t rng = 41, rng2 = 41;

	(void)state;
	add_host_runs(&s, "a", one, 15, log(7000), 0.4, &rng, NULL);
	add_host_runs(&s, "b", one, 15, log(7000), 0.4, &rng2, NULL);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	host_ids(one, 15, 0, ids[0]);
	host_ids(one, 15, 0, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	p.unit_host = 1;
	p.level = 0.999;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_true(r.paired);
	assert_int_equal(r.shared_hosts, 15);
	zero_in_every_resample(&r);
	assert_true(r.s[0].stat[CR_BOOT_MEDIAN].lo <
		    r.s[0].stat[CR_BOOT_MEDIAN].hi);

	/* The variant's hosts and histograms in the reverse order. */
	rin = in[1];
	for (i = 0; i < 15; i++) {
		rev[i] = h[0][14 - i];
		rids[i] = 14 - i;
	}
	rin.runs = rev;
	rin.host = rids;
	assert_int_equal(cr_boot_compare(&in[0], &rin, &p, &r), 0);
	assert_true(r.paired);
	assert_int_equal(r.shared_hosts, 15);
	zero_in_every_resample(&r);

	/* No host shared: unpaired, the sides drawn apart. */
	host_ids(one, 15, 100, ids[1]);
	p.level = 0.95;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_false(r.paired);
	assert_int_equal(r.shared_hosts, 0);
	assert_int_equal(r.s[1].warnings, 0);
	assert_true(r.diff[CR_BOOT_D_MEDIAN].lo < 0 &&
		    r.diff[CR_BOOT_D_MEDIAN].hi > 0);

	/* One host renamed: partly paired, the pairs kept. */
	host_ids(one, 15, 0, ids[1]);
	ids[1][7] = 99;
	p.level = 0.999;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_false(r.paired);
	assert_int_equal(r.shared_hosts, 14);
	for (i = 0; i < 2; i++) {
		assert_int_equal(r.s[i].own_hosts, 1);
		assert_int_equal(r.s[i].warnings, CR_BOOT_W_OWN_HOSTS);
	}
	zero_in_every_resample(&r);
	cr_snapshot_free(&s);
}

/*
 * One host: its runs resampled (an interval, not a point) with the
 * warning that it says nothing of other machines; one host of one run: a
 * point.  Few hosts: the few-hosts warning, not the runs'.  The base's
 * host is one of the variant's three: partly paired, the variant's two
 * others its own (warned).
 */
static void test_host_one(void **state)
{
	static const size_t five[1] = { 5 }, onerun[1] = { 1 };
	static const size_t many[3] = { 4, 4, 4 };
	struct cr_snapshot s = { 0 }, t = { 0 };
	const struct cr_hist *h[2][64];
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = params(300, 0);
	struct cr_boot_result r;
	unsigned int ids[2][64], i;
	uint64_t rng = 43;

	(void)state;
	add_host_runs(&s, "a", five, 1, log(5000), 0, &rng, NULL);
	add_host_runs(&s, "b", many, 3, log(5000), 0.3, &rng, NULL);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	host_ids(five, 1, 0, ids[0]);
	host_ids(many, 3, 0, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	p.unit_host = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_false(r.paired);
	assert_int_equal(r.shared_hosts, 1);
	assert_int_equal(r.s[0].warnings, CR_BOOT_W_ONE_HOST);
	assert_int_equal(r.s[1].warnings,
			 CR_BOOT_W_FEW_HOSTS | CR_BOOT_W_OWN_HOSTS);
	assert_int_equal(r.s[1].own_hosts, 2);
	assert_true(r.s[0].stat[CR_BOOT_MEDIAN].lo <
		    r.s[0].stat[CR_BOOT_MEDIAN].hi);
	cr_snapshot_free(&s);

	add_host_runs(&t, "a", onerun, 1, log(5000), 0, &rng, NULL);
	add_host_runs(&t, "b", many, 3, log(5000), 0.3, &rng, NULL);
	in[0] = stratum(&t, "a", "lat", h[0]);
	in[1] = stratum(&t, "b", "lat", h[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &r), 0);
	assert_int_equal(r.s[0].warnings, CR_BOOT_W_ONE_HOST);
	for (i = 0; i < CR_BOOT_NSTATS; i++) {
		assert_true(r.s[0].stat[i].lo == r.s[0].stat[i].value);
		assert_true(r.s[0].stat[i].hi == r.s[0].stat[i].value);
	}
	cr_snapshot_free(&t);
}

/* A file of nruns runs of variants a and b, start_ns from t0. */
static void host_file(struct cr_snapshot *f, size_t nruns, double mu,
		      int64_t t0, uint64_t *rng)
{
	size_t i;

	add_runs(f, "a", "lat", nruns, 200, mu, 0.1, 0.4, rng);
	add_runs(f, "b", "lat", nruns, 200, mu + 0.05, 0.1, 0.4, rng);
	for (i = 0; i < f->nruns; i++)
		f->runs[i].start_ns = t0 + (int64_t)i;
}

static size_t json_hosts(const char *out, int stratum_i)
{
	struct json_object *j = json_tokener_parse(out), *m;
	size_t n;

	assert_non_null(j);
	m = json_object_array_get_idx(json_object_object_get(j, "metrics"), 0);
	n = json_object_get_int(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(m, "strata"),
					  stratum_i), "hosts"));
	json_object_put(j);
	return n;
}

/*
 * The host of a run (compare.c): its own tag host, else its file's tag
 * host, else its file's meta host, else its input file.  Five files: two
 * with meta host n1, one of them also tagged host=zz (record --tag
 * host=zz: the user's tag wins, zz), one whose runs are tagged host=n2 on
 * their own, one with the file tag host=n3, one without anything (its
 * own host, named by its path): 5 hosts.  The output says so in every format; text, JSON and CSV are the
 * same for the same seed, and another seed changes them.
 */
static void test_host_rule(void **state)
{
	static const char *const fmt[] = { "text", "json", "csv" };
	struct cr_snapshot f[5], all = { 0 };
	struct cr_compare_opts o = opts("b", "json");
	char *out, *err, *out2, path[32];
	uint64_t rng = 47;
	size_t i, k;

	(void)state;
	memset(f, 0, sizeof(f));
	for (k = 0; k < 5; k++)
		host_file(&f[k], 3, log(6000) + 0.2 * k, 1000 * (int64_t)k,
			  &rng);
	f[0].meta.host = strdup("n1");
	f[1].meta.host = strdup("n1");
	assert_int_equal(cr_meta_add_tag(&f[1].meta, "host", "zz"), 0);
	for (i = 0; i < f[2].nruns; i++)
		assert_int_equal(cr_run_add_tag(&f[2].runs[i], "host", "n2"), 0);
	assert_int_equal(cr_meta_add_tag(&f[3].meta, "host", "n3"), 0);
	for (k = 0; k < 5; k++) {
		snprintf(path, sizeof(path), "f%zu.json", k);
		assert_int_equal(cr_snapshot_merge(&all, &f[k], path), CR_OK);
	}
	assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
	assert_int_equal(json_hosts(out, 0), 5);
	assert_int_equal(json_hosts(out, 1), 5);
	assert_true(contains(out, "\"unit\":\"run\""));
	free(out);
	free(err);
	o.unit_host = 1;
	o.resamples = 300;
	assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
	assert_true(contains(out, "\"unit\":\"host\""));
	assert_true(contains(out, "\"hosts_paired\":true,") &&
		    contains(out, "\"hosts_shared\":5,"));
	free(out);
	free(err);
	for (k = 0; k < 3; k++) {
		o.format = fmt[k];
		o.seed = 1;
		assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
		assert_string_equal(err, "");
		free(err);
		assert_int_equal(compare(&all, &o, &out2, &err), CR_OK);
		free(err);
		assert_string_equal(out, out2);
		free(out2);
		o.seed = 2;
		assert_int_equal(compare(&all, &o, &out2, &err), CR_OK);
		free(err);
		assert_string_not_equal(out, out2);
		free(out2);
		if (k == 0) {
			assert_true(contains(out, "unit: host (hosts resampled"));
			assert_true(contains(out, ": confidence intervals for the fleet-wide value, machines of this kind in general, not a range for one machine)\n"));
			assert_true(contains(out, "  hosts: paired (both on the same 5 hosts"));
			assert_true(contains(out, "(base): 15 runs on 5 hosts, 3000 samples\n"));
			assert_true(contains(out, "5 hosts: too few"));
		}
		if (k == 2) {
			assert_true(contains(out, "\nlat,settings,unit,host,,,\n"));
			assert_true(contains(out, "\nlat,settings,hosts_paired,yes,,,\nlat,settings,hosts_shared,5,,,\n"));
			assert_true(contains(out, "\nlat,a,hosts,5,,,\n"));
		}
		free(out);
	}
	/* --unit sample with host: refused. */
	o.unit_sample = 1;
	assert_int_equal(compare(&all, &o, &out, &err), CR_USAGE);
	assert_true(contains(err, "--unit is run, sample, host or host-fixed"));
	free(out);
	free(err);
	cr_snapshot_free(&all);
}

/*
 * --unit host-fixed: every host kept, its runs resampled within it.  One
 * host of several runs on each side is the run unit, bit for bit (its n
 * runs drawn as the run unit draws them).  Hosts with their own offsets
 * (SD 0.5 on the log scale) and a small run-to-run spread: the host
 * unit's interval of the median, which draws the hosts, is more than
 * twice as wide as host-fixed's, which keeps them; 4 runs per host: the
 * few-runs warning, no few-hosts one, nothing paired.  Hosts of one run
 * each: nothing to resample, a point with its warning.  Through
 * cr_compare(): the unit named in text, JSON (hosts_paired null) and CSV
 * (no hosts_paired row), and no "hosts:" line.
 */
static void test_host_fixed(void **state)
{
	static const size_t five[1] = { 5 }, six[1] = { 6 };
	static const size_t four[12] = { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	static const size_t one[12] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const char *const fmt[] = { "text", "json", "csv" };
	struct cr_snapshot s = { 0 }, t = { 0 }, u = { 0 }, f[3], all = { 0 };
	const struct cr_hist *h[2][64];
	struct cr_boot_stratum_in in[2];
	struct cr_boot_params p = params(400, 0);
	struct cr_boot_result rr, rf, rh;
	struct cr_compare_opts o = opts("b", "text");
	unsigned int ids[2][64], i;
	char *out, *err, path[32];
	double wf, wh;
	uint64_t rng = 53;
	size_t k;

	(void)state;
	/* One host: the run unit. */
	add_host_runs(&s, "a", five, 1, log(6000), 0.3, &rng, NULL);
	add_host_runs(&s, "b", six, 1, log(6500), 0.3, &rng, NULL);
	in[0] = stratum(&s, "a", "lat", h[0]);
	in[1] = stratum(&s, "b", "lat", h[1]);
	host_ids(five, 1, 0, ids[0]);
	host_ids(six, 1, 0, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rr), 0);
	p.unit_host = 1;
	p.host_fixed = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rf), 0);
	assert_true(rf.unit_host && rf.host_fixed && !rf.paired);
	assert_int_equal(rf.s[0].warnings, CR_BOOT_W_FIXED_FEW_RUNS);
	assert_int_equal(rf.s[0].fewest_host_runs, 5);
	same_result(&rr, &rf);
	/* host_fixed without the host unit: nonsense. */
	p.unit_host = 0;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rf), -EINVAL);
	cr_snapshot_free(&s);

	/* Hosts that differ: keeping them takes their spread out. */
	add_host_runs(&t, "a", four, 12, log(6000), 0.5, &rng, NULL);
	add_host_runs(&t, "b", four, 12, log(6000), 0.5, &rng, NULL);
	in[0] = stratum(&t, "a", "lat", h[0]);
	in[1] = stratum(&t, "b", "lat", h[1]);
	host_ids(four, 12, 0, ids[0]);
	host_ids(four, 12, 0, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	p.unit_host = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rf), 0);
	p.host_fixed = 0;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rh), 0);
	assert_true(rh.paired && !rf.paired && !rf.shared_hosts);
	wf = rf.s[0].stat[CR_BOOT_MEDIAN].hi - rf.s[0].stat[CR_BOOT_MEDIAN].lo;
	wh = rh.s[0].stat[CR_BOOT_MEDIAN].hi - rh.s[0].stat[CR_BOOT_MEDIAN].lo;
	print_message("median interval widths: host %.1f ns, host-fixed %.1f ns\n",
		      wh, wf);
	assert_true(wf > 0 && 2 * wf < wh);
	for (i = 0; i < 2; i++)
		assert_int_equal(rf.s[i].warnings, CR_BOOT_W_FIXED_FEW_RUNS);
	cr_snapshot_free(&t);

	/* Hosts of one run each: every resample is the data. */
	add_host_runs(&u, "a", one, 12, log(6000), 0.5, &rng, NULL);
	add_host_runs(&u, "b", one, 12, log(6000), 0.5, &rng, NULL);
	in[0] = stratum(&u, "a", "lat", h[0]);
	in[1] = stratum(&u, "b", "lat", h[1]);
	host_ids(one, 12, 0, ids[0]);
	host_ids(one, 12, 0, ids[1]);
	in[0].host = ids[0];
	in[1].host = ids[1];
	p.host_fixed = 1;
	assert_int_equal(cr_boot_compare(&in[0], &in[1], &p, &rf), 0);
	for (k = 0; k < 2; k++) {
		assert_int_equal(rf.s[k].warnings, CR_BOOT_W_FIXED_ONE_RUN);
		for (i = 0; i < CR_BOOT_NSTATS; i++) {
			assert_true(rf.s[k].stat[i].lo == rf.s[k].stat[i].value);
			assert_true(rf.s[k].stat[i].hi == rf.s[k].stat[i].value);
		}
	}
	cr_snapshot_free(&u);

	/* The outputs: three files, three hosts. */
	memset(f, 0, sizeof(f));
	for (k = 0; k < 3; k++) {
		host_file(&f[k], 3, log(6000) + 0.2 * k, 1000 * (int64_t)k,
			  &rng);
		snprintf(path, sizeof(path), "f%zu.json", k);
		assert_int_equal(cr_snapshot_merge(&all, &f[k], path), CR_OK);
	}
	o.unit_host = 1;
	o.host_fixed = 1;
	o.resamples = 200;
	for (k = 0; k < 3; k++) {
		o.format = fmt[k];
		assert_int_equal(compare(&all, &o, &out, &err), CR_OK);
		assert_string_equal(err, "");
		assert_false(contains(out, "hosts_paired,"));
		assert_false(contains(out, "  hosts: "));
		if (k == 0)
			assert_true(contains(out, "\nunit: host-fixed (each host's runs resampled with replacement within it, every host kept, within each variant: intervals for these machines only)\n"));
		if (k == 1)
			assert_true(contains(out, "\"unit\":\"host-fixed\"") &&
				    contains(out, "\"hosts_paired\":null,") &&
				    contains(out, "\"hosts_shared\":null,"));
		if (k == 2)
			assert_true(contains(out, "\nlat,settings,unit,host-fixed,,,\n"));
		assert_true(contains(out, "3 runs: too few"));
		free(out);
		free(err);
	}
	cr_snapshot_free(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_is_summary),
		cmocka_unit_test(test_identical_strata),
		cmocka_unit_test(test_shifted_strata),
		cmocka_unit_test(test_run_vs_sample_unit),
		cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_some_empty_runs),
		cmocka_unit_test(test_one_slot),
		cmocka_unit_test(test_counts_2_40),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_reference_bootstrap),
		cmocka_unit_test(test_sample_unit_width),
		cmocka_unit_test(test_sample_unit_minmax),
		cmocka_unit_test(test_binomial64),
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_risk),
		cmocka_unit_test(test_frac_bits_mismatch),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_trace_names),
		cmocka_unit_test(test_nonsense),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_json_schema),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_output_warnings),
		cmocka_unit_test(test_summary_headline),
		cmocka_unit_test(test_factor_tag),
		cmocka_unit_test(test_factor_run_tag),
		cmocka_unit_test(test_factor_governor),
		cmocka_unit_test(test_factor_meta_number),
		cmocka_unit_test(test_factor_migrated),
		cmocka_unit_test(test_host_single_runs),
		cmocka_unit_test(test_host_reference),
		cmocka_unit_test(test_host_pairing),
		cmocka_unit_test(test_host_one),
		cmocka_unit_test(test_host_fixed),
		cmocka_unit_test(test_host_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
