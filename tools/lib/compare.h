/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - clkstat-report --compare VARIANT: per metric, the statistics
 * of two variants' runs with bootstrap intervals, and their differences
 * (compare.c; the engine is bootstrap.c, the outputs compare_render.c).
 */
#ifndef CLKSTAT_REPORT_COMPARE_H
#define CLKSTAT_REPORT_COMPARE_H

#include <stdint.h>
#include <stdio.h>
#include "compare_render.h"
#include "model.h"

struct cr_compare_opts {
	const char *variant;	/* --compare FACTOR: VARIANT, variant:V,
				 * tag:K=V, meta:FIELD=V, migrated, local */
	const char *base;	/* --base FACTOR, NULL: the one other value */
	const char *metric;	/* --metric NAME: only this metric; NULL: every metric both variants have */
	double level;		/* --level, default 0.95, in (0, 1) */
	unsigned int resamples;	/* --resamples, default 10000 */
	unsigned long seed;	/* --seed, default 1: same seed, same output, bit for bit */
	int unit_sample;	/* --unit sample: naive per-sample bootstrap; default run */
	int unit_host;		/* --unit host: hosts, then runs within each */
	int host_fixed;		/* --unit host-fixed (with unit_host): every host
				 * kept, its runs resampled within it */
	int have_threshold;	/* --threshold NS given */
	uint64_t threshold;	/* ns */
	const char *format;	/* "text", "json", "csv" */
	int summary_only;	/* --summary: text, the summary table alone */
};
/* Return: an exit status (status.h); errors one line on stderr. */
int cr_compare(FILE *out, const struct cr_snapshot *s, const struct cr_compare_opts *o);

/* One side of a compared metric: its runs, in the order of the input. */
struct cr_compare_side {
	size_t n;
	const struct cr_hist **hists;	/* each run's all-CPU histogram */
	const struct cr_run **runs;	/* the runs (in the snapshot) */
	unsigned int *hosts;		/* each run's host number */
};

/*
 * What cr_compare() prints and what it was computed from, for the
 * pictures (plot): the result, and per metric both sides' runs ([0] the
 * base).  The histograms and runs point into the snapshot.
 */
struct cr_compare_data {
	struct cr_compare_result res;
	struct cr_compare_side (*side)[2];	/* [res.nmetrics] */
	char base_label[CR_TAG_KEY_MAX + 80];
	char variant_label[CR_TAG_KEY_MAX + 80];
};

/*
 * The comparison of o on s into *d, as cr_compare() computes it, nothing
 * written: CR_OK (free *d with cr_compare_data_free()), or a status with
 * one line on stderr and *d empty.
 */
int cr_compare_collect(const struct cr_snapshot *s,
		       const struct cr_compare_opts *o,
		       struct cr_compare_data *d);
void cr_compare_data_free(struct cr_compare_data *d);

/*
 * The host run r is from, as --unit host takes it: the run's tag host,
 * its file's tag host, its file's meta.host, else its input file.
 */
const char *cr_compare_run_host(const struct cr_snapshot *s,
				const struct cr_run *r);

#endif
