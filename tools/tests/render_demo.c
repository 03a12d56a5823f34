// SPDX-License-Identifier: GPL-2.0
/*
 * render_demo.c - a made-up run through clkstat-report's renderers, for
 * eyes and for tools/tests/openmetrics_check.sh:
 *
 *   render_demo text|csv|json|openmetrics|prometheus|raw [--per-cpu] [--no-hist]
 *               [--metric NAME[.VARIANT]] [--wide] [--weird] [--seed N]
 *               [--grid SPEC]
 *
 * The run: ttwu_enqueue.direct (frac_bits 3, 20000 samples from 300 ns to
 * about 2 ms on CPUs 0-3, counters), tkread.direct (frac_bits 5, narrow,
 * CPU 1), tiny.direct (frac_bits 3: 1, 1, 3, 5, 5, 5, 5 on CPU 0) and
 * idle.direct (no samples, a zero counter).  --wide adds wide.direct
 * (frac_bits 2, samples from 0 to U64_MAX, the last slot included);
 * --weird adds a metric whose name and variant need escaping in every
 * format (a quote, a backslash, a comma, a newline), and the same in the
 * host label.  --seed N (N > 0) draws other samples, and more of them:
 * other data on the same grid.  The expositions (openmetrics,
 * prometheus) have the labels host, kernel and clocksource, every metric
 * a _created time, the first one its resets, and with --per-cpu every CPU
 * of 4; --grid is clkstat-report's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/grid.h"
#include "../lib/render.h"
#include "../lib/status.h"
#include "hist_build.h"

static void demo_run(struct cr_run *r, int wide, int weird,
		     unsigned long seed)
{
	struct cr_metric *m;
	uint64_t st = 0x9E3779B97F4A7C15ULL ^ seed * 0xD1B54A32D192ED03ULL, v;
	unsigned int i, n = 20000 + (unsigned int)(seed % 5000);

	m = hb_metric(r, "ttwu_enqueue", "direct", 3);
	for (i = 0; i < n; i++) {
		/* log-uniform over 300 ns .. 300 us, 1% up to 2 ms */
		double x = (double)(hb_rand(&st) >> 11) / 9007199254740992.0;

		v = (uint64_t)(300 * exp2(x * (i % 100 ? 10 : 12.7)));
		hb_sample(m, (uint32_t)(hb_rand(&st) % 4), v);
	}
	hb_counter(m, "wakeups", n);
	hb_counter(m, "migrated", 1234);

	m = hb_metric(r, "tkread", "direct", 5);
	for (i = 0; i < 5000; i++)
		hb_sample(m, 1, 40 + hb_rand(&st) % 60);

	m = hb_metric(r, "tiny", "direct", 3);
	hb_sample(m, 0, 1);
	hb_sample(m, 0, 1);
	hb_sample(m, 0, 3);
	for (i = 0; i < 4; i++)
		hb_sample(m, 0, 5);

	m = hb_metric(r, "idle", "direct", 3);
	hb_counter(m, "wakeups", 0);

	if (wide) {
		m = hb_metric(r, "wide", "direct", 2);
		hb_sample(m, 0, 0);
		for (i = 0; i < 64; i++)
			hb_sample(m, i % 3, (uint64_t)1 << i);
		hb_sample(m, 2, UINT64_MAX);
		hb_counter(m, "wakeups", 66);
	}
	if (weird) {
		m = hb_metric(r, "we\"ird\\name,x", "v\nar", 3);
		hb_sample(m, 0, 100);
		hb_counter(m, "odd\"counter", 1);
		/* A user-defined probe's: its spec, 63 bytes, ':' and '-'. */
		m = hb_metric(r, "sec:clkstat_tt_sec_begin_long_names-clkstat_tt_sec_end:exit:cpu",
			      "kprobe-int3", 3);
		hb_sample(m, 1, 20480);
		hb_counter(m, "unmatched", 1);
	}
}

int main(int argc, char **argv)
{
	struct cr_render_opts o = { .source = "render_demo", .nruns = 1 };
	struct cr_run r = { .exit_status = -1 };
	int wide = 0, weird = 0, i, st;
	unsigned long seed = 0;
	struct cr_grid g;
	const char *fmt;
	char err[256];

	if (argc < 2) {
		fprintf(stderr, "usage: render_demo text|csv|json|openmetrics|prometheus|raw [--per-cpu] [--no-hist] [--metric NAME] [--wide] [--weird] [--seed N] [--grid SPEC]\n");
		return CR_USAGE;
	}
	fmt = argv[1];
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--per-cpu"))
			o.per_cpu = 1;
		else if (!strcmp(argv[i], "--no-hist"))
			o.no_hist = 1;
		else if (!strcmp(argv[i], "--metric") && i + 1 < argc)
			o.metric = argv[++i];
		else if (!strcmp(argv[i], "--wide"))
			wide = 1;
		else if (!strcmp(argv[i], "--weird"))
			weird = 1;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--grid") && i + 1 < argc &&
			 !o.grid) {
			if (cr_grid_parse(argv[++i], &g, err, sizeof(err))) {
				fprintf(stderr, "render_demo: %s\n", err);
				return CR_USAGE;
			}
			o.grid = &g;
		} else {
			fprintf(stderr, "render_demo: unknown argument %s\n",
				argv[i]);
			if (o.grid)
				cr_grid_free(&g);
			return CR_USAGE;
		}
	}
	demo_run(&r, wide, weird, seed);
	/* What serve knows of a live module: labels, starts, resets, CPUs. */
	o.host = weird ? "demo\"host\\\n" : "demo";
	o.kernel = "6.12.0-demo";
	o.clocksource = "tsc";
	o.nr_cpus = 4;
	for (i = 0; i < (int)r.nmetrics; i++)
		r.metrics[i].created_ns = 1764031200123456789ULL + i;
	r.metrics[0].has_resets = 1;
	r.metrics[0].resets = 3;
	r.has_reentered = 1;
	r.reentered = 2;
	if (!strcmp(fmt, "text"))
		st = cr_render_text(stdout, &r, &o);
	else if (!strcmp(fmt, "csv"))
		st = cr_render_csv(stdout, &r, &o);
	else if (!strcmp(fmt, "json"))
		st = cr_render_json(stdout, &r, &o);
	else if (!strcmp(fmt, "openmetrics"))
		st = cr_render_openmetrics(stdout, &r, &o);
	else if (!strcmp(fmt, "prometheus")) {
		o.prometheus_text = 1;
		st = cr_render_openmetrics(stdout, &r, &o);
	}
	else if (!strcmp(fmt, "raw"))
		st = cr_render_raw(stdout, &r, &o);
	else {
		fprintf(stderr, "render_demo: unknown format %s\n", fmt);
		st = CR_USAGE;
	}
	cr_run_free(&r);
	if (o.grid)
		cr_grid_free(&g);
	return st;
}
