/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpufreq.h - the machine's CPU frequency scaling as sysfs shows it
 * (/sys/devices/system/cpu/cpufreq/): its driver, each policy's governor,
 * boost; read for the metadata, written by record --governors.
 * Documentation/clkstat-recording.rst, "Conditions: governors".
 */
#ifndef CLKSTAT_REPORT_CPUFREQ_H
#define CLKSTAT_REPORT_CPUFREQ_H

#include <stddef.h>

/* A governor's name: the kernel's CPUFREQ_NAME_LEN, 15 bytes and a NUL. */
#define CR_GOV_NAME	16
/* The run tag record --governors gives each run, --compare's too. */
#define CR_TAG_GOVERNOR	"governor"

/* One policy with at least one online CPU (policyN/affected_cpus). */
struct cr_cpufreq_policy {
	unsigned int id;		/* N of policyN: its first CPU */
	unsigned int *cpus;		/* its online CPUs, ascending */
	size_t ncpus;
	char *governor;			/* scaling_governor */
	char *available;		/* scaling_available_governors */
};

/*
 * What cr_cpufreq_read() found.  n == 0: no cpufreq (no driver, or no
 * policy with an online CPU), and driver and boost are NULL too.
 */
struct cr_cpufreq {
	char *root;			/* prepended to every path */
	size_t n;
	struct cr_cpufreq_policy *p;	/* by id */
	char *driver;			/* scaling_driver */
	char *boost;			/* "1" or "0"; NULL: no boost control */
};

/*
 * Read the machine's cpufreq state under root ("" normally; a directory
 * tree in the tests) into cf.  A policy whose files cannot be read (its
 * CPUs all offline: the kernel says EBUSY) is left out.  Return 0, or
 * -ENOMEM with cf empty.
 */
int cr_cpufreq_read(const char *root, struct cr_cpufreq *cf);
void cr_cpufreq_free(struct cr_cpufreq *cf);

/*
 * The governors as the metadata holds them (malloc'd): the one name when
 * every policy has it, else "GOV:CPUS GOV:CPUS ...", one word per
 * governor in the order of its lowest CPU, CPUS in the kernel's cpulist
 * form ("0-3,6"); NULL without cpufreq, or out of memory (*oom set).
 */
char *cr_cpufreq_governors(const struct cr_cpufreq *cf, int *oom);

/*
 * record --governors LIST: names into names[], at most max.  0, or -1
 * with one line (no newline) into err: an empty item, a name of more
 * than 15 bytes or with a character that no governor has (one is
 * lowercase letters, digits, '_' and '-'), a name twice, too many.
 */
int cr_cpufreq_parse_list(const char *list, char names[][CR_GOV_NAME],
			  size_t max, size_t *n, char *err, size_t errlen);

/*
 * Can gov be set on every policy of cf?  0, or -1 with one line into
 * err: no cpufreq, or a policy whose scaling_available_governors lacks
 * it (the nearest names, "did you mean", and those it has).
 */
int cr_cpufreq_check(const struct cr_cpufreq *cf, const char *gov, char *err,
		     size_t errlen);

/*
 * Set gov on every policy of cf (scaling_governor written, read back).
 * 0, or -1 with one line into err naming the policy; the policies before
 * it keep gov.
 */
int cr_cpufreq_set(const struct cr_cpufreq *cf, const char *gov, char *err,
		   size_t errlen);

/*
 * Give every policy of saved its governor back where it has another now.
 * 0, or -1 with one line into err for the first policy that would not
 * take it (the others are tried all the same).
 */
int cr_cpufreq_restore(const struct cr_cpufreq *saved, char *err,
		       size_t errlen);

#endif
