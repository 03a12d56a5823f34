/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xcorr_runs.h - the cross-correlation of a recording's runs: the runs
 * selected (--run, --variant) binned into two series each (selectors A
 * and B) and r(k) with its bootstrap computed (xcorr.h), in one path for
 * the commands that show it: xcorr prints it, plot --kind xcorr draws it.
 */
#ifndef CLKSTAT_LIB_XCORR_RUNS_H
#define CLKSTAT_LIB_XCORR_RUNS_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"
#include "xcorr.h"

/* One run taken: its window and its two binned series. */
struct cr_xc_run {
	const struct cr_run *run;
	uint64_t t0, t1;
	int markers;		/* window from run_start/run_end */
	uint64_t na, nb;
	double *a, *b;
};

/* Which runs, how binned, and who says what went wrong. */
struct cr_xc_take {
	const char *who;		/* "xcorr", "plot": errors' prefix */
	long run;			/* --run, -1: every run */
	const char *variant;		/* --variant, NULL: every variant */
	const struct cr_xc_sel *a, *b;
	uint64_t bin;			/* ns */
	/*
	 * One line naming the selected runs recorded without events; NULL:
	 * not said (plot says how many on the figure, and its errors are
	 * one line).
	 */
	void (*say_no_events)(const struct cr_snapshot *s,
			      const struct cr_run *const *runs, size_t n);
};

struct cr_xc_runs {
	size_t n;
	struct cr_xc_run *v;		/* [n], in the input's order */
	size_t no_events;		/* selected runs recorded without */
	struct cr_xc_result res;
};

/*
 * Bin the runs t selects (each run's events loaded for its binning and
 * dropped after it, so that a study's runs are held one at a time) and
 * compute r(k) with p.  Return CR_OK, or a status (status.h) with one
 * line on stderr; out is freed by cr_xc_runs_free() in every case.
 */
int cr_xc_runs_compute(struct cr_snapshot *s, const struct cr_xc_take *t,
		       const struct cr_xc_params *p, struct cr_xc_runs *out);
void cr_xc_runs_free(struct cr_xc_runs *x);

#endif
