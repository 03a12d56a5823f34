/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - clkstat-report's command line: what main.c's dispatch knows of
 * a subcommand (struct cr_command, one per cmd_*.c), and the option sets
 * a subcommand's options are made of.  main.c finds the command first,
 * then parses the arguments with that command's option sets alone, so
 * that each command has its own options and its own --help.
 *
 * The option sets every command may share are in args.c (the format),
 * input.c (the source: -i, --run) and output.c (what is rendered); a
 * command's own are in its file.
 */
#ifndef CLKSTAT_REPORT_CLI_H
#define CLKSTAT_REPORT_CLI_H

#include <getopt.h>
#include <stdio.h>

/* What the dispatch found, for the command. */
struct cr_cli {
	const char *cmd;	/* "report" when none is given */
	const char *format;	/* --format, --json, --csv: "text" if none */
	char **rest;		/* the command's arguments (ctrl's, xcorr's) */
	int nrest;
	char **command;		/* after "--" (record's), NULL-terminated */
};

/*
 * A group of options: the table (ended by a zeroed entry; the values are
 * the short option's letter or the group's own CR_OPT_* range), take()
 * for each one getopt returns (CR_OK, or CR_USAGE with the message
 * printed), and its lines of the usage text.
 */
struct cr_optset {
	const struct option *opts;
	int (*take)(int c, const char *arg);
	const char *help;
};

/* Each group's range of option values (beyond any short option's). */
enum {
	CR_OPT_FORMAT = 0x100,
	CR_OPT_INPUT = 0x200,
	CR_OPT_OUTPUT = 0x280,
	CR_OPT_COMPARE = 0x300,
	CR_OPT_RECORD = 0x400,
	CR_OPT_OVERHEAD = 0x500,
	CR_OPT_EVENTS = 0x600,
	CR_OPT_XCORR = 0x700,
	CR_OPT_SERVE = 0x800,
};

/*
 * A subcommand: its name, a line for the command list, its usage lines
 * (each begins with seven spaces, under "usage: "), its option groups
 * (NULL-terminated), how many arguments it takes, whether it takes
 * "-- COMMAND...", the checks of its options against each other (NULL:
 * none), and what runs it.  A status.h status from each.
 */
struct cr_command {
	const char *name;
	const char *summary;
	const char *synopsis;
	const struct cr_optset *const *opts;
	int min_args, max_args;
	int takes_command;
	int (*check)(const struct cr_cli *cli);
	int (*run)(struct cr_cli *cli);
};

/* cmd_report.c, cmd_events.c, ... : the commands, in the order of --help. */
extern const struct cr_command cr_cmd_report, cr_cmd_info, cr_cmd_raw,
	cr_cmd_events, cr_cmd_xcorr, cr_cmd_ctrl, cr_cmd_trace,
	cr_cmd_record, cr_cmd_import, cr_cmd_merge, cr_cmd_export,
	cr_cmd_overhead, cr_cmd_serve, cr_cmd_plot;

#endif
