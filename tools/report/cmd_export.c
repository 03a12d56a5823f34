// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_export.c - clkstat-report export -i FILE... [--format json|jsonl|csv]
 * [-o OUT]: what -i reads (a study, or snapshots) written out run by run,
 * one run's events held at a time: json, the snapshot document the JSON
 * writer writes for it, events included (byte for byte: snapshot_write.c's
 * pieces); jsonl and csv, one row per histogram slot (render_slots.h).
 * To standard output, or to OUT replaced whole (file_replace.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/file_replace.h"
#include "../lib/render_slots.h"
#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "../lib/suggest.h"
#include "args.h"
#include "cli.h"
#include "input.h"

enum { O_OUTPUT = 'o' };

static const char *const cr_export_fmts[] = { "json", "jsonl", "csv" };

static const char *cr_export_out = "-";

static int cr_export_take(int c, const char *v)
{
	(void)c;
	cr_export_out = v;
	return CR_OK;
}

static const struct option cr_export_table[] = {
	{ "output", required_argument, NULL, O_OUTPUT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_export_opts = {
	.opts = cr_export_table,
	.take = cr_export_take,
	.help =
	"  -o, --output FILE   write FILE (replaced whole), not standard output\n",
};

static const char *cr_export_fmt(void)
{
	return cr_format_set() ? cr_format() : "json";
}

/* A study at path already: export never writes over one. */
static int cr_is_study(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), is;

	if (fd < 0)
		return 0;
	is = cr_study_sniff_fd(fd);
	close(fd);
	return is;
}

static int cr_export_check(const struct cr_cli *cli)
{
	const char *f = cr_export_fmt();
	size_t i, n = sizeof(cr_export_fmts) / sizeof(cr_export_fmts[0]);
	int st = cr_input_check();

	(void)cli;
	if (st)
		return st;
	if (!cr_input_count()) {
		fprintf(stderr, "clkstat-report: export reads -i FILE (a study or a snapshot)\n");
		return CR_USAGE;
	}
	for (i = 0; i < n && strcmp(f, cr_export_fmts[i]); i++)
		;
	if (i == n) {
		fprintf(stderr, "clkstat-report: export: --format '%s': json, jsonl or csv",
			f);
		cr_suggest(stderr, f, cr_export_fmts, n);
		fputc('\n', stderr);
		return CR_USAGE;
	}
	if (strcmp(cr_export_out, "-") && cr_is_study(cr_export_out)) {
		fprintf(stderr, "clkstat-report: export: -o %s is a study: export never writes over one\n",
			cr_export_out);
		return CR_USAGE;
	}
	return CR_OK;
}

/*
 * Each selected run to f: its events loaded (json), written, dropped.
 * --run N alone is written as run 0 of a one-run document, which the
 * reader would otherwise refuse (a run's index is its place).
 */
static int cr_export_runs(FILE *f, const char *fmt, struct cr_snapshot *s)
{
	long only = cr_input_run();
	size_t i, k = 0;
	unsigned int index;
	int st = CR_OK, json = !strcmp(fmt, "json");

	if (json) {
		st = cr_snapshot_put_head(f, s);
	} else {
		cr_render_slots_head(f, !strcmp(fmt, "csv") ? CR_SLOTS_CSV :
				     CR_SLOTS_JSONL);
	}
	for (i = 0; !st && i < s->nruns; i++) {
		struct cr_run *r = &s->runs[i];

		if (only >= 0 && (size_t)only != i)
			continue;
		if (!json) {
			st = cr_render_slots_run(f, !strcmp(fmt, "csv") ?
						 CR_SLOTS_CSV : CR_SLOTS_JSONL,
						 r);
			continue;
		}
		st = cr_run_events_load(s, r);
		if (st)
			return st;
		index = r->index;
		r->index = (unsigned int)k;
		st = cr_snapshot_put_run(f, r, k++);
		r->index = index;
		cr_run_events_drop(r);
	}
	if (!st && json) {
		cr_snapshot_put_tail(f, only >= 0 ? 1 : s->nruns);
		fputc('\n', f);
	}
	if (st == CR_ERR)
		fprintf(stderr, "clkstat-report: export: out of memory\n");
	return st;
}

static int cr_export_cmd(struct cr_cli *cli)
{
	struct cr_snapshot s = { 0 };
	struct cr_file_out o;
	const char *step;
	long run = cr_input_run();
	int st, r;

	(void)cli;
	st = cr_input_read(&s);
	if (st)
		return st;
	if (run >= 0 && (size_t)run >= s.nruns) {
		fprintf(stderr, "clkstat-report: --run %ld: the input has %zu runs (0 to %zu)\n",
			run, s.nruns, s.nruns ? s.nruns - 1 : 0);
		cr_snapshot_free(&s);
		return CR_USAGE;
	}
	if (!strcmp(cr_export_out, "-")) {
		st = cr_export_runs(stdout, cr_export_fmt(), &s);
		if (!st && (fflush(stdout) || ferror(stdout))) {
			fprintf(stderr, "clkstat-report: stdout: %s\n",
				strerror(errno));
			st = CR_ERR;
		}
		cr_snapshot_free(&s);
		return st;
	}
	if (cr_file_open(&o, cr_export_out, &step)) {
		fprintf(stderr, "clkstat-report: %s: %s: %s (nothing written)\n",
			cr_export_out, step, strerror(errno));
		cr_snapshot_free(&s);
		return CR_ERR;
	}
	st = cr_export_runs(o.f, cr_export_fmt(), &s);
	if (st) {
		cr_file_abort(&o);
	} else {
		r = cr_file_commit(&o, &step);
		if (r < 0)
			fprintf(stderr, "clkstat-report: %s: %s: %s (nothing written)\n",
				cr_export_out, step, strerror(errno));
		else if (r)
			fprintf(stderr, "clkstat-report: %s: written, but syncing its folder failed: %s\n",
				cr_export_out, strerror(errno));
		st = r ? CR_ERR : CR_OK;
	}
	cr_snapshot_free(&s);
	return st;
}

static const struct cr_optset *const cr_export_optsets[] = {
	&cr_input_opts, &cr_format_opts, &cr_export_opts, NULL,
};

const struct cr_command cr_cmd_export = {
	.name = "export",
	.summary = "a study (or snapshots) as a snapshot document, JSON Lines or CSV",
	.synopsis =
	"       clkstat-report export -i FILE... [--format json|jsonl|csv] [--run N]\n"
	"                      [-o OUT]\n",
	.opts = cr_export_optsets,
	.check = cr_export_check,
	.run = cr_export_cmd,
};
