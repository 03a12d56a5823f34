// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - clkstat-report report, info, raw and events: statistics and
 * histograms of every metric (in text, CSV, JSON or OpenMetrics), the
 * module's state or a snapshot's metadata, every slot, the event log.
 * The source is the live module over generic netlink, or with --input
 * one or more snapshot files whose runs are read one after the other and
 * pooled (or --run N alone, or --compare, compare.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "../lib/grid.h"
#include "../lib/meta.h"
#include "../lib/nl.h"
#include "../lib/render.h"
#include "../lib/render_common.h"
#include "../lib/snapshot.h"
#include "cli.h"

#define CR_MAX_INPUTS	64

enum { O_RUN = CR_OPT_REPORT, O_PER_CPU, O_METRIC, O_NO_HIST, O_UNIT,
       O_GRID, O_HOST };

static struct {
	const char *inputs[CR_MAX_INPUTS];
	unsigned int ninputs;
	long run;			/* -1: pool every run */
	struct cr_render_opts render;
	const char *grid_spec;		/* --grid, NULL: the default */
	const char *host;		/* --host, NULL: this machine's name */
	struct cr_grid grid;
	struct cr_om_said unfit_said;	/* serve's, of the metrics left out */
	/* The label values of the expositions (cr_report_expo_labels()). */
	char host_buf[256], kernel_buf[65], cs_buf[32];
	int host_said;			/* the invalid host name warned of */
} cr_rep = { .run = -1 };

const char cr_report_synopsis[] =
	"usage: clkstat-report [OPTIONS] [report]\n"
	"       clkstat-report [OPTIONS] info | raw\n";

/* -i, --run: where from. */
static int cr_report_take_source(int c, const char *v)
{
	char *end;

	if (c == 'i') {
		if (cr_rep.ninputs == CR_MAX_INPUTS) {
			fprintf(stderr, "clkstat-report: at most %d --input files\n",
				CR_MAX_INPUTS);
			return CR_USAGE;
		}
		cr_rep.inputs[cr_rep.ninputs++] = v;
		return CR_OK;
	}
	errno = 0;
	cr_rep.run = strtol(v, &end, 10);
	if (errno || *end || !*v || cr_rep.run < 0)
		return cr_bad_number("--run", v);
	return CR_OK;
}

static const struct option cr_report_source_table[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "run", required_argument, NULL, O_RUN },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_report_source_opts = {
	.opts = cr_report_source_table,
	.take = cr_report_take_source,
	.help =
	"  -i, --input FILE    read a snapshot file instead of the module (repeatable)\n"
	"      --run N         with --input: only run N (0-based), not every run pooled\n",
};

/* --per-cpu, --metric, --no-hist: what is rendered. */
static int cr_report_take_render(int c, const char *v)
{
	switch (c) {
	case O_PER_CPU:
		cr_rep.render.per_cpu = 1;
		break;
	case O_METRIC:
		cr_rep.render.metric = v;
		break;
	case O_GRID:
		cr_rep.grid_spec = v;
		break;
	case O_HOST:
		cr_rep.host = v;
		break;
	case O_UNIT:
		if (cr_unit_parse(v, &cr_rep.render.unit)) {
			fprintf(stderr, "clkstat-report: --time-unit '%s': ns, us or ms\n",
				v);
			return CR_USAGE;
		}
		break;
	default: /* O_NO_HIST */
		cr_rep.render.no_hist = 1;
		break;
	}
	return CR_OK;
}

static const struct option cr_report_render_table[] = {
	{ "per-cpu", no_argument, NULL, O_PER_CPU },
	{ "metric", required_argument, NULL, O_METRIC },
	{ "no-hist", no_argument, NULL, O_NO_HIST },
	{ "time-unit", required_argument, NULL, O_UNIT },
	{ "grid", required_argument, NULL, O_GRID },
	{ "host", required_argument, NULL, O_HOST },
	{ NULL, 0, NULL, 0 },
};

const struct cr_optset cr_report_render_opts = {
	.opts = cr_report_render_table,
	.take = cr_report_take_render,
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

static int cr_report_check_grid(const struct cr_cli *cli);

int cr_report_check(const struct cr_cli *cli)
{
	const char *cmd = cli->cmd;
	int st;

	if (cr_rep.ninputs && (!strcmp(cmd, "ctrl") ||
			       !strcmp(cmd, "trace") ||
			       !strcmp(cmd, "record") ||
			       !strcmp(cmd, "overhead"))) {
		fprintf(stderr, "clkstat-report: %s works on the live module, not on --input (a snapshot cannot be changed)\n",
			cmd);
		return CR_USAGE;
	}
	st = cr_compare_check(cli, cr_rep.ninputs, cr_rep.run);
	if (st)
		return st;
	if (cr_rep.render.unit != CR_UNIT_AUTO &&
	    (strcmp(cli->cmd, "report") ||
	     (strcmp(cli->format, "text") && strcmp(cli->format, "csv")))) {
		fprintf(stderr, "clkstat-report: --time-unit is for the report's text and CSV (JSON is in ns, OpenMetrics in seconds, raw in the module's units)\n");
		return CR_USAGE;
	}
	if (cr_rep.run >= 0 && !cr_rep.ninputs) {
		fprintf(stderr, "clkstat-report: --run selects a run of an --input snapshot\n");
		return CR_USAGE;
	}
	/* events and xcorr check their own formats. */
	if (!strcmp(cli->cmd, "events") || !strcmp(cli->cmd, "xcorr"))
		;
	else if (!strcmp(cli->format, "text") || !strcmp(cli->format, "json") ||
	    !strcmp(cli->format, "csv") || cr_report_exposition(cli))
		;
	else {
		fprintf(stderr, "clkstat-report: --format '%s': text, json, csv, openmetrics or prometheus\n",
			cli->format);
		return CR_USAGE;
	}
	return cr_report_check_grid(cli);
}

int cr_report_exposition(const struct cr_cli *cli)
{
	return !strcmp(cli->format, "openmetrics") ||
	       !strcmp(cli->format, "prometheus");
}

/* --grid and --host: for the expositions only; the grid parsed. */
static int cr_report_check_grid(const struct cr_cli *cli)
{
	char err[256];
	int r;

	if ((cr_rep.grid_spec || cr_rep.host) &&
	    !(cr_report_exposition(cli) || !strcmp(cli->cmd, "serve"))) {
		fprintf(stderr, "clkstat-report: --grid and --host are for --format openmetrics or prometheus and serve\n");
		return CR_USAGE;
	}
	if (cr_rep.host && (!*cr_rep.host || strlen(cr_rep.host) >= sizeof(cr_rep.host_buf))) {
		fprintf(stderr, "clkstat-report: --host '%s': 1 to %zu bytes\n",
			cr_rep.host, sizeof(cr_rep.host_buf) - 1);
		return CR_USAGE;
	}
	/* Prometheus would refuse every scrape, not just the label. */
	if (cr_rep.host && !cr_render_label_ok(cr_rep.host)) {
		fprintf(stderr, "clkstat-report: --host: not valid UTF-8, which a label value must be\n");
		return CR_USAGE;
	}
	r = cr_grid_parse(cr_rep.grid_spec ? cr_rep.grid_spec : CR_GRID_DEFAULT,
			  &cr_rep.grid, err, sizeof(err));
	if (r) {
		fprintf(stderr, "clkstat-report: %s\n", err);
		return r == -ENOMEM ? CR_ERR : CR_USAGE;
	}
	cr_rep.render.grid = &cr_rep.grid;
	/*
	 * report names the metrics left out before it renders (render());
	 * serve renders at every scrape, and says them when they change.
	 */
	if (!strcmp(cli->cmd, "serve")) {
		cr_rep.unfit_said.who = "clkstat-report: serve";
		cr_rep.render.unfit_said = &cr_rep.unfit_said;
	}
	return CR_OK;
}

struct cr_render_opts *cr_report_render(void)
{
	return &cr_rep.render;
}

void cr_report_expo_labels(const struct cr_info *info,
			   const struct cr_meta *meta)
{
	struct utsname u;
	const char *host = cr_rep.host;

	cr_rep.render.host = cr_rep.render.kernel = NULL;
	cr_rep.render.clocksource = NULL;
	/* A snapshot's host as --compare --unit host sees it (a tag, its meta). */
	if (!host && meta)
		host = cr_meta_host(meta);
	memset(cr_rep.host_buf, 0, sizeof(cr_rep.host_buf));
	/*
	 * A machine without a name (the kernel's "(none)", as a bare guest
	 * has) gets no host label.
	 */
	if (!host && info && !gethostname(cr_rep.host_buf,
					  sizeof(cr_rep.host_buf) - 1) &&
	    cr_rep.host_buf[0] && strcmp(cr_rep.host_buf, "(none)"))
		host = cr_rep.host_buf;
	if (host && host != cr_rep.host_buf)
		snprintf(cr_rep.host_buf, sizeof(cr_rep.host_buf), "%s", host);
	/*
	 * A snapshot's or the machine's name that is not UTF-8, or was cut
	 * inside a character, would make Prometheus refuse the whole scrape:
	 * no host label then (--host was checked when given).
	 */
	if (host && !cr_render_label_ok(cr_rep.host_buf)) {
		if (!cr_rep.host_said)
			fprintf(stderr, "clkstat-report: warning: the host name is not valid UTF-8: no host label (--host NAME gives one)\n");
		cr_rep.host_said = 1;
		host = NULL;
	}
	if (host)
		cr_rep.render.host = cr_rep.host_buf;
	if (meta && meta->kernel_release) {
		snprintf(cr_rep.kernel_buf, sizeof(cr_rep.kernel_buf), "%s",
			 meta->kernel_release);
		cr_rep.render.kernel = cr_rep.kernel_buf;
	} else if (info && !uname(&u)) {
		snprintf(cr_rep.kernel_buf, sizeof(cr_rep.kernel_buf), "%s",
			 u.release);
		cr_rep.render.kernel = cr_rep.kernel_buf;
	}
	if (info && *info->clocksource)
		snprintf(cr_rep.cs_buf, sizeof(cr_rep.cs_buf), "%s",
			 info->clocksource);
	else if (meta && meta->clocksource)
		snprintf(cr_rep.cs_buf, sizeof(cr_rep.cs_buf), "%s",
			 meta->clocksource);
	else
		return;
	cr_rep.render.clocksource = cr_rep.cs_buf;
}

/*
 * Every --input file's runs, one after the other, into s; a run given
 * twice refused (cr_snapshot_merge()).
 */
int cr_report_read_inputs(struct cr_snapshot *s)
{
	struct cr_snapshot one;
	unsigned int i;
	int st;

	for (i = 0; i < cr_rep.ninputs; i++) {
		st = cr_snapshot_read(cr_rep.inputs[i], &one);
		if (!st) {
			st = cr_snapshot_merge(s, &one, !strcmp(cr_rep.inputs[i], "-") ?
					       "stdin" : cr_rep.inputs[i]);
			cr_snapshot_free(&one);
		}
		if (st) {
			cr_snapshot_free(s);
			return st;
		}
	}
	return CR_OK;
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

static int render(const struct cr_cli *cli, const struct cr_run *r)
{
	if (!strcmp(cli->cmd, "raw"))
		return cr_render_raw(stdout, r, &cr_rep.render);
	if (!strcmp(cli->format, "json"))
		return cr_render_json(stdout, r, &cr_rep.render);
	if (!strcmp(cli->format, "csv"))
		return cr_render_csv(stdout, r, &cr_rep.render);
	if (cr_report_exposition(cli)) {
		char unfit[512];

		if (cr_grid_unfit(&cr_rep.grid, r, unfit, sizeof(unfit)))
			fprintf(stderr, "clkstat-report: left out of the exposition, recorded with fewer frac_bits than --grid's %u: %s\n",
				cr_rep.grid.bits, unfit);
		cr_rep.render.prometheus_text = !strcmp(cli->format, "prometheus");
		return cr_render_openmetrics(stdout, r, &cr_rep.render);
	}
	return cr_render_text(stdout, r, &cr_rep.render);
}

/* report, info, raw on --input snapshots. */
static int from_snapshots(const struct cr_cli *cli)
{
	struct cr_snapshot s = { 0 };
	struct cr_run pooled;
	char *names = NULL;
	int st;

	st = cr_report_read_inputs(&s);
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
		st = cr_compare_run(cli, &s, cr_rep.render.metric);
		cr_snapshot_free(&s);
		return st;
	}
	/* The source: the file, or every file when several are pooled. */
	cr_rep.render.source = cr_rep.inputs[0];
	if (s.ninputs > 1) {
		names = input_names(&s);
		if (!names) {
			fprintf(stderr, "clkstat-report: out of memory\n");
			cr_snapshot_free(&s);
			return CR_ERR;
		}
		cr_rep.render.source = names;
	}
	if (cr_rep.run >= 0) {
		if ((size_t)cr_rep.run >= s.nruns) {
			fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
				cr_rep.run, s.nruns, s.nruns ? s.nruns - 1 : 0);
			cr_snapshot_free(&s);
			return CR_USAGE;
		}
		cr_rep.render.nruns = 1;
		cr_report_expo_labels(NULL, cr_run_meta(&s, &s.runs[cr_rep.run]));
		st = render(cli, &s.runs[cr_rep.run]);
	} else {
		/* pool() said why on -EINVAL (a metric's frac_bits differ). */
		st = cr_snapshot_pool(&s, &pooled);
		if (st == -ENOMEM)
			fprintf(stderr, "clkstat-report: out of memory\n");
		st = st ? CR_ERR : CR_OK;
		if (!st) {
			cr_rep.render.nruns = s.nruns;
			/* Several files' runs pooled: no one host, kernel, ... */
			cr_report_expo_labels(NULL, s.ninputs > 1 ? NULL : &s.meta);
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
			cr_rep.render.source = "netlink";
			cr_rep.render.nruns = 1;
			cr_report_expo_labels(&info, NULL);
			st = render(cli, &run);
		}
		cr_run_free(&run);
	}
out:
	cr_nl_close(nl);
	return st;
}

unsigned int cr_report_ninputs(void)
{
	return cr_rep.ninputs;
}

long cr_report_run(void)
{
	return cr_rep.run;
}

int cr_report_cmd(struct cr_cli *cli)
{
	return cr_rep.ninputs ? from_snapshots(cli) : from_module(cli);
}
