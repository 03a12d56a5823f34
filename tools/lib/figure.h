/* SPDX-License-Identifier: GPL-2.0 */
/*
 * figure.h - a figure as clkstat-report draws it (plot, report --html):
 * what is plotted, held apart from how (figure.c: the model and its data
 * as JSON; figure_gnuplot.c: drawn by gnuplot, as SVG, PNG or PDF).  A
 * figure is a few series on two axes, with a title, the labels of its
 * axes and what the text output would warn about, so that every picture
 * carries its numbers into the page (Documentation/clkstat-plot.rst).
 */
#ifndef CLKSTAT_LIB_FIGURE_H
#define CLKSTAT_LIB_FIGURE_H

#include <stddef.h>
#include <json.h>

enum cr_fig_style {
	CR_FIG_LINES,		/* y against x */
	CR_FIG_STEPS,		/* a histogram: y over [x, x2) */
	CR_FIG_POINTS,		/* y at x */
	CR_FIG_BAND,		/* the area between y and y2, at x */
	CR_FIG_XERR,		/* a point at (x, y), its interval [x2, x3] */
	CR_FIG_CELLS,		/* a heat map: z over [x, x2) x [y, y2) */
};

/* Up to this many columns per point: x, y, x2, y2, x3, z. */
enum { CR_FIG_X, CR_FIG_Y, CR_FIG_X2, CR_FIG_Y2, CR_FIG_X3, CR_FIG_Z,
	CR_FIG_NCOLS };

/* Panels side by side, sharing the y axis (the forest's). */
#define CR_FIG_PANELS	3

struct cr_fig_series {
	char *title;		/* the key's entry, the SVG group's title */
	enum cr_fig_style style;
	int colour;		/* 0: the base, 1: the variant, 2.. others */
	unsigned int panel;	/* below the figure's npanels; 0: the first */
	size_t n, cap;
	double (*pt)[CR_FIG_NCOLS];
};

/* A line across the plot at x (or y), with its label. */
struct cr_fig_mark {
	char *label;
	unsigned int panel;
	int horizontal;		/* 0: at x, from bottom to top; 1: at y */
	double at;
};

/* Named tics of an axis (the percentile axis: "99%" at 100). */
struct cr_fig_tic {
	char *label;
	double at;
};

struct cr_fig_axis {
	char *label;		/* with its unit: "latency (us)" */
	int log;
	int have_range;
	double lo, hi;
	size_t ntics;
	struct cr_fig_tic *tics;	/* none: gnuplot's own */
};

struct cr_figure {
	char *id;		/* "percentiles", "hist", ...: the page's id */
	char *title;		/* what was compared */
	char *subtitle;		/* on what kernel, clocksource, machine */
	struct cr_fig_axis x, y;	/* x: the first panel's */
	unsigned int npanels;		/* 0 or 1: one plot */
	struct cr_fig_axis more_x[CR_FIG_PANELS - 1];	/* the others' x */
	char *z_label;		/* CR_FIG_CELLS: what the colour counts */
	size_t nseries;
	struct cr_fig_series *series;
	size_t nmarks;
	struct cr_fig_mark *marks;
	size_t nwarnings;
	char **warnings;	/* as the text output says them */
};

/*
 * Each returns 0, or -ENOMEM (the figure then as it was, to be freed
 * with cr_fig_free()).  Strings are copied.
 */
int cr_fig_init(struct cr_figure *f, const char *id, const char *title,
		const char *subtitle);
int cr_fig_axis(struct cr_fig_axis *a, const char *label, int log);
int cr_fig_tic(struct cr_fig_axis *a, const char *label, double at);
struct cr_fig_series *cr_fig_series(struct cr_figure *f, const char *title,
				    enum cr_fig_style style, int colour);
int cr_fig_point(struct cr_fig_series *s, const double *cols, size_t ncols);
int cr_fig_mark(struct cr_figure *f, const char *label, int horizontal,
		double at);
int cr_fig_warn(struct cr_figure *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cr_fig_free(struct cr_figure *f);
/* Panel p's x axis (0: f->x), npanels raised to p + 1; p < CR_FIG_PANELS. */
struct cr_fig_axis *cr_fig_panel_x(struct cr_figure *f, unsigned int p);

/*
 * The figure's plotted data as JSON (the page embeds it): id, title,
 * axes, each series' title, style and points, marks, warnings.  NULL: out
 * of memory.
 */
struct json_object *cr_fig_json(const struct cr_figure *f);

/*
 * What cr_fig_render() writes.  SVG_INLINE: SVG without gnuplot's mouse
 * script, to sit in a page (report --html) beside the others.
 */
enum cr_fig_format { CR_FIG_SVG, CR_FIG_PNG, CR_FIG_PDF, CR_FIG_SVG_INLINE };

/*
 * The format a file name asks for by its extension (.svg, .png, .pdf):
 * 0 and *fmt, or -1 for any other name.
 */
int cr_fig_format_of(const char *path, enum cr_fig_format *fmt);

/*
 * Draw f with gnuplot (figure_gnuplot.c) into *out (malloc'd, *len
 * bytes): 0, or -1 with one line of why in err (gnuplot missing, or its
 * own first error).
 */
int cr_fig_render(const struct cr_figure *f, enum cr_fig_format fmt,
		  char **out, size_t *len, char *err, size_t errlen);

#endif
