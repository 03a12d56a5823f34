// SPDX-License-Identifier: GPL-2.0
/*
 * record_gov.c - record --governors: each run's cpufreq governor written
 * to every active policy's scaling_governor before it (a condition, as
 * --cstates and --load are: record_cond.c), and the governors found at
 * the start given back however record ends.
 *
 * Why a guard process: a sysfs write stays when its writer dies (a PM
 * QoS request through /dev/cpu_dma_latency goes with its file, which the
 * kernel closes whatever kills the process; nothing like it exists for
 * governors), and no handler of record's runs at SIGKILL.  So the
 * governors found are handed to a child forked before the first write
 * (lib/cpufreq_guard.c), which ignores the terminal's signals, waits
 * for the socket from record to reach EOF, and writes them back; record
 * waits for it at its end.  Every refusal comes before run 1, in one
 * line, with nothing changed: no cpufreq, a governor the machine lacks
 * (the nearest named), not root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/cpufreq_guard.h"
#include "../lib/status.h"
#include "record_gov.h"

static struct cr_cpufreq cr_gov_saved;	/* the governors found */
static struct cr_gov_guard cr_gov_guard;
static int cr_gov_used;			/* --governors given */

/* May this process write every policy's scaling_governor? */
static int cr_gov_writable(const struct cr_cpufreq *cf, char *err,
			   size_t errlen)
{
	char path[160];
	size_t k;

	for (k = 0; k < cf->n; k++) {
		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpufreq/policy%u/scaling_governor",
			 cf->root, cf->p[k].id);
		if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS)) {
			snprintf(err, errlen, "cannot write %s (%s): setting governors needs root",
				 path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int cr_gov_preflight(const char names[][CR_GOV_NAME], unsigned int n)
{
	char err[1024];
	unsigned int i;
	int st = CR_OK;

	if (!n)
		return CR_OK;
	if (cr_cpufreq_read("", &cr_gov_saved)) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	for (i = 0; !st && i < n; i++)
		if (cr_cpufreq_check(&cr_gov_saved, names[i], err, sizeof(err)))
			st = CR_USAGE;
	if (!st && cr_gov_writable(&cr_gov_saved, err, sizeof(err)))
		st = CR_USAGE;
	if (st) {
		fprintf(stderr, "clkstat-report: record: --governors: %s (nothing recorded)\n",
			err);
		cr_cpufreq_free(&cr_gov_saved);
		return st;
	}
	cr_gov_used = 1;
	return CR_OK;
}

int cr_gov_begin(void)
{
	struct cr_cpufreq now;
	char err[512];

	if (!cr_gov_used)
		return CR_OK;
	/*
	 * What the guard gives back is what the machine has now, not what
	 * the preflight saw: a governor changed meanwhile by someone else
	 * stays theirs.
	 */
	if (cr_cpufreq_read("", &now)) {
		fprintf(stderr, "clkstat-report: out of memory\n");
		return CR_ERR;
	}
	cr_cpufreq_free(&cr_gov_saved);
	cr_gov_saved = now;
	if (!cr_gov_saved.n) {
		fprintf(stderr, "clkstat-report: record: --governors: the cpufreq driver went away (nothing changed)\n");
		return CR_ERR;
	}
	if (cr_gov_guard_start(&cr_gov_saved, &cr_gov_guard, err,
			       sizeof(err))) {
		fprintf(stderr, "clkstat-report: record: --governors: %s (nothing changed)\n",
			err);
		return CR_ERR;
	}
	return CR_OK;
}

int cr_gov_enter(const char *gov)
{
	char err[512];

	if (cr_cpufreq_set(&cr_gov_saved, gov, err, sizeof(err))) {
		fprintf(stderr, "clkstat-report: record: --governors: could not set %s: %s\n",
			gov, err);
		return CR_ERR;
	}
	return CR_OK;
}

int cr_gov_end(void)
{
	char err[512];
	int r;

	if (!cr_gov_used)
		return CR_OK;
	r = cr_gov_guard_end(&cr_gov_guard, &cr_gov_saved, err, sizeof(err));
	if (r > 0)
		fprintf(stderr, "clkstat-report: record: warning: --governors: %s\n",
			err);
	else if (r < 0)
		fprintf(stderr, "clkstat-report: record: --governors: %s\n",
			err);
	cr_cpufreq_free(&cr_gov_saved);
	cr_gov_used = 0;
	return r < 0 ? CR_ERR : CR_OK;
}
