// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_import.c - clkstat-report import FILE -o STUDY, and merge FILE... -o
 * STUDY, each file in turn: a snapshot file (any
 * version this tool reads, 1 to 4; or another study) into a study
 * (tools/lib/study_write.c), run by run, each run's events loaded for its
 * transaction and dropped after it.  A new STUDY is created; an existing
 * one is appended to only if it is a study whose metadata pools with the
 * file's and holds none of its runs; anything else there is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/snapshot.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "cli.h"

enum { O_OUTPUT = 'o' };

static const char *cr_import_out;

static int cr_import_take(int c, const char *v)
{
	(void)c;
	cr_import_out = v;
	return CR_OK;
}

static const struct option cr_import_table[] = {
	{ "output", required_argument, NULL, O_OUTPUT },
	{ NULL, 0, NULL, 0 },
};

static const struct cr_optset cr_import_opts = {
	.opts = cr_import_table,
	.take = cr_import_take,
	.help =
	"  -o, --output STUDY  the study to write: created if nothing is there;\n"
	"                      appended to if it is a study whose metadata pools\n"
	"                      with FILE's; anything else there is refused\n",
};

static int cr_import_check(const struct cr_cli *cli)
{
	(void)cli;
	if (!cr_import_out) {
		fprintf(stderr, "clkstat-report: import: -o STUDY is needed (the study to write)\n");
		return CR_USAGE;
	}
	return CR_OK;
}

/*
 * Is path a study already (append), nothing (create), or something else
 * (refused)?  1, 0, or a status with the line said.
 */
static int cr_import_target(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), is;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		fprintf(stderr, "clkstat-report: %s: %s\n", path,
			strerror(errno));
		return -CR_ERR;
	}
	is = cr_study_sniff_fd(fd);
	close(fd);
	if (is)
		return 1;
	fprintf(stderr, "clkstat-report: %s: exists and is not a study: import writes a new study or adds to one, and never replaces another file\n",
		path);
	return -CR_USAGE;
}

/* No run of s is in the study already: a run twice would count twice. */
static int cr_import_dups(struct cr_study *st, const struct cr_snapshot *s,
			  const char *in)
{
	long k;
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		k = cr_study_find_run(st, &s->runs[i]);
		if (k < 0)
			continue;
		fprintf(stderr, "clkstat-report: %s: run %u is run %ld of %s already (same variant %s, start_ns and end_ns): nothing imported\n",
			in, s->runs[i].index, k, cr_import_out,
			s->runs[i].variant);
		return CR_USAGE;
	}
	return CR_OK;
}

/*
 * Every metric of a variant has one frac_bits in the study, the file's runs
 * and the study's alike: histograms of two bucket layouts cannot be pooled,
 * and --compare would refuse the study.  The module's frac_bits is in the
 * metadata (checked to pool already); the BPF twin's is its own, per run.
 */
static int cr_import_frac_bits(struct cr_study *st,
			       const struct cr_snapshot *s, const char *in)
{
	const struct cr_metric *m, *first;
	char err[512];
	size_t i, j, k, l;

	for (i = 0; i < s->nruns; i++) {
		for (j = 0; j < s->runs[i].nmetrics; j++) {
			m = &s->runs[i].metrics[j];
			if (cr_study_frac_bits_pool(st, m->variant,
						    m->frac_bits, err,
						    sizeof(err))) {
				fprintf(stderr, "clkstat-report: %s: run %u: %s\n",
					in, s->runs[i].index, err);
				return CR_USAGE;
			}
			for (k = 0; k <= i; k++) {
				for (l = 0; l < s->runs[k].nmetrics; l++) {
					first = &s->runs[k].metrics[l];
					if (strcmp(first->variant, m->variant) ||
					    first->frac_bits == m->frac_bits)
						continue;
					fprintf(stderr, "clkstat-report: %s: metrics of variant %s have frac_bits %u in run %u and %u in run %u: their histograms could not be pooled; nothing imported\n",
						in, m->variant,
						first->frac_bits,
						s->runs[k].index,
						m->frac_bits,
						s->runs[i].index);
					return CR_USAGE;
				}
			}
		}
	}
	return CR_OK;
}

/* One file's runs into the study cr_import_out: CR_OK or a status. */
static int cr_import_one(const char *in)
{
	struct cr_snapshot s;
	struct cr_study *st = NULL;
	size_t i, first = 0, events = 0;
	int st2, append, ret;

	append = cr_import_target(cr_import_out);
	if (append < 0)
		return -append;
	ret = cr_snapshot_read(in, &s);
	if (ret)
		return ret;
	if (append)
		ret = cr_study_append(cr_import_out, &s.meta, &st);
	else
		ret = cr_study_create(cr_import_out, &s.meta, &st);
	if (!ret) {
		first = cr_study_nruns(st);
		ret = append ? cr_import_dups(st, &s, in) : CR_OK;
	}
	if (!ret)
		ret = cr_import_frac_bits(st, &s, in);
	for (i = 0; !ret && i < s.nruns; i++) {
		ret = cr_run_events_load(&s, &s.runs[i]);
		if (!ret)
			ret = cr_study_add_run(st, &s.runs[i]);
		events += s.runs[i].events.n;
		cr_run_events_drop(&s.runs[i]);
	}
	st2 = cr_study_close(st);
	if (!ret)
		ret = st2;
	if (ret && st && append && i > 1)
		fprintf(stderr, "clkstat-report: %s: %zu of the %zu runs were added before the failure (runs %zu to %zu)\n",
			cr_import_out, i - 1, s.nruns, first, first + i - 2);
	else if (ret && st && !append)
		unlink(cr_import_out);	/* ours, made whole or not at all */
	if (!ret)
		printf("%s: %zu runs (%zu events) from %s; the study holds %zu runs\n",
		       cr_import_out, s.nruns, events, in, first + s.nruns);
	cr_snapshot_free(&s);
	return ret;
}

static int cr_import_cmd(struct cr_cli *cli)
{
	return cr_import_one(cli->rest[0]);
}

/*
 * merge: each file in turn, as import would; a file refused stops the
 * merge there, the files before it merged (said in one line).
 */
static int cr_merge_cmd(struct cr_cli *cli)
{
	int i, ret;

	for (i = 0; i < cli->nrest; i++) {
		ret = cr_import_one(cli->rest[i]);
		if (ret) {
			if (i)
				fprintf(stderr, "clkstat-report: merge: %d of the %d files merged into %s before %s\n",
					i, cli->nrest, cr_import_out,
					cli->rest[i]);
			return ret;
		}
	}
	return CR_OK;
}

static const struct cr_optset *const cr_import_optsets[] = {
	&cr_import_opts, NULL,
};

const struct cr_command cr_cmd_merge = {
	.name = "merge",
	.summary = "studies and snapshots of other runs or machines into one study",
	.synopsis =
	"       clkstat-report merge FILE... -o STUDY\n",
	.opts = cr_import_optsets,
	.min_args = 1, .max_args = 64,
	.check = cr_import_check,
	.run = cr_merge_cmd,
};

const struct cr_command cr_cmd_import = {
	.name = "import",
	.summary = "a snapshot file into a study (SQLite): new, or appended",
	.synopsis =
	"       clkstat-report import FILE -o STUDY\n",
	.opts = cr_import_optsets,
	.min_args = 1, .max_args = 1,
	.check = cr_import_check,
	.run = cr_import_cmd,
};
