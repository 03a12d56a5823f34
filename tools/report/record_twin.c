// SPDX-License-Identifier: GPL-2.0
/*
 * record_twin.c - a run of the BPF twin (tools/bpf/twin.h), record's
 * other way to record (record.h): the module, if loaded, switched to its
 * variant "off" for the run (unless --keep-module), the twin loaded with
 * the module's probes, frac_bits and tgid filter (or --probes,
 * --frac-bits; with --workload-only the held workload's pid), started,
 * stopped, read and unloaded.  With the module loaded the twin's window is
 * the module's: the twin follows its start, stop, reset and tgid (its
 * clkstat_control trace event), and the run starts and stops the module
 * around the workload as a module run does, so that a workload that
 * narrows the module's window narrows the twin's alike; without it the
 * twin records from its start to its stop.  Documentation/clkstat-bpf.rst,
 * "Running it".
 */
#include <stdio.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_buckets.h"
#include "../bpf/twin_model.h"
#include "../lib/status.h"
#include "record.h"

/*
 * The module's user-defined probes, appended to the twin's list when
 * --probes does not give one: those that every bpf-* variant of names
 * reaches (tp: specs only bpf-tp, the others only bpf-kprobe and
 * bpf-fentry), so that each side measures the same traces.
 */
static void cr_twin_module_traces(const struct cr_info *info,
				  char names[][CR_VARIANT_MAX], unsigned int nv,
				  char *buf, size_t len)
{
	struct clkstat_trace_spec t;
	int tp = 0, fn = 0;
	unsigned int i;

	for (i = 0; i < nv; i++) {
		int v = twin_variant_parse(names[i]);

		if (v == TV_TP)
			tp = 1;
		else if (v >= 0)
			fn = 1;
	}
	for (i = 0; i < info->ntraces; i++) {
		if (clkstat_trace_parse(info->traces[i].spec, &t))
			continue;
		if ((t.kind == CLKSTAT_TRACE_TP) ? fn : tp)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 buf[0] ? "," : "", info->traces[i].spec);
	}
}

/*
 * The twin's configuration: --probes, else the module's probes that the
 * twin has and its traces (cr_twin_module_traces()), else ttwu,tkread;
 * --frac-bits, else the module's, else the
 * default; the module's tgid filter.  Every bpf-* variant of names must
 * accept it.
 */
int cr_rec_twin_config(const struct cr_record_opts *o,
		       const struct cr_info *info,
		       char names[][CR_VARIANT_MAX], unsigned int nv,
		       char *buf, size_t len, struct cr_twin_cfg *cfg)
{
	static const char *const have[] = {
		"ttwu", "tkread", "csswitch", "csread", "clockoff"
	};
	const size_t nhave = sizeof(have) / sizeof(have[0]);
	unsigned int i, mask;
	size_t j;
	int v;

	*cfg = (struct cr_twin_cfg){ .frac_bits = CLKSTAT_FRAC_BITS_DEFAULT };
	snprintf(buf, len, "%s", o->probes ? o->probes : "ttwu,tkread");
	if (!o->probes && info) {
		buf[0] = '\0';
		for (j = 0; j < nhave; j++) {
			/* info->probes is a comma list; match whole names. */
			char pat[40], list[160];

			snprintf(pat, sizeof(pat), ",%s,", have[j]);
			snprintf(list, sizeof(list), ",%s,", info->probes);
			if (strstr(list, pat))
				snprintf(buf + strlen(buf), len - strlen(buf),
					 "%s%s", buf[0] ? "," : "", have[j]);
		}
		cr_twin_module_traces(info, names, nv, buf, len);
		if (!buf[0]) {
			fprintf(stderr, "clkstat-report: record: the module's probes (%s) include none the BPF twin has (ttwu, tkread, csswitch, csread, clockoff): give --probes\n",
				info->probes);
			return CR_USAGE;
		}
	}
	cfg->probes = buf;
	if (o->frac_bits >= 0)
		cfg->frac_bits = o->frac_bits;
	else if (info)
		cfg->frac_bits = info->frac_bits;
	if (info)
		cfg->tgid = info->tgid;
	for (i = 0; i < nv; i++) {
		v = twin_variant_parse(names[i]);
		if (v >= 0 && twin_probes_parse(v, cfg->probes, &mask))
			return CR_USAGE;
	}
	return CR_OK;
}

/* --workload-only holds the workload: its pid is the twin's filter. */
static int cr_twin_gates(const struct cr_rec_run *r)
{
	return r->o->command && r->o->workload_only;
}

/* The twin catches the workload's writes to trace_marker. */
static const char *cr_twin_marker(const struct cr_rec_run *r)
{
	(void)r;
	return cr_rec_tracing_markers() ? CR_MARKER_TRACING : NULL;
}

/* A stopped clkstat hook still costs its dispatch: none at all. */
static int cr_twin_run_open(struct cr_rec_run *r)
{
	r->t = NULL;
	if (r->nl && !r->o->keep_module)
		return cr_nl_ctrl(r->nl, "variant", "off");
	return CR_OK;
}

static int cr_twin_run_start(struct cr_rec_run *r)
{
	struct cr_twin_cfg cfg = *r->twin;
	int st;

	if (r->tgid)
		cfg.tgid = r->tgid;
	cfg.variant = r->variant;
	cfg.events = r->o->events;
	cfg.follow = !!r->nl;
	cfg.tgid_pinned = !!r->tgid;
	st = cr_twin_open(&cfg, &r->t);
	if (!st)
		st = cr_twin_start(r->t);
	/* The module's window, which the twin follows: as a module run. */
	if (!st && r->nl)
		st = cr_nl_ctrl(r->nl, "stop", NULL);
	if (!st && r->nl)
		st = cr_nl_ctrl(r->nl, "start", NULL);
	return st;
}

static int cr_twin_run_stop(struct cr_rec_run *r)
{
	if (r->nl)
		cr_nl_ctrl(r->nl, "stop", NULL);
	if (r->t)
		cr_twin_stop(r->t);
	return CR_OK;
}

/* The twin fills out->events when its configuration asks for events. */
static int cr_twin_run_read(struct cr_rec_run *r, struct cr_run *out)
{
	return cr_twin_read(r->t, out);
}

static void cr_twin_run_close(struct cr_rec_run *r)
{
	cr_twin_close(r->t);
	r->t = NULL;
}

const struct cr_rec_backend cr_rec_twin = {
	.is_twin = 1,
	.gates = cr_twin_gates,
	.marker = cr_twin_marker,
	.open = cr_twin_run_open,
	.start = cr_twin_run_start,
	.stop = cr_twin_run_stop,
	.read = cr_twin_run_read,
	.close = cr_twin_run_close,
};
