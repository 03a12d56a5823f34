// SPDX-License-Identifier: GPL-2.0
/*
 * plot_page.c - the figures of a comparison gathered into one page
 * (plot.h, cr_plot_page(); the page's markup is render_html.c's): the
 * percentile distributions, the histograms and the runs of one metric,
 * and the forest of every metric, each drawn by gnuplot as inline SVG,
 * with its data.  Built whole in memory: a figure that fails leaves no
 * page.
 */
#define _GNU_SOURCE		/* open_memstream() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "plot.h"
#include "render_html.h"
#include "status.h"

#define CR_PAGE_FIGS	4

int cr_plot_page(const struct cr_snapshot *s, const struct cr_compare_data *d,
		 size_t m, const struct cr_plot_opts *o, const char *text,
		 char **page, size_t *len)
{
	struct cr_figure figs[CR_PAGE_FIGS];
	const struct cr_figure *fp[CR_PAGE_FIGS];
	struct json_object *data[CR_PAGE_FIGS] = { NULL };
	char *svg[CR_PAGE_FIGS] = { NULL }, err[512], title[512];
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
	for (i = 0; i < CR_PAGE_FIGS; i++) {
		cr_fig_free(&figs[i]);
		free(svg[i]);
		json_object_put(data[i]);
	}
	return st;
}
