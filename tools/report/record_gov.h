/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_gov.h - record --governors: the cpufreq governor of each run,
 * set on every policy, given back however record ends (record_gov.c).
 */
#ifndef CLKSTAT_REPORT_RECORD_GOV_H
#define CLKSTAT_REPORT_RECORD_GOV_H

#include "../lib/cpufreq.h"

/*
 * Before run 1, before anything is changed: the machine has cpufreq,
 * every policy has each of the n governors, and this process may write
 * them (root).  CR_OK, or CR_USAGE after one line ending "(nothing
 * recorded)".  n == 0: nothing to check, and nothing done after.
 */
int cr_gov_preflight(const char names[][CR_GOV_NAME], unsigned int n);

/*
 * The governors now saved, and the guard started that gives them back
 * however record ends.  CR_OK, or CR_ERR after one line, nothing changed.
 */
int cr_gov_begin(void);

/* gov on every policy for the next run: CR_OK, or CR_ERR after a line. */
int cr_gov_enter(const char *gov);

/*
 * record's end: the guard gives the governors back, record waits for it.
 * CR_OK (also without --governors, and a second time), or CR_ERR after
 * one line when a governor could not be given back.
 */
int cr_gov_end(void);

#endif
