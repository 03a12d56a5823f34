/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - clkstat-report's command line, between main.c (the dispatch:
 * getopt, the command, "--") and the subcommands' files, each of which
 * owns its options: a table of struct option, the lines of the usage text
 * that tell them, how each is taken, and the checks of them against the
 * command given.
 *
 *   report.c    report, info, raw (and ctrl's netlink), -i and --run
 *   events.c    events
 *   xcorr.c     xcorr
 *   compare.c   --compare and its options (of report on --input)
 *   record.c    record
 *   overhead.c  overhead (the benchmark is tools/bench/)
 *   ctrl.c      ctrl
 *   trace.c     trace add|del|list
 *   serve.c     serve (the exporter; serve_*.c)
 */
#ifndef CLKSTAT_REPORT_CLI_H
#define CLKSTAT_REPORT_CLI_H

#include <getopt.h>
#include <stdio.h>
#include "../lib/snapshot.h"

/* What main.c found, for every subcommand. */
struct cr_cli {
	const char *cmd;	/* "report" when none is given */
	const char *format;	/* --format, --json, --csv: "text" if none */
	char **rest;		/* the command's arguments (ctrl's) */
	int nrest;
	char **command;		/* after "--" (record's), NULL-terminated */
};

/*
 * A file's options: the table (ended by a zeroed entry; the values are
 * the short option's letter or the file's own CR_OPT_* range), take() for
 * each one getopt returns (CR_OK, or CR_USAGE with the message printed),
 * and its lines of the usage text.
 */
struct cr_optset {
	const struct option *opts;
	int (*take)(int c, const char *arg);
	const char *help;
};

/* Each file's range of option values (beyond any short option's). */
enum {
	CR_OPT_MAIN = 0x100,
	CR_OPT_REPORT = 0x200,
	CR_OPT_COMPARE = 0x300,
	CR_OPT_RECORD = 0x400,
	CR_OPT_OVERHEAD = 0x500,
	CR_OPT_EVENTS = 0x600,
	CR_OPT_XCORR = 0x700,
	CR_OPT_SERVE = 0x800,
};

/* main.c: "clkstat-report: OPT 'V': not a valid number"; CR_USAGE. */
int cr_bad_number(const char *opt, const char *v);
/*
 * v as an unsigned decimal number in [lo, hi] into *out: CR_OK, or
 * cr_bad_number(what, v).
 */
int cr_parse_ulong(const char *what, const char *v, unsigned long lo,
		   unsigned long hi, unsigned long *out);
/* The usage text, to stdout (CR_OK) or stderr (CR_USAGE). */
int cr_usage(FILE *f);

/* report.c: -i and --run; --per-cpu, --metric and --no-hist. */
extern const struct cr_optset cr_report_source_opts, cr_report_render_opts;
extern const char cr_report_synopsis[];
int cr_report_check(const struct cr_cli *cli);
int cr_report_cmd(struct cr_cli *cli);
/* The --input files given (0: the live module), and --run (-1: none). */
unsigned int cr_report_ninputs(void);
long cr_report_run(void);
/*
 * Every --input file's runs into s (zeroed by the caller), one after the
 * other (cr_snapshot_merge()); on failure a line said why, s is empty.
 */
int cr_report_read_inputs(struct cr_snapshot *s);
/* --format openmetrics or prometheus. */
int cr_report_exposition(const struct cr_cli *cli);
/* The render options: --per-cpu, --metric, --grid (parsed by the check), ... */
struct cr_render_opts *cr_report_render(void);
struct cr_info;
/*
 * The expositions' host, kernel and clocksource labels: --host, else the
 * live module's machine (info: this machine's name, kernel, the module's
 * clocksource) or a snapshot's metadata (meta: its kernel, clocksource,
 * tag host); neither: only --host.
 */
void cr_report_expo_labels(const struct cr_info *info,
			   const struct cr_meta *meta);

/* events.c: --type, --variant (xcorr's too). */
extern const struct cr_optset cr_events_opts;
extern const char cr_events_synopsis[];
int cr_events_check(const struct cr_cli *cli);
const char *cr_events_variant(void);
/*
 * One line on stderr naming the runs recorded without --events ("run 2
 * (kprobe) was recorded without --events"; "runs 1 (direct), 3
 * (kprobe) were ..."), with their files when several were read.
 */
void cr_events_say_missing(const struct cr_snapshot *s,
			   const struct cr_run *const *runs, size_t n);

/* xcorr.c: --bin, --max-lag, --block, -B (--seed: compare.c's). */
extern const struct cr_optset cr_xcorr_opts;
extern const char cr_xcorr_synopsis[];
int cr_xcorr_check(const struct cr_cli *cli);
int cr_xcorr_cmd(struct cr_cli *cli);
int cr_events_cmd(struct cr_cli *cli);

/* compare.c: --compare and the bootstrap's settings. */
extern const struct cr_optset cr_compare_opts;
extern const char cr_compare_synopsis[];
int cr_compare_check(const struct cr_cli *cli, int ninputs, long run);
int cr_compare_wanted(void);
/* The metadata field --compare groups by ("tag:KEY", "meta:FIELD"), or NULL. */
const char *cr_compare_factor_field(void);
int cr_compare_run(const struct cr_cli *cli, const struct cr_snapshot *s,
		   const char *metric);
/* --seed (default 1): compare's and xcorr's. */
unsigned long cr_compare_seed(void);

/* record.c */
extern const struct cr_optset cr_record_opts;
extern const char cr_record_synopsis[];
int cr_record_check(const struct cr_cli *cli);
int cr_record_cmd(struct cr_cli *cli);

/* overhead.c */
extern const struct cr_optset cr_overhead_opts;
extern const char cr_overhead_synopsis[];
int cr_overhead_check(const struct cr_cli *cli);
int cr_overhead_cmd(struct cr_cli *cli);

/* ctrl.c */
extern const char cr_ctrl_synopsis[];
int cr_ctrl_cmd(struct cr_cli *cli);

/* serve.c */
extern const struct cr_optset cr_serve_opts;
extern const char cr_serve_synopsis[];
int cr_serve_check(const struct cr_cli *cli);
int cr_serve_cmd(struct cr_cli *cli);

/* trace.c */
extern const char cr_trace_synopsis[];
int cr_trace_cmd(struct cr_cli *cli);

#endif
