/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_events.h - the event log's record, shared by clkstat.ko's per-CPU
 * rings, the BPF twin's ring buffer, netlink (GET_EVENTS) and the tools'
 * recordings, so that an event means the same whoever logged it.
 *
 * Every timestamp (ts) is CLOCK_MONOTONIC in ns (clkstat_now() in the
 * module: the TSC with the timekeeper's readout, or
 * ktime_get_mono_fast_ns(), kmod/clock.c; bpf_ktime_get_ns() in the twin); a recording maps it to
 * CLOCK_REALTIME with clock pairs taken by the tool at each run's ends.
 */
#ifndef _UAPI_CLKSTAT_EVENTS_H
#define _UAPI_CLKSTAT_EVENTS_H

#include <linux/types.h>
#include "clkstat_catalog.h"

enum clkstat_event_type {
	CLKSTAT_EVENT_TYPES(CLKSTAT_CAT_EV_ENUM)
	CLKSTAT_EV_NTYPES
};

/* Bytes of text kept (clocksource name, marker), NUL included. */
#define CLKSTAT_EVENT_TEXT	16

/* struct clkstat_event_rec.flags */
#define CLKSTAT_EVF_LATENCY	0x01	/* latency holds the interval closed */
#define CLKSTAT_EVF_MIGRATED	0x02	/* the wakeup crossed CPUs */
#define CLKSTAT_EVF_LOCAL	0x04	/* the wakeup stayed on its CPU */
#define CLKSTAT_EVF_RQ_CLOCK	0x08	/* rq_clock holds the CPU's rq->clock */

/*
 * One event.  migrated is known when exactly one of EVF_MIGRATED and
 * EVF_LOCAL is set (enqueue, first_tkread); neither: not known (wakeup,
 * clocksource events, markers).
 */
struct clkstat_event_rec {
	__u64 ts;		/* CLOCK_MONOTONIC, ns */
	__u64 corr;		/* correlation id, 0: none */
	__u64 latency;		/* ns, with CLKSTAT_EVF_LATENCY */
	__u64 rq_clock;		/* ns, with CLKSTAT_EVF_RQ_CLOCK */
	__u32 pid;
	__u16 cpu;
	__u8 type;		/* enum clkstat_event_type */
	__u8 flags;		/* CLKSTAT_EVF_* */
	char text[CLKSTAT_EVENT_TEXT];	/* NUL-terminated, "" for none */
};

#endif /* _UAPI_CLKSTAT_EVENTS_H */
