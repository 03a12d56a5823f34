// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - clkstat-report events: the event log, one row per event, in
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
#include "cli.h"

enum { O_TYPE = CR_OPT_EVENTS, O_VARIANT };

static struct {
	unsigned int types;
	const char *variant;
	enum cr_ev_fmt fmt;
} cr_evo = { .types = CR_EV_ALL_TYPES };

const char cr_events_synopsis[] =
	"       clkstat-report events [-i FILE...] [--format text|csv|jsonl] [--run N]\n"
	"                      [--variant V] [--type T[,T...]]\n";

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

const struct cr_optset cr_events_opts = {
	.opts = cr_events_table,
	.take = cr_events_take,
	.help =
	"      --type T[,T]    events: only these event types\n"
	"      --variant V     events, xcorr: only the runs of variant V\n",
};

/* --variant V of events and xcorr, or NULL. */
const char *cr_events_variant(void)
{
	return cr_evo.variant;
}

int cr_events_check(const struct cr_cli *cli)
{
	int events = !strcmp(cli->cmd, "events");

	if (cr_evo.types != CR_EV_ALL_TYPES && !events) {
		fprintf(stderr, "clkstat-report: --type is for events\n");
		return CR_USAGE;
	}
	if (cr_evo.variant && !events && strcmp(cli->cmd, "xcorr")) {
		fprintf(stderr, "clkstat-report: --variant is for events and xcorr (record takes --variants)\n");
		return CR_USAGE;
	}
	if (!events)
		return CR_OK;
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

void cr_events_say_missing(const struct cr_snapshot *s,
			   const struct cr_run *const *runs, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(stderr, "clkstat-report: run%s ", n > 1 ? "s" : "");
	for (i = 0; i < n; i++) {
		fprintf(stderr, "%s%u (%s)", i ? ", " : "", runs[i]->index,
			runs[i]->variant);
		if (s->ninputs > 1)
			fprintf(stderr, " of %s", s->inputs[runs[i]->input].path);
	}
	fprintf(stderr, " %s recorded without --events\n",
		n > 1 ? "were" : "was");
}

static int from_snapshots(void)
{
	struct cr_snapshot s = { 0 };
	struct cr_ev_src *src = NULL;
	const struct cr_run **none = NULL;
	long run = cr_report_run();
	size_t i, n = 0, nsel = 0, nnone = 0;
	const struct cr_run *r;
	int st;

	st = cr_report_read_inputs(&s);
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
		src[n++] = (struct cr_ev_src){
			.ev = &r->events, .run = r->index, .variant = r->variant,
			/* The twin stamps with bpf_ktime_get_ns(): mono. */
			.clock = !strncmp(r->variant, "bpf-", 4) ? "mono" :
				 s.inputs[r->input].meta.clock,
		};
	}
	cr_events_say_missing(&s, none, nnone);
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

int cr_events_cmd(struct cr_cli *cli)
{
	(void)cli;
	return cr_report_ninputs() ? from_snapshots() : from_module();
}
