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
#include "xcorr_runs.h"

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

/* The unit of a figure's latencies: o->unit, else by median (ns). */
enum cr_unit cr_plot_unit(const struct cr_plot_opts *o, double median);
/* "what (us)" into buf. */
void cr_plot_time_label(char *buf, size_t len, const char *what,
			enum cr_unit u);
/* "out of memory" said, f freed: CR_ERR. */
int cr_plot_oom(struct cr_figure *f);
/*
 * The comparison's warnings of metric m of d on f, as the text's summary
 * says them: 0 or -ENOMEM.
 */
int cr_plot_warnings(struct cr_figure *f, const struct cr_compare_data *d,
		     size_t m);

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
 * The page of report --compare F --html (co: --compare's settings): the
 * recording's metadata, text (the comparison as the text output prints
 * it), and the figures of metric m, the forest, the fleet where the runs
 * are of several hosts, the heat map and cross-correlation where they
 * hold events (plot_page.c), into *page (malloc'd, *len bytes).  CR_OK, or
 * a status with one line on stderr and nothing made.
 */
int cr_plot_page(struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_compare_opts *co,
		 const struct cr_plot_opts *o, const char *text,
		 char **page, size_t *len);

/*
 * The fleet (plot_fleet.c): per host, Δ median of metric m of d on that
 * host's runs alone with its run-level interval (the bootstrap of
 * --compare with the run unit, o's resamples, seed and level), and d's
 * own result (--unit host or host-fixed) as the fleet's row.  CR_ERR
 * with one line when the runs are of fewer than two hosts.
 */
int cr_plot_fleet(const struct cr_snapshot *s, const struct cr_compare_data *d,
		  size_t m, const struct cr_plot_opts *o, struct cr_figure *f);

/*
 * The cross-correlation of x (xcorr_runs.h; its runs binned by bin ns,
 * selectors named a and b): r(k) by lag with its band and the peak
 * marked (plot_events.c).  CR_ERR with one line when r is undefined at
 * every lag.
 */
int cr_plot_xcorr(const struct cr_snapshot *s, const struct cr_xc_runs *x,
		  uint64_t bin, const char *a, const char *b,
		  struct cr_figure *f);

/*
 * The heat map of run r's events that sel matches (named type): time bins
 * of bin ns across (0: the run's window in about CR_PLOT_HEAT_COLUMNS),
 * the recording's latency slots up, the count as colour; each marker of
 * the run a vertical line with its text (plot_events.c).  CR_ERR with one
 * line when the run has no such event with a latency, CR_USAGE for a bin
 * that makes too many columns.
 */
#define CR_PLOT_HEAT_COLUMNS	120
int cr_plot_heatmap(const struct cr_snapshot *s, struct cr_run *r,
		    const struct cr_xc_sel *sel, const char *type,
		    uint64_t bin, const struct cr_plot_opts *o,
		    struct cr_figure *f);

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
