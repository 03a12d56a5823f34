// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_events.c - clkstat-report events: the event log, one row per event, in
 * text, CSV or JSON Lines (tools/lib/render_events.c), from the live
 * module (GET_EVENTS; the variant column is the one attached now, from
 * GET_INFO, the run column empty) or from every run of --input snapshots
 * recorded with --events (or --run N alone), filtered by --variant and
 * --type.  A run recorded without events is named on stderr; none with
 * any is an error.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../lib/nl.h"
#include "../lib/render_events.h"
#include "../lib/status.h"
#include "args.h"
#include "cli.h"
#include "input.h"

enum { O_TYPE = CR_OPT_EVENTS, O_VARIANT };

static struct {
	unsigned int types;
	const char *variant;
	enum cr_ev_fmt fmt;
} cr_evo = { .types = CR_EV_ALL_TYPES };

static int cr_events_take(int c, const char *v)
{
	char err[256];

	if (c == O_VARIANT) {
		cr_evo.variant = v;
		return CR_OK;
	}
	if (cr_ev_types_parse(v, &cr_evo.types, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: %s\n", err);
		return CR_USAGE;
	}
	return CR_OK;
}

static const struct option cr_events_table[] = {
	{ "type", required_argument, NULL, O_TYPE },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_events_opts = {
	.opts = cr_events_table,
	.take = cr_events_take,
	.help =
	"      --type T[,T]    only these event types\n"
	"      --variant V     only the runs of variant V\n",
};

static int cr_events_check(const struct cr_cli *cli)
{
	int st = cr_input_check();

	if (st)
		return st;
	if (!strcmp(cli->format, "json")) {
		fprintf(stderr, "clkstat-report: events writes JSON Lines: --format jsonl\n");
		return CR_USAGE;
	}
	if (cr_ev_fmt_parse(cli->format, &cr_evo.fmt)) {
		fprintf(stderr, "clkstat-report: events: --format '%s': text, csv or jsonl\n",
			cli->format);
		return CR_USAGE;
	}
	return CR_OK;
}

/* The live log, with a clock pair taken now for its realtime column. */
static int from_module(void)
{
	struct cr_events x = { 0 };
	struct cr_ev_src src;
	struct timespec mono, real;
	struct cr_info info;
	struct cr_nl *nl;
	int st;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	st = cr_nl_get_info(nl, &info);
	if (!st)
		st = cr_nl_get_events(nl, &info, &x);
	cr_nl_close(nl);
	if (st)
		goto out;
	if (cr_evo.variant && strcmp(cr_evo.variant, info.variant)) {
		fprintf(stderr, "clkstat-report: events: --variant %s: the module's variant is %s\n",
			cr_evo.variant, info.variant);
		st = CR_USAGE;
		goto out;
	}
	/* The module's timestamps are CLOCK_MONOTONIC, as clkstat_events.h says. */
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	x.clock[0].mono_ns = mono.tv_sec * 1000000000LL + mono.tv_nsec;
	x.clock[0].realtime_ns = real.tv_sec * 1000000000LL + real.tv_nsec;
	x.nclock = 1;
	src = (struct cr_ev_src){ .ev = &x, .run = -1, .variant = info.variant,
				  .clock = *info.clock ? info.clock : NULL };
	st = cr_render_events(stdout, stderr, cr_evo.fmt, &src, 1, cr_evo.types);
out:
	cr_events_free(&x);
	return st;
}

static int from_snapshots(void)
{
	struct cr_snapshot s = { 0 };
	struct cr_ev_src *src = NULL;
	const struct cr_run **none = NULL;
	long run = cr_input_run();
	size_t i, n = 0, nsel = 0, nnone = 0;
	const struct cr_run *r;
	int st;

	st = cr_input_read(&s);
	if (st)
		return st;
	if (run >= 0 && (size_t)run >= s.nruns) {
		fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
			run, s.nruns, s.nruns ? s.nruns - 1 : 0);
		st = CR_USAGE;
		goto out;
	}
	src = calloc(s.nruns ? s.nruns : 1, sizeof(*src));
	none = calloc(s.nruns ? s.nruns : 1, sizeof(*none));
	if (!src || !none) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		st = CR_ERR;
		goto out;
	}
	for (i = 0; i < s.nruns; i++) {
		r = &s.runs[i];
		if ((run >= 0 && (size_t)run != i) ||
		    (cr_evo.variant && strcmp(cr_evo.variant, r->variant)))
			continue;
		nsel++;
		if (!r->events.present) {
			none[nnone++] = r;
			continue;
		}
		/* The run's events are loaded as it is rendered. */
		src[n++] = (struct cr_ev_src){
			.snap = &s, .r = &s.runs[i], .run = r->index,
			.variant = r->variant,
			/* The twin stamps with bpf_ktime_get_ns(): mono. */
			.clock = !strncmp(r->variant, "bpf-", 4) ? "mono" :
				 s.inputs[r->input].meta.clock,
		};
	}
	cr_input_say_no_events(&s, none, nnone);
	if (!nsel) {
		fprintf(stderr, "clkstat-report: events: no run of variant %s in the input\n",
			cr_evo.variant);
		st = CR_USAGE;
	} else if (!n) {
		fprintf(stderr, "clkstat-report: events: no run %shas events (record them with record --events N)\n",
			nsel > 1 ? "selected " : "");
		st = CR_ERR;
	} else {
		st = cr_render_events(stdout, stderr, cr_evo.fmt, src, n,
				      cr_evo.types);
	}
out:
	free(src);
	free(none);
	cr_snapshot_free(&s);
	return st;
}

static int cr_events_cmd(struct cr_cli *cli)
{
	(void)cli;
	return cr_input_count() ? from_snapshots() : from_module();
}

static const struct cr_optset *const cr_events_optsets[] = {
	&cr_input_opts, &cr_format_opts, &cr_events_opts, NULL,
};

const struct cr_command cr_cmd_events = {
	.name = "events",
	.summary = "the event log, live or recorded: text, CSV, JSON Lines",
	.synopsis =
	"       clkstat-report events [-i FILE...] [--format text|csv|jsonl] [--run N]\n"
	"                      [--variant V] [--type T[,T...]]\n",
	.opts = cr_events_optsets,
	.check = cr_events_check,
	.run = cr_events_cmd,
};
