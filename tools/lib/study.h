/* SPDX-License-Identifier: GPL-2.0 */
/*
 * study.h - study files: a struct cr_snapshot (model.h) as an SQLite
 * database (tools/lib/study_schema.sql), written run by run, each run in
 * one transaction, and read with each run's events left in the file until
 * cr_run_events_load() asks for them.  Documentation/clkstat-study.rst
 * describes the file; every failure is one line on stderr,
 * "clkstat-report: FILE: ...", and a status of status.h.
 */
#ifndef CLKSTAT_REPORT_STUDY_H
#define CLKSTAT_REPORT_STUDY_H

#include <stddef.h>
#include "model.h"

/* Do these bytes begin an SQLite database ("SQLite format 3\0")? */
int cr_study_sniff(const void *buf, size_t len);
/* Does the file open on fd begin one (read at offset 0, not moved)? */
int cr_study_sniff_fd(int fd);

/*
 * Read a study into s (zeroed here): the metadata, runs, metrics,
 * histograms, counters and tags, checked as the JSON reader checks a
 * snapshot; each run's events stay in the file (events.lazy, n their
 * count, ev NULL), and s->source keeps the file open read-only for
 * cr_run_events_load() until cr_snapshot_free().  Return CR_OK,
 * CR_NO_FILE, CR_CORRUPT, CR_FORMAT (not a study, or a newer schema) or
 * CR_ERR; on failure s is left empty.
 */
int cr_study_read(const char *path, struct cr_snapshot *s);

struct cr_study;

/*
 * A new study at path, which must not exist, with metadata m: the file
 * created, locked against other writers for as long as it is open
 * (a lock of its own on one byte of the file), its schema written.  On failure nothing is left at path.
 * Return CR_OK, CR_USAGE (path exists) or CR_ERR.
 */
int cr_study_create(const char *path, const struct cr_meta *m,
		    struct cr_study **out);

/*
 * The study at path opened to add runs recorded with metadata m: locked
 * (a second writer is refused: CR_USAGE), checked (CR_FORMAT, CR_CORRUPT),
 * and m checked to pool with the study's own metadata: a field that must
 * match and differs is refused (CR_USAGE) naming it and both values; one
 * that may differ is a warning line on stderr, and the study keeps its
 * own (Documentation/clkstat-study.rst, "Appending").
 */
int cr_study_append(const char *path, const struct cr_meta *m,
		    struct cr_study **out);

/*
 * Would m pool with the study's metadata sm?  CR_OK, or CR_USAGE with one
 * line (no newline) in err naming the field and both values; when it
 * would, warn (NULL: none) gets one line per field that differs but may
 * (a refusal is its one line alone).
 */
int cr_study_meta_pools(const struct cr_meta *sm, const struct cr_meta *m,
			const char *path, FILE *warn, char *err,
			size_t errlen);

/*
 * Is a run of the study r again (same variant, start_ns and end_ns, both
 * known)?  Return the study's run number, or -1.
 */
long cr_study_find_run(struct cr_study *st, const struct cr_run *r);

/*
 * Would runs of variant recorded at frac_bits pool with the study's runs
 * of that variant: are its metrics of that variant at frac_bits too (or
 * none there yet)?  CR_OK, or CR_USAGE with one line (no newline) in err
 * naming both; or another status, SQLite's failure in err.  Metadata that
 * pools does not tell for the BPF twin: its --frac-bits is not the
 * module's, which the metadata holds.
 */
int cr_study_frac_bits_pool(struct cr_study *st, const char *variant,
			    unsigned int frac_bits, char *err, size_t errlen);

/* The runs the study holds. */
size_t cr_study_nruns(const struct cr_study *st);

/*
 * Add run r (numbered after the study's runs, whatever r->index says):
 * the run, its metrics, histograms, counters, tags and events (r->events
 * must be held: loaded, not lazy) in one transaction, then a checkpoint,
 * so that the database file itself changes only between runs.  Return
 * CR_OK, or CR_ERR with one line (the study holds the runs before).
 */
int cr_study_add_run(struct cr_study *st, const struct cr_run *r);

/*
 * Close and unlock; NULL is ignored.  Return CR_OK, or CR_ERR with one
 * line (the runs added so far are in the file all the same).
 */
int cr_study_close(struct cr_study *st);

/*
 * Tests only: called inside cr_study_add_run()'s transaction, after the
 * run's rows are written and before its commit (NULL: nothing).
 */
extern void (*cr_study_before_commit)(const char *path);

#endif
