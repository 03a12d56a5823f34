/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_cfg.h - what every probe is set up with at load (probes.c), the
 * built-in probes and the user-defined ones (probe_trace.c) alike.
 */
#ifndef _CLKSTAT_PROBE_CFG_H
#define _CLKSTAT_PROBE_CFG_H

#include <linux/types.h>

struct clkstat_variant;

struct clkstat_probe_cfg {
	unsigned int pending_entries;	/* per-task table size, power of two */
	bool with_ttwu;			/* the ttwu probe is enabled too */
	bool with_csread;		/* the csread probe is enabled too */
	bool with_sampling_probe;	/* ttwu, tkread or csswitch (clockoff) */
	const struct clkstat_variant *variant;
#ifdef CLKSTAT_FAULT_HOOKS
	const char *fault_hook;		/* test only: OLD=NEW, see probes.c */
#endif
};

#endif /* _CLKSTAT_PROBE_CFG_H */
