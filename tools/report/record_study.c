// SPDX-License-Identifier: GPL-2.0
/*
 * record_study.c - where record's runs go (record.h): a study file
 * (tools/lib/study.h), each run committed in its own transaction as it
 * ends, its events then let go, so that whatever stops record (a kill,
 * the OOM killer, a guest that dies) leaves the finished runs in a file
 * that opens, and a study of hundreds of runs costs the memory of one
 * run's events.  A JSON snapshot is export's to write, from the study.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lib/file_replace.h"
#include "../lib/status.h"
#include "../lib/study.h"
#include "record.h"

/* Does path end in ".json" (any case)? */
static int cr_json_name(const char *path)
{
	size_t n = strlen(path);

	return n >= 5 && !strcasecmp(path + n - 5, ".json");
}

/* Is the file at path an SQLite database (a study, or another)? */
static int cr_is_sqlite(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), yes;

	if (fd < 0)
		return 0;
	yes = cr_study_sniff_fd(fd);
	close(fd);
	return yes;
}

int cr_rec_output_check(const struct cr_record_opts *o)
{
	struct stat sb;
	int st;

	if (!strcmp(o->output, "-") || cr_json_name(o->output)) {
		fprintf(stderr, "clkstat-report: record: -o %s: record writes a study file (SQLite), run by run: -o NAME.db; clkstat-report export -i NAME.db --format json writes the JSON snapshot (nothing recorded)\n",
			o->output);
		return CR_USAGE;
	}
	if (!stat(o->output, &sb)) {
		if (!S_ISREG(sb.st_mode)) {
			fprintf(stderr, "clkstat-report: record: -o %s: not a regular file (nothing recorded)\n",
				o->output);
			return CR_ERR;
		}
		if (!o->append) {
			fprintf(stderr, "clkstat-report: record: -o %s exists: --append adds the runs to that study, or name another file (nothing recorded)\n",
				o->output);
			return CR_USAGE;
		}
		if (!cr_is_sqlite(o->output)) {
			fprintf(stderr, "clkstat-report: record: --append -o %s: not a study file (a JSON snapshot becomes one with clkstat-report import) (nothing recorded)\n",
				o->output);
			return CR_USAGE;
		}
		/* The reader's checks and the writer's lock come at open. */
		if (access(o->output, W_OK)) {
			fprintf(stderr, "clkstat-report: record: -o %s: cannot write it: %s (nothing recorded)\n",
				o->output, strerror(errno));
			return CR_ERR;
		}
		return CR_OK;
	}
	st = cr_file_writable(o->output);
	if (st) {
		fprintf(stderr, "clkstat-report: record: -o %s: cannot write there: %s (nothing recorded)\n",
			o->output, st == CR_FILE_NOT_REGULAR ?
			"not a regular file" : strerror(errno));
		return CR_ERR;
	}
	return CR_OK;
}

int cr_rec_study_open(struct cr_rec_study *rs, const struct cr_record_opts *o,
		      const struct cr_meta *m, char names[][CR_VARIANT_MAX],
		      unsigned int nv, unsigned int twin_frac_bits)
{
	char err[512];
	struct stat sb;
	unsigned int i;
	int st;

	memset(rs, 0, sizeof(*rs));
	rs->path = o->output;
	if (o->append && !stat(o->output, &sb)) {
		st = cr_study_append(o->output, m, &rs->study);
		if (st)
			return st;
		/*
		 * The module's frac_bits is the metadata's; the twin's own
		 * (--frac-bits) must be its earlier runs' too, else no command
		 * could pool their histograms.  Refused before run 1: the
		 * file unchanged.
		 */
		for (i = 0, st = CR_OK; !st && i < nv; i++)
			if (cr_twin_is_variant(names[i]))
				st = cr_study_frac_bits_pool(rs->study, names[i],
							     twin_frac_bits,
							     err, sizeof(err));
		if (st) {
			fprintf(stderr, "clkstat-report: %s: %s\n", o->output,
				err);
			cr_study_close(rs->study);
			rs->study = NULL;
			return st;
		}
		rs->had = cr_study_nruns(rs->study);
		return CR_OK;
	}
	st = cr_study_create(o->output, m, &rs->study);
	rs->created = !st;
	return st;
}

int cr_rec_study_add(struct cr_rec_study *rs, struct cr_run *r)
{
	int st = cr_study_add_run(rs->study, r);

	/* Committed: the file holds them; memory holds one run's at most. */
	if (!st) {
		cr_events_free(&r->events);
		rs->added++;
	}
	return st;
}

int cr_rec_study_close(struct cr_rec_study *rs, int quiet)
{
	int st;

	if (!rs->study)
		return CR_OK;
	st = cr_study_close(rs->study);
	rs->study = NULL;
	/* A study made here that never got a run is not left behind. */
	if (rs->created && !rs->added) {
		unlink(rs->path);
		return st;
	}
	if (!st && !quiet && rs->added && rs->had)
		fprintf(stderr, "record: %zu runs added to %s (%zu in all)\n",
			rs->added, rs->path, rs->had + rs->added);
	else if (!st && !quiet && rs->added)
		fprintf(stderr, "record: %zu runs written to %s\n", rs->added,
			rs->path);
	return st;
}
