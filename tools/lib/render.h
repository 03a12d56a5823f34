/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - clkstat-report's outputs of one run (live, one run of a
 * snapshot, or a snapshot's runs pooled): the table with bpftrace-style
 * histograms, CSV, JSON and OpenMetrics, and the raw slot listing.
 */
#ifndef CLKSTAT_REPORT_RENDER_H
#define CLKSTAT_REPORT_RENDER_H

#include <stdio.h>
#include "model.h"

/*
 * --time-unit: the unit of the numbers of the text and CSV outputs.  AUTO, the
 * default, is the text's human units (each value in the largest of ns,
 * us, ms, s that keeps it at least 1) and CSV's ns.
 */
enum cr_unit { CR_UNIT_AUTO, CR_UNIT_NS, CR_UNIT_US, CR_UNIT_MS };

struct cr_render_opts {
	int per_cpu;		/* each CPU too, not only the all-CPU sum */
	int no_hist;		/* text: the summary lines only */
	const char *metric;	/* only metrics whose name (or name.variant)
				 * is this; NULL: all */
	const char *source;	/* "netlink" or the snapshot's file name */
	unsigned int nruns;	/* runs pooled into this run */
	enum cr_unit unit;	/* --time-unit: text and CSV (JSON: always ns) */
};

/* Each returns CR_OK, or CR_ERR (out of memory, write error). */
int cr_render_text(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o);
int cr_render_csv(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o);
int cr_render_json(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o);
int cr_render_openmetrics(FILE *out, const struct cr_run *r,
			  const struct cr_render_opts *o);
int cr_render_raw(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o);

#endif
