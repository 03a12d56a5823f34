// SPDX-License-Identifier: GPL-2.0
/*
 * clkstat-report - read, print, export and record clkstat's histograms.
 *
 * This file is the dispatch: it finds the command (the first argument that
 * is not an option, "report" when there is none), then parses the
 * arguments with that command's options alone (struct cr_command, one per
 * cmd_*.c), so that each command has its own options and its own --help.
 * The options that say where from and in which format (-i, --run, --json,
 * --csv, --format) may also come before the command, as in
 * "clkstat-report -i runs.json info"; the others come after it.
 * "--" ends the options; what follows is record's COMMAND.
 * Documentation/man/clkstat-report.1 is the manual; the exit statuses are
 * tools/lib/status.h's.
 */
#include <stdlib.h>
#include <string.h>
#include "../../kmod/uapi/clkstat_netlink_ext.h"
#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/suggest.h"
#include "../lib/version.h"
#include "args.h"
#include "cli.h"
#include "input.h"

/* The commands, in the order --help lists them. */
static const struct cr_command *const cr_cmds[] = {
	&cr_cmd_report, &cr_cmd_info, &cr_cmd_raw, &cr_cmd_events,
	&cr_cmd_xcorr, &cr_cmd_ctrl, &cr_cmd_trace, &cr_cmd_record,
	&cr_cmd_import, &cr_cmd_merge, &cr_cmd_export, &cr_cmd_overhead,
	&cr_cmd_serve, &cr_cmd_plot,
};
#define CR_NCMDS	(sizeof(cr_cmds) / sizeof(cr_cmds[0]))
#define CR_MAX_OPTS	64

/* What may come before the command: where from, which format. */
static const struct cr_optset *const cr_before_cmd[] = {
	&cr_input_opts, &cr_format_opts, NULL,
};

static const struct option cr_help_table[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_command *cr_find(const char *name)
{
	size_t i;

	for (i = 0; i < CR_NCMDS; i++)
		if (!strcmp(cr_cmds[i]->name, name))
			return cr_cmds[i];
	return NULL;
}

/* The commands and what they are: clkstat-report --help. */
static int cr_usage(FILE *f)
{
	const struct cr_optset *const *set;
	size_t i;

	fputs("usage: clkstat-report [-i FILE...] [--run N] [--format FMT] [COMMAND] [OPTIONS] [ARGS]\n"
	      "commands:\n", f);
	for (i = 0; i < CR_NCMDS; i++)
		fprintf(f, "  %-10s %s\n", cr_cmds[i]->name, cr_cmds[i]->summary);
	fputs("options before the command (every command that reads takes them):\n", f);
	for (set = cr_before_cmd; *set; set++)
		fputs((*set)->help, f);
	fputs("  -V, --version, -h, --help\n"
	      "clkstat-report COMMAND --help: the command's own options.  See clkstat-report(1).\n", f);
	return f == stderr ? CR_USAGE : CR_OK;
}

/* One command's usage and options: clkstat-report COMMAND --help. */
static int cr_cmd_usage(FILE *f, const struct cr_command *cmd)
{
	const struct cr_optset *const *set;

	fprintf(f, "usage: %s", cmd->synopsis + 7);
	fprintf(f, "%s: %s\n", cmd->name, cmd->summary);
	if (*cmd->opts)
		fputs("options:\n", f);
	for (set = cmd->opts; *set; set++)
		fputs((*set)->help, f);
	fputs("  -h, --help          this help\nSee clkstat-report(1).\n", f);
	return f == stderr ? CR_USAGE : CR_OK;
}

static int cr_version(void)
{
	printf("clkstat-report %s (netlink ABI %u, snapshot format %u)\n",
	       CLKSTAT_REPORT_VERSION, CLKSTAT_GENL_VERSION, CR_SNAPSHOT_VERSION);
	return CR_OK;
}

/*
 * A getopt table and short-option string of option groups (and -h, -V):
 * false when they do not fit, which is a bug caught by every test.
 */
static int cr_table(const struct cr_optset *const *sets, struct option *opts,
		    char *shorts, size_t nshorts)
{
	const struct option *o;
	size_t n = 0, k = 0;

	shorts[k++] = ':';
	for (; *sets; sets++) {
		for (o = (*sets)->opts; o->name; o++) {
			if (n + 3 > CR_MAX_OPTS || k + 3 > nshorts)
				return 0;
			opts[n++] = *o;
			if (o->val > 0 && o->val < 0x80) {
				shorts[k++] = (char)o->val;
				if (o->has_arg == required_argument)
					shorts[k++] = ':';
			}
		}
	}
	opts[n++] = cr_help_table[0];
	opts[n++] = cr_help_table[1];
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
	strcpy(shorts + k, "hV");
	return 1;
}

/* The group of a command's options that has option value c. */
static const struct cr_optset *cr_owner(const struct cr_command *cmd, int c)
{
	const struct cr_optset *const *set;
	const struct option *o;

	for (set = cmd->opts; *set; set++)
		for (o = (*set)->opts; o->name; o++)
			if (o->val == c)
				return *set;
	return NULL;
}

/*
 * An option this command does not take, in one line: whose it is, so that
 * "clkstat-report record --type marker" says where --type belongs.
 */
static void cr_say_unknown(const struct cr_command *cmd, const char *prog,
			   const char *arg, int opt)
{
	const struct cr_optset *const *set;
	const struct option *o;
	char name[64], whose[256] = "";
	size_t i, len = 0;
	int has;

	if (!strncmp(arg, "--", 2))
		len = strcspn(arg + 2, "=");
	if (len && len < sizeof(name)) {
		memcpy(name, arg + 2, len);
		name[len] = '\0';
		for (i = 0; i < CR_NCMDS; i++) {
			has = 0;
			for (set = cr_cmds[i]->opts; *set && !has; set++)
				for (o = (*set)->opts; o->name && !has; o++)
					has = !strcmp(o->name, name);
			if (has)
				snprintf(whose + strlen(whose),
					 sizeof(whose) - strlen(whose), "%s%s",
					 *whose ? ", " : "", cr_cmds[i]->name);
		}
	}
	if (*whose)
		fprintf(stderr, "%s: --%s is not an option of %s (an option of %s; clkstat-report %s --help)\n",
			prog, name, cmd->name, whose, cmd->name);
	else if (opt > 0 && opt < 0x80)
		fprintf(stderr, "%s: unknown option '-%c' (clkstat-report %s --help)\n",
			prog, opt, cmd->name);
	else
		fprintf(stderr, "%s: unknown or ambiguous option '%s' (clkstat-report %s --help)\n",
			prog, arg, cmd->name);
}

/*
 * Where the command is: skip what may come before it; the first other
 * argument is the command if it is not an option.  *at: its index, or 0
 * when there is none (report).
 */
static int cr_locate(int argc, char **argv, int *at)
{
	struct option opts[CR_MAX_OPTS];
	char shorts[32];
	int c;

	*at = 0;
	if (!cr_table(cr_before_cmd, opts, shorts, sizeof(shorts) - 1))
		return CR_ERR;
	/* "+": stop at the first argument that is not an option. */
	memmove(shorts + 1, shorts, strlen(shorts) + 1);
	shorts[0] = '+';
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 'h')
			exit(cr_usage(stdout));
		if (c == 'V')
			exit(cr_version());
		/* Another option first: no command given, report's options. */
		if (c == '?' || c == ':')
			return CR_OK;
	}
	if (optind < argc)
		*at = optind;
	return CR_OK;
}

/*
 * The command's arguments without the command's name, parsed with its
 * option groups; the rest are its arguments.
 */
static int cr_parse(const struct cr_command *cmd, int argc, char **argv,
		    struct cr_cli *cli)
{
	struct option opts[CR_MAX_OPTS];
	const struct cr_optset *set;
	char shorts[32], prog[64];
	int c, st;

	if (!cr_table(cmd->opts, opts, shorts, sizeof(shorts))) {
		fprintf(stderr, "clkstat-report: %s: too many options\n", cmd->name);
		return CR_ERR;
	}
	/* getopt's own messages name the command. */
	snprintf(prog, sizeof(prog), "clkstat-report %s", cmd->name);
	argv[0] = prog;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 'h')
			exit(cr_cmd_usage(stdout, cmd));
		if (c == 'V')
			exit(cr_version());
		if (c == ':') {
			fprintf(stderr, "%s: option '%s' needs a value\n", prog,
				argv[optind - 1]);
			return CR_USAGE;
		}
		set = c == '?' ? NULL : cr_owner(cmd, c);
		if (!set) {
			cr_say_unknown(cmd, prog, argv[optind - 1], optopt);
			return CR_USAGE;
		}
		st = set->take(c, optarg);
		if (st)
			return st;
	}
	cli->format = cr_format();
	cli->rest = &argv[optind];
	cli->nrest = argc - optind;
	return CR_OK;
}

/* The command's arguments, then its checks of its options. */
static int cr_check(const struct cr_command *cmd, const struct cr_cli *cli)
{
	if (cli->nrest > cmd->max_args) {
		fprintf(stderr, "clkstat-report: %s: unexpected argument '%s'%s\n",
			cmd->name, cli->rest[cmd->max_args],
			cr_find(cli->rest[cmd->max_args]) ?
			" (the command comes first: clkstat-report COMMAND [OPTIONS])" : "");
		return CR_USAGE;
	}
	if (cli->nrest < cmd->min_args)
		return cr_cmd_usage(stderr, cmd);
	if (cli->command && !cmd->takes_command) {
		fprintf(stderr, "clkstat-report: '-- COMMAND' is for record only\n");
		return CR_USAGE;
	}
	return cmd->check ? cmd->check(cli) : CR_OK;
}

int main(int argc, char **argv)
{
	struct cr_cli cli = { .cmd = "report", .format = "text" };
	const struct cr_command *cmd = &cr_cmd_report;
	int i, at, n, dashdash = argc, st;
	char **args;

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
		cli.command = &argv[dashdash + 1];
		argv[dashdash] = NULL;
	}
	st = cr_locate(dashdash, argv, &at);
	if (st)
		return st;
	if (at) {
		cmd = cr_find(argv[at]);
		if (!cmd) {
			const char *names[CR_NCMDS];

			for (i = 0; i < (int)CR_NCMDS; i++)
				names[i] = cr_cmds[i]->name;
			fprintf(stderr, "clkstat-report: unknown command '%s'",
				argv[at]);
			cr_suggest(stderr, argv[at], names, CR_NCMDS);
			fputs("; clkstat-report --help lists the commands\n",
			      stderr);
			return CR_USAGE;
		}
	}
	cli.cmd = cmd->name;
	/* The arguments without the command's name. */
	args = calloc(dashdash + 1, sizeof(*args));
	if (!args) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	for (i = 0, n = 0; i < dashdash; i++)
		if (!at || i != at)
			args[n++] = argv[i];
	st = cr_parse(cmd, n, args, &cli);
	if (!st)
		st = cr_check(cmd, &cli);
	if (!st)
		st = cmd->run(&cli);
	if (fflush(stdout) && !st) {
		perror("clkstat-report: stdout");
		st = CR_ERR;
	}
	free(args);
	return st;
}
