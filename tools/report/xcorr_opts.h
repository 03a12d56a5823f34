/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcorr_opts.h - the options of a cross-correlation (--bin, --max-lag,
 * --block, -B, --seed, --variant) and its two selectors A and B, parsed
 * and checked in one place for the commands that take them: xcorr, and
 * plot --kind xcorr (whose --seed is --compare's: the same number).
 */
#ifndef CLKSTAT_REPORT_XCORR_OPTS_H
#define CLKSTAT_REPORT_XCORR_OPTS_H

#include <stdint.h>
#include "../lib/xcorr.h"
#include "../lib/xcorr_runs.h"
#include "cli.h"

struct cr_xcorr_settings {
	uint64_t bin, max_lag, block;	/* ns; max_lag, block 0: default */
	int bin_given;			/* --bin given (plot's heat map) */
	unsigned long resamples;
	unsigned long seed;
	const char *variant;		/* --variant, NULL: every run */
	struct cr_xc_sel a, b;
};

/* xcorr's: every option, --seed its own. */
extern const struct cr_optset cr_xcorr_opts;
/* plot's: the same without --seed (plot takes --compare's). */
extern const struct cr_optset cr_xcorr_plot_opts;

const struct cr_xcorr_settings *cr_xcorr_settings(void);

/*
 * Selectors a and b parsed, --max-lag's default set and the lags and
 * resamples checked: CR_OK, or CR_USAGE with one line ("clkstat-report:
 * WHO: ...").
 */
int cr_xcorr_sels(const char *who, const char *a, const char *b);

/* The parameters of cr_xc_compute() from the options, with seed. */
void cr_xcorr_params(struct cr_xc_params *p, unsigned long seed);

/* The runs to take: --run, --variant, the selectors, --bin, for who. */
void cr_xcorr_take(struct cr_xc_take *t, const char *who);

#endif
