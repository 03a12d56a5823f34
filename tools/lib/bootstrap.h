/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootstrap.h - the bootstrap of clkstat-report --compare: two strata (a base
 * variant and the variant compared with it), each a set of runs, each run
 * a histogram; statistics of the pooled histograms with percentile
 * bootstrap intervals, and their differences.  Pure functions: no I/O,
 * nothing global, so that tests can feed them made-up histograms.  What
 * is computed, and how: Documentation/clkstat-compare.rst, "The bootstrap".
 */
#ifndef CLKSTAT_LIB_BOOTSTRAP_H
#define CLKSTAT_LIB_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "model.h"

struct clkstat_slot;

#define CR_BOOT_P_METHOD	"bootstrap, inverted percentile interval"

/*
 * One stratum: its runs' histograms (e.g. each run's metric total) and,
 * for the host unit, each run's host: a number naming the machine, the
 * same number in both strata for the same machine (NULL: not known; the
 * host unit then refuses the stratum).
 */
struct cr_boot_stratum_in {
	unsigned int frac_bits;		/* of every histogram of both strata */
	size_t nruns;			/* at least 1 */
	const struct cr_hist *const *runs;
	const unsigned int *host;	/* [nruns] or NULL */
};

struct cr_boot_params {
	unsigned int resamples;		/* B, at least 1 */
	double level;			/* in (0, 1) */
	unsigned long seed;		/* gsl_rng_mt19937 */
	int unit_sample;		/* 0: resample runs; 1: samples */
	int unit_host;			/* 1: hosts, then runs within each
					 * (unit_sample 0) */
	int host_fixed;			/* with unit_host: every host kept,
					 * only its runs resampled */
	int have_threshold;		/* 0: the base's p90 */
	uint64_t threshold;		/* ns */
};

/* A statistic, its interval; NAN wherever undefined. */
struct cr_boot_ci {
	double value;		/* on the full data */
	double lo, hi;		/* percentile interval; NAN: not available */
	uint64_t resolution;	/* percentiles: width of the slot of value */
	unsigned int undefined;	/* resamples where it was undefined */
};

enum {
	CR_BOOT_MEDIAN,
	CR_BOOT_P90,
	CR_BOOT_P99,
	CR_BOOT_MEAN,
	CR_BOOT_SD,
	CR_BOOT_IQR,
	CR_BOOT_RISK,		/* share of samples above the threshold */
	CR_BOOT_NSTATS
};

enum {
	CR_BOOT_D_MEDIAN,	/* variant minus base */
	CR_BOOT_D_P90,
	CR_BOOT_D_P99,
	CR_BOOT_D_SD,
	CR_BOOT_D_IQR,
	CR_BOOT_D_RD,		/* risk difference */
	CR_BOOT_D_RR,		/* risk ratio, interval on the log scale */
	CR_BOOT_NDIFFS
};

/* Warnings of a stratum (bits). */
#define CR_BOOT_W_ONE_RUN	0x1	/* unit run, 1 run (with samples) */
#define CR_BOOT_W_FEW_RUNS	0x2	/* unit run, 2 to 9 runs, samples */
#define CR_BOOT_W_EMPTY		0x4	/* no sample at all */
#define CR_BOOT_W_UNDEFINED	0x8	/* some resamples had no sample */
#define CR_BOOT_W_ONE_HOST	0x10	/* unit host, 1 host (with samples) */
#define CR_BOOT_W_FEW_HOSTS	0x20	/* unit host, 2 to 9 hosts, samples */
#define CR_BOOT_W_OWN_HOSTS	0x40	/* unit host, partly paired: hosts
					 * the other stratum has no run on */
#define CR_BOOT_W_FIXED_ONE_RUN	0x80	/* host-fixed, every host 1 run */
#define CR_BOOT_W_FIXED_FEW_RUNS 0x100	/* host-fixed, a host of fewer
					 * than 10 runs (not all of 1) */
#define CR_BOOT_FEW_RUNS	10
#define CR_BOOT_FEW_HOSTS	10

struct cr_boot_stratum_out {
	size_t nruns;
	size_t nhosts;		/* distinct hosts of its runs; 0: not known */
	int single_run_hosts;	/* every host has one run */
	size_t own_hosts;	/* unit host: hosts the other stratum has no
				 * run on */
	size_t fewest_host_runs;	/* runs of its host of fewest; 0:
					 * hosts not known */
	double distinct;	/* host-fixed: distinct resamples, the
				 * product over hosts of C(2n - 1, n) (no
				 * longer counted once past 1e18) */
	uint64_t nsamples;
	struct cr_boot_ci stat[CR_BOOT_NSTATS];
	uint64_t min, max;	/* of the pooled data; 0 when empty */
	double mad;		/* ns, cr_boot_mad(); NAN when empty */
	double out_2sigma;	/* share beyond mean +- 2 sd; NAN when empty */
	double out_3mad;	/* share above median + 3 MAD; NAN when empty */
	unsigned int warnings;	/* CR_BOOT_W_* */
	unsigned int undefined;	/* resamples without a sample */
};

struct cr_boot_result {
	int unit_sample;
	int unit_host;
	int host_fixed;
	int paired;		/* unit host, both strata on the same hosts:
				 * one draw of hosts for both (bootstrap.c) */
	size_t shared_hosts;	/* unit host: hosts both strata have, drawn
				 * once for both (all of them: paired) */
	unsigned int resamples;
	int threshold_defined;	/* 0: no --threshold and no base sample */
	int threshold_given;	/* --threshold, else the base's p90 */
	uint64_t threshold;
	struct cr_boot_stratum_out s[2];	/* [0] base, [1] variant */
	struct cr_boot_ci diff[CR_BOOT_NDIFFS];
	double p_median;	/* two-sided p of the median's difference */
	int p_floor;		/* no resample crossed 0: p < 1/B (p_median
				 * then holds 1/B) */
};

/*
 * Compare variant with base.  Return 0; -EINVAL for nonsense (no
 * resamples, a level outside (0, 1), no run, strata of different
 * frac_bits, unit host without hosts or with unit sample, host_fixed
 * without unit host); -EOVERFLOW
 * when the counts are too large to pool without overflow (bootstrap.c);
 * -ENOMEM.
 */
int cr_boot_compare(const struct cr_boot_stratum_in *base,
		    const struct cr_boot_stratum_in *variant,
		    const struct cr_boot_params *p, struct cr_boot_result *out);

/*
 * A histogram as the engine holds it: n entries, the slot indices (strictly
 * ascending) and each one's count and scaled sum (entries may be empty),
 * the total count and the samples' min and max (min > max: not recorded,
 * the bounds of the first and last non-empty slots then).
 */
struct cr_boot_hist {
	unsigned int frac_bits;
	unsigned int n;
	const uint32_t *slot;
	const struct clkstat_slot *s;
	uint64_t total, min, max;
};

/*
 * The histogram's samples at most v, the c samples of a slot taken as
 * spread evenly over its integer values (bootstrap.c): a real number.
 */
double cr_boot_cdf(const struct cr_boot_hist *h, uint64_t v);
/* The share of samples above t (NAN for an empty histogram). */
double cr_boot_share_above(const struct cr_boot_hist *h, uint64_t t);
/* The median absolute deviation from median, in ns (bootstrap.c; 0: empty). */
uint64_t cr_boot_mad(const struct cr_boot_hist *h, uint64_t median);
/* The share of samples below lo or above hi (reals, ns; NAN: empty). */
double cr_boot_share_outside(const struct cr_boot_hist *h, double lo,
			     double hi);

/*
 * How many distinct resamples n units give: multisets of n draws from n,
 * C(2n - 1, n) (3, 10, 35, 126, 462 for n = 2 to 6), stopped once past
 * about 1e18 (bootstrap.c).
 */
double cr_boot_multisets(size_t n);

/*
 * A Binomial(n, p) draw for any 64-bit n: gsl_ran_binomial() for n up to
 * UINT_MAX, above it an exact recursion on Beta order statistics (bootstrap.c).
 */
uint64_t cr_boot_binomial(const gsl_rng *rng, double p, uint64_t n);

#endif
