/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_shared.h - what twin.bpf.c and twin.c both need to agree on: the
 * metric indices of the "hists" map and the layout of one metric's
 * per-CPU value.  No includes but the catalog, which has none: each side
 * brings its own __u64.
 */
#ifndef CLKSTAT_BPF_TWIN_SHARED_H
#define CLKSTAT_BPF_TWIN_SHARED_H

/* Index of each metric in the hists map (and in twin_metric_names[]). */
enum twin_metric {
	TM_TTWU,		/* ttwu_enqueue */
	TM_TTWU_MIG,		/* ttwu_enqueue_migrated */
	TM_TTWU_LOC,		/* ttwu_enqueue_local */
	TM_TKREAD,		/* tkread: counters only */
	TM_TKW,			/* ttwu_tkread */
	TM_TKW_MIG,		/* ttwu_tkread_migrated */
	TM_TKW_LOC,		/* ttwu_tkread_local */
	TM_TKW_ENQ,		/* enqueue_tkread */
	TM_CSSWITCH,		/* csswitch */
	TM_N
};

/*
 * The counters of each metric and the functions tkread hooks: the
 * module's catalog, CLKSTAT_TTWU_*, CLKSTAT_TKW_*, CLKSTAT_TK_* and
 * CLKSTAT_CSW_*.
 */
#include "../../kmod/uapi/clkstat_catalog.h"

#define TWIN_MAX_COUNTERS	8	/* as CLKSTAT_MAX_COUNTERS */

/*
 * One CPU's share of one metric.  nmin holds ~min, so that the map's
 * zeroed memory means "no sample" (min U64_MAX) without a write per CPU.
 * slot[] has room for CLKSTAT_NSLOTS_MAX; frac_bits decides how many are
 * used.  The whole value (30 800 bytes) fits the kernel's 32 KiB limit
 * for per-CPU map values.
 */
struct twin_slot {
	__u64 count;
	__u64 sum;
};

#define TWIN_HIST(nslots)						\
	struct {							\
		__u64 nmin;						\
		__u64 max;						\
		__u64 counter[TWIN_MAX_COUNTERS];			\
		struct twin_slot slot[nslots];				\
	}

/* What a pending wakeup remembers (corr.h's clkstat_corr_val). */
struct twin_pending {
	__u64 ts;		/* wakeup time */
	__u64 ts2;		/* tkread: enqueue time, 0: none yet */
	__u32 cpu;		/* the task's CPU at the wakeup */
	__u32 epoch;		/* the twin's epoch at the wakeup */
	__u32 migrated;		/* tkread: the enqueue found another CPU */
	__u32 pad;
};

/* Entries of each pending-wakeup hash map (the module's corr_entries). */
#define TWIN_PENDING_ENTRIES	16384

#endif
