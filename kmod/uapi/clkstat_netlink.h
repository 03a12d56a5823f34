/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_netlink.h - the ABI of the "clkstat" generic netlink family,
 * shared by the module and tools/ (Documentation/netlink/specs/clkstat.yaml
 * describes the same in the kernel's spec format).
 *
 * Requests and replies carry attributes of one space, CLKSTAT_A_*; a
 * metric's data nests CLKSTAT_A_M_* attributes inside CLKSTAT_A_METRIC, an
 * event of the event log CLKSTAT_A_E_* inside CLKSTAT_A_EVENT.
 */
#ifndef _UAPI_CLKSTAT_NETLINK_H
#define _UAPI_CLKSTAT_NETLINK_H

#include <linux/types.h>
#include "clkstat_catalog.h"

#define CLKSTAT_GENL_NAME	"clkstat"
/* Bumped on any incompatible change; readers refuse another version. */
#define CLKSTAT_GENL_VERSION	2

enum clkstat_nl_cmd {
	CLKSTAT_CMD_UNSPEC,
	CLKSTAT_CMD_GET_INFO,	/* do: module, parameters, state */
	CLKSTAT_CMD_GET_HIST,	/* dump: one message per metric, CPU, chunk */
	CLKSTAT_CMD_CTRL,	/* do: CLKSTAT_A_CTRL_OP and its argument */
	/*
	 * dump: the event log, copied when the dump starts, oldest first:
	 * CLKSTAT_A_EV_COUNT and CLKSTAT_A_EV_OVERWRITTEN in the first
	 * message, CLKSTAT_A_EVENT nests in every message, as many as fit.
	 * -ENODATA when the module was loaded without an event log (events=0).
	 */
	CLKSTAT_CMD_GET_EVENTS,
	__CLKSTAT_CMD_MAX,
};
#define CLKSTAT_CMD_MAX (__CLKSTAT_CMD_MAX - 1)

/*
 * CLKSTAT_A_CTRL_OP values: the control operations of the catalog
 * (clkstat_catalog.h, CLKSTAT_CTRL_OPS), the debugfs control commands.
 */
enum clkstat_nl_ctrl_op {
	CLKSTAT_CTRL_OPS(CLKSTAT_CAT_CTRL_ENUM)
	__CLKSTAT_CTRL_MAX,
};
#define CLKSTAT_CTRL_MAX (__CLKSTAT_CTRL_MAX - 1)

enum clkstat_nl_attr {
	CLKSTAT_A_UNSPEC,
	CLKSTAT_A_VERSION,	/* string: the module's version */
	CLKSTAT_A_ABI,		/* u32: CLKSTAT_GENL_VERSION */
	CLKSTAT_A_FRAC_BITS,	/* u32 */
	CLKSTAT_A_PROBES,	/* string: the probes= parameter */
	CLKSTAT_A_VARIANT,	/* string: attached variant (or to switch to) */
	CLKSTAT_A_CLOCKSOURCE,	/* string: the current clocksource */
	CLKSTAT_A_NR_CPUS,	/* u32: possible CPUs (per-CPU indexes) */
	CLKSTAT_A_RECORDING,	/* u8: 1 if any metric records */
	CLKSTAT_A_SWITCHES,	/* u64: variant switches since load */
	CLKSTAT_A_TGID,		/* u32: the tgid filter, 0: every task */
	CLKSTAT_A_CTRL_OP,	/* u32: enum clkstat_nl_ctrl_op */
	CLKSTAT_A_METRIC_ID,	/* string: "name.variant" or "name" */
	CLKSTAT_A_METRIC,	/* nest: CLKSTAT_A_M_* */
	CLKSTAT_A_PAD,
	CLKSTAT_A_EV_ENTRIES,	/* u32: GET_INFO: events= per CPU, 0: no log */
	CLKSTAT_A_EV_COUNT,	/* u64: events in the dump (first message) */
	CLKSTAT_A_EV_OVERWRITTEN, /* u64: events lost to full rings (first) */
	CLKSTAT_A_EVENT,	/* nest: CLKSTAT_A_E_*, one per event */
	/* string: CTRL trace and untrace: a spec (clkstat_trace.h) */
	CLKSTAT_A_TRACE,
	/* nest: GET_INFO: CLKSTAT_A_T_*, one per user-defined probe */
	CLKSTAT_A_TRACE_INFO,
	CLKSTAT_A_TRACE_LIMIT,	/* u32: GET_INFO: CLKSTAT_TRACE_MAX */
	/*
	 * string: GET_INFO: the clock of every timestamp, "tsc" or "mono";
	 * once the kernel left the TSC "mono (tsc until N ns, then
	 * clocksource NAME)".  The first word is the clock read now.
	 */
	CLKSTAT_A_CLOCK,
	/*
	 * u64: GET_INFO: handlers that skipped their work since load because
	 * they were entered from inside clkstat (a hook on a function
	 * clkstat itself calls out to: the clocksource read of its clock)
	 */
	CLKSTAT_A_REENTERED,
	__CLKSTAT_A_MAX,
};
#define CLKSTAT_A_MAX (__CLKSTAT_A_MAX - 1)

enum clkstat_nl_metric_attr {
	CLKSTAT_A_M_UNSPEC,
	CLKSTAT_A_M_NAME,	/* string */
	CLKSTAT_A_M_VARIANT,	/* string */
	CLKSTAT_A_M_FRAC_BITS,	/* u32 */
	CLKSTAT_A_M_RECORDING,	/* u8 */
	CLKSTAT_A_M_CPU,	/* u32: a CPU, or CLKSTAT_CPU_ALL for the sum */
	CLKSTAT_A_M_MIN_NS,	/* u64: U64_MAX: no sample (first chunk) */
	/*
	 * Not CLKSTAT_A_M_MAX, the attribute count's name: version 1 had
	 * both, the macro won, and "max" went out with CLKSTAT_A_M_PAD's
	 * value (10), not its own (8).
	 */
	CLKSTAT_A_M_MAX_NS,	/* u64 (first chunk) */
	CLKSTAT_A_M_COUNTER,	/* nest: CLKSTAT_A_C_* (first chunk, total) */
	CLKSTAT_A_M_SLOTS,	/* binary: struct clkstat_nl_slot[] */
	CLKSTAT_A_M_PAD,
	CLKSTAT_A_M_RESETS,	/* u64: resets since load (first chunk) */
	/* u64: CLOCK_REALTIME ns of creation or the last reset (first chunk) */
	CLKSTAT_A_M_CREATED_NS,
	__CLKSTAT_A_M_MAX,
};
#define CLKSTAT_A_M_MAX (__CLKSTAT_A_M_MAX - 1)

enum clkstat_nl_counter_attr {
	CLKSTAT_A_C_UNSPEC,
	CLKSTAT_A_C_NAME,	/* string */
	CLKSTAT_A_C_VALUE,	/* u64 */
	CLKSTAT_A_C_PAD,
	__CLKSTAT_A_C_MAX,
};
#define CLKSTAT_A_C_MAX (__CLKSTAT_A_C_MAX - 1)

/*
 * One event of GET_EVENTS (uapi/clkstat_events.h): TS, TYPE, CPU, PID and
 * CORR always; LATENCY only for an event that closes an interval, TEXT only
 * when not empty, MIGRATED only when known, RQ_CLOCK only when read.
 */
enum clkstat_nl_event_attr {
	CLKSTAT_A_E_UNSPEC,
	CLKSTAT_A_E_TS,		/* u64: ns, CLOCK_MONOTONIC */
	CLKSTAT_A_E_TYPE,	/* string: "wakeup", "enqueue", "marker", ... */
	CLKSTAT_A_E_CPU,	/* u32 */
	CLKSTAT_A_E_PID,	/* u32 */
	CLKSTAT_A_E_CORR,	/* u64: correlation id, 0: none */
	CLKSTAT_A_E_LATENCY,	/* u64: ns, the interval the event closes */
	CLKSTAT_A_E_TEXT,	/* string: clocksource name, marker text */
	CLKSTAT_A_E_PAD,
	CLKSTAT_A_E_MIGRATED,	/* u8: 1 migrated, 0 local; absent: unknown */
	CLKSTAT_A_E_RQ_CLOCK,	/* u64: ns, the CPU's rq->clock, if known */
	__CLKSTAT_A_E_MAX,
};
#define CLKSTAT_A_E_MAX (__CLKSTAT_A_E_MAX - 1)

/* One user-defined probe in GET_INFO. */
enum clkstat_nl_trace_attr {
	CLKSTAT_A_T_UNSPEC,
	CLKSTAT_A_T_ID,		/* u32: its number (the events' corr) */
	CLKSTAT_A_T_SPEC,	/* string: its canonical spec, the metric name */
	__CLKSTAT_A_T_MAX,
};
#define CLKSTAT_A_T_MAX (__CLKSTAT_A_T_MAX - 1)

/*
 * The longest CLKSTAT_A_TRACE accepted, NUL excluded: twice a metric
 * name, so that a spec too long for one is refused by the module with a
 * reason (clkstat_trace.h) rather than by the policy without one.
 */
#define CLKSTAT_TRACE_ARG_MAX	(2 * CLKSTAT_NAME_MAX)

#define CLKSTAT_CPU_ALL		0xffffffffU

/*
 * The largest tgid filter (CLKSTAT_A_TGID, and the control file's "tgid N"):
 * PID_MAX_LIMIT of a 64-bit kernel, on every kernel, so that what is valid
 * does not depend on the kernel's configuration.
 */
#define CLKSTAT_TGID_MAX	4194304U

/*
 * One non-empty slot.  sum is in units of 2^clkstat_slot_sum_shift(slot)
 * ns, exactly as the module stores it (see clkstat_buckets.h).
 */
struct clkstat_nl_slot {
	__u32 slot;
	__u32 pad;
	__u64 count;
	__u64 sum;
};

#endif /* _UAPI_CLKSTAT_NETLINK_H */
