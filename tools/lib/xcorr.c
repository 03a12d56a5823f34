// SPDX-License-Identifier: GPL-2.0
/*
 * xcorr.c - the cross-correlation of two event series (xcorr.h): the
 * selectors and durations of the command line, each run's window and
 * bins, r(k), its peak, and the moving-block bootstrap.
 *
 * Binning: per run, the events a selector matches are counted in bins
 * of width bin over the run's window (record's run_start..run_end
 * markers, else its first to last event); a bin without events counts
 * 0, so A and B are two series of n counts on the same time grid.
 * Several runs: r(k) is the mean of the runs' r(k) where defined (each
 * run one vote, whatever its length).  The peak: the lag of the largest
 * |r(k)|; on a tie the smaller |k|, then the negative one.
 *
 * What is computed and under which assumptions:
 * Documentation/clkstat-compare.rst, "Cross-correlation"; the formulas as
 * computed here are at cr_xc_r_idx() and cr_xc_compute().
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "../../kmod/shared/clkstat_trace.h"
#include "xcorr.h"

/* trace's filter f (of selector s): a number, or a spec. */
static int cr_xc_trace_sel(const char *s, const char *f, struct cr_xc_sel *sel,
			   char *err, size_t errlen)
{
	static const char *const texts[] = CLKSTAT_TRACE_ERROR_TEXTS_INIT;
	struct clkstat_trace_spec t;
	const char *p;
	int e;

	for (p = f; *p >= '0' && *p <= '9'; p++)
		;
	if (*f && !*p) {
		/* A function's name never starts with a digit. */
		sel->corr = 0;
		for (p = f; *p; p++) {
			sel->corr = sel->corr * 10 + (uint64_t)(*p - '0');
			if (sel->corr > UINT32_MAX)
				break;
		}
		if (!sel->corr || *p) {
			snprintf(err, errlen, "'%s': a user-defined probe's number is 1 to %u",
				 s, UINT32_MAX);
			return -1;
		}
		sel->filter = CR_XC_CORR;
		return 0;
	}
	e = clkstat_trace_parse(f, &t);
	if (e) {
		snprintf(err, errlen, "'%s': trace takes a probe's number or spec: %s",
			 s, e > 0 && e < CLKSTAT_TRACE_NERRORS ? texts[e] :
			 "invalid");
		return -1;
	}
	sel->filter = CR_XC_TEXT;
	snprintf(sel->text, sizeof(sel->text), "%.*s",
		 (int)sizeof(sel->text) - 1, t.name);
	return 0;
}

int cr_xc_sel_parse(const char *s, struct cr_xc_sel *sel, char *err,
		    size_t errlen)
{
	const char *colon = strchr(s, ':'), *f;
	char name[64];
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	memset(sel, 0, sizeof(*sel));
	sel->type = -1;
	if (len < sizeof(name)) {
		memcpy(name, s, len);
		name[len] = '\0';
		sel->type = cr_event_type_parse(name);
	}
	if (sel->type < 0) {
		int n = snprintf(err, errlen, "'%s': not an event type (", s), t;

		for (t = 0; t < CLKSTAT_EV_NTYPES && n >= 0 &&
		     (size_t)n < errlen; t++)
			n += snprintf(err + n, errlen - n, "%s%s", t ? ", " : "",
				      cr_event_type_name(t));
		if (n >= 0 && (size_t)n < errlen)
			snprintf(err + n, errlen - n, ")");
		return -1;
	}
	if (!colon)
		return 0;
	f = colon + 1;
	switch (sel->type) {
	case CLKSTAT_EV_ENQUEUE:
	case CLKSTAT_EV_FIRST_TKREAD:
		if (!strcmp(f, "migrated")) {
			sel->filter = CR_XC_MIGRATED;
			return 0;
		}
		if (!strcmp(f, "local")) {
			sel->filter = CR_XC_LOCAL;
			return 0;
		}
		snprintf(err, errlen, "'%s': %s takes :migrated or :local", s,
			 name);
		return -1;
	case CLKSTAT_EV_WAKEUP:
		snprintf(err, errlen, "'%s': wakeup takes no filter", s);
		return -1;
	case CLKSTAT_EV_TRACE:
		return cr_xc_trace_sel(s, f, sel, err, errlen);
	default:
		if (!*f || strlen(f) >= CLKSTAT_EVENT_TEXT) {
			snprintf(err, errlen, "'%s': the %s after ':' must be 1 to %d bytes",
				 s, sel->type == CLKSTAT_EV_MARKER ?
				 "marker text" : "clocksource",
				 CLKSTAT_EVENT_TEXT - 1);
			return -1;
		}
		sel->filter = CR_XC_TEXT;
		snprintf(sel->text, sizeof(sel->text), "%s", f);
		return 0;
	}
}

int cr_xc_sel_match(const struct cr_xc_sel *sel,
		    const struct clkstat_event_rec *e)
{
	unsigned int mig = e->flags & (CLKSTAT_EVF_MIGRATED | CLKSTAT_EVF_LOCAL);

	if (e->type != sel->type)
		return 0;
	switch (sel->filter) {
	case CR_XC_MIGRATED:
		return mig == CLKSTAT_EVF_MIGRATED;
	case CR_XC_LOCAL:
		return mig == CLKSTAT_EVF_LOCAL;
	case CR_XC_TEXT:
		return !strncmp(e->text, sel->text, CLKSTAT_EVENT_TEXT);
	case CR_XC_CORR:
		return e->corr == sel->corr;
	default:
		return 1;
	}
}

int cr_xc_parse_dur(const char *s, uint64_t *ns)
{
	static const struct { const char *u; uint64_t mul; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	uint64_t v = 0;
	size_t i;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s, units[i].u))
			continue;
		if (!v || v > UINT64_MAX / units[i].mul)
			return -1;
		*ns = v * units[i].mul;
		return 0;
	}
	return -1;
}

int cr_xc_window(const struct cr_events *x, uint64_t *t0, uint64_t *t1)
{
	int have0 = 0, have1 = 0;
	size_t i;

	if (!x->n)
		return -1;
	for (i = 0; i < x->n; i++) {
		if (x->ev[i].type != CLKSTAT_EV_MARKER)
			continue;
		if (!have0 && !strcmp(x->ev[i].text, "run_start")) {
			*t0 = x->ev[i].ts;
			have0 = 1;
		} else if (have0 && !strcmp(x->ev[i].text, "run_end")) {
			*t1 = x->ev[i].ts;
			have1 = 1;
		}
	}
	if (have0 && have1)
		return 1;
	*t0 = x->ev[0].ts;
	*t1 = x->ev[x->n - 1].ts;
	return 0;
}

size_t cr_xc_nbins(uint64_t t0, uint64_t t1, uint64_t bin)
{
	return (size_t)((t1 - t0) / bin) + 1;
}

uint64_t cr_xc_bin(const struct cr_events *x, const struct cr_xc_sel *sel,
		   uint64_t t0, uint64_t bin, size_t nbins, double *counts)
{
	uint64_t n = 0, k;
	size_t i;

	memset(counts, 0, nbins * sizeof(*counts));
	for (i = 0; i < x->n; i++) {
		if (!cr_xc_sel_match(sel, &x->ev[i]) || x->ev[i].ts < t0)
			continue;
		k = (x->ev[i].ts - t0) / bin;
		if (k >= nbins)
			continue;
		counts[k]++;
		n++;
	}
	return n;
}

/* Pearson's r from the sums of m pairs; NAN when undefined. */
static double cr_xc_pearson(double m, double sa, double sb, double saa,
			    double sbb, double sab)
{
	double va = m * saa - sa * sa, vb = m * sbb - sb * sb;

	if (m < 2 || va <= 0 || vb <= 0)
		return NAN;
	return (m * sab - sa * sb) / sqrt(va * vb);
}

/*
 * r(k) over the time indices idx[0..m) of a run (NULL: 0..n-1), for
 * every lag.  r(k) = corr(A_t, B_{t+k}): Pearson's correlation of the
 * pairs that overlap at lag k (t = 0..n-1-k for k >= 0, t = -k..n-1 for
 * k < 0), each side with the mean and spread of its own n - |k| values
 * (as numpy.corrcoef(a[:n-k], b[k:]) does), not the biased estimator that
 * divides every lag by n and uses the means of the whole series.  k > 0:
 * B follows A.  From sums of the counts, whole numbers that are exact in
 * double up to 2^53.  Undefined (NAN) with fewer than 2 pairs or a side
 * that does not vary.
 */
static void cr_xc_r_idx(const double *a, const double *b, size_t n,
			const size_t *idx, size_t m, unsigned int K, double *r)
{
	long k, t, nl = (long)n;
	double sa, sb, saa, sbb, sab, c, x, y;
	size_t i;

	for (k = -(long)K; k <= (long)K; k++) {
		sa = sb = saa = sbb = sab = c = 0;
		for (i = 0; i < m; i++) {
			t = idx ? (long)idx[i] : (long)i;
			if (t + k < 0 || t + k >= nl)
				continue;
			x = a[t];
			y = b[t + k];
			c++;
			sa += x;
			sb += y;
			saa += x * x;
			sbb += y * y;
			sab += x * y;
		}
		r[k + K] = cr_xc_pearson(c, sa, sb, saa, sbb, sab);
	}
}

void cr_xc_r(const double *a, const double *b, size_t n, unsigned int K,
	     double *r)
{
	cr_xc_r_idx(a, b, n, NULL, n, K, r);
}

/* The peak's index in r[2K + 1], or -1 when none is defined. */
static long cr_xc_peak(const double *r, unsigned int K)
{
	long best = -1, k, i;
	double v;

	/* Lags in the order of preference on a tie: 0, -1, 1, -2, 2, ... */
	for (i = 0; i <= 2 * (long)K; i++) {
		k = i % 2 ? -(i + 1) / 2 : i / 2;
		v = r[k + K];
		if (isnan(v))
			continue;
		if (best < 0 || fabs(v) > fabs(r[best]))
			best = k + K;
	}
	return best;
}

size_t cr_xc_default_block(size_t n, unsigned int K)
{
	size_t l = (size_t)ceil(cbrt((double)n));

	if (l < (size_t)K + 1)
		l = (size_t)K + 1;
	return l > n ? n : l;
}

void cr_xc_result_free(struct cr_xc_result *out)
{
	free(out->r);
	free(out->lo);
	free(out->hi);
	free(out->block);
	memset(out, 0, sizeof(*out));
}

/* Mean of the defined values of sums[] (cnt[] of them); NAN if none. */
static void cr_xc_pool(double *dst, const double *sum, const unsigned int *cnt,
		       size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++)
		dst[i] = cnt[i] ? sum[i] / cnt[i] : NAN;
}

static void cr_xc_accumulate(const double *r, double *sum, unsigned int *cnt,
			     size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		if (isnan(r[i]))
			continue;
		sum[i] += r[i];
		cnt[i]++;
	}
}

/* The (1-level)/2 and (1+level)/2 quantiles of v[0..m) (sorted here). */
static void cr_xc_interval(double *v, size_t m, double level, double *lo,
			   double *hi)
{
	if (!m) {
		*lo = *hi = NAN;
		return;
	}
	gsl_sort(v, 1, m);
	*lo = gsl_stats_quantile_from_sorted_data(v, 1, m, (1 - level) / 2);
	*hi = gsl_stats_quantile_from_sorted_data(v, 1, m, (1 + level) / 2);
}

/*
 * Moving-block bootstrap: a resample draws, for each run (or, with several
 * runs, for each of nruns runs drawn with replacement), ceil(n/L) block
 * starts uniformly in 0..n-L (gsl_rng_uniform_int on one gsl_rng_mt19937
 * seeded with the seed), and takes the time indices of those blocks, L
 * consecutive each, cut to n.  Each index t carries its pairs (A_t,
 * B_{t+k}) for every lag at once (the pair dropped where t+k falls outside
 * the run), so a block keeps the dependence inside it at every lag and no
 * pair straddles two blocks.  r*(k) is computed on the resampled pairs as
 * r(k) is, pooled over the drawn runs the same way.  The intervals: the
 * (1 - level)/2 and (1 + level)/2 quantiles of the resamples' r*(k) where
 * defined (gsl_stats_quantile_from_sorted_data: linear interpolation), per
 * lag; for the peak, r*(peak) at the lag of the data's peak, and the
 * resamples' own peak lags (widened to whole lags: floor and ceiling).
 */
int cr_xc_compute(const struct cr_xc_series *runs, size_t nruns,
		  const struct cr_xc_params *p, struct cr_xc_result *out)
{
	size_t nl = 2 * (size_t)p->K + 1, j, i, m, maxn = 0, nb, rj;
	double *rr = NULL, *sum = NULL, *boot = NULL, *col = NULL, *lags = NULL;
	unsigned int *cnt = NULL, b;
	size_t *idx = NULL, start;
	gsl_rng *rng = NULL;
	long pk, bpk;
	int st = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->K = p->K;
	if (!nruns || !p->resamples)
		return -EINVAL;
	for (j = 0; j < nruns; j++) {
		if (!runs[j].n)
			return -EINVAL;
		if (runs[j].n > maxn)
			maxn = runs[j].n;
	}
	out->r = calloc(nl, sizeof(double));
	out->lo = calloc(nl, sizeof(double));
	out->hi = calloc(nl, sizeof(double));
	out->block = calloc(nruns, sizeof(size_t));
	rr = calloc(nl, sizeof(double));
	sum = calloc(nl, sizeof(double));
	cnt = calloc(nl, sizeof(unsigned int));
	boot = calloc(nl * (size_t)p->resamples, sizeof(double));
	col = calloc(p->resamples, sizeof(double));
	lags = calloc(p->resamples, sizeof(double));
	idx = calloc(maxn, sizeof(size_t));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!out->r || !out->lo || !out->hi || !out->block || !rr || !sum ||
	    !cnt || !boot || !col || !lags || !idx || !rng)
		goto out;
	gsl_rng_set(rng, p->seed);

	/* The data. */
	for (j = 0; j < nruns; j++) {
		out->block[j] = p->block ? (p->block > runs[j].n ? runs[j].n :
					    p->block) :
				cr_xc_default_block(runs[j].n, p->K);
		cr_xc_r(runs[j].a, runs[j].b, runs[j].n, p->K, rr);
		cr_xc_accumulate(rr, sum, cnt, nl);
	}
	cr_xc_pool(out->r, sum, cnt, nl);
	pk = cr_xc_peak(out->r, p->K);
	out->have_peak = pk >= 0;
	out->peak = (int)(pk - (long)p->K);

	/* The resamples. */
	for (b = 0; b < p->resamples; b++) {
		memset(sum, 0, nl * sizeof(double));
		memset(cnt, 0, nl * sizeof(unsigned int));
		for (j = 0; j < nruns; j++) {
			rj = nruns > 1 ? gsl_rng_uniform_int(rng, nruns) : 0;
			nb = runs[rj].n - out->block[rj] + 1;
			for (m = 0; m < runs[rj].n;) {
				start = gsl_rng_uniform_int(rng, nb);
				for (i = 0; i < out->block[rj] && m < runs[rj].n;
				     i++)
					idx[m++] = start + i;
			}
			cr_xc_r_idx(runs[rj].a, runs[rj].b, runs[rj].n, idx, m,
				    p->K, rr);
			cr_xc_accumulate(rr, sum, cnt, nl);
		}
		cr_xc_pool(boot + (size_t)b * nl, sum, cnt, nl);
		bpk = cr_xc_peak(boot + (size_t)b * nl, p->K);
		lags[b] = bpk < 0 ? NAN : (double)(bpk - (long)p->K);
	}

	/* The intervals. */
	for (i = 0; i < nl; i++) {
		for (m = 0, b = 0; b < p->resamples; b++)
			if (!isnan(boot[(size_t)b * nl + i]))
				col[m++] = boot[(size_t)b * nl + i];
		if (out->have_peak && (long)i == pk)
			out->undefined = p->resamples - (unsigned int)m;
		cr_xc_interval(col, m, p->level, &out->lo[i], &out->hi[i]);
		if (out->have_peak && (long)i == pk) {
			out->r_lo = out->lo[i];
			out->r_hi = out->hi[i];
		}
	}
	for (m = 0, b = 0; b < p->resamples; b++)
		if (!isnan(lags[b]))
			col[m++] = lags[b];
	cr_xc_interval(col, m, p->level, &out->lag_lo, &out->lag_hi);
	/* Whole lags, the interval widened to them. */
	out->lag_lo = floor(out->lag_lo);
	out->lag_hi = ceil(out->lag_hi);
	if (!out->have_peak)
		out->r_lo = out->r_hi = NAN;
	st = 0;
out:
	free(rr);
	free(sum);
	free(cnt);
	free(boot);
	free(col);
	free(lags);
	free(idx);
	gsl_rng_free(rng);
	return st;
}
