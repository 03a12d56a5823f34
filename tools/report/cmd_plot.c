// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - clkstat-report plot -i FILE --compare F [--base G]
 * [--kind K] [--metric M] -o FILE.svg|.png|.pdf: one figure of a
 * recording (tools/lib/plot.h builds it, figure_gnuplot.c draws it), the
 * runs selected as --compare selects them.  Everything is computed and
 * drawn in memory first and the file replaced whole at the end, so that a
 * bad input or a failing gnuplot leaves no half-written file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/file_replace.h"
#include "../lib/plot.h"
#include "../lib/render_common.h"
#include "../lib/status.h"
#include "../lib/suggest.h"
#include "cli.h"
#include "input.h"
#include "report_compare.h"

enum { O_KIND = CR_OPT_OUTPUT + 0x40, O_METRIC, O_UNIT };

/* What the study clkstat was made for measures: the default metric. */
#define CR_PLOT_HEADLINE	"ttwu_tkread"

static struct {
	enum cr_plot_kind kind;
	const char *out, *metric;
	enum cr_unit unit;
} cr_po = { .kind = CR_PLOT_PERCENTILES, .unit = CR_UNIT_AUTO };

static int cr_plot_take(int c, const char *v)
{
	const char *names[CR_PLOT_NKINDS];
	unsigned int i;

	switch (c) {
	case 'o':
		cr_po.out = v;
		return CR_OK;
	case O_METRIC:
		cr_po.metric = v;
		return CR_OK;
	case O_UNIT:
		if (cr_unit_parse(v, &cr_po.unit) == 0)
			return CR_OK;
		fprintf(stderr, "clkstat-report: plot: --time-unit '%s': ns, us or ms\n",
			v);
		return CR_USAGE;
	}
	if (!cr_plot_kind_parse(v, &cr_po.kind))
		return CR_OK;
	for (i = 0; i < CR_PLOT_NKINDS; i++)
		names[i] = cr_plot_kind_name(i);
	fprintf(stderr, "clkstat-report: plot: --kind '%s': percentiles, hist, forest, runs, xcorr, heatmap or fleet",
		v);
	cr_suggest(stderr, v, names, CR_PLOT_NKINDS);
	fputc('\n', stderr);
	return CR_USAGE;
}

static const struct option cr_plot_table[] = {
	{ "kind", required_argument, NULL, O_KIND },
	{ "output", required_argument, NULL, 'o' },
	{ "metric", required_argument, NULL, O_METRIC },
	{ "time-unit", required_argument, NULL, O_UNIT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_plot_optset = {
	.opts = cr_plot_table,
	.take = cr_plot_take,
	.help =
	"      --kind K        the figure: percentiles (default), hist, forest,\n"
	"                      runs, xcorr, heatmap, fleet\n"
	"  -o, --output FILE   FILE.svg, FILE.png or FILE.pdf (by its name)\n"
	"      --metric NAME   the metric (default ttwu_tkread, else the first)\n"
	"      --time-unit U   the latency axes in ns, us or ms (default: by\n"
	"                      the base's median)\n",
};

static int cr_plot_check(const struct cr_cli *cli)
{
	enum cr_fig_format fmt;

	(void)cli;
	if (!cr_input_count()) {
		fprintf(stderr, "clkstat-report: plot: -i FILE is needed (a recording: a study or a snapshot)\n");
		return CR_USAGE;
	}
	if (!cr_po.out) {
		fprintf(stderr, "clkstat-report: plot: -o FILE.svg, FILE.png or FILE.pdf is needed\n");
		return CR_USAGE;
	}
	if (cr_fig_format_of(cr_po.out, &fmt)) {
		fprintf(stderr, "clkstat-report: plot: -o %s: the name must end in .svg, .png or .pdf (the format it is written in)\n",
			cr_po.out);
		return CR_USAGE;
	}
	if (!cr_compare_wanted()) {
		fprintf(stderr, "clkstat-report: plot: --compare F is needed (what is drawn against the base, as --compare takes it)\n");
		return CR_USAGE;
	}
	if (cr_input_run() >= 0) {
		fprintf(stderr, "clkstat-report: plot: --run does not apply: a figure draws every run of both sides\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/* The metric a one-metric figure draws: --metric's, else the headline. */
static int cr_plot_metric(const struct cr_compare_data *d, size_t *m)
{
	size_t i;

	for (i = 0; i < d->res.nmetrics; i++)
		if (!strcmp(d->res.metrics[i].name, cr_po.metric ? cr_po.metric :
			    CR_PLOT_HEADLINE))
			break;
	*m = i < d->res.nmetrics ? i : 0;
	return CR_OK;
}

static int cr_plot_cmd(struct cr_cli *cli)
{
	struct cr_compare_opts co = *cr_compare_settings();
	struct cr_compare_data d = { 0 };
	struct cr_plot_opts po;
	struct cr_figure f = { 0 };
	struct cr_snapshot s = { 0 };
	enum cr_fig_format fmt;
	const char *step;
	char err[512], *buf = NULL;
	size_t m, len;
	int st;

	(void)cli;
	cr_fig_format_of(cr_po.out, &fmt);	/* checked */
	st = cr_input_read(&s);
	if (st)
		return st;
	co.metric = cr_po.metric;
	co.format = "text";
	st = cr_compare_collect(&s, &co, &d);
	if (st)
		goto out;
	po = (struct cr_plot_opts){
		.unit = cr_po.unit, .resamples = co.resamples,
		.seed = co.seed, .level = co.level,
	};
	cr_plot_metric(&d, &m);
	switch (cr_po.kind) {
	case CR_PLOT_PERCENTILES:
		st = cr_plot_percentiles(&s, &d, m, &po, &f);
		break;
	case CR_PLOT_HIST:
		st = cr_plot_hist(&s, &d, m, &po, &f);
		break;
	case CR_PLOT_FOREST:
		st = cr_plot_forest(&s, &d, &po, &f);
		break;
	case CR_PLOT_RUNS:
		st = cr_plot_runs(&s, &d, m, &po, &f);
		break;
	default:
		fprintf(stderr, "clkstat-report: plot: --kind %s is not drawn yet\n",
			cr_plot_kind_name(cr_po.kind));
		st = CR_USAGE;
		break;
	}
	if (st)
		goto out;
	if (cr_fig_render(&f, fmt, &buf, &len, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: plot: %s\n", err);
		st = CR_ERR;
		goto out;
	}
	if (cr_file_replace(cr_po.out, buf, len, &step) < 0) {
		fprintf(stderr, "clkstat-report: plot: %s: %s: %s\n", cr_po.out,
			step, errno == EINVAL ? "not a regular file" :
			strerror(errno));
		st = CR_ERR;
	}
out:
	free(buf);
	cr_fig_free(&f);
	cr_compare_data_free(&d);
	cr_snapshot_free(&s);
	return st;
}

static const struct cr_optset *const cr_plot_optsets[] = {
	&cr_input_opts, &cr_compare_opts, &cr_plot_optset, NULL,
};

const struct cr_command cr_cmd_plot = {
	.name = "plot",
	.summary = "a figure of a recording: SVG, PNG or PDF, drawn by gnuplot",
	.synopsis =
	"       clkstat-report plot -i FILE... --compare F [--base G] [--kind K]\n"
	"                      [--metric M] [--time-unit U] -o FILE.svg|.png|.pdf\n",
	.opts = cr_plot_optsets,
	.check = cr_plot_check,
	.run = cr_plot_cmd,
};
