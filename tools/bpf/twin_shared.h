/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin_shared.h - what twin.bpf.c and twin.c both need to agree on: the
 * metric indices of the "hists" map and the layout of one metric's
 * per-CPU value.  No includes but the catalog, which has none: each side
 * brings its own __u64.
 */
#ifndef CLKSTAT_BPF_TWIN_SHARED_H
#define CLKSTAT_BPF_TWIN_SHARED_H

/*
 * The counters of each metric and the functions tkread hooks: the
 * module's catalog, CLKSTAT_TTWU_*, CLKSTAT_TKW_*, CLKSTAT_TK_* and
 * CLKSTAT_CSW_*.
 */
#include "../../kmod/uapi/clkstat_catalog.h"

/*
 * The metrics the twin keeps, X(index, catalog ID), in the order of the
 * hists map (its names: twin_metric_name()).  tkread keeps counters only.
 */
#define TWIN_METRICS(X)							\
	X(TM_TTWU, TTWU_ENQUEUE)					\
	X(TM_TTWU_MIG, TTWU_ENQUEUE_MIGRATED)				\
	X(TM_TTWU_LOC, TTWU_ENQUEUE_LOCAL)				\
	X(TM_TKREAD, TKREAD)						\
	X(TM_TKW, TTWU_TKREAD)						\
	X(TM_TKW_MIG, TTWU_TKREAD_MIGRATED)				\
	X(TM_TKW_LOC, TTWU_TKREAD_LOCAL)				\
	X(TM_TKW_ENQ, ENQUEUE_TKREAD)					\
	X(TM_CSSWITCH, CSSWITCH)					\
	X(TM_CSREAD_HPET, CSREAD_HPET)					\
	X(TM_CSREAD_ACPI_PM, CSREAD_ACPI_PM)				\
	X(TM_CSW_FIRST_READ, CSSWITCH_FIRST_READ)			\
	X(TM_CLOCKOFF, CLOCKOFF)					\
	X(TM_CLOCKOFF_NEG, CLOCKOFF_NEG)

#define TWIN_METRIC_ENUM(tm, id)	tm,
enum twin_metric { TWIN_METRICS(TWIN_METRIC_ENUM) TM_N };

#define TWIN_MAX_COUNTERS	CLKSTAT_MAX_COUNTERS

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

/*
 * One task's pending state, ttwu's and tkread's in one value as the
 * module's merged pending entry (kmod/pending.h): both intervals open at
 * the same wakeup, so they share its time, CPU, epoch and event id; ttwu
 * and tkw say which of them is still open.  Task-local storage
 * (bpf-fentry, bpf-tp) or a hash map keyed by the task's address
 * (bpf-kprobe, whose programs have no BTF pointer to the woken task).
 * lock is taken with one compare-and-swap per event and released with a
 * plain store (twin.bpf.c's pend_lock()): a value held by another CPU,
 * or by a program of ours this one interrupted, is "busy".
 */
struct twin_pend {
	__u64 ts;		/* wakeup time */
	__u64 ts2;		/* tkread: enqueue time, 0: none yet */
	__u64 corr;		/* the wakeup event's id, 0: no event log */
	__u32 cpu;		/* the task's CPU at the wakeup */
	__u32 epoch;		/* the twin's epoch at the wakeup */
	__u32 lock;		/* 1: a program updates the value */
	__u8 ttwu;		/* ttwu's interval open */
	__u8 tkw;		/* tkread's interval open */
	__u8 migrated;		/* tkread: the enqueue found another CPU */
	__u8 pad;
};

/*
 * A record of the twin's own in its ring buffer, never in a run: the
 * module's window was reset (twin.bpf.c's tw_control()), and twin.c's
 * reader drops the events before it, as the module's reset empties its
 * log.  Outside clkstat_events.h's types.
 */
#define TWIN_EV_RESET	0xff

/* The module's window (kmod/control_trace.h), followed by raw tracepoint. */
#define TWIN_CONTROL_TP	"clkstat_control"

/* Entries of the bpf-kprobe pending hash map (the module's corr_entries). */
#define TWIN_PENDING_ENTRIES	16384

/*
 * csread: clocksource reads in progress, keyed by task and context (a
 * read interrupted by an interrupt's read: twin.bpf.c's csr_key()).
 */
#define TWIN_CSREAD_ENTRIES	4096

/*
 * The event log (record --events): a marker's text keeps the bytes that
 * kmod/probe_marker.c keeps, the kernel's isalnum() (its ctype table has
 * the Latin-1 letters 0xc0-0xff but 0xd7 and 0xf7) and "._:-=+/"; any
 * other byte becomes '_'.
 */
static inline int twin_marker_char_ok(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') ||
	       (c >= 0xc0 && c != 0xd7 && c != 0xf7) ||
	       c == '.' || c == '_' || c == ':' || c == '-' || c == '=' ||
	       c == '+' || c == '/';
}

#endif
