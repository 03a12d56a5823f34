// SPDX-License-Identifier: GPL-2.0
/*
 * plot_page.c - the figures of a comparison gathered into one page
 * (plot.h, cr_plot_page(); the page's markup is render_html.c's): the
 * percentile distributions, the histograms and the runs of one metric,
 * the forest of every metric, the fleet where the runs are of several
 * hosts, and where the runs hold events of the tkread probe the heat map
 * of the first such run and the cross-correlation of wakeups and first
 * reads; each drawn by gnuplot as inline SVG, with its data.  Built whole in memory: a figure that fails leaves no
 * page.
 */
#define _GNU_SOURCE		/* open_memstream() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "plot.h"
#include "render_html.h"
#include "xcorr_runs.h"
#include "status.h"

#define CR_PAGE_FIGS	7

/* The page's cross-correlation: xcorr's defaults, 1 ms bins, ±20 lags. */
#define CR_PAGE_XC_BIN		1000000
#define CR_PAGE_XC_LAGS		20
#define CR_PAGE_XC_RESAMPLES	2000

/*
 * The first run with a first read's latency among its events, or NULL
 * (each run's events loaded for the look and dropped).  *st: a reader's
 * failure.
 */
static struct cr_run *cr_page_event_run(struct cr_snapshot *s,
					const struct cr_xc_sel *sel, int *st)
{
	const struct clkstat_event_rec *e;
	struct cr_run *r;
	size_t i, j;
	int hit;

	*st = CR_OK;
	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (!r->events.present || !r->events.n)
			continue;
		*st = cr_run_events_load(s, r);
		if (*st)
			return NULL;
		for (j = 0, hit = 0; j < r->events.n && !hit; j++) {
			e = &r->events.ev[j];
			hit = cr_xc_sel_match(sel, e) &&
			      (e->flags & CLKSTAT_EVF_LATENCY);
		}
		cr_run_events_drop(r);
		if (hit)
			return r;
	}
	return NULL;
}

/* Do the runs name two hosts or more? */
static int cr_page_hosts(const struct cr_snapshot *s)
{
	const char *h0 = NULL, *h;
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		h = cr_compare_run_host(s, &s->runs[i]);
		if (!h)
			continue;
		if (h0 && strcmp(h0, h))
			return 1;
		h0 = h;
	}
	return 0;
}

/*
 * The event figures, where the recording has events of the probes they
 * need: the heat map of the first run with events (first reads), the
 * cross-correlation of wakeups and first reads.  *n figures made.
 */
static int cr_page_events(struct cr_snapshot *s, const struct cr_plot_opts *o,
			  struct cr_figure *figs, size_t *n, const char **note)
{
	struct cr_xc_sel a, b;
	struct cr_xc_runs x = { 0 };
	struct cr_xc_params p;
	struct cr_xc_take t;
	struct cr_run *r;
	char err[128];
	int st;

	if (cr_xc_sel_parse("wakeup", &a, err, sizeof(err)) ||
	    cr_xc_sel_parse("first_tkread", &b, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: --html: %s\n", err);
		return CR_ERR;
	}
	r = cr_page_event_run(s, &b, &st);
	if (st)
		return st;
	if (!r) {
		*note = "No run holds first reads with their latency among its events (record --events N with the tkread probe): the page has no heat map and no cross-correlation.";
		return CR_OK;
	}
	st = cr_plot_heatmap(s, r, &b, "first_tkread", 0, o, &figs[*n]);
	if (st)
		return st;
	(*n)++;
	p = (struct cr_xc_params){
		.K = CR_PAGE_XC_LAGS, .resamples = CR_PAGE_XC_RESAMPLES,
		.seed = o->seed, .level = 0.95,
	};
	t = (struct cr_xc_take){
		.who = "--html", .run = -1, .a = &a, .b = &b,
		.bin = CR_PAGE_XC_BIN,
	};
	st = cr_xc_runs_compute(s, &t, &p, &x);
	if (!st && !x.res.have_peak) {
		*note = "The cross-correlation of wakeups and first reads in 1 ms bins is undefined at every lag (a series without events or without variation in every run): plot --kind xcorr with another --bin draws it.";
		cr_xc_runs_free(&x);
		return CR_OK;
	}
	if (!st)
		st = cr_plot_xcorr(s, &x, CR_PAGE_XC_BIN, "wakeup", "first_tkread",
				   &figs[*n]);
	cr_xc_runs_free(&x);
	if (!st)
		(*n)++;
	return st;
}

int cr_plot_page(struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_compare_opts *co,
		 const struct cr_plot_opts *o, const char *text,
		 char **page, size_t *len)
{
	struct cr_figure figs[CR_PAGE_FIGS];
	const struct cr_figure *fp[CR_PAGE_FIGS];
	struct json_object *data[CR_PAGE_FIGS] = { NULL };
	char *svg[CR_PAGE_FIGS] = { NULL }, err[512], title[512];
	struct cr_compare_data hd = { 0 };
	struct cr_compare_opts ho;
	const char *note = NULL;
	size_t n = 0, i, slen;
	struct cr_html_page p;
	FILE *f;
	int st = CR_OK;

	memset(figs, 0, sizeof(figs));
	*page = NULL;
	*len = 0;
	st = cr_plot_percentiles(s, d, m, o, &figs[n]);
	if (!st)
		st = cr_plot_hist(s, d, m, o, &figs[++n]);
	if (!st)
		st = cr_plot_runs(s, d, m, o, &figs[++n]);
	if (!st)
		st = cr_plot_forest(s, d, o, &figs[++n]);
	if (st)
		goto out;
	n++;
	/* The fleet: the same comparison with hosts as the unit. */
	if (cr_page_hosts(s)) {
		ho = *co;
		ho.unit_host = 1;
		ho.unit_sample = 0;
		st = d->res.unit_host ? CR_OK : cr_compare_collect(s, &ho, &hd);
		if (!st)
			st = cr_plot_fleet(s, d->res.unit_host ? d : &hd, m, o,
					   &figs[n]);
		if (st)
			goto out;
		n++;
	}
	st = cr_page_events(s, o, figs, &n, &note);
	if (st)
		goto out;
	for (i = 0; i < n; i++) {
		fp[i] = &figs[i];
		data[i] = cr_fig_json(&figs[i]);
		if (!data[i]) {
			fprintf(stderr, "clkstat-report: --html: out of memory\n");
			st = CR_ERR;
			goto out;
		}
		if (cr_fig_render(&figs[i], CR_FIG_SVG_INLINE, &svg[i], &slen,
				  err, sizeof(err))) {
			fprintf(stderr, "clkstat-report: --html: figure %s: %s\n",
				figs[i].id, err);
			st = CR_ERR;
			goto out;
		}
	}
	snprintf(title, sizeof(title), "clkstat: %s against %s",
		 d->res.variant, d->res.base);
	p = (struct cr_html_page){
		.title = title, .snapshot = s, .text = text, .nfigs = n,
		.figs = fp, .svgs = (const char *const *)svg, .data = data,
		.note = note,
	};
	f = open_memstream(page, len);
	if (!f) {
		*page = NULL;
		goto nomem;
	}
	i = (size_t)cr_html_page(f, &p);
	if (fclose(f) || i) {
		free(*page);
		*page = NULL;
		*len = 0;
		goto nomem;
	}
	goto out;
nomem:
	fprintf(stderr, "clkstat-report: --html: out of memory\n");
	st = CR_ERR;
out:
	cr_compare_data_free(&hd);
	for (i = 0; i < CR_PAGE_FIGS; i++) {
		cr_fig_free(&figs[i]);
		free(svg[i]);
		json_object_put(data[i]);
	}
	return st;
}
