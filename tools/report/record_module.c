// SPDX-License-Identifier: GPL-2.0
/*
 * record_module.c - a run of a clkstat.ko variant, record's first way to
 * record (record.h): switch to the variant, stop, reset, start, the
 * workload, stop, and every metric of that variant read over netlink
 * (and the event log, which the reset emptied, with --events).  With
 * --workload-only the module's tgid filter is the held workload's pid for
 * the run, as the BPF twin's is: both sides see the same tasks.
 */
#include <stdio.h>
#include <string.h>
#include "../lib/status.h"
#include "record.h"

/* Keep only the metrics of variant v (the dump has every variant's). */
static void cr_keep_variant(struct cr_run *r, const char *v)
{
	size_t i, n = 0;

	for (i = 0; i < r->nmetrics; i++) {
		if (!strcmp(r->metrics[i].variant, v))
			r->metrics[n++] = r->metrics[i];
		else
			cr_metric_free(&r->metrics[i]);
	}
	r->nmetrics = n;
}

static int cr_module_gates(const struct cr_rec_run *r)
{
	return r->o->command && r->o->workload_only;
}

/* The module's tgid filter: the workload's for a gated run, else as found. */
static int cr_module_tgid(struct cr_rec_run *r, pid_t tgid)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", (int)tgid);
	return cr_nl_ctrl(r->nl, "tgid", buf);
}

static const char *cr_module_marker(const struct cr_rec_run *r)
{
	(void)r;
	return CR_MARKER_MODULE;
}

static int cr_module_open(struct cr_rec_run *r)
{
	return cr_nl_ctrl(r->nl, "variant", r->variant);
}

static int cr_module_start(struct cr_rec_run *r)
{
	int st = cr_nl_ctrl(r->nl, "stop", NULL);

	if (!st && r->tgid)
		st = cr_module_tgid(r, r->tgid);
	if (!st)
		st = cr_nl_ctrl(r->nl, "reset", NULL);
	if (!st)
		st = cr_nl_ctrl(r->nl, "start", NULL);
	return st;
}

static int cr_module_stop(struct cr_rec_run *r)
{
	return cr_nl_ctrl(r->nl, "stop", NULL);
}

static int cr_module_read(struct cr_rec_run *r, struct cr_run *out)
{
	int st = cr_nl_get_hist(r->nl, out);

	/* The run's reset emptied the log: what it holds is the run's. */
	if (!st && r->o->events)
		st = cr_nl_get_events(r->nl, r->info, &out->events);
	if (!st)
		cr_keep_variant(out, r->variant);
	return st;
}

/* However the run ended: the filter as record found it. */
static void cr_module_close(struct cr_rec_run *r)
{
	if (r->tgid)
		cr_module_tgid(r, r->info->tgid);
}

const struct cr_rec_backend cr_rec_module = {
	.gates = cr_module_gates,
	.marker = cr_module_marker,
	.open = cr_module_open,
	.start = cr_module_start,
	.stop = cr_module_stop,
	.read = cr_module_read,
	.close = cr_module_close,
};
