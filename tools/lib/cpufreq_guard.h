/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpufreq_guard.h - a child process that gives the governors back
 * however its parent ends (cpufreq_guard.c says how;
 * Documentation/clkstat-recording.rst, "Conditions: governors").
 */
#ifndef CLKSTAT_REPORT_CPUFREQ_GUARD_H
#define CLKSTAT_REPORT_CPUFREQ_GUARD_H

#include <stddef.h>
#include <sys/types.h>
#include "cpufreq.h"

struct cr_gov_guard {
	pid_t pid;		/* the guard; 0: none */
	int fd;			/* our end of its socket */
};

/*
 * Start the guard holding saved (what the governors are now): it returns
 * once the guard is set up, before anything is changed.  0, or -1 with
 * one line into err and no guard.
 */
int cr_gov_guard_start(const struct cr_cpufreq *saved, struct cr_gov_guard *g,
		       char *err, size_t errlen);

/*
 * The parent's normal end: close our end (the guard restores) and wait
 * for the guard to exit.  0 when it restored every policy (or there is
 * no guard); 1 when it did not exit of itself (killed) and saved was
 * given back from here, err saying so; -1 when a governor could not be
 * given back, with one line into err.
 */
int cr_gov_guard_end(struct cr_gov_guard *g, const struct cr_cpufreq *saved,
		     char *err, size_t errlen);

#endif
