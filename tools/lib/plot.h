/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - the figures of a recording (clkstat-report plot, report
 * --html): each kind built as a figure (figure.h) from the comparison
 * --compare computes (plot_compare.c) or from the recorded events
 * (plot_events.c).  What each figure shows and how it is read:
 * Documentation/clkstat-plot.rst.
 */
#ifndef CLKSTAT_LIB_PLOT_H
#define CLKSTAT_LIB_PLOT_H

#include <stdint.h>
#include "compare.h"
#include "figure.h"
#include "render.h"

enum cr_plot_kind {
	CR_PLOT_PERCENTILES,	/* each side's percentile distribution, band */
	CR_PLOT_HIST,		/* both histograms, the recording's slots */
	CR_PLOT_FOREST,		/* the differences of every metric */
	CR_PLOT_RUNS,		/* each run's median and p99 by index */
	CR_PLOT_XCORR,		/* r(k) by lag, band, peak */
	CR_PLOT_HEATMAP,	/* latency over time from the events */
	CR_PLOT_FLEET,		/* Δ median per host */
	CR_PLOT_NKINDS
};

/* "percentiles", "hist", ...; NULL past the last. */
const char *cr_plot_kind_name(enum cr_plot_kind k);
/* 0 and *k, or -1 for a name that is none of them. */
int cr_plot_kind_parse(const char *s, enum cr_plot_kind *k);

struct cr_plot_opts {
	enum cr_unit unit;	/* --time-unit; AUTO: from the base's median */
	unsigned int resamples;	/* the percentile band's, as --compare's */
	unsigned long seed;
	double level;
};

/*
 * "kernel K, clocksource C, MACHINE (HOST)": what a figure was recorded
 * on, from the snapshot's metadata, into buf.
 */
void cr_plot_subtitle(const struct cr_snapshot *s, char *buf, size_t len);

/*
 * The figures of compared metric m of d (cr_compare_collect()), on the
 * runs of s.  Each returns CR_OK with *f built (cr_fig_free() it), or a
 * status with one line on stderr and *f empty.  The forest takes every
 * metric of d.  The fleet needs runs of at least two hosts.
 */
int cr_plot_percentiles(const struct cr_snapshot *s,
			const struct cr_compare_data *d, size_t m,
			const struct cr_plot_opts *o, struct cr_figure *f);
int cr_plot_hist(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, struct cr_figure *f);
int cr_plot_forest(const struct cr_snapshot *s,
		   const struct cr_compare_data *d,
		   const struct cr_plot_opts *o, struct cr_figure *f);
int cr_plot_runs(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, struct cr_figure *f);

/*
 * The page of report --compare F --html: the recording's metadata, text
 * (the comparison as the text output prints it), and the figures of
 * metric m and the forest, into *page (malloc'd, *len bytes).  CR_OK, or
 * a status with one line on stderr and nothing made.
 */
int cr_plot_page(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, const char *text,
		 char **page, size_t *len);

/*
 * The quantiles num[i]/den of the dense histogram slot[nslots] (total
 * samples, min and max recorded) into out[i], num ascending: the values
 * clkstat_hist_quantile() gives (shared/clkstat_hist_math.h), all in one
 * pass over the slots.
 */
void cr_plot_quantiles(const struct clkstat_slot *slot, unsigned int nslots,
		       unsigned int frac_bits, uint64_t total, uint64_t min,
		       uint64_t max, const uint32_t *num, size_t nq,
		       uint32_t den, uint64_t *out);

#endif
