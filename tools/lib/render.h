/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - clkstat-report's outputs of one run (live, one run of a
 * snapshot, or a snapshot's runs pooled): the table with bpftrace-style
 * histograms, CSV, JSON and OpenMetrics, and the raw slot listing.
 */
#ifndef CLKSTAT_REPORT_RENDER_H
#define CLKSTAT_REPORT_RENDER_H

#include <stdint.h>
#include <stdio.h>
#include "model.h"

struct cr_grid;

/*
 * What an exposition said last of the metrics it left out
 * (cr_render_opts.unfit_said).
 */
struct cr_om_said {
	const char *who;	/* each line's start: "clkstat-report: serve" */
	uint64_t unfit;		/* that set, hashed; 0: none */
};

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
	/* The expositions (render_openmetrics.c): */
	int prometheus_text;	/* Prometheus text 0.0.4, not OpenMetrics */
	const struct cr_grid *grid;	/* the le bounds; NULL: the default */
	/* Label values of every series; NULL: the label is left out. */
	const char *host, *kernel, *clocksource;
	/*
	 * per_cpu: CPUs 0 to nr_cpus - 1, empty ones too, and more up to the
	 * highest with samples (so that the per-CPU family adds up to the
	 * all-CPU one); 0: those with samples
	 */
	unsigned int nr_cpus;
	/*
	 * serve: the metrics left out of the histograms (fewer frac_bits
	 * than the grid's) said on stderr, a line each, whenever that set
	 * differs from the one said last, kept here (renders serialized by
	 * the caller); NULL: not said (report says them itself,
	 * cr_grid_unfit()).
	 */
	struct cr_om_said *unfit_said;
};

/* Each returns CR_OK, or CR_ERR (out of memory, write error). */
int cr_render_text(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o);
int cr_render_csv(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o);
int cr_render_json(FILE *out, const struct cr_run *r,
		   const struct cr_render_opts *o);
/*
 * OpenMetrics 1.0, or with o->prometheus_text the Prometheus text format
 * 0.0.4 (node_exporter's textfile collector).  A metric recorded with
 * fewer frac_bits than the grid's is left out of the histograms
 * (cr_grid_unfit() names them, and so does o->unfit_said).
 */
int cr_render_openmetrics(FILE *out, const struct cr_run *r,
			  const struct cr_render_opts *o);
/*
 * Whether s is valid UTF-8 (RFC 3629), as a label value must be:
 * Prometheus refuses a whole scrape with one that is not.
 */
int cr_render_label_ok(const char *s);
int cr_render_raw(FILE *out, const struct cr_run *r,
		  const struct cr_render_opts *o);

#endif
