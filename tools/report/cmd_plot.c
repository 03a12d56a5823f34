// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - clkstat-report plot -i FILE --compare F [--base G]
 * [--kind K] [--metric M] -o FILE.svg|.png|.pdf: one figure of a
 * recording (tools/lib/plot.h builds it, figure_gnuplot.c draws it).  The
 * comparison kinds (percentiles, hist, forest, runs, fleet) take the runs
 * as --compare selects them; xcorr takes two selectors A B and the
 * options as xcorr does (xcorr_opts.c); heatmap one run's events.
 * Everything is computed and drawn in memory first and the file replaced
 * whole at the end, so that a bad input or a failing gnuplot leaves no
 * half-written file.
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
#include "xcorr_opts.h"

enum { O_KIND = CR_OPT_OUTPUT + 0x40, O_METRIC, O_UNIT, O_TYPE };

/* What the study clkstat was made for measures: the default metric. */
#define CR_PLOT_HEADLINE	"ttwu_tkread"
/* The latency of that study's events: the heat map's default type. */
#define CR_PLOT_HEAT_TYPE	"first_tkread"

static struct {
	enum cr_plot_kind kind;
	const char *out, *metric, *type;
	enum cr_unit unit;
	struct cr_xc_sel sel;		/* heatmap: --type's */
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
	case O_TYPE:
		cr_po.type = v;
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
	{ "type", required_argument, NULL, O_TYPE },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_plot_optset = {
	.opts = cr_plot_table,
	.take = cr_plot_take,
	.help =
	"      --kind K        the figure: percentiles (default), hist, forest,\n"
	"                      runs, fleet (these need --compare), xcorr (needs\n"
	"                      two selectors A B, as xcorr), heatmap\n"
	"  -o, --output FILE   FILE.svg, FILE.png or FILE.pdf (by its name)\n"
	"      --metric NAME   the metric (default ttwu_tkread, else the first)\n"
	"      --time-unit U   the latency axes in ns, us or ms (default: by\n"
	"                      the base's median)\n"
	"      --type SEL      heatmap: the events drawn, an xcorr selector (default\n"
	"                      first_tkread), of --run's run or the first with any\n",
};

/* The comparison kinds: the runs of both sides, as --compare selects. */
static int cr_plot_check_compare(const struct cr_cli *cli)
{
	const char *kind = cr_plot_kind_name(cr_po.kind);

	if (!cr_compare_wanted()) {
		fprintf(stderr, "clkstat-report: plot: --compare F is needed (what is drawn against the base, as --compare takes it)\n");
		return CR_USAGE;
	}
	if (cr_input_run() >= 0) {
		fprintf(stderr, "clkstat-report: plot: --run does not apply: a figure draws every run of both sides\n");
		return CR_USAGE;
	}
	if (cli->nrest) {
		fprintf(stderr, "clkstat-report: plot: --kind %s takes no argument ('%s'): selectors are --kind xcorr's\n",
			kind, cli->rest[0]);
		return CR_USAGE;
	}
	if (cr_po.kind == CR_PLOT_FLEET && cr_compare_settings()->unit_sample) {
		fprintf(stderr, "clkstat-report: plot: --kind fleet resamples hosts (--unit host or host-fixed), not samples\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/* What neither event kind takes: --compare. */
static int cr_plot_no_compare(void)
{
	if (!cr_compare_wanted())
		return CR_OK;
	fprintf(stderr, "clkstat-report: plot: --compare does not apply to --kind %s (it draws the events of the runs --run and --variant select)\n",
		cr_plot_kind_name(cr_po.kind));
	return CR_USAGE;
}

static int cr_plot_check_xcorr(const struct cr_cli *cli)
{
	if (cr_plot_no_compare())
		return CR_USAGE;
	if (cli->nrest != 2) {
		fprintf(stderr, "clkstat-report: plot: --kind xcorr needs two selectors A B, as xcorr takes them (e.g. first_tkread enqueue)\n");
		return CR_USAGE;
	}
	return cr_xcorr_sels("plot", cli->rest[0], cli->rest[1]);
}

static int cr_plot_check_heatmap(const struct cr_cli *cli)
{
	char err[256];

	if (cr_plot_no_compare())
		return CR_USAGE;
	if (cli->nrest) {
		fprintf(stderr, "clkstat-report: plot: --kind heatmap takes no argument ('%s'): --type SEL chooses the events\n",
			cli->rest[0]);
		return CR_USAGE;
	}
	if (!cr_po.type)
		cr_po.type = CR_PLOT_HEAT_TYPE;
	if (cr_xc_sel_parse(cr_po.type, &cr_po.sel, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: plot: --type: %s\n", err);
		return CR_USAGE;
	}
	return CR_OK;
}

static int cr_plot_check(const struct cr_cli *cli)
{
	enum cr_fig_format fmt;

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
	switch (cr_po.kind) {
	case CR_PLOT_XCORR:
		return cr_plot_check_xcorr(cli);
	case CR_PLOT_HEATMAP:
		return cr_plot_check_heatmap(cli);
	default:
		return cr_plot_check_compare(cli);
	}
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

/*
 * The heat map's run: --run's, else the first (of --variant's) with
 * events.  CR_OK and *r, or a status with one line.
 */
static int cr_plot_heat_run(struct cr_snapshot *s, struct cr_run **r)
{
	const char *variant = cr_xcorr_settings()->variant;
	long run = cr_input_run();
	size_t i, nsel = 0;

	if (run >= 0 && (size_t)run >= s->nruns) {
		fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
			run, s->nruns, s->nruns ? s->nruns - 1 : 0);
		return CR_USAGE;
	}
	for (i = 0; i < s->nruns; i++) {
		*r = &s->runs[i];
		if ((run >= 0 && (size_t)run != i) ||
		    (variant && strcmp(variant, (*r)->variant)))
			continue;
		nsel++;
		if ((*r)->events.present && (*r)->events.n)
			return CR_OK;
		if (run >= 0) {
			fprintf(stderr, "clkstat-report: plot: run %ld (%s) %s: no events for a heat map\n",
				run, (*r)->variant, (*r)->events.present ?
				"has no events" : "was recorded without --events");
			return CR_ERR;
		}
	}
	if (!nsel) {
		fprintf(stderr, "clkstat-report: plot: no run of variant %s in the input\n",
			variant);
		return CR_USAGE;
	}
	fprintf(stderr, "clkstat-report: plot: no %srun has events for a heat map (record them with record --events N)\n",
		variant ? "selected " : "");
	return CR_ERR;
}

/* The figures of the events: xcorr's, the heat map. */
static int cr_plot_events(struct cr_snapshot *s, const struct cr_cli *cli,
			  const struct cr_plot_opts *po, struct cr_figure *f)
{
	const struct cr_xcorr_settings *xo = cr_xcorr_settings();
	struct cr_xc_runs x = { 0 };
	struct cr_xc_params p;
	struct cr_xc_take t;
	struct cr_run *r;
	int st;

	if (cr_po.kind == CR_PLOT_HEATMAP) {
		st = cr_plot_heat_run(s, &r);
		if (st)
			return st;
		return cr_plot_heatmap(s, r, &cr_po.sel, cr_po.type,
				       xo->bin_given ? xo->bin : 0, po, f);
	}
	cr_xcorr_params(&p, po->seed);
	cr_xcorr_take(&t, "plot");
	t.say_no_events = NULL;		/* on the figure, errors one line */
	st = cr_xc_runs_compute(s, &t, &p, &x);
	if (!st)
		st = cr_plot_xcorr(s, &x, xo->bin, cli->rest[0], cli->rest[1], f);
	cr_xc_runs_free(&x);
	return st;
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

	cr_fig_format_of(cr_po.out, &fmt);	/* checked */
	st = cr_input_read(&s);
	if (st)
		return st;
	po = (struct cr_plot_opts){
		.unit = cr_po.unit, .resamples = co.resamples,
		.seed = co.seed, .level = co.level,
	};
	if (cr_po.kind == CR_PLOT_XCORR || cr_po.kind == CR_PLOT_HEATMAP) {
		st = cr_plot_events(&s, cli, &po, &f);
		if (st)
			goto out;
		goto draw;
	}
	co.metric = cr_po.metric;
	co.format = "text";
	/* The fleet's own row is the host unit's (host-fixed if asked). */
	if (cr_po.kind == CR_PLOT_FLEET)
		co.unit_host = 1;
	st = cr_compare_collect(&s, &co, &d);
	if (st)
		goto out;
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
		st = cr_plot_fleet(&s, &d, m, &po, &f);
		break;
	}
	if (st)
		goto out;
draw:
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
	&cr_input_opts, &cr_compare_opts, &cr_plot_optset, &cr_xcorr_plot_opts,
	NULL,
};

const struct cr_command cr_cmd_plot = {
	.name = "plot",
	.summary = "a figure of a recording: SVG, PNG or PDF, drawn by gnuplot",
	.synopsis =
	"       clkstat-report plot -i FILE... --compare F [--base G] [--kind K]\n"
	"                      [--metric M] [--time-unit U] -o FILE.svg|.png|.pdf\n"
	"       clkstat-report plot -i FILE... --kind xcorr A B | --kind heatmap\n"
	"                      [--type SEL] [--run N] [--bin DUR] ... -o FILE\n",
	.opts = cr_plot_optsets,
	.max_args = 2,
	.check = cr_plot_check,
	.run = cr_plot_cmd,
};
