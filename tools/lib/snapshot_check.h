/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot_check.h - the rules a recording is held to, whatever file it
 * came from: the JSON reader (snapshot_read.c) and the study reader
 * (study_read.c) both check each value with these, so that a snapshot
 * and a study refuse the same histogram with the same words.  Each check
 * returns CR_OK, or CR_CORRUPT with one line (no newline, no place) in
 * msg; the caller adds where (a JSON path, a table and row).
 * Documentation/clkstat-snapshot.rst, "Reading: the rules", lists them.
 */
#ifndef CLKSTAT_REPORT_SNAPSHOT_CHECK_H
#define CLKSTAT_REPORT_SNAPSHOT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

/* The counts of one histogram add up to at most this many samples. */
#define CR_SNAP_MAX_SAMPLES	(1ULL << 62)
/* exit_status: -1 (none) or a shell-style status, 128 + signal included. */
#define CR_SNAP_EXIT_MAX	255

/*
 * A name: non-empty, shorter than size (it has to fit a char[size] with
 * its NUL), without control characters.
 */
int cr_check_name(const char *s, size_t len, size_t size, char *msg,
		  size_t n);

/*
 * The next slot of h (frac_bits k) after those it holds: inside the
 * layout, above the last one, non-empty, the histogram's counts (*total,
 * updated) at most CR_SNAP_MAX_SAMPLES, a sum that count samples of the
 * slot can make.
 */
int cr_check_slot(const struct cr_hist *h, unsigned int k, uint64_t slot,
		  uint64_t count, uint64_t sum, uint64_t *total, char *msg,
		  size_t n);

/* The min and max of h, which has slots: inside its first and last slot. */
int cr_check_min_max(const struct cr_hist *h, unsigned int k, char *msg,
		     size_t n);

/*
 * m's total is its CPUs added up, slot by slot, min and max (when it has
 * CPUs).  *where: "cpus" (they overflow) or "total" (it disagrees).
 * CR_ERR: out of memory.
 */
int cr_check_total(const struct cr_metric *m, const char **where, char *msg,
		   size_t n);

/*
 * Two metrics of r with the same name and variant: 1 with the later one's
 * index in *dup and the earlier one's in *first, 0 if none, -1 when out
 * of memory.
 */
int cr_check_dup_metric(const struct cr_run *r, size_t *dup, size_t *first);

/*
 * Tag key=val under --tag's rules, added to into's tags (a run's are
 * checked on a scratch struct cr_meta, then added to the run).  CR_ERR:
 * out of memory.
 */
int cr_check_tag(struct cr_meta *into, const char *key, const char *val,
		 char *msg, size_t n);

#endif
