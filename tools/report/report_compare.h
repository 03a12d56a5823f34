/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_compare.h - report's --compare: the bootstrap comparison of two
 * groups of runs of --input snapshots, its options and their checks.  The
 * engine is tools/lib/ (compare.c, bootstrap.c, compare_render.c).
 */
#ifndef CLKSTAT_REPORT_REPORT_COMPARE_H
#define CLKSTAT_REPORT_REPORT_COMPARE_H

#include "../lib/compare.h"
#include "../lib/snapshot.h"
#include "cli.h"

/* Which runs and how (report and plot); what report prints (--summary, --html). */
extern const struct cr_optset cr_compare_opts, cr_compare_text_opts;
/* run: --run, -1 without. */
int cr_compare_check(const struct cr_cli *cli, int ninputs, long run);
int cr_compare_wanted(void);
/* --compare's settings as given (plot draws what --compare computes). */
const struct cr_compare_opts *cr_compare_settings(void);
/* The metadata field --compare groups by ("tag:KEY", "meta:FIELD"), or NULL. */
const char *cr_compare_factor_field(void);
int cr_compare_run(const struct cr_cli *cli, struct cr_snapshot *s,
		   const char *metric);

#endif
