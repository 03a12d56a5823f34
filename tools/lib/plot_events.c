// SPDX-License-Identifier: GPL-2.0
/*
 * plot_events.c - the figures of a recording's events (plot.h): the
 * cross-correlation of two event series by lag, as xcorr computes it
 * (xcorr_runs.c: the same runs, bins and bootstrap, so the picture and
 * the text agree), and a run's latencies over time as a heat map in the
 * recording's own histogram slots, with the run's markers on it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "plot.h"
#include "render_common.h"
#include "status.h"

/* A time axis' unit: the largest of ns, us, ms, s that v reaches. */
static double cr_plot_time_scale(double v, const char **name)
{
	static const struct { const char *n; double ns; } u[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	size_t i;

	for (i = 0; i < 3 && v < u[i].ns; i++)
		;
	*name = u[i].n;
	return u[i].ns;
}

/* ---- xcorr: r(k) by lag ---- */

int cr_plot_xcorr(const struct cr_snapshot *s, const struct cr_xc_runs *x,
		  uint64_t bin, const char *a, const char *b,
		  struct cr_figure *f)
{
	const struct cr_xc_result *res = &x->res;
	struct cr_fig_series *band, *line;
	double pt[CR_FIG_NCOLS], scale;
	char t[512], sub[512], d[32];
	const char *un;
	long k, K = (long)res->K;

	memset(f, 0, sizeof(*f));
	if (!res->have_peak) {
		fprintf(stderr, "clkstat-report: plot: r undefined at every lag: a series without events or without variation in every run\n");
		return CR_ERR;
	}
	scale = cr_plot_time_scale((double)bin, &un);
	snprintf(t, sizeof(t), "xcorr: %s against %s, %zu run%s; k > 0: %s follows",
		 a, b, x->n, x->n == 1 ? "" : "s", b);
	cr_plot_subtitle(s, sub, sizeof(sub));
	cr_fmt_ns(d, sizeof(d), (double)bin, 3, 1);
	if (cr_fig_init(f, "xcorr", t, sub))
		return cr_plot_oom(f);
	snprintf(t, sizeof(t), "lag k (%s; bins of %s)", un, d);
	if (cr_fig_axis(&f->x, t, 0) ||
	    cr_fig_axis(&f->y, "r(k) = corr(A[t], B[t+k]), Pearson on the overlap", 0) ||
	    cr_fig_mark(f, "r = 0", 1, 0))
		return cr_plot_oom(f);
	f->x.have_range = 1;
	f->x.lo = -(double)K * (double)bin / scale;
	f->x.hi = (double)K * (double)bin / scale;
	snprintf(t, sizeof(t), "95%% band, moving-block bootstrap");
	band = cr_fig_series(f, t, CR_FIG_BAND, 0);
	snprintf(t, sizeof(t), "r(k)%s", x->n > 1 ? ", the mean of the runs' r" : "");
	line = band ? cr_fig_series(f, t, CR_FIG_LINES, 1) : NULL;
	if (!line)
		return cr_plot_oom(f);
	band = &f->series[f->nseries - 2];
	for (k = -K; k <= K; k++) {
		pt[CR_FIG_X] = (double)k * (double)bin / scale;
		pt[CR_FIG_X2] = NAN;
		/* An undefined lag is left out, not drawn as 0. */
		if (isnan(res->r[k + K]))
			continue;
		pt[CR_FIG_Y] = res->r[k + K];
		if (cr_fig_point(line, pt, CR_FIG_Y + 1))
			return cr_plot_oom(f);
		if (isnan(res->lo[k + K]) || isnan(res->hi[k + K]))
			continue;
		pt[CR_FIG_Y] = res->lo[k + K];
		pt[CR_FIG_Y2] = res->hi[k + K];
		if (cr_fig_point(band, pt, CR_FIG_Y2 + 1))
			return cr_plot_oom(f);
	}
	cr_fmt_ns(d, sizeof(d), (double)res->peak * (double)bin, 3, 1);
	snprintf(t, sizeof(t), "peak: lag %+d bins (%s), r %+.3f [%+.3f, %+.3f]",
		 res->peak, d, res->r[res->peak + K], res->r_lo, res->r_hi);
	if (cr_fig_mark(f, t, 0, (double)res->peak * (double)bin / scale))
		return cr_plot_oom(f);
	if (x->no_events &&
	    cr_fig_warn(f, "warning: %zu of the selected runs were recorded without --events: not in r(k)",
			x->no_events))
		return cr_plot_oom(f);
	if (res->undefined &&
	    cr_fig_warn(f, "warning: r at the peak lag was undefined in %u resamples (a series without variation in them): the interval is of the others",
			res->undefined))
		return cr_plot_oom(f);
	return CR_OK;
}

/* ---- heatmap: latency over time ---- */

/* A 1, 2, 5 times a power of ten at least v (ns): a bin a person reads. */
static uint64_t cr_plot_nice(uint64_t v)
{
	static const uint64_t m[] = { 1, 2, 5 };
	uint64_t p = 1;
	size_t i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (m[i] * p >= v)
				return m[i] * p;
		if (p > UINT64_MAX / 100)
			return UINT64_MAX;
		p *= 10;
	}
}

static int cr_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Markers drawn at most: past this the figure is lines alone. */
#define CR_PLOT_MAX_MARKS	40
/* Columns at most: beyond a screen's pixels, and gnuplot's time. */
#define CR_PLOT_MAX_COLUMNS	20000

/*
 * The run's events of sel with a latency, as keys column * nslots + slot
 * sorted, into *keys (*n of them), and the window [*t0, *t1] that holds
 * them: the run's own (run_start to run_end), widened to every event.
 */
static int cr_heat_keys(const struct cr_events *x, const struct cr_xc_sel *sel,
			unsigned int k, uint64_t *bin, uint64_t *t0,
			uint64_t *t1, uint64_t **keys, size_t *n, double *med)
{
	uint64_t *lat = NULL, ncol, nslots = CLKSTAT_NSLOTS(k);
	size_t i, j;

	*keys = NULL;
	*n = 0;
	cr_xc_window(x, t0, t1);
	for (i = 0; i < x->n; i++) {
		if (x->ev[i].ts < *t0)
			*t0 = x->ev[i].ts;
		if (x->ev[i].ts > *t1)
			*t1 = x->ev[i].ts;
	}
	if (!*bin)
		*bin = cr_plot_nice((*t1 - *t0) / CR_PLOT_HEAT_COLUMNS + 1);
	ncol = (*t1 - *t0) / *bin + 1;
	if (ncol > CR_PLOT_MAX_COLUMNS)
		return -E2BIG;
	*keys = malloc((x->n ? x->n : 1) * sizeof(**keys));
	lat = malloc((x->n ? x->n : 1) * sizeof(*lat));
	if (!*keys || !lat) {
		free(lat);
		return -ENOMEM;
	}
	for (i = 0, j = 0; i < x->n; i++) {
		const struct clkstat_event_rec *e = &x->ev[i];

		if (!(e->flags & CLKSTAT_EVF_LATENCY) || !cr_xc_sel_match(sel, e))
			continue;
		lat[j] = e->latency;
		(*keys)[j++] = (e->ts - *t0) / *bin * nslots +
			       clkstat_value_to_slot(e->latency, k);
	}
	*n = j;
	qsort(*keys, j, sizeof(**keys), cr_u64_cmp);
	qsort(lat, j, sizeof(*lat), cr_u64_cmp);
	*med = j ? (double)lat[(j - 1) / 2] : 0;
	free(lat);
	return 0;
}

/* Each marker of the run as a vertical line at its time, its text. */
static int cr_heat_marks(struct cr_figure *f, const struct cr_events *x,
			 uint64_t t0, double xscale)
{
	size_t i, n = 0, more = 0;

	for (i = 0; i < x->n; i++) {
		if (x->ev[i].type != CLKSTAT_EV_MARKER)
			continue;
		if (n == CR_PLOT_MAX_MARKS) {
			more++;
			continue;
		}
		n++;
		if (cr_fig_mark(f, x->ev[i].text, 0,
				(double)(x->ev[i].ts - t0) / xscale))
			return -ENOMEM;
	}
	if (more && cr_fig_warn(f, "warning: %zu more markers not drawn (the first %d are)",
				more, CR_PLOT_MAX_MARKS))
		return -ENOMEM;
	return 0;
}

int cr_plot_heatmap(const struct cr_snapshot *s, struct cr_run *r,
		    const struct cr_xc_sel *sel, const char *type,
		    uint64_t bin, const struct cr_plot_opts *o,
		    struct cr_figure *f)
{
	const struct cr_meta *meta = cr_run_meta(s, r);
	unsigned int k = meta->frac_bits;
	uint64_t *keys = NULL, t0 = 0, t1 = 0, w0, w1, nslots, col, slot;
	struct cr_fig_series *cells;
	double pt[CR_FIG_NCOLS], xscale, yscale, med;
	char t[512], sub[512], d[32];
	const char *xun;
	enum cr_unit u;
	size_t n, i, j;
	int st, err;

	memset(f, 0, sizeof(*f));
	if (k > CLKSTAT_FRAC_BITS_MAX) {
		fprintf(stderr, "clkstat-report: plot: run %u: frac_bits %u: not a slot layout (0 to %d)\n",
			r->index, k, CLKSTAT_FRAC_BITS_MAX);
		return CR_CORRUPT;
	}
	nslots = CLKSTAT_NSLOTS(k);
	st = cr_run_events_load(s, r);
	if (st)
		return st;
	err = cr_heat_keys(&r->events, sel, k, &bin, &t0, &t1, &keys, &n, &med);
	if (err == -E2BIG) {
		cr_fmt_ns(d, sizeof(d), (double)(t1 - t0), 3, 1);
		fprintf(stderr, "clkstat-report: plot: run %u: %s in bins of %llu ns is above %d columns: a wider --bin\n",
			r->index, d, (unsigned long long)bin, CR_PLOT_MAX_COLUMNS);
		st = CR_USAGE;
		goto out;
	}
	if (err)
		goto nomem;
	if (!n) {
		fprintf(stderr, "clkstat-report: plot: run %u (%s) has no %s event with a latency for a heat map (--type chooses another)\n",
			r->index, r->variant, type);
		st = CR_ERR;
		goto out;
	}
	u = cr_plot_unit(o, med);
	yscale = (double)cr_unit_ns(u);
	xscale = cr_plot_time_scale((double)(t1 - t0), &xun);
	snprintf(t, sizeof(t), "%s latency over time: run %u (%s), %zu events",
		 type, r->index, r->variant, n);
	cr_plot_subtitle(s, sub, sizeof(sub));
	if (cr_fig_init(f, "heatmap", t, sub))
		goto nomem;
	cr_fmt_ns(d, sizeof(d), (double)bin, 3, 1);
	snprintf(t, sizeof(t), "time since %s (%s; bins of %s)",
		 cr_xc_window(&r->events, &w0, &w1) == 1 && w0 == t0 ?
		 "run_start" : "the run's first event", xun, d);
	if (cr_fig_axis(&f->x, t, 0))
		goto nomem;
	cr_plot_time_label(t, sizeof(t), "latency, the recording's slots", u);
	if (cr_fig_axis(&f->y, t, 1))
		goto nomem;
	f->x.have_range = 1;
	f->x.lo = 0;
	f->x.hi = (double)((t1 - t0) / bin + 1) * (double)bin / xscale;
	f->z_label = strdup("events in the cell");
	snprintf(t, sizeof(t), "%s events", type);
	cells = f->z_label ? cr_fig_series(f, t, CR_FIG_CELLS, 0) : NULL;
	if (!cells)
		goto nomem;
	/* One cell per run of equal keys: the sorted keys counted. */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && keys[j] == keys[i]; j++)
			;
		col = keys[i] / nslots;
		slot = keys[i] % nslots;
		pt[CR_FIG_X] = (double)(col * bin) / xscale;
		pt[CR_FIG_X2] = (double)((col + 1) * bin) / xscale;
		/* A slot holds [lower, upper]; 0 has no place on a log axis. */
		pt[CR_FIG_Y] = (double)clkstat_slot_lower(slot, k) / yscale;
		if (!clkstat_slot_lower(slot, k))
			pt[CR_FIG_Y] = 0.5 / yscale;
		pt[CR_FIG_Y2] = ((double)clkstat_slot_upper(slot, k) + 1) / yscale;
		pt[CR_FIG_X3] = NAN;
		pt[CR_FIG_Z] = (double)(j - i);
		if (cr_fig_point(cells, pt, CR_FIG_Z + 1))
			goto nomem;
	}
	if (cr_heat_marks(f, &r->events, t0, xscale))
		goto nomem;
	if (r->events.lost &&
	    cr_fig_warn(f, "warning: run %u lost %llu events (a full ring, or past --events): the counts are of those kept",
			r->index, (unsigned long long)r->events.lost))
		goto nomem;
	st = CR_OK;
	goto out;
nomem:
	st = cr_plot_oom(f);
out:
	free(keys);
	cr_run_events_drop(r);
	return st;
}
