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

#endif
