// SPDX-License-Identifier: GPL-2.0
/*
 * clkstat-report - read, print, export and record clkstat's histograms.
 *
 *   clkstat-report [report]   statistics and histograms of every metric
 *   clkstat-report info       the module (or a snapshot's metadata)
 *   clkstat-report raw        every histogram, slot by slot
 *   clkstat-report events     the event log, live or recorded: text, CSV, JSON Lines
 *   clkstat-report xcorr A B  cross-correlation of two recorded event series
 *   clkstat-report ctrl ...   start, stop, reset, tgid, variant (live only)
 *   clkstat-report trace ...  add, del, list user-defined probes (live only)
 *   clkstat-report record [...] [-- COMMAND...]   runs into a snapshot
 *   clkstat-report overhead   what each hook variant costs (tools/bench/)
 *   clkstat-report serve      the Prometheus exporter (serve.c)
 *
 * The source is the live module over generic netlink, or with --input one
 * or more snapshot files.  Documentation/clkstat-report.1 is the manual;
 * the exit statuses are status.h's.
 *
 * This file is the dispatch: the options of every subcommand's file
 * (cli.h) in one getopt_long() pass (options may come before or after the
 * command, which is the first other argument), "--" and record's COMMAND,
 * the command and its arguments, the usage text, -V and -h.  Each file
 * then checks its own options against the command, and the command runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_netlink.h"
#include "../lib/status.h"
#include "../lib/version.h"
#include "cli.h"
#include "record_cond.h"

enum { O_JSON = CR_OPT_MAIN, O_CSV, O_FORMAT };

static struct cr_cli cr_cli = { .format = "text" };

/* The output format: report's and overhead's. */
static int cr_main_take_format(int c, const char *v)
{
	cr_cli.format = c == O_JSON ? "json" : c == O_CSV ? "csv" : v;
	return CR_OK;
}

static const struct option cr_format_table[] = {
	{ "json", no_argument, NULL, O_JSON },
	{ "csv", no_argument, NULL, O_CSV },
	{ "format", required_argument, NULL, O_FORMAT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_format_opts = {
	.opts = cr_format_table,
	.take = cr_main_take_format,
	.help =
	"      --json, --csv   the report as JSON or CSV\n"
	"      --format FMT    text, json, csv or openmetrics\n",
};

/* -V and -h: they end the program (cr_parse()). */
static int cr_main_take_general(int c, const char *v)
{
	(void)c;
	(void)v;
	return CR_OK;
}

static const struct option cr_general_table[] = {
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_general_opts = {
	.opts = cr_general_table,
	.take = cr_main_take_general,
	.help = "  -V, --version, -h, --help\n",
};

/*
 * Every option, in this order in getopt's table: that is the order in
 * which getopt lists the candidates of an ambiguous abbreviation ("--r":
 * --runs, --run, --resamples, --rounds), as it always has.
 */
static const struct cr_optset *const cr_optsets[] = {
	&cr_format_opts, &cr_report_render_opts, &cr_record_opts,
	&cr_record_cond_opts,
	&cr_report_source_opts, &cr_compare_opts, &cr_overhead_opts,
	&cr_events_opts, &cr_xcorr_opts, &cr_serve_opts, &cr_general_opts,
};
#define CR_NOPTSETS	(sizeof(cr_optsets) / sizeof(cr_optsets[0]))
#define CR_MAX_OPTS	80

/* The commands: how many arguments each takes, what runs it. */
static const struct cr_cmd {
	const char *name;
	int min_args, max_args;
	int (*run)(struct cr_cli *cli);
} cr_cmds[] = {
	{ "report", 0, 0, cr_report_cmd },
	{ "info", 0, 0, cr_report_cmd },
	{ "raw", 0, 0, cr_report_cmd },
	{ "events", 0, 0, cr_events_cmd },
	{ "xcorr", 2, 2, cr_xcorr_cmd },
	{ "ctrl", 1, 2, cr_ctrl_cmd },
	{ "trace", 1, 65, cr_trace_cmd },
	{ "record", 0, 0, cr_record_cmd },
	{ "overhead", 0, 0, cr_overhead_cmd },
	{ "serve", 0, 0, cr_serve_cmd },
};

int cr_usage(FILE *f)
{
	/* The options' lines, in the order of the synopsis. */
	static const struct cr_optset *const help[] = {
		&cr_report_source_opts, &cr_format_opts,
		&cr_report_render_opts, &cr_record_opts,
		&cr_record_cond_opts, &cr_compare_opts,
		&cr_overhead_opts, &cr_events_opts, &cr_xcorr_opts,
		&cr_serve_opts, &cr_general_opts,
	};
	size_t i;

	fputs(cr_report_synopsis, f);
	fputs(cr_ctrl_synopsis, f);
	fputs(cr_trace_synopsis, f);
	fputs(cr_record_synopsis, f);
	fputs(cr_compare_synopsis, f);
	fputs(cr_overhead_synopsis, f);
	fputs(cr_events_synopsis, f);
	fputs(cr_xcorr_synopsis, f);
	fputs(cr_serve_synopsis, f);
	fputs("options:\n", f);
	for (i = 0; i < sizeof(help) / sizeof(help[0]); i++)
		fputs(help[i]->help, f);
	fputs("See clkstat-report(1).\n", f);
	return f == stderr ? CR_USAGE : CR_OK;
}

int cr_bad_number(const char *opt, const char *v)
{
	fprintf(stderr, "clkstat-report: %s '%s': not a valid number\n", opt, v);
	return CR_USAGE;
}

int cr_parse_ulong(const char *what, const char *v, unsigned long lo,
		   unsigned long hi, unsigned long *out)
{
	unsigned long ul;
	char *end;

	errno = 0;
	ul = strtoul(v, &end, 10);
	if (errno || *end || !*v || *v == '-' || ul < lo || ul > hi)
		return cr_bad_number(what, v);
	*out = ul;
	return CR_OK;
}

/* The optset whose table has option value c. */
static const struct cr_optset *cr_owner(int c)
{
	const struct option *o;
	size_t i;

	for (i = 0; i < CR_NOPTSETS; i++)
		for (o = cr_optsets[i]->opts; o->name; o++)
			if (o->val == c)
				return cr_optsets[i];
	return NULL;
}

static int cr_parse(int argc, char **argv)
{
	static struct option opts[CR_MAX_OPTS];
	const struct option *o;
	const struct cr_optset *set;
	int c, i, n = 0, dashdash = argc;
	size_t j;

	for (j = 0; j < CR_NOPTSETS; j++)
		for (o = cr_optsets[j]->opts; o->name; o++)
			opts[n++] = *o;
	opts[n] = (struct option){ NULL, 0, NULL, 0 };

	/* Everything after "--" is record's workload, untouched by getopt. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	if (dashdash < argc) {
		if (dashdash + 1 == argc) {
			fprintf(stderr, "clkstat-report: no command after --\n");
			return CR_USAGE;
		}
		cr_cli.command = &argv[dashdash + 1];
		argv[dashdash] = NULL;
	}
	while ((c = getopt_long(dashdash, argv, "i:o:qB:Vh", opts, NULL)) != -1) {
		if (c == 'V') {
			printf("clkstat-report %s (netlink ABI %u, snapshot format %u)\n",
			       CLKSTAT_REPORT_VERSION, CLKSTAT_GENL_VERSION,
			       CR_SNAPSHOT_VERSION);
			exit(CR_OK);
		}
		if (c == 'h')
			exit(cr_usage(stdout));
		set = cr_owner(c);
		if (!set)
			return cr_usage(stderr);
		if (set->take(c, optarg))
			return CR_USAGE;
	}
	cr_cli.cmd = optind < dashdash ? argv[optind++] : "report";
	cr_cli.rest = &argv[optind];
	cr_cli.nrest = dashdash - optind;
	return CR_OK;
}

/*
 * The command and its arguments, then each file's checks of its options
 * (those that do not need the source), in this order.
 */
static int cr_check(const struct cr_cmd **cmd)
{
	size_t i;
	int st;

	*cmd = NULL;
	for (i = 0; i < sizeof(cr_cmds) / sizeof(cr_cmds[0]); i++)
		if (!strcmp(cr_cli.cmd, cr_cmds[i].name))
			*cmd = &cr_cmds[i];
	if (!*cmd) {
		fprintf(stderr, "clkstat-report: unknown command '%s'\n",
			cr_cli.cmd);
		return cr_usage(stderr);
	}
	if (!(*cmd)->max_args && cr_cli.nrest) {
		fprintf(stderr, "clkstat-report: %s: unexpected argument '%s'\n",
			cr_cli.cmd, cr_cli.rest[0]);
		return CR_USAGE;
	}
	if (cr_cli.nrest < (*cmd)->min_args || cr_cli.nrest > (*cmd)->max_args)
		return cr_usage(stderr);
	if (cr_cli.command && strcmp(cr_cli.cmd, "record")) {
		fprintf(stderr, "clkstat-report: '-- COMMAND' is for record only\n");
		return CR_USAGE;
	}
	st = cr_overhead_check(&cr_cli);
	if (!st)
		st = cr_report_check(&cr_cli);
	if (!st)
		st = cr_record_check(&cr_cli);
	if (!st)
		st = cr_events_check(&cr_cli);
	if (!st)
		st = cr_xcorr_check(&cr_cli);
	if (!st)
		st = cr_serve_check(&cr_cli);
	return st;
}

int main(int argc, char **argv)
{
	const struct cr_cmd *cmd;
	int st;

	st = cr_parse(argc, argv);
	if (!st)
		st = cr_check(&cmd);
	if (st)
		return st;
	st = cmd->run(&cr_cli);
	if (fflush(stdout) && !st) {
		perror("clkstat-report: stdout");
		st = CR_ERR;
	}
	return st;
}
