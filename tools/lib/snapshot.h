/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - snapshot files: a struct cr_snapshot (model.h) as JSON
 * through json-c.  Documentation/clkstat-snapshot.rst describes the format.
 */
#ifndef CLKSTAT_REPORT_SNAPSHOT_H
#define CLKSTAT_REPORT_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>
#include "model.h"

#define CR_SNAPSHOT_FORMAT	"clkstat-snapshot"
/*
 * Written: 5 (2: the optional keys, a run's "events" and "tags", meta
 * "events" and "conditions"; 3: meta "clock"; 4: meta "host"; 5: meta
 * "cpufreq_driver", "cpufreq_governor", "cpufreq_boost"); read: 1 to 5.
 * Documentation/clkstat-snapshot.rst, "Top level", has the history.
 */
#define CR_SNAPSHOT_VERSION	5
#define CR_SNAPSHOT_VERSION_MIN	1

/*
 * Parse a snapshot held in memory.  On failure *s is left empty and err
 * (errlen bytes) holds one line without a newline naming what is wrong and
 * where (e.g. "runs[2].metrics[0].total.slots[5]: slot 4000 beyond 1920 for
 * frac_bits 5").  Return: CR_OK, CR_CORRUPT or CR_FORMAT (status.h), or
 * CR_ERR when out of memory.
 */
int cr_snapshot_parse(const char *text, size_t len, struct cr_snapshot *s,
		      char *err, size_t errlen);

/*
 * Read a snapshot file (path "-": stdin), or a study: a file that begins
 * as an SQLite database goes to cr_study_read() (study.h), whose runs'
 * events stay in the file until cr_run_events_load().  On failure print
 * one line on stderr ("clkstat-report: FILE: ...") and leave *s empty.
 * Return: CR_OK, CR_NO_FILE, CR_CORRUPT, CR_FORMAT, CR_USAGE (a study on
 * stdin), or CR_ERR when out of memory.
 */
int cr_snapshot_read(const char *path, struct cr_snapshot *s);

/*
 * Several --input files: move src's runs (read from path) to the end of
 * dst's, renumbered in reading order, each run's input the index of path
 * in dst->inputs[], which keeps src's metadata (the first file's is
 * copied to dst->meta too); src is freed.  A run that is a run of dst
 * already (cr_same_run() in snapshot_read.c: same variant, start_ns and
 * end_ns, or with both unknown the same histograms) is refused with one
 * line on stderr naming both files, dst and src unchanged.
 * Return: CR_OK, CR_USAGE (a run twice) or CR_ERR (out of memory).
 */
int cr_snapshot_merge(struct cr_snapshot *dst, struct cr_snapshot *src,
		      const char *path);

/*
 * One warning line on f for each metadata field (string, number,
 * param:NAME, tag:NAME) of an input that differs from the first input's,
 * naming both values and files; skip: a field not to warn about
 * ("meta:FIELD", "tag:KEY", "param:NAME"), or NULL.  Return the lines.
 */
size_t cr_snapshot_meta_diff(FILE *f, const struct cr_snapshot *s,
			     const char *skip);

/*
 * The JSON text of a snapshot (malloc'd, NUL-terminated), or NULL when out
 * of memory or a run's events are not held (a study's not loaded:
 * cr_run_events_load(); cr_snapshot_put_run() writes one run at a time).
 */
char *cr_snapshot_format(const struct cr_snapshot *s);

/*
 * The text cr_snapshot_format() makes, written to f in pieces so that a
 * snapshot is written run by run (export: one run's events held at a
 * time): the head (the document up to its runs), run r as the i-th
 * (0-based) of the document (its events held: cr_run_events_load()),
 * the tail after nruns runs.  Return CR_OK, or CR_ERR when out of memory
 * or r's events are not loaded; a failed write shows in ferror(f).
 */
int cr_snapshot_put_head(FILE *f, const struct cr_snapshot *s);
int cr_snapshot_put_run(FILE *f, const struct cr_run *r, size_t i);
void cr_snapshot_put_tail(FILE *f, size_t nruns);

/*
 * Write a snapshot atomically: a temporary file in the same directory,
 * fsync'd, then renamed over path, so that path holds either the old
 * content or the whole new one.  On failure print one line on stderr and
 * remove the temporary file.  Return: CR_OK or CR_ERR.
 */
int cr_snapshot_write(const struct cr_snapshot *s, const char *path);

#endif
