/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - what record writes about the machine beside the runs: kernel,
 * clocksource, the module's parameters, VM or bare metal, C-state and CPU
 * frequency settings.
 */
#ifndef CLKSTAT_REPORT_META_H
#define CLKSTAT_REPORT_META_H

#include <stddef.h>
#include "model.h"
#include "nl.h"

/*
 * Fill m from this machine (uname, /proc, /sys) and the module's GET_INFO.
 * What cannot be read stays NULL.  root is prepended to every /proc and
 * /sys path ("" normally; a directory tree in the tests).
 * Return 0, or -ENOMEM.
 */
int cr_meta_collect(struct cr_meta *m, const struct cr_info *info,
		    const char *root);

/*
 * What info prints for max_cstate: intel_idle.max_cstate where intel_idle
 * is the cpuidle driver ("-" if unknown), else "n/a (no cpuidle driver)"
 * or "n/a (cpuidle driver D, not intel_idle)", also for a snapshot that
 * recorded one anyway (written before record left it out).  Returns
 * m->max_cstate, a constant or buf.
 */
const char *cr_meta_max_cstate(const struct cr_meta *m, char *buf,
			       size_t len);

/* "vm" or "bare-metal", and the hypervisor's name if known (malloc'd). */
int cr_meta_machine(const char *root, char **machine, char **hypervisor);

#endif
