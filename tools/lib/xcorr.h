/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcorr.h - clkstat-report xcorr: the cross-correlation of two event
 * series of recorded runs, binned into counts, with a moving-block
 * bootstrap.  Pure functions (no I/O, nothing global) so that tests can
 * feed them series whose answer is known; what is computed is described
 * in Documentation/clkstat-compare.rst, "Cross-correlation", and in
 * xcorr.c.
 */
#ifndef CLKSTAT_LIB_XCORR_H
#define CLKSTAT_LIB_XCORR_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

/* An event selector: a type, optionally narrowed. */
enum cr_xc_filter {
	CR_XC_ANY,
	CR_XC_MIGRATED,		/* enqueue, first_tkread: migrated */
	CR_XC_LOCAL,		/* enqueue, first_tkread: local */
	CR_XC_TEXT,		/* clocksource_*: that clocksource; marker: text;
				 * trace: a spec's first bytes, as events hold it */
	CR_XC_CORR,		/* trace: the user-defined probe numbered corr */
};

struct cr_xc_sel {
	int type;			/* CLKSTAT_EV_* */
	enum cr_xc_filter filter;
	char text[CLKSTAT_EVENT_TEXT];	/* CR_XC_TEXT */
	uint64_t corr;			/* CR_XC_CORR */
};

/*
 * "TYPE[:FILTER]" (first_tkread, enqueue:migrated, enqueue:local,
 * clocksource_read:hpet, marker:phase-1, trace:3, trace:func:F) into *sel.
 * A trace's filter is its number (the events' corr, as trace list shows
 * it) or its spec, which matches the events whose text is the canonical
 * spec's first CLKSTAT_EVENT_TEXT - 1 bytes (two specs alike that far
 * match each other's: the number tells them apart).  Return 0, or -1 with
 * one line (no newline) in err.
 */
int cr_xc_sel_parse(const char *s, struct cr_xc_sel *sel, char *err,
		    size_t errlen);
int cr_xc_sel_match(const struct cr_xc_sel *sel,
		    const struct clkstat_event_rec *e);

/*
 * A duration: digits with a unit ns, us, ms or s, or bare digits (ns),
 * into *ns (at least 1).  Return 0 or -1.
 */
int cr_xc_parse_dur(const char *s, uint64_t *ns);

/*
 * A run's window [*t0, *t1] (ns): from its first marker "run_start" to
 * its last marker "run_end" when it has both in that order (record's run
 * boundaries), else from its first event to its last.  Return 1 (from
 * the markers), 0 (from the events) or -1 (no events).
 */
int cr_xc_window(const struct cr_events *x, uint64_t *t0, uint64_t *t1);

/* The bins of width bin over [t0, t1]: (t1 - t0) / bin + 1. */
size_t cr_xc_nbins(uint64_t t0, uint64_t t1, uint64_t bin);

/*
 * Count the events of x that sel matches into counts[nbins] (zeroed
 * here), bin (ts - t0) / bin; those outside [t0, t0 + nbins * bin) are
 * not counted.  Return the events counted.
 */
uint64_t cr_xc_bin(const struct cr_events *x, const struct cr_xc_sel *sel,
		   uint64_t t0, uint64_t bin, size_t nbins, double *counts);

/*
 * r[k + K] = the Pearson correlation of the pairs (a[t], b[t + k]) over
 * the t where both exist, for k = -K..K; NAN where fewer than 2 pairs or
 * either side constant.
 */
void cr_xc_r(const double *a, const double *b, size_t n, unsigned int K,
	     double *r);

/* One run's binned series. */
struct cr_xc_series {
	const double *a, *b;
	size_t n;
};

struct cr_xc_params {
	unsigned int K;			/* lags -K..K bins */
	size_t block;			/* bins; 0: each run's default */
	unsigned int resamples;		/* B, at least 1 */
	unsigned long seed;		/* gsl_rng_mt19937 */
	double level;			/* in (0, 1) */
};

struct cr_xc_result {
	unsigned int K;
	double *r;		/* [2K + 1]: mean of the runs' r(k) */
	double *lo, *hi;	/* [2K + 1]: percentile intervals */
	size_t *block;		/* [nruns]: block length used, bins */
	int have_peak;		/* some r(k) is defined */
	int peak;		/* lag of the largest |r|, bins */
	double r_lo, r_hi;	/* interval of r at that lag */
	double lag_lo, lag_hi;	/* interval of the resamples' peak lags */
	unsigned int undefined;	/* resamples without a defined r(peak) */
};

/* A run's default block length: max(ceil(n^(1/3)), K + 1), at most n. */
size_t cr_xc_default_block(size_t n, unsigned int K);

/*
 * The pooled r(k) of nruns runs, its peak and the moving-block bootstrap
 * intervals.  Return 0, -EINVAL (no run, or a run without bins) or
 * -ENOMEM; out is freed by cr_xc_result_free() in every case.
 */
int cr_xc_compute(const struct cr_xc_series *runs, size_t nruns,
		  const struct cr_xc_params *p, struct cr_xc_result *out);
void cr_xc_result_free(struct cr_xc_result *out);

#endif
