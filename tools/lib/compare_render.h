/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_render.h - what cr_compare() (compare.c) hands to its renderers
 * (compare_render.c): the settings and one bootstrap result per metric.
 */
#ifndef CLKSTAT_REPORT_COMPARE_RENDER_H
#define CLKSTAT_REPORT_COMPARE_RENDER_H

#include <stdio.h>
#include "bootstrap.h"
#include "model.h"

struct cr_compare_metric {
	char name[CR_NAME_MAX + CR_VARIANT_MAX + 1];	/* NAME, or NAME.VARIANT */
	unsigned int frac_bits;
	struct cr_boot_result r;
};

struct cr_compare_result {
	const char *base;		/* variant names */
	const char *variant;
	int unit_sample;
	int unit_host;
	int host_fixed;			/* with unit_host: --unit host-fixed */
	int groups;			/* not variants: tag, meta, migrated */
	unsigned int resamples;
	unsigned long seed;
	double level;
	int summary_only;		/* text: the summary table alone */
	size_t nmetrics;
	struct cr_compare_metric *metrics;
};

/* The warnings of a stratum as one line ("" when none) into buf. */
void cr_compare_warning(char *buf, size_t len,
			const struct cr_boot_stratum_out *s,
			unsigned int resamples);

/*
 * The p-value's warning ("" when none) into buf: unit run, and fewer
 * distinct resamples (C(2n-1, n) per stratum, multiplied) than B; unit
 * host with one run per host, the same with n hosts (the shared hosts
 * once); host-fixed, the product over every host of both strata.
 */
void cr_compare_p_warning(char *buf, size_t len,
			  const struct cr_boot_result *r,
			  unsigned int resamples);
/*
 * The summary's warnings of one metric, short and "; "-separated ("" when
 * none), into buf: the text's summary table and the figures say them.
 */
void cr_compare_summary_warnings(char *buf, size_t len,
				 const struct cr_compare_result *res,
				 const struct cr_boot_result *r);
/* The slot width Δ median is read at: the larger median's; 0: n/a. */
uint64_t cr_compare_d_resolution(const struct cr_boot_result *r);
/*
 * Is c narrower than res: its interval (hi - lo), or with diff its value
 * (|Δ|) too?  0 when res is 0 or c undefined.
 */
int cr_compare_below_res(const struct cr_boot_ci *c, uint64_t res, int diff);

/* Each returns CR_OK, or CR_ERR (out of memory, write error). */
int cr_compare_text(FILE *out, const struct cr_compare_result *r);
int cr_compare_json(FILE *out, const struct cr_compare_result *r);
int cr_compare_csv(FILE *out, const struct cr_compare_result *r);

#endif
