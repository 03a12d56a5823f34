// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - what report, info, raw and serve render (output.h): the
 * options, their checks, and the expositions' labels.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "../lib/grid.h"
#include "../lib/nl.h"
#include "../lib/render_common.h"
#include "../lib/status.h"
#include "output.h"

enum { O_PER_CPU = CR_OPT_OUTPUT, O_METRIC, O_NO_HIST, O_UNIT, O_GRID,
       O_HOST };

static struct {
	struct cr_render_opts render;
	const char *grid_spec;		/* --grid, NULL: the default */
	const char *host;		/* --host, NULL: this machine's name */
	struct cr_grid grid;
	struct cr_om_said unfit_said;	/* serve's, of the metrics left out */
	/* The label values of the expositions (cr_output_expo_labels()). */
	char host_buf[256], kernel_buf[65], cs_buf[32];
	int host_said;			/* the invalid host name warned of */
} cr_out;

/* --per-cpu, --metric, --no-hist: what is rendered. */
static int cr_output_take(int c, const char *v)
{
	switch (c) {
	case O_PER_CPU:
		cr_out.render.per_cpu = 1;
		break;
	case O_METRIC:
		cr_out.render.metric = v;
		break;
	case O_GRID:
		cr_out.grid_spec = v;
		break;
	case O_HOST:
		cr_out.host = v;
		break;
	case O_UNIT:
		if (cr_unit_parse(v, &cr_out.render.unit)) {
			fprintf(stderr, "clkstat-report: --time-unit '%s': ns, us or ms\n",
				v);
			return CR_USAGE;
		}
		break;
	default: /* O_NO_HIST */
		cr_out.render.no_hist = 1;
		break;
	}
	return CR_OK;
}

static const struct option cr_output_table[] = {
	{ "per-cpu", no_argument, NULL, O_PER_CPU },
	{ "metric", required_argument, NULL, O_METRIC },
	{ "no-hist", no_argument, NULL, O_NO_HIST },
	{ "time-unit", required_argument, NULL, O_UNIT },
	{ "grid", required_argument, NULL, O_GRID },
	{ "host", required_argument, NULL, O_HOST },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_output_opts = {
	.opts = cr_output_table,
	.take = cr_output_take,
	.help =
	"      --per-cpu       every CPU's histogram too\n"
	"      --metric NAME   only metric NAME (or NAME.VARIANT)\n"
	"      --no-hist       text: the summaries without histograms\n"
	"      --time-unit U   text, CSV: numbers and histogram bounds in ns, us or ms\n"
	"                      (default: text in human units, CSV in ns)\n"
	"      --grid BITS[:LO:HI]  openmetrics, prometheus, serve: the le bounds,\n"
	"                      every slot of BITS frac_bits from LO to HI (default " CR_GRID_DEFAULT ")\n"
	"      --host NAME     openmetrics, prometheus, serve: the host label\n"
	"                      (default: this machine's name; a snapshot's host)\n",
};

int cr_output_exposition(const char *format)
{
	return !strcmp(format, "openmetrics") || !strcmp(format, "prometheus");
}

/* --grid and --host: for the expositions only; the grid parsed. */
static int cr_output_check_grid(const struct cr_cli *cli)
{
	char err[256];
	int r;

	if ((cr_out.grid_spec || cr_out.host) &&
	    !(cr_output_exposition(cli->format) || !strcmp(cli->cmd, "serve"))) {
		fprintf(stderr, "clkstat-report: --grid and --host are for --format openmetrics or prometheus and serve\n");
		return CR_USAGE;
	}
	if (cr_out.host && (!*cr_out.host || strlen(cr_out.host) >= sizeof(cr_out.host_buf))) {
		fprintf(stderr, "clkstat-report: --host '%s': 1 to %zu bytes\n",
			cr_out.host, sizeof(cr_out.host_buf) - 1);
		return CR_USAGE;
	}
	/* Prometheus would refuse every scrape, not just the label. */
	if (cr_out.host && !cr_render_label_ok(cr_out.host)) {
		fprintf(stderr, "clkstat-report: --host: not valid UTF-8, which a label value must be\n");
		return CR_USAGE;
	}
	r = cr_grid_parse(cr_out.grid_spec ? cr_out.grid_spec : CR_GRID_DEFAULT,
			  &cr_out.grid, err, sizeof(err));
	if (r) {
		fprintf(stderr, "clkstat-report: %s\n", err);
		return r == -ENOMEM ? CR_ERR : CR_USAGE;
	}
	cr_out.render.grid = &cr_out.grid;
	/*
	 * report names the metrics left out before it renders (render());
	 * serve renders at every scrape, and says them when they change.
	 */
	if (!strcmp(cli->cmd, "serve")) {
		cr_out.unfit_said.who = "clkstat-report: serve";
		cr_out.render.unfit_said = &cr_out.unfit_said;
	}
	return CR_OK;
}

int cr_output_check(const struct cr_cli *cli)
{
	if (cr_out.render.unit != CR_UNIT_AUTO &&
	    (strcmp(cli->cmd, "report") ||
	     (strcmp(cli->format, "text") && strcmp(cli->format, "csv")))) {
		fprintf(stderr, "clkstat-report: --time-unit is for the report's text and CSV (JSON is in ns, OpenMetrics in seconds, raw in the module's units)\n");
		return CR_USAGE;
	}
	return cr_output_check_grid(cli);
}

struct cr_render_opts *cr_output_render(void)
{
	return &cr_out.render;
}

void cr_output_expo_labels(const struct cr_info *info,
			   const struct cr_meta *meta)
{
	struct utsname u;
	const char *host = cr_out.host;

	cr_out.render.host = cr_out.render.kernel = NULL;
	cr_out.render.clocksource = NULL;
	/* A snapshot's host as --compare --unit host sees it (a tag, its meta). */
	if (!host && meta)
		host = cr_meta_host(meta);
	memset(cr_out.host_buf, 0, sizeof(cr_out.host_buf));
	/*
	 * A machine without a name (the kernel's "(none)", as a bare guest
	 * has) gets no host label.
	 */
	if (!host && info && !gethostname(cr_out.host_buf,
					  sizeof(cr_out.host_buf) - 1) &&
	    cr_out.host_buf[0] && strcmp(cr_out.host_buf, "(none)"))
		host = cr_out.host_buf;
	if (host && host != cr_out.host_buf)
		snprintf(cr_out.host_buf, sizeof(cr_out.host_buf), "%s", host);
	/*
	 * A snapshot's or the machine's name that is not UTF-8, or was cut
	 * inside a character, would make Prometheus refuse the whole scrape:
	 * no host label then (--host was checked when given).
	 */
	if (host && !cr_render_label_ok(cr_out.host_buf)) {
		if (!cr_out.host_said)
			fprintf(stderr, "clkstat-report: warning: the host name is not valid UTF-8: no host label (--host NAME gives one)\n");
		cr_out.host_said = 1;
		host = NULL;
	}
	if (host)
		cr_out.render.host = cr_out.host_buf;
	if (meta && meta->kernel_release) {
		snprintf(cr_out.kernel_buf, sizeof(cr_out.kernel_buf), "%s",
			 meta->kernel_release);
		cr_out.render.kernel = cr_out.kernel_buf;
	} else if (info && !uname(&u)) {
		snprintf(cr_out.kernel_buf, sizeof(cr_out.kernel_buf), "%s",
			 u.release);
		cr_out.render.kernel = cr_out.kernel_buf;
	}
	if (info && *info->clocksource)
		snprintf(cr_out.cs_buf, sizeof(cr_out.cs_buf), "%s",
			 info->clocksource);
	else if (meta && meta->clocksource)
		snprintf(cr_out.cs_buf, sizeof(cr_out.cs_buf), "%s",
			 meta->clocksource);
	else
		return;
	cr_out.render.clocksource = cr_out.cs_buf;
}

const struct cr_grid *cr_output_grid(void)
{
	return &cr_out.grid;
}
