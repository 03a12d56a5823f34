/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - where the reading commands read from: the live module (no
 * -i), or one or more snapshot files (-i FILE...) whose runs are read one
 * after the other, and --run N to take one run alone.  report, info, raw,
 * events, xcorr and serve take these options.
 */
#ifndef CLKSTAT_REPORT_INPUT_H
#define CLKSTAT_REPORT_INPUT_H

#include <stddef.h>
#include "../lib/snapshot.h"
#include "cli.h"

/* -i, --input FILE; --run N. */
extern const struct cr_optset cr_input_opts;
/* The --input files given (0: the live module), and --run (-1: none). */
unsigned int cr_input_count(void);
long cr_input_run(void);
/* The first --input file's name, as given. */
const char *cr_input_first(void);
/* --run needs --input: CR_OK, or CR_USAGE with the line said. */
int cr_input_check(void);
/*
 * Every --input file's runs into s (zeroed by the caller), one after the
 * other (cr_snapshot_merge()); on failure a line said why, s is empty.
 */
int cr_input_read(struct cr_snapshot *s);
/*
 * One line on stderr naming the runs recorded without --events ("run 2
 * (kprobe) was recorded without --events"; "runs 1 (direct), 3
 * (kprobe) were ..."), with their files when several were read.
 */
void cr_input_say_no_events(const struct cr_snapshot *s,
			    const struct cr_run *const *runs, size_t n);

#endif
