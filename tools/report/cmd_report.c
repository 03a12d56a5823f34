// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - clkstat-report report, info and raw: statistics and
 * histograms of every metric (in text, CSV, JSON or OpenMetrics), the
 * module's state or a snapshot's metadata, every slot.  The source is
 * input.c's (the live module, or --input snapshots pooled, or --run N
 * alone), the rendering output.c's; report's --compare is
 * report_compare.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/grid.h"
#include "../lib/meta.h"
#include "../lib/nl.h"
#include "../lib/render.h"
#include "../lib/snapshot.h"
#include "../lib/render_common.h"
#include "../lib/status.h"
#include "../lib/suggest.h"
#include "args.h"
#include "cli.h"
#include "input.h"
#include "output.h"
#include "report_compare.h"

/* report, info, raw: the --compare check, then the format. */
static int cr_report_check(const struct cr_cli *cli)
{
	int st;

	st = cr_input_check();
	if (!st)
		st = cr_compare_check(cli, cr_input_count(), cr_input_run());
	if (!st)
		st = cr_output_check(cli);
	if (st)
		return st;
	if (strcmp(cli->format, "text") && strcmp(cli->format, "json") &&
	    strcmp(cli->format, "csv") && !cr_output_exposition(cli->format)) {
		fprintf(stderr, "clkstat-report: --format '%s': text, json, csv, openmetrics or prometheus\n",
			cli->format);
		return CR_USAGE;
	}
	return CR_OK;
}

/* info and raw: their source; raw what it renders. */
static int cr_info_check(const struct cr_cli *cli)
{
	int st = cr_input_check();

	return st ? st : cr_output_check(cli);
}

/* "a.json, b.json": every input's name, for the report's source line. */
static char *input_names(const struct cr_snapshot *s)
{
	size_t i, len = 1;
	char *p;

	for (i = 0; i < s->ninputs; i++)
		len += strlen(s->inputs[i].path) + 2;
	p = malloc(len);
	if (!p)
		return NULL;
	*p = '\0';
	for (i = 0; i < s->ninputs; i++) {
		if (i)
			strcat(p, ", ");
		strcat(p, s->inputs[i].path);
	}
	return p;
}

/* One file's metadata (m), then its runs (input k, or every run: -1). */
static void print_meta_one(FILE *out, const struct cr_snapshot *s,
			   const struct cr_meta *m, long k)
{
	const struct cr_run *r;
	char buf[96];
	size_t i, j, n = 0;

#define P(k) fprintf(out, "%s %s\n", #k, m->k ? m->k : "-")
	P(tool_version);
	P(module_version);
	P(kernel_release);
	P(clocksource);
	if (m->clock)
		P(clock);
	P(probes);
	fprintf(out, "frac_bits %u\nnr_cpus %u\n", m->frac_bits, m->nr_cpus);
	P(variants);
	P(command);
	fprintf(out, "duration_s %g\n", m->duration_s);
	P(machine);
	P(hypervisor);
	P(cpuidle_driver);
	P(cpuidle_governor);
	fprintf(out, "max_cstate %s\n", cr_meta_max_cstate(m, buf, sizeof(buf)));
	P(cmdline);
	/* Not for a file written before they were recorded. */
	if (m->cpufreq_recorded) {
		fprintf(out, "cpufreq_driver %s\n", m->cpufreq_driver ?
			m->cpufreq_driver : "none (no cpufreq)");
		fprintf(out, "cpufreq_governor %s\n", m->cpufreq_governor ?
			m->cpufreq_governor : "none (no cpufreq)");
		fprintf(out, "cpufreq_boost %s\n", m->cpufreq_boost ?
			m->cpufreq_boost : m->cpufreq_driver ?
			"none (no boost control)" : "none (no cpufreq)");
	}
	if (m->conditions)
		P(conditions);
	if (m->host)
		P(host);
#undef P
	/*
	 * The module's parameters as it was loaded: not what the runs
	 * recorded (its variant= is the load-time default; each run's own
	 * variant is on its run line).
	 */
	if (m->nparams)
		fprintf(out, "module_params as loaded (/sys/module/clkstat/parameters), not the runs' settings: each run's variant is on its run line\n");
	for (i = 0; i < m->nparams; i++)
		fprintf(out, "param %s %s%s\n", m->param_names[i],
			m->param_values[i],
			strcmp(m->param_names[i], "variant") ? "" :
			"  (at load; not the runs' variant)");
	for (i = 0; i < m->ntags; i++)
		fprintf(out, "tag %s %s\n", m->tag_names[i], m->tag_values[i]);
	for (i = 0; i < s->nruns; i++)
		n += k < 0 || s->runs[i].input == (unsigned int)k;
	fprintf(out, "runs %zu\n", n);
	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (k >= 0 && r->input != (unsigned int)k)
			continue;
		fprintf(out, "run %u variant %s start_ns %lld end_ns %lld exit_status %d metrics %zu workload_only %s",
			r->index, r->variant, (long long)r->start_ns,
			(long long)r->end_ns, r->exit_status, r->nmetrics,
			r->workload_only < 0 ? "-" :
			r->workload_only ? "yes" : "no");
		/* The run's own tags (record --cstates, --load). */
		for (j = 0; j < r->ntags; j++)
			fprintf(out, "%s%s=%s", j ? "," : " tags ",
				r->tag_names[j], r->tag_values[j]);
		fputc('\n', out);
	}
}

/*
 * The metadata and runs; with several inputs, each file's own under an
 * "input N PATH" line (runs numbered across the files, as --run and
 * --compare see them).
 */
static void print_meta(FILE *out, const struct cr_snapshot *s)
{
	size_t k;

	if (s->ninputs < 2) {
		print_meta_one(out, s, &s->meta, -1);
		return;
	}
	for (k = 0; k < s->ninputs; k++) {
		fprintf(out, "%sinput %zu %s\n", k ? "\n" : "", k,
			s->inputs[k].path);
		print_meta_one(out, s, &s->inputs[k].meta, (long)k);
	}
}

static void print_info(FILE *out, const struct cr_info *i)
{
	unsigned int k;

	fprintf(out, "version %s\nabi %u\nfrac_bits %u\nprobes %s\nvariant %s\n"
		"clocksource %s\nnr_cpus %u\nrecording %d\nswitches %llu\ntgid %u\n"
		"events %u\n",
		i->version, i->abi, i->frac_bits, i->probes, i->variant,
		i->clocksource, i->nr_cpus, i->recording,
		(unsigned long long)i->switches, i->tgid, i->ev_entries);
	if (*i->clock)
		fprintf(out, "clock %s\n", i->clock);
	if (i->reentered >= 0)
		fprintf(out, "reentered %lld\n", (long long)i->reentered);
	/* The user-defined probes: "trace NUMBER SPEC", as trace list. */
	if (i->trace_limit)
		fprintf(out, "trace_limit %u\n", i->trace_limit);
	for (k = 0; k < i->ntraces; k++)
		fprintf(out, "trace %u %s\n", i->traces[k].id,
			i->traces[k].spec);
}

/*
 * --metric naming no metric of what is read: one line naming the nearest
 * and the metrics there are, exit status 2, before anything is printed.
 */
static int check_metric(const struct cr_run *r)
{
	const struct cr_render_opts *o = cr_output_render();
	const char **names;
	size_t i, j, n = 0;

	if (!o->metric)
		return CR_OK;
	for (i = 0; i < r->nmetrics; i++)
		if (cr_render_wanted(&r->metrics[i], o))
			return CR_OK;
	names = calloc(r->nmetrics + 1, sizeof(*names));
	if (!names) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	for (i = 0; i < r->nmetrics; i++) {
		for (j = 0; j < n && strcmp(names[j], r->metrics[i].name); j++)
			;
		if (j == n)
			names[n++] = r->metrics[i].name;
	}
	fprintf(stderr, "clkstat-report: --metric %s: no such metric in %s",
		o->metric, o->source ? o->source : "the input");
	cr_suggest(stderr, o->metric, names, n);
	fputs("; there:", stderr);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", names[i]);
	fputs(n ? "\n" : " none\n", stderr);
	free(names);
	return CR_USAGE;
}

static int render(const struct cr_cli *cli, const struct cr_run *r)
{
	int st = check_metric(r);

	if (st)
		return st;
	if (!strcmp(cli->cmd, "raw"))
		return cr_render_raw(stdout, r, cr_output_render());
	if (!strcmp(cli->format, "json"))
		return cr_render_json(stdout, r, cr_output_render());
	if (!strcmp(cli->format, "csv"))
		return cr_render_csv(stdout, r, cr_output_render());
	if (cr_output_exposition(cli->format)) {
		char unfit[512];

		if (cr_grid_unfit(cr_output_grid(), r, unfit, sizeof(unfit)))
			fprintf(stderr, "clkstat-report: left out of the exposition, recorded with fewer frac_bits than --grid's %u: %s\n",
				cr_output_grid()->bits, unfit);
		cr_output_render()->prometheus_text = !strcmp(cli->format, "prometheus");
		return cr_render_openmetrics(stdout, r, cr_output_render());
	}
	return cr_render_text(stdout, r, cr_output_render());
}

/* report, info, raw on --input snapshots. */
static int from_snapshots(const struct cr_cli *cli)
{
	struct cr_snapshot s = { 0 };
	struct cr_run pooled;
	char *names = NULL;
	int st;

	st = cr_input_read(&s);
	if (st)
		return st;
	/* What differs between the files pooled (or grouped), on stderr. */
	cr_snapshot_meta_diff(stderr, &s, cr_compare_wanted() ?
			      cr_compare_factor_field() : NULL);
	if (!strcmp(cli->cmd, "info")) {
		print_meta(stdout, &s);
		cr_snapshot_free(&s);
		return CR_OK;
	}
	if (cr_compare_wanted()) {
		st = cr_compare_run(cli, &s, cr_output_render()->metric);
		cr_snapshot_free(&s);
		return st;
	}
	/* The source: the file, or every file when several are pooled. */
	cr_output_render()->source = cr_input_first();
	if (s.ninputs > 1) {
		names = input_names(&s);
		if (!names) {
			fprintf(stderr, "clkstat-report: out of memory\n");
			cr_snapshot_free(&s);
			return CR_ERR;
		}
		cr_output_render()->source = names;
	}
	if (cr_input_run() >= 0) {
		if ((size_t)cr_input_run() >= s.nruns) {
			fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
				cr_input_run(), s.nruns, s.nruns ? s.nruns - 1 : 0);
			cr_snapshot_free(&s);
			return CR_USAGE;
		}
		cr_output_render()->nruns = 1;
		cr_output_expo_labels(NULL, cr_run_meta(&s, &s.runs[cr_input_run()]));
		st = render(cli, &s.runs[cr_input_run()]);
	} else {
		/* pool() said why on -EINVAL (a metric's frac_bits differ). */
		st = cr_snapshot_pool(&s, &pooled);
		if (st == -ENOMEM)
			fprintf(stderr, "clkstat-report: out of memory\n");
		st = st ? CR_ERR : CR_OK;
		if (!st) {
			cr_output_render()->nruns = s.nruns;
			/* Several files' runs pooled: no one host, kernel, ... */
			cr_output_expo_labels(NULL, s.ninputs > 1 ? NULL : &s.meta);
			st = render(cli, &pooled);
			cr_run_free(&pooled);
		}
	}
	cr_snapshot_free(&s);
	free(names);
	return st;
}

/* report, info, raw on the live module. */
static int from_module(const struct cr_cli *cli)
{
	struct cr_run run = { .exit_status = -1 };
	struct cr_info info;
	struct cr_nl *nl;
	int st;

	nl = cr_nl_open(&st);
	if (!nl)
		return st;
	st = cr_nl_get_info(nl, &info);
	if (st)
		goto out;
	if (!strcmp(cli->cmd, "info")) {
		print_info(stdout, &info);
	} else {
		st = cr_nl_get_hist(nl, &run);
		if (!st) {
			snprintf(run.variant, sizeof(run.variant), "%s",
				 info.variant);
			cr_output_render()->source = "netlink";
			cr_output_render()->nruns = 1;
			cr_output_expo_labels(&info, NULL);
			st = render(cli, &run);
		}
		cr_run_free(&run);
	}
out:
	cr_nl_close(nl);
	return st;
}

static int cr_report_cmd(struct cr_cli *cli)
{
	return cr_input_count() ? from_snapshots(cli) : from_module(cli);
}

static const struct cr_optset *const cr_report_opts[] = {
	&cr_input_opts, &cr_format_opts, &cr_output_opts, &cr_compare_opts,
	&cr_compare_text_opts,
	NULL,
};

const struct cr_command cr_cmd_report = {
	.name = "report",
	.summary = "statistics and histograms of every metric (the default)",
	.synopsis =
	"       clkstat-report [report] [-i FILE...] [--run N] [--format text|json|csv|openmetrics|prometheus]\n"
	"                      [--per-cpu] [--metric NAME] [--no-hist] [--time-unit U]\n"
	"                      [--grid BITS[:LO:HI]] [--host NAME]\n"
	"       clkstat-report report --compare FACTOR -i FILE... [--base FACTOR]\n"
	"                      [--unit run|sample|host|host-fixed] [--resamples N] [--seed N]\n"
	"                      [--level L] [--threshold NS]\n",
	.opts = cr_report_opts,
	.check = cr_report_check,
	.run = cr_report_cmd,
};

static const struct cr_optset *const cr_info_opts[] = {
	&cr_input_opts, NULL,
};

const struct cr_command cr_cmd_info = {
	.name = "info",
	.summary = "the module's state, or the snapshots' metadata and runs",
	.synopsis = "       clkstat-report info [-i FILE...]\n",
	.opts = cr_info_opts,
	.check = cr_info_check,
	.run = cr_report_cmd,
};

static const struct cr_optset *const cr_raw_opts[] = {
	&cr_input_opts, &cr_output_opts, NULL,
};

const struct cr_command cr_cmd_raw = {
	.name = "raw",
	.summary = "every histogram, slot by slot",
	.synopsis = "       clkstat-report raw [-i FILE...] [--run N] [--metric NAME] [--per-cpu]\n",
	.opts = cr_raw_opts,
	.check = cr_info_check,
	.run = cr_report_cmd,
};
