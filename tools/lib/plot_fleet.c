// SPDX-License-Identifier: GPL-2.0
/*
 * plot_fleet.c - the fleet figure (plot.h): one row per host, Δ median
 * of the variant against the base on that host's runs alone with the
 * run-level interval (what --compare gives on that host's file alone),
 * and below them the fleet's row, --compare --unit host's own result.
 * The hosts' rows show which machine moves the fleet's number; the
 * fleet's row is the interval for machines of this kind in general
 * (Documentation/clkstat-compare.rst, "Machines").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bootstrap.h"
#include "plot.h"
#include "render_common.h"
#include "status.h"

/* The runs of side sd on host h: their histograms and hosts, *n. */
static void cr_fleet_pick(const struct cr_compare_side *sd, unsigned int h,
			  const struct cr_hist **hists, unsigned int *hosts,
			  size_t *n)
{
	size_t j;

	*n = 0;
	for (j = 0; j < sd->n; j++) {
		if (sd->hosts[j] != h)
			continue;
		hists[*n] = sd->hists[j];
		hosts[(*n)++] = h;
	}
}

/* Host h's name: that of its first run on either side. */
static const char *cr_fleet_name(const struct cr_snapshot *s,
				 const struct cr_compare_side *sd,
				 unsigned int h)
{
	size_t j;
	int k;

	for (k = 0; k < 2; k++)
		for (j = 0; j < sd[k].n; j++)
			if (sd[k].hosts[j] == h)
				return cr_compare_run_host(s, sd[k].runs[j]);
	return "?";
}

static int cr_fleet_point(struct cr_fig_series *ser, const struct cr_boot_ci *c,
			  double y, double scale)
{
	double pt[CR_FIG_NCOLS] = {
		[CR_FIG_X] = c->value / scale, [CR_FIG_Y] = y,
		[CR_FIG_X2] = c->lo / scale, [CR_FIG_Y2] = NAN,
		[CR_FIG_X3] = c->hi / scale,
	};

	return cr_fig_point(ser, pt, CR_FIG_X3 + 1);
}

/* One more name for a warning's list, while it fits. */
static void cr_fleet_list(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

int cr_plot_fleet(const struct cr_snapshot *s, const struct cr_compare_data *d,
		  size_t m, const struct cr_plot_opts *o, struct cr_figure *f)
{
	const struct cr_compare_metric *cm = &d->res.metrics[m];
	const struct cr_compare_side *sd = d->side[m];
	struct cr_boot_params bp = {
		.resamples = o->resamples, .level = o->level, .seed = o->seed,
	};
	const struct cr_hist **hists[2] = { NULL, NULL };
	unsigned int *hosts[2] = { NULL, NULL }, nh = 0, h;
	struct cr_boot_stratum_in in[2];
	struct cr_boot_result r;
	struct cr_fig_series *rows, *fleet;
	char t[512], sub[512], one[512] = "", few[512] = "";
	double scale, y;
	enum cr_unit u;
	size_t j, n[2], drawn = 0;
	int k, err;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < 2; k++)
		for (j = 0; j < sd[k].n; j++)
			if (sd[k].hosts[j] + 1 > nh)
				nh = sd[k].hosts[j] + 1;
	u = cr_plot_unit(o, cm->r.s[0].stat[CR_BOOT_MEDIAN].value);
	scale = (double)cr_unit_ns(u);
	snprintf(t, sizeof(t), "%s: %s against %s per host, and the fleet (--unit %s), %g%%",
		 cm->name, d->res.variant, d->res.base,
		 d->res.host_fixed ? "host-fixed" : "host", 100 * d->res.level);
	cr_plot_subtitle(s, sub, sizeof(sub));
	if (cr_fig_init(f, "fleet", t, sub))
		return cr_plot_oom(f);
	cr_plot_time_label(t, sizeof(t), "Δ median, variant minus base", u);
	if (cr_fig_axis(&f->x, t, 0) || cr_fig_axis(&f->y, "", 0) ||
	    cr_fig_mark(f, "no difference", 0, 0))
		return cr_plot_oom(f);
	rows = cr_fig_series(f, "each host alone: its runs, run-level interval",
			     CR_FIG_XERR, 1);
	fleet = rows ? cr_fig_series(f, "the fleet: hosts, then runs within each",
				     CR_FIG_XERR, 0) : NULL;
	if (!fleet)
		return cr_plot_oom(f);
	rows = &f->series[f->nseries - 2];
	for (k = 0; k < 2; k++) {
		hists[k] = calloc(sd[k].n ? sd[k].n : 1, sizeof(*hists[k]));
		hosts[k] = calloc(sd[k].n ? sd[k].n : 1, sizeof(*hosts[k]));
		if (!hists[k] || !hosts[k])
			goto nomem;
	}
	/* The hosts top down in the order of the input, the fleet below. */
	for (h = 0; h < nh; h++) {
		for (k = 0; k < 2; k++) {
			cr_fleet_pick(&sd[k], h, hists[k], hosts[k], &n[k]);
			in[k] = (struct cr_boot_stratum_in){
				.frac_bits = cm->frac_bits, .nruns = n[k],
				.runs = hists[k], .host = hosts[k],
			};
		}
		if (!n[0] || !n[1]) {
			/* No run of one side (or of the metric) there. */
			if (n[0] || n[1])
				cr_fleet_list(one, sizeof(one),
					      cr_fleet_name(s, sd, h));
			continue;
		}
		err = cr_boot_compare(&in[0], &in[1], &bp, &r);
		if (err == -ENOMEM)
			goto nomem;
		if (err) {
			fprintf(stderr, "clkstat-report: plot: host %s: the bootstrap refused its runs (%s)\n",
				cr_fleet_name(s, sd, h), strerror(-err));
			free(hists[0]);
			free(hists[1]);
			free(hosts[0]);
			free(hosts[1]);
			cr_fig_free(f);
			return CR_ERR;
		}
		if (n[0] < CR_BOOT_FEW_RUNS || n[1] < CR_BOOT_FEW_RUNS)
			cr_fleet_list(few, sizeof(few), cr_fleet_name(s, sd, h));
		y = (double)(nh - h) + 1;
		if (cr_fleet_point(rows, &r.diff[CR_BOOT_D_MEDIAN], y, scale) ||
		    cr_fig_tic(&f->y, cr_fleet_name(s, sd, h), y))
			goto nomem;
		drawn++;
	}
	for (k = 0; k < 2; k++) {
		free(hists[k]);
		free(hosts[k]);
	}
	if (drawn < 2) {
		fprintf(stderr, "clkstat-report: plot: --kind fleet needs runs of both %s and %s on at least two hosts (%zu here; a run's host: Documentation/clkstat-compare.rst, \"Machines\")\n",
			d->res.base, d->res.variant, (size_t)drawn);
		cr_fig_free(f);
		return CR_ERR;
	}
	snprintf(t, sizeof(t), "fleet (%zu hosts)", drawn);
	if (cr_fleet_point(fleet, &cm->r.diff[CR_BOOT_D_MEDIAN], 0, scale) ||
	    cr_fig_tic(&f->y, t, 0))
		return cr_plot_oom(f);
	f->y.have_range = 1;
	f->y.lo = -1;
	f->y.hi = (double)nh + 2;
	if ((*one && cr_fig_warn(f, "warning: hosts without runs of both sides, not drawn: %s", one)) ||
	    (*few && cr_fig_warn(f, "warning: hosts with fewer than %d runs of a side, their intervals narrower than their level: %s",
				 CR_BOOT_FEW_RUNS, few)) ||
	    cr_plot_warnings(f, d, m))
		return cr_plot_oom(f);
	return CR_OK;
nomem:
	for (k = 0; k < 2; k++) {
		free(hists[k]);
		free(hosts[k]);
	}
	return cr_plot_oom(f);
}
