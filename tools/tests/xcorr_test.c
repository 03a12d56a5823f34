// SPDX-License-Identifier: GPL-2.0
/*
 * xcorr_test.c - cmocka tests of clkstat-report xcorr's statistics
 * (tools/lib/xcorr.c) on series whose answer is known: B = A shifted by
 * 3 bins (peak at lag +3, r 1, intervals [1, 1] and [3, 3]); independent
 * Poisson series (every |r| small, the intervals cover 0 at lag 0 and at
 * most lags); Pearson's r on a small series against values computed by
 * hand; runs pooled as the mean of their r; undefined lags; the
 * bootstrap reproducible from its seed; the selectors, durations,
 * windows and bins on made-up event logs.  numpy checks r(k) on the same
 * binned series (tools/tests/stats/xcorr_check.py).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../lib/xcorr.h"

#define N	3000
#define LAGS	10

static double *poisson(gsl_rng *rng, size_t n, double mu)
{
	double *v = calloc(n, sizeof(double));
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = gsl_ran_poisson(rng, mu);
	return v;
}

static void test_shifted(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cr_xc_params p = { .K = LAGS, .resamples = 500, .seed = 7,
				  .level = 0.95 };
	struct cr_xc_result res;
	struct cr_xc_series s;
	double *a, *b;
	size_t t;

	(void)state;
	gsl_rng_set(rng, 1);
	a = poisson(rng, N, 0.8);
	b = calloc(N, sizeof(double));
	assert_non_null(b);
	for (t = 3; t < N; t++)
		b[t] = a[t - 3];
	s = (struct cr_xc_series){ .a = a, .b = b, .n = N };
	assert_int_equal(cr_xc_compute(&s, 1, &p, &res), 0);
	assert_true(res.have_peak);
	assert_int_equal(res.peak, 3);
	assert_true(fabs(res.r[3 + LAGS] - 1) < 1e-12);
	assert_true(res.r_lo > 1 - 1e-12 && res.r_hi < 1 + 1e-12);
	assert_true(res.lag_lo == 3 && res.lag_hi == 3);
	assert_int_equal(res.undefined, 0);
	/* Everywhere else: no correlation worth the name. */
	for (t = 0; t <= 2 * LAGS; t++)
		if (t != 3 + LAGS)
			assert_true(fabs(res.r[t]) < 0.1);
	assert_int_equal(res.block[0], cr_xc_default_block(N, LAGS));
	assert_int_equal(res.block[0], 15);	/* cbrt(3000) = 14.4; > LAGS + 1 */
	cr_xc_result_free(&res);
	/* B leading A: the peak at -3. */
	s = (struct cr_xc_series){ .a = b, .b = a, .n = N };
	assert_int_equal(cr_xc_compute(&s, 1, &p, &res), 0);
	assert_int_equal(res.peak, -3);
	cr_xc_result_free(&res);
	free(a);
	free(b);
	gsl_rng_free(rng);
}

static void test_independent(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cr_xc_params p = { .K = LAGS, .resamples = 1000, .seed = 3,
				  .level = 0.95 };
	struct cr_xc_result res;
	struct cr_xc_series s;
	unsigned int covered = 0;
	double *a, *b;
	size_t t;

	(void)state;
	gsl_rng_set(rng, 2);
	a = poisson(rng, N, 1.5);
	b = poisson(rng, N, 0.5);
	s = (struct cr_xc_series){ .a = a, .b = b, .n = N };
	assert_int_equal(cr_xc_compute(&s, 1, &p, &res), 0);
	assert_true(res.have_peak);
	/* 1/sqrt(3000) = 0.018: 4 of those is far. */
	for (t = 0; t <= 2 * LAGS; t++) {
		assert_true(fabs(res.r[t]) < 0.073);
		assert_true(res.lo[t] <= res.r[t] && res.r[t] <= res.hi[t]);
		covered += res.lo[t] <= 0 && res.hi[t] >= 0;
	}
	assert_true(res.lo[LAGS] <= 0 && res.hi[LAGS] >= 0);
	assert_true(covered >= 17);	/* of 21; 95% each */
	assert_true(fabs(res.r[res.peak + LAGS]) < 0.073);
	assert_true(res.r_hi - res.r_lo > 0.02 && res.r_hi - res.r_lo < 0.2);
	cr_xc_result_free(&res);
	free(a);
	free(b);
	gsl_rng_free(rng);
}

/* Pearson on the overlap, against values computed by hand. */
static void test_r_by_hand(void **state)
{
	static const double a[] = { 1, 0, 2, 0, 3 }, b[] = { 0, 1, 0, 2, 1 };
	double r[5];

	(void)state;
	cr_xc_r(a, b, 5, 2, r);
	/*
	 * k = 0: a 1 0 2 0 3 (mean 1.2), b 0 1 0 2 1 (mean 0.8):
	 * sxy = -1.8, sxx = 6.8, syy = 2.8: r = -1.8 / sqrt(19.04).
	 */
	assert_true(fabs(r[2] - -1.8 / sqrt(19.04)) < 1e-15);
	/*
	 * k = 1: (1,1) (0,0) (2,2) (0,1), by sums: n 4, sa 3, sb 4, saa 5,
	 * sbb 6, sab 5: (20 - 12) / sqrt((20 - 9)(24 - 16)).
	 */
	assert_true(fabs(r[3] - 8 / sqrt(88)) < 1e-15);
	/* k = -2: (a2,b0) (a3,b1) (a4,b2) = (2,0) (0,1) (3,0). */
	assert_true(fabs(r[0] - (3 * 0 - 5 * 1) / sqrt((3 * 13 - 25) * (3 * 1 - 1.0))) < 1e-15);
}

static void test_undefined(void **state)
{
	static const double a[] = { 1, 1, 1, 1 }, b[] = { 0, 1, 0, 2 };
	static const double c[] = { 0, 5 }, d[] = { 1, 3 };
	struct cr_xc_params p = { .K = 1, .resamples = 100, .seed = 1,
				  .level = 0.9 };
	struct cr_xc_result res;
	struct cr_xc_series s = { .a = a, .b = b, .n = 4 };
	double r[5];

	(void)state;
	cr_xc_r(a, b, 4, 1, r);
	assert_true(isnan(r[0]) && isnan(r[1]) && isnan(r[2]));
	/* Two pairs: r = 1 at lag 0; one pair at lags +-1: undefined. */
	cr_xc_r(c, d, 2, 2, r);
	assert_true(isnan(r[0]) && isnan(r[1]) && isnan(r[3]) && isnan(r[4]));
	assert_true(fabs(r[2] - 1) < 1e-15);
	assert_int_equal(cr_xc_compute(&s, 1, &p, &res), 0);
	assert_false(res.have_peak);
	assert_true(isnan(res.r_lo) && isnan(res.lo[1]));
	cr_xc_result_free(&res);
	s.n = 0;
	assert_int_equal(cr_xc_compute(&s, 1, &p, &res), -EINVAL);
	cr_xc_result_free(&res);
}

/* Several runs: r(k) is the mean of the runs' r(k); one seed, one answer. */
static void test_runs_pooled(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cr_xc_params p = { .K = 4, .resamples = 300, .seed = 11,
				  .level = 0.95 };
	struct cr_xc_result res, again, other;
	struct cr_xc_series s[3];
	double *v[6], r[3][9];
	size_t i, k;

	(void)state;
	gsl_rng_set(rng, 5);
	for (i = 0; i < 6; i++)
		v[i] = poisson(rng, 500 + 100 * i, 1);
	for (i = 0; i < 3; i++) {
		/* b correlated with a at lag +1 in every run. */
		for (k = 1; k < 500 + 200 * i; k++)
			v[2 * i + 1][k] += v[2 * i][k - 1];
		s[i] = (struct cr_xc_series){ .a = v[2 * i], .b = v[2 * i + 1],
					      .n = 500 + 200 * i };
		cr_xc_r(s[i].a, s[i].b, s[i].n, 4, r[i]);
	}
	assert_int_equal(cr_xc_compute(s, 3, &p, &res), 0);
	for (k = 0; k < 9; k++)
		assert_true(fabs(res.r[k] - (r[0][k] + r[1][k] + r[2][k]) / 3) < 1e-12);
	assert_int_equal(res.peak, 1);
	assert_true(res.r_lo > 0.5);
	assert_true(res.lag_lo == 1 && res.lag_hi == 1);
	assert_int_equal(cr_xc_compute(s, 3, &p, &again), 0);
	for (k = 0; k < 9; k++)
		assert_true(res.lo[k] == again.lo[k] && res.hi[k] == again.hi[k]);
	p.seed = 12;
	assert_int_equal(cr_xc_compute(s, 3, &p, &other), 0);
	assert_true(res.lo[4] != other.lo[4] || res.hi[4] != other.hi[4]);
	/* A given block length is used as given (cut to the run). */
	cr_xc_result_free(&other);
	p.block = 600;
	assert_int_equal(cr_xc_compute(s, 3, &p, &other), 0);
	assert_int_equal(other.block[0], 500);
	assert_int_equal(other.block[1], 600);
	assert_int_equal(other.block[2], 600);
	cr_xc_result_free(&other);
	cr_xc_result_free(&res);
	cr_xc_result_free(&again);
	for (i = 0; i < 6; i++)
		free(v[i]);
	gsl_rng_free(rng);
}

static void add(struct cr_events *x, uint64_t ts, int type, unsigned int fl,
		const char *text)
{
	struct clkstat_event_rec e = { .ts = ts, .type = (uint8_t)type,
				       .flags = (uint8_t)fl };

	snprintf(e.text, sizeof(e.text), "%s", text);
	assert_int_equal(cr_events_add(x, &e), 0);
}

static void test_select_bin(void **state)
{
	struct cr_events x = { 0 };
	struct cr_xc_sel sel;
	uint64_t t0, t1, ns;
	double c[5];
	char err[256];

	(void)state;
	assert_int_equal(cr_xc_sel_parse("enqueue:migrated", &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.filter, CR_XC_MIGRATED);
	assert_int_equal(cr_xc_sel_parse("first_tkread:local", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_sel_parse("enqueue:hpet", &sel, err, sizeof(err)), -1);
	assert_string_equal(err, "'enqueue:hpet': enqueue takes :migrated or :local");
	assert_int_equal(cr_xc_sel_parse("wakeups", &sel, err, sizeof(err)), -1);
	assert_int_equal(cr_xc_sel_parse("marker:", &sel, err, sizeof(err)), -1);
	assert_int_equal(cr_xc_sel_parse("marker:0123456789abcdef", &sel, err, sizeof(err)), -1);
	assert_int_equal(cr_xc_sel_parse("clocksource_read:hpet", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_sel_parse("wakeups", &sel, err, sizeof(err)), -1);
	assert_string_equal(err, "'wakeups': not an event type (wakeup, enqueue, first_tkread, clocksource_switch_entry, clocksource_switch_exit, clocksource_read, marker, trace)");
	/* trace: every one, by number, or by spec (its first 15 bytes). */
	assert_int_equal(cr_xc_sel_parse("trace", &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.filter, CR_XC_ANY);
	assert_int_equal(cr_xc_sel_parse("trace:3", &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.filter, CR_XC_CORR);
	assert_true(sel.corr == 3);
	assert_int_equal(cr_xc_sel_parse("trace:0", &sel, err, sizeof(err)), -1);
	assert_string_equal(err, "'trace:0': a user-defined probe's number is 1 to 4294967295");
	assert_int_equal(cr_xc_sel_parse("trace:4294967296", &sel, err, sizeof(err)), -1);
	assert_int_equal(cr_xc_sel_parse("trace:clkstat_tt_delay", &sel, err, sizeof(err)), 0);
	assert_int_equal(sel.filter, CR_XC_TEXT);
	assert_string_equal(sel.text, "func:clkstat_tt");
	assert_int_equal(cr_xc_sel_parse("trace:sec:a-b:cpu", &sel, err, sizeof(err)), 0);
	assert_string_equal(sel.text, "sec:a-b:cpu");
	assert_int_equal(cr_xc_sel_parse("trace:sec:a", &sel, err, sizeof(err)), -1);
	assert_string_equal(err, "'trace:sec:a': trace takes a probe's number or spec: a section needs two ends, A-B");
	assert_int_equal(cr_xc_sel_parse("trace:", &sel, err, sizeof(err)), -1);

	assert_int_equal(cr_xc_parse_dur("1ms", &ns), 0);
	assert_true(ns == 1000000);
	assert_int_equal(cr_xc_parse_dur("250us", &ns), 0);
	assert_true(ns == 250000);
	assert_int_equal(cr_xc_parse_dur("2s", &ns), 0);
	assert_true(ns == 2000000000);
	assert_int_equal(cr_xc_parse_dur("17", &ns), 0);
	assert_true(ns == 17);
	assert_int_equal(cr_xc_parse_dur("0ms", &ns), -1);
	assert_int_equal(cr_xc_parse_dur("1.5ms", &ns), -1);
	assert_int_equal(cr_xc_parse_dur("ms", &ns), -1);
	assert_int_equal(cr_xc_parse_dur("99999999999999999999", &ns), -1);
	assert_int_equal(cr_xc_parse_dur("18446744073710s", &ns), -1);

	assert_int_equal(cr_xc_window(&x, &t0, &t1), -1);
	add(&x, 90, CLKSTAT_EV_CS_READ, 0, "hpet");
	add(&x, 100, CLKSTAT_EV_MARKER, 0, "run_start");
	add(&x, 100, CLKSTAT_EV_CS_READ, 0, "hpet");
	add(&x, 109, CLKSTAT_EV_CS_READ, 0, "acpi_pm");
	add(&x, 110, CLKSTAT_EV_CS_READ, 0, "hpet");
	add(&x, 125, CLKSTAT_EV_ENQUEUE, CLKSTAT_EVF_MIGRATED, "");
	add(&x, 126, CLKSTAT_EV_ENQUEUE, CLKSTAT_EVF_LOCAL, "");
	add(&x, 127, CLKSTAT_EV_ENQUEUE, 0, "");
	add(&x, 139, CLKSTAT_EV_CS_READ, 0, "hpet");
	add(&x, 140, CLKSTAT_EV_CS_READ, 0, "hpet");
	assert_int_equal(cr_xc_window(&x, &t0, &t1), 0);	/* no run_end */
	assert_true(t0 == 90 && t1 == 140);
	add(&x, 139 + 1, CLKSTAT_EV_MARKER, 0, "run_end");
	add(&x, 150, CLKSTAT_EV_CS_READ, 0, "hpet");
	assert_int_equal(cr_xc_window(&x, &t0, &t1), 1);
	assert_true(t0 == 100 && t1 == 140);
	assert_int_equal(cr_xc_nbins(t0, t1, 10), 5);
	assert_int_equal(cr_xc_nbins(100, 139, 10), 4);
	/* hpet reads in [100, 140): bins 0 (100), 1 (110), 3 (139); 90, 140, 150 out. */
	assert_int_equal(cr_xc_sel_parse("clocksource_read:hpet", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 3);
	assert_true(c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 1);
	assert_int_equal(cr_xc_sel_parse("enqueue:local", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 1);
	assert_true(c[2] == 1);
	assert_int_equal(cr_xc_sel_parse("enqueue", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 3);
	assert_int_equal(cr_xc_sel_parse("marker:run_end", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 5, c), 1);
	assert_true(c[4] == 1);
	/* Two probes' samples, numbered 1 and 2, texts as the module cuts them. */
	add(&x, 101, CLKSTAT_EV_TRACE, 0, "func:clkstat_tt");
	x.ev[x.n - 1].corr = 1;
	add(&x, 112, CLKSTAT_EV_TRACE, 0, "sec:a-b:cpu");
	x.ev[x.n - 1].corr = 2;
	add(&x, 121, CLKSTAT_EV_TRACE, 0, "func:clkstat_tt");
	x.ev[x.n - 1].corr = 1;
	assert_int_equal(cr_xc_sel_parse("trace", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 3);
	assert_int_equal(cr_xc_sel_parse("trace:2", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 1);
	assert_true(c[0] == 0 && c[1] == 1 && c[2] == 0);
	assert_int_equal(cr_xc_sel_parse("trace:func:clkstat_tt_delay", &sel, err, sizeof(err)), 0);
	assert_int_equal(cr_xc_bin(&x, &sel, 100, 10, 4, c), 2);
	assert_true(c[0] == 1 && c[1] == 0 && c[2] == 1);
	cr_events_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shifted),
		cmocka_unit_test(test_independent),
		cmocka_unit_test(test_r_by_hand),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_runs_pooled),
		cmocka_unit_test(test_select_bin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
